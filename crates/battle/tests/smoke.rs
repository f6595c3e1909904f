//! Smoke played (*Heroes All*, "Firing smoke"): "A smoke round counts as
//! one round of the guns allocation. Pick the target for the smoke and fire
//! as usual with a +2 hit modifier on the D6. If a hit is obtained, place 3 x
//! 1 inch smokeballs on this spot for 2 bounds."

use std::sync::Arc;

use warbound_battle::{
    FlowPace,
    command::Command,
    log::{BattleLog, Entry},
    play,
    prelude::*,
    setup::{BattleStart, Control},
    shipped,
    state::{Battle, ElementBundle, Flow, Sides, Smoke},
    visible::Sight,
};
use warbound_rules::{
    codex::Codex,
    event::{Book, EventKind},
    firing::SmokeScreen,
    order_dice::Phase,
    scenario::Scenario,
    terrain::Point,
};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

/// A British platoon `a1` (riflemen and a 2-inch mortar) at (36, 4) and a
/// 2-inch mortar team `m1` at (30, 2) of the same company, against a German
/// section `g1` with an MG at (36, 22); both on open ground.
fn open_ground(british_order: &str, german_order: &str) -> Scenario {
    let text = format!(
        r#"(
    name: "Open ground", briefing: "test", table: (width: 72, depth: 48), time_limit: 8,
    places: [(name: "the start line", at: (36, 4)), (name: "the farm", at: (36, 22))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: {british_order},
            elements: [
                (id: "a1", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(36, 4)),
                (id: "m1", nco: Regular, pieces: [(codex: "gb_2in_mortar")], start: at(30, 2),
                 order: (activity: Support, location: "the start line", detail: "a1")),
            ])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: {german_order},
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], pieces: [(codex: "de_mg42_lmg")], start: at(36, 22))])]),
    ],
)"#
    );
    Scenario::load("open.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

const CONTACT_FARM: &str = r#"(activity: ContactEnemy, location: "the farm")"#;
const HOLD_FARM: &str = r#"(activity: Hold, location: "the farm")"#;

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

/// The British under the Player at `id`'s first turn, before anything has
/// happened to it, on the Order Die `order`, free to fire and knowing of g1.
fn to_act(scenario: Scenario, seed: u64, id: &str, order: Phase) -> Option<App> {
    let mut start = BattleStart::auto("open", scenario, seed);
    start.control = vec![Control::Player, Control::Auto];
    let mut app = play::battle_app(start, BattleLog::default(), codex()).unwrap();
    play::advance(&mut app).unwrap();
    for _ in 0..50 {
        match app.world().resource::<Flow>().clone() {
            Flow::Acting(turn) if turn.element == id => break,
            Flow::Acting(turn) => {
                play::command(&mut app, Command::EndTurn { element: turn.element }).unwrap();
            }
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
    if element(&app, id).force.element.cms <= 4 || app.world().resource::<Battle>().clock.bound() != 1 {
        return None;
    }
    let world = app.world_mut();
    let Flow::Acting(turn) = &mut *world.resource_mut::<Flow>() else { return None };
    if turn.element != id || !turn.taken.is_empty() {
        return None;
    }
    turn.orders.order = order;
    turn.orders.can_fire = true;
    turn.orders.movement = warbound_rules::momentum::CmMovement::Free;
    turn.orders.open_sights_penalty = 0;
    turn.failures = 0;
    let mut q = world.query::<(&warbound_battle::state::Identity, &mut warbound_battle::state::Intel)>();
    for (identity, mut intel) in q.iter_mut(world) {
        if identity.side == 0 {
            intel.known.insert("g1".to_owned());
        }
    }
    Some(app)
}

/// The smoke screens standing.
fn smoke(app: &App) -> Vec<Smoke> {
    app.world().resource::<Battle>().smoke.clone()
}

/// A screen laid by `by` on `spot` from `from` in bound `bound`.
fn screen(by: &str, spot: Point, from: Point, bound: u32) -> Smoke {
    Smoke {
        by: by.to_owned(),
        spot,
        balls: warbound_rules::geometry::smokeballs(spot, from),
        screen: SmokeScreen { fired_in: bound },
    }
}

#[test]
fn smoke_blocks_an_observation_that_was_possible_before() {
    let app = to_act(open_ground(HOLD_FARM, HOLD_FARM), 1, "a1", Phase::Fire)
        .or_else(|| (2..40).find_map(|s| to_act(open_ground(HOLD_FARM, HOLD_FARM), s, "a1", Phase::Fire)))
        .expect("a1 acts first on some seed");
    let (a1, g1) = (element(&app, "a1"), element(&app, "g1"));
    let codex = codex();
    let mut battle = app.world().resource::<Battle>().clone();
    let sight = Sight::new(&battle, &codex);
    assert!(sight.in_view(&a1.view(), &g1.view()), "nothing stands between them on open ground");
    assert!(sight.may_fire_at(&a1.view(), &g1.view()));
    // Smoke between them, on the line from a1 to g1.
    battle.smoke.push(screen("m1", Point(36.0, 13.0), Point(30.0, 2.0), 1));
    let sight = Sight::new(&battle, &codex);
    assert!(!sight.in_view(&a1.view(), &g1.view()), "smoke hides what lies behind it");
    assert!(!sight.in_view(&g1.view(), &a1.view()), "both ways");
    assert!(!sight.may_fire_at(&a1.view(), &g1.view()), "only observed targets can be fired at");
    // Smoke on g1 itself: it is hidden in it, and sees nothing out of it.
    battle.smoke[0] = screen("m1", Point(36.0, 22.0), Point(30.0, 2.0), 1);
    let sight = Sight::new(&battle, &codex);
    assert!(!sight.in_view(&a1.view(), &g1.view()));
    assert!(!sight.place_in_sight(&g1.view(), Point(20.0, 22.0)), "nor out of it");
    // Off the line, it hides nothing.
    battle.smoke[0] = screen("m1", Point(50.0, 13.0), Point(30.0, 2.0), 1);
    assert!(Sight::new(&battle, &codex).in_view(&a1.view(), &g1.view()));
}

#[test]
fn smoke_hides_for_two_bounds() {
    // "place 3 x 1 inch smokeballs on this spot for 2 bounds": laid in bound
    // 1, it stands through bounds 1 and 2 and clears at the end of bound 2.
    let mut start = BattleStart::auto("open", open_ground(HOLD_FARM, HOLD_FARM), 3);
    start.control = vec![Control::Auto, Control::Auto];
    let mut app = play::battle_app(start, BattleLog::default(), codex()).unwrap();
    app.insert_resource(FlowPace(1));
    assert_eq!(app.world().resource::<Battle>().clock.bound(), 1);
    let laid = screen("m1", Point(36.0, 13.0), Point(30.0, 2.0), 1);
    app.world_mut().resource_mut::<Battle>().smoke.push(laid.clone());
    let mut standing = std::collections::BTreeMap::new();
    for _ in 0..play::MAX_UPDATES {
        let b = app.world().resource::<Battle>();
        let bound = b.clock.bound();
        standing.entry(bound).or_insert_with(Vec::new).push(b.smoke.len());
        if bound > 3 || play::is_over(app.world()) {
            break;
        }
        app.update();
    }
    assert!(standing[&1].iter().all(|&n| n == 1), "bound 1: {:?}", standing[&1]);
    assert!(standing[&2].iter().all(|&n| n == 1), "bound 2: {:?}", standing[&2]);
    assert!(standing[&3].iter().all(|&n| n == 0), "gone in bound 3: {:?}", standing[&3]);
    let cleared: Vec<Entry> = log(&app)
        .into_iter()
        .filter(|e| e.event.rule.section == "Firing smoke" && e.event.outcome["cleared"] == serde_json::json!(true))
        .collect();
    assert_eq!(cleared.len(), 1, "{cleared:?}");
    assert_eq!(cleared[0].bound, 2, "cleared at the end of its second bound");
    assert_eq!(input(&cleared[0], "laid_in"), Some(&serde_json::json!(1)));
}

#[test]
fn a_smoke_round_is_thrown_with_its_plus_two_and_lays_three_smokeballs() {
    let spot = (36.0, 22.0);
    let mut laid = 0;
    let mut missed = 0;
    for seed in 0..60 {
        let Some(mut app) = to_act(open_ground(HOLD_FARM, HOLD_FARM), seed, "m1", Phase::Fire) else { continue };
        let before = log(&app).len();
        let rounds = element(&app, "m1").actions.shots_used;
        play::command(&mut app, Command::Smoke { element: "m1".into(), at: spot }).unwrap();
        let log = log(&app);
        let new = &log[before..];
        let accepted = new
            .iter()
            .find(|e| e.event.kind == EventKind::Command && e.event.actor.as_deref() == Some("m1"))
            .expect("the command is logged");
        assert_eq!(accepted.event.outcome["accepted"], serde_json::json!(true), "{:?}", accepted.event);
        // The light mortar fires as usual: "4+ on a D6 scores a hit (light
        // mortars and smoke shells only)", and the +2.
        let rounds_fired: Vec<&Entry> = new
            .iter()
            .filter(|e| e.event.rule.section == "Indirect Fire" && e.event.actor.as_deref() == Some("m1"))
            .collect();
        assert!(!rounds_fired.is_empty(), "a smoke round is thrown");
        for r in &rounds_fired {
            assert_eq!(input(r, "needed"), Some(&serde_json::json!(4)));
            assert!(input(r, "modifier").and_then(|m| m.as_i64()).is_some_and(|m| m >= 2), "{:?}", r.event);
        }
        // "A smoke round counts as one round of the guns allocation."
        assert_eq!(element(&app, "m1").actions.shots_used, rounds + 1);
        let hit = rounds_fired.iter().any(|r| r.event.outcome["hit"] == serde_json::json!(true));
        let screens = smoke(&app);
        if hit {
            laid += 1;
            assert_eq!(screens.len(), 1);
            let s = &screens[0];
            assert_eq!(s.spot, Point(spot.0, spot.1));
            assert_eq!(s.balls.len(), usize::from(SmokeScreen::BALLS));
            assert_eq!(s.balls[1], s.spot, "the middle smokeball on the spot");
            assert_eq!(s.screen.fired_in, 1);
            // The event is logged before the screen is laid.
            let lay = new.iter().position(|e| e.event.rule.section == "Firing smoke").expect("the screen is logged");
            assert!(new[..lay].iter().any(|e| e.event.rule.section == "Indirect Fire"));
            assert_eq!(new[lay].event.rule.book, Book::HeroesAll);
        } else {
            missed += 1;
            assert!(screens.is_empty(), "a miss lays nothing");
        }
        if laid > 0 && missed > 0 {
            break;
        }
    }
    assert!(laid > 0, "some round hits");
}

#[test]
fn a_rifle_section_has_no_smoke_to_fire() {
    let app = (0..40)
        .find_map(|s| to_act(open_ground(HOLD_FARM, HOLD_FARM), s, "a1", Phase::Fire))
        .expect("a1 acts first on some seed");
    let mut app = app;
    play::command(&mut app, Command::Smoke { element: "a1".into(), at: (36.0, 22.0) }).unwrap();
    let last = log(&app).into_iter().rev().find(|e| e.event.kind == EventKind::Command).unwrap();
    assert_eq!(last.event.outcome["accepted"], serde_json::json!(false));
    assert_eq!(last.event.rule.section, "Firing smoke");
    assert!(smoke(&app).is_empty());
}

#[test]
fn the_auto_side_screens_its_infantry_with_smoke() {
    // a1 must cross the open to the farm under g1's MG; m1, supporting,
    // lays smoke on g1 rather than fire HE at it.
    let app = (0..60)
        .find_map(|s| to_act(open_ground(CONTACT_FARM, HOLD_FARM), s, "m1", Phase::Fire))
        .expect("m1 acts first on some seed");
    let mut app = app;
    let seen = log(&app).len();
    app.world_mut().resource_mut::<Sides>().0[0].control = Control::Auto;
    play::advance(&mut app).unwrap();
    let log = log(&app);
    let first = log[seen..]
        .iter()
        .find(|e| e.event.kind == EventKind::Command && e.event.actor.as_deref() == Some("m1"))
        .expect("a command for m1");
    let cmd = input(first, "command").expect("the command given");
    let at = cmd.get("smoke").and_then(|s| s.get("at")).unwrap_or_else(|| panic!("smoke: {cmd}"));
    assert_eq!(at, &serde_json::json!([36.0, 22.0]), "on g1's position");
    assert_eq!(first.event.outcome["accepted"], serde_json::json!(true));
}
