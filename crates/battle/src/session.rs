//! A campaign battle's sessions (FYOW "The role of the \"Umpire\"": "After 4
//! bounds of tabletop action, the player is directed back to the campaign
//! map ... If another Battlegroup or Fraction joins in with that engagement,
//! this must be represented on the tabletop by the arrival of that force in
//! the appropriate \"Box\" on the table before the next 4 bounds are
//! played"): after each session's bounds the battle pauses, and goes on with
//! the campaign's [`Continuation`] for it: the forces joining (FYOW 15.7) and
//! the new session's weather.

use bevy_ecs::system::SystemState;

use super::change::{BattleChange, FlowChange};
use crate::prelude::*;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    log::BattleLog,
    outcome,
    setup::{Continuation, Decision},
    state::{Battle, Flow},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, continue_session.after(FlowSet::EndBound).run_if(at(|f| *f == Flow::Paused)));
}

fn umpire() -> RuleRef {
    RuleRef::new(Book::FightYourOwnWars, "The role of the \"Umpire\"")
}

/// The session (1-based) whose last bound has just ended, in a battle played
/// in sessions ([`crate::setup::BattleStart::pause_every`]).
pub(super) fn ends(t: &Battlefield) -> Option<usize> {
    let n = t.battle.start.pause_every.filter(|n| *n > 0)?;
    let bound = t.battle.clock.bound();
    bound.is_multiple_of(n).then_some((bound / n) as usize)
}

/// The session's bounds are played: play goes back to the campaign map. The
/// battle waits for the campaign's continuation (its result, meanwhile,
/// [`Decision::Paused`]), or goes on with it where the start holds it
/// already (a replay).
pub(super) fn pause(t: &mut Battlefield, session: usize) {
    let bound = t.battle.clock.bound();
    let ev = RuleEvent::new(EventKind::Calendar, umpire())
        .input("bound", bound, "after 4 bounds of tabletop action, the player is directed back to the campaign map")
        .input("session", session, "the campaign session ending")
        .outcome(serde_json::json!({ "back_to_the_campaign_map": true }));
    t.log.push(bound, ev);
    if t.battle.start.continuations.len() < session {
        let result = outcome::result(t, None, Decision::Paused);
        t.battle.apply(BattleChange::Result(result));
    }
    t.flow.apply(FlowChange::To(Flow::Paused));
}

/// The continuation due now, with the session it ends, when one is given.
fn due(battle: &Battle) -> Option<(usize, Continuation)> {
    if battle.result.is_some() {
        return None;
    }
    let n = battle.start.pause_every.filter(|n| *n > 0)?;
    let session = (battle.clock.bound() / n) as usize;
    let c = battle.start.continuations.get(session.checked_sub(1)?)?;
    Some((session, c.clone()))
}

/// The battle goes on with the continuation given for the session just
/// ended: logged, then the companies joining are placed in their box (FYOW
/// 15.7, [`super::spawn::join`]) and their Company Officers net their radios
/// as the others did at the start (FYOB "Radios"), and the session's weather
/// holds from the next bound.
fn continue_session(world: &mut World) {
    let Some((session, c)) = world.get_resource::<Battle>().and_then(due) else { return };
    let bound = world.resource::<Battle>().clock.bound();
    let names: Vec<String> = world.resource::<super::state::Sides>().0.iter().map(|s| s.name.clone()).collect();
    let joining: Vec<serde_json::Value> = c
        .joining
        .iter()
        .map(|j| {
            serde_json::json!({
                "company": j.company.id,
                "side": names.get(j.side),
                "after_bounds": j.after_bounds,
                "arrives": bound + 1 + u32::from(j.after_bounds),
                "edge": j.company.edge,
            })
        })
        .collect();
    let weather = c.weather.map(|w| serde_json::to_value(w).unwrap_or_default());
    let ev = RuleEvent::new(EventKind::Calendar, umpire())
        .input("session", session + 1, "the campaign session beginning: the engagement continues")
        .input("joining", joining, "FYOW 15.7: placed in the appropriate \"box\" ready to join the battle")
        .input("weather", weather, "the session's weather, from the next bound; none: unchanged")
        .outcome(serde_json::json!({ "continues_from_bound": bound + 1 }));
    world.resource_mut::<BattleLog>().push(bound, ev);
    let joined = super::spawn::join(world, &c);
    let mut state: SystemState<Battlefield> = SystemState::new(world);
    let Ok(mut t) = state.get_mut(world) else {
        error!("the battle's state cannot be read to continue it");
        return;
    };
    let joined = joined.unwrap_or_else(|e| {
        t.fail("continuation", "campaign", e);
        Vec::new()
    });
    if t.battle.start.mechanism == super::setup::Mechanism::Solo {
        for (s, k) in joined {
            super::command_turn::net_in(&mut t, s, k);
        }
    }
    if let Some(w) = c.weather {
        t.battle.apply(BattleChange::Weather(w));
    }
    t.battle.apply(BattleChange::NextBound);
    t.flow.apply(FlowChange::To(Flow::StartBound));
    state.apply(world);
}
