//! Maps (FYOW 13): Map Boards by terrain type, full and half boards, the links
//! between them (metalled and secondary roads, rivers, railways, the sea line
//! to a Tidal Map Board) with their Movement Points and "V", the detail drawn
//! on each board, and the capacity of a board. A map is plain data loaded from
//! RON; loading checks the map against the rules and names what is wrong.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::map::common::{Edge, ForceKind, MapError};

/// A Map Board's name on the campaign map ("12", "Cobo Bay").
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BoardId(pub String);

impl BoardId {
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// FYOW 13.2 Map Board types, with the colour the map draws them in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    /// Open plains, barren areas, little cover (grey).
    Open,
    /// Farm or few buildings, light woods, some walls and hedges, wide beaches (orange).
    Light,
    /// Heavy woodland, broken ground, walls and hedges, village/town, river or railway (green).
    Broken,
    /// Steep hills, cliffs, mountains, valleys, forests, bridges, few roads, broken coastline (brown).
    Rugged,
    /// City, factories, urban, or dense jungle or very heavy forest (gold).
    Dense,
    /// Wire, obstacles, tank ditches, pillboxes, casemate guns, minefields (yellow).
    Fortified,
}

impl Terrain {
    /// The colour of the board on the campaign map (FYOW 13.2).
    pub fn colour(self) -> &'static str {
        match self {
            Terrain::Open => "grey",
            Terrain::Light => "orange",
            Terrain::Broken => "green",
            Terrain::Rugged => "brown",
            Terrain::Dense => "gold",
            Terrain::Fortified => "yellow",
        }
    }
}

/// Land or sea (FYOW 13.8: a "Tidal Map Board" is the sea beyond a coast).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardKind {
    Land(Terrain),
    Tidal,
}

/// FYOW 13.1: full-table and half-table boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum BoardSize {
    #[default]
    Full,
    Half,
}

/// FYOW 13.1, 13.9: "a Battlegroup cannot deploy on a half-table ... a Fraction is able to deploy".
/// Reading (FYOW 13.1): a Picket, smaller than a Fraction, may deploy on a half table too.
pub fn can_deploy(kind: ForceKind, size: BoardSize) -> bool {
    !(kind == ForceKind::Battlegroup && size == BoardSize::Half)
}

/// FYOW 13.8: what a stretch of coastline on a board offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Coast {
    /// Sandy beach capable of sustaining a landing.
    SandyBeach,
    /// Non-beach coastline: covert landings only.
    NonBeach,
    /// Harbour or port facilities.
    Harbour,
}

/// FYOW 13.6: "Rivers must be shown as Large, Small or Streams".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Watercourse {
    Large,
    Small,
    Stream,
}

/// FYOW 13.3: the routes between boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Route {
    MetalledRoad,
    /// A secondary road or track.
    SecondaryRoad,
    River(Watercourse),
    Rail,
    /// The line from a coastal board out to a Tidal Map Board, or between Tidal Map Boards (FYOW 13.8).
    Sea,
}

impl Route {
    /// The route without its details, to name a link between two boards.
    pub fn kind(self) -> RouteKind {
        match self {
            Route::MetalledRoad => RouteKind::MetalledRoad,
            Route::SecondaryRoad => RouteKind::SecondaryRoad,
            Route::River(_) => RouteKind::River,
            Route::Rail => RouteKind::Rail,
            Route::Sea => RouteKind::Sea,
        }
    }
}

/// Which kind of route a move names (FYOW 14.3: the route is named before the throw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RouteKind {
    MetalledRoad,
    SecondaryRoad,
    River,
    Rail,
    Sea,
}

impl RouteKind {
    /// Water routes, where only water-borne craft move (FYOW 13.5).
    pub fn is_water(self) -> bool {
        matches!(self, RouteKind::River | RouteKind::Sea)
    }

