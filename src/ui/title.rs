//! Title screen: the name, the main menu, and the battle picker.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::{centre_panel, menu_button};
use crate::{
    battle::{
        Resume, StartBattle, autosave_path,
        save::{Save, read},
    },
    data::{self, LoadedScenario},
    states::{AppState, Menu},
    war::{ResumeCampaign, StartCampaign},
};
use warbound_campaign::map::common::Side;

/// The autosave, read on coming to the title (it changes only in battle).
#[derive(Resource, Debug, Clone)]
pub struct SavedGame(pub Result<Save, String>);

impl Default for SavedGame {
    fn default() -> Self {
        Self(Err("No battle has been saved yet.".to_owned()))
    }
}

/// The campaign autosave, read on coming to the title; and the campaigns
/// saved by name, newest first, each read or with why it cannot be.
#[derive(Resource, Debug, Clone)]
pub struct SavedCampaign {
    pub autosave: Result<warbound_war::save::CampaignSave, String>,
    pub named: Vec<warbound_war::save::CampaignEntry>,
    /// Continue picks up the campaign: its autosave was written after the battle's.
    pub newest: bool,
}

impl Default for SavedCampaign {
    fn default() -> Self {
        Self { autosave: Err("No campaign has been saved yet.".to_owned()), named: Vec::new(), newest: false }
    }
}

