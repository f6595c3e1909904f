//! Order Dice and Activity Counters (*Fight Your Own Battles*, "Order Dice"):
//! the D3 Order Die (Fire, Move, Act), the order in which an element may then
//! take its phases, the list of acts (any 2), and the counter left afterwards.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};

/// A phase of an element's turn; also the order the Order Die gives
/// (1 Fire, 2 Move, 3 Act: the phase it must take first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    Fire,
    Move,
    Act,
}

/// FYOB "Order Dice scores": the D3 (1, 1, 2, 2, 3, 3) read as an order.
const ORDER_DIE: [Phase; 3] = [Phase::Fire, Phase::Move, Phase::Act];

/// Throws the Order Die for an element that passed its ORT and whose CMS
/// allows it to act.
pub fn throw_order_die(dice: &mut impl Roll, id: &str) -> (Phase, RuleEvent) {
    let face = dice.d3();
    let order = ORDER_DIE[usize::from(face) - 1];
    let event = RuleEvent::new(EventKind::OrderDie, RuleRef::new(Book::FightYourOwnBattles, "Order Dice"))
        .actor(id)
        .dice(3, &[face])
        .outcome(json!({ "order": order }));
    (order, event)
}

/// FYOB "Act": "An element will undertake any 2 of the following".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Act {
    Observe,
    /// Getting out, where implied by the move (a glider landing, an assault
    /// boat reaching shore), is part of the move phase instead. Reading:
    /// cavalry mounting or dismounting is this Act (*Heroes All*, "Cavalry":
    /// "Mounting or dismounting is an Act").
    EmbarkOrDisembark,
    /// Throwing a D10 for the landing grid.
    Parachute,
    /// "Aim" a HE/AT shot with an artillery piece: it must then fire, then move.
    Aim,
    /// Reading: limbering or unlimbering a horse-towed gun is this Act
    /// (*Heroes All*, "Cavalry": "Unlimbering or limbering the gun is an Act").
    SetUpOrTakeDownImmobileCsw,
    EngineeringWork,
    /// Re-net a radio after a HE/AT hit (a Radio Test).
    ReNetRadio,
    GetOutOfRiver,
    /// FYOB "Placement options": "A concealed element uses an Act to extract
    /// itself from a concealed position."
    ExtractFromConcealment,
    /// FYOB "Runners": an element without a working radio reaches its Company
    /// Officer by "sending a \"runner\". This is represented by him passing a
    /// Leadership Test as one of the element's Acts during his bound."
    SendRunner,
    /// *Heroes All*, "Setting fire to buildings": "1 figure may enter a
    /// building and stay there for 1 bound to start a fire on an Act".
    SetFire,
}

/// FYOB "Act": any 2 acts.
pub const ACTS_PER_TURN: usize = 2;

/// What an element plans to do with its order this bound.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnPlan {
    /// The phases it takes, in order; each at most once.
    pub phases: Vec<Phase>,
    /// Acts taken in its Act phase.
    pub acts: Vec<Act>,
    /// Moving "At the double" (a Move order only).
    pub at_the_double: bool,
    pub overwatch: bool,
    /// An immobile CSW or artillery piece: cannot move or change target and fire.
    pub immobile: bool,
}

/// How the element's firing counts this bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FiringStance {
    /// Fire order, or fired before moving on an Act order; an AFV fires as
    /// stationary "even if it ended the last bound moving".
    Stationary,
    /// Move order ("even if it does not move"), or moved before firing.
    OnTheMove,
}

/// A plan checked against the order.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CheckedTurn {
    /// `None` when it does not fire.
    pub firing: Option<FiringStance>,
    /// Multiple of the Movement Dice distance: 2 at the double, ½ on Overwatch.
    pub movement_factor: f32,
}

