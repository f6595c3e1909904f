//! The scenario's terrain on the table: hills as stepped contour slabs,
//! woods as trees on a base, hedges and walls, buildings with roofs, roads,
//! rivers with their bridges and fords, marsh, rough ground and minefields.
//! Heights come from the rules' geometry, so what the eye sees is what line
//! of sight uses. The table follows the battle: a building on fire burns and
//! smokes, a destroyed one stands as a ruin (or is gone), and bridges are
//! those of the battle's live terrain — blown ones gone, built ones spanning.

use bevy::{
    asset::RenderAssetUsages,
    mesh::{Indices, PrimitiveTopology},
    prelude::*,
};
use warbound_rules::{
    buildings::{Remains, State as BuildingState},
    geometry::{HIGH_OBSTACLE_HEIGHT, HILL_LEVEL_HEIGHT, LOW_OBSTACLE_HEIGHT, STOREY_HEIGHT, hill_level},
    scenario::Ground as Cover,
    terrain::{
        Extent, Feature, GAP_WIDTH, ObstacleHeight, ObstacleKind, Point, RiverBridge, RoadKind, TableSize, Terrain,
        WoodDensity, gappable, inside,
    },
};

use super::table::TableRoot;
use crate::battle::{ActiveBattle, state::Battle};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (lay_terrain, building_states, bridges, gaps, drift_smoke).chain());
}

/// A piece of a building, by the terrain feature's index: what stands, or
/// its ruin (hidden while it stands).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildingPart {
    Standing(usize),
    Ruin(usize),
}

/// Flames and smoke over a burning building (by feature index).
#[derive(Component, Debug)]
struct Fire(usize);

/// A puff of a fire's smoke, rising and starting again.
#[derive(Component, Debug)]
struct Smoke {
    phase: f32,
}

/// A bridge's deck on the table, rebuilt when the battle's bridges change.
#[derive(Component, Debug)]
struct BridgeModel;

/// A piece of a line of wire or a wall (by feature index), re-laid with its
/// gaps when a Bangalore Torpedo blows one.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
struct GappableLine(usize);

/// The hills' three levels, lowest first, in the colour of the ground they
/// rise from: grass, lying snow or desert sand.
fn hill_colours(ground: Cover) -> [(f32, f32, f32); 3] {
    match ground {
        Cover::Grass => [(0.36, 0.45, 0.22), (0.42, 0.50, 0.26), (0.48, 0.55, 0.30)],
        Cover::Snow => [(0.78, 0.80, 0.83), (0.85, 0.87, 0.89), (0.92, 0.93, 0.95)],
        Cover::Sand => [(0.64, 0.53, 0.34), (0.70, 0.59, 0.39), (0.77, 0.66, 0.45)],
    }
}

/// Marks terrain entities, children of the table they were laid on.
#[derive(Component, Debug)]
pub struct TerrainPiece;

/// Scenario inches (near-left corner, y away from the player) to table world space.
pub fn to_world(table: TableSize, p: Point, height: f32) -> Vec3 {
    Vec3::new(p.0 - table.width / 2.0, height, table.depth / 2.0 - p.1)
}

