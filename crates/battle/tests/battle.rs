//! The battle flow headless: determinism, the soak over every shipped battle,
//! the Auto side obeying its orders, Player commands refused by rule, saves.

#[path = "../../rules/tests/support/mutate.rs"]
mod mutate;

#[path = "battle/loaders.rs"]
mod loaders;

#[path = "battle/officers.rs"]
mod officers;

use std::collections::BTreeMap;
use warbound_rules::inches::Inches;

use std::sync::Arc;

use warbound_battle::{
    FlowPace,
    command::{Command, DieAction, ElementOrder},
    invariant::InvariantFailures,
    log::BattleLog,
    play,
    prelude::*,
    save,
    setup::{BattleResult, BattleStart, Control, Decision, Fate, Mechanism},
    shipped,
    state::{Battle, ElementBundle, Flow, Hotseat, Sides},
};
use warbound_rules::{codex::Codex, event::EventKind, geometry::distance, scenario::Scenario, terrain::Point};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

fn shipped() -> Vec<(String, Scenario)> {
    shipped::battles(&codex()).expect("shipped scenarios parse")
}

/// A shipped battle by its short name.
fn load(name: &str) -> Scenario {
    shipped::battle(name, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

/// A battle app on the shipped CODEX.
fn battle_app(start: BattleStart, log: BattleLog) -> Result<App, String> {
    play::battle_app(start, log, codex())
}

/// No step of the battle in `app` failed to resolve.
fn assert_sound(app: &App) {
    let failures = &app.world().resource::<InvariantFailures>().0;
    assert!(failures.is_empty(), "invariant failures: {failures:?}");
}

fn autoplay(name: &str, scenario: Scenario, seed: u64) -> (App, BattleResult) {
    let played = play::autoplay(BattleStart::auto(name, scenario, seed), BattleLog::default(), codex())
        .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
    assert_sound(&played.0);
    played
}

fn log_text(app: &App) -> String {
    app.world().resource::<BattleLog>().json_lines()
}

fn elements(app: &App) -> Vec<ElementBundle> {
    warbound_battle::state::elements(app.world())
}

#[test]
fn the_same_seed_plays_the_same_battle_and_another_seed_another() {
    for (name, scenario) in shipped() {
        let (a, ra) = autoplay(&name, scenario.clone(), 11);
        let (b, rb) = autoplay(&name, scenario.clone(), 11);
        assert_eq!(log_text(&a), log_text(&b), "{name}: same seed, same log");
        assert_eq!(ra, rb);
        let (c, _) = autoplay(&name, scenario, 12);
        assert_ne!(log_text(&a), log_text(&c), "{name}: another seed, another battle");
    }
}

/// Plays every shipped battle on many seeds and checks what must always hold.
#[test]
fn soak_every_shipped_battle_to_its_end() {
    let seeds = 40;
    let mut decided = 0;
    let mut total = 0;
    let mut by: BTreeMap<String, usize> = BTreeMap::new();
    let mut withdrawals = 0;
    for (name, scenario) in shipped() {
        let ids: Vec<String> = scenario.sides.iter().flat_map(|s| s.elements()).map(|e| e.id.clone()).collect();
        let mut won = 0;
        for seed in 0..seeds {
            let (app, r) = autoplay(&name, scenario.clone(), seed);
            total += 1;
            *by.entry(format!("{:?}", r.decided_by)).or_default() += 1;
            if matches!(r.decided_by, Decision::Withdrawal | Decision::Surrender | Decision::Objective) {
                decided += 1;
            }
            // Won: decided in play, or by the goals met at the time limit.
            won += usize::from(r.decided_by != Decision::TimeLimit || r.winner.is_some());
            assert!(r.bounds_played <= scenario.time_limit, "{name} {seed}: played past the time limit");
            // Every element accounted for, once.
            let got: Vec<&str> = r.elements.iter().map(|e| e.id.as_str()).collect();
            assert_eq!(got, ids.iter().map(String::as_str).collect::<Vec<_>>(), "{name} {seed}");
            for e in &r.elements {
                assert!(e.men <= e.men_start, "{name} {seed}: {} gained men", e.id);
                assert!(e.cms <= 6);
                if e.fate == Fate::Destroyed {
                    assert!(e.men == 0 || e.vehicles == 0, "{name} {seed}: {} destroyed with men and vehicle", e.id);
                }
            }
            // CMT: the CMS of the elements on the table (none leave by design
            // in these battles); those that left (retired, surrendered,
            // destroyed), those yet to come and uncommitted reserves do not count.
            // Transports add nothing: the men they carry count.
            let transports: Vec<&str> =
                scenario.sides.iter().flat_map(|s| s.elements()).filter_map(|e| e.aboard.as_deref()).collect();
            for (s, side) in r.sides.iter().enumerate() {
                let sum: u32 = r
                    .elements
                    .iter()
                    .filter(|e| e.side == s && e.fate == Fate::OnTable && !transports.contains(&e.id.as_str()))
                    .map(|e| u32::from(e.cms))
                    .sum();
                assert_eq!(side.cmt, sum, "{name} {seed}: CMT of {}", side.name);
            }
            // The Auto side never gave a command the rules refuse.
            let refused =
                app.world().resource::<BattleLog>().entries.iter().any(|e| {
                    e.event.kind == EventKind::Command && e.event.outcome["accepted"] == serde_json::json!(false)
                });
            assert!(!refused, "{name} {seed}: an Auto command was refused");
            // At Red with no reserves the Auto Senior Officer withdraws, and the battle ends there.
            let log = &app.world().resource::<BattleLog>().entries;
            if let Some(w) = log.iter().find(|e| e.event.outcome["general_withdrawal"] == serde_json::json!(true)) {
                withdrawals += 1;
                let end = log.iter().find(|e| e.event.kind == EventKind::BattleEnd).unwrap();
                assert_eq!(end.bound, w.bound, "{name} {seed}: fought on after a general withdrawal");
            }
        }
        // The Auto sides fight each battle to a result: a side wins it.
        let share = won as f64 / seeds as f64;
        assert!(share >= 0.75, "{name}: a side won only {:.0}% of its battles", share * 100.0);
    }
    assert!(withdrawals > 0, "no Auto Senior Officer ever ordered a general withdrawal at Red");
    // Most are decided before the time limit; a battle whose one side must
    // hold until it (Bénouville) is often decided by its goals there.
    let share = decided as f64 / total as f64;
    println!("soak: {total} battles, {:.0}% decided by withdrawal, surrender or objective: {by:?}", share * 100.0);
    assert!(share >= 0.6, "only {:.0}% of battles were decided before the time limit: {by:?}", share * 100.0);
}

/// A small open-table battle written for one rule.
fn duel(british_order: &str, german_order: &str, german_at: (f32, f32)) -> Scenario {
    let text = format!(
        r#"(
    name: "Duel", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the road", at: (36, 40)), (name: "the farm", at: (36, 24))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: {british_order},
            elements: [(id: "a1", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], pieces: [(codex: "gb_bren")], start: at(36, 4))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: {german_order},
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], pieces: [(codex: "de_mg42_lmg")], start: at({}, {}))])]),
    ],
)"#,
        german_at.0, german_at.1
    );
    Scenario::load("duel.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs a battle update by update, calling `each` after every update.
fn step_through(start: BattleStart, mut each: impl FnMut(&mut App)) {
    let mut app = battle_app(start, BattleLog::default()).unwrap();
    app.insert_resource(FlowPace(1));
    for _ in 0..play::MAX_UPDATES {
        if play::is_over(app.world()) {
            break;
        }
        app.update();
        each(&mut app);
    }
}

#[test]
fn contact_enemy_closes_and_hold_stays_put() {
    let mut advanced = 0;
    // Against an enemy on Overwatch (which may not fire) the advance is
    // never cut short; against one that Holds it may be, and Hold never
    // advances (pinned in the open, it may only go back to cover: FYOB
    // "Results of Momentum Tests").
    for (seed, german) in (0..10).map(|s| (s, "Overwatch")).chain((10..20).map(|s| (s, "Hold"))) {
        let scenario = duel(
            r#"(activity: ContactEnemy, location: "the road")"#,
            &format!(r#"(activity: {german}, location: "the farm")"#),
            (36.0, 40.0),
        );
        let start = BattleStart::auto("duel", scenario, seed);
        let mut last: Option<(Point, Inches)> = None;
        let mut moves = 0;
        step_through(start, |app| {
            let els = elements(app);
            let (a1, g1) = (&els[0], &els[1]);
            if g1.presence.status.on_table() {
                assert!(g1.place.at.1 >= 40.0, "seed {seed}: the {german} element advanced to {:?}", g1.place.at);
            }
            if !(a1.presence.status.on_table() && g1.presence.status.on_table()) {
                return;
            }
            let gap = distance(a1.place.at, g1.place.at);
            if let Some((at, before)) = last
                && at != a1.place.at
            {
                assert!(gap < before, "seed {seed}: Contact Enemy moved away ({before:.1} to {gap:.1})");
                moves += 1;
            }
            last = Some((a1.place.at, gap));
        });
        if moves > 0 && german == "Overwatch" {
            advanced += 1;
        }
    }
    assert!(advanced >= 8, "Contact Enemy advanced in only {advanced} of 10 battles");
}

#[test]
fn recce_and_report_does_not_open_fire_first() {
    for seed in 0..10 {
        let scenario = duel(
            r#"(activity: RecceAndReport, location: "the road")"#,
            r#"(activity: Overwatch, location: "the farm")"#,
            (36.0, 30.0),
        );
        let (app, _) = autoplay("duel", scenario, seed);
        let fired = app.world().resource::<BattleLog>().entries.iter().any(|e| e.event.kind == EventKind::Fire);
        assert!(!fired, "seed {seed}: a Recce element opened fire on an enemy that never fired");
    }
}

#[test]
fn no_auto_element_closes_within_nine_inches_unobserved_nor_fires_on_the_unseen() {
    for (name, scenario) in shipped() {
        for seed in 0..8 {
            let start = BattleStart::auto(&name, scenario.clone(), seed);
            let mut bound_start: Vec<Point> = Vec::new();
            let mut seen_events = 0;
            step_through(start, |app| {
                let els = elements(app);
                if matches!(app.world().resource::<Flow>(), Flow::Deal) {
                    bound_start = els.iter().map(|f| f.place.at).collect();
                }
                if bound_start.is_empty() {
                    return;
                }
                for f in els.iter().filter(|f| {
                    f.presence.status.on_table() && f.actions.this_bound.moved && !f.actions.this_bound.observed
                }) {
                    for e in els.iter().filter(|e| e.identity.side != f.identity.side && e.presence.status.on_table()) {
                        let now = distance(f.place.at, e.place.at);
                        let before = distance(bound_start[f.identity.index as usize], e.place.at);
                        assert!(
                            now > 9.0
                                || now >= before - Inches(1e-3)
                                || bound_start[f.identity.index as usize] == Point(0.0, 0.0),
                            "{name} {seed}: {} moved to {now:.1}\" of {} without an observation test",
                            f.id(),
                            e.id()
                        );
                    }
                }
                let log = app.world().resource::<BattleLog>();
                for entry in &log.entries[seen_events..] {
                    if entry.event.kind != EventKind::Fire {
                        continue;
                    }
                    let (Some(firer), Some(target)) = (&entry.event.actor, &entry.event.target) else { continue };
                    let autospot = entry.event.inputs.iter().any(|i| i.name == "unobserved_autospot");
                    let f = els.iter().find(|f| f.id() == firer).unwrap();
                    assert!(
                        autospot || f.intel.known.contains(target),
                        "{name} {seed}: {firer} fired on {target}, which it had not observed"
                    );
                }
                seen_events = log.entries.len();
            });
        }
    }
}

fn player_start(seed: u64) -> BattleStart {
    let mut start = BattleStart::auto("patrol", load("patrol"), seed);
    start.control = vec![Control::Player, Control::Auto];
    start
}

fn acting(app: &App) -> String {
    match app.world().resource::<Flow>() {
        Flow::Acting(t) => t.element.clone(),
        other => panic!("not waiting for a command: {other:?}"),
    }
}

/// Answers officers' prompts with no changes until an element of the Player's is to act.
fn to_element_turn(app: &mut App) {
    play::advance(app).unwrap();
    while !matches!(app.world().resource::<Flow>(), Flow::Acting(_)) {
        let flow = app.world().resource::<Flow>().clone();
        let cmd = officer_default(app).unwrap_or_else(|| panic!("waiting for an officer, not {flow:?}"));
        play::command(app, cmd).unwrap();
    }
}

/// The Player's officers change nothing: no orders, no rallies, no reserves.
fn officer_default(app: &App) -> Option<Command> {
    match app.world().resource::<Flow>() {
        Flow::CoTurn { side, company, .. } => {
            let id = app.world().resource::<Sides>().0[*side].companies[*company].id.clone();
            Some(Command::Command { company: id, orders: vec![], rally: vec![] })
        }
        Flow::Session { side } => {
            Some(Command::Session { side: *side, commit: vec![], objectives: vec![], withdraw: false })
        }
        Flow::Seize { element } => Some(Command::Seize { element: element.clone(), swap_with: None }),
        _ => None,
    }
}

#[test]
fn a_player_side_waits_for_commands_and_impossible_ones_change_nothing() {
    let mut app = battle_app(player_start(5), BattleLog::default()).unwrap();
    to_element_turn(&mut app);
    assert!(play::waiting_for_player(app.world()), "the flow stops at the Player's first turn");
    let me = acting(&app);
    let before = elements(&app);
    let events = app.world().resource::<BattleLog>().entries.len();
    for cmd in [
        // The listening post is concealed and far off: not observed, no autospot.
        Command::Fire { element: me.clone(), target: "gruppe_1".into() },
        // Three acts.
        Command::Observe {
            element: me.clone(),
            targets: ["gruppe_1", "gruppe_2", "x"]
                .map(|id| warbound_battle::command::ObserveTarget::Element(id.into()))
                .to_vec(),
        },
        Command::Move { element: me.clone(), to: (500.0, 4.0), pace: Default::default() },
        Command::EndTurn { element: "gruppe_1".into() },
    ] {
        play::command(&mut app, cmd.clone()).unwrap();
        assert_eq!(elements(&app), before, "{cmd:?} changed the table");
        let log = &app.world().resource::<BattleLog>().entries;
        let last = &log.last().unwrap().event;
        assert_eq!(last.kind, EventKind::Command);
        assert_eq!(last.outcome["accepted"], serde_json::json!(false), "{cmd:?} was accepted");
        assert!(last.outcome["reason"].as_str().unwrap().len() > 10);
        assert_eq!(acting(&app), me);
    }
    assert_eq!(app.world().resource::<BattleLog>().entries.len(), events + 4, "only the refusals were logged");
    // The route is declared and the Movement Dice thrown; the element then
    // moves no further than the score, along the route.
    play::command(&mut app, Command::Move { element: me.clone(), to: (28.0, 20.0), pace: Default::default() }).unwrap();
    let Flow::Acting(turn) = app.world().resource::<Flow>().clone() else { panic!("the turn ended") };
    let pending = turn.pending_move.expect("the dice are thrown and the player chooses where to stop");
    let from = elements(&app).iter().find(|f| f.id() == me).unwrap().place.at;
    let declared = Point(28.0, 20.0);
    let beyond = distance(from, declared) > pending.allowance + 1.0;
    for cmd in [
        Command::EndTurn { element: me.clone() },
        Command::Move { element: me.clone(), to: (28.0, 30.0), pace: Default::default() },
        Command::MoveTo { element: me.clone(), to: (from.0 + 5.0, from.1) },
    ] {
        let before = elements(&app);
        play::command(&mut app, cmd.clone()).unwrap();
        assert!(last_event(&app).outcome["accepted"] == serde_json::json!(false), "{cmd:?} was accepted");
        assert_eq!(elements(&app), before);
    }
    if beyond {
        let too_far = (declared.0, declared.1);
        play::command(&mut app, Command::MoveTo { element: me.clone(), to: too_far }).unwrap();
        assert!(last_event(&app).outcome["accepted"] == serde_json::json!(false), "moved further than thrown");
    }
    let stop = Point(
        from.0 + (declared.0 - from.0) * 0.5 * pending.allowance / distance(from, declared).get(),
        from.1 + (declared.1 - from.1) * 0.5 * pending.allowance / distance(from, declared).get(),
    );
    play::command(&mut app, Command::MoveTo { element: me.clone(), to: (stop.0, stop.1) }).unwrap();
    let moved = elements(&app);
    assert_eq!(moved.iter().find(|f| f.id() == me).unwrap().place.at, stop);
    assert_ne!(moved, before);
}

/// A Player that always marches on the crossroads, then ends its turn.
fn march(app: &mut App) -> Option<Command> {
    if !play::waiting_for_player(app.world()) {
        return None;
    }
    if let Some(cmd) = officer_default(app) {
        return Some(cmd);
    }
    let me = acting(app);
    let Flow::Acting(turn) = app.world().resource::<Flow>() else { return None };
    if let Some(p) = turn.pending_move {
        // As far as the dice allow along the declared route.
        let from = elements(app).into_iter().find(|f| f.id() == me).unwrap().place.at;
        let to = distance(from, Point(p.to.0, p.to.1));
        let k = if to > 0.0 { (p.allowance / to.get()).min(1.0) } else { 0.0 };
        let at = (from.0 + (p.to.0 - from.0) * k, from.1 + (p.to.1 - from.1) * k);
        return Some(Command::MoveTo { element: me, to: at });
    }
    // A march its tests refuse (pinned in cover, say) ends the turn.
    let log = &app.world().resource::<BattleLog>().entries;
    let refused = log
        .iter()
        .rev()
        .find(|e| e.event.kind == EventKind::Command)
        .is_some_and(|e| e.event.actor.as_deref() == Some(me.as_str()) && e.event.outcome["accepted"] == false);
    Some(if turn.taken.is_empty() && !refused {
        Command::Move { element: me, to: (36.0, 30.0), pace: Default::default() }
    } else {
        Command::EndTurn { element: me }
    })
}

fn play_out(app: &mut App, until_bound: Option<u32>) {
    play::advance(app).unwrap();
    while !play::is_over(app.world()) {
        if until_bound.is_some_and(|b| app.world().resource::<Battle>().clock.bound() >= b) {
            return;
        }
        let cmd = march(app).expect("waiting for the player");
        play::command(app, cmd).unwrap();
    }
}

#[test]
fn a_saved_battle_resumes_exactly() {
    let mut original = battle_app(player_start(3), BattleLog::default()).unwrap();
    play_out(&mut original, Some(4));
    let snapshot = save::snapshot(original.world()).unwrap();
    assert!(!snapshot.commands.is_empty(), "the player gave commands");
    let path = std::env::temp_dir().join(format!("warbound-save-{}.ron", std::process::id()));
    save::write(&path, &snapshot).unwrap();
    let read = save::read(&path, &codex()).unwrap();
    assert_eq!(read, snapshot);
    let mut resumed = save::resume(&read, codex()).unwrap();
    assert_eq!(elements(&resumed), elements(&original));
    assert_eq!(log_text(&resumed), log_text(&original));
    play_out(&mut original, None);
    play_out(&mut resumed, None);
    assert_eq!(log_text(&resumed), log_text(&original), "after loading, the battle goes on the same");
    assert_eq!(original.world().resource::<Battle>().result, resumed.world().resource::<Battle>().result);
}

#[test]
fn a_bad_save_is_refused_with_where_and_what() {
    let path = std::env::temp_dir().join(format!("warbound-badsave-{}.ron", std::process::id()));
    std::fs::write(&path, "(\n  build: \"x\",\n  start: 7,\n)").unwrap();
    let err = save::read(&path, &codex()).unwrap_err();
    assert!(err.contains(":3:"), "{err}");
    assert!(save::read(&path.with_extension("missing"), &codex()).unwrap_err().contains("cannot read"));
}

#[test]
fn autosave_after_every_bound() {
    let dir = std::env::temp_dir().join(format!("warbound-autosave-{}", std::process::id()));
    let path = dir.join("autosave.ron");
    let _ = std::fs::remove_file(&path);
    let mut app = battle_app(player_start(8), BattleLog::default()).unwrap();
    app.insert_resource(save::Autosave(Some(path.clone())));
    play_out(&mut app, Some(3));
    let saved = save::read(&path, &codex()).expect("an autosave was written");
    assert!(saved.bound >= 2, "saved at bound {}", saved.bound);
    let resumed = save::resume(&saved, codex()).unwrap();
    assert_eq!(resumed.world().resource::<Battle>().clock.bound(), saved.bound);
}

fn two_player_start(name: &str, seed: u64, control: Control) -> BattleStart {
    let mut start = BattleStart::auto(name, load(name), seed);
    start.mechanism = Mechanism::TwoPlayer;
    start.control = vec![control; 2];
    start
}

#[test]
fn the_two_player_game_plays_to_its_end_and_replays() {
    for (name, _) in shipped() {
        for seed in 0..6 {
            let start = two_player_start(&name, seed, Control::Auto);
            let (a, ra) = play::autoplay(start.clone(), BattleLog::default(), codex()).unwrap();
            let (b, rb) = play::autoplay(start, BattleLog::default(), codex()).unwrap();
            assert_eq!(log_text(&a), log_text(&b), "{name} {seed}");
            assert_eq!(ra, rb);
            let log = &a.world().resource::<BattleLog>().entries;
            assert!(log.iter().any(|e| e.event.kind == EventKind::CommandDice), "{name}: Command Dice thrown");
            assert!(!log.iter().any(|e| e.event.kind == EventKind::OpcDeal), "{name}: no OPCs in a 2-player game");
            assert!(!log.iter().any(|e| e.event.kind == EventKind::CmTests), "{name}: no CM tests in a 2-player game");
            let refused = log
                .iter()
                .any(|e| e.event.kind == EventKind::Command && e.event.outcome["accepted"] == serde_json::json!(false));
            assert!(!refused, "{name} {seed}: an Auto Command Die was refused");
        }
    }
}

fn hotseat(app: &App) -> Hotseat {
    match app.world().resource::<Flow>() {
        Flow::Commanding(h) => h.clone(),
        other => panic!("not giving out Command Dice: {other:?}"),
    }
}

fn last_event(app: &App) -> warbound_rules::event::RuleEvent {
    app.world().resource::<BattleLog>().entries.last().unwrap().event.clone()
}

#[test]
fn hotseat_command_dice_follow_the_rules() {
    let fourth = (0..20).filter(|&seed| hotseat_bound(seed)).count();
    assert!(fourth > 0, "no seed gave one element 4 usable dice to test the limit of 3");
}

/// Plays the first player's dice of one hotseat bound by the rules' limits;
/// whether a 4th die for one element came up (and was refused).
fn hotseat_bound(seed: u64) -> bool {
    let mut app = battle_app(two_player_start("village", seed, Control::Player), BattleLog::default()).unwrap();
    play::advance(&mut app).unwrap();
    assert!(play::waiting_for_player(app.world()));
    let h = hotseat(&app);
    let player = h.player;
    let (mine, theirs) = {
        let els = elements(&app);
        let mine =
            els.iter().find(|f| f.identity.side == player && f.presence.status.on_table()).unwrap().id().to_owned();
        let theirs =
            els.iter().find(|f| f.identity.side != player && f.presence.status.on_table()).unwrap().id().to_owned();
        (mine, theirs)
    };
    let n = elements(&app).iter().filter(|f| f.identity.side == player && f.presence.status.on_table()).count() as u32;
    // "Artillery with a FOO get 1 Command Die not 2".
    let foos = app.world().resource::<Sides>().0[player].foos.iter().filter(|f| f.alive).count() as u32;
    let n = n + foos;
    assert_eq!(h.dice.len() as u32, n + n / 3, "1 die an element, 1 more per pile of 3");
    let refused = |app: &App| last_event(app).outcome["accepted"] == serde_json::json!(false);
    // A die whose face does not allow the action is refused and nothing is spent.
    let (die, face) =
        (0..h.dice.len()).find_map(|d| h.dice.face(d).filter(|&f| f != 6 && f != 2).map(|f| (d, f))).unwrap();
    play::command(
        &mut app,
        Command::Die { element: mine.clone(), die, action: DieAction::Move { to: (30.0, 10.0) }, sixes: vec![] },
    )
    .unwrap();
    assert!(refused(&app), "a {face} moved an element");
    assert_eq!(hotseat(&app).dice, h.dice);
    // The other player's element is not his to command.
    play::command(&mut app, Command::Die { element: theirs, die, action: DieAction::Communicate, sixes: vec![] })
        .unwrap();
    assert!(refused(&app));
    // Up to 3 dice an element; the first calls for the NCO's ORT, the others do not.
    let mut given = 0;
    let mut fourth_refused = false;
    for d in 0..h.dice.len() {
        let now = hotseat(&app);
        if now.halted.contains(&mine) {
            break;
        }
        let action = match now.dice.face(d) {
            Some(2) => DieAction::Move { to: (28.0, 12.0) },
            Some(4 | 6) => DieAction::Act,
            Some(5) => DieAction::Communicate,
            _ => continue,
        };
        let before = app.world().resource::<BattleLog>().entries.len();
        play::command(&mut app, Command::Die { element: mine.clone(), die: d, action, sixes: vec![] }).unwrap();
        let log = &app.world().resource::<BattleLog>().entries[before..];
        let orts = log.iter().filter(|e| e.event.kind == EventKind::Ort).count();
        if given < 3 {
            assert!(!refused(&app), "die {d} refused: {:?}", last_event(&app));
            assert_eq!(orts, usize::from(given == 0), "ORT only on the first die");
            given += 1;
        } else {
            assert!(refused(&app), "a 4th Command Die was given");
            fourth_refused = true;
            break;
        }
    }
    // Passing hands the bound to the other player, who throws his own dice.
    play::command(&mut app, Command::Pass { player }).unwrap();
    if let Flow::Commanding(next) = app.world().resource::<Flow>() {
        assert_eq!(next.player, 1 - player);
        assert!(next.second);
    }
    fourth_refused
}

#[test]
fn aircraft_fly_in_their_window_and_guns_fire_once_their_foo_is_netted() {
    let scenario = load("village");
    let squadron = &scenario.sides[0].aircraft[0];
    let window = squadron.window..squadron.window + 4;
    let mut flew = 0;
    let mut shelled = 0;
    for seed in 0..20 {
        let (app, _) = autoplay("village", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        for e in log.iter().filter(|e| e.event.actor.as_deref() == Some(squadron.id.as_str())) {
            let leaving = e.event.kind == EventKind::Leaves;
            assert!(window.contains(&e.bound) || leaving, "seed {seed}: the squadron acted in bound {}", e.bound);
            flew += 1;
        }
        let netted = log
            .iter()
            .position(|e| e.event.kind == EventKind::RadioTest && e.event.outcome["passed"] == serde_json::json!(true));
        let first_shell = log.iter().position(|e| e.event.actor.as_deref() == Some("181_field_regiment"));
        if let Some(shell) = first_shell {
            assert!(netted.is_some_and(|n| n < shell), "seed {seed}: the guns fired before the FOO netted in");
            shelled += 1;
        }
    }
    assert!(flew > 0, "the squadron never flew");
    assert!(shelled > 0, "the battery never fired");
}

#[test]
fn a_foo_team_observes_for_itself_with_no_momentum_of_its_own() {
    // "The 2-man artillery FOO team" (Heroes All, "Rating the officers")
    // observes for a new Artillery Target from where its element stands, but
    // with its own two pairs of eyes, and it has no Continuous Momentum Score
    // of its own: the element's pinned or shaken men add no segments.
    let scenario = load("village");
    let foo = scenario.sides[0].foos[0].id.clone();
    let mut observed = 0;
    for seed in 0..60 {
        let (app, _) = autoplay("village", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        for e in log.iter().filter(|e| e.event.kind == EventKind::Observation && e.event.actor.as_deref() == Some(&foo))
        {
            let input = |name: &str| e.event.inputs.iter().find(|i| i.name == name).map(|i| i.value.clone());
            assert_eq!(input("observer"), Some(serde_json::json!(["figure", 2])), "seed {seed}: {:?}", e.event);
            assert_eq!(input("momentum"), None, "seed {seed}: the FOO team took momentum segments");
            observed += 1;
        }
    }
    assert!(observed > 0, "no FOO observed a new target in 60 battles");
}

#[test]
fn a_player_company_officer_orders_and_rallies_within_the_rules() {
    let mut app = battle_app(player_start(2), BattleLog::default()).unwrap();
    play::advance(&mut app).unwrap();
    // Play on until the Player's CO is asked for his orders.
    for _ in 0..500 {
        if matches!(app.world().resource::<Flow>(), Flow::CoTurn { .. }) || play::is_over(app.world()) {
            break;
        }
        let cmd = march(&mut app).unwrap();
        play::command(&mut app, cmd).unwrap();
    }
    let Flow::CoTurn { side, company, .. } = app.world().resource::<Flow>().clone() else {
        panic!("the Player's CO never took a command turn");
    };
    let id = app.world().resource::<Sides>().0[side].companies[company].id.clone();
    let order = |location: &str| warbound_rules::scenario::Order {
        activity: warbound_rules::command::Activity::Hold,
        location: location.into(),
        detail: String::new(),
    };
    let refused = |app: &App| last_event(app).outcome["accepted"] == serde_json::json!(false);
    // An order to a place that is not on this table, or to an enemy element, is refused.
    for cmd in [
        Command::Command {
            company: id.clone(),
            orders: vec![ElementOrder { element: "1_section".into(), order: order("Berlin") }],
            rally: vec![],
        },
        Command::Command {
            company: id.clone(),
            orders: vec![ElementOrder { element: "gruppe_1".into(), order: order("the lane") }],
            rally: vec![],
        },
        Command::Command { company: id.clone(), orders: vec![], rally: vec!["1_section".into(), "1_section".into()] },
    ] {
        play::command(&mut app, cmd.clone()).unwrap();
        assert!(refused(&app), "{cmd:?} was accepted");
        assert!(matches!(app.world().resource::<Flow>(), Flow::CoTurn { .. }));
    }
    play::command(
        &mut app,
        Command::Command {
            company: id,
            orders: vec![ElementOrder { element: "1_section".into(), order: order("the lane") }],
            rally: vec![],
        },
    )
    .unwrap();
    let els = elements(&app);
    let s1 = els.iter().find(|f| f.id() == "1_section").unwrap();
    assert_eq!(s1.order.objective.location, "the lane");
    assert_eq!(s1.order.objective.activity, warbound_rules::command::Activity::Hold);
}

#[test]
fn a_player_senior_officer_commits_only_his_reserves() {
    let mut start = BattleStart::auto("village", load("village"), 1);
    start.control = vec![Control::Player, Control::Auto];
    let mut app = battle_app(start, BattleLog::default()).unwrap();
    play::advance(&mut app).unwrap();
    for _ in 0..2000 {
        if matches!(app.world().resource::<Flow>(), Flow::Session { .. }) || play::is_over(app.world()) {
            break;
        }
        let cmd = officer_default(&app).unwrap_or_else(|| Command::EndTurn { element: acting(&app) });
        play::command(&mut app, cmd).unwrap();
    }
    let Flow::Session { side } = app.world().resource::<Flow>().clone() else {
        panic!("the Player's Senior Officer never held a session");
    };
    let refused = |app: &App| last_event(app).outcome["accepted"] == serde_json::json!(false);
    for commit in [vec!["13_platoon".to_owned()], vec!["zug_1_gruppe_1".to_owned()], vec!["nobody".to_owned()]] {
        play::command(&mut app, Command::Session { side, commit: commit.clone(), objectives: vec![], withdraw: false })
            .unwrap();
        assert!(refused(&app), "committed {commit:?}, which is no reserve of this side");
    }
    let before = app.world().resource::<BattleLog>().entries.len();
    play::command(
        &mut app,
        Command::Session { side, commit: vec!["15_platoon".into()], objectives: vec![], withdraw: false },
    )
    .unwrap();
    let log = &app.world().resource::<BattleLog>().entries[before..];
    assert_eq!(log[0].event.outcome["accepted"], serde_json::json!(true));
    let asked = log.iter().any(|e| {
        e.event.kind == EventKind::LeadershipTest && e.event.rule.section == "Committing Reserves to the table"
    });
    assert!(asked, "committing reserves takes the Senior Officer's Leadership Test");
}

#[test]
fn gliders_and_paratroops_land_and_wait_a_bound_before_acting() {
    let mut scenario = duel(
        r#"(activity: ContactEnemy, location: "the road")"#,
        r#"(activity: Hold, location: "the farm")"#,
        (36.0, 40.0),
    );
    scenario.sides[0].companies[0].elements[0].start = warbound_rules::scenario::Start::Drop(2, 36.0, 12.0);
    let mut glider = scenario.sides[0].companies[0].elements[0].clone();
    glider.id = "a2".into();
    glider.start = warbound_rules::scenario::Start::Glider(2, 20.0, 10.0);
    scenario.sides[0].companies[0].elements.push(glider);
    let mut landed = 0;
    for seed in 0..12 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        for id in ["a1", "a2"] {
            let Some(arrival) =
                log.iter().find(|e| e.event.kind == EventKind::Arrival && e.event.actor.as_deref() == Some(id))
            else {
                continue;
            };
            landed += 1;
            assert_eq!(arrival.bound, 2, "seed {seed}: {id} landed in bound {}", arrival.bound);
            let acted = log
                .iter()
                .any(|e| e.bound == 2 && e.event.kind == EventKind::Ort && e.event.actor.as_deref() == Some(id));
            assert!(!acted, "seed {seed}: {id} acted on the bound it landed");
            let at = &arrival.event.inputs[0].value;
            let (x, y) = (at[0].as_f64().unwrap() as f32, at[1].as_f64().unwrap() as f32);
            if id == "a1" {
                assert!(
                    (x - 36.0).abs() <= 6.0 && (y - 12.0).abs() <= 6.0,
                    "seed {seed}: landed off its grid at ({x}, {y})"
                );
                let cohesion = log
                    .iter()
                    .any(|e| e.event.actor.as_deref() == Some(id) && e.event.kind == EventKind::LeadershipTest);
                assert!(cohesion, "seed {seed}: no cohesion test on landing");
            } else {
                assert_eq!((x, y), (20.0, 10.0));
                assert!(log.iter().any(|e| e.event.kind == EventKind::Landing && e.event.actor.as_deref() == Some(id)));
            }
        }
    }
    assert!(landed >= 18, "only {landed} of 24 landings came down");
}

#[test]
fn friends_within_six_inches_reduce_the_tests() {
    let mut scenario =
        duel(r#"(activity: Hold, location: "the road")"#, r#"(activity: Hold, location: "the farm")"#, (36.0, 30.0));
    let mut friend = scenario.sides[0].companies[0].elements[0].clone();
    friend.id = "a2".into();
    friend.start = warbound_rules::scenario::Start::At(39.0, 4.0);
    scenario.sides[0].companies[0].elements.push(friend);
    let mut supported = 0;
    for seed in 0..20 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        for e in &app.world().resource::<BattleLog>().entries {
            if e.event.kind != EventKind::CmTests || e.event.actor.as_deref() != Some("a1") {
                continue;
            }
            let conditions = &e.event.inputs.iter().find(|i| i.name == "conditions").unwrap().value;
            let count = &e.event.outcome["count"];
            if conditions["support_points"].as_u64().unwrap() > 0 {
                supported += 1;
                assert!(count["support_off"].as_u64().unwrap() > 0 || count["original"].as_u64().unwrap() < 10);
            }
        }
    }
    assert!(supported > 0, "the supporting section never reduced a1's tests");
}

fn with_charge(mut scenario: Scenario, side: usize, at: (f32, f32)) -> Scenario {
    scenario.sides[side].charges.push(warbound_rules::scenario::ChargeSpec {
        id: "charge".into(),
        at,
        kind: warbound_rules::explosives::ChargeKind::Large,
        delay: 0,
        target: "the road".into(),
    });
    scenario
}

#[test]
fn charges_are_fired_by_the_pack_and_lifted_by_engineers() {
    let mut blown = 0;
    let mut lifted = 0;
    for seed in 0..30 {
        // The German guard fires the charge as the British (a Player who only
        // walks onto it) close on it.
        let s = duel(
            r#"(activity: Reposition, location: "the road")"#,
            r#"(activity: Overwatch, location: "the farm")"#,
            (46.0, 30.0),
        );
        let mut start = BattleStart::auto("duel", with_charge(s, 1, (36.0, 30.0)), seed);
        start.control = vec![Control::Player, Control::Auto];
        let mut app = battle_app(start, BattleLog::default()).unwrap();
        play::advance(&mut app).unwrap();
        while !play::is_over(app.world()) {
            let cmd = officer_default(&app).unwrap_or_else(|| {
                let Flow::Acting(turn) = app.world().resource::<Flow>() else { unreachable!() };
                let me = turn.element.clone();
                if let Some(p) = turn.pending_move {
                    let at = elements(&app).into_iter().find(|f| f.id() == me).unwrap().place.at;
                    let d = distance(at, Point(p.to.0, p.to.1));
                    let k = if d > 0.0 { (p.allowance / d.get()).min(1.0) } else { 0.0 };
                    Command::MoveTo { element: me, to: (at.0 + (p.to.0 - at.0) * k, at.1 + (p.to.1 - at.1) * k) }
                } else if turn.taken.is_empty() && turn.orders.order == warbound_rules::order_dice::Phase::Move {
                    Command::Move { element: me, to: (36.0, 31.0), pace: Default::default() }
                } else {
                    Command::EndTurn { element: me }
                }
            });
            play::command(&mut app, cmd).unwrap();
        }
        let log = &app.world().resource::<BattleLog>().entries;
        let demolished = |e: &&warbound_battle::log::Entry| {
            e.event.kind == EventKind::Explosives && e.event.outcome["demolished"].is_string()
        };
        if let Some(k) = log.iter().position(|e| demolished(&e)) {
            blown += 1;
            let pack = log[..k]
                .iter()
                .rev()
                .find_map(|e| e.event.inputs.iter().find(|i| i.name == "firer_distance").map(|i| (e, i)))
                .expect("the detonation pack's throw");
            assert_eq!(pack.0.event.actor.as_deref(), Some("g1"), "seed {seed}: fired by the guard");
            assert!(pack.1.value.as_f64().unwrap() <= 12.0);
        }
        // British sappers ordered to the farm lift the German charge there.
        let s = duel(
            r#"(activity: Engineering, location: "the farm", detail: "lift the charges")"#,
            r#"(activity: Overwatch, location: "the road")"#,
            (60.0, 46.0),
        );
        let (app, _) = autoplay("duel", with_charge(s, 1, (36.0, 24.0)), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        if let Some(k) = log.iter().position(|e| e.event.outcome["state"] == serde_json::json!("removed")) {
            lifted += 1;
            let found = log[..k].iter().any(|e| {
                e.event.rule.section == "Detecting charges set for delay"
                    && e.event.outcome["spotted"] == serde_json::json!(true)
            });
            assert!(found, "seed {seed}: lifted a charge never found");
        }
    }
    assert!(blown > 0, "the guard never fired the charge");
    assert!(lifted > 0, "the sappers never lifted the charge");
}

#[test]
fn crossing_a_minefield_costs_men() {
    let mut scenario = duel(
        r#"(activity: Reposition, location: "the farm")"#,
        r#"(activity: Overwatch, location: "the road")"#,
        (66.0, 46.0),
    );
    scenario.terrain.features.push(warbound_rules::terrain::Feature::Minefield {
        outline: vec![Point(20.0, 12.0), Point(52.0, 12.0), Point(52.0, 16.0), Point(20.0, 16.0)],
        kind: warbound_rules::mines::MineKind::AntiPersonnel,
    });
    let mut entered = 0;
    let mut casualties = 0;
    for seed in 0..10 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        for (k, e) in log.iter().enumerate() {
            if e.event.kind == EventKind::Minefield {
                entered += 1;
                assert_eq!(e.event.actor.as_deref(), Some("a1"));
                let figures = e.event.inputs.iter().find(|i| i.name == "figures").unwrap().value.as_u64().unwrap();
                assert_eq!(e.event.dice.len() as u64, figures, "a D6 a figure");
                let lost = e.event.outcome["casualties"].as_u64().unwrap();
                casualties += lost;
                // FYOB "NCO is a casualty": a D6 for each man lost.
                let checked = log.get(k + 1).is_some_and(|l| l.event.kind == EventKind::OfficerCasualty);
                assert_eq!(checked, lost > 0, "seed {seed}: the NCO check after {lost} men lost to mines");
            }
        }
    }
    assert!(entered >= 5, "the section crossed the minefield only {entered} times in 10 battles");
    assert!(casualties > 0);
}

/// A German section holding alone under British Typhoons (the British
/// infantry still in the box) of the speed, strength and number given.
fn air_raid(speed: &str, strength: u8, count: u8) -> Scenario {
    let mut scenario =
        duel(r#"(activity: Hold, location: "the road")"#, r#"(activity: Hold, location: "the farm")"#, (36.0, 40.0));
    scenario.sides[0].companies[0].elements[0].start = warbound_rules::scenario::Start::Box(6);
    let typhoons = format!(
        r#"(id: "typhoons", aircraft: (name: "Hawker Typhoon Ib", role: ground_attack, speed: {speed}, strength: {strength}, cannon: 4, rockets: 8), count: {count}, height: low, schedule: close_support, window: 1)"#
    );
    scenario.sides[0].aircraft.push(ron::from_str(&typhoons).unwrap());
    scenario
}

#[test]
fn ground_troops_fire_at_aircraft_overhead() {
    let scenario = air_raid("fast", 3, 2);
    let mut fired = 0;
    for seed in 0..10 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        for (k, e) in log.iter().enumerate() {
            if e.event.rule.section == "Anti aircraft fire" {
                fired += 1;
                assert_eq!(e.event.actor.as_deref(), Some("g1"));
                let spotted =
                    log[..k].iter().rev().find(|p| p.event.rule.section == "Observation - aircraft rules").unwrap();
                assert_eq!(
                    spotted.event.outcome["seen"],
                    serde_json::json!(true),
                    "seed {seed}: fired before spotting"
                );
            }
        }
    }
    assert!(fired > 0, "the German section never fired at the Typhoons");
}

#[test]
fn dedicated_aa_guns_fire_at_the_aircraft_their_cannon_reach() {
    // Heroes All, "Anti aircraft fire": a "single cannon <40mm" fires at
    // medium level and not at low. Bombers stay at medium to bomb; the
    // Typhoons' rockets take them down to low level.
    let flak: warbound_rules::scenario::ElementSpec =
        ron::from_str(r#"(id: "flak", pieces: [(codex: "de_flak38")], start: at(36, 44))"#).unwrap();
    let raid = |height: warbound_rules::aircraft::Height| {
        let mut s = air_raid("slow", 2, 2);
        let squadron = &mut s.sides[0].aircraft[0];
        squadron.height = height;
        if height == warbound_rules::aircraft::Height::Medium {
            let machine = &mut squadron.aircraft;
            (machine.name, machine.cannon, machine.rockets) = ("Bristol Blenheim IV".into(), 0, 0);
            machine.bombs = Some((warbound_rules::aircraft::BombSize::Medium, 2));
        }
        s.sides[1].companies[0].elements.push(flak.clone());
        s
    };
    let (mut at_medium, mut at_low) = (0, 0);
    for seed in 0..10 {
        for height in [warbound_rules::aircraft::Height::Medium, warbound_rules::aircraft::Height::Low] {
            let (app, _) = autoplay("duel", raid(height), seed);
            let log = &app.world().resource::<BattleLog>().entries;
            for e in log
                .iter()
                .filter(|e| e.event.rule.section == "Anti aircraft fire" && e.event.actor.as_deref() == Some("flak"))
            {
                let input = |name: &str| e.event.inputs.iter().find(|i| i.name == name).unwrap().value.clone();
                assert_eq!(input("weapon"), serde_json::json!("cannon_under40"), "seed {seed}");
                assert_eq!(input("height"), serde_json::json!("medium"), "seed {seed}: the cannon fired below medium");
                if height == warbound_rules::aircraft::Height::Medium {
                    at_medium += 1;
                } else {
                    at_low += 1;
                }
            }
        }
    }
    assert!(at_medium > 0, "the Flak never fired at the bombers at medium level");
    assert_eq!(at_low, 0, "the Flak fired at the Typhoons at low level");
}

#[test]
fn squadrons_meeting_over_the_table_match_up_and_fight_instead_of_attacking_the_ground() {
    // Heroes All, "Air to air combat": "Each of the opposing squadrons
    // 'match-up' aircraft to aircraft", a D6 a gun, 3+ to damage.
    let mut scenario = air_raid("fast", 3, 3);
    let fighters = r#"(id: "bf109s", aircraft: (name: "Messerschmitt Bf 109 F", role: fighter, speed: fast, strength: 2, mmg: 2, cannon: 1), count: 2, height: low, schedule: close_support, window: 1)"#;
    scenario.sides[1].aircraft.push(ron::from_str(fighters).unwrap());
    let (mut fights, mut fired, mut damages, mut hit) = (0, 0, 0, 0);
    for seed in 0..12 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        for (k, e) in log.iter().enumerate().filter(|(_, e)| e.event.rule.section == "Air to air combat") {
            let actor = e.event.actor.clone().unwrap();
            let enemy = if actor == "typhoons" { "bf109s" } else { "typhoons" };
            assert_eq!(e.event.target.as_deref(), Some(enemy), "seed {seed}");
            if let Some(attackers) = e.event.outcome.get("attackers") {
                fights += 1;
                let per: Vec<usize> =
                    serde_json::from_value(e.event.inputs.iter().find(|i| i.name == "match_up").unwrap().value.clone())
                        .unwrap();
                assert_eq!(per.iter().sum::<usize>() as u64, attackers.as_u64().unwrap(), "seed {seed}: {per:?}");
                let (most, least) = (per.iter().max().unwrap(), per.iter().min().unwrap());
                assert!(most - least <= 1, "seed {seed}: an uneven match-up {per:?}");
                // Its Fire phase went on the enemy machines, none on the ground.
                let card_end = (k + 1..log.len()).find(|&j| log[j].event.kind == EventKind::Ort).unwrap_or(log.len());
                assert!(
                    !log[k..card_end].iter().any(|j| j.event.actor.as_deref() == Some(actor.as_str())
                        && j.event.rule.section.starts_with("Aircraft attacking")),
                    "seed {seed}: {actor} fought in the air and attacked the ground"
                );
            } else if e.event.outcome.get("result").is_some() {
                // The damage is taken by a machine of the squadron fired at.
                hit += 1;
            } else {
                fired += 1;
                let spotted = log[..k]
                    .iter()
                    .rev()
                    .find(|p| p.event.rule.section == "Observation - aircraft rules")
                    .expect("spotted first");
                assert_eq!(spotted.event.outcome["seen"], serde_json::json!(true), "seed {seed}: fired unseen");
                damages += e.event.outcome["damages"].as_u64().unwrap();
            }
        }
    }
    assert!(fights > 0 && fired > 0, "the squadrons never fought: {fights} fights, {fired} volleys");
    assert!(damages > 0, "no volley damaged a machine in {fired}");
    assert!(hit > 0, "no damage was taken");
}

#[test]
fn a_player_nco_who_seizes_the_initiative_may_swap_cards() {
    let mut swapped = 0;
    for seed in 0..60 {
        let mut start = BattleStart::auto("village", load("village"), seed);
        start.control = vec![Control::Player, Control::Auto];
        let mut app = battle_app(start, BattleLog::default()).unwrap();
        play::advance(&mut app).unwrap();
        let mut steps = 0;
        while !play::is_over(app.world()) && steps < 400 {
            steps += 1;
            if let Flow::Seize { element } = app.world().resource::<Flow>().clone() {
                let refused = |app: &App| last_event(app).outcome["accepted"] == serde_json::json!(false);
                // Not with an enemy element.
                play::command(
                    &mut app,
                    Command::Seize { element: element.clone(), swap_with: Some("zug_1_gruppe_1".into()) },
                )
                .unwrap();
                assert!(refused(&app), "swapped with an enemy");
                let deck = app.world().resource::<Battle>().deck.clone().unwrap();
                let order: Vec<String> = deck.order().into_iter().map(str::to_owned).collect();
                let me = order.iter().position(|id| *id == element).unwrap();
                let friends: Vec<String> =
                    elements(&app).iter().filter(|f| f.identity.side == 0).map(|f| f.id().to_owned()).collect();
                let later = order[me + 1..].iter().find(|id| friends.contains(id)).cloned();
                if let Some(friend) = later {
                    play::command(
                        &mut app,
                        Command::Seize { element: element.clone(), swap_with: Some(friend.clone()) },
                    )
                    .unwrap();
                    let deck = app.world().resource::<Battle>().deck.clone().unwrap();
                    assert!(deck.card_of(&element) > deck.card_of(&friend), "the seizer now acts later");
                    assert_eq!(deck.needs_ort(&element), Ok(false), "the seizer takes no new ORT on the card he took");
                    swapped += 1;
                    break;
                }
                play::command(&mut app, Command::Seize { element, swap_with: None }).unwrap();
                continue;
            }
            let cmd = march(&mut app).expect("waiting for the player");
            play::command(&mut app, cmd).unwrap();
        }
        if swapped > 0 {
            break;
        }
    }
    assert!(swapped > 0, "no Player NCO seized the initiative with a friend yet to act");
}

#[test]
fn air_command_gets_a_card_and_tests_its_momentum_for_damage() {
    let scenario = air_raid("slow", 1, 3);
    let mut tested = 0;
    for seed in 0..30 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let dealt = log.iter().any(|e| {
            e.event.kind == EventKind::OpcDeal && e.event.outcome["order"].to_string().contains("air_command_0")
        });
        assert!(dealt, "seed {seed}: Air Command was dealt no card");
        for e in log.iter().filter(|e| e.event.rule.section == "Continuous Momentum for Aircraft") {
            tested += 1;
            let damages = e.event.inputs.iter().find(|i| i.name == "damages").unwrap().value.as_u64().unwrap();
            assert_eq!(e.event.dice.len() as u64, damages, "a D6 a damage");
        }
    }
    assert!(tested > 0, "Air Command never tested its momentum");
}

#[test]
fn sappers_clear_a_minefield_over_several_bounds() {
    let mut scenario = duel(
        r#"(activity: Engineering, location: "the farm", detail: "clear the minefield")"#,
        r#"(activity: Overwatch, location: "the road")"#,
        (66.0, 46.0),
    );
    scenario.time_limit = 12;
    scenario.terrain.features.push(warbound_rules::terrain::Feature::Minefield {
        outline: vec![Point(30.0, 20.0), Point(42.0, 20.0), Point(42.0, 28.0), Point(30.0, 28.0)],
        kind: warbound_rules::mines::MineKind::AntiPersonnel,
    });
    let mut cleared = 0;
    for seed in 0..10 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let clearing: Vec<_> = log.iter().filter(|e| e.event.inputs.iter().any(|i| i.name == "clearers")).collect();
        let mut last = 0;
        for e in &clearing {
            let acc = e.event.outcome["accumulated"].as_u64().unwrap();
            assert!(acc >= last, "the clearing score accumulates");
            last = acc;
        }
        if clearing.last().is_some_and(|e| e.event.outcome["clear"] == serde_json::json!(true)) {
            cleared += 1;
            assert!(last >= 10, "cleared with {last}");
        }
    }
    assert!(cleared > 0, "the sappers never cleared the minefield");
}

#[test]
fn shells_on_a_house_hit_the_house_before_the_men_inside() {
    let mut scenario =
        duel(r#"(activity: Hold, location: "the farm")"#, r#"(activity: Hold, location: "the road")"#, (36.0, 40.0));
    scenario.terrain.features.push(warbound_rules::terrain::Feature::Building {
        outline: vec![Point(33.0, 37.0), Point(39.0, 37.0), Point(39.0, 43.0), Point(33.0, 43.0)],
        structure: warbound_rules::buildings::Structure::House,
        storeys: 1,
        capacity: None,
        defence: None,
        ruined: false,
    });
    scenario.sides[0].foos.push(ron::from_str(r#"(id: "foo", grade: Regular, attached_to: "a1")"#).unwrap());
    scenario.sides[0]
        .artillery
        .push(ron::from_str(r#"(id: "battery", gun: "gb_25pdr", guns: 4, foo: "foo")"#).unwrap());
    scenario.time_limit = 12;
    let (mut hits, mut ruins) = (0, 0);
    for seed in 0..20 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        for e in &app.world().resource::<BattleLog>().entries {
            if e.event.rule.section != "Hits on buildings & structures" {
                continue;
            }
            hits += 1;
            assert_eq!(e.event.target.as_deref(), Some("g1"));
            ruins += usize::from(e.event.outcome["destroyed"] == serde_json::json!(true));
            let out = &e.event.outcome;
            if out["destroyed"] == serde_json::json!(false) {
                assert_eq!(
                    out["casualties"],
                    serde_json::json!(0),
                    "seed {seed}: the men inside were hit through a standing house"
                );
            }
        }
        // Heroes All, "Buildings": "treat it as a ruin and hard cover".
        let battle = app.world().resource::<Battle>();
        for (k, b) in &battle.buildings {
            let ruined =
                matches!(battle.terrain.features[*k], warbound_rules::terrain::Feature::Building { ruined: true, .. });
            assert_eq!(ruined, b.is_ruin(), "seed {seed}: the ruin stands on the table");
        }
    }
    assert!(hits > 0, "the battery never hit the house");
    assert!(ruins > 0, "the battery never reduced the house to a ruin");
}

#[test]
fn shells_erode_a_bridge() {
    // Heroes All, "Bridges": "Bridge types are specified at the start of the
    // game and are given a \"Defence Value\" ... This can be eroded by mortar
    // or artillery HE fire"; "When the value of the bridge is reduced to 0 it
    // is destroyed." The German section holds a Type B bridge (4 points) that
    // a battery of 25-pounders shells.
    let mut scenario =
        duel(r#"(activity: Hold, location: "the farm")"#, r#"(activity: Hold, location: "the road")"#, (36.0, 40.0));
    let river = r#"River(kind: small, line: [(0, 40), (72, 40)], width: 3,
        bridges: [(kind: B, span: (from: (36, 37.5), to: (36, 42.5), width: 3))])"#;
    scenario.terrain.features.push(ron::from_str(river).unwrap());
    scenario.sides[0].foos.push(ron::from_str(r#"(id: "foo", grade: Regular, attached_to: "a1")"#).unwrap());
    scenario.sides[0]
        .artillery
        .push(ron::from_str(r#"(id: "battery", gun: "gb_25pdr", guns: 4, foo: "foo")"#).unwrap());
    scenario.time_limit = 12;
    let (mut eroded, mut destroyed) = (0, 0);
    for seed in 0..20 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let mut value = 4;
        for e in &app.world().resource::<BattleLog>().entries {
            if e.event.rule.section != "Bridges" || e.event.kind != EventKind::HeEffect {
                continue;
            }
            eroded += 1;
            assert_eq!(e.event.actor.as_deref(), Some("battery"), "seed {seed}");
            let lost = e.event.outcome["lost"].as_u64().unwrap();
            value -= lost;
            assert_eq!(e.event.outcome["value"].as_u64().unwrap(), value, "seed {seed}: the value erodes");
            destroyed += usize::from(value == 0);
        }
        let battle = app.world().resource::<Battle>();
        let spans = battle.terrain.features.iter().find_map(|f| match f {
            warbound_rules::terrain::Feature::River { bridges, .. } => Some(bridges.len()),
            _ => None,
        });
        assert_eq!(spans, Some(usize::from(value > 0)), "seed {seed}: a bridge at 0 is gone from the table");
    }
    assert!(eroded > 0, "the shells never fell on the bridge");
    assert!(destroyed > 0 || eroded > 5, "{eroded} hits, {destroyed} bridges destroyed");
}

#[test]
fn landing_craft_waves_land_in_their_lanes_and_a_wreck_blocks_its_lane() {
    let (name, scenario) = shipped().into_iter().find(|(n, _)| n == "beach").expect("the beach battle ships");
    let beach = scenario.sides[0].landing.clone().expect("the beach battle lands from the sea");
    let mut wrecks = 0;
    for seed in 0..24 {
        let (app, _) = autoplay(&name, scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let mut blocked = Vec::new();
        for e in log.iter() {
            let section = e.event.rule.section.as_str();
            if e.event.kind == EventKind::Movement && section == "Landing craft" {
                if e.event.outcome["destroyed"] == true {
                    wrecks += 1;
                    let craft = e.event.actor.clone().unwrap();
                    let spec = beach.craft.iter().find(|c| c.id == craft).unwrap();
                    assert_eq!(e.bound, spec.wave, "seed {seed}: {craft} struck a mine off its approach bound");
                    // Everyone aboard goes down with the craft, that bound.
                    for f in scenario.sides[0].elements() {
                        if f.start == warbound_rules::scenario::Start::Landing(spec.wave, spec.slot) {
                            let gone = log.iter().any(|l| {
                                l.bound == e.bound
                                    && l.event.kind == EventKind::Leaves
                                    && l.event.actor.as_deref() == Some(f.id.as_str())
                            });
                            assert!(gone, "seed {seed}: {} survived its craft", f.id);
                        }
                    }
                }
                if let Some(slot) = e.event.inputs.iter().find(|i| i.name == "blocked_slot") {
                    blocked.push(slot.value.as_u64().unwrap() as usize);
                }
            }
            if e.event.kind == EventKind::Arrival && section == "Landing craft landing sequence" {
                let craft = e.event.inputs[0].value.as_str().unwrap();
                let spec = beach.craft.iter().find(|c| c.id == craft).unwrap();
                assert_eq!(
                    e.bound,
                    spec.wave + 1,
                    "seed {seed}: wave {} lands the bound after its approach",
                    spec.wave
                );
                let slot = e.event.inputs[1].value.as_u64().unwrap() as usize;
                assert!(!blocked.contains(&slot), "seed {seed}: {craft} landed in blocked slot {slot}");
                assert_eq!(slot % 2, 0, "seed {seed}: a landing craft lands in a lane, not a gap");
                let x = e.event.inputs[2].value[0].as_f64().unwrap() as f32;
                assert_eq!(x, beach.slot_centre(slot).0, "seed {seed}: ashore in the middle of its lane");
            }
        }
    }
    assert!(wrecks > 0, "in 24 battles no craft struck the mined approaches (1 in 6 each)");
}

/// Sappers under an Engineering order at a small river with a bridging
/// site, riflemen ordered across it, a German charge on the old footbridge.
fn brook() -> Scenario {
    let text = r#"(
    name: "Brook", briefing: "test", table: (width: 72, depth: 48), time_limit: 12,
    terrain: (features: [River(kind: small, line: [(0, 20), (72, 20)], width: 3,
        bridges: [(kind: A, span: (from: (8, 17.5), to: (8, 22.5), width: 2))])]),
    places: [(name: "the crossing", at: (36, 20)), (name: "the far bank", at: (56, 30)), (name: "the farm", at: (36, 44))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         bridging: [(place: "the crossing", span: (from: (36, 17), to: (36, 23), width: 3))],
         companies: [(id: "re", officer: Regular, attached_to: "sappers", objective: (activity: Engineering, location: "the crossing", detail: "pontoon"),
            elements: [
                (id: "sappers", nco: Inspirational, figures: [(men: 6, weapon: "gb_no4_rifle")], start: at(36, 12)),
                (id: "riflemen", nco: Inspirational, figures: [(men: 6, weapon: "gb_no4_rifle")], start: at(56, 12),
                 order: (activity: Reposition, location: "the far bank")),
            ])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         charges: [(id: "footbridge", at: (8, 20), kind: large, delay: 2)],
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 4, weapon: "de_kar98k")], start: at(70, 46))])]),
    ],
)"#;
    Scenario::load("brook.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn sappers_bridge_the_river_men_wade_it_and_a_charge_brings_a_bridge_down() {
    let (mut built, mut waded, mut blown) = (0, 0, 0);
    for seed in 0..16 {
        let (app, _) = autoplay("brook", brook(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let battle = app.world().resource::<Battle>();
        let warbound_rules::terrain::Feature::River { bridges, .. } = &battle.terrain.features[0] else {
            panic!("the river is feature 0")
        };
        let pontoon =
            log.iter().find(|e| e.event.rule.section == "Pontoon bridges" && e.event.outcome["built"] == true);
        if let Some(done) = pontoon {
            built += 1;
            let thrown: u64 = log
                .iter()
                .filter(|e| e.bound <= done.bound && e.event.rule.section == "Pontoon bridges")
                .filter_map(|e| e.event.outcome["score"].as_u64())
                .sum();
            assert!(thrown >= 60, "seed {seed}: built on {thrown}, short of 60");
            assert!(bridges.iter().any(|b| b.span.from == Point(36.0, 17.0)), "seed {seed}: no pontoon on the table");
        }
        // Every bound's work is the sappers' whole turn: no other command that bound.
        for e in log.iter().filter(|e| e.event.rule.section == "Pontoon bridges" && e.event.actor.is_some()) {
            let other = log.iter().any(|l| {
                l.bound == e.bound
                    && l.event.kind == EventKind::Command
                    && l.event.actor.as_deref() == Some("sappers")
                    && !l.event.inputs[0].value.to_string().contains("bridge")
                    && l.event.outcome["accepted"] == true
            });
            assert!(!other, "seed {seed}: the sappers did something else in bound {} besides building", e.bound);
        }
        let wades =
            log.iter().filter(|e| e.event.rule.section == "Rivers" && e.event.actor.as_deref() == Some("riflemen"));
        let states: Vec<bool> = wades.map(|e| e.event.outcome["in_water"].as_bool().unwrap()).collect();
        if states.len() >= 2 {
            waded += 1;
            assert_eq!(&states[..2], &[true, false], "seed {seed}: in, then out");
            let riflemen = elements(&app).into_iter().find(|f| f.id() == "riflemen").unwrap();
            assert!(
                riflemen.place.at.1 > 21.5 || !riflemen.presence.status.on_table(),
                "seed {seed}: out on the far bank"
            );
        }
        let mut hit = log.iter().filter(|e| e.event.kind == EventKind::HeEffect && e.event.rule.section == "Bridges");
        if let Some(last) = hit.next_back() {
            blown += 1;
            let footbridge = bridges.iter().any(|b| b.span.from == Point(8.0, 17.5));
            assert_eq!(footbridge, last.event.outcome["destroyed"] == false, "seed {seed}: a destroyed bridge is gone");
        }
    }
    assert!(built >= 2, "the pontoon was built in only {built} of 16 battles");
    assert!(waded >= 2, "the riflemen waded across in only {waded} of 16 battles");
    assert!(blown >= 2, "the delayed charge hit the footbridge in only {blown} of 16 battles");
}

#[test]
fn every_actor_in_the_log_names_its_side_and_the_senior_officers_are_told_apart() {
    for (name, scenario) in shipped() {
        for mechanism in [Mechanism::Solo, Mechanism::TwoPlayer] {
            let mut start = BattleStart::auto(&name, scenario.clone(), 3);
            start.mechanism = mechanism;
            let (app, result) = play::autoplay(start, BattleLog::default(), codex()).unwrap();
            assert_sound(&app);
            let sides: Vec<&str> = result.sides.iter().map(|s| s.name.as_str()).collect();
            let log = &app.world().resource::<BattleLog>().entries;
            for e in log {
                let Some(actor) = &e.event.actor else { continue };
                // A building hit is the building's event: it fights for no side.
                if actor.starts_with("building ") {
                    assert_eq!(e.event.side, None);
                    continue;
                }
                let side = e.event.side.as_deref();
                assert!(side.is_some_and(|s| sides.contains(&s)), "{name}: {actor} names {side:?}, not a side");
            }
            // Every element of the summary is an actor the log can name.
            for el in &result.elements {
                let named = log.iter().filter(|e| e.event.actor.as_deref() == Some(el.id.as_str()));
                assert!(named.clone().all(|e| e.event.side.as_deref() == Some(sides[el.side])), "{name}: {}", el.id);
            }
        }
    }
}

#[test]
fn a_volley_that_hits_nothing_still_puts_men_under_fire() {
    // FYOB "Definition of 'Under fire'": "within range and has the capability
    // of taking casualties ... even though any shot has not caused either".
    let mut missed = 0;
    for (name, scenario) in shipped() {
        for seed in 1..=5 {
            let (app, _) = autoplay(&name, scenario.clone(), seed);
            let log = &app.world().resource::<BattleLog>().entries;
            for (k, e) in log.iter().enumerate() {
                let volley = e.event.kind == EventKind::Fire && e.event.rule.section == "How to fire weapons";
                // Smoke rounds are fired at a spot, not at men.
                let smoke = e.event.inputs.iter().any(|i| i.name == "smoke");
                if !volley || smoke || e.event.outcome["hits"] != 0 {
                    continue;
                }
                let target = e.event.target.as_deref();
                let Some(chart) = log[k..]
                    .iter()
                    .find(|l| l.event.rule.section == "Momentum Test Chart" && l.event.actor.as_deref() == target)
                else {
                    panic!("{name} seed {seed}: no Momentum Test Chart event after a volley at {target:?}")
                };
                let accrued = chart.event.outcome["accrued"].to_string();
                // Men and soft-skins come under small arms or HE; an AFV only
                // under a weapon that can harm it.
                let under = ["SmallArms", "MortarArtilleryOrAir", "AtFire"].iter().any(|row| accrued.contains(row));
                assert!(
                    under || accrued == "[]",
                    "{name} seed {seed}: a missed volley at {target:?} accrued {accrued}"
                );
                missed += usize::from(accrued.contains("SmallArms"));
            }
        }
    }
    assert!(missed > 20, "only {missed} missed volleys put men under fire");
}

/// The value of input `name` of a log entry's event, if it has one.
fn input<'a>(e: &'a warbound_battle::log::Entry, name: &str) -> Option<&'a serde_json::Value> {
    e.event.inputs.iter().find(|i| i.name == name).map(|i| &i.value)
}

#[test]
fn troops_fire_and_test_at_their_own_grade() {
    // Heroes All, "Cost of infantry": "for Momentum purposes ... Regular &
    // Regular (Enhanced) troops are considered to be Regular"; "Engineers":
    // "Engineers are rated as Poor for firing and Continuous Momentum Tests";
    // "Night fighting": "Elite and Partisan troops can ignore the above
    // restrictions" (halving the Movement Dice).
    use warbound_rules::{codex::FigureGrade, officer::Quality};
    let river = load("river");
    let (app, _) = autoplay("river", river.clone(), 1);
    let forces: BTreeMap<String, _> =
        elements(&app).into_iter().map(|f| (f.force.element.id.clone(), f.force)).collect();
    let graded = |id: &str| (forces[id].quality, forces[id].fire_and_cm_quality());
    // Regular Panzergrenadiers of a Poor side; Regular (Enhanced) paratroops of an Elite side.
    assert_eq!(graded("panzergrenadiere"), (Quality::Regular, Quality::Regular));
    assert_eq!(graded("7_para_a_coy"), (Quality::Regular, Quality::Regular));
    assert_eq!(graded("25_platoon"), (Quality::Elite, Quality::Elite));
    // The crews of a gun alone are of their side's grade.
    assert_eq!(graded("pak_bunker"), (Quality::Poor, Quality::Poor));
    // The sappers, sent to lift the bridge's charges, are engineers.
    assert!(forces["sappers"].engineers && !forces["24_platoon"].engineers);
    assert_eq!(graded("sappers"), (Quality::Regular, Quality::Poor));

    // Elite Panzergrenadiers of the same Poor side move freely by night.
    let mut elite = river.clone();
    for figures in &mut elite.sides[1].companies[1].elements[0].figures {
        figures.grade = Some(FigureGrade::Elite);
    }
    let (mut fired, mut tested, mut halved, mut free) = (0, 0, 0, 0);
    let mut grenadiers_fired = 0;
    for seed in 1..=6 {
        for (scenario, grenadiers) in [(&river, Quality::Regular), (&elite, Quality::Elite)] {
            let (app, _) = autoplay("river", scenario.clone(), seed);
            let log = &app.world().resource::<BattleLog>().entries;
            let dark: Vec<u32> = log
                .iter()
                .filter(|e| input(e, "light") == Some(&serde_json::json!("Night")))
                .map(|e| e.bound)
                .collect();
            for e in log {
                let actor = e.event.actor.as_deref().unwrap_or("");
                // Its troops' quality, and what it fires and tests at.
                let (troops, rated) = match actor {
                    "panzergrenadiere" => (grenadiers, grenadiers),
                    "7_para_a_coy" => (Quality::Regular, Quality::Regular),
                    "sappers" => (Quality::Regular, Quality::Poor),
                    "25_platoon" | "24_platoon" => (Quality::Elite, Quality::Elite),
                    _ => continue,
                };
                if e.event.kind == EventKind::Fire && e.event.rule.section == "How to fire weapons" {
                    fired += 1;
                    grenadiers_fired += usize::from(actor == "panzergrenadiere");
                    let (elite, poor) = (input(e, "elite_firer").is_some(), input(e, "poor_firer").is_some());
                    assert_eq!(
                        (elite, poor),
                        (rated == Quality::Elite, rated == Quality::Poor),
                        "seed {seed}: {actor}"
                    );
                }
                if e.event.kind == EventKind::CmTests {
                    tested += 1;
                    assert_eq!(input(e, "quality"), Some(&serde_json::json!(rated)), "seed {seed}: {actor}");
                }
                if e.event.kind == EventKind::Movement && input(e, "class").is_some() && dark.contains(&e.bound) {
                    let night = input(e, "night").is_some();
                    assert_eq!(night, troops != Quality::Elite, "seed {seed}: {actor} moved by night");
                    halved += usize::from(night);
                    free += usize::from(!night);
                }
            }
        }
    }
    assert!(
        grenadiers_fired > 0 && tested > 0 && halved > 0 && free > 0,
        "{fired} volleys ({grenadiers_fired} by the Panzergrenadiers), {tested} tests, {halved}/{free} moves"
    );
}

#[test]
fn a_salvo_that_kills_men_can_kill_their_nco() {
    // FYOB "NCO is a casualty": "When an element takes casualties, throw a D6
    // for each man lost. A score of 1 indicates that the NCO has been hit";
    // "Company Officer as a casualty": test "twice (for NCO and then CO)".
    let mut scenario =
        duel(r#"(activity: Hold, location: "the farm")"#, r#"(activity: Hold, location: "the road")"#, (36.0, 40.0));
    scenario.sides[0].foos.push(ron::from_str(r#"(id: "foo", grade: Regular, attached_to: "a1")"#).unwrap());
    scenario.sides[0]
        .artillery
        .push(ron::from_str(r#"(id: "battery", gun: "gb_25pdr", guns: 4, foo: "foo")"#).unwrap());
    scenario.time_limit = 12;
    let (mut killing, mut nco_hit) = (0, 0);
    for seed in 0..40 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        for (k, e) in log.iter().enumerate() {
            // The battery is the only HE on this table.
            let shell = e.event.kind == EventKind::HeEffect;
            if !shell || e.event.outcome["casualties"].as_u64().unwrap_or(0) == 0 {
                continue;
            }
            killing += 1;
            let target = e.event.target.as_deref();
            let check = log[k + 1..]
                .iter()
                .find(|l| matches!(l.event.kind, EventKind::HeEffect | EventKind::OfficerCasualty))
                .filter(|l| l.event.kind == EventKind::OfficerCasualty && l.event.actor.as_deref() == target);
            let Some(check) = check else {
                panic!("seed {seed}: no officer casualty check after a shell killed men of {target:?}")
            };
            assert!(input(check, "men_lost").and_then(|v| v.as_u64()).is_some_and(|n| n > 0));
            nco_hit += usize::from(check.event.outcome["nco_hit"] == serde_json::json!(true));
        }
    }
    assert!(killing > 0 && nco_hit > 0, "{killing} shells killed men, {nco_hit} of them their NCO");
}

#[test]
fn a_tank_in_a_charges_stun_zone_tests_and_acts() {
    // Heroes All, "Explosives": troops in the stun zone "accrue Momentum Tests
    // as if they were under artillery/mortar fire"; a tank reads its own chart
    // (FYOB "Definitions of element types for CM purposes"): "Closed AFV under
    // HE fire or from the air". It takes those tests and fights on.
    let mut scenario =
        duel(r#"(activity: Hold, location: "the farm")"#, r#"(activity: Hold, location: "the road")"#, (66.0, 46.0));
    scenario.sides[0].companies[0].elements.push(
        ron::from_str(r#"(id: "t1", nco: Some(Regular), pieces: [(codex: "gb_sherman_v")], start: at(36, 24))"#)
            .unwrap(),
    );
    let mut scenario = with_charge(scenario, 1, (38.5, 24.0));
    scenario.sides[1].charges[0].delay = 1;
    let mut stunned = 0;
    for seed in 0..20 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let Some(k) = log.iter().position(|e| {
            e.event.kind == EventKind::Explosives
                && e.event.outcome["demolished"].is_string()
                && e.event.outcome["stun_inches"].as_f64().is_some_and(|s| s >= 2.5)
        }) else {
            continue;
        };
        let bound = log[k].bound;
        let mine = |e: &&warbound_battle::log::Entry| e.event.actor.as_deref() == Some("t1") && e.bound > bound;
        let accrued = |e: &warbound_battle::log::Entry| {
            e.event.inputs.iter().find(|i| i.name == "accrued").map(|i| i.value.to_string()).unwrap_or_default()
        };
        // Nothing else on the table fires HE at the tank.
        let Some(t) = log[k..]
            .iter()
            .filter(mine)
            .position(|e| e.event.kind == EventKind::CmTests && accrued(e).contains("ClosedAfvUnderHe"))
        else {
            continue;
        };
        stunned += 1;
        let after: Vec<_> = log[k..].iter().filter(mine).skip(t).collect();
        assert!(
            after.iter().any(|e| e.event.kind == EventKind::OrderDie),
            "seed {seed}: the tank never threw an Order Die after the blast"
        );
    }
    assert!(stunned >= 3, "the charge stunned the tank only {stunned} times");
}

/// The log's Momentum Test Chart sets left by `by` ("off-table battery",
/// "air attack", "volleys").
fn sets_by<'a>(log: &'a [warbound_battle::log::Entry], by: &str) -> Vec<(usize, &'a warbound_battle::log::Entry)> {
    log.iter()
        .enumerate()
        .filter(|(_, e)| {
            e.event.rule.section == "Momentum Test Chart"
                && e.event.inputs.iter().any(|i| i.name == "fire" && i.value == serde_json::json!(by))
        })
        .collect()
}

/// How many times `row` was accrued in a set.
fn accrued_row(e: &warbound_battle::log::Entry, row: &str) -> u64 {
    let rows = e.event.outcome["accrued"].as_array().cloned().unwrap_or_default();
    rows.iter().filter(|r| r[0] == serde_json::json!(row)).map(|r| r[1].as_u64().unwrap()).sum()
}

fn input_u64(e: &warbound_battle::log::Entry, name: &str) -> u64 {
    e.event.inputs.iter().find(|i| i.name == name).and_then(|i| i.value.as_u64()).unwrap()
}

#[test]
fn a_salvo_is_one_set_of_tests_and_a_miss_still_counts() {
    // FYOB: "An element coming under fire or taking casualties from 2 separate
    // elements in a bound will accrue 2 or more sets of tests"; "An element is
    // 'under fire' if the weapon shooting at them is within range ... even
    // though any shot has not caused either". A battery is one firing element
    // (Heroes All: "The guns under his control will then fire on this target");
    // two batteries are two.
    let mut scenario =
        duel(r#"(activity: Hold, location: "the farm")"#, r#"(activity: Hold, location: "the road")"#, (36.0, 40.0));
    scenario.sides[0].foos.push(ron::from_str(r#"(id: "foo", grade: Regular, attached_to: "a1")"#).unwrap());
    for (id, guns) in [("battery", 4), ("section", 1)] {
        let spec = format!(r#"(id: "{id}", gun: "gb_25pdr", guns: {guns}, foo: "foo")"#);
        scenario.sides[0].artillery.push(ron::from_str(&spec).unwrap());
    }
    scenario.time_limit = 12;
    let (mut salvos_on_men, mut all_missed, mut most_hit) = (0, 0, 0);
    // The FOO is with a1 and may fall with its men (then nets in again): many seeds.
    for seed in 0..60 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let sets = sets_by(log, "off-table battery");
        let by = |e: &warbound_battle::log::Entry| {
            e.event.inputs.iter().find(|i| i.name == "battery").unwrap().value.as_str().unwrap().to_owned()
        };
        for (k, set) in &sets {
            let battery = by(set);
            // The salvo: the run of this battery's shells before this set, no
            // other set of the battery's between them.
            let shells: Vec<usize> = (0..*k)
                .filter(|&s| log[s].event.actor.as_deref() == Some(battery.as_str()))
                .filter(|&s| log[s].event.rule.section == "Indirect Fire")
                .collect();
            let theirs: Vec<usize> = sets.iter().filter(|(_, e)| by(e) == battery).map(|(j, _)| *j).collect();
            let mut salvo: Vec<usize> = Vec::new();
            for &s in shells.iter().rev() {
                if salvo.last().is_some_and(|&later| theirs.iter().any(|&j| s < j && j < later)) {
                    break;
                }
                salvo.push(s);
            }
            let guns = if battery == "battery" { 4 } else { 1 };
            assert_eq!(salvo.len(), guns, "seed {seed}: a set after {} shells of {battery}", salvo.len());
            let hits = salvo.iter().filter(|&&s| log[s].event.outcome["hit"] == serde_json::json!(true)).count();
            // Where the guns were called: a target that moved gives no -1.
            for &s in &salvo {
                let modifier = log[s].event.inputs.iter().find(|i| i.name == "modifier").unwrap();
                assert!(modifier.value.as_i64().unwrap() >= 0, "seed {seed}: off-table fire saw its target move");
            }
            let from = set.event.inputs.iter().find(|i| i.name == "from_point").unwrap().value.as_f64().unwrap();
            assert!(from <= 3.0, "seed {seed}: a set {from}\" from where the shells fell");
            // One set for the salvo, whatever the hits: the row once, the
            // unseen guns once, each casualty once.
            assert_eq!(accrued_row(set, "MortarArtilleryOrAir"), 1, "seed {seed}: {:?}", set.event.outcome);
            assert_eq!(accrued_row(set, "UnobservedEnemy"), 1, "seed {seed}");
            let casualties: u64 = ["CasualtyInHardCover", "CasualtyInSoftCover", "CasualtyInOpen"]
                .iter()
                .map(|row| accrued_row(set, row))
                .sum();
            assert_eq!(casualties, input_u64(set, "casualties"), "seed {seed}");
            // Each element under the salvo takes one set for it.
            let next_shell =
                (*k..log.len()).find(|&s| log[s].event.rule.section == "Indirect Fire").unwrap_or(log.len());
            let again = sets
                .iter()
                .filter(|(j, e)| j > k && *j < next_shell && e.event.actor == set.event.actor && by(e) == battery);
            assert_eq!(again.count(), 0, "seed {seed}: two sets for one salvo on {:?}", set.event.actor);
            salvos_on_men += 1;
            all_missed += usize::from(hits == 0);
            most_hit += usize::from(hits >= 3);
        }
    }
    assert!(salvos_on_men > 10, "only {salvos_on_men} salvos fell on men");
    assert!(all_missed > 0, "no salvo that missed with every shell put its men under fire");
    assert!(most_hit > 0, "no salvo hit three or four times");
}

#[test]
fn an_air_attack_is_one_set_of_tests_hit_or_miss() {
    // FYOB "Definition of 'Under fire'": hit or miss. Heroes All: "Hits on
    // infantry, CSW and soft-skinned targets are dealt with as if they were
    // hits from a grounded weapon" — guns put men under small arms fire;
    // bombs put them under the chart's "dive bomb" row. The squadron is one
    // firing element: one set an attack, however many machines.
    let mut strafing = air_raid("slow", 1, 2);
    let machine = &mut strafing.sides[0].aircraft[0].aircraft;
    (machine.name, machine.cannon, machine.rockets, machine.mmg) = ("Westland Lysander".into(), 0, 0, 2);
    let mut bombing = strafing.clone();
    let machine = &mut bombing.sides[0].aircraft[0].aircraft;
    (machine.mmg, machine.bombs) = (0, Some((warbound_rules::aircraft::BombSize::Small, 2)));
    for (scenario, row) in [(strafing, "SmallArms"), (bombing, "MortarArtilleryOrAir")] {
        let (mut attacks, mut missed) = (0, 0);
        for seed in 0..20 {
            let (app, _) = autoplay("duel", scenario.clone(), seed);
            let log = &app.world().resource::<BattleLog>().entries;
            let sets = sets_by(log, "air attack");
            for (k, set) in &sets {
                assert_eq!(set.event.actor.as_deref(), Some("g1"));
                let rows = set.event.outcome["accrued"].as_array().unwrap();
                let under: Vec<_> = rows.iter().filter(|r| r[0].as_str().unwrap().starts_with(row)).collect();
                assert_eq!(under.len(), 1, "seed {seed}: {rows:?}");
                assert_eq!(under[0][1], serde_json::json!(1), "seed {seed}: one set for the squadron: {rows:?}");
                assert_eq!(accrued_row(set, "UnobservedEnemy"), 0, "seed {seed}: the attackers are seen");
                let passes = log[..*k]
                    .iter()
                    .rev()
                    .take_while(|e| e.event.rule.section != "Momentum Test Chart")
                    .filter(|e| e.event.rule.section == "Aircraft attacking ground troops");
                let hits: u64 = passes.map(|e| e.event.outcome["hits"].as_u64().unwrap()).sum();
                attacks += 1;
                missed += usize::from(hits == 0);
            }
        }
        assert!(attacks > 0, "{row}: the squadron never attacked");
        assert!(missed > 0, "{row}: no attack that missed put the section under fire");
    }
}

#[test]
fn a_typhoon_can_brew_a_panther() {
    // Heroes All, "Anti Tank damage": "Where aircraft attack with AT weapons
    // against armoured vehicles, throw a 5+ on a D6 to hit if the target is
    // stationary or 6 if it is moving. Treat the Attack Value of the AT weapon
    // as +8. Defence Values for the top of AFVs is the same as the side
    // armour." Reading: the Typhoon's 8 rockets are its AT weapons, a D6 each.
    let mut scenario = air_raid("fast", 3, 2);
    let panther = r#"(id: "g1", nco: Some(Regular), pieces: [(codex: "de_panther_g")], start: at(36, 40))"#;
    scenario.sides[1].companies[0].elements[0] = ron::from_str(panther).unwrap();
    let (mut attacks, mut hits, mut harmed) = (0, 0, 0);
    for seed in 0..20 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        for (k, e) in log.iter().enumerate() {
            if e.event.rule.section != "Anti Tank damage" {
                continue;
            }
            attacks += 1;
            assert_eq!(e.event.target.as_deref(), Some("g1"));
            assert_eq!(e.event.dice.len(), 8, "seed {seed}: a D6 a rocket");
            assert_eq!(input_u64(e, "need"), 5, "seed {seed}: the Panther holds, stationary");
            let n = e.event.outcome["hits"].as_u64().unwrap();
            hits += n;
            let effects = log[k + 1..].iter().take(n as usize).collect::<Vec<_>>();
            for h in &effects {
                assert_eq!(h.event.rule.section, "Effects of AT on armour and soft-skinned vehicles");
                assert_eq!(input_u64(h, "attack_value"), 8);
                assert_eq!(h.event.inputs.iter().find(|i| i.name == "facing").unwrap().value, "side");
                harmed += usize::from(h.event.outcome["result"] != "no_effect");
            }
        }
        for (_, set) in sets_by(log, "air attack") {
            assert_eq!(accrued_row(set, "AtFire"), 1, "seed {seed}: the rockets put the Panther under AT fire");
        }
    }
    assert!(attacks > 0 && hits > 0, "{attacks} attacks, {hits} hits");
    assert!(harmed > 0, "no rocket hit damaged or brewed the Panther in {hits} hits");
}

#[test]
fn a_tank_points_the_way_it_drove() {
    // Heroes All, "AT guns firing at armour/softs": "taking a line from corner
    // to corner of the vehicle and seeing which quadrant the firer can see".
    // The hull points the way the tank last drove (it starts facing away from
    // its own edge); FYOB "Results of Momentum Tests": "AFV's may reverse so
    // as to continue to show their frontal armour to the enemy".
    let text = r#"(
    name: "Drive", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the road", at: (36, 4)), (name: "the bend", at: (66, 30))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [(id: "a1", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], pieces: [(codex: "gb_bren")], start: at(36, 4))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: ContactEnemy, location: "the bend"),
            elements: [(id: "g1", nco: Regular, pieces: [(codex: "de_pz4h")], start: at(6, 44))])]),
    ],
)"#;
    let scenario = Scenario::load("drive.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let (mut forward, mut reversed) = (0, 0);
    for seed in 0..6 {
        let mut last: Option<warbound_battle::state::Place> = None;
        step_through(BattleStart::auto("drive", scenario.clone(), seed), |app| {
            let Some(tank) = elements(app).into_iter().find(|f| f.id() == "g1") else { return };
            let now = tank.place.clone();
            if let Some(before) = last.replace(now.clone()) {
                if before.at == now.at {
                    assert_eq!(before.heading, now.heading, "seed {seed}: turned without moving");
                    return;
                }
                let (dx, dy) = (now.at.0 - before.at.0, now.at.1 - before.at.1);
                let h = now.heading.expect("a tank that moved has a heading");
                let cos = (dx * h.0 + dy * h.1) / (dx.hypot(dy) * h.0.hypot(h.1));
                if cos > 0.999 {
                    forward += 1;
                } else {
                    assert_eq!(now.heading, before.heading, "seed {seed}: only a reverse keeps the old heading");
                    reversed += 1;
                }
            } else {
                assert_eq!(now.heading, None, "seed {seed}: no heading before it moves");
            }
        });
    }
    assert!(forward > 0, "the tank never drove ({reversed} reverses)");
}

#[test]
fn a_damaged_tank_throws_one_die() {
    // Heroes All, "Movement": "Tracked vehicles passing over areas designated
    // as \"rough ground\" throw 1D6 per movement. A 1 indicates a lost track
    // and \"damage\"." "Any vehicle noted as \"damaged\" only moves 1 x D6
    // inches per bound."
    let text = r#"(
    name: "Rough", briefing: "test", table: (width: 72, depth: 48), time_limit: 8,
    places: [(name: "the road", at: (36, 4)), (name: "the far side", at: (36, 8))],
    terrain: (features: [RoughGround(outline: [(0, 10), (72, 10), (72, 42), (0, 42)])]),
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [(id: "a1", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], pieces: [(codex: "gb_bren")], start: at(60, 4))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: ContactEnemy, location: "the far side"),
            elements: [(id: "g1", nco: Regular, pieces: [(codex: "de_pz4h")], start: at(36, 44))])]),
    ],
)"#;
    let scenario = Scenario::load("rough.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let (mut lost, mut after) = (0, 0);
    for seed in 0..20 {
        let (app, _) = autoplay("rough", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let moves = log.iter().filter(|e| e.event.actor.as_deref() == Some("g1") && e.event.rule.section == "Movement");
        let mut damaged = false;
        for e in moves {
            if damaged {
                assert_eq!(input_u64(e, "dice"), 1, "seed {seed}: a damaged tank throws 1D6");
                after += 1;
            }
            if e.event.outcome["track_lost"] == serde_json::json!(true) {
                lost += 1;
                damaged = true;
            }
        }
        if damaged {
            let tank = elements(&app).into_iter().find(|f| f.id() == "g1").unwrap();
            assert_ne!(tank.vehicle.state, Some(warbound_rules::effects::VehicleState::Intact), "seed {seed}");
        }
    }
    assert!(lost > 0 && after > 0, "{lost} tracks lost, {after} moves after");
}

#[test]
fn a_panther_stops_at_a_light_bridge() {
    // Heroes All, "Bridges": Type A, "small wood or iron structures over a
    // small river. Only light vehicles up to the weight of Medium tanks may
    // cross." A Panther (Heavy armour) driving for the road stops at the bank.
    let text = r#"(
    name: "Bridge", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the road", at: (36, 4)), (name: "the farm", at: (36, 44))],
    terrain: (features: [
        River(kind: small, line: [(0, 24), (72, 24)], width: 3,
              bridges: [(kind: A, span: (from: (36, 21.5), to: (36, 26.5), width: 3))]),
    ]),
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [(id: "a1", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], pieces: [(codex: "gb_bren")], start: at(36, 4))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: ContactEnemy, location: "the road"),
            elements: [(id: "g1", nco: Regular, pieces: [(codex: "de_panther_g")], start: at(36, 36))])]),
    ],
)"#;
    let scenario = Scenario::load("bridge.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let mut stopped = 0;
    for seed in 0..6 {
        let (app, _) = autoplay("bridge", scenario.clone(), seed);
        for e in &app.world().resource::<BattleLog>().entries {
            if e.event.rule.section == "Bridges" && e.event.kind == EventKind::Movement {
                assert_eq!(e.event.actor.as_deref(), Some("g1"));
                stopped += 1;
            }
        }
        let tank = elements(&app).into_iter().find(|f| f.id() == "g1").unwrap();
        assert!(tank.place.at.1 > 26.0, "seed {seed}: the Panther crossed the light bridge to {:?}", tank.place.at);
    }
    assert!(stopped > 0, "the Panther never drove up to the bridge");
}

