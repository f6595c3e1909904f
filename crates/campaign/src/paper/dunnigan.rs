//! The Dunnigan rules for "paper battles" (FYOW 33).
//!
//! One Combat Session is resolved by [`resolve_combat_session`]: the optional
//! pre-combat barrage and counter-battery fire (33.7.2 (iv)), the Combat
//! Results Table with its column shifts and high differentials (v)–(vii), the
//! losses and Strategic Condition of each side (ix), the supplemental effects
//! on machines, ammunition, engineers' equipment and buildings, and what
//! happens next ([`NextStep`]: a further Combat Session after NR, a retreat in
//! good order or disarray, a force destroyed). [`Situation::continue_after_nr`]
//! and [`Situation::second_attack`] build the next session's input;
//! [`retreat_into`] settles retreats into trouble (33.8) and
//! [`allocate_losses`] checks the attrition a player books against the ORBAT
//! (33.10).
//!
//! Values are points (the cost of the force); the Combat Value is points ÷ 10
//! (33.2). Losses are taken from the points value.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::paper::PaperError;

fn event(section: &str) -> RuleEvent {
    RuleEvent::new(EventKind::PaperBattle, RuleRef::new(Book::FightYourOwnWars, section))
}

/// The Combat Value of a points value (FYOW 33.2): divide by 10 and "ignore
/// any fraction or decimal". Values are summed before dividing, so a
/// Battlegroup of 1019 joined by reserves of 229 is worth 124, not 101 + 22.
pub fn combat_value(points: u32) -> u32 {
    points / 10
}

/// The two sides of a paper battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    Attacker,
    Defender,
}

/// The six Map Board descriptions of FYOW 33.3, with their colour codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Terrain {
    /// Open plains, barren areas, little cover (grey).
    OpenPlains,
    /// Farm or few buildings, light woods, some walls and hedges, wide beaches (orange).
    Farmland,
    /// Heavy woodland, broken ground, walls and hedges common, village/town, river or railway line (green).
    HeavyWoodland,
    /// Rugged, steep hills, cliffs, mountains, valleys, forests, bridges, few roads, broken coastline (brown).
    Rugged,
    /// City, factories, urban environment, or dense jungle or very heavy forests (gold).
    City,
    /// Fortified: wire, obstacles, tank ditches, pillboxes, casement guns, minefields (yellow);
    /// fixed at the outset of the campaign.
    Fortified,
}

impl Terrain {
    /// Terrain Effects Chart (FYOW 33.7.2 (vi)): the CRT shift, right positive, left negative.
    pub fn shift(self) -> i32 {
        match self {
            Terrain::OpenPlains => 1,     // 1 Right
            Terrain::Farmland => 0,       // 0
            Terrain::HeavyWoodland => -1, // 1 Left
            Terrain::Rugged => -2,        // 2 Left
            Terrain::City => -2,          // 2 Left
            Terrain::Fortified => -3,     // 3 Left
        }
    }
}

/// A Battlegroup Commander's competency (FYOW 7), as it moves the CRT throw (33.7.2 (vii)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Competency {
    BelowAverage,
    Average,
    AboveAverage,
}

/// The defenders' attitude on the Map Board (FYOW 15.3, 20.6), as the Battle Factors Chart reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Attitude {
    /// In Line of March: not deployed.
    Present,
    /// Standing by: not deployed.
    StandBy,
    /// In defensive positions.
    Deployed,
    /// A deployment elevated to a fortified position (15.3): still "deployed" for the chart.
    Fortified,
    /// In Rest mode (20.6).
    Rest,
    /// After a retreat in disarray (33.8), until re-deployed.
    Disarray,
}

impl Attitude {
    /// Battle Factors Chart rows for the attitude (FYOW 33.7.2 (vi)).
    fn shift(self) -> (i32, &'static str) {
        match self {
            Attitude::Rest | Attitude::Disarray => (2, "defenders at rest or in disarray: 2 right-shift"),
            Attitude::Present | Attitude::StandBy => (1, "defenders not deployed (stand-by, present): 1 right-shift"),
            // Reading (FYOW 15.3/33.3): a fortified *attitude* is a deployment; the
            // 3-left Fortified Map Board comes from the terrain, fixed at the outset.
            Attitude::Deployed | Attitude::Fortified => (0, "defenders deployed"),
        }
    }
}

/// A force committed to a paper battle: "any losses suffered only relate to
/// the force committed" (33.7.3 (ix)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Force {
    pub name: String,
    /// Points value of what is committed (33.2).
    pub value: u32,
    /// Artillery pieces of 100mm calibre or over: 1D6 each in a barrage (33.7.2 (iv)).
    pub heavy_guns: u32,
    /// The Battlegroup Commander's competency.
    pub commander: Competency,
    /// Whether it still has Movement Allowance: without, an AR/DR retreat is in disarray.
    pub movement_allowance_left: bool,
    /// Supporting aircraft and shipping (supplemental effects).
    pub machines: u32,
    /// Pieces of engineers' equipment (supplemental effects).
    pub engineer_pieces: u32,
    /// Buildings and bridges of the battlefield this force answers for (supplemental effects).
    pub buildings: u32,
}

impl Force {
    /// A force of `value` points with an average commander, Movement Allowance
    /// left, and no guns, machines, equipment or buildings.
    pub fn new(name: impl Into<String>, value: u32) -> Self {
        Self {
            name: name.into(),
            value,
            heavy_guns: 0,
            commander: Competency::Average,
            movement_allowance_left: true,
            machines: 0,
            engineer_pieces: 0,
            buildings: 0,
        }
    }

    /// The force's Combat Value (33.2).
    pub fn combat_value(&self) -> u32 {
        combat_value(self.value)
    }

    /// Multiple combat (33.7 (x)): a Battlegroup joining during the Contact
    /// Session adds its value (points summed before dividing by 10) and its
    /// guns, machines, equipment and buildings; the commander stays.
    pub fn join(&mut self, other: &Force) {
        self.value += other.value;
        self.heavy_guns += other.heavy_guns;
        self.machines += other.machines;
        self.engineer_pieces += other.engineer_pieces;
        self.buildings += other.buildings;
    }

    /// The force as it goes on after a session: its value after losses.
    pub fn after(&self, outcome: &SideOutcome) -> Force {
        Force { value: outcome.value_after, ..self.clone() }
    }
}

/// Which combat this session is (33.7.3 (x)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Engagement {
    /// The first Combat Session after contact.
    First,
    /// The session after an NR: "automatically becomes a further Combat
    /// session"; the defender is "already engaged (NR)" and cannot gain the −1.
    NrContinuation,
    /// A second attack on a defender obliged to retreat: no barrage.
    SecondBattle,
}

/// A further shift from another section (e.g. FYOW 28: German paratroops
/// without their weapons suffer 1 right-shift), right positive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtraShift {
    pub reason: String,
    pub shift: i32,
}

/// Everything but the forces that the CRT and its throw depend on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Situation {
    pub terrain: Terrain,
    pub engagement: Engagement,
    pub defender_attitude: Attitude,
    pub defender_rationed: bool,
    /// The attackers' Detection Throw found the defenders (33.5, 16).
    pub attackers_detected_defenders: bool,
    /// The defenders' Detection Throw found the attackers.
    pub defenders_detected_attackers: bool,
    /// The defenders' BPC came up before the attack in this Combat Session.
    pub defender_activated_first: bool,
    /// The attackers' Command Decision to lay down a pre-combat barrage.
    pub barrage: bool,
    /// The defenders' Command Decision to fire counter-battery.
    pub counter_battery: bool,
    /// 2nd attack against the same defender this session.
    pub second_attack_this_session: bool,
    /// 2nd attack against the same defender today, in a different session.
    pub second_attack_today: bool,
    /// The attackers are making a 2nd attack during the Outcome Session.
    pub attackers_second_attack_in_outcome_session: bool,
    /// The defenders have been attackers today.
    pub defenders_attacked_today: bool,
    /// Shifts from other sections.
    pub extra_shifts: Vec<ExtraShift>,
}

