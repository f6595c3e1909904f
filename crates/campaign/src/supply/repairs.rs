//! FYOW 23 Repairs to damaged vehicles: an Engineers Field Park unit throws
//! 2D10 a session, a crew 2D6, until half the vehicle's points value (rounded
//! up) is accumulated; night, heavy rain or snow and a Rain/Snow Gauge of 7+
//! each take a pip off. FYOW "24.2" (printed after 23): a completed repair
//! gives the element a CMS Rallying throw when its CMS is below 6.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::codex::Points;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::momentum::MAX_CMS;

use crate::supply::logistics::Mode;
use crate::supply::work::need_in_mode;
use crate::supply::{SupplyError, fyow};

/// FYOW 23.1: the Rain/Snow Gauge at which a pip comes off.
pub const GAUGE_PENALTY_FROM: u8 = 7;

/// Who repairs (FYOW 23.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Repairer {
    /// "If an Engineers Field Park unit is present on the Map Board": 2D10 a session.
    FieldPark,
    /// "the crew are making repairs": 2D6 a session, their own vehicle.
    Crew,
}

impl Repairer {
    /// The dice thrown a session, as (count, sides).
    pub const fn dice(self) -> (usize, u8) {
        match self {
            Repairer::FieldPark => (2, 10),
            Repairer::Crew => (2, 6),
        }
    }
}

/// The session's conditions for repairs (FYOW 23.1; 20.6, 20.11, 31.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairConditions {
    /// "During Night sessions - deduct 1 pip."
    pub night: bool,
    /// "In heavy rain/snow - deduct 1 pip."
    pub heavy_rain_or_snow: bool,
    /// "If the Rain/Snow Gauge is at 7 or above - deduct 1 pip."
    pub gauge: u8,
    /// The repairers' Supply mode: no repairs at Rest; Rationed raises the need.
    pub mode: Mode,
}

impl RepairConditions {
    /// A dry day session, repairers Active.
    pub const DAY: Self = Self { night: false, heavy_rain_or_snow: false, gauge: 0, mode: Mode::Active };

    /// "The three deductions indicated above are cumulative."
    pub const fn pips(&self) -> u8 {
        self.night as u8 + self.heavy_rain_or_snow as u8 + (self.gauge >= GAUGE_PENALTY_FROM) as u8
    }
}

/// A damaged vehicle under repair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairJob {
    pub vehicle: String,
    /// "HALF of the vehicle's points value (rounded up)".
    pub needed: u32,
    pub accumulated: u32,
    /// The CMS of the element the vehicle belongs to (or its own, acting alone).
    pub element_cms: u8,
}

impl RepairJob {
    /// A vehicle of `value` points to repair.
    pub fn new(vehicle: &str, value: Points, element_cms: u8) -> Result<Self, SupplyError> {
        if value == Points::ZERO {
            return Err(SupplyError::NoValue(vehicle.to_owned()));
        }
        Ok(Self { vehicle: vehicle.to_owned(), needed: value.halves().div_ceil(4), accumulated: 0, element_cms })
    }

    /// The need under the repairers' mode.
    ///
    /// Reading (FYOW 23 with 31.1): repairs are made "using the Work & Tasks
    /// rules" (FYOW 33, 31.3), and 31.1 applies "in all cases", so a Rationed
    /// repairer needs three times as much, as any Work & Task (see
    /// [`need_in_mode`]; test `rationed_repairs_need_three_times`).
    pub fn needed_in(&self, mode: Mode) -> u32 {
        need_in_mode(self.needed, mode)
    }

    fn done_in(&self, mode: Mode) -> bool {
        self.accumulated >= self.needed_in(mode)
    }
}

/// A repair completed this session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Completed {
    pub vehicle: String,
    /// FYOW 24.2: the element gains a Rallying throw (its CMS is below 6).
    pub rally_throw: bool,
}

/// One session's repair work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairSession {
    pub faces: Vec<u8>,
    pub score: u32,
    /// The vehicles the score went to, in order.
    pub worked_on: Vec<String>,
    pub completed: Vec<Completed>,
}

/// FYOW 20.6 and 20.11: a force at Rest undertakes no Work & Tasks and its
/// non-combat units "are not permitted to repair anything".
fn may_repair(cond: &RepairConditions) -> Result<(), SupplyError> {
    if cond.mode == Mode::Rest {
        return Err(SupplyError::NotAllowed { action: "Repair".into(), mode: "Rest".into() });
    }
    Ok(())
}

