//! The Act phase's observation tests (*Heroes All*, "Observation"): for each
//! target named, the segments are worked out from the terrain between the
//! two, the dice thrown, and a target seen becomes known to the element (and
//! is no longer concealed).

use bevy::prelude::*;
use warbound_rules::{
    observation::{self, Momentum},
    order_dice::{Act, Phase},
};

use super::{
    FlowSchedule, FlowSet, Table, at,
    command::{Command, Current},
    dispatch, sorted,
    state::Flow,
    visible::Sight,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, observe_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

fn observe_phase(mut t: Table, mut current: ResMut<Current>) {
    let Some(Command::Observe { element, targets }) = current.0.clone() else { return };
    current.0 = None;
    let Flow::Acting(turn) = &*t.flow else { return };
    let failures = turn.failures;
    do_observe(&mut t, &element, &targets, failures);
    let acts = vec![Act::Observe; targets.len()];
    dispatch::phase_done(&mut t, Phase::Act, &acts);
}

/// An observation test by `element` on each of `targets`.
pub(super) fn do_observe(t: &mut Table, element: &str, targets: &[String], failures: u8) {
    let bound = t.battle.clock.bound();
    let Ok(codex) = crate::data::codex() else { return };
    let mut els = sorted(&mut t.elements);
    let Some(i) = els.iter().position(|f| f.id() == element) else { return };
    let sight = Sight::new(&t.battle, codex);
    for id in targets {
        let Some(j) = els.iter().position(|f| f.id() == id) else { continue };
        let (me, tgt) = (&els[i], &els[j]);
        let observers = me.observers();
        let counted = tgt.targets(codex);
        let momentum = Momentum { cms: me.element.cms.clamp(1, 6), failures };
        let overwatch = me.order.activity.conduct().overwatch;
        let Some(test) = sight.observation(me, tgt, &observers, &counted, momentum, overwatch) else { continue };
        let seen = match observation::observe(&test, &mut t.dice.0) {
            Ok(result) => {
                t.log.push(bound, result.event().actor(me.id()).target(tgt.id()));
                result.seen
            }
            Err(e) => {
                debug!("{element} cannot observe {id}: {e}");
                false
            }
        };
        if seen {
            els[i].known.insert(id.clone());
            els[j].concealed = false;
        }
    }
    els[i].this_bound.observed = true;
}
