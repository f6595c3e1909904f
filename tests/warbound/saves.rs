//! Named saves, loading and undo: a battle played by commands, then taken
//! back, saved under a name, listed and loaded again.

use std::path::PathBuf;

use bevy::prelude::*;
use warbound::{
    app::headless_app,
    battle::{
        self, Resume, StartBattle,
        command::Command,
        log::BattleLog,
        play, save,
        setup::{BattleStart, Control},
        state::{Battle, BattleDice, ElementBundle, Flow, Sides, elements},
    },
    data,
};
use warbound_rules::terrain::Point;

/// Everything a decision point is: the elements, the dice thrown, the log,
/// the commands given.
#[derive(Debug, Clone, PartialEq)]
struct Moment {
    elements: Vec<ElementBundle>,
    thrown: u64,
    log: String,
    commands: Vec<Command>,
    bound: u32,
}

fn moment(app: &mut App) -> Moment {
    let world = app.world_mut();
    let elements = elements(world);
    Moment {
        elements,
        thrown: world.resource::<BattleDice>().0.thrown(),
        log: world.resource::<BattleLog>().json_lines(),
        commands: play::commands(world),
        bound: world.resource::<Battle>().clock.bound(),
    }
}

fn player_start(seed: u64) -> BattleStart {
    let mut start = BattleStart::auto("patrol", data::load_scenario("patrol").unwrap().scenario, seed);
    start.control = vec![Control::Player, Control::Auto];
    start
}

/// The Player's next command: officers change nothing, each element marches
/// on the crossroads as far as its dice allow, then ends its turn.
fn next_command(app: &mut App) -> Command {
    let flow = app.world().resource::<Flow>().clone();
    match flow {
        Flow::CoTurn { side, company, .. } => {
            let id = app.world().resource::<Sides>().0[side].companies[company].id.clone();
            Command::Command { company: id, orders: vec![], rally: vec![] }
        }
        Flow::Session { side } => Command::Session { side, commit: vec![], objectives: vec![], withdraw: false },
        Flow::Seize { element } => Command::Seize { element, swap_with: None },
        Flow::Acting(turn) => {
            let me = turn.element.clone();
            if let Some(p) = turn.pending_move {
                let world = app.world_mut();
                let from = elements(world).into_iter().find(|f| f.id() == me).unwrap().place.at;
                let to = warbound_rules::geometry::distance(from, Point(p.to.0, p.to.1));
                let k = if to > 0.0 { (p.allowance / to.get()).min(1.0) } else { 0.0 };
                Command::MoveTo { element: me, to: (from.0 + (p.to.0 - from.0) * k, from.1 + (p.to.1 - from.1) * k) }
            } else if turn.taken.is_empty() {
                Command::Move { element: me, to: (36.0, 30.0), pace: Default::default() }
            } else {
                Command::EndTurn { element: me }
            }
        }
        other => panic!("not waiting for the player: {other:?}"),
    }
}

/// Runs updates until a save being replayed is replayed whole and the flow
/// waits for the Player (or the battle is over).
fn settle(app: &mut App) {
    for _ in 0..100_000 {
        let world = app.world();
        if !battle::replaying(world) && (play::waiting_for_player(world) || play::is_over(world)) {
            return;
        }
        app.update();
    }
    panic!("the battle did not settle");
}

/// Plays `count` commands from `start`, noting the moment at every decision
/// (the first before any command).
fn played(start: BattleStart, count: usize) -> (App, Vec<Moment>) {
    let mut app = battle::battle_app(start, BattleLog::default()).unwrap();
    play::advance(&mut app).unwrap();
    let mut moments = vec![moment(&mut app)];
    while moments.len() <= count && !play::is_over(app.world()) {
        let cmd = next_command(&mut app);
        play::command(&mut app, cmd).unwrap();
        moments.push(moment(&mut app));
    }
    assert_eq!(moments.len(), count + 1, "the battle lasted for {count} commands");
    (app, moments)
}

fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warbound-it-saves-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn undo_replays_to_the_decision_before_the_last_command_and_the_dice_stay_as_thrown() {
    let n = 14;
    let (mut app, moments) = played(player_start(3), n);
    let last = moments[n].clone();
    assert!(
        last.thrown > moments[n - 1].thrown || last.elements != moments[n - 1].elements,
        "the last command did something"
    );
    assert!(moments.iter().any(|m| m.bound > 1), "the battle went past its first bound");

    assert_eq!(battle::can_undo(app.world()), Ok(()));
    assert!(battle::undo(app.world_mut()).unwrap(), "a command was taken back");
    // No undo into the middle of the replay.
    assert!(battle::replaying(app.world()));
    assert_eq!(battle::can_undo(app.world()), Err("The battle is still being replayed."));
    assert!(!battle::undo(app.world_mut()).unwrap());
    settle(&mut app);
    let undone = moment(&mut app);
    // The state, the dice thrown and the log are those after n - 1 commands.
    assert_eq!(undone.commands, last.commands[..n - 1]);
    assert_eq!(undone.elements, moments[n - 1].elements);
    assert_eq!(undone.thrown, moments[n - 1].thrown, "the dice thrown to that decision, no more");
    assert_eq!(undone.bound, moments[n - 1].bound);
    assert_eq!(undone.log, moments[n - 1].log, "the same throws, event for event");

    // The same command again meets the same dice: the battle comes back as it was.
    let again = last.commands[n - 1].clone();
    play::command(&mut app, again).unwrap();
    assert_eq!(moment(&mut app), last, "the die stays as thrown");

    // Twice, and the headless undo of the save gives the same battle.
    assert!(battle::undo(app.world_mut()).unwrap());
    settle(&mut app);
    assert!(battle::undo(app.world_mut()).unwrap());
    settle(&mut app);
    assert_eq!(moment(&mut app), moments[n - 2]);
    let full = save::Save { commands: last.commands.clone(), ..save::snapshot(app.world()).unwrap() };
    let headless = save::undo(&save::undo(&full).unwrap()).unwrap();
    let mut resumed = save::resume(&headless, data::shared_codex().unwrap()).unwrap();
    assert_eq!(moment(&mut resumed), moments[n - 2]);
}

