//! The zoom between the campaign map and the table: when a campaign battle
//! goes to the table the camera flies from the map down onto its board, whose
//! tile lies where the table stands, and the tile becomes the table; when the
//! session's bounds are played it rises back out over the map. One movement,
//! eased at both ends, that the player follows. While it flies the battle,
//! the campaign and the player's camera controls wait; the map and the table show as [`shown`] says.

use bevy::prelude::*;

use super::{
    camera::OrbitCamera,
    map::{MapPlaces, MapRoot, overview},
    table::TableRoot,
};
use crate::{
    battle::{ActiveBattle, BattleSystems, CampaignBattle},
    states::AppState,
    war::CampaignSystems,
};

/// Seconds a zoom takes.
pub const ZOOM_SECONDS: f32 = 2.5;
/// The longest step a frame moves the zoom on: at a few frames a second
/// (software rendering) the flight still shows its middle.
const LONGEST_STEP: f32 = 1.0 / 30.0;
/// How far down the flight the tile gives way to the table (and back).
const SWAP: f32 = 0.8;

/// A flight of the camera between two views.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct Zoom {
    pub from: OrbitCamera,
    pub to: OrbitCamera,
    /// 0 at the start, 1 at the end.
    pub t: f32,
    /// Down onto the table (true) or back up to the map.
    pub down: bool,
}

impl Zoom {
    /// The view `t` of the way along: focus straight, distance by ratio
    /// (so the descent looks even), angles straight, eased at both ends.
    pub fn view(&self) -> OrbitCamera {
        let s = self.t * self.t * (3.0 - 2.0 * self.t);
        let (a, b) = (self.from, self.to);
        let turn = (b.yaw - a.yaw + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI;
        OrbitCamera {
            focus: a.focus.lerp(b.focus, s),
            yaw: a.yaw + turn * s,
            pitch: a.pitch + (b.pitch - a.pitch) * s,
            distance: a.distance * (b.distance / a.distance).powf(s),
            bounds: a.bounds.max(b.bounds),
        }
    }
}

/// Whether the map (and not the table) shows: on the campaign screen, and
/// during a zoom on the map's part of the flight.
pub fn shown(screen: AppState, zoom: Option<&Zoom>) -> bool {
    match zoom {
        Some(z) if z.down => z.t < SWAP,
        Some(z) => z.t > 1.0 - SWAP,
        None => screen == AppState::Campaign,
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnTransition { exited: AppState::Campaign, entered: AppState::Battle }, fly_down)
        .add_systems(OnTransition { exited: AppState::Battle, entered: AppState::Campaign }, fly_up)
        .add_systems(OnEnter(AppState::Title), land)
        .add_systems(Update, (fly, show).chain())
        // The battle and the campaign wait for the camera to arrive.
        .configure_sets(Update, (BattleSystems, CampaignSystems).run_if(not(resource_exists::<Zoom>)));
}

fn table_size(active: &ActiveBattle) -> Vec2 {
    let size = super::table::wanted_size(active);
    Vec2::new(size.width, size.depth)
}

fn fly_down(
    mut commands: Commands,
    cameras: Query<&OrbitCamera>,
    active: Res<ActiveBattle>,
    campaign: Option<Res<CampaignBattle>>,
) {
    let (Ok(cam), Some(_)) = (cameras.single(), campaign) else { return };
    commands.insert_resource(Zoom { from: *cam, to: OrbitCamera::home(table_size(&active)), t: 0.0, down: true });
}

fn fly_up(mut commands: Commands, cameras: Query<&OrbitCamera>, places: Res<MapPlaces>) {
    let Ok(cam) = cameras.single() else { return };
    commands.insert_resource(Zoom { from: *cam, to: overview(&places), t: 0.0, down: false });
}

fn land(mut commands: Commands) {
    commands.remove_resource::<Zoom>();
}

fn fly(mut commands: Commands, time: Res<Time>, zoom: Option<ResMut<Zoom>>, mut cameras: Query<&mut OrbitCamera>) {
    let Some(mut zoom) = zoom else { return };
    zoom.t = (zoom.t + time.delta_secs().min(LONGEST_STEP) / ZOOM_SECONDS).min(1.0);
    for mut cam in &mut cameras {
        *cam = zoom.view();
    }
    if zoom.t >= 1.0 {
        commands.remove_resource::<Zoom>();
    }
}

/// The map or the table, as [`shown`] says.
fn show(
    screen: Res<State<AppState>>,
    zoom: Option<Res<Zoom>>,
    mut maps: Query<&mut Visibility, (With<MapRoot>, Without<TableRoot>)>,
    mut tables: Query<&mut Visibility, (With<TableRoot>, Without<MapRoot>)>,
) {
    let map = shown(*screen.get(), zoom.as_deref());
    let want = |on: bool| if on { Visibility::Inherited } else { Visibility::Hidden };
    for mut v in &mut maps {
        v.set_if_neq(want(map));
    }
    for mut v in &mut tables {
        v.set_if_neq(want(!map));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn views() -> Zoom {
        let map = OrbitCamera {
            focus: Vec3::new(100.0, 0.0, 50.0),
            yaw: 0.0,
            pitch: 1.05,
            distance: 900.0,
            bounds: Vec2::splat(500.0),
        };
        Zoom { from: map, to: OrbitCamera::home(Vec2::new(72.0, 48.0)), t: 0.0, down: true }
    }

    #[test]
    fn the_flight_runs_from_the_map_to_the_table_without_a_jump() {
        let mut z = views();
        assert_eq!(z.view().focus, z.from.focus);
        let mut last = z.view().transform().translation;
        let mut longest: f32 = 0.0;
        for k in 1..=100 {
            z.t = k as f32 / 100.0;
            let at = z.view().transform().translation;
            longest = longest.max(at.distance(last));
            last = at;
        }
        assert!((z.view().distance - z.to.distance).abs() < 1e-3);
        assert!((z.view().focus - z.to.focus).length() < 1e-3);
        let whole = z.from.transform().translation.distance(z.to.transform().translation);
        assert!(longest < whole / 20.0, "no step is a cut: {longest} of {whole}");
    }

    #[test]
    fn the_map_gives_way_to_the_table_late_in_the_descent() {
        let mut z = views();
        assert!(shown(AppState::Battle, Some(&z)), "the map shows as the flight begins");
        z.t = 0.9;
        assert!(!shown(AppState::Battle, Some(&z)), "the table near the end");
        z.down = false;
        z.t = 0.1;
        assert!(!shown(AppState::Campaign, Some(&z)), "the table as the camera rises");
        assert!(shown(AppState::Campaign, None) && !shown(AppState::Battle, None));
    }
}
