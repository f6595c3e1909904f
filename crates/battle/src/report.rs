//! The rules report (`rules-report`; the game's `--rules-report`): every
//! shipped battle played headless, Auto against Auto (solo), on seeds
//! 1..=N, and what of both books those battles played.
//!
//! For each section of the books the rules crate implements (the rows of
//! `docs/rules-coverage.md`, some split in parts, see [`RULES`]): the events
//! that show it, how many of them changed the battle's state, and their
//! distinct outcomes. A section counts as played only when an event of it
//! changed the state, and with more than one outcome where it has several.
//! An event changed the state when a typed change that altered an element,
//! a side's command or the table was applied after it, in its step (see
//! [`StateTally`]); the events logged while the battle is set up (the
//! officers' ratings) decide the state it starts in and count as changing it,
//! and so does a bound's opening event (the clock the end of the last bound
//! moved on).
//!
//! Besides: every section as the log names it, every row of the three
//! Momentum Test Charts with the tests it made due, the hit modifiers the
//! volleys were thrown with, the Auto side's commands, how the battles ended
//! and who won, the assaults, the changes no event claimed, and any
//! invariant failure.

use std::{
    collections::{BTreeMap, BTreeSet},
    fmt::Write as _,
    panic::{AssertUnwindSafe, catch_unwind},
    sync::Arc,
    time::Instant,
};

use serde_json::Value;
use warbound_rules::{
    codex::Codex,
    event::{Book, EventKind, RuleEvent},
    firing,
    momentum::{self, Accrued, CmCause, ElementType},
    officer::Quality,
    scenario::Scenario,
};

use crate::{
    change::{StateTally, Tally},
    invariant::InvariantFailures,
    log::{BattleLog, Entry},
    play,
    setup::{BattleResult, BattleStart},
    state::Battle,
};

/// The heading in `docs/rules-coverage.md` over the sections no shipped
/// battle reaches, each with its reason.
pub const NOT_REACHED_HEADING: &str = "## Not reached by the shipped battles";

/// The sections a coverage document lists under [`NOT_REACHED_HEADING`]:
/// its table's rows `| book | section | reason |` as (book, section,
/// reason). A row without a reason is refused, with its line.
pub fn not_reached(markdown: &str) -> Result<Vec<(String, String, String)>, String> {
    listed_under(markdown, NOT_REACHED_HEADING)
}

/// The rows `| book | section | reason |` of the table under `heading` (a
/// `## ` heading) of a coverage document, as (book, section, reason). A row
/// without a reason is refused, with its line.
pub fn listed_under(markdown: &str, heading: &str) -> Result<Vec<(String, String, String)>, String> {
    let Some(start) = markdown.find(heading) else {
        return Err(format!("no \"{heading}\" section"));
    };
    let first_line = markdown[..start].lines().count() + 1;
    let mut listed = Vec::new();
    for (k, line) in markdown[start..].lines().enumerate().skip(1) {
        if line.starts_with("## ") {
            break;
        }
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        if !line.trim_start().starts_with('|') || cells.len() != 3 || cells[0] == "Book" || cells[0].starts_with("---")
        {
            continue;
        }
        if cells[2].is_empty() {
            return Err(format!("line {}: \"{}\" is listed without a reason", first_line + k, cells[1]));
        }
        listed.push((cells[0].to_owned(), cells[1].to_owned(), cells[2].to_owned()));
    }
    Ok(listed)
}

/// A section a coverage document lists as not reached: (book, section,
/// reason).
pub type Listed = (String, String, String);

/// The rows a coverage document lists under `heading`, when the command
/// line asks for `--check PATH` (taken out of `args`); `None` when it does
/// not. An error when the path is missing or the document cannot be read
/// or parsed.
pub fn take_check(args: &mut Vec<String>, heading: &str) -> Result<Option<Vec<Listed>>, String> {
    Ok(take_checks(args, &[heading])?.map(|mut lists| lists.remove(0)))
}

