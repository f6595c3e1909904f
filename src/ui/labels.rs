//! Counters over the table, as FYOB puts them beside the miniatures: each
//! element the person at the screen sees carries its number and name in its
//! side's colour (the selected one framed, the acting one marked, those that
//! have acted this bound faded; where counters crowd, only the number:
//! [`named_counters`]), its red or blue activity counter, and a die showing
//! the CM tests it has accrued.
//! Concealed elements show as concealment counters — one on each placement
//! option or dummy marker — until they are seen or reveal themselves.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use warbound_rules::inches::Inches;

use crate::battle::Selected;
use warbound_rules::{
    geometry::{HILL_LEVEL_HEIGHT, hill_level},
    order_dice::ActivityCounter,
    terrain::Point,
};

use super::battle_panels::played;
use crate::{
    battle::state::{Battle, ElementView, FieldedReadOnly, Flow, Sides},
    states::AppState,
    view::{
        ElementModel, LAST_SEEN_BOUNDS, LastSeen, MoveChance, MovePreview, TableRoot, player_side, shown, to_world,
    },
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (counters, last_seen, concealment_counters, move_label, tray_caption)
            .run_if(in_state(AppState::Battle).and_then(resource_exists::<Battle>)),
    );
}

/// Where enemies were last seen: a fading "?" counter with the bound, over
/// the spot, while the element itself is out of sight.
fn last_seen(
    mut contexts: EguiContexts,
    cameras: Query<(&Camera, &GlobalTransform)>,
    tables: Query<(&TableRoot, &GlobalTransform)>,
    seen: Res<LastSeen>,
    models: Query<(&ElementModel, &InheritedVisibility)>,
    battle: Res<Battle>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let (Ok((camera, eye)), Ok((root, table))) = (cameras.single(), tables.single()) else { return };
    let bound = battle.clock.bound();
    for (id, (at, when)) in &seen.0 {
        if models.iter().any(|(m, v)| m.0 == *id && v.get()) {
            continue;
        }
        let ground = f32::from(hill_level(&battle.terrain, *at)) * HILL_LEVEL_HEIGHT + COUNTER_HEIGHT;
        let world = table.transform_point(to_world(root.0, *at, ground));
        let Ok(screen) = camera.world_to_viewport(eye, world) else { continue };
        let age = bound.saturating_sub(*when) as f32 / LAST_SEEN_BOUNDS as f32;
        let fade = 1.0 - age.clamp(0.0, 0.75);
        let orange = egui::Color32::from_rgb(255, 160, 40).gamma_multiply(fade);
        egui::Area::new(egui::Id::new(("last-seen", id.as_str())))
            .fixed_pos(egui::pos2(screen.x, screen.y))
            .pivot(egui::Align2::CENTER_BOTTOM)
            .interactable(false)
            .order(egui::Order::Background)
            .show(ctx, |ui| {
                egui::Frame::new()
                    .stroke(egui::Stroke::new(1.0, orange))
                    .corner_radius(3.0)
                    .inner_margin(egui::Margin::symmetric(3, 1))
                    .show(ui, |ui| {
                        ui.label(egui::RichText::new(format!("? {id} (seen B{when})")).small().color(orange));
                    });
            });
    }
}

/// The words beside the pointer while a move is given: the inches, and what
/// the Movement Dice make of them.
pub fn move_words(inches: Inches, chance: &MoveChance) -> String {
    match chance {
        MoveChance::Before(r) if r.to_point > 0.0 => format!(
            "{inches:.1} · {:.0}% the dice go this far · even chances {:.1}\", at most {:.1}\"",
            r.to_point * 100.0,
            r.even,
            r.furthest
        ),
        MoveChance::Before(r) => {
            format!("{inches:.1} · out of reach (at most {:.1}\" this way)", r.furthest)
        }
        MoveChance::Thrown { allowance, on_route: true } => {
            format!("stop here: {inches:.1} of {allowance:.1}\" thrown")
        }
        MoveChance::Thrown { allowance, on_route: false } => {
            format!("{inches:.1}: not on the declared route within {allowance:.1}\"")
        }
    }
}

fn move_label(mut contexts: EguiContexts, preview: Res<MovePreview>, windows: Query<&Window>) {
    let Some((inches, chance)) = &preview.0 else { return };
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let Some(cursor) = windows.iter().find_map(|w| w.cursor_position()) else { return };
    egui::Area::new(egui::Id::new("move-label"))
        .fixed_pos(egui::pos2(cursor.x + 16.0, cursor.y + 12.0))
        .interactable(false)
        .order(egui::Order::Tooltip)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(move_words(*inches, chance));
            });
        });
}

