//! Transports (*Heroes All* and FYOB, "Transport elements"; FYOB "Order
//! Dice", Act: "get into/out of a vehicle"): an element rides in the
//! transport the scenario puts it aboard, or gets into an empty transport of
//! its side in contact with an Act, and gets out beside it with an Act.
//! Aboard, it is under its own NCO and the transport under him: its Move
//! phase drives the transport, its Fire phase fires the transport's weapons,
//! and it is neither seen nor hit but through the vehicle. A loaded
//! transport takes no card of its own; an empty one acts as a Regular
//! element. A transport knocked out with men aboard puts them out at the
//! wreck, a brewed one with "a d6 less 2" casualties, and they owe the CM
//! tests of "transport destroyed whilst the element loaded".

use super::change::{Change, Held};
use crate::prelude::*;
use warbound_rules::{
    effects::{self, VehicleState},
    event::{Book, EventKind, RuleEvent, RuleRef},
    firing::Cover,
    geometry::distance,
    inches::Inches,
    loads::{self, Loads},
    momentum::Incident,
    order_dice::{Act, Phase},
    scenario::Edge,
    terrain::Point,
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{Command, Current},
    log::BattleLog,
    pair_mut,
    shared::{CONTACT, toward},
    sorted,
    state::{ElementView, Flow, Status},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        FlowSchedule,
        (act_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))), wrecks.in_set(FlowSet::Card)),
    );
}

/// Reading: men getting out stand 1" from the vehicle, on the side away
/// from the enemy's edge (the vehicle between them and the enemy).
const DISMOUNT: Inches = Inches(1.0);

fn rule() -> RuleRef {
    RuleRef::new(Book::HeroesAll, "Transport elements")
}

fn act_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    match current.0.clone() {
        Some(Command::Embark { element, transport }) => {
            current.0 = None;
            embark(&mut t, &element, &transport);
        }
        Some(Command::Disembark { element }) => {
            current.0 = None;
            disembark(&mut t, &element);
        }
        _ => return,
    }
    super::turn::phase_done(&mut t, Phase::Act, &[Act::EmbarkOrDisembark]);
}

/// The element that moves for `element`: the transport it rides in, else itself.
pub(super) fn driver(t: &mut Battlefield, element: &str) -> String {
    let view = |i: Option<usize>| i.and_then(|i| t.elements.view_at(&t.roster, i));
    let ridden = view(t.roster.index(element)).and_then(|f| f.presence.status.aboard());
    view(ridden).map_or_else(|| element.to_owned(), |v| v.id().to_owned())
}

/// The transport that carries `f` onto the table from the box: one of its
/// side that carries it and is still to come on or on the table.
pub(super) fn carried_on(els: &[Held], f: &Held) -> Option<usize> {
    if !matches!(f.presence.status, Status::Waiting(_)) {
        return None;
    }
    els.iter().position(|v| {
        v.identity.side == f.identity.side
            && v.force.carrying() == Some(f.id())
            && matches!(v.presence.status, Status::Waiting(_) | Status::OnTable)
    })
}

/// Whoever rides in `transport` moves to where it stands now.
pub(super) fn ride(t: &mut Battlefield, transport: &str) {
    let Some(k) = t.roster.index(transport) else { return };
    if !t.elements.any(|f| f.presence.status.aboard() == Some(k)) {
        return;
    }
    let mut els = sorted(&mut t.elements);
    let (at, moved) = (els[k].place.at, els[k].actions.this_bound.moved);
    for f in els.iter_mut().filter(|f| f.presence.status.aboard() == Some(k)) {
        if f.place.at != at {
            f.apply(Change::Move { to: at, moved });
        }
    }
}

/// What `passenger` loads a transport with (*Heroes All*, "Loads and
/// carrying capacity"): each man 1 load and his kit besides.
pub fn load(passenger: &ElementView, codex: &warbound_rules::codex::Codex) -> Option<Loads> {
    let mut load = passenger.force.element.load(codex).ok()?;
    load += passenger.force.explosives.iter().map(|&k| warbound_rules::explosives::load(k)).sum();
    Some(load)
}