impl Situation {
    /// A first Combat Session on `terrain` against defenders in `attitude`,
    /// both sides detected, the attackers activated first, no barrage, no other factor.
    pub fn new(terrain: Terrain, defender_attitude: Attitude) -> Self {
        Self {
            terrain,
            engagement: Engagement::First,
            defender_attitude,
            defender_rationed: false,
            attackers_detected_defenders: true,
            defenders_detected_attackers: true,
            defender_activated_first: false,
            barrage: false,
            counter_battery: false,
            second_attack_this_session: false,
            second_attack_today: false,
            attackers_second_attack_in_outcome_session: false,
            defenders_attacked_today: false,
            extra_shifts: Vec::new(),
        }
    }

    /// The next session after an NR (33.7.3 (x)): a further Combat Session
    /// against a defender already engaged. Barrage decisions and activation
    /// order are the new session's, so they start cleared.
    pub fn continue_after_nr(&self) -> Situation {
        Situation {
            engagement: Engagement::NrContinuation,
            barrage: false,
            counter_battery: false,
            defender_activated_first: false,
            ..self.clone()
        }
    }

    /// A second attack on a defender obliged to retreat, the attackers being
    /// activated before it (33.7.3 (x)): the disarray inflicted "will now count
    /// against them", a retreat in good order leaves them deployed (33.8), and
    /// no barrage may be fired.
    pub fn second_attack(
        &self,
        defender_retreat: RetreatOrder,
        same_session: bool,
        in_outcome_session: bool,
    ) -> Situation {
        Situation {
            engagement: Engagement::SecondBattle,
            defender_attitude: match defender_retreat {
                RetreatOrder::Disarray => Attitude::Disarray,
                RetreatOrder::GoodOrder => Attitude::Deployed,
            },
            barrage: false,
            counter_battery: false,
            defender_activated_first: false,
            second_attack_this_session: same_session,
            second_attack_today: !same_session,
            attackers_second_attack_in_outcome_session: in_outcome_session,
            ..self.clone()
        }
    }

    fn check(&self) -> Result<(), PaperError> {
        if (self.barrage || self.counter_battery) && self.engagement == Engagement::SecondBattle {
            return Err(PaperError::new(
                "33.7.3 (x)",
                "pre-combat artillery barrages cannot be undertaken in second battles",
            ));
        }
        if self.barrage && !self.attackers_detected_defenders {
            return Err(PaperError::new("33.7.2 (iv)", "a barrage needs the attackers to have detected the defenders"));
        }
        if self.counter_battery && !self.defenders_detected_attackers {
            return Err(PaperError::new(
                "33.7.2 (iv)",
                "counter-battery fire needs the defenders to have detected the attackers",
            ));
        }
        if self.counter_battery && self.defender_activated_first {
            return Err(PaperError::new(
                "33.7.2 (iv)",
                "counter-battery fire is only for defenders activated after the attackers",
            ));
        }
        if self.second_attack_this_session && self.second_attack_today {
            return Err(PaperError::new(
                "33.7.2 (vi)",
                "a 2nd attack is either this session or today in a different session, not both",
            ));
        }
        if self.engagement == Engagement::SecondBattle && !self.second_attack_this_session && !self.second_attack_today
        {
            return Err(PaperError::new("33.7.2 (vi)", "a second battle is a 2nd attack this session or today"));
        }
        Ok(())
    }

    /// The Battle Factors Chart (FYOW 33.7.2 (vi)), row for row, plus the
    /// terrain and any extra shifts: (shift, why).
    fn shifts(&self) -> Vec<(i32, String)> {
        let mut s = vec![(self.terrain.shift(), format!("terrain {:?} (Terrain Effects Chart)", self.terrain))];
        let (a, why) = self.defender_attitude.shift();
        if a != 0 {
            s.push((a, why.to_string()));
        }
        let rows: [(bool, i32, &str); 8] = [
            (self.defender_rationed, 2, "defenders are Rationed: 2 right-shift"),
            (!self.attackers_detected_defenders, -1, "undetected defenders on the Map Board: 1 left-shift"),
            (!self.defenders_detected_attackers, 1, "undetected attackers entering Map Board: 1 right-shift"),
            (
                self.engagement == Engagement::NrContinuation,
                1,
                "attack against Battlegroup already engaged (NR): 1 right-shift",
            ),
            (self.second_attack_this_session, 1, "2nd attack against same defender this session: 1 right-shift"),
            (self.second_attack_today, 1, "2nd attack against same defender today (different sessions): 1 right-shift"),
            (
                self.attackers_second_attack_in_outcome_session,
                -1,
                "attackers making a 2nd attack during the Outcome Session: 1 left-shift",
            ),
            (
                self.defenders_attacked_today,
                1,
                "attack against Battlegroup that has been an attacker today: 1 right-shift",
            ),
        ];
        s.extend(rows.iter().filter(|r| r.0).map(|r| (r.1, r.2.to_string())));
        s.extend(self.extra_shifts.iter().map(|e| (e.shift, e.reason.clone())));
        s
    }
}

/// A result of the Combat Results Table (FYOW 33.7.2 (v)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CrtResult {
    /// No result.
    Nr,
    Ar,
    Ar2,
    Ar3,
    Dr,
    Dr2,
    Dr3,
    Dr4,
    Dr5,
}

impl CrtResult {
    /// The side obliged to retreat; none on NR.
    pub fn loser(self) -> Option<Side> {
        match self {
            CrtResult::Nr => None,
            CrtResult::Ar | CrtResult::Ar2 | CrtResult::Ar3 => Some(Side::Attacker),
            _ => Some(Side::Defender),
        }
    }

    /// 0 for NR, 1 for AR/DR, 2 for AR2/DR2 … 5 for DR5.
    pub fn level(self) -> usize {
        match self {
            CrtResult::Nr => 0,
            CrtResult::Ar | CrtResult::Dr => 1,
            CrtResult::Ar2 | CrtResult::Dr2 => 2,
            CrtResult::Ar3 | CrtResult::Dr3 => 3,
            CrtResult::Dr4 => 4,
            CrtResult::Dr5 => 5,
        }
    }
}

/// The CRT's column headings: a column applies when the differential is above
/// its figure, in tenths ("<1", >1.3, >1.6, >1.9, >2.2, >2.5, >2.8, >3.1, >3.7, >4.3, >5).
///
/// Reading (FYOW 33.7.2 (v)): no column is printed for 1.0 to 1.3. Read as a
/// continuous scale, every column runs from its heading up to the next one,
/// so the first column ("<1") covers every differential up to and including
/// 1.3 and a differential of exactly 1.6 is still in the ">1.3" column.
const COLUMN_ABOVE_TENTHS: [u64; 10] = [13, 16, 19, 22, 25, 28, 31, 37, 43, 50];

/// The column labels, for the log.
const COLUMN_LABELS: [&str; 11] =
    ["<1 (to 1.3)", ">1.3", ">1.6", ">1.9", ">2.2", ">2.5", ">2.8", ">3.1", ">3.7", ">4.3", ">5"];

/// The Combat Results Table (FYOW 33.7.2 (v)), row for row: D10 10 down to 1,
/// columns as [`COLUMN_LABELS`].
fn crt(row: u8, column: usize) -> CrtResult {
    use CrtResult::*;
    const TABLE: [[CrtResult; 11]; 10] = [
        /* 10 */ [Dr, Dr, Dr, Dr2, Dr2, Dr2, Dr2, Dr3, Dr5, Dr5, Dr5],
        /*  9 */ [Nr, Dr, Dr, Dr2, Dr2, Dr2, Dr2, Dr3, Dr4, Dr5, Dr5],
        /*  8 */ [Nr, Nr, Dr, Dr, Dr2, Dr2, Dr2, Dr3, Dr3, Dr4, Dr5],
        /*  7 */ [Ar, Nr, Nr, Dr, Dr, Dr2, Dr2, Dr2, Dr3, Dr3, Dr4],
        /*  6 */ [Ar, Ar, Nr, Nr, Dr, Dr, Dr2, Dr2, Dr2, Dr3, Dr3],
        /*  5 */ [Ar, Ar, Ar, Nr, Nr, Dr, Dr, Dr2, Dr2, Dr2, Dr3],
        /*  4 */ [Ar, Ar, Ar, Ar, Nr, Nr, Dr, Dr, Dr2, Dr2, Dr2],
        /*  3 */ [Ar, Ar, Ar, Ar, Ar, Nr, Dr, Dr, Dr, Dr2, Dr2],
        /*  2 */ [Ar2, Ar, Ar, Ar, Ar, Ar, Nr, Dr, Dr, Dr, Dr2],
        /*  1 */ [Ar3, Ar2, Ar, Ar, Ar, Ar, Ar, Nr, Dr, Dr, Dr],
    ];
    TABLE[usize::from(10 - row)][column]
}

