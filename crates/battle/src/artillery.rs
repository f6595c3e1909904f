//! Off-table artillery (*Heroes All*, "Advanced Artillery Rules"): the
//! Forward Observation Officer acts on his own card — nets in his radio,
//! nominates and switches Artillery Targets, observes new ones — and each
//! battery, on its card, fires on the active target from behind its side's
//! edge with the Indirect Fire rules. A hit falls on every element within
//! [`BURST`] of the point, friend or foe; each of them, hit or missed, takes
//! one set of CM tests for the salvo.

use std::collections::BTreeMap;

use super::change::SideChange;
use super::state::ElementView;
use warbound_rules::inches::Inches;
use warbound_rules::{
    artillery,
    effects::HeColumn,
    event::{Book, EventKind, RuleEvent, RuleRef},
    fire_tests::FireResults,
    firing::{self, IndirectFire, IndirectMove, Ranging, Weapon},
    geometry::distance,
    observation::{Momentum, ObserverClass},
    opc::{self, OrtResult},
    terrain::Point,
};

use super::{
    Battlefield,
    bridging::erode_bridges,
    firing::{Out, he_on},
    shared::{accrue_fire, chart_of, cover_where, from_edge},
    sorted,
    state::{FooState, Status},
    visible::Sight,
};

/// Reading: an Artillery Target is a point; a shell that hits it falls on the
/// elements within 3" (the spread of a section in cohesion).
pub const BURST: f32 = 3.0;
/// A careful FOO does not bring fire within 6" of his own men.
const DANGER_CLOSE: f32 = 6.0;
/// "The 2-man artillery FOO team" (*Heroes All*, "Rating the officers").
const FOO_TEAM: u16 = 2;

/// Which FOO or battery of which side holds card `id`.
pub(super) enum Gunner {
    Foo(usize, usize),
    Battery(usize, usize),
}

pub(super) fn holder(t: &Battlefield, id: &str) -> Option<Gunner> {
    t.sides.0.iter().enumerate().find_map(|(s, side)| {
        side.foos
            .iter()
            .position(|f| f.id == id)
            .map(|k| Gunner::Foo(s, k))
            .or_else(|| side.batteries.iter().position(|b| b.id == id).map(|k| Gunner::Battery(s, k)))
    })
}

/// The FOO's turn on his card.
pub(super) fn foo_turn(t: &mut Battlefield, s: usize, k: usize) {
    let mut fo = t.sides.0[s].foos[k].clone();
    foo_acts(t, s, &mut fo, true);
    t.sides.apply(s, SideChange::Foo(k, fo));
}

/// The FOO's Acts given by a 2-player Command Die, his ORT taken as the die
/// was allocated (*Heroes All*, "Command and Control for 2-Player games").
pub(super) fn foo_die(t: &mut Battlefield, s: usize, k: usize) {
    let mut fo = t.sides.0[s].foos[k].clone();
    foo_acts(t, s, &mut fo, false);
    t.sides.apply(s, SideChange::Foo(k, fo));
}

