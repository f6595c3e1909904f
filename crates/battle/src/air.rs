//! Aircraft over the table (*Heroes All*, "Aircraft rules"): a squadron comes
//! in its window with its own OPC; its Squadron Leader takes his ORT, the
//! machines fly on from the box, and the Order Die decides the order of its
//! move (down to low level to attack), its act (acquire a ground target) and
//! its fire (bombs, or guns and rockets from low level). When the window
//! closes the squadron leaves on its next card.

use super::change::{Change, Held, SideChange};
use crate::prelude::*;
use warbound_rules::{
    aircraft::{self, AaWeapon, AirMove, Height, Position},
    effects,
    event::{Book, EventKind, RuleEvent, RuleRef},
    fire_tests::FireResults,
    geometry::distance,
    opc::{self, OrtResult},
    order_dice::{self, Phase},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{Command, Current},
    firing::{Out, apply_vehicle},
    shared::{accrue_fire, chart_of, cover_where, he_target},
    sorted,
    state::{Build, ElementView, Flow, Status},
    visible::Sight,
};

pub(super) fn squadron_of(t: &Battlefield, id: &str) -> Option<(usize, usize)> {
    t.sides.0.iter().enumerate().find_map(|(s, side)| side.squadrons.iter().position(|q| q.id == id).map(|k| (s, k)))
}

/// The squadron's turn on its card.
pub(super) fn squadron_turn(t: &mut Battlefield, s: usize, k: usize) {
    let bound = t.battle.clock.bound();
    let q = t.sides.0[s].squadrons[k].clone();
    if q.window.may_act(bound).is_err() {
        // "They must leave immediately they are activated by their OPC on the
        // next bound without taking any further action."
        let ev = RuleEvent::new(EventKind::Leaves, RuleRef::new(Book::HeroesAll, "Aircraft rules"))
            .actor(q.id.clone())
            .input("window", q.window.first, "the 4-bound window has closed")
            .outcome(serde_json::json!({ "status": "left the table" }));
        t.log.push(bound, ev);
        leave_for_good(t, s, k);
        return;
    }
    let (ort, e) = opc::officer_reaction_test(q.leader, &mut t.dice.0, &q.id);
    t.log.push(bound, e);
    if ort == OrtResult::NoAction {
        return;
    }
    // "If the pilot passes his ORT, the aircraft must move onto the table
    // automatically before the Order Die is thrown."
    for (m, machine) in q.machines.iter().enumerate() {
        let mut now = machine.clone();
        let _ = aircraft::enter_table(&mut now);
        t.sides.apply(s, SideChange::Machine(k, m, now));
    }
    let (order, e) = order_dice::throw_order_die(&mut t.dice.0, &q.id);
    t.log.push(bound, e);
    let phases = match order {
        Phase::Fire => [Phase::Fire, Phase::Act, Phase::Move],
        Phase::Move => [Phase::Move, Phase::Act, Phase::Fire],
        Phase::Act => [Phase::Act, Phase::Fire, Phase::Move],
    };
    let mut moved = false;
    let mut fired = false;
    for phase in phases {
        match phase {
            // Down to low level to attack with guns and rockets; bombers bomb from medium.
            Phase::Move if !moved => {
                moved = true;
                let machines = t.sides.0[s].squadrons[k].machines.clone();
                for (i, m) in
                    machines.into_iter().enumerate().filter(|(_, m)| m.height().is_some_and(|h| h != Height::Low))
                {
                    let bombs = m.kind.bombs.is_some_and(|b| b.1 > 0);
                    if !(bombs && m.height() == Some(Height::Medium)) {
                        let mut now = m;
                        let _ = aircraft::air_move(&mut now, AirMove::ToHeight(Height::Low));
                        t.sides.apply(s, SideChange::Machine(k, i, now));
                    }
                }
            }
            Phase::Act => acquire(t, s, k),
            Phase::Fire if !fired => {
                fired = true;
                attack(t, s, k);
            }
            _ => {}
        }
    }
}

