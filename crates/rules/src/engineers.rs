//! *Heroes All*, "Engineers": their rating (Poor for firing and CM Tests),
//! road and bridge repairs, pontoon bridges, and bridge- or fascine-laying
//! tanks. Each is work thrown for bound after bound until an accumulated
//! score is reached; the working element has passed its ORT (the Order Die
//! is not thrown) and does nothing else that bound. Mine clearing is in
//! [`crate::mines`].

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::officer::Quality;

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::HeroesAll, section)
}

/// "Engineers are rated as Poor for firing and Continuous Momentum Tests."
pub const ENGINEER_QUALITY: Quality = Quality::Poor;

/// Bad input to engineering work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkError {
    /// Fewer than the team the rule names (2 engineers or 4 infantrymen on a road).
    TooFewToRepair { engineers: u8, infantry: u8 },
    /// "Erected by up to 6 engineers/soldiers"; none at all throws nothing.
    PontoonCrew(u8),
    /// The bridge is already built.
    AlreadyDone,
}

impl fmt::Display for WorkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewToRepair { engineers, infantry } => {
                write!(f, "{engineers} engineers and {infantry} infantrymen: 2 engineers or 4 infantrymen mend a road")
            }
            Self::PontoonCrew(n) => write!(f, "a pontoon crew is 1 to 6 men, not {n}"),
            Self::AlreadyDone => write!(f, "the work is already done"),
        }
    }
}

impl std::error::Error for WorkError {}

/// "1 point of damage is repaired when they have an accumulated score of 6."
pub const REPAIR_SCORE_PER_POINT: u32 = 6;

/// A road (or bridge) being mended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RoadRepair {
    /// Score accumulated towards the next point of damage.
    pub accumulated: u32,
}

impl RoadRepair {
    /// One bound's work: "2 engineers working on a road throw a D10 per bound.
    /// 4 infantrymen can also mend roads, throwing a D6 per bound."
    ///
    /// Reading: engineers throw if there are 2 of them, else infantry if 4;
    /// more men add no dice and no half-team rule is given for roads, so
    /// fewer cannot mend one. Each 6 accumulated repairs a point and the
    /// rest carries on towards the next (test `reading_road_repairs_carry_the_remainder`).
    /// Returns the points of damage repaired this bound.
    pub fn work(
        &mut self,
        engineers: u8,
        infantry: u8,
        dice: &mut impl Roll,
        id: &str,
    ) -> Result<(u32, RuleEvent), WorkError> {
        let (sides, crew) = if engineers >= 2 {
            (10, "2 engineers: a D10")
        } else if infantry >= 4 {
            (6, "4 infantrymen: a D6")
        } else {
            return Err(WorkError::TooFewToRepair { engineers, infantry });
        };
        let face = dice.face(sides);
        self.accumulated += u32::from(face);
        let repaired = self.accumulated / REPAIR_SCORE_PER_POINT;
        self.accumulated %= REPAIR_SCORE_PER_POINT;
        let event = RuleEvent::new(EventKind::Engineering, rule("Repairing roads and bridges"))
            .actor(id)
            .input("crew", json!({ "engineers": engineers, "infantry": infantry }), crew)
            .dice(sides, &[face])
            .outcome(json!({ "repaired": repaired, "carried": self.accumulated }));
        Ok((repaired, event))
    }
}

/// Work thrown for until an accumulated score is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    pub needed: u32,
    pub accumulated: u32,
}

/// "A temporary/pontoon bridge is erected by up to 6 engineers/soldiers."
pub const PONTOON_CREW_MAX: u8 = 6;

/// *Heroes All*, "Pontoon bridges": "will have assembled the bridge when they
/// have an accumulated score of 60". FYOW 31's "1D10 per 4 engineers ... 45"
/// is its campaign work-and-tasks example; on the table *Heroes All* governs
/// (docs/rules-readings.md, test `reading_heroes_all_pontoon_not_fyow`).
pub const PONTOON_SCORE: u32 = 60;

/// A new pontoon bridge to build.
pub const fn pontoon() -> Task {
    Task { needed: PONTOON_SCORE, accumulated: 0 }
}

/// "Each bound, it throws a D10 and completes its task when it has an
/// accumulated score of 6" (bridge- or fascine-laying tank, using its Act).
pub const LAYER_SCORE: u32 = 6;

/// A bridge- or fascine-laying tank's task.
pub const fn layer_task() -> Task {
    Task { needed: LAYER_SCORE, accumulated: 0 }
}

impl Task {
    pub const fn done(&self) -> bool {
        self.accumulated >= self.needed
    }

    /// One bound of pontoon work by the men working this bound (those who
    /// carried out any other action "forfeit their dice throw"): "1D6 per
    /// engineer (up to a maximum of 6) per bound ... Infantrymen can be used
    /// instead of engineers but their D6 throw will be halved (odd numbers are
    /// rounded down)."
    ///
    /// Reading: engineers and infantrymen may work together, 6 at most in
    /// all; each infantryman's own D6 is halved, rounded down (test
    /// `reading_infantry_halve_each_die`).
    pub fn pontoon_bound(
        &mut self,
        engineers: u8,
        infantry: u8,
        dice: &mut impl Roll,
        id: &str,
    ) -> Result<(bool, RuleEvent), WorkError> {
        let crew = engineers.saturating_add(infantry);
        if crew == 0 || crew > PONTOON_CREW_MAX {
            return Err(WorkError::PontoonCrew(crew));
        }
        if self.done() {
            return Err(WorkError::AlreadyDone);
        }
        let eng = dice.throw(usize::from(engineers), 6);
        let inf = dice.throw(usize::from(infantry), 6);
        let score: u32 =
            eng.iter().map(|&f| u32::from(f)).sum::<u32>() + inf.iter().map(|&f| u32::from(f / 2)).sum::<u32>();
        self.accumulated += score;
        let event = RuleEvent::new(EventKind::Engineering, rule("Pontoon bridges"))
            .actor(id)
            .input("engineers", engineers, "1D6 each")
            .input("infantry", infantry, "1D6 each, halved rounding down")
            .input("needed", self.needed, "")
            .dice(6, &eng)
            .dice(6, &inf)
            .outcome(json!({ "score": score, "accumulated": self.accumulated, "built": self.done() }));
        Ok((self.done(), event))
    }

