//! The table-top turn of an element (*Fight Your Own Battles*, "Table-top turn
//! for an element"): when its Order Priority Card comes up, the element takes
//! its Officer Reaction Test, then any Continuous Momentum tests due, then
//! throws the Order Die; at the end its OPC is replaced by an Activity Counter.
//! [`element_turn`] sequences the steps of [`crate::opc`], [`crate::momentum`]
//! and [`crate::order_dice`] and says what the element may now do.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice::Roll;
use crate::event::RuleEvent;
use crate::momentum::{
    self, Accrued, BandEffects, CmBand, CmElement, CmError, CmMovement, CmsEffects, Surroundings, TestConditions,
};
use crate::officer::Officer;
use crate::opc::{self, OrtResult};
use crate::order_dice::{self, Act, ActivityCounter, CheckedTurn, OrderError, Phase, TurnPlan};

/// The element whose card has come up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnElement {
    /// The NCO leading it, who takes the ORT.
    pub nco: Officer,
    /// Its type, quality and the CMS recorded on the Cardsheet.
    pub cm: CmElement,
    /// What reduces its CM tests.
    pub conditions: TestConditions,
    /// Friends and enemy within 12", for a 9+ result.
    pub surroundings: Surroundings,
}

/// What the element does if its ORT Seizes Initiative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OnSeizing {
    /// Swap the OPC with a friendly element yet to act ([`opc::Deal::seize_initiative`]):
    /// the element acts later on that card without a new ORT.
    SwapCard,
    /// "If desired, the NCO Seizing Initiative can simply Act as Ordered."
    ActAsOrdered,
}

/// How the turn went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Course {
    /// ORT No action: "discard OPC. End of turn."
    NoAction,
    /// Seized the initiative and swapped cards: it acts later on the other card.
    SwapsCard,
    /// Passed the ORT but its CMS does not allow offensive action: "he must act
    /// as directed by his CM Score" (stay put or reach cover, retire to the
    /// "box", reach a hidden position, abandon the vehicle). No CM tests, no
    /// Order Die; the OPC is discarded after the directed action.
    DirectedByCms(CmsEffects),
    /// The CM tests leave it unable to continue (7+ failures): it makes the
    /// full move away, goes back to the "box" or surrenders, and discards its OPC.
    CannotContinue { effects: BandEffects, surrenders: bool },
    /// It throws the Order Die and acts within what it is allowed.
    Acts(Orders),
}

/// What an element that throws the Order Die may do this bound: the CMS row
/// it was activated with and the band of its CM tests, both applied.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Orders {
    /// The phase it must take first, if it takes it.
    pub order: Phase,
    pub can_fire: bool,
    pub can_observe: bool,
    pub can_assault: bool,
    /// Deducted from each D6 to hit over open sights (CMS row plus band).
    pub open_sights_penalty: u8,
    /// Segments added to each observation test (CMS row plus band).
    pub observation_segments: u8,
    /// Pips off each movement D6 (band).
    pub movement_pips: u8,
    /// The band's movement restriction (towards cover only when suppressed or pinned).
    pub movement: CmMovement,
    /// The CMS row's movement restriction (an AFV at 4 keeps off open ground).
    pub cms_movement: momentum::CmsMovement,
}

/// One element's turn: every step's outcome and event, in the book's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElementTurn {
    /// `None` when it holds a card taken by seizing the initiative.
    pub ort: Option<OrtResult>,
    pub cm: Option<momentum::CmOutcome>,
    pub course: Course,
    /// The CMS to record on the Cardsheet.
    pub cms_after: u8,
    /// Accrued tests not taken, carried forward to its next activation.
    pub carried_forward: Accrued,
    pub events: Vec<RuleEvent>,
}

/// Bad input to a turn, or a plan the turn does not allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnError {
    Momentum(CmError),
    Order(OrderError),
    /// The element's turn did not reach the Order Dice stage.
    DoesNotAct,
    /// Fire, observe or assault planned where the CMS or the CM tests forbid it.
    Forbidden(&'static str),
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::Momentum(e) => write!(f, "{e}"),
            TurnError::Order(e) => write!(f, "{e}"),
            TurnError::DoesNotAct => write!(f, "the element does not act on the Order Dice this bound"),
            TurnError::Forbidden(what) => write!(f, "the element may not {what} this bound"),
        }
    }
}

