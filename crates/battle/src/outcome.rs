//! How the battle ends (FYOB "Strategic Condition at Red": a withdrawn force
//! has lost; the scenario's goals; the time limit) and the result handed back.

use super::change::{BattleChange, FlowChange};
use warbound_rules::{
    aircraft::Position,
    effects::VehicleState,
    event::{Book, EventKind, RuleEvent, RuleRef},
    forces::Element,
    geometry::distance,
    scenario::Figures,
    scenario::Goal,
    terrain::Point,
};

use super::{
    Battlefield,
    setup::{
        BattleResult, BattleStart, Decision, ElementResult, Fate, PieceResult, PieceState, SideResult, SquadronResult,
    },
    state::{ElementView, Elements, Flow, SideState, Status},
};

/// The side's CMT: "the sum of the CMS's for the elements present on the
/// table" (FYOB "Strategic Conditions"); those withdrawn into the box,
/// destroyed or surrendered no longer count, those yet to arrive not yet.
/// Reading: a transport, "not given an NCO nor ... rated", is no fighting
/// element and adds nothing; the men it carries count (test
/// `a_transport_adds_nothing_to_its_sides_cmt`).
pub fn cmt<'a>(els: impl IntoIterator<Item = ElementView<'a>>, side: usize) -> u32 {
    els.into_iter()
        .filter(|f| f.identity.side == side && f.presence.status.in_play() && f.force.transport().is_none())
        .map(|f| u32::from(f.force.element.cms))
        .sum()
}

/// Whether the element keeps its side able to fight: on the table, due, or in reserve.
fn fights_on(f: &ElementView, side: usize) -> bool {
    f.identity.side == side
        && matches!(f.presence.status, Status::OnTable | Status::Aboard(_) | Status::Waiting(_) | Status::Reserve)
}

fn gone(f: &ElementView) -> bool {
    matches!(f.presence.status, Status::Destroyed | Status::Surrendered | Status::Retired | Status::OutOfBattle)
}

/// Whether side `s` has met goal `g` now.
fn met(goal: &Goal, s: usize, els: &Elements, withdrawn: &[bool]) -> bool {
    match goal {
        Goal::Hold { at, radius, .. } => {
            let c = Point(at.0, at.1);
            // Reading: a transport is no fighting element; it neither holds
            // a place nor contests it; the men it carries do (test
            // `an_empty_transport_neither_holds_nor_contests_a_place`).
            let near = |side_is_mine: bool| {
                els.iter().any(|f| {
                    f.presence.status.in_play()
                        && f.force.transport().is_none()
                        && (f.identity.side == s) == side_is_mine
                        && distance(f.place.at, c) <= *radius
                })
            };
            near(true) && !near(false)
        }
        Goal::Break => withdrawn.iter().enumerate().any(|(o, w)| o != s && *w),
        Goal::Destroy(ids) => ids.iter().all(|id| els.get(id).is_some_and(gone)),
        Goal::Survive => !withdrawn[s],
    }
}

/// Ends the battle if a side has withdrawn, has nothing left, or has met
/// every goal that can be met before the time limit (destroying named
/// enemies, breaking the enemy).
pub fn settle(t: &mut Battlefield) {
    if t.battle.result.is_some() {
        t.flow.apply(FlowChange::To(Flow::Over));
        return;
    }
    let n = t.sides.0.len();
    if n < 2 {
        return;
    }
    let withdrawn: Vec<bool> = t.sides.0.iter().map(SideState::withdrawn).collect();
    let beaten: Vec<bool> = (0..n).map(|s| withdrawn[s] || !t.elements.any(|f| fights_on(&f, s))).collect();
    let decision = if let Some(loser) = beaten.iter().position(|b| *b) {
        let winner = (0..n).find(|&s| !beaten[s]);
        let by = if withdrawn[loser] { Decision::Withdrawal } else { Decision::Surrender };
        Some((winner, by))
    } else {
        // A side whose goals are all of the kind met during play (destroy,
        // break) and all met has won.
        let decisive = |s: usize| -> Vec<&Goal> {
            let goals = &t.battle.start.scenario.sides[s].victory;
            goals.iter().filter(|g| matches!(g, Goal::Destroy(_) | Goal::Break)).collect()
        };
        if (0..n).any(|s| !decisive(s).is_empty()) {
            let els = Elements::new(t.elements.views(), &t.roster);
            (0..n)
                .find(|&s| {
                    let goals = decisive(s);
                    !goals.is_empty() && goals.iter().all(|g| met(g, s, &els, &withdrawn))
                })
                .map(|s| (Some(s), Decision::Objective))
        } else {
            None
        }
    };
    if let Some((winner, by)) = decision {
        finish(t, winner, by);
    }
}

