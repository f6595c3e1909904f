//! Rows of the Momentum Test Charts played on the table (FYOB "Momentum Test
//! Chart"): flame, an attached AFV lost and supporting infantry forced to
//! retire; and what an element pinned by its tests may do (FYOB "Results of
//! Momentum Tests").

use std::sync::Arc;

use warbound_battle::{
    command::{Command, Pace},
    log::{BattleLog, Entry},
    play,
    prelude::*,
    setup::{BattleStart, Control},
    shipped,
    state::{ElementBundle, Flow, Sides, Status},
};
use warbound_rules::{
    codex::Codex,
    event::EventKind,
    momentum::{CmCause, CmMovement},
    order_dice::Phase,
    scenario::Scenario,
};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

const HOLD_ROAD: &str = r#"(activity: Hold, location: "the road")"#;
const HOLD_FARM: &str = r#"(activity: Hold, location: "the farm")"#;

/// A table with `terrain` (a `terrain:` field, or nothing for an open
/// one): the British element `a1` of `british` (its `figures` and `pieces`
/// lists) at `british_at`, the German `g1` of `german` at `german_at`.
fn table(terrain: &str, british: &str, british_at: (f32, f32), german: &str, german_at: (f32, f32)) -> Scenario {
    let text = format!(
        r#"(
    name: "Open", briefing: "test", table: (width: 72, depth: 48), time_limit: 12, {terrain}
    places: [(name: "the road", at: (30, 4)), (name: "the farm", at: (30, 40))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: {HOLD_ROAD},
            elements: [(id: "a1", nco: Regular, {british}, start: at({}, {}))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: {HOLD_FARM},
            elements: [(id: "g1", nco: Regular, {german}, start: at({}, {}))])]),
    ],
)"#,
        british_at.0, british_at.1, german_at.0, german_at.1
    );
    Scenario::load("open.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

fn open_table(british: &str, british_at: (f32, f32), german: &str, german_at: (f32, f32)) -> Scenario {
    table("", british, british_at, german, german_at)
}

/// The British under the Player at a1's turn, knowing of g1, on the Order
/// Die `order`, its tests letting it move as `movement` says and fire;
/// `None` when something happened to a1 first.
fn a1_to_act(scenario: Scenario, seed: u64, order: Phase, movement: CmMovement) -> Option<App> {
    let mut start = BattleStart::auto("open", scenario, seed);
    start.control = vec![Control::Player, Control::Auto];
    let mut app = play::battle_app(start, BattleLog::default(), codex()).unwrap();
    play::advance(&mut app).unwrap();
    for _ in 0..50 {
        match app.world().resource::<Flow>().clone() {
            Flow::Acting(turn) if turn.element == "a1" => break,
            Flow::CoTurn { side, company, .. } => {
                let id = app.world().resource::<Sides>().0[side].companies[company].id.clone();
                play::command(&mut app, Command::Command { company: id, orders: vec![], rally: vec![] }).unwrap();
            }
            Flow::Session { side } => {
                let cmd = Command::Session { side, commit: vec![], objectives: vec![], withdraw: false };
                play::command(&mut app, cmd).unwrap();
            }
            Flow::Seize { element } => {
                play::command(&mut app, Command::Seize { element, swap_with: None }).unwrap();
            }
            _ => return None,
        }
    }
    if element(&app, "a1").force.element.cms <= 4 || element(&app, "g1").momentum.accrued != Default::default() {
        return None;
    }
    let world = app.world_mut();
    let Flow::Acting(turn) = &mut *world.resource_mut::<Flow>() else { return None };
    if !turn.taken.is_empty() {
        return None;
    }
    turn.orders.order = order;
    turn.orders.can_fire = true;
    turn.orders.movement = movement;
    turn.orders.open_sights_penalty = 0;
    turn.failures = 0;
    let mut q = world.query::<(&warbound_battle::state::Force, &mut warbound_battle::state::Intel)>();
    for (force, mut intel) in q.iter_mut(world) {
        if force.id() == "a1" {
            intel.known.insert("g1".to_owned());
        }
    }
    Some(app)
}

fn first_turn(scenario: &Scenario) -> App {
    turn_with(scenario, Phase::Fire, CmMovement::Free)
}

fn turn_with(scenario: &Scenario, order: Phase, movement: CmMovement) -> App {
    (0..40).find_map(|s| a1_to_act(scenario.clone(), s, order, movement)).expect("a1 acts first on some seed")
}

/// The section that refused the last command, or `None` if it was accepted.
fn refused_by(app: &App) -> Option<String> {
    let log = log(app);
    let last = &log.iter().rev().find(|e| e.event.kind == EventKind::Command).expect("a command").event;
    (last.outcome["accepted"] == serde_json::json!(false)).then(|| last.rule.section.clone())
}

fn log(app: &App) -> Vec<Entry> {
    app.world().resource::<BattleLog>().entries.clone()
}

fn element(app: &App, id: &str) -> ElementBundle {
    warbound_battle::state::elements(app.world()).into_iter().find(|f| f.id() == id).unwrap()
}

#[test]
fn a_flamethrower_hits_the_section_and_puts_it_under_flame() {
    // HA "Flame weapons": "These are an automatic hit if fired within range.
    // Use the Attack Value against armour/softs and the HE effect against
    // infantry"; FYOB "Momentum Test Chart": "Under fire from flame weapon".
    let lifebuoy = r#"pieces: [(codex: "gb_lifebuoy")]"#;
    let section = r#"figures: [(men: 8, weapon: "de_kar98k")]"#;
    let mut app = first_turn(&open_table(lifebuoy, (30.0, 20.0), section, (30.0, 25.0)));
    let before = log(&app).len();
    play::command(&mut app, Command::Fire { element: "a1".into(), target: "g1".into() }).unwrap();
    let new = log(&app)[before..].to_vec();
    let fire = new.iter().find(|e| e.event.rule.section == "Flame weapons").expect("the flamethrower fires");
    assert_eq!(fire.event.outcome["hit"], serde_json::json!(true), "an automatic hit");
    assert!(fire.event.dice.is_empty(), "no throw to hit");
    let he = new.iter().filter(|e| e.event.rule.section == "HE Effects Table").count();
    assert_eq!(he, 1, "the HE effect against infantry, once for the one flamethrower");
    let accrued = element(&app, "g1").momentum.accrued.events;
    assert!(accrued.iter().any(|&(c, n)| c == CmCause::Flame && n == 1), "{accrued:?}");
    assert!(
        !accrued.iter().any(|(c, _)| matches!(c, CmCause::SmallArmsInOpen | CmCause::MortarArtilleryOrAir)),
        "flame is its own row: {accrued:?}"
    );
    assert_eq!(element(&app, "a1").force.element.pieces[0].rounds, vec![Some(2)], "3 bounds of flamethrower fire");
    // Out of its 6 inches it cannot be fired.
    let mut far = first_turn(&open_table(lifebuoy, (30.0, 20.0), section, (30.0, 27.0)));
    let before = log(&far).len();
    play::command(&mut far, Command::Fire { element: "a1".into(), target: "g1".into() }).unwrap();
    assert!(!log(&far)[before..].iter().any(|e| e.event.rule.section == "Flame weapons"));
    assert!(log(&far)[before..].iter().any(|e| e.event.kind == EventKind::Command));
}

/// Five sections `a1` to `a5` and a Churchill `t1` sent to support their
/// company (enough that one lost leaves the Senior Officer no milestone to
/// test), the Germans far off; `gone` (`t1` or `a1`) is taken off the table as `status`
/// before the first card, and the log kept until the end of bound 2.
fn partner_lost(gone: &str, status: Status) -> Vec<Entry> {
    let text = format!(
        r#"(
    name: "Partners", briefing: "test", table: (width: 72, depth: 48), time_limit: 12,
    places: [(name: "the road", at: (30, 4)), (name: "the farm", at: (30, 44))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: {HOLD_ROAD},
            elements: [
                (id: "a1", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(30, 4)),
                (id: "a2", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(20, 4)),
                (id: "a3", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(24, 4)),
                (id: "a4", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(38, 4)),
                (id: "a5", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(42, 4)),
                (id: "t1", nco: Regular, pieces: [(codex: "gb_churchill_iii")], start: at(34, 4),
                 order: (activity: Support, location: "the road", detail: "a_coy")),
            ])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: {HOLD_FARM},
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(30, 44))])]),
    ],
)"#
    );
    let scenario = Scenario::load("partners.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let mut app = play::battle_app(BattleStart::auto("partners", scenario, 1), BattleLog::default(), codex()).unwrap();
    let world = app.world_mut();
    let mut q = world.query::<(&warbound_battle::state::Force, &mut warbound_battle::state::Presence)>();
    for (force, mut presence) in q.iter_mut(world) {
        if force.id() == gone {
            presence.status = status;
        }
    }
    for _ in 0..play::MAX_UPDATES {
        if play::is_over(app.world()) || app.world().resource::<warbound_battle::state::Battle>().clock.bound() > 2 {
            break;
        }
        app.update();
    }
    log(&app)
}

