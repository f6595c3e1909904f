//! The battle scenario: everything about a battle before it starts except
//! its terrain — the table, the day and the weather, and each side's force:
//! nation, year and quality, Senior Officer, companies under their Company
//! Officers, elements from the CODEX with their NCOs and start positions,
//! reserves, concealed elements, orders, aircraft, off-table artillery and
//! its FOOs, and what each side must do before the time limit. The format is
//! documented in `docs/scenarios.md`.
//!
//! [`Scenario::parse`] reads and checks a file without the CODEX;
//! [`Scenario::validate_against`] checks it against a loaded [`Codex`], and
//! [`Scenario::load`] does both. Errors name the file, the line where the
//! offending value is written, and the field.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::aircraft::{self, AircraftType, Height, SQUADRON, Schedule, WINDOW_BOUNDS, Window};
use crate::artillery::{self, Foo};
use crate::codex::{Codex, FigureGrade, Kind};
use crate::command::Objective;
use crate::concealment::{self, Candidate, Concealed};
use crate::data::{DataError, from_ron_with};
use crate::day::{BattleWeather, Season, WargameClock, Whereabouts};
use crate::firing::{FireTarget, Weapon};
use crate::forces::Element;
use crate::officer::{Grade, Officer, Quality, Rank};
use crate::opc::Nation;
use crate::terrain::{TableSize, Terrain};

/// Largest table side accepted, inches (a 16 ft club table).
pub const MAX_TABLE_SIDE: f32 = 192.0;
/// Smallest table side accepted, inches (a 2 ft skirmish board).
pub const MIN_TABLE_SIDE: f32 = 24.0;

/// A table edge: near (y = 0), far (y = depth), left (x = 0), right (x = width).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    Near,
    Far,
    Left,
    Right,
}

/// What covers the ground the battle is fought on. *Heroes All* gives it no
/// effect of its own (snow falling is `Weather::snow`, the going the campaign's
/// gauge); it is the cloth the table is laid on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Ground {
    #[default]
    Grass,
    /// Lying snow: a winter campaign (FYOW 26), or a day snow falls.
    Snow,
    /// The desert (FYOW 27).
    Sand,
}

/// The weather on the day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weather {
    /// The sky as the aircraft spotting tables name it.
    #[serde(default = "fair")]
    pub sky: aircraft::Weather,
    /// The campaign Rain/Snow Gauge (0..=8) when in use (*Heroes All*, 2020
    /// addendum "Weather"); absent in a stand-alone battle.
    #[serde(default)]
    pub rain_snow_gauge: Option<u8>,
    /// Fog, falling snow and high winds, as a campaign session's conditions
    /// give them (FYOW 25.8). *Heroes All* gives them no effect on the table;
    /// their one effect is on flying: "no flying" for every aircraft in fog or
    /// snow, and for all but the lowest class in high winds. Reading: a
    /// battle in any of them fields no squadron, no drop and no glider (test
    /// `fog_snow_and_high_winds_ground_the_aircraft`).
    #[serde(default)]
    pub fog: bool,
    #[serde(default)]
    pub snow: bool,
    #[serde(default)]
    pub high_winds: bool,
}

impl Weather {
    /// "No flying" (FYOW 25.8): fog, falling snow or high winds.
    pub fn grounds_aircraft(&self) -> bool {
        self.fog || self.snow || self.high_winds
    }
}

impl Default for Weather {
    /// Fair, no gauge.
    fn default() -> Self {
        Self { sky: fair(), rain_snow_gauge: None, fog: false, snow: false, high_winds: false }
    }
}

fn fair() -> aircraft::Weather {
    aircraft::Weather::Fair
}

/// Where an element is when the battle starts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// On the table, inches from the near-left corner (x along the near edge).
    At(f32, f32),
    /// In the "box" beyond its side's edge, moving on in the bound given
    /// (*Heroes All*, "The \"box\"").
    Box(u32),
    /// A reserve in the box, moving on only when the Senior Officer commits it
    /// (FYOB "Strategic Condition"; [`crate::day::commit_reserve`]).
    Reserve,
    /// Paratroops dropping in the bound given on a landing grid centred at
    /// the point (*Heroes All*, "Paratroops - Landing process").
    Drop(u32, f32, f32),
    /// Gliderborne troops landing in the bound given at the point (*Heroes
    /// All*, "Gliders - Landing process").
    Glider(u32, f32, f32),
    /// Aboard the landing craft of wave and slot (lane or gap) given in its
    /// side's Landing Plan (*Heroes All*, "Landing craft"): ashore in its
    /// slot when its wave lands.
    Landing(u32, usize),
}

impl Start {
    pub fn whereabouts(self) -> Whereabouts {
        match self {
            Start::At(..) => Whereabouts::OnTable,
            Start::Box(_) | Start::Reserve | Start::Drop(..) | Start::Glider(..) | Start::Landing(..) => {
                Whereabouts::Box
            }
        }
    }
}

/// How a concealed element is placed (FYOB "Placement options"; *Heroes
/// All* addendum "Blinds"). Positions in inches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Concealment {
    /// Concealed where it starts, one counter.
    InPlace,
    /// Concealed where it starts, one counter, by the campaign's throw
    /// already made on the map (FYOW 15.4 "Concealment on a Map Board": "each
    /// element throws a D10 and will be considered in concealment on a score
    /// of 6+"; "The actual place of concealment is not stated as this will be
    /// determined during any subsequent game"): FYOB's 5+ throw is not made
    /// again at the start.
    OnMapBoard,
    /// Two or more numbered counters; the element is at one of them, chosen
    /// in play.
    PlacementOptions(Vec<(f32, f32)>),
    /// Two or three counters, `real` (1-based) being the element.
    DummyMarkers { at: Vec<(f32, f32)>, real: u8 },
}

/// Figures of one grade carrying one personal weapon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figures {
    pub men: u8,
    /// CODEX id of the personal weapon; absent for unarmed men.
    #[serde(default)]
    pub weapon: Option<String>,
    /// Defaults to the side's quality.
    #[serde(default)]
    pub grade: Option<FigureGrade>,
}

/// A crew-served weapon, gun or vehicle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    pub codex: String,
    /// Figures serving it; defaults to the CODEX crew.
    #[serde(default)]
    pub crew: Option<u8>,
    /// A vehicle that starts "damaged" (a campaign's vehicle not yet
    /// repaired, FYOW 23): it moves 1D6 and a second damage brews it.
    #[serde(default)]
    pub damaged: bool,
}

/// An order or objective (FYOB "Orders & Objectives"), mapped onto
/// [`Objective`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Order {
    pub activity: crate::command::Activity,
    pub location: String,
    /// The unit supported (Support) or the task (Engineering).
    #[serde(default)]
    pub detail: String,
}

impl Order {
    pub fn objective(&self) -> Result<Objective, crate::command::CommandError> {
        Objective::new(self.activity, &self.location, &self.detail)
    }
}

