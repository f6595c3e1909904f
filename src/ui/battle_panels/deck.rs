//! The Order Priority Cards window: the bound's cards in the order they
//! are played, who holds each, which have acted and which acts now.

use std::fmt::Debug;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use warbound_rules::{
    forces::Role,
    narrate::{Names as NameOf, id_name},
    opc::{Card, Deal},
};

use crate::battle::{
    Selected,
    names::Names,
    setup::Mechanism,
    state::{Battle, ElementView, FieldedReadOnly, Flow, Sides},
};

use super::{officer_text, player_sides, side_colour, sorted, words};

/// Where the flow stands, in words.
pub(super) fn flow_text(flow: &Flow, sides: &Sides, names: NameOf) -> String {
    let side = |s: usize| sides.0.get(s).map_or_else(|| format!("Side {}", s + 1), |side| side.name.clone());
    let name = |id: &str| names(id).unwrap_or_else(|| id_name(id));
    match flow {
        Flow::Idle => "Waiting for a battle".into(),
        Flow::StartBound => "Start of bound".into(),
        Flow::Deal => "Dealing the cards".into(),
        Flow::NextCard => "Next card".into(),
        Flow::Acting(turn) => {
            let taken: Vec<String> = turn.taken.iter().map(words).collect();
            if taken.is_empty() {
                format!("{} acts (first: {})", name(&turn.element), words(turn.orders.order))
            } else {
                format!(
                    "{} acts (first: {}; taken: {})",
                    name(&turn.element),
                    words(turn.orders.order),
                    taken.join(", ")
                )
            }
        }
        Flow::Commanding(h) => format!("{} gives out its Command Dice", side(h.player)),
        Flow::Seize { element } => format!("{} has Seized the Initiative", name(element)),
        Flow::CoTurn { side: s, company, .. } => {
            let id = sides.0.get(*s).and_then(|side| side.companies.get(*company)).map(|c| c.id.clone());
            format!("{}: the Company Officer's turn", id.map_or_else(|| side(*s), |id| name(&id)))
        }
        Flow::Session { side: s } => format!("{}: the Senior Officer's session", side(*s)),
        Flow::EndBound => "End of bound".into(),
        Flow::Paused => "The battle waits for the campaign".into(),
        Flow::Over => "The battle is over".into(),
    }
}

/// One Order Priority Card of the bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CardRow {
    pub(super) card: Card,
    /// The holder's id: element, Company, FOO, battery, squadron, Air Command.
    pub(super) holder: String,
    /// What the player reads for the holder.
    pub(super) name: String,
    /// What holds it and who leads: "NCO Bold (3)", "Company Officer Regular (2)".
    pub(super) leader: String,
    pub(super) side: Option<usize>,
    /// Whether the holder is an element (a click selects it).
    pub(super) element: bool,
    pub(super) acted: bool,
    pub(super) now: bool,
}

/// Whether the holder of `card` has acted this bound. The deck keeps which
/// cards are played; a card is only ever played when it is the lowest unplayed
/// one, and a Seize swap only moves unplayed cards, so the played cards are
/// exactly those below the card acting now (every card, once none acts).
pub(in crate::ui) fn played(deck: &Deal, card: Card) -> bool {
    deck.acting_now().and_then(|id| deck.card_of(id)).is_none_or(|now| card < now)
}

/// The cards of the bound in the order they are played.
pub(super) fn deck_rows(deck: &Deal, els: &[ElementView], sides: &Sides, names: NameOf) -> Vec<CardRow> {
    let now = deck.acting_now();
    deck.order()
        .into_iter()
        .enumerate()
        .map(|(k, id)| {
            let card = deck.card_of(id).unwrap_or((k + 1) as Card);
            let (leader, side, element) = holder_of(id, els, sides, names);
            CardRow {
                card,
                holder: id.to_owned(),
                name: names(id).unwrap_or_else(|| id_name(id)),
                leader,
                side,
                element,
                acted: played(deck, card),
                now: Some(id) == now,
            }
        })
        .collect()
}

