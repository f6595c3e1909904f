//! Campaign saves: the campaign, how its engagements are fought and any
//! table battle in progress (its start and the continuations it has taken,
//! from which it replays) in one RON file, versioned, written atomically.

use std::{
    fs, io,
    path::{Path, PathBuf},
};

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use warbound_battle::command::Command;
use warbound_rules::data::{DataError, from_ron};

use crate::run::Progress;

/// The save format this build writes. An older version is refused with what
/// it is; a newer one too.
pub const VERSION: u32 = 1;

/// What a campaign save holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CampaignSave {
    pub version: u32,
    /// The build that wrote it.
    pub build: String,
    pub progress: Progress,
    /// Each battle a player commands on the table, by its key: his commands
    /// so far, from which it replays with its start (for the battles both
    /// sides play Auto the start alone replays them).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub commands: BTreeMap<String, Vec<Command>>,
}

impl CampaignSave {
    pub fn of(progress: &Progress) -> Self {
        Self {
            version: VERSION,
            build: format!("warbound_war {}", env!("CARGO_PKG_VERSION")),
            progress: progress.clone(),
            commands: BTreeMap::new(),
        }
    }
}

/// Writes `save` to `path` through a temporary file renamed over it, so a
/// crash mid-write leaves the last save whole.
pub fn write(path: &Path, save: &CampaignSave) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let text = ron::ser::to_string_pretty(save, ron::ser::PrettyConfig::default().compact_arrays(true))
        .map_err(|e| io::Error::other(e.to_string()))?;
    let tmp = path.with_extension("ron.tmp");
    fs::write(&tmp, text)?;
    fs::rename(&tmp, path)
}

/// A save from its text, `file` naming it in errors (`file:line:col:
/// field: problem`).
pub fn parse(file: &str, text: &str) -> Result<CampaignSave, DataError> {
    // The version first, so another version's file is refused by its
    // number rather than by a field it lacks.
    let version = text.split_once("version:").and_then(|(_, rest)| {
        let digits: String = rest.trim_start().chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<u32>().ok()
    });
    if let Some(v) = version.filter(|v| *v != VERSION) {
        let why = format!("version: a campaign save of version {v}; this build reads version {VERSION}");
        return Err(DataError::located(file, text, "version", Some(&v.to_string()), why));
    }
    from_ron(file, text)
}

/// The folder of named campaign saves in the user's data directory.
pub const SAVES_DIR: &str = "campaigns";

/// Writes `save` under `name` in `dir` (the name made a safe file name, as
/// a battle's save is; atomically); returns the file written.
pub fn write_named(dir: &Path, name: &str, save: &CampaignSave) -> io::Result<PathBuf> {
    let path = warbound_battle::save::named_path(dir, name);
    write(&path, save)?;
    Ok(path)
}

/// The name a campaign save is offered under: the campaign and its date.
pub fn default_name(save: &CampaignSave) -> String {
    let c = &save.progress.campaign;
    format!("{} {}", c.file.name, c.date)
}

/// One file in the campaign saves folder, read or not.
pub type CampaignEntry = warbound_battle::save::Entry<CampaignSave>;

/// Every `.ron` file in `dir`, newest first (then by name): one that cannot
/// be read is listed with its error and never stops the rest. No folder
/// lists nothing.
pub fn list(dir: &Path) -> Vec<CampaignEntry> {
    warbound_battle::save::list_with(dir, read)
}

/// Reads the save at `path`.
pub fn read(path: &Path) -> Result<CampaignSave, String> {
    let file = path.display().to_string();
    let text = fs::read_to_string(path).map_err(|e| format!("{file}: cannot read the campaign save: {e}"))?;
    parse(&file, &text).map_err(|e| e.to_string())
}
