//! Transports (*Heroes All* and FYOB, "Transport elements"): "When they are
//! carrying an element, they will be under the command of the NCO of that
//! element who will dictate it's actions"; getting into or out of a vehicle
//! is an Act (FYOB, "Order Dice"); a brewed vehicle costs those aboard "a d6
//! and deduct 2" casualties, and they owe the tests of "If transport
//! destroyed whilst the element loaded".

use std::sync::Arc;

use warbound_battle::{
    command::Command,
    log::{BattleLog, Entry},
    options::{Decision, decision},
    play,
    prelude::*,
    setup::{BattleStart, Control},
    shipped,
    state::{ElementBundle, Flow, Force, Sides, Status, Vehicle},
};
use warbound_rules::{
    codex::Codex, effects::VehicleState, event::EventKind, geometry::distance, momentum::CmCause, order_dice::Phase,
    scenario::Scenario, terrain::Point,
};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

/// A British section `a1` aboard a 3-ton lorry at (36, 4), `a2` on foot at
/// `a2_at` and the 14 men of `a3` behind them, against a German section far off.
fn table(a2_at: (f32, f32)) -> Scenario {
    let text = format!(
        r#"(
    name: "Transport", briefing: "test", table: (width: 72, depth: 48), time_limit: 8,
    places: [(name: "the farm", at: (36, 40))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a2",
            objective: (activity: Reposition, location: "the farm"),
            elements: [
                (id: "a1", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], aboard: "lorry", start: at(36, 4)),
                (id: "lorry", pieces: [(codex: "gb_bedford_qld")], start: at(36, 4)),
                (id: "a2", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at({}, {})),
                (id: "a3", nco: Regular, figures: [(men: 14, weapon: "gb_no4_rifle")], start: at(20, 2)),
            ])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(60, 46))])]),
    ],
)"#,
        a2_at.0, a2_at.1
    );
    Scenario::load("transport.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

fn log(app: &App) -> Vec<Entry> {
    app.world().resource::<BattleLog>().entries.clone()
}

fn element(app: &App, id: &str) -> ElementBundle {
    warbound_battle::state::elements(app.world()).into_iter().find(|f| f.id() == id).unwrap()
}

/// Plays on, the Player's elements ending their turns and his officers
/// carrying on, until `until` holds or the battle is over.
fn carry_on(app: &mut App, until: impl Fn(&Flow) -> bool) {
    for _ in 0..500 {
        let flow = app.world().resource::<Flow>().clone();
        if until(&flow) || play::is_over(app.world()) {
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

/// The battle at `id`'s turn under the Player with nothing taken, on a
/// `order` order with its movement free; `None` where the seed does not get there.
fn turn_of(app: &mut App, id: &str, order: Phase) -> Option<()> {
    carry_on(app, |flow| matches!(flow, Flow::Acting(turn) if turn.element == id));
    let world = app.world_mut();
    let Flow::Acting(turn) = &mut *world.resource_mut::<Flow>() else { return None };
    if turn.element != id || !turn.taken.is_empty() {
        return None;
    }
    turn.orders.order = order;
    turn.orders.movement = warbound_rules::momentum::CmMovement::Free;
    turn.orders.can_fire = true;
    turn.failures = 0;
    Some(())
}

fn battle(scenario: Scenario, seed: u64) -> App {
    let mut start = BattleStart::auto("transport", scenario, seed);
    start.control = vec![Control::Player, Control::Auto];
    let mut app = play::battle_app(start, BattleLog::default(), codex()).unwrap();
    play::advance(&mut app).unwrap();
    app
}

/// The first seed on which `id` gets its turn in the first bound.
fn first_turn(scenario: impl Fn() -> Scenario, id: &str, order: Phase) -> App {
    (0..40)
        .find_map(|seed| {
            let mut app = battle(scenario(), seed);
            turn_of(&mut app, id, order).map(|_| app)
        })
        .expect("the element acts with nothing taken on some seed")
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

#[test]
fn a_section_drives_its_lorry_and_gets_out_beside_it() {
    let mut app = first_turn(|| table((10.0, 2.0)), "a1", Phase::Move);
    let lorry = app.world().resource::<warbound_battle::state::Roster>().index("lorry").unwrap();
    assert_eq!(element(&app, "a1").presence.status, Status::Aboard(lorry as u16));
    assert_eq!(element(&app, "lorry").force.carrying(), Some("a1"));
    // A loaded transport takes no card of its own: it moves on its passengers'.
    assert!(!log(&app).iter().any(|e| e.event.kind == EventKind::Ort && e.event.actor.as_deref() == Some("lorry")));
    let Some(Decision::Act { offers, .. }) = decision(app.world_mut()) else { panic!("a1's offers") };
    let out = offers.iter().find(|o| matches!(o.command, Command::Disembark { .. })).expect("getting out offered");
    assert_eq!(out.refused, None, "{}", out.label);
    assert!(out.label.contains("Lorry"), "{}", out.label);
    // Aboard, it drives the lorry: the Movement Dice are the lorry's.
    play::command(&mut app, Command::Move { element: "a1".into(), to: (36.0, 30.0), pace: Default::default() })
        .unwrap();
    assert_eq!(accepted(&app), Ok(()));
    let thrown = log(&app)
        .into_iter()
        .rev()
        .find(|e| e.event.kind == EventKind::Movement && e.event.inputs.iter().any(|i| i.name == "class"))
        .expect("the Movement Dice");
    assert_eq!(thrown.event.actor.as_deref(), Some("lorry"), "the lorry moves");
    let Flow::Acting(turn) = app.world().resource::<Flow>().clone() else { panic!("its turn goes on") };
    let allowance = turn.pending_move.expect("the dice are thrown").allowance;
    let to = (36.0, 4.0 + allowance);
    play::command(&mut app, Command::MoveTo { element: "a1".into(), to }).unwrap();
    assert_eq!(accepted(&app), Ok(()));
    let (a1, truck) = (element(&app, "a1"), element(&app, "lorry"));
    assert!(truck.place.at.1 > 4.5, "the lorry drove on: {:?}", truck.place.at);
    assert_eq!(a1.place.at, truck.place.at, "the section rides in it");
    // Only what the men aboard may do: no stealth, no wading.
    play::command(&mut app, Command::SetUp { element: "a1".into(), up: true }).unwrap();
    let why = accepted(&app).expect_err("aboard");
    assert!(why.contains("gets out first"), "{why}");
    play::command(&mut app, Command::Disembark { element: "a1".into() }).unwrap();
    assert_eq!(accepted(&app), Ok(()));
    let (a1, truck) = (element(&app, "a1"), element(&app, "lorry"));
    assert_eq!(a1.presence.status, Status::OnTable);
    assert_eq!(truck.force.carrying(), None, "the lorry is empty");
    let apart = distance(a1.place.at, truck.place.at).get();
    assert!((apart - 1.0).abs() < 1e-3 && a1.place.at.1 < truck.place.at.1, "1\" behind it: {:?}", a1.place.at);
    let said = log(&app).into_iter().rev().find(|e| e.event.rule.section == "Transport elements").unwrap();
    assert!(said.event.outcome.get("out_at").is_some(), "{:?}", said.event);
}

/// The battle at `id`'s turn in the first bound, after `a1` got out of the
/// lorry on its own turn before it.
fn after_a1_got_out(a2_at: (f32, f32), id: &str) -> App {
    (0..40)
        .find_map(|seed| {
            let mut app = battle(table(a2_at), seed);
            turn_of(&mut app, "a1", Phase::Act)?;
            play::command(&mut app, Command::Disembark { element: "a1".into() }).unwrap();
            assert_eq!(accepted(&app), Ok(()));
            play::command(&mut app, Command::EndTurn { element: "a1".into() }).unwrap();
            turn_of(&mut app, id, Phase::Act).map(|_| app)
        })
        .expect("a1, then the element, act on some seed")
}

#[test]
fn getting_in_needs_an_empty_transport_of_its_side_in_contact_with_room() {
    // a2 stands 1.5" from the lorry.
    let mut app = after_a1_got_out((37.5, 4.0), "a2");
    let Some(Decision::Act { offers, .. }) = decision(app.world_mut()) else { panic!("a2's offers") };
    let into = offers.iter().find(|o| matches!(o.command, Command::Embark { .. })).expect("getting in offered");
    assert_eq!(into.refused, None, "{}", into.label);
    play::command(&mut app, Command::Embark { element: "a2".into(), transport: "lorry".into() }).unwrap();
    assert_eq!(accepted(&app), Ok(()));
    assert!(matches!(element(&app, "a2").presence.status, Status::Aboard(_)));
    assert_eq!(element(&app, "lorry").force.carrying(), Some("a2"));
    assert_eq!(element(&app, "a2").place.at, element(&app, "lorry").place.at);
}

#[test]
fn a_transport_too_far_or_too_small_is_refused() {
    // a2 is 26" away.
    let mut app = after_a1_got_out((10.0, 2.0), "a2");
    play::command(&mut app, Command::Embark { element: "a2".into(), transport: "lorry".into() }).unwrap();
    let why = accepted(&app).expect_err("too far");
    assert!(why.contains("in contact"), "{why}");
    // a3's 14 men, brought up to the lorry, are more than its 12 loads.
    let mut app = after_a1_got_out((10.0, 2.0), "a3");
    let at = element(&app, "lorry").place.at;
    let mut q = app.world_mut().query::<(&Force, &mut warbound_battle::state::Place)>();
    for (f, mut p) in q.iter_mut(app.world_mut()) {
        if f.id() == "a3" {
            p.at = Point(at.0 - 1.0, at.1);
        }
    }
    play::command(&mut app, Command::Embark { element: "a3".into(), transport: "lorry".into() }).unwrap();
    let why = accepted(&app).expect_err("too many");
    assert!(why.contains("will not fit"), "{why}");
}

#[test]
fn men_aboard_a_brewed_transport_get_out_at_the_wreck() {
    let mut app = first_turn(|| table((10.0, 2.0)), "a1", Phase::Act);
    let at = element(&app, "lorry").place.at;
    let men = element(&app, "a1").force.men();
    let mut q = app.world_mut().query::<(&Force, &mut Vehicle)>();
    for (f, mut v) in q.iter_mut(app.world_mut()) {
        if f.id() == "lorry" {
            v.state = Some(VehicleState::Brewed);
        }
    }
    play::command(&mut app, Command::EndTurn { element: "a1".into() }).unwrap();
    let a1 = element(&app, "a1");
    assert!(matches!(a1.presence.status, Status::OnTable | Status::Destroyed), "{:?}", a1.presence.status);
    assert_eq!(a1.place.at, at, "out at the wreck");
    let l = log(&app);
    let out = l
        .iter()
        .find(|e| e.event.rule.section == "Transport elements" && e.event.outcome.get("casualties").is_some())
        .expect("the men get out of the wreck");
    let lost = out.event.outcome["casualties"].as_u64().unwrap() as u32;
    assert_eq!(a1.force.men(), men - lost);
    let brew = l
        .iter()
        .find(|e| e.event.kind == EventKind::AtEffect && e.event.target.as_deref() == Some("a1"))
        .expect("a d6 less 2 for those aboard");
    assert_eq!(u32::from(brew.event.dice[0].face.saturating_sub(2)), lost);
    assert!(
        a1.momentum.accrued.events.iter().any(|(c, _)| *c == CmCause::TransportDestroyedWhileLoaded),
        "{:?}",
        a1.momentum.accrued
    );
    assert_eq!(element(&app, "lorry").force.carrying(), None);
}

#[test]
fn the_auto_side_drives_its_panzergrenadiers_up_and_gets_them_out() {
    let river = shipped::battle("river", &codex()).unwrap_or_else(|e| panic!("{e}"));
    let (mut rode, mut got_out, mut fired) = (0, 0, 0);
    for seed in 0..12 {
        let start = BattleStart::auto("river", river.clone(), seed);
        let (app, _) = play::autoplay(start, BattleLog::default(), codex()).unwrap();
        let l = log(&app);
        for (gruppe, spw) in [("panzergrenadiere", "spw_1"), ("panzergrenadiere_2", "spw_2")] {
            let out = l.iter().position(|e| {
                e.event.rule.section == "Transport elements"
                    && e.event.actor.as_deref() == Some(gruppe)
                    && e.event.outcome.get("out_at").is_some()
            });
            let drove = l.iter().take(out.unwrap_or(l.len())).any(|e| {
                e.event.kind == EventKind::Movement
                    && e.event.actor.as_deref() == Some(spw)
                    && e.event.inputs.iter().any(|i| i.name == "class")
            });
            rode += usize::from(drove);
            got_out += usize::from(out.is_some());
            fired +=
                l.iter().filter(|e| e.event.kind == EventKind::Fire && e.event.actor.as_deref() == Some(spw)).count();
            // Loaded, the half-track takes no card of its own: no ORT before they got out.
            let ort = l.iter().position(|e| e.event.kind == EventKind::Ort && e.event.actor.as_deref() == Some(spw));
            assert!(ort.is_none_or(|k| out.is_some_and(|o| k > o)), "seed {seed}: {spw} took an ORT while loaded");
        }
        eprintln!("seed {seed}: rode {rode} got out {got_out} fired {fired}");
    }
    assert!(rode >= 12, "the half-tracks drove their Gruppen in most battles: {rode} of 24");
    assert!(got_out >= 12, "the Gruppen got out in most battles: {got_out} of 24");
}

#[test]
fn a_transport_adds_nothing_to_its_sides_cmt() {
    // FYOB "Strategic Conditions": "the sum of the CMS's for the elements
    // present on the table"; reading: a transport, "not given an NCO nor ...
    // rated", is no fighting element, and the men it carries count.
    let app = battle(table((10.0, 2.0)), 0);
    let sides = app.world().resource::<Sides>();
    // a1, a2 and a3 at CMS 6; not the lorry.
    assert_eq!(sides.0[0].record.original_cmt(), 18);
    let mut q = app.world().try_query::<warbound_battle::state::FieldedReadOnly>().unwrap();
    let views: Vec<_> = q.iter(app.world()).map(|f| f.view()).collect();
    assert_eq!(warbound_battle::outcome::cmt(views.iter().copied(), 0), 18);
}
