//! Commands: the choices a side makes when one of its elements acts, as
//! plain serialisable values. A command that breaks a rule is refused with the
//! rule that forbids it and changes nothing.

use std::collections::VecDeque;

use crate::prelude::*;
use serde::{Deserialize, Serialize};
use warbound_rules::{
    event::{Book, EventKind, RuleEvent, RuleRef},
    order_dice::{self, Act, Phase, TurnPlan},
};

use super::{
    state::{ElementView, Turn},
    visible,
};

/// One choice for the element acting now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// Its Move phase: towards `to` (inches from the near-left corner), as far
    /// as the Movement Dice allow.
    Move { element: String, to: (f32, f32) },
    /// A Player's move, after the Movement Dice: stop at `to`, on the route
    /// declared and no further than the score allows.
    MoveTo { element: String, to: (f32, f32) },
    /// Its Fire phase, every firing team at `target`.
    Fire { element: String, target: String },
    /// Its Fire phase at an enemy squadron over the table (*Heroes All*,
    /// "Anti aircraft fire").
    FireAa { element: String, squadron: String },
    /// Its Act phase: an observation test on each target (at most 2).
    Observe { element: String, targets: Vec<String> },
    /// Ends its turn; phases not taken are forgone.
    EndTurn { element: String },
    /// An Act: fire one of its side's charges with the detonation pack.
    Detonate { element: String, charge: String },
    /// Both Acts: engineers in contact with an enemy charge find and remove it.
    Clear { element: String, charge: String },
    /// The whole turn: a bound's clearing of the minefield it is in contact
    /// with (*Heroes All*, "Mines": the clearers do nothing else this bound).
    ClearMines { element: String },
    /// The whole turn: a bound's work on the pontoon bridge at the bank
    /// (*Heroes All*, "Pontoon bridges": the builders do nothing else).
    Bridge { element: String },
    /// An Act: men on foot get into (or out of) the river at their bank,
    /// heading for `to` (*Heroes All*, "Rivers").
    Wade { element: String, to: (f32, f32) },
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
    /// Passes what the element has seen to the rest of its company.
    Communicate,
}

impl Command {
    pub fn element(&self) -> &str {
        match self {
            Command::Move { element, .. }
            | Command::MoveTo { element, .. }
            | Command::Fire { element, .. }
            | Command::FireAa { element, .. }
            | Command::Observe { element, .. }
            | Command::EndTurn { element }
            | Command::Detonate { element, .. }
            | Command::Clear { element, .. }
            | Command::ClearMines { element }
            | Command::Bridge { element }
            | Command::Wade { element, .. }
            | Command::Die { element, .. }
            | Command::Reroll { element, .. }
            | Command::Seize { element, .. } => element,
            Command::Command { company, .. } => company,
            Command::Pass { .. } | Command::Session { .. } => "",
        }
    }

    fn phase(&self) -> Option<Phase> {
        match self {
            Command::Move { .. } => Some(Phase::Move),
            Command::Fire { .. } | Command::FireAa { .. } => Some(Phase::Fire),
            Command::Observe { .. }
            | Command::Detonate { .. }
            | Command::Clear { .. }
            | Command::ClearMines { .. }
            | Command::Bridge { .. }
            | Command::Wade { .. } => Some(Phase::Act),
            _ => None,
        }
    }
}

/// Commands waiting to be carried out: the Player's, or the Auto side's next one.
#[derive(Resource, Debug, Default)]
pub struct Inbox(pub VecDeque<Command>);

/// The command the flow is carrying out now, checked against the rules.
#[derive(Resource, Debug, Default)]
pub struct Current(pub Option<Command>);

/// Every accepted Player command, in order: with the scenario and the seed,
/// the battle.
#[derive(Resource, Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandRecord(pub Vec<Command>);

pub(super) fn refusal(book: Book, section: &str, reason: impl Into<String>) -> Refusal {
    refuse(book, section, reason)
}

/// Why a command is refused.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub rule: RuleRef,
    pub reason: String,
}

fn refuse(book: Book, section: &str, reason: impl Into<String>) -> Refusal {
    Refusal { rule: RuleRef::new(book, section), reason: reason.into() }
}