/// The rows of the CM tests `id` took, bound by bound.
fn tests_taken(log: &[Entry], id: &str) -> Vec<(u32, serde_json::Value)> {
    log.iter()
        .filter(|e| e.event.kind == EventKind::CmTests && e.event.actor.as_deref() == Some(id))
        .filter_map(|e| Some((e.bound, e.event.inputs.iter().find(|i| i.name == "accrued")?.value.clone())))
        .collect()
}

#[test]
fn infantry_and_their_tanks_test_for_each_others_loss() {
    // FYOB "Momentum Test Chart - infantry ...": "If attached AFV lost from
    // the element" 12/6/3; "- AFVs ...": "If supporting infantry forced to
    // retire" 18/9/4. The Churchill's order is "Support - x unit" (FYOB
    // "Orders & Objectives"), x the section's company.
    let row = |log: &[Entry], id: &str, cause: &str| {
        tests_taken(log, id)
            .into_iter()
            .filter(|(_, accrued)| accrued["events"].as_array().is_some_and(|e| e.iter().any(|r| r[0] == cause)))
            .count()
    };
    let brewed = partner_lost("t1", Status::Destroyed);
    assert_eq!(
        row(&brewed, "a1", "AttachedAfvLost"),
        1,
        "tested once for the tank lost: {:?}",
        tests_taken(&brewed, "a1")
    );
    let retired = partner_lost("a1", Status::Retired);
    assert_eq!(row(&retired, "t1", "SupportingInfantryRetired"), 1, "{:?}", tests_taken(&retired, "t1"));
    // Infantry lost otherwise are no retirement.
    let surrendered = partner_lost("a1", Status::Surrendered);
    assert_eq!(row(&surrendered, "t1", "SupportingInfantryRetired"), 0);
}

