//! Why a move is refused: a route that makes no sense, ground the element
//! cannot cross, or an "at the double" move the rules bar ([`DoubleBar`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{MoveClass, Row, Terrain};

/// Why an "at the double" move is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DoubleBar {
    /// The row has no "At the double move available" note.
    NotInRow(Row),
    Terrain(Terrain),
    /// "They cannot move \"at the double\"" on Overwatch.
    Overwatch,
    /// Night fighting: "\"At the double\" moves are not permitted" (elite and partisans excepted).
    Night,
    /// 2020 addendum: "unable to execute this whilst in rationed mode".
    Rationed,
    /// *FYOB* Concealment: "It may not move \"At the Double\" immediately."
    LeavingConcealment,
    /// A stealth move is "instead of a normal move".
    Stealth,
}

/// A move the rules do not allow, or a route that makes no sense.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum MoveError {
    EmptyRoute,
    /// A stretch length that is negative or not a number.
    BadLength {
        stretch: usize,
        length: f32,
    },
    /// A vehicle without a drive, or a man, horse or boat with one.
    DriveMismatch(MoveClass),
    /// This element cannot cross this stretch.
    Impassable {
        stretch: usize,
        terrain: Terrain,
        class: MoveClass,
    },
    /// *Heroes All*, "Rivers": "Getting into or out of river counts as an Act":
    /// the move ends at the bank.
    RiverBankNeedsAnAct {
        stretch: usize,
    },
    /// Stealth moves are for infantry, on a road or cross-country only.
    Stealth {
        stretch: Option<usize>,
    },
    /// Crawling is for infantry.
    Crawl,
    AtTheDouble(DoubleBar),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::EmptyRoute => write!(f, "a move needs a route of at least one stretch"),
            Self::BadLength { stretch, length } => {
                write!(f, "stretch {stretch}: length {length} is not a non-negative number of inches")
            }
            Self::DriveMismatch(c) => {
                write!(f, "{c:?}: only land vehicles have a drive (wheeled, all wheel, half-tracked, tracked)")
            }
            Self::Impassable { stretch, terrain, class } => {
                write!(f, "stretch {stretch}: {class:?} cannot cross {terrain:?}")
            }
            Self::RiverBankNeedsAnAct { stretch } => {
                write!(f, "stretch {stretch}: getting into or out of a river is an Act; the move ends at the bank")
            }
            Self::Stealth { stretch: None } => {
                write!(f, "only infantry may make a stealth move, and not at the double")
            }
            Self::Stealth { stretch: Some(i) } => {
                write!(f, "stretch {i}: a stealth move is on a road or cross-country only")
            }
            Self::Crawl => write!(f, "only infantry crawl"),
            Self::AtTheDouble(why) => write!(f, "no \"at the double\" move: {why:?}"),
        }
    }
}

impl std::error::Error for MoveError {}
