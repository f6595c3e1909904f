//! The battle log window: every rule event the player may see, newest
//! last, as a sentence with names, dice and rule ([`warbound_rules::narrate`]);
//! its inputs and reasons on hover; filters by side, company, element and
//! rule; a click selects the element a line concerns.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use warbound_rules::{
    event::RuleEvent,
    narrate::{self, Names as NameOf},
};

use crate::battle::{
    Selected,
    log::{BattleLog, Entry},
    names::Names,
    state::{ElementView, FieldedReadOnly, Sides},
};

use super::words;

/// Log lines kept on screen: the newest, for speed.
pub(super) const LOG_LINES: usize = 300;

/// One log entry: its bound, then the event as a sentence.
pub(super) fn log_line(entry: &Entry, names: NameOf) -> String {
    format!("B{} {}", entry.bound, narrate::sentence(&entry.event, names))
}

/// What the log shows: every event, or those of one side, company, element
/// or rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct LogFilter {
    /// A side, by name.
    pub(super) side: Option<String>,
    /// A company's id and the ids of its elements.
    pub(super) company: Option<(String, Vec<String>)>,
    pub(super) element: Option<String>,
    /// A rule: book and section, as "HA, Observation".
    pub(super) rule: Option<String>,
}

/// A rule as the log's filter names it.
pub(super) fn rule_name(e: &RuleEvent) -> String {
    format!("{}, {}", e.rule.book.abbrev(), e.rule.section)
}

