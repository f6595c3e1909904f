//! Campaign saves: the campaign, how its engagements are fought and any
//! table battle in progress (its start and the continuations it has taken,
//! from which it replays) in one RON file, versioned, written atomically.

use std::{
    fs, io,
    path::{Path, PathBuf},
    time::SystemTime,
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
    let path = dir.join(format!("{}.ron", warbound_battle::save::sanitise(name)));
    write(&path, save)?;
    Ok(path)
}

/// The name a campaign save is offered under: the campaign and its date.
pub fn default_name(save: &CampaignSave) -> String {
    let c = &save.progress.campaign;
    format!("{} {}", c.file.name, c.date)
}

/// One file in the campaign saves folder, read or not.
#[derive(Debug, Clone)]
pub struct CampaignEntry {
    pub path: PathBuf,
    /// The name it was saved under (the file name without `.ron`).
    pub name: String,
    pub modified: Option<SystemTime>,
    /// The save, or why it cannot be read (`file:line:col: field: problem`).
    pub save: Result<CampaignSave, String>,
}

impl CampaignEntry {
    /// The file's date and time (UTC), for the list.
    pub fn date(&self) -> String {
        self.modified.map_or_else(|| "date unknown".to_owned(), warbound_battle::save::utc_text)
    }
}

/// Every `.ron` file in `dir`, newest first (then by name): one that cannot
/// be read is listed with its error and never stops the rest. No folder
/// lists nothing.
pub fn list(dir: &Path) -> Vec<CampaignEntry> {
    let Ok(files) = fs::read_dir(dir) else { return Vec::new() };
    let mut entries: Vec<CampaignEntry> = files
        .filter_map(Result::ok)
        .map(|f| f.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "ron"))
        .map(|path| CampaignEntry {
            name: path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
            modified: fs::metadata(&path).and_then(|m| m.modified()).ok(),
            save: read(&path),
            path,
        })
        .collect();
    entries.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.name.cmp(&b.name)));
    entries
}

/// Reads the save at `path`.
pub fn read(path: &Path) -> Result<CampaignSave, String> {
    let file = path.display().to_string();
    let text = fs::read_to_string(path).map_err(|e| format!("{file}: cannot read the campaign save: {e}"))?;
    parse(&file, &text).map_err(|e| e.to_string())
}
