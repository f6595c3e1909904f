//! The rules report: every shipped battle played headless, Auto against
//! Auto, on seeds 1..=N, and what of both books it played (see
//! `warbound_battle::report`), printed as Markdown.
//!
//! `cargo run --release -p warbound_battle --bin rules-report -- [--seeds N]
//! [--check docs/rules-coverage.md]`
//!
//! With `--check`, also compares the battles with the document's list of
//! sections no shipped battle reaches (`report::not_reached`): a section
//! not listed that reads zero, or a listed one that was played, fails.
//!
//! Exits 1 on any invariant failure or disagreement, 2 on bad arguments.

use std::process::ExitCode;

use warbound_battle::{report, shipped};

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let listed = match report::take_check(&mut args, report::NOT_REACHED_HEADING) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("rules-report: {e}");
            return ExitCode::from(2);
        }
    };
    let seeds = match report::seeds_from_args(args) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("rules-report: {e}\nusage: rules-report [--seeds N] [--check COVERAGE.md]");
            return ExitCode::from(2);
        }
    };
    let loaded = shipped::codex().and_then(|codex| shipped::battles(&codex).map(|battles| (codex, battles)));
    let (codex, battles) = match loaded {
        Ok(l) => l,
        Err(e) => {
            eprintln!("rules-report: {e}");
            return ExitCode::FAILURE;
        }
    };
    let report = report::rules_report(&codex, &battles, seeds);
    print!("{}", report.markdown());
    let problems = listed.map(|l| report.check_reached(&l)).unwrap_or_default();
    for p in &problems {
        eprintln!("rules-report: {p}");
    }
    if report.failures.is_empty() && problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
