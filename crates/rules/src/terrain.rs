//! The terrain of a battle as geometry in inches, as a scenario file writes it.
//!
//! Coordinates are inches from the table's near-left corner, `x` to the right,
//! `y` away from the player (the table is [`TableSize`]). Areas are polygons
//! (at least 3 points), linear features polylines (at least 2 points). The
//! rules that measure over this data live in [`crate::geometry`]; the types of
//! buildings and bridges are those of [`crate::buildings`], and a ford's state
//! that of [`crate::movement`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::buildings::{BridgeType, Building, Structure};
use crate::data::{DataError, from_ron};
use crate::inches::Inches;
use crate::movement::FordCondition;

/// A games table measured in inches (the *Heroes All* table is 6 ft × 4 ft).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSize {
    /// Left to right, inches.
    pub width: f32,
    /// Near edge to far edge, inches.
    pub depth: f32,
}

impl Default for TableSize {
    /// 6 ft × 4 ft.
    fn default() -> Self {
        Self { width: 72.0, depth: 48.0 }
    }
}

impl TableSize {
    /// Whether a point `(x, y)` in inches from the near-left corner is on the table.
    pub fn contains(&self, (x, y): (f32, f32)) -> bool {
        (0.0..=self.width).contains(&x) && (0.0..=self.depth).contains(&y)
    }
}

/// A point on the table, `(x, y)` in inches.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Point(pub f32, pub f32);

impl Point {
    pub const fn x(self) -> f32 {
        self.0
    }

    pub const fn y(self) -> f32 {
        self.1
    }
}

/// One level of a hill: the contour enclosing ground at `level` or above.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HillLevel {
    /// 1 for the lowest contour; each level is one "level of hills" for
    /// observation (*Heroes All*, Observation: "1 level of hills").
    pub level: u8,
    pub outline: Vec<Point>,
}

/// *Heroes All*, Observation: "sparse woods, groves etc" and "dense woods, jungle etc".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WoodDensity {
    Sparse,
    Dense,
}

/// A linear obstacle: a hedge or a wall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObstacleKind {
    Hedge,
    Wall,
}

/// *Heroes All*, "Move distance modifiers": low ones are "up to the height of
/// a figure", high ones "higher than a figure (up to 1½ figures)".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObstacleHeight {
    Low,
    High,
}

/// *Heroes All*, Movement Table: "Made up/metalled road" and the lesser roads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoadKind {
    Metalled,
    Secondary,
}

/// *Heroes All*, "Rivers": streams 1–2", small rivers 3–4", wide rivers over 4".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RiverKind {
    Stream,
    Small,
    Wide,
}

impl RiverKind {
    /// The widths, inches, a river of this kind may have (exclusive low, inclusive high).
    ///
    /// Reading: the book's bands (1–2", 3–4", over 4") leave gaps; a width
    /// belongs to the first band whose top it does not exceed, so 2½" is a
    /// small river (test `river_width_must_match_its_kind`).
    pub const fn widths(self) -> (f32, f32) {
        match self {
            Self::Stream => (0.0, 2.0),
            Self::Small => (2.0, 4.0),
            Self::Wide => (4.0, f32::INFINITY),
        }
    }
}

/// A strip across a river (a bridge deck or a ford), from bank to bank.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Span {
    pub from: Point,
    pub to: Point,
    /// Inches across the strip.
    pub width: f32,
}

/// A bridge over a river (*Heroes All*, "Bridges": types A–D).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiverBridge {
    pub kind: BridgeType,
    pub span: Span,
}

/// A ford (*Heroes All*, "Rivers"), with the state the scenario declares.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ford {
    #[serde(default = "normal_ford")]
    pub condition: FordCondition,
    pub span: Span,
}

fn normal_ford() -> FordCondition {
    FordCondition::Normal
}

/// Where an engineering obstacle lies: an area or a line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Extent {
    Area(Vec<Point>),
    Line(Vec<Point>),
}

