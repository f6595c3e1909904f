//! What the campaign keeps of its table battles: each element's order of
//! battle as the battles left it, a battle under way (its start and
//! continuations, from which it replays), and paper and table compared.

use serde::{Deserialize, Serialize};
use warbound_rules::handoff::{BattleResult, BattleStart};

use crate::army::orbat::TemplateElement;
use crate::map::board::BoardId;
use crate::map::common::Side;
use crate::table::deploy::Roster;

/// A campaign element's order of battle as it stands: its template's
/// platoons and sections less what battles took, with each one's CMS.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompanyOnTable {
    /// The campaign element ("A Company").
    pub element: String,
    pub elements: Vec<TemplateElement>,
    /// Each element's Continuous Momentum Score, carried from battle to battle.
    pub cms: Vec<Option<u8>>,
}

/// A battle on the table: its start (with a continuation for each session
/// after the first, so it replays), who is who, and the last result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableBattle {
    pub key: String,
    pub start: BattleStart,
    pub roster: Roster,
    /// Which campaign side each scenario side is, in the scenario's order.
    pub sides: Vec<Side>,
    pub last: Option<BattleResult>,
    /// The same engagement resolved on paper, when the two are compared.
    pub paper: Option<Outcome>,
}

/// One engagement resolved both ways (`--battles both`): the table's result
/// carried the campaign on; the paper one was resolved from the same state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub board: BoardId,
    pub attacker: String,
    pub defender: String,
    pub began: String,
    pub table: Outcome,
    pub paper: Outcome,
}

/// How one engagement ended, as the comparison reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning force, if any.
    pub winner: Option<String>,
    /// Points each force lost, attacker first.
    pub losses: (u32, u32),
    /// The force that retreated or was destroyed, if any.
    pub retreated: Option<String>,
    /// Bounds on the table, or Combat Sessions on paper.
    pub length: u32,
}
