//! Rule events: the trace every rule step leaves, and the battle log's lines.
//!
//! A rule step returns its outcome together with a [`RuleEvent`] that names
//! the rule (book and section), its inputs (each with the reason it applies),
//! the dice thrown and the outcome. The battle log is these events, one JSON
//! object per line (schema in `docs/battle-log.md`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dice::Thrown;

/// The rulebooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Book {
    /// *Heroes All*.
    HeroesAll,
    /// *Fight Your Own Battles*.
    FightYourOwnBattles,
    /// *Fight Your Own Wars*.
    FightYourOwnWars,
    /// *OP COM*.
    OpCom,
    /// The battle-setup procedure.
    BattleSetup,
}

impl Book {
    /// The book's short name, as the rules are cited in play: "HA", "FYOB".
    pub fn abbrev(self) -> &'static str {
        match self {
            Book::HeroesAll => "HA",
            Book::FightYourOwnBattles => "FYOB",
            Book::FightYourOwnWars => "FYOW",
            Book::OpCom => "OP COM",
            Book::BattleSetup => "Setup",
        }
    }
}

/// Book and section of a rule, e.g. FYOB "Officer Reaction Test".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleRef {
    pub book: Book,
    pub section: String,
}

impl RuleRef {
    pub fn new(book: Book, section: impl Into<String>) -> Self {
        Self { book, section: section.into() }
    }
}

/// What kind of step an event records; serialised in snake_case (`cm_tests`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    Rating,
    LeadershipTest,
    OfficerCasualty,
    OpcDeal,
    Ort,
    CmTests,
    OrderDie,
    Movement,
    Observation,
    Fire,
    AtEffect,
    HeEffect,
    Rally,
    StrategicMilestone,
    RadioTest,
    Concealment,
    CommandDice,
    Morale,
    Landing,
    Minefield,
    Engineering,
    Explosives,
    Assault,
    /// The battle flow: a bound begins (clock, light).
    Bound,
    /// An element moves onto the table from the box.
    Arrival,
    /// Casualties, damage and CM tests accrued by a target.
    Casualties,
    /// An element leaves the table: retired to the box, surrendered, destroyed.
    Leaves,
    /// A player's or the Auto side's command, accepted or rejected with the rule.
    Command,
    /// The battle ends: who won and why.
    BattleEnd,
    /// A rule step that could not resolve: the battle's state or a command
    /// broke an invariant (never expected; a test or the soak fails on it).
    InvariantFailure,
    // Fight Your Own Wars: the campaign between battles (docs/campaign-log.md).
    /// The calendar moves on: session, day, week, month, season; diary dates.
    Calendar,
    /// A battlegroup or fraction is formed, merged, split or changes composition.
    Battlegroup,
    /// A commander's competency, traits, command decision or order.
    CommandDecision,
    /// Strategic condition of a battlegroup, Strategic Morale of a force.
    StrategicMorale,
    /// A move across a Map Board link, traffic, order of march.
    MapMovement,
    /// A detection throw or information gathered.
    Detection,
    /// Supply, stockpiles, rationing, replenishment, repairs, loading.
    Supply,
    /// The day's weather: temperature, wind, rain, snow, sand, moon, flying.
    Weather,
    /// Aircraft at campaign level: missions, damage, Air Command.
    AirOperation,
    /// Boats and fleets at campaign level.
    Naval,
    /// Trains, railway bridges and railway guns.
    Train,
    /// Work and tasks over sessions.
    Work,
    /// A chance card drawn or a diary-box event.
    Chance,
    /// A paper battle by the Dunnigan rules.
    PaperBattle,
    /// Partisan cells, their activity and the sweeps against them.
    Partisans,
}

/// One named input to a rule, with why it has that value
/// (a modifier, a segment crossed, a count).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Input {
    pub name: String,
    pub value: Value,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
}

/// The trace of one rule step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleEvent {
    pub kind: EventKind,
    pub rule: RuleRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// The side the actor fights for, by its name (a battle's log names it
    /// for every actor it knows; two Senior Officers are told apart by it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    pub inputs: Vec<Input>,
    pub dice: Vec<Thrown>,
    pub outcome: Value,
}

impl RuleEvent {
    pub fn new(kind: EventKind, rule: RuleRef) -> Self {
        Self {
            kind,
            rule,
            actor: None,
            side: None,
            target: None,
            inputs: Vec::new(),
            dice: Vec::new(),
            outcome: Value::Null,
        }
    }

    pub fn actor(mut self, id: impl Into<String>) -> Self {
        self.actor = Some(id.into());
        self
    }

    /// Names the side the actor fights for.
    pub fn side(mut self, name: impl Into<String>) -> Self {
        self.side = Some(name.into());
        self
    }

    pub fn target(mut self, id: impl Into<String>) -> Self {
        self.target = Some(id.into());
        self
    }

    /// Adds an input with the reason it applies (empty when self-evident).
    pub fn input(mut self, name: impl Into<String>, value: impl Serialize, reason: impl Into<String>) -> Self {
        self.inputs.push(Input { name: name.into(), value: to_value(value), reason: reason.into() });
        self
    }

    /// Records dice of `sides` faces showing `faces`.
    pub fn dice(mut self, sides: u8, faces: &[u8]) -> Self {
        self.dice.extend(faces.iter().map(|&face| Thrown { sides, face }));
        self
    }

    pub fn outcome(mut self, outcome: impl Serialize) -> Self {
        self.outcome = to_value(outcome);
        self
    }

    /// The event as one line of the battle log (no newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("rule events serialise")
    }
}

fn to_value(v: impl Serialize) -> Value {
    serde_json::to_value(v).expect("rule inputs and outcomes serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_one_json_line_that_reads_back() {
        let e = RuleEvent::new(EventKind::CmTests, RuleRef::new(Book::FightYourOwnBattles, "Continuous Momentum"))
            .actor("1/A")
            .input("tests", 3, "mortar fire")
            .dice(6, &[2, 5, 6])
            .outcome(serde_json::json!({"failures": 1}));
        let line = e.to_json_line();
        assert!(!line.contains('\n'));
        assert!(line.contains(r#""kind":"cm_tests""#), "{line}");
        let back: RuleEvent = serde_json::from_str(&line).unwrap();
        assert_eq!(back, e);
    }
}
