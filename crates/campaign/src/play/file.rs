//! The campaign file (`scenarios/campaigns/*.ron`, documented in
//! `docs/campaigns.md`): the map, the two armies with their battlegroups,
//! squadrons and objectives, the partisans, the calendar and the climate.
//! Loading checks it against the rules and names the file, the line and the
//! field that is wrong.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use warbound_rules::aircraft::AircraftType;
use warbound_rules::codex::{Codex, Kind, Points};
use warbound_rules::data::{DataError, from_ron};
use warbound_rules::officer::{Grade, Officer, Quality, Rank};

use crate::air::missions::BombType;
use crate::air::squadron::Basing;
use crate::air::{Role, Speed};
use crate::army::battlegroup::{Battlegroup, BattlegroupKind, Element, ElementClass, WarPeriod};
use crate::army::calendar::Month;
use crate::army::commander::Competency;
use crate::army::morale::Motivation;
use crate::army::orders::OrderKind;
use crate::map::board::{BoardId, BoardKind, CampaignMap, Coast, RouteKind};
use crate::map::common::{Edge, Side};
use crate::map::movement::{Medium, MoverClass};
use crate::naval::craft::Craft;
use crate::paper::partisans::{Target, TargetList};
use crate::weather::Climate;

/// A whole campaign as written in its file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignFile {
    pub name: String,
    #[serde(default)]
    pub briefing: String,
    /// The campaign opens on the first day of this month.
    pub year: u16,
    pub month: Month,
    /// Which weather charts are thrown (FYOW 25, 26 or 27).
    pub climate: Climate,
    /// The optional Weather Forecasting (FYOW 25.4, 26.4, 27.4): the weather
    /// thrown three days ahead, each day made better or worse on the day.
    #[serde(default)]
    pub weather_forecast: bool,
    /// Sets the battlegroup cost limit (FYOW 2.1) unless `max_points` is given.
    pub period: WarPeriod,
    #[serde(default)]
    pub max_points: Option<u32>,
    /// The campaign ends after this many campaign days at most.
    pub days: u32,
    pub map: CampaignMap,
    /// Exactly two: one Blue, one Red.
    pub armies: Vec<ArmyFile>,
    #[serde(default)]
    pub partisans: Option<PartisansFile>,
}

/// What an army is trying to do, which sets how its Auto commanders lay out their options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stance {
    /// Takes the objectives from the enemy.
    Attack,
    /// Holds the objectives against the enemy.
    Defend,
}

/// One army (FYOW 6: the General's force).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyFile {
    pub side: Side,
    pub name: String,
    /// Its nation: the CODEX and the order-of-battle templates it fields
    /// (needed where an element names a `table` template).
    #[serde(default)]
    pub nation: Option<warbound_rules::opc::Nation>,
    /// The grade of its figures on the table where a template gives none.
    #[serde(default = "regular")]
    pub quality: Quality,
    /// Sets the Strategic Morale die (FYOW 12.3).
    pub motivation: Motivation,
    /// The FYOB Strategic Milestone percentage of its battlegroups (FYOW 2):
    /// "for most armies this will be 10%", 15 or 20 for resilient forces.
    #[serde(default = "ten")]
    pub milestone_pct: u32,
    /// FYOW 9.2 (optional): the D6 score its telegraph clerks need to pass a
    /// request up the chain in the usual time (3 in the book's example),
    /// falling by 1 each session it waits; none, no throw.
    #[serde(default)]
    pub telegraph_clerks: Option<u8>,
    /// FYOW 21.7 (optional): each month after the first, the army throws
    /// for replacements from home, a percentage of its forces' cost at the
    /// outset of the campaign.
    #[serde(default)]
    pub replenishment_from_home: bool,
    /// FYOW 7.1 (optional): the battles a battlegroup's commander must have
    /// fought to come under review; each month after the first he throws
    /// 2D6, a double improving his competency by a step. None: no reviews.
    #[serde(default)]
    pub experience_after_battles: Option<u32>,
    pub general: String,
    /// The General's competency; thrown (FYOW 7) when left out.
    #[serde(default)]
    pub general_competency: Option<Competency>,
    pub stance: Stance,
    /// Boards the army's supply comes from (its home territory, ports, beaches held).
    pub home: Vec<BoardId>,
    /// Boards that decide the campaign.
    pub objectives: Vec<BoardId>,
    pub battlegroups: Vec<BattlegroupFile>,
    #[serde(default)]
    pub squadrons: Vec<SquadronFile>,
    /// Its sea-going vessels (FYOW 29), placed off-shore where fire support
    /// is wanted (29.5).
    #[serde(default)]
    pub fleet: Vec<VesselFile>,
    /// Its coastal gun batteries (FYOW 29.10.1): guns of 150mm and over
    /// emplaced on a coast, firing on the enemy's vessels off it.
    #[serde(default)]
    pub coastal_batteries: Vec<CoastalBatteryFile>,
}

/// A coastal gun battery (FYOW 29.10.1, 29.17): its 150mm+ guns are
/// emplaced on a coastal Map Board and fire on the enemy's vessels in the
/// Combat Area of every sea that board's sea links reach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoastalBatteryFile {
    pub name: String,
    /// The coastal Map Board its guns stand on.
    pub board: BoardId,
    /// How many guns fire, each a D10 (29.10.1).
    pub guns: u8,
    /// Its officer's grade, Weak to Inspirational, for the Officer Reaction
    /// Test he takes when the battery is activated (29.17); left out, the
    /// grade its army's quality rates most often.
    #[serde(default)]
    pub officer: Option<Grade>,
}

/// A sea-going vessel of an army's fleet (FYOW 29.1–29.5): its guns are
/// diced when the campaign begins (29.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VesselFile {
    pub name: String,
    pub craft: Craft,
    /// The sea Map Board it is placed on when it sails (29.5, 29.6.1).
    pub station: BoardId,
    /// Its home port, off the map: its Dockyard rallies and repairs it
    /// (29.12, 29.15).
    pub harbour: String,
    /// A British Destroyer carrying RADAR (29.9).
    #[serde(default)]
    pub radar: bool,
}

