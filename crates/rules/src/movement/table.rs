//! The Movement Table (*Heroes All*, "Movement Table - how many D6 inches
//! can an element move?") as printed, row by row, and the dice its notes and
//! the rules beside it set in place of a row's figure.

use serde::{Deserialize, Serialize};

/// A row of the Movement Table ("Movement Table - how many D6 inches can an
/// element move?"), in the book's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Row {
    Infantry,
    /// Carried CSW: HMtr or HMG.
    CarriedCsw,
    HandMovedGun,
    /// Infantry: sheer up/down.
    InfantrySheer,
    /// Infantry: crawl (open/tunnels).
    InfantryCrawl,
    /// Infantry: built up/jungle areas.
    InfantryBuiltUp,
    Bicycle,
    /// Cavalry: horse tow.
    HorseTow,
    /// Cavalry: mounted.
    MountedCavalry,
    Motorcycle,
    /// Motor cycle and sidecar.
    MotorcycleSidecar,
    /// Car: non military.
    NonMilitaryCar,
    /// Car: Kubelwagen, Jeep.
    MilitaryCar,
    /// Light truck: Morris C8.
    LightTruck,
    /// Medium truck: Opel Blitz, QLT.
    MediumTruck,
    AwdTruck,
    TowingVehicle,
    /// 1/2 track: Bren Carrier/SdKfz 251.
    HalfTrack,
    /// Armoured cars, wheeled.
    ArmouredCar,
    /// Slow tank: Matilda II.
    SlowTank,
    Tank,
    /// Fast tank: Luchs.
    FastTank,
    /// Goliath, remote controlled.
    Goliath,
    /// Engineers: bulldozer.
    Bulldozer,
    /// In water: wading troops.
    Wading,
    /// In water: improvised/paddled raft.
    Raft,
    /// In water: "swimming" tank.
    SwimmingTank,
    /// In water: powered boat.
    PoweredBoat,
    /// In water: MTB etc.
    Mtb,
    /// In water: Schwimmwagen.
    Schwimmwagen,
    /// In water: vehicle ferry.
    VehicleFerry,
}

/// One row of the Movement Table: D6 thrown on a road and cross-country.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRow {
    pub row: Row,
    /// Dice on a made-up/metalled road; `None` where the cell is blank.
    pub road: Option<u8>,
    /// Dice cross-country; `None` where the cell is blank.
    pub cross_country: Option<u8>,
    /// "Reduce each d6 by 1 pip" (carried HMtr or HMG).
    pub pips: u8,
    /// "At the double" move available.
    pub at_the_double: bool,
}

impl TableRow {
    /// The dice for a road or cross-country move. Rows with one figure (sheer
    /// faces, built-up/jungle areas, the water rows) name a going of their own
    /// and use that figure whichever column it was printed in.
    pub const fn dice(&self, on_road: bool) -> u8 {
        match (on_road, self.road, self.cross_country) {
            (true, Some(n), _) | (false, _, Some(n)) | (_, Some(n), None) | (_, None, Some(n)) => n,
            (_, None, None) => 0,
        }
    }
}

const fn row(row: Row, road: Option<u8>, cross_country: Option<u8>, pips: u8, at_the_double: bool) -> TableRow {
    TableRow { row, road, cross_country, pips, at_the_double }
}

