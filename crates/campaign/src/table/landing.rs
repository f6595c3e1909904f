//! A battlegroup landing from the sea by its Landing Plan (FYOW 18.2: "The
//! Order of March is declared as a 'Landing Plan' ... The exact composition
//! of each 'wave' of landings per session must be declared"), in the landing
//! craft of *Heroes All*'s Loads chapter, and on the table by *Heroes All*'s
//! "Landing craft": the beach's lanes and gaps and the landing sequence.
//!
//! Readings (docs/rules-readings.md, "Engagements on the table"):
//! - a wave is a campaign session's landing: the first wave comes ashore in
//!   the session of the battlegroup's landing (FYOW 14.13), each later wave
//!   in the session after the one before;
//! - on the table the beach is the shore's strip at its water's edge, the
//!   whole of the sea edge; a campaign wave still afloat when the battle
//!   starts, `n` sessions after its first, approaches as the table's wave
//!   `1 + 4n` (the first bound of its session) and lands the bound after,
//!   its craft in the beach's lanes left to right (amphibious craft also in
//!   its gaps), craft the lanes cannot take in the table's next wave;
//! - an element is never split between craft: it goes whole in the
//!   smallest of its plan's craft that holds it (*Heroes All*, "Loads": each
//!   man 1 load, each piece its load space and crew), and each company rides
//!   its own craft, as many of its elements to a craft as it holds.

use serde::{Deserialize, Serialize};
use warbound_rules::boats::{self, Craft, Slot};
use warbound_rules::codex::Codex;
use warbound_rules::loads::{Carrier, Loads};
use warbound_rules::scenario::{BeachLanding, CompanySpec, CraftSpec, ElementSpec, Start};

use crate::army::orbat::TemplateElement;
use crate::map::board::{BoardId, Coast};
use crate::map::common::{MapError, SessionStamp};
use crate::map::march::{LandingPlan, LandingWave};
use crate::table::forces::{Afloat, RosterEntry, TableForce, table_edge};
use crate::table::layout::BoardTable;

/// Bounds of table action in a campaign session (FYOW "The role of the Umpire").
const BOUNDS_A_SESSION: u32 = 4;

/// A battlegroup's Landing Plan as its campaign file writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LandingFile {
    /// The kinds of landing craft it has, as *Heroes All*'s Loads chapter
    /// names them: "lca", "lcvp", "lcm_mk1", "lcm_mk2", "lct4", or an
    /// amphibious lorry ("dukw", "lvt", "lvt_mk4"). Each element goes in the
    /// smallest that holds it whole. Or small boats only ("rubber_boat",
    /// "assault_boat", "canoe"): a covert landing, which may come ashore at a
    /// cove (FYOW 13.8, 24.1, 29.16), each element in as many as it fills.
    pub craft: Vec<String>,
    /// The elements of each wave, the first wave first (FYOW 18.2).
    pub waves: Vec<Vec<String>>,
    /// What each wave puts on the beach, counted from the elements' table
    /// orders of battle when the file is checked; never written in the file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wave_loads: Vec<WaveLoad>,
}

/// What one wave of a Landing Plan puts on the beach (FYOW 24).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaveLoad {
    /// Its Load Spaces (*Heroes All*, "Loads"): each man 1, each piece its
    /// load space and crew, rounded up to whole spaces.
    pub load_spaces: u32,
    /// Whether it lands vehicles, which a small cove cannot take (FYOW 24.1).
    pub vehicles: bool,
}

/// A template element as the table fields it, to count its loads.
fn table_spec(te: &TemplateElement) -> ElementSpec {
    ElementSpec {
        id: te.id.clone(),
        name: None,
        nco: None,
        figures: te.figures.clone(),
        pieces: te.pieces.clone(),
        militia: false,
        radio: te.radio,
        sniper: false,
        recce: te.recce,
        start: Start::Box(1),
        concealed: None,
        order: None,
        cms: None,
        shots_used: 0,
        explosives: Vec::new(),
        aboard: None,
        boats: None,
        guard: false,
    }
}

/// The craft `name` names, where it is a landing craft or amphibious lorry.
pub fn craft(name: &str) -> Option<Carrier> {
    let c: Carrier = ron::from_str(name).ok()?;
    (boats::is_landing_craft(c) || boats::is_amphibious(c)).then_some(c)
}