    pub fn name(self) -> &'static str {
        match self {
            RouteKind::MetalledRoad => "metalled road",
            RouteKind::SecondaryRoad => "secondary road",
            RouteKind::River => "river",
            RouteKind::Rail => "railway",
            RouteKind::Sea => "sea",
        }
    }
}

/// FYOW 14.12: "All rail links between Map Boards require 5 MP".
pub const RAIL_LINK_MP: u8 = 5;

/// A link between two Map Boards (FYOW 13.3, 13.4, 14.4). Links are travelled both ways.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    pub from: BoardId,
    pub to: BoardId,
    pub route: Route,
    /// Movement Points the link requires (FYOW 13.4).
    pub mp: u8,
    /// "V": difficult terrain some vehicles cannot traverse (FYOW 14.4).
    #[serde(default)]
    pub v: bool,
    /// The edge of `from` the link leaves by: the box a force arriving from `to` occupies (FYOW 13.7).
    pub from_edge: Edge,
    /// The edge of `to` the link arrives at.
    pub to_edge: Edge,
}

/// A link seen from the board a force leaves: where it goes and which box it arrives in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leg {
    pub from: BoardId,
    pub to: BoardId,
    pub route: Route,
    pub mp: u8,
    pub v: bool,
    /// The edge (box) of `from` the force leaves by.
    pub departure_edge: Edge,
    /// The edge (box) of `to` the force arrives in.
    pub arrival_edge: Edge,
}

/// FYOW 13.6: "Towns and cities must be defined by size".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SettlementSize {
    VillageOrFarm,
    Town,
    City,
}

/// A named place on a board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settlement {
    pub name: String,
    pub size: SettlementSize,
}

/// FYOW 13.6: "Obstructions, weirs, locks etc must be shown."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Obstruction {
    Weir,
    Lock,
    Rapids,
    Other,
}

/// A river on a board, with its obstructions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct River {
    pub name: String,
    pub size: Watercourse,
    #[serde(default)]
    pub obstructions: Vec<Obstruction>,
}

/// A bridge: "Bridges must be specified by type ... bridge types can be unspecified until a
/// Recce force has visited the Map Board" (FYOW 13.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bridge {
    pub location: String,
    /// The bridge type as the engineering rules class it; `None` until reconnoitred.
    #[serde(default)]
    pub class: Option<String>,
}

/// FYOW 13.6 map detail: drawn before the campaign, unknown to a force until it
/// moves onto the board.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardDetail {
    #[serde(default)]
    pub settlements: Vec<Settlement>,
    #[serde(default)]
    pub rivers: Vec<River>,
    #[serde(default)]
    pub bridges: Vec<Bridge>,
    /// Locations of fords.
    #[serde(default)]
    pub fords: Vec<String>,
    /// A railway station: the only place trains load, unload, cross or pass (FYOW 13.6).
    #[serde(default)]
    pub station: bool,
    #[serde(default)]
    pub notes: Vec<String>,
}

/// One Map Board (FYOW 13.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapBoard {
    pub id: BoardId,
    #[serde(default)]
    pub name: String,
    pub kind: BoardKind,
    #[serde(default)]
    pub size: BoardSize,
    /// The coastline on a land board (FYOW 13.8).
    #[serde(default)]
    pub coast: Option<Coast>,
    #[serde(default)]
    pub detail: BoardDetail,
}

impl MapBoard {
    pub fn is_tidal(&self) -> bool {
        self.kind == BoardKind::Tidal
    }
}

/// FYOW 13.9: "If the maximum Battlegroup size for the era being played is 1200 points, the
/// maximum capacity of a Map Board is 1200 points per side", on the table and in the box
/// together, small boards the same. A Tidal Map Board holds any number of vessels (13.8): `None`.
pub fn board_capacity(board: &MapBoard, max_battlegroup_points: u32) -> Option<u32> {
    (!board.is_tidal()).then_some(max_battlegroup_points)
}

