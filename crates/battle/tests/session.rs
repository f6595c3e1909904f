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
    setup::{BattleResult, BattleStart, Continuation, Decision, Fate, Joining, PieceResult, PieceState},
    shipped,
    state::{Battle, elements},
};
use warbound_rules::{
    codex::{Codex, Kind},
    command::Activity,
    event::EventKind,
    scenario::{CompanySpec, Concealment, Edge, Order, PieceSpec, Start},
};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

/// The village on a seed that runs to its time limit of 12 bounds.
fn village(pause_every: Option<u32>) -> BattleStart {
    village_on(2, pause_every)
}

fn village_on(seed: u64, pause_every: Option<u32>) -> BattleStart {
    let mut start = BattleStart::auto("village", shipped::battle("village", &codex()).unwrap(), seed);
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
    // FYOW 25.8 "no flying" in fog: the Typhoons (window bounds 3 to 6) fly
    // in bounds 5 and 6 of the unbroken battle, not after the fog comes down.
    let (whole, _) = play::autoplay(village(None), BattleLog::default(), codex()).unwrap();
    let flying = |app: &App| {
        let log = app.world().resource::<BattleLog>();
        log.entries.iter().filter(|e| e.bound > 4 && e.event.actor.as_deref() == Some("typhoons")).count()
    };
    assert!(flying(&whole) > 0);
    assert_eq!(flying(&app), 0);
}

/// The village's first British company again, as a fresh company joining:
/// ids prefixed with `d_`, ordered into Cheux, from its own box at `edge`.
fn joining_company(edge: Option<Edge>) -> CompanySpec {
    let mut company = shipped::battle("village", &codex()).unwrap().sides[0].companies[0].clone();
    company.id = format!("d_{}", company.id);
    company.attached_to = format!("d_{}", company.attached_to);
    company.objective =
        Some(Order { activity: Activity::ContactEnemy, location: "Cheux".into(), detail: String::new() });
    company.edge = edge;
    for e in &mut company.elements {
        e.id = format!("d_{}", e.id);
        e.order = None;
    }
    company
}

/// The Arrival events logged for `id`: (bound, edge, where).
fn arrivals(app: &App, id: &str) -> Vec<(u32, String, f64)> {
    let log = app.world().resource::<BattleLog>();
    log.entries
        .iter()
        .filter(|e| e.event.kind == EventKind::Arrival && e.event.actor.as_deref() == Some(id))
        .map(|e| {
            let input = |name: &str| e.event.inputs.iter().find(|i| i.name == name).unwrap().value.clone();
            let x = input("at")[0].as_f64().unwrap();
            (e.bound, input("edge").as_str().unwrap().to_owned(), x)
        })
        .collect()
}

#[test]
fn a_company_joining_after_two_bounds_comes_on_from_its_own_box_and_replays() {
    let (mut app, _) = play::autoplay(village_on(1, Some(4)), BattleLog::default(), codex()).unwrap();
    let company = joining_company(Some(Edge::Left));
    let ids: Vec<String> = company.elements.iter().map(|e| e.id.clone()).collect();
    let fielded: Vec<usize> = company.elements.iter().map(|e| e.pieces.len()).collect();
    let joining = vec![Joining { side: 0, company, after_bounds: 2 }];
    let result = play::resume(&mut app, Continuation { joining, weather: None }).unwrap();
    assert_eq!((result.decided_by, result.bounds_played), (Decision::Paused, 8));
    // FYOW 15.7: "ready to join the battle after the next 2 tabletop bounds":
    // bounds 5 and 6 pass, it comes on in bound 7, at the left edge (x = 1").
    for (id, fielded) in ids.iter().zip(fielded) {
        assert_eq!(arrivals(&app, id), vec![(7, "left".to_owned(), 1.0)], "{id}");
        let r = result.elements.iter().find(|r| &r.id == id).unwrap_or_else(|| panic!("{id} is in the result"));
        assert_eq!((r.side, r.company.as_str()), (0, "d_c_coy"));
        assert_eq!(r.pieces.len(), fielded, "{id}: every piece it fielded");
    }
    // FYOB "Strategic Conditions": the CMT is the CMS of the elements on the
    // table; the joiners count in it from their arrival, the start unchanged.
    let side = &result.sides[0];
    let on_table: u32 =
        result.elements.iter().filter(|r| r.side == 0 && r.fate == Fate::OnTable).map(|r| u32::from(r.cms)).sum();
    assert_eq!(side.cmt, on_table);
    let joined_on_table = result.elements.iter().filter(|r| ids.contains(&r.id) && r.fate == Fate::OnTable).count();
    assert!(joined_on_table > 0, "the joiners are on the table at the pause");
    let (_, unbroken) = play::autoplay(village_on(1, None), BattleLog::default(), codex()).unwrap();
    assert_eq!(side.cmt_start, unbroken.sides[0].cmt_start, "the milestones stay those of the start");

    let saved = save::snapshot(app.world()).unwrap();
    let replayed = save::resume(&saved, codex()).unwrap();
    assert_eq!(log_of(&replayed), log_of(&app), "the joiners replay from the start value");
}

