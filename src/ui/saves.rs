//! Named saves and undo on screen: Save… (a name, then a file in the saves
//! folder of the data directory), Load… (the folder's saves, newest first;
//! one that cannot be read is listed greyed with its error), and Undo (the
//! key, or the pause menu's button) taking back the Player's last command.
//!
//! Loading from the title resumes the save as Continue does (the battle
//! screen's `Resume`); loading or undoing in battle restarts the battle in
//! place ([`battle::restart`]) without leaving the screen. From the title,
//! Load… also lists the campaigns saved by name (the campaign map's Save…),
//! and loading one goes on with that campaign.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui, input::EguiWantsInput};
use leafwing_input_manager::prelude::ActionState;

use super::{centre_panel, menu_button};
use crate::battle::Selected;
use crate::{
    battle::{
        self, Replaying, Resume, StartBattle,
        command::CommandRecord,
        save::{self, Save, SaveEntry},
        state::Battle,
    },
    data::LoadedScenario,
    input::UiAction,
    launch::Notices,
    states::{AppState, Menu},
    view::{LastSeen, TableClick, TableRoot},
};

/// What the player asked of the saves, carried out by [`apply`] with the
/// whole world in hand.
#[derive(Resource, Debug, Default)]
pub(super) enum Request {
    #[default]
    None,
    /// Take back the Player's last command.
    Undo,
    /// Put this save's battle on the table.
    Load(Box<Save>),
}

/// The last thing Save… or Load… did, shown in the pause menu.
#[derive(Resource, Debug, Default, Clone)]
pub(super) struct Status(pub Option<String>);

/// The name typed in Save…, and the saves folder.
#[derive(Resource, Debug, Default)]
struct SaveForm {
    name: String,
    problem: Option<String>,
}

/// The saves folder as listed on opening Load….
#[derive(Resource, Debug, Default)]
struct Listing {
    dir: Option<PathBuf>,
    entries: Vec<SaveEntry>,
    /// The campaigns saved by name (offered from the title).
    campaigns: Vec<warbound_war::save::CampaignEntry>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Request>()
        .init_resource::<Status>()
        .init_resource::<SaveForm>()
        .init_resource::<Listing>()
        .add_systems(OnEnter(Menu::SaveAs), name_the_save)
        .add_systems(OnEnter(Menu::LoadSave), list_saves)
        .add_systems(OnExit(AppState::Battle), forget_status)
        .add_systems(
            Update,
            (undo_key.run_if(in_state(AppState::Battle).and_then(in_state(Menu::Closed))), apply).chain(),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (save_window.run_if(in_state(Menu::SaveAs)), load_window.run_if(in_state(Menu::LoadSave))),
        );
}

fn forget_status(mut status: ResMut<Status>) {
    status.0 = None;
}

/// Offers the scenario's name and the bound as the save's name.
fn name_the_save(
    mut form: ResMut<SaveForm>,
    battle: Option<Res<Battle>>,
    record: Option<Res<CommandRecord>>,
    build: Res<save::BuildStamp>,
) {
    form.problem = None;
    if let (Some(battle), Some(record)) = (battle, record) {
        form.name = save::default_name(&save::save_of(&battle, &record, &build));
    }
}

fn list_saves(mut listing: ResMut<Listing>) {
    listing.dir = battle::saves_dir();
    listing.entries = match (listing.dir.as_deref(), crate::data::codex()) {
        (Some(dir), Ok(codex)) => save::list(dir, codex),
        _ => Vec::new(),
    };
    listing.campaigns = crate::campaign::saves_dir().map(|d| warbound_war::save::list(&d)).unwrap_or_default();
}

/// The Undo key at the table (not while a text field has the keyboard).
fn undo_key(actions: Single<&ActionState<UiAction>>, egui: Option<Res<EguiWantsInput>>, mut request: ResMut<Request>) {
    if actions.just_pressed(&UiAction::Undo) && !egui.is_some_and(|e| e.wants_any_keyboard_input()) {
        *request = Request::Undo;
    }
}

