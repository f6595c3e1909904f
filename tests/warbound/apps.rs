//! The apps build and run headless: every plugin, a few `update()` calls.

use bevy::prelude::*;
use warbound::{
    app::{FullAppOptions, full_app, headless_app},
    battle::{ActiveBattle, StartBattle},
    data,
    settings::Settings,
    states::{AppState, Menu},
    view::{ElementModel, OrbitCamera, TableRoot, TerrainPiece},
};
use warbound_rules::scenario::Start;

fn patrol() -> data::LoadedScenario {
    data::load_scenario("patrol").expect("built-in patrol scenario")
}

#[test]
fn headless_app_starts_on_the_title_and_enters_a_battle_on_request() {
    let mut app = headless_app(None);
    app.update();
    assert_eq!(*app.world().resource::<State<AppState>>().get(), AppState::Title);
    app.world_mut().write_message(StartBattle(patrol()));
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<AppState>>().get(), AppState::Battle);
    let active = app.world().resource::<ActiveBattle>();
    assert_eq!(active.0.as_ref().unwrap().scenario.name, patrol().scenario.name);
}

#[test]
fn headless_app_with_a_scenario_starts_in_battle_and_leaving_clears_it() {
    let mut app = headless_app(Some(patrol()));
    app.update();
    assert_eq!(*app.world().resource::<State<AppState>>().get(), AppState::Battle);
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::Title);
    app.update();
    assert!(app.world().resource::<ActiveBattle>().0.is_none());
    assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::Closed);
}

#[test]
fn full_app_builds_every_plugin_and_runs_without_a_window() {
    let mut app = full_app(FullAppOptions {
        settings: Settings::default(),
        screenshot: None,
        bench: None,
        scenario: Some(patrol()),
        windowed: false,
    });
    for _ in 0..3 {
        app.update();
    }
    let world = app.world_mut();
    assert_eq!(*world.resource::<State<AppState>>().get(), AppState::Battle);
    let tables: Vec<_> = world.query::<&TableRoot>().iter(world).map(|t| t.0).collect();
    assert_eq!(tables, vec![patrol().scenario.table], "one table, of the scenario's size");
    let cams: Vec<_> = world.query::<&OrbitCamera>().iter(world).copied().collect();
    assert_eq!(cams.len(), 1);
    assert_eq!(cams[0].bounds, Vec2::new(36.0, 24.0), "camera framed on the table");
    // Every feature of the patrol's terrain is on the table, the woods with their trees.
    let features = patrol().scenario.terrain.features.len();
    let pieces = world.query::<&TerrainPiece>().iter(world).count();
    assert!(pieces > features * 2, "{pieces} terrain pieces for {features} features");
    // The player's elements that start on the table stand there; the enemy's are hidden.
    let scenario = patrol().scenario;
    let on_table = |side: usize| {
        scenario.sides[side]
            .companies
            .iter()
            .flat_map(|c| &c.elements)
            .filter(|e| matches!(e.start, Start::At(..)))
            .count()
    };
    // Every element has its model; the person at the screen commands the first
    // side and sees its elements on the table, not the enemy's he has not observed.
    let models: Vec<(String, Visibility)> =
        world.query::<(&ElementModel, &Visibility)>().iter(world).map(|(m, v)| (m.0.clone(), *v)).collect();
    let all: usize = scenario.sides.iter().map(|s| s.companies.iter().map(|c| c.elements.len()).sum::<usize>()).sum();
    assert_eq!(models.len(), all);
    let shown: Vec<&String> = models.iter().filter(|(_, v)| *v != Visibility::Hidden).map(|(id, _)| id).collect();
    assert_eq!(shown.len(), on_table(0), "{shown:?}");
    let enemy: Vec<&str> =
        scenario.sides[1].companies.iter().flat_map(|c| &c.elements).map(|e| e.id.as_str()).collect();
    assert!(shown.iter().all(|id| !enemy.contains(&id.as_str())), "no enemy shown before he is observed");
    assert!(on_table(1) > 0, "the patrol has enemies on the table, not drawn");
    // The battle is under way and waits for the player's first decision or plays the Auto side's.
    assert!(world.contains_resource::<warbound::battle::state::Battle>(), "the battle flow has started");
}