#[test]
fn a_pinned_element_in_the_open_moves_only_towards_cover() {
    // FYOB "Results of Momentum Tests", 5 or 6 failures: "Element pinned
    // down ... If the element is in the open it may move towards cover but
    // may not move towards the enemy."
    let wood = r#"terrain: (features: [Wood(density: sparse, outline: [(40, 16), (46, 16), (46, 24), (40, 24)])]),"#;
    let section = r#"figures: [(men: 8, weapon: "gb_no4_rifle")]"#;
    let germans = r#"figures: [(men: 8, weapon: "de_kar98k")]"#;
    let open = table(wood, section, (30.0, 20.0), germans, (30.0, 40.0));
    let pinned = |scenario: &Scenario, to: (f32, f32)| {
        let mut app = turn_with(scenario, Phase::Move, CmMovement::TowardsCoverOnly);
        play::command(&mut app, Command::Move { element: "a1".into(), to, pace: Pace::Normal }).unwrap();
        refused_by(&app)
    };
    const RESULTS: &str = "Results of Momentum Tests";
    assert_eq!(pinned(&open, (36.0, 20.0)), None, "towards the wood");
    assert_eq!(pinned(&open, (24.0, 20.0)).as_deref(), Some(RESULTS), "away from cover");
    assert_eq!(pinned(&open, (36.0, 23.0)).as_deref(), Some(RESULTS), "towards the wood, but towards the enemy");
    let in_wood = table(wood, section, (43.0, 20.0), germans, (30.0, 40.0));
    assert_eq!(pinned(&in_wood, (43.0, 17.0)).as_deref(), Some(RESULTS), "in cover it stays");
    // Free to move, it goes where it likes.
    let mut free = turn_with(&open, Phase::Move, CmMovement::Free);
    play::command(&mut free, Command::Move { element: "a1".into(), to: (24.0, 20.0), pace: Pace::Normal }).unwrap();
    assert_eq!(refused_by(&free), None);
    // The Auto side in the open makes for the wood's edge.
    let mut app = turn_with(&open, Phase::Move, CmMovement::TowardsCoverOnly);
    let seen = log(&app).len();
    app.world_mut().resource_mut::<Sides>().0[0].control = Control::Auto;
    play::advance(&mut app).unwrap();
    let first = log(&app)[seen..]
        .iter()
        .find(|e| e.event.kind == EventKind::Command && e.event.actor.as_deref() == Some("a1"))
        .map(|e| e.event.inputs.iter().find(|i| i.name == "command").expect("the command given").value.clone())
        .expect("a command for a1");
    assert_eq!(first["move"]["to"], serde_json::json!([40.0, 20.0]), "{first}");
}

