//! Demolition charges (*Heroes All*, "Explosives"): charges a side set before
//! the battle are fired by the detonation pack (the firer within 12" and in
//! sight, 2+ on a D6, a failure kills the charge) or go off when their delay
//! has run; each blast is the HE Effects Table on its column for everyone on
//! the spot and a stun zone of CM tests around it. Engineers find a charge
//! (a 6 on the observation dice, a charge counting as 1 target figure) and
//! remove it.

use super::change::{BattleChange, Change, Held, HeldSides};
use crate::prelude::*;
use warbound_rules::{
    event::{Book, EventKind, RuleEvent, RuleRef},
    explosives::{self, Charge, ChargeKind, ChargeState},
    firing::Cover,
    geometry::{self, Viewpoint, distance},
    momentum::Incident,
    order_dice::{Act, Phase},
    terrain::{Point, distance_to_segment},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{Command, Current},
    invariant::InvariantFailures,
    log::BattleLog,
    shared::he_target,
    sorted,
    state::{Battle, Demolition, ElementView, Flow, Status},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, act_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

/// Whether `f` may fire charge `d` with the detonation pack now.
pub fn may_detonate(f: &ElementView, d: &Demolition, terrain: &warbound_rules::terrain::Terrain) -> bool {
    d.side == f.identity.side
        && d.charge.state == ChargeState::Set
        && d.charge.kind.needs_pack()
        && distance(f.place.at, d.at) <= explosives::DETONATION_PACK_RANGE
        && in_sight(f, d, terrain)
}

fn in_sight(f: &ElementView, d: &Demolition, terrain: &warbound_rules::terrain::Terrain) -> bool {
    geometry::sight_line(terrain, super::visible::viewpoint(terrain, f), Viewpoint::figure(d.at), false)
        .is_ok_and(|s| !s.between.sight_blocked)
}

/// Whether `f` is in contact with an enemy's live charge `d`.
pub fn may_clear(f: &ElementView, d: &Demolition) -> bool {
    d.side != f.identity.side && d.live() && distance(f.place.at, d.at) <= super::shared::CONTACT
}

fn act_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    if let Some(Command::ClearMines { element }) = current.0.clone() {
        current.0 = None;
        clear_mines(&mut t, &element);
        // The clearers do nothing else this bound: the turn ends here.
        super::turn::phase_done(&mut t, Phase::Act, &[Act::EngineeringWork; 2]);
        super::turn::end_turn(&mut t, &element);
        return;
    }
    if let Some(Command::SetCharge { element, kind, delay }) = current.0.clone() {
        current.0 = None;
        set_charge(&mut t, &element, kind, delay);
        // The setters do nothing else this bound: the turn ends here.
        super::turn::phase_done(&mut t, Phase::Act, &[Act::EngineeringWork; 2]);
        super::turn::end_turn(&mut t, &element);
        return;
    }
    if let Some(Command::Bangalore { element, toward }) = current.0.clone() {
        current.0 = None;
        bangalore(&mut t, &element, Point(toward.0, toward.1));
        super::turn::phase_done(&mut t, Phase::Act, &[Act::EngineeringWork; 2]);
        return;
    }
    let (element, charge, acts) = match current.0.clone() {
        Some(Command::Detonate { element, charge }) => (element, charge, 1),
        Some(Command::Clear { element, charge }) => (element, charge, 2),
        _ => return,
    };
    current.0 = None;
    charge_act(&mut t, &element, &charge, acts);
    super::turn::phase_done(&mut t, Phase::Act, &vec![Act::EngineeringWork; acts]);
}

