//! Aids drawn on the table: the reach of a move thrown (the Movement Dice's
//! score round the element, the declared route to its end) and a ring round
//! the selected miniature.

use std::f32::consts::FRAC_PI_2;

use bevy::prelude::*;
use warbound_rules::geometry::{HILL_LEVEL_HEIGHT, hill_level};

use super::{picking::TableClick, table::TableRoot, terrain::to_world};
use crate::{
    battle::state::{Battle, Fielded, Flow},
    ui::battle_panels::Selected,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw_aids.run_if(resource_exists::<Battle>));
}

/// Aids float this far above the ground, inches, so the terrain does not hide them.
const LIFT: f32 = 0.15;

fn draw_aids(
    mut gizmos: Gizmos,
    battle: Res<Battle>,
    flow: Res<Flow>,
    click: Res<TableClick>,
    selected: Res<Selected>,
    tables: Query<(&TableRoot, &GlobalTransform)>,
    elements: Query<&Fielded>,
) {
    let Ok((root, table)) = tables.single() else { return };
    let on_table = |p: warbound_rules::terrain::Point| {
        let ground = f32::from(hill_level(&battle.terrain, p)) * HILL_LEVEL_HEIGHT + LIFT;
        table.transform_point(to_world(root.0, p, ground))
    };
    let flat = Quat::from_rotation_x(FRAC_PI_2);
    if let Some(id) = &selected.0
        && let Some(f) = elements.iter().find(|f| f.id() == id && f.status.on_table())
    {
        gizmos.circle(Isometry3d::new(on_table(f.at), flat), 3.0, Color::srgb(1.0, 1.0, 1.0)).resolution(48);
    }
    let Flow::Acting(turn) = &*flow else { return };
    let Some(me) = elements.iter().find(|f| f.id() == turn.element) else { return };
    let gold = Color::srgb(1.0, 0.8, 0.2);
    match &turn.pending_move {
        Some(p) => {
            // The score round the element, the declared route, and its end.
            gizmos.circle(Isometry3d::new(on_table(me.at), flat), p.allowance, gold).resolution(96);
            let to = warbound_rules::terrain::Point(p.to.0, p.to.1);
            gizmos.line(on_table(me.at), on_table(to), gold);
        }
        None if *click == TableClick::Move => {
            gizmos.circle(Isometry3d::new(on_table(me.at), flat), 1.0, gold);
        }
        None => {}
    }
}