fn modified(path: Option<&std::path::Path>) -> Option<std::time::SystemTime> {
    path.and_then(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
}

fn read_campaign_autosave(mut saved: ResMut<SavedCampaign>) {
    saved.autosave = match crate::campaign::autosave_path().filter(|p| p.exists()) {
        Some(path) => warbound_war::save::read(&path),
        None => Err("No campaign has been saved yet.".to_owned()),
    };
    saved.named = crate::campaign::saves_dir().map(|d| warbound_war::save::list(&d)).unwrap_or_default();
}

/// The battle autosave; and which of the two Continue picks up: the one
/// written last.
fn read_autosave(mut saved: ResMut<SavedGame>, mut campaign: ResMut<SavedCampaign>) {
    saved.0 = match autosave_path().filter(|p| p.exists()) {
        Some(path) => data::codex().map_err(|e| e.to_string()).and_then(|codex| read(&path, codex)),
        None => Err("No battle has been saved yet.".to_owned()),
    };
    let battle = saved.0.is_ok().then(|| modified(autosave_path().as_deref())).flatten();
    let war = campaign.autosave.is_ok().then(|| modified(crate::campaign::autosave_path().as_deref())).flatten();
    campaign.newest = campaign.autosave.is_ok() && (saved.0.is_err() || war > battle);
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SavedGame>()
        .init_resource::<SavedCampaign>()
        .add_systems(OnEnter(AppState::Title), (read_campaign_autosave, read_autosave).chain());
    app.add_systems(
        EguiPrimaryContextPass,
        (
            main_menu.run_if(in_state(AppState::Title).and_then(in_state(Menu::Closed))),
            picker.run_if(in_state(Menu::ScenarioPicker)),
            campaign_picker.run_if(in_state(Menu::CampaignPicker)),
        ),
    );
}

#[allow(clippy::too_many_arguments)] // a system: each argument is one resource it reads or one message it sends
fn main_menu(
    mut contexts: EguiContexts,
    mut menu: ResMut<NextState<Menu>>,
    mut exit: MessageWriter<AppExit>,
    mut commands: Commands,
    mut start: MessageWriter<StartBattle>,
    mut resume_campaign: MessageWriter<ResumeCampaign>,
    saved: Res<SavedGame>,
    campaign: Res<SavedCampaign>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let saved = &saved.0;
    centre_panel(ctx, "main-menu", |ui| {
        ui.label(egui::RichText::new("WARBOUND").size(64.0).strong().color(egui::Color32::from_rgb(235, 220, 180)));
        ui.label(egui::RichText::new("Solo WW2 battles on a virtual table").size(18.0).italics());
        ui.label("Heroes All  ·  Fight Your Own Battles");
        ui.add_space(24.0);
        let resume = menu_button(ui, saved.is_ok() || campaign.newest, "Continue");
        let resume = match (&campaign.autosave, saved) {
            (Ok(c), _) if campaign.newest => resume
                .on_hover_text(format!("The campaign {}, {}", c.progress.campaign.file.name, c.progress.campaign.date)),
            (_, Ok(s)) => resume.on_hover_text(format!("{}, bound {}", s.start.scenario.name, s.bound)),
            (_, Err(why)) => resume.on_disabled_hover_text(why.as_str()),
        };
        if resume.clicked()
            && campaign.newest
            && let Ok(c) = &campaign.autosave
        {
            resume_campaign.write(ResumeCampaign(c.clone()));
        } else if resume.clicked()
            && let Ok(s) = saved
        {
            commands.insert_resource(Resume(Some(s.clone())));
            start.write(StartBattle(LoadedScenario {
                source: s.start.source.clone(),
                scenario: s.start.scenario.clone(),
            }));
        }
        ui.add_space(6.0);
        if menu_button(ui, true, "Load…").clicked() {
            menu.set(Menu::LoadSave);
        }
        ui.add_space(6.0);
        if menu_button(ui, true, "Battle").clicked() {
            menu.set(Menu::ScenarioPicker);
        }
        ui.add_space(6.0);
        if menu_button(ui, true, "Campaign")
            .on_hover_text("A Fight Your Own Wars campaign: the map, its battles on the table or on paper.")
            .clicked()
        {
            menu.set(Menu::CampaignPicker);
        }
        ui.add_space(6.0);
        if menu_button(ui, true, "Settings").clicked() {
            menu.set(Menu::Settings);
        }
        ui.add_space(6.0);
        if menu_button(ui, true, "Quit").clicked() {
            exit.write(AppExit::Success);
        }
    });
}

fn picker(
    mut contexts: EguiContexts,
    mut new: ResMut<crate::battle::NewBattle>,
    mut menu: ResMut<NextState<Menu>>,
    mut start: MessageWriter<StartBattle>,
    mut chosen: Local<Option<&'static str>>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let mut battles: Vec<_> = data::battle_scenarios().collect();
    // Smallest first: the patrol, the battle to learn on, heads the list; a
    // file that does not read goes last with its error.
    battles.sort_by_key(|(name, s)| (elements(s.as_ref().ok()), *name));
    // The first playable battle is chosen to begin with, so Start is one click away.
    let chosen = chosen.get_or_insert_with(|| battles.iter().find(|(_, s)| s.is_ok()).map_or("", |(n, _)| *n));
    centre_panel(ctx, "scenario-picker", |ui| {
        ui.set_width(520.0);
        ui.heading(egui::RichText::new("Choose a battle").size(28.0));
        ui.add_space(12.0);
        for (name, parsed) in &battles {
            match parsed {
                Ok(s) => {
                    let selected = *chosen == *name;
                    if ui.selectable_label(selected, egui::RichText::new(&s.name).size(22.0)).clicked() {
                        *chosen = name;
                    }
                    if selected {
                        ui.label(&s.briefing);
                        ui.label(
                            egui::RichText::new(format!("Table {}\" × {}\"", s.table.width, s.table.depth))
                                .color(egui::Color32::from_gray(170)),
                        );
                        who_commands(ui, s, &mut new);
                    }
                }
                Err(e) => {
                    ui.colored_label(egui::Color32::LIGHT_RED, format!("{name}: {e}"));
                }
            }
            ui.add_space(8.0);
        }
        ui.add_space(12.0);
        let ready = battles.iter().find(|(n, s)| *n == *chosen && s.is_ok());
        if menu_button(ui, ready.is_some(), "Start").clicked()
            && let Some((name, Ok(scenario))) = ready
        {
            start.write(StartBattle(LoadedScenario { source: (*name).to_owned(), scenario: scenario.clone() }));
            menu.set(Menu::Closed);
        }
        ui.add_space(6.0);
        if menu_button(ui, true, "Back").clicked() {
            menu.set(Menu::Closed);
        }
    });
}

/// The campaigns with their briefings, the army to command, and the
/// campaign saved last to go on with (or why it cannot be read).
fn campaign_picker(
    mut contexts: EguiContexts,
    mut menu: ResMut<NextState<Menu>>,
    mut start: MessageWriter<StartCampaign>,
    mut resume: MessageWriter<ResumeCampaign>,
    saved: Res<SavedCampaign>,
    new: Res<crate::battle::NewBattle>,
    mut chosen: Local<Option<(&'static str, Side)>>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let campaigns: Vec<_> = data::campaigns().collect();
    let chosen =
        chosen.get_or_insert_with(|| (campaigns.iter().find(|(_, c)| c.is_ok()).map_or("", |(n, _)| *n), Side::Blue));
    centre_panel(ctx, "campaign-picker", |ui| {
        ui.set_width(620.0);
        ui.heading(egui::RichText::new("Choose a campaign").size(28.0));
        ui.add_space(8.0);
        match &saved.autosave {
            Ok(s) => {
                let c = &s.progress.campaign;
                let label = format!("Go on with {}: {}", c.file.name, c.date);
                if menu_button(ui, true, &label).clicked() {
                    resume.write(ResumeCampaign(s.clone()));
                    menu.set(Menu::Closed);
                }
            }
            Err(why) if !why.starts_with("No campaign") => {
                ui.colored_label(egui::Color32::LIGHT_RED, format!("The saved campaign cannot be read: {why}"));
            }
            Err(_) => {}
        }
        if !saved.named.is_empty() {
            ui.collapsing(format!("Campaigns saved by name ({})", saved.named.len()), |ui| {
                egui::ScrollArea::vertical().id_salt("named-campaigns").max_height(200.0).show(ui, |ui| {
                    if let Some(s) = super::saves::campaign_saves_ui(ui, &saved.named) {
                        resume.write(ResumeCampaign(s));
                        menu.set(Menu::Closed);
                    }
                });
            });
        }
        ui.add_space(8.0);
        egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
            for (name, parsed) in &campaigns {
                match parsed {
                    Ok(c) => {
                        let selected = chosen.0 == *name;
                        if ui.selectable_label(selected, egui::RichText::new(&c.name).size(22.0)).clicked() {
                            chosen.0 = name;
                        }
                        if selected {
                            ui.label(&c.briefing);
                            ui.label(
                                egui::RichText::new(format!("{} days from {:?} {}", c.days, c.month, c.year))
                                    .color(egui::Color32::from_gray(170)),
                            );
                            ui.horizontal_wrapped(|ui| {
                                for army in &c.armies {
                                    let mine = chosen.1 == army.side;
                                    if ui.selectable_label(mine, format!("Command {}", army.name)).clicked() {
                                        chosen.1 = army.side;
                                    }
                                }
                            });
                        }
                    }
                    Err(e) => {
                        ui.colored_label(egui::Color32::LIGHT_RED, format!("{name}: {e}"));
                    }
                }
                ui.add_space(8.0);
            }
        });
        ui.add_space(12.0);
        let ready = campaigns.iter().find(|(n, c)| *n == chosen.0 && c.is_ok());
        if menu_button(ui, ready.is_some(), "Begin").clicked()
            && let Some((name, Ok(file))) = ready
        {
            start.write(StartCampaign {
                source: (*name).to_owned(),
                file: file.clone(),
                seed: new.seed,
                player: chosen.1,
            });
            menu.set(Menu::Closed);
        }
        ui.add_space(6.0);
        if menu_button(ui, true, "Back").clicked() {
            menu.set(Menu::Closed);
        }
    });
}

