//! Smoke on the table: each smoke screen's smokeballs where the battle has
//! them (*Heroes All*, "Firing smoke": "3 x 1 inch smokeballs ... for 2
//! bounds"), gone when the screen clears.

use bevy::prelude::*;
use warbound_rules::firing::SmokeScreen;

use super::{table::TableRoot, terrain::to_world};
use crate::battle::state::Battle;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, show_smoke);
}

/// One smokeball drawn on the table.
#[derive(Component)]
struct Smokeball;

/// Redraws the smokeballs whenever the battle's smoke changes; clears them
/// when the battle ends.
fn show_smoke(
    mut commands: Commands,
    battle: Option<Res<Battle>>,
    tables: Query<(Entity, &TableRoot)>,
    drawn: Query<Entity, With<Smokeball>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut shown: Local<Vec<[(f32, f32); 3]>>,
) {
    let want: Vec<[(f32, f32); 3]> =
        battle.as_ref().map(|b| b.smoke.iter().map(|s| s.balls.map(|p| (p.0, p.1))).collect()).unwrap_or_default();
    let Ok((table, root)) = tables.single() else { return };
    if *shown == want && drawn.iter().count() == want.len() * 3 {
        return;
    }
    for e in &drawn {
        commands.entity(e).despawn();
    }
    *shown = want;
    if shown.is_empty() {
        return;
    }
    let radius = SmokeScreen::BALL_INCHES / 2.0;
    let ball = meshes.add(Sphere::new(radius));
    let grey = materials.add(StandardMaterial {
        base_color: Color::srgba(0.86, 0.86, 0.84, 0.85),
        alpha_mode: AlphaMode::Blend,
        perceptual_roughness: 1.0,
        ..default()
    });
    commands.entity(table).with_children(|t| {
        for screen in shown.iter() {
            for &(x, y) in screen {
                let at = to_world(root.0, warbound_rules::terrain::Point(x, y), radius);
                t.spawn((
                    Smokeball,
                    Mesh3d(ball.clone()),
                    MeshMaterial3d(grey.clone()),
                    Transform::from_translation(at),
                ));
            }
        }
    });
}
