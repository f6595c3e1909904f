//! The shipped CODEX and one-entry files for the codex tests.

use super::{Codex, CodexEntry, CodexError, Points, Problem};

/// The CODEX files as shipped, for the crate's tests (the game embeds the
/// same files through its build script).
const TEST_FILES: [(&str, &str); 5] = [
    ("assets/codex/british.ron", include_str!("../../../../assets/codex/british.ron")),
    ("assets/codex/us.ron", include_str!("../../../../assets/codex/us.ron")),
    ("assets/codex/german.ron", include_str!("../../../../assets/codex/german.ron")),
    ("assets/codex/italian.ron", include_str!("../../../../assets/codex/italian.ron")),
    ("assets/codex/soviet.ron", include_str!("../../../../assets/codex/soviet.ron")),
];

/// The shipped CODEX, loaded, for the crate's tests.
pub(crate) fn test_codex() -> Codex {
    Codex::load(&TEST_FILES).unwrap_or_else(|e| panic!("{e}"))
}

pub(super) fn entry(id: &str) -> CodexEntry {
    test_codex().get(id).unwrap().clone()
}

pub(super) fn pts(n: u32) -> Points {
    Points::whole(n)
}

/// One entry in a file of its own, for the error tests.
pub(super) fn one_file(entry: &str) -> String {
    format!("#![enable(implicit_some)]\n(\n    nation: British,\n    entries: [\n{entry}\n    ],\n)\n")
}

pub(super) const GOOD: &str = r#"        (
            id: "x_gun",
            name: "Test gun",
            kind: weapon,
            service: (1940, 1944),
            crew: 4,
            armament: [(row: at_gun_class2, calibre: 40)],
            observation: csw(crew: 4),
            movement: HandMovedGun,
            load_space: 6,
        ),"#;

pub(super) fn load_one(entry: &str) -> Result<Codex, CodexError> {
    let text = one_file(entry);
    Codex::load(&[("test.ron", &text)])
}

pub(super) fn invalid(entry: &str) -> (Option<usize>, String, Problem) {
    match load_one(entry) {
        Err(CodexError::Invalid { file, position, field, problem, .. }) => {
            assert_eq!(file, "test.ron");
            (Some(position.0), field, problem)
        }
        other => panic!("expected an invalid entry, got {other:?}"),
    }
}
