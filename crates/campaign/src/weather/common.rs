//! Words the weather rules share: the climate, the sky, the wind and the
//! moon of a day, and the errors the weather rules return.

use std::fmt;

use serde::{Deserialize, Serialize};
use warbound_rules::day::MAX_RAIN_SNOW_GAUGE;

/// Which weather charts the campaign uses (FYOW 25, 26 or 27).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Climate {
    /// FYOW 25: the "European green".
    Temperate,
    /// FYOW 26: Russia, Finland.
    Winter,
    /// FYOW 27: the desert and hot climates.
    Desert,
}

impl Climate {
    /// The section number of this climate's weather rules (25, 26, 27).
    pub(super) fn chapter(self) -> u8 {
        match self {
            Climate::Temperate => 25,
            Climate::Winter => 26,
            Climate::Desert => 27,
        }
    }
}

/// The weather read from a Weather Table square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sky {
    /// A "Fair" cell ("Hot/Fair" in the desert).
    Fair,
    /// An "Overcast" cell: a 6 on a D6 is low cloud, no flying.
    Overcast,
    LightRain,
    HeavyRain,
    Snow,
    Fog,
}

impl Sky {
    /// Fine weather for the gauge and the flying chart: a dry sky, Fair or
    /// Overcast (see the readings of FYOW 25.5 and 25.8).
    pub fn is_fine(self) -> bool {
        matches!(self, Sky::Fair | Sky::Overcast)
    }

    /// Rain or snow: the weather that fills the rain/snow gauge.
    pub fn is_wet(self) -> bool {
        matches!(self, Sky::LightRain | Sky::HeavyRain | Sky::Snow)
    }
}

/// The wind of the day (FYOW 25.3, 26.3, 27.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wind {
    /// No wind.
    Calm,
    Light,
    /// "High winds" (the forecast rule's "heavy wind").
    High,
    /// Winter only.
    Freezing,
    /// Desert only: a sandstorm may blow in some sessions of the day (27.5.2).
    Sandstorm,
}

/// The moon of the night sessions (FYOW 25.2, 26.2, 27.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Moon {
    /// Night observation and Detection are taken as in daylight.
    Moonlit,
    /// Each night session throws a D6 ([`night_session_light`](crate::weather::night_session_light)).
    SomeMoonlight,
    NoMoon,
}

/// Bad input to a weather rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeatherError {
    /// Months run 1 (January) to 12.
    BadMonth(u8),
    /// The Weather Marker stands on a square 2..=12.
    BadSquare(u8),
    /// The rain/snow gauge runs 0..=8.
    BadGauge(u8),
    /// A day has sessions 1..=6.
    BadSession(u8),
    /// A month has days 1..=31; the chance card goes in on day 1..=12.
    BadDay(u8),
}

impl fmt::Display for WeatherError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeatherError::BadMonth(m) => write!(f, "month {m} is not 1 (January) to 12 (December)"),
            WeatherError::BadSquare(s) => write!(f, "the Weather Marker cannot stand on square {s} (2 to 12)"),
            WeatherError::BadGauge(g) => write!(f, "the rain/snow gauge cannot read {g} (0 to {MAX_RAIN_SNOW_GAUGE})"),
            WeatherError::BadSession(s) => write!(f, "session {s} is not one of the day's sessions 1 to 6"),
            WeatherError::BadDay(d) => write!(f, "day {d} is not a day of the month"),
        }
    }
}

impl std::error::Error for WeatherError {}

/// Checks a month number 1..=12.
pub(super) fn check_month(month: u8) -> Result<u8, WeatherError> {
    if (1..=12).contains(&month) { Ok(month) } else { Err(WeatherError::BadMonth(month)) }
}
