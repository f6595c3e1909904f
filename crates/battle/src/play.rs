//! Driving the flow without a window: start a battle in a headless app, run
//! updates until it ends or a Player must decide, feed commands in.

use std::sync::Arc;

use crate::prelude::*;

use super::{
    command::{Command, CommandRecord, Current, Inbox},
    log::BattleLog,
    setup::{BattleResult, BattleStart, Continuation, Control},
    spawn,
    state::{Battle, Flow, Force, Identity, Sides},
};
use warbound_rules::codex::Codex;

use crate::BattleCodex;

/// Most updates one battle may take: far above any real battle (a bound is a
/// few hundred updates), it stops a flow that no longer moves.
pub const MAX_UPDATES: u32 = 2_000_000;

/// An app that is a battle and nothing else: `start`'s battle set up on
/// `codex`, its log going to `log` (headless play, replay, tests, the soak).
pub fn battle_app(start: BattleStart, log: BattleLog, codex: Arc<Codex>) -> Result<App, String> {
    let mut app = App::new();
    app.add_plugins(super::plugin);
    app.insert_resource(log).insert_resource(BattleCodex(codex));
    spawn::start(app.world_mut(), start)?;
    Ok(app)
}

/// Whether the flow waits for a Player's command.
pub fn waiting_for_player(world: &World) -> bool {
    if !world.resource::<Inbox>().0.is_empty() || world.resource::<Current>().0.is_some() {
        return false;
    }
    let Some(sides) = world.get_resource::<Sides>() else { return false };
    match world.get_resource::<Flow>() {
        Some(Flow::Commanding(h)) => return sides.0[h.player].control == Control::Player,
        Some(Flow::CoTurn { side, .. } | Flow::Session { side }) => return sides.0[*side].control == Control::Player,
        Some(Flow::Seize { .. }) => return true,
        _ => {}
    }
    let Some(Flow::Acting(turn)) = world.get_resource::<Flow>() else { return false };
    let mut q = world.try_query::<(&Identity, &Force)>().expect("elements are registered");
    q.iter(world).find(|(_, f)| f.id() == turn.element).is_some_and(|(i, _)| sides.0[i.side].control == Control::Player)
}

pub fn is_over(world: &World) -> bool {
    matches!(world.get_resource::<Flow>(), Some(Flow::Over))
}

/// Whether the battle waits for the campaign: a session's bounds are played
/// and no continuation is given ([`resume`]).
pub fn is_paused(world: &World) -> bool {
    matches!(world.get_resource::<Flow>(), Some(Flow::Paused))
        && world.get_resource::<Battle>().is_some_and(|b| b.result.is_some())
}

/// Whether the battle is over or waits for the campaign.
pub fn stopped(world: &World) -> bool {
    is_over(world) || is_paused(world)
}

/// Runs updates until the battle is over or waits for a Player; returns the
/// updates run, or an error if the flow stalls.
pub fn advance(app: &mut App) -> Result<u32, String> {
    for n in 0..MAX_UPDATES {
        if stopped(app.world()) || waiting_for_player(app.world()) {
            return Ok(n);
        }
        app.update();
    }
    Err(format!("the battle flow did not settle in {MAX_UPDATES} updates"))
}

/// Gives a Player's command and runs on to the next decision.
pub fn command(app: &mut App, cmd: Command) -> Result<u32, String> {
    app.world_mut().resource_mut::<Inbox>().0.push_back(cmd);
    app.update();
    advance(app)
}

/// Replays `commands` (the Player's, in order) from the start.
pub fn replay(app: &mut App, commands: &[Command]) -> Result<(), String> {
    advance(app)?;
    for cmd in commands {
        if stopped(app.world()) {
            break;
        }
        command(app, cmd.clone())?;
    }
    Ok(())
}

/// Plays a battle with both sides Auto to its end.
pub fn autoplay(mut start: BattleStart, log: BattleLog, codex: Arc<Codex>) -> Result<(App, BattleResult), String> {
    start.control = vec![Control::Auto; start.scenario.sides.len()];
    let mut app = battle_app(start, log, codex)?;
    advance(&mut app)?;
    let result = app.world().resource::<Battle>().result.clone().ok_or("the battle did not end")?;
    if let Some(e) = &app.world().resource::<BattleLog>().failed {
        return Err(format!("writing the battle log failed: {e}"));
    }
    Ok((app, result))
}

/// Gives a paused battle the campaign's continuation for the session just
/// played: it joins the battle's start (so a save of the battle replays to
/// here and on), and the flow goes on with it (FYOW "The role of the
/// \"Umpire\""). Nothing changes if it is refused.
pub fn continue_with(world: &mut World, c: Continuation) -> Result<(), String> {
    if !is_paused(world) {
        return Err("the battle is not waiting for the campaign".into());
    }
    spawn::check_joining(world, &c)?;
    let mut battle = world.resource_mut::<Battle>();
    battle.start.continuations.push(c);
    battle.result = None;
    Ok(())
}

/// [`continue_with`], then runs on to the next pause or the end and returns
/// the result there; an error if a Player must decide first.
pub fn resume(app: &mut App, c: Continuation) -> Result<BattleResult, String> {
    continue_with(app.world_mut(), c)?;
    advance(app)?;
    if !stopped(app.world()) {
        return Err("the battle waits for a Player's command".into());
    }
    app.world().resource::<Battle>().result.clone().ok_or_else(|| "the battle has no result".into())
}

/// The Player's commands given so far.
pub fn commands(world: &World) -> Vec<Command> {
    world.resource::<CommandRecord>().0.clone()
}
