//! Concealed elements (*Fight Your Own Battles*, "Concealed elements"; *Heroes
//! All*, "Snipers" and the 2020 addendum "Blinds"): what may be concealed, the
//! 5+ concealment test, placement options and dummy markers, what a concealed
//! element cannot do without revealing itself, and getting out of concealment.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::command::{Activity, OpensFire};
use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::firing::FireTarget;
use crate::officer::{CommandGrade, Officer, Rank, leadership_test};

/// FYOB "How to conceal an element": "a score of 5+ is required to conceal them".
pub const CONCEAL_ON: u8 = 5;

/// FYOB "How to conceal an element": "+1 for an Above Average Senior Officer,
/// −1 for a Below Average Senior Officer"; an Average one does not modify.
const SENIOR_OFFICER_MODIFIER: [(CommandGrade, i8); 3] =
    [(CommandGrade::BelowAverage, -1), (CommandGrade::Average, 0), (CommandGrade::AboveAverage, 1)];

/// FYOB "What can be concealed": "artillery not exceeding 75mm in calibre".
pub const MAX_CONCEALED_CALIBRE_MM: u16 = 75;

/// *Heroes All* addendum "Blinds": "up to 3 markers" for each concealed element,
/// one of which is the real element.
pub const MAX_DUMMY_MARKERS: u8 = 3;

/// FYOB "Placement options": "2 or more places on the table".
pub const MIN_PLACEMENT_OPTIONS: u8 = 2;

/// Why an element cannot be concealed, or a concealment step is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConcealError {
    /// "Only infantry, CSW's, artillery not exceeding 75mm in calibre can be concealed."
    NotConcealable(FireTarget),
    /// Artillery above 75mm (or artillery whose calibre was not given).
    CalibreTooLarge(Option<u16>),
    /// "An element cannot be considered 'concealed' if it is in a pillbox,
    /// casement or other such obvious defensive position."
    ObviousDefensivePosition,
    /// Only the Senior Officer nominates and conceals elements.
    NotASeniorOfficer,
    /// Placement options need 2 or more places; dummy markers 2 or 3 counters.
    MarkerCount(u8),
    UnknownCounter(u8),
    /// The counter named is not the real element (dummy-marker mode fixes it).
    NotTheRealElement(u8),
    /// The element has already been revealed.
    Revealed,
}

impl fmt::Display for ConcealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotConcealable(k) => {
                write!(f, "a {k:?} cannot be concealed: only infantry, CSWs and artillery up to 75mm")
            }
            Self::CalibreTooLarge(c) => {
                write!(f, "artillery of {c:?}mm cannot be concealed: 75mm at most")
            }
            Self::ObviousDefensivePosition => {
                write!(f, "an element in a pillbox, casemate or obvious defensive position cannot be concealed")
            }
            Self::NotASeniorOfficer => write!(f, "the Senior Officer nominates concealed elements"),
            Self::MarkerCount(n) => write!(f, "{n} counters: placement options need 2 or more, dummy markers 2 or 3"),
            Self::UnknownCounter(c) => write!(f, "counter {c} is not on the table"),
            Self::NotTheRealElement(c) => write!(f, "counter {c} is a dummy"),
            Self::Revealed => write!(f, "the element is already revealed"),
        }
    }
}

impl std::error::Error for ConcealError {}

/// An element the Senior Officer nominates for concealment at the start of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    pub kind: FireTarget,
    /// Calibre of an artillery piece.
    pub calibre_mm: Option<u16>,
    /// *Heroes All* "Snipers": "automatically start the game as concealed".
    pub sniper: bool,
    /// In a pillbox, casemate or other obvious defensive position.
    pub obvious_defensive_position: bool,
}

/// Whether the element may be concealed at all (FYOB "What can be concealed").
pub fn may_be_concealed(c: &Candidate) -> Result<(), ConcealError> {
    if c.obvious_defensive_position {
        return Err(ConcealError::ObviousDefensivePosition);
    }
    match c.kind {
        FireTarget::Infantry | FireTarget::Csw => Ok(()),
        FireTarget::Artillery => match c.calibre_mm {
            Some(mm) if mm <= MAX_CONCEALED_CALIBRE_MM => Ok(()),
            other => Err(ConcealError::CalibreTooLarge(other)),
        },
        other => Err(ConcealError::NotConcealable(other)),
    }
}