    /// One bound of a bridge- or fascine-laying tank's work: a D10.
    pub fn layer_bound(&mut self, dice: &mut impl Roll, id: &str) -> Result<(bool, RuleEvent), WorkError> {
        if self.done() {
            return Err(WorkError::AlreadyDone);
        }
        let face = dice.d10();
        self.accumulated += u32::from(face);
        let event = RuleEvent::new(EventKind::Engineering, rule("Bridge-laying or fascine-laying tanks"))
            .actor(id)
            .input("needed", self.needed, "")
            .dice(10, &[face])
            .outcome(json!({ "accumulated": self.accumulated, "laid": self.done() }));
        Ok((self.done(), event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};

    #[test]
    fn engineers_are_poor() {
        assert_eq!(ENGINEER_QUALITY, Quality::Poor);
    }

    #[test]
    fn reading_road_repairs_carry_the_remainder() {
        let mut road = RoadRepair::default();
        // Engineers' D10: 5 repairs nothing; then 8 makes 13: 2 points, 1 carried.
        assert_eq!(road.work(2, 0, &mut Scripted::new([5]), "RE").unwrap().0, 0);
        let (n, e) = road.work(2, 0, &mut Scripted::new([8]), "RE").unwrap();
        assert_eq!((n, road.accumulated), (2, 1));
        assert_eq!(e.dice[0].sides, 10);
        // Infantry throw a D6.
        let (_, e) = road.work(1, 4, &mut Scripted::new([6]), "Inf").unwrap();
        assert_eq!(e.dice[0].sides, 6);
        assert_eq!(
            road.work(1, 3, &mut Scripted::new([]), "Inf"),
            Err(WorkError::TooFewToRepair { engineers: 1, infantry: 3 })
        );
    }

    #[test]
    fn book_example_five_engineers_throw_5d6_a_bound_to_sixty() {
        // "constructed by a team of 5 engineers ... they threw 5D6 per bound
        // until they had accumulated a score of 60."
        let mut bridge = pontoon();
        let mut dice = Scripted::new([6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 1, 1, 1, 1, 1]);
        let (built, e) = bridge.pontoon_bound(5, 0, &mut dice, "Pi").unwrap();
        assert!(!built);
        assert_eq!(e.dice.len(), 5);
        assert!(!bridge.pontoon_bound(5, 0, &mut dice, "Pi").unwrap().0, "59 is one short");
        assert!(bridge.pontoon_bound(5, 0, &mut dice, "Pi").unwrap().0);
        assert_eq!(bridge.accumulated, 64);
        assert_eq!(bridge.pontoon_bound(5, 0, &mut dice, "Pi"), Err(WorkError::AlreadyDone));
        // 5 engineers average 17.5 a bound: the bridge takes about 4 bounds.
        let mut seeded = Dice::new(11);
        let mut bounds = 0;
        for _ in 0..200 {
            let mut b = pontoon();
            while !b.pontoon_bound(5, 0, &mut seeded, "Pi").unwrap().0 {
                bounds += 1;
            }
            bounds += 1;
        }
        assert!((650..=900).contains(&bounds), "{bounds} bounds for 200 bridges");
    }

    #[test]
    fn reading_infantry_halve_each_die() {
        let mut bridge = pontoon();
        // 2 engineers (4 + 3) and 3 infantrymen (5, 3, 6 halved: 2 + 1 + 3).
        bridge.pontoon_bound(2, 3, &mut Scripted::new([4, 3, 5, 3, 6]), "Mixed").unwrap();
        assert_eq!(bridge.accumulated, 7 + 6);
        assert_eq!(bridge.pontoon_bound(4, 3, &mut Scripted::new([]), "x"), Err(WorkError::PontoonCrew(7)));
        assert_eq!(bridge.pontoon_bound(0, 0, &mut Scripted::new([]), "x"), Err(WorkError::PontoonCrew(0)));
    }

    #[test]
    fn reading_heroes_all_pontoon_not_fyow() {
        assert_eq!(pontoon().needed, 60, "Heroes All: 60, not FYOW 31's 45");
        assert_eq!(PONTOON_CREW_MAX, 6, "Heroes All: up to 6, not FYOW's 10");
    }

    #[test]
    fn bridge_layer_needs_an_accumulated_six_on_a_d10() {
        let mut t = layer_task();
        assert!(!t.layer_bound(&mut Scripted::new([4]), "AVRE").unwrap().0);
        assert!(t.layer_bound(&mut Scripted::new([2]), "AVRE").unwrap().0);
        assert_eq!(t.layer_bound(&mut Scripted::new([1]), "AVRE"), Err(WorkError::AlreadyDone));
    }
}
