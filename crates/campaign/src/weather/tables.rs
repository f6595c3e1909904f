//! The printed weather tables of FYOW 25–27 as data: the Weather Tables
//! (square 2..=12 by month), the Wind Tables, the rain/snow gauge effects,
//! the work and tasks penalties and the flying chart.
//!
//! The conversion of the book lost the colour coding of these tables. How
//! each one is rebuilt is written beside it (and in `docs/campaign/weather.md`).

use serde::{Deserialize, Serialize};

use crate::map::common::Light;
use crate::weather::common::{Climate, Sky, Wind};

/// Short names for the cells below, so each table reads like the printed one.
const F: Sky = Sky::Fair;
const O: Sky = Sky::Overcast;
const G: Sky = Sky::Fog;
const L: Sky = Sky::LightRain;
const H: Sky = Sky::HeavyRain;
const S: Sky = Sky::Snow;

/// A Weather Table: row `square - 2`, column `month - 1`.
type WeatherGrid = [[Sky; 12]; 11];

// Reconstruction (FYOW 25.1, 26.1, 27.1): the named cells (Fog, Light rain,
// Heavy rain, Snow) are copied from the book. The blank cells were coloured
// "Overcast" or "Fair" ("Hot/Fair" in the desert) and the colours were lost.
// Reading: a blank cell directly above or below a named cell in the same
// month is Overcast (the marker moves one square a day, so the squares next
// to rain, snow or fog are the cloudy edge of it); every other blank cell is
// Fair. The cells so rebuilt are the F and O below.

/// FYOW 25.1 Weather Table (temperate).
const TEMPERATE: WeatherGrid = [
    //Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec
    [G, G, G, L, L, F, F, L, L, G, G, G], // 2
    [L, L, L, L, O, F, F, O, O, L, L, L], // 3
    [L, L, O, O, F, F, F, F, F, O, L, L], // 4
    [H, O, F, L, O, O, O, O, O, F, O, H], // 5
    [O, F, F, L, L, L, L, L, L, F, F, O], // 6
    [F, F, F, O, O, O, O, O, L, F, F, F], // 7
    [O, O, F, F, F, F, F, F, O, F, O, O], // 8
    [H, L, O, F, F, F, F, F, F, O, L, H], // 9
    [S, H, L, O, O, F, F, O, O, L, H, S], // 10
    [S, S, H, L, L, O, O, L, L, H, S, S], // 11
    [S, S, S, H, H, L, L, H, H, S, S, S], // 12
];

/// FYOW 26.1 Weather Table (winter).
const WINTER: WeatherGrid = [
    //Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec
    [S, S, G, L, L, F, F, L, G, G, S, S], // 2
    [S, S, H, L, O, F, F, O, L, H, S, S], // 3
    [S, S, L, O, F, F, F, F, O, L, S, S], // 4
    [S, L, O, F, F, O, O, O, F, O, L, S], // 5
    [O, O, F, F, F, L, L, L, F, F, O, O], // 6
    [F, F, F, F, F, O, O, O, F, F, F, F], // 7
    [O, O, F, F, F, F, F, F, F, O, O, O], // 8
    [H, L, O, F, F, F, F, F, O, L, L, S], // 9
    [S, H, L, O, O, F, F, O, L, H, H, S], // 10
    [S, S, H, L, L, O, O, L, H, H, S, S], // 11
    [S, S, S, H, H, L, L, H, H, S, S, S], // 12
];

/// FYOW 27.1 Weather Table (desert/hot). `F` is the book's "Hot/Fair".
const DESERT: WeatherGrid = [
    //Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec
    [L, L, L, F, F, F, F, F, F, F, L, L], // 2
    [O, O, O, F, F, F, F, F, F, F, O, O], // 3
    [F, F, F, F, F, F, F, F, F, F, F, F], // 4
    [F, F, F, F, F, F, F, F, F, F, F, F], // 5
    [F, F, F, F, F, F, F, F, F, F, F, F], // 6
    [F, F, F, F, F, F, F, F, F, F, F, F], // 7
    [F, F, F, F, F, F, F, F, F, F, F, F], // 8
    [F, F, F, F, F, F, F, F, F, F, F, F], // 9
    [F, F, F, F, F, F, F, F, F, F, F, F], // 10
    [O, O, F, F, F, F, F, F, F, F, F, F], // 11
    [L, L, F, F, F, F, F, F, F, F, F, F], // 12
];

