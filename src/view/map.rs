//! The campaign map in the table's world: each Map Board a tile the size of a
//! battle's table, coloured by its terrain as FYOW colours the boards (13),
//! sea-blue for a Tidal board; its coast along its seaward side, a station
//! where it has one; the links between boards as roads, railways, rivers and
//! sea lanes; the forces' tokens in their side's colour, the enemy's only
//! where the player's army has detected them (FYOW 16); the vessels on
//! station for the day on their sea board (FYOW 29.5). The board of the
//! battle last taken to the table lies where the table stands, so the camera
//! can fly from the map down onto it ([`super::zoom`]). Names and figures
//! over the map are the campaign panels' ([`MapPlaces`]).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use bevy::prelude::*;
use warbound_campaign::map::{
    board::{BoardId, BoardKind, BoardSize, CampaignMap, Coast, Route, Terrain},
    common::{Edge, ForceKind, Side},
};

use warbound_campaign::naval::craft::Craft;
use warbound_campaign::play::state::Whereabouts;

use super::camera::OrbitCamera;
use crate::{states::AppState, war::ActiveWar};

/// A board's tile: a 6' × 4' table's size, so the engaged board becomes the table.
pub const TILE: Vec2 = Vec2::new(72.0, 48.0);
/// Between tiles, where the links run.
const GAP: f32 = 30.0;

/// Where each board's tile lies in the grid, from the edges its links
/// leave by: a link from the North edge leads to the board above. Land
/// links are followed before sea lanes; a place already taken goes to the
/// nearest free one; a board no link reaches goes to the end of the first row.
pub fn layout(map: &CampaignMap) -> BTreeMap<BoardId, IVec2> {
    let mut at: BTreeMap<BoardId, IVec2> = BTreeMap::new();
    let taken = |at: &BTreeMap<BoardId, IVec2>, p: IVec2| at.values().any(|q| *q == p);
    let step = |e: Edge| match e {
        Edge::North => IVec2::new(0, -1),
        Edge::South => IVec2::new(0, 1),
        Edge::East => IVec2::new(1, 0),
        Edge::West => IVec2::new(-1, 0),
    };
    for sea in [false, true] {
        let mut queue: VecDeque<BoardId> = at.keys().cloned().collect();
        if queue.is_empty()
            && let Some(first) = map.boards.first()
        {
            at.insert(first.id.clone(), IVec2::ZERO);
            queue.push_back(first.id.clone());
        }
        while let Some(b) = queue.pop_front() {
            let here = at[&b];
            for l in &map.links {
                if (l.route == Route::Sea) != sea {
                    continue;
                }
                let (other, edge) = if l.from == b {
                    (&l.to, l.from_edge)
                } else if l.to == b {
                    (&l.from, l.to_edge)
                } else {
                    continue;
                };
                if at.contains_key(other) {
                    continue;
                }
                let wanted = here + step(edge) * if sea { 2 } else { 1 };
                let place = (0..6)
                    .flat_map(|r: i32| {
                        let mut ring: Vec<IVec2> = (-r..=r)
                            .flat_map(|x| (-r..=r).map(move |y| IVec2::new(x, y)))
                            .filter(|d| d.x.abs().max(d.y.abs()) == r)
                            .collect();
                        ring.sort_by_key(|d| (d.length_squared(), d.y, d.x));
                        ring.into_iter().map(move |d| wanted + d)
                    })
                    .find(|p| !taken(&at, *p))
                    .unwrap_or(wanted);
                at.insert(other.clone(), place);
                queue.push_back(other.clone());
            }
        }
    }
    let right = at.values().map(|p| p.x).max().unwrap_or(0);
    let top = at.values().map(|p| p.y).min().unwrap_or(0);
    let mut next = right + 1;
    for b in &map.boards {
        if !at.contains_key(&b.id) {
            at.insert(b.id.clone(), IVec2::new(next, top));
            next += 1;
        }
    }
    at
}

