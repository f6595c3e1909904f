//! Partisans (FYOW 34): resistance cells in occupied country.
//!
//! A [`Cell`] is the Partisan log entry of one cell (34.3): members,
//! radio, explosives, an attached agent, and whether it is stood down or
//! dispersed after a battle. The Umpire's throws are functions here: the
//! start of the game ([`start_of_game`]), new cells each season
//! ([`new_cell_for_season`]), the monthly recruits, explosives and radio
//! ([`Cell::start_of_month`]), the 5D6 activity throw and its date
//! ([`plan_mission`]), the target list ([`TargetList`]), attacks
//! ([`attack`]) and observation missions ([`observe`]), partisans in battle
//! ([`Cell::force`], [`Cell::retreat_from_battle`], [`Cell::weekly_reform`]),
//! the weekly radio report and enemy listening units ([`weekly_report`]),
//! anti-partisan sweeps ([`anti_partisan_sweep`]) and agents ([`buy_agents`],
//! [`Cell::attach_agent`], [`Cell::agent_daily_evasion`]).

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::paper::PaperError;
use crate::paper::dunnigan::{Force, RetreatOrder};

fn event(section: &str) -> RuleEvent {
    RuleEvent::new(EventKind::Partisans, RuleRef::new(Book::FightYourOwnWars, section))
}

/// Most members a cell can have (34.4).
pub const MAX_MEMBERS: u8 = 10;
/// Most explosive units a cell can hold (34.5).
pub const MAX_EXPLOSIVES: u8 = 3;
/// Points per member: partisans are valued "as if they were Regular Enhanced
/// troops" (34.11), 3 points a figure (*Heroes All*, "The cost of your army").
pub const POINTS_PER_MEMBER: u32 = 3;

/// The face of a double among `faces`, if any (the highest where there are
/// several). "If 3 dice are thrown and all show the same number, this still
/// only counts as a double, not 3 doubles" (34).
pub fn double(faces: &[u8]) -> Option<u8> {
    let mut sorted = faces.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]).max()
}

/// A double, or one made by an agent's "+1 modifier to either dice" (34.15).
///
/// Reading (FYOW 34.15): the +1 goes on one die of the cell's choosing, so
/// any two dice one apart make a double.
fn double_with_agent(faces: &[u8], agent: bool) -> bool {
    double(faces).is_some()
        || agent && faces.iter().enumerate().any(|(i, &a)| faces.iter().skip(i + 1).any(|&b| a.abs_diff(b) == 1))
}

/// An agent supplied by the liberators' armed forces (34.15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agent {
    /// 1 on his first mission, 2 on his second …
    pub mission: u32,
}

impl Agent {
    /// A newly bought agent on his first mission.
    pub fn new() -> Self {
        Self { mission: 1 }
    }

    /// The die of his daily evasion throw: 2D10, 2D12 on a second mission, 2D20 on a third or later.
    pub fn evasion_die(self) -> u8 {
        match self.mission {
            0 | 1 => 10,
            2 => 12,
            _ => 20,
        }
    }
}

impl Default for Agent {
    fn default() -> Self {
        Self::new()
    }
}

/// What became of a cell's agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AgentFate {
    /// Lost: a 1 on a D6 after casualties or captures.
    Lost,
    /// Survived casualties or captures and stays with the cell.
    Stays,
    /// After the mission he escapes home; he can be sent again as `agent`.
    ReturnedHome { agent: Agent },
}

/// A cell's standing after a battle (34.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Standing {
    /// Free to act.
    Free,
    /// Back at the hideout: no further action this month.
    StoodDown,
    /// Dispersed: no action until a weekly 5D6 throws a double.
    Dispersed,
}

/// One resistance cell: its line in the Partisan log (34.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    pub name: String,
    pub members: u8,
    pub radio: bool,
    /// Units of explosives, 1 per mission, at most [`MAX_EXPLOSIVES`].
    pub explosives: u8,
    pub agent: Option<Agent>,
    pub standing: Standing,
}

impl Cell {
    /// A cell of `members` with no radio, no explosives, no agent.
    pub fn new(name: impl Into<String>, members: u8) -> Self {
        Self {
            name: name.into(),
            members: members.min(MAX_MEMBERS),
            radio: false,
            explosives: 0,
            agent: None,
            standing: Standing::Free,
        }
    }

    /// Active (34.2): 3 or more members, a radio and explosives, and not stood down or dispersed.
    ///
    /// Reading (FYOW 34.2 against 34.7's "more than 3 members"): 34.2 defines
    /// activity and says "3 or more"; 34.7's parenthesis restates it loosely.
    pub fn is_active(&self) -> bool {
        self.can_observe() && self.explosives > 0
    }

    /// May undertake an observation mission (34.5): "active cells can carry
    /// out observation missions without explosives but must have a radio".
    ///
    /// Reading (FYOW 34.5): a cell of 3 or more with a radio but no explosives
    /// counts as active for observation missions only.
    pub fn can_observe(&self) -> bool {
        self.members >= 3 && self.radio && self.standing == Standing::Free
    }

    /// Wiped out or captured.
    pub fn is_gone(&self) -> bool {
        self.members == 0
    }

    /// The cell as a force for the Dunnigan rules (34.11): valued as Regular
    /// Enhanced troops, 3 points a member.
    pub fn force(&self) -> Force {
        Force::new(self.name.clone(), u32::from(self.members) * POINTS_PER_MEMBER)
    }

    fn wipe_out(&mut self) {
        self.members = 0;
        self.radio = false;
        self.explosives = 0;
    }

    /// Loses `casualties` members; a cell left with none is wiped out.
    pub(crate) fn lose(&mut self, casualties: u8) {
        self.members = self.members.saturating_sub(casualties);
        if self.members == 0 {
            self.wipe_out();
        }
    }

    fn check_present(&self, section: &'static str) -> Result<(), PaperError> {
        if self.is_gone() { Err(PaperError::new(section, format!("{} has been wiped out", self.name))) } else { Ok(()) }
    }

