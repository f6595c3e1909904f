//! Command and Control (*Fight Your Own Battles*, "Command and Control",
//! "Orders & Objectives", "Officer decisions", "Strategic Conditions",
//! "Groups", "Runners"; *Heroes All*, "Command and Control for 2-Player
//! games", "Morale", "Overwatch", "Passing on information").
//!
//! The orders list and what each order obliges; the Company Officer's
//! Command turn (orders, rallying, sharing what was seen, a new NCO); the
//! Senior Officer's start-of-session activity (milestone tests, committing
//! reserves, objectives); runners; Groups; elements that leave the table by
//! design; "under fire"; and, as a second mode, the *Heroes All* 2-player
//! Command Dice with their morale throws.

mod command_dice;
mod command_turn;
mod company;
mod decision;
mod group;
mod morale;
mod orders;
mod presence;
mod senior;
#[cfg(test)]
mod testing;

use std::fmt;

use crate::event::{Book, RuleRef};
use crate::firing::FireError;
use crate::momentum::CmError;
use crate::officer::Rank;
use crate::strategic::StrategicError;

pub use command_dice::{
    Allocation, COMMAND_DICE_PER_ELEMENT, CommandAction, CommandDice, TwoPlayerElement, command_dice_for, first_player,
};
pub use command_turn::{CommandReport, CommandTurn};
pub use company::{Comms, Company, Delivery, Message, Subordinate};
pub use decision::decide;
pub use group::{Component, Group, GroupTerm, Released};
pub use morale::{MoraleCause, MoraleEffect};
pub use orders::{Activity, Conduct, Moves, Objective, OpensFire};
pub use presence::{Presence, force_cmt, under_fire};
pub use senior::{Directive, RESERVE_MIN_CMS, Reserve, SeniorOfficer, Session, directive};

fn fyob(section: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnBattles, section)
}

fn heroes_all(section: &str) -> RuleRef {
    RuleRef::new(Book::HeroesAll, section)
}

/// Bad input to, or a broken rule of, command.
#[derive(Debug, Clone, PartialEq)]
pub enum CommandError {
    /// Orders are numbered 1..=8 (FYOB "Orders & Objectives").
    NoSuchOrder(u8),
    /// "Support - x unit from y position" and "Engineering - tasks to be
    /// detailed" need the unit or the task named.
    MissingDetail(Activity),
    UnknownElement(String),
    /// The officer given is not of the rank the rule needs.
    WrongRank(Rank),
    /// A Company Officer rallies once in his Command turn.
    AlreadyRallied,
    /// "A Company Officer figure may change elements if ... \[they\] pass within 1 inch."
    TooFarApart(f32),
    /// A replacement NCO is diced for only where the NCO was lost.
    HasAnNco(String),
    /// A runner is sent by the element's NCO.
    NoNco(String),
    /// A reserve must be rallied back to an acceptable level to be committed.
    NotFitToCommit {
        id: String,
        cms: u8,
    },
    /// A Group "cannot include aircraft or boats" and needs 2 or more elements.
    NotGroupable(String),
    GroupTooSmall(usize),
    NotInGroup(String),
    Momentum(CmError),
    Strategic(StrategicError),
    Fire(FireError),
    // The 2-player Command Dice mode.
    NoSuchDie(usize),
    /// The die's face does not give that action (a 6 gives any).
    WrongFace {
        face: u8,
        action: CommandAction,
    },
    /// A 6 offered to re-roll a morale throw is not a 6, or is the die allocated.
    NotASix(usize),
    /// "One element can use up to 3 Command Dice per bound."
    ThreeDiceUsed(String),
    /// It failed its ORT or morale throw: no action this bound.
    NoActionThisBound(String),
    /// No re-roll earned by seizing the initiative.
    NoRerollLeft(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoSuchOrder(n) => write!(f, "order {n} is not on the list (1 to 8)"),
            Self::MissingDetail(a) => write!(f, "a {a:?} order must name its unit or task"),
            Self::UnknownElement(id) => write!(f, "{id} is not under this command"),
            Self::WrongRank(r) => write!(f, "a {r:?} cannot do this"),
            Self::AlreadyRallied => write!(f, "the Company Officer has already rallied this bound"),
            Self::TooFarApart(d) => write!(f, "the elements came no closer than {d} inches; 1 inch is needed"),
            Self::HasAnNco(id) => write!(f, "{id} has not lost its NCO"),
            Self::NoNco(id) => write!(f, "{id} has no NCO to send a runner"),
            Self::NotFitToCommit { id, cms } => {
                write!(f, "{id} has a CMS of {cms}; {RESERVE_MIN_CMS} is needed to be committed")
            }
            Self::NotGroupable(id) => write!(f, "{id} cannot join a Group (aircraft and boats act independently)"),
            Self::GroupTooSmall(n) => write!(f, "a Group of {n} element(s): 2 or more are needed"),
            Self::NotInGroup(id) => write!(f, "{id} is not in the Group"),
            Self::Momentum(e) => write!(f, "{e}"),
            Self::Strategic(e) => write!(f, "{e}"),
            Self::Fire(e) => write!(f, "{e}"),
            Self::NoSuchDie(i) => write!(f, "there is no unused Command Die {i}"),
            Self::WrongFace { face, action } => write!(f, "a {face} cannot be used to {action:?}"),
            Self::NotASix(i) => write!(f, "Command Die {i} is not a spare 6"),
            Self::ThreeDiceUsed(id) => write!(f, "{id} has used 3 Command Dice this bound"),
            Self::NoActionThisBound(id) => write!(f, "{id} takes no action this bound"),
            Self::NoRerollLeft(id) => write!(f, "{id} has no Command Die re-roll"),
        }
    }
}

impl std::error::Error for CommandError {}

impl From<CmError> for CommandError {
    fn from(e: CmError) -> Self {
        Self::Momentum(e)
    }
}

impl From<StrategicError> for CommandError {
    fn from(e: StrategicError) -> Self {
        Self::Strategic(e)
    }
}
