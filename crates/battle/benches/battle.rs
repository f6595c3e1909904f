//! How long a whole battle takes headless: `cargo bench -p warbound_battle --bench battle`.
//!
//! Builds a battle of at least 60 elements from the shipped village
//! scenario (each side's companies repeated across a wider table), plays it
//! with both sides Auto for up to 24 bounds on several seeds, and prints the
//! time per battle, per bound and per update, and where the time goes.

use std::time::{Duration, Instant};

use warbound_battle::{log::BattleLog, play, setup::BattleStart, shipped};
use warbound_rules::{
    codex::Codex,
    scenario::{Scenario, Start},
};

const COPIES: usize = 5;
const BOUNDS: u32 = 24;
const SEEDS: u64 = 10;

/// The village battle with every company repeated `COPIES` times, side by
/// side, on a table `COPIES` times as wide; the battle lasts 24 bounds.
fn big_battle(codex: &Codex) -> Scenario {
    let mut s = shipped::battle("village", codex).expect("shipped village");
    let width = s.table.width;
    s.table.width = (width * COPIES as f32).min(warbound_rules::scenario::MAX_TABLE_SIDE);
    let step = s.table.width / COPIES as f32;
    s.time_limit = BOUNDS;
    for side in &mut s.sides {
        let base = side.companies.clone();
        side.companies.clear();
        for k in 0..COPIES {
            for c in &base {
                let mut c = c.clone();
                c.id = format!("{}_{k}", c.id);
                c.attached_to = format!("{}_{k}", c.attached_to);
                for e in &mut c.elements {
                    e.id = format!("{}_{k}", e.id);
                    if let Start::At(x, y) = e.start {
                        e.start = Start::At(x / width * step + step * k as f32, y);
                    }
                    if let Some(o) = &mut e.order
                        && !o.detail.is_empty()
                        && base.iter().flat_map(|b| &b.elements).any(|b| b.id == o.detail)
                    {
                        o.detail = format!("{}_{k}", o.detail);
                    }
                    e.concealed = None;
                }
                side.companies.push(c);
            }
        }
        side.foos.clear();
        side.artillery.clear();
        side.victory.retain(|g| !matches!(g, warbound_rules::scenario::Goal::Destroy(_)));
    }
    s.validate_against(codex).expect("the bench battle is valid");
    s
}

fn main() {
    let codex = shipped::codex().expect("the shipped CODEX");
    let scenario = big_battle(&codex);
    let elements: usize = scenario.sides.iter().map(|s| s.elements().count()).sum();
    println!("bench battle: {elements} elements, up to {BOUNDS} bounds, {SEEDS} seeds");
    let mut total = Duration::ZERO;
    let mut bounds = 0;
    let mut events = 0;
    let mut slowest = Duration::ZERO;
    for seed in 0..SEEDS {
        let start = BattleStart::auto("bench", scenario.clone(), seed);
        let t0 = Instant::now();
        let (app, result) = play::autoplay(start, BattleLog::default(), codex.clone()).expect("the battle plays");
        let took = t0.elapsed();
        total += took;
        slowest = slowest.max(took);
        bounds += result.bounds_played;
        events += app.world().resource::<BattleLog>().entries.len();
        println!(
            "  seed {seed}: {:>3} bounds, {:?}, {:>6} events, {:.1} ms",
            result.bounds_played,
            result.decided_by,
            app.world().resource::<BattleLog>().entries.len(),
            took.as_secs_f64() * 1e3
        );
    }
    let per_bound = total.as_secs_f64() / f64::from(bounds);
    println!(
        "mean {:.1} ms a battle (slowest {:.1} ms); {:.2} ms a bound; {:.1} µs a rule event",
        total.as_secs_f64() * 1e3 / SEEDS as f64,
        slowest.as_secs_f64() * 1e3,
        per_bound * 1e3,
        total.as_secs_f64() * 1e6 / events as f64
    );
    println!(
        "a full {BOUNDS}-bound battle at this rate: {:.0} ms (goal under 500 ms)",
        per_bound * f64::from(BOUNDS) * 1e3
    );

    // The same forces on Overwatch where they stand (watching, never firing,
    // the aircraft kept off): the battle runs its whole 24 bounds of cards,
    // ORTs, Order Dice and observation.
    let mut holding = scenario.clone();
    for side in &mut holding.sides {
        side.aircraft.clear();
        for c in &mut side.companies {
            let hold = |o: &mut warbound_rules::scenario::Order| {
                o.activity = warbound_rules::command::Activity::Overwatch;
                o.detail.clear();
            };
            c.objective.iter_mut().for_each(hold);
            c.elements.iter_mut().filter_map(|e| e.order.as_mut()).for_each(hold);
        }
    }
    let t0 = Instant::now();
    let (app, result) =
        play::autoplay(BattleStart::auto("bench-hold", holding, 0), BattleLog::default(), codex.clone())
            .expect("the battle plays");
    let took = t0.elapsed();
    println!(
        "overwatch stand-off: {} bounds ({:?}), {} events, {:.1} ms",
        result.bounds_played,
        result.decided_by,
        app.world().resource::<BattleLog>().entries.len(),
        took.as_secs_f64() * 1e3
    );
}
