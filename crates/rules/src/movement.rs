//! Movement (*Heroes All*, "Movement", "Movement Table", "Move distance
//! modifiers", "Movement modification", "Cavalry", "Rivers", "Overwatch",
//! "Guards", "Night fighting", "Goliath"; *FYOB* "Order Dice", "Concealment",
//! "Results of Momentum Tests"): the Movement Table as data, the pips taken
//! off each die, and how far an element may go along its route this bound.
//!
//! Geometry is not here: the caller gives the route as stretches of terrain
//! with their lengths in inches, and gets back the distance along it the
//! element may move.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::day::{BattleWeather, Light};
use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::officer::{Officer, Quality, leadership_test};
use crate::order_dice::TurnPlan;

/// A row of the Movement Table ("Movement Table - how many D6 inches can an
/// element move?"), in the book's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Row {
    Infantry,
    /// Carried CSW: HMtr or HMG.
    CarriedCsw,
    HandMovedGun,
    /// Infantry: sheer up/down.
    InfantrySheer,
    /// Infantry: crawl (open/tunnels).
    InfantryCrawl,
    /// Infantry: built up/jungle areas.
    InfantryBuiltUp,
    Bicycle,
    /// Cavalry: horse tow.
    HorseTow,
    /// Cavalry: mounted.
    MountedCavalry,
    Motorcycle,
    /// Motor cycle and sidecar.
    MotorcycleSidecar,
    /// Car: non military.
    NonMilitaryCar,
    /// Car: Kubelwagen, Jeep.
    MilitaryCar,
    /// Light truck: Morris C8.
    LightTruck,
    /// Medium truck: Opel Blitz, QLT.
    MediumTruck,
    AwdTruck,
    TowingVehicle,
    /// 1/2 track: Bren Carrier/SdKfz 251.
    HalfTrack,
    /// Armoured cars, wheeled.
    ArmouredCar,
    /// Slow tank: Matilda II.
    SlowTank,
    Tank,
    /// Fast tank: Luchs.
    FastTank,
    /// Goliath, remote controlled.
    Goliath,
    /// Engineers: bulldozer.
    Bulldozer,
    /// In water: wading troops.
    Wading,
    /// In water: improvised/paddled raft.
    Raft,
    /// In water: "swimming" tank.
    SwimmingTank,
    /// In water: powered boat.
    PoweredBoat,
    /// In water: MTB etc.
    Mtb,
    /// In water: Schwimmwagen.
    Schwimmwagen,
    /// In water: vehicle ferry.
    VehicleFerry,
}

/// One row of the Movement Table: D6 thrown on a road and cross-country.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRow {
    pub row: Row,
    /// Dice on a made-up/metalled road; `None` where the cell is blank.
    pub road: Option<u8>,
    /// Dice cross-country; `None` where the cell is blank.
    pub cross_country: Option<u8>,
    /// "Reduce each d6 by 1 pip" (carried HMtr or HMG).
    pub pips: u8,
    /// "At the double" move available.
    pub at_the_double: bool,
}

impl TableRow {
    /// The dice for a road or cross-country move. Rows with one figure (sheer
    /// faces, built-up/jungle areas, the water rows) name a going of their own
    /// and use that figure whichever column it was printed in.
    pub const fn dice(&self, on_road: bool) -> u8 {
        match (on_road, self.road, self.cross_country) {
            (true, Some(n), _) | (false, _, Some(n)) | (_, Some(n), None) | (_, None, Some(n)) => n,
            (_, None, None) => 0,
        }
    }
}

const fn row(row: Row, road: Option<u8>, cross_country: Option<u8>, pips: u8, at_the_double: bool) -> TableRow {
    TableRow { row, road, cross_country, pips, at_the_double }
}

/// *Heroes All*, "Movement Table - how many D6 inches can an element move?",
/// every row as printed (Type, Road, Xcntry, Notes). Index = `Row as usize`.
pub const MOVEMENT_TABLE: [TableRow; 31] = {
    use Row::*;
    [
        row(Infantry, Some(3), Some(2), 0, true),
        row(CarriedCsw, Some(3), Some(2), 1, true),
        row(HandMovedGun, Some(2), Some(1), 0, false),
        row(InfantrySheer, Some(1), None, 0, true),
        row(InfantryCrawl, Some(1), Some(1), 0, true),
        row(InfantryBuiltUp, Some(2), None, 0, false),
        row(Bicycle, Some(5), Some(1), 0, true),
        row(HorseTow, Some(5), Some(3), 0, false),
        row(MountedCavalry, Some(6), Some(5), 0, true),
        row(Motorcycle, Some(8), Some(4), 0, false),
        row(MotorcycleSidecar, Some(7), Some(4), 0, false),
        row(NonMilitaryCar, Some(8), Some(1), 0, false),
        row(MilitaryCar, Some(8), Some(4), 0, false),
        row(LightTruck, Some(8), Some(2), 0, false),
        row(MediumTruck, Some(6), Some(2), 0, false),
        row(AwdTruck, Some(6), Some(4), 0, false),
        row(TowingVehicle, Some(5), Some(2), 0, false),
        row(HalfTrack, Some(8), Some(4), 0, false),
        row(ArmouredCar, Some(8), Some(3), 0, false),
        row(SlowTank, Some(3), Some(2), 0, false),
        row(Tank, Some(5), Some(3), 0, false),
        row(FastTank, Some(6), Some(3), 0, false),
        row(Goliath, Some(1), Some(1), 0, false),
        row(Bulldozer, Some(3), Some(3), 0, false),
        row(Wading, None, Some(1), 0, false),
        row(Raft, None, Some(2), 0, false),
        row(SwimmingTank, None, Some(1), 0, false),
        row(PoweredBoat, None, Some(5), 0, false),
        row(Mtb, None, Some(8), 0, false),
        row(Schwimmwagen, None, Some(3), 0, false),
        row(VehicleFerry, None, Some(3), 0, false),
    ]
};

impl Row {
    pub fn entry(self) -> &'static TableRow {
        &MOVEMENT_TABLE[self as usize]
    }
}

/// "All AFVs move at 1D6 per bound in built up areas" (note to the armoured cars row).
pub const AFV_BUILT_UP_DICE: u8 = 1;
/// "Any vehicle noted as \"damaged\" only moves 1 x D6 inches per bound."
pub const DAMAGED_DICE: u8 = 1;
/// Stealth move: "up to 1D6 inches (2D6 inches for elite)".
pub const STEALTH_DICE: u8 = 1;
pub const ELITE_STEALTH_DICE: u8 = 2;
/// Goliath: "Throw an additional D6 per bound. On a 1 or 2 the machine breaks down".
pub const GOLIATH_BREAKS_DOWN_ON: u8 = 2;
/// Rough ground: "A 1 indicates a lost track and \"damage\"."
pub const TRACK_LOST_ON: u8 = 1;

/// What an element is, for movement: it picks its rows of the table on land
/// and in water.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveClass {
    Infantry,
    /// Infantry carrying an HMtr or HMG.
    CarriedCsw,
    HandMovedGun,
    Bicycle,
    /// A limbered horse-towed gun ("Horse towed guns move as indicated").
    HorseTowedGun,
    MountedCavalry,
    Motorcycle,
    MotorcycleSidecar,
    NonMilitaryCar,
    MilitaryCar,
    LightTruck,
    MediumTruck,
    AwdTruck,
    TowingVehicle,
    HalfTrack,
    ArmouredCar,
    SlowTank,
    Tank,
    FastTank,
    Goliath,
    Bulldozer,
    /// Improvised or paddled raft; canoes and rowing boats move on this row.
    Raft,
    PoweredBoat,
    Mtb,
    VehicleFerry,
    /// Amphibious: the Kubelwagen row on land, its own row in water.
    Schwimmwagen,
    /// Amphibious: the tank row on land, the "swimming" tank row in water.
    SwimmingTank,
}