/// Where a battlegroup starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Start {
    /// Deployed on the Map Board itself.
    OnBoard(BoardId),
    /// In the box at an edge of the board (FYOW 13.7).
    InBox(BoardId, Edge),
    /// Afloat on a Tidal Map Board, landing on the beach board on that campaign
    /// day of the campaign (FYOW 14.13).
    Afloat { sea: BoardId, beach: BoardId, day: u32 },
    /// At its home airfield off the map, to be dropped by parachute on the
    /// `drop` board on that campaign day by its army's transport `squadron`
    /// (FYOW 28.8 Transport Missions, 28.13).
    Airborne { squadron: String, drop: BoardId, day: u32 },
}

/// A battlegroup as written: FYOW 2, and the commander of FYOW 7–8.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattlegroupFile {
    pub name: String,
    #[serde(default)]
    pub brigade: String,
    pub commander: String,
    /// The BC's competency; thrown (FYOW 7) when left out.
    #[serde(default)]
    pub competency: Option<Competency>,
    /// Wholly elite: +1 to competency and trait throws, +1 to Movement Tests.
    #[serde(default)]
    pub elite: bool,
    pub start: Start,
    /// The order it starts under (FYOW 10.5).
    pub order: OrderKind,
    /// The board it is sent to, where its order names one.
    #[serde(default)]
    pub objective: Option<BoardId>,
    pub elements: Vec<ElementFile>,
    /// Afloat, its landing craft and Landing Plan (FYOW 18.2): the elements
    /// of each wave, landing a session apart.
    #[serde(default)]
    pub landing: Option<crate::table::landing::LandingFile>,
}

/// An element of a battlegroup: a company, a troop of tanks, a battery.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElementFile {
    pub name: String,
    /// Its cost by the FYOB/*Heroes All* cost rules (FYOW 2.1), written only
    /// for an element with no `table` template. An element with one costs
    /// its template by the CODEX formula, soft skins free: `check_tables`
    /// sets it, and a cost written beside a template is refused.
    #[serde(default, with = "written_points", skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    #[serde(default = "line")]
    pub class: ElementClass,
    /// Its row of the Map Movement Test table (FYOW 14.11).
    pub mover: MoverClass,
    /// Recce designated troops: a battlegroup led by them throws 6D6 to detect (FYOW 16).
    #[serde(default)]
    pub recce: bool,
    /// Artillery pieces of 100mm or over, for the Dunnigan barrage (FYOW 33.7.2 (iv)).
    #[serde(default)]
    pub heavy_guns: u32,
    /// An AFV: the Dunnigan losses may reduce it by up to half (FYOW 33.10).
    #[serde(default)]
    pub afv: bool,
    /// Its AA guns (FYOW 28.10), written only for an element with no
    /// `table` template: one with one has its template's ([`Template::aa_guns`]),
    /// set by `check_tables`, and guns written beside a template are refused.
    ///
    /// [`Template::aa_guns`]: crate::army::orbat::Template::aa_guns
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aa: Vec<crate::air::firing::AaGun>,
    /// The armoured vehicles of an `afv` element, for aircraft firing AT
    /// guns and rockets at it (FYOW 28.9): its `table` template's, set by
    /// `check_tables`; never written in the file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub armour: Vec<crate::air::firing::VehicleArmour>,
    /// Its order of battle on the table: a template of `assets/orbat/`.
    #[serde(default)]
    pub table: Option<String>,
    /// Its Company Officer's grade (FYOB "Rating NCOs and Officers": Weak
    /// to Inspirational; FYOW "Personalised Wargames": "a record ... showing
    /// the ratings of all CO's"); left out, the grade its army's quality
    /// rates most often ([`crate::army::orbat::company_officer`]).
    #[serde(default)]
    pub officer: Option<Grade>,
    /// The grade of the FOO who calls the fire of its off-table guns
    /// (*Heroes All*, "Advanced Artillery Rules"); needed where its `table`
    /// template has guns off the table, refused where it has none.
    #[serde(default)]
    pub foo: Option<Grade>,
}

/// A templated element's campaign points: its template's CODEX cost, the
/// half point of a Regular figure's 1½ dropped. Reading (FYOW 2.1, 33.2
/// "Ignore any fraction"): the campaign counts whole points, and rounding
/// down keeps a battlegroup within the limit its exact cost is checked
/// against (test `a_templated_element_costs_its_order_of_battle`).
pub fn element_points(cost: Points) -> u32 {
    cost.halves() / 2
}

/// An element's `points` as a campaign writes them: a plain number, or
/// nothing where its table template costs it.
mod written_points {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(points: &Option<u32>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(points.unwrap_or(0))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        u32::deserialize(d).map(Some)
    }
}

fn ten() -> u32 {
    10
}

fn regular() -> Quality {
    Quality::Regular
}

fn line() -> ElementClass {
    ElementClass::Line
}

/// A squadron of aircraft (FYOW 28.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquadronFile {
    pub name: String,
    pub role: Role,
    pub speed: Speed,
    pub basing: Basing,
    #[serde(default)]
    pub endurance: bool,
    pub machines: usize,
    /// Strength factor of each machine (Codex).
    pub strength: u8,
    /// A specialist reconnaissance type: 6D6 to detect (FYOW 28.8).
    #[serde(default)]
    pub specialist_recce: bool,
    /// Flies from an airstrip without a tarmac runway, closed when the rain
    /// gauge reaches 5 (FYOW 25.8, 26.9).
    #[serde(default)]
    pub grass_strip: bool,
    /// Its aircraft type: a CODEX aircraft of its army's nation in service
    /// in the campaign's year, whose flying data it fields on the table.
    #[serde(default)]
    pub codex: Option<String>,
    /// The bombs each machine carries on a bombing raid (FYOW 28.8: "Refer
    /// to Aircraft Codex for details of bombs carried by each aircraft
    /// type"): its `codex` aircraft's, set when the tables are checked;
    /// never written in the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bombs: Option<(BombType, u8)>,
    /// The AT guns and rockets each machine fires at armour (FYOW 28.9
    /// "AT/Rocket fire"): its `codex` aircraft's, set when the tables are
    /// checked; never written in the file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub at_weapons: Vec<crate::air::firing::ArmourWeapon>,
}

