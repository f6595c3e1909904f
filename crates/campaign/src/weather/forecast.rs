//! Weather Forecasting, the optional rule of FYOW 25.4, 26.4 and 27.4.
//!
//! "The above dice throws are used to determine the weather for the next 3
//! days and the Campaign Log is noted with this forecast": a forecast day is
//! thrown ahead with [`crate::weather::throw_day`], each from the forecast
//! before it. On the day itself [`realise_forecast`] throws the two D6 that
//! make the weather better or worse than expected.

use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::weather::common::{Climate, WeatherError, Wind, check_month};
use crate::weather::day::{DayWeather, Thrown, WeatherState, finish_day, rule, throw_sandstorms, throw_sky};
use crate::weather::tables;

/// The marker's change on the first forecast D6: 1 worse, 6 better.
///
/// Reading (FYOW 25.4 against 26.4 and 27.4): 25.4 moves the marker "down 1
/// number" on a 1, 26.4 and 27.4 "up 1 square"; the table prints square 2 at
/// the top, so both are one number down, and a 6 one number up. The
/// marker is held at 2 and 12.
fn marker_change(face: u8) -> i8 {
    match face {
        1 => -1,
        6 => 1,
        _ => 0,
    }
}

/// The wind's change on the second forecast D6. "On a score of 1, no wind
/// becomes light wind and light wind becomes high wind. On a score of 6,
/// heavy wind becomes light wind and light wind becomes no wind."
///
/// Readings: "heavy wind" is the tables' high winds; in the desert the
/// sandstorm takes the place of high winds (27.3 prints it where 25.3 prints
/// high winds); winter's freezing wind is not named and does not change.
fn wind_change(climate: Climate, wind: Wind, face: u8) -> Wind {
    let strong = if climate == Climate::Desert { Wind::Sandstorm } else { Wind::High };
    match (face, wind) {
        (1, Wind::Calm) => Wind::Light,
        (1, Wind::Light) => strong,
        (6, Wind::Light) => Wind::Calm,
        (6, w) if w == strong => Wind::Light,
        (_, w) => w,
    }
}

