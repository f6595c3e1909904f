//! The Senior Officer (FYOB "Start of session activity for Senior Officer",
//! "Committing Reserves to the table", "Strategic Condition"): milestone
//! tests, committing reserves, the directive his condition calls for, and
//! objectives issued to his Company Officers.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::{CommandError, Company, Delivery, Message, Objective, fyob};
use crate::dice::Roll;
use crate::event::RuleEvent;
use crate::momentum::MAX_CMS;
use crate::officer::{Officer, Rank, leadership_test};
use crate::strategic::{MilestoneTest, SeniorOfficerRecord, StrategicCondition};

/// FYOB "Rallying up CMS": a withdrawn element "rallied back up to an
/// acceptable level ... can be re-committed to the table using the
/// 'reserves' mechanism". Reading: acceptable is 5, the lowest score the CMS
/// tables call "OK and can continue".
pub const RESERVE_MIN_CMS: u8 = 5;

/// An element held off table that may be committed: a reserve, or one
/// withdrawn to the box and rallied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reserve {
    pub id: String,
    pub cms: u8,
}

/// What the Senior Officer's Strategic Condition calls for (FYOB "Strategic
/// Condition", "Strategic Condition at Red").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Directive {
    Continue,
    /// "A fall to Yellow should trigger a revision of orders ... Alternatively,
    /// he could commit his reserves."
    ReviseOrdersOrCommitReserves,
    /// "A fall to Red should trigger a general withdrawal ... unless he is
    /// willing to commit reserves."
    WithdrawUnlessCommittingReserves,
    /// "The force will withdraw immediately and the battle is lost."
    BattleLost,
}

const DIRECTIVES: [(StrategicCondition, Directive); 4] = [
    (StrategicCondition::Green, Directive::Continue),
    (StrategicCondition::Yellow, Directive::ReviseOrdersOrCommitReserves),
    (StrategicCondition::Red, Directive::WithdrawUnlessCommittingReserves),
    (StrategicCondition::Withdrawn, Directive::BattleLost),
];

pub fn directive(condition: StrategicCondition) -> Directive {
    DIRECTIVES.iter().find(|r| r.0 == condition).map(|r| r.1).expect("every condition has a directive")
}

/// The Senior Officer and his record sheet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeniorOfficer {
    pub officer: Officer,
    pub record: SeniorOfficerRecord,
    /// Enemy elements known at battalion level.
    pub known: BTreeSet<String>,
}

/// The outcome of a start-of-session activity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub tests: Vec<MilestoneTest>,
    /// Reserves committed: each gets an OPC and moves on in the next bound.
    pub committed: Vec<String>,
    pub cmt_after: u32,
    /// Milestone tests re-taken for the CMT the reserves repaired.
    pub retests: Vec<MilestoneTest>,
    pub directive: Directive,
}

impl SeniorOfficer {
    pub fn new(officer: Officer, record: SeniorOfficerRecord) -> Result<Self, CommandError> {
        if officer.rank() != Rank::SeniorOfficer {
            return Err(CommandError::WrongRank(officer.rank()));
        }
        Ok(Self { officer, record, known: BTreeSet::new() })
    }

    /// FYOB "Start of session activity for Senior Officer" (every 4 bounds):
    /// take any Strategic Milestone Tests, then commit reserves to the table.
    /// Objectives are then issued with [`SeniorOfficer::issue_objective`].
    ///
    /// Committing is one decision, a Leadership Test ("by passing a
    /// Leadership Test"), for all the reserves named; a failure commits none
    /// this session. Reading (FYOB "Re-taking Strategic Milestone tests" says
    /// "at the start of the next session", but "Strategic Condition at Red"
    /// — "when reserves are committed ... the Senior Officer re-takes any
    /// Strategic Milestone tests" — and the worked example re-take them as
    /// the reserves arrive): the tests the committed reserves repair are
    /// re-taken at once; those repaired by rallying wait for the next session,
    /// when the CMT is next tested.
    pub fn start_of_session(
        &mut self,
        cmt: u32,
        rationed: bool,
        commit: &[Reserve],
        dice: &mut impl Roll,
    ) -> Result<(Session, Vec<RuleEvent>), CommandError> {
        for r in commit {
            if !(RESERVE_MIN_CMS..=MAX_CMS).contains(&r.cms) {
                return Err(CommandError::NotFitToCommit { id: r.id.clone(), cms: r.cms });
            }
        }
        let (tests, event) = self.record.milestone_tests(cmt, rationed, dice, "SO")?;
        let mut events = vec![event];
        let mut session = Session {
            tests,
            committed: Vec::new(),
            cmt_after: cmt,
            retests: Vec::new(),
            directive: Directive::Continue,
        };
        if !commit.is_empty() && self.record.condition() != StrategicCondition::Withdrawn {
            let (t, mut e) = leadership_test(self.officer, dice, "SO");
            e.rule = fyob("Committing Reserves to the table");
            events.push(e.input("reserves", commit.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ""));
            if t.passed {
                session.committed = commit.iter().map(|r| r.id.clone()).collect();
                session.cmt_after += commit.iter().map(|r| u32::from(r.cms)).sum::<u32>();
                let (retests, e) = self.record.milestone_tests(session.cmt_after, rationed, dice, "SO")?;
                session.retests = retests;
                events.push(e);
            }
        }
        session.directive = directive(self.record.condition());
        Ok((session, events))
    }

