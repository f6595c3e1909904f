//! An engagement becomes a battle (FYOW 15.2–15.7): the forces of each side
//! on the board's table as a [`Scenario`](warbound_rules::scenario::Scenario) the battle plays, each campaign
//! element a Company, each of its platoons and sections an element, placed
//! by FYOW's deployment rules, with the goals of [`victory`](crate::table::victory).
//!
//! Readings (docs/rules-readings.md, "Engagements become battles"):
//! - the scenario has one side per campaign side, Blue first; the forces of
//!   a side are its companies, under the Senior Officer of its first force in
//!   the engagement (the force that engaged; a force joining it, FYOW 15.7,
//!   serves under him), whose nation, year, quality, Rationed state (FYOW 2.7:
//!   "If the 'senior' Battlegroup is ... rationed ... this state is adopted
//!   by the new, enlarged Battlegroup"), table edge and goals the side takes;
//!   the men of another force whose template gives them no grade keep their
//!   own force's quality;
//! - a force on the board (Present, Deployed, Fortified, or in Disarray: it
//!   still occupies the board) stands on the table within 1/3 of the table
//!   from its box edge (FYOW 15.3), an emplaced coastal gun's force within
//!   half of it; a force in its box moves on from bound 1, a joiner after `n`
//!   bounds from bound 1 + `n` (FYOW 15.7); a Battlegroup on a half board
//!   "cannot deploy" (FYOW 13.1): it starts in its box and moves on from
//!   bound 1;
//! - elements stand on open ground: not in a building, a river, a marsh, a
//!   minefield, wire or a roadblock, not on a hedge or wall, vehicles and
//!   guns not in a wood, 3" apart, out of the enemy's third (boxes on
//!   adjacent edges) while there is room; a defender's companies stand about
//!   the board's places in its part of the table (the key place first, the
//!   board's own place last), or with no place there about its buildings
//!   there; an attacker's (or a defender's with neither) spread along its
//!   edge;
//! - an element of a company concealed on the board (FYOW 15.4) starts
//!   concealed where it stands, without FYOB's 5+ throw, when FYOB lets it be
//!   concealed at all (infantry, CSWs, guns up to 75mm).

use std::collections::BTreeSet;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use warbound_rules::codex::{Codex, FigureGrade};
use warbound_rules::concealment::{Candidate, may_be_concealed};
use warbound_rules::day::Season;
use warbound_rules::firing::FireTarget;
use warbound_rules::narrate::id_name;
use warbound_rules::officer::{Grade, Quality};
use warbound_rules::scenario::{
    Battery, CompanySpec, Concealment, ElementSpec, Figures, FooSpec, Ground, Scenario, Side as ScenarioSide, Start,
    Weather,
};
use warbound_rules::terrain::{Extent, Feature, Point, TableSize, Terrain, distance_to_segment, inside};

use crate::army::commander::Competency;
use crate::map::common::{Edge, Side};
use crate::map::engagement::{DeploymentDepth, EngagedForce, Engagement};
pub use crate::table::forces::{Roster, RosterEntry, TableCompany, TableForce, table_edge};
use crate::table::layout::{BoardTable, off_edge};
use crate::table::victory::{self, Intent, KeyPlace};

/// Inches kept between two elements placed on the table.
pub const SPACING: f32 = 3.0;
/// Inches kept from the table's edges.
const MARGIN: f32 = 1.0;
/// Inches between the points tried for an element.
const PITCH: f32 = 1.5;

/// The day of the battle, from the campaign session.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BattleDay {
    pub start_hour: u8,
    pub season: Season,
    pub weather: Weather,
    pub ground: Ground,
    /// Bounds the battle lasts.
    pub time_limit: u32,
}

/// The Senior Officer's grade of a force whose commander has competency `c`:
/// FYOW 7 rates commanders on a D6 (1 Below Average (5), 2–5 Average (6),
/// 6 Above Average (7)) as FYOB rates its Senior Officer, so the grade is the
/// competency.
pub fn senior_officer(c: Competency) -> Grade {
    match c {
        Competency::BelowAverage => Grade::BelowAverage,
        Competency::Average => Grade::Average,
        Competency::AboveAverage => Grade::AboveAverage,
    }
}

/// Where a force stands when the battle starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Deployment {
    /// On the table, within `depth` inches of its box edge.
    Table { depth: f32 },
    /// In its box, moving on in the bound given.
    Box(u32),
}

/// FYOW 15.3, 15.7, 13.1: a force on the board that may deploy stands within
/// a third of the table from its box edge (half, for an emplaced coastal
/// gun); any other waits in its box, moving on in bound 1 or, joining after
/// `n` bounds, in bound 1 + `n`.
pub fn deployment(force: &EngagedForce, table: TableSize) -> Deployment {
    if force.on_board && force.may_deploy {
        let across = match force.box_edge {
            Edge::North | Edge::South => table.depth,
            Edge::East | Edge::West => table.width,
        };
        let depth = match force.depth {
            DeploymentDepth::OneThird => across / 3.0,
            DeploymentDepth::Unlimited => across / 2.0,
        };
        Deployment::Table { depth }
    } else {
        Deployment::Box(1 + u32::from(force.joins_after_bounds))
    }
}

