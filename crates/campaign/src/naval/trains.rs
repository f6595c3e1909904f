//! Trains (FYOW 30): loading and unloading, moves along the railway, one
//! train to a Map Board, damage to railway vehicles, cutting and mending the
//! line, and railway guns. Railway bridges (30.6) are the road bridges'
//! rules, kept with the map's bridges.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::effects::ArmourClass;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::naval::{NavalError, rule};

/// How load spaces are handled in a session (30.1, 30.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadRate {
    /// At a station: "a D10 and a D6 ... multiplied together".
    Station,
    /// Unloading infantry and CSWs at a break in the line: 2D10.
    BreakUnload,
    /// Re-loading once the track is repaired: 2D6.
    BreakReload,
}

/// Loading or unloading a train: the Load Spaces to handle and those handled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadingJob {
    pub load_spaces: u16,
    pub handled: u16,
}

impl LoadingJob {
    pub fn new(load_spaces: u16) -> Self {
        Self { load_spaces, handled: 0 }
    }

    /// "A train is deemed to be loaded/unloaded when the cumulative dice score
    /// equals the number of Load Spaces being handled."
    pub fn done(&self) -> bool {
        self.handled >= self.load_spaces
    }

    /// One session's loading (30.1: "the Umpire throws a D10 and a D6. The
    /// scores are multiplied together"; 30.5: 2D10 or 2D6 at a break).
    ///
    /// Reading (FYOW 30.1, 31): "trains load and unload according to Work &
    /// Task rules", so at night the score is halved, rounded up (31).
    pub fn session(
        &mut self,
        id: &str,
        rate: LoadRate,
        night: bool,
        dice: &mut impl Roll,
    ) -> Result<(u16, RuleEvent), NavalError> {
        if self.done() {
            return Err(NavalError::OutOfRange(format!("{id} is already loaded/unloaded")));
        }
        let (d10, d6): (Vec<u8>, Vec<u8>) = match rate {
            LoadRate::Station => (vec![dice.d10()], vec![dice.d6()]),
            LoadRate::BreakUnload => (dice.throw(2, 10), Vec::new()),
            LoadRate::BreakReload => (Vec::new(), dice.throw(2, 6)),
        };
        let sum = |v: &[u8]| v.iter().map(|&f| u16::from(f)).sum::<u16>();
        let raw = match rate {
            LoadRate::Station => sum(&d10) * sum(&d6),
            LoadRate::BreakUnload => sum(&d10),
            LoadRate::BreakReload => sum(&d6),
        };
        let score = if night { raw.div_ceil(2) } else { raw };
        self.handled = self.handled.saturating_add(score);
        let section =
            if rate == LoadRate::Station { "30.1 Trains have a capacity" } else { "30.5 A railway line can be cut" };
        let event = RuleEvent::new(EventKind::Train, rule(section))
            .actor(id)
            .input("rate", rate, "")
            .input("night", night, "Work & Task scores halved at night (31)")
            .input("load_spaces", self.load_spaces, "")
            .dice(10, &d10)
            .dice(6, &d6)
            .outcome(json!({ "score": score, "handled": self.handled, "done": self.done() }));
        Ok((score, event))
    }
}

/// Trains' Movement Points (30.2).
pub const TRAIN_MOVEMENT_POINTS: u8 = 4;
/// "All rail links between Map Boards require 5 MP" (30.2).
pub const RAIL_LINK_POINTS: u8 = 5;

/// What moves on the railway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RailMover {
    Train,
    /// Railway guns "retain 4 Movement Points but can only move 3 Map Boards per day" (30.7).
    RailwayGun,
}

impl RailMover {
    /// Map Boards a day: 6 for a train (30.2), 3 for a railway gun (30.7).
    pub const fn boards_per_day(self) -> u8 {
        match self {
            Self::Train => 6,
            Self::RailwayGun => 3,
        }
    }
}

/// A rail move's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RailMove {
    /// The D10, `None` for an "auto" move.
    pub face: Option<u8>,
    pub moved: bool,
}

/// FYOW 30.2: a train's move along one rail link. Links "are normally auto
/// moves unless the weather or disruption intervenes".
///
/// Reading (FYOW 30.2): when weather or disruption intervenes
/// (`intervention` is the Movement Test Table's modifier total for it), the
/// train takes the usual movement test: D10 + its 4 MP + the modifiers must
/// reach the link's 5 MP.
pub fn rail_move(
    id: &str,
    mover: RailMover,
    boards_today: u8,
    intervention: Option<i8>,
    dice: &mut impl Roll,
) -> Result<(RailMove, RuleEvent), NavalError> {
    if boards_today >= mover.boards_per_day() {
        return Err(NavalError::OutOfRange(format!(
            "{mover:?} moves at most {} Map Boards a day",
            mover.boards_per_day()
        )));
    }
    let result = match intervention {
        None => RailMove { face: None, moved: true },
        Some(m) => {
            let face = dice.d10();
            let score = i16::from(face) + i16::from(TRAIN_MOVEMENT_POINTS) + i16::from(m);
            RailMove { face: Some(face), moved: score >= i16::from(RAIL_LINK_POINTS) }
        }
    };
    let section = if mover == RailMover::RailwayGun { "30.7 Railway guns" } else { "30.2 Trains movement" };
    let event = RuleEvent::new(EventKind::Train, rule(section))
        .actor(id)
        .input("boards_today", boards_today, "")
        .input("intervention", intervention, "weather or disruption modifiers; none is an auto move")
        .dice(10, result.face.as_slice())
        .outcome(json!(result));
    Ok((result, event))
}