    /// The 3D6 explosives throw (34.5): a double gains a unit, to at most 3.
    /// A cell already holding 3 does not throw.
    fn seek_explosives(&mut self, dice: &mut impl Roll) -> RuleEvent {
        let e = event("34.5 Supplies for resistance").actor(self.name.clone()).input("explosives", self.explosives, "");
        if self.explosives >= MAX_EXPLOSIVES {
            return e.outcome(json!({"thrown": false, "reason": "already holds the maximum of 3"}));
        }
        let faces = dice.throw(3, 6);
        let gained = double_with_agent(&faces, self.agent.is_some());
        if gained {
            self.explosives += 1;
        }
        e.input("agent", self.agent.is_some(), "+1 to either die")
            .dice(6, &faces)
            .outcome(json!({"gained": gained, "explosives": self.explosives}))
    }

    /// The 3D6 radio throw (34.6): a double obtains a radio. A cell with one does not throw.
    fn seek_radio(&mut self, dice: &mut impl Roll) -> RuleEvent {
        let e = event("34.6 Radios").actor(self.name.clone());
        if self.radio {
            return e.outcome(json!({"thrown": false, "reason": "already has a radio"}));
        }
        let faces = dice.throw(3, 6);
        self.radio = double_with_agent(&faces, self.agent.is_some());
        e.input("agent", self.agent.is_some(), "+1 to either die").dice(6, &faces).outcome(json!({"radio": self.radio}))
    }

    /// The start of a campaign month after the first (34.4–34.6): a cell
    /// stood down after a battle is free again; the 3D4 recruiting throw (a
    /// double adds as many members as the face of the double, to at most 10),
    /// then the 3D6 explosives throw and, lacking a radio, the 3D6 radio throw.
    ///
    /// Reading (FYOW 34.4): "the double number" is the face shown twice (a
    /// double 3 brings 3 recruits), not the two dice added.
    pub fn start_of_month(&mut self, dice: &mut impl Roll) -> Result<Vec<RuleEvent>, PaperError> {
        self.check_present("34.4")?;
        if self.standing == Standing::StoodDown {
            self.standing = Standing::Free;
        }
        let faces = dice.throw(3, 4);
        let recruits = double(&faces).unwrap_or(0);
        let before = self.members;
        self.members = (self.members + recruits).min(MAX_MEMBERS);
        let recruit = event("34.4 Recruiting members")
            .actor(self.name.clone())
            .input("members", before, "")
            .dice(4, &faces)
            .outcome(json!({"recruits": self.members - before, "members": self.members}));
        Ok(vec![recruit, self.seek_explosives(dice), self.seek_radio(dice)])
    }

    /// A Battlegroup's retreat after a Dunnigan battle, for partisans (34.11):
    /// in good order the cell is back at its hideout and takes no further
    /// action this month; in disarray it is dispersed.
    ///
    /// Reading (FYOW 33.8 against 34.11): 33.8 has all retreating partisans
    /// dispersed until a double on 3D6 each week; 34.11, the partisans' own
    /// section, distinguishes good order from disarray and asks 5D6 of a
    /// dispersed cell. 34.11 governs.
    pub fn retreat_from_battle(&mut self, order: RetreatOrder) -> RuleEvent {
        self.standing = match order {
            RetreatOrder::GoodOrder => Standing::StoodDown,
            RetreatOrder::Disarray => Standing::Dispersed,
        };
        event("34.11 Partisans in battle").actor(self.name.clone()).input("retreat", order, "").outcome(self.standing)
    }

    /// A dispersed cell's throw on the first day of a week (34.11): 5D6, a
    /// double ends the dispersal. Thrown in the month of the battle, the cell
    /// still takes no further action that month (stood down).
    pub fn weekly_reform(&mut self, same_month_as_battle: bool, dice: &mut impl Roll) -> Result<RuleEvent, PaperError> {
        if self.standing != Standing::Dispersed {
            return Err(PaperError::new("34.11", format!("{} is not dispersed", self.name)));
        }
        let faces = dice.throw(5, 6);
        if double(&faces).is_some() {
            self.standing = if same_month_as_battle { Standing::StoodDown } else { Standing::Free };
        }
        Ok(event("34.11 Retreat in Disarray")
            .actor(self.name.clone())
            .input("same_month_as_battle", same_month_as_battle, "no further action this month")
            .dice(6, &faces)
            .outcome(self.standing))
    }

    /// Attaches an agent (34.15): "Agents can be attached to any cell."
    pub fn attach_agent(&mut self, agent: Agent) -> Result<RuleEvent, PaperError> {
        self.check_present("34.15")?;
        if self.agent.is_some() {
            return Err(PaperError::new("34.15", format!("{} already has an agent", self.name)));
        }
        self.agent = Some(agent);
        Ok(event("34.15 Agent operations").actor(self.name.clone()).input("agent", agent, "").outcome("attached"))
    }

    /// The agent's throw in the first session of each day after he arrives
    /// (34.15): 2D10 (2D12 on a second mission, 2D20 on a third or later); a
    /// double captures him and the cell, the radio and the explosives.
    /// Returns whether they were captured.
    pub fn agent_daily_evasion(&mut self, dice: &mut impl Roll) -> Result<(bool, RuleEvent), PaperError> {
        let Some(agent) = self.agent else {
            return Err(PaperError::new("34.15", format!("{} has no agent", self.name)));
        };
        let sides = agent.evasion_die();
        let faces = dice.throw(2, sides);
        let captured = double(&faces).is_some();
        if captured {
            self.agent = None;
            self.wipe_out();
        }
        let e = event("34.15 Agent operations")
            .actor(self.name.clone())
            .input("mission", agent.mission, format!("2D{sides}"))
            .dice(sides, &faces)
            .outcome(json!({"captured": captured}));
        Ok((captured, e))
    }

    /// After casualties or captures, a cell's agent is lost on a 1 on a D6 (34.15).
    fn agent_after_losses(&mut self, dice: &mut impl Roll, events: &mut Vec<RuleEvent>) -> Option<AgentFate> {
        self.agent?;
        let f = dice.d6();
        let fate = if f == 1 {
            self.agent = None;
            AgentFate::Lost
        } else {
            AgentFate::Stays
        };
        events.push(
            event("34.15 Agent operations")
                .actor(self.name.clone())
                .input("losses", true, "the cell suffered casualties or had members captured")
                .dice(6, &[f])
                .outcome(fate),
        );
        Some(fate)
    }

