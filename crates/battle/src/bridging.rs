//! Bridges and rivers on the table (*Heroes All*, "Bridges", "Pontoon
//! bridges", "Rivers"): men on foot wade a small river, getting in and out
//! each an Act;
//! engineers under an Engineering order at a bridging site throw a D6 a man
//! (6 at most) each bound they do nothing else, and at 60 the pontoon (a
//! Type A bridge) spans the river; a bridge-laying tank there throws a D10
//! with its Act and at 6 lays its own; a charge going off on a bridge takes
//! the HE Effects Table result off its Defence Value, and at 0 it is gone
//! from the table; men in contact with a damaged bridge mend it.

use super::change::{BattleChange, Change, HeldBattle};
use crate::prelude::*;
use warbound_rules::inches::Inches;
use warbound_rules::movement::Terrain as Ground;
use warbound_rules::{
    buildings::{Bridge, BridgeType},
    effects::HeColumn,
    engineers::{self, PONTOON_CREW_MAX},
    event::{Book, EventKind, RuleEvent, RuleRef},
    explosives::ChargeKind,
    geometry::distance,
    order_dice::{Act, Phase},
    scenario::BridgingSite,
    terrain::{Feature, Point, Terrain, distance_to_segment},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{Command, Current},
    invariant::InvariantFailures,
    log::BattleLog,
    state::{BridgeState, ElementView, Flow, Pontoon},
};

/// Reading: "having moved up to the bank of the river" is within 2" of the
/// span's end on the engineers' bank.
pub const AT_THE_BANK: f32 = 2.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, act_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

/// The sides' bridging sites, no work done.
pub(super) fn pontoons(start: &super::setup::BattleStart) -> Vec<Pontoon> {
    let sides = start.scenario.sides.iter().enumerate();
    sides
        .flat_map(|(side, s)| {
            s.bridging.iter().map(move |site| Pontoon {
                side,
                site: site.clone(),
                task: engineers::pontoon(),
                laying: engineers::layer_task(),
            })
        })
        .collect()
}

/// Every bridge of the terrain at its full Defence Value.
pub(super) fn bridges(terrain: &Terrain) -> Vec<BridgeState> {
    let mut out = Vec::new();
    for (river, f) in terrain.features.iter().enumerate() {
        if let Feature::River { bridges, .. } = f {
            out.extend(bridges.iter().map(|b| BridgeState {
                river,
                span: b.span,
                bridge: Bridge::new(b.kind),
                repair: Default::default(),
            }));
        }
    }
    out
}

/// The end of the site's span on `from`'s side of the river.
pub fn near_bank(site: &BridgingSite, from: Point) -> Point {
    let (a, b) = (site.span.from, site.span.to);
    if distance(from, a) <= distance(from, b) { a } else { b }
}

/// The unbuilt pontoon `f` may work on now: its side's, at its order's
/// place, `f` under an Engineering order and at the bank.
pub fn site_at(f: &ElementView, pontoons: &[Pontoon]) -> Option<usize> {
    if f.order.objective.activity != warbound_rules::command::Activity::Engineering {
        return None;
    }
    pontoons.iter().position(|p| {
        p.side == f.identity.side
            && !p.task.done()
            && p.site.place == f.order.objective.location
            && distance(f.place.at, near_bank(&p.site, f.place.at)) <= AT_THE_BANK
    })
}

/// The unbuilt pontoon site `f`'s order sends it to.
pub fn site_for(f: &ElementView, pontoons: &[Pontoon]) -> Option<usize> {
    (f.order.objective.activity == warbound_rules::command::Activity::Engineering)
        .then(|| {
            pontoons
                .iter()
                .position(|p| p.side == f.identity.side && !p.task.done() && p.site.place == f.order.objective.location)
        })
        .flatten()
}

/// Whether `f` stands at a river's edge and may wade in (or out) towards
/// `to`: men on foot whose way to `to` crosses the waterline first, into a
/// small river ("Can be crossed by infantry wading"; a wide river "can only
/// be crossed using a bridge ..., boat or raft") or out of the water.
pub fn at_waterline(f: &ElementView, sight: &super::visible::Sight, to: (f32, f32)) -> bool {
    if !(f.place.mover.class.wades() && to.0.is_finite() && to.1.is_finite()) {
        return false;
    }
    let Some(route) = sight.lines.route(sight.terrain, f.place.at, Point(to.0, to.1)) else { return false };
    route
        .stretches
        .iter()
        .find(|s| s.length > 0.01)
        .is_some_and(|s| if f.place.mover.in_water { !s.terrain.is_water() } else { s.terrain == Ground::SmallRiver })
}

