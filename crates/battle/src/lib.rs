//! The battle: *Fight Your Own Battles*' bound run as ECS systems over the
//! rules core, on Bevy's ECS alone (no renderer, no window). Elements are
//! entities ([`state::Fielded`]); each step of the bound is a system in its
//! own file, chained in [`FlowSet`] order, and runs while [`state::Flow`] is
//! at its step: start of bound (arrivals, the Senior Officers' session),
//! dealing OPCs, each card's turn (ORT, CM tests, Order Die; a Company
//! Officer's command turn), the acting element's commands (Auto or Player)
//! carried out as move, fire and observe phases, end of bound. Every rule step
//! logs its event in [`log::BattleLog`]; a step that cannot resolve is an
//! [`invariant::InvariantFailure`].
//!
//! The game adds [`plugin`] to its app and gates [`BattleSystems`] to its
//! battle screen; [`play::battle_app`] is a battle with no game around it
//! (headless play, replay, undo, tests, the soak).

use std::sync::Arc;

use bevy_ecs::{
    schedule::{ScheduleLabel, SingleThreadedExecutor},
    system::SystemParam,
};
use warbound_rules::codex::Codex;

use prelude::*;

/// What every file of the battle uses from Bevy.
pub mod prelude {
    pub use bevy_app::prelude::*;
    pub use bevy_ecs::change_detection::Mut;
    pub use bevy_ecs::prelude::*;
    pub use bevy_log::{debug, error, info, warn};
}

mod activation;
mod air;
mod airborne;
mod artillery;
mod assault;
mod auto;
mod bridging;
pub mod change;
mod check;
pub mod command;
mod command_turn;
mod deal;
pub mod demolition;
mod demolition_vehicles;
mod dispatch;
mod end_bound;
mod firing;
mod guards;
pub mod hotseat;
pub mod invariant;
mod landing;
pub mod log;
pub mod movement;
pub mod names;
pub mod observation;
mod officers;
pub mod options;
pub mod outcome;
pub mod play;
pub mod report;
pub mod river_craft;
pub mod save;
mod session;
mod setting_fire;
pub mod setup;
mod shared;
pub mod shipped;
mod smoke;
pub mod spawn;
mod start_bound;
pub mod state;
pub mod transport;
mod turn;
mod two_player;
pub mod visible;

use change::{AllElements, Held, HeldBattle, HeldFlow, HeldSides};
use state::{Battle, BattleDice, Flow};

/// The Player's saved commands still to be given again while a save resumes,
/// and the flow pace to return to after them.
#[derive(Resource, Debug, Default, Clone)]
pub struct Replaying {
    pub commands: std::collections::VecDeque<command::Command>,
    pub pace: Option<FlowPace>,
}

/// The steps of a bound, in the order the systems run within one update.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FlowSet {
    StartBound,
    Deal,
    Card,
    Auto,
    Dispatch,
    Phase,
    EndBound,
}

/// The schedule the flow systems run in: run by `drive` as many times an
/// update as [`FlowPace`] allows, on one thread (each step is small; waking a
/// thread pool for each would cost more than the rules).
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct FlowSchedule;

/// Flow steps run per update at most: many for headless play, one for tests
/// that watch each step, few for a table the player watches.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowPace(pub u32);

impl Default for FlowPace {
    fn default() -> Self {
        Self(10_000)
    }
}

/// The least time between flow steps, for a battle shown at a walking pace
/// (a demonstration); none by default.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct FlowInterval(pub std::time::Duration);

/// Inserted by a view that shows each assault as it happens: the flow stops
/// after a step that logs an assault and waits, `held`, until the view has
/// shown it (assailants closing, grenades, each round's dice) and lets it go
/// on. Headless play never inserts it.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct WatchAssaults {
    pub held: bool,
}