/// The time limit (or `--bounds`): the goals met at the end decide.
pub fn time_up(t: &mut Battlefield) {
    settle(t);
    if t.battle.result.is_some() {
        return;
    }
    if t.battle.clock.bound() < t.battle.start.scenario.time_limit {
        finish(t, None, Decision::Stopped);
        return;
    }
    let els = Elements::new(t.elements.views(), &t.roster);
    let withdrawn: Vec<bool> = t.sides.0.iter().map(SideState::withdrawn).collect();
    let scores: Vec<usize> = (0..t.sides.0.len())
        .map(|s| t.battle.start.scenario.sides[s].victory.iter().filter(|g| met(g, s, &els, &withdrawn)).count())
        .collect();
    drop(els);
    let best = scores.iter().copied().max().unwrap_or(0);
    let leaders: Vec<usize> = (0..scores.len()).filter(|&s| scores[s] == best).collect();
    let winner = (leaders.len() == 1 && best > 0).then(|| leaders[0]);
    finish(t, winner, Decision::TimeLimit);
}

fn finish(t: &mut Battlefield, winner: Option<usize>, by: Decision) {
    let result = result(t, winner, by);
    let bound = t.battle.clock.bound();
    let ev = RuleEvent::new(EventKind::BattleEnd, RuleRef::new(Book::FightYourOwnBattles, "Strategic Condition"))
        .input("bounds_played", result.bounds_played, "")
        .outcome(serde_json::json!({
            "winner": winner.map(|s| t.sides.0[s].name.clone()),
            "decided_by": by,
        }));
    t.log.push(bound, ev);
    t.battle.apply(BattleChange::Result(result));
    t.flow.apply(FlowChange::To(Flow::Over));
}

/// The battle's result as it stands.
pub fn result(t: &mut Battlefield, winner: Option<usize>, by: Decision) -> BattleResult {
    let els = t.elements.views();
    let elements: Vec<ElementResult> = els
        .iter()
        .map(|f| ElementResult {
            id: f.id().to_owned(),
            side: f.identity.side,
            fate: match f.presence.status {
                Status::OnTable | Status::Aboard(_) => Fate::OnTable,
                Status::Waiting(_) => Fate::InBox,
                Status::Reserve => Fate::Reserve,
                Status::Retired | Status::OutOfBattle => Fate::Retired,
                Status::Surrendered => Fate::Surrendered,
                Status::Destroyed => Fate::Destroyed,
            },
            men_start: f.force.men_start,
            men: f.men(),
            vehicles: u32::from(
                f.vehicle.state.is_some_and(|v| v != VehicleState::Brewed) && f.presence.status != Status::Destroyed,
            ),
            vehicles_damaged: u32::from(f.vehicle.state == Some(VehicleState::Damaged)),
            cms: f.force.element.cms,
            shots_used: f.actions.shots_used,
            company: t.sides.0[f.identity.side]
                .companies
                .get(f.identity.company)
                .map(|c| c.id.clone())
                .unwrap_or_default(),
            figures: figures(&f.force.element),
            pieces: pieces(f, fielded(&t.battle.start, f.id())),
        })
        .collect();
    let squadrons = t
        .sides
        .0
        .iter()
        .enumerate()
        .flat_map(|(s, side)| {
            side.squadrons.iter().map(move |q| {
                let lost = |m: &&warbound_rules::aircraft::Aircraft| {
                    matches!(m.position, Position::ShotDown | Position::OnGround)
                };
                SquadronResult {
                    id: q.id.clone(),
                    side: s,
                    machines_lost: q.machines.iter().filter(lost).count() as u32,
                    damaged: q.machines.iter().filter(|m| !lost(m) && m.damaged()).count() as u32,
                }
            })
        })
        .collect();
    let sides = t
        .sides
        .0
        .iter()
        .enumerate()
        .map(|(s, side)| {
            let mine_on_table = els.iter().any(|f| f.identity.side == s && f.presence.status.in_play());
            let theirs_on_table = els.iter().any(|f| f.identity.side != s && f.presence.status.in_play());
            SideResult {
                name: side.name.clone(),
                cmt_start: side.cmt_start,
                cmt: cmt(els.iter().copied(), s),
                condition: side.record.condition(),
                withdrew: side.withdrawn(),
                holds_table: mine_on_table && !theirs_on_table,
                men_lost: els
                    .iter()
                    .filter(|f| f.identity.side == s)
                    .map(|f| f.force.men_start.saturating_sub(f.men()))
                    .sum(),
            }
        })
        .collect();
    BattleResult {
        scenario: t.battle.start.scenario.name.clone(),
        seed: t.battle.start.seed,
        bounds_played: t.battle.clock.bound(),
        winner,
        decided_by: by,
        sides,
        elements,
        squadrons,
    }
}

