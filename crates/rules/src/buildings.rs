//! *Heroes All* "Buildings" and "Bridges": capacity and who may occupy a
//! building, Defence Values of buildings and structures absorbing HE, the
//! doubled HE effect on buildings, fire, ruins, emplaced weapons and the
//! "surplus" HE on the occupants; setting fire to buildings; bridge types A–D,
//! their erosion by HE, the heavy-traffic limits and the collapse throw.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice::Roll;
use crate::effects::HeColumn;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::firing::Weapon;

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::HeroesAll, section)
}

/// "Unless specified before the game, all buildings are deemed to have a
/// capacity of 16 figures **including in assault**."
pub const DEFAULT_CAPACITY: u8 = 16;
/// "When any **building** is hit, the HE Effect Table values are **doubled**."
pub const BUILDING_HE_MULTIPLIER: u8 = 2;
/// "When a building is hit, a 6 on a D6 sets it on fire for D3 bounds."
pub const HIT_SETS_FIRE_ON: u8 = 6;
/// Setting fire to a building: "The fire takes hold next bound on a 2+ throw on a D6."
pub const FIRE_TAKES_HOLD_ON: u8 = 2;
/// "It burns for 3 bounds."
pub const SET_FIRE_BURNS: u8 = 3;

/// The chance a fire set takes hold: "on a 2+ throw on a D6".
pub fn fire_takes_hold_chance() -> f64 {
    f64::from(7 - FIRE_TAKES_HOLD_ON) / 6.0
}

/// The structures and buildings of "Hits on buildings & structures".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Structure {
    BarbedWire,
    /// A road, hit "to make a crater".
    Road,
    /// "Wire/road block, 'loose' obstacle".
    RoadBlock,
    /// "Wooden hut/barn".
    WoodenHut,
    /// "Small stone/brick building".
    SmallStoneBuilding,
    /// "House, barn etc".
    House,
    /// "Factory, hotel, church etc".
    Factory,
    /// "Pillbox, bunker etc".
    Pillbox,
}

/// What is left when a structure's Defence Value reaches 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Remains {
    /// "When destroyed, a road block or wooden building is simply removed."
    Removed,
    /// "treat it as a ruin and hard cover".
    Ruin,
    /// A road hit to make a crater.
    Crater,
}

/// One row of the Defence Values list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StructureRow {
    pub structure: Structure,
    pub points: u8,
    /// A building (marked * in the book): HE doubled, fire, capacity.
    pub building: bool,
    pub remains: Remains,
}

const fn srow(structure: Structure, points: u8, building: bool, remains: Remains) -> StructureRow {
    StructureRow { structure, points, building, remains }
}

/// *Heroes All*, "Hits on buildings & structures": Defence Values.
///
/// Reading: barbed wire destroyed is cut and removed like a "loose obstacle";
/// a pillbox destroyed is a ruin like any building (test `defence_values_as_printed`).
pub const STRUCTURES: [StructureRow; 8] = [
    srow(Structure::BarbedWire, 1, false, Remains::Removed),
    srow(Structure::Road, 1, false, Remains::Crater),
    srow(Structure::RoadBlock, 1, false, Remains::Removed),
    srow(Structure::WoodenHut, 2, true, Remains::Removed),
    srow(Structure::SmallStoneBuilding, 4, true, Remains::Ruin),
    srow(Structure::House, 4, true, Remains::Ruin),
    srow(Structure::Factory, 6, true, Remains::Ruin),
    srow(Structure::Pillbox, 6, true, Remains::Ruin),
];

impl Structure {
    pub fn row(self) -> &'static StructureRow {
        &STRUCTURES[self as usize]
    }
}

/// An HE hit as it lands: the weapon's column, any multiplier of its own
/// (petards and the Goliath double column F, see [`crate::assault::DEMOLITION`]),
/// and whether it is flame ("Buildings automatically catch fire when hit").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeHit {
    pub column: HeColumn,
    pub multiplier: u8,
    pub flame: bool,
}

impl HeHit {
    /// An ordinary HE (or mortar, or thrown grenade) hit.
    pub const fn he(column: HeColumn) -> Self {
        Self { column, multiplier: 1, flame: false }
    }
}

/// A building or structure's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Standing,
    /// On fire, with smoke the size of the building, for `bounds_left` bounds;
    /// occupants unable to evacuate on their next bound are lost.
    Burning {
        bounds_left: u8,
    },
    Destroyed(Remains),
}