/// Runs the flow until it waits for a Player, the battle is over, or the
/// pace is used up (or an assault is to be watched).
fn drive(world: &mut World, mut last: Local<Option<std::time::Instant>>) {
    // A save being replayed is not watched.
    let watch = world.get_resource::<WatchAssaults>().copied().filter(|_| !replaying(world));
    if watch.is_some_and(|w| w.held) {
        return;
    }
    if let Some(FlowInterval(every)) = world.get_resource::<FlowInterval>().copied() {
        let now = std::time::Instant::now();
        if last.is_some_and(|t| now.duration_since(t) < every) {
            return;
        }
        *last = Some(now);
    }
    let pace = world.get_resource::<FlowPace>().copied().unwrap_or_default().0;
    let started = std::time::Instant::now();
    for _ in 0..pace {
        if play::stopped(world) || play::waiting_for_player(world) {
            break;
        }
        let before = world.resource::<log::BattleLog>().entries.len();
        world.run_schedule(FlowSchedule);
        if watch.is_some() {
            let log = world.resource::<log::BattleLog>();
            let assault = log.entries[before.min(log.entries.len())..]
                .iter()
                .any(|e| e.event.kind == warbound_rules::event::EventKind::Assault);
            if assault {
                world.resource_mut::<WatchAssaults>().held = true;
                break;
            }
        }
    }
    if let Some(mut cpu) = world.get_resource_mut::<FlowCpu>() {
        cpu.0 = started.elapsed().as_secs_f64() * 1000.0;
    }
}

/// Milliseconds the battle flow took in the last frame (for the frame bench).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct FlowCpu(pub f64);

/// The battle state every flow system reads and writes.
#[derive(SystemParam)]
pub struct Battlefield<'w, 's> {
    pub battle: HeldBattle<'w>,
    pub sides: HeldSides<'w>,
    pub dice: ResMut<'w, BattleDice>,
    pub log: ResMut<'w, log::BattleLog>,
    pub flow: HeldFlow<'w>,
    pub elements: AllElements<'w, 's>,
    pub roster: Res<'w, state::Roster>,
    pub codex: Res<'w, BattleCodex>,
    pub failures: ResMut<'w, invariant::InvariantFailures>,
}

impl Battlefield<'_, '_> {
    /// Records that a rule step could not resolve (see [`invariant`]).
    pub fn fail(&mut self, step: &'static str, actor: &str, what: impl Into<String>) {
        let bound = self.battle.clock.bound();
        self.failures.record(&mut self.log, bound, step, actor, what.into());
    }
}

/// Every element, in scenario order, held to read and change.
pub fn sorted<'a>(elements: &'a mut AllElements<'_, '_>) -> Vec<Held<'a>> {
    elements.sorted()
}

/// Two different elements of `els`, both mutable.
pub fn pair_mut<T>(els: &mut [T], i: usize, j: usize) -> (&mut T, &mut T) {
    assert_ne!(i, j, "two different elements");
    if i < j {
        let (l, r) = els.split_at_mut(j);
        (&mut l[i], &mut r[0])
    } else {
        let (l, r) = els.split_at_mut(i);
        (&mut r[0], &mut l[j])
    }
}

/// Runs only while the flow is at `step` (compared by kind).
pub fn at(step: fn(&Flow) -> bool) -> impl FnMut(Option<Res<Flow>>) -> bool + Clone {
    move |flow: Option<Res<Flow>>| flow.is_some_and(|f| step(&f))
}

/// The battle's systems in `Update`: the game runs them only on its battle
/// screen with no menu open (a menu pauses the battle); a battle with no game
/// around it ([`play::battle_app`]) runs them always.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BattleSystems;

/// The CODEX the battle's elements were built from and every step reads:
/// given by whoever starts the battle (the game's built-in one, or one
/// loaded from files), never a global.
#[derive(Resource, Debug, Clone)]
pub struct BattleCodex(pub Arc<Codex>);

pub fn plugin(app: &mut App) {
    app.init_resource::<Flow>()
        .init_resource::<log::BattleLog>()
        .init_resource::<command::Inbox>()
        .init_resource::<command::AutoChecked>()
        .init_resource::<command::Current>()
        .init_resource::<command::CommandRecord>()
        .init_resource::<invariant::InvariantFailures>()
        .init_resource::<FlowPace>()
        .init_schedule(FlowSchedule)
        .edit_schedule(FlowSchedule, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        })
        .add_systems(Update, drive.in_set(BattleSystems).run_if(resource_exists::<Battle>))
        .configure_sets(
            FlowSchedule,
            (
                FlowSet::StartBound,
                FlowSet::Deal,
                FlowSet::Card,
                FlowSet::Auto,
                FlowSet::Dispatch,
                FlowSet::Phase,
                FlowSet::EndBound,
            )
                .chain(),
        )
        .init_resource::<Replaying>()
        .init_resource::<FlowCpu>()
        .add_systems(Update, replay_saved.before(drive).in_set(BattleSystems))
        .add_plugins((
            start_bound::plugin,
            deal::plugin,
            activation::plugin,
            auto::plugin,
            dispatch::plugin,
            movement::plugin,
            firing::plugin,
            assault::plugin,
            observation::plugin,
            end_bound::plugin,
            save::plugin,
            two_player::plugin,
            officers::plugin,
            demolition::plugin,
            bridging::plugin,
        ))
        .add_plugins((smoke::plugin, air::plugin, demolition_vehicles::plugin, session::plugin, transport::plugin))
        .add_plugins((river_craft::plugin, setting_fire::plugin));
}