#[test]
fn a_joining_company_with_an_id_the_battle_has_is_refused_and_nothing_changes() {
    let (mut app, _) = play::autoplay(village(Some(4)), BattleLog::default(), codex()).unwrap();
    let before = log_of(&app);
    let mut company = joining_company(None);
    company.elements[1].id = "14_platoon".into();
    let joining = vec![Joining { side: 0, company, after_bounds: 0 }];
    let err = play::resume(&mut app, Continuation { joining, weather: None }).unwrap_err();
    assert!(err.contains("14_platoon") && err.contains("already"), "{err}");
    assert!(play::is_paused(app.world()));
    assert!(app.world().resource::<Battle>().start.continuations.is_empty());
    assert_eq!(log_of(&app), before);
    let stranger = vec![Joining { side: 5, company: joining_company(None), after_bounds: 0 }];
    assert!(play::resume(&mut app, Continuation { joining: stranger, weather: None }).is_err());
    // Kit the CODEX has, but not in service in the side's year (1944).
    let mut company = joining_company(None);
    company.elements[0].pieces.push(PieceSpec { codex: "gb_boys_atr".into(), crew: None, damaged: false });
    let joining = vec![Joining { side: 0, company, after_bounds: 0 }];
    let err = play::resume(&mut app, Continuation { joining, weather: None }).unwrap_err();
    assert!(err.contains("in service"), "{err}");
}

#[test]
fn a_company_with_its_own_box_comes_on_at_its_edge() {
    // FYOW 15.2: "opposing forces do not necessarily own 'boxes' opposite
    // each other": the British company's box is on the right.
    let mut scenario = shipped::battle("village", &codex()).unwrap();
    let company = &mut scenario.sides[0].companies[0];
    company.edge = Some(Edge::Right);
    let id = company.elements[2].id.clone();
    company.elements[2].start = Start::Box(2);
    let width = f64::from(scenario.table.width);
    let (app, _) = play::autoplay(BattleStart::auto("village", scenario, 2), BattleLog::default(), codex()).unwrap();
    assert_eq!(arrivals(&app, &id), vec![(2, "right".to_owned(), width - 1.0)]);
}

#[test]
fn an_element_concealed_on_the_map_board_starts_concealed_without_a_throw() {
    // FYOW 15.4: "each element throws a D10 and will be considered in
    // concealment on a score of 6+"; "The actual place of concealment is not
    // stated as this will be determined during any subsequent game". The
    // campaign has thrown: FYOB's 5+ is not thrown again at the start.
    let id = "zug_1_gruppe_2";
    let with = |how: Concealment, seed: u64| {
        let mut scenario = shipped::battle("village", &codex()).unwrap();
        let spec = scenario.sides[1].companies[0].elements.iter_mut().find(|e| e.id == id).unwrap();
        spec.concealed = Some(how);
        let at = match spec.start {
            Start::At(x, y) => (x, y),
            _ => unreachable!("it starts on the table"),
        };
        let app =
            play::battle_app(BattleStart::auto("village", scenario, seed), BattleLog::default(), codex()).unwrap();
        let thrown: Vec<(String, bool)> = app
            .world()
            .resource::<BattleLog>()
            .entries
            .iter()
            .filter(|e| e.event.kind == EventKind::Concealment && e.event.actor.as_deref() == Some(id))
            .map(|e| (e.event.rule.section.clone(), e.event.outcome["concealed"] == serde_json::json!(true)))
            .collect();
        let mut app = app;
        let els = elements(app.world_mut());
        let el = els.iter().find(|f| f.id() == id).unwrap();
        (thrown, el.concealment.concealed(), (el.place.at.0, el.place.at.1) == at)
    };
    let mut failed_the_throw = 0;
    for seed in 0..12 {
        let (thrown, concealed, in_place) = with(Concealment::OnMapBoard, seed);
        assert_eq!(thrown, vec![("15.4 Concealment on a Map Board".to_owned(), true)], "seed {seed}");
        assert!(concealed && in_place, "seed {seed}: concealed where it starts");
        let (thrown, concealed, _) = with(Concealment::InPlace, seed);
        assert_eq!(thrown.len(), 1);
        assert_eq!(thrown[0].0, "How to conceal an element");
        failed_the_throw += usize::from(!concealed);
    }
    assert!(failed_the_throw > 0, "FYOB's throw fails on some seed: the map board's does not");
}

