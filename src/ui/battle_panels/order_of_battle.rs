//! The Order of Battle window: each side's companies and their elements as
//! the player knows them (all of his own, the enemy's he has seen), with who
//! has acted this bound and how each stands. A click on a company or an
//! element selects it and turns the view on it: at a battalion's scale the
//! way to find one section among eighty.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use warbound_rules::{
    narrate::{Names as NameOf, id_name},
    opc::Deal,
    terrain::Point,
};

use crate::{
    battle::{
        Selected,
        names::Names,
        state::{Battle, ElementView, FieldedReadOnly, Sides, Status},
    },
    view::CentreView,
};

use super::{listed, officer_text, played, player_sides, side_colour, sorted, words};

/// Where an element's Order Priority Card stands this bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Turn {
    /// Dealt no card this bound (in the box, aboard, gone; or no deal yet).
    NoCard,
    ToCome,
    Acting,
    Acted,
}

/// One element of the Order of Battle.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ElementRow {
    pub(super) id: String,
    pub(super) name: String,
    /// How it stands, in words: "8 of 10 men, Attack", "arrives in bound 3".
    pub(super) state: String,
    pub(super) turn: Turn,
    /// Where it stands, when it is on the table (or aboard a transport there).
    pub(super) at: Option<Point>,
}

/// One company of the Order of Battle, with the elements of it shown.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct CompanyRows {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) side: usize,
    /// Its Company Officer: "Company Officer Regular (2)".
    pub(super) officer: String,
    pub(super) elements: Vec<ElementRow>,
}

impl CompanyRows {
    /// The middle of its elements on the table, if any is.
    pub(super) fn centre(&self) -> Option<Point> {
        let at: Vec<Point> = self.elements.iter().filter_map(|e| e.at).collect();
        (!at.is_empty()).then(|| {
            let n = at.len() as f32;
            Point(at.iter().map(|p| p.0).sum::<f32>() / n, at.iter().map(|p| p.1).sum::<f32>() / n)
        })
    }

    /// Its elements that have acted this bound.
    pub(super) fn acted(&self) -> usize {
        self.elements.iter().filter(|e| e.turn == Turn::Acted).count()
    }
}

/// How an element stands, in words.
fn state_text(f: &ElementView, els: &[ElementView], names: NameOf) -> String {
    let called = |id: &str| names(id).unwrap_or_else(|| id_name(id));
    let order = words(f.order.objective.activity);
    let men = format!("{} of {} men", f.men(), f.force.men_start);
    let vehicle = f.vehicle.state.map(|v| format!(", {}", words(v).to_lowercase())).unwrap_or_default();
    match f.presence.status {
        Status::OnTable => format!("{men}{vehicle}, {order}"),
        Status::Aboard(k) => match els.get(usize::from(k)) {
            Some(v) => format!("{men}, aboard {}", called(v.id())),
            None => format!("{men}, aboard a transport"),
        },
        Status::Waiting(b) => format!("arrives in bound {b}"),
        Status::Reserve => "in reserve".to_owned(),
        Status::Retired => format!("{men}, retired to the box"),
        Status::OutOfBattle => "out of the battle".to_owned(),
        Status::Surrendered => "surrendered".to_owned(),
        Status::Destroyed => "destroyed".to_owned(),
    }
}

/// The Order of Battle: every company of every side in scenario order, with
/// those of its elements `known` holds for (the player's own, and the
/// enemy's he has seen); a company none of whose elements he knows is left
/// out.
pub(super) fn order_of_battle(
    els: &[ElementView],
    sides: &Sides,
    deck: Option<&Deal>,
    names: NameOf,
    known: impl Fn(&ElementView) -> bool,
) -> Vec<CompanyRows> {
    let now = deck.and_then(Deal::acting_now);
    let mut out = Vec::new();
    for (s, side) in sides.0.iter().enumerate() {
        for (k, company) in side.companies.iter().enumerate() {
            let elements: Vec<ElementRow> = els
                .iter()
                .filter(|f| f.identity.side == s && f.identity.company == k && known(f))
                .map(|f| ElementRow {
                    id: f.id().to_owned(),
                    name: names(f.id()).unwrap_or_else(|| id_name(f.id())),
                    state: state_text(f, els, names),
                    turn: match deck.and_then(|d| d.card_of(f.id()).map(|c| (d, c))) {
                        None => Turn::NoCard,
                        Some(_) if now == Some(f.id()) => Turn::Acting,
                        Some((d, card)) if played(d, card) => Turn::Acted,
                        Some(_) => Turn::ToCome,
                    },
                    at: f.presence.status.in_play().then_some(f.place.at),
                })
                .collect();
            if elements.is_empty() {
                continue;
            }
            out.push(CompanyRows {
                id: company.id.clone(),
                name: names(&company.id).unwrap_or_else(|| id_name(&company.id)),
                side: s,
                officer: format!("Company Officer {}", officer_text(company.co)),
                elements,
            });
        }
    }
    out
}

