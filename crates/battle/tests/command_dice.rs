//! The 2-player Command Dice give every order the battle models (*Heroes
//! All*, "Command and Control for 2-Player games"): the solo commands through
//! their rule steps, the FOO's dice and his guns', the squadrons' attacks;
//! and the hotseat offers them.

use std::sync::Arc;

use warbound_battle::{
    command::{Command, DieAction, Pace},
    invariant::InvariantFailures,
    log::BattleLog,
    play,
    prelude::*,
    setup::{BattleStart, Control, Mechanism},
    shipped,
    state::{ElementBundle, Flow, Hotseat},
};
use warbound_rules::{codex::Codex, event::EventKind};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

fn shipped() -> Vec<String> {
    shipped::battles(&codex()).expect("shipped scenarios parse").into_iter().map(|(n, _)| n).collect()
}

fn battle_app(start: BattleStart, log: BattleLog) -> Result<App, String> {
    play::battle_app(start, log, codex())
}

fn assert_sound(app: &App) {
    let failures = &app.world().resource::<InvariantFailures>().0;
    assert!(failures.is_empty(), "invariant failures: {failures:?}");
}

fn elements(app: &App) -> Vec<ElementBundle> {
    warbound_battle::state::elements(app.world())
}

fn two_player_start(name: &str, seed: u64, control: Control) -> BattleStart {
    let scenario = shipped::battle(name, &codex()).unwrap_or_else(|e| panic!("{e}"));
    let mut start = BattleStart::auto(name, scenario, seed);
    start.mechanism = Mechanism::TwoPlayer;
    start.control = vec![control; 2];
    start
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

/// The German player's turn with his Command Dice in a 2-player `river`.
fn german_commanding(seed: u64) -> App {
    let mut app = battle_app(two_player_start("river", seed, Control::Player), BattleLog::default()).unwrap();
    play::advance(&mut app).unwrap();
    if hotseat(&app).player != 1 {
        play::command(&mut app, Command::Pass { player: 0 }).unwrap();
    }
    assert_eq!(hotseat(&app).player, 1);
    app
}

#[test]
fn a_command_die_gives_the_solo_commands_through_their_rule_steps() {
    let solo = |command: Command| DieAction::Solo { command: Box::new(command) };
    let detonate = || solo(Command::Detonate { element: "wache".into(), charge: "bridge_charge".into() });
    let (mut fired, mut wrong_face, mut doubled) = (0, 0, 0);
    for seed in 0..20 {
        let mut app = german_commanding(seed);
        let h = hotseat(&app);
        let faces: Vec<(usize, u8)> = (0..h.dice.len()).filter_map(|d| h.dice.face(d).map(|f| (d, f))).collect();
        // A die whose face is no Act cannot fire a charge (1 fire, 2 move, 3 observe, 5 communicate).
        if let Some(&(die, _)) = faces.iter().find(|(_, f)| ![4, 6].contains(f)) {
            let cmd = Command::Die { element: "wache".into(), die, action: detonate(), sixes: vec![] };
            play::command(&mut app, cmd).unwrap();
            assert_eq!(last_event(&app).outcome["accepted"], serde_json::json!(false));
            assert_eq!(hotseat(&app).dice, h.dice, "a refused die is not spent");
            wrong_face += 1;
        }
        // HA 2-player, "2": "\"At The Double\" moves are NOT available".
        if let Some(&(die, _)) = faces.iter().find(|(_, f)| [2, 6].contains(f)) {
            let run = Command::Move { element: "wache".into(), to: (36.0, 30.0), pace: Pace::AtTheDouble };
            play::command(&mut app, Command::Die { element: "wache".into(), die, action: solo(run), sixes: vec![] })
                .unwrap();
            let e = last_event(&app);
            assert_eq!(e.outcome["accepted"], serde_json::json!(false));
            assert_eq!(e.outcome["reason"], "\"At The Double\" moves are NOT available");
            doubled += 1;
        }
        let Some(&(die, _)) = faces.iter().find(|(_, f)| [4, 6].contains(f)) else { continue };
        // The solo check refuses what the table does not allow, with its rule.
        let clear = Command::Die {
            element: "wache".into(),
            die,
            action: solo(Command::ClearMines { element: "wache".into() }),
            sixes: vec![],
        };
        play::command(&mut app, clear).unwrap();
        let e = last_event(&app);
        assert_eq!(e.outcome["accepted"], serde_json::json!(false));
        assert_eq!(e.rule.section, "Mines");
        assert_eq!(e.outcome["reason"], "no uncleared minefield in contact");
        // The Act fires the charge through the Explosives step, once the NCO's ORT lets it act.
        let before = app.world().resource::<BattleLog>().entries.len();
        play::command(&mut app, Command::Die { element: "wache".into(), die, action: detonate(), sixes: vec![] })
            .unwrap();
        let log = &app.world().resource::<BattleLog>().entries[before..];
        assert_eq!(log[0].event.outcome["accepted"], serde_json::json!(true), "{:?}", log[0].event);
        let halted = hotseat(&app).halted.contains("wache");
        let blown = log
            .iter()
            .any(|e| e.event.kind == EventKind::Explosives && e.event.target.as_deref() == Some("bridge_charge"));
        assert_eq!(blown, !halted, "seed {seed}: the charge is fired when, and only when, the guard acts");
        fired += usize::from(blown);
    }
    assert!(fired > 0 && wrong_face > 0 && doubled > 0, "fired {fired}, wrong faces {wrong_face}, run {doubled}");
}

#[test]
fn the_auto_two_player_game_reaches_the_engineers_and_charges_of_its_scenario() {
    let (mut reached, mut guns) = (std::collections::HashSet::new(), std::collections::BTreeSet::new());
    let mut planes = std::collections::BTreeSet::new();
    for name in shipped() {
        for seed in 0..6 {
            let (app, _) =
                play::autoplay(two_player_start(&name, seed, Control::Auto), BattleLog::default(), codex()).unwrap();
            assert_sound(&app);
            for e in &app.world().resource::<BattleLog>().entries {
                if e.event.actor.as_deref() == Some("181_field_regiment") {
                    guns.insert(name.clone());
                }
                if e.event.actor.as_deref() == Some("typhoons") && e.event.kind != EventKind::Command {
                    planes.insert(name.clone());
                }
                if matches!(e.event.kind, EventKind::Explosives | EventKind::Engineering) {
                    reached.insert((name.clone(), e.event.kind));
                }
            }
        }
    }
    // The river's guard fires the bridge charge; the beach's sappers bridge the brook.
    assert!(reached.contains(&("river".to_owned(), EventKind::Explosives)), "{reached:?}");
    // The village's FOO calls down his battery's fire, and its Typhoons attack.
    assert!(guns.contains("village"), "no battery fired in a 2-player battle: {guns:?}");
    assert!(planes.contains("village"), "no squadron attacked in a 2-player battle: {planes:?}");
    assert!(reached.contains(&("beach".to_owned(), EventKind::Engineering)), "{reached:?}");
}

/// The British player's turn with his Command Dice in a 2-player `village`.
fn british_commanding(seed: u64) -> App {
    let mut app = battle_app(two_player_start("village", seed, Control::Player), BattleLog::default()).unwrap();
    play::advance(&mut app).unwrap();
    if hotseat(&app).player != 0 {
        play::command(&mut app, Command::Pass { player: 1 }).unwrap();
    }
    assert_eq!(hotseat(&app).player, 0);
    app
}

#[test]
fn a_foo_takes_one_command_die_for_his_acts_and_his_guns_fire_on_a_one() {
    let (mut acted, mut refused) = (0, 0);
    for seed in 0..20 {
        let mut app = british_commanding(seed);
        let h = hotseat(&app);
        let on_table = elements(&app).iter().filter(|f| f.identity.side == 0 && f.presence.status.on_table()).count();
        let n = on_table as u32 + 1;
        assert_eq!(h.dice.len() as u32, n + n / 3, "the FOO and his battery get 1 Command Die between them");
        let faces: Vec<(usize, u8)> = (0..h.dice.len()).filter_map(|d| h.dice.face(d).map(|f| (d, f))).collect();
        let foo = |die, action| Command::Die { element: "foo_181_fd".into(), die, action, sixes: vec![] };
        // Before a target is active his guns have nothing to fire on.
        if let Some(&(die, _)) = faces.iter().find(|(_, f)| [1, 6].contains(f)) {
            play::command(&mut app, foo(die, DieAction::Battery)).unwrap();
            let e = last_event(&app);
            assert_eq!(e.outcome["accepted"], serde_json::json!(false), "{e:?}");
            assert!(["Advanced Artillery Rules", "Interdiction Fire"].contains(&e.rule.section.as_str()), "{e:?}");
            refused += 1;
        }
        let Some(&(die, _)) = faces.iter().find(|(_, f)| [4, 6].contains(f)) else { continue };
        let before = app.world().resource::<BattleLog>().entries.len();
        play::command(&mut app, foo(die, DieAction::Foo)).unwrap();
        let log = &app.world().resource::<BattleLog>().entries[before..];
        assert_eq!(log[0].event.outcome["accepted"], serde_json::json!(true), "{:?}", log[0].event);
        let orts = log.iter().filter(|e| e.event.kind == EventKind::Ort).count();
        assert_eq!(orts, 1, "seed {seed}: one ORT, the die's, not a second of his own turn");
        let after_ort = log.iter().skip_while(|e| e.event.kind != EventKind::Ort).skip(1);
        if !hotseat(&app).halted.contains("foo_181_fd") {
            assert!(
                after_ort.clone().any(|e| e.event.actor.as_deref() == Some("foo_181_fd")),
                "seed {seed}: the FOO acted"
            );
            acted += 1;
        }
    }
    assert!(acted > 0 && refused > 0, "acted {acted}, refused {refused}");
}

#[test]
fn the_hotseat_offers_the_engineers_acts_and_the_foo_his_dice() {
    use warbound_battle::hotseat::hotseat_choice;
    let (mut charge, mut foo) = (0, 0);
    for seed in 0..10 {
        // The river's guard may fire the bridge charge on a 4 or a 6, and the offer is the very command given.
        let mut app = german_commanding(seed);
        let choice = hotseat_choice(app.world_mut(), Some("wache")).unwrap();
        let fire: Vec<_> = choice.offers.iter().filter(|o| o.label.contains("fire the charge")).collect();
        let fours = choice.dice.iter().filter(|(_, f)| [4, 6].contains(f)).count();
        assert_eq!(fire.len(), fours, "seed {seed}: a charge offer for each 4 or 6");
        if let Some(offer) = fire.first() {
            assert_eq!(offer.refused, None, "{offer:?}");
            let before = app.world().resource::<BattleLog>().entries.len();
            play::command(&mut app, offer.command.clone()).unwrap();
            let log = &app.world().resource::<BattleLog>().entries[before..];
            assert_eq!(log[0].event.outcome["accepted"], serde_json::json!(true));
            charge += 1;
        }
        // The village's FOO is one of the British player's die takers, his guns refused until a target is active.
        let mut app = british_commanding(seed);
        let choice = hotseat_choice(app.world_mut(), Some("foo_181_fd")).unwrap();
        assert!(choice.elements.iter().any(|e| e.id == "foo_181_fd"));
        for offer in &choice.offers {
            let Command::Die { action, .. } = &offer.command else { panic!("{offer:?}") };
            match action {
                DieAction::Foo => assert_eq!(offer.refused, None, "{offer:?}"),
                DieAction::Battery => assert!(offer.refused.as_deref().is_some_and(|r| r.contains("Artillery"))),
                other => panic!("a FOO offered {other:?}"),
            }
            foo += 1;
        }
    }
    assert!(charge > 0 && foo > 0, "charges {charge}, FOO offers {foo}");
}

/// HA "Overwatch": "a player may allocate a '4' Command Die to an element to
/// place it onto (or remove it from) an Overwatch position"; the hotseat
/// offers it, a second "onto" is refused, and on Overwatch the element's
/// observers gain as the order's Overwatch does.
#[test]
fn a_four_puts_an_element_onto_overwatch_and_takes_it_off() {
    let mut seen = 0;
    for seed in 0..20 {
        let mut app = german_commanding(seed);
        let h = hotseat(&app);
        let fours: Vec<usize> = (0..h.dice.len()).filter(|&d| matches!(h.dice.face(d), Some(4 | 6))).collect();
        if fours.len() < 2 || h.halted.contains("wache") {
            continue;
        }
        let on_overwatch = |app: &App| elements(app).into_iter().find(|f| f.id() == "wache").unwrap().order.overwatch;
        assert!(!on_overwatch(&app));
        let offered = warbound_battle::hotseat::hotseat_choice(app.world_mut(), Some("wache")).unwrap();
        let onto = offered
            .offers
            .iter()
            .find(|o| matches!(&o.command, Command::Die { action: DieAction::Overwatch { on: true }, .. }))
            .expect("a 4 offers Overwatch");
        assert_eq!(onto.refused, None, "{}", onto.label);
        let give = |die: usize, on: bool| Command::Die {
            element: "wache".into(),
            die,
            action: DieAction::Overwatch { on },
            sixes: vec![],
        };
        play::command(&mut app, give(fours[0], true)).unwrap();
        if hotseat(&app).halted.contains("wache") {
            continue; // its morale throw stopped it
        }
        assert!(on_overwatch(&app), "seed {seed}: {:?}", last_event(&app));
        let e = last_event(&app);
        assert_eq!((e.kind, e.rule.section.as_str()), (EventKind::CommandDice, "Overwatch"));
        let h = hotseat(&app);
        let next = (0..h.dice.len()).find(|&d| matches!(h.dice.face(d), Some(4 | 6))).expect("the second 4");
        play::command(&mut app, give(next, true)).unwrap();
        assert_eq!(last_event(&app).outcome["accepted"], serde_json::json!(false), "already on Overwatch");
        play::command(&mut app, give(next, false)).unwrap();
        assert!(!on_overwatch(&app), "taken off again");
        seen += 1;
    }
    assert!(seen > 0, "no seed threw two 4s for the guard");
}