/// The battle of `engagement` on `table`: each engaged force's companies
/// (`forces`, one per engaged force, by name) deployed by FYOW 15.3–15.7, the
/// sides' goals from their orders, the day from `day`. Blue is the
/// scenario's first side, Red its second. `seed` places the elements: the
/// same input gives the same scenario.
pub fn scenario_for(
    engagement: &Engagement,
    table: &BoardTable,
    forces: &[TableForce],
    day: &BattleDay,
    codex: &Codex,
    seed: u64,
) -> Result<(Scenario, Roster), String> {
    for f in forces {
        if !engagement.forces.iter().any(|e| e.force == f.force) {
            return Err(format!("{} is not in the engagement on {}", f.force, engagement.board));
        }
    }
    let key = victory::key_place(engagement, table);
    let mut build = Build {
        table,
        codex,
        key: &key,
        rng: ChaCha8Rng::seed_from_u64(seed),
        taken: Vec::new(),
        foos: Vec::new(),
        batteries: Vec::new(),
    };
    let mut ids = BTreeSet::new();
    let mut roster = Vec::new();
    let mut sides = Vec::new();
    for side in [Side::Blue, Side::Red] {
        let mut engaged = Vec::new();
        for e in engagement.forces.iter().filter(|e| e.side == side) {
            let f =
                forces.iter().find(|f| f.force == e.force).ok_or_else(|| format!("no table force for {}", e.force))?;
            engaged.push((e, f));
        }
        let Some(&(first, senior)) = engaged.first() else {
            return Err(format!("no {side:?} force in the engagement on {}", engagement.board));
        };
        let intent = victory::intent(senior.order, senior.objective_here);
        // The enemy's ground: the parts of the table his forces deploy in.
        let enemy: Vec<(Edge, f32)> = engagement
            .forces
            .iter()
            .filter(|e| e.side != side)
            .filter_map(|e| match deployment(e, table.table) {
                Deployment::Table { depth } => Some((e.box_edge, depth)),
                Deployment::Box(_) => None,
            })
            .collect();
        let mut companies = Vec::new();
        for &(e, f) in &engaged {
            let deployment = deployment(e, table.table);
            if let Deployment::Box(b) = deployment
                && b > day.time_limit
            {
                return Err(format!("{} joins in bound {b}, after the battle's {} bounds", f.force, day.time_limit));
            }
            let stand = Stand { edge: e.box_edge, intent, quality: senior.quality, enemy: enemy.clone() };
            for (j, company) in f.companies.iter().enumerate() {
                let placement = match deployment {
                    Deployment::Table { depth } => {
                        Placement::Near { depth, anchor: build.anchor(&stand, depth, j, f.companies.len()) }
                    }
                    Deployment::Box(b) => Placement::Box(b),
                };
                if let Some(spec) = build.company(f, company, &stand, placement, &mut ids, &mut roster)? {
                    companies.push(spec);
                }
            }
        }
        if companies.is_empty() {
            return Err(format!("the {side:?} side fields nothing on {}", engagement.board));
        }
        let afloat: Vec<&TableForce> = engaged.iter().map(|&(_, f)| f).collect();
        let landing =
            crate::table::landing::beach_landing(table, &afloat, &mut companies, &roster, codex, day.time_limit)?;
        let name = engaged.iter().map(|(_, f)| f.force.as_str()).collect::<Vec<_>>().join(" and ");
        sides.push(ScenarioSide {
            name,
            nation: senior.nation.clone(),
            year: senior.year,
            quality: senior.quality,
            senior_officer: senior.senior_officer,
            edge: table_edge(first.box_edge),
            companies,
            aircraft: Vec::new(),
            foos: std::mem::take(&mut build.foos),
            artillery: std::mem::take(&mut build.batteries),
            charges: Vec::new(),
            victory: victory::goals(intent, &key),
            landing,
            bridging: Vec::new(),
            rationed: senior.rationed,
            milestone: senior.milestone,
        });
    }
    let board = if engagement.board_name.is_empty() { &engagement.board.0 } else { &engagement.board_name };
    let briefing = format!(
        "Day {}, session {}: {} against {} on {board}, for {}.",
        engagement.session.day(),
        engagement.session.session(),
        sides[0].name,
        sides[1].name,
        key.name
    );
    let scenario = Scenario {
        name: board.clone(),
        briefing,
        table: table.table,
        season: day.season,
        start_hour: day.start_hour,
        weather: day.weather,
        ground: day.ground,
        time_limit: day.time_limit,
        sides,
        terrain: table.terrain.clone(),
        places: table.places.clone(),
    };
    Ok((scenario, Roster(roster)))
}

/// How one force stands: its box edge, what its side came to do, the
/// side's quality, and the enemy's ground (each edge and depth).
struct Stand {
    edge: Edge,
    intent: Intent,
    quality: Quality,
    enemy: Vec<(Edge, f32)>,
}

/// Where one company starts.
#[derive(Debug, Clone, Copy)]
enum Placement {
    /// On the table within `depth` of its edge, gathered about `anchor`.
    Near { depth: f32, anchor: (f32, f32) },
    /// In its box, moving on in the bound given.
    Box(u32),
}

/// The scenario being built: what is placed so far.
struct Build<'a> {
    table: &'a BoardTable,
    codex: &'a Codex,
    key: &'a KeyPlace,
    rng: ChaCha8Rng,
    taken: Vec<(f32, f32)>,
    /// The side's FOOs and off-table batteries so far.
    foos: Vec<FooSpec>,
    batteries: Vec<Battery>,
}

