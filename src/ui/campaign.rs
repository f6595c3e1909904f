//! The campaign map's panels: the calendar, session, light and weather along
//! the top with the buttons that advance the campaign; each army's
//! Strategic Morale and the player's battlegroups down the left, the chosen
//! one's record sheet under them, the enemy only as detected; the day's log
//! along the bottom; the battle due and how to fight it; the charts of the
//! campaign's days; the boards', links' and tokens' names over the map.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use warbound_campaign::{
    air::firing::ArmourWeapon,
    army::{
        commander::Traits,
        orders::{Condition, OrderKind},
    },
    map::{
        board::BoardId,
        common::{ForceKind, Side},
    },
    paper::{dunnigan::StrategicCondition, partisans::Standing},
    play::{
        Campaign, Command as MapCommand,
        composite::{IfOrder, Orders},
        concealment::may_conceal,
        intelligence::Question,
        state::{Force, Whereabouts},
    },
};
use warbound_rules::narrate::{armour_weapons, words};
use warbound_rules::strategic::StrategicCondition as MilestoneCondition;

use crate::{
    states::{AppState, Menu},
    view::{MAP_TILE, MapPlaces, Zoom, map_shown},
    war::{
        ActiveWar, AdvanceCampaign, CampaignOn, ChooseFight, CloseReport, GiveOrders, HoldInHarbour, MapOrder, Refight,
        Step,
    },
};

/// The force whose record sheet shows.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct SheetOf(pub Option<String>);

/// The campaign map's Save…: open or not, the name typed, and what the
/// last save did.
#[derive(Resource, Debug, Default, Clone)]
pub struct CampaignSaveForm {
    pub open: bool,
    pub name: String,
    pub said: Option<String>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SheetOf>().init_resource::<CampaignSaveForm>().add_systems(
        EguiPrimaryContextPass,
        (top_bar, save_window, forces, day_log, battle_due, report, charts, commanders, map_labels).chain().run_if(
            in_state(AppState::Campaign).and_then(in_state(Menu::Closed)).and_then(resource_exists::<CampaignOn>),
        ),
    );
}

/// A program word as the player reads it ("SandyBeach" → "Sandy beach").
fn say(v: impl std::fmt::Debug) -> String {
    words(&format!("{v:?}"))
}

/// A commander's two traits in words ("aggressive, hesitant").
fn traits_words(t: &Traits) -> String {
    format!("{}, {}", say(t.aggression), say(t.decisiveness)).to_lowercase()
}

fn side_colour(side: Side) -> egui::Color32 {
    match side {
        Side::Blue => egui::Color32::from_rgb(110, 160, 255),
        Side::Red => egui::Color32::from_rgb(255, 120, 100),
    }
}

fn condition_colour(c: StrategicCondition) -> egui::Color32 {
    match c {
        StrategicCondition::Green => egui::Color32::from_rgb(90, 200, 90),
        StrategicCondition::Amber => egui::Color32::from_rgb(240, 180, 40),
        StrategicCondition::Red => egui::Color32::from_rgb(230, 70, 60),
    }
}

/// The weather and light of the session the bar shows (the one to play
/// next, or the one whose battles wait) in words: daylight or night by the
/// season's sessions (FYOW 1.2), the moon beside it.
pub fn weather_line(c: &Campaign) -> String {
    let light = match c.date.light() {
        warbound_rules::day::Light::Daylight => "Daylight",
        warbound_rules::day::Light::Night => "Night",
    };
    let mut parts = vec![light.to_owned()];
    if let Some(today) = &c.today {
        if let Ok(spell) = today.spell(c.date.session()) {
            parts.push(say(spell.sky));
            parts.push(format!("moon: {}", say(spell.moon).to_lowercase()));
        }
        parts.push(format!("wind: {}", say(today.wind).to_lowercase()));
        parts.push(format!("rain/snow gauge {}", today.gauge_at_start));
    }
    parts.join(" · ")
}

/// The days forecast ahead (FYOW 25.4) in words, when the campaign
/// forecasts its weather.
fn forecast_line(c: &Campaign) -> Option<String> {
    if c.forecast.is_empty() {
        return None;
    }
    let days: Vec<String> = c
        .forecast
        .iter()
        .enumerate()
        .map(|(k, day)| {
            let when = if k == 0 { "tomorrow".to_owned() } else { format!("in {} days", k + 1) };
            let sky = day.spells.first().map(|s| say(s.sky).to_lowercase()).unwrap_or_default();
            format!("{when} {sky}, wind: {}", say(day.wind).to_lowercase())
        })
        .collect();
    Some(format!("Forecast: {}", days.join(" · ")))
}

fn top_bar(
    mut contexts: EguiContexts,
    war: NonSend<ActiveWar>,
    mut advance: MessageWriter<AdvanceCampaign>,
    mut screen: ResMut<NextState<AppState>>,
    mut form: ResMut<CampaignSaveForm>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let c = war.campaign();
    egui::Window::new("Campaign")
        .id(egui::Id::new("campaign-top"))
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 4.0])
        .show(ctx, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(&c.file.name).strong().size(20.0));
            ui.separator();
            ui.label(egui::RichText::new(c.date.to_string()).size(18.0));
            ui.label(format!("day {} of {}", c.day.max(1), c.file.days));
        });
        ui.horizontal_wrapped(|ui| {
            ui.label(weather_line(c));
            ui.separator();
            ui.label(format!("You command {}", c.army(war.player).name));
        });
        if let Some(forecast) = forecast_line(c) {
            ui.label(forecast).on_hover_text(
                "Weather Forecasting (FYOW 25.4): on the day two D6 may make the weather one number better or worse and change the wind.",
            );
        }
        let order = c.activation_order();
        if !order.is_empty() {
            ui.collapsing(format!("Battlegroup Priority Cards, as they came up ({})", order.len()), |ui| {
                ui.label(order.iter().enumerate().map(|(k, n)| format!("{}. {n}", k + 1)).collect::<Vec<_>>().join("   "));
            });
        }
        let mine = war.commanders();
        let (his, theirs): (Vec<_>, Vec<_>) =
            c.diary.cards().iter().partition(|(_, card)| mine.contains(&card.owner) || card.owner == c.army(war.player).name);
        ui.collapsing(format!("Diary Box: {} cards filed (FYOW 5)", c.diary.len()), |ui| {
            for (date, card) in &his {
                ui.label(format!("{date}: {}, {}", card.owner, card.text));
            }
            if !theirs.is_empty() {
                ui.label(format!("{} of the enemy's, face down", theirs.len()));
            }
            if c.diary.is_empty() {
                ui.label("The box is empty.");
            }
        });
        ui.horizontal(|ui| {
            let ready = war.step == Step::Map && !war.war.ended() && !war.to_day_end;
            let next = ui.add_enabled(ready, egui::Button::new("Next session"));
            if next.on_hover_text("Deals the session's Battlegroup Priority Cards (FYOW 4.5): every commander acts in turn, then the battles due are fought.").clicked() {
                advance.write(AdvanceCampaign { to_day_end: false });
            }
            let day = ui.add_enabled(ready, egui::Button::new("To the end of the day"));
            if day.on_hover_text("Plays the day's sessions one after another, stopping for each battle.").clicked() {
                advance.write(AdvanceCampaign { to_day_end: true });
            }
            ui.separator();
            let save = ui.add_enabled(war.step == Step::Map, egui::Button::new("Save…"));
            if save.on_disabled_hover_text("Between sessions: finish the session's battles first.").clicked() {
                form.open = true;
                form.name = warbound_war::save::default_name(&war.save());
            }
            if ui.button("Title").on_hover_text("The campaign is saved after every session: Continue picks it up.").clicked() {
                screen.set(AppState::Title);
            }
            if war.to_day_end {
                ui.spinner();
                ui.label(format!("session {} of 6…", war.war.progress.sessions_today + 1));
            }
            if let Some(end) = &c.ended {
                let winner = end.winner.map_or("nobody".to_owned(), |s| c.army(s).name.clone());
                ui.label(egui::RichText::new(format!("The campaign is over: {}. {winner} wins.", end.reason)).strong());
            }
            if let Some(said) = form.said.as_ref().filter(|_| !form.open) {
                ui.label(egui::RichText::new(said).italics());
            }
            if let Some(why) = &war.save_failed {
                ui.colored_label(egui::Color32::LIGHT_RED, format!("Autosave failed: {why}"));
            }
        });
    });
}

