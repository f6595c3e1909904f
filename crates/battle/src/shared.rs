//! Measures and changes on the table shared by the flow systems: edges,
//! straight-line moves, casualties and the CM tests a target accrues.

use super::change::{BattleChange, Change, Held, HeldBattle, HeldSides, SideChange};
use warbound_rules::inches::Inches;
use warbound_rules::{
    buildings::{HeHit, State as BuildingState},
    codex::Codex,
    command::MoraleCause,
    concealment::ConcealedActivity,
    dice::Dice,
    effects::HeTarget,
    fire_tests::{ChartTarget, FireResults},
    firing::Cover,
    geometry::{self, distance},
    momentum::{self, CmCause, ElementType, Incident, OutOfAmmunition},
    officer,
    scenario::Edge,
    terrain::{Feature, Point, TableSize, Terrain, inside},
};

use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use super::state::{Build, ElementView, SideState, Status};
use warbound_rules::command::Activity;

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
pub fn toward(a: Point, b: Point, d: Inches) -> Point {
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

/// Which part of the Momentum Test Chart an element reads (FYOB
/// "Definitions of element types for CM purposes").
pub fn chart_of(f: &ElementView) -> ChartTarget {
    match f.force.build {
        Build::Infantry | Build::Guns { .. } => ChartTarget::Infantry { figures: !f.force.element.figures.is_empty() },
        Build::Afv { open_topped, .. } => ChartTarget::Afv { open_topped },
        Build::SoftSkin => ChartTarget::SoftSkin,
    }
}

/// How far `p` is from cover, and the nearest point of cover (FYOB "Results
/// of Momentum Tests": "If the element is in the open it may move towards
/// cover"). Reading: cover is a wood, a building (standing or a ruin) or an
/// obstacle (a hedge, a wall) to lie behind; `p` inside a wood or a building
/// is in it, 0 inches off (test `a_pinned_element_in_the_open_moves_only_towards_cover`).
pub fn from_cover(terrain: &Terrain, p: Point) -> Option<(Inches, Point)> {
    let mut best: Option<(Inches, Point)> = None;
    let mut consider = |q: Point| {
        let d = distance(p, q);
        if best.is_none_or(|(b, _)| d < b) {
            best = Some((d, q));
        }
    };
    for feature in &terrain.features {
        let (line, closed) = match feature {
            Feature::Wood { outline, .. } | Feature::Building { outline, .. } => {
                if inside(outline, p) {
                    return Some((Inches(0.0), p));
                }
                (outline, true)
            }
            Feature::Obstacle { line, .. } => (line, false),
            _ => continue,
        };
        let ends = if closed { line.len() } else { line.len().saturating_sub(1) };
        for k in 0..ends {
            consider(nearest_on_segment(p, line[k], line[(k + 1) % line.len()]));
        }
    }
    best
}

/// The point of the segment from `a` to `b` nearest `p`.
fn nearest_on_segment(p: Point, a: Point, b: Point) -> Point {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    if len2 <= f32::EPSILON {
        return a;
    }
    let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0);
    Point(a.0 + dx * t, a.1 + dy * t)
}

/// Within this of cover an element is in it: in a wood or a building, at
/// its edge, or lying behind a hedge or a wall.
pub const IN_COVER: Inches = Inches(1.0);

/// Why a move from `from` to `to` is barred to an element whose tests let it
/// move only towards cover (FYOB "Results of Momentum Tests", 3 to 6
/// failures: "If the element is in the open it may move towards cover but
/// may not move towards the enemy"). Reading: an element already in cover
/// stays where it is; one in the open may move only where it ends nearer
/// cover than it started (test `a_pinned_element_in_the_open_moves_only_towards_cover`).
pub fn towards_cover_bars(terrain: &Terrain, from: Point, to: Point) -> Option<&'static str> {
    let Some((here, _)) = from_cover(terrain, from) else {
        return Some("there is no cover on the table to move towards");
    };
    if here <= IN_COVER {
        return Some("its CM tests this bound let it move only in the open, towards cover: in cover it stays");
    }
    // A move that goes nowhere (the Player's window asking whether a move
    // may be declared at all) leads neither away from cover nor towards it.
    if distance(from, to) <= f32::EPSILON {
        return None;
    }
    match from_cover(terrain, to) {
        Some((there, _)) if there < here => None,
        _ => Some("its CM tests this bound let it move only towards cover"),
    }
}