/// The small boat `name` names (*Heroes All*, "Carriage capacity": canoe,
/// rubber boat, assault boat), which a covert landing paddles ashore in.
pub fn small_boat(name: &str) -> Option<Carrier> {
    let c: Carrier = ron::from_str(name).ok()?;
    matches!(c, Carrier::Canoe | Carrier::RubberBoat | Carrier::AssaultBoat).then_some(c)
}

impl LandingFile {
    /// FYOW 18.2's Landing Plan of a battlegroup landing on `beach` on campaign
    /// `day`: its first wave in the day's first session, each later wave in
    /// the session after.
    pub fn plan(&self, beach: &BoardId, day: u32) -> Result<LandingPlan, MapError> {
        let sessions = u32::from(warbound_rules::day::SESSIONS_PER_DAY);
        let waves = self
            .waves
            .iter()
            .enumerate()
            .map(|(k, elements)| {
                let k = k as u32;
                let stamp = SessionStamp::new(day + k / sessions, (k % sessions + 1) as u8)?;
                Ok(LandingWave { session: stamp, elements: elements.clone() })
            })
            .collect::<Result<Vec<_>, MapError>>()?;
        LandingPlan::new(beach.clone(), waves)
    }

    /// Checks the plan of a battlegroup with `elements`, written at `at`
    /// (`armies[0].battlegroups[1].landing`): known craft, every element in
    /// one wave and only its own. Returns the field, a value written there
    /// and the problem.
    pub fn check(
        &self,
        at: &str,
        elements: &[&str],
        beach: &BoardId,
        day: u32,
    ) -> Result<(), (String, Option<String>, String)> {
        let wrong =
            |field: String, value: Option<&str>, message: String| Err((field, value.map(str::to_owned), message));
        if self.craft.is_empty() {
            return wrong(format!("{at}.craft"), None, "craft: a landing needs landing craft".into());
        }
        let covert = small_boat(&self.craft[0]).is_some();
        for (k, name) in self.craft.iter().enumerate() {
            if covert && small_boat(name).is_none() {
                let m = format!("craft: \"{name}\" is no small boat; a covert landing's craft are all small boats");
                return wrong(format!("{at}.craft[{k}]"), Some(name), m);
            }
            if !covert && craft(name).is_none() {
                let m = if small_boat(name).is_some() {
                    format!(
                        "craft: \"{name}\" is a small boat; a landing is made in landing craft or in small boats, not both"
                    )
                } else {
                    format!(
                        "craft: \"{name}\" is no landing craft, amphibious lorry or small boat of Heroes All's Loads"
                    )
                };
                return wrong(format!("{at}.craft[{k}]"), Some(name), m);
            }
        }
        for (w, wave) in self.waves.iter().enumerate() {
            for e in wave {
                if !elements.contains(&e.as_str()) {
                    return wrong(
                        format!("{at}.waves[{w}]"),
                        Some(e),
                        format!("waves: \"{e}\" is no element of the battlegroup"),
                    );
                }
            }
        }
        if let Err(e) = self.plan(beach, day) {
            // Where the plan breaks: an empty wave, or the later wave of an
            // element named twice.
            let message = format!("waves: {e}");
            let twice = self.waves.iter().enumerate().find_map(|(w, wave)| {
                wave.iter().find(|e| self.waves[..w].iter().flatten().any(|x| x == *e)).map(|e| (w, e))
            });
            return match (self.waves.iter().position(Vec::is_empty), twice) {
                (Some(w), _) => wrong(format!("{at}.waves[{w}]"), None, message),
                (None, Some((w, e))) => wrong(format!("{at}.waves[{w}]"), Some(e), message),
                (None, None) => wrong(format!("{at}.waves"), None, message),
            };
        }
        if let Some(e) = elements.iter().find(|e| !self.waves.iter().flatten().any(|x| x == *e)) {
            let m = format!("waves: \"{e}\" is in no wave: a Landing Plan declares each wave's whole composition");
            return wrong(format!("{at}.waves"), None, m);
        }
        Ok(())
    }
}

impl LandingFile {
    /// Each element of the order of battle `template` (its on-table
    /// elements) fits whole in one of the plan's craft; the problem names
    /// the campaign element `element` and the template element.
    pub fn holds(&self, element: &str, template: &[TemplateElement], codex: &Codex) -> Result<(), String> {
        if self.covert() {
            // Small boats carry an element in as many as it fills.
            return Ok(());
        }
        let biggest = self.craft.iter().filter_map(|c| craft(c)).max_by_key(|c| c.capacity());
        for te in template.iter().filter(|te| !te.off_table) {
            let spec = table_spec(te);
            let load = spec.load(codex)?;
            if biggest.is_none_or(|c| load > c.capacity()) {
                return Err(format!("{element}'s {} ({load} loads) fits none of the landing craft", te.id));
            }
        }
        Ok(())
    }
}

