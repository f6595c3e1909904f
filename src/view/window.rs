//! The window: F11 fullscreen, settings applied live, time to first frame.

use bevy::{
    prelude::*,
    window::{PresentMode, PrimaryWindow, WindowMode},
};
use leafwing_input_manager::prelude::ActionState;

use crate::{input::UiAction, launch::LaunchTime, settings::Settings};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (toggle_fullscreen, apply_settings.run_if(resource_changed::<Settings>)))
        .add_systems(Last, report_first_frame);
}

fn toggle_fullscreen(actions: Single<&ActionState<UiAction>>, mut windows: Query<&mut Window, With<PrimaryWindow>>) {
    if !actions.just_pressed(&UiAction::ToggleFullscreen) {
        return;
    }
    for mut window in &mut windows {
        window.mode = match window.mode {
            WindowMode::Windowed => WindowMode::BorderlessFullscreen(MonitorSelection::Current),
            _ => WindowMode::Windowed,
        };
    }
}

/// Fullscreen and vsync follow the settings as soon as they change.
fn apply_settings(settings: Res<Settings>, mut windows: Query<&mut Window, With<PrimaryWindow>>) {
    if settings.is_added() {
        return; // the window was created from them
    }
    for mut window in &mut windows {
        let mode = if settings.fullscreen {
            WindowMode::BorderlessFullscreen(MonitorSelection::Current)
        } else {
            WindowMode::Windowed
        };
        if window.mode != mode {
            window.mode = mode;
        }
        let present = if settings.vsync { PresentMode::AutoVsync } else { PresentMode::AutoNoVsync };
        if window.present_mode != present {
            window.present_mode = present;
        }
    }
}

/// Logs the time from launch to the first frame, and to the first frame
/// with a battle's miniatures on the table.
fn report_first_frame(
    launch: Option<Res<LaunchTime>>,
    models: Query<(), With<super::ElementModel>>,
    mut done: Local<(bool, bool)>,
) {
    let Some(launch) = launch else { return };
    if !done.0 {
        done.0 = true;
        info!("first frame {} ms after launch", launch.0.elapsed().as_millis());
    }
    if !done.1 && !models.is_empty() {
        done.1 = true;
        info!(
            "first frame of the battle {} ms after launch ({} miniatures)",
            launch.0.elapsed().as_millis(),
            models.iter().count()
        );
    }
}