impl SquadronFile {
    /// Its aircraft's flying data on the table (*Heroes All*, "Aircraft
    /// rules"), where it names a CODEX aircraft that has any.
    pub fn aircraft(&self, codex: &Codex) -> Option<AircraftType> {
        codex.get(self.codex.as_deref()?).ok()?.air.clone()
    }
}

/// The resistance (FYOW 34).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartisansFile {
    /// The army the partisans help; they attack the other.
    pub helps: Side,
    /// The list of six targets (FYOW 34.7).
    pub targets: Vec<Target>,
    /// Targets to put on the list as missions take targets off it (FYOW 34.10).
    #[serde(default)]
    pub reserve: Vec<Target>,
    /// The CODEX id of the personal weapon each member of a cell carries
    /// when the cell fights on the table beside its liberators (FYOW 34.11).
    pub weapon: String,
}

/// What is wrong with a campaign file.
pub type CampaignFileError = DataError;

/// A check the campaign fails: where (the field's path in the file, a value
/// written there) and the message (`field: problem`).
struct Wrong {
    at: String,
    value: Option<String>,
    message: String,
}

impl Wrong {
    fn new(at: impl Into<String>, value: Option<&str>, message: impl Into<String>) -> Self {
        Self { at: at.into(), value: value.map(str::to_owned), message: message.into() }
    }
}

impl CampaignFile {
    /// Reads and checks a campaign; `file` names it in errors, each
    /// `file:line:col: field: problem`.
    pub fn load(file: &str, text: &str) -> Result<Self, CampaignFileError> {
        let parsed: CampaignFile = from_ron(file, text)?;
        parsed.validate().map_err(|w| DataError::located(file, text, &w.at, w.value.as_deref(), w.message))?;
        Ok(parsed)
    }