#[test]
fn a_vehicle_crossing_a_bridge_at_one_collapses_it_on_a_double() {
    // Heroes All, "Bridges": "When, as a result of an attack, the bridge
    // value falls to 1, throw 2D6 per bound per vehicle passing over it. A
    // double means it collapses." A Panzer IV drives over a Type A bridge
    // already shot down to 1.
    let text = r#"(
    name: "Bridge", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the road", at: (36, 4)), (name: "the farm", at: (36, 44))],
    terrain: (features: [
        River(kind: small, line: [(0, 24), (72, 24)], width: 3,
              bridges: [(kind: A, span: (from: (36, 21.5), to: (36, 26.5), width: 3))]),
    ]),
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [(id: "a1", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(20, 2))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Reposition, location: "the road"),
            elements: [(id: "g1", nco: Regular, pieces: [(codex: "de_pz4h")], start: at(36, 30))])]),
    ],
)"#;
    let scenario = Scenario::load("bridge.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let (mut crossed, mut collapsed) = (0, 0);
    for seed in 0..40 {
        let mut start = BattleStart::auto("bridge", scenario.clone(), seed);
        start.control = vec![Control::Auto, Control::Auto];
        let mut app = battle_app(start, BattleLog::default()).unwrap();
        app.world_mut().resource_mut::<Battle>().bridges[0].bridge.value = 1;
        play::advance(&mut app).unwrap();
        assert_sound(&app);
        let log = &app.world().resource::<BattleLog>().entries;
        let throws: Vec<_> =
            log.iter().filter(|e| e.event.rule.section == "Bridges" && e.event.kind == EventKind::Movement).collect();
        for (k, e) in throws.iter().enumerate() {
            assert_eq!(e.event.actor.as_deref(), Some("g1"));
            let faces: Vec<u8> = e.event.dice.iter().map(|d| d.face).collect();
            assert_eq!(faces.len(), 2, "seed {seed}: 2D6 for the crossing");
            let double = faces[0] == faces[1];
            assert_eq!(e.event.outcome == serde_json::json!("collapsed"), double, "seed {seed}: {faces:?}");
            if double {
                assert_eq!(k, throws.len() - 1, "seed {seed}: nothing crosses a collapsed bridge");
            }
        }
        let tank = elements(&app).into_iter().find(|f| f.id() == "g1").unwrap();
        let bridges = &app.world().resource::<Battle>().bridges;
        if throws.last().is_some_and(|e| e.event.outcome == serde_json::json!("collapsed")) {
            collapsed += 1;
            assert!(bridges[0].bridge.is_destroyed(), "seed {seed}: the bridge is gone");
            assert!(!tank.presence.status.on_table(), "seed {seed}: the tank went down with it");
        } else if !throws.is_empty() {
            crossed += 1;
            assert_eq!(bridges[0].bridge.value, 1, "seed {seed}: a crossing leaves the bridge at 1");
        }
    }
    assert!(crossed > 0 && collapsed > 0, "crossed {crossed}, collapsed {collapsed}");
}