impl std::error::Error for TurnError {}

impl From<CmError> for TurnError {
    fn from(e: CmError) -> Self {
        TurnError::Momentum(e)
    }
}

impl From<OrderError> for TurnError {
    fn from(e: OrderError) -> Self {
        TurnError::Order(e)
    }
}

/// Whether a CMS row "allows him to take offensive action" (FYOB "Table-top
/// turn for an element", ORT stage).
///
/// Reading: on every CMS table the rows that let the element fire are the
/// rows where it "is OK and can continue" (possibly with penalties: infantry
/// and AFVs at 4); every other row directs it (stay put or reach cover,
/// retire to the "box", soft-skins at 4 only reach a hidden position, vehicles
/// abandoned). Soft-skins at 5-6 "can continue", so their row counts as
/// offensive though they carry no weapon.
pub fn allows_offensive_action(row: &CmsEffects) -> bool {
    row.can_fire
}

/// Whether a band of CM test results lets the element go on to the Order Dice
/// stage (FYOB "If the element can continue, move to the Order Dice stage").
///
/// Reading: up to 6 failures the element still acts (suppressed or pinned it
/// may observe and move towards cover, so it is not "unable to take action");
/// 7-8 "cannot fire, move or observe" and its full move away is directed, and
/// 9+ surrenders or goes back to the "box": neither can continue.
fn band_continues(band: CmBand) -> bool {
    !matches!(band, CmBand::FallsBack | CmBand::Broken)
}

/// Plays the turn of an element whose OPC has come up.
///
/// `needs_ort` is [`opc::Deal::needs_ort`] (false on a card taken by seizing).
/// `accrued` holds the CM tests accrued this bound plus those carried forward.
/// Steps, in FYOB order: the ORT (No action ends the turn and carries the
/// tests forward: "If the ORT is failed, any accrued Continuous Momentum tests
/// are not taken but carried forward to the next bound"); Seize Initiative
/// with [`OnSeizing::SwapCard`] ends it here too; then the CMS read from the
/// Cardsheet ("When an element is activated by its OPC ... refer to the
/// Cardsheet where the CM score is recorded"); then the CM tests "before any
/// other activity"; then the Order Die.
pub fn element_turn(
    element: &TurnElement,
    needs_ort: bool,
    on_seizing: OnSeizing,
    accrued: &Accrued,
    dice: &mut impl Roll,
    id: &str,
) -> Result<ElementTurn, TurnError> {
    let cms = element.cm.cms;
    let row = momentum::cms_effects(element.cm.element_type, cms)?;
    // Validates the accrued rows before any die is thrown.
    accrued.original(element.cm.element_type, element.cm.quality)?;
    let mut events = Vec::new();
    let ended = |ort, course, events| ElementTurn {
        ort,
        cm: None,
        course,
        cms_after: cms,
        carried_forward: accrued.clone(),
        events,
    };

    let ort = if needs_ort {
        let (result, event) = opc::officer_reaction_test(element.nco, dice, id);
        events.push(event);
        Some(result)
    } else {
        None
    };
    match (ort, on_seizing) {
        (Some(OrtResult::NoAction), _) => return Ok(ended(ort, Course::NoAction, events)),
        (Some(OrtResult::SeizesInitiative), OnSeizing::SwapCard) => {
            return Ok(ended(ort, Course::SwapsCard, events));
        }
        _ => {}
    }

    // Reading (FYOB "Table-top turn for an element": "Pass = if his CMS allows
    // him to take offensive action, he moves on to the CM Tests stage. If not,
    // he must act as directed by his CM Score"): the directed element skips
    // the CM Tests stage, so, as after a failed ORT, its tests are not taken
    // but carried forward ("The CM tests are only taken if the element passes
    // its ORT").
    if !allows_offensive_action(&row) {
        return Ok(ended(ort, Course::DirectedByCms(row), events));
    }

    let cm = if accrued.original(element.cm.element_type, element.cm.quality)? > 0 {
        let (outcome, event) =
            momentum::take_cm_tests(element.cm, accrued, &element.conditions, element.surroundings, dice, id)?;
        events.push(event);
        Some(outcome)
    } else {
        None
    };
    let band = cm.map_or_else(|| momentum::band_for(0), |o| o.effects);
    let cms_after = cm.map_or(cms, |o| o.cms_after);
    let finish =
        |course, events| ElementTurn { ort, cm, course, cms_after, carried_forward: Accrued::default(), events };

    if !band_continues(band.band) {
        let surrenders = cm.is_some_and(|o| o.surrenders);
        return Ok(finish(Course::CannotContinue { effects: band, surrenders }, events));
    }

    let (order, event) = order_dice::throw_order_die(dice, id);
    events.push(event);
    // Reading: the CMS row read at activation and the band of this bound's
    // tests both apply ("Note any restrictions to movement/firing/observation
    // for this bound"), so penalties add and any prohibition holds. An
    // assault is fire and movement towards the enemy: a band that forbids
    // firing forbids it too.
    let orders = Orders {
        order,
        can_fire: row.can_fire && band.can_fire,
        can_observe: row.can_observe && band.can_observe,
        can_assault: row.can_assault && band.can_fire,
        open_sights_penalty: row.open_sights_penalty + band.open_sights_penalty,
        observation_segments: row.observation_segments + band.observation_segments,
        movement_pips: band.movement_pips,
        movement: band.movement,
        cms_movement: row.movement,
    };
    Ok(finish(Course::Acts(orders), events))
}

