//! The shipped data read from the repository (`assets/`, `scenarios/`): what
//! this crate's tests, bench and report play on without the game's copy
//! built into its binary.

use std::{
    fs,
    path::{Path, PathBuf},
    sync::Arc,
};

use warbound_campaign::{
    army::orbat::Templates,
    play::{Campaign, CampaignFile},
};
use warbound_rules::{codex::Codex, data::DataError};

use crate::{TableRunner, run::Battles};

/// The repository the crate was built from.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.ron` file under `dir` of the repository, by its path there, sorted.
fn ron_files(dir: &str) -> Result<Vec<(String, String)>, DataError> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_owned()];
    while let Some(d) = dirs.pop() {
        let entries =
            fs::read_dir(root().join(&d)).map_err(|e| DataError::new(&d, format!("cannot read the folder: {e}")))?;
        for entry in entries.flatten() {
            let name = format!("{d}{}", entry.file_name().to_string_lossy());
            if entry.path().is_dir() {
                dirs.push(format!("{name}/"));
            } else if name.ends_with(".ron") {
                let text = fs::read_to_string(entry.path()).map_err(|e| DataError::new(&name, e.to_string()))?;
                files.push((name, text));
            }
        }
    }
    files.sort();
    Ok(files)
}

fn refs(files: &[(String, String)]) -> Vec<(&str, &str)> {
    files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect()
}

/// The shipped CODEX.
pub fn codex() -> Result<Arc<Codex>, DataError> {
    Codex::load(&refs(&ron_files("assets/codex/")?)).map(Arc::new).map_err(DataError::from)
}

/// The shipped order-of-battle templates.
pub fn templates(codex: &Codex) -> Result<Templates, DataError> {
    Templates::load(&refs(&ron_files("assets/orbat/")?), codex)
}

/// The shipped authored table layouts, by path.
pub fn layouts() -> Result<Vec<(String, String)>, DataError> {
    ron_files("scenarios/tables/")
}

/// Every shipped campaign by its short name (`guernsey-1942`).
pub fn campaigns() -> Result<Vec<(String, CampaignFile)>, DataError> {
    let codex = codex()?;
    let templates = templates(&codex)?;
    ron_files("scenarios/campaigns/")?
        .into_iter()
        .map(|(path, text)| {
            let mut file = CampaignFile::load(&path, &text)?;
            file.check_tables(&path, &text, &codex, &templates)?;
            let name = path.trim_start_matches("scenarios/campaigns/").trim_end_matches(".ron").to_owned();
            Ok((name, file))
        })
        .collect()
}

/// A tabletop on the shipped data.
pub fn runner(compare: bool) -> Result<TableRunner, DataError> {
    let codex = codex()?;
    let templates = templates(&codex)?;
    Ok(TableRunner::new(codex, templates, layouts()?, compare))
}

/// A shipped campaign set up on `seed`, ready to play `battles`.
pub fn war(name: &str, seed: u64, battles: Battles) -> Result<crate::War, String> {
    let (_, file) = campaigns()
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|(n, _)| n == name)
        .ok_or_else(|| format!("no shipped campaign \"{name}\""))?;
    let campaign = Campaign::new(name, file, seed).map_err(|e| e.to_string())?;
    let table = runner(battles == Battles::Both).map_err(|e| e.to_string())?;
    Ok(crate::War::new(campaign, battles, table))
}