#[test]
fn undo_with_no_command_given_does_nothing() {
    let (mut app, moments) = played(player_start(5), 0);
    assert_eq!(battle::can_undo(app.world()), Err("You have given no command to take back."));
    assert!(!battle::undo(app.world_mut()).unwrap());
    assert_eq!(moment(&mut app), moments[0]);
}

#[test]
fn a_named_save_lists_and_loads_back_the_same_battle_in_place_and_from_the_title() {
    let dir = folder("named");
    let (mut original, _) = played(player_start(9), 10);
    let saved = save::snapshot(original.world()).unwrap();
    let path = save::write_named(&dir, "Patrol: the lane/1", &saved).unwrap();
    assert_eq!(path, dir.join("Patrol_ the lane_1.ron"));
    let listed = save::list(&dir, data::codex().unwrap());
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].name, "Patrol_ the lane_1");
    let loaded = listed[0].save.clone().expect("the save reads back");
    assert_eq!(loaded, saved);
    let want = moment(&mut original);

    // In battle: another battle on the table is replaced by the save's.
    let (mut other, _) = played(player_start(1), 4);
    battle::restart(other.world_mut(), loaded.clone()).unwrap();
    settle(&mut other);
    assert_eq!(moment(&mut other), want, "loaded in place");

    // From the title, through the battle screen's Resume (as Continue does).
    let mut title = headless_app(None);
    title.update();
    title.world_mut().insert_resource(Resume(Some(loaded.clone())));
    let scenario =
        data::LoadedScenario { source: loaded.start.source.clone(), scenario: loaded.start.scenario.clone() };
    title.world_mut().write_message(StartBattle(scenario));
    for _ in 0..3 {
        title.update();
    }
    settle(&mut title);
    assert_eq!(moment(&mut title), want, "loaded from the title");
}

#[test]
fn a_corrupt_save_is_listed_with_its_error_and_the_others_still_load() {
    let dir = folder("corrupt");
    let (original, _) = played(player_start(2), 3);
    let good = save::snapshot(original.world()).unwrap();
    save::write_named(&dir, "good", &good).unwrap();
    std::fs::write(dir.join("corrupt.ron"), "(\n  build: \"x\",\n  start: (source: 3),\n)").unwrap();
    std::fs::write(dir.join("empty.ron"), "").unwrap();
    // A scenario that names a weapon the Codex does not have.
    let mut bad = good.clone();
    bad.start.scenario.sides[0].companies[0].elements[0].pieces[0].codex = "no_such_rifle".into();
    save::write_named(&dir, "unknown weapon", &bad).unwrap();
    let listed = save::list(&dir, data::codex().unwrap());
    assert_eq!(listed.len(), 4, "{listed:?}");
    let by = |name: &str| listed.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("{name} listed"));
    assert_eq!(by("good").save.as_ref().unwrap(), &good);
    let corrupt = by("corrupt").save.as_ref().unwrap_err();
    assert!(corrupt.contains("corrupt.ron:3:"), "file:line: {corrupt}");
    assert!(by("empty").save.as_ref().unwrap_err().contains("empty.ron"));
    let unknown = by("unknown weapon").save.as_ref().unwrap_err();
    assert!(unknown.contains("unknown weapon.ron") && unknown.contains("no_such_rifle"), "{unknown}");
    assert!(save::resume(by("good").save.as_ref().unwrap(), data::shared_codex().unwrap()).is_ok());
}

#[test]
fn the_undo_key_at_the_table_takes_back_the_last_command_and_the_pace_comes_back() {
    use warbound::{
        app::{FullAppOptions, full_app},
        battle::FlowPace,
        settings::Settings,
    };
    let mut app = full_app(FullAppOptions {
        settings: Settings::default(),
        screenshot: None,
        bench: None,
        scenario: Some(data::load_scenario("patrol").unwrap()),
        windowed: false,
    });
    app.insert_resource(FlowPace(40));
    settle(&mut app);
    let mut moments = vec![moment(&mut app)];
    for _ in 0..3 {
        let cmd = next_command(&mut app);
        app.world_mut().resource_mut::<battle::command::Inbox>().0.push_back(cmd);
        app.update();
        settle(&mut app);
        moments.push(moment(&mut app));
    }
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(KeyCode::Backspace);
    app.update();
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().release(KeyCode::Backspace);
    app.update();
    settle(&mut app);
    app.update();
    assert_eq!(moment(&mut app), moments[2], "Backspace took the last command back");
    assert_eq!(*app.world().resource::<FlowPace>(), FlowPace(40), "the table's pace after the replay");
}
