//! The battle log window: every rule event the player may see, newest
//! last, as a line of rule, actors, dice and outcome; the whole event on
//! hover; a click selects the element a line concerns.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use serde_json::Value;
use warbound_rules::{
    dice::Thrown,
    event::{Input, RuleEvent},
};

use crate::battle::{
    Selected,
    log::{BattleLog, Entry},
    state::{ElementView, FieldedReadOnly, Sides},
};

use super::words;

/// Log lines kept on screen: the newest, for speed.
pub(super) const LOG_LINES: usize = 300;

/// Characters of an outcome shown on a log line (the hover shows the rest).
pub(super) const OUTCOME_CHARS: usize = 120;

/// Dice by kind, in the order thrown: "d6 2 5 6, d10 7".
pub(super) fn dice_text(dice: &[Thrown]) -> String {
    let mut out = String::new();
    let mut last = None;
    for d in dice {
        if last == Some(d.sides) {
            out.push(' ');
        } else {
            if last.is_some() {
                out.push_str(", ");
            }
            out.push_str(&format!("d{} ", d.sides));
            last = Some(d.sides);
        }
        out.push_str(&d.face.to_string());
    }
    out
}

/// At most `max` characters of `s`, with an ellipsis when cut.
pub(super) fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_owned(),
    }
}

/// An outcome as compact JSON (a plain string bare), cut to `max` characters;
/// empty for none.
pub(super) fn outcome_text(outcome: &Value, max: usize) -> String {
    match outcome {
        Value::Null => String::new(),
        Value::String(s) => clip(s, max),
        v => clip(&v.to_string(), max),
    }
}

/// One rule event on one line: book and section, actor → target, the dice,
/// the outcome.
pub fn event_line(e: &RuleEvent) -> String {
    let mut line = format!("{} {}", e.rule.book.abbrev(), e.rule.section);
    match (&e.actor, &e.target) {
        (Some(a), Some(t)) => line.push_str(&format!(": {a} → {t}")),
        (Some(a), None) => line.push_str(&format!(": {a}")),
        (None, Some(t)) => line.push_str(&format!(": → {t}")),
        (None, None) => {}
    }
    if !e.dice.is_empty() {
        line.push_str(&format!(" [{}]", dice_text(&e.dice)));
    }
    let outcome = outcome_text(&e.outcome, OUTCOME_CHARS);
    if !outcome.is_empty() {
        line.push_str(" ⇒ ");
        line.push_str(&outcome);
    }
    line
}

/// A log entry: its bound, then the event.
pub(super) fn log_line(entry: &Entry) -> String {
    format!("B{} {}", entry.bound, event_line(&entry.event))
}

