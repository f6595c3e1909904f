//! The battle's paperwork on the screen, as *Fight Your Own Battles* keeps it
//! on the table: the battle log (every rule event), the Order Priority Cards
//! of the bound, the selected element's Cardsheet and the Senior Officer
//! Record Sheets. The panels only read the battle state; a click on a log
//! line or a card selects the element it concerns ([`Selected`]).
//!
//! What each panel shows is built by plain functions of the state
//! ([`event_line`], [`deck_rows`], [`cardsheet`], [`senior_sheet`]) so that it
//! is tested without a window; each panel is drawn by a function of that state
//! into an `egui::Ui` ([`log_ui`], [`deck_ui`], [`cardsheet_ui`], [`senior_ui`])
//! that returns the element clicked, if any, tested with egui_kittest.

use std::fmt::Debug;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use serde_json::Value;
use warbound_rules::{
    codex::{Codex, ShotsPerDay},
    dice::Thrown,
    event::{Book, Input, RuleEvent},
    forces::Role,
    officer::Officer,
    opc::Deal,
    strategic::{SeniorOfficerRecord, StrategicCondition},
};

use crate::{
    battle::{
        Selected,
        log::{BattleLog, Entry},
        outcome,
        setup::{Control, Mechanism},
        spawn::MILESTONE_PCT,
        state::{Battle, ElementView, FieldedReadOnly, Flow, SideState, Sides, Status},
    },
    states::AppState,
};

/// Log lines kept on screen: the newest, for speed.
const LOG_LINES: usize = 300;
/// Characters of an outcome shown on a log line (the hover shows the rest).
const OUTCOME_CHARS: usize = 120;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Selected>().add_systems(OnExit(AppState::Battle), deselect).add_systems(
        EguiPrimaryContextPass,
        (log_window, deck_window, cardsheet_window, senior_window)
            .chain()
            .run_if(in_state(AppState::Battle).and_then(resource_exists::<Battle>)),
    );
}

fn deselect(mut selected: ResMut<Selected>) {
    selected.0 = None;
}

// ---------------------------------------------------------------------------
// Formatting: plain functions of the state.

/// The book's short name, as the rules are cited in play.
fn book_abbrev(book: Book) -> &'static str {
    match book {
        Book::HeroesAll => "HA",
        Book::FightYourOwnBattles => "FYOB",
        Book::FightYourOwnWars => "FYOW",
        Book::OpCom => "OP COM",
        Book::BattleSetup => "Setup",
    }
}

