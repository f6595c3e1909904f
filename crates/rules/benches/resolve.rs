//! Resolution speed: 1,000,000 observation tests and 1,000,000 volleys over
//! open sights, each with its dice from the seeded stream. Goal: under 1 µs
//! each. Run with `cargo bench -p warbound_rules` (no Bevy is compiled).

use std::{hint::black_box, time::Instant};

use warbound_rules::{
    dice::Dice,
    firing::{Cover, FireTarget, OpenSightsFire, Weapon, fire_open_sights},
    observation::{Between, ObservationTest, ObserverClass, ObserverState, TargetClass, TargetState, observe},
};

const N: u32 = 1_000_000;

fn main() {
    let observers = [(ObserverClass::Figure, 4u16)];
    let targets = [(TargetClass::LightReconnaissanceCar, 1u16)];
    let mut dice = Dice::new(1944);
    let mut seen = 0u32;
    let start = Instant::now();
    for i in 0..N {
        let test = ObservationTest {
            observers: &observers,
            targets: &targets,
            between: Between {
                distance: warbound_rules::inches::Inches(4.0 + (i % 50) as f32),
                obstacles: (i % 3) as u8,
                ..Between::default()
            },
            observer: ObserverState::default(),
            target: TargetState::default(),
            night: false,
        };
        let outcome = observe(black_box(&test), &mut dice).expect("valid test");
        seen += u32::from(black_box(outcome.seen));
    }
    report("observation tests", start, seen);

    let mut hits = 0u32;
    let start = Instant::now();
    for i in 0..N {
        let fire = OpenSightsFire {
            weapon: if i % 4 == 0 { Weapon::Mmg } else { Weapon::Rifle },
            weapons: 1 + (i % 8) as u8,
            distance: warbound_rules::inches::Inches(2.0 + (i % 30) as f32),
            target: FireTarget::Infantry,
            cover: if i % 2 == 0 { Cover::Soft } else { Cover::Open },
            ..OpenSightsFire::default()
        };
        let volley = fire_open_sights(black_box(&fire), &mut dice).expect("valid fire");
        hits += u32::from(black_box(volley.hits));
    }
    report("fire resolutions", start, hits);
}

fn report(what: &str, start: Instant, tally: u32) {
    let elapsed = start.elapsed();
    let per = elapsed.as_nanos() as f64 / f64::from(N);
    println!("{N} {what}: {:.3} s, {per:.0} ns each (tally {tally})", elapsed.as_secs_f64());
}