/// Whether `a`'s order is to support `b`: "Support - x unit from y
/// position" (FYOB "Orders & Objectives"), x naming `b` or `b`'s company.
fn supports(a: &ElementView, b: &ElementView, sides: &[SideState]) -> bool {
    let objective = &a.order.objective;
    let x = objective.detail.trim();
    a.identity.side == b.identity.side
        && objective.activity == Activity::Support
        && (x == b.id()
            || sides.get(b.identity.side).and_then(|s| s.companies.get(b.identity.company)).is_some_and(|c| c.id == x))
}

/// FYOB "Momentum Test Chart": "If attached AFV lost from the element" (the
/// infantry chart) and "If supporting infantry forced to retire" (the AFVs').
/// Readings (test `infantry_and_their_tanks_test_for_each_others_loss`): an
/// AFV is attached to an element, and infantry support an AFV, where either's
/// Support order names the other or the other's company (the Churchills sent
/// to support C Company, a platoon sent to support a tank); the AFV is lost
/// once it has left the table by any road (brewed, abandoned, surrendered,
/// back to the box), the infantry forced to retire once back in the box. Each
/// loss makes its tests due once, in the turn of the element that suffered
/// it (tests are taken in its turn), and again only if the partner comes back
/// and is lost anew. Returns the rows accrued.
pub(super) fn partners_lost(
    log: &mut super::log::BattleLog,
    bound: u32,
    els: &mut [Held],
    i: usize,
    sides: &[SideState],
) -> Vec<(CmCause, u32)> {
    let me = els[i].view();
    let mine = me.force.build.element_type();
    let lost = |p: &ElementView| match (mine, p.force.build) {
        (ElementType::Infantry, Build::Afv { .. }) => {
            !matches!(p.presence.status, Status::OnTable | Status::Aboard(_) | Status::Waiting(_) | Status::Reserve)
        }
        (ElementType::Afv, Build::Infantry) => p.presence.status == Status::Retired,
        _ => false,
    };
    let incident =
        if mine == ElementType::Infantry { Incident::AttachedAfvLost } else { Incident::SupportingInfantryRetired };
    let mut counted = Vec::new();
    let mut new = Vec::new();
    for (j, p) in els.iter().enumerate() {
        let p = p.view();
        if j == i || !(supports(&me, &p, sides) || supports(&p, &me, sides)) || !lost(&p) {
            continue;
        }
        counted.push(p.id().to_owned());
        if !me.momentum.partners_lost.iter().any(|id| id == p.id()) {
            new.push(p.id().to_owned());
        }
    }
    if counted == me.momentum.partners_lost {
        return Vec::new();
    }
    let f = &mut els[i];
    let mut rows = Vec::new();
    if !new.is_empty() {
        let (t, open_topped) = chart_of(&f.view()).chart();
        rows = momentum::test_set(t, open_topped, &[(incident, new.len() as u32)], false);
        let ev = RuleEvent::new(EventKind::Casualties, RuleRef::new(Book::FightYourOwnBattles, "Momentum Test Chart"))
            .actor(f.id())
            .input("partners", &new, "attached AFV lost, or supporting infantry forced to retire")
            .outcome(serde_json::json!({ "accrued": rows }));
        log.push(bound, ev);
    }
    f.apply(Change::PartnersLost(counted));
    for &(cause, n) in &rows {
        f.apply(Change::Accrue(cause, n));
    }
    rows
}