/// Reading: getting in or out steps the men just over the waterline.
const WADE_STEP: Inches = Inches(0.3);

pub(super) fn wade(t: &mut Battlefield, element: &str, to: (f32, f32)) {
    let bound = t.battle.clock.bound();
    let mut els = t.elements.one(&t.roster, element);
    let Some(f) = els.as_mut() else {
        t.failures.record(&mut t.log, bound, "wade", element, format!("{} is no element of the battle", element));
        return;
    };
    let at = super::shared::toward(f.place.at, Point(to.0, to.1), WADE_STEP);
    let ev = RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Rivers"))
        .actor(element.to_owned())
        .input("act", Act::GetOutOfRiver, "getting into or out of river counts as an Act")
        .outcome(serde_json::json!({ "in_water": !f.place.mover.in_water, "at": (at.0, at.1) }));
    t.log.push(bound, ev);
    f.apply(Change::Wade);
    f.apply(Change::Move { to: at, moved: true });
}

fn act_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    if let Some(Command::Wade { element, to }) = current.0.clone() {
        current.0 = None;
        wade(&mut t, &element, to);
        super::turn::phase_done(&mut t, Phase::Act, &[Act::GetOutOfRiver]);
        return;
    }
    if let Some(Command::Repair { element }) = current.0.clone() {
        current.0 = None;
        repair(&mut t, &element);
        // "Engineers must not undertake any other action whilst they are working."
        super::turn::phase_done(&mut t, Phase::Act, &[Act::EngineeringWork; 2]);
        super::turn::end_turn(&mut t, &element);
        return;
    }
    let Some(Command::Bridge { element }) = current.0.clone() else { return };
    current.0 = None;
    if lays_bridge(&t, &element) {
        // "This type of vehicle uses its Act to undertake its task."
        lay(&mut t, &element);
        super::turn::phase_done(&mut t, Phase::Act, &[Act::EngineeringWork]);
        return;
    }
    work(&mut t, &element);
    // "Engineers ... working on the bridge cannot carry out any other
    // actions during the construction": the turn ends here.
    super::turn::phase_done(&mut t, Phase::Act, &[Act::EngineeringWork; 2]);
    super::turn::end_turn(&mut t, &element);
}

/// A bound's work on the pontoon at the bank: the element's men, up to 6,
/// a D6 each (*Heroes All*, "Pontoon bridges"); at 60 the bridge is built.
///
/// Engineers throw a whole D6 a man; the men of any other element sent to
/// the site by an Engineering order work as infantrymen ("their D6 throw
/// will be halved").
pub(super) fn work(t: &mut Battlefield, element: &str) {
    let bound = t.battle.clock.bound();
    let els = t.elements.views();
    let Some(f) = t.roster.find(&els, element) else {
        t.failures.record(&mut t.log, bound, "work", element, format!("{} is no element of the battle", element));
        return;
    };
    let Some(k) = site_at(&f.view(), &t.battle.pontoons) else { return };
    let crew = f.men().min(u32::from(PONTOON_CREW_MAX)) as u8;
    let (engineers, infantry) = if f.force.engineers { (crew, 0) } else { (0, crew) };
    drop(els);
    let mut task = t.battle.pontoons[k].task;
    let (built, e) = match task.pontoon_bound(engineers, infantry, &mut t.dice.0, element) {
        Ok(worked) => worked,
        Err(e) => {
            t.fail("pontoon work", element, format!("the work cannot be resolved: {e:?}"));
            return;
        }
    };
    t.log.push(bound, e);
    t.battle.apply(BattleChange::Pontoon(k, task, t.battle.pontoons[k].laying));
    if built {
        let site = t.battle.pontoons[k].site.clone();
        open_bridge(&mut t.battle, &mut t.log, bound, &site, "Pontoon bridges");
    }
}

/// Whether `f` is a bridge- or fascine-laying tank (its CODEX entry's
/// `lays_bridge`).
pub fn is_layer(f: &ElementView, codex: &warbound_rules::codex::Codex) -> bool {
    f.force.element.pieces.iter().any(|p| codex.get(&p.codex).is_ok_and(|e| e.lays_bridge))
}

