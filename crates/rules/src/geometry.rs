//! Measuring the table: distance, line of sight and what lies between an
//! observer and a target (as [`Between`] for *Heroes All* "Observation"), and
//! a movement path split into the stretches of ground [`crate::movement`] takes.
//!
//! Engine-free, over [`Terrain`], so the headless game and the 3D table give
//! the same answers. Heights are in inches above the table: a hill level
//! [`HILL_LEVEL_HEIGHT`], a storey [`STOREY_HEIGHT`], a figure
//! [`FIGURE_HEIGHT`] (readings in docs/rules-readings.md).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::firing::SmokeScreen;
use crate::inches::Inches;
use crate::movement::{Stretch, Terrain as Ground};
use crate::observation::Between;
use crate::terrain::{
    Extent, Feature, ObstacleHeight, ObstacleKind, Point, RiverKind, RoadKind, Span, Terrain, WoodDensity,
    distance_to_segment, edges, inside, on_boundary,
};

/// A figure's height, inches (the unit of "up to the height of a figure").
pub const FIGURE_HEIGHT: f32 = 1.0;
/// *Heroes All*, "Move distance modifiers": "Low = up to the height of a figure".
pub const LOW_OBSTACLE_HEIGHT: f32 = FIGURE_HEIGHT;
/// *Heroes All*, "Move distance modifiers": "High = higher than a figure (up
/// to a maximum of 1 1/2 figure height)"; modelled at that maximum.
pub const HIGH_OBSTACLE_HEIGHT: f32 = 1.5 * FIGURE_HEIGHT;
/// Height of one hill level, inches. Reading: a level stands twice a
/// figure's height, so a hill a level high hides two figures on the flat.
pub const HILL_LEVEL_HEIGHT: f32 = 2.0 * FIGURE_HEIGHT;
/// Height of one storey, inches.
pub const STOREY_HEIGHT: f32 = 1.5 * FIGURE_HEIGHT;

/// Slack in height comparisons, inches.
const HEIGHT_SLACK: f32 = 1e-3;
/// Parameter slack along a segment.
const T_SLACK: f32 = 1e-5;

/// Straight-line distance on the table, inches (measured flat, as on the tabletop).
pub fn distance(a: Point, b: Point) -> Inches {
    Inches((b.0 - a.0).hypot(b.1 - a.1))
}