/// An Act firing one of its side's charges with the detonation pack
/// (`acts` 1), or both Acts finding and lifting an enemy charge in contact
/// (`acts` 2) (*Heroes All*, "Explosives").
pub(super) fn charge_act(t: &mut Battlefield, element: &str, charge: &str, acts: usize) {
    let (element, charge) = (element.to_owned(), charge.to_owned());
    let bound = t.battle.clock.bound();
    let Some(k) = t.battle.charges.iter().position(|d| d.id == charge) else { return };
    let els = t.elements.views();
    let Some(i) = t.roster.index(&element) else {
        t.failures.record(&mut t.log, bound, "act_phase", &element, format!("{} is no element of the battle", element));
        return;
    };
    if acts == 1 {
        let d = distance(els[i].place.at, t.battle.charges[k].at);
        let sight = in_sight(&els[i].view(), &t.battle.charges[k], &t.battle.terrain);
        let mut now = t.battle.charges[k].charge;
        let fired = match now.detonate(d, sight, &mut t.dice.0, &element) {
            Ok((fired, e)) => {
                t.log.push(bound, e.target(charge.clone()));
                t.battle.apply(BattleChange::Charge(k, now));
                fired
            }
            Err(_) => false,
        };
        if fired {
            drop(els);
            let demolition = t.battle.charges[k].clone();
            goes_off(t, &demolition);
            return;
        }
    } else {
        let men = els[i].men();
        if !t.battle.charges[k].found
            && let Ok((spotted, e)) = explosives::detect_charges(men, 1, &mut t.dice.0, &element)
        {
            t.log.push(bound, e.target(charge.clone()));
            if spotted {
                t.battle.apply(BattleChange::ChargeFound(k));
            }
        }
        // Reading (no rule is printed for lifting a charge): found, it is
        // made safe as it was set — in contact for the bound, both Acts.
        if t.battle.charges[k].found {
            let mut now = t.battle.charges[k].charge;
            now.state = ChargeState::Dead;
            let demolition = &t.battle.charges[k];
            let ev = RuleEvent::new(EventKind::Explosives, RuleRef::new(Book::HeroesAll, "Explosives"))
                .actor(element.clone())
                .target(charge.clone())
                .input("found", true, "a 6 on the observation dice finds the charge")
                .outcome(serde_json::json!({ "state": "removed", "target": demolition.target }));
            t.log.push(bound, ev);
            t.battle.apply(BattleChange::Charge(k, now));
        }
    }
    drop(els);
}

/// A charge goes off: its blast on the men around it, then on any bridge in contact.
fn goes_off(t: &mut Battlefield, d: &Demolition) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    blast((&mut t.log, &mut t.failures), &mut t.dice.0, bound, &mut t.sides, &mut els, d);
    drop(els);
    let (at, kind) = (d.at, d.charge.kind);
    super::bridging::blast_bridges(&mut t.battle, &mut t.dice.0, (&mut t.log, &mut t.failures), bound, at, kind, &d.id);
}

/// What the player reads for a kind of charge.
pub fn charge_name(kind: ChargeKind) -> &'static str {
    match kind {
        ChargeKind::Small => "small charge",
        ChargeKind::Large => "large charge",
        ChargeKind::Bangalore => "Bangalore Torpedo",
    }
}

/// The standing bridge (its index among the bridges) whose span `f` is in contact with.
pub fn bridge_in_contact(f: &ElementView, battle: &Battle) -> Option<usize> {
    battle.bridges.iter().position(|b| {
        !b.bridge.is_destroyed() && distance_to_segment(f.place.at, b.span.from, b.span.to) <= super::shared::CONTACT
    })
}