impl LogFilter {
    /// Whether the log shows `e`.
    pub(super) fn admits(&self, e: &RuleEvent) -> bool {
        let ids = [e.actor.as_deref(), e.target.as_deref()];
        self.side.as_ref().is_none_or(|s| e.side.as_ref() == Some(s))
            && self
                .company
                .as_ref()
                .is_none_or(|(c, els)| ids.iter().flatten().any(|id| *id == c || els.iter().any(|el| el == id)))
            && self.element.as_ref().is_none_or(|el| ids.iter().flatten().any(|id| id == el))
            && self.rule.as_ref().is_none_or(|r| rule_name(e) == *r)
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
    /// Entries the filter leaves out.
    pub(super) filtered: usize,
    /// The filter the lines were made with.
    pub(super) filter: LogFilter,
}

impl LogCache {
    /// Adds the entries logged since the last refresh that `filter` admits,
    /// leaving out those `hidden` says he may not see (decided as they are
    /// logged). A new filter starts the lines again.
    pub(super) fn refresh_hiding(
        &mut self,
        entries: &[Entry],
        names: NameOf,
        filter: &LogFilter,
        hidden: impl Fn(&RuleEvent) -> bool,
    ) {
        if entries.len() < self.len || *filter != self.filter {
            *self = LogCache { filter: filter.clone(), ..LogCache::default() };
        }
        for (k, e) in entries.iter().enumerate().skip(self.len) {
            if hidden(&e.event) {
                self.hidden += 1;
                continue;
            }
            if !filter.admits(&e.event) {
                self.filtered += 1;
                continue;
            }
            self.shown.push_back(k);
            self.lines.push_back(log_line(e, names));
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
    // His own element's observation of an enemy counter: what it found is his.
    let observer_mine = e.kind == warbound_rules::event::EventKind::Concealment
        && e.outcome.get("spotted").is_some()
        && e.target.as_deref().is_some_and(|t| els.iter().any(|f| f.id() == t && f.identity.side == me));
    if observer_mine {
        return false;
    }
    [&e.actor, &e.target].into_iter().flatten().any(|id| {
        els.iter()
            .find(|f| f.id() == id)
            .is_some_and(|f| f.identity.side != me && !crate::view::shown(f, sides, els, false))
    })
}

/// What the log's filters offer: the sides, companies and elements of the
/// battle the player may see, by name.
#[derive(Debug, Clone, Default)]
pub(super) struct FilterChoices {
    pub(super) sides: Vec<String>,
    /// Id, name and the ids of its elements.
    pub(super) companies: Vec<(String, String, Vec<String>)>,
    /// Id and name.
    pub(super) elements: Vec<(String, String)>,
}

/// One filter's drop-down: "All …" or one of `options` (value, label).
fn choose(ui: &mut egui::Ui, id: &str, all: &str, chosen: &mut Option<String>, options: &[(String, String)]) {
    let shown = chosen
        .as_ref()
        .and_then(|c| options.iter().find(|(v, _)| v == c).map(|(_, l)| l.clone()))
        .unwrap_or_else(|| all.to_owned());
    egui::ComboBox::from_id_salt(id).selected_text(shown).width(130.0).show_ui(ui, |ui| {
        ui.selectable_value(chosen, None, all);
        for (v, l) in options {
            ui.selectable_value(chosen, Some(v.clone()), l);
        }
    });
}

/// The filters' row: side, company, element (of the company chosen), rule.
pub(super) fn filter_ui(ui: &mut egui::Ui, filter: &mut LogFilter, choices: &FilterChoices, rules: &[String]) {
    ui.horizontal_wrapped(|ui| {
        let sides: Vec<(String, String)> = choices.sides.iter().map(|s| (s.clone(), s.clone())).collect();
        choose(ui, "log side", "All sides", &mut filter.side, &sides);
        let companies: Vec<(String, String)> =
            choices.companies.iter().map(|(i, n, _)| (i.clone(), n.clone())).collect();
        let mut company = filter.company.as_ref().map(|(c, _)| c.clone());
        choose(ui, "log company", "All companies", &mut company, &companies);
        filter.company = company
            .and_then(|c| choices.companies.iter().find(|(i, _, _)| *i == c))
            .map(|(i, _, els)| (i.clone(), els.clone()));
        let elements: Vec<(String, String)> = choices
            .elements
            .iter()
            .filter(|(id, _)| filter.company.as_ref().is_none_or(|(_, els)| els.contains(id)))
            .cloned()
            .collect();
        choose(ui, "log element", "All elements", &mut filter.element, &elements);
        let rules: Vec<(String, String)> = rules.iter().map(|r| (r.clone(), r.clone())).collect();
        choose(ui, "log rule", "All rules", &mut filter.rule, &rules);
    });
}

/// The battle log's contents: a note of what is shown, the last lines of
/// `log` (from `cache`), those of the `selected` element marked, each with its
/// whole event on hover. Returns the element a clicked line concerns (the
/// first of its actor and target for which `is_element` holds).
pub(super) fn log_ui(
    ui: &mut egui::Ui,
    log: &BattleLog,
    cache: &LogCache,
    names: NameOf,
    selected: Option<&str>,
    is_element: impl Fn(&str) -> bool,
) -> Option<String> {
    let total = log.entries.len() - cache.hidden - cache.filtered;
    let mut note = if total > cache.lines.len() {
        format!("{total} events, the last {} shown · hover for inputs · click to select", cache.lines.len())
    } else {
        format!("{total} events · hover for inputs · click to select")
    };
    if cache.hidden > 0 {
        note.push_str(&format!(" · {} of the enemy's unseen", cache.hidden));
    }
    if cache.filtered > 0 {
        note.push_str(&format!(" · {} filtered out", cache.filtered));
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
                    .on_hover_ui(|ui| event_tooltip(ui, event, names));
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

/// The log's filters' choices from the battle: every side, and the
/// companies and elements the person at the screen may see.
fn choices(sides: &Sides, els: &[ElementView], names: &Names, visible: impl Fn(&ElementView) -> bool) -> FilterChoices {
    let mut c = FilterChoices { sides: sides.0.iter().map(|s| s.name.clone()).collect(), ..Default::default() };
    for (s, side) in sides.0.iter().enumerate() {
        for (k, company) in side.companies.iter().enumerate() {
            let ids: Vec<String> = els
                .iter()
                .filter(|f| f.identity.side == s && f.identity.company == k && visible(f))
                .map(|f| f.id().to_owned())
                .collect();
            if ids.is_empty() {
                continue;
            }
            c.companies.push((company.id.clone(), names.name(&company.id), ids));
        }
    }
    c.elements = els.iter().filter(|f| visible(f)).map(|f| (f.id().to_owned(), names.name(f.id()))).collect();
    c
}

#[allow(clippy::too_many_arguments)]
pub(super) fn log_window(
    mut contexts: EguiContexts,
    log: Res<BattleLog>,
    els: Query<FieldedReadOnly>,
    sides: Res<Sides>,
    names: Res<Names>,
    settings: Res<crate::settings::Settings>,
    mut selected: ResMut<Selected>,
    mut cache: Local<LogCache>,
    mut filter: Local<LogFilter>,
    (at, mut last_at): (Res<crate::view::AtScreen>, Local<Option<usize>>),
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let sides = at.seen(&sides);
    // In a hotseat each player reads the log with his own side's eyes.
    if *last_at != at.0 {
        *last_at = at.0;
        *cache = LogCache::default();
    }
    let all = super::sorted(&els);
    let name_of = |id: &str| names.get(id);
    let whole = settings.show_whole_table;
    cache.refresh_hiding(&log.entries, &name_of, &filter, |e| fogged(e, &all, &sides, whole));
    let rules: Vec<String> = {
        let mut r: Vec<String> = log.entries.iter().map(|e| rule_name(&e.event)).collect();
        r.sort();
        r.dedup();
        r
    };
    let choices = choices(&sides, &all, &names, |f| super::listed(f, &sides, &all, whole));
    let clicked = egui::Window::new("Battle log")
        .anchor(egui::Align2::LEFT_BOTTOM, [10.0, -10.0])
        .default_width(560.0)
        .default_height(140.0)
        .collapsible(true)
        .resizable(true)
        .show(ctx, |ui| {
            filter_ui(ui, &mut filter, &choices, &rules);
            log_ui(ui, &log, &cache, &name_of, selected.0.as_deref(), |id| els.iter().any(|f| f.id() == id))
        })
        .and_then(|r| r.inner.flatten());
    if clicked.is_some() {
        selected.0 = clicked;
    }
}

/// The whole event: rule, who, inputs with their reasons, dice and outcome,
/// in words.
pub(super) fn event_tooltip(ui: &mut egui::Ui, e: &RuleEvent, names: NameOf) {
    ui.set_max_width(520.0);
    ui.strong(format!("{} ({})", rule_name(e), words(e.kind)));
    let who = |id: &Option<String>| {
        id.as_deref().map_or("—".to_owned(), |i| names(i).unwrap_or_else(|| narrate::id_name(i)))
    };
    if e.actor.is_some() {
        ui.label(format!("Acting: {}", who(&e.actor)));
    }
    if e.target.is_some() {
        ui.label(format!("On: {}", who(&e.target)));
    }
    if !e.inputs.is_empty() {
        ui.separator();
        for input in &e.inputs {
            ui.label(narrate::input_words(input, names));
        }
    }
    if !e.dice.is_empty() {
        ui.label(format!("Dice: {}", narrate::dice_words(e)));
    }
    if e.outcome != serde_json::Value::Null {
        ui.separator();
        ui.label(format!("Outcome: {}", narrate::value_words(&e.outcome, names)));
    }
}
