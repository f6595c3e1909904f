//! The campaign rules report: every shipped campaign played on seeds 1..=N,
//! both armies Auto, its engagements on paper and then on the table, and
//! which sections of *Fight Your Own Wars* changed its state (see
//! `warbound_war::report`), printed as Markdown.
//!
//! `cargo run --release -p warbound_war --bin campaign-report -- [--seeds N]
//! [--check docs/campaign-coverage.md]`
//!
//! With `--check`, also compares the campaigns with the document's list of
//! sections no shipped campaign reaches: a section not listed that no
//! event played, or a listed one that was played, fails.
//!
//! Exits 1 on a campaign that cannot be played or a disagreement, 2 on bad
//! arguments.

use std::process::ExitCode;

use warbound_battle::report::{listed_under, seeds_from_args};
use warbound_war::{report, shipped};

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let check = match args.iter().position(|a| a == "--check") {
        Some(k) if k + 1 < args.len() => {
            let path = args.remove(k + 1);
            args.remove(k);
            Some(path)
        }
        Some(_) => {
            eprintln!("campaign-report: --check needs the coverage document's path");
            return ExitCode::from(2);
        }
        None => None,
    };
    let listed = match check.as_deref().map(|p| {
        std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| listed_under(&t, report::NOT_REACHED_HEADING))
            .map_err(|e| format!("{p}: {e}"))
    }) {
        Some(Ok(l)) => Some(l),
        Some(Err(e)) => {
            eprintln!("campaign-report: {e}");
            return ExitCode::from(2);
        }
        None => None,
    };
    let seeds = match seeds_from_args(args) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("campaign-report: {e}\nusage: campaign-report [--seeds N] [--check COVERAGE.md]");
            return ExitCode::from(2);
        }
    };
    let campaigns = match shipped::campaigns() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("campaign-report: {e}");
            return ExitCode::FAILURE;
        }
    };
    let report = report::campaign_report(&campaigns, seeds);
    print!("{}", report.markdown());
    let problems = listed.map(|l| report.check_reached(&l)).unwrap_or_default();
    for p in report.failures.iter().chain(&problems) {
        eprintln!("campaign-report: {p}");
    }
    if report.failures.is_empty() && problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