/// The CRT column of an attack of Combat Value `a` on `d` (both above 0), before shifts.
fn base_column(a: u32, d: u32) -> usize {
    COLUMN_ABOVE_TENTHS.iter().filter(|&&t| 10 * u64::from(a) > t * u64::from(d)).count()
}

/// Strategic Condition imposed by the Losses Suffered Table (FYOW uses Amber
/// for FYOB's Yellow).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum StrategicCondition {
    Green,
    Amber,
    Red,
}

impl StrategicCondition {
    /// A force's condition after a battle that named `named` (33.7.3 (ix)).
    ///
    /// Reading (FYOW 33.7.3 (ix), 33.9): the table sets no better condition
    /// than the force had; Amber and Red are only repaired by the FYOB rules.
    pub fn after_battle(current: StrategicCondition, named: Option<StrategicCondition>) -> StrategicCondition {
        named.map_or(current, |n| current.max(n))
    }
}

/// One cell of the Losses Suffered Table: percent of the force value lost and
/// the Strategic Condition named (none where the cell names none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LossCell {
    pub percent: u8,
    pub condition: Option<StrategicCondition>,
}

const fn lc(percent: u8, condition: Option<StrategicCondition>) -> LossCell {
    LossCell { percent, condition }
}

/// The Losses Suffered Table (FYOW 33.7.3 (ix)), D6 1..6 per row.
///
/// Reading: the table's merged cells were lost in conversion, leaving each
/// entry in the column where its span starts and blanks after it. Read as a
/// continuous scale, each entry runs rightward over the blanks up to the next
/// entry (so NR reads 1 none, 2–4 5%, 5–6 10%). Cells that name no Strategic
/// Condition ("1% of force lost", "100% ... lost") leave it as it was.
const LOSSES: [[LossCell; 6]; 11] = {
    use StrategicCondition::{Amber as A, Green as G, Red as R};
    [
        // NR [both forces affected]: No losses | 5% SC Green (2–4) | 10% SC Green (5–6)
        [lc(0, None), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(10, Some(G)), lc(10, Some(G))],
        // AR/DR [winner]: 5% Green (1–4) | 10% Green (5–6)
        [lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(10, Some(G)), lc(10, Some(G))],
        // AR/DR [loser]: 10% Green (1–3) | 25% Amber (4–6)
        [lc(10, Some(G)), lc(10, Some(G)), lc(10, Some(G)), lc(25, Some(A)), lc(25, Some(A)), lc(25, Some(A))],
        // AR2/DR2 [winner]: 1% | 5% Green (2–5) | 10% Green
        [lc(1, None), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(10, Some(G))],
        // AR2/DR2 [loser]: 10% Amber (1–2) | 25% Amber (3–5) | 40% Red
        [lc(10, Some(A)), lc(10, Some(A)), lc(25, Some(A)), lc(25, Some(A)), lc(25, Some(A)), lc(40, Some(R))],
        // AR3/DR3 [winner]: 1% (1–2) | 5% Green (3–5) | 10% Green
        [lc(1, None), lc(1, None), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(10, Some(G))],
        // AR3/DR3 [loser]: 10% Amber | 25% Amber (2–4) | 50% Red (5–6)
        [lc(10, Some(A)), lc(25, Some(A)), lc(25, Some(A)), lc(25, Some(A)), lc(50, Some(R)), lc(50, Some(R))],
        // DR4 [winner]: 1% (1–3) | 5% Green (4–6)
        [lc(1, None), lc(1, None), lc(1, None), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G))],
        // DR4 [loser]: 25% Amber (1–3) | 50% Red (4–5) | 100%
        [lc(25, Some(A)), lc(25, Some(A)), lc(25, Some(A)), lc(50, Some(R)), lc(50, Some(R)), lc(100, None)],
        // DR5 [winner]: 1% SC Green (1–6)
        [lc(1, Some(G)), lc(1, Some(G)), lc(1, Some(G)), lc(1, Some(G)), lc(1, Some(G)), lc(1, Some(G))],
        // DR5 [loser]: 50% Amber | 75% Red (2–4) | 100% (5–6)
        [lc(50, Some(A)), lc(75, Some(R)), lc(75, Some(R)), lc(75, Some(R)), lc(100, None), lc(100, None)],
    ]
};

/// How a force fared: the row it reads in the losses and supplemental tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// An NR: both forces affected alike.
    NoResult,
    Winner,
    Loser,
}

fn losses_row(result: CrtResult, role: Role) -> usize {
    match role {
        Role::NoResult => 0,
        Role::Winner => 2 * result.level() - 1,
        Role::Loser => 2 * result.level(),
    }
}

/// How much of a force's ammunition stock a battle used (Supplemental Effects table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AmmoUsed {
    None,
    Quarter,
    Half,
    ThreeQuarters,
    All,
    /// "All used and stockpile lost" (DR5).
    AllAndStockpileLost,
}

/// Supplemental effects on one force (FYOW 33.7.3, "Supplemental Effects
/// suffered by forces after a conflict").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Supplemental {
    /// Damage to each supporting aircraft or ship, in order.
    pub machine_damage: Vec<u8>,
    /// DR5 loser: "All machines lost".
    pub machines_lost: bool,
    pub ammo: AmmoUsed,
    pub engineer_pieces_lost: u32,
    /// Damage to each building or bridge, in order.
    pub building_damage: Vec<u8>,
}

/// The supplemental row a force reads: 0 for "NR/winner", else the loser's
/// level (1 AR/DR … 5 DR5).
///
/// Reading: the table's blank cells were vertically merged cells; each blank
/// repeats the entry above it (AR3/DR3 reads as AR2/DR2; the AR/DR ammunition
/// and equipment cells read as NR/winner; every row's building damage reads as
/// the one entry given). DR4's ammunition cell gives no face 6: as the worse
/// end of a continuous scale it reads "all used".
fn supplemental_row(result: CrtResult, role: Role) -> usize {
    if role == Role::Loser { result.level() } else { 0 }
}

/// D6 minus this per machine ("Aircraft/shipping damaged/lost"); `None` is "All machines lost".
fn machine_deduction(row: usize) -> Option<u8> {
    match row {
        0 => Some(3),     // NR/winner: D6 minus 3
        1 => Some(2),     // AR/DR: D6 minus 2
        2 | 3 => Some(1), // AR2/DR2 (AR3/DR3 merged): D6 minus 1
        4 => Some(0),     // DR4: D6
        _ => None,        // DR5: all machines lost
    }
}

/// "Ammo stocks": the D6 read by row; `None` for DR5's "all used and stockpile lost".
fn ammo_used(row: usize, face: u8) -> AmmoUsed {
    use AmmoUsed::*;
    match (row, face) {
        // NR/winner (and AR/DR, merged): 2,3 = 1/4; 4,5 = 1/2; 6 = 3/4.
        (0 | 1, 1) => None,
        (0 | 1, 2 | 3) => Quarter,
        (0 | 1, 4 | 5) => Half,
        (0 | 1, _) => ThreeQuarters,
        // AR2/DR2 (and AR3/DR3, merged): 1 = 1/4; 2,3 = 1/2; 4,5 = 3/4; 6 = all.
        (2 | 3, 1) => Quarter,
        (2 | 3, 2 | 3) => Half,
        (2 | 3, 4 | 5) => ThreeQuarters,
        (2 | 3, _) => All,
        // DR4: 1,2 = 1/2; 3,4,5 (and 6) = all.
        (4, 1 | 2) => Half,
        (4, _) => All,
        _ => AllAndStockpileLost,
    }
}

