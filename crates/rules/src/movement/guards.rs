//! Guards (*Heroes All*, "Guards"): faced by the Compass die, turned about
//! each bound, re-faced by their NCO's Leadership test.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::officer::{Officer, leadership_test};
use crate::terrain::Point;

/// A point of the compass, as the D8 reads it (1 = N, 2 = NE … 8 = NW).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Compass {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

/// The "Compass" die (N-NE-E-SE-S-SW-W-NW).
const COMPASS: [Compass; 8] =
    [Compass::N, Compass::NE, Compass::E, Compass::SE, Compass::S, Compass::SW, Compass::W, Compass::NW];

impl Compass {
    /// Every point, clockwise from north.
    pub const ALL: [Compass; 8] = COMPASS;

    /// The opposite point.
    pub fn reversed(self) -> Self {
        COMPASS[(self as usize + 4) % 8]
    }

    /// Bearing in degrees clockwise from north (table north is the far edge).
    pub fn degrees(self) -> f32 {
        self as usize as f32 * 45.0
    }

    /// The point nearest the way from `from` to `to` (north, for no way at all).
    pub fn nearest(from: Point, to: Point) -> Self {
        let bearing = (to.0 - from.0).atan2(to.1 - from.1).to_degrees().rem_euclid(360.0);
        COMPASS[((bearing / 45.0).round() as usize) % 8]
    }

    /// The point in words, as a player reads it.
    pub fn name(self) -> &'static str {
        match self {
            Compass::N => "north",
            Compass::NE => "north-east",
            Compass::E => "east",
            Compass::SE => "south-east",
            Compass::S => "south",
            Compass::SW => "south-west",
            Compass::W => "west",
            Compass::NW => "north-west",
        }
    }

    /// The way it points on the table: a unit step, x across to the right,
    /// y towards the far edge.
    pub fn toward(self) -> Point {
        let r = self.degrees().to_radians();
        Point(r.sin(), r.cos())
    }
}

impl Guard {
    /// "can observe a 180 degree arc to their front": whether `to` lies in
    /// the half of the table in front of a guard at `from` (its edge
    /// included).
    pub fn sees_towards(&self, from: Point, to: Point) -> bool {
        crate::facing::in_front(from, self.facing.toward(), to)
    }

    /// "Guards can only move in the direction they're facing". Reading: the
    /// Compass die gives one of 8 points, so a move within half a point
    /// (22.5°) either side of it is "in the direction" (test
    /// `a_guard_looks_and_walks_the_way_it_faces`).
    pub fn may_walk_to(&self, from: Point, to: Point) -> bool {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-3 {
            return true;
        }
        let ahead = self.facing.toward();
        (dx * ahead.0 + dy * ahead.1) / len >= (22.5f32 + 0.01).to_radians().cos()
    }
}

/// A guard (*Heroes All*, "Guards"): on Overwatch, covering the 180° arc it
/// faces; it moves only the way it faces, at 50%
/// ([`Pace::Overwatch`](super::Pace::Overwatch)), and "They move and then
/// turn 180 degrees (in that order) each bound."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guard {
    pub facing: Compass,
}

impl Guard {
    /// The turn at the end of the guard's bound, after any move.
    pub fn turn_about(&mut self) {
        self.facing = self.facing.reversed();
    }

    /// "A guard can be re-faced during the game by their NCO passing a
    /// Leadership test" (*Heroes All*, "Guards"; the 2-player game uses a "4"
    /// Command Dice instead). Returns whether the guard now faces `to`.
    ///
    /// Readings: the NCO names the new facing (the Compass die only faces a
    /// guard at the start of the game); the test is not one of the two Acts
    /// (FYOB's list of Acts does not name it); a failed test leaves the facing
    /// as it was (test `a_guard_is_re_faced_when_its_nco_passes_a_leadership_test`).
    pub fn re_face(&mut self, nco: Officer, to: Compass, dice: &mut impl Roll, id: &str) -> (bool, RuleEvent) {
        let (test, mut e) = leadership_test(nco, dice, id);
        e.rule = RuleRef::new(Book::HeroesAll, "Guards");
        let e = e.input("facing", self.facing, "before").input("re_face", to, "the facing the NCO names");
        if test.passed {
            self.facing = to;
        }
        (test.passed, e)
    }
}

