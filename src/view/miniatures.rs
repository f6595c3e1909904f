//! The forces on the table, made in code: infantry as figures on round bases
//! in cohesion (1" apart, *Heroes All* "Cohesion"), guns with their crews,
//! vehicles as hulls with turrets, each element where the battle flow has it.
//! Men aboard a transport ride small in its back; men afloat sit in their
//! assault boats, which show only on the water. The person at the screen
//! sees his own side, and the enemy only once his side has observed it (fog
//! of war); with no side under his command (a demonstration, both sides
//! Auto) the whole table shows.

use bevy::prelude::*;
use warbound_rules::{
    aircraft::{Height, Position},
    codex::{Codex, Kind},
    event::EventKind,
    geometry::{HILL_LEVEL_HEIGHT, hill_level},
    opc::Nation,
    scenario::ElementSpec,
    terrain::Point,
};

use super::{table::TableRoot, terrain::to_world};
use crate::{
    battle::{
        log::BattleLog,
        setup::Control,
        state::{Battle, ElementView, FieldedReadOnly, Sides},
    },
    data,
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LastSeen>()
        .init_resource::<Aims>()
        .add_systems(Update, (place_forces, follow_flow, read_aims, aim_turrets, show_boats, fly_squadrons).chain());
}

/// Where the person at the screen last saw each enemy element he no longer
/// sees, and in which bound (the fog of war's last-known positions).
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct LastSeen(pub std::collections::BTreeMap<String, (Point, u32)>);

/// A last-known position is dropped after this many bounds.
pub const LAST_SEEN_BOUNDS: u32 = 4;

/// One element's miniatures, a child of the table; named by the element's id.
#[derive(Component, Debug)]
pub struct ElementModel(pub String);

/// One of an element's river craft: shown while the element is afloat.
#[derive(Component, Debug)]
struct BoatHull;

/// Figures stand this far apart, inside the 1" cohesion distance.
const FIGURE_SPACING: f32 = 0.8;

/// Where men aboard a transport ride, from its position: in the back of
/// its hull (a vehicle stands 1.5" ahead of its element's point, its hull
/// under 1" high), and how small their block is drawn to fit in it.
const RIDING: Vec3 = Vec3::new(0.0, 0.75, -1.6);
const RIDING_SCALE: f32 = 0.35;

/// The side the person at the screen commands, if any.
pub fn player_side(sides: &Sides) -> Option<usize> {
    sides.0.iter().position(|s| s.control == Control::Player)
}

/// Whether the person at the screen sees `f`: his own elements on the table,
/// and enemy elements his side knows of (FYOB: a side acts only on what it
/// has observed); everything on the table when he commands no side or has
/// chosen to see the whole table (`whole`).
pub fn shown(f: &ElementView, sides: &Sides, all: &[ElementView], whole: bool) -> bool {
    if !f.presence.status.on_table() {
        return false;
    }
    if whole {
        return true;
    }
    let Some(me) = player_side(sides) else { return true };
    f.identity.side == me
        || sides.0[me].known.contains(f.id())
        || all.iter().any(|o| o.identity.side == me && o.intel.known.contains(f.id()))
}

