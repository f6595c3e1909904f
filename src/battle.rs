//! The battle screen: which battle is on the table, starting it on entering
//! the screen and clearing it on leaving, the game's CODEX and build given to
//! it, and where its saves go. The battle itself is the `warbound_battle`
//! crate, re-exported here whole, so the game names it `battle::…`.

use std::path::PathBuf;

use bevy::prelude::*;
pub use warbound_battle::*;

use crate::{data::LoadedScenario, states::AppState};

/// The element the player is looking at (its id): the Cardsheet shows it.
/// Any panel or the table may set it; the battle panels only read the battle state.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Selected(pub Option<String>);

/// The scenario on the table, if a battle has been chosen.
#[derive(Resource, Debug, Default, Clone)]
pub struct ActiveBattle(pub Option<LoadedScenario>);

/// Asks to start a battle on `scenario` (from the picker or the command line).
#[derive(Message, Debug, Clone)]
pub struct StartBattle(pub LoadedScenario);

/// How a battle chosen on screen (or with `--scenario`) starts: its dice
/// seed, which side the person at the screen commands (`None`: both Auto, a
/// demonstration), and whether it is the 2-player Command Dice game (then
/// both sides are commanded at the screen in turn, a hotseat).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewBattle {
    pub seed: u64,
    pub player: Option<usize>,
    pub two_player: bool,
}

impl Default for NewBattle {
    fn default() -> Self {
        Self { seed: 42, player: Some(0), two_player: false }
    }
}

/// The battle on the table is one of the campaign's: leaving the battle
/// screen for the campaign map keeps it for its next session.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct CampaignBattle {
    pub key: String,
    pub attacker: String,
    pub defender: String,
}

/// A saved battle to resume on entering the battle screen (the title's Continue).
#[derive(Resource, Debug, Default, Clone)]
pub struct Resume(pub Option<save::Save>);

/// The autosave file in the user's data directory.
pub fn autosave_path() -> Option<PathBuf> {
    crate::settings::data_dir().map(|d| d.join(save::AUTOSAVE))
}

/// Where named saves go: `<data dir>/saves`.
pub fn saves_dir() -> Option<PathBuf> {
    crate::settings::data_dir().map(|d| d.join(save::SAVES_DIR))
}

/// The battle in a headless battle app (`--headless --seed`, replay).
pub fn battle_app(start: setup::BattleStart, log: log::BattleLog) -> Result<App, String> {
    let codex = crate::data::shared_codex().map_err(|e| e.to_string())?;
    let mut app = play::battle_app(start, log, codex)?;
    app.insert_resource(save::BuildStamp(crate::launch::BUILD.to_owned()));
    Ok(app)
}

pub(super) fn screen_plugin(app: &mut App) {
    app.add_plugins(plugin)
        .init_resource::<ActiveBattle>()
        .init_resource::<NewBattle>()
        .init_resource::<Resume>()
        .insert_resource(save::BuildStamp(crate::launch::BUILD.to_owned()))
        .add_message::<StartBattle>()
        // The battle waits while a menu is open over it (pause, settings).
        .configure_sets(
            Update,
            BattleSystems.run_if(in_state(AppState::Battle).and_then(in_state(crate::states::Menu::Closed))),
        )
        .add_systems(Update, start_battle)
        .add_systems(OnEnter(AppState::Battle), (announce, begin).chain())
        .add_systems(OnExit(AppState::Battle), leave);
    match crate::data::shared_codex() {
        Ok(codex) => {
            app.insert_resource(BattleCodex(codex));
        }
        Err(e) => error!("the built-in CODEX cannot be read: {e}"),
    }
}

fn start_battle(
    mut requests: MessageReader<StartBattle>,
    mut active: ResMut<ActiveBattle>,
    mut next: ResMut<NextState<AppState>>,
) {
    if let Some(StartBattle(scenario)) = requests.read().last() {
        active.0 = Some(scenario.clone());
        next.set(AppState::Battle);
    }
}

fn announce(active: Res<ActiveBattle>) {
    match &active.0 {
        Some(b) => info!("battle begins: {} ({})", b.scenario.name, b.source),
        None => warn!("battle screen entered with no scenario"),
    }
}

/// Sets the chosen battle up on entering the battle screen, unless one is
/// already set up (a headless battle is started before its first update).
fn begin(world: &mut World) {
    if world.contains_resource::<state::Battle>() {
        return;
    }
    if let Some(saved) = world.resource_mut::<Resume>().0.take() {
        if let Err(e) = resume_from(world, saved) {
            error!("cannot resume the battle: {e}");
        }
        return;
    }
    let Some(loaded) = world.resource::<ActiveBattle>().0.clone() else { return };
    let new = world.get_resource::<NewBattle>().copied().unwrap_or_default();
    let mut start = setup::BattleStart::auto(&loaded.source, loaded.scenario, new.seed);
    if let Some(side) = new.player.filter(|&s| s < start.control.len()) {
        start.control[side] = setup::Control::Player;
        // The hotseat: every side is commanded at the screen.
        if new.two_player {
            start.control.fill(setup::Control::Player);
        }
    }
    if new.two_player {
        start.mechanism = setup::Mechanism::TwoPlayer;
    }
    if let Err(e) = spawn::start(world, start) {
        error!("cannot start the battle: {e}");
    }
}

/// Leaving the battle screen takes the battle off the table, unless it is a
/// campaign's, kept between its sessions.
fn leave(world: &mut World) {
    if world.contains_resource::<CampaignBattle>() {
        return;
    }
    world.resource_mut::<ActiveBattle>().0 = None;
    clear(world);
}

/// [`warbound_battle::restart`] with the screen's battle, where there is a
/// screen, changed to the save's.
pub fn restart(world: &mut World, saved: save::Save) -> Result<(), String> {
    if let Some(mut active) = world.get_resource_mut::<ActiveBattle>() {
        active.0 = Some(LoadedScenario { source: saved.start.source.clone(), scenario: saved.start.scenario.clone() });
    }
    warbound_battle::restart(world, saved)
}