/// Lays the active battle's terrain on a newly built table.
fn lay_terrain(
    mut commands: Commands,
    tables: Query<(Entity, &TableRoot), Added<TableRoot>>,
    active: Res<ActiveBattle>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(battle) = &active.0 else { return };
    for (table_entity, root) in &tables {
        let table = root.0;
        let mut mat = |r: f32, g: f32, b: f32, rough: f32| {
            materials.add(StandardMaterial {
                base_color: Color::srgb(r, g, b),
                perceptual_roughness: rough,
                ..default()
            })
        };
        let hills = hill_colours(battle.scenario.ground);
        let [h1, h2, h3] = hills.map(|(r, g, b)| mat(r, g, b, 0.95));
        let palette = Palette {
            hill: [h1, h2, h3],
            wood_floor: mat(0.20, 0.27, 0.12, 1.0),
            foliage_sparse: mat(0.22, 0.42, 0.16, 0.9),
            foliage_dense: mat(0.10, 0.26, 0.09, 0.9),
            trunk: mat(0.30, 0.20, 0.12, 0.9),
            hedge: mat(0.14, 0.32, 0.12, 0.95),
            wall: mat(0.55, 0.53, 0.48, 0.9),
            building: mat(0.78, 0.72, 0.60, 0.8),
            roof: mat(0.45, 0.20, 0.15, 0.7),
            metalled: mat(0.30, 0.30, 0.31, 0.9),
            secondary: mat(0.50, 0.40, 0.26, 1.0),
            water: mat(0.16, 0.30, 0.45, 0.2),
            marsh: mat(0.28, 0.33, 0.22, 0.6),
            rough: mat(0.45, 0.40, 0.30, 1.0),
            minefield: mat(0.60, 0.22, 0.18, 1.0),
            wire: mat(0.35, 0.35, 0.35, 0.5),
            ford: mat(0.55, 0.50, 0.38, 0.9),
            ruin: mat(0.42, 0.38, 0.34, 1.0),
        };
        let ground = Ground { table, terrain: &battle.scenario.terrain };
        let mut pieces = Vec::new();
        let mut tags = Vec::new();
        let mut lines = Vec::new();
        for (k, feature) in battle.scenario.terrain.features.iter().enumerate() {
            let before = pieces.len();
            feature_pieces(feature, &ground, &palette, &mut meshes, &mut pieces);
            tags.resize(pieces.len(), None);
            lines.resize(before, None);
            lines.resize(pieces.len(), gappable(feature).map(|_| GappableLine(k)));
            if let Feature::Building { outline, .. } = feature {
                tags[before..].fill(Some(BuildingPart::Standing(k)));
                // Its ruin: broken walls a storey's third high, shown once it is destroyed.
                let floor = outline.first().map_or(0.0, |&at| ground.height(at));
                pieces.push((
                    meshes.add(prism(table, outline, floor, floor + STOREY_HEIGHT / 3.0)),
                    palette.ruin.clone(),
                    Transform::IDENTITY,
                ));
                tags.push(Some(BuildingPart::Ruin(k)));
            }
        }
        commands.entity(table_entity).with_children(|t| {
            lines.resize(pieces.len(), None);
            for (((mesh, material, transform), tag), line) in pieces.into_iter().zip(tags).zip(lines) {
                let mut piece = t.spawn((TerrainPiece, Mesh3d(mesh), MeshMaterial3d(material), transform));
                if let Some(line) = line {
                    piece.insert(line);
                }
                match tag {
                    Some(part @ BuildingPart::Ruin(_)) => {
                        piece.insert((part, Visibility::Hidden));
                    }
                    Some(part) => {
                        piece.insert(part);
                    }
                    None => {}
                }
            }
        });
    }
}

