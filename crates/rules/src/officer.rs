//! NCOs and Officers (*Fight Your Own Battles*, "Rating NCOs and Officers",
//! "Leadership Tests", "NCO is a casualty", "Company Officer as a casualty"):
//! troop quality, officer grades and ratings, the Leadership Test, and the
//! casualty checks that find whether a man lost was the NCO or the CO.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};

/// Troop quality as the Continuous Momentum charts name their columns
/// (FYOB "Momentum Test Chart": Poor, Regular, Elite). Green troops are Poor,
/// veterans Elite; *Heroes All* treats "elite/veteran" and
/// "Poor/Green/Militia" together wherever an observation, firing or assault
/// modifier applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Quality {
    /// Poor, green or militia.
    Poor,
    #[default]
    Regular,
    /// Elite or veteran.
    Elite,
}

/// What the NCO/CO rating throw is modified by (FYOB "Rating NCOs and
/// Officers"): only a *whole* element of Elite (+1) or Poor (−1) troops moves
/// the throw; mixed elements and local resistance or militia are not modified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ElementMakeup {
    Whole(Quality),
    Mixed,
    Militia,
}

impl ElementMakeup {
    /// The modifier to the rating D6.
    pub fn rating_modifier(self) -> i8 {
        match self {
            ElementMakeup::Whole(Quality::Elite) => 1,
            ElementMakeup::Whole(Quality::Poor) => -1,
            ElementMakeup::Whole(Quality::Regular) | ElementMakeup::Mixed | ElementMakeup::Militia => 0,
        }
    }
}

/// The level of command (FYOB "Definitions of each grade of Officer").
/// Brigade and Divisional Officers are not rated and take no tests here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rank {
    /// A platoon, troop, squad, crew or aircraft commander ("Junior Officer").
    Nco,
    /// Commander of a company, squadron, battery; Air and Naval Commands rank here.
    CompanyOfficer,
    /// Battalion or equivalent commander.
    SeniorOfficer,
}

/// An officer's grade with its rating number (FYOB rating tables and the
/// Officer Reaction Test chart, whose rows run 0..=7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Grade {
    Weak,
    Cautious,
    Regular,
    Bold,
    Inspirational,
    BelowAverage,
    Average,
    AboveAverage,
}

impl Grade {
    /// The rating number printed beside the grade ("Regular (2)", "Average (6)").
    pub fn rating(self) -> u8 {
        self as u8
    }
}

/// The three-step scale the rules use for a Company Officer's command
/// (ORT "Below Avge/Average/Above Avge Officer", rallying 1/2/3 D6,
/// "Average/Above Average CO attached" test reductions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CommandGrade {
    BelowAverage,
    Average,
    AboveAverage,
}

/// A rated NCO or Officer; the grade always belongs to the rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Officer {
    rank: Rank,
    grade: Grade,
}

/// Bad input to an officer rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OfficerError {
    /// NCOs and COs are Weak..Inspirational; Senior Officers Below..Above Average.
    GradeNotForRank { rank: Rank, grade: Grade },
    /// A casualty check needs at least one man lost.
    NoCasualties,
}

impl fmt::Display for OfficerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OfficerError::GradeNotForRank { rank, grade } => write!(f, "a {rank:?} cannot be graded {grade:?}"),
            OfficerError::NoCasualties => write!(f, "a casualty check needs at least one man lost"),
        }
    }
}

impl std::error::Error for OfficerError {}

impl Officer {
    pub fn new(rank: Rank, grade: Grade) -> Result<Self, OfficerError> {
        // FYOB "Rating NCOs and Officers": NCOs and COs throw on the Weak..Inspirational
        // table, Senior Officers on the Below average..Above average one.
        //
        // Reading (FYOB rating table against its own test reductions): the table
        // braces Bold and Inspirational as "CO's only", but the test reductions
        // name "a Bold NCO" and "an Inspirational NCO", the ORT's Bold (3) and
        // Inspirational (4) rows are used by NCOs alone (COs command on the
        // Officer rows, see `CommandGrade`), and *Heroes All* rates an NCO who
        // throws 6 as Bold. So NCOs may be Bold or Inspirational.
        let ok = match rank {
            Rank::Nco | Rank::CompanyOfficer => grade <= Grade::Inspirational,
            Rank::SeniorOfficer => grade >= Grade::BelowAverage,
        };
        if ok { Ok(Self { rank, grade }) } else { Err(OfficerError::GradeNotForRank { rank, grade }) }
    }

    pub fn rank(self) -> Rank {
        self.rank
    }

