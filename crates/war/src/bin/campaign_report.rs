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
//! event played, or a listed one that was played, fails. A section the
//! document lists as reached on some seeds only passes either way.
//!
//! Exits 1 on a campaign that cannot be played or a disagreement, 2 on bad
//! arguments.

use std::process::ExitCode;

use warbound_battle::report::{seeds_from_args, take_checks};
use warbound_war::{report, shipped};

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let listed = match take_checks(&mut args, &[report::NOT_REACHED_HEADING, report::BY_CHANCE_HEADING]) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("campaign-report: {e}");
            return ExitCode::from(2);
        }
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
    let problems = listed.map(|l| report.check_reached(&l[0], &l[1])).unwrap_or_default();
    for p in report.failures.iter().chain(&problems) {
        eprintln!("campaign-report: {p}");
    }
    if report.failures.is_empty() && problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
