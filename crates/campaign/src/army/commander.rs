//! Commanders (FYOW 7, 8 and 11): the competency throw, character traits,
//! Command Decisions (D10 against rating + 3), the trait Yes/No matrix, the
//! Variable Order Rule, and the optional experience and promotion throws.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::calendar::CampaignDate;
use crate::army::{ArmyError, fyow, not_allowed, out_of_range};

/// A commander's competency (FYOW 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Competency {
    BelowAverage,
    Average,
    AboveAverage,
}

impl Competency {
    /// The rating: Below Average 5, Average 6, Above Average 7 (FYOW 7).
    pub const fn rating(self) -> u8 {
        match self {
            Competency::BelowAverage => 5,
            Competency::Average => 6,
            Competency::AboveAverage => 7,
        }
    }

    /// One step better (FYOW 7.1 experience); Above Average stays.
    pub const fn improved(self) -> Competency {
        match self {
            Competency::BelowAverage => Competency::Average,
            _ => Competency::AboveAverage,
        }
    }

    /// FYOW 7's table, row for row, for a modified D6 score: 1 Below
    /// Average, 2–5 Average, 6 Above Average (a 7 after the +1 is still 6's row).
    pub const fn from_score(score: u8) -> Competency {
        match score {
            0..=1 => Competency::BelowAverage,
            2..=5 => Competency::Average,
            _ => Competency::AboveAverage,
        }
    }
}

/// The commands that are rated (FYOW 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CommanderRole {
    General,
    SeniorCommander,
    BattlegroupCommander,
    /// A Battlegroup 2iC.
    SecondInCommand,
}

/// A commander's record: name, role, competency and (for Generals, Senior
/// Commands and BCs) character traits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Commander {
    pub name: String,
    pub role: CommanderRole,
    pub competency: Competency,
    pub traits: Option<Traits>,
}

/// FYOW 7: throw a D6 for the commander's competency. "Generals, Senior
/// Commanders and Commanders of elite/veteran Battlegroups can modify this
/// throw by +1."
///
/// Reading (FYOW 7): the +1 is always taken where allowed (a better
/// commander is never refused), and a 2iC of an elite battlegroup does not
/// get it, as only its Commander is named. The player may still overrule the
/// result ("if historical evidence suggests") by setting the competency.
pub fn rate_commander(
    role: CommanderRole,
    elite_battlegroup: bool,
    dice: &mut impl Roll,
    name: &str,
) -> (Competency, RuleEvent) {
    let face = dice.d6();
    let plus_one = match role {
        CommanderRole::General | CommanderRole::SeniorCommander => true,
        CommanderRole::BattlegroupCommander => elite_battlegroup,
        CommanderRole::SecondInCommand => false,
    };
    let competency = Competency::from_score(face + u8::from(plus_one));
    let event = RuleEvent::new(EventKind::CommandDecision, fyow("7 Competency of Commanders"))
        .actor(name)
        .input("role", role, "")
        .input("modifier", u8::from(plus_one), "Generals, Senior Commanders and commanders of elite battlegroups +1")
        .dice(6, &[face])
        .outcome(json!({ "competency": competency, "rating": competency.rating() }));
    (competency, event)
}

/// Passive/aggressive, thrown on the red average die (FYOW 8.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Aggression {
    Passive,
    Balanced,
    Aggressive,
}

/// Decisive/hesitant, thrown on the blue average die (FYOW 8.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Decisiveness {
    Hesitant,
    Balanced,
    Decisive,
}

/// A commander's two character traits (FYOW 8.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Traits {
    pub aggression: Aggression,
    pub decisiveness: Decisiveness,
}

impl Aggression {
    /// Red dAvg: 2 Passive, 3–4 Balanced, 5 Aggressive (a 6 after the
    /// elite +1 reads as 5's row).
    pub const fn from_score(score: u8) -> Aggression {
        match score {
            0..=2 => Aggression::Passive,
            3..=4 => Aggression::Balanced,
            _ => Aggression::Aggressive,
        }
    }
}