/// An element as written in a scenario (*Heroes All*, "Composition of an
/// element"), mapped onto [`Element`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElementSpec {
    pub id: String,
    /// What the player reads for it ("13 Platoon"); absent: its id in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The NCO's grade; absent: rated with the FYOB rating throw at the start.
    #[serde(default)]
    pub nco: Option<Grade>,
    #[serde(default)]
    pub figures: Vec<Figures>,
    #[serde(default)]
    pub pieces: Vec<PieceSpec>,
    /// Local resistance or militia.
    #[serde(default)]
    pub militia: bool,
    /// Has a radio (FYOB "Radio Rules").
    #[serde(default)]
    pub radio: bool,
    #[serde(default)]
    pub sniper: bool,
    /// A recognised recce unit (*Heroes All*, "Observation": observers gain
    /// one segment for "being elite and/or a recognised recce unit").
    #[serde(default)]
    pub recce: bool,
    pub start: Start,
    #[serde(default)]
    pub concealed: Option<Concealment>,
    /// Its own order, where it differs from its Company's objective.
    #[serde(default)]
    pub order: Option<Order>,
    /// Its Continuous Momentum score at the start, 1..=6; absent: 6. Reading
    /// (FYOB "At the start of the game, the CMS for each element on the table
    /// will be 6"; FYOW 24.2 rallies an element "if the element ... has a
    /// Continuous Momentum score of less than 6" between battles): a
    /// campaign's element carries its CMS from one battle to the next (test
    /// `an_element_starts_at_the_cms_it_carries`).
    #[serde(default)]
    pub cms: Option<u8>,
    /// Bounds of fire its weapons with a daily allowance have used earlier
    /// today, in a campaign's battles before this one; absent: none. FYOW
    /// 20.4: only "When a weapon ... receives its full daily requirement"
    /// are its shots "reset to the maximum"; *Heroes All*, "Forces acting
    /// whilst rationed": otherwise "the total shown on the Cardsheet is
    /// carried forward and not topped back up" (test
    /// `an_element_starts_with_the_shots_it_used_today`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shots_used: u32,
    /// The charges and Bangalore Torpedoes its men carry to set during the
    /// battle (*Heroes All*, "Explosives"; "Load sizes": each man at most 1
    /// load besides his kit, a small charge ½, a large charge 1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explosives: Vec<crate::explosives::ChargeKind>,
    /// The transport of its side it starts aboard, by id (*Heroes All*,
    /// "Transport elements"): it starts where its transport does, on the
    /// table or in the box, and rides in it until it gets out (an Act).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<String>,
    /// The river craft it brings to the water to cross a river (*Heroes
    /// All*, "Boats"): getting in at the water's edge is an Act, getting
    /// out at the far bank part of its move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boats: Option<crate::boats::RiverBoats>,
    /// A posted guard (*Heroes All*, "Guards"): faced by the Compass die at
    /// the start and "automatically given Overwatch instructions".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guard: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl ElementSpec {
    /// The element, at CMS 6 with full ammunition, its figures at their grade
    /// or the side's quality.
    pub fn element(&self, codex: &Codex, nation: &Nation, quality: Quality) -> Result<Element, String> {
        let default_grade = match quality {
            Quality::Poor => FigureGrade::Poor,
            Quality::Regular => FigureGrade::Regular,
            Quality::Elite => FigureGrade::Elite,
        };
        let figures: Vec<(FigureGrade, Option<&str>)> = self
            .figures
            .iter()
            .flat_map(|f| std::iter::repeat_n((f.grade.unwrap_or(default_grade), f.weapon.as_deref()), f.men.into()))
            .collect();
        let mut pieces = Vec::new();
        for p in &self.pieces {
            let crew = match p.crew {
                Some(c) => c,
                None => codex.get(&p.codex).map_err(|e| e.to_string())?.crew,
            };
            pieces.push((p.codex.as_str(), crew));
        }
        let mut element =
            Element::new(codex, &self.id, nation.clone(), &figures, &pieces).map_err(|e| e.to_string())?;
        element.militia = self.militia;
        element.nco = self.nco.map(|g| Officer::new(Rank::Nco, g)).transpose().map_err(|e| format!("{e:?}"))?;
        element.on_table = matches!(self.start, Start::At(..));
        if let Some(cms) = self.cms {
            element.cms = cms;
        }
        Ok(element)
    }

    /// What it is as a target, for FYOB "What can be concealed".
    ///
    /// Reading: a vehicle is an AFV or soft-skin (neither may be concealed);
    /// a piece firing on an AT gun, howitzer or autocannon row is Artillery,
    /// with its calibre; other pieces (mortars, machine guns) are CSWs;
    /// figures alone are infantry. Test `tank_cannot_be_concealed`. It stands
    /// in an obvious defensive position when its start or any of its counters
    /// is inside a pillbox (FYOB "An element cannot be considered 'concealed'
    /// if it is in a pillbox, casement or other such obvious defensive
    /// position"; test `a_concealed_element_in_a_pillbox_is_refused`).
    pub fn candidate(&self, codex: &Codex, terrain: &Terrain) -> Result<Candidate, String> {
        let mut kind = FireTarget::Infantry;
        let mut calibre_mm = None;
        for p in &self.pieces {
            let entry = codex.get(&p.codex).map_err(|e| e.to_string())?;
            if entry.kind != Kind::Weapon {
                kind = FireTarget::Afv;
                break;
            }
            let Some(a) = entry.armament.first() else { continue };
            if is_artillery_row(a.row) {
                kind = FireTarget::Artillery;
                calibre_mm = calibre_mm.max(a.calibre);
            } else if kind == FireTarget::Infantry {
                kind = FireTarget::Csw;
            }
        }
        let mut places = match self.start {
            Start::At(x, y) => vec![crate::terrain::Point(x, y)],
            _ => Vec::new(),
        };
        if let Some(Concealment::PlacementOptions(p) | Concealment::DummyMarkers { at: p, .. }) = &self.concealed {
            places.extend(p.iter().map(|&(x, y)| crate::terrain::Point(x, y)));
        }
        let pillbox = |p: &crate::terrain::Point| {
            crate::geometry::building_at(terrain, *p).is_some_and(|(k, _)| {
                matches!(
                    terrain.features[k],
                    crate::terrain::Feature::Building { structure: crate::buildings::Structure::Pillbox, .. }
                )
            })
        };
        let obvious_defensive_position = places.iter().any(pillbox);
        Ok(Candidate { kind, calibre_mm, sniper: self.sniper, obvious_defensive_position })
    }

    /// The concealed element and its counters.
    pub fn concealed(&self) -> Result<Option<Concealed>, concealment::ConcealError> {
        Ok(match &self.concealed {
            None => None,
            Some(Concealment::InPlace | Concealment::OnMapBoard) => Some(Concealed::in_place(&self.id, self.sniper)),
            Some(Concealment::PlacementOptions(at)) => {
                Some(Concealed::placement_options(&self.id, count(at.len()), self.sniper)?)
            }
            Some(Concealment::DummyMarkers { at, real }) => {
                Some(Concealed::dummy_markers(&self.id, count(at.len()), *real, self.sniper)?)
            }
        })
    }
}

fn count(n: usize) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// The Weapons table rows that are guns (targets of the Artillery class).
const ARTILLERY_ROWS: [Weapon; 12] = [
    Weapon::AtGunClass1,
    Weapon::AtGunClass2,
    Weapon::AtGunClass3,
    Weapon::AtGunClass4,
    Weapon::AtGunClass5,
    Weapon::AutocannonLight,
    Weapon::AutocannonHeavy,
    Weapon::Howitzer50,
    Weapon::Howitzer75,
    Weapon::Howitzer104,
    Weapon::Howitzer149,
    Weapon::Howitzer150Plus,
];

fn is_artillery_row(row: Weapon) -> bool {
    ARTILLERY_ROWS.contains(&row)
}

/// A Company (squadron, battery …) under its Company Officer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompanySpec {
    pub id: String,
    /// What the player reads for it ("C Company"); absent: its id in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The Company Officer's grade (Weak..Inspirational).
    pub officer: Grade,
    /// The element whose figures the CO is with.
    pub attached_to: String,
    /// The Senior Officer's objective for the Company at the start.
    #[serde(default)]
    pub objective: Option<Order>,
    pub elements: Vec<ElementSpec>,
    /// Its own box, where it is not its side's (FYOW 15.2: the box a
    /// Battlegroup arrived in is "owned" by it, so "opposing forces do not
    /// necessarily own 'boxes' opposite each other"; 13.7): its elements
    /// come on from the box and go back to it at this edge. `None`: the
    /// side's edge.
    #[serde(default)]
    pub edge: Option<Edge>,
}

/// A squadron of aircraft (*Heroes All*, "Aircraft rules").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Squadron {
    pub id: String,
    pub aircraft: AircraftType,
    /// How many, at most 3 ("a squadron of 3").
    pub count: u8,
    pub height: Height,
    pub schedule: Schedule,
    /// First bound of its 4-bound window.
    pub window: u32,
}

impl Squadron {
    pub fn window(&self) -> Window {
        Window { first: self.window }
    }
}

/// A Forward Observation Officer (*Heroes All*, "Advanced Artillery Rules").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FooSpec {
    pub id: String,
    pub grade: Grade,
    /// The element he starts with.
    pub attached_to: String,
}

/// An off-table battery, firing from its short range behind its side's edge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Battery {
    pub id: String,
    /// CODEX id of the gun.
    pub gun: String,
    pub guns: u8,
    /// The FOO who calls its fire.
    pub foo: String,
}

/// What a side must do by the time limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Goal {
    /// Hold a place: own elements within `radius` inches of `at`, none of the
    /// enemy's, at the end.
    Hold { place: String, at: (f32, f32), radius: f32 },
    /// Break the enemy: his Strategic Condition reaches Withdrawn (FYOB
    /// "Strategic Condition at Red": "the battle is lost").
    Break,
    /// Destroy or drive off the enemy elements named.
    Destroy(Vec<String>),
    /// Keep the force from breaking until the time limit.
    Survive,
}

/// One side of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub name: String,
    pub nation: Nation,
    /// Year of the battle: the CODEX entries must be in service.
    pub year: u16,
    /// The troops' quality, the default grade of their figures.
    pub quality: Quality,
    /// The Senior Officer's grade (BelowAverage, Average, AboveAverage).
    pub senior_officer: Grade,
    /// The side's own table edge, where its box is.
    pub edge: Edge,
    pub companies: Vec<CompanySpec>,
    #[serde(default)]
    pub aircraft: Vec<Squadron>,
    #[serde(default)]
    pub foos: Vec<FooSpec>,
    #[serde(default)]
    pub artillery: Vec<Battery>,
    /// Demolition charges the side has set before the battle (*Heroes All*,
    /// "Explosives").
    #[serde(default)]
    pub charges: Vec<ChargeSpec>,
    #[serde(default)]
    pub victory: Vec<Goal>,
    /// A landing from the sea: the beach and the Landing Plan.
    #[serde(default)]
    pub landing: Option<BeachLanding>,
    /// Where the side's engineers may throw a pontoon bridge.
    #[serde(default)]
    pub bridging: Vec<BridgingSite>,
    /// The force is "Rationed" (*Heroes All*, "Restrictions applied in
    /// 'Rationed' state": "When the scenario dictates ..."): its rounds
    /// halved, no grenades, no "at the double", its CM tests doubled, no CMS
    /// rallying throws, an extra D6 in its Strategic Milestone tests.
    #[serde(default)]
    pub rationed: bool,
    /// The Strategic Milestone in percent (FYOB "Strategic Milestones"):
    /// "For most armies this will be 10%", 15 or 20 where the force was
    /// historically resilient, less where it was weak.
    #[serde(default = "default_milestone")]
    pub milestone: u32,
}

/// "For most armies this will be 10%".
pub const DEFAULT_MILESTONE: u32 = 10;

fn default_milestone() -> u32 {
    DEFAULT_MILESTONE
}

/// A landing from the sea (*Heroes All*, "Landing craft"): the beach, from
/// its left end along the water's edge, is divided into 4" lanes and gaps;
/// the Landing Plan puts each craft of each wave in a lane (amphibious
/// vehicles may use the gaps).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeachLanding {
    /// The left end of the beach at the water's edge, inches: its nearest
    /// end where the beach runs along a left or right edge.
    pub at: (f32, f32),
    /// Inches along the water's edge: the table's width, or its depth where
    /// the sea is at the left or right edge.
    pub width: f32,
    /// The table edge the sea is at: the beach runs along it and up the
    /// beach is away from it. Left out, the beach runs along the table's
    /// width and up the beach is away from the side's own edge.
    #[serde(default)]
    pub sea: Option<Edge>,
    /// "If the scenario indicates that the approaches are mined".
    #[serde(default)]
    pub mined_approaches: bool,
    pub craft: Vec<CraftSpec>,
}