fn throw(by: Repairer, cond: &RepairConditions, dice: &mut impl Roll) -> (Vec<u8>, u32) {
    let (n, sides) = by.dice();
    let faces = dice.throw(n, sides);
    let sum: u32 = faces.iter().map(|&f| u32::from(f)).sum();
    (faces, sum.saturating_sub(u32::from(cond.pips())))
}

fn event(by: Repairer, cond: &RepairConditions, faces: &[u8], session: &RepairSession, id: &str) -> RuleEvent {
    let (_, sides) = by.dice();
    RuleEvent::new(EventKind::Supply, fyow("23.1 Repairs to Damaged vehicles"))
        .actor(id)
        .input("repairer", by, "Field Park 2D10, crew 2D6")
        .input("pips", cond.pips(), "night, heavy rain/snow, gauge 7+: 1 each, cumulative")
        .input("mode", cond.mode, "Rationed: need x3 (20.7.3 + 31.1)")
        .dice(sides, faces)
        .outcome(json!({ "score": session.score, "worked_on": session.worked_on, "completed": session.completed }))
}

fn complete(job: &RepairJob) -> Completed {
    // FYOW 24.2: a Rallying throw is gained when the CMS is "less than 6".
    Completed { vehicle: job.vehicle.clone(), rally_throw: job.element_cms < MAX_CMS }
}