/// What the dice in the tray are, in the log's words, above the tray.
fn tray_caption(mut contexts: EguiContexts, throws: Res<crate::view::TrayThrows>) {
    let Some(caption) = &throws.caption else { return };
    let Ok(ctx) = contexts.ctx_mut() else { return };
    egui::Area::new(egui::Id::new("tray-caption"))
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -172.0])
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(380.0);
                ui.label(egui::RichText::new(format!("Dice: {caption}")).small());
            });
        });
}

/// Counters stand this far above an element's base, inches.
const COUNTER_HEIGHT: f32 = 2.5;

fn counters(
    mut contexts: EguiContexts,
    cameras: Query<(&Camera, &GlobalTransform)>,
    models: Query<(&ElementModel, &GlobalTransform, &InheritedVisibility)>,
    elements: Query<FieldedReadOnly>,
    flow: Res<Flow>,
    (selected, battle): (Res<Selected>, Res<Battle>),
    names: Res<crate::battle::names::Names>,
) {
    // Reading: the activity counter shown is the one left from the last bound
    // until the element ends its turn this bound (FYOB "Activity counters":
    // "left on the Cardsheet at the end of the bound" and read by the next
    // bound's tests).
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let Ok((camera, eye)) = cameras.single() else { return };
    let acting = match &*flow {
        Flow::Acting(turn) => Some(turn.element.as_str()),
        _ => None,
    };
    let items: Vec<_> = elements.iter().collect();
    let by_id: std::collections::HashMap<&str, ElementView> = items.iter().map(|f| (f.id(), f.view())).collect();
    let company_of = |id: &str| by_id.get(id).map(|f| (f.identity.side, f.identity.company));
    let chosen = selected.0.as_deref().and_then(company_of);
    let mut shown: Vec<(&ElementView, egui::Pos2, Vec<Marker>, u8)> = Vec::new();
    for (model, at, visible) in &models {
        if !visible.get() {
            continue;
        }
        let Some(f) = by_id.get(model.0.as_str()) else { continue };
        let Ok(screen) = camera.world_to_viewport(eye, at.translation() + Vec3::Y * COUNTER_HEIGHT) else { continue };
        let rank = if acting == Some(f.id()) {
            0
        } else if selected.0.as_deref() == Some(f.id()) {
            1
        } else if chosen == Some((f.identity.side, f.identity.company)) {
            2
        } else {
            3
        };
        shown.push((f, egui::pos2(screen.x, screen.y), markers(f), rank));
    }
    shown.sort_by_key(|(f, _, _, rank)| (*rank, f.identity.index));
    let small = egui::TextStyle::Small.resolve(&ctx.global_style());
    let width = |text: &str| {
        ctx.fonts_mut(|fonts| fonts.layout_no_wrap(text.to_owned(), small.clone(), egui::Color32::WHITE).size())
    };
    let texts: Vec<(String, String)> = shown
        .iter()
        .map(|(f, _, _, _)| {
            let marker = if acting == Some(f.id()) { "▶ " } else { "" };
            let number = format!("{marker}{}", f.identity.index + 1);
            let mut full = format!("{number} {}", names.name(f.id()));
            if let Some(passengers) = f.force.carrying() {
                full.push_str(&format!(", carrying {}", names.name(passengers)));
            }
            (full, number)
        })
        .collect();
    let boxes: Vec<(egui::Rect, egui::Rect)> = shown
        .iter()
        .zip(&texts)
        .map(|((_, foot, chips, _), (full, short))| {
            let chips: f32 = chips.iter().map(|m| width(&m.text).x + CHIP_MARGIN).sum();
            let rect = |text: &str| {
                let size = width(text) + egui::vec2(CHIP_MARGIN + chips, 2.0);
                egui::Rect::from_min_size(*foot - egui::vec2(size.x / 2.0, size.y), size)
            };
            (rect(full), rect(short))
        })
        .collect();
    let named = named_counters(&boxes);
    for (((f, foot, chips, _), (full, short)), named) in shown.iter().zip(&texts).zip(named) {
        let colour = if f.identity.side == 0 {
            egui::Color32::from_rgb(90, 150, 255)
        } else {
            egui::Color32::from_rgb(255, 160, 40)
        };
        // Those that have acted this bound fade, so who is yet to act shows at a glance.
        let acted = battle.deck.as_ref().is_some_and(|d| d.card_of(f.id()).is_some_and(|c| played(d, c)));
        let frame = egui::Frame::new()
            .fill(colour.gamma_multiply(if acted { 0.2 } else { 0.55 }))
            .stroke(if selected.0.as_deref() == Some(f.id()) {
                egui::Stroke::new(2.0, egui::Color32::WHITE)
            } else {
                egui::Stroke::new(1.0, colour)
            })
            .corner_radius(3.0)
            .inner_margin(egui::Margin::symmetric(3, 1));
        let text = if named { full } else { short };
        egui::Area::new(egui::Id::new(("counter", f.id())))
            .fixed_pos(*foot)
            .pivot(egui::Align2::CENTER_BOTTOM)
            .interactable(false)
            .order(egui::Order::Background)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 2.0;
                    frame.show(ui, |ui| {
                        let ink = if acted { egui::Color32::from_gray(190) } else { egui::Color32::WHITE };
                        ui.label(egui::RichText::new(text).small().color(ink));
                    });
                    for marker in chips {
                        marker_chip(ui, marker);
                    }
                });
            });
    }
}