impl LandingFile {
    /// Whether it is a covert landing in small boats.
    pub fn covert(&self) -> bool {
        !self.craft.is_empty() && self.craft.iter().all(|c| small_boat(c).is_some())
    }

    /// The load spaces of its largest small boat; `None` unless covert.
    pub fn boat_capacity(&self) -> Option<u32> {
        if !self.covert() {
            return None;
        }
        self.craft.iter().filter_map(|c| small_boat(c)).map(|c| c.capacity().halves().div_ceil(2)).max()
    }

    /// FYOW 24: what each wave puts on the beach, its elements given by
    /// name with their table orders of battle (`None` for an element
    /// without one, which is refused: its loads cannot be counted).
    pub fn count_wave_loads(
        &self,
        elements: &[(&str, Option<&[TemplateElement]>)],
        codex: &Codex,
    ) -> Result<Vec<WaveLoad>, String> {
        self.waves
            .iter()
            .map(|wave| {
                let mut load = Loads::default();
                let mut vehicles = false;
                for name in wave {
                    let Some((_, template)) = elements.iter().find(|(n, _)| n == name) else { continue };
                    let Some(template) = template else {
                        return Err(format!("{name} has no table order of battle to count its loads by"));
                    };
                    for te in template.iter().filter(|te| !te.off_table) {
                        load += table_spec(te).load(codex)?;
                        vehicles |= te
                            .pieces
                            .iter()
                            .any(|p| codex.get(&p.codex).is_ok_and(|e| e.kind == warbound_rules::codex::Kind::Vehicle));
                    }
                }
                Ok(WaveLoad { load_spaces: load.halves().div_ceil(2), vehicles })
            })
            .collect()
    }
}

impl Afloat {
    /// The waves of `plan` not yet ashore `sessions` sessions after the
    /// first wave's; `None` when all are ashore.
    pub fn after(plan: &LandingFile, sessions: u32) -> Option<Self> {
        let waves: Vec<Vec<String>> = plan.waves.iter().skip(sessions as usize).cloned().collect();
        if waves.is_empty() {
            return None;
        }
        let mut kinds: Vec<Carrier> = plan.craft.iter().filter_map(|c| craft(c)).collect();
        kinds.sort_by_key(|c| c.capacity());
        Some(Self { craft: kinds, waves })
    }
}

/// One craft being loaded: its spec and the loads it holds.
struct Loading {
    spec: CraftSpec,
    carrier: Carrier,
    load: Loads,
}

