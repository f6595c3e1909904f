//! The Move phase (*Heroes All*, "Movement"): the route to the destination is
//! measured from the terrain, the Movement Dice thrown, and the element goes
//! as far along it as the dice allow — stopping short of 9" from any enemy
//! if it has not taken an observation test this bound ("Spotting a potential
//! ambush"). Enemies who can no longer see it lose track of it.

use bevy::prelude::*;
use warbound_rules::{
    day::Light,
    dice::Dice,
    event::{Book, EventKind, RuleEvent, RuleRef},
    geometry::{self, distance},
    movement::{self, Concealment, MoveMode, MoveRequest, Pace},
    observation::AMBUSH_DISTANCE,
    order_dice::Phase,
    scenario::{Edge, TableSize},
    terrain::Point,
};

use super::{
    FlowSchedule, FlowSet, Table, at,
    command::{Command, Current},
    dispatch,
    log::BattleLog,
    sorted,
    state::{Battle, Fielded, Flow, Status},
    table::{from_edge, nearest_on_edge, toward},
    visible::Sight,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, move_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

/// Steps along a move when checking the 9" rule.
const STEP: f32 = 0.25;

fn move_phase(mut t: Table, mut current: ResMut<Current>) {
    let Some(Command::Move { element, to }) = current.0.clone() else { return };
    current.0 = None;
    let Flow::Acting(turn) = &*t.flow else { return };
    let pips = turn.orders.movement_pips;
    do_move(&mut t, &element, Point(to.0, to.1), pips);
    dispatch::phase_done(&mut t, Phase::Move, &[]);
}

/// Moves `element` towards `to` as far as its Movement Dice allow.
pub(super) fn do_move(t: &mut Table, element: &str, target: Point, pips: u8) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    let Some(i) = els.iter().position(|f| f.id() == element) else { return };
    let enemies: Vec<Point> =
        els.iter().filter(|f| f.side != els[i].side && f.status.on_table()).map(|f| f.at).collect();
    let f = &mut els[i];
    let Some(travel) = throw_move(&mut t.log, &mut t.dice.0, &t.battle, bound, f, target, pips) else {
        return;
    };
    let from = f.at;
    let allowed = if f.this_bound.observed { travel } else { ambush_limit(from, target, travel, &enemies) };
    if allowed < travel {
        let ev = RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Spotting a potential ambush"))
            .actor(f.id())
            .input("thrown", travel, "inches the Movement Dice allow")
            .input("observed_this_bound", false, "no observation test taken with an Act this bound")
            .outcome(serde_json::json!({ "halted_after": allowed, "within": AMBUSH_DISTANCE }));
        t.log.push(bound, ev);
    }
    f.at = toward(from, target, allowed);
    f.this_bound.moved = allowed > 0.0;
    f.concealed = false;
    lose_track(&mut els, i, &t.battle);
}

/// Throws the Movement Dice for a straight move to `to`; the inches it may go.
fn throw_move(
    log: &mut BattleLog,
    dice: &mut Dice,
    battle: &Battle,
    bound: u32,
    f: &Fielded,
    to: Point,
    pips: u8,
) -> Option<f32> {
    let scenario = &battle.start.scenario;
    let route = geometry::route(&scenario.terrain, &[f.at, to]).ok()?;
    let req = MoveRequest {
        mover: f.mover,
        route: &route.stretches,
        mode: MoveMode::Normal,
        pace: Pace::Normal,
        light: battle.clock.light(),
        weather: scenario.battle_weather().unwrap_or_default(),
        momentum_pips: pips,
        concealment: if f.concealed { Concealment::LeavesWithoutAct } else { Concealment::NotConcealed },
        rationed: false,
    };
    match movement::move_element(&req, dice, f.id()) {
        Ok((mv, event)) => {
            log.push(bound, event);
            Some(mv.distance)
        }
        Err(e) => {
            warn!("{} cannot move: {e:?}", f.id());
            None
        }
    }
}

/// How far along the line to `to` the element may go without coming closer
/// than 9" to an enemy (one it is already within 9" of, no closer).
pub fn ambush_limit(from: Point, to: Point, travel: f32, enemies: &[Point]) -> f32 {
    let mut s = 0.0;
    while s < travel {
        let next = (s + STEP).min(travel);
        let p = toward(from, to, next);
        let breaks = enemies.iter().any(|&e| {
            let d = distance(p, e);
            d <= AMBUSH_DISTANCE && d < distance(from, e) - 1e-3
        });
        if breaks {
            return s;
        }
        s = next;
    }
    travel
}

/// Enemies who knew of element `i` and cannot see it where it now stands
/// lose track of it. Reading (*Heroes All* has no rule for how long a target
/// stays observed): an enemy stays observed while it stays in view.
fn lose_track(els: &mut [Mut<Fielded>], i: usize, battle: &Battle) {
    let Ok(codex) = crate::data::codex() else { return };
    let sight = Sight { scenario: &battle.start.scenario, codex, night: battle.clock.light() == Light::Night };
    let id = els[i].id().to_owned();
    let lost: Vec<usize> = (0..els.len())
        .filter(|&j| {
            j != i && els[j].side != els[i].side && els[j].known.contains(&id) && !sight.in_view(&els[j], &els[i])
        })
        .collect();
    for j in lost {
        els[j].known.remove(&id);
    }
}

/// FYOB "Results of Momentum Tests" 7-8: "a full move away from the enemy",
/// towards its own edge; reaching it, the element is back in the box.
pub(super) fn fall_back(
    log: &mut BattleLog,
    dice: &mut Dice,
    battle: &Battle,
    bound: u32,
    f: &mut Fielded,
    table: TableSize,
    edge: Edge,
) {
    let home = nearest_on_edge(table, edge, f.at);
    if let Some(travel) = throw_move(log, dice, battle, bound, f, home, 0) {
        f.at = toward(f.at, home, travel);
        f.this_bound.moved = travel > 0.0;
    }
    if from_edge(table, edge, f.at) <= 1.0 {
        super::activation::leave(log, bound, f, Status::Retired, "a full move away took it off its own edge");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_halts_outside_nine_inches() {
        let allowed = ambush_limit(Point(0.0, 0.0), Point(0.0, 30.0), 20.0, &[Point(0.0, 25.0)]);
        assert!(allowed <= 16.0 + STEP && allowed > 15.0, "{allowed}");
        let far = ambush_limit(Point(0.0, 0.0), Point(0.0, 30.0), 10.0, &[Point(0.0, 25.0)]);
        assert_eq!(far, 10.0);
    }

    #[test]
    fn moving_away_from_a_near_enemy_is_free() {
        let allowed = ambush_limit(Point(0.0, 5.0), Point(0.0, 0.0), 5.0, &[Point(0.0, 10.0)]);
        assert_eq!(allowed, 5.0);
    }
}