/// The centre of a grid place on the map, before the map is moved to its anchor.
fn centre(p: IVec2) -> Vec3 {
    Vec3::new(p.x as f32 * (TILE.x + GAP), 0.0, p.y as f32 * (TILE.y + GAP))
}

/// Where the map's boards, links and tokens are in the world, for the
/// labels over them and the camera.
#[derive(Resource, Debug, Default, Clone)]
pub struct MapPlaces {
    /// Each board's tile centre.
    pub boards: BTreeMap<BoardId, Vec3>,
    /// Each link's middle, with what to write there ("5 MP", "6 MP V").
    pub links: Vec<(Vec3, String)>,
    /// Each token shown: its place and what it is.
    pub tokens: Vec<(Vec3, Side, String)>,
    /// The map's middle and half its extent.
    pub middle: Vec3,
    pub half: Vec2,
}

/// The view over the whole map.
pub fn overview(places: &MapPlaces) -> OrbitCamera {
    let reach = places.half + TILE;
    OrbitCamera {
        focus: places.middle + Vec3::Z * reach.y * 0.1,
        yaw: 0.0,
        pitch: 1.05,
        distance: reach.x.max(reach.y * 1.5) * 1.9,
        bounds: places.middle.xz().abs() + reach * 1.5,
    }
}

/// Root of the map's entities; rebuilt when the campaign changes.
#[derive(Component, Debug)]
pub struct MapRoot;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MapPlaces>().add_systems(Update, build_map).add_systems(OnEnter(AppState::Title), clear_map);
}

/// FYOW's board colours (13: grey, orange, green, brown, gold, yellow), sea-blue for the sea.
fn board_colour(kind: BoardKind) -> Color {
    match kind {
        BoardKind::Land(Terrain::Open) => Color::srgb(0.62, 0.64, 0.6),
        BoardKind::Land(Terrain::Light) => Color::srgb(0.86, 0.55, 0.22),
        BoardKind::Land(Terrain::Broken) => Color::srgb(0.32, 0.55, 0.27),
        BoardKind::Land(Terrain::Rugged) => Color::srgb(0.5, 0.36, 0.22),
        BoardKind::Land(Terrain::Dense) => Color::srgb(0.83, 0.69, 0.2),
        BoardKind::Land(Terrain::Fortified) => Color::srgb(0.93, 0.86, 0.3),
        BoardKind::Tidal => Color::srgb(0.16, 0.36, 0.55),
    }
}

fn route_look(route: Route) -> (Color, f32) {
    match route {
        Route::MetalledRoad => (Color::srgb(0.12, 0.12, 0.13), 3.0),
        Route::SecondaryRoad => (Color::srgb(0.45, 0.33, 0.2), 2.2),
        Route::River(_) => (Color::srgb(0.2, 0.45, 0.85), 2.6),
        Route::Rail => (Color::srgb(0.85, 0.85, 0.85), 1.6),
        Route::Sea => (Color::srgb(0.55, 0.8, 1.0), 1.4),
    }
}

fn side_colour(side: Side) -> Color {
    match side {
        Side::Blue => Color::srgb(0.2, 0.4, 0.95),
        Side::Red => Color::srgb(0.9, 0.2, 0.15),
    }
}

fn clear_map(mut commands: Commands, roots: Query<Entity, With<MapRoot>>, mut places: ResMut<MapPlaces>) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    *places = MapPlaces::default();
}