#[test]
fn a_set_knocked_off_the_net_is_netted_in_again_by_an_act() {
    // FYOB "Radios": "If, during a game, (i) an infantry element is hit by
    // mortar or artillery fire from a weapon with a calibre of 81mm or more
    // ... then the radio set must be netted in again"; "2 Radio tests are
    // allowed per bound (each using 1 act)"; British Officers "must score 4+"
    // on a D10. A British section with a radio under a German 8cm mortar.
    let text = r#"(
    name: "Radio", briefing: "test", table: (width: 72, depth: 48), time_limit: 8,
    places: [(name: "the road", at: (36, 10)), (name: "the farm", at: (36, 36))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "hq", objective: (activity: Hold, location: "the road"),
            elements: [
                (id: "hq", nco: Regular, figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(20, 2)),
                (id: "a1", nco: Regular, radio: true, figures: [(men: 10, weapon: "gb_no4_rifle")], start: at(36, 10)),
            ])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, pieces: [(codex: "de_grw34"), (codex: "de_grw34")], start: at(36, 36))])]),
    ],
)"#;
    let scenario = Scenario::load("radio.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let (mut knocked, mut renets, mut passed) = (0, 0, 0);
    for seed in 0..30 {
        let (app, _) = autoplay("radio", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let mut off = false;
        for (k, e) in log.iter().enumerate() {
            let by_a1 = e.event.actor.as_deref() == Some("a1");
            if e.event.kind == EventKind::RadioTest && by_a1 && e.event.outcome["off_net"] == serde_json::json!(true) {
                knocked += 1;
                off = true;
                // A mortar bomb of g1's hit a1 just before.
                let hit = log[..k].iter().rev().find(|h| h.event.kind == EventKind::Fire).expect("the fire that hit");
                assert_eq!((hit.event.actor.as_deref(), hit.event.target.as_deref()), (Some("g1"), Some("a1")));
                assert_eq!(hit.event.outcome["hit"], serde_json::json!(true), "seed {seed}");
            } else if e.event.kind == EventKind::RadioTest && by_a1 {
                assert!(off, "seed {seed}: a Radio Test for a set on the net");
                renets += 1;
                let face = e.event.dice[0].face;
                let pass = face >= 4 || face == 0;
                assert_eq!(e.event.outcome["passed"], serde_json::json!(pass), "seed {seed}: D10 {face}");
                if pass {
                    passed += 1;
                    off = false;
                }
            }
        }
        let a1 = elements(&app).into_iter().find(|f| f.id() == "a1").unwrap();
        assert_eq!(a1.force.off_net.is_some(), off, "seed {seed}: the set's state is the log's");
    }
    assert!(knocked > 0 && renets > 0 && passed > 0, "knocked {knocked}, re-net tests {renets}, passed {passed}");
}

#[test]
fn a_campaign_element_starts_with_its_cms_and_its_damage() {
    // FYOW 24.2 and 23: an element carries its CMS from one battle to the
    // next, and a vehicle not yet repaired starts damaged (1D6 movement).
    let text = r#"(
    name: "Carried", briefing: "test", table: (width: 72, depth: 48), time_limit: 2,
    places: [(name: "the road", at: (36, 4)), (name: "the farm", at: (36, 44))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [
                (id: "a1", nco: Regular, cms: 3, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(20, 4)),
                (id: "t1", nco: Regular, pieces: [(codex: "gb_sherman_v", damaged: true)], start: at(30, 4)),
                (id: "t2", nco: Regular, pieces: [(codex: "gb_sherman_v")], start: at(40, 4)),
            ])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(36, 44))])]),
    ],
)"#;
    let scenario = Scenario::load("carried.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let app = battle_app(BattleStart::auto("carried", scenario, 1), BattleLog::default()).unwrap();
    let by = |id: &str| elements(&app).into_iter().find(|f| f.id() == id).unwrap();
    use warbound_rules::effects::VehicleState;
    assert_eq!(by("a1").force.element.cms, 3);
    assert_eq!(by("g1").force.element.cms, 6);
    assert_eq!(by("t1").vehicle.state, Some(VehicleState::Damaged));
    assert_eq!(by("t2").vehicle.state, Some(VehicleState::Intact));
}

