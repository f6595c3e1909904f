//! Key rebinding: the keyboard actions the player may move to other keys,
//! and `bindings.ron` in the config directory that keeps his choices. A file
//! that cannot be read is set aside with a warning, as the settings file is;
//! a key given to two actions is refused. At startup the player's input
//! entity is spawned with the defaults and his choices.

use std::{
    collections::BTreeMap,
    fs, io,
    path::{Path, PathBuf},
};

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};
use warbound_rules::data::{self, DataError};

use crate::input::{CameraAction, PlayerInput, TableAction, UiAction};

const FILE_NAME: &str = "bindings.ron";

/// A keyboard action the player may rebind, by the name the file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rebindable {
    Camera(CameraAction),
    Ui(UiAction),
    Table(TableAction),
}

/// Every rebindable action with its name in the file and its words on screen.
pub const ACTIONS: [(Rebindable, &str, &str); 10] = [
    (Rebindable::Camera(CameraAction::ResetView), "reset_view", "Whole-table view"),
    (Rebindable::Camera(CameraAction::TopDown), "top_down", "Top-down view"),
    (Rebindable::Camera(CameraAction::FocusSelected), "focus_selected", "Centre on the selected"),
    (Rebindable::Ui(UiAction::ToggleFullscreen), "fullscreen", "Fullscreen"),
    (Rebindable::Ui(UiAction::Back), "back", "Menu / back"),
    (Rebindable::Ui(UiAction::Undo), "undo", "Undo the last command"),
    (Rebindable::Table(TableAction::EndTurn), "end_turn", "End the turn"),
    (Rebindable::Table(TableAction::Tape), "tape", "Tape measure"),
    (Rebindable::Table(TableAction::Sight), "line_of_sight", "Line of sight"),
    (Rebindable::Table(TableAction::SkipDice), "skip_dice", "Skip the dice"),
];

/// The keys an action may be given, by the names the file uses.
const KEYS: [(KeyCode, &str); 50] = [
    (KeyCode::KeyA, "A"),
    (KeyCode::KeyB, "B"),
    (KeyCode::KeyC, "C"),
    (KeyCode::KeyD, "D"),
    (KeyCode::KeyE, "E"),
    (KeyCode::KeyF, "F"),
    (KeyCode::KeyG, "G"),
    (KeyCode::KeyH, "H"),
    (KeyCode::KeyI, "I"),
    (KeyCode::KeyJ, "J"),
    (KeyCode::KeyK, "K"),
    (KeyCode::KeyL, "L"),
    (KeyCode::KeyM, "M"),
    (KeyCode::KeyN, "N"),
    (KeyCode::KeyO, "O"),
    (KeyCode::KeyP, "P"),
    (KeyCode::KeyQ, "Q"),
    (KeyCode::KeyR, "R"),
    (KeyCode::KeyS, "S"),
    (KeyCode::KeyT, "T"),
    (KeyCode::KeyU, "U"),
    (KeyCode::KeyV, "V"),
    (KeyCode::KeyW, "W"),
    (KeyCode::KeyX, "X"),
    (KeyCode::KeyY, "Y"),
    (KeyCode::KeyZ, "Z"),
    (KeyCode::Digit0, "0"),
    (KeyCode::Digit1, "1"),
    (KeyCode::Digit2, "2"),
    (KeyCode::Digit3, "3"),
    (KeyCode::Digit4, "4"),
    (KeyCode::Digit5, "5"),
    (KeyCode::Digit6, "6"),
    (KeyCode::Digit7, "7"),
    (KeyCode::Digit8, "8"),
    (KeyCode::Digit9, "9"),
    (KeyCode::F1, "F1"),
    (KeyCode::F2, "F2"),
    (KeyCode::F3, "F3"),
    (KeyCode::F4, "F4"),
    (KeyCode::F11, "F11"),
    (KeyCode::F12, "F12"),
    (KeyCode::Enter, "Enter"),
    (KeyCode::Space, "Space"),
    (KeyCode::Tab, "Tab"),
    (KeyCode::Backspace, "Backspace"),
    (KeyCode::Escape, "Escape"),
    (KeyCode::Home, "Home"),
    (KeyCode::End, "End"),
    (KeyCode::Delete, "Delete"),
];

pub fn key_name(key: KeyCode) -> Option<&'static str> {
    KEYS.iter().find(|(k, _)| *k == key).map(|(_, n)| *n)
}

