//! FYOW 22 Carrying Capacity and Load Spaces, "copied from Heroes All": the
//! load a figure carries, the load spaces taken by men, kit and vehicles,
//! and the capacity of each carrier. The rows are *Heroes All*'s
//! ([`warbound_rules::loads`]) but for one: FYOW prints the LCT's capacity as
//! 140 where *Heroes All* prints 180, and the campaign map uses FYOW's.

use warbound_rules::loads::{Cargo, Carrier, Item, LoadError, Loads};

pub use warbound_rules::loads::FIGURE_MAY_CARRY;

/// FYOW 22: "The following vehicle/carriers have the capacity as stated", row for row.
///
/// Reading (README contradiction, LCT capacity): *Heroes All* gives the LCT
/// 180, FYOW 22 gives 140. The campaign's carrying (convoys, landing craft
/// loading at hubs on the campaign map) follows its own book: 140. On the
/// games table `warbound_rules::loads::Carrier::capacity` keeps 180 (test
/// `reading_lct_carries_140_on_the_campaign_map`).
pub const CAPACITIES: [(Carrier, u32); 26] = [
    (Carrier::Horse, 2),
    (Carrier::Canoe, 4),
    (Carrier::RubberBoat, 8),
    (Carrier::AssaultBoat, 10),
    (Carrier::Bicycle, 2),
    (Carrier::Motorcycle, 3),
    (Carrier::CivilianCar, 4),
    (Carrier::MotorcycleSidecar, 5),
    (Carrier::HorseDrawnCart, 6),
    (Carrier::CarrierOrJeep, 7),
    (Carrier::Kubelwagen, 5),
    (Carrier::SpecialistTruck, 8),
    (Carrier::ServiceTruck, 12),
    (Carrier::LightTank, 4),
    (Carrier::OtherTank, 6),
    (Carrier::TransportAircraft, 32),
    (Carrier::GliderEarly, 10),
    (Carrier::GliderLate, 16),
    (Carrier::Lca, 16),
    (Carrier::Lcvp, 16),
    (Carrier::LcmMk1, 60),
    (Carrier::LcmMk2, 100),
    (Carrier::Dukw, 30),
    (Carrier::Lvt, 30),
    (Carrier::LvtMk4, 36),
    (Carrier::Lct4, 140),
];

/// A carrier's capacity on the campaign map (FYOW 22).
pub fn capacity(carrier: Carrier) -> Loads {
    let whole = CAPACITIES.iter().find(|(c, _)| *c == carrier).map_or(0, |&(_, n)| n);
    Loads::whole(whole)
}

/// The load space of a figure's kit (FYOW 22's first list; identical to *Heroes All*).
pub fn item_space(item: Item) -> Loads {
    item.size()
}

/// The load space of a vehicle, gun or animal carried (FYOW 22; identical to *Heroes All*).
pub fn cargo_space(cargo: Cargo) -> Loads {
    cargo.space()
}

/// Whether a load fits a carrier on the campaign map; the room left.
pub fn fits(carrier: Carrier, load: &[Loads]) -> Result<Loads, LoadError> {
    warbound_rules::loads::fits(capacity(carrier), load)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_lct_carries_140_on_the_campaign_map() {
        assert_eq!(capacity(Carrier::Lct4), Loads::whole(140));
        assert_eq!(Carrier::Lct4.capacity(), Loads::whole(180), "Heroes All's figure stays on the table");
        let heavy = cargo_space(Cargo::HeavyAfv);
        assert!(fits(Carrier::Lct4, &[heavy, heavy]).is_ok());
        assert!(fits(Carrier::Lct4, &[heavy, heavy, heavy]).is_err(), "180 > 140");
    }

    #[test]
    fn every_other_capacity_is_heroes_alls() {
        for (c, n) in CAPACITIES {
            if c != Carrier::Lct4 {
                assert_eq!(capacity(c), c.capacity(), "{c:?}");
                assert_eq!(capacity(c), Loads::whole(n));
            }
        }
    }

    #[test]
    fn fyow_22_load_space_rows() {
        // FYOW 22, the first list, in half loads.
        let items = [
            (Item::Figure, 2),
            (Item::SmallCharge, 1),
            (Item::LargeCharge, 2),
            (Item::DetonationPack, 1),
            (Item::MineDetector, 2),
            (Item::MineCoverage, 2),
            (Item::EngineerTools, 2),
            (Item::Radio, 2),
            (Item::ManPackFlamethrower, 2),
            (Item::HandHeldAtWeapon, 2),
            (Item::MortarTo50, 4),
            (Item::MortarTo81, 6),
            (Item::MortarOver81, 8),
            (Item::LightMg, 2),
            (Item::MediumMg, 4),
            (Item::HeavyMg, 6),
            (Item::Parachute, 0),
        ];
        for (i, halves) in items {
            assert_eq!(item_space(i).halves(), halves, "{i:?}");
        }
        let cargo = [
            (Cargo::Canoe, 2),
            (Cargo::Boat, 4),
            (Cargo::Bicycle, 1),
            (Cargo::Motorcycle, 3),
            (Cargo::MotorcycleSidecar, 5),
            (Cargo::Horse, 4),
            (Cargo::HorseDrawnCart, 6),
            (Cargo::LightVehicle, 8),
            (Cargo::Trailer, 4),
            (Cargo::Gun, 6),
            (Cargo::RadioTruckOrTow, 14),
            (Cargo::ServiceTruck, 20),
            (Cargo::ArmouredTransport, 20),
            (Cargo::LightTank, 30),
            (Cargo::Afv, 45),
            (Cargo::HeavyAfv, 60),
            (Cargo::Avre, 60),
        ];
        for (c, whole) in cargo {
            assert_eq!(cargo_space(c), Loads::whole(whole), "{c:?}");
        }
        assert_eq!(FIGURE_MAY_CARRY, Loads::whole(1), "a figure may carry 1 load");
    }

    #[test]
    fn book_dukw_capacity_is_a_total_with_equipment() {
        // "the DUKW had a capacity of 24 men but allowance has been made here for their equipment".
        assert_eq!(capacity(Carrier::Dukw), Loads::whole(30));
        let men = vec![item_space(Item::Figure); 24];
        assert_eq!(fits(Carrier::Dukw, &men), Ok(Loads::whole(6)));
    }
}
