//! `cargo bench -p warbound_campaign --bench month`: the shipped Guernsey
//! campaign auto-resolved headless for one campaign month (12 days, both
//! armies Auto, every engagement on paper), over several seeds. The goal
//! (issue: campaign core) is under 1 s a month.

use std::time::Instant;

use warbound_campaign::army::orbat::Templates;
use warbound_campaign::play::{Campaign, CampaignFile};
use warbound_rules::codex::Codex;

const GUERNSEY: &str = include_str!("../../../scenarios/campaigns/guernsey-1942.ron");
const CODEX: [(&str, &str); 2] = [
    ("assets/codex/british.ron", include_str!("../../../assets/codex/british.ron")),
    ("assets/codex/german.ron", include_str!("../../../assets/codex/german.ron")),
];
const ORBAT: [(&str, &str); 2] = [
    ("assets/orbat/british.ron", include_str!("../../../assets/orbat/british.ron")),
    ("assets/orbat/german.ron", include_str!("../../../assets/orbat/german.ron")),
];
const SEEDS: u64 = 20;

fn main() {
    let mut file = CampaignFile::load("guernsey-1942.ron", GUERNSEY).expect("the shipped campaign loads");
    let codex = Codex::load(&CODEX).expect("the CODEX loads");
    let templates = Templates::load(&ORBAT, &codex).expect("the templates load");
    file.check_tables("guernsey-1942.ron", GUERNSEY, &codex, &templates).expect("its elements are costed");
    let mut worst = 0f64;
    let mut total = 0f64;
    let mut events = 0u64;
    let mut battles = 0usize;
    for seed in 0..SEEDS {
        let start = Instant::now();
        let mut c = Campaign::new("guernsey-1942", file.clone(), seed).expect("sets up");
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
        "campaign month (guernsey-1942, 12 days): mean {:.1} ms, worst {:.1} ms over {SEEDS} seeds; {} events and {:.1} paper battles a month on average (goal: under 1000 ms)",
        total / SEEDS as f64 * 1000.0,
        worst * 1000.0,
        events / SEEDS,
        battles as f64 / SEEDS as f64
    );
    assert!(worst < 1.0, "a campaign month took {worst:.3} s, over the 1 s goal");
}