/// [`take_check`] for several tables of one document: the rows under each
/// of `headings`, in their order.
pub fn take_checks(args: &mut Vec<String>, headings: &[&str]) -> Result<Option<Vec<Vec<Listed>>>, String> {
    let Some(k) = args.iter().position(|a| a == "--check") else { return Ok(None) };
    if k + 1 >= args.len() {
        return Err("--check needs the coverage document's path".to_owned());
    }
    let path = args.remove(k + 1);
    args.remove(k);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    headings
        .iter()
        .map(|h| listed_under(&text, h).map_err(|e| format!("{path}: {e}")))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Seeds played when none are asked for.
pub const DEFAULT_SEEDS: u32 = 5;

/// The seeds asked for by the command line's arguments (after the program's
/// name): `--seeds N`, N at least 1; [`DEFAULT_SEEDS`] when not given.
pub fn seeds_from_args(args: impl IntoIterator<Item = String>) -> Result<u32, String> {
    let mut seeds = DEFAULT_SEEDS;
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seeds" => {
                let value = args.next().ok_or("--seeds needs a number of seeds")?;
                seeds = match value.parse::<u32>() {
                    Ok(n) if n > 0 => n,
                    _ => return Err(format!("--seeds needs a number of seeds of at least 1, not {value:?}")),
                };
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(seeds)
}

/// What shows a section played: events logged under `section` of `book`,
/// with this input (a hit modifier, a segment, a condition) where one is
/// named, whose value (or reason) holds `value`, and whose outcome holds
/// `outcome` (in their JSON text).
#[derive(Debug, Clone, Copy)]
pub struct Shown {
    pub book: Book,
    pub section: &'static str,
    pub input: Option<&'static str>,
    pub value: Option<&'static str>,
    pub outcome: Option<&'static str>,
}

const fn ha(section: &'static str) -> Shown {
    Shown { book: Book::HeroesAll, section, input: None, value: None, outcome: None }
}

const fn fyob(section: &'static str) -> Shown {
    Shown { book: Book::FightYourOwnBattles, section, input: None, value: None, outcome: None }
}

impl Shown {
    const fn input(self, name: &'static str) -> Self {
        Self { input: Some(name), ..self }
    }

    const fn value(self, value: &'static str) -> Self {
        Self { value: Some(value), ..self }
    }

    const fn outcome(self, outcome: &'static str) -> Self {
        Self { outcome: Some(outcome), ..self }
    }

    fn matches(&self, e: &RuleEvent, outcome: &str) -> bool {
        if e.rule.book != self.book || e.rule.section != self.section {
            return false;
        }
        if let Some(name) = self.input {
            let holds = |i: &&warbound_rules::event::Input| {
                i.name == name && self.value.is_none_or(|v| i.reason.contains(v) || value_text(&i.value).contains(v))
            };
            if !e.inputs.iter().any(|i| holds(&i)) {
                return false;
            }
        }
        self.outcome.is_none_or(|o| outcome.contains(o))
    }

    fn describe(&self) -> String {
        let mut s = format!("{} \"{}\"", self.book.abbrev(), self.section);
        if let Some(i) = self.input {
            let _ = write!(s, " with {i}");
        }
        if let Some(v) = self.value {
            let _ = write!(s, " `{v}`");
        }
        if let Some(o) = self.outcome {
            let _ = write!(s, " giving `{o}`");
        }
        s
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// How a section of the books can be seen played in a battle's log.
#[derive(Debug, Clone, Copy)]
pub enum Trace {
    /// By any of these events.
    Shown(&'static [Shown]),
    /// A rule of the 2-player game: this report plays solo battles.
    TwoPlayer,
    /// No event names it (setting up, the CODEX, an input to another rule's
    /// event): the log cannot show it played.
    NoEvent,
}

/// A section of a book the rules crate implements: a row of
/// `docs/rules-coverage.md`, or a part of one the report follows apart.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub book: Book,
    /// The row of `docs/rules-coverage.md`.
    pub row: &'static str,
    /// The part of the row, where the report follows one apart.
    pub part: Option<&'static str>,
    pub trace: Trace,
}

impl Rule {
    pub fn name(&self) -> &'static str {
        self.part.unwrap_or(self.row)
    }
}

const fn row(book: Book, row: &'static str, by: &'static [Shown]) -> Rule {
    Rule { book, row, part: None, trace: Trace::Shown(by) }
}

const fn part(book: Book, row: &'static str, part: &'static str, by: &'static [Shown]) -> Rule {
    Rule { book, row, part: Some(part), trace: Trace::Shown(by) }
}

const fn no_event(book: Book, row: &'static str) -> Rule {
    Rule { book, row, part: None, trace: Trace::NoEvent }
}

const fn two_player(row: &'static str) -> Rule {
    Rule { book: Book::HeroesAll, row, part: None, trace: Trace::TwoPlayer }
}

const HA: Book = Book::HeroesAll;
const FYOB: Book = Book::FightYourOwnBattles;
const VOLLEY: Shown = ha("How to fire weapons");
const OBSERVATION: Shown = ha("Observation");
const MOVEMENT: Shown = ha("Movement");
const HE_EFFECTS: Shown = ha("HE Effects Table");
const BUILDING_HIT: Shown = ha("Hits on buildings & structures");
const CM_TESTS: Shown = fyob("Continuous Momentum");
const ORT: Shown = fyob("Officer Reaction Test");
const CONCEAL: Shown = fyob("How to conceal an element");
const CLOSE_ASSAULT: Shown = ha("Close assaults (into buildings or defensive positions)");
const VEHICLE_ASSAULT: Shown = ha("Assaults on AFVs and other vehicles");

/// Every section of both books the rules crate implements, in the order of
/// `docs/rules-coverage.md` (its "n/a" rows left out), with what shows it
/// played. A rule whose battle step logs no event yet is shown by the
/// book's heading: the step that plays it logs its event under that heading.
pub const RULES: &[Rule] = &[
    no_event(HA, "The cost of your army / Cost of infantry"),
    row(HA, "The Wargame Day", &[fyob("The game flow").input("hour")]),
    row(HA, "Bounds, turns, phases", &[fyob("Order Dice")]),
    no_event(HA, "Composition of an element"),
    no_event(HA, "Cohesion within an element"),
    row(HA, "The \"box\"", &[ha("The \"box\"")]),
    row(HA, "Officers – rank and abilities / rating NCOs", &[fyob("Rating NCOs and Officers")]),
    row(HA, "Transport elements", &[ha("Transport elements")]),
    two_player("2-player: Command and Control, Command Dice"),
    two_player("2-player: Officer Reaction Test chart"),
    two_player("2-player: Movement modification (damaged 1D6)"),
    two_player("2-player: Morale"),
    two_player("2-player: Failed ORT or Morale throws"),
    row(HA, "Overwatch", &[ha("Overwatch"), OBSERVATION.input("overwatch")]),
    row(HA, "Guards: facing, move-then-turn", &[ha("Guards")]),
    row(HA, "Guards: re-facing by the NCO's Leadership Test", &[ha("Guards").input("re_face")]),
    row(
        HA,
        "Cover for observation",
        &[
            OBSERVATION.input("sparse_wood"),
            OBSERVATION.input("dense_wood"),
            OBSERVATION.input("obstacles"),
            OBSERVATION.input("intact_building"),
        ],
    ),
    row(HA, "Cover for protection", &[VOLLEY.input("in_open"), VOLLEY.input("hard_cover"), VOLLEY.input("pillbox")]),
    row(HA, "Vehicle cover (hull down)", &[VOLLEY.input("hull_down")]),
    row(HA, "Observation: maximum range", &[OBSERVATION.outcome("beyond_range")]),
    row(HA, "Observers and targets", &[OBSERVATION.input("observer")]),
    row(HA, "Observation Test / Segments", &[OBSERVATION.input("segments")]),
    row(HA, "Super throw", &[OBSERVATION.outcome("super_throw")]),
    row(HA, "Unobserved Autospot", &[VOLLEY.input("unobserved_autospot")]),
    row(HA, "Passing on information", &[fyob("Radio Links between Officer levels"), fyob("Runners")]),
    row(HA, "Checking vacated positions", &[ha("Checking vacated positions")]),
    row(HA, "Spotting a potential ambush", &[ha("Spotting a potential ambush")]),
    row(HA, "Addendum 2020: Blinds", &[fyob("Placement options")]),
    row(HA, "Addendum 2020: Forces acting whilst rationed", &[ha("Forces acting whilst rationed")]),
    row(HA, "Addendum 2020: Weather (uphill)", &[MOVEMENT.input("pips").value("UphillInRainOrSnow")]),
    row(HA, "Firing teams", &[VOLLEY]),
    no_event(HA, "Number of shots allowed per day"),
    row(HA, "Weapons Table", &[VOLLEY.input("weapon")]),
    part(HA, "Weapons Table", "Weapons table notes: Crewed", &[ha("Weapons table notes: Crewed")]),
    part(HA, "Weapons Table", "Weapons table notes: Immobile", &[ha("Weapons table notes: Immobile")]),
    row(HA, "How to fire small arms", &[VOLLEY]),
    part(HA, "How to fire small arms", "Second shot from the same position", &[VOLLEY.input("second_shot")]),
    row(HA, "How to fire AT over open sights", &[ha("Effects of AT on armour and soft-skinned vehicles")]),
    part(HA, "How to fire AT over open sights", "Aimed shot (an Act as aim)", &[VOLLEY.input("aimed")]),
    row(HA, "How to fire HE over open sights", &[HE_EFFECTS]),
    row(HA, "Indirect fire", &[ha("Indirect Fire")]),
    row(HA, "Flame weapons", &[ha("Flame weapons")]),
    row(HA, "Grenades", &[CLOSE_ASSAULT, VEHICLE_ASSAULT]),
    row(
        HA,
        "Effects of hits: infantry/CSWs",
        &[HE_EFFECTS.input("target").value("infantry"), VOLLEY.outcome("\"hits\":")],
    ),
    row(HA, "Effects of AT on armour and soft-skins", &[ha("Effects of AT on armour and soft-skinned vehicles")]),
    row(HA, "Defence Values of Armoured Vehicles", &[ha("Defence values of armoured vehicles")]),
    no_event(HA, "Vehicle damaged twice"),
    row(HA, "HE Effects Table", &[HE_EFFECTS]),
    row(HA, "HE/mortar fire on artillery/CSWs", &[HE_EFFECTS.input("target").value("gun")]),
    row(
        HA,
        "HE/mortar fire on open-topped AFVs (and closed AFVs)",
        &[HE_EFFECTS.input("target").value("open_topped"), HE_EFFECTS.input("target").value("closed")],
    ),
    row(
        HA,
        "Small arms/mortar/HE fire on soft-skinned vehicles (passengers)",
        &[
            ha("Small arms, mortar or HE fire against soft-skinned vehicles"),
            ha("Defence values of armoured vehicles").input("aboard"),
        ],
    ),
    row(HA, "Petard mortars", &[ha("Petard type mortars")]),
    row(HA, "Goliath", &[ha("Goliath"), MOVEMENT.input("goliath_reliability")]),
    row(
        HA,
        "Firing smoke: +2, 3 × 1\" smokeballs for 2 bounds",
        &[VOLLEY.input("smoke"), ha("Indirect Fire").input("smoke"), ha("Firing smoke")],
    ),
    no_event(HA, "Effect of supply on firing weapons"),
    row(HA, "Snipers", &[VOLLEY.input("needed").value("snipers"), ha("Snipers")]),
    row(HA, "How to move / Movement Table", &[MOVEMENT]),
    row(HA, "\"At the double\"", &[MOVEMENT.input("pace").value("AtTheDouble")]),
    row(HA, "Moving on Overwatch", &[MOVEMENT.input("pace").value("Overwatch")]),
    row(HA, "\"Stealth\" move", &[MOVEMENT.input("dice").value("stealth")]),
    row(HA, "Move distance modifiers", &[MOVEMENT.input("pips")]),
    row(HA, "Rough ground, no-go areas", &[MOVEMENT.input("rough_ground")]),
    no_event(HA, "Vehicles moving at start of bound"),
    no_event(HA, "Cavalry (mounting an Act)"),
    row(HA, "Assaults: 1-on-1 attacks", &[ha("Assaults: 1-on-1 attacks")]),
    row(HA, "Assaults on buildings/defensive positions", &[CLOSE_ASSAULT]),
    row(HA, "Coming up short", &[ha("Coming up short")]),
    row(HA, "Assaults on AFVs and vehicles", &[VEHICLE_ASSAULT]),
    row(HA, "Night fighting", &[OBSERVATION.input("night"), MOVEMENT.input("night")]),
    row(
        HA,
        "Small and large charges",
        &[ha("Explosives").input("charge").value("small"), ha("Explosives").input("charge").value("large")],
    ),
    row(HA, "Bangalore Torpedoes", &[ha("Explosives").input("charge").value("bangalore")]),
    row(HA, "Mouse-holing", &[ha("Mouse-holing")]),
    row(HA, "Detecting charges set for delay", &[ha("Detecting charges set for delay")]),
    row(HA, "Mines/Minefields", &[ha("Mines/Minefields").input("minefield")]),
    no_event(HA, "Ability of a figure"),
    no_event(HA, "Load sizes"),
    no_event(HA, "Carriage capacity"),
    no_event(HA, "Load space occupied by vehicles"),
    no_event(HA, "Engineers: troop rating"),
    row(HA, "Mine clearing", &[ha("Mines/Minefields").input("clearers")]),
    row(HA, "Road and bridge repairs", &[ha("Repairing roads and bridges")]),
    row(HA, "Pontoon bridges", &[ha("Pontoon bridges")]),
    row(HA, "Bridge-/fascine-laying tanks", &[ha("Bridge-laying or fascine-laying tanks")]),
    row(HA, "Paratroops jumping", &[ha("Paratroops - Landing process")]),
    no_event(HA, "Paratroop weapons"),
    no_event(HA, "Firing on paratroops"),
    no_event(HA, "Observing paratroops in the air"),
    row(HA, "Paratroop landing process", &[ha("Paratroops - Landing process")]),
    no_event(HA, "Gliders: firing on/observing in the air"),
    row(HA, "Gliders: activation and landing, landing process", &[ha("Gliders - Landing process")]),
    no_event(HA, "Gliders as cover"),
    row(HA, "Buildings: capacity; what can be put in", &[ha("Buildings")]),
    row(HA, "Hits on buildings; HE scores doubled", &[BUILDING_HIT]),
    row(
        HA,
        "Hit building set on fire; structure removed",
        &[BUILDING_HIT.outcome("\"destroyed\":true"), BUILDING_HIT.outcome("\"fire\":{")],
    ),
    row(HA, "Emplaced weapon; \"surplus\" HE", &[BUILDING_HIT.outcome("\"emplaced_weapon_lost\":true")]),
    row(HA, "Setting fire to buildings", &[ha("Setting fire to buildings")]),
    row(HA, "Bridges: types and defence values; damage", &[ha("Bridges")]),
    row(HA, "Rivers: types of waterway, fords", &[ha("Rivers")]),
    row(HA, "Marsh or swamp", &[MOVEMENT.input("pips").value("Marsh")]),
    row(HA, "Aircraft: introduction, weapons", &[ha("Aircraft rules")]),
    no_event(HA, "Operating heights"),
    no_event(HA, "Formations; window; density"),
    no_event(HA, "Aircraft at different heights"),
    row(HA, "Scheduling; \"calling in\"", &[ha("\"Calling in\" aircraft")]),
    row(HA, "When aircraft arrive; Order Dice options; order of events", &[ha("Aircraft rules")]),
    row(HA, "Observation – aircraft", &[ha("Observation - aircraft rules")]),
    row(
        HA,
        "Aircraft attacking ground troops; bomb damage; AT damage",
        &[ha("Aircraft attacking ground troops"), ha("Bomb damage"), ha("Anti Tank damage")],
    ),
    row(HA, "AA fire", &[ha("Anti aircraft fire"), ha("Hits on aircraft with AA fire")]),
    row(HA, "Air to air combat", &[ha("Air to air combat")]),
    row(HA, "Pre-game activity; CM for aircraft", &[ha("Continuous Momentum for Aircraft"), ha("Morale")]),
    no_event(HA, "Aircraft on the ground"),
    row(HA, "Boats: definitions; river craft", &[ha("Boats")]),
    row(HA, "Landing craft landing sequence", &[ha("Landing craft landing sequence"), ha("Landing craft")]),
    no_event(HA, "Sea-going craft"),
    no_event(HA, "Logistics: normal restrictions on ammunition"),
    row(
        HA,
        "Restrictions in \"Rationed\" state; CM when rationed",
        &[ha("Forces acting whilst rationed"), CM_TESTS.input("conditions").value("\"rationed\":true")],
    ),
    row(
        HA,
        "Advanced artillery: FOO, off-table guns, interdiction",
        &[ha("Interdiction Fire"), fyob("Radio netting-in"), ha("Direct Fire Support")],
    ),
    no_event(FYOB, "Composition of an element (highest command named)"),
    no_event(FYOB, "Company Officer figures (attached; changing elements within 1\")"),
    row(FYOB, "Rating NCOs and Officers", &[fyob("Rating NCOs and Officers")]),
    row(FYOB, "Transport elements", &[ha("Transport elements")]),
    no_event(FYOB, "Definitions of each grade of Officer"),
    row(
        FYOB,
        "Decisions made and actions taken by the Officer grades",
        &[
            fyob("Orders"),
            fyob("Orders & Objectives"),
            ha("Overwatch").input("order"),
            fyob("Strategic Condition").outcome("hold"),
        ],
    ),
    row(
        FYOB,
        "Leadership Tests",
        &[
            fyob("Taking a Leadership Test"),
            fyob("Officer decisions"),
            fyob("Using the Leadership Test to decide between 2 courses of action"),
        ],
    ),
    row(
        FYOB,
        "Game flow: start of bound, end of bound (deal)",
        &[fyob("The game flow").input("bound"), fyob("Order Priority Cards")],
    ),
    row(FYOB, "Table-top turn for an element (ORT → CM tests → Order Dice → updates)", &[fyob("Order Dice")]),
    row(FYOB, "\"Command\" turn of a Company Officer", &[ORT.input("rank").value("CompanyOfficer")]),
    row(
        FYOB,
        "Start of session activity for Senior Officer",
        &[fyob("Strategic Milestone Test"), fyob("Committing Reserves to the table")],
    ),
    row(FYOB, "Order Priority Cards", &[fyob("Order Priority Cards")]),
    row(FYOB, "Officer Reaction Tests (incl. Seize Initiative)", &[ORT]),
    part(
        FYOB,
        "Officer Reaction Tests (incl. Seize Initiative)",
        "Seize the Initiative",
        &[ORT.outcome("SeizesInitiative")],
    ),
    row(
        FYOB,
        "Continuous Momentum: element types, charts, reductions",
        &[CM_TESTS.input("accrued"), fyob("Momentum Test Chart")],
    ),
    row(FYOB, "Results of Momentum Tests", &[CM_TESTS.outcome("\"band\":")]),
    part(
        FYOB,
        "Results of Momentum Tests",
        "7 or 8, 9+: CSWs and guns abandoned",
        &[fyob("Results of Momentum Tests").input("abandoned")],
    ),
    row(FYOB, "Continuous Momentum Score (three tables)", &[CM_TESTS.input("cms")]),
    part(
        FYOB,
        "Continuous Momentum Score (three tables)",
        "CMS 1: all weapons except small arms abandoned",
        &[fyob("Continuous Momentum Score - infantry, CSWs, engineers and artillery").input("abandoned")],
    ),
    row(FYOB, "Rallying CMS", &[fyob("Rallying up the Continuous Momentum score of an element")]),
    row(FYOB, "Order Dice (Fire/Move/Act, the acts)", &[fyob("Order Dice")]),
    no_event(FYOB, "Activity counters"),
    row(
        FYOB,
        "Command and Control session / turn",
        &[fyob("Strategic Milestone Test"), ORT.input("rank").value("CompanyOfficer")],
    ),
    row(FYOB, "Orders & Objectives", &[fyob("Orders & Objectives"), fyob("Orders"), ha("Overwatch").input("order")]),
    row(
        FYOB,
        "Radio links; NCO/CO a casualty",
        &[fyob("Radio Links between Officer levels"), fyob("NCO is a casualty")],
    ),
    part(FYOB, "Radio links; NCO/CO a casualty", "NCO is a casualty", &[fyob("NCO is a casualty").input("men_lost")]),
    part(
        FYOB,
        "Radio links; NCO/CO a casualty",
        "NCO replaced by the Company Officer",
        &[fyob("NCO is a casualty").input("rank")],
    ),
    part(
        FYOB,
        "Radio links; NCO/CO a casualty",
        "Company Officer as a casualty: succession",
        &[fyob("Company Officer as a casualty")],
    ),
    row(
        FYOB,
        "Officer decisions (LT between 2 courses)",
        &[fyob("Using the Leadership Test to decide between 2 courses of action"), fyob("Officer decisions")],
    ),
    row(FYOB, "Strategic Conditions; CMT", &[fyob("Strategic Condition")]),
    row(FYOB, "Rallying up the CMS of an element", &[fyob("Rallying up the Continuous Momentum score of an element")]),
    row(FYOB, "Strategic Milestones; re-taking", &[fyob("Strategic Milestone Test")]),
    row(FYOB, "Committing reserves", &[fyob("Committing Reserves to the table")]),
    row(FYOB, "Strategic Condition at Red", &[fyob("Strategic Condition at Red")]),
    row(FYOB, "Concealed elements: what, how (5+)", &[CONCEAL]),
    row(FYOB, "Placement options", &[fyob("Placement options")]),
    row(
        FYOB,
        "Getting out of concealment",
        &[MOVEMENT.input("pips").value("Concealment"), fyob("Getting out of concealment")],
    ),
    row(FYOB, "Concealed element activity", &[fyob("Concealed element activity")]),
    no_event(FYOB, "Concealment mid-game (order 6)"),
    row(FYOB, "Snipers and concealment", &[CONCEAL.input("sniper").value("true")]),
    row(FYOB, "Groups", &[fyob("Groups")]),
    row(FYOB, "Radios", &[fyob("Radio netting-in")]),
    row(FYOB, "Runners", &[fyob("Runners")]),
    no_event(FYOB, "Cardsheet; Senior Officer Record Sheet"),
    no_event(FYOB, "Quick Reference Guides"),
];

/// Events, those that changed the battle's state, and their distinct outcomes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counted {
    pub events: u32,
    pub changed: u32,
    /// The outcomes of the rule's events (not of commands naming it), each
    /// by its shape (see [`shape`]).
    pub outcomes: BTreeSet<String>,
}

impl Counted {
    fn add(&mut self, e: &RuleEvent, changed: bool) {
        self.events += 1;
        self.changed += u32::from(changed);
        if e.kind != EventKind::Command {
            self.outcomes.insert(shape(&e.outcome));
        }
    }

    /// Where the report puts the section.
    pub fn status(&self) -> Status {
        match (self.events, self.changed, self.outcomes.len()) {
            (0, ..) => Status::NeverPlayed,
            (_, 0, _) => Status::NoChange,
            (_, _, 0 | 1) => Status::OneOutcome,
            _ => Status::Played,
        }
    }
}

/// Whether a section was played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Changed the state, with more than one outcome.
    Played,
    /// Changed the state, always with the same outcome.
    OneOutcome,
    /// Logged, but never changed the state.
    NoChange,
    /// No battle logged it.
    NeverPlayed,
}

