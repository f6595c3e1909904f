//! The battle's paperwork on the screen, as *Fight Your Own Battles* keeps it
//! on the table: the battle log (every rule event), the Order Priority Cards
//! of the bound, the selected element's Cardsheet, the Senior Officer
//! Record Sheets and the Order of Battle. The panels only read the battle
//! state; a click on a log line, a card or a line of the Order of Battle
//! selects the element it concerns ([`Selected`]).
//!
//! What each panel shows is built by plain functions of the state
//! ([`log::log_line`], [`deck::deck_rows`], [`cardsheet::cardsheet`],
//! [`senior::senior_sheet`], [`order_of_battle::order_of_battle`]) so that it
//! is tested without a window; each panel is drawn by a function of that
//! state into an `egui::Ui` ([`log::log_ui`], [`deck::deck_ui`],
//! [`cardsheet::cardsheet_ui`], [`senior::senior_ui`],
//! [`order_of_battle::order_of_battle_ui`]) that returns what was clicked, if
//! any, tested with egui_kittest. One panel a file.

mod cardsheet;
mod deck;
mod log;
mod order_of_battle;
mod senior;

use std::fmt::Debug;

use bevy::prelude::*;
use bevy_egui::{EguiPrimaryContextPass, egui};
use warbound_rules::officer::Officer;

use crate::{
    battle::{
        Selected,
        setup::Control,
        state::{Battle, ElementView, FieldedReadOnly, Sides},
    },
    states::AppState,
};

use cardsheet::cardsheet_window;
use deck::deck_window;
pub(super) use deck::played;
use log::log_window;
use order_of_battle::order_of_battle_window;
use senior::senior_window;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Selected>().add_systems(OnExit(AppState::Battle), deselect).add_systems(
        EguiPrimaryContextPass,
        (log_window, deck_window, cardsheet_window, senior_window, order_of_battle_window)
            .chain()
            .run_if(in_state(AppState::Battle).and_then(resource_exists::<Battle>)),
    );
}

fn deselect(mut selected: ResMut<Selected>) {
    selected.0 = None;
}

/// A debug name in words: `ContactEnemy` → "Contact enemy".
fn words(value: impl Debug) -> String {
    let name = format!("{value:?}");
    let mut out = String::with_capacity(name.len() + 4);
    for (k, c) in name.chars().enumerate() {
        if k > 0 && c.is_ascii_uppercase() {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// An officer's grade and ORT rating: "Bold (3)".
fn officer_text(officer: Officer) -> String {
    format!("{} ({})", words(officer.grade()), officer.grade().rating())
}

/// The sides the player sees from: those a Player commands; in a battle the
/// program plays on both sides, every side (there is nothing to hide).
fn player_sides(sides: &Sides) -> Vec<usize> {
    let players: Vec<usize> = (0..sides.0.len()).filter(|&s| sides.0[s].control == Control::Player).collect();
    if players.is_empty() { (0..sides.0.len()).collect() } else { players }
}

/// Whether the player's force knows of `f`: one of his own, or an enemy his
/// Senior Officer or one of his NCOs has seen or been told of.
fn observed(f: &ElementView, els: &[ElementView], sides: &Sides, players: &[usize]) -> bool {
    players.contains(&f.identity.side)
        || players.iter().any(|&s| sides.0.get(s).is_some_and(|side| side.known.contains(f.id())))
        || els.iter().any(|o| players.contains(&o.identity.side) && o.intel.known.contains(f.id()))
}

/// Whether the person at the screen finds `f` in the panels' lists: every
/// element of his own side, and the enemy's he sees on the table (all of
/// them when he commands no side or has chosen to see the whole table).
fn listed(f: &ElementView, sides: &Sides, all: &[ElementView], whole: bool) -> bool {
    whole
        || crate::view::player_side(sides).is_none_or(|s| f.identity.side == s)
        || crate::view::shown(f, sides, all, false)
}

/// The colour a side's names are written in: the player's blue, the enemy's red.
fn side_colour(side: Option<usize>, players: &[usize]) -> egui::Color32 {
    match side {
        Some(s) if players.contains(&s) => egui::Color32::from_rgb(140, 180, 255),
        Some(_) => egui::Color32::from_rgb(255, 150, 130),
        None => egui::Color32::from_gray(200),
    }
}

/// Every element, in scenario order.
fn sorted<'a>(q: &'a Query<FieldedReadOnly>) -> Vec<ElementView<'a>> {
    let mut els: Vec<ElementView> = q.iter().map(|f| f.view()).collect();
    els.sort_by_key(|f| f.identity.index);
    els
}

#[cfg(test)]
mod tests;