/// The whole turn setting a charge its men carry on the bridge in contact
/// (*Heroes All*, "Explosives"): set where the element stands, for `delay`
/// bounds. A small charge set without a delay goes off at once ("Small
/// charges ... do not need a detonation pack"; [`ChargeState::Set`]), on
/// everyone within 2" of it, its setters too (only Bangalores "do not ...
/// endanger the user").
pub(super) fn set_charge(t: &mut Battlefield, element: &str, kind: ChargeKind, delay: u8) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(element) else {
        t.failures.record(&mut t.log, bound, "set_charge", element, format!("{element} is no element of the battle"));
        return;
    };
    let Some(b) = bridge_in_contact(&els[i].view(), &t.battle) else { return };
    let charge = match Charge::set(kind, delay) {
        Ok(c) => c,
        Err(e) => {
            t.failures.record(&mut t.log, bound, "set_charge", element, format!("the charge cannot be set: {e}"));
            return;
        }
    };
    els[i].apply(Change::ExplosiveUsed(kind));
    let at = els[i].place.at;
    let side = els[i].identity.side;
    drop(els);
    let target = bridge_name(&t.battle, b);
    let id = format!("{element}_charge_{}", t.battle.charges.len() + 1);
    let when = match charge.state {
        ChargeState::Delayed(n) => serde_json::json!({ "after_bounds": n }),
        _ if kind.needs_pack() => serde_json::json!("on the detonation pack"),
        _ => serde_json::json!("now"),
    };
    let ev = RuleEvent::new(EventKind::Explosives, RuleRef::new(Book::HeroesAll, "Explosives"))
        .actor(element.to_owned())
        .target(id.clone())
        .input("charge", kind, "one its men carry")
        .input("delay", delay, "bounds before it goes off (3 at most small, 10 large)")
        .outcome(serde_json::json!({ "state": "set", "target": target, "goes_off": when }));
    t.log.push(bound, ev);
    let mut d = Demolition { id, side, at, charge, target, found: false };
    t.battle.apply(BattleChange::ChargeLaid(d.clone()));
    if !kind.needs_pack() && charge.state == ChargeState::Set {
        let k = t.battle.charges.len() - 1;
        // Its setters stand on it.
        let here = warbound_rules::inches::Inches(0.0);
        if let Ok((true, e)) = d.charge.detonate(here, true, &mut t.dice.0, element) {
            t.log.push(bound, e.target(d.id.clone()));
            t.battle.apply(BattleChange::Charge(k, d.charge));
            goes_off(t, &d);
        }
    }
}

/// What the player reads for bridge `b`: "the bridge", or the scenario's name for it.
fn bridge_name(battle: &Battle, b: usize) -> String {
    let river = battle.bridges[b].river;
    let many = battle.bridges.iter().filter(|x| x.river == river).count() > 1;
    if many { format!("bridge {}", b + 1) } else { "bridge".to_owned() }
}

/// Both Acts firing a Bangalore Torpedo its men carry towards `toward`: a gap
/// 1 figure wide in the first wire or wall within 2" ahead; it goes off on the
/// bound it is set, with no stun zone and no danger to its user (*Heroes
/// All*, "Explosives").
pub(super) fn bangalore(t: &mut Battlefield, element: &str, toward: Point) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(element) else {
        t.failures.record(&mut t.log, bound, "bangalore", element, format!("{element} is no element of the battle"));
        return;
    };
    let Some(gap) = explosives::bangalore_gap(&t.battle.terrain, els[i].place.at, toward) else { return };
    els[i].apply(Change::ExplosiveUsed(ChargeKind::Bangalore));
    drop(els);
    let what = match t.battle.terrain.features.get(gap.feature) {
        Some(warbound_rules::terrain::Feature::Wire(_)) => "wire",
        _ => "wall",
    };
    let ev = RuleEvent::new(EventKind::Explosives, RuleRef::new(Book::HeroesAll, "Explosives"))
        .actor(element.to_owned())
        .input("charge", ChargeKind::Bangalore, "one its men carry, set with 2 Acts")
        .input("reach", explosives::BANGALORE_REACH, "it affects wire and obstacles 2 inches in front of the user")
        .outcome(serde_json::json!({ "state": "gap", "in": what, "at": [gap.at.0, gap.at.1], "figures_wide": explosives::GAP_FIGURES }));
    t.log.push(bound, ev);
    t.battle.apply(BattleChange::Gap(gap));
}

/// The uncleared minefield (its index in `minefields`) the element is in or
/// within 2" of.
pub fn minefield_in_contact(
    f: &ElementView,
    terrain: &warbound_rules::terrain::Terrain,
    minefields: &[(usize, warbound_rules::mines::Minefield)],
) -> Option<usize> {
    minefields.iter().position(|(k, m)| {
        !m.clear
            && match terrain.features.get(*k) {
                Some(warbound_rules::terrain::Feature::Minefield { outline, .. }) => {
                    warbound_rules::terrain::inside(outline, f.place.at)
                        || near_outline(outline, f.place.at) <= super::shared::CONTACT
                }
                _ => false,
            }
    })
}