impl Status {
    fn words(self) -> &'static str {
        match self {
            Status::Played => "played",
            Status::OneOutcome => "one outcome",
            Status::NoChange => "no state change",
            Status::NeverPlayed => "**never played**",
        }
    }
}

/// A section as the battle log names it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Logged {
    pub counted: Counted,
    /// The kinds of event logged under it.
    pub kinds: BTreeSet<String>,
    /// The changes credited to its events, by kind.
    pub changes: BTreeMap<String, u32>,
}

/// One row of a Momentum Test Chart over every battle.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartRow {
    pub chart: ElementType,
    pub cause: CmCause,
    /// A grey row: a state re-applied whenever tests fall due.
    pub grey: bool,
    /// Times it was on an element's tests when they were taken.
    pub times: u32,
    /// The tests it made due, before reductions.
    pub tests: u32,
}

/// One shipped battle over every seed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BattleTally {
    pub name: String,
    pub sides: Vec<String>,
    /// Battles played to an end.
    pub ended: u32,
    /// Wins of each side.
    pub wins: Vec<u32>,
    pub draws: u32,
    /// How they ended (`withdrawal`, `surrender`, `objective`, `time_limit`).
    pub ends: BTreeMap<String, u32>,
}

/// Assaults over every battle: one for each element assaulting a target in
/// a bound, won or lost as the event that closes it names its `winner`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Assaults {
    pub tried: u32,
    pub won: u32,
    pub lost: u32,
}