/// A counter's frame and spacing around its text, points.
const CHIP_MARGIN: f32 = 8.0;

/// Which counters carry their element's name (the others only its number,
/// so that a battalion's counters do not cover each other): the counters,
/// most wanted first (the acting element, the selected one, the rest of its
/// company, then the others), each as its labelled and its numbered box.
/// One keeps its name when that box meets none already placed.
pub fn named_counters(boxes: &[(egui::Rect, egui::Rect)]) -> Vec<bool> {
    let mut placed: Vec<egui::Rect> = Vec::with_capacity(boxes.len());
    boxes
        .iter()
        .map(|&(full, short)| {
            let named = !placed.iter().any(|p| p.intersects(full));
            placed.push(if named { full } else { short });
            named
        })
        .collect()
}

/// A small counter beside an element's number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    pub text: String,
    pub fill: [u8; 3],
    pub ink: [u8; 3],
    pub hover: String,
}

/// The counters beside an element: its activity counter (red: fired; blue:
/// moved without firing), the die of CM tests accrued, and "C" while it is
/// in a concealed position.
pub fn markers(f: &ElementView) -> Vec<Marker> {
    let mut out = Vec::new();
    match f.actions.counter {
        Some(ActivityCounter::Red) => out.push(Marker {
            text: "F".into(),
            fill: [200, 30, 30],
            ink: [255, 255, 255],
            hover: "Red activity counter: fired (FYOB \"Activity counters\")".into(),
        }),
        Some(ActivityCounter::Blue) => out.push(Marker {
            text: "M".into(),
            fill: [30, 70, 210],
            ink: [255, 255, 255],
            hover: "Blue activity counter: moved without firing (FYOB \"Activity counters\")".into(),
        }),
        None => {}
    }
    let due = f.momentum.accrued.original(f.force.build.element_type(), f.force.fire_and_cm_quality()).unwrap_or(0);
    if due > 0 {
        out.push(Marker {
            text: format!("CM {due}"),
            fill: [245, 245, 240],
            ink: [20, 20, 20],
            hover: format!(
                "{due} CM tests accrued, before the reductions for its NCO and officers; taken on its next card (FYOB \"Continuous Momentum\")"
            ),
        });
    }
    if f.concealment.concealed() {
        out.push(Marker {
            text: "C".into(),
            fill: [60, 90, 40],
            ink: [230, 240, 200],
            hover: "In a concealed position (FYOB \"Concealment\")".into(),
        });
    }
    out
}

fn marker_chip(ui: &mut egui::Ui, m: &Marker) {
    let [r, g, b] = m.fill;
    let [ir, ig, ib] = m.ink;
    egui::Frame::new()
        .fill(egui::Color32::from_rgb(r, g, b))
        .corner_radius(2.0)
        .inner_margin(egui::Margin::symmetric(3, 1))
        .show(ui, |ui| {
            ui.label(egui::RichText::new(&m.text).small().strong().color(egui::Color32::from_rgb(ir, ig, ib)));
        })
        .response
        .on_hover_text(&m.hover);
}

/// Where the concealment counters of `f` stand, by number, as the battle
/// state holds them: those of its placement options or dummy markers still
/// on the table (dummies found are gone), or the one where it is concealed in
/// place. Empty once it is no longer concealed or off the table.
pub fn concealment_places(f: &ElementView) -> Vec<(u8, Point)> {
    if !f.presence.status.on_table() {
        return Vec::new();
    }
    f.concealment.counters()
}