#[test]
fn the_result_carries_each_elements_men_pieces_and_company_and_each_squadron() {
    let codex = codex();
    let mut pieces_seen = (0, 0, 0);
    for (name, scenario) in shipped::battles(&codex).unwrap() {
        for seed in 1..4 {
            let start = BattleStart::auto(&name, scenario.clone(), seed);
            let (_, result) = play::autoplay(start, BattleLog::default(), codex.clone()).unwrap();
            for r in &result.elements {
                let (company, spec) = scenario.sides[r.side]
                    .companies
                    .iter()
                    .find_map(|c| c.elements.iter().find(|e| e.id == r.id).map(|e| (c, e)))
                    .unwrap();
                assert_eq!(r.company, company.id, "{name} {}", r.id);
                let men: u32 = r.figures.iter().map(|f| u32::from(f.men)).sum::<u32>()
                    + r.pieces.iter().map(|p| u32::from(p.crew)).sum::<u32>();
                assert_eq!(men, r.men, "{name} seed {seed} {}: figures and crews are its men", r.id);
                assert!(r.figures.iter().all(|f| f.grade.is_some()), "every figure keeps its grade");
                let fielded: Vec<&str> = spec.pieces.iter().map(|p| p.codex.as_str()).collect();
                let reported: Vec<&str> = r.pieces.iter().map(|p| p.codex.as_str()).collect();
                assert_eq!(reported, fielded, "{name} {}: every piece it fielded", r.id);
                if matches!(r.fate, Fate::Destroyed | Fate::Surrendered) {
                    assert!(r.pieces.iter().all(|p| p.state == PieceState::Lost), "{name} {}", r.id);
                    continue;
                }
                let vehicles: Vec<&PieceResult> =
                    r.pieces.iter().filter(|p| codex.get(&p.codex).unwrap().kind != Kind::Weapon).collect();
                if !vehicles.is_empty() {
                    let running = vehicles.iter().any(|p| p.state != PieceState::Lost);
                    let damaged = vehicles.iter().any(|p| p.state == PieceState::Damaged);
                    assert_eq!(r.vehicles, u32::from(running), "{name} seed {seed} {}", r.id);
                    assert_eq!(r.vehicles_damaged, u32::from(damaged), "{name} seed {seed} {}", r.id);
                }
                for p in &r.pieces {
                    match p.state {
                        PieceState::Intact => pieces_seen.0 += 1,
                        PieceState::Damaged => pieces_seen.1 += 1,
                        PieceState::Lost => pieces_seen.2 += 1,
                    }
                }
            }
            let flown: Vec<&str> =
                scenario.sides.iter().flat_map(|s| s.aircraft.iter().map(|q| q.id.as_str())).collect();
            let reported: Vec<&str> = result.squadrons.iter().map(|q| q.id.as_str()).collect();
            assert_eq!(reported, flown, "{name}: every squadron");
            for q in &result.squadrons {
                let count = scenario.sides[q.side].aircraft.iter().find(|a| a.id == q.id).unwrap().count;
                assert!(q.machines_lost + q.damaged <= u32::from(count), "{name}: {q:?}");
            }
        }
    }
    assert!(pieces_seen.0 > 0 && pieces_seen.2 > 0, "pieces intact and lost are both seen: {pieces_seen:?}");
}

#[test]
fn a_result_saved_before_it_carried_pieces_still_loads() {
    let (_, result) = play::autoplay(village(None), BattleLog::default(), codex()).unwrap();
    let mut json = serde_json::to_value(&result).unwrap();
    json.as_object_mut().unwrap().remove("squadrons");
    for e in json["elements"].as_array_mut().unwrap() {
        for field in ["company", "figures", "pieces"] {
            e.as_object_mut().unwrap().remove(field);
        }
    }
    let old: BattleResult = serde_json::from_value(json).unwrap();
    assert!(old.squadrons.is_empty() && old.elements.iter().all(|e| e.pieces.is_empty() && e.company.is_empty()));
    assert_eq!(old.elements.len(), result.elements.len());
}

#[test]
fn every_shipped_battle_played_in_sessions_throws_the_dice_of_one_played_through() {
    for (name, scenario) in shipped::battles(&codex()).unwrap() {
        for seed in 1..6 {
            let whole = BattleStart::auto(&name, scenario.clone(), seed);
            let mut sessions = whole.clone();
            sessions.pause_every = Some(4);
            let (through, unbroken) = play::autoplay(whole, BattleLog::default(), codex()).unwrap();
            let (mut app, mut result) = play::autoplay(sessions, BattleLog::default(), codex()).unwrap();
            let mut pauses = 0;
            while result.decided_by == Decision::Paused {
                pauses += 1;
                assert_eq!(result.bounds_played, 4 * pauses, "{name} seed {seed}");
                result = play::resume(&mut app, Continuation::default()).unwrap();
            }
            assert_eq!(pauses, (unbroken.bounds_played - 1) / 4, "{name} seed {seed}: a pause every 4 bounds played");
            assert_eq!(settled(result), settled(unbroken), "{name} seed {seed}");
            assert_eq!(log_without_sessions(&app), log_of(&through), "{name} seed {seed}");
        }
    }
}
