//! Property tests of the CODEX and scenario loaders: the shipped files,
//! broken at random, and text made up from scratch never panic a loader, and
//! every refusal is `file:line:col: field: problem`.

#[path = "support/mutate.rs"]
mod mutate;

use std::sync::OnceLock;

use mutate::{apply, check_refusal, mutations, random_text, wrong_values};
use proptest::prelude::*;
use proptest::sample::Index;
use warbound_rules::codex::{Codex, CodexError};
use warbound_rules::data::{DataError, field_at, locate};
use warbound_rules::scenario::Scenario;

const CODEX: [(&str, &str); 5] = [
    ("assets/codex/british.ron", include_str!("../../../assets/codex/british.ron")),
    ("assets/codex/us.ron", include_str!("../../../assets/codex/us.ron")),
    ("assets/codex/german.ron", include_str!("../../../assets/codex/german.ron")),
    ("assets/codex/italian.ron", include_str!("../../../assets/codex/italian.ron")),
    ("assets/codex/soviet.ron", include_str!("../../../assets/codex/soviet.ron")),
];

const BATTLES: [(&str, &str); 4] = [
    ("scenarios/battles/patrol.ron", include_str!("../../../scenarios/battles/patrol.ron")),
    ("scenarios/battles/village.ron", include_str!("../../../scenarios/battles/village.ron")),
    ("scenarios/battles/river.ron", include_str!("../../../scenarios/battles/river.ron")),
    ("scenarios/battles/beach.ron", include_str!("../../../scenarios/battles/beach.ron")),
];

fn codex() -> &'static Codex {
    static CODEX_LOADED: OnceLock<Codex> = OnceLock::new();
    CODEX_LOADED.get_or_init(|| Codex::load(&CODEX).unwrap_or_else(|e| panic!("{e}")))
}

/// Whether `text` parses as a scenario (so a refusal is about a value).
fn scenario_parses(text: &str) -> bool {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options.from_str::<Scenario>(text).is_ok()
}

/// Loads `text` as the scenario `file`; a refusal must be one a player can act on.
fn load_scenario(file: &str, text: &str) -> Result<(), TestCaseError> {
    match Scenario::load(file, text, codex()) {
        Ok(_) => Ok(()),
        Err(e) => check_refusal(&e, file, text, scenario_parses(text)),
    }
}

/// Loads the CODEX with `files`; a refusal must name the file it is about.
fn load_codex(files: &[(&str, &str)]) -> Result<(), TestCaseError> {
    match Codex::load(files) {
        Ok(_) => Ok(()),
        Err(e) => {
            let parsed = !matches!(e, CodexError::Malformed(_));
            let shown = e.to_string();
            let e = DataError::from(e);
            prop_assert_eq!(&shown, &e.to_string(), "a CODEX error reads as a data file's");
            let text = files.iter().find(|(f, _)| *f == e.file).map(|(_, t)| *t);
            let Some(text) = text else { return Err(TestCaseError::fail(format!("no such file: {shown}"))) };
            check_refusal(&e, &e.file, text, parsed)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A shipped battle, broken: loaded or refused with file, line and field.
    #[test]
    fn a_broken_shipped_battle_is_refused_with_its_place(which in any::<Index>(), changes in mutations()) {
        let (file, text) = BATTLES[which.index(BATTLES.len())];
        load_scenario(file, &apply(text, &changes))?;
    }

    /// A shipped battle with wrong values: loaded or refused at the field.
    #[test]
    fn a_wrong_value_in_a_shipped_battle_is_refused_at_its_field(which in any::<Index>(), changes in wrong_values()) {
        let (file, text) = BATTLES[which.index(BATTLES.len())];
        load_scenario(file, &apply(text, &changes))?;
    }

    /// A shipped CODEX file, broken, loaded with the others.
    #[test]
    fn a_broken_codex_file_is_refused_with_its_place(which in any::<Index>(), changes in mutations()) {
        let broken = which.index(CODEX.len());
        let text = apply(CODEX[broken].1, &changes);
        let mut files = CODEX;
        files[broken].1 = &text;
        load_codex(&files)?;
    }

    /// A shipped CODEX file with wrong values, loaded with the others.
    #[test]
    fn a_wrong_value_in_a_codex_file_is_refused_at_its_field(which in any::<Index>(), changes in wrong_values()) {
        let broken = which.index(CODEX.len());
        let text = apply(CODEX[broken].1, &changes);
        let mut files = CODEX;
        files[broken].1 = &text;
        load_codex(&files)?;
    }

    /// The place of any field path in any text: inside the text, never a panic.
    #[test]
    fn any_field_is_placed_inside_any_text(
        text in random_text(),
        field in "[a-z_\\[\\]0-9.]{0,30}",
        value in proptest::option::of("[a-z\"_]{0,6}"),
    ) {
        let (line, col) = locate(&text, &field, value.as_deref());
        let lines: Vec<&str> = text.split('\n').collect();
        prop_assert!((1..=lines.len()).contains(&line));
        prop_assert!((1..=lines[line - 1].chars().count() + 1).contains(&col));
        let _ = field_at(&text, (line, col));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Text made up from scratch, as a battle.
    #[test]
    fn any_text_as_a_battle_is_refused_with_its_place(text in random_text()) {
        load_scenario("made-up.ron", &text)?;
    }

    /// Text made up from scratch, as a CODEX file.
    #[test]
    fn any_text_as_a_codex_file_is_refused_with_its_place(text in random_text()) {
        load_codex(&[("made-up.ron", &text)])?;
    }
}

/// The shipped files load, and each broken the same way is placed where the
/// break is: the properties' changes do reach the checks after parsing.
#[test]
fn a_wrong_value_in_a_shipped_file_is_placed_at_its_field() {
    for (file, text) in BATTLES {
        assert!(Scenario::load(file, text, codex()).is_ok(), "{file}");
        let bad = text.replacen("year: 1944", "year: 1900", 1);
        if bad == text {
            continue;
        }
        let e = Scenario::load(file, &bad, codex()).unwrap_err();
        let at = bad.find("year: 1900").unwrap();
        let line = bad[..at].matches('\n').count() + 1;
        assert_eq!(e.position.map(|p| p.0), Some(line), "{e}");
        assert!(e.message.starts_with("sides[0].year: 1900 is not a year"), "{e}");
    }
    let (file, text) = CODEX[0];
    let bad = text.replacen("crew: ", "crew: 99, cost: 1, x: ", 1);
    let e = DataError::from(Codex::load(&[(file, &bad)]).unwrap_err());
    assert_eq!(e.file, file);
    assert!(e.message.starts_with("entries[0].x: Unexpected field named `x`"), "{e}");
    let bad = text.replacen("crew: 1,", "crew: 99,", 1);
    let e = Codex::load(&[(file, &bad)]).unwrap_err().to_string();
    let at = bad.find("crew: 99").unwrap();
    let line = bad[..at].matches('\n').count() + 1;
    assert!(e.starts_with(&format!("{file}:{line}:")) && e.contains(": crew: 99 is outside 0..=12 (entry"), "{e}");
}