    /// After the agent-induced mission, a surviving agent escapes home (34.15).
    ///
    /// Reading (FYOW 34.15): "after the Agent-induced attack" covers the
    /// observation mission he also makes automatic.
    fn agent_goes_home(&mut self, fate: Option<AgentFate>) -> Option<AgentFate> {
        match (self.agent.take(), fate) {
            (Some(agent), _) => Some(AgentFate::ReturnedHome { agent: Agent { mission: agent.mission + 1 } }),
            (None, fate) => fate,
        }
    }
}

/// The start of the campaign (34.1, 34.5, 34.6): a D3 of cells, a D6 of
/// members each, then each cell's 3D6 for a radio and 3D6 for explosives.
pub fn start_of_game(dice: &mut impl Roll) -> (Vec<Cell>, Vec<RuleEvent>) {
    let n = dice.d3();
    let mut events = Vec::new();
    let mut cells = Vec::new();
    let mut sizes = Vec::new();
    for i in 1..=n {
        let members = dice.d6();
        sizes.push(members);
        cells.push(Cell::new(format!("Cell {i}"), members));
    }
    events.push(
        event("34.1 Start of the game").dice(3, &[n]).dice(6, &sizes).outcome(json!({"cells": n, "members": sizes})),
    );
    for cell in &mut cells {
        let radio = cell.seek_radio(dice);
        let explosives = cell.seek_explosives(dice);
        events.push(radio);
        events.push(explosives);
    }
    (cells, events)
}

/// The start of each season after the first (34.4): a double on 2D6 adds a
/// new cell of D6 members.
///
/// Reading (FYOW 34.4): the new cell has neither radio nor explosives; it
/// throws for them at the start of each month like any cell lacking them.
pub fn new_cell_for_season(name: impl Into<String>, dice: &mut impl Roll) -> (Option<Cell>, RuleEvent) {
    let faces = dice.throw(2, 6);
    let e = event("34.4 Recruiting members").dice(6, &faces);
    if double(&faces).is_none() {
        return (None, e.outcome(json!({"new_cell": false})));
    }
    let members = dice.d6();
    let cell = Cell::new(name, members);
    let e = e.dice(6, &[members]).outcome(json!({"new_cell": cell.name, "members": members}));
    (Some(cell), e)
}

/// What a target is (34.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TargetKind {
    /// A key point: radio mast, railway station, bridge, level crossing, airfield …
    KeyPoint,
    /// A Battlegroup Supply Stockpile or supply depot.
    SupplyStockpile,
    /// A Battlegroup HQ: always difficult.
    BattlegroupHq,
    /// A supply route: always difficult.
    SupplyRoute,
}

/// A target on the partisans' list of six (34.7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    pub name: String,
    pub map_board: String,
    pub kind: TargetKind,
    /// Its Map Board is defended by an enemy Battlegroup of at least Company strength.
    pub company_defended: bool,
    /// A key point on the railway (a station, a junction, a bridge): an
    /// attack that destroys or damages it cuts the line there (FYOW 30.5).
    #[serde(default)]
    pub railway: bool,
}

impl Target {
    /// Difficult (34.7): defended by a Company or more; Battlegroup HQs and supply routes always.
    pub fn is_difficult(&self) -> bool {
        self.company_defended || matches!(self.kind, TargetKind::BattlegroupHq | TargetKind::SupplyRoute)
    }
}

/// The list of six targets to attack, or Map Boards to observe (34.7, 34.10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetList {
    targets: Vec<Target>,
    /// The target last taken off, which "cannot be put back on the list immediately".
    last_removed: Option<Target>,
}

impl TargetList {
    /// Six targets, at most 3 difficult, at most 2 of them appearing twice (34.7).
    ///
    /// Reading (FYOW 34.7): the limit of 3 difficult targets counts entries,
    /// so a difficult target listed twice counts twice.
    pub fn new(targets: Vec<Target>) -> Result<Self, PaperError> {
        Self::check(&targets)?;
        Ok(Self { targets, last_removed: None })
    }

    fn check(targets: &[Target]) -> Result<(), PaperError> {
        if targets.len() != 6 {
            return Err(PaperError::new("34.7", format!("the list holds 6 targets, not {}", targets.len())));
        }
        let difficult = targets.iter().filter(|t| t.is_difficult()).count();
        if difficult > 3 {
            return Err(PaperError::new("34.7", format!("a maximum of 3 targets may be difficult, not {difficult}")));
        }
        let mut twice = 0;
        for (i, t) in targets.iter().enumerate() {
            if targets[..i].contains(t) {
                continue;
            }
            match targets.iter().filter(|u| *u == t).count() {
                1 => {}
                2 => twice += 1,
                n => return Err(PaperError::new("34.7", format!("{} appears {n} times; at most twice", t.name))),
            }
        }
        if twice > 2 {
            return Err(PaperError::new("34.7", "a maximum of 2 targets may appear twice on the list"));
        }
        Ok(())
    }

    pub fn targets(&self) -> &[Target] {
        &self.targets
    }

    /// On the day of the mission, a D6 "chooses" the target (34.8): its index 0..6.
    pub fn choose(&self, cell: &str, dice: &mut impl Roll) -> (usize, RuleEvent) {
        let f = dice.d6();
        let i = usize::from(f - 1);
        let e = event("34.8 Attacking targets").actor(cell).dice(6, &[f]).outcome(json!({"target": self.targets[i]}));
        (i, e)
    }

    /// After the mission (34.10), a new target fills the vacant number; the
    /// target just taken off cannot be put straight back.
    pub fn replace(&mut self, index: usize, new: Target) -> Result<RuleEvent, PaperError> {
        let Some(old) = self.targets.get(index).cloned() else {
            return Err(PaperError::new("34.10", format!("the list has no number {}", index + 1)));
        };
        if new == old {
            return Err(PaperError::new("34.10", "the same target cannot be put back on the list immediately"));
        }
        let mut targets = self.targets.clone();
        targets[index] = new.clone();
        Self::check(&targets)?;
        self.targets = targets;
        self.last_removed = Some(old.clone());
        Ok(event("34.10 After the mission")
            .input("number", index + 1, "")
            .input("removed", &old, "")
            .outcome(json!({"new": new})))
    }

    /// The target last taken off the list.
    pub fn last_removed(&self) -> Option<&Target> {
        self.last_removed.as_ref()
    }
}

/// The mission a cell plans for the month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mission {
    Attack,
    Observation,
}

