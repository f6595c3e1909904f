//! A vehicle's moving or stationary attitude at the start of a bound
//! (*Heroes All*, "Movement"), for firing and observation.

use serde::{Deserialize, Serialize};

/// A vehicle's attitude at the start of a bound, for firing and observation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Attitude {
    Moving,
    Stationary,
}

/// What the vehicle did in its last turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LastTurn {
    Moved,
    DidNotMove,
    /// It missed the bound after a failed ORT.
    MissedTurn,
}

/// "Wheeled or tracked vehicles are considered to be moving at the start of a
/// bound if they finished their previous bound moving. (Similarly for being
/// stationary). If they miss a bound following a failed ORT, this does not
/// change their moving/stationary attitude."
pub fn attitude_at_start(previous: Attitude, last: LastTurn) -> Attitude {
    match last {
        LastTurn::Moved => Attitude::Moving,
        LastTurn::DidNotMove => Attitude::Stationary,
        LastTurn::MissedTurn => previous,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vehicles_keep_their_attitude_through_a_missed_turn() {
        assert_eq!(attitude_at_start(Attitude::Stationary, LastTurn::Moved), Attitude::Moving);
        assert_eq!(attitude_at_start(Attitude::Moving, LastTurn::DidNotMove), Attitude::Stationary);
        assert_eq!(attitude_at_start(Attitude::Moving, LastTurn::MissedTurn), Attitude::Moving);
        assert_eq!(attitude_at_start(Attitude::Stationary, LastTurn::MissedTurn), Attitude::Stationary);
    }
}
