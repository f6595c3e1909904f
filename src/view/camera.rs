//! The player's camera: orbits, pans and zooms around a point on the table.
//! Reads only leafwing actions (see `input.rs`); ignores input egui is using.

use std::f32::consts::FRAC_PI_2;

use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use leafwing_input_manager::prelude::ActionState;

use super::table::TableRoot;
use crate::{
    input::CameraAction,
    settings::Settings,
    states::{AppState, Menu},
};

/// Where the camera looks and from how far; the transform follows from it.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct OrbitCamera {
    /// Point on the table looked at (inches).
    pub focus: Vec3,
    /// Turn around the vertical, radians; 0 looks from the near (+z) edge.
    pub yaw: f32,
    /// Elevation above the table, radians (near 0 = table level, π/2 = straight down).
    pub pitch: f32,
    /// Inches from the focus.
    pub distance: f32,
    /// Table half-extents the focus is kept within (inches).
    pub bounds: Vec2,
}

const MIN_PITCH: f32 = 0.08;
const MAX_PITCH: f32 = FRAC_PI_2 - 0.001;
const MIN_DISTANCE: f32 = 4.0;
const KEY_PAN_INCHES_PER_S: f32 = 30.0;
const KEY_TURN_RAD_PER_S: f32 = 1.4;
/// The home view's focus lies this fraction of the table's depth towards the near edge.
const HOME_NEAR_SHIFT: f32 = 0.12;
/// Title-screen drift, radians per second.
const ATTRACT_TURN: f32 = 0.05;

impl OrbitCamera {
    /// The whole table in view from the player's side.
    pub fn home(table: Vec2) -> Self {
        Self {
            // A little towards the near edge, so the table sits above the
            // battle log and orders along the bottom of the screen.
            focus: Vec3::new(0.0, 0.0, table.y * HOME_NEAR_SHIFT),
            yaw: 0.0,
            pitch: 0.85,
            distance: table.x.max(table.y * 1.5) * 1.15,
            bounds: table / 2.0,
        }
    }

    /// Straight down over the whole table.
    pub fn top_down(table: Vec2) -> Self {
        Self { pitch: MAX_PITCH, distance: table.x.max(table.y * 1.6) * 1.05, ..Self::home(table) }
    }

    fn max_distance(&self) -> f32 {
        self.bounds.max_element() * 6.0
    }

    /// Keeps the view above the table and the focus over it.
    pub fn clamped(mut self) -> Self {
        self.pitch = self.pitch.clamp(MIN_PITCH, MAX_PITCH);
        self.distance = self.distance.clamp(MIN_DISTANCE, self.max_distance());
        self.focus.x = self.focus.x.clamp(-self.bounds.x, self.bounds.x);
        self.focus.z = self.focus.z.clamp(-self.bounds.y, self.bounds.y);
        self.focus.y = 0.0;
        self
    }

    /// Slides the focus by `screen` (x right, y up the screen) in table inches.
    pub fn pan(&mut self, screen: Vec2) {
        let right = Vec3::new(self.yaw.cos(), 0.0, -self.yaw.sin());
        let forward = Vec3::new(-self.yaw.sin(), 0.0, -self.yaw.cos());
        self.focus += right * screen.x + forward * screen.y;
    }

    pub fn transform(&self) -> Transform {
        let offset = Vec3::new(self.pitch.cos() * self.yaw.sin(), self.pitch.sin(), self.pitch.cos() * self.yaw.cos())
            * self.distance;
        // Straight down, "up" on screen is away from the player.
        let up = if self.pitch > FRAC_PI_2 - 0.01 { Vec3::new(-self.yaw.sin(), 0.0, -self.yaw.cos()) } else { Vec3::Y };
        Transform::from_translation(self.focus + offset).looking_at(self.focus, up)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera).add_systems(
        Update,
        (
            frame_new_table,
            attract.run_if(in_state(AppState::Title).and_then(in_state(Menu::Closed))),
            control.run_if(
                not(in_state(AppState::Title))
                    .and_then(in_state(Menu::Closed))
                    .and_then(not(resource_exists::<super::zoom::Zoom>)),
            ),
            follow,
        )
            .chain(),
    );
}

fn spawn_camera(mut commands: Commands) {
    let orbit = OrbitCamera::home(Vec2::new(72.0, 48.0));
    commands.spawn((Name::new("Camera"), Camera3d::default(), orbit, orbit.transform()));
}

/// A new table (a battle chosen, or back to the title) brings the home view,
/// unless the camera is flying down onto it from the campaign map.
fn frame_new_table(
    tables: Query<&TableRoot, Added<TableRoot>>,
    mut cameras: Query<&mut OrbitCamera>,
    zoom: Option<Res<super::zoom::Zoom>>,
    screen: Res<State<AppState>>,
) {
    if zoom.is_some() || *screen.get() == AppState::Campaign {
        return;
    }
    for table in &tables {
        for mut cam in &mut cameras {
            *cam = OrbitCamera::home(Vec2::new(table.0.width, table.0.depth));
        }
    }
}