/// Save…: the campaign under a name in the campaigns folder, with any
/// battle of the player's kept on the table (its commands replay it).
fn save_window(mut contexts: EguiContexts, war: NonSend<ActiveWar>, mut form: ResMut<CampaignSaveForm>) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    if !form.open {
        return;
    }
    let dir = crate::campaign::saves_dir();
    egui::Window::new("Save the campaign").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).collapsible(false).show(
        ctx,
        |ui| {
            ui.horizontal(|ui| {
                ui.label("Name");
                ui.add(egui::TextEdit::singleline(&mut form.name).desired_width(320.0));
            });
            match &dir {
                Some(d) => {
                    let path = warbound_battle::save::named_path(d, &form.name);
                    ui.label(
                        egui::RichText::new(path.display().to_string()).small().color(egui::Color32::from_gray(170)),
                    );
                    if path.exists() {
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
            if let Some(said) = &form.said {
                ui.label(said);
            }
            ui.horizontal(|ui| {
                if ui.add_enabled(dir.is_some(), egui::Button::new("Save")).clicked()
                    && let Some(d) = &dir
                {
                    form.said = Some(match warbound_war::save::write_named(d, &form.name, &war.save()) {
                        Ok(p) => {
                            form.open = false;
                            format!("Saved to {}", p.display())
                        }
                        Err(e) => format!("Could not save: {e}"),
                    });
                }
                if ui.button("Close").clicked() {
                    form.open = false;
                }
            });
        },
    );
}

fn forces(
    mut contexts: EguiContexts,
    war: NonSend<ActiveWar>,
    mut sheet: ResMut<SheetOf>,
    mut give: MessageWriter<GiveOrders>,
    mut harbour: MessageWriter<HoldInHarbour>,
    mut map_order: MessageWriter<MapOrder>,
    mut drafts: Local<(Option<Draft>, Detach)>,
) {
    let (draft, detach) = &mut *drafts;
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let c = war.campaign();
    egui::Window::new("Forces")
        .anchor(egui::Align2::LEFT_TOP, [4.0, 4.0])
        .default_width(330.0)
        .default_height(480.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading("Strategic Morale");
                for army in &c.armies {
                    ui.colored_label(side_colour(army.side), format!("{}: {}", army.name, army.morale.score));
                }
                ui.separator();
                ui.heading("Your forces");
                for f in c.forces.iter().filter(|f| f.side == war.player && !f.is_gone()) {
                    let at = whereabouts(f);
                    ui.horizontal(|ui| {
                        let chosen = sheet.0.as_deref() == Some(f.name.as_str());
                        if ui.selectable_label(chosen, format!("{} ({} pts), {at}", f.name, f.points())).clicked() {
                            sheet.0 = Some(f.name.clone());
                        }
                        ui.colored_label(condition_colour(f.condition), say(f.condition));
                    });
                    if let Some(landing) = coming_ashore(c, f) {
                        ui.label(format!("  {landing}"));
                    }
                }
                coastal_batteries(ui, c, war.player);
                match fleet(ui, c, war.player) {
                    Some(MapCommand::Harbour { vessel, hold }) => {
                        harbour.write(HoldInHarbour { vessel, hold });
                    }
                    Some(order) => {
                        map_order.write(MapOrder(order));
                    }
                    None => {}
                }
                if let Some(cmd) = air_force(ui, c, war.player) {
                    map_order.write(MapOrder(cmd));
                }
                resistance(ui, c, war.player);
                ui.separator();
                ui.heading("The enemy, as detected");
                let known = &c.army(war.player).known;
                if known.is_empty() {
                    ui.label("No enemy force has been detected (FYOW 16).");
                }
                for (name, (board, day)) in known {
                    ui.colored_label(side_colour(war.player.enemy()), format!("{name} at {}, seen day {day}", board.0));
                }
                reports(ui, c, war.player);
                ui.separator();
                if let Some(f) = sheet.0.as_ref().and_then(|n| c.force(n)).filter(|f| f.side == war.player) {
                    record_sheet(ui, c, f);
                    ui.separator();
                    orders_editor(ui, &war, f, draft, &mut give);
                    ui.separator();
                    if let Some(cmd) = detachments(ui, c, f, detach) {
                        map_order.write(MapOrder(cmd));
                    }
                    ui.separator();
                    if let Some(cmd) = questions(ui, f) {
                        map_order.write(MapOrder(cmd));
                    }
                    if let Some(cmd) = concealment(ui, c, f) {
                        map_order.write(MapOrder(cmd));
                    }
                } else {
                    ui.label("Choose one of your forces for its record sheet.");
                }
            });
        });
}

/// How much of a battlegroup is ashore while its Landing Plan's waves are
/// unloaded over its beach (FYOW 24).
/// Where a force of the player's is, in the Forces window's words.
fn whereabouts(f: &Force) -> String {
    match &f.at {
        Whereabouts::Board(b) => b.0.clone(),
        Whereabouts::Afloat { beach, day, .. } => format!("afloat, to land at {} on day {day}", beach.0),
        Whereabouts::Airborne { drop, day, .. } => format!("at its airfield, to drop on {} on day {day}", drop.0),
        Whereabouts::Gone => "gone".to_owned(),
    }
}

fn coming_ashore(c: &Campaign, f: &Force) -> Option<String> {
    let (ashore, waves) = c.waves_ashore(&f.name)?;
    Some(format!("Coming ashore: {ashore} of {waves} waves landed"))
}