/// "Engineers equipment": a piece is lost on this or less (D6 each); DR5 loses all.
fn engineer_loss_on(row: usize) -> Option<u8> {
    match row {
        0 | 1 => Some(2), // 1,2 = lost
        2 | 3 => Some(3), // 1,2,3 = lost
        4 => Some(4),     // 1,2,3,4 = lost
        _ => None,        // all lost
    }
}

/// How a retreat is made (33.7.3 (viii), 33.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RetreatOrder {
    /// Moves one Map Board away from the enemy and may count as deployed there.
    GoodOrder,
    /// Moves one Map Board away, not deployed: deploying takes the next 2
    /// daylight sessions, and an attack on it gets 2 right-shifts.
    Disarray,
}

/// What happens after a Combat Session (33.7.3 (viii), (x)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NextStep {
    /// NR: the next session is automatically a further Combat Session
    /// ([`Situation::continue_after_nr`]); either force may instead choose to
    /// retreat one Map Board away in good order.
    FurtherCombatSession,
    /// `side` retreats one Map Board away from the enemy in the Outcome
    /// Session (automatically, no Movement Test, FYOW 14); the winner may
    /// remain. When the defenders retreat, the attackers may attack again if
    /// activated before them ([`Situation::second_attack`]).
    Retreat { side: Side, order: RetreatOrder },
    /// `side` has lost all its value.
    Destroyed { side: Side },
}

/// The CRT throw of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrtThrow {
    /// 0 = "<1" … 10 = ">5", after shifts.
    pub column: usize,
    pub d10: u8,
    /// Added for right shifts beyond the last column and for every 5 (or part) above 5.
    pub added: u32,
    /// Commander and activation modifiers (33.7.2 (vii)).
    pub modifier: i32,
    /// The row read, 1..=10.
    pub row: u8,
    pub result: CrtResult,
}

/// One side's account of a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideOutcome {
    pub name: String,
    pub value_before: u32,
    /// Points lost to the enemy barrage or counter-battery fire.
    pub barrage_loss: u32,
    /// Points lost by the Losses Suffered Table.
    pub battle_loss: u32,
    pub value_after: u32,
    pub role: Role,
    /// The Strategic Condition named by the losses table, if any.
    pub condition: Option<StrategicCondition>,
    pub supplemental: Option<Supplemental>,
}

/// A Combat Session resolved: losses per side, what happens next, every throw.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CombatSession {
    pub attacker: SideOutcome,
    pub defender: SideOutcome,
    /// `None` when the barrage left a force without Combat Value.
    pub crt: Option<CrtThrow>,
    pub next: NextStep,
    pub events: Vec<RuleEvent>,
}

/// Pre-combat barrage or counter-battery fire (33.7.2 (iv)): 1D6 per piece
/// of 100mm or over, the score in points lost by the target.
fn artillery(firer: &Force, target: &str, target_value: u32, counter: bool, dice: &mut impl Roll) -> (u32, RuleEvent) {
    let faces = dice.throw(firer.heavy_guns as usize, 6);
    let score: u32 = faces.iter().map(|&f| u32::from(f)).sum();
    let lost = score.min(target_value);
    let (section, what) = if counter {
        ("33.7.2 (iv) Counter-battery fire", "defenders activated after the attackers, attackers detected")
    } else {
        ("33.7.2 (iv) Pre-combat artillery barrage", "attackers detected the defenders")
    };
    let e = event(section)
        .actor(firer.name.clone())
        .target(target)
        .input("guns_100mm_and_over", firer.heavy_guns, "1D6 per artillery piece of 100mm or over")
        .input("decision", true, what)
        .dice(6, &faces)
        .outcome(json!({"score": score, "points_lost": lost, "value_after": target_value - lost}));
    (lost, e)
}

/// Supplemental effects on one force.
fn supplemental(force: &Force, result: CrtResult, role: Role, dice: &mut impl Roll) -> (Supplemental, RuleEvent) {
    let row = supplemental_row(result, role);
    let mut e = event("33.7.3 (ix) Supplemental Effects").actor(force.name.clone()).input(
        "row",
        ["NR/winner", "AR/DR", "AR2/DR2", "AR3/DR3", "DR4", "DR5"][row],
        format!("{result:?} as {role:?}"),
    );
    let (machine_damage, machines_lost) = match machine_deduction(row) {
        Some(minus) => {
            let faces = dice.throw(force.machines as usize, 6);
            e = e.dice(6, &faces);
            (faces.iter().map(|&f| f.saturating_sub(minus)).collect(), false)
        }
        None => (Vec::new(), force.machines > 0),
    };
    let ammo = if row == 5 {
        AmmoUsed::AllAndStockpileLost
    } else {
        let f = dice.d6();
        e = e.dice(6, &[f]);
        ammo_used(row, f)
    };
    let engineer_pieces_lost = match engineer_loss_on(row) {
        Some(on) => {
            let faces = dice.throw(force.engineer_pieces as usize, 6);
            e = e.dice(6, &faces);
            faces.iter().filter(|&&f| f <= on).count() as u32
        }
        None => force.engineer_pieces,
    };
    // Building & Bridge damage: (D6 for each) 1, 2, 3 = that much damage.
    let faces = dice.throw(force.buildings as usize, 6);
    e = e.dice(6, &faces);
    let building_damage: Vec<u8> = faces.iter().map(|&f| if f <= 3 { f } else { 0 }).collect();
    let s = Supplemental { machine_damage, machines_lost, ammo, engineer_pieces_lost, building_damage };
    let e = e
        .input("machines", force.machines, "")
        .input("engineer_pieces", force.engineer_pieces, "")
        .input("buildings", force.buildings, "")
        .outcome(&s);
    (s, e)
}