fn lays_bridge(t: &Battlefield, element: &str) -> bool {
    let codex = &t.codex.0;
    t.roster.index(element).and_then(|i| t.elements.view_at(&t.roster, i)).is_some_and(|f| is_layer(&f, codex))
}

/// A bound's work of a bridge-laying tank at the bank of its site: "Each
/// bound, it throws a D10 and completes its task when it has an accumulated
/// score of 6"; its bridge then spans the gap, and the site needs no
/// pontoon.
pub(super) fn lay(t: &mut Battlefield, element: &str) {
    let bound = t.battle.clock.bound();
    let site = t
        .roster
        .index(element)
        .and_then(|i| t.elements.view_at(&t.roster, i))
        .and_then(|f| site_at(&f, &t.battle.pontoons));
    let Some(k) = site else {
        t.failures.record(&mut t.log, bound, "lay", element, format!("{element} is at no bridging site"));
        return;
    };
    let mut laying = t.battle.pontoons[k].laying;
    let (done, e) = match laying.layer_bound(&mut t.dice.0, element) {
        Ok(worked) => worked,
        Err(e) => {
            t.fail("bridge laying", element, format!("the work cannot be resolved: {e:?}"));
            return;
        }
    };
    t.log.push(bound, e);
    let mut pontoon = t.battle.pontoons[k].clone();
    pontoon.laying = laying;
    if done {
        pontoon.task.accumulated = pontoon.task.needed;
    }
    t.battle.apply(BattleChange::Pontoon(k, pontoon.task, pontoon.laying));
    if done {
        let site = pontoon.site.clone();
        open_bridge(&mut t.battle, &mut t.log, bound, &site, "Bridge-laying or fascine-laying tanks");
    }
}

/// Who mends a bridge: `(engineers, infantrymen)` of `f`'s men ("2
/// engineers ... 4 infantrymen").
fn menders(f: &ElementView) -> (u8, u8) {
    let men = u8::try_from(f.men()).unwrap_or(u8::MAX);
    if f.force.engineers { (men, 0) } else { (0, men) }
}

/// The damaged bridge (by its place among the bridges) `f` is in contact
/// with, and may mend now, or why not (*Heroes All*, "Repairing roads and
/// bridges": "2 engineers working on a road throw a D10 per bound. 4
/// infantrymen can also mend roads ... Engineers must not undertake any
/// other action whilst they are working"). Readings: the men are on foot
/// within 2" of the bridge's span; a bridge is mended as a road is; the
/// work is the element's whole turn, begun before it has moved, fired or
/// taken a phase.
pub(super) fn mendable(
    f: &ElementView,
    turn: &super::state::Turn,
    battle: &super::state::Battle,
) -> Result<usize, super::command::Refusal> {
    let no = |why: String| Err(super::command::refusal(Book::HeroesAll, "Repairing roads and bridges", why));
    if f.force.build.is_vehicle() {
        return no("men on foot mend a bridge".into());
    }
    let Some(k) = damaged_bridge_at(battle, f.place.at) else {
        return no("it is in contact with no damaged bridge".into());
    };
    let (engineers, infantry) = menders(f);
    if engineers < 2 && infantry < 4 {
        return no(engineers::WorkError::TooFewToRepair { engineers, infantry }.to_string());
    }
    let acts = &f.actions.this_bound;
    if !turn.taken.is_empty() || acts.moved || acts.fired {
        return no("the menders undertake no other action in the bound they work".into());
    }
    Ok(k)
}

/// The damaged bridge still standing (by its place among the bridges)
/// within 2" of `at`.
fn damaged_bridge_at(battle: &super::state::Battle, at: Point) -> Option<usize> {
    battle.bridges.iter().position(|b| {
        !b.bridge.is_destroyed()
            && b.bridge.damage() > 0
            && distance_to_segment(at, b.span.from, b.span.to) <= super::shared::CONTACT
    })
}