/// Shows each building as the battle has it: standing, burning (flames and
/// smoke), a ruin, or gone (*Heroes All*, "Hits on buildings & structures").
#[allow(clippy::too_many_arguments)]
fn building_states(
    mut commands: Commands,
    battle: Option<Res<Battle>>,
    tables: Query<(Entity, &TableRoot)>,
    mut parts: Query<(&BuildingPart, &mut Visibility)>,
    fires: Query<(Entity, &Fire)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut looks: Local<Option<FireLook>>,
) {
    let Some(battle) = battle else { return };
    if !battle.is_changed() {
        return;
    }
    let Ok((table_entity, root)) = tables.single() else { return };
    let state = |k: usize| battle.buildings.iter().find(|(f, _)| *f == k).map(|(_, b)| b.state);
    for (part, mut visibility) in &mut parts {
        let (k, ruin) = match *part {
            BuildingPart::Standing(k) => (k, false),
            BuildingPart::Ruin(k) => (k, true),
        };
        let show = match state(k) {
            Some(BuildingState::Destroyed(Remains::Ruin)) => ruin,
            Some(BuildingState::Destroyed(_)) => false,
            _ => !ruin,
        };
        visibility.set_if_neq(if show { Visibility::Inherited } else { Visibility::Hidden });
    }
    for (entity, fire) in &fires {
        if !matches!(state(fire.0), Some(BuildingState::Burning { .. })) {
            commands.entity(entity).despawn();
        }
    }
    let look = looks.get_or_insert_with(|| FireLook {
        flame: meshes.add(Cone { radius: 0.6, height: 1.6 }),
        puff: meshes.add(Sphere::new(0.9)),
        fire: materials.add(StandardMaterial {
            base_color: Color::srgb(1.0, 0.45, 0.05),
            emissive: LinearRgba::rgb(4.0, 1.2, 0.1),
            ..default()
        }),
        smoke: materials.add(StandardMaterial {
            base_color: Color::srgba(0.25, 0.25, 0.25, 0.6),
            alpha_mode: AlphaMode::Blend,
            ..default()
        }),
    });
    for (k, b) in &battle.buildings {
        if !matches!(b.state, BuildingState::Burning { .. }) || fires.iter().any(|(_, f)| f.0 == *k) {
            continue;
        }
        let Some(Feature::Building { outline, storeys, .. }) = battle.terrain.features.get(*k) else { continue };
        let n = outline.len().max(1) as f32;
        let centre = Point(outline.iter().map(|p| p.0).sum::<f32>() / n, outline.iter().map(|p| p.1).sum::<f32>() / n);
        let floor = f32::from(hill_level(&battle.terrain, centre)) * HILL_LEVEL_HEIGHT;
        let top = floor + f32::from(*storeys) * STOREY_HEIGHT + 0.35;
        let at = to_world(root.0, centre, top);
        commands.entity(table_entity).with_children(|t| {
            t.spawn((Fire(*k), Transform::from_translation(at), Visibility::Inherited)).with_children(|f| {
                for (i, dx) in [-0.7f32, 0.0, 0.7].into_iter().enumerate() {
                    let h = 0.8 + 0.3 * i as f32;
                    f.spawn((
                        Mesh3d(look.flame.clone()),
                        MeshMaterial3d(look.fire.clone()),
                        Transform::from_xyz(dx, h / 2.0, 0.2 * dx).with_scale(Vec3::new(1.0, h, 1.0)),
                    ));
                }
                for i in 0..4 {
                    f.spawn((
                        Smoke { phase: i as f32 / 4.0 },
                        Mesh3d(look.puff.clone()),
                        MeshMaterial3d(look.smoke.clone()),
                        Transform::default(),
                    ));
                }
            });
        });
    }
}

/// The shared meshes and materials of fires.
struct FireLook {
    flame: Handle<Mesh>,
    puff: Handle<Mesh>,
    fire: Handle<StandardMaterial>,
    smoke: Handle<StandardMaterial>,
}

/// Smoke puffs rise 8" over four seconds, growing, and start again.
fn drift_smoke(time: Res<Time>, mut puffs: Query<(&Smoke, &mut Transform)>) {
    let t = time.elapsed_secs() / 4.0;
    for (puff, mut transform) in &mut puffs {
        let u = (t + puff.phase).fract();
        transform.translation = Vec3::new(0.6 * u, 1.5 + 8.0 * u, -0.3 * u);
        transform.scale = Vec3::splat(0.6 + 1.6 * u);
    }
}

/// The bridges drawn, and the deck and rail materials.
type DrawnBridges = (Vec<RiverBridge>, Handle<StandardMaterial>, Handle<StandardMaterial>);

/// Bridge decks, rebuilt whenever the battle's bridges change (a bridge blown,
/// one built by engineers).
fn bridges(
    mut commands: Commands,
    battle: Option<Res<Battle>>,
    tables: Query<(Entity, &TableRoot)>,
    decks: Query<Entity, With<BridgeModel>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut drawn: Local<Option<DrawnBridges>>,
) {
    let Some(battle) = battle else { return };
    if !battle.is_changed() {
        return;
    }
    let Ok((table_entity, root)) = tables.single() else { return };
    let now: Vec<RiverBridge> = battle
        .terrain
        .features
        .iter()
        .flat_map(|f| match f {
            Feature::River { bridges, .. } => bridges.clone(),
            _ => Vec::new(),
        })
        .collect();
    let decks_exist = !decks.is_empty() || now.is_empty();
    if let Some((before, ..)) = &*drawn
        && *before == now
        && decks_exist
    {
        return;
    }
    for deck in &decks {
        commands.entity(deck).despawn();
    }
    let (_, timber, rail) = drawn.get_or_insert_with(|| {
        let timber = materials.add(StandardMaterial { base_color: Color::srgb(0.50, 0.38, 0.24), ..default() });
        let rail = materials.add(StandardMaterial { base_color: Color::srgb(0.30, 0.24, 0.18), ..default() });
        (Vec::new(), timber, rail)
    });
    let (timber, rail) = (timber.clone(), rail.clone());
    let ground = Ground { table: root.0, terrain: &battle.terrain };
    let mut pieces = Vec::new();
    for b in &now {
        let line = [b.span.from, b.span.to];
        for (mesh, transform) in strip(&ground, &line, b.span.width, 0.3, &mut meshes) {
            pieces.push((mesh, timber.clone(), transform.with_translation(transform.translation + Vec3::Y * 0.1)));
        }
        // Rails along both sides of the deck.
        let along = Vec2::new(b.span.to.0 - b.span.from.0, b.span.to.1 - b.span.from.1).normalize_or_zero();
        let side = Vec2::new(-along.y, along.x) * (b.span.width / 2.0);
        for sign in [-1.0f32, 1.0] {
            let off = |p: Point| Point(p.0 + side.x * sign, p.1 + side.y * sign);
            for (mesh, transform) in strip(&ground, &[off(b.span.from), off(b.span.to)], 0.15, 0.8, &mut meshes) {
                pieces.push((mesh, rail.clone(), transform));
            }
        }
    }
    commands.entity(table_entity).with_children(|t| {
        for (mesh, material, transform) in pieces {
            t.spawn((BridgeModel, TerrainPiece, Mesh3d(mesh), MeshMaterial3d(material), transform));
        }
    });
    if let Some((before, ..)) = &mut *drawn {
        *before = now;
    }
}

