//! End of bound (FYOB "End of bound"): Activity Counters become what each
//! element did "on its last turn", guards turn about, the clock moves on,
//! and the battle ends at its time limit.

use super::change::{BattleChange, Change, FlowChange};
use crate::prelude::*;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use super::{
    Battlefield, FlowSchedule, FlowSet, at, outcome, sorted,
    state::{Flow, Status},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, end_bound.in_set(FlowSet::EndBound).run_if(at(|f| *f == Flow::EndBound)));
}

fn end_bound(mut t: Battlefield) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    for f in els.iter_mut() {
        f.apply(Change::EndBound);
        // Heroes All, "Guards": "They move and then turn 180 degrees (in that
        // order) each bound." Reading: at the end of the bound, after any move.
        if let Some(g) = f.order.posted().filter(|_| f.presence.status.on_table()) {
            let event = RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Guards"))
                .actor(f.id().to_owned())
                .input("facing", g.facing, "they move and then turn 180 degrees, in that order, each bound")
                .outcome(serde_json::json!({ "facing": g.facing.reversed() }));
            t.log.push(bound, event);
            f.apply(Change::TurnAbout);
        }
    }
    drop(els);
    burn(&mut t);
    super::smoke::clear(&mut t);
    super::demolition::tick(&mut t);
    t.log.step_done();
    t.battle.apply(BattleChange::Deck(None));
    let bound = t.battle.clock.bound();
    if bound >= t.battle.start.last_bound() {
        outcome::time_up(&mut t);
    } else if let Some(session) = super::session::ends(&t) {
        super::session::pause(&mut t, session);
    } else {
        t.battle.apply(BattleChange::NextBound);
        t.flow.apply(FlowChange::To(Flow::StartBound));
    }
}

/// Burning buildings burn down a bound; "A burning building is destroyed
/// after the fire", and "if any occupants are unable to evacuate on their
/// next bound they are considered lost" (*Heroes All*, "Hits on buildings &
/// structures"). Reading: an element still inside when it falls is lost.
fn burn(t: &mut Battlefield) {
    let bound = t.battle.clock.bound();
    let mut fallen = Vec::new();
    for k in 0..t.battle.buildings.len() {
        let (feature, mut now) = t.battle.buildings[k];
        let falls = now.end_of_bound().is_some();
        if now != t.battle.buildings[k].1 {
            t.battle.apply(BattleChange::Building(k, now));
        }
        if falls {
            fallen.push(feature);
        }
    }
    if fallen.is_empty() {
        return;
    }
    let terrain = t.battle.terrain.clone();
    let mut els = sorted(&mut t.elements);
    for f in els.iter_mut().filter(|f| f.presence.status.on_table()) {
        let inside =
            warbound_rules::geometry::building_at(&terrain, f.place.at).is_some_and(|(k, _)| fallen.contains(&k));
        if inside {
            super::shared::leave(&mut t.log, bound, f, Status::Destroyed, "inside the building when it burned down");
        }
    }
}
