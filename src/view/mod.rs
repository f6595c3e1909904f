//! The 3D table with its terrain and miniatures, the camera and the window.

mod aids;
mod assault;
mod at_screen;
mod camera;
mod charges;
pub mod dice;
mod map;
mod miniatures;
mod picking;
mod screenshot;
mod smoke;
mod table;
mod terrain;
mod tools;
mod window;
mod zoom;

pub use aids::{MoveChance, MovePreview};
pub use at_screen::AtScreen;
pub use camera::OrbitCamera;
pub use dice::TrayThrows;
pub use map::{MapPlaces, TILE as MAP_TILE, layout, overview as map_overview};
pub use miniatures::{ElementModel, LAST_SEEN_BOUNDS, LastSeen, player_side, shown};
pub use picking::{CentreView, DieMove, TableClick, TablePointer};
pub use table::{TableRoot, TableStyle};
pub use terrain::{TerrainPiece, to_world};
pub use zoom::{Zoom, shown as map_shown};

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        table::plugin,
        smoke::plugin,
        aids::plugin,
        terrain::plugin,
        miniatures::plugin,
        picking::plugin,
        camera::plugin,
        window::plugin,
        screenshot::plugin,
        dice::plugin,
        tools::plugin,
        assault::plugin,
        at_screen::plugin,
        charges::plugin,
    ))
    .add_plugins((map::plugin, zoom::plugin));
}
