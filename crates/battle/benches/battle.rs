//! How long whole battles take headless: `cargo bench -p warbound_battle --bench battle`.
//!
//! - The largest shipped battle (the one with most elements), both sides
//!   Auto, played to its end or 24 bounds on 10 seeds: goal under 100 ms
//!   mean.
//! - A brigade attack of at least 300 elements generated from it: its
//!   forces repeated side by side across the widest table the format allows,
//!   each copy with its own supporting guns and aircraft, played the same
//!   way: goal under 500 ms.
//! - The brigade on Overwatch where it stands (watching, never firing, the
//!   aircraft kept off), for the cost of 24 bounds of cards, ORTs, Order
//!   Dice and observation alone.
//!
//! Each battle is played 3 times and its fastest time kept, so that another
//! program's load on the machine does not count. A name after `--`
//! (`largest`, `brigade`, `overwatch`) runs that one alone.
//!
//! Each line prints the time per battle, per bound and per rule event, and
//! any invariant failure: a bound deals at most 255 Order Priority Cards (one
//! die a card in the shuffle), so a battle with more card holders than that
//! is refused its deal and the bench says so.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use warbound_battle::{invariant::InvariantFailures, log::BattleLog, play, setup::BattleStart, shipped};
use warbound_rules::{
    codex::Codex,
    command::Activity,
    scenario::{CompanySpec, Goal, MAX_TABLE_SIDE, Order, Scenario, Start},
};

const BRIGADE: usize = 300;
const BOUNDS: u32 = 24;
const SEEDS: u64 = 10;
/// Plays of each battle, the fastest kept.
const TRIES: usize = 3;

fn elements(s: &Scenario) -> usize {
    s.sides.iter().map(|side| side.elements().count()).sum()
}

/// The shipped battle with the most elements, lasting at most 24 bounds.
fn largest(codex: &Codex) -> (String, Scenario) {
    let (name, mut s) = shipped::battles(codex)
        .expect("the shipped battles")
        .into_iter()
        .max_by_key(|(_, s)| elements(s))
        .expect("a shipped battle");
    s.time_limit = s.time_limit.min(BOUNDS);
    (name, s)
}

/// `base` repeated side by side until it has at least 300 elements, on a
/// table as wide as the format allows; each copy's ids carry its number.
fn brigade(base: &Scenario, codex: &Codex) -> Scenario {
    let copies = BRIGADE.div_ceil(elements(base));
    let mut s = base.clone();
    let width = s.table.width;
    s.table.width = (width * copies as f32).min(MAX_TABLE_SIDE);
    let step = s.table.width / copies as f32;
    s.time_limit = BOUNDS;
    let x = |x: f32, k: usize| x / width * step + step * k as f32;
    for side in &mut s.sides {
        // Ids an order's detail may name: companies and elements.
        let named: BTreeSet<String> = side
            .companies
            .iter()
            .flat_map(|c| std::iter::once(c.id.clone()).chain(c.elements.iter().map(|e| e.id.clone())))
            .collect();
        let renamed = |id: &str, k: usize| format!("{id}_{k}");
        let detail = |o: &mut Order, k: usize| {
            if named.contains(&o.detail) {
                o.detail = renamed(&o.detail, k);
            }
        };
        let (companies, foos, batteries, aircraft) =
            (side.companies.clone(), side.foos.clone(), side.artillery.clone(), side.aircraft.clone());
        side.companies.clear();
        side.foos.clear();
        side.artillery.clear();
        side.aircraft.clear();
        for k in 0..copies {
            for c in &companies {
                let mut c = c.clone();
                c.id = renamed(&c.id, k);
                c.attached_to = renamed(&c.attached_to, k);
                if let Some(o) = &mut c.objective {
                    detail(o, k);
                }
                for e in &mut c.elements {
                    e.id = renamed(&e.id, k);
                    if let Some(t) = &mut e.aboard {
                        *t = renamed(t, k);
                    }
                    if let Start::At(ex, ey) = e.start {
                        e.start = Start::At(x(ex, k), ey);
                    }
                    if let Some(o) = &mut e.order {
                        detail(o, k);
                    }
                    e.concealed = None;
                }
                side.companies.push(c);
            }
            side.foos.extend(foos.iter().cloned().map(|mut f| {
                f.id = renamed(&f.id, k);
                f.attached_to = renamed(&f.attached_to, k);
                f
            }));
            side.artillery.extend(batteries.iter().cloned().map(|mut b| {
                b.id = renamed(&b.id, k);
                b.foo = renamed(&b.foo, k);
                b
            }));
            side.aircraft.extend(aircraft.iter().cloned().map(|mut a| {
                a.id = renamed(&a.id, k);
                a
            }));
        }
        side.charges.clear();
        side.landing = None;
        side.bridging.clear();
        side.victory.retain(|g| !matches!(g, Goal::Destroy(_)));
    }
    s.validate_against(codex).expect("the brigade battle is valid");
    s
}

