//! Commands: the choices a side makes when one of its elements acts, as
//! plain serialisable values. A command that breaks a rule is refused with the
//! rule that forbids it and changes nothing.

use std::collections::VecDeque;

use crate::prelude::*;
use serde::{Deserialize, Serialize};
use warbound_rules::{
    event::{Book, EventKind, RuleEvent, RuleRef},
    explosives::ChargeKind,
    order_dice::Phase,
};

/// One choice for the element acting now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// Its Move phase: towards `to` (inches from the near-left corner), as far
    /// as the Movement Dice allow, at `pace`.
    Move {
        element: String,
        to: (f32, f32),
        #[serde(default, skip_serializing_if = "Pace::is_normal")]
        pace: Pace,
    },
    /// A Player's move, after the Movement Dice: stop at `to`, on the route
    /// declared and no further than the score allows.
    MoveTo { element: String, to: (f32, f32) },
    /// Its Fire phase, every firing team at `target`.
    Fire { element: String, target: String },
    /// An Act used to aim, then its Fire phase at `target` (FYOB "Act",
    /// (iv): "the firer must fire and then move"; *Heroes All*: +1 when
    /// firing AT/HE on an ACT order). The Act is taken in its Act phase, the
    /// first activity of an Act order, beside an observation already made.
    AimedFire { element: String, target: String },
    /// Its Fire phase: a smoke round from each of its guns and mortars that
    /// reach `at` and see it, until one hits (*Heroes All*, "Firing smoke").
    Smoke { element: String, at: (f32, f32) },
    /// Its Fire phase: an assault on `target` (*Heroes All*, "Assaults"),
    /// moving into contact first in its Move phase when it is not in contact.
    Assault { element: String, target: String },
    /// Its Fire phase: its petard mortar at the building `target` stands in
    /// (*Heroes All*, "Petard type mortars").
    Petard { element: String, target: String },
    /// An Act: a Goliath detonated at will against `target`, in contact
    /// (*Heroes All*, "Goliath"); the machine is destroyed by it.
    Goliath { element: String, target: String },
    /// Its Fire phase at an enemy squadron over the table (*Heroes All*,
    /// "Anti aircraft fire").
    FireAa { element: String, squadron: String },
    /// Its Act phase: an observation test on each target (at most 2).
    Observe { element: String, targets: Vec<ObserveTarget> },
    /// An Act: a concealed element extracts itself from its concealed
    /// position, declared real at `counter` (FYOB "Placement options": "A
    /// concealed element uses an Act to extract itself from a concealed
    /// position"); its first move then loses no pips.
    Extract { element: String, counter: u8 },
    /// An Act: check whether `enemy`, lost track of, has vacated the place
    /// it was last seen at (*Heroes All*, "Checking vacated positions").
    CheckVacated { element: String, enemy: String },
    /// An Act: set up its immobile weapons (`up`) or take them down
    /// (*Heroes All*, "Weapons table notes").
    SetUp { element: String, up: bool },
    /// An Act: its NCO sends a runner to his Company Officer, a Leadership
    /// Test; passed, the runner takes up what the element has seen and brings
    /// back what the CO knows and any order waiting for it (FYOB "Runners";
    /// *Heroes All* "Passing on information"). It may be the second Act of
    /// an Act phase just taken.
    Runner { element: String },
    /// An Act: a Radio Test nets in again its own set, knocked off the
    /// Company's net by a hit (FYOB "Order Dice", Act (vii): "re-net a radio
    /// after a HE/AT hit"; "Radios": "2 Radio tests are allowed per bound
    /// (each using 1 act)").
    Renet { element: String },
    /// An Act: a figure starts a fire in the building the element stands in,
    /// and it does nothing else this bound (*Heroes All*, "Setting fire to
    /// buildings").
    SetFire { element: String },
    /// Its men mend the damaged bridge they are in contact with, doing
    /// nothing else this bound (*Heroes All*, "Repairing roads and bridges").
    Repair { element: String },
    /// Its NCO takes a Leadership Test to re-face a posted guard towards
    /// `to` (*Heroes All*, "Guards"): no Act, once a bound.
    ReFace { element: String, to: warbound_rules::movement::Compass },
    /// Ends its turn; phases not taken are forgone.
    EndTurn { element: String },
    /// An Act: fire one of its side's charges with the detonation pack.
    Detonate { element: String, charge: String },
    /// Both Acts: engineers in contact with an enemy charge find and remove it.
    Clear { element: String, charge: String },
    /// The whole turn: set a small or large charge it carries on the bridge
    /// in contact, to go off after `delay` bounds (0: a large charge waits
    /// for the detonation pack, a small one goes off now) (*Heroes All*,
    /// "Explosives": "in contact with the target for 1 bound using both Acts
    /// ... without carrying out any other activity").
    SetCharge { element: String, kind: ChargeKind, delay: u8 },
    /// Both Acts: a Bangalore Torpedo it carries, pushed towards `toward`,
    /// blows a gap 1 figure wide in the wire or wall within 2" ahead.
    Bangalore { element: String, toward: (f32, f32) },
    /// The whole turn: a bound's clearing of the minefield it is in contact
    /// with (*Heroes All*, "Mines": the clearers do nothing else this bound).
    ClearMines { element: String },
    /// The whole turn: a bound's work on the pontoon bridge at the bank
    /// (*Heroes All*, "Pontoon bridges": the builders do nothing else).
    Bridge { element: String },
    /// An Act: men on foot get into (or out of) the river at their bank,
    /// heading for `to` (*Heroes All*, "Rivers").
    Wade { element: String, to: (f32, f32) },
    /// An Act: get into its river craft at the river's edge, heading for
    /// `to` (*Heroes All*, "Boats": "Getting into a boat is treated as an
    /// Act"); it gets out at the far bank as part of its move.
    Launch { element: String, to: (f32, f32) },
    /// An Act: get into `transport`, an empty transport of its side in
    /// contact (*Heroes All*, "Transport elements"; FYOB "Order Dice": "get
    /// into/out of a vehicle").
    Embark { element: String, transport: String },
    /// An Act: get out of the transport it rides in, beside it.
    Disembark { element: String },
    /// 2-player games: give Command Die number `die` (0-based, in the order
    /// thrown) to `element` for `action`, spending the 6s `sixes` to re-roll
    /// failed morale throws.
    Die { element: String, die: usize, action: DieAction, sixes: Vec<usize> },
    /// 2-player games: re-roll die `die`, the reward of an element that
    /// Seized the initiative.
    Reroll { element: String, die: usize },
    /// 2-player games: the player is done with his Command Dice this bound.
    Pass { player: usize },
    /// The NCO who Seized the Initiative swaps his OPC with a friendly
    /// element of his nation yet to act (it acts now; he acts later on its
    /// card without a new ORT), or, with `None`, acts as ordered now.
    Seize { element: String, swap_with: Option<String> },
    /// A Company Officer's command turn: new orders, then the elements he
    /// rallies, in the order nominated.
    Command { company: String, orders: Vec<ElementOrder>, rally: Vec<String> },
    /// The Senior Officer's session: the reserves he commits (one Leadership
    /// Test for all) and new objectives for his companies.
    Session {
        side: usize,
        commit: Vec<String>,
        objectives: Vec<CompanyOrder>,
        /// At Red: order a general withdrawal (the battle is lost).
        #[serde(default)]
        withdraw: bool,
    },
}

