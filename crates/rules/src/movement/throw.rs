//! A move thrown ([`move_element`]): the Movement Dice read by the plan, the
//! distance along the route, the rough ground and Goliath throws, and the
//! `movement` event.

use serde::Serialize;
use serde_json::json;

use super::{MoveError, MovePlan, MoveRequest, plan};
use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};

/// Goliath: "Throw an additional D6 per bound. On a 1 or 2 the machine breaks down".
pub const GOLIATH_BREAKS_DOWN_ON: u8 = 2;
/// Rough ground: "A 1 indicates a lost track and \"damage\"."
pub const TRACK_LOST_ON: u8 = 1;

/// A move thrown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Move {
    pub plan: MovePlan,
    /// The Movement Dice.
    pub faces: Vec<u8>,
    /// The score after pips (and night halving), before the pace factor.
    pub score: u32,
    /// "The score shows the maximum number of inches that the element can move this bound."
    pub allowance: f32,
    /// How far along the route it may go: the allowance or the route, whichever is shorter.
    pub distance: f32,
    /// Rough ground: a lost track; the vehicle is now "damaged".
    pub track_lost: bool,
    /// Goliath: broke down and is removed with its crew.
    pub broke_down: bool,
}

/// Throws the Movement Dice for a move and reads them: the distance the
/// element may go along its route. The declared route sets the dice and the
/// pips (the going and features it crosses); a tracked vehicle throws for its
/// track only if it reaches the rough ground; a Goliath throws for reliability.
pub fn move_element(req: &MoveRequest<'_>, dice: &mut impl Roll, id: &str) -> Result<(Move, RuleEvent), MoveError> {
    let plan = plan(req)?;
    let faces = dice.throw(usize::from(plan.dice), 6);
    let score = plan.score(&faces);
    let allowance = score as f32 * plan.factor;
    let distance = allowance.min(plan.route_length);
    let reliability = plan.goliath.then(|| dice.d6());
    let track = plan.rough_ground_at.filter(|&at| at < distance).map(|_| dice.d6());
    let mv = Move {
        track_lost: track.is_some_and(|f| f <= TRACK_LOST_ON),
        broke_down: reliability.is_some_and(|f| f <= GOLIATH_BREAKS_DOWN_ON),
        plan,
        faces,
        score,
        allowance,
        distance,
    };

    let p = &mv.plan;
    let mut e = RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Movement"))
        .actor(id)
        .input("class", req.mover.class, "")
        .input("row", p.row, "Movement Table")
        .input("dice", p.dice, p.dice_reason);
    for &(cause, n) in &p.pips {
        e = e.input("pips", (cause, n), "deducted from each D6");
    }
    if p.night_halved {
        e = e.input("night", true, "Night fighting: halve the score, round down");
    }
    if p.factor != 1.0 {
        e = e.input("pace", req.pace, "at the double x2, Overwatch 50%");
    }
    e = e.input("route_length", p.route_length, "inches").dice(6, &mv.faces);
    if let Some(f) = reliability {
        e = e.input("goliath_reliability", f, "Goliath: a 1 or 2 and it breaks down").dice(6, &[f]);
    }
    if let Some(f) = track {
        e = e.input("rough_ground", f, "tracked vehicle on rough ground: a 1 loses a track").dice(6, &[f]);
    }
    let e = e.outcome(json!({
        "score": mv.score,
        "allowance": mv.allowance,
        "distance": mv.distance,
        "reached_end": mv.distance >= p.route_length,
        "track_lost": mv.track_lost,
        "broke_down": mv.broke_down,
    }));
    Ok((mv, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::day::Light;
    use crate::dice::{Dice, Scripted};
    use crate::movement::{Concealment, DoubleBar, MoveClass, MoveMode, Mover, Pace, Row, Stretch, Terrain};
    use crate::officer::Quality;
    use crate::order_dice::{Phase, TurnPlan, check_turn};

    use Terrain as T;

    fn go(req: &MoveRequest<'_>, faces: &[u8]) -> Move {
        let mut dice = Scripted::new(faces.iter().copied());
        let (mv, _) = move_element(req, &mut dice, "x").unwrap();
        assert_eq!(dice.remaining(), 0, "every scripted face used");
        mv
    }

    fn open(len: f32) -> [Stretch; 1] {
        [Stretch::new(T::Open, len)]
    }

    /// *Heroes All*, "Movement": "a British platoon throws 1 x D6 and gets a 5 so can wade across."
    #[test]
    fn example_platoon_wades_across_with_a_five() {
        let mut platoon = Mover::new(MoveClass::Infantry);
        platoon.in_water = true;
        let river = [Stretch::new(T::SmallRiver, 4.0)];
        let mv = go(&MoveRequest::new(platoon, &river), &[5]);
        assert_eq!((mv.plan.row, mv.plan.dice), (Row::Wading, 1));
        assert_eq!((mv.allowance, mv.distance), (5.0, 4.0), "across a 4-inch small river");
        let beyond = [Stretch::new(T::SmallRiver, 4.0), Stretch::new(T::Open, 1.0)];
        assert_eq!(plan(&MoveRequest::new(platoon, &beyond)), Err(MoveError::RiverBankNeedsAnAct { stretch: 1 }));
        let on_bank = [Stretch::new(T::Open, 1.0), Stretch::new(T::SmallRiver, 4.0)];
        assert_eq!(
            plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &on_bank)),
            Err(MoveError::RiverBankNeedsAnAct { stretch: 1 }),
            "getting in is an Act too"
        );
    }

    /// *Heroes All*, "Move distance modifiers": "This low wall … presents no
    /// problems to the infantry who do not suffer a penalty to cross it. They
    /// can move their full 6 inches on this bound."
    #[test]
    fn example_low_wall_costs_infantry_nothing() {
        let route = [Stretch::new(T::Open, 2.0), Stretch::new(T::LowWall, 0.0), Stretch::new(T::Open, 8.0)];
        let mv = go(&MoveRequest::new(Mover::new(MoveClass::Infantry), &route), &[2, 4]);
        assert_eq!((mv.plan.dice, mv.plan.pips_per_die(), mv.distance), (2, 0, 6.0));
        let high = [Stretch::new(T::Open, 2.0), Stretch::new(T::HighWall, 0.0), Stretch::new(T::Open, 8.0)];
        let mv = go(&MoveRequest::new(Mover::new(MoveClass::Infantry), &high), &[2, 4]);
        assert_eq!(mv.distance, 4.0, "a high wall costs a pip a die");
    }

    #[test]
    fn pips_stack_per_feature_and_never_take_a_die_below_nothing() {
        let r = [
            Stretch::new(T::DenseWoodland, 2.0),
            Stretch::new(T::DenseWoodland, 2.0),
            Stretch::new(T::Stream, 1.0),
            Stretch::new(T::Marsh, 2.0),
        ];
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        assert_eq!(plan(&req).unwrap().pips_per_die(), 3, "one wood split in two is one feature");
        req.momentum_pips = 1;
        let mv = go(&req, &[6, 2]);
        assert_eq!(mv.score, 2, "6-4 and 2-4 reads as 0, not -2");
    }

    #[test]
    fn carried_csw_loses_a_pip_a_die_even_on_a_stealth_move() {
        let r = open(20.0);
        let mv = go(&MoveRequest::new(Mover::new(MoveClass::CarriedCsw), &r), &[4, 4]);
        assert_eq!(mv.distance, 6.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::CarriedCsw), &r);
        req.mode = MoveMode::Stealth;
        assert_eq!(go(&req, &[4]).distance, 3.0);
    }

    #[test]
    fn at_the_double_doubles_where_the_row_allows_it() {
        let r = open(30.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.pace = Pace::AtTheDouble;
        assert_eq!(go(&req, &[3, 5]).distance, 16.0);
        req.mover = Mover::new(MoveClass::MountedCavalry);
        assert_eq!(go(&req, &[1, 1, 1, 1, 1]).distance, 10.0);
        req.mover = Mover::new(MoveClass::Tank);
        assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::NotInRow(Row::Tank))));
        req.mover = Mover::new(MoveClass::Infantry);
        let town = [Stretch::new(T::BuiltUp, 5.0)];
        req.route = &town;
        assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::NotInRow(Row::InfantryBuiltUp))));
    }

    #[test]
    fn overwatch_moves_half_and_pace_follows_the_order() {
        let r = open(30.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.pace = Pace::Overwatch;
        assert_eq!(go(&req, &[3, 4]).distance, 3.5);
        let mut turn = TurnPlan {
            phases: vec![Phase::Move],
            acts: vec![],
            at_the_double: true,
            overwatch: false,
            immobile: false,
        };
        for (double, overwatch) in [(true, false), (false, true), (false, false)] {
            turn.at_the_double = double;
            turn.overwatch = overwatch;
            let factor = check_turn(Phase::Move, &turn).unwrap().movement_factor;
            assert_eq!(Pace::of(&turn).unwrap().factor(), factor);
        }
        turn.at_the_double = true;
        turn.overwatch = true;
        assert_eq!(
            Pace::of(&turn),
            Err(MoveError::AtTheDouble(DoubleBar::Overwatch)),
            "cannot move at the double on Overwatch"
        );
    }

    #[test]
    fn night_halves_the_score_rounding_down() {
        let r = open(30.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.light = Light::Night;
        assert_eq!(go(&req, &[3, 4]).distance, 3.0, "7 halved is 3");
        req.pace = Pace::Overwatch;
        assert_eq!(go(&req, &[3, 4]).distance, 1.5);
        req.pace = Pace::Normal;
        req.mover.quality = Quality::Elite;
        assert_eq!(go(&req, &[3, 4]).distance, 7.0);
    }

    #[test]
    fn wire_slows_men_on_foot() {
        // A line of wire crossed: men on foot lose a pip a die, as at a high
        // wall; a tank crushes it.
        let wired = [Stretch::new(T::Open, 2.0), Stretch::new(T::Wire, 0.0), Stretch::new(T::Open, 8.0)];
        let men = go(&MoveRequest::new(Mover::new(MoveClass::Infantry), &wired), &[3, 4]);
        assert_eq!(men.distance, 5.0, "3 + 4 less a pip a die");
        assert!(men.plan.pips.contains(&(crate::movement::PipCause::Terrain(T::Wire), 1)));
        let tank = go(&MoveRequest::new(Mover::new(MoveClass::Tank), &wired), &[3, 4, 2]);
        assert_eq!(tank.distance, 9.0, "no pips for a tank");
    }

    #[test]
    fn damaged_vehicles_move_1d6() {
        let mut m = Mover::new(MoveClass::Tank);
        m.damaged = true;
        let r = [Stretch::new(T::Road, 30.0)];
        let mv = go(&MoveRequest::new(m, &r), &[4]);
        assert_eq!((mv.plan.dice, mv.distance), (1, 4.0));
    }

    #[test]
    fn tracks_may_be_lost_on_rough_ground_when_reached() {
        let r = [Stretch::new(T::Open, 4.0), Stretch::new(T::RoughGround, 6.0)];
        let tank = Mover::new(MoveClass::Tank);
        let mv = go(&MoveRequest::new(tank, &r), &[3, 3, 3, 1]);
        assert!(mv.track_lost);
        assert!(!go(&MoveRequest::new(tank, &r), &[3, 3, 3, 2]).track_lost);
        let mv = go(&MoveRequest::new(tank, &r), &[1, 1, 1]);
        assert_eq!((mv.distance, mv.track_lost), (3.0, false), "stopped short: no throw");
        let mv = go(&MoveRequest::new(Mover::new(MoveClass::HalfTrack), &r), &[3, 3, 3, 3]);
        assert!(!mv.track_lost, "only tracked vehicles throw");
    }

    #[test]
    fn goliath_breaks_down_on_a_one_or_two() {
        let r = open(24.0);
        let g = Mover::new(MoveClass::Goliath);
        let mv = go(&MoveRequest::new(g, &r), &[5, 2]);
        assert_eq!((mv.distance, mv.broke_down), (5.0, true));
        assert!(!go(&MoveRequest::new(g, &r), &[5, 3]).broke_down);
    }

    #[test]
    fn momentum_and_concealment_pips() {
        let r = open(20.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.momentum_pips = 1;
        req.concealment = Concealment::LeavesWithoutAct;
        assert_eq!(go(&req, &[4, 5]).distance, 5.0);
        req.concealment = Concealment::ExtractedByAct;
        assert_eq!(go(&req, &[4, 5]).distance, 7.0, "an Act spares the pip");
    }

    #[test]
    fn the_event_names_the_rule_dice_and_pips() {
        let r = [Stretch::new(T::Open, 3.0), Stretch::new(T::Stream, 1.0), Stretch::new(T::Open, 9.0)];
        let (mv, e) =
            move_element(&MoveRequest::new(Mover::new(MoveClass::Infantry), &r), &mut Scripted::new([6, 3]), "2/B")
                .unwrap();
        assert_eq!((e.kind, e.rule.book, e.actor.as_deref()), (EventKind::Movement, Book::HeroesAll, Some("2/B")));
        assert_eq!(e.dice.iter().map(|t| t.face).collect::<Vec<_>>(), [6, 3]);
        assert!(e.inputs.iter().any(|i| i.name == "pips"), "{:?}", e.inputs);
        assert_eq!(e.outcome["distance"], serde_json::json!(7.0));
        assert_eq!(mv.distance, 7.0);
    }

    #[test]
    fn thrown_moves_stay_within_the_plan() {
        let mut dice = Dice::new(11);
        let r = [Stretch::new(T::Road, 10.0), Stretch::new(T::Open, 10.0)];
        for class in [MoveClass::Infantry, MoveClass::Tank, MoveClass::Motorcycle, MoveClass::MountedCavalry] {
            let req = MoveRequest::new(Mover::new(class), &r);
            let max = plan(&req).unwrap().max_allowance();
            for _ in 0..200 {
                let (mv, _) = move_element(&req, &mut dice, "x").unwrap();
                assert!(mv.allowance <= max && mv.distance <= 20.0 && mv.distance <= mv.allowance);
            }
        }
    }
}
