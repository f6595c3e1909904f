//! The next card comes up (FYOB "The game flow"): a Company Officer takes his
//! command turn; an element takes its table-top turn — ORT, the CM tests it
//! has accrued, the Order Die — and then acts, or does as its CMS or its tests
//! direct: stays put, falls back, retires to the box or surrenders.

use super::change::{Change, FlowChange, Held};
use crate::prelude::*;
pub(super) use warbound_rules::turn::OnSeizing;
use warbound_rules::{
    codex::Codex,
    event::{Book, EventKind, RuleEvent, RuleRef},
    geometry::distance,
    momentum::{self, Abandons, CmElement, CmMovement, CmsMovement, Surroundings, TestConditions},
    officer::{Grade, Officer, Rank},
    opc::OrtResult,
    turn::{self, Course, TurnElement},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, air, artillery, at, command_turn, movement, outcome,
    setup::Control,
    sorted,
    state::{Arrival, Build, Flow, Status, Turn},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, next_card.in_set(FlowSet::Card).run_if(at(|f| *f == Flow::NextCard)));
}

/// Within 12" (FYOB: a 9+ result surrenders with no friends but the enemy within 12").
const SUPPORT_RANGE: f32 = 12.0;

fn next_card(mut t: Battlefield) {
    // One card per update keeps each update short and lets a Player's turn
    // stop the flow where it begins.
    let Some(id) = t.battle.deck.as_ref().and_then(|d| d.acting_now()).map(str::to_owned) else {
        t.flow.apply(FlowChange::To(Flow::EndBound));
        return;
    };
    let bound = t.battle.clock.bound();
    let company = t
        .sides
        .0
        .iter()
        .enumerate()
        .find_map(|(s, side)| side.companies.iter().position(|c| c.id == id).map(|c| (s, c)));
    if let Some((s, c)) = company {
        // A CO lost after the deal plays no card of his own: his successor
        // commands on his own element's (FYOB "Company Officer as a casualty").
        // A Player CO keeps his card until he has given his orders.
        if !t.sides.0[s].companies[c].co_alive || !command_turn::run(&mut t, s, c) {
            super::turn::discard(&mut t, &id);
        }
        return;
    }
    if let Some(s) = air::air_command_of(&t, &id) {
        air::air_command_turn(&mut t, s);
        t.log.step_done();
        super::turn::discard(&mut t, &id);
        return;
    }
    if let Some((s, k)) = air::squadron_of(&t, &id) {
        air::squadron_turn(&mut t, s, k);
        t.log.step_done();
        super::turn::discard(&mut t, &id);
        outcome::settle(&mut t);
        return;
    }
    match artillery::holder(&t, &id) {
        Some(artillery::Gunner::Foo(s, k)) => {
            artillery::foo_turn(&mut t, s, k);
            t.log.step_done();
            super::turn::discard(&mut t, &id);
            outcome::settle(&mut t);
            return;
        }
        Some(artillery::Gunner::Battery(s, k)) => {
            artillery::battery_turn(&mut t, s, k);
            t.log.step_done();
            super::turn::discard(&mut t, &id);
            outcome::settle(&mut t);
            return;
        }
        None => {}
    }
    let Some(i) = t.roster.index(&id) else {
        t.fail("take_turn", &id, "the card names no element of the battle");
        super::turn::discard(&mut t, &id);
        return;
    };
    let mut els = t.elements.at(&t.roster, i);
    let Some(me) = els.as_mut() else { return };
    // A transport loaded since the deal moves on its passengers' card.
    if !me.presence.status.in_play() || me.force.carrying().is_some() {
        super::turn::discard(&mut t, &id);
        return;
    }
    // Paratroops and glider troops are not effective on the bound they land;
    // a platoon without cohesion retakes its test (Heroes All, "Paratroops").
    if me.presence.effective_from > bound {
        super::turn::discard(&mut t, &id);
        return;
    }
    if me.presence.without_cohesion {
        let nco = me.force.element.nco.unwrap_or_else(|| Officer::new(Rank::Nco, Grade::Weak).expect("NCO grade"));
        let (test, e) = warbound_rules::airborne::cohesion_test(nco, &mut t.dice.0, &id);
        t.log.push(bound, e);
        if !test.passed {
            super::turn::discard(&mut t, &id);
            return;
        }
        me.apply(Change::WithoutCohesion(false));
    }
    let needs_ort = t.battle.deck.as_ref().and_then(|d| d.needs_ort(&id).ok()).unwrap_or(true);
    // The Auto NCO who Seizes the Initiative acts as ordered; a Player's
    // chooses (FYOB "Taking an Officer Reaction Test": he "may swap his OPC ...
    // If desired, the NCO Seizing Initiative can simply Act as Ordered").
    let Some(side) = t.elements.view_at(&t.roster, i).map(|f| f.identity.side) else { return };
    let on_seizing =
        if t.sides.0[side].control == Control::Player { OnSeizing::SwapCard } else { OnSeizing::ActAsOrdered };
    take_turn(&mut t, &id, needs_ort, on_seizing);
    outcome::settle(&mut t);
}