/// "Guards are \"faced\" at the start of the game with a D8 or \"Compass\" die".
pub fn face_guard(dice: &mut impl Roll, id: &str) -> (Guard, RuleEvent) {
    let face = dice.d8();
    let guard = Guard { facing: COMPASS[usize::from(face) - 1] };
    let e = RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Guards"))
        .actor(id)
        .dice(8, &[face])
        .outcome(json!({ "facing": guard.facing }));
    (guard, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guard_looks_and_walks_the_way_it_faces() {
        let north = Guard { facing: Compass::N };
        let at = Point(10.0, 10.0);
        assert!(north.sees_towards(at, Point(30.0, 11.0)), "the arc's edge is in it");
        assert!(north.sees_towards(at, Point(10.0, 40.0)));
        assert!(!north.sees_towards(at, Point(10.0, 2.0)), "behind him");
        let mut east = Guard { facing: Compass::E };
        assert!((east.facing.toward().0 - 1.0).abs() < 1e-6 && east.facing.toward().1.abs() < 1e-6);
        assert!(east.may_walk_to(at, Point(16.0, 12.0)), "18 degrees off: within half a point");
        assert!(!east.may_walk_to(at, Point(16.0, 14.0)), "34 degrees off");
        east.turn_about();
        assert_eq!(east.facing, Compass::W);
        assert!(east.may_walk_to(at, Point(4.0, 10.0)) && !east.sees_towards(at, Point(16.0, 10.0)));
        assert_eq!(Compass::nearest(at, Point(10.0, 2.0)), Compass::S);
        assert_eq!(Compass::nearest(at, Point(14.0, 13.0)), Compass::NE, "53 degrees: nearer NE than E");
        assert_eq!(Compass::nearest(at, Point(2.0, 11.0)), Compass::W);
        assert_eq!(Compass::nearest(at, Point(9.0, 30.0)), Compass::N, "357 degrees");
        let ne = Guard { facing: Compass::NE };
        assert!(ne.may_walk_to(at, Point(14.0, 14.0)) && !ne.may_walk_to(at, Point(10.0, 16.0)));
    }
    use crate::dice::Scripted;

    #[test]
    fn guards_face_by_the_compass_die_and_turn_about_each_bound() {
        let (mut g, e) = face_guard(&mut Scripted::new([3]), "guard");
        assert_eq!(g.facing, Compass::E);
        assert_eq!(e.dice[0].sides, 8);
        g.turn_about();
        assert_eq!(g.facing, Compass::W);
        assert_eq!(Compass::NE.reversed(), Compass::SW);
        assert_eq!(Compass::NW.degrees(), 315.0);
        let (g, _) = face_guard(&mut Scripted::new([8]), "guard");
        assert_eq!(g.facing, Compass::NW);
    }

    #[test]
    fn a_guard_is_re_faced_when_its_nco_passes_a_leadership_test() {
        use crate::officer::{Grade, Rank};
        // A Regular (2) NCO passes on less than his rating + 3: 1 to 4.
        let nco = Officer::new(Rank::Nco, Grade::Regular).unwrap();
        let mut g = Guard { facing: Compass::N };
        let (passed, e) = g.re_face(nco, Compass::E, &mut Scripted::new([4]), "guard");
        assert!(passed);
        assert_eq!(g.facing, Compass::E);
        assert_eq!(e.rule, RuleRef::new(Book::HeroesAll, "Guards"));
        let (passed, _) = g.re_face(nco, Compass::S, &mut Scripted::new([5]), "guard");
        assert!(!passed);
        assert_eq!(g.facing, Compass::E, "a failed test leaves the guard as it was");
        // A Weak (0) NCO needs a 1 or 2.
        let weak = Officer::new(Rank::Nco, Grade::Weak).unwrap();
        assert!(!g.re_face(weak, Compass::S, &mut Scripted::new([3]), "guard").0);
        assert!(g.re_face(weak, Compass::S, &mut Scripted::new([2]), "guard").0);
        assert_eq!(g.facing, Compass::S);
    }
}