    /// Checks each element's `table` template against `templates`: it
    /// exists, it is of its army's nation and in service in the campaign's
    /// year, an element whose template has off-table guns names its FOO and
    /// no other does, and the battlegroup's cost with each such element at
    /// its template's CODEX cost stays within the limit (FYOW 2.1), a landing
    /// battlegroup's craft hold each of its elements whole; and each
    /// squadron's `codex` aircraft against `codex`: known, an aircraft, of
    /// its army's nation, in service in the campaign's year. A problem names
    /// `file`, the line and the field. Each templated element then takes
    /// its template's cost as its `points` ([`element_points`]).
    pub fn check_tables(
        &mut self,
        file: &str,
        text: &str,
        codex: &Codex,
        templates: &crate::army::orbat::Templates,
    ) -> Result<(), DataError> {
        let mut costs = Vec::new();
        let mut bombs = Vec::new();
        let mut wave_loads = Vec::new();
        for (a, army) in self.armies.iter().enumerate() {
            for (b, bg) in army.battlegroups.iter().enumerate() {
                let mut total = Points::ZERO;
                for (e, el) in bg.elements.iter().enumerate() {
                    let at = format!("armies[{a}].battlegroups[{b}].elements[{e}]");
                    let Some(id) = &el.table else {
                        if el.foo.is_some() {
                            let why = format!("foo: {} has no table guns for a FOO to call", el.name);
                            return Err(DataError::located(file, text, &format!("{at}.foo"), None, why));
                        }
                        total += Points::whole(el.points());
                        continue;
                    };
                    let refuse = |why: String| {
                        DataError::located(file, text, &format!("{at}.table"), Some(id), format!("table: {why}"))
                    };
                    if !el.aa.is_empty() {
                        let why = format!("aa: {} has the AA guns of its table template \"{id}\"; write none", el.name);
                        return Err(DataError::located(file, text, &format!("{at}.aa"), None, why));
                    }
                    if !el.armour.is_empty() {
                        let why =
                            format!("armour: {} has the vehicles of its table template \"{id}\"; write none", el.name);
                        return Err(DataError::located(file, text, &format!("{at}.armour"), None, why));
                    }
                    let Some((nation, template)) = templates.get(id) else {
                        return Err(refuse(format!("unknown template \"{id}\"")));
                    };
                    match &army.nation {
                        None => return Err(refuse(format!("{} has no nation for \"{id}\"", army.name))),
                        Some(n) if n != nation => {
                            return Err(refuse(format!("\"{id}\" is {nation:?}, {} is {n:?}", army.name)));
                        }
                        Some(_) => {}
                    }
                    if !(template.years.0..=template.years.1).contains(&self.year) {
                        let (from, to) = template.years;
                        return Err(refuse(format!("\"{id}\" stands for {from}-{to}, not {}", self.year)));
                    }
                    match (template.off_table_guns(), el.foo) {
                        (Some(guns), None) => {
                            let why =
                                format!("foo: {} fires its {} from off the table and needs a FOO", el.name, guns.gun);
                            return Err(DataError::located(file, text, &format!("{at}.foo"), None, why));
                        }
                        (None, Some(_)) => {
                            let why = format!("foo: \"{id}\" has no off-table guns for a FOO to call");
                            return Err(DataError::located(file, text, &format!("{at}.foo"), None, why));
                        }
                        _ => {}
                    }
                    if let Some(plan) = &bg.landing {
                        plan.holds(&el.name, &template.elements, codex).map_err(|why| {
                            let at = format!("armies[{a}].battlegroups[{b}].landing.craft");
                            DataError::located(file, text, &at, None, format!("craft: {why}"))
                        })?;
                    }
                    let cost = template.points(codex, nation, army.quality).map_err(refuse)?;
                    let armour = if el.afv { template.armoured_vehicles(codex) } else { Vec::new() };
                    costs.push(((a, b, e), element_points(cost), template.aa_guns(codex), armour));
                    total += cost;
                }
                if let Some(plan) = &bg.landing {
                    let at = format!("armies[{a}].battlegroups[{b}].landing");
                    if !plan.wave_loads.is_empty() {
                        let why: String =
                            "wave_loads: counted from the elements' table orders of battle; write none".into();
                        return Err(DataError::located(file, text, &format!("{at}.wave_loads"), None, why));
                    }
                    let elements: Vec<_> = bg
                        .elements
                        .iter()
                        .map(|el| {
                            let template = el.table.as_deref().and_then(|id| templates.get(id));
                            (el.name.as_str(), template.map(|(_, t)| t.elements.as_slice()))
                        })
                        .collect();
                    let loads = plan.count_wave_loads(&elements, codex).map_err(|why| {
                        DataError::located(file, text, &format!("{at}.waves"), None, format!("waves: {why}"))
                    })?;
                    if plan.covert()
                        && let Some(w) = loads.iter().position(|l| l.vehicles)
                    {
                        let why =
                            format!("waves: wave {} lands vehicles, which small boats cannot carry (FYOW 24.1)", w + 1);
                        return Err(DataError::located(file, text, &format!("{at}.waves[{w}]"), None, why));
                    }
                    wave_loads.push(((a, b), loads));
                }
                if total > Points::whole(self.max_points()) {
                    let at = format!("armies[{a}].battlegroups[{b}].elements");
                    let half = if total.halves() % 2 == 1 { "½" } else { "" };
                    let cost = format!("{}{half}", total.halves() / 2);
                    let why = format!(
                        "elements: {} costs {cost} points, over the limit of {} (FYOW 2.1)",
                        bg.name,
                        self.max_points()
                    );
                    return Err(DataError::located(file, text, &at, Some(&bg.name), why));
                }
            }
            for (q, sq) in army.squadrons.iter().enumerate() {
                let Some(id) = &sq.codex else { continue };
                let refuse = |why: String| {
                    let at = format!("armies[{a}].squadrons[{q}].codex");
                    DataError::located(file, text, &at, Some(id), format!("codex: {why}"))
                };
                if sq.bombs.is_some() {
                    let why =
                        format!("bombs: {} carries the bombs of its codex aircraft \"{id}\"; write none", sq.name);
                    return Err(DataError::located(
                        file,
                        text,
                        &format!("armies[{a}].squadrons[{q}].bombs"),
                        None,
                        why,
                    ));
                }
                let entry = codex.get(id).map_err(|err| refuse(err.to_string()))?;
                if entry.kind != Kind::Aircraft {
                    return Err(refuse(format!("\"{id}\" ({}) is not an aircraft", entry.name)));
                }
                if army.nation.as_ref().is_some_and(|n| *n != entry.nation) {
                    return Err(refuse(format!("\"{id}\" is {:?}, {} is not", entry.nation, army.name)));
                }
                if !entry.in_service(self.year) {
                    let (from, to) = entry.service;
                    return Err(refuse(format!("\"{id}\" is in service {from}-{to}, not in {}", self.year)));
                }
                if !sq.at_weapons.is_empty() {
                    let why = format!(
                        "at_weapons: {} fires the AT guns and rockets of its codex aircraft \"{id}\"; write none",
                        sq.name
                    );
                    let at = format!("armies[{a}].squadrons[{q}].at_weapons");
                    return Err(DataError::located(file, text, &at, None, why));
                }
                let load = entry.air.as_ref().and_then(|air| air.bombs).map(|(size, n)| (BombType::from(size), n));
                let at_weapons = entry.air.as_ref().map(crate::air::firing::ArmourWeapon::carried).unwrap_or_default();
                bombs.push(((a, q), load, at_weapons));
            }
        }
        if let Some(p) = &self.partisans {
            let id = &p.weapon;
            let refuse =
                |why: String| DataError::located(file, text, "partisans.weapon", Some(id), format!("weapon: {why}"));
            let entry = codex.get(id).map_err(|err| refuse(err.to_string()))?;
            if entry.kind != Kind::Weapon || entry.crew > 1 {
                return Err(refuse(format!("\"{id}\" ({}) is not a personal weapon", entry.name)));
            }
            if !entry.in_service(self.year) {
                let (from, to) = entry.service;
                return Err(refuse(format!("\"{id}\" is in service {from}-{to}, not in {}", self.year)));
            }
        }
        for ((a, q), load, at_weapons) in bombs {
            self.armies[a].squadrons[q].bombs = load;
            self.armies[a].squadrons[q].at_weapons = at_weapons;
        }
        for ((a, b), loads) in wave_loads {
            if let Some(plan) = self.armies[a].battlegroups[b].landing.as_mut() {
                plan.wave_loads = loads;
            }
        }
        for ((a, b, e), points, aa, armour) in costs {
            let el = &mut self.armies[a].battlegroups[b].elements[e];
            el.points = Some(points);
            el.aa = aa;
            el.armour = armour;
        }
        self.check_start_capacity(file, text)
    }

    /// FYOW 13.9: the battlegroups a side starts on a land board, on it or
    /// in its box, hold at most the battlegroup cost limit together.
    fn check_start_capacity(&self, file: &str, text: &str) -> Result<(), DataError> {
        let mut held: std::collections::BTreeMap<(Side, &BoardId), (u32, Vec<&str>)> = Default::default();
        for (a, army) in self.armies.iter().enumerate() {
            for (b, bg) in army.battlegroups.iter().enumerate() {
                let (Start::OnBoard(board) | Start::InBox(board, _)) = &bg.start else { continue };
                let points: u32 = bg.elements.iter().map(|el| el.points()).sum();
                let (total, names) = held.entry((army.side, board)).or_default();
                *total += points;
                names.push(&bg.name);
                if *total > self.max_points() {
                    let why = format!(
                        "start: \"{board}\" holds {} points a side (FYOW 13.9): {} start there with {total}",
                        self.max_points(),
                        names.join(" and ")
                    );
                    let at = format!("armies[{a}].battlegroups[{b}].start");
                    return Err(DataError::located(file, text, &at, None, why));
                }
            }
        }
        Ok(())
    }

    /// The battlegroup cost limit (FYOW 2.1).
    pub fn max_points(&self) -> u32 {
        self.max_points.unwrap_or(self.period.recommended_max())
    }

