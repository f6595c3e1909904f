//! Assembling the Bevy app for each way of running: headless, windowed, screenshot.

use std::{process::ExitCode, time::Instant};

use bevy::{
    prelude::*,
    render::{
        RenderPlugin,
        settings::{RenderCreation, WgpuSettings},
    },
    state::app::StatesPlugin,
    window::{PresentMode, WindowMode, WindowResolution},
    winit::WinitPlugin,
};

use crate::{
    battle,
    battle::ActiveBattle,
    bindings,
    data::LoadedScenario,
    input,
    launch::{BUILD, LaunchTime, Notices, ScreenshotRequest},
    physics, platform, settings,
    settings::Settings,
    states::{self, AppState},
    ui, view,
};

/// Flow steps a frame on screen: the Auto side's turns unfold over a few frames.
const WINDOWED_FLOW_PACE: u32 = 40;
/// A demonstration goes slowly enough to follow from across a show's hall:
/// one flow step at a time, a few a second.
const DEMO_FLOW_PACE: u32 = 1;
const DEMO_STEP_INTERVAL: std::time::Duration = std::time::Duration::from_millis(120);

/// The game logic every mode shares: screens, menus, the battle.
fn add_core(app: &mut App, scenario: Option<LoadedScenario>) {
    match scenario {
        Some(s) => {
            app.insert_state(AppState::Battle).insert_resource(ActiveBattle(Some(s)));
        }
        None => {
            app.init_state::<AppState>();
        }
    }
    app.add_plugins((states::plugin, battle::screen_plugin, crate::war::plugin));
}

/// An app with no window and no GPU: `MinimalPlugins` and the game logic.
pub fn headless_app(scenario: Option<LoadedScenario>) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    add_core(&mut app, scenario);
    app
}

/// `--headless`: run `frames` updates and report where the game stands.
pub fn run_headless(frames: u32, scenario: Option<LoadedScenario>) -> ExitCode {
    let mut app = headless_app(scenario);
    let mut ran = 0;
    while ran < frames {
        app.update();
        ran += 1;
        if let Some(exit) = app.should_exit() {
            return exit_code(exit);
        }
    }
    let world = app.world();
    let screen = world.resource::<State<AppState>>().get();
    let battle = world.resource::<ActiveBattle>().0.as_ref().map_or("none".to_owned(), |b| b.scenario.name.clone());
    println!("warbound {BUILD} headless: {ran} updates; screen {screen:?}; battle: {battle}");
    ExitCode::SUCCESS
}