/// The campaign map: Map Boards that do not touch, joined by links (FYOW 13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignMap {
    #[serde(default)]
    pub name: String,
    pub boards: Vec<MapBoard>,
    pub links: Vec<Link>,
}

impl CampaignMap {
    /// Reads a map from RON text (`file` names it in errors) and checks it against FYOW 13.
    pub fn from_ron(file: &str, text: &str) -> Result<Self, MapError> {
        let map: CampaignMap =
            warbound_rules::data::from_ron(file, text).map_err(|e| MapError::Parse(e.to_string()))?;
        map.validate()?;
        Ok(map)
    }

    /// Checks the map: unique boards, links between known different boards, one link of a
    /// route kind per pair, Movement Points above 0, rail at 5 MP, "V" only on secondary roads,
    /// sea lines only to Tidal Map Boards from a coast, land routes never to the sea.
    pub fn validate(&self) -> Result<(), MapError> {
        self.check().map_err(|(_, e)| e)
    }

    /// [`CampaignMap::validate`], the error with the board or link it is
    /// about as a field of the map (`boards[3]`, `links[12]`), to place it.
    pub fn check(&self) -> Result<(), (String, MapError)> {
        let mut ids = BTreeSet::new();
        for (i, b) in self.boards.iter().enumerate() {
            let at = |e: String| (format!("boards[{i}]"), MapError::Invalid(e));
            if b.id.0.trim().is_empty() {
                return Err(at("a Map Board has an empty id".into()));
            }
            if !ids.insert(&b.id) {
                return Err(at(format!("Map Board \"{}\" appears twice", b.id)));
            }
            if b.is_tidal() && (b.coast.is_some() || b.size == BoardSize::Half) {
                return Err(at(format!(
                    "Tidal Map Board \"{}\" is the sea: it has no coast of its own and no half size (FYOW 13.8)",
                    b.id
                )));
            }
        }
        let mut pairs = BTreeSet::new();
        for (i, l) in self.links.iter().enumerate() {
            let at = |e: String| (format!("links[{i}]"), MapError::Invalid(e));
            let name = format!("link {} ({} – {})", i + 1, l.from, l.to);
            let from =
                self.board(&l.from).map_err(|_| at(format!("{name}: Map Board \"{}\" is not on the map", l.from)))?;
            let to = self.board(&l.to).map_err(|_| at(format!("{name}: Map Board \"{}\" is not on the map", l.to)))?;
            if l.from == l.to {
                return Err(at(format!("{name} joins a board to itself")));
            }
            let kind = l.route.kind();
            let key = if l.from < l.to { (&l.from, &l.to, kind.name()) } else { (&l.to, &l.from, kind.name()) };
            if !pairs.insert(key) {
                return Err(at(format!("{name}: a second {} link between the same boards", kind.name())));
            }
            if l.mp == 0 {
                return Err(at(format!("{name} needs Movement Points above 0 (FYOW 13.4)")));
            }
            if kind == RouteKind::Rail && l.mp != RAIL_LINK_MP {
                return Err(at(format!("{name}: rail links require {RAIL_LINK_MP} MP (FYOW 14.12), not {}", l.mp)));
            }
            // FYOW 14.4: "V" marks "those links where there is no proper road or only a
            // secondary road": a secondary road or track.
            if l.v && kind != RouteKind::SecondaryRoad {
                return Err(at(format!(
                    "{name}: only secondary road links carry \"V\" (FYOW 14.4), not a {} link",
                    kind.name()
                )));
            }
            let tidal = (from.is_tidal(), to.is_tidal());
            if kind == RouteKind::Sea {
                let coast_ok = match tidal {
                    (true, true) => true,
                    (true, false) => to.coast.is_some(),
                    (false, true) => from.coast.is_some(),
                    (false, false) => false,
                };
                if !coast_ok {
                    return Err(at(format!(
                        "{name}: a sea line runs from a board with a coast to a Tidal Map Board (FYOW 13.8)"
                    )));
                }
            } else if tidal.0 || tidal.1 {
                return Err(at(format!("{name}: a {} link cannot reach a Tidal Map Board (FYOW 13.8)", kind.name())));
            }
        }
        Ok(())
    }

