//! The opposed river crossing shipped as `vernon` (*Heroes All*, "Boats":
//! river craft; "Rivers"; "Forces acting whilst rationed"): the platoons
//! get into their assault boats at the water's edge with an Act, paddle on
//! the raft row, and get out at the far bank as part of the move that takes
//! them there; men without boats stop at a wide river; the rationed
//! defenders' lorry throws for its petrol.

use std::sync::Arc;

use warbound_battle::{
    log::{BattleLog, Entry},
    play,
    setup::BattleStart,
    shipped,
};
use warbound_rules::{codex::Codex, event::EventKind, scenario::Scenario};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

fn played(name: &str, scenario: &Scenario, seed: u64) -> Vec<Entry> {
    let start = BattleStart::auto(name, scenario.clone(), seed);
    let (app, _) = play::autoplay(start, BattleLog::default(), codex()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    app.world().resource::<BattleLog>().entries.clone()
}

fn input<'a>(e: &'a Entry, name: &str) -> Option<&'a serde_json::Value> {
    e.event.inputs.iter().find(|i| i.name == name).map(|i| &i.value)
}

fn at_y(e: &Entry) -> f64 {
    e.event.outcome["at"][1].as_f64().expect("a boats event says where")
}

/// The Seine at Vernon runs from y 25 to y 31.
const NEAR_BANK: f64 = 25.0;
const FAR_BANK: f64 = 31.0;

#[test]
fn assault_boats_launch_on_an_act_paddle_on_the_raft_row_and_land_as_part_of_the_move() {
    let scenario = shipped::battle("vernon", &codex()).unwrap_or_else(|e| panic!("{e}"));
    let (mut launched, mut landed) = (0, 0);
    for seed in 0..6 {
        let log = played("vernon", &scenario, seed);
        let with_boats: Vec<&str> = scenario
            .sides
            .iter()
            .flat_map(|s| s.elements())
            .filter(|e| e.boats.is_some())
            .map(|e| e.id.as_str())
            .collect();
        for id in with_boats {
            let mine: Vec<&Entry> = log.iter().filter(|e| e.event.actor.as_deref() == Some(id)).collect();
            let mut afloat = false;
            for (k, e) in mine.iter().enumerate() {
                match e.event.rule.section.as_str() {
                    "Boats" if e.event.outcome["afloat"] == true => {
                        launched += 1;
                        assert!(!afloat, "seed {seed}: {id} launched twice");
                        assert_eq!(input(e, "act").unwrap(), "EmbarkOrDisembark", "seed {seed}: an Act");
                        let asked = &mine[k - 1];
                        assert!(
                            asked.event.kind == EventKind::Command
                                && asked.event.inputs[0].value.get("launch").is_some(),
                            "seed {seed}: {id} launched without the command"
                        );
                        let y = at_y(e);
                        assert!((NEAR_BANK..NEAR_BANK + 0.5).contains(&y), "seed {seed}: {id} launched at y {y}");
                        afloat = true;
                    }
                    "Boats" => {
                        assert!(afloat, "seed {seed}: {id} landed without launching");
                        assert_eq!(input(e, "phase").unwrap(), "Move", "seed {seed}: getting out is part of the move");
                        // Its move this bound brought it there (an ambush halt or
                        // a building may be logged in between).
                        let moved = mine[..k].iter().rev().take_while(|m| m.event.rule.section != "Boats");
                        assert!(
                            moved.filter(|m| m.bound == e.bound).any(|m| m.event.rule.section == "Movement"),
                            "seed {seed}: {id} landed with no move before it"
                        );
                        let y = at_y(e);
                        assert!(
                            !(NEAR_BANK..=FAR_BANK).contains(&y),
                            "seed {seed}: {id} got out in the river at y {y}"
                        );
                        landed += usize::from(y > FAR_BANK);
                        afloat = false;
                    }
                    "Movement" if e.event.kind == EventKind::Movement && afloat => {
                        assert_eq!(input(e, "row").unwrap(), "Raft", "seed {seed}: {id} paddles on the raft row");
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(launched >= 30, "only {launched} launches in 6 battles");
    assert!(landed >= 5, "only {landed} landings on the far bank in 6 battles");
}

/// Riflemen ordered across a wide river, one section with a boat and one
/// without.
fn seine() -> Scenario {
    let text = r#"(
    name: "Seine", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    terrain: (features: [River(kind: wide, line: [(0, 20), (72, 20)], width: 6)]),
    places: [(name: "the far bank", at: (36, 34)), (name: "the farm", at: (60, 44))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a", officer: Regular, attached_to: "boat", objective: (activity: Reposition, location: "the far bank"),
            elements: [
                (id: "boat", nco: Inspirational, figures: [(men: 8, weapon: "gb_no4_rifle")],
                 boats: (craft: assault_boat, count: 1), start: at(30, 14)),
                (id: "waders", nco: Inspirational, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(42, 14)),
            ])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 4, weapon: "de_kar98k")], start: at(66, 46))])]),
    ],
)"#;
    Scenario::load("seine.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn men_on_foot_stop_at_a_wide_river_and_cross_it_only_in_boats() {
    let scenario = seine();
    let mut crossed = 0;
    for seed in 0..6 {
        let start = BattleStart::auto("seine", scenario.clone(), seed);
        let (app, _) = play::autoplay(start, BattleLog::default(), codex()).unwrap_or_else(|e| panic!("{e}"));
        let log = app.world().resource::<BattleLog>().entries.clone();
        fn of<'a>(log: &'a [Entry], id: &'a str) -> impl Iterator<Item = &'a Entry> {
            log.iter().filter(move |e| e.event.actor.as_deref() == Some(id))
        }
        assert!(
            of(&log, "waders").all(|e| e.event.rule.section != "Rivers"),
            "seed {seed}: men on foot waded into a wide river"
        );
        let waders = warbound_battle::state::elements(app.world()).into_iter().find(|f| f.force.id() == "waders");
        let y = waders.expect("the waders are an element").place.at.1;
        assert!(y <= 17.0 + 1e-3, "seed {seed}: the waders ended at y {y}, past the river's near bank at 17");
        crossed += usize::from(of(&log, "boat").any(|e| e.event.rule.section == "Boats" && at_y(e) > 23.0));
    }
    assert!(crossed >= 3, "the boat crossed in only {crossed} of 6 battles");
}