impl BeachLanding {
    /// The beach's Landing Plan.
    pub fn plan(&self) -> Result<crate::boats::LandingPlan, crate::boats::BoatError> {
        let mut plan = crate::boats::LandingPlan::new(self.width)?;
        for c in &self.craft {
            plan.schedule(c.landing())?;
        }
        Ok(plan)
    }

    /// The middle of slot `slot` at the water's edge.
    pub fn slot_centre(&self, slot: usize) -> (f32, f32) {
        let w = crate::boats::LANE_WIDTH;
        self.along(w * slot as f32 + w / 2.0)
    }

    /// The point `d` inches along the water's edge from the beach's end.
    pub fn along(&self, d: f32) -> (f32, f32) {
        match self.sea {
            Some(Edge::Left | Edge::Right) => (self.at.0, self.at.1 + d),
            _ => (self.at.0 + d, self.at.1),
        }
    }
}

/// One landing craft (or amphibious vehicle) of the Landing Plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CraftSpec {
    pub id: String,
    pub craft: crate::boats::Craft,
    /// Wave 1 is on approach in bound 1 and lands in bound 2.
    pub wave: u32,
    /// Lane or gap, 0 at the beach's left end.
    pub slot: usize,
}

impl CraftSpec {
    pub fn landing(&self) -> crate::boats::Landing {
        crate::boats::Landing { slot: self.slot, wave: self.wave, craft: self.craft, contents: vec![self.id.clone()] }
    }
}

/// A site for a pontoon bridge (*Heroes All*, "Pontoon bridges"): the
/// side's engineers under an Engineering order at `place` build the bridge
/// across `span` from the near bank.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BridgingSite {
    pub place: String,
    pub span: crate::terrain::Span,
}

/// A charge set before the battle: on `at`, fired by the detonation pack
/// (`delay` 0) or going off by itself after `delay` bounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeSpec {
    pub id: String,
    pub at: (f32, f32),
    pub kind: crate::explosives::ChargeKind,
    #[serde(default)]
    pub delay: u8,
    /// What it brings down ("the bridge"), for the log.
    #[serde(default)]
    pub target: String,
}

impl Side {
    pub fn elements(&self) -> impl Iterator<Item = &ElementSpec> {
        self.companies.iter().flat_map(|c| &c.elements)
    }

    pub fn senior_officer(&self) -> Result<Officer, String> {
        Officer::new(Rank::SeniorOfficer, self.senior_officer).map_err(|e| format!("{e:?}"))
    }

    pub fn foo(&self, id: &str) -> Option<Result<Foo, String>> {
        let spec = self.foos.iter().find(|f| f.id == id)?;
        Some(
            Officer::new(Rank::CompanyOfficer, spec.grade)
                .map(|o| Foo::new(o, self.nation.clone()))
                .map_err(|e| format!("{e:?}")),
        )
    }
}

/// A battle as written in `scenarios/battles/*.ron`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// What the player reads before the battle.
    pub briefing: String,
    #[serde(default)]
    pub table: TableSize,
    #[serde(default = "summer")]
    pub season: Season,
    /// Hour of the first bound, 0..=23 (one bound is one hour).
    #[serde(default = "dawn")]
    pub start_hour: u8,
    #[serde(default)]
    pub weather: Weather,
    /// What covers the ground: grass, lying snow or desert sand.
    #[serde(default)]
    pub ground: Ground,
    /// Bounds the battle lasts.
    #[serde(default = "default_time_limit")]
    pub time_limit: u32,
    #[serde(default)]
    pub sides: Vec<Side>,
    /// Hills, woods, hedges, buildings, roads, rivers… in inches from the
    /// near-left corner (`terrain.rs`); none is an open table.
    #[serde(default)]
    pub terrain: Terrain,
    /// Named places that orders and objectives send elements to ("the lane",
    /// "the orchard edge"); a `hold` goal's place is one too.
    #[serde(default)]
    pub places: Vec<Place>,
}

/// A named point on the table, in inches from the near-left corner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub name: String,
    pub at: (f32, f32),
}

fn summer() -> Season {
    Season::Summer
}

fn dawn() -> u8 {
    6
}

/// Three sessions of four bounds.
fn default_time_limit() -> u32 {
    12
}

/// A scenario that is well formed but wrong: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The field, as a path (`sides[0].companies[1].elements[2].start`).
    pub field: String,
    /// A value written in the file near the problem (an id), to find its line.
    pub near: Option<String>,
    pub message: String,
}

impl Invalid {
    fn new(field: impl Into<String>, near: Option<&str>, message: impl Into<String>) -> Self {
        Self { field: field.into(), near: near.map(str::to_owned), message: message.into() }
    }

    /// The error for `file`: `field: problem` at the line and column where
    /// the field is written in `text`, or `near` in it ([`crate::data::locate`]).
    pub fn in_file(&self, file: &str, text: &str) -> DataError {
        self.in_file_under(file, text, "")
    }

    /// [`Invalid::in_file`] for a scenario written as the field `under` of
    /// `text` (a save holds its battle's scenario at `start.scenario`).
    pub fn in_file_under(&self, file: &str, text: &str, under: &str) -> DataError {
        let field = if under.is_empty() { self.field.clone() } else { format!("{under}.{}", self.field) };
        DataError::field(file, text, &field, self.near.as_deref(), &self.message)
    }
}

