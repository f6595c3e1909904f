//! The route as the caller gives it: stretches of ground ([`Terrain`]) with
//! their lengths in inches, and the pips each feature costs (*Heroes All*,
//! "Move distance modifiers", "Rivers").

use serde::{Deserialize, Serialize};

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
    /// A line of barbed wire crossed: −1 pip per die on foot; a vehicle
    /// drives over it.
    Wire,
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
    pub(super) fn is_cross_country(self) -> bool {
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
    ///
    /// Reading: the book prints no movement penalty for barbed wire ("Hits
    /// on buildings & structures" gives its Defence Value; "Explosives":
    /// "Bangalore Torpedoes create a gap in wire"). Wire is an obstacle higher
    /// than a figure, so men on foot cross it at the high wall's −1 pip per
    /// die; vehicles crush it and lose nothing. Test `wire_slows_men_on_foot`.
    pub fn pips(self, vehicle: bool) -> u8 {
        match self {
            Self::HighWall | Self::DenseWoodland | Self::Marsh => 1 + u8::from(vehicle),
            Self::Stream => 1,
            Self::Wire => u8::from(!vehicle),
            Self::Ford(FordCondition::Restricted(p)) => p,
            _ => 0,
        }
    }

    /// "\"At the double\" moves cannot be taken through light or dense
    /// woodland or jungle, nor in areas designated as mountains or swamp, or
    /// where infantry movement modifiers apply".
    pub(super) fn bars_at_the_double(self) -> bool {
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