/// Builds the models of every element of the battle on a table that has none yet.
#[allow(clippy::too_many_arguments)]
fn place_forces(
    mut commands: Commands,
    tables: Query<(Entity, &TableRoot)>,
    battle: Option<Res<Battle>>,
    sides: Option<Res<Sides>>,
    elements: Query<FieldedReadOnly>,
    models: Query<&ElementModel>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let (Some(battle), Some(sides)) = (battle, sides) else { return };
    let Ok((table_entity, _)) = tables.single() else { return };
    let codex = match data::codex() {
        Ok(c) => c,
        Err(e) => {
            error!("cannot place miniatures: {e}");
            return;
        }
    };
    let have: Vec<&str> = models.iter().map(|m| m.0.as_str()).collect();
    let missing: Vec<ElementView> = elements.iter().filter(|f| !have.contains(&f.id())).map(|f| f.view()).collect();
    if missing.is_empty() {
        return;
    }
    let mut mat =
        |[r, g, b]: [f32; 3]| materials.add(StandardMaterial { base_color: Color::srgb(r, g, b), ..default() });
    let canvas = mat(BOAT_CANVAS);
    let shapes = Shapes {
        figure: meshes.add(Capsule3d::new(0.16, 0.45)),
        base: meshes.add(Cylinder::new(0.3, 0.08)),
        barrel: meshes.add(Cuboid::new(0.1, 0.1, 1.2)),
        turret: meshes.add(Cuboid::new(0.8, 0.4, 0.9)),
        stand: meshes.add(Cylinder::new(0.06, 1.0)),
        stand_base: meshes.add(Cylinder::new(0.9, 0.1)),
        boat: meshes.add(Cuboid::new(BOAT_SIZE.x, BOAT_SIZE.y, BOAT_SIZE.z)),
        canvas,
    };
    // Each side's kit: its nation's uniform and paint, on bases rimmed in the
    // side's colour (blue or orange: apart without the red-green channel).
    let gun = mat([0.18, 0.18, 0.18]);
    let kits: Vec<Kit> = sides
        .0
        .iter()
        .enumerate()
        .map(|(s, side)| {
            let paint = NationPaint::of(&side.nation);
            Kit { uniform: mat(paint.uniform), rim: mat(SIDE_RIMS[s.min(1)]), hull: mat(paint.hull), gun: gun.clone() }
        })
        .collect();
    let specs: Vec<&ElementSpec> =
        battle.start.scenario.sides.iter().flat_map(|s| s.companies.iter().flat_map(|c| &c.elements)).collect();
    commands.entity(table_entity).with_children(|t| {
        for f in missing {
            let Some(spec) = specs.iter().find(|e| e.id == f.id()) else { continue };
            let Some(kit) = kits.get(f.identity.side) else { continue };
            let facing = Quat::from_rotation_y(facing_yaw(f.facing(sides.0[f.identity.side].home(f.identity.company))));
            t.spawn((
                ElementModel(f.id().to_owned()),
                Transform::from_rotation(facing),
                Visibility::Hidden,
                Glide::default(),
            ))
            .with_children(|e| {
                let built = element_parts(spec, codex, kit, &shapes, &mut meshes);
                for part in built.parts {
                    e.spawn(part);
                }
                for hull in built.boats {
                    e.spawn((BoatHull, hull, Visibility::Hidden));
                }
                for (pivot, parts) in built.turrets {
                    e.spawn((Turret, Transform::from_translation(pivot), Visibility::Inherited)).with_children(|r| {
                        for part in parts {
                            r.spawn(part);
                        }
                    });
                }
            });
        }
        // Each machine of each squadron on its flight stand, hidden until it is over the table.
        for (s, side) in sides.0.iter().enumerate() {
            let Some(kit) = kits.get(s) else { continue };
            for (k, q) in side.squadrons.iter().enumerate() {
                for m in 0..q.machines.len() {
                    let facing = Quat::from_rotation_y(facing_yaw(warbound_rules::facing::ahead(side.edge)));
                    t.spawn((
                        SquadronModel { side: s, squadron: k, machine: m },
                        Transform::from_rotation(facing),
                        Visibility::Hidden,
                    ))
                    .with_children(|a| {
                        let (base, rod, craft) = flight_stand(kit, &shapes, &mut meshes);
                        a.spawn(base);
                        a.spawn((StandRod, rod));
                        a.spawn((StandCraft, Transform::default(), Visibility::Inherited)).with_children(|c| {
                            for part in craft {
                                c.spawn(part);
                            }
                        });
                    });
                }
            }
        }
    });
}

/// The base rims of the two sides: blue and orange.
const SIDE_RIMS: [[f32; 3]; 2] = [[0.15, 0.35, 0.85], [0.95, 0.55, 0.10]];

