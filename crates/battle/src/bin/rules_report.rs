//! The rules report: every shipped battle played headless, Auto against
//! Auto, on seeds 1..=N, and what of both books it played (see
//! `warbound_battle::report`), printed as Markdown.
//!
//! `cargo run --release -p warbound_battle --bin rules-report -- [--seeds N]`
//!
//! Exits 1 on any invariant failure, 2 on bad arguments.

use std::process::ExitCode;

use warbound_battle::{report, shipped};

fn main() -> ExitCode {
    let seeds = match report::seeds_from_args(std::env::args().skip(1)) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("rules-report: {e}\nusage: rules-report [--seeds N]");
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
    if report.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
