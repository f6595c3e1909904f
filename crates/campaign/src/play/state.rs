//! The campaign state: the date, the day's weather, the two armies, every
//! force and where it is, the paper battles in progress, the partisans, the
//! Diary Box, and who holds each Map Board. [`Campaign::new`] sets it up from
//! a [`CampaignFile`] and one seed; every throw after that comes from the
//! same seeded dice, so a campaign replays exactly.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use warbound_rules::dice::{Dice, Roll};
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};
use warbound_rules::strategic::SeniorOfficerRecord;

use crate::air::command::AirCommand;
use crate::air::flying::FlyingThrow;
use crate::air::squadron::Squadron;
use crate::army::battlegroup::Battlegroup;
use crate::army::calendar::CampaignDate;
use crate::army::command::Request;
use crate::army::commander::{Activation, Commander, Competency, Decision, Traits};
use crate::army::game_flow::DiaryBox;
use crate::army::morale::{Motivation, StrategicMorale};
use crate::army::orders::OrderKind;
use crate::map::attitude::Attitude;
use crate::map::board::{BoardId, BoardKind, Leg, RouteKind};
use crate::map::common::{ForceKind, SessionConditions, SessionStamp, Side};
use crate::map::engagement::Engagement;
use crate::map::movement::{MovementState, Mover};
use crate::map::occupation::{BoardOccupation, Occupant, Place};
use crate::naval::trains::LoadingJob;
use crate::paper::dunnigan::{Situation, StrategicCondition};
use crate::paper::partisans::{Cell, Mission, SupplyEffect, Target, TargetList};
use crate::play::file::{CampaignFile, ElementFile, Stance};
use crate::supply::logistics::{SupplyLine, SupplyRecord};
use crate::supply::repairs::RepairJob;
use crate::supply::replenishment::LossLedger;
use crate::weather::{ChanceDraw, ChanceOutcome, DayWeather, WeatherState};

/// A rule of *Fight Your Own Wars*.
pub(crate) fn fyow(section: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnWars, section)
}

/// An order or step the rules do not allow now: the section it breaks and why.
/// Nothing in the campaign has changed when one is returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CampaignError {
    pub section: String,
    pub message: String,
}

impl CampaignError {
    pub(crate) fn new(section: &str, message: impl Into<String>) -> Self {
        Self { section: section.to_owned(), message: message.into() }
    }
}

impl fmt::Display for CampaignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FYOW {}: {}", self.section, self.message)
    }
}

impl std::error::Error for CampaignError {}

/// The index of a side in [`Campaign::armies`].
pub(crate) fn ix(side: Side) -> usize {
    match side {
        Side::Blue => 0,
        Side::Red => 1,
    }
}

/// Air Command and its squadrons (FYOW 28).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AirArm {
    pub command: AirCommand,
    /// Each squadron, and whether it is a specialist reconnaissance type.
    pub squadrons: Vec<(Squadron, bool)>,
    /// Today's flying throw (28.4); `None` when nothing flies today.
    pub flying: Option<FlyingThrow>,
    /// Squadrons flying from an airstrip without a tarmac runway (25.8).
    pub grass_strips: BTreeSet<String>,
    /// Damages, inactive machines and losses counted at the last Strategic Milestone throw (28.12).
    pub counted: crate::air::command::AirLosses,
    /// The bombing raids the player has ordered: each squadron's target
    /// Map Board, raided every morning the weather lets it fly (28.8).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub raids: BTreeMap<String, BoardId>,
}

/// One army: its General, Strategic Morale and what it knows of the enemy.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Army {
    pub side: Side,
    pub name: String,
    pub stance: Stance,
    pub motivation: Motivation,
    pub general: Commander,
    pub morale: StrategicMorale,
    /// A battlegroup's Strategic Condition fell since the weekly review (12.2).
    pub reduced_since_review: bool,
    pub home: Vec<BoardId>,
    pub objectives: Vec<BoardId>,
    pub air: Option<AirArm>,
    /// The enemy forces its Senior Command knows of, from its forces'
    /// detection throws, air reconnaissance and partisans: where, and the
    /// campaign day seen. An entry lasts while that force stays on that board.
    pub known: BTreeMap<String, (BoardId, u32)>,
    /// What its forces' information gathering learnt of the enemy on each
    /// Map Board (FYOW 17).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reports: BTreeMap<BoardId, crate::play::intelligence::Report>,
    /// Replenishment points at the force HQ not yet given out: a destroyed
    /// battlegroup's (FYOW 21.2) and what a battlegroup could not take.
    pub hq_banked: u32,
    /// Its supply train, when its home has a railway station (FYOW 30).
    pub train: Option<SupplyTrain>,
    /// What its forces cost at the outset of the campaign, in points: the
    /// base of Replenishment from Home (FYOW 21.7).
    #[serde(default)]
    pub original_cost: u32,
    /// Its sea-going vessels (FYOW 29).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fleet: Vec<Ship>,
    /// Its coastal gun batteries (FYOW 29.10.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub coastal_batteries: Vec<CoastalBattery>,
}

