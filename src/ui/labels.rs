//! Element counters over the table: each miniature the person at the screen
//! sees carries its number and id, in its side's colour, the selected one
//! framed, and an acting element marked — the tabletop's numbered counters.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::battle_panels::Selected;
use warbound_rules::geometry::{HILL_LEVEL_HEIGHT, hill_level};

use crate::{
    battle::state::{Battle, Fielded, Flow},
    states::AppState,
    view::{ElementModel, LAST_SEEN_BOUNDS, LastSeen, TableRoot, to_world},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (counters, last_seen).run_if(in_state(AppState::Battle).and_then(resource_exists::<Battle>)),
    );
}

/// Where enemies were last seen: a fading "?" counter with the bound, over
/// the spot, while the element itself is out of sight.
fn last_seen(
    mut contexts: EguiContexts,
    cameras: Query<(&Camera, &GlobalTransform)>,
    tables: Query<(&TableRoot, &GlobalTransform)>,
    seen: Res<LastSeen>,
    models: Query<(&ElementModel, &InheritedVisibility)>,
    battle: Res<Battle>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let (Ok((camera, eye)), Ok((root, table))) = (cameras.single(), tables.single()) else { return };
    let bound = battle.clock.bound();
    for (id, (at, when)) in &seen.0 {
        if models.iter().any(|(m, v)| m.0 == *id && v.get()) {
            continue;
        }
        let ground = f32::from(hill_level(&battle.terrain, *at)) * HILL_LEVEL_HEIGHT + COUNTER_HEIGHT;
        let world = table.transform_point(to_world(root.0, *at, ground));
        let Ok(screen) = camera.world_to_viewport(eye, world) else { continue };
        let age = bound.saturating_sub(*when) as f32 / LAST_SEEN_BOUNDS as f32;
        let fade = 1.0 - age.clamp(0.0, 0.75);
        let orange = egui::Color32::from_rgb(255, 160, 40).gamma_multiply(fade);
        egui::Area::new(egui::Id::new(("last-seen", id.as_str())))
            .fixed_pos(egui::pos2(screen.x, screen.y))
            .pivot(egui::Align2::CENTER_BOTTOM)
            .interactable(false)
            .order(egui::Order::Background)
            .show(ctx, |ui| {
                egui::Frame::new()
                    .stroke(egui::Stroke::new(1.0, orange))
                    .corner_radius(3.0)
                    .inner_margin(egui::Margin::symmetric(3, 1))
                    .show(ui, |ui| {
                        ui.label(egui::RichText::new(format!("? {id} (seen B{when})")).small().color(orange));
                    });
            });
    }
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
