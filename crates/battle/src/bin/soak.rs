//! The soak: many seeded battles, every shipped battle solo and 2-player,
//! each played to its end with the invariants checked after every bound.
//!
//! `cargo run --release -p warbound_battle --bin soak -- [--battles N] [--first-seed S] [--logs DIR]`
//!
//! `--logs DIR` writes each battle's log (`NAME-SEED-solo.jsonl`,
//! `NAME-SEED-2p.jsonl`) and result (`.json`) there: a restructure proves it
//! changed no rule by the two directories being byte-identical.
//!
//! Checked after every bound: no step failed to resolve (no invariant
//! failure); men never above their start (a count of men cannot go below
//! nought); every CMS within 0..=6; each side's CMT is the CMS on the table
//! as FYOB counts it and never above its start. At the end: every element's
//! fate in the result, agreeing with where it is; and a save taken at a
//! random bound resumes to the same log and the same result. A panic in a
//! battle is caught and counted as a failure. Exits 1 on any failure.

use std::{
    panic::{AssertUnwindSafe, catch_unwind},
    path::{Path, PathBuf},
    process::ExitCode,
    sync::Arc,
    time::Instant,
};

use warbound_battle::{
    FlowPace,
    invariant::InvariantFailures,
    log::BattleLog,
    outcome, play,
    prelude::*,
    save,
    setup::{BattleResult, BattleStart, Fate, Mechanism},
    shipped,
    state::{Battle, ElementView, FieldedReadOnly, Sides, Status, elements},
};
use warbound_rules::{codex::Codex, momentum::MAX_CMS, scenario::Scenario};

/// What one battle of the soak measured.
#[derive(Default)]
struct Tally {
    bounds: u32,
    checks: u64,
    failures: Vec<String>,
}