/// The width and height a hedge, wall, wire or roadblock line is drawn at.
fn line_look(f: &Feature) -> Option<(f32, f32)> {
    match f {
        Feature::Obstacle { kind, height, .. } => {
            let h = match height {
                ObstacleHeight::Low => LOW_OBSTACLE_HEIGHT,
                ObstacleHeight::High => HIGH_OBSTACLE_HEIGHT,
            };
            Some((if *kind == ObstacleKind::Hedge { 0.7 } else { 0.35 }, h))
        }
        Feature::Wire(Extent::Line(_)) | Feature::Roadblock(Extent::Line(_)) => Some((0.4, 0.8)),
        _ => None,
    }
}

/// Re-lays each line of wire or wall with a gap in it, the gaps left open,
/// when the battle's gaps change (a save loaded with gaps included).
fn gaps(
    mut commands: Commands,
    battle: Option<Res<Battle>>,
    tables: Query<(Entity, &TableRoot)>,
    pieces: Query<(Entity, &GappableLine, &MeshMaterial3d<StandardMaterial>)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut drawn: Local<(Option<Entity>, usize)>,
) {
    let Some(battle) = battle else { return };
    let Ok((table_entity, root)) = tables.single() else { return };
    let now = (Some(table_entity), battle.terrain.gaps.len());
    if *drawn == now || pieces.is_empty() {
        return;
    }
    let ground = Ground { table: root.0, terrain: &battle.terrain };
    let mut laid = Vec::new();
    for (k, f) in battle.terrain.features.iter().enumerate() {
        let at: Vec<Point> = battle.terrain.gaps.iter().filter(|g| g.feature == k).map(|g| g.at).collect();
        let (Some(line), Some((width, h))) = (gappable(f), line_look(f)) else { continue };
        let Some(material) = pieces.iter().find(|(_, l, _)| l.0 == k).map(|(.., m)| m.0.clone()) else { continue };
        if at.is_empty() {
            continue;
        }
        for (e, ..) in pieces.iter().filter(|(_, l, _)| l.0 == k) {
            commands.entity(e).despawn();
        }
        for part in split_at_gaps(line, &at, GAP_WIDTH) {
            for (mesh, transform) in strip(&ground, &part, width, h, &mut meshes) {
                laid.push((GappableLine(k), mesh, material.clone(), transform));
            }
        }
    }
    commands.entity(table_entity).with_children(|t| {
        for (line, mesh, material, transform) in laid {
            t.spawn((line, TerrainPiece, Mesh3d(mesh), MeshMaterial3d(material), transform));
        }
    });
    *drawn = now;
}

