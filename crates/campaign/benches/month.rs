//! `cargo bench -p warbound_campaign --bench month`: every shipped campaign
//! (`scenarios/campaigns/`) auto-resolved headless for one campaign month
//! (12 days, both armies Auto, every engagement on paper), over several
//! seeds. The goal (issue: campaign-whole-book) is under 100 ms a month for
//! each campaign.

use std::path::{Path, PathBuf};
use std::time::Instant;

use warbound_campaign::army::orbat::Templates;
use warbound_campaign::play::{Campaign, CampaignFile};
use warbound_rules::codex::Codex;

const SEEDS: u64 = 20;
const GOAL_MS: f64 = 100.0;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.ron` file of a folder of the repository, by its path there, sorted.
fn ron_files(dir: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "ron"))
        .map(|e| {
            let name = format!("{dir}{}", e.file_name().to_string_lossy());
            let text = std::fs::read_to_string(e.path()).unwrap_or_else(|err| panic!("{name}: {err}"));
            (name, text)
        })
        .collect();
    files.sort();
    files
}

fn refs(files: &[(String, String)]) -> Vec<(&str, &str)> {
    files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect()
}

fn main() {
    let codex = Codex::load(&refs(&ron_files("assets/codex/"))).expect("the CODEX loads");
    let templates = Templates::load(&refs(&ron_files("assets/orbat/")), &codex).expect("the templates load");
    let mut worst_of_all = 0f64;
    for (path, text) in ron_files("scenarios/campaigns/") {
        let mut file = CampaignFile::load(&path, &text).unwrap_or_else(|e| panic!("{e}"));
        file.check_tables(&path, &text, &codex, &templates).unwrap_or_else(|e| panic!("{e}"));
        let name = path.trim_start_matches("scenarios/campaigns/").trim_end_matches(".ron").to_owned();
        let (mut worst, mut total, mut events, mut battles) = (0f64, 0f64, 0u64, 0usize);
        for seed in 0..SEEDS {
            let start = Instant::now();
            let mut c = Campaign::new(&name, file.clone(), seed).expect("sets up");
            c.play_days(12);
            let lines: usize = c.drain_events().iter().map(|e| e.to_json_line().len()).sum();
            let secs = start.elapsed().as_secs_f64();
            std::hint::black_box(lines);
            worst = worst.max(secs);
            total += secs;
            events += c.events_logged;
            battles += c.fought.len();
        }
        println!(
            "campaign month ({name}, 12 days): mean {:.1} ms, worst {:.1} ms over {SEEDS} seeds; {} events and {:.1} paper battles a month on average (goal: under {GOAL_MS} ms)",
            total / SEEDS as f64 * 1000.0,
            worst * 1000.0,
            events / SEEDS,
            battles as f64 / SEEDS as f64
        );
        worst_of_all = worst_of_all.max(worst * 1000.0);
    }
    assert!(worst_of_all < GOAL_MS, "a campaign month took {worst_of_all:.1} ms, over the {GOAL_MS} ms goal");
}