/// A nation's uniform and vehicle paint.
#[derive(Debug, Clone, Copy, PartialEq)]
struct NationPaint {
    uniform: [f32; 3],
    hull: [f32; 3],
}

impl NationPaint {
    /// British khaki and SCC green-brown; German field grey and panzer grey;
    /// American olive drab; Italian grey-green and sand; Soviet khaki and 4BO
    /// green; any other army in neutral drab.
    fn of(nation: &Nation) -> Self {
        let (uniform, hull) = match nation {
            Nation::British => ([0.47, 0.42, 0.27], [0.36, 0.38, 0.27]),
            Nation::German => ([0.36, 0.39, 0.40], [0.30, 0.32, 0.34]),
            Nation::American => ([0.38, 0.37, 0.22], [0.28, 0.31, 0.19]),
            Nation::Italian => ([0.44, 0.46, 0.37], [0.68, 0.59, 0.42]),
            Nation::Russian => ([0.52, 0.47, 0.31], [0.24, 0.33, 0.19]),
            Nation::Other(_) => ([0.45, 0.43, 0.38], [0.40, 0.40, 0.37]),
        };
        Self { uniform, hull }
    }
}

/// The yaw that turns a model (made facing -Z, away from the near edge) to
/// face `heading`, a direction on the table. Vehicles stand so, as the rules
/// read their facing (`warbound_rules::facing::facing_along`): the hull on
/// the table shows the quadrant a shot strikes.
fn facing_yaw(heading: Point) -> f32 {
    (-heading.0).atan2(heading.1)
}

/// A model gliding to where the flow has its element: the table shows a move
/// as a move, not a jump.
#[derive(Component, Debug, Default)]
struct Glide {
    /// Placed once: the first placement is a jump.
    placed: bool,
    /// Where it is going, and how fast (set when the move begins).
    to: Vec3,
    speed: f32,
}

/// A model glides this fast, inches a second, or faster so that no move takes
/// longer than [`GLIDE_MAX_SECONDS`].
const GLIDE_SPEED: f32 = 10.0;
const GLIDE_MAX_SECONDS: f32 = 0.8;

/// The speed of a glide over `len` inches.
fn glide_speed(len: f32) -> f32 {
    GLIDE_SPEED.max(len / GLIDE_MAX_SECONDS)
}

/// The point `at` glides towards `to` at `speed` for `dt` seconds.
fn glide(at: Vec3, to: Vec3, speed: f32, dt: f32) -> Vec3 {
    let gap = to - at;
    let len = gap.length();
    let step = speed * dt;
    if len <= step || len < 1e-3 { to } else { at + gap / len * step }
}

/// A turret or gun shield that turns to face what its element last fired at.
#[derive(Component, Debug)]
struct Turret;

/// What each element last fired at (from the battle log's fire events), and
/// how far through the log that is read.
#[derive(Resource, Debug, Default)]
struct Aims {
    read: usize,
    at: std::collections::BTreeMap<String, String>,
}

/// One aircraft of a squadron on its flight stand.
#[derive(Component, Debug)]
struct SquadronModel {
    side: usize,
    squadron: usize,
    machine: usize,
}

/// The clear rod of a flight stand, scaled to the height flown.
#[derive(Component, Debug)]
struct StandRod;

/// The aircraft on top of its stand.
#[derive(Component, Debug)]
struct StandCraft;

/// Flight stands by height band, inches from the table to the aircraft.
pub fn stand_height(h: Height) -> f32 {
    match h {
        Height::Low => 5.0,
        Height::Medium => 9.0,
        Height::High => 14.0,
    }
}

/// Reads the fire events logged since the last frame: who fired at whom.
fn read_aims(log: Option<Res<BattleLog>>, mut aims: ResMut<Aims>) {
    let Some(log) = log else { return };
    if log.entries.len() < aims.read {
        *aims = Aims::default();
    }
    for e in &log.entries[aims.read..] {
        if e.event.kind == EventKind::Fire
            && let (Some(firer), Some(target)) = (&e.event.actor, &e.event.target)
        {
            aims.at.insert(firer.clone(), target.clone());
        }
    }
    aims.read = log.entries.len();
}