fn key_named(name: &str) -> Option<KeyCode> {
    KEYS.iter().find(|(_, n)| *n == name).map(|(k, _)| *k)
}

/// The player's keys: action name to key name; actions not named keep their defaults.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Bindings(pub BTreeMap<String, String>);

/// The default key of each rebindable action.
pub fn default_key(action: Rebindable) -> KeyCode {
    match action {
        Rebindable::Camera(CameraAction::TopDown) => KeyCode::KeyT,
        Rebindable::Camera(CameraAction::FocusSelected) => KeyCode::KeyC,
        Rebindable::Camera(_) => KeyCode::Home,
        Rebindable::Ui(UiAction::ToggleFullscreen) => KeyCode::F11,
        Rebindable::Ui(UiAction::Back) => KeyCode::Escape,
        Rebindable::Ui(UiAction::Undo) => KeyCode::Backspace,
        Rebindable::Table(TableAction::Tape) => KeyCode::KeyM,
        Rebindable::Table(TableAction::Sight) => KeyCode::KeyL,
        Rebindable::Table(TableAction::SkipDice) => KeyCode::Space,
        Rebindable::Table(_) => KeyCode::Enter,
    }
}

impl Bindings {
    /// The key an action is bound to now.
    pub fn key(&self, name: &str) -> KeyCode {
        let action = ACTIONS.iter().find(|(_, n, _)| *n == name).map(|(a, _, _)| *a);
        self.0.get(name).and_then(|k| key_named(k)).unwrap_or_else(|| action.map_or(KeyCode::Escape, default_key))
    }

    /// Gives `key` to the action `name`, unless another action has it (then its words are the error).
    pub fn rebind(&mut self, name: &str, key: KeyCode) -> Result<(), String> {
        if !ACTIONS.iter().any(|(_, n, _)| *n == name) {
            return Err(format!("no action is called \"{name}\""));
        }
        let key_text = key_name(key).ok_or_else(|| format!("{key:?} cannot be bound"))?;
        if let Some((_, _, words)) = ACTIONS.iter().find(|(_, other, _)| *other != name && self.key(other) == key) {
            return Err(format!("{key_text} is already \"{words}\""));
        }
        self.0.insert(name.to_owned(), key_text.to_owned());
        Ok(())
    }

    /// Puts the bindings on the player's input maps.
    pub fn apply(
        &self,
        camera: &mut InputMap<CameraAction>,
        ui: &mut InputMap<UiAction>,
        table: &mut InputMap<TableAction>,
    ) {
        for (action, name, _) in ACTIONS {
            let key = self.key(name);
            match action {
                Rebindable::Camera(a) => {
                    camera.clear_action(&a);
                    camera.insert(a, key);
                }
                Rebindable::Ui(a) => {
                    ui.clear_action(&a);
                    ui.insert(a, key);
                }
                Rebindable::Table(a) => {
                    table.clear_action(&a);
                    table.insert(a, key);
                }
            }
        }
    }

    /// Checks a file's bindings: known actions and keys, no key twice; a
    /// refusal names the action (the field) and the key (the value) at fault.
    fn check(&self) -> Result<(), (String, String, String)> {
        for (name, key) in &self.0 {
            if !ACTIONS.iter().any(|(_, n, _)| n == name) {
                return Err((name.clone(), name.clone(), format!("no action is called \"{name}\"")));
            }
            if key_named(key).is_none() {
                return Err((name.clone(), key.clone(), format!("\"{key}\" is not a key that can be bound")));
            }
        }
        for (i, (_, name, words)) in ACTIONS.iter().enumerate() {
            let key = self.key(name);
            if let Some((_, other, other_words)) = ACTIONS[i + 1..].iter().find(|(_, n, _)| self.key(n) == key) {
                let key_text = key_name(key).unwrap_or("?").to_owned();
                // The one the file names is the one to point at.
                let at = if self.0.contains_key(*other) { other } else { name };
                return Err((
                    (*at).to_owned(),
                    key_text.clone(),
                    format!("{key_text} is given to two actions, \"{words}\" and \"{other_words}\""),
                ));
            }
        }
        Ok(())
    }
}

/// Reads `bindings.ron` from `dir`: defaults when there is none; a bad file
/// is renamed aside and a warning returned that names the file, line,
/// column and action at fault.
pub fn load_from(dir: &Path) -> (Bindings, Option<String>) {
    let path = dir.join(FILE_NAME);
    let file = path.display().to_string();
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return (Bindings::default(), None),
        Err(e) => return set_aside(&path, format!("{file}: cannot be read ({e})")),
    };
    match parse(&file, &text) {
        Ok(b) => (b, None),
        Err(e) => set_aside(&path, e.to_string()),
    }
}