impl Scenario {
    /// Parses and checks a scenario without the CODEX; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Self, DataError> {
        // Optional fields are written bare (`nco: Bold`, not `nco: Some(Bold)`).
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let scenario: Scenario = from_ron_with(&options, file, text)?;
        scenario.validate().map_err(|e| e.in_file(file, text))?;
        Ok(scenario)
    }

    /// Parses, then checks against the CODEX.
    pub fn load(file: &str, text: &str, codex: &Codex) -> Result<Self, DataError> {
        let scenario = Self::parse(file, text)?;
        scenario.validate_against(codex).map_err(|e| e.in_file(file, text))?;
        Ok(scenario)
    }

    /// Every check [`Scenario::load`] makes, on a scenario already read (one
    /// a save holds).
    pub fn check(&self, codex: &Codex) -> Result<(), Invalid> {
        self.validate()?;
        self.validate_against(codex)
    }

    /// The clock at the first bound.
    pub fn clock(&self) -> Result<WargameClock, crate::day::DayError> {
        WargameClock::new(self.season, self.start_hour)
    }

    pub fn battle_weather(&self) -> Result<BattleWeather, crate::day::DayError> {
        BattleWeather::new(self.weather.rain_snow_gauge)
    }

    fn validate(&self) -> Result<(), Invalid> {
        if self.name.trim().is_empty() {
            return Err(Invalid::new("name", None, "must not be empty"));
        }
        for (side, v) in [("width", self.table.width), ("depth", self.table.depth)] {
            if !(MIN_TABLE_SIDE..=MAX_TABLE_SIDE).contains(&v) {
                let m = format!("{v}\" is outside {MIN_TABLE_SIDE}\"..{MAX_TABLE_SIDE}\"");
                return Err(Invalid::new(format!("table.{side}"), None, m));
            }
        }
        self.terrain
            .validate(self.table)
            .map_err(|e| Invalid::new(format!("terrain.{}", e.path()), None, e.located()))?;
        self.clock().map_err(|e| Invalid::new("start_hour", None, e.to_string()))?;
        self.battle_weather().map_err(|e| Invalid::new("weather.rain_snow_gauge", None, e.to_string()))?;
        if self.time_limit == 0 {
            return Err(Invalid::new("time_limit", None, "a battle lasts at least 1 bound"));
        }
        if self.sides.len() == 1 {
            return Err(Invalid::new("sides", None, "a battle needs two sides (or none, for a bare table)"));
        }
        for (i, p) in self.places.iter().enumerate() {
            self.on_table(&format!("places[{i}]"), Some(&p.name), p.at)?;
        }
        let mut ids = BTreeSet::new();
        for (s, side) in self.sides.iter().enumerate() {
            self.validate_side(&format!("sides[{s}]"), side, &mut ids)?;
        }
        for (s, side) in self.sides.iter().enumerate() {
            for (g, goal) in side.victory.iter().enumerate() {
                let field = format!("sides[{s}].victory[{g}]");
                match goal {
                    Goal::Hold { place, at, radius } => {
                        self.on_table(&field, Some(place), *at)?;
                        if !(*radius > 0.0 && radius.is_finite()) {
                            return Err(Invalid::new(field, Some(place), "radius must be a positive distance"));
                        }
                    }
                    Goal::Destroy(targets) => {
                        for t in targets {
                            let enemy = self
                                .sides
                                .iter()
                                .enumerate()
                                .any(|(o, os)| o != s && os.elements().any(|e| &e.id == t));
                            if !enemy {
                                return Err(Invalid::new(field, Some(t), format!("{t:?} is no enemy element")));
                            }
                        }
                    }
                    Goal::Break | Goal::Survive => {}
                }
            }
        }
        Ok(())
    }

    /// Where the place `name` is: a listed place, else a `hold` goal's place.
    pub fn place(&self, name: &str) -> Option<(f32, f32)> {
        self.places.iter().find(|p| p.name == name).map(|p| p.at).or_else(|| {
            self.sides.iter().flat_map(|s| &s.victory).find_map(|g| match g {
                Goal::Hold { place, at, .. } if place == name => Some(*at),
                _ => None,
            })
        })
    }

    fn knows_place(&self, field: &str, place: &str) -> Result<(), Invalid> {
        if self.place(place).is_some() {
            Ok(())
        } else {
            let m = format!("no place {place:?}: add it to `places` (or name a `hold` goal's place)");
            Err(Invalid::new(field, Some(place), m))
        }
    }

    /// The beach on the table, the Landing Plan sound (lanes, gaps, one craft
    /// a slot a wave), every wave landing within the battle.
    fn validate_landing(
        &self,
        at: &str,
        landing: &BeachLanding,
        unique: &mut impl FnMut(String, &str) -> Result<(), Invalid>,
    ) -> Result<(), Invalid> {
        self.on_table(&format!("{at}.at"), None, landing.at)?;
        self.on_table(&format!("{at}.width"), None, landing.along(landing.width))?;
        for (k, c) in landing.craft.iter().enumerate() {
            unique(format!("{at}.craft[{k}].id"), &c.id)?;
            if c.wave == 0 {
                return Err(Invalid::new(format!("{at}.craft[{k}].wave"), Some(&c.id), "waves count from 1"));
            }
            // Wave w approaches in bound w and lands in bound w + 1.
            self.in_battle(&format!("{at}.craft[{k}].wave"), Some(&c.id), c.wave + 1)?;
        }
        landing.plan().map_err(|e| Invalid::new(format!("{at}.craft"), None, e.to_string()))?;
        Ok(())
    }

    fn on_table(&self, field: &str, near: Option<&str>, at: (f32, f32)) -> Result<(), Invalid> {
        if self.table.contains(at) {
            Ok(())
        } else {
            let (w, d) = (self.table.width, self.table.depth);
            Err(Invalid::new(field, near, format!("({}, {}) is off the {w}\" × {d}\" table", at.0, at.1)))
        }
    }

    fn in_battle(&self, field: &str, near: Option<&str>, bound: u32) -> Result<(), Invalid> {
        if (1..=self.time_limit).contains(&bound) {
            Ok(())
        } else {
            Err(Invalid::new(field, near, format!("bound {bound} is outside the battle's 1..={}", self.time_limit)))
        }
    }

    fn validate_side(&self, at: &str, side: &Side, ids: &mut BTreeSet<String>) -> Result<(), Invalid> {
        if !(1..=50).contains(&side.milestone) {
            let m = format!("a Strategic Milestone of {}% is outside 1..=50", side.milestone);
            return Err(Invalid::new(format!("{at}.milestone"), Some(&side.name), m));
        }
        let mut unique = |field: String, id: &str| {
            if id.trim().is_empty() {
                Err(Invalid::new(field, None, "id must not be empty"))
            } else if ids.insert(id.to_owned()) {
                Ok(())
            } else {
                Err(Invalid::new(field, Some(id), format!("id {id:?} is used twice")))
            }
        };
        if crate::codex::Era::of_year(side.year).is_none() {
            return Err(Invalid::new(
                format!("{at}.year"),
                Some(&side.name),
                format!("{} is not a year of 1939–45", side.year),
            ));
        }
        side.senior_officer().map_err(|e| Invalid::new(format!("{at}.senior_officer"), Some(&side.name), e))?;
        let element_ids: Vec<&str> = side.elements().map(|e| e.id.as_str()).collect();
        for (c, company) in side.companies.iter().enumerate() {
            let at = format!("{at}.companies[{c}]");
            unique(format!("{at}.id"), &company.id)?;
            Officer::new(Rank::CompanyOfficer, company.officer)
                .map_err(|e| Invalid::new(format!("{at}.officer"), Some(&company.id), format!("{e:?}")))?;
            if !company.elements.iter().any(|e| e.id == company.attached_to) {
                let m = format!("{:?} is not an element of this company", company.attached_to);
                return Err(Invalid::new(format!("{at}.attached_to"), Some(&company.attached_to), m));
            }
            if let Some(o) = &company.objective {
                o.objective().map_err(|e| Invalid::new(format!("{at}.objective"), Some(&company.id), e.to_string()))?;
                self.knows_place(&format!("{at}.objective"), &o.location)?;
            }
            for (i, e) in company.elements.iter().enumerate() {
                let at = format!("{at}.elements[{i}]");
                unique(format!("{at}.id"), &e.id)?;
                self.validate_element(&at, e)?;
            }
        }
        for (q, sq) in side.aircraft.iter().enumerate() {
            let at = format!("{at}.aircraft[{q}]");
            unique(format!("{at}.id"), &sq.id)?;
            if self.weather.grounds_aircraft() {
                let m = "no flying in fog, snow or high winds (FYOW 25.8)";
                return Err(Invalid::new(at, Some(&sq.id), m));
            }
            if !(1..=SQUADRON).contains(&usize::from(sq.count)) {
                return Err(Invalid::new(
                    format!("{at}.count"),
                    Some(&sq.id),
                    format!("a squadron is 1..={SQUADRON} aircraft"),
                ));
            }
            self.in_battle(&format!("{at}.window"), Some(&sq.id), sq.window)?;
            if let Schedule::Bound(b) = sq.schedule
                && !sq.window().open(b)
            {
                let m = format!("bound {b} is outside its window {}..{}", sq.window, sq.window + WINDOW_BOUNDS);
                return Err(Invalid::new(format!("{at}.schedule"), Some(&sq.id), m));
            }
        }
        for (f, observer) in side.foos.iter().enumerate() {
            let at = format!("{at}.foos[{f}]");
            unique(format!("{at}.id"), &observer.id)?;
            if let Some(Err(e)) = side.foo(&observer.id) {
                return Err(Invalid::new(format!("{at}.grade"), Some(&observer.id), e));
            }
            if !element_ids.contains(&observer.attached_to.as_str()) {
                let m = format!("{:?} is not an element of this side", observer.attached_to);
                return Err(Invalid::new(format!("{at}.attached_to"), Some(&observer.attached_to), m));
            }
        }
        for (k, charge) in side.charges.iter().enumerate() {
            let at = format!("{at}.charges[{k}]");
            unique(format!("{at}.id"), &charge.id)?;
            self.on_table(&at, Some(&charge.id), charge.at)?;
            crate::explosives::Charge::set(charge.kind, charge.delay)
                .map_err(|e| Invalid::new(format!("{at}.delay"), Some(&charge.id), e.to_string()))?;
        }
        if let Some(landing) = &side.landing {
            self.validate_landing(&format!("{at}.landing"), landing, &mut unique)?;
        }
        for (c, company) in side.companies.iter().enumerate() {
            for (i, e) in company.elements.iter().enumerate() {
                if let Start::Landing(wave, slot) = e.start
                    && !side.landing.iter().flat_map(|l| &l.craft).any(|c| c.wave == wave && c.slot == slot)
                {
                    let m = format!("no landing craft in slot {slot} of wave {wave} in this side's Landing Plan");
                    return Err(Invalid::new(format!("{at}.companies[{c}].elements[{i}].start"), Some(&e.id), m));
                }
            }
        }
        for (b, site) in side.bridging.iter().enumerate() {
            let at = format!("{at}.bridging[{b}]");
            self.knows_place(&at, &site.place)?;
            self.on_table(&format!("{at}.span.from"), Some(&site.place), (site.span.from.0, site.span.from.1))?;
            self.on_table(&format!("{at}.span.to"), Some(&site.place), (site.span.to.0, site.span.to.1))?;
            if self.terrain.river_crossed(&site.span).is_none() {
                let m = "the span must cross a river from bank to bank";
                return Err(Invalid::new(format!("{at}.span"), Some(&site.place), m));
            }
        }
        for (b, battery) in side.artillery.iter().enumerate() {
            let at = format!("{at}.artillery[{b}]");
            unique(format!("{at}.id"), &battery.id)?;
            if battery.guns == 0 {
                return Err(Invalid::new(format!("{at}.guns"), Some(&battery.id), "a battery has at least 1 gun"));
            }
            if side.foo(&battery.foo).is_none() {
                return Err(Invalid::new(
                    format!("{at}.foo"),
                    Some(&battery.foo),
                    format!("no FOO {:?} on this side", battery.foo),
                ));
            }
        }
        Ok(())
    }

    fn validate_element(&self, at: &str, e: &ElementSpec) -> Result<(), Invalid> {
        let near = Some(e.id.as_str());
        if e.figures.is_empty() && e.pieces.is_empty() {
            return Err(Invalid::new(format!("{at}.figures"), near, "an element needs figures or pieces"));
        }
        if let Some(g) = e.nco {
            Officer::new(Rank::Nco, g).map_err(|err| Invalid::new(format!("{at}.nco"), near, format!("{err:?}")))?;
        }
        if let Some(cms) = e.cms.filter(|c| !(1..=6).contains(c)) {
            return Err(Invalid::new(format!("{at}.cms"), near, format!("{cms} is outside 1..=6")));
        }
        let men: u32 = e.figures.iter().map(|f| u32::from(f.men)).sum();
        if let Err(err) = crate::explosives::carried_by(men, &e.explosives) {
            let m = format!("{men} men on foot cannot carry them: {err}");
            return Err(Invalid::new(format!("{at}.explosives"), near, m));
        }
        if self.weather.grounds_aircraft() && matches!(e.start, Start::Drop(..) | Start::Glider(..)) {
            let m = "no flying in fog, snow or high winds (FYOW 25.8): no drop and no glider";
            return Err(Invalid::new(format!("{at}.start"), near, m));
        }
        match e.start {
            Start::At(x, y) => self.on_table(&format!("{at}.start"), near, (x, y))?,
            Start::Box(b) => self.in_battle(&format!("{at}.start"), near, b)?,
            Start::Reserve | Start::Landing(..) => {}
            Start::Drop(b, x, y) | Start::Glider(b, x, y) => {
                self.in_battle(&format!("{at}.start"), near, b)?;
                self.on_table(&format!("{at}.start"), near, (x, y))?;
            }
        }
        if let Some(c) = &e.concealed {
            // FYOB "Placement options": the counters go on the table at the
            // start, so only an element on the table starts concealed.
            if !matches!(e.start, Start::At(..)) {
                return Err(Invalid::new(
                    format!("{at}.concealed"),
                    near,
                    "only an element on the table starts concealed",
                ));
            }
            let places: &[(f32, f32)] = match c {
                Concealment::InPlace | Concealment::OnMapBoard => &[],
                Concealment::PlacementOptions(p) | Concealment::DummyMarkers { at: p, .. } => p,
            };
            for &p in places {
                self.on_table(&format!("{at}.concealed"), near, p)?;
            }
            e.concealed().map_err(|err| Invalid::new(format!("{at}.concealed"), near, err.to_string()))?;
        }
        if let Some(o) = &e.order {
            o.objective().map_err(|err| Invalid::new(format!("{at}.order"), near, err.to_string()))?;
            self.knows_place(&format!("{at}.order"), &o.location)?;
        }
        Ok(())
    }

    /// Checks every CODEX id and what the CODEX decides: ids exist and are in
    /// service in the side's year, elements are well made ([`Element::new`]),
    /// concealed elements may be concealed, off-table guns can stand behind
    /// the table (their short range, *Heroes All* "Advanced Artillery Rules").
    pub fn validate_against(&self, codex: &Codex) -> Result<(), Invalid> {
        // Figures already in each building feature, for its capacity.
        let mut inside: std::collections::BTreeMap<usize, u8> = std::collections::BTreeMap::new();
        for (s, side) in self.sides.iter().enumerate() {
            let in_service = |field: String, id: &str| {
                let entry =
                    codex.get(id).map_err(|_| Invalid::new(&field, Some(id), format!("unknown CODEX id {id:?}")))?;
                if entry.in_service(side.year) {
                    Ok(entry)
                } else {
                    let (a, b) = entry.service;
                    Err(Invalid::new(field, Some(id), format!("{id:?} is in service {a}–{b}, not {}", side.year)))
                }
            };
            for (c, company) in side.companies.iter().enumerate() {
                for (i, e) in company.elements.iter().enumerate() {
                    let at = format!("sides[{s}].companies[{c}].elements[{i}]");
                    for (f, fig) in e.figures.iter().enumerate() {
                        if let Some(w) = &fig.weapon {
                            in_service(format!("{at}.figures[{f}].weapon"), w)?;
                        }
                    }
                    for (p, piece) in e.pieces.iter().enumerate() {
                        in_service(format!("{at}.pieces[{p}].codex"), &piece.codex)?;
                    }
                    let element =
                        e.element(codex, &side.nation, side.quality).map_err(|m| Invalid::new(&at, Some(&e.id), m))?;
                    if let Start::At(x, y) = e.start {
                        self.may_start_in(codex, &element, (x, y), &mut inside)
                            .map_err(|m| Invalid::new(format!("{at}.start"), Some(&e.id), m))?;
                    }
                    if e.concealed.is_some() {
                        let candidate =
                            e.candidate(codex, &self.terrain).map_err(|m| Invalid::new(&at, Some(&e.id), m))?;
                        concealment::may_be_concealed(&candidate)
                            .map_err(|err| Invalid::new(format!("{at}.concealed"), Some(&e.id), err.to_string()))?;
                    }
                }
            }
            for (c, company) in side.companies.iter().enumerate() {
                for (i, e) in company.elements.iter().enumerate() {
                    let Some(transport) = &e.aboard else { continue };
                    let at = format!("sides[{s}].companies[{c}].elements[{i}].aboard");
                    transport_load(codex, side, e, transport).map_err(|m| Invalid::new(at, Some(&e.id), m))?;
                }
            }
            for (c, company) in side.companies.iter().enumerate() {
                for (i, e) in company.elements.iter().enumerate() {
                    if e.guard {
                        let at = format!("sides[{s}].companies[{c}].elements[{i}].guard");
                        posted(codex, e).map_err(|m| Invalid::new(at, Some(&e.id), m))?;
                    }
                    let Some(boats) = e.boats else { continue };
                    let at = format!("sides[{s}].companies[{c}].elements[{i}].boats");
                    boat_load(codex, e, boats).map_err(|m| Invalid::new(at, Some(&e.id), m))?;
                }
            }
            if let Some(landing) = &side.landing {
                for (k, craft) in landing.craft.iter().enumerate() {
                    let field = format!("sides[{s}].landing.craft[{k}]");
                    let aboard = side.elements().filter(|e| e.start == Start::Landing(craft.wave, craft.slot));
                    craft_load(codex, craft, aboard).map_err(|m| Invalid::new(field, Some(&craft.id), m))?;
                }
            }
            for (b, battery) in side.artillery.iter().enumerate() {
                let field = format!("sides[{s}].artillery[{b}].gun");
                let entry = in_service(field.clone(), &battery.gun)?;
                let range = match (entry.kind, entry.armament.first()) {
                    (Kind::Weapon, Some(a)) => a.range(),
                    _ => return Err(Invalid::new(field, Some(&battery.gun), "an off-table battery fires guns")),
                };
                artillery::behind_the_edge(range)
                    .map_err(|err| Invalid::new(field, Some(&battery.gun), err.to_string()))?;
            }
        }
        Ok(())
    }
}

