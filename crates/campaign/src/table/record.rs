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
    /// Each element's bounds of fire used today (the battle's `shots_used`),
    /// carried into its next battle until the daily supply resets them.
    #[serde(default)]
    pub shots_used: Vec<u32>,
}

/// A force's shots after its daily supply (FYOW 20.4): "When a weapon (CSW
/// or vehicle) receives its full daily requirement, the number of shots
/// available to it for the day is reset to the maximum". Reading: a force
/// Active or at Rest after its day's supply met the need of that mode and
/// has its shots reset; one Rationed carries them forward (*Heroes All*,
/// "Forces acting whilst rationed": "the total shown on the Cardsheet is
/// carried forward and not topped back up"). Test
/// `shots_used_carry_to_the_next_battle_until_the_force_is_supplied`.
pub fn daily_shots(orbat: &mut [CompanyOnTable], mode: crate::supply::logistics::Mode) {
    if mode != crate::supply::logistics::Mode::Rationed {
        orbat.iter_mut().flat_map(|c| c.shots_used.iter_mut()).for_each(|n| *n = 0);
    }
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
