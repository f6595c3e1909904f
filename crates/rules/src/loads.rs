//! *Heroes All*, "Loads and carrying capacity": what a figure may carry, the
//! load sizes of men and kit, the carriage capacity of vehicles, boats and
//! aircraft, and the load space vehicles take up when they are carried.
//! Named vehicles and weapons carry their capacity and load space in the
//! CODEX ([`CodexEntry::capacity`], [`CodexEntry::load_space`]); these tables
//! are the book's generic rows.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::codex::CodexEntry;

/// A size or capacity in loads, kept in half loads ("Small explosive charge 1/2").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
pub struct Loads(u32);

crate::halves::impl_halves!(Loads);

/// The rows of the load sizes list ("The following items are shown with their load sizes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    Figure,
    SmallCharge,
    LargeCharge,
    DetonationPack,
    MineDetector,
    /// "1 inch x 1 inch mine coverage".
    MineCoverage,
    EngineerTools,
    Radio,
    ManPackFlamethrower,
    HandHeldAtWeapon,
    /// "Mortar up to 50mm" (ammunition included).
    MortarTo50,
    /// "Mortar up to 81mm".
    MortarTo81,
    /// "Mortar over 81mm".
    MortarOver81,
    LightMg,
    MediumMg,
    HeavyMg,
    Parachute,
}

impl Item {
    /// *Heroes All*, "Load sizes", in half loads, in the book's order.
    pub fn size(self) -> Loads {
        Loads(match self {
            Item::Figure => 2,
            Item::SmallCharge => 1,
            Item::LargeCharge => 2,
            Item::DetonationPack => 1,
            Item::MineDetector => 2,
            Item::MineCoverage => 2,
            Item::EngineerTools => 2,
            Item::Radio => 2,
            Item::ManPackFlamethrower => 2,
            Item::HandHeldAtWeapon => 2,
            Item::MortarTo50 => 4,
            Item::MortarTo81 => 6,
            Item::MortarOver81 => 8,
            Item::LightMg => 2,
            Item::MediumMg => 4,
            Item::HeavyMg => 6,
            Item::Parachute => 0, // "free"
        })
    }
}

/// "In addition a figure may carry 1 load" besides his personal kit.
pub const FIGURE_MAY_CARRY: Loads = Loads::whole(1);

/// Bad loading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// A figure given more than the 1 load he may carry.
    FigureOverloaded { carried: Loads },
    /// More put aboard than the carrier's capacity.
    OverCapacity { load: Loads, capacity: Loads },
    /// A CODEX entry with no capacity (it carries nothing) or no load space (an aircraft).
    NotInCodex { id: String, field: &'static str },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::FigureOverloaded { carried } => write!(f, "a figure may carry 1 load, not {carried}"),
            Self::OverCapacity { load, capacity } => write!(f, "{load} loads will not fit in a capacity of {capacity}"),
            Self::NotInCodex { id, field } => write!(f, "CODEX entry {id} has no {field}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// Checks what one figure carries besides his personal kit (at most 1 load).
pub fn figure_carries(items: &[Item]) -> Result<Loads, LoadError> {
    let carried: Loads = items.iter().map(|i| i.size()).sum();
    if carried > FIGURE_MAY_CARRY {
        return Err(LoadError::FigureOverloaded { carried });
    }
    Ok(carried)
}

/// A transported figure with his kit: "he is counted as 1 load and any other
/// equipment that he is carrying ... is counted in addition".
pub fn transported_figure(items: &[Item]) -> Result<Loads, LoadError> {
    Ok(Item::Figure.size() + figure_carries(items)?)
}

/// The rows of the Carriage capacity list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Carrier {
    Horse,
    Canoe,
    RubberBoat,
    AssaultBoat,
    Bicycle,
    Motorcycle,
    CivilianCar,
    /// "Motorcycle/sidecar, Kettenkrad etc".
    MotorcycleSidecar,
    HorseDrawnCart,
    /// "Universal carrier, jeep".
    CarrierOrJeep,
    /// "Kubelwagen, car etc".
    Kubelwagen,
    /// "Specialist/radio truck/prime mover for artillery".
    SpecialistTruck,
    ServiceTruck,
    /// "Light tank (up to Pz II, Vickers, A10 etc)".
    LightTank,
    /// "Other tanks (all others)".
    OtherTank,
    /// "Transport aircraft/tank-carrying glider".
    TransportAircraft,
    /// "Glider (to mid 1942)".
    GliderEarly,
    /// "Glider (after mid 1942)".
    GliderLate,
    Lca,
    Lcvp,
    LcmMk1,
    LcmMk2,
    Dukw,
    Lvt,
    LvtMk4,
    Lct4,
}

impl Carrier {
    /// *Heroes All*, "Carriage capacity", in the book's order; crews of boats,
    /// trucks, cars etc are not counted. The LCT's 180 is *Heroes All*'s; FYOW 22
    /// gives 140 for the campaign map, and on the table *Heroes All* governs
    /// (docs/rules-readings.md, test `carriage_capacity_rows`).
    pub fn capacity(self) -> Loads {
        Loads::whole(match self {
            Carrier::Horse => 2,
            Carrier::Canoe => 4,
            Carrier::RubberBoat => 8,
            Carrier::AssaultBoat => 10,
            Carrier::Bicycle => 2,
            Carrier::Motorcycle => 3,
            Carrier::CivilianCar => 4,
            Carrier::MotorcycleSidecar => 5,
            Carrier::HorseDrawnCart => 6,
            Carrier::CarrierOrJeep => 7,
            Carrier::Kubelwagen => 5,
            Carrier::SpecialistTruck => 8,
            Carrier::ServiceTruck => 12,
            Carrier::LightTank => 4,
            Carrier::OtherTank => 6,
            Carrier::TransportAircraft => 32,
            Carrier::GliderEarly => 10,
            Carrier::GliderLate => 16,
            Carrier::Lca => 16,
            Carrier::Lcvp => 16,
            Carrier::LcmMk1 => 60,
            Carrier::LcmMk2 => 100,
            Carrier::Dukw => 30,
            Carrier::Lvt => 30,
            Carrier::LvtMk4 => 36,
            Carrier::Lct4 => 180,
        })
    }
}

/// The rows of "Load spaces occupied by vehicles etc".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cargo {
    Canoe,
    /// "Rubber boat/assault boat".
    Boat,
    Bicycle,
    Motorcycle,
    /// "Motorcycle sidecar/Kettenkrad".
    MotorcycleSidecar,
    Horse,
    HorseDrawnCart,
    /// "Jeep/Kubelwagen/car/carrier".
    LightVehicle,
    /// "(for trailer added to the above)".
    Trailer,
    /// "Artillery/AA piece".
    Gun,
    /// "Radio truck/artillery tow".
    RadioTruckOrTow,
    ServiceTruck,
    /// "Scout car/armoured transport (M3/M5/SdKfz 251)".
    ArmouredTransport,
    LightTank,
    /// "Most AFVs/SPGs".
    Afv,
    /// "Heavy tanks and SPGs".
    HeavyAfv,
    Avre,
}

