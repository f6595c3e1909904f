//! The table a Map Board becomes (FYOW 13.1, 13.2, 13.6–13.8), generated
//! from the board's type, its recorded detail, the links that leave it and
//! its coast, with a seed from the campaign's seed and the board, so that a
//! board is the same table every time it is fought over.
//!
//! Readings (docs/rules-readings.md, "Boards become tables"): a full board is
//! the *Heroes All* 6 ft × 4 ft table (72" × 48"), a half board 36" × 48";
//! the board's South edge is the table's near edge (y = 0), North the far
//! edge, West the left (x = 0), East the right.

use std::fmt;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use warbound_rules::buildings::{BridgeType, Structure};
use warbound_rules::mines::MineKind;
use warbound_rules::scenario::Place;
use warbound_rules::terrain::{
    Extent, Feature, Ford, HillLevel, ObstacleHeight, ObstacleKind, Point, RiverBridge, RiverKind, RoadKind, Span,
    TableSize, Terrain, WoodDensity,
};

use crate::map::board::{
    BoardId, BoardKind, BoardSize, CampaignMap, Coast, MapBoard, Route, SettlementSize, Terrain as BoardType,
    Watercourse,
};
use crate::map::common::Edge;

/// Depth of the strip kept clear where a road or railway comes onto the
/// table, inches: arrivals from the box enter there.
pub const ENTRY_DEPTH: f32 = 8.0;
/// Half the width of that strip along the edge, inches.
pub const ENTRY_HALF_WIDTH: f32 = 3.0;
/// Depth of a sandy beach from the sea edge, inches.
pub const BEACH_DEPTH: f32 = 8.0;
/// Depth of a cliff or a quay from the sea edge, inches.
pub const SHORE_DEPTH: f32 = 6.0;

/// One board's table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardTable {
    pub board: BoardId,
    pub table: TableSize,
    pub terrain: Terrain,
    /// Settlements, the station, bridges and fords by their recorded names.
    pub places: Vec<Place>,
    /// Where each road and railway link comes onto the table.
    pub entries: Vec<Entry>,
    /// The railway lines, which *Heroes All* gives no terrain of their own:
    /// open ground kept clear of other features.
    pub railways: Vec<Vec<Point>>,
    /// The coast along the sea edge, if the board has one.
    pub shore: Option<Shore>,
    /// Laid out by hand rather than generated.
    pub authored: bool,
}

impl BoardTable {
    /// Where the place `name` is.
    pub fn place(&self, name: &str) -> Option<(f32, f32)> {
        self.places.iter().find(|p| p.name == name).map(|p| p.at)
    }
}

/// A link's way onto the table: the board edge (its box, FYOW 13.7) and the
/// point on the table's edge where its road or railway arrives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub edge: Edge,
    pub route: Route,
    pub to: BoardId,
    pub at: Point,
}

/// The board's coast (FYOW 13.8) on its sea edge: a strip along that edge,
/// the sandy beach itself, the cliff line or the quays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shore {
    pub edge: Edge,
    pub coast: Coast,
    pub strip: Vec<Point>,
}

