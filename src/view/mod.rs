//! The 3D table and the terrain on it, the camera and the window.

mod camera;
mod screenshot;
mod table;
mod terrain;
mod window;

pub use camera::OrbitCamera;
pub use table::{TableRoot, TableStyle};
pub use terrain::TerrainPiece;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((table::plugin, terrain::plugin, camera::plugin, window::plugin, screenshot::plugin));
}
