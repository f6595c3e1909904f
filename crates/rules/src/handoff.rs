//! The hand-off between a battle and whatever starts it: the value a battle
//! starts from ([`BattleStart`]) and the value it ends with
//! ([`BattleResult`]), plain serialisable data that the battle and the
//! engine-free campaign both read.

use crate::{
    scenario::{CompanySpec, Figures, Scenario, Weather},
    strategic::StrategicCondition,
};
use serde::{Deserialize, Serialize};

/// Who commands a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Control {
    /// A person: the flow stops at each decision and waits for a command.
    Player,
    /// The program, as *Fight Your Own Battles* means: orders, dice and what
    /// the side has observed decide.
    Auto,
}

/// Which command mechanism runs the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mechanism {
    /// *Fight Your Own Battles*: OPCs, ORTs, CM tests, Order Dice.
    #[default]
    Solo,
    /// *Heroes All*, "Command and Control for 2-Player games": Command Dice
    /// and morale throws, each player in turn (hotseat).
    TwoPlayer,
}

/// Everything about a battle before the first die: scenario, seed, who
/// commands each side, and the commands given so far (a battle is scenario +
/// seed + commands, and replays from them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleStart {
    /// Where the scenario came from (a built-in name or a path), for the log.
    pub source: String,
    pub scenario: Scenario,
    pub seed: u64,
    /// One per side, in the scenario's order.
    pub control: Vec<Control>,
    /// Stop after this many bounds (headless `--bounds`), before the time limit.
    pub bounds: Option<u32>,
    #[serde(default)]
    pub mechanism: Mechanism,
    /// A campaign battle: the bounds of one campaign session (FYOW "The role
    /// of the Umpire": "After 4 bounds of tabletop action, the player is
    /// directed back to the campaign map"; FYOB "Every 4 bounds (1
    /// session)"). After each session's last bound the battle goes on with
    /// the next of [`Self::continuations`], or pauses for the campaign
    /// ([`Decision::Paused`]). `None`: played through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause_every: Option<u32>,
    /// What the campaign brought at each pause so far, in order: the `k`th
    /// is applied after bound `k·pause_every`, so the battle replays from
    /// this value alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub continuations: Vec<Continuation>,
}

/// What the campaign brings when a paused battle goes on next session.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Continuation {
    /// Forces that join the battle (FYOW 15.7).
    #[serde(default)]
    pub joining: Vec<Joining>,
    /// The new session's weather, from the next bound; `None`: unchanged.
    #[serde(default)]
    pub weather: Option<Weather>,
}

/// A force joining a battle under way (FYOW 15.7: "must be represented on
/// the tabletop by the arrival of that force in the appropriate 'Box'").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Joining {
    /// The side it fights for, by its place in the scenario.
    pub side: usize,
    /// The company; its elements' `start` is not read: each moves on from
    /// the company's box (its `edge`, else its side's).
    pub company: CompanySpec,
    /// Bounds after the next that it arrives (FYOW 15.7: 0, 2 or 4).
    pub after_bounds: u8,
}

impl BattleStart {
    /// Both sides Auto.
    pub fn auto(source: &str, scenario: Scenario, seed: u64) -> Self {
        let control = vec![Control::Auto; scenario.sides.len()];
        Self {
            source: source.to_owned(),
            scenario,
            seed,
            control,
            bounds: None,
            mechanism: Mechanism::Solo,
            pause_every: None,
            continuations: Vec::new(),
        }
    }

    /// The last bound that will be played.
    pub fn last_bound(&self) -> u32 {
        self.bounds.map_or(self.scenario.time_limit, |b| b.min(self.scenario.time_limit))
    }
}

/// What decided the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// A side's Strategic Condition reached Withdrawn (FYOB "Strategic
    /// Condition at Red": "the force will withdraw immediately and the battle is lost").
    Withdrawal,
    /// A side has nothing left on the table or able to come on: its elements
    /// surrendered, were destroyed or retired to the box.
    Surrender,
    /// A side achieved every goal it was given (destroy named elements).
    Objective,
    /// The time limit came: goals held at the end decide.
    TimeLimit,
    /// Stopped early (`--bounds`): no result yet.
    Stopped,
    /// A campaign session's bounds are played and no continuation is given
    /// yet: the battle waits for the campaign (FYOW "The role of the Umpire").
    Paused,
}

/// Where an element ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    OnTable,
    /// Still in the box, due to move on.
    InBox,
    /// A reserve never committed.
    Reserve,
    /// Went back to the box under its CMS or its CM tests (counts in the CMT
    /// no more, "left by design").
    Retired,
    Surrendered,
    Destroyed,
}

/// One element at the end, as the campaign needs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElementResult {
    pub id: String,
    pub side: usize,
    pub fate: Fate,
    pub men_start: u32,
    pub men: u32,
    /// Vehicles still running (neither brewed nor abandoned).
    pub vehicles: u32,
    pub vehicles_damaged: u32,
    pub cms: u8,
    /// Bounds of fire used today, per weapon that has a daily allowance.
    pub shots_used: u32,
    /// Its company (the scenario's `CompanySpec` id).
    #[serde(default)]
    pub company: String,
    /// The men still with it, riflemen and others by grade and personal
    /// weapon, as a scenario writes them (so the campaign carries them into
    /// its next battle); the crews of its pieces are in [`Self::pieces`].
    #[serde(default)]
    pub figures: Vec<Figures>,
    /// Every piece (crew-served weapon, gun, vehicle) it fielded, in the
    /// scenario's order.
    #[serde(default)]
    pub pieces: Vec<PieceResult>,
}

/// A piece an element fielded, as it ends the battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceResult {
    pub codex: String,
    pub state: PieceState,
    /// The men of its crew still with the element (those of a piece lost
    /// may have got away): with [`ElementResult::figures`], its men.
    #[serde(default)]
    pub crew: u8,
}

/// What became of a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceState {
    Intact,
    /// A vehicle damaged or immobilised: repaired between battles (FYOW 23).
    Damaged,
    /// A vehicle brewed up, abandoned or destroyed; a gun or weapon abandoned
    /// or lost with its element (destroyed or surrendered).
    Lost,
}

/// A squadron at the end, as the air rules count its machines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquadronResult {
    pub id: String,
    pub side: usize,
    /// Shot down or brought down on the ground.
    pub machines_lost: u32,
    /// Flying on with strength lost.
    pub damaged: u32,
}

/// One side at the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideResult {
    pub name: String,
    pub cmt_start: u32,
    pub cmt: u32,
    pub condition: StrategicCondition,
    pub withdrew: bool,
    /// Its elements alone are on the table at the end.
    pub holds_table: bool,
    pub men_lost: u32,
}

/// Everything the campaign needs back from a battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleResult {
    pub scenario: String,
    pub seed: u64,
    pub bounds_played: u32,
    /// Index of the winning side; `None` for a draw or a stopped battle.
    pub winner: Option<usize>,
    pub decided_by: Decision,
    pub sides: Vec<SideResult>,
    pub elements: Vec<ElementResult>,
    #[serde(default)]
    pub squadrons: Vec<SquadronResult>,
}
