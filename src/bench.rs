//! `warbound --frame-bench OUT.json`: in one run, the frame time of the
//! empty table (the title screen), of the largest shipped battle with
//! everything shown — every element, the terrain and the overlay — and of
//! the first shipped campaign's map scene, still and with the camera
//! flying between the map and the table, at 1280×720, and the CPU time of the main-world systems each frame (the
//! game's systems with the egui pass and transforms: from the end of
//! `PreUpdate` to the start of `Last`). The goals: the battle, the map and
//! the zoom each within 1.5× the empty table's frame time, the systems under 4 ms a frame; on a GPU,
//! 60 fps or better.

use std::{path::PathBuf, time::Instant};

use bevy::prelude::*;
use serde::Serialize;

use crate::{
    battle::{FlowCpu, NewBattle, StartBattle},
    data::{self, LoadedScenario},
    settings::Settings,
    view::{MapPlaces, OrbitCamera, Zoom},
    war::StartCampaign,
};
use warbound_campaign::map::common::Side;

/// Frames let pass before measuring each phase (shaders, the first layouts).
const WARMUP: u32 = 30;

/// The benchmark asked for.
#[derive(Resource, Debug, Clone)]
pub struct FrameBench {
    pub out: PathBuf,
    /// Frames measured in each phase.
    pub frames: u32,
}

#[derive(Resource, Debug, Default)]
struct Run {
    phase: Phase,
    frame: u32,
    empty: Samples,
    battle: Samples,
    map: Samples,
    zoom: Samples,
    scenario: String,
    elements: usize,
    campaign: String,
    /// The next flight goes up to the map.
    zoom_up: bool,
    started: Option<Instant>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Phase {
    #[default]
    Empty,
    Battle,
    Map,
    Zoom,
    Done,
}

#[derive(Debug, Default)]
struct Samples {
    frame_ms: Vec<f64>,
    systems_ms: Vec<f64>,
    flow_ms: Vec<f64>,
}

/// What the benchmark reports.
#[derive(Debug, Serialize)]
pub struct Report {
    pub resolution: (u32, u32),
    pub frames_each: u32,
    pub empty_table_ms: f64,
    pub battle_ms: f64,
    pub battle: String,
    pub battle_elements: usize,
    pub ratio: f64,
    pub systems_ms_empty: f64,
    pub systems_ms_battle: f64,
    /// The game's own systems: the battle's main-world time over the empty
    /// table's, which is the engine's baseline (transforms, visibility,
    /// egui, input) with no battle to run, draw or explain.
    pub game_systems_ms: f64,
    /// The battle flow's own share: the rules' steps run that frame.
    pub flow_ms_battle: f64,
    /// The campaign map scene, its frame time and its ratio to the empty table's.
    pub campaign: String,
    pub map_ms: f64,
    pub map_ratio: f64,
    /// The camera flying between the map and the table.
    pub zoom_ms: f64,
    pub zoom_ratio: f64,
    pub map_met: bool,
    pub goal_ratio: f64,
    pub goal_systems_ms: f64,
    pub ratio_met: bool,
    pub systems_met: bool,
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 }
}

/// The shipped battle with the most elements.
fn largest() -> Option<(LoadedScenario, usize)> {
    data::battle_scenarios()
        .filter_map(|(name, s)| s.ok().map(|s| (name, s)))
        .map(|(name, s)| {
            let n = s.sides.iter().flat_map(|side| &side.companies).map(|c| c.elements.len()).sum::<usize>();
            (LoadedScenario { source: name.to_owned(), scenario: s }, n)
        })
        .max_by_key(|(_, n)| *n)
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Run>()
        .add_systems(PreUpdate, start_clock.run_if(resource_exists::<FrameBench>))
        .add_systems(Last, (stop_clock, step).chain().run_if(resource_exists::<FrameBench>));
}

fn start_clock(mut run: ResMut<Run>) {
    run.started = Some(Instant::now());
}

fn stop_clock(mut run: ResMut<Run>, time: Res<Time<Real>>, flow: Res<FlowCpu>) {
    let Some(started) = run.started.take() else { return };
    let systems = started.elapsed().as_secs_f64() * 1000.0;
    let frame = time.delta_secs_f64() * 1000.0;
    run.frame += 1;
    if run.frame <= WARMUP {
        return;
    }
    let samples = match run.phase {
        Phase::Empty => &mut run.empty,
        Phase::Battle => &mut run.battle,
        Phase::Map => &mut run.map,
        Phase::Zoom => &mut run.zoom,
        Phase::Done => return,
    };
    samples.frame_ms.push(frame);
    samples.systems_ms.push(systems);
    samples.flow_ms.push(flow.0);
}