/// A coastal gun battery on the campaign map (FYOW 29.10.1, 29.17): it
/// joins a naval engagement on a sea its board's sea links reach while no
/// enemy force stands on its board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoastalBattery {
    pub name: String,
    pub board: BoardId,
    pub guns: u8,
    /// Its officer's grade, for the Officer Reaction Test (29.17).
    pub officer: warbound_rules::officer::Grade,
}

/// A vessel of an army's fleet on the campaign map (FYOW 29.5): in its
/// harbour off the map, or placed on its sea Map Board for the day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ship {
    pub vessel: crate::naval::craft::Vessel,
    /// The sea Map Board it is placed on when it sails.
    pub station: BoardId,
    /// Its home port, off the map, with the Dockyard.
    pub harbour: String,
    /// A British Destroyer carrying RADAR (29.9).
    pub radar: bool,
    /// Placed on its station today (29.5); else in its harbour.
    pub at_sea: bool,
    /// The forces it has fired on today: a Destroyer's or gunboat's
    /// follow-up shots gain +1 (29.8).
    pub fired_at: BTreeSet<String>,
    /// The player keeps it in harbour: it does not sail while this stands.
    #[serde(default)]
    pub held_in_harbour: bool,
    /// The player's order to keep out of a naval engagement (29.17): she
    /// waits in her Box, out of the enemy's reach and off the coast's waters.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stands_off: bool,
}

/// A Senior Command (FYOW 6.3): a Brigade's HQ, whose Senior Commander sets
/// its battlegroups' orders each day (10.2, 11) and answers their requests
/// when activated on its BPC (6.3, 9.1).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SeniorCommand {
    pub side: Side,
    /// The Brigade its battlegroups (and their Fractions) belong to.
    pub brigade: String,
    pub commander: Commander,
    pub traits: Traits,
    /// The week's objective its General has given it (10.1); `None`: hold.
    pub objective: Option<BoardId>,
    /// Requests from its BCs for new orders (9.1), with the orders asked for
    /// and the sessions they have waited for the clerks (9.2).
    pub requests: Vec<(Request, OrderKind, Option<BoardId>, u8)>,
}

/// A force that failed its Movement Test on a route this session (FYOW 18.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Jam {
    pub side: Side,
    pub from: BoardId,
    pub to: BoardId,
    pub route: RouteKind,
    pub failed: String,
}

/// Where a force is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Whereabouts {
    /// On a Map Board (in a box or on the board: see the board's occupation).
    Board(BoardId),
    /// Embarked on a Tidal Map Board, to land on `beach` from `day`, its
    /// invasion day (FYOW 20.1).
    Afloat { sea: BoardId, beach: BoardId, day: u32 },
    /// At its home airfield, to be dropped on `drop` from `day` by its
    /// army's transport `squadron` (FYOW 28.13).
    Airborne { squadron: String, drop: BoardId, day: u32 },
    /// Destroyed, surrendered or withdrawn from the campaign.
    Gone,
}

