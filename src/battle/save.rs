//! Saves: a battle is its start value plus the Player's commands; loading
//! replays them with the same seed, so the game resumes exactly. Written
//! atomically (a temp file renamed over the save) after every bound.

use std::{
    fs, io,
    path::{Path, PathBuf},
};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::{
    FlowSchedule, FlowSet,
    command::{Command, CommandRecord},
    log::BattleLog,
    play,
    setup::BattleStart,
    state::{Battle, Flow},
};

/// What a save file holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Save {
    /// The build that wrote it.
    pub build: String,
    pub start: BattleStart,
    pub commands: Vec<Command>,
    /// The bound reached, for the player's information.
    pub bound: u32,
}

/// Where autosaves go; none (the default) turns autosaving off.
#[derive(Resource, Debug, Default, Clone)]
pub struct Autosave(pub Option<PathBuf>);

/// The autosave file in the user's data directory.
pub fn autosave_path() -> Option<PathBuf> {
    crate::settings::data_dir().map(|d| d.join("autosave.ron"))
}

pub fn write(path: &Path, save: &Save) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let text = ron::ser::to_string_pretty(save, ron::ser::PrettyConfig::default())
        .map_err(|e| io::Error::other(e.to_string()))?;
    let tmp = path.with_extension("ron.tmp");
    fs::write(&tmp, text)?;
    fs::rename(&tmp, path)
}

/// Reads a save, with file, line and problem on a bad one.
pub fn read(path: &Path) -> Result<Save, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: cannot read save: {e}", path.display()))?;
    let save: Save = warbound_rules::data::from_ron(&path.display().to_string(), &text).map_err(|e| e.to_string())?;
    let codex = crate::data::codex().map_err(|e| e.to_string())?;
    save.start.scenario.validate_against(codex).map_err(|e| format!("{}: {}", path.display(), e.message))?;
    Ok(save)
}

/// The save of the battle in `world` as it stands.
pub fn snapshot(world: &World) -> Option<Save> {
    let battle = world.get_resource::<Battle>()?;
    Some(Save {
        build: crate::BUILD.to_owned(),
        start: battle.start.clone(),
        commands: world.resource::<CommandRecord>().0.clone(),
        bound: battle.clock.bound(),
    })
}

/// Loads a save into a new headless app, replayed to where it was left.
pub fn resume(save: &Save) -> Result<App, String> {
    resume_with(save, BattleLog::default())
}

/// [`resume`], the replayed battle's events going to `log`.
pub fn resume_with(save: &Save, log: BattleLog) -> Result<App, String> {
    let mut app = play::battle_app(save.start.clone(), log)?;
    play::replay(&mut app, &save.commands)?;
    Ok(app)
}

/// The autosave's file name in the user's data directory.
pub const AUTOSAVE: &str = "autosave.ron";

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Autosave>()
        .add_systems(FlowSchedule, autosave.after(FlowSet::EndBound).run_if(|a: Res<Autosave>| a.0.is_some()));
}

/// After every bound: the battle so far, to the autosave file.
fn autosave(world: &mut World, mut last: Local<u32>) {
    let Some(bound) = world.get_resource::<Battle>().map(|b| b.clock.bound()) else { return };
    let starting = matches!(world.get_resource::<Flow>(), Some(Flow::StartBound | Flow::Over));
    if !starting || bound == *last {
        return;
    }
    *last = bound;
    let (Some(path), Some(save)) = (world.resource::<Autosave>().0.clone(), snapshot(world)) else { return };
    if let Err(e) = write(&path, &save) {
        warn!("autosave to {} failed: {e}", path.display());
    }
}