/// The weather printed on `square` (2..=12) of `month` (1..=12); the caller
/// has checked both ranges.
pub(crate) fn weather_cell(climate: Climate, square: u8, month: u8) -> Sky {
    let grid = match climate {
        Climate::Temperate => &TEMPERATE,
        Climate::Winter => &WINTER,
        Climate::Desert => &DESERT,
    };
    grid[usize::from(square - 2)][usize::from(month - 1)]
}

/// The two colours of a Wind Table: which line under the table is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WindBand {
    /// The first line: "A score of 1 = high winds, 2 or 3 = light winds"
    /// (desert: 1 = sandstorm).
    Settled,
    /// The second line: "A score of 1 or 2 = high winds, 3 or 4 = light winds"
    /// (winter: 1 or 2 = freezing wind, 3 or 4 = high winds, 5 or 6 = light
    /// wind; desert: 1 or 2 = sandstorm).
    Stormy,
}

const A: WindBand = WindBand::Settled;
const B: WindBand = WindBand::Stormy;

/// A Wind Table: one band per month (see the reconstruction below).
type WindRow = [WindBand; 12];

// Reconstruction (FYOW 25.3, 26.3, 27.3): every cell of the three Wind Tables
// lost its colour; only the two legend lines survive. Reading: the stormy
// line is the hard season of each climate, taken from its own Weather Table,
// and holds for every square of the month. Temperate and winter: the months
// whose column holds Snow (October to March) — the winter line includes
// "Freezing wind", which can only belong to the cold months. Desert: the
// months whose column holds no rain (April to October), the hot dry season
// of the sandstorms. The printed grid had a row per square; the reading gives
// every square of a month the same band, so one row per climate is kept.

/// FYOW 25.3 Wind Table (temperate), by month.
const TEMPERATE_WIND: WindRow = [B, B, B, A, A, A, A, A, A, B, B, B];
/// FYOW 26.3 Wind Table (winter), by month.
const WINTER_WIND: WindRow = [B, B, B, A, A, A, A, A, A, B, B, B];
/// FYOW 27.3 Wind Table (desert), by month.
const DESERT_WIND: WindRow = [A, A, A, B, B, B, B, B, B, B, A, A];

/// The Wind Table band of `month` (1..=12, checked by the caller).
pub(crate) fn wind_band(climate: Climate, month: u8) -> WindBand {
    let row = match climate {
        Climate::Temperate => &TEMPERATE_WIND,
        Climate::Winter => &WINTER_WIND,
        Climate::Desert => &DESERT_WIND,
    };
    row[usize::from(month - 1)]
}

/// The wind read from a wind throw (the D6 plus any chance-card change) on
/// the legend lines under FYOW 25.3, 26.3 and 27.3. A total above 6 reads as
/// the calmest result and below 1 as the worst.
pub(crate) fn wind_from_throw(climate: Climate, band: WindBand, total: i16) -> Wind {
    let strong = if climate == Climate::Desert { Wind::Sandstorm } else { Wind::High };
    match (climate, band) {
        (Climate::Winter, WindBand::Stormy) => match total {
            ..=2 => Wind::Freezing,
            3..=4 => Wind::High,
            _ => Wind::Light,
        },
        (_, WindBand::Settled) => match total {
            ..=1 => strong,
            2..=3 => Wind::Light,
            _ => Wind::Calm,
        },
        (_, WindBand::Stormy) => match total {
            ..=2 => strong,
            3..=4 => Wind::Light,
            _ => Wind::Calm,
        },
    }
}