impl MoveClass {
    /// Its row on land; `None` for craft that only float.
    pub fn land_row(self) -> Option<Row> {
        use MoveClass as C;
        Some(match self {
            C::Infantry => Row::Infantry,
            C::CarriedCsw => Row::CarriedCsw,
            C::HandMovedGun => Row::HandMovedGun,
            C::Bicycle => Row::Bicycle,
            C::HorseTowedGun => Row::HorseTow,
            C::MountedCavalry => Row::MountedCavalry,
            C::Motorcycle => Row::Motorcycle,
            C::MotorcycleSidecar => Row::MotorcycleSidecar,
            C::NonMilitaryCar => Row::NonMilitaryCar,
            C::MilitaryCar | C::Schwimmwagen => Row::MilitaryCar,
            C::LightTruck => Row::LightTruck,
            C::MediumTruck => Row::MediumTruck,
            C::AwdTruck => Row::AwdTruck,
            C::TowingVehicle => Row::TowingVehicle,
            C::HalfTrack => Row::HalfTrack,
            C::ArmouredCar => Row::ArmouredCar,
            C::SlowTank => Row::SlowTank,
            C::Tank | C::SwimmingTank => Row::Tank,
            C::FastTank => Row::FastTank,
            C::Goliath => Row::Goliath,
            C::Bulldozer => Row::Bulldozer,
            C::Raft | C::PoweredBoat | C::Mtb | C::VehicleFerry => return None,
        })
    }

    /// Its row in water; `None` for what cannot enter it. Infantry wade;
    /// cavalry cross a small river "at 1 x D6 per bound" (*Heroes All*,
    /// "Rivers"), the wading figure.
    pub fn water_row(self) -> Option<Row> {
        use MoveClass as C;
        Some(match self {
            C::Infantry | C::CarriedCsw | C::MountedCavalry => Row::Wading,
            C::Raft => Row::Raft,
            C::PoweredBoat => Row::PoweredBoat,
            C::Mtb => Row::Mtb,
            C::VehicleFerry => Row::VehicleFerry,
            C::Schwimmwagen => Row::Schwimmwagen,
            C::SwimmingTank => Row::SwimmingTank,
            _ => return None,
        })
    }

    /// Men on foot: the infantry rows (sheer, crawl, built-up) and the stealth move are theirs.
    pub fn on_foot(self) -> bool {
        matches!(self, Self::Infantry | Self::CarriedCsw)
    }

    /// A vehicle for the "-2 pips per dice" modifiers. Reading: the table's
    /// Type column; rows from the motor cycle down are vehicles, so
    /// bicycles, cavalry, horse tows and hand-moved guns are not.
    pub fn is_vehicle(self) -> bool {
        !matches!(
            self,
            Self::Infantry
                | Self::CarriedCsw
                | Self::HandMovedGun
                | Self::Bicycle
                | Self::HorseTowedGun
                | Self::MountedCavalry
        )
    }

    /// Wades rather than floats in a river.
    pub fn wades(self) -> bool {
        self.water_row() == Some(Row::Wading)
    }

    /// An AFV for "All AFVs move at 1D6 per bound in built up areas": the
    /// armoured car, tank and half-track (Bren Carrier/SdKfz 251) rows.
    pub fn is_afv(self) -> bool {
        matches!(
            self,
            Self::HalfTrack | Self::ArmouredCar | Self::SlowTank | Self::Tank | Self::FastTank | Self::SwimmingTank
        )
    }

    /// The drive its row suggests; the codex may name another (a Jeep is
    /// all-wheel drive, a Kubelwagen is not; a Bren Carrier is tracked).
    /// `None` for men, horses and craft that only float.
    pub fn default_drive(self) -> Option<Drive> {
        use MoveClass as C;
        match self {
            C::Motorcycle
            | C::MotorcycleSidecar
            | C::NonMilitaryCar
            | C::MilitaryCar
            | C::LightTruck
            | C::MediumTruck => Some(Drive::Wheeled),
            C::TowingVehicle | C::ArmouredCar => Some(Drive::Wheeled),
            C::AwdTruck | C::Schwimmwagen => Some(Drive::AllWheelDrive),
            C::HalfTrack => Some(Drive::HalfTracked),
            C::SlowTank | C::Tank | C::FastTank | C::SwimmingTank | C::Goliath | C::Bulldozer => Some(Drive::Tracked),
            _ => None,
        }
    }
}

/// How a vehicle is driven (the 2020 addendum "Weather": "tracked,
/// half-tracked, all wheel drive"; "Tracked vehicles passing over … rough ground").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Drive {
    /// Ordinary trucks, cars and motorcycles.
    Wheeled,
    AllWheelDrive,
    HalfTracked,
    Tracked,
}

/// A ford's state, declared by the scenario (*Heroes All*, "Rivers": "in bad
/// weather, movement restriction may occur or the ford can be declared uncrossable").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FordCondition {
    /// "crossed by all elements without a penalty".
    Normal,
    /// A restriction the scenario sets: pips off each die.
    Restricted(u8),
    Uncrossable,
}

/// The ground a stretch of the route crosses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    /// A made-up/metalled road (or a bridge carrying one).
    Road,
    /// Open ground: cross-country.
    Open,
    /// Cross-country, no penalty; no "at the double".
    LightWoodland,
    /// Cross-country, no penalty; tracked vehicles may lose a track.
    RoughGround,
    /// −1 pip per die, −2 for vehicles; no "at the double".
    DenseWoodland,
    /// "Marsh or swamp": −1 pip per die, −2 for vehicles; no "at the double".
    Marsh,
    /// "Areas designated as mountains": cross-country, no "at the double".
    Mountains,
    /// A built-up area: the infantry row, 1D6 for AFVs.
    BuiltUp,
    /// The infantry built up/jungle row; no "at the double".
    Jungle,
    /// A sheer face, up or down: infantry only.
    Sheer,
    /// Infantry crawl.
    Tunnel,
    /// Up to the height of a figure: no penalty.
    LowWall,
    Hedge,
    Ditch,
    /// Higher than a figure (up to 1½ figures): −1 pip per die, −2 for vehicles.
    HighWall,
    /// 1 to 2 inches wide: −1 pip per die.
    Stream,
    Ford(FordCondition),
    /// 3 to 4 inches wide: infantry wade, cavalry cross, paddled craft navigate.
    SmallRiver,
    /// Wider than 4 inches: bridges, boats and rafts only.
    WideRiver,
    /// Within 12 inches of shore, where river craft rates apply.
    Sea,
    /// A "no-go" area for vehicles set by the scenario (deep swamp and the like).
    NoGo,
}

impl Terrain {
    pub fn is_water(self) -> bool {
        matches!(self, Self::SmallRiver | Self::WideRiver | Self::Sea)
    }

    /// Cross-country going, for the dice and the uphill rule.
    fn is_cross_country(self) -> bool {
        !matches!(self, Self::Road | Self::BuiltUp) && !self.is_water()
    }

    /// Pips off each die for crossing it (*Heroes All*, "Move distance
    /// modifiers"; "Rivers" for streams, fords and marsh).
    ///
    /// Reading: the modifier table lists streams at −2 for vehicles, but
    /// "Rivers" says a stream "can be crossed by all elements subject to a
    /// penalty of 1 pip per D6" while its marsh entry beside it does split
    /// vehicles (2) from the rest (1). The rivers section, written for these
    /// features, governs: −1 for all. Test `a_stream_costs_every_element_one_pip`.
    pub fn pips(self, vehicle: bool) -> u8 {
        match self {
            Self::HighWall | Self::DenseWoodland | Self::Marsh => 1 + u8::from(vehicle),
            Self::Stream => 1,
            Self::Ford(FordCondition::Restricted(p)) => p,
            _ => 0,
        }
    }

    /// "\"At the double\" moves cannot be taken through light or dense
    /// woodland or jungle, nor in areas designated as mountains or swamp, or
    /// where infantry movement modifiers apply".
    fn bars_at_the_double(self) -> bool {
        matches!(self, Self::LightWoodland | Self::DenseWoodland | Self::Jungle | Self::Mountains | Self::Marsh)
            || self.pips(false) > 0
    }
}

