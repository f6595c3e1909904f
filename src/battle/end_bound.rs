//! End of bound (FYOB "End of bound"): Activity Counters become what each
//! element did "on its last turn", the clock moves on, and the battle ends
//! at its time limit.

use bevy::prelude::*;

use super::{
    FlowSchedule, FlowSet, Table, at, outcome, sorted,
    state::{Flow, Marks},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, end_bound.in_set(FlowSet::EndBound).run_if(at(|f| *f == Flow::EndBound)));
}

fn end_bound(mut t: Table) {
    let mut els = sorted(&mut t.elements);
    for f in els.iter_mut() {
        f.last_bound = std::mem::take(&mut f.this_bound);
        f.counter = None;
        if !f.status.on_table() {
            f.last_bound = Marks::default();
        }
    }
    drop(els);
    super::demolition::tick(&mut t);
    t.battle.deck = None;
    let bound = t.battle.clock.bound();
    if bound >= t.battle.start.last_bound() {
        outcome::time_up(&mut t);
    } else {
        t.battle.clock.next_bound();
        *t.flow = Flow::StartBound;
    }
}