/// Carries out the request: undo or load in place in battle, load through
/// the battle screen's `Resume` from the title.
fn apply(world: &mut World) {
    let request = std::mem::take(&mut *world.resource_mut::<Request>());
    let screen = *world.resource::<State<AppState>>().get();
    let outcome = match (request, screen) {
        (Request::None, _) => return,
        (Request::Undo, AppState::Battle) => match battle::undo(world) {
            Ok(true) => Ok("Took back the last command.".to_owned()),
            Ok(false) => return,
            Err(e) => Err(format!("Cannot undo: {e}")),
        },
        (Request::Undo, _) => return,
        // The campaign map loads campaigns, not battles.
        (Request::Load(_), AppState::Campaign) => return,
        (Request::Load(saved), AppState::Title) => {
            let scenario =
                LoadedScenario { source: saved.start.source.clone(), scenario: saved.start.scenario.clone() };
            world.insert_resource(Resume(Some(*saved)));
            world.write_message(StartBattle(scenario));
            world.resource_mut::<NextState<Menu>>().set(Menu::Closed);
            return;
        }
        (Request::Load(saved), AppState::Battle) => {
            let name = format!("{}, bound {}", saved.start.scenario.name, saved.bound);
            // Another scenario may need another table and terrain: the table is built afresh.
            let tables: Vec<Entity> = world.query_filtered::<Entity, With<TableRoot>>().iter(world).collect();
            for t in tables {
                world.despawn(t);
            }
            if let Some(mut selected) = world.get_resource_mut::<Selected>() {
                selected.0 = None;
            }
            match battle::restart(world, *saved) {
                Ok(()) => Ok(format!("Loaded {name}.")),
                Err(e) => {
                    // Nothing is left on the table to go back to: the title, and the reason.
                    let text = format!("Cannot load {name}: {e}");
                    if let Some(mut notices) = world.get_resource_mut::<Notices>() {
                        notices.0.push(text.clone());
                    }
                    world.resource_mut::<NextState<AppState>>().set(AppState::Title);
                    Err(text)
                }
            }
        }
    };
    // What the table showed of the battle taken back goes with it.
    if let Some(mut seen) = world.get_resource_mut::<LastSeen>() {
        seen.0.clear();
    }
    if let Some(mut click) = world.get_resource_mut::<TableClick>() {
        *click = TableClick::default();
    }
    let text = match outcome {
        Ok(t) => {
            info!("{t}");
            t
        }
        Err(e) => {
            error!("{e}");
            e
        }
    };
    world.resource_mut::<Status>().0 = Some(text);
    // The replay runs only while no menu is open over the battle.
    world.resource_mut::<NextState<Menu>>().set(Menu::Closed);
}

/// Save…: the name, the file it becomes, Save and Back. A name already
/// used is said so beside the button, and saving replaces that file
/// atomically (written beside it, then renamed over it): no second prompt,
/// and never a half-written save.
#[allow(clippy::too_many_arguments)]
fn save_window(
    mut contexts: EguiContexts,
    mut form: ResMut<SaveForm>,
    mut status: ResMut<Status>,
    mut menu: ResMut<NextState<Menu>>,
    battle: Option<Res<Battle>>,
    record: Option<Res<CommandRecord>>,
    replay: Option<Res<Replaying>>,
    build: Res<save::BuildStamp>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let dir = battle::saves_dir();
    let blocked = if replay.is_some_and(|r| !r.commands.is_empty()) {
        Some("The battle is still being replayed.")
    } else if battle.is_none() || record.is_none() {
        Some("There is no battle on the table.")
    } else {
        None
    };
    let mut answer = None;
    centre_panel(ctx, "save-as", |ui| answer = save_form_ui(ui, &mut form, dir.as_deref(), blocked));
    match answer {
        Some(FormAnswer::Back) => menu.set(Menu::Pause),
        Some(FormAnswer::Save) => {
            let (Some(dir), Some(battle), Some(record)) = (&dir, &battle, &record) else { return };
            match save::write_named(dir, &form.name, &save::save_of(battle, record, &build)) {
                Ok(p) => {
                    status.0 = Some(format!("Saved to {}", p.display()));
                    menu.set(Menu::Pause);
                }
                Err(e) => form.problem = Some(format!("Could not save: {e}")),
            }
        }
        None => {}
    }
}

/// What the player did in the Save… form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FormAnswer {
    Save,
    Back,
}