/// A stretch of the route: its ground and length in inches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Stretch {
    pub terrain: Terrain,
    /// Inches; a wall, hedge or stream may be 0.
    pub length: f32,
    /// Climbing (for the rain/snow uphill rule).
    pub uphill: bool,
}

impl Stretch {
    pub fn new(terrain: Terrain, length: f32) -> Self {
        Self { terrain, length, uphill: false }
    }

    pub fn uphill(terrain: Terrain, length: f32) -> Self {
        Self { terrain, length, uphill: true }
    }
}

/// How the element moves this bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveMode {
    /// The Movement Table.
    Normal,
    /// Infantry: "up to 1D6 inches (2D6 inches for elite) on either a road or cross-country only".
    Stealth,
    /// Infantry crawling in the open.
    Crawl,
}

/// The pace the order gives (*FYOB* "Order Dice": "At the double" doubles
/// the Movement Dice distance; Overwatch moves at 50%).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pace {
    Normal,
    AtTheDouble,
    /// Also guards, who are always on Overwatch.
    Overwatch,
}

impl Pace {
    /// The pace of a planned turn (see [`crate::order_dice::check_turn`]).
    pub fn of(plan: &TurnPlan) -> Result<Self, MoveError> {
        match (plan.at_the_double, plan.overwatch) {
            (true, true) => Err(MoveError::AtTheDouble(DoubleBar::Overwatch)),
            (true, false) => Ok(Self::AtTheDouble),
            (false, true) => Ok(Self::Overwatch),
            (false, false) => Ok(Self::Normal),
        }
    }

    pub fn factor(self) -> f32 {
        match self {
            Self::Normal => 1.0,
            Self::AtTheDouble => 2.0,
            Self::Overwatch => 0.5,
        }
    }
}

/// Leaving a concealed position (*FYOB* "Concealment": "A concealed element
/// uses an Act to extract itself from a concealed position. If an Act is not
/// used, the Movement Dice throw is reduced by 1 pip per dice on the bound that
/// it first moves. It may not move \"At the Double\" immediately.")
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Concealment {
    NotConcealed,
    ExtractedByAct,
    LeavesWithoutAct,
}

/// The element that moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mover {
    pub class: MoveClass,
    /// For vehicles; `None` for men, horses and craft that only float.
    pub drive: Option<Drive>,
    pub quality: Quality,
    /// Partisans, like elite troops, ignore the night restrictions.
    pub partisan: bool,
    /// A vehicle noted as "damaged".
    pub damaged: bool,
    /// Already in the water (waded in, or afloat) when the move starts.
    pub in_water: bool,
}

impl Mover {
    /// A Regular element on land with its row's drive.
    pub fn new(class: MoveClass) -> Self {
        Self {
            class,
            drive: class.default_drive(),
            quality: Quality::Regular,
            partisan: false,
            damaged: false,
            in_water: class.land_row().is_none(),
        }
    }
}

/// Everything the movement rule needs for one move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveRequest<'a> {
    pub mover: Mover,
    pub route: &'a [Stretch],
    pub mode: MoveMode,
    pub pace: Pace,
    pub light: Light,
    pub weather: BattleWeather,
    /// Pips off each die from this bound's Continuous Momentum tests
    /// ([`crate::momentum::BandEffects::movement_pips`]).
    pub momentum_pips: u8,
    pub concealment: Concealment,
    /// The force is "rationed" (2020 addendum, "Forces acting whilst rationed").
    pub rationed: bool,
}

impl<'a> MoveRequest<'a> {
    /// A normal move by day, no weather, no penalties.
    pub fn new(mover: Mover, route: &'a [Stretch]) -> Self {
        Self {
            mover,
            route,
            mode: MoveMode::Normal,
            pace: Pace::Normal,
            light: Light::Daylight,
            weather: BattleWeather::default(),
            momentum_pips: 0,
            concealment: Concealment::NotConcealed,
            rationed: false,
        }
    }
}

/// Why an "at the double" move is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DoubleBar {
    /// The row has no "At the double move available" note.
    NotInRow(Row),
    Terrain(Terrain),
    /// "They cannot move \"at the double\"" on Overwatch.
    Overwatch,
    /// Night fighting: "\"At the double\" moves are not permitted" (elite and partisans excepted).
    Night,
    /// 2020 addendum: "unable to execute this whilst in rationed mode".
    Rationed,
    /// *FYOB* Concealment: "It may not move \"At the Double\" immediately."
    LeavingConcealment,
    /// A stealth move is "instead of a normal move".
    Stealth,
}

/// A move the rules do not allow, or a route that makes no sense.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum MoveError {
    EmptyRoute,
    /// A stretch length that is negative or not a number.
    BadLength {
        stretch: usize,
        length: f32,
    },
    /// A vehicle without a drive, or a man, horse or boat with one.
    DriveMismatch(MoveClass),
    /// This element cannot cross this stretch.
    Impassable {
        stretch: usize,
        terrain: Terrain,
        class: MoveClass,
    },
    /// *Heroes All*, "Rivers": "Getting into or out of river counts as an Act":
    /// the move ends at the bank.
    RiverBankNeedsAnAct {
        stretch: usize,
    },
    /// Stealth moves are for infantry, on a road or cross-country only.
    Stealth {
        stretch: Option<usize>,
    },
    /// Crawling is for infantry.
    Crawl,
    AtTheDouble(DoubleBar),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::EmptyRoute => write!(f, "a move needs a route of at least one stretch"),
            Self::BadLength { stretch, length } => {
                write!(f, "stretch {stretch}: length {length} is not a non-negative number of inches")
            }
            Self::DriveMismatch(c) => {
                write!(f, "{c:?}: only land vehicles have a drive (wheeled, all wheel, half-tracked, tracked)")
            }
            Self::Impassable { stretch, terrain, class } => {
                write!(f, "stretch {stretch}: {class:?} cannot cross {terrain:?}")
            }
            Self::RiverBankNeedsAnAct { stretch } => {
                write!(f, "stretch {stretch}: getting into or out of a river is an Act; the move ends at the bank")
            }
            Self::Stealth { stretch: None } => {
                write!(f, "only infantry may make a stealth move, and not at the double")
            }
            Self::Stealth { stretch: Some(i) } => {
                write!(f, "stretch {i}: a stealth move is on a road or cross-country only")
            }
            Self::Crawl => write!(f, "only infantry crawl"),
            Self::AtTheDouble(why) => write!(f, "no \"at the double\" move: {why:?}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why each die loses pips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PipCause {
    /// "Reduce each d6 by 1 pip" (carried HMtr/HMG; also on stealth moves and wading).
    CarriedCsw,
    /// Crossing this ground ("Move distance modifiers", "Rivers").
    Terrain(Terrain),
    /// *FYOB* "Results of Momentum Tests this bound".
    Momentum,
    /// *FYOB* Concealment, leaving without an Act.
    Concealment,
    /// 2020 addendum "Weather": a cross-country move uphill by an ordinary wheeled vehicle.
    UphillInRainOrSnow,
}

/// A move worked out before the dice: what is thrown and how it is read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MovePlan {
    /// The row that sets the dice (the most restrictive going of the route).
    pub row: Row,
    pub dice: u8,
    /// Why that many dice.
    pub dice_reason: &'static str,
    pub pips: Vec<(PipCause, u8)>,
    /// Night: "halve all of the scores achieved. Round fractions downwards."
    pub night_halved: bool,
    pub factor: f32,
    pub route_length: f32,
    /// A Goliath throws for reliability after moving.
    pub goliath: bool,
    /// Where a tracked vehicle first meets rough ground along the route.
    pub rough_ground_at: Option<f32>,
}

impl MovePlan {
    /// Pips off each die.
    pub fn pips_per_die(&self) -> u8 {
        self.pips.iter().map(|&(_, p)| p).fold(0u8, u8::saturating_add)
    }

    /// The score of the dice read as the rules read it.
    fn score(&self, faces: &[u8]) -> u32 {
        let pips = self.pips_per_die();
        let sum: u32 = faces.iter().map(|&f| u32::from(f.saturating_sub(pips))).sum();
        if self.night_halved { sum / 2 } else { sum }
    }