fn lerp(a: Point, b: Point, t: f32) -> Point {
    Point(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

fn cross(ax: f32, ay: f32, bx: f32, by: f32) -> f32 {
    ax * by - ay * bx
}

/// Where along `a`–`b` (0..=1) it meets `c`–`d`, if it does and they are not parallel.
fn meet(a: Point, b: Point, c: Point, d: Point) -> Option<f32> {
    let (rx, ry, sx, sy) = (b.0 - a.0, b.1 - a.1, d.0 - c.0, d.1 - c.1);
    let denom = cross(rx, ry, sx, sy);
    if denom.abs() < 1e-9 {
        return None;
    }
    let (qx, qy) = (c.0 - a.0, c.1 - a.1);
    let t = cross(qx, qy, sx, sy) / denom;
    let u = cross(qx, qy, rx, ry) / denom;
    ((-T_SLACK..=1.0 + T_SLACK).contains(&t) && (-T_SLACK..=1.0 + T_SLACK).contains(&u)).then(|| t.clamp(0.0, 1.0))
}

/// The bounding box of `points`, `(min, max)`.
fn bounds(points: &[Point]) -> (Point, Point) {
    points
        .iter()
        .fold((Point(f32::INFINITY, f32::INFINITY), Point(f32::NEG_INFINITY, f32::NEG_INFINITY)), |(lo, hi), p| {
            (Point(lo.0.min(p.0), lo.1.min(p.1)), Point(hi.0.max(p.0), hi.1.max(p.1)))
        })
}

/// Whether the boxes of `a` and `b`, each grown by `margin`, overlap: when
/// they do not, no point of one is within `margin` of the other. A cheap
/// first test before the exact ones (which give the same answers without it).
fn boxes_meet(a: (Point, Point), b: (Point, Point), margin: f32) -> bool {
    a.0.0 <= b.1.0 + margin && b.0.0 <= a.1.0 + margin && a.0.1 <= b.1.1 + margin && b.0.1 <= a.1.1 + margin
}

/// Whether the segment `a`–`b` comes within `margin` of the box `bx`: a
/// tighter first test than its own box's (a long diagonal's box covers
/// much of the table), which the exact tests after it still agree with.
fn segment_meets_box(a: Point, b: Point, bx: (Point, Point), margin: f32) -> bool {
    clip(a.0, b.0 - a.0, bx.0.0 - margin, bx.1.0 + margin, 0.0, 1.0)
        .and_then(|(s0, s1)| clip(a.1, b.1 - a.1, bx.0.1 - margin, bx.1.1 + margin, s0, s1))
        .is_some()
}

/// Whether `a`–`b` may meet (by [`meet`], with its slack) an edge of a
/// polygon or polyline whose box is `bx`; where it may not, no edge need be tried.
fn may_meet_edges(a: Point, b: Point, bx: (Point, Point)) -> bool {
    let reach = T_SLACK * (distance(a, b).get() + distance(bx.0, bx.1).get()) + BOUNDARY_SLACK;
    segment_meets_box(a, b, bx, reach)
}

/// Whether `p` is inside `poly` or on its outline.
fn in_or_on(poly: &[Point], p: Point) -> bool {
    boxes_meet(bounds(poly), (p, p), BOUNDARY_SLACK) && (inside(poly, p) || on_boundary(poly, p))
}

/// Whether `p` is strictly inside `poly` (not on its outline).
fn strictly_in(poly: &[Point], p: Point) -> bool {
    boxes_meet(bounds(poly), (p, p), BOUNDARY_SLACK) && inside(poly, p) && !on_boundary(poly, p)
}

/// Beyond `on_boundary`'s reach (0.01").
const BOUNDARY_SLACK: f32 = 0.02;

/// Where along `a`–`b` it crosses a polyline, each place once.
fn crossings(a: Point, b: Point, line: &[Point]) -> Vec<f32> {
    // `meet` lets each segment run T_SLACK of its length beyond its ends.
    let (lb, sb) = (bounds(line), bounds(&[a, b]));
    let reach = T_SLACK * (distance(a, b).get() + distance(lb.0, lb.1).get()) + BOUNDARY_SLACK;
    if !boxes_meet(lb, sb, reach) || !segment_meets_box(a, b, lb, reach) {
        return Vec::new();
    }
    let mut ts: Vec<f32> = line.windows(2).filter_map(|w| meet(a, b, w[0], w[1])).collect();
    sort_dedup(&mut ts);
    ts
}

fn sort_dedup(ts: &mut Vec<f32>) {
    ts.sort_by(f32::total_cmp);
    ts.dedup_by(|x, y| (*x - *y).abs() < T_SLACK);
}

/// The stretches of `a`–`b` strictly inside a polygon, as `(t0, t1)`.
/// A line along an edge or through a corner is not inside.
fn inside_spans(poly: &[Point], a: Point, b: Point) -> Vec<(f32, f32)> {
    // Every stretch tested is of the line itself: none is inside a polygon
    // whose box it misses.
    let pb = bounds(poly);
    if !boxes_meet(pb, bounds(&[a, b]), BOUNDARY_SLACK) || !segment_meets_box(a, b, pb, BOUNDARY_SLACK) {
        return Vec::new();
    }
    let mut ts = vec![0.0, 1.0];
    ts.extend(edges(poly).filter_map(|(c, d)| meet(a, b, c, d)));
    sort_dedup(&mut ts);
    let mut out: Vec<(f32, f32)> = Vec::new();
    for w in ts.windows(2) {
        let m = lerp(a, b, (w[0] + w[1]) / 2.0);
        if inside(poly, m) && !on_boundary(poly, m) {
            match out.last_mut() {
                Some(last) if (last.1 - w[0]).abs() < T_SLACK => last.1 = w[1],
                _ => out.push((w[0], w[1])),
            }
        }
    }
    out
}

/// Whether the segment `a`–`b` runs through the area `poly` or ends inside
/// it (its outline only touched is not through it).
pub fn crosses_area(poly: &[Point], a: Point, b: Point) -> bool {
    inside(poly, a) || inside(poly, b) || !inside_spans(poly, a, b).is_empty()
}

/// Shortest distance from `p` to a polyline.
fn distance_to_line(p: Point, line: &[Point]) -> f32 {
    line.windows(2).map(|w| distance_to_segment(p, w[0], w[1]).get()).fold(f32::INFINITY, f32::min)
}

/// Where along `a`–`b` it enters and leaves the band within `r` of `c`–`d`
/// (a capsule). The band is convex, so its meeting with a line is one span.
fn capsule_span(a: Point, b: Point, c: Point, d: Point, r: f32) -> Option<(f32, f32)> {
    let (ux, uy) = (d.0 - c.0, d.1 - c.1);
    let len = ux.hypot(uy);
    let mut lo = f32::INFINITY;
    let mut hi = f32::NEG_INFINITY;
    let mut take = |s: Option<(f32, f32)>| {
        if let Some((s0, s1)) = s {
            lo = lo.min(s0);
            hi = hi.max(s1);
        }
    };
    // The two end discs.
    for centre in [c, d] {
        take(disc_span(a, b, centre, r));
    }
    // The rectangle along the segment, in its own coordinates (u along, v across).
    if len > 0.0 {
        let (ex, ey) = (ux / len, uy / len);
        let local = |p: Point| ((p.0 - c.0) * ex + (p.1 - c.1) * ey, -(p.0 - c.0) * ey + (p.1 - c.1) * ex);
        let (u0, v0) = local(a);
        let (u1, v1) = local(b);
        let mut span = Some((0.0_f32, 1.0_f32));
        for (p0, dp, min, max) in [(u0, u1 - u0, 0.0, len), (v0, v1 - v0, -r, r)] {
            span = span.and_then(|(s0, s1)| clip(p0, dp, min, max, s0, s1));
        }
        take(span);
    }
    (lo <= hi).then_some((lo.max(0.0), hi.min(1.0))).filter(|(s0, s1)| s1 > s0)
}

/// Liang–Barsky clip of `p0 + t dp` to `min..=max` within `s0..=s1`.
fn clip(p0: f32, dp: f32, min: f32, max: f32, s0: f32, s1: f32) -> Option<(f32, f32)> {
    if dp.abs() < 1e-9 {
        return (min..=max).contains(&p0).then_some((s0, s1));
    }
    let (ta, tb) = ((min - p0) / dp, (max - p0) / dp);
    let (t0, t1) = (ta.min(tb).max(s0), ta.max(tb).min(s1));
    (t0 <= t1).then_some((t0, t1))
}

/// Where the 3 smokeballs stand for a round fired from `from` that hits
/// `spot`. Reading: "place 3 x 1 inch smokeballs on this spot" lays them
/// touching in a row across the line of fire, the middle one on the
/// spot: a screen 3 inches wide (test `smoke_blocks_a_line_through_its_balls`).
pub fn smokeballs(spot: Point, from: Point) -> [Point; 3] {
    let (dx, dy) = (spot.0 - from.0, spot.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt();
    // Across the line of fire; along the table's width when fired on the spot.
    let (ax, ay) = if len > 0.0 { (-dy / len, dx / len) } else { (1.0, 0.0) };
    let step = SmokeScreen::BALL_INCHES;
    [Point(spot.0 - ax * step, spot.1 - ay * step), spot, Point(spot.0 + ax * step, spot.1 + ay * step)]
}

/// Whether a smokeball among `balls` hides `b` from `a`: the line
/// between them runs through one, or starts or ends inside one. Reading:
/// smoke blocks sight through it and into or out of it, at any height
/// (test `smoke_blocks_a_line_through_its_balls`).
pub fn smoke_hides(balls: &[Point], a: Point, b: Point) -> bool {
    balls.iter().any(|&c| crosses_disc(a, b, c, SmokeScreen::BALL_INCHES / 2.0))
}

/// Whether the segment from `a` to `b` meets the disc of radius `r` round `centre`.
pub fn crosses_disc(a: Point, b: Point, centre: Point, r: f32) -> bool {
    disc_span(a, b, centre, r).is_some()
}

fn disc_span(a: Point, b: Point, centre: Point, r: f32) -> Option<(f32, f32)> {
    let (dx, dy, fx, fy) = (b.0 - a.0, b.1 - a.1, a.0 - centre.0, a.1 - centre.1);
    let qa = dx * dx + dy * dy;
    let qb = 2.0 * (fx * dx + fy * dy);
    let qc = fx * fx + fy * fy - r * r;
    if qa == 0.0 {
        return (qc <= 0.0).then_some((0.0, 1.0));
    }
    let disc = qb * qb - 4.0 * qa * qc;
    if disc < 0.0 {
        return None;
    }
    let root = disc.sqrt();
    let (t0, t1) = ((-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa));
    (t1 >= 0.0 && t0 <= 1.0).then_some((t0.max(0.0), t1.min(1.0)))
}

/// The hill level at `p` and the hill giving it. A point on a contour stands
/// on that level; with `strict`, only ground inside the contour counts.
fn level_at(terrain: &Terrain, p: Point, strict: bool) -> (u8, Option<usize>) {
    Hills::of(terrain).level_at(p, strict)
}

/// The hill level of the ground at `p` (0 off every hill; a point on a contour
/// line stands on that level).
pub fn hill_level(terrain: &Terrain, p: Point) -> u8 {
    level_at(terrain, p, false).0
}

/// A table's contours, each with its hill (feature index) and its box,
/// drawn up once for the many points along a line.
struct Hills<'a>(Vec<(usize, &'a crate::terrain::HillLevel, (Point, Point))>);

impl<'a> Hills<'a> {
    fn of(terrain: &'a Terrain) -> Self {
        let mut contours = Vec::new();
        for (i, f) in terrain.features.iter().enumerate() {
            if let Feature::Hill { levels } = f {
                contours.extend(levels.iter().map(|l| (i, l, bounds(&l.outline))));
            }
        }
        Self(contours)
    }

    /// [`level_at`] over these contours.
    fn level_at(&self, p: Point, strict: bool) -> (u8, Option<usize>) {
        let mut best = (0, None);
        for &(i, l, bx) in &self.0 {
            if l.level <= best.0 || !boxes_meet(bx, (p, p), BOUNDARY_SLACK) {
                continue;
            }
            let on = inside(&l.outline, p) && !on_boundary(&l.outline, p);
            if on || (!strict && on_boundary(&l.outline, p)) {
                best = (l.level, Some(i));
            }
        }
        best
    }

    fn hill_level(&self, p: Point) -> u8 {
        self.level_at(p, false).0
    }
}

/// Whether the segment `a`–`b` comes near a building's footprint: where it
/// does not, [`building_at`] finds none at any point along it.
pub fn passes_a_building(terrain: &Terrain, a: Point, b: Point) -> bool {
    terrain.features.iter().any(
        |f| matches!(f, Feature::Building { outline, .. } if segment_meets_box(a, b, bounds(outline), BOUNDARY_SLACK)),
    )
}

/// The building whose footprint holds `p` (outline included): its index and storeys.
pub fn building_at(terrain: &Terrain, p: Point) -> Option<(usize, u8)> {
    terrain.features.iter().enumerate().find_map(|(i, f)| match f {
        Feature::Building { outline, storeys, .. } if in_or_on(outline, p) => Some((i, *storeys)),
        _ => None,
    })
}

/// How far along the straight line `a`–`b` it first enters the strip a
/// bridge or ford spans (its length, its width across); `None` if it never
/// does.
pub fn span_entered_at(span: &Span, a: Point, b: Point) -> Option<Inches> {
    let len = distance(span.from, span.to).get();
    if len <= f32::EPSILON {
        return None;
    }
    let half = span.width / 2.0;
    let n = ((span.from.1 - span.to.1) / len * half, (span.to.0 - span.from.0) / len * half);
    let strip = [
        Point(span.from.0 + n.0, span.from.1 + n.1),
        Point(span.to.0 + n.0, span.to.1 + n.1),
        Point(span.to.0 - n.0, span.to.1 - n.1),
        Point(span.from.0 - n.0, span.from.1 - n.1),
    ];
    inside_spans(&strip, a, b).first().map(|&(t0, _)| Inches(t0 * distance(a, b).get()))
}

/// The intact building (not a ruin) `p` stands in, and its storeys.
pub fn intact_building_at(terrain: &Terrain, p: Point) -> Option<(usize, u8)> {
    building_at(terrain, p)
        .filter(|&(i, _)| !matches!(terrain.features.get(i), Some(Feature::Building { ruined: true, .. })))
}

/// How deep into a wood `p` stands: inches to the nearest edge of the wood
/// that holds it (the deepest, where woods overlap), 0 outside every wood
/// (*Heroes All*, Indirect Fire: crews "cannot fire if they are more than 3
/// inches into a wood").
pub fn depth_in_wood(terrain: &Terrain, p: Point) -> Inches {
    terrain
        .features
        .iter()
        .filter_map(|f| match f {
            Feature::Wood { outline, .. } if inside(outline, p) => Some(
                edges(outline)
                    .map(|(a, b)| distance_to_segment(p, a, b))
                    .fold(Inches(f32::MAX), |m, d| if d < m { d } else { m }),
            ),
            _ => None,
        })
        .fold(Inches::ZERO, |m, d| if d > m { d } else { m })
}

/// Bad input to a measurement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GeometryError {
    /// A point or height that is not a finite number (the field named).
    NotFinite(&'static str),
    /// A negative height or reach (the field named).
    Negative(&'static str),
    /// Above the ground floor but not in a building.
    StoreyWithoutBuilding { storey: u8 },
    /// Storeys count from 0 (the ground floor) up to the building's storeys − 1.
    StoreyAboveRoof { storey: u8, storeys: u8 },
    /// A path needs at least 2 points.
    ShortPath,
}

impl fmt::Display for GeometryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFinite(what) => write!(f, "{what} is not a number"),
            Self::Negative(what) => write!(f, "{what} must not be negative"),
            Self::StoreyWithoutBuilding { storey } => write!(f, "storey {storey} is not inside a building"),
            Self::StoreyAboveRoof { storey, storeys } => {
                write!(f, "storey {storey} is above a building of {storeys} storeys (ground floor is 0)")
            }
            Self::ShortPath => write!(f, "a path needs at least 2 points"),
        }
    }
}