/// The element's weapons that have fired their last round of the day (FYOB
/// "Momentum Test Chart", the "out of ammunition" rows). Readings (test
/// `weapons_out_of_ammunition_add_their_grey_rows_each_time_tests_are_due`):
/// a crew-served weapon is any CODEX weapon piece of the element, an
/// artillery piece one of an artillery element; on a vehicle the machine guns
/// are its MMGs, its first other armament its main gun and any later one a
/// secondary gun. A weapon with unlimited rounds never runs out.
pub fn out_of_ammunition(f: &ElementView, codex: &Codex) -> Vec<OutOfAmmunition> {
    use warbound_rules::codex::Kind;
    use warbound_rules::firing::Weapon as W;
    let mut out = Vec::new();
    for piece in &f.force.element.pieces {
        let Ok(entry) = codex.get(&piece.codex) else { continue };
        let mut guns = 0;
        for (armament, rounds) in entry.armament.iter().zip(&piece.rounds) {
            let mg = matches!(armament.row, W::TankMg | W::Mmg | W::Hmg | W::Lmg);
            let which = match (entry.kind, f.force.build) {
                (Kind::Weapon, Build::Guns { artillery: true }) => OutOfAmmunition::ArtilleryPiece,
                (Kind::Weapon, _) => OutOfAmmunition::Csw,
                _ if mg => OutOfAmmunition::VehicleMmg,
                _ => {
                    guns += 1;
                    if guns == 1 { OutOfAmmunition::MainGun } else { OutOfAmmunition::SecondaryGun }
                }
            };
            if *rounds == Some(0) {
                out.push(which);
            }
        }
    }
    out
}

/// The cover an element has where it stands, from fire that comes from no
/// direction (shells, bombs): inside a building hard, in a wood soft, else open.
pub fn cover_where(sight: &super::visible::Sight, at: Point) -> Cover {
    if sight.in_building(at) {
        Cover::Hard
    } else if sight.in_wood(at).is_some() {
        Cover::Soft
    } else {
        Cover::Open
    }
}

/// One set of CM tests for `f`: what happened to it, on the rows of its own
/// chart (`momentum::row_for`; what its chart lacks makes no tests due), and
/// under fire from an unobserved enemy when `unobserved`. The only way tests
/// are accrued in the battle. Returns the rows accrued.
pub(super) fn accrue(f: &mut Held, incidents: &[(Incident, u32)], unobserved: bool) -> Vec<(CmCause, u32)> {
    let (t, open_topped) = chart_of(&f.view()).chart();
    let rows = momentum::test_set(t, open_topped, incidents, unobserved);
    for &(cause, n) in &rows {
        f.apply(Change::Accrue(cause, n));
    }
    rows
}