/// The Save… form: the name, the file it becomes in `dir` (and whether it
/// replaces one), Save (or Enter) unless `blocked` says why not, and Back.
fn save_form_ui(
    ui: &mut egui::Ui,
    form: &mut SaveForm,
    dir: Option<&std::path::Path>,
    blocked: Option<&str>,
) -> Option<FormAnswer> {
    let mut answer = None;
    ui.set_width(480.0);
    ui.heading(egui::RichText::new("Save the battle").size(28.0));
    ui.add_space(12.0);
    ui.horizontal(|ui| {
        ui.label("Name");
        ui.add(egui::TextEdit::singleline(&mut form.name).desired_width(360.0)).request_focus();
    });
    let path = dir.map(|d| save::named_path(d, &form.name));
    match &path {
        Some(p) => {
            ui.label(egui::RichText::new(p.display().to_string()).small().color(egui::Color32::from_gray(170)));
            if p.exists() {
                ui.colored_label(
                    egui::Color32::from_rgb(230, 190, 90),
                    "A save of this name exists: saving replaces it.",
                );
            }
        }
        None => {
            ui.colored_label(egui::Color32::LIGHT_RED, "This system has no data directory to save to.");
        }
    }
    if let Some(p) = &form.problem {
        ui.colored_label(egui::Color32::LIGHT_RED, p);
    }
    ui.add_space(12.0);
    let ready = path.is_some() && blocked.is_none();
    let button = menu_button(ui, ready, "Save");
    let button = match blocked {
        Some(why) => button.on_disabled_hover_text(why),
        None => button,
    };
    let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
    if ready && (button.clicked() || enter) {
        answer = Some(FormAnswer::Save);
    }
    ui.add_space(6.0);
    if menu_button(ui, true, "Back").clicked() {
        answer = Some(FormAnswer::Back);
    }
    answer
}

/// Load…: every save in the folder, newest first; Load on a good one.
fn load_window(
    mut contexts: EguiContexts,
    listing: ResMut<Listing>,
    mut request: ResMut<Request>,
    mut menu: ResMut<NextState<Menu>>,
    screen: Res<State<AppState>>,
    mut campaign: MessageWriter<crate::war::ResumeCampaign>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let mut refresh = false;
    centre_panel(ctx, "load-save", |ui| {
        ui.set_width(620.0);
        ui.heading(egui::RichText::new("Load a battle").size(28.0));
        ui.add_space(12.0);
        match &listing.dir {
            None => {
                ui.label("This system has no data directory to keep saves in.");
            }
            Some(dir) if listing.entries.is_empty() => {
                ui.label(format!("No saves yet in {}.", dir.display()));
            }
            Some(_) => {
                egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
                    if let Some(chosen) = saves_list_ui(ui, &listing.entries) {
                        *request = Request::Load(Box::new(chosen));
                    }
                });
            }
        }
        if *screen.get() == AppState::Title && !listing.campaigns.is_empty() {
            ui.add_space(12.0);
            ui.heading(egui::RichText::new("Load a campaign").size(24.0));
            egui::ScrollArea::vertical().id_salt("campaign-saves").max_height(260.0).show(ui, |ui| {
                if let Some(chosen) = campaign_saves_ui(ui, &listing.campaigns) {
                    campaign.write(crate::war::ResumeCampaign(chosen));
                    menu.set(Menu::Closed);
                }
            });
        }
        ui.add_space(12.0);
        ui.horizontal(|ui| {
            if ui.button("Refresh").clicked() {
                refresh = true;
            }
            if ui.button("Back").clicked() {
                menu.set(Menu::LoadSave.back(*screen.get()));
            }
        });
    });
    if refresh {
        list_saves(listing);
    }
}

/// The campaign saves, in the order given, as [`entries_ui`] lists them:
/// each with its campaign, its date in the campaign and the battles of the
/// player's on the table.
pub(super) fn campaign_saves_ui(
    ui: &mut egui::Ui,
    entries: &[warbound_war::save::CampaignEntry],
) -> Option<warbound_war::save::CampaignSave> {
    entries_ui(ui, entries, |s, date| {
        let c = &s.progress.campaign;
        let battles = match s.commands.len() {
            0 => String::new(),
            n => format!(" · {n} battle(s) of yours on the table"),
        };
        format!("{}, {}{battles} · saved {date}", c.file.name, c.date)
    })
}

/// The battle saves, in the order given, as [`entries_ui`] lists them: each
/// with its scenario, bound and commands.
fn saves_list_ui(ui: &mut egui::Ui, entries: &[SaveEntry]) -> Option<Save> {
    entries_ui(ui, entries, |s, date| {
        format!("{}, bound {} · {} commands · {date}", s.start.scenario.name, s.bound, s.commands.len())
    })
}