/// A debug name in words: `ContactEnemy` → "Contact enemy".
fn words(value: impl Debug) -> String {
    let name = format!("{value:?}");
    let mut out = String::with_capacity(name.len() + 4);
    for (k, c) in name.chars().enumerate() {
        if k > 0 && c.is_ascii_uppercase() {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Dice by kind, in the order thrown: "d6 2 5 6, d10 7".
fn dice_text(dice: &[Thrown]) -> String {
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
fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_owned(),
    }
}

/// An outcome as compact JSON (a plain string bare), cut to `max` characters;
/// empty for none.
fn outcome_text(outcome: &Value, max: usize) -> String {
    match outcome {
        Value::Null => String::new(),
        Value::String(s) => clip(s, max),
        v => clip(&v.to_string(), max),
    }
}

/// One rule event on one line: book and section, actor → target, the dice,
/// the outcome.
pub fn event_line(e: &RuleEvent) -> String {
    let mut line = format!("{} {}", book_abbrev(e.rule.book), e.rule.section);
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
fn log_line(entry: &Entry) -> String {
    format!("B{} {}", entry.bound, event_line(&entry.event))
}

/// An input with why it has its value: "tests = 3 (mortar fire)".
fn input_line(input: &Input) -> String {
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
fn concerns(e: &RuleEvent, is_element: impl Fn(&str) -> bool) -> Option<&str> {
    [e.actor.as_deref(), e.target.as_deref()].into_iter().flatten().find(|id| is_element(id))
}

/// An officer's grade and ORT rating: "Bold (3)".
fn officer_text(officer: Officer) -> String {
    format!("{} ({})", words(officer.grade()), officer.grade().rating())
}

/// The sides the player sees from: those a Player commands; in a battle the
/// program plays on both sides, every side (there is nothing to hide).
fn player_sides(sides: &Sides) -> Vec<usize> {
    let players: Vec<usize> = (0..sides.0.len()).filter(|&s| sides.0[s].control == Control::Player).collect();
    if players.is_empty() { (0..sides.0.len()).collect() } else { players }
}

/// Whether the player's force knows of `f`: one of his own, or an enemy his
/// Senior Officer or one of his NCOs has seen or been told of.
fn observed(f: &ElementView, els: &[ElementView], sides: &Sides, players: &[usize]) -> bool {
    players.contains(&f.identity.side)
        || players.iter().any(|&s| sides.0.get(s).is_some_and(|side| side.known.contains(f.id())))
        || els.iter().any(|o| players.contains(&o.identity.side) && o.intel.known.contains(f.id()))
}

/// Where the flow stands, in words.
fn flow_text(flow: &Flow) -> String {
    match flow {
        Flow::Idle => "Waiting for a battle".into(),
        Flow::StartBound => "Start of bound".into(),
        Flow::Deal => "Dealing the cards".into(),
        Flow::NextCard => "Next card".into(),
        Flow::Acting(turn) => {
            let taken: Vec<String> = turn.taken.iter().map(words).collect();
            if taken.is_empty() {
                format!("{} acts (first: {})", turn.element, words(turn.orders.order))
            } else {
                format!("{} acts (first: {}; taken: {})", turn.element, words(turn.orders.order), taken.join(", "))
            }
        }
        Flow::Commanding(h) => format!("Player {} gives out Command Dice", h.player + 1),
        Flow::Seize { element } => format!("{element} has Seized the Initiative"),
        Flow::CoTurn { side, company } => {
            format!("Company Officer's turn (side {}, company {})", side + 1, company + 1)
        }
        Flow::Session { side } => format!("Senior Officer's session (side {})", side + 1),
        Flow::EndBound => "End of bound".into(),
        Flow::Over => "The battle is over".into(),
    }
}

/// One Order Priority Card of the bound.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CardRow {
    card: u8,
    /// The holder's id: element, Company, FOO, battery, squadron, Air Command.
    holder: String,
    /// What holds it and who leads: "NCO Bold (3)", "Company Officer Regular (2)".
    leader: String,
    side: Option<usize>,
    /// Whether the holder is an element (a click selects it).
    element: bool,
    acted: bool,
    now: bool,
}

/// The cards of the bound in the order they are played. The deck keeps which
/// cards are played; a card is only ever played when it is the lowest unplayed
/// one, and a Seize swap only moves unplayed cards, so the played cards are
/// exactly those below the card acting now.
fn deck_rows(deck: &Deal, els: &[ElementView], sides: &Sides) -> Vec<CardRow> {
    let now = deck.acting_now();
    let now_card = now.and_then(|id| deck.card_of(id));
    deck.order()
        .into_iter()
        .enumerate()
        .map(|(k, id)| {
            let card = deck.card_of(id).unwrap_or((k + 1) as u8);
            let (leader, side, element) = holder_of(id, els, sides);
            CardRow {
                card,
                holder: id.to_owned(),
                leader,
                side,
                element,
                acted: now_card.is_none_or(|c| card < c),
                now: Some(id) == now,
            }
        })
        .collect()
}

/// Who holds a card: what it is, who leads it and its side.
fn holder_of(id: &str, els: &[ElementView], sides: &Sides) -> (String, Option<usize>, bool) {
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
            return (format!("FOO {} with {}", officer_text(observer.foo.officer), observer.with), Some(s), false);
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

/// Bounds of fire left today: "■■□ 2/3", "unlimited", "2 left".
fn rounds_text(left: Option<u8>, allowance: Option<u8>) -> String {
    match (left, allowance) {
        (None, _) => "unlimited".to_owned(),
        (Some(l), Some(a)) if a >= l => {
            format!("{}{} {l}/{a}", "■".repeat(l.into()), "□".repeat((a - l).into()))
        }
        (Some(l), _) => format!("{l} left"),
    }
}

/// A weapon's day allowance in bounds of fire, where it is limited.
fn allowance(shots: ShotsPerDay) -> Option<u8> {
    match shots {
        ShotsPerDay::Bounds(n) => Some(n),
        ShotsPerDay::Unlimited | ShotsPerDay::PerThreeMen => None,
    }
}

/// A weapon box of the Cardsheet.
#[derive(Debug, Clone, PartialEq, Eq)]
struct WeaponBox {
    /// "8 × Rifle", "6pdr AT gun: AT gun class 3 (crew 3)".
    name: String,
    rounds: String,
}

/// The Cardsheet of one element.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Sheet {
    title: String,
    subtitle: String,
    rows: Vec<(&'static str, String)>,
    weapons: Vec<WeaponBox>,
    notes: Vec<String>,
}

/// The element's Cardsheet (FYOB's, from what the battle keeps): number,
/// quality, NCO, CMS, men, order, its OPC this bound, its weapons with the
/// bounds of fire left, and notes (radio, transport, officers with it).
fn cardsheet(f: &ElementView, els: &[ElementView], sides: &Sides, deck: Option<&Deal>, codex: Option<&Codex>) -> Sheet {
    let side = sides.0.get(f.identity.side);
    let company = side.and_then(|s| s.companies.get(f.identity.company));
    let subtitle =
        [side.map(|s| s.name.clone()), company.map(|c| format!("company {}", c.id)), Some(words(f.force.build))]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" · ");
    let mut rows: Vec<(&'static str, String)> = vec![("Number", (u32::from(f.identity.index) + 1).to_string())];
    rows.push(("Quality", words(f.force.quality)));
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
        notes.push("Radio".to_owned());
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
            notes.push(format!("FOO {} with it: {state}", observer.id));
        }
        for c in side.companies.iter().filter(|c| c.attached_to == f.id() && c.co_alive) {
            notes.push(format!("Company Officer of {} with it: {}", c.id, officer_text(c.co)));
        }
    }
    match &f.force.element.role {
        Role::Transport { carrying: Some(p) } => notes.push(format!("Transport, carrying {p}")),
        Role::Transport { carrying: None } => notes.push("Transport, empty".to_owned()),
        Role::Fighting => {}
    }
    for carrier in
        els.iter().filter(|o| matches!(&o.force.element.role, Role::Transport { carrying: Some(p) } if p == f.id()))
    {
        notes.push(format!("Carried by {}", carrier.id()));
    }
    if f.concealment.concealed {
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
    Sheet { title: f.id().to_owned(), subtitle, rows, weapons, notes }
}

/// A Senior Officer Record Sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SeniorSheet {
    side: String,
    senior: String,
    cmt_start: u32,
    /// The CMT counted as 100% now: the start, or a higher CMT reached since.
    original: u32,
    milestone_pct: u32,
    cmt: u32,
    milestones_passed: u32,
    condition: StrategicCondition,
    general_withdrawal: bool,
    /// Reserves not yet committed, with their CMS.
    reserves: Vec<(String, u8)>,
}

/// The record's milestone percentage (the record keeps it private; it is
/// read back from its serialised form, else the battle's default).
fn milestone_pct(record: &SeniorOfficerRecord) -> u32 {
    serde_json::to_value(record)
        .ok()
        .and_then(|v| v.get("milestone_pct").and_then(Value::as_u64))
        .and_then(|p| u32::try_from(p).ok())
        .unwrap_or(MILESTONE_PCT)
}

fn senior_sheet(s: usize, side: &SideState, els: &[ElementView]) -> SeniorSheet {
    let cmt = outcome::cmt(els.iter().copied(), s);
    SeniorSheet {
        side: side.name.clone(),
        senior: format!("{} ({})", words(side.senior.grade()), words(side.control)),
        cmt_start: side.cmt_start,
        original: side.record.original_cmt(),
        milestone_pct: milestone_pct(&side.record),
        cmt,
        milestones_passed: side.record.milestones_passed(cmt),
        condition: side.record.condition(),
        general_withdrawal: side.general_withdrawal,
        reserves: els
            .iter()
            .filter(|f| f.identity.side == s && f.presence.status == Status::Reserve)
            .map(|f| (f.id().to_owned(), f.force.element.cms))
            .collect(),
    }
}

fn condition_colour(c: StrategicCondition) -> egui::Color32 {
    match c {
        StrategicCondition::Green => egui::Color32::from_rgb(90, 200, 90),
        StrategicCondition::Yellow => egui::Color32::from_rgb(230, 200, 60),
        StrategicCondition::Red => egui::Color32::from_rgb(230, 80, 70),
        StrategicCondition::Withdrawn => egui::Color32::from_gray(150),
    }
}

/// The colour a side's names are written in: the player's blue, the enemy's red.
fn side_colour(side: Option<usize>, players: &[usize]) -> egui::Color32 {
    match side {
        Some(s) if players.contains(&s) => egui::Color32::from_rgb(140, 180, 255),
        Some(_) => egui::Color32::from_rgb(255, 150, 130),
        None => egui::Color32::from_gray(200),
    }
}

/// Every element, in scenario order.
fn sorted<'a>(q: &'a Query<FieldedReadOnly>) -> Vec<ElementView<'a>> {
    let mut els: Vec<ElementView> = q.iter().map(|f| f.view()).collect();
    els.sort_by_key(|f| f.identity.index);
    els
}