    pub fn board(&self, id: &BoardId) -> Result<&MapBoard, MapError> {
        self.boards.iter().find(|b| &b.id == id).ok_or_else(|| MapError::UnknownBoard(id.0.clone()))
    }

    /// Every leg a force on `from` may name (FYOW 14.3).
    pub fn legs_from(&self, from: &BoardId) -> Vec<Leg> {
        self.links.iter().filter_map(|l| orient(l, from)).collect()
    }

    /// The leg from `from` to `to` along a route of kind `route` (FYOW 14.3: named before the throw).
    pub fn leg(&self, from: &BoardId, to: &BoardId, route: RouteKind) -> Result<Leg, MapError> {
        self.legs_from(from)
            .into_iter()
            .find(|g| &g.to == to && g.route.kind() == route)
            .ok_or_else(|| MapError::NoSuchLink { from: from.0.clone(), to: to.0.clone(), route: route.name().into() })
    }
}

/// What one side knows of the map's detail (FYOW 13.6): "details of bridges and buildings etc
/// will not be known to any force until they move onto that Map Board"; at the player's
/// discretion bridge types stay unknown until a Recce force has visited.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MapKnowledge {
    /// Bridge types are shown only after a Recce visit.
    pub bridges_need_recce: bool,
    visited: BTreeSet<BoardId>,
    reconnoitred: BTreeSet<BoardId>,
}

impl MapKnowledge {
    pub fn new(bridges_need_recce: bool) -> Self {
        Self { bridges_need_recce, ..Self::default() }
    }

    /// A force of the side moved onto the board (a Recce force with `recce`).
    pub fn visit(&mut self, board: &BoardId, recce: bool) {
        self.visited.insert(board.clone());
        if recce {
            self.reconnoitred.insert(board.clone());
        }
    }

    /// The board's detail as the side knows it: nothing before a visit, bridge types hidden
    /// until a Recce visit where the player chose so.
    pub fn known_detail(&self, map: &CampaignMap, board: &BoardId) -> Result<Option<BoardDetail>, MapError> {
        let b = map.board(board)?;
        if !self.visited.contains(board) {
            return Ok(None);
        }
        let mut detail = b.detail.clone();
        if self.bridges_need_recce && !self.reconnoitred.contains(board) {
            for bridge in &mut detail.bridges {
                bridge.class = None;
            }
        }
        Ok(Some(detail))
    }
}