/// One piece of terrain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Feature {
    /// Contours, lowest first.
    Hill {
        levels: Vec<HillLevel>,
    },
    Wood {
        density: WoodDensity,
        outline: Vec<Point>,
    },
    Obstacle {
        kind: ObstacleKind,
        height: ObstacleHeight,
        line: Vec<Point>,
    },
    Building {
        outline: Vec<Point>,
        structure: Structure,
        /// Storeys above the ground floor's level: 1 for a single-storey hut.
        storeys: u8,
        /// Figures it holds; the structure's default when absent
        /// (*Heroes All*, Buildings: "capacity of 16 figures" unless specified).
        #[serde(default)]
        capacity: Option<u8>,
        /// Defence points; the structure's Defence Value when absent.
        #[serde(default)]
        defence: Option<u8>,
        /// Destroyed and left standing as a ruin (*Heroes All*, "Buildings":
        /// "When any building is destroyed, treat it as a ruin and hard cover").
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ruined: bool,
    },
    Road {
        kind: RoadKind,
        line: Vec<Point>,
        width: f32,
    },
    River {
        kind: RiverKind,
        line: Vec<Point>,
        width: f32,
        #[serde(default)]
        bridges: Vec<RiverBridge>,
        #[serde(default)]
        fords: Vec<Ford>,
    },
    Marsh {
        outline: Vec<Point>,
    },
    RoughGround {
        outline: Vec<Point>,
    },
    Minefield {
        outline: Vec<Point>,
        /// Anti-personnel (the default) or anti-tank (*Heroes All*, "Mines":
        /// "They must be specified as Anti-tank or Anti-personnel").
        #[serde(default = "anti_personnel")]
        kind: crate::mines::MineKind,
    },
    Wire(Extent),
    Roadblock(Extent),
}

fn anti_personnel() -> crate::mines::MineKind {
    crate::mines::MineKind::AntiPersonnel
}

impl Feature {
    /// The building or structure this feature starts the battle as: its
    /// capacity and Defence Value where the scenario gives them.
    pub fn building(&self) -> Option<Building> {
        let Self::Building { structure, capacity, defence, .. } = self else { return None };
        let mut b = capacity
            .and_then(|c| Building::with_capacity(*structure, c).ok())
            .unwrap_or_else(|| Building::new(*structure));
        if let Some(d) = defence {
            b.points = *d;
        }
        Some(b)
    }

    /// The feature's name as a scenario file writes it.
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Hill { .. } => "Hill",
            Self::Wood { .. } => "Wood",
            Self::Obstacle { .. } => "Obstacle",
            Self::Building { .. } => "Building",
            Self::Road { .. } => "Road",
            Self::River { .. } => "River",
            Self::Marsh { .. } => "Marsh",
            Self::RoughGround { .. } => "RoughGround",
            Self::Minefield { .. } => "Minefield",
            Self::Wire(_) => "Wire",
            Self::Roadblock(_) => "Roadblock",
        }
    }
}

/// All the terrain of a table.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    #[serde(default)]
    pub features: Vec<Feature>,
    /// Gaps blown in wire and walls (*Heroes All*, "Explosives": "Bangalore
    /// Torpedoes create a gap in wire or walling 1 figure wide").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
}

/// A gap 1 figure wide in a line of wire or a wall (its feature index), centred
/// where it was blown. Reading: a figure's base is [`GAP_WIDTH`] (1 inch) wide,
/// and a path crosses the line through the gap when it meets the line within
/// half of that of the gap's middle (test `a_path_through_a_gap_crosses_no_wire`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gap {
    pub feature: usize,
    pub at: Point,
}

/// The width of a gap blown 1 figure wide, inches (a figure's base).
pub const GAP_WIDTH: f32 = 1.0;

