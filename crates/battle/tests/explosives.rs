//! Charges and Bangalore Torpedoes set during the battle (*Heroes All*,
//! "Explosives"): "Setting a charge requires a figure to be in contact with
//! the target for 1 bound using both Acts ... without carrying out any other
//! activity"; "Bangalore Torpedoes are set using 2 Acts ... and affect
//! wire/obstacles 2 inches in front of the user. They explode on the bound
//! they are set"; they "create a gap in wire or walling 1 figure wide".

use std::sync::Arc;

use warbound_battle::{
    FlowPace,
    command::Command,
    log::{BattleLog, Entry},
    options::{Decision, decision},
    play,
    prelude::*,
    setup::{BattleStart, Control},
    shipped,
    state::{Battle, ElementBundle, Flow, Sides},
};
use warbound_rules::{
    codex::Codex,
    event::EventKind,
    explosives::{ChargeKind, ChargeState},
    geometry,
    movement::Terrain as Ground,
    order_dice::Phase,
    scenario::Scenario,
    terrain::Point,
};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

/// A British section `a1` carrying `explosives` at `at`, wire across the
/// table at y 10 and a bridge over a brook at y 30 (x 36), against a
/// German section holding far off.
fn table(at: (f32, f32), explosives: &str) -> Scenario {
    let text = format!(
        r#"(
    name: "Explosives", briefing: "test", table: (width: 72, depth: 48), time_limit: 8,
    terrain: (features: [
        Wire(Line([(0, 10), (72, 10)])),
        River(kind: small, line: [(0, 30), (72, 30)], width: 3,
              bridges: [(kind: B, span: (from: (36, 27), to: (36, 33), width: 2))]),
    ]),
    places: [(name: "the bridge", at: (36, 30)), (name: "the farm", at: (60, 44))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1",
            objective: (activity: Engineering, location: "the bridge", detail: "the bridge"),
            elements: [
                (id: "a1", nco: Regular, figures: [(men: 6, weapon: "gb_no4_rifle")], explosives: {explosives},
                 start: at({}, {})),
                (id: "a2", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(10, 2)),
                (id: "a3", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(14, 2)),
            ])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(60, 44))])]),
    ],
)"#,
        at.0, at.1
    );
    Scenario::load("explosives.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

fn log(app: &App) -> Vec<Entry> {
    app.world().resource::<BattleLog>().entries.clone()
}

fn element(app: &App, id: &str) -> ElementBundle {
    warbound_battle::state::elements(app.world()).into_iter().find(|f| f.id() == id).unwrap()
}

/// The battle at `a1`'s first turn under the Player, nothing taken, on an
/// Act order with its movement free; `None` where the seed does not get there.
fn to_act(scenario: Scenario, seed: u64) -> Option<App> {
    let mut start = BattleStart::auto("explosives", scenario, seed);
    start.control = vec![Control::Player, Control::Auto];
    let mut app = play::battle_app(start, BattleLog::default(), codex()).unwrap();
    play::advance(&mut app).unwrap();
    carry_on(&mut app, |flow, _| matches!(flow, Flow::Acting(turn) if turn.element == "a1"));
    let world = app.world_mut();
    let Flow::Acting(turn) = &mut *world.resource_mut::<Flow>() else { return None };
    if turn.element != "a1" || !turn.taken.is_empty() {
        return None;
    }
    turn.orders.order = Phase::Act;
    turn.orders.movement = warbound_rules::momentum::CmMovement::Free;
    turn.failures = 0;
    Some(app)
}

/// Plays on, the Player's elements ending their turns and his officers
/// carrying on, until `until` holds or the battle is over.
fn carry_on(app: &mut App, until: impl Fn(&Flow, u32) -> bool) {
    for _ in 0..500 {
        let flow = app.world().resource::<Flow>().clone();
        if until(&flow, app.world().resource::<Battle>().clock.bound()) || play::is_over(app.world()) {
            return;
        }
        let cmd = match flow {
            Flow::Acting(turn) => Command::EndTurn { element: turn.element },
            Flow::CoTurn { side, company, .. } => {
                let id = app.world().resource::<Sides>().0[side].companies[company].id.clone();
                Command::Command { company: id, orders: vec![], rally: vec![] }
            }
            Flow::Session { side } => Command::Session { side, commit: vec![], objectives: vec![], withdraw: false },
            Flow::Seize { element } => Command::Seize { element, swap_with: None },
            _ => return,
        };
        play::command(app, cmd).unwrap();
    }
}

fn first_turn(scenario: impl Fn() -> Scenario) -> App {
    (0..40).find_map(|seed| to_act(scenario(), seed)).expect("a1 acts with nothing taken on some seed")
}

/// The last command's event: accepted, or its refusal.
fn accepted(app: &App) -> Result<(), String> {
    let l = log(app);
    let e = l.iter().rev().find(|e| e.event.kind == EventKind::Command).expect("a command event");
    if e.event.outcome["accepted"] == serde_json::json!(true) {
        Ok(())
    } else {
        Err(e.event.outcome["reason"].as_str().unwrap_or_default().to_owned())
    }
}

fn wire_crossed(battle: &Battle, from: Point, to: Point) -> bool {
    let r = geometry::route(&battle.terrain, &[from, to]).unwrap();
    r.stretches.iter().any(|s| s.terrain == Ground::Wire)
}

#[test]
fn a_bangalore_gaps_the_wire_and_the_section_walks_through() {
    let mut app = first_turn(|| table((36.0, 9.0), "[bangalore]"));
    let at = element(&app, "a1").place.at;
    let beyond = Point(36.0, 20.0);
    assert!(wire_crossed(app.world().resource::<Battle>(), at, beyond), "the wire stands across its way");
    // The Orders window offers it, towards where its orders take it.
    let Some(Decision::Act { offers, .. }) = decision(app.world_mut()) else { panic!("a1's offers") };
    let offer = offers.iter().find(|o| matches!(o.command, Command::Bangalore { .. })).expect("a Bangalore offered");
    assert_eq!(offer.refused, None, "{}", offer.label);
    play::command(&mut app, Command::Bangalore { element: "a1".into(), toward: (36.0, 20.0) }).unwrap();
    assert_eq!(accepted(&app), Ok(()));
    let battle = app.world().resource::<Battle>().clone();
    assert_eq!(battle.terrain.gaps.len(), 1);
    let gap = battle.terrain.gaps[0];
    assert!((gap.at.0 - 36.0).abs() < 1e-3 && (gap.at.1 - 10.0).abs() < 1e-3, "1\" ahead, on the wire: {gap:?}");
    assert!(element(&app, "a1").force.explosives.is_empty(), "the Bangalore is spent");
    assert!(!wire_crossed(&battle, at, beyond), "straight on, through the gap");
    assert!(wire_crossed(&battle, Point(30.0, 9.0), Point(30.0, 20.0)), "the wire stands elsewhere");
    let gap_event = log(&app)
        .into_iter()
        .find(|e| e.event.kind == EventKind::Explosives && e.event.outcome["state"] == serde_json::json!("gap"))
        .expect("the gap is logged");
    assert_eq!(gap_event.event.actor.as_deref(), Some("a1"));
    assert_eq!(gap_event.event.outcome["in"], serde_json::json!("wire"));
    // The Act phase is taken; it may still move, through the gap.
    let Flow::Acting(turn) = app.world().resource::<Flow>().clone() else { panic!("its turn goes on") };
    assert!(turn.taken.contains(&Phase::Act));
    play::command(&mut app, Command::Move { element: "a1".into(), to: (36.0, 20.0), pace: Default::default() })
        .unwrap();
    assert_eq!(accepted(&app), Ok(()));
}

#[test]
fn a_bangalore_needs_one_carried_and_wire_within_two_inches() {
    let mut app = first_turn(|| table((36.0, 6.0), "[bangalore]"));
    play::command(&mut app, Command::Bangalore { element: "a1".into(), toward: (36.0, 20.0) }).unwrap();
    let why = accepted(&app).expect_err("the wire is 4\" ahead");
    assert!(why.contains("2 inches"), "{why}");
    let mut app = first_turn(|| table((36.0, 9.0), "[]"));
    play::command(&mut app, Command::Bangalore { element: "a1".into(), toward: (36.0, 20.0) }).unwrap();
    let why = accepted(&app).expect_err("none carried");
    assert!(why.contains("no Bangalore"), "{why}");
    // Nor is one offered.
    let Some(Decision::Act { offers, .. }) = decision(app.world_mut()) else { panic!("a1's offers") };
    assert!(!offers.iter().any(|o| matches!(o.command, Command::Bangalore { .. })));
}

#[test]
fn a_charge_set_on_a_bridge_goes_off_after_its_delay() {
    let mut app = first_turn(|| table((36.0, 26.5), "[large, small]"));
    let set = |kind, delay| Command::SetCharge { element: "a1".into(), kind, delay };
    for (cmd, words) in [
        (set(ChargeKind::Bangalore, 0), "carry no Bangalore"),
        (set(ChargeKind::Large, 11), "up to 10 bounds"),
        (set(ChargeKind::Small, 4), "up to 3 bounds"),
    ] {
        play::command(&mut app, cmd.clone()).unwrap();
        let why = accepted(&app).expect_err("refused");
        assert!(why.contains(words), "{cmd:?}: {why}");
    }
    let Some(Decision::Act { offers, .. }) = decision(app.world_mut()) else { panic!("a1's offers") };
    let sets: Vec<_> = offers.iter().filter(|o| matches!(o.command, Command::SetCharge { .. })).collect();
    assert_eq!(sets.len(), 4 + 5, "a small charge now or after 1-3 bounds, a large one also after 10: {sets:?}");
    assert!(sets.iter().all(|o| o.refused.is_none()));
    play::command(&mut app, set(ChargeKind::Large, 2)).unwrap();
    assert_eq!(accepted(&app), Ok(()));
    assert_eq!(element(&app, "a1").force.explosives, vec![ChargeKind::Small]);
    let charges = app.world().resource::<Battle>().charges.clone();
    assert_eq!(charges.len(), 1);
    assert_eq!(charges[0].charge.state, ChargeState::Delayed(2));
    assert_eq!((charges[0].side, charges[0].target.as_str()), (0, "bridge"));
    // The setters do nothing else this bound.
    assert!(!matches!(app.world().resource::<Flow>(), Flow::Acting(t) if t.element == "a1"));
    // Play on: the charge goes off at the end of bound 2.
    carry_on(&mut app, |_, bound| bound > 2);
    let l = log(&app);
    let blast = l
        .iter()
        .find(|e| e.event.kind == EventKind::Explosives && e.event.outcome.get("demolished").is_some())
        .expect("the charge went off");
    assert_eq!(blast.bound, 2, "set in bound 1 for 2 bounds");
    assert_eq!(blast.event.actor.as_deref(), Some(charges[0].id.as_str()));
    let bridge_hit = l.iter().any(|e| e.bound == 2 && e.event.rule.section == "Bridges");
    assert!(bridge_hit, "the blast falls on the bridge");
    let now = app.world().resource::<Battle>().charges[0].charge.state;
    assert_eq!(now, ChargeState::Detonated);
}

#[test]
fn a_small_charge_set_without_a_delay_goes_off_on_its_setters() {
    let mut app = first_turn(|| table((36.0, 26.5), "[small]"));
    let before = log(&app).len();
    play::command(&mut app, Command::SetCharge { element: "a1".into(), kind: ChargeKind::Small, delay: 0 }).unwrap();
    assert_eq!(accepted(&app), Ok(()));
    let l = log(&app);
    let after = &l[before..];
    let effect_on_a1 = after
        .iter()
        .any(|e| e.event.target.as_deref() == Some("a1") && e.event.inputs.iter().any(|i| i.name == "charge"));
    assert!(effect_on_a1, "the blast's table effect falls on its setters: {after:#?}");
    assert_eq!(app.world().resource::<Battle>().charges[0].charge.state, ChargeState::Detonated);
}

#[test]
fn the_auto_side_blows_the_beach_wire_with_its_bangalores() {
    let codex = codex();
    let mut gaps = 0;
    // Only a section whose way runs into the wire blows it: about 1 landing
    // in 20 (the rules report), so 100 of them.
    for seed in 0..100 {
        let scenario = shipped::battle("beach", &codex).unwrap();
        let start = BattleStart::auto("beach", scenario, seed);
        let mut app = play::battle_app(start, BattleLog::default(), codex.clone()).unwrap();
        app.insert_resource(FlowPace(1));
        for _ in 0..play::MAX_UPDATES {
            if play::is_over(app.world()) || app.world().resource::<Battle>().clock.bound() > 8 {
                break;
            }
            app.update();
        }
        let battle = app.world().resource::<Battle>();
        let logged = log(&app)
            .iter()
            .filter(|e| e.event.kind == EventKind::Explosives && e.event.outcome["state"] == serde_json::json!("gap"))
            .count();
        assert_eq!(logged, battle.terrain.gaps.len(), "seed {seed}: each gap logged once");
        gaps += logged;
    }
    assert!(gaps > 0, "no assault section blew the wire in 100 landings");
}