/// A battlegroup or fraction on the campaign map.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Force {
    pub name: String,
    pub side: Side,
    pub kind: ForceKind,
    pub battlegroup: Battlegroup,
    /// What each element is on the map: its mover row, recce, heavy guns, AFV.
    pub kit: Vec<ElementFile>,
    pub commander: Commander,
    pub traits: Traits,
    pub elite: bool,
    pub at: Whereabouts,
    pub supply: SupplyRecord,
    pub line: SupplyLine,
    /// Partisan damage to its supply: the effect and the last campaign day it lasts.
    pub partisan_effects: Vec<(SupplyEffect, u32)>,
    pub movement: MovementState,
    pub order: OrderKind,
    pub objective: Option<BoardId>,
    /// New orders its BC has given himself by Command Decision (FYOW 10.6),
    /// in force from his next activation.
    pub pending_orders: Option<(OrderKind, Option<BoardId>)>,
    /// Its Strategic Condition: the worse of the Dunnigan losses table's
    /// (33.7.3 (ix)) and the FYOB milestone tests on its value (FYOW 2, 33.9).
    pub condition: StrategicCondition,
    /// The worst condition the Dunnigan losses table has named for it.
    pub table_condition: StrategicCondition,
    /// The FYOB Strategic Milestone record, its value standing for the CMT.
    pub milestones: SeniorOfficerRecord,
    /// Sessions it has been on its present board.
    pub sessions_here: u32,
    /// Its Landing Plan's waves being unloaded over its beach (FYOW 18.2, 24).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unloading: Option<crate::play::landing::Unloading>,
    /// A supply train has unloaded for it: its next daily supply is a convoy's (FYOW 20.10).
    pub convoy_due: bool,
    /// Its casualties this campaign month, for the month's replenishment
    /// (FYOW 21, 21.3); a Fraction's are booked to its battlegroup (21.2, 3.2).
    pub losses: LossLedger,
    /// Replenishment points it has not yet spent (21.4.2).
    pub banked: u32,
    /// Damaged AFVs its crews are repairing (FYOW 33.10, 23.1).
    pub repairs: Vec<RepairJob>,
    /// The battlegroup a Fraction was split from (FYOW 3).
    pub parent: Option<String>,
    /// At Red, it has withdrawn (left its board or retreated) since it fell
    /// to Red: FYOW 12.3's "red and having withdrawn".
    pub withdrawn: bool,
    /// A new Fraction whose first activation (FYOW 3.5) is still to come.
    pub first_activation: Option<crate::army::fraction::Fraction>,
    /// The enemy forces on its board that it has detected itself (FYOW 16,
    /// 33.5): what the Battle Factors Chart reads as detected (33.7.2 (vi)).
    /// Forgotten when either force leaves the board.
    pub sighted: BTreeSet<String>,
    /// The battlegroup it was merged into (FYOW 2.7): gone from the map, not
    /// destroyed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged_into: Option<String>,
    /// Its elements' orders of battle on the table as they stand, set up from
    /// their templates the first time they fight there.
    #[serde(default)]
    pub orbat: Vec<crate::table::record::CompanyOnTable>,
    /// The battles it had fought when its commander last improved by
    /// experience (FYOW 7.1).
    #[serde(default)]
    pub improved_after_battles: u32,
    /// Its elements in the disordered Line of March it arrived in after a
    /// retreat (FYOW 14.14), head first, until it next moves by its own
    /// orders with an Order of March (18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disordered: Option<Vec<String>>,
    /// What its observers ask when they gather information (FYOW 17), when
    /// its player has chosen; every question otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub questions: Option<Vec<crate::play::intelligence::Question>>,
    /// Its player has ordered it to CONCEAL on the boards it occupies (FYOW
    /// 15.4); the Auto conceals a force holding its ground.
    #[serde(default)]
    pub conceal: bool,
}

impl Force {
    /// Its value now (FYOW 2).
    pub fn points(&self) -> u32 {
        self.battlegroup.points()
    }

    pub fn is_gone(&self) -> bool {
        self.at == Whereabouts::Gone
    }

    /// A battlegroup, not a Fraction or a Picket of one (FYOW 12.3 reviews battlegroups).
    pub fn is_battlegroup(&self) -> bool {
        self.kind == ForceKind::Battlegroup
    }

    /// The board it is on, if it is on one.
    pub fn board(&self) -> Option<&BoardId> {
        match &self.at {
            Whereabouts::Board(b) => Some(b),
            _ => None,
        }
    }

    fn kit_of(&self, element: &str) -> Option<&ElementFile> {
        self.kit.iter().find(|k| k.name == element)
    }

    /// Its elements as the Movement Test reads them (FYOW 14.1, 14.5).
    pub fn mover(&self) -> Mover {
        Mover::new(self.battlegroup.elements.iter().filter_map(|e| self.kit_of(&e.name)).map(|k| k.mover), self.elite)
    }

    /// Led by recce designated troops (FYOW 16): any recce element heads the
    /// order of march; in a disordered Line of March (14.14), only if the
    /// element at its head is recce.
    pub fn recce_led(&self) -> bool {
        let recce = |name: &str| self.kit_of(name).is_some_and(|k| k.recce);
        match &self.disordered {
            Some(line) => line.first().is_some_and(|head| recce(head)),
            None => self.battlegroup.elements.iter().any(|e| recce(&e.name)),
        }
    }

    /// Its Order of March (FYOW 18): its recce elements at the head, the
    /// rest in the order of its battlegroup.
    pub fn order_of_march(&self) -> Option<crate::map::march::OrderOfMarch> {
        let mut elements: Vec<crate::map::march::MarchElement> = self
            .battlegroup
            .elements
            .iter()
            .map(|e| crate::map::march::MarchElement {
                element: e.name.clone(),
                recce: self.kit_of(&e.name).is_some_and(|k| k.recce),
            })
            .collect();
        elements.sort_by_key(|e| !e.recce);
        crate::map::march::OrderOfMarch::new(elements).ok()
    }

