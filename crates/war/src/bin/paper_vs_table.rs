//! `paper-vs-table [--seeds N] [--days D] [--battles paper|table|both]`:
//! every shipped campaign played on seeds 0..N with its engagements fought
//! on the table and each also resolved on paper from the same state; prints
//! where the two agree and where they disagree, and who won each campaign.
//! `--battles paper` or `table` plays the campaigns that way alone and
//! prints who won them.

use std::process::ExitCode;

use warbound_war::{Battles, compare::Report, shipped};

fn main() -> ExitCode {
    let mut seeds = 20u64;
    let mut days: Option<u32> = None;
    let mut battles = Battles::Both;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().unwrap_or_default();
        match (a.as_str(), value.parse::<u64>()) {
            ("--seeds", Ok(n)) => seeds = n,
            ("--days", Ok(n)) => days = u32::try_from(n).ok(),
            ("--battles", _) if value.parse::<Battles>().is_ok() => battles = value.parse().unwrap_or(battles),
            _ => {
                eprintln!("usage: paper-vs-table [--seeds N] [--days D] [--battles paper|table|both]");
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
            let mut war = match shipped::war(&name, seed, battles) {
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
        if battles == Battles::Both {
            println!("{report}");
        }
        let wins: Vec<String> = winners.iter().map(|(w, n)| format!("{w} {n}")).collect();
        println!("  campaigns won: {}", wins.join(", "));
    }
    ExitCode::SUCCESS
}