/// Bad input, or something the building rules forbid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildingError {
    /// The building or structure is already destroyed.
    NotStanding,
    /// "Infantry may not enter the building whilst it is burning."
    Burning,
    /// The capacity would be exceeded ("even in assault").
    Full { room: u8 },
    /// Vehicles, artillery, mortars off the roof, AT guns.
    NotAllowed(Occupier),
    /// Structures (wire, roads, road blocks) hold no one.
    NotABuilding,
    /// A hit or multiplier of nothing.
    BadHit,
}

impl fmt::Display for BuildingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotStanding => write!(f, "the building is already destroyed"),
            Self::Burning => write!(f, "infantry may not enter a burning building"),
            Self::Full { room } => write!(f, "the building has room for {room} more figures"),
            Self::NotAllowed(o) => write!(f, "{o} may not occupy this building"),
            Self::NotABuilding => write!(f, "only buildings can be occupied or set on fire"),
            Self::BadHit => write!(f, "an HE hit needs a multiplier of at least 1"),
        }
    }
}

impl std::error::Error for BuildingError {}

/// What would go into a building.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Occupier {
    /// Figures (infantry, CSW crews): counted against the capacity; "Ignore
    /// hand-held weapons."
    Figures(u8),
    Vehicle,
    Artillery,
    Mortar {
        on_flat_roof: bool,
    },
    /// An AT weapon (PIAT, Bazooka, AT guns …).
    AtWeapon(Weapon),
}

impl fmt::Display for Occupier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Figures(n) => write!(f, "{n} figures"),
            Self::Vehicle => write!(f, "a vehicle"),
            Self::Artillery => write!(f, "a gun"),
            Self::Mortar { on_flat_roof: true } => write!(f, "a mortar on a flat roof"),
            Self::Mortar { on_flat_roof: false } => write!(f, "a mortar"),
            Self::AtWeapon(_) => write!(f, "an anti-tank weapon that is not hand-held"),
        }
    }
}

/// The figures among `occupiers`, counted against a building's capacity.
pub fn figures(occupiers: &[Occupier]) -> u8 {
    occupiers.iter().fold(0u8, |n, o| match o {
        Occupier::Figures(f) => n.saturating_add(*f),
        _ => n,
    })
}

/// The outcome of an HE hit on a building or structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildingHit {
    /// Casualties the HE Effects Table gives for the D6.
    pub table: u8,
    /// The table times the hit's multiplier, doubled again on a building.
    pub effect: u8,
    /// Points of the Defence Value taken off.
    pub absorbed: u8,
    /// Effect beyond the Defence Value once it is destroyed.
    pub surplus: u8,
    /// Occupants lost to the surplus (1 pip = 1 casualty).
    pub casualties: u8,
    pub destroyed: bool,
    /// An emplaced weapon lost with the building.
    pub emplaced_weapon_lost: bool,
    /// Bounds the building now burns, where the hit set it on fire.
    pub fire: Option<u8>,
}

/// A building or structure on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Building {
    pub structure: Structure,
    /// Figures it holds (0 for structures).
    pub capacity: u8,
    /// Defence Value left.
    pub points: u8,
    pub state: State,
    /// "If it contained an emplaced weapon, that is also destroyed."
    pub emplaced_weapon: bool,
}

impl Building {
    /// A fresh building of the default capacity, or a structure.
    pub fn new(structure: Structure) -> Self {
        let row = structure.row();
        Self {
            structure,
            capacity: if row.building { DEFAULT_CAPACITY } else { 0 },
            points: row.points,
            state: State::Standing,
            emplaced_weapon: false,
        }
    }

    /// A building whose capacity is "specified before the game".
    pub fn with_capacity(structure: Structure, capacity: u8) -> Result<Self, BuildingError> {
        if !structure.row().building {
            return Err(BuildingError::NotABuilding);
        }
        Ok(Self { capacity, ..Self::new(structure) })
    }

    fn standing(&self) -> bool {
        matches!(self.state, State::Standing | State::Burning { .. })
    }

    /// Whether this is a ruin: "a ruin and hard cover".
    pub fn is_ruin(&self) -> bool {
        self.state == State::Destroyed(Remains::Ruin)
    }