impl ElementTurn {
    /// Checks what the element plans against its Order Die and what it is
    /// allowed ("Movement, firing and up to 2 actions are now undertaken in
    /// the order given by the Order Dice"); the movement factor comes back in
    /// the [`CheckedTurn`].
    pub fn check_plan(&self, plan: &TurnPlan) -> Result<CheckedTurn, TurnError> {
        let Course::Acts(orders) = &self.course else {
            return Err(TurnError::DoesNotAct);
        };
        let checked = order_dice::check_turn(orders.order, plan)?;
        if checked.firing.is_some() && !orders.can_fire {
            return Err(TurnError::Forbidden("fire"));
        }
        if plan.acts.contains(&Act::Observe) && !orders.can_observe {
            return Err(TurnError::Forbidden("observe"));
        }
        // Reading: "at the double" is a free full move; an element restricted to
        // moving towards cover does not run for it.
        if plan.at_the_double && orders.movement != CmMovement::Free {
            return Err(TurnError::Forbidden("move at the double"));
        }
        Ok(checked)
    }

    /// FYOB "Updates": "Discard OPC, replace with Activity Counter" for what
    /// the element did. Only an element acting on its Order Die may fire. An
    /// element directed by its CMS or its tests may have made the directed
    /// move (to cover, away from the enemy, to the "box"), which earns the
    /// blue counter ("moved without firing"); one that took No action or
    /// swapped its card did neither.
    pub fn activity_counter(&self, fired: bool, moved: bool) -> Result<Option<ActivityCounter>, TurnError> {
        let may_fire = matches!(&self.course, Course::Acts(orders) if orders.can_fire);
        let may_move = !matches!(self.course, Course::NoAction | Course::SwapsCard);
        if fired && !may_fire {
            return Err(TurnError::Forbidden("fire"));
        }
        if moved && !may_move {
            return Err(TurnError::Forbidden("move"));
        }
        Ok(order_dice::activity_counter(fired, moved))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};
    use crate::event::EventKind;
    use crate::momentum::{CmCause as C, CmsMovement, ElementType};
    use crate::officer::{Grade, Quality, Rank};

    const SUPPORTED: Surroundings = Surroundings { friends_within_12: true, enemy_within_12: true };
    const ALONE: Surroundings = Surroundings { friends_within_12: false, enemy_within_12: true };

    fn element(grade: Grade, element_type: ElementType, cms: u8) -> TurnElement {
        TurnElement {
            nco: Officer::new(Rank::Nco, grade).unwrap(),
            cm: CmElement { element_type, quality: Quality::Regular, cms },
            conditions: TestConditions {
                nco: Some(grade),
                company_officer: None,
                support_points: 0,
                beach_landing: false,
                rationed: false,
            },
            surroundings: SUPPORTED,
        }
    }