/// The Senior Officer's concealment test for one nominated element (FYOB "How
/// to conceal an element"): a D6, modified by his grade, 5+ conceals. A sniper
/// is concealed without a throw (*Heroes All* "Snipers").
pub fn concealment_test(
    senior_officer: Officer,
    c: &Candidate,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(bool, RuleEvent), ConcealError> {
    if senior_officer.rank() != Rank::SeniorOfficer {
        return Err(ConcealError::NotASeniorOfficer);
    }
    may_be_concealed(c)?;
    let grade = senior_officer.command_grade().expect("a Senior Officer has a command grade");
    let modifier = SENIOR_OFFICER_MODIFIER.iter().find(|(g, _)| *g == grade).map_or(0, |r| r.1);
    let face = (!c.sniper).then(|| dice.d6());
    let concealed = face.is_none_or(|f| f as i8 + modifier >= CONCEAL_ON as i8);
    let event =
        RuleEvent::new(EventKind::Concealment, RuleRef::new(Book::FightYourOwnBattles, "How to conceal an element"))
            .actor(id)
            .input("senior_officer", grade, "+1 Above Average, -1 Below Average")
            .input("modifier", modifier, "")
            .input("sniper", c.sniper, "snipers start the game concealed (Heroes All, Snipers)")
            .dice(6, face.as_slice())
            .outcome(json!({ "concealed": concealed, "needed": CONCEAL_ON }));
    Ok((concealed, event))
}

/// How a concealed element's possible positions are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MarkerRule {
    /// FYOB "Placement options" (the solo game): 2 or more numbered counters;
    /// which is real is thrown for when one is observed, or declared by the
    /// owner when the element acts.
    PlacementOptions,
    /// *Heroes All* addendum "Blinds" (2020): up to 3 markers, the real one
    /// named when they are placed.
    DummyMarkers,
}

/// What a concealed element is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConcealedActivity {
    Observe,
    Fire,
    Move,
    /// The Act that extracts it from the concealed position.
    Extract,
    /// Any other Act (netting a radio, engineering work …).
    OtherAct,
}

/// What an observation of one counter found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Spotted {
    /// A dummy: removed; "the real counter does not have to be revealed".
    Dummy,
    /// The real element: revealed, its other counters removed.
    Real,
}

/// A concealed element and its counters on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Concealed {
    id: String,
    rule: MarkerRule,
    /// Counter numbers still on the table.
    counters: Vec<u8>,
    /// The real counter where it is fixed (dummy markers, or a single place).
    real: Option<u8>,
    sniper: bool,
    /// Where the element was revealed; `None` while concealed.
    revealed_at: Option<u8>,
}

impl Concealed {
    /// Concealed where it stands, without placement options ("This option
    /// does not have to be exercised"): one counter, number 1.
    pub fn in_place(id: &str, sniper: bool) -> Self {
        Self {
            id: id.to_owned(),
            rule: MarkerRule::PlacementOptions,
            counters: vec![1],
            real: Some(1),
            sniper,
            revealed_at: None,
        }
    }

    /// FYOB "Placement options": `places` numbered counters (1..=places), 2 or more.
    pub fn placement_options(id: &str, places: u8, sniper: bool) -> Result<Self, ConcealError> {
        if places < MIN_PLACEMENT_OPTIONS {
            return Err(ConcealError::MarkerCount(places));
        }
        Ok(Self {
            id: id.to_owned(),
            rule: MarkerRule::PlacementOptions,
            counters: (1..=places).collect(),
            real: None,
            sniper,
            revealed_at: None,
        })
    }

