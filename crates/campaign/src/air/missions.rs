//! Air battlegroups and their missions (FYOW 28.1, 28.8, 28.9 "Kamikaze"):
//! comparable aircraft, Flight Time over the Map Board and escorts leaving,
//! bombing raids and their HE Effects, reconnaissance and its report,
//! transport losses, patrols.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::air::flying::{Chart, Flight, FlyingThrow, flight_time, max_move, move_between_boards, requirement};
use crate::air::squadron::{DamageOutcome, Squadron};
use crate::air::{AirError, Conditions, Mission, Role, rule};
use crate::map::common::Light;

/// "Patrol squadrons ... remain for 1 session" (28.8).
pub const PATROL_SESSIONS: u8 = 1;

/// An air battlegroup: squadrons of comparable aircraft that activate together on one BPC.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AirBattlegroup {
    pub name: String,
    pub mission: Mission,
    pub squadrons: Vec<Squadron>,
    /// Sessions over the Map Boards left to each squadron (same order).
    pub sessions_left: Vec<u8>,
    /// The Map Board it is over (28.5: "placed over any Map Board the player chooses").
    pub board: String,
    /// Arrived in the "box" of its Map Board this session: no activity until the next (28.7).
    pub in_box: bool,
}

impl AirBattlegroup {
    /// Forms a battlegroup (28.1): every squadron flies the mission or escorts it,
    /// and at least one flies it. Flight Time is set from 28.6 (a patrol stays 1 session).
    pub fn new(
        name: impl Into<String>,
        mission: Mission,
        squadrons: Vec<Squadron>,
        board: impl Into<String>,
    ) -> Result<Self, AirError> {
        for s in &squadrons {
            let escort = mission.takes_escorts() && s.role == Role::Fighter;
            if !mission.flies(s.role) && !escort {
                return Err(AirError::NotComparable { mission, role: s.role });
            }
        }
        if !squadrons.iter().any(|s| mission.flies(s.role)) {
            return Err(AirError::NoMissionAircraft(mission));
        }
        let sessions_left = squadrons
            .iter()
            .map(|s| {
                let time = flight_time(s.role, s.basing, s.endurance)?;
                Ok(if mission == Mission::Patrol { time.min(PATROL_SESSIONS) } else { time })
            })
            .collect::<Result<Vec<_>, AirError>>()?;
        Ok(Self { name: name.into(), mission, squadrons, sessions_left, board: board.into(), in_box: false })
    }

    /// Whether it may act this session (not just arrived in a box).
    pub fn may_act(&self) -> bool {
        !self.in_box && !self.squadrons.is_empty()
    }

    /// A move to another Map Board to intercept enemy aircraft (28.7), taking
    /// the session; it arrives in the "box".
    ///
    /// Reading (FYOW 28.7): squadrons activate together on one BPC, so the
    /// battlegroup moves at the allowance of its slowest squadron (test
    /// `battlegroup_moves_at_its_slowest_and_waits_in_the_box`).
    pub fn move_to(
        &mut self,
        board: impl Into<String>,
        boards: u8,
        dice: &mut impl Roll,
    ) -> Result<(bool, RuleEvent), AirError> {
        if self.in_box {
            return Err(AirError::InBox);
        }
        let speed = self
            .squadrons
            .iter()
            .map(Squadron::speed)
            .min_by_key(|&s| max_move(s))
            .ok_or(AirError::NoFlightTimeLeft)?;
        let left = self.sessions_left.iter().copied().min().unwrap_or(0);
        let (moved, event) = move_between_boards(speed, boards, left, dice, &self.name)?;
        if moved {
            self.board = board.into();
            self.in_box = true;
        }
        Ok((moved, event.input("board", &self.board, "over this Map Board after the move")))
    }

    /// A session over the Map Boards has passed: each squadron spends one
    /// session of Flight Time and those with none left go home — "fighters
    /// with less Flight Time than their bombers will be forced to leave the
    /// Battlegroup when their Flight Time expires". Returns those that left.
    pub fn end_session(&mut self) -> (Vec<Squadron>, RuleEvent) {
        let before = self.sessions_left.clone();
        self.in_box = false;
        let mut leaving = Vec::new();
        let mut i = 0;
        while i < self.squadrons.len() {
            self.sessions_left[i] = self.sessions_left[i].saturating_sub(1);
            if self.sessions_left[i] == 0 {
                self.sessions_left.remove(i);
                leaving.push(self.squadrons.remove(i));
            } else {
                i += 1;
            }
        }
        let event = RuleEvent::new(EventKind::AirOperation, rule("28.6 Flight Time"))
            .actor(&self.name)
            .input("sessions_left", before, "before this session")
            .outcome(json!({
                "left": leaving.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
                "remaining": self.squadrons.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
            }));
        (leaving, event)
    }