/// The men with `e`, by grade and personal weapon, in the order first met.
fn figures(e: &Element) -> Vec<Figures> {
    let mut out: Vec<Figures> = Vec::new();
    for fig in &e.figures {
        match out.iter_mut().find(|g| g.grade == Some(fig.grade) && g.weapon == fig.weapon) {
            Some(g) => g.men = g.men.saturating_add(1),
            None => out.push(Figures { men: 1, weapon: fig.weapon.clone(), grade: Some(fig.grade) }),
        }
    }
    out
}

/// The pieces element `id` was fielded with: its scenario's, or its joining
/// company's.
fn fielded<'a>(start: &'a BattleStart, id: &str) -> Vec<&'a str> {
    let scenario = start.scenario.sides.iter().flat_map(|s| s.elements());
    let joined = start.continuations.iter().flat_map(|c| &c.joining).flat_map(|j| &j.company.elements);
    scenario
        .chain(joined)
        .find(|e| e.id == id)
        .map(|e| e.pieces.iter().map(|p| p.codex.as_str()).collect())
        .unwrap_or_default()
}

/// What became of each piece `f` fielded. Reading: a piece its element no
/// longer holds was abandoned (its crew fight on as riflemen) and is lost;
/// every piece of an element destroyed or surrendered is lost; a vehicle
/// brewed up is lost, one damaged or immobilised damaged.
fn pieces(f: &ElementView, fielded: Vec<&str>) -> Vec<PieceResult> {
    let gone = matches!(f.presence.status, Status::Destroyed | Status::Surrendered);
    let mut held: Vec<_> = f.force.element.pieces.iter().collect();
    fielded
        .into_iter()
        .map(|codex| {
            let now = held.iter().position(|p| p.codex == codex).map(|k| held.remove(k));
            let state = match (now, f.vehicle.state) {
                (None, _) | (_, Some(VehicleState::Brewed)) => PieceState::Lost,
                _ if gone => PieceState::Lost,
                (Some(_), Some(VehicleState::Damaged)) => PieceState::Damaged,
                (Some(_), _) => PieceState::Intact,
            };
            PieceResult { codex: codex.to_owned(), state, crew: now.map_or(0, |p| p.crew) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        log::BattleLog,
        setup::BattleStart,
        state::{FieldedReadOnly, Roster},
    };

    /// Whether side 0 holds the farm at (36, 40) with `moves` made first:
    /// element id, where it stands, and whether it gets out of its transport.
    fn holds_the_farm(moves: &[(&str, (f32, f32), bool)]) -> bool {
        let codex = crate::shipped::codex().unwrap();
        let text = r#"(
    name: "Hold", briefing: "test",
    places: [(name: "the farm", at: (36, 40))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a2", elements: [
            (id: "a1", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], aboard: "lorry", start: at(37, 40)),
            (id: "lorry", pieces: [(codex: "gb_bedford_qld")], start: at(37, 40)),
            (id: "a2", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(10, 2)),
         ])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", elements: [
            (id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(60, 46)),
         ])]),
    ],
)"#;
        let scenario = warbound_rules::scenario::Scenario::load("hold.ron", text, &codex).unwrap();
        let mut app =
            crate::play::battle_app(BattleStart::auto("hold", scenario, 0), BattleLog::default(), codex).unwrap();
        let world = app.world_mut();
        let mut q = world.query::<(&crate::state::Force, &mut crate::state::Place, &mut crate::state::Presence)>();
        for (f, mut place, mut presence) in q.iter_mut(world) {
            for &(id, at, out) in moves {
                if f.id() == id {
                    place.at = Point(at.0, at.1);
                    if out {
                        presence.status = Status::OnTable;
                    }
                }
            }
        }
        let roster = world.resource::<Roster>().clone();
        let mut q = world.query::<FieldedReadOnly>();
        let mut views: Vec<ElementView> = q.iter(world).map(|f| f.view()).collect();
        views.sort_by_key(|f| f.identity.index);
        let els = Elements::new(views, &roster);
        let goal = Goal::Hold { place: "the farm".into(), at: (36.0, 40.0), radius: 6.0 };
        met(&goal, 0, &els, &[false, false])
    }

    #[test]
    fn an_empty_transport_neither_holds_nor_contests_a_place() {
        assert!(holds_the_farm(&[]), "the men aboard the lorry hold the farm");
        assert!(!holds_the_farm(&[("a1", (10.0, 10.0), true)]), "the lorry alone holds nothing");
        assert!(!holds_the_farm(&[("g1", (35.0, 41.0), false)]), "a German at the farm contests it");
    }
}