    /// Pieces of 100mm or over (FYOW 33.7.2 (iv)).
    /// The AA guns of its elements (FYOW 28.10).
    pub fn aa_guns(&self) -> Vec<crate::air::firing::AaGun> {
        self.battlegroup
            .elements
            .iter()
            .filter_map(|e| self.kit_of(&e.name))
            .flat_map(|k| k.aa.iter().copied())
            .collect()
    }

    pub fn heavy_guns(&self) -> u32 {
        self.battlegroup.elements.iter().filter_map(|e| self.kit_of(&e.name)).map(|k| k.heavy_guns).sum()
    }

    /// Whether the force has any vehicles (for the fuel rules, FYOW 20.7.1).
    pub fn has_vehicles(&self) -> bool {
        use crate::map::movement::MoverClass::*;
        self.mover().classes.iter().any(|c| !matches!(c, RegularInfantry | SpecialForces | BicycleTroops | Cavalry))
    }
}

/// The resistance and its missions (FYOW 34).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Partisans {
    pub helps: Side,
    pub cells: Vec<Cell>,
    pub list: TargetList,
    pub reserve: VecDeque<Target>,
    /// Missions planned: when, which cell, what.
    pub missions: Vec<(CampaignDate, usize, Mission)>,
    /// Sweeps the enemy owes at the start of next week: the cell and the board of the incident.
    pub sweeps_due: Vec<(usize, crate::paper::partisans::SweepTrigger, String)>,
    /// What each cell has seen and not yet reported by radio (34.9, 34.12):
    /// the enemy force, its board and the campaign day seen.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unreported: BTreeMap<usize, Vec<(String, BoardId, u32)>>,
    /// The board of each cell's last mission, where a radio intercepted
    /// brings the sweep (34.13, 34.14).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub last_mission: BTreeMap<usize, String>,
    /// Agents bought or home from a mission, not yet with a cell (34.15).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents_home: Vec<crate::paper::partisans::Agent>,
    /// The campaign day each cell's agent joined it: he throws to evade
    /// capture each day after (34.15).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub agent_joined: BTreeMap<usize, u32>,
    /// The session each dispersed cell's battle ended (34.11): regathered
    /// in that month it stays stood down.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dispersed: BTreeMap<usize, CampaignDate>,
}

/// A paper battle on a Map Board (FYOW 33.7), between one attacking and one defending force.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaperBattle {
    pub board: BoardId,
    pub attacker: String,
    pub defender: String,
    pub situation: Situation,
    /// The Contact Session; Combat Sessions follow from the next session.
    pub contact: CampaignDate,
    pub combat_sessions: u32,
    /// What a table battle on this board would start from (FYOW 15.6).
    pub engagement: Option<Engagement>,
    /// The battle on the table, once it has begun there.
    #[serde(default)]
    pub table: Option<crate::table::record::TableBattle>,
    /// Forces that joined the table battle under way (FYOW 15.7), in the
    /// order they joined.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joined: Vec<String>,
    /// The partisan cell fighting beside the side it helps (FYOW 34.11).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partisans: Option<usize>,
}

/// A finished paper battle, for the summary.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BattleRecord {
    pub board: BoardId,
    pub attacker: String,
    pub defender: String,
    pub began: String,
    pub combat_sessions: u32,
    pub result: String,
}

/// Why the campaign ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    pub reason: String,
    pub winner: Option<Side>,
}

