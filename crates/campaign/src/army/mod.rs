//! Game basics and commanders (*Fight Your Own Wars* "GAME BASICS" and
//! "COMMANDERS", sections 1–12): troop quality, the campaign calendar,
//! battlegroups, fractions and pickets, the game flow and diary box, levels of
//! command, commanders' competency and traits, command decisions,
//! communication, orders, the Variable Order Rule and Strategic Morale.
//!
//! Concepts owned by other areas (a Map Board's neighbours, the supply state
//! of a force, a battlegroup's Strategic Condition from the tabletop) come in
//! as plain parameters.

use std::fmt;

pub mod basics;
pub mod battlegroup;
pub mod calendar;
pub mod command;
pub mod commander;
pub mod fraction;
pub mod game_flow;
pub mod morale;
pub mod orbat;
pub mod orders;

/// Bad input to a rule of this area.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArmyError {
    /// A value outside the range a table or rule allows (the message says which).
    OutOfRange(String),
    /// The rule does not allow this step now (the message quotes the rule).
    NotAllowed(String),
}

impl fmt::Display for ArmyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArmyError::OutOfRange(m) => write!(f, "out of range: {m}"),
            ArmyError::NotAllowed(m) => write!(f, "not allowed: {m}"),
        }
    }
}

impl std::error::Error for ArmyError {}

pub(crate) fn out_of_range(msg: impl Into<String>) -> ArmyError {
    ArmyError::OutOfRange(msg.into())
}

pub(crate) fn not_allowed(msg: impl Into<String>) -> ArmyError {
    ArmyError::NotAllowed(msg.into())
}

/// A rule reference into *Fight Your Own Wars*.
pub(crate) fn fyow(section: &str) -> warbound_rules::event::RuleRef {
    warbound_rules::event::RuleRef::new(warbound_rules::event::Book::FightYourOwnWars, section)
}