/// What an observation test is taken on: an element in the open, or a
/// concealed element's counter (FYOB "Placement options": "When an enemy
/// unit approaches a counter and successfully observes it").
///
/// An element is written as its bare id, as commands recorded before
/// counters could be observed name their targets, so those saves still load.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ObserveTarget {
    Element(String),
    /// Counter number `counter` of the concealed `element`.
    Counter {
        element: String,
        counter: u8,
    },
}

impl ObserveTarget {
    /// The element observed, or whose counter is.
    pub fn element(&self) -> &str {
        match self {
            ObserveTarget::Element(id) | ObserveTarget::Counter { element: id, .. } => id,
        }
    }
}

/// How an element moves in its Move phase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    /// The Movement Table's dice (half of them on Overwatch).
    #[default]
    Normal,
    /// *Heroes All*, "Movement": infantry or mounted cavalry "may use their 2
    /// actions and their fire phase to make an \"at the double\" move. No
    /// other actions or firing may be undertaken during such a move. The
    /// element may move up to twice the distance shown on the D6 throw."
    AtTheDouble,
    /// *Heroes All*, "Movement": "Instead of a \"normal\" move, an
    /// **infantry** element may make a \"stealth\" move of up to 1D6 inches
    /// (2D6 inches for elite) on either a road or cross-country **only**";
    /// observers gain no segment for its having moved ("Observation").
    Stealth,
}