    /// The battlegroup has gone home.
    pub fn returned(&self) -> bool {
        self.squadrons.is_empty()
    }
}

// ------------------------------------------------------------------ bombing

/// Bomb types of the bomb damage table (28.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BombType {
    Small,
    Medium,
    Heavy,
    Torpedo,
}

/// The CODEX's bomb sizes are the bomb table's rows: small up to 100lbs,
/// medium 100–250lbs, heavy 500lbs and over.
impl From<warbound_rules::aircraft::BombSize> for BombType {
    fn from(size: warbound_rules::aircraft::BombSize) -> Self {
        use warbound_rules::aircraft::BombSize;
        match size {
            BombSize::Small => Self::Small,
            BombSize::Medium => Self::Medium,
            BombSize::Heavy => Self::Heavy,
        }
    }
}

/// Columns of the HE Effects chart of 28.8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HeColumn {
    D,
    F,
}

/// FYOW 28.8 "Bomb type / No of D6 thrown / HE Effects Table".
pub const BOMB_TABLE: [(BombType, u8, HeColumn); 4] = [
    (BombType::Small, 1, HeColumn::D),
    (BombType::Medium, 1, HeColumn::F),
    (BombType::Heavy, 3, HeColumn::F),
    (BombType::Torpedo, 2, HeColumn::F),
];

/// FYOW 28.8 HE Effects chart: points of damage by column and D6 (1..=6).
/// Column D's blank under 1 is no damage.
pub const HE_EFFECTS: [(HeColumn, [u8; 6]); 2] = [(HeColumn::D, [0, 1, 2, 2, 2, 3]), (HeColumn::F, [1, 2, 2, 3, 3, 4])];

/// The D6 and column of a bomb type.
pub fn bomb_row(bomb: BombType) -> (u8, HeColumn) {
    BOMB_TABLE.iter().find(|(b, _, _)| *b == bomb).map_or((1, HeColumn::F), |&(_, n, col)| (n, col))
}

/// Points of damage the chart gives for a D6 face in a column.
pub fn he_points(column: HeColumn, face: u8) -> u8 {
    let row = HE_EFFECTS.iter().find(|(c, _)| *c == column).map_or([0; 6], |(_, r)| *r);
    row[usize::from(face.clamp(1, 6) - 1)]
}

/// The targets on the Map Board given their numbers: "allocated a number from
/// 1 to 6 by making a D6 throw for each target".
pub fn allocate_targets(targets: &[String], dice: &mut impl Roll, id: &str) -> (Vec<(String, u8)>, RuleEvent) {
    let faces = dice.throw(targets.len(), 6);
    let allocated: Vec<_> = targets.iter().cloned().zip(faces.iter().copied()).collect();
    let event = RuleEvent::new(EventKind::AirOperation, rule("28.8 Aircraft Missions, Bombing raids"))
        .actor(id)
        .input("targets", targets, "the occupying ground force and any ground targets")
        .dice(6, &faces)
        .outcome(json!({ "allocated": allocated }));
    (allocated, event)
}

/// The targets a hit on `number` may strike ("a hit on any one of the targets allocated to a 5").
pub fn targets_for(number: u8, allocated: &[(String, u8)]) -> Vec<String> {
    allocated.iter().filter(|(_, n)| *n == number).map(|(t, _)| t.clone()).collect()
}

/// One bomber's bombs: "throw 3D6 per bomb dropped. A double indicates a hit
/// ... against any target given the number showing." Returns the number hit
/// by each bomb that hit (a triple is one double: one hit).
pub fn drop_bombs(bombs: u8, dice: &mut impl Roll, id: &str) -> (Vec<u8>, RuleEvent) {
    let mut hits = Vec::new();
    let mut faces = Vec::new();
    for _ in 0..bombs {
        let throw = dice.throw(3, 6);
        if let Some(&n) = throw.iter().find(|&&f| throw.iter().filter(|&&g| g == f).count() >= 2) {
            hits.push(n);
        }
        faces.extend(throw);
    }
    let event = RuleEvent::new(EventKind::AirOperation, rule("28.8 Aircraft Missions, Bombing raids"))
        .actor(id)
        .input("bombs", bombs, "3D6 per bomb; a double hits the target numbered")
        .dice(6, &faces)
        .outcome(json!({ "hits_on": hits }));
    (hits, event)
}

