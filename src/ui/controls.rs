//! The Controls window beside Settings: each keyboard action the player may
//! move, its key, and Change (press the new key). A key another action has
//! is refused; the keys are saved to `bindings.ron` in the config directory.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use leafwing_input_manager::prelude::*;

use crate::{
    bindings::{ACTIONS, Bindings, key_name, save_to},
    input::{CameraAction, PlayerInput, TableAction, UiAction},
    settings,
    states::Menu,
};

/// The action waiting for its new key, and what the last change did.
#[derive(Resource, Debug, Default)]
struct Listening {
    action: Option<&'static str>,
    status: Option<String>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Listening>()
        .add_systems(EguiPrimaryContextPass, controls_window.run_if(in_state(Menu::Settings)))
        .add_systems(Update, listen.run_if(in_state(Menu::Settings)));
}

fn controls_window(mut contexts: EguiContexts, bindings: Option<Res<Bindings>>, mut listening: ResMut<Listening>) {
    let Some(bindings) = bindings else { return };
    let Ok(ctx) = contexts.ctx_mut() else { return };
    egui::Window::new("Controls").anchor(egui::Align2::RIGHT_CENTER, [-20.0, 0.0]).resizable(false).show(ctx, |ui| {
        egui::Grid::new("controls-grid").num_columns(3).spacing([16.0, 6.0]).show(ui, |ui| {
            for (_, name, words) in ACTIONS {
                ui.label(words);
                ui.monospace(key_name(bindings.key(name)).unwrap_or("?"));
                let waiting = listening.action == Some(name);
                if ui.selectable_label(waiting, if waiting { "press a key…" } else { "Change" }).clicked() {
                    listening.action = if waiting { None } else { Some(name) };
                }
                ui.end_row();
            }
        });
        ui.label(
            egui::RichText::new("Mouse: right-drag orbit, middle-drag pan, wheel zoom, left click select or move")
                .small()
                .color(egui::Color32::from_gray(160)),
        );
        if let Some(s) = &listening.status {
            ui.label(s);
        }
    });
}

#[allow(clippy::type_complexity)]
fn listen(
    keys: Res<ButtonInput<KeyCode>>,
    mut listening: ResMut<Listening>,
    bindings: Option<ResMut<Bindings>>,
    mut maps: Query<
        (&mut InputMap<CameraAction>, &mut InputMap<UiAction>, &mut InputMap<TableAction>),
        With<PlayerInput>,
    >,
) {
    let (Some(name), Some(mut bindings)) = (listening.action, bindings) else { return };
    let Some(&key) = keys.get_just_pressed().next() else { return };
    listening.action = None;
    listening.status = Some(match bindings.rebind(name, key) {
        Err(e) => e,
        Ok(()) => {
            if let Ok((mut camera, mut ui, mut table)) = maps.single_mut() {
                bindings.apply(&mut camera, &mut ui, &mut table);
            }
            match settings::config_dir() {
                Some(dir) => match save_to(&dir, &bindings) {
                    Ok(path) => format!("Saved to {}", path.display()),
                    Err(e) => format!("Changed, but could not save: {e}"),
                },
                None => "Changed; this system has no config directory to save to.".into(),
            }
        }
    });
}