    /// The army of `side`.
    pub fn army(&self, side: Side) -> &ArmyFile {
        self.armies.iter().find(|a| a.side == side).expect("validated: one army a side")
    }

    /// Checks the campaign against the rules.
    fn validate(&self) -> Result<(), Wrong> {
        self.map.check().map_err(|(at, e)| Wrong::new(format!("map.{at}"), None, format!("map: {e}")))?;
        let boards: BTreeSet<&BoardId> = self.map.boards.iter().map(|b| &b.id).collect();
        let board = |id: &BoardId, at: &str, field: &str| -> Result<(), Wrong> {
            if boards.contains(id) {
                Ok(())
            } else {
                Err(Wrong::new(at, Some(&id.0), format!("{field}: \"{id}\" is not a Map Board of this campaign")))
            }
        };
        if self.days == 0 {
            return Err(Wrong::new("days", None, "days: a campaign lasts at least 1 day"));
        }
        let sides: Vec<Side> = self.armies.iter().map(|a| a.side).collect();
        if sides.len() != 2 || !sides.contains(&Side::Blue) || !sides.contains(&Side::Red) {
            return Err(Wrong::new("armies", None, "armies: exactly two, one Blue and one Red"));
        }
        let mut names = BTreeSet::new();
        for (a, army) in self.armies.iter().enumerate() {
            let at = |field: &str| format!("armies[{a}].{field}");
            if army.home.is_empty() {
                let message = format!("home: {} needs a board its supply comes from", army.name);
                return Err(Wrong::new(at("home"), None, message));
            }
            for b in &army.home {
                board(b, &at("home"), "home/objectives")?;
            }
            for b in &army.objectives {
                board(b, &at("objectives"), "home/objectives")?;
            }
            if !(1..=50).contains(&army.milestone_pct) {
                return Err(Wrong::new(
                    at("milestone_pct"),
                    None,
                    format!(
                        "milestone_pct: {} for {} (FYOB: 10, or 15 or 20 for resilient forces)",
                        army.milestone_pct, army.name
                    ),
                ));
            }
            if army.experience_after_battles == Some(0) {
                return Err(Wrong::new(
                    at("experience_after_battles"),
                    None,
                    format!("experience_after_battles: 0 for {} (FYOW 7.1: at least 1 battle)", army.name),
                ));
            }
            if let Some(n) = army.telegraph_clerks
                && !(2..=6).contains(&n)
            {
                return Err(Wrong::new(
                    at("telegraph_clerks"),
                    None,
                    format!("telegraph_clerks: {n} for {} (FYOW 9.2: a D6 score, 2 to 6)", army.name),
                ));
            }
            if army.battlegroups.is_empty() {
                return Err(Wrong::new(at("battlegroups"), None, format!("battlegroups: {} has none", army.name)));
            }
            for (g, bg) in army.battlegroups.iter().enumerate() {
                let at = at(&format!("battlegroups[{g}]"));
                self.validate_battlegroup(&at, army, bg, &board)?;
                if !names.insert(bg.name.clone()) {
                    let message = format!("name: two battlegroups are called \"{}\"", bg.name);
                    return Err(Wrong::new(format!("{at}.name"), None, message));
                }
            }
            // FYOW 6.3: a Senior Command for each Brigade, named by the Brigade,
            // or by the army for its battlegroups with no brigade.
            if army.battlegroups.iter().any(|b| b.brigade.is_empty())
                && let Some(g) = army.battlegroups.iter().position(|b| b.brigade == army.name)
            {
                return Err(Wrong::new(
                    at(&format!("battlegroups[{g}].brigade")),
                    None,
                    format!(
                        "brigade: {}'s brigade \"{}\" is the army's own name, which already names the Senior Command of its battlegroups with no brigade",
                        army.battlegroups[g].name, army.name
                    ),
                ));
            }
            for (q, sq) in army.squadrons.iter().enumerate() {
                let at = |field: &str| at(&format!("squadrons[{q}].{field}"));
                if sq.machines == 0 {
                    let message = format!("machines: squadron {} has no aircraft", sq.name);
                    return Err(Wrong::new(at("machines"), None, message));
                }
                if sq.endurance && !sq.role.takes_endurance() {
                    return Err(Wrong::new(
                        at("endurance"),
                        None,
                        format!("endurance: {:?} aircraft take no Endurance tanks (FYOW 28.6)", sq.role),
                    ));
                }
            }
        }
        self.validate_fleets(&board)?;
        if let Some(p) = &self.partisans {
            let listed = p.targets.iter().enumerate().map(|(t, x)| (format!("partisans.targets[{t}]"), x));
            let reserve = p.reserve.iter().enumerate().map(|(t, x)| (format!("partisans.reserve[{t}]"), x));
            for (at, t) in listed.chain(reserve) {
                board(&BoardId::new(&t.map_board), &format!("{at}.map_board"), "partisans.targets")?;
            }
            TargetList::new(p.targets.clone())
                .map_err(|e| Wrong::new("partisans.targets", None, format!("partisans.targets: {e}")))?;
        }
        Ok(())
    }