    /// *Heroes All*, "Buildings": who may occupy it. Figures fit within the
    /// capacity and may not enter while it burns; vehicles and artillery
    /// never; mortars only "on a flat roof or within the ruins"; "The only AT
    /// weapons that may occupy intact buildings are a PIAT, Bazooka,
    /// Panzerfaust etc".
    ///
    /// Readings: "etc" is the hand-held AT rows of the Weapons table (ATR,
    /// PIAT, Bazooka, PzSchreck, PzFaust); a ruin is hard-cover terrain with
    /// no capacity, where any infantry weapon or mortar may stand (test
    /// `who_may_occupy_a_building`).
    pub fn may_hold(&self, o: Occupier, inside: u8) -> Result<(), BuildingError> {
        if !self.structure.row().building {
            return Err(BuildingError::NotABuilding);
        }
        let ruin = self.is_ruin();
        if !ruin && !self.standing() {
            return Err(BuildingError::NotStanding);
        }
        match o {
            Occupier::Vehicle | Occupier::Artillery => Err(BuildingError::NotAllowed(o)),
            Occupier::Mortar { on_flat_roof } if !(ruin || on_flat_roof) => Err(BuildingError::NotAllowed(o)),
            Occupier::AtWeapon(w)
                if !ruin
                    && !matches!(
                        w,
                        Weapon::Atr | Weapon::Piat | Weapon::Bazooka | Weapon::PzSchreck | Weapon::PzFaust
                    ) =>
            {
                Err(BuildingError::NotAllowed(o))
            }
            Occupier::Figures(_) if matches!(self.state, State::Burning { .. }) => Err(BuildingError::Burning),
            Occupier::Figures(n) if !ruin => {
                let room = self.capacity.saturating_sub(inside);
                if n > room { Err(BuildingError::Full { room }) } else { Ok(()) }
            }
            _ => Ok(()),
        }
    }

    /// [`Building::may_hold`] for everything an element would bring in (its
    /// [`crate::forces::Element::occupiers`]): every one allowed and its
    /// figures, together, within the room left after `inside`.
    pub fn may_hold_all(&self, occupiers: &[Occupier], inside: u8) -> Result<(), BuildingError> {
        for &o in occupiers.iter().filter(|o| !matches!(o, Occupier::Figures(_))) {
            self.may_hold(o, inside)?;
        }
        self.may_hold(Occupier::Figures(figures(occupiers)), inside)
    }

    /// *Heroes All*, "Hits on buildings & structures": an HE hit (or a
    /// grenade thrown **not** during an assault). The D6 on the hit's column,
    /// times its multiplier, doubled on a building; the Defence Value absorbs
    /// it first, and at 0 the building is destroyed, any "surplus" falling on
    /// the `occupants` at 1 pip = 1 casualty; then, on a building still
    /// standing, a 6 on a D6 sets it on fire for D3 bounds (flame: at once).
    ///
    /// Readings: the occupants lose nothing while the Defence Value absorbs
    /// the hit ("absorbs damage first"); the doubling is what the hit does to
    /// the building and, through the surplus, to those inside (test
    /// `building_example_bishop_reduces_the_house_to_a_ruin`). The fire die is
    /// thrown only for a building left standing and not already burning; a
    /// ruin no longer burns (test `a_six_sets_a_standing_building_on_fire`).
    /// The fire burns "for D3 bounds", and the next line's smoke "for those 3
    /// bounds" (carried over from "Setting fire to buildings", where the fire
    /// burns 3) is read as the bounds this fire burns: smoke lasts while it
    /// burns ([`State::Burning`]).
    /// A destroyed building is not hit again: fire at its occupants as
    /// infantry in hard cover. Of the surplus, "CSW's are lost with their
    /// crews" ([`crate::effects::csw_casualties`]) and "Mobile artillery is
    /// destroyed by 1 pip": any surplus at all.
    pub fn hit(
        &mut self,
        he: HeHit,
        occupants: u8,
        dice: &mut impl Roll,
        id: &str,
    ) -> Result<(BuildingHit, RuleEvent), BuildingError> {
        if !self.standing() {
            return Err(BuildingError::NotStanding);
        }
        if he.multiplier == 0 {
            return Err(BuildingError::BadHit);
        }
        let row = self.structure.row();
        let face = dice.d6();
        let table = he.column.casualties(face);
        let doubling = if row.building { BUILDING_HE_MULTIPLIER } else { 1 };
        let effect = table.saturating_mul(he.multiplier).saturating_mul(doubling);
        let absorbed = effect.min(self.points);
        self.points -= absorbed;
        let destroyed = self.points == 0;
        let surplus = effect - absorbed;
        let mut out = BuildingHit {
            table,
            effect,
            absorbed,
            surplus,
            casualties: if destroyed { surplus.min(occupants) } else { 0 },
            destroyed,
            emplaced_weapon_lost: destroyed && self.emplaced_weapon,
            fire: None,
        };
        let mut faces = vec![face];
        if destroyed {
            self.destroy();
        } else if row.building && self.state == State::Standing {
            let alight = he.flame || {
                let f = dice.d6();
                faces.push(f);
                f >= HIT_SETS_FIRE_ON
            };
            if alight {
                let bounds = dice.d3();
                faces.push(bounds);
                self.state = State::Burning { bounds_left: bounds };
                out.fire = Some(bounds);
            }
        }
        let event = RuleEvent::new(EventKind::HeEffect, rule("Hits on buildings & structures"))
            .actor(id)
            .input("structure", self.structure, format!("Defence Value {}", row.points))
            .input("column", he.column, "the firing weapon's HE Effect")
            .input("multiplier", he.multiplier, "petards and the Goliath double column F")
            .input("building_doubles", row.building, "when any building is hit, the HE Effect Table values are doubled")
            .input("flame", he.flame, "buildings automatically catch fire when hit by flame")
            .input("occupants", occupants, "surplus HE: 1 pip = 1 casualty")
            .dice(6, &faces)
            .outcome(out);
        Ok((out, event))
    }