impl Build<'_> {
    /// Where the `j`th of `n` companies of a force gathers on the table,
    /// `depth` deep from its edge: a defender's about the places in its part
    /// of the table (the key place first, the board's own place last), or
    /// with none there about its buildings there, else along its edge,
    /// halfway into its part.
    fn anchor(&mut self, stand: &Stand, depth: f32, j: usize, n: usize) -> (f32, f32) {
        let size = self.table.table;
        if stand.intent == Intent::Defend {
            let rank = |name: &str| {
                if name == self.key.name {
                    0
                } else if name == self.table.board.0 {
                    2
                } else {
                    1
                }
            };
            let mut places: Vec<(u8, (f32, f32))> = self
                .table
                .places
                .iter()
                .filter(|p| off_edge(stand.edge, Point(p.at.0, p.at.1), size) <= depth)
                .map(|p| (rank(&p.name), p.at))
                .collect();
            places.sort_by_key(|(rank, _)| *rank);
            if places.is_empty() {
                // No place there: the buildings there (a fortified board's
                // pillboxes, a farm), each by the middle of its outline.
                places = self
                    .table
                    .terrain
                    .features
                    .iter()
                    .filter_map(|f| match f {
                        Feature::Building { outline, .. } if !outline.is_empty() => {
                            let n = outline.len() as f32;
                            let (x, y) = outline.iter().fold((0.0, 0.0), |(x, y), p| (x + p.0, y + p.1));
                            Some((3, (x / n, y / n)))
                        }
                        _ => None,
                    })
                    .filter(|&(_, at)| off_edge(stand.edge, Point(at.0, at.1), size) <= depth)
                    .collect();
            }
            if !places.is_empty() {
                return places[j % places.len()].1;
            }
        }
        let along = (j as f32 + 0.5) / n.max(1) as f32 + self.rng.random_range(-0.05..=0.05);
        let into = depth / 2.0 + self.rng.random_range(-depth / 6.0..=depth / 6.0);
        at_edge(stand.edge, along.clamp(0.05, 0.95), into, size)
    }

    /// The company `company` of force `force`, its elements placed; `None`
    /// when none of its elements has a man or a piece left.
    fn company(
        &mut self,
        force: &TableForce,
        company: &TableCompany,
        stand: &Stand,
        placement: Placement,
        ids: &mut BTreeSet<String>,
        roster: &mut Vec<RosterEntry>,
    ) -> Result<Option<CompanySpec>, String> {
        let (id, fielded) =
            company_elements(force, company, stand.quality, self.codex, &self.table.terrain, ids, roster)?;
        let mut elements = Vec::new();
        for (mut spec, candidate) in fielded {
            match placement {
                Placement::Near { depth, anchor } => {
                    let heavy = matches!(candidate.kind, FireTarget::Afv | FireTarget::Artillery);
                    let (x, y) = self.spot(stand, depth, anchor, heavy).ok_or_else(|| {
                        format!("no open ground for {} within {depth}\" of the {:?} edge", spec.id, stand.edge)
                    })?;
                    spec.start = Start::At(x, y);
                    // FYOW 15.4: "Elements can only be concealed within the
                    // deployment limits", as FYOB lets them be concealed.
                    if company.concealed && may_be_concealed(&candidate).is_ok() {
                        spec.concealed = Some(Concealment::OnMapBoard);
                    }
                }
                Placement::Box(b) => spec.start = Start::Box(b),
            }
            elements.push(spec);
        }
        let Some(first) = elements.first() else { return Ok(None) };
        let on_table = matches!(placement, Placement::Near { .. });
        let objective = victory::objective(stand.intent, self.key, on_table);
        let edge = table_edge(stand.edge);
        // *Heroes All*, "Advanced Artillery Rules": the battery's guns stay
        // off the table and fire on its FOO's call; he starts with the
        // company's first element on the table.
        let mut guns = company.elements.iter().filter(|e| e.off_table).flat_map(|e| &e.pieces);
        if let (Some(gun), Some(grade)) = (guns.next(), company.foo) {
            let observer = unique(ids, format!("{id} FOO"));
            self.foos.push(FooSpec { id: observer.clone(), grade, attached_to: first.id.clone() });
            self.batteries.push(Battery {
                id: unique(ids, format!("{id} guns")),
                gun: gun.codex.clone(),
                guns: u8::try_from(1 + guns.count()).unwrap_or(u8::MAX),
                foo: observer,
            });
        }
        let attached_to = first.id.clone();
        Ok(Some(CompanySpec {
            id,
            name: Some(company.element.clone()),
            officer: company.officer,
            attached_to,
            objective,
            elements,
            edge: Some(edge),
        }))
    }

    /// The open spot within `depth` of the force's edge nearest `anchor`, at
    /// least [`SPACING`] from every element placed and outside the enemy's
    /// ground where the boxes are on adjacent edges (failing that, inside
    /// it; failing that, 1" from the others).
    fn spot(&mut self, stand: &Stand, depth: f32, anchor: (f32, f32), heavy: bool) -> Option<(f32, f32)> {
        let (size, edge) = (self.table.table, stand.edge);
        let jitter = (self.rng.random_range(0.0..PITCH), self.rng.random_range(0.0..PITCH));
        let tenth = |v: f32| (v * 10.0).round() / 10.0;
        let mut spots = Vec::new();
        for i in 0.. {
            let x = tenth(MARGIN + jitter.0 + i as f32 * PITCH);
            if x > size.width - MARGIN {
                break;
            }
            for k in 0.. {
                let y = tenth(MARGIN + jitter.1 + k as f32 * PITCH);
                if y > size.depth - MARGIN {
                    break;
                }
                let from_edge = off_edge(edge, Point(x, y), size);
                if from_edge <= depth - 0.5 && open_ground(&self.table.terrain, Point(x, y), heavy) {
                    spots.push((x, y));
                }
            }
        }
        let d2 = |a: (f32, f32), b: (f32, f32)| (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2);
        let enemy = |p: (f32, f32)| stand.enemy.iter().any(|&(e, d)| off_edge(e, Point(p.0, p.1), size) <= d);
        for (gap, apart) in [(SPACING, true), (SPACING, false), (1.0, false)] {
            let best = spots
                .iter()
                .filter(|&&p| !(apart && enemy(p)) && self.taken.iter().all(|&t| d2(p, t) >= gap * gap))
                .min_by(|&&a, &&b| d2(a, anchor).total_cmp(&d2(b, anchor)));
            if let Some(&p) = best {
                self.taken.push(p);
                return Some(p);
            }
        }
        None
    }
}

/// The elements the table fields of `company`, one of `force`'s: each of
/// its platoons and sections with a man or a piece left, its men graded by
/// their own force's quality where that is not their side's
/// (`side_quality`), due from the box in bound 1, under an id not in `ids`
/// and recorded in `roster`; guns behind the table edge are left to its FOO.
/// Returns the company's id and each element with what it is as a target.
pub(crate) fn company_elements(
    force: &TableForce,
    company: &TableCompany,
    side_quality: Quality,
    codex: &Codex,
    terrain: &Terrain,
    ids: &mut BTreeSet<String>,
    roster: &mut Vec<RosterEntry>,
) -> Result<(String, Vec<(ElementSpec, Candidate)>), String> {
    let id = unique(ids, format!("{}, {}", force.force, company.element));
    let mut elements = Vec::new();
    for (i, te) in company.elements.iter().enumerate() {
        if te.off_table {
            continue;
        }
        let own_grade = (force.quality != side_quality).then(|| figure_grade(force.quality));
        let figures: Vec<Figures> = te
            .figures
            .iter()
            .filter(|f| f.men > 0)
            .map(|f| Figures { men: f.men, weapon: f.weapon.clone(), grade: f.grade.or(own_grade) })
            .collect();
        if figures.is_empty() && te.pieces.is_empty() {
            continue;
        }
        let element_id = unique(ids, format!("{id}/{}", te.id));
        let spec = ElementSpec {
            id: element_id.clone(),
            name: Some(format!("{}, {}", company.element, id_name(&te.id))),
            nco: None,
            figures,
            pieces: te.pieces.clone(),
            militia: false,
            radio: te.radio,
            sniper: false,
            recce: te.recce,
            start: Start::Box(1),
            concealed: None,
            order: None,
            cms: company.cms.get(i).copied().flatten(),
            shots_used: company.shots_used.get(i).copied().unwrap_or(0),
            explosives: Vec::new(),
            aboard: None,
            boats: None,
            guard: false,
        };
        let candidate = spec.candidate(codex, terrain)?;
        roster.push(RosterEntry {
            scenario_element: element_id,
            force: force.force.clone(),
            campaign_element: company.element.clone(),
            template_element: te.id.clone(),
        });
        elements.push((spec, candidate));
    }
    Ok((id, elements))
}