impl Pace {
    pub fn is_normal(&self) -> bool {
        *self == Pace::Normal
    }
}

/// An order for one element (FYOB "Orders & Objectives").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElementOrder {
    pub element: String,
    pub order: warbound_rules::scenario::Order,
}

/// An objective for one company.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompanyOrder {
    pub company: String,
    pub order: warbound_rules::scenario::Order,
}

/// What a Command Die is used for (*Heroes All*: 1 fire, 2 move, 3 observe,
/// 4 an Act, 5 communicate; 6 any of them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DieAction {
    Fire {
        target: String,
    },
    Move {
        to: (f32, f32),
    },
    Observe {
        target: String,
    },
    /// An Act: out of a concealed position (the others are not yet modelled).
    Act,
    /// A "4": onto (`on`) or out of an Overwatch position (*Heroes All*,
    /// "Overwatch": "a player may allocate a '4' Command Die to an element to
    /// place it onto (or remove it from) an Overwatch position").
    Overwatch {
        on: bool,
    },
    /// A "4": a posted guard re-faced towards `to` (*Heroes All*, "Guards":
    /// "A guard can be re-faced during the game by ... using a \"4\" Command
    /// Dice").
    ReFace {
        to: warbound_rules::movement::Compass,
    },
    /// Passes what the element has seen to the rest of its company.
    Communicate,
    /// Any command the solo flow accepts for the element, given by the die
    /// its phase calls for (*Heroes All*, "Command and Control for 2-Player
    /// games"): aimed fire, smoke, an assault, a petard or AA fire by a 1; a
    /// move at the double or by stealth by a 2; checking a vacated position
    /// by a 3; any Act by a 4 (extract, set up or take down, wade, detonate
    /// or lift a charge, clear mines, bridge, re-net a radio, a Goliath); a 6
    /// any of them. It is checked and carried out by the solo flow's rule
    /// steps.
    Solo {
        command: Box<Command>,
    },
    /// A "4" given to a FOO (`element` names him): his Acts — net in his
    /// radio, nominate or switch an Artillery Target, observe a new one
    /// ("Artillery with a FOO get 1 Command Die not 2").
    Foo,
    /// A "1" given to a FOO: the batteries he controls fire on his active
    /// Artillery Target.
    Battery,
    /// A "1" given to a squadron over the battle (`element` names it): its
    /// machines come down, acquire a ground target and attack it.
    Aircraft,
}

