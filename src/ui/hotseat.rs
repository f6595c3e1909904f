//! The 2-player hotseat (*Heroes All*, "Command and Control for 2-Player
//! games", both sides commanded at this screen): when the screen passes from
//! one player to the other, a curtain covers the table and every panel until
//! the next player takes it, so neither sees what the other's side knows.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    battle::{
        setup::Control,
        state::{Battle, Sides},
    },
    states::AppState,
    view::AtScreen,
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Curtain>()
        .add_systems(Update, draw_curtain_on_change.run_if(in_state(AppState::Battle)))
        .add_systems(
            EguiPrimaryContextPass,
            curtain_window.run_if(in_state(AppState::Battle).and_then(resource_exists::<Battle>)),
        );
}

/// The curtain over the table: down for the side whose player is to take
/// the screen, until he says he has it.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Curtain {
    pub down_for: Option<usize>,
    /// The side that last had the screen.
    had: Option<usize>,
}

impl Curtain {
    /// The curtain after the screen passes to `at`: down whenever a hotseat's
    /// screen goes from one player to the other. The first player to throw
    /// begins at the screen the two sat down at.
    pub fn follow(&mut self, at: Option<usize>, hotseat: bool) {
        if at != self.had {
            let first = self.had.is_none();
            self.had = at;
            self.down_for = if hotseat && !first { at } else { None };
        }
    }
}

fn draw_curtain_on_change(sides: Option<Res<Sides>>, at: Res<AtScreen>, mut curtain: ResMut<Curtain>) {
    let hotseat = sides.is_some_and(|s| s.0.iter().filter(|s| s.control == Control::Player).count() > 1);
    let mut next = curtain.clone();
    next.follow(at.0, hotseat);
    if next != *curtain {
        *curtain = next;
    }
}

/// The curtain's words and button; returns whether the player took the screen.
pub fn curtain_ui(ui: &mut egui::Ui, side: &str, bound: u32) -> bool {
    ui.heading(egui::RichText::new(format!("{side}'s turn")).size(28.0));
    ui.add_space(8.0);
    ui.label(format!(
        "Bound {bound}. Hand the screen to the player commanding {side}: the table stays covered until he has it."
    ));
    ui.add_space(12.0);
    ui.button(egui::RichText::new("I have the screen: show my table").size(20.0)).clicked()
}

fn curtain_window(mut contexts: EguiContexts, battle: Res<Battle>, sides: Res<Sides>, mut curtain: ResMut<Curtain>) {
    let Some(side) = curtain.down_for else { return };
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let name = sides.0.get(side).map_or_else(|| format!("side {}", side + 1), |s| s.name.clone());
    let screen = ctx.content_rect();
    let mut taken = false;
    egui::Area::new(egui::Id::new("hotseat-curtain")).order(egui::Order::Foreground).fixed_pos(screen.min).show(
        ctx,
        |ui| {
            ui.painter().rect_filled(screen, 0.0, egui::Color32::from_rgb(18, 20, 22));
            // The whole screen is the curtain's: nothing under it is clicked.
            ui.allocate_rect(screen, egui::Sense::click());
            let middle = egui::Rect::from_center_size(screen.center(), egui::vec2(screen.width() * 0.5, 220.0));
            ui.scope_builder(egui::UiBuilder::new().max_rect(middle), |ui| {
                ui.vertical_centered(|ui| taken = curtain_ui(ui, &name, battle.clock.bound()));
            });
        },
    );
    if taken {
        curtain.down_for = None;
    }
}

#[cfg(test)]
mod tests {
    use egui_kittest::{Harness, kittest::Queryable};

    use super::*;

    #[test]
    fn the_curtain_falls_when_the_screen_passes_to_the_other_player_only_in_a_hotseat() {
        let mut c = Curtain::default();
        c.follow(Some(0), true);
        assert_eq!(c.down_for, None, "the first player begins at the screen");
        c.follow(Some(0), true);
        assert_eq!(c.down_for, None, "the same player keeps it");
        c.follow(Some(1), true);
        assert_eq!(c.down_for, Some(1));
        let mut solo = Curtain::default();
        solo.follow(Some(0), false);
        assert_eq!(solo.down_for, None, "the solo game has no curtain");
    }

    #[test]
    fn the_next_player_lifts_the_curtain() {
        let mut h = Harness::new_ui_state(|ui, taken: &mut bool| *taken |= curtain_ui(ui, "Germans", 3), false);
        h.run();
        assert!(!h.state());
        h.get_by_label("I have the screen: show my table").click();
        h.run();
        assert!(h.state());
    }
}