#[test]
fn the_rationed_defenders_lorry_throws_for_its_petrol_when_it_moves() {
    let scenario = shipped::battle("vernon", &codex()).unwrap_or_else(|e| panic!("{e}"));
    assert!(scenario.sides[1].rationed && !scenario.sides[0].rationed);
    let mut throws = 0;
    for seed in 0..6 {
        let log = played("vernon", &scenario, seed);
        for e in log.iter().filter(|e| e.event.rule.section == "Forces acting whilst rationed") {
            assert_eq!(
                e.event.actor.as_deref(),
                Some("lkw"),
                "seed {seed}: only the German lorry has petrol to run out of"
            );
            let score: u64 = e.event.dice.iter().map(|d| u64::from(d.face)).sum();
            assert_eq!(e.event.dice.len(), 2, "seed {seed}: 2d6 after the move");
            assert_eq!(
                e.event.outcome["fuel"] == "out_of_fuel",
                score < 5,
                "seed {seed}: less than 5 runs it dry ({score})"
            );
            throws += 1;
        }
    }
    assert!(throws >= 2, "the lorry threw for its petrol {throws} times in 6 battles");
}

/// A player's crossing: he launches the boat from the Orders window,
/// declares each move across, and stops where the dice allow; the men get
/// out where the boat reaches the far bank.
#[test]
fn a_players_boats_land_his_men_on_the_far_bank() {
    use warbound_battle::{
        command::{Command, Pace},
        options::{Decision, decision},
        setup::Control,
        state::Battle,
    };
    let scenario = seine();
    let mut landed = 0;
    for seed in 0..3 {
        let mut start = BattleStart::auto("seine", scenario.clone(), seed);
        start.control = vec![Control::Player, Control::Auto];
        let mut app = play::battle_app(start, BattleLog::default(), codex()).unwrap();
        play::advance(&mut app).unwrap();
        for _ in 0..4000 {
            if play::is_over(app.world()) || app.world().resource::<Battle>().clock.bound() > 8 {
                break;
            }
            let cmd = match decision(app.world_mut()) {
                Some(Decision::Act { element, pending: Some(p), .. }) => {
                    let els = warbound_battle::state::elements(app.world());
                    let at = els.iter().find(|f| f.force.id() == element).unwrap().place.at;
                    let d = ((p.to.0 - at.0).powi(2) + (p.to.1 - at.1).powi(2)).sqrt();
                    let k = if d <= p.allowance { 1.0 } else { (p.allowance - 0.01).max(0.0) / d };
                    Command::MoveTo { element, to: (at.0 + (p.to.0 - at.0) * k, at.1 + (p.to.1 - at.1) * k) }
                }
                Some(Decision::Act { element, offers, move_refused, .. }) => {
                    let launch =
                        offers.iter().find(|o| o.refused.is_none() && matches!(o.command, Command::Launch { .. }));
                    let els = warbound_battle::state::elements(app.world());
                    let me = els.iter().find(|f| f.force.id() == element).unwrap();
                    // Heroes All, "Spotting a potential ambush": it looks before it closes in.
                    let observe =
                        offers.iter().find(|o| o.refused.is_none() && matches!(o.command, Command::Observe { .. }));
                    match launch.or(observe) {
                        Some(o) => o.command.clone(),
                        // A click on the far bank straight ahead: a normal move.
                        None if move_refused.is_none() && me.place.boats.is_some() && me.place.at.1 < 34.0 => {
                            Command::Move { element, to: (me.place.at.0, 34.0), pace: Pace::Normal }
                        }
                        None => Command::EndTurn { element },
                    }
                }
                Some(Decision::CoTurn { command, .. }) => command,
                Some(Decision::Session { keep, .. }) => keep,
                Some(Decision::Seize { command, .. }) => command,
                None => break,
            };
            play::command(&mut app, cmd).unwrap();
        }
        let log = &app.world().resource::<BattleLog>().entries;
        for e in log.iter().filter(|e| e.event.rule.section == "Boats" && e.event.outcome["afloat"] == false) {
            let y = at_y(e);
            assert!(!(17.0..=23.0).contains(&y), "seed {seed}: got out in the river at y {y}");
            landed += usize::from(y > 23.0);
        }
    }
    assert!(landed > 0, "the player's boats never landed on the far bank in 3 battles");
}