    fn destroy(&mut self) {
        self.points = 0;
        self.emplaced_weapon = false;
        self.state = State::Destroyed(self.structure.row().remains);
    }

    /// The end of a bound: a burning building burns down a bound, and "A
    /// burning building is destroyed after the fire" (a wooden one removed,
    /// stone or brick a ruin and hard cover). Returns the remains when it
    /// falls. Occupants who cannot evacuate on their next bound are lost: the
    /// caller's.
    pub fn end_of_bound(&mut self) -> Option<Remains> {
        let State::Burning { bounds_left } = self.state else { return None };
        if bounds_left > 1 {
            self.state = State::Burning { bounds_left: bounds_left - 1 };
            None
        } else {
            self.destroy();
            Some(self.structure.row().remains)
        }
    }

    /// *Heroes All*, "Setting fire to buildings": one figure spent a bound
    /// inside on an Act; "The fire takes hold next bound on a 2+ throw on a
    /// D6. It burns for 3 bounds."
    ///
    /// Reading: a failed throw leaves the building standing and the figure
    /// may try again (test `setting_fire_takes_hold_on_two`).
    pub fn fire_takes_hold(&mut self, dice: &mut impl Roll, id: &str) -> Result<(bool, RuleEvent), BuildingError> {
        if !self.structure.row().building {
            return Err(BuildingError::NotABuilding);
        }
        if self.state != State::Standing {
            return Err(if self.standing() { BuildingError::Burning } else { BuildingError::NotStanding });
        }
        let face = dice.d6();
        let held = face >= FIRE_TAKES_HOLD_ON;
        if held {
            self.state = State::Burning { bounds_left: SET_FIRE_BURNS };
        }
        let event = RuleEvent::new(EventKind::HeEffect, rule("Setting fire to buildings"))
            .actor(id)
            .input("needed", FIRE_TAKES_HOLD_ON, "the fire takes hold next bound on 2+; it burns for 3 bounds")
            .dice(6, &[face])
            .outcome(serde_json::json!({ "burning": held }));
        Ok((held, event))
    }
}

// ---------------------------------------------------------------------------
// Bridges

/// *Heroes All*, "Bridges": types A–D.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BridgeType {
    /// Small wood or iron structure over a small river; pontoon/temporary bridges.
    A,
    /// Stone or iron structure over a small river.
    B,
    /// Iron bridge over a wide river.
    C,
    /// Substantial stone or girder bridge over a wide river.
    D,
}

/// One bridge type: its Defence Value and the damage from which "no heavy
/// traffic may cross i.e. treat as if it were a Type A" (`None` for Type A,
/// which never takes heavy traffic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BridgeRow {
    pub kind: BridgeType,
    pub value: u8,
    pub as_type_a_from: Option<u8>,
}

/// *Heroes All*, "Bridges": Type A 2 pts; B 4 pts (2 pts damage: as A); C 6
/// pts (4 pts damage: as A); D 8 pts (5 pts damage: as A).
pub const BRIDGES: [BridgeRow; 4] = [
    BridgeRow { kind: BridgeType::A, value: 2, as_type_a_from: None },
    BridgeRow { kind: BridgeType::B, value: 4, as_type_a_from: Some(2) },
    BridgeRow { kind: BridgeType::C, value: 6, as_type_a_from: Some(4) },
    BridgeRow { kind: BridgeType::D, value: 8, as_type_a_from: Some(5) },
];