/// An assault: the bound, the attacker and its target.
type Fight<'a> = (u32, Option<&'a str>, Option<&'a str>);

/// What one battle left to count.
struct Played {
    log: Vec<Entry>,
    /// Events logged while the battle was set up.
    setup: usize,
    tally: Tally,
    result: Option<BattleResult>,
    failures: Vec<String>,
}

/// The report: see the module's documentation.
#[derive(Debug, Clone)]
pub struct RulesReport {
    pub seeds: u32,
    pub battles: Vec<BattleTally>,
    /// Each of [`RULES`], in its order.
    pub rules: Vec<Counted>,
    /// Each section as the log names it: (book, section).
    pub logged: BTreeMap<(String, String), Logged>,
    pub charts: Vec<ChartRow>,
    /// Volleys thrown with each hit modifier, in the book's order.
    pub modifiers: Vec<(&'static str, u32)>,
    /// The Auto side's commands by kind: (accepted, refused).
    pub commands: BTreeMap<String, (u32, u32)>,
    pub assaults: Assaults,
    /// Changes that altered the state with no event's step going, by kind.
    pub uncredited: BTreeMap<String, u32>,
    /// Invariant failures, battles that did not start or end, panics.
    pub failures: Vec<String>,
    /// Wall-clock seconds the battles took.
    pub seconds: f64,
}

/// Plays every battle of `battles` Auto against Auto on seeds 1..=`seeds`
/// and reports what of both books they played.
pub fn rules_report(codex: &Arc<Codex>, battles: &[(String, Scenario)], seeds: u32) -> RulesReport {
    let started = Instant::now();
    let mut report = RulesReport::new(seeds);
    for (name, scenario) in battles {
        let mut tally = BattleTally {
            name: name.clone(),
            sides: scenario.sides.iter().map(|s| s.name.clone()).collect(),
            wins: vec![0; scenario.sides.len()],
            ..BattleTally::default()
        };
        for seed in 1..=u64::from(seeds) {
            let played = catch_unwind(AssertUnwindSafe(|| play_one(name, scenario, seed, codex))).unwrap_or_else(|p| {
                let why =
                    p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
                Err(format!("panicked: {}", why.unwrap_or_default()))
            });
            match played {
                Ok(p) => {
                    report.failures.extend(p.failures.iter().map(|f| format!("{name} seed {seed}: {f}")));
                    report.add_log(&p.log, p.setup, &p.tally);
                    match &p.result {
                        Some(r) => tally.ended(r),
                        None => report.failures.push(format!("{name} seed {seed}: did not end")),
                    }
                }
                Err(e) => report.failures.push(format!("{name} seed {seed}: {e}")),
            }
        }
        report.battles.push(tally);
    }
    report.seconds = started.elapsed().as_secs_f64();
    report
}

/// One battle played to its end with a [`StateTally`] counting.
fn play_one(name: &str, scenario: &Scenario, seed: u64, codex: &Arc<Codex>) -> Result<Played, String> {
    let start = BattleStart::auto(name, scenario.clone(), seed);
    let mut app = play::battle_app(start, BattleLog::default(), codex.clone())?;
    let tally = StateTally::default();
    let world = app.world_mut();
    let setup = world.resource::<BattleLog>().entries.len();
    world.insert_resource(tally.clone());
    world.resource_mut::<BattleLog>().tally(tally.clone());
    let stalled = play::advance(&mut app).err();
    let world = app.world_mut();
    let mut failures: Vec<String> = world.resource::<InvariantFailures>().0.iter().map(|f| f.to_string()).collect();
    failures.extend(stalled);
    Ok(Played {
        log: std::mem::take(&mut world.resource_mut::<BattleLog>().entries),
        setup,
        tally: tally.counted(),
        result: world.resource::<Battle>().result.clone(),
        failures,
    })
}

impl BattleTally {
    fn ended(&mut self, r: &BattleResult) {
        self.ended += 1;
        match r.winner {
            Some(w) if w < self.wins.len() => self.wins[w] += 1,
            _ => self.draws += 1,
        }
        *self.ends.entry(value_text(&serde_json::to_value(r.decided_by).unwrap_or_default())).or_default() += 1;
    }
}

/// The shape of an outcome, for telling outcomes apart: numbers by sign
/// (0, +, -), lists as empty or not, names and flags as they are.
pub fn shape(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_f64() {
            Some(0.0) => "0",
            Some(x) if x < 0.0 => "-",
            _ => "+",
        }
        .to_owned(),
        Value::String(s) => s.clone(),
        Value::Array(a) => if a.is_empty() { "[]" } else { "[..]" }.to_owned(),
        Value::Object(m) => {
            let fields: Vec<String> = m.iter().map(|(k, v)| format!("{k}: {}", shape(v))).collect();
            format!("{{{}}}", fields.join(", "))
        }
    }
}

