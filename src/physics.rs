//! bevy_rapier3d setup: the physics world the dice roll in, in inches.

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;

/// Gravity in inches per second squared (9.81 m/s² = 386 in/s²).
pub const GRAVITY_IN_PER_S2: f32 = 386.1;

pub(super) fn plugin(app: &mut App) {
    // One world unit is one inch; rapier's tolerances scale with it.
    app.add_plugins(RapierPhysicsPlugin::<NoUserData>::default().with_length_unit(1.0))
        .add_systems(Startup, set_gravity);
}

fn set_gravity(mut config: Query<&mut RapierConfiguration>) {
    for mut c in &mut config {
        c.gravity = Vec3::NEG_Y * GRAVITY_IN_PER_S2;
    }
}
