//! Buildings brought down (*Heroes All*, "Petard type mortars", "Goliath",
//! "Setting fire to buildings"): the AVRE's petard at a house, its
//! refusals, the Goliath's breakdown, its detonation against a tank and its
//! 24 inches from its start; a fire set in the house.

use std::sync::Arc;

use warbound_battle::{
    command::Command,
    log::{BattleLog, Entry},
    play,
    prelude::*,
    setup::{BattleStart, Control},
    shipped,
    state::{Battle, ElementBundle, Flow, Place, Sides, Status},
};
use warbound_rules::{
    assault::{DEMOLITION, goliath_against_vehicle},
    buildings::{Building, Structure},
    codex::Codex,
    dice::Scripted,
    effects::{ArmourClass, VehicleState},
    event::EventKind,
    facing::{ahead, facing_along},
    order_dice::Phase,
    scenario::{Edge, Scenario},
    terrain::Point,
};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

/// A house from (38, 39) to (44, 44); the British element `a1` and the
/// German `g1` as written.
fn table(british: &str, german: &str) -> Scenario {
    let text = format!(
        r#"(
    name: "Demolition", briefing: "test", table: (width: 72, depth: 48), time_limit: 12,
    terrain: (features: [Building(outline: [(38, 39), (44, 39), (44, 44), (38, 44)], structure: house, storeys: 2)]),
    places: [(name: "the road", at: (36, 4)), (name: "the farm", at: (40, 40))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [(id: "a1", nco: Regular, {british})])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, {german})])]),
    ],
)"#
    );
    Scenario::load("demolition.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

fn avre_at(x: f32, y: f32) -> String {
    format!(r#"pieces: [(codex: "gb_churchill_avre")], start: at({x}, {y})"#)
}

fn section_at(x: f32, y: f32) -> String {
    format!(r#"figures: [(men: 8, weapon: "de_kar98k")], start: at({x}, {y})"#)
}

fn goliath_at(x: f32, y: f32) -> String {
    format!(r#"figures: [(men: 2, grade: elite)], pieces: [(codex: "de_goliath")], start: at({x}, {y})"#)
}

fn sherman_at(x: f32, y: f32) -> String {
    format!(r#"pieces: [(codex: "gb_sherman_v")], start: at({x}, {y})"#)
}

/// `id`'s side under the Player at `id`'s first turn, before anything has
/// happened to it, knowing its enemy, on the Order Die `order`.
fn to_act(scenario: Scenario, seed: u64, id: &str, order: Phase) -> Option<App> {
    let mut start = BattleStart::auto("demolition", scenario, seed);
    start.control =
        if id.starts_with('a') { vec![Control::Player, Control::Auto] } else { vec![Control::Auto, Control::Player] };
    let mut app = play::battle_app(start, BattleLog::default(), codex()).unwrap();
    play::advance(&mut app).unwrap();
    for _ in 0..50 {
        match app.world().resource::<Flow>().clone() {
            Flow::Acting(turn) if turn.element == id => break,
            Flow::CoTurn { side, company, .. } => {
                let co = app.world().resource::<Sides>().0[side].companies[company].id.clone();
                play::command(&mut app, Command::Command { company: co, orders: vec![], rally: vec![] }).unwrap();
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
    let untouched = elements(&app).iter().all(|f| f.force.element.cms == 6 && f.presence.status == Status::OnTable);
    if !untouched {
        return None;
    }
    let world = app.world_mut();
    let Flow::Acting(turn) = &mut *world.resource_mut::<Flow>() else { return None };
    if !turn.taken.is_empty() {
        return None;
    }
    turn.orders.order = order;
    turn.orders.can_fire = true;
    turn.orders.movement = warbound_rules::momentum::CmMovement::Free;
    turn.orders.movement_pips = 0;
    turn.failures = 0;
    let mut q = world.query::<(&warbound_battle::state::Force, &mut warbound_battle::state::Intel)>();
    for (force, mut intel) in q.iter_mut(world) {
        let enemy = if force.id() == "a1" { "g1" } else { "a1" };
        intel.known.insert(enemy.to_owned());
    }
    Some(app)
}

/// Every seed of 0..40 at which `id` acts first, ready.
fn turns(scenario: &Scenario, id: &str, order: Phase) -> Vec<App> {
    (0..40).filter_map(|s| to_act(scenario.clone(), s, id, order)).collect()
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

/// The German side's CMT: the CMS of its elements on the table.
fn german_cmt(app: &App) -> u32 {
    let els = elements(app);
    warbound_battle::outcome::cmt(els.iter().map(|f| f.view()), 1)
}

/// The rule and reason that refused the last command, or `None` if it was accepted.
fn refused_by(app: &App) -> Option<(String, String)> {
    let log = log(app);
    let last = &log.iter().rev().find(|e| e.event.kind == EventKind::Command).expect("a command").event;
    (last.outcome["accepted"] == serde_json::json!(false))
        .then(|| (last.rule.section.clone(), last.outcome["reason"].as_str().unwrap_or_default().to_owned()))
}

fn house(app: &App) -> Building {
    app.world().resource::<Battle>().buildings[0].1
}

#[test]
fn an_avre_five_inches_from_the_house_fires_its_petard_and_the_section_inside_pays_fourfold() {
    // HA "Petard type mortars": "Range is 6 inches. A hit is scored with 2+
    // on a D6. HE effect is ... column F with the resultant number of
    // casualties doubled. This will mean that casualties are quadrupled by
    // the 'hits on buildings' rule."
    let scenario = table(&avre_at(40.0, 35.0), &section_at(40.0, 40.0));
    let (mut hits, mut misses, mut men_lost) = (0, 0, 0);
    for mut app in turns(&scenario, "a1", Phase::Fire) {
        let before = log(&app).len();
        play::command(&mut app, Command::Petard { element: "a1".into(), target: "g1".into() }).unwrap();
        assert_eq!(refused_by(&app), None);
        let new: Vec<Entry> = log(&app)[before..].to_vec();
        let fired = new.iter().find(|e| e.event.rule.section == "Petard type mortars").expect("the petard fires");
        let face = fired.event.dice[0].face;
        let hit = fired.event.outcome["hit"].as_bool().unwrap();
        assert_eq!(hit, face >= 2, "2+ hits");
        let tested = new.iter().any(|e| {
            e.event.actor.as_deref() == Some("g1")
                && e.event.inputs.iter().any(|i| i.name == "fire" && i.value == "petard")
        });
        assert!(tested, "the section accrues its tests for the petard's fire");
        let on_house = new.iter().find(|e| e.event.rule.section == "Hits on buildings & structures");
        if !hit {
            misses += 1;
            assert!(on_house.is_none());
            assert_eq!(house(&app).points, 4, "a miss leaves the house standing");
            continue;
        }
        hits += 1;
        let on_house = on_house.expect("a hit goes on the house");
        let faces: Vec<u8> = on_house.event.dice.iter().map(|d| d.face).collect();
        let (expected, _) = Building::new(Structure::House).hit(DEMOLITION, 8, &mut Scripted::new(faces), "h").unwrap();
        // Column F doubled, doubled again: a 1 on column F is 4 pips, the house's 4.
        assert_eq!(expected.effect, DEMOLITION.column.casualties(on_house.event.dice[0].face) * 4);
        assert_eq!(on_house.event.outcome["casualties"].as_u64(), Some(u64::from(expected.casualties)));
        assert!(house(&app).points < 4, "the house loses its Defence Value");
        let lost = 8 - element(&app, "g1").men();
        assert_eq!(lost, u32::from(expected.casualties), "the section loses the surplus");
        men_lost += lost;
    }
    assert!(hits >= 10 && hits > misses * 2, "{hits} hits, {misses} misses");
    assert!(men_lost > 0, "the section lost men to the surplus");
}

#[test]
fn a_petard_at_seven_inches_is_refused() {
    let scenario = table(&avre_at(40.0, 33.0), &section_at(40.0, 40.0));
    let mut app = turns(&scenario, "a1", Phase::Fire).into_iter().next().expect("a1 acts first on some seed");
    let offers = match warbound_battle::options::decision(app.world_mut()) {
        Some(warbound_battle::options::Decision::Act { offers, .. }) => offers,
        other => panic!("{other:?}"),
    };
    let petard = offers.iter().find(|o| matches!(o.command, Command::Petard { .. })).expect("the petard is offered");
    assert!(petard.label.contains("83% to hit"), "{}", petard.label);
    assert!(petard.refused.as_deref().is_some_and(|r| r.contains("6 inches")), "{petard:?}");
    play::command(&mut app, Command::Petard { element: "a1".into(), target: "g1".into() }).unwrap();
    let (section, reason) = refused_by(&app).expect("refused");
    assert_eq!(section, "Petard type mortars");
    assert!(reason.contains("6 inches"), "{reason}");
}

#[test]
fn a_petard_at_men_in_the_open_is_refused() {
    let scenario = table(&avre_at(40.0, 26.0), &section_at(40.0, 30.0));
    let mut app = turns(&scenario, "a1", Phase::Fire).into_iter().next().expect("a1 acts first on some seed");
    play::command(&mut app, Command::Petard { element: "a1".into(), target: "g1".into() }).unwrap();
    let (section, reason) = refused_by(&app).expect("refused");
    assert_eq!(section, "Petard type mortars");
    assert!(reason.contains("only target buildings"), "{reason}");
    assert_eq!(element(&app, "g1").men(), 8);
}

#[test]
fn the_auto_avre_fires_its_petard_at_the_house_the_enemy_holds() {
    let scenario = table(&avre_at(40.0, 35.0), &section_at(40.0, 40.0));
    let fired = (0..8)
        .filter(|&seed| {
            let start = BattleStart::auto("demolition", scenario.clone(), seed);
            let mut app = play::battle_app(start, BattleLog::default(), codex()).unwrap();
            play::advance(&mut app).unwrap();
            log(&app)
                .iter()
                .any(|e| e.event.rule.section == "Petard type mortars" && e.event.actor.as_deref() == Some("a1"))
        })
        .count();
    assert!(fired >= 4, "the AVRE fired its petard in {fired} of 8 battles");
}

#[test]
fn a_goliath_breaks_down_on_a_one_or_two_and_leaves_with_its_crew() {
    // HA "Goliath": "Throw an additional D6 per bound. On a 1 or 2 the
    // machine breaks down and is removed from the table with the crew. The
    // CMT is reduced by their CM score."
    let scenario = table(&sherman_at(40.0, 35.0), &goliath_at(40.0, 10.0));
    let (mut broke, mut ran) = (0, 0);
    for mut app in turns(&scenario, "g1", Phase::Move) {
        assert_eq!(element(&app, "g1").place.mover.class, warbound_rules::movement::MoveClass::Goliath);
        let cmt = german_cmt(&app);
        let before = log(&app).len();
        play::command(&mut app, Command::Move { element: "g1".into(), to: (40.0, 20.0), pace: Default::default() })
            .unwrap();
        let new: Vec<Entry> = log(&app)[before..].to_vec();
        let mv = new.iter().find(|e| e.event.kind == EventKind::Movement).expect("the move is thrown");
        assert_eq!(mv.event.dice.len(), 2, "a D6 a bound, and the D6 for reliability");
        let reliability = mv.event.inputs.iter().find(|i| i.name == "goliath_reliability").expect("the extra D6");
        let face = reliability.value.as_u64().unwrap();
        let g = element(&app, "g1");
        if face <= 2 {
            broke += 1;
            assert_eq!(g.presence.status, Status::Destroyed);
            assert!(new.iter().any(|e| e.event.rule.section == "Goliath" && e.event.outcome["broke_down"] == true));
            assert_eq!(german_cmt(&app), cmt - 6, "the CMT falls by its CM score");
            assert!(!matches!(app.world().resource::<Flow>(), Flow::Acting(t) if t.element == "g1"));
        } else {
            ran += 1;
            assert_eq!(g.presence.status, Status::OnTable);
            assert!(g.place.at.1 - 10.0 <= 6.0 + 1e-3, "D6 inches: {:?}", g.place.at);
            assert_eq!(german_cmt(&app), cmt);
        }
    }
    assert!(broke >= 2 && ran >= 2, "{broke} broke down, {ran} ran");
}

#[test]
fn a_goliath_in_contact_with_a_tank_detonates_and_is_gone() {
    // HA "Goliath": "It is detonated at will with the effect of Attack Value +11".
    let tank = Point(40.0, 35.0);
    let g_at = Point(40.0, 36.5);
    let scenario = table(&sherman_at(tank.0, tank.1), &goliath_at(g_at.0, g_at.1));
    let seen = facing_along(tank, ahead(Edge::Near), g_at);
    let mut outcomes = std::collections::BTreeSet::new();
    let mut n = 0;
    for mut app in turns(&scenario, "g1", Phase::Act) {
        n += 1;
        let before = log(&app).len();
        play::command(&mut app, Command::Goliath { element: "g1".into(), target: "a1".into() }).unwrap();
        assert_eq!(refused_by(&app), None);
        let new: Vec<Entry> = log(&app)[before..].to_vec();
        assert!(new.iter().any(|e| e.event.rule.section == "Goliath" && e.event.kind == EventKind::Explosives));
        assert_eq!(element(&app, "g1").presence.status, Status::Destroyed, "destroyed by its detonation");
        let at = new
            .iter()
            .find(|e| e.event.inputs.iter().any(|i| i.name == "attack_value"))
            .expect("an AT hit on the tank");
        let attack = at.event.inputs.iter().find(|i| i.name == "attack_value").unwrap();
        assert_eq!(attack.value.as_i64(), Some(11));
        let face = at.event.dice[0].face;
        let (expected, _, _) =
            goliath_against_vehicle(ArmourClass::Medium, seen, VehicleState::Intact, &mut Scripted::new([face]));
        assert_eq!(element(&app, "a1").vehicle.state, Some(expected));
        outcomes.insert(format!("{expected:?}"));
    }
    assert!(n >= 5 && outcomes.len() >= 2, "{n} detonations: {outcomes:?}");
}

#[test]
fn a_goliath_out_of_contact_is_not_detonated() {
    let scenario = table(&sherman_at(40.0, 35.0), &goliath_at(40.0, 30.0));
    let mut app = turns(&scenario, "g1", Phase::Act).into_iter().next().expect("g1 acts first on some seed");
    play::command(&mut app, Command::Goliath { element: "g1".into(), target: "a1".into() }).unwrap();
    let (section, reason) = refused_by(&app).expect("refused");
    assert_eq!(section, "Goliath");
    assert!(reason.contains("in contact"), "{reason}");
    assert_eq!(element(&app, "g1").presence.status, Status::OnTable);
}

#[test]
fn a_goliath_is_not_driven_beyond_24_inches_from_its_start() {
    // HA "Goliath": "Range from the start point is 24 inches."
    let scenario = table(&sherman_at(60.0, 45.0), &goliath_at(10.0, 10.0));
    let mut app = turns(&scenario, "g1", Phase::Move).into_iter().next().expect("g1 acts first on some seed");
    assert_eq!(element(&app, "g1").place.deployed, Some(Point(10.0, 10.0)));
    // Driven 20 inches already: 6 more would take it 26 from where it was deployed.
    let world = app.world_mut();
    let mut q = world.query::<(&warbound_battle::state::Force, &mut Place)>();
    for (force, mut place) in q.iter_mut(world) {
        if force.id() == "g1" {
            place.at = Point(10.0, 30.0);
        }
    }
    play::command(&mut app, Command::Move { element: "g1".into(), to: (10.0, 36.0), pace: Default::default() })
        .unwrap();
    let (section, reason) = refused_by(&app).expect("refused");
    assert_eq!(section, "Goliath");
    assert!(reason.contains("24 inches"), "{reason}");
    play::command(&mut app, Command::Move { element: "g1".into(), to: (10.0, 33.0), pace: Default::default() })
        .unwrap();
    assert_eq!(refused_by(&app), None, "23 inches from its start");
}

#[test]
fn the_rules_report_credits_the_petard_and_the_goliath() {
    // Auto against Auto: the AVRE before the house the Germans hold, and a
    // Goliath sent at a Sherman.
    let codex = codex();
    let avre = table(&avre_at(40.0, 35.0), &section_at(40.0, 40.0));
    let goliath = table(&sherman_at(40.0, 35.0), &goliath_at(40.0, 30.0));
    let battles = [("avre".to_owned(), avre), ("goliath".to_owned(), goliath)];
    let report = warbound_battle::report::rules_report(&codex, &battles, 16);
    assert_eq!(report.failures, Vec::<String>::new());
    for name in ["Petard mortars", "Goliath"] {
        let row = report.rule(warbound_rules::event::Book::HeroesAll, name).unwrap();
        assert_eq!(row.status(), warbound_battle::report::Status::Played, "{name}: {row:?}");
    }
    let goliath = report.rule(warbound_rules::event::Book::HeroesAll, "Goliath").unwrap();
    assert!(goliath.outcomes.iter().any(|o| o.contains("detonation")), "a Goliath reaches the tank: {goliath:?}");
    assert!(goliath.outcomes.iter().any(|o| o.contains("broke_down: true")), "{goliath:?}");
}

#[test]
fn a_goliath_sent_at_a_tank_is_not_halted_nine_inches_short() {
    // HA "Spotting a potential ambush": an element "may not approach to
    // within 9 inches of any enemy held position without taking an
    // observation test using an Act"; the tank the Goliath is sent at is
    // observed (it knows of it).
    let scenario = table(&sherman_at(40.0, 35.0), &goliath_at(40.0, 24.0));
    let mut closer = 0;
    for mut app in turns(&scenario, "g1", Phase::Move) {
        play::command(&mut app, Command::Move { element: "g1".into(), to: (40.0, 33.5), pace: Default::default() })
            .unwrap();
        let log = log(&app);
        let mv = log.iter().rev().find(|e| e.event.kind == EventKind::Movement).unwrap();
        let g = element(&app, "g1");
        if g.presence.status == Status::OnTable {
            // The Player's move: the dice thrown, he may go as far as they allow.
            let thrown = mv.event.outcome["distance"].as_f64().unwrap() as f32;
            let Flow::Acting(turn) = app.world().resource::<Flow>().clone() else { panic!("g1 moves on") };
            let allowance = turn.pending_move.expect("the move is pending").allowance;
            assert_eq!(allowance, thrown, "no halt 9 inches short of the tank it is sent at");
            assert!(!log.iter().any(|e| e.event.rule.section == "Spotting a potential ambush"));
            closer += u32::from(allowance > 2.0);
        }
    }
    assert!(closer >= 3, "{closer} moves came within 9 inches of the tank");
}

fn british_section_at(x: f32, y: f32) -> String {
    format!(r#"figures: [(men: 8, weapon: "gb_no4_rifle")], start: at({x}, {y})"#)
}

#[test]
fn a_goliath_at_the_house_demolishes_it_on_column_f_doubled_and_doubled_again() {
    // HA "Goliath": "column F with the resultant number of casualties
    // doubled"; on a building the "hits on buildings" rule doubles it again.
    let scenario = table(&british_section_at(40.0, 40.0), &goliath_at(40.0, 37.5));
    let mut n = 0;
    for mut app in turns(&scenario, "g1", Phase::Act) {
        n += 1;
        let before = log(&app).len();
        play::command(&mut app, Command::Goliath { element: "g1".into(), target: "a1".into() }).unwrap();
        assert_eq!(refused_by(&app), None, "in contact with the house the section holds");
        let new: Vec<Entry> = log(&app)[before..].to_vec();
        let on_house = new
            .iter()
            .find(|e| e.event.rule.section == "Hits on buildings & structures")
            .expect("the charge goes on the house");
        let faces: Vec<u8> = on_house.event.dice.iter().map(|d| d.face).collect();
        let (expected, _) = Building::new(Structure::House).hit(DEMOLITION, 8, &mut Scripted::new(faces), "h").unwrap();
        assert_eq!(expected.effect, DEMOLITION.column.casualties(on_house.event.dice[0].face) * 4);
        assert!(house(&app).points < 4);
        assert_eq!(8 - element(&app, "a1").men(), u32::from(expected.casualties));
        assert_eq!(element(&app, "g1").presence.status, Status::Destroyed);
    }
    assert!(n >= 5, "{n}");
}

#[test]
fn a_goliath_among_men_in_the_open_kills_column_f_doubled() {
    let scenario = table(&british_section_at(40.0, 30.0), &goliath_at(40.0, 31.5));
    let mut lost_total = 0;
    for mut app in turns(&scenario, "g1", Phase::Act) {
        let before = log(&app).len();
        play::command(&mut app, Command::Goliath { element: "g1".into(), target: "a1".into() }).unwrap();
        let new: Vec<Entry> = log(&app)[before..].to_vec();
        let charge = new
            .iter()
            .find(|e| e.event.rule.section == "Goliath" && e.event.kind == EventKind::HeEffect)
            .expect("column F doubled on the men");
        let face = charge.event.dice[0].face;
        let expected = (DEMOLITION.column.casualties(face) * 2).min(8);
        assert_eq!(8 - element(&app, "a1").men(), u32::from(expected));
        lost_total += expected;
    }
    assert!(lost_total > 0);
}

/// Plays on into the next bound, where the fires set are thrown, every turn
/// of the Player's ended at once.
fn to_next_bound(app: &mut App) {
    let bound = app.world().resource::<Battle>().clock.bound();
    for _ in 0..200 {
        if play::is_over(app.world()) || app.world().resource::<Battle>().clock.bound() > bound {
            return;
        }
        let cmd = match app.world().resource::<Flow>().clone() {
            Flow::Acting(turn) => Command::EndTurn { element: turn.element },
            Flow::CoTurn { side, company, .. } => {
                let co = app.world().resource::<Sides>().0[side].companies[company].id.clone();
                Command::Command { company: co, orders: vec![], rally: vec![] }
            }
            Flow::Session { side } => Command::Session { side, commit: vec![], objectives: vec![], withdraw: false },
            Flow::Seize { element } => Command::Seize { element, swap_with: None },
            _ => {
                play::advance(app).unwrap();
                continue;
            }
        };
        play::command(app, cmd).unwrap();
    }
}

#[test]
fn a_fire_set_takes_hold_on_two_and_its_smoke_hides_the_building() {
    // HA "Setting fire to buildings": "1 figure may enter a building and stay
    // there for 1 bound to start a fire on an Act ... without taking any
    // other action. The fire takes hold next bound on a 2+ throw on a D6. It
    // burns for 3 bounds. Smoke is created the size of the building for
    // those 3 bounds."
    let outside = table(r#"figures: [(men: 6, weapon: "gb_no4_rifle")], start: at(30, 30)"#, &section_at(60.0, 20.0));
    let mut app = turns(&outside, "a1", Phase::Act).into_iter().next().expect("a turn");
    play::command(&mut app, Command::SetFire { element: "a1".into() }).unwrap();
    let refused = refused_by(&app).expect("refused outside a building");
    assert_eq!(refused.0, "Setting fire to buildings", "{refused:?}");

    let inside = table(r#"figures: [(men: 6, weapon: "gb_no4_rifle")], start: at(41, 41)"#, &section_at(60.0, 20.0));
    let codex = codex();
    let (mut thrown, mut took) = (0, 0);
    for mut app in turns(&inside, "a1", Phase::Act) {
        play::command(&mut app, Command::SetFire { element: "a1".into() }).unwrap();
        assert_eq!(refused_by(&app), None);
        let entries = log(&app);
        let set = entries
            .iter()
            .position(|e| {
                e.event.rule.section == "Setting fire to buildings"
                    && e.event.outcome["fire_set"] == serde_json::json!(true)
            })
            .expect("the fire is set");
        // The Act is the element's whole turn: its next deed is in a later bound.
        let next = entries[set + 1..]
            .iter()
            .find(|e| e.event.actor.as_deref() == Some("a1") && e.event.kind == EventKind::Command);
        assert!(next.is_none_or(|e| e.bound > entries[set].bound), "{next:?}");
        if !log(&app).iter().any(|e| e.event.outcome.get("burning").is_some()) {
            to_next_bound(&mut app);
        }
        let entries = log(&app);
        let Some(throw) = entries.iter().find(|e| e.event.outcome.get("burning").is_some()) else { continue };
        thrown += 1;
        let face = throw.event.dice[0].face;
        let burning = matches!(house(&app).state, warbound_rules::buildings::State::Burning { .. });
        assert_eq!(burning, face >= 2, "a {face} on the D6");
        if burning {
            took += 1;
            let battle = app.world().resource::<Battle>();
            let sight = warbound_battle::visible::Sight::new(battle, &codex);
            assert!(sight.smoke_between(Point(41.0, 30.0), Point(41.0, 47.0)), "the smoke fills the house");
            assert!(sight.smoke_between(Point(41.0, 41.0), Point(60.0, 20.0)), "nor may the men inside see out");
            assert!(!sight.smoke_between(Point(30.0, 30.0), Point(30.0, 47.0)), "beside it the air is clear");
        }
    }
    assert!(thrown > 0 && took > 0, "{thrown} fires thrown, {took} took hold");
}
