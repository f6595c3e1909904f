//! Bringing aircraft to the table (*Heroes All* "Aircraft rules"): squadrons
//! and their 4-bound windows, ground-attack density, scheduling, and calling
//! aircraft in.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{AirError, rule};
use crate::dice::Roll;
use crate::event::{EventKind, RuleEvent};
use crate::officer::{self, Officer};

/// "Aircraft normally operate in squadrons of 3 machines."
pub const SQUADRON: usize = 3;
/// "Aircraft are permitted to operate over the table in 'windows' of 4 bounds."
pub const WINDOW_BOUNDS: u32 = 4;

/// A force's window of operation: bounds `first..first + 4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    pub first: u32,
}

impl Window {
    pub fn open(self, bound: u32) -> bool {
        (self.first..self.first + WINDOW_BOUNDS).contains(&bound)
    }

    /// "If the 'window' closes and aircraft are still on the table, they must
    /// leave immediately they are activated by their OPC on the next bound
    /// without taking any further action": [`AirError::WindowClosed`] once the
    /// window has passed, so the caller moves the aircraft off.
    pub fn may_act(self, bound: u32) -> Result<(), AirError> {
        if bound >= self.first + WINDOW_BOUNDS { Err(AirError::WindowClosed) } else { Ok(()) }
    }
}

/// *Heroes All*, "Ground attack aircraft density": "2 aircraft for every 8
/// square feet covered by the table. This means that a table 6ft x 4ft (24
/// square feet) can accommodate 6 aircraft."
///
/// Reading: a rate (1 aircraft per 4 square feet), rounded down, not whole
/// 8-square-foot blocks: the density is "suggested", and a 5ft x 3ft table
/// takes 3 (test `density_is_a_rate_rounded_down`).
pub fn ground_attack_capacity(width_ft: f32, depth_ft: f32) -> Result<u32, AirError> {
    if !(width_ft > 0.0 && depth_ft > 0.0 && width_ft.is_finite() && depth_ft.is_finite()) {
        return Err(AirError::BadInput("table size must be positive feet"));
    }
    Ok((width_ft * depth_ft * 2.0 / 8.0).floor() as u32)
}

/// How many of `wanting` ground attackers enter at low level this bound when
/// `attacking` already do; the rest "are considered in the 'box'".
pub fn admit_ground_attackers(capacity: u32, attacking: u32, wanting: u32) -> (u32, u32) {
    let enter = wanting.min(capacity.saturating_sub(attacking));
    (enter, wanting - enter)
}

/// How a squadron comes to the table ("Scheduling aircraft to appear").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Schedule {
    /// "Scheduled to appear on a specific bound."
    Bound(u32),
    /// "Allocated as close support to the ground troops": the next bound.
    CloseSupport,
    /// Called in during the game.
    CalledIn,
}

/// What is called in: "a ground attack or a Combat Air Patrol".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallIn {
    GroundAttack,
    CombatAirPatrol { fielded: bool },
}

/// The bound a close-support squadron asked for on `bound` arrives.
pub const fn close_support_arrival(bound: u32) -> u32 {
    bound + 1
}

/// *Heroes All*, "'Calling in' aircraft": the CO, in his Command turn, "must
/// pass a Leadership Test and then throws a D4 which will show the number of
/// bounds delay". Returns the bound of arrival, or `None` when the test fails.
/// The 2-player game passes `co = None` ("a player throws a D4").
pub fn call_in(
    what: CallIn,
    co: Option<Officer>,
    bound: u32,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(Option<u32>, Vec<RuleEvent>), AirError> {
    if what == (CallIn::CombatAirPatrol { fielded: false }) {
        return Err(AirError::NoCapFielded);
    }
    let mut events = Vec::new();
    if let Some(co) = co {
        let (test, e) = officer::leadership_test(co, dice, id);
        events.push(e);
        if !test.passed {
            return Ok((None, events));
        }
    }
    let delay = dice.d4();
    let arrives = bound + u32::from(delay);
    events.push(
        RuleEvent::new(EventKind::Movement, rule("\"Calling in\" aircraft"))
            .actor(id)
            .input("called_in", what, "a ground attack or a Combat Air Patrol")
            .input("bound", bound, "")
            .dice(4, &[delay])
            .outcome(json!({ "delay": delay, "arrives": arrives })),
    );
    Ok((Some(arrives), events))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::officer::{Grade, Rank};

    #[test]
    fn density_worked_example_six_by_four_takes_six() {
        assert_eq!(ground_attack_capacity(6.0, 4.0), Ok(6));
        assert_eq!(admit_ground_attackers(6, 4, 3), (2, 1), "the rest wait in the box");
        assert!(ground_attack_capacity(0.0, 4.0).is_err());
    }

    #[test]
    fn density_is_a_rate_rounded_down() {
        assert_eq!(ground_attack_capacity(5.0, 3.0), Ok(3));
        assert_eq!(ground_attack_capacity(8.0, 6.0), Ok(12));
    }

    #[test]
    fn window_spans_four_bounds_then_aircraft_leave() {
        let w = Window { first: 3 };
        assert!(!w.open(2) && w.open(3) && w.open(6) && !w.open(7));
        assert_eq!(w.may_act(6), Ok(()));
        assert_eq!(w.may_act(7), Err(AirError::WindowClosed));
    }

    #[test]
    fn calling_in_needs_a_leadership_test_then_a_d4() {
        let co = Officer::new(Rank::CompanyOfficer, Grade::Regular).unwrap(); // below 5
        let (arr, ev) = call_in(CallIn::GroundAttack, Some(co), 4, &mut Scripted::new([4, 3]), "CO").unwrap();
        assert_eq!(arr, Some(7));
        assert_eq!(ev.len(), 2);
        let (arr, _) = call_in(CallIn::GroundAttack, Some(co), 4, &mut Scripted::new([5]), "CO").unwrap();
        assert_eq!(arr, None, "a 5 fails the test; no D4");
        let (arr, _) =
            call_in(CallIn::CombatAirPatrol { fielded: true }, None, 2, &mut Scripted::new([1]), "P").unwrap();
        assert_eq!(arr, Some(3), "2-player: a D4 only");
        let r = call_in(CallIn::CombatAirPatrol { fielded: false }, None, 2, &mut Scripted::new([]), "P");
        assert_eq!(r.unwrap_err(), AirError::NoCapFielded);
        assert_eq!(close_support_arrival(5), 6);
    }
}
