//! Battlegroups on Map Boards (FYOW 15.3, 15.4): the attitudes Present,
//! Deployed, Fortified Defence and Disarray, and concealment on a Map Board.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::map::common::{MapError, SessionStamp};
use crate::map::movement::MoveAllowance;

/// FYOW 15.3 attitudes of a force occupying a Map Board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Attitude {
    /// In "Line of March": en route, waiting, or on patrol.
    Present,
    /// In defensive positions or organised for an attack.
    Deployed,
    /// A deployed defence elevated after 4 unchallenged sessions.
    Fortified,
    /// Forced into disarray by combat: 2 activations to re-organise.
    Disarray,
}

/// FYOW 15.3: "remaining unchallenged (in any way) for 4 complete sessions".
pub const SESSIONS_TO_FORTIFY: u8 = 4;
/// FYOW 15.3: "It takes 2 sessions (activations) to re-organise".
pub const ACTIVATIONS_TO_REORGANISE: u8 = 2;

/// Who spends an activation re-organising a force in Disarray (FYOW 15.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reorganiser {
    /// The force's own activation.
    Own,
    /// The Senior Officer's activation, when the force is (or shares a board with) the Brigade HQ.
    SeniorOfficer { shares_board_with_brigade_hq: bool },
}

/// A force's attitude and the counts that move it on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttitudeState {
    attitude: Attitude,
    unchallenged_sessions: u8,
    activations_left: u8,
    senior_officer_helped: bool,
}

impl Default for AttitudeState {
    fn default() -> Self {
        Self::present()
    }
}

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnWars, section)
}

impl AttitudeState {
    /// A force arriving in Line of March.
    pub fn present() -> Self {
        Self {
            attitude: Attitude::Present,
            unchallenged_sessions: 0,
            activations_left: 0,
            senior_officer_helped: false,
        }
    }

    pub fn attitude(&self) -> Attitude {
        self.attitude
    }

    /// Complete unchallenged sessions counted towards a Fortified Defence.
    pub fn unchallenged_sessions(&self) -> u8 {
        self.unchallenged_sessions
    }

    /// FYOW 15.3: a Present force "may deploy into a defensive positions at the cost of 1
    /// movement"; no Movement Test.
    pub fn deploy(&mut self, force: &str, allowance: &mut MoveAllowance) -> Result<RuleEvent, MapError> {
        if self.attitude != Attitude::Present {
            return Err(MapError::NotAllowed(format!(
                "{force} is {:?}: only a Present force deploys (FYOW 15.3)",
                self.attitude
            )));
        }
        allowance.spend_move()?;
        self.attitude = Attitude::Deployed;
        self.unchallenged_sessions = 0;
        Ok(RuleEvent::new(EventKind::MapMovement, rule("15.3 Deployed"))
            .actor(force)
            .input("cost", 1, "deploys rather than making a move; no Movement Test")
            .outcome(json!({ "attitude": Attitude::Deployed })))
    }

    /// The end of a complete session. A Deployed force unchallenged "in any way" counts the
    /// session; at 4 it becomes Fortified. Any challenge starts the count again.
    /// Reading (FYOW 15.3): the 4 sessions must run together after deploying.
    pub fn end_session(&mut self, force: &str, challenged: bool) -> Option<RuleEvent> {
        if self.attitude != Attitude::Deployed {
            return None;
        }
        if challenged {
            self.unchallenged_sessions = 0;
            return None;
        }
        self.unchallenged_sessions += 1;
        (self.unchallenged_sessions >= SESSIONS_TO_FORTIFY).then(|| {
            self.attitude = Attitude::Fortified;
            RuleEvent::new(EventKind::Work, rule("15.3 Fortified Defence"))
                .actor(force)
                .input("unchallenged_sessions", self.unchallenged_sessions, "4 complete sessions unchallenged")
                .outcome(json!({ "attitude": Attitude::Fortified }))
        })
    }

    /// Combat forces the force into Disarray (FYOW 15.3).
    pub fn fall_into_disarray(&mut self, force: &str) -> RuleEvent {
        *self = Self {
            attitude: Attitude::Disarray,
            unchallenged_sessions: 0,
            activations_left: ACTIVATIONS_TO_REORGANISE,
            senior_officer_helped: false,
        };
        RuleEvent::new(EventKind::Battlegroup, rule("15.3 Disarray"))
            .actor(force)
            .outcome(json!({ "attitude": Attitude::Disarray, "activations_to_reorganise": ACTIVATIONS_TO_REORGANISE }))
    }