/// The map, rebuilt when the campaign changes; the camera shifted with it
/// when the board under the table changes, so the view does not jump.
#[allow(clippy::too_many_arguments)]
fn build_map(
    mut commands: Commands,
    war: Option<NonSend<ActiveWar>>,
    roots: Query<Entity, With<MapRoot>>,
    mut places: ResMut<MapPlaces>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut cameras: Query<&mut OrbitCamera>,
    mut anchor: Local<Option<Vec3>>,
) {
    let first = roots.is_empty();
    if first {
        *anchor = None;
    }
    let Some(war) = war.filter(|w| w.is_changed()) else { return };
    for root in &roots {
        commands.entity(root).despawn();
    }
    let c = war.campaign();
    let map = &c.file.map;
    let grid = layout(map);
    // The board under the table: the battle's, else the first.
    let under =
        war.board.as_ref().and_then(|b| grid.get(b)).or_else(|| map.boards.first().and_then(|b| grid.get(&b.id)));
    let offset = -centre(under.copied().unwrap_or_default());
    if let Some(before) = anchor.replace(offset)
        && before != offset
    {
        for mut cam in &mut cameras {
            cam.focus += offset - before;
            cam.bounds = cam.bounds.max((cam.focus.xz()).abs() + TILE);
        }
    }
    let mut solid =
        |c: Color| materials.add(StandardMaterial { base_color: c, perceptual_roughness: 0.9, ..default() });
    let mut new_places = MapPlaces::default();
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    let mut children = Vec::new();
    let cube = |meshes: &mut Assets<Mesh>, w: f32, h: f32, d: f32| Mesh3d(meshes.add(Cuboid::new(w, h, d)));
    for b in &map.boards {
        let Some(p) = grid.get(&b.id) else { continue };
        let at = centre(*p) + offset;
        let depth = if b.size == BoardSize::Half { TILE.y / 2.0 } else { TILE.y };
        lo = lo.min(at);
        hi = hi.max(at);
        new_places.boards.insert(b.id.clone(), at);
        children.push((
            cube(&mut meshes, TILE.x, 1.0, depth),
            MeshMaterial3d(solid(board_colour(b.kind))),
            Transform::from_translation(at - Vec3::Y * 0.5),
            Name::new(format!("Map Board {}", b.name)),
        ));
        // The coast: a strip along the side that faces the sea (the side
        // with no land link), sand for a beach, grey rock, dark quays.
        if let Some(coast) = b.coast {
            let linked: BTreeSet<Edge> = map
                .links
                .iter()
                .filter(|l| l.route != Route::Sea)
                .filter_map(|l| {
                    if l.from == b.id {
                        Some(l.from_edge)
                    } else if l.to == b.id {
                        Some(l.to_edge)
                    } else {
                        None
                    }
                })
                .collect();
            let seaward = [Edge::West, Edge::North, Edge::East, Edge::South]
                .into_iter()
                .find(|e| !linked.contains(e))
                .unwrap_or(Edge::West);
            let colour = match coast {
                Coast::SandyBeach => Color::srgb(0.93, 0.85, 0.6),
                Coast::NonBeach => Color::srgb(0.4, 0.4, 0.42),
                Coast::Harbour => Color::srgb(0.25, 0.25, 0.3),
            };
            let (w, d, shift) = match seaward {
                Edge::West => (6.0, depth, Vec3::new(-TILE.x / 2.0 + 3.0, 0.0, 0.0)),
                Edge::East => (6.0, depth, Vec3::new(TILE.x / 2.0 - 3.0, 0.0, 0.0)),
                Edge::North => (TILE.x, 6.0, Vec3::new(0.0, 0.0, -depth / 2.0 + 3.0)),
                Edge::South => (TILE.x, 6.0, Vec3::new(0.0, 0.0, depth / 2.0 - 3.0)),
            };
            children.push((
                cube(&mut meshes, w, 1.2, d),
                MeshMaterial3d(solid(colour)),
                Transform::from_translation(at + shift - Vec3::Y * 0.4),
                Name::new("Coast"),
            ));
        }
        if b.detail.station {
            children.push((
                cube(&mut meshes, 8.0, 3.0, 5.0),
                MeshMaterial3d(solid(Color::srgb(0.75, 0.15, 0.15))),
                Transform::from_translation(at + Vec3::new(TILE.x / 2.0 - 8.0, 1.5, -depth / 2.0 + 6.0)),
                Name::new("Station"),
            ));
        }
    }
    // Links: a bar from tile to tile; two between the same boards side by side.
    let mut pairs: BTreeMap<(BoardId, BoardId), u32> = BTreeMap::new();
    for l in &map.links {
        let (Some(a), Some(b)) = (new_places.boards.get(&l.from), new_places.boards.get(&l.to)) else { continue };
        let key = if l.from < l.to { (l.from.clone(), l.to.clone()) } else { (l.to.clone(), l.from.clone()) };
        let n = pairs.entry(key).or_default();
        let along = *b - *a;
        let side = Vec3::new(-along.z, 0.0, along.x).normalize_or_zero() * (*n as f32 * 6.0 - 3.0);
        *n += 1;
        let (colour, width) = route_look(l.route);
        let mid = (*a + *b) / 2.0 + side + Vec3::Y * 0.3;
        let length = along.length();
        let turn = Quat::from_rotation_y(f32::atan2(-along.z, along.x));
        children.push((
            cube(&mut meshes, length, 0.6, width),
            MeshMaterial3d(solid(colour)),
            Transform::from_translation(mid).with_rotation(turn),
            Name::new("Link"),
        ));
        let v = if l.v { " V" } else { "" };
        new_places.links.push((mid, format!("{} MP{v}", l.mp)));
    }
    // Tokens: the player's forces, and the enemy's he has detected.
    let mine = war.player;
    let known = &c.army(mine).known;
    let mut on_board: BTreeMap<BoardId, u32> = BTreeMap::new();
    for f in &c.forces {
        // On its board, or embarked on the sea board it will land from.
        let board = match &f.at {
            Whereabouts::Board(b) => b,
            Whereabouts::Afloat { sea, .. } => sea,
            // At its airfield off the map until it is dropped.
            Whereabouts::Airborne { .. } | Whereabouts::Gone => continue,
        };
        let shown = f.side == mine || known.get(&f.name).is_some_and(|(b, _)| b == board);
        if !shown {
            continue;
        }
        let Some(at) = new_places.boards.get(board) else { continue };
        let n = on_board.entry(board.clone()).or_default();
        let place = *at + Vec3::new(-TILE.x / 2.0 + 10.0 + *n as f32 * 14.0, 1.5, TILE.y / 4.0);
        *n += 1;
        // A battlegroup's block, a Fraction's smaller, a Picket's a post.
        let (size, height) = match f.kind {
            ForceKind::Battlegroup => (6.0, 3.0),
            ForceKind::Fraction => (4.0, 3.0),
            ForceKind::Picket => (2.0, 6.0),
        };
        children.push((
            cube(&mut meshes, size * 1.6, height, size),
            MeshMaterial3d(solid(side_colour(f.side))),
            Transform::from_translation(place),
            Name::new(format!("Token {}", f.name)),
        ));
        new_places.tokens.push((place + Vec3::Y * 2.0, f.side, f.name.clone()));
    }
    // Vessels on station for the day (FYOW 29.5): a long low hull on their
    // sea board; an enemy submarine only once one of ours has spotted her.
    for army in &c.armies {
        let hidden = |ship: &&warbound_campaign::play::state::Ship| {
            army.side != mine && ship.vessel.craft == Craft::Submarine && !c.spotted_by(mine, &ship.vessel.id)
        };
        for ship in c.fleet(army.side).filter(|s| s.at_sea).filter(|s| !hidden(s)) {
            let Some(at) = new_places.boards.get(&ship.station) else { continue };
            let n = on_board.entry(ship.station.clone()).or_default();
            let place = *at + Vec3::new(-TILE.x / 2.0 + 12.0 + *n as f32 * 22.0, 1.0, TILE.y / 4.0);
            *n += 1;
            children.push((
                cube(&mut meshes, 18.0, 2.0, 4.0),
                MeshMaterial3d(solid(side_colour(army.side))),
                Transform::from_translation(place),
                Name::new(format!("Vessel {}", ship.vessel.id)),
            ));
            new_places.tokens.push((place + Vec3::Y * 2.0, army.side, ship.vessel.id.clone()));
        }
        // Coastal batteries (FYOW 29.10.1): an emplacement on their coast.
        for battery in &army.coastal_batteries {
            let Some(at) = new_places.boards.get(&battery.board) else { continue };
            let n = on_board.entry(battery.board.clone()).or_default();
            let place = *at + Vec3::new(-TILE.x / 2.0 + 10.0 + *n as f32 * 14.0, 1.5, TILE.y / 4.0);
            *n += 1;
            children.push((
                cube(&mut meshes, 8.0, 2.0, 8.0),
                MeshMaterial3d(solid(side_colour(army.side))),
                Transform::from_translation(place),
                Name::new(format!("Battery {}", battery.name)),
            ));
            new_places.tokens.push((place + Vec3::Y * 2.0, army.side, battery.name.clone()));
        }
    }
    new_places.middle = (lo + hi) / 2.0;
    new_places.half = ((hi - lo) / 2.0).xz() + TILE / 2.0;
    let sea = (
        cube(&mut meshes, new_places.half.x * 2.0 + 400.0, 1.0, new_places.half.y * 2.0 + 400.0),
        MeshMaterial3d(solid(Color::srgb(0.1, 0.22, 0.34))),
        Transform::from_translation(new_places.middle - Vec3::Y * 2.0),
        Name::new("Sea"),
    );
    commands.spawn((MapRoot, Name::new("Campaign map"), Transform::default(), Visibility::default())).with_children(
        |root| {
            root.spawn(sea);
            for child in children {
                root.spawn(child);
            }
        },
    );
    if first {
        for mut cam in &mut cameras {
            *cam = overview(&new_places);
        }
    }
    *places = new_places;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_boards_lie_where_their_links_lead_and_none_share_a_place() {
        let (_, file) = crate::data::load_campaign("guernsey-1942").expect("the shipped campaign");
        let grid = layout(&file.map);
        assert_eq!(grid.len(), file.map.boards.len(), "every board placed");
        let places: BTreeSet<(i32, i32)> = grid.values().map(|p| (p.x, p.y)).collect();
        assert_eq!(places.len(), grid.len(), "no two boards on one place");
        // L'Ancresse's South edge leads to St Sampson: St Sampson lies below it.
        let (a, b) = (grid[&BoardId("L'Ancresse".into())], grid[&BoardId("St Sampson".into())]);
        assert!(b.y > a.y, "{a} {b}");
    }

    #[test]
    fn every_built_in_campaign_lays_its_boards_out_the_way_its_roads_leave() {
        for (name, file) in crate::data::campaigns() {
            let file = file.expect("a built-in campaign");
            let grid = layout(&file.map);
            assert_eq!(grid.len(), file.map.boards.len(), "{name}: every board placed");
            let places: BTreeSet<(i32, i32)> = grid.values().map(|p| (p.x, p.y)).collect();
            assert_eq!(places.len(), grid.len(), "{name}: no two boards on one place");
            if name != "guernsey-1942" {
                // The Ardennes and the desert are drawn on a grid: each land
                // link leaves by the edge facing the board it leads to.
                for l in file.map.links.iter().filter(|l| l.route != Route::Sea) {
                    let d = grid[&l.to] - grid[&l.from];
                    let facing = match l.from_edge {
                        Edge::North => d.y < 0,
                        Edge::South => d.y > 0,
                        Edge::East => d.x > 0,
                        Edge::West => d.x < 0,
                    };
                    assert!(facing, "{name}: {} to {} leaves by {:?}, lies {d}", l.from, l.to, l.from_edge);
                }
            }
        }
    }
}
