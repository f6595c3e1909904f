//! Saves: a battle is its start value plus the Player's commands; loading
//! replays them with the same seed, so the game resumes exactly. Written
//! atomically (a temp file renamed over the save) after every bound.

use std::{
    fs, io,
    path::{Path, PathBuf},
    sync::Arc,
    time::{SystemTime, UNIX_EPOCH},
};

use crate::prelude::*;
use serde::{Deserialize, Serialize};
use warbound_rules::{
    codex::Codex,
    data::{DataError, from_ron},
};

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

/// Reads a save, with `file:line:col: field: problem` on a bad one (see
/// [`parse`]).
pub fn read(path: &Path, codex: &Codex) -> Result<Save, String> {
    let file = path.display().to_string();
    let text = fs::read_to_string(path).map_err(|e| format!("{file}: cannot read save: {e}"))?;
    parse(&file, &text, codex).map_err(|e| e.to_string())
}

/// A save from its `text`, `file` naming it in errors; the scenario it holds
/// (at `start.scenario`) is checked as a scenario file is, and against `codex`.
pub fn parse(file: &str, text: &str, codex: &Codex) -> Result<Save, DataError> {
    let save: Save = from_ron(file, text)?;
    save.start.scenario.check(codex).map_err(|e| e.in_file_under(file, text, "start.scenario"))?;
    Ok(save)
}

/// The build a save names as its writer: the game's own stamp when the game
/// runs the battle, this crate's version otherwise.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct BuildStamp(pub String);

impl Default for BuildStamp {
    fn default() -> Self {
        Self(format!("warbound_battle {}", env!("CARGO_PKG_VERSION")))
    }
}

/// The save of the battle in `world` as it stands.
pub fn snapshot(world: &World) -> Option<Save> {
    let build = world.get_resource::<BuildStamp>().cloned().unwrap_or_default();
    Some(save_of(world.get_resource::<Battle>()?, world.get_resource::<CommandRecord>()?, &build))
}

/// The save of `battle` with the Player's commands `record`.
pub fn save_of(battle: &Battle, record: &CommandRecord, build: &BuildStamp) -> Save {
    Save {
        build: build.0.clone(),
        start: battle.start.clone(),
        commands: record.0.clone(),
        bound: battle.clock.bound(),
    }
}

/// Loads a save into a new battle app, replayed to where it was left.
pub fn resume(save: &Save, codex: Arc<Codex>) -> Result<App, String> {
    resume_with(save, BattleLog::default(), codex)
}

/// [`resume`], the replayed battle's events going to `log`.
pub fn resume_with(save: &Save, log: BattleLog, codex: Arc<Codex>) -> Result<App, String> {
    let mut app = play::battle_app(save.start.clone(), log, codex)?;
    play::replay(&mut app, &save.commands)?;
    Ok(app)
}

/// Resumes `save` as [`resume_with`], then hands every side to the Auto
/// commander: the battle plays on to its end with no one at the table.
pub fn resume_as_auto(save: &Save, log: BattleLog, codex: Arc<Codex>) -> Result<App, String> {
    let mut app = resume_with(save, log, codex)?;
    for side in app.world_mut().resource_mut::<super::state::Sides>().0.iter_mut() {
        side.control = super::setup::Control::Auto;
    }
    Ok(app)
}

/// The autosave's file name in the user's data directory.
pub const AUTOSAVE: &str = "autosave.ron";

/// The folder of named saves in the user's data directory.
pub const SAVES_DIR: &str = "saves";

/// The longest file name (without `.ron`) a save is given.
const NAME_LEN: usize = 60;