#[test]
fn a_rationed_tank_runs_dry_below_five_and_moves_no_more() {
    // Heroes All, "Forces acting whilst rationed": "If an element has
    // vehicles and these move, throw 2d6 after the move. A score less than 5
    // means that the vehicle has run out of petrol and is unable to move
    // further. This counts as light damage for CMS purposes".
    let text = r#"(
    name: "Dry", briefing: "test", table: (width: 72, depth: 48), time_limit: 12,
    places: [(name: "the road", at: (30, 4)), (name: "the farm", at: (30, 44)), (name: "the far corner", at: (70, 46))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near, rationed: true,
         companies: [(id: "a_sqn", officer: Regular, attached_to: "t1", objective: (activity: Reposition, location: "the farm"),
            elements: [(id: "t1", nco: Regular, pieces: [(codex: "gb_churchill_iii")], start: at(30, 4))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the far corner"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(70, 46))])]),
    ],
)"#;
    let scenario = Scenario::load("dry.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let (mut dry, mut running) = (0, 0);
    for seed in 0..12 {
        let (app, _) = play::autoplay(BattleStart::auto("dry", scenario.clone(), seed), BattleLog::default(), codex())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let log = log(&app);
        let throws: Vec<&Entry> =
            log.iter().filter(|e| e.event.rule.section == "Forces acting whilst rationed").collect();
        let out = throws.iter().position(|e| e.event.outcome["fuel"] == serde_json::json!("out_of_fuel"));
        for e in &throws {
            let score = e.event.outcome["score"].as_u64().unwrap();
            let faces: u64 = e.event.dice.iter().map(|d| u64::from(d.face)).sum();
            assert_eq!((score, e.event.dice.len()), (faces, 2), "2D6 after the move");
            assert_eq!(e.event.outcome["fuel"] == serde_json::json!("out_of_fuel"), score < 5, "{score}");
        }
        let t1 = element(&app, "t1");
        match out {
            Some(k) => {
                dry += 1;
                assert_eq!(k + 1, throws.len(), "seed {seed}: no move, no throw, after running dry");
                assert!(t1.vehicle.out_of_fuel);
                assert_ne!(t1.vehicle.state, Some(warbound_rules::effects::VehicleState::Intact), "light damage");
            }
            None => {
                running += usize::from(!throws.is_empty());
                assert!(!t1.vehicle.out_of_fuel);
            }
        }
    }
    assert!(dry > 0 && running > 0, "dry {dry}, running {running}");
}
