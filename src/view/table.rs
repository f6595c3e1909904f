//! The games table: baize top of the scenario's size, a wooden frame and
//! legs, a floor, and a lamp over it as at a club evening, turned down to a
//! cold moonlight in the battle's night bounds.

use bevy::prelude::*;
use bevy_rapier3d::prelude::Collider;
use serde::Deserialize;
use warbound_rules::{data::from_ron, day::Light, scenario::Ground, terrain::TableSize};

use crate::{
    battle::{ActiveBattle, state::Battle},
    data,
};

const STYLE_FILE: &str = "assets/table/style.ron";

/// Look of the table, from `assets/table/style.ron`.
#[derive(Resource, Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableStyle {
    /// The cloth of a battle on grass.
    pub baize: (f32, f32, f32),
    /// The cloth of a battle in lying snow.
    pub snow: (f32, f32, f32),
    /// The cloth of a battle in the desert.
    pub sand: (f32, f32, f32),
    pub frame: (f32, f32, f32),
    pub floor: (f32, f32, f32),
    pub room: (f32, f32, f32),
    pub frame_width: f32,
    pub frame_rise: f32,
    pub top_thickness: f32,
    pub height: f32,
    pub leg_size: f32,
    /// Lux on the baize under the lamp.
    pub lamp_lux: f32,
    /// Lux of the room's fill light.
    pub room_illuminance: f32,
    pub ambient_brightness: f32,
    /// The share of every light kept in a night bound.
    pub night_light: f32,
    /// The colour of the light in a night bound.
    pub night_tint: (f32, f32, f32),
}

impl TableStyle {
    /// The built-in style; `build.rs` embeds it and a test checks it parses.
    pub fn built_in() -> Self {
        let text = data::embedded(STYLE_FILE).expect("build.rs embeds assets/table/style.ron");
        from_ron(STYLE_FILE, text).unwrap_or_else(|e| panic!("built-in table style is broken: {e}"))
    }
}

/// Root of the table's entities; despawned and rebuilt when the battle on it
/// changes (its terrain and miniatures go with it) or the table size does.
#[derive(Component, Debug)]
pub struct TableRoot(pub TableSize);

pub(super) fn plugin(app: &mut App) {
    let style = TableStyle::built_in();
    app.insert_resource(ClearColor(srgb(style.room)))
        .insert_resource(GlobalAmbientLight {
            color: AMBIENT_COLOUR,
            brightness: style.ambient_brightness,
            ..default()
        })
        .insert_resource(style)
        .add_systems(Startup, spawn_room_light)
        .add_systems(Update, (rebuild_table, light_the_hour).chain());
}

/// The lamp over the table, with its daylight intensity.
#[derive(Component, Debug)]
struct Lamp(f32);

/// The room's fill light.
#[derive(Component, Debug)]
struct RoomLight;

/// The lamp, the room light and the ambient glow as the battle's hour wants
/// them: full and warm by day (and on the title's empty table); at night
/// `night_light` of each, in `night_tint`.
fn light_the_hour(
    battle: Option<Res<Battle>>,
    style: Res<TableStyle>,
    mut ambient: ResMut<GlobalAmbientLight>,
    mut lamps: Query<(&Lamp, &mut SpotLight)>,
    mut rooms: Query<&mut DirectionalLight, With<RoomLight>>,
    new_lamp: Query<(), Added<Lamp>>,
    mut lit_for: Local<Option<Light>>,
) {
    let light = battle.map_or(Light::Daylight, |b| b.clock.light());
    if *lit_for == Some(light) && new_lamp.is_empty() {
        return;
    }
    *lit_for = Some(light);
    let (share, tint) = match light {
        Light::Daylight => (1.0, None),
        Light::Night => (style.night_light, Some(srgb(style.night_tint))),
    };
    for (lamp, mut spot) in &mut lamps {
        spot.intensity = lamp.0 * share;
        spot.color = tint.unwrap_or(LAMP_COLOUR);
    }
    for mut room in &mut rooms {
        room.illuminance = style.room_illuminance * share;
        room.color = tint.unwrap_or(ROOM_COLOUR);
    }
    ambient.brightness = style.ambient_brightness * share;
    ambient.color = tint.unwrap_or(AMBIENT_COLOUR);
}

const LAMP_COLOUR: Color = Color::srgb(1.0, 0.9, 0.75);
const ROOM_COLOUR: Color = Color::srgb(0.9, 0.92, 1.0);
const AMBIENT_COLOUR: Color = Color::srgb(1.0, 0.95, 0.85);

