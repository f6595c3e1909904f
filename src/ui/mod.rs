//! bevy_egui setup and the game's menus and overlays, one file each.

pub mod battle_panels;
mod campaign;
mod controls;
mod hotseat;
mod hud;
mod labels;
mod orders;
mod pause;
mod saves;
mod settings;
mod title;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use leafwing_input_manager::prelude::ActionState;

use crate::{
    battle::invariant::InvariantFailures,
    input::UiAction,
    launch::Notices,
    states::{AppState, Menu},
};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(EguiPlugin::default())
        .add_systems(Startup, style)
        .add_systems(Update, escape)
        .add_systems(Update, report_failures)
        .add_systems(EguiPrimaryContextPass, notices)
        .add_plugins((
            title::plugin,
            pause::plugin,
            settings::plugin,
            hud::plugin,
            battle_panels::plugin,
            orders::plugin,
            labels::plugin,
            controls::plugin,
            saves::plugin,
            hotseat::plugin,
            campaign::plugin,
        ));
}

/// Larger type than egui's default: this is read from arm's length at a show.
fn style(mut contexts: EguiContexts, mut done: Local<bool>) {
    if *done {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else { return };
    ctx.all_styles_mut(|s| {
        for font in s.text_styles.values_mut() {
            font.size *= 1.15;
        }
        s.spacing.button_padding = egui::vec2(10.0, 6.0);
    });
    *done = true;
}

/// Esc walks back through the menus (see [`Menu::back`]).
fn escape(
    actions: Single<&ActionState<UiAction>>,
    screen: Res<State<AppState>>,
    menu: Res<State<Menu>>,
    mut next: ResMut<NextState<Menu>>,
) {
    if actions.just_pressed(&UiAction::Back) {
        next.set(menu.get().back(*screen.get()));
    }
}

/// Warnings gathered at start-up, until the player dismisses them.
fn notices(mut contexts: EguiContexts, mut notices: ResMut<Notices>) {
    if notices.0.is_empty() {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else { return };
    egui::Window::new("Notice").anchor(egui::Align2::CENTER_TOP, [0.0, 16.0]).collapsible(false).resizable(false).show(
        ctx,
        |ui| {
            for n in &notices.0 {
                ui.label(n);
            }
            if ui.button("OK").clicked() {
                notices.0.clear();
            }
        },
    );
}

/// A step of the battle the rules could not resolve is told to the player
/// as it happens (it is in the battle log too): each new invariant failure
/// becomes a notice. A new battle starts the count again.
fn report_failures(failures: Option<Res<InvariantFailures>>, mut notices: ResMut<Notices>, mut seen: Local<usize>) {
    let Some(failures) = failures else { return };
    if failures.0.len() < *seen {
        *seen = 0;
    }
    for f in &failures.0[*seen..] {
        notices.0.push(format!(
            "In bound {}, the rules could not resolve the {} step of {}: {}. The battle goes on; the battle log \
             records it. Please report it with the saved battle.",
            f.bound, f.step, f.actor, f.what
        ));
    }
    *seen = failures.0.len();
}

/// A big menu button of one width.
fn menu_button(ui: &mut egui::Ui, enabled: bool, text: &str) -> egui::Response {
    ui.add_enabled(enabled, egui::Button::new(egui::RichText::new(text).size(22.0)).min_size(egui::vec2(240.0, 40.0)))
}

/// A dark panel centred on the screen.
fn centre_panel(ctx: &egui::Context, id: &str, add: impl FnOnce(&mut egui::Ui)) {
    egui::Area::new(egui::Id::new(id)).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        egui::Frame::new()
            .fill(egui::Color32::from_black_alpha(200))
            .corner_radius(8.0)
            .inner_margin(24.0)
            .show(ui, |ui| ui.vertical_centered(add));
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::invariant::InvariantFailure;

    #[test]
    fn a_step_the_rules_cannot_resolve_is_told_to_the_player_once() {
        let mut app = App::new();
        app.init_resource::<Notices>().init_resource::<InvariantFailures>().add_systems(Update, report_failures);
        app.update();
        assert!(app.world().resource::<Notices>().0.is_empty(), "a sound battle tells nothing");
        let failure = InvariantFailure { bound: 3, step: "fire", actor: "13_platoon".into(), what: "no target".into() };
        app.world_mut().resource_mut::<InvariantFailures>().0.push(failure);
        app.update();
        app.update();
        let notices = &app.world().resource::<Notices>().0;
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].contains("bound 3") && notices[0].contains("fire step of 13_platoon: no target"));
        // A new battle: its failures are counted from its start.
        app.world_mut().insert_resource(InvariantFailures::default());
        app.update();
        assert_eq!(app.world().resource::<Notices>().0.len(), 1);
    }
}
