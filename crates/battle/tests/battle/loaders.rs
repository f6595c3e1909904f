//! Property tests of reading saves: saves of every shipped battle, broken at
//! random, and text made up from scratch never panic the reader, and every
//! refusal is `file:line:col: field: problem`.

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::Index;
use warbound_battle::{command::Command, save, setup::BattleStart, shipped};
use warbound_rules::codex::Codex;

use crate::mutate::{apply, check_refusal, mutations, random_text, wrong_values};

fn codex() -> &'static Codex {
    static CODEX: OnceLock<std::sync::Arc<Codex>> = OnceLock::new();
    CODEX.get_or_init(|| shipped::codex().expect("the shipped CODEX loads"))
}

/// A save of each shipped battle, with two commands given, as its file's text.
fn saves() -> &'static [(String, String)] {
    static SAVES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    SAVES.get_or_init(|| {
        let battles = shipped::battles(codex()).expect("the shipped battles load");
        battles
            .into_iter()
            .enumerate()
            .map(|(seed, (name, scenario))| {
                let save = save::Save {
                    build: "test".into(),
                    start: BattleStart::auto(&name, scenario, seed as u64),
                    commands: vec![Command::EndTurn { element: "a".into() }, Command::EndTurn { element: "b".into() }],
                    bound: 2,
                };
                let text = ron::ser::to_string_pretty(&save, ron::ser::PrettyConfig::default()).unwrap();
                (format!("saves/{name}.ron"), text)
            })
            .collect()
    })
}

/// Reads `text` as the save `file`; a refusal must be one a player can act on.
fn read(file: &str, text: &str) -> Result<(), TestCaseError> {
    match save::parse(file, text, codex()) {
        Ok(_) => Ok(()),
        Err(e) => check_refusal(&e, file, text, ron::from_str::<save::Save>(text).is_ok()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A save, broken: read or refused with file, line and field.
    #[test]
    fn a_broken_save_is_refused_with_its_place(which in any::<Index>(), changes in mutations()) {
        let (file, text) = &saves()[which.index(saves().len())];
        read(file, &apply(text, &changes))?;
    }

    /// A save with wrong values: read or refused at the field.
    #[test]
    fn a_wrong_value_in_a_save_is_refused_at_its_field(which in any::<Index>(), changes in wrong_values()) {
        let (file, text) = &saves()[which.index(saves().len())];
        read(file, &apply(text, &changes))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Text made up from scratch, as a save.
    #[test]
    fn any_text_as_a_save_is_refused_with_its_place(text in random_text()) {
        read("made-up.ron", &text)?;
    }
}

/// The saves as written read back whole; a scenario in a save is checked as
/// a scenario file is, its errors placed in the save under `start.scenario`.
#[test]
fn a_wrong_scenario_in_a_save_is_refused_at_its_field() {
    for (file, text) in saves() {
        assert!(save::parse(file, text, codex()).is_ok(), "{file}");
    }
    let (file, text) = &saves()[0];
    let bad = text.replacen("time_limit: ", "time_limit: 0, _was: ", 1).replacen(", _was: ", ",\n// was: ", 1);
    let e = save::parse(file, &bad, codex()).unwrap_err();
    let at = bad.find("time_limit: 0").unwrap();
    let line = bad[..at].matches('\n').count() + 1;
    assert_eq!(e.position.map(|p| p.0), Some(line), "{e}");
    assert!(e.message.starts_with("start.scenario.time_limit: a battle lasts at least 1 bound"), "{e}");
}
