//! *Heroes All* "Morale" for the 2-player game: what calls for a throw, the
//! die and the failing faces by quality, and what a failure does.

use serde::{Deserialize, Serialize};

use crate::officer::Quality;

/// What calls for a morale throw (*Heroes All* "Morale").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoraleCause {
    /// Each casualty of an infantry, CSW, engineer or artillery crew element.
    Casualty,
    /// Each AFV or armoured car damaged.
    AfvDamaged,
    AircraftDrivenOff,
    AircraftShotDown,
}

/// What a failed morale throw does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoraleEffect {
    /// "Unable to take any action on this bound and cannot be given a Command Dice."
    NoActionThisBound,
    /// "The Air Command withdraws his machines and they take no further part in the game."
    AirCommandWithdraws,
}

/// *Heroes All* "Morale": the die thrown for each, and the highest failing
/// face for Poor, Regular and Elite elements.
const MORALE_TABLE: [(MoraleCause, u8, [u8; 3], MoraleEffect); 4] = [
    (MoraleCause::Casualty, 10, [3, 2, 1], MoraleEffect::NoActionThisBound),
    (MoraleCause::AfvDamaged, 10, [3, 2, 1], MoraleEffect::NoActionThisBound),
    (MoraleCause::AircraftDrivenOff, 6, [1, 1, 1], MoraleEffect::NoActionThisBound),
    (MoraleCause::AircraftShotDown, 6, [1, 1, 1], MoraleEffect::AirCommandWithdraws),
];

pub(super) fn morale_row(cause: MoraleCause) -> &'static (MoraleCause, u8, [u8; 3], MoraleEffect) {
    MORALE_TABLE.iter().find(|r| r.0 == cause).expect("every cause is on the morale table")
}

pub(super) fn fails(cause: MoraleCause, quality: Quality, face: u8) -> bool {
    let column = match quality {
        Quality::Poor => 0,
        Quality::Regular => 1,
        Quality::Elite => 2,
    };
    face <= morale_row(cause).2[column]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn morale_table_rows_by_quality() {
        for (q, worst) in [(Quality::Poor, 3), (Quality::Regular, 2), (Quality::Elite, 1)] {
            assert!(fails(MoraleCause::Casualty, q, worst) && !fails(MoraleCause::Casualty, q, worst + 1), "{q:?}");
            assert!(fails(MoraleCause::AfvDamaged, q, worst) && !fails(MoraleCause::AfvDamaged, q, worst + 1));
            assert!(fails(MoraleCause::AircraftDrivenOff, q, 1) && !fails(MoraleCause::AircraftDrivenOff, q, 2));
        }
        assert_eq!(morale_row(MoraleCause::Casualty).1, 10);
        assert_eq!(morale_row(MoraleCause::AircraftShotDown).3, MoraleEffect::AirCommandWithdraws);
    }
}
