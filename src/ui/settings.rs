//! The settings window: edit a copy, then apply and save to the config dir.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::centre_panel;
use crate::{
    settings::{self, Settings},
    states::{AppState, Menu},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, settings_window.run_if(in_state(Menu::Settings)))
        .add_systems(OnExit(Menu::Settings), forget_draft);
}

/// The values being edited, and the outcome of the last save.
#[derive(Resource)]
struct Draft {
    settings: Settings,
    status: Option<String>,
}

fn forget_draft(mut commands: Commands) {
    commands.remove_resource::<Draft>();
}

fn settings_window(
    mut commands: Commands,
    mut contexts: EguiContexts,
    draft: Option<ResMut<Draft>>,
    mut current: ResMut<Settings>,
    screen: Res<State<AppState>>,
    mut menu: ResMut<NextState<Menu>>,
) {
    let Some(mut draft) = draft else {
        commands.insert_resource(Draft { settings: current.clone(), status: None });
        return;
    };
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let Draft { settings: s, status } = &mut *draft;
    centre_panel(ctx, "settings", |ui| {
        ui.heading("Settings");
        ui.add_space(12.0);
        egui::Grid::new("settings-grid").num_columns(2).spacing([24.0, 8.0]).show(ui, |ui| {
            ui.label("Fullscreen (F11)");
            ui.checkbox(&mut s.fullscreen, "");
            ui.end_row();
            ui.label("Vertical sync");
            ui.checkbox(&mut s.vsync, "");
            ui.end_row();
            ui.label("Show frame rate");
            ui.checkbox(&mut s.show_fps, "");
            ui.end_row();
            ui.label("Show the whole table (no fog of war)");
            ui.checkbox(&mut s.show_whole_table, "");
            ui.end_row();
            ui.label("Dice in the tray (Space skips)");
            ui.horizontal(|ui| {
                use crate::settings::DiceShow;
                ui.selectable_value(&mut s.dice, DiceShow::Normal, "Normal");
                ui.selectable_value(&mut s.dice, DiceShow::Fast, "Fast");
                ui.selectable_value(&mut s.dice, DiceShow::Off, "Off");
            });
            ui.end_row();
            ui.label("Orbit speed (°/pixel)");
            ui.add(egui::Slider::new(&mut s.orbit_sensitivity, 0.05..=1.5));
            ui.end_row();
            ui.label("Invert orbit up/down");
            ui.checkbox(&mut s.invert_orbit_y, "");
            ui.end_row();
            ui.label("Pan speed");
            ui.add(egui::Slider::new(&mut s.pan_sensitivity, 0.02..=1.0));
            ui.end_row();
            ui.label("Zoom step per wheel notch");
            ui.add(egui::Slider::new(&mut s.zoom_step, 0.02..=0.3));
            ui.end_row();
            ui.label("Window size (next start)");
            ui.horizontal(|ui| {
                ui.add(egui::DragValue::new(&mut s.window_size.0).range(640..=7680));
                ui.label("×");
                ui.add(egui::DragValue::new(&mut s.window_size.1).range(360..=4320));
            });
            ui.end_row();
        });
        ui.add_space(12.0);
        ui.horizontal(|ui| {
            if ui.button("Apply and save").clicked() {
                *current = s.clone().sanitized();
                *status = Some(match settings::config_dir() {
                    Some(dir) => match settings::save_to(&dir, &current) {
                        Ok(path) => format!("Saved to {}", path.display()),
                        Err(e) => format!("Applied, but could not save: {e}"),
                    },
                    None => "Applied; this system has no config directory to save to.".into(),
                });
            }
            if ui.button("Defaults").clicked() {
                *s = Settings::default();
            }
            if ui.button("Back").clicked() {
                menu.set(Menu::Settings.back(*screen.get()));
            }
        });
        if let Some(status) = status {
            ui.add_space(8.0);
            ui.label(status.as_str());
        }
    });
}