/// The map-movement and supply deductions of the rain/snow gauge
/// (FYOW 25.6, 26.6); the desert does not use the gauge (27.5). "The
/// Rain/snow Gauge does not affect travel at sea or in-shore" (25.5): the
/// movement deduction is for moves over land.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct GaugeEffect {
    /// Added to every Map Board Movement Test D10 (0 or negative).
    pub movement: i8,
    /// Winter, gauge 8 or more: "all movement stops".
    pub all_movement_stops: bool,
    /// Added to every daily supply throw (0 or negative).
    pub supply: i8,
}

impl GaugeEffect {
    /// What a Map Board Movement Test adds to its D10, or `None` when "all
    /// movement stops" (26.6: the winter gauge at 8 or more).
    pub fn movement_test(&self) -> Option<i8> {
        (!self.all_movement_stops).then_some(self.movement)
    }
}

/// FYOW 25.6 / 26.6 Rain/Snow Gauge Effects, by the gauge value.
///
/// Reading (FYOW 26.6): the winter text says "Map Board Movement D6 throws";
/// the Map Movement Test is a D10 (14.5), so the deduction is taken from it.
pub(crate) fn gauge_effect(climate: Climate, gauge: u8) -> GaugeEffect {
    let (movement, all_movement_stops, supply) = match (climate, gauge) {
        (Climate::Desert, _) | (_, 0..=4) => (0, false, 0),
        (Climate::Temperate, 5..=6) => (-1, false, -1),
        (Climate::Temperate, 7) => (-2, false, -1),
        (Climate::Temperate, _) => (-4, false, -2),
        (Climate::Winter, 5..=6) => (-1, false, -1),
        (Climate::Winter, 7) => (-3, false, -2),
        (Climate::Winter, _) => (0, true, -4),
    };
    GaugeEffect { movement, all_movement_stops, supply }
}

/// "When the Rain Gauge reaches 5, airstrips not using tarmac runways are
/// inoperable" (FYOW 25.8, 26.9).
pub const AIRSTRIP_CLOSING_GAUGE: u8 = 5;

/// The deduction from Work and Tasks throws (FYOW 25.7, 26.7, 27.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WorkPenalty {
    /// Pips taken from the total of the dice thrown ("deduct a total of").
    pub total: u8,
    /// Pips taken from each die thrown (desert "Hot/Fair": "deduct 1 pip from
    /// each dice score thrown").
    pub per_die: u8,
}

/// FYOW 25.7 / 26.7 / 27.6 The effect on Work and Tasks.
///
/// Reading (FYOW 26.7): freezing wind is a wind, listed beside the weather
/// rows; on a day of snow or fog with freezing wind both deductions are made.
pub(crate) fn work_penalty(climate: Climate, sky: Sky, wind: Wind) -> WorkPenalty {
    match climate {
        Climate::Desert => WorkPenalty { total: 0, per_die: u8::from(sky == Sky::Fair) },
        Climate::Temperate | Climate::Winter => {
            let weather = match sky {
                Sky::HeavyRain => 2,
                Sky::Snow | Sky::Fog => 3,
                Sky::Fair | Sky::Overcast | Sky::LightRain => 0,
            };
            let freezing = if climate == Climate::Winter && wind == Wind::Freezing { 2 } else { 0 };
            WorkPenalty { total: weather + freezing, per_die: 0 }
        }
    }
}

/// The four columns of the flying chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AircraftClass {
    Aircraft,
    Gliders,
    Paratroops,
    Recce,
}

/// A cell of the flying chart: a required score or modifier, or "no flying".
type Cell = Option<u8>;
const NO: Cell = None;

/// One row of the flying chart: Aircraft, Gliders, Paratroops, Recce.
type ChartRow = [Cell; 4];

