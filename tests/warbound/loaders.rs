//! Property tests of the player's own files, settings and key bindings:
//! broken at random or made up from scratch, they never panic the loader,
//! every refusal is `file:line:col: field: problem`, and a refused file is
//! kept aside byte for byte while the game starts from defaults.

#[path = "../../crates/rules/tests/support/mutate.rs"]
mod mutate;

use std::fs;
use std::path::PathBuf;

use mutate::{apply, check_refusal, mutations, random_text, wrong_values};
use proptest::prelude::*;
use warbound::{bindings, settings};

const SETTINGS: &str = "(
    fullscreen: true,
    window_size: (1600, 900),
    vsync: false,
    orbit_sensitivity: 0.5,
    pan_sensitivity: 0.2,
    zoom_step: 0.15,
    invert_orbit_y: true,
    show_fps: true,
    show_whole_table: false,
    dice: Fast,
)
";

const BINDINGS: &str = "{
    \"tape\": \"G\",
    \"line_of_sight\": \"V\",
    \"end_turn\": \"Space\",
    \"skip_dice\": \"K\",
    \"top_down\": \"F2\",
}
";

fn check_settings(text: &str) -> Result<(), TestCaseError> {
    match settings::parse("settings.ron", text) {
        Ok(_) => Ok(()),
        Err(e) => check_refusal(&e, "settings.ron", text, ron::from_str::<settings::Settings>(text).is_ok()),
    }
}

fn check_bindings(text: &str) -> Result<(), TestCaseError> {
    match bindings::parse("bindings.ron", text) {
        Ok(_) => Ok(()),
        Err(e) => check_refusal(&e, "bindings.ron", text, ron::from_str::<bindings::Bindings>(text).is_ok()),
    }
}

/// A folder of the test's own, empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warbound-loaders-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_samples_load() {
    assert!(settings::parse("settings.ron", SETTINGS).unwrap().fullscreen);
    assert_eq!(bindings::parse("bindings.ron", BINDINGS).unwrap().key("tape"), bevy::input::keyboard::KeyCode::KeyG);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A settings file, broken: loaded or refused with file, line and field.
    #[test]
    fn broken_settings_are_refused_with_their_place(changes in mutations()) {
        check_settings(&apply(SETTINGS, &changes))?;
    }

    /// Settings with wrong values: loaded (clamped) or refused at the field.
    #[test]
    fn wrong_settings_values_are_refused_at_their_field(changes in wrong_values()) {
        check_settings(&apply(SETTINGS, &changes))?;
    }

    /// A bindings file, broken: loaded or refused with file, line and action.
    #[test]
    fn broken_bindings_are_refused_with_their_place(changes in mutations()) {
        check_bindings(&apply(BINDINGS, &changes))?;
    }

    /// Any action given any key, any number of times.
    #[test]
    fn any_keys_for_any_actions_are_loaded_or_refused_at_the_action(
        pairs in prop::collection::vec(
            (
                prop_oneof![Just("tape"), Just("end_turn"), Just("back"), Just("undo"), Just("nothing"), Just("Tape")],
                prop_oneof![Just("G"), Just("M"), Just("Enter"), Just("Escape"), Just("Ctrl"), Just("g"), Just("")],
            ),
            0..6,
        )
    ) {
        let text = format!(
            "{{\n{}}}\n",
            pairs.iter().map(|(a, k)| format!("    \"{a}\": \"{k}\",\n")).collect::<String>()
        );
        if let Err(e) = bindings::parse("bindings.ron", &text) {
            check_refusal(&e, "bindings.ron", &text, true)?;
            // The line pointed at holds the action named.
            let (line, _) = e.position.unwrap();
            let action = e.message.split_once(": ").unwrap().0;
            prop_assert!(text.lines().nth(line - 1).unwrap().contains(&format!("\"{action}\"")), "{}\n{}", e, text);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Text made up from scratch, as settings and as bindings.
    #[test]
    fn any_text_is_refused_with_its_place(text in random_text()) {
        check_settings(&text)?;
        check_bindings(&text)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// A refused file on disk is kept aside as it was, the warning names it
    /// where it went wrong, and the game starts from defaults.
    #[test]
    fn a_refused_file_is_kept_aside_unchanged(changes in mutations(), bindings_file in any::<bool>()) {
        let dir = scratch(if bindings_file { "bindings" } else { "settings" });
        let (name, sample) = if bindings_file { ("bindings.ron", BINDINGS) } else { ("settings.ron", SETTINGS) };
        let text = apply(sample, &changes);
        fs::write(dir.join(name), &text).unwrap();
        let warning = if bindings_file {
            let (b, warning) = bindings::load_from(&dir);
            if warning.is_some() {
                prop_assert_eq!(b, bindings::Bindings::default());
            }
            warning
        } else {
            let loaded = settings::load_from(&dir);
            if loaded.warning.is_some() {
                prop_assert_eq!(loaded.settings, settings::Settings::default());
            }
            loaded.warning
        };
        let aside: Vec<PathBuf> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&format!("{name}.bad-")))
            .collect();
        match warning {
            Some(w) => {
                let file = dir.join(name).display().to_string();
                prop_assert!(w.contains(&format!("{file}:")), "{}", w);
                prop_assert!(!dir.join(name).exists());
                prop_assert_eq!(aside.len(), 1);
                prop_assert_eq!(fs::read(&aside[0]).unwrap(), text.as_bytes());
            }
            None => {
                prop_assert!(aside.is_empty());
                prop_assert_eq!(fs::read(dir.join(name)).unwrap(), text.as_bytes());
            }
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
