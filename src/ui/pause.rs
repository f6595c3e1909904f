//! Esc in battle: resume, undo, save, load, settings, leave the battle, quit.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::{
    centre_panel, menu_button,
    saves::{Request, Status},
};
use crate::{
    battle::{Replaying, command::CommandRecord, state::Battle, undo_refusal},
    states::{AppState, Menu},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, pause_menu.run_if(in_state(Menu::Pause)));
}

#[allow(clippy::too_many_arguments)]
fn pause_menu(
    mut contexts: EguiContexts,
    mut menu: ResMut<NextState<Menu>>,
    mut screen: ResMut<NextState<AppState>>,
    mut exit: MessageWriter<AppExit>,
    mut request: ResMut<Request>,
    status: Res<Status>,
    battle: Option<Res<Battle>>,
    record: Option<Res<CommandRecord>>,
    replay: Option<Res<Replaying>>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let undo = undo_refusal(battle.is_some(), record.as_deref(), replay.as_deref());
    let replaying = replay.is_some_and(|r| !r.commands.is_empty());
    centre_panel(ctx, "pause-menu", |ui| {
        ui.label(egui::RichText::new("Paused").size(36.0).strong());
        if let Some(s) = &status.0 {
            ui.label(egui::RichText::new(s).color(egui::Color32::from_gray(190)));
        }
        ui.add_space(16.0);
        if menu_button(ui, true, "Resume").clicked() {
            menu.set(Menu::Closed);
        }
        ui.add_space(6.0);
        let button = menu_button(ui, undo.is_ok(), "Undo last command");
        let button = match undo {
            Ok(()) => button.on_hover_text(
                "Replays the battle to the decision before your last command; the dice come up as they did.",
            ),
            Err(why) => button.on_disabled_hover_text(why),
        };
        if button.clicked() {
            *request = Request::Undo;
        }
        ui.add_space(6.0);
        let save = menu_button(ui, battle.is_some() && !replaying, "Save…");
        if replaying {
            save.on_disabled_hover_text("The battle is still being replayed.");
        } else if save.clicked() {
            menu.set(Menu::SaveAs);
        }
        ui.add_space(6.0);
        if menu_button(ui, true, "Load…").clicked() {
            menu.set(Menu::LoadSave);
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