    fn kinds(t: &ElementTurn) -> Vec<EventKind> {
        t.events.iter().map(|e| e.kind).collect()
    }

    fn german_mortar_tests() -> Accrued {
        Accrued { events: vec![(C::MortarArtilleryOrAir, 1), (C::UnobservedEnemy, 1)], states: vec![] }
    }

    fn plan(phases: &[Phase], acts: &[Act]) -> TurnPlan {
        TurnPlan {
            phases: phases.to_vec(),
            acts: acts.to_vec(),
            at_the_double: false,
            overwatch: false,
            immobile: false,
        }
    }

    #[test]
    fn book_example_british_mortar_team_passes_its_ort_and_throws_the_order_die() {
        // FYOB caption: "The Regular NCO of this British 3 inch mortar team passes his ORT".
        // No CM tests are due, so it goes straight to the Order Dice stage.
        let mortar = element(Grade::Regular, ElementType::Infantry, 6);
        let mut dice = Scripted::new([3, 1]); // D10 3: acts as ordered; Order Die 1: Fire
        let t = element_turn(&mortar, true, OnSeizing::SwapCard, &Accrued::default(), &mut dice, "3in").unwrap();
        assert_eq!(t.ort, Some(OrtResult::ActsAsOrdered));
        assert_eq!(kinds(&t), [EventKind::Ort, EventKind::OrderDie], "no CM tests due: on to the Order Dice");
        let Course::Acts(orders) = t.course.clone() else { panic!("{:?}", t.course) };
        assert_eq!(orders.order, Phase::Fire);
        assert!(orders.can_fire && orders.can_observe && orders.open_sights_penalty == 0);
        assert_eq!(dice.remaining(), 0);
        // The same NCO throwing a 2 takes No action: the OPC is discarded.
        let t = element_turn(&mortar, true, OnSeizing::SwapCard, &Accrued::default(), &mut Scripted::new([2]), "3in")
            .unwrap();
        assert_eq!((t.course.clone(), kinds(&t)), (Course::NoAction, vec![EventKind::Ort]));
    }

    #[test]
    fn book_example_germans_under_mortar_fire_pass_their_tests_and_continue() {
        // FYOB caption: 6 tests (mortar) + 3 (unobserved), 10% of 9 = 0, "His throw yields
        // 1 failure but his unit is OK to continue."
        let germans = element(Grade::Regular, ElementType::Infantry, 6);
        let mut dice = Scripted::new([5, 2, 5, 1, 6, 3, 4, 4, 2, 5, 4]); // ORT 5, 9 tests, Order Die 4: Move
        let t = element_turn(&germans, true, OnSeizing::ActAsOrdered, &german_mortar_tests(), &mut dice, "G").unwrap();
        assert_eq!(kinds(&t), [EventKind::Ort, EventKind::CmTests, EventKind::OrderDie]);
        let cm = t.cm.unwrap();
        assert_eq!((cm.count.to_take, cm.failures), (9, 1));
        assert_eq!(t.cms_after, 6, "1 or 2 failures: no deduction from the CMS");
        assert_eq!(t.carried_forward, Accrued::default(), "the tests were taken");
        let Course::Acts(orders) = t.course.clone() else { panic!("{:?}", t.course) };
        assert_eq!(orders.order, Phase::Move);
        // 1 or 2 failures: +1 segment, -1 to hit over open sights, -1 pip per movement D6.
        assert_eq!((orders.observation_segments, orders.open_sights_penalty, orders.movement_pips), (1, 1, 1));
        assert!(orders.can_fire);
    }