/// An input with why it has its value: "tests = 3 (mortar fire)".
pub(super) fn input_line(input: &Input) -> String {
    let value = match &input.value {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    if input.reason.is_empty() {
        format!("{} = {value}", input.name)
    } else {
        format!("{} = {value} ({})", input.name, input.reason)
    }
}

/// The element an event concerns: its actor if that is an element, else its
/// target if that is one (a side or a Company is not an element).
pub(super) fn concerns(e: &RuleEvent, is_element: impl Fn(&str) -> bool) -> Option<&str> {
    [e.actor.as_deref(), e.target.as_deref()].into_iter().flatten().find(|id| is_element(id))
}

/// The last [`LOG_LINES`] log lines the person at the screen may see,
/// formatted once as the log grows.
#[derive(Default)]
pub(super) struct LogCache {
    /// Entries in the log when the lines were made.
    pub(super) len: usize,
    /// The entry each line shows.
    pub(super) shown: std::collections::VecDeque<usize>,
    pub(super) lines: std::collections::VecDeque<String>,
    /// Entries kept from him (the fog of war).
    pub(super) hidden: usize,
}

impl LogCache {
    /// Every entry, none hidden (the tests' view of the whole log).
    #[cfg(test)]
    pub(super) fn refresh(&mut self, entries: &[Entry]) {
        self.refresh_hiding(entries, |_| false);
    }

    /// Adds the entries logged since the last refresh, leaving out those
    /// `hidden` says he may not see (decided as they are logged).
    pub(super) fn refresh_hiding(&mut self, entries: &[Entry], hidden: impl Fn(&RuleEvent) -> bool) {
        if entries.len() < self.len {
            *self = LogCache::default();
        }
        for (k, e) in entries.iter().enumerate().skip(self.len) {
            if hidden(&e.event) {
                self.hidden += 1;
                continue;
            }
            self.shown.push_back(k);
            self.lines.push_back(log_line(e));
            if self.lines.len() > LOG_LINES {
                self.shown.pop_front();
                self.lines.pop_front();
            }
        }
        self.len = entries.len();
    }
}

/// Whether the battle log keeps an event from the person at the screen: one
/// that concerns an enemy element he does not see — the fog of war covers
/// the enemy's box and his unobserved moves and fire. Rolls the solo player
/// makes for the enemy's officers and cards stay in the log, as on the table.
pub(super) fn fogged(e: &RuleEvent, els: &[ElementView], sides: &Sides, whole: bool) -> bool {
    let Some(me) = crate::view::player_side(sides) else { return false };
    if whole {
        return false;
    }
    [&e.actor, &e.target].into_iter().flatten().any(|id| {
        els.iter()
            .find(|f| f.id() == id)
            .is_some_and(|f| f.identity.side != me && !crate::view::shown(f, sides, els, false))
    })
}

/// The battle log's contents: a note of what is shown, the last lines of
/// `log` (from `cache`), those of the `selected` element marked, each with its
/// whole event on hover. Returns the element a clicked line concerns (the
/// first of its actor and target for which `is_element` holds).
pub(super) fn log_ui(
    ui: &mut egui::Ui,
    log: &BattleLog,
    cache: &LogCache,
    selected: Option<&str>,
    is_element: impl Fn(&str) -> bool,
) -> Option<String> {
    let total = log.entries.len() - cache.hidden;
    let mut note = if total > cache.lines.len() {
        format!("{total} events, the last {} shown · hover for inputs · click to select", cache.lines.len())
    } else {
        format!("{total} events · hover for inputs · click to select")
    };
    if cache.hidden > 0 {
        note.push_str(&format!(" · {} of the enemy's unseen", cache.hidden));
    }
    ui.label(egui::RichText::new(note).small().color(egui::Color32::from_gray(160)));
    if let Some(e) = &log.failed {
        ui.colored_label(egui::Color32::from_rgb(230, 80, 70), format!("Writing the log file failed: {e}"));
    }
    let mut clicked = None;
    let row = ui.text_style_height(&egui::TextStyle::Body);
    egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show_rows(
        ui,
        row,
        cache.lines.len(),
        |ui, range| {
            for k in range {
                let event = &log.entries[cache.shown[k]].event;
                let mine = selected
                    .is_some_and(|id| event.actor.as_deref() == Some(id) || event.target.as_deref() == Some(id));
                let mut text = egui::RichText::new(&cache.lines[k]);
                if mine {
                    text = text.strong().background_color(egui::Color32::from_rgb(40, 60, 90));
                }
                let response = ui
                    .add(egui::Label::new(text).truncate().sense(egui::Sense::click()))
                    .on_hover_cursor(egui::CursorIcon::PointingHand)
                    .on_hover_ui(|ui| event_tooltip(ui, event));
                if response.clicked()
                    && let Some(id) = concerns(event, &is_element)
                {
                    clicked = Some(id.to_owned());
                }
            }
        },
    );
    clicked
}

#[allow(clippy::too_many_arguments)]
pub(super) fn log_window(
    mut contexts: EguiContexts,
    log: Res<BattleLog>,
    els: Query<FieldedReadOnly>,
    sides: Res<Sides>,
    settings: Res<crate::settings::Settings>,
    mut selected: ResMut<Selected>,
    mut cache: Local<LogCache>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let all: Vec<ElementView> = els.iter().map(|f| f.view()).collect();
    cache.refresh_hiding(&log.entries, |e| fogged(e, &all, &sides, settings.show_whole_table));
    let clicked = egui::Window::new("Battle log")
        .anchor(egui::Align2::LEFT_BOTTOM, [10.0, -10.0])
        .default_width(520.0)
        .default_height(120.0)
        .collapsible(true)
        .resizable(true)
        .show(ctx, |ui| log_ui(ui, &log, &cache, selected.0.as_deref(), |id| els.iter().any(|f| f.id() == id)))
        .and_then(|r| r.inner.flatten());
    if clicked.is_some() {
        selected.0 = clicked;
    }
}

/// The whole event: rule, inputs with their reasons, dice and outcome.
pub(super) fn event_tooltip(ui: &mut egui::Ui, e: &RuleEvent) {
    ui.set_max_width(520.0);
    ui.strong(format!("{} \"{}\" ({})", e.rule.book.abbrev(), e.rule.section, words(e.kind)));
    if e.actor.is_some() || e.target.is_some() {
        ui.label(format!("{} → {}", e.actor.as_deref().unwrap_or("—"), e.target.as_deref().unwrap_or("—")));
    }
    if !e.inputs.is_empty() {
        ui.separator();
        for input in &e.inputs {
            ui.label(input_line(input));
        }
    }
    if !e.dice.is_empty() {
        ui.label(format!("Dice: {}", dice_text(&e.dice)));
    }
    let outcome = outcome_text(&e.outcome, 600);
    if !outcome.is_empty() {
        ui.separator();
        ui.label(format!("Outcome: {outcome}"));
    }
}