/// The beach landing of a side whose `forces` land by their plans: each
/// element of a company still afloat put aboard a craft in a lane (its start
/// [`Start::Landing`]), the beach at the water's edge of the table's
/// shore. `None` when none of the side's forces is afloat.
pub fn beach_landing(
    table: &BoardTable,
    forces: &[&TableForce],
    companies: &mut [CompanySpec],
    roster: &[RosterEntry],
    codex: &Codex,
    time_limit: u32,
) -> Result<Option<BeachLanding>, String> {
    if forces.iter().all(|f| f.landing.is_none()) {
        return Ok(None);
    }
    let shore = table
        .shore
        .as_ref()
        .filter(|s| s.coast == Coast::SandyBeach)
        .ok_or_else(|| format!("{} has no sandy beach for landing craft", table.board))?;
    // The water's edge: the strip's side along the sea edge.
    let (a, b) = (shore.strip[0], shore.strip[1]);
    let at = (a.0.min(b.0), a.1.min(b.1));
    let width = (a.0 - b.0).abs().max((a.1 - b.1).abs());
    let slots = boats::beach_slots(width).map_err(|e| e.to_string())?;
    let mut craft: Vec<Loading> = Vec::new();
    let mut next_wave = 1;
    for f in forces {
        let Some(afloat) = &f.landing else { continue };
        for (n, wave) in afloat.waves.iter().enumerate() {
            let first = 1 + BOUNDS_A_SESSION * n as u32;
            let mut table_wave = first.max(next_wave);
            let mut free: Vec<usize> = (0..slots.len()).collect();
            for element in wave {
                let mut company_craft: Vec<usize> = Vec::new();
                for company in companies.iter_mut() {
                    for e in company.elements.iter_mut() {
                        let Some(entry) = roster.iter().find(|r| r.scenario_element == e.id) else { continue };
                        if entry.force != f.force || &entry.campaign_element != element {
                            continue;
                        }
                        let load = e.load(codex)?;
                        let carrier = afloat.craft.iter().copied().find(|c| load <= c.capacity()).ok_or_else(|| {
                            format!("{}: its {load} loads fit none of its Landing Plan's craft", e.id)
                        })?;
                        let room = company_craft
                            .iter()
                            .copied()
                            .find(|&k| craft[k].carrier == carrier && craft[k].load + load <= carrier.capacity());
                        let k = match room {
                            Some(k) => k,
                            None => {
                                let amphibious = boats::is_amphibious(carrier);
                                let pick =
                                    |free: &[usize]| free.iter().position(|&s| amphibious || slots[s] == Slot::Lane);
                                let i = match pick(&free) {
                                    Some(i) => i,
                                    None => {
                                        table_wave += 1;
                                        free = (0..slots.len()).collect();
                                        pick(&free).ok_or_else(|| format!("{} has no lane", table.board))?
                                    }
                                };
                                let slot = free.remove(i);
                                if table_wave + 1 > time_limit {
                                    return Err(format!(
                                        "{}'s wave {} lands after the battle's {time_limit} bounds",
                                        f.force,
                                        n + 1
                                    ));
                                }
                                let count = craft.iter().filter(|c| c.carrier == carrier).count() + 1;
                                let id = format!("{}, {} {count}", f.force, name(carrier));
                                craft.push(Loading {
                                    spec: CraftSpec { id, craft: Craft::Carrier(carrier), wave: table_wave, slot },
                                    carrier,
                                    load: Loads::default(),
                                });
                                company_craft.push(craft.len() - 1);
                                craft.len() - 1
                            }
                        };
                        craft[k].load += load;
                        e.start = Start::Landing(craft[k].spec.wave, craft[k].spec.slot);
                        e.concealed = None;
                    }
                }
            }
            next_wave = table_wave + 1;
        }
    }
    Ok(Some(BeachLanding {
        at,
        width,
        mined_approaches: false,
        sea: Some(table_edge(shore.edge)),
        craft: craft.into_iter().map(|c| c.spec).collect(),
    }))
}

/// A craft's name as the Loads chapter abbreviates it.
fn name(c: Carrier) -> &'static str {
    match c {
        Carrier::Lca => "LCA",
        Carrier::Lcvp => "LCVP",
        Carrier::LcmMk1 => "LCM Mk I",
        Carrier::LcmMk2 => "LCM Mk II",
        Carrier::Lct4 => "LCT-4",
        Carrier::Dukw => "DUKW",
        Carrier::Lvt => "LVT",
        Carrier::LvtMk4 => "LVT Mk IV",
        _ => "craft",
    }
}

#[cfg(test)]
mod tests {
    use warbound_rules::codex::Codex;
    use warbound_rules::day::Season;
    use warbound_rules::officer::Grade;
    use warbound_rules::scenario::{Edge as TableEdge, Scenario, Weather};

    use super::*;
    use crate::army::commander::Competency;
    use crate::army::orbat::{Templates, shipped, test_codex};
    use crate::map::attitude::Attitude;
    use crate::map::board::can_deploy;
    use crate::map::common::{Edge, ForceKind, SessionConditions, Side};
    use crate::map::engagement::{DeploymentDepth, EngagedForce, Engagement};
    use crate::play::CampaignFile;
    use crate::table::deploy::{BattleDay, Roster, TableCompany, scenario_for, senior_officer};
    use crate::table::layout::table_of;

    const GUERNSEY: &str = include_str!("../../../../scenarios/campaigns/guernsey-1942.ron");

