//! Strategic Conditions and radios (*Fight Your Own Battles*, "Strategic
//! Conditions", "Radios"): the Continuous Momentum Total (CMT), Strategic
//! Milestone Tests and re-tests, the Strategic Condition Green/Yellow/Red,
//! and netting-in a Company's radios.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::momentum::MAX_CMS;
use crate::opc::Nation;

/// The Continuous Momentum Total: the sum of the CMS of the elements present
/// on the table (reserves, withdrawn and destroyed elements are left out by
/// the caller; elements that left by an exit point keep counting).
pub fn cmt(scores: &[u8]) -> Result<u32, StrategicError> {
    scores.iter().try_fold(0u32, |sum, &s| {
        if s > MAX_CMS { Err(StrategicError::CmsOutOfRange(s)) } else { Ok(sum + u32::from(s)) }
    })
}

/// The force's Strategic Condition; `Withdrawn` is the battle lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum StrategicCondition {
    Green,
    Yellow,
    Red,
    /// "If, whilst his Strategic Condition is at Red, a further Strategic
    /// Milestone test yields another score of 1 then the force will withdraw
    /// immediately and the battle is lost."
    Withdrawn,
}

/// Bad input to a strategic rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrategicError {
    CmsOutOfRange(u8),
    /// The milestone is a percentage of 1..=100 and the starting CMT above 0.
    BadMilestone(u32),
    NoForce,
    /// The force has already withdrawn.
    Withdrawn,
    /// The radio is DIS for the rest of the game.
    RadioDis,
    /// "2 Radio tests are allowed per bound."
    NoRadioTestsLeft,
}

impl fmt::Display for StrategicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for StrategicError {}

/// The Senior Officer Record Sheet: initial CMT, milestone, condition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeniorOfficerRecord {
    original_cmt: u32,
    milestone_pct: u32,
    condition: StrategicCondition,
    /// Milestones (1 = the first, 10% for most armies) tested and not yet recovered.
    tested: Vec<u32>,
}

/// One Strategic Milestone Test or re-test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MilestoneTest {
    /// 1 for the first milestone (10%), 2 for the second (20%) …
    pub milestone: u32,
    /// A re-test after the CMT was repaired above the milestone.
    pub retake: bool,
    pub faces: Vec<u8>,
    pub condition_after: StrategicCondition,
}

impl SeniorOfficerRecord {
    /// "For most armies this will be 10%"; 15 or 20 for resilient forces.
    pub fn new(original_cmt: u32, milestone_pct: u32) -> Result<Self, StrategicError> {
        if original_cmt == 0 {
            return Err(StrategicError::NoForce);
        }
        if !(1..=100).contains(&milestone_pct) {
            return Err(StrategicError::BadMilestone(milestone_pct));
        }
        Ok(Self { original_cmt, milestone_pct, condition: StrategicCondition::Green, tested: Vec::new() })
    }

    pub fn condition(&self) -> StrategicCondition {
        self.condition
    }

    pub fn original_cmt(&self) -> u32 {
        self.original_cmt
    }

    /// The Strategic Milestone in percent.
    pub fn milestone_pct(&self) -> u32 {
        self.milestone_pct
    }

    /// The record card of a battlegroup that absorbs another (FYOW 2.7: the
    /// Senior Command "merges the values ... and amends the Battlegroup
    /// Record Card"): its original CMT is both originals together; its
    /// milestone, condition and the milestones it has tested stand.
    pub fn merged_with(&self, absorbed: &Self) -> Self {
        Self { original_cmt: self.original_cmt + absorbed.original_cmt, ..self.clone() }
    }

    /// How many milestones `cmt` is below: the k-th is passed when the CMT
    /// "falls to below" k × milestone% "of its original figure" — a fall of more
    /// than k × milestone% (the example: 53 is below 54, 90% of 60).
    pub fn milestones_passed(&self, cmt: u32) -> u32 {
        let (orig, pct) = (u64::from(self.original_cmt), u64::from(self.milestone_pct));
        (1..=100 / pct).take_while(|k| u64::from(cmt) * 100 < orig * (100 - k * pct)).count() as u32
    }