/// Sets `saved`'s battle up from its start and queues the Player's commands
/// to be given again (as fast as the flow goes; `replay_saved` gives them).
pub fn resume_from(world: &mut World, saved: save::Save) -> Result<(), String> {
    // The pace to return to: the one kept by a replay still finishing, else the one set now.
    let pace = world.get_resource_mut::<Replaying>().and_then(|mut r| r.pace.take());
    let pace = pace.or_else(|| world.get_resource::<FlowPace>().copied());
    spawn::start(world, saved.start)?;
    world.insert_resource(Replaying { commands: saved.commands.into(), pace });
    world.insert_resource(FlowPace::default());
    Ok(())
}

/// Whether a save is still being replayed (its commands not all given again).
pub fn replaying(world: &World) -> bool {
    world.get_resource::<Replaying>().is_some_and(|r| !r.commands.is_empty())
}

/// Puts `saved`'s battle on the table in place of the one there, without
/// leaving the battle screen: the battle is torn down (its elements, its
/// log, its flow) and set up again from the save's start, and the save's
/// commands are replayed as on loading (the title's Continue). Loading a
/// named save in battle and undoing both come here.
pub fn restart(world: &mut World, saved: save::Save) -> Result<(), String> {
    world.resource_mut::<log::BattleLog>().entries.clear();
    world.remove_resource::<Battle>();
    world.resource_mut::<Replaying>().commands.clear();
    resume_from(world, saved)
}

/// Undo (see `docs/rules-readings.md`, "Undo"): takes back the Player's last
/// command and replays the battle from its start value to the decision
/// before it. The dice are one seeded stream, so every die thrown up to that
/// decision comes up as it did, and whatever is commanded next meets the
/// same next throw: undoing never re-rolls a die ("the die stays as
/// thrown"). Returns whether there was a command to take back; nothing
/// happens while a save is still being replayed (an undo never lands in the
/// middle of a replay).
pub fn undo(world: &mut World) -> Result<bool, String> {
    if replaying(world) {
        return Ok(false);
    }
    let Some(undone) = save::snapshot(world).as_ref().and_then(save::undo) else { return Ok(false) };
    restart(world, undone)?;
    Ok(true)
}

/// Whether [`undo`] would take a command back now; if not, why not.
pub fn can_undo(world: &World) -> Result<(), &'static str> {
    undo_refusal(
        world.contains_resource::<Battle>(),
        world.get_resource::<command::CommandRecord>(),
        world.get_resource::<Replaying>(),
    )
}

/// [`can_undo`] from the resources it reads (for systems that hold them).
pub fn undo_refusal(
    battle: bool,
    record: Option<&command::CommandRecord>,
    replay: Option<&Replaying>,
) -> Result<(), &'static str> {
    if !battle {
        return Err("There is no battle on the table.");
    }
    if replay.is_some_and(|r| !r.commands.is_empty()) {
        return Err("The battle is still being replayed.");
    }
    if record.is_none_or(|r| r.0.is_empty()) {
        return Err("You have given no command to take back.");
    }
    Ok(())
}

/// Gives the saved commands back one at a time as the flow asks for them.
fn replay_saved(world: &mut World) {
    if world.resource::<Replaying>().commands.is_empty() {
        if let Some(pace) = world.resource_mut::<Replaying>().pace.take() {
            world.insert_resource(pace);
        }
        return;
    }
    if play::waiting_for_player(world)
        && let Some(cmd) = world.resource_mut::<Replaying>().commands.pop_front()
    {
        world.resource_mut::<command::Inbox>().0.push_back(cmd);
    }
}

/// Takes the battle off the table: its elements, its state and its flow
/// ("battle entities go when the battle goes").
pub fn clear(world: &mut World) {
    let old: Vec<Entity> = world.query_filtered::<Entity, With<state::Identity>>().iter(world).collect();
    for e in old {
        world.despawn(e);
    }
    world.remove_resource::<Battle>();
    world.remove_resource::<state::Roster>();
    if let Some(mut flow) = world.get_resource_mut::<Flow>() {
        *flow = Flow::Idle;
    }
}