/// Who plays: the side the person at the screen commands against the
/// program (FYOB's solo game), or both sides by two players taking the screen
/// in turn (*Heroes All*'s 2-player Command Dice game).
fn who_commands(ui: &mut egui::Ui, s: &warbound_rules::scenario::Scenario, new: &mut crate::battle::NewBattle) {
    ui.horizontal_wrapped(|ui| {
        for (k, side) in s.sides.iter().enumerate() {
            let mine = !new.two_player && new.player == Some(k);
            if ui.selectable_label(mine, format!("Command {}", side.name)).clicked() {
                *new = crate::battle::NewBattle { player: Some(k), two_player: false, ..*new };
            }
        }
        let hotseat = ui
            .selectable_label(new.two_player, "Two players at this screen")
            .on_hover_text("Heroes All's 2-player game: each bound each player throws his Command Dice in turn.");
        if hotseat.clicked() {
            *new = crate::battle::NewBattle { player: Some(0), two_player: true, ..*new };
        }
    });
}

/// Elements in a battle, for the picker's order (`usize::MAX` for a file that does not read).
fn elements(scenario: Option<&warbound_rules::scenario::Scenario>) -> usize {
    scenario.map_or(usize::MAX, |s| s.sides.iter().flat_map(|side| &side.companies).map(|c| c.elements.len()).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picker_lists_the_patrol_first_and_every_battle_by_size() {
        let mut battles: Vec<_> = data::battle_scenarios().collect();
        battles.sort_by_key(|(name, s)| (elements(s.as_ref().ok()), *name));
        let sizes: Vec<usize> = battles.iter().map(|(_, s)| elements(s.as_ref().ok())).collect();
        assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
        assert!(battles[0].0.contains("patrol"), "{:?}", battles.iter().map(|b| b.0).collect::<Vec<_>>());
        assert_eq!(elements(None), usize::MAX);
    }
}