/// What was picked in the Order of Battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Pick {
    Company(String),
    Element(String),
}

/// The Order of Battle's contents: a heading for each side (the player's
/// first), a line for each company ("A Company: 4 of 12 acted") that opens
/// on its elements, each marked ✔ once it has acted and ▶ while it acts.
/// The company of the `selected` element starts open. Returns what was clicked.
pub(super) fn order_of_battle_ui(
    ui: &mut egui::Ui,
    companies: &[CompanyRows],
    sides: &Sides,
    selected: Option<&str>,
) -> Option<Pick> {
    let players = player_sides(sides);
    let mut order: Vec<usize> = players.clone();
    order.extend((0..sides.0.len()).filter(|s| !players.contains(s)));
    let mut picked = None;
    egui::ScrollArea::vertical().max_height(220.0).auto_shrink([false, true]).show(ui, |ui| {
        for s in order {
            let of_side: Vec<&CompanyRows> = companies.iter().filter(|c| c.side == s).collect();
            if of_side.is_empty() {
                continue;
            }
            let name = sides.0.get(s).map_or_else(|| format!("Side {}", s + 1), |side| side.name.clone());
            ui.label(egui::RichText::new(name).strong().color(side_colour(Some(s), &players)));
            for c in of_side {
                let holds_selected = selected.is_some_and(|id| c.elements.iter().any(|e| e.id == id));
                let id = ui.make_persistent_id(("order of battle", &c.id));
                egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, holds_selected)
                    .show_header(ui, |ui| {
                        let text = format!("{}: {} of {} acted", c.name, c.acted(), c.elements.len());
                        let mut text = egui::RichText::new(text).color(side_colour(Some(c.side), &players));
                        if holds_selected {
                            text = text.strong();
                        }
                        let response = ui
                            .add(egui::Label::new(text).sense(egui::Sense::click()))
                            .on_hover_text(format!("{} · click to select and centre", c.officer));
                        if response.clicked() {
                            picked = Some(Pick::Company(c.id.clone()));
                        }
                    })
                    .body(|ui| {
                        egui::Grid::new(("order of battle grid", &c.id)).num_columns(3).striped(true).show(ui, |ui| {
                            for e in &c.elements {
                                let mark = match e.turn {
                                    Turn::Acted => "✔",
                                    Turn::Acting => "▶",
                                    Turn::ToCome | Turn::NoCard => "",
                                };
                                ui.label(mark);
                                let mut name = egui::RichText::new(&e.name);
                                let mut state = egui::RichText::new(&e.state).small();
                                if selected == Some(e.id.as_str()) {
                                    name = name.strong().background_color(egui::Color32::from_rgb(40, 60, 90));
                                } else if e.turn == Turn::Acted || e.at.is_none() {
                                    name = name.weak();
                                    state = state.weak();
                                }
                                if ui.add(egui::Label::new(name).sense(egui::Sense::click())).clicked() {
                                    picked = Some(Pick::Element(e.id.clone()));
                                }
                                ui.label(state);
                                ui.end_row();
                            }
                        });
                    });
            }
        }
    });
    picked
}

/// What a pick does: the element picked, or the company's first element on
/// the table, is selected, and the view turns on it or on the company.
pub(super) fn picked(pick: &Pick, companies: &[CompanyRows]) -> (Option<String>, Option<Point>) {
    match pick {
        Pick::Element(id) => {
            let at = companies.iter().flat_map(|c| &c.elements).find(|e| e.id == *id).and_then(|e| e.at);
            (Some(id.clone()), at)
        }
        Pick::Company(id) => match companies.iter().find(|c| c.id == *id) {
            Some(c) => (c.elements.iter().find(|e| e.at.is_some()).map(|e| e.id.clone()), c.centre()),
            None => (None, None),
        },
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn order_of_battle_window(
    mut contexts: EguiContexts,
    battle: Res<Battle>,
    (sides, at): (Res<Sides>, Res<crate::view::AtScreen>),
    q: Query<FieldedReadOnly>,
    names: Res<Names>,
    settings: Res<crate::settings::Settings>,
    mut selected: ResMut<Selected>,
    mut centre: MessageWriter<CentreView>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let sides = at.seen(&sides);
    let els = sorted(&q);
    let name_of = |id: &str| names.get(id);
    let whole = settings.show_whole_table;
    let companies = order_of_battle(&els, &sides, battle.deck.as_ref(), &name_of, |f| listed(f, &sides, &els, whole));
    let pick = egui::Window::new("Order of Battle")
        .default_pos([10.0, 290.0])
        .default_width(320.0)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| order_of_battle_ui(ui, &companies, &sides, selected.0.as_deref()))
        .and_then(|r| r.inner.flatten());
    let Some(pick) = pick else { return };
    let (chosen, point) = picked(&pick, &companies);
    if chosen.is_some() {
        selected.0 = chosen;
    }
    if let Some(point) = point {
        centre.write(CentreView(point));
    }
}