/// A save's name made a safe file name on every system: letters, digits,
/// spaces, `-`, `_` and `.` kept, anything else (slashes, colons, …) becomes
/// `_`; no leading dot, no names Windows reserves, at most 60 characters;
/// nothing left gives `save`.
pub fn sanitise(name: &str) -> String {
    let mut out: String = name
        .trim()
        .chars()
        .map(|c| if c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.') { c } else { '_' })
        .take(NAME_LEN)
        .collect();
    out = out.trim_start_matches('.').trim().trim_end_matches('.').to_owned();
    if out.is_empty() {
        return "save".to_owned();
    }
    let stem = out.split('.').next().unwrap_or("").to_ascii_uppercase();
    let reserved = ["CON", "PRN", "AUX", "NUL"].contains(&stem.as_str())
        || ((stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.len() == 4
            && stem.as_bytes()[3].is_ascii_digit());
    if reserved {
        out.insert(0, '_');
    }
    out
}

/// The name a save is offered under: the scenario and the bound reached.
pub fn default_name(save: &Save) -> String {
    format!("{} bound {}", save.start.scenario.name, save.bound)
}

/// The file a save named `name` goes to in `dir`.
pub fn named_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{}.ron", sanitise(name)))
}

/// Writes `save` under `name` in `dir` (atomically: a save of that name is
/// replaced whole or not at all); returns the file written.
pub fn write_named(dir: &Path, name: &str, save: &Save) -> io::Result<PathBuf> {
    let path = named_path(dir, name);
    write(&path, save)?;
    Ok(path)
}

/// One file in a saves folder, read or not.
#[derive(Debug, Clone)]
pub struct Entry<T> {
    pub path: PathBuf,
    /// The file name without `.ron`: the name it was saved under.
    pub name: String,
    /// When the file was last written.
    pub modified: Option<SystemTime>,
    /// The save, or why it cannot be loaded (`file:line:col: field: problem`).
    pub save: Result<T, String>,
}

/// A battle's save in the saves folder.
pub type SaveEntry = Entry<Save>;

impl<T> Entry<T> {
    /// The file's date and time (UTC), for the list.
    pub fn date(&self) -> String {
        self.modified.map_or_else(|| "date unknown".to_owned(), utc_text)
    }
}

/// Every `.ron` file in `dir`, newest first (then by name), each read with
/// `read`: a file that cannot be read is listed with its error, never
/// dropped, and never stops the rest. No folder lists nothing.
pub fn list_with<T>(dir: &Path, read: impl Fn(&Path) -> Result<T, String>) -> Vec<Entry<T>> {
    let Ok(files) = fs::read_dir(dir) else { return Vec::new() };
    let mut entries: Vec<Entry<T>> = files
        .filter_map(Result::ok)
        .map(|f| f.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "ron"))
        .map(|path| Entry {
            name: path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
            modified: fs::metadata(&path).and_then(|m| m.modified()).ok(),
            save: read(&path),
            path,
        })
        .collect();
    entries.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.name.cmp(&b.name)));
    entries
}

/// The battle saves in `dir`, as [`list_with`] lists them.
pub fn list(dir: &Path, codex: &Codex) -> Vec<SaveEntry> {
    list_with(dir, |p| read(p, codex))
}

/// A time as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_text(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rest / 3_600, rest % 3_600 / 60)
}

