//! *Heroes All*, "Boats": getting into and out of river craft, the beach's
//! lanes and gaps, the Landing Plan, mined approaches, the 3-bound landing
//! sequence, and sea-going craft (inshore moves, gunboat support, unloading
//! by crane). Capacities are the Loads chapter's ([`crate::loads::Carrier`]:
//! the LCT's 180 of *Heroes All* governs on the table, not FYOW 22's 140).

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::firing::Cover;
use crate::loads::{Carrier, Loads};
use crate::order_dice::Phase;

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::HeroesAll, section)
}

/// Bad input to a boat rule, or a landing the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoatError {
    /// "Each landing craft occupies a lane and only amphibious tanks/lorries
    /// can use the gaps."
    NotAmphibious(usize),
    /// A landing craft put in a gap, or an amphibious vehicle's lane slot
    /// given to a second craft of the same wave.
    SlotTaken {
        slot: usize,
        wave: u32,
    },
    /// "If a lane is blocked by a destroyed craft, the Landing Plan must be
    /// adjusted as this lane will no longer be available for use."
    LaneBlocked(usize),
    /// The slot is past the beach's width.
    NoSuchSlot(usize),
    /// The carrier is not a landing craft or amphibious vehicle.
    NotACraft(Carrier),
    /// Gunboats' "targets can only be buildings or structures".
    GunboatTarget,
    /// "Docked ships may not fire their weapons."
    Docked,
    /// "A maximum of 3 platoons can be unloaded per bound."
    TooManyPlatoons(u8),
    /// Unloading "begins on the bound following arrival at the wharf side".
    NotYetUnloading,
    BadWidth,
    /// An element given no boats.
    NoBoats,
    /// One item larger than a single boat takes.
    TooBigForABoat {
        item: Loads,
        capacity: Loads,
    },
    /// An element too large for its boats.
    Overloaded {
        load: Loads,
        capacity: Loads,
    },
}

impl fmt::Display for BoatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoBoats => write!(f, "it needs at least one boat"),
            Self::TooBigForABoat { item, capacity } => {
                write!(f, "one item of {item} loads will not go in a boat of capacity {capacity}")
            }
            Self::Overloaded { load, capacity } => {
                write!(f, "its men and kit are {load} loads, more than its boats' capacity of {capacity}")
            }
            _ => write!(f, "{self:?}"),
        }
    }
}

impl std::error::Error for BoatError {}

// --------------------------------------------------------------- river craft

/// Getting into a river craft: "is treated as an Act / uses a '4' Command
/// Dice"; getting out at its destination "is done as part of the move phase
/// / using a '2' Command Dice" (solo / 2-player).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Embarking {
    /// The phase it takes in the solo game.
    pub solo: Phase,
    /// The Command Die it needs in the 2-player game.
    pub command_die: u8,
}

pub const GET_IN: Embarking = Embarking { solo: Phase::Act, command_die: 4 };
pub const GET_OUT: Embarking = Embarking { solo: Phase::Move, command_die: 2 };

/// The river craft an element carries to the water (*Heroes All*,
/// "Carriage capacity": "Canoe (2 man)", "Rubber boats (generic)",
/// "Assault Boat/Goatley boat etc"). Each is paddled: it moves on the
/// Movement Table's "Improvised/paddled raft" row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RiverCraft {
    Canoe,
    RubberBoat,
    AssaultBoat,
}

impl RiverCraft {
    /// Its row of the Carriage capacity list.
    pub fn carrier(self) -> Carrier {
        match self {
            Self::Canoe => Carrier::Canoe,
            Self::RubberBoat => Carrier::RubberBoat,
            Self::AssaultBoat => Carrier::AssaultBoat,
        }
    }
}

/// An element's boats: `count` river craft of one kind, which carry the
/// whole element across together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiverBoats {
    pub craft: RiverCraft,
    pub count: u8,
}

impl RiverBoats {
    /// The boats' capacity together.
    pub fn capacity(self) -> Loads {
        self.craft.carrier().capacity() * u32::from(self.count)
    }