const CHARTS: [ElementType; 3] = [ElementType::Infantry, ElementType::SoftSkin, ElementType::Afv];

impl RulesReport {
    fn new(seeds: u32) -> Self {
        Self {
            seeds,
            battles: Vec::new(),
            rules: vec![Counted::default(); RULES.len()],
            logged: BTreeMap::new(),
            charts: CHARTS
                .iter()
                .flat_map(|&chart| {
                    momentum::chart_rows(chart).map(move |(cause, grey)| ChartRow {
                        chart,
                        cause,
                        grey,
                        times: 0,
                        tests: 0,
                    })
                })
                .collect(),
            modifiers: firing::hit_modifiers().map(|m| (m, 0)).collect(),
            commands: BTreeMap::new(),
            assaults: Assaults::default(),
            uncredited: BTreeMap::new(),
            failures: Vec::new(),
            seconds: 0.0,
        }
    }

    /// Counts one battle's log: its first `setup` events were logged while
    /// it was set up; `tally` credits the changes to the events after them.
    fn add_log(&mut self, log: &[Entry], setup: usize, tally: &Tally) {
        // Each assault (bound, attacker, target): won (`Some(true)`), lost, or undecided.
        let mut assaults: BTreeMap<Fight, Option<bool>> = BTreeMap::new();
        for (k, entry) in log.iter().enumerate() {
            let e = &entry.event;
            let changes: &[String] =
                k.checked_sub(setup).and_then(|j| tally.credited.get(j)).map_or(&[], Vec::as_slice);
            // A bound's opening event records the clock the end of the last
            // bound moved on, in the step before it.
            let changed = k < setup || !changes.is_empty() || e.kind == EventKind::Bound;
            let outcome = e.outcome.to_string();
            for (rule, counted) in RULES.iter().zip(&mut self.rules) {
                if let Trace::Shown(by) = rule.trace
                    && by.iter().any(|s| s.matches(e, &outcome))
                {
                    counted.add(e, changed);
                }
            }
            let logged = self.logged.entry((e.rule.book.abbrev().to_owned(), e.rule.section.clone())).or_default();
            logged.counted.add(e, changed);
            logged.kinds.insert(value_text(&serde_json::to_value(e.kind).unwrap_or_default()));
            for c in changes {
                *logged.changes.entry(c.clone()).or_default() += 1;
            }
            match e.kind {
                EventKind::CmTests if e.rule.section == "Continuous Momentum" => self.tests_taken(e),
                EventKind::Fire if e.rule.section == "How to fire weapons" => {
                    for (name, n) in &mut self.modifiers {
                        *n += u32::from(e.inputs.iter().any(|i| i.name == *name));
                    }
                }
                EventKind::Command => {
                    let command = e.inputs.iter().find(|i| i.name == "command").map(|i| match &i.value {
                        Value::Object(m) => m.keys().next().cloned().unwrap_or_default(),
                        other => value_text(other),
                    });
                    let counts = self.commands.entry(command.unwrap_or_default()).or_default();
                    if e.outcome.get("accepted") == Some(&Value::Bool(true)) {
                        counts.0 += 1;
                    } else {
                        counts.1 += 1;
                    }
                }
                EventKind::Assault if changed => {
                    let won = match e.outcome.get("winner").and_then(Value::as_str) {
                        Some("attacker") => Some(true),
                        Some("defender") => Some(false),
                        _ => None,
                    };
                    let (actor, target) = (e.actor.as_deref(), e.target.as_deref());
                    // The defenders' answer, on their own card, belongs to the
                    // latest assault on them by that attacker.
                    let key = if e.outcome.get("defending") == Some(&Value::Bool(true)) {
                        assaults.keys().filter(|k| k.1 == target && k.2 == actor).max().copied()
                    } else {
                        Some((entry.bound, actor, target))
                    };
                    if let Some(key) = key {
                        let slot = assaults.entry(key).or_default();
                        *slot = won.or(*slot);
                    }
                }
                _ => {}
            }
        }
        for won in assaults.values() {
            self.assaults.tried += 1;
            match won {
                Some(true) => self.assaults.won += 1,
                Some(false) => self.assaults.lost += 1,
                None => {}
            }
        }
        for (kind, n) in &tally.uncredited {
            *self.uncredited.entry(kind.clone()).or_default() += n;
        }
    }

    /// The chart rows an element's CM tests were taken on.
    fn tests_taken(&mut self, e: &RuleEvent) {
        let input = |name: &str| e.inputs.iter().find(|i| i.name == name).map(|i| i.value.clone());
        let chart = input("element_type").and_then(|v| serde_json::from_value::<ElementType>(v).ok());
        let quality = input("quality").and_then(|v| serde_json::from_value::<Quality>(v).ok());
        let accrued = input("accrued").and_then(|v| serde_json::from_value::<Accrued>(v).ok());
        let (Some(chart), Some(quality), Some(accrued)) = (chart, quality, accrued) else { return };
        let rows = accrued.events.iter().copied().chain(accrued.states.iter().map(|&c| (c, 1)));
        for (cause, times) in rows {
            if let Some(r) = self.charts.iter_mut().find(|r| r.chart == chart && r.cause == cause) {
                r.times += times;
                r.tests += momentum::tests_for(chart, quality, cause).unwrap_or(0) * times;
            }
        }
    }

    /// How `RULES`' section `name` of `book` stands; `None` for no such section.
    pub fn rule(&self, book: Book, name: &str) -> Option<&Counted> {
        RULES.iter().position(|r| r.book == book && r.name() == name).map(|k| &self.rules[k])
    }

    /// Where the battles and the list of sections no shipped battle reaches
    /// (see [`not_reached`]) disagree: a section a battle's log can show
    /// (solo) that is not listed and that no battle reached, a listed one a
    /// battle reached, a listed one the report has no such row for. Empty
    /// when they agree.
    pub fn check_reached(&self, listed: &[(String, String, String)]) -> Vec<String> {
        let mut problems = Vec::new();
        let shown = RULES.iter().zip(&self.rules).filter(|(r, _)| matches!(r.trace, Trace::Shown(_)));
        for (rule, counted) in shown.clone() {
            let book = rule.book.abbrev();
            let on_list = listed.iter().any(|(b, n, _)| b == book && n == rule.name());
            match (counted.events, on_list) {
                (0, false) => problems.push(format!(
                    "{book} \"{}\": no shipped battle reached it in {} seeds, and the coverage document does not list it as not reached",
                    rule.name(),
                    self.seeds
                )),
                (n, true) if n > 0 => problems.push(format!(
                    "{book} \"{}\": listed as not reached, but {n} events played it: take it off the list",
                    rule.name()
                )),
                _ => {}
            }
        }
        for (book, name, _) in listed {
            if !shown.clone().any(|(r, _)| r.book.abbrev() == book && r.name() == name) {
                problems.push(format!("{book} \"{name}\": listed as not reached, but the report has no such section"));
            }
        }
        problems
    }

    /// A section as the log names it.
    pub fn logged(&self, book: Book, section: &str) -> Option<&Logged> {
        self.logged.get(&(book.abbrev().to_owned(), section.to_owned()))
    }

