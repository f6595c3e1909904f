//! Warbound: solo WW2 battles on a virtual 3D table.
//!
//! The rules live in the engine-free `warbound_rules` crate; this crate runs
//! them in Bevy: [`app`] assembles the app for each [`cli::Mode`], [`battle`]
//! holds the flow state, [`view`], [`input`], [`ui`] and [`physics`] are the
//! windowed front end. See `docs/architecture.md`.

pub mod app;
pub mod battle;
pub mod bench;
pub mod bindings;
pub mod campaign;
pub mod cli;
pub mod data;
pub mod input;
pub mod launch;
pub mod physics;
pub mod platform;
pub mod settings;
pub mod states;
pub mod ui;
pub mod view;
pub mod war;

use std::process::ExitCode;

use launch::BUILD;

/// Runs the game in `mode`; returns the process exit code.
pub fn run(mode: cli::Mode, query: Option<cli::Query>) -> ExitCode {
    use cli::Mode;
    if let Some(cli::Query::ListScenarios) = query {
        println!("battles (--scenario):");
        for (name, scenario) in data::battle_scenarios() {
            match scenario {
                Ok(s) => println!("  {name:<24} {}", s.name),
                Err(e) => println!("  {name:<24} (broken: {e})"),
            }
        }
        println!("campaigns (--campaign):");
        for (name, campaign) in data::campaigns() {
            match campaign {
                Ok(c) => println!("  {name:<24} {}", c.name),
                Err(e) => println!("  {name:<24} (broken: {e})"),
            }
        }
        return ExitCode::SUCCESS;
    }
    let scenario_spec = match &mode {
        Mode::Help => {
            println!("{}", cli::USAGE);
            return ExitCode::SUCCESS;
        }
        Mode::Version => {
            println!("warbound {BUILD}");
            return ExitCode::SUCCESS;
        }
        Mode::Play { scenario, .. } | Mode::Headless { scenario, .. } | Mode::Screenshot { scenario, .. } => scenario,
        Mode::AutoPlay(a) => {
            if let Some(path) = a.load.as_deref().filter(|p| campaign::is_campaign_save(p)) {
                return campaign::resume(path, a.days, a.log.as_deref(), a.summary.as_deref());
            }
            if a.days.is_some() {
                eprintln!(
                    "warbound: --days goes with a campaign save; {} is a battle's",
                    a.load.as_ref().map_or(String::new(), |p| p.display().to_string())
                );
                return ExitCode::from(2);
            }
            return app::run_autoplay(a);
        }
        Mode::Campaign(c) => return campaign::run(c),
        Mode::CampaignMap { campaign, seed, demo, screenshot } => {
            let (source, file) = match data::load_campaign(campaign) {
                Ok(loaded) => loaded,
                Err(e) => {
                    eprintln!("warbound: {e}\n\n{}", cli::USAGE);
                    return ExitCode::from(2);
                }
            };
            let screenshot = screenshot.clone().map(|(path, frames)| launch::ScreenshotRequest { path, frames });
            let table = cli::TableOptions { seed: *seed, two_player: false };
            return app::run_campaign(screenshot, source, file, *demo, table);
        }
        Mode::RulesReport { seeds } => return rules_report(*seeds),
        Mode::FrameBench { out, frames } => {
            return app::run_frame_bench(bench::FrameBench { out: out.clone(), frames: *frames });
        }
    };
    let scenario = match scenario_spec.as_deref().map(data::load_scenario).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("warbound: {e}\n\n{}", cli::USAGE);
            return ExitCode::from(2);
        }
    };
    match mode {
        Mode::Headless { frames, .. } => app::run_headless(frames, scenario),
        Mode::Play { demo, table, .. } => app::run_windowed(None, scenario, demo, None, table),
        Mode::Screenshot { path, frames, demo, load: None, table, .. } => {
            app::run_windowed(Some(launch::ScreenshotRequest { path, frames }), scenario, demo, None, table)
        }
        Mode::Screenshot { path, frames, demo, load: Some(save), .. } => {
            if campaign::is_campaign_save(&save) {
                eprintln!(
                    "warbound: {} is a campaign save; --screenshot --load pictures a battle's save",
                    save.display()
                );
                return ExitCode::from(2);
            }
            let saved =
                match data::shared_codex().map_err(|e| e.to_string()).and_then(|c| battle::save::read(&save, &c)) {
                    Ok(saved) => saved,
                    Err(e) => {
                        eprintln!("warbound: {e}");
                        return ExitCode::from(2);
                    }
                };
            let scenario =
                data::LoadedScenario { source: saved.start.source.clone(), scenario: saved.start.scenario.clone() };
            let table = cli::TableOptions::default();
            app::run_windowed(
                Some(launch::ScreenshotRequest { path, frames }),
                Some(scenario),
                demo,
                Some(saved),
                table,
            )
        }
        Mode::Help
        | Mode::Version
        | Mode::AutoPlay(_)
        | Mode::Campaign(_)
        | Mode::CampaignMap { .. }
        | Mode::FrameBench { .. }
        | Mode::RulesReport { .. } => {
            unreachable!("answered above")
        }
    }
}

/// `--rules-report`: every shipped battle on seeds 1..=`seeds`, Auto against
/// Auto, and which sections of both books it played; exit 1 on a rule failure.
fn rules_report(seeds: u32) -> ExitCode {
    let codex = match data::shared_codex() {
        Ok(codex) => codex,
        Err(e) => {
            eprintln!("warbound: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut battles = Vec::new();
    for (name, scenario) in data::battle_scenarios() {
        match scenario {
            Ok(s) => battles.push((name.to_owned(), s)),
            Err(e) => {
                eprintln!("warbound: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let report = warbound_battle::report::rules_report(&codex, &battles, seeds);
    println!("{}", report.markdown());
    if report.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
