//! Data built into the binary by `build.rs`, and loading scenarios from it or from disk.

use std::{
    path::Path,
    sync::{Arc, OnceLock},
};

use warbound_campaign::{army::orbat::Templates, play::CampaignFile};
use warbound_rules::{codex::Codex, data::DataError, scenario::Scenario};

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

const BATTLES_DIR: &str = "scenarios/battles/";
const CAMPAIGNS_DIR: &str = "scenarios/campaigns/";
const CODEX_DIR: &str = "assets/codex/";
const ORBAT_DIR: &str = "assets/orbat/";
const TABLES_DIR: &str = "scenarios/tables/";

/// The built-in CODEX (every `assets/codex/*.ron`), loaded once.
pub fn codex() -> Result<&'static Codex, DataError> {
    shared().map(|c| &**c)
}

/// The built-in CODEX to hand to a battle, which holds its own reference.
pub fn shared_codex() -> Result<Arc<Codex>, DataError> {
    shared().map(Arc::clone)
}

fn shared() -> Result<&'static Arc<Codex>, DataError> {
    static CODEX: OnceLock<Result<Arc<Codex>, String>> = OnceLock::new();
    CODEX
        .get_or_init(|| {
            let files: Vec<_> = EMBEDDED.iter().filter(|(p, _)| p.starts_with(CODEX_DIR)).copied().collect();
            Codex::load(&files).map(Arc::new).map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| DataError::new(CODEX_DIR, e.clone()))
}

/// The built-in order-of-battle templates (every `assets/orbat/*.ron`),
/// checked against the CODEX, loaded once.
pub fn templates() -> Result<&'static Templates, DataError> {
    static TEMPLATES: OnceLock<Result<Templates, DataError>> = OnceLock::new();
    TEMPLATES
        .get_or_init(|| {
            let files: Vec<_> = EMBEDDED.iter().filter(|(p, _)| p.starts_with(ORBAT_DIR)).copied().collect();
            Templates::load(&files, codex()?)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Parses a campaign and checks its elements' orders of battle against the
/// templates and the CODEX.
fn parse_campaign(file: &str, text: &str) -> Result<CampaignFile, DataError> {
    let mut campaign = CampaignFile::load(file, text)?;
    campaign.check_tables(file, text, codex()?, templates()?)?;
    Ok(campaign)
}

/// Parses a scenario and checks it against the CODEX.
fn parse_scenario(file: &str, text: &str) -> Result<Scenario, DataError> {
    Scenario::load(file, text, codex()?)
}

/// The built-in authored table layouts (`scenarios/tables/<campaign>/<board>.ron`), by path.
pub fn table_layouts() -> impl Iterator<Item = (&'static str, &'static str)> {
    EMBEDDED.iter().filter(|(p, _)| p.starts_with(TABLES_DIR)).copied()
}

/// The text of a built-in data file, by its path in the repository.
pub fn embedded(path: &str) -> Option<&'static str> {
    EMBEDDED.iter().find(|(p, _)| *p == path).map(|(_, text)| *text)
}

/// A scenario and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedScenario {
    /// The built-in name or the path it was read from.
    pub source: String,
    pub scenario: Scenario,
}

/// Built-in battle scenarios, by short name, each parsed.
pub fn battle_scenarios() -> impl Iterator<Item = (&'static str, Result<Scenario, DataError>)> {
    EMBEDDED.iter().filter_map(|(path, text)| {
        let name = path.strip_prefix(BATTLES_DIR)?.strip_suffix(".ron")?;
        Some((name, parse_scenario(path, text)))
    })
}

/// Loads a scenario: a path to a `.ron` file (anything with a `/` or ending in
/// `.ron`), else a built-in battle by short name.
pub fn load_scenario(spec: &str) -> Result<LoadedScenario, DataError> {
    if spec.contains('/') || spec.ends_with(".ron") {
        let text = std::fs::read_to_string(Path::new(spec))
            .map_err(|e| DataError::new(spec, format!("cannot read scenario file: {e}")))?;
        return parse_scenario(spec, &text).map(|scenario| LoadedScenario { source: spec.to_owned(), scenario });
    }
    let path = format!("{BATTLES_DIR}{spec}.ron");
    match embedded(&path) {
        Some(text) => parse_scenario(&path, text).map(|scenario| LoadedScenario { source: spec.to_owned(), scenario }),
        None => {
            let known: Vec<_> = battle_scenarios().map(|(n, _)| n).collect();
            Err(DataError::new(spec, format!("no such scenario; built-in scenarios are: {}", known.join(", "))))
        }
    }
}