/// What the player's observers in the boxes have learnt of the enemy on
/// each Map Board (FYOW 17), one line a fact.
fn reports(ui: &mut egui::Ui, c: &Campaign, side: Side) {
    for (board, report) in &c.army(side).reports {
        ui.label(egui::RichText::new(format!("Reported from {} (day {}):", board.0, report.day)).strong());
        for finding in &report.findings {
            ui.label(format!("  {}", capitalised(&finding.seen)));
        }
    }
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The player's coastal batteries (FYOW 29.10.1): where each stands, its
/// guns and its officer, and whether its guns can fire (none while the
/// enemy stands on its board).
fn coastal_batteries(ui: &mut egui::Ui, c: &Campaign, side: Side) {
    let batteries = &c.army(side).coastal_batteries;
    if batteries.is_empty() {
        return;
    }
    ui.separator();
    ui.heading("Your coastal batteries");
    for b in batteries {
        let state = if c.battery_silent(side, b) {
            "silent, the enemy is on its ground"
        } else {
            "ready to fire on enemy shipping"
        };
        ui.label(format!(
            "{} at {}: {} guns of 150mm and over, a {} officer; {state}",
            b.name,
            b.board.0,
            b.guns,
            say(b.officer).to_lowercase()
        ));
    }
}

/// The player's vessels (FYOW 29): where each is (in harbour, on station, waiting in
/// her Box off an engagement, or sunk), her strength and
/// Strategic Condition, whether he holds her in harbour and whether her
/// captain keeps out of a naval engagement. Returns the order he changed.
fn fleet(ui: &mut egui::Ui, c: &Campaign, side: Side) -> Option<MapCommand> {
    let ships = &c.army(side).fleet;
    if ships.is_empty() {
        return None;
    }
    let mut changed = None;
    ui.separator();
    ui.heading("Your fleet");
    for ship in ships {
        let v = &ship.vessel;
        let at = if v.sunk() {
            "sunk".to_owned()
        } else if ship.at_sea && c.in_the_box(&v.id) {
            format!("on station, {}, waiting off the coast", ship.station.0)
        } else if ship.at_sea {
            format!("on station, {}", ship.station.0)
        } else {
            format!("in harbour at {}", ship.harbour)
        };
        ui.label(format!(
            "{}, {}: {at}; strength {} of {}, condition {}",
            v.id,
            say(v.craft).to_lowercase(),
            v.strength(),
            v.defence_value(),
            v.condition
        ));
        if v.sunk() {
            continue;
        }
        let mut hold = ship.held_in_harbour;
        if ui
            .checkbox(&mut hold, "Hold in harbour")
            .on_hover_text(
                "Kept in harbour from tomorrow morning; otherwise she sails when fit for sea (FYOW 29.4, 29.5).",
            )
            .changed()
        {
            changed = Some(MapCommand::Harbour { vessel: v.id.clone(), hold });
        }
        let mut stand_off = ship.stands_off;
        if ui
            .checkbox(&mut stand_off, "Stand off from a naval engagement")
            .on_hover_text(
                "When enemy vessels or coastal guns are about, her captain waits in her Box: out of their reach, but off the coast's waters, so she does not shell the shore (FYOW 29.17).",
            )
            .changed()
        {
            changed = Some(MapCommand::StandOff { vessel: v.id.clone(), stand_off });
        }
    }
    changed
}

/// The player's squadrons (FYOW 28): the machines ready and whether each
/// has flown today; under each that carries bombs, the Map Board it raids
/// every morning it may fly (28.8), chosen among the boards where an enemy
/// force has been detected. Returns the raid he ordered or called off.
fn air_force(ui: &mut egui::Ui, c: &Campaign, side: Side) -> Option<MapCommand> {
    let air = c.army(side).air.as_ref()?;
    let mut order = None;
    ui.separator();
    ui.heading("Your air force");
    let mut boards: Vec<&BoardId> = c.army(side).known.values().map(|(b, _)| b).collect();
    boards.extend(air.raids.values());
    boards.sort();
    boards.dedup();
    for (sq, _) in &air.squadrons {
        let flown = if sq.used_today { ", flown today" } else { "" };
        let ready =
            ui.label(format!("{}: {} of {} machines ready{flown}", sq.name, sq.operational(), sq.aircraft.len()));
        let at_weapons = c.at_weapons(side, &sq.name);
        if !at_weapons.is_empty() {
            let rockets = at_weapons.iter().filter(|&&w| w == ArmourWeapon::Rocket).count() as i64;
            let fired = armour_weapons(at_weapons.len() as i64 - rockets, rockets);
            ready.on_hover_text(format!(
                "Over a battle on paper, each machine that spots the enemy fires its {fired} at one of his armoured vehicles: a D6 each, 5+ hits (FYOW 28.9)."
            ));
        }
        let Some((bomb, n)) = c.bomb_load(side, &sq.name) else { continue };
        let raid = air.raids.get(&sq.name);
        ui.horizontal_wrapped(|ui| {
            ui.add_space(12.0);
            ui.label("Bombing raid:").on_hover_text(format!(
                "Each machine drops {n} {} bomb{}: 3D6 a bomb, a double hits the target of its number (FYOW 28.8).",
                say(bomb).to_lowercase(),
                if n == 1 { "" } else { "s" }
            ));
            if ui.selectable_label(raid.is_none(), "none").clicked() && raid.is_some() {
                order = Some(MapCommand::Raid { squadron: sq.name.clone(), board: None });
            }
            for &b in &boards {
                if ui.selectable_label(raid == Some(b), &b.0).clicked() && raid != Some(b) {
                    order = Some(MapCommand::Raid { squadron: sq.name.clone(), board: Some(b.clone()) });
                }
            }
        });
    }
    if boards.is_empty() && air.squadrons.iter().any(|(s, _)| c.bomb_load(side, &s.name).is_some()) {
        ui.label("Detect the enemy to give your bombers a target.");
    }
    order
}

/// The resistance cells that help the player's army (FYOW 34), as their
/// radio reports tell his Command: each cell's members, radio and
/// explosives, whether it is free to act, stood down or dispersed after a
/// battle (34.11), and the battle it is fighting beside his forces.
fn resistance(ui: &mut egui::Ui, c: &Campaign, side: Side) {
    let Some(p) = c.partisans.as_ref().filter(|p| p.helps == side) else { return };
    ui.separator();
    ui.heading("The resistance");
    for (i, cell) in p.cells.iter().enumerate() {
        if cell.is_gone() {
            ui.label(format!("{}: wiped out", cell.name));
            continue;
        }
        let radio = if cell.radio { "a radio" } else { "no radio" };
        let explosives = match cell.explosives {
            0 => "no explosives".to_owned(),
            1 => "1 unit of explosives".to_owned(),
            n => format!("{n} units of explosives"),
        };
        let standing = match cell.standing {
            Standing::Free => "free to act",
            Standing::StoodDown => "stood down until the month's end after its battle",
            Standing::Dispersed => "dispersed after its battle, until a double on the weekly 5D6",
        };
        let members = if cell.members == 1 { "1 member".to_owned() } else { format!("{} members", cell.members) };
        ui.label(format!("{}: {members}, {radio}, {explosives}; {standing}", cell.name))
            .on_hover_text("A cell with 3 or more members and a radio fights beside your forces on a board where it works (FYOW 34.11).");
        if let Some(b) = c.battles.iter().find(|b| b.partisans == Some(i)) {
            let beside = if c.force(&b.attacker).is_some_and(|f| f.side == side) { &b.attacker } else { &b.defender };
            ui.label(format!("  Fighting beside {beside} on {}", b.board.0));
        }
    }
}

/// A battlegroup's record sheet: commander, orders, points, condition,
/// attitude, supply, and its order of battle.
fn record_sheet(ui: &mut egui::Ui, c: &Campaign, f: &Force) {
    ui.heading(&f.name);
    ui.label(format!("{} of {}", say(f.kind), f.battlegroup.brigade));
    let traits = format!(", {}", traits_words(&f.traits));
    ui.label(format!("Commander: {}, {}{traits}", f.commander.name, say(f.commander.competency).to_lowercase()));
    let objective = f.objective.as_ref().map(|b| format!(" on {}", b.0)).unwrap_or_default();
    ui.label(format!("Orders: {}{objective}", say(f.order)));
    ui.horizontal(|ui| {
        ui.label(format!("{} points of {} raised; condition", f.points(), f.battlegroup.original_points));
        ui.colored_label(condition_colour(f.condition), say(f.condition));
    });
    if let Some(o) = c.occupant(&f.name) {
        ui.label(format!("Attitude: {}; {}", say(o.attitude.attitude()), say(o.place).to_lowercase()));
    }
    ui.label(format!("Supply: {}, stockpile {} S", say(f.supply.mode), f.battlegroup.stockpile));
    ui.add_space(4.0);
    egui::Grid::new(("orbat", f.name.as_str())).striped(true).show(ui, |ui| {
        for e in &f.battlegroup.elements {
            ui.label(&e.name);
            ui.label(format!("{} pts", e.points));
            ui.label(format!("{} MP", e.movement_points));
            ui.end_row();
        }
    });
}

/// The orders being written for a force: its order and objective, and any
/// "if" clause (FYOW 10.7).
#[derive(Debug, Clone)]
struct Draft {
    force: String,
    orders: Orders,
    composite: Option<IfOrder>,
}

/// The elements the player has chosen to detach from a force, where a
/// Picket would go, and the battlegroup he would merge into it.
#[derive(Default)]
struct Detach {
    force: String,
    chosen: Vec<String>,
    post: Option<BoardId>,
    merge: Option<String>,
}

/// A force's detachments: the chosen elements split off as a Fraction
/// (FYOW 3.4) or sent as a Picket to a neighbouring board (3.8); a Fraction
/// taken back on its battlegroup's board (3.7); a Picket called in (3.8);
/// another battlegroup on the same board merged into this one (2.7).
/// Returns the command the player gave.
/// FYOW 13.7: a button for each friendly force in a box on an edge next to
/// the box `f` stands in; the edge of the one clicked.
fn box_shift(
    ui: &mut egui::Ui,
    c: &Campaign,
    f: &Force,
    board: &BoardId,
) -> Option<warbound_campaign::map::common::Edge> {
    use warbound_campaign::map::occupation::Place;
    let Some(Place::Box(from)) = c.occupant(&f.name).map(|o| o.place) else { return None };
    let mut to = None;
    for o in c.occupation.get(board)?.occupants.iter().filter(|o| o.side == f.side && o.force != f.name) {
        let Place::Box(edge) = o.place else { continue };
        if !edge.is_adjacent(from) {
            continue;
        }
        let side = format!("{edge:?}").to_lowercase();
        if ui
            .button(format!("Join {} in the {side} box", o.force))
            .on_hover_text("No Movement Points or test, but it takes the session (FYOW 13.7).")
            .clicked()
        {
            to = Some(edge);
        }
    }
    to
}

/// A Fraction offered to merge each other Fraction of its battlegroup on
/// its board into it (FYOW 3.7 Merging Fractions); the one clicked.
fn fraction_merges(ui: &mut egui::Ui, c: &Campaign, f: &Force) -> Option<MapCommand> {
    let mut given = None;
    for other in c.fractions_beside(&f.name) {
        if ui
            .button(format!("Merge {other} into it"))
            .on_hover_text(
                "A Command Decision by the battlegroup's commander; this Fraction's officer leads it and its supply stands (FYOW 3.7).",
            )
            .clicked()
        {
            given = Some(MapCommand::MergeFractions { fraction: f.name.clone(), with: other.to_owned() });
        }
    }
    given
}

fn detachments(ui: &mut egui::Ui, c: &Campaign, f: &Force, d: &mut Detach) -> Option<MapCommand> {
    if d.force != f.name {
        *d = Detach { force: f.name.clone(), ..Detach::default() };
    }
    let board = f.board()?.clone();
    let mut given = None;
    ui.label(egui::RichText::new("Detachments").strong());
    let parent = f.parent.as_deref().and_then(|p| c.force(p)).filter(|p| !p.is_gone());
    match f.kind {
        ForceKind::Picket => {
            let of = parent.map_or(String::new(), |p| format!(" of {}", p.name));
            ui.label(format!("A picket{of} on {board}."));
            if ui
                .button("Call it in")
                .on_hover_text("Its elements go back to its battlegroup's roster (FYOW 3.8).")
                .clicked()
            {
                given = Some(MapCommand::CallIn { picket: f.name.clone() });
            }
            return given;
        }
        ForceKind::Fraction => match parent {
            Some(p) if p.board() == Some(&board) => {
                given = ui
                    .button(format!("Take it back into {}", p.name))
                    .on_hover_text("A Command Decision by the battlegroup's commander (FYOW 3.7).")
                    .clicked()
                    .then(|| MapCommand::EndFraction { fraction: f.name.clone() });
            }
            Some(p) => {
                ui.label(format!("On {}'s board it can be taken back into it (FYOW 3.7).", p.name));
            }
            None => {}
        },
        _ => {}
    }
    if let Some(merge) = fraction_merges(ui, c, f) {
        given = Some(merge);
    }
    if let Some(to) = box_shift(ui, c, f, &board) {
        given = Some(MapCommand::ShiftBox { force: f.name.clone(), to });
    }
    ui.label("Detach these elements:");
    for e in &f.battlegroup.elements {
        let mut on = d.chosen.contains(&e.name);
        if ui.checkbox(&mut on, format!("{} ({} pts)", e.name, e.points)).changed() {
            if on {
                d.chosen.push(e.name.clone());
            } else {
                d.chosen.retain(|x| x != &e.name);
            }
        }
    }
    let first = d.chosen.first().cloned();
    ui.horizontal(|ui| {
        let split = ui.add_enabled(first.is_some(), egui::Button::new("Split off as a Fraction")).on_hover_text(
            "A Command Decision; only while Active for supply, at most half the battlegroup (FYOW 3.4, 2.2).",
        );
        if let (true, Some(first)) = (split.clicked(), &first) {
            given = Some(MapCommand::Fraction {
                force: f.name.clone(),
                name: format!("{first} (Fraction of {})", f.name),
                elements: d.chosen.clone(),
            });
        }
    });
    let next: Vec<BoardId> = c.file.map.legs_from(&board).into_iter().map(|l| l.to).collect();
    ui.horizontal(|ui| {
        let shown = d.post.as_ref().map_or("a neighbouring board".to_owned(), |b| b.0.clone());
        egui::ComboBox::from_id_salt(("picket post", &f.name)).selected_text(shown).show_ui(ui, |ui| {
            for b in &next {
                ui.selectable_value(&mut d.post, Some(b.clone()), &b.0);
            }
        });
        let send =
            ui.add_enabled(first.is_some() && d.post.is_some(), egui::Button::new("Send as a picket")).on_hover_text(
                "It goes there under Move orders, supplied through its battlegroup while in the chain (FYOW 3.8).",
            );
        if let (true, Some(first), Some(post)) = (send.clicked(), &first, &d.post) {
            given = Some(MapCommand::Picket {
                force: f.name.clone(),
                name: format!("{first} (picket on {post})"),
                elements: d.chosen.clone(),
                to: post.clone(),
            });
        }
    });
    if f.kind == ForceKind::Battlegroup {
        let others: Vec<&Force> = c
            .forces
            .iter()
            .filter(|x| {
                x.side == f.side && x.is_battlegroup() && !x.is_gone() && x.name != f.name && x.board() == Some(&board)
            })
            .collect();
        if !others.is_empty() {
            ui.horizontal(|ui| {
                let shown = d.merge.clone().unwrap_or_else(|| "a battlegroup beside it".to_owned());
                egui::ComboBox::from_id_salt(("merge", &f.name)).selected_text(shown).show_ui(ui, |ui| {
                    for x in &others {
                        ui.selectable_value(
                            &mut d.merge,
                            Some(x.name.clone()),
                            format!("{} ({} pts)", x.name, x.points()),
                        );
                    }
                });
                let merge = ui
                    .add_enabled(d.merge.is_some(), egui::Button::new(format!("Merge into {}", f.name)))
                    .on_hover_text("Within the cost limit; the Stockpiles averaged; its orders continue (FYOW 2.7).");
                if let (true, Some(absorbed)) = (merge.clicked(), &d.merge) {
                    given = Some(MapCommand::Merge { senior: f.name.clone(), absorbed: absorbed.clone() });
                }
            });
        }
    }
    if c.may_cut_railway(f).is_ok() {
        let cut = ui
            .button(format!("Cut the railway at {board}"))
            .on_hover_text("One large charge cuts the line; no train passes until a platoon mends it (FYOW 30.5).");
        if cut.clicked() {
            given = Some(MapCommand::CutRailway { force: f.name.clone() });
        }
    }
    if given.is_some() {
        d.chosen.clear();
        d.merge = None;
    }
    given
}

/// What the force's observers ask when they watch the enemy from a box
/// (FYOW 17), one checkbox a question. Returns the list the player set.
fn questions(ui: &mut egui::Ui, f: &Force) -> Option<MapCommand> {
    ui.label(egui::RichText::new("Observers ask for").strong())
        .on_hover_text("Each session in a box beside a detected enemy, a D6 of answers, in this order (FYOW 17.1).");
    let asked = f.questions.clone().unwrap_or_else(|| Question::ALL.to_vec());
    let mut changed = None;
    for q in Question::ALL {
        let mut on = asked.contains(&q);
        if ui.checkbox(&mut on, capitalised(q.words())).changed() {
            let list: Vec<Question> =
                Question::ALL.into_iter().filter(|x| if *x == q { on } else { asked.contains(x) }).collect();
            changed = Some(MapCommand::Inquire { force: f.name.clone(), questions: list });
        }
    }
    changed
}

/// The order to CONCEAL on the board for a force with Elite or Enhanced
/// infantry (FYOW 15.4), and which of its elements are hidden where it
/// stands. Returns the order the player changed.
fn concealment(ui: &mut egui::Ui, c: &Campaign, f: &Force) -> Option<MapCommand> {
    if !f.kit.iter().any(|k| may_conceal(f, k)) {
        return None;
    }
    ui.separator();
    let mut on = f.conceal;
    let changed = ui
        .checkbox(&mut on, "Conceal on the board")
        .on_hover_text(
            "Its Elite or Enhanced infantry hide on each board it occupies: a D10 each at the start of the session after it arrives, 6+ (FYOW 15.4). The enemy cannot detect a force hidden whole.",
        )
        .changed();
    if let Some(o) = c.occupant(&f.name).filter(|o| !o.concealed_elements.is_empty()) {
        let whole = if o.entirely_concealed { ", the whole force" } else { "" };
        ui.label(format!("Hidden here: {}{whole}", o.concealed_elements.join(", ")));
    }
    changed.then(|| MapCommand::Conceal { force: f.name.clone(), conceal: on })
}

/// An order and its objective board, picked from every order of FYOW 10
/// and every Map Board.
fn order_picker(ui: &mut egui::Ui, id: (&str, &str), c: &Campaign, (order, objective): &mut Orders) {
    egui::ComboBox::from_id_salt(("order", id)).selected_text(say(*order)).show_ui(ui, |ui| {
        for o in ORDERS {
            ui.selectable_value(order, o, say(o));
        }
    });
    let on = objective.as_ref().map_or("no objective".to_owned(), |b| b.0.clone());
    egui::ComboBox::from_id_salt(("objective", id)).selected_text(on).show_ui(ui, |ui| {
        ui.selectable_value(objective, None, "no objective");
        for b in &c.file.map.boards {
            ui.selectable_value(objective, Some(b.id.clone()), &b.id.0);
        }
    });
}

/// What an "if" waits for, in the player's words.
fn condition_words(c: &Condition) -> String {
    match c {
        Condition::StrategicConditionAtLeast(MilestoneCondition::Green) => "its condition is still Green".to_owned(),
        Condition::StrategicConditionAtLeast(_) => "its condition is Amber or better".to_owned(),
        Condition::EnemyDetected(b) => format!("the enemy is detected on {b}"),
        Condition::Attacked => "it has been attacked".to_owned(),
    }
}

/// The "if" of a composite order (FYOW 10.7): how many sessions the order
/// stands, what it waits for, what follows if it holds and if not.
fn if_editor(ui: &mut egui::Ui, c: &Campaign, name: &str, order: &mut IfOrder) {
    ui.horizontal(|ui| {
        ui.label("Stands for");
        ui.add(egui::DragValue::new(&mut order.sessions).range(0..=12));
        ui.label("sessions, then if");
    });
    let first_board = c.file.map.boards.first().map(|b| b.id.0.clone()).unwrap_or_default();
    let board = match &order.condition {
        Condition::EnemyDetected(b) => b.clone(),
        _ => first_board,
    };
    let choices = [
        Condition::StrategicConditionAtLeast(MilestoneCondition::Green),
        Condition::StrategicConditionAtLeast(MilestoneCondition::Yellow),
        Condition::EnemyDetected(board.clone()),
        Condition::Attacked,
    ];
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt(("if", name)).selected_text(condition_words(&order.condition)).show_ui(ui, |ui| {
            for choice in choices {
                let text = condition_words(&choice);
                ui.selectable_value(&mut order.condition, choice, text);
            }
        });
        if let Condition::EnemyDetected(b) = &mut order.condition {
            egui::ComboBox::from_id_salt(("if-board", name)).selected_text(b.as_str()).show_ui(ui, |ui| {
                for x in &c.file.map.boards {
                    ui.selectable_value(b, x.id.0.clone(), &x.id.0);
                }
            });
        }
    });
    ui.horizontal(|ui| {
        ui.label("then");
        order_picker(ui, (name, "then"), c, &mut order.then);
    });
    ui.horizontal(|ui| {
        let mut otherwise = order.otherwise.is_some();
        ui.checkbox(&mut otherwise, "if not");
        match (otherwise, &mut order.otherwise) {
            (true, Some(o)) => order_picker(ui, (name, "otherwise"), c, o),
            (true, slot @ None) => *slot = Some(order.with.clone()),
            (false, slot) => *slot = None,
        }
    });
}

