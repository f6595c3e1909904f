//! bevy_rapier3d setup: the physics world the dice roll in, in inches.

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;

/// World units (inches) in one metre. Rapier scales its tolerances and the
/// default gravity (9.81 m/s² → 386 in/s²) by this length unit.
pub const INCHES_PER_METRE: f32 = 39.37;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(RapierPhysicsPlugin::<NoUserData>::default().with_length_unit(INCHES_PER_METRE));
}