/// The damage of one bomb hit: the type's D6 on its HE column, "each throw
/// individually", in points of damage to the target. A kamikaze hit goes
/// "straight to the HE Effects Chart and add 1 to the effect".
///
/// Reading (FYOW 28.9 "Kamikaze"): the +1 is added to the points each die
/// reads (every throw is assessed individually), so a kamikaze carrying a
/// heavy bomb adds 3 (test `kamikaze_adds_one_to_each_effect`).
pub fn bomb_damage(bomb: BombType, kamikaze: bool, dice: &mut impl Roll, id: &str) -> (Vec<u8>, RuleEvent) {
    let (n, column) = bomb_row(bomb);
    let faces = dice.throw(usize::from(n), 6);
    let points: Vec<u8> = faces.iter().map(|&f| he_points(column, f) + u8::from(kamikaze)).collect();
    let total: u32 = points.iter().map(|&p| u32::from(p)).sum();
    let event = RuleEvent::new(EventKind::AirOperation, rule("28.8 Aircraft Missions, Bombing raids"))
        .actor(id)
        .input("bomb", bomb, "bomb type: D6 thrown and HE column")
        .input("column", column, "")
        .input("kamikaze", kamikaze, "add 1 to the effect")
        .dice(6, &faces)
        .outcome(json!({ "points": points, "total": total }));
    (points, event)
}

/// A bomb hit on a number: which target the player strikes, checked against the allocation.
pub fn strike(number: u8, target: &str, allocated: &[(String, u8)]) -> Result<(), AirError> {
    if allocated.iter().any(|(t, n)| *n == number && t == target) {
        Ok(())
    } else {
        Err(AirError::BadTargetNumber(number))
    }
}

// ----------------------------------------------------------- reconnaissance

/// What the enemy on the Map Board is doing, for a recce Detection Throw (FYOW 16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnemyPosture {
    /// Present or resting: a 5+ detects.
    PresentOrResting,
    /// Deployed: a 6 detects.
    Deployed,
    /// "Enemy units that are entirely concealed cannot be detected."
    Concealed,
}

/// A recce machine's Detection Throw over a Map Board (28.8, FYOW 16): 4D6, or
/// 6D6 for a specialist reconnaissance aircraft, less 1D6 in moonlight; a 5+
/// detects a present or resting enemy, a 6 a deployed one. Recce cannot fly
/// in the weather that would take further dice away (heavy rain, fog, no moon).
pub fn recce_detection(
    specialist: bool,
    conditions: Conditions,
    enemy: EnemyPosture,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(bool, RuleEvent), AirError> {
    // The "no flying" cells are the same on both charts.
    if requirement(Flight::Recce, conditions, Chart::Standard).is_none() {
        return Err(AirError::NoFlying);
    }
    let base = if specialist { 6 } else { 4 };
    let n = base - usize::from(conditions.light == Light::NightMoon);
    let (faces, detected) = match enemy {
        EnemyPosture::Concealed => (Vec::new(), false),
        EnemyPosture::PresentOrResting | EnemyPosture::Deployed => {
            let need = if enemy == EnemyPosture::Deployed { 6 } else { 5 };
            let faces = dice.throw(n, 6);
            let detected = faces.iter().any(|&f| f >= need);
            (faces, detected)
        }
    };
    let event = RuleEvent::new(EventKind::Detection, rule("28.8 Aircraft Missions, Reconnaissance"))
        .actor(id)
        .input("dice", n, "4D6, 6D6 specialist recce aircraft; less 1D6 in moonlight (FYOW 16)")
        .input("enemy", enemy, "5+ present or resting, 6 deployed")
        .dice(6, &faces)
        .outcome(json!({ "detected": detected }));
    Ok((detected, event))
}

/// How a recce flight ended, for its report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReconState {
    Flying,
    DrivenOff,
    ShotDown,
}

/// A recce flight's findings, reported to Air Command "at the start of the following campaign day".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReconFlight {
    pub state: ReconState,
    /// Information gathered, one entry an activation.
    pub findings: Vec<String>,
}