/// Why a board has no table.
#[derive(Debug, Clone, PartialEq)]
pub enum TableError {
    UnknownBoard(BoardId),
    /// A Tidal Map Board is the sea (FYOW 13.8): no table.
    Tidal(BoardId),
    /// A bridge class that is none of the types A–D.
    BridgeClass {
        board: BoardId,
        location: String,
        class: String,
    },
    /// An authored layout that cannot be read or breaks the rules, placed in
    /// its file; the message names the board.
    Authored(warbound_rules::data::DataError),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownBoard(b) => write!(f, "no Map Board \"{b}\" on the map"),
            Self::Tidal(b) => write!(
                f,
                "Map Board \"{b}\" is a Tidal Map Board, the sea (FYOW 13.8): it has no table; a naval engagement is fought by FYOW 29"
            ),
            Self::BridgeClass { board, location, class } => write!(
                f,
                "bridge \"{location}\" on Map Board \"{board}\" has class \"{class}\": a bridge is of type A, B, C or D (Heroes All, \"Bridges\")"
            ),
            Self::Authored(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TableError {}

/// The table of a board of this size: full 72" × 48", half 36" × 48".
pub fn table_size(size: BoardSize) -> TableSize {
    match size {
        BoardSize::Full => TableSize { width: 72.0, depth: 48.0 },
        BoardSize::Half => TableSize { width: 36.0, depth: 48.0 },
    }
}

/// The seed of one board's table: the campaign's seed mixed with the board's
/// id by FNV-1a, the same on every machine and every run.
pub fn board_seed(seed: u64, board: &BoardId) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for b in board.0.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The board `board`'s table for the campaign seed `seed`: the same seed
/// gives the same table.
pub fn table_of(map: &CampaignMap, board: &BoardId, seed: u64) -> Result<BoardTable, TableError> {
    let b = map.boards.iter().find(|b| &b.id == board).ok_or_else(|| TableError::UnknownBoard(board.clone()))?;
    let BoardKind::Land(kind) = b.kind else { return Err(TableError::Tidal(board.clone())) };
    let mut g = Layout::new(b, map, board_seed(seed, board));
    g.edges_and_rivers();
    g.roads_and_rails();
    g.crossings()?;
    g.shore();
    g.station();
    g.settlements();
    g.fill(kind);
    Ok(g.finish())
}

/// The links that leave `board`, seen from it: (edge of this board, route, other board).
pub(crate) fn exits(map: &CampaignMap, board: &BoardId) -> Vec<(Edge, Route, BoardId)> {
    map.links
        .iter()
        .filter_map(|l| {
            if &l.from == board {
                Some((l.from_edge, l.route, l.to.clone()))
            } else if &l.to == board {
                Some((l.to_edge, l.route, l.from.clone()))
            } else {
                None
            }
        })
        .collect()
}

/// The board's sea edge: where its line to a Tidal Map Board arrives (the
/// first, if several), else an edge no link uses, else the far edge.
pub(crate) fn sea_edge(map: &CampaignMap, board: &MapBoard) -> Option<Edge> {
    board.coast?;
    let exits = exits(map, &board.id);
    let sea = exits.iter().find(|(_, r, _)| *r == Route::Sea).map(|(e, _, _)| *e);
    let unused =
        [Edge::North, Edge::East, Edge::South, Edge::West].into_iter().find(|e| exits.iter().all(|x| x.0 != *e));
    Some(sea.or(unused).unwrap_or(Edge::North))
}

/// The point a fraction `t` along `edge` (left to right, near to far).
pub(crate) fn edge_point(edge: Edge, t: f32, table: TableSize) -> Point {
    match edge {
        Edge::South => Point(t * table.width, 0.0),
        Edge::North => Point(t * table.width, table.depth),
        Edge::West => Point(0.0, t * table.depth),
        Edge::East => Point(table.width, t * table.depth),
    }
}

/// The unit step from `edge` into the table.
fn inward(edge: Edge) -> (f32, f32) {
    match edge {
        Edge::South => (0.0, 1.0),
        Edge::North => (0.0, -1.0),
        Edge::West => (1.0, 0.0),
        Edge::East => (-1.0, 0.0),
    }
}

/// How far `p` lies from `edge`.
pub(crate) fn off_edge(edge: Edge, p: Point, table: TableSize) -> f32 {
    match edge {
        Edge::South => p.1,
        Edge::North => table.depth - p.1,
        Edge::West => p.0,
        Edge::East => table.width - p.0,
    }
}

fn step(p: Point, (dx, dy): (f32, f32), d: f32) -> Point {
    Point(p.0 + dx * d, p.1 + dy * d)
}

fn mid(a: Point, b: Point) -> Point {
    Point((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

fn dist(a: Point, b: Point) -> f32 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

fn unit(a: Point, b: Point) -> (f32, f32) {
    let d = dist(a, b).max(1e-6);
    ((b.0 - a.0) / d, (b.1 - a.1) / d)
}

/// An axis-aligned rectangle.
#[derive(Debug, Clone, Copy)]
struct Rect {
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
}

impl Rect {
    fn around(c: Point, w: f32, h: f32) -> Self {
        Rect { x0: c.0 - w / 2.0, y0: c.1 - h / 2.0, x1: c.0 + w / 2.0, y1: c.1 + h / 2.0 }
    }

    fn of(points: &[Point]) -> Self {
        points.iter().fold(Rect { x0: f32::MAX, y0: f32::MAX, x1: f32::MIN, y1: f32::MIN }, |r, p| Rect {
            x0: r.x0.min(p.0),
            y0: r.y0.min(p.1),
            x1: r.x1.max(p.0),
            y1: r.y1.max(p.1),
        })
    }

    fn grow(self, d: f32) -> Self {
        Rect { x0: self.x0 - d, y0: self.y0 - d, x1: self.x1 + d, y1: self.y1 + d }
    }

    fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    fn contains(&self, p: Point) -> bool {
        (self.x0..=self.x1).contains(&p.0) && (self.y0..=self.y1).contains(&p.1)
    }

    fn within(&self, table: TableSize, margin: f32) -> bool {
        self.x0 >= margin && self.y0 >= margin && self.x1 <= table.width - margin && self.y1 <= table.depth - margin
    }

    fn corners(&self) -> [Point; 4] {
        [Point(self.x0, self.y0), Point(self.x1, self.y0), Point(self.x1, self.y1), Point(self.x0, self.y1)]
    }

    /// Whether the segment `a`–`b` comes within `d` of the rectangle.
    fn near_segment(&self, a: Point, b: Point, d: f32) -> bool {
        let r = self.grow(d);
        if r.contains(a) || r.contains(b) {
            return true;
        }
        let c = r.corners();
        (0..4).any(|i| crossing(a, b, c[i], c[(i + 1) % 4]).is_some())
    }
}

/// Where segments `a`–`b` and `c`–`d` cross, if they do.
fn crossing(a: Point, b: Point, c: Point, d: Point) -> Option<Point> {
    let (r, s) = ((b.0 - a.0, b.1 - a.1), (d.0 - c.0, d.1 - c.1));
    let den = r.0 * s.1 - r.1 * s.0;
    if den.abs() < 1e-9 {
        return None;
    }
    let t = ((c.0 - a.0) * s.1 - (c.1 - a.1) * s.0) / den;
    let u = ((c.0 - a.0) * r.1 - (c.1 - a.1) * r.0) / den;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some(Point(a.0 + t * r.0, a.1 + t * r.1))
}

/// An octagon in the ellipse of radii `rx`, `ry` about `c`, each vertex
/// pulled in by up to `jitter` of its radius.
fn octagon(c: Point, rx: f32, ry: f32, jitter: &[f32; 8]) -> Vec<Point> {
    (0..8)
        .map(|k| {
            let a = k as f32 * std::f32::consts::FRAC_PI_4;
            let j = 1.0 - jitter[k];
            Point(c.0 + rx * j * a.cos(), c.1 + ry * j * a.sin())
        })
        .collect()
}

fn round(p: Point) -> Point {
    Point((p.0 * 10.0).round() / 10.0, (p.1 * 10.0).round() / 10.0)
}

fn width_of(w: Watercourse) -> (RiverKind, f32) {
    match w {
        Watercourse::Stream => (RiverKind::Stream, 1.5),
        Watercourse::Small => (RiverKind::Small, 3.0),
        Watercourse::Large => (RiverKind::Wide, 6.0),
    }
}

/// A river to lay: its name, size and the two edges it runs between.
struct RiverPlan {
    name: String,
    size: Watercourse,
    ends: (Edge, Edge),
    line: Vec<Point>,
}

/// A road or railway to lay from an edge.
struct Way {
    edge: Edge,
    route: Route,
    to: BoardId,
    at: Point,
}

struct Layout<'a> {
    board: &'a MapBoard,
    exits: Vec<(Edge, Route, BoardId)>,
    sea: Option<Edge>,
    table: TableSize,
    rng: ChaCha8Rng,
    features: Vec<Feature>,
    places: Vec<Place>,
    /// Ground taken: rectangles (buildings, strips) and thick lines (roads, rivers, rails).
    rects: Vec<Rect>,
    lines: Vec<(Vec<Point>, f32)>,
    rivers: Vec<RiverPlan>,
    ways: Vec<Way>,
    roads: Vec<(RoadKind, Vec<Point>)>,
    railways: Vec<Vec<Point>>,
    hub: Point,
    shore: Option<Shore>,
    hills: Vec<Rect>,
}

impl<'a> Layout<'a> {
    fn new(board: &'a MapBoard, map: &CampaignMap, seed: u64) -> Self {
        let table = table_size(board.size);
        Self {
            board,
            exits: exits(map, &board.id),
            sea: sea_edge(map, board),
            table,
            rng: ChaCha8Rng::seed_from_u64(seed),
            features: Vec::new(),
            places: Vec::new(),
            rects: Vec::new(),
            lines: Vec::new(),
            rivers: Vec::new(),
            ways: Vec::new(),
            roads: Vec::new(),
            railways: Vec::new(),
            hub: Point(table.width / 2.0, table.depth / 2.0),
            shore: None,
            hills: Vec::new(),
        }
    }

    fn r(&mut self, lo: f32, hi: f32) -> f32 {
        self.rng.random_range(lo..=hi)
    }

    fn n(&mut self, lo: u32, hi: u32) -> u32 {
        self.rng.random_range(lo..=hi)
    }

    /// Whether `r` is on the table (with `margin`) and clear of all taken ground.
    fn free(&self, r: Rect, margin: f32) -> bool {
        r.within(self.table, margin)
            && !self.rects.iter().any(|o| o.overlaps(&r))
            && !self.lines.iter().any(|(line, d)| line.windows(2).any(|w| r.near_segment(w[0], w[1], *d)))
    }

    fn place(&mut self, name: &str, at: Point) {
        if !self.places.iter().any(|p| p.name == name) {
            let at = round(at);
            self.places.push(Place { name: name.to_owned(), at: (at.0, at.1) });
        }
    }

    /// The strip along the sea edge (FYOW 13.8): a sandy beach left open, a
    /// cliff as a two-level hill, or quays lined with warehouses.
    fn shore(&mut self) {
        let (Some(edge), Some(coast)) = (self.sea, self.board.coast) else { return };
        let depth = if coast == Coast::SandyBeach { BEACH_DEPTH } else { SHORE_DEPTH };
        let strip = |d: f32, t: TableSize| -> Vec<Point> {
            let (a, b) = (edge_point(edge, 0.0, t), edge_point(edge, 1.0, t));
            let inn = inward(edge);
            vec![a, b, step(b, inn, d), step(a, inn, d)]
        };
        let area = strip(depth, self.table);
        match coast {
            Coast::SandyBeach => {
                let c = Rect::of(&area);
                self.place("the beach", Point((c.x0 + c.x1) / 2.0, (c.y0 + c.y1) / 2.0));
            }
            Coast::NonBeach => self.features.push(Feature::Hill {
                levels: vec![
                    HillLevel { level: 1, outline: area.clone() },
                    HillLevel { level: 2, outline: strip(depth / 2.0, self.table) },
                ],
            }),
            Coast::Harbour => {
                let long = match edge {
                    Edge::North | Edge::South => self.table.width,
                    Edge::East | Edge::West => self.table.depth,
                };
                let mut t = 4.0;
                while t + 6.0 <= long - 4.0 {
                    let on_edge = edge_point(edge, (t + 3.0) / long, self.table);
                    let c = step(on_edge, inward(edge), 3.0);
                    let (w, h) = if matches!(edge, Edge::North | Edge::South) { (6.0, 4.0) } else { (4.0, 6.0) };
                    let quay = Rect::around(c, w, h);
                    if self.free(quay, 0.5) {
                        self.features.push(building(quay, Structure::Factory, 2));
                        self.rects.push(quay.grow(0.5));
                    }
                    t += 10.0;
                }
                let c = Rect::of(&area);
                self.place("the harbour", Point((c.x0 + c.x1) / 2.0, (c.y0 + c.y1) / 2.0));
            }
        }
        self.rects.push(Rect::of(&area));
        self.shore = Some(Shore { edge, coast, strip: area });
    }

    /// The rivers the board records and the river links that cross it, and
    /// where each road and railway comes onto the table: everything that
    /// reaches an edge spread along it, seeded.
    fn edges_and_rivers(&mut self) {
        let mut river_links: Vec<(Edge, Watercourse)> = self
            .exits
            .iter()
            .filter_map(|(e, r, _)| match r {
                Route::River(w) => Some((*e, *w)),
                _ => None,
            })
            .collect();
        // A recorded river takes the river link of its size (or the first):
        // it comes on by that link's edge. A second link of its size on
        // another edge is the same river flowing through, leaving by it.
        let mut plans: Vec<(String, Watercourse, Option<Edge>, Option<Edge>)> = Vec::new();
        for river in &self.board.detail.rivers {
            let at = river_links.iter().position(|(_, w)| *w == river.size).or((!river_links.is_empty()).then_some(0));
            let edge = at.map(|i| river_links.remove(i).0);
            let out = edge.and_then(|e| river_links.iter().position(|(o, w)| *w == river.size && *o != e));
            let out = out.map(|i| river_links.remove(i).0);
            plans.push((river.name.clone(), river.size, edge, out));
        }
        for (edge, w) in river_links {
            plans.push(("the river".to_owned(), w, Some(edge), None));
        }
        if plans.is_empty() && !self.board.detail.bridges.is_empty() {
            // A bridge needs water under it: the map records the bridge, the generator the stream.
            plans.push(("the stream".to_owned(), Watercourse::Stream, None, None));
        }
        let across = self.rng.random_bool(0.5);
        for (name, size, edge, out) in plans {
            let a = edge.unwrap_or(match self.sea {
                Some(s) => s.opposite(),
                None if across || self.board.size == BoardSize::Half => Edge::South,
                None => Edge::West,
            });
            let b = match (out, self.sea) {
                (Some(o), _) => o,
                (None, Some(s)) if s != a => s,
                _ => a.opposite(),
            };
            self.rivers.push(RiverPlan { name, size, ends: (a, b), line: Vec::new() });
        }
        // What reaches each edge: rivers' ends first, then roads and railways.
        let mut slots: Vec<(Edge, usize)> = Vec::new();
        for (i, r) in self.rivers.iter().enumerate() {
            slots.push((r.ends.0, i));
            slots.push((r.ends.1, i));
        }
        let rivers = self.rivers.len();
        let mut ways: Vec<(Edge, Route, BoardId)> =
            self.exits.iter().filter(|(_, r, _)| !matches!(r, Route::Sea | Route::River(_))).cloned().collect();
        ways.sort_by_key(|(e, r, to)| (*e, route_rank(*r), to.clone()));
        for (k, (e, _, _)) in ways.iter().enumerate() {
            slots.push((*e, rivers + k));
        }
        let mut at: Vec<Option<Point>> = vec![None; rivers * 2 + ways.len()];
        for edge in [Edge::North, Edge::East, Edge::South, Edge::West] {
            let mut here: Vec<usize> =
                slots.iter().enumerate().filter(|(_, (e, _))| *e == edge).map(|(i, _)| i).collect();
            // Shuffle the order along the edge, seeded.
            for i in (1..here.len()).rev() {
                let j = self.rng.random_range(0..=i);
                here.swap(i, j);
            }
            let k = here.len() as f32;
            for (n, slot) in here.into_iter().enumerate() {
                let t = (n as f32 + 1.0) / (k + 1.0) + self.r(-0.04, 0.04);
                at[slot] = Some(edge_point(edge, t, self.table));
            }
        }
        for (i, river) in self.rivers.iter_mut().enumerate() {
            let (a, b) = (at[2 * i].unwrap_or_default(), at[2 * i + 1].unwrap_or_default());
            let (ea, eb) = river.ends;
            let bend = if ea == eb.opposite() {
                let (dx, dy) = unit(a, b);
                let off = self.rng.random_range(-5.0f32..=5.0);
                step(mid(a, b), (-dy, dx), off)
            } else {
                // Round the corner, pulled a third of the way to the centre.
                let corner = if matches!(ea, Edge::North | Edge::South) { Point(a.0, b.1) } else { Point(b.0, a.1) };
                let c = Point(self.table.width / 2.0, self.table.depth / 2.0);
                Point(corner.0 + (c.0 - corner.0) / 3.0, corner.1 + (c.1 - corner.1) / 3.0)
            };
            river.line = vec![round(a), round(bend), round(b)];
        }
        for (k, (edge, route, to)) in ways.into_iter().enumerate() {
            let at = round(at[rivers * 2 + k].unwrap_or_default());
            self.ways.push(Way { edge, route, to, at });
        }
        // The hub the roads meet at, and the main settlement: near the centre,
        // off the sea strip, 8" at least from every river.
        let mut hub = Point(self.table.width / 2.0 + self.r(-6.0, 6.0), self.table.depth / 2.0 + self.r(-4.0, 4.0));
        if let Some(s) = self.sea {
            hub = step(hub, inward(s), 4.0);
        }
        for river in &self.rivers {
            for w in river.line.windows(2) {
                let d = warbound_rules::terrain::distance_to_segment(hub, w[0], w[1]).get();
                if d < 8.0 {
                    let (dx, dy) = unit(w[0], w[1]);
                    let n = (-dy, dx);
                    let side = if (hub.0 - w[0].0) * n.0 + (hub.1 - w[0].1) * n.1 >= 0.0 { 1.0 } else { -1.0 };
                    hub = step(hub, (n.0 * side, n.1 * side), 8.0 - d);
                }
            }
        }
        hub.0 = hub.0.clamp(10.0, self.table.width - 10.0);
        hub.1 = hub.1.clamp(10.0, self.table.depth - 10.0);
        self.hub = round(hub);
    }

    /// Roads from their edges to the hub; railways from their edges through
    /// the station's stop; a clear strip where each comes on.
    fn roads_and_rails(&mut self) {
        let hub = self.hub;
        let mut rails: Vec<(Point, Point)> = Vec::new();
        for w in &self.ways {
            let inn = step(w.at, inward(w.edge), ENTRY_DEPTH);
            let strip = match w.edge {
                Edge::North | Edge::South => {
                    Rect::of(&[Point(w.at.0 - ENTRY_HALF_WIDTH, w.at.1), Point(w.at.0 + ENTRY_HALF_WIDTH, inn.1)])
                }
                Edge::East | Edge::West => {
                    Rect::of(&[Point(w.at.0, w.at.1 - ENTRY_HALF_WIDTH), Point(inn.0, w.at.1 + ENTRY_HALF_WIDTH)])
                }
            };
            self.rects.push(strip);
            match w.route {
                Route::MetalledRoad | Route::SecondaryRoad => {
                    let kind = if w.route == Route::MetalledRoad { RoadKind::Metalled } else { RoadKind::Secondary };
                    self.roads.push((kind, vec![w.at, round(inn), hub]));
                }
                _ => rails.push((w.at, round(inn))),
            }
        }
        if !rails.is_empty() {
            // The line runs from each entry to a stop beside the hub.
            let (mx, my) = rails.iter().fold((0.0, 0.0), |(x, y), (_, p)| (x + p.0, y + p.1));
            let k = rails.len() as f32;
            let stop = round(mid(hub, Point(mx / k, my / k)));
            let mut first = vec![rails[0].0, rails[0].1, stop];
            if let Some((at, inn)) = rails.get(1) {
                first.extend([*inn, *at]);
            }
            self.railways.push(first);
            for (at, inn) in rails.iter().skip(2) {
                self.railways.push(vec![stop, *inn, *at]);
            }
        }
        for (kind, line) in &self.roads {
            let w = road_width(*kind);
            self.features.push(Feature::Road { kind: *kind, line: line.clone(), width: w });
            self.lines.push((line.clone(), w / 2.0 + 1.0));
        }
        for line in &self.railways {
            self.lines.push((line.clone(), 2.5));
        }
    }

    /// Rivers laid with their bridges and fords: the recorded bridges where
    /// roads cross (metalled roads first), the recorded fords at the next
    /// crossings, then on open stretches; a road crossing nothing is
    /// recorded for is a ford.
    fn crossings(&mut self) -> Result<(), TableError> {
        let mut bridges: Vec<(String, BridgeType, Option<String>)> = Vec::new();
        let detail = &self.board.detail;
        let mut bridge_river = 0;
        for b in &detail.bridges {
            let size = self.rivers.get(bridge_river).map_or(Watercourse::Stream, |r| r.size);
            let kind = match b.class.as_deref().map(str::trim) {
                None => match size {
                    Watercourse::Stream | Watercourse::Small => BridgeType::A,
                    Watercourse::Large => BridgeType::C,
                },
                Some("A") => BridgeType::A,
                Some("B") => BridgeType::B,
                Some("C") => BridgeType::C,
                Some("D") => BridgeType::D,
                Some(other) => {
                    return Err(TableError::BridgeClass {
                        board: self.board.id.clone(),
                        location: b.location.clone(),
                        class: other.to_owned(),
                    });
                }
            };
            bridges.push((b.location.clone(), kind, None));
            bridge_river = (bridge_river + 1) % self.rivers.len().max(1);
        }
        let mut fords: Vec<String> = detail.fords.clone();
        let mut roads = self.roads.clone();
        roads.sort_by_key(|(k, _)| *k != RoadKind::Metalled);
        let rivers = std::mem::take(&mut self.rivers);
        let n = rivers.len();
        for (ri, river) in rivers.iter().enumerate() {
            let (kind, width) = width_of(river.size);
            let mut rb: Vec<RiverBridge> = Vec::new();
            let mut rf: Vec<Ford> = Vec::new();
            let mut used: Vec<Point> = Vec::new();
            let span_at = |p: Point, seg: (Point, Point), deck: f32| {
                let (dx, dy) = unit(seg.0, seg.1);
                let half = width / 2.0 + 1.5;
                Span { from: round(step(p, (-dy, dx), -half)), to: round(step(p, (-dy, dx), half)), width: deck }
            };
            let mine = |i: usize| i % n.max(1) == ri;
            for (_, line) in &roads {
                for r in line.windows(2) {
                    for s in river.line.windows(2) {
                        let Some(p) = crossing(r[0], r[1], s[0], s[1]) else { continue };
                        used.push(p);
                        let span = span_at(p, (s[0], s[1]), 3.0);
                        if let Some(i) = (0..bridges.len()).find(|&i| bridges[i].2.is_none() && mine(i)) {
                            bridges[i].2 = Some(river.name.clone());
                            rb.push(RiverBridge { kind: bridges[i].1, span });
                            self.place(&bridges[i].0.clone(), p);
                        } else if ri == 0 && !fords.is_empty() {
                            let name = fords.remove(0);
                            rf.push(Ford { condition: warbound_rules::movement::FordCondition::Normal, span });
                            self.place(&name, p);
                        } else {
                            rf.push(Ford { condition: warbound_rules::movement::FordCondition::Normal, span });
                        }
                    }
                }
            }
            // What is left goes on open stretches of the river, away from the crossings.
            let mut left: Vec<(String, Option<BridgeType>)> = Vec::new();
            for (i, b) in bridges.iter_mut().enumerate() {
                if b.2.is_none() && mine(i) {
                    b.2 = Some(river.name.clone());
                    left.push((b.0.clone(), Some(b.1)));
                }
            }
            if ri == 0 {
                left.extend(fords.drain(..).map(|f| (f, None)));
            }
            for (name, bridge) in left {
                let at = self.free_stretch(&river.line, &used);
                used.push(at.0);
                let span = span_at(at.0, at.1, if bridge.is_some() { 3.0 } else { 4.0 });
                match bridge {
                    Some(k) => rb.push(RiverBridge { kind: k, span }),
                    None => rf.push(Ford { condition: warbound_rules::movement::FordCondition::Normal, span }),
                }
                self.place(&name, at.0);
            }
            self.features.push(Feature::River { kind, line: river.line.clone(), width, bridges: rb, fords: rf });
            self.lines.push((river.line.clone(), width / 2.0 + 1.0));
        }
        self.rivers = rivers;
        Ok(())
    }

    /// A point on `line` at least 6" from every point of `used` and from
    /// the table's edges and the line's bend, with the segment it lies on.
    fn free_stretch(&mut self, line: &[Point], used: &[Point]) -> (Point, (Point, Point)) {
        let mut best = (mid(line[0], line[1]), (line[0], line[1]));
        let mut best_d = f32::MIN;
        for _ in 0..24 {
            let s = self.rng.random_range(0..line.len() - 1);
            let t = self.r(0.2, 0.8);
            let (a, b) = (line[s], line[s + 1]);
            let p = Point(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            let d = used.iter().map(|u| dist(*u, p)).fold(f32::MAX, f32::min);
            if d > best_d {
                best = (p, (a, b));
                best_d = d;
            }
            if d >= 6.0 {
                break;
            }
        }
        best
    }

    /// The station (FYOW 13.6) beside the railway at its stop.
    fn station(&mut self) {
        if !self.board.detail.station {
            return;
        }
        let Some(line) = self.railways.first().cloned() else {
            // A station with no railway linked: beside the hub.
            if let Some(r) = self.spiral(self.hub, 6.0, 6.0, 4.0, 1, false).first() {
                self.features.push(building(*r, Structure::Factory, 1));
                self.place("the station", Point((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0));
            }
            return;
        };
        // Every 2" along the line, nearest the stop first, on either side of it.
        let stop = line[2];
        let mut along: Vec<(Point, (f32, f32))> = Vec::new();
        for w in line.windows(2) {
            let n = (dist(w[0], w[1]) / 2.0).ceil() as usize;
            for k in 0..=n {
                let t = k as f32 / n.max(1) as f32;
                along.push((Point(w[0].0 + (w[1].0 - w[0].0) * t, w[0].1 + (w[1].1 - w[0].1) * t), unit(w[0], w[1])));
            }
        }
        along.sort_by(|a, b| dist(a.0, stop).total_cmp(&dist(b.0, stop)));
        for (p, dir) in along {
            for side in [5.0, -5.0, 7.0, -7.0] {
                let c = step(p, (-dir.1, dir.0), side);
                let r = Rect::around(c, 6.0, 4.0);
                if self.free(r, 0.5) {
                    self.features.push(building(r, Structure::Factory, 1));
                    self.rects.push(r.grow(1.0));
                    self.place("the station", c);
                    return;
                }
            }
        }
    }

    /// Free cells of pitch `pitch` round `c`, nearest first, up to `count`,
    /// each a `w` × `h` building's rectangle taken; with `blocks`, every
    /// third row and column is a street.
    fn spiral(&mut self, c: Point, pitch: f32, w: f32, h: f32, count: usize, blocks: bool) -> Vec<Rect> {
        let mut cells: Vec<(i32, i32)> = Vec::new();
        for i in -15..=15i32 {
            for j in -15..=15i32 {
                if !blocks || (i.rem_euclid(3) != 2 && j.rem_euclid(3) != 2) {
                    cells.push((i, j));
                }
            }
        }
        cells.sort_by_key(|&(i, j)| (i * i + j * j, i, j));
        let mut out = Vec::new();
        for (i, j) in cells {
            if out.len() >= count {
                break;
            }
            let r = Rect::around(Point(c.0 + i as f32 * pitch, c.1 + j as f32 * pitch), w, h);
            if self.free(r, 0.5) {
                self.rects.push(r.grow(0.5));
                out.push(r);
            }
        }
        out
    }

    /// Settlements as clusters of buildings by size (FYOW 13.6): a village or
    /// farm 3–6 houses and huts, a town 10–16 with a factory, a city 24–32
    /// in blocks with factories; each a place of its name.
    fn settlements(&mut self) {
        let mut list = self.board.detail.settlements.clone();
        list.sort_by_key(|s| std::cmp::Reverse(s.size as u8));
        for (n, s) in list.iter().enumerate() {
            let c = if n == 0 { self.hub } else { self.beside_a_road(n) };
            self.place(&s.name, c);
            let count = match s.size {
                SettlementSize::VillageOrFarm => self.n(3, 6),
                SettlementSize::Town => self.n(10, 16),
                SettlementSize::City => self.n(24, 32),
            } as usize;
            let factories = match s.size {
                SettlementSize::VillageOrFarm => 0,
                SettlementSize::Town => 1,
                SettlementSize::City => 3,
            };
            for r in self.spiral(c, 9.0, 7.0, 5.0, factories, false) {
                self.features.push(building(r, Structure::Factory, 2));
            }
            let (pitch, blocks) = match s.size {
                SettlementSize::VillageOrFarm => (6.0, false),
                SettlementSize::Town => (5.0, false),
                SettlementSize::City => (5.0, true),
            };
            let mut built = self.spiral(c, pitch, 4.0, 3.0, count - factories, blocks);
            if built.len() < count - factories {
                // Crowded by roads, rivers and the shore: the streets fill in.
                let more = count - factories - built.len();
                built.extend(self.spiral(c, 4.5, 4.0, 3.0, more, false));
            }
            for r in built {
                let (structure, storeys) = match (s.size, self.n(0, 3)) {
                    (SettlementSize::VillageOrFarm, 0) => (Structure::WoodenHut, 1),
                    (SettlementSize::City, 0) => (Structure::SmallStoneBuilding, 2),
                    (SettlementSize::City, _) => (Structure::House, 3),
                    (_, k) => (Structure::House, if k == 1 { 1 } else { 2 }),
                };
                self.features.push(building(r, structure, storeys));
            }
        }
    }

    /// A point for the `n`th settlement: off a road, part way from its edge
    /// to the hub, or somewhere seeded if the board has no road.
    fn beside_a_road(&mut self, n: usize) -> Point {
        if self.roads.is_empty() {
            return Point(self.r(12.0, self.table.width - 12.0), self.r(12.0, self.table.depth - 12.0));
        }
        let (_, line) = self.roads[n % self.roads.len()].clone();
        let (a, b) = (line[1], line[2]);
        let t = self.r(0.3, 0.6);
        let p = Point(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        let (dx, dy) = unit(a, b);
        let side = if self.rng.random_bool(0.5) { 6.0 } else { -6.0 };
        let q = step(p, (-dy, dx), side);
        Point(q.0.clamp(8.0, self.table.width - 8.0), q.1.clamp(8.0, self.table.depth - 8.0))
    }

    /// The board's type fills the rest (FYOW 13.2), by seeded counts.
    fn fill(&mut self, kind: BoardType) {
        let whole = Rect { x0: 0.0, y0: 0.0, x1: self.table.width, y1: self.table.depth };
        match kind {
            BoardType::Open => {
                let (w, h) = (self.n(0, 1), self.n(0, 2));
                self.woods(whole, w, WoodDensity::Sparse);
                self.hedges(whole, h, ObstacleKind::Hedge, ObstacleHeight::Low);
            }
            BoardType::Light => {
                let (h, w, walls) = (self.n(2, 4), self.n(1, 2), self.n(0, 2));
                self.hedges(whole, h, ObstacleKind::Hedge, ObstacleHeight::Low);
                self.hedges(whole, walls, ObstacleKind::Wall, ObstacleHeight::Low);
                self.woods(whole, w, WoodDensity::Sparse);
            }
            BoardType::Broken => {
                let (h, walls, w, s, rough) = (self.n(3, 5), self.n(1, 3), self.n(2, 3), self.n(0, 1), self.n(1, 2));
                self.hedges(whole, h, ObstacleKind::Hedge, ObstacleHeight::High);
                self.hedges(whole, walls, ObstacleKind::Wall, ObstacleHeight::Low);
                self.woods(whole, w, WoodDensity::Dense);
                self.woods(whole, s, WoodDensity::Sparse);
                self.rough(whole, rough);
            }
            BoardType::Rugged => {
                let (hills, w, rough) = (self.n(2, 3), self.n(2, 3), self.n(0, 2));
                self.hills(whole, hills);
                let dense = self.n(1, w);
                self.woods(whole, dense, WoodDensity::Dense);
                self.woods(whole, w - dense, WoodDensity::Sparse);
                self.rough(whole, rough);
            }
            BoardType::Dense => {
                let urban = self.board.detail.settlements.iter().any(|s| s.size != SettlementSize::VillageOrFarm);
                if urban {
                    let (f, walls) = (self.n(2, 4), self.n(1, 3));
                    for _ in 0..f {
                        let c = Point(self.r(8.0, self.table.width - 8.0), self.r(8.0, self.table.depth - 8.0));
                        for r in self.spiral(c, 8.0, 7.0, 5.0, 1, false) {
                            self.features.push(building(r, Structure::Factory, 3));
                        }
                    }
                    self.hedges(whole, walls, ObstacleKind::Wall, ObstacleHeight::High);
                } else {
                    let w = self.n(4, 6);
                    self.woods(whole, w, WoodDensity::Dense);
                }
            }
            BoardType::Fortified => {
                let half = self.fortified_half();
                let (p, wire, mines) = (self.n(2, 4), self.n(2, 3), self.n(2, 4));
                for _ in 0..p {
                    if let Some(r) = self.free_rect(half, 3.0, 3.0, 1.0) {
                        self.features.push(building(r, Structure::Pillbox, 1));
                    }
                }
                self.wire(half, wire);
                for _ in 0..mines {
                    // *Heroes All*, "Mines": laid in areas of 4" × 4".
                    if let Some(r) = self.free_rect(half, 4.0, 4.0, 0.5) {
                        let c = round(Point((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0));
                        let outline = Rect::around(c, 4.0, 4.0).corners().to_vec();
                        self.features.push(Feature::Minefield { outline, kind: MineKind::AntiPersonnel });
                    }
                }
                self.roadblock(half);
                let h = self.n(1, 2);
                self.hedges(whole, h, ObstacleKind::Wall, ObstacleHeight::Low);
            }
        }
    }

    /// The defenders' half of a fortified board: the half along the sea
    /// edge (its works face the sea), else the far half.
    fn fortified_half(&self) -> Rect {
        let (w, d) = (self.table.width, self.table.depth);
        match self.sea.unwrap_or(Edge::North) {
            Edge::North => Rect { x0: 0.0, y0: d / 2.0, x1: w, y1: d },
            Edge::South => Rect { x0: 0.0, y0: 0.0, x1: w, y1: d / 2.0 },
            Edge::West => Rect { x0: 0.0, y0: 0.0, x1: w / 2.0, y1: d },
            Edge::East => Rect { x0: w / 2.0, y0: 0.0, x1: w, y1: d },
        }
    }

    /// A free `w` × `h` rectangle inside `area`, seeded; taken with a `gap` round it.
    fn free_rect(&mut self, area: Rect, w: f32, h: f32, gap: f32) -> Option<Rect> {
        for _ in 0..40 {
            let c = Point(self.r(area.x0 + w / 2.0, area.x1 - w / 2.0), self.r(area.y0 + h / 2.0, area.y1 - h / 2.0));
            let r = Rect::around(c, w, h);
            if self.free(r.grow(gap), 0.0) && r.within(self.table, 0.5) {
                self.rects.push(r.grow(gap));
                return Some(r);
            }
        }
        None
    }

    /// [`Layout::free_rect`], the size cut to ¾ and then ½ where it finds no room.
    fn shrinking(&mut self, area: Rect, w: f32, h: f32) -> Option<(Rect, f32, f32)> {
        [1.0, 0.75, 0.5].into_iter().find_map(|k| {
            let (w, h) = ((w * k).max(0.5), (h * k).max(0.5));
            self.free_rect(area, w, h, 1.0).map(|r| (r, w, h))
        })
    }

    fn woods(&mut self, area: Rect, count: u32, density: WoodDensity) {
        for _ in 0..count {
            let (w, h) = (self.r(7.0, 14.0), self.r(5.0, 10.0));
            if let Some((r, w, h)) = self.shrinking(area, w, h) {
                let jitter: [f32; 8] = std::array::from_fn(|_| self.rng.random_range(0.0f32..0.25));
                let c = Point((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0);
                let outline = octagon(c, w / 2.0, h / 2.0, &jitter).into_iter().map(round).collect();
                self.features.push(Feature::Wood { density, outline });
            }
        }
    }

    fn rough(&mut self, area: Rect, count: u32) {
        for _ in 0..count {
            let (w, h) = (self.r(5.0, 8.0), self.r(4.0, 7.0));
            if let Some((r, w, h)) = self.shrinking(area, w, h) {
                let jitter: [f32; 8] = std::array::from_fn(|_| self.rng.random_range(0.0f32..0.3));
                let c = Point((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0);
                let outline = octagon(c, w / 2.0, h / 2.0, &jitter).into_iter().map(round).collect();
                self.features.push(Feature::RoughGround { outline });
            }
        }
    }

    /// Hills of 2–3 levels, each contour the one below drawn smaller about
    /// its centre, so each lies inside the one below.
    fn hills(&mut self, area: Rect, count: u32) {
        let scale = self.table.width / 72.0;
        for _ in 0..count {
            let (w, h) = (self.r(12.0, 20.0) * scale.max(0.7), self.r(8.0, 14.0));
            let Some(c) = self.hill_ground(area, w, h) else { continue };
            let levels = self.n(2, 3);
            let none = [0.0; 8];
            let levels = (1..=levels)
                .map(|l| {
                    let s = 1.0 - (l - 1) as f32 * 0.3;
                    HillLevel { level: l as u8, outline: octagon(c, w / 2.0 * s, h / 2.0 * s, &none) }
                })
                .collect();
            self.features.push(Feature::Hill { levels });
        }
    }

    /// Ground for a hill: roads climb hills and houses stand on them, so a
    /// hill keeps off only rivers, the shore and other hills.
    fn hill_ground(&mut self, area: Rect, w: f32, h: f32) -> Option<Point> {
        for _ in 0..40 {
            let c = Point(self.r(area.x0 + w / 2.0, area.x1 - w / 2.0), self.r(area.y0 + h / 2.0, area.y1 - h / 2.0));
            let r = Rect::around(c, w, h);
            let shore = self.shore.as_ref().map(|s| Rect::of(&s.strip));
            let clear = r.within(self.table, 0.5)
                && !shore.is_some_and(|s| s.overlaps(&r))
                && !self.hills.iter().any(|o| o.overlaps(&r))
                && !self.rivers.iter().any(|v| v.line.windows(2).any(|l| r.near_segment(l[0], l[1], 2.0)));
            if clear {
                self.hills.push(r.grow(1.0));
                return Some(round(c));
            }
        }
        None
    }

    /// Hedges or walls along field boundaries: straight runs of 8–20".
    fn hedges(&mut self, area: Rect, count: u32, kind: ObstacleKind, height: ObstacleHeight) {
        for _ in 0..count {
            let len = self.r(8.0, 20.0);
            let (w, h) = if self.rng.random_bool(0.5) { (len, 0.5) } else { (0.5, len) };
            if let Some((r, w, h)) = self.shrinking(area, w, h) {
                let line = if w > h {
                    vec![round(Point(r.x0, r.y0)), round(Point(r.x1, r.y0))]
                } else {
                    vec![round(Point(r.x0, r.y0)), round(Point(r.x0, r.y1))]
                };
                self.features.push(Feature::Obstacle { kind, height, line });
            }
        }
    }

    /// Wire in runs of 10–16" across the defenders' half.
    fn wire(&mut self, area: Rect, count: u32) {
        let along_x = area.x1 - area.x0 >= area.y1 - area.y0;
        for _ in 0..count {
            let len = self.r(10.0, 16.0);
            let (w, h) = if along_x { (len, 0.5) } else { (0.5, len) };
            if let Some(r) = self.free_rect(area, w, h, 1.0) {
                let line = if along_x {
                    vec![round(Point(r.x0, r.y0)), round(Point(r.x1, r.y0))]
                } else {
                    vec![round(Point(r.x0, r.y0)), round(Point(r.x0, r.y1))]
                };
                self.features.push(Feature::Wire(Extent::Line(line)));
            }
        }
    }

    /// A roadblock across a road where it comes nearest the defenders'
    /// half, beyond its entry strip.
    fn roadblock(&mut self, half: Rect) {
        let mut best: Option<(f32, [Point; 2])> = None;
        for (kind, line) in &self.roads {
            let (a, b) = (line[1], line[2]);
            let (dx, dy) = unit(a, b);
            let h = road_width(*kind) / 2.0 + 0.5;
            for k in 2..=8 {
                let t = k as f32 / 10.0;
                let p = Point(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
                let ends = [round(step(p, (-dy, dx), -h)), round(step(p, (-dy, dx), h))];
                let off = (half.x0 - p.0).max(p.0 - half.x1).max(0.0) + (half.y0 - p.1).max(p.1 - half.y1).max(0.0);
                if ends.iter().all(|e| self.table.contains((e.0, e.1))) && best.is_none_or(|(d, _)| off < d) {
                    best = Some((off, ends));
                }
            }
        }
        if let Some((_, ends)) = best {
            self.features.push(Feature::Roadblock(Extent::Line(ends.to_vec())));
        }
    }

    fn finish(mut self) -> BoardTable {
        // The board itself is a place, where the roads meet: every table has
        // one to order troops to, a settlement or none.
        let (name, hub) = (self.board.id.0.clone(), self.hub);
        self.place(&name, hub);
        BoardTable {
            board: self.board.id.clone(),
            table: self.table,
            terrain: Terrain { features: self.features, gaps: Vec::new() },
            places: self.places,
            entries: self
                .ways
                .into_iter()
                .map(|w| Entry { edge: w.edge, route: w.route, to: w.to, at: w.at })
                .collect(),
            railways: self.railways,
            shore: self.shore,
            authored: false,
        }
    }
}

fn route_rank(r: Route) -> u8 {
    match r {
        Route::MetalledRoad => 0,
        Route::SecondaryRoad => 1,
        Route::Rail => 2,
        Route::River(_) => 3,
        Route::Sea => 4,
    }
}

fn road_width(kind: RoadKind) -> f32 {
    match kind {
        RoadKind::Metalled => 3.0,
        RoadKind::Secondary => 2.0,
    }
}

fn building(r: Rect, structure: Structure, storeys: u8) -> Feature {
    Feature::Building {
        outline: r.corners().into_iter().map(round).collect(),
        structure,
        storeys,
        capacity: None,
        defence: None,
        ruined: false,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use warbound_rules::codex::Codex;
    use warbound_rules::day::Season;
    use warbound_rules::scenario::{Scenario, Weather};

    use super::*;
    use crate::play::file::CampaignFile;

    const GUERNSEY: &str = include_str!("../../../../scenarios/campaigns/guernsey-1942.ron");

    pub(crate) fn guernsey() -> CampaignMap {
        CampaignFile::load("guernsey-1942.ron", GUERNSEY).unwrap().map
    }

    fn table(map: &CampaignMap, id: &str, seed: u64) -> BoardTable {
        table_of(map, &BoardId::new(id), seed).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The bounding box of a feature's points.
    fn bbox(f: &Feature) -> Rect {
        let points: Vec<Point> = match f {
            Feature::Hill { levels } => levels[0].outline.clone(),
            Feature::Wood { outline, .. }
            | Feature::Marsh { outline }
            | Feature::RoughGround { outline }
            | Feature::Minefield { outline, .. }
            | Feature::Building { outline, .. } => outline.clone(),
            Feature::Obstacle { line, .. } | Feature::Road { line, .. } | Feature::River { line, .. } => line.clone(),
            Feature::Wire(Extent::Area(p) | Extent::Line(p))
            | Feature::Roadblock(Extent::Area(p) | Extent::Line(p)) => p.clone(),
        };
        Rect::of(&points)
    }

    fn roads(t: &BoardTable) -> Vec<(RoadKind, &Vec<Point>, f32)> {
        t.terrain
            .features
            .iter()
            .filter_map(|f| match f {
                Feature::Road { kind, line, width } => Some((*kind, line, *width)),
                _ => None,
            })
            .collect()
    }

    /// Whether a road of `kind` ends on `edge`.
    fn road_at(t: &BoardTable, edge: Edge, kind: RoadKind) -> bool {
        roads(t).iter().any(|(k, line, _)| *k == kind && line.iter().any(|p| off_edge(edge, *p, t.table) == 0.0))
    }

    fn buildings(t: &BoardTable, structure: Structure) -> Vec<&Feature> {
        t.terrain
            .features
            .iter()
            .filter(|f| matches!(f, Feature::Building { structure: s, .. } if *s == structure))
            .collect()
    }

    fn rivers(t: &BoardTable) -> Vec<(usize, RiverKind, &Vec<RiverBridge>, &Vec<Ford>)> {
        t.terrain
            .features
            .iter()
            .enumerate()
            .filter_map(|(i, f)| match f {
                Feature::River { kind, bridges, fords, .. } => Some((i, *kind, bridges, fords)),
                _ => None,
            })
            .collect()
    }

    fn at(t: &BoardTable, name: &str) -> Point {
        let (x, y) = t.place(name).unwrap_or_else(|| panic!("no place {name:?} in {:?}", t.places));
        Point(x, y)
    }

    fn near_line(p: Point, line: &[Point]) -> f32 {
        line.windows(2)
            .map(|w| warbound_rules::terrain::distance_to_segment(p, w[0], w[1]).get())
            .fold(f32::MAX, f32::min)
    }

    #[test]
    fn an_open_board_has_its_roads_at_its_linked_edges() {
        let map = guernsey();
        for seed in 0..20 {
            let t = table(&map, "L'Ancresse", seed);
            assert_eq!((t.table.width, t.table.depth), (72.0, 48.0), "a full board is the 6 ft × 4 ft table");
            assert!(
                road_at(&t, Edge::South, RoadKind::Metalled),
                "the metalled road to St Sampson leaves by the South edge"
            );
            assert!(road_at(&t, Edge::West, RoadKind::Secondary), "the lane to Grand Havre leaves by the West edge");
            assert!(!road_at(&t, Edge::North, RoadKind::Metalled) && !road_at(&t, Edge::North, RoadKind::Secondary));
            let shore = t.shore.as_ref().expect("a sandy beach");
            assert_eq!(
                (shore.edge, shore.coast),
                (Edge::East, Coast::SandyBeach),
                "the Little Russel lies to the East"
            );
            assert!(shore.strip.iter().all(|p| p.0 >= 72.0 - BEACH_DEPTH), "the beach is on the right of the table");
            let beach = Rect::of(&shore.strip);
            for f in &t.terrain.features {
                assert!(!bbox(f).overlaps(&beach.grow(-0.1)), "the beach is open sand: {f:?}");
            }
            let village = at(&t, "L'Ancresse");
            let houses = t
                .terrain
                .features
                .iter()
                .filter(|f| {
                    matches!(f, Feature::Building { .. }) && {
                        let r = bbox(f);
                        dist(Point((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0), village) < 20.0
                    }
                })
                .count();
            assert!((3..=6).contains(&houses), "a village is a few houses: {houses}");
        }
    }

    #[test]
    fn a_broken_board_has_its_river_bridge_and_ford() {
        let map = guernsey();
        for seed in 0..20 {
            let t = table(&map, "Talbot Valley", seed);
            let rivers = rivers(&t);
            assert_eq!(rivers.len(), 1, "the Talbot stream");
            let (i, kind, bridges, fords) = rivers[0];
            assert_eq!(kind, RiverKind::Stream);
            let Feature::River { line, .. } = &t.terrain.features[i] else { unreachable!() };
            assert!(line.iter().any(|p| p.0 == 0.0), "it runs out by the West edge, down the valley to Vazon");
            assert_eq!(bridges.len(), 1, "one bridge recorded: {bridges:?}");
            assert_eq!(bridges[0].kind, BridgeType::A, "a bridge of no recorded type over a stream is type A");
            assert_eq!(t.terrain.river_crossed(&bridges[0].span), Some(i));
            let bridge = at(&t, "Talbot Road at Les Niaux mill");
            assert!(roads(&t).iter().any(|(_, l, w)| near_line(bridge, l) <= w / 2.0), "the bridge carries a road");
            let ford = at(&t, "below Les Niaux");
            assert!(fords.iter().any(|f| dist(mid(f.span.from, f.span.to), ford) < 0.2), "the recorded ford is marked");
            for f in fords {
                assert_eq!(t.terrain.river_crossed(&f.span), Some(i));
            }
            for e in [Edge::North, Edge::South, Edge::West, Edge::East] {
                assert!(road_at(&t, e, RoadKind::Secondary), "a lane leaves by the {e:?} edge");
            }
            assert!(t.terrain.features.iter().any(|f| matches!(f, Feature::Wood { density: WoodDensity::Dense, .. })));
            assert!(t.terrain.features.iter().any(|f| matches!(f, Feature::Obstacle { .. })), "hedges and walls");
        }
    }

    #[test]
    fn a_dense_board_is_a_city_with_its_harbour() {
        let map = guernsey();
        for seed in 0..20 {
            let t = table(&map, "St Peter Port", seed);
            let city = at(&t, "St Peter Port");
            let built: usize = t.terrain.features.iter().filter(|f| matches!(f, Feature::Building { .. })).count();
            assert!(built >= 24, "a city is 24 buildings or more: {built}");
            assert!(buildings(&t, Structure::Factory).len() >= 3);
            assert!(t.table.contains((city.0, city.1)));
            let shore = t.shore.as_ref().unwrap();
            assert_eq!((shore.edge, shore.coast), (Edge::East, Coast::Harbour));
            assert!(t.place("the harbour").is_some());
            let rivers = rivers(&t);
            assert_eq!(rivers.len(), 1, "a stream under the White Rock bridge");
            assert_eq!(rivers[0].2.len(), 1);
            assert!(t.place("harbour road at the White Rock").is_some());
            assert!(t.place("the station").is_some());
            assert!(t.railways.iter().any(|l| l.iter().any(|p| p.1 == 48.0)), "the railway to St Sampson leaves North");
        }
    }

    #[test]
    fn a_light_board_has_its_station_and_railway() {
        let map = guernsey();
        for seed in 0..20 {
            let t = table(&map, "Grand Havre", seed);
            assert_eq!(t.railways.len(), 1, "one line through the station");
            let rail = &t.railways[0];
            assert!(rail.iter().any(|p| p.0 == 72.0), "the line to St Sampson leaves by the East edge");
            assert!(rail.iter().any(|p| p.1 == 0.0), "the line to Cobo leaves by the South edge");
            let station = at(&t, "the station");
            assert!(near_line(station, rail) <= 10.0, "the station stands beside the railway");
            let beside = buildings(&t, Structure::Factory).into_iter().any(|f| {
                Rect::of(match f {
                    Feature::Building { outline, .. } => outline,
                    _ => unreachable!(),
                })
                .contains(station)
            });
            assert!(beside, "the station is a building");
            for f in &t.terrain.features {
                let b = bbox(f);
                if !matches!(f, Feature::Road { .. }) {
                    assert!(!rail.windows(2).any(|w| b.near_segment(w[0], w[1], 1.0)), "the line is kept clear: {f:?}");
                }
            }
            let shore = t.shore.as_ref().unwrap();
            assert_eq!((shore.edge, shore.coast), (Edge::West, Coast::SandyBeach), "the beach is on the left");
            assert!(t.place("Vale church").is_some() && t.place("Les Landes").is_some());
            assert!(road_at(&t, Edge::East, RoadKind::Metalled) && road_at(&t, Edge::South, RoadKind::Metalled));
            assert!(road_at(&t, Edge::North, RoadKind::Secondary));
        }
    }

    #[test]
    fn a_rugged_half_board_is_a_half_table() {
        let map = guernsey();
        for seed in 0..20 {
            let t = table(&map, "Fermain Bay", seed);
            assert_eq!((t.table.width, t.table.depth), (36.0, 48.0), "a half board is half the width, the full depth");
            assert!(t.terrain.validate(t.table).is_ok());
            let shore = t.shore.as_ref().unwrap();
            assert_eq!((shore.edge, shore.coast), (Edge::East, Coast::SandyBeach), "the beach on the right");
            let hills =
                t.terrain.features.iter().filter(|f| matches!(f, Feature::Hill { levels } if levels.len() >= 2));
            assert!(hills.count() >= 1, "steep hills");
            for e in [Edge::North, Edge::West, Edge::South] {
                assert!(road_at(&t, e, RoadKind::Secondary), "a lane by the {e:?} edge");
            }
        }
    }

    #[test]
    fn a_fortified_board_has_wire_mines_and_pillboxes_in_one_half() {
        let map = guernsey();
        for seed in 0..20 {
            let t = table(&map, "Pleinmont", seed);
            let half = Rect { x0: 0.0, y0: 0.0, x1: 36.0, y1: 48.0 };
            let pillboxes = buildings(&t, Structure::Pillbox);
            assert!(pillboxes.len() >= 2, "pillboxes");
            let wire: Vec<_> = t.terrain.features.iter().filter(|f| matches!(f, Feature::Wire(_))).collect();
            assert!(wire.len() >= 2, "wire");
            let mines: Vec<_> = t.terrain.features.iter().filter(|f| matches!(f, Feature::Minefield { .. })).collect();
            assert!(mines.len() >= 2, "minefields");
            for m in &mines {
                let b = bbox(m);
                let square = (b.x1 - b.x0 - 4.0).abs() < 0.01 && (b.y1 - b.y0 - 4.0).abs() < 0.01;
                assert!(square, "mines are laid in areas of 4\" × 4\": {m:?}");
            }
            let blocks: Vec<_> = t
                .terrain
                .features
                .iter()
                .filter_map(|f| match f {
                    Feature::Roadblock(Extent::Line(l)) => Some(mid(l[0], l[1])),
                    _ => None,
                })
                .collect();
            assert_eq!(blocks.len(), 1, "a roadblock");
            assert!(roads(&t).iter().any(|(_, l, w)| near_line(blocks[0], l) <= w / 2.0), "across a road");
            for f in pillboxes.iter().copied().chain(wire).chain(mines) {
                let b = bbox(f);
                assert!(b.x0 >= half.x0 && b.x1 <= half.x1, "the defences hold the half on the sea edge: {f:?}");
            }
            let shore = t.shore.as_ref().unwrap();
            assert_eq!((shore.edge, shore.coast), (Edge::West, Coast::NonBeach));
            let cliff = t.terrain.features.iter().any(|f| match f {
                Feature::Hill { levels } => levels.len() == 2 && levels[0].outline == shore.strip,
                _ => false,
            });
            assert!(cliff, "the cliffs are a two-level hill along the sea edge");
            assert!(road_at(&t, Edge::North, RoadKind::Metalled) && road_at(&t, Edge::East, RoadKind::Secondary));
        }
    }

    #[test]
    fn a_tidal_board_has_no_table() {
        let map = guernsey();
        let err = table_of(&map, &BoardId::new("West Sea"), 1).unwrap_err();
        assert_eq!(err, TableError::Tidal(BoardId::new("West Sea")));
        assert!(err.to_string().contains("no table"), "{err}");
        assert_eq!(
            table_of(&map, &BoardId::new("Sark"), 1).unwrap_err(),
            TableError::UnknownBoard(BoardId::new("Sark"))
        );
    }

    #[test]
    fn a_recorded_bridge_type_is_laid_and_a_wrong_one_refused() {
        let mut map = guernsey();
        let talbot = map.boards.iter().position(|b| b.id.0 == "Talbot Valley").unwrap();
        map.boards[talbot].detail.bridges[0].class = Some("B".into());
        let t = table(&map, "Talbot Valley", 3);
        assert_eq!(rivers(&t)[0].2[0].kind, BridgeType::B);
        map.boards[talbot].detail.bridges[0].class = Some("E".into());
        let err = table_of(&map, &BoardId::new("Talbot Valley"), 3).unwrap_err();
        assert!(matches!(err, TableError::BridgeClass { ref class, .. } if class == "E"), "{err}");
    }

    #[test]
    fn every_shipped_land_board_is_a_valid_table_on_20_seeds() {
        use crate::play::testing::{ardennes, cyrenaica, guernsey};
        let codex = Codex::load(&[]).unwrap();
        for file in [guernsey(), ardennes(), cyrenaica()] {
            every_land_board_is_a_valid_table(&file.map, &codex);
        }
    }

    #[test]
    fn a_river_with_a_link_at_each_end_flows_through_the_board() {
        // Hotton records the Ourthe, which comes down from Beffe (its South
        // edge) and flows on to Barvaux (its North edge): one river, from the
        // one edge to the other.
        let map = crate::play::testing::ardennes().map;
        for seed in 0..10 {
            let t = table(&map, "Hotton", seed);
            let lines: Vec<&Vec<Point>> = t
                .terrain
                .features
                .iter()
                .filter_map(|f| match f {
                    Feature::River { line, .. } => Some(line),
                    _ => None,
                })
                .collect();
            assert_eq!(lines.len(), 1, "seed {seed}: one river, not one a link");
            let (a, b) = (lines[0][0], *lines[0].last().unwrap());
            let ys = [a.1.min(b.1), a.1.max(b.1)];
            assert!(ys[0] <= 0.5 && ys[1] >= t.table.depth - 0.5, "seed {seed}: from edge to edge, {a:?} {b:?}");
        }
    }

    fn every_land_board_is_a_valid_table(map: &CampaignMap, codex: &Codex) {
        let map = map.clone();
        for board in map.boards.iter().filter(|b| !b.is_tidal()) {
            for seed in 0..20 {
                let t = table(&map, &board.id.0, seed);
                let on = format!("board {} seed {seed}", board.id);
                t.terrain.validate(t.table).unwrap_or_else(|e| panic!("{on}: {e}"));
                let bare = Scenario {
                    name: board.id.0.clone(),
                    briefing: String::new(),
                    table: t.table,
                    season: Season::Summer,
                    start_hour: 6,
                    weather: Weather::default(),
                    ground: warbound_rules::scenario::Ground::Grass,
                    time_limit: 12,
                    sides: Vec::new(),
                    terrain: t.terrain.clone(),
                    places: t.places.clone(),
                };
                bare.check(codex).unwrap_or_else(|e| panic!("{on}: {e:?}"));
                assert_eq!(table(&map, &board.id.0, seed), t, "{on}: the same seed lays the same table");
                assert_ne!(table(&map, &board.id.0, seed + 100).terrain, t.terrain, "{on}: another seed another");
                for (i, p) in t.places.iter().enumerate() {
                    assert!(t.places[..i].iter().all(|q| q.name != p.name), "{on}: place {} twice", p.name);
                }
                for s in &board.detail.settlements {
                    assert!(t.place(&s.name).is_some(), "{on}: no place for {}", s.name);
                }
                assert!(t.place(&board.id.0).is_some(), "{on}: the board is a place");
                // Every bridge and ford spans its river from bank to bank.
                for (i, _, bridges, fords) in rivers(&t) {
                    for span in bridges.iter().map(|b| b.span).chain(fords.iter().map(|f| f.span)) {
                        assert_eq!(t.terrain.river_crossed(&span), Some(i), "{on}: {span:?}");
                    }
                }
                // Each road and railway comes on through a clear strip; nothing
                // but roads and rivers crosses it.
                for e in &t.entries {
                    let inn = step(e.at, inward(e.edge), ENTRY_DEPTH - 0.5);
                    let (along, _) = unit(edge_point(e.edge, 0.0, t.table), edge_point(e.edge, 1.0, t.table));
                    let side = ENTRY_HALF_WIDTH - 0.5;
                    let (dx, dy) = (along * side, (1.0 - along) * side);
                    let strip = Rect::of(&[Point(e.at.0 - dx, e.at.1 - dy), Point(inn.0 + dx, inn.1 + dy)]);
                    for f in &t.terrain.features {
                        if !matches!(f, Feature::Road { .. } | Feature::River { .. } | Feature::Hill { .. }) {
                            assert!(!bbox(f).overlaps(&strip), "{on}: {f:?} blocks the way in at {:?}", e.at);
                        }
                    }
                    let linked = exits(&map, &board.id)
                        .iter()
                        .any(|(edge, r, to)| *edge == e.edge && *r == e.route && *to == e.to);
                    assert!(linked && off_edge(e.edge, e.at, t.table) == 0.0, "{on}: {e:?}");
                }
                // No building stands on a road, in a river or on another building.
                let built: Vec<Rect> =
                    t.terrain.features.iter().filter(|f| matches!(f, Feature::Building { .. })).map(bbox).collect();
                for (i, b) in built.iter().enumerate() {
                    assert!(built[..i].iter().all(|o| !o.grow(-0.01).overlaps(b)), "{on}: buildings overlap");
                    for f in &t.terrain.features {
                        if let Feature::Road { line, width, .. } | Feature::River { line, width, .. } = f {
                            assert!(
                                !line.windows(2).any(|w| b.near_segment(w[0], w[1], width / 2.0)),
                                "{on}: a building on {f:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