impl Scenario {
    /// *Heroes All*, "Buildings": an element starting at `at` inside a
    /// building must be one the building may hold, its figures within the
    /// room the elements already placed there leave (`inside`, per feature).
    /// A structure (a pillbox, a bunker) is no building and takes whoever the
    /// scenario puts in it (test `a_gun_may_not_start_in_a_house`).
    fn may_start_in(
        &self,
        codex: &Codex,
        element: &Element,
        at: (f32, f32),
        inside: &mut std::collections::BTreeMap<usize, u8>,
    ) -> Result<(), String> {
        let Some((k, _)) = crate::geometry::building_at(&self.terrain, crate::terrain::Point(at.0, at.1)) else {
            return Ok(());
        };
        let Some(building) = self.terrain.features[k].building() else { return Ok(()) };
        if !building.structure.row().building {
            return Ok(());
        }
        let occupiers = element.occupiers(codex).map_err(|e| e.to_string())?;
        let here = inside.entry(k).or_default();
        building.may_hold_all(&occupiers, *here).map_err(|e| format!("it starts inside a building: {e}"))?;
        *here = here.saturating_add(crate::buildings::figures(&occupiers));
        Ok(())
    }
}

/// What the elements aboard `craft` load it with (*Heroes All*, "Loads":
/// each man 1 load, each weapon or vehicle its load space), checked against
/// its capacity. An amphibious tank carries only itself.
fn craft_load<'a>(
    codex: &Codex,
    craft: &CraftSpec,
    aboard: impl Iterator<Item = &'a ElementSpec>,
) -> Result<crate::loads::Loads, String> {
    use crate::loads::{self, Loads};
    let aboard: Vec<&ElementSpec> = aboard.collect();
    let crate::boats::Craft::Carrier(carrier) = craft.craft else {
        return if aboard.len() == 1 { Ok(Loads::whole(0)) } else { Err("an amphibious tank is one element".into()) };
    };
    let mut load = Vec::new();
    for e in aboard {
        load.push(e.load(codex)?);
    }
    loads::fits(carrier.capacity(), &load).map_err(|err| err.to_string())
}

/// Checks a posted guard (*Heroes All*, "Guards"): men on foot, posted where
/// they start on the table.
fn posted(codex: &Codex, e: &ElementSpec) -> Result<(), String> {
    if !matches!(e.start, Start::At(..)) {
        return Err("a guard is posted where it starts on the table: its start is at(x, y)".into());
    }
    if e.figures.is_empty() {
        return Err("a guard is men on foot".into());
    }
    for p in &e.pieces {
        if codex.get(&p.codex).map_err(|err| err.to_string())?.kind != Kind::Weapon {
            return Err("a guard is men on foot, not a vehicle".into());
        }
    }
    Ok(())
}

/// Checks an element's river craft (*Heroes All*, "Boats", "Loads"): men
/// on foot with their weapons, not aboard a transport, starting on the table
/// or in the box, with room in the boats for its men and kit and no piece
/// too large for one boat.
fn boat_load(codex: &Codex, e: &ElementSpec, boats: crate::boats::RiverBoats) -> Result<crate::loads::Loads, String> {
    use crate::loads::{self, Loads};
    if e.aboard.is_some() {
        return Err("it rides in a transport; its boats would carry it only from the water's edge".into());
    }
    if !matches!(e.start, Start::At(..) | Start::Box(_)) {
        return Err("it brings its boats from the table or the box".into());
    }
    let mut largest = if e.figures.is_empty() { Loads::whole(0) } else { Loads::whole(1) };
    for p in &e.pieces {
        let entry = codex.get(&p.codex).map_err(|err| err.to_string())?;
        if entry.kind != Kind::Weapon {
            return Err("a vehicle does not cross in river craft".into());
        }
        largest = largest.max(loads::codex_load_space(entry).map_err(|err| err.to_string())?);
    }
    boats.carry(e.load(codex)?, largest).map_err(|err| err.to_string())
}