/// Plays `scenario` on `SEEDS` seeds and prints each and the mean against `goal_ms`.
fn bench(label: &str, scenario: &Scenario, codex: &std::sync::Arc<Codex>, goal_ms: f64) {
    println!("{label}: {} elements, up to {} bounds, {SEEDS} seeds", elements(scenario), scenario.time_limit);
    let mut total = Duration::ZERO;
    let mut bounds = 0;
    let mut events = 0;
    let mut slowest = Duration::ZERO;
    for seed in 0..SEEDS {
        let (mut took, mut played) = (Duration::MAX, None);
        for _ in 0..TRIES {
            let start = BattleStart::auto("bench", scenario.clone(), seed);
            let t0 = Instant::now();
            let (app, result) = play::autoplay(start, BattleLog::default(), codex.clone()).expect("the battle plays");
            took = took.min(t0.elapsed());
            played = Some((app, result));
        }
        let (app, result) = played.expect("the battle was played");
        total += took;
        slowest = slowest.max(took);
        bounds += result.bounds_played;
        let n = app.world().resource::<BattleLog>().entries.len();
        let failures = &app.world().resource::<InvariantFailures>().0;
        if let Some(first) = failures.first() {
            println!("  seed {seed}: {} invariant failures, the first: {first:?}", failures.len());
        }
        events += n;
        println!(
            "  seed {seed}: {:>3} bounds, {:?}, {n:>6} events, {:.1} ms",
            result.bounds_played,
            result.decided_by,
            took.as_secs_f64() * 1e3
        );
    }
    let mean = total.as_secs_f64() * 1e3 / SEEDS as f64;
    println!(
        "  mean {mean:.1} ms a battle (goal under {goal_ms:.0} ms; slowest {:.1} ms); {:.2} ms a bound; {:.1} µs a rule event",
        slowest.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3 / f64::from(bounds),
        total.as_secs_f64() * 1e6 / events as f64
    );
}

fn main() {
    let only: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let runs = |label: &str| only.as_deref().is_none_or(|o| o == label);
    let codex = shipped::codex().expect("the shipped CODEX");
    let (name, largest) = largest(&codex);
    if runs("largest") {
        bench(&format!("largest shipped battle ({name})"), &largest, &codex, 100.0);
    }
    let brigade = brigade(&largest, &codex);
    if runs("brigade") {
        bench(&format!("brigade attack ({name} side by side)"), &brigade, &codex, 500.0);
    }
    if !runs("overwatch") {
        return;
    }

    let mut holding = brigade.clone();
    for side in &mut holding.sides {
        side.aircraft.clear();
        overwatch(&mut side.companies);
    }
    let (mut took, mut played) = (Duration::MAX, None);
    for _ in 0..TRIES {
        let t0 = Instant::now();
        let (app, result) =
            play::autoplay(BattleStart::auto("bench-hold", holding.clone(), 0), BattleLog::default(), codex.clone())
                .expect("the battle plays");
        took = took.min(t0.elapsed());
        played = Some((app, result));
    }
    let (app, result) = played.expect("the battle was played");
    println!(
        "overwatch stand-off: {} bounds ({:?}), {} events, {:.1} ms",
        result.bounds_played,
        result.decided_by,
        app.world().resource::<BattleLog>().entries.len(),
        took.as_secs_f64() * 1e3
    );
}

/// Every order of `companies` turned to Overwatch where it stands.
fn overwatch(companies: &mut [CompanySpec]) {
    let hold = |o: &mut Order| {
        o.activity = Activity::Overwatch;
        o.detail.clear();
    };
    for c in companies.iter_mut() {
        c.objective.iter_mut().for_each(hold);
        c.elements.iter_mut().filter_map(|e| e.order.as_mut()).for_each(hold);
    }
}