    /// Checks that the boats take an element of `load` loads whose largest
    /// single item (a man, a weapon and its crew's share aside) is
    /// `largest`: "Each vehicle, boat or aircraft has a capacity rating
    /// which represents the maximum load that can be carried". Reading: the
    /// element is shared among its boats, so the boats' capacities add up,
    /// but no one thing is split between two boats (test
    /// `boats_carry_an_element_shared_among_them`).
    pub fn carry(self, load: Loads, largest: Loads) -> Result<Loads, BoatError> {
        if self.count == 0 {
            return Err(BoatError::NoBoats);
        }
        let one = self.craft.carrier().capacity();
        if largest > one {
            return Err(BoatError::TooBigForABoat { item: largest, capacity: one });
        }
        crate::loads::fits(self.capacity(), &[load])
            .map_err(|_| BoatError::Overloaded { load, capacity: self.capacity() })
    }
}

// ------------------------------------------------------------ landing craft

/// "Lanes 4 inches wide and separated by a 'gap' which is also 4 inches wide."
pub const LANE_WIDTH: f32 = 4.0;

/// A slot of the beach: lanes and gaps alternate from the beach's left end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    Lane,
    Gap,
}

/// The slots of a beach `width` inches wide, left to right, each 4" wide.
///
/// Reading: the beach starts with a lane, and a part-slot at the right end is
/// not used (test `beach_divides_into_lanes_and_gaps`).
pub fn beach_slots(width: f32) -> Result<Vec<Slot>, BoatError> {
    if !(width.is_finite() && width >= 0.0) {
        return Err(BoatError::BadWidth);
    }
    let n = (width / LANE_WIDTH).floor() as usize;
    Ok((0..n).map(|i| if i % 2 == 0 { Slot::Lane } else { Slot::Gap }).collect())
}

/// The landing craft of the Loads chapter.
pub const fn is_landing_craft(c: Carrier) -> bool {
    matches!(c, Carrier::Lca | Carrier::Lcvp | Carrier::LcmMk1 | Carrier::LcmMk2 | Carrier::Lct4)
}

/// Amphibious lorries of the Loads chapter (amphibious tanks come as
/// [`Craft::AmphibiousTank`]).
pub const fn is_amphibious(c: Carrier) -> bool {
    matches!(c, Carrier::Dukw | Carrier::Lvt | Carrier::LvtMk4)
}

/// What lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Craft {
    Carrier(Carrier),
    /// A DD tank and the like.
    AmphibiousTank,
}

impl Craft {
    fn amphibious(self) -> bool {
        match self {
            Craft::Carrier(c) => is_amphibious(c),
            Craft::AmphibiousTank => true,
        }
    }
}

/// One line of the Landing Plan: "the initial schedule for landings in each
/// lane and gap. The contents of each landing craft must be included."
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Landing {
    pub slot: usize,
    /// Wave 1 approaches on bound 1.
    pub wave: u32,
    pub craft: Craft,
    pub contents: Vec<String>,
}

/// The Landing Plan and the lanes destroyed craft have blocked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LandingPlan {
    pub slots: Vec<Slot>,
    pub landings: Vec<Landing>,
    pub blocked: Vec<usize>,
}

impl LandingPlan {
    pub fn new(width: f32) -> Result<Self, BoatError> {
        Ok(Self { slots: beach_slots(width)?, landings: Vec::new(), blocked: Vec::new() })
    }

    /// Adds a landing: a landing craft in a free, open lane; gaps for
    /// amphibious tanks and lorries only; one craft a slot a wave.
    ///
    /// Reading: amphibious vehicles may use lanes too ("only amphibious ...
    /// can use the gaps" restricts the gaps, not them) (test `landing_plan_lanes_and_gaps`).
    pub fn schedule(&mut self, landing: Landing) -> Result<(), BoatError> {
        let slot = *self.slots.get(landing.slot).ok_or(BoatError::NoSuchSlot(landing.slot))?;
        if let Craft::Carrier(c) = landing.craft
            && !is_landing_craft(c)
            && !is_amphibious(c)
        {
            return Err(BoatError::NotACraft(c));
        }
        if slot == Slot::Gap && !landing.craft.amphibious() {
            return Err(BoatError::NotAmphibious(landing.slot));
        }
        if self.blocked.contains(&landing.slot) {
            return Err(BoatError::LaneBlocked(landing.slot));
        }
        if self.landings.iter().any(|l| l.slot == landing.slot && l.wave == landing.wave) {
            return Err(BoatError::SlotTaken { slot: landing.slot, wave: landing.wave });
        }
        self.landings.push(landing);
        Ok(())
    }