/// Shows each element's boats while it is afloat, and hides them ashore.
fn show_boats(
    elements: Query<FieldedReadOnly>,
    models: Query<(&ElementModel, &Children)>,
    mut hulls: Query<&mut Visibility, With<BoatHull>>,
) {
    for (model, children) in &models {
        let Some(f) = elements.iter().find(|f| f.id() == model.0) else { continue };
        let show = if f.place.afloat() { Visibility::Inherited } else { Visibility::Hidden };
        for child in children.iter() {
            if let Ok(mut hull) = hulls.get_mut(child)
                && *hull != show
            {
                *hull = show;
            }
        }
    }
}

/// Turns each turret to its element's last target, if the target is still on the table.
fn aim_turrets(
    aims: Res<Aims>,
    tables: Query<&TableRoot>,
    elements: Query<FieldedReadOnly>,
    models: Query<(&ElementModel, &Transform, &Children), Without<Turret>>,
    mut turrets: Query<&mut Transform, With<Turret>>,
) {
    let Ok(root) = tables.single() else { return };
    for (model, transform, children) in &models {
        let Some(target) = aims.at.get(&model.0) else { continue };
        let Some(t) = elements.iter().find(|f| f.id() == target && f.presence.status.on_table()) else { continue };
        let to = to_world(root.0, t.place.at, 0.0) - transform.translation;
        if to.x.abs() + to.z.abs() < 1e-3 {
            continue;
        }
        // -Z is a model's front: the yaw in the table's frame, less the hull's.
        let world_yaw = (-to.x).atan2(-to.z);
        let local = Quat::from_rotation_y(world_yaw) * transform.rotation.inverse();
        for child in children.iter() {
            if let Ok(mut turret) = turrets.get_mut(child)
                && turret.rotation != local
            {
                turret.rotation = local;
            }
        }
    }
}

/// A flight stand's rod or craft, and whether it is the rod.
type StandPart = (&'static mut Transform, Option<&'static StandRod>);
type StandFilter = (Without<SquadronModel>, Or<(With<StandRod>, With<StandCraft>)>);

/// Puts each squadron's machines over their target (or the table's middle,
/// each side to its own side of it) at their height, while they are over the
/// table.
fn fly_squadrons(
    sides: Option<Res<Sides>>,
    tables: Query<&TableRoot>,
    elements: Query<FieldedReadOnly>,
    mut models: Query<(&SquadronModel, &mut Transform, &mut Visibility, &Children)>,
    mut parts: Query<StandPart, StandFilter>,
) {
    let Some(sides) = sides else { return };
    let Ok(root) = tables.single() else { return };
    let middle = Point(root.0.width / 2.0, root.0.depth / 2.0);
    for (m, mut transform, mut visibility, children) in &mut models {
        let Some(q) = sides.0.get(m.side).and_then(|s| s.squadrons.get(m.squadron)) else { continue };
        let height = match q.machines.get(m.machine).map(|a| a.position) {
            Some(Position::OverTable(h)) => Some(stand_height(h)),
            _ => None,
        };
        let Some(height) = height else {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        };
        let over = q
            .target
            .as_ref()
            .and_then(|t| elements.iter().find(|f| f.id() == t && f.presence.status.on_table()))
            .map_or(middle, |f| f.place.at);
        // Machines of a squadron side by side, 4" apart; over the middle each
        // side's squadrons keep 3" to their own side of it, so machines
        // fighting in the air face each other rather than overlap.
        let spread = (m.machine as f32 - 1.0) * 4.0;
        let lane = if q.target.is_none() { (m.side as f32 - 0.5) * 6.0 } else { 0.0 };
        let at = to_world(root.0, Point(over.0 + spread, over.1 + lane), 0.0);
        transform.translation = at;
        visibility.set_if_neq(Visibility::Inherited);
        // The rod and the machine stand at the flight height.
        for child in children.iter() {
            if let Ok((mut part, rod)) = parts.get_mut(child) {
                let (scale, y) = if rod.is_some() { (height, height / 2.0) } else { (1.0, height) };
                if part.scale.y != scale || part.translation.y != y {
                    part.scale.y = scale;
                    part.translation.y = y;
                }
            }
        }
    }
}