/// A bound's mending of the damaged bridge `element` is in contact with:
/// each 6 thrown mends a point of damage, the rest carried to the next.
pub(super) fn repair(t: &mut Battlefield, element: &str) {
    let bound = t.battle.clock.bound();
    let found = t.elements.one(&t.roster, element).map(|f| (menders(&f.view()), f.place.at));
    let Some(((engineers, infantry), at)) = found else {
        t.failures.record(&mut t.log, bound, "repair", element, format!("{element} is no element of the battle"));
        return;
    };
    let Some(k) = damaged_bridge_at(&t.battle, at) else {
        t.failures.record(&mut t.log, bound, "repair", element, "no damaged bridge in contact".to_owned());
        return;
    };
    let (mut bridge, mut mending) = (t.battle.bridges[k].bridge, t.battle.bridges[k].repair);
    match mending.work(engineers, infantry, &mut t.dice.0, element) {
        Ok((points, event)) => {
            let mended = bridge.repair(points);
            t.log.push(bound, event.input("bridge_value", bridge.value, "the bridge's Defence Value after the work"));
            if mended > 0 {
                t.battle.apply(BattleChange::Bridge(k, bridge));
            }
            t.battle.apply(BattleChange::Mending(k, mending));
        }
        Err(e) => t.fail("repair", element, format!("the work cannot be resolved: {e}")),
    }
}

/// The finished pontoon, or a bridge-laying tank's bridge, spans the river
/// (`section` names which): a Type A bridge ("Includes pontoon/temporary
/// bridges built by engineers").
fn open_bridge(battle: &mut HeldBattle, log: &mut BattleLog, bound: u32, site: &BridgingSite, section: &str) {
    let Some(river) = battle.terrain.river_crossed(&site.span) else { return };
    let ev = RuleEvent::new(EventKind::Engineering, RuleRef::new(Book::HeroesAll, section))
        .input("place", site.place.clone(), "")
        .outcome(serde_json::json!({ "built": true, "bridge": BridgeType::A }));
    log.push(bound, ev);
    battle.apply(BattleChange::BridgeOpened { river, span: site.span });
}

/// A charge going off within 2" of a bridge: its HE column's result comes
/// off the bridge's Defence Value (*Heroes All*, "Bridges": "eroded by ...
/// HE"; "Explosives": column F for a large charge, D for a small); at 0 the
/// bridge is destroyed and gone from the table.
///
/// Reading: a charge's blast is HE on the bridge like a shell's, and charges
/// "laid together" each throw for their effect.
pub(super) fn blast_bridges(
    battle: &mut HeldBattle,
    dice: &mut warbound_rules::dice::Dice,
    (log, failures): (&mut BattleLog, &mut InvariantFailures),
    bound: u32,
    at: Point,
    kind: ChargeKind,
    id: &str,
) {
    let Some(column) = kind.he_column() else { return };
    erode_bridges(battle, dice, (log, failures), bound, (at, super::shared::CONTACT), column, id);
}

/// HE bursting within `reach` inches of a bridge's span erodes it by the
/// result of its column (*Heroes All*, "Bridges": "This can be eroded by
/// mortar or artillery HE fire, or HE grenades thrown"); at 0 the bridge is
/// destroyed and gone from the table. Reading: a hit bursts on the bridge
/// where it falls within the reach at which it hits men (a battery's shell 3"
/// of its Artillery Target, a mortar's bomb or an on-table gun's shell 2" of
/// the element it hits, as a charge's blast), and each hit throws on its own.
#[allow(clippy::too_many_arguments)]
pub(super) fn erode_bridges(
    battle: &mut HeldBattle,
    dice: &mut warbound_rules::dice::Dice,
    (log, failures): (&mut BattleLog, &mut InvariantFailures),
    bound: u32,
    (at, reach): (Point, f32),
    column: HeColumn,
    id: &str,
) {
    for k in 0..battle.bridges.len() {
        let b = battle.bridges[k].clone();
        if b.bridge.is_destroyed() || distance_to_segment(at, b.span.from, b.span.to) > reach {
            continue;
        }
        let mut bridge = b.bridge;
        let e = match bridge.hit(column, dice, id) {
            Ok((_, e)) => e,
            Err(e) => {
                failures.record(log, bound, "HE", id, format!("the HE on a bridge cannot be resolved: {e:?}"));
                continue;
            }
        };
        let destroyed = bridge.is_destroyed();
        log.push(bound, e);
        battle.apply(BattleChange::Bridge(k, bridge));
        if destroyed {
            battle.apply(BattleChange::BridgeGone { river: b.river, span: b.span });
        }
    }
}
