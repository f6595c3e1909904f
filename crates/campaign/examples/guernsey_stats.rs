//! Plays the shipped Guernsey campaign headless over seeds 1..=N, as
//! `warbound --headless --campaign guernsey-1942` does, and prints what
//! decides it: wins per side, paper battles fought, how often each side's
//! attackers were detected at their first Combat Results Table throw, how
//! the campaigns ended,
//! the defenders' detection throws in battle (33.5, 33.7.1 (ii)), and the
//! daily supply throws by the letters of their line (20.3).
//!
//! `cargo run --release -p warbound_campaign --example guernsey_stats -- --seeds 20`

use std::collections::{BTreeMap, BTreeSet};
use std::process::ExitCode;

use warbound_campaign::map::common::Side;
use warbound_campaign::play::{Campaign, CampaignFile};
use warbound_rules::event::RuleEvent;

const GUERNSEY: &str = include_str!("../../../scenarios/campaigns/guernsey-1942.ron");

/// Counts for one side over every seed.
#[derive(Default)]
struct Tally {
    wins: u32,
    battles_attacking: u32,
    attackers_detected: u32,
    defenders_detected: u32,
    defender_throws: u32,
    defender_throws_seen: u32,
    occupier_throws: u32,
    supply: BTreeMap<String, u32>,
}

fn input<'a>(e: &'a RuleEvent, name: &str) -> Option<&'a serde_json::Value> {
    e.inputs.iter().find(|i| i.name == name).map(|i| &i.value)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seeds = match args.as_slice() {
        [] => 20,
        [flag, n] if flag == "--seeds" => match n.parse::<u64>() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("guernsey_stats: --seeds wants a whole number above 0, not {n:?}");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("usage: guernsey_stats [--seeds N]");
            return ExitCode::from(2);
        }
    };
    let file = match CampaignFile::load("guernsey-1942.ron", GUERNSEY) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("guernsey_stats: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut tally: BTreeMap<Side, Tally> = BTreeMap::new();
    let (mut draws, mut undecided, mut battles, mut days) = (0, 0, 0usize, 0u32);
    let mut names = BTreeMap::new();
    let mut endings: BTreeMap<String, u32> = BTreeMap::new();
    for seed in 1..=seeds {
        let mut c = match Campaign::new("guernsey-1942", file.clone(), seed) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("guernsey_stats: seed {seed}: {e}");
                return ExitCode::FAILURE;
            }
        };
        for a in &c.armies {
            names.insert(a.side, a.name.clone());
        }
        // Contacts whose first CRT throw is still to come, and every contact made.
        let mut awaiting: BTreeSet<(String, String)> = BTreeSet::new();
        let mut contacts: BTreeSet<(String, String)> = BTreeSet::new();
        let days_allowed = c.file.days;
        for _ in 0..days_allowed {
            if c.ended.is_some() {
                break;
            }
            c.play_day();
            let side_of = |c: &Campaign, n: &str| c.force(n).map(|f| f.side);
            for e in c.drain_events() {
                let (Some(actor), target) = (e.actor.clone(), e.target.clone().unwrap_or_default()) else { continue };
                let Some(side) = side_of(&c, &actor) else { continue };
                let t = tally.entry(side).or_default();
                match e.rule.section.as_str() {
                    "33.7 Contact Session" => {
                        awaiting.insert((actor.clone(), target.clone()));
                        contacts.insert((actor, target));
                    }
                    "33.7.2 (v) Combat Results Table" if awaiting.remove(&(actor.clone(), target.clone())) => {
                        let shifted =
                            |why: &str| e.inputs.iter().any(|i| i.name == "shift" && i.reason.starts_with(why));
                        t.battles_attacking += 1;
                        t.attackers_detected += u32::from(!shifted("undetected attackers"));
                        t.defenders_detected += u32::from(!shifted("undetected defenders"));
                    }
                    s if s.starts_with("16.4") => {
                        t.occupier_throws += 1;
                        if contacts.contains(&(target.clone(), actor.clone())) {
                            t.defender_throws += 1;
                            t.defender_throws_seen += u32::from(e.outcome.get("detected") == Some(&true.into()));
                        }
                    }
                    "20 Logistics" if input(&e, "record").is_some() => {
                        let record = input(&e, "record").and_then(|v| v.as_str()).unwrap_or_default();
                        let mut letters: String = record.chars().filter(|c| c.is_ascii_alphabetic()).collect();
                        if let Some(why) = input(&e, "treated_as_direct").and_then(|v| v.as_str()) {
                            letters = format!("{letters} (Direct: {why})");
                        }
                        *t.supply.entry(letters).or_default() += 1;
                    }
                    _ => {}
                }
            }
        }
        battles += c.fought.len();
        days += c.day;
        if let Some(end) = &c.ended {
            let why = if end.reason.contains("withdraws") {
                format!("{} (Strategic Morale 0)", end.reason.split(" withdraws").next().unwrap_or_default())
            } else if end.reason.contains("no battlegroups") {
                end.reason.clone()
            } else {
                // "the campaign's last day is over: objectives held Blue a/b, Red c/d"
                end.reason.split(": ").nth(1).map_or(end.reason.clone(), |h| format!("last day, {h}"))
            };
            *endings.entry(why).or_insert(0u32) += 1;
        }
        match c.ended.as_ref().map(|e| e.winner) {
            Some(Some(w)) => tally.entry(w).or_default().wins += 1,
            Some(None) => draws += 1,
            None => undecided += 1,
        }
    }
    println!("Guernsey 1942 over seeds 1..={seeds}: {days} campaign days, {battles} paper battles fought");
    println!("draws {draws}, undecided {undecided}");
    for (why, n) in &endings {
        println!("  ended {n:>3}x: {why}");
    }
    for (side, t) in &tally {
        let name = names.get(side).cloned().unwrap_or_default();
        println!("\n{side:?} ({name})");
        println!("  wins: {}", t.wins);
        println!(
            "  battles as attacker (first CRT throw): {}; its attackers detected by the defenders in {}; the defenders detected by them in {}",
            t.battles_attacking, t.attackers_detected, t.defenders_detected
        );
        println!(
            "  occupiers' detection throws (16.4): {}; as defender against its attacker: {} ({} detected)",
            t.occupier_throws, t.defender_throws, t.defender_throws_seen
        );
        let total: u32 = t.supply.values().sum();
        println!("  daily supply throws: {total}");
        for (letters, n) in &t.supply {
            println!("    {letters:<28} {n:>5} ({:.0}%)", f64::from(*n) * 100.0 / f64::from(total.max(1)));
        }
    }
    ExitCode::SUCCESS
}