/// Keeps each model where the flow has its element, shown or hidden by the
/// fog of war; a model in sight glides to a new position.
#[allow(clippy::too_many_arguments)]
fn follow_flow(
    time: Res<Time>,
    settings: Res<crate::settings::Settings>,
    mut last_seen: ResMut<LastSeen>,
    battle: Option<Res<Battle>>,
    sides: Option<Res<Sides>>,
    tables: Query<&TableRoot>,
    elements: Query<FieldedReadOnly>,
    mut models: Query<(&ElementModel, &mut Transform, &mut Visibility, &mut Glide)>,
    at: Res<super::AtScreen>,
) {
    let (Some(battle), Some(sides)) = (battle, sides) else { return };
    let sides = at.seen(&sides);
    let Ok(root) = tables.single() else { return };
    let all: Vec<ElementView> = elements.iter().map(|f| f.view()).collect();
    let dt = time.delta_secs();
    for (model, mut transform, mut visibility, mut glider) in &mut models {
        let Some(f) = all.iter().find(|f| f.id() == model.0) else {
            *visibility = Visibility::Hidden;
            continue;
        };
        // Men aboard a transport ride small in its back, seen as it is seen.
        let carrier = f.presence.status.aboard().and_then(|k| all.iter().find(|v| usize::from(v.identity.index) == k));
        let seen = shown(carrier.unwrap_or(f), &sides, &all, settings.show_whole_table);
        let (f_at, heading) = match carrier {
            Some(v) => (v.place.at, v.facing(sides.0[v.identity.side].home(v.identity.company))),
            None => (f.place.at, f.facing(sides.0[f.identity.side].home(f.identity.company))),
        };
        let facing = Quat::from_rotation_y(facing_yaw(heading));
        // On the hill level under the element (the rules' geometry decides heights).
        let ground = f32::from(hill_level(&battle.terrain, f_at)) * HILL_LEVEL_HEIGHT;
        let mut at = to_world(root.0, f_at, ground);
        if carrier.is_some() {
            at += facing * RIDING;
        }
        let scale = Vec3::splat(if carrier.is_some() { RIDING_SCALE } else { 1.0 });
        if transform.scale != scale {
            transform.scale = scale;
        }
        // A model coming into sight, or placed for the first time, stands where it is at once.
        let jump = !glider.placed || *visibility == Visibility::Hidden;
        if glider.to != at {
            glider.to = at;
            glider.speed = glide_speed(transform.translation.distance(at));
        }
        let next = if jump { at } else { glide(transform.translation, at, glider.speed, dt) };
        if transform.translation != next {
            transform.translation = next;
        }
        glider.placed = true;
        if transform.rotation != facing {
            transform.rotation = facing;
        }
        let show = if seen { Visibility::Inherited } else { Visibility::Hidden };
        // An enemy seen is remembered where he was; one gone from the table is forgotten.
        let bound = battle.clock.bound();
        let enemy = player_side(&sides).is_some_and(|me| f.identity.side != me);
        if enemy && seen {
            last_seen.0.insert(f.id().to_owned(), (f.place.at, bound));
        } else if !f.presence.status.on_table() {
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
    uniform: Handle<StandardMaterial>,
    rim: Handle<StandardMaterial>,
    hull: Handle<StandardMaterial>,
    gun: Handle<StandardMaterial>,
}

/// Meshes every model shares.
struct Shapes {
    figure: Handle<Mesh>,
    base: Handle<Mesh>,
    barrel: Handle<Mesh>,
    turret: Handle<Mesh>,
    stand: Handle<Mesh>,
    stand_base: Handle<Mesh>,
    boat: Handle<Mesh>,
    canvas: Handle<StandardMaterial>,
}

/// An assault boat's hull, inches: beam, freeboard, length.
const BOAT_SIZE: Vec3 = Vec3::new(1.3, 0.3, 3.6);
/// Khaki canvas, pale against the water.
const BOAT_CANVAS: [f32; 3] = [0.62, 0.58, 0.44];

type Part = (Mesh3d, MeshMaterial3d<StandardMaterial>, Transform);

/// An element's meshes: the fixed parts, and each turret (its pivot and its
/// parts about the pivot).
#[derive(Default)]
struct Built {
    parts: Vec<Part>,
    turrets: Vec<(Vec3, Vec<Part>)>,
    /// Its river craft, side by side under its figures.
    boats: Vec<Part>,
}

/// The meshes of one element around its position, its front to -Z: vehicles
/// and guns in front, figures in a loose block behind.
fn element_parts(element: &ElementSpec, codex: &Codex, kit: &Kit, shapes: &Shapes, meshes: &mut Assets<Mesh>) -> Built {
    let mut built = Built::default();
    let mut x = 0.0;
    for piece in &element.pieces {
        let Ok(entry) = codex.get(&piece.codex) else { continue };
        let at = Vec3::new(x, 0.0, -1.5);
        match entry.kind {
            Kind::Vehicle => {
                let (length, width, height) = if entry.armour.is_some() { (2.4, 1.2, 0.8) } else { (2.0, 0.9, 0.9) };
                built.parts.push(part(
                    meshes.add(Cuboid::new(width, height, length)),
                    &kit.hull,
                    at + Vec3::Y * height / 2.0,
                ));
                if entry.at_class().is_some() {
                    // A turret that turns to its target, the barrel forward of it.
                    let turret = vec![
                        part(shapes.turret.clone(), &kit.hull, Vec3::Y * 0.2),
                        part(shapes.barrel.clone(), &kit.gun, Vec3::new(0.0, 0.25, -0.9)),
                    ];
                    built.turrets.push((at + Vec3::Y * height, turret));
                }
                x += width + 0.6;
            }
            Kind::Weapon => {
                // A crew-served weapon: a barrel on a small carriage, trained on its target.
                let gun = vec![
                    part(meshes.add(Cuboid::new(0.5, 0.2, 0.5)), &kit.gun, Vec3::Y * 0.1),
                    part(meshes.add(Cuboid::new(0.08, 0.08, 0.9)), &kit.gun, Vec3::new(0.0, 0.3, -0.3)),
                ];
                built.turrets.push((at, gun));
                x += 1.0;
            }
            Kind::Aircraft => {
                // A glider or machine on the ground.
                built.parts.push(part(meshes.add(Cuboid::new(1.0, 0.5, 3.0)), &kit.hull, at + Vec3::Y * 0.25));
                built.parts.push(part(meshes.add(Cuboid::new(4.0, 0.08, 0.6)), &kit.hull, at + Vec3::Y * 0.45));
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
        built.parts.push(part(shapes.base.clone(), &kit.rim, at + Vec3::Y * 0.04));
        built.parts.push(part(shapes.figure.clone(), &kit.uniform, at + Vec3::Y * (0.08 + 0.16 + 0.225)));
    }
    if let Some(boats) = element.boats {
        // Under the block of figures, its rows' middle.
        let middle = ((men.max(1) - 1) / per_row) as f32 * FIGURE_SPACING / 2.0;
        let n = f32::from(boats.count);
        for i in 0..boats.count {
            let x = (f32::from(i) - (n - 1.0) / 2.0) * (BOAT_SIZE.x + 0.3);
            built.boats.push(part(shapes.boat.clone(), &shapes.canvas, Vec3::new(x, BOAT_SIZE.y / 2.0, middle)));
        }
    }
    built
}

/// A flight stand: its base rimmed in the side's colour, the rod (one inch,
/// scaled to the height flown), and the aircraft about its top.
fn flight_stand(kit: &Kit, shapes: &Shapes, meshes: &mut Assets<Mesh>) -> (Part, Part, Vec<Part>) {
    let base = part(shapes.stand_base.clone(), &kit.rim, Vec3::Y * 0.05);
    let rod = part(shapes.stand.clone(), &kit.gun, Vec3::Y * 0.5);
    let craft = vec![
        part(meshes.add(Cuboid::new(0.7, 0.6, 3.2)), &kit.hull, Vec3::ZERO),
        part(meshes.add(Cuboid::new(4.6, 0.1, 0.9)), &kit.hull, Vec3::new(0.0, 0.0, -0.3)),
        part(meshes.add(Cuboid::new(1.6, 0.08, 0.5)), &kit.hull, Vec3::new(0.0, 0.1, 1.4)),
        part(meshes.add(Cuboid::new(0.08, 0.6, 0.5)), &kit.hull, Vec3::new(0.0, 0.4, 1.4)),
    ];
    (base, rod, craft)
}

fn part(mesh: Handle<Mesh>, material: &Handle<StandardMaterial>, at: Vec3) -> Part {
    (Mesh3d(mesh), MeshMaterial3d(material.clone()), Transform::from_translation(at))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::scenario::Edge;

    #[test]
    fn a_glide_reaches_its_end_without_overshooting() {
        let (from, to) = (Vec3::ZERO, Vec3::new(3.0, 0.0, 4.0));
        let speed = glide_speed(5.0);
        let mid = glide(from, to, speed, 0.1);
        assert!(mid.distance(from) > 0.0 && mid.distance(to) < 5.0, "{mid}");
        let mut at = from;
        for _ in 0..100 {
            at = glide(at, to, speed, 0.1);
        }
        assert_eq!(at, to);
        // A long move is done within the most time allowed.
        let far = Vec3::new(60.0, 0.0, 0.0);
        let speed = glide_speed(60.0);
        let mut at = from;
        let mut steps = 0;
        while at != far {
            at = glide(at, far, speed, 0.05);
            steps += 1;
        }
        assert!(steps as f32 * 0.05 <= GLIDE_MAX_SECONDS + 0.051, "{steps} steps");
    }

    #[test]
    fn models_face_away_from_their_own_edge() {
        // -Z is a model's front, and -Z on the table is away from the near edge.
        let front = |e| Quat::from_rotation_y(facing_yaw(warbound_rules::facing::ahead(e))) * Vec3::NEG_Z;
        assert!(front(Edge::Near).distance(Vec3::NEG_Z) < 1e-5);
        assert!(front(Edge::Far).distance(Vec3::Z) < 1e-5);
        // The left edge is world -X: its side faces +X.
        assert!(front(Edge::Left).distance(Vec3::X) < 1e-5);
        assert!(front(Edge::Right).distance(Vec3::NEG_X) < 1e-5);
        // A tank that drove towards the far right corner (+x, +y on the
        // table) points to world +X, -Z.
        let diagonal = Quat::from_rotation_y(facing_yaw(Point(1.0, 1.0))) * Vec3::NEG_Z;
        assert!(diagonal.distance(Vec3::new(1.0, 0.0, -1.0).normalize()) < 1e-5, "{diagonal}");
    }

    /// The whole game without a window, both sides Auto, played until the
    /// village's Typhoons are over the table: each machine over the table
    /// stands on its stand at the height it flies; the others are hidden.
    #[test]
    fn aircraft_over_the_table_stand_on_flight_stands_at_their_height() {
        let mut app = crate::app::full_app(crate::app::FullAppOptions {
            settings: crate::settings::Settings::default(),
            screenshot: None,
            bench: None,
            scenario: Some(data::load_scenario("village").unwrap()),
            windowed: false,
        });
        app.insert_resource(crate::battle::NewBattle { seed: 42, player: None, two_player: false });
        app.insert_resource(crate::battle::FlowPace(20));
        let flying = |app: &App| {
            app.world().get_resource::<Sides>().is_some_and(|s| {
                s.0.iter()
                    .flat_map(|s| &s.squadrons)
                    .flat_map(|q| &q.machines)
                    .any(|m| matches!(m.position, Position::OverTable(_)))
            })
        };
        let mut found = false;
        for _ in 0..3000 {
            app.update();
            if flying(&app) {
                app.update();
                found = true;
                break;
            }
        }
        assert!(found, "the Typhoons never came over the table");
        let world = app.world_mut();
        let sides = world.resource::<Sides>().clone();
        let mut stands = world.query::<(&SquadronModel, &Visibility, &Children)>();
        let mut crafts = world.query_filtered::<&Transform, With<StandCraft>>();
        let mut shown = 0;
        for (m, visibility, children) in stands.iter(world) {
            let machine = &sides.0[m.side].squadrons[m.squadron].machines[m.machine];
            match machine.position {
                Position::OverTable(h) => {
                    assert_eq!(*visibility, Visibility::Inherited);
                    let craft = children.iter().find_map(|c| crafts.get(world, c).ok()).expect("a craft on the stand");
                    assert_eq!(craft.translation.y, stand_height(h));
                    shown += 1;
                }
                _ => assert_eq!(*visibility, Visibility::Hidden),
            }
        }
        assert!(shown > 0);
    }

    #[test]
    fn assault_boats_show_under_the_men_only_while_they_are_afloat() {
        let mut app = crate::app::full_app(crate::app::FullAppOptions {
            settings: crate::settings::Settings::default(),
            screenshot: None,
            bench: None,
            scenario: Some(data::load_scenario("vernon").unwrap()),
            windowed: false,
        });
        app.insert_resource(crate::battle::NewBattle { seed: 1, player: None, two_player: false });
        app.insert_resource(crate::battle::FlowPace(20));
        let afloat = |app: &mut App| {
            let mut q = app.world_mut().query::<FieldedReadOnly>();
            q.iter(app.world()).filter(|f| f.place.afloat()).map(|f| f.id().to_owned()).collect::<Vec<_>>()
        };
        let mut on_water = Vec::new();
        for _ in 0..3000 {
            app.update();
            on_water = afloat(&mut app);
            if !on_water.is_empty() {
                app.update();
                on_water = afloat(&mut app);
                break;
            }
        }
        assert!(!on_water.is_empty(), "nobody took to the boats");
        let world = app.world_mut();
        let mut models = world.query::<(&ElementModel, &Children)>();
        let mut hulls = world.query_filtered::<&Visibility, With<BoatHull>>();
        let (mut shown, mut hidden) = (0, 0);
        for (model, children) in models.iter(world) {
            let boats: Vec<&Visibility> = children.iter().filter_map(|c| hulls.get(world, c).ok()).collect();
            for v in &boats {
                if on_water.contains(&model.0) {
                    assert_eq!(**v, Visibility::Inherited, "{}'s boats hidden on the water", model.0);
                    shown += 1;
                } else {
                    assert_eq!(**v, Visibility::Hidden, "{}'s boats shown ashore", model.0);
                    hidden += 1;
                }
            }
        }
        assert!(shown > 0 && hidden > 0, "{shown} boats shown, {hidden} hidden");
    }

    #[test]
    fn flight_stands_rise_with_the_height_band() {
        assert!(stand_height(Height::Low) < stand_height(Height::Medium));
        assert!(stand_height(Height::Medium) < stand_height(Height::High));
    }

    #[test]
    fn each_nation_has_its_own_uniform() {
        let nations = [Nation::British, Nation::German, Nation::American, Nation::Italian, Nation::Russian];
        for (i, a) in nations.iter().enumerate() {
            for b in &nations[i + 1..] {
                assert_ne!(NationPaint::of(a).uniform, NationPaint::of(b).uniform, "{a:?} {b:?}");
            }
        }
    }
}