/// Checks `passenger` aboard its side's `transport` (*Heroes All*,
/// "Transport elements", "Loads and carrying capacity"): a vehicle of the
/// side whose CODEX gives a capacity, carrying no one else and riding in
/// nothing itself, starting where the passenger does (on the table or in
/// the box), with room for the passenger's men and kit.
fn transport_load(
    codex: &Codex,
    side: &Side,
    passenger: &ElementSpec,
    transport: &str,
) -> Result<crate::loads::Loads, String> {
    let Some(vehicle) = side.elements().find(|e| e.id == transport) else {
        return Err(format!("{transport:?} is not an element of this side"));
    };
    if !vehicle.figures.is_empty() || vehicle.nco.is_some() {
        let m =
            "is a transport: its vehicles and their drivers, no figures and no NCO (it moves under its passengers')";
        return Err(format!("{transport:?} {m}"));
    }
    if vehicle.aboard.is_some() {
        return Err(format!("{transport:?} is itself aboard a transport"));
    }
    if side.elements().filter(|e| e.aboard.as_deref() == Some(transport)).count() > 1 {
        return Err(format!("{transport:?} carries one element: it moves under that element's NCO"));
    }
    let mut capacity = None;
    for p in &vehicle.pieces {
        let entry = codex.get(&p.codex).map_err(|err| err.to_string())?;
        if entry.kind != Kind::Weapon {
            capacity = Some(crate::loads::codex_capacity(entry).map_err(|err| err.to_string())?);
        }
    }
    let Some(capacity) = capacity else { return Err(format!("{transport:?} is no vehicle")) };
    for p in &passenger.pieces {
        if codex.get(&p.codex).is_ok_and(|entry| entry.kind != Kind::Weapon) {
            return Err("a vehicle is not carried by a transport".into());
        }
    }
    if !matches!(vehicle.start, Start::At(..) | Start::Box(_)) {
        return Err(format!("{transport:?} carries its passengers from the table or the box"));
    }
    if passenger.start != vehicle.start {
        return Err(format!("it starts where {transport:?} does"));
    }
    if passenger.concealed.is_some() {
        return Err("men aboard a transport start in it, not concealed".into());
    }
    crate::loads::fits(capacity, &[passenger.load(codex)?]).map_err(|err| err.to_string())
}

impl ElementSpec {
    /// What the element loads a carrier with (*Heroes All*, "Loads"): each
    /// man 1 load, each piece its CODEX load space and its crew, and the
    /// charges its men carry ("a man with a large explosive charge is counted
    /// as 2 loads").
    pub fn load(&self, codex: &Codex) -> Result<crate::loads::Loads, String> {
        use crate::loads::{self, Loads};
        let men: u32 = self.figures.iter().map(|f| u32::from(f.men)).sum();
        let mut load = Loads::whole(men);
        load += self.explosives.iter().map(|&k| crate::explosives::load(k)).sum();
        for p in &self.pieces {
            let entry = codex.get(&p.codex).map_err(|err| err.to_string())?;
            load += loads::codex_load_space(entry).map_err(|err| err.to_string())?;
            load += Loads::whole(u32::from(p.crew.unwrap_or(entry.crew)));
        }
        Ok(load)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BATTLES: [(&str, &str); 4] = [
        ("scenarios/battles/patrol.ron", include_str!("../../../scenarios/battles/patrol.ron")),
        ("scenarios/battles/village.ron", include_str!("../../../scenarios/battles/village.ron")),
        ("scenarios/battles/river.ron", include_str!("../../../scenarios/battles/river.ron")),
        ("scenarios/battles/beach.ron", include_str!("../../../scenarios/battles/beach.ron")),
    ];

    use crate::codex::test_codex as codex;

    /// A two-side scenario with `element` (RON) as the British element.
    fn with_element(element: &str) -> String {
        format!(
            r#"(
    name: "T",
    briefing: "",
    sides: [
        (name: "B", nation: British, year: 1944, quality: Regular, senior_officer: Average, edge: near,
         companies: [(id: "a", officer: Regular, attached_to: "x", elements: [
{element}
         ])]),
        (name: "G", nation: German, year: 1944, quality: Regular, senior_officer: Average, edge: far,
         companies: [(id: "g", officer: Regular, attached_to: "y", elements: [
            (id: "y", figures: [(men: 4, weapon: "de_kar98k")], start: at(30, 40)),
         ])]),
    ],
)"#
        )
    }

    #[test]
    fn table_defaults_to_six_by_four_feet() {
        let s = Scenario::parse("t.ron", r#"(name: "T", briefing: "b")"#).unwrap();
        assert_eq!(s.table, TableSize { width: 72.0, depth: 48.0 });
        assert_eq!((s.season, s.start_hour, s.time_limit), (Season::Summer, 6, 12));
    }

    #[test]
    fn impossible_table_is_refused_with_the_file_name() {
        let err = Scenario::parse("t.ron", r#"(name: "T", briefing: "", table: (width: 5, depth: 48))"#).unwrap_err();
        assert_eq!(err.file, "t.ron");
        assert!(err.message.contains("width"), "{err}");
    }

    #[test]
    fn misspelt_field_is_refused_with_a_position() {
        let err = Scenario::parse("t.ron", "(\n name: \"T\",\n breifing: \"\",\n)").unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(3), "{err}");
    }

    #[test]
    fn a_side_sets_its_strategic_milestone_within_reason() {
        // FYOB "Strategic Milestones": "For most armies this will be 10% but
        // where, historically, the morale of a force was shown to be either
        // particularly weak or resilient, it can be modified".
        let beach = include_str!("../../../scenarios/battles/beach.ron");
        let s = Scenario::load("beach.ron", beach, &codex()).unwrap();
        assert!(s.sides.iter().all(|side| side.milestone == DEFAULT_MILESTONE && side.milestone == 10));
        let resilient = beach.replacen("edge: far,", "edge: far, milestone: 20,", 1);
        let s = Scenario::load("beach.ron", &resilient, &codex()).unwrap();
        assert_eq!(s.sides.iter().map(|side| side.milestone).collect::<Vec<_>>(), [10, 20]);
        for bad in [0, 51] {
            let text = beach.replacen("edge: far,", &format!("edge: far, milestone: {bad},"), 1);
            let err = Scenario::load("beach.ron", &text, &codex()).unwrap_err().to_string();
            assert!(err.contains("sides[1].milestone") && err.contains(&format!("{bad}% is outside")), "{err}");
        }
    }

    #[test]
    fn a_side_is_rationed_only_when_the_scenario_says_so() {
        // HA "Restrictions applied in 'Rationed' state": "When the scenario
        // dictates ... where the force is 'Rationed'".
        let beach = include_str!("../../../scenarios/battles/beach.ron");
        let s = Scenario::load("beach.ron", beach, &codex()).unwrap();
        assert!(s.sides.iter().all(|side| !side.rationed), "rationed defaults to false");
        let rationed = beach.replacen("edge: far,", "edge: far, rationed: true,", 1);
        let s = Scenario::load("beach.ron", &rationed, &codex()).unwrap();
        assert_eq!(s.sides.iter().map(|side| side.rationed).collect::<Vec<_>>(), [false, true]);
        let bad = beach.replacen("edge: far,", "edge: far,\n rationed: yes,", 1);
        let err = Scenario::load("beach.ron", &bad, &codex()).unwrap_err();
        let line = bad.lines().position(|l| l.contains("rationed: yes")).unwrap() + 1;
        assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
    }

    #[test]
    fn misspelt_element_field_is_refused_with_its_line() {
        let text =
            with_element(r#"            (id: "x", figurs: [(men: 4, weapon: "gb_no4_rifle")], start: at(10, 5)),"#);
        let err = Scenario::parse("t.ron", &text).unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(7), "{err}");
        assert!(err.message.contains("figurs"), "{err}");
    }

    #[test]
    fn more_charges_than_the_men_can_carry_are_refused_with_the_field() {
        let ok = with_element(
            r#"            (id: "x", figures: [(men: 2, weapon: "gb_no4_rifle")], explosives: [bangalore, small, small], start: at(10, 5)),"#,
        );
        let s = Scenario::load("t.ron", &ok, &codex()).unwrap();
        assert_eq!(s.sides[0].elements().next().unwrap().explosives.len(), 3);
        let load = s.sides[0].elements().next().unwrap().load(&codex()).unwrap();
        assert_eq!(load, crate::loads::Loads::whole(4), "2 men and their 2 loads of charges");
        let heavy = with_element(
            r#"            (id: "x", figures: [(men: 2, weapon: "gb_no4_rifle")], explosives: [bangalore, large, small], start: at(10, 5)),"#,
        );
        let err = Scenario::load("t.ron", &heavy, &codex()).unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(7), "{err}");
        assert!(err.message.contains("explosives") && err.message.contains("2 men on foot"), "{err}");
    }

    #[test]
    fn a_section_rides_in_a_lorry_that_has_room_for_it() {
        let lorry = r#"            (id: "lorry", pieces: [(codex: "gb_bedford_qld")], start: at(10, 5)),"#;
        let ok = with_element(&format!(
            "{lorry}\n            (id: \"x\", figures: [(men: 8, weapon: \"gb_no4_rifle\")], pieces: [(codex: \"gb_bren\")], aboard: \"lorry\", start: at(10, 5)),"
        ));
        let s = Scenario::load("t.ron", &ok, &codex()).unwrap();
        assert_eq!(s.sides[0].elements().nth(1).unwrap().aboard.as_deref(), Some("lorry"));
        // 12 men: one more than the lorry's 12 loads with the Bren.
        let full = ok.replace("men: 8", "men: 12");
        let err = Scenario::load("t.ron", &full, &codex()).unwrap_err();
        assert!(err.message.contains("aboard") && err.message.contains("will not fit"), "{err}");
        let apart = ok.replace("aboard: \"lorry\", start: at(10, 5)", "aboard: \"lorry\", start: at(20, 5)");
        let err = Scenario::load("t.ron", &apart, &codex()).unwrap_err();
        assert!(err.message.contains("starts where"), "{err}");
        let on_foot = ok.replace("aboard: \"lorry\"", "aboard: \"x\"");
        let err = Scenario::load("t.ron", &on_foot, &codex()).unwrap_err();
        assert!(err.message.contains("no figures and no NCO"), "{err}");
        let nobody = ok.replace("aboard: \"lorry\"", "aboard: \"truck\"");
        let err = Scenario::load("t.ron", &nobody, &codex()).unwrap_err();
        assert!(err.message.contains("not an element of this side"), "{err}");
    }