/// What is wrong with a field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Problem {
    /// A coordinate or width that is not a number.
    NotFinite,
    /// A point off the table.
    OffTable(Point),
    /// An area with fewer than 3 points.
    TooFewPoints { area: bool, points: usize },
    /// A hill without levels.
    NoLevels,
    /// Hill levels must start at 1 and rise one at a time.
    LevelsNotAscending { expected: u8, found: u8 },
    /// A contour not inside the one below it.
    NotNested { level: u8 },
    /// A width that is not positive.
    BadWidth(f32),
    /// A river width outside its kind's band (*Heroes All*, "Rivers").
    WidthOutsideBand { kind: RiverKind, width: f32 },
    /// A building must have at least one storey.
    NoStoreys,
    /// Capacity is given for a structure that is not a building (*Heroes All*,
    /// "Hits on buildings & structures": only those marked * are buildings).
    NotABuilding(Structure),
    /// Defence points above the structure's Defence Value.
    DefenceAboveValue { value: u8, given: u8 },
    /// A gap in a feature that is not a line of wire or a wall.
    NotGappable,
    /// A gap whose middle is not on its line.
    GapOffLine(Point),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::NotFinite => write!(f, "is not a number"),
            Self::OffTable(p) => write!(f, "point ({}, {}) is off the table", p.0, p.1),
            Self::TooFewPoints { area: true, points } => write!(f, "an area needs at least 3 points, has {points}"),
            Self::TooFewPoints { area: false, points } => write!(f, "a line needs at least 2 points, has {points}"),
            Self::NoLevels => write!(f, "a hill needs at least one level"),
            Self::LevelsNotAscending { expected, found } => {
                write!(f, "level {found} found where level {expected} was due")
            }
            Self::NotNested { level } => write!(f, "level {level} is not inside the level below it"),
            Self::BadWidth(w) => write!(f, "width {w}\" must be positive"),
            Self::WidthOutsideBand { kind, width } => {
                let (lo, hi) = kind.widths();
                write!(f, "a {kind:?} river is over {lo}\" and up to {hi}\" wide, not {width}\"")
            }
            Self::NoStoreys => write!(f, "a building has at least 1 storey"),
            Self::NotABuilding(s) => write!(f, "{s:?} is a structure, not a building: it has no capacity"),
            Self::DefenceAboveValue { value, given } => {
                write!(f, "defence {given} is above the Defence Value {value}")
            }
            Self::NotGappable => write!(f, "only a line of wire or a wall can have a gap blown in it"),
            Self::GapOffLine(p) => write!(f, "the gap at ({}, {}) is not on its line", p.0, p.1),
        }
    }
}

/// Bad terrain: which feature (index and name), which field, what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainError {
    pub feature: usize,
    pub name: &'static str,
    /// The field's path inside the feature, e.g. `levels[1].outline[3]`.
    pub field: String,
    pub problem: Problem,
}

impl fmt::Display for TerrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "features[{}] ({}) {}: {}", self.feature, self.name, self.field, self.problem)
    }
}

impl std::error::Error for TerrainError {}

impl TerrainError {
    /// The field as a path in the terrain: `features[2].levels[1].outline[3]`.
    pub fn path(&self) -> String {
        match self.field.as_str() {
            "" => format!("features[{}]", self.feature),
            field => format!("features[{}].{field}", self.feature),
        }
    }

    /// The problem, with the kind of feature, for an error placed at [`TerrainError::path`].
    pub fn located(&self) -> String {
        format!("{} ({})", self.problem, self.name)
    }
}

/// Even-odd point in polygon, boundary excluded (callers needing the
/// boundary test it apart with `on_boundary`).
pub fn inside(poly: &[Point], p: Point) -> bool {
    let mut odd = false;
    let mut j = poly.len() - 1;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[j]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 {
            odd = !odd;
        }
        j = i;
    }
    odd
}

impl Terrain {
    /// The river (feature index) `span` crosses from bank to bank: its middle
    /// in the water, both ends out of it.
    pub fn river_crossed(&self, span: &Span) -> Option<usize> {
        let mid = Point((span.from.0 + span.to.0) / 2.0, (span.from.1 + span.to.1) / 2.0);
        let off = |p: Point, line: &[Point]| {
            line.windows(2).map(|w| distance_to_segment(p, w[0], w[1]).get()).fold(f32::MAX, f32::min)
        };
        self.features.iter().position(|f| match f {
            Feature::River { line, width, .. } => {
                off(mid, line) < width / 2.0 && off(span.from, line) >= width / 2.0 && off(span.to, line) >= width / 2.0
            }
            _ => false,
        })
    }
}

