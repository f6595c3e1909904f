//! Always-on labels: the build and frame rate, and the battle's briefing.

use bevy::{
    diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin},
    prelude::*,
};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{battle::ActiveBattle, launch::BUILD, settings::Settings, states::AppState};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, (version_label, briefing.run_if(in_state(AppState::Battle))));
}

fn version_label(mut contexts: EguiContexts, settings: Res<Settings>, diagnostics: Res<DiagnosticsStore>) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let fps = settings
        .show_fps
        .then(|| diagnostics.get(&FrameTimeDiagnosticsPlugin::FPS).and_then(|d| d.smoothed()))
        .flatten()
        .map(|f| format!("{f:.0} fps   "))
        .unwrap_or_default();
    egui::Area::new(egui::Id::new("version"))
        .anchor(egui::Align2::RIGHT_BOTTOM, [-10.0, -6.0])
        .interactable(false)
        .show(ctx, |ui| {
            let text =
                egui::RichText::new(format!("{fps}Warbound {BUILD}")).small().color(egui::Color32::from_gray(170));
            ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend));
        });
}

fn briefing(mut contexts: EguiContexts, active: Res<ActiveBattle>) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let Some(battle) = &active.0 else { return };
    egui::Window::new(&battle.scenario.name)
        .anchor(egui::Align2::LEFT_TOP, [10.0, 10.0])
        .default_width(320.0)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(&battle.scenario.briefing);
            ui.add_space(6.0);
            ui.label(
                egui::RichText::new("Right-drag orbit · middle-drag pan · wheel zoom · Esc menu")
                    .small()
                    .color(egui::Color32::from_gray(160)),
            );
        });
}