/// Why `me` may not get into `transport` now, if it may not: an empty
/// transport of its side on the table, in contact, with room for its men
/// and kit.
pub fn embark_refused(
    me: &ElementView,
    transport: &ElementView,
    codex: &warbound_rules::codex::Codex,
) -> Option<String> {
    if transport.identity.side != me.identity.side || !transport.presence.status.on_table() {
        return Some("that is no transport of its side on the table".into());
    }
    match transport.force.transport() {
        None => return Some("that vehicle is not allocated to transport duties".into()),
        Some(Some(_)) => return Some("the transport carries another element already".into()),
        Some(None) => {}
    }
    if transport.spent() {
        return Some("the transport is knocked out".into());
    }
    if me.force.build.is_vehicle() {
        return Some("a vehicle does not ride in a transport".into());
    }
    if me.presence.status.aboard().is_some() {
        return Some("it is aboard a transport already".into());
    }
    let gap = distance(me.place.at, transport.place.at).get();
    if gap > CONTACT {
        return Some(format!("the transport is {gap:.1} inches away: it must be in contact ({CONTACT:.0} inches)"));
    }
    let capacity = capacity(transport, codex)?;
    let load = load(me, codex)?;
    loads::fits(capacity, &[load]).err().map(|e| e.to_string())
}

/// The carriage capacity of a transport's vehicles, from the CODEX.
fn capacity(transport: &ElementView, codex: &warbound_rules::codex::Codex) -> Option<Loads> {
    let mut total = Loads::whole(0);
    for p in &transport.force.element.pieces {
        total += loads::codex_capacity(codex.get(&p.codex).ok()?).ok()?;
    }
    Some(total)
}

pub(super) fn embark(t: &mut Battlefield, element: &str, transport: &str) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let mut els = sorted(&mut t.elements);
    let (Some(i), Some(k)) = (t.roster.index(element), t.roster.index(transport)) else {
        t.failures.record(&mut t.log, bound, "embark", element, format!("no {element} or no {transport}"));
        return;
    };
    if i == k {
        t.failures.record(&mut t.log, bound, "embark", element, "an element cannot ride in itself".into());
        return;
    }
    let (me, vehicle) = pair_mut(&mut els, i, k);
    let (load, capacity) = (load(&me.view(), &codex), capacity(&vehicle.view(), &codex));
    let ev = RuleEvent::new(EventKind::Movement, rule())
        .actor(element)
        .target(transport)
        .input("act", Act::EmbarkOrDisembark, "get into/out of a vehicle is an Act (FYOB, Order Dice)")
        .input("load", load.map(|l| l.to_string()), "each man 1 load, his kit besides")
        .input("capacity", capacity.map(|c| c.to_string()), "the transport's carriage capacity")
        .outcome(serde_json::json!({ "aboard": transport }));
    t.log.push(bound, ev);
    let at = vehicle.place.at;
    me.apply(Change::Move { to: at, moved: true });
    me.apply(Change::Board(Some(k as u16)));
    vehicle.apply(Change::Carrying(Some(element.to_owned())));
}

/// Where men getting out of a vehicle at `at` stand: [`DISMOUNT`] towards
/// their own edge.
fn beside(t: &Battlefield, at: Point, side: usize) -> Point {
    let table = t.battle.start.scenario.table;
    let edge: Edge = t.sides.0[side].edge;
    let home = super::shared::nearest_on_edge(table, edge, at);
    if distance(at, home).get() < DISMOUNT.0 { at } else { toward(at, home, DISMOUNT) }
}

pub(super) fn disembark(t: &mut Battlefield, element: &str) {
    let bound = t.battle.clock.bound();
    let els = t.elements.views();
    let Some(f) = t.roster.find(&els, element) else { return };
    let (Some(k), side) = (f.presence.status.aboard(), f.identity.side) else {
        t.failures.record(&mut t.log, bound, "disembark", element, "it rides in no transport".into());
        return;
    };
    let vehicle = els[k].id().to_owned();
    let at = els[k].place.at;
    drop(els);
    let to = beside(t, at, side);
    let ev = RuleEvent::new(EventKind::Movement, rule())
        .actor(element)
        .target(vehicle.as_str())
        .input("act", Act::EmbarkOrDisembark, "get into/out of a vehicle is an Act (FYOB, Order Dice)")
        .outcome(serde_json::json!({ "out_at": (to.0, to.1) }));
    t.log.push(bound, ev);
    get_out(t, element, k, to);
}

/// `element` leaves transport `k` and stands at `to`.
fn get_out(t: &mut Battlefield, element: &str, k: usize, to: Point) {
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(element) else { return };
    let (me, vehicle) = pair_mut(&mut els, i, k);
    me.apply(Change::Board(None));
    me.apply(Change::Move { to, moved: me.actions.this_bound.moved });
    if vehicle.force.carrying() == Some(element) {
        vehicle.apply(Change::Carrying(None));
    }
}