#[test]
fn a_battle_started_from_the_title_is_laid_with_its_terrain_and_leaving_clears_the_table() {
    let mut app = full_app(FullAppOptions {
        settings: Settings::default(),
        screenshot: None,
        bench: None,
        scenario: None,
        windowed: false,
    });
    for _ in 0..3 {
        app.update();
    }
    let count = |app: &mut App| {
        let world = app.world_mut();
        let pieces = world.query::<&TerrainPiece>().iter(world).count();
        let models = world.query::<&ElementModel>().iter(world).count();
        (pieces, models)
    };
    assert_eq!(count(&mut app), (0, 0), "the title's table is bare");
    // The title's table and the patrol's are the same size: the battle still gets its terrain.
    assert_eq!(patrol().scenario.table, Default::default());
    app.world_mut().write_message(StartBattle(patrol()));
    for _ in 0..4 {
        app.update();
    }
    let (pieces, models) = count(&mut app);
    assert!(pieces > patrol().scenario.terrain.features.len(), "{pieces} terrain pieces");
    assert!(models > 0);
    // Back to the title: the battle's terrain and miniatures go with it.
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::Title);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(count(&mut app), (0, 0));
    let world = app.world_mut();
    assert_eq!(world.query::<&TableRoot>().iter(world).count(), 1, "one table");
}

/// The full app on the title with the shipped campaign begun, the player
/// commanding its first army, the campaign saved to `autosave`.
fn campaign_app(autosave: Option<std::path::PathBuf>) -> App {
    let mut app = full_app(FullAppOptions {
        settings: Settings::default(),
        screenshot: None,
        bench: None,
        scenario: None,
        windowed: false,
    });
    app.insert_resource(warbound::battle::FlowPace(100_000));
    app.insert_resource(warbound::war::CampaignAutosave(autosave));
    app.update();
    let (source, file) = data::load_campaign("guernsey-1942").expect("the shipped campaign");
    let player = file.armies[0].side;
    app.world_mut().write_message(warbound::war::StartCampaign { source, file, seed: 42, player });
    for _ in 0..3 {
        app.update();
    }
    app
}

fn screen(app: &App) -> AppState {
    *app.world().resource::<State<AppState>>().get()
}

/// Runs updates until `done` or `most` updates; returns whether it came.
fn until(app: &mut App, most: u32, done: impl Fn(&App) -> bool) -> bool {
    for _ in 0..most {
        if done(app) {
            return true;
        }
        app.update();
    }
    done(app)
}

fn war(app: &App) -> &warbound::war::ActiveWar {
    app.world().non_send::<warbound::war::ActiveWar>()
}

/// Sessions, at most twelve, until a battle waits for the player's choice.
fn advance_until_due(app: &mut App) {
    for _ in 0..12 {
        if war(app).due().is_some() {
            break;
        }
        app.world_mut().write_message(warbound::war::AdvanceCampaign { to_day_end: false });
        until(app, 5, |a| war(a).due().is_some());
    }
}

#[test]
fn the_players_orders_carry_an_if_and_a_bad_one_is_refused_with_the_rule() {
    use warbound_campaign::army::orders::{Condition, OrderKind};
    use warbound_campaign::play::composite::IfOrder;
    let mut app = campaign_app(None);
    let player = war(&app).player;
    let force = war(&app).campaign().forces.iter().find(|f| f.side == player).unwrap().name.clone();
    let composite = |then| IfOrder {
        with: (OrderKind::StandBy, None),
        sessions: 1,
        condition: Condition::Attacked,
        then,
        otherwise: None,
    };
    let give = |order, then| warbound::war::GiveOrders {
        force: force.clone(),
        order,
        objective: None,
        composite: Some(composite(then)),
    };
    app.world_mut().write_message(give(OrderKind::Defend, (OrderKind::Rest, None)));
    app.update();
    let w = war(&app);
    let written = &w.campaign().composite[&force].order;
    assert_eq!(written.with, (OrderKind::Defend, None), "written with the orders it came with");
    assert_eq!(w.campaign().player_orders[&force].0, OrderKind::Defend);
    let said = w.orders_said.clone().unwrap();
    assert!(said.contains("then if it has been attacked, Rest"), "{said}");
    // A Move that names no board is refused, and the "if" before it stands.
    app.world_mut().write_message(give(OrderKind::StandBy, (OrderKind::Move, None)));
    app.update();
    let w = war(&app);
    assert!(w.orders_said.as_ref().unwrap().contains("10.5"), "{:?}", w.orders_said);
    assert_eq!(w.campaign().composite[&force].order.then.0, OrderKind::Rest);
}