impl Decisiveness {
    /// Blue dAvg: 2 Hesitant, 3–4 Balanced, 5 Decisive.
    pub const fn from_score(score: u8) -> Decisiveness {
        match score {
            0..=2 => Decisiveness::Hesitant,
            3..=4 => Decisiveness::Balanced,
            _ => Decisiveness::Decisive,
        }
    }
}

/// FYOW 8.5's matrix, row for row (Decisive, Balanced, Hesitant) by column
/// (Passive, Balanced, Aggressive): the highest D6 face that answers "Yes".
/// "Yes = 1234 = 56 No" is 4; Decisive and Aggressive is "Yes = 123456".
pub const TRAIT_MATRIX: [[u8; 3]; 3] = [
    [4, 5, 6], // Decisive
    [3, 4, 5], // Balanced
    [2, 3, 4], // Hesitant
];

impl Traits {
    /// FYOW 8.4: throw 2 dAvg, red for aggression and blue for decisiveness;
    /// "where units are wholly elite, add 1 to each throw".
    pub fn thrown(wholly_elite: bool, dice: &mut impl Roll, name: &str) -> (Traits, RuleEvent) {
        let red = dice.davg();
        let blue = dice.davg();
        let bonus = u8::from(wholly_elite);
        let traits = Traits {
            aggression: Aggression::from_score(red + bonus),
            decisiveness: Decisiveness::from_score(blue + bonus),
        };
        let event = RuleEvent::new(EventKind::CommandDecision, fyow("8.4 Character Traits"))
            .actor(name)
            .input("modifier", bonus, "wholly elite units add 1 to each throw")
            .input("red_davg", red, "passive/aggressive")
            .input("blue_davg", blue, "decisive/hesitant")
            .outcome(traits);
        (traits, event)
    }

    /// The highest D6 face that answers "Yes" (FYOW 8.5).
    pub const fn yes_up_to(self) -> u8 {
        let row = match self.decisiveness {
            Decisiveness::Decisive => 0,
            Decisiveness::Balanced => 1,
            Decisiveness::Hesitant => 2,
        };
        let column = match self.aggression {
            Aggression::Passive => 0,
            Aggression::Balanced => 1,
            Aggression::Aggressive => 2,
        };
        TRAIT_MATRIX[row][column]
    }

    /// A "What shall I do" Yes/No question answered by the commander's
    /// character (FYOW 8.5): a D6 against the matrix.
    pub fn answer(self, question: &str, dice: &mut impl Roll, name: &str) -> (bool, RuleEvent) {
        let face = dice.d6();
        let yes = face <= self.yes_up_to();
        let event = RuleEvent::new(EventKind::CommandDecision, fyow("8.5 Using the weightings"))
            .actor(name)
            .input("question", question, "")
            .input("traits", self, "")
            .input("yes_up_to", self.yes_up_to(), "the trait matrix")
            .dice(6, &[face])
            .outcome(json!({ "answer": if yes { "yes" } else { "no" } }));
        (yes, event)
    }
}

/// "A maximum of 5 decisions during each activation" (FYOW 8).
pub const MAX_DECISIONS_PER_ACTIVATION: usize = 5;
/// "He adds 3 to his rating and needs to score less than this" (FYOW 8.1).
pub const DECISION_MARGIN: u8 = 3;

/// One Command Decision (FYOW 8.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub question: String,
    /// The D10 must score less than this.
    pub target: u8,
    pub face: u8,
    pub success: bool,
}

/// The Command Decisions of one activation of a General, Senior Command or
/// BC: at most 5, never the same (or a similar) question twice (FYOW 8);
/// a failed question waits for the next activation (8.2), which is a new
/// `Activation`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Activation {
    asked: Vec<String>,
}