/// When a planned mission happens: the week of the marked diary card, the
/// day of that week (D3) and the session of that day (D6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissionDate {
    /// 1..=4.
    pub week: u8,
    /// 1..=3.
    pub day: u8,
    /// 1..=6.
    pub session: u8,
}

/// The first day of the month (34.8, 34.9): an active cell throws 5D6 and a
/// double means a mission this month (automatic with an agent, 34.15); its
/// date follows: the marked one of 4 diary cards, a D3 for the day, a D6 for
/// the session.
///
/// Reading (FYOW 34.8): one of 4 cards, one marked, shuffled into the weeks,
/// is a 1-in-4 draw: thrown here as a D4.
pub fn plan_mission(
    cell: &Cell,
    mission: Mission,
    dice: &mut impl Roll,
) -> Result<(Option<MissionDate>, RuleEvent), PaperError> {
    let able = match mission {
        Mission::Attack => cell.is_active(),
        Mission::Observation => cell.can_observe(),
    };
    if !able {
        return Err(PaperError::new(
            "34.7",
            format!(
                "{} is not active for {mission:?} (3+ members, a radio, explosives to attack, free to act)",
                cell.name
            ),
        ));
    }
    let mut e = event(match mission {
        Mission::Attack => "34.8 Attacking targets",
        Mission::Observation => "34.9 Observing targets",
    })
    .actor(cell.name.clone())
    .input("mission", mission, "");
    let happens = if cell.agent.is_some() {
        e = e.input("agent", true, "presence of an Agent makes the mission automatic");
        true
    } else {
        let faces = dice.throw(5, 6);
        e = e.dice(6, &faces);
        double(&faces).is_some()
    };
    if !happens {
        return Ok((None, e.outcome(json!({"activity": false}))));
    }
    let (week, day, session) = (dice.d4(), dice.d3(), dice.d6());
    let date = MissionDate { week, day, session };
    Ok((Some(date), e.dice(4, &[week]).dice(3, &[day]).dice(6, &[session]).outcome(date)))
}

/// The outcome of an attack (34.8 tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttackOutcome {
    Destroyed,
    /// Damaged: a Work & Task total to repair (FYOW 31).
    Damaged {
        work: u32,
    },
    FoiledByGuards,
    /// Failed, the cell escaped with casualties.
    FailedWithCasualties {
        casualties: u8,
    },
    WipedOut,
}

/// What a difficult attack does to supply (34.8, difficult targets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SupplyEffect {
    /// The Battlegroup Supply Stockpile is reduced to 0.
    StockpileLost,
    /// The stockpile is reduced by half: what remains is half, rounded up.
    StockpileHalved,
    /// One fewer Supply die is thrown for `days` days.
    SupplyDiceReduced { days: u8 },
    /// 1 pip is deducted from the Supply Throw dice for `days` days starting tomorrow.
    SupplyPipDeducted { days: u8 },
}

/// An attack carried out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackResult {
    pub outcome: AttackOutcome,
    pub supply: Option<SupplyEffect>,
    pub agent: Option<AgentFate>,
}

/// The remaining stockpile after [`SupplyEffect::StockpileHalved`].
pub fn halved_stockpile(stockpile: u32) -> u32 {
    stockpile.div_ceil(2)
}

/// A cell attacks `target` when activated in the chosen session (34.8),
/// using a unit of explosives: a D6 on the ordinary or difficult table, a D6
/// of casualties where the cell escapes with them, a D3 of days for a supply
/// route, then the agent's fate.
///
/// Reading (FYOW 34.8): a destroyed supply route means one fewer Supply die
/// (the book does not say how many fewer). "Reduced by half (rounded up)"
/// leaves half the stockpile, rounded up.
pub fn attack(
    cell: &mut Cell,
    target: &Target,
    dice: &mut impl Roll,
) -> Result<(AttackResult, Vec<RuleEvent>), PaperError> {
    if !cell.is_active() {
        return Err(PaperError::new(
            "34.5",
            format!("{} needs 3+ members, a radio and explosives to attack", cell.name),
        ));
    }
    cell.explosives -= 1;
    let difficult = target.is_difficult();
    let f = dice.d6();
    let mut thrown = vec![(6, f)];
    let (outcome, supply) = if difficult {
        // Difficult targets (34.8).
        match f {
            5 | 6 => (
                AttackOutcome::Destroyed,
                match target.kind {
                    TargetKind::SupplyStockpile => Some(SupplyEffect::StockpileLost),
                    TargetKind::SupplyRoute => {
                        let d = dice.d3();
                        thrown.push((3, d));
                        Some(SupplyEffect::SupplyDiceReduced { days: d })
                    }
                    _ => None,
                },
            ),
            4 => (
                AttackOutcome::Damaged { work: 100 },
                match target.kind {
                    TargetKind::SupplyStockpile => Some(SupplyEffect::StockpileHalved),
                    TargetKind::SupplyRoute => {
                        let d = dice.d3();
                        thrown.push((3, d));
                        Some(SupplyEffect::SupplyPipDeducted { days: d })
                    }
                    _ => None,
                },
            ),
            3 => {
                let c = dice.d6();
                thrown.push((6, c));
                (AttackOutcome::FailedWithCasualties { casualties: c }, None)
            }
            _ => (AttackOutcome::WipedOut, None),
        }
    } else {
        // Ordinary targets (34.8).
        match f {
            6 => (AttackOutcome::Destroyed, None),
            5 => (AttackOutcome::Damaged { work: 120 }, None),
            4 => (AttackOutcome::Damaged { work: 90 }, None),
            3 => (AttackOutcome::FoiledByGuards, None),
            2 => {
                let c = dice.d6();
                thrown.push((6, c));
                (AttackOutcome::FailedWithCasualties { casualties: c }, None)
            }
            _ => (AttackOutcome::WipedOut, None),
        }
    };
    let mut e = event("34.8 Attacking targets")
        .actor(cell.name.clone())
        .target(target.name.clone())
        .input("difficult", difficult, if difficult { "difficult target table" } else { "ordinary target table" })
        .input("kind", target.kind, "");
    for (sides, face) in &thrown {
        e = e.dice(*sides, &[*face]);
    }
    let mut events = vec![e.outcome(json!({"outcome": outcome, "supply": supply, "explosives_left": cell.explosives}))];
    let hurt = match outcome {
        AttackOutcome::FailedWithCasualties { casualties } => {
            cell.lose(casualties);
            true
        }
        AttackOutcome::WipedOut => {
            cell.wipe_out();
            true
        }
        _ => false,
    };
    let fate = if hurt { cell.agent_after_losses(dice, &mut events) } else { None };
    let agent = cell.agent_goes_home(fate);
    Ok((AttackResult { outcome, supply, agent }, events))
}