fn srgb((r, g, b): (f32, f32, f32)) -> Color {
    Color::srgb(r, g, b)
}

/// The table size wanted now: the battle's, else 6 ft × 4 ft.
pub fn wanted_size(active: &ActiveBattle) -> TableSize {
    active.0.as_ref().map(|b| b.scenario.table).unwrap_or_default()
}

/// A directional "room" light: a dim fill that also lights the floor.
fn spawn_room_light(mut commands: Commands, style: Res<TableStyle>) {
    commands.spawn((
        Name::new("Room light"),
        RoomLight,
        DirectionalLight { color: ROOM_COLOUR, illuminance: style.room_illuminance, ..default() },
        Transform::from_xyz(-40.0, 120.0, 60.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// The lamp over the table: a warm spot whose cone covers the table, so the
/// baize is bright and the room falls away into shadow. Its height and cone
/// follow the table's size.
fn lamp(style: &TableStyle, size: TableSize) -> impl Bundle {
    let half_diagonal = (size.width.powi(2) + size.depth.powi(2)).sqrt() / 2.0;
    let height = size.width.max(size.depth) * 1.3;
    // Bevy spot lights take lumens; illuminance at distance d is lm / (4π d²).
    let lumens = style.lamp_lux * 4.0 * std::f32::consts::PI * height * height;
    let cover = (half_diagonal / height).atan();
    (
        Name::new("Lamp"),
        Lamp(lumens),
        SpotLight {
            color: LAMP_COLOUR,
            intensity: lumens,
            range: height * 3.0,
            radius: 4.0,
            shadow_maps_enabled: true,
            inner_angle: cover * 0.8,
            outer_angle: cover * 1.35,
            ..default()
        },
        Transform::from_xyz(-size.width * 0.1, height, size.depth * 0.15).looking_at(Vec3::ZERO, Vec3::Y),
    )
}

/// The battle a table is laid for: its scenario's source and ground, `None`
/// for the empty table of the title.
fn laid_for(active: &ActiveBattle) -> Option<(String, Ground)> {
    active.0.as_ref().map(|b| (b.source.clone(), b.scenario.ground))
}

/// The cloth for the battle's ground.
pub fn cloth(style: &TableStyle, ground: Ground) -> (f32, f32, f32) {
    match ground {
        Ground::Grass => style.baize,
        Ground::Snow => style.snow,
        Ground::Sand => style.sand,
    }
}

fn rebuild_table(
    mut commands: Commands,
    active: Res<ActiveBattle>,
    style: Res<TableStyle>,
    existing: Query<(Entity, &TableRoot)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut built_for: Local<Option<(String, Ground)>>,
) {
    let size = wanted_size(&active);
    let wanted = laid_for(&active);
    if *built_for == wanted && existing.iter().any(|(_, root)| root.0 == size) {
        return;
    }
    *built_for = wanted;
    for (entity, _) in &existing {
        commands.entity(entity).despawn();
    }
    let TableSize { width, depth } = size;
    let s = &*style;
    let ground = built_for.as_ref().map_or(Ground::Grass, |(_, g)| *g);
    let baize = materials.add(StandardMaterial {
        base_color: srgb(cloth(s, ground)),
        perceptual_roughness: 0.95,
        reflectance: 0.2,
        ..default()
    });
    let wood = materials.add(StandardMaterial { base_color: srgb(s.frame), perceptual_roughness: 0.6, ..default() });
    let floor = materials.add(StandardMaterial { base_color: srgb(s.floor), perceptual_roughness: 0.8, ..default() });

    let mut block = |w: f32, h: f32, d: f32, at: Vec3, material: &Handle<StandardMaterial>| {
        (Mesh3d(meshes.add(Cuboid::new(w, h, d))), MeshMaterial3d(material.clone()), Transform::from_translation(at))
    };
    // The playing surface's top is y = 0; x runs across the table, z toward the player.
    let top = block(width, s.top_thickness, depth, Vec3::new(0.0, -s.top_thickness / 2.0, 0.0), &baize);
    let rail_h = s.top_thickness + s.frame_rise;
    let rail_y = s.frame_rise - rail_h / 2.0;
    let fw = s.frame_width;
    let rails = [
        block(width + 2.0 * fw, rail_h, fw, Vec3::new(0.0, rail_y, depth / 2.0 + fw / 2.0), &wood),
        block(width + 2.0 * fw, rail_h, fw, Vec3::new(0.0, rail_y, -depth / 2.0 - fw / 2.0), &wood),
        block(fw, rail_h, depth, Vec3::new(width / 2.0 + fw / 2.0, rail_y, 0.0), &wood),
        block(fw, rail_h, depth, Vec3::new(-width / 2.0 - fw / 2.0, rail_y, 0.0), &wood),
    ];
    let leg_h = s.height - s.top_thickness;
    let leg_y = -s.top_thickness - leg_h / 2.0;
    let (lx, lz) = (width / 2.0 - s.leg_size, depth / 2.0 - s.leg_size);
    let legs = [(-lx, -lz), (lx, -lz), (-lx, lz), (lx, lz)]
        .map(|(x, z)| block(s.leg_size, leg_h, s.leg_size, Vec3::new(x, leg_y, z), &wood));
    let floor_mesh = (
        Mesh3d(meshes.add(Plane3d::default().mesh().size(width * 8.0, depth * 8.0))),
        MeshMaterial3d(floor),
        Transform::from_xyz(0.0, -s.height, 0.0),
    );

    commands.spawn((Name::new("Table"), TableRoot(size), Transform::default(), Visibility::default())).with_children(
        |t| {
            // The baize is the surface the physics dice land on.
            t.spawn((top, Collider::cuboid(width / 2.0, s.top_thickness / 2.0, depth / 2.0)));
            for rail in rails {
                t.spawn(rail);
            }
            for leg in legs {
                t.spawn(leg);
            }
            t.spawn(floor_mesh);
            t.spawn(lamp(s, size));
        },
    );
    info!("table laid: {width}\" x {depth}\"");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_style_parses_and_is_sane() {
        let s = TableStyle::built_in();
        assert!(s.height > s.top_thickness);
        assert!(s.lamp_lux > 0.0 && s.room_illuminance >= 0.0);
    }

    #[test]
    fn snow_and_sand_are_laid_in_their_own_cloth() {
        let s = TableStyle::built_in();
        let (grass, snow, sand) = (cloth(&s, Ground::Grass), cloth(&s, Ground::Snow), cloth(&s, Ground::Sand));
        assert_eq!(grass, s.baize);
        assert!(snow.0 > grass.0 && snow.2 > grass.2, "snow is lighter than grass: {snow:?}");
        assert!(sand.0 > sand.2 && sand != snow, "sand is warm: {sand:?}");
    }

    #[test]
    fn a_night_bound_turns_the_lights_down_to_a_cold_moonlight() {
        let codex = std::sync::Arc::new(data::codex().unwrap().clone());
        // A battle's first bound: the Merville Battery jumps at 01.00, the patrol sets out at 05.00.
        let first_bound = |name: &str| {
            let scenario = data::load_scenario(name).unwrap().scenario;
            let start = crate::battle::setup::BattleStart::auto(name, scenario, 1);
            let app = crate::battle::play::battle_app(start, crate::battle::log::BattleLog::default(), codex.clone())
                .unwrap();
            app.world().resource::<Battle>().clone()
        };
        let style = TableStyle::built_in();
        assert!(style.night_light > 0.0 && style.night_light < 1.0);
        let mut app = App::new();
        app.insert_resource(style.clone())
            .insert_resource(GlobalAmbientLight::default())
            .add_systems(Update, light_the_hour);
        let lamp = app.world_mut().spawn((Lamp(1000.0), SpotLight::default())).id();
        let room = app.world_mut().spawn((RoomLight, DirectionalLight::default())).id();
        let lit = |app: &App| {
            let spot = app.world().get::<SpotLight>(lamp).unwrap();
            let fill = app.world().get::<DirectionalLight>(room).unwrap();
            (spot.intensity, spot.color, fill.illuminance, app.world().resource::<GlobalAmbientLight>().brightness)
        };
        app.insert_resource(first_bound("merville"));
        app.update();
        let night = lit(&app);
        assert_eq!(night.0, 1000.0 * style.night_light);
        assert_eq!(night.1, srgb(style.night_tint));
        assert_eq!(night.2, style.room_illuminance * style.night_light);
        assert_eq!(night.3, style.ambient_brightness * style.night_light);
        app.insert_resource(first_bound("patrol"));
        app.update();
        let day = lit(&app);
        assert_eq!(
            (day.0, day.1, day.2, day.3),
            (1000.0, LAMP_COLOUR, style.room_illuminance, style.ambient_brightness)
        );
    }
}
