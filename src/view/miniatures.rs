//! The player's forces on the table, made in code: infantry as figures on
//! round bases in cohesion (1" apart, *Heroes All* "Cohesion"), guns with
//! their crews, vehicles as hulls with turrets, each element on its start
//! position. The enemy is not drawn: his elements appear only once observed
//! (fog of war), which the battle flow brings.

use bevy::prelude::*;
use warbound_rules::{
    codex::{Codex, Kind},
    geometry::{HILL_LEVEL_HEIGHT, hill_level},
    scenario::{ElementSpec, Start},
    terrain::Point,
};

use super::{table::TableRoot, terrain::to_world};
use crate::{battle::ActiveBattle, data};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, place_forces);
}

/// One element's miniatures, a child of the table; named by the element's id.
#[derive(Component, Debug)]
pub struct ElementModel(pub String);

/// Figures stand this far apart, inside the 1" cohesion distance.
const FIGURE_SPACING: f32 = 0.8;

fn place_forces(
    mut commands: Commands,
    tables: Query<(Entity, &TableRoot), Added<TableRoot>>,
    active: Res<ActiveBattle>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(battle) = &active.0 else { return };
    // The first side is the player's (it sets up on the near edge).
    let Some(side) = battle.scenario.sides.first() else { return };
    let codex = match data::codex() {
        Ok(c) => c,
        Err(e) => {
            error!("cannot place miniatures: {e}");
            return;
        }
    };
    for (table_entity, root) in &tables {
        let mut mat = |r, g, b| materials.add(StandardMaterial { base_color: Color::srgb(r, g, b), ..default() });
        // Khaki uniforms on blue-rimmed bases: the player's colour reads apart
        // from the enemy's orange even without the red-green channel.
        let kit = Kit {
            figure: meshes.add(Capsule3d::new(0.16, 0.45)),
            base: meshes.add(Cylinder::new(0.3, 0.08)),
            uniform: mat(0.45, 0.42, 0.28),
            rim: mat(0.15, 0.35, 0.85),
            hull: mat(0.38, 0.40, 0.30),
            gun: mat(0.20, 0.20, 0.20),
        };
        let mut models = Vec::new();
        for element in side.companies.iter().flat_map(|c| &c.elements) {
            // On the table at the start, or landing there in the first bound.
            if let Start::At(x, y) | Start::Glider(1, x, y) | Start::Drop(1, x, y) = element.start {
                models.push((element.id.clone(), Point(x, y), element_parts(element, codex, &kit, &mut meshes)));
            }
        }
        commands.entity(table_entity).with_children(|t| {
            for (id, at, parts) in models {
                // On the hill level under the element (the rules' geometry decides heights).
                let ground = f32::from(hill_level(&battle.scenario.terrain, at)) * HILL_LEVEL_HEIGHT;
                t.spawn((
                    ElementModel(id),
                    Transform::from_translation(to_world(root.0, at, ground)),
                    Visibility::default(),
                ))
                .with_children(|e| {
                    for part in parts {
                        e.spawn(part);
                    }
                });
            }
        });
    }
}

struct Kit {
    figure: Handle<Mesh>,
    base: Handle<Mesh>,
    uniform: Handle<StandardMaterial>,
    rim: Handle<StandardMaterial>,
    hull: Handle<StandardMaterial>,
    gun: Handle<StandardMaterial>,
}

type Part = (Mesh3d, MeshMaterial3d<StandardMaterial>, Transform);

/// The meshes of one element around its position: vehicles and guns in front,
/// figures in a loose block behind.
fn element_parts(element: &ElementSpec, codex: &Codex, kit: &Kit, meshes: &mut Assets<Mesh>) -> Vec<Part> {
    let mut parts = Vec::new();
    let mut x = 0.0;
    for piece in &element.pieces {
        let Ok(entry) = codex.get(&piece.codex) else { continue };
        let at = Vec3::new(x, 0.0, -1.5);
        match entry.kind {
            Kind::Vehicle => {
                let (length, width, height) = if entry.armour.is_some() { (2.4, 1.2, 0.8) } else { (2.0, 0.9, 0.9) };
                parts.push(part(
                    meshes.add(Cuboid::new(width, height, length)),
                    &kit.hull,
                    at + Vec3::Y * height / 2.0,
                ));
                if entry.at_class().is_some() {
                    parts.push(part(meshes.add(Cuboid::new(0.8, 0.4, 0.9)), &kit.hull, at + Vec3::Y * (height + 0.2)));
                    let barrel = meshes.add(Cuboid::new(0.1, 0.1, 1.2));
                    parts.push(part(barrel, &kit.gun, at + Vec3::new(0.0, height + 0.25, -0.9)));
                }
                x += width + 0.6;
            }
            Kind::Weapon => {
                // A crew-served weapon: a barrel on a small carriage.
                parts.push(part(meshes.add(Cuboid::new(0.5, 0.2, 0.5)), &kit.gun, at + Vec3::Y * 0.1));
                parts.push(part(meshes.add(Cuboid::new(0.08, 0.08, 0.9)), &kit.gun, at + Vec3::new(0.0, 0.3, -0.3)));
                x += 1.0;
            }
            Kind::Aircraft => {
                parts.push(part(meshes.add(Cuboid::new(1.0, 0.5, 3.0)), &kit.hull, at + Vec3::Y * 0.25));
                parts.push(part(meshes.add(Cuboid::new(4.0, 0.08, 0.6)), &kit.hull, at + Vec3::Y * 0.45));
                x += 4.5;
            }
        }
    }
    let men: usize = element.figures.iter().map(|f| usize::from(f.men)).sum::<usize>()
        + element.pieces.iter().filter_map(|p| p.crew).map(usize::from).sum::<usize>();
    let per_row = men.clamp(1, 5);
    for i in 0..men {
        let (row, col) = ((i / per_row) as f32, (i % per_row) as f32);
        let at = Vec3::new((col - (per_row as f32 - 1.0) / 2.0) * FIGURE_SPACING, 0.0, row * FIGURE_SPACING);
        parts.push((
            Mesh3d(kit.base.clone()),
            MeshMaterial3d(kit.rim.clone()),
            Transform::from_translation(at + Vec3::Y * 0.04),
        ));
        parts.push((
            Mesh3d(kit.figure.clone()),
            MeshMaterial3d(kit.uniform.clone()),
            Transform::from_translation(at + Vec3::Y * (0.08 + 0.16 + 0.225)),
        ));
    }
    parts
}

fn part(mesh: Handle<Mesh>, material: &Handle<StandardMaterial>, at: Vec3) -> Part {
    (Mesh3d(mesh), MeshMaterial3d(material.clone()), Transform::from_translation(at))
}
