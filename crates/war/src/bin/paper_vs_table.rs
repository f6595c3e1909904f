//! `paper-vs-table [--seeds N] [--days D]`: every shipped campaign played on
//! seeds 0..N with its engagements fought on the table and each also
//! resolved on paper from the same state; prints where the two agree and
//! where they disagree, and who won each campaign.

use std::process::ExitCode;

use warbound_war::{Battles, compare::Report, shipped};

fn main() -> ExitCode {
    let mut seeds = 20u64;
    let mut days: Option<u32> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (a.as_str(), value) {
            ("--seeds", Some(n)) => seeds = n,
            ("--days", Some(n)) => days = u32::try_from(n).ok(),
            _ => {
                eprintln!("usage: paper-vs-table [--seeds N] [--days D]");
                return ExitCode::from(2);
            }
        }
    }
    let campaigns = match shipped::campaigns() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("paper-vs-table: {e}");
            return ExitCode::FAILURE;
        }
    };
    for (name, file) in campaigns {
        let mut report = Report::default();
        let mut winners = std::collections::BTreeMap::<String, u32>::new();
        let mut table_battles = 0;
        for seed in 0..seeds {
            let mut war = match shipped::war(&name, seed, Battles::Both) {
                Ok(w) => w,
                Err(e) => {
                    eprintln!("paper-vs-table: {name}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            for _ in 0..days.unwrap_or(file.days) {
                if war.ended() {
                    break;
                }
                war.play_day(|_| {});
                war.progress.campaign.drain_events();
            }
            let c = war.campaign();
            for x in &c.comparisons {
                report.add(x);
            }
            table_battles += war.table.as_ref().map_or(0, |t| t.battles);
            let winner =
                c.ended.as_ref().and_then(|e| e.winner).map_or("nobody".to_owned(), |s| c.army(s).name.clone());
            *winners.entry(winner).or_default() += 1;
        }
        println!("{name}, {seeds} seeds: {table_battles} battles fought on the table");
        println!("{report}");
        let wins: Vec<String> = winners.iter().map(|(w, n)| format!("{w} {n}")).collect();
        println!("  campaigns won: {}", wins.join(", "));
    }
    ExitCode::SUCCESS
}