/// "Providing it is over the table, it can ... acquire a ground target": the
/// enemy nearest its own troops, spotted on a D6 (3+ at low level, 4+ at
/// medium, 5+ in a building or wood).
fn acquire(t: &mut Battlefield, s: usize, k: usize) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let codex = &*codex;
    let els = sorted(&mut t.elements);
    let q = &t.sides.0[s].squadrons[k];
    if q.target.as_ref().and_then(|id| t.roster.find(&els, id)).is_some_and(|f| f.presence.status.on_table()) {
        return;
    }
    let Some(height) = q.machines.iter().find_map(|m| m.height()) else { return };
    let sight = Sight { night: false, ..Sight::new(&t.battle, codex) };
    let friends: Vec<_> =
        els.iter().filter(|f| f.identity.side == s && f.presence.status.on_table()).map(|f| f.place.at).collect();
    let near_friends =
        |f: &ElementView| friends.iter().map(|&p| distance(p, f.place.at).get()).fold(f32::MAX, f32::min);
    let Some(target) = els
        .iter()
        .filter(|f| f.identity.side != s && f.presence.status.on_table())
        .min_by(|a, b| near_friends(&a.view()).total_cmp(&near_friends(&b.view())))
    else {
        return;
    };
    let covered = sight.in_building(target.place.at)
        || sight.in_wood(target.place.at).is_some()
        || target.concealment.concealed();
    let need = match aircraft::spot_ground_target_need(height, covered, false) {
        Ok(need) => need,
        Err(e) => {
            let what = format!("the throw to spot {} cannot be made: {e:?}", target.id());
            t.failures.record(&mut t.log, bound, "air", &q.id, what);
            return;
        }
    };
    let (seen, e) = aircraft::spot(Some(need), target.id(), &mut t.dice.0, &q.id);
    t.log.push(bound, e.target(target.id().to_owned()));
    if seen {
        t.sides.apply(s, SideChange::SquadronTarget(k, target.id().to_owned()));
    }
}

/// Every machine over the table attacks the acquired target: bombs (6 to
/// hit, dive bombers 4+), else guns and rockets at low level ("hits on
/// infantry, CSW and soft-skinned targets are dealt with as if they were hits
/// from a grounded weapon": one casualty a hit, a soft-skin damaged); an AFV
/// is attacked with the machine's AT weapons, its AT cannon and rockets
/// ("Anti Tank damage": 5+ on a stationary target, 6 on a moving one, D10 + 8
/// on the side armour, any hit on an open-topped AFV destroys it).
///
/// The squadron is one firing element: its target takes one set of CM tests
/// for the attack, hit or miss (FYOB "Definition of 'Under fire'") — bombs
/// put anything under HE fire; guns and rockets put men and soft-skins under
/// fire from the air, AT weapons put an AFV under AT fire; MGs and cannon,
/// which cannot harm an AFV, put it under nothing.
/// Reading: the target sees the machines that attack it ("If the aircraft has
/// just made a ground attack, spotting on the same bound is automatic"), so
/// no row for an unobserved enemy.
fn attack(t: &mut Battlefield, s: usize, k: usize) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let Some(target) = t.sides.0[s].squadrons[k].target.clone() else { return };
    let mut els = sorted(&mut t.elements);
    let Some(f) = t.roster.find_mut(&mut els, &target).filter(|f| f.presence.status.on_table()) else { return };
    let q = t.sides.0[s].squadrons[k].clone();
    let mut fire = FireResults::default();
    let mut attacked = false;
    for (i, m) in q.machines.iter().enumerate().filter(|(_, m)| matches!(m.position, Position::OverTable(_))) {
        if f.spent() {
            break;
        }
        if let Ok((size, hits, e)) = aircraft::drop_bombs(m, &mut t.dice.0, &q.id) {
            t.log.push(bound, e.target(target.clone()));
            attacked = true;
            fire.under(FireResults::under_fire_from(chart_of(&f.view()), true, false));
            for _ in 0..hits {
                let Some(he) = he_target(&f.view()) else { break };
                if let Ok((casualties, wrecked, e)) = aircraft::bomb_hit(size, he, &mut t.dice.0) {
                    t.log.push(bound, e.target(target.clone()));
                    fire.casualties += f.apply(Change::LoseMen(u32::from(casualties)));
                    if wrecked {
                        wreck(f, &mut fire);
                        if f.force.build.is_vehicle() {
                            super::shared::knock_off_net(&mut t.log, bound, f, "its vehicle damaged by a bomb");
                        }
                    }
                }
            }
        } else if let (Build::Afv { armour, open_topped }, true) = (f.force.build, aircraft::at_weapons(m) > 0) {
            let (last, this) = (&f.actions.last_bound, &f.actions.this_bound);
            let target_now = aircraft::AtTarget {
                moving: last.moved || this.moved,
                armour,
                open_topped,
                state: f.vehicle.state.unwrap_or_default(),
            };
            if let Ok((after, events)) = aircraft::at_attack(m, false, target_now, &mut t.dice.0, &q.id) {
                for e in events {
                    t.log.push(bound, e.target(target.clone()));
                }
                attacked = true;
                fire.at = true;
                let mut out = Out {
                    dice: &mut t.dice.0,
                    log: &mut t.log,
                    failures: &mut t.failures,
                    bound,
                    battle: &mut t.battle,
                };
                apply_vehicle(&mut out, f, after, &mut fire);
            }
        } else if let Ok((hits, e)) = aircraft::strafe(m, &mut t.dice.0, &q.id) {
            t.log.push(bound, e.target(target.clone()));
            attacked = true;
            match f.force.build {
                Build::Afv { .. } => {}
                Build::SoftSkin => {
                    fire.from_the_air = true;
                    if hits > 0 {
                        let after = effects::soft_skin_hit(f.vehicle.state.unwrap_or_default());
                        f.apply(Change::Vehicle(after));
                        if after == effects::VehicleState::Damaged {
                            super::shared::knock_off_net(&mut t.log, bound, f, "its vehicle damaged from the air");
                        }
                    }
                }
                _ => {
                    fire.from_the_air = true;
                    fire.casualties += f.apply(Change::LoseMen(u32::from(hits)));
                }
            }
        }
        let mut now = m.clone();
        aircraft::after_attack(&mut now);
        t.sides.apply(s, SideChange::Machine(k, i, now));
    }
    super::shared::casualties((&mut t.log, &mut t.failures), &mut t.dice.0, bound, &mut t.sides, f, fire.casualties);
    if attacked {
        let sight = Sight { night: false, ..Sight::new(&t.battle, &codex) };
        let cover = cover_where(&sight, f.place.at);
        accrue_fire(f, &fire, (false, cover), "air attack", |event| {
            t.log.push(bound, event.input("squadron", &q.id, "one firing element"));
        });
    }
    if f.spent() && f.presence.status.on_table() {
        super::shared::leave(&mut t.log, bound, f, Status::Destroyed, "nothing left that fights");
    }
}