    /// A craft destroyed in a lane blocks it: later landings scheduled there
    /// are taken out of the plan and returned, for the player to adjust.
    pub fn block(&mut self, slot: usize, wave: u32) -> Vec<Landing> {
        if !self.blocked.contains(&slot) {
            self.blocked.push(slot);
        }
        let (out, keep) = std::mem::take(&mut self.landings).into_iter().partition(|l| l.slot == slot && l.wave > wave);
        self.landings = keep;
        out
    }
}

/// "If the scenario indicates that the approaches are mined, each landing
/// craft or amphibious vehicle throws a D6 on approach. A score of 1 destroys
/// the craft/vehicle."
pub fn mined_approach(dice: &mut impl Roll, id: &str) -> (bool, RuleEvent) {
    let face = dice.d6();
    let destroyed = face == 1;
    let e = RuleEvent::new(EventKind::Movement, rule("Landing craft"))
        .actor(id)
        .input("approaches_mined", true, "a D6 on approach, 1 destroys")
        .dice(6, &[face])
        .outcome(json!({ "destroyed": destroyed }));
    (destroyed, e)
}

/// "Infantry in landing craft are considered to be in Hard Cover."
pub const INFANTRY_IN_LANDING_CRAFT: Cover = Cover::Hard;

/// A wave's stage in the landing sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Not yet assembled.
    Waiting,
    /// "Craft are on approach to the beach (move / '2' order). Crews of
    /// landing craft may observe enemy targets. Weapons mounted on the
    /// landing craft may fire."
    Approach,
    /// "Craft land on the beach (move / '2' order). Order Dice thrown for the
    /// occupants."
    Land,
    /// "Craft retire."
    Retire,
    Gone,
}

/// *Heroes All*, "Landing craft landing sequence": wave `w` (1, 2, …) is on
/// approach on bound `w`, lands on `w + 1` and retires on `w + 2` ("Bound 3
/// First wave of craft retire and second wave land. This process continues
/// until all waves have landed.")
pub fn stage(wave: u32, bound: u32) -> Stage {
    match bound.checked_sub(wave) {
        None => Stage::Waiting,
        Some(0) => Stage::Approach,
        Some(1) => Stage::Land,
        Some(2) => Stage::Retire,
        Some(_) => Stage::Gone,
    }
}

/// The 2-player Command Die the craft need on approach and landing (a "2").
pub const LANDING_COMMAND_DIE: u8 = 2;

// ---------------------------------------------------------- sea-going craft

/// Sea-going craft "use the same movement rates as the river craft (if
/// within 12 inches of shore during the game)".
pub const INSHORE: f32 = 12.0;

/// Whether a sea-going craft moves at river-craft rates.
pub fn moves_as_river_craft(from_shore: f32) -> bool {
    from_shore <= INSHORE
}

/// What a gunboat's off-shore fire support may be aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShoreTarget {
    Building,
    Structure,
    Troops,
    Vehicle,
}

/// "Gunboats can give off-shore fire support ... Their targets can only be
/// buildings or structures, not troops or vehicles." "Docked ships may not
/// fire their weapons."
pub fn gunboat_may_fire(target: ShoreTarget, docked: bool) -> Result<(), BoatError> {
    if docked {
        return Err(BoatError::Docked);
    }
    match target {
        ShoreTarget::Building | ShoreTarget::Structure => Ok(()),
        ShoreTarget::Troops | ShoreTarget::Vehicle => Err(BoatError::GunboatTarget),
    }
}