/// A polyline with a stretch `width` long cut out around each of `gaps` (points on it).
fn split_at_gaps(line: &[Point], gaps: &[Point], width: f32) -> Vec<Vec<Point>> {
    let len = |a: Point, b: Point| (b.0 - a.0).hypot(b.1 - a.1);
    let mut along = vec![0.0f32];
    for w in line.windows(2) {
        along.push(along.last().copied().unwrap_or(0.0) + len(w[0], w[1]));
    }
    let total = along.last().copied().unwrap_or(0.0);
    // Each gap's place along the line: the nearest point of its nearest segment.
    let mut cuts: Vec<(f32, f32)> = gaps
        .iter()
        .filter_map(|&g| {
            line.windows(2)
                .enumerate()
                .map(|(i, w)| {
                    let (dx, dy) = (w[1].0 - w[0].0, w[1].1 - w[0].1);
                    let l2 = dx * dx + dy * dy;
                    let t =
                        if l2 > 0.0 { (((g.0 - w[0].0) * dx + (g.1 - w[0].1) * dy) / l2).clamp(0.0, 1.0) } else { 0.0 };
                    let p = Point(w[0].0 + t * dx, w[0].1 + t * dy);
                    (len(p, g), along[i] + t * len(w[0], w[1]))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, s)| (s - width / 2.0, s + width / 2.0))
        })
        .collect();
    cuts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let point_at = |s: f32| {
        let i = along.windows(2).position(|w| s <= w[1]).unwrap_or(line.len().saturating_sub(2));
        let l = along[i + 1] - along[i];
        let t = if l > 0.0 { ((s - along[i]) / l).clamp(0.0, 1.0) } else { 0.0 };
        Point(line[i].0 + (line[i + 1].0 - line[i].0) * t, line[i].1 + (line[i + 1].1 - line[i].1) * t)
    };
    let mut kept = Vec::new();
    let mut from = 0.0f32;
    for (a, b) in cuts.into_iter().chain([(total, total)]) {
        if a > from {
            let mut part = vec![point_at(from)];
            part.extend(line.iter().zip(&along).filter(|(_, s)| **s > from && **s < a).map(|(p, _)| *p));
            part.push(point_at(a.min(total)));
            kept.push(part);
        }
        from = from.max(b);
    }
    kept
}

struct Palette {
    hill: [Handle<StandardMaterial>; 3],
    wood_floor: Handle<StandardMaterial>,
    foliage_sparse: Handle<StandardMaterial>,
    foliage_dense: Handle<StandardMaterial>,
    trunk: Handle<StandardMaterial>,
    hedge: Handle<StandardMaterial>,
    wall: Handle<StandardMaterial>,
    building: Handle<StandardMaterial>,
    roof: Handle<StandardMaterial>,
    metalled: Handle<StandardMaterial>,
    secondary: Handle<StandardMaterial>,
    water: Handle<StandardMaterial>,
    marsh: Handle<StandardMaterial>,
    rough: Handle<StandardMaterial>,
    minefield: Handle<StandardMaterial>,
    wire: Handle<StandardMaterial>,
    ford: Handle<StandardMaterial>,
    ruin: Handle<StandardMaterial>,
}

type Piece = (Handle<Mesh>, Handle<StandardMaterial>, Transform);

/// Flat ground covers sit just above the baize, in this order, so they never flicker.
const ROAD_LIFT: f32 = 0.03;
const AREA_LIFT: f32 = 0.02;