    pub fn grade(self) -> Grade {
        self.grade
    }

    /// The grade on the Officer scale used for command (ORT rows 5–7, rally
    /// throws, CO test reductions).
    ///
    /// Reading (FYOB "Rating NCOs and Officers" against "Officer Reaction
    /// Tests", "Rallying Continuous Momentum scores" and "Test reductions"):
    /// COs are rated Weak..Inspirational, yet those rules name COs by the
    /// Senior Officer grades. The two rating tables have the same bands on the
    /// D6 (low / 2–5 / high), so a Weak or Cautious CO commands as Below
    /// Average, a Regular one as Average, a Bold or Inspirational one as Above
    /// Average. A Senior Officer's grade is already on this scale; an NCO has
    /// no command grade.
    pub fn command_grade(self) -> Option<CommandGrade> {
        match (self.rank, self.grade) {
            (Rank::Nco, _) => None,
            (_, Grade::Weak | Grade::Cautious | Grade::BelowAverage) => Some(CommandGrade::BelowAverage),
            (_, Grade::Regular | Grade::Average) => Some(CommandGrade::Average),
            (_, Grade::Bold | Grade::Inspirational | Grade::AboveAverage) => Some(CommandGrade::AboveAverage),
        }
    }
}

/// FYOB "Rating NCOs and Officers", NCO and CO table: modified D6 → grade.
/// A throw of 0 (a 1 for Poor troops) is Weak, 7 (a 6 for Elite) Inspirational.
const NCO_RATING_TABLE: [(i8, i8, Grade); 5] = [
    (0, 0, Grade::Weak),
    (1, 1, Grade::Cautious),
    (2, 5, Grade::Regular),
    (6, 6, Grade::Bold),
    (7, 7, Grade::Inspirational),
];

/// FYOB "Rating NCOs and Officers", Senior Officer table: unmodified D6 → grade.
const SENIOR_OFFICER_RATING_TABLE: [(i8, i8, Grade); 3] =
    [(1, 1, Grade::BelowAverage), (2, 5, Grade::Average), (6, 6, Grade::AboveAverage)];

fn look_up(table: &[(i8, i8, Grade)], score: i8) -> Grade {
    table
        .iter()
        .find(|(lo, hi, _)| (*lo..=*hi).contains(&score))
        .map(|row| row.2)
        .expect("the rating tables cover every modified D6")
}

/// Rates an NCO or Officer at the start of the game (FYOB "Rating NCOs and
/// Officers"). The makeup modifies NCO and CO throws only; the Senior Officer
/// table has no modifier.
pub fn rate(rank: Rank, makeup: ElementMakeup, dice: &mut impl Roll, id: &str) -> (Officer, RuleEvent) {
    rate_under(rank, makeup, dice, id, "Rating NCOs and Officers")
}

/// Dices for the grade of a replacement NCO when the element's Company
/// Officer is next activated (FYOB "NCO is a casualty": "he will dice for the
/// rank of a replacement NCO"), on the same table as at the start of the game.
pub fn replacement_nco(makeup: ElementMakeup, dice: &mut impl Roll, id: &str) -> (Officer, RuleEvent) {
    rate_under(Rank::Nco, makeup, dice, id, "NCO is a casualty")
}

fn rate_under(
    rank: Rank,
    makeup: ElementMakeup,
    dice: &mut impl Roll,
    id: &str,
    section: &str,
) -> (Officer, RuleEvent) {
    let face = dice.d6();
    let (modifier, table): (i8, &[(i8, i8, Grade)]) = match rank {
        Rank::SeniorOfficer => (0, &SENIOR_OFFICER_RATING_TABLE),
        Rank::Nco | Rank::CompanyOfficer => (makeup.rating_modifier(), &NCO_RATING_TABLE),
    };
    let score = face as i8 + modifier;
    let grade = look_up(table, score);
    let officer = Officer { rank, grade };
    let event = RuleEvent::new(EventKind::Rating, RuleRef::new(Book::FightYourOwnBattles, section))
        .actor(id)
        .input("rank", rank, "")
        .input("modifier", modifier, format!("{makeup:?}"))
        .dice(6, &[face])
        .outcome(json!({ "score": score, "grade": grade, "rating": grade.rating() }));
    (officer, event)
}

/// A Leadership Test's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeadershipTest {
    pub passed: bool,
    /// The D6 thrown; `None` where the officer passes without throwing.
    pub thrown: Option<u8>,
    /// The D6 must score less than this.
    pub below: u8,
}