/// FYOW 30.3: "Only one train can occupy a Map Board at any one time but can
/// cross or pass at any Map Board where stations are indicated."
pub fn may_enter(board_has_station: bool, trains_on_board: u8) -> Result<(), NavalError> {
    if board_has_station || trains_on_board == 0 {
        Ok(())
    } else {
        Err(NavalError::OutOfRange("only one train to a Map Board without a station".into()))
    }
}

/// FYOW 30.4: "Treat all railway vehicles as Softs when assessing damage ...
/// Armoured Trains ... are considered to have Light Armour all around".
pub const fn rail_armour(armoured: bool) -> ArmourClass {
    if armoured { ArmourClass::Light } else { ArmourClass::SoftSkinned }
}

/// "Locomotives are destroyed after absorbing 3 points of damage" (30.4).
pub const LOCOMOTIVE_DAMAGE: u8 = 3;

/// A locomotive's damage (30.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Locomotive {
    pub damage: u8,
}

impl Locomotive {
    /// Accrues damage; true once destroyed.
    pub fn hit(&mut self, points: u8) -> bool {
        self.damage = self.damage.saturating_add(points).min(LOCOMOTIVE_DAMAGE);
        self.destroyed()
    }

    pub fn destroyed(&self) -> bool {
        self.damage >= LOCOMOTIVE_DAMAGE
    }
}

/// FYOW 30.5: "A railway line can be cut using 1 large or 2 small charges, or
/// 1 set of Partisan explosives."
pub const fn line_cut(large_charges: u8, small_charges: u8, partisan_sets: u8) -> bool {
    large_charges >= 1 || small_charges >= 2 || partisan_sets >= 1
}

/// Who mends a cut line (30.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepairParty {
    /// "A Platoon of 10 Engineers who throw 4D10 per session".
    Engineers,
    /// "A platoon of 10 infantrymen ... throwing 4D6 per session".
    Infantry,
}

/// "The line is restored to working order when they have an accumulated
/// score of 24" (30.5).
pub const LINE_REPAIR_SCORE: u16 = 24;

/// Mending a cut line (30.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LineRepair {
    pub score: u16,
}

impl LineRepair {
    /// Restored: usable "during the following session".
    pub fn restored(&self) -> bool {
        self.score >= LINE_REPAIR_SCORE
    }

    /// One session's work by a party of `men`.
    ///
    /// Reading (FYOW 30.5 "4D10 per session" against 31.2 "1D10 per
    /// session"): 31.1 says "each session represents 4 bounds. Dice throws
    /// must therefore be multiplied"; 31.2's 1D10 (1D6) is the table's throw
    /// a bound, four of them a session, so both give 4D10 (4D6) a session to
    /// 24 (test `mending_the_line_to_24`).
    ///
    /// Reading (FYOW 30.5, 31): the full rules of 31 apply: half the party
    /// (5–9 men of the platoon of 10) halves the score, and night halves it
    /// again, each rounded up; fewer than 5 men cannot take the task.
    pub fn session(
        &mut self,
        id: &str,
        party: RepairParty,
        men: u8,
        night: bool,
        dice: &mut impl Roll,
    ) -> Result<(u16, RuleEvent), NavalError> {
        if men < 5 {
            return Err(NavalError::OutOfRange(format!("{men} men: the line needs a platoon of 10 (at least half)")));
        }
        if self.restored() {
            return Err(NavalError::OutOfRange(format!("{id}: the line is already restored")));
        }
        let sides = match party {
            RepairParty::Engineers => 10,
            RepairParty::Infantry => 6,
        };
        let faces = dice.throw(4, sides);
        let mut score: u16 = faces.iter().map(|&f| u16::from(f)).sum();
        if men < 10 {
            score = score.div_ceil(2);
        }
        if night {
            score = score.div_ceil(2);
        }
        self.score += score;
        let event = RuleEvent::new(EventKind::Work, rule("30.5 A railway line can be cut"))
            .actor(id)
            .input("party", party, "")
            .input("men", men, "half the platoon halves the score (31)")
            .input("night", night, "night halves the score (31)")
            .dice(sides, &faces)
            .outcome(json!({ "score": score, "accumulated": self.score, "restored": self.restored() }));
        Ok((score, event))
    }
}