/// New orders for one of the player's forces: every order of FYOW 10, its
/// objective board, and an "if" clause of FYOW 10.7.
fn orders_editor(
    ui: &mut egui::Ui,
    war: &ActiveWar,
    f: &Force,
    draft: &mut Option<Draft>,
    give: &mut MessageWriter<GiveOrders>,
) {
    if draft.as_ref().is_none_or(|d| d.force != f.name) {
        let composite = war.campaign().composite.get(&f.name).map(|c| c.order.clone());
        *draft = Some(Draft { force: f.name.clone(), orders: (f.order, f.objective.clone()), composite });
    }
    let Some(d) = draft.as_mut() else { return };
    let c = war.campaign();
    ui.label(egui::RichText::new("New orders").strong());
    ui.horizontal(|ui| order_picker(ui, (&f.name, "first"), c, &mut d.orders));
    let mut composite = d.composite.is_some();
    ui.checkbox(&mut composite, "with an \"if\" (composite orders, FYOW 10.7)").on_hover_text(
        "Orders covering what may happen: read when the order has stood its sessions, with no Command Decision.",
    );
    match (composite, &mut d.composite) {
        (true, Some(o)) => {
            o.with = d.orders.clone();
            if_editor(ui, c, &f.name, o);
        }
        (true, slot @ None) => {
            *slot = Some(IfOrder {
                with: d.orders.clone(),
                sessions: 1,
                condition: Condition::StrategicConditionAtLeast(MilestoneCondition::Green),
                then: d.orders.clone(),
                otherwise: None,
            })
        }
        (false, slot) => *slot = None,
    }
    let when = if war.war.progress.sessions_today == 0 {
        "Given at the next day's orders (FYOW 10.2)."
    } else {
        "During the day: a Command Decision by its commander, in force from his next activation (FYOW 10.6)."
    };
    if ui.button("Give these orders").on_hover_text(when).clicked() {
        give.write(GiveOrders {
            force: f.name.clone(),
            order: d.orders.0,
            objective: d.orders.1.clone(),
            composite: d.composite.clone(),
        });
    }
    if let Some((o, obj)) = c.player_orders.get(&f.name) {
        let on = obj.as_ref().map(|b| format!(" on {}", b.0)).unwrap_or_default();
        ui.label(format!("For the next day: {}{on}", say(o)));
    }
    if let Some(x) = c.composite.get(&f.name) {
        ui.label(format!("Written in: {} (stood {} sessions)", x.order.words(), x.stood));
    }
    if let Some(said) = &war.orders_said {
        ui.label(egui::RichText::new(said).italics());
    }
}