/// Saves in the order given: a good one with its name, what `describe`
/// says of it (given its file's date) and Load; a bad one greyed with its
/// error and no Load. Returns the save whose Load was clicked.
fn entries_ui<T: Clone>(
    ui: &mut egui::Ui,
    entries: &[save::Entry<T>],
    describe: impl Fn(&T, String) -> String,
) -> Option<T> {
    let grey = egui::Color32::from_gray(130);
    let mut chosen = None;
    for entry in entries {
        match &entry.save {
            Ok(s) => {
                ui.horizontal(|ui| {
                    ui.vertical(|ui| {
                        ui.label(egui::RichText::new(&entry.name).size(20.0).strong());
                        ui.label(describe(s, entry.date()));
                    });
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        if ui.button(egui::RichText::new("Load").size(18.0)).clicked() {
                            chosen = Some(s.clone());
                        }
                    });
                });
            }
            Err(e) => {
                ui.label(egui::RichText::new(&entry.name).size(20.0).color(grey));
                ui.label(egui::RichText::new(entry.date()).color(grey));
                ui.label(egui::RichText::new(e).small().color(grey)).on_hover_text("This file cannot be loaded.");
            }
        }
        ui.separator();
    }
    chosen
}

#[cfg(test)]
mod tests {
    use egui_kittest::{Harness, kittest::Queryable};

    use super::*;
    use crate::battle::setup::BattleStart;

    fn entries() -> Vec<SaveEntry> {
        let loaded = crate::data::load_scenario("patrol").unwrap();
        let good = Save {
            build: "t".into(),
            start: BattleStart::auto("patrol", loaded.scenario, 3),
            commands: vec![],
            bound: 4,
        };
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
        vec![
            SaveEntry {
                path: "saves/broken.ron".into(),
                name: "broken".into(),
                modified: Some(at),
                save: Err("saves/broken.ron:3:10: Expected struct".into()),
            },
            SaveEntry { path: "saves/lane.ron".into(), name: "lane".into(), modified: Some(at), save: Ok(good) },
        ]
    }