/// Resolves one Combat Session of a paper battle (FYOW 33.7.2–33.7.3):
/// barrage and counter-battery, the CRT throw, each side's losses and
/// supplemental effects, and the next step. Dice are thrown in that order:
/// barrage D6s, counter-battery D6s, the CRT D10, the attacker's then the
/// defender's losses D6, then the attacker's and the defender's supplemental
/// dice (machines, ammunition, engineers' pieces, buildings).
pub fn resolve_combat_session(
    attacker: &Force,
    defender: &Force,
    situation: &Situation,
    dice: &mut impl Roll,
) -> Result<CombatSession, PaperError> {
    if attacker.combat_value() == 0 {
        return Err(PaperError::new("33.2", format!("the attacking force {} has no Combat Value", attacker.name)));
    }
    if defender.combat_value() == 0 {
        return Err(PaperError::new("33.2", format!("the defending force {} has no Combat Value", defender.name)));
    }
    situation.check()?;
    let mut events = Vec::new();
    let (mut att_value, mut def_value) = (attacker.value, defender.value);
    let (mut att_barrage, mut def_barrage) = (0, 0);
    if situation.barrage {
        let (lost, e) = artillery(attacker, &defender.name, def_value, false, dice);
        def_value -= lost;
        def_barrage = lost;
        events.push(e);
    }
    if situation.counter_battery {
        let (lost, e) = artillery(defender, &attacker.name, att_value, true, dice);
        att_value -= lost;
        att_barrage = lost;
        events.push(e);
    }
    let side = |f: &Force, before: u32, barrage_loss: u32, after: u32, role| SideOutcome {
        name: f.name.clone(),
        value_before: before,
        barrage_loss,
        battle_loss: 0,
        value_after: after,
        role,
        condition: None,
        supplemental: None,
    };
    // Reading (FYOW 33.7.2 (iv)): a barrage that leaves a force with a Combat
    // Value of 0 leaves it nothing to fight with; the CRT is not consulted and
    // the rest of that force's value is lost.
    for (cv, lost_side) in [(combat_value(def_value), Side::Defender), (combat_value(att_value), Side::Attacker)] {
        if cv == 0 {
            let (a_after, d_after) = if lost_side == Side::Defender { (att_value, 0) } else { (0, def_value) };
            let mut a = side(attacker, attacker.value, att_barrage, a_after, Role::Winner);
            let mut d = side(defender, defender.value, def_barrage, d_after, Role::Winner);
            let loser = if lost_side == Side::Defender { &mut d } else { &mut a };
            loser.battle_loss = value_left(loser);
            loser.role = Role::Loser;
            events.push(
                event("33.7.2 (iv) Pre-combat artillery barrage")
                    .actor(loser.name.clone())
                    .input("value_after_barrage", loser.value_before - loser.barrage_loss, "Combat Value 0")
                    .outcome(json!({"destroyed": lost_side})),
            );
            return Ok(CombatSession {
                attacker: a,
                defender: d,
                crt: None,
                next: NextStep::Destroyed { side: lost_side },
                events,
            });
        }
    }

    // (v)-(vi): the differential, the column and its shifts.
    let (a, d) = (combat_value(att_value), combat_value(def_value));
    let base = base_column(a, d);
    let above_five = 10 * u64::from(a) > 50 * u64::from(d);
    let shifts = situation.shifts();
    let right: i32 = shifts.iter().map(|s| s.0.max(0)).sum();
    let left: i32 = shifts.iter().map(|s| (-s.0).max(0)).sum();
    // "If the differential is above 5, IGNORE any left-shift requirements."
    let net = if above_five { right } else { right - left };
    let raw = base as i32 + net;
    // Reading (FYOW 33.7.2 (v)): only shifts beyond the right-hand column are
    // turned into D10 additions; a shift left of "<1" stays in that column.
    let column = raw.clamp(0, 10) as usize;
    let beyond = (raw - 10).max(0) as u32;
    // "add 1 to the d10 throw for every 5 (or part of) above 5"
    let over_five = if above_five { (u64::from(a) - 5 * u64::from(d)).div_ceil(5 * u64::from(d)) as u32 } else { 0 };
    let added = beyond + over_five;

    // (vii) modifiers to the D10.
    let mut mods: Vec<(i32, &str)> = Vec::new();
    if situation.defender_activated_first {
        if situation.engagement == Engagement::NrContinuation {
            mods.push((0, "defender activated first, but cannot gain the -1 after an NR (33.7.3 (x))"));
        } else {
            mods.push((-1, "defender activated before the attack during the Combat Session"));
        }
    }
    match attacker.commander {
        Competency::AboveAverage => mods.push((1, "attacking BC above average")),
        Competency::BelowAverage => mods.push((-1, "attacking BC below average")),
        Competency::Average => {}
    }
    match defender.commander {
        Competency::AboveAverage => mods.push((-1, "defending BC above average")),
        Competency::BelowAverage => mods.push((1, "defending BC below average")),
        Competency::Average => {}
    }
    let modifier: i32 = mods.iter().map(|m| m.0).sum();
    let d10 = dice.d10();
    let total = i32::from(d10) + added as i32 + modifier;
    // Reading (FYOW 33.7.2 (v)): the table's rows run 1..10; a modified
    // throw above 10 reads the 10 row and one below 1 reads the 1 row.
    let row = total.clamp(1, 10) as u8;
    let result = crt(row, column);
    let mut e = event("33.7.2 (v) Combat Results Table")
        .actor(attacker.name.clone())
        .target(defender.name.clone())
        .input("attacker_combat_value", a, "points / 10 after any barrage")
        .input("defender_combat_value", d, "points / 10 after any barrage")
        .input("differential", (f64::from(a) / f64::from(d) * 100.0).round() / 100.0, "attackers / defenders")
        .input("base_column", COLUMN_LABELS[base], "");
    for (shift, why) in &shifts {
        e = e.input("shift", shift, why.clone());
    }
    if above_five && left > 0 {
        e = e.input("left_shifts_ignored", left, "differential above 5");
    }
    e = e.input("column", COLUMN_LABELS[column], "after cumulative shifts");
    if beyond > 0 {
        e = e.input("added_for_shifts_beyond_last_column", beyond, "+1 per right shift beyond the right-hand column");
    }
    if over_five > 0 {
        e = e.input("added_above_5", over_five, "+1 for every 5 (or part of) above 5");
    }
    for (m, why) in &mods {
        e = e.input("d10_modifier", m, *why);
    }
    events.push(e.dice(10, &[d10]).outcome(json!({"total": total, "row": row, "result": result})));
    let crt_throw = CrtThrow { column, d10, added, modifier, row, result };

    // (ix) losses, attacker then defender.
    let role_of = |s: Side| match result.loser() {
        None => Role::NoResult,
        Some(l) if l == s => Role::Loser,
        Some(_) => Role::Winner,
    };
    let mut outcomes = Vec::new();
    for (force, value, barrage_loss, s, deduct) in [
        (attacker, att_value, att_barrage, Side::Attacker, added),
        (defender, def_value, def_barrage, Side::Defender, 0),
    ] {
        let role = role_of(s);
        let face = dice.d6();
        let modified = i32::from(face) - deduct as i32;
        // Reading (FYOW 33.7.3 (ix)): "a result of 0 or less means he suffers
        // 1% losses" and names no Strategic Condition.
        let cell = if modified <= 0 { lc(1, None) } else { LOSSES[losses_row(result, role)][modified as usize - 1] };
        let lost = (u64::from(value) * u64::from(cell.percent) / 100) as u32;
        let mut ev = event("33.7.3 (ix) Losses Suffered Table")
            .actor(force.name.clone())
            .input("result", result, "")
            .input("role", role, "")
            .input("force_value", value, "the force committed");
        if deduct > 0 {
            ev = ev.input("d6_deduction", deduct, "the attacker added as much to his D10 throw");
        }
        events.push(ev.dice(6, &[face]).outcome(json!({
            "modified": modified, "percent": cell.percent, "points_lost": lost, "condition": cell.condition,
        })));
        let mut o = side(force, force.value, barrage_loss, value - lost, role);
        o.battle_loss = lost;
        o.condition = cell.condition;
        outcomes.push(o);
    }
    for (o, force) in outcomes.iter_mut().zip([attacker, defender]) {
        let (s, e) = supplemental(force, result, o.role, dice);
        o.supplemental = Some(s);
        events.push(e);
    }
    let defender_outcome = outcomes.pop().expect("two sides");
    let attacker_outcome = outcomes.pop().expect("two sides");

    // (viii) the Outcome Session.
    let next = match result.loser() {
        None => NextStep::FurtherCombatSession,
        Some(s) => {
            let (o, f) =
                if s == Side::Attacker { (&attacker_outcome, attacker) } else { (&defender_outcome, defender) };
            if o.value_after == 0 {
                NextStep::Destroyed { side: s }
            } else if result.level() >= 2 || !f.movement_allowance_left {
                NextStep::Retreat { side: s, order: RetreatOrder::Disarray }
            } else {
                NextStep::Retreat { side: s, order: RetreatOrder::GoodOrder }
            }
        }
    };
    let why = match next {
        NextStep::FurtherCombatSession => "NR: a further Combat Session; retreat by choice in good order",
        NextStep::Retreat { order: RetreatOrder::GoodOrder, .. } => "AR/DR with Movement Allowance: good order",
        NextStep::Retreat { .. } if result.level() == 1 => "AR/DR with all Movement Allowance used: disarray",
        NextStep::Retreat { .. } => "AR2/DR2 and worse: disarray",
        NextStep::Destroyed { .. } => "all of the force's value lost",
    };
    events.push(event("33.7.3 (viii) CRT Results Table").input("result", result, why).outcome(next));
    Ok(CombatSession { attacker: attacker_outcome, defender: defender_outcome, crt: Some(crt_throw), next, events })
}

fn value_left(o: &SideOutcome) -> u32 {
    o.value_before - o.barrage_loss
}