#[test]
fn a_short_crewed_mmg_throws_for_each_missing_man() {
    // HA "Weapons table notes", Crewed: "If it has less than a full crew,
    // throw a D6 for each missing man. Every dice thrown must score 3+ for the
    // weapon to fire at full rate on this bound. If not, ... weapons allowed 2
    // or more shots fire once only."
    let text = r#"(
    name: "Short crew", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the road", at: (36, 10)), (name: "the farm", at: (36, 34))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [(id: "a1", nco: Regular, figures: [(men: 1, weapon: "gb_no4_rifle")], pieces: [(codex: "gb_vickers_mmg", crew: 2)], start: at(36, 10))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 10, weapon: "de_kar98k")], start: at(36, 34))])]),
    ],
)"#;
    let scenario = Scenario::load("short.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let (mut full, mut once) = (0, 0);
    for seed in 0..10 {
        let (app, _) = autoplay("short", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let by_a1: Vec<_> = log.iter().filter(|e| e.event.actor.as_deref() == Some("a1")).collect();
        for (k, e) in by_a1.iter().enumerate() {
            let volley = e.event.rule.section == "How to fire weapons";
            if !volley || input(e, "weapon") != Some(&serde_json::json!("MMG")) {
                continue;
            }
            let check =
                k.checked_sub(1).map(|p| by_a1[p]).filter(|c| c.event.rule.section == "Weapons table notes: Crewed");
            let Some(check) = check else { panic!("seed {seed}: the Vickers short of a man fired with no crew check") };
            assert_eq!(input(check, "missing_crew"), Some(&serde_json::json!(1)), "seed {seed}");
            let faces: Vec<u8> = check.event.dice.iter().map(|t| t.face).collect();
            let shots = check.event.outcome["shots"].as_u64().unwrap();
            assert_eq!(shots, if faces.iter().all(|&f| f >= 3) { 4 } else { 1 }, "seed {seed}: faces {faces:?}");
            assert_eq!(input(e, "shots"), Some(&serde_json::json!(shots)), "seed {seed}");
            if shots == 4 { full += 1 } else { once += 1 }
        }
    }
    assert!(full > 0 && once > 0, "full rate {full}, once only {once}");
}

/// Patrol with the British under the Player, at their first element's turn,
/// every British element knowing of the listening post `gruppe_1`, on
/// Overwatch if `overwatch`. Returns the acting element, where it stands and
/// where the post is.
fn player_patrol(app: &mut App, overwatch: bool) -> (String, Point, Point) {
    to_element_turn(app);
    let me = acting(app);
    let world = app.world_mut();
    let mut q = world.query::<(
        &warbound_battle::state::Identity,
        &mut warbound_battle::state::Intel,
        &mut warbound_battle::state::Order,
    )>();
    for (identity, mut intel, mut order) in q.iter_mut(world) {
        if identity.side == 0 {
            intel.known.insert("gruppe_1".to_owned());
            if overwatch {
                order.objective.activity = warbound_rules::command::Activity::Overwatch;
            }
        }
    }
    let els = elements(app);
    let at = |id: &str| els.iter().find(|f| f.id() == id).unwrap().place.at;
    (me.clone(), at(&me), at("gruppe_1"))
}

/// A point 4 inches from `from` square to the line to `enemy`, so farther from
/// it, on the side that keeps on the table.
fn sideways(from: Point, enemy: Point) -> (f32, f32) {
    let d = distance(from, enemy).get();
    let (ux, uy) = ((enemy.0 - from.0) / d, (enemy.1 - from.1) / d);
    let a = (from.0 - 4.0 * uy, from.1 + 4.0 * ux);
    if a.0 > 1.0 && a.1 > 1.0 && a.0 < 60.0 && a.1 < 40.0 { a } else { (from.0 + 4.0 * uy, from.1 - 4.0 * ux) }
}

/// The section that refused the last command, or `None` if it was accepted.
fn refused_by(app: &App) -> Option<String> {
    let log = &app.world().resource::<BattleLog>().entries;
    let last = &log.iter().rev().find(|e| e.event.kind == EventKind::Command).expect("a command").event;
    (last.outcome["accepted"] == serde_json::json!(false)).then(|| last.rule.section.clone())
}

#[test]
fn a_pinned_element_may_not_advance() {
    // FYOB "Results of Momentum Tests", 3–4 and 5–6 failures: "may move
    // towards cover but may not move towards the enemy".
    let mut app = battle_app(player_start(5), BattleLog::default()).unwrap();
    let (me, from, post) = player_patrol(&mut app, false);
    let band = warbound_rules::momentum::band_for(5);
    if let Flow::Acting(turn) = &mut *app.world_mut().resource_mut::<Flow>() {
        turn.failures = 5;
        turn.orders.movement = band.movement;
    }
    let before = elements(&app);
    let towards = ((from.0 + post.0) / 2.0, (from.1 + post.1) / 2.0);
    play::command(&mut app, Command::Move { element: me.clone(), to: towards, pace: Default::default() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Results of Momentum Tests"), "a pinned element advanced");
    assert_eq!(elements(&app), before);
    // The Player's window says so on the declared move, not on every move.
    let Some(warbound_battle::options::Decision::Act { move_refused, .. }) =
        warbound_battle::options::decision(app.world_mut())
    else {
        panic!("no element's decision")
    };
    assert_eq!(move_refused, None, "a move away from the enemy may still be declared");
    // Where it may go instead, towards cover: `a_pinned_element_in_the_open_moves_only_towards_cover`.
}

#[test]
fn overwatch_neither_fires_nor_moves_more_than_half() {
    // HA "Overwatch": "Elements on Overwatch cannot Fire and only move 50% of
    // the move distance given to them by the Movement Dice."
    let mut app = battle_app(player_start(5), BattleLog::default()).unwrap();
    let (me, from, post) = player_patrol(&mut app, true);
    let Some(warbound_battle::options::Decision::Act { offers, .. }) =
        warbound_battle::options::decision(app.world_mut())
    else {
        panic!("no element's decision")
    };
    let fire = offers.iter().find(|o| matches!(o.command, Command::Fire { .. })).expect("a Fire offer at g1");
    assert!(fire.refused.as_deref().is_some_and(|r| r.starts_with("HA, Overwatch:")), "{:?}", fire.refused);
    play::command(&mut app, Command::Fire { element: me.clone(), target: "gruppe_1".into() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Overwatch"), "an element on Overwatch fired");
    play::command(&mut app, Command::Move { element: me, to: sideways(from, post), pace: Default::default() }).unwrap();
    assert_eq!(refused_by(&app), None);
    let log = &app.world().resource::<BattleLog>().entries;
    let moved = log.iter().rev().find(|e| e.event.kind == EventKind::Movement).expect("the Movement Dice");
    assert_eq!(input(moved, "pace"), Some(&serde_json::json!("Overwatch")));
    let (score, allowance) = (&moved.event.outcome["score"], &moved.event.outcome["allowance"]);
    assert_eq!(allowance.as_f64().unwrap(), score.as_f64().unwrap() * 0.5, "score {score}, allowance {allowance}");
}

#[test]
fn overwatch_gains_its_segment_only_in_the_arc_it_faces() {
    // HA "Overwatch": "Overwatch covers a 180 degree arc in the direction
    // that the element is facing." Reading: behind it, the element observes
    // without the Overwatch segment (docs/rules-readings.md).
    for ahead in [true, false] {
        let mut app = battle_app(player_start(5), BattleLog::default()).unwrap();
        let (me, from, post) = player_patrol(&mut app, true);
        let world = app.world_mut();
        let mut q = world.query::<(&mut warbound_battle::state::Intel, &mut warbound_battle::state::Place)>();
        for (mut intel, mut place) in q.iter_mut(world) {
            intel.known.remove("gruppe_1");
            if place.at == from {
                let (dx, dy) = (post.0 - from.0, post.1 - from.1);
                place.heading = Some(if ahead { Point(dx, dy) } else { Point(-dx, -dy) });
            }
        }
        let targets = vec![warbound_battle::command::ObserveTarget::Element("gruppe_1".into())];
        play::command(&mut app, Command::Observe { element: me, targets }).unwrap();
        assert_eq!(refused_by(&app), None);
        let log = &app.world().resource::<BattleLog>().entries;
        let test = log.iter().rev().find(|e| e.event.rule.section == "Observation").expect("an observation test");
        assert_eq!(input(test, "overwatch").is_some(), ahead, "facing the post: {ahead}");
        assert_eq!(input(test, "overwatch_arc") == Some(&serde_json::json!(false)), !ahead, "facing the post: {ahead}");
    }
}

/// The duel with the German element posted as a guard at the farm, facing
/// the British's start: the Compass die faces it at spawn.
fn guard_duel() -> Scenario {
    let mut s = duel(
        r#"(activity: ContactEnemy, location: "the farm")"#,
        r#"(activity: Overwatch, location: "the farm")"#,
        (36.0, 24.0),
    );
    s.sides[1].companies[0].elements[0].guard = true;
    s
}

#[test]
fn the_auto_side_re_faces_a_guard_towards_an_enemy_behind_it() {
    // HA "Guards": "They move and then turn 180 degrees ... each bound"; "A
    // guard can be re-faced during the game by their NCO passing a
    // Leadership test". The Auto guard that knows of an enemy behind it has
    // its NCO take the test, once a bound, to face it.
    let (mut tests, mut passed) = (0, 0);
    for seed in 0..12 {
        let (app, _) = autoplay("duel", guard_duel(), seed);
        assert_sound(&app);
        let log = &app.world().resource::<BattleLog>().entries;
        let mut bounds = std::collections::BTreeSet::new();
        for e in log.iter().filter(|e| e.event.rule.section == "Guards" && input(e, "re_face").is_some()) {
            tests += 1;
            assert!(input(e, "below").is_some(), "seed {seed}: a re-facing without the NCO's test");
            assert_ne!(input(e, "re_face"), input(e, "facing"), "seed {seed}: re-faced the way it faced");
            assert!(bounds.insert(e.bound), "seed {seed}: two tests in bound {}", e.bound);
            if e.event.outcome["passed"] == serde_json::json!(true) {
                passed += 1;
            }
        }
    }
    assert!(tests > 0 && passed > 0 && passed < tests, "{tests} tests, {passed} passed");
}

#[test]
fn the_player_re_faces_a_guard_once_a_bound() {
    let mut start = BattleStart::auto("duel", guard_duel(), 3);
    start.control = vec![Control::Auto, Control::Player];
    let mut app = battle_app(start, BattleLog::default()).unwrap();
    to_element_turn(&mut app);
    assert_eq!(acting(&app), "g1");
    let facing = |app: &App| elements(app)[1].order.guard.expect("a guard").facing;
    let before = facing(&app);
    play::command(&mut app, Command::ReFace { element: "g1".into(), to: before }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Guards"), "re-faced the way it faces");
    let to = before.reversed();
    let Some(warbound_battle::options::Decision::Act { offers, .. }) =
        warbound_battle::options::decision(app.world_mut())
    else {
        panic!("no element's decision")
    };
    let offer = offers.iter().find(|o| o.command == Command::ReFace { element: "g1".into(), to }).expect("an offer");
    assert_eq!(offer.refused, None);
    assert!(offer.chance.is_some_and(|c| c > 0.0 && c < 1.0), "a Regular NCO's test: {:?}", offer.chance);
    play::command(&mut app, Command::ReFace { element: "g1".into(), to }).unwrap();
    assert_eq!(refused_by(&app), None);
    let log = &app.world().resource::<BattleLog>().entries;
    let test = log.iter().rev().find(|e| e.event.rule.section == "Guards").expect("the NCO's test");
    let pass = test.event.outcome["passed"] == serde_json::json!(true);
    assert_eq!(facing(&app), if pass { to } else { before });
    assert!(matches!(app.world().resource::<Flow>(), Flow::Acting(t) if t.element == "g1" && t.taken.is_empty()));
    let third = warbound_rules::movement::Compass::ALL.into_iter().find(|&c| c != before && c != to).unwrap();
    play::command(&mut app, Command::ReFace { element: "g1".into(), to: third }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Guards"), "a second test in the bound");
    let log = &app.world().resource::<BattleLog>().entries;
    let refusal = log.iter().rev().find(|e| e.event.kind == EventKind::Command).unwrap();
    assert!(refusal.event.outcome["reason"].as_str().is_some_and(|r| r.contains("this bound")), "{refusal:?}");
}

#[test]
fn seven_failures_leave_the_mmg_behind() {
    // FYOB "Results of Momentum Tests": 7 or 8 "CSW crews abandon their
    // weapons"; 9+ "all vehicles and guns are abandoned and the soldiers all
    // make their way back to the 'box' on foot with only their small arms".
    let text = r#"(
    name: "Broken", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the road", at: (36, 4)), (name: "the farm", at: (36, 44))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [(id: "a1", nco: Regular, pieces: [(codex: "gb_vickers_mmg")], start: at(36, 4))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(36, 44))])]),
    ],
)"#;
    let scenario = Scenario::load("broken.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    for seed in 0..4 {
        let mut app = battle_app(BattleStart::auto("broken", scenario.clone(), seed), BattleLog::default()).unwrap();
        let world = app.world_mut();
        let mut q = world.query::<(&warbound_battle::state::Identity, &mut warbound_battle::state::Momentum)>();
        for (identity, mut momentum) in q.iter_mut(world) {
            if identity.side == 0 {
                momentum.accrued.accrue(warbound_rules::momentum::CmCause::SmallArmsInOpen, 30);
            }
        }
        let mut abandoned = false;
        for _ in 0..play::MAX_UPDATES {
            if play::is_over(app.world()) || abandoned {
                break;
            }
            app.update();
            let log = &app.world().resource::<BattleLog>().entries;
            abandoned = log.iter().any(|e| {
                e.event.actor.as_deref() == Some("a1")
                    && e.event.rule.section == "Results of Momentum Tests"
                    && input(e, "abandoned") == Some(&serde_json::json!(["gb_vickers_mmg"]))
            });
        }
        assert_sound(&app);
        assert!(abandoned, "seed {seed}: the crew kept its Vickers");
        let a1 = elements(&app).into_iter().find(|f| f.id() == "a1").unwrap();
        assert!(a1.force.element.pieces.is_empty(), "seed {seed}");
        assert_eq!(a1.force.element.figures.len(), 3, "seed {seed}: the crew goes on with small arms");
    }
}

#[test]
fn at_the_double_doubles_the_dice_and_forbids_fire_and_acts() {
    // Heroes All, "Movement": infantry "may use their 2 actions and their fire
    // phase to make an \"at the double\" move. No other actions or firing may
    // be undertaken during such a move. The element may move up to twice the
    // distance shown on the D6 throw." FYOB "Order Dice scores", 2: "An
    // element with a Move order can move At the double"; HA "Overwatch":
    // "They cannot move \"at the double\"".
    use warbound_battle::command::Pace;
    let mut app = battle_app(player_start(5), BattleLog::default()).unwrap();
    let (me, from, post) = player_patrol(&mut app, false);
    let set_order = |app: &mut App, order| {
        if let Flow::Acting(turn) = &mut *app.world_mut().resource_mut::<Flow>() {
            turn.orders.order = order;
        }
    };
    let run = Command::Move { element: me.clone(), to: sideways(from, post), pace: Pace::AtTheDouble };
    set_order(&mut app, warbound_rules::order_dice::Phase::Fire);
    play::command(&mut app, run.clone()).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Order Dice"), "at the double on a Fire order");
    set_order(&mut app, warbound_rules::order_dice::Phase::Move);
    // Ordered to the lane: the player is offered a run there.
    {
        let world = app.world_mut();
        let mut q = world.query::<(&warbound_battle::state::Force, &mut warbound_battle::state::Order)>();
        for (force, mut order) in q.iter_mut(world) {
            if force.id() == me {
                order.objective.activity = warbound_rules::command::Activity::Reposition;
                order.objective.location = "the lane".into();
            }
        }
    }
    let Some(warbound_battle::options::Decision::Act { offers, .. }) =
        warbound_battle::options::decision(app.world_mut())
    else {
        panic!("no element's decision")
    };
    assert!(
        offers.iter().any(|o| matches!(o.command, Command::Move { pace: Pace::AtTheDouble, .. })),
        "the player is offered a move at the double: {offers:?}"
    );
    play::command(&mut app, run).unwrap();
    assert_eq!(refused_by(&app), None);
    let log = &app.world().resource::<BattleLog>().entries;
    let moved = log.iter().rev().find(|e| e.event.kind == EventKind::Movement).expect("the Movement Dice");
    assert_eq!(input(moved, "pace"), Some(&serde_json::json!("AtTheDouble")));
    let (score, allowance) = (&moved.event.outcome["score"], &moved.event.outcome["allowance"]);
    assert_eq!(allowance.as_f64().unwrap(), score.as_f64().unwrap() * 2.0, "score {score}, allowance {allowance}");
    let Flow::Acting(turn) = app.world().resource::<Flow>().clone() else { panic!("the turn ended") };
    let pending = turn.pending_move.expect("the player stops where he chooses");
    let stop = warbound_battle::options::along((from.0, from.1), pending.to, pending.allowance);
    play::command(&mut app, Command::MoveTo { element: me.clone(), to: stop }).unwrap();
    assert_eq!(refused_by(&app), None);
    // The move used the fire phase and both Acts: the turn is over.
    assert!(
        !matches!(app.world().resource::<Flow>(), Flow::Acting(t) if t.element == me),
        "it may still fire or act after running"
    );
    // On Overwatch it cannot run.
    let mut app = battle_app(player_start(5), BattleLog::default()).unwrap();
    let (me, from, post) = player_patrol(&mut app, true);
    set_order(&mut app, warbound_rules::order_dice::Phase::Move);
    play::command(&mut app, Command::Move { element: me, to: sideways(from, post), pace: Pace::AtTheDouble }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Overwatch"), "ran on Overwatch");
}

#[test]
fn a_stealth_move_throws_one_die_and_gives_observers_no_moved_segment() {
    // Heroes All, "Movement": "Instead of a \"normal\" move, an infantry
    // element may make a \"stealth\" move of up to 1D6 inches (2D6 inches for
    // elite) on either a road or cross-country only"; "Observation": observers
    // gain one segment for "observing a target that moved on its last turn
    // (but not if it moved with a stealth move)".
    use warbound_battle::command::Pace;
    use warbound_rules::observation::TargetMovement;
    let movement_seen = |app: &App, me: &str| {
        let els = elements(app);
        let (me, g1) = (els.iter().find(|f| f.id() == me).unwrap(), els.iter().find(|f| f.id() == "gruppe_1").unwrap());
        let codex = codex();
        let battle = app.world().resource::<Battle>();
        let sight = warbound_battle::visible::Sight::new(battle, &codex);
        let (o, t) = (g1.view().observers(), me.view().targets(&codex));
        let test = sight.observation(&g1.view(), &me.view(), &o, &t, Default::default(), false).unwrap();
        test.target.movement
    };
    for (pace, dice, seen) in
        [(Pace::Stealth, 1, TargetMovement::StealthMove), (Pace::Normal, 2, TargetMovement::Moved)]
    {
        let mut app = battle_app(player_start(5), BattleLog::default()).unwrap();
        let (me, from, post) = player_patrol(&mut app, false);
        if let Flow::Acting(turn) = &mut *app.world_mut().resource_mut::<Flow>() {
            turn.orders.order = warbound_rules::order_dice::Phase::Move;
        }
        assert_eq!(movement_seen(&app, &me), TargetMovement::Stationary);
        play::command(&mut app, Command::Move { element: me.clone(), to: sideways(from, post), pace }).unwrap();
        assert_eq!(refused_by(&app), None, "{pace:?}");
        let log = &app.world().resource::<BattleLog>().entries;
        let moved = log.iter().rev().find(|e| e.event.kind == EventKind::Movement).expect("the Movement Dice");
        assert_eq!(input(moved, "dice"), Some(&serde_json::json!(dice)), "{pace:?}: {moved:?}");
        let Flow::Acting(turn) = app.world().resource::<Flow>().clone() else { panic!("the turn ended") };
        let pending = turn.pending_move.expect("the player stops where he chooses");
        let stop = warbound_battle::options::along((from.0, from.1), pending.to, pending.allowance);
        play::command(&mut app, Command::MoveTo { element: me.clone(), to: stop }).unwrap();
        assert_eq!(refused_by(&app), None);
        assert_eq!(movement_seen(&app, &me), seen, "{pace:?}");
    }
}

#[test]
fn an_upper_storey_and_a_recce_unit_each_gain_a_segment() {
    // Heroes All, "Observation": "Extra height allows the observer to gain 1
    // segment and comprises ... (ii) a storey of a building (can be
    // multiplied)"; "Observers gain one segment for ... (ii) being elite
    // and/or a recognised recce unit".
    use warbound_rules::observation::{Segment, assess};
    let app = battle_app(player_start(5), BattleLog::default()).unwrap();
    let els = elements(&app);
    let mut g1 = els.iter().find(|f| f.id() == "gruppe_1").unwrap().clone();
    // The listening post in the open, on the road short of the crossroads.
    g1.place.at = Point(38.0, 38.0);
    let section = els.iter().find(|f| f.id() == "1_section").unwrap().clone();
    let battle = app.world().resource::<Battle>();
    let codex = codex();
    let sight = warbound_battle::visible::Sight::new(battle, &codex);
    let segments = |observer: &ElementBundle, target: &ElementBundle| {
        let (o, t) = (observer.view().observers(), target.view().targets(&codex));
        let test = sight.observation(&observer.view(), &target.view(), &o, &t, Default::default(), false).unwrap();
        assess(&test).unwrap().segments
    };
    // The patrol's house at (40, 39)-(44, 43) has 2 storeys.
    let mut upstairs = section.clone();
    upstairs.place.at = Point(42.0, 41.0);
    let mut outside = section.clone();
    outside.place.at = Point(42.0, 37.0);
    assert_eq!(segments(&upstairs, &g1).get(Segment::Height), -1, "the top storey of a 2-storey house");
    assert_eq!(segments(&outside, &g1).get(Segment::Height), 0);
    assert_eq!(segments(&g1, &upstairs).get(Segment::Height), 0, "no height looking up at it");
    let mut recce = outside.clone();
    recce.force.recce = true;
    assert_eq!(segments(&outside, &g1).get(Segment::EliteOrRecce), 0);
    assert_eq!(segments(&recce, &g1).get(Segment::EliteOrRecce), -1, "a recognised recce unit");
}

#[test]
fn a_vacated_position_is_checked_with_a_double_on_two_dice_or_more() {
    // Heroes All, "Checking vacated positions": "If a previously observed
    // enemy element vacates a building/position without being seen, any
    // approaching force must assume that they are still in place unless they
    // check otherwise. Throw 1 x D6 per observer (minimum 2 x D6) and score a
    // double to see that the enemy have now vacated."
    for seed in 1..4 {
        let mut app = battle_app(player_start(seed), BattleLog::default()).unwrap();
        let (me, from, _) = player_patrol(&mut app, false);
        let place = Point(from.0, from.1 + 4.0);
        {
            let world = app.world_mut();
            let mut q = world.query::<(&warbound_battle::state::Force, &mut warbound_battle::state::Intel)>();
            for (force, mut intel) in q.iter_mut(world) {
                if force.id() == me {
                    intel.known.remove("gruppe_1");
                    intel.last_seen.insert("gruppe_1".into(), place);
                }
            }
        }
        if let Flow::Acting(turn) = &mut *app.world_mut().resource_mut::<Flow>() {
            turn.orders.order = warbound_rules::order_dice::Phase::Act;
        }
        // Only an enemy lost track of has a place to check.
        play::command(&mut app, Command::CheckVacated { element: me.clone(), enemy: "gruppe_2".into() }).unwrap();
        assert_eq!(refused_by(&app).as_deref(), Some("Checking vacated positions"));
        let Some(warbound_battle::options::Decision::Act { offers, .. }) =
            warbound_battle::options::decision(app.world_mut())
        else {
            panic!("no element's decision")
        };
        assert!(
            offers.iter().any(|o| matches!(&o.command, Command::CheckVacated { enemy, .. } if enemy == "gruppe_1")),
            "the player is offered the check: {offers:?}"
        );
        play::command(&mut app, Command::CheckVacated { element: me.clone(), enemy: "gruppe_1".into() }).unwrap();
        assert_eq!(refused_by(&app), None);
        let log = &app.world().resource::<BattleLog>().entries;
        let check = log.iter().rev().find(|e| e.event.rule.section == "Checking vacated positions").expect("the check");
        let faces: Vec<u64> = check.event.dice.iter().map(|d| u64::from(d.face)).collect();
        assert!(faces.len() >= 2, "minimum 2 x D6: {faces:?}");
        let double = (0..faces.len()).any(|i| faces[..i].contains(&faces[i]));
        assert_eq!(check.event.outcome["vacated_seen"], serde_json::json!(double), "{faces:?}");
        let still = elements(&app).iter().find(|f| f.id() == me).unwrap().intel.last_seen.contains_key("gruppe_1");
        assert_eq!(still, !double, "a failed check goes on as if the place is occupied");
    }
}

#[test]
fn an_immobile_weapon_sets_up_with_an_act_and_cannot_fire_that_turn() {
    // Heroes All, "Weapons table notes": "Immobile This weapon takes time to
    // set up and break down. It therefore requires an \"act\" to break down
    // and set up. It cannot set up and fire in the same turn." The patrol's
    // sections become Vickers MMG teams, emplaced where they start.
    let mut scenario = load("patrol");
    for el in &mut scenario.sides[0].companies[0].elements {
        el.figures.clear();
        el.pieces =
            vec![warbound_rules::scenario::PieceSpec { codex: "gb_vickers_mmg".into(), crew: None, damaged: false }];
    }
    let mut start = BattleStart::auto("patrol", scenario, 5);
    start.control = vec![Control::Player, Control::Auto];
    let mut app = battle_app(start.clone(), BattleLog::default()).unwrap();
    let (me, from, post) = player_patrol(&mut app, false);
    if let Flow::Acting(turn) = &mut *app.world_mut().resource_mut::<Flow>() {
        turn.orders.order = warbound_rules::order_dice::Phase::Act;
    }
    let set_up = |app: &App| elements(app).iter().find(|f| f.id() == me).unwrap().actions.set_up;
    assert!(set_up(&app), "emplaced where it starts");
    play::command(&mut app, Command::Move { element: me.clone(), to: sideways(from, post), pace: Default::default() })
        .unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Weapons table notes: Immobile"), "moved while set up");
    let Some(warbound_battle::options::Decision::Act { offers, .. }) =
        warbound_battle::options::decision(app.world_mut())
    else {
        panic!("no element's decision")
    };
    assert!(
        offers.iter().any(|o| o.command == Command::SetUp { element: me.clone(), up: false } && o.refused.is_none()),
        "the player is offered to take it down: {offers:?}"
    );
    play::command(&mut app, Command::SetUp { element: me.clone(), up: false }).unwrap();
    assert_eq!(refused_by(&app), None);
    assert!(!set_up(&app));
    play::command(&mut app, Command::Fire { element: me.clone(), target: "gruppe_1".into() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Weapons table notes: Immobile"), "fired taken down");
    // Not set up (come on from the box): set up, and no fire that turn.
    let mut app = battle_app(start, BattleLog::default()).unwrap();
    let (me, _, _) = player_patrol(&mut app, false);
    if let Flow::Acting(turn) = &mut *app.world_mut().resource_mut::<Flow>() {
        turn.orders.order = warbound_rules::order_dice::Phase::Act;
    }
    {
        let world = app.world_mut();
        let mut q = world.query::<(&warbound_battle::state::Force, &mut warbound_battle::state::Actions)>();
        for (force, mut actions) in q.iter_mut(world) {
            if force.id() == me {
                actions.set_up = false;
            }
        }
    }
    play::command(&mut app, Command::SetUp { element: me.clone(), up: true }).unwrap();
    assert_eq!(refused_by(&app), None, "an Act sets it up");
    assert!(elements(&app).iter().find(|f| f.id() == me).unwrap().actions.set_up);
    play::command(&mut app, Command::Fire { element: me.clone(), target: "gruppe_1".into() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Weapons table notes: Immobile"), "set up and fired in the same turn");
}

#[test]
fn an_afv_at_cms_four_keeps_off_open_ground() {
    // FYOB "Continuous Momentum Score - AFVs and armoured transport", 4: "The
    // element can move but cannot traverse open ground".
    use warbound_rules::momentum::{ElementType, cms_effects};
    let mut app = battle_app(player_start(5), BattleLog::default()).unwrap();
    let (me, from, post) = player_patrol(&mut app, false);
    let row = cms_effects(ElementType::Afv, 4).unwrap();
    if let Flow::Acting(turn) = &mut *app.world_mut().resource_mut::<Flow>() {
        turn.orders.cms_movement = row.movement;
    }
    let before = elements(&app);
    play::command(&mut app, Command::Move { element: me, to: sideways(from, post), pace: Default::default() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Continuous Momentum"), "it crossed open ground");
    assert_eq!(elements(&app), before);
}

#[test]
fn a_company_whose_officer_falls_goes_on_rallying_under_his_successor() {
    // FYOB "Company Officer as a casualty": "If a CO is lost, an Officer from
    // his command must be nominated to succeed him (usually, for obvious
    // reasons, the highest ranked). That Officer will undertake the Command
    // and Control function during his own turn in the bound using his own
    // OPC ... but will need to pass his ORT to take his own combat turn and
    // carry out his Officer duties."
    let section = "Company Officer as a casualty";
    let mut rallied = 0;
    'search: for seed in 0..10 {
        for (name, scenario) in shipped() {
            let (app, _) = autoplay(&name, scenario, seed);
            let log = &app.world().resource::<BattleLog>().entries;
            let Some(hit) = log.iter().position(|e| e.event.outcome["co_hit"] == serde_json::json!(true)) else {
                continue;
            };
            let early = log[..hit].iter().find(|e| e.event.rule.section == section);
            assert!(early.is_none(), "{name} seed {seed}: a successor before any CO fell: {early:?}");
            for (k, e) in log.iter().enumerate().skip(hit).filter(|(_, e)| e.event.rule.section == section) {
                let chosen = e.event.outcome["grade"].clone();
                let rating = |g: &serde_json::Value| -> warbound_rules::officer::Grade {
                    serde_json::from_value(g.clone()).expect("a grade")
                };
                let candidates = input(e, "candidates").and_then(|v| v.as_array()).expect("the candidates");
                for c in candidates {
                    assert!(rating(&c[1]).rating() <= rating(&chosen).rating(), "{name} seed {seed}: {e:?}");
                }
                // The company is rallied again, on the successor's own card
                // (the one succeeded last, where he too was succeeded).
                let company = e.event.actor.as_deref();
                let rally = log[k..]
                    .iter()
                    .position(|l| l.event.kind == EventKind::Rally && l.event.actor.as_deref() == company);
                if let Some(r) = rally {
                    // His own ORT came last, or he Seized the Initiative and acts
                    // later on the card he swapped for, with no new ORT.
                    // The successor is the last one nominated before the rally
                    // (a successor lost in turn is succeeded again).
                    let successor = log[k..k + r]
                        .iter()
                        .rev()
                        .find(|l| l.event.rule.section == section && l.event.actor.as_deref() == company)
                        .and_then(|l| l.event.target.as_deref());
                    let orts = || log[k..k + r].iter().rev().filter(|l| l.event.kind == EventKind::Ort);
                    let acting = orts().next();
                    let own = orts().find(|l| l.event.actor.as_deref() == successor);
                    let swapped =
                        own.is_some_and(|l| l.event.outcome["result"] == serde_json::json!("SeizesInitiative"));
                    if !swapped {
                        assert_eq!(
                            acting.and_then(|l| l.event.actor.as_deref()),
                            successor,
                            "{name} seed {seed}: the rally's ORT"
                        );
                    }
                    rallied += 1;
                    break 'search;
                }
            }
        }
    }
    assert!(rallied > 0, "no company rallied under a successor");
}

/// The duel with the German element concealed where it starts.
fn concealed_duel(german_at: (f32, f32)) -> Scenario {
    let mut scenario =
        duel(r#"(activity: Hold, location: "the farm")"#, r#"(activity: Hold, location: "the road")"#, german_at);
    scenario.sides[1].companies[0].elements[0].concealed = Some(warbound_rules::scenario::Concealment::InPlace);
    scenario
}

/// Whether `id`'s concealment test at the start concealed it.
fn concealed_at_start(log: &[warbound_battle::log::Entry], id: &str) -> bool {
    log.iter().any(|e| {
        e.event.rule.section == "How to conceal an element"
            && e.event.actor.as_deref() == Some(id)
            && e.event.outcome["concealed"] == serde_json::json!(true)
    })
}

#[test]
fn observing_or_firing_reveals_a_concealed_element() {
    // FYOB "Concealed element activity": "A concealed element may not observe,
    // fire or move without revealing its position."
    let mut revealed = 0;
    for seed in 0..12 {
        let (app, _) = autoplay("duel", concealed_duel((36.0, 30.0)), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        if !concealed_at_start(log, "g1") {
            continue;
        }
        let acts = |e: &&warbound_battle::log::Entry| {
            e.event.actor.as_deref() == Some("g1") && matches!(e.event.kind, EventKind::Observation | EventKind::Fire)
        };
        let reveals: Vec<usize> = (0..log.len())
            .filter(|&k| log[k].event.rule.section == "Concealed element activity")
            .inspect(|&k| assert_eq!(log[k].event.actor.as_deref(), Some("g1"), "seed {seed}: only g1 was concealed"))
            .collect();
        assert!(reveals.len() <= 1, "seed {seed}: revealed {} times", reveals.len());
        if let Some(first) = log.iter().position(|e| acts(&e)) {
            let found = log[..first].iter().any(|e| e.event.outcome["spotted"] == serde_json::json!("Real"));
            assert!(
                found || reveals.first().is_some_and(|&r| r < first),
                "seed {seed}: g1 observed or fired, still concealed"
            );
            revealed += 1;
        }
    }
    assert!(revealed > 0, "g1 never observed or fired");
}

#[test]
fn concealment_is_thrown_five_up_at_the_start() {
    // FYOB "How to conceal an element": "A D6 is thrown for each chosen element
    // and a score of 5+ is required to conceal them. Modify the throw; +1 for
    // an Above Average Senior Officer, -1 for a Below Average Senior Officer."
    let (mut passed, mut failed) = (0, 0);
    for (name, scenario) in shipped() {
        let chosen: Vec<(String, bool)> = scenario
            .sides
            .iter()
            .flat_map(|s| s.elements())
            .filter(|e| e.concealed.is_some())
            .map(|e| (e.id.clone(), e.sniper))
            .collect();
        for seed in 0..6 {
            let app = battle_app(BattleStart::auto(&name, scenario.clone(), seed), BattleLog::default()).unwrap();
            let log = &app.world().resource::<BattleLog>().entries;
            let tests: Vec<_> = log.iter().filter(|e| e.event.rule.section == "How to conceal an element").collect();
            assert_eq!(tests.len(), chosen.len(), "{name} seed {seed}: one throw for each chosen element");
            let els = elements(&app);
            for (id, sniper) in &chosen {
                let e = tests.iter().find(|e| e.event.actor.as_deref() == Some(id)).expect("its throw");
                let concealed = e.event.outcome["concealed"] == serde_json::json!(true);
                let modifier = input(e, "modifier").and_then(|v| v.as_i64()).expect("the modifier");
                match e.event.dice.first() {
                    Some(d) => assert_eq!(concealed, i64::from(d.face) + modifier >= 5, "{name} {id}: {e:?}"),
                    None => assert!(*sniper && concealed, "{name} {id}: only a sniper is concealed without a throw"),
                }
                let el = els.iter().find(|f| f.id() == id).expect("spawned");
                assert_eq!(
                    el.concealment.concealed(),
                    concealed,
                    "{name} seed {seed} {id}: a failure stands in the open"
                );
                if concealed {
                    let on_a_counter = el.concealment.counter_at(el.place.at).is_some();
                    assert!(on_a_counter, "{name} {id}: it stands at one of its counters");
                    passed += 1;
                } else {
                    assert!(el.concealment.counters().is_empty(), "{name} {id}: no counters in the open");
                    failed += 1;
                }
            }
        }
    }
    assert!(passed > 0 && failed > 0, "passed {passed}, failed {failed}: both happen over seeds");
}

/// The duel with g1 concealed by placement options: at its start, on the
/// left and on the right.
fn placement_duel() -> Scenario {
    let mut scenario = concealed_duel((36.0, 30.0));
    scenario.sides[1].companies[0].elements[0].concealed =
        Some(warbound_rules::scenario::Concealment::PlacementOptions(vec![(36.0, 30.0), (24.0, 28.0), (48.0, 28.0)]));
    scenario
}

#[test]
fn observing_a_counter_throws_real_or_dummy() {
    // FYOB "Placement options": "When an enemy unit approaches a counter and
    // successfully observes it, the player then decides by dice throw whether
    // the counter represents the actual element or whether it is a dummy. If
    // it is identified as a dummy the real counter does not have to be revealed."
    let places = [Point(36.0, 30.0), Point(24.0, 28.0), Point(48.0, 28.0)];
    let (mut dummies, mut reals) = (0, 0);
    for seed in 0..80 {
        let mut seen = 0;
        step_through(BattleStart::auto("duel", placement_duel(), seed), |app| {
            let log = &app.world().resource::<BattleLog>().entries;
            let new = &log[seen..];
            seen = log.len();
            for e in new.iter().filter(|e| e.event.rule.section == "Placement options") {
                let Some(spotted) = e.event.outcome["spotted"].as_str() else { continue };
                let counter = input(e, "counter").and_then(|v| v.as_u64()).expect("the counter") as u8;
                let g1 = elements(app).into_iter().find(|f| f.id() == "g1").unwrap();
                let standing: Vec<u8> = g1.concealment.counters().iter().map(|(k, _)| *k).collect();
                match spotted {
                    "Dummy" => {
                        assert!(g1.concealment.concealed(), "seed {seed}: the real counter is not revealed");
                        assert!(!standing.contains(&counter), "seed {seed}: the dummy {counter} is removed");
                        assert!(
                            g1.concealment.counter_at(g1.place.at).is_some(),
                            "seed {seed}: it stands at a counter"
                        );
                        dummies += 1;
                    }
                    "Real" => {
                        assert!(!g1.concealment.concealed() && standing.is_empty(), "seed {seed}: revealed");
                        assert_eq!(
                            g1.place.at,
                            places[usize::from(counter) - 1],
                            "seed {seed}: where the counter stood"
                        );
                        let known = app.world().resource::<Sides>().0[0].known.contains("g1")
                            || elements(app).iter().any(|f| f.id() == "a1" && f.intel.known.contains("g1"));
                        assert!(known, "seed {seed}: the observer knows it");
                        reals += 1;
                    }
                    other => panic!("{other}"),
                }
            }
        });
    }
    assert!(dummies > 0 && reals > 0, "dummies {dummies}, reals {reals}");
}

#[test]
fn the_auto_side_observes_counters_never_a_hidden_element() {
    // FYOB "Placement options": the enemy "approaches a counter and
    // successfully observes it"; a concealed element is never observed where
    // it stands, nor fired at, until one of its counters is found to be it.
    let mut counters = 0;
    for (name, scenario) in shipped().into_iter().chain([("duel".to_owned(), placement_duel())]) {
        for seed in 0..4 {
            let (app, _) = autoplay(&name, scenario.clone(), seed);
            let log = &app.world().resource::<BattleLog>().entries;
            let mut hidden: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
            for e in log {
                let actor = e.event.actor.clone().unwrap_or_default();
                let section = e.event.rule.section.as_str();
                if section == "How to conceal an element" && e.event.outcome["concealed"] == serde_json::json!(true) {
                    hidden.insert(actor.clone());
                }
                let out_of_concealment = (section == "Concealed element activity"
                    && e.event.outcome["revealed"] == serde_json::json!(true))
                    || (section == "Placement options"
                        && (e.event.outcome["spotted"] == serde_json::json!("Real")
                            || e.event.outcome["revealed"] == serde_json::json!(true)));
                if out_of_concealment {
                    hidden.remove(&actor);
                }
                let target = e.event.target.clone().unwrap_or_default();
                if hidden.contains(&target) {
                    match e.event.kind {
                        EventKind::Observation => {
                            assert!(
                                input(e, "counter").is_some(),
                                "{name} seed {seed}: {target} observed where it stands"
                            );
                            counters += 1;
                        }
                        EventKind::Fire => panic!("{name} seed {seed}: the hidden {target} fired at: {e:?}"),
                        _ => {}
                    }
                }
                if e.event.kind == EventKind::Command {
                    let command = input(e, "command").expect("the command");
                    for t in command["observe"]["targets"].as_array().into_iter().flatten() {
                        // An element observed where it stands is its bare id;
                        // a counter names its element and number.
                        let direct = t.as_str();
                        assert!(
                            direct.is_none_or(|id| !hidden.contains(id)),
                            "{name} seed {seed}: observes the hidden {direct:?}"
                        );
                    }
                }
            }
        }
    }
    assert!(counters > 0, "no counter was observed");
}

#[test]
fn the_observe_offer_does_not_betray_a_concealed_enemy() {
    // FYOB "Concealment": where a concealed element stands is the other
    // player's to find out; the offer names its counters, never the element.
    use warbound_battle::command::ObserveTarget;
    let offer = |concealed: bool| {
        'seeds: for seed in 3..40 {
            let scenario = if concealed {
                placement_duel()
            } else {
                duel(
                    r#"(activity: Hold, location: "the farm")"#,
                    r#"(activity: Hold, location: "the road")"#,
                    (36.0, 30.0),
                )
            };
            let mut start = BattleStart::auto("duel", scenario, seed);
            start.control = vec![Control::Player, Control::Auto];
            let mut app = battle_app(start, BattleLog::default()).unwrap();
            if concealed != concealed_at_start(&app.world().resource::<BattleLog>().entries, "g1") {
                continue;
            }
            play::advance(&mut app).unwrap();
            while !matches!(app.world().resource::<Flow>(), Flow::Acting(_)) {
                let Some(cmd) = officer_default(&app) else { continue 'seeds };
                play::command(&mut app, cmd).unwrap();
            }
            let Some(warbound_battle::options::Decision::Act { offers, .. }) =
                warbound_battle::options::decision(app.world_mut())
            else {
                panic!("no element turn offered")
            };
            let known = app.world().resource::<Sides>().0[0].known.contains("g1");
            let observe =
                offers.into_iter().find(|o| matches!(o.command, Command::Observe { .. })).expect("an Observe offer");
            return (observe, known);
        }
        panic!("no seed with g1 concealed: {concealed}")
    };
    let (open, known) = offer(false);
    assert!(!known, "g1 in the open is already known; move it");
    let Command::Observe { targets, .. } = &open.command else { unreachable!() };
    assert_eq!(targets, &vec![ObserveTarget::Element("g1".to_owned())], "g1 in the open is in view: {}", open.label);
    assert!(open.label.contains("1 test"), "{}", open.label);
    let (hidden, _) = offer(true);
    let Command::Observe { targets, .. } = &hidden.command else { unreachable!() };
    assert!(!targets.is_empty(), "its counters in view are offered: {}", hidden.label);
    for t in targets {
        assert!(matches!(t, ObserveTarget::Counter { element, .. } if element == "g1"), "{t:?}");
    }
}

#[test]
fn a_dead_foo_is_replaced_at_the_next_session_and_nets_in() {
    // Heroes All, "Direct Fire Support": "In the event that the FOO is a
    // casualty, the Battlegroup Commander (BC) when next activated, can appoint
    // a replacement who must be a CO of an infantry or armoured
    // Company/Squadron. He must net-in his radio as above before off-table
    // firing can re-commence."
    let section = "Direct Fire Support";
    for seed in 0..40 {
        let (app, _) = autoplay("village", load("village"), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let Some(hit) = log.iter().position(|e| e.event.rule.section == section && e.event.outcome["foo_hit"] == true)
        else {
            continue;
        };
        let foo = log[hit].event.actor.clone();
        let Some(named) = log[hit..]
            .iter()
            .position(|e| e.event.kind == EventKind::CommandDecision && e.event.rule.section == section)
        else {
            continue;
        };
        let named = hit + named;
        assert_eq!(input(&log[named], "lost").and_then(|v| v.as_str()), foo.as_deref(), "seed {seed}");
        // The new FOO starts off the net: he nets in on his card again.
        let netted = log[named..].iter().any(|e| e.event.rule.section == "Radio netting-in" && e.event.actor == foo);
        if netted {
            return;
        }
    }
    panic!("no FOO fell, was replaced and netted in again");
}

#[test]
fn a_tank_stops_at_the_wall_of_a_house() {
    // HA "Buildings": "Buildings may not be occupied by vehicles, artillery or
    // mortars." A Sherman driving at the enemy straight through a house stops
    // at its wall; the riflemen beside it may go in.
    let text = r#"(
    name: "House", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    terrain: (features: [Building(outline: [(33, 12), (39, 12), (39, 18), (33, 18)], structure: house, storeys: 1)]),
    places: [(name: "the road", at: (36, 4)), (name: "the farm", at: (36, 40))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "t1", objective: (activity: ContactEnemy, location: "the farm"),
            elements: [(id: "t1", nco: Regular, pieces: [(codex: "gb_sherman_v")], start: at(36, 4))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(36, 40))])]),
    ],
)"#;
    let scenario = Scenario::load("house.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let house = |p: Point| p.0 > 33.0 && p.0 < 39.0 && p.1 > 12.0 && p.1 < 18.0;
    let mut halted = 0;
    for seed in 0..6 {
        let mut inside = false;
        step_through(BattleStart::auto("house", scenario.clone(), seed), |app| {
            inside |= elements(app).iter().any(|f| f.id() == "t1" && house(f.place.at));
            let log = &app.world().resource::<BattleLog>().entries;
            halted = halted.max(log.iter().filter(|e| e.event.rule.section == "Buildings").count());
        });
        assert!(!inside, "seed {seed}: the Sherman drove into the house");
    }
    assert!(halted > 0, "no move stopped at the wall");
}

/// The CM test events in `app`'s log: (bound, actor, conditions, count).
fn cm_tests(app: &App) -> Vec<(u32, String, serde_json::Value, serde_json::Value)> {
    let log = &app.world().resource::<BattleLog>().entries;
    log.iter()
        .filter(|e| e.event.kind == EventKind::CmTests)
        .filter_map(|e| {
            let actor = e.event.actor.clone().unwrap_or_default();
            Some((e.bound, actor, input(e, "conditions")?.clone(), e.event.outcome["count"].clone()))
        })
        .collect()
}

/// Tests due after the reductions, before halving or doubling.
fn reduced(count: &serde_json::Value) -> u64 {
    let n = |k: &str| count[k].as_u64().unwrap();
    n("original").saturating_sub(n("nco_off") + n("co_off") + n("support_off"))
}

#[test]
fn a_rationed_side_doubles_its_tests() {
    // HA "Restrictions applied in 'Rationed' state": "all Continuous Momentum
    // Tests are doubled when an element is rationed. The element will accrue
    // Tests as usual and apply any reductions due before doubling the final
    // number of tests that it must take."
    let text = include_str!("../../../scenarios/battles/village.ron");
    let text = text.replacen("edge: near,", "edge: near, rationed: true,", 1);
    let scenario = Scenario::load("village.ron", &text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let near: Vec<String> = scenario.sides[0].elements().map(|e| e.id.clone()).collect();
    let (mut doubled, mut plain) = (0, 0);
    for seed in 0..4 {
        let (app, _) = autoplay("village", scenario.clone(), seed);
        for (_, actor, conditions, count) in cm_tests(&app) {
            let rationed = near.contains(&actor);
            assert_eq!(conditions["rationed"], serde_json::json!(rationed), "{actor}");
            if count["original"].as_u64() == Some(0) || conditions["beach_landing"] == serde_json::json!(true) {
                continue;
            }
            let to_take = count["to_take"].as_u64().unwrap();
            let once = reduced(&count).max(1);
            if rationed {
                assert_eq!(to_take, 2 * once, "{actor}: {count}");
                doubled += 1;
            } else {
                assert_eq!(to_take, once, "{actor}: {count}");
                plain += 1;
            }
        }
    }
    assert!(doubled > 0 && plain > 0, "doubled {doubled}, plain {plain}");
}

#[test]
fn the_first_wave_halves_its_tests_ashore() {
    // FYOB "Test reductions - special circumstances": "Where elements are
    // making a beach landing, after considering the above reductions, take 50%
    // of the remaining number of tests for the bounds on which they land and
    // the following bound."
    let (mut halved, mut later) = (0, 0);
    for seed in 0..8 {
        let (app, _) = autoplay("beach", load("beach"), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let landed = |id: &str| {
            log.iter()
                .find(|e| {
                    e.event.rule.section == "Landing craft landing sequence" && e.event.actor.as_deref() == Some(id)
                })
                .map(|e| e.bound)
        };
        for (bound, actor, conditions, count) in cm_tests(&app) {
            let ashore = landed(&actor).is_some_and(|b| bound <= b + 1);
            assert_eq!(conditions["beach_landing"], serde_json::json!(ashore), "seed {seed} {actor} bound {bound}");
            if count["original"].as_u64() == Some(0) {
                continue;
            }
            let to_take = count["to_take"].as_u64().unwrap();
            if ashore {
                assert_eq!(to_take, (reduced(&count) / 2).max(1), "seed {seed} {actor}: {count}");
                halved += 1;
            } else if landed(&actor).is_some() {
                later += 1;
            }
        }
    }
    assert!(halved > 0 && later > 0, "halved {halved}, later {later}");
}

/// A 6-pounder of the Player's 36 inches from a Panzer IV on Overwatch (it
/// never opens fire), which the gun knows of: at the gun's first turn.
fn gun_and_tank(seed: u64) -> App {
    let text = r#"(
    name: "Gun line", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the road", at: (36, 4)), (name: "the farm", at: (36, 40))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [(id: "a1", nco: Regular, pieces: [(codex: "gb_6pdr_atg")], start: at(36, 4))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Overwatch, location: "the farm"),
            elements: [(id: "g1", nco: Regular, pieces: [(codex: "de_pz4h")], start: at(36, 40))])]),
    ],
)"#;
    let scenario = Scenario::load("gunline.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let mut start = BattleStart::auto("gunline", scenario, seed);
    start.control = vec![Control::Player, Control::Auto];
    let mut app = battle_app(start, BattleLog::default()).unwrap();
    to_element_turn(&mut app);
    assert_eq!(acting(&app), "a1");
    let world = app.world_mut();
    let mut q = world.query::<(&warbound_battle::state::Identity, &mut warbound_battle::state::Intel)>();
    for (identity, mut intel) in q.iter_mut(world) {
        if identity.side == 0 {
            intel.known.insert("g1".to_owned());
        }
    }
    app
}

fn set_order(app: &mut App, order: warbound_rules::order_dice::Phase) {
    if let Flow::Acting(turn) = &mut *app.world_mut().resource_mut::<Flow>() {
        turn.orders.order = order;
        turn.orders.can_fire = true;
    }
}

/// The last volley `actor` fired.
fn last_volley(app: &App, actor: &str) -> warbound_battle::log::Entry {
    let log = &app.world().resource::<BattleLog>().entries;
    log.iter()
        .rev()
        .find(|e| e.event.actor.as_deref() == Some(actor) && e.event.rule.section == "How to fire weapons")
        .cloned()
        .expect("a volley")
}

#[test]
fn an_aimed_at_shot_gets_plus_one_and_is_the_act_of_an_act_order() {
    // Heroes All, "How to fire weapons": "+1 when firing AT/HE on an ACT order
    // (using the ACT as 'aim')"; FYOB "Act", (iv) "'aim' a HE/AT shot": "the
    // firer must fire and then move. As it has to take the act first, it
    // cannot move, then aim and fire".
    use warbound_rules::order_dice::{Act, Phase};
    let mut app = gun_and_tank(2);
    let before = elements(&app);
    for (order, rule) in [(Phase::Fire, "Order Dice"), (Phase::Move, "Act")] {
        set_order(&mut app, order);
        play::command(&mut app, Command::AimedFire { element: "a1".into(), target: "g1".into() }).unwrap();
        assert_eq!(refused_by(&app).as_deref(), Some(rule), "an aim on a {order:?} order");
        assert_eq!(elements(&app), before);
    }
    set_order(&mut app, Phase::Act);
    let Some(warbound_battle::options::Decision::Act { offers, .. }) =
        warbound_battle::options::decision(app.world_mut())
    else {
        panic!("no element's decision")
    };
    let aim = offers.iter().find(|o| matches!(o.command, Command::AimedFire { .. })).expect("an Aim offer");
    assert_eq!(aim.refused, None, "{}", aim.label);
    play::command(&mut app, Command::AimedFire { element: "a1".into(), target: "g1".into() }).unwrap();
    assert_eq!(refused_by(&app), None);
    let volley = last_volley(&app, "a1");
    assert_eq!(input(&volley, "aimed"), Some(&serde_json::json!(1)), "{:?}", volley.event.inputs);
    let Flow::Acting(turn) = app.world().resource::<Flow>() else {
        panic!("the gun's turn goes on: it may still move")
    };
    assert_eq!(turn.taken, vec![Phase::Act, Phase::Fire]);
    assert_eq!(turn.acts, vec![Act::Aim]);
}

#[test]
fn a_second_shot_from_the_same_place_gets_plus_one() {
    // Heroes All, "How to fire weapons": "+1 for a 2nd shot at a stationary
    // target from the same position".
    let scenario = duel(
        r#"(activity: Hold, location: "the road")"#,
        r#"(activity: Overwatch, location: "the farm")"#,
        (36.0, 24.0),
    );
    let (mut firsts, mut seconds) = (0, 0);
    for seed in 0..6 {
        let (app, _) = autoplay("duel", scenario.clone(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let volleys: Vec<_> = log
            .iter()
            .filter(|e| e.event.actor.as_deref() == Some("a1") && e.event.rule.section == "How to fire weapons")
            .collect();
        let Some(first) = volleys.first().map(|e| e.bound) else { continue };
        for v in &volleys {
            let second = input(v, "second_shot").is_some();
            // Both stand where they started: every Fire phase after the first is a 2nd shot.
            assert_eq!(second, v.bound > first, "seed {seed} bound {}: {:?}", v.bound, v.event.inputs);
            if second { seconds += 1 } else { firsts += 1 }
        }
        let a1 = elements(&app).into_iter().find(|f| f.id() == "a1").unwrap();
        let shot = a1.actions.last_shot.expect("its last shot recorded");
        assert_eq!((shot.target.as_str(), shot.from, shot.at), ("g1", Point(36.0, 4.0), Point(36.0, 24.0)));
    }
    assert!(firsts > 0 && seconds > 0, "first shots {firsts}, second shots {seconds}");
}

/// A British sniper holding at the road, 30 inches (long range for a rifle)
/// from a German section on Overwatch in the open.
fn sniper_duel() -> Scenario {
    let text = r#"(
    name: "Sniper", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the road", at: (36, 4)), (name: "the farm", at: (36, 34))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [(id: "a1", nco: Regular, sniper: true, figures: [(men: 1, weapon: "gb_no4_rifle")], start: at(36, 4))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Overwatch, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(36, 34))])]),
    ],
)"#;
    Scenario::load("sniper.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_sniper_hits_on_four_and_ignores_long_range() {
    // Heroes All, "Snipers": "Snipers are elite/veteran (Enhanced) and
    // automatically start the game as concealed." "They shoot using the normal
    // rifle rules but only need a 4+ to hit. They ignore the +1 modifier for
    // long range and the +1 modifier for any hard cover".
    let mut shots = 0;
    for seed in 0..8 {
        let (app, _) = autoplay("sniper", sniper_duel(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        for v in log.iter().filter(|e| e.event.actor.as_deref() == Some("a1") && e.event.kind == EventKind::Fire) {
            assert_eq!(input(v, "needed"), Some(&serde_json::json!(4)), "seed {seed}: {:?}", v.event.inputs);
            assert_eq!(input(v, "long_range"), None, "seed {seed}: {:?}", v.event.inputs);
            assert_eq!(input(v, "elite_firer"), Some(&serde_json::json!(1)), "seed {seed}: {:?}", v.event.inputs);
            shots += 1;
        }
    }
    assert!(shots > 0, "the sniper never fired");
    let app = battle_app(BattleStart::auto("sniper", sniper_duel(), 0), BattleLog::default()).unwrap();
    let a1 = elements(&app).into_iter().find(|f| f.id() == "a1").expect("the sniper on the table");
    assert!(a1.concealment.concealed(), "the sniper starts concealed");
    assert_eq!(a1.force.quality, warbound_rules::officer::Quality::Elite);
}

#[test]
fn snipers_cannot_operate_at_night() {
    // Heroes All, "Night Fighting": "All weapons can be fired as usual.
    // Snipers cannot operate."
    let mut scenario = sniper_duel();
    scenario.start_hour = 23;
    let mut start = BattleStart::auto("sniper", scenario, 1);
    start.control = vec![Control::Player, Control::Auto];
    let mut app = battle_app(start, BattleLog::default()).unwrap();
    to_element_turn(&mut app);
    assert_eq!(acting(&app), "a1");
    let world = app.world_mut();
    let mut q = world.query::<(&warbound_battle::state::Identity, &mut warbound_battle::state::Intel)>();
    for (identity, mut intel) in q.iter_mut(world) {
        if identity.side == 0 {
            intel.known.insert("g1".to_owned());
        }
    }
    set_order(&mut app, warbound_rules::order_dice::Phase::Fire);
    let before = elements(&app);
    play::command(&mut app, Command::Fire { element: "a1".into(), target: "g1".into() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Night Fighting"), "a sniper fired at night");
    play::command(&mut app, Command::Move { element: "a1".into(), to: (40.0, 4.0), pace: Default::default() }).unwrap();
    assert_eq!(refused_by(&app).as_deref(), Some("Night Fighting"), "a sniper moved at night");
    assert_eq!(elements(&app), before);
}

/// A 3-inch mortar of the Player's 30 inches from a German section on
/// Overwatch, which it knows of, at the mortar's turn on a Fire order, after
/// `setup` has changed the elements' marks.
fn mortar_fires(setup: impl Fn(&str, &mut warbound_battle::state::Actions, Point)) -> warbound_battle::log::Entry {
    let text = r#"(
    name: "Mortar", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the road", at: (36, 4)), (name: "the farm", at: (36, 34))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [(id: "a1", nco: Regular, pieces: [(codex: "gb_3in_mortar")], start: at(36, 4))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Overwatch, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(36, 34))])]),
    ],
)"#;
    let scenario = Scenario::load("mortar.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let mut start = BattleStart::auto("mortar", scenario, 4);
    start.control = vec![Control::Player, Control::Auto];
    let mut app = battle_app(start, BattleLog::default()).unwrap();
    to_element_turn(&mut app);
    assert_eq!(acting(&app), "a1");
    let world = app.world_mut();
    let mut q = world.query::<(
        &warbound_battle::state::Identity,
        &warbound_battle::state::Force,
        &warbound_battle::state::Place,
        &mut warbound_battle::state::Intel,
        &mut warbound_battle::state::Actions,
    )>();
    for (identity, force, place, mut intel, mut actions) in q.iter_mut(world) {
        if identity.side == 0 {
            intel.known.insert("g1".to_owned());
        }
        setup(force.id(), &mut actions, place.at);
    }
    set_order(&mut app, warbound_rules::order_dice::Phase::Fire);
    play::command(&mut app, Command::Fire { element: "a1".into(), target: "g1".into() }).unwrap();
    assert_eq!(refused_by(&app), None);
    let log = &app.world().resource::<BattleLog>().entries;
    log.iter()
        .find(|e| e.event.actor.as_deref() == Some("a1") && e.event.rule.section == "Indirect Fire")
        .cloned()
        .expect("the mortar's shot")
}

#[test]
fn a_target_that_moved_two_inches_is_not_harder_to_hit() {
    // Heroes All, Indirect Fire: "deduct 1 from the D6 score if the target
    // moved more than 3 inches on this bound".
    let moved = |inches: f32, last_bound: bool| {
        mortar_fires(|id, actions, _| {
            if id == "g1" {
                actions.this_bound.moved = inches > 0.0;
                actions.this_bound.moved_inches = inches;
                actions.last_bound.moved = last_bound;
            }
        })
    };
    let two = moved(2.0, true);
    assert_eq!(input(&two, "modifier"), Some(&serde_json::json!(0)), "{:?}", two.event.inputs);
    assert_eq!(input(&two, "target_moved"), Some(&serde_json::json!("up_to3")));
    let four = moved(4.0, false);
    assert_eq!(input(&four, "modifier"), Some(&serde_json::json!(-1)), "{:?}", four.event.inputs);
}

#[test]
fn fire_walked_three_inches_from_a_hit_needs_three() {
    // Heroes All, Indirect Fire: "If a hit is achieved, 2+ is required on all
    // subsequent mortar/HE shots. If the target moves 3 inches or less or if
    // shots are 'walked' 3 inches or less then a 3+ hits."
    let walked = |by: f32| {
        mortar_fires(move |id, actions, _| {
            if id == "a1" {
                actions.ranging = Some(("g1".into(), warbound_rules::firing::Ranging::OnTarget));
                actions.ranging_at = Some(Point(36.0 + by, 34.0));
            }
        })
    };
    let on = walked(0.0);
    assert_eq!(input(&on, "needed"), Some(&serde_json::json!(2)), "{:?}", on.event.inputs);
    let two = walked(2.0);
    assert_eq!(input(&two, "needed"), Some(&serde_json::json!(3)), "{:?}", two.event.inputs);
    assert_eq!(input(&two, "walked"), Some(&serde_json::json!(2.0)));
    let five = walked(5.0);
    assert_eq!(input(&five, "needed"), Some(&serde_json::json!(5)), "fired at afresh: {:?}", five.event.inputs);
}

#[test]
fn a_mortar_more_than_three_inches_into_a_wood_cannot_fire() {
    // Heroes All, Indirect Fire: "They cannot fire if they are more than 3
    // inches into a wood."
    use warbound_rules::terrain::{Feature, WoodDensity};
    let wood = |half: f32| Feature::Wood {
        density: WoodDensity::Sparse,
        outline: vec![
            Point(36.0 - half, 4.0 - half),
            Point(36.0 + half, 4.0 - half),
            Point(36.0 + half, 4.0 + half),
            Point(36.0 - half, 4.0 + half),
        ],
    };
    let terrain = warbound_rules::terrain::Terrain { features: vec![wood(3.5)], gaps: Vec::new() };
    assert_eq!(warbound_rules::geometry::depth_in_wood(&terrain, Point(36.0, 4.0)), Inches(3.5));
    assert_eq!(warbound_rules::geometry::depth_in_wood(&terrain, Point(33.0, 4.0)), Inches(0.5));
    assert_eq!(warbound_rules::geometry::depth_in_wood(&terrain, Point(20.0, 4.0)), Inches::ZERO);
}

/// A British company of three sections against two German Gruppen: `a1`
/// has the Company Officer with it, `a2` no radio, `a3` a radio.
fn signals() -> Scenario {
    let text = r#"(
    name: "Signals", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the road", at: (36, 40)), (name: "the farm", at: (36, 24))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: ContactEnemy, location: "the road"),
            elements: [
                (id: "a1", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(36, 4)),
                (id: "a2", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(12, 4)),
                (id: "a3", nco: Regular, radio: true, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(60, 4)),
            ])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [
                (id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], pieces: [(codex: "de_mg42_lmg")], start: at(36, 24)),
                (id: "g2", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(20, 30)),
            ])]),
    ],
)"#;
    Scenario::load("signals.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

/// The events logged since `seen` entries, and whether one names `id` as its actor or target.
fn names(new: &[warbound_battle::log::Entry], id: &str) -> bool {
    new.iter().any(|e| e.event.actor.as_deref() == Some(id) || e.event.target.as_deref() == Some(id))
}

fn passed_runner(e: &warbound_battle::log::Entry) -> bool {
    e.event.rule.section == "Runners" && e.event.outcome["passed"] == serde_json::json!(true)
}

/// FYOB "Runners": "If an element has no radio or if it's radio is considered
/// DIS then contact with the Company Officer takes place via a runner ...
/// each time that the NCO of the element is due to receive or send
/// information he must do so by sending a \"runner\" ... passing a Leadership
/// Test as one of the element's Acts". `a2` (no radio) learns of an enemy
/// only by its own doing (its observation, its runner); the CO's picture
/// grows only on his own turn or when a runner gets through; `a3`, on the
/// net, hears from the CO without an act of its own; the CO's own element
/// never sends a runner.
#[test]
fn an_element_without_a_radio_hears_and_is_heard_only_through_its_runner() {
    let (mut runners, mut by_radio) = (0, 0);
    for seed in 0..12 {
        let mut seen = 0;
        let mut before: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
        let mut picture = std::collections::BTreeSet::new();
        step_through(BattleStart::auto("signals", signals(), seed), |app| {
            let log = &app.world().resource::<BattleLog>().entries;
            let new = &log[seen..];
            seen = log.len();
            for f in elements(app).iter().filter(|f| f.identity.side == 0) {
                let known = before.entry(f.id().to_owned()).or_default();
                let grew = !f.intel.known.is_subset(known);
                *known = f.intel.known.clone();
                if !grew {
                    continue;
                }
                match f.id() {
                    "a2" => assert!(names(new, "a2"), "seed {seed}: a2 heard of an enemy without its runner"),
                    "a3" if !names(new, "a3") => by_radio += 1,
                    _ => {}
                }
            }
            let company = &app.world().resource::<Sides>().0[0].companies[0];
            if !company.known.is_subset(&picture) {
                assert!(
                    names(new, "a_coy") || new.iter().any(passed_runner),
                    "seed {seed}: the CO heard of an enemy neither on his turn nor by a runner"
                );
            }
            picture = company.known.clone();
            let with_the_co = company.co_alive && company.attached_to == "a1";
            assert!(
                !with_the_co
                    || !new.iter().any(|e| e.event.rule.section == "Runners" && e.event.actor.as_deref() == Some("a1")),
                "seed {seed}: the element with the CO sent a runner"
            );
            runners += new.iter().filter(|e| passed_runner(e) && e.event.actor.as_deref() == Some("a2")).count();
        });
    }
    assert!(runners > 0, "a2's runner never got through");
    assert!(by_radio > 0, "a3 never heard from the CO by radio");
}

/// FYOB "Radios": "the Company Officer must pass a Radio Test (i) at the
/// start of the game ... 2 attempts are permitted"; "2 Radio tests are
/// allowed per bound"; FYOB "Radio Links between Officer levels": "If that
/// connection fails or is lost, runners must be sent". Every company tests
/// in the first bound, no more than twice a bound; while the net is down the
/// Senior Officer hears nothing but by the CO's runner, and `a3`'s radio
/// brings it nothing; a later test nets the company in again.
#[test]
fn a_failed_radio_test_cuts_the_company_off_until_it_is_netted() {
    let (mut cut_off, mut renetted) = (0, 0);
    for seed in 0..40 {
        let mut seen = 0;
        let mut so = std::collections::BTreeSet::new();
        let mut a3 = std::collections::BTreeSet::new();
        step_through(BattleStart::auto("signals", signals(), seed), |app| {
            let log = &app.world().resource::<BattleLog>().entries;
            let new = &log[seen..];
            seen = log.len();
            let side = &app.world().resource::<Sides>().0[0];
            let company = &side.companies[0];
            let down = !company.netted();
            if !side.known.is_subset(&so) && down {
                assert!(
                    new.iter().any(|e| e.event.rule.section == "Radio Links between Officer levels"
                        && e.event.outcome["passed"] == serde_json::json!(true)),
                    "seed {seed}: the Senior Officer heard from a company cut off without its runner"
                );
            }
            so = side.known.clone();
            let els = elements(app);
            let now = &els.iter().find(|f| f.id() == "a3").unwrap().intel.known;
            if down && !now.is_subset(&a3) {
                assert!(names(new, "a3"), "seed {seed}: a3 heard over a net that is down");
            }
            a3 = now.clone();
        });
        let app_log = {
            let (app, _) = autoplay("signals", signals(), seed);
            app.world().resource::<BattleLog>().entries.clone()
        };
        let radio_tests = || {
            app_log
                .iter()
                .filter(|e| e.event.rule.section == "Radio netting-in" && e.event.actor.as_deref() == Some("a_coy"))
        };
        let tests = |bound: u32| radio_tests().filter(|e| e.bound == bound).count();
        assert!((1..=2).contains(&tests(1)), "seed {seed}: {} radio tests at the start", tests(1));
        let last = app_log.last().map_or(1, |e| e.bound);
        assert!((1..=last).all(|b| tests(b) <= 2), "seed {seed}: more than 2 radio tests in a bound");
        let passed = |e: &&warbound_battle::log::Entry| e.event.outcome["passed"] == serde_json::json!(true);
        if !radio_tests().any(|e| e.bound == 1 && passed(&e)) {
            cut_off += 1;
            if radio_tests().any(|e| e.bound > 1 && passed(&e)) {
                renetted += 1;
            }
        }
    }
    assert!(cut_off > 0, "no company failed both its radio tests at the start");
    assert!(renetted > 0, "no company cut off at the start was netted in again");
}

/// Each weapon's bounds of fire left at the start of `scenario`, by element.
fn rounds_at_start(scenario: &Scenario) -> BTreeMap<String, (Vec<Option<u8>>, u32)> {
    let app = battle_app(BattleStart::auto("shots", scenario.clone(), 1), BattleLog::default()).unwrap();
    elements(&app)
        .into_iter()
        .map(|e| {
            let figures = e.force.element.figures.iter().map(|f| f.rounds);
            let pieces = e.force.element.pieces.iter().flat_map(|p| p.rounds.clone());
            (e.force.element.id.clone(), (figures.chain(pieces).collect(), e.actions.shots_used))
        })
        .collect()
}

#[test]
fn an_element_starts_with_the_shots_it_used_today() {
    // FYOW 20.4: shots are "reset to the maximum" only when the weapon
    // "receives its full daily requirement"; Heroes All, "Forces acting whilst
    // rationed": "the total shown on the Cardsheet is carried forward and not
    // topped back up". A campaign element's bounds used earlier today come
    // off its weapons, spread to the one with most left, and count on in its
    // `shots_used`; with none written every element starts as before.
    let mut checked = 0;
    for (name, scenario) in shipped() {
        let fresh = rounds_at_start(&scenario);
        let Some((id, (rounds, _))) =
            fresh.iter().find(|(_, (r, _))| r.iter().flatten().map(|&n| u32::from(n)).sum::<u32>() >= 3)
        else {
            continue;
        };
        let total: u32 = rounds.iter().flatten().map(|&n| u32::from(n)).sum();
        let mut used = scenario.clone();
        let spec = used.sides.iter_mut().flat_map(|s| s.companies.iter_mut()).flat_map(|c| c.elements.iter_mut());
        let spec = spec.into_iter().find(|e| &e.id == id).unwrap();
        spec.shots_used = 3;
        let after = rounds_at_start(&used);
        let (left, counted) = &after[id];
        assert_eq!(*counted, 3, "{name} {id}: its day's count goes on from 3");
        let left_total: u32 = left.iter().flatten().map(|&n| u32::from(n)).sum();
        assert_eq!(left_total, total - 3, "{name} {id}: {rounds:?} -> {left:?}");
        for (was, now) in rounds.iter().zip(left) {
            assert!(now <= was && was.is_some() == now.is_some(), "{name} {id}: {was:?} -> {now:?}");
        }
        for (other, state) in &fresh {
            if other != id {
                assert_eq!(&after[other], state, "{name}: {other} used nothing");
            }
        }
        // More than it has: every bound it has is gone, and no more is counted.
        let spec = used.sides.iter_mut().flat_map(|s| s.companies.iter_mut()).flat_map(|c| c.elements.iter_mut());
        spec.into_iter().find(|e| &e.id == id).unwrap().shots_used = 1000;
        let (left, counted) = rounds_at_start(&used)[id].clone();
        assert!(left.iter().flatten().all(|&n| n == 0), "{name} {id}: {left:?}");
        assert!(counted > 0 && counted < 1000, "{name} {id}: only what it had is counted, {counted}");
        // Rationed, it has its halved allowance, or what its maximum less the
        // bounds used leaves where that is less: one bound used earlier
        // leaves a weapon of 2 or more bounds its halved allowance.
        let ration = |s: &mut Scenario| s.sides.iter_mut().for_each(|side| side.rationed = true);
        let mut rationed = scenario.clone();
        ration(&mut rationed);
        if rounds.iter().flatten().all(|&n| n >= 2) {
            let halved = rounds_at_start(&rationed)[id].0.clone();
            let spec = used.sides.iter_mut().flat_map(|s| s.companies.iter_mut()).flat_map(|c| c.elements.iter_mut());
            spec.into_iter().find(|e| &e.id == id).unwrap().shots_used = 1;
            ration(&mut used);
            assert_eq!(rounds_at_start(&used)[id], (halved, 1), "{name} {id}");
        }
        checked += 1;
    }
    assert!(checked > 0, "a shipped element has a daily allowance");
}

/// The hotseat's choices are what the battle accepts: over the first player's
/// bound on several seeds, every offer not refused is accepted when given,
/// every refused one is refused with the same rule and reason, and the fire
/// odds offered are the rules core's for the same firer and target.
#[test]
fn the_hotseat_offers_what_the_command_dice_allow_with_the_odds_of_the_throw() {
    use warbound_battle::{hotseat::hotseat_choice, options::fire_odds, visible::Sight};
    let (mut accepted, mut refused, mut fire) = (0, 0, 0);
    for seed in 0..8 {
        let mut app = battle_app(two_player_start("village", seed, Control::Player), BattleLog::default()).unwrap();
        play::advance(&mut app).unwrap();
        for _ in 0..12 {
            let h = hotseat(&app);
            let Some(choice) = hotseat_choice(app.world_mut(), None) else { break };
            assert_eq!(choice.player, h.player);
            assert_eq!(choice.dice.len(), (0..h.dice.len()).filter(|&i| h.dice.face(i).is_some()).count());
            let Some(taker) = choice.elements.iter().find(|e| !e.halted && e.used < 3) else { break };
            let choice = hotseat_choice(app.world_mut(), Some(&taker.id)).unwrap();
            // The fire odds shown, against the rules core's for the same pair.
            let els: Vec<ElementBundle> = warbound_battle::state::elements(app.world_mut());
            let me = els.iter().find(|f| f.id() == taker.id).unwrap().view();
            for o in &choice.offers {
                let Command::Die { action: DieAction::Fire { target }, .. } = &o.command else { continue };
                let t = els.iter().find(|f| f.id() == target).unwrap().view();
                let codex = codex();
                let sight = Sight::new(app.world().resource::<Battle>(), &codex);
                let odds = fire_odds(
                    &sight,
                    &me,
                    &t,
                    warbound_battle::options::Stance::new(me.actions.this_bound.moved, 0, false),
                );
                if let Some(odds) = odds {
                    let shown = format!("{} shots, {:.0}% to hit", odds.shots, odds.at_least_one_hit * 100.0);
                    assert!(o.label.contains(&shown), "{} against {shown}", o.label);
                    fire += 1;
                }
            }
            // A refused offer (an element halted or at its 3 dice) is refused
            // when given, with the same words.
            for e in choice.elements.iter().filter(|e| e.halted || e.used >= 3) {
                let other = hotseat_choice(app.world_mut(), Some(&e.id)).unwrap();
                if let Some(o) = other.offers.iter().find(|o| o.refused.is_some()) {
                    play::command(&mut app, o.command.clone()).unwrap();
                    let last = last_event(&app);
                    assert_eq!(last.outcome["accepted"], serde_json::json!(false), "{}", o.label);
                    let why = o.refused.clone().unwrap();
                    assert!(why.ends_with(last.outcome["reason"].as_str().unwrap()), "{why} against {last:?}");
                    refused += 1;
                }
                assert!(other.offers.iter().all(|o| o.refused.is_some()), "{}: nothing may be given", e.id);
            }
            // An offer the check allows is accepted (its ORT or morale may still halt it).
            let Some(o) = choice.offers.iter().find(|o| o.refused.is_none()) else { break };
            let before = app.world().resource::<BattleLog>().entries.len();
            play::command(&mut app, o.command.clone()).unwrap();
            let log = &app.world().resource::<BattleLog>().entries[before..];
            assert!(
                log.iter().any(|e| e.event.kind == EventKind::Command && e.event.outcome["accepted"] == true),
                "{} was not accepted",
                o.label
            );
            accepted += 1;
            if !matches!(app.world().resource::<Flow>(), Flow::Commanding(_)) || !play::waiting_for_player(app.world())
            {
                break;
            }
        }
    }
    assert!(accepted > 10 && refused > 0 && fire > 0, "accepted {accepted}, refused {refused}, fire odds {fire}");
}

/// The officers' decisions offer what the rules allow with the rules' odds:
/// the Company Officer's rallying throws are the rules core's for his grade,
/// the Senior Officer's commitment chance is his Leadership Test's, the
/// general withdrawal is refused before Red with its rule, and a swap on
/// Seizing the Initiative is accepted as offered and swaps the cards.
#[test]
fn the_officers_decisions_offer_the_rules_choices_with_their_odds() {
    use warbound_battle::options::{Decision, decision};
    let (mut co_turns, mut sessions, mut swaps) = (0, 0, 0);
    for seed in 0..40 {
        let mut start = BattleStart::auto("village", load("village"), seed);
        start.control = vec![Control::Player, Control::Auto];
        let mut app = battle_app(start, BattleLog::default()).unwrap();
        play::advance(&mut app).unwrap();
        for _ in 0..400 {
            if play::is_over(app.world()) || app.world().resource::<Battle>().clock.bound() > 4 {
                break;
            }
            let d = decision(app.world_mut());
            let cmd = match d {
                Some(Decision::CoTurn { company, elements, rally_throws, places, .. }) => {
                    let sides = app.world().resource::<Sides>().clone();
                    let side = sides.0.iter().find(|s| s.companies.iter().any(|c| c.id == company)).unwrap();
                    let c = side.companies.iter().find(|c| c.id == company).unwrap();
                    let rationed = app.world().resource::<Battle>().start.scenario.sides[0].rationed;
                    assert_eq!(rally_throws, warbound_rules::momentum::rally_throws(c.co, rationed));
                    assert!(!elements.is_empty() && !places.is_empty());
                    co_turns += 1;
                    // Every element nominated, its order as it is: accepted.
                    let rally = elements.iter().map(|e| e.id.clone()).collect();
                    Command::Command { company, orders: vec![], rally }
                }
                Some(Decision::Session { side, keep, chance, withdraw, .. }) => {
                    let sides = app.world().resource::<Sides>().clone();
                    assert_eq!(chance, warbound_rules::officer::leadership_chance(sides.0[side].senior));
                    let red = sides.0[side].record.condition() >= warbound_rules::strategic::StrategicCondition::Red;
                    assert_eq!(withdraw.refused.is_none(), red, "{:?}", withdraw.refused);
                    if let Some(why) = &withdraw.refused {
                        assert!(why.starts_with("FYOB, Strategic Condition at Red:"), "{why}");
                    }
                    sessions += 1;
                    keep
                }
                Some(Decision::Seize { command, swaps: offered, .. }) => {
                    match offered.iter().find(|o| o.refused.is_none()) {
                        Some(o) => {
                            let Command::Seize { swap_with: Some(other), .. } = &o.command else { panic!() };
                            let other = other.clone();
                            let before = app.world().resource::<BattleLog>().entries.len();
                            play::command(&mut app, o.command.clone()).unwrap();
                            let log = &app.world().resource::<BattleLog>().entries[before..];
                            assert_eq!(log[0].event.kind, EventKind::Command);
                            assert_eq!(log[0].event.outcome["accepted"], true, "{}", o.label);
                            // The element swapped with acts now: its ORT or Order Die comes next.
                            let next = log[1..]
                                .iter()
                                .find(|e| matches!(e.event.kind, EventKind::Ort | EventKind::OrderDie))
                                .and_then(|e| e.event.actor.clone());
                            assert_eq!(next.as_deref(), Some(other.as_str()), "after swapping with {other}");
                            swaps += 1;
                            continue;
                        }
                        None => command,
                    }
                }
                Some(Decision::Act { element, .. }) => Command::EndTurn { element },
                None => break,
            };
            play::command(&mut app, cmd).unwrap();
        }
    }
    assert!(co_turns > 0 && sessions > 0, "CO turns {co_turns}, sessions {sessions}, swaps {swaps}");
}

/// Every Act offer over the shipped battles, either side commanded: the
/// detonation pack's odds shown are the rules core's, and an offer not
/// refused (a charge, wading, re-netting, smoke, an assault) is accepted
/// when given.
#[test]
fn every_act_offered_carries_the_rules_odds_and_is_accepted_when_given() {
    use warbound_battle::options::{Decision, decision};
    let mut given: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut acts = 0;
    for (name, scenario) in shipped() {
        for (seed, player) in (0..6).flat_map(|seed| [(seed, 0), (seed, 1)]) {
            let mut start = BattleStart::auto(&name, scenario.clone(), seed);
            start.control = vec![Control::Auto, Control::Auto];
            start.control[player] = Control::Player;
            let mut app = battle_app(start, BattleLog::default()).unwrap();
            play::advance(&mut app).unwrap();
            for _ in 0..600 {
                if play::is_over(app.world()) || app.world().resource::<Battle>().clock.bound() > 8 {
                    break;
                }
                let cmd = match decision(app.world_mut()) {
                    // A move's dice thrown: go as far as they allow along the route.
                    Some(Decision::Act { element, pending: Some(p), .. }) => {
                        let at = elements(&app).into_iter().find(|f| f.force.id() == element).unwrap().place.at;
                        let to = Point(p.to.0, p.to.1);
                        let d = distance(at, to).get();
                        let k = if d <= p.allowance { 1.0 } else { (p.allowance - 0.01).max(0.0) / d };
                        Command::MoveTo { element, to: (at.0 + (to.0 - at.0) * k, at.1 + (to.1 - at.1) * k) }
                    }
                    Some(Decision::Act { element, offers, .. }) => {
                        acts += 1;
                        let battle = app.world().resource::<Battle>().clone();
                        for o in &offers {
                            if let Command::Detonate { charge, .. } = &o.command {
                                let d = battle.charges.iter().find(|d| d.id == *charge).unwrap();
                                let chance = warbound_rules::explosives::detonation_chance(d.charge.kind);
                                assert!(
                                    o.label.contains(&format!("{:.0}% it goes off", chance * 100.0)),
                                    "{}",
                                    o.label
                                );
                            }
                        }
                        // The first of the kinds under test the rules allow, else its turn ends.
                        let kind = |c: &Command| match c {
                            Command::Detonate { .. } => Some("detonate"),
                            Command::Clear { .. } => Some("clear"),
                            Command::Wade { .. } => Some("wade"),
                            Command::Launch { .. } => Some("launch"),
                            Command::Renet { .. } => Some("renet"),
                            Command::Smoke { .. } => Some("smoke"),
                            Command::Assault { .. } => Some("assault"),
                            _ => None,
                        };
                        // The rarer Acts first, so that smoke, offered on most turns, does not hide them.
                        let rarest = ["launch", "detonate", "clear", "wade", "renet", "assault", "smoke"];
                        let pick = rarest
                            .iter()
                            .find_map(|k| offers.iter().find(|o| o.refused.is_none() && kind(&o.command) == Some(*k)));
                        match pick {
                            Some(o) => {
                                *given.entry(kind(&o.command).unwrap()).or_default() += 1;
                                let before = app.world().resource::<BattleLog>().entries.len();
                                play::command(&mut app, o.command.clone()).unwrap();
                                let log = &app.world().resource::<BattleLog>().entries[before..];
                                assert_eq!(log[0].event.outcome["accepted"], true, "{name} {seed}: {}", o.label);
                                continue;
                            }
                            // Else on towards its objective, at the double or by stealth.
                            None => offers
                                .iter()
                                .find(|o| o.refused.is_none() && matches!(o.command, Command::Move { .. }))
                                .map_or(Command::EndTurn { element }, |o| o.command.clone()),
                        }
                    }
                    Some(Decision::CoTurn { command, .. }) => command,
                    Some(Decision::Session { keep, .. }) => keep,
                    Some(Decision::Seize { command, .. }) => command,
                    None => break,
                };
                play::command(&mut app, cmd).unwrap();
            }
        }
    }
    assert!(given.get("detonate").is_some_and(|&n| n > 0), "{given:?} in {acts} turns");
    assert!(given.get("launch").is_some_and(|&n| n > 0), "no boats launched by a player: {given:?} in {acts} turns");
}

/// A German mortar section facing British lorries parked in the open.
fn lorry_park() -> Scenario {
    let text = r#"(
    name: "Lorry park", briefing: "test", table: (width: 72, depth: 48), time_limit: 8,
    places: [(name: "the park", at: (36, 10)), (name: "the ridge", at: (36, 40))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "rasc", officer: Regular, attached_to: "guard", objective: (activity: Hold, location: "the park"),
            elements: [
                (id: "guard", nco: Regular, figures: [(men: 6, weapon: "gb_no4_rifle")], start: at(30, 8)),
                (id: "lorry_1", nco: Regular, pieces: [(codex: "gb_bedford_qld")], start: at(34, 10)),
                (id: "lorry_2", nco: Regular, pieces: [(codex: "gb_bedford_qld")], start: at(38, 10)),
                (id: "lorry_3", nco: Regular, pieces: [(codex: "gb_bedford_qld")], start: at(42, 10)),
            ])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "gw", officer: Regular, attached_to: "mortars", objective: (activity: Hold, location: "the ridge"),
            elements: [(id: "mortars", nco: Regular, pieces: [(codex: "de_grw34"), (codex: "de_grw34")], start: at(36, 40))])]),
    ],
)"#;
    Scenario::load("lorries.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn mortar_hits_on_a_lorry_damage_the_vehicle_not_a_gun_crew() {
    let lorries = ["lorry_1", "lorry_2", "lorry_3"];
    let mut hits = 0;
    for seed in 0..12 {
        let (app, _) = autoplay("lorries", lorry_park(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        for e in log.iter().filter(|e| e.event.target.as_deref().is_some_and(|t| lorries.contains(&t))) {
            let section = e.event.rule.section.as_str();
            assert_ne!(section, "HE Effects Table", "seed {seed}: a lorry read as a gun's crew: {:?}", e.event);
            if section == "Small arms, mortar or HE fire against soft-skinned vehicles" {
                hits += 1;
                let after = &e.event.outcome["vehicle"];
                assert!(after == "damaged" || after == "brewed", "seed {seed}: {after}");
            }
        }
    }
    assert!(hits > 0, "the mortars never hit a lorry in 12 battles");
}

/// A German sentry posted by a farm, a British section holding a hedge
/// across the fields.
fn sentry() -> Scenario {
    let text = r#"(
    name: "Sentry", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    places: [(name: "the post", at: (36, 40)), (name: "the hedge", at: (36, 6))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a", officer: Regular, attached_to: "section", objective: (activity: Hold, location: "the hedge"),
            elements: [(id: "section", nco: Regular, figures: [(men: 8, weapon: "gb_no4_rifle")], start: at(36, 4))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "w", officer: Regular, attached_to: "posten", objective: (activity: Hold, location: "the post"),
            elements: [
                (id: "posten", nco: Regular, figures: [(men: 2, weapon: "de_kar98k")], guard: true, start: at(36, 40)),
                (id: "wache", nco: Regular, figures: [(men: 6, weapon: "de_kar98k")], start: at(40, 44)),
            ])]),
    ],
)"#;
    Scenario::load("sentry.ron", text, &codex()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_posted_guard_is_faced_by_the_compass_die_walks_its_beat_and_turns_about_each_bound() {
    let (mut turned, mut walked) = (0, 0);
    for seed in 0..8 {
        let (app, _) = autoplay("sentry", sentry(), seed);
        let log = &app.world().resource::<BattleLog>().entries;
        let guard: Vec<_> = log.iter().filter(|e| e.event.actor.as_deref() == Some("posten")).collect();
        let faced = guard.iter().find(|e| e.event.rule.section == "Guards").expect("the guard is faced at the start");
        assert_eq!(faced.event.dice.len(), 1, "seed {seed}: one Compass die");
        assert_eq!(faced.event.dice[0].sides, 8, "seed {seed}: a D8");
        let mut facing = faced.event.outcome["facing"].clone();
        let mut on_guard = true;
        for e in &guard[1..] {
            if e.event.rule.section == "Guards" && input(e, "re_face").is_some() {
                // Its NCO's test to re-face it: `the_auto_side_re_faces_a_guard_towards_an_enemy_behind_it`.
                assert_eq!(input(e, "facing"), Some(&facing), "seed {seed}: re-faced from where it faced");
                if e.event.outcome["passed"] == serde_json::json!(true) {
                    facing = input(e, "re_face").unwrap().clone();
                }
                continue;
            }
            if e.event.rule.section == "Guards" {
                assert!(on_guard, "seed {seed}: turned about off Overwatch");
                assert_eq!(e.event.inputs[0].value, facing, "seed {seed}: it turns from where it faced");
                assert_ne!(e.event.outcome["facing"], facing, "seed {seed}: 180 degrees");
                facing = e.event.outcome["facing"].clone();
                turned += 1;
            }
            if e.event.kind == EventKind::Command && e.event.outcome["accepted"] == true {
                let given = &e.event.inputs[0].value;
                assert!(given.get("fire").is_none() && given.get("aimed_fire").is_none(), "seed {seed}: a guard fired");
                walked += usize::from(given.get("move").is_some());
            }
            if e.event.rule.section == "Overwatch"
                || e.event.outcome.get("overwatch") == Some(&serde_json::json!(false))
            {
                on_guard = false;
            }
        }
    }
    assert!(turned >= 8, "the guard turned about only {turned} times in 8 battles");
    assert!(walked > 0, "the guard never walked its beat in 8 battles");
}

#[test]
fn an_afv_just_behind_the_brow_is_hull_down_to_a_firer_below() {
    // HA "Vehicle cover": tanks "conceal as much of themselves as possible
    // whilst still being able to fire ... 'hull down'"; "-1 if the target is
    // an AFV showing less than 50% of itself". A level-1 ridge from y 20 to
    // 30; the Sherman on it, the German section on the flat below.
    let text = |sherman_y: f32| {
        format!(
            r#"(
    name: "Ridge", briefing: "test", table: (width: 72, depth: 48), time_limit: 6,
    terrain: (features: [Hill(levels: [(level: 1, outline: [(10, 20), (62, 20), (62, 30), (10, 30)])])]),
    places: [(name: "the road", at: (36, 40)), (name: "the farm", at: (36, 4))],
    sides: [
        (name: "British", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "a_coy", officer: Regular, attached_to: "a1", objective: (activity: Hold, location: "the road"),
            elements: [(id: "a1", nco: Regular, pieces: [(codex: "gb_sherman_v")], start: at(36, {sherman_y}))])]),
        (name: "German", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "b_kp", officer: Regular, attached_to: "g1", objective: (activity: Hold, location: "the farm"),
            elements: [(id: "g1", nco: Regular, figures: [(men: 8, weapon: "de_kar98k")], start: at(36, 8))])]),
    ],
)"#
        )
    };
    let cover_of = |sherman_y: f32| {
        let scenario = Scenario::load("ridge.ron", &text(sherman_y), &codex()).unwrap_or_else(|e| panic!("{e}"));
        let app = battle_app(BattleStart::auto("ridge", scenario, 1), BattleLog::default()).unwrap();
        let els = elements(&app);
        let (sherman, section) = (els[0].view(), els[1].view());
        let codex = codex();
        let sight = warbound_battle::visible::Sight::new(app.world().resource::<Battle>(), &codex);
        (sight.cover(&section.view(), &sherman.view()), sight.cover(&sherman.view(), &section.view()))
    };
    use warbound_rules::firing::Cover;
    // 1" behind the brow at y 20, the firer below: hull down.
    assert_eq!(cover_of(21.0).0, Cover::HullDown);
    // 6" back from the brow: no brow in front of it within a tank's length.
    assert_eq!(cover_of(26.0).0, Cover::Soft);
    // On the flat in front of the ridge: no higher ground of its own.
    assert_eq!(cover_of(16.0).0, Cover::Soft);
    // Men are never hull down.
    assert_eq!(cover_of(21.0).1, Cover::Open);
}
