//! Player settings: a RON file in the user's config directory.
//!
//! A settings file that cannot be read or parsed is never overwritten: it is
//! renamed aside (`settings.ron.bad-<unix seconds>`), a warning says so, and
//! the game starts from defaults.

use std::{
    fs, io,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use bevy::prelude::Resource;
use serde::{Deserialize, Serialize};
use warbound_rules::data::{self, DataError};

/// How the dice are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum DiceShow {
    #[default]
    Normal,
    /// Three times as fast.
    Fast,
    /// No dice on the table: the log only.
    Off,
}

/// Overrides the config directory (tests, portable installs).
pub const CONFIG_DIR_ENV: &str = "WARBOUND_CONFIG_DIR";
/// Overrides the data directory where saves and battle logs go.
pub const DATA_DIR_ENV: &str = "WARBOUND_DATA_DIR";
const FILE_NAME: &str = "settings.ron";

#[derive(Resource, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Start in borderless fullscreen (F11 toggles in game).
    pub fullscreen: bool,
    /// Window size in logical pixels when not fullscreen.
    pub window_size: (u32, u32),
    /// Wait for the display's refresh (smoother, less CPU/GPU).
    pub vsync: bool,
    /// Degrees of camera orbit per pixel of mouse drag.
    pub orbit_sensitivity: f32,
    /// Inches panned per pixel of mouse drag at 100" from the table.
    pub pan_sensitivity: f32,
    /// Fraction of the camera distance zoomed per wheel notch.
    pub zoom_step: f32,
    /// Invert the vertical mouse direction when orbiting.
    pub invert_orbit_y: bool,
    /// Show the frames-per-second counter beside the version label.
    pub show_fps: bool,
    /// Show the whole table, the enemy included, as on a physical table
    /// (for players who run both sides); otherwise the fog of war.
    pub show_whole_table: bool,
    /// How the physics dice are shown: normal, fast, or off (the log only).
    pub dice: DiceShow,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            fullscreen: false,
            window_size: (1280, 720),
            vsync: true,
            orbit_sensitivity: 0.3,
            pan_sensitivity: 0.15,
            zoom_step: 0.1,
            invert_orbit_y: false,
            show_fps: false,
            show_whole_table: false,
            dice: DiceShow::Normal,
        }
    }
}

impl Settings {
    /// Clamps values a hand-edited file may have pushed out of range.
    pub fn sanitized(mut self) -> Self {
        let d = Self::default();
        let (w, h) = self.window_size;
        self.window_size = (w.clamp(640, 7680), h.clamp(360, 4320));
        for (v, dv, lo, hi) in [
            (&mut self.orbit_sensitivity, d.orbit_sensitivity, 0.01, 5.0),
            (&mut self.pan_sensitivity, d.pan_sensitivity, 0.01, 5.0),
            (&mut self.zoom_step, d.zoom_step, 0.01, 0.5),
        ] {
            *v = if v.is_finite() { v.clamp(lo, hi) } else { dv };
        }
        self
    }
}

/// Where settings live: `$WARBOUND_CONFIG_DIR`, else the OS config dir + `warbound`.
pub fn config_dir() -> Option<PathBuf> {
    std::env::var_os(CONFIG_DIR_ENV).map(PathBuf::from).or_else(|| dirs::config_dir().map(|d| d.join("warbound")))
}

/// Where saves and battle logs live: `$WARBOUND_DATA_DIR`, else the OS data dir + `warbound`.
pub fn data_dir() -> Option<PathBuf> {
    std::env::var_os(DATA_DIR_ENV).map(PathBuf::from).or_else(|| dirs::data_dir().map(|d| d.join("warbound")))
}

/// The outcome of loading settings: the values and any warning for the player.
#[derive(Debug)]
pub struct Loaded {
    pub settings: Settings,
    pub warning: Option<String>,
}

/// Loads `settings.ron` from `dir`; a missing file gives defaults silently.
pub fn load_from(dir: &Path) -> Loaded {
    let path = dir.join(FILE_NAME);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Loaded { settings: Settings::default(), warning: None };
        }
        Err(e) => return set_aside(&path, format!("{}: cannot be read ({e})", path.display())),
    };
    match parse(&path.display().to_string(), &text) {
        Ok(settings) => Loaded { settings, warning: None },
        Err(e) => set_aside(&path, e.to_string()),
    }
}

