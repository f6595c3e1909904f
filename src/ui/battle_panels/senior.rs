//! The Senior Officer Record Sheet window: each side's Continuous
//! Momentum Tally, Strategic Condition, milestones and reserves.

use std::fmt::Debug;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use warbound_rules::strategic::StrategicCondition;

use crate::battle::{
    Selected, outcome,
    state::{ElementView, FieldedReadOnly, SideState, Sides},
};

use super::{player_sides, side_colour, sorted, words};

/// A Senior Officer Record Sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SeniorSheet {
    pub(super) side: String,
    pub(super) senior: String,
    pub(super) cmt_start: u32,
    /// The CMT counted as 100% now: the start, or a higher CMT reached since.
    pub(super) original: u32,
    pub(super) milestone_pct: u32,
    pub(super) cmt: u32,
    pub(super) milestones_passed: u32,
    pub(super) condition: StrategicCondition,
    pub(super) general_withdrawal: bool,
    /// Reserves not yet committed, with their CMS.
    pub(super) reserves: Vec<(String, u8)>,
}

pub(super) fn senior_sheet(s: usize, side: &SideState, els: &[ElementView]) -> SeniorSheet {
    let cmt = outcome::cmt(els.iter().copied(), s);
    SeniorSheet {
        side: side.name.clone(),
        senior: format!("{} ({})", words(side.senior.grade()), words(side.control)),
        cmt_start: side.cmt_start,
        original: side.record.original_cmt(),
        milestone_pct: side.record.milestone_pct(),
        cmt,
        milestones_passed: side.record.milestones_passed(cmt),
        condition: side.record.condition(),
        general_withdrawal: side.general_withdrawal,
        reserves: els
            .iter()
            .filter(|f| f.identity.side == s && f.presence.status.committable(f.force.element.cms))
            .map(|f| (f.id().to_owned(), f.force.element.cms))
            .collect(),
    }
}

pub(super) fn condition_colour(c: StrategicCondition) -> egui::Color32 {
    match c {
        StrategicCondition::Green => egui::Color32::from_rgb(90, 200, 90),
        StrategicCondition::Yellow => egui::Color32::from_rgb(230, 200, 60),
        StrategicCondition::Red => egui::Color32::from_rgb(230, 80, 70),
        StrategicCondition::Withdrawn => egui::Color32::from_gray(150),
    }
}

/// The Senior Officer Record Sheets of the sides the player sees from
/// ([`senior_sheet`]). Returns the uncommitted reserve clicked.
pub(super) fn senior_ui(ui: &mut egui::Ui, sides: &Sides, els: &[ElementView]) -> Option<String> {
    let players = player_sides(sides);
    let mut clicked = None;
    for (n, &s) in players.iter().enumerate() {
        let Some(side) = sides.0.get(s) else { continue };
        let sheet = senior_sheet(s, side, els);
        if n > 0 {
            ui.separator();
        }
        ui.strong(egui::RichText::new(&sheet.side).color(side_colour(Some(s), &players)));
        egui::Grid::new(("senior_officer", s)).num_columns(2).show(ui, |ui| {
            let mut row = |k: &str, v: egui::RichText| {
                ui.label(egui::RichText::new(k).color(egui::Color32::from_gray(170)));
                ui.label(v);
                ui.end_row();
            };
            row("Senior Officer", sheet.senior.clone().into());
            row("Initial CMT", sheet.cmt_start.to_string().into());
            if sheet.original != sheet.cmt_start {
                row("CMT counted as 100%", sheet.original.to_string().into());
            }
            row("Milestone", format!("{}%", sheet.milestone_pct).into());
            row("Current CMT", format!("{} ({} milestones passed)", sheet.cmt, sheet.milestones_passed).into());
            let condition = if sheet.general_withdrawal {
                format!("{} (general withdrawal)", words(sheet.condition))
            } else {
                words(sheet.condition)
            };
            row(
                "Strategic condition",
                egui::RichText::new(condition).strong().color(condition_colour(sheet.condition)),
            );
        });
        if sheet.reserves.is_empty() {
            ui.label(egui::RichText::new("No reserves uncommitted").small());
        } else {
            ui.label("Reserves uncommitted:");
            ui.horizontal_wrapped(|ui| {
                for (id, cms) in &sheet.reserves {
                    if ui.add(egui::Label::new(format!("{id} (CMS {cms})")).sense(egui::Sense::click())).clicked() {
                        clicked = Some(id.clone());
                    }
                }
            });
        }
    }
    clicked
}

pub(super) fn senior_window(
    mut contexts: EguiContexts,
    sides: Res<Sides>,
    q: Query<FieldedReadOnly>,
    mut selected: ResMut<Selected>,
    at: Res<crate::view::AtScreen>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let sides = at.seen(&sides);
    let els = sorted(&q);
    let clicked = egui::Window::new("Senior Officer")
        .default_pos([420.0, 10.0])
        .default_open(false)
        .default_width(300.0)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| senior_ui(ui, &sides, &els))
        .and_then(|r| r.inner.flatten());
    if clicked.is_some() {
        selected.0 = clicked;
    }
}