/// A campaign being played.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Campaign {
    /// Where the campaign file came from.
    pub source: String,
    pub file: CampaignFile,
    pub seed: u64,
    #[serde(with = "dice_state")]
    pub(crate) dice: Dice,
    pub date: CampaignDate,
    /// Campaign days begun, counted from 1.
    pub day: u32,
    pub weather: Option<WeatherState>,
    pub today: Option<DayWeather>,
    /// The days forecast ahead, tomorrow's first, under the optional
    /// Weather Forecasting (FYOW 25.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forecast: Vec<DayWeather>,
    pub chance: Option<ChanceDraw>,
    pub(crate) cards_today: Vec<ChanceOutcome>,
    /// The light and weather of the session being played.
    pub conditions: SessionConditions,
    pub armies: Vec<Army>,
    /// Each army's Senior Commands, one for each Brigade, in the file's order.
    pub senior_commands: Vec<SeniorCommand>,
    pub forces: Vec<Force>,
    pub occupation: BTreeMap<BoardId, BoardOccupation>,
    /// The Map Boards where the railway line is cut, and the mending done
    /// there (FYOW 30.5).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cut_lines: BTreeMap<BoardId, crate::naval::trains::LineRepair>,
    pub battles: Vec<PaperBattle>,
    pub fought: Vec<BattleRecord>,
    /// Today's naval engagements (FYOW 29.17): one template for each sea Map
    /// Board with vessels of both sides on station.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub naval_engagements: Vec<crate::play::sea::SeaEngagement>,
    /// Engagements fought on the table and also resolved on paper.
    #[serde(default)]
    pub comparisons: Vec<crate::table::record::Comparison>,
    pub partisans: Option<Partisans>,
    pub diary: DiaryBox,
    /// The side that last held each board alone.
    pub held: BTreeMap<BoardId, Side>,
    /// The activation order of this session's BPCs (FYOW 4.5).
    pub(crate) activated: Vec<String>,
    /// Forces that gave or received orders at the start of today (FYOW 10.2).
    pub(crate) ordered_today: BTreeSet<String>,
    /// This session's failed Movement Tests, by route: the forces behind a
    /// failed one on the same route are held up (FYOW 18.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) jams: Vec<Jam>,
    /// Each commander's Command Decisions in his present activation (FYOW 8):
    /// at most 5, none asked twice.
    pub(crate) decisions: BTreeMap<String, Activation>,
    pub ended: Option<Ending>,
    /// The army a player commands (`None`: both Auto). His Senior Commands
    /// give his forces the orders he has set for the day (FYOW 10.2) in
    /// place of the Auto's Variable Order Resolution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Side>,
    /// The orders the player has set for his forces at the next day's order
    /// phase: the order and its objective.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub player_orders: BTreeMap<String, (OrderKind, Option<BoardId>)>,
    /// The "if" clauses the player has written into his forces' orders
    /// (FYOW 10.7), by force, until they are read.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub composite: BTreeMap<String, crate::play::composite::Composite>,
    /// Events not yet written to the log (a save is taken after they are).
    #[serde(skip)]
    pub(crate) events: Vec<RuleEvent>,
    pub events_logged: u64,
    /// While the campaign rules report tracks the campaign: each event's
    /// mark (see `play::changes`).
    #[serde(skip)]
    pub(crate) tracking: Option<crate::play::changes::Tracking>,
}

/// The campaign's dice stored by where their stream stands.
mod dice_state {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use warbound_rules::dice::{Dice, DiceState};

    pub fn serialize<S: Serializer>(dice: &Dice, s: S) -> Result<S::Ok, S::Error> {
        dice.state().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Dice, D::Error> {
        DiceState::deserialize(d).map(Dice::from_state)
    }
}

impl Campaign {
    /// A Command Decision by `commander` in his present activation (FYOW 8,
    /// 8.1): refused past the fifth, or for a question already asked.
    ///
    /// Reading (FYOW 8): an activation is the commander's turn on his BPC in
    /// a session (a General's, the start of the day); decisions his command
    /// takes later in that session (a counter-battery decision at the Combat
    /// Session) count with it (test `the_fifth_decision_is_the_last_of_an_activation`).
    pub(crate) fn command_decision(
        &mut self,
        commander: &str,
        competency: Competency,
        question: &str,
        obvious: bool,
    ) -> Result<(Decision, RuleEvent), crate::army::ArmyError> {
        let activation = self.decisions.entry(commander.to_owned()).or_default();
        let (mut d, mut e) = activation.decide(competency, question, obvious, &mut self.dice, commander)?;
        // 32, the 4♠: "Command Decision rolls can be re-rolled today".
        if !d.success && self.cards_today.contains(&ChanceOutcome::CommandDecisionReroll) {
            let face = self.dice.d10();
            d.face = face;
            d.success = face < d.target;
            e = e
                .input("rerolled", true, "32: the 4 of Spades")
                .dice(10, &[face])
                .outcome(serde_json::json!({ "success": d.success }));
        }
        Ok((d, e))
    }

    /// The Command Decision (FYOW 8) of force `k`'s commander on `question`,
    /// logged; one past the fifth of his activation is refused.
    pub(crate) fn commander_decision(&mut self, k: usize, question: &str) -> Result<Decision, CampaignError> {
        let (competency, commander) = (self.forces[k].commander.competency, self.forces[k].commander.name.clone());
        let (decision, e) = self
            .command_decision(&commander, competency, question, false)
            .map_err(|e| CampaignError::new("8", e.to_string()))?;
        self.log(e);
        Ok(decision)
    }

    /// Records a rule event whose step changes the campaign, if it does,
    /// after it is logged.
    pub(crate) fn log(&mut self, e: RuleEvent) {
        self.mark(false);
        self.events_logged += 1;
        self.events.push(e);
    }

    /// Records a rule event whose step has already changed the campaign.
    pub(crate) fn log_applied(&mut self, e: RuleEvent) {
        self.mark(true);
        self.events_logged += 1;
        self.events.push(e);
    }

    /// Records that a step could not be taken (a rule refused it).
    pub(crate) fn log_refusal(&mut self, section: &str, why: &str) {
        self.log(RuleEvent::new(EventKind::Calendar, fyow(section)).outcome(json!({ "refused": why })));
    }