/// Multiple combat (33.7 (xii)): Battlegroups friendly to a defeated force on
/// its Map Board but not engaged retreat with it, unless they arrived late and
/// triggered a new Contact Session. Returns whether `battlegroup` retreats.
pub fn bystander_retreats(battlegroup: &str, triggered_new_contact: bool) -> (bool, RuleEvent) {
    let retreats = !triggered_new_contact;
    let e = event("33.7 (xii) Multiple Combat")
        .actor(battlegroup)
        .input("triggered_new_contact", triggered_new_contact, "arrived late: a new Contact Session")
        .outcome(json!({"retreats": retreats}));
    (retreats, e)
}

/// Where a retreat leads (33.8 "Retreating into trouble").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RetreatDestination {
    /// A Map Board with no enemy.
    Clear,
    /// Into the sea or a lake.
    SeaOrLake,
    /// A Map Board occupied by an enemy force of this points value.
    Enemy { value: u32 },
}

/// The fate of a retreating force (33.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RetreatFate {
    Retreats,
    /// The force surrenders.
    Surrenders,
    /// It may (a) open a new Contact Session as attacker, or (b) stay in the
    /// "box" and, if activated before the occupiers, attempt to move away.
    AttackOrSlipAway,
}

/// A force of `value` points retreating in `order` to `destination` (FYOW 33.8).
///
/// Reading (FYOW 33.8): disarray onto an enemy of "more than 50%" surrenders
/// and "less than 50%" chooses; exactly 50% is not more than half, so it chooses.
pub fn retreat_into(
    force: &str,
    value: u32,
    order: RetreatOrder,
    destination: RetreatDestination,
) -> (RetreatFate, RuleEvent) {
    let (fate, why) = match destination {
        RetreatDestination::Clear => (RetreatFate::Retreats, "no trouble"),
        RetreatDestination::SeaOrLake => (RetreatFate::Surrenders, "retreat into the sea or a lake"),
        RetreatDestination::Enemy { value: enemy }
            if order == RetreatOrder::Disarray && u64::from(enemy) * 2 > u64::from(value) =>
        {
            (RetreatFate::Surrenders, "disarray onto an enemy of more than 50% of their value")
        }
        RetreatDestination::Enemy { .. } if order == RetreatOrder::Disarray => {
            (RetreatFate::AttackOrSlipAway, "disarray onto an enemy of no more than 50% of their value")
        }
        RetreatDestination::Enemy { .. } => (RetreatFate::AttackOrSlipAway, "retreat in good order onto an enemy"),
    };
    let e = event("33.8 Retreating into trouble")
        .actor(force)
        .input("value", value, "")
        .input("order", order, "")
        .input("destination", destination, why)
        .outcome(fate);
    (fate, e)
}

/// One asset a player removes or reduces to make up a loss (33.7.3 (ix), 33.10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AssetLoss {
    /// An element removed from the ORBAT, worth `points`.
    Removed { name: String, points: u32 },
    /// An AFV of `full_value` points reduced by `reduction` points (at most
    /// 50%); it is "damaged" when it next appears on the table.
    AfvReduced { name: String, full_value: u32, reduction: u32 },
}

/// The attrition booked against a force's ORBAT.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attrition {
    pub points_removed: u32,
    /// AFVs now damaged, to be repaired by Work & Tasks (31).
    pub damaged_afvs: Vec<String>,
}