    /// Checks each army's fleet: a vessel with guns (29.2), stationed on a
    /// sea Map Board (29.5), under a name of its own.
    fn validate_fleets(&self, board: &impl Fn(&BoardId, &str, &str) -> Result<(), Wrong>) -> Result<(), Wrong> {
        let mut names = BTreeSet::new();
        for (a, army) in self.armies.iter().enumerate() {
            for (v, ship) in army.fleet.iter().enumerate() {
                let at = |field: &str| format!("armies[{a}].fleet[{v}].{field}");
                if !names.insert(ship.name.clone()) {
                    return Err(Wrong::new(
                        at("name"),
                        None,
                        format!("name: two vessels are called \"{}\"", ship.name),
                    ));
                }
                if !crate::naval::craft::FLEET_CRAFT.contains(&ship.craft) {
                    return Err(Wrong::new(
                        at("craft"),
                        None,
                        format!(
                            "craft: {} is a {:?}; a fleet's vessels are the off-shore fire support craft with guns (FYOW 29.3) and submarines (29.10.2): destroyer, gunboat, small_gunboat, mtb or submarine",
                            ship.name, ship.craft
                        ),
                    ));
                }
                board(&ship.station, &at("station"), "station")?;
                let sea = self.map.boards.iter().any(|b| b.id == ship.station && b.kind == BoardKind::Tidal);
                if !sea {
                    return Err(Wrong::new(
                        at("station"),
                        Some(&ship.station.0),
                        format!(
                            "station: \"{}\" is not a sea (Tidal) Map Board, where {} could be placed (FYOW 29.5)",
                            ship.station, ship.name
                        ),
                    ));
                }
                if ship.radar && ship.craft != Craft::Destroyer {
                    return Err(Wrong::new(
                        at("radar"),
                        None,
                        format!("radar: only a Destroyer carries RADAR (FYOW 29.9), not {}", ship.name),
                    ));
                }
            }
            for (g, battery) in army.coastal_batteries.iter().enumerate() {
                let at = |field: &str| format!("armies[{a}].coastal_batteries[{g}].{field}");
                if !names.insert(battery.name.clone()) {
                    let message = format!("name: a vessel or a battery is already called \"{}\"", battery.name);
                    return Err(Wrong::new(at("name"), None, message));
                }
                board(&battery.board, &at("board"), "board")?;
                let on_a_coast =
                    self.map.links.iter().any(|l| {
                        l.route == crate::map::board::Route::Sea && (l.from == battery.board || l.to == battery.board)
                    }) && self.map.boards.iter().any(|b| b.id == battery.board && b.kind != BoardKind::Tidal);
                if !on_a_coast {
                    let message = format!(
                        "board: \"{}\" is not a coastal Map Board with a sea link, where {} could fire on shipping (FYOW 29.10.1)",
                        battery.board, battery.name
                    );
                    return Err(Wrong::new(at("board"), Some(&battery.board.0), message));
                }
                if battery.guns == 0 {
                    let message = format!("guns: {} needs at least one gun (FYOW 29.10.1)", battery.name);
                    return Err(Wrong::new(at("guns"), None, message));
                }
                if let Some(grade) = battery.officer
                    && Officer::new(Rank::CompanyOfficer, grade).is_err()
                {
                    let message = format!(
                        "officer: {grade:?} is a Senior Officer's grade; a battery's officer is Weak to Inspirational"
                    );
                    return Err(Wrong::new(at("officer"), None, message));
                }
            }
        }
        Ok(())
    }

    /// Checks the battlegroup written at `at` (`armies[0].battlegroups[2]`).
    fn validate_battlegroup(
        &self,
        at: &str,
        army: &ArmyFile,
        bg: &BattlegroupFile,
        board: &impl Fn(&BoardId, &str, &str) -> Result<(), Wrong>,
    ) -> Result<(), Wrong> {
        let here = |field: &str| format!("{at}.{field}");
        let err = |field: &str, value: Option<&BoardId>, msg: String| {
            Err(Wrong::new(here(field), value.map(|b| b.0.as_str()), msg))
        };
        if bg.elements.is_empty() {
            return err("elements", None, format!("elements: battlegroup {} has none", bg.name));
        }
        if let Some(o) = &bg.objective {
            board(o, &here("objective"), "objective")?;
        }
        let land = |id: &BoardId| self.map.boards.iter().find(|b| &b.id == id).map(|b| b.kind);
        match &bg.start {
            Start::OnBoard(b) | Start::InBox(b, _) => {
                board(b, &here("start"), "start")?;
                if land(b) == Some(BoardKind::Tidal) {
                    let message = format!("start: {} cannot stand on the sea board \"{b}\"; use Afloat", bg.name);
                    return err("start", Some(b), message);
                }
            }
            Start::Afloat { sea, beach, day } => {
                board(sea, &here("start.sea"), "start")?;
                board(beach, &here("start.beach"), "start")?;
                if land(sea) != Some(BoardKind::Tidal) {
                    return err(
                        "start.sea",
                        Some(sea),
                        format!("start: \"{sea}\" is not a Tidal Map Board (FYOW 13.8)"),
                    );
                }
                let coast = self.map.boards.iter().find(|b| &b.id == beach).and_then(|b| b.coast);
                // A plan in small boats (its craft are checked with the plan).
                let covert = bg
                    .landing
                    .as_ref()
                    .and_then(|p| p.craft.first())
                    .is_some_and(|c| crate::table::landing::small_boat(c).is_some());
                match coast {
                    Some(Coast::SandyBeach) => {}
                    Some(Coast::NonBeach) if covert => {}
                    Some(Coast::NonBeach) => {
                        let message = format!(
                            "start: \"{beach}\" has no sandy beach; its coast takes covert landings only, in small \
                             boats (FYOW 13.8, 14.13)"
                        );
                        return err("start.beach", Some(beach), message);
                    }
                    _ => {
                        let message = format!("start: \"{beach}\" has no sandy beach for a landing (FYOW 13.8, 14.13)");
                        return err("start.beach", Some(beach), message);
                    }
                }
                if self.map.leg(sea, beach, RouteKind::Sea).is_err() {
                    return err("start", None, format!("start: no sea link from \"{sea}\" to \"{beach}\" (FYOW 13.8)"));
                }
                if *day == 0 || *day > self.days {
                    let message = format!("start: landing day {day} is outside the campaign's 1..={}", self.days);
                    return err("start.day", None, message);
                }
            }
            Start::Airborne { squadron, drop, day } => {
                board(drop, &here("start.drop"), "start")?;
                if land(drop) == Some(BoardKind::Tidal) {
                    let message = format!("start: {} cannot be dropped on the sea board \"{drop}\"", bg.name);
                    return err("start.drop", Some(drop), message);
                }
                let carrier = army.squadrons.iter().find(|s| &s.name == squadron);
                if carrier.is_none_or(|s| s.role != Role::Transport) {
                    let message = format!(
                        "start: {} names \"{squadron}\", which is not a transport squadron of {} (FYOW 28.8)",
                        bg.name, army.name
                    );
                    return Err(Wrong::new(here("start.squadron"), Some(squadron.as_str()), message));
                }
                if *day == 0 || *day > self.days {
                    let message = format!("start: drop day {day} is outside the campaign's 1..={}", self.days);
                    return err("start.day", None, message);
                }
                // Reading (FYOW 28.13): paratroops jump with what a man
                // carries; guns and vehicles come by glider, which a drop
                // from transports does not carry.
                if let Some((i, e)) = bg.elements.iter().enumerate().find(|(_, e)| !e.mover.parachutes()) {
                    let message = format!(
                        "elements: {} moves as {:?} and cannot jump: paratroops are infantry (FYOW 28.13)",
                        e.name, e.mover
                    );
                    return err(&format!("elements[{i}].mover"), None, message);
                }
            }
        }
        for (i, e) in bg.elements.iter().enumerate() {
            match (&e.table, e.points) {
                (Some(id), Some(p)) => {
                    let message = format!(
                        "points: {} fields \"{id}\", whose cost the CODEX formula gives (FYOW 2.1); leave out its \
                         {p} points",
                        e.name
                    );
                    return Err(Wrong::new(here(&format!("elements[{i}].points")), Some(&p.to_string()), message));
                }
                (None, None) => {
                    let message = format!("points: {} has no table template and needs its points written", e.name);
                    return Err(Wrong::new(here(&format!("elements[{i}]")), Some(&e.name), message));
                }
                _ => {}
            }
            for (field, grade) in [("officer", e.officer), ("foo", e.foo)] {
                if let Some(g) = grade
                    && Officer::new(Rank::CompanyOfficer, g).is_err()
                {
                    let message = format!("{field}: {g:?} is a Senior Officer's grade; a CO is Weak to Inspirational");
                    return Err(Wrong::new(here(&format!("elements[{i}].{field}")), None, message));
                }
            }
            if e.mover.row().medium != Medium::Land {
                return err(
                    &format!("elements[{i}].mover"),
                    None,
                    format!(
                        "elements: {} moves as {:?}; battlegroups on the map move by road (FYOW 13.5)",
                        e.name, e.mover
                    ),
                );
            }
        }
        if let Some(plan) = &bg.landing {
            let Start::Afloat { beach, day, .. } = &bg.start else {
                return err(
                    "landing",
                    None,
                    format!("landing: {} is not afloat: only a landing has a Landing Plan", bg.name),
                );
            };
            let names: Vec<&str> = bg.elements.iter().map(|e| e.name.as_str()).collect();
            plan.check(&here("landing"), &names, beach, *day)
                .map_err(|(at, value, m)| Wrong::new(at, value.as_deref(), m))?;
        }
        if bg.order.needs_order_of_march() && bg.objective.is_none() {
            let message = format!("objective: {} is under {:?} orders and needs a board to go to", bg.name, bg.order);
            return err("order", None, message);
        }
        let elements: Vec<Element> = bg.elements.iter().map(ElementFile::element).collect();
        Battlegroup::new(&bg.name, BattlegroupKind::Line, &bg.brigade, &bg.commander, elements, self.max_points())
            .map_err(|e| Wrong::new(here("elements"), None, format!("elements: {e}")))?;
        Ok(())
    }
}