    /// The chance of each allowance in inches, lowest first (for planning).
    pub fn distribution(&self) -> Vec<(f32, f64)> {
        let pips = self.pips_per_die();
        let mut sums = vec![1.0f64];
        for _ in 0..self.dice {
            let mut next = vec![0.0; sums.len() + 6];
            for (s, p) in sums.iter().enumerate() {
                for face in 1..=6u8 {
                    next[s + usize::from(face.saturating_sub(pips))] += p / 6.0;
                }
            }
            sums = next;
        }
        let mut out: Vec<(f32, f64)> = Vec::new();
        for (s, p) in sums.into_iter().enumerate().filter(|&(_, p)| p > 0.0) {
            let score = if self.night_halved { s / 2 } else { s };
            let inches = score as f32 * self.factor;
            match out.last_mut() {
                Some(last) if last.0 == inches => last.1 += p,
                _ => out.push((inches, p)),
            }
        }
        out
    }

    /// The most the throw can give, inches.
    pub fn max_allowance(&self) -> f32 {
        self.score(&vec![6; usize::from(self.dice)]) as f32 * self.factor
    }
}

/// Works out the dice, pips and factors for a move (no dice thrown).
pub fn plan(req: &MoveRequest<'_>) -> Result<MovePlan, MoveError> {
    let m = req.mover;
    let class = m.class;
    if req.route.is_empty() {
        return Err(MoveError::EmptyRoute);
    }
    for (i, s) in req.route.iter().enumerate() {
        if !(s.length.is_finite() && s.length >= 0.0) {
            return Err(MoveError::BadLength { stretch: i, length: s.length });
        }
    }
    let needs_drive = class.land_row().is_some() && class.is_vehicle();
    if needs_drive != m.drive.is_some() {
        return Err(MoveError::DriveMismatch(class));
    }
    let on_foot = class.on_foot();
    if req.mode == MoveMode::Stealth && (!on_foot || req.pace == Pace::AtTheDouble) {
        return Err(MoveError::Stealth { stretch: None });
    }
    if req.mode == MoveMode::Crawl && !on_foot {
        return Err(MoveError::Crawl);
    }

    // The dice each stretch would give; the fewest govern the whole move.
    let mut in_water = m.in_water;
    let mut stretches: Vec<(Row, u8, &'static str)> = Vec::with_capacity(req.route.len());
    for (i, s) in req.route.iter().enumerate() {
        let impassable = MoveError::Impassable { stretch: i, terrain: s.terrain, class };
        let (row, dice, why) = if s.terrain.is_water() {
            let water = class.water_row().ok_or(impassable)?;
            let navigable = match s.terrain {
                // "Small river … Can be crossed by infantry wading or by
                // cavalry … Only navigable by canoe, rowing boat or raft."
                Terrain::SmallRiver => class.wades() || class == MoveClass::Raft,
                _ => !class.wades(),
            };
            if !navigable {
                return Err(impassable);
            }
            if class.wades() && !in_water {
                return Err(MoveError::RiverBankNeedsAnAct { stretch: i });
            }
            in_water = true;
            (water, water.entry().dice(false), "in water")
        } else {
            let land = class.land_row().ok_or(impassable)?;
            if class.wades() && in_water {
                return Err(MoveError::RiverBankNeedsAnAct { stretch: i });
            }
            in_water = false;
            match s.terrain {
                Terrain::Ford(FordCondition::Uncrossable) => return Err(impassable),
                Terrain::NoGo if class.is_vehicle() => return Err(impassable),
                Terrain::Sheer | Terrain::Tunnel if !on_foot => return Err(impassable),
                Terrain::Sheer => (Row::InfantrySheer, Row::InfantrySheer.entry().dice(true), "sheer face"),
                Terrain::Tunnel => (Row::InfantryCrawl, Row::InfantryCrawl.entry().dice(true), "crawling in a tunnel"),
                _ if req.mode == MoveMode::Crawl => {
                    (Row::InfantryCrawl, Row::InfantryCrawl.entry().dice(false), "crawling")
                }
                Terrain::BuiltUp | Terrain::Jungle if on_foot => {
                    (Row::InfantryBuiltUp, Row::InfantryBuiltUp.entry().dice(true), "infantry in built up/jungle areas")
                }
                Terrain::BuiltUp if class.is_afv() => {
                    (land, AFV_BUILT_UP_DICE, "All AFVs move at 1D6 per bound in built up areas")
                }
                // Reading: a built-up area is crossed by its streets, so
                // other elements use their road figure there.
                Terrain::BuiltUp | Terrain::Road => (land, land.entry().dice(true), "road"),
                _ => (land, land.entry().dice(false), "cross-country"),
            }
        };
        stretches.push((row, dice, why));
    }
    let &(mut row, mut dice, mut dice_reason) =
        stretches.iter().min_by_key(|&&(_, d, _)| d).expect("the route is not empty");

    if req.mode == MoveMode::Stealth {
        if let Some(i) = req.route.iter().position(|s| {
            s.terrain.is_water()
                || matches!(s.terrain, Terrain::BuiltUp | Terrain::Jungle | Terrain::Sheer | Terrain::Tunnel)
        }) {
            return Err(MoveError::Stealth { stretch: Some(i) });
        }
        row = class.land_row().expect("infantry have a land row");
        (dice, dice_reason) = if m.quality == Quality::Elite {
            (ELITE_STEALTH_DICE, "stealth move, elite: 2D6")
        } else {
            (STEALTH_DICE, "stealth move: 1D6")
        };
    }
    if m.damaged && class.is_vehicle() {
        (dice, dice_reason) = (DAMAGED_DICE, "damaged vehicle: 1D6 per bound");
    }

    // Pips off each die.
    let mut pips = Vec::new();
    let class_pips = class.land_row().map_or(0, |r| r.entry().pips);
    if class_pips > 0 {
        pips.push((PipCause::CarriedCsw, class_pips));
    }
    // Each feature crossed costs its pips once; a feature the geometry split
    // into consecutive stretches is one feature.
    for (i, s) in req.route.iter().enumerate() {
        let p = s.terrain.pips(class.is_vehicle());
        if p > 0 && (i == 0 || req.route[i - 1].terrain != s.terrain) {
            pips.push((PipCause::Terrain(s.terrain), p));
        }
    }
    if req.momentum_pips > 0 {
        pips.push((PipCause::Momentum, req.momentum_pips));
    }
    if req.concealment == Concealment::LeavesWithoutAct {
        pips.push((PipCause::Concealment, 1));
    }
    let uphill_pip = req.weather.uphill_pip();
    if uphill_pip > 0
        && m.drive == Some(Drive::Wheeled)
        && req.route.iter().any(|s| s.uphill && s.terrain.is_cross_country())
    {
        pips.push((PipCause::UphillInRainOrSnow, uphill_pip));
    }

    let elite = m.quality == Quality::Elite;
    let night = req.light == Light::Night && !(elite || m.partisan);
    if req.pace == Pace::AtTheDouble {
        let bar = if let Some(&(r, _, _)) = stretches.iter().find(|(r, _, _)| !r.entry().at_the_double) {
            Some(DoubleBar::NotInRow(r))
        } else if let Some(s) = req.route.iter().find(|s| s.terrain.bars_at_the_double()) {
            Some(DoubleBar::Terrain(s.terrain))
        } else if night {
            Some(DoubleBar::Night)
        } else if req.rationed {
            Some(DoubleBar::Rationed)
        } else if req.concealment != Concealment::NotConcealed {
            Some(DoubleBar::LeavingConcealment)
        } else {
            None
        };
        if let Some(bar) = bar {
            return Err(MoveError::AtTheDouble(bar));
        }
    }

    let rough_ground_at = (m.drive == Some(Drive::Tracked))
        .then(|| {
            let mut at = 0.0;
            for s in req.route {
                if s.terrain == Terrain::RoughGround {
                    return Some(at);
                }
                at += s.length;
            }
            None
        })
        .flatten();

    Ok(MovePlan {
        row,
        dice,
        dice_reason,
        pips,
        night_halved: night,
        factor: req.pace.factor(),
        route_length: req.route.iter().map(|s| s.length).sum(),
        goliath: class == MoveClass::Goliath,
        rough_ground_at,
    })
}

/// A move thrown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Move {
    pub plan: MovePlan,
    /// The Movement Dice.
    pub faces: Vec<u8>,
    /// The score after pips (and night halving), before the pace factor.
    pub score: u32,
    /// "The score shows the maximum number of inches that the element can move this bound."
    pub allowance: f32,
    /// How far along the route it may go: the allowance or the route, whichever is shorter.
    pub distance: f32,
    /// Rough ground: a lost track; the vehicle is now "damaged".
    pub track_lost: bool,
    /// Goliath: broke down and is removed with its crew.
    pub broke_down: bool,
}