    /// One activation spent re-organising from Disarray. When none is left the force adopts
    /// `then` (Present or Deployed). The Senior Officer may help once, so the force needs only
    /// one activation of its own.
    pub fn reorganise(&mut self, force: &str, by: Reorganiser, then: Attitude) -> Result<RuleEvent, MapError> {
        if self.attitude != Attitude::Disarray {
            return Err(MapError::NotAllowed(format!("{force} is not in Disarray (FYOW 15.3)")));
        }
        if !matches!(then, Attitude::Present | Attitude::Deployed) {
            return Err(MapError::NotAllowed(format!(
                "{force} re-organises into Present or Deployed, not {then:?} (FYOW 15.3)"
            )));
        }
        if let Reorganiser::SeniorOfficer { shares_board_with_brigade_hq } = by {
            if !shares_board_with_brigade_hq {
                return Err(MapError::NotAllowed(format!(
                    "the Senior Officer helps only a force that is, or shares a Map Board with, the Brigade HQ (FYOW 15.3); {force} does not"
                )));
            }
            if self.senior_officer_helped || self.activations_left < 2 {
                return Err(MapError::NotAllowed(format!(
                    "{force} still needs one activation of its own; the Senior Officer cannot help again (FYOW 15.3)"
                )));
            }
            self.senior_officer_helped = true;
        }
        self.activations_left = self.activations_left.saturating_sub(1);
        if self.activations_left == 0 {
            self.attitude = then;
        }
        Ok(RuleEvent::new(EventKind::Battlegroup, rule("15.3 Disarray"))
            .actor(force)
            .input("by", by, "")
            .outcome(json!({ "activations_left": self.activations_left, "attitude": self.attitude })))
    }
}

/// An element ordered to CONCEAL on a Map Board (FYOW 15.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConcealCandidate {
    pub element: String,
    /// Infantry, including CSW units.
    pub infantry: bool,
    pub elite: bool,
    pub enhanced: bool,
}

/// FYOW 15.4: "each element throws a D10 and will be considered in concealment on a score of 6+".
pub const CONCEALMENT_NEEDS: u8 = 6;