    /// The sections the log names that no rule of [`RULES`] is shown by
    /// (HA and FYOB only).
    pub fn unclaimed(&self) -> Vec<&(String, String)> {
        self.logged
            .keys()
            .filter(|(book, section)| {
                (book == "HA" || book == "FYOB")
                    && !RULES.iter().any(|r| match r.trace {
                        Trace::Shown(by) => by.iter().any(|s| s.book.abbrev() == book && s.section == section),
                        _ => false,
                    })
            })
            .collect()
    }

    /// The report as Markdown.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let played: u32 = self.battles.iter().map(|b| b.ended).sum();
        let _ = writeln!(s, "# Rules report\n");
        let _ = writeln!(
            s,
            "{} shipped battles ({}) × seeds 1..={}, solo, Auto against Auto: {played} battles in {:.1} s.\n",
            self.battles.len(),
            self.battles.iter().map(|b| b.name.as_str()).collect::<Vec<_>>().join(", "),
            self.seeds,
            self.seconds
        );
        let _ = writeln!(
            s,
            "An event *changed state* when a typed change that altered an element, a side's command or the table \
             was applied after it in its step (the officers' ratings, logged while the battle is set up, and each \
             bound's opening, the clock moved on, count). \
             A section is *played* when its events changed state, with more than one outcome (outcomes told apart \
             by their shape: numbers by sign, lists empty or not).\n"
        );
        self.failures_md(&mut s);
        self.battles_md(&mut s);
        self.rules_md(&mut s);
        self.charts_md(&mut s);
        self.modifiers_md(&mut s);
        self.commands_md(&mut s);
        self.logged_md(&mut s);
        s
    }

    fn failures_md(&self, s: &mut String) {
        let _ = writeln!(s, "## Invariant failures\n");
        if self.failures.is_empty() {
            let _ = writeln!(s, "None.\n");
        }
        for f in &self.failures {
            let _ = writeln!(s, "- {f}");
        }
        if !self.failures.is_empty() {
            s.push('\n');
        }
    }

    fn battles_md(&self, s: &mut String) {
        let _ = writeln!(s, "## How the battles ended\n");
        let _ = writeln!(
            s,
            "| Battle | Played | Side wins (win rate) | Draws | Withdrawal | Surrender | Objective | Time limit |"
        );
        let _ = writeln!(s, "|---|---:|---|---:|---:|---:|---:|---:|");
        let mut total = BattleTally::default();
        for b in &self.battles {
            let wins: Vec<String> = b
                .sides
                .iter()
                .zip(&b.wins)
                .map(|(side, w)| format!("{side}: {w} ({:.0}%)", percent(*w, b.ended)))
                .collect();
            let end = |k: &str| b.ends.get(k).copied().unwrap_or(0);
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                b.name,
                b.ended,
                wins.join("; "),
                b.draws,
                end("withdrawal"),
                end("surrender"),
                end("objective"),
                end("time_limit")
            );
            total.ended += b.ended;
            total.draws += b.draws;
            for (k, n) in &b.ends {
                *total.ends.entry(k.clone()).or_default() += n;
            }
        }
        let end = |k: &str| total.ends.get(k).copied().unwrap_or(0);
        let _ = writeln!(
            s,
            "| **all** | {} | | {} | {} | {} | {} | {} |\n",
            total.ended,
            total.draws,
            end("withdrawal"),
            end("surrender"),
            end("objective"),
            end("time_limit")
        );
        let a = self.assaults;
        let _ = writeln!(
            s,
            "Assaults: {} tried, {} won by the attackers, {} won by the defenders.\n",
            a.tried, a.won, a.lost
        );
    }

    fn rules_md(&self, s: &mut String) {
        let _ = writeln!(s, "## Sections of both books\n");
        let _ = writeln!(
            s,
            "Each section of `docs/rules-coverage.md` (some split in parts) that a battle's log can show.\n"
        );
        let _ = writeln!(s, "| Book | Section | Events | Changed state | Outcomes | Status | Shown by |");
        let _ = writeln!(s, "|---|---|---:|---:|---:|---|---|");
        let mut never = Vec::new();
        let (mut no_event, mut two_player) = (Vec::new(), Vec::new());
        for (rule, c) in RULES.iter().zip(&self.rules) {
            let by = match rule.trace {
                Trace::Shown(by) => by,
                Trace::NoEvent => {
                    no_event.push(rule);
                    continue;
                }
                Trace::TwoPlayer => {
                    two_player.push(rule);
                    continue;
                }
            };
            if c.status() == Status::NeverPlayed {
                never.push(rule);
            }
            let shown: Vec<String> = by.iter().map(Shown::describe).collect();
            let name = match rule.part {
                Some(p) => format!("{p} ({})", rule.row),
                None => rule.row.to_owned(),
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} |",
                rule.book.abbrev(),
                cell(&name),
                c.events,
                c.changed,
                c.outcomes.len(),
                c.status().words(),
                cell(&shown.join("; "))
            );
        }
        let list = |s: &mut String, title: &str, rules: &[&Rule]| {
            let _ = writeln!(s, "\n**{title}** ({}):\n", rules.len());
            for r in rules {
                let _ = writeln!(s, "- {} {}", r.book.abbrev(), r.name());
            }
        };
        list(s, "Never played", &never);
        list(s, "No event of its own (the log cannot show it)", &no_event);
        list(s, "2-player only (this report plays solo)", &two_player);
        s.push('\n');
    }

    fn charts_md(&self, s: &mut String) {
        let _ = writeln!(s, "## Momentum Test Chart rows\n");
        let _ = writeln!(
            s,
            "Every row of the three charts: the times it was on an element's CM tests when they were taken, and the \
             tests it made due (before reductions). Grey rows are states re-applied whenever tests fall due.\n"
        );
        let _ = writeln!(s, "| Chart | Row | Grey | Times | Tests |");
        let _ = writeln!(s, "|---|---|---|---:|---:|");
        for r in &self.charts {
            let _ = writeln!(
                s,
                "| {:?} | {:?} | {} | {} | {} |",
                r.chart,
                r.cause,
                if r.grey { "grey" } else { "" },
                r.times,
                r.tests
            );
        }
        s.push('\n');
    }

    fn modifiers_md(&self, s: &mut String) {
        let _ = writeln!(s, "## Hit modifiers in volleys\n");
        let volleys = self.logged(Book::HeroesAll, "How to fire weapons").map_or(0, |l| l.counted.events);
        let _ = writeln!(s, "{volleys} volleys over open sights.\n");
        let _ = writeln!(s, "| Modifier | Volleys |");
        let _ = writeln!(s, "|---|---:|");
        for (m, n) in &self.modifiers {
            let _ = writeln!(s, "| {m} | {n} |");
        }
        s.push('\n');
    }

    fn commands_md(&self, s: &mut String) {
        let _ = writeln!(s, "## The Auto side's commands\n");
        let _ = writeln!(s, "| Command | Accepted | Refused |");
        let _ = writeln!(s, "|---|---:|---:|");
        for (c, (yes, no)) in &self.commands {
            let _ = writeln!(s, "| {c} | {yes} | {no} |");
        }
        s.push('\n');
    }

    fn logged_md(&self, s: &mut String) {
        let _ = writeln!(s, "## Sections as the log names them\n");
        let _ = writeln!(s, "| Book | Section | Kinds | Events | Changed state | Outcomes | Changes credited |");
        let _ = writeln!(s, "|---|---|---|---:|---:|---:|---|");
        for ((book, section), l) in &self.logged {
            let mut changes: Vec<(&String, &u32)> = l.changes.iter().collect();
            changes.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let changes: Vec<String> = changes.iter().map(|(c, n)| format!("{c} {n}")).collect();
            let _ = writeln!(
                s,
                "| {book} | {} | {} | {} | {} | {} | {} |",
                cell(section),
                l.kinds.iter().cloned().collect::<Vec<_>>().join(", "),
                l.counted.events,
                l.counted.changed,
                l.counted.outcomes.len(),
                cell(&changes.join(", "))
            );
        }
        let unclaimed = self.unclaimed();
        if !unclaimed.is_empty() {
            let _ = writeln!(s, "\nLogged sections that no section of `docs/rules-coverage.md` is shown by:\n");
            for (book, section) in unclaimed {
                let _ = writeln!(s, "- {book} \"{section}\"");
            }
        }
        let _ = writeln!(s, "\nChanges applied with no event's step going (credited to no event):\n");
        if self.uncredited.is_empty() {
            let _ = writeln!(s, "None.");
        }
        for (kind, n) in &self.uncredited {
            let _ = writeln!(s, "- {kind}: {n}");
        }
    }
}

