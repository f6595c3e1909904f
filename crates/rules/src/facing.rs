//! Which quadrant of a vehicle a shot strikes (*Heroes All*, "AT Effects":
//! front, side or rear), from where the vehicle stands and where the firer is.

use crate::{effects::Facing, scenario::Edge, terrain::Point};

/// The quadrant of a vehicle a shot from `firer` strikes. Reading: with no
/// facing recorded, a vehicle faces away from its own table edge (towards
/// the enemy); within 45° of that it is hit on the front, beyond 135° on the
/// rear, otherwise on the side.
pub fn facing(target: Point, own_edge: Edge, firer: Point) -> Facing {
    facing_along(target, ahead(own_edge), firer)
}

/// The way a vehicle that has not moved faces: away from its own edge.
pub const fn ahead(own_edge: Edge) -> Point {
    match own_edge {
        Edge::Near => Point(0.0, 1.0),
        Edge::Far => Point(0.0, -1.0),
        Edge::Left => Point(1.0, 0.0),
        Edge::Right => Point(-1.0, 0.0),
    }
}

/// The quadrant a shot from `firer` strikes on a vehicle whose hull points
/// along `heading` (*Heroes All*, "AT guns firing at armour/softs": "taking
/// a line from corner to corner of the vehicle and seeing which quadrant the
/// firer can see"): within 45° of the heading the front, beyond 135° the
/// rear, otherwise a side.
pub fn facing_along(target: Point, heading: Point, firer: Point) -> Facing {
    let (dx, dy) = (firer.0 - target.0, firer.1 - target.1);
    let len = dx.hypot(dy) * heading.0.hypot(heading.1);
    if len <= f32::EPSILON {
        return Facing::Front;
    }
    let cos = (dx * heading.0 + dy * heading.1) / len;
    if cos >= std::f32::consts::FRAC_1_SQRT_2 {
        Facing::Front
    } else if cos <= -std::f32::consts::FRAC_1_SQRT_2 {
        Facing::Rear
    } else {
        Facing::Side
    }
}

/// Whether `to` lies in the 180° arc ahead of a figure at `from` facing
/// along `heading` (the arc's edge included): the arc Overwatch covers and a
/// guard observes (*Heroes All*, "Overwatch", "Guards").
pub fn in_front(from: Point, heading: Point, to: Point) -> bool {
    (to.0 - from.0) * heading.0 + (to.1 - from.1) * heading.1 >= -1e-3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arc_ahead_is_the_half_table_in_front() {
        let at = Point(10.0, 10.0);
        let north = Point(0.0, 1.0);
        assert!(in_front(at, north, Point(30.0, 10.0)), "the arc's edge is in it");
        assert!(in_front(at, north, Point(9.0, 40.0)));
        assert!(!in_front(at, north, Point(10.0, 9.0)), "just behind");
        assert!(in_front(at, Point(3.0, 0.0), Point(11.0, -50.0)), "any length of heading");
    }

    #[test]
    fn facing_by_quadrant() {
        let t = Point(10.0, 10.0);
        assert_eq!(facing(t, Edge::Near, Point(10.0, 30.0)), Facing::Front);
        assert_eq!(facing(t, Edge::Near, Point(10.0, 0.0)), Facing::Rear);
        assert_eq!(facing(t, Edge::Near, Point(30.0, 12.0)), Facing::Side);
        assert_eq!(facing(t, Edge::Left, Point(10.0, 30.0)), Facing::Side);
        assert_eq!(facing(t, Edge::Right, Point(0.0, 10.0)), Facing::Front);
    }

    #[test]
    fn a_tank_that_turned_shows_its_side() {
        // A German tank (far edge) that drove across the table, eastwards:
        // the gun on the near edge sees its side, a gun ahead of it its front,
        // one behind it its rear.
        let t = Point(36.0, 40.0);
        let gun = Point(36.0, 4.0);
        assert_eq!(facing(t, Edge::Far, gun), Facing::Front, "not moved: facing away from its edge");
        let east = Point(1.0, 0.0);
        assert_eq!(facing_along(t, east, gun), Facing::Side);
        assert_eq!(facing_along(t, east, Point(70.0, 38.0)), Facing::Front);
        assert_eq!(facing_along(t, east, Point(2.0, 41.0)), Facing::Rear);
        assert_eq!(facing_along(t, Point(3.0, 0.0), gun), Facing::Side, "any length of heading");
    }
}