/// The bindings written in `text` (the file `file`), checked; a refusal is
/// `file:line:col: action: problem`.
pub fn parse(file: &str, text: &str) -> Result<Bindings, DataError> {
    let b = data::from_ron::<Bindings>(file, text)?;
    b.check().map(|()| b).map_err(|(action, value, problem)| {
        // A name that is no action's may not read as a field: the map is named then.
        let field = if action.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !action.is_empty() {
            action.as_str()
        } else {
            "actions"
        };
        DataError::located(file, text, &action, Some(&format!("\"{value}\"")), format!("{field}: {problem}"))
    })
}

/// `problem` names the file, and the line, column and action where it has them.
fn set_aside(path: &Path, problem: String) -> (Bindings, Option<String>) {
    let kept = crate::settings::move_aside(path);
    (Bindings::default(), Some(format!("key bindings {problem}; using the default keys and {kept}")))
}

/// Writes `bindings.ron` to `dir` (beside, then renamed over the old one).
pub fn save_to(dir: &Path, bindings: &Bindings) -> io::Result<PathBuf> {
    crate::settings::write_ron(dir, FILE_NAME, bindings)
}

/// Spawns the player's input entity at startup, with his bindings.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(PreStartup, spawn_player_input);
}

/// The player's input maps: the defaults, with his rebindings from the config dir.
fn spawn_player_input(mut commands: Commands, notices: Option<ResMut<crate::launch::Notices>>) {
    let (bindings, warning) = match crate::settings::config_dir() {
        Some(dir) => load_from(&dir),
        None => (Bindings::default(), None),
    };
    if let Some(w) = warning {
        warn!("{w}");
        if let Some(mut n) = notices {
            n.0.push(w);
        }
    }
    let (mut camera, mut ui, mut table) =
        (CameraAction::default_input_map(), UiAction::default_input_map(), TableAction::default_input_map());
    bindings.apply(&mut camera, &mut ui, &mut table);
    commands.insert_resource(bindings);
    commands.spawn((Name::new("Player input"), PlayerInput, camera, ui, table));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        crate::settings::scratch_dir("bindings", name)
    }

    #[test]
    fn defaults_then_a_rebind_saved_and_read_back() {
        let d = dir("round");
        let (mut b, warning) = load_from(&d);
        assert_eq!((b.key("tape"), warning), (KeyCode::KeyM, None));
        b.rebind("tape", KeyCode::KeyG).unwrap();
        assert_eq!(b.rebind("line_of_sight", KeyCode::KeyG).unwrap_err(), "G is already \"Tape measure\"");
        assert!(b.rebind("no_such_action", KeyCode::KeyK).is_err());
        assert_eq!(b.rebind("line_of_sight", KeyCode::Enter).unwrap_err(), "Enter is already \"End the turn\"");
        save_to(&d, &b).unwrap();
        let (read, warning) = load_from(&d);
        assert_eq!(warning, None);
        assert_eq!(read.key("tape"), KeyCode::KeyG);
        let (mut camera, mut ui, mut table) =
            (CameraAction::default_input_map(), UiAction::default_input_map(), TableAction::default_input_map());
        read.apply(&mut camera, &mut ui, &mut table);
        let text = format!("{:?}", table.get(&TableAction::Tape));
        assert!(text.contains("KeyG") && !text.contains("KeyM"), "{text}");
    }

    #[test]
    fn a_bad_file_is_set_aside_with_a_warning() {
        let d = dir("bad");
        fs::write(d.join(FILE_NAME), "{\"tape\": \"Z\", \"end_turn\": \"Z\"}").unwrap();
        let (b, warning) = load_from(&d);
        assert_eq!(b, Bindings::default());
        let warning = warning.unwrap();
        assert!(warning.contains("bindings.ron:1:10: tape: Z is given to two actions"), "{warning}");
        assert!(!d.join(FILE_NAME).exists(), "moved aside, not overwritten");
        fs::write(d.join(FILE_NAME), "{\"tape\": \"Ctrl\"}").unwrap();
        let warning = load_from(&d).1.unwrap();
        assert!(warning.contains("bindings.ron:1:10: tape: \"Ctrl\" is not a key"), "{warning}");
    }
}