    #[test]
    fn a_guard_is_posted_on_the_table_on_foot() {
        let ok = with_element(
            r#"            (id: "x", figures: [(men: 2, weapon: "gb_no4_rifle")], guard: true, start: at(10, 5)),"#,
        );
        assert!(Scenario::load("t.ron", &ok, &codex()).unwrap().sides[0].elements().next().unwrap().guard);
        let boxed = ok.replace("start: at(10, 5)", "start: box(2)");
        let err = Scenario::load("t.ron", &boxed, &codex()).unwrap_err();
        assert!(err.message.contains("guard") && err.message.contains("at(x, y)"), "{err}");
        let tank =
            with_element(r#"            (id: "x", pieces: [(codex: "gb_sherman_v")], guard: true, start: at(10, 5)),"#);
        let err = Scenario::load("t.ron", &tank, &codex()).unwrap_err();
        assert!(err.message.contains("men on foot"), "{err}");
    }

    #[test]
    fn a_platoon_crosses_in_boats_that_have_room_for_it() {
        let ok = with_element(
            r#"            (id: "x", figures: [(men: 16, weapon: "gb_no4_rifle")], pieces: [(codex: "gb_bren")], boats: (craft: assault_boat, count: 2), start: at(10, 5)),"#,
        );
        let s = Scenario::load("t.ron", &ok, &codex()).unwrap();
        let boats = s.sides[0].elements().next().unwrap().boats;
        assert_eq!(boats, Some(crate::boats::RiverBoats { craft: crate::boats::RiverCraft::AssaultBoat, count: 2 }));
        // 20 men and the Bren: more than two assault boats' 20 loads.
        let full = ok.replace("men: 16", "men: 20");
        let err = Scenario::load("t.ron", &full, &codex()).unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(7), "{err}");
        assert!(err.message.contains("boats") && err.message.contains("capacity of 20"), "{err}");
        let canoes = ok.replace("assault_boat, count: 2", "canoe, count: 8").replace("gb_bren", "gb_25pdr");
        let err = Scenario::load("t.ron", &canoes, &codex()).unwrap_err();
        assert!(err.message.contains("will not go in a boat of capacity 4"), "{err}");
        let none = ok.replace("count: 2", "count: 0");
        assert!(Scenario::load("t.ron", &none, &codex()).unwrap_err().message.contains("at least one boat"));
        let tank = with_element(
            r#"            (id: "x", pieces: [(codex: "gb_sherman_v")], boats: (craft: assault_boat, count: 9), start: at(10, 5)),"#,
        );
        let err = Scenario::load("t.ron", &tank, &codex()).unwrap_err();
        assert!(err.message.contains("vehicle does not cross in river craft"), "{err}");
        let dropped = ok.replace("start: at(10, 5)", "start: drop(1, 10, 5)");
        let err = Scenario::load("t.ron", &dropped, &codex()).unwrap_err();
        assert!(err.message.contains("from the table or the box"), "{err}");
    }

    #[test]
    fn good_scenario_builds_its_elements() {
        let text = with_element(
            r#"            (id: "x", nco: Bold, figures: [(men: 7, weapon: "gb_no4_rifle"), (men: 2, weapon: "gb_sten", grade: elite)], start: at(10, 5)),"#,
        );
        let codex = codex();
        let s = Scenario::load("t.ron", &text, &codex).unwrap();
        let side = &s.sides[0];
        let x = side.elements().next().unwrap().element(&codex, &side.nation, side.quality).unwrap();
        assert_eq!(x.figures.len(), 9);
        assert_eq!(x.figures.iter().filter(|f| f.grade == FigureGrade::Elite).count(), 2);
        assert_eq!(x.nco.map(|o| o.grade()), Some(Grade::Bold));
        assert!(x.on_table);
    }