    /// The Senior Officer's Strategic Milestone Tests at the start of a
    /// session (or after committing reserves, as the book's example does).
    ///
    /// - A milestone passed and not yet tested is tested: milestone k is k
    ///   tests of 2D6 (one more D6 a test when rationed) — the example's 10%
    ///   test throws 2 dice, its 20% test 4. A 1 drops the condition one step
    ///   ("even if two scores of 1 are recorded ... only falls by 1 step");
    ///   a 1 at Red withdraws the force.
    /// - A milestone tested before that the CMT is no longer below is re-taken
    ///   ("Re-taking Strategic Milestone tests"): any 6 improves the condition
    ///   one step and 1s do nothing (the example re-takes its 20% test with
    ///   1, 4, 4, 5 and "in the absence of a 6" stays at yellow). Reading: only
    ///   milestones the CMT has risen back above are re-taken, the highest
    ///   first, as in the example.
    /// - A CMT above the original then becomes the new 100%.
    pub fn milestone_tests(
        &mut self,
        cmt: u32,
        rationed: bool,
        dice: &mut impl Roll,
        id: &str,
    ) -> Result<(Vec<MilestoneTest>, RuleEvent), StrategicError> {
        if self.condition == StrategicCondition::Withdrawn {
            return Err(StrategicError::Withdrawn);
        }
        let per_test = if rationed { 3 } else { 2 };
        let passed = self.milestones_passed(cmt);
        let mut tests = Vec::new();
        let mut recovered: Vec<u32> = self.tested.iter().copied().filter(|&k| k > passed).collect();
        recovered.sort_unstable_by(|a, b| b.cmp(a));
        for k in recovered {
            let faces = dice.throw((k * per_test) as usize, 6);
            if faces.contains(&6) {
                self.condition = match self.condition {
                    StrategicCondition::Red => StrategicCondition::Yellow,
                    _ => StrategicCondition::Green,
                };
            }
            self.tested.retain(|&t| t != k);
            tests.push(MilestoneTest { milestone: k, retake: true, faces, condition_after: self.condition });
        }
        for k in 1..=passed {
            if self.tested.contains(&k) || self.condition == StrategicCondition::Withdrawn {
                continue;
            }
            let faces = dice.throw((k * per_test) as usize, 6);
            if faces.contains(&1) {
                self.condition = match self.condition {
                    StrategicCondition::Green => StrategicCondition::Yellow,
                    StrategicCondition::Yellow => StrategicCondition::Red,
                    StrategicCondition::Red | StrategicCondition::Withdrawn => StrategicCondition::Withdrawn,
                };
            }
            self.tested.push(k);
            tests.push(MilestoneTest { milestone: k, retake: false, faces, condition_after: self.condition });
        }
        if cmt > self.original_cmt {
            self.original_cmt = cmt;
            self.tested.clear();
        }
        let mut event = RuleEvent::new(
            EventKind::StrategicMilestone,
            RuleRef::new(Book::FightYourOwnBattles, "Strategic Milestone Test"),
        )
        .actor(id)
        .input("cmt", cmt, "")
        .input("original_cmt", self.original_cmt, "")
        .input("milestone_pct", self.milestone_pct, "")
        .input("rationed", rationed, "an extra D6 a test");
        for t in &tests {
            event = event.dice(6, &t.faces);
        }
        let event = event.outcome(json!({ "tests": tests, "condition": self.condition }));
        Ok((tests, event))
    }
}

/// FYOB "Radio netting-in": the D10 an Officer must score, by nation.
const RADIO_TEST_TARGETS: [(Nation, u8); 3] = [(Nation::German, 3), (Nation::British, 4), (Nation::American, 4)];
/// "Italian, Russian and other nations must score 5+".
const RADIO_TEST_OTHERS: u8 = 5;
/// "2 attempts are permitted"; "2 Radio tests are allowed per bound".
pub const RADIO_TESTS_PER_BOUND: u8 = 2;
/// "If a Radio Test is failed 3 times then the radio is considered DIS."
const FAILURES_TO_DIS: u8 = 3;

/// The D10 score a nation's officers need to net in.
pub fn radio_target(nation: &Nation) -> u8 {
    RADIO_TEST_TARGETS.iter().find(|(n, _)| n == nation).map_or(RADIO_TEST_OTHERS, |&(_, t)| t)
}

/// A Company's radio net.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RadioNet {
    pub netted: bool,
    /// Failed Radio Tests this game. Reading: "failed 3 times" counts every
    /// failure in the game, not only those in a row.
    pub failures: u8,
    pub dis: bool,
    tests_this_bound: u8,
}

impl RadioNet {
    /// A new bound (or the start of the game): 2 tests are allowed again.
    pub fn new_bound(&mut self) {
        self.tests_this_bound = 0;
    }

