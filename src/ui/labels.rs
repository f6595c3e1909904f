//! Element counters over the table: each miniature the person at the screen
//! sees carries its number and id, in its side's colour, the selected one
//! framed, and an acting element marked — the tabletop's numbered counters.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::battle_panels::Selected;
use crate::{
    battle::state::{Battle, Fielded, Flow},
    states::AppState,
    view::ElementModel,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        counters.run_if(in_state(AppState::Battle).and_then(resource_exists::<Battle>)),
    );
}

/// Counters stand this far above an element's base, inches.
const COUNTER_HEIGHT: f32 = 2.5;

fn counters(
    mut contexts: EguiContexts,
    cameras: Query<(&Camera, &GlobalTransform)>,
    models: Query<(&ElementModel, &GlobalTransform, &InheritedVisibility)>,
    elements: Query<&Fielded>,
    flow: Res<Flow>,
    selected: Res<Selected>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let Ok((camera, eye)) = cameras.single() else { return };
    let acting = match &*flow {
        Flow::Acting(turn) => Some(turn.element.as_str()),
        _ => None,
    };
    for (model, at, visible) in &models {
        if !visible.get() {
            continue;
        }
        let Some(f) = elements.iter().find(|f| f.id() == model.0) else { continue };
        let Ok(screen) = camera.world_to_viewport(eye, at.translation() + Vec3::Y * COUNTER_HEIGHT) else { continue };
        let colour =
            if f.side == 0 { egui::Color32::from_rgb(90, 150, 255) } else { egui::Color32::from_rgb(255, 160, 40) };
        let marker = if acting == Some(f.id()) { "▶ " } else { "" };
        let text = format!("{marker}{} {}", f.index + 1, f.id());
        let frame = egui::Frame::new()
            .fill(colour.gamma_multiply(0.55))
            .stroke(if selected.0.as_deref() == Some(f.id()) {
                egui::Stroke::new(2.0, egui::Color32::WHITE)
            } else {
                egui::Stroke::new(1.0, colour)
            })
            .corner_radius(3.0)
            .inner_margin(egui::Margin::symmetric(3, 1));
        egui::Area::new(egui::Id::new(("counter", model.0.as_str())))
            .fixed_pos(egui::pos2(screen.x, screen.y))
            .pivot(egui::Align2::CENTER_BOTTOM)
            .interactable(false)
            .order(egui::Order::Background)
            .show(ctx, |ui| {
                frame.show(ui, |ui| {
                    ui.label(egui::RichText::new(&text).small().color(egui::Color32::WHITE));
                });
            });
    }
}