/// Built-in campaigns, by short name, each parsed.
pub fn campaigns() -> impl Iterator<Item = (&'static str, Result<CampaignFile, DataError>)> {
    EMBEDDED.iter().filter_map(|(path, text)| {
        let name = path.strip_prefix(CAMPAIGNS_DIR)?.strip_suffix(".ron")?;
        Some((name, parse_campaign(path, text)))
    })
}

/// Loads a campaign: a path to a `.ron` file (anything with a `/` or ending
/// in `.ron`), else a built-in campaign by short name. Returns where it came
/// from and the campaign.
pub fn load_campaign(spec: &str) -> Result<(String, CampaignFile), DataError> {
    if spec.contains('/') || spec.ends_with(".ron") {
        let text = std::fs::read_to_string(Path::new(spec))
            .map_err(|e| DataError::new(spec, format!("cannot read campaign file: {e}")))?;
        return parse_campaign(spec, &text).map(|c| (spec.to_owned(), c));
    }
    match embedded(&format!("{CAMPAIGNS_DIR}{spec}.ron")) {
        Some(text) => parse_campaign(&format!("{CAMPAIGNS_DIR}{spec}.ron"), text).map(|c| (spec.to_owned(), c)),
        None => {
            let known: Vec<_> = campaigns().map(|(n, _)| n).collect();
            Err(DataError::new(spec, format!("no such campaign; built-in campaigns are: {}", known.join(", "))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_campaign_parses() {
        let all: Vec<_> = campaigns().collect();
        assert!(!all.is_empty(), "at least one built-in campaign");
        for (name, parsed) in all {
            parsed.unwrap_or_else(|e| panic!("built-in campaign {name} is broken: {e}"));
        }
    }

    #[test]
    fn every_built_in_scenario_parses() {
        let all: Vec<_> = battle_scenarios().collect();
        assert!(!all.is_empty(), "at least one built-in battle");
        for (name, parsed) in all {
            parsed.unwrap_or_else(|e| panic!("built-in scenario {name} is broken: {e}"));
        }
    }

    #[test]
    fn built_in_scenario_by_name() {
        let (name, _) = battle_scenarios().next().unwrap();
        assert_eq!(load_scenario(name).unwrap().source, name);
    }

    #[test]
    fn unknown_name_lists_the_built_ins() {
        let err = load_scenario("no-such-battle").unwrap_err();
        let (first, _) = battle_scenarios().next().unwrap();
        assert!(err.message.contains(first), "{err}");
    }

    #[test]
    fn malformed_file_names_file_and_line() {
        let path = std::env::temp_dir().join(format!("warbound-bad-{}.ron", std::process::id()));
        std::fs::write(&path, "(\n  name: \"X\",\n  briefing: 7,\n)").unwrap();
        let err = load_scenario(path.to_str().unwrap()).unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(3), "{err}");
        assert!(err.to_string().starts_with(path.to_str().unwrap()));
    }

    #[test]
    fn the_built_in_codex_loads() {
        assert!(codex().unwrap().entries().len() >= 60);
    }

    #[test]
    fn unknown_codex_id_in_a_scenario_file_is_refused() {
        let path = std::env::temp_dir().join(format!("warbound-codex-{}.ron", std::process::id()));
        let text = data_text("patrol").replace("\"gb_no4_rifle\"", "\"gb_no_such_rifle\"");
        std::fs::write(&path, text).unwrap();
        let err = load_scenario(path.to_str().unwrap()).unwrap_err();
        assert!(err.to_string().contains("gb_no_such_rifle"), "{err}");
    }

    fn data_text(name: &str) -> &'static str {
        embedded(&format!("{BATTLES_DIR}{name}.ron")).unwrap()
    }

    #[test]
    fn missing_file_is_an_error_not_a_panic() {
        let err = load_scenario("/nonexistent/dir/battle.ron").unwrap_err();
        assert!(err.message.contains("cannot read"), "{err}");
    }
}