    #[test]
    fn unknown_codex_id_is_refused_with_its_line_and_field() {
        let text =
            with_element(r#"            (id: "x", figures: [(men: 4, weapon: "gb_no5_rifle")], start: at(10, 5)),"#);
        let s = Scenario::parse("t.ron", &text).unwrap();
        let err = s.validate_against(&codex()).unwrap_err().in_file("t.ron", &text);
        assert_eq!(err.position.map(|p| p.0), Some(7), "{err}");
        assert!(err.message.contains("figures[0].weapon") && err.message.contains("gb_no5_rifle"), "{err}");
    }

    #[test]
    fn equipment_out_of_service_in_the_year_is_refused() {
        // The Matilda II served 1939–42; the side fights in 1944.
        let text = with_element(r#"            (id: "x", pieces: [(codex: "gb_matilda_ii")], start: at(10, 5)),"#);
        let err = Scenario::load("t.ron", &text, &codex()).unwrap_err();
        assert!(err.message.contains("1944"), "{err}");
    }

    #[test]
    fn position_off_the_table_is_refused_with_its_line() {
        let text =
            with_element(r#"            (id: "x", figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(80, 5)),"#);
        let err = Scenario::parse("t.ron", &text).unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(7), "{err}");
        assert!(err.message.contains("start") && err.message.contains("off the"), "{err}");
    }

    #[test]
    fn terrain_is_checked_against_the_table() {
        let good = r#"(name: "T", briefing: "", terrain: (features: [Wood(density: dense, outline: [(1, 1), (5, 1), (5, 5)])]))"#;
        assert_eq!(Scenario::parse("t.ron", good).unwrap().terrain.features.len(), 1);
        let bad = r#"(name: "T", briefing: "", terrain: (features: [Wood(density: dense, outline: [(1, 1), (95, 1), (5, 5)])]))"#;
        let err = Scenario::parse("t.ron", bad).unwrap_err();
        assert!(err.message.contains("terrain") && err.message.contains("Wood"), "{err}");
    }

    #[test]
    fn placement_option_off_the_table_is_refused() {
        let text = with_element(
            r#"            (id: "x", figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(10, 5), concealed: placement_options([(10, 5), (10, -1)])),"#,
        );
        let err = Scenario::parse("t.ron", &text).unwrap_err();
        assert!(err.message.contains("concealed"), "{err}");
    }

    #[test]
    fn a_single_placement_option_is_too_few() {
        // FYOB "Placement options": two or more counters.
        let text = with_element(
            r#"            (id: "x", figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(10, 5), concealed: placement_options([(10, 5)])),"#,
        );
        assert!(Scenario::parse("t.ron", &text).is_err());
    }

    #[test]
    fn tank_cannot_be_concealed() {
        let text = with_element(
            r#"            (id: "x", pieces: [(codex: "gb_cromwell_iv")], start: at(10, 5), concealed: in_place),"#,
        );
        let err = Scenario::load("t.ron", &text, &codex()).unwrap_err();
        assert!(err.message.contains("concealed"), "{err}");
    }

    #[test]
    fn a_concealed_element_in_a_pillbox_is_refused() {
        // FYOB "How to conceal an element": "An element cannot be considered
        // 'concealed' if it is in a pillbox, casement or other such obvious
        // defensive position." The beach's strongpoint is a pillbox.
        let beach = include_str!("../../../scenarios/battles/beach.ron");
        let in_it = "start: at(36, 38))";
        assert!(Scenario::load("beach.ron", beach, &codex()).is_ok());
        let concealed = beach.replacen(in_it, "start: at(36, 38), concealed: in_place)", 1);
        let err = Scenario::load("beach.ron", &concealed, &codex()).unwrap_err();
        assert!(err.message.contains("pillbox") && err.to_string().contains("beach.ron:"), "{err}");
        // A counter in it is refused too; one outside the pillbox is not.
        let counters = "start: at(36, 38), concealed: placement_options([(30, 38), (36, 39)]))";
        assert!(Scenario::load("beach.ron", &beach.replacen(in_it, counters, 1), &codex()).is_err());
        let outside = "start: at(30, 38), concealed: placement_options([(30, 38), (31, 42)]))";
        assert!(Scenario::load("beach.ron", &beach.replacen(in_it, outside, 1), &codex()).is_ok());
    }

    #[test]
    fn a_gun_may_not_start_in_a_house() {
        // *Heroes All*, "Buildings": "Buildings may not be occupied by
        // vehicles, artillery or mortars." and "The only AT weapons that may
        // occupy intact buildings are a PIAT, Bazooka, Panzerfaust etc"; "all
        // buildings are deemed to have a capacity of 16 figures". The beach's
        // house is (20, 34)–(25, 38) on line 23.
        let beach = include_str!("../../../scenarios/battles/beach.ron");
        let pak = "start: at(22, 32), concealed: in_place),";
        assert!(beach.contains(pak));
        let in_house = beach.replacen(pak, "start: at(22, 36), concealed: in_place),", 1);
        let err = Scenario::load("beach.ron", &in_house, &codex()).unwrap_err();
        assert!(
            err.message.contains("an anti-tank weapon that is not hand-held may not occupy this building"),
            "{err}"
        );
        let line = in_house.lines().position(|l| l.contains("at(22, 36)")).unwrap() + 1;
        assert!(err.to_string().contains(&format!("beach.ron:{line}")), "{err}");
        // Riflemen may go in, 16 of them and no more.
        let gruppe = "start: at(50.5, 35), concealed: in_place),";
        let squad = |men: u8| {
            beach
                .replacen(gruppe, "start: at(22, 36)),", 1)
                .replacen("(men: 6, weapon: \"de_kar98k\"), (men: 1, weapon: \"de_mp40\")], pieces: [(codex: \"de_mg42_lmg\")],\n                         start: at(22, 36)", &format!("(men: {men}, weapon: \"de_kar98k\")],\n                         start: at(22, 36)"), 1)
        };
        assert!(Scenario::load("beach.ron", &squad(16), &codex()).is_ok());
        let err = Scenario::load("beach.ron", &squad(17), &codex()).unwrap_err();
        assert!(err.message.contains("room for 16"), "{err}");
    }

    #[test]
    fn reserve_cannot_start_concealed() {
        let text = with_element(
            r#"            (id: "x", figures: [(men: 4, weapon: "gb_no4_rifle")], start: reserve, concealed: in_place),"#,
        );
        assert!(Scenario::parse("t.ron", &text).is_err());
    }

    #[test]
    fn duplicate_ids_are_refused() {
        let text =
            with_element(r#"            (id: "y", figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(10, 5)),"#)
                .replace("attached_to: \"x\"", "attached_to: \"y\"");
        let err = Scenario::parse("t.ron", &text).unwrap_err();
        assert!(err.message.contains("twice"), "{err}");
    }

    #[test]
    fn senior_officer_needs_a_senior_grade() {
        let text =
            with_element(r#"            (id: "x", figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(10, 5)),"#)
                .replacen("senior_officer: Average", "senior_officer: Bold", 1);
        let err = Scenario::parse("t.ron", &text).unwrap_err();
        assert!(err.message.contains("senior_officer"), "{err}");
    }

    #[test]
    fn support_order_needs_the_unit_supported() {
        // FYOB "Orders & Objectives": 2 "x unit from y position".
        let text = with_element(
            r#"            (id: "x", figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(10, 5), order: (activity: Support, location: "the wood")),"#,
        );
        assert!(Scenario::parse("t.ron", &text).is_err());
    }

    #[test]
    fn an_element_starts_at_the_cms_it_carries() {
        let codex = codex();
        let text = with_element(
            r#"            (id: "x", cms: 4, figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(10, 5)),"#,
        );
        let s = Scenario::load("t.ron", &text, &codex).unwrap_or_else(|e| panic!("{e}"));
        let x = s.sides[0].elements().next().unwrap();
        assert_eq!(x.element(&codex, &Nation::British, Quality::Regular).unwrap().cms, 4);
        let y = s.sides[1].elements().next().unwrap();
        assert_eq!(y.element(&codex, &Nation::German, Quality::Regular).unwrap().cms, 6, "absent: 6");
        let bad = with_element(
            r#"            (id: "x", cms: 7, figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(10, 5)),"#,
        );
        let err = Scenario::load("t.ron", &bad, &codex).unwrap_err();
        assert!(err.message.contains("cms") && err.message.contains("outside 1..=6"), "{err}");
    }

    #[test]
    fn fog_snow_and_high_winds_ground_the_aircraft() {
        // FYOW 25.8: fog and snow "no flying"; high winds "no flying" for all
        // but the first column.
        let codex = codex();
        let river = include_str!("../../../scenarios/battles/river.ron");
        assert!(Scenario::load("river.ron", river, &codex).is_ok());
        for w in ["fog: true", "snow: true", "high_winds: true"] {
            let grounded = river.replacen("weather: (sky: overcast)", &format!("weather: (sky: overcast, {w})"), 1);
            let err = Scenario::load("river.ron", &grounded, &codex).unwrap_err();
            assert!(err.message.contains("no flying") && err.message.contains("start"), "{w}: {err}");
        }
        let village = include_str!("../../../scenarios/battles/village.ron");
        let fog = village.replacen("weather: (sky: light_rain,", "weather: (sky: light_rain, fog: true,", 1);
        let err = Scenario::load("village.ron", &fog, &codex).unwrap_err();
        assert!(err.message.contains("aircraft") && err.message.contains("FYOW 25.8"), "{err}");
    }

    #[test]
    fn every_battle_parses_and_validates_against_the_codex() {
        let codex = codex();
        for (file, text) in BATTLES {
            let s = Scenario::load(file, text, &codex).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(s.sides.len(), 2, "{file}");
            assert!(s.sides.iter().all(|side| side.elements().count() > 0 && !side.victory.is_empty()), "{file}");
        }
    }

    #[test]
    fn village_has_guns_behind_the_table_and_concealed_defenders() {
        let s = Scenario::load(BATTLES[1].0, BATTLES[1].1, &codex()).unwrap();
        assert!(s.sides.iter().any(|side| !side.artillery.is_empty() && !side.foos.is_empty()));
        assert!(s.sides.iter().flat_map(Side::elements).any(|e| e.concealed.is_some()));
    }

    #[test]
    fn squadron_scheduled_outside_its_window_is_refused() {
        let text = with_element(r#"            (id: "x", figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(10, 5)),"#).replacen(
            "edge: near,",
            r#"edge: near, aircraft: [(id: "sq", aircraft: (name: "Typhoon", role: ground_attack, speed: fast, strength: 3, cannon: 4, rockets: 8), count: 2, height: low, schedule: bound(9), window: 3)],"#,
            1,
        );
        let err = Scenario::parse("t.ron", &text).unwrap_err();
        assert!(err.message.contains("window"), "{err}");
    }

    /// The British side lands from the sea: `craft` is the Landing Plan's list.
    fn landing(element: &str, craft: &str) -> String {
        with_element(element).replacen(
            "edge: near,",
            &format!("edge: near, landing: Some((at: (10, 2), width: 24, mined_approaches: true, craft: [{craft}])),"),
            1,
        )
    }

    const LCA: &str = r#"(id: "LCA 1", craft: carrier(lca), wave: 1, slot: 0)"#;

    #[test]
    fn landing_plan_puts_the_craft_in_lanes_with_their_loads() {
        let text = landing(
            r#"            (id: "x", figures: [(men: 10, weapon: "gb_no4_rifle")], start: landing(1, 0)),"#,
            LCA,
        );
        let s = Scenario::load("t.ron", &text, &codex()).unwrap();
        let beach = s.sides[0].landing.as_ref().unwrap();
        assert_eq!(beach.slot_centre(0), (12.0, 2.0));
        assert_eq!(beach.slot_centre(2), (20.0, 2.0), "slot 1 is the gap between lanes 0 and 2");
        assert_eq!(beach.plan().unwrap().landings.len(), 1);
        assert_eq!(s.sides[0].elements().next().unwrap().start.whereabouts(), Whereabouts::Box);
    }

    /// A beach on the left edge runs along the table's depth: its slots go
    /// up the edge, and one past the far edge is off the table.
    #[test]
    fn a_beach_along_the_left_edge_runs_up_the_depth() {
        let aboard = r#"            (id: "x", figures: [(men: 10, weapon: "gb_no4_rifle")], start: landing(1, 0)),"#;
        let text = landing(aboard, LCA).replacen("width: 24,", "width: 24, sea: Some(left),", 1);
        let s = Scenario::load("t.ron", &text, &codex()).unwrap();
        let beach = s.sides[0].landing.as_ref().unwrap();
        assert_eq!(beach.slot_centre(0), (10.0, 4.0));
        assert_eq!(beach.slot_centre(2), (10.0, 12.0), "up the left edge, not along the width");
        let long = text.replacen("width: 24,", "width: 60,", 1);
        let err = Scenario::parse("t.ron", &long).unwrap_err();
        assert!(err.message.contains("landing.width"), "{err}");
    }

    #[test]
    fn landing_craft_in_a_gap_or_overloaded_or_missing_is_refused() {
        let aboard = r#"            (id: "x", figures: [(men: 10, weapon: "gb_no4_rifle")], start: landing(1, 0)),"#;
        let gap = landing(aboard, r#"(id: "LCA 1", craft: carrier(lca), wave: 1, slot: 1)"#);
        let err = Scenario::parse("t.ron", &gap).unwrap_err();
        assert!(err.message.contains("landing.craft"), "{err}");
        let none = landing(aboard.replace("landing(1, 0)", "landing(2, 0)").as_str(), LCA);
        let err = Scenario::parse("t.ron", &none).unwrap_err();
        assert!(err.message.contains("no landing craft in slot 0 of wave 2"), "{err}");
        // An LCA takes 16 loads: 20 men do not fit.
        let over = landing(&aboard.replace("men: 10", "men: 20"), LCA);
        let err = Scenario::load("t.ron", &over, &codex()).unwrap_err();
        assert!(err.message.contains("will not fit"), "{err}");
        let late = landing(aboard, &LCA.replace("wave: 1", "wave: 20"));
        let err = Scenario::parse("t.ron", &late).unwrap_err();
        assert!(err.message.contains("outside the battle"), "{err}");
    }

    #[test]
    fn bridging_site_must_span_a_river() {
        let element = r#"            (id: "x", figures: [(men: 4, weapon: "gb_no4_rifle")], start: at(10, 5)),"#;
        let site = |span: &str| {
            with_element(element)
                .replacen("edge: near,", &format!(r#"edge: near, bridging: [(place: "ford", span: {span})],"#), 1)
                .replacen(
                    "sides: [",
                    r#"places: [(name: "ford", at: (20, 20))],
    terrain: (features: [River(kind: small, line: [(0, 20), (72, 20)], width: 3)]),
    sides: ["#,
                    1,
                )
        };
        let s = Scenario::parse("t.ron", &site("(from: (20, 18), to: (20, 22), width: 2)")).unwrap();
        assert_eq!(s.terrain.river_crossed(&s.sides[0].bridging[0].span), Some(0));
        let err = Scenario::parse("t.ron", &site("(from: (20, 10), to: (20, 14), width: 2)")).unwrap_err();
        assert!(err.message.contains("must cross a river"), "{err}");
        let err = Scenario::parse("t.ron", &site("(from: (20, 19), to: (20, 22), width: 2)")).unwrap_err();
        assert!(err.message.contains("must cross a river"), "one end in the water: {err}");
    }
}
