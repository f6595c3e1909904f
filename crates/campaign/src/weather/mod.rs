//! Weather (FYOW 25 Weather, 26 Winter weather, 27 Desert/Hot weather) and
//! the monthly Chance Cards (FYOW 32).
//!
//! [`throw_day`] is the Umpire's daily weather throw: from the climate, the
//! month and the record carried from the previous day it throws the Weather
//! Marker, the wind, low cloud, the moon and (desert) the sandstorm sessions,
//! and returns a [`DayWeather`] with what the other areas read — the Map
//! Movement Test modifier, flying, the work and tasks penalty, visibility —
//! and the rain/snow gauge to carry to tomorrow. [`flying_permission`] is Air
//! Command's throw; [`night_session_light`] the per-session moon throw; the
//! optional forecast is in [`forecast`]; chance cards in [`chance`].
//!
//! [`throw_day`]: crate::weather::throw_day
//! [`DayWeather`]: crate::weather::DayWeather
//! [`flying_permission`]: crate::weather::flying_permission
//! [`night_session_light`]: crate::weather::night_session_light
//! [`forecast`]: crate::weather::forecast
//! [`chance`]: crate::weather::chance

pub mod chance;
mod common;
mod day;
pub mod forecast;
mod tables;

pub use chance::{
    ChanceDraw, ChanceOutcome, PlayingCard, RallyWho, Rank, SessionSplit, StockpileWho, Suit, draw_chance_card,
};
pub use common::{Climate, Moon, Sky, WeatherError, Wind};
pub use day::{
    CompassPoint, DayWeather, WeatherSpell, WeatherState, flying_permission, flying_section, night_session_light,
    throw_day, throw_wind_direction,
};
pub use tables::{AIRSTRIP_CLOSING_GAUGE, AircraftClass, GaugeEffect, WindBand, WorkPenalty};