/// The save with the Player's last command taken back, or none if he has
/// given none. Resumed, it replays the battle from its start to the decision
/// before that command; the dice are one seeded stream, so every die thrown
/// up to there comes up as it did, and the next throw is the one the
/// command had (an undo never re-rolls a die: see `docs/rules-readings.md`,
/// "Undo"). The bound kept is the one saved, until the replay reaches its own.
pub fn undo(save: &Save) -> Option<Save> {
    let mut undone = save.clone();
    undone.commands.pop()?;
    Some(undone)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty folder of its own under the system's temp dir.
    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("warbound-battle-saves-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn patrol_save(seed: u64, bound: u32) -> Save {
        let codex = crate::shipped::codex().unwrap();
        Save {
            build: "test".into(),
            start: BattleStart::auto("patrol", crate::shipped::battle("patrol", &codex).unwrap(), seed),
            commands: vec![Command::EndTurn { element: "a".into() }, Command::EndTurn { element: "b".into() }],
            bound,
        }
    }

    #[test]
    fn observation_targets_read_as_recorded_before_and_after_counters() {
        use crate::command::ObserveTarget;
        // A save's command as recorded before counters could be observed.
        let old: Command = ron::from_str(r#"observe(element: "1_section", targets: ["gruppe_1"])"#).unwrap();
        let Command::Observe { targets, .. } = &old else { panic!("{old:?}") };
        assert_eq!(targets, &vec![ObserveTarget::Element("gruppe_1".into())]);
        let counter = ObserveTarget::Counter { element: "gruppe_2".into(), counter: 2 };
        let now = Command::Observe { element: "1_section".into(), targets: vec![targets[0].clone(), counter] };
        let text = ron::to_string(&now).unwrap();
        assert_eq!(ron::from_str::<Command>(&text).unwrap(), now, "{text}");
    }

    #[test]
    fn names_become_safe_file_names() {
        assert_eq!(sanitise("Patrol bound 3"), "Patrol bound 3");
        assert_eq!(sanitise("  ../../etc/passwd "), "_.._etc_passwd");
        assert_eq!(sanitise("a/b\\c:d*e?f\"g<h>i|j"), "a_b_c_d_e_f_g_h_i_j");
        assert_eq!(sanitise(""), "save");
        assert_eq!(sanitise(" ... "), "save");
        assert_eq!(sanitise(".hidden"), "hidden");
        assert_eq!(sanitise("con"), "_con");
        assert_eq!(sanitise("LPT1.txt"), "_LPT1.txt");
        assert_eq!(sanitise("Console"), "Console");
        assert_eq!(sanitise("Caen, 1944"), "Caen_ 1944");
        assert_eq!(sanitise(&"x".repeat(200)).len(), 60);
        let dir = Path::new("saves");
        assert_eq!(named_path(dir, "a/b"), dir.join("a_b.ron"));
    }

    #[test]
    fn a_folder_lists_newest_first_and_a_bad_file_with_its_error() {
        let dir = folder("list");
        let codex = crate::shipped::codex().unwrap();
        assert!(list(&dir.join("none"), &codex).is_empty(), "no folder, no saves");
        let old = write_named(&dir, "older", &patrol_save(1, 2)).unwrap();
        // File times are coarse on some systems: set them apart.
        let set = |path: &Path, secs: u64| {
            let f = fs::File::options().append(true).open(path).unwrap();
            f.set_modified(UNIX_EPOCH + std::time::Duration::from_secs(secs)).unwrap();
        };
        set(&old, 1_700_000_000);
        let new = write_named(&dir, "newer/one", &patrol_save(2, 5)).unwrap();
        set(&new, 1_800_000_000);
        fs::write(dir.join("broken.ron"), "(\n  build: \"x\",\n  start: 7,\n)").unwrap();
        set(&dir.join("broken.ron"), 1_750_000_000);
        fs::write(dir.join("notes.txt"), "not a save").unwrap();
        fs::write(dir.join("half.ron.tmp"), "(").unwrap();
        let listed = list(&dir, &codex);
        let names: Vec<&str> = listed.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["newer_one", "broken", "older"]);
        assert_eq!(listed[0].save.as_ref().unwrap().bound, 5);
        assert_eq!(listed[0].save.as_ref().unwrap().start.seed, 2);
        let err = listed[1].save.as_ref().unwrap_err();
        assert!(err.contains("broken.ron:3:"), "file and line: {err}");
        assert_eq!(listed[2].save.as_ref().unwrap(), &patrol_save(1, 2));
        assert_eq!(listed[2].date(), "2023-11-14 22:13 UTC");
        // The same name again replaces the file whole.
        write_named(&dir, "older", &patrol_save(3, 9)).unwrap();
        assert_eq!(read(&old, &codex).unwrap().bound, 9);
        assert_eq!(list(&dir, &codex).len(), 3);
    }

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(utc_text(UNIX_EPOCH), "1970-01-01 00:00 UTC");
        // 2000-02-29 12:34 UTC, a leap day.
        assert_eq!(utc_text(UNIX_EPOCH + std::time::Duration::from_secs(951_827_640)), "2000-02-29 12:34 UTC");
    }

    #[test]
    fn undo_takes_back_only_the_last_command() {
        let save = patrol_save(4, 3);
        let once = undo(&save).unwrap();
        assert_eq!(once.commands, save.commands[..1]);
        assert_eq!((once.start.seed, &once.start.scenario), (save.start.seed, &save.start.scenario));
        let twice = undo(&once).unwrap();
        assert!(twice.commands.is_empty());
        assert_eq!(undo(&twice), None, "nothing left to take back");
    }
}