/// Every order of FYOW 10.
const ORDERS: [OrderKind; 8] = [
    OrderKind::Defend,
    OrderKind::Engage,
    OrderKind::Move,
    OrderKind::MoveToContact,
    OrderKind::Reconnaissance,
    OrderKind::Support,
    OrderKind::Rest,
    OrderKind::StandBy,
];

fn day_log(mut contexts: EguiContexts, war: NonSend<ActiveWar>) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let day = war.campaign().day;
    egui::Window::new("Campaign log")
        .anchor(egui::Align2::RIGHT_BOTTOM, [-4.0, -4.0])
        .default_width(620.0)
        .default_height(170.0)
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(format!("The campaign log, day {}", day.max(1))).strong());
            egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, |ui| {
                let from = war.log.len().saturating_sub(400);
                for (d, line) in &war.log[from..] {
                    let text = egui::RichText::new(line);
                    ui.label(if *d == day { text } else { text.color(egui::Color32::from_gray(150)) });
                }
            });
        });
}

fn battle_due(mut contexts: EguiContexts, war: NonSend<ActiveWar>, mut choose: MessageWriter<ChooseFight>) {
    let Step::Battles(_) = &war.step else { return };
    if war.report.is_some() {
        return;
    }
    let Some((a, d)) = war.due() else { return };
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let c = war.campaign();
    let board = c.battle_of(a, d).map(|k| c.battles[k].board.0.clone()).unwrap_or_default();
    egui::Window::new(format!("Battle at {board}"))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            let side = |n: &str| c.force(n).map(|f| f.side);
            ui.horizontal_wrapped(|ui| {
                ui.colored_label(side(a).map_or(egui::Color32::WHITE, side_colour), a);
                ui.label("attacks");
                ui.colored_label(side(d).map_or(egui::Color32::WHITE, side_colour), d);
            });
            if let Some(k) = c.battle_of(a, d) {
                let b = &c.battles[k];
                ui.label(format!("Combat Session {} (contact {})", b.combat_sessions + 1, b.contact));
            }
            ui.add_space(8.0);
            for fight in war.choices() {
                if ui
                    .add_sized([320.0, 30.0], egui::Button::new(fight.label()))
                    .on_hover_text(fight.explain())
                    .clicked()
                {
                    choose.write(ChooseFight(fight));
                }
            }
        });
}

/// The last battle fought off the screen, step by step: each rule with the
/// values it read and why, the dice and what came of them.
fn report(
    mut contexts: EguiContexts,
    war: NonSend<ActiveWar>,
    mut close: MessageWriter<CloseReport>,
    mut refight: MessageWriter<Refight>,
) {
    let Some((title, steps)) = &war.report else { return };
    let Ok(ctx) = contexts.ctx_mut() else { return };
    egui::Window::new(title.as_str())
        .id(egui::Id::new("campaign-report"))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .default_width(620.0)
        .collapsible(false)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
                if steps.is_empty() {
                    ui.label("The battle went on without a result this session.");
                }
                event_steps(ui, "step", steps);
            });
            if let Some(result) = &war.refight {
                ui.separator();
                refought(ui, steps, result);
            }
            ui.horizontal(|ui| {
                let can = war.before_paper.is_some();
                if can
                    && ui
                        .button("Re-fight it on the table")
                        .on_hover_text("The same forces, weather and seed, both sides Auto, to its end; the campaign goes on with the paper result.")
                        .clicked()
                {
                    refight.write(Refight);
                }
                if ui.button("Close").clicked() {
                    close.write(CloseReport);
                }
            });
        });
}

/// Rule events step by step: each section, its inputs with their values and
/// reasons, and the sentence with its dice.
fn event_steps(ui: &mut egui::Ui, salt: &str, steps: &[warbound_rules::event::RuleEvent]) {
    let names = |_: &str| None;
    for (n, e) in steps.iter().enumerate() {
        ui.label(egui::RichText::new(format!("{}. {}", n + 1, e.rule.section)).strong());
        egui::Grid::new((salt, n)).striped(true).show(ui, |ui| {
            for i in &e.inputs {
                ui.label(words(&i.name));
                ui.label(warbound_rules::narrate::value_words(&i.value, &names));
                ui.label(egui::RichText::new(&i.reason).color(egui::Color32::from_gray(170)));
                ui.end_row();
            }
        });
        ui.label(warbound_rules::narrate::sentence(e, &names));
        ui.add_space(6.0);
    }
}

/// The player's commanders: each with his competency and traits (FYOW 8),
/// and his decisions with their inputs and dice, the latest first.
fn commanders(mut contexts: EguiContexts, war: NonSend<ActiveWar>) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let c = war.campaign();
    egui::Window::new("Commanders")
        .default_open(false)
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 80.0])
        .default_width(420.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().max_height(440.0).show(ui, |ui| {
                let general = &c.army(war.player).general;
                let traits = general.traits.as_ref().map(|t| format!(", {}", traits_words(t))).unwrap_or_default();
                ui.label(format!("{}, the General: {}{traits}", general.name, say(general.competency).to_lowercase()));
                for sc in c.senior_commands.iter().filter(|s| s.side == war.player) {
                    // A Senior Commander not named by the file is named by his command.
                    let who = if sc.commander.name.contains(&sc.brigade) {
                        sc.commander.name.clone()
                    } else {
                        format!("{}, Senior Commander of {}", sc.commander.name, sc.brigade)
                    };
                    ui.label(format!(
                        "{who}: {}, {}",
                        say(sc.commander.competency).to_lowercase(),
                        traits_words(&sc.traits)
                    ));
                }
                for f in c.forces.iter().filter(|f| f.side == war.player && !f.is_gone()) {
                    ui.label(format!(
                        "{}, commanding {}: {}, {}",
                        f.commander.name,
                        f.name,
                        say(f.commander.competency).to_lowercase(),
                        traits_words(&f.traits)
                    ));
                }
                ui.separator();
                if war.decisions.is_empty() {
                    ui.label("No decisions yet.");
                }
                for (k, (day, e)) in war.decisions.iter().enumerate().rev().take(40) {
                    let who = e.actor.clone().unwrap_or_default();
                    let when = if *day == 0 { "Before the campaign".to_owned() } else { format!("Day {day}") };
                    ui.collapsing(format!("{when}: {who}, {}", e.rule.section), |ui| {
                        event_steps(ui, &format!("decision-{k}"), std::slice::from_ref(e));
                    });
                }
            });
        });
}

/// The paper result and the table's, side by side.
fn refought(
    ui: &mut egui::Ui,
    steps: &[warbound_rules::event::RuleEvent],
    result: &Result<warbound_rules::handoff::BattleResult, String>,
) {
    let names = |_: &str| None;
    let r = match result {
        Ok(r) => r,
        Err(why) => {
            ui.colored_label(egui::Color32::LIGHT_RED, format!("It could not be re-fought on the table: {why}"));
            return;
        }
    };
    let paper: Vec<String> = steps
        .iter()
        .filter(|e| {
            let s = &e.rule.section;
            s.contains("CRT Results") || s.contains("Loss of Combat Value") || s.contains("Retreat")
        })
        .map(|e| warbound_rules::narrate::sentence(e, &names))
        .collect();
    let winner = r.winner.and_then(|w| r.sides.get(w)).map_or("nobody".to_owned(), |s| s.name.clone());
    let mut table =
        vec![format!("{winner} wins: {} after {} bounds", say(r.decided_by).to_lowercase(), r.bounds_played)];
    for s in &r.sides {
        table.push(format!(
            "{}: {} men lost, CMT {} of {}, {}",
            s.name,
            s.men_lost,
            s.cmt,
            s.cmt_start,
            say(s.condition)
        ));
    }
    egui::Grid::new("paper-and-table").num_columns(2).striped(true).show(ui, |ui| {
        ui.label(egui::RichText::new("On paper").strong());
        ui.label(egui::RichText::new("On the table").strong());
        ui.end_row();
        for k in 0..paper.len().max(table.len()) {
            ui.label(paper.get(k).cloned().unwrap_or_default());
            ui.label(table.get(k).cloned().unwrap_or_default());
            ui.end_row();
        }
    });
}