fn feature_pieces(f: &Feature, ground: &Ground, p: &Palette, meshes: &mut Assets<Mesh>, out: &mut Vec<Piece>) {
    let here = Transform::IDENTITY;
    let table = ground.table;
    match f {
        Feature::Hill { levels } => {
            for level in levels {
                let top = f32::from(level.level) * HILL_LEVEL_HEIGHT;
                let material = p.hill[usize::from(level.level.saturating_sub(1)).min(2)].clone();
                out.push((meshes.add(prism(table, &level.outline, 0.0, top)), material, here));
            }
        }
        Feature::Wood { density, outline } => {
            let floor = outline.first().map_or(0.0, |&at| ground.height(at));
            out.push((meshes.add(prism(table, outline, floor, floor + 0.08)), p.wood_floor.clone(), here));
            let (spacing, foliage) = match density {
                WoodDensity::Sparse => (3.2, &p.foliage_sparse),
                WoodDensity::Dense => (2.0, &p.foliage_dense),
            };
            let canopy = meshes.add(Cone { radius: 1.1, height: 3.2 });
            let trunk = meshes.add(Cylinder::new(0.18, 1.0));
            for (i, at) in scatter(outline, spacing).into_iter().enumerate() {
                let scale = 0.8 + 0.4 * hash01(i as u32);
                let base = to_world(table, at, ground.height(at));
                out.push((
                    trunk.clone(),
                    p.trunk.clone(),
                    Transform::from_translation(base + Vec3::Y * 0.5 * scale).with_scale(Vec3::splat(scale)),
                ));
                out.push((
                    canopy.clone(),
                    foliage.clone(),
                    Transform::from_translation(base + Vec3::Y * (1.0 + 1.6) * scale).with_scale(Vec3::splat(scale)),
                ));
            }
        }
        Feature::Obstacle { kind, line, .. } => {
            let material = match kind {
                ObstacleKind::Hedge => &p.hedge,
                ObstacleKind::Wall => &p.wall,
            };
            let (width, h) = line_look(f).unwrap_or((0.35, LOW_OBSTACLE_HEIGHT));
            for (mesh, transform) in strip(ground, line, width, h, meshes) {
                out.push((mesh, material.clone(), transform));
            }
        }
        Feature::Building { outline, storeys, .. } => {
            let floor = outline.first().map_or(0.0, |&at| ground.height(at));
            let top = floor + f32::from(*storeys) * STOREY_HEIGHT;
            out.push((meshes.add(prism(table, outline, floor, top)), p.building.clone(), here));
            out.push((meshes.add(prism(table, outline, top, top + 0.35)), p.roof.clone(), here));
        }
        Feature::Road { kind, line, width } => {
            let material = match kind {
                RoadKind::Metalled => &p.metalled,
                RoadKind::Secondary => &p.secondary,
            };
            for (mesh, transform) in strip(ground, line, *width, ROAD_LIFT, meshes) {
                out.push((mesh, material.clone(), transform));
            }
        }
        Feature::River { line, width, fords, .. } => {
            for (mesh, transform) in strip(ground, line, *width, ROAD_LIFT * 1.5, meshes) {
                out.push((mesh, p.water.clone(), transform));
            }
            // A ford: a stony crossing just over the water.
            for ford in fords {
                for (mesh, transform) in
                    strip(ground, &[ford.span.from, ford.span.to], ford.span.width, ROAD_LIFT * 2.0, meshes)
                {
                    out.push((mesh, p.ford.clone(), transform));
                }
            }
        }
        Feature::Marsh { outline } => {
            out.push((meshes.add(prism(table, outline, 0.0, AREA_LIFT)), p.marsh.clone(), here))
        }
        Feature::RoughGround { outline } => {
            out.push((meshes.add(prism(table, outline, 0.0, AREA_LIFT)), p.rough.clone(), here))
        }
        Feature::Minefield { outline, .. } => {
            out.push((meshes.add(prism(table, outline, 0.0, AREA_LIFT)), p.minefield.clone(), here))
        }
        Feature::Wire(extent) | Feature::Roadblock(extent) => match extent {
            Extent::Area(outline) => out.push((meshes.add(prism(table, outline, 0.0, 0.5)), p.wire.clone(), here)),
            Extent::Line(line) => {
                let (width, h) = line_look(f).unwrap_or((0.4, 0.8));
                for (mesh, transform) in strip(ground, line, width, h, meshes) {
                    out.push((mesh, p.wire.clone(), transform));
                }
            }
        },
    }
}

/// Longest piece a road, river or hedge is laid in, so it follows the hill levels.
const STRIP_PIECE: f32 = 2.0;

/// Boxes along `line`, `width` wide and `height` tall, each piece standing on
/// the hill level under its middle (the rules' `geometry::hill_level`).
fn strip(
    ground: &Ground,
    line: &[Point],
    width: f32,
    height: f32,
    meshes: &mut Assets<Mesh>,
) -> Vec<(Handle<Mesh>, Transform)> {
    let mut out = Vec::new();
    for seg in line.windows(2) {
        let (a, b) = (Vec2::new(seg[0].0, seg[0].1), Vec2::new(seg[1].0, seg[1].1));
        let length = a.distance(b);
        if length < 1e-3 {
            continue;
        }
        let pieces = (length / STRIP_PIECE).ceil().max(1.0);
        let step = length / pieces;
        // A little longer than each piece so joints and corners close.
        let mesh = meshes.add(Cuboid::new(width, height, step + width * 0.5));
        let yaw = (b.x - a.x).atan2(a.y - b.y);
        for i in 0..pieces as usize {
            let mid = a + (b - a) * ((i as f32 + 0.5) / pieces);
            let at = Point(mid.x, mid.y);
            let centre = to_world(ground.table, at, ground.height(at) + height / 2.0);
            out.push((mesh.clone(), Transform::from_translation(centre).with_rotation(Quat::from_rotation_y(yaw))));
        }
    }
    out
}