impl std::error::Error for GeometryError {}

/// Where an observer or target is, and how high.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Viewpoint {
    pub at: Point,
    /// The storey of the building it is in: 0 for the ground floor or outside.
    pub storey: u8,
    /// Eye height of an observer, or top of a target, above its floor, inches
    /// ([`FIGURE_HEIGHT`] for a figure; a vehicle's height for a vehicle).
    pub height: f32,
    /// Inches around `at` within which it is in contact with an obstacle (its base).
    pub reach: f32,
}

impl Viewpoint {
    /// A figure on the ground at `at`, with a 1/2" reach (a base about an inch across).
    pub const fn figure(at: Point) -> Self {
        Self { at, storey: 0, height: FIGURE_HEIGHT, reach: 0.5 }
    }

    fn check(&self, terrain: &Terrain, what: &'static str) -> Result<(), GeometryError> {
        if ![self.at.0, self.at.1, self.height, self.reach].iter().all(|v| v.is_finite()) {
            return Err(GeometryError::NotFinite(what));
        }
        if self.height < 0.0 || self.reach < 0.0 {
            return Err(GeometryError::Negative(what));
        }
        if self.storey > 0 {
            match building_at(terrain, self.at) {
                None => return Err(GeometryError::StoreyWithoutBuilding { storey: self.storey }),
                Some((_, storeys)) if self.storey >= storeys => {
                    return Err(GeometryError::StoreyAboveRoof { storey: self.storey, storeys });
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// Height above the table, inches, over the table's `hills`.
    fn top(&self, hills: &Hills) -> f32 {
        f32::from(hills.hill_level(self.at)) * HILL_LEVEL_HEIGHT + f32::from(self.storey) * STOREY_HEIGHT + self.height
    }
}

/// One thing met along the line of sight, for the log.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seen {
    /// Inches of wood crossed.
    Wood { density: WoodDensity, inches: f32 },
    /// A wall or hedge counted as a segment.
    Obstacle { kind: ObstacleKind, height: ObstacleHeight },
    /// A wall or hedge the observer is in contact with: ignored.
    ObstacleTouching { kind: ObstacleKind, height: ObstacleHeight },
    /// A high wall or hedge higher than the target, across the line: no sight.
    ObstacleBlocks { kind: ObstacleKind },
    /// A building across the line below its roof: no sight.
    BuildingBlocks,
    /// A hill level rising above the line: no sight.
    CrestBlocks { level: u8 },
    /// The observer's height above the target.
    Height { hill_levels: u8, storeys: u8 },
}

impl Seen {
    /// The rule behind the line (*Heroes All*, Observation).
    pub const fn reason(&self) -> &'static str {
        match self {
            Self::Wood { density: WoodDensity::Sparse, .. } => {
                "4 inches of sparse woods is 1 segment; more blocks sight"
            }
            Self::Wood { density: WoodDensity::Dense, .. } => "2 inches of dense woods is 1 segment; more blocks sight",
            Self::Obstacle { .. } => "a wall, hedge or similar obstacle is 1 segment",
            Self::ObstacleTouching { .. } => "observers ignore any obstacle that they are in contact with",
            Self::ObstacleBlocks { .. } => "any wall or solid obstacle higher than the target is a sight-blocker",
            Self::BuildingBlocks => "there must be a line of sight: a building blocks it",
            Self::CrestBlocks { .. } => "there must be a line of sight: the hill rises above it",
            Self::Height { .. } => "extra height: 1 segment per level of hills and per storey of a building",
        }
    }
}

/// One entry of the trace: what, which feature, how far from the observer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Note {
    pub feature: Option<usize>,
    /// Inches from the observer where it starts.
    pub at: f32,
    pub seen: Seen,
}

/// What lies between observer and target, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct SightLine {
    pub between: Between,
    pub trace: Vec<Note>,
}