/// The settings written in `text` (the file `file`), out-of-range values
/// clamped; a refusal is `file:line:col: field: problem`.
pub fn parse(file: &str, text: &str) -> Result<Settings, DataError> {
    data::from_ron::<Settings>(file, text).map(Settings::sanitized)
}

/// Loads from [`config_dir`], or defaults when the platform has none.
pub fn load() -> Loaded {
    match config_dir() {
        Some(dir) => load_from(&dir),
        None => Loaded {
            settings: Settings::default(),
            warning: Some("no config directory on this system; using default settings".into()),
        },
    }
}

/// Moves a file that cannot be used aside (`<name>.bad-<time>`), so it is
/// never overwritten; says where it went, for the player's warning.
pub fn move_aside(path: &Path) -> String {
    let stamp = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let mut aside = path.as_os_str().to_owned();
    aside.push(format!(".bad-{stamp}"));
    let aside = PathBuf::from(aside);
    match fs::rename(path, &aside) {
        Ok(()) => format!("kept it as {}", aside.display()),
        Err(e) => format!("could not move it aside ({e}); it will not be overwritten this run"),
    }
}

/// `problem` names the file, and the line, column and field where it has them.
fn set_aside(path: &Path, problem: String) -> Loaded {
    let kept = move_aside(path);
    Loaded {
        settings: Settings::default(),
        warning: Some(format!("settings file {problem}; using default settings and {kept}")),
    }
}

/// Writes `value` as RON to `file` in `dir`, creating the directory: beside
/// and renamed, so a crash mid-write never leaves half a file.
pub fn write_ron(dir: &Path, file: &str, value: &impl Serialize) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let path = dir.join(file);
    let text = ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default())
        .map_err(|e| io::Error::other(e.to_string()))?;
    let tmp = dir.join(format!("{file}.tmp"));
    fs::write(&tmp, text)?;
    fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Writes `settings.ron` into `dir`, creating the directory.
pub fn save_to(dir: &Path, settings: &Settings) -> io::Result<PathBuf> {
    write_ron(dir, FILE_NAME, settings)
}

/// An empty folder of the tests' own under the system's temp dir, named by
/// what uses it and the test.
#[cfg(test)]
pub(crate) fn scratch_dir(kind: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warbound-{kind}-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        scratch_dir("settings", name)
    }

    #[test]
    fn missing_file_gives_defaults_without_warning() {
        let dir = temp_dir("missing");
        let loaded = load_from(&dir);
        assert_eq!(loaded.settings, Settings::default());
        assert!(loaded.warning.is_none());
    }

    #[test]
    fn save_then_load_round_trips() {
        let dir = temp_dir("roundtrip");
        let s = Settings { fullscreen: true, zoom_step: 0.2, ..Settings::default() };
        save_to(&dir, &s).unwrap();
        let loaded = load_from(&dir);
        assert_eq!(loaded.settings, s);
        assert!(loaded.warning.is_none());
    }

    #[test]
    fn malformed_file_is_kept_aside_and_defaults_used() {
        let dir = temp_dir("bad");
        let bad = "(fullscreen: maybe,\n zoom_step: 0.2)";
        fs::write(dir.join(FILE_NAME), bad).unwrap();
        let loaded = load_from(&dir);
        assert_eq!(loaded.settings, Settings::default());
        let warning = loaded.warning.expect("a warning");
        let file = dir.join(FILE_NAME).display().to_string();
        assert!(warning.starts_with(&format!("settings file {file}:1:13: fullscreen: ")), "{warning}");
        assert!(!dir.join(FILE_NAME).exists(), "bad file must be moved aside");
        let aside: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("settings.ron.bad-"))
            .collect();
        assert_eq!(aside.len(), 1);
        assert_eq!(fs::read_to_string(aside[0].path()).unwrap(), bad, "the bad file keeps its contents");
    }

    #[test]
    fn unknown_field_is_malformed() {
        let dir = temp_dir("unknown");
        fs::write(dir.join(FILE_NAME), "(fulscreen: true)").unwrap();
        assert!(load_from(&dir).warning.is_some());
    }

    #[test]
    fn out_of_range_values_are_clamped() {
        let dir = temp_dir("clamp");
        fs::write(dir.join(FILE_NAME), "(window_size: (10, 99999), zoom_step: 9.0)").unwrap();
        let s = load_from(&dir).settings;
        assert_eq!(s.window_size, (640, 4320));
        assert_eq!(s.zoom_step, 0.5);
    }
}