/// The line of a feature a Bangalore Torpedo can gap: wire laid as a line, or a wall.
pub fn gappable(f: &Feature) -> Option<&[Point]> {
    match f {
        Feature::Wire(Extent::Line(line)) | Feature::Obstacle { kind: ObstacleKind::Wall, line, .. } => Some(line),
        _ => None,
    }
}

fn distance_to_line(p: Point, line: &[Point]) -> f32 {
    line.windows(2).map(|w| distance_to_segment(p, w[0], w[1]).get()).fold(f32::MAX, f32::min)
}

fn distance(a: Point, b: Point) -> f32 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// Inches from `p` to the segment `a`–`b`.
pub fn distance_to_segment(p: Point, a: Point, b: Point) -> Inches {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 { (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0) } else { 0.0 };
    Inches((p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy))
}

/// Edges of a closed polygon, each once.
pub fn edges(poly: &[Point]) -> impl Iterator<Item = (Point, Point)> + '_ {
    poly.iter().zip(poly.iter().cycle().skip(1)).map(|(&a, &b)| (a, b))
}

/// Within a hundredth of an inch of the polygon's outline.
pub(crate) fn on_boundary(poly: &[Point], p: Point) -> bool {
    edges(poly).any(|(a, b)| distance_to_segment(p, a, b) < 0.01)
}

struct Check {
    table: TableSize,
    feature: usize,
    name: &'static str,
}

impl Check {
    fn err(&self, field: impl Into<String>, problem: Problem) -> TerrainError {
        TerrainError { feature: self.feature, name: self.name, field: field.into(), problem }
    }

    fn points(&self, field: &str, points: &[Point], area: bool) -> Result<(), TerrainError> {
        let least = if area { 3 } else { 2 };
        if points.len() < least {
            return Err(self.err(field, Problem::TooFewPoints { area, points: points.len() }));
        }
        for (i, &p) in points.iter().enumerate() {
            self.point(&format!("{field}[{i}]"), p)?;
        }
        Ok(())
    }

    fn point(&self, field: &str, p: Point) -> Result<(), TerrainError> {
        if !(p.0.is_finite() && p.1.is_finite()) {
            return Err(self.err(field, Problem::NotFinite));
        }
        if !(0.0..=self.table.width).contains(&p.0) || !(0.0..=self.table.depth).contains(&p.1) {
            return Err(self.err(field, Problem::OffTable(p)));
        }
        Ok(())
    }

    fn width(&self, field: &str, width: f32) -> Result<(), TerrainError> {
        if !width.is_finite() {
            return Err(self.err(field, Problem::NotFinite));
        }
        if width <= 0.0 {
            return Err(self.err(field, Problem::BadWidth(width)));
        }
        Ok(())
    }

    fn span(&self, field: &str, s: &Span) -> Result<(), TerrainError> {
        self.point(&format!("{field}.from"), s.from)?;
        self.point(&format!("{field}.to"), s.to)?;
        self.width(&format!("{field}.width"), s.width)
    }

    fn extent(&self, e: &Extent) -> Result<(), TerrainError> {
        match e {
            Extent::Area(points) => self.points("0", points, true),
            Extent::Line(points) => self.points("0", points, false),
        }
    }