#[test]
fn engineers_at_a_damaged_bridge_mend_it_a_point_for_each_six_thrown() {
    // HA "Repairing roads and bridges": "2 engineers working on a road throw a
    // D10 per bound ... 1 point of damage is repaired when they have an
    // accumulated score of 6." "Engineers must not undertake any other
    // action whilst they are working."
    let text = r#"(
    name: "Mending", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    terrain: (features: [River(kind: wide, line: [(0, 22), (72, 22)], width: 5,
              bridges: [(kind: C, span: (from: (36, 18.5), to: (36, 25.5), width: 3))])]),
    places: [(name: "the bridge", at: (36, 17)), (name: "the farm", at: (66, 46))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "re", officer: Regular, attached_to: "sappers",
            objective: (activity: Engineering, location: "the bridge", detail: "mend the bridge"),
            elements: [(id: "sappers", nco: Regular, figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(36, 17))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 4, weapon: "de_kar98k")], start: at(66, 46))])]),
    ],
)"#;
    let scenario = Scenario::load("mending.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let mut mended = 0;
    for seed in 0..6 {
        let start = BattleStart::auto("mending", scenario.clone(), seed);
        let mut app = play::battle_app(start, BattleLog::default(), codex()).unwrap();
        let full = {
            let mut battle = app.world_mut().resource_mut::<warbound_battle::state::Battle>();
            let bridge = &mut battle.bridges[0].bridge;
            let full = bridge.value;
            bridge.value -= 2;
            full
        };
        play::advance(&mut app).unwrap();
        let log = app.world().resource::<BattleLog>().entries.clone();
        let work: Vec<&Entry> = log.iter().filter(|e| e.event.rule.section == "Repairing roads and bridges").collect();
        assert!(!work.is_empty(), "seed {seed}: the sappers never worked on the bridge");
        let mut thrown = 0u64;
        for e in &work {
            assert_eq!(e.event.dice[0].sides, 10, "seed {seed}: engineers throw a D10");
            thrown += u64::from(e.event.dice[0].face);
            let repaired = e.event.outcome["repaired"].as_u64().unwrap();
            let carried = e.event.outcome["carried"].as_u64().unwrap();
            assert_eq!(carried, thrown % 6, "seed {seed}: the rest carries to the next point");
            assert!(repaired == 0 || thrown >= 6, "seed {seed}");
            thrown %= 6;
            // Nothing else in the bound it works.
            let others = log.iter().filter(|o| {
                o.bound == e.bound
                    && o.event.actor.as_deref() == Some("sappers")
                    && o.event.kind == EventKind::Command
                    && !o.event.inputs.iter().any(|i| i.value.get("repair").is_some())
            });
            assert_eq!(others.count(), 0, "seed {seed}: the menders did something else in bound {}", e.bound);
        }
        let value = app.world().resource::<warbound_battle::state::Battle>().bridges[0].bridge.value;
        assert!(value <= full && value >= full - 2, "seed {seed}");
        mended += usize::from(value > full - 2);
    }
    assert!(mended > 0, "no bridge mended in 6 battles");
}

#[test]
fn the_sbg_avre_lays_its_bridge_over_the_brook_with_its_act() {
    // HA "Bridge-laying or fascine-laying tanks": "This type of vehicle uses
    // its Act ... Each bound, it throws a D10 and completes its task when it
    // has an accumulated score of 6." Queen Red's SBG AVRE drops its bridge
    // over the brook at the crossing.
    let scenario = shipped::battle("beach", &codex()).unwrap_or_else(|e| panic!("{e}"));
    let mut laid = 0;
    for seed in 1..=20 {
        let log = played("beach", &scenario, seed);
        let work: Vec<&Entry> =
            log.iter().filter(|e| e.event.rule.section == "Bridge-laying or fascine-laying tanks").collect();
        let mut total = 0;
        for e in work.iter().filter(|e| e.event.outcome.get("accumulated").is_some()) {
            assert_eq!(e.event.actor.as_deref(), Some("sbg"), "seed {seed}");
            assert_eq!((e.event.dice.len(), e.event.dice[0].sides), (1, 10), "seed {seed}: a D10 a bound");
            total += e.event.dice[0].face as u64;
            assert_eq!(e.event.outcome["accumulated"].as_u64(), Some(total), "seed {seed}");
            assert_eq!(e.event.outcome["laid"].as_bool(), Some(total >= 6), "seed {seed}");
        }
        let opened = work.iter().any(|e| e.event.outcome["built"] == serde_json::json!(true));
        assert_eq!(opened, total >= 6, "seed {seed}: the bridge spans the brook once 6 is thrown");
        laid += usize::from(opened);
    }
    assert!(laid > 0, "the SBG bridge was never laid in 20 battles");
}