/// The table and its hills, for laying things on the ground.
struct Ground<'a> {
    table: TableSize,
    terrain: &'a Terrain,
}

impl Ground<'_> {
    /// Height of the ground at `p`: its hill level.
    fn height(&self, p: Point) -> f32 {
        f32::from(hill_level(self.terrain, p)) * HILL_LEVEL_HEIGHT
    }
}

/// Points on a grid of `spacing` inches inside `outline`, jittered, for trees.
fn scatter(outline: &[Point], spacing: f32) -> Vec<Point> {
    let (min, max) = outline.iter().fold((Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)), |(lo, hi), p| {
        (lo.min(Vec2::new(p.0, p.1)), hi.max(Vec2::new(p.0, p.1)))
    });
    let mut points = Vec::new();
    let mut i = 0u32;
    let mut y = min.y + spacing / 2.0;
    while y < max.y {
        let mut x = min.x + spacing / 2.0;
        while x < max.x {
            i += 1;
            let jitter = Vec2::new(hash01(i * 2) - 0.5, hash01(i * 2 + 1) - 0.5) * spacing * 0.6;
            let p = Point(x + jitter.x, y + jitter.y);
            if inside(outline, p) {
                points.push(p);
            }
            x += spacing;
        }
        y += spacing;
    }
    points
}

/// A repeatable number in 0..1 from `i` (tree sizes and jitter stay put between runs).
fn hash01(i: u32) -> f32 {
    let mut x = i.wrapping_mul(0x9E37_79B9) ^ 0x85EB_CA6B;
    x ^= x >> 15;
    x = x.wrapping_mul(0x2C1B_3C6D);
    x ^= x >> 12;
    (x & 0xFFFF) as f32 / 65536.0
}