fn near_outline(outline: &[Point], p: Point) -> f32 {
    warbound_rules::terrain::edges(outline).map(|(a, b)| distance_to_segment(p, a, b).get()).fold(f32::MAX, f32::min)
}

/// A bound's clearing of the minefield in contact (*Heroes All*, "Mines"):
/// a team of sappers (engineers, `Force::engineers`) 1 x D10, of
/// infantrymen 1 x D6, halved for half a team; clear at 10 (14 at night).
pub(super) fn clear_mines(t: &mut Battlefield, element: &str) {
    let bound = t.battle.clock.bound();
    let night = t.battle.clock.light() == warbound_rules::day::Light::Night;
    let els = t.elements.views();
    let Some(f) = t.roster.find(&els, element) else {
        t.failures.record(
            &mut t.log,
            bound,
            "clear_mines",
            element,
            format!("{} is no element of the battle", element),
        );
        return;
    };
    let Some(k) = minefield_in_contact(&f.view(), &t.battle.terrain, &t.battle.minefields) else { return };
    let men = f.men().min(u32::from(u8::MAX)) as u8;
    let clearers = if f.force.engineers {
        warbound_rules::mines::Clearers::Sappers(men)
    } else {
        warbound_rules::mines::Clearers::Infantry(men)
    };
    drop(els);
    let mut now = t.battle.minefields[k].1;
    if let Ok((_, e)) = now.clear_bound(clearers, night, &mut t.dice.0, element) {
        t.log.push(bound, e);
        t.battle.apply(BattleChange::Minefield(k, now));
    }
}

/// A charge goes off: its table effect on everyone within 2", CM tests for
/// everyone in its stun zone.
pub(super) fn blast(
    (log, failures): (&mut BattleLog, &mut InvariantFailures),
    dice: &mut warbound_rules::dice::Dice,
    bound: u32,
    sides: &mut HeldSides,
    els: &mut [Held],
    d: &Demolition,
) {
    // A charge is no element: its events name the side that set it.
    log.sides_of.insert(d.id.clone(), sides.0[d.side].name.clone());
    let stun = explosives::stun_zone(d.charge.kind, dice, &d.id).map(|(inches, e)| {
        log.push(bound, e);
        f32::from(inches)
    });
    for f in els.iter_mut().filter(|f| f.presence.status.on_table()) {
        let r = distance(f.place.at, d.at);
        if r <= super::shared::CONTACT
            && let Some(target) = he_target(&f.view())
            && let Ok(Some((out, e))) = explosives::charge_effect(d.charge.kind, target, dice)
        {
            log.push(bound, e.actor(d.id.clone()).target(f.id().to_owned()));
            let lost = f.apply(Change::LoseMen(u32::from(out.casualties)));
            super::shared::casualties((&mut *log, &mut *failures), dice, bound, sides, f, lost);
            super::shared::accrue(f, &[(Incident::Casualty(Cover::Open), lost)], false);
        }
        if stun.is_some_and(|s| r <= s) {
            super::shared::accrue(f, &[(explosives::STUN, 1)], false);
        }
        if f.spent() {
            super::shared::leave(log, bound, f, Status::Destroyed, "caught in the blast");
        }
    }
    let ev = RuleEvent::new(EventKind::Explosives, RuleRef::new(Book::HeroesAll, "Explosives"))
        .actor(d.id.clone())
        .input("charge", d.charge.kind, "")
        .outcome(serde_json::json!({ "demolished": d.target, "stun_inches": stun }));
    log.push(bound, ev);
}

/// End of bound: delayed charges count down and go off.
pub(super) fn tick(t: &mut Battlefield) {
    let mut gone = Vec::new();
    for k in 0..t.battle.charges.len() {
        let mut now = t.battle.charges[k].charge;
        let fires = now.tick();
        if now != t.battle.charges[k].charge {
            t.battle.apply(BattleChange::Charge(k, now));
        }
        if fires {
            gone.push(t.battle.charges[k].clone());
        }
    }
    if gone.is_empty() {
        return;
    }
    for d in gone {
        goes_off(t, &d);
    }
}