/// What the FOO `fo` of side `s` does on his card: his ORT, netting in, then
/// nominating, switching or observing for a new Artillery Target (his ORT
/// only when `ort`).
fn foo_acts(t: &mut Battlefield, s: usize, fo: &mut FooState, ort: bool) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let codex = &*codex;
    let els = t.elements.views();
    let Some(w) = t.roster.index(&fo.with).filter(|&w| els[w].presence.status.on_table()) else {
        fo.alive = false;
        return;
    };
    let side = &t.sides.0[s];
    if ort {
        let (ort, event) = opc::officer_reaction_test(fo.foo.officer, &mut t.dice.0, &fo.id);
        t.log.push(bound, event);
        if ort == OrtResult::NoAction {
            return;
        }
    }
    fo.plan.activate();
    let mut acts = 2;
    while acts > 0 && !fo.foo.net.netted {
        match fo.foo.net_in(&mut t.dice.0, &fo.id) {
            Ok((_, e)) => t.log.push(bound, e),
            Err(_) => return,
        }
        acts -= 1;
    }
    if acts < 2 {
        return;
    }
    // The enemy he knows of that is nearest his own element, away from his own men.
    let sight = Sight::new(&t.battle, codex);
    let safe = |p: Point, els: &[ElementView]| {
        !els.iter()
            .any(|f| f.identity.side == s && f.presence.status.on_table() && distance(f.place.at, p) <= DANGER_CLOSE)
    };
    let enemy = els
        .iter()
        .filter(|e| {
            e.identity.side != s
                && e.presence.status.on_table()
                && side.known.contains(e.id())
                && safe(e.place.at, &els)
        })
        .min_by(|a, b| distance(els[w].place.at, a.place.at).total_cmp(&distance(els[w].place.at, b.place.at)))
        .map(|e| (e.id().to_owned(), e.place.at));
    let Some(first_active) = fo.plan.active else {
        // "When first activated, the FOO uses both Acts to nominate one Artillery Target as being active."
        let near = |p: (f32, f32)| enemy.as_ref().map_or(0.0, |(_, at)| distance(Point(p.0, p.1), *at).get());
        let pick = fo.plan.targets.iter().min_by(|a, b| near(a.at).total_cmp(&near(b.at))).map(|t| t.number);
        if let Some(n) = pick
            && fo.plan.nominate_first(n, 2).is_ok()
        {
            t.log.push(bound, plan_event(&fo.id, "nominate", n, &fo.plan));
        }
        return;
    };
    let Some((enemy_id, at)) = enemy else { return };
    let close = fo.plan.targets.iter().find(|t| distance(Point(t.at.0, t.at.1), at) <= BURST).map(|t| t.number);
    match close {
        Some(n) if n == first_active => {}
        Some(n) => {
            if let Ok((_, e)) = fo.plan.switch(&fo.foo, n, 2, &mut t.dice.0, &fo.id) {
                t.log.extend(bound, e);
                t.log.push(bound, plan_event(&fo.id, "switch", n, &fo.plan));
            }
        }
        None => {
            // "Use an Act to observe a potential target and, if successful, nominate this."
            let Some(j) = t.roster.index(&enemy_id) else {
                t.failures.record(&mut t.log, bound, "foo", &fo.id, format!("{enemy_id} is no element of the battle"));
                return;
            };
            let (me, tgt) = (&els[w].view(), &els[j].view());
            // The FOO team observes for itself, from where the element it is
            // with stands: "the 2-man artillery FOO team" (*Heroes All*,
            // "Rating the officers"), an officer's party with no Continuous
            // Momentum Score of its own (FYOB's charts test elements).
            let (o, c) = ([(ObserverClass::Figure, FOO_TEAM)], tgt.targets(codex));
            let Some(test) = sight.observation(me, tgt, &o, &c, Momentum::default(), false) else { return };
            let result = match warbound_rules::observation::observe(&test, &mut t.dice.0) {
                Ok(result) => result,
                Err(e) => {
                    let what = format!("the observation of {enemy_id} cannot be resolved: {e:?}");
                    t.failures.record(&mut t.log, bound, "foo", &fo.id, what);
                    return;
                }
            };
            t.log.push(bound, result.event().actor(fo.id.clone()).target(enemy_id.clone()));
            if !result.seen {
                return;
            }
            let point = (at.0, at.1);
            let added = fo.plan.add_target(point).or_else(|_| {
                let spare = fo.plan.targets.iter().map(|t| t.number).find(|&n| Some(n) != fo.plan.active);
                let n = spare.ok_or(artillery::ArtilleryError::TooManyTargets)?;
                fo.plan.replace_target(n, point).map(|()| n)
            });
            if let Ok(n) = added {
                t.log.push(bound, plan_event(&fo.id, "new_target", n, &fo.plan));
            }
            drop(els);
        }
    }
}

fn plan_event(id: &str, what: &str, number: u8, plan: &artillery::Interdiction) -> RuleEvent {
    RuleEvent::new(EventKind::Fire, RuleRef::new(Book::HeroesAll, "Interdiction Fire"))
        .actor(id)
        .input(what, number, "Artillery Target counter")
        .outcome(serde_json::json!({ "active": plan.active, "targets": plan.targets }))
}