#[test]
fn a_campaign_opens_on_its_map_and_a_session_plays_and_is_saved() {
    let dir = std::env::temp_dir().join(format!("warbound-campaign-screen-{}", std::process::id()));
    let save = dir.join("campaign-autosave.ron");
    let mut app = campaign_app(Some(save.clone()));
    assert_eq!(screen(&app), AppState::Campaign);
    let boards = war(&app).campaign().file.map.boards.len();
    let places = app.world().resource::<warbound::view::MapPlaces>().clone();
    assert_eq!(places.boards.len(), boards, "a tile for every Map Board");
    assert!(places.links.len() >= boards, "the links between them");
    let world = app.world_mut();
    let tables: Vec<Visibility> = world.query_filtered::<&Visibility, With<TableRoot>>().iter(world).copied().collect();
    assert!(tables.iter().all(|v| *v == Visibility::Hidden), "the table is away while the map shows");
    let date = war(&app).campaign().date;
    app.world_mut().write_message(warbound::war::AdvanceCampaign { to_day_end: false });
    assert!(until(&mut app, 20, |a| war(a).campaign().date != date || war(a).due().is_some()));
    // The session's events are in the log as sentences, and the campaign was saved.
    assert!(war(&app).log.iter().any(|(_, l)| l.contains("FYOW")), "{:?}", war(&app).log.last());
    assert!(war(&app).log.iter().all(|(_, l)| !l.contains("\":")), "no JSON in the log");
    if war(&app).due().is_none() {
        let saved = warbound_war::save::read(&save).expect("the autosave reads");
        assert_eq!(saved.progress.campaign.date, war(&app).campaign().date);
        assert_eq!(saved.progress.player, Some(war(&app).player));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_battle_due_goes_to_the_table_for_a_session_and_back_to_the_map() {
    use warbound::war::{ChooseFight, Fight, Step};
    let mut app = campaign_app(None);
    // Sessions until a battle waits for the player's choice.
    advance_until_due(&mut app);
    let (a, d) = war(&app).due().cloned().expect("a battle within two days");
    assert!(war(&app).choices().contains(&Fight::Watch), "{:?}", war(&app).choices());
    app.world_mut().write_message(ChooseFight(Fight::Watch));
    assert!(until(&mut app, 10, |a| screen(a) == AppState::Battle), "onto the table");
    assert!(app.world().contains_resource::<warbound::battle::CampaignBattle>());
    // The camera flies down before the battle plays, then four bounds, then back to the map.
    assert!(until(&mut app, 200_000, |a| screen(a) == AppState::Campaign), "back to the map");
    let w = war(&app);
    let k = w.campaign().battle_of(&a, &d);
    let sessions = k.map(|k| w.campaign().battles[k].combat_sessions);
    assert!(sessions == Some(1) || k.is_none(), "one Combat Session fought on the table: {sessions:?}");
    if k.is_some() {
        // The battle waits on the table, kept for its next session, and can only go on there.
        assert!(app.world().contains_resource::<warbound::battle::state::Battle>());
        assert!(!matches!(w.step, Step::Table(_)));
    }
    assert!(w.log.iter().any(|(_, l)| l.contains("15.6 Engagements on Map Boards")), "the hand-off is logged");
}

#[test]
fn a_battle_resolved_on_paper_is_shown_step_by_step_with_the_crt() {
    use warbound::war::{ChooseFight, Fight};
    let mut app = campaign_app(None);
    // Every battle on paper, until one has reached its Combat Results Table.
    for _ in 0..40 {
        if war(&app).report.as_ref().is_some_and(|(_, s)| s.iter().any(|e| e.rule.section.contains("Combat Results"))) {
            break;
        }
        app.world_mut().write_message(warbound::war::CloseReport);
        if war(&app).due().is_some() {
            app.world_mut().write_message(ChooseFight(Fight::Paper));
        } else {
            app.world_mut().write_message(warbound::war::AdvanceCampaign { to_day_end: false });
        }
        app.update();
        app.update();
    }
    let (title, steps) = war(&app).report.clone().expect("a paper battle's report");
    assert!(title.contains("on paper"), "{title}");
    let crt = steps.iter().find(|e| e.rule.section.contains("Combat Results Table")).expect("the CRT step");
    for wanted in ["column", "differential"] {
        assert!(crt.inputs.iter().any(|i| i.name.contains(wanted)), "{wanted} in {:?}", crt.inputs);
    }
    assert!(!crt.dice.is_empty(), "the die thrown on the CRT");
    assert!(screen(&app) == AppState::Campaign, "paper battles stay on the map");
    // Re-fought on the table from the same forces, weather and seed, beside the paper result.
    assert!(war(&app).before_paper.is_some(), "a paper battle the table could field");
    let date = war(&app).campaign().date;
    app.world_mut().write_message(warbound::war::Refight);
    app.update();
    match war(&app).refight.as_ref().expect("re-fought") {
        Ok(r) => assert!(r.bounds_played > 0 && r.sides.len() == 2, "{r:?}"),
        Err(e) => panic!("the re-fight failed: {e}"),
    }
    assert_eq!(war(&app).campaign().date, date, "the campaign goes on with the paper result");
}

#[test]
fn a_battle_the_player_commands_stays_his_and_its_commands_go_into_the_campaign_save() {
    use warbound::war::{ChooseFight, Fight};
    let dir = std::env::temp_dir().join(format!("warbound-campaign-commanded-{}", std::process::id()));
    let path = dir.join("campaign-autosave.ron");
    let mut app = campaign_app(Some(path.clone()));
    advance_until_due(&mut app);
    let (a, d) = war(&app).due().cloned().expect("a battle within two days");
    let mine = |app: &App| {
        let c = war(app).campaign();
        [&a, &d].iter().any(|n| c.force(n).is_some_and(|f| f.side == war(app).player))
    };
    assert!(mine(&app), "the player's army fights every battle of this landing");
    app.world_mut().write_message(ChooseFight(Fight::Command));
    assert!(until(&mut app, 10, |a| screen(a) == AppState::Battle));
    {
        let world = app.world_mut();
        let sides = world.resource::<warbound::battle::state::Sides>();
        assert!(sides.0.iter().any(|s| s.control == warbound::battle::setup::Control::Player), "he commands a side");
        // Here the program stands in for him, so the session plays through.
        world.resource_mut::<warbound::battle::state::Sides>().0.iter_mut().for_each(|s| {
            s.control = warbound::battle::setup::Control::Auto;
        });
    }
    assert!(until(&mut app, 200_000, |a| screen(a) == AppState::Campaign), "back to the map");
    let w = war(&app);
    if w.campaign().battle_of(&a, &d).is_some() {
        assert_eq!(w.commands.len(), 1, "the battle is his");
        // The session closes and the campaign is saved with the battle's commands.
        for _ in 0..20 {
            if war(&app).war.progress.sessions_today == 0 || war(&app).due().is_some() {
                break;
            }
            app.update();
        }
        if war(&app).due().is_none() {
            let saved = warbound_war::save::read(&path).expect("the autosave reads");
            assert_eq!(saved.commands.keys().collect::<Vec<_>>(), war(&app).commands.keys().collect::<Vec<_>>());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_campaign_goes_from_its_first_battle_to_its_second_and_a_named_save_resumes_it() {
    use warbound::war::{ChooseFight, Fight, ResumeCampaign};
    let mut app = campaign_app(None);
    // The first battle on paper; sessions on until another battle is due.
    advance_until_due(&mut app);
    let first = war(&app).due().cloned().expect("a first battle");
    app.world_mut().write_message(ChooseFight(Fight::Paper));
    app.update();
    let mut second = None;
    let mut saved = None;
    for _ in 0..40 {
        if saved.is_none() && war(&app).step == warbound::war::Step::Map {
            // Saved by name between sessions, as the map's Save… does.
            saved = Some(war(&app).save());
        }
        app.world_mut().write_message(warbound::war::CloseReport);
        match war(&app).due().cloned() {
            Some(due) if due != first => {
                second = Some(due);
                break;
            }
            Some(_) => {
                app.world_mut().write_message(ChooseFight(Fight::Paper));
            }
            None => {
                app.world_mut().write_message(warbound::war::AdvanceCampaign { to_day_end: false });
            }
        }
        app.update();
        app.update();
    }
    let second = second.expect("a second battle within the first days");
    assert_ne!(second, first);
    let saved = saved.expect("a session closed between the battles");
    let text = ron::ser::to_string(&saved).unwrap();
    let back = warbound_war::save::parse("named.ron", &text).expect("reads back");
    // The second battle goes to the table and back to the map.
    assert!(war(&app).choices().contains(&Fight::Watch), "{:?}", war(&app).choices());
    app.world_mut().write_message(ChooseFight(Fight::Watch));
    assert!(until(&mut app, 10, |a| screen(a) == AppState::Battle), "onto the table");
    assert!(until(&mut app, 200_000, |a| screen(a) == AppState::Campaign), "back to the map");
    // The title, then the named save resumed: the campaign as it was saved.
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::Title);
    assert!(until(&mut app, 10, |a| screen(a) == AppState::Title));
    app.world_mut().write_message(ResumeCampaign(back));
    assert!(until(&mut app, 10, |a| screen(a) == AppState::Campaign));
    assert_eq!(war(&app).campaign().date, saved.progress.campaign.date, "resumed where it was saved");
    assert_eq!(war(&app).due(), None, "saved between sessions");
}