/// Checks the assets a player chose to make up a `loss` of points (33.10):
/// AFVs reduced by no more than 50%, and the total at least the loss less the
/// 1 point that "may be ignored for ease".
pub fn allocate_losses(force: &str, loss: u32, assets: &[AssetLoss]) -> Result<(Attrition, RuleEvent), PaperError> {
    let mut a = Attrition { points_removed: 0, damaged_afvs: Vec::new() };
    for asset in assets {
        match asset {
            AssetLoss::Removed { points, .. } => a.points_removed += points,
            AssetLoss::AfvReduced { name, full_value, reduction } => {
                if u64::from(*reduction) * 2 > u64::from(*full_value) {
                    return Err(PaperError::new(
                        "33.10",
                        format!("{name}: an AFV's value can be reduced by up to 50% ({reduction} of {full_value})"),
                    ));
                }
                a.points_removed += reduction;
                a.damaged_afvs.push(name.clone());
            }
        }
    }
    if a.points_removed + 1 < loss {
        return Err(PaperError::new(
            "33.7.3 (ix)",
            format!("{force}: {} points removed do not make up a loss of {loss}", a.points_removed),
        ));
    }
    let e = event("33.10 Loss of Combat Value by attrition")
        .actor(force)
        .input("loss", loss, "from the Losses Suffered Table")
        .input("assets", assets, "the player's choice")
        .outcome(&a);
    Ok((a, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::dice::Scripted;

    fn quiet(name: &str, value: u32) -> Force {
        Force::new(name, value)
    }

    #[test]
    fn combat_value_example_ignores_fractions() {
        // 33.2: "Thus 951 becomes 95 and 1019 becomes 101."
        assert_eq!(combat_value(951), 95);
        assert_eq!(combat_value(1019), 101);
        assert_eq!(combat_value(9), 0);
    }

    #[test]
    fn combat_value_example_reserves_join_as_124_not_123() {
        // 33.2 Note: 1019 + reserves of 229 = 1248, Combat Value 124 and not 123.
        let mut bg = quiet("BG", 1019);
        let reserve = quiet("Reserve", 229);
        assert_eq!(bg.combat_value() + reserve.combat_value(), 123);
        bg.join(&reserve);
        assert_eq!(bg.value, 1248);
        assert_eq!(bg.combat_value(), 124);
    }

    #[test]
    fn barrage_example_score_36_is_36_points_lost() {
        // 33.7.2 (iv): "a score of 36 means losses of 36 points inflicted".
        let mut att = quiet("A", 1000);
        att.heavy_guns = 6;
        let def = quiet("D", 500);
        let mut sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        sit.barrage = true;
        // 6 guns all 6 = 36; D10 5; losses D6 3, 3; supplemental ammo D6 1, 1.
        let mut dice = Scripted::new([6, 6, 6, 6, 6, 6, 5, 3, 3, 1, 1]);
        let s = resolve_combat_session(&att, &def, &sit, &mut dice).unwrap();
        assert_eq!(s.defender.barrage_loss, 36);
        assert_eq!(s.events[0].outcome["points_lost"], 36);
        // 464 points: CV 46; 100/46 = 2.17 -> ">1.9" column; D10 5 -> NR.
        let crt = s.crt.unwrap();
        assert_eq!((crt.column, crt.result), (3, CrtResult::Nr));
        assert_eq!(s.next, NextStep::FurtherCombatSession);
        // NR row, D6 3: 5% of 1000 and of 464 (rounded down).
        assert_eq!(s.attacker.battle_loss, 50);
        assert_eq!(s.defender.battle_loss, 23);
        assert_eq!(s.defender.value_after, 464 - 23);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn crt_table_corners_and_rows() {
        assert_eq!(crt(10, 0), CrtResult::Dr);
        assert_eq!(crt(1, 0), CrtResult::Ar3);
        assert_eq!(crt(10, 10), CrtResult::Dr5);
        assert_eq!(crt(1, 10), CrtResult::Dr);
        assert_eq!(crt(1, 7), CrtResult::Nr);
        assert_eq!(crt(9, 8), CrtResult::Dr4);
    }

    #[test]
    fn column_reading_fills_the_gap_up_to_1_3() {
        assert_eq!(base_column(10, 10), 0, "1.0 is in the first column");
        assert_eq!(base_column(13, 10), 0, "1.3 is not above 1.3");
        assert_eq!(base_column(14, 10), 1);
        assert_eq!(base_column(16, 10), 1, "exactly 1.6 stays in >1.3");
        assert_eq!(base_column(17, 10), 2);
        assert_eq!(base_column(50, 10), 9, "exactly 5 is >4.3");
        assert_eq!(base_column(51, 10), 10);
        assert_eq!(base_column(5, 10), 0);
    }

    fn fight(att: &Force, def: &Force, sit: &Situation, faces: &[u8]) -> CombatSession {
        let mut dice = Scripted::new(faces.iter().copied());
        let s = resolve_combat_session(att, def, sit, &mut dice).unwrap();
        assert_eq!(dice.remaining(), 0, "every scripted face used");
        s
    }

    #[test]
    fn above_five_adds_for_every_five_or_part_and_ignores_left_shifts() {
        // 60 v 10 = 6: +1 for the part of 5 above 5; the city's 2 left ignored.
        let sit = Situation::new(Terrain::City, Attitude::Deployed);
        let s = fight(&quiet("A", 600), &quiet("D", 100), &sit, &[7, 2, 2, 3]);
        let crt = s.crt.unwrap();
        assert_eq!((crt.column, crt.added, crt.row), (10, 1, 8));
        assert_eq!(crt.result, CrtResult::Dr5);
        // 110 v 10 = 11: 6 above 5 -> +2; the attacker deducts 2 from his losses D6.
        let sit = Situation::new(Terrain::OpenPlains, Attitude::Deployed);
        let s = fight(&quiet("A", 1100), &quiet("D", 100), &sit, &[1, 2, 6, 4, 3]);
        let crt = s.crt.unwrap();
        // open plains 1 right beyond the last column: +1 more; 1 + 3 = 4.
        assert_eq!((crt.added, crt.row, crt.result), (3, 4, CrtResult::Dr2));
        // attacker D6 2 - 3 = -1: 1% losses, no condition.
        assert_eq!(s.attacker.battle_loss, 11);
        assert_eq!(s.attacker.condition, None);
        // defender loser of DR2 on 6: 40% and Red.
        assert_eq!(s.defender.battle_loss, 40);
        assert_eq!(s.defender.condition, Some(StrategicCondition::Red));
        assert_eq!(s.next, NextStep::Retreat { side: Side::Defender, order: RetreatOrder::Disarray });
    }

    #[test]
    fn shifts_are_cumulative_and_left_stops_at_first_column() {
        // 20 v 10 = 2.0 -> ">1.9" (3); fortified 3 left, rationed 2 right -> 2.
        let mut sit = Situation::new(Terrain::Fortified, Attitude::Deployed);
        sit.defender_rationed = true;
        let s = fight(&quiet("A", 200), &quiet("D", 100), &sit, &[6, 1, 1, 1, 1]);
        assert_eq!(s.crt.unwrap().column, 2);
        assert_eq!(s.crt.unwrap().result, CrtResult::Nr);
        // 1.0, fortified and undetected defenders: 4 left of "<1" stays there.
        let mut sit = Situation::new(Terrain::Fortified, Attitude::Deployed);
        sit.attackers_detected_defenders = false;
        let s = fight(&quiet("A", 100), &quiet("D", 100), &sit, &[1, 6, 1, 1, 1]);
        let crt = s.crt.unwrap();
        assert_eq!((crt.column, crt.added, crt.result), (0, 0, CrtResult::Ar3));
        // AR3: attacker loser on 6 -> 50% and Red, disarray; defender winner on 1 -> 1%.
        assert_eq!(s.attacker.battle_loss, 50);
        assert_eq!(s.attacker.condition, Some(StrategicCondition::Red));
        assert_eq!(s.defender.battle_loss, 1);
        assert_eq!(s.next, NextStep::Retreat { side: Side::Attacker, order: RetreatOrder::Disarray });
    }

    #[test]
    fn right_shifts_beyond_last_column_add_to_d10_and_loss_throw() {
        // 45 v 10 = 4.5 -> ">4.3" (9); rest 2 right, open 1 right -> 12: +2.
        let sit = Situation::new(Terrain::OpenPlains, Attitude::Rest);
        let s = fight(&quiet("A", 450), &quiet("D", 100), &sit, &[3, 3, 1, 1, 1]);
        let crt = s.crt.unwrap();
        assert_eq!((crt.column, crt.added, crt.row, crt.result), (10, 2, 5, CrtResult::Dr3));
        // attacker D6 3 - 2 = 1: AR3/DR3 winner 1% = 4 points.
        assert_eq!(s.attacker.battle_loss, 4);
    }

    #[test]
    fn commander_and_activation_modifiers() {
        // 1.5 -> ">1.3"; attacker above avg +1, defender below avg +1, defender first -1.
        let mut att = quiet("A", 150);
        att.commander = Competency::AboveAverage;
        let mut def = quiet("D", 100);
        def.commander = Competency::BelowAverage;
        let mut sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        sit.defender_activated_first = true;
        let s = fight(&att, &def, &sit, &[8, 1, 1, 1, 1]);
        let crt = s.crt.unwrap();
        assert_eq!((crt.modifier, crt.row, crt.result), (1, 9, CrtResult::Dr));
        // After NR the defenders cannot gain the -1 even if activated first.
        let mut cont = sit.continue_after_nr();
        cont.defender_activated_first = true;
        let s = fight(&att, &def, &cont, &[8, 1, 1, 1, 1]);
        let crt = s.crt.unwrap();
        // already engaged (NR): 1 right -> ">1.6"; modifier +2.
        assert_eq!((crt.column, crt.modifier, crt.row, crt.result), (2, 2, 10, CrtResult::Dr));
    }

    #[test]
    fn barrage_allowed_again_after_nr_but_decisions_start_cleared() {
        let mut att = quiet("A", 300);
        att.heavy_guns = 1;
        let mut sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        sit.barrage = true;
        let cont = sit.continue_after_nr();
        assert!(!cont.barrage && !cont.counter_battery);
        assert_eq!(cont.engagement, Engagement::NrContinuation);
        let mut cont = cont;
        cont.barrage = true;
        let s = fight(&att, &quiet("D", 100), &cont, &[2, 1, 1, 1, 1, 1]);
        assert_eq!(s.defender.barrage_loss, 2);
        // 30 v 9 = 3.33 -> ">3.1", already engaged (NR) 1 right -> ">3.7"; D10 1 -> DR.
        assert_eq!((s.crt.unwrap().column, s.crt.unwrap().result), (8, CrtResult::Dr));
    }

    #[test]
    fn nr_losses_read_the_merged_cells() {
        let row = &LOSSES[0];
        assert_eq!(row.map(|c| c.percent), [0, 5, 5, 5, 10, 10]);
        assert_eq!(LOSSES[4].map(|c| c.percent), [10, 10, 25, 25, 25, 40]);
        assert_eq!(LOSSES[10].map(|c| c.percent), [50, 75, 75, 75, 100, 100]);
        assert_eq!(LOSSES[8][5], lc(100, None));
    }

    #[test]
    fn dr_with_no_movement_allowance_retreats_in_disarray() {
        // 30 v 10 = 3 -> ">2.8" (6), D10 5 -> DR.
        let sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        let mut def = quiet("D", 100);
        let s = fight(&quiet("A", 300), &def, &sit, &[5, 1, 1, 1, 1]);
        assert_eq!(s.next, NextStep::Retreat { side: Side::Defender, order: RetreatOrder::GoodOrder });
        def.movement_allowance_left = false;
        let s = fight(&quiet("A", 300), &def, &sit, &[5, 1, 1, 1, 1]);
        assert_eq!(s.next, NextStep::Retreat { side: Side::Defender, order: RetreatOrder::Disarray });
    }

    #[test]
    fn dr4_loser_on_six_is_destroyed() {
        // 45 v 10 (">4.3"), D10 8 -> DR4; defender loses 100% on 6.
        let sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        let s = fight(&quiet("A", 450), &quiet("D", 100), &sit, &[8, 4, 6, 1, 1]);
        assert_eq!(s.crt.unwrap().result, CrtResult::Dr4);
        assert_eq!(s.defender.value_after, 0);
        assert_eq!(s.next, NextStep::Destroyed { side: Side::Defender });
        // DR4 winner on 4: 5%.
        assert_eq!(s.attacker.battle_loss, 22);
    }

    #[test]
    fn supplemental_effects_by_row() {
        // 51 v 10, D10 10 -> DR5. Attacker (winner) has 2 aircraft and 1 bridge,
        // defender (DR5 loser) has 1 aircraft and 2 engineer pieces.
        let mut att = quiet("A", 510);
        att.machines = 2;
        att.buildings = 1;
        let mut def = quiet("D", 100);
        def.machines = 1;
        def.engineer_pieces = 2;
        let sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        // D10, loss D6 x2, attacker: machines 5, 2; ammo 6; bridge 3. Defender: nothing thrown.
        let s = fight(&att, &def, &sit, &[10, 6, 1, 5, 2, 6, 3]);
        let a = s.attacker.supplemental.unwrap();
        assert_eq!(a.machine_damage, vec![2, 0], "D6 minus 3");
        assert_eq!(a.ammo, AmmoUsed::ThreeQuarters);
        assert_eq!(a.building_damage, vec![3]);
        let d = s.defender.supplemental.unwrap();
        assert!(d.machines_lost);
        assert_eq!(d.ammo, AmmoUsed::AllAndStockpileLost);
        assert_eq!(d.engineer_pieces_lost, 2);
        // DR5 loser on 1: 50% Amber.
        assert_eq!(s.defender.condition, Some(StrategicCondition::Amber));
    }

    #[test]
    fn supplemental_merged_rows_read_from_above() {
        assert_eq!(machine_deduction(3), machine_deduction(2));
        assert_eq!(ammo_used(3, 6), AmmoUsed::All);
        assert_eq!(ammo_used(1, 1), AmmoUsed::None);
        assert_eq!(ammo_used(4, 6), AmmoUsed::All, "DR4's missing 6 reads all used");
        assert_eq!(engineer_loss_on(1), Some(2));
        assert_eq!(engineer_loss_on(3), Some(3));
    }

    #[test]
    fn counter_battery_hits_the_attackers() {
        let mut att = quiet("A", 400);
        att.heavy_guns = 1;
        let mut def = quiet("D", 200);
        def.heavy_guns = 2;
        let mut sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        sit.barrage = true;
        sit.counter_battery = true;
        let s = fight(&att, &def, &sit, &[4, 5, 6, 5, 1, 1, 1, 1]);
        assert_eq!(s.defender.barrage_loss, 4);
        assert_eq!(s.attacker.barrage_loss, 11);
        // 389 v 196: 38 v 19 = 2.0 -> ">1.9"; D10 5 -> NR.
        assert_eq!(s.crt.unwrap().result, CrtResult::Nr);
        assert_eq!(s.events.len(), 8);
    }

    #[test]
    fn barrage_that_leaves_no_combat_value_destroys_the_defender() {
        let mut att = quiet("A", 400);
        att.heavy_guns = 2;
        let mut sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        sit.barrage = true;
        let s = fight(&att, &quiet("D", 15), &sit, &[4, 3]);
        assert_eq!(s.next, NextStep::Destroyed { side: Side::Defender });
        assert_eq!(s.defender.barrage_loss, 7);
        assert_eq!(s.defender.battle_loss, 8);
        assert_eq!(s.defender.value_after, 0);
        assert!(s.crt.is_none());
    }

    #[test]
    fn bad_input_is_refused() {
        let att = quiet("A", 300);
        let mut dice = Scripted::new([]);
        let sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        assert_eq!(resolve_combat_session(&att, &quiet("D", 9), &sit, &mut dice).unwrap_err().section, "33.2");
        assert!(resolve_combat_session(&quiet("A", 0), &att, &sit, &mut dice).is_err());
        let mut s = sit.clone();
        s.barrage = true;
        s.attackers_detected_defenders = false;
        assert!(resolve_combat_session(&att, &att, &s, &mut dice).is_err());
        let mut s = sit.clone();
        s.counter_battery = true;
        s.defender_activated_first = true;
        assert!(resolve_combat_session(&att, &att, &s, &mut dice).is_err());
        let mut s = sit.second_attack(RetreatOrder::GoodOrder, true, false);
        s.barrage = true;
        let e = resolve_combat_session(&att, &att, &s, &mut dice).unwrap_err();
        assert_eq!(e.section, "33.7.3 (x)");
        assert!(e.to_string().contains("second battles"));
        let mut s = sit.clone();
        s.second_attack_this_session = true;
        s.second_attack_today = true;
        assert!(resolve_combat_session(&att, &att, &s, &mut dice).is_err());
    }

    #[test]
    fn second_attack_carries_the_disarray_penalty() {
        let sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        let second = sit.second_attack(RetreatOrder::Disarray, false, true);
        // disarray 2 right, 2nd attack today 1 right, in the Outcome Session 1 left.
        let net: i32 = second.shifts().iter().map(|s| s.0).sum();
        assert_eq!(net, 2);
        assert_eq!(second.engagement, Engagement::SecondBattle);
        // 1.0 -> "<1" + 2 -> ">1.6"; D10 7 -> NR.
        let s = fight(&quiet("A", 100), &quiet("D", 100), &second, &[7, 1, 1, 1, 1]);
        assert_eq!(s.crt.unwrap().column, 2);
        assert_eq!(s.crt.unwrap().result, CrtResult::Nr);
    }

    #[test]
    fn conditions_only_worsen_and_bystanders_follow() {
        use StrategicCondition::*;
        assert_eq!(StrategicCondition::after_battle(Amber, Some(Green)), Amber);
        assert_eq!(StrategicCondition::after_battle(Green, Some(Red)), Red);
        assert_eq!(StrategicCondition::after_battle(Amber, None), Amber);
        assert!(bystander_retreats("2/BG", false).0);
        assert!(!bystander_retreats("3/BG", true).0);
    }

    #[test]
    fn retreating_into_trouble() {
        let g = RetreatOrder::GoodOrder;
        let d = RetreatOrder::Disarray;
        assert_eq!(retreat_into("BG", 500, g, RetreatDestination::SeaOrLake).0, RetreatFate::Surrenders);
        assert_eq!(retreat_into("BG", 500, d, RetreatDestination::Enemy { value: 251 }).0, RetreatFate::Surrenders);
        assert_eq!(
            retreat_into("BG", 500, d, RetreatDestination::Enemy { value: 250 }).0,
            RetreatFate::AttackOrSlipAway
        );
        assert_eq!(
            retreat_into("BG", 500, g, RetreatDestination::Enemy { value: 900 }).0,
            RetreatFate::AttackOrSlipAway
        );
        assert_eq!(retreat_into("BG", 500, d, RetreatDestination::Clear).0, RetreatFate::Retreats);
    }

    #[test]
    fn attrition_allows_one_point_short_and_half_an_afv() {
        let assets = vec![
            AssetLoss::Removed { name: "MG".into(), points: 5 },
            AssetLoss::AfvReduced { name: "Stuart".into(), full_value: 60, reduction: 30 },
        ];
        let (a, e) = allocate_losses("BG", 36, &assets).unwrap();
        assert_eq!(a.points_removed, 35);
        assert_eq!(a.damaged_afvs, vec!["Stuart".to_string()]);
        assert_eq!(e.kind, EventKind::PaperBattle);
        assert!(allocate_losses("BG", 37, &assets).is_err());
        let too_much = [AssetLoss::AfvReduced { name: "Stuart".into(), full_value: 60, reduction: 31 }];
        assert_eq!(allocate_losses("BG", 31, &too_much).unwrap_err().section, "33.10");
    }

    #[test]
    fn events_serialise_and_name_the_rule() {
        let sit = Situation::new(Terrain::HeavyWoodland, Attitude::Present);
        let s = fight(&quiet("A", 300), &quiet("D", 100), &sit, &[6, 2, 2, 1, 1]);
        assert!(s.events.iter().all(|e| e.kind == EventKind::PaperBattle));
        assert_eq!(s.events[0].rule.section, "33.7.2 (v) Combat Results Table");
        let line = s.events[0].to_json_line();
        assert!(line.contains("\"result\":\"Dr2\""), "{line}");
        let back: CombatSession = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
    }
}