/// The element's table-top turn from its ORT on (FYOB "Table-top turn for an element").
pub(super) fn take_turn(t: &mut Battlefield, id: &str, needs_ort: bool, on_seizing: OnSeizing) {
    let bound = t.battle.clock.bound();
    let id = id.to_owned();
    let Some(i) = t.roster.index(&id) else {
        t.fail("take_turn", &id, "no element of the battle");
        return;
    };
    let Some((s, c)) = t.elements.view_at(&t.roster, i).map(|f| (f.identity.side, f.identity.company)) else {
        return;
    };
    if c < t.sides.0[s].companies.len() {
        command_turn::succession(t, s, c);
    }
    let successor = t.sides.0[s].companies.get(c).is_some_and(|co| co.successor.as_deref() == Some(id.as_str()));
    let mut els = sorted(&mut t.elements);
    let side = &t.sides.0[els[i].identity.side];
    let co = side.companies.get(els[i].identity.company).filter(|c| c.co_alive && c.attached_to == id).map(|c| c.co);
    let rationed = t.battle.start.scenario.sides.get(els[i].identity.side).is_some_and(|s| s.rationed);
    let element = turn_element(&els, i, co, &t.codex.0, (bound, rationed));
    super::shared::partners_lost(&mut t.log, bound, &mut els, i, &t.sides.0);
    let mut accrued = els[i].momentum.accrued.clone();
    let chart = els[i].force.build.element_type();
    // Every accrual reads the element's own chart (`shared::accrue`); a row it
    // lacks all the same is dropped, never left to stop every later turn.
    let off = accrued.take_off_chart(chart);
    if !off.is_empty() {
        let what = format!("tests accrued on rows of no {chart:?} chart, dropped: {off:?}");
        t.failures.record(&mut t.log, bound, "element turn", &id, what);
    }
    let out = super::shared::out_of_ammunition(&els[i].view(), &t.codex.0);
    accrued.states = momentum::persistent_states(chart, els[i].men(), els[i].force.men_start, &out);
    let result = turn::element_turn(&element, needs_ort, on_seizing, &accrued, &mut t.dice.0, &id);
    let turn = match result {
        Ok(turn) => turn,
        Err(e) => {
            drop(els);
            t.fail("element turn", &id, format!("its table-top turn cannot be resolved: {e}"));
            super::turn::discard(t, &id);
            return;
        }
    };
    // The CM tests' result is written before the Order Die is logged: each
    // event is followed by what its rule changed (see `change::StateTally`).
    let die = turn.events.iter().position(|e| e.kind == EventKind::OrderDie).unwrap_or(turn.events.len());
    t.log.extend(bound, turn.events[..die].iter().cloned());
    els[i].apply(Change::Tested { cms: turn.cms_after, carried: turn.carried_forward.clone() });
    t.log.extend(bound, turn.events[die..].iter().cloned());
    // His ORT passed (or none needed), a successor carries out his Officer
    // duties in this turn, whatever his element does; not yet when he may swap
    // his card (he acts on the card he keeps).
    let duties =
        successor && !matches!(turn.ort, Some(OrtResult::NoAction)) && !matches!(turn.course, Course::SwapsCard);
    let f = &mut els[i];
    let failures = turn.cm.map_or(0, |c| c.failures.min(u32::from(u8::MAX)) as u8);
    let mut in_transport = None;
    match turn.course {
        Course::Acts(orders) => {
            let runner = t.sides.0[s].companies.get(c).and_then(|k| command_turn::runner_due(k, &els[i].view()));
            drop(els);
            if super::assault::defenders_retire(t, &id, &turn) {
                super::turn::discard(t, &id);
            } else {
                t.flow.apply(FlowChange::To(Flow::Acting(Turn {
                    element: id.clone(),
                    orders,
                    taken: Vec::new(),
                    acts: Vec::new(),
                    failures,
                    pending_move: None,
                    at_the_double: false,
                    runner,
                })));
            }
        }
        Course::NoAction => {
            drop(els);
            super::assault::defenders_retire(t, &id, &turn);
            super::turn::discard(t, &id);
        }
        Course::SwapsCard => {
            drop(els);
            t.flow.apply(FlowChange::To(Flow::Seize { element: id }));
        }
        Course::DirectedByCms(row) => {
            let gone = match (row.abandons, row.movement) {
                (Abandons::Vehicle, _) => Some(Status::Destroyed),
                (Abandons::DamagedVehicle, _)
                    if f.vehicle.state == Some(warbound_rules::effects::VehicleState::Damaged) =>
                {
                    Some(Status::Destroyed)
                }
                (_, CmsMovement::RetiresToBox) => Some(Status::Retired),
                _ => None,
            };
            if row.abandons == Abandons::HeavyWeapons {
                abandon(&mut t.log, bound, f, CMS_MEN, "CMS 1: all weapons except small arms are abandoned");
            }
            if let Some(status) = gone {
                super::shared::leave(
                    &mut t.log,
                    bound,
                    f,
                    status,
                    "FYOB Continuous Momentum Score: as the CMS directs",
                );
            }
            drop(els);
            super::turn::discard(t, &id);
        }
        Course::CannotContinue { effects, surrenders } => {
            if surrenders {
                super::shared::leave(
                    &mut t.log,
                    bound,
                    f,
                    Status::Surrendered,
                    "9+ failures, no friends but the enemy within 12\"",
                );
            } else if effects.movement == CmMovement::BackToTheBox {
                abandon(&mut t.log, bound, f, RESULTS, "9+ failures: all vehicles and guns are abandoned");
                super::shared::leave(&mut t.log, bound, f, Status::Retired, "9+ failures: goes back to the box");
            } else {
                abandon(&mut t.log, bound, f, RESULTS, "7 or 8 failures: CSW crews abandon their weapons");
                let table = t.battle.start.scenario.table;
                let edge = t.sides.0[f.identity.side].home(f.identity.company);
                if f.presence.status.aboard().is_some() {
                    // Men aboard fall back in their transport.
                    in_transport = Some(edge);
                } else {
                    movement::fall_back(
                        &mut t.log,
                        &mut t.failures,
                        &mut t.dice.0,
                        (&t.battle, &mut t.sides),
                        bound,
                        f,
                        table,
                        edge,
                    );
                }
            }
            drop(els);
            if let Some(edge) = in_transport {
                movement::fall_back_aboard(t, &id, edge);
            }
            super::turn::discard(t, &id);
        }
    }
    let standing = t.elements.view_at(&t.roster, i).is_some_and(|f| f.presence.status.in_play());
    if duties && standing && *t.flow != Flow::Over {
        command_turn::successor_duties(t, s, c);
    }
}

