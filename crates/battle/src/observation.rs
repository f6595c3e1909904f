//! The Act phase's observation tests (*Heroes All*, "Observation"): for each
//! target named, the segments are worked out from the terrain between the
//! two, the dice thrown, and a target seen becomes known to the element (and
//! is no longer concealed); a concealed element is observed by its counters
//! (FYOB "Placement options"), and extracts itself from concealment with an Act.

use super::change::Change;
use crate::prelude::*;
use warbound_rules::{
    codex::Codex,
    concealment::{ConcealedActivity, Spotted, first_move_out},
    event::{Book, EventKind, RuleEvent, RuleRef},
    observation::{self, Momentum},
    order_dice::{Act, Phase},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{Command, Current, ObserveTarget},
    sorted,
    state::{ElementView, Flow, Place, point},
    visible::Sight,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, observe_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

fn observe_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    match current.0.clone() {
        Some(Command::Observe { element, targets }) => {
            current.0 = None;
            let Flow::Acting(turn) = &*t.flow else { return };
            let failures = turn.failures;
            do_observe(&mut t, &element, &targets, failures);
            let acts = vec![Act::Observe; targets.len()];
            super::turn::phase_done(&mut t, Phase::Act, &acts);
        }
        Some(Command::CheckVacated { element, enemy }) => {
            current.0 = None;
            check_vacated(&mut t, &element, &enemy);
            super::turn::phase_done(&mut t, Phase::Act, &[Act::Observe]);
        }
        Some(Command::Runner { element }) => {
            current.0 = None;
            super::command_turn::runner(&mut t, &element);
            super::turn::phase_done(&mut t, Phase::Act, &[Act::SendRunner]);
        }
        Some(Command::Renet { element }) => {
            current.0 = None;
            super::command_turn::renet(&mut t, &element);
            super::turn::phase_done(&mut t, Phase::Act, &[Act::ReNetRadio]);
        }
        Some(Command::Extract { element, counter }) => {
            current.0 = None;
            extract(&mut t, &element, counter);
            super::turn::phase_done(&mut t, Phase::Act, &[Act::ExtractFromConcealment]);
        }
        _ => {}
    }
}

/// FYOB "Placement options": "A concealed element uses an Act to extract
/// itself from a concealed position", declared real at `counter` (its other
/// counters go); out of concealment, its first move loses no pips.
pub(super) fn extract(t: &mut Battlefield, element: &str, counter: u8) {
    let bound = t.battle.clock.bound();
    let mut els = t.elements.one(&t.roster, element);
    let Some(f) = els.as_mut() else {
        t.failures.record(&mut t.log, bound, "extract", element, format!("{element} is no element of the battle"));
        return;
    };
    let at = f.concealment.place(counter);
    let Some(Ok(true)) = f.concealment.state.clone().map(|mut c| c.act(ConcealedActivity::Extract, counter)) else {
        t.failures.record(&mut t.log, bound, "extract", element, format!("counter {counter} cannot be declared real"));
        return;
    };
    let ev = RuleEvent::new(EventKind::Concealment, RuleRef::new(Book::FightYourOwnBattles, "Placement options"))
        .actor(element)
        .input("act", Act::ExtractFromConcealment, "an Act extracts it from its concealed position")
        .input("counter", counter, "declared real; the other counters are removed")
        .outcome(serde_json::json!({ "revealed": true, "first_move": first_move_out(true) }));
    t.log.push(bound, ev);
    if let Some(at) = at {
        f.apply(Change::StandsAt(at));
    }
    f.apply(Change::Revealed);
}

/// *Heroes All*, "Checking vacated positions": "Throw 1 x D6 per observer
/// (minimum 2 x D6) and score a double to see that the enemy have now
/// vacated"; failed, it goes on as if the place is occupied.
pub(super) fn check_vacated(t: &mut Battlefield, element: &str, enemy: &str) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(element) else {
        t.failures.record(
            &mut t.log,
            bound,
            "check_vacated",
            element,
            format!("{element} is no element of the battle"),
        );
        return;
    };
    super::shared::reveal(&mut t.log, bound, &mut els[i], ConcealedActivity::Observe);
    match observation::check_vacated(&els[i].view().observers(), &mut t.dice.0, element) {
        Ok((vacated, event)) => {
            t.log.push(bound, event.target(enemy));
            if vacated {
                els[i].apply(Change::Vacated(enemy.to_owned()));
            }
        }
        Err(e) => {
            t.failures.record(&mut t.log, bound, "check_vacated", element, format!("no check can be made: {e}"));
        }
    }
    els[i].apply(Change::Observed);
}