    /// The set must be netted in again: an infantry element hit by 81mm+
    /// mortar or artillery fire, an AFV or radio vehicle damaged, a battery
    /// hit by counter-battery fire.
    pub fn knocked_off_net(&mut self) {
        self.netted = false;
    }
}

/// FYOB "Radios": the set must be netted in again when "an infantry element
/// is hit by mortar or artillery fire from a weapon with a calibre of 81mm or
/// more". Reading: the CODEX calibre decides where the gun has one; without
/// one, the Weapons table row: medium and heavy mortars (the 81mm and 120mm
/// classes), rockets and howitzers from the 76–104mm row up (test
/// `only_81mm_and_heavier_shells_knock_a_set_off_the_net`).
pub fn shell_knocks_off_net(row: crate::firing::Weapon, calibre: Option<u16>) -> bool {
    use crate::firing::Weapon;
    let shell = matches!(
        row,
        Weapon::LightMortar
            | Weapon::MediumMortar
            | Weapon::HeavyMortar
            | Weapon::Rockets
            | Weapon::Howitzer50
            | Weapon::Howitzer75
            | Weapon::Howitzer104
            | Weapon::Howitzer149
            | Weapon::Howitzer150Plus
    );
    match calibre {
        Some(mm) => shell && mm >= OFF_NET_CALIBRE,
        None => matches!(
            row,
            Weapon::MediumMortar
                | Weapon::HeavyMortar
                | Weapon::Rockets
                | Weapon::Howitzer104
                | Weapon::Howitzer149
                | Weapon::Howitzer150Plus
        ),
    }
}

/// The chance a Radio Test passes: a D10 (0 counts 10) at or above the nation's score.
pub fn radio_test_odds(nation: &Nation) -> f64 {
    f64::from(11 - radio_target(nation)) / 10.0
}

/// "a weapon with a calibre of 81mm or more".
pub const OFF_NET_CALIBRE: u16 = 81;