    fn feature(&self, f: &Feature) -> Result<(), TerrainError> {
        match f {
            Feature::Hill { levels } => {
                if levels.is_empty() {
                    return Err(self.err("levels", Problem::NoLevels));
                }
                for (i, l) in levels.iter().enumerate() {
                    let expected = i as u8 + 1;
                    if l.level != expected {
                        return Err(self.err(
                            format!("levels[{i}].level"),
                            Problem::LevelsNotAscending { expected, found: l.level },
                        ));
                    }
                    self.points(&format!("levels[{i}].outline"), &l.outline, true)?;
                    if i > 0 {
                        let below = &levels[i - 1].outline;
                        if let Some(j) = l.outline.iter().position(|&p| !inside(below, p) && !on_boundary(below, p)) {
                            return Err(
                                self.err(format!("levels[{i}].outline[{j}]"), Problem::NotNested { level: l.level })
                            );
                        }
                    }
                }
                Ok(())
            }
            Feature::Wood { outline, .. }
            | Feature::Marsh { outline }
            | Feature::RoughGround { outline }
            | Feature::Minefield { outline, .. } => self.points("outline", outline, true),
            Feature::Obstacle { line, .. } => self.points("line", line, false),
            Feature::Building { outline, structure, storeys, capacity, defence, .. } => {
                self.points("outline", outline, true)?;
                if *storeys == 0 {
                    return Err(self.err("storeys", Problem::NoStoreys));
                }
                let row = structure.row();
                if capacity.is_some() && !row.building {
                    return Err(self.err("capacity", Problem::NotABuilding(*structure)));
                }
                match *defence {
                    Some(given) if given > row.points => {
                        Err(self.err("defence", Problem::DefenceAboveValue { value: row.points, given }))
                    }
                    _ => Ok(()),
                }
            }
            Feature::Road { line, width, .. } => {
                self.points("line", line, false)?;
                self.width("width", *width)
            }
            Feature::River { kind, line, width, bridges, fords } => {
                self.points("line", line, false)?;
                self.width("width", *width)?;
                let (lo, hi) = kind.widths();
                if !(*width > lo && *width <= hi) {
                    return Err(self.err("width", Problem::WidthOutsideBand { kind: *kind, width: *width }));
                }
                for (i, b) in bridges.iter().enumerate() {
                    self.span(&format!("bridges[{i}].span"), &b.span)?;
                }
                for (i, ford) in fords.iter().enumerate() {
                    self.span(&format!("fords[{i}].span"), &ford.span)?;
                }
                Ok(())
            }
            Feature::Wire(e) | Feature::Roadblock(e) => self.extent(e),
        }
    }
}

impl Terrain {
    /// Checks every feature against the table: points finite and on it,
    /// areas of 3 points or more, lines of 2 or more, hill levels 1, 2, 3…
    /// each inside the one below, widths positive and in their river band,
    /// buildings with storeys and a capacity only where the structure is one.
    pub fn validate(&self, table: TableSize) -> Result<(), TerrainError> {
        for (i, f) in self.features.iter().enumerate() {
            Check { table, feature: i, name: f.name() }.feature(f)?;
        }
        for (k, g) in self.gaps.iter().enumerate() {
            let problem = match self.features.get(g.feature).and_then(gappable) {
                None => Some(Problem::NotGappable),
                Some(line) if distance_to_line(g.at, line) > GAP_WIDTH / 2.0 => Some(Problem::GapOffLine(g.at)),
                Some(_) => None,
            };
            if let Some(problem) = problem {
                let name = self.features.get(g.feature).map_or("gap", Feature::name);
                return Err(TerrainError { feature: g.feature, name, field: format!("gaps[{k}]"), problem });
            }
        }
        Ok(())
    }

    /// Whether a path meeting line `feature` at `p` passes through a gap in it.
    pub fn gapped(&self, feature: usize, p: Point) -> bool {
        self.gaps.iter().any(|g| g.feature == feature && distance(g.at, p) <= GAP_WIDTH / 2.0)
    }