/// An upright prism over the outline from `y0` to `y1`: a flat top and
/// flat-shaded walls. The top is ear-clipped, so concave outlines work.
fn prism(table: TableSize, outline: &[Point], y0: f32, y1: f32) -> Mesh {
    let mut ring: Vec<Point> = outline.to_vec();
    // Work counter-clockwise as seen from above (scenario y grows away from the player).
    if signed_area(&ring) < 0.0 {
        ring.reverse();
    }
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut normals: Vec<[f32; 3]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    for p in &ring {
        positions.push(to_world(table, *p, y1).to_array());
        normals.push([0.0, 1.0, 0.0]);
    }
    // Scenario y runs to world -z, so a ring counter-clockwise on the map is
    // counter-clockwise seen from above: the top faces up as clipped.
    for [a, b, c] in ear_clip(&ring) {
        indices.extend([a as u32, b as u32, c as u32]);
    }
    for i in 0..ring.len() {
        let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
        let (a0, b0) = (to_world(table, a, y0), to_world(table, b, y0));
        let (a1, b1) = (to_world(table, a, y1), to_world(table, b, y1));
        // Outward: the edge runs counter-clockwise, so outside is to its right.
        let normal = (b0 - a0).cross(Vec3::Y).normalize_or_zero();
        let base = positions.len() as u32;
        for v in [a0, b0, b1, a1] {
            positions.push(v.to_array());
            normals.push(normal.to_array());
        }
        indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
        .with_inserted_indices(Indices::U32(indices))
}

fn signed_area(ring: &[Point]) -> f32 {
    let n = ring.len();
    (0..n).map(|i| ring[i].0 * ring[(i + 1) % n].1 - ring[(i + 1) % n].0 * ring[i].1).sum::<f32>() / 2.0
}

/// Triangles of a simple counter-clockwise polygon by ear clipping.
fn ear_clip(ring: &[Point]) -> Vec<[usize; 3]> {
    let mut left: Vec<usize> = (0..ring.len()).collect();
    let mut triangles = Vec::new();
    let cross = |o: Point, a: Point, b: Point| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    while left.len() > 3 {
        let n = left.len();
        let ear = (0..n).find(|&i| {
            let (a, b, c) = (left[(i + n - 1) % n], left[i], left[(i + 1) % n]);
            // No other vertex in the triangle or on its edges (a reflex vertex
            // on the diagonal would leave a sliver).
            let holds = |p: Point| {
                cross(ring[a], ring[b], p) >= 0.0
                    && cross(ring[b], ring[c], p) >= 0.0
                    && cross(ring[c], ring[a], p) >= 0.0
            };
            cross(ring[a], ring[b], ring[c]) > 0.0
                && !left.iter().any(|&k| k != a && k != b && k != c && holds(ring[k]))
        });
        // A degenerate ring has no ear: fan the rest rather than loop.
        let i = ear.unwrap_or(1);
        triangles.push([left[(i + n - 1) % n], left[i], left[(i + 1) % n]]);
        left.remove(i);
    }
    if left.len() == 3 {
        triangles.push([left[0], left[1], left[2]]);
    }
    triangles
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: TableSize = TableSize { width: 72.0, depth: 48.0 };

    #[test]
    fn hills_rise_lighter_by_level_in_the_colour_of_their_ground() {
        for ground in [Cover::Grass, Cover::Snow, Cover::Sand] {
            let h = hill_colours(ground);
            assert!(h[0].0 < h[1].0 && h[1].0 < h[2].0, "{ground:?}: each level lighter, {h:?}");
        }
        let (grass, snow, sand) =
            (hill_colours(Cover::Grass)[0], hill_colours(Cover::Snow)[0], hill_colours(Cover::Sand)[0]);
        assert!(grass.1 > grass.0, "green hills on grass");
        assert!(snow.0 > 0.7 && snow.2 >= snow.0, "white hills in snow");
        assert!(sand.0 > sand.1 && sand.1 > sand.2, "sand-coloured hills in the desert");
    }

    #[test]
    fn a_gap_cuts_its_width_out_of_the_line() {
        let line = [Point(0.0, 0.0), Point(10.0, 0.0), Point(10.0, 10.0)];
        let parts = split_at_gaps(&line, &[Point(5.0, 0.0)], 1.0);
        assert_eq!(parts.len(), 2, "{parts:?}");
        assert_eq!(parts[0], vec![Point(0.0, 0.0), Point(4.5, 0.0)]);
        assert_eq!(parts[1], vec![Point(5.5, 0.0), Point(10.0, 0.0), Point(10.0, 10.0)]);
        // A gap at the corner's far side, and none: the line whole.
        let parts = split_at_gaps(&line, &[Point(10.0, 3.0)], 1.0);
        assert!((parts[1][0].0 - 10.0).abs() < 1e-4 && (parts[1][0].1 - 3.5).abs() < 1e-4, "{parts:?}");
        assert_eq!(split_at_gaps(&line, &[], 1.0), vec![line.to_vec()]);
    }

    #[test]
    fn the_near_left_corner_is_at_the_players_left() {
        assert_eq!(to_world(TABLE, Point(0.0, 0.0), 0.0), Vec3::new(-36.0, 0.0, 24.0));
        assert_eq!(to_world(TABLE, Point(72.0, 48.0), 1.0), Vec3::new(36.0, 1.0, -24.0));
    }

    #[test]
    fn ear_clipping_covers_a_concave_outline_exactly() {
        // An L shape of area 3 in 1" squares.
        let l = [Point(0.0, 0.0), Point(2.0, 0.0), Point(2.0, 1.0), Point(1.0, 1.0), Point(1.0, 2.0), Point(0.0, 2.0)];
        let tris = ear_clip(&l);
        assert_eq!(tris.len(), 4);
        let area: f32 = tris.iter().map(|t| signed_area(&[l[t[0]], l[t[1]], l[t[2]]])).sum();
        assert!((area - 3.0).abs() < 1e-5, "triangles cover {area} square inches");
        assert!(tris.iter().all(|t| signed_area(&[l[t[0]], l[t[1]], l[t[2]]]) > 0.0), "no flipped triangle");
    }

    #[test]
    fn trees_stand_inside_their_wood_and_dense_woods_hold_more() {
        let wood = [Point(10.0, 10.0), Point(22.0, 10.0), Point(22.0, 20.0), Point(10.0, 20.0)];
        let sparse = scatter(&wood, 3.2);
        let dense = scatter(&wood, 2.0);
        assert!(dense.len() > sparse.len() && !sparse.is_empty());
        assert!(dense.iter().all(|p| inside(&wood, *p)));
    }
}