    /// The events recorded since the last call, in order.
    pub fn drain_events(&mut self) -> Vec<RuleEvent> {
        std::mem::take(&mut self.events)
    }

    /// This session's Battlegroup Priority Cards as they came up (FYOW
    /// 4.5): the commanders and forces in the order they acted.
    pub fn activation_order(&self) -> &[String] {
        &self.activated
    }

    pub fn army(&self, side: Side) -> &Army {
        &self.armies[ix(side)]
    }

    pub(crate) fn army_mut(&mut self, side: Side) -> &mut Army {
        &mut self.armies[ix(side)]
    }

    /// The Senior Command of a force's Brigade.
    pub(crate) fn senior_command_of(&self, name: &str) -> Option<usize> {
        let f = self.force(name)?;
        self.senior_commands.iter().position(|sc| sc.side == f.side && sc.brigade == f.battlegroup.brigade)
    }

    pub fn force(&self, name: &str) -> Option<&Force> {
        self.forces.iter().find(|f| f.name == name)
    }

    pub(crate) fn fx(&self, name: &str) -> Option<usize> {
        self.forces.iter().position(|f| f.name == name)
    }

    /// The battlegroup a force is part of: itself, or for a Fraction the
    /// battlegroup at the head of its parents, a Fraction's Fraction (3.2)
    /// being part of the same battlegroup.
    pub(crate) fn root_battlegroup(&self, i: usize) -> usize {
        let mut root = i;
        for _ in 0..self.forces.len() {
            match self.forces[root].parent.as_deref().and_then(|p| self.fx(p)) {
                Some(p) => root = p,
                None => break,
            }
        }
        root
    }

    /// The occupant record of a force on its board.
    pub fn occupant(&self, name: &str) -> Option<&Occupant> {
        let board = self.force(name)?.board()?;
        self.occupation.get(board)?.occupant(name).ok()
    }

    pub(crate) fn occupant_mut(&mut self, name: &str) -> Option<&mut Occupant> {
        let board = self.force(name)?.board()?.clone();
        self.occupation.get_mut(&board)?.occupants.iter_mut().find(|o| o.force == name)
    }

    /// The forces of `side` on `board`.
    pub fn forces_on(&self, board: &BoardId, side: Side) -> Vec<&Force> {
        self.forces.iter().filter(|f| f.side == side && f.board() == Some(board)).collect()
    }

    /// Whether `name` is fighting a battle, on paper or on the table, as
    /// one of its two forces or one that joined it (FYOW 15.7).
    pub fn in_battle(&self, name: &str) -> bool {
        self.battles.iter().any(|b| b.attacker == name || b.defender == name || b.joined.iter().any(|j| j == name))
    }

    /// The attitude of a force on its board.
    pub fn attitude(&self, name: &str) -> Option<Attitude> {
        self.occupant(name).map(|o| o.attitude.attitude())
    }

    /// Whether a force is in a box rather than on the board itself.
    pub fn in_box(&self, name: &str) -> bool {
        self.occupant(name).is_some_and(|o| matches!(o.place, Place::Box(_)))
    }

    /// The session of the campaign as the map rules stamp it.
    pub(crate) fn stamp(&self) -> SessionStamp {
        SessionStamp::new(self.day.max(1), self.date.session()).expect("day from 1, session 1..=6")
    }

    /// A force leaves its board: it forgets what it saw there, and no enemy
    /// force or Senior Command knows where it is any longer (FYOW 16, 33.5).
    pub(crate) fn lose_sight_of(&mut self, name: &str) {
        if let Some(i) = self.fx(name) {
            self.forces[i].sighted.clear();
        }
        for f in &mut self.forces {
            f.sighted.remove(name);
        }
        for a in &mut self.armies {
            a.known.remove(name);
            // A report is of the enemy as it stood: one that moves off makes it stale (FYOW 17).
            a.reports.retain(|_, r| !r.forces.iter().any(|f| f == name));
        }
    }

    /// A force detects an enemy force on its board: it and its Senior Command know of it.
    pub(crate) fn sight(&mut self, name: &str, enemy: &str) {
        let Some(i) = self.fx(name) else { return };
        let Some(board) = self.forces[i].board().cloned() else { return };
        self.forces[i].sighted.insert(enemy.to_owned());
        let (side, day) = (self.forces[i].side, self.day);
        self.army_mut(side).known.insert(enemy.to_owned(), (board, day));
    }

    /// Keeps each occupant's points equal to its force's value (FYOW 13.9).
    pub(crate) fn sync_points(&mut self, name: &str) {
        if let Some(points) = self.force(name).map(Force::points)
            && let Some(o) = self.occupant_mut(name)
        {
            o.points = points;
        }
    }