/// `id`, or `id` with a number when it is taken; recorded as taken.
pub(crate) fn unique(ids: &mut BTreeSet<String>, id: String) -> String {
    let mut candidate = id.clone();
    let mut n = 2;
    while ids.contains(&candidate) {
        candidate = format!("{id} ({n})");
        n += 1;
    }
    ids.insert(candidate.clone());
    candidate
}

fn figure_grade(q: Quality) -> FigureGrade {
    match q {
        Quality::Poor => FigureGrade::Poor,
        Quality::Regular => FigureGrade::Regular,
        Quality::Elite => FigureGrade::Elite,
    }
}

/// The point a fraction `along` of `edge` (left to right, near to far) and
/// `into` inches in from it.
fn at_edge(edge: Edge, along: f32, into: f32, size: TableSize) -> (f32, f32) {
    match edge {
        Edge::South => (along * size.width, into),
        Edge::North => (along * size.width, size.depth - into),
        Edge::West => (into, along * size.depth),
        Edge::East => (size.width - into, along * size.depth),
    }
}

/// Inches from `p` to the nearest side of the polygon `poly`.
fn to_outline(poly: &[Point], p: Point) -> f32 {
    (0..poly.len()).map(|i| distance_to_segment(p, poly[i], poly[(i + 1) % poly.len()]).0).fold(f32::MAX, f32::min)
}

/// Inches from `p` to the line `line`.
fn to_line(line: &[Point], p: Point) -> f32 {
    line.windows(2).map(|w| distance_to_segment(p, w[0], w[1]).0).fold(f32::MAX, f32::min)
}

/// Whether an element may stand at `p`: clear of buildings, water, marsh,
/// mines, wire and roadblocks by 1", off hedges and walls, and (`heavy`: a
/// vehicle or gun) out of woods.
fn open_ground(terrain: &Terrain, p: Point, heavy: bool) -> bool {
    let clear_of = |poly: &[Point]| !inside(poly, p) && to_outline(poly, p) >= 1.0;
    terrain.features.iter().all(|f| match f {
        Feature::Building { outline, .. } | Feature::Marsh { outline } | Feature::Minefield { outline, .. } => {
            clear_of(outline)
        }
        Feature::Wire(Extent::Area(poly)) | Feature::Roadblock(Extent::Area(poly)) => clear_of(poly),
        Feature::Wire(Extent::Line(line)) | Feature::Roadblock(Extent::Line(line)) => to_line(line, p) >= 1.0,
        Feature::Obstacle { line, .. } => to_line(line, p) >= 1.0,
        Feature::River { line, width, .. } => to_line(line, p) >= width / 2.0 + 1.0,
        Feature::Wood { outline, .. } => !heavy || clear_of(outline),
        Feature::Hill { .. } | Feature::Road { .. } | Feature::RoughGround { .. } => true,
    })
}

#[cfg(test)]
mod tests {
    use warbound_rules::command::Activity;
    use warbound_rules::scenario::Goal;

    use super::*;
    use crate::army::orbat::{Templates, shipped, test_codex};
    use crate::map::attitude::Attitude;
    use crate::map::board::{BoardId, BoardSize, CampaignMap, can_deploy};
    use crate::map::common::{ForceKind, SessionConditions, SessionStamp};
    use crate::play::file::{ArmyFile, BattlegroupFile, CampaignFile};
    use crate::table::layout::table_of;

    const GUERNSEY: &str = include_str!("../../../../scenarios/campaigns/guernsey-1942.ron");

    struct Fixture {
        file: CampaignFile,
        templates: Templates,
        codex: Codex,
    }

    fn fixture() -> Fixture {
        let file = CampaignFile::load("guernsey-1942.ron", GUERNSEY).unwrap_or_else(|e| panic!("{e}"));
        Fixture { file, templates: shipped(), codex: test_codex() }
    }

    impl Fixture {
        fn map(&self) -> &CampaignMap {
            &self.file.map
        }

        fn battlegroup(&self, name: &str) -> (&ArmyFile, &BattlegroupFile) {
            self.file
                .armies
                .iter()
                .find_map(|a| a.battlegroups.iter().find(|b| b.name == name).map(|b| (a, b)))
                .unwrap_or_else(|| panic!("no battlegroup {name}"))
        }

        /// The battlegroup `name` as the table fields it: its elements that
        /// name a template (the others have none yet), at full strength.
        fn force(&self, name: &str, board: &str) -> TableForce {
            let (army, bg) = self.battlegroup(name);
            let companies = bg
                .elements
                .iter()
                .filter_map(|e| {
                    let (_, template) = self.templates.get(e.table.as_deref()?)?;
                    Some(TableCompany {
                        element: e.name.clone(),
                        officer: Grade::Regular,
                        elements: template.elements.clone(),
                        cms: vec![None; template.elements.len()],
                        shots_used: Vec::new(),
                        concealed: false,
                        foo: e.foo,
                    })
                })
                .collect();
            TableForce {
                force: bg.name.clone(),
                nation: army.nation.clone().expect("Guernsey's armies have a nation"),
                quality: army.quality,
                year: self.file.year,
                senior_officer: senior_officer(bg.competency.unwrap_or(Competency::Average)),
                companies,
                rationed: false,
                milestone: army.milestone_pct,
                order: Some(bg.order),
                objective_here: bg.objective.as_ref().is_some_and(|b| b.0 == board),
                landing: None,
            }
        }

        fn engagement(&self, board: &str, forces: Vec<EngagedForce>) -> Engagement {
            let b = self.map().board(&BoardId::new(board)).unwrap();
            Engagement {
                board: b.id.clone(),
                board_name: b.name.clone(),
                kind: b.kind,
                size: b.size,
                coast: b.coast,
                detail: b.detail.clone(),
                session: SessionStamp::new(1, 2).unwrap(),
                conditions: SessionConditions::fine_day(),
                forces,
            }
        }

        fn table(&self, board: &str, seed: u64) -> BoardTable {
            table_of(self.map(), &BoardId::new(board), seed).unwrap_or_else(|e| panic!("{e}"))
        }

        fn size(&self, board: &str) -> BoardSize {
            self.map().board(&BoardId::new(board)).unwrap().size
        }
    }

    /// A Battlegroup of `side` at `edge`, on the board with `attitude` or in its box.
    fn engaged(force: &str, side: Side, edge: Edge, on_board: bool, size: BoardSize) -> EngagedForce {
        EngagedForce {
            force: force.to_owned(),
            side,
            kind: ForceKind::Battlegroup,
            points: 1000,
            box_edge: edge,
            on_board,
            attitude: if on_board { Attitude::Deployed } else { Attitude::Present },
            may_deploy: can_deploy(ForceKind::Battlegroup, size),
            depth: DeploymentDepth::OneThird,
            concealed_elements: Vec::new(),
            joins_after_bounds: 0,
        }
    }