/// Type A: "When, as a result of an attack, the bridge value falls to 1,
/// throw 2D6 per bound per vehicle passing over it. A double means it collapses."
pub const COLLAPSE_TEST_AT: u8 = 1;

impl BridgeType {
    pub fn row(self) -> &'static BridgeRow {
        &BRIDGES[self as usize]
    }
}

/// A vehicle's weight for crossing: Type A takes "light vehicles up to the
/// weight of Medium tanks".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Traffic {
    UpToMediumTank,
    Heavy,
}

/// Why a vehicle may not cross.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BridgeError {
    /// "When the value of the bridge is reduced to 0 it is destroyed."
    Destroyed,
    /// No heavy traffic on a Type A, or on a bridge treated as one.
    TooHeavy,
}

impl fmt::Display for BridgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Destroyed => write!(f, "the bridge is destroyed"),
            Self::TooHeavy => write!(f, "no heavy traffic may cross (treat as a Type A bridge)"),
        }
    }
}

impl std::error::Error for BridgeError {}

/// A bridge crossed by a vehicle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crossing {
    Crossed,
    /// The 2D6 threw a double: the bridge collapses (and is destroyed).
    Collapsed,
}

/// A bridge on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bridge {
    pub kind: BridgeType,
    /// Defence Value left.
    pub value: u8,
}

impl Bridge {
    pub fn new(kind: BridgeType) -> Self {
        Self { kind, value: kind.row().value }
    }

    /// Points of damage taken.
    pub fn damage(&self) -> u8 {
        self.kind.row().value - self.value
    }

    pub fn is_destroyed(&self) -> bool {
        self.value == 0
    }

    /// Mends `points` of its damage (*Heroes All*, "Repairing roads and
    /// bridges"), never past its full Defence Value; a destroyed bridge is
    /// gone and mends nothing. Returns the points mended.
    pub fn repair(&mut self, points: u32) -> u8 {
        if self.is_destroyed() {
            return 0;
        }
        let mended = u8::try_from(points).unwrap_or(u8::MAX).min(self.damage());
        self.value += mended;
        mended
    }

    /// Type A, or damaged to the point of being treated as one.
    pub fn treated_as_type_a(&self) -> bool {
        self.kind.row().as_type_a_from.is_none_or(|d| self.damage() >= d)
    }

    /// *Heroes All*, "Bridges": the Defence Value "can be eroded by mortar or
    /// artillery HE fire, or HE grenades thrown": the HE Effects Table result
    /// of a D6 on the hit's column comes off the value.
    ///
    /// Reading: the doubling is for buildings only; a bridge loses the table
    /// result as printed (test `bridge_types_erode_and_bar_heavy_traffic`).
    pub fn hit(&mut self, column: HeColumn, dice: &mut impl Roll, id: &str) -> Result<(u8, RuleEvent), BridgeError> {
        if self.is_destroyed() {
            return Err(BridgeError::Destroyed);
        }
        let face = dice.d6();
        let lost = column.casualties(face).min(self.value);
        self.value -= lost;
        let event = RuleEvent::new(EventKind::HeEffect, rule("Bridges"))
            .actor(id)
            .input("kind", self.kind, format!("Defence Value {}", self.kind.row().value))
            .input("column", column, "mortar or artillery HE fire, or HE grenades thrown")
            .dice(6, &[face])
            .outcome(serde_json::json!({ "lost": lost, "value": self.value, "destroyed": self.is_destroyed() }));
        Ok((lost, event))
    }