fn main() -> ExitCode {
    let mut battles = 1000u32;
    let mut first_seed = 1u64;
    let mut logs: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next();
        let number = value.as_deref().and_then(|v| v.parse::<u64>().ok());
        match (a.as_str(), number, value) {
            ("--battles", Some(n), _) => battles = n as u32,
            ("--first-seed", Some(s), _) => first_seed = s,
            ("--logs", _, Some(dir)) => logs = Some(PathBuf::from(dir)),
            _ => {
                eprintln!("usage: soak [--battles N] [--first-seed S] [--logs DIR]");
                return ExitCode::from(2);
            }
        }
    }
    if let Some(dir) = &logs
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("soak: cannot make {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let codex = match shipped::codex() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("soak: {e}");
            return ExitCode::FAILURE;
        }
    };
    let scenarios = match shipped::battles(&codex) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("soak: {e}");
            return ExitCode::FAILURE;
        }
    };
    let kinds = scenarios.len() * 2;
    let started = Instant::now();
    let (mut bounds, mut checks, mut failed) = (0u64, 0u64, 0u32);
    for k in 0..battles {
        let (name, scenario) = &scenarios[k as usize % scenarios.len()];
        let mechanism =
            if (k as usize / scenarios.len()).is_multiple_of(2) { Mechanism::Solo } else { Mechanism::TwoPlayer };
        let seed = first_seed + u64::from(k) / kinds as u64;
        let keep = logs.as_ref().map(|dir| {
            let how = if mechanism == Mechanism::Solo { "solo" } else { "2p" };
            dir.join(format!("{name}-{seed}-{how}"))
        });
        let played =
            catch_unwind(AssertUnwindSafe(|| soak_one(name, scenario, seed, mechanism, &codex, keep.as_deref())));
        let tally = played.unwrap_or_else(|p| {
            let why = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            Tally { failures: vec![format!("panicked: {}", why.unwrap_or_default())], ..Tally::default() }
        });
        bounds += u64::from(tally.bounds);
        checks += tally.checks;
        if !tally.failures.is_empty() {
            failed += 1;
            for f in &tally.failures {
                eprintln!("soak: {name} {mechanism:?} seed {seed}: {f}");
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "soak: {battles} battles ({} scenarios, solo and 2-player), {bounds} bounds, {checks} invariant checks, \
         {failed} battles failed, {secs:.1} s ({:.1} ms a battle)",
        scenarios.len(),
        secs * 1e3 / f64::from(battles.max(1))
    );
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// Plays one battle bound by bound, checking after each; with `keep`, writes
/// its log and result there (`.jsonl`, `.json`).
fn soak_one(
    name: &str,
    scenario: &Scenario,
    seed: u64,
    mechanism: Mechanism,
    codex: &Arc<Codex>,
    keep: Option<&Path>,
) -> Tally {
    let mut tally = Tally::default();
    let mut start = BattleStart::auto(name, scenario.clone(), seed);
    start.mechanism = mechanism;
    let mut app = match play::battle_app(start.clone(), BattleLog::default(), codex.clone()) {
        Ok(app) => app,
        Err(e) => {
            tally.failures.push(format!("does not start: {e}"));
            return tally;
        }
    };
    // One flow step an update, so that every bound's end is seen.
    app.insert_resource(FlowPace(1));
    let last = start.last_bound().max(1);
    // A bound picked from the seed, the same on every run.
    let save_at = 1 + ((seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) % u64::from(last)) as u32;
    let mut saved = None;
    let mut bound = 0;
    for _ in 0..play::MAX_UPDATES {
        if play::is_over(app.world()) {
            break;
        }
        app.update();
        let now = app.world().resource::<Battle>().clock.bound();
        if now != bound || play::is_over(app.world()) {
            tally.checks += check(app.world_mut(), &mut tally.failures);
            if now != bound {
                tally.bounds += 1;
            }
            bound = now;
            if bound == save_at && saved.is_none() {
                saved = save::snapshot(app.world());
            }
        }
    }
    let Some(result) = app.world().resource::<Battle>().result.clone() else {
        tally.failures.push("did not end".to_owned());
        return tally;
    };
    tally.checks += check_fates(app.world_mut(), &result, &mut tally.failures);
    if let Some(keep) = keep {
        let written = std::fs::write(keep.with_extension("jsonl"), log_of(&app)).and_then(|()| {
            let json = serde_json::to_string_pretty(&result).map_err(std::io::Error::other)?;
            std::fs::write(keep.with_extension("json"), json)
        });
        if let Err(e) = written {
            tally.failures.push(format!("cannot write {}: {e}", keep.display()));
        }
    }
    if let Some(saved) = saved {
        match save::resume(&saved, codex.clone()) {
            Ok(resumed) => {
                tally.checks += 1;
                let (a, b) = (log_of(&app), log_of(&resumed));
                if a != b || resumed.world().resource::<Battle>().result.as_ref() != Some(&result) {
                    tally.failures.push(format!("the save at bound {save_at} resumes to another battle"));
                }
            }
            Err(e) => tally.failures.push(format!("the save at bound {save_at} does not resume: {e}")),
        }
    }
    tally
}

fn log_of(app: &App) -> String {
    app.world().resource::<BattleLog>().json_lines()
}

/// The invariants that hold after every bound; returns how many were checked.
fn check(world: &mut World, failures: &mut Vec<String>) -> u64 {
    let mut n = 0;
    let bound = world.resource::<Battle>().clock.bound();
    for f in &world.resource::<InvariantFailures>().0 {
        failures.push(format!("invariant failure: {f}"));
    }
    n += 1;
    let els = elements(world);
    for f in &els {
        n += 2;
        if f.men() > f.force.men_start {
            failures.push(format!(
                "bound {bound}: {} has {} men, more than its {} at the start",
                f.id(),
                f.men(),
                f.force.men_start
            ));
        }
        if f.force.element.cms > MAX_CMS {
            failures.push(format!("bound {bound}: {} has a CMS of {}", f.id(), f.force.element.cms));
        }
    }
    let mut q = world.query::<FieldedReadOnly>();
    let views: Vec<ElementView> = q.iter(world).map(|f| f.view()).collect();
    let sides = world.resource::<Sides>();
    for (s, side) in sides.0.iter().enumerate() {
        n += 2;
        let counted: u32 = els
            .iter()
            .filter(|f| f.identity.side == s && f.presence.status.in_play() && f.force.transport().is_none())
            .map(|f| u32::from(f.force.element.cms))
            .sum();
        let cmt = outcome::cmt(views.iter().copied(), s);
        if cmt != counted {
            failures
                .push(format!("bound {bound}: {} has a CMT of {cmt}, its CMS on the table is {counted}", side.name));
        }
        let all: u32 = els.iter().filter(|f| f.identity.side == s).map(|_| u32::from(MAX_CMS)).sum();
        if cmt > all {
            failures.push(format!("bound {bound}: {} has a CMT of {cmt}, above {all}", side.name));
        }
    }
    n
}

/// Every element's fate in the result, as it stands on the table.
fn check_fates(world: &mut World, result: &BattleResult, failures: &mut Vec<String>) -> u64 {
    let els = elements(world);
    if result.elements.len() != els.len() {
        failures.push(format!("{} elements, {} fates in the result", els.len(), result.elements.len()));
    }
    for f in &els {
        let Some(r) = result.elements.iter().find(|r| r.id == f.id()) else {
            failures.push(format!("{} has no fate in the result", f.id()));
            continue;
        };
        let agrees = match r.fate {
            Fate::OnTable => f.presence.status.in_play(),
            Fate::InBox => matches!(f.presence.status, Status::Waiting(_)),
            Fate::Reserve => f.presence.status == Status::Reserve,
            Fate::Retired => matches!(f.presence.status, Status::Retired | Status::OutOfBattle),
            Fate::Surrendered => f.presence.status == Status::Surrendered,
            Fate::Destroyed => f.presence.status == Status::Destroyed,
        };
        if !agrees || r.men != f.men() || r.men_start != f.force.men_start {
            failures.push(format!(
                "{}: result says {:?} with {} men, the table {:?} with {}",
                f.id(),
                r.fate,
                r.men,
                f.presence.status,
                f.men()
            ));
        }
    }
    els.len() as u64
}
