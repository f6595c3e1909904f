//! Aids drawn on the table: a move's reach before the dice (how far the
//! Movement Dice can take the acting element in every direction, and how far
//! at even chances, with the going and features of each route counted as the
//! throw counts them), the route to the pointer with its chance, the reach
//! of a move thrown along its declared route, and a ring round the selected
//! miniature.

use std::f32::consts::{FRAC_PI_2, TAU};
use warbound_rules::inches::Inches;

use bevy::prelude::*;
use warbound_rules::{
    geometry::{HILL_LEVEL_HEIGHT, distance, hill_level},
    terrain::Point,
};

use super::{
    picking::{Dragging, TableClick, TablePointer},
    table::TableRoot,
    terrain::to_world,
};
use crate::battle::{
    Selected,
    movement::{Reach, reach},
    setup::Control,
    state::{Battle, ElementView, FieldedReadOnly, Flow, Sides},
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MovePreview>().add_systems(Update, draw_aids.run_if(resource_exists::<Battle>));
}

/// The move the pointer would give now, for the label beside it: the
/// inches to the pointer and what the dice make of them.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct MovePreview(pub Option<(Inches, MoveChance)>);

/// What the dice make of a move to the pointer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MoveChance {
    /// Before the dice: the chance they take it all the way, and the reach.
    Before(Reach),
    /// After them: whether it is within the score along the declared route.
    Thrown { allowance: f32, on_route: bool },
}

/// Aids float this far above the ground, inches, so the terrain does not hide them.
const LIFT: f32 = 0.15;

/// Directions the reach is worked out in, round the element.
const DIRECTIONS: usize = 48;

/// The reach round an element in every direction, to the table's edge: the
/// furthest and the even-chance rings, as points on the table.
fn reach_rings(battle: &Battle, f: &ElementView, pips: u8) -> (Vec<Point>, Vec<Point>) {
    let table = battle.start.scenario.table;
    let (mut furthest, mut even) = (Vec::new(), Vec::new());
    for k in 0..=DIRECTIONS {
        let a = TAU * k as f32 / DIRECTIONS as f32;
        let dir = (a.cos(), a.sin());
        let far = to_edge(f.place.at, dir, table.width, table.depth);
        let to = Point(f.place.at.0 + dir.0 * far, f.place.at.1 + dir.1 * far);
        let r = reach(battle, f, to, pips).unwrap_or(Reach { furthest: 0.0, even: 0.0, to_point: 0.0 });
        furthest.push(Point(f.place.at.0 + dir.0 * r.furthest, f.place.at.1 + dir.1 * r.furthest));
        even.push(Point(f.place.at.0 + dir.0 * r.even, f.place.at.1 + dir.1 * r.even));
    }
    (furthest, even)
}

/// Inches from `at` along `dir` (a unit vector) to the edge of a table
/// `width` by `depth`.
fn to_edge(at: Point, dir: (f32, f32), width: f32, depth: f32) -> f32 {
    let along = |p: f32, d: f32, size: f32| {
        if d > 1e-6 {
            (size - p) / d
        } else if d < -1e-6 {
            -p / d
        } else {
            f32::INFINITY
        }
    };
    along(at.0, dir.0, width).min(along(at.1, dir.1, depth)).max(0.0)
}

/// The rings of the last element drawn, kept while it stands where it was.
type RingCache = Option<((String, (u32, u32), u8), (Vec<Point>, Vec<Point>))>;

