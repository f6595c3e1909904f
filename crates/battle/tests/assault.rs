//! Assaults played (*Heroes All*, "Assaults"): the Player's Assault command,
//! the close assault into a building, coming up short, the defenders'
//! answer, and the refusals of the turn.

use std::sync::Arc;

use warbound_battle::{
    command::Command,
    log::{BattleLog, Entry},
    play,
    prelude::*,
    setup::{BattleStart, Control},
    shipped,
    state::{ElementBundle, Flow, Sides},
};
use warbound_rules::{codex::Codex, event::EventKind, geometry::distance, order_dice::Phase, scenario::Scenario};

const CLOSE: &str = "Close assaults (into buildings or defensive positions)";

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

/// British `men` riflemen at `british_at`, a German section in the farm
/// (a house from (38, 39) to (44, 44)) at (40, 40); both sides on `orders`.
fn farm(men: u8, british_at: (f32, f32), german: &str, orders: (&str, &str)) -> Scenario {
    farm_at(men, british_at, (40.0, 40.0), german, orders)
}

/// As [`farm`], the Germans at `german_at`.
fn farm_at(men: u8, british_at: (f32, f32), german_at: (f32, f32), german: &str, orders: (&str, &str)) -> Scenario {
    let text = format!(
        r#"(
    name: "Farm", briefing: "test", table: (width: 72, depth: 48), time_limit: 12,
    terrain: (features: [Building(outline: [(38, 39), (44, 39), (44, 44), (38, 44)], structure: house, storeys: 2)]),
    places: [(name: "the road", at: (36, 4)), (name: "the farm", at: (40, 40))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: {},
            elements: [(id: "a1", nco: Regular, figures: [(men: {men}, weapon: "gb_no4_rifle")], start: at({}, {}))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: {},
            elements: [(id: "g1", nco: Regular, figures: [{german}], start: at({}, {}))])]),
    ],
)"#,
        orders.0, british_at.0, british_at.1, orders.1, german_at.0, german_at.1
    );
    Scenario::load("farm.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

const HOLD_ROAD: &str = r#"(activity: Hold, location: "the road")"#;
const HOLD_FARM: &str = r#"(activity: Hold, location: "the farm")"#;
const SECTION: &str = r#"(men: 8, weapon: "de_kar98k")"#;

/// The British under the Player at a1's turn, knowing of g1, with the Order
/// Die `order` and the turn allowing an assault as `can_assault` says.
fn a1_to_act(scenario: Scenario, seed: u64, order: Phase, can_assault: bool) -> Option<App> {
    let mut start = BattleStart::auto("farm", scenario, seed);
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
    if element(&app, "a1").force.element.cms <= 4 {
        return None;
    }
    let world = app.world_mut();
    let Flow::Acting(turn) = &mut *world.resource_mut::<Flow>() else { return None };
    if !turn.taken.is_empty() {
        return None;
    }
    turn.orders.order = order;
    turn.orders.can_assault = can_assault;
    turn.orders.can_fire = true;
    turn.orders.movement = warbound_rules::momentum::CmMovement::Free;
    turn.orders.movement_pips = 0;
    turn.orders.open_sights_penalty = 0;
    turn.failures = 0;
    let mut q = world.query::<(&warbound_battle::state::Force, &mut warbound_battle::state::Intel)>();
    let germans: Vec<String> = q.iter(world).map(|(f, _)| f.id().to_owned()).filter(|id| id.starts_with('g')).collect();
    for (force, mut intel) in q.iter_mut(world) {
        if force.id() == "a1" {
            intel.known.extend(germans.iter().cloned());
        }
    }
    Some(app)
}

fn log(app: &App) -> Vec<Entry> {
    app.world().resource::<BattleLog>().entries.clone()
}

fn elements(app: &App) -> Vec<ElementBundle> {
    warbound_battle::state::elements(app.world())
}

fn element(app: &App, id: &str) -> ElementBundle {
    elements(app).into_iter().find(|f| f.id() == id).unwrap()
}

fn input<'a>(e: &'a Entry, name: &str) -> Option<&'a serde_json::Value> {
    e.event.inputs.iter().find(|i| i.name == name).map(|i| &i.value)
}

/// The section that refused the last command, or `None` if it was accepted.
fn refused_by(app: &App) -> Option<String> {
    let log = log(app);
    let last = &log.iter().rev().find(|e| e.event.kind == EventKind::Command).expect("a command").event;
    (last.outcome["accepted"] == serde_json::json!(false)).then(|| last.rule.section.clone())
}

/// The first seed from `seeds` at which a1 acts before anything happens to it.
fn first_turn(scenario: &Scenario, order: Phase, can_assault: bool) -> App {
    (0..40).find_map(|s| a1_to_act(scenario.clone(), s, order, can_assault)).expect("a1 acts first on some seed")
}