    /// FYOB "Command and Control session": "the Senior Officer will issue
    /// orders to each of his Company Officers provided that a radio link has
    /// been established"; without it the objective waits for the CO's runner
    /// (see [`CommandTurn::share`](super::CommandTurn::share)).
    pub fn issue_objective(&self, company: &mut Company, objective: Objective) -> Delivery {
        if company.linked_to_senior_officer() {
            company.objective = Some(objective);
            Delivery::Delivered
        } else {
            company.from_senior_officer.get_or_insert_with(Message::default).objective = Some(objective);
            Delivery::AwaitsRunner
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::testing::{co, company, hold, senior, so};
    use crate::dice::Scripted;
    use crate::officer::Grade;

    #[test]
    fn without_a_radio_link_the_senior_officers_objective_waits_for_the_cos_runner() {
        let mut c = company(false);
        let mut so = senior();
        assert_eq!(so.issue_objective(&mut c, hold("village")), Delivery::AwaitsRunner);
        assert_eq!(c.objective, None);
        let (mut turn, _) = c.command_turn(&mut Scripted::new([])).unwrap();
        // Regular CO's runner: a Leadership Test, 6 fails.
        let e = turn.as_mut().unwrap().share(&mut so, &mut Scripted::new([6])).unwrap().unwrap();
        assert_eq!(e.rule.section, "Radio Links between Officer levels");
        turn.as_mut().unwrap().share(&mut so, &mut Scripted::new([1])).unwrap();
        assert_eq!(c.objective, Some(hold("village")));
        let mut linked = company(true);
        assert_eq!(so.issue_objective(&mut linked, hold("ford")), Delivery::Delivered);
        assert_eq!(linked.objective, Some(hold("ford")));
    }

    #[test]
    fn book_example_committing_a_platoon_re_takes_the_ten_percent_test() {
        // FYOB "Strategic Milestone example", third session, with the rule's arithmetic (see
        // strategic.rs): the 10% and 20% tests were taken (yellow); the CMT is 48 after the rally.
        let mut so = senior();
        so.record.milestone_tests(53, false, &mut Scripted::new([5, 3]), "SO").unwrap();
        so.record.milestone_tests(47, false, &mut Scripted::new([1, 3, 3, 5]), "SO").unwrap();
        assert_eq!(so.record.condition(), StrategicCondition::Yellow);
        let platoon = Reserve { id: "4 Pl".into(), cms: 6 };
        // Re-take of the 20% test: 1, 4, 4, 5 (no 6); the Average SO commits (leadership 3 < 6),
        // CMT 54, and re-takes the 10% test: 3, 6 → Green.
        let mut dice = Scripted::new([1, 4, 4, 5, 3, 3, 6]);
        let (s, events) = so.start_of_session(48, false, &[platoon], &mut dice).unwrap();
        assert_eq!(s.tests.iter().map(|t| (t.milestone, t.retake)).collect::<Vec<_>>(), [(2, true)]);
        assert_eq!(s.tests[0].condition_after, StrategicCondition::Yellow);
        assert_eq!((s.committed.as_slice(), s.cmt_after), (&["4 Pl".to_string()][..], 54));
        assert_eq!(s.retests.iter().map(|t| (t.milestone, t.retake)).collect::<Vec<_>>(), [(1, true)]);
        assert_eq!((so.record.condition(), s.directive), (StrategicCondition::Green, Directive::Continue));
        assert_eq!(events.len(), 3);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn a_failed_leadership_test_commits_no_reserves_and_unfit_ones_are_refused() {
        let mut so = SeniorOfficer::new(so(Grade::BelowAverage), SeniorOfficerRecord::new(60, 10).unwrap()).unwrap();
        // Below Average (5): must throw less than 5.
        let (s, _) =
            so.start_of_session(60, false, &[Reserve { id: "tank".into(), cms: 6 }], &mut Scripted::new([5])).unwrap();
        assert!(s.committed.is_empty() && s.retests.is_empty());
        assert_eq!(s.cmt_after, 60);
        let rallied = Reserve { id: "box".into(), cms: 4 };
        assert_eq!(
            so.start_of_session(60, false, &[rallied], &mut Scripted::new([])).unwrap_err(),
            CommandError::NotFitToCommit { id: "box".into(), cms: 4 }
        );
        assert!(SeniorOfficer::new(co(Grade::Regular), SeniorOfficerRecord::new(60, 10).unwrap()).is_err());
    }

    #[test]
    fn directives_follow_the_strategic_condition() {
        assert_eq!(directive(StrategicCondition::Yellow), Directive::ReviseOrdersOrCommitReserves);
        assert_eq!(directive(StrategicCondition::Red), Directive::WithdrawUnlessCommittingReserves);
        assert_eq!(directive(StrategicCondition::Withdrawn), Directive::BattleLost);
    }
}
