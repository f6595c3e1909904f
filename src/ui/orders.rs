//! The Orders window: the decision the battle waits for, and the commands
//! the person at the screen may give — each checked by the rules before it
//! is offered, a refused one shown with its rule and reason. Moves are given
//! by clicking the table (`view::picking`).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::battle_panels::Selected;
use crate::{
    battle::{
        command::{Command, Inbox},
        options::{Decision, along, decision},
        state::{Battle, Fielded},
    },
    states::AppState,
    view::TableClick,
};

/// The decision waiting for the person at the screen, refreshed each frame.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Waiting(pub Option<Decision>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Waiting>()
        .add_systems(Update, refresh.run_if(in_state(AppState::Battle).and_then(resource_exists::<Battle>)))
        .add_systems(
            EguiPrimaryContextPass,
            orders_window.run_if(in_state(AppState::Battle).and_then(resource_exists::<Battle>)),
        );
}

/// Reads the flow's decision; selects the element it concerns when it changes.
fn refresh(world: &mut World) {
    let now = decision(world);
    let before = world.resource::<Waiting>().0.clone();
    let acting = |d: &Option<Decision>| match d {
        Some(Decision::Act { element, .. } | Decision::Seize { element, .. }) => Some(element.clone()),
        _ => None,
    };
    if acting(&now) != acting(&before)
        && let Some(element) = acting(&now)
    {
        world.resource_mut::<Selected>().0 = Some(element);
    }
    if now != before {
        world.resource_mut::<Waiting>().0 = now;
    }
}

fn orders_window(
    mut contexts: EguiContexts,
    waiting: Res<Waiting>,
    battle: Res<Battle>,
    elements: Query<&Fielded>,
    mut inbox: ResMut<Inbox>,
    mut click: ResMut<TableClick>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let mut give = |cmd: Command, click: &mut TableClick| {
        inbox.0.push_back(cmd);
        *click = TableClick::Select;
    };
    egui::Window::new("Orders")
        .anchor(egui::Align2::RIGHT_BOTTOM, [-10.0, -28.0])
        .default_width(300.0)
        .resizable(false)
        .show(ctx, |ui| match &waiting.0 {
            None => {
                let demo = !battle.start.control.contains(&crate::battle::setup::Control::Player);
                let text = match &battle.result {
                    Some(r) => format!("The battle is over: {:?}.", r.decided_by),
                    None if demo => "A demonstration: the program plays both sides.".to_owned(),
                    None => "The enemy acts…".to_owned(),
                };
                ui.label(text);
            }
            Some(Decision::Act { element, orders, pending, move_refused, offers }) => {
                ui.heading(element);
                ui.label(egui::RichText::new(orders).small());
                ui.separator();
                let at = elements.iter().find(|f| f.id() == element).map(|f| (f.at.0, f.at.1));
                match pending {
                    Some(p) => {
                        ui.label(format!("Movement Dice: up to {:.1}\". Click the table where it stops.", p.allowance));
                        if let Some(from) = at
                            && ui.button("Go the full distance").clicked()
                        {
                            let to = along(from, p.to, p.allowance);
                            give(Command::MoveTo { element: element.clone(), to }, &mut click);
                        }
                    }
                    None => {
                        let moving = *click == TableClick::Move;
                        let label = if moving { "Move: click the table…" } else { "Move…" };
                        let button = ui.add_enabled(move_refused.is_none(), egui::Button::selectable(moving, label));
                        let button = match move_refused {
                            Some(why) => button.on_disabled_hover_text(why),
                            None => button.on_hover_text("Declare the route: click where it goes"),
                        };
                        if button.clicked() {
                            *click = if moving { TableClick::Select } else { TableClick::Move };
                        }
                    }
                }
                for offer in offers {
                    let button = ui.add_enabled(offer.refused.is_none(), egui::Button::new(&offer.label));
                    let button = match &offer.refused {
                        Some(why) => button.on_disabled_hover_text(why),
                        None => button,
                    };
                    if button.clicked() {
                        give(offer.command.clone(), &mut click);
                    }
                }
                ui.label(egui::RichText::new("Enter ends the turn").small().color(egui::Color32::from_gray(150)));
            }
            Some(Decision::CoTurn { company, command }) => {
                ui.heading(format!("{company}: Company Officer"));
                if let Command::Command { rally, .. } = command {
                    ui.label(if rally.is_empty() {
                        "Orders stand; no element needs rallying.".to_owned()
                    } else {
                        format!("Orders stand; rally {}.", rally.join(", "))
                    });
                }
                if ui.button("Carry on").clicked() {
                    give(command.clone(), &mut click);
                }
            }
            Some(Decision::Session { side, keep, commit_all }) => {
                ui.heading(format!("Senior Officer's session (side {})", side + 1));
                if ui.button("Keep the reserves back").clicked() {
                    give(keep.clone(), &mut click);
                }
                if let Some(commit) = commit_all
                    && ui.button("Commit every reserve").clicked()
                {
                    give(commit.clone(), &mut click);
                }
            }
            Some(Decision::Seize { element, command }) => {
                ui.heading(format!("{element} seized the initiative"));
                if ui.button("Act as ordered now").clicked() {
                    give(command.clone(), &mut click);
                }
            }
        });
}
