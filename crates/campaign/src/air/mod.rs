//! Aircraft at campaign level (*Fight Your Own Wars*, section 28).
//!
//! Squadrons are prepared each day and repair their damage (28.2–28.3), fly
//! when the day's weather throw permits (28.4), stay over a Map Board for
//! their Flight Time (28.6), move between Map Boards (28.7), fly their
//! missions (28.8), fire at ground targets, AA guns and other aircraft
//! (28.9–28.11), wear down Air Command's Strategic Condition (28.12) and land
//! parachutists and gliders (28.13). Every step returns a
//! [`warbound_rules::event::RuleEvent`] naming its FYOW section; every throw
//! comes from a [`warbound_rules::dice::Roll`] passed in.
//!
//! Map Boards, battlegroup points, the weather of the day and detection by
//! ground forces belong to other modules: they come in here as plain values.

use std::fmt;

use serde::{Deserialize, Serialize};
use warbound_rules::event::{Book, RuleRef};

use crate::map::common::Light;

/// Air Command's Strategic Milestone and Condition (28.12).
pub mod command;
/// Aircraft firing (28.9), AA fire (28.10) and air-to-air combat (28.11).
pub mod firing;
/// Permission to fly (28.4), Flight Time (28.6), moves between Map Boards (28.7).
pub mod flying;
/// Parachute and glider landings, German parachute landings (28.13).
pub mod landings;
/// Air battlegroups and missions (28.1, 28.8): bombing, escort, recce,
/// air artillery, transport, patrol, kamikaze.
pub mod missions;
/// Squadrons and aircraft: preparation, damage and repairs (28.1–28.3).
pub mod squadron;

/// A rule of FYOW section 28.
pub(crate) fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnWars, section)
}

/// The sky of the day, as the flying chart reads it (FYOW 28.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sky {
    Fine,
    LightRain,
    HeavyRain,
    Snow,
    Fog,
}

/// The wind of the day, as the flying chart reads it. `Freezing` is the
/// winter row of FYOW 26.9 ("Freezing wind: no flying").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wind {
    Calm,
    Light,
    High,
    Freezing,
}

/// The weather a flight takes off in (from the weather module's day).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Conditions {
    pub sky: Sky,
    pub wind: Wind,
    /// Written as the flying chart's rows: "day", "moonlight", "no_moon".
    #[serde(with = "chart_light")]
    pub light: Light,
}

impl Conditions {
    /// Fine, calm, daylight.
    pub const FINE_DAY: Self = Self { sky: Sky::Fine, wind: Wind::Calm, light: Light::Daylight };
}

/// The light of a flight in the flying chart's words (FYOW 28.4 "Night (no
/// moon)", "Moonlight").
mod chart_light {
    use serde::{Deserializer, Serializer};

    use crate::map::common::{Light, LightWords};

    static WORDS: LightWords = LightWords(["day", "moonlight", "no_moon"]);

    pub fn serialize<S: Serializer>(light: &Light, serializer: S) -> Result<S::Ok, S::Error> {
        WORDS.serialize(*light, serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Light, D::Error> {
        WORDS.deserialize(deserializer)
    }
}

/// Speed class of an aircraft type (Codex): the moves between Map Boards,
/// AA damage and the air-to-air table read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    /// "Fast/Agile". Endurance tanks remove the agility (28.6).
    FastAgile,
    Fast,
    /// "All other" aircraft.
    Other,
    Slow,
}

/// What an aircraft type is for (the rows of 28.1 and 28.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Fighter,
    /// Fighter bombers and "fighter/ground attack" types.
    FighterBomber,
    GroundAttack,
    DiveBomber,
    /// Recce and OP (observation) aircraft.
    Recce,
    TorpedoBomber,
    Bomber,
    Transport,
}

impl Role {
    /// The roles whose Flight Time "Endurance" tanks extend (28.6, "Above with Endurance").
    pub const fn takes_endurance(self) -> bool {
        matches!(self, Self::Fighter | Self::FighterBomber | Self::GroundAttack | Self::DiveBomber | Self::Recce)
    }
}

/// The battlegroups of 28.1, by mission (28.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mission {
    /// "Bombers with/without escorts".
    Bombing,
    /// Air artillery (ground attacks): "Dive bombers, Fighter bombers, fighter/ground attack".
    AirArtillery,
    /// "Torpedo bombers".
    Torpedo,
    /// "Transport with/without escorts with/without gliders".
    Transport,
    /// "OP aircraft": recce machines "form their own BattleGroup".
    Recce,
    /// "Fighters on defensive duty".
    Patrol,
}

impl Mission {
    /// The roles that fly the mission itself.
    pub const fn flies(self, role: Role) -> bool {
        matches!(
            (self, role),
            (Self::Bombing, Role::Bomber)
                | (Self::AirArtillery, Role::DiveBomber | Role::FighterBomber | Role::GroundAttack)
                | (Self::Torpedo, Role::TorpedoBomber)
                | (Self::Transport, Role::Transport)
                | (Self::Recce, Role::Recce)
                | (Self::Patrol, Role::Fighter)
        )
    }