    fn day() -> BattleDay {
        BattleDay {
            start_hour: 8,
            season: Season::Summer,
            weather: Weather::default(),
            ground: Ground::Grass,
            time_limit: 12,
        }
    }

    /// Each element's start, by scenario element id.
    fn starts(s: &Scenario) -> Vec<(&str, Start, bool)> {
        s.sides
            .iter()
            .flat_map(ScenarioSide::elements)
            .map(|e| (e.id.as_str(), e.start, e.concealed.is_some()))
            .collect()
    }

    /// The starts of the elements of force `force`.
    fn of_force<'a>(s: &'a Scenario, roster: &Roster, force: &str) -> Vec<(&'a str, Start, bool)> {
        starts(s).into_iter().filter(|(id, ..)| roster.get(id).is_some_and(|r| r.force == force)).collect()
    }

    const BLUE: [&str; 4] = ["No. 3 Commando", "4th Dorsets", "7th Hampshires", "5th Dorsets"];
    const RED: [&str; 5] =
        ["I./IR 582", "II./IR 582", "III./IR 582", "Panzer-Abteilung 213", "Festungs-Artillerie Pleinmont"];
    const EDGES: [Edge; 4] = [Edge::North, Edge::East, Edge::South, Edge::West];

    #[test]
    fn every_shipped_board_fields_both_sides_on_20_seeds() {
        let fx = fixture();
        let boards: Vec<String> = fx.map().boards.iter().filter(|b| !b.is_tidal()).map(|b| b.id.0.clone()).collect();
        assert!(boards.len() >= 15, "{boards:?}");
        for board in &boards {
            let size = fx.size(board);
            for seed in 0..20u64 {
                let on = format!("{board} seed {seed}");
                let s = seed as usize;
                let (blue, red) = (BLUE[s % BLUE.len()], RED[s % RED.len()]);
                let red_edge = EDGES[s % 4];
                let blue_edge = red_edge.opposite();
                let mut r = engaged(red, Side::Red, red_edge, true, size);
                if s % 3 == 1 {
                    r.attitude = Attitude::Fortified;
                }
                if red == RED[4] {
                    r.depth = DeploymentDepth::Unlimited;
                }
                let mut forces = vec![engaged(blue, Side::Blue, blue_edge, s % 2 == 1, size), r];
                let mut table_forces = vec![fx.force(blue, board), fx.force(red, board)];
                if s.is_multiple_of(3) {
                    table_forces[1].companies[0].concealed = true;
                }
                if s.is_multiple_of(5) {
                    let joiner = BLUE[(s + 1) % BLUE.len()];
                    let mut j = engaged(joiner, Side::Blue, blue_edge, false, size);
                    j.joins_after_bounds = 2;
                    forces.push(j);
                    table_forces.push(fx.force(joiner, board));
                }
                let engagement = fx.engagement(board, forces.clone());
                let table = fx.table(board, seed);
                let (scenario, roster) = scenario_for(&engagement, &table, &table_forces, &day(), &fx.codex, seed)
                    .unwrap_or_else(|e| panic!("{on}: {e}"));
                scenario.check(&fx.codex).unwrap_or_else(|e| panic!("{on}: {e:?}"));
                let again = scenario_for(&engagement, &table, &table_forces, &day(), &fx.codex, seed).unwrap();
                assert_eq!(again, (scenario.clone(), roster.clone()), "{on}: the same input, the same scenario");
                assert_eq!(scenario.sides.len(), 2, "{on}");
                assert_eq!(scenario.sides[0].edge, table_edge(blue_edge), "{on}");
                assert_eq!(scenario.sides[1].edge, table_edge(red_edge), "{on}");
                // Ids are unique: companies and elements together.
                let mut ids = BTreeSet::new();
                for c in scenario.sides.iter().flat_map(|side| &side.companies) {
                    assert!(ids.insert(c.id.as_str()), "{on}: company {} twice", c.id);
                    for e in &c.elements {
                        assert!(ids.insert(e.id.as_str()), "{on}: element {} twice", e.id);
                    }
                }
                // The roster maps every element back to its force, campaign
                // element and template element, and nothing else.
                let all = starts(&scenario);
                assert_eq!(roster.0.len(), all.len(), "{on}");
                for (id, start, _) in &all {
                    let entry = roster.get(id).unwrap_or_else(|| panic!("{on}: {id} not in the roster"));
                    let tf = table_forces.iter().find(|f| f.force == entry.force).unwrap();
                    let company = tf.companies.iter().find(|c| c.element == entry.campaign_element).unwrap();
                    assert!(company.elements.iter().any(|e| e.id == entry.template_element), "{on}: {entry:?}");
                    let ef = forces.iter().find(|f| f.force == entry.force).unwrap();
                    match (deployment(ef, table.table), start) {
                        (Deployment::Table { depth }, Start::At(x, y)) => {
                            let from = off_edge(ef.box_edge, Point(*x, *y), table.table);
                            assert!(
                                from <= depth,
                                "{on}: {id} at ({x}, {y}) is {from}\" from its edge, over {depth}\""
                            );
                            assert!(open_ground(&table.terrain, Point(*x, *y), false), "{on}: {id} at ({x}, {y})");
                        }
                        (Deployment::Box(b), Start::Box(at)) => assert_eq!(b, *at, "{on}: {id}"),
                        (d, start) => panic!("{on}: {id} deploys {d:?} but starts {start:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn forces_on_the_board_deploy_within_their_third() {
        // FYOW 15.3: Present "is deemed to occupy 1/3rd of the board from
        // the edge on which it arrived"; Deployed "may occupy up to 1/3rd".
        let fx = fixture();
        for (red_edge, seed) in [(Edge::North, 1), (Edge::East, 2)] {
            let mut blue = engaged("4th Dorsets", Side::Blue, red_edge.opposite(), true, BoardSize::Full);
            blue.attitude = Attitude::Present;
            let red = engaged("I./IR 582", Side::Red, red_edge, true, BoardSize::Full);
            let e = fx.engagement("Castel", vec![blue, red]);
            let forces = [fx.force("4th Dorsets", "Castel"), fx.force("I./IR 582", "Castel")];
            let (s, roster) = scenario_for(&e, &fx.table("Castel", seed), &forces, &day(), &fx.codex, seed).unwrap();
            let (blue, red) = (of_force(&s, &roster, "4th Dorsets"), of_force(&s, &roster, "I./IR 582"));
            assert!(!blue.is_empty() && !red.is_empty());
            let third = |start: Start, edge: Edge| match (start, edge) {
                (Start::At(_, y), Edge::North) => y >= 32.0,
                (Start::At(_, y), Edge::South) => y <= 16.0,
                (Start::At(x, _), Edge::East) => x >= 48.0,
                (Start::At(x, _), Edge::West) => x <= 24.0,
                _ => false,
            };
            assert!(red.iter().all(|&(_, at, _)| third(at, red_edge)), "{red:?}");
            assert!(blue.iter().all(|&(_, at, _)| third(at, red_edge.opposite())), "{blue:?}");
        }
    }

    #[test]
    fn forces_from_adjacent_boxes_keep_out_of_each_others_third() {
        // FYOW 13.7: friendly forces may hold boxes on "two adjacent edges";
        // so may enemies. Each stands clear of the other's third where it can.
        let fx = fixture();
        let blue = engaged("4th Dorsets", Side::Blue, Edge::West, true, BoardSize::Full);
        let red = engaged("I./IR 582", Side::Red, Edge::South, true, BoardSize::Full);
        let e = fx.engagement("St Andrew", vec![blue, red]);
        let forces = [fx.force("4th Dorsets", "St Andrew"), fx.force("I./IR 582", "St Andrew")];
        let (s, roster) = scenario_for(&e, &fx.table("St Andrew", 3), &forces, &day(), &fx.codex, 3).unwrap();
        s.check(&fx.codex).unwrap();
        let blue = of_force(&s, &roster, "4th Dorsets");
        let red = of_force(&s, &roster, "I./IR 582");
        assert!(blue.iter().all(|&(_, at, _)| matches!(at, Start::At(x, y) if x <= 24.0 && y > 16.0)), "{blue:?}");
        assert!(red.iter().all(|&(_, at, _)| matches!(at, Start::At(x, y) if y <= 16.0 && x > 24.0)), "{red:?}");
    }

    #[test]
    fn forces_in_their_box_arrive_in_bound_1_and_a_joiner_after_2_bounds_in_bound_3() {
        // HA "The box"; FYOW 15.7: a force activated after one combatant
        // joins "after the next 2 tabletop bounds".
        let fx = fixture();
        let blue = engaged("4th Dorsets", Side::Blue, Edge::South, false, BoardSize::Full);
        let mut joiner = engaged("7th Hampshires", Side::Blue, Edge::West, false, BoardSize::Full);
        joiner.joins_after_bounds = 2;
        let mut late = engaged("III./IR 582", Side::Red, Edge::East, false, BoardSize::Full);
        late.joins_after_bounds = 4;
        let red = engaged("I./IR 582", Side::Red, Edge::North, true, BoardSize::Full);
        let e = fx.engagement("St Andrew", vec![blue, red, joiner, late]);
        let names = ["4th Dorsets", "I./IR 582", "7th Hampshires", "III./IR 582"];
        let forces: Vec<TableForce> = names.iter().map(|n| fx.force(n, "St Andrew")).collect();
        let (s, roster) = scenario_for(&e, &fx.table("St Andrew", 5), &forces, &day(), &fx.codex, 5).unwrap();
        s.check(&fx.codex).unwrap();
        let bounds = |force| -> Vec<Start> { of_force(&s, &roster, force).into_iter().map(|(_, at, _)| at).collect() };
        assert!(bounds("4th Dorsets").iter().all(|&at| at == Start::Box(1)));
        assert!(bounds("7th Hampshires").iter().all(|&at| at == Start::Box(3)));
        assert!(bounds("III./IR 582").iter().all(|&at| at == Start::Box(5)));
        assert!(bounds("I./IR 582").iter().all(|at| matches!(at, Start::At(..))));
        // A joiner due after the battle's last bound is refused.
        let short = BattleDay { time_limit: 4, ..day() };
        let err = scenario_for(&e, &fx.table("St Andrew", 5), &forces, &short, &fx.codex, 5).unwrap_err();
        assert!(err.contains("III./IR 582") && err.contains("bound 5"), "{err}");
    }

    #[test]
    fn a_battlegroup_on_a_half_board_waits_in_its_box() {
        // FYOW 13.1: "a Battlegroup cannot deploy on a half-table ...
        // whereas a Fraction is able to deploy".
        let fx = fixture();
        assert_eq!(fx.size("Perelle"), BoardSize::Half);
        let blue = engaged("4th Dorsets", Side::Blue, Edge::North, true, BoardSize::Half);
        let mut red = engaged("I./IR 582", Side::Red, Edge::South, true, BoardSize::Half);
        red.kind = ForceKind::Fraction;
        red.may_deploy = can_deploy(ForceKind::Fraction, BoardSize::Half);
        assert!(!blue.may_deploy && red.may_deploy);
        let e = fx.engagement("Perelle", vec![blue, red]);
        let forces = [fx.force("4th Dorsets", "Perelle"), fx.force("I./IR 582", "Perelle")];
        let (s, roster) = scenario_for(&e, &fx.table("Perelle", 0), &forces, &day(), &fx.codex, 0).unwrap();
        s.check(&fx.codex).unwrap();
        assert!(of_force(&s, &roster, "4th Dorsets").iter().all(|&(_, at, _)| at == Start::Box(1)));
        assert!(
            of_force(&s, &roster, "I./IR 582").iter().all(|&(_, at, _)| matches!(at, Start::At(_, y) if y <= 16.0))
        );
    }

    #[test]
    fn a_company_concealed_on_the_board_starts_concealed_where_fyob_allows() {
        // FYOW 15.4; FYOB "What can be concealed": no AFV.
        let fx = fixture();
        let blue = engaged("4th Dorsets", Side::Blue, Edge::West, false, BoardSize::Full);
        let red = engaged("Panzer-Abteilung 213", Side::Red, Edge::East, true, BoardSize::Full);
        let red2 = engaged("I./IR 582", Side::Red, Edge::East, true, BoardSize::Full);
        let e = fx.engagement("St Andrew", vec![blue, red, red2]);
        let mut tanks = fx.force("Panzer-Abteilung 213", "St Andrew");
        tanks.companies[0].concealed = true;
        let mut infantry = fx.force("I./IR 582", "St Andrew");
        infantry.companies[0].concealed = true;
        let mut dorsets = fx.force("4th Dorsets", "St Andrew");
        dorsets.companies[0].concealed = true;
        let forces = [dorsets, tanks, infantry];
        let (s, roster) = scenario_for(&e, &fx.table("St Andrew", 9), &forces, &day(), &fx.codex, 9).unwrap();
        s.check(&fx.codex).unwrap();
        let concealed = |force: &str, element: &str| -> Vec<bool> {
            of_force(&s, &roster, force)
                .into_iter()
                .filter(|(id, ..)| roster.get(id).unwrap().campaign_element == element)
                .map(|(_, _, c)| c)
                .collect()
        };
        let one = concealed("I./IR 582", "1. Kompanie");
        assert!(one.len() == 4 && one.iter().all(|&c| c), "{one:?}");
        assert!(concealed("I./IR 582", "2. Kompanie").iter().all(|&c| !c));
        assert!(concealed("Panzer-Abteilung 213", "1. Kompanie (Char B1 bis)").iter().all(|&c| !c), "tanks");
        assert!(concealed("4th Dorsets", "A Company").iter().all(|&c| !c), "in the box");
        let in_place = s.sides[1].elements().filter(|e| e.concealed == Some(Concealment::OnMapBoard)).count();
        assert_eq!(in_place, 4);
    }

    #[test]
    fn defenders_stand_about_the_settlements_in_their_third() {
        let fx = fixture();
        let mut found = 0;
        for board in fx.map().boards.iter().filter(|b| b.size == BoardSize::Full && !b.is_tidal()) {
            for seed in 0..10u64 {
                let table = fx.table(&board.id.0, seed);
                let third = |e: Edge| match e {
                    Edge::North | Edge::South => table.table.depth / 3.0,
                    Edge::East | Edge::West => table.table.width / 3.0,
                };
                let settled = board.detail.settlements.iter().find_map(|s| {
                    let at = table.place(&s.name)?;
                    let edge =
                        EDGES.into_iter().find(|&e| off_edge(e, Point(at.0, at.1), table.table) <= third(e) - 2.0)?;
                    Some((s.name.clone(), at, edge))
                });
                let Some((name, at, edge)) = settled else { continue };
                found += 1;
                let blue = engaged("4th Dorsets", Side::Blue, edge.opposite(), false, BoardSize::Full);
                let red = engaged("III./IR 582", Side::Red, edge, true, BoardSize::Full);
                let e = fx.engagement(&board.id.0, vec![blue, red]);
                let forces = [fx.force("4th Dorsets", &board.id.0), fx.force("III./IR 582", &board.id.0)];
                let (s, roster) = scenario_for(&e, &table, &forces, &day(), &fx.codex, seed).unwrap();
                s.check(&fx.codex).unwrap();
                let near = of_force(&s, &roster, "III./IR 582")
                    .iter()
                    .filter(|(_, start, _)| matches!(start, Start::At(x, y) if (x - at.0).hypot(y - at.1) <= 12.0))
                    .count();
                assert!(near >= 3, "{} seed {seed}: {near} elements within 12\" of {name}", board.id);
            }
        }
        assert!(found >= 5, "a settlement lies in a third on {found} tables");
    }

    #[test]
    fn defenders_with_no_place_in_their_third_stand_about_its_buildings() {
        // Pleinmont is fortified: pillboxes in the half along its sea edge.
        let fx = fixture();
        let mut found = 0;
        for seed in 0..10u64 {
            let table = fx.table("Pleinmont", seed);
            let middles: Vec<(f32, f32)> = table
                .terrain
                .features
                .iter()
                .filter_map(|f| match f {
                    Feature::Building { outline, .. } => Some((
                        outline.iter().map(|p| p.0).sum::<f32>() / outline.len() as f32,
                        outline.iter().map(|p| p.1).sum::<f32>() / outline.len() as f32,
                    )),
                    _ => None,
                })
                .collect();
            let third = |e: Edge, p: (f32, f32)| off_edge(e, Point(p.0, p.1), table.table) <= 16.0;
            let Some(edge) = [Edge::North, Edge::South]
                .into_iter()
                .find(|&e| middles.iter().any(|&m| third(e, m)) && table.places.iter().all(|p| !third(e, p.at)))
            else {
                continue;
            };
            found += 1;
            let blue = engaged("4th Dorsets", Side::Blue, edge.opposite(), false, BoardSize::Full);
            let red = engaged("I./IR 582", Side::Red, edge, true, BoardSize::Full);
            let e = fx.engagement("Pleinmont", vec![blue, red]);
            let forces = [fx.force("4th Dorsets", "Pleinmont"), fx.force("I./IR 582", "Pleinmont")];
            let (s, roster) = scenario_for(&e, &table, &forces, &day(), &fx.codex, seed).unwrap();
            s.check(&fx.codex).unwrap();
            let near = of_force(&s, &roster, "I./IR 582")
                .iter()
                .filter(|(_, start, _)| {
                    middles.iter().any(|m| matches!(start, Start::At(x, y) if (x - m.0).hypot(y - m.1) <= 8.0))
                })
                .count();
            assert!(near >= 3, "seed {seed}: {near} elements within 8\" of a building");
        }
        assert!(found > 0, "some Pleinmont table has buildings and no place in a third");
    }

    #[test]
    fn an_element_takes_the_shots_its_company_used_today() {
        // FYOW 20.4, Heroes All "Forces acting whilst rationed": shots used
        // earlier the same day are not topped back up; each template
        // element's count goes to its scenario element, the others none.
        let fx = fixture();
        let blue = engaged("No. 3 Commando", Side::Blue, Edge::West, true, BoardSize::Full);
        let red = engaged("II./IR 582", Side::Red, Edge::East, true, BoardSize::Full);
        let e = fx.engagement("Cobo Bay", vec![blue, red]);
        let mut commando = fx.force("No. 3 Commando", "Cobo Bay");
        let used: Vec<u32> = (1..=commando.companies[0].elements.len() as u32).collect();
        commando.companies[0].shots_used = used.clone();
        let forces = [commando.clone(), fx.force("II./IR 582", "Cobo Bay")];
        let (s, roster) = scenario_for(&e, &fx.table("Cobo Bay", 4), &forces, &day(), &fx.codex, 4).unwrap();
        s.check(&fx.codex).unwrap();
        let mut seen = 0;
        for spec in s.sides.iter().flat_map(|side| side.elements()) {
            let Some(entry) = roster.get(&spec.id) else {
                assert_eq!(spec.shots_used, 0, "{}", spec.id);
                continue;
            };
            let company = &commando.companies[0];
            let expected = match company.elements.iter().position(|te| te.id == entry.template_element) {
                Some(j) if entry.campaign_element == company.element => used[j],
                _ => 0,
            };
            assert_eq!(spec.shots_used, expected, "{}", spec.id);
            seen += u32::from(expected > 0);
        }
        assert!(seen > 0);
    }

    #[test]
    fn a_side_takes_its_first_forces_officer_rationed_state_and_goals() {
        // FYOW 2.7: "If the 'senior' Battlegroup is ... rationed ... this
        // state is adopted by the new, enlarged Battlegroup".
        let fx = fixture();
        let blue = engaged("No. 3 Commando", Side::Blue, Edge::West, true, BoardSize::Full);
        let blue2 = engaged("4th Dorsets", Side::Blue, Edge::West, false, BoardSize::Full);
        let red = engaged("II./IR 582", Side::Red, Edge::East, true, BoardSize::Full);
        let e = fx.engagement("Cobo Bay", vec![blue, red, blue2]);
        let mut commando = fx.force("No. 3 Commando", "Cobo Bay");
        commando.quality = Quality::Elite;
        commando.rationed = true;
        commando.milestone = 15;
        let dorsets = fx.force("4th Dorsets", "Cobo Bay");
        assert_eq!((commando.senior_officer, dorsets.senior_officer), (Grade::AboveAverage, Grade::Average));
        let forces = [commando, fx.force("II./IR 582", "Cobo Bay"), dorsets];
        let (s, roster) = scenario_for(&e, &fx.table("Cobo Bay", 4), &forces, &day(), &fx.codex, 4).unwrap();
        s.check(&fx.codex).unwrap();
        let side = &s.sides[0];
        assert_eq!((side.senior_officer, side.quality, side.rationed), (Grade::AboveAverage, Quality::Elite, true));
        assert_eq!(side.name, "No. 3 Commando and 4th Dorsets");
        assert!(!s.sides[1].rationed);
        // FYOB "Strategic Milestones": the senior force's army's milestone.
        assert_eq!((side.milestone, s.sides[1].milestone), (15, 10));
        // The Dorsets' men, whose template gives no grade, stay Regular.
        let dorset = side.elements().find(|e| roster.get(&e.id).unwrap().force == "4th Dorsets").unwrap();
        assert!(dorset.figures.iter().all(|f| f.grade == Some(FigureGrade::Regular)), "{:?}", dorset.figures);
        // Move To Contact attacks Cobo: break the enemy and hold it; the
        // defender holds it and survives.
        let cobo = Goal::Hold { place: "Cobo".into(), at: fx.table("Cobo Bay", 4).place("Cobo").unwrap(), radius: 6.0 };
        assert_eq!(side.victory, vec![Goal::Break, cobo.clone()]);
        assert_eq!(s.sides[1].victory, vec![cobo, Goal::Survive]);
        let objectives: Vec<Option<Activity>> =
            side.companies.iter().map(|c| c.objective.as_ref().map(|o| o.activity)).collect();
        assert!(objectives.iter().all(|&a| a == Some(Activity::ContactEnemy)), "{objectives:?}");
        assert!(s.sides[1].companies.iter().all(|c| c.objective.is_none()), "defenders hold where they stand");
    }

    #[test]
    fn an_emplaced_coastal_gun_may_stand_in_its_half() {
        // FYOW 15.3: "The deployment limit of 1/3rd may only be exceeded
        // where a defensive position is an emplaced coastal gun".
        let fx = fixture();
        let blue = engaged("No. 3 Commando", Side::Blue, Edge::South, false, BoardSize::Full);
        let mut red = engaged("Festungs-Artillerie Pleinmont", Side::Red, Edge::North, true, BoardSize::Full);
        red.depth = DeploymentDepth::Unlimited;
        assert_eq!(deployment(&red, TableSize { width: 72.0, depth: 48.0 }), Deployment::Table { depth: 24.0 });
        let e = fx.engagement("Pleinmont", vec![blue, red]);
        let forces = [fx.force("No. 3 Commando", "Pleinmont"), fx.force("Festungs-Artillerie Pleinmont", "Pleinmont")];
        let (s, roster) = scenario_for(&e, &fx.table("Pleinmont", 2), &forces, &day(), &fx.codex, 2).unwrap();
        s.check(&fx.codex).unwrap();
        let guns: Vec<_> = of_force(&s, &roster, "Festungs-Artillerie Pleinmont")
            .into_iter()
            .filter(|(id, ..)| roster.get(id).is_some_and(|r| r.campaign_element.starts_with("Batterie Strassburg")))
            .collect();
        assert_eq!(guns.len(), 2);
        assert!(guns.iter().all(|&(_, at, _)| matches!(at, Start::At(_, y) if y >= 24.0)), "{guns:?}");
    }

    #[test]
    fn a_batterys_guns_fire_from_off_the_table_through_its_foo() {
        // Heroes All, "Advanced Artillery Rules": the guns stay behind the
        // table edge and fire on the FOO's call; he starts with the battery's
        // element on the table.
        let fx = fixture();
        let blue = engaged("7th Hampshires", Side::Blue, Edge::South, true, BoardSize::Full);
        let red = engaged("I./IR 582", Side::Red, Edge::North, true, BoardSize::Full);
        let e = fx.engagement("Cobo Bay", vec![blue, red]);
        let forces = [fx.force("7th Hampshires", "Cobo Bay"), fx.force("I./IR 582", "Cobo Bay")];
        let (s, roster) = scenario_for(&e, &fx.table("Cobo Bay", 3), &forces, &day(), &fx.codex, 3).unwrap();
        s.check(&fx.codex).unwrap();
        let side = &s.sides[0];
        assert_eq!(side.artillery.len(), 1, "{:?}", side.artillery);
        let battery = &side.artillery[0];
        assert_eq!((battery.gun.as_str(), battery.guns), ("gb_25pdr", 8));
        let foo = side.foos.iter().find(|f| f.id == battery.foo).expect("its FOO");
        assert_eq!(foo.grade, Grade::Regular);
        let with = roster.get(&foo.attached_to).expect("the FOO's element is on the table");
        assert!(with.campaign_element.starts_with("Field battery"), "{with:?}");
        let guns_on_table = side.elements().flat_map(|e| &e.pieces).filter(|p| p.codex == "gb_25pdr").count();
        assert_eq!(guns_on_table, 0, "the guns are off the table");
    }

    #[test]
    fn the_senior_officer_is_rated_as_the_commander() {
        // FYOW 7: 1 Below Average (5), 2-5 Average (6), 6 Above Average (7);
        // FYOB rates the Senior Officer on the same bands.
        assert_eq!(senior_officer(Competency::BelowAverage), Grade::BelowAverage);
        assert_eq!(senior_officer(Competency::Average), Grade::Average);
        assert_eq!(senior_officer(Competency::AboveAverage), Grade::AboveAverage);
    }
}
