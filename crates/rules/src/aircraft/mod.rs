//! *Heroes All*, "Aircraft rules": operating heights, squadrons and their
//! 4-bound windows, ground-attack density, scheduling and calling in, the
//! box, the aircraft's Order Die options, spotting, attacks on ground troops
//! (guns, rockets, bombs, AT), anti-aircraft fire, damage and strength,
//! air-to-air combat, pre-game bombardment, the window closing, Air Command's
//! Continuous Momentum and aircraft on the ground.

mod aa;
mod air_command;
mod arrival;
mod attack;
mod damage;
mod dogfight;
mod flight;
mod spotting;
#[cfg(test)]
mod testing;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::event::{Book, RuleRef};

pub use aa::{AA_TABLE, AaRow, AaWeapon, aa_damage_need, aa_fire, aa_hits};
pub use air_command::{air_command_cm, air_command_cms, air_morale, pre_game_role};
pub use arrival::{
    CallIn, SQUADRON, Schedule, WINDOW_BOUNDS, Window, admit_ground_attackers, call_in, close_support_arrival,
    ground_attack_capacity,
};
pub use attack::{
    AIR_AT_ATTACK, AtTarget, GROUND_ATTACK_DICE, GROUND_ATTACK_HIT, at_attack, at_weapons, bomb_column, bomb_hit,
    bomb_score, drop_bombs, strafe,
};
pub use damage::{DamageResult, return_from_driven_off, take_damage};
pub use dogfight::{AIR_TO_AIR_DAMAGE, AIR_TO_AIR_HIT, air_to_air_fire, air_to_air_need, check_match_up, match_up};
pub use flight::{
    AIR_ACTS_PER_BOUND, AirAct, AirMove, Aircraft, GROUNDED_AIRCRAFT_TARGETS, GROUNDED_ARMOUR, Position, after_attack,
    air_move, check_air_turn, enter_table, squadron_leader,
};
pub use spotting::{Weather, ground_spot_need, spot, spot_aircraft_need, spot_ground_target_need};

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::HeroesAll, section)
}

/// "There are 3 operating heights for aircraft."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Height {
    Low,
    Medium,
    High,
}

/// Speed class: the AA damage throw and the air-to-air hit table read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    Fast,
    /// "All other".
    Normal,
    Slow,
}

/// What an aircraft is for ("fighter" or "ground attack", the bombers,
/// transports of "Operating heights").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Fighter,
    GroundAttack,
    /// "Dive bombers operate from medium level but immediately after their
    /// attack, they are considered to be at low level."
    DiveBomber,
    LightBomber,
    MediumBomber,
    HeavyBomber,
    Transport,
    TorpedoBomber,
}

/// Bomb sizes of "Bomb damage" (weights for comparison).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BombSize {
    /// Up to 100lbs: HE Effects column D.
    Small,
    /// 100–250lbs: column F.
    Medium,
    /// 500lbs and over: column "3F".
    Heavy,
}

/// An aircraft type as the (missing) aircraft CODEX would give it: "typical
/// weaponry, strength factors and speed".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AircraftType {
    pub name: String,
    pub role: Role,
    pub speed: Speed,
    pub strength: u8,
    #[serde(default)]
    pub mmg: u8,
    #[serde(default)]
    pub hmg: u8,
    #[serde(default)]
    pub cannon: u8,
    #[serde(default)]
    pub at_cannon: u8,
    #[serde(default)]
    pub rockets: u8,
    /// Bombs dropped per bound: "The CODEX shows how many bombs are dropped
    /// per bound for each aircraft type."
    #[serde(default)]
    pub bombs: Option<(BombSize, u8)>,
}

/// Bad input to an aircraft rule, or an action the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AirError {
    /// "A force must field a Combat Air Patrol in its ORBATS ... If a CAP is
    /// not specified, it will not be available."
    NoCapFielded,
    /// The aircraft must be over the table (not in the box) for this.
    NotOverTable,
    /// The aircraft is already over the table.
    AlreadyOverTable,
    /// Moved to the height it is at.
    SameHeight(Height),
    /// "Aircraft cannot move 'at the double'."
    AtTheDouble,
    /// "Aircraft get 1 act per bound."
    TooManyActs(usize),
    /// "Aircraft attack ground troops with either bombs or machine guns from
    /// low level only" (bombing also from medium: see [`spot_ground_target_need`]).
    WrongHeight(Height),
    /// "Aircraft may not attack each other if they are at different levels."
    DifferentLevels(Height, Height),
    /// "AT cannons cannot be used in air-to-air combat."
    NoAirWeapons,
    /// The aircraft has no bombs, or no AT weapon.
    NoSuchWeapon,
    /// Only light and/or medium bombers (and fighters with them) fly a
    /// pre-game bombardment.
    NotForPreGame(Role),
    /// A match-up the rules forbid (per-defender attacker counts given).
    BadMatchUp(Vec<usize>),
    /// An aircraft shot down takes no further part.
    ShotDown,
    /// A D6 requirement outside 2..=6 or a table size that is not positive.
    BadInput(&'static str),
    /// "AA fire cannot be conducted at medium level aircraft if air-to-air
    /// combat is taking place", or the weapon cannot reach this height.
    NoAaFire,
    /// The window has closed: the aircraft leaves without further action.
    WindowClosed,
    /// Aircraft on the ground "may not use their guns".
    OnTheGround,
}

impl fmt::Display for AirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for AirError {}