    /// *Heroes All* addendum "Blinds": `markers` counters (2 or 3) of which
    /// `real` is the element.
    pub fn dummy_markers(id: &str, markers: u8, real: u8, sniper: bool) -> Result<Self, ConcealError> {
        if !(2..=MAX_DUMMY_MARKERS).contains(&markers) {
            return Err(ConcealError::MarkerCount(markers));
        }
        if !(1..=markers).contains(&real) {
            return Err(ConcealError::UnknownCounter(real));
        }
        Ok(Self {
            id: id.to_owned(),
            rule: MarkerRule::DummyMarkers,
            counters: (1..=markers).collect(),
            real: Some(real),
            sniper,
            revealed_at: None,
        })
    }

    /// Counters still on the table.
    pub fn counters(&self) -> &[u8] {
        &self.counters
    }

    /// Still concealed (observers lose 2 segments trying to spot it, *Heroes All* Observation).
    pub fn is_concealed(&self) -> bool {
        self.revealed_at.is_none()
    }

    /// The counter where the element was revealed.
    pub fn revealed_at(&self) -> Option<u8> {
        self.revealed_at
    }

    /// The counter known to be the real element: named when dummy markers
    /// were placed, declared when it acted, or the last one standing.
    pub fn real(&self) -> Option<u8> {
        self.real
    }

    /// An enemy has successfully observed `counter` (FYOB "Placement
    /// options"; addendum "Blinds": "when observed by the enemy, dummy
    /// markers are removed from the table").
    ///
    /// Reading (FYOB: "the player then decides by dice throw whether the
    /// counter represents the actual element or whether it is a dummy"): a
    /// die with one face for each counter still standing, a 1 is the real
    /// element, so each standing counter is equally likely to be it and the
    /// last one standing is real without a throw. In dummy-marker mode the
    /// real counter was named when placed and nothing is thrown.
    pub fn observed(&mut self, counter: u8, dice: &mut impl Roll) -> Result<(Spotted, RuleEvent), ConcealError> {
        self.standing(counter)?;
        let standing = self.counters.len() as u8;
        let (real, faces) = match self.real {
            Some(r) => (r == counter, Vec::new()),
            None => {
                let face = dice.face(standing);
                (face == 1, vec![face])
            }
        };
        let spotted = if real {
            self.reveal(counter);
            Spotted::Real
        } else {
            self.counters.retain(|&c| c != counter);
            if self.counters.len() == 1 {
                self.real = Some(self.counters[0]);
            }
            Spotted::Dummy
        };
        let event =
            RuleEvent::new(EventKind::Concealment, RuleRef::new(Book::FightYourOwnBattles, "Placement options"))
                .actor(&self.id)
                .input("counter", counter, "observed by the enemy")
                .input(
                    "standing",
                    standing,
                    "counters still on the table; a die of that many faces, 1 is the real element",
                )
                .input("rule", self.rule, "")
                .dice(standing, &faces)
                .outcome(json!({ "spotted": spotted, "counters_left": self.counters }));
        Ok((spotted, event))
    }

    /// The element is activated to do `what`, from the counter its owner
    /// declares real (FYOB: "must be declared as real or dummy if activated
    /// to move, observe or fire"). Returns whether this reveals it. The
    /// counter declared stays the real one: an observation of another
    /// counter then finds a dummy without a throw.
    ///
    /// FYOB "Concealed element activity": it "may not observe, fire or move
    /// without revealing its position"; extracting itself leaves the
    /// concealed position, so that reveals it too. Other Acts do not reveal
    /// it under FYOB, but do under the addendum ("Elements have to be
    /// revealed in order to act, move or fire"). A sniper firing stays
    /// concealed (*Heroes All*: "Snipers do not need to take any tests after
    /// firing to see if they have revealed their location").
    pub fn act(&mut self, what: ConcealedActivity, declared: u8) -> Result<bool, ConcealError> {
        self.standing(declared)?;
        if self.real.is_some_and(|r| r != declared) {
            return Err(ConcealError::NotTheRealElement(declared));
        }
        self.real = Some(declared);
        let reveals = match what {
            ConcealedActivity::Fire if self.sniper => false,
            ConcealedActivity::Observe
            | ConcealedActivity::Fire
            | ConcealedActivity::Move
            | ConcealedActivity::Extract => true,
            ConcealedActivity::OtherAct => self.rule == MarkerRule::DummyMarkers,
        };
        if reveals {
            self.reveal(declared);
        }
        Ok(reveals)
    }