/// Each army's Strategic Morale and each battlegroup's points over the campaign's days.
fn charts(mut contexts: EguiContexts, war: NonSend<ActiveWar>) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    egui::Window::new("Over the campaign")
        .default_open(false)
        .anchor(egui::Align2::LEFT_BOTTOM, [4.0, -4.0])
        .default_width(320.0)
        .show(ctx, |ui| {
            ui.label("Strategic Morale");
            let lines: Vec<(egui::Color32, Vec<f32>)> = [Side::Blue, Side::Red]
                .iter()
                .enumerate()
                .map(|(k, s)| (side_colour(*s), war.history.iter().map(|h| f32::from(h.morale[k])).collect()))
                .collect();
            chart(ui, &lines);
            ui.label("Battlegroups' points (yours)");
            let names: Vec<String> = war
                .history
                .first()
                .map(|h| h.forces.iter().filter(|f| f.1 == war.player).map(|f| f.0.clone()).collect())
                .unwrap_or_default();
            let palette = [(120, 200, 255), (120, 255, 160), (255, 220, 120), (220, 150, 255), (255, 150, 150)];
            let lines: Vec<(egui::Color32, Vec<f32>)> = names
                .iter()
                .enumerate()
                .map(|(k, n)| {
                    let (r, g, b) = palette[k % palette.len()];
                    let points = war
                        .history
                        .iter()
                        .map(|h| h.forces.iter().find(|f| &f.0 == n).map_or(0.0, |f| f.2 as f32))
                        .collect();
                    (egui::Color32::from_rgb(r, g, b), points)
                })
                .collect();
            chart(ui, &lines);
            for (k, n) in names.iter().enumerate() {
                let (r, g, b) = palette[k % palette.len()];
                ui.colored_label(egui::Color32::from_rgb(r, g, b), n);
            }
            ui.label("Condition by day (yours)");
            for n in &names {
                let days: Vec<u8> =
                    war.history.iter().map(|h| h.forces.iter().find(|f| &f.0 == n).map_or(3, |f| f.3)).collect();
                condition_strip(ui, n, &days);
            }
        });
}

/// A battlegroup's Strategic Condition day by day: a cell per day, Green,
/// Amber or Red (grey: not in the campaign that day).
fn condition_strip(ui: &mut egui::Ui, name: &str, days: &[u8]) {
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(180.0, 12.0), egui::Sense::hover());
        let w = rect.width() / days.len().max(1) as f32;
        for (k, c) in days.iter().enumerate() {
            let colour = match c {
                0 => condition_colour(StrategicCondition::Green),
                1 => condition_colour(StrategicCondition::Amber),
                2 => condition_colour(StrategicCondition::Red),
                _ => egui::Color32::from_gray(80),
            };
            let x = rect.left() + w * k as f32;
            let cell = egui::Rect::from_min_max(egui::pos2(x, rect.top()), egui::pos2(x + w - 1.0, rect.bottom()));
            ui.painter().rect_filled(cell, 1.0, colour);
        }
        ui.label(name);
    });
}

/// Lines over the campaign's days, each scaled to the chart's tallest value.
fn chart(ui: &mut egui::Ui, lines: &[(egui::Color32, Vec<f32>)]) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(300.0, 90.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, egui::Color32::from_gray(30));
    let top = lines.iter().flat_map(|(_, v)| v.iter().copied()).fold(1.0_f32, f32::max);
    for (colour, values) in lines {
        let n = values.len().max(2) - 1;
        let points: Vec<egui::Pos2> = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                egui::pos2(rect.left() + rect.width() * i as f32 / n as f32, rect.bottom() - rect.height() * v / top)
            })
            .collect();
        painter.add(egui::Shape::line(points, egui::Stroke::new(2.0, *colour)));
    }
    painter.text(
        rect.left_top(),
        egui::Align2::LEFT_TOP,
        format!("{top:.0}"),
        egui::FontId::proportional(12.0),
        egui::Color32::GRAY,
    );
}

