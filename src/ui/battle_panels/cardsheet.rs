//! The Cardsheet window: the selected element's men, weapons, rounds,
//! leader, orders and Continuous Momentum, as *Fight Your Own Battles*
//! keeps it; nothing of an enemy the player has not observed.

use std::fmt::Debug;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use warbound_rules::{
    codex::{Codex, ShotsPerDay},
    forces::Role,
    narrate::{Names as NameOf, id_name},
    opc::Deal,
};

use crate::battle::{
    Selected,
    names::Names,
    state::{Battle, ElementView, FieldedReadOnly, Sides, Status},
};

use super::{observed, officer_text, player_sides, side_colour, sorted, words};

/// Bounds of fire left today: "■■□ 2/3", "unlimited", "2 left".
pub(super) fn rounds_text(left: Option<u8>, allowance: Option<u8>) -> String {
    match (left, allowance) {
        (None, _) => "unlimited".to_owned(),
        (Some(l), Some(a)) if a >= l => {
            format!("{}{} {l}/{a}", "■".repeat(l.into()), "□".repeat((a - l).into()))
        }
        (Some(l), _) => format!("{l} left"),
    }
}

/// A weapon's day allowance in bounds of fire, where it is limited.
pub(super) fn allowance(shots: ShotsPerDay) -> Option<u8> {
    match shots {
        ShotsPerDay::Bounds(n) => Some(n),
        ShotsPerDay::Unlimited | ShotsPerDay::PerThreeMen => None,
    }
}

/// A weapon box of the Cardsheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct WeaponBox {
    /// "8 × Rifle", "6pdr AT gun: AT gun class 3 (crew 3)".
    pub(super) name: String,
    pub(super) rounds: String,
}

/// The Cardsheet of one element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Sheet {
    pub(super) title: String,
    pub(super) subtitle: String,
    pub(super) rows: Vec<(&'static str, String)>,
    pub(super) weapons: Vec<WeaponBox>,
    pub(super) notes: Vec<String>,
}