/// Throws the Movement Dice for a move and reads them: the distance the
/// element may go along its route. The declared route sets the dice and the
/// pips (the going and features it crosses); a tracked vehicle throws for its
/// track only if it reaches the rough ground; a Goliath throws for reliability.
pub fn move_element(req: &MoveRequest<'_>, dice: &mut impl Roll, id: &str) -> Result<(Move, RuleEvent), MoveError> {
    let plan = plan(req)?;
    let faces = dice.throw(usize::from(plan.dice), 6);
    let score = plan.score(&faces);
    let allowance = score as f32 * plan.factor;
    let distance = allowance.min(plan.route_length);
    let reliability = plan.goliath.then(|| dice.d6());
    let track = plan.rough_ground_at.filter(|&at| at < distance).map(|_| dice.d6());
    let mv = Move {
        track_lost: track.is_some_and(|f| f <= TRACK_LOST_ON),
        broke_down: reliability.is_some_and(|f| f <= GOLIATH_BREAKS_DOWN_ON),
        plan,
        faces,
        score,
        allowance,
        distance,
    };

    let p = &mv.plan;
    let mut e = RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Movement"))
        .actor(id)
        .input("class", req.mover.class, "")
        .input("row", p.row, "Movement Table")
        .input("dice", p.dice, p.dice_reason);
    for &(cause, n) in &p.pips {
        e = e.input("pips", (cause, n), "deducted from each D6");
    }
    if p.night_halved {
        e = e.input("night", true, "Night fighting: halve the score, round down");
    }
    if p.factor != 1.0 {
        e = e.input("pace", req.pace, "at the double x2, Overwatch 50%");
    }
    e = e.input("route_length", p.route_length, "inches").dice(6, &mv.faces);
    if let Some(f) = reliability {
        e = e.input("goliath_reliability", f, "Goliath: a 1 or 2 and it breaks down").dice(6, &[f]);
    }
    if let Some(f) = track {
        e = e.input("rough_ground", f, "tracked vehicle on rough ground: a 1 loses a track").dice(6, &[f]);
    }
    let e = e.outcome(json!({
        "score": mv.score,
        "allowance": mv.allowance,
        "distance": mv.distance,
        "reached_end": mv.distance >= p.route_length,
        "track_lost": mv.track_lost,
        "broke_down": mv.broke_down,
    }));
    Ok((mv, e))
}

/// A point of the compass, as the D8 reads it (1 = N, 2 = NE … 8 = NW).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Compass {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

/// The "Compass" die (N-NE-E-SE-S-SW-W-NW).
const COMPASS: [Compass; 8] =
    [Compass::N, Compass::NE, Compass::E, Compass::SE, Compass::S, Compass::SW, Compass::W, Compass::NW];

impl Compass {
    /// The opposite point.
    pub fn reversed(self) -> Self {
        COMPASS[(self as usize + 4) % 8]
    }

    /// Bearing in degrees clockwise from north (table north is the far edge).
    pub fn degrees(self) -> f32 {
        self as usize as f32 * 45.0
    }
}

/// A guard (*Heroes All*, "Guards"): on Overwatch, covering the 180° arc it
/// faces; it moves only the way it faces, at 50% ([`Pace::Overwatch`]), and
/// "They move and then turn 180 degrees (in that order) each bound."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guard {
    pub facing: Compass,
}

impl Guard {
    /// The turn at the end of the guard's bound, after any move.
    pub fn turn_about(&mut self) {
        self.facing = self.facing.reversed();
    }

    /// "A guard can be re-faced during the game by their NCO passing a
    /// Leadership test" (*Heroes All*, "Guards"; the 2-player game uses a "4"
    /// Command Dice instead). Returns whether the guard now faces `to`.
    ///
    /// Readings: the NCO names the new facing (the Compass die only faces a
    /// guard at the start of the game); the test is not one of the two Acts
    /// (FYOB's list of Acts does not name it); a failed test leaves the facing
    /// as it was (test `a_guard_is_re_faced_when_its_nco_passes_a_leadership_test`).
    pub fn re_face(&mut self, nco: Officer, to: Compass, dice: &mut impl Roll, id: &str) -> (bool, RuleEvent) {
        let (test, mut e) = leadership_test(nco, dice, id);
        e.rule = RuleRef::new(Book::HeroesAll, "Guards");
        let e = e.input("facing", self.facing, "before").input("re_face", to, "the facing the NCO names");
        if test.passed {
            self.facing = to;
        }
        (test.passed, e)
    }
}

/// "Guards are \"faced\" at the start of the game with a D8 or \"Compass\" die".
pub fn face_guard(dice: &mut impl Roll, id: &str) -> (Guard, RuleEvent) {
    let face = dice.d8();
    let guard = Guard { facing: COMPASS[usize::from(face) - 1] };
    let e = RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Guards"))
        .actor(id)
        .dice(8, &[face])
        .outcome(json!({ "facing": guard.facing }));
    (guard, e)
}

/// A vehicle's attitude at the start of a bound, for firing and observation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Attitude {
    Moving,
    Stationary,
}

/// What the vehicle did in its last turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LastTurn {
    Moved,
    DidNotMove,
    /// It missed the bound after a failed ORT.
    MissedTurn,
}