/// The boards' names, the links' MP and the tokens' names over the map.
fn map_labels(
    mut contexts: EguiContexts,
    war: NonSend<ActiveWar>,
    places: Res<MapPlaces>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    zoom: Option<Res<Zoom>>,
) {
    if !map_shown(AppState::Campaign, zoom.as_deref()) {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let Ok((camera, eye)) = cameras.single() else { return };
    let painter = ctx.layer_painter(egui::LayerId::background());
    let c = war.campaign();
    let font = |size: f32| egui::FontId::proportional(size);
    for b in &c.file.map.boards {
        let Some(at) = places.boards.get(&b.id) else { continue };
        let corner = *at + Vec3::new(-MAP_TILE.x / 2.0 + 3.0, 0.5, -MAP_TILE.y / 2.0 + 3.0);
        let Ok(p) = camera.world_to_viewport(eye, corner) else { continue };
        // The board's short name, in the colour of the army that holds it.
        let colour = c.held.get(&b.id).map_or(egui::Color32::WHITE, |s| side_colour(*s));
        painter.text(egui::pos2(p.x, p.y), egui::Align2::LEFT_TOP, &b.id.0, font(14.0), colour);
    }
    // A link's MP where the link is long enough on screen to carry it.
    let scale = |at: Vec3| {
        let a = camera.world_to_viewport(eye, at).ok()?;
        let b = camera.world_to_viewport(eye, at + Vec3::X * 30.0).ok()?;
        Some(a.distance(b))
    };
    let roomy = places.links.first().and_then(|(at, _)| scale(*at)).is_some_and(|px| px > 40.0);
    for (at, text) in places.links.iter().filter(|_| roomy) {
        let Ok(p) = camera.world_to_viewport(eye, *at) else { continue };
        painter.text(
            egui::pos2(p.x, p.y),
            egui::Align2::CENTER_CENTER,
            text,
            font(11.0),
            egui::Color32::from_rgb(255, 240, 200),
        );
    }
    // Tokens' names, each moved down clear of those already written where
    // several forces share a board.
    let mut taken: Vec<egui::Rect> = Vec::new();
    for (at, side, name) in &places.tokens {
        let Ok(p) = camera.world_to_viewport(eye, *at) else { continue };
        let galley = painter.layout_no_wrap(name.clone(), font(12.0), side_colour(*side));
        let size = galley.size();
        let mut rect = egui::Rect::from_min_size(egui::pos2(p.x - size.x / 2.0, p.y - 4.0 - size.y), size);
        while taken.iter().any(|r| r.intersects(rect)) {
            rect = rect.translate(egui::vec2(0.0, size.y));
        }
        taken.push(rect);
        painter.galley(rect.min, galley, side_colour(*side));
    }
}

#[cfg(test)]
mod tests {
    use egui_kittest::{Harness, kittest::Queryable};

    use super::*;

    #[test]
    fn the_if_editor_writes_a_composite_order_and_its_if_not() {
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let campaign = war.progress.campaign.clone();
        let order = IfOrder {
            with: (OrderKind::Defend, None),
            sessions: 1,
            condition: Condition::StrategicConditionAtLeast(MilestoneCondition::Green),
            then: (OrderKind::Defend, None),
            otherwise: None,
        };
        let mut h = Harness::new_ui_state(move |ui, o: &mut IfOrder| if_editor(ui, &campaign, "4th Dorsets", o), order);
        h.get_by_label("sessions, then if");
        h.get_by_label("then");
        assert!(h.state().otherwise.is_none());
        h.get_by_label("if not").click();
        h.run();
        assert_eq!(h.state().otherwise, Some((OrderKind::Defend, None)), "if not: the order it was written with");
        h.get_by_label("if not").click();
        h.run();
        assert!(h.state().otherwise.is_none(), "taken out again");
    }

    #[test]
    fn the_top_bar_reads_the_light_of_the_session_it_shows() {
        // FYOW 1.2: a winter day has two night sessions from 00.00hrs, two of
        // daylight from 08.00hrs and two of night from 16.00hrs.
        let mut war = warbound_war::shipped::war("ardennes-1945", 3, warbound_war::Battles::Paper).unwrap();
        let mut seen = Vec::new();
        for _ in 0..6 {
            let c = &war.progress.campaign;
            seen.push((c.date.session(), weather_line(c).split(" · ").next().unwrap().to_owned()));
            war.play_session();
        }
        let night = |s: u8| !(3..=4).contains(&s);
        for (session, light) in &seen {
            assert_eq!(light, if night(*session) { "Night" } else { "Daylight" }, "session {session}: {seen:?}");
        }
        assert_eq!(seen.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6], "{seen:?}");
    }

    #[test]
    fn the_enemy_panel_reads_what_the_observers_learnt() {
        use warbound_campaign::map::information::{Fact, TroopType};
        use warbound_campaign::play::intelligence::{Finding, Report};
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let mut campaign = war.progress.campaign.clone();
        let seen = |fact, seen: &str| Finding { fact, seen: seen.to_owned() };
        let report = Report {
            forces: vec!["Infanterie-Regiment 216".into()],
            day: 2,
            findings: vec![
                seen(Fact::TroopTypes, "infantry and artillery"),
                seen(Fact::Number(TroopType::Infantry), "4 infantry companies"),
            ],
        };
        let side = Side::Blue;
        let army = campaign.armies.iter_mut().find(|a| a.side == side).unwrap();
        army.reports.insert(BoardId::new("St Peter Port"), report);
        let h = Harness::new_ui(move |ui| reports(ui, &campaign, side));
        h.get_by_label("Reported from St Peter Port (day 2):");
        h.get_by_label("  Infantry and artillery");
        h.get_by_label("  4 infantry companies");
    }

    #[test]
    fn the_fleet_panel_shows_each_vessel_and_holds_her_in_harbour() {
        let war = warbound_war::shipped::war("cyrenaica-1941", 3, warbound_war::Battles::Paper).unwrap();
        let campaign = war.progress.campaign.clone();
        let aphis = campaign.fleet(Side::Blue).find(|s| s.vessel.id == "HMS Aphis").unwrap().vessel.clone();
        let shown =
            format!("HMS Aphis, gunboat: in harbour at Alexandria; strength {} of 6, condition 6", aphis.strength());
        let mut h = Harness::new_ui_state(
            move |ui, out: &mut Option<MapCommand>| {
                if let Some(x) = fleet(ui, &campaign, Side::Blue) {
                    *out = Some(x);
                }
            },
            None,
        );
        h.get_by_label(&shown);
        assert!(h.query_by_label_contains("HMAS Waterhen, destroyer").is_some());
        h.get_all_by_label("Hold in harbour").next().unwrap().click();
        h.run();
        let held = h.state().clone().expect("the checkbox asks to hold her");
        assert!(matches!(&held, MapCommand::Harbour { vessel, hold: true } if vessel == "HMS Aphis"), "{held:?}");
        h.get_all_by_label("Stand off from a naval engagement").nth(1).unwrap().click();
        h.run();
        let off = h.state().clone().expect("the checkbox orders her captain to stand off");
        assert!(
            matches!(&off, MapCommand::StandOff { vessel, stand_off: true } if vessel == "HMAS Waterhen"),
            "{off:?}"
        );
        let guernsey = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let c = guernsey.progress.campaign.clone();
        let mut none =
            Harness::new_ui_state(move |ui, out: &mut bool| *out = fleet(ui, &c, Side::Blue).is_none(), false);
        none.run();
        assert!(*none.state(), "no fleet, no section");
        assert!(none.query_by_label("Your fleet").is_none());
    }

    #[test]
    fn a_sunk_submarine_reads_as_sunk_and_cannot_be_held() {
        let war = warbound_war::shipped::war("cyrenaica-1941", 3, warbound_war::Battles::Paper).unwrap();
        let mut campaign = war.progress.campaign.clone();
        let afloat = campaign.clone();
        let h = Harness::new_ui(move |ui| {
            fleet(ui, &afloat, Side::Red);
        });
        h.get_by_label("Salpa, submarine: in harbour at Leros; strength 6 of 6, condition 6");
        assert!(h.query_by_label("Hold in harbour").is_some());
        let red = campaign.armies.iter_mut().find(|a| a.side == Side::Red).unwrap();
        let salpa = red.fleet.iter_mut().find(|s| s.vessel.id == "Salpa").unwrap();
        salpa.vessel.take_damage(6);
        let h = Harness::new_ui(move |ui| {
            fleet(ui, &campaign, Side::Red);
        });
        h.get_by_label("Salpa, submarine: sunk; strength 0 of 6, condition 6");
        assert!(h.query_by_label("Hold in harbour").is_none(), "a sunk vessel stays on the bottom");
        let c = war.progress.campaign.clone();
        let h = Harness::new_ui(move |ui| coastal_batteries(ui, &c, Side::Red));
        h.get_by_label(
            "Bardia coastal battery at Bardia: 2 guns of 150mm and over, a regular officer; ready to fire on enemy shipping",
        );
    }

    #[test]
    fn the_air_force_panel_sends_a_bomber_on_a_raid() {
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let mut c = war.progress.campaign.clone();
        let (board, enemy) = c
            .occupation
            .iter()
            .find_map(|(b, o)| o.occupants.iter().find(|x| x.side == Side::Red).map(|x| (b.clone(), x.force.clone())))
            .unwrap();
        c.armies.iter_mut().find(|a| a.side == Side::Blue).unwrap().known.insert(enemy, (board.clone(), 1));
        let air = c.army(Side::Blue).air.as_ref().unwrap();
        let bomber =
            air.squadrons.iter().map(|(s, _)| s.name.clone()).find(|n| c.bomb_load(Side::Blue, n).is_some()).unwrap();
        let fighter =
            air.squadrons.iter().map(|(s, _)| s.name.clone()).find(|n| c.bomb_load(Side::Blue, n).is_none()).unwrap();
        let mut h = Harness::new_ui_state(
            move |ui, out: &mut Option<MapCommand>| {
                if let Some(cmd) = air_force(ui, &c, Side::Blue) {
                    *out = Some(cmd);
                }
            },
            None,
        );
        h.run();
        assert!(h.query_by_label_contains(&format!("{fighter}: ")).is_some(), "every squadron is listed");
        assert_eq!(h.get_all_by_label("Bombing raid:").count(), 1, "only the bomber is offered a raid");
        h.get_by_label(&board.0).click();
        h.run();
        assert_eq!(h.state().clone(), Some(MapCommand::Raid { squadron: bomber, board: Some(board) }));
    }

    #[test]
    fn a_force_in_its_box_is_offered_to_join_a_friend_on_an_adjacent_edge() {
        use warbound_campaign::map::common::Edge;
        use warbound_campaign::map::occupation::Place;
        use warbound_campaign::play::state::Whereabouts;
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let mut c = war.progress.campaign.clone();
        // Two battalions arrived at Castel by roads from the west and the south.
        let castel = BoardId::new("Castel");
        let any = c.occupation.values().flat_map(|o| o.occupants.iter()).next().unwrap().clone();
        for (name, edge) in [("4th Dorsets", Edge::West), ("7th Hampshires", Edge::South)] {
            let mut o = any.clone();
            (o.force, o.side, o.place, o.arrival_edge) = (name.into(), Side::Blue, Place::Box(edge), edge);
            c.occupation.get_mut(&castel).unwrap().occupants.push(o);
            let i = c.forces.iter().position(|f| f.name == name).unwrap();
            c.forces[i].at = Whereabouts::Board(castel.clone());
        }
        let f = c.force("7th Hampshires").unwrap().clone();
        let shown = c.clone();
        let mut h = Harness::new_ui_state(
            move |ui, to: &mut Option<Edge>| {
                if let Some(e) = box_shift(ui, &shown, &f, &castel) {
                    *to = Some(e);
                }
            },
            None,
        );
        h.run();
        h.get_by_label("Join 4th Dorsets in the west box").click();
        h.run();
        assert_eq!(*h.state(), Some(Edge::West));
        c.command(MapCommand::ShiftBox { force: "7th Hampshires".into(), to: Edge::West }).unwrap();
        let f = c.force("7th Hampshires").unwrap().clone();
        let mut h = Harness::new_ui(move |ui| {
            box_shift(ui, &c, &f, &BoardId::new("Castel"));
        });
        h.run();
        assert!(h.query_by_label("Join 4th Dorsets in the west box").is_none(), "together now: no shift offered");
    }

    #[test]
    fn a_fraction_is_offered_to_merge_another_of_its_battlegroup_beside_it() {
        use warbound_campaign::map::common::ForceKind;
        use warbound_campaign::play::state::Whereabouts;
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let mut c = war.progress.campaign.clone();
        let castel = BoardId::new("Castel");
        let any = c.occupation.values().flat_map(|o| o.occupants.iter()).next().unwrap().clone();
        let bg = "7th Hampshires";
        let (a, b) = ("A Company (Fraction of 7th Hampshires)", "B Company (Fraction of 7th Hampshires)");
        for name in [a, b] {
            let mut f = c.force(bg).unwrap().clone();
            (f.name, f.kind, f.parent, f.at) =
                (name.into(), ForceKind::Fraction, Some(bg.into()), Whereabouts::Board(castel.clone()));
            c.forces.push(f);
            let mut o = any.clone();
            (o.force, o.side) = (name.into(), Side::Blue);
            c.occupation.get_mut(&castel).unwrap().occupants.push(o);
        }
        let f = c.force(a).unwrap().clone();
        let shown = c.clone();
        let mut h = Harness::new_ui_state(
            move |ui, given: &mut Option<MapCommand>| {
                if let Some(m) = fraction_merges(ui, &shown, &f) {
                    *given = Some(m);
                }
            },
            None,
        );
        h.run();
        h.get_by_label(&format!("Merge {b} into it")).click();
        h.run();
        assert_eq!(h.state().clone(), Some(MapCommand::MergeFractions { fraction: a.into(), with: b.into() }));
        // Apart, or a battlegroup: nothing to merge.
        let i = c.forces.iter().position(|x| x.name == b).unwrap();
        c.forces[i].at = Whereabouts::Board(BoardId::new("St Peter Port"));
        let (f, hampshires) = (c.force(a).unwrap().clone(), c.force(bg).unwrap().clone());
        let mut h = Harness::new_ui(move |ui| {
            fraction_merges(ui, &c, &f);
            fraction_merges(ui, &c, &hampshires);
        });
        h.run();
        assert!(h.query_by_label_contains("Merge").is_none(), "none beside it");
    }

    #[test]
    fn a_landing_force_reads_how_many_of_its_waves_are_ashore() {
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let mut c = war.progress.campaign.clone();
        let dorsets = |c: &Campaign| c.force("4th Dorsets").unwrap().clone();
        assert_eq!(coming_ashore(&c, &dorsets(&c)), None, "afloat");
        // The first day's sessions until the battalion lands at Cobo Bay.
        c.begin_day();
        for _ in 0..6 {
            c.play_session_with(None);
            if c.waves_ashore("4th Dorsets").is_some() {
                break;
            }
        }
        assert_eq!(dorsets(&c).board().map(|b| b.0.as_str()), Some("Cobo Bay"));
        assert_eq!(coming_ashore(&c, &dorsets(&c)).as_deref(), Some("Coming ashore: 1 of 2 waves landed"));
        for _ in 0..12 {
            if c.waves_ashore("4th Dorsets").is_none() {
                break;
            }
            c.play_session_with(None);
        }
        assert_eq!(coming_ashore(&c, &dorsets(&c)), None, "all ashore, or off the beach");
    }

    #[test]
    fn the_forces_window_says_where_a_force_waits_to_land_or_drop() {
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let c = &war.progress.campaign;
        let at = |name: &str| whereabouts(c.force(name).unwrap());
        assert_eq!(at("C Company, 2nd Parachute Battalion"), "at its airfield, to drop on Forest on day 1");
        assert_eq!(at("5th Dorsets"), "afloat, to land at L'Ancresse on day 2");
        assert_eq!(at("III./IR 582"), "Forest");
    }

    #[test]
    fn the_resistance_panel_shows_each_cell_and_its_battle() {
        use warbound_campaign::paper::dunnigan::{Attitude, Situation, Terrain};
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let mut c = war.progress.campaign.clone();
        let p = c.partisans.as_mut().unwrap();
        let first = p.cells[0].name.clone();
        (p.cells[0].members, p.cells[0].radio, p.cells[0].explosives, p.cells[0].standing) =
            (6, true, 2, Standing::Free);
        let mut lone = warbound_campaign::paper::partisans::Cell::new("The Vale cell", 1);
        lone.standing = Standing::Dispersed;
        p.cells.push(lone);
        let name = |side: Side| c.forces.iter().find(|f| f.side == side).unwrap().name.clone();
        let battle = warbound_campaign::play::state::PaperBattle {
            board: BoardId::new("St Peter Port"),
            attacker: name(Side::Blue),
            defender: name(Side::Red),
            situation: Situation::new(Terrain::City, Attitude::Present),
            contact: c.date,
            combat_sessions: 0,
            engagement: None,
            table: None,
            joined: Vec::new(),
            partisans: Some(0),
        };
        let (beside, board) = (battle.attacker.clone(), battle.board.0.clone());
        c.battles = vec![battle];
        let shown = c.clone();
        let mut h = Harness::new_ui(move |ui| resistance(ui, &shown, Side::Blue));
        h.run();
        h.get_by_label("The resistance");
        h.get_by_label(&format!("{first}: 6 members, a radio, 2 units of explosives; free to act"));
        h.get_by_label(&format!("  Fighting beside {beside} on {board}"));
        h.get_by_label(
            "The Vale cell: 1 member, no radio, no explosives; dispersed after its battle, until a double on the weekly 5D6",
        );
        let mut hidden = Harness::new_ui(move |ui| resistance(ui, &c, Side::Red));
        hidden.run();
        assert!(hidden.query_by_label("The resistance").is_none(), "the occupier does not see the cells");
    }

    #[test]
    fn the_player_chooses_what_his_observers_ask() {
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let f = war.progress.campaign.forces.iter().find(|f| f.is_battlegroup()).unwrap().clone();
        let name = f.name.clone();
        let mut h = Harness::new_ui_state(
            move |ui, out: &mut Option<MapCommand>| {
                if let Some(cmd) = questions(ui, &f) {
                    *out = Some(cmd);
                }
            },
            None,
        );
        h.run();
        h.get_by_label("Their attitude").click();
        h.run();
        assert_eq!(
            h.state().clone(),
            Some(MapCommand::Inquire {
                force: name,
                questions: vec![Question::Troops, Question::Numbers, Question::Defences, Question::Boxes],
            }),
            "every question but the attitude"
        );
    }

    #[test]
    fn the_player_orders_his_commandos_to_conceal_and_a_line_battalion_is_not_offered_it() {
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let c = war.progress.campaign.clone();
        let commando = c.forces.iter().find(|f| f.side == Side::Blue && f.elite).unwrap().clone();
        let line = c.forces.iter().find(|f| f.side == Side::Blue && !f.kit.iter().any(|k| may_conceal(f, k))).unwrap();
        let (c2, line) = (c.clone(), line.clone());
        let mut none = Harness::new_ui(move |ui| {
            concealment(ui, &c2, &line);
        });
        none.run();
        assert!(none.query_by_label("Conceal on the board").is_none(), "no Elite or Enhanced infantry");
        let name = commando.name.clone();
        let mut h = Harness::new_ui_state(
            move |ui, out: &mut Option<MapCommand>| {
                if let Some(cmd) = concealment(ui, &c, &commando) {
                    *out = Some(cmd);
                }
            },
            None,
        );
        h.run();
        h.get_by_label("Conceal on the board").click();
        h.run();
        assert_eq!(h.state().clone(), Some(MapCommand::Conceal { force: name, conceal: true }));
    }

    #[test]
    fn commandos_on_a_railway_are_offered_its_cutting() {
        use warbound_campaign::play::demolitions::carries_charges;
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let mut c = war.progress.campaign.clone();
        let rail = c.occupation.keys().find(|b| c.railway_at(b)).unwrap().clone();
        c.occupation.get_mut(&rail).unwrap().occupants.clear();
        let mut commando = c.forces.iter().find(|f| carries_charges(f)).unwrap().clone();
        commando.at = Whereabouts::Board(rail.clone());
        let mut riflemen = c.forces.iter().find(|f| f.is_battlegroup() && !carries_charges(f)).unwrap().clone();
        riflemen.at = commando.at.clone();
        let name = commando.name.clone();
        let label = format!("Cut the railway at {rail}");
        let shown = c.clone();
        let mut h = Harness::new_ui_state(
            move |ui, out: &mut (Detach, Option<MapCommand>)| {
                if let Some(cmd) = detachments(ui, &shown, &commando, &mut out.0) {
                    out.1 = Some(cmd);
                }
            },
            (Detach::default(), None),
        );
        h.run();
        h.get_by_label(&label).click();
        h.run();
        assert_eq!(h.state().1, Some(MapCommand::CutRailway { force: name }));
        let h = Harness::new_ui_state(
            move |ui, d: &mut Detach| {
                detachments(ui, &c, &riflemen, d);
            },
            Detach::default(),
        );
        assert!(h.query_by_label(&label).is_none(), "riflemen carry no charges");
    }

    #[test]
    fn the_detachments_panel_splits_sends_and_merges() {
        let war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        let c = war.progress.campaign.clone();
        let f =
            c.forces.iter().find(|f| f.side == Side::Red && f.board().is_some() && f.is_battlegroup()).unwrap().clone();
        let (name, first) = (f.name.clone(), f.battlegroup.elements[0].name.clone());
        let shown = c.clone();
        let mut h = Harness::new_ui_state(
            move |ui, out: &mut (Detach, Option<MapCommand>)| {
                if let Some(cmd) = detachments(ui, &shown, &f, &mut out.0) {
                    out.1 = Some(cmd);
                }
            },
            (Detach::default(), None),
        );
        h.run();
        h.get_by_label_contains(&first).click();
        h.run();
        h.get_by_label("Split off as a Fraction").click();
        h.run();
        let split = h.state().1.clone().expect("the split is asked for");
        assert_eq!(
            split,
            MapCommand::Fraction {
                force: name.clone(),
                name: format!("{first} (Fraction of {name})"),
                elements: vec![first.clone()]
            }
        );
        assert!(h.state().0.chosen.is_empty(), "the choice is cleared once given");
        // A picket: the elements, then the board next door.
        h.get_by_label_contains(&first).click();
        h.run();
        let board = c.force(&name).unwrap().board().unwrap().clone();
        let next = c.file.map.legs_from(&board)[0].to.clone();
        h.get_by_label("Send as a picket").click();
        h.run();
        assert!(matches!(h.state().1, Some(MapCommand::Fraction { .. })), "no picket until a board is chosen");
        h.state_mut().0.post = Some(next.clone());
        h.run();
        h.get_by_label("Send as a picket").click();
        h.run();
        match h.state().1.clone() {
            Some(MapCommand::Picket { force, to, elements, .. }) => {
                assert_eq!((force, to, elements), (name.clone(), next, vec![first.clone()]));
            }
            other => panic!("a picket was asked for, not {other:?}"),
        }
    }

    #[test]
    fn the_top_bar_reads_the_forecast_three_days_ahead() {
        let mut war = warbound_war::shipped::war("guernsey-1942", 3, warbound_war::Battles::Paper).unwrap();
        assert!(forecast_line(&war.progress.campaign).is_none(), "nothing forecast before the first day");
        war.play_session();
        let line = forecast_line(&war.progress.campaign).expect("Guernsey forecasts its weather");
        assert!(line.starts_with("Forecast: tomorrow "), "{line}");
        assert!(line.contains("in 2 days") && line.contains("in 3 days") && line.contains(", wind: "), "{line}");
    }
}