/// FYOB "Results of Momentum Tests".
const RESULTS: &str = "Results of Momentum Tests";
/// FYOB's CMS table for men.
const CMS_MEN: &str = "Continuous Momentum Score - infantry, CSWs, engineers and artillery";

/// Men leave their weapons and go on with their small arms: FYOB "Results
/// of Momentum Tests", 7 or 8 "CSW crews abandon their weapons ... Artillery
/// crews will abandon their guns", 9+ "all vehicles and guns are abandoned
/// and the soldiers all make their way back to the 'box' on foot with only
/// their small arms"; its CMS table for men at 1, "All weapons except small
/// arms are abandoned". Reading: on a result of the tests, an infantry section
/// keeps the light CSWs it carries and a vehicle element leaves the table as
/// it is; at CMS 1 every CSW goes (test `seven_failures_leave_the_mmg_behind`).
fn abandon(log: &mut super::log::BattleLog, bound: u32, f: &mut Held, section: &'static str, why: &str) {
    let crews_only = section == RESULTS && !matches!(f.force.build, Build::Guns { .. });
    if crews_only || f.force.build.is_vehicle() || f.force.element.pieces.is_empty() {
        return;
    }
    let weapons: Vec<String> = f.force.element.pieces.iter().map(|p| p.codex.clone()).collect();
    let ev = RuleEvent::new(EventKind::CmTests, RuleRef::new(Book::FightYourOwnBattles, section))
        .actor(f.id())
        .input("abandoned", &weapons, why)
        .outcome(serde_json::json!({ "abandoned": weapons }));
    log.push(bound, ev);
    f.apply(Change::CrewsAsRiflemen);
}