    /// Parses and checks terrain RON; `file` names it in errors.
    pub fn parse(file: &str, text: &str, table: TableSize) -> Result<Self, DataError> {
        let terrain: Terrain = from_ron(file, text)?;
        terrain.validate(table).map_err(|e| DataError::field(file, text, &e.path(), None, e.located()))?;
        Ok(terrain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: TableSize = TableSize { width: 72.0, depth: 48.0 };

    fn square(x: f32, y: f32, side: f32) -> Vec<Point> {
        vec![Point(x, y), Point(x + side, y), Point(x + side, y + side), Point(x, y + side)]
    }

    fn error(f: Feature) -> TerrainError {
        Terrain { features: vec![f], gaps: Vec::new() }.validate(TABLE).unwrap_err()
    }

    #[test]
    fn every_kind_of_feature_parses_from_ron() {
        let text = r#"(features: [
            Hill(levels: [(level: 1, outline: [(10, 10), (30, 10), (30, 30), (10, 30)]),
                          (level: 2, outline: [(15, 15), (25, 15), (25, 25)])]),
            Wood(density: sparse, outline: [(40, 5), (50, 5), (50, 15)]),
            Obstacle(kind: hedge, height: low, line: [(0, 40), (72, 40)]),
            Building(outline: [(60, 30), (64, 30), (64, 34), (60, 34)], structure: house, storeys: 2, capacity: Some(12)),
            Road(kind: metalled, line: [(0, 2), (72, 2)], width: 2),
            River(kind: stream, line: [(36, 0), (36, 48)], width: 1.5,
                  bridges: [(kind: A, span: (from: (35, 2), to: (37, 2), width: 2))],
                  fords: [(condition: Restricted(1), span: (from: (35, 20), to: (37, 20), width: 3))]),
            Marsh(outline: [(1, 1), (3, 1), (3, 3)]),
            RoughGround(outline: [(5, 1), (7, 1), (7, 3)]),
            Minefield(outline: [(50, 40), (60, 40), (60, 45)]),
            Wire(Line([(50, 46), (60, 46)])),
            Roadblock(Area([(20, 1), (22, 1), (22, 3)])),
        ])"#;
        let t = Terrain::parse("t.ron", text, TABLE).unwrap();
        assert_eq!(t.features.len(), 11);
        assert!(matches!(t.features[3], Feature::Building { storeys: 2, capacity: Some(12), .. }));
        let Feature::River { ref fords, .. } = t.features[5] else { panic!("river") };
        assert_eq!(fords[0].condition, FordCondition::Restricted(1));
    }

