//! The forces on the table, made in code: infantry as figures on round bases
//! in cohesion (1" apart, *Heroes All* "Cohesion"), guns with their crews,
//! vehicles as hulls with turrets, each element where the battle flow has it.
//! The person at the screen sees his own side, and the enemy only once his
//! side has observed it (fog of war); with no side under his command (a
//! demonstration, both sides Auto) the whole table shows.

use bevy::prelude::*;
use warbound_rules::{
    codex::{Codex, Kind},
    geometry::{HILL_LEVEL_HEIGHT, hill_level},
    scenario::ElementSpec,
};

use super::{table::TableRoot, terrain::to_world};
use crate::{
    battle::{
        setup::Control,
        state::{Battle, Fielded, Sides},
    },
    data,
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LastSeen>().add_systems(Update, (place_forces, follow_flow).chain());
}

/// Where the person at the screen last saw each enemy element he no longer
/// sees, and in which bound (the fog of war's last-known positions).
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct LastSeen(pub std::collections::BTreeMap<String, (warbound_rules::terrain::Point, u32)>);

/// A last-known position is dropped after this many bounds.
pub const LAST_SEEN_BOUNDS: u32 = 4;

/// One element's miniatures, a child of the table; named by the element's id.
#[derive(Component, Debug)]
pub struct ElementModel(pub String);

/// Figures stand this far apart, inside the 1" cohesion distance.
const FIGURE_SPACING: f32 = 0.8;

/// The side the person at the screen commands, if any.
pub fn player_side(sides: &Sides) -> Option<usize> {
    sides.0.iter().position(|s| s.control == Control::Player)
}

/// Whether the person at the screen sees `f`: his own elements on the table,
/// and enemy elements his side knows of (FYOB: a side acts only on what it
/// has observed); everything on the table when he commands no side or has
/// chosen to see the whole table (`whole`).
pub fn shown(f: &Fielded, sides: &Sides, all: &[&Fielded], whole: bool) -> bool {
    if !f.status.on_table() {
        return false;
    }
    if whole {
        return true;
    }
    let Some(me) = player_side(sides) else { return true };
    f.side == me || sides.0[me].known.contains(f.id()) || all.iter().any(|o| o.side == me && o.known.contains(f.id()))
}

/// Builds the models of every element of the battle on a table that has none yet.
#[allow(clippy::too_many_arguments)]
fn place_forces(
    mut commands: Commands,
    tables: Query<(Entity, &TableRoot)>,
    battle: Option<Res<Battle>>,
    elements: Query<&Fielded>,
    models: Query<&ElementModel>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(battle) = battle else { return };
    let Ok((table_entity, _)) = tables.single() else { return };
    let codex = match data::codex() {
        Ok(c) => c,
        Err(e) => {
            error!("cannot place miniatures: {e}");
            return;
        }
    };
    let have: Vec<&str> = models.iter().map(|m| m.0.as_str()).collect();
    let missing: Vec<&Fielded> = elements.iter().filter(|f| !have.contains(&f.id())).collect();
    if missing.is_empty() {
        return;
    }
    let mut mat = |r, g, b| materials.add(StandardMaterial { base_color: Color::srgb(r, g, b), ..default() });
    // The player's side (the first) in khaki on blue-rimmed bases, the enemy in
    // field grey on orange: the two read apart without the red-green channel.
    let (figure, base) = (meshes.add(Capsule3d::new(0.16, 0.45)), meshes.add(Cylinder::new(0.3, 0.08)));
    let kit = |uniform, rim, hull, gun| Kit { figure: figure.clone(), base: base.clone(), uniform, rim, hull, gun };
    let kits = [
        kit(mat(0.45, 0.42, 0.28), mat(0.15, 0.35, 0.85), mat(0.38, 0.40, 0.30), mat(0.20, 0.20, 0.20)),
        kit(mat(0.36, 0.38, 0.40), mat(0.95, 0.55, 0.10), mat(0.30, 0.32, 0.34), mat(0.18, 0.18, 0.18)),
    ];
    let specs: Vec<&ElementSpec> =
        battle.start.scenario.sides.iter().flat_map(|s| s.companies.iter().flat_map(|c| &c.elements)).collect();
    commands.entity(table_entity).with_children(|t| {
        for f in missing {
            let Some(spec) = specs.iter().find(|e| e.id == f.id()) else { continue };
            let kit = &kits[f.side.min(1)];
            t.spawn((ElementModel(f.id().to_owned()), Transform::default(), Visibility::Hidden)).with_children(|e| {
                for part in element_parts(spec, codex, kit, &mut meshes) {
                    e.spawn(part);
                }
            });
        }
    });
}

/// Keeps each model where the flow has its element, shown or hidden by the fog of war.
fn follow_flow(
    settings: Res<crate::settings::Settings>,
    mut last_seen: ResMut<LastSeen>,
    battle: Option<Res<Battle>>,
    sides: Option<Res<Sides>>,
    tables: Query<&TableRoot>,
    elements: Query<&Fielded>,
    mut models: Query<(&ElementModel, &mut Transform, &mut Visibility)>,
) {
    let (Some(battle), Some(sides)) = (battle, sides) else { return };
    let Ok(root) = tables.single() else { return };
    let all: Vec<&Fielded> = elements.iter().collect();
    for (model, mut transform, mut visibility) in &mut models {
        let Some(f) = all.iter().find(|f| f.id() == model.0) else {
            *visibility = Visibility::Hidden;
            continue;
        };
        // On the hill level under the element (the rules' geometry decides heights).
        let ground = f32::from(hill_level(&battle.terrain, f.at)) * HILL_LEVEL_HEIGHT;
        let at = to_world(root.0, f.at, ground);
        if transform.translation != at {
            transform.translation = at;
        }
        let seen = shown(f, &sides, &all, settings.show_whole_table);
        let show = if seen { Visibility::Inherited } else { Visibility::Hidden };
        // An enemy seen is remembered where he was; one gone from the table is forgotten.
        let bound = battle.clock.bound();
        let enemy = player_side(&sides).is_some_and(|me| f.side != me);
        if enemy && seen {
            last_seen.0.insert(f.id().to_owned(), (f.at, bound));
        } else if !f.status.on_table() {
            last_seen.0.remove(f.id());
        }
        if *visibility != show {
            *visibility = show;
        }
    }
    let bound = battle.clock.bound();
    last_seen.0.retain(|_, (_, when)| bound.saturating_sub(*when) < LAST_SEEN_BOUNDS);
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