    #[test]
    fn a_failed_ort_carries_the_tests_forward_untaken() {
        // FYOB: "If the ORT is failed, any accrued Continuous Momentum tests are not taken
        // but carried forward to the next bound."
        let germans = element(Grade::Regular, ElementType::Infantry, 6);
        let mut dice = Scripted::new([1]);
        let t = element_turn(&germans, true, OnSeizing::SwapCard, &german_mortar_tests(), &mut dice, "G").unwrap();
        assert_eq!(t.course, Course::NoAction);
        assert_eq!(t.carried_forward, german_mortar_tests());
        assert!(t.cm.is_none() && dice.remaining() == 0);
        // Next bound it takes a casualty in soft cover too: all the tests fall due together.
        let mut next = t.carried_forward.clone();
        next.events.push((C::CasualtyInSoftCover, 1));
        // ORT 6: acts. 19 tests less 10% (1) = 18, all passed. Order Die 3: Move.
        let mut dice = Scripted::new([6].into_iter().chain([6; 18]).chain([3]));
        let t = element_turn(&germans, true, OnSeizing::SwapCard, &next, &mut dice, "G").unwrap();
        assert_eq!((t.cm.unwrap().count.original, t.cm.unwrap().count.to_take), (9 + 10, 18));
        assert_eq!(dice.remaining(), 0);
        assert!(matches!(t.course, Course::Acts(_)));
    }

    #[test]
    fn seizing_and_swapping_ends_the_turn_and_the_new_card_needs_no_ort() {
        let bold = element(Grade::Bold, ElementType::Infantry, 6);
        let t = element_turn(&bold, true, OnSeizing::SwapCard, &german_mortar_tests(), &mut Scripted::new([9]), "B")
            .unwrap();
        assert_eq!((t.ort, &t.course), (Some(OrtResult::SeizesInitiative), &Course::SwapsCard));
        assert_eq!(t.carried_forward, german_mortar_tests(), "the tests wait for its own turn");
        // "When the original element becomes activated by its new card, it does not need to
        // re-take an ORT": it goes straight to its CM tests (9 passes) and the Order Die.
        let mut dice = Scripted::new([6, 6, 6, 6, 6, 6, 6, 6, 6, 5]);
        let t = element_turn(&bold, false, OnSeizing::SwapCard, &t.carried_forward, &mut dice, "B").unwrap();
        assert_eq!(t.ort, None);
        assert_eq!(kinds(&t), [EventKind::CmTests, EventKind::OrderDie]);
        // "If desired, the NCO Seizing Initiative can simply Act as Ordered."
        let t =
            element_turn(&bold, true, OnSeizing::ActAsOrdered, &Accrued::default(), &mut Scripted::new([9, 1]), "B")
                .unwrap();
        assert_eq!(t.ort, Some(OrtResult::SeizesInitiative));
        assert!(matches!(t.course, Course::Acts(Orders { order: Phase::Fire, .. })));
    }

    #[test]
    fn reading_a_cms_without_offensive_action_directs_the_element_and_skips_the_tests() {
        // FYOB: "Pass = if his CMS allows him to take offensive action, he moves on to the CM
        // Tests stage. If not, he must act as directed by his CM Score."
        let cases = [
            (ElementType::Infantry, 3, CmsMovement::StaysPut),
            (ElementType::Infantry, 1, CmsMovement::RetiresToBox),
            (ElementType::SoftSkin, 4, CmsMovement::ToHiddenPositionOnly),
            (ElementType::Afv, 2, CmsMovement::StaysPut),
        ];
        for (t, cms, movement) in cases {
            let e = element(Grade::Regular, t, cms);
            let mut dice = Scripted::new([5]);
            let turn =
                element_turn(&e, true, OnSeizing::SwapCard, &german_mortar_tests_for(t), &mut dice, "x").unwrap();
            let Course::DirectedByCms(row) = turn.course.clone() else { panic!("{t:?} {cms}: {:?}", turn.course) };
            assert_eq!(row.movement, movement, "{t:?} {cms}");
            assert_eq!(kinds(&turn), [EventKind::Ort], "no CM tests, no Order Die");
            assert_eq!(turn.carried_forward, german_mortar_tests_for(t));
            assert_eq!(turn.activity_counter(false, true), Ok(Some(ActivityCounter::Blue)), "the directed move");
            assert_eq!(turn.activity_counter(true, false), Err(TurnError::Forbidden("fire")));
        }
        // Infantry and AFVs at 4 still "can continue", with their penalties.
        let afv = element(Grade::Regular, ElementType::Afv, 4);
        let turn = element_turn(&afv, true, OnSeizing::SwapCard, &Accrued::default(), &mut Scripted::new([5, 3]), "T")
            .unwrap();
        let Course::Acts(o) = turn.course.clone() else { panic!() };
        assert_eq!((o.cms_movement, o.open_sights_penalty, o.observation_segments), (CmsMovement::NoOpenGround, 1, 1));
        let inf = element(Grade::Regular, ElementType::Infantry, 4);
        let turn = element_turn(&inf, true, OnSeizing::SwapCard, &Accrued::default(), &mut Scripted::new([5, 3]), "I")
            .unwrap();
        assert!(matches!(turn.course, Course::Acts(Orders { can_assault: false, can_fire: true, .. })));
    }