/// "A maximum of 3 platoons can be unloaded per bound."
pub const MAX_PLATOONS_PER_BOUND: u8 = 3;

/// What a docked ship without bow doors unloads on one activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unloading {
    /// "1 piece of equipment or 1 vehicle can be unloaded for each crane available."
    pub vehicles_or_equipment: u8,
    pub platoons: u8,
    /// The bound the unloaded vehicles first get an OPC: the next bound.
    pub vehicles_opc_from: u32,
    /// Troops "get an OPC for the bound that unloading begins".
    pub troops_opc_from: u32,
}

/// *Heroes All*, "Sea-going craft": unloading "begins on the bound following
/// arrival at the wharf side" and, on each activation of the ship, one
/// vehicle or piece of equipment a crane, and up to 3 platoons.
///
/// Reading: troops need no crane (they walk down the gangway); "the bound
/// that unloading begins" is read as the bound they come off (test
/// `unloading_by_crane`).
pub fn unload(
    arrived: u32,
    bound: u32,
    cranes: u8,
    vehicles_waiting: u8,
    platoons: u8,
) -> Result<Unloading, BoatError> {
    if bound <= arrived {
        return Err(BoatError::NotYetUnloading);
    }
    if platoons > MAX_PLATOONS_PER_BOUND {
        return Err(BoatError::TooManyPlatoons(platoons));
    }
    Ok(Unloading {
        vehicles_or_equipment: cranes.min(vehicles_waiting),
        platoons,
        vehicles_opc_from: bound + 1,
        troops_opc_from: bound,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::loads::Loads;

    #[test]
    fn boats_carry_an_element_shared_among_them() {
        let three = RiverBoats { craft: RiverCraft::AssaultBoat, count: 3 };
        assert_eq!(three.capacity(), Loads::whole(30), "Assault Boat/Goatley boat etc: 10 each");
        assert_eq!(three.carry(Loads::whole(28), Loads::whole(3)), Ok(Loads::whole(2)));
        assert_eq!(
            three.carry(Loads::whole(31), Loads::whole(1)),
            Err(BoatError::Overloaded { load: Loads::whole(31), capacity: Loads::whole(30) })
        );
        let canoes = RiverBoats { craft: RiverCraft::Canoe, count: 4 };
        assert_eq!(canoes.capacity(), Loads::whole(16), "Canoe (2 man): 4 each");
        assert!(matches!(canoes.carry(Loads::whole(10), Loads::whole(5)), Err(BoatError::TooBigForABoat { .. })));
        let none = RiverBoats { craft: RiverCraft::RubberBoat, count: 0 };
        assert_eq!(none.carry(Loads::whole(1), Loads::whole(1)), Err(BoatError::NoBoats));
        assert_eq!(RiverBoats { count: 1, ..none }.capacity(), Loads::whole(8), "Rubber boats (generic): 8");
    }

    fn landing(slot: usize, wave: u32, craft: Craft) -> Landing {
        Landing { slot, wave, craft, contents: vec!["1 Pl".into()] }
    }

    #[test]
    fn river_craft_in_on_an_act_out_on_the_move() {
        assert_eq!((GET_IN.solo, GET_IN.command_die), (Phase::Act, 4));
        assert_eq!((GET_OUT.solo, GET_OUT.command_die), (Phase::Move, 2));
    }

    #[test]
    fn beach_divides_into_lanes_and_gaps() {
        let s = beach_slots(22.0).unwrap();
        assert_eq!(s, [Slot::Lane, Slot::Gap, Slot::Lane, Slot::Gap, Slot::Lane]);
        assert!(beach_slots(-1.0).is_err());
    }

    #[test]
    fn landing_plan_lanes_and_gaps() {
        let mut plan = LandingPlan::new(24.0).unwrap();
        plan.schedule(landing(0, 1, Craft::Carrier(Carrier::Lca))).unwrap();
        assert_eq!(plan.schedule(landing(1, 1, Craft::Carrier(Carrier::Lcvp))), Err(BoatError::NotAmphibious(1)));
        plan.schedule(landing(1, 1, Craft::AmphibiousTank)).unwrap();
        plan.schedule(landing(3, 1, Craft::Carrier(Carrier::Dukw))).unwrap();
        plan.schedule(landing(2, 1, Craft::Carrier(Carrier::Lvt))).unwrap();
        assert_eq!(
            plan.schedule(landing(0, 1, Craft::Carrier(Carrier::Lct4))),
            Err(BoatError::SlotTaken { slot: 0, wave: 1 })
        );
        assert_eq!(
            plan.schedule(landing(0, 2, Craft::Carrier(Carrier::ServiceTruck))),
            Err(BoatError::NotACraft(Carrier::ServiceTruck))
        );
        assert_eq!(plan.schedule(landing(9, 1, Craft::AmphibiousTank)), Err(BoatError::NoSuchSlot(9)));
    }

    #[test]
    fn a_destroyed_craft_blocks_its_lane() {
        let mut plan = LandingPlan::new(12.0).unwrap();
        plan.schedule(landing(0, 1, Craft::Carrier(Carrier::Lca))).unwrap();
        plan.schedule(landing(0, 2, Craft::Carrier(Carrier::LcmMk1))).unwrap();
        plan.schedule(landing(2, 2, Craft::Carrier(Carrier::Lca))).unwrap();
        let (destroyed, e) = mined_approach(&mut Scripted::new([1]), "LCA 1");
        assert!(destroyed && e.dice.len() == 1);
        assert!(!mined_approach(&mut Scripted::new([2]), "LCA 2").0);
        let moved = plan.block(0, 1);
        assert_eq!(moved.len(), 1, "wave 2's LCM must be re-planned");
        assert_eq!(plan.landings.len(), 2);
        assert_eq!(plan.schedule(landing(0, 3, Craft::Carrier(Carrier::Lca))), Err(BoatError::LaneBlocked(0)));
        assert_eq!(INFANTRY_IN_LANDING_CRAFT, Cover::Hard);
    }

    #[test]
    fn landing_sequence_three_bounds_a_wave() {
        assert_eq!(stage(1, 1), Stage::Approach);
        assert_eq!(stage(1, 2), Stage::Land);
        assert_eq!(stage(2, 2), Stage::Approach, "a new wave assembles on approach");
        assert_eq!(stage(1, 3), Stage::Retire);
        assert_eq!(stage(2, 3), Stage::Land, "first wave retire, second wave land");
        assert_eq!(stage(1, 4), Stage::Gone);
        assert_eq!(stage(3, 2), Stage::Waiting);
        assert_eq!(LANDING_COMMAND_DIE, 2);
    }

    #[test]
    fn reading_lct_carries_180_on_the_table() {
        assert_eq!(Carrier::Lct4.capacity(), Loads::whole(180));
        assert!(is_landing_craft(Carrier::Lct4));
    }

    #[test]
    fn sea_going_craft_inshore_and_gunboats() {
        assert!(moves_as_river_craft(12.0) && !moves_as_river_craft(12.5));
        assert_eq!(gunboat_may_fire(ShoreTarget::Building, false), Ok(()));
        assert_eq!(gunboat_may_fire(ShoreTarget::Troops, false), Err(BoatError::GunboatTarget));
        assert_eq!(gunboat_may_fire(ShoreTarget::Structure, true), Err(BoatError::Docked));
    }

    #[test]
    fn unloading_by_crane() {
        assert_eq!(unload(5, 5, 2, 4, 1), Err(BoatError::NotYetUnloading));
        let u = unload(5, 6, 2, 4, 3).unwrap();
        assert_eq!((u.vehicles_or_equipment, u.platoons), (2, 3));
        assert_eq!((u.vehicles_opc_from, u.troops_opc_from), (7, 6));
        assert_eq!(unload(5, 6, 3, 1, 0).unwrap().vehicles_or_equipment, 1);
        assert_eq!(unload(5, 6, 1, 1, 4), Err(BoatError::TooManyPlatoons(4)));
    }
}