    /// A vehicle passing over this bound. A bridge at value 1 throws 2D6 and
    /// collapses on a double.
    ///
    /// Reading: the collapse throw is Type A's, and a B, C or D bridge at
    /// value 1 has taken enough damage to be "treated as if it were a Type
    /// A", so it throws too (test `a_bridge_at_one_collapses_on_a_double`).
    pub fn cross(
        &mut self,
        traffic: Traffic,
        dice: &mut impl Roll,
        id: &str,
    ) -> Result<(Crossing, RuleEvent), BridgeError> {
        if self.is_destroyed() {
            return Err(BridgeError::Destroyed);
        }
        if traffic == Traffic::Heavy && self.treated_as_type_a() {
            return Err(BridgeError::TooHeavy);
        }
        let faces = if self.value == COLLAPSE_TEST_AT { dice.throw(2, 6) } else { Vec::new() };
        let collapsed = faces.len() == 2 && faces[0] == faces[1];
        if collapsed {
            self.value = 0;
        }
        let crossing = if collapsed { Crossing::Collapsed } else { Crossing::Crossed };
        let event = RuleEvent::new(EventKind::Movement, rule("Bridges"))
            .actor(id)
            .input("value", self.value, "at 1, 2D6 per bound per vehicle: a double collapses it")
            .input("traffic", traffic, "")
            .dice(6, &faces)
            .outcome(crossing);
        Ok((crossing, event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bridge_mends_to_its_full_value_and_a_destroyed_one_not_at_all() {
        let mut b = Bridge::new(BridgeType::B);
        let full = b.value;
        b.value = full - 2;
        assert_eq!(b.repair(1), 1);
        assert_eq!(b.damage(), 1);
        assert_eq!(b.repair(5), 1, "never past its full Defence Value");
        assert_eq!(b.value, full);
        b.value = 0;
        assert_eq!(b.repair(3), 0);
        assert!(b.is_destroyed());
    }
    use crate::dice::Scripted;
    use crate::firing::{FireTarget, OpenSightsFire, assess_open_sights};

    #[test]
    fn defence_values_as_printed() {
        for (i, r) in STRUCTURES.iter().enumerate() {
            assert_eq!(r.structure as usize, i);
        }
        let pts = |s: Structure| s.row().points;
        assert_eq!([Structure::BarbedWire, Structure::Road, Structure::RoadBlock].map(pts), [1, 1, 1]);
        assert_eq!(pts(Structure::WoodenHut), 2);
        assert_eq!([Structure::SmallStoneBuilding, Structure::House].map(pts), [4, 4]);
        assert_eq!([Structure::Factory, Structure::Pillbox].map(pts), [6, 6]);
        assert!(!Structure::RoadBlock.row().building && Structure::Pillbox.row().building);
    }

    #[test]
    fn house_caption_sixteen_figures_four_points() {
        // "This solid-looking house has a capacity of 16 figures and can absorb
        // 4 points of HE before becoming a ruin."
        let h = Building::new(Structure::House);
        assert_eq!((h.capacity, h.points), (16, 4));
        assert_eq!(h.may_hold(Occupier::Figures(16), 0), Ok(()));
        assert_eq!(h.may_hold(Occupier::Figures(3), 14), Err(BuildingError::Full { room: 2 }));
        assert_eq!(Building::with_capacity(Structure::Factory, 30).unwrap().capacity, 30);
        assert_eq!(Building::with_capacity(Structure::Road, 3), Err(BuildingError::NotABuilding));
    }

    #[test]
    fn building_example_bishop_reduces_the_house_to_a_ruin() {
        // "The Bishop (25pdr gun = 88mm) has thrown a 6 to hit the building."
        let fire = OpenSightsFire {
            weapon: Weapon::Howitzer104,
            distance: crate::inches::Inches(20.0),
            he: true,
            target: FireTarget::Building,
            ..OpenSightsFire::default()
        };
        let a = assess_open_sights(&fire).unwrap();
        assert!(6 + a.modifiers.total() >= a.needed as i8, "a 6 hits");
        // "The effects throw yields a 3. Referring to Table D we read 2 hits
        // doubled to 4. The building is now reduced to a ruin."
        let mut house = Building::new(Structure::House);
        let mut dice = Scripted::new([3]);
        let (hit, e) = house.hit(HeHit::he(HeColumn::D), 5, &mut dice, "bishop").unwrap();
        assert_eq!((hit.table, hit.effect, hit.absorbed, hit.surplus), (2, 4, 4, 0));
        assert!(hit.destroyed && house.is_ruin());
        assert_eq!(hit.casualties, 0, "no surplus: the occupants are unhurt");
        assert_eq!(dice.remaining(), 0, "a ruin throws no fire die");
        assert_eq!(e.dice.len(), 1);
        assert_eq!(house.hit(HeHit::he(HeColumn::D), 5, &mut dice, "b"), Err(BuildingError::NotStanding));
    }

    #[test]
    fn surplus_falls_on_the_occupants_and_emplaced_weapons_go() {
        // F on a 6 is 4, doubled 8, against a small stone building (4): surplus 4.
        let mut b = Building { emplaced_weapon: true, ..Building::new(Structure::SmallStoneBuilding) };
        let (hit, _) = b.hit(HeHit::he(HeColumn::F), 3, &mut Scripted::new([6]), "x").unwrap();
        assert_eq!((hit.surplus, hit.casualties, hit.emplaced_weapon_lost), (4, 3, true));
        // A factory absorbs 2 doubled to 4; the occupants take nothing; no fire on a 5.
        let mut f = Building::new(Structure::Factory);
        let (hit, _) = f.hit(HeHit::he(HeColumn::D), 10, &mut Scripted::new([2, 5]), "x").unwrap();
        assert_eq!((hit.effect, f.points, hit.casualties, hit.fire), (2, 4, 0, None));
        // A grenade thrown at a house outside an assault is a hit: G1 on a 5 is 3, doubled 6.
        let mut h = Building::new(Structure::House);
        let (hit, _) = h.hit(HeHit::he(HeColumn::G1), 4, &mut Scripted::new([5]), "x").unwrap();
        assert_eq!((hit.effect, hit.surplus, hit.casualties), (6, 2, 2));
        // A wooden hut destroyed is removed; a road block is not doubled.
        let mut hut = Building::new(Structure::WoodenHut);
        hut.hit(HeHit::he(HeColumn::A), 0, &mut Scripted::new([2]), "x").unwrap();
        assert_eq!(hut.state, State::Destroyed(Remains::Removed));
        let mut road = Building::new(Structure::Road);
        let (hit, _) = road.hit(HeHit::he(HeColumn::A), 0, &mut Scripted::new([2]), "x").unwrap();
        assert_eq!((hit.effect, road.state), (1, State::Destroyed(Remains::Crater)));
    }

    #[test]
    fn petard_casualties_are_quadrupled() {
        // "casualties are quadrupled by the 'hits on buildings' rule": F on a 2 is 2, x4 = 8.
        let mut pillbox = Building::new(Structure::Pillbox);
        let (hit, _) = pillbox.hit(crate::assault::DEMOLITION, 4, &mut Scripted::new([2]), "churchill").unwrap();
        assert_eq!((hit.table, hit.effect, hit.surplus, hit.casualties), (2, 8, 2, 2));
    }

    #[test]
    fn a_six_sets_a_standing_building_on_fire() {
        let mut f = Building::new(Structure::Factory);
        // D on a 2: 1 doubled 2; fire die 6; D3 face 5 = 3 bounds.
        let (hit, _) = f.hit(HeHit::he(HeColumn::D), 0, &mut Scripted::new([2, 6, 5]), "x").unwrap();
        assert_eq!((hit.fire, f.state), (Some(3), State::Burning { bounds_left: 3 }));
        assert_eq!(f.may_hold(Occupier::Figures(1), 0), Err(BuildingError::Burning));
        // Burning: no second fire die.
        let mut dice = Scripted::new([2]);
        f.hit(HeHit::he(HeColumn::D), 0, &mut dice, "x").unwrap();
        assert_eq!(dice.remaining(), 0);
        assert_eq!(f.end_of_bound(), None);
        assert_eq!(f.end_of_bound(), None);
        assert_eq!(f.end_of_bound(), Some(Remains::Ruin), "destroyed after the fire");
        assert!(f.is_ruin());
        // Flame sets fire without the die: D3 face 1 = 1 bound.
        let mut h = Building::new(Structure::WoodenHut);
        let flame = HeHit { column: HeColumn::C, multiplier: 1, flame: true };
        let (hit, _) = h.hit(flame, 0, &mut Scripted::new([1, 1]), "x").unwrap();
        assert_eq!(hit.fire, Some(1));
        assert_eq!(h.end_of_bound(), Some(Remains::Removed));
    }

    #[test]
    fn setting_fire_takes_hold_on_two() {
        let mut h = Building::new(Structure::House);
        assert!(!h.fire_takes_hold(&mut Scripted::new([1]), "x").unwrap().0);
        assert_eq!(h.state, State::Standing);
        assert!(h.fire_takes_hold(&mut Scripted::new([2]), "x").unwrap().0);
        assert_eq!(h.state, State::Burning { bounds_left: SET_FIRE_BURNS });
        assert_eq!(h.fire_takes_hold(&mut Scripted::new([]), "x").unwrap_err(), BuildingError::Burning);
        for _ in 0..3 {
            h.end_of_bound();
        }
        assert!(h.is_ruin(), "a stone/brick building burnt down is a ruin");
    }

    #[test]
    fn who_may_occupy_a_building() {
        let h = Building::new(Structure::House);
        for o in [Occupier::Vehicle, Occupier::Artillery, Occupier::Mortar { on_flat_roof: false }] {
            assert_eq!(h.may_hold(o, 0), Err(BuildingError::NotAllowed(o)));
        }
        assert_eq!(h.may_hold(Occupier::Mortar { on_flat_roof: true }, 0), Ok(()));
        for w in [Weapon::Piat, Weapon::Bazooka, Weapon::PzFaust, Weapon::PzSchreck] {
            assert_eq!(h.may_hold(Occupier::AtWeapon(w), 0), Ok(()));
        }
        let gun = Occupier::AtWeapon(Weapon::AtGunClass2);
        assert_eq!(h.may_hold(gun, 0), Err(BuildingError::NotAllowed(gun)));
        let ruin = Building { state: State::Destroyed(Remains::Ruin), points: 0, ..h };
        assert_eq!(ruin.may_hold(Occupier::Mortar { on_flat_roof: false }, 0), Ok(()));
        assert_eq!(ruin.may_hold(gun, 0), Ok(()));
        assert_eq!(ruin.may_hold(Occupier::Vehicle, 0), Err(BuildingError::NotAllowed(Occupier::Vehicle)));
        let gone = Building { state: State::Destroyed(Remains::Removed), ..Building::new(Structure::WoodenHut) };
        assert_eq!(gone.may_hold(Occupier::Figures(1), 0), Err(BuildingError::NotStanding));
    }

    #[test]
    fn bridge_types_erode_and_bar_heavy_traffic() {
        assert_eq!(BRIDGES.map(|r| r.value), [2, 4, 6, 8]);
        let mut b = Bridge::new(BridgeType::B);
        assert!(!b.treated_as_type_a());
        // Column C on a 4 is 2: B loses 2 and takes no heavy traffic.
        let (lost, _) = b.hit(HeColumn::C, &mut Scripted::new([4]), "x").unwrap();
        assert_eq!((lost, b.value), (2, 2));
        assert!(b.treated_as_type_a());
        assert_eq!(b.cross(Traffic::Heavy, &mut Scripted::new([]), "t").unwrap_err(), BridgeError::TooHeavy);
        assert_eq!(b.cross(Traffic::UpToMediumTank, &mut Scripted::new([]), "t").unwrap().0, Crossing::Crossed);
        let mut c = Bridge { value: 3, ..Bridge::new(BridgeType::C) };
        assert!(!c.treated_as_type_a(), "3 damage: C still takes heavy traffic");
        c.value = 2;
        assert!(c.treated_as_type_a());
        let d = Bridge { value: 4, ..Bridge::new(BridgeType::D) };
        assert!(!d.treated_as_type_a());
        assert!(Bridge { value: 3, ..d }.treated_as_type_a());
        assert!(Bridge::new(BridgeType::A).treated_as_type_a());
        // A hit takes no more than is left, and 0 destroys.
        let mut a = Bridge::new(BridgeType::A);
        a.hit(HeColumn::F, &mut Scripted::new([6]), "x").unwrap();
        assert!(a.is_destroyed());
        assert_eq!(a.hit(HeColumn::F, &mut Scripted::new([]), "x").unwrap_err(), BridgeError::Destroyed);
    }

    #[test]
    fn a_bridge_at_one_collapses_on_a_double() {
        let mut a = Bridge { value: 1, ..Bridge::new(BridgeType::A) };
        assert_eq!(a.cross(Traffic::UpToMediumTank, &mut Scripted::new([3, 4]), "t").unwrap().0, Crossing::Crossed);
        assert_eq!(a.cross(Traffic::UpToMediumTank, &mut Scripted::new([5, 5]), "t").unwrap().0, Crossing::Collapsed);
        assert!(a.is_destroyed());
        let mut d = Bridge { value: 1, ..Bridge::new(BridgeType::D) };
        assert_eq!(d.cross(Traffic::UpToMediumTank, &mut Scripted::new([2, 2]), "t").unwrap().0, Crossing::Collapsed);
        // At 2 no throw is made.
        let mut b = Bridge { value: 2, ..Bridge::new(BridgeType::A) };
        let mut dice = Scripted::new([]);
        assert_eq!(b.cross(Traffic::UpToMediumTank, &mut dice, "t").unwrap().0, Crossing::Crossed);
    }
}