/// Turns the forecast for today into today's weather (FYOW 25.4, 26.4,
/// 27.4): a D6 for the marker, a D6 for the wind, then the effects worked
/// out from the gauge of the day actually before (`previous`).
///
/// Readings: the change moves today's marker and square; the days still
/// forecast stand as noted in the log. A square whose weather changes throws
/// its low cloud and moon afresh; a wind that becomes a sandstorm throws its
/// sessions then, and one that stops being a sandstorm blows in none.
pub fn realise_forecast(
    roll: &mut impl Roll,
    forecast: &DayWeather,
    previous: Option<&WeatherState>,
) -> Result<(DayWeather, Vec<RuleEvent>), WeatherError> {
    if let Some(p) = previous {
        p.check()?;
    }
    let climate = forecast.climate;
    let mut events = Vec::new();
    let weather_face = roll.d6();
    let wind_face = roll.d6();
    let change = marker_change(weather_face);
    let wind = wind_change(climate, forecast.wind, wind_face);
    events.push(
        RuleEvent::new(EventKind::Weather, rule(climate, "4", "Weather Forecasting"))
            .input("forecast_wind", forecast.wind, "noted in the Campaign Log")
            .input("forecast_squares", forecast.spells.iter().map(|s| s.square).collect::<Vec<_>>(), "")
            .dice(6, &[weather_face, wind_face])
            .outcome(json!({ "marker_change": change, "wind": wind })),
    );
    let mut spells = Vec::with_capacity(forecast.spells.len());
    for spell in &forecast.spells {
        let mut spell = spell.clone();
        if !(2..=12).contains(&spell.marker) || !(2..=12).contains(&spell.square) {
            return Err(WeatherError::BadSquare(spell.square));
        }
        spell.marker = (spell.marker as i8 + change).clamp(2, 12) as u8;
        spell.square = (spell.square as i8 + change).clamp(2, 12) as u8;
        let sky = tables::weather_cell(climate, spell.square, check_month(forecast.month)?);
        if sky != spell.sky {
            spell.sky = sky;
            (spell.low_cloud, spell.moon) = throw_sky(roll, climate, sky, &mut events);
        }
        spells.push(spell);
    }
    let sandstorm_sessions = match (forecast.wind, wind) {
        (Wind::Sandstorm, Wind::Sandstorm) => forecast.sandstorm_sessions.clone(),
        (_, Wind::Sandstorm) => throw_sandstorms(roll, &mut events),
        _ => Vec::new(),
    };
    let thrown = Thrown { spells, wind_band: forecast.wind_band, wind, sandstorm_sessions };
    let weather = finish_day(climate, forecast.month, previous, thrown, &[], &mut events);
    Ok((weather, events))
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;
    use crate::weather::common::{Moon, Sky};
    use crate::weather::day::throw_day;

    fn state(month: u8, marker: u8, gauge: u8) -> WeatherState {
        WeatherState { month, marker, gauge, snow_lying: false }
    }

    #[test]
    fn a_forecast_of_three_days_then_the_day_comes_worse() {
        // Temperate March from square 8: three forecast days, each marker D6 3 and wind D6 6.
        let today = state(3, 8, 2);
        let mut dice = Scripted::new([3, 2, 6, 3, 2, 6, 3, 2, 6]);
        let (d1, _) = throw_day(&mut dice, Climate::Temperate, 3, Some(&today), &[]).unwrap();
        let (d2, _) = throw_day(&mut dice, Climate::Temperate, 3, Some(&d1.carried), &[]).unwrap();
        let (d3, _) = throw_day(&mut dice, Climate::Temperate, 3, Some(&d2.carried), &[]).unwrap();
        assert_eq!(dice.remaining(), 0);
        assert_eq!([&d1, &d2, &d3].map(|d| d.spells[0].sky), [Sky::Fair; 3]);
        // Day 1 comes: a 1 makes it worse (square 7, still Fair), a 1 on the wind: calm → light.
        let mut dice = Scripted::new([1, 1]);
        let (real, events) = realise_forecast(&mut dice, &d1, Some(&today)).unwrap();
        assert_eq!(dice.remaining(), 0, "same sky: no new moon die");
        assert_eq!((real.spells[0].square, real.wind), (7, Wind::Light));
        assert_eq!(real.carried.gauge, 0, "fine with light winds dries 3 from 2");
        assert_eq!(events[0].rule.section, "25.4 Weather Forecasting");
    }

    #[test]
    fn a_changed_square_throws_its_sky_afresh() {
        // Temperate January square 6 Overcast forecast; a 6 moves it to 7, Fair: moon D6 6.
        let forecast_state = state(1, 6, 0);
        let mut dice = Scripted::new([3, 1, 1, 5]);
        let (fc, _) = throw_day(&mut dice, Climate::Temperate, 1, Some(&forecast_state), &[]).unwrap();
        assert_eq!(fc.spells[0].sky, Sky::Overcast);
        let mut dice = Scripted::new([6, 3, 6]);
        let (real, _) = realise_forecast(&mut dice, &fc, Some(&forecast_state)).unwrap();
        assert_eq!(
            (real.spells[0].sky, real.spells[0].moon, real.spells[0].low_cloud),
            (Sky::Fair, Moon::Moonlit, false)
        );
        assert_eq!(real.carried.marker, 7);
    }

    #[test]
    fn wind_changes_as_printed() {
        use Climate::*;
        assert_eq!(wind_change(Temperate, Wind::Calm, 1), Wind::Light);
        assert_eq!(wind_change(Temperate, Wind::Light, 1), Wind::High);
        assert_eq!(wind_change(Temperate, Wind::High, 1), Wind::High);
        assert_eq!(wind_change(Temperate, Wind::High, 6), Wind::Light);
        assert_eq!(wind_change(Temperate, Wind::Light, 6), Wind::Calm);
        assert_eq!(wind_change(Temperate, Wind::Light, 3), Wind::Light);
        assert_eq!(wind_change(Winter, Wind::Freezing, 6), Wind::Freezing);
        assert_eq!(wind_change(Desert, Wind::Light, 1), Wind::Sandstorm);
        assert_eq!(wind_change(Desert, Wind::Sandstorm, 6), Wind::Light);
        assert_eq!([1, 2, 5, 6].map(marker_change), [-1, 0, 0, 1]);
    }

    #[test]
    fn a_wind_that_becomes_a_sandstorm_throws_its_sessions() {
        // Desert May square 7: moon 1, wind 3 → light. Realised: weather 3, wind 1 → sandstorm.
        let s = state(5, 7, 0);
        let mut dice = Scripted::new([3, 1, 3]);
        let (fc, _) = throw_day(&mut dice, Climate::Desert, 5, Some(&s), &[]).unwrap();
        assert_eq!(fc.wind, Wind::Light);
        let mut dice = Scripted::new([3, 1, 2, 2, 5, 1, 2, 3, 4]);
        let (real, _) = realise_forecast(&mut dice, &fc, Some(&s)).unwrap();
        assert_eq!((real.wind, real.sandstorm_sessions.clone()), (Wind::Sandstorm, vec![1]));
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn bad_records_are_refused() {
        let mut dice = Scripted::new([3, 3, 6]);
        let (fc, _) = throw_day(&mut dice, Climate::Temperate, 3, Some(&state(3, 8, 0)), &[]).unwrap();
        let bad = state(3, 8, 12);
        assert_eq!(realise_forecast(&mut Scripted::new([]), &fc, Some(&bad)).unwrap_err(), WeatherError::BadGauge(12));
        let mut broken = fc.clone();
        broken.spells[0].square = 14;
        assert_eq!(
            realise_forecast(&mut Scripted::new([3, 3]), &broken, None).unwrap_err(),
            WeatherError::BadSquare(14)
        );
    }
}