impl Default for ReconFlight {
    fn default() -> Self {
        Self { state: ReconState::Flying, findings: Vec::new() }
    }
}

impl ReconFlight {
    /// Information gathered over the Map Board this activation (FYOW 17).
    /// "No information can be gathered after the aircraft has been driven off."
    pub fn gather(&mut self, finding: impl Into<String>) -> Result<(), AirError> {
        if self.state != ReconState::Flying {
            return Err(AirError::ReconOver);
        }
        self.findings.push(finding.into());
        Ok(())
    }

    /// Damage taken by the recce machine.
    pub fn damaged(&mut self, outcome: DamageOutcome) {
        self.state = match (self.state, outcome) {
            (ReconState::ShotDown, _) | (_, DamageOutcome::ShotDown) => ReconState::ShotDown,
            (ReconState::DrivenOff, _) | (_, DamageOutcome::DrivenOff) => ReconState::DrivenOff,
            (ReconState::Flying, DamageOutcome::Flying) => ReconState::Flying,
        };
    }

    /// The report: "Aircraft shot down do not report their findings"; a machine
    /// driven off still reports what it gathered before.
    pub fn report(&self) -> (Vec<String>, RuleEvent) {
        let report = if self.state == ReconState::ShotDown { Vec::new() } else { self.findings.clone() };
        let event = RuleEvent::new(EventKind::Detection, rule("28.8 Aircraft Missions, Reconnaissance"))
            .input("state", self.state, "shot down: no report; driven off: reports earlier findings")
            .input("gathered", self.findings.len(), "")
            .outcome(json!({ "reported": report }));
        (report, event)
    }
}

// ---------------------------------------------------------------- transport

/// What a transport aircraft carries or tows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Load {
    Paratroops {
        element: String,
        points: u32,
    },
    Supply {
        points: u32,
    },
    /// A towed glider and its contents.
    Glider {
        name: String,
        contents_points: u32,
    },
}

/// The columns of the flying chart (28.4) a battlegroup must pass to take
/// off: recce flights the Recce column, transports towing gliders or carrying
/// paratroops those columns as well, every other flight the Aircraft column.
///
/// Reading (FYOW 28.4): a transport's tugs and carriers fly under their load's
/// column as well as the Aircraft one, so the stricter governs (test
/// `take_off_reads_the_column_of_the_load`).
pub fn take_off_columns(mission: Mission, loads: &[Load]) -> Vec<Flight> {
    if mission == Mission::Recce {
        return vec![Flight::Recce];
    }
    let mut columns = vec![Flight::Aircraft];
    if loads.iter().any(|l| matches!(l, Load::Glider { .. })) {
        columns.push(Flight::Gliders);
    }
    if loads.iter().any(|l| matches!(l, Load::Paratroops { .. })) {
        columns.push(Flight::Paratroops);
    }
    columns
}

/// Whether the day's flying throw lets this battlegroup take off in a session's conditions.
pub fn may_take_off(
    throw: FlyingThrow,
    conditions: Conditions,
    mission: Mission,
    loads: &[Load],
    id: &str,
) -> (bool, RuleEvent) {
    let columns = take_off_columns(mission, loads);
    let permitted = columns.iter().all(|&f| throw.permits(f, conditions));
    let event = RuleEvent::new(EventKind::AirOperation, rule("28.4 Air Command decision to fly"))
        .actor(id)
        .input("face", throw.face, "the day's D6")
        .input("columns", &columns, "the flight and any gliders or paratroops it carries")
        .input("conditions", conditions, "")
        .outcome(json!({ "permitted": permitted }));
    (permitted, event)
}