/// An observation mission carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObservationResult {
    pub spotted: bool,
    /// D4 casualties when spotted and the occupiers throw higher; the cell withdraws.
    pub casualties: u8,
    pub agent: Option<AgentFate>,
}

/// A cell observes a Map Board (34.9). The cell counts as a Recce element for
/// its own Detection Throw and the occupiers throw as normal (FYOW 16, not
/// here); `spotted` is the occupiers' result. If spotted, each side throws a
/// D6 and a higher occupier's throw costs the partisans D4 casualties before
/// they withdraw. A spotted cell may bring an anti-partisan sweep (34.14).
///
/// Reading (FYOW 34.9): a tie does not beat the partisans: no casualties.
pub fn observe(
    cell: &mut Cell,
    spotted: bool,
    dice: &mut impl Roll,
) -> Result<(ObservationResult, Vec<RuleEvent>), PaperError> {
    if !cell.can_observe() {
        return Err(PaperError::new("34.5", format!("{} needs 3+ members and a radio to observe", cell.name)));
    }
    let mut e = event("34.9 Observing targets").actor(cell.name.clone()).input(
        "spotted",
        spotted,
        "the occupiers' Detection Throw",
    );
    let mut casualties = 0;
    if spotted {
        let (p, o) = (dice.d6(), dice.d6());
        e = e.dice(6, &[p, o]);
        if o > p {
            casualties = dice.d4();
            e = e.dice(4, &[casualties]);
            cell.lose(casualties);
        }
    }
    let mut events = vec![e.outcome(json!({"casualties": casualties, "members": cell.members}))];
    let fate = if casualties > 0 { cell.agent_after_losses(dice, &mut events) } else { None };
    let agent = cell.agent_goes_home(fate);
    Ok((ObservationResult { spotted, casualties, agent }, events))
}

/// The weekly radio report (34.12) and the enemy listening units (34.13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Netted in: 5+ on a D10.
    pub connected: bool,
    /// The D6 score of a report that got through (2+).
    pub transmitted: Option<u8>,
    /// A listening unit threw the score or less on a D10: the radio is pinpointed.
    pub intercepted: bool,
}

/// At the start of each week the partisan leader calls in (34.12): 5+ on a
/// D10 connects, then a D6: 1 the report does not get through, 2+ it is
/// transmitted. Where `listening_units` are deployed, a transmitted report is
/// pinpointed on a D10 equal to or less than that score (34.13); an
/// intercept can bring an anti-partisan sweep (34.14).
pub fn weekly_report(
    cell: &Cell,
    listening_units: bool,
    dice: &mut impl Roll,
) -> Result<(Report, Vec<RuleEvent>), PaperError> {
    if !cell.radio {
        return Err(PaperError::new("34.12", format!("{} has no radio", cell.name)));
    }
    let net = dice.d10();
    let connected = net >= 5;
    let mut report = Report { connected, transmitted: None, intercepted: false };
    let mut e = event("34.12 Partisan communications").actor(cell.name.clone()).dice(10, &[net]);
    if connected {
        let score = dice.d6();
        e = e.dice(6, &[score]);
        if score >= 2 {
            report.transmitted = Some(score);
        }
    }
    let mut events = vec![e.outcome(json!({"connected": connected, "transmitted": report.transmitted}))];
    if let (Some(score), true) = (report.transmitted, listening_units) {
        let l = dice.d10();
        report.intercepted = l <= score;
        events.push(
            event("34.13 Enemy listening units")
                .target(cell.name.clone())
                .input("score", score, "the partisans' D6 report score")
                .dice(10, &[l])
                .outcome(json!({"intercepted": report.intercepted})),
        );
    }
    Ok((report, events))
}

/// What gave cause for a sweep (34.14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SweepTrigger {
    /// An intercept by the listening units.
    Intercept,
    /// A partisan attack, whatever the outcome.
    Attack,
    /// Partisans detected on a Map Board (34.9).
    Detected,
}

/// An anti-partisan sweep decided by the enemy commander's Command Decision (34.14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sweep {
    pub trigger: SweepTrigger,
    /// Map Boards between the commander's force and the partisan activity: 0..=3.
    pub map_boards_away: u8,
    /// Platoons in the sweeping infantry company: at least 3.
    pub platoons: u8,
}

/// A sweep's catch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepResult {
    pub captured: u8,
    /// Units of explosives taken.
    pub explosives_taken: u8,
    pub radio_taken: bool,
    pub agent: Option<AgentFate>,
}

/// The sweep at the start of the week after the incident (34.14): 3D6; on a
/// double "the number on each dice" is the number of partisans captured.
/// For each captured, a 6 on a D6 gives all the explosives and a 6 on
/// another D6 the radio, each independently.
///
/// Reading (FYOW 34.14): the face of the double is the number captured (two
/// 4s capture 4), at most the cell's members; each captured partisan throws
/// the explosives D6 then the radio D6.
pub fn anti_partisan_sweep(
    cell: &mut Cell,
    sweep: &Sweep,
    dice: &mut impl Roll,
) -> Result<(SweepResult, Vec<RuleEvent>), PaperError> {
    if sweep.map_boards_away > 3 {
        return Err(PaperError::new("34.14", "the sweeping force must be on or within 3 Map Boards of the activity"));
    }
    if sweep.platoons < 3 {
        return Err(PaperError::new("34.14", "the sweep needs an infantry company of at least 3 platoons"));
    }
    cell.check_present("34.14")?;
    let faces = dice.throw(3, 6);
    let captured = double(&faces).unwrap_or(0).min(cell.members);
    let mut e = event("34.14 Anti Partisan sweeps")
        .target(cell.name.clone())
        .input("trigger", sweep.trigger, "")
        .input("platoons", sweep.platoons, "")
        .dice(6, &faces);
    let (mut explosives_taken, mut radio_taken) = (0, false);
    let mut seizure = Vec::new();
    for _ in 0..captured {
        let (x, r) = (dice.d6(), dice.d6());
        seizure.extend([x, r]);
        if x == 6 && explosives_taken == 0 {
            explosives_taken = cell.explosives;
        }
        radio_taken |= r == 6 && cell.radio;
    }
    e = e.dice(6, &seizure);
    cell.lose(captured);
    if explosives_taken > 0 {
        cell.explosives = 0;
    }
    if radio_taken {
        cell.radio = false;
    }
    let mut events = vec![e.outcome(json!({
        "captured": captured, "explosives_taken": explosives_taken, "radio_taken": radio_taken, "members": cell.members,
    }))];
    let agent = if captured > 0 { cell.agent_after_losses(&mut *dice, &mut events) } else { None };
    Ok((SweepResult { captured, explosives_taken, radio_taken, agent }, events))
}