    fn german_mortar_tests_for(t: ElementType) -> Accrued {
        let cause = if t == ElementType::Infantry { C::MortarArtilleryOrAir } else { C::AtFire };
        Accrued { events: vec![(cause, 1)], states: vec![] }
    }

    #[test]
    fn reading_offensive_action_is_exactly_the_rows_that_can_continue() {
        for t in [ElementType::Infantry, ElementType::SoftSkin, ElementType::Afv] {
            for cms in 0..=6 {
                let row = momentum::cms_effects(t, cms).unwrap();
                let continues = matches!(row.movement, CmsMovement::Free | CmsMovement::NoOpenGround)
                    && row.abandons == momentum::Abandons::Nothing;
                assert_eq!(allows_offensive_action(&row), continues, "{t:?} at {cms}");
            }
        }
    }

    #[test]
    fn seven_or_more_failures_end_the_turn_without_an_order_die() {
        let e = element(Grade::Weak, ElementType::Infantry, 6);
        // Weak NCO: no reduction, 9 tests; 7 ones: pinned, full move away, -3 CMS.
        let mut dice = Scripted::new([5, 1, 1, 1, 1, 1, 1, 1, 6, 6]);
        let t = element_turn(&e, true, OnSeizing::SwapCard, &german_mortar_tests(), &mut dice, "W").unwrap();
        assert_eq!(kinds(&t), [EventKind::Ort, EventKind::CmTests]);
        assert!(matches!(
            t.course,
            Course::CannotContinue { effects: BandEffects { band: CmBand::FallsBack, .. }, surrenders: false }
        ));
        assert_eq!((t.cms_after, dice.remaining()), (3, 0));
        assert_eq!(t.check_plan(&plan(&[Phase::Move], &[])), Err(TurnError::DoesNotAct));
        // 9 failures, no friends but the enemy within 12": it surrenders.
        let alone = TurnElement { surroundings: ALONE, ..e };
        let t = element_turn(
            &alone,
            true,
            OnSeizing::SwapCard,
            &german_mortar_tests(),
            &mut Scripted::new([5, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
            "W",
        )
        .unwrap();
        assert!(matches!(t.course, Course::CannotContinue { surrenders: true, .. }));
        assert_eq!(t.cms_after, 2);
    }

    #[test]
    fn a_suppressed_element_acts_but_may_not_fire_or_run() {
        let e = element(Grade::Weak, ElementType::Infantry, 6);
        // 3 failures of 9: suppressed (cannot fire, towards cover only), -1 CMS. Order Die 1: Fire.
        let mut dice = Scripted::new([5, 1, 1, 1, 6, 6, 6, 6, 6, 6, 1]);
        let t = element_turn(&e, true, OnSeizing::SwapCard, &german_mortar_tests(), &mut dice, "W").unwrap();
        let Course::Acts(o) = t.course.clone() else { panic!("{:?}", t.course) };
        assert!(!o.can_fire && !o.can_assault && o.can_observe);
        assert_eq!((o.movement, t.cms_after), (CmMovement::TowardsCoverOnly, 5));
        assert_eq!(t.check_plan(&plan(&[Phase::Fire], &[])), Err(TurnError::Forbidden("fire")));
        let run = TurnPlan { at_the_double: true, ..plan(&[Phase::Move], &[]) };
        assert!(t.check_plan(&run).is_err());
        let checked = t.check_plan(&plan(&[Phase::Move, Phase::Act], &[Act::Observe])).unwrap();
        assert_eq!((checked.firing, checked.movement_factor), (None, 1.0));
        assert_eq!(t.activity_counter(false, true), Ok(Some(ActivityCounter::Blue)));
    }

    #[test]
    fn bad_input_is_a_typed_error_before_any_die() {
        let mut dice = Scripted::new([]);
        let e = element(Grade::Regular, ElementType::Infantry, 9);
        assert_eq!(
            element_turn(&e, true, OnSeizing::SwapCard, &Accrued::default(), &mut dice, "x"),
            Err(TurnError::Momentum(CmError::CmsOutOfRange(9)))
        );
        let e = element(Grade::Regular, ElementType::Infantry, 6);
        let wrong = Accrued { events: vec![(C::ClosedAfvUnderHe, 1)], states: vec![] };
        assert!(matches!(
            element_turn(&e, true, OnSeizing::SwapCard, &wrong, &mut dice, "x"),
            Err(TurnError::Momentum(CmError::NotOnChart(..)))
        ));
    }

    #[test]
    fn every_seed_keeps_the_turn_in_the_books_order() {
        let grades = [Grade::Weak, Grade::Cautious, Grade::Regular, Grade::Bold, Grade::Inspirational];
        let types = [ElementType::Infantry, ElementType::SoftSkin, ElementType::Afv];
        let mut seen = [false; 5];
        for seed in 0..400u64 {
            let mut dice = Dice::new(seed);
            let t = types[(seed % 3) as usize];
            let e = element(grades[(seed % 5) as usize], t, (seed % 7) as u8);
            // No tests, or one to ten sets of fire (enough for 7+ failures).
            let mut accrued = if seed % 4 == 0 { Accrued::default() } else { german_mortar_tests_for(t) };
            accrued.events.iter_mut().for_each(|(_, times)| *times = 1 + (seed % 10) as u32);
            let needs_ort = seed % 6 != 0;
            let turn = element_turn(&e, needs_ort, OnSeizing::SwapCard, &accrued, &mut dice, "e").unwrap();
            let k = kinds(&turn);
            // Events come in the book's order, each step at most once.
            let rank = |kind: &EventKind| {
                [EventKind::Ort, EventKind::CmTests, EventKind::OrderDie].iter().position(|x| x == kind).unwrap()
            };
            assert!(k.windows(2).all(|w| rank(&w[0]) < rank(&w[1])), "{seed}: {k:?}");
            assert_eq!(needs_ort, k.first() == Some(&EventKind::Ort), "{seed}");
            let acted = matches!(turn.course, Course::Acts(_));
            assert_eq!(acted, k.last() == Some(&EventKind::OrderDie), "{seed}");
            if acted {
                assert!(turn.ort.is_none_or(|r| r != OrtResult::NoAction), "{seed}: a failed ORT never acts");
                assert!(allows_offensive_action(&momentum::cms_effects(t, e.cm.cms).unwrap()), "{seed}");
                let three = plan(&[Phase::Act], &[Act::Observe, Act::Aim, Act::ReNetRadio]);
                assert_eq!(turn.check_plan(&three), Err(TurnError::Order(OrderError::TooManyActs(3))));
            } else {
                assert!(turn.check_plan(&plan(&[Phase::Move], &[])).is_err(), "{seed}");
            }
            // Tests are either taken or carried forward, never lost.
            assert_eq!(
                turn.cm.is_some() || accrued == Accrued::default(),
                turn.carried_forward == Accrued::default(),
                "{seed}"
            );
            assert!(turn.cms_after <= e.cm.cms, "{seed}");
            seen[match turn.course {
                Course::NoAction => 0,
                Course::SwapsCard => 1,
                Course::DirectedByCms(_) => 2,
                Course::CannotContinue { .. } => 3,
                Course::Acts(_) => 4,
            }] = true;
            if turn.course == Course::NoAction {
                assert_eq!(turn.ort, Some(OrtResult::NoAction));
                assert_eq!(turn.activity_counter(false, true), Err(TurnError::Forbidden("move")));
            }
        }
        assert_eq!(seen, [true; 5], "the seeds reach every course of a turn");
    }
}