/// Runs `f` on the observation test `me` would take on `tgt` now: its
/// observers, the target's figures and pieces, its momentum and orders, the
/// segments between them. `None` when it has no line to the target.
fn with_test<R>(
    sight: &Sight,
    me: &ElementView,
    tgt: &ElementView,
    failures: u8,
    codex: &Codex,
    f: impl FnOnce(&observation::ObservationTest<'_>) -> R,
) -> Option<R> {
    let observers = me.observers();
    let counted = tgt.targets(codex);
    let momentum = Momentum { cms: me.force.element.cms.clamp(1, 6), failures };
    let overwatch = me.order.on_overwatch() && sight.overwatch_covers(me, tgt.place.at);
    let test = sight.observation(me, tgt, &observers, &counted, momentum, overwatch)?;
    Some(f(&test))
}

/// The chance `me` sees `tgt` with an observation test now, from the rules'
/// own assessment of the test (before the dice).
pub fn chance_to_see(sight: &Sight, me: &ElementView, tgt: &ElementView, failures: u8) -> Option<f64> {
    let codex = sight.codex;
    with_test(sight, me, tgt, failures, codex, |test| observation::assess(test).ok().map(|a| a.chance_seen()))?
}

/// The chance `me` sees `target` (an element, or a counter as the element
/// would be there) with an observation test now.
pub fn chance_to_observe(
    sight: &Sight,
    me: &ElementView,
    all: &super::state::Elements,
    target: &ObserveTarget,
    failures: u8,
) -> Option<f64> {
    let e = all.get(target.element())?;
    let place = match target {
        ObserveTarget::Counter { counter, .. } => Place { at: e.concealment.place(*counter)?, ..e.place.clone() },
        ObserveTarget::Element(_) => e.place.clone(),
    };
    chance_to_see(sight, me, &ElementView { place: &place, ..*e }, failures)
}

/// An observation test by `element` on each of `targets`: an element in
/// the open, or a concealed element's counter. A counter is observed as the
/// element would be there, with its target classes and the concealment
/// segments; seen, its owner throws whether it is real or a dummy (FYOB
/// "Placement options"): a dummy is removed, the real element is revealed
/// standing at that counter. Test `observing_a_counter_throws_real_or_dummy`.
pub(super) fn do_observe(t: &mut Battlefield, element: &str, targets: &[ObserveTarget], failures: u8) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let codex = &*codex;
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(element) else {
        t.failures.record(&mut t.log, bound, "do_observe", element, format!("{} is no element of the battle", element));
        return;
    };
    // Observing gives a concealed observer away, before his tests.
    super::shared::reveal(&mut t.log, bound, &mut els[i], ConcealedActivity::Observe);
    let sight = Sight::new(&t.battle, codex);
    for target in targets {
        let id = target.element();
        let Some(j) = t.roster.index(id) else {
            t.failures.record(&mut t.log, bound, "do_observe", id, format!("{} is no element of the battle", id));
            continue;
        };
        let counter = match target {
            ObserveTarget::Counter { counter, .. } => Some(*counter),
            ObserveTarget::Element(_) => None,
        };
        let standing = els[j].concealment.counters();
        let counter_at = counter.and_then(|k| standing.iter().find(|(c, _)| *c == k).map(|(_, at)| *at));
        if counter.is_some() && counter_at.is_none() {
            // Removed by an earlier test of this Act (a dummy, or the element found elsewhere).
            continue;
        }
        let outcome = {
            let me = els[i].view();
            let tgt = els[j].view();
            let place = counter_at.map(|at| Place { at, ..tgt.place.clone() });
            let tgt = ElementView { place: place.as_ref().unwrap_or(tgt.place), ..tgt };
            with_test(&sight, &me, &tgt, failures, codex, |test| {
                observation::observe(test, &mut t.dice.0).map(|r| (r.event(), r.seen))
            })
        };
        let seen = match outcome {
            Some(Ok((mut event, seen))) => {
                if let Some(k) = counter {
                    event = event.input("counter", k, "a concealment counter observed in the element's stead");
                }
                let me = els[i].view();
                let place = counter_at.unwrap_or(els[j].place.at);
                if me.order.on_overwatch() && !sight.overwatch_covers(&me, place) {
                    event = event.input(
                        "overwatch_arc",
                        false,
                        "on Overwatch, but the target is outside the 180 degree arc it faces: no Overwatch segment",
                    );
                }
                t.log.push(bound, event.actor(element).target(id));
                seen
            }
            Some(Err(e)) => {
                debug!("{element} cannot observe {id}: {e}");
                false
            }
            None => false,
        };
        if !seen {
            continue;
        }
        let (Some(k), Some(at)) = (counter, counter_at) else {
            els[i].apply(Change::Knows(vec![id.to_owned()]));
            els[j].apply(Change::Revealed);
            continue;
        };
        let mut concealment = els[j].concealment.clone();
        let Some(Ok((spotted, event))) = concealment.state.as_mut().map(|c| c.observed(k, &mut t.dice.0)) else {
            t.failures.record(&mut t.log, bound, "do_observe", id, format!("counter {k} of {id} is not standing"));
            continue;
        };
        t.log.push(bound, event.target(element));
        match spotted {
            Spotted::Real => {
                els[j].apply(Change::StandsAt(at));
                els[j].apply(Change::Revealed);
                els[i].apply(Change::Knows(vec![id.to_owned()]));
            }
            Spotted::Dummy => {
                let stood_there = els[j].concealment.counter_at(els[j].place.at) == Some(k);
                els[j].apply(Change::Concealment(concealment));
                if stood_there {
                    // It was never there: it stands at the counter its owner would declare now.
                    let objective = sight.scenario.place(&els[j].order.objective.location).map(point);
                    let to = super::spawn::declared_place(els[j].concealment, objective.unwrap_or(at));
                    if let Some(to) = to {
                        els[j].apply(Change::StandsAt(to));
                    }
                }
            }
        }
    }
    els[i].apply(Change::Observed);
}