#[allow(clippy::too_many_arguments)]
fn draw_aids(
    mut gizmos: Gizmos,
    battle: Res<Battle>,
    flow: Res<Flow>,
    sides: Option<Res<Sides>>,
    (click, pointer, dragging): (Res<TableClick>, Res<TablePointer>, Res<Dragging>),
    selected: Res<Selected>,
    tables: Query<(&TableRoot, &GlobalTransform)>,
    elements: Query<FieldedReadOnly>,
    mut preview: ResMut<MovePreview>,
    mut rings: Local<RingCache>,
) {
    let mut shown = None;
    let Ok((root, table)) = tables.single() else { return };
    let on_table = |p: Point| {
        let ground = f32::from(hill_level(&battle.terrain, p)) * HILL_LEVEL_HEIGHT + LIFT;
        table.transform_point(to_world(root.0, p, ground))
    };
    let flat = Quat::from_rotation_x(FRAC_PI_2);
    if let Some(id) = &selected.0
        && let Some(f) = elements.iter().find(|f| f.id() == id && f.presence.status.on_table())
    {
        gizmos.circle(Isometry3d::new(on_table(f.place.at), flat), 3.0, Color::srgb(1.0, 1.0, 1.0)).resolution(48);
    }
    let gold = Color::srgb(1.0, 0.8, 0.2);
    let pale = Color::srgba(1.0, 0.8, 0.2, 0.45);
    let grey = Color::srgba(0.8, 0.8, 0.8, 0.6);
    if let Flow::Acting(turn) = &*flow
        && let Some(me) = elements.iter().find(|f| f.id() == turn.element)
        && sides.as_ref().is_some_and(|s| s.0.get(me.identity.side).is_some_and(|s| s.control == Control::Player))
    {
        let moving = *click == TableClick::Move || dragging.0.is_some();
        match &turn.pending_move {
            Some(p) => {
                // The score along the declared route: gold as far as it goes, grey beyond.
                let to = Point(p.to.0, p.to.1);
                let (x, y) = crate::battle::options::along((me.place.at.0, me.place.at.1), p.to, p.allowance);
                let end = Point(x, y);
                gizmos.line(on_table(me.place.at), on_table(end), gold);
                gizmos.line(on_table(end), on_table(to), grey);
                gizmos.circle(Isometry3d::new(on_table(end), flat), 0.6, gold).resolution(24);
                if let Some(at) = pointer.0.filter(|_| moving) {
                    let on_route = crate::battle::movement::within_move(me.place.at, to, at, p.allowance);
                    let d = distance(me.place.at, at);
                    gizmos.circle(Isometry3d::new(on_table(at), flat), 0.5, if on_route { gold } else { grey });
                    shown = Some((d, MoveChance::Thrown { allowance: p.allowance, on_route }));
                }
            }
            None if moving => {
                let pips = turn.orders.movement_pips;
                let key = (me.id().to_owned(), (me.place.at.0.to_bits(), me.place.at.1.to_bits()), pips);
                if rings.as_ref().is_none_or(|(k, _)| *k != key) {
                    *rings = Some((key, reach_rings(&battle, &me.view(), pips)));
                }
                if let Some((_, (furthest, even))) = &*rings {
                    gizmos.linestrip(furthest.iter().map(|&p| on_table(p)), pale);
                    gizmos.linestrip(even.iter().map(|&p| on_table(p)), gold);
                }
                if let Some(at) = pointer.0
                    && let Some(r) = reach(&battle, &me.view(), at, pips)
                {
                    let colour = Color::srgb(1.0 - r.to_point as f32, 0.3 + 0.6 * r.to_point as f32, 0.2);
                    gizmos.line(on_table(me.place.at), on_table(at), colour);
                    shown = Some((distance(me.place.at, at), MoveChance::Before(r)));
                }
            }
            None => {}
        }
    }
    if preview.0 != shown {
        preview.0 = shown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reach_rings_stop_at_the_tables_edge() {
        let at = Point(10.0, 5.0);
        assert!((to_edge(at, (1.0, 0.0), 72.0, 48.0) - 62.0).abs() < 1e-4);
        assert!((to_edge(at, (0.0, -1.0), 72.0, 48.0) - 5.0).abs() < 1e-4);
        let d = std::f32::consts::FRAC_1_SQRT_2;
        // Towards the near-left corner the near edge comes first, 5" down.
        assert!((to_edge(at, (-d, -d), 72.0, 48.0) - 5.0 / d).abs() < 1e-3);
    }
}