impl Activation {
    pub fn new() -> Self {
        Self::default()
    }

    /// Questions asked so far in this activation.
    pub fn asked(&self) -> &[String] {
        &self.asked
    }

    /// FYOW 8.1: a D10 (0 counts 10) must score less than rating + 3; the
    /// "Obvious" rule (8.3) gives +1.
    ///
    /// `question` is the key of the question: the caller gives similar
    /// questions the same key.
    ///
    /// Reading (FYOW 8.3): "modify the above throw by +1" helps the
    /// commander, so the +1 is added to the target he must score under
    /// (adding it to the D10 would make an obvious decision harder).
    pub fn decide(
        &mut self,
        competency: Competency,
        question: &str,
        obvious: bool,
        dice: &mut impl Roll,
        name: &str,
    ) -> Result<(Decision, RuleEvent), ArmyError> {
        if self.asked.len() >= MAX_DECISIONS_PER_ACTIVATION {
            return Err(not_allowed("at most 5 decisions in one activation (FYOW 8)"));
        }
        if self.asked.iter().any(|q| q == question) {
            return Err(not_allowed(format!("'{question}' was already asked in this activation (FYOW 8, 8.2)")));
        }
        self.asked.push(question.to_string());
        let target = competency.rating() + DECISION_MARGIN + u8::from(obvious);
        let face = dice.d10();
        let decision = Decision { question: question.to_string(), target, face, success: face < target };
        let event = RuleEvent::new(EventKind::CommandDecision, fyow("8.1 Command Decisions"))
            .actor(name)
            .input("question", question, "")
            .input("rating", competency.rating(), "")
            .input("obvious", obvious, "8.3 the Obvious rule: +1")
            .input("target", target, "the D10 must score less")
            .dice(10, &[face])
            .outcome(json!({ "success": decision.success }));
        Ok((decision, event))
    }
}

/// FYOW 11 "Weightings": the d10 faces given to each option, in the order
/// the options are laid out. With three options the middle one is the most
/// sensible, with less favourable ones either side; with two the first is
/// the preferred.
///
/// - Below Average: two options, 50/50 (three are not offered).
/// - Average: three 20/60/20, or two 60/40.
/// - Above Average: three 10/80/10, or two 70/30.
pub fn vor_weights(competency: Competency, options: usize) -> Result<Vec<u8>, ArmyError> {
    match (competency, options) {
        (Competency::BelowAverage, 2) => Ok(vec![5, 5]),
        (Competency::Average, 2) => Ok(vec![6, 4]),
        (Competency::Average, 3) => Ok(vec![2, 6, 2]),
        (Competency::AboveAverage, 2) => Ok(vec![7, 3]),
        (Competency::AboveAverage, 3) => Ok(vec![1, 8, 1]),
        (c, n) => Err(out_of_range(format!(
            "{n} options for a {c:?} commander (FYOW 11: Below Average 2, Average and Above Average 2 or 3)"
        ))),
    }
}

/// The Variable Order Rule (FYOW 11): a d10 chooses among the options laid
/// out by the player, weighted in tenths. The weights may be the suggested
/// ones of [`vor_weights`] or the player's, adjusted for traits; they must
/// add up to 10. Returns the index of the option chosen.
pub fn variable_order(
    options: &[String],
    weights: &[u8],
    dice: &mut impl Roll,
    name: &str,
) -> Result<(usize, RuleEvent), ArmyError> {
    if options.len() != weights.len() || options.len() < 2 {
        return Err(out_of_range("the VOR needs at least two options, one weight each"));
    }
    if weights.iter().map(|&w| u32::from(w)).sum::<u32>() != 10 {
        return Err(out_of_range(format!("VOR weights {weights:?} must share the 10 faces of the d10")));
    }
    let face = dice.d10();
    let mut upto = 0;
    let chosen = weights
        .iter()
        .position(|&w| {
            upto += w;
            face <= upto
        })
        .expect("weights cover faces 1..=10");
    let event = RuleEvent::new(EventKind::CommandDecision, fyow("11 The Variable Order Rule"))
        .actor(name)
        .input("options", options, "laid out by the player")
        .input("weights", weights, "tenths of the d10, in option order")
        .dice(10, &[face])
        .outcome(json!({ "chosen": options[chosen] }));
    Ok((chosen, event))
}