/// Takes a Leadership Test (FYOB "Leadership Tests" and "Taking a Leadership
/// Test"): an NCO or Company Officer must throw less than his rating + 3 on a
/// D6, a Senior Officer less than his rating; an Above Average Senior Officer
/// (rated 7) passes without throwing. An Inspirational officer (4 + 3 = 7)
/// still throws, as written, and cannot fail.
pub fn leadership_test(officer: Officer, dice: &mut impl Roll, id: &str) -> (LeadershipTest, RuleEvent) {
    let rating = officer.grade.rating();
    let (below, reason) = leadership_target(officer);
    let thrown = (officer.grade != Grade::AboveAverage).then(|| dice.d6());
    let passed = thrown.is_none_or(|face| face < below);
    let event =
        RuleEvent::new(EventKind::LeadershipTest, RuleRef::new(Book::FightYourOwnBattles, "Taking a Leadership Test"))
            .actor(id)
            .input("grade", officer.grade, format!("rating {rating}"))
            .input("below", below, reason)
            .dice(6, thrown.as_slice())
            .outcome(json!({ "passed": passed, "automatic": thrown.is_none() }));
    (LeadershipTest { passed, thrown, below }, event)
}

/// What a Leadership Test's D6 must be less than, and why.
fn leadership_target(officer: Officer) -> (u8, &'static str) {
    let rating = officer.grade.rating();
    match officer.rank {
        Rank::SeniorOfficer => (rating, "Senior Officer: less than his rating"),
        Rank::Nco | Rank::CompanyOfficer => (rating + 3, "less than his rating + 3"),
    }
}

/// The chance `officer` passes a Leadership Test ([`leadership_test`]).
pub fn leadership_chance(officer: Officer) -> f64 {
    if officer.grade == Grade::AboveAverage {
        return 1.0;
    }
    let (below, _) = leadership_target(officer);
    f64::from(below.saturating_sub(1).min(6)) / 6.0
}

/// Who was hit among the men an element lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfficerCasualties {
    pub nco_hit: bool,
    /// `None` when no Company Officer is attached.
    pub co_hit: Option<bool>,
}