    fn harness(entries: Vec<SaveEntry>) -> Harness<'static, Option<Save>> {
        Harness::new_ui_state(
            move |ui, chosen: &mut Option<Save>| {
                if let Some(s) = saves_list_ui(ui, &entries) {
                    *chosen = Some(s);
                }
            },
            None,
        )
    }

    fn form(
        name: &str,
        dir: PathBuf,
        blocked: Option<&'static str>,
    ) -> Harness<'static, (SaveForm, Option<FormAnswer>)> {
        Harness::new_ui_state(
            move |ui, (form, answer): &mut (SaveForm, Option<FormAnswer>)| {
                if let Some(a) = save_form_ui(ui, form, Some(&dir), blocked) {
                    *answer = Some(a);
                }
            },
            (SaveForm { name: name.to_owned(), problem: None }, None),
        )
    }

    #[test]
    fn the_save_form_names_the_file_warns_of_a_replaced_one_and_saves() {
        let dir = std::env::temp_dir().join(format!("warbound-saveform-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("Patrol bound 2.ron"), "()").unwrap();
        let mut h = form("Patrol bound 2", dir.clone(), None);
        h.get_by_label(&dir.join("Patrol bound 2.ron").display().to_string());
        h.get_by_label("A save of this name exists: saving replaces it.");
        h.get_by_label("Save").click();
        h.run();
        assert_eq!(h.state().1, Some(FormAnswer::Save));

        let mut h = form("a/b", dir.clone(), None);
        h.get_by_label(&dir.join("a_b.ron").display().to_string());
        assert!(h.query_by_label("A save of this name exists: saving replaces it.").is_none());
        h.get_by_label("Back").click();
        h.run();
        assert_eq!(h.state().1, Some(FormAnswer::Back));

        let mut h = form("x", dir, Some("The battle is still being replayed."));
        h.get_by_label("Save").click();
        h.run();
        assert_eq!(h.state().1, None, "no save while the battle is replayed");
    }

    #[test]
    fn a_broken_campaign_save_is_listed_with_its_error_and_a_good_one_loads() {
        use warbound_war::save::{CampaignEntry, CampaignSave};
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let good = CampaignSave::of(&war.progress);
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
        let entries = vec![
            CampaignEntry {
                path: "campaigns/broken.ron".into(),
                name: "broken".into(),
                modified: Some(at),
                save: Err("campaigns/broken.ron:2:1: version: expected a number".into()),
            },
            CampaignEntry {
                path: "campaigns/landing.ron".into(),
                name: "landing".into(),
                modified: Some(at),
                save: Ok(good),
            },
        ];
        let mut h = Harness::new_ui_state(
            move |ui, chosen: &mut Option<CampaignSave>| {
                if let Some(s) = campaign_saves_ui(ui, &entries) {
                    *chosen = Some(s);
                }
            },
            None,
        );
        h.get_by_label("campaigns/broken.ron:2:1: version: expected a number");
        let loads = h.query_all_by_label("Load").count();
        assert_eq!(loads, 1, "only the good save offers Load");
        h.get_by_label("Load").click();
        h.run();
        let chosen = h.state().as_ref().expect("the good save chosen");
        assert_eq!(chosen.progress.campaign.file.name, war.progress.campaign.file.name);
    }

    /// The whole game without a window, in a patrol battle, settled at the Player's first decision.
    fn game() -> App {
        let mut app = crate::app::full_app(crate::app::FullAppOptions {
            settings: crate::settings::Settings::default(),
            screenshot: None,
            bench: None,
            scenario: Some(crate::data::load_scenario("patrol").unwrap()),
            windowed: false,
        });
        settle(&mut app);
        app
    }

    fn settle(app: &mut App) {
        for _ in 0..10_000 {
            app.update();
            let w = app.world();
            if !battle::replaying(w) && (battle::play::waiting_for_player(w) || battle::play::is_over(w)) {
                return;
            }
        }
        panic!("the battle did not settle");
    }

    #[test]
    fn loading_in_battle_lays_the_saved_battle_on_a_new_table_and_the_menu_undo_closes_the_menu() {
        let mut app = game();
        let table = app.world_mut().query_filtered::<Entity, With<TableRoot>>().single(app.world()).unwrap();
        // Another seed's battle, one command in.
        let mut other = battle::battle_app(
            {
                let mut start = BattleStart::auto("patrol", crate::data::load_scenario("patrol").unwrap().scenario, 99);
                start.control[0] = battle::setup::Control::Player;
                start
            },
            Default::default(),
        )
        .unwrap();
        battle::play::advance(&mut other).unwrap();
        let Some(d) = battle::options::decision(other.world_mut()) else { panic!("a decision") };
        let cmd = match d {
            battle::options::Decision::Act { offers, .. } => offers.last().unwrap().command.clone(),
            battle::options::Decision::CoTurn { command, .. } | battle::options::Decision::Seize { command, .. } => {
                command
            }
            battle::options::Decision::Session { keep, .. } => keep,
        };
        battle::play::command(&mut other, cmd).unwrap();
        let saved = save::snapshot(other.world()).unwrap();
        app.world_mut().resource_mut::<Selected>().0 = Some("x".into());
        *app.world_mut().resource_mut::<Request>() = Request::Load(Box::new(saved.clone()));
        settle(&mut app);
        for _ in 0..3 {
            app.update();
        }
        let world = app.world_mut();
        assert_eq!(save::snapshot(world).unwrap().commands, saved.commands);
        assert_eq!(world.resource::<Battle>().start.seed, 99);
        assert_ne!(world.resource::<Selected>().0.as_deref(), Some("x"), "the old selection is gone");
        let tables: Vec<Entity> = world.query_filtered::<Entity, With<TableRoot>>().iter(world).collect();
        assert_eq!(tables.len(), 1);
        assert_ne!(tables[0], table, "a new table");
        assert!(world.query::<&crate::view::TerrainPiece>().iter(world).count() > 0, "the terrain laid on it");
        let elements = world.query::<&battle::state::Identity>().iter(world).count();
        assert_eq!(world.query::<&crate::view::ElementModel>().iter(world).count(), elements);
        assert!(world.resource::<Status>().0.as_deref().is_some_and(|s| s.starts_with("Loaded")));

        // Undo from the pause menu closes it, so the replay runs.
        world.resource_mut::<NextState<Menu>>().set(Menu::Pause);
        app.update();
        *app.world_mut().resource_mut::<Request>() = Request::Undo;
        settle(&mut app);
        app.update();
        assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::Closed);
        assert!(save::snapshot(app.world()).unwrap().commands.is_empty(), "the one command taken back");
    }

    #[test]
    fn a_bad_save_shows_its_error_and_only_a_good_one_loads() {
        let list = entries();
        let mut h = harness(list.clone());
        h.get_by_label("saves/broken.ron:3:10: Expected struct");
        h.get_by_label("broken");
        h.get_by_label("lane");
        assert_eq!(h.get_all_by_label("Load").count(), 1, "the bad save offers no Load");
        h.get_by_label("Load").click();
        h.run();
        assert_eq!(h.state().as_ref(), list[1].save.as_ref().ok());
    }
}