    fn standing(&self, counter: u8) -> Result<(), ConcealError> {
        if !self.is_concealed() {
            return Err(ConcealError::Revealed);
        }
        if self.counters.contains(&counter) { Ok(()) } else { Err(ConcealError::UnknownCounter(counter)) }
    }

    /// "When the real element is revealed, any other dummy markers
    /// representing it are also removed."
    fn reveal(&mut self, at: u8) {
        self.counters = vec![at];
        self.real = Some(at);
        self.revealed_at = Some(at);
    }
}

/// How the element's first move out of concealment goes (FYOB "Placement options").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstMove {
    /// Pips taken off each Movement Die.
    pub pips_off_each_die: u8,
    pub at_the_double: bool,
}

/// FYOB: "A concealed element uses an Act to extract itself from a concealed
/// position. If an Act is not used, the Movement Dice throw is reduced by 1
/// pip per dice on the bound that it first moves. It may not move 'At the
/// Double' immediately." Reading: "immediately" is the bound it first moves
/// either way (with the Act spent, the Order Dice rules already forbid the
/// double, which leaves no Act).
pub fn first_move_out(extracted_with_act: bool) -> FirstMove {
    FirstMove { pips_off_each_die: u8::from(!extracted_with_act), at_the_double: false }
}

/// Whether a concealed element opens fire on approaching enemy: FYOB "Officer
/// decisions" (i), a Leadership Test of its NCO.
///
/// Reading (FYOB "Using the Leadership Test to decide between 2 courses of
/// action": a pass takes the likelier course): the likelier course is the
/// one its orders point to. Under orders that let it open fire freely a pass
/// fires; under orders to occupy a concealed position or to recce without
/// initiating combat a pass holds fire; on Overwatch it may not fire at all
/// and no test is taken. Firing reveals it (see [`Concealed::act`]).
pub fn opens_fire(nco: Officer, orders: Activity, dice: &mut impl Roll, id: &str) -> (bool, Option<RuleEvent>) {
    let likely = match orders.conduct().opens_fire {
        OpensFire::Never => return (false, None),
        OpensFire::Freely => true,
        OpensFire::OnlyInReply | OpensFire::OnLeadershipTest => false,
    };
    let (test, mut event) = leadership_test(nco, dice, id);
    let fires = test.passed == likely;
    event.rule = RuleRef::new(Book::FightYourOwnBattles, "Officer decisions");
    let event = event.input("orders", orders, "a pass takes the course the orders point to").input("fires", fires, "");
    (fires, Some(event))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};
    use crate::officer::Grade;

    fn so(g: Grade) -> Officer {
        Officer::new(Rank::SeniorOfficer, g).unwrap()
    }

    fn infantry() -> Candidate {
        Candidate { kind: FireTarget::Infantry, calibre_mm: None, sniper: false, obvious_defensive_position: false }
    }

    #[test]
    fn only_infantry_csws_and_light_artillery_out_of_obvious_positions() {
        assert!(may_be_concealed(&infantry()).is_ok());
        assert!(may_be_concealed(&Candidate { kind: FireTarget::Csw, ..infantry() }).is_ok());
        let gun = |mm| Candidate { kind: FireTarget::Artillery, calibre_mm: mm, ..infantry() };
        assert!(may_be_concealed(&gun(Some(75))).is_ok());
        assert_eq!(may_be_concealed(&gun(Some(76))), Err(ConcealError::CalibreTooLarge(Some(76))));
        assert_eq!(may_be_concealed(&gun(None)), Err(ConcealError::CalibreTooLarge(None)));
        for k in [FireTarget::Afv, FireTarget::SoftSkin] {
            assert_eq!(may_be_concealed(&Candidate { kind: k, ..infantry() }), Err(ConcealError::NotConcealable(k)));
        }
        let pillbox = Candidate { obvious_defensive_position: true, ..infantry() };
        assert_eq!(may_be_concealed(&pillbox), Err(ConcealError::ObviousDefensivePosition));
    }

    #[test]
    fn five_plus_conceals_moved_by_the_senior_officer_grade() {
        let test = |g, face| concealment_test(so(g), &infantry(), &mut Scripted::new([face]), "1 Pl").unwrap().0;
        assert!(!test(Grade::Average, 4) && test(Grade::Average, 5));
        assert!(test(Grade::AboveAverage, 4) && !test(Grade::AboveAverage, 3));
        assert!(!test(Grade::BelowAverage, 5) && test(Grade::BelowAverage, 6));
        let co = Officer::new(Rank::CompanyOfficer, Grade::Regular).unwrap();
        assert_eq!(
            concealment_test(co, &infantry(), &mut Scripted::new([6]), "x"),
            Err(ConcealError::NotASeniorOfficer)
        );
        let tank = Candidate { kind: FireTarget::Afv, ..infantry() };
        assert!(concealment_test(so(Grade::AboveAverage), &tank, &mut Scripted::new([6]), "x").is_err());
    }

    #[test]
    fn concealment_odds_by_grade_match_a_seeded_sample() {
        // 5+ on a D6: 2/6 for an Average SO, 3/6 Above Average, 1/6 Below Average.
        let mut dice = Dice::new(21);
        for (g, want) in
            [(Grade::BelowAverage, 1.0 / 6.0), (Grade::Average, 2.0 / 6.0), (Grade::AboveAverage, 3.0 / 6.0)]
        {
            let n = 12_000;
            let hits = (0..n).filter(|_| concealment_test(so(g), &infantry(), &mut dice, "x").unwrap().0).count();
            assert!((hits as f64 / n as f64 - want).abs() < 0.015, "{g:?}");
        }
    }

    #[test]
    fn snipers_are_concealed_without_a_throw() {
        let sniper = Candidate { sniper: true, ..infantry() };
        let (ok, e) = concealment_test(so(Grade::BelowAverage), &sniper, &mut Scripted::new([]), "sniper").unwrap();
        assert!(ok && e.dice.is_empty());
    }

    #[test]
    fn reading_an_observed_placement_option_is_real_on_a_one_of_as_many_faces_as_counters() {
        let mut c = Concealed::placement_options("1 Pl", 3, false).unwrap();
        // Counter 2 observed: a D3-sized throw (3 faces) shows 2 → a dummy, removed.
        let (s, e) = c.observed(2, &mut Scripted::new([2])).unwrap();
        assert_eq!(s, Spotted::Dummy);
        assert_eq!((e.dice[0].sides, c.counters()), (3, &[1u8, 3][..]));
        assert!(c.is_concealed(), "the real counter does not have to be revealed");
        // Counter 3 observed: 2 faces, a 1 → real; the other counter goes.
        let (s, _) = c.observed(3, &mut Scripted::new([1])).unwrap();
        assert_eq!(s, Spotted::Real);
        assert_eq!((c.counters(), c.revealed_at()), (&[3u8][..], Some(3)));
        assert_eq!(c.observed(3, &mut Scripted::new([])), Err(ConcealError::Revealed));
    }

    #[test]
    fn the_last_placement_option_standing_is_real_without_a_throw() {
        let mut c = Concealed::placement_options("mg", 2, false).unwrap();
        c.observed(1, &mut Scripted::new([2])).unwrap();
        let (s, e) = c.observed(2, &mut Scripted::new([])).unwrap();
        assert_eq!(s, Spotted::Real);
        assert!(e.dice.is_empty());
        assert_eq!(Concealed::placement_options("x", 1, false), Err(ConcealError::MarkerCount(1)));
    }

    #[test]
    fn each_placement_option_is_equally_likely_to_be_real_for_every_seed() {
        let mut real_at = [0u32; 4];
        for seed in 0..4000 {
            let mut dice = Dice::new(seed);
            let mut c = Concealed::placement_options("x", 4, false).unwrap();
            // Observe counters in order 1, 2, 3, 4 until the real one turns up.
            for k in 1..=4 {
                if c.observed(k, &mut dice).unwrap().0 == Spotted::Real {
                    real_at[usize::from(k) - 1] += 1;
                    break;
                }
            }
            assert!(!c.is_concealed(), "observing every counter always finds the element");
        }
        assert!(real_at.iter().all(|&n| (900..1100).contains(&n)), "{real_at:?}");
    }

    #[test]
    fn addendum_dummy_markers_up_to_three_with_the_real_one_named() {
        assert_eq!(Concealed::dummy_markers("x", 4, 1, false), Err(ConcealError::MarkerCount(4)));
        assert_eq!(Concealed::dummy_markers("x", 3, 4, false), Err(ConcealError::UnknownCounter(4)));
        let mut c = Concealed::dummy_markers("A9 crew", 3, 2, false).unwrap();
        assert_eq!(c.observed(1, &mut Scripted::new([])).unwrap().0, Spotted::Dummy);
        assert_eq!(c.observed(2, &mut Scripted::new([])).unwrap().0, Spotted::Real);
        assert_eq!(c.counters(), &[2], "dummies removed when the real element is revealed");
    }

    #[test]
    fn observing_firing_or_moving_reveals_and_removes_the_dummies() {
        for what in
            [ConcealedActivity::Observe, ConcealedActivity::Fire, ConcealedActivity::Move, ConcealedActivity::Extract]
        {
            let mut c = Concealed::placement_options("x", 3, false).unwrap();
            assert!(c.act(what, 3).unwrap(), "{what:?}");
            assert_eq!((c.counters(), c.is_concealed()), (&[3u8][..], false));
        }
        let mut c = Concealed::placement_options("x", 3, false).unwrap();
        assert!(!c.act(ConcealedActivity::OtherAct, 1).unwrap(), "FYOB: other acts keep it concealed");
        assert_eq!((c.counters().len(), c.real()), (3, Some(1)), "declared real where it acted");
        let (s, e) = c.observed(2, &mut Scripted::new([])).unwrap();
        assert!(s == Spotted::Dummy && e.dice.is_empty(), "another counter is a dummy without a throw");
        let mut d = Concealed::dummy_markers("x", 3, 1, false).unwrap();
        assert_eq!(d.act(ConcealedActivity::Move, 2), Err(ConcealError::NotTheRealElement(2)));
        assert!(d.act(ConcealedActivity::OtherAct, 1).unwrap(), "addendum: must be revealed to act");
    }

    #[test]
    fn a_sniper_fires_without_revealing_but_moving_reveals_him() {
        let mut s = Concealed::in_place("sniper", true);
        assert!(!s.act(ConcealedActivity::Fire, 1).unwrap());
        assert!(s.is_concealed());
        assert!(s.act(ConcealedActivity::Move, 1).unwrap());
        assert!(!s.is_concealed());
    }

    #[test]
    fn extraction_act_or_a_pip_off_each_die_and_never_at_the_double() {
        assert_eq!(first_move_out(true), FirstMove { pips_off_each_die: 0, at_the_double: false });
        assert_eq!(first_move_out(false), FirstMove { pips_off_each_die: 1, at_the_double: false });
    }

    #[test]
    fn reading_a_pass_opens_fire_only_where_the_orders_point_to_it() {
        let nco = Officer::new(Rank::Nco, Grade::Regular).unwrap();
        // Regular: passes below 5.
        let fires = |orders, face| opens_fire(nco, orders, &mut Scripted::new([face]), "x").0;
        assert!(fires(Activity::Hold, 4) && !fires(Activity::Hold, 5));
        assert!(!fires(Activity::ConcealedPosition, 4) && fires(Activity::ConcealedPosition, 5));
        assert!(!fires(Activity::RecceAndReport, 1));
        let (f, e) = opens_fire(nco, Activity::Overwatch, &mut Scripted::new([]), "x");
        assert!(!f && e.is_none(), "on Overwatch it may not fire at all");
    }
}
