//! The games table: baize top of the scenario's size, a wooden frame and
//! legs, a floor, and the lamp light of a club evening.

use bevy::{light::CascadeShadowConfigBuilder, prelude::*};
use bevy_rapier3d::prelude::Collider;
use serde::Deserialize;
use warbound_rules::{data::from_ron, scenario::TableSize};

use crate::{battle::ActiveBattle, data};

const STYLE_FILE: &str = "assets/table/style.ron";

/// Look of the table, from `assets/table/style.ron`.
#[derive(Resource, Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableStyle {
    pub baize: (f32, f32, f32),
    pub frame: (f32, f32, f32),
    pub floor: (f32, f32, f32),
    pub room: (f32, f32, f32),
    pub frame_width: f32,
    pub frame_rise: f32,
    pub top_thickness: f32,
    pub height: f32,
    pub leg_size: f32,
    pub lamp_illuminance: f32,
    pub ambient_brightness: f32,
}

impl TableStyle {
    /// The built-in style; `build.rs` embeds it and a test checks it parses.
    pub fn built_in() -> Self {
        let text = data::embedded(STYLE_FILE).expect("build.rs embeds assets/table/style.ron");
        from_ron(STYLE_FILE, text).unwrap_or_else(|e| panic!("built-in table style is broken: {e}"))
    }
}

/// Root of the table's entities; despawned and rebuilt when the table size changes.
#[derive(Component, Debug)]
pub struct TableRoot(pub TableSize);

pub(super) fn plugin(app: &mut App) {
    let style = TableStyle::built_in();
    app.insert_resource(ClearColor(srgb(style.room)))
        .insert_resource(GlobalAmbientLight {
            color: Color::srgb(1.0, 0.95, 0.85),
            brightness: style.ambient_brightness,
            ..default()
        })
        .insert_resource(style)
        .add_systems(Startup, spawn_lamp)
        .add_systems(Update, rebuild_table);
}

fn srgb((r, g, b): (f32, f32, f32)) -> Color {
    Color::srgb(r, g, b)
}

/// The table size wanted now: the battle's, else 6 ft × 4 ft.
pub fn wanted_size(active: &ActiveBattle) -> TableSize {
    active.0.as_ref().map(|b| b.scenario.table).unwrap_or_default()
}

fn spawn_lamp(mut commands: Commands, style: Res<TableStyle>) {
    // Warm light from high over the near-left shoulder, casting soft shadows
    // across a table up to 16 ft long.
    commands.spawn((
        Name::new("Lamp"),
        DirectionalLight {
            color: Color::srgb(1.0, 0.93, 0.8),
            illuminance: style.lamp_illuminance,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(-40.0, 120.0, 60.0).looking_at(Vec3::ZERO, Vec3::Y),
        CascadeShadowConfigBuilder {
            num_cascades: 2,
            minimum_distance: 1.0,
            first_cascade_far_bound: 120.0,
            maximum_distance: 500.0,
            ..default()
        }
        .build(),
    ));
}

fn rebuild_table(
    mut commands: Commands,
    active: Res<ActiveBattle>,
    style: Res<TableStyle>,
    existing: Query<(Entity, &TableRoot)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let size = wanted_size(&active);
    if existing.iter().any(|(_, root)| root.0 == size) {
        return;
    }
    for (entity, _) in &existing {
        commands.entity(entity).despawn();
    }
    let TableSize { width, depth } = size;
    let s = &*style;
    let baize = materials.add(StandardMaterial {
        base_color: srgb(s.baize),
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
        assert!(s.lamp_illuminance > 0.0);
    }
}