    #[test]
    fn misspelt_field_is_refused_with_its_line() {
        let err = Terrain::parse("t.ron", "(features: [\n Wood(density: dense,\n outlin: [])])", TABLE).unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(3), "{err}");
    }

    #[test]
    fn a_point_off_the_table_is_refused_at_its_line_and_column() {
        let text = "(features: [\n Wood(density: dense,\n  outline: [(1, 1),\n    (95, 1), (5, 5)])])";
        let err = Terrain::parse("t.ron", text, TABLE).unwrap_err();
        assert_eq!(err.to_string(), "t.ron:4:5: features[0].outline[1]: point (95, 1) is off the table (Wood)");
    }

    #[test]
    fn point_off_the_table_names_feature_and_field() {
        let err = error(Feature::Wood { density: WoodDensity::Dense, outline: square(70.0, 10.0, 5.0) });
        assert_eq!((err.feature, err.name, err.field.as_str()), (0, "Wood", "outline[1]"));
        assert_eq!(err.problem, Problem::OffTable(Point(75.0, 10.0)));
        let nan = error(Feature::Marsh { outline: vec![Point(1.0, 1.0), Point(f32::NAN, 2.0), Point(3.0, 1.0)] });
        assert_eq!(nan.problem, Problem::NotFinite);
    }

    #[test]
    fn areas_need_three_points_and_lines_two() {
        let err = error(Feature::RoughGround { outline: vec![Point(1.0, 1.0), Point(2.0, 2.0)] });
        assert_eq!(err.problem, Problem::TooFewPoints { area: true, points: 2 });
        let err = error(Feature::Obstacle {
            kind: ObstacleKind::Wall,
            height: ObstacleHeight::High,
            line: vec![Point(1.0, 1.0)],
        });
        assert_eq!(err.problem, Problem::TooFewPoints { area: false, points: 1 });
        let wire = error(Feature::Wire(Extent::Area(vec![Point(1.0, 1.0)])));
        assert_eq!(wire.problem, Problem::TooFewPoints { area: true, points: 1 });
    }

    #[test]
    fn hill_levels_rise_from_one_and_nest() {
        let level = |level, outline| HillLevel { level, outline };
        let skipped = error(Feature::Hill {
            levels: vec![level(1, square(10.0, 10.0, 20.0)), level(3, square(15.0, 15.0, 5.0))],
        });
        assert_eq!(skipped.field, "levels[1].level");
        assert_eq!(skipped.problem, Problem::LevelsNotAscending { expected: 2, found: 3 });
        let outside = error(Feature::Hill {
            levels: vec![level(1, square(10.0, 10.0, 20.0)), level(2, square(25.0, 25.0, 10.0))],
        });
        assert_eq!(outside.field, "levels[1].outline[1]");
        assert_eq!(outside.problem, Problem::NotNested { level: 2 });
        assert_eq!(error(Feature::Hill { levels: vec![] }).problem, Problem::NoLevels);
        let ok = Feature::Hill { levels: vec![level(1, square(10.0, 10.0, 20.0)), level(2, square(10.0, 10.0, 5.0))] };
        assert_eq!(
            Terrain { features: vec![ok], gaps: Vec::new() }.validate(TABLE),
            Ok(()),
            "a contour may share the edge below"
        );
    }

    #[test]
    fn river_width_must_match_its_kind() {
        let river = |kind, width| Feature::River {
            kind,
            line: vec![Point(0.0, 10.0), Point(72.0, 10.0)],
            width,
            bridges: vec![],
            fords: vec![],
        };
        let ok = |f| Terrain { features: vec![f], gaps: Vec::new() }.validate(TABLE).is_ok();
        assert!(ok(river(RiverKind::Stream, 2.0)));
        assert!(!ok(river(RiverKind::Stream, 3.0)));
        assert!(ok(river(RiverKind::Small, 2.5)), "the gap between 2\" and 3\" is a small river");
        assert!(ok(river(RiverKind::Small, 4.0)));
        assert!(!ok(river(RiverKind::Small, 4.5)));
        assert!(ok(river(RiverKind::Wide, 6.0)));
        assert_eq!(
            error(river(RiverKind::Wide, 4.0)).problem,
            Problem::WidthOutsideBand { kind: RiverKind::Wide, width: 4.0 }
        );
        assert_eq!(error(river(RiverKind::Stream, -1.0)).problem, Problem::BadWidth(-1.0));
    }

    #[test]
    fn buildings_need_storeys_and_a_sound_defence() {
        let building = |structure, storeys, capacity, defence| Feature::Building {
            outline: square(1.0, 1.0, 4.0),
            structure,
            storeys,
            capacity,
            defence,
            ruined: false,
        };
        assert_eq!(error(building(Structure::House, 0, None, None)).problem, Problem::NoStoreys);
        assert_eq!(
            error(building(Structure::RoadBlock, 1, Some(4), None)).problem,
            Problem::NotABuilding(Structure::RoadBlock)
        );
        let too_strong = error(building(Structure::House, 1, None, Some(5)));
        assert_eq!(too_strong.field, "defence");
        assert_eq!(too_strong.problem, Problem::DefenceAboveValue { value: 4, given: 5 }, "a house is 4 points");
        assert!(
            Terrain { features: vec![building(Structure::Factory, 3, Some(30), Some(3))], gaps: Vec::new() }
                .validate(TABLE)
                .is_ok()
        );
    }

    #[test]
    fn point_in_polygon_excludes_the_outline() {
        let sq = square(0.0, 0.0, 4.0);
        assert!(inside(&sq, Point(2.0, 2.0)));
        assert!(!inside(&sq, Point(5.0, 2.0)));
        assert!(on_boundary(&sq, Point(4.0, 2.0)));
        assert!(!on_boundary(&sq, Point(2.0, 2.0)));
    }
}