/// At the start of a campaign month the liberators try for agents (34.15):
/// one 2D10 attempt per active cell, a double buys an agent. Returns the agents bought.
pub fn buy_agents(active_cells: usize, dice: &mut impl Roll) -> (Vec<Agent>, RuleEvent) {
    let mut agents = Vec::new();
    let mut e = event("34.15 Agent operations").input("active_cells", active_cells, "one attempt for each active cell");
    for _ in 0..active_cells {
        let faces = dice.throw(2, 10);
        e = e.dice(10, &faces);
        if double(&faces).is_some() {
            agents.push(Agent::new());
        }
    }
    let e = e.outcome(json!({"agents": agents.len()}));
    (agents, e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::dice::Scripted;

    fn ready(members: u8) -> Cell {
        Cell { radio: true, explosives: 1, ..Cell::new("Maquis", members) }
    }

    fn target(name: &str, kind: TargetKind, company_defended: bool) -> Target {
        Target { name: name.into(), map_board: format!("MB {name}"), kind, company_defended, railway: false }
    }

    #[test]
    fn triple_counts_as_one_double() {
        assert_eq!(double(&[3, 3, 3]), Some(3));
        assert_eq!(double(&[1, 2, 3]), None);
        assert_eq!(double(&[5, 2, 5, 2, 6]), Some(5));
        assert!(double_with_agent(&[2, 3, 5], true));
        assert!(!double_with_agent(&[2, 4, 6], true));
        assert!(!double_with_agent(&[2, 3, 5], false));
    }

    #[test]
    fn start_of_game_cells_radio_and_explosives() {
        // D3 from a D6 face 3 -> 2 cells of 4 and 2; cell 1: radio 1,1,2 yes, explosives 1,2,3 no;
        // cell 2: radio 4,5,6 no, explosives 6,6,6 yes.
        let mut dice = Scripted::new([3, 4, 2, 1, 1, 2, 1, 2, 3, 4, 5, 6, 6, 6, 6]);
        let (cells, events) = start_of_game(&mut dice);
        assert_eq!(dice.remaining(), 0);
        assert_eq!(cells.len(), 2);
        assert_eq!((cells[0].members, cells[0].radio, cells[0].explosives), (4, true, 0));
        assert_eq!((cells[1].members, cells[1].radio, cells[1].explosives), (2, false, 1));
        assert!(!cells[0].is_active(), "no explosives");
        assert!(cells[0].can_observe());
        assert!(!cells[1].can_observe(), "fewer than 3 members and no radio");
        assert_eq!(events.len(), 5);
        assert!(events.iter().all(|e| e.kind == EventKind::Partisans));
    }

    #[test]
    fn monthly_recruits_explosives_radio_and_the_cap() {
        let mut cell = Cell::new("Maquis", 8);
        // 3D4 3,3,1: 3 recruits -> capped at 10; explosives 2,2,5 -> 1; radio 1,2,3 -> none.
        let mut dice = Scripted::new([3, 3, 1, 2, 2, 5, 1, 2, 3]);
        let events = cell.start_of_month(&mut dice).unwrap();
        assert_eq!(cell.members, MAX_MEMBERS);
        assert_eq!((cell.explosives, cell.radio), (1, false));
        assert_eq!(events[0].outcome["recruits"], 2);
        // Full of explosives and with a radio: only the recruiting dice.
        let mut cell = Cell { explosives: 3, radio: true, ..Cell::new("Maquis", 3) };
        let mut dice = Scripted::new([1, 2, 3]);
        cell.start_of_month(&mut dice).unwrap();
        assert_eq!((cell.members, cell.explosives), (3, 3));
        assert_eq!(dice.remaining(), 0);
        assert!(Cell::new("Gone", 0).start_of_month(&mut dice).is_err());
    }

    #[test]
    fn agent_adds_one_to_either_die_for_radio() {
        let mut cell = Cell { agent: Some(Agent::new()), ..Cell::new("Maquis", 4) };
        // 3D4 1,2,3; explosives 1,3,5 (no pair even with +1); radio 4,5,1 -> 4+1 = 5.
        let mut dice = Scripted::new([1, 2, 3, 1, 3, 5, 4, 5, 1]);
        cell.start_of_month(&mut dice).unwrap();
        assert!(cell.radio);
        assert_eq!(cell.explosives, 0);
    }

    #[test]
    fn new_cell_each_season_on_a_double() {
        let (c, _) = new_cell_for_season("Cell 3", &mut Scripted::new([2, 2, 5]));
        assert_eq!(c.unwrap().members, 5);
        let (c, e) = new_cell_for_season("Cell 3", &mut Scripted::new([2, 3]));
        assert!(c.is_none());
        assert_eq!(e.outcome["new_cell"], false);
    }

    #[test]
    fn target_list_limits() {
        let mut t = vec![
            target("mast", TargetKind::KeyPoint, false),
            target("mast", TargetKind::KeyPoint, false),
            target("bridge", TargetKind::KeyPoint, false),
            target("bridge", TargetKind::KeyPoint, false),
            target("HQ", TargetKind::BattlegroupHq, false),
            target("route", TargetKind::SupplyRoute, false),
        ];
        let mut list = TargetList::new(t.clone()).unwrap();
        // Replacing number 1 with the same target is refused; a new one is accepted.
        assert!(list.replace(0, t[0].clone()).is_err());
        list.replace(0, target("crossing", TargetKind::KeyPoint, false)).unwrap();
        assert_eq!(list.last_removed().unwrap().name, "mast");
        assert!(list.replace(9, t[0].clone()).is_err());
        // A third pair, a triple, a fourth difficult target, five targets: refused.
        let pairs: Vec<Target> = ["mast", "mast", "bridge", "bridge", "crossing", "crossing"]
            .map(|n| target(n, TargetKind::KeyPoint, false))
            .into();
        assert!(TargetList::new(pairs).unwrap_err().message.contains("appear twice"));
        t[1] = target("depot", TargetKind::SupplyStockpile, true);
        t[0] = target("depot", TargetKind::SupplyStockpile, false);
        assert!(TargetList::new(t.clone()).is_ok());
        t[0] = target("airfield", TargetKind::KeyPoint, true);
        assert!(TargetList::new(t.clone()).unwrap_err().message.contains("difficult"));
        t[0] = target("bridge", TargetKind::KeyPoint, false);
        assert!(TargetList::new(t.clone()).unwrap_err().message.contains("3 times"));
        t.pop();
        assert!(TargetList::new(t).is_err());
    }

    #[test]
    fn choosing_a_target_by_d6() {
        let list =
            TargetList::new((1..=6).map(|i| target(&format!("t{i}"), TargetKind::KeyPoint, false)).collect()).unwrap();
        let (i, _) = list.choose("Maquis", &mut Scripted::new([4]));
        assert_eq!(list.targets()[i].name, "t4");
    }

    #[test]
    fn monthly_activity_and_date() {
        let cell = ready(3);
        // 5D6 1,2,3,4,5: no double.
        let (d, _) = plan_mission(&cell, Mission::Attack, &mut Scripted::new([1, 2, 3, 4, 5])).unwrap();
        assert!(d.is_none());
        // 5D6 with a double; week D4 3, day D3 (face 5 -> 3), session 2.
        let (d, e) = plan_mission(&cell, Mission::Attack, &mut Scripted::new([1, 2, 3, 4, 4, 3, 5, 2])).unwrap();
        assert_eq!(d, Some(MissionDate { week: 3, day: 3, session: 2 }));
        assert_eq!(e.dice.len(), 8);
        // With an agent, no 5D6.
        let agent_cell = Cell { agent: Some(Agent::new()), ..ready(3) };
        let (d, _) = plan_mission(&agent_cell, Mission::Attack, &mut Scripted::new([1, 1, 1])).unwrap();
        assert_eq!(d, Some(MissionDate { week: 1, day: 1, session: 1 }));
        // Observation needs no explosives; attack does.
        let no_bang = Cell { explosives: 0, ..ready(3) };
        assert!(plan_mission(&no_bang, Mission::Attack, &mut Scripted::new([])).is_err());
        assert!(plan_mission(&no_bang, Mission::Observation, &mut Scripted::new([1, 2, 3, 4, 5])).is_ok());
        assert!(plan_mission(&ready(2), Mission::Observation, &mut Scripted::new([])).is_err());
    }

    #[test]
    fn ordinary_target_table() {
        let t = target("mast", TargetKind::KeyPoint, false);
        for (face, outcome) in [
            (6, AttackOutcome::Destroyed),
            (5, AttackOutcome::Damaged { work: 120 }),
            (4, AttackOutcome::Damaged { work: 90 }),
            (3, AttackOutcome::FoiledByGuards),
            (1, AttackOutcome::WipedOut),
        ] {
            let mut cell = ready(5);
            let (r, _) = attack(&mut cell, &t, &mut Scripted::new([face])).unwrap();
            assert_eq!(r.outcome, outcome);
            assert_eq!(cell.explosives, 0, "a unit per mission");
        }
        let mut cell = ready(5);
        let (r, _) = attack(&mut cell, &t, &mut Scripted::new([2, 4])).unwrap();
        assert_eq!(r.outcome, AttackOutcome::FailedWithCasualties { casualties: 4 });
        assert_eq!(cell.members, 1);
        assert!(attack(&mut cell, &t, &mut Scripted::new([])).is_err());
    }

    #[test]
    fn difficult_target_table_and_supply() {
        let depot = target("depot", TargetKind::SupplyStockpile, true);
        let route = target("route", TargetKind::SupplyRoute, false);
        let (r, _) = attack(&mut ready(5), &depot, &mut Scripted::new([5])).unwrap();
        assert_eq!((r.outcome, r.supply), (AttackOutcome::Destroyed, Some(SupplyEffect::StockpileLost)));
        let (r, _) = attack(&mut ready(5), &depot, &mut Scripted::new([4])).unwrap();
        assert_eq!((r.outcome, r.supply), (AttackOutcome::Damaged { work: 100 }, Some(SupplyEffect::StockpileHalved)));
        assert_eq!(halved_stockpile(7), 4);
        let (r, _) = attack(&mut ready(5), &route, &mut Scripted::new([6, 3])).unwrap();
        assert_eq!(r.supply, Some(SupplyEffect::SupplyDiceReduced { days: 2 }));
        let (r, _) = attack(&mut ready(5), &route, &mut Scripted::new([4, 1])).unwrap();
        assert_eq!(r.supply, Some(SupplyEffect::SupplyPipDeducted { days: 1 }));
        let mut cell = ready(5);
        let (r, _) = attack(&mut cell, &route, &mut Scripted::new([3, 6])).unwrap();
        assert_eq!(r.outcome, AttackOutcome::FailedWithCasualties { casualties: 6 });
        assert!(cell.is_gone());
        assert!(!cell.radio);
        let (r, _) = attack(&mut ready(5), &route, &mut Scripted::new([2])).unwrap();
        assert_eq!(r.outcome, AttackOutcome::WipedOut);
    }

    #[test]
    fn agent_lost_on_a_one_after_casualties_or_goes_home() {
        let t = target("mast", TargetKind::KeyPoint, false);
        let mut cell = Cell { agent: Some(Agent::new()), ..ready(5) };
        let (r, _) = attack(&mut cell, &t, &mut Scripted::new([2, 1, 1])).unwrap();
        assert_eq!(r.agent, Some(AgentFate::Lost));
        let mut cell = Cell { agent: Some(Agent::new()), ..ready(5) };
        let (r, _) = attack(&mut cell, &t, &mut Scripted::new([2, 1, 4])).unwrap();
        assert_eq!(r.agent, Some(AgentFate::ReturnedHome { agent: Agent { mission: 2 } }));
        assert!(cell.agent.is_none());
        let mut cell = Cell { agent: Some(Agent::new()), ..ready(5) };
        let (r, _) = attack(&mut cell, &t, &mut Scripted::new([6])).unwrap();
        assert_eq!(r.agent, Some(AgentFate::ReturnedHome { agent: Agent { mission: 2 } }));
    }

    #[test]
    fn observation_spotted_and_beaten() {
        let mut cell = Cell { explosives: 0, ..ready(6) };
        let (r, e) = observe(&mut cell, true, &mut Scripted::new([2, 5, 3])).unwrap();
        assert_eq!(r.casualties, 3);
        assert_eq!(cell.members, 3);
        assert_eq!(e.len(), 1);
        let (r, _) = observe(&mut cell, true, &mut Scripted::new([4, 4])).unwrap();
        assert_eq!(r.casualties, 0, "a tie does not beat the partisans");
        let (r, _) = observe(&mut cell, false, &mut Scripted::new([])).unwrap();
        assert!(!r.spotted);
        assert!(observe(&mut ready(2), false, &mut Scripted::new([])).is_err());
    }

    #[test]
    fn listening_unit_example() {
        // 34.13: the partisans throw 5 on the D10 to net in and 4 on the D6;
        // the listening unit needs 4 or less on a D10.
        let cell = ready(4);
        let (r, events) = weekly_report(&cell, true, &mut Scripted::new([5, 4, 4])).unwrap();
        assert_eq!(r, Report { connected: true, transmitted: Some(4), intercepted: true });
        assert_eq!(events[1].rule.section, "34.13 Enemy listening units");
        let (r, _) = weekly_report(&cell, true, &mut Scripted::new([5, 4, 5])).unwrap();
        assert!(!r.intercepted, "5 is more than 4");
    }

    #[test]
    fn weekly_report_fails_to_connect_or_get_through() {
        let cell = ready(4);
        let (r, _) = weekly_report(&cell, true, &mut Scripted::new([4])).unwrap();
        assert!(!r.connected);
        let (r, e) = weekly_report(&cell, true, &mut Scripted::new([10, 1])).unwrap();
        assert_eq!((r.connected, r.transmitted), (true, None));
        assert_eq!(e.len(), 1, "nothing to listen to");
        assert!(weekly_report(&Cell::new("Mute", 4), false, &mut Scripted::new([])).is_err());
    }

    #[test]
    fn sweep_captures_the_double_and_may_seize_kit() {
        let mut cell = Cell { explosives: 2, agent: Some(Agent::new()), ..ready(6) };
        let sweep = Sweep { trigger: SweepTrigger::Intercept, map_boards_away: 2, platoons: 3 };
        // 3D6 2,5,2: 2 captured; first captured 3 (explosives), 6 (radio); second 6, 1; agent D6 1.
        let (r, _) = anti_partisan_sweep(&mut cell, &sweep, &mut Scripted::new([2, 5, 2, 3, 6, 6, 1, 1])).unwrap();
        assert_eq!((r.captured, r.explosives_taken, r.radio_taken), (2, 2, true));
        assert_eq!(r.agent, Some(AgentFate::Lost));
        assert_eq!((cell.members, cell.explosives, cell.radio), (4, 0, false));
        // No double: nothing.
        let mut cell = ready(6);
        let (r, _) = anti_partisan_sweep(&mut cell, &sweep, &mut Scripted::new([1, 2, 3])).unwrap();
        assert_eq!(r.captured, 0);
        // Capture capped at the members.
        let mut cell = ready(3);
        let (r, _) = anti_partisan_sweep(&mut cell, &sweep, &mut Scripted::new([5, 5, 1, 1, 1, 1, 1, 1, 1])).unwrap();
        assert_eq!(r.captured, 3);
        assert!(cell.is_gone());
        let far = Sweep { map_boards_away: 4, ..sweep };
        assert!(anti_partisan_sweep(&mut ready(3), &far, &mut Scripted::new([])).is_err());
        let small = Sweep { platoons: 2, ..sweep };
        assert!(anti_partisan_sweep(&mut ready(3), &small, &mut Scripted::new([])).is_err());
    }

    #[test]
    fn agents_bought_attached_and_evading() {
        let (agents, _) = buy_agents(2, &mut Scripted::new([3, 3, 1, 2]));
        assert_eq!(agents, vec![Agent::new()]);
        let mut cell = ready(4);
        cell.attach_agent(agents[0]).unwrap();
        assert!(cell.attach_agent(Agent::new()).is_err());
        let (captured, e) = cell.agent_daily_evasion(&mut Scripted::new([1, 2])).unwrap();
        assert!(!captured);
        assert_eq!(e.dice[0].sides, 10);
        cell.agent = Some(Agent { mission: 3 });
        let (captured, e) = cell.agent_daily_evasion(&mut Scripted::new([17, 17])).unwrap();
        assert!(captured);
        assert_eq!(e.dice[0].sides, 20);
        assert!(cell.is_gone() && !cell.radio && cell.explosives == 0 && cell.agent.is_none());
        assert_eq!(Agent { mission: 2 }.evasion_die(), 12);
        assert!(cell.agent_daily_evasion(&mut Scripted::new([])).is_err());
    }

    #[test]
    fn partisans_in_battle_value_and_retreat() {
        let mut cell = ready(7);
        assert_eq!(cell.force().value, 21);
        assert_eq!(cell.force().combat_value(), 2);
        cell.retreat_from_battle(RetreatOrder::GoodOrder);
        assert_eq!(cell.standing, Standing::StoodDown);
        assert!(!cell.is_active());
        assert!(cell.weekly_reform(true, &mut Scripted::new([])).is_err());
        cell.start_of_month(&mut Scripted::new([1, 2, 3, 1, 2, 3])).unwrap();
        assert_eq!(cell.standing, Standing::Free);
        cell.retreat_from_battle(RetreatOrder::Disarray);
        cell.weekly_reform(true, &mut Scripted::new([1, 2, 3, 4, 5])).unwrap();
        assert_eq!(cell.standing, Standing::Dispersed);
        cell.weekly_reform(true, &mut Scripted::new([1, 2, 3, 4, 4])).unwrap();
        assert_eq!(cell.standing, Standing::StoodDown, "still no action this month");
        cell.retreat_from_battle(RetreatOrder::Disarray);
        cell.weekly_reform(false, &mut Scripted::new([6, 2, 3, 4, 6])).unwrap();
        assert_eq!(cell.standing, Standing::Free);
    }
}