/// What is lost with a transport aircraft (28.8 "Transport Missions"): "If an
/// aircraft is acting as a tug and is shot down, the towed glider(s) is also
/// considered as a casualty. If an aircraft carrying paratroops or supply is
/// shot down, the carried load is also lost." Driven off, it keeps its load.
pub fn lost_with_carrier(loads: &[Load], outcome: DamageOutcome, id: &str) -> (Vec<Load>, RuleEvent) {
    let lost = if outcome == DamageOutcome::ShotDown { loads.to_vec() } else { Vec::new() };
    let event = RuleEvent::new(EventKind::AirOperation, rule("28.8 Aircraft Missions, Transport Missions"))
        .target(id)
        .input("outcome", outcome, "shot down: gliders towed and loads carried are lost")
        .outcome(json!({ "lost": lost }));
    (lost, event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::air::command::AirCommand;
    use crate::air::squadron::Basing;
    use crate::air::{Sky, Speed, Wind};
    use warbound_rules::dice::Scripted;

    #[test]
    fn campaign_state_round_trips_through_ron() {
        let mut s = Squadron::new("1/StG 2", Role::DiveBomber, Speed::Slow, Basing::Local, true, 3, 3).unwrap();
        s.prepare_day(&mut Scripted::new([6, 4, 2]));
        s.take_damage(0, 1).unwrap();
        let bg = AirBattlegroup::new("Stukas", Mission::AirArtillery, vec![s], "7").unwrap();
        let text = ron::to_string(&bg).unwrap();
        let back: AirBattlegroup = ron::from_str(&text).unwrap();
        assert_eq!(back, bg);
        let ac = AirCommand::new(20).unwrap();
        let back: AirCommand = ron::from_str(&ron::to_string(&ac).unwrap()).unwrap();
        assert_eq!(back, ac);
    }

    fn sq(name: &str, role: Role, basing: Basing) -> Squadron {
        Squadron::new(name, role, Speed::Other, basing, false, 3, 3).unwrap()
    }

    #[test]
    fn battlegroups_take_only_comparable_aircraft() {
        let bombers = sq("B", Role::Bomber, Basing::Distant);
        let fighters = sq("F", Role::Fighter, Basing::Distant);
        assert!(AirBattlegroup::new("1", Mission::Bombing, vec![bombers.clone(), fighters.clone()], "12").is_ok());
        assert!(
            AirBattlegroup::new("1", Mission::Transport, vec![sq("T", Role::Transport, Basing::Local)], "12").is_ok()
        );
        assert_eq!(
            AirBattlegroup::new(
                "1",
                Mission::Bombing,
                vec![bombers.clone(), sq("R", Role::Recce, Basing::Local)],
                "12"
            )
            .unwrap_err(),
            AirError::NotComparable { mission: Mission::Bombing, role: Role::Recce }
        );
        assert_eq!(
            AirBattlegroup::new("1", Mission::Bombing, vec![fighters.clone()], "12").unwrap_err(),
            AirError::NoMissionAircraft(Mission::Bombing)
        );
        assert_eq!(
            AirBattlegroup::new(
                "1",
                Mission::AirArtillery,
                vec![sq("S", Role::DiveBomber, Basing::Local), fighters],
                "12"
            )
            .unwrap_err(),
            AirError::NotComparable { mission: Mission::AirArtillery, role: Role::Fighter }
        );
        assert_eq!(
            AirBattlegroup::new("1", Mission::Torpedo, vec![bombers], "12").unwrap_err(),
            AirError::NotComparable { mission: Mission::Torpedo, role: Role::Bomber }
        );
        assert_eq!(
            AirBattlegroup::new("1", Mission::Recce, vec![], "12").unwrap_err(),
            AirError::NoMissionAircraft(Mission::Recce)
        );
    }

    #[test]
    fn escorts_leave_when_their_flight_time_expires() {
        // Distant: fighters 1 session, bombers 2.
        let mut bg = AirBattlegroup::new(
            "Raid",
            Mission::Bombing,
            vec![sq("B", Role::Bomber, Basing::Distant), sq("F", Role::Fighter, Basing::Distant)],
            "12",
        )
        .unwrap();
        assert_eq!(bg.sessions_left, [2, 1]);
        let (left, e) = bg.end_session();
        assert_eq!(left.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["F"]);
        assert_eq!(e.outcome["remaining"][0], "B");
        assert!(!bg.returned());
        let (left, _) = bg.end_session();
        assert_eq!(left.len(), 1);
        assert!(bg.returned());
    }

    #[test]
    fn battlegroup_moves_at_its_slowest_and_waits_in_the_box() {
        let bombers = Squadron::new("B", Role::Bomber, Speed::Slow, Basing::Local, false, 3, 4).unwrap();
        let fighters = Squadron::new("F", Role::Fighter, Speed::FastAgile, Basing::Local, false, 3, 3).unwrap();
        let mut bg = AirBattlegroup::new("Raid", Mission::Bombing, vec![bombers, fighters], "12").unwrap();
        assert!(bg.may_act());
        assert_eq!(
            bg.move_to("20", 5, &mut Scripted::new([])).unwrap_err(),
            AirError::TooFar { boards: 5, max: 4 },
            "the slow bombers hold the fighters to 4"
        );
        let (moved, _) = bg.move_to("20", 1, &mut Scripted::new([1])).unwrap();
        assert!(!moved && bg.board == "12" && bg.may_act());
        let (moved, e) = bg.move_to("20", 4, &mut Scripted::new([7])).unwrap();
        assert!(moved);
        assert_eq!(e.inputs.last().unwrap().value, "20");
        assert!(!bg.may_act(), "in the box until the following session");
        assert_eq!(bg.move_to("21", 1, &mut Scripted::new([])).unwrap_err(), AirError::InBox);
        bg.end_session();
        assert!(bg.may_act());
        // Local: fighters 2 sessions, bombers 3.
        assert_eq!(bg.sessions_left, [2, 1]);
        bg.end_session();
        assert_eq!(bg.squadrons.len(), 1, "the fighters have gone home");
        bg.end_session();
        assert_eq!(bg.move_to("21", 1, &mut Scripted::new([])).unwrap_err(), AirError::NoFlightTimeLeft);
    }

    #[test]
    fn patrols_remain_one_session() {
        let mut bg =
            AirBattlegroup::new("CAP", Mission::Patrol, vec![sq("F", Role::Fighter, Basing::Local)], "12").unwrap();
        assert_eq!(bg.sessions_left, [1]);
        bg.end_session();
        assert!(bg.returned());
    }

    #[test]
    fn bomb_tables_as_printed() {
        assert_eq!(bomb_row(BombType::Small), (1, HeColumn::D));
        assert_eq!(bomb_row(BombType::Medium), (1, HeColumn::F));
        assert_eq!(bomb_row(BombType::Heavy), (3, HeColumn::F));
        assert_eq!(bomb_row(BombType::Torpedo), (2, HeColumn::F));
        assert_eq!((1..=6).map(|f| he_points(HeColumn::D, f)).collect::<Vec<_>>(), [0, 1, 2, 2, 2, 3]);
        assert_eq!((1..=6).map(|f| he_points(HeColumn::F, f)).collect::<Vec<_>>(), [1, 2, 2, 3, 3, 4]);
    }

    #[test]
    fn book_example_double_five_hits_a_target_numbered_five() {
        // "a double 5 results in a hit on any one of the targets allocated to a 5".
        let targets = ["Battlegroup 2".to_string(), "Bridge".to_string(), "Depot".to_string()];
        let (allocated, _) = allocate_targets(&targets, &mut Scripted::new([5, 3, 5]), "Raid");
        let (hits, e) = drop_bombs(3, &mut Scripted::new([5, 2, 5, 1, 2, 3, 6, 6, 6]), "Raid");
        assert_eq!(hits, [5, 6], "the second throw is a miss; a triple is one hit");
        assert_eq!(e.dice.len(), 9);
        assert_eq!(targets_for(5, &allocated), ["Battlegroup 2", "Depot"]);
        assert!(targets_for(6, &allocated).is_empty(), "no target numbered 6: the hit is wasted");
        assert!(strike(5, "Depot", &allocated).is_ok());
        assert_eq!(strike(5, "Bridge", &allocated).unwrap_err(), AirError::BadTargetNumber(5));
    }

    #[test]
    fn heavy_bomb_assesses_each_die() {
        let (points, e) = bomb_damage(BombType::Heavy, false, &mut Scripted::new([1, 4, 6]), "B");
        assert_eq!(points, [1, 3, 4]);
        assert_eq!(e.outcome["total"], 8);
        let (points, _) = bomb_damage(BombType::Small, false, &mut Scripted::new([1]), "B");
        assert_eq!(points, [0]);
        let (points, _) = bomb_damage(BombType::Torpedo, false, &mut Scripted::new([2, 5]), "T");
        assert_eq!(points, [2, 3]);
    }

    #[test]
    fn kamikaze_adds_one_to_each_effect() {
        let (points, _) = bomb_damage(BombType::Small, true, &mut Scripted::new([1]), "K");
        assert_eq!(points, [1]);
        let (points, _) = bomb_damage(BombType::Heavy, true, &mut Scripted::new([6, 6, 1]), "K");
        assert_eq!(points, [5, 5, 2]);
    }

    #[test]
    fn recce_detection_dice() {
        let fine = Conditions::FINE_DAY;
        let (seen, e) =
            recce_detection(true, fine, EnemyPosture::Deployed, &mut Scripted::new([1, 2, 3, 4, 5, 6]), "R").unwrap();
        assert!(seen);
        assert_eq!(e.dice.len(), 6);
        let (seen, _) =
            recce_detection(false, fine, EnemyPosture::Deployed, &mut Scripted::new([5, 5, 5, 5]), "R").unwrap();
        assert!(!seen, "deployed needs a 6");
        let moon = Conditions { light: Light::NightMoon, ..fine };
        let (seen, e) =
            recce_detection(false, moon, EnemyPosture::PresentOrResting, &mut Scripted::new([1, 1, 5]), "R").unwrap();
        assert!(seen);
        assert_eq!(e.dice.len(), 3, "moonlight: 1D6 less");
        let (seen, _) = recce_detection(true, fine, EnemyPosture::Concealed, &mut Scripted::new([]), "R").unwrap();
        assert!(!seen);
        let rain = Conditions { sky: Sky::HeavyRain, ..fine };
        assert_eq!(
            recce_detection(true, rain, EnemyPosture::Deployed, &mut Scripted::new([]), "R").unwrap_err(),
            AirError::NoFlying
        );
        let dark = Conditions { light: Light::NightNoMoon, wind: Wind::Calm, ..fine };
        assert!(recce_detection(true, dark, EnemyPosture::Deployed, &mut Scripted::new([]), "R").is_err());
    }

    #[test]
    fn shot_down_recce_reports_nothing_driven_off_reports_earlier_findings() {
        let mut r = ReconFlight::default();
        r.gather("BG 3 on Board 12").unwrap();
        r.damaged(DamageOutcome::DrivenOff);
        assert_eq!(r.gather("more").unwrap_err(), AirError::ReconOver);
        assert_eq!(r.report().0, ["BG 3 on Board 12"]);
        r.damaged(DamageOutcome::Flying);
        assert_eq!(r.state, ReconState::DrivenOff);
        let mut shot = ReconFlight::default();
        shot.gather("BG 3 on Board 12").unwrap();
        shot.damaged(DamageOutcome::ShotDown);
        let (report, e) = shot.report();
        assert!(report.is_empty());
        assert_eq!(e.kind, EventKind::Detection);
    }

    #[test]
    fn take_off_reads_the_column_of_the_load() {
        let windy = Conditions { wind: Wind::Light, ..Conditions::FINE_DAY };
        let throw = FlyingThrow { face: 2, chart: Chart::Standard };
        let glider = [Load::Glider { name: "Horsa".into(), contents_points: 100 }];
        let (ok, _) = may_take_off(throw, windy, Mission::Transport, &[Load::Supply { points: 5 }], "T");
        assert!(ok, "aircraft need 2 in light winds");
        let (ok, e) = may_take_off(throw, windy, Mission::Transport, &glider, "T");
        assert!(!ok, "gliders need 3");
        assert_eq!(e.inputs[1].value, serde_json::json!(["aircraft", "gliders"]));
        let para = [Load::Paratroops { element: "1 Pl".into(), points: 60 }];
        assert!(!may_take_off(throw, windy, Mission::Transport, &para, "T").0);
        assert_eq!(take_off_columns(Mission::Recce, &[]), [Flight::Recce]);
        let dark = Conditions { light: Light::NightNoMoon, ..Conditions::FINE_DAY };
        let six = FlyingThrow { face: 6, chart: Chart::Standard };
        assert!(!may_take_off(six, dark, Mission::Recce, &[], "R").0, "no recce on a moonless night");
        assert!(may_take_off(six, dark, Mission::Bombing, &[], "B").0);
    }

    #[test]
    fn tug_shot_down_loses_its_glider() {
        let loads = vec![Load::Glider { name: "Horsa 1".into(), contents_points: 120 }, Load::Supply { points: 10 }];
        assert_eq!(lost_with_carrier(&loads, DamageOutcome::ShotDown, "Dakota").0, loads);
        assert!(lost_with_carrier(&loads, DamageOutcome::DrivenOff, "Dakota").0.is_empty());
        assert!(lost_with_carrier(&loads, DamageOutcome::Flying, "Dakota").0.is_empty());
    }
}