/// The turn's phases so far plus the command's, as an Order Dice plan.
fn plan_with(turn: &Turn, phase: Phase, acts: usize) -> TurnPlan {
    let mut phases = turn.taken.clone();
    phases.push(phase);
    let mut plan_acts = turn.acts.clone();
    plan_acts.extend(std::iter::repeat_n(Act::Observe, acts));
    TurnPlan { phases, acts: plan_acts, at_the_double: false, overwatch: false, immobile: false }
}

/// Checks `cmd` for the element acting in `turn`, against its Order Die, its
/// CMS and tests, and what it can see. `els` are all elements.
pub fn check(
    cmd: &Command,
    turn: &Turn,
    els: &[ElementView],
    ctx: &visible::Sight<'_>,
    battle: &super::state::Battle,
    aircraft: &[(String, usize)],
) -> Result<(), Refusal> {
    let (charges, minefields) = (&battle.charges, &battle.minefields);
    let fyob = Book::FightYourOwnBattles;
    if cmd.element() != turn.element {
        return Err(refuse(fyob, "The game flow", format!("{} is not the element acting now", cmd.element())));
    }
    let Some(me) = els.iter().find(|e| e.id() == turn.element) else {
        return Err(refuse(fyob, "The game flow", "the acting element is not on the table"));
    };
    if matches!(cmd, Command::Die { .. } | Command::Reroll { .. } | Command::Pass { .. }) {
        return Err(refuse(fyob, "The game flow", "Command Dice belong to the 2-player game, not the solo flow"));
    }
    if matches!(cmd, Command::Command { .. } | Command::Session { .. } | Command::Seize { .. }) {
        return Err(refuse(fyob, "The game flow", "it is an element's turn, not an officer's"));
    }
    if let Some(pending) = turn.pending_move {
        let Command::MoveTo { to, .. } = cmd else {
            return Err(refuse(Book::HeroesAll, "Movement", "the Movement Dice are thrown: finish the move first"));
        };
        let from = me.place.at;
        let declared = warbound_rules::terrain::Point(pending.to.0, pending.to.1);
        let at = warbound_rules::terrain::Point(to.0, to.1);
        if !super::movement::within_move(from, declared, at, pending.allowance) {
            return Err(refuse(
                Book::HeroesAll,
                "Movement",
                format!(
                    "the score allows {:.1} inches along the declared route; ({:.1}, {:.1}) is {:.1} inches away or off the route",
                    pending.allowance,
                    to.0,
                    to.1,
                    warbound_rules::geometry::distance(from, at)
                ),
            ));
        }
        return Ok(());
    }
    if matches!(cmd, Command::MoveTo { .. }) {
        return Err(refuse(Book::HeroesAll, "Movement", "no Movement Dice have been thrown: declare the move first"));
    }
    let Some(phase) = cmd.phase() else { return Ok(()) };
    if turn.taken.contains(&phase) {
        return Err(refuse(fyob, "Order Dice", "an element can only undertake each phase once during the bound"));
    }
    let acts = match cmd {
        Command::Observe { targets, .. } => targets.len(),
        Command::Detonate { .. } | Command::Wade { .. } => 1,
        Command::Clear { .. } | Command::ClearMines { .. } | Command::Bridge { .. } => 2,
        _ => 0,
    };
    if let Err(e) = order_dice::check_turn(turn.orders.order, &plan_with(turn, phase, acts)) {
        return Err(refuse(fyob, "Order Dice", e.to_string()));
    }
    match cmd {
        Command::Move { to, .. } => {
            if !(to.0.is_finite() && to.1.is_finite() && ctx.scenario.table.contains(*to)) {
                return Err(refuse(Book::HeroesAll, "Movement", "the destination is off the table"));
            }
            if me.force.build == (super::state::Build::Guns { artillery: true }) && me.actions.this_bound.fired {
                return Err(refuse(Book::HeroesAll, "Weapons table notes", "an immobile gun cannot move and fire"));
            }
        }
        Command::Fire { target, .. } => {
            if !turn.orders.can_fire {
                return Err(refuse(fyob, "Continuous Momentum", "its CMS or this bound's CM tests forbid firing"));
            }
            let Some(t) = els
                .iter()
                .find(|e| e.id() == target && e.identity.side != me.identity.side && e.presence.status.on_table())
            else {
                return Err(refuse(
                    Book::HeroesAll,
                    "How to fire weapons",
                    format!("{target} is no enemy on the table"),
                ));
            };
            if !ctx.may_fire_at(me, t) {
                return Err(refuse(
                    Book::HeroesAll,
                    "How to fire weapons",
                    format!("{target} is not observed and is not an autospot: only observed targets can be fired at"),
                ));
            }
            if !ctx.in_range_of_any(me, t) {
                return Err(refuse(Book::HeroesAll, "Weapons table", format!("{target} is out of range")));
            }
        }
        Command::Observe { targets, .. } => {
            if !turn.orders.can_observe {
                return Err(refuse(fyob, "Continuous Momentum", "its CMS or this bound's CM tests forbid observing"));
            }
            if targets.is_empty() || targets.len() > order_dice::ACTS_PER_TURN {
                return Err(refuse(fyob, "Act", "an element undertakes any 2 acts: observe 1 or 2 targets"));
            }
            if targets.len() == 2 && targets[0] == targets[1] {
                return Err(refuse(
                    Book::HeroesAll,
                    "Observation",
                    "a whole element cannot use its 2 Acts to attempt to spot the same target twice",
                ));
            }
            for t in targets {
                if !els
                    .iter()
                    .any(|e| e.id() == t && e.identity.side != me.identity.side && e.presence.status.on_table())
                {
                    return Err(refuse(Book::HeroesAll, "Observation", format!("{t} is no enemy on the table")));
                }
            }
        }
        Command::FireAa { squadron, .. } => {
            if !turn.orders.can_fire {
                return Err(refuse(fyob, "Continuous Momentum", "its CMS or this bound's CM tests forbid firing"));
            }
            if super::air::aa_weapon(me).is_none() {
                return Err(refuse(Book::HeroesAll, "Anti aircraft fire", "it has no weapon that fires at aircraft"));
            }
            if !aircraft.iter().any(|(id, side)| id == squadron && *side != me.identity.side) {
                return Err(refuse(
                    Book::HeroesAll,
                    "Anti aircraft fire",
                    format!("{squadron} is no enemy squadron over the table"),
                ));
            }
        }
        Command::Detonate { charge, .. } => {
            let ok = charges
                .iter()
                .find(|d| &d.id == charge)
                .is_some_and(|d| super::demolition::may_detonate(me, d, ctx.terrain));
            if !ok {
                return Err(refuse(
                    Book::HeroesAll,
                    "Explosives",
                    format!(
                        "{charge} is not a charge of its side it can fire: within 12 inches, in sight, set for the detonation pack"
                    ),
                ));
            }
        }
        Command::Wade { to, .. } if !super::bridging::at_waterline(me, ctx.terrain, *to) => {
            return Err(refuse(
                Book::HeroesAll,
                "Rivers",
                "only men on foot at a river's edge get into or out of it, towards the water or the bank",
            ));
        }
        Command::Bridge { .. } => {
            if !turn.taken.is_empty() {
                return Err(refuse(Book::HeroesAll, "Pontoon bridges", "the builders do nothing else this bound"));
            }
            if super::bridging::site_at(me, &battle.pontoons).is_none() {
                return Err(refuse(
                    Book::HeroesAll,
                    "Pontoon bridges",
                    "no unbuilt bridging site of its Engineering order at the bank here",
                ));
            }
        }
        Command::ClearMines { .. } => {
            if !turn.taken.is_empty() {
                return Err(refuse(Book::HeroesAll, "Mines", "the clearers do nothing else this bound"));
            }
            if super::demolition::minefield_in_contact(me, ctx.terrain, minefields).is_none() {
                return Err(refuse(Book::HeroesAll, "Mines", "no uncleared minefield in contact"));
            }
        }
        Command::Clear { charge, .. }
            if !charges.iter().find(|d| &d.id == charge).is_some_and(|d| super::demolition::may_clear(me, d)) =>
        {
            return Err(refuse(Book::HeroesAll, "Explosives", format!("{charge} is no live enemy charge in contact")));
        }
        _ => {}
    }
    Ok(())
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
