//! The headless campaign: `warbound --headless --campaign C --seed N
//! [--battles paper|table|both]` plays a *Fight Your Own Wars* campaign with
//! both armies Auto, its engagements resolved by the Dunnigan rules, fought
//! on the table, or both and compared; writes the campaign log (one rule
//! event per line, `docs/campaign-log.md`) and a summary; autosaves after
//! every session. `--headless --load SAVE` goes on from a campaign save.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use warbound_campaign::play::Campaign;
use warbound_war::{
    TableRunner, War,
    run::Progress,
    save::{self, CampaignSave},
};

use crate::cli::{CampaignRun, USAGE};

/// The campaign autosave in the user's data directory.
pub const AUTOSAVE: &str = "campaign-autosave.ron";

pub fn autosave_path() -> Option<PathBuf> {
    crate::settings::data_dir().map(|d| d.join(AUTOSAVE))
}

/// The folder of campaigns saved by name in the user's data directory.
pub fn saves_dir() -> Option<PathBuf> {
    crate::settings::data_dir().map(|d| d.join(save::SAVES_DIR))
}

/// Whether the file at `path` is a campaign save (its first field is its
/// version), not a battle's.
pub fn is_campaign_save(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .is_ok_and(|t| t.trim_start().trim_start_matches('(').trim_start().starts_with("version:"))
}

/// The tabletop on the built-in data.
pub(crate) fn tabletop(compare: bool) -> Result<TableRunner, String> {
    let codex = crate::data::shared_codex().map_err(|e| e.to_string())?;
    let templates = crate::data::templates().map_err(|e| e.to_string())?.clone();
    let layouts = crate::data::table_layouts().map(|(p, t)| (p.to_owned(), t.to_owned())).collect();
    Ok(TableRunner::new(codex, templates, layouts, compare))
}

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
    let campaign = match Campaign::new(&source, file, c.seed) {
        Ok(campaign) => campaign,
        Err(e) => {
            eprintln!("warbound: {source}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let days = c.days.unwrap_or(campaign.file.days);
    let progress = Progress { battles: c.battles, sessions_today: 0, player: None, campaign };
    play(progress, days, c.log.as_deref(), c.summary.as_deref())
}

/// Goes on from the campaign save at `path` for `days` more days (to the
/// campaign's end when none are given).
pub fn resume(path: &Path, days: Option<u32>, log: Option<&Path>, summary: Option<&Path>) -> ExitCode {
    let saved: CampaignSave = match save::read(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("warbound: {e}");
            return ExitCode::FAILURE;
        }
    };
    let days = days.unwrap_or(u32::MAX);
    play(saved.progress, days, log, summary)
}

fn play(progress: Progress, days: u32, log_path: Option<&Path>, summary: Option<&Path>) -> ExitCode {
    let table = match tabletop(progress.battles == warbound_war::Battles::Both) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("warbound: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut war = War::resume(progress, table);
    let mut log = match log_path.map(File::create).transpose() {
        Ok(f) => f.map(BufWriter::new),
        Err(e) => {
            eprintln!("warbound: cannot write the campaign log: {e}");
            return ExitCode::FAILURE;
        }
    };
    let autosave = autosave_path();
    let mut failed = None;
    let last_day = war.campaign().day.saturating_add(days);
    while !war.ended() && (war.campaign().day < last_day || war.progress.sessions_today > 0) {
        war.play_day(|p| {
            if let Some(path) = &autosave
                && failed.is_none()
                && let Err(e) = save::write(path, &CampaignSave::of(p))
            {
                failed = Some(format!("cannot write the campaign autosave {}: {e}", path.display()));
            }
        });
        if let Some(e) = failed.take() {
            eprintln!("warbound: {e}");
            return ExitCode::FAILURE;
        }
        let events = war.progress.campaign.drain_events();
        if let Some(w) = log.as_mut() {
            for e in events {
                if let Err(err) = writeln!(w, "{}", e.to_json_line()) {
                    eprintln!("warbound: writing the campaign log failed: {err}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    if let Some(Err(e)) = log.as_mut().map(Write::flush) {
        eprintln!("warbound: writing the campaign log failed: {e}");
        return ExitCode::FAILURE;
    }
    let campaign = war.campaign();
    let summary_json = campaign.summary();
    if let Some(path) = summary {
        let text = serde_json::to_string_pretty(&summary_json).expect("a summary serialises");
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
    let on_table = campaign.fought.iter().filter(|b| b.result.starts_with("table:")).count();
    println!(
        "{}: {} days to {}, {} battles ({on_table} on the table); {outcome}",
        campaign.file.name,
        campaign.day,
        campaign.date,
        campaign.fought.len()
    );
    ExitCode::SUCCESS
}
