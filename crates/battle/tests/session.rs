//! A campaign battle played in sessions (FYOW "The role of the \"Umpire\"":
//! "After 4 bounds of tabletop action, the player is directed back to the
//! campaign map"): it pauses after each session's bounds, goes on with the
//! campaign's continuation, and replays from its start value alone.

use std::sync::Arc;

use warbound_battle::{
    log::BattleLog,
    play,
    prelude::*,
    save,
    setup::{BattleResult, BattleStart, Continuation, Decision},
    shipped,
    state::Battle,
};
use warbound_rules::{codex::Codex, event::EventKind};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

/// The village on a seed that runs to its time limit of 12 bounds.
fn village(pause_every: Option<u32>) -> BattleStart {
    let mut start = BattleStart::auto("village", shipped::battle("village", &codex()).unwrap(), 2);
    start.pause_every = pause_every;
    start
}

/// The log as JSON lines, without the campaign sessions' events.
fn log_without_sessions(app: &App) -> String {
    let log = app.world().resource::<BattleLog>();
    log.entries.iter().filter(|e| e.event.kind != EventKind::Calendar).map(|e| e.event.to_json_line() + "\n").collect()
}

fn log_of(app: &App) -> String {
    app.world().resource::<BattleLog>().json_lines()
}

fn sessions(app: &App) -> usize {
    app.world().resource::<BattleLog>().entries.iter().filter(|e| e.event.kind == EventKind::Calendar).count()
}

/// The result less the bounds bookkeeping.
fn settled(mut r: BattleResult) -> BattleResult {
    r.bounds_played = 0;
    r
}

#[test]
fn a_session_battle_pauses_after_four_bounds_and_plays_on_as_one_unbroken() {
    let (whole, unbroken) = play::autoplay(village(None), BattleLog::default(), codex()).unwrap();
    assert_eq!(unbroken.decided_by, Decision::TimeLimit, "the seed plays the village to its time limit");
    assert_eq!(sessions(&whole), 0, "a battle not played in sessions logs none");

    let (mut app, paused) = play::autoplay(village(Some(4)), BattleLog::default(), codex()).unwrap();
    assert_eq!(paused.decided_by, Decision::Paused);
    assert_eq!(paused.winner, None);
    assert_eq!(paused.bounds_played, 4, "FYOW: after 4 bounds of tabletop action");
    assert_eq!(paused.elements.len(), unbroken.elements.len(), "every element is in the paused result");
    assert!(play::is_paused(app.world()));
    assert_eq!(app.world().resource::<Battle>().clock.bound(), 4);

    let second = play::resume(&mut app, Continuation::default()).unwrap();
    assert_eq!((second.decided_by, second.bounds_played), (Decision::Paused, 8));
    let last = play::resume(&mut app, Continuation::default()).unwrap();
    assert_eq!(settled(last), settled(unbroken.clone()), "the same battle to its end");
    assert_eq!(log_without_sessions(&app), log_of(&whole), "the same dice, event for event");
    // Two pauses, each logged, and each continuation logged.
    assert_eq!(sessions(&app), 4);
    assert!(play::resume(&mut app, Continuation::default()).is_err(), "an ended battle does not go on");

    // A replay from the start value holding the continuations is the live battle.
    let saved = save::snapshot(app.world()).unwrap();
    assert_eq!(saved.start.continuations.len(), 2);
    let replayed = save::resume(&saved, codex()).unwrap();
    assert_eq!(log_of(&replayed), log_of(&app));
    assert_eq!(replayed.world().resource::<Battle>().result, app.world().resource::<Battle>().result);
}

#[test]
fn a_sessions_weather_holds_from_the_next_bound() {
    let (mut app, _) = play::autoplay(village(Some(4)), BattleLog::default(), codex()).unwrap();
    let before = app.world().resource::<Battle>().weather;
    let mut weather = before;
    weather.rain_snow_gauge = Some(8);
    weather.fog = true;
    let c = Continuation { joining: Vec::new(), weather: Some(weather) };
    play::resume(&mut app, c).unwrap();
    assert_eq!(app.world().resource::<Battle>().weather, weather);
    assert_ne!(before, weather);
    assert_eq!(app.world().resource::<Battle>().start.scenario.weather, before, "the scenario is as it was given");
}