fn attract(time: Res<Time>, mut cameras: Query<&mut OrbitCamera>) {
    for mut cam in &mut cameras {
        cam.yaw += ATTRACT_TURN * time.delta_secs();
    }
}

fn control(
    time: Res<Time>,
    actions: Single<&ActionState<CameraAction>>,
    settings: Res<Settings>,
    egui: Option<Res<EguiWantsInput>>,
    mut cameras: Query<&mut OrbitCamera>,
) {
    let (egui_pointer, egui_keys) =
        egui.map_or((false, false), |e| (e.wants_any_pointer_input(), e.wants_any_keyboard_input()));
    let dt = time.delta_secs();
    for mut cam in &mut cameras {
        let mut next = *cam;
        let table = next.bounds * 2.0;
        // Pan speed grows with distance so a drag moves the table under the pointer.
        let reach = next.distance / 100.0;
        if !egui_keys {
            next.pan(actions.axis_pair(&CameraAction::Pan) * KEY_PAN_INCHES_PER_S * reach.max(0.3) * dt);
            next.yaw += actions.value(&CameraAction::Rotate) * KEY_TURN_RAD_PER_S * dt;
            next.pitch += actions.value(&CameraAction::Tilt) * KEY_TURN_RAD_PER_S * 0.5 * dt;
            next.distance *= 1.0 - actions.value(&CameraAction::ZoomKeys) * 1.5 * dt;
            if actions.just_pressed(&CameraAction::ResetView) {
                next = OrbitCamera::home(table);
            }
            if actions.just_pressed(&CameraAction::TopDown) {
                next = OrbitCamera::top_down(table);
            }
        }
        if !egui_pointer {
            let motion = actions.axis_pair(&CameraAction::Pointer);
            if actions.pressed(&CameraAction::OrbitDrag) {
                let degrees = motion * settings.orbit_sensitivity;
                let invert = if settings.invert_orbit_y { -1.0 } else { 1.0 };
                next.yaw -= degrees.x.to_radians();
                next.pitch += invert * degrees.y.to_radians();
            } else if actions.pressed(&CameraAction::PanDrag) {
                next.pan(Vec2::new(-motion.x, motion.y) * settings.pan_sensitivity * reach);
            }
            next.distance *= 1.0 - actions.value(&CameraAction::ZoomWheel) * settings.zoom_step;
        }
        let next = next.clamped();
        if next != *cam {
            *cam = next;
        }
    }
}

fn follow(mut cameras: Query<(&OrbitCamera, &mut Transform), Changed<OrbitCamera>>) {
    for (cam, mut transform) in &mut cameras {
        *transform = cam.transform();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_view_sees_the_table_from_the_near_edge() {
        let cam = OrbitCamera::home(Vec2::new(72.0, 48.0));
        let t = cam.transform();
        assert!(t.translation.z > 24.0, "camera stands beyond the near edge: {t:?}");
        assert!(t.translation.y > 0.0);
        assert!(t.forward().dot(-Vec3::Z) > 0.0, "looks across the table");
    }

    #[test]
    fn clamping_keeps_the_focus_on_the_table_and_the_camera_above_it() {
        let mut cam = OrbitCamera::home(Vec2::new(72.0, 48.0));
        cam.focus = Vec3::new(500.0, 3.0, -500.0);
        cam.pitch = -1.0;
        cam.distance = 1.0;
        let c = cam.clamped();
        assert_eq!(c.focus, Vec3::new(36.0, 0.0, -24.0));
        assert!(c.pitch >= MIN_PITCH && c.distance >= MIN_DISTANCE);
    }

    #[test]
    fn pan_follows_the_view_direction() {
        let mut cam = OrbitCamera::home(Vec2::new(72.0, 48.0));
        let start = cam.focus;
        cam.pan(Vec2::new(0.0, 10.0));
        assert!(
            (cam.focus - start - Vec3::new(0.0, 0.0, -10.0)).length() < 1e-4,
            "up the screen is away from the player"
        );
        cam.yaw = FRAC_PI_2;
        cam.focus = Vec3::ZERO;
        cam.pan(Vec2::new(10.0, 0.0));
        assert!((cam.focus - Vec3::new(0.0, 0.0, -10.0)).length() < 1e-4, "{:?}", cam.focus);
    }

    #[test]
    fn top_down_looks_straight_down() {
        let t = OrbitCamera::top_down(Vec2::new(72.0, 48.0)).transform();
        assert!(t.forward().dot(Vec3::NEG_Y) > 0.999);
    }
}