/// A plan the order does not allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderError {
    /// "An element can only undertake each phase once during the bound."
    PhaseTwice(Phase),
    /// The ordered phase, if taken, is "the first activity undertaken".
    OrderedPhaseNotFirst(Phase),
    TooManyActs(usize),
    /// Acts listed without an Act phase, or an Act phase without acts.
    ActsWithoutActPhase,
    /// "At the double" needs a Move order and leaves no fire or act.
    AtTheDouble,
    /// "Elements on Overwatch may not fire."
    FiresOnOverwatch,
    /// An immobile CSW cannot move and fire in the same bound.
    ImmobileMovesAndFires,
    /// An aim is acted first, then the firer fires, then moves.
    AimNotFollowedByFire,
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the order does not allow this: {self:?}")
    }
}

impl std::error::Error for OrderError {}

/// Checks a plan against the Order Die (FYOB "Order Dice scores").
pub fn check_turn(order: Phase, plan: &TurnPlan) -> Result<CheckedTurn, OrderError> {
    for (i, p) in plan.phases.iter().enumerate() {
        if plan.phases[..i].contains(p) {
            return Err(OrderError::PhaseTwice(*p));
        }
    }
    if plan.phases.contains(&order) && plan.phases[0] != order {
        return Err(OrderError::OrderedPhaseNotFirst(order));
    }
    let acting = plan.phases.contains(&Phase::Act);
    if plan.acts.len() > ACTS_PER_TURN {
        return Err(OrderError::TooManyActs(plan.acts.len()));
    }
    if acting == plan.acts.is_empty() {
        return Err(OrderError::ActsWithoutActPhase);
    }
    let fires = plan.phases.iter().position(|&p| p == Phase::Fire);
    let moves = plan.phases.iter().position(|&p| p == Phase::Move);
    if plan.at_the_double && (order != Phase::Move || moves.is_none() || fires.is_some() || acting) {
        return Err(OrderError::AtTheDouble);
    }
    if plan.overwatch && fires.is_some() {
        return Err(OrderError::FiresOnOverwatch);
    }
    if plan.immobile && fires.is_some() && moves.is_some() {
        return Err(OrderError::ImmobileMovesAndFires);
    }
    if plan.acts.contains(&Act::Aim) && (order != Phase::Act || fires != Some(1) || moves.is_some_and(|m| m < 1)) {
        return Err(OrderError::AimNotFollowedByFire);
    }
    let firing = fires.map(|f| match order {
        Phase::Fire => FiringStance::Stationary,
        Phase::Move => FiringStance::OnTheMove,
        Phase::Act if moves.is_some_and(|m| m < f) => FiringStance::OnTheMove,
        Phase::Act => FiringStance::Stationary,
    });
    let movement_factor = match (plan.at_the_double, plan.overwatch) {
        (true, _) => 2.0,
        (false, true) => 0.5,
        (false, false) => 1.0,
    };
    Ok(CheckedTurn { firing, movement_factor })
}

/// FYOB "Activity counters": left on the Cardsheet at the end of the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActivityCounter {
    /// Fired (whether or not it also moved or acted).
    Red,
    /// Moved without firing.
    Blue,
}

