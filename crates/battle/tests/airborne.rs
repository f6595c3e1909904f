//! The airborne night drop shipped as `merville` (*Heroes All*, "Paratroops",
//! "Gliders" and "Night fighting"): every platoon jumps onto its 12" landing
//! grid in the first bound and throws for its cohesion, the gliders come down
//! inside the wire, nobody acts before the bound after he lands, and the night
//! rules hold until daylight whatever the moon.

use std::sync::Arc;

use warbound_battle::{
    log::{BattleLog, Entry},
    play,
    setup::BattleStart,
    shipped,
};
use warbound_rules::{
    codex::Codex,
    event::EventKind,
    scenario::{Scenario, Start},
};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

fn merville() -> Scenario {
    shipped::battle("merville", &codex()).unwrap_or_else(|e| panic!("{e}"))
}

fn played(scenario: &Scenario, seed: u64) -> Vec<Entry> {
    let start = BattleStart::auto("merville", scenario.clone(), seed);
    let (app, _) = play::autoplay(start, BattleLog::default(), codex()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    app.world().resource::<BattleLog>().entries.clone()
}

fn of<'a>(log: &'a [Entry], id: &str, section: &str) -> impl Iterator<Item = &'a Entry> {
    let id = id.to_owned();
    let section = section.to_owned();
    log.iter().filter(move |e| e.event.actor.as_deref() == Some(id.as_str()) && e.event.rule.section == section)
}

#[test]
fn the_drop_lands_each_platoon_on_its_grid_and_the_gliders_inside_the_wire() {
    let scenario = merville();
    let starts: Vec<(String, Start)> = scenario
        .sides
        .iter()
        .flat_map(|s| s.companies.iter().flat_map(|c| c.elements.iter()))
        .map(|e| (e.id.clone(), e.start))
        .collect();
    let dropped: Vec<_> = starts.iter().filter(|(_, s)| matches!(s, Start::Drop(..))).collect();
    let gliders: Vec<_> = starts.iter().filter(|(_, s)| matches!(s, Start::Glider(..))).collect();
    assert!(dropped.len() >= 8 && gliders.len() == 2, "{starts:?}");
    let (mut landed, mut off_course, mut without_cohesion) = (0, 0, 0);
    for seed in 0..6 {
        let log = played(&scenario, seed);
        for (id, start) in &dropped {
            let Start::Drop(bound, x, y) = *start else { unreachable!() };
            // The landing throw is made in the bound of the jump.
            let throw = of(&log, id, "Paratroops - Landing process")
                .find(|e| e.event.kind == EventKind::Landing)
                .unwrap_or_else(|| panic!("seed {seed}: {id} made no landing throw"));
            assert_eq!(throw.bound, bound, "seed {seed}: {id}");
            let Some(arrived) =
                of(&log, id, "Paratroops - Landing process").find(|e| e.event.kind == EventKind::Arrival)
            else {
                off_course += 1;
                continue;
            };
            landed += 1;
            let at = arrived.event.inputs.iter().find(|i| i.name == "at").expect("where it landed");
            let (ax, ay): (f32, f32) = serde_json::from_value(at.value.clone()).unwrap();
            // A square of the 12" grid centred on the drop point.
            assert!((ax - x).abs() <= 6.0 && (ay - y).abs() <= 6.0, "seed {seed}: {id} landed at ({ax}, {ay})");
            let from = arrived.event.inputs.iter().find(|i| i.name == "effective_from").unwrap();
            assert_eq!(from.value, serde_json::json!(bound + 1), "seed {seed}: {id} acts from the next bound");
            // It neither moves nor fires in the bound it lands.
            assert!(
                !log.iter().any(|e| e.bound == bound
                    && e.event.actor.as_deref() == Some(id.as_str())
                    && matches!(e.event.kind, EventKind::Movement | EventKind::Fire)),
                "seed {seed}: {id} acted in the bound it landed"
            );
            let test = of(&log, id, "Paratroops - Landing process")
                .find(|e| !matches!(e.event.kind, EventKind::Arrival | EventKind::Landing))
                .unwrap_or_else(|| panic!("seed {seed}: {id} took no cohesion test"));
            without_cohesion += usize::from(test.event.outcome.get("passed") == Some(&serde_json::json!(false)));
        }
        for (id, start) in &gliders {
            let Start::Glider(bound, ..) = *start else { unreachable!() };
            let landing = of(&log, id, "Gliders - Landing process").next();
            assert_eq!(landing.map(|e| e.bound), Some(bound), "seed {seed}: {id} glider landing");
        }
    }
    eprintln!("landed {landed}, blown off course {off_course}, without cohesion {without_cohesion}");
    assert!(landed > 0 && landed + off_course == 6 * dropped.len(), "{landed} + {off_course}");
}

#[test]
fn a_moonlit_drop_is_fought_under_the_night_rules_until_daylight() {
    // Reading: Heroes All gives moonlight no effect, so the full moon of 6 June
    // 1944 changes nothing on the table; the night rules run from the jump at
    // midnight until daylight at 04.00 (Summer): bounds 1 to 4.
    let scenario = merville();
    let log = played(&scenario, 3);
    let light = |bound: u32| {
        log.iter()
            .find(|e| e.bound == bound && e.event.kind == EventKind::Bound)
            .and_then(|e| e.event.inputs.iter().find(|i| i.name == "light"))
            .map(|i| i.value.clone())
            .unwrap_or_else(|| panic!("bound {bound} has no light"))
    };
    assert_eq!(scenario.start_hour, 0);
    for bound in 1..=4 {
        assert_eq!(light(bound), serde_json::json!("Night"), "bound {bound}");
    }
    assert_eq!(light(5), serde_json::json!("Daylight"));
    // The paratroops' moves in the dark are halved, and by daylight they are not.
    let british: Vec<&str> =
        scenario.sides[0].companies.iter().flat_map(|c| c.elements.iter()).map(|e| e.id.as_str()).collect();
    let british = &british;
    let moves = |night: bool| {
        log.iter().filter(move |e| {
            e.event.kind == EventKind::Movement
                && e.event.actor.as_deref().is_some_and(|a| british.contains(&a))
                && e.event.inputs.iter().any(|i| i.name == "night") == night
                && e.event.inputs.iter().any(|i| i.name == "score" || i.name == "dice")
        })
    };
    assert!(moves(true).all(|e| e.bound <= 4), "no night move after daylight");
    assert!(moves(true).count() > 0, "the paratroops moved in the dark");
}