/// FYOW 30.7: "Railway guns can be deployed to fire from any Map Board
/// containing a station/yard" (and fire as artillery of their calibre).
pub fn railway_gun_may_fire(board_has_station_or_yard: bool) -> Result<(), NavalError> {
    if board_has_station_or_yard {
        Ok(())
    } else {
        Err(NavalError::CannotEngage("railway guns fire only from a Map Board with a station or yard".into()))
    }
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    #[test]
    fn loading_multiplies_d10_by_d6_until_done() {
        let mut job = LoadingJob::new(40);
        let (s, e) = job.session("Train 1", LoadRate::Station, false, &mut Scripted::new([6, 5])).unwrap();
        assert_eq!(s, 30);
        assert!(!job.done());
        assert_eq!(e.kind, EventKind::Train);
        let (s, _) = job.session("Train 1", LoadRate::Station, false, &mut Scripted::new([10, 1])).unwrap();
        assert_eq!(s, 10, "a 0 counts as 10");
        assert!(job.done(), "40 equals the Load Spaces");
        assert!(job.session("Train 1", LoadRate::Station, false, &mut Scripted::new([1, 1])).is_err());
    }

    #[test]
    fn night_loading_is_halved_rounded_up() {
        let mut job = LoadingJob::new(100);
        let (s, _) = job.session("T", LoadRate::Station, true, &mut Scripted::new([3, 3])).unwrap();
        assert_eq!(s, 5);
    }

    #[test]
    fn breaks_unload_2d10_and_reload_2d6() {
        let mut job = LoadingJob::new(30);
        assert_eq!(job.session("T", LoadRate::BreakUnload, false, &mut Scripted::new([7, 9])).unwrap().0, 16);
        assert_eq!(job.session("T", LoadRate::BreakReload, false, &mut Scripted::new([6, 6])).unwrap().0, 12);
        assert_eq!(job.handled, 28);
    }

    #[test]
    fn trains_move_automatically_unless_weather_intervenes() {
        let (m, e) = rail_move("T", RailMover::Train, 0, None, &mut Scripted::new([])).unwrap();
        assert!(m.moved);
        assert!(e.dice.is_empty());
        let (m, _) = rail_move("T", RailMover::Train, 0, Some(-2), &mut Scripted::new([3])).unwrap();
        assert!(m.moved, "3 + 4 - 2 = 5");
        let (m, _) = rail_move("T", RailMover::Train, 0, Some(-2), &mut Scripted::new([2])).unwrap();
        assert!(!m.moved);
        assert!(rail_move("T", RailMover::Train, 6, None, &mut Scripted::new([])).is_err());
    }

    #[test]
    fn railway_guns_move_3_boards_a_day_and_fire_from_stations() {
        assert!(rail_move("K5", RailMover::RailwayGun, 2, None, &mut Scripted::new([])).is_ok());
        assert!(rail_move("K5", RailMover::RailwayGun, 3, None, &mut Scripted::new([])).is_err());
        assert!(railway_gun_may_fire(true).is_ok());
        assert!(railway_gun_may_fire(false).is_err());
    }

    #[test]
    fn one_train_a_board_except_at_stations() {
        assert!(may_enter(false, 0).is_ok());
        assert!(may_enter(false, 1).is_err());
        assert!(may_enter(true, 2).is_ok());
    }

    #[test]
    fn rail_vehicles_are_softs_armoured_trains_light() {
        assert_eq!(rail_armour(false), ArmourClass::SoftSkinned);
        assert_eq!(rail_armour(true), ArmourClass::Light);
        let mut loco = Locomotive::default();
        assert!(!loco.hit(2));
        assert!(loco.hit(1), "destroyed after 3 points");
    }

    #[test]
    fn cutting_the_line() {
        assert!(line_cut(1, 0, 0));
        assert!(!line_cut(0, 1, 0));
        assert!(line_cut(0, 2, 0));
        assert!(line_cut(0, 0, 1));
        assert!(!line_cut(0, 0, 0));
    }

    #[test]
    fn mending_the_line_to_24() {
        let mut r = LineRepair::default();
        let (s, _) =
            r.session("Pioneers", RepairParty::Engineers, 10, false, &mut Scripted::new([5, 6, 4, 3])).unwrap();
        assert_eq!(s, 18);
        assert!(!r.restored());
        let (s, _) = r.session("Pioneers", RepairParty::Infantry, 10, true, &mut Scripted::new([3, 3, 3, 2])).unwrap();
        assert_eq!(s, 6, "11 halved at night, rounded up");
        assert!(r.restored());
        assert!(r.session("Pioneers", RepairParty::Infantry, 10, false, &mut Scripted::new([])).is_err());
    }

    #[test]
    fn half_a_platoon_halves_and_fewer_cannot() {
        let mut r = LineRepair::default();
        let (s, _) = r.session("Sec", RepairParty::Infantry, 5, false, &mut Scripted::new([6, 6, 6, 5])).unwrap();
        assert_eq!(s, 12);
        assert!(r.session("Sec", RepairParty::Infantry, 4, false, &mut Scripted::new([])).is_err());
    }
}