/// "Wheeled or tracked vehicles are considered to be moving at the start of a
/// bound if they finished their previous bound moving. (Similarly for being
/// stationary). If they miss a bound following a failed ORT, this does not
/// change their moving/stationary attitude."
pub fn attitude_at_start(previous: Attitude, last: LastTurn) -> Attitude {
    match last {
        LastTurn::Moved => Attitude::Moving,
        LastTurn::DidNotMove => Attitude::Stationary,
        LastTurn::MissedTurn => previous,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};
    use crate::order_dice::{Phase, check_turn};

    use Terrain as T;

    fn go(req: &MoveRequest<'_>, faces: &[u8]) -> Move {
        let mut dice = Scripted::new(faces.iter().copied());
        let (mv, _) = move_element(req, &mut dice, "x").unwrap();
        assert_eq!(dice.remaining(), 0, "every scripted face used");
        mv
    }

    fn open(len: f32) -> [Stretch; 1] {
        [Stretch::new(T::Open, len)]
    }

    #[test]
    fn table_rows_are_in_the_books_order_and_each_has_a_figure() {
        for (i, r) in MOVEMENT_TABLE.iter().enumerate() {
            assert_eq!(r.row as usize, i, "{:?}", r.row);
            assert!(r.dice(true) > 0 && r.dice(false) > 0, "{:?}", r.row);
        }
    }

    #[test]
    fn table_rows_read_as_printed() {
        let rc = |r: Row| (r.entry().dice(true), r.entry().dice(false));
        assert_eq!(rc(Row::Infantry), (3, 2));
        assert_eq!(rc(Row::HandMovedGun), (2, 1));
        assert_eq!(rc(Row::Bicycle), (5, 1));
        assert_eq!(rc(Row::MountedCavalry), (6, 5));
        assert_eq!(rc(Row::MotorcycleSidecar), (7, 4));
        assert_eq!(rc(Row::NonMilitaryCar), (8, 1));
        assert_eq!(rc(Row::AwdTruck), (6, 4));
        assert_eq!(rc(Row::HalfTrack), (8, 4));
        assert_eq!(rc(Row::SlowTank), (3, 2));
        assert_eq!(rc(Row::FastTank), (6, 3));
        assert_eq!(rc(Row::Bulldozer), (3, 3));
        assert_eq!(rc(Row::Mtb), (8, 8), "water rows have one figure");
        assert_eq!(rc(Row::InfantrySheer), (1, 1), "going rows have one figure");
        assert_eq!(Row::CarriedCsw.entry().pips, 1);
        let doubles: Vec<Row> = MOVEMENT_TABLE.iter().filter(|r| r.at_the_double).map(|r| r.row).collect();
        assert_eq!(
            doubles,
            [Row::Infantry, Row::CarriedCsw, Row::InfantrySheer, Row::InfantryCrawl, Row::Bicycle, Row::MountedCavalry]
        );
    }

    /// *Heroes All*, "Movement": "a British platoon throws 1 x D6 and gets a 5 so can wade across."
    #[test]
    fn example_platoon_wades_across_with_a_five() {
        let mut platoon = Mover::new(MoveClass::Infantry);
        platoon.in_water = true;
        let river = [Stretch::new(T::SmallRiver, 4.0)];
        let mv = go(&MoveRequest::new(platoon, &river), &[5]);
        assert_eq!((mv.plan.row, mv.plan.dice), (Row::Wading, 1));
        assert_eq!((mv.allowance, mv.distance), (5.0, 4.0), "across a 4-inch small river");
        let beyond = [Stretch::new(T::SmallRiver, 4.0), Stretch::new(T::Open, 1.0)];
        assert_eq!(plan(&MoveRequest::new(platoon, &beyond)), Err(MoveError::RiverBankNeedsAnAct { stretch: 1 }));
        let on_bank = [Stretch::new(T::Open, 1.0), Stretch::new(T::SmallRiver, 4.0)];
        assert_eq!(
            plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &on_bank)),
            Err(MoveError::RiverBankNeedsAnAct { stretch: 1 }),
            "getting in is an Act too"
        );
    }

    /// *Heroes All*, "Move distance modifiers": "This low wall … presents no
    /// problems to the infantry who do not suffer a penalty to cross it. They
    /// can move their full 6 inches on this bound."
    #[test]
    fn example_low_wall_costs_infantry_nothing() {
        let route = [Stretch::new(T::Open, 2.0), Stretch::new(T::LowWall, 0.0), Stretch::new(T::Open, 8.0)];
        let mv = go(&MoveRequest::new(Mover::new(MoveClass::Infantry), &route), &[2, 4]);
        assert_eq!((mv.plan.dice, mv.plan.pips_per_die(), mv.distance), (2, 0, 6.0));
        let high = [Stretch::new(T::Open, 2.0), Stretch::new(T::HighWall, 0.0), Stretch::new(T::Open, 8.0)];
        let mv = go(&MoveRequest::new(Mover::new(MoveClass::Infantry), &high), &[2, 4]);
        assert_eq!(mv.distance, 4.0, "a high wall costs a pip a die");
    }

    #[test]
    fn road_or_cross_country_and_the_most_restrictive_going_governs() {
        let tank = Mover::new(MoveClass::Tank);
        let road = [Stretch::new(T::Road, 30.0)];
        assert_eq!(plan(&MoveRequest::new(tank, &road)).unwrap().dice, 5);
        let mixed = [Stretch::new(T::Road, 10.0), Stretch::new(T::Open, 10.0)];
        let p = plan(&MoveRequest::new(tank, &mixed)).unwrap();
        assert_eq!((p.dice, p.dice_reason), (3, "cross-country"));
        let town = [Stretch::new(T::Road, 10.0), Stretch::new(T::BuiltUp, 10.0)];
        assert_eq!(plan(&MoveRequest::new(tank, &town)).unwrap().dice, 1, "All AFVs move at 1D6 in built up areas");
        let truck = Mover::new(MoveClass::MediumTruck);
        assert_eq!(plan(&MoveRequest::new(truck, &town)).unwrap().dice, 6, "a lorry drives the streets");
        let p = plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &town)).unwrap();
        assert_eq!((p.row, p.dice), (Row::InfantryBuiltUp, 2));
    }

    #[test]
    fn vehicles_lose_two_pips_in_dense_woods_and_marsh() {
        for t in [T::DenseWoodland, T::Marsh, T::HighWall] {
            let r = [Stretch::new(t, 3.0)];
            assert_eq!(plan(&MoveRequest::new(Mover::new(MoveClass::Tank), &r)).unwrap().pips_per_die(), 2, "{t:?}");
            assert_eq!(
                plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &r)).unwrap().pips_per_die(),
                1,
                "{t:?}"
            );
        }
        for t in [T::LightWoodland, T::RoughGround, T::Ditch, T::Hedge, T::LowWall, T::Ford(FordCondition::Normal)] {
            let r = [Stretch::new(t, 3.0)];
            assert_eq!(plan(&MoveRequest::new(Mover::new(MoveClass::Tank), &r)).unwrap().pips_per_die(), 0, "{t:?}");
        }
    }

    #[test]
    fn a_stream_costs_every_element_one_pip() {
        let r = [Stretch::new(T::Open, 2.0), Stretch::new(T::Stream, 1.5), Stretch::new(T::Open, 2.0)];
        for c in [MoveClass::Infantry, MoveClass::Tank, MoveClass::MediumTruck] {
            assert_eq!(plan(&MoveRequest::new(Mover::new(c), &r)).unwrap().pips_per_die(), 1, "{c:?}");
        }
    }

    #[test]
    fn pips_stack_per_feature_and_never_take_a_die_below_nothing() {
        let r = [
            Stretch::new(T::DenseWoodland, 2.0),
            Stretch::new(T::DenseWoodland, 2.0),
            Stretch::new(T::Stream, 1.0),
            Stretch::new(T::Marsh, 2.0),
        ];
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        assert_eq!(plan(&req).unwrap().pips_per_die(), 3, "one wood split in two is one feature");
        req.momentum_pips = 1;
        let mv = go(&req, &[6, 2]);
        assert_eq!(mv.score, 2, "6-4 and 2-4 reads as 0, not -2");
    }

    #[test]
    fn carried_csw_loses_a_pip_a_die_even_on_a_stealth_move() {
        let r = open(20.0);
        let mv = go(&MoveRequest::new(Mover::new(MoveClass::CarriedCsw), &r), &[4, 4]);
        assert_eq!(mv.distance, 6.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::CarriedCsw), &r);
        req.mode = MoveMode::Stealth;
        assert_eq!(go(&req, &[4]).distance, 3.0);
    }

    #[test]
    fn stealth_is_1d6_or_2d6_for_elite_on_road_or_cross_country_only() {
        let r = [Stretch::new(T::Road, 20.0)];
        let mut m = Mover::new(MoveClass::Infantry);
        let mut req = MoveRequest::new(m, &r);
        req.mode = MoveMode::Stealth;
        assert_eq!(plan(&req).unwrap().dice, 1);
        m.quality = Quality::Elite;
        req.mover = m;
        assert_eq!(plan(&req).unwrap().dice, 2);
        let town = [Stretch::new(T::BuiltUp, 5.0)];
        req.route = &town;
        assert_eq!(plan(&req), Err(MoveError::Stealth { stretch: Some(0) }));
        let mut req = MoveRequest::new(Mover::new(MoveClass::Tank), &r);
        req.mode = MoveMode::Stealth;
        assert_eq!(plan(&req), Err(MoveError::Stealth { stretch: None }));
    }

    #[test]
    fn at_the_double_doubles_where_the_row_allows_it() {
        let r = open(30.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.pace = Pace::AtTheDouble;
        assert_eq!(go(&req, &[3, 5]).distance, 16.0);
        req.mover = Mover::new(MoveClass::MountedCavalry);
        assert_eq!(go(&req, &[1, 1, 1, 1, 1]).distance, 10.0);
        req.mover = Mover::new(MoveClass::Tank);
        assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::NotInRow(Row::Tank))));
        req.mover = Mover::new(MoveClass::Infantry);
        let town = [Stretch::new(T::BuiltUp, 5.0)];
        req.route = &town;
        assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::NotInRow(Row::InfantryBuiltUp))));
    }

    #[test]
    fn at_the_double_is_barred_by_woods_night_rations_and_concealment() {
        for t in [T::LightWoodland, T::DenseWoodland, T::Mountains, T::Marsh, T::Stream, T::HighWall] {
            let r = [Stretch::new(T::Open, 2.0), Stretch::new(t, 2.0)];
            let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
            req.pace = Pace::AtTheDouble;
            assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::Terrain(t))), "{t:?}");
        }
        let r = open(30.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.pace = Pace::AtTheDouble;
        req.light = Light::Night;
        assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::Night)));
        req.mover.quality = Quality::Elite;
        assert!(plan(&req).is_ok(), "Elite troops ignore the night restrictions");
        req.mover.quality = Quality::Regular;
        req.mover.partisan = true;
        assert!(plan(&req).is_ok(), "and so do Partisans");
        req.light = Light::Daylight;
        req.rationed = true;
        assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::Rationed)));
        req.rationed = false;
        req.concealment = Concealment::ExtractedByAct;
        assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::LeavingConcealment)));
        req.pace = Pace::Normal;
        req.mode = MoveMode::Stealth;
        assert!(plan(&req).is_ok());
    }

    #[test]
    fn overwatch_moves_half_and_pace_follows_the_order() {
        let r = open(30.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.pace = Pace::Overwatch;
        assert_eq!(go(&req, &[3, 4]).distance, 3.5);
        let mut turn = TurnPlan {
            phases: vec![Phase::Move],
            acts: vec![],
            at_the_double: true,
            overwatch: false,
            immobile: false,
        };
        for (double, overwatch) in [(true, false), (false, true), (false, false)] {
            turn.at_the_double = double;
            turn.overwatch = overwatch;
            let factor = check_turn(Phase::Move, &turn).unwrap().movement_factor;
            assert_eq!(Pace::of(&turn).unwrap().factor(), factor);
        }
        turn.at_the_double = true;
        turn.overwatch = true;
        assert_eq!(
            Pace::of(&turn),
            Err(MoveError::AtTheDouble(DoubleBar::Overwatch)),
            "cannot move at the double on Overwatch"
        );
    }

    #[test]
    fn night_halves_the_score_rounding_down() {
        let r = open(30.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.light = Light::Night;
        assert_eq!(go(&req, &[3, 4]).distance, 3.0, "7 halved is 3");
        req.pace = Pace::Overwatch;
        assert_eq!(go(&req, &[3, 4]).distance, 1.5);
        req.pace = Pace::Normal;
        req.mover.quality = Quality::Elite;
        assert_eq!(go(&req, &[3, 4]).distance, 7.0);
    }

    #[test]
    fn damaged_vehicles_move_1d6() {
        let mut m = Mover::new(MoveClass::Tank);
        m.damaged = true;
        let r = [Stretch::new(T::Road, 30.0)];
        let mv = go(&MoveRequest::new(m, &r), &[4]);
        assert_eq!((mv.plan.dice, mv.distance), (1, 4.0));
    }

    #[test]
    fn uphill_in_rain_slows_only_ordinary_wheels_off_road() {
        let hill = [Stretch::uphill(T::Open, 10.0)];
        let wet = BattleWeather::new(Some(3)).unwrap();
        let pips = |class: MoveClass, route: &[Stretch], weather: BattleWeather| {
            let mut req = MoveRequest::new(Mover::new(class), route);
            req.weather = weather;
            plan(&req).unwrap().pips_per_die()
        };
        assert_eq!(pips(MoveClass::MediumTruck, &hill, wet), 1);
        assert_eq!(pips(MoveClass::Motorcycle, &hill, wet), 1);
        assert_eq!(pips(MoveClass::AwdTruck, &hill, wet), 0);
        assert_eq!(pips(MoveClass::HalfTrack, &hill, wet), 0);
        assert_eq!(pips(MoveClass::Tank, &hill, wet), 0);
        assert_eq!(pips(MoveClass::Infantry, &hill, wet), 0, "only vehicles");
        assert_eq!(pips(MoveClass::MediumTruck, &hill, BattleWeather::default()), 0, "gauge not in use");
        assert_eq!(pips(MoveClass::MediumTruck, &[Stretch::uphill(T::Road, 10.0)], wet), 0, "on a road");
        assert_eq!(pips(MoveClass::MediumTruck, &[Stretch::new(T::Open, 10.0)], wet), 0, "not uphill");
        let mut jeep = Mover::new(MoveClass::MilitaryCar);
        jeep.drive = Some(Drive::AllWheelDrive);
        let mut req = MoveRequest::new(jeep, &hill);
        req.weather = wet;
        assert_eq!(plan(&req).unwrap().pips_per_die(), 0, "a Jeep is all wheel drive");
    }

    #[test]
    fn tracks_may_be_lost_on_rough_ground_when_reached() {
        let r = [Stretch::new(T::Open, 4.0), Stretch::new(T::RoughGround, 6.0)];
        let tank = Mover::new(MoveClass::Tank);
        let mv = go(&MoveRequest::new(tank, &r), &[3, 3, 3, 1]);
        assert!(mv.track_lost);
        assert!(!go(&MoveRequest::new(tank, &r), &[3, 3, 3, 2]).track_lost);
        let mv = go(&MoveRequest::new(tank, &r), &[1, 1, 1]);
        assert_eq!((mv.distance, mv.track_lost), (3.0, false), "stopped short: no throw");
        let mv = go(&MoveRequest::new(Mover::new(MoveClass::HalfTrack), &r), &[3, 3, 3, 3]);
        assert!(!mv.track_lost, "only tracked vehicles throw");
    }

    #[test]
    fn goliath_breaks_down_on_a_one_or_two() {
        let r = open(24.0);
        let g = Mover::new(MoveClass::Goliath);
        let mv = go(&MoveRequest::new(g, &r), &[5, 2]);
        assert_eq!((mv.distance, mv.broke_down), (5.0, true));
        assert!(!go(&MoveRequest::new(g, &r), &[5, 3]).broke_down);
    }

    #[test]
    fn rivers_by_size() {
        let small = [Stretch::new(T::SmallRiver, 4.0)];
        let wide = [Stretch::new(T::WideRiver, 10.0)];
        let afloat = |c: MoveClass, r: &[Stretch]| {
            let mut m = Mover::new(c);
            m.in_water = true;
            plan(&MoveRequest::new(m, r)).map(|p| (p.row, p.dice))
        };
        assert_eq!(afloat(MoveClass::MountedCavalry, &small), Ok((Row::Wading, 1)), "cavalry at 1 x D6");
        assert_eq!(afloat(MoveClass::Raft, &small), Ok((Row::Raft, 2)));
        assert_eq!(afloat(MoveClass::Mtb, &wide), Ok((Row::Mtb, 8)));
        assert_eq!(afloat(MoveClass::Schwimmwagen, &wide), Ok((Row::Schwimmwagen, 3)));
        assert!(
            matches!(afloat(MoveClass::Mtb, &small), Err(MoveError::Impassable { .. })),
            "only canoe, rowing boat or raft"
        );
        assert!(
            matches!(afloat(MoveClass::Infantry, &wide), Err(MoveError::Impassable { .. })),
            "no wading a wide river"
        );
        assert!(matches!(afloat(MoveClass::Tank, &small), Err(MoveError::Impassable { .. })));
        let road = [Stretch::new(T::Road, 4.0)];
        assert!(matches!(afloat(MoveClass::PoweredBoat, &road), Err(MoveError::Impassable { .. })));
        let amphibious = [Stretch::new(T::Road, 4.0), Stretch::new(T::WideRiver, 6.0)];
        let p = plan(&MoveRequest::new(Mover::new(MoveClass::Schwimmwagen), &amphibious)).unwrap();
        assert_eq!((p.row, p.dice), (Row::Schwimmwagen, 3));
    }

    #[test]
    fn fords_and_no_go_areas() {
        let ford = |c| [Stretch::new(T::Road, 2.0), Stretch::new(T::Ford(c), 3.0), Stretch::new(T::Road, 2.0)];
        let truck = Mover::new(MoveClass::MediumTruck);
        assert_eq!(plan(&MoveRequest::new(truck, &ford(FordCondition::Normal))).unwrap().pips_per_die(), 0);
        assert_eq!(plan(&MoveRequest::new(truck, &ford(FordCondition::Restricted(2)))).unwrap().pips_per_die(), 2);
        assert!(matches!(
            plan(&MoveRequest::new(truck, &ford(FordCondition::Uncrossable))),
            Err(MoveError::Impassable { stretch: 1, .. })
        ));
        let swamp = [Stretch::new(T::NoGo, 3.0)];
        assert!(plan(&MoveRequest::new(truck, &swamp)).is_err());
        assert!(plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &swamp)).is_ok());
    }

    #[test]
    fn infantry_only_on_sheer_faces_and_in_tunnels() {
        let cliff = [Stretch::new(T::Sheer, 3.0)];
        let p = plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &cliff)).unwrap();
        assert_eq!((p.row, p.dice), (Row::InfantrySheer, 1));
        assert!(plan(&MoveRequest::new(Mover::new(MoveClass::MountedCavalry), &cliff)).is_err());
        let r = open(5.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.mode = MoveMode::Crawl;
        assert_eq!(plan(&req).unwrap().row, Row::InfantryCrawl);
        req.mover = Mover::new(MoveClass::Bicycle);
        assert_eq!(plan(&req), Err(MoveError::Crawl));
    }

    #[test]
    fn momentum_and_concealment_pips() {
        let r = open(20.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.momentum_pips = 1;
        req.concealment = Concealment::LeavesWithoutAct;
        assert_eq!(go(&req, &[4, 5]).distance, 5.0);
        req.concealment = Concealment::ExtractedByAct;
        assert_eq!(go(&req, &[4, 5]).distance, 7.0, "an Act spares the pip");
    }

    #[test]
    fn bad_routes_are_refused() {
        let m = Mover::new(MoveClass::Infantry);
        assert_eq!(plan(&MoveRequest::new(m, &[])), Err(MoveError::EmptyRoute));
        let r = [Stretch::new(T::Open, 2.0), Stretch::new(T::Open, f32::NAN)];
        assert!(matches!(plan(&MoveRequest::new(m, &r)), Err(MoveError::BadLength { stretch: 1, .. })));
        let r = open(-1.0);
        assert!(matches!(plan(&MoveRequest::new(m, &r)), Err(MoveError::BadLength { stretch: 0, .. })));
        let mut truck = Mover::new(MoveClass::LightTruck);
        truck.drive = None;
        assert_eq!(plan(&MoveRequest::new(truck, &open(3.0))), Err(MoveError::DriveMismatch(MoveClass::LightTruck)));
        assert!(MoveError::RiverBankNeedsAnAct { stretch: 2 }.to_string().contains("Act"));
    }

    #[test]
    fn the_event_names_the_rule_dice_and_pips() {
        let r = [Stretch::new(T::Open, 3.0), Stretch::new(T::Stream, 1.0), Stretch::new(T::Open, 9.0)];
        let (mv, e) =
            move_element(&MoveRequest::new(Mover::new(MoveClass::Infantry), &r), &mut Scripted::new([6, 3]), "2/B")
                .unwrap();
        assert_eq!((e.kind, e.rule.book, e.actor.as_deref()), (EventKind::Movement, Book::HeroesAll, Some("2/B")));
        assert_eq!(e.dice.iter().map(|t| t.face).collect::<Vec<_>>(), [6, 3]);
        assert!(e.inputs.iter().any(|i| i.name == "pips"), "{:?}", e.inputs);
        assert_eq!(e.outcome["distance"], serde_json::json!(7.0));
        assert_eq!(mv.distance, 7.0);
    }

    #[test]
    fn distribution_matches_the_dice() {
        let r = open(100.0);
        let p = plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &r)).unwrap();
        let d = p.distribution();
        let mean: f64 = d.iter().map(|&(x, p)| f64::from(x) * p).sum();
        assert!((mean - 7.0).abs() < 1e-9, "{mean}");
        assert!((d.iter().map(|&(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-9);
        assert_eq!(p.max_allowance(), 12.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::CarriedCsw), &r);
        req.light = Light::Night;
        let p = plan(&req).unwrap();
        assert_eq!((p.max_allowance(), d.first().map(|x| x.0)), (5.0, Some(2.0)));
        assert_eq!(p.distribution().first().map(|x| x.0), Some(0.0));
    }

    #[test]
    fn thrown_moves_stay_within_the_plan() {
        let mut dice = Dice::new(11);
        let r = [Stretch::new(T::Road, 10.0), Stretch::new(T::Open, 10.0)];
        for class in [MoveClass::Infantry, MoveClass::Tank, MoveClass::Motorcycle, MoveClass::MountedCavalry] {
            let req = MoveRequest::new(Mover::new(class), &r);
            let max = plan(&req).unwrap().max_allowance();
            for _ in 0..200 {
                let (mv, _) = move_element(&req, &mut dice, "x").unwrap();
                assert!(mv.allowance <= max && mv.distance <= 20.0 && mv.distance <= mv.allowance);
            }
        }
    }

    #[test]
    fn guards_face_by_the_compass_die_and_turn_about_each_bound() {
        let (mut g, e) = face_guard(&mut Scripted::new([3]), "guard");
        assert_eq!(g.facing, Compass::E);
        assert_eq!(e.dice[0].sides, 8);
        g.turn_about();
        assert_eq!(g.facing, Compass::W);
        assert_eq!(Compass::NE.reversed(), Compass::SW);
        assert_eq!(Compass::NW.degrees(), 315.0);
        let (g, _) = face_guard(&mut Scripted::new([8]), "guard");
        assert_eq!(g.facing, Compass::NW);
    }

    #[test]
    fn a_guard_is_re_faced_when_its_nco_passes_a_leadership_test() {
        use crate::officer::{Grade, Rank};
        // A Regular (2) NCO passes on less than his rating + 3: 1 to 4.
        let nco = Officer::new(Rank::Nco, Grade::Regular).unwrap();
        let mut g = Guard { facing: Compass::N };
        let (passed, e) = g.re_face(nco, Compass::E, &mut Scripted::new([4]), "guard");
        assert!(passed);
        assert_eq!(g.facing, Compass::E);
        assert_eq!(e.rule, RuleRef::new(Book::HeroesAll, "Guards"));
        let (passed, _) = g.re_face(nco, Compass::S, &mut Scripted::new([5]), "guard");
        assert!(!passed);
        assert_eq!(g.facing, Compass::E, "a failed test leaves the guard as it was");
        // A Weak (0) NCO needs a 1 or 2.
        let weak = Officer::new(Rank::Nco, Grade::Weak).unwrap();
        assert!(!g.re_face(weak, Compass::S, &mut Scripted::new([3]), "guard").0);
        assert!(g.re_face(weak, Compass::S, &mut Scripted::new([2]), "guard").0);
        assert_eq!(g.facing, Compass::S);
    }

    #[test]
    fn vehicles_keep_their_attitude_through_a_missed_turn() {
        assert_eq!(attitude_at_start(Attitude::Stationary, LastTurn::Moved), Attitude::Moving);
        assert_eq!(attitude_at_start(Attitude::Moving, LastTurn::DidNotMove), Attitude::Stationary);
        assert_eq!(attitude_at_start(Attitude::Moving, LastTurn::MissedTurn), Attitude::Moving);
        assert_eq!(attitude_at_start(Attitude::Stationary, LastTurn::MissedTurn), Attitude::Stationary);
    }
}
