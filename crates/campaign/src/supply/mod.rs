//! Logistics and work (*Fight Your Own Wars* 20–24 and 31): the daily "S"
//! throw and the Stockpile, supply routes (Direct, Contested, Elongated,
//! Abnormal, Broken), Rest and Rationed modes, convoys and sharing
//! ([`logistics`]); replenishment of losses ([`replenishment`]); carrying
//! capacities and load spaces ([`carrying`]); repairs to damaged vehicles
//! ([`repairs`]); Work & Tasks, loading at Transit hubs, convoys and trains
//! ([`work`]). Readings of ambiguous passages are in `docs/campaign/supply.md`.
//!
//! [`logistics`]: crate::supply::logistics
//! [`replenishment`]: crate::supply::replenishment
//! [`carrying`]: crate::supply::carrying
//! [`repairs`]: crate::supply::repairs
//! [`work`]: crate::supply::work

use std::fmt;

use warbound_rules::event::{Book, RuleRef};

pub mod carrying;
pub mod logistics;
pub mod repairs;
pub mod replenishment;
pub mod work;

/// Bad input to a logistics rule, or an action the Supply state forbids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SupplyError {
    /// FYOW 20.6: "A Battlegroup or Fraction engaged with the enemy cannot go to Rest mode."
    CannotRestWhenEngaged,
    /// FYOW 20.6 / 20.11 / 20.12: the action is not allowed in the force's mode.
    NotAllowed { action: String, mode: String },
    /// A stockpile above its limit (FYOW 20.4.1: 20S a Battlegroup, 5S a Fraction).
    StockpileOverLimit { stockpile: u32, limit: u32 },
    /// FYOW 20.9: shared supply dice split other than the pool held.
    BadShare { pool: u8, first: u8 },
    /// FYOW 20.10: a convoy is a nominal 6 trucks.
    TooManyTrucks(u8),
    /// FYOW 21.7: replenishment from home cannot go to an HQ in contact or surrounded.
    HqUnavailable,
    /// Points to spend above the bank.
    Overdrawn { wanted: u32, banked: u32 },
    /// FYOW 24.1: "no vehicles" at a small cove or riverside.
    NoVehiclesHere,
    /// A task already finished.
    AlreadyDone,
    /// A task that needs nothing, or a die count of zero.
    EmptyTask,
    /// A vehicle with no points value cannot be repaired by points.
    NoValue(String),
}

impl fmt::Display for SupplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::CannotRestWhenEngaged => write!(f, "a force engaged with the enemy cannot go to Rest (FYOW 20.6)"),
            Self::NotAllowed { action, mode } => write!(f, "{action} is not allowed in {mode} mode"),
            Self::StockpileOverLimit { stockpile, limit } => {
                write!(f, "a stockpile of {stockpile}S is over the {limit}S limit (FYOW 20.4.1)")
            }
            Self::BadShare { pool, first } => write!(f, "cannot give {first} of {pool} shared supply dice (FYOW 20.9)"),
            Self::TooManyTrucks(n) => write!(f, "a convoy is 6 trucks, not {n} (FYOW 20.10)"),
            Self::HqUnavailable => {
                write!(f, "replenishment cannot go to an HQ in contact with the enemy or surrounded (FYOW 21.7)")
            }
            Self::Overdrawn { wanted, banked } => write!(f, "{wanted} points asked for, {banked} banked"),
            Self::NoVehiclesHere => write!(f, "vehicles cannot be handled at a cove or riverside (FYOW 24.1)"),
            Self::AlreadyDone => write!(f, "the task is already complete"),
            Self::EmptyTask => write!(f, "a task needs a score above 0 and at least one die"),
            Self::NoValue(id) => write!(f, "vehicle {id} has no points value to repair against"),
        }
    }
}

impl std::error::Error for SupplyError {}

/// A *Fight Your Own Wars* rule reference.
pub(crate) fn fyow(section: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnWars, section)
}