fn orient(l: &Link, from: &BoardId) -> Option<Leg> {
    let leg = |to: &BoardId, departure_edge, arrival_edge| Leg {
        from: from.clone(),
        to: to.clone(),
        route: l.route,
        mp: l.mp,
        v: l.v,
        departure_edge,
        arrival_edge,
    };
    if &l.from == from {
        Some(leg(&l.to, l.from_edge, l.to_edge))
    } else if &l.to == from {
        Some(leg(&l.from, l.to_edge, l.from_edge))
    } else {
        None
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small map in the style of the Guernsey example: a beach, a village, a town, the sea.
    pub(crate) const GUERNSEY: &str = r#"(
        name: "Operation Take Three",
        boards: [
            (id: "Cobo Bay", kind: Land(Light), coast: Some(SandyBeach),
             detail: (settlements: [(name: "Cobo", size: VillageOrFarm)])),
            (id: "Vazon Bay", kind: Land(Open), size: Half, coast: Some(NonBeach)),
            (id: "St Peter Port", kind: Land(Dense), coast: Some(Harbour),
             detail: (station: true, bridges: [(location: "harbour road")])),
            (id: "Castel", kind: Land(Broken),
             detail: (rivers: [(name: "brook", size: Stream, obstructions: [Weir])], fords: ["mill"])),
            (id: "West Sea", kind: Tidal),
        ],
        links: [
            (from: "Cobo Bay", to: "Castel", route: MetalledRoad, mp: 6, from_edge: East, to_edge: West),
            (from: "Cobo Bay", to: "Vazon Bay", route: SecondaryRoad, mp: 8, v: true, from_edge: South, to_edge: North),
            (from: "Castel", to: "St Peter Port", route: MetalledRoad, mp: 7, from_edge: East, to_edge: West),
            (from: "Castel", to: "St Peter Port", route: Rail, mp: 5, from_edge: South, to_edge: South),
            (from: "Vazon Bay", to: "Castel", route: SecondaryRoad, mp: 9, v: true, from_edge: East, to_edge: South),
            (from: "West Sea", to: "Cobo Bay", route: Sea, mp: 3, from_edge: East, to_edge: West),
        ],
    )"#;

    pub(crate) fn guernsey() -> CampaignMap {
        CampaignMap::from_ron("guernsey.ron", GUERNSEY).unwrap()
    }

    fn with_link(link: &str) -> String {
        GUERNSEY.replace("links: [", &format!("links: [\n {link},"))
    }

    #[test]
    fn a_map_loads_from_ron_and_names_its_legs() {
        let map = guernsey();
        assert_eq!(map.boards.len(), 5);
        let id = BoardId::new;
        let leg = map.leg(&id("Castel"), &id("Cobo Bay"), RouteKind::MetalledRoad).unwrap();
        assert_eq!((leg.mp, leg.departure_edge, leg.arrival_edge), (6, Edge::West, Edge::East));
        assert_eq!(map.legs_from(&id("Castel")).len(), 4);
        assert!(map.leg(&id("Cobo Bay"), &id("Vazon Bay"), RouteKind::SecondaryRoad).unwrap().v);
        let err = map.leg(&id("Cobo Bay"), &id("Castel"), RouteKind::Rail).unwrap_err();
        assert_eq!(err.to_string(), "no railway link between Map Boards \"Cobo Bay\" and \"Castel\"");
        assert_eq!(map.board(&id("St Peter Port")).unwrap().detail.bridges[0].class, None);
    }

    #[test]
    fn terrain_types_carry_their_map_colours() {
        assert_eq!(Terrain::Open.colour(), "grey");
        assert_eq!(Terrain::Dense.colour(), "gold");
        assert_eq!(Terrain::Fortified.colour(), "yellow");
    }

    #[test]
    fn a_parse_error_names_file_and_line() {
        let err =
            CampaignMap::from_ron("bad.ron", "(\n boards: [(id: \"1\", kind: Land(Swamp))],\n links: [])").unwrap_err();
        let shown = err.to_string();
        assert!(shown.contains("bad.ron:2:"), "{shown}");
    }

    #[test]
    fn validation_names_what_is_wrong() {
        let cases = [
            (
                r#"(from: "Cobo Bay", to: "Nowhere", route: MetalledRoad, mp: 4, from_edge: North, to_edge: South)"#,
                "\"Nowhere\" is not on the map",
            ),
            (
                r#"(from: "Castel", to: "Castel", route: MetalledRoad, mp: 4, from_edge: North, to_edge: South)"#,
                "joins a board to itself",
            ),
            (
                r#"(from: "Castel", to: "Cobo Bay", route: MetalledRoad, mp: 4, from_edge: North, to_edge: South)"#,
                "a second metalled road link",
            ),
            (
                r#"(from: "Castel", to: "Vazon Bay", route: MetalledRoad, mp: 0, from_edge: North, to_edge: South)"#,
                "Movement Points above 0",
            ),
            (
                r#"(from: "Cobo Bay", to: "Castel", route: Rail, mp: 4, from_edge: North, to_edge: South)"#,
                "rail links require 5 MP",
            ),
            (
                r#"(from: "Cobo Bay", to: "Castel", route: River(Small), mp: 4, v: true, from_edge: North, to_edge: South)"#,
                "only secondary road links carry \"V\"",
            ),
            (
                r#"(from: "Castel", to: "Vazon Bay", route: MetalledRoad, mp: 4, v: true, from_edge: North, to_edge: South)"#,
                "not a metalled road link",
            ),
            (
                r#"(from: "Castel", to: "West Sea", route: Sea, mp: 3, from_edge: North, to_edge: South)"#,
                "from a board with a coast",
            ),
            (
                r#"(from: "Cobo Bay", to: "West Sea", route: SecondaryRoad, mp: 3, from_edge: North, to_edge: South)"#,
                "cannot reach a Tidal Map Board",
            ),
        ];
        for (link, expected) in cases {
            let err = CampaignMap::from_ron("m.ron", &with_link(link)).unwrap_err();
            assert!(err.to_string().contains(expected), "{link}: {err}");
        }
        let twice = GUERNSEY.replace(
            "(id: \"West Sea\", kind: Tidal),",
            "(id: \"West Sea\", kind: Tidal), (id: \"Castel\", kind: Land(Open)),",
        );
        assert!(CampaignMap::from_ron("m.ron", &twice).unwrap_err().to_string().contains("\"Castel\" appears twice"));
        let tidal_coast = GUERNSEY
            .replace("(id: \"West Sea\", kind: Tidal)", "(id: \"West Sea\", kind: Tidal, coast: Some(Harbour))");
        assert!(CampaignMap::from_ron("m.ron", &tidal_coast).unwrap_err().to_string().contains("Tidal Map Board"));
    }

    #[test]
    fn capacity_is_the_era_battlegroup_maximum_per_side_and_the_sea_is_unlimited() {
        let map = guernsey();
        let vazon = map.board(&BoardId::new("Vazon Bay")).unwrap();
        assert_eq!(vazon.size, BoardSize::Half);
        assert_eq!(board_capacity(vazon, 1200), Some(1200), "small boards hold the same");
        assert_eq!(board_capacity(map.board(&BoardId::new("West Sea")).unwrap(), 1200), None);
    }

    #[test]
    fn a_battlegroup_cannot_deploy_on_a_half_board_but_a_fraction_can() {
        assert!(!can_deploy(ForceKind::Battlegroup, BoardSize::Half));
        assert!(can_deploy(ForceKind::Fraction, BoardSize::Half));
        assert!(can_deploy(ForceKind::Picket, BoardSize::Half));
        assert!(can_deploy(ForceKind::Battlegroup, BoardSize::Full));
    }

    #[test]
    fn detail_is_known_after_a_visit_and_bridge_types_after_recce() {
        let mut map = guernsey();
        map.boards[2].detail.bridges[0].class = Some("C".into());
        let port = BoardId::new("St Peter Port");
        let mut k = MapKnowledge::new(true);
        assert_eq!(k.known_detail(&map, &port).unwrap(), None);
        k.visit(&port, false);
        let d = k.known_detail(&map, &port).unwrap().unwrap();
        assert!(d.station);
        assert_eq!(d.bridges[0].class, None);
        k.visit(&port, true);
        assert_eq!(k.known_detail(&map, &port).unwrap().unwrap().bridges[0].class.as_deref(), Some("C"));
        assert!(k.known_detail(&map, &BoardId::new("nowhere")).is_err());
        let mut open = MapKnowledge::new(false);
        open.visit(&port, false);
        assert!(open.known_detail(&map, &port).unwrap().unwrap().bridges[0].class.is_some());
    }

    #[test]
    fn a_map_round_trips_through_ron() {
        let map = guernsey();
        let text = ron::to_string(&map).unwrap();
        assert_eq!(CampaignMap::from_ron("again.ron", &text).unwrap(), map);
    }
}