// ---------------------------------------------------------------------------
// The windows.

/// The last [`LOG_LINES`] log lines the person at the screen may see,
/// formatted once as the log grows.
#[derive(Default)]
struct LogCache {
    /// Entries in the log when the lines were made.
    len: usize,
    /// The entry each line shows.
    shown: std::collections::VecDeque<usize>,
    lines: std::collections::VecDeque<String>,
    /// Entries kept from him (the fog of war).
    hidden: usize,
}

impl LogCache {
    /// Every entry, none hidden (the tests' view of the whole log).
    #[cfg(test)]
    fn refresh(&mut self, entries: &[Entry]) {
        self.refresh_hiding(entries, |_| false);
    }

    /// Adds the entries logged since the last refresh, leaving out those
    /// `hidden` says he may not see (decided as they are logged).
    fn refresh_hiding(&mut self, entries: &[Entry], hidden: impl Fn(&RuleEvent) -> bool) {
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
fn fogged(e: &RuleEvent, els: &[ElementView], sides: &Sides, whole: bool) -> bool {
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
fn log_ui(
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
fn log_window(
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
fn event_tooltip(ui: &mut egui::Ui, e: &RuleEvent) {
    ui.set_max_width(520.0);
    ui.strong(format!("{} \"{}\" ({})", book_abbrev(e.rule.book), e.rule.section, words(e.kind)));
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

/// The Order Priority Cards' contents: the bound, the hour and the light,
/// where the flow stands, then the bound's cards in order, the acting one
/// marked ▶ and those played ✔. Returns the element whose card was clicked.
fn deck_ui(ui: &mut egui::Ui, battle: &Battle, flow: &Flow, els: &[ElementView], sides: &Sides) -> Option<String> {
    let players = player_sides(sides);
    let clock = &battle.clock;
    ui.strong(format!(
        "Bound {} of {} · {:02}:00 · {}",
        clock.bound(),
        battle.start.last_bound(),
        clock.hour(),
        words(clock.light())
    ));
    ui.label(egui::RichText::new(flow_text(flow)).small().color(egui::Color32::from_gray(170)));
    if battle.start.mechanism == Mechanism::TwoPlayer {
        ui.label("2-player game: Command Dice take the place of the cards.");
        return None;
    }
    let Some(deck) = &battle.deck else {
        ui.label("No cards dealt this bound yet.");
        return None;
    };
    let rows = deck_rows(deck, els, sides);
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
                let mut holder = egui::RichText::new(&r.holder).color(side_colour(r.side, &players));
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

fn deck_window(
    mut contexts: EguiContexts,
    battle: Res<Battle>,
    sides: Res<Sides>,
    flow: Res<Flow>,
    q: Query<FieldedReadOnly>,
    mut selected: ResMut<Selected>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let els = sorted(&q);
    let clicked = egui::Window::new("Order Priority Cards")
        .anchor(egui::Align2::RIGHT_TOP, [-10.0, 10.0])
        .default_width(300.0)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| deck_ui(ui, &battle, &flow, &els, &sides))
        .and_then(|r| r.inner.flatten());
    if clicked.is_some() {
        selected.0 = clicked;
    }
}

/// The Cardsheet's contents for `f`: its sheet ([`cardsheet`]), or, for an
/// enemy the player's force has not observed, only that.
fn cardsheet_ui(
    ui: &mut egui::Ui,
    f: &ElementView,
    els: &[ElementView],
    sides: &Sides,
    deck: Option<&Deal>,
    codex: Option<&Codex>,
) {
    let players = player_sides(sides);
    if !observed(f, els, sides, &players) {
        ui.strong(f.id());
        ui.label("An enemy element your force has not observed.");
        return;
    }
    let sheet = cardsheet(f, els, sides, deck, codex);
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

fn cardsheet_window(
    mut contexts: EguiContexts,
    battle: Res<Battle>,
    sides: Res<Sides>,
    q: Query<FieldedReadOnly>,
    mut selected: ResMut<Selected>,
) {
    let Some(id) = selected.0.clone() else { return };
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
        .show(ctx, |ui| cardsheet_ui(ui, &f, &els, &sides, battle.deck.as_ref(), crate::data::codex().ok()));
    if !open {
        selected.0 = None;
    }
}

/// The Senior Officer Record Sheets of the sides the player sees from
/// ([`senior_sheet`]). Returns the uncommitted reserve clicked.
fn senior_ui(ui: &mut egui::Ui, sides: &Sides, els: &[ElementView]) -> Option<String> {
    let players = player_sides(sides);
    let mut clicked = None;
    for (n, &s) in players.iter().enumerate() {
        let Some(side) = sides.0.get(s) else { continue };
        let sheet = senior_sheet(s, side, els);
        if n > 0 {
            ui.separator();
        }
        ui.strong(egui::RichText::new(&sheet.side).color(side_colour(Some(s), &players)));
        egui::Grid::new(("senior_officer", s)).num_columns(2).show(ui, |ui| {
            let mut row = |k: &str, v: egui::RichText| {
                ui.label(egui::RichText::new(k).color(egui::Color32::from_gray(170)));
                ui.label(v);
                ui.end_row();
            };
            row("Senior Officer", sheet.senior.clone().into());
            row("Initial CMT", sheet.cmt_start.to_string().into());
            if sheet.original != sheet.cmt_start {
                row("CMT counted as 100%", sheet.original.to_string().into());
            }
            row("Milestone", format!("{}%", sheet.milestone_pct).into());
            row("Current CMT", format!("{} ({} milestones passed)", sheet.cmt, sheet.milestones_passed).into());
            let condition = if sheet.general_withdrawal {
                format!("{} (general withdrawal)", words(sheet.condition))
            } else {
                words(sheet.condition)
            };
            row(
                "Strategic condition",
                egui::RichText::new(condition).strong().color(condition_colour(sheet.condition)),
            );
        });
        if sheet.reserves.is_empty() {
            ui.label(egui::RichText::new("No reserves uncommitted").small());
        } else {
            ui.label("Reserves uncommitted:");
            ui.horizontal_wrapped(|ui| {
                for (id, cms) in &sheet.reserves {
                    if ui.add(egui::Label::new(format!("{id} (CMS {cms})")).sense(egui::Sense::click())).clicked() {
                        clicked = Some(id.clone());
                    }
                }
            });
        }
    }
    clicked
}

fn senior_window(
    mut contexts: EguiContexts,
    sides: Res<Sides>,
    q: Query<FieldedReadOnly>,
    mut selected: ResMut<Selected>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let els = sorted(&q);
    let clicked = egui::Window::new("Senior Officer")
        .default_pos([420.0, 10.0])
        .default_open(false)
        .default_width(300.0)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| senior_ui(ui, &sides, &els))
        .and_then(|r| r.inner.flatten());
    if clicked.is_some() {
        selected.0 = clicked;
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use warbound_rules::{
        event::{EventKind, RuleRef},
        officer::{Grade, Rank},
    };

    use egui_kittest::{
        Harness,
        kittest::{By, Queryable},
    };

    use super::*;
    use crate::battle::{log::BattleLog, setup::BattleStart};

    fn fire_event() -> RuleEvent {
        RuleEvent::new(EventKind::Fire, RuleRef::new(Book::HeroesAll, "How to fire weapons"))
            .actor("1/A")
            .target("G2")
            .input("band", "effective", "")
            .input("cover", "soft", "in a wood")
            .dice(6, &[2, 5])
            .dice(10, &[7])
            .outcome(json!({"hits": 1}))
    }

    #[test]
    fn an_event_line_names_rule_actors_dice_and_outcome() {
        assert_eq!(event_line(&fire_event()), r#"HA How to fire weapons: 1/A → G2 [d6 2 5, d10 7] ⇒ {"hits":1}"#);
        let bare = RuleEvent::new(EventKind::Bound, RuleRef::new(Book::FightYourOwnBattles, "The game flow"));
        assert_eq!(event_line(&bare), "FYOB The game flow");
        let target_only = RuleEvent::new(EventKind::Casualties, RuleRef::new(Book::HeroesAll, "Casualties"))
            .target("G2")
            .outcome("retires");
        assert_eq!(event_line(&target_only), "HA Casualties: → G2 ⇒ retires");
        let entry = Entry { bound: 3, event: fire_event() };
        assert!(log_line(&entry).starts_with("B3 HA How to fire weapons"));
    }

    #[test]
    fn long_outcomes_are_cut_on_a_character_boundary() {
        let long = "é".repeat(OUTCOME_CHARS + 10);
        let e = RuleEvent::new(EventKind::Command, RuleRef::new(Book::FightYourOwnBattles, "x")).outcome(&long);
        let line = event_line(&e);
        assert!(line.ends_with('…'), "{line}");
        assert_eq!(line.chars().filter(|&c| c == 'é').count(), OUTCOME_CHARS);
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("abcd", 3), "abc…");
    }

    #[test]
    fn inputs_show_their_reasons() {
        let e = fire_event();
        assert_eq!(input_line(&e.inputs[0]), "band = effective");
        assert_eq!(input_line(&e.inputs[1]), "cover = soft (in a wood)");
        let n = Input { name: "tests".into(), value: json!(3), reason: "mortar fire".into() };
        assert_eq!(input_line(&n), "tests = 3 (mortar fire)");
    }

    #[test]
    fn a_line_concerns_its_actor_else_its_target_if_an_element() {
        let e = fire_event();
        assert_eq!(concerns(&e, |_| true), Some("1/A"));
        assert_eq!(concerns(&e, |id| id == "G2"), Some("G2"));
        assert_eq!(concerns(&e, |_| false), None);
    }

    #[test]
    fn names_dice_and_rounds_read_as_words() {
        assert_eq!(words(warbound_rules::command::Activity::ContactEnemy), "Contact enemy");
        assert_eq!(words(StrategicCondition::Green), "Green");
        assert_eq!(dice_text(&[]), "");
        assert_eq!(dice_text(&[Thrown { sides: 6, face: 1 }, Thrown { sides: 6, face: 6 }]), "d6 1 6");
        assert_eq!(rounds_text(None, Some(3)), "unlimited");
        assert_eq!(rounds_text(Some(2), Some(5)), "■■□□□ 2/5");
        assert_eq!(rounds_text(Some(0), Some(2)), "□□ 0/2");
        assert_eq!(rounds_text(Some(4), None), "4 left");
        let bold = Officer::new(Rank::Nco, Grade::Bold).unwrap();
        assert_eq!(officer_text(bold), "Bold (3)");
        assert_eq!(flow_text(&Flow::Seize { element: "1/A".into() }), "1/A has Seized the Initiative");
    }

    /// A patrol played by the program on both sides, stopped once a card
    /// after the first is acting.
    fn patrol_in_progress() -> App {
        let scenario = crate::data::load_scenario("patrol").unwrap().scenario;
        let mut app =
            crate::battle::battle_app(BattleStart::auto("patrol", scenario, 7), BattleLog::default()).unwrap();
        app.insert_resource(crate::battle::FlowPace(1));
        for _ in 0..200 {
            app.update();
            let battle = app.world().resource::<Battle>();
            if battle
                .deck
                .as_ref()
                .and_then(Deal::acting_now)
                .is_some_and(|id| battle.deck.as_ref().unwrap().card_of(id) > Some(1))
            {
                return app;
            }
        }
        panic!("no card after the first was played within 200 steps");
    }

    /// Every element of `world`, in scenario order.
    fn elements(world: &World) -> Vec<ElementView<'_>> {
        let mut els: Vec<ElementView> =
            world.try_query::<FieldedReadOnly>().unwrap().iter(world).map(|f| f.view()).collect();
        els.sort_by_key(|f| f.identity.index);
        els
    }

    #[test]
    fn the_log_keeps_the_enemys_unseen_elements_from_the_player() {
        let app = patrol_in_progress();
        let world = app.world();
        let els = elements(world);
        let mut sides = world.resource::<Sides>().clone();
        sides.0[0].control = Control::Player;
        let mine = els.iter().find(|f| f.identity.side == 0).unwrap();
        let unseen = els.iter().find(|f| f.identity.side == 1 && !crate::view::shown(f, &sides, &els, false)).unwrap();
        let moved = |id: &str| RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Movement")).actor(id);
        assert!(!fogged(&moved(mine.id()), &els, &sides, false));
        assert!(fogged(&moved(unseen.id()), &els, &sides, false));
        assert!(!fogged(&moved(unseen.id()), &els, &sides, true), "the whole table shown");
        // Fire from an unseen enemy is kept from him; what it did to his own element is not.
        let fire = moved(unseen.id()).target(mine.id());
        assert!(fogged(&fire, &els, &sides, false));
        assert!(!fogged(&moved(mine.id()).target("someone"), &els, &sides, false));
        let entries: Vec<Entry> =
            [moved(mine.id()), fire, moved(mine.id())].into_iter().map(|event| Entry { bound: 1, event }).collect();
        let mut cache = LogCache::default();
        cache.refresh_hiding(&entries, |e| fogged(e, &els, &sides, false));
        assert_eq!((cache.lines.len(), cache.hidden), (2, 1));
        assert_eq!(cache.shown, [0, 2]);
    }

    /// A real battle in a headless app, a few steps in: every panel's content
    /// is built from its state.
    #[test]
    fn the_panels_read_a_battle_in_progress() {
        let app = patrol_in_progress();
        let world = app.world();
        let els = elements(world);
        let battle = world.resource::<Battle>();
        let sides = world.resource::<Sides>();
        let log = world.resource::<BattleLog>();

        // The log: a line for every event, naming its section.
        assert!(!log.entries.is_empty());
        for entry in &log.entries {
            let line = log_line(entry);
            assert!(line.contains(&entry.event.rule.section), "{line}");
            if let Some(a) = &entry.event.actor {
                assert!(line.contains(a.as_str()), "{line}");
            }
        }
        let mut cache = LogCache::default();
        cache.refresh(&log.entries);
        assert_eq!(cache.lines.len(), log.entries.len().min(LOG_LINES));
        assert_eq!(cache.lines.back(), log.entries.last().map(log_line).as_ref());

        // The deck: every card in order, the ones before the acting card played.
        let deck = battle.deck.as_ref().unwrap();
        let rows = deck_rows(deck, &els, sides);
        assert_eq!(rows.len(), deck.order().len());
        assert_eq!(rows.iter().map(|r| r.card).collect::<Vec<_>>(), (1..=rows.len() as u8).collect::<Vec<_>>());
        let now: Vec<&CardRow> = rows.iter().filter(|r| r.now).collect();
        assert_eq!(now.len(), 1);
        assert_eq!(Some(now[0].holder.as_str()), deck.acting_now());
        assert!(rows.iter().all(|r| r.acted == (r.card < now[0].card)));
        assert!(rows.iter().all(|r| r.side.is_some() && !r.leader.is_empty()), "{rows:?}");

        // The Cardsheets: the element's own values.
        let codex = crate::data::codex().ok();
        for f in &els {
            let sheet = cardsheet(f, &els, sides, Some(deck), codex);
            assert_eq!(sheet.title, f.id());
            let row = |k: &str| sheet.rows.iter().find(|(name, _)| *name == k).map(|(_, v)| v.clone());
            assert_eq!(row("CMS"), Some(f.force.element.cms.to_string()));
            assert_eq!(row("Number"), Some((f.identity.index + 1).to_string()));
            let opc = row("OPC").unwrap();
            match deck.card_of(f.id()) {
                Some(c) => assert!(opc.starts_with(&format!("card {c},")), "{opc}"),
                None => assert_eq!(opc, "none this bound"),
            }
            let pieces: usize = f.force.element.pieces.iter().map(|p| p.rounds.len().max(1)).sum();
            assert!(sheet.weapons.len() >= pieces, "{sheet:?}");
        }

        // The Senior Officers: both sides are Auto, so both are shown.
        assert_eq!(player_sides(sides), (0..sides.0.len()).collect::<Vec<_>>());
        for (s, side) in sides.0.iter().enumerate() {
            let sheet = senior_sheet(s, side, &els);
            assert_eq!(sheet.cmt_start, side.cmt_start);
            assert_eq!(sheet.milestone_pct, MILESTONE_PCT);
            assert_eq!(sheet.cmt, outcome::cmt(els.iter().copied(), s));
            assert_eq!(sheet.condition, side.record.condition());
            let reserves = els.iter().filter(|f| f.identity.side == s && f.presence.status == Status::Reserve).count();
            assert_eq!(sheet.reserves.len(), reserves);
        }
    }

    #[test]
    fn the_player_sees_his_own_side_only() {
        let scenario = crate::data::load_scenario("patrol").unwrap().scenario;
        let mut start = BattleStart::auto("patrol", scenario, 3);
        start.control[0] = Control::Player;
        let mut app = crate::battle::battle_app(start, BattleLog::default()).unwrap();
        let world = app.world_mut();
        let mut q = world.query::<FieldedReadOnly>();
        let els: Vec<ElementView> = q.iter(world).map(|f| f.view()).collect();
        let sides = world.resource::<Sides>();
        assert_eq!(player_sides(sides), vec![0]);
        let own = els.iter().find(|f| f.identity.side == 0).unwrap();
        let enemy = els.iter().find(|f| f.identity.side == 1).unwrap();
        assert!(observed(own, &els, sides, &[0]));
        // Before the first bound nothing of the enemy is known.
        assert!(!observed(enemy, &els, sides, &[0]));
    }
    // -----------------------------------------------------------------------
    // The panels as drawn (egui_kittest).

    /// The text of every label drawn, in the order drawn.
    fn labels<S>(h: &Harness<'_, S>) -> Vec<String> {
        h.query_all(By::new().role(egui::accesskit::Role::Label)).filter_map(|n| n.value()).collect()
    }

    /// The label drawn right after `key`: the value of the row it names.
    fn after<'a>(labels: &'a [String], key: &str) -> Option<&'a str> {
        labels.iter().position(|l| l == key).and_then(|k| labels.get(k + 1)).map(String::as_str)
    }

    /// The log of `events`, in bounds 2, 2, 3 …, and its lines.
    fn log_of(events: Vec<RuleEvent>) -> (BattleLog, LogCache) {
        let mut log = BattleLog::default();
        log.entries =
            events.into_iter().enumerate().map(|(k, event)| Entry { bound: 2 + k as u32 / 2, event }).collect();
        let mut cache = LogCache::default();
        cache.refresh(&log.entries);
        (log, cache)
    }

    /// The log drawn with elements "1/A" and "G2" on the table; its state is
    /// the element of the last line clicked.
    fn log_harness<'a>(log: &'a BattleLog, cache: &'a LogCache) -> Harness<'a, Option<String>> {
        Harness::new_ui_state(
            move |ui, clicked: &mut Option<String>| {
                if let Some(id) = log_ui(ui, log, cache, None, |id| id == "1/A" || id == "G2") {
                    *clicked = Some(id);
                }
            },
            None,
        )
    }

    fn three_events() -> Vec<RuleEvent> {
        vec![
            fire_event(),
            RuleEvent::new(EventKind::Casualties, RuleRef::new(Book::HeroesAll, "Casualties"))
                .target("G2")
                .outcome("retires"),
            RuleEvent::new(EventKind::Bound, RuleRef::new(Book::FightYourOwnBattles, "The game flow")).actor("side 1"),
        ]
    }

    #[test]
    fn a_log_line_shows_rule_and_dice_and_a_click_selects_what_it_concerns() {
        let (log, cache) = log_of(three_events());
        let mut h = log_harness(&log, &cache);
        h.run();
        h.get_by_label("3 events · hover for inputs · click to select");
        let fire = r#"B2 HA How to fire weapons: 1/A → G2 [d6 2 5, d10 7] ⇒ {"hits":1}"#;
        h.get_by_label(fire);
        h.get_by_label("B3 FYOB The game flow: side 1").click();
        h.run();
        assert_eq!(h.state(), &None, "a side is not an element");
        h.get_by_label("B2 HA Casualties: → G2 ⇒ retires").click();
        h.run();
        assert_eq!(h.state().as_deref(), Some("G2"), "no actor: the target");
        h.get_by_label(fire).click();
        h.run();
        assert_eq!(h.state().as_deref(), Some("1/A"), "the actor before the target");
    }

    #[test]
    fn hovering_a_log_line_shows_its_inputs_and_dice() {
        let (log, cache) = log_of(three_events());
        let mut h = log_harness(&log, &cache);
        h.run();
        assert!(h.query_by_label("cover = soft (in a wood)").is_none(), "no tooltip before hovering");
        h.get_by_label_contains("HA How to fire weapons").hover();
        h.run();
        h.get_by_label("HA \"How to fire weapons\" (Fire)");
        h.get_by_label("1/A → G2");
        h.get_by_label("band = effective");
        h.get_by_label("cover = soft (in a wood)");
        h.get_by_label("Dice: d6 2 5, d10 7");
        h.get_by_label(r#"Outcome: {"hits":1}"#);
        assert_eq!(h.state(), &None, "hovering selects nothing");
    }

    #[test]
    fn a_long_log_shows_its_newest_lines_and_says_so() {
        let events: Vec<RuleEvent> = (0..LOG_LINES + 20)
            .map(|k| {
                RuleEvent::new(EventKind::Command, RuleRef::new(Book::FightYourOwnBattles, "Orders"))
                    .actor("1/A")
                    .outcome(format!("order {k}"))
            })
            .collect();
        let (mut log, cache) = log_of(events);
        log.failed = Some("disk full".into());
        let mut h = log_harness(&log, &cache);
        h.run();
        h.get_by_label(&format!(
            "{} events, the last {LOG_LINES} shown · hover for inputs · click to select",
            LOG_LINES + 20
        ));
        h.get_by_label("Writing the log file failed: disk full");
        // The log sticks to its newest line.
        h.get_by_label_contains(&format!("⇒ order {}", LOG_LINES + 19));
    }

    #[test]
    fn the_deck_marks_played_and_acting_cards_and_a_click_selects_the_holder() {
        let app = patrol_in_progress();
        let world = app.world();
        let els = elements(world);
        let (battle, flow, sides) = (world.resource::<Battle>(), world.resource::<Flow>(), world.resource::<Sides>());
        let deck = battle.deck.as_ref().unwrap();
        let now = deck.acting_now().unwrap();
        let now_card = deck.card_of(now).unwrap();
        let mut h = Harness::new_ui_state(
            |ui, clicked: &mut Option<String>| {
                if let Some(id) = deck_ui(ui, battle, flow, &els, sides) {
                    *clicked = Some(id);
                }
            },
            None,
        );
        h.run();
        let l = labels(&h);
        assert!(l[0].starts_with(&format!("Bound {} of {} · ", battle.clock.bound(), battle.start.last_bound())));
        assert_eq!(l[1], flow_text(flow));
        for (k, id) in deck.order().into_iter().enumerate() {
            let card = k as u8 + 1;
            let mark = match card.cmp(&now_card) {
                std::cmp::Ordering::Less => "✔",
                std::cmp::Ordering::Equal => "▶",
                std::cmp::Ordering::Greater => "",
            };
            assert_eq!(after(&l, &format!("{mark} {card}")), Some(id), "{l:?}");
        }
        // A click on an element's card, played or not, selects it; on a
        // Company Officer's, nothing.
        let is_element = |id: &str| els.iter().any(|f| f.id() == id);
        assert!(deck.order().into_iter().any(|id| !is_element(id)), "patrol deals Company Officers' cards");
        for id in deck.order() {
            *h.state_mut() = None;
            h.get_by_label(id).click();
            h.run();
            assert_eq!(h.state().as_deref(), is_element(id).then_some(id), "{id}");
        }
    }

    /// The village before its first bound, the British (side 0) under the
    /// player's command.
    fn village() -> App {
        let scenario = crate::data::load_scenario("village").unwrap().scenario;
        let mut start = BattleStart::auto("village", scenario, 5);
        start.control[0] = Control::Player;
        crate::battle::battle_app(start, BattleLog::default()).unwrap()
    }

    /// Changes the element `id` of `app`.
    fn change(app: &mut App, id: &str, f: impl FnOnce(&mut crate::battle::state::FieldedItem)) {
        let world = app.world_mut();
        let mut q = world.query::<crate::battle::state::Fielded>();
        f(&mut q.iter_mut(world).find(|e| e.id() == id).unwrap());
    }

    /// The labels of `id`'s Cardsheet in `app`.
    fn cardsheet_labels(app: &App, id: &str) -> Vec<String> {
        let world = app.world();
        let els = elements(world);
        let (battle, sides) = (world.resource::<Battle>(), world.resource::<Sides>());
        let f = els.iter().copied().find(|f| f.id() == id).unwrap();
        let codex = crate::data::codex().ok();
        let mut h = Harness::new_ui(|ui| cardsheet_ui(ui, &f, &els, sides, battle.deck.as_ref(), codex));
        h.run();
        labels(&h)
    }

    #[test]
    fn the_cardsheet_shows_an_elements_numbers_weapons_and_notes() {
        let mut app = village();
        // The 2-inch mortar has fired three bounds; the FOO with the platoon
        // has lost his radio.
        change(&mut app, "13_platoon", |f| {
            let mortar = f.force.element.pieces.iter_mut().find(|p| p.codex == "gb_2in_mortar").unwrap();
            mortar.rounds[0] = Some(7);
        });
        app.world_mut().resource_mut::<Sides>().0[0].foos[0].foo.net.dis = true;
        let l = cardsheet_labels(&app, "13_platoon");
        let world = app.world();
        let platoon = elements(world).into_iter().find(|f| f.id() == "13_platoon").unwrap();
        assert_eq!(l[0], "13_platoon", "{l:?}");
        assert_eq!(after(&l, "Number"), Some("1"));
        assert_eq!(after(&l, "Quality"), Some("Regular"));
        assert_eq!(after(&l, "NCO"), Some("Regular (2)"));
        assert_eq!(after(&l, "CMS"), Some(platoon.force.element.cms.to_string().as_str()));
        assert_eq!(after(&l, "Men"), Some("34 of 34"));
        assert_eq!(after(&l, "OPC"), Some("none this bound"));
        assert_eq!(after(&l, "Order"), Some("4 Contact enemy — the church square"));
        assert_eq!(after(&l, "Ordnance ML 2-inch mortar: Light mortar (crew 2)"), Some("■■■■■■■□□□ 7/10"), "{l:?}");
        assert_eq!(after(&l, "2 × PIAT"), Some("■■■■■ 5/5"));
        assert_eq!(after(&l, "20 × Rifle No. 4 Mk I"), Some("unlimited"), "{l:?}");
        for note in ["Radio", "FOO foo_181_fd with it: radio DIS", "Company Officer of c_coy with it: Bold (3)"] {
            assert!(l.iter().any(|x| x == note), "{note}: {l:?}");
        }
    }

    #[test]
    fn the_cardsheet_shows_transport_duty() {
        let mut app = village();
        change(&mut app, "troop_corporal", |f| {
            f.force.element.role = Role::Transport { carrying: Some("14_platoon".into()) };
        });
        let carrier = cardsheet_labels(&app, "troop_corporal");
        assert_eq!(after(&carrier, "NCO"), Some("none (transport duty)"));
        assert!(carrier.iter().any(|x| x == "Transport, carrying 14_platoon"), "{carrier:?}");
        let carried = cardsheet_labels(&app, "14_platoon");
        assert!(carried.iter().any(|x| x == "Carried by troop_corporal"), "{carried:?}");
    }

    #[test]
    fn the_cardsheet_of_an_enemy_not_observed_shows_nothing_of_it() {
        let mut app = village();
        let hidden = cardsheet_labels(&app, "zug_1");
        assert_eq!(hidden, ["zug_1", "An enemy element your force has not observed."]);
        app.world_mut().resource_mut::<Sides>().0[0].known.insert("zug_1".into());
        let seen = cardsheet_labels(&app, "zug_1");
        assert_eq!(seen[0], "zug_1");
        assert_eq!(after(&seen, "NCO"), Some("Bold (3)"), "{seen:?}");
    }

    #[test]
    fn the_senior_officer_sheet_shows_cmt_condition_and_reserves() {
        let mut app = village();
        // 14 Platoon is lost: the current CMT falls below the initial one.
        change(&mut app, "14_platoon", |f| f.presence.status = Status::Destroyed);
        let world = app.world();
        let els = elements(world);
        let sides = world.resource::<Sides>();
        let side = &sides.0[0];
        let cmt = outcome::cmt(els.iter().copied(), 0);
        assert!(cmt < side.cmt_start, "{cmt} {}", side.cmt_start);
        let mut h = Harness::new_ui_state(
            |ui, clicked: &mut Option<String>| {
                if let Some(id) = senior_ui(ui, sides, &els) {
                    *clicked = Some(id);
                }
            },
            None,
        );
        h.run();
        let l = labels(&h);
        assert_eq!(l[0], side.name);
        assert_eq!(after(&l, "Senior Officer"), Some("Above average (Player)"));
        assert_eq!(after(&l, "Initial CMT"), Some(side.cmt_start.to_string().as_str()));
        assert_eq!(after(&l, "Milestone"), Some(format!("{MILESTONE_PCT}%").as_str()));
        let passed = side.record.milestones_passed(cmt);
        assert_eq!(after(&l, "Current CMT"), Some(format!("{cmt} ({passed} milestones passed)").as_str()));
        assert_eq!(after(&l, "Strategic condition"), Some("Green"));
        assert!(l.iter().any(|x| x == "Reserves uncommitted:"), "{l:?}");
        assert!(!l.iter().any(|x| x == &sides.0[1].name || x.starts_with("panzer_iv")), "the enemy's sheet is hidden");
        let reserve = els.iter().find(|f| f.id() == "15_platoon").unwrap();
        h.get_by_label(&format!("15_platoon (CMS {})", reserve.force.element.cms)).click();
        h.run();
        assert_eq!(h.state().as_deref(), Some("15_platoon"));
    }
}