impl Cargo {
    /// *Heroes All*, "Load spaces occupied by vehicles etc", in the book's order.
    pub fn space(self) -> Loads {
        Loads::whole(match self {
            Cargo::Canoe => 2,
            Cargo::Boat => 4,
            Cargo::Bicycle => 1,
            Cargo::Motorcycle => 3,
            Cargo::MotorcycleSidecar => 5,
            Cargo::Horse => 4,
            Cargo::HorseDrawnCart => 6,
            Cargo::LightVehicle => 8,
            Cargo::Trailer => 4,
            Cargo::Gun => 6,
            Cargo::RadioTruckOrTow => 14,
            Cargo::ServiceTruck => 20,
            Cargo::ArmouredTransport => 20,
            Cargo::LightTank => 30,
            Cargo::Afv => 45,
            Cargo::HeavyAfv => 60,
            Cargo::Avre => 60,
        })
    }
}

/// A named carrier's capacity from the CODEX.
pub fn codex_capacity(entry: &CodexEntry) -> Result<Loads, LoadError> {
    entry
        .capacity
        .map(|c| Loads::whole(u32::from(c)))
        .ok_or_else(|| LoadError::NotInCodex { id: entry.id.clone(), field: "capacity" })
}

/// The load space a named weapon or vehicle takes up, from the CODEX.
pub fn codex_load_space(entry: &CodexEntry) -> Result<Loads, LoadError> {
    entry
        .load_space
        .map(|c| Loads::whole(u32::from(c)))
        .ok_or_else(|| LoadError::NotInCodex { id: entry.id.clone(), field: "load_space" })
}