/// The element's Cardsheet (FYOB's, from what the battle keeps): number,
/// quality, NCO, CMS, men, order, its OPC this bound, its weapons with the
/// bounds of fire left, and notes (radio, transport, officers with it).
pub(super) fn cardsheet(
    f: &ElementView,
    els: &[ElementView],
    sides: &Sides,
    deck: Option<&Deal>,
    codex: Option<&Codex>,
    names: NameOf,
) -> Sheet {
    let called = |id: &str| names(id).unwrap_or_else(|| id_name(id));
    let side = sides.0.get(f.identity.side);
    let company = side.and_then(|s| s.companies.get(f.identity.company));
    let subtitle = [side.map(|s| s.name.clone()), company.map(|c| called(&c.id)), Some(words(f.force.build))]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ");
    let mut rows: Vec<(&'static str, String)> = vec![("Number", (u32::from(f.identity.index) + 1).to_string())];
    let quality = if f.force.engineers {
        format!("{} (engineers: Poor for firing and CM tests)", words(f.force.quality))
    } else {
        words(f.force.quality)
    };
    rows.push(("Quality", quality));
    let nco = match (&f.force.element.role, f.force.element.nco) {
        (Role::Transport { .. }, _) => "none (transport duty)".to_owned(),
        (_, Some(nco)) => officer_text(nco),
        (_, None) => "none".to_owned(),
    };
    rows.push(("NCO", nco));
    rows.push(("CMS", f.force.element.cms.to_string()));
    rows.push(("Men", format!("{} of {}", f.men(), f.force.men_start)));
    if let Some(v) = f.vehicle.state {
        rows.push(("Vehicle", words(v)));
    }
    let status = match f.presence.status {
        Status::Waiting(b) => format!("in the box, arrives bound {b}"),
        Status::Reserve => "reserve, not committed".to_owned(),
        Status::Aboard(k) => match els.get(usize::from(k)) {
            Some(v) => format!("aboard {}", called(v.id())),
            None => "aboard a transport".to_owned(),
        },
        s => words(s),
    };
    rows.push(("Status", status));
    let mut order = format!("{} {}", f.order.objective.activity.number(), words(f.order.objective.activity));
    if !f.order.objective.location.is_empty() {
        order.push_str(&format!(" — {}", f.order.objective.location));
    }
    if !f.order.objective.detail.is_empty() {
        order.push_str(&format!(" ({})", f.order.objective.detail));
    }
    rows.push(("Order", order));
    let opc = match deck.and_then(|d| d.card_of(f.id()).map(|c| (d, c))) {
        Some((d, card)) => {
            let now = d.acting_now();
            let state = if now == Some(f.id()) {
                "acting now"
            } else if now.and_then(|id| d.card_of(id)).is_none_or(|c| card < c) {
                "acted"
            } else {
                "to act"
            };
            format!("card {card}, {state}")
        }
        None => "none this bound".to_owned(),
    };
    rows.push(("OPC", opc));
    if let Some(counter) = f.actions.counter {
        rows.push(("Counter", words(counter)));
    }
    if f.actions.shots_used > 0 {
        rows.push(("Fired", format!("{} times this battle", f.actions.shots_used)));
    }

    let name = |id: &str| codex.and_then(|c| c.get(id).ok()).map_or_else(|| id.to_owned(), |e| e.name.clone());
    let mut weapons = Vec::new();
    // Figures by personal weapon and rounds left, in the order first carried.
    let mut carried: Vec<(Option<&str>, Option<u8>, u32)> = Vec::new();
    for fig in &f.force.element.figures {
        let key = (fig.weapon.as_deref(), fig.rounds);
        match carried.iter_mut().find(|(w, r, _)| (*w, *r) == key) {
            Some(entry) => entry.2 += 1,
            None => carried.push((key.0, key.1, 1)),
        }
    }
    for (weapon, left, n) in carried {
        let Some(weapon) = weapon else {
            weapons.push(WeaponBox { name: format!("{n} × unarmed"), rounds: String::new() });
            continue;
        };
        let day = codex
            .and_then(|c| c.get(weapon).ok())
            .and_then(|e| e.armament.first())
            .and_then(|a| allowance(a.shots_per_day()));
        weapons.push(WeaponBox { name: format!("{n} × {}", name(weapon)), rounds: rounds_text(left, day) });
    }
    for piece in &f.force.element.pieces {
        let entry = codex.and_then(|c| c.get(&piece.codex).ok());
        for (k, left) in piece.rounds.iter().enumerate() {
            let armament = entry.and_then(|e| e.armament.get(k));
            let row = armament.map(|a| {
                if a.count > 1 { format!(": {} × {}", a.count, words(a.row)) } else { format!(": {}", words(a.row)) }
            });
            weapons.push(WeaponBox {
                name: format!("{}{} (crew {})", name(&piece.codex), row.unwrap_or_default(), piece.crew),
                rounds: rounds_text(*left, armament.and_then(|a| allowance(a.shots_per_day()))),
            });
        }
        if piece.rounds.is_empty() {
            weapons.push(WeaponBox {
                name: format!("{} (crew {})", name(&piece.codex), piece.crew),
                rounds: String::new(),
            });
        }
    }

    let mut notes = Vec::new();
    if f.force.radio {
        notes.push(
            match &f.force.off_net {
                None => "Radio",
                Some(net) if net.dis => "Radio DIS",
                Some(_) => "Radio off the net",
            }
            .to_owned(),
        );
    }
    if let Some(side) = side {
        for observer in side.foos.iter().filter(|o| o.with == f.id() && o.alive) {
            let net = &observer.foo.net;
            let state = if net.dis {
                "radio DIS"
            } else if net.netted {
                "netted in"
            } else {
                "not netted in"
            };
            notes.push(format!("{}: {state}", called(&observer.id)));
        }
        for c in side.companies.iter().filter(|c| c.attached_to == f.id() && c.co_alive) {
            notes.push(format!("Company Officer of {} with it: {}", called(&c.id), officer_text(c.co)));
        }
    }
    match &f.force.element.role {
        Role::Transport { carrying: Some(p) } => notes.push(format!("Transport, carrying {}", called(p))),
        Role::Transport { carrying: None } => notes.push("Transport, empty".to_owned()),
        Role::Fighting => {}
    }
    for carrier in
        els.iter().filter(|o| matches!(&o.force.element.role, Role::Transport { carrying: Some(p) } if p == f.id()))
    {
        notes.push(format!("Carried by {}", called(carrier.id())));
    }
    if f.concealment.concealed() {
        notes.push("Concealed".to_owned());
    }
    if f.force.sniper {
        notes.push("Sniper".to_owned());
    }
    if f.presence.without_cohesion {
        notes.push("Without cohesion".to_owned());
    }
    if !f.momentum.accrued.events.is_empty() {
        let due: Vec<String> =
            f.momentum.accrued.events.iter().map(|(cause, n)| format!("{} × {n}", words(cause))).collect();
        notes.push(format!("CM tests accrued: {}", due.join(", ")));
    }
    Sheet { title: called(f.id()), subtitle, rows, weapons, notes }
}

/// The Cardsheet's contents for `f`: its sheet ([`cardsheet`]), or, for an
/// enemy the player's force has not observed, only that.
pub(super) fn cardsheet_ui(
    ui: &mut egui::Ui,
    f: &ElementView,
    els: &[ElementView],
    sides: &Sides,
    deck: Option<&Deal>,
    codex: Option<&Codex>,
    names: NameOf,
) {
    let players = player_sides(sides);
    if !observed(f, els, sides, &players) {
        ui.strong(names(f.id()).unwrap_or_else(|| id_name(f.id())));
        ui.label("An enemy element your force has not observed.");
        return;
    }
    let sheet = cardsheet(f, els, sides, deck, codex, names);
    ui.heading(egui::RichText::new(&sheet.title).color(side_colour(Some(f.identity.side), &players)));
    ui.label(egui::RichText::new(&sheet.subtitle).small());
    ui.separator();
    egui::Grid::new("cardsheet_rows").num_columns(2).show(ui, |ui| {
        for (k, v) in &sheet.rows {
            ui.label(egui::RichText::new(*k).color(egui::Color32::from_gray(170)));
            ui.label(v);
            ui.end_row();
        }
    });
    if !sheet.weapons.is_empty() {
        ui.separator();
        ui.strong("Weapons");
        egui::Grid::new("cardsheet_weapons").num_columns(2).show(ui, |ui| {
            for w in &sheet.weapons {
                ui.label(&w.name);
                ui.monospace(&w.rounds);
                ui.end_row();
            }
        });
    }
    if !sheet.notes.is_empty() {
        ui.separator();
        ui.strong("Notes");
        for n in &sheet.notes {
            ui.label(n);
        }
    }
}

pub(super) fn cardsheet_window(
    mut contexts: EguiContexts,
    battle: Res<Battle>,
    sides: Res<Sides>,
    q: Query<FieldedReadOnly>,
    names: Res<Names>,
    mut selected: ResMut<Selected>,
    at: Res<crate::view::AtScreen>,
) {
    let Some(id) = selected.0.clone() else { return };
    let sides = at.seen(&sides);
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let els = sorted(&q);
    let Some(f) = els.iter().copied().find(|f| f.id() == id) else { return };
    let mut open = true;
    egui::Window::new("Cardsheet")
        .open(&mut open)
        .default_pos([10.0, 150.0])
        .default_width(300.0)
        .default_open(false)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| {
            cardsheet_ui(ui, &f, &els, &sides, battle.deck.as_ref(), crate::data::codex().ok(), &|id: &str| {
                names.get(id)
            })
        });
    if !open {
        selected.0 = None;
    }
}