/// Men aboard a transport no longer on the table, or knocked out, get out
/// where it stands (*Heroes All*, "Small arms, mortar or HE fire against
/// soft-skinned vehicles": "If the vehicle is brewed, throw a d6 and deduct
/// 2 for crew casualties" — the passengers, as in the QLD example). Reading:
/// a transport gone from the table to the box or out of the battle takes its
/// passengers with it; a destroyed or brewed one leaves them at the wreck,
/// owing the FYOB chart's "If transport destroyed whilst the element loaded"
/// (test `men_aboard_a_brewed_transport_get_out_at_the_wreck`).
fn wrecks(mut t: Battlefield) {
    let elements = &t.elements;
    let view = |i: Option<usize>| i.and_then(|i| elements.view_at(&t.roster, i));
    let due = elements.any(|f| {
        let left = f.force.carrying().is_some_and(|p| {
            f.presence.status.on_table()
                && view(t.roster.index(p))
                    .is_none_or(|p| p.presence.status.aboard() != Some(usize::from(f.identity.index)))
        });
        let stranded = f
            .presence
            .status
            .aboard()
            .is_some_and(|k| view(Some(k)).is_none_or(|v| !v.presence.status.on_table() || v.spent()));
        left || stranded
    });
    if !due {
        return;
    }
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    // Men who left their transport by their own CM tests (back to the box,
    // surrendered) leave it empty.
    let left: Vec<usize> = (0..els.len())
        .filter(|&k| {
            els[k].force.carrying().is_some_and(|p| {
                els[k].presence.status.on_table()
                    && t.roster.find(&els, p).is_none_or(|p| p.presence.status.aboard() != Some(k))
            })
        })
        .collect();
    for k in left {
        let ev = RuleEvent::new(EventKind::Movement, rule())
            .actor(els[k].id())
            .input("passengers", els[k].force.carrying(), "gone from it")
            .outcome(serde_json::json!({ "empty": true }));
        t.log.push(bound, ev);
        els[k].apply(Change::Carrying(None));
    }
    let stranded: Vec<(usize, usize)> = els
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.presence.status.aboard().map(|k| (i, k)))
        .filter(|&(_, k)| !els[k].presence.status.on_table() || els[k].spent())
        .collect();
    for (i, k) in stranded {
        let (me, vehicle) = pair_mut(&mut els, i, k);
        let status = vehicle.presence.status;
        let destroyed = vehicle.spent() || status == Status::Destroyed;
        if !destroyed {
            // Gone with its transport: to the box, or out of the battle.
            leave_with(&mut t.log, bound, me, status, vehicle.id());
            continue;
        }
        let men = me.men().min(u32::from(u8::MAX)) as u8;
        let (lost, event) = effects::brew_casualties(men, &mut t.dice.0);
        t.log.push(bound, event.actor(vehicle.id()).target(me.id()));
        let fell = me.apply(Change::LoseMen(u32::from(lost)));
        super::shared::casualties((&mut t.log, &mut t.failures), &mut t.dice.0, bound, &mut t.sides, me, fell);
        let incidents = [(Incident::TransportDestroyed, 1), (Incident::Casualty(Cover::Open), fell)];
        let rows = super::shared::accrue(me, &incidents, false);
        let ev = RuleEvent::new(EventKind::Movement, rule())
            .actor(me.id())
            .target(vehicle.id())
            .input("transport", vehicle.vehicle.state.unwrap_or(VehicleState::Brewed), "destroyed under its passengers")
            .input("tests", rows, "FYOB: if transport destroyed whilst the element loaded")
            .outcome(serde_json::json!({ "out_at": (vehicle.place.at.0, vehicle.place.at.1), "casualties": lost }));
        t.log.push(bound, ev);
        me.apply(Change::Board(None));
        if vehicle.force.carrying().is_some() {
            vehicle.apply(Change::Carrying(None));
        }
        if me.spent() {
            super::shared::leave(&mut t.log, bound, me, Status::Destroyed, "every man lost with its transport");
        }
    }
}

/// Passengers go where their transport went, off the table.
fn leave_with(log: &mut BattleLog, bound: u32, me: &mut Held, status: Status, transport: &str) {
    let ev = RuleEvent::new(EventKind::Leaves, rule())
        .actor(me.id())
        .target(transport)
        .input("transport", transport.to_owned(), "the passengers ride with it")
        .outcome(serde_json::json!({ "status": status }));
    log.push(bound, ev);
    me.apply(Change::Leave(status));
}
