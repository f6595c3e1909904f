//! Measures and changes on the table shared by the flow systems: edges,
//! straight-line moves, casualties and the CM tests a target accrues.

use super::change::{BattleChange, Change, Held, HeldBattle};
use warbound_rules::{
    buildings::{HeHit, State as BuildingState},
    dice::Dice,
    effects::{HeColumn, HeTarget},
    geometry::{self, distance},
    momentum::CmCause,
    scenario::Edge,
    terrain::{Point, TableSize},
};

use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use super::state::{Build, ElementView, Status};

/// Reading: "in contact with the target" is within 2" of the charge; the
/// blast's table effect falls on the elements that close.
pub const CONTACT: f32 = 2.0;

/// A point on `edge`, `along` inches from its left (or near) end, one inch in.
pub fn edge_point(table: TableSize, edge: Edge, along: f32) -> Point {
    let x = along.clamp(1.0, table.width - 1.0);
    let y = along.clamp(1.0, table.depth - 1.0);
    match edge {
        Edge::Near => Point(x, 1.0),
        Edge::Far => Point(x, table.depth - 1.0),
        Edge::Left => Point(1.0, y),
        Edge::Right => Point(table.width - 1.0, y),
    }
}

/// The point on `edge` nearest `p`.
pub fn nearest_on_edge(table: TableSize, edge: Edge, p: Point) -> Point {
    match edge {
        Edge::Near | Edge::Far => edge_point(table, edge, p.0),
        Edge::Left | Edge::Right => edge_point(table, edge, p.1),
    }
}

/// How far `p` is from `edge`.
pub fn from_edge(table: TableSize, edge: Edge, p: Point) -> f32 {
    match edge {
        Edge::Near => p.1,
        Edge::Far => table.depth - p.1,
        Edge::Left => p.0,
        Edge::Right => table.width - p.0,
    }
}

/// `d` inches from `a` towards `b` (at most to `b`).
pub fn toward(a: Point, b: Point, d: f32) -> Point {
    let len = distance(a, b);
    if len <= f32::EPSILON || d >= len {
        return b;
    }
    let t = d / len;
    Point(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

/// What an HE hit lands on (*Heroes All*, "HE Effects Table"): an AFV open
/// or closed, a gun's crew, or the men of an element; `None` if no one is left.
pub fn he_target(f: &ElementView) -> Option<HeTarget> {
    let crew: u8 = f.force.element.pieces.iter().map(|p| p.crew).sum();
    Some(match f.force.build {
        Build::Afv { open_topped: true, .. } => HeTarget::OpenTopped { crew: crew.max(1) },
        Build::Afv { .. } => HeTarget::Closed { calibre_150_plus: false },
        _ if f.men() == 0 => return None,
        _ if f.force.element.figures.is_empty() => HeTarget::Gun { crew },
        _ => HeTarget::Infantry { figures: f.men().min(u32::from(u8::MAX)) as u8 },
    })
}

/// The Momentum Test Chart row for coming under HE, bombs or a blast.
pub fn he_cause(build: Build) -> CmCause {
    match build {
        Build::Afv { open_topped: true, .. } => CmCause::OpenAfvUnderHe,
        Build::Afv { .. } => CmCause::ClosedAfvUnderHe,
        _ => CmCause::MortarArtilleryOrAir,
    }
}

/// *Heroes All*, "Hits on buildings & structures": an HE hit on an element
/// inside a standing building hits the building — the table doubled, the
/// Defence Value absorbing it, any surplus falling on the occupants when it
/// is destroyed, a 6 setting it on fire. Returns the occupants' casualties,
/// or `None` when the element is not in a standing building (a ruin is hard
/// cover and the hit falls on the men).
pub fn building_hit(
    battle: &mut HeldBattle,
    f: &ElementView,
    column: HeColumn,
    dice: &mut Dice,
    (log, failures): (&mut super::log::BattleLog, &mut super::invariant::InvariantFailures),
    bound: u32,
) -> Option<u8> {
    let (feature, _) = geometry::building_at(&battle.terrain, f.place.at)?;
    let k = battle.buildings.iter().position(|(k, _)| *k == feature)?;
    let mut b = battle.buildings[k].1;
    if matches!(b.state, BuildingState::Destroyed(_)) {
        return None;
    }
    let occupants = f.men().min(u32::from(u8::MAX)) as u8;
    let (out, e) = match b.hit(HeHit::he(column), occupants, dice, &format!("building {feature}")) {
        Ok(hit) => hit,
        Err(e) => {
            failures.record(log, bound, "building hit", f.id(), format!("the hit on building {feature}: {e:?}"));
            return None;
        }
    };
    log.push(bound, e.target(f.id().to_owned()));
    battle.apply(BattleChange::Building(k, b));
    Some(out.casualties)
}

/// The element leaves the table for good (or for the box).
pub(super) fn leave(log: &mut super::log::BattleLog, bound: u32, f: &mut Held, status: Status, why: &str) {
    let ev = RuleEvent::new(EventKind::Leaves, RuleRef::new(Book::FightYourOwnBattles, "Continuous Momentum"))
        .actor(f.id())
        .input("cms", f.force.element.cms, why)
        .outcome(serde_json::json!({ "status": status }));
    log.push(bound, ev);
    f.apply(Change::Leave(status));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toward_stops_at_the_destination() {
        assert_eq!(toward(Point(0.0, 0.0), Point(3.0, 4.0), 10.0), Point(3.0, 4.0));
        let p = toward(Point(0.0, 0.0), Point(3.0, 4.0), 2.5);
        assert!((p.0 - 1.5).abs() < 1e-5 && (p.1 - 2.0).abs() < 1e-5);
    }

    #[test]
    fn edges_hold_points_on_the_table() {
        let t = TableSize { width: 72.0, depth: 48.0 };
        assert_eq!(edge_point(t, Edge::Far, 100.0), Point(71.0, 47.0));
        assert_eq!(from_edge(t, Edge::Far, Point(5.0, 40.0)), 8.0);
    }
}