/// What the turn rule needs to know of element `i` in `bound`, its side
/// `rationed` or not.
///
/// FYOB "Test reductions - special circumstances": "Where elements are
/// making a beach landing ... take 50% of the remaining number of tests for
/// the bounds on which they land and the following bound": an element landed
/// from craft halves its tests in the bound it came ashore and the next (test
/// `the_first_wave_halves_its_tests_ashore`).
fn turn_element(
    els: &[Held],
    i: usize,
    co: Option<Officer>,
    codex: &Codex,
    (bound, rationed): (u32, bool),
) -> TurnElement {
    let f = &els[i];
    let landed = f.presence.effective_from;
    let beach_landing = matches!(f.presence.arrival, Arrival::Craft { .. }) && landed > 0 && bound <= landed + 1;
    let near = |friend: bool| {
        els.iter().enumerate().any(|(j, o)| {
            j != i
                && o.presence.status.on_table()
                && (o.identity.side == f.identity.side) == friend
                && distance(o.place.at, f.place.at) <= SUPPORT_RANGE
        })
    };
    // Reading (FYOB "NCO is a casualty": a replacement is diced for on the CO's
    // next activation): until then the element acts under a Weak leader.
    // An empty transport, with no NCO of its own, "will behave as if it was
    // a \"Regular\" element" (Heroes All, "Transport elements").
    let grade = if f.force.transport().is_some() { Grade::Regular } else { Grade::Weak };
    let nco = f.force.element.nco.unwrap_or_else(|| Officer::new(Rank::Nco, grade).expect("an NCO grade"));
    TurnElement {
        nco,
        cm: CmElement {
            element_type: f.force.build.element_type(),
            quality: f.force.fire_and_cm_quality(),
            cms: f.force.element.cms,
        },
        conditions: TestConditions {
            nco: f.force.element.nco.map(|n| n.grade()),
            company_officer: co,
            support_points: support_points(els, i, codex),
            beach_landing,
            rationed,
        },
        surroundings: Surroundings { friends_within_12: near(true), enemy_within_12: near(false) },
    }
}

/// Within 6" (FYOB "Test reductions").
const SUPPORT_REACH: f32 = 6.0;

/// FYOB "Test reductions": "less 1% for every 1 point of value of supporting
/// friendly, active, Regular or Elite elements within 6 inches". Readings:
/// the value is the element's points cost (whole points, `forces::Element::cost`);
/// "active" is on the table with a CMS that still lets it fight.
fn support_points(els: &[Held], i: usize, codex: &Codex) -> u32 {
    let f = &els[i];
    els.iter()
        .enumerate()
        .filter(|(j, o)| {
            *j != i
                && o.identity.side == f.identity.side
                && o.presence.status.on_table()
                && o.force.quality != warbound_rules::officer::Quality::Poor
                && distance(o.place.at, f.place.at) <= SUPPORT_REACH
                && momentum::cms_effects(o.force.build.element_type(), o.force.element.cms).is_ok_and(|r| r.can_fire)
        })
        .filter_map(|(_, o)| o.force.element.cost(codex).ok())
        .map(|p| p.halves() / 2)
        .sum()
}