/// A bomb that wrecks: a gun destroyed, a vehicle damaged.
fn wreck(f: &mut Held, fire: &mut FireResults) {
    if f.force.build.is_vehicle() {
        let after = f.vehicle.state.unwrap_or_default().after(effects::AtResult::Damaged);
        f.apply(Change::Vehicle(after));
        fire.damaged = true;
    } else {
        let crew = f.apply(Change::LoseWeapon);
        if crew > 0 {
            fire.guns_lost += 1;
            fire.casualties += crew;
        }
    }
}

/// Machines driven off come back to the box when their bounds are up
/// ("driven off the table for D4 bounds").
pub(super) fn returning(t: &mut Battlefield) {
    let bound = t.battle.clock.bound();
    for s in 0..t.sides.0.len() {
        let withdrawn = t.sides.0[s].air_command.as_ref().is_some_and(|ac| ac.withdrawn);
        for (k, q) in t.sides.0[s].squadrons.clone().into_iter().enumerate() {
            for (i, mut m) in q.machines.into_iter().enumerate() {
                if let Position::DrivenOff { until } = m.position
                    && until <= bound
                {
                    m.position =
                        if withdrawn { Position::DrivenOff { until: u32::MAX } } else { Position::Box(Height::Low) };
                    t.sides.apply(s, SideChange::Machine(k, i, m));
                }
            }
        }
    }
}

/// Every machine of squadron `k` still in action leaves the table for good.
fn leave_for_good(t: &mut Battlefield, s: usize, k: usize) {
    for (i, mut m) in t.sides.0[s].squadrons[k].machines.clone().into_iter().enumerate() {
        if m.in_action() {
            m.position = Position::DrivenOff { until: u32::MAX };
            t.sides.apply(s, SideChange::Machine(k, i, m));
        }
    }
}

/// Enemy squadrons with a machine over the table: (squadron id, side).
pub fn over_table(sides: &super::state::Sides) -> Vec<(String, usize)> {
    sides
        .0
        .iter()
        .enumerate()
        .flat_map(|(s, side)| {
            side.squadrons
                .iter()
                .filter(|q| q.machines.iter().any(|m| matches!(m.position, Position::OverTable(_))))
                .map(move |q| (q.id.clone(), s))
        })
        .collect()
}