    /// A board is held by a side with forces on it and no enemy there.
    pub(crate) fn update_held(&mut self) {
        for (board, occ) in &self.occupation {
            let on_board = |s: Side| occ.occupants.iter().any(|o| o.side == s && o.place == Place::OnBoard);
            let present = |s: Side| occ.occupants.iter().any(|o| o.side == s);
            for side in [Side::Blue, Side::Red] {
                if on_board(side) && !present(side.enemy()) {
                    self.held.insert(board.clone(), side);
                }
            }
        }
    }

    /// The land legs a force may take from `from` (FYOW 13.5, 14.4).
    pub(crate) fn land_legs(&self, from: &BoardId, v_barred: bool) -> Vec<Leg> {
        self.file
            .map
            .legs_from(from)
            .into_iter()
            .filter(|l| matches!(l.route.kind(), RouteKind::MetalledRoad | RouteKind::SecondaryRoad))
            .filter(|l| !(l.v && v_barred))
            .collect()
    }

    /// The cheapest road route from `from` to `to` for a force (fewest links,
    /// then fewest Movement Points): its legs in order.
    pub(crate) fn road_route(&self, from: &BoardId, to: &BoardId, v_barred: bool) -> Option<Vec<Leg>> {
        if from == to {
            return Some(Vec::new());
        }
        let mut best: BTreeMap<BoardId, (u32, Vec<Leg>)> = BTreeMap::new();
        best.insert(from.clone(), (0, Vec::new()));
        let mut queue = VecDeque::from([from.clone()]);
        while let Some(b) = queue.pop_front() {
            let (cost, path) = best[&b].clone();
            for leg in self.land_legs(&b, v_barred) {
                let c = cost + 100 + u32::from(leg.mp);
                if best.get(&leg.to).is_none_or(|(old, _)| c < *old) {
                    let mut p = path.clone();
                    p.push(leg.clone());
                    best.insert(leg.to.clone(), (c, p));
                    queue.push_back(leg.to.clone());
                }
            }
        }
        best.remove(to).map(|(_, p)| p)
    }

    /// The fewest road links from any of `from` to each board a force can
    /// reach (a road route's length, as [`Campaign::road_route`] finds it;
    /// links run both ways).
    pub(crate) fn road_hops(&self, from: &[BoardId], v_barred: bool) -> BTreeMap<BoardId, usize> {
        let mut hops: BTreeMap<BoardId, usize> = from.iter().map(|b| (b.clone(), 0)).collect();
        let mut queue: VecDeque<BoardId> = from.iter().cloned().collect();
        while let Some(b) = queue.pop_front() {
            let n = hops[&b] + 1;
            for leg in self.land_legs(&b, v_barred) {
                if !hops.contains_key(&leg.to) {
                    hops.insert(leg.to.clone(), n);
                    queue.push_back(leg.to);
                }
            }
        }
        hops
    }

    /// Whether a board is a Tidal Map Board.
    pub(crate) fn is_sea(&self, board: &BoardId) -> bool {
        self.file.map.board(board).is_ok_and(|b| b.kind == BoardKind::Tidal)
    }

    /// Checks the rules that must hold after every step: stockpiles within
    /// their limits (FYOW 20.4.1), Strategic Morale 0..=3 (12.3), each side
    /// within a board's capacity (13.9), and no force in two places.
    pub fn check_invariants(&self) -> Result<(), String> {
        for f in &self.forces {
            let limit = f.supply.formation.stockpile_limit();
            if f.supply.stockpile() > limit {
                return Err(format!("{} holds {}S, over its {limit}S", f.name, f.supply.stockpile()));
            }
            let places = self.occupation.values().filter(|o| o.occupants.iter().any(|x| x.force == f.name)).count();
            let expected = usize::from(matches!(f.at, Whereabouts::Board(_)));
            if places != expected {
                return Err(format!("{} is on {places} boards, its record says {:?}", f.name, f.at));
            }
            if let Whereabouts::Board(b) = &f.at
                && self.occupation[b].occupant(&f.name).map(|o| o.points) != Ok(f.points())
            {
                return Err(format!("{} on {b}: occupant points differ from its value {}", f.name, f.points()));
            }
        }
        for a in &self.armies {
            if a.morale.score > 3 {
                return Err(format!("{} Strategic Morale {}", a.name, a.morale.score));
            }
        }
        let cap = self.file.max_points();
        for (b, occ) in &self.occupation {
            if self.is_sea(b) {
                continue;
            }
            for side in [Side::Blue, Side::Red] {
                if occ.side_points(side) > cap {
                    return Err(format!("{b}: {side:?} has {} points, over {cap}", occ.side_points(side)));
                }
            }
        }
        Ok(())
    }