/// The set of tests one firing element's fire this bound leaves on `f`
/// (FYOB: "An element coming under fire or taking casualties from 2 separate
/// elements in a bound will accrue 2 or more sets of tests"): its event,
/// finished by `log` (which adds the caller's inputs and logs it), comes
/// before the tests are applied; `by` says what fired.
pub(super) fn accrue_fire(
    f: &mut Held,
    fire: &FireResults,
    (unobserved, cover): (bool, Cover),
    by: &str,
    log: impl FnOnce(RuleEvent),
) {
    let (t, open_topped) = chart_of(&f.view()).chart();
    let rows = momentum::test_set(t, open_topped, &fire.incidents(chart_of(&f.view()), cover), unobserved);
    log(RuleEvent::new(EventKind::Casualties, RuleRef::new(Book::FightYourOwnBattles, "Momentum Test Chart"))
        .actor(f.id())
        .input("fire", by, "one set of tests for each firing element")
        .input("casualties", fire.casualties, "one per hit on men; HE and AT from their tables")
        .input("unobserved_firer", unobserved, "under fire from unobserved enemy")
        .input("from_armour", fire.from_armour, "under fire from armour: with a suitable AT weapon, or without")
        .outcome(serde_json::json!({
            "accrued": rows,
            "men": f.men(),
            "vehicle": f.vehicle.state,
        })));
    for &(cause, n) in &rows {
        f.apply(Change::Accrue(cause, n));
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
    hit: HeHit,
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
    let (out, e) = match b.hit(hit, occupants, dice, &format!("building {feature}")) {
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

/// What men lost cost an element beyond the men, whatever took them (fire,
/// shells, bombs, a blast, mines, a glider's landing): FYOB "NCO is a
/// casualty" ("When an element takes casualties, throw a D6 for each man
/// lost. A score of 1 indicates that the NCO has been hit") and "Company
/// Officer as a casualty" ("If the element to which a CO is attached takes
/// casualties, test ... twice (for NCO and then CO)"), and the 2-player
/// game's morale throws (*Heroes All*, "Morale": "For each casualty
/// sustained, infantry/CSW/engineer/etc elements throw 1D10"). Every step
/// that takes men calls it once for each incident, after the men are taken
/// (test `a_salvo_that_kills_men_can_kill_their_nco`).
pub(super) fn casualties(
    (log, failures): (&mut super::log::BattleLog, &mut super::invariant::InvariantFailures),
    dice: &mut Dice,
    bound: u32,
    sides: &mut HeldSides,
    f: &mut Held,
    lost: u32,
) {
    if lost == 0 {
        return;
    }
    if f.force.build.element_type() == ElementType::Infantry {
        f.apply(Change::MoraleDue(MoraleCause::Casualty, lost));
    }
    let (s, c) = (f.identity.side, f.identity.company);
    let co_attached = sides.0[s].companies.get(c).is_some_and(|co| co.co_alive && co.attached_to == f.id());
    let (result, event) = match officer::casualty_check(lost, co_attached, dice, f.id()) {
        Ok(checked) => checked,
        Err(e) => {
            let what = format!("the officer casualty check cannot be resolved: {e:?}");
            failures.record(log, bound, "casualties", f.id(), what);
            return;
        }
    };
    log.push(bound, event);
    if result.nco_hit && f.force.element.nco.is_some() {
        // A successor hit is lost in turn; another is nominated.
        if sides.0[s].companies.get(c).is_some_and(|co| co.successor.as_deref() == Some(f.id())) {
            sides.apply(s, SideChange::Successor(c, None));
        }
        f.apply(Change::NcoLost);
        accrue(f, &[(Incident::NcoHit, 1)], false);
    }
    if result.co_hit == Some(true) && c < sides.0[s].companies.len() {
        sides.apply(s, SideChange::CoLost(c));
    }
    foo_casualty((log, dice, bound), sides, f, lost);
}

/// A FOO with the element is hit as its attached CO is (*Heroes All*,
/// "Direct Fire Support": "In the event that the FOO is a casualty"; FYOB
/// "Company Officer as a casualty"): a D6 for each man lost, a 1 is he.
fn foo_casualty(
    (log, dice, bound): (&mut super::log::BattleLog, &mut Dice, u32),
    sides: &mut HeldSides,
    f: &Held,
    lost: u32,
) {
    let s = f.identity.side;
    for k in 0..sides.0[s].foos.len() {
        let mut fo = sides.0[s].foos[k].clone();
        if !fo.alive || fo.with != f.id() {
            continue;
        }
        let faces: Vec<u8> = (0..lost).map(|_| warbound_rules::dice::Roll::face(dice, 6)).collect();
        let hit = faces.contains(&1);
        let event = RuleEvent::new(EventKind::OfficerCasualty, RuleRef::new(Book::HeroesAll, "Direct Fire Support"))
            .actor(fo.id.clone())
            .target(f.id())
            .input("men_lost", lost, "one D6 per man lost with his element; a 1 is the FOO")
            .dice(6, &faces)
            .outcome(serde_json::json!({ "foo_hit": hit }));
        log.push(bound, event);
        if hit {
            fo.alive = false;
            sides.apply(s, SideChange::Foo(k, fo));
        }
    }
}

/// A concealed element that observes, fires or moves gives its position
/// away (FYOB "Concealed element activity": "A concealed element may not
/// observe, fire or move without revealing its position"); a sniper firing
/// stays concealed (*Heroes All*, "Snipers": "Snipers do not need to take
/// any tests after firing to see if they have revealed their location").
/// Activated, it is declared real at the counter where it stands (FYOB
/// "Placement options": "must be declared as real or dummy if activated to
/// move, observe or fire"), so its other counters go.
/// Test `observing_or_firing_reveals_a_concealed_element`.
pub(super) fn reveal(log: &mut super::log::BattleLog, bound: u32, f: &mut Held, what: ConcealedActivity) {
    let at = f.place.at;
    reveal_at(log, bound, f, what, at);
}

/// [`reveal`], for an element that stood at `at` when it was activated (a
/// move reveals it once made, from where it started).
pub(super) fn reveal_at(log: &mut super::log::BattleLog, bound: u32, f: &mut Held, what: ConcealedActivity, at: Point) {
    if !f.concealment.concealed() {
        return;
    }
    let mut concealment = f.concealment.clone();
    let counter = concealment.counter_at(at);
    let acted = counter.and_then(|k| concealment.state.as_mut().map(|c| c.act(what, k)));
    let reveals = !matches!(acted, Some(Ok(false)));
    let ev =
        RuleEvent::new(EventKind::Concealment, RuleRef::new(Book::FightYourOwnBattles, "Concealed element activity"))
            .actor(f.id())
            .input("activity", what, "observing, firing or moving reveals a concealed element")
            .input("counter", counter, "declared real: the counter where it stands")
            .outcome(serde_json::json!({ "revealed": reveals }));
    log.push(bound, ev);
    if reveals {
        f.apply(Change::Revealed);
    } else {
        f.apply(Change::Concealment(concealment));
    }
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

/// FYOB "Radios": "If, during a game, (i) an infantry element is hit by
/// mortar or artillery fire from a weapon with a calibre of 81mm or more,
/// (ii) an AFV or vehicle carrying a radio is damaged by AT or HE fire or
/// during an assault ... then the radio set must be netted in again": the
/// element's set, if it carries one on the net, goes off it (`why`: what hit
/// it) until an Act's Radio Test nets it in. Test
/// `a_set_knocked_off_the_net_is_netted_in_again_by_an_act`.
pub(super) fn knock_off_net(log: &mut super::log::BattleLog, bound: u32, f: &mut Held, why: &str) {
    if !f.force.radio || f.force.off_net.is_some() || !f.presence.status.on_table() {
        return;
    }
    let ev = RuleEvent::new(EventKind::RadioTest, RuleRef::new(Book::FightYourOwnBattles, "Radio netting-in"))
        .actor(f.id())
        .input("hit", why, "the radio set must be netted in again")
        .outcome(serde_json::json!({ "off_net": true }));
    log.push(bound, ev);
    f.apply(Change::OffNet(Some(warbound_rules::strategic::RadioNet::default())));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toward_stops_at_the_destination() {
        assert_eq!(toward(Point(0.0, 0.0), Point(3.0, 4.0), Inches(10.0)), Point(3.0, 4.0));
        let p = toward(Point(0.0, 0.0), Point(3.0, 4.0), Inches(2.5));
        assert!((p.0 - 1.5).abs() < 1e-5 && (p.1 - 2.0).abs() < 1e-5);
    }

    #[test]
    fn edges_hold_points_on_the_table() {
        let t = TableSize { width: 72.0, depth: 48.0 };
        assert_eq!(edge_point(t, Edge::Far, 100.0), Point(71.0, 47.0));
        assert_eq!(from_edge(t, Edge::Far, Point(5.0, 40.0)), 8.0);
    }
}