/// What an element fires at aircraft with, and how many times: infantry
/// "per 3 figures"; an AFV its turret-mounted MG.
pub fn aa_weapon(f: &ElementView) -> Option<(AaWeapon, u32)> {
    match f.force.build {
        Build::Afv { .. } => Some((AaWeapon::Tmg, 1)),
        Build::Infantry => {
            let threes = f.force.element.figures.iter().filter(|fig| fig.weapon.is_some()).count() as u32 / 3;
            (threes > 0).then_some((AaWeapon::Infantry, threes))
        }
        _ => None,
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, aa_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

/// The Fire phase of a [`Command::FireAa`]: opening fire gives a concealed
/// firer away.
fn aa_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    let Some(Command::FireAa { element, squadron }) = current.0.clone() else { return };
    current.0 = None;
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    if let Some(f) = t.roster.find_mut(&mut els, &element) {
        super::shared::reveal(&mut t.log, bound, f, warbound_rules::concealment::ConcealedActivity::Fire);
    }
    drop(els);
    aa_fire(&mut t, &element, &squadron);
    let mut els = sorted(&mut t.elements);
    if let Some(f) = t.roster.find_mut(&mut els, &element) {
        f.apply(Change::Fired);
    }
    drop(els);
    super::turn::phase_done(&mut t, Phase::Fire, &[]);
}

/// *Heroes All*, "Anti aircraft fire": the firers spot the squadron (a D6 by
/// the weather; automatic after a ground attack this bound), then fire at its
/// leading machine over the table; each damage takes a point of strength.
pub(super) fn aa_fire(t: &mut Battlefield, element: &str, squadron: &str) {
    let bound = t.battle.clock.bound();
    let Some((s, k)) = squadron_of(t, squadron) else { return };
    let els = sorted(&mut t.elements);
    let Some(f) = t.roster.find(&els, element) else {
        drop(els);
        t.fail("aa fire", element, "no element of the battle");
        return;
    };
    let Some((weapon, times)) = aa_weapon(&f.view()) else { return };
    let night = t.battle.clock.light() == warbound_rules::day::Light::Night;
    let q = &t.sides.0[s].squadrons[k];
    let Some(m) = q.machines.iter().position(|m| matches!(m.position, Position::OverTable(_))) else { return };
    let need = aircraft::ground_spot_need(t.battle.weather.sky, night, q.machines[m].attacked_ground);
    let (seen, e) = aircraft::spot(need, squadron, &mut t.dice.0, element);
    t.log.push(bound, e.target(squadron.to_owned()));
    if !seen {
        return;
    }
    let mut damages = 0;
    for _ in 0..times {
        if let Ok((d, e)) = aircraft::aa_fire(weapon, &q.machines[m], false, &mut t.dice.0, element) {
            t.log.push(bound, e.target(squadron.to_owned()));
            damages += d;
        }
    }
    let mut now = q.machines[m].clone();
    let (_, counted, e) = aircraft::take_damage(&mut now, damages, bound, &mut t.dice.0, squadron);
    t.log.push(bound, e);
    drop(els);
    t.sides.apply(s, SideChange::Machine(k, m, now));
    if let Some(mut ac) = t.sides.0[s].air_command.clone() {
        ac.damages += u32::from(counted);
        t.sides.apply(s, SideChange::AirCommand(ac));
    }
}

/// The Air Command CO's card: "share target information" and "take any
/// Continuous Momentum tests due since his last activation" — a D6 a damage,
/// 1-3 off his score; at 0 he withdraws every machine.
pub(super) fn air_command_turn(t: &mut Battlefield, s: usize) {
    let bound = t.battle.clock.bound();
    let Some(mut ac) = t.sides.0[s].air_command.clone() else { return };
    if ac.damages > 0 {
        let (cms, withdraws, e) = aircraft::air_command_cm(ac.cms, ac.damages, &mut t.dice.0, &ac.id);
        t.log.push(bound, e);
        ac.cms = cms;
        ac.damages = 0;
        ac.withdrawn |= withdraws;
        t.sides.apply(s, SideChange::AirCommand(ac));
        if withdraws {
            for k in 0..t.sides.0[s].squadrons.len() {
                leave_for_good(t, s, k);
            }
        }
    }
    let targets: Vec<String> = t.sides.0[s].squadrons.iter().filter_map(|q| q.target.clone()).collect();
    t.sides.apply(s, SideChange::Knows(targets));
}

/// The side whose Air Command holds card `id`.
pub(super) fn air_command_of(t: &Battlefield, id: &str) -> Option<usize> {
    t.sides.0.iter().position(|side| side.air_command.as_ref().is_some_and(|ac| ac.id == id))
}