/// Who holds a card: what it is, who leads it and its side.
pub(super) fn holder_of(id: &str, els: &[ElementView], sides: &Sides, names: NameOf) -> (String, Option<usize>, bool) {
    if let Some(f) = els.iter().find(|f| f.id() == id) {
        let leader = match (&f.force.element.role, f.force.element.nco) {
            (Role::Transport { .. }, _) => "transport".to_owned(),
            (_, Some(nco)) => format!("NCO {}", officer_text(nco)),
            (_, None) => "no NCO".to_owned(),
        };
        return (leader, Some(f.identity.side), true);
    }
    for (s, side) in sides.0.iter().enumerate() {
        if let Some(c) = side.companies.iter().find(|c| c.id == id) {
            return (format!("Company Officer {}", officer_text(c.co)), Some(s), false);
        }
        if let Some(observer) = side.foos.iter().find(|f| f.id == id) {
            return (
                format!(
                    "FOO {} with {}",
                    officer_text(observer.foo.officer),
                    names(&observer.with).unwrap_or_else(|| id_name(&observer.with))
                ),
                Some(s),
                false,
            );
        }
        if let Some(b) = side.batteries.iter().find(|b| b.id == id) {
            return (format!("battery, {} × {}", b.guns, b.gun), Some(s), false);
        }
        if let Some(q) = side.squadrons.iter().find(|q| q.id == id) {
            return (format!("squadron, leader {}", officer_text(q.leader)), Some(s), false);
        }
        if side.air_command.as_ref().is_some_and(|a| a.id == id) {
            return ("Air Command".to_owned(), Some(s), false);
        }
    }
    (String::new(), None, false)
}

/// The Order Priority Cards' contents: the bound, the hour and the light,
/// where the flow stands, then the bound's cards in order, the acting one
/// marked ▶ and those played ✔. Returns the element whose card was clicked.
pub(super) fn deck_ui(
    ui: &mut egui::Ui,
    battle: &Battle,
    flow: &Flow,
    els: &[ElementView],
    sides: &Sides,
    names: NameOf,
) -> Option<String> {
    let players = player_sides(sides);
    let clock = &battle.clock;
    ui.strong(format!(
        "Bound {} of {} · {:02}:00 · {}",
        clock.bound(),
        battle.start.last_bound(),
        clock.hour(),
        words(clock.light())
    ));
    ui.label(egui::RichText::new(flow_text(flow, sides, names)).small().color(egui::Color32::from_gray(170)));
    if battle.start.mechanism == Mechanism::TwoPlayer {
        ui.label("2-player game: Command Dice take the place of the cards.");
        return None;
    }
    let Some(deck) = &battle.deck else {
        ui.label("No cards dealt this bound yet.");
        return None;
    };
    let rows = deck_rows(deck, els, sides, names);
    let mut clicked = None;
    ui.separator();
    egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
        egui::Grid::new("opc_deck").num_columns(3).striped(true).show(ui, |ui| {
            for r in &rows {
                let mark = if r.now {
                    "▶"
                } else if r.acted {
                    "✔"
                } else {
                    ""
                };
                let mut card = egui::RichText::new(format!("{mark} {}", r.card));
                let mut holder = egui::RichText::new(&r.name).color(side_colour(r.side, &players));
                let mut leader = egui::RichText::new(&r.leader).small();
                if r.now {
                    card = card.strong().color(egui::Color32::from_rgb(255, 220, 90));
                    holder = holder.strong().background_color(egui::Color32::from_rgb(70, 60, 20));
                } else if r.acted {
                    holder = holder.weak();
                    leader = leader.weak();
                }
                ui.label(card);
                let sense = if r.element { egui::Sense::click() } else { egui::Sense::hover() };
                let response = ui.add(egui::Label::new(holder).sense(sense));
                if r.element && response.clicked() {
                    clicked = Some(r.holder.clone());
                }
                ui.label(leader);
                ui.end_row();
            }
        });
    });
    clicked
}

pub(super) fn deck_window(
    mut contexts: EguiContexts,
    battle: Res<Battle>,
    (sides, at): (Res<Sides>, Res<crate::view::AtScreen>),
    flow: Res<Flow>,
    q: Query<FieldedReadOnly>,
    names: Res<Names>,
    mut selected: ResMut<Selected>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let sides = at.seen(&sides);
    let els = sorted(&q);
    let name_of = |id: &str| names.get(id);
    let clicked = egui::Window::new("Order Priority Cards")
        .anchor(egui::Align2::RIGHT_TOP, [-10.0, 10.0])
        .default_width(300.0)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| deck_ui(ui, &battle, &flow, &els, &sides, &name_of))
        .and_then(|r| r.inner.flatten());
    if clicked.is_some() {
        selected.0 = clicked;
    }
}