/// The counter an element gets for what it did; `None` if it neither fired nor moved.
pub fn activity_counter(fired: bool, moved: bool) -> Option<ActivityCounter> {
    match (fired, moved) {
        (true, _) => Some(ActivityCounter::Red),
        (false, true) => Some(ActivityCounter::Blue),
        (false, false) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};

    fn plan(phases: &[Phase], acts: &[Act]) -> TurnPlan {
        TurnPlan {
            phases: phases.to_vec(),
            acts: acts.to_vec(),
            at_the_double: false,
            overwatch: false,
            immobile: false,
        }
    }

    use Phase::{Act as A, Fire as F, Move as M};

    #[test]
    fn order_die_reads_1_1_2_2_3_3() {
        let mut dice = Scripted::new([1, 2, 3, 4, 5, 6]);
        let orders: Vec<Phase> = (0..6).map(|_| throw_order_die(&mut dice, "x").0).collect();
        assert_eq!(orders, [F, F, M, M, A, A]);
        let (_, e) = throw_order_die(&mut Scripted::new([6]), "A9");
        assert_eq!((e.kind, e.dice[0].sides, e.dice[0].face), (EventKind::OrderDie, 3, 3));
    }

    #[test]
    fn each_order_comes_up_a_third_of_the_time() {
        let mut dice = Dice::new(8);
        let mut seen = [0u32; 3];
        for _ in 0..9000 {
            seen[throw_order_die(&mut dice, "x").0 as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (2800..3200).contains(&n)), "{seen:?}");
    }

    #[test]
    fn the_ordered_phase_comes_first_and_each_phase_once() {
        assert!(check_turn(F, &plan(&[F, M, A], &[Act::Observe])).is_ok());
        assert!(check_turn(F, &plan(&[M], &[])).is_ok(), "may move without firing");
        assert_eq!(check_turn(F, &plan(&[M, F], &[])), Err(OrderError::OrderedPhaseNotFirst(F)));
        assert_eq!(check_turn(M, &plan(&[M, F, M], &[])), Err(OrderError::PhaseTwice(M)));
        assert!(check_turn(A, &plan(&[], &[])).is_ok(), "an order it cannot carry out is simply ignored");
    }

    #[test]
    fn any_two_acts() {
        assert!(check_turn(A, &plan(&[A], &[Act::Observe, Act::ReNetRadio])).is_ok());
        assert_eq!(
            check_turn(A, &plan(&[A], &[Act::Observe, Act::ReNetRadio, Act::EngineeringWork])),
            Err(OrderError::TooManyActs(3))
        );
        assert_eq!(check_turn(A, &plan(&[F], &[Act::Observe])), Err(OrderError::ActsWithoutActPhase));
    }

    #[test]
    fn firing_stance_follows_the_order() {
        let stance = |o, p: &[Phase], acts: &[Act]| check_turn(o, &plan(p, acts)).unwrap().firing;
        assert_eq!(stance(F, &[F, M], &[]), Some(FiringStance::Stationary));
        assert_eq!(stance(M, &[M, F], &[]), Some(FiringStance::OnTheMove));
        assert_eq!(stance(M, &[F], &[]), Some(FiringStance::OnTheMove), "on the move even if it does not move");
        assert_eq!(stance(A, &[A, M, F], &[Act::Observe]), Some(FiringStance::OnTheMove));
        assert_eq!(stance(A, &[A, F, M], &[Act::Observe]), Some(FiringStance::Stationary));
        assert_eq!(stance(A, &[A], &[Act::Observe]), None);
    }

    #[test]
    fn at_the_double_overwatch_and_immobile_weapons() {
        let mut p = plan(&[M], &[]);
        p.at_the_double = true;
        assert_eq!(check_turn(M, &p).unwrap().movement_factor, 2.0);
        assert_eq!(check_turn(F, &p), Err(OrderError::AtTheDouble));
        p.phases = vec![M, F];
        assert_eq!(check_turn(M, &p), Err(OrderError::AtTheDouble), "may not then fire");
        let mut p = plan(&[M], &[]);
        p.overwatch = true;
        assert_eq!(check_turn(M, &p).unwrap().movement_factor, 0.5);
        p.phases = vec![M, F];
        assert_eq!(check_turn(M, &p), Err(OrderError::FiresOnOverwatch));
        let mut p = plan(&[M, F], &[]);
        p.immobile = true;
        assert_eq!(check_turn(M, &p), Err(OrderError::ImmobileMovesAndFires));
    }

    #[test]
    fn an_aim_is_acted_then_fired_then_moved() {
        assert!(check_turn(A, &plan(&[A, F, M], &[Act::Aim])).is_ok());
        assert_eq!(check_turn(A, &plan(&[A, M, F], &[Act::Aim])), Err(OrderError::AimNotFollowedByFire));
        assert_eq!(check_turn(A, &plan(&[A], &[Act::Aim])), Err(OrderError::AimNotFollowedByFire));
        assert_eq!(check_turn(F, &plan(&[F, A], &[Act::Aim])), Err(OrderError::AimNotFollowedByFire));
    }

    #[test]
    fn activity_counters() {
        assert_eq!(activity_counter(true, true), Some(ActivityCounter::Red));
        assert_eq!(activity_counter(true, false), Some(ActivityCounter::Red));
        assert_eq!(activity_counter(false, true), Some(ActivityCounter::Blue));
        assert_eq!(activity_counter(false, false), None);
    }
}