/// FYOW 25.8 (repeated as 28.4; used in the desert by 27.7) flying chart.
const TEMPERATE_CHART: FlyingChart = FlyingChart {
    fine: [Some(1), Some(1), Some(1), Some(1)],
    light_rain: [Some(2), Some(2), Some(2), Some(2)],
    heavy_rain: [Some(6), NO, NO, NO],
    snow: [NO, NO, NO, NO],
    fog: [NO, NO, NO, NO],
    light_winds: [Some(1), Some(2), Some(2), Some(1)],
    high_winds: [Some(3), NO, NO, NO],
    freezing_wind: [NO, NO, NO, NO],
    night_no_moon: [Some(1), Some(1), Some(1), NO],
    moonlight: [Some(1), Some(1), Some(1), Some(1)],
};

/// FYOW 26.9 flying chart (winter): light winds read +1/+1/+1/+2 and a
/// freezing wind row.
const WINTER_CHART: FlyingChart = FlyingChart {
    fine: [Some(1), Some(1), Some(1), Some(1)],
    light_rain: [Some(2), Some(2), Some(2), Some(2)],
    heavy_rain: [Some(6), NO, NO, NO],
    snow: [NO, NO, NO, NO],
    fog: [NO, NO, NO, NO],
    light_winds: [Some(1), Some(1), Some(1), Some(2)],
    high_winds: [Some(3), NO, NO, NO],
    freezing_wind: [NO, NO, NO, NO],
    night_no_moon: [Some(1), Some(1), Some(1), NO],
    moonlight: [Some(1), Some(1), Some(1), Some(1)],
};

/// The rows of a flying chart.
struct FlyingChart {
    fine: ChartRow,
    light_rain: ChartRow,
    heavy_rain: ChartRow,
    snow: ChartRow,
    fog: ChartRow,
    light_winds: ChartRow,
    high_winds: ChartRow,
    freezing_wind: ChartRow,
    night_no_moon: ChartRow,
    moonlight: ChartRow,
}

