//! `--screenshot`: after N frames, save the window as a PNG and exit.

use bevy::{
    prelude::*,
    render::view::window::screenshot::{Screenshot, ScreenshotCaptured},
};

use crate::launch::ScreenshotRequest;

/// Frames to wait for the capture before giving up with an error.
const CAPTURE_TIMEOUT_FRAMES: u32 = 600;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, take_screenshot.run_if(resource_exists::<ScreenshotRequest>));
}

#[allow(clippy::type_complexity)]
fn take_screenshot(
    mut commands: Commands,
    request: Res<ScreenshotRequest>,
    mut frame: Local<u32>,
    mut exit: MessageWriter<AppExit>,
    scene: (Query<&InheritedVisibility, With<super::ElementModel>>, Query<(), With<super::TerrainPiece>>),
    map: (Res<super::MapPlaces>, Option<Res<super::Zoom>>, Query<&InheritedVisibility, With<super::map::MapRoot>>),
) {
    *frame += 1;
    if *frame == request.frames {
        // What the picture shows, for the checks that read the log.
        let (models, terrain) = scene;
        let shown = models.iter().filter(|v| v.get()).count();
        info!("screenshot scene: {shown} miniatures shown, {} terrain pieces", terrain.iter().count());
        let (places, zoom, roots) = map;
        if roots.iter().any(|v| v.get()) {
            let flight = zoom.map_or("still".to_owned(), |z| {
                format!(
                    "flying {} {:.0}% of the way",
                    if z.down { "down to the table" } else { "up to the map" },
                    z.t * 100.0
                )
            });
            info!(
                "screenshot campaign map: {} Map Boards shown, {} tokens; the camera {flight}",
                places.boards.len(),
                places.tokens.len()
            );
        }
        let path = request.path.clone();
        commands.spawn(Screenshot::primary_window()).observe(
            move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                exit.write(save_png(&captured.image, &path));
            },
        );
    } else if *frame == request.frames + CAPTURE_TIMEOUT_FRAMES {
        error!("screenshot was not captured within {CAPTURE_TIMEOUT_FRAMES} frames");
        exit.write(AppExit::error());
    }
}

fn save_png(image: &Image, path: &std::path::Path) -> AppExit {
    let rgb = match image.clone().try_into_dynamic() {
        Ok(dynamic) => dynamic.to_rgb8(),
        Err(e) => {
            error!("screenshot format not understood: {e}");
            return AppExit::error();
        }
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        error!("cannot create {}: {e}", dir.display());
        return AppExit::error();
    }
    match rgb.save(path) {
        Ok(()) => {
            info!("screenshot {}x{} saved to {}", rgb.width(), rgb.height(), path.display());
            AppExit::Success
        }
        Err(e) => {
            error!("cannot save screenshot to {}: {e}", path.display());
            AppExit::error()
        }
    }
}