    /// Whether fighters may join as escorts: bombers and transports (28.8 "Escort Missions").
    pub const fn takes_escorts(self) -> bool {
        matches!(self, Self::Bombing | Self::Transport)
    }
}

/// Bad input to an air rule, or an action the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AirError {
    /// The weather forbids this flight or this throw.
    NoFlying,
    /// "Endurance" tanks only extend fighters, ground attack, dive bombers and recce (28.6).
    EnduranceNotFitted(Role),
    /// No Flight Time left over the Map Boards.
    NoFlightTimeLeft,
    /// A move of more Map Boards than the aircraft's maximum (28.7).
    TooFar { boards: u8, max: u8 },
    /// A move of no Map Boards.
    NoMove,
    /// Arrived in the "box" this session: no activity until the next (28.7).
    InBox,
    /// The aircraft or squadron named is not there.
    NoSuchAircraft(usize),
    /// The aircraft is lost.
    AircraftLost,
    /// A battlegroup mixing aircraft that are not comparable (28.1).
    NotComparable { mission: Mission, role: Role },
    /// A battlegroup without the aircraft its mission needs.
    NoMissionAircraft(Mission),
    /// A squadron of no aircraft.
    EmptySquadron,
    /// "No AA fire can be conducted if friendly aircraft are over the Map Board" (28.10).
    FriendlyAircraftOverhead,
    /// A gun with no barrels, or an attack with no weapons.
    NoWeapons,
    /// Damage shared out unevenly, or not adding up (28.11).
    BadShare(Vec<u8>),
    /// Recce after the aircraft was driven off or shot down (28.8).
    ReconOver,
    /// Air Command has withdrawn (28.12).
    Withdrawn,
    /// Air Command with no aircraft.
    NoAircraft,
    /// A bomb hit on a number no target was given.
    BadTargetNumber(u8),
}

impl fmt::Display for AirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoFlying => write!(f, "the weather does not permit this flight"),
            Self::EnduranceNotFitted(role) => {
                write!(f, "Endurance tanks only extend fighters, ground attack, dive bombers and recce, not {role:?}")
            }
            Self::NoFlightTimeLeft => write!(f, "no Flight Time left"),
            Self::TooFar { boards, max } => write!(f, "{boards} Map Boards is beyond the maximum move of {max}"),
            Self::NoMove => write!(f, "a move must cross at least one Map Board"),
            Self::InBox => write!(f, "aircraft arriving in the box cannot act until the following session"),
            Self::NoSuchAircraft(i) => write!(f, "no aircraft or squadron number {i}"),
            Self::AircraftLost => write!(f, "the aircraft is lost"),
            Self::NotComparable { mission, role } => {
                write!(f, "{role:?} aircraft cannot join a {mission:?} battlegroup: aircraft must be comparable")
            }
            Self::NoMissionAircraft(mission) => write!(f, "a {mission:?} battlegroup needs aircraft for the mission"),
            Self::EmptySquadron => write!(f, "a squadron needs at least one aircraft"),
            Self::FriendlyAircraftOverhead => write!(f, "no AA fire while friendly aircraft are over the Map Board"),
            Self::NoWeapons => write!(f, "no weapons to fire"),
            Self::BadShare(share) => write!(f, "damage {share:?} is not shared out as equally as possible"),
            Self::ReconOver => {
                write!(f, "no information can be gathered after the aircraft is driven off or shot down")
            }
            Self::Withdrawn => write!(f, "Air Command has withdrawn"),
            Self::NoAircraft => write!(f, "Air Command has no aircraft"),
            Self::BadTargetNumber(n) => write!(f, "no target was allocated the number {n}"),
        }
    }
}

impl std::error::Error for AirError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_name_the_light_by_the_flying_charts_rows() {
        let moon = Conditions { light: Light::NightMoon, ..Conditions::FINE_DAY };
        let json = serde_json::to_string(&moon).unwrap();
        assert_eq!(json, r#"{"sky":"fine","wind":"calm","light":"moonlight"}"#);
        assert_eq!(serde_json::from_str::<Conditions>(&json).unwrap(), moon);
        for light in [Light::Daylight, Light::NightMoon, Light::NightNoMoon] {
            let c = Conditions { light, ..Conditions::FINE_DAY };
            assert_eq!(ron::from_str::<Conditions>(&ron::to_string(&c).unwrap()).unwrap(), c);
        }
        assert_eq!(serde_json::to_value(Conditions::FINE_DAY).unwrap()["light"], "day");
        let dark = Conditions { light: Light::NightNoMoon, ..Conditions::FINE_DAY };
        assert_eq!(serde_json::to_value(dark).unwrap()["light"], "no_moon");
        assert!(serde_json::from_str::<Conditions>(r#"{"sky":"fine","wind":"calm","light":"NightMoon"}"#).is_err());
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(AirError::TooFar { boards: 9, max: 8 }.to_string().contains("maximum move of 8"));
        assert!(AirError::EnduranceNotFitted(Role::Bomber).to_string().contains("Bomber"));
        assert_eq!(rule("28.7 x").book, Book::FightYourOwnWars);
    }
}