    /// The battlegroup `name` of Guernsey as the table fields it, `sessions`
    /// sessions after its first wave landed.
    fn force(file: &CampaignFile, templates: &Templates, name: &str, board: &BoardId, sessions: u32) -> TableForce {
        let (army, bg) =
            file.armies.iter().find_map(|a| a.battlegroups.iter().find(|b| b.name == name).map(|b| (a, b))).unwrap();
        let companies = bg
            .elements
            .iter()
            .filter_map(|e| {
                let (_, t) = templates.get(e.table.as_deref()?)?;
                Some(TableCompany {
                    element: e.name.clone(),
                    officer: Grade::Regular,
                    elements: t.elements.clone(),
                    cms: vec![None; t.elements.len()],
                    shots_used: Vec::new(),
                    concealed: false,
                    foo: e.foo,
                })
            })
            .collect();
        TableForce {
            force: bg.name.clone(),
            nation: army.nation.clone().unwrap(),
            quality: army.quality,
            year: file.year,
            senior_officer: senior_officer(bg.competency.unwrap_or(Competency::Average)),
            companies,
            rationed: false,
            milestone: army.milestone_pct,
            order: Some(bg.order),
            objective_here: bg.objective.as_ref() == Some(board),
            landing: bg.landing.as_ref().and_then(|p| Afloat::after(p, sessions)),
        }
    }

