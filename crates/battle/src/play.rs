//! Driving the flow without a window: start a battle in a headless app, run
//! updates until it ends or a Player must decide, feed commands in.

use std::sync::Arc;

use crate::prelude::*;

use super::{
    command::{Command, CommandRecord, Current, Inbox},
    log::BattleLog,
    setup::{BattleResult, BattleStart, Control},
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

/// Runs updates until the battle is over or waits for a Player; returns the
/// updates run, or an error if the flow stalls.
pub fn advance(app: &mut App) -> Result<u32, String> {
    for n in 0..MAX_UPDATES {
        if is_over(app.world()) || waiting_for_player(app.world()) {
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
        if is_over(app.world()) {
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

/// The Player's commands given so far.
pub fn commands(world: &World) -> Vec<Command> {
    world.resource::<CommandRecord>().0.clone()
}
