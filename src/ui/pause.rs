//! Esc in battle: resume, settings, leave the battle, quit.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::{centre_panel, menu_button};
use crate::states::{AppState, Menu};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, pause_menu.run_if(in_state(Menu::Pause)));
}

fn pause_menu(
    mut contexts: EguiContexts,
    mut menu: ResMut<NextState<Menu>>,
    mut screen: ResMut<NextState<AppState>>,
    mut exit: MessageWriter<AppExit>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    centre_panel(ctx, "pause-menu", |ui| {
        ui.label(egui::RichText::new("Paused").size(36.0).strong());
        ui.add_space(16.0);
        if menu_button(ui, true, "Resume").clicked() {
            menu.set(Menu::Closed);
        }
        ui.add_space(6.0);
        if menu_button(ui, true, "Settings").clicked() {
            menu.set(Menu::Settings);
        }
        ui.add_space(6.0);
        if menu_button(ui, true, "Leave battle").clicked() {
            screen.set(AppState::Title);
        }
        ui.add_space(6.0);
        if menu_button(ui, true, "Quit").clicked() {
            exit.write(AppExit::Success);
        }
    });
}