impl Command {
    pub fn element(&self) -> &str {
        match self {
            Command::Move { element, .. }
            | Command::MoveTo { element, .. }
            | Command::Fire { element, .. }
            | Command::AimedFire { element, .. }
            | Command::Smoke { element, .. }
            | Command::FireAa { element, .. }
            | Command::Assault { element, .. }
            | Command::Petard { element, .. }
            | Command::Goliath { element, .. }
            | Command::Observe { element, .. }
            | Command::Extract { element, .. }
            | Command::CheckVacated { element, .. }
            | Command::Runner { element }
            | Command::Renet { element }
            | Command::SetFire { element }
            | Command::Repair { element }
            | Command::ReFace { element, .. }
            | Command::SetUp { element, .. }
            | Command::EndTurn { element }
            | Command::Detonate { element, .. }
            | Command::Clear { element, .. }
            | Command::SetCharge { element, .. }
            | Command::Bangalore { element, .. }
            | Command::ClearMines { element }
            | Command::Bridge { element }
            | Command::Wade { element, .. }
            | Command::Launch { element, .. }
            | Command::Embark { element, .. }
            | Command::Disembark { element }
            | Command::Die { element, .. }
            | Command::Reroll { element, .. }
            | Command::Seize { element, .. } => element,
            Command::Command { company, .. } => company,
            Command::Pass { .. } | Command::Session { .. } => "",
        }
    }

    pub(super) fn phase(&self) -> Option<Phase> {
        match self {
            Command::Move { .. } => Some(Phase::Move),
            Command::Fire { .. }
            | Command::AimedFire { .. }
            | Command::Smoke { .. }
            | Command::FireAa { .. }
            | Command::Petard { .. }
            | Command::Assault { .. } => Some(Phase::Fire),
            Command::Observe { .. }
            | Command::Extract { .. }
            | Command::CheckVacated { .. }
            | Command::Runner { .. }
            | Command::Renet { .. }
            | Command::SetFire { .. }
            | Command::Repair { .. }
            | Command::SetUp { .. }
            | Command::Detonate { .. }
            | Command::Goliath { .. }
            | Command::Clear { .. }
            | Command::SetCharge { .. }
            | Command::Bangalore { .. }
            | Command::ClearMines { .. }
            | Command::Bridge { .. }
            | Command::Wade { .. }
            | Command::Launch { .. }
            | Command::Embark { .. }
            | Command::Disembark { .. } => Some(Phase::Act),
            _ => None,
        }
    }
}

/// Commands waiting to be carried out: the Player's, or the Auto side's next one.
#[derive(Resource, Debug, Default)]
pub struct Inbox(pub VecDeque<Command>);

/// The Auto side's next command with the rules' answer, taken in the very
/// state the dispatch step would check it in: dispatch takes this answer
/// rather than draw up every element again to ask.
#[derive(Resource, Debug, Default)]
pub struct AutoChecked(pub Option<(Command, Result<(), Refusal>)>);

/// The command the flow is carrying out now, checked against the rules.
#[derive(Resource, Debug, Default)]
pub struct Current(pub Option<Command>);

/// Every accepted Player command, in order: with the scenario and the seed,
/// the battle.
#[derive(Resource, Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandRecord(pub Vec<Command>);

/// A refusal under `book`'s `section`, for `reason`.
pub(super) fn refusal(book: Book, section: &str, reason: impl Into<String>) -> Refusal {
    Refusal { rule: RuleRef::new(book, section), reason: reason.into() }
}

/// Why a command is refused.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub rule: RuleRef,
    pub reason: String,
}

/// The event recording a command, accepted or refused.
pub fn event(cmd: &Command, auto: bool, refusal: Option<&Refusal>) -> RuleEvent {
    let rule = refusal.map_or_else(|| RuleRef::new(Book::FightYourOwnBattles, "The game flow"), |r| r.rule.clone());
    let actor = match cmd {
        Command::Pass { player } => format!("player {player}"),
        Command::Session { side, .. } => format!("side {side}"),
        other => other.element().to_owned(),
    };
    let e = RuleEvent::new(EventKind::Command, rule).actor(actor).input(
        "command",
        cmd,
        if auto { "the Auto side's choice" } else { "the player's choice" },
    );
    match refusal {
        None => e.outcome(serde_json::json!({ "accepted": true })),
        Some(r) => e.outcome(serde_json::json!({ "accepted": false, "reason": r.reason })),
    }
}