fn percent(n: u32, of: u32) -> f64 {
    if of == 0 { 0.0 } else { f64::from(n) * 100.0 / f64::from(of) }
}

/// Text safe in a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use warbound_rules::event::RuleRef;

    use super::*;

    fn event(kind: EventKind, book: Book, section: &str) -> RuleEvent {
        RuleEvent::new(kind, RuleRef::new(book, section))
    }

    fn observation(seen: bool) -> RuleEvent {
        event(EventKind::Observation, Book::HeroesAll, "Observation")
            .input("observer", ("figure", 10), "")
            .input("segments", 4, "the score needed")
            .outcome(json!({ "seen": seen, "sight": { "test": { "needed": 4 } } }))
    }

    /// Counts `events` as one battle's log: the first `setup` logged while it
    /// was set up, each later one credited with the changes given with it.
    fn counted(setup: usize, events: Vec<(RuleEvent, &[&str])>) -> RulesReport {
        let mut tally = Tally::default();
        tally.credited = events[setup..].iter().map(|(_, c)| c.iter().map(|s| s.to_string()).collect()).collect();
        let log: Vec<Entry> = events.into_iter().map(|(event, _)| Entry { bound: 3, event }).collect();
        let mut report = RulesReport::new(1);
        report.add_log(&log, setup, &tally);
        report
    }

    #[test]
    fn a_section_counts_only_the_events_that_changed_state() {
        let rating = event(EventKind::Rating, Book::FightYourOwnBattles, "Rating NCOs and Officers")
            .input("rank", "Nco", "")
            .outcome(json!({ "grade": "Regular" }));
        let refused = event(EventKind::Command, Book::FightYourOwnBattles, "Continuous Momentum")
            .input("command", json!({ "move": { "element": "a" } }), "the Auto side's choice")
            .outcome(json!({ "accepted": false, "reason": "its CMS forbids it" }));
        let assault =
            event(EventKind::Assault, Book::HeroesAll, "Close assaults (into buildings or defensive positions)")
                .outcome(json!({ "entering": 7 }));
        let report = counted(
            1,
            vec![
                (rating, &[]),
                (observation(true), &["Change::Knows", "Change::Observed"]),
                (observation(false), &[]),
                (refused, &[]),
                (assault, &[]),
            ],
        );
        let seen = report.logged(Book::HeroesAll, "Observation").unwrap();
        assert_eq!((seen.counted.events, seen.counted.changed), (2, 1));
        assert_eq!(seen.counted.outcomes.len(), 2, "seen and not seen");
        assert_eq!(seen.counted.status(), Status::Played);
        assert_eq!(seen.changes.get("Change::Knows"), Some(&1));
        // The same, through the coverage row it shows.
        let row = report.rule(Book::HeroesAll, "Observers and targets").unwrap();
        assert_eq!((row.events, row.changed, row.status()), (2, 1, Status::Played));
        // Logged while the battle is set up: it decided the state it starts in.
        let rating = report.rule(Book::FightYourOwnBattles, "Rating NCOs and Officers").unwrap();
        assert_eq!((rating.events, rating.changed, rating.status()), (1, 1, Status::OneOutcome));
        // A refused command names the rule that refused it and changes nothing.
        let refusing = report.logged(Book::FightYourOwnBattles, "Continuous Momentum").unwrap();
        assert_eq!((refusing.counted.changed, refusing.counted.status()), (0, Status::NoChange));
        assert_eq!(report.commands.get("move"), Some(&(0, 1)));
        // An assault logged with nothing changed is not played, nor tried.
        let assault = report.rule(Book::HeroesAll, "Assaults on buildings/defensive positions").unwrap();
        assert_eq!((assault.events, assault.changed, assault.status()), (1, 0, Status::NoChange));
        assert_eq!(report.assaults, Assaults::default());
        assert_eq!(report.rule(Book::HeroesAll, "Coming up short").unwrap().status(), Status::NeverPlayed);
    }

    /// The rows that read an input's value read it as the events write it
    /// (the rules' enums in snake_case), and tell one value from another.
    #[test]
    fn rows_read_input_values_as_the_events_write_them() {
        use warbound_rules::{effects::HeTarget, explosives::ChargeKind};
        let shown = |row: &str| match RULES.iter().find(|r| r.name() == row).expect(row).trace {
            Trace::Shown(by) => by,
            _ => panic!("{row} is shown by no event"),
        };
        let plays = |row: &str, e: &RuleEvent| shown(row).iter().any(|s| s.matches(e, &e.outcome.to_string()));
        let he = |target: HeTarget| {
            event(EventKind::HeEffect, Book::HeroesAll, "HE Effects Table").input("target", target, "")
        };
        let charge =
            |kind: ChargeKind| event(EventKind::Explosives, Book::HeroesAll, "Explosives").input("charge", kind, "");
        for (row, e) in [
            ("Bangalore Torpedoes", charge(ChargeKind::Bangalore)),
            ("Small and large charges", charge(ChargeKind::Small)),
            ("Small and large charges", charge(ChargeKind::Large)),
            ("HE/mortar fire on artillery/CSWs", he(HeTarget::Gun { crew: 3 })),
            ("HE/mortar fire on open-topped AFVs (and closed AFVs)", he(HeTarget::OpenTopped { crew: 3 })),
            ("HE/mortar fire on open-topped AFVs (and closed AFVs)", he(HeTarget::Closed { calibre_150_plus: false })),
            ("Effects of hits: infantry/CSWs", he(HeTarget::Infantry { figures: 5 })),
        ] {
            assert!(plays(row, &e), "{row} does not read {:?}", e.inputs);
        }
        assert!(!plays("Bangalore Torpedoes", &charge(ChargeKind::Small)));
        assert!(!plays("HE/mortar fire on artillery/CSWs", &he(HeTarget::Infantry { figures: 5 })));
    }

    #[test]
    fn one_outcome_is_not_enough_where_the_rule_has_several() {
        let report = counted(0, vec![(observation(true), &["Change::Knows"]), (observation(true), &["Change::Knows"])]);
        let seen = report.logged(Book::HeroesAll, "Observation").unwrap();
        assert_eq!((seen.counted.changed, seen.counted.status()), (2, Status::OneOutcome));
    }

    #[test]
    fn an_assault_is_tried_once_and_won_or_lost_as_its_winner_is_named() {
        let fight = |actor: &str, target: &str, outcome: Value| {
            event(EventKind::Assault, Book::HeroesAll, "Assaults: 1-on-1 attacks")
                .actor(actor)
                .target(target)
                .outcome(outcome)
        };
        let report = counted(
            0,
            vec![
                (fight("a", "b", json!({ "continues": true })), &["Change::LoseMen"]),
                (fight("a", "b", json!({ "winner": "attacker" })), &["Change::Leave"]),
                (fight("c", "d", json!({ "winner": "defender" })), &["Change::LoseMen"]),
                (fight("e", "f", json!({ "winner": "attacker" })), &[]),
                (fight("g", "h", json!({ "grenades": true })), &["Change::LoseMen"]),
                // The defenders h retire from g on their own card: g won.
                (fight("h", "g", json!({ "winner": "attacker", "defending": true })), &["Change::Move"]),
            ],
        );
        assert_eq!(report.assaults, Assaults { tried: 3, won: 2, lost: 1 });
    }

    #[test]
    fn cm_tests_fill_the_rows_of_their_chart() {
        let tests = event(EventKind::CmTests, Book::FightYourOwnBattles, "Continuous Momentum")
            .input("element_type", ElementType::Infantry, "")
            .input("quality", Quality::Regular, "")
            .input("accrued", json!({ "events": [["CasualtyInOpen", 2]], "states": ["Under50PercentStrength"] }), "")
            .outcome(json!({ "failures": 3 }));
        let report = counted(0, vec![(tests, &["Change::Tested"])]);
        let row = |chart, cause| report.charts.iter().find(|r| r.chart == chart && r.cause == cause).unwrap();
        // FYOB Momentum Test Chart, Regular: 15 a casualty in the open, 12 under 50%.
        let open = row(ElementType::Infantry, CmCause::CasualtyInOpen);
        assert_eq!((open.times, open.tests), (2, 30));
        let under = row(ElementType::Infantry, CmCause::Under50PercentStrength);
        assert_eq!((under.times, under.tests, under.grey), (1, 12, true));
        assert_eq!(row(ElementType::Afv, CmCause::AtFire).times, 0);
    }

    #[test]
    fn shapes_tell_outcomes_apart_by_names_flags_and_signs() {
        assert_eq!(shape(&json!({ "hits": 0 })), "{hits: 0}");
        assert_eq!(shape(&json!({ "hits": 3 })), shape(&json!({ "hits": 5 })));
        assert_ne!(shape(&json!({ "seen": true })), shape(&json!({ "seen": false })));
        assert_ne!(shape(&json!({ "result": "NoAction" })), shape(&json!({ "result": "Acts" })));
        assert_eq!(shape(&json!({ "ashore": ["a", "b"] })), shape(&json!({ "ashore": ["c"] })));
        assert_ne!(shape(&json!({ "ashore": [] })), shape(&json!({ "ashore": ["c"] })));
    }

    #[test]
    fn the_command_line_reads_the_seeds() {
        let args = |a: &[&str]| seeds_from_args(a.iter().map(|s| s.to_string()));
        assert_eq!(args(&[]), Ok(DEFAULT_SEEDS));
        assert_eq!(args(&["--seeds", "20"]), Ok(20));
        assert!(args(&["--seeds"]).is_err());
        assert!(args(&["--seeds", "0"]).is_err());
        assert!(args(&["--seeds", "many"]).is_err());
        assert!(args(&["--battles", "3"]).is_err());
    }

    /// The non-"n/a" rows of `docs/rules-coverage.md` for HA and FYOB.
    fn coverage_rows() -> Vec<(Book, String)> {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rules-coverage.md"))
            .expect("docs/rules-coverage.md");
        let mut book = None;
        let mut rows = Vec::new();
        for line in doc.lines() {
            if let Some(title) = line.strip_prefix("## ") {
                book = match title {
                    "Heroes All" => Some(Book::HeroesAll),
                    "Fight Your Own Battles" => Some(Book::FightYourOwnBattles),
                    _ => None,
                };
                continue;
            }
            let Some(book) = book else { continue };
            let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
            if !line.starts_with("| ") || cells.len() < 3 || cells[0] == "Section" || cells[1].starts_with("n/a") {
                continue;
            }
            rows.push((book, cells[0].to_owned()));
        }
        rows
    }

    #[test]
    fn the_not_reached_list_is_read_with_its_reasons_and_checked_both_ways() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rules-coverage.md"))
            .expect("docs/rules-coverage.md");
        let listed = not_reached(&doc).expect("the list reads");
        assert!(!listed.is_empty());
        for (book, name, why) in &listed {
            assert!(RULES.iter().any(|r| r.book.abbrev() == book && r.name() == name), "{book} \"{name}\"");
            assert!(!why.is_empty());
        }
        let bare = "## Not reached by the shipped battles\n\n| Book | Section | Reason |\n|---|---|---|\n| HA | Snipers |  |\n";
        assert!(not_reached(bare).unwrap_err().starts_with("line 5:"), "a row without a reason, by its line");
        assert!(not_reached("# Rules coverage\n").is_err(), "no list");

        let report = RulesReport::new(20);
        let all: Vec<(String, String, String)> = RULES
            .iter()
            .filter(|r| matches!(r.trace, Trace::Shown(_)))
            .map(|r| (r.book.abbrev().to_owned(), r.name().to_owned(), "why".to_owned()))
            .collect();
        let first = RULES.iter().position(|r| matches!(r.trace, Trace::Shown(_))).unwrap();
        assert!(report.check_reached(&all).is_empty(), "nothing played, everything listed");
        let problems = report.check_reached(&all[1..]);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains(RULES[first].name()) && problems[0].contains("reached"), "{}", problems[0]);
        let mut played = report.clone();
        played.rules[first].events = 3;
        let problems = played.check_reached(&all);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("take it off the list"), "{}", problems[0]);
        let mut bogus = all.clone();
        bogus.push(("HA".into(), "No such section".into(), "why".into()));
        assert_eq!(report.check_reached(&bogus).len(), 1, "a listed section the report lacks");
    }

    #[test]
    fn every_row_of_the_coverage_doc_is_followed_and_no_other() {
        let rows = coverage_rows();
        assert!(rows.len() > 100, "the doc's rows are read: {}", rows.len());
        for (book, row) in &rows {
            assert!(RULES.iter().any(|r| r.book == *book && r.row == row), "{book:?} \"{row}\" is not in RULES");
        }
        for r in RULES {
            assert!(rows.iter().any(|(b, row)| *b == r.book && row == r.row), "{:?} \"{}\" is no row", r.book, r.row);
        }
        let names: BTreeSet<(String, &str)> = RULES.iter().map(|r| (r.book.abbrev().to_owned(), r.name())).collect();
        assert_eq!(names.len(), RULES.len(), "each section once");
    }

    /// Seeds 1–3 of every shipped battle, played and counted.
    #[test]
    fn a_three_seed_report_names_what_todays_battles_play() {
        let codex = crate::shipped::codex().unwrap();
        let battles = crate::shipped::battles(&codex).unwrap();
        let report = rules_report(&codex, &battles, 3);
        assert_eq!(report.failures, Vec::<String>::new());
        assert_eq!(report.battles.iter().map(|b| b.ended).sum::<u32>(), 3 * battles.len() as u32);
        let status = |book, name| report.rule(book, name).unwrap_or_else(|| panic!("{name}")).status();
        for name in ["How to fire small arms", "Observation Test / Segments", "How to move / Movement Table"] {
            assert_eq!(status(Book::HeroesAll, name), Status::Played, "{name}");
        }
        for name in [
            "Officer Reaction Tests (incl. Seize Initiative)",
            "Order Dice (Fire/Move/Act, the acts)",
            "Continuous Momentum: element types, charts, reductions",
            "Results of Momentum Tests",
            "Strategic Conditions; CMT",
        ] {
            assert_eq!(status(Book::FightYourOwnBattles, name), Status::Played, "{name}");
        }
        // Lutain Wood's one sniper is concealed and fires no shot (assaults on
        // buildings come on later seeds: `--check` holds them over 20).
        assert_eq!(status(Book::HeroesAll, "Snipers"), Status::NeverPlayed);
        // FYOB "How to conceal an element": thrown for each concealed element at the start.
        assert_eq!(status(Book::FightYourOwnBattles, "Concealed elements: what, how (5+)"), Status::Played);
        let succession = status(Book::FightYourOwnBattles, "Company Officer as a casualty: succession");
        assert_ne!(succession, Status::NeverPlayed, "a lost CO is succeeded");
        let a = &report.assaults;
        assert!(a.tried > 0 && a.won + a.lost <= a.tried, "{a:?}");
        // The tests a volley's target accrues are its Momentum Test Chart
        // event's doing, not the volley's; a rally that fails changes nothing.
        let chart = report.logged(Book::FightYourOwnBattles, "Momentum Test Chart").unwrap();
        assert!(chart.counted.changed > 0 && chart.changes.contains_key("Change::Accrue"), "{chart:?}");
        let volley = report.logged(Book::HeroesAll, "How to fire weapons").unwrap();
        assert!(!volley.changes.contains_key("Change::Accrue"), "{volley:?}");
        let rally = report.logged(Book::FightYourOwnBattles, "Rallying up the Continuous Momentum score of an element");
        assert!(rally.is_none_or(|r| r.changes.keys().all(|c| c == "Change::Cms")), "{rally:?}");
        let casualties =
            report.charts.iter().find(|r| r.chart == ElementType::Infantry && r.cause == CmCause::CasualtyInOpen);
        assert!(casualties.is_some_and(|r| r.times > 0 && r.tests > 0));
        assert_eq!(report.unclaimed(), Vec::<&(String, String)>::new(), "every logged section is followed");
        let md = report.markdown();
        assert!(md.contains("| HA | Snipers | 0 | 0 | 0 | **never played** |"), "{md}");
        let line =
            format!("Assaults: {} tried, {} won by the attackers, {} won by the defenders.", a.tried, a.won, a.lost);
        assert!(md.contains(&line), "{md}");
    }
}