/// Concealment counters: the enemy's concealed elements the person at the
/// screen has not found, each a numbered "?" counter on every place it may
/// be (its dummies look the same); his own concealed elements' dummies as
/// "dummy" counters, the real one carrying "C" on its own counter.
#[allow(clippy::too_many_arguments)]
fn concealment_counters(
    mut contexts: EguiContexts,
    cameras: Query<(&Camera, &GlobalTransform)>,
    tables: Query<(&TableRoot, &GlobalTransform)>,
    battle: Res<Battle>,
    (sides, at): (Res<Sides>, Res<crate::view::AtScreen>),
    settings: Res<crate::settings::Settings>,
    elements: Query<FieldedReadOnly>,
    names: Res<crate::battle::names::Names>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let sides = at.seen(&sides);
    let (Ok((camera, eye)), Ok((root, table))) = (cameras.single(), tables.single()) else { return };
    let me = player_side(&sides);
    let all: Vec<ElementView> = elements.iter().map(|f| f.view()).collect();
    for f in &all {
        let places = concealment_places(f);
        if places.is_empty() {
            continue;
        }
        let own = me.is_none_or(|me| f.identity.side == me) || settings.show_whole_table;
        if !own && shown(f, &sides, &all, false) {
            continue;
        }
        for &(k, at) in &places {
            let real = at.0 == f.place.at.0 && at.1 == f.place.at.1;
            if own && real {
                // His own real one is the miniature with its "C".
                continue;
            }
            let ground = f32::from(hill_level(&battle.terrain, at)) * HILL_LEVEL_HEIGHT + 0.5;
            let world = table.transform_point(to_world(root.0, at, ground));
            let Ok(screen) = camera.world_to_viewport(eye, world) else { continue };
            let text = if own { format!("dummy: {}", names.name(f.id())) } else { format!("? {k}") };
            let hover = if own {
                "Your dummy concealment counter: the enemy cannot tell it from the real one".to_owned()
            } else {
                "A concealment counter: an enemy element may be here, or it may be a dummy (FYOB \"Concealment\")"
                    .to_owned()
            };
            egui::Area::new(egui::Id::new(("concealed", f.id(), k)))
                .fixed_pos(egui::pos2(screen.x, screen.y))
                .pivot(egui::Align2::CENTER_BOTTOM)
                .order(egui::Order::Background)
                .show(ctx, |ui| {
                    marker_chip(ui, &Marker { text, fill: [60, 90, 40], ink: [230, 240, 200], hover });
                });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::movement::Reach;

    #[test]
    fn crowded_counters_keep_their_numbers_and_the_first_wanted_their_names() {
        let boxed = |x: f32, w: f32| {
            let at = |w: f32| egui::Rect::from_min_size(egui::pos2(x - w / 2.0, 100.0), egui::vec2(w, 12.0));
            (at(w), at(14.0))
        };
        // The acting element's name over a neighbour 30 points to its right:
        // the neighbour shows its number; one far off keeps its name.
        let named = named_counters(&[boxed(100.0, 80.0), boxed(130.0, 80.0), boxed(400.0, 80.0)]);
        assert_eq!(named, [true, false, true]);
        // Numbers do not cover names placed before them: a third counter
        // clear of the first name but on the second's number loses its name.
        let named = named_counters(&[boxed(100.0, 60.0), boxed(140.0, 60.0), boxed(165.0, 60.0)]);
        assert_eq!(named, [true, false, false]);
        let apart = named_counters(&[boxed(100.0, 60.0), boxed(200.0, 60.0)]);
        assert_eq!(apart, [true, true]);
    }

    #[test]
    fn the_move_label_reads_the_chance_and_the_thrown_score() {
        let r = Reach { furthest: 12.0, even: 7.0, to_point: 0.72 };
        let w = move_words(Inches(6.0), &MoveChance::Before(r));
        assert!(w.contains("6.0\"") && w.contains("72%") && w.contains("7.0\"") && w.contains("12.0\""), "{w}");
        let out = move_words(Inches(14.0), &MoveChance::Before(Reach { to_point: 0.0, ..r }));
        assert!(out.contains("out of reach"), "{out}");
        assert!(move_words(Inches(4.0), &MoveChance::Thrown { allowance: 5.0, on_route: true }).contains("stop here"));
        assert!(
            move_words(Inches(4.0), &MoveChance::Thrown { allowance: 5.0, on_route: false })
                .contains("not on the declared route")
        );
    }
}
