//! Which quadrant of a vehicle a shot strikes (*Heroes All*, "AT Effects":
//! front, side or rear), from where the vehicle stands and where the firer is.

use crate::{effects::Facing, scenario::Edge, terrain::Point};

/// The quadrant of a vehicle a shot from `firer` strikes. Reading: with no
/// facing recorded, a vehicle faces away from its own table edge (towards
/// the enemy); within 45° of that it is hit on the front, beyond 135° on the
/// rear, otherwise on the side.
pub fn facing(target: Point, own_edge: Edge, firer: Point) -> Facing {
    let ahead = match own_edge {
        Edge::Near => (0.0, 1.0),
        Edge::Far => (0.0, -1.0),
        Edge::Left => (1.0, 0.0),
        Edge::Right => (-1.0, 0.0),
    };
    let (dx, dy) = (firer.0 - target.0, firer.1 - target.1);
    let len = dx.hypot(dy);
    if len <= f32::EPSILON {
        return Facing::Front;
    }
    let cos = (dx * ahead.0 + dy * ahead.1) / len;
    if cos >= std::f32::consts::FRAC_1_SQRT_2 {
        Facing::Front
    } else if cos <= -std::f32::consts::FRAC_1_SQRT_2 {
        Facing::Rear
    } else {
        Facing::Side
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_by_quadrant() {
        let t = Point(10.0, 10.0);
        assert_eq!(facing(t, Edge::Near, Point(10.0, 30.0)), Facing::Front);
        assert_eq!(facing(t, Edge::Near, Point(10.0, 0.0)), Facing::Rear);
        assert_eq!(facing(t, Edge::Near, Point(30.0, 12.0)), Facing::Side);
        assert_eq!(facing(t, Edge::Left, Point(10.0, 30.0)), Facing::Side);
        assert_eq!(facing(t, Edge::Right, Point(0.0, 10.0)), Facing::Front);
    }
}
