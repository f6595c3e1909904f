//! The Act phase's observation tests (*Heroes All*, "Observation"): for each
//! target named, the segments are worked out from the terrain between the
//! two, the dice thrown, and a target seen becomes known to the element (and
//! is no longer concealed).

use super::change::Change;
use crate::prelude::*;
use warbound_rules::{
    codex::Codex,
    observation::{self, Momentum},
    order_dice::{Act, Phase},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{Command, Current},
    sorted,
    state::{ElementView, Flow},
    visible::Sight,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, observe_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

fn observe_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    if let Some(Command::CheckVacated { element, enemy }) = current.0.clone() {
        current.0 = None;
        check_vacated(&mut t, &element, &enemy);
        super::turn::phase_done(&mut t, Phase::Act, &[Act::Observe]);
        return;
    }
    let Some(Command::Observe { element, targets }) = current.0.clone() else { return };
    current.0 = None;
    let Flow::Acting(turn) = &*t.flow else { return };
    let failures = turn.failures;
    do_observe(&mut t, &element, &targets, failures);
    let acts = vec![Act::Observe; targets.len()];
    super::turn::phase_done(&mut t, Phase::Act, &acts);
}

/// *Heroes All*, "Checking vacated positions": "Throw 1 x D6 per observer
/// (minimum 2 x D6) and score a double to see that the enemy have now
/// vacated"; failed, it goes on as if the place is occupied.
fn check_vacated(t: &mut Battlefield, element: &str, enemy: &str) {
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
    super::shared::reveal(&mut t.log, bound, &mut els[i], warbound_rules::concealment::ConcealedActivity::Observe);
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
    let overwatch = me.order.objective.activity.conduct().overwatch;
    let test = sight.observation(me, tgt, &observers, &counted, momentum, overwatch)?;
    Some(f(&test))
}

/// The chance `me` sees `tgt` with an observation test now, from the rules'
/// own assessment of the test (before the dice).
pub fn chance_to_see(sight: &Sight, me: &ElementView, tgt: &ElementView, failures: u8) -> Option<f64> {
    let codex = sight.codex;
    with_test(sight, me, tgt, failures, codex, |test| observation::assess(test).ok().map(|a| a.chance_seen()))?
}

/// An observation test by `element` on each of `targets`.
pub(super) fn do_observe(t: &mut Battlefield, element: &str, targets: &[String], failures: u8) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let codex = &*codex;
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(element) else {
        t.failures.record(&mut t.log, bound, "do_observe", element, format!("{} is no element of the battle", element));
        return;
    };
    // Observing gives a concealed observer away, before his tests.
    super::shared::reveal(&mut t.log, bound, &mut els[i], warbound_rules::concealment::ConcealedActivity::Observe);
    let sight = Sight::new(&t.battle, codex);
    for id in targets {
        let Some(j) = t.roster.index(id) else {
            t.failures.record(&mut t.log, bound, "do_observe", id, format!("{} is no element of the battle", id));
            continue;
        };
        let (me, tgt) = (&els[i].view(), &els[j].view());
        let outcome = with_test(&sight, me, tgt, failures, codex, |test| {
            observation::observe(test, &mut t.dice.0).map(|r| (r.event(), r.seen))
        });
        let seen = match outcome {
            Some(Ok((event, seen))) => {
                t.log.push(bound, event.actor(me.id()).target(tgt.id()));
                seen
            }
            Some(Err(e)) => {
                debug!("{element} cannot observe {id}: {e}");
                false
            }
            None => false,
        };
        if seen {
            els[i].apply(Change::Knows(vec![id.clone()]));
            els[j].apply(Change::Revealed);
        }
    }
    els[i].apply(Change::Observed);
}