/// A Field Park unit's session: 2D10 on the first unfinished vehicle in the queue.
///
/// "The Field Park Unit can only repair one vehicle at a time but if ... the
/// 2D10 throw yields a score that finishes repairs to one vehicle, any surplus
/// can be transferred to the start of repairs for a second vehicle during that
/// same session."
///
/// Reading (FYOW 23.1): the surplus goes to one second vehicle only; what is
/// left after that is lost (test `reading_surplus_goes_to_one_second_vehicle_only`).
pub fn field_park_session(
    queue: &mut [RepairJob],
    cond: &RepairConditions,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(RepairSession, RuleEvent), SupplyError> {
    may_repair(cond)?;
    if queue.iter().all(|j| j.done_in(cond.mode)) {
        return Err(SupplyError::AlreadyDone);
    }
    let (faces, score) = throw(Repairer::FieldPark, cond, dice);
    let mut session = RepairSession { faces: faces.clone(), score, worked_on: Vec::new(), completed: Vec::new() };
    let mut left = score;
    for job in queue.iter_mut().filter(|j| !j.done_in(cond.mode)).take(2) {
        if session.worked_on.len() == 1 && left == 0 {
            break;
        }
        let need = job.needed_in(cond.mode) - job.accumulated;
        let used = left.min(need);
        job.accumulated += used;
        left -= used;
        session.worked_on.push(job.vehicle.clone());
        if job.done_in(cond.mode) {
            session.completed.push(complete(job));
        } else {
            break;
        }
    }
    let e = event(Repairer::FieldPark, cond, &faces, &session, id);
    Ok((session, e))
}

/// A crew's session on its own vehicle: 2D6 ("Each AFV crew can make a 2D6
/// throw per session to repair their own vehicle").
pub fn crew_session(
    job: &mut RepairJob,
    cond: &RepairConditions,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(RepairSession, RuleEvent), SupplyError> {
    may_repair(cond)?;
    if job.done_in(cond.mode) {
        return Err(SupplyError::AlreadyDone);
    }
    let (faces, score) = throw(Repairer::Crew, cond, dice);
    job.accumulated += score;
    let completed = if job.done_in(cond.mode) { vec![complete(job)] } else { Vec::new() };
    let session = RepairSession { faces: faces.clone(), score, worked_on: vec![job.vehicle.clone()], completed };
    let e = event(Repairer::Crew, cond, &faces, &session, id);
    Ok((session, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::dice::Scripted;

    fn job(v: &str, points: u32, cms: u8) -> RepairJob {
        RepairJob::new(v, Points::whole(points), cms).unwrap()
    }

    #[test]
    fn need_is_half_the_points_value_rounded_up() {
        assert_eq!(job("Churchill", 45, 6).needed, 23);
        assert_eq!(job("Cromwell", 40, 6).needed, 20);
        assert_eq!(RepairJob::new("Jeep", Points::whole(2) + Points::HALF, 6).unwrap().needed, 2, "1¼ rounds up to 2");
        assert_eq!(RepairJob::new("x", Points::ZERO, 6), Err(SupplyError::NoValue("x".into())));
    }

    #[test]
    fn field_park_throws_2d10_crew_2d6() {
        let mut q = vec![job("Churchill", 45, 6)];
        let (s, e) = field_park_session(&mut q, &RepairConditions::DAY, &mut Scripted::new([10, 7]), "FP").unwrap();
        assert_eq!((s.score, q[0].accumulated), (17, 17));
        assert_eq!(e.kind, EventKind::Supply);
        assert_eq!(e.dice[0].sides, 10);
        let mut own = job("Sherman", 40, 6);
        let (s, _) = crew_session(&mut own, &RepairConditions::DAY, &mut Scripted::new([6, 5]), "Crew").unwrap();
        assert_eq!((s.score, own.accumulated), (11, 11));
    }

    #[test]
    fn deductions_are_cumulative_one_pip_each() {
        let all = RepairConditions { night: true, heavy_rain_or_snow: true, gauge: 7, mode: Mode::Active };
        assert_eq!(all.pips(), 3);
        assert_eq!(RepairConditions { gauge: 6, ..RepairConditions::DAY }.pips(), 0);
        assert_eq!(RepairConditions { gauge: 8, night: true, ..RepairConditions::DAY }.pips(), 2);
        let mut own = job("Sherman", 40, 6);
        let (s, _) = crew_session(&mut own, &all, &mut Scripted::new([1, 1]), "Crew").unwrap();
        assert_eq!(s.score, 0, "never below 0");
        let (s, _) = crew_session(&mut own, &all, &mut Scripted::new([6, 4]), "Crew").unwrap();
        assert_eq!(s.score, 7);
    }

    #[test]
    fn surplus_starts_a_second_vehicle_and_rally_follows() {
        let mut q = vec![job("Jeep", 10, 5), job("Truck", 30, 6), job("Carrier", 10, 4)];
        let (s, _) = field_park_session(&mut q, &RepairConditions::DAY, &mut Scripted::new([9, 8]), "FP").unwrap();
        assert_eq!(s.worked_on, ["Jeep", "Truck"]);
        assert_eq!((q[0].accumulated, q[1].accumulated, q[2].accumulated), (5, 12, 0));
        assert_eq!(s.completed, [Completed { vehicle: "Jeep".into(), rally_throw: true }], "CMS 5 < 6");
        let (s, _) = field_park_session(&mut q, &RepairConditions::DAY, &mut Scripted::new([1, 1]), "FP").unwrap();
        assert_eq!(s.worked_on, ["Truck"]);
        assert!(s.completed.is_empty());
    }

    #[test]
    fn reading_surplus_goes_to_one_second_vehicle_only() {
        let mut q = vec![job("Bike A", 4, 6), job("Bike B", 4, 6), job("Bike C", 4, 6)];
        let (s, _) = field_park_session(&mut q, &RepairConditions::DAY, &mut Scripted::new([10, 10]), "FP").unwrap();
        assert_eq!(s.completed.iter().map(|c| c.rally_throw).collect::<Vec<_>>(), [false, false], "CMS 6: no rally");
        assert_eq!(s.worked_on, ["Bike A", "Bike B"]);
        assert_eq!(q[2].accumulated, 0, "the rest of the 20 is lost");
    }

    #[test]
    fn rationed_repairs_need_three_times_and_rest_repairs_nothing() {
        let mut own = job("Sherman", 20, 6);
        let rationed = RepairConditions { mode: Mode::Rationed, ..RepairConditions::DAY };
        assert_eq!(own.needed_in(Mode::Rationed), 30);
        let (s, _) = crew_session(&mut own, &rationed, &mut Scripted::new([6, 6]), "Crew").unwrap();
        assert!(s.completed.is_empty(), "12 passes 10 but not 30");
        let rest = RepairConditions { mode: Mode::Rest, ..RepairConditions::DAY };
        assert!(matches!(
            crew_session(&mut own, &rest, &mut Scripted::new([]), "Crew"),
            Err(SupplyError::NotAllowed { .. })
        ));
        let mut q = vec![own.clone()];
        assert!(field_park_session(&mut q, &rest, &mut Scripted::new([]), "FP").is_err());
    }

    #[test]
    fn finished_work_is_refused() {
        let mut own = job("Jeep", 2, 6);
        crew_session(&mut own, &RepairConditions::DAY, &mut Scripted::new([1, 1]), "Crew").unwrap();
        assert_eq!(
            crew_session(&mut own, &RepairConditions::DAY, &mut Scripted::new([]), "Crew"),
            Err(SupplyError::AlreadyDone)
        );
        let mut q: Vec<RepairJob> = vec![own];
        assert_eq!(
            field_park_session(&mut q, &RepairConditions::DAY, &mut Scripted::new([]), "FP"),
            Err(SupplyError::AlreadyDone)
        );
    }
}
