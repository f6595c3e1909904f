//! Boats and trains at campaign level (*Fight Your Own Wars* 29–30).
//!
//! - [`craft`]: fleets, the guns each vessel carries, where boats may go,
//!   serviceability, Defence Values, damage (29.1–29.5, 29.7).
//! - [`movement`]: river moves and off-shore moves (29.6).
//! - [`spotting`]: who may spot what, and the spotting throws (29.9).
//! - [`fire`]: coastal batteries, torpedoes, ship against ship, shore and
//!   aircraft, aircraft against ships, kamikazes, and the naval HE chart (29.8, 29.10).
//! - [`condition`]: Strategic Condition, rallying, dockyard repairs, swamping
//!   and landings at coves (29.11–29.16).
//! - [`engagement`]: the naval engagement template: sessions, boxes, moves,
//!   spotted targets, follow-up shots (29.17).
//! - [`trains`]: loading, moving, cutting and mending lines, railway guns (30).
//!
//! [`craft`]: crate::naval::craft
//! [`movement`]: crate::naval::movement
//! [`spotting`]: crate::naval::spotting
//! [`fire`]: crate::naval::fire
//! [`condition`]: crate::naval::condition
//! [`engagement`]: crate::naval::engagement
//! [`trains`]: crate::naval::trains

use std::fmt;

use serde::{Deserialize, Serialize};
use warbound_rules::event::{Book, RuleRef};

use crate::map::common::Light;

pub mod condition;
pub mod craft;
pub mod engagement;
pub mod fire;
pub mod movement;
pub mod spotting;
pub mod trains;

/// A rule reference into FYOW for a naval or railway section.
pub(crate) fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnWars, section)
}

/// Bad input to a naval or railway rule, or an action the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NavalError {
    /// The craft cannot use this water, or pass this obstacle (29.3).
    NotNavigable(String),
    /// The weapon is not carried, or has no shots left today.
    NoShots(String),
    /// The rules give no way for this firer to engage this target.
    CannotEngage(String),
    /// The rules give no way for this observer to spot this target.
    CannotSpot(String),
    /// The vessel has sunk.
    Sunk,
    /// The vessel's Strategic Condition is 0: it has retired (29.11).
    Retired,
    /// A count or score outside what the rule allows.
    OutOfRange(String),
    /// An engagement token that does not exist, or acts twice in a session.
    Engagement(String),
}

impl fmt::Display for NavalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotNavigable(s) => write!(f, "not navigable: {s}"),
            Self::NoShots(s) => write!(f, "no shots: {s}"),
            Self::CannotEngage(s) => write!(f, "cannot engage: {s}"),
            Self::CannotSpot(s) => write!(f, "cannot spot: {s}"),
            Self::Sunk => write!(f, "the vessel has sunk"),
            Self::Retired => write!(f, "the vessel has retired (Strategic Condition 0)"),
            Self::OutOfRange(s) => write!(f, "out of range: {s}"),
            Self::Engagement(s) => write!(f, "engagement: {s}"),
        }
    }
}

impl std::error::Error for NavalError {}

/// Rain in a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rain {
    #[default]
    None,
    Light,
    Heavy,
}

/// Wind in a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wind {
    #[default]
    Calm,
    Light,
    High,
}

/// The session's light and weather as the naval rules read them (the day's
/// weather is rolled by the weather rules and passed in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeaConditions {
    /// The light of the session (29.6.2, 29.9, the quick reference's firing modifiers).
    pub light: Light,
    pub rain: Rain,
    pub wind: Wind,
    pub snow: bool,
    pub fog: bool,
}

impl SeaConditions {
    /// Daylight, no rain, no wind, no snow, no fog.
    pub const FAIR_DAY: Self =
        Self { light: Light::Daylight, rain: Rain::None, wind: Wind::Calm, snow: false, fog: false };
}