    /// The campaign's result so far, as JSON.
    pub fn summary(&self) -> Value {
        let armies: Vec<Value> = self
            .armies
            .iter()
            .map(|a| {
                let forces: Vec<Value> = self
                    .forces
                    .iter()
                    .filter(|f| f.side == a.side)
                    .map(|f| {
                        json!({
                            "name": f.name,
                            "kind": f.kind,
                            "at": f.at,
                            "attitude": self.attitude(&f.name),
                            "points": f.points(),
                            "original_points": f.battlegroup.original_points,
                            "condition": f.condition,
                            "order": f.order,
                            "stockpile": f.supply.stockpile(),
                            "supply": f.supply.mode,
                            "commander": { "name": f.commander.name, "competency": f.commander.competency, "traits": f.traits },
                        })
                    })
                    .collect();
                let held: Vec<&BoardId> = a.objectives.iter().filter(|b| self.held.get(*b) == Some(&a.side)).collect();
                let air = a.air.as_ref().map(|air| {
                    json!({
                        "condition": air.command.condition(),
                        "squadrons": air.squadrons.iter().map(|(s, _)| json!({
                            "name": s.name, "operational": s.operational(), "lost": s.lost(), "damages": s.damages(),
                        })).collect::<Vec<_>>(),
                    })
                });
                let train = a.train.as_ref().map(|t| json!({ "name": t.name, "at": t.at, "work": format!("{:?}", t.work) }));
                let fleet: Vec<Value> = a
                    .fleet
                    .iter()
                    .map(|s| {
                        json!({
                            "name": s.vessel.id, "craft": s.vessel.craft, "sunk": s.vessel.sunk(),
                            "strength": s.vessel.strength(), "condition": s.vessel.condition,
                            "at": if s.at_sea { s.station.0.clone() } else { s.harbour.clone() },
                        })
                    })
                    .collect();
                json!({
                    "side": a.side,
                    "name": a.name,
                    "stance": a.stance,
                    "general": { "name": a.general.name, "competency": a.general.competency },
                    "strategic_morale": a.morale.score,
                    "withdrawn": a.morale.withdrawn(),
                    "objectives": a.objectives,
                    "objectives_held": held,
                    "forces": forces,
                    "air": air,
                    "train": train,
                    "fleet": fleet,
                })
            })
            .collect();
        let partisans = self.partisans.as_ref().map(|p| {
            json!({
                "helps": p.helps,
                "cells": p.cells.iter().map(|c| json!({
                    "name": c.name, "members": c.members, "radio": c.radio, "explosives": c.explosives, "standing": c.standing,
                })).collect::<Vec<_>>(),
            })
        });
        let senior_commands: Vec<Value> = self
            .senior_commands
            .iter()
            .map(|sc| {
                json!({
                    "side": sc.side,
                    "brigade": sc.brigade,
                    "commander": { "name": sc.commander.name, "competency": sc.commander.competency, "traits": sc.traits },
                    "objective": sc.objective,
                })
            })
            .collect();
        json!({
            "campaign": self.file.name,
            "source": self.source,
            "seed": self.seed,
            "days_played": self.day,
            "date": self.date.to_string(),
            "ended": self.ended.as_ref().map(|e| &e.reason),
            "winner": self.ended.as_ref().and_then(|e| e.winner),
            "armies": armies,
            "senior_commands": senior_commands,
            "battles_fought": self.fought.len(),
            "battles": self.fought,
            "battles_in_progress": self.battles.iter().map(|b| json!({
                "board": b.board, "attacker": b.attacker, "defender": b.defender,
                "bounds_on_table": b.table.as_ref().and_then(|t| t.last.as_ref()).map(|r| r.bounds_played),
            })).collect::<Vec<_>>(),
            "comparisons": self.comparisons,
            "held": self.held,
            "partisans": partisans,
            "events": self.events_logged,
        })
    }

    /// A competency for the Dunnigan CRT (33.7.2 (vii)).
    pub(crate) fn dunnigan_competency(c: Competency) -> crate::paper::dunnigan::Competency {
        match c {
            Competency::BelowAverage => crate::paper::dunnigan::Competency::BelowAverage,
            Competency::Average => crate::paper::dunnigan::Competency::Average,
            Competency::AboveAverage => crate::paper::dunnigan::Competency::AboveAverage,
        }
    }
}

/// What a supply train is doing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TrainWork {
    /// Loading at the home station.
    Loading(LoadingJob),
    /// Running loaded to the named station.
    Delivering(BoardId),
    /// Unloading at its station for the force there.
    Unloading(LoadingJob),
    /// Running empty back to the home station.
    Returning,
}

/// An army's supply train.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupplyTrain {
    pub name: String,
    pub home: BoardId,
    pub at: BoardId,
    pub work: TrainWork,
    pub boards_today: u8,
}
