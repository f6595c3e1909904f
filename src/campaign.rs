//! The headless campaign: `warbound --headless --campaign C --seed N`
//! plays a *Fight Your Own Wars* campaign with both armies Auto, every
//! engagement resolved by the Dunnigan rules, and writes the campaign log
//! (one rule event per line, `docs/campaign-log.md`) and a summary.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

use warbound_campaign::play::Campaign;

use crate::cli::{CampaignRun, USAGE};

/// Plays the campaign; exit 0 when it ran, 2 for a campaign that cannot be
/// found, 1 for a broken campaign file or a file that cannot be written.
pub fn run(c: &CampaignRun) -> ExitCode {
    let (source, file) = match crate::data::load_campaign(&c.campaign) {
        Ok(loaded) => loaded,
        Err(e) if e.message.starts_with("no such campaign") => {
            eprintln!("warbound: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("warbound: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut campaign = match Campaign::new(&source, file, c.seed) {
        Ok(campaign) => campaign,
        Err(e) => {
            eprintln!("warbound: {source}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut log = match c.log.as_ref().map(File::create).transpose() {
        Ok(f) => f.map(BufWriter::new),
        Err(e) => {
            eprintln!("warbound: cannot write the campaign log: {e}");
            return ExitCode::FAILURE;
        }
    };
    let days = c.days.unwrap_or(campaign.file.days);
    for _ in 0..days {
        if campaign.ended.is_some() {
            break;
        }
        campaign.play_day();
        if let Some(w) = log.as_mut() {
            for e in campaign.drain_events() {
                if let Err(err) = writeln!(w, "{}", e.to_json_line()) {
                    eprintln!("warbound: writing the campaign log failed: {err}");
                    return ExitCode::FAILURE;
                }
            }
        } else {
            campaign.drain_events();
        }
    }
    if let Some(Err(e)) = log.as_mut().map(Write::flush) {
        eprintln!("warbound: writing the campaign log failed: {e}");
        return ExitCode::FAILURE;
    }
    let summary = campaign.summary();
    if let Some(path) = &c.summary {
        let text = serde_json::to_string_pretty(&summary).expect("a summary serialises");
        if let Err(e) = std::fs::write(path, text + "\n") {
            eprintln!("warbound: cannot write the summary {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let outcome = match &campaign.ended {
        Some(end) => {
            let winner = end.winner.map_or("nobody (a draw)".to_owned(), |s| campaign.army(s).name.clone());
            format!("{}; {winner} wins", end.reason)
        }
        None => format!("stopped after {} days, undecided", campaign.day),
    };
    println!(
        "{}: {} days to {}, {} paper battles; {outcome}",
        campaign.file.name,
        campaign.day,
        campaign.date,
        campaign.fought.len()
    );
    ExitCode::SUCCESS
}