/// The battery's turn: each gun fires on the active target.
///
/// Reading ("The guns under his control will then fire on this target using
/// their Fire order"): off-table guns have no other phase, so they fire on
/// every activation while their FOO is netted in and a target is active.
pub(super) fn battery_turn(t: &mut Battlefield, s: usize, k: usize) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let codex = &*codex;
    let battery = t.sides.0[s].batteries[k].clone();
    let Some(observer) = t.sides.0[s].foos.iter().find(|f| f.id == battery.foo) else { return };
    if !observer.alive || observer.foo.may_call_fire().is_err() {
        return;
    }
    let Some(number) = observer.plan.active else { return };
    let Some(target) = observer.plan.targets.iter().find(|t| t.number == number) else { return };
    let point = Point(target.at.0, target.at.1);
    let entry = match codex.get(&battery.gun) {
        Ok(entry) => entry,
        Err(e) => {
            t.fail("battery fire", &battery.id, format!("its gun is not in the CODEX: {e}"));
            return;
        }
    };
    let Some(arm) = entry.armament.first() else { return };
    let weapon: Weapon = arm.he.unwrap_or(arm.row);
    let range = arm.range.unwrap_or(weapon.row().range);
    let table = t.battle.start.scenario.table;
    let edge = t.sides.0[s].edge;
    let Ok((reach, _)) = artillery::off_table_band(range, Inches(from_edge(table, edge, point))) else {
        return;
    };
    let column = weapon.row().he.unwrap_or(HeColumn::D);
    let mut ranging = match battery.ranging {
        Some((n, r)) if n == number => r,
        _ => Ranging::First,
    };
    let mut els = sorted(&mut t.elements);
    // FYOB "Notes on Continuous Momentum test charts" and "Definition of 'Under
    // fire'": the battery is one firing element; every element where its
    // shells fall (within range: `off_table_band`) is under its fire, hit or
    // miss, and takes one set of tests for the salvo. The shells fall on the
    // point called: an element that has moved away is not under them.
    let mut under: BTreeMap<usize, FireResults> = BTreeMap::new();
    let mut out = Out { dice: &mut t.dice.0, log: &mut t.log, failures: &mut t.failures, bound, battle: &mut t.battle };
    for _ in 0..battery.guns {
        let fire = IndirectFire {
            weapon,
            distance: reach,
            smoke: false,
            ranging,
            target_moved: IndirectMove::Static,
            walked: 0.0,
            crew_in_wood: 0.0,
        };
        let (hit, event) = match firing::fire_indirect(&fire, &mut *out.dice) {
            Ok(fired) => fired,
            Err(e) => {
                let what = format!("its fire cannot be resolved: {e:?}");
                out.failures.record(out.log, bound, "battery fire", &battery.id, what);
                return;
            }
        };
        out.log.push(bound, event.actor(battery.id.clone()).input("target", number, "the active Artillery Target"));
        ranging = match (hit, ranging) {
            (true, _) | (false, Ranging::OnTarget) => Ranging::OnTarget,
            (false, Ranging::First) => Ranging::Ladder { shot: 2 },
            (false, Ranging::Ladder { shot }) => Ranging::Ladder { shot: shot.saturating_add(1) },
        };
        if hit {
            let (log, failures) = (&mut *out.log, &mut *out.failures);
            erode_bridges(out.battle, out.dice, (log, failures), bound, (point, BURST), column, &battery.id);
        }
        for (j, f) in els.iter_mut().enumerate() {
            if !f.presence.status.on_table() || distance(f.place.at, point) > BURST {
                continue;
            }
            let damage = under.entry(j).or_default();
            damage.under(FireResults::under_fire_from(chart_of(&f.view()), true, false));
            if hit && !f.spent() {
                let before = damage.casualties;
                he_on(&mut out, column, f, damage);
                if f.force.build == super::state::Build::Infantry
                    && warbound_rules::strategic::shell_knocks_off_net(weapon, arm.calibre)
                {
                    super::shared::knock_off_net(out.log, bound, f, "hit by artillery fire of 81mm or more");
                }
                let lost = damage.casualties - before;
                super::shared::casualties(
                    (&mut *out.log, &mut *out.failures),
                    &mut *out.dice,
                    bound,
                    &mut t.sides,
                    f,
                    lost,
                );
            }
        }
    }
    let sight = Sight { night: false, ..Sight::new(&t.battle, codex) };
    for (j, damage) in under {
        let f = &mut els[j];
        let cover = cover_where(&sight, f.place.at);
        let from = distance(f.place.at, point);
        // Reading: the guns off the table are never observed by their target.
        accrue_fire(f, &damage, (true, cover), "off-table battery", |event| {
            let event = event.input("battery", &battery.id, "one firing element: all its guns").input(
                "from_point",
                from,
                "within 3\" of the Artillery Target",
            );
            t.log.push(bound, event);
        });
        if f.spent() && f.presence.status.on_table() {
            super::shared::leave(&mut t.log, bound, f, Status::Destroyed, "nothing left that fights");
        }
    }
    drop(els);
    t.sides.apply(s, SideChange::BatteryRanging(k, (number, ranging)));
}