#[test]
fn seven_figures_throw_two_grenades_into_the_farm() {
    // HA "Close assaults", the caption: "British infantry assault the
    // occupants of this farm building. The 7 figures will get 2 grenades to
    // throw before entering and firing at short range at the defenders who
    // will gain the benefit of hard cover."
    let scenario = farm(7, (40.0, 38.2), SECTION, (HOLD_ROAD, HOLD_FARM));
    let mut app = first_turn(&scenario, Phase::Fire, true);
    let before = log(&app).len();
    play::command(&mut app, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
    assert_eq!(refused_by(&app), None);
    let after = log(&app);
    let new = &after[before..];
    let entry = new.iter().find(|e| e.event.rule.section == CLOSE).expect("the close assault");
    assert_eq!(entry.event.actor.as_deref(), Some("a1"));
    assert_eq!(entry.event.target.as_deref(), Some("g1"));
    let faces: Vec<u8> = entry.event.dice.iter().map(|t| t.face).collect();
    assert_eq!(faces.len(), 2, "7 figures throw 2 grenades");
    assert_eq!(entry.event.outcome["column"], serde_json::json!("G1"), "British grenades on column G1");
    let g1 = |f: u8| [1, 1, 2, 2, 3, 3][usize::from(f) - 1];
    let grenade_dead: u8 = faces.iter().map(|&f| g1(f)).sum::<u8>().min(8);
    assert_eq!(entry.event.outcome["casualties"], serde_json::json!(grenade_dead));
    // Then the attackers fire from inside: short range, defenders in hard cover.
    let k = new.iter().position(|e| e.event.rule.section == CLOSE).unwrap();
    let volleys: Vec<&Entry> = new[k..].iter().filter(|e| e.event.rule.section == "How to fire weapons").collect();
    assert!(!volleys.is_empty(), "the attackers fire after their grenades");
    for v in &volleys {
        assert_eq!(input(v, "band"), Some(&serde_json::json!("short")));
        assert!(input(v, "hard_cover").is_some(), "the defenders are in hard cover");
    }
    let hits: u64 = volleys.iter().map(|v| v.event.outcome["hits"].as_u64().unwrap()).sum();
    let a1 = element(&app, "a1");
    let g1_after = element(&app, "g1");
    assert!(u64::from(8 - g1_after.men()) <= u64::from(grenade_dead) + hits);
    assert_eq!(a1.actions.grenades_day, Some(0), "grenades are thrown once a day");
    let inside = warbound_rules::geometry::building_at(
        &app.world().resource::<warbound_battle::state::Battle>().terrain,
        a1.place.at,
    );
    assert!(inside.is_some(), "the attackers fire from inside the building");
}

#[test]
fn an_assault_the_turn_forbids_is_refused() {
    // FYOB "Continuous Momentum Score": infantry at 4 or less "cannot
    // assault"; HA "Assaults": "Any assault takes place in a Fire phase and
    // therefore the attackers must throw a Move or Act order if they need to
    // move into contact".
    let near = farm(7, (40.0, 38.2), SECTION, (HOLD_ROAD, HOLD_FARM));
    let mut app = first_turn(&near, Phase::Move, false);
    let before = elements(&app);
    play::command(&mut app, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Continuous Momentum"));
    assert_eq!(elements(&app), before, "a refused assault changes nothing");
    let far = farm(7, (40.0, 33.0), SECTION, (HOLD_ROAD, HOLD_FARM));
    let mut app = first_turn(&far, Phase::Fire, true);
    play::command(&mut app, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Assaults"), "a Fire order cannot move into contact first");
    // The Player's offer says so.
    let Some(warbound_battle::options::Decision::Act { offers, .. }) =
        warbound_battle::options::decision(app.world_mut())
    else {
        panic!("no element's decision")
    };
    let offer = offers.iter().find(|o| matches!(o.command, Command::Assault { .. })).expect("Assault g1 on offer");
    assert!(offer.label.starts_with("Assault G1"), "{}", offer.label);
    assert!(offer.refused.as_deref().is_some_and(|r| r.contains("Move or Act order")), "{:?}", offer.refused);
}

#[test]
fn only_buildings_and_vehicles_are_assaulted() {
    // HA "Close assaults (into buildings or defensive positions)": men in
    // the open are fired on, not assaulted.
    let open = farm_at(7, (30.0, 37.6), (30.0, 39.5), SECTION, (HOLD_ROAD, HOLD_FARM));
    let mut app = first_turn(&open, Phase::Fire, true);
    play::command(&mut app, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some(CLOSE));
}

#[test]
fn coming_up_short_fires_from_where_it_stands() {
    // HA "Coming up short": "If an element decides to make an assault but then
    // throws less than the required distance to make contact with the enemy,
    // the assault is cancelled and the advancing troops may fire from their
    // final position. They may not throw grenades".
    let scenario = farm(7, (40.0, 30.0), SECTION, (HOLD_ROAD, HOLD_FARM));
    let (mut short, mut reached) = (0, 0);
    for seed in 0..40 {
        let Some(mut app) = a1_to_act(scenario.clone(), seed, Phase::Move, true) else { continue };
        let before = log(&app).len();
        play::command(&mut app, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
        assert_eq!(refused_by(&app), None, "seed {seed}");
        let new = log(&app)[before..].to_vec();
        let a1 = element(&app, "a1");
        if let Some(e) = new.iter().find(|e| e.event.rule.section == "Coming up short") {
            short += 1;
            assert_eq!(e.event.outcome["winner"], serde_json::json!("defender"));
            // A move thrown to the full distance is in contact, not short by a rounding.
            let by = e.event.outcome["short_by"].as_f64().unwrap();
            assert!(by >= 0.01, "seed {seed}: short by {by}");
            assert!(new.iter().all(|e| e.event.rule.section != CLOSE), "seed {seed}: no close assault when short");
            assert_eq!(a1.actions.grenades_day, None, "seed {seed}: no grenades when short");
            assert!(distance(a1.place.at, element(&app, "g1").place.at).get() > 2.0, "seed {seed}");
        } else if new.iter().any(|e| e.event.rule.section == CLOSE) {
            reached += 1;
        }
    }
    assert!(short > 0 && reached > 0, "short {short}, reached {reached}");
}

#[test]
fn defenders_who_may_not_fire_retire_a_full_move() {
    // HA "Close assaults": "If, after taking their CM Tests, the defenders are
    // not permitted to take offensive action, they must retire away from the
    // enemy 1 full move. This full move retirement is mandatory and is the
    // only action permitted by the defenders if they fail their Officer
    // Reaction Test."
    let militia = r#"(men: 8, weapon: "de_kar98k")"#;
    let scenario = farm(7, (41.0, 41.0), militia, (HOLD_ROAD, HOLD_FARM));
    let (mut retired, mut fired_back) = (0, 0);
    for seed in 0..30 {
        let mut start = BattleStart::auto("farm", scenario.clone(), seed);
        start.control = vec![Control::Auto, Control::Auto];
        let (app, _) = play::autoplay(start, BattleLog::default(), codex()).unwrap();
        let log = log(&app);
        for (k, e) in log.iter().enumerate() {
            if e.event.rule.section != CLOSE || e.event.actor.as_deref() != Some("g1") {
                continue;
            }
            let passed = input(e, "passed_ort") == Some(&serde_json::json!(true));
            let cms = input(e, "cms").and_then(serde_json::Value::as_u64).unwrap() as u8;
            let failures = input(e, "failures").and_then(serde_json::Value::as_u64).unwrap() as u32;
            let expected = warbound_rules::assault::defenders_act(cms, failures, passed).unwrap();
            let action = &e.event.outcome["defenders"];
            assert_eq!(action, &serde_json::to_value(expected).unwrap(), "seed {seed}");
            if expected == warbound_rules::assault::DefendersAction::Retire {
                retired += 1;
                assert_eq!(e.event.outcome["winner"], serde_json::json!("attacker"));
                // Nothing else on that card: the next event of g1 is no command.
                let next = log[k + 1..].iter().find(|n| n.event.actor.as_deref() == Some("g1"));
                assert!(
                    next.is_none_or(|n| n.event.kind != EventKind::Command),
                    "seed {seed}: it did more than retire"
                );
            } else {
                fired_back += 1;
            }
        }
    }
    assert!(retired > 0, "no defender retired (returned fire {fired_back})");
}

#[test]
fn the_auto_side_assaults_the_farm_it_was_sent_against() {
    // HA "Assaults"; FYOB "Orders & Objectives", Contact Enemy: Auto
    // infantry sent to contact an enemy it knows in a building closes with
    // it and assaults it, and the rules report counts who won.
    let contact = r#"(activity: ContactEnemy, location: "the farm")"#;
    let outpost = r#"(men: 4, weapon: "de_kar98k")"#;
    let scenario = farm(10, (40.0, 31.0), outpost, (contact, HOLD_FARM));
    let report = warbound_battle::report::rules_report(&codex(), &[("farm".to_owned(), scenario)], 40);
    let a = report.assaults;
    assert!(a.tried > 0, "{a:?}");
    assert!(a.won > 0 && a.lost > 0, "{a:?}");
}

/// a1's first command at its turn under a Move order, sent to contact the
/// Germans it knows: a section in the farm (a house from (38, 39) to
/// (44, 44)) at (40, 40) and one in the open at `open_at`.
fn first_command_against_farm_and_field(british_at: (f32, f32), open_at: (f32, f32)) -> serde_json::Value {
    let text = format!(
        r#"(
    name: "Farm", briefing: "test", table: (width: 72, depth: 48), time_limit: 12,
    terrain: (features: [Building(outline: [(38, 39), (44, 39), (44, 44), (38, 44)], structure: house, storeys: 2)]),
    places: [(name: "the road", at: (36, 4)), (name: "the farm", at: (40, 40))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: ContactEnemy, location: "the farm"),
            elements: [(id: "a1", nco: Regular, figures: [(men: 10, weapon: "gb_no4_rifle")], start: at({}, {}))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: {HOLD_FARM},
            elements: [(id: "g1", nco: Regular, figures: [{SECTION}], start: at(40, 40)),
                       (id: "g2", figures: [{SECTION}], start: at({}, {}))])]),
    ],
)"#,
        british_at.0, british_at.1, open_at.0, open_at.1
    );
    let scenario = Scenario::load("farm.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let mut app = first_turn(&scenario, Phase::Move, true);
    let seen = log(&app).len();
    app.world_mut().resource_mut::<Sides>().0[0].control = Control::Auto;
    play::advance(&mut app).unwrap();
    let log = log(&app);
    let first = log[seen..]
        .iter()
        .find(|e| e.event.kind == EventKind::Command && e.event.actor.as_deref() == Some("a1"))
        .expect("a command for a1");
    input(first, "command").expect("the command given").clone()
}

#[test]
fn the_auto_side_closes_with_a_house_past_men_in_the_open() {
    // FYOB "Orders & Objectives": Contact Enemy is to "advance into contact
    // with the intention of engaging with him"; HA "Assaults": men in a
    // building are assaulted. Sent against both, Auto infantry does not stop
    // to trade fire with the section in the open 12" off: it advances on
    // contact with the farm, 2" from its defenders at (40, 40).
    let cmd = first_command_against_farm_and_field((40.0, 24.0), (30.0, 30.0));
    let to = cmd["move"]["to"].as_array().unwrap_or_else(|| panic!("a move: {cmd}"));
    let (x, y) = (to[0].as_f64().unwrap(), to[1].as_f64().unwrap());
    assert!((x - 40.0).abs() < 0.5 && (y - 38.0).abs() < 0.5, "towards contact with the farm: {cmd}");
}

/// British `men` riflemen at (30, 18.5), in contact with a Panzer IV at (30, 20).
fn tank(men: u8) -> Scenario {
    let text = format!(
        r#"(
    name: "Tank", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the road", at: (30, 4)), (name: "the farm", at: (30, 20))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: {HOLD_ROAD},
            elements: [(id: "a1", nco: Regular, figures: [(men: {men}, weapon: "gb_no4_rifle")], start: at(30, 18.5))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: {HOLD_FARM},
            elements: [(id: "g1", nco: Regular, pieces: [(codex: "de_pz4h")], start: at(30, 20))])]),
    ],
)"#
    );
    Scenario::load("tank.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_section_in_contact_throws_at_grenades_at_the_tank() {
    // HA "Assaults on AFVs and other vehicles": "Against closed AFV's and
    // using AT grenades, they throw a D10 per 3 figures with an attack value
    // of +5. Multiple Attack Values can be added together".
    let mut app = first_turn(&tank(6), Phase::Fire, true);
    let before = log(&app).len();
    play::command(&mut app, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
    assert_eq!(refused_by(&app), None);
    let new = log(&app)[before..].to_vec();
    let e = new.iter().find(|e| e.event.rule.section == "Assaults on AFVs and other vehicles").expect("the assault");
    let d10: Vec<u8> = e.event.dice.iter().filter(|t| t.sides == 10).map(|t| t.face).collect();
    assert_eq!(d10.len(), 2, "6 figures throw 2 AT grenades");
    assert_eq!(input(e, "attack_value"), Some(&serde_json::json!(10)), "+5 each, added together");
    let score: u64 = d10.iter().map(|&f| u64::from(f)).sum::<u64>() + 10;
    assert_eq!(e.event.outcome["score"], serde_json::json!(score));
    let won = e.event.outcome["result"] != serde_json::json!("no_effect");
    assert_eq!(e.event.outcome["winner"], serde_json::json!(if won { "attacker" } else { "defender" }));
    assert_eq!(element(&app, "a1").actions.grenades_day, Some(0));
    // "These 2 Germans cannot assault the tank using AT grenades as 3 figures are required."
    let mut two = first_turn(&tank(2), Phase::Fire, true);
    play::command(&mut two, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
    assert_eq!(refused_by(&two).as_deref(), Some("Assaults on AFVs and other vehicles"));
}

/// The first command the Auto side gives for a1 at its turn under a Move
/// order, a1 sent to contact g1 in the farm from `british_at`.
fn auto_first_command(british_at: (f32, f32)) -> serde_json::Value {
    let contact = r#"(activity: ContactEnemy, location: "the farm")"#;
    first_auto_command(&farm(10, british_at, SECTION, (contact, HOLD_FARM)))
}

/// The first command the Auto side gives for a1 in `scenario` at its first
/// turn under a Move order.
fn first_auto_command(scenario: &Scenario) -> serde_json::Value {
    let mut app = first_turn(scenario, Phase::Move, true);
    let seen = log(&app).len();
    app.world_mut().resource_mut::<Sides>().0[0].control = Control::Auto;
    play::advance(&mut app).unwrap();
    let log = log(&app);
    let first = log[seen..]
        .iter()
        .find(|e| e.event.kind == EventKind::Command && e.event.actor.as_deref() == Some("a1"))
        .expect("a command for a1");
    input(first, "command").expect("the command given").clone()
}

#[test]
fn the_auto_side_assaults_at_a_fair_chance_of_contact() {
    // HA "Coming up short": "If an element decides to make an assault but
    // then throws less than the required distance to make contact with the
    // enemy, the assault is cancelled": the assault is declared before the
    // Movement Dice (2D6 cross-country) are thrown. Contact (2" from the
    // defenders) 8" off is reached on 15 throws in 36, 9" off on 10 in 36.
    let eight = auto_first_command((40.0, 30.0));
    assert!(eight.get("assault").is_some(), "8 inches to contact: {eight}");
    let nine = auto_first_command((40.0, 29.0));
    assert!(nine.get("assault").is_none(), "9 inches to contact: {nine}");
    assert!(nine.get("move").is_some(), "9 inches to contact, it advances: {nine}");
}

#[test]
fn outnumbered_attackers_withdraw_when_their_nco_passes() {
    // HA "Close assaults": "If the attackers take their next bound before the
    // defenders, they may fire again (without grenades) or withdraw away
    // from the building"; "both elements fire at close range ... until one
    // side is forced to withdraw or withdraws voluntarily (i.e. it's NCO
    // passes a Leadership Test)". Three British inside the farm with eight
    // Germans: the Auto NCO tests to withdraw; a pass takes them out, a
    // failure fights another round.
    let contact = r#"(activity: ContactEnemy, location: "the farm")"#;
    let scenario = farm_at(3, (41.0, 41.0), (40.0, 40.0), SECTION, (contact, HOLD_FARM));
    let (mut out, mut on) = (0, 0);
    for seed in 0..60 {
        let Some(mut app) = a1_to_act(scenario.clone(), seed, Phase::Move, true) else { continue };
        let (a1, g1) = (element(&app, "a1"), element(&app, "g1"));
        let in_farm = |p: warbound_rules::terrain::Point| (38.0..=44.0).contains(&p.0) && (39.0..=44.0).contains(&p.1);
        if !(in_farm(a1.place.at) && in_farm(g1.place.at) && g1.presence.status.on_table() && a1.men() < g1.men()) {
            continue;
        }
        // An element whose NCO is lost has nobody to decide to withdraw.
        if a1.force.element.nco.is_none() {
            continue;
        }
        let seen = log(&app).len();
        app.world_mut().resource_mut::<Sides>().0[0].control = Control::Auto;
        play::advance(&mut app).unwrap();
        let new = log(&app)[seen..].to_vec();
        let test = new
            .iter()
            .find(|e| e.event.kind == EventKind::LeadershipTest && e.event.actor.as_deref() == Some("a1"))
            .expect("the NCO's Leadership Test");
        assert_eq!(test.event.rule.section, "Officer decisions");
        let withdraws = test.event.outcome["passed"] == serde_json::json!(true);
        let round = new
            .iter()
            .find(|e| e.event.rule.section == CLOSE && e.event.outcome.get("another_round").is_some())
            .expect("the round's verdict");
        assert_eq!(round.event.outcome["another_round"], serde_json::json!(!withdraws));
        let cmd = new
            .iter()
            .find(|e| e.event.kind == EventKind::Command && e.event.actor.as_deref() == Some("a1"))
            .and_then(|e| input(e, "command"))
            .expect("a1's command")
            .clone();
        if withdraws {
            let to = cmd["move"]["to"].as_array().unwrap_or_else(|| panic!("a withdrawal: {cmd}"));
            assert!(to[1].as_f64().unwrap() < 41.0, "away from the farm, to its own edge: {cmd}");
            out += 1;
        } else {
            assert!(cmd.get("assault").is_some(), "another round: {cmd}");
            on += 1;
        }
    }
    assert!(out > 0 && on > 0, "withdrew {out}, fought on {on}");
}

const ONE_ON_ONE: &str = "Assaults: 1-on-1 attacks";
const SENTRY: &str = r#"(men: 1, weapon: "de_kar98k")"#;

/// A British soldier of `quality` alone at `british_at` under `orders`; the
/// German elements `germans` (id, figures, place), the first of them the
/// sentry the Germans hold "the post" at, the Company Officer with the last.
fn post(quality: &str, british_at: (f32, f32), orders: &str, germans: &[(&str, &str, (f32, f32))]) -> Scenario {
    let post = germans[0].2;
    let last = germans.last().unwrap().0;
    let elements: Vec<String> = germans
        .iter()
        .map(|(id, figures, at)| format!(r#"(id: "{id}", figures: [{figures}], start: at({}, {}))"#, at.0, at.1))
        .collect();
    let text = format!(
        r#"(
    name: "Post", briefing: "test", table: (width: 72, depth: 48), time_limit: 12,
    places: [(name: "the road", at: (36, 4)), (name: "the post", at: ({}, {}))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: {quality}, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: {orders},
            elements: [(id: "a1", nco: Regular, figures: [(men: 1, weapon: "gb_no4_rifle")], start: at({}, {}))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "{last}", objective: (activity: Hold, location: "the post"),
            elements: [{}])]),
    ],
)"#,
        post.0,
        post.1,
        british_at.0,
        british_at.1,
        elements.join(", ")
    );
    Scenario::load("post.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

/// The rounds of a 1-on-1 fight among `new`, checked against the rules
/// core thrown with the same dice; the winner.
fn fight_matches_the_rules(new: &[Entry], quality: warbound_rules::officer::Quality) -> Option<String> {
    let rounds: Vec<&Entry> =
        new.iter().filter(|e| e.event.rule.section == ONE_ON_ONE && input(e, "round").is_some()).collect();
    if rounds.is_empty() {
        return None;
    }
    let faces: Vec<u8> = rounds.iter().flat_map(|e| e.event.dice.iter().map(|t| t.face)).collect();
    let mut dice = warbound_rules::dice::Scripted::new(faces);
    let (fight, events) = warbound_rules::assault::one_on_one(1, 1, quality, &mut dice, "a1").unwrap();
    assert_eq!(events.len(), rounds.len(), "one event a round");
    for (logged, thrown) in rounds.iter().zip(&events) {
        assert_eq!(logged.event.outcome, thrown.outcome);
        assert_eq!(logged.event.actor.as_deref(), Some("a1"));
        assert_eq!(logged.event.target.as_deref(), Some("g1"));
    }
    let winner = serde_json::to_value(fight.winner).unwrap().as_str().unwrap().to_owned();
    Some(winner)
}

#[test]
fn a_lone_man_attacks_a_sentry_1_on_1() {
    // HA "1-on-1 attacks": "A single attacker can make a 1-on-1 attack on a
    // single defender/guard"; 3+ wins, else the guard beats him on 4+, and
    // "the fight continues until resolved". The loser is a casualty; after a
    // win the attacker "can remain at the position of the attack".
    let scenario = post("Regular", (30.0, 37.6), HOLD_ROAD, &[("g1", SENTRY, (30.0, 39.5))]);
    let (mut won, mut lost) = (0, 0);
    for seed in 0..40 {
        let Some(mut app) = a1_to_act(scenario.clone(), seed, Phase::Fire, true) else { continue };
        let (a1, g1) = (element(&app, "a1"), element(&app, "g1"));
        if !g1.presence.status.on_table() || distance(a1.place.at, g1.place.at).get() > 2.0 {
            continue;
        }
        let before = log(&app).len();
        play::command(&mut app, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
        assert_eq!(refused_by(&app), None, "seed {seed}");
        let new = log(&app)[before..].to_vec();
        assert!(new.iter().all(|e| e.event.rule.section != CLOSE), "seed {seed}: no close assault");
        let quality = a1.force.fire_and_cm_quality();
        let winner = fight_matches_the_rules(&new, quality).unwrap_or_else(|| panic!("seed {seed}: no fight"));
        let (a1_after, g1_after) = (element(&app, "a1"), element(&app, "g1"));
        let destroyed = warbound_battle::state::Status::Destroyed;
        if winner == "attacker" {
            won += 1;
            assert_eq!((g1_after.men(), g1_after.presence.status), (0, destroyed), "seed {seed}");
            assert_eq!(a1_after.men(), 1, "seed {seed}");
            assert_eq!(a1_after.place.at, a1.place.at, "seed {seed}: the attacker stays where he attacked");
        } else {
            lost += 1;
            assert_eq!((a1_after.men(), a1_after.presence.status), (0, destroyed), "seed {seed}");
            assert_eq!(g1_after.men(), 1, "seed {seed}");
        }
    }
    assert!(won > 0 && lost > 0, "won {won}, lost {lost}");
}

#[test]
fn a_lone_man_closes_by_stealth_and_stops_short_without_a_fight() {
    // HA "1-on-1 attacks": "The attacker can make a \"stealth\" move (see
    // Movement) towards the defender/guard": 1D6 inches for a regular. A
    // throw short of contact calls the attack off where the move ends.
    let scenario = post("Regular", (30.0, 34.0), HOLD_ROAD, &[("g1", SENTRY, (30.0, 39.5))]);
    let (mut short, mut fought) = (0, 0);
    for seed in 0..40 {
        let Some(mut app) = a1_to_act(scenario.clone(), seed, Phase::Move, true) else { continue };
        let (a1, g1) = (element(&app, "a1"), element(&app, "g1"));
        let gap = distance(a1.place.at, g1.place.at).get();
        if !g1.presence.status.on_table() || gap <= 2.0 || gap > 8.0 {
            continue;
        }
        let before = log(&app).len();
        play::command(&mut app, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
        assert_eq!(refused_by(&app), None, "seed {seed}");
        let new = log(&app)[before..].to_vec();
        let mv = new
            .iter()
            .find(|e| e.event.kind == EventKind::Movement && e.event.actor.as_deref() == Some("a1"))
            .unwrap_or_else(|| panic!("seed {seed}: a1's move"));
        let dice = mv.event.inputs.iter().find(|i| i.name == "dice").unwrap();
        assert!(dice.reason.contains("stealth"), "seed {seed}: {}", dice.reason);
        assert_eq!(dice.value, serde_json::json!(1), "seed {seed}: a regular's stealth move is 1D6");
        let a1_after = element(&app, "a1");
        if a1_after.presence.status.on_table() {
            assert!(a1_after.actions.this_bound.stealthy, "seed {seed}: marked as a stealth move");
        }
        if new.iter().any(|e| e.event.rule.section == "Coming up short") {
            short += 1;
            assert!(new.iter().all(|e| e.event.rule.section != ONE_ON_ONE), "seed {seed}: no fight when short");
            assert!(new.iter().all(|e| e.event.kind != EventKind::Fire), "seed {seed}: no fire either");
            assert!(distance(a1_after.place.at, g1.place.at).get() > 2.0, "seed {seed}");
            assert!(distance(a1_after.place.at, a1.place.at).get() <= 6.0, "seed {seed}: no further than 1D6");
        } else {
            fought += 1;
            assert!(fight_matches_the_rules(&new, a1.force.fire_and_cm_quality()).is_some(), "seed {seed}");
        }
    }
    assert!(short > 0 && fought > 0, "short {short}, fought {fought}");
}

#[test]
fn an_alerted_sentry_warns_friends_within_12_inches() {
    // HA "1-on-1 attacks": "In all cases where the attack is unsuccessful,
    // the defender/guard alerts friendly troops within 12 inches on a D6
    // throw of 2+." The alerted know of the attacker; friends further off
    // do not. A poor attacker (-1) fails more often.
    let germans = [("g1", SENTRY, (30.0, 39.5)), ("g2", SENTRY, (20.0, 45.0)), ("g3", SENTRY, (55.0, 45.0))];
    let scenario = post("Poor", (30.0, 37.6), HOLD_ROAD, &germans);
    let (mut alerted, mut quiet) = (0, 0);
    // Friends within and beyond 12" who did not know of the attacker when the guard was alerted.
    let (mut warned, mut unwarned) = (0, 0);
    for seed in 0..60 {
        let Some(mut app) = a1_to_act(scenario.clone(), seed, Phase::Fire, true) else { continue };
        let (a1, g1) = (element(&app, "a1"), element(&app, "g1"));
        if !g1.presence.status.on_table() || distance(a1.place.at, g1.place.at).get() > 2.0 {
            continue;
        }
        let friends: Vec<(String, bool, f32)> = ["g2", "g3"]
            .iter()
            .map(|id| element(&app, id))
            .filter(|f| f.presence.status.on_table())
            .map(|f| (f.id().to_owned(), f.intel.known.contains("a1"), distance(f.place.at, g1.place.at).get()))
            .collect();
        let before = log(&app).len();
        play::command(&mut app, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
        assert_eq!(refused_by(&app), None, "seed {seed}");
        let new = log(&app)[before..].to_vec();
        let last = new.iter().rfind(|e| e.event.rule.section == ONE_ON_ONE && input(e, "round").is_some()).unwrap();
        let alarm = last.event.outcome["alerted"] == serde_json::json!(true);
        if alarm {
            alerted += 1;
        } else {
            quiet += 1;
        }
        for (id, knew, d) in friends {
            let knows = element(&app, &id).intel.known.contains("a1");
            let expected = knew || (alarm && d <= 12.0);
            assert_eq!(knows, expected, "seed {seed}: {id} {d:.1}\" off, alerted {alarm}");
            if alarm && !knew {
                if d <= 12.0 {
                    warned += 1;
                } else {
                    unwarned += 1;
                }
            }
        }
    }
    assert!(alerted > 0 && quiet > 0, "alerted {alerted}, quiet {quiet}");
    assert!(warned > 0 && unwarned > 0, "warned {warned}, not warned {unwarned}");
}

#[test]
fn two_men_do_not_attack_a_man_in_the_open_1_on_1() {
    // HA "1-on-1 attacks" are "a single attacker ... on a single
    // defender/guard": two men assault no one in the open, nor does one man
    // assault a section there; they fire (HA "Close assaults").
    let pair = farm_at(2, (30.0, 37.6), (30.0, 39.5), SENTRY, (HOLD_ROAD, HOLD_FARM));
    let mut app = first_turn(&pair, Phase::Fire, true);
    play::command(&mut app, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some(CLOSE));
    let one = farm_at(1, (30.0, 37.6), (30.0, 39.5), SECTION, (HOLD_ROAD, HOLD_FARM));
    let mut app = first_turn(&one, Phase::Fire, true);
    play::command(&mut app, Command::Assault { element: "a1".into(), target: "g1".into() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some(CLOSE));
}

#[test]
fn the_player_is_offered_a_1_on_1_attack_with_its_odds() {
    // HA "1-on-1 attacks": a regular wins each round on 3+ (4 in 6) and
    // loses it on the guard's 4+ after a failure (1 in 6), so he wins the
    // fight 4 times in 5.
    let scenario = post("Regular", (30.0, 35.0), HOLD_ROAD, &[("g1", SENTRY, (30.0, 39.5))]);
    let mut app = first_turn(&scenario, Phase::Move, true);
    let Some(warbound_battle::options::Decision::Act { offers, .. }) =
        warbound_battle::options::decision(app.world_mut())
    else {
        panic!("no element's decision")
    };
    let offer = offers.iter().find(|o| matches!(o.command, Command::Assault { .. })).expect("the attack on offer");
    let odds = warbound_rules::assault::one_on_one_odds(warbound_rules::officer::Quality::Regular);
    assert!((odds - 0.8).abs() < 1e-9);
    assert!(offer.label.starts_with("Assault G1 1-on-1"), "{}", offer.label);
    assert!(offer.label.contains("stealth move") && offer.label.contains("80% to win"), "{}", offer.label);
    assert_eq!(offer.refused, None);
}

/// The first command the Auto side gives for a lone a1 at its turn under a
/// Move order, sent to contact the lone sentry g1 at (30, 39.5) from `british_at`.
fn lone_auto_first_command(british_at: (f32, f32)) -> serde_json::Value {
    let contact = r#"(activity: ContactEnemy, location: "the post")"#;
    first_auto_command(&post("Regular", british_at, contact, &[("g1", SENTRY, (30.0, 39.5))]))
}

#[test]
fn the_auto_side_attacks_a_lone_sentry_1_on_1() {
    // HA "1-on-1 attacks": the attacker makes a stealth move (1D6 for a
    // regular) towards the guard. 4" from contact the D6 reaches it on 4+,
    // so the Auto side attacks; 6" from contact only on a 6, so it does not.
    let near = lone_auto_first_command((30.0, 33.5));
    assert_eq!(near["assault"]["target"], serde_json::json!("g1"), "4 inches to contact: {near}");
    let far = lone_auto_first_command((30.0, 31.5));
    assert!(far.get("assault").is_none(), "6 inches to contact: {far}");
}

#[test]
fn the_rules_report_counts_1_on_1_attacks_as_played() {
    // HA "1-on-1 attacks", Auto against Auto: a lone British soldier sent to
    // contact a lone German sentry attacks him; each fight changes the
    // state (a figure lost), is won by one side or the other, and breaks no
    // invariant, the alerted friend 11.4" off included.
    let contact = r#"(activity: ContactEnemy, location: "the post")"#;
    let germans = [("g1", SENTRY, (30.0, 39.5)), ("g2", SENTRY, (20.0, 45.0))];
    let scenario = post("Regular", (30.0, 33.5), contact, &germans);
    let report = warbound_battle::report::rules_report(&codex(), &[("post".to_owned(), scenario)], 40);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let row = report.rule(warbound_rules::event::Book::HeroesAll, ONE_ON_ONE).expect("its row");
    assert_eq!(row.status(), warbound_battle::report::Status::Played, "{row:?}");
    // The alert's news and the loser's fall are credited to the fight.
    let logged = report.logged(warbound_rules::event::Book::HeroesAll, ONE_ON_ONE).expect("its events");
    for change in ["Change::Knows", "Change::LoseMen", "Change::Leave"] {
        assert!(logged.changes.get(change).is_some_and(|&n| n > 0), "{change}: {:?}", logged.changes);
    }
    let a = report.assaults;
    assert!(a.won > 0 && a.lost > 0, "{a:?}");
}

/// A battle watched in the window stops after the step that logs an assault,
/// waits while the view shows it, and goes on when let go; the battle played
/// is the same as unwatched.
#[test]
fn a_watched_assault_holds_the_flow_until_the_view_lets_it_go() {
    use warbound_battle::WatchAssaults;
    let codex = codex();
    let river = shipped::battle("river", &codex).expect("the river battle loads");
    // Seeds of the river battle until one has an assault.
    let (seed, whole) = (1..=12)
        .find_map(|seed| {
            let start = BattleStart::auto("river", river.clone(), seed);
            let (app, _) = play::autoplay(start, BattleLog::default(), codex.clone()).expect("the river plays");
            let whole = log(&app);
            whole.iter().any(|e| e.event.kind == EventKind::Assault).then_some((seed, whole))
        })
        .expect("a river battle with an assault in 12 seeds");
    let start = BattleStart::auto("river", river, seed);
    let mut app = play::battle_app(start, BattleLog::default(), codex).unwrap();
    app.insert_resource(WatchAssaults::default());
    // One flow step an update, to see where the hold falls.
    app.insert_resource(warbound_battle::FlowPace(1));
    let mut holds = 0;
    for _ in 0..100_000 {
        let before = app.world().resource::<BattleLog>().entries.len();
        app.update();
        if play::is_over(app.world()) {
            break;
        }
        if app.world().resource::<WatchAssaults>().held {
            holds += 1;
            let at = log(&app);
            let step = &at[before..];
            assert!(step.iter().any(|e| e.event.kind == EventKind::Assault), "held after the step of an assault");
            // Held at once: nothing after the assault is of a later bound's
            // (the step may open with the bound whose first turn assaults).
            let from = step.iter().position(|e| e.event.kind == EventKind::Assault).unwrap();
            assert!(
                step[from..].iter().all(|e| e.event.kind != EventKind::OpcDeal && e.event.kind != EventKind::Bound)
            );
            app.update();
            assert_eq!(log(&app).len(), at.len(), "nothing happens while the view shows the assault");
            app.world_mut().resource_mut::<WatchAssaults>().held = false;
        }
    }
    assert!(holds >= 1, "seed {seed}: the assault was watched");
    let watched = log(&app);
    assert_eq!(watched.len(), whole.len(), "the same battle watched or not");
    assert!(watched.iter().zip(&whole).all(|(a, b)| a.event == b.event));
}