/// Measures everything [`Between`] needs from `observer` to `target`.
/// `all_in_turrets` is passed through (every observer in an AFV turret).
///
/// Woods count the inches of the line inside them; walls and hedges count
/// once per crossing, those within the observer's reach ignored; high ones
/// higher than the target and above the line block; buildings block where the
/// line passes below their roof, except the one the observer or target is in
/// where the line leaves it; hill ground above the line blocks.
pub fn sight_line(
    terrain: &Terrain,
    observer: Viewpoint,
    target: Viewpoint,
    all_in_turrets: bool,
) -> Result<SightLine, GeometryError> {
    observer.check(terrain, "observer")?;
    target.check(terrain, "target")?;
    let (a, b) = (observer.at, target.at);
    let d = distance(a, b).get();
    let hills = Hills::of(terrain);
    let (za, zb) = (observer.top(&hills), target.top(&hills));
    let z = |t: f32| za + (zb - za) * t;
    // The lowest the line runs over a span (it is straight).
    let low = |t0: f32, t1: f32| z(t0).min(z(t1));
    let mut between = Between { distance: Inches(d), all_in_turrets, ..Between::default() };
    let mut trace = Vec::new();
    let own = |p: Point| building_at(terrain, p).map(|(i, _)| i);
    let (in_a, in_b) = (own(a), own(b));

    for (i, f) in terrain.features.iter().enumerate() {
        let note = |t: f32, seen| Note { feature: Some(i), at: t * d, seen };
        match f {
            Feature::Wood { density, outline } => {
                for (t0, t1) in inside_spans(outline, a, b) {
                    let inches = (t1 - t0) * d;
                    match density {
                        WoodDensity::Sparse => between.sparse_wood += inches,
                        WoodDensity::Dense => between.dense_wood += inches,
                    }
                    trace.push(note(t0, Seen::Wood { density: *density, inches }));
                }
            }
            Feature::Obstacle { kind, height, line } => {
                for t in crossings(a, b, line) {
                    if t * d <= observer.reach {
                        between.obstacles_touching_observer += 1;
                        trace.push(note(t, Seen::ObstacleTouching { kind: *kind, height: *height }));
                        continue;
                    }
                    let ground = f32::from(hills.hill_level(lerp(a, b, t))) * HILL_LEVEL_HEIGHT;
                    let top = ground
                        + match height {
                            ObstacleHeight::Low => LOW_OBSTACLE_HEIGHT,
                            ObstacleHeight::High => HIGH_OBSTACLE_HEIGHT,
                        };
                    if *height == ObstacleHeight::High && top > zb + HEIGHT_SLACK && top > z(t) + HEIGHT_SLACK {
                        between.sight_blocked = true;
                        trace.push(note(t, Seen::ObstacleBlocks { kind: *kind }));
                    } else {
                        between.obstacles = between.obstacles.saturating_add(1);
                        trace.push(note(t, Seen::Obstacle { kind: *kind, height: *height }));
                    }
                }
            }
            Feature::Building { outline, storeys, ruined, .. } => {
                for (t0, t1) in inside_spans(outline, a, b) {
                    if (t0 < T_SLACK && in_a == Some(i)) || (t1 > 1.0 - T_SLACK && in_b == Some(i)) {
                        continue;
                    }
                    if *ruined {
                        // Reading (*Heroes All*, "Buildings": "treat it as a
                        // ruin and hard cover"): a ruin's broken walls are a
                        // low wall across the line, 1 segment, no longer a
                        // sight-blocker.
                        between.obstacles = between.obstacles.saturating_add(1);
                        trace.push(note(t0, Seen::Obstacle { kind: ObstacleKind::Wall, height: ObstacleHeight::Low }));
                        continue;
                    }
                    let ground = f32::from(hills.hill_level(lerp(a, b, (t0 + t1) / 2.0))) * HILL_LEVEL_HEIGHT;
                    if ground + f32::from(*storeys) * STOREY_HEIGHT > low(t0, t1) + HEIGHT_SLACK {
                        between.sight_blocked = true;
                        trace.push(note(t0, Seen::BuildingBlocks));
                    }
                }
            }
            _ => {}
        }
    }

    // Hill crests: between contour crossings the ground is flat at one level.
    let mut ts = vec![0.0, 1.0];
    for &(_, l, _) in hills.0.iter().filter(|(_, _, bx)| may_meet_edges(a, b, *bx)) {
        ts.extend(edges(&l.outline).filter_map(|(c, e)| meet(a, b, c, e)));
    }
    sort_dedup(&mut ts);
    for w in ts.windows(2) {
        let (level, hill) = hills.level_at(lerp(a, b, (w[0] + w[1]) / 2.0), true);
        if f32::from(level) * HILL_LEVEL_HEIGHT > low(w[0], w[1]) + HEIGHT_SLACK {
            between.sight_blocked = true;
            trace.push(Note { feature: hill, at: w[0] * d, seen: Seen::CrestBlocks { level } });
        }
    }

    let hill_levels = hills.hill_level(a).saturating_sub(hills.hill_level(b));
    let storeys = observer.storey.saturating_sub(target.storey);
    between.hill_levels = hill_levels;
    between.storeys = storeys;
    if hill_levels > 0 || storeys > 0 {
        trace.push(Note { feature: None, at: 0.0, seen: Seen::Height { hill_levels, storeys } });
    }
    trace.sort_by(|x, y| x.at.total_cmp(&y.at));
    Ok(SightLine { between, trace })
}

/// Where the `reach` inches from `from` towards `toward` first meet a line of
/// wire or a wall ([`crate::terrain::gappable`]) that has no gap there yet.
pub fn first_gappable(terrain: &Terrain, from: Point, toward: Point, reach: f32) -> Option<crate::terrain::Gap> {
    let len = distance(from, toward).get();
    if len <= 0.0 || !len.is_finite() {
        return None;
    }
    let end = lerp(from, toward, reach / len);
    terrain
        .features
        .iter()
        .enumerate()
        .filter_map(|(fi, f)| crate::terrain::gappable(f).map(|line| (fi, line)))
        .flat_map(|(fi, line)| crossings(from, end, line).into_iter().map(move |t| (t, fi)))
        .map(|(t, fi)| (t, crate::terrain::Gap { feature: fi, at: lerp(from, end, t) }))
        .filter(|(_, g)| !terrain.gapped(g.feature, g.at))
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, g)| g)
}

/// An engineering obstacle a path meets (*Heroes All*, "Mines", "Engineers").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HazardKind {
    Minefield,
    Wire,
    Roadblock,
}

/// Where along a path it meets a minefield, wire or roadblock.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Hazard {
    pub feature: usize,
    pub kind: HazardKind,
    /// Inches along the path.
    pub at: f32,
}

/// A path split for [`crate::movement`]: its stretches in order, and the
/// hazards met (the Movement Table has no row for them; the mines and
/// engineers rules take them).
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub stretches: Vec<Stretch>,
    pub hazards: Vec<Hazard>,
}

fn in_span(p: Point, s: &Span) -> bool {
    distance_to_segment(p, s.from, s.to) < s.width / 2.0
}

/// The ground at `p` for movement. Water first (a bridge carries a road, a
/// ford is a ford), then buildings, metalled roads, marsh, woods, rough ground.
fn ground_at(terrain: &Terrain, p: Point) -> Ground {
    let mut best = Ground::Open;
    let mut rank = 0;
    let mut set = |g: Ground, r: u8| {
        if r > rank {
            (best, rank) = (g, r);
        }
    };
    for f in &terrain.features {
        match f {
            Feature::River { kind, line, width, bridges, fords } if distance_to_line(p, line) < width / 2.0 => {
                let g = if bridges.iter().any(|b| in_span(p, &b.span)) {
                    Ground::Road
                } else if let Some(ford) = fords.iter().find(|f| in_span(p, &f.span)) {
                    Ground::Ford(ford.condition)
                } else {
                    match kind {
                        RiverKind::Stream => Ground::Stream,
                        RiverKind::Small => Ground::SmallRiver,
                        RiverKind::Wide => Ground::WideRiver,
                    }
                };
                set(g, 7);
            }
            Feature::Building { outline, .. } if strictly_in(outline, p) => {
                set(Ground::BuiltUp, 6);
            }
            Feature::Road { kind: RoadKind::Metalled, line, width } if distance_to_line(p, line) < width / 2.0 => {
                set(Ground::Road, 5);
            }
            Feature::Marsh { outline } if inside(outline, p) => set(Ground::Marsh, 4),
            Feature::Wood { density: WoodDensity::Dense, outline } if inside(outline, p) => {
                set(Ground::DenseWoodland, 3);
            }
            Feature::Wood { density: WoodDensity::Sparse, outline } if inside(outline, p) => {
                set(Ground::LightWoodland, 2);
            }
            Feature::RoughGround { outline } if inside(outline, p) => set(Ground::RoughGround, 1),
            _ => {}
        }
    }
    best
}

/// The hazard area holding `p`, if any.
fn hazards_at(terrain: &Terrain, p: Point) -> impl Iterator<Item = (usize, HazardKind)> + '_ {
    terrain.features.iter().enumerate().filter_map(move |(i, f)| {
        let (kind, outline) = match f {
            Feature::Minefield { outline, .. } => (HazardKind::Minefield, outline),
            Feature::Wire(Extent::Area(outline)) => (HazardKind::Wire, outline),
            Feature::Roadblock(Extent::Area(outline)) => (HazardKind::Roadblock, outline),
            _ => return None,
        };
        inside(outline, p).then_some((i, kind))
    })
}

/// Adds a stretch, merging it into the last one of the same ground.
fn push(stretches: &mut Vec<Stretch>, s: Stretch) {
    match stretches.last_mut() {
        Some(last) if last.length > 0.0 && s.length > 0.0 && last.terrain == s.terrain && last.uphill == s.uphill => {
            last.length += s.length;
        }
        _ => stretches.push(s),
    }
}