impl ElementFile {
    /// Its Company Officer's grade: as written, or the grade troops of its
    /// army's `quality` rate most often.
    pub fn officer(&self, quality: Quality) -> Grade {
        self.officer.unwrap_or_else(|| crate::army::orbat::company_officer(quality))
    }

    /// Its order of battle on the table: its template and the template's
    /// nation, where it names one `templates` has.
    pub fn template<'t>(
        &self,
        templates: &'t crate::army::orbat::Templates,
    ) -> Option<(&'t warbound_rules::opc::Nation, &'t crate::army::orbat::Template)> {
        templates.get(self.table.as_deref()?)
    }

    /// Its off-table battery (*Heroes All*, "Advanced Artillery Rules"):
    /// the guns of its template that fire from behind the table edge, the
    /// template element its FOO starts with, and his grade; `None` for an
    /// element with no such guns (or, unchecked, no FOO written).
    pub fn battery<'t>(
        &self,
        templates: &'t crate::army::orbat::Templates,
    ) -> Option<(crate::army::orbat::OffTableGuns<'t>, Grade)> {
        let (_, template) = self.template(templates)?;
        Some((template.off_table_guns()?, self.foo?))
    }

    /// Its cost: as written, or its template's once costed (0 before,
    /// which [`crate::play::Campaign::new`] refuses).
    pub fn points(&self) -> u32 {
        self.points.unwrap_or(0)
    }

    /// The element as the army rules keep it.
    pub fn element(&self) -> Element {
        Element {
            name: self.name.clone(),
            points: self.points(),
            class: self.class,
            movement_points: u32::from(self.mover.row().mp),
            attached: false,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small campaign: three boards in a row, a beach at one end.
    pub(crate) const SMALL: &str = include_str!("test_campaign.ron");

    /// The shipped desert campaign, with a fleet and a coastal battery.
    const BATTLEAXE: &str = include_str!("../../../../scenarios/campaigns/cyrenaica-1941.ron");

    /// The 1-based line and column where `needle` first appears in `text`.
    fn place_of(text: &str, needle: &str) -> (usize, usize) {
        let at = text.find(needle).unwrap_or_else(|| panic!("{needle} is in the text"));
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        (text[..at].matches('\n').count() + 1, text[line_start..at].chars().count() + 1)
    }

    #[test]
    fn the_test_campaign_loads() {
        let c = CampaignFile::load("small.ron", SMALL).unwrap();
        assert_eq!(c.armies.len(), 2);
        assert_eq!(c.max_points(), 1500);
    }

    #[test]
    fn a_syntax_error_names_file_and_line() {
        let bad = SMALL.replacen("days: 6", "days: six", 1);
        let e = CampaignFile::load("small.ron", &bad).unwrap_err().to_string();
        let (line, _) = place_of(SMALL, "days: 6");
        assert!(e.starts_with(&format!("small.ron:{line}:")), "{e}");
        assert!(e.contains(": days: "), "the field: {e}");
    }

    #[test]
    fn an_experience_review_after_no_battles_is_refused_with_its_field() {
        let bad = SMALL.replacen(
            "motivation: Motivated,",
            "motivation: Motivated,\n            experience_after_battles: Some(0),",
            1,
        );
        let e = CampaignFile::load("small.ron", &bad).unwrap_err().to_string();
        assert!(e.starts_with("small.ron:") && e.contains("experience_after_battles: 0"), "{e}");
        assert!(e.contains("FYOW 7.1"), "{e}");
        let good = SMALL.replacen(
            "motivation: Motivated,",
            "motivation: Motivated,\n            experience_after_battles: Some(2),",
            1,
        );
        let file = CampaignFile::load("small.ron", &good).unwrap();
        assert_eq!(file.armies[0].experience_after_battles, Some(2));
    }

    #[test]
    fn a_vessel_off_the_sea_or_without_guns_is_refused_with_its_field() {
        let ashore =
            BATTLEAXE.replacen("craft: gunboat, station: \"Gulf of Sollum\"", "craft: gunboat, station: \"Sollum\"", 1);
        let e = CampaignFile::load("battleaxe.ron", &ashore).unwrap_err().to_string();
        let (line, _) = place_of(&ashore, "station: \"Sollum\"");
        assert!(e.starts_with(&format!("battleaxe.ron:{line}:")), "{e}");
        assert!(e.contains("station: \"Sollum\" is not a sea (Tidal) Map Board"), "{e}");
        let unarmed = BATTLEAXE.replacen("craft: gunboat", "craft: fishing_boat", 1);
        let e = CampaignFile::load("battleaxe.ron", &unarmed).unwrap_err().to_string();
        assert!(e.contains("craft: HMS Aphis is a FishingBoat"), "{e}");
        let twice = BATTLEAXE.replacen("\"HMAS Waterhen\"", "\"HMS Aphis\"", 1);
        let e = CampaignFile::load("battleaxe.ron", &twice).unwrap_err().to_string();
        assert!(e.contains("two vessels are called \"HMS Aphis\""), "{e}");
        let file = CampaignFile::load("battleaxe.ron", BATTLEAXE).unwrap();
        assert_eq!(file.armies[0].fleet.len(), 2);
    }

    #[test]
    fn a_coastal_battery_inland_or_without_guns_is_refused_with_its_field() {
        let file = CampaignFile::load("battleaxe.ron", BATTLEAXE).unwrap();
        assert_eq!(file.armies[1].coastal_batteries[0].board, BoardId::new("Bardia"));
        let inland = BATTLEAXE.replacen("board: \"Bardia\", guns: 2", "board: \"Fort Capuzzo\", guns: 2", 1);
        let e = CampaignFile::load("battleaxe.ron", &inland).unwrap_err().to_string();
        let (line, _) = place_of(&inland, "board: \"Fort Capuzzo\"");
        assert!(e.starts_with(&format!("battleaxe.ron:{line}:")), "{e}");
        assert!(e.contains("board: \"Fort Capuzzo\" is not a coastal Map Board"), "{e}");
        let silent = BATTLEAXE.replacen("board: \"Bardia\", guns: 2", "board: \"Bardia\", guns: 0", 1);
        let e = CampaignFile::load("battleaxe.ron", &silent).unwrap_err().to_string();
        assert!(e.contains("guns: Bardia coastal battery needs at least one gun"), "{e}");
        let named_twice = BATTLEAXE.replacen("\"Bardia coastal battery\"", "\"Salpa\"", 1);
        let e = CampaignFile::load("battleaxe.ron", &named_twice).unwrap_err().to_string();
        assert!(e.contains("already called \"Salpa\""), "{e}");
        let senior = BATTLEAXE.replacen("guns: 2)", "guns: 2, officer: Some(Average))", 1);
        let e = CampaignFile::load("battleaxe.ron", &senior).unwrap_err().to_string();
        assert!(e.contains("officer: Average is a Senior Officer's grade"), "{e}");
    }

    #[test]
    fn a_rule_error_names_the_line_and_field() {
        let bad = SMALL.replacen("start: OnBoard(\"Village\")", "start: OnBoard(\"Atlantis\")", 1);
        let e = CampaignFile::load("small.ron", &bad).unwrap_err().to_string();
        assert!(e.contains("start: \"Atlantis\" is not a Map Board"), "{e}");
        let (line, col) = place_of(&bad, "\"Atlantis\"");
        assert!(e.starts_with(&format!("small.ron:{line}:{col}: start: ")), "{e}");

        // FYOW 6.3: one Senior Command a Brigade; a brigade named as its army
        // would share the name of the army's Senior Command for the battlegroups
        // with none.
        let bad =
            SMALL.replacen("commander: \"Hauptmann Zwei\"", "brigade: \"Garrison\", commander: \"Hauptmann Zwei\"", 1);
        let e = CampaignFile::load("small.ron", &bad).unwrap_err().to_string();
        let (line, col) = place_of(&bad, "brigade: \"Garrison\"");
        assert!(e.starts_with(&format!("small.ron:{line}:{col}: brigade: ")), "{e}");
        assert!(e.contains("brigade: Red 2's brigade \"Garrison\" is the army's own name"), "{e}");
        let named =
            bad.replacen("commander: \"Hauptmann Eins\"", "brigade: \"Garrison\", commander: \"Hauptmann Eins\"", 1);
        assert!(CampaignFile::load("small.ron", &named).is_ok(), "one Brigade, named by all its battlegroups");

        let over = SMALL.replacen("points: 400", "points: 1400", 1);
        let e = CampaignFile::load("small.ron", &over).unwrap_err().to_string();
        assert!(e.contains("over the limit of 1500 (FYOW 2.1)"), "{e}");
        // The first battlegroup's elements, where they are written.
        let (line, col) = place_of(&over, "elements: [");
        assert!(e.starts_with(&format!("small.ron:{line}:{col}: elements: ")), "{e}");
    }
}