/// *Heroes All*, "Movement Table - how many D6 inches can an element move?",
/// every row as printed (Type, Road, Xcntry, Notes). Index = `Row as usize`.
pub const MOVEMENT_TABLE: [TableRow; 31] = {
    use Row::*;
    [
        row(Infantry, Some(3), Some(2), 0, true),
        row(CarriedCsw, Some(3), Some(2), 1, true),
        row(HandMovedGun, Some(2), Some(1), 0, false),
        row(InfantrySheer, Some(1), None, 0, true),
        row(InfantryCrawl, Some(1), Some(1), 0, true),
        row(InfantryBuiltUp, Some(2), None, 0, false),
        row(Bicycle, Some(5), Some(1), 0, true),
        row(HorseTow, Some(5), Some(3), 0, false),
        row(MountedCavalry, Some(6), Some(5), 0, true),
        row(Motorcycle, Some(8), Some(4), 0, false),
        row(MotorcycleSidecar, Some(7), Some(4), 0, false),
        row(NonMilitaryCar, Some(8), Some(1), 0, false),
        row(MilitaryCar, Some(8), Some(4), 0, false),
        row(LightTruck, Some(8), Some(2), 0, false),
        row(MediumTruck, Some(6), Some(2), 0, false),
        row(AwdTruck, Some(6), Some(4), 0, false),
        row(TowingVehicle, Some(5), Some(2), 0, false),
        row(HalfTrack, Some(8), Some(4), 0, false),
        row(ArmouredCar, Some(8), Some(3), 0, false),
        row(SlowTank, Some(3), Some(2), 0, false),
        row(Tank, Some(5), Some(3), 0, false),
        row(FastTank, Some(6), Some(3), 0, false),
        row(Goliath, Some(1), Some(1), 0, false),
        row(Bulldozer, Some(3), Some(3), 0, false),
        row(Wading, None, Some(1), 0, false),
        row(Raft, None, Some(2), 0, false),
        row(SwimmingTank, None, Some(1), 0, false),
        row(PoweredBoat, None, Some(5), 0, false),
        row(Mtb, None, Some(8), 0, false),
        row(Schwimmwagen, None, Some(3), 0, false),
        row(VehicleFerry, None, Some(3), 0, false),
    ]
};

impl Row {
    pub fn entry(self) -> &'static TableRow {
        &MOVEMENT_TABLE[self as usize]
    }
}

/// "All AFVs move at 1D6 per bound in built up areas" (note to the armoured cars row).
pub const AFV_BUILT_UP_DICE: u8 = 1;
/// "Any vehicle noted as \"damaged\" only moves 1 x D6 inches per bound."
pub const DAMAGED_DICE: u8 = 1;
/// Stealth move: "up to 1D6 inches (2D6 inches for elite)".
pub const STEALTH_DICE: u8 = 1;
pub const ELITE_STEALTH_DICE: u8 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_are_in_the_books_order_and_each_has_a_figure() {
        for (i, r) in MOVEMENT_TABLE.iter().enumerate() {
            assert_eq!(r.row as usize, i, "{:?}", r.row);
            assert!(r.dice(true) > 0 && r.dice(false) > 0, "{:?}", r.row);
        }
    }

    #[test]
    fn table_rows_read_as_printed() {
        let rc = |r: Row| (r.entry().dice(true), r.entry().dice(false));
        assert_eq!(rc(Row::Infantry), (3, 2));
        assert_eq!(rc(Row::HandMovedGun), (2, 1));
        assert_eq!(rc(Row::Bicycle), (5, 1));
        assert_eq!(rc(Row::MountedCavalry), (6, 5));
        assert_eq!(rc(Row::MotorcycleSidecar), (7, 4));
        assert_eq!(rc(Row::NonMilitaryCar), (8, 1));
        assert_eq!(rc(Row::AwdTruck), (6, 4));
        assert_eq!(rc(Row::HalfTrack), (8, 4));
        assert_eq!(rc(Row::SlowTank), (3, 2));
        assert_eq!(rc(Row::FastTank), (6, 3));
        assert_eq!(rc(Row::Bulldozer), (3, 3));
        assert_eq!(rc(Row::Mtb), (8, 8), "water rows have one figure");
        assert_eq!(rc(Row::InfantrySheer), (1, 1), "going rows have one figure");
        assert_eq!(Row::CarriedCsw.entry().pips, 1);
        let doubles: Vec<Row> = MOVEMENT_TABLE.iter().filter(|r| r.at_the_double).map(|r| r.row).collect();
        assert_eq!(
            doubles,
            [Row::Infantry, Row::CarriedCsw, Row::InfantrySheer, Row::InfantryCrawl, Row::Bicycle, Row::MountedCavalry]
        );
    }
}