/// Checks a load against a capacity ("the maximum load that can be carried");
/// returns the room left.
pub fn fits(capacity: Loads, load: &[Loads]) -> Result<Loads, LoadError> {
    let total: Loads = load.iter().copied().sum();
    if total > capacity {
        return Err(LoadError::OverCapacity { load: total, capacity });
    }
    Ok(Loads(capacity.0 - total.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::codex::test_codex as codex;

    #[test]
    fn book_example_a_man_with_a_large_charge_is_two_loads() {
        assert_eq!(transported_figure(&[Item::LargeCharge]), Ok(Loads::whole(2)));
        assert_eq!(transported_figure(&[]), Ok(Loads::whole(1)));
        assert_eq!(transported_figure(&[Item::SmallCharge]).map(|l| l.halves()), Ok(3));
    }

    #[test]
    fn a_figure_carries_one_load_besides_his_kit() {
        assert_eq!(figure_carries(&[Item::SmallCharge, Item::DetonationPack]), Ok(Loads::whole(1)));
        assert_eq!(figure_carries(&[Item::Parachute, Item::Radio]), Ok(Loads::whole(1)), "a parachute is free");
        assert_eq!(
            figure_carries(&[Item::LargeCharge, Item::DetonationPack]),
            Err(LoadError::FigureOverloaded { carried: Loads::whole(1) + Loads::HALF })
        );
        assert!(figure_carries(&[Item::MediumMg]).is_err(), "an MMG (2) is a crew's load");
    }

    #[test]
    fn load_sizes_rows() {
        let whole = |i: Item| i.size().halves() as f32 / 2.0;
        assert_eq!(whole(Item::SmallCharge), 0.5);
        assert_eq!(whole(Item::DetonationPack), 0.5);
        assert_eq!(whole(Item::MineCoverage), 1.0);
        assert_eq!(whole(Item::MortarTo50), 2.0);
        assert_eq!(whole(Item::MortarTo81), 3.0);
        assert_eq!(whole(Item::MortarOver81), 4.0);
        assert_eq!(whole(Item::HeavyMg), 3.0);
        assert_eq!(whole(Item::Parachute), 0.0);
    }

    #[test]
    fn carriage_capacity_rows() {
        assert_eq!(Carrier::Horse.capacity(), Loads::whole(2));
        assert_eq!(Carrier::CarrierOrJeep.capacity(), Loads::whole(7));
        assert_eq!(Carrier::GliderEarly.capacity(), Loads::whole(10));
        assert_eq!(Carrier::GliderLate.capacity(), Loads::whole(16));
        assert_eq!(Carrier::Dukw.capacity(), Loads::whole(30));
        assert_eq!(Carrier::Lct4.capacity(), Loads::whole(180), "Heroes All's LCT, not FYOW's 140");
    }

    #[test]
    fn load_space_rows_and_what_fits_where() {
        assert_eq!(Cargo::LightVehicle.space() + Cargo::Trailer.space(), Loads::whole(12));
        assert_eq!(Cargo::Avre.space(), Loads::whole(60));
        // A jeep and trailer (12) go in an LCVP (16); a Sherman (45) does not, but an LCM Mk II takes two.
        assert_eq!(
            fits(Carrier::Lcvp.capacity(), &[Cargo::LightVehicle.space(), Cargo::Trailer.space()]),
            Ok(Loads::whole(4))
        );
        assert!(fits(Carrier::Lcvp.capacity(), &[Cargo::Afv.space()]).is_err());
        assert_eq!(fits(Carrier::LcmMk2.capacity(), &[Cargo::Afv.space(); 2]), Ok(Loads::whole(10)));
        // A tank-carrying glider takes a light tank (30 of 32).
        assert!(fits(Carrier::TransportAircraft.capacity(), &[Cargo::LightTank.space()]).is_ok());
    }

    #[test]
    fn book_example_the_late_war_glider_load() {
        // "This late war glider has a carrying capacity of 16 loads so can easily deal
        // with 8 figures (8 loads), the PIAT and ammo (4 loads) and the 2 small
        // charges that these men are carrying (1 load)."
        let c = codex();
        let horsa = codex_capacity(c.get("gb_horsa").unwrap()).unwrap();
        assert_eq!(horsa, Carrier::GliderLate.capacity());
        let figures = Item::Figure.size() * 8;
        // Reading: the table's PIAT is 1 load; the example's other 3 are its ammunition.
        let piat = codex_load_space(c.get("gb_piat").unwrap()).unwrap();
        assert_eq!(piat, Item::HandHeldAtWeapon.size());
        let piat_and_ammo = piat + Loads::whole(3);
        let charges = Item::SmallCharge.size() * 2;
        assert_eq!(charges, Loads::whole(1));
        assert_eq!(fits(horsa, &[figures, piat_and_ammo, charges]), Ok(Loads::whole(3)));
        // The same load (13) is too much for an early glider (10).
        let dfs = codex_capacity(c.get("de_dfs230").unwrap()).unwrap();
        assert_eq!(
            fits(dfs, &[figures, piat_and_ammo, charges]),
            Err(LoadError::OverCapacity { load: Loads::whole(13), capacity: Loads::whole(10) })
        );
    }

    #[test]
    fn codex_entries_without_the_field_are_typed_errors() {
        let c = codex();
        let err = codex_load_space(c.get("gb_horsa").unwrap()).unwrap_err();
        assert_eq!(err, LoadError::NotInCodex { id: "gb_horsa".into(), field: "load_space" });
        assert!(codex_capacity(c.get("gb_piat").unwrap()).is_err());
        assert_eq!(Loads::whole(2).to_string(), "2");
        assert_eq!((Loads::whole(1) + Loads::HALF).to_string(), "1½");
    }
}