    fn engaged(
        force: &str,
        side: Side,
        edge: Edge,
        on_board: bool,
        file: &CampaignFile,
        board: &BoardId,
    ) -> EngagedForce {
        let size = file.map.board(board).unwrap().size;
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

    /// The 4th Dorsets landing at Cobo Bay from the West Sea against II./IR
    /// 582 on the board, `sessions` after their first wave's session.
    fn cobo(sessions: u32, seed: u64) -> (Scenario, Roster, Codex) {
        landing_at("Cobo Bay", "4th Dorsets", Edge::West, sessions, seed)
    }

    /// `force` landing on `board` from its `sea` edge against II./IR 582 on
    /// the board, `sessions` after its first wave's session.
    fn landing_at(board: &str, landing: &str, sea: Edge, sessions: u32, seed: u64) -> (Scenario, Roster, Codex) {
        let file = CampaignFile::load("guernsey-1942.ron", GUERNSEY).unwrap();
        let (templates, codex) = (shipped(), test_codex());
        let board = BoardId::new(board);
        let b = file.map.board(&board).unwrap();
        let engagement = Engagement {
            board: b.id.clone(),
            board_name: b.name.clone(),
            kind: b.kind,
            size: b.size,
            coast: b.coast,
            detail: b.detail.clone(),
            session: SessionStamp::new(1, 2).unwrap(),
            conditions: SessionConditions::fine_day(),
            forces: vec![
                engaged(landing, Side::Blue, sea, false, &file, &board),
                engaged("II./IR 582", Side::Red, sea.opposite(), true, &file, &board),
            ],
        };
        let table = table_of(&file.map, &board, seed).unwrap();
        let forces = [
            force(&file, &templates, landing, &board, sessions),
            force(&file, &templates, "II./IR 582", &board, sessions),
        ];
        let day = BattleDay {
            start_hour: 8,
            season: Season::Summer,
            weather: Weather::default(),
            ground: warbound_rules::scenario::Ground::Grass,
            time_limit: 24,
        };
        let (s, roster) = scenario_for(&engagement, &table, &forces, &day, &codex, seed).unwrap();
        (s, roster, codex)
    }

    /// FYOW 18.2 and *Heroes All*, "Landing craft": the first wave's
    /// companies are aboard craft in the lanes of the beach at the sea edge's
    /// water line, landing in the battle's first session; the second wave's
    /// approach in the next session's first bound; every element fits its
    /// craft and the scenario passes its checks.
    #[test]
    fn a_guernsey_landing_puts_its_first_wave_in_craft_at_the_shore() {
        for seed in 0..5 {
            let (s, roster, codex) = cobo(0, seed);
            s.check(&codex).unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
            let blue = &s.sides[0];
            let beach = blue.landing.as_ref().expect("the Dorsets land from the sea");
            assert_eq!(beach.sea, Some(TableEdge::Left), "Cobo Bay's sea is to the west");
            assert_eq!((beach.at.0, beach.width), (0.0, s.table.depth), "the whole water's edge of the shore");
            let slots = boats::beach_slots(beach.width).unwrap();
            let mut first = 0;
            for e in blue.elements() {
                let r = roster.get(&e.id).unwrap();
                let Start::Landing(wave, slot) = e.start else { panic!("{} is not in a craft: {:?}", e.id, e.start) };
                let craft = beach.craft.iter().find(|c| c.wave == wave && c.slot == slot).unwrap();
                assert_eq!(slots[slot], Slot::Lane, "{}: landing craft use the lanes", craft.id);
                assert_eq!(beach.slot_centre(slot).0, 0.0, "at the water's edge");
                match r.campaign_element.as_str() {
                    "A Company" | "B Company" => {
                        first += 1;
                        assert!(wave <= 3, "{}: the first wave lands in the first session ({wave})", e.id);
                    }
                    _ => assert!((5..=7).contains(&wave), "{}: the second wave approaches from bound 5 ({wave})", e.id),
                }
            }
            assert_eq!(first, 8, "both companies' headquarters and platoons");
            let churchill = beach.craft.iter().find(|c| c.id.contains("LCT")).expect("the Churchills come in LCTs");
            assert!(churchill.wave >= 5);
            assert!(s.sides[1].landing.is_none());
        }
    }

    /// L'Ancresse's sea is to the east: the beach runs up the right edge and
    /// the 5th Dorsets' first wave is aboard craft in its lanes there.
    #[test]
    fn an_east_facing_beach_lies_along_the_right_edge() {
        let (s, _, codex) = landing_at("L'Ancresse", "5th Dorsets", Edge::East, 0, 2);
        s.check(&codex).unwrap();
        let beach = s.sides[0].landing.as_ref().unwrap();
        assert_eq!((beach.sea, beach.at), (Some(TableEdge::Right), (s.table.width, 0.0)));
        let aboard = s.sides[0].elements().filter(|e| matches!(e.start, Start::Landing(..))).count();
        assert_eq!(aboard, s.sides[0].elements().count(), "every element lands from the sea");
    }

    /// A session after the first wave landed, it is ashore: it comes on from
    /// the box, and only the second wave is in craft, landing in bound 2.
    #[test]
    fn a_wave_ashore_comes_from_the_box_and_the_next_lands_in_this_session() {
        let (s, roster, codex) = cobo(1, 3);
        s.check(&codex).unwrap();
        for e in s.sides[0].elements() {
            let company = roster.get(&e.id).unwrap().campaign_element.as_str();
            match (company, e.start) {
                ("A Company" | "B Company", Start::Box(1)) => {}
                ("A Company" | "B Company", other) => panic!("{}: {other:?}", e.id),
                (_, Start::Landing(wave, _)) => assert!(wave <= 3, "{}: wave {wave}", e.id),
                (_, other) => panic!("{} is not in a craft: {other:?}", e.id),
            }
        }
        let (s, ..) = cobo(2, 3);
        assert!(s.sides[0].landing.is_none(), "all ashore");
    }

    /// A plan whose craft cannot hold an element whole is refused at load:
    /// a 1942 rifle platoon's 41 loads do not fit *Heroes All*'s LCA of 16.
    #[test]
    fn a_plan_whose_craft_cannot_hold_an_element_is_refused() {
        let (templates, codex) = (shipped(), test_codex());
        let mut file = CampaignFile::load("guernsey-1942.ron", GUERNSEY).unwrap();
        file.check_tables("guernsey-1942.ron", GUERNSEY, &codex, &templates).unwrap();
        let only_lcas = GUERNSEY.replacen("craft: [\"lca\", \"lcm_mk1\", \"lct4\"]", "craft: [\"lca\"]", 1);
        assert_ne!(only_lcas, GUERNSEY);
        let mut file = CampaignFile::load("guernsey-1942.ron", &only_lcas).unwrap();
        let err = file.check_tables("guernsey-1942.ron", &only_lcas, &codex, &templates).unwrap_err();
        assert!(err.message.starts_with("craft: A Company's 1_platoon (41 loads) fits none"), "{err}");
        let line = only_lcas[..only_lcas.find("craft: [\"lca\"]").unwrap()].matches('\n').count() + 1;
        assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
    }

    /// FYOW 18.2's waves a session apart, through the map's Landing Plan.
    #[test]
    fn the_waves_land_a_session_apart() {
        let file = CampaignFile::load("guernsey-1942.ron", GUERNSEY).unwrap();
        let bg = file.armies[0].battlegroups.iter().find(|b| b.name == "5th Dorsets").unwrap();
        let plan = bg.landing.as_ref().unwrap().plan(&BoardId::new("L'Ancresse"), 2).unwrap();
        let sessions: Vec<SessionStamp> = plan.waves().iter().map(|w| w.session).collect();
        assert_eq!(sessions, [SessionStamp::new(2, 1).unwrap(), SessionStamp::new(2, 2).unwrap()]);
        assert_eq!(craft("lcm_mk1"), Some(Carrier::LcmMk1));
        assert_eq!(craft("service_truck"), None, "no landing craft");
        assert_eq!(craft("lcx"), None);
    }
}