/// FYOW 15.4 Concealment on a Map Board: Elite or Enhanced infantry (CSW included), at the
/// start of a session after their arrival, each throw a D10: 6+ conceals. Returns each
/// element with whether it is concealed.
pub fn conceal_on_board(
    force: &str,
    elements: &[ConcealCandidate],
    arrived: SessionStamp,
    now: SessionStamp,
    dice: &mut impl Roll,
) -> Result<(Vec<(String, bool)>, RuleEvent), MapError> {
    if now <= arrived {
        return Err(MapError::NotAllowed(format!(
            "{force} throws for concealment at the start of the session after its arrival (FYOW 15.4)"
        )));
    }
    if let Some(e) = elements.iter().find(|e| !(e.infantry && (e.elite || e.enhanced))) {
        return Err(MapError::NotAllowed(format!(
            "{} cannot conceal: only Elite or Enhanced infantry (including CSW units) may (FYOW 15.4)",
            e.element
        )));
    }
    let faces: Vec<u8> = elements.iter().map(|_| dice.d10()).collect();
    let result: Vec<(String, bool)> =
        elements.iter().zip(&faces).map(|(e, &f)| (e.element.clone(), f >= CONCEALMENT_NEEDS)).collect();
    let event = RuleEvent::new(EventKind::Detection, rule("15.4 Concealment on a Map Board"))
        .actor(force)
        .input("elements", elements.len(), "ordered to CONCEAL")
        .input("needs", CONCEALMENT_NEEDS, "D10 per element")
        .dice(10, &faces)
        .outcome(json!({ "concealed": result.iter().filter(|r| r.1).map(|r| &r.0).collect::<Vec<_>>() }));
    Ok((result, event))
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    #[test]
    fn deploying_costs_one_move_and_no_test() {
        let mut a = AttitudeState::present();
        let mut moves = MoveAllowance::new_day(2);
        let e = a.deploy("1 Bn", &mut moves).unwrap();
        assert_eq!(a.attitude(), Attitude::Deployed);
        assert_eq!(moves.remaining(), 1);
        assert!(e.dice.is_empty());
        assert!(a.deploy("1 Bn", &mut moves).is_err(), "already deployed");
        let mut b = AttitudeState::present();
        let mut none = MoveAllowance::new_day(0);
        assert!(b.deploy("2 Bn", &mut none).is_err(), "no move left to spend");
        assert_eq!(b.attitude(), Attitude::Present);
    }

    #[test]
    fn four_unchallenged_sessions_fortify_and_a_challenge_restarts_the_count() {
        let mut a = AttitudeState::present();
        a.deploy("1 Bn", &mut MoveAllowance::new_day(2)).unwrap();
        for _ in 0..3 {
            assert!(a.end_session("1 Bn", false).is_none());
        }
        assert!(a.end_session("1 Bn", true).is_none());
        assert_eq!(a.unchallenged_sessions(), 0);
        for _ in 0..3 {
            a.end_session("1 Bn", false);
        }
        let e = a.end_session("1 Bn", false).expect("fortified on the 4th");
        assert_eq!(a.attitude(), Attitude::Fortified);
        assert_eq!(e.kind, EventKind::Work);
        let mut p = AttitudeState::present();
        for _ in 0..5 {
            p.end_session("2 Bn", false);
        }
        assert_eq!(p.attitude(), Attitude::Present, "only a deployed defence fortifies");
    }

    #[test]
    fn disarray_takes_two_activations_or_one_with_the_senior_officer() {
        let mut a = AttitudeState::present();
        a.fall_into_disarray("1 Bn");
        a.reorganise("1 Bn", Reorganiser::Own, Attitude::Deployed).unwrap();
        assert_eq!(a.attitude(), Attitude::Disarray);
        a.reorganise("1 Bn", Reorganiser::Own, Attitude::Deployed).unwrap();
        assert_eq!(a.attitude(), Attitude::Deployed);

        let mut b = AttitudeState::present();
        b.fall_into_disarray("2 Bn");
        let so = Reorganiser::SeniorOfficer { shares_board_with_brigade_hq: true };
        b.reorganise("2 Bn", so, Attitude::Present).unwrap();
        assert!(b.reorganise("2 Bn", so, Attitude::Present).is_err(), "one own activation still needed");
        b.reorganise("2 Bn", Reorganiser::Own, Attitude::Present).unwrap();
        assert_eq!(b.attitude(), Attitude::Present);

        let mut c = AttitudeState::present();
        c.fall_into_disarray("3 Bn");
        let away = Reorganiser::SeniorOfficer { shares_board_with_brigade_hq: false };
        assert!(c.reorganise("3 Bn", away, Attitude::Present).is_err());
        assert!(c.reorganise("3 Bn", Reorganiser::Own, Attitude::Fortified).is_err());
        assert!(AttitudeState::present().reorganise("4 Bn", Reorganiser::Own, Attitude::Present).is_err());
    }

    #[test]
    fn elite_or_enhanced_infantry_conceal_on_six_or_more() {
        let el = |id: &str, elite, enhanced| ConcealCandidate { element: id.into(), infantry: true, elite, enhanced };
        let arrived = SessionStamp::new(1, 2).unwrap();
        let now = SessionStamp::new(1, 3).unwrap();
        let (r, e) = conceal_on_board(
            "Rangers",
            &[el("1 Pl", true, false), el("2 Pl", false, true)],
            arrived,
            now,
            &mut Scripted::new([6, 5]),
        )
        .unwrap();
        assert_eq!(r, vec![("1 Pl".to_string(), true), ("2 Pl".to_string(), false)]);
        assert_eq!(e.dice.len(), 2);
        let err =
            conceal_on_board("Bn", &[el("3 Pl", false, false)], arrived, now, &mut Scripted::new([])).unwrap_err();
        assert!(err.to_string().contains("Elite or Enhanced"), "{err}");
        let tanks = ConcealCandidate { element: "Tp".into(), infantry: false, elite: true, enhanced: true };
        assert!(conceal_on_board("Bn", &[tanks], arrived, now, &mut Scripted::new([])).is_err());
        assert!(conceal_on_board("Bn", &[el("1 Pl", true, false)], arrived, arrived, &mut Scripted::new([])).is_err());
    }
}