/// Splits a path (a polyline of the element's moves) into the stretches of
/// ground [`crate::movement::plan`] takes: areas by where the path runs,
/// walls and hedges as 0-inch stretches where it crosses them, a stretch
/// `uphill` where the path has just climbed a contour. Consecutive pieces of
/// the same ground merge.
pub fn route(terrain: &Terrain, path: &[Point]) -> Result<Route, GeometryError> {
    if path.len() < 2 {
        return Err(GeometryError::ShortPath);
    }
    if path.iter().any(|p| !(p.0.is_finite() && p.1.is_finite())) {
        return Err(GeometryError::NotFinite("path"));
    }
    let mut stretches: Vec<Stretch> = Vec::new();
    let mut hazards: Vec<Hazard> = Vec::new();
    let mut along = 0.0;
    let hills = Hills::of(terrain);
    let mut level = hills.hill_level(path[0]);
    let mut in_hazard: Vec<usize> = hazards_at(terrain, path[0]).map(|(i, _)| i).collect();
    for (i, kind) in hazards_at(terrain, path[0]) {
        hazards.push(Hazard { feature: i, kind, at: 0.0 });
    }
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = distance(a, b).get();
        let mut ts = vec![0.0, 1.0];
        // Linear crossings: (t, feature, what it is).
        let mut lines: Vec<(f32, usize, Option<Ground>, Option<HazardKind>)> = Vec::new();
        for (fi, f) in terrain.features.iter().enumerate() {
            let area = match f {
                Feature::Wood { outline, .. }
                | Feature::Marsh { outline }
                | Feature::RoughGround { outline }
                | Feature::Minefield { outline, .. }
                | Feature::Building { outline, .. }
                | Feature::Wire(Extent::Area(outline))
                | Feature::Roadblock(Extent::Area(outline)) => Some(outline),
                _ => None,
            };
            if let Some(outline) = area.filter(|o| may_meet_edges(a, b, bounds(o))) {
                ts.extend(edges(outline).filter_map(|(c, d)| meet(a, b, c, d)));
            }
            match f {
                Feature::Hill { levels } => {
                    for l in levels.iter().filter(|l| may_meet_edges(a, b, bounds(&l.outline))) {
                        ts.extend(edges(&l.outline).filter_map(|(c, d)| meet(a, b, c, d)));
                    }
                }
                Feature::Road { line, width, .. } | Feature::River { line, width, .. } => {
                    for s in line.windows(2) {
                        if let Some((t0, t1)) = capsule_span(a, b, s[0], s[1], width / 2.0) {
                            ts.extend([t0, t1]);
                        }
                    }
                    if let Feature::River { bridges, fords, .. } = f {
                        for s in bridges.iter().map(|b| &b.span).chain(fords.iter().map(|f| &f.span)) {
                            if let Some((t0, t1)) = capsule_span(a, b, s.from, s.to, s.width / 2.0) {
                                ts.extend([t0, t1]);
                            }
                        }
                    }
                }
                Feature::Obstacle { kind, height, line } => {
                    // "Low walls*, hedges … No penalty; High walls* … −1 pip":
                    // the book gives hedges no height, so a high hedge is a hedge.
                    let g = match (kind, height) {
                        (ObstacleKind::Hedge, _) => Ground::Hedge,
                        (ObstacleKind::Wall, ObstacleHeight::Low) => Ground::LowWall,
                        (ObstacleKind::Wall, ObstacleHeight::High) => Ground::HighWall,
                    };
                    let through = |t: &f32| terrain.gapped(fi, lerp(a, b, *t));
                    lines.extend(
                        crossings(a, b, line).into_iter().filter(|t| !through(t)).map(|t| (t, fi, Some(g), None)),
                    );
                }
                Feature::Wire(Extent::Line(line)) => {
                    let (g, h) = (Some(Ground::Wire), Some(HazardKind::Wire));
                    let through = |t: &f32| terrain.gapped(fi, lerp(a, b, *t));
                    lines.extend(crossings(a, b, line).into_iter().filter(|t| !through(t)).map(|t| (t, fi, g, h)));
                }
                Feature::Roadblock(Extent::Line(line)) => {
                    let h = Some(HazardKind::Roadblock);
                    lines.extend(crossings(a, b, line).into_iter().map(|t| (t, fi, None, h)));
                }
                _ => {}
            }
        }
        // A wall crossed exactly at a bend of the path was met on the leg before.
        if along > 0.0 {
            lines.retain(|l| l.0 > T_SLACK);
        }
        ts.extend(lines.iter().map(|l| l.0));
        sort_dedup(&mut ts);
        lines.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut next_line = 0;
        for span in ts.windows(2) {
            let (t0, t1) = (span[0], span[1]);
            while next_line < lines.len() && lines[next_line].0 <= t0 + T_SLACK {
                let (t, fi, g, h) = lines[next_line];
                if let Some(g) = g {
                    push(&mut stretches, Stretch::new(g, 0.0));
                }
                if let Some(kind) = h {
                    hazards.push(Hazard { feature: fi, kind, at: along + t * len });
                }
                next_line += 1;
            }
            if t1 - t0 < T_SLACK {
                continue;
            }
            let m = lerp(a, b, (t0 + t1) / 2.0);
            let here = hills.hill_level(m);
            let uphill = here > level;
            level = here;
            let mut s = Stretch::new(ground_at(terrain, m), (t1 - t0) * len);
            s.uphill = uphill;
            push(&mut stretches, s);
            let now: Vec<(usize, HazardKind)> = hazards_at(terrain, m).collect();
            for &(fi, kind) in &now {
                if !in_hazard.contains(&fi) {
                    hazards.push(Hazard { feature: fi, kind, at: along + t0 * len });
                }
            }
            in_hazard = now.into_iter().map(|(fi, _)| fi).collect();
        }
        for &(t, fi, g, h) in &lines[next_line..] {
            if let Some(g) = g {
                push(&mut stretches, Stretch::new(g, 0.0));
            }
            if let Some(kind) = h {
                hazards.push(Hazard { feature: fi, kind, at: along + t * len });
            }
        }
        along += len;
    }
    Ok(Route { stretches, hazards })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoke_blocks_a_line_through_its_balls() {
        // Fired from the south at (10, 10): a row across the line of fire, 1 inch apart.
        let balls = smokeballs(Point(10.0, 10.0), Point(10.0, 0.0));
        assert_eq!(balls[1], Point(10.0, 10.0));
        assert!((balls[0].0 - 11.0).abs() < 1e-5 || (balls[0].0 - 9.0).abs() < 1e-5);
        assert!(balls.iter().all(|b| (b.1 - 10.0).abs() < 1e-5));
        // A line straight through the screen, one through its outer ball, and one past it.
        assert!(smoke_hides(&balls, Point(10.0, 0.0), Point(10.0, 20.0)));
        assert!(smoke_hides(&balls, Point(11.3, 0.0), Point(11.3, 20.0)));
        assert!(!smoke_hides(&balls, Point(12.0, 0.0), Point(12.0, 20.0)));
        // Into the smoke and out of it.
        assert!(smoke_hides(&balls, Point(0.0, 10.0), Point(10.2, 10.0)));
        assert!(smoke_hides(&balls, Point(10.0, 10.0), Point(30.0, 30.0)));
        // A line that stops short of it.
        assert!(!smoke_hides(&balls, Point(10.0, 0.0), Point(10.0, 9.0)));
    }

    use crate::buildings::{BridgeType, Structure};
    use crate::movement::FordCondition;
    use crate::observation::{
        ObservationTest, ObserverClass, ObserverState, Segment, Sight, TargetClass, TargetState, Unseeable, assess,
    };
    use crate::terrain::TableSize;
    use crate::terrain::{Ford, HillLevel, RiverBridge};

    fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Vec<Point> {
        vec![Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)]
    }

    fn terrain(features: Vec<Feature>) -> Terrain {
        let t = Terrain { features, gaps: Vec::new() };
        t.validate(TableSize::default()).expect("test terrain is valid");
        t
    }

    fn wood(density: WoodDensity, outline: Vec<Point>) -> Feature {
        Feature::Wood { density, outline }
    }

    fn hedge(x: f32) -> Feature {
        Feature::Obstacle {
            kind: ObstacleKind::Hedge,
            height: ObstacleHeight::Low,
            line: vec![Point(x, 0.0), Point(x, 48.0)],
        }
    }

    fn wall(height: ObstacleHeight, x: f32) -> Feature {
        Feature::Obstacle { kind: ObstacleKind::Wall, height, line: vec![Point(x, 0.0), Point(x, 48.0)] }
    }

    fn house(outline: Vec<Point>, storeys: u8) -> Feature {
        Feature::Building {
            outline,
            structure: Structure::House,
            storeys,
            capacity: None,
            defence: None,
            ruined: false,
        }
    }

    fn hill(contours: Vec<Vec<Point>>) -> Feature {
        Feature::Hill {
            levels: contours
                .into_iter()
                .enumerate()
                .map(|(i, outline)| HillLevel { level: i as u8 + 1, outline })
                .collect(),
        }
    }

    fn look(t: &Terrain, from: Point, to: Point) -> SightLine {
        sight_line(t, Viewpoint::figure(from), Viewpoint::figure(to), false).unwrap()
    }

    #[test]
    fn a_ruin_no_longer_hides() {
        // Heroes All, "Buildings": "When any building is destroyed, treat it
        // as a ruin and hard cover." An intact house between two figures
        // blocks the line; its ruin is a low wall across it, and no longer an
        // intact building to stand in.
        let mut t = terrain(vec![house(rect(20.0, 10.0, 26.0, 30.0), 1)]);
        let (from, to) = (Point(10.0, 20.0), Point(40.0, 20.0));
        assert!(look(&t, from, to).between.sight_blocked);
        assert!(intact_building_at(&t, Point(23.0, 20.0)).is_some());
        if let Feature::Building { ruined, .. } = &mut t.features[0] {
            *ruined = true;
        }
        let through = look(&t, from, to).between;
        assert!(!through.sight_blocked, "a ruin does not block sight");
        assert_eq!(through.obstacles, 1, "its walls are one segment");
        assert!(building_at(&t, Point(23.0, 20.0)).is_some(), "still a building's ground: hard cover");
        assert_eq!(intact_building_at(&t, Point(23.0, 20.0)), None);
        assert!(!look(&t, Point(23.0, 20.0), to).between.sight_blocked, "from inside the ruin");
    }

    #[test]
    fn a_line_enters_a_bridge_at_its_end() {
        let span = Span { from: Point(36.0, 18.0), to: Point(36.0, 26.0), width: 3.0 };
        let d = span_entered_at(&span, Point(36.0, 10.0), Point(36.0, 40.0)).unwrap();
        assert!((d.get() - 8.0).abs() < 1e-3, "{d:?}");
        assert_eq!(span_entered_at(&span, Point(30.0, 10.0), Point(30.0, 40.0)), None, "beside the bridge");
        assert_eq!(span_entered_at(&span, Point(36.0, 10.0), Point(36.0, 16.0)), None, "short of it");
    }

    #[test]
    fn distance_is_measured_flat() {
        assert_eq!(distance(Point(0.0, 0.0), Point(3.0, 4.0)), 5.0);
        assert_eq!(look(&Terrain::default(), Point(1.0, 1.0), Point(1.0, 31.0)).between.distance, 30.0);
    }

    #[test]
    fn a_wood_six_inches_across_the_line_gives_six_inches_of_wood() {
        let t = terrain(vec![wood(WoodDensity::Sparse, rect(20.0, 0.0, 26.0, 48.0))]);
        let s = look(&t, Point(10.0, 20.0), Point(40.0, 20.0));
        assert!((s.between.sparse_wood - 6.0).abs() < 1e-4, "{}", s.between.sparse_wood);
        assert_eq!(s.between.dense_wood, 0.0);
        assert_eq!(s.trace.len(), 1);
        assert_eq!(s.trace[0].feature, Some(0));
        assert!((s.trace[0].at - 10.0).abs() < 1e-4, "the wood starts 10\" from the observer");
        // Across at 45 degrees the same wood is 6√2 inches.
        let slant = look(&t, Point(10.0, 10.0), Point(40.0, 40.0));
        assert!((slant.between.sparse_wood - 6.0 * 2f32.sqrt()).abs() < 1e-3);
    }

    #[test]
    fn dense_wood_over_two_inches_blocks_through_the_observation_rule() {
        let t = terrain(vec![wood(WoodDensity::Dense, rect(20.0, 10.0, 23.0, 30.0))]);
        let between = look(&t, Point(10.0, 20.0), Point(30.0, 20.0)).between;
        assert!((between.dense_wood - 3.0).abs() < 1e-4);
        let test = ObservationTest {
            observers: &[(ObserverClass::Figure, 1)],
            targets: &[(TargetClass::Figure, 1)],
            between,
            observer: ObserverState::default(),
            target: TargetState::default(),
            night: false,
        };
        assert_eq!(assess(&test).unwrap().sight, Sight::Unseeable(Unseeable::WoodsBlock));
    }

    #[test]
    fn a_line_grazing_a_wood_edge_or_corner_crosses_none() {
        let t = terrain(vec![wood(WoodDensity::Dense, rect(20.0, 20.0, 30.0, 30.0))]);
        assert_eq!(look(&t, Point(10.0, 20.0), Point(40.0, 20.0)).between.dense_wood, 0.0, "along an edge");
        assert_eq!(look(&t, Point(10.0, 30.0), Point(30.0, 10.0)).between.dense_wood, 0.0, "through a corner");
        assert!(look(&t, Point(10.0, 20.1), Point(40.0, 20.1)).between.dense_wood > 9.9, "just inside");
    }

    #[test]
    fn a_building_between_blocks_sight_and_one_aside_does_not() {
        let t = terrain(vec![house(rect(20.0, 15.0, 24.0, 19.0), 2)]);
        let blocked = look(&t, Point(10.0, 17.0), Point(35.0, 17.0));
        assert!(blocked.between.sight_blocked);
        assert_eq!(blocked.trace[0].seen, Seen::BuildingBlocks);
        assert!(!look(&t, Point(10.0, 25.0), Point(35.0, 25.0)).between.sight_blocked);
    }

    #[test]
    fn occupants_see_out_of_their_own_building() {
        let t = terrain(vec![house(rect(20.0, 15.0, 24.0, 19.0), 2)]);
        let inside = Viewpoint { storey: 1, ..Viewpoint::figure(Point(22.0, 17.0)) };
        let s = sight_line(&t, inside, Viewpoint::figure(Point(40.0, 17.0)), false).unwrap();
        assert!(!s.between.sight_blocked);
        assert_eq!(s.between.storeys, 1, "a storey above the target");
        let back = sight_line(&t, Viewpoint::figure(Point(40.0, 17.0)), inside, false).unwrap();
        assert!(!back.between.sight_blocked, "and are seen in it");
        assert_eq!(back.between.storeys, 0);
    }

    #[test]
    fn hill_level_two_over_level_zero_gives_two_levels() {
        let t = terrain(vec![hill(vec![rect(5.0, 5.0, 25.0, 25.0), rect(10.0, 10.0, 20.0, 20.0)])]);
        assert_eq!(hill_level(&t, Point(15.0, 15.0)), 2);
        assert_eq!(hill_level(&t, Point(7.0, 15.0)), 1);
        assert_eq!(hill_level(&t, Point(30.0, 15.0)), 0);
        // From the top edge of level 2 looking away down the slope.
        let s = look(&t, Point(20.0, 15.0), Point(40.0, 15.0));
        assert_eq!(s.between.hill_levels, 2);
        assert!(!s.between.sight_blocked);
        assert!(s.trace.contains(&Note { feature: None, at: 0.0, seen: Seen::Height { hill_levels: 2, storeys: 0 } }));
        let up = look(&t, Point(40.0, 15.0), Point(20.0, 15.0));
        assert_eq!(up.between.hill_levels, 0, "no advantage looking up");
    }

    #[test]
    fn a_hill_between_two_figures_on_the_flat_blocks_sight() {
        let t = terrain(vec![hill(vec![rect(20.0, 10.0, 30.0, 30.0)])]);
        let s = look(&t, Point(10.0, 20.0), Point(40.0, 20.0));
        assert!(s.between.sight_blocked);
        assert_eq!(s.trace[0].seen, Seen::CrestBlocks { level: 1 });
        assert_eq!(s.trace[0].feature, Some(0));
    }

    #[test]
    fn the_crest_hides_dead_ground_beyond_a_wide_plateau() {
        // Observer at the back of a 20" level-1 plateau; a figure right at its
        // foot is hidden, one far out on the plain is seen over the crest.
        let t = terrain(vec![hill(vec![rect(10.0, 10.0, 30.0, 30.0)])]);
        assert!(look(&t, Point(11.0, 20.0), Point(31.0, 20.0)).between.sight_blocked);
        let far = look(&t, Point(29.0, 20.0), Point(60.0, 20.0));
        assert!(!far.between.sight_blocked);
        assert_eq!(far.between.hill_levels, 1);
    }

    #[test]
    fn high_walls_block_figures_but_not_taller_targets() {
        let t = terrain(vec![wall(ObstacleHeight::High, 20.0)]);
        let figure = look(&t, Point(10.0, 20.0), Point(30.0, 20.0));
        assert!(figure.between.sight_blocked);
        let tank = Viewpoint { height: 2.0, ..Viewpoint::figure(Point(30.0, 20.0)) };
        let s = sight_line(&t, Viewpoint::figure(Point(10.0, 20.0)), tank, false).unwrap();
        assert!(!s.between.sight_blocked, "a wall no higher than the target is an obstacle");
        assert_eq!(s.between.obstacles, 1);
        let low = terrain(vec![wall(ObstacleHeight::Low, 20.0)]);
        let s = look(&low, Point(10.0, 20.0), Point(30.0, 20.0));
        assert_eq!((s.between.sight_blocked, s.between.obstacles), (false, 1));
    }

    #[test]
    fn a_zigzag_hedge_counts_each_crossing() {
        let t = terrain(vec![Feature::Obstacle {
            kind: ObstacleKind::Hedge,
            height: ObstacleHeight::Low,
            line: vec![Point(15.0, 10.0), Point(20.0, 30.0), Point(25.0, 10.0)],
        }]);
        assert_eq!(look(&t, Point(5.0, 20.0), Point(40.0, 20.0)).between.obstacles, 2);
    }

    /// *Heroes All* Observation example: the Germans 21" from the Humber,
    /// behind one hedge they touch with 2 more between: 3 + 2 = 5 needed.
    /// Looking back, the Humber sees all 3 hedges.
    #[test]
    fn humber_example_from_geometry() {
        let t = terrain(vec![hedge(10.3), hedge(17.0), hedge(25.0)]);
        let (germans, humber) = (Point(10.0, 20.0), Point(31.0, 20.0));
        let car = Viewpoint { height: 1.5, reach: 1.0, ..Viewpoint::figure(humber) };
        let s = sight_line(&t, Viewpoint::figure(germans), car, false).unwrap();
        assert_eq!(s.between.distance, 21.0);
        assert_eq!((s.between.obstacles, s.between.obstacles_touching_observer), (2, 1));
        assert!(!s.between.sight_blocked);
        let test = ObservationTest {
            observers: &[(ObserverClass::Figure, 4)],
            targets: &[(TargetClass::LightReconnaissanceCar, 1)],
            between: s.between,
            observer: ObserverState::default(),
            target: TargetState::default(),
            night: false,
        };
        let a = assess(&test).unwrap();
        assert_eq!(a.segments.get(Segment::Distance), 3);
        assert_eq!(a.sight, Sight::Test { needed: 5 });

        let back = sight_line(&t, car, Viewpoint::figure(germans), true).unwrap();
        assert_eq!((back.between.obstacles, back.between.obstacles_touching_observer), (3, 0));
        let mut test = ObservationTest {
            observers: &[(ObserverClass::Afv, 1)],
            targets: &[(TargetClass::Figure, 4)],
            between: back.between,
            ..test
        };
        test.observer.recce = true;
        assert_eq!(assess(&test).unwrap().sight, Sight::Test { needed: 4 });
    }

    #[test]
    fn bad_viewpoints_are_refused() {
        let t = terrain(vec![house(rect(20.0, 15.0, 24.0, 19.0), 2)]);
        let p = Point(10.0, 10.0);
        let fig = Viewpoint::figure(p);
        let err = |v: Viewpoint| sight_line(&t, v, fig, false).unwrap_err();
        assert_eq!(err(Viewpoint { storey: 1, ..fig }), GeometryError::StoreyWithoutBuilding { storey: 1 });
        let upstairs = Viewpoint { storey: 2, ..Viewpoint::figure(Point(22.0, 17.0)) };
        assert_eq!(err(upstairs), GeometryError::StoreyAboveRoof { storey: 2, storeys: 2 });
        assert_eq!(err(Viewpoint::figure(Point(f32::NAN, 1.0))), GeometryError::NotFinite("observer"));
        assert_eq!(err(Viewpoint { height: -1.0, ..fig }), GeometryError::Negative("observer"));
        assert_eq!(route(&t, &[p]).unwrap_err(), GeometryError::ShortPath);
    }

    fn stretches(r: &Route) -> Vec<(Ground, f32, bool)> {
        r.stretches.iter().map(|s| (s.terrain, (s.length * 1000.0).round() / 1000.0, s.uphill)).collect()
    }

    #[test]
    fn a_path_splits_into_the_ground_it_crosses() {
        let t = terrain(vec![
            wood(WoodDensity::Dense, rect(10.0, 0.0, 16.0, 48.0)),
            hedge(20.0),
            Feature::Marsh { outline: rect(25.0, 0.0, 28.0, 48.0) },
            wall(ObstacleHeight::High, 30.0),
        ]);
        let r = route(&t, &[Point(5.0, 20.0), Point(35.0, 20.0)]).unwrap();
        assert_eq!(
            stretches(&r),
            vec![
                (Ground::Open, 5.0, false),
                (Ground::DenseWoodland, 6.0, false),
                (Ground::Open, 4.0, false),
                (Ground::Hedge, 0.0, false),
                (Ground::Open, 5.0, false),
                (Ground::Marsh, 3.0, false),
                (Ground::Open, 2.0, false),
                (Ground::HighWall, 0.0, false),
                (Ground::Open, 5.0, false),
            ]
        );
        assert!(r.hazards.is_empty());
        let total: f32 = r.stretches.iter().map(|s| s.length).sum();
        assert!((total - 30.0).abs() < 1e-3, "the stretches add up to the path");
    }

    #[test]
    fn a_bent_path_along_a_road_keeps_one_road_stretch() {
        let t = terrain(vec![Feature::Road {
            kind: RoadKind::Metalled,
            line: vec![Point(0.0, 10.0), Point(30.0, 10.0), Point(30.0, 40.0)],
            width: 2.0,
        }]);
        let r = route(&t, &[Point(5.0, 10.0), Point(30.0, 10.0), Point(30.0, 30.0), Point(40.0, 30.0)]).unwrap();
        assert_eq!(stretches(&r), vec![(Ground::Road, 46.0, false), (Ground::Open, 9.0, false)]);
        let lane = terrain(vec![Feature::Road {
            kind: RoadKind::Secondary,
            line: vec![Point(0.0, 10.0), Point(30.0, 10.0)],
            width: 2.0,
        }]);
        let r = route(&lane, &[Point(5.0, 10.0), Point(25.0, 10.0)]).unwrap();
        assert_eq!(stretches(&r), vec![(Ground::Open, 20.0, false)], "only a metalled road moves as a road");
    }

    #[test]
    fn rivers_split_into_water_bridge_and_ford() {
        let river = Feature::River {
            kind: RiverKind::Small,
            line: vec![Point(0.0, 20.0), Point(72.0, 20.0)],
            width: 4.0,
            bridges: vec![RiverBridge {
                kind: BridgeType::B,
                span: Span { from: Point(10.0, 17.0), to: Point(10.0, 23.0), width: 2.0 },
            }],
            fords: vec![Ford {
                condition: FordCondition::Restricted(1),
                span: Span { from: Point(40.0, 17.0), to: Point(40.0, 23.0), width: 4.0 },
            }],
        };
        let t = terrain(vec![river]);
        let wade = route(&t, &[Point(25.0, 10.0), Point(25.0, 30.0)]).unwrap();
        assert_eq!(
            stretches(&wade),
            vec![(Ground::Open, 8.0, false), (Ground::SmallRiver, 4.0, false), (Ground::Open, 8.0, false)]
        );
        let bridge = route(&t, &[Point(10.0, 10.0), Point(10.0, 30.0)]).unwrap();
        assert_eq!(stretches(&bridge)[1], (Ground::Road, 4.0, false));
        let ford = route(&t, &[Point(40.0, 10.0), Point(40.0, 30.0)]).unwrap();
        assert_eq!(stretches(&ford)[1], (Ground::Ford(FordCondition::Restricted(1)), 4.0, false));
    }

    #[test]
    fn climbing_a_contour_marks_the_stretch_uphill() {
        let t = terrain(vec![hill(vec![rect(20.0, 0.0, 40.0, 48.0)])]);
        let r = route(&t, &[Point(10.0, 20.0), Point(50.0, 20.0)]).unwrap();
        assert_eq!(
            stretches(&r),
            vec![(Ground::Open, 10.0, false), (Ground::Open, 20.0, true), (Ground::Open, 10.0, false)],
            "up onto the hill, then down off it"
        );
    }

    #[test]
    fn a_hedge_at_a_bend_of_the_path_is_crossed_once() {
        let t = terrain(vec![hedge(20.0)]);
        let r = route(&t, &[Point(10.0, 20.0), Point(20.0, 20.0), Point(30.0, 30.0)]).unwrap();
        let hedges = r.stretches.iter().filter(|s| s.terrain == Ground::Hedge).count();
        assert_eq!(hedges, 1);
    }

    #[test]
    fn a_path_through_a_gap_crosses_no_wire() {
        let mut t = terrain(vec![Feature::Wire(Extent::Line(vec![Point(30.0, 0.0), Point(30.0, 48.0)]))]);
        let wired = |t: &Terrain, y: f32| {
            let r = route(t, &[Point(25.0, y), Point(35.0, y)]).unwrap();
            r.stretches.iter().any(|s| s.terrain == Ground::Wire) || !r.hazards.is_empty()
        };
        assert!(wired(&t, 20.0));
        // A Bangalore pushed from 1" short of the wire blows its gap on the line.
        let gap = first_gappable(&t, Point(29.0, 20.0), Point(35.0, 20.0), 2.0).expect("wire 1\" ahead");
        assert!((gap.at.0 - 30.0).abs() < 1e-4 && (gap.at.1 - 20.0).abs() < 1e-4, "{gap:?}");
        assert_eq!(first_gappable(&t, Point(25.0, 20.0), Point(35.0, 20.0), 2.0), None, "5\" short: out of reach");
        t.gaps.push(gap);
        assert!(!wired(&t, 20.0), "through the gap");
        assert!(!wired(&t, 20.4), "within half a figure's width of its middle");
        assert!(wired(&t, 20.6), "beside the gap the wire stands");
        assert_eq!(t.validate(TableSize::default()), Ok(()));
        // A gap already blown is not blown again; none off the line.
        assert_eq!(first_gappable(&t, Point(29.0, 20.0), Point(35.0, 20.0), 2.0), None);
        t.gaps.push(crate::terrain::Gap { feature: 0, at: Point(31.0, 20.0) });
        assert!(t.validate(TableSize::default()).is_err());
    }

    #[test]
    fn hazards_are_reported_where_the_path_meets_them() {
        let t = terrain(vec![
            Feature::Minefield { outline: rect(20.0, 0.0, 24.0, 48.0), kind: crate::mines::MineKind::AntiPersonnel },
            Feature::Wire(Extent::Line(vec![Point(30.0, 0.0), Point(30.0, 48.0)])),
            Feature::Roadblock(Extent::Area(rect(0.0, 15.0, 12.0, 25.0))),
        ]);
        let r = route(&t, &[Point(5.0, 20.0), Point(40.0, 20.0)]).unwrap();
        let got: Vec<(usize, HazardKind, f32)> = r.hazards.iter().map(|h| (h.feature, h.kind, h.at)).collect();
        assert_eq!(
            got,
            vec![(2, HazardKind::Roadblock, 0.0), (0, HazardKind::Minefield, 15.0), (1, HazardKind::Wire, 25.0)]
        );
    }

    #[test]
    fn capsule_span_meets_the_band_round_a_segment() {
        let (c, d) = (Point(10.0, 10.0), Point(20.0, 10.0));
        let across = capsule_span(Point(15.0, 0.0), Point(15.0, 20.0), c, d, 1.0).unwrap();
        assert!((across.0 - 0.45).abs() < 1e-5 && (across.1 - 0.55).abs() < 1e-5);
        let past_the_end = capsule_span(Point(0.0, 10.0), Point(30.0, 10.0), c, d, 1.0).unwrap();
        assert!((past_the_end.0 * 30.0 - 9.0).abs() < 1e-4 && (past_the_end.1 * 30.0 - 21.0).abs() < 1e-4);
        assert_eq!(capsule_span(Point(0.0, 15.0), Point(30.0, 15.0), c, d, 1.0), None);
    }

    #[test]
    fn a_long_diagonal_passes_a_building_its_own_box_covers() {
        // The line's box holds the building; the line itself passes over 20" from it.
        let (a, b) = (Point(0.0, 0.0), Point(48.0, 48.0));
        let outline = rect(38.0, 2.0, 46.0, 8.0);
        assert!(boxes_meet(bounds(&outline), bounds(&[a, b]), BOUNDARY_SLACK));
        assert!(!segment_meets_box(a, b, bounds(&outline), BOUNDARY_SLACK));
        assert!(inside_spans(&outline, a, b).is_empty());
        // Moved onto the line, it is met.
        let on_the_line = rect(20.0, 20.0, 28.0, 28.0);
        assert!(segment_meets_box(a, b, bounds(&on_the_line), BOUNDARY_SLACK));
        assert_eq!(inside_spans(&on_the_line, a, b).len(), 1);
        let t = terrain(vec![house(outline, 1)]);
        assert!(!passes_a_building(&t, a, b));
        assert!(passes_a_building(&t, Point(42.0, 0.0), Point(42.0, 40.0)));
        assert_eq!(building_at(&t, Point(42.0, 5.0)).map(|(k, _)| k), Some(0));
    }

    proptest::proptest! {
        /// The box tests in front of the exact ones turn away only segments
        /// that the exact ones would find meet nothing.
        #[test]
        fn the_box_tests_turn_away_only_lines_that_miss(
            ax in 0.0f32..120.0, ay in 0.0f32..96.0, ex in 0.0f32..120.0, ey in 0.0f32..96.0,
            x0 in 0.0f32..120.0, y0 in 0.0f32..96.0, w in 0.1f32..30.0, h in 0.1f32..30.0,
        ) {
            let (a, b) = (Point(ax, ay), Point(ex, ey));
            let poly = rect(x0, y0, x0 + w, y0 + h);
            let bx = bounds(&poly);
            for (c, d) in edges(&poly) {
                if meet(a, b, c, d).is_some() {
                    proptest::prop_assert!(may_meet_edges(a, b, bx));
                }
            }
            if (0..=200).map(|k| lerp(a, b, k as f32 / 200.0)).any(|p| strictly_in(&poly, p)) {
                proptest::prop_assert!(segment_meets_box(a, b, bx, BOUNDARY_SLACK));
                proptest::prop_assert!(!inside_spans(&poly, a, b).is_empty());
            }
        }
    }
}