/// Checks whether the casualties an element took included its NCO and, when a
/// Company Officer is attached, him (FYOB "NCO is a casualty": a D6 for each
/// man lost, a 1 is the NCO; "Company Officer as a casualty": test twice, for
/// the NCO and then the CO). Reading: each test is the whole set of one D6 per
/// man lost, so with a CO attached 2 × `men_lost` dice are thrown, the NCO's
/// first.
pub fn casualty_check(
    men_lost: u32,
    co_attached: bool,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(OfficerCasualties, RuleEvent), OfficerError> {
    if men_lost == 0 {
        return Err(OfficerError::NoCasualties);
    }
    let nco_faces = dice.throw(men_lost as usize, 6);
    let co_faces = if co_attached { dice.throw(men_lost as usize, 6) } else { Vec::new() };
    let result =
        OfficerCasualties { nco_hit: nco_faces.contains(&1), co_hit: co_attached.then(|| co_faces.contains(&1)) };
    let event =
        RuleEvent::new(EventKind::OfficerCasualty, RuleRef::new(Book::FightYourOwnBattles, "NCO is a casualty"))
            .actor(id)
            .input("men_lost", men_lost, "one D6 per man lost; a 1 is the officer")
            .input("co_attached", co_attached, "Company Officer as a casualty: test twice, NCO then CO")
            .dice(6, &nco_faces)
            .dice(6, &co_faces)
            .outcome(result);
    Ok((result, event))
}

/// The officer nominated to succeed a lost Company Officer (FYOB "Company
/// Officer as a casualty": "usually, for obvious reasons, the highest
/// ranked"): the highest rated of `candidates`, the first listed on a tie.
/// He keeps his own rating and OPC.
pub fn successor<'a>(candidates: &'a [(&'a str, Officer)]) -> Option<&'a str> {
    candidates
        .iter()
        .enumerate()
        .max_by_key(|(i, (_, officer))| (officer.grade.rating(), std::cmp::Reverse(*i)))
        .map(|(_, (id, _))| *id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};

    fn nco(grade: Grade) -> Officer {
        Officer::new(Rank::Nco, grade).unwrap()
    }

    #[test]
    fn rating_table_rows_with_quality_modifiers() {
        let cases = [
            (ElementMakeup::Mixed, 1, Grade::Cautious),
            (ElementMakeup::Mixed, 2, Grade::Regular),
            (ElementMakeup::Mixed, 5, Grade::Regular),
            (ElementMakeup::Mixed, 6, Grade::Bold),
            (ElementMakeup::Whole(Quality::Poor), 1, Grade::Weak),
            (ElementMakeup::Whole(Quality::Poor), 6, Grade::Regular),
            (ElementMakeup::Whole(Quality::Elite), 1, Grade::Regular),
            (ElementMakeup::Whole(Quality::Elite), 6, Grade::Inspirational),
            (ElementMakeup::Whole(Quality::Regular), 6, Grade::Bold),
            (ElementMakeup::Militia, 1, Grade::Cautious),
            (ElementMakeup::Militia, 6, Grade::Bold),
        ];
        for (makeup, face, want) in cases {
            let (o, e) = rate(Rank::Nco, makeup, &mut Scripted::new([face]), "1/A");
            assert_eq!(o.grade(), want, "{makeup:?} throwing {face}");
            assert_eq!(e.kind, EventKind::Rating);
            assert_eq!(e.dice.len(), 1);
        }
    }

    #[test]
    fn senior_officer_rating_is_unmodified() {
        for (face, want, rating) in
            [(1, Grade::BelowAverage, 5), (2, Grade::Average, 6), (5, Grade::Average, 6), (6, Grade::AboveAverage, 7)]
        {
            let (o, _) =
                rate(Rank::SeniorOfficer, ElementMakeup::Whole(Quality::Elite), &mut Scripted::new([face]), "SO");
            assert_eq!((o.grade(), o.grade().rating()), (want, rating));
        }
    }

    #[test]
    fn book_example_company_officer_bold_on_a_six() {
        // FYOB photo caption: "their Company Officer (centre) is Bold (3) having thrown a 6".
        let (o, _) = rate(Rank::CompanyOfficer, ElementMakeup::Mixed, &mut Scripted::new([6]), "CO");
        assert_eq!((o.grade(), o.grade().rating()), (Grade::Bold, 3));
    }

    #[test]
    fn ratings_stay_on_their_scale_for_every_seed() {
        for seed in 0..300 {
            let mut dice = Dice::new(seed);
            for rank in [Rank::Nco, Rank::CompanyOfficer, Rank::SeniorOfficer] {
                for makeup in
                    [ElementMakeup::Whole(Quality::Poor), ElementMakeup::Whole(Quality::Elite), ElementMakeup::Militia]
                {
                    let (o, _) = rate(rank, makeup, &mut dice, "x");
                    assert_eq!(Officer::new(rank, o.grade()), Ok(o));
                }
            }
        }
    }

    #[test]
    fn grades_outside_their_rank_are_errors() {
        assert_eq!(
            Officer::new(Rank::SeniorOfficer, Grade::Bold),
            Err(OfficerError::GradeNotForRank { rank: Rank::SeniorOfficer, grade: Grade::Bold })
        );
        assert!(Officer::new(Rank::Nco, Grade::Average).is_err());
        assert!(Officer::new(Rank::CompanyOfficer, Grade::AboveAverage).is_err());
    }

    #[test]
    fn reading_ncos_may_be_bold_or_inspirational() {
        assert!(Officer::new(Rank::Nco, Grade::Bold).is_ok());
        assert!(Officer::new(Rank::Nco, Grade::Inspirational).is_ok());
        let (o, _) = rate(Rank::Nco, ElementMakeup::Whole(Quality::Elite), &mut Scripted::new([6]), "n");
        assert_eq!(o.grade(), Grade::Inspirational);
    }

    #[test]
    fn reading_company_officers_command_on_the_officer_scale() {
        let co = |g| Officer::new(Rank::CompanyOfficer, g).unwrap().command_grade();
        assert_eq!(co(Grade::Weak), Some(CommandGrade::BelowAverage));
        assert_eq!(co(Grade::Cautious), Some(CommandGrade::BelowAverage));
        assert_eq!(co(Grade::Regular), Some(CommandGrade::Average));
        assert_eq!(co(Grade::Bold), Some(CommandGrade::AboveAverage));
        assert_eq!(co(Grade::Inspirational), Some(CommandGrade::AboveAverage));
        assert_eq!(nco(Grade::Regular).command_grade(), None);
        let so = Officer::new(Rank::SeniorOfficer, Grade::Average).unwrap();
        assert_eq!(so.command_grade(), Some(CommandGrade::Average));
    }

    #[test]
    fn book_example_regular_company_officer_needs_four_or_less() {
        // FYOB caption: a Regular (2) German CO "needs to throw less than his rating + 3 ...
        // A 4 or less is required but the die shows that he has decided to hold those men back".
        let co = Officer::new(Rank::CompanyOfficer, Grade::Regular).unwrap();
        let (t, e) = leadership_test(co, &mut Scripted::new([4]), "CO");
        assert!(t.passed);
        assert_eq!(t.below, 5);
        assert_eq!(e.kind, EventKind::LeadershipTest);
        let (t, _) = leadership_test(co, &mut Scripted::new([5]), "CO");
        assert!(!t.passed, "a 5 is not less than 2 + 3");
    }

    #[test]
    fn leadership_test_pass_faces_by_grade() {
        // Faces 1..=6 that pass: NCO/CO rating + 3, Senior Officer rating.
        let cases = [
            (nco(Grade::Weak), 2),
            (nco(Grade::Cautious), 3),
            (nco(Grade::Regular), 4),
            (nco(Grade::Bold), 5),
            (nco(Grade::Inspirational), 6),
            (Officer::new(Rank::SeniorOfficer, Grade::BelowAverage).unwrap(), 4),
            (Officer::new(Rank::SeniorOfficer, Grade::Average).unwrap(), 5),
        ];
        for (officer, passes) in cases {
            let n = (1..=6).filter(|&f| leadership_test(officer, &mut Scripted::new([f]), "x").0.passed).count();
            assert_eq!(n, passes, "{officer:?}");
        }
    }

    #[test]
    fn above_average_senior_officer_passes_without_throwing() {
        let so = Officer::new(Rank::SeniorOfficer, Grade::AboveAverage).unwrap();
        let mut dice = Scripted::new([]);
        let (t, e) = leadership_test(so, &mut dice, "SO");
        assert!(t.passed);
        assert_eq!(t.thrown, None);
        assert!(e.dice.is_empty());
    }

    #[test]
    fn casualty_check_a_one_is_the_nco() {
        // FYOB caption: "This German platoon have lost a man - "1" means it's the NCO".
        let (c, e) = casualty_check(1, false, &mut Scripted::new([1]), "G1").unwrap();
        assert_eq!(c, OfficerCasualties { nco_hit: true, co_hit: None });
        assert_eq!(e.dice.len(), 1);
        let (c, _) = casualty_check(3, false, &mut Scripted::new([2, 6, 5]), "G1").unwrap();
        assert!(!c.nco_hit);
    }

    #[test]
    fn casualty_check_with_company_officer_tests_twice_nco_first() {
        let mut dice = Scripted::new([3, 4, 5, 1]);
        let (c, e) = casualty_check(2, true, &mut dice, "B2").unwrap();
        assert_eq!(c, OfficerCasualties { nco_hit: false, co_hit: Some(true) });
        assert_eq!(e.dice.len(), 4);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn casualty_check_needs_a_casualty() {
        assert_eq!(casualty_check(0, true, &mut Scripted::new([]), "x").unwrap_err(), OfficerError::NoCasualties);
    }

    #[test]
    fn replacement_nco_is_diced_on_the_rating_table() {
        let (o, e) = replacement_nco(ElementMakeup::Whole(Quality::Poor), &mut Scripted::new([1]), "G1");
        assert_eq!((o.rank(), o.grade()), (Rank::Nco, Grade::Weak));
        assert_eq!(e.rule.section, "NCO is a casualty");
    }

    #[test]
    fn successor_is_the_highest_rated_first_listed_on_a_tie() {
        let c = [("a", nco(Grade::Regular)), ("b", nco(Grade::Bold)), ("c", nco(Grade::Bold))];
        assert_eq!(successor(&c), Some("b"));
        assert_eq!(successor(&[]), None);
    }

    #[test]
    fn the_chance_of_a_leadership_test_is_the_faces_below_the_target() {
        for grade in [Grade::Cautious, Grade::Regular, Grade::Bold, Grade::Inspirational] {
            let nco = Officer::new(Rank::Nco, grade).unwrap();
            // Every face thrown, counted: the chance is the share that pass.
            let passed = (1..=6u8).filter(|&f| leadership_test(nco, &mut Scripted::new([f]), "n").0.passed).count();
            assert_eq!(leadership_chance(nco), passed as f64 / 6.0, "{grade:?}");
        }
        let above = Officer::new(Rank::SeniorOfficer, Grade::AboveAverage).unwrap();
        assert_eq!(leadership_chance(above), 1.0);
        let average = Officer::new(Rank::SeniorOfficer, Grade::Average).unwrap();
        let passed = (1..=6u8).filter(|&f| leadership_test(average, &mut Scripted::new([f]), "s").0.passed).count();
        assert_eq!(leadership_chance(average), passed as f64 / 6.0);
    }
}