/// FYOW 7.1 (optional): the 2D6 throws made on the first day of a month,
/// each succeeding on a double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MonthlyThrow {
    /// A commander under review improves his competency by 1 step.
    Experience,
    /// A Regular unit is classed as Veteran.
    Veteran,
    /// A 2iC under review is promoted to BC.
    Promotion,
}

/// FYOW 7.1 (optional): throw 2D6 for `subject`; a double succeeds.
pub fn monthly_throw(kind: MonthlyThrow, dice: &mut impl Roll, subject: &str) -> (bool, RuleEvent) {
    let faces = dice.throw(2, 6);
    let double = faces[0] == faces[1];
    let event = RuleEvent::new(EventKind::CommandDecision, fyow("7.1 Changing Commanders, promotions and experience"))
        .actor(subject)
        .input("throw", kind, "optional rule, first day of the month")
        .dice(6, &faces)
        .outcome(json!({ "double": double }));
    (double, event)
}

/// FYOW 7.1 (optional): the new commanders the army may create on `date`:
/// 1 Senior Command on the first day of a season, 1 BC and 1 2iC on the
/// first day of a month. Reserve commanders are returned to duty on the
/// same days.
pub fn new_commanders_allowed(date: &CampaignDate) -> Vec<(CommanderRole, u8)> {
    let mut allowed = Vec::new();
    if date.is_first_day_of_season() {
        allowed.push((CommanderRole::SeniorCommander, 1));
    }
    if date.is_first_day_of_month() {
        allowed.push((CommanderRole::BattlegroupCommander, 1));
        allowed.push((CommanderRole::SecondInCommand, 1));
    }
    allowed
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;
    use crate::army::calendar::Month;

    #[test]
    fn competency_throw_and_modifier() {
        let rate = |role, elite, face| rate_commander(role, elite, &mut Scripted::new([face]), "x").0;
        assert_eq!(rate(CommanderRole::BattlegroupCommander, false, 1), Competency::BelowAverage);
        assert_eq!(rate(CommanderRole::BattlegroupCommander, false, 5), Competency::Average);
        assert_eq!(rate(CommanderRole::BattlegroupCommander, false, 6), Competency::AboveAverage);
        assert_eq!(rate(CommanderRole::General, false, 1), Competency::Average, "+1 lifts a 1");
        assert_eq!(rate(CommanderRole::SeniorCommander, false, 5), Competency::AboveAverage);
        assert_eq!(rate(CommanderRole::BattlegroupCommander, true, 5), Competency::AboveAverage);
        assert_eq!(rate(CommanderRole::SecondInCommand, true, 5), Competency::Average);
        assert_eq!(rate(CommanderRole::General, false, 6), Competency::AboveAverage);
        assert_eq!(Competency::AboveAverage.rating(), 7);
    }

    #[test]
    fn british_senior_commander_is_rated_then_throws_2davg_for_traits() {
        // The photo caption of FYOW 7: rated with a D6, then 2Davg for traits.
        let mut dice = Scripted::new([5, 6, 1]);
        let (c, _) = rate_commander(CommanderRole::SeniorCommander, false, &mut dice, "Brigadier");
        assert_eq!(c, Competency::AboveAverage, "5 + 1");
        let (t, event) = Traits::thrown(false, &mut dice, "Brigadier");
        assert_eq!(t, Traits { aggression: Aggression::Aggressive, decisiveness: Decisiveness::Hesitant });
        assert_eq!(event.inputs.iter().find(|i| i.name == "red_davg").unwrap().value, 5);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn elite_units_add_one_to_each_trait_throw() {
        // davg faces: d6 1 -> 2, d6 3 -> 3.
        let (t, _) = Traits::thrown(true, &mut Scripted::new([1, 5]), "x");
        assert_eq!(t.aggression, Aggression::Balanced, "2 + 1");
        assert_eq!(t.decisiveness, Decisiveness::Decisive, "4 + 1");
        let (t, _) = Traits::thrown(false, &mut Scripted::new([1, 6]), "x");
        assert_eq!(t, Traits { aggression: Aggression::Passive, decisiveness: Decisiveness::Decisive });
    }

    #[test]
    fn decision_examples_use_the_right_matrix() {
        // "A BC who is Decisive but Passive uses the top left hand matrix."
        let bc = Traits { aggression: Aggression::Passive, decisiveness: Decisiveness::Decisive };
        assert_eq!(bc.yes_up_to(), 4);
        assert!(bc.answer("attack?", &mut Scripted::new([4]), "BC").0);
        assert!(!bc.answer("attack?", &mut Scripted::new([5]), "BC").0);
        // "A Senior Command who is Aggressive but Balanced regarding
        // decisiveness uses the middle-right matrix."
        let sc = Traits { aggression: Aggression::Aggressive, decisiveness: Decisiveness::Balanced };
        assert_eq!(sc.yes_up_to(), 5);
        assert!(!sc.answer("q", &mut Scripted::new([6]), "SC").0);
    }

    #[test]
    fn trait_matrix_corners() {
        let t = |aggression, decisiveness| Traits { aggression, decisiveness }.yes_up_to();
        assert_eq!(t(Aggression::Aggressive, Decisiveness::Decisive), 6, "Yes = 123456, No n/a");
        assert_eq!(t(Aggression::Passive, Decisiveness::Hesitant), 2);
        assert_eq!(t(Aggression::Balanced, Decisiveness::Balanced), 4);
        assert_eq!(t(Aggression::Aggressive, Decisiveness::Hesitant), 4);
        assert_eq!(t(Aggression::Passive, Decisiveness::Balanced), 3);
        assert_eq!(t(Aggression::Balanced, Decisiveness::Hesitant), 3);
    }

    #[test]
    fn command_decision_needs_less_than_rating_plus_three() {
        let mut a = Activation::new();
        let (d, event) =
            a.decide(Competency::Average, "create fraction", false, &mut Scripted::new([8]), "BC").unwrap();
        assert_eq!(d.target, 9);
        assert!(d.success, "8 < 9");
        assert_eq!(event.kind, EventKind::CommandDecision);
        let (d, _) = a.decide(Competency::Average, "merge", false, &mut Scripted::new([9]), "BC").unwrap();
        assert!(!d.success, "9 is not less than 9");
        let (d, _) = a.decide(Competency::BelowAverage, "q3", false, &mut Scripted::new([10]), "BC").unwrap();
        assert!(!d.success, "a 0 counts as 10");
    }

    #[test]
    fn the_obvious_rule_adds_one_to_the_target() {
        let mut a = Activation::new();
        let (d, _) = a.decide(Competency::Average, "q", true, &mut Scripted::new([9]), "BC").unwrap();
        assert_eq!(d.target, 10);
        assert!(d.success);
        let (d, _) =
            Activation::new().decide(Competency::AboveAverage, "q", true, &mut Scripted::new([10]), "x").unwrap();
        assert!(d.success, "Above Average and obvious: a 0 (10) is under 11");
    }

    #[test]
    fn at_most_five_decisions_and_no_repeats() {
        let mut a = Activation::new();
        let mut dice = Scripted::new([9, 1, 1, 1, 1]);
        let (d, _) = a.decide(Competency::Average, "q0", false, &mut dice, "BC").unwrap();
        assert!(!d.success);
        assert!(a.decide(Competency::Average, "q0", false, &mut dice, "BC").is_err(), "8.2: not again this activation");
        for q in ["q1", "q2", "q3", "q4"] {
            a.decide(Competency::Average, q, false, &mut dice, "BC").unwrap();
        }
        assert!(a.decide(Competency::Average, "q5", false, &mut dice, "BC").is_err(), "a sixth decision");
        assert_eq!(a.asked().len(), 5);
        assert_eq!(dice.remaining(), 0, "refused decisions throw no dice");
        let mut next = Activation::new();
        assert!(next.decide(Competency::Average, "q0", false, &mut Scripted::new([2]), "BC").unwrap().0.success);
    }

    #[test]
    fn vor_weightings_by_competency() {
        assert_eq!(vor_weights(Competency::BelowAverage, 2).unwrap(), [5, 5]);
        assert_eq!(vor_weights(Competency::Average, 3).unwrap(), [2, 6, 2]);
        assert_eq!(vor_weights(Competency::Average, 2).unwrap(), [6, 4]);
        assert_eq!(vor_weights(Competency::AboveAverage, 3).unwrap(), [1, 8, 1]);
        assert_eq!(vor_weights(Competency::AboveAverage, 2).unwrap(), [7, 3]);
        assert!(vor_weights(Competency::BelowAverage, 3).is_err());
        assert!(vor_weights(Competency::Average, 4).is_err());
    }

    #[test]
    fn vor_chooses_by_the_d10() {
        let opts: Vec<String> = ["over-aggressive", "sensible", "foolhardy"].map(String::from).to_vec();
        let w = vor_weights(Competency::Average, 3).unwrap();
        let pick = |face| variable_order(&opts, &w, &mut Scripted::new([face]), "Gen").unwrap().0;
        assert_eq!(pick(2), 0);
        assert_eq!(pick(3), 1);
        assert_eq!(pick(8), 1);
        assert_eq!(pick(9), 2);
        assert_eq!(pick(10), 2, "a 0 counts as 10");
        let w = vor_weights(Competency::AboveAverage, 3).unwrap();
        assert_eq!(variable_order(&opts, &w, &mut Scripted::new([1]), "Gen").unwrap().0, 0);
        assert_eq!(variable_order(&opts, &w, &mut Scripted::new([9]), "Gen").unwrap().0, 1);
    }

    #[test]
    fn vor_rejects_bad_weights() {
        let opts: Vec<String> = ["a", "b"].map(String::from).to_vec();
        assert!(variable_order(&opts, &[6, 3], &mut Scripted::new([]), "x").is_err());
        assert!(variable_order(&opts, &[10], &mut Scripted::new([]), "x").is_err());
        assert!(variable_order(&opts[..1], &[10], &mut Scripted::new([]), "x").is_err());
    }

    #[test]
    fn monthly_throws_succeed_on_a_double() {
        assert!(monthly_throw(MonthlyThrow::Experience, &mut Scripted::new([3, 3]), "BC").0);
        assert!(!monthly_throw(MonthlyThrow::Promotion, &mut Scripted::new([3, 4]), "2iC").0);
        assert_eq!(Competency::BelowAverage.improved(), Competency::Average);
        assert_eq!(Competency::AboveAverage.improved(), Competency::AboveAverage);
    }

    #[test]
    fn new_commanders_come_on_the_first_day_of_a_season_or_month() {
        let d = |m, day| CampaignDate::new(1944, m, day, 1).unwrap();
        assert_eq!(new_commanders_allowed(&d(Month::June, 1)).len(), 3);
        let july = new_commanders_allowed(&d(Month::July, 1));
        assert_eq!(july, [(CommanderRole::BattlegroupCommander, 1), (CommanderRole::SecondInCommand, 1)]);
        assert!(new_commanders_allowed(&d(Month::June, 2)).is_empty());
    }
}