/// `--headless --seed`: play the battle to its end with both sides Auto,
/// write the log and the summary, print the result.
pub fn run_autoplay(a: &crate::cli::AutoPlay) -> ExitCode {
    use battle::{log::BattleLog, play, save, setup::BattleStart};
    let fail = |e: String| {
        eprintln!("warbound: {e}");
        ExitCode::FAILURE
    };
    let log = match &a.log {
        Some(path) => match BattleLog::to_file(path) {
            Ok(l) => l,
            Err(e) => return fail(format!("cannot write the battle log {}: {e}", path.display())),
        },
        None => BattleLog::default(),
    };
    let app = match &a.load {
        // A save resumes exactly, then both sides play on as Auto.
        Some(path) => crate::data::shared_codex()
            .map_err(|e| e.to_string())
            .and_then(|codex| save::read(path, &codex).and_then(|s| save::resume_as_auto(&s, log, codex))),
        None => {
            let loaded = match crate::data::load_scenario(&a.scenario) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("warbound: {e}\n\n{}", crate::cli::USAGE);
                    return ExitCode::from(2);
                }
            };
            let mut start = BattleStart::auto(&loaded.source, loaded.scenario, a.seed);
            start.bounds = a.bounds;
            if a.two_player {
                start.mechanism = battle::setup::Mechanism::TwoPlayer;
            }
            battle::battle_app(start, log)
        }
    };
    let mut app = match app {
        Ok(app) => app,
        Err(e) => return fail(e),
    };
    // Autosave after every bound to the user's data directory.
    app.insert_resource(save::Autosave(settings::data_dir().map(|d| d.join(save::AUTOSAVE))));
    if let Err(e) = play::advance(&mut app) {
        return fail(e);
    }
    let Some(result) = app.world().resource::<battle::state::Battle>().result.clone() else {
        return fail("the battle did not end".into());
    };
    if let Err(e) = app.world_mut().resource_mut::<BattleLog>().flush() {
        eprintln!("warbound: writing the battle log failed: {e}");
        return ExitCode::FAILURE;
    }
    if let Some(path) = &a.summary {
        let text = serde_json::to_string_pretty(&result).expect("results serialise");
        if let Err(e) = std::fs::write(path, text + "\n") {
            eprintln!("warbound: cannot write the summary {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let winner = result.winner.map_or("nobody (a draw)".to_owned(), |s| result.sides[s].name.clone());
    let events = app.world().resource::<BattleLog>().entries.len();
    println!(
        "{}: seed {}, {} bounds, {:?}; winner: {winner}; {events} rule events",
        result.scenario, result.seed, result.bounds_played, result.decided_by
    );
    for s in &result.sides {
        println!("  {}: CMT {} of {}, {:?}, {} men lost", s.name, s.cmt, s.cmt_start, s.condition, s.men_lost);
    }
    ExitCode::SUCCESS
}

/// Options for the full (rendering) app.
#[derive(Debug, Clone)]
pub struct FullAppOptions {
    pub settings: Settings,
    pub screenshot: Option<ScreenshotRequest>,
    /// `--frame-bench`: measure frame times and write the report.
    pub bench: Option<crate::bench::FrameBench>,
    pub scenario: Option<LoadedScenario>,
    /// False builds every plugin with no window and no GPU (for tests).
    pub windowed: bool,
}

/// The full game app: Bevy's default plugins and every game plugin.
pub fn full_app(options: FullAppOptions) -> App {
    let FullAppOptions { settings, screenshot, bench, scenario, windowed } = options;
    let mut app = App::new();
    let window_plugin = if windowed {
        let (w, h) = settings.window_size;
        // Screenshots and the frame bench are taken at a fixed size, without vsync.
        let screenshot_run = screenshot.is_some() || bench.is_some();
        WindowPlugin {
            primary_window: Some(Window {
                title: format!("Warbound {BUILD}"),
                resolution: if screenshot_run { WindowResolution::new(1280, 720) } else { WindowResolution::new(w, h) },
                present_mode: if settings.vsync && !screenshot_run {
                    PresentMode::AutoVsync
                } else {
                    PresentMode::AutoNoVsync
                },
                mode: if settings.fullscreen && !screenshot_run {
                    WindowMode::BorderlessFullscreen(MonitorSelection::Current)
                } else {
                    WindowMode::Windowed
                },
                ..default()
            }),
            ..default()
        }
    } else {
        WindowPlugin { primary_window: None, exit_condition: bevy::window::ExitCondition::DontExit, ..default() }
    };
    let defaults = DefaultPlugins.set(window_plugin);
    if windowed {
        app.add_plugins(defaults);
    } else {
        app.add_plugins(defaults.disable::<WinitPlugin>().disable::<bevy::log::LogPlugin>().set(RenderPlugin {
            render_creation: RenderCreation::Automatic(Box::new(WgpuSettings { backends: None, ..default() })),
            ..default()
        }));
        // Without a render backend nothing keeps the render world's sync
        // records, which despawning a mesh needs (a table rebuilt, a fire
        // put out): the plugin that holds them, as a rendering app has.
        app.add_plugins(bevy::render::sync_world::SyncWorldPlugin);
    }
    app.add_plugins(bevy::diagnostic::FrameTimeDiagnosticsPlugin::default());
    app.insert_resource(settings).insert_resource(LaunchTime(Instant::now())).init_resource::<Notices>();
    if let Some(request) = screenshot {
        app.insert_resource(request);
    }
    if let Some(bench) = bench {
        app.insert_resource(bench);
    }
    add_core(&mut app, scenario);
    app.add_plugins((input::plugin, bindings::plugin, physics::plugin, view::plugin, ui::plugin, crate::bench::plugin));
    app
}

/// Play or `--screenshot`: open the window and run until it closes.
/// `--frame-bench`: the empty table, then the largest battle, measured.
pub fn run_frame_bench(bench: crate::bench::FrameBench) -> ExitCode {
    if let Some(problem) = platform::display_problem() {
        eprintln!("{problem}");
        return ExitCode::FAILURE;
    }
    platform::install_panic_hook();
    let settings = Settings { show_fps: true, ..Settings::default() };
    let mut app =
        full_app(FullAppOptions { settings, screenshot: None, bench: Some(bench), scenario: None, windowed: true });
    app.insert_resource(battle::FlowPace(DEMO_FLOW_PACE));
    exit_code(app.run())
}

/// The game in a window (or a screenshot of it); `demo`: the program plays both sides.
pub fn run_windowed(
    screenshot: Option<ScreenshotRequest>,
    scenario: Option<LoadedScenario>,
    demo: bool,
    resume: Option<battle::save::Save>,
    table: crate::cli::TableOptions,
) -> ExitCode {
    let launched = Instant::now();
    if let Some(problem) = platform::display_problem() {
        eprintln!("{problem}");
        return ExitCode::FAILURE;
    }
    platform::install_panic_hook();
    let loaded = settings::load();
    if let Some(warning) = &loaded.warning {
        eprintln!("warbound: {warning}");
    }
    // A screenshot is taken of a fixed battle; a game played draws new dice each time.
    let seed = match (&screenshot, table.seed) {
        (_, Some(seed)) => seed,
        (Some(_), None) => battle::NewBattle::default().seed,
        (None, None) => {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
        }
    };
    let mut app =
        full_app(FullAppOptions { settings: loaded.settings, screenshot, bench: None, scenario, windowed: true });
    app.insert_resource(battle::NewBattle { seed, player: (!demo).then_some(0), two_player: table.two_player });
    // A saved battle pictured is resumed where it stands, as Continue does.
    if resume.is_some() {
        app.insert_resource(battle::Resume(resume));
    }
    // A game played is autosaved after every bound (a screenshot is not).
    if app.world().get_resource::<ScreenshotRequest>().is_none() {
        app.insert_resource(battle::save::Autosave(battle::autosave_path()));
        app.insert_resource(crate::war::CampaignAutosave(crate::campaign::autosave_path()));
    }
    // The table shows the flow step by step rather than a bound at once.
    app.insert_resource(battle::FlowPace(if demo { DEMO_FLOW_PACE } else { WINDOWED_FLOW_PACE }));
    if demo {
        app.insert_resource(battle::FlowInterval(DEMO_STEP_INTERVAL));
    }
    // Each assault is shown round by round before the battle goes on.
    app.insert_resource(battle::WatchAssaults::default());
    app.insert_resource(LaunchTime(launched));
    app.world_mut().resource_mut::<Notices>().0.extend(loaded.warning);
    exit_code(app.run())
}

/// `--campaign C` in the window: the campaign map, the player commanding
/// the campaign's first army; `demo`: the program plays both and watches
/// each battle on the table.
pub fn run_campaign(
    screenshot: Option<ScreenshotRequest>,
    source: String,
    file: warbound_campaign::play::CampaignFile,
    demo: bool,
    table: crate::cli::TableOptions,
) -> ExitCode {
    if let Some(problem) = platform::display_problem() {
        eprintln!("{problem}");
        return ExitCode::FAILURE;
    }
    platform::install_panic_hook();
    let loaded = settings::load();
    let seed = table.seed.unwrap_or_else(|| match &screenshot {
        Some(_) => battle::NewBattle::default().seed,
        None => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64),
    });
    let player = file.armies.first().map_or(warbound_campaign::map::common::Side::Blue, |a| a.side);
    let mut app =
        full_app(FullAppOptions { settings: loaded.settings, screenshot, bench: None, scenario: None, windowed: true });
    app.insert_resource(battle::NewBattle { seed, player: Some(0), two_player: false });
    app.insert_resource(battle::FlowPace(WINDOWED_FLOW_PACE));
    app.insert_resource(battle::WatchAssaults::default());
    if demo {
        app.insert_resource(crate::war::CampaignDemo);
    } else if app.world().get_resource::<ScreenshotRequest>().is_none() {
        app.insert_resource(crate::war::CampaignAutosave(crate::campaign::autosave_path()));
    }
    app.world_mut().resource_mut::<Notices>().0.extend(loaded.warning);
    app.world_mut().write_message(crate::war::StartCampaign { source, file, seed, player });
    exit_code(app.run())
}

fn exit_code(exit: AppExit) -> ExitCode {
    match exit {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