/// A Radio Test: one D10 (0 counts 10) against the nation's target.
pub fn radio_test(
    nation: &Nation,
    net: &mut RadioNet,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(bool, RuleEvent), StrategicError> {
    if net.dis {
        return Err(StrategicError::RadioDis);
    }
    if net.tests_this_bound >= RADIO_TESTS_PER_BOUND {
        return Err(StrategicError::NoRadioTestsLeft);
    }
    net.tests_this_bound += 1;
    let target = radio_target(nation);
    let face = dice.d10();
    let passed = face >= target;
    if passed {
        net.netted = true;
    } else {
        net.failures += 1;
        net.dis = net.failures >= FAILURES_TO_DIS;
    }
    let event = RuleEvent::new(EventKind::RadioTest, RuleRef::new(Book::FightYourOwnBattles, "Radio netting-in"))
        .actor(id)
        .input("nation", nation, "")
        .input("target", target, "D10 to score")
        .dice(10, &[face])
        .outcome(json!({ "passed": passed, "failures": net.failures, "dis": net.dis }));
    Ok((passed, event))
}

/// FYOB "Strategic Condition at Red": "A fall to Red should trigger a
/// general withdrawal ... unless he is willing to commit reserves". The Auto
/// Senior Officer withdraws in `condition` Red when he has no force left to
/// commit (`force_to_commit`: reserves, or troops still due on the table).
pub fn withdraws_at_red(condition: StrategicCondition, force_to_commit: bool) -> bool {
    condition == StrategicCondition::Red && !force_to_commit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn red_withdraws_unless_there_is_a_force_to_commit() {
        assert!(withdraws_at_red(StrategicCondition::Red, false));
        assert!(!withdraws_at_red(StrategicCondition::Red, true), "he commits his reserves instead");
        assert!(!withdraws_at_red(StrategicCondition::Yellow, false));
    }
    use crate::dice::{Dice, Scripted};

    #[test]
    fn cmt_is_the_sum_of_scores_on_the_table() {
        assert_eq!(cmt(&[6; 10]), Ok(60));
        assert_eq!(cmt(&[6, 5, 0]), Ok(11));
        assert_eq!(cmt(&[7]), Err(StrategicError::CmsOutOfRange(7)));
    }

    #[test]
    fn milestones_fall_due_below_each_step() {
        let so = SeniorOfficerRecord::new(60, 10).unwrap();
        assert_eq!(so.milestones_passed(60), 0);
        assert_eq!(so.milestones_passed(54), 0, "exactly 90% is not below it");
        assert_eq!(so.milestones_passed(53), 1);
        assert_eq!(so.milestones_passed(47), 2);
        assert_eq!(so.milestones_passed(0), 9, "a fall of more than 100% cannot happen");
        // "falls from 100% to 79% in one bound": both the 10% and the 20% test.
        assert_eq!(SeniorOfficerRecord::new(100, 10).unwrap().milestones_passed(79), 2);
        assert_eq!(SeniorOfficerRecord::new(100, 15).unwrap().milestones_passed(84), 1);
        assert_eq!(SeniorOfficerRecord::new(0, 10), Err(StrategicError::NoForce));
        assert_eq!(SeniorOfficerRecord::new(60, 0), Err(StrategicError::BadMilestone(0)));
    }

    #[test]
    fn book_example_strategic_milestones_with_the_rule_arithmetic() {
        // FYOB "Strategic Milestone example": 10 elements, CMT 60, milestone 10%.
        let mut so = SeniorOfficerRecord::new(cmt(&[6; 10]).unwrap(), 10).unwrap();
        // Session 2: a tank lost (−6) and one CMS down to 5 → 53, below 54: the 10% test, 5 and 3.
        let cmt2 = 60 - 6 - 1;
        assert_eq!(cmt2, 53);
        let (t, e) = so.milestone_tests(cmt2, false, &mut Scripted::new([5, 3]), "SO").unwrap();
        assert_eq!((t.len(), t[0].milestone, so.condition()), (1, 1, StrategicCondition::Green));
        assert_eq!(e.kind, EventKind::StrategicMilestone);
        // Session 3: another tank → 47: the 20% test, four dice 1, 3, 3, 5 → yellow.
        let cmt3 = cmt2 - 6;
        assert_eq!(cmt3, 47);
        let (t, _) = so.milestone_tests(cmt3, false, &mut Scripted::new([1, 3, 3, 5]), "SO").unwrap();
        assert_eq!((t.len(), t[0].milestone, t[0].faces.len()), (1, 2, 4));
        assert_eq!(so.condition(), StrategicCondition::Yellow);
        // The book writes 47 + 1 rallied point as 54, then 54 + 6 as 60: the rule gives
        // 48, then 54. The rule wins; the tests the example takes behave the same.
        let rallied = cmt3 + 1;
        assert_eq!(rallied, 48);
        assert_ne!(rallied, 54, "the example's arithmetic slip");
        let (t, _) = so.milestone_tests(rallied, false, &mut Scripted::new([1, 4, 4, 5]), "SO").unwrap();
        assert_eq!((t.len(), t[0].milestone, t[0].retake), (1, 2, true));
        assert_eq!(so.condition(), StrategicCondition::Yellow, "no 6, and a 1 on a re-take does not drop");
        let committed = rallied + 6;
        assert_eq!(committed, 54);
        let (t, _) = so.milestone_tests(committed, false, &mut Scripted::new([3, 6]), "SO").unwrap();
        assert_eq!((t.len(), t[0].milestone, t[0].retake), (1, 1, true));
        assert_eq!(so.condition(), StrategicCondition::Green);
    }

    #[test]
    fn two_ones_drop_one_step_and_a_one_at_red_withdraws() {
        let mut so = SeniorOfficerRecord::new(100, 10).unwrap();
        // 79%: the 10% test (2 dice) then the 20% test (4 dice), each may drop a step.
        let (t, _) = so.milestone_tests(79, false, &mut Scripted::new([1, 1, 1, 2, 2, 2]), "SO").unwrap();
        assert_eq!(
            t.iter().map(|t| t.condition_after).collect::<Vec<_>>(),
            [StrategicCondition::Yellow, StrategicCondition::Red]
        );
        let (_, _) = so.milestone_tests(69, false, &mut Scripted::new([1, 5, 5, 5, 5, 5]), "SO").unwrap();
        assert_eq!(so.condition(), StrategicCondition::Withdrawn);
        assert_eq!(so.milestone_tests(60, false, &mut Scripted::new([]), "SO").unwrap_err(), StrategicError::Withdrawn);
    }

    #[test]
    fn rationed_force_throws_an_extra_die_a_test() {
        let mut so = SeniorOfficerRecord::new(100, 10).unwrap();
        let (t, _) = so.milestone_tests(79, true, &mut Scripted::new([2; 9]), "SO").unwrap();
        assert_eq!(t.iter().map(|t| t.faces.len()).collect::<Vec<_>>(), [3, 6]);
    }

    #[test]
    fn committing_past_the_original_resets_the_hundred_percent() {
        let mut so = SeniorOfficerRecord::new(60, 10).unwrap();
        so.milestone_tests(50, false, &mut Scripted::new([2, 2]), "SO").unwrap();
        let (t, _) = so.milestone_tests(66, false, &mut Scripted::new([2, 2]), "SO").unwrap();
        assert!(t[0].retake);
        assert_eq!(so.original_cmt(), 66);
        assert_eq!(so.milestones_passed(59), 1, "59 is below 90% of the new 66");
    }

    #[test]
    fn condition_never_leaves_its_scale_and_tests_stop_at_withdrawal_for_every_seed() {
        for seed in 0..300 {
            let mut dice = Dice::new(seed);
            let mut so = SeniorOfficerRecord::new(60, 10).unwrap();
            let mut level = 60u32;
            while so.condition() != StrategicCondition::Withdrawn && level > 0 {
                level = level.saturating_sub(u32::from(dice.d6()));
                let before = so.condition();
                let (tests, _) = so.milestone_tests(level, seed % 2 == 0, &mut dice, "SO").unwrap();
                assert!(so.condition() >= before, "falling CMT never improves the condition");
                assert!(tests.iter().all(|t| !t.retake));
            }
            assert!(so.condition() == StrategicCondition::Withdrawn || level == 0);
        }
    }

    #[test]
    fn only_81mm_and_heavier_shells_knock_a_set_off_the_net() {
        use crate::firing::Weapon;
        // "mortar or artillery fire from a weapon with a calibre of 81mm or more"
        assert!(!shell_knocks_off_net(Weapon::LightMortar, None), "a 2in or 5cm mortar");
        assert!(shell_knocks_off_net(Weapon::MediumMortar, None), "a 3in or 8cm mortar");
        assert!(shell_knocks_off_net(Weapon::Howitzer104, Some(88)), "a 25pdr");
        assert!(!shell_knocks_off_net(Weapon::Howitzer104, Some(76)), "76mm is under 81mm");
        assert!(!shell_knocks_off_net(Weapon::Howitzer75, Some(75)));
        assert!(!shell_knocks_off_net(Weapon::Rifle, Some(100)), "not a mortar or artillery");
    }

    #[test]
    fn radio_targets_by_nation() {
        assert_eq!(radio_target(&Nation::German), 3);
        assert_eq!(radio_target(&Nation::British), 4);
        assert!((radio_test_odds(&Nation::British) - 0.7).abs() < 1e-9, "4 to 10 of ten faces");
        assert_eq!(radio_target(&Nation::American), 4);
        assert_eq!(radio_target(&Nation::Italian), 5);
        assert_eq!(radio_target(&Nation::Russian), 5);
        assert_eq!(radio_target(&Nation::Other("French".into())), 5);
        let mut net = RadioNet::default();
        let (ok, e) = radio_test(&Nation::German, &mut net, &mut Scripted::new([3]), "CO").unwrap();
        assert!(ok && net.netted);
        assert_eq!(e.kind, EventKind::RadioTest);
        net.new_bound();
        net.knocked_off_net();
        let (ok, _) = radio_test(&Nation::British, &mut net, &mut Scripted::new([3]), "CO").unwrap();
        assert!(!ok && !net.netted);
        let (ok, _) = radio_test(&Nation::British, &mut net, &mut Scripted::new([10]), "CO").unwrap();
        assert!(ok, "a 0 counts as 10");
    }

    #[test]
    fn two_tests_a_bound_and_dis_after_three_failures() {
        let mut net = RadioNet::default();
        let nation = Nation::Italian;
        radio_test(&nation, &mut net, &mut Scripted::new([4]), "CO").unwrap();
        radio_test(&nation, &mut net, &mut Scripted::new([4]), "CO").unwrap();
        assert_eq!(
            radio_test(&nation, &mut net, &mut Scripted::new([4]), "CO").unwrap_err(),
            StrategicError::NoRadioTestsLeft
        );
        net.new_bound();
        assert!(!net.dis);
        let (_, e) = radio_test(&nation, &mut net, &mut Scripted::new([1]), "CO").unwrap();
        assert!(net.dis);
        assert_eq!(e.outcome["dis"], true);
        net.new_bound();
        assert_eq!(radio_test(&nation, &mut net, &mut Scripted::new([9]), "CO").unwrap_err(), StrategicError::RadioDis);
    }
}