/// The D6 score Air Command needs for `class` to fly (FYOW 25.8, 26.9,
/// 27.7), or `None` for "no flying". The weather row gives the base score and
/// the wind and night rows add to it: "a night with no moon but light rain
/// and high winds, requires a throw of 6 (1 + 2 + 3)". A requirement above 6
/// is returned as it is: only a chance card's +1 can then reach it.
///
/// Reading (FYOW 25.8): "Fine weather" is every dry sky of the Weather Table,
/// Fair (Hot/Fair) and Overcast; an Overcast day's low cloud (a 6) grounds
/// everything and is applied by the caller. Reading (FYOW 27.7): the desert
/// has no chart of its own and "refers to the Aircraft section", whose chart
/// (28.4) is the temperate one; a sandstorm is "no flying" in the sessions it
/// blows and no wind in the others.
pub(crate) fn flying_requirement(
    climate: Climate,
    sky: Sky,
    wind: Wind,
    light: Light,
    class: AircraftClass,
) -> Option<u8> {
    let chart = if climate == Climate::Winter { &WINTER_CHART } else { &TEMPERATE_CHART };
    let column = class as usize;
    let base = match sky {
        Sky::Fair | Sky::Overcast => chart.fine,
        Sky::LightRain => chart.light_rain,
        Sky::HeavyRain => chart.heavy_rain,
        Sky::Snow => chart.snow,
        Sky::Fog => chart.fog,
    }[column]?;
    let wind = match wind {
        Wind::Calm | Wind::Sandstorm => Some(0),
        Wind::Light => chart.light_winds[column],
        Wind::High => chart.high_winds[column],
        Wind::Freezing => chart.freezing_wind[column],
    }?;
    let night = match light {
        Light::Daylight => Some(0),
        Light::NightNoMoon => chart.night_no_moon[column],
        Light::NightMoon => chart.moonlight[column],
    }?;
    Some(base + wind + night)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_cells_are_copied_from_the_book() {
        assert_eq!(weather_cell(Climate::Temperate, 2, 1), Sky::Fog);
        assert_eq!(weather_cell(Climate::Temperate, 5, 1), Sky::HeavyRain);
        assert_eq!(weather_cell(Climate::Temperate, 6, 4), Sky::LightRain);
        assert_eq!(weather_cell(Climate::Temperate, 7, 9), Sky::LightRain);
        assert_eq!(weather_cell(Climate::Temperate, 12, 6), Sky::LightRain);
        assert_eq!(weather_cell(Climate::Winter, 9, 12), Sky::Snow);
        assert_eq!(weather_cell(Climate::Winter, 3, 3), Sky::HeavyRain);
        assert_eq!(weather_cell(Climate::Desert, 2, 11), Sky::LightRain);
        assert_eq!(weather_cell(Climate::Desert, 12, 2), Sky::LightRain);
        assert_eq!(weather_cell(Climate::Desert, 12, 3), Sky::Fair);
    }

    #[test]
    fn blank_cells_beside_weather_are_overcast_and_the_rest_fair() {
        // June, temperate: light rain on 6 and 12, so 5, 7 and 11 are overcast.
        let june: Vec<Sky> = (2..=12).map(|sq| weather_cell(Climate::Temperate, sq, 6)).collect();
        assert_eq!(june, [F, F, F, O, L, O, F, F, F, O, L]);
        // Every blank cell of every table obeys the reading.
        for climate in [Climate::Temperate, Climate::Winter, Climate::Desert] {
            for month in 1..=12 {
                for sq in 2..=12u8 {
                    let named = |s: u8| (2..=12).contains(&s) && !matches!(weather_cell(climate, s, month), F | O);
                    let cell = weather_cell(climate, sq, month);
                    if matches!(cell, F | O) {
                        let beside = named(sq - 1) || named(sq + 1);
                        assert_eq!(cell == O, beside, "{climate:?} {month} {sq}");
                    }
                }
            }
        }
    }

    #[test]
    fn wind_lines_read_as_printed() {
        use Climate::*;
        let settled: Vec<Wind> = (1..=6).map(|t| wind_from_throw(Temperate, A, t)).collect();
        assert_eq!(settled, [Wind::High, Wind::Light, Wind::Light, Wind::Calm, Wind::Calm, Wind::Calm]);
        let stormy: Vec<Wind> = (1..=6).map(|t| wind_from_throw(Temperate, B, t)).collect();
        assert_eq!(stormy, [Wind::High, Wind::High, Wind::Light, Wind::Light, Wind::Calm, Wind::Calm]);
        let winter: Vec<Wind> = (1..=6).map(|t| wind_from_throw(Winter, B, t)).collect();
        assert_eq!(winter, [Wind::Freezing, Wind::Freezing, Wind::High, Wind::High, Wind::Light, Wind::Light]);
        assert_eq!(wind_from_throw(Desert, A, 1), Wind::Sandstorm);
        assert_eq!(wind_from_throw(Desert, B, 2), Wind::Sandstorm);
        assert_eq!(wind_from_throw(Desert, B, 3), Wind::Light);
        // Chance-card totals off the die.
        assert_eq!(wind_from_throw(Temperate, A, 0), Wind::High);
        assert_eq!(wind_from_throw(Winter, B, 7), Wind::Light);
        // Freezing wind only in the cold months.
        assert_eq!(wind_band(Winter, 1), B);
        assert_eq!(wind_band(Winter, 7), A);
        assert_eq!(wind_band(Desert, 5), B);
        assert_eq!(wind_band(Desert, 12), A);
    }

    #[test]
    fn gauge_effects_by_threshold() {
        use Climate::*;
        assert_eq!(gauge_effect(Temperate, 4), GaugeEffect::default());
        assert_eq!(gauge_effect(Temperate, 5), GaugeEffect { movement: -1, all_movement_stops: false, supply: -1 });
        assert_eq!(gauge_effect(Temperate, 7), GaugeEffect { movement: -2, all_movement_stops: false, supply: -1 });
        assert_eq!(gauge_effect(Temperate, 8), GaugeEffect { movement: -4, all_movement_stops: false, supply: -2 });
        assert_eq!(gauge_effect(Winter, 6), GaugeEffect { movement: -1, all_movement_stops: false, supply: -1 });
        assert_eq!(gauge_effect(Winter, 7), GaugeEffect { movement: -3, all_movement_stops: false, supply: -2 });
        assert_eq!(gauge_effect(Winter, 8), GaugeEffect { movement: 0, all_movement_stops: true, supply: -4 });
        assert_eq!(gauge_effect(Desert, 8), GaugeEffect::default());
        // 26.6 "When the rain/snow gauge reaches 8 or more, all movement stops":
        // no Movement Test at all, never an easier one than at 7.
        assert_eq!(gauge_effect(Winter, 7).movement_test(), Some(-3));
        assert_eq!(gauge_effect(Winter, 8).movement_test(), None);
        assert_eq!(gauge_effect(Temperate, 8).movement_test(), Some(-4));
    }

    #[test]
    fn work_penalties_by_climate() {
        use Climate::*;
        assert_eq!(work_penalty(Temperate, Sky::HeavyRain, Wind::Calm).total, 2);
        assert_eq!(work_penalty(Temperate, Sky::Fog, Wind::Calm).total, 3);
        assert_eq!(work_penalty(Temperate, Sky::LightRain, Wind::High), WorkPenalty::default());
        assert_eq!(work_penalty(Winter, Sky::Snow, Wind::Freezing).total, 5);
        assert_eq!(work_penalty(Winter, Sky::Fair, Wind::Freezing).total, 2);
        assert_eq!(work_penalty(Desert, Sky::Fair, Wind::Calm), WorkPenalty { total: 0, per_die: 1 });
        assert_eq!(work_penalty(Desert, Sky::Overcast, Wind::Calm), WorkPenalty::default());
    }

    #[test]
    fn flying_chart_example_night_no_moon_light_rain_high_winds_needs_6() {
        // FYOW 25.8 / 26.9: "a night with no moon but light rain and high winds,
        // requires a throw of 6 (1 + 2 + 3)".
        for climate in [Climate::Temperate, Climate::Winter] {
            let need =
                flying_requirement(climate, Sky::LightRain, Wind::High, Light::NightNoMoon, AircraftClass::Aircraft);
            assert_eq!(need, Some(6));
        }
    }

    #[test]
    fn flying_chart_no_flying_cells() {
        use AircraftClass::*;
        let t = Climate::Temperate;
        assert_eq!(flying_requirement(t, Sky::Fog, Wind::Calm, Light::Daylight, Aircraft), None);
        assert_eq!(flying_requirement(t, Sky::HeavyRain, Wind::Calm, Light::Daylight, Aircraft), Some(6));
        assert_eq!(flying_requirement(t, Sky::HeavyRain, Wind::Calm, Light::Daylight, Gliders), None);
        assert_eq!(flying_requirement(t, Sky::Fair, Wind::High, Light::Daylight, Paratroops), None);
        assert_eq!(flying_requirement(t, Sky::Fair, Wind::Calm, Light::NightNoMoon, Recce), None);
        assert_eq!(flying_requirement(t, Sky::Overcast, Wind::Light, Light::NightMoon, Gliders), Some(4));
        assert_eq!(flying_requirement(Climate::Winter, Sky::Fair, Wind::Light, Light::Daylight, Gliders), Some(2));
        assert_eq!(flying_requirement(Climate::Winter, Sky::Fair, Wind::Light, Light::Daylight, Recce), Some(3));
        assert_eq!(flying_requirement(Climate::Winter, Sky::Fair, Wind::Freezing, Light::Daylight, Aircraft), None);
        assert_eq!(flying_requirement(t, Sky::HeavyRain, Wind::Light, Light::Daylight, Aircraft), Some(7));
        // The desert reads the chart of the Aircraft section (28.4), the temperate one.
        assert_eq!(flying_requirement(Climate::Desert, Sky::Fair, Wind::Light, Light::Daylight, Gliders), Some(3));
    }
}
