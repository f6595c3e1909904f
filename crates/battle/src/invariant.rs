//! Invariant failures: a rule step that could not resolve (a rule refused
//! the state it was given, a CODEX entry missing, an element the deck names
//! gone). Such a failure never vanishes: it is kept in [`InvariantFailures`],
//! written to the battle log as an `invariant_failure` event, shown to the
//! player by the game, and fatal in the tests and the soak.

use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::{log::BattleLog, prelude::*};

/// One failure: where in the flow, whose step, what went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvariantFailure {
    pub bound: u32,
    /// The flow step that could not resolve (`take_turn`, `deal`, …).
    pub step: &'static str,
    /// The element or officer whose step it was.
    pub actor: String,
    pub what: String,
}

impl std::fmt::Display for InvariantFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bound {}: {} of {}: {}", self.bound, self.step, self.actor, self.what)
    }
}

/// Every invariant failure of the battle so far (none in a sound battle).
#[derive(Resource, Debug, Default, Clone)]
pub struct InvariantFailures(pub Vec<InvariantFailure>);

impl InvariantFailures {
    /// Keeps the failure, logs it as an event and reports it.
    pub fn record(&mut self, log: &mut BattleLog, bound: u32, step: &'static str, actor: &str, what: String) {
        error!("invariant failure: bound {bound}: {step} of {actor}: {what}");
        let event =
            RuleEvent::new(EventKind::InvariantFailure, RuleRef::new(Book::FightYourOwnBattles, "The game flow"))
                .actor(actor)
                .input("step", step, "")
                .outcome(&what);
        log.push(bound, event);
        self.0.push(InvariantFailure { bound, step, actor: actor.to_owned(), what });
    }
}
