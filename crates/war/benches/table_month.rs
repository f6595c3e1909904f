//! `cargo bench -p warbound_war --bench table_month`: the shipped Guernsey
//! campaign for one campaign month (12 days) with every engagement fought on
//! the table headless, both sides Auto, over several seeds; then the
//! campaign save of a month's end written and read back. Goals (issue:
//! campaign-to-table): a month under 2 s, the whole under 300 MB resident,
//! a save under 1 MB loading in under 1 s.

use std::time::Instant;

use warbound_war::{Battles, save, shipped};

const SEEDS: u64 = 5;

/// Peak resident memory of this process so far, in MB (Linux).
fn peak_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let mut worst = 0f64;
    let mut total = 0f64;
    let (mut battles, mut bounds) = (0u32, 0u32);
    let mut last = None;
    for seed in 0..SEEDS {
        let mut war = shipped::war("guernsey-1942", seed, Battles::Table).expect("the shipped campaign sets up");
        let start = Instant::now();
        for _ in 0..12 {
            war.play_day(|_| {});
            std::hint::black_box(war.progress.campaign.drain_events());
        }
        let secs = start.elapsed().as_secs_f64();
        worst = worst.max(secs);
        total += secs;
        let t = war.table.as_ref().expect("table battles");
        battles += t.battles;
        bounds += t.bounds;
        last = Some(war.progress.clone());
    }
    let dir = std::env::temp_dir().join(format!("warbound-bench-{}", std::process::id()));
    let path = dir.join("month.ron");
    save::write(&path, &save::CampaignSave::of(&last.expect("played"))).expect("the save is written");
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let start = Instant::now();
    save::read(&path).expect("the save reads back");
    let load = start.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "table month (guernsey-1942, 12 days, every engagement on the table): mean {:.0} ms, worst {:.0} ms over {SEEDS} seeds; {:.1} table battles and {:.0} bounds a month (goal: under 2000 ms)",
        total / SEEDS as f64 * 1000.0,
        worst * 1000.0,
        f64::from(battles) / SEEDS as f64,
        f64::from(bounds) / SEEDS as f64,
    );
    println!(
        "campaign save at a month's end: {:.0} KB, read in {:.0} ms (goals: under 1 MB, under 1000 ms); peak resident {} (goal: under 300 MB)",
        size as f64 / 1024.0,
        load * 1000.0,
        peak_mb().map_or("unknown".to_owned(), |m| format!("{m:.0} MB")),
    );
}
