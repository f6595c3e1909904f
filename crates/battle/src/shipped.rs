//! The game's shipped data read from the repository (`assets/codex/` and
//! `scenarios/battles/`): what the battle's tests, bench and soak play on
//! without the game's copy built into its binary.

use std::{
    fs,
    path::{Path, PathBuf},
    sync::Arc,
};

use warbound_rules::{codex::Codex, data::DataError, scenario::Scenario};

/// The repository the crate was built from.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.ron` file of `dir` under the repository, by its path there, sorted.
fn ron_files(dir: &str) -> Result<Vec<(String, String)>, DataError> {
    let path = root().join(dir);
    let entries = fs::read_dir(&path).map_err(|e| DataError::new(dir, format!("cannot read the folder: {e}")))?;
    let mut files = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".ron") {
            let file = format!("{dir}{name}");
            let text = fs::read_to_string(entry.path()).map_err(|e| DataError::new(&file, e.to_string()))?;
            files.push((stem.to_owned(), text));
        }
    }
    files.sort();
    Ok(files)
}

/// The shipped CODEX.
pub fn codex() -> Result<Arc<Codex>, DataError> {
    let files = ron_files("assets/codex/")?;
    let named: Vec<(String, &str)> = files.iter().map(|(n, t)| (format!("assets/codex/{n}.ron"), t.as_str())).collect();
    let refs: Vec<(&str, &str)> = named.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    Codex::load(&refs).map(Arc::new).map_err(DataError::from)
}

/// Every shipped battle by its short name (`patrol`), checked against `codex`.
pub fn battles(codex: &Codex) -> Result<Vec<(String, Scenario)>, DataError> {
    ron_files("scenarios/battles/")?
        .into_iter()
        .map(|(name, text)| Scenario::load(&format!("scenarios/battles/{name}.ron"), &text, codex).map(|s| (name, s)))
        .collect()
}

/// One shipped battle by its short name.
pub fn battle(name: &str, codex: &Codex) -> Result<Scenario, DataError> {
    battles(codex)?
        .into_iter()
        .find_map(|(n, s)| (n == name).then_some(s))
        .ok_or_else(|| DataError::new(name, "no such shipped battle"))
}