#[allow(clippy::too_many_arguments)]
fn step(
    mut run: ResMut<Run>,
    bench: Res<FrameBench>,
    mut start: MessageWriter<StartBattle>,
    mut new: ResMut<NewBattle>,
    mut settings: ResMut<Settings>,
    windows: Query<&Window>,
    mut exit: MessageWriter<AppExit>,
    mut campaign: MessageWriter<StartCampaign>,
    mut commands: Commands,
    zoom: Option<Res<Zoom>>,
    places: Res<MapPlaces>,
) {
    let measured = |s: &Samples| s.frame_ms.len() as u32 >= bench.frames;
    match run.phase {
        Phase::Empty if measured(&run.empty) => {
            let Some((scenario, n)) = largest() else {
                error!("frame bench: no shipped battle to measure");
                exit.write(AppExit::error());
                return;
            };
            // Everything shown: both sides played by the program, no fog of war.
            *new = NewBattle { seed: 1, player: None, two_player: false };
            settings.show_whole_table = true;
            run.scenario = scenario.source.clone();
            run.elements = n;
            start.write(StartBattle(scenario));
            run.phase = Phase::Battle;
            run.frame = 0;
        }
        Phase::Battle if measured(&run.battle) => {
            let Some((source, Ok(file))) = data::campaigns().next() else {
                error!("frame bench: no shipped campaign to measure");
                exit.write(AppExit::error());
                return;
            };
            run.campaign = file.name.clone();
            let player = file.armies.first().map_or(Side::Blue, |a| a.side);
            campaign.write(StartCampaign { source: source.to_owned(), file, seed: 1, player });
            run.phase = Phase::Map;
            run.frame = 0;
        }
        Phase::Map if measured(&run.map) => {
            run.phase = Phase::Zoom;
            run.frame = WARMUP;
        }
        // Down onto the table and up again, over and over.
        Phase::Zoom if !measured(&run.zoom) && zoom.is_none() => {
            let map = crate::view::map_overview(&places);
            let table = OrbitCamera::home(Vec2::new(72.0, 48.0));
            let down = !run.zoom_up;
            run.zoom_up = down;
            let (from, to) = if down { (map, table) } else { (table, map) };
            commands.insert_resource(Zoom { from, to, t: 0.0, down });
        }
        Phase::Zoom if !measured(&run.zoom) => {}
        Phase::Zoom => {
            run.phase = Phase::Done;
            let (empty, battle) = (mean(&run.empty.frame_ms), mean(&run.battle.frame_ms));
            let resolution = windows.iter().next().map_or((0, 0), |w| (w.physical_width(), w.physical_height()));
            let report = Report {
                resolution,
                frames_each: bench.frames,
                empty_table_ms: empty,
                battle_ms: battle,
                battle: run.scenario.clone(),
                battle_elements: run.elements,
                ratio: if empty > 0.0 { battle / empty } else { 0.0 },
                systems_ms_empty: mean(&run.empty.systems_ms),
                systems_ms_battle: mean(&run.battle.systems_ms),
                game_systems_ms: (mean(&run.battle.systems_ms) - mean(&run.empty.systems_ms)).max(0.0),
                flow_ms_battle: mean(&run.battle.flow_ms),
                campaign: run.campaign.clone(),
                map_ms: mean(&run.map.frame_ms),
                map_ratio: if empty > 0.0 { mean(&run.map.frame_ms) / empty } else { 0.0 },
                zoom_ms: mean(&run.zoom.frame_ms),
                zoom_ratio: if empty > 0.0 { mean(&run.zoom.frame_ms) / empty } else { 0.0 },
                map_met: empty > 0.0 && mean(&run.map.frame_ms).max(mean(&run.zoom.frame_ms)) / empty <= 1.5,
                goal_ratio: 1.5,
                goal_systems_ms: 4.0,
                ratio_met: empty > 0.0 && battle / empty <= 1.5,
                systems_met: (mean(&run.battle.systems_ms) - mean(&run.empty.systems_ms)) < 4.0,
            };
            println!(
                "frame bench at {}x{}: empty table {:.1} ms a frame ({:.0} fps); {} ({} elements, all shown) {:.1} ms ({:.0} fps), {:.2}x the empty table (goal 1.5x or less: {}); main-world systems {:.2} ms a frame in battle (the battle flow {:.2} ms of it), {:.2} ms on the empty table: the game's own systems {:.2} ms over the engine's baseline (goal under 4 ms: {})",
                report.resolution.0,
                report.resolution.1,
                report.empty_table_ms,
                1000.0 / report.empty_table_ms.max(1e-9),
                report.battle,
                report.battle_elements,
                report.battle_ms,
                1000.0 / report.battle_ms.max(1e-9),
                report.ratio,
                if report.ratio_met { "met" } else { "not met" },
                report.systems_ms_battle,
                report.flow_ms_battle,
                report.systems_ms_empty,
                report.game_systems_ms,
                if report.systems_met { "met" } else { "not met" },
            );
            println!(
                "campaign map of {}: {:.1} ms a frame, {:.2}x the empty table; flying to the table and back {:.1} ms, {:.2}x (goal 1.5x or less: {})",
                report.campaign,
                report.map_ms,
                report.map_ratio,
                report.zoom_ms,
                report.zoom_ratio,
                if report.map_met { "met" } else { "not met" },
            );
            let text = serde_json::to_string_pretty(&report).expect("a report serialises");
            match std::fs::write(&bench.out, text + "\n") {
                Ok(()) => {
                    exit.write(AppExit::Success);
                }
                Err(e) => {
                    error!("cannot write {}: {e}", bench.out.display());
                    exit.write(AppExit::error());
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_battle_is_the_one_with_most_elements() {
        let (scenario, n) = largest().expect("shipped battles");
        for (_, s) in data::battle_scenarios() {
            let s = s.unwrap();
            let m = s.sides.iter().flat_map(|side| &side.companies).map(|c| c.elements.len()).sum::<usize>();
            assert!(m <= n, "{} has {m} elements, more than {} with {n}", s.name, scenario.scenario.name);
        }
        assert_eq!(mean(&[2.0, 4.0]), 3.0);
        assert_eq!(mean(&[]), 0.0);
    }
}
