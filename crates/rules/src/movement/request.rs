//! What a move is asked to do: the element that moves ([`Mover`]), its mode
//! and pace, leaving concealment, and the whole request ([`MoveRequest`]).

use serde::{Deserialize, Serialize};

use super::{DoubleBar, Drive, MoveClass, MoveError, Stretch};
use crate::day::{BattleWeather, Light};
use crate::officer::Quality;
use crate::order_dice::TurnPlan;

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
