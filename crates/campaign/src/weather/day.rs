//! The day's weather throw (FYOW 25.1–25.8, 26.1–26.9, 27.1–27.7).

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::day::{MAX_RAIN_SNOW_GAUGE, SESSIONS_PER_DAY};
use warbound_rules::dice::Roll;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::map::common::{Light, LightWords};
use crate::weather::chance::{ChanceOutcome, SessionSplit};
use crate::weather::common::{Climate, Moon, Sky, WeatherError, Wind, check_month};
use crate::weather::tables::{self, AIRSTRIP_CLOSING_GAUGE, AircraftClass, GaugeEffect, WindBand, WorkPenalty};

/// The light of a session as the weather rules' events name it.
static LIGHT_WORDS: LightWords = LightWords(["Day", "NightMoonlit", "NightNoMoon"]);

/// What the Campaign Log carries from one day's weather to the next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeatherState {
    /// The month (1..=12) the Weather Marker was placed for.
    pub month: u8,
    /// The Weather Marker's square, 2..=12.
    pub marker: u8,
    /// The rain/snow gauge after the end-of-day adjustment, 0..=8 ("carried
    /// forward from one month to the next"; unused in the desert).
    pub gauge: u8,
    /// Snow fell and no fine day has followed yet: "After a day of snow, the
    /// first fine day and any wind effect is ignored" (25.5, 26.5).
    pub snow_lying: bool,
}

impl WeatherState {
    pub(crate) fn check(&self) -> Result<(), WeatherError> {
        check_month(self.month)?;
        if !(2..=12).contains(&self.marker) {
            return Err(WeatherError::BadSquare(self.marker));
        }
        if self.gauge > MAX_RAIN_SNOW_GAUGE {
            return Err(WeatherError::BadGauge(self.gauge));
        }
        Ok(())
    }
}

/// The weather of some sessions of the day: the whole day, or one part of a
/// day split by a 10 or 9 chance card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeatherSpell {
    pub first_session: u8,
    pub last_session: u8,
    /// The Weather Marker after this spell's throw.
    pub marker: u8,
    /// The square read: the marker moved by a King chance card for today.
    pub square: u8,
    pub sky: Sky,
    /// Overcast and a 6: "low cloud so no flying".
    pub low_cloud: bool,
    pub moon: Moon,
    /// The deduction from Work and Tasks throws.
    pub work: WorkPenalty,
    /// The Map Movement Test and supply deductions of the rain/snow gauge (or,
    /// in the desert, of light rain, 27.5.1) in these sessions.
    pub travel: GaugeEffect,
}

/// The day's weather: what the other areas of the campaign read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayWeather {
    pub climate: Climate,
    pub month: u8,
    /// One spell for the whole day, or two or three on a split day.
    pub spells: Vec<WeatherSpell>,
    pub wind_band: WindBand,
    /// The day's wind. A [`Wind::Sandstorm`] blows only in `sandstorm_sessions`.
    pub wind: Wind,
    /// The sessions in which a sandstorm blows (27.5.2).
    pub sandstorm_sessions: Vec<u8>,
    /// The gauge at the start of the day, which sets the day's deductions.
    pub gauge_at_start: u8,
    /// "When the Rain Gauge reaches 5, airstrips not using tarmac runways are
    /// inoperable."
    pub unmetalled_airstrips_closed: bool,
    /// The record for tomorrow, the gauge adjusted at the end of today.
    pub carried: WeatherState,
}

impl DayWeather {
    /// The spell covering `session` (1..=6).
    pub fn spell(&self, session: u8) -> Result<&WeatherSpell, WeatherError> {
        self.spells
            .iter()
            .find(|s| (s.first_session..=s.last_session).contains(&session))
            .ok_or(WeatherError::BadSession(session))
    }

    /// The wind blowing in `session`: a sandstorm day has a sandstorm in the
    /// sessions it blows and no wind in the others.
    ///
    /// Reading (FYOW 27.5): "A sandstorm also affects movement as shown in the
    /// table below", but no table gives a figure. The sandstorm takes the place
    /// of high winds in the desert Wind Table, so in the sessions it blows the
    /// Map Movement Test reads the High winds column for it.
    pub fn wind_in_session(&self, session: u8) -> Result<Wind, WeatherError> {
        self.spell(session)?;
        Ok(match self.wind {
            Wind::Sandstorm if !self.sandstorm_sessions.contains(&session) => Wind::Calm,
            wind => wind,
        })
    }

    /// The D6 score Air Command needs for `class` to fly in `session`, or
    /// `None` for no flying (low cloud, a sandstorm blowing, or the chart).
    pub fn flying_requirement(
        &self,
        session: u8,
        class: AircraftClass,
        light: Light,
    ) -> Result<Option<u8>, WeatherError> {
        let spell = self.spell(session)?;
        let wind = self.wind_in_session(session)?;
        if spell.low_cloud || wind == Wind::Sandstorm {
            return Ok(None);
        }
        Ok(tables::flying_requirement(self.climate, spell.sky, wind, light, class))
    }

    /// The deduction from the day's supply throws. Reading (FYOW 32, cards 10
    /// and 9): on a split day the worst spell counts, as supply is thrown once
    /// a day.
    pub fn supply_modifier(&self) -> i8 {
        self.spells.iter().map(|s| s.travel.supply).min().unwrap_or(0)
    }
}

/// The eight points of the "Compass" dice, 1 = N clockwise to 8 = NW.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CompassPoint {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

const COMPASS: [CompassPoint; 8] = [
    CompassPoint::N,
    CompassPoint::NE,
    CompassPoint::E,
    CompassPoint::SE,
    CompassPoint::S,
    CompassPoint::SW,
    CompassPoint::W,
    CompassPoint::NW,
];

/// FYOW 25.3 / 26.3 / 27.3.1: where the theatre has no prevailing wind "a
/// "Compass" dice (D8), or an ordinary D8 can be used to determine the
/// direction of the wind" (for sailing ships, parachute or glider landings
/// and smoke shells).
pub fn throw_wind_direction(roll: &mut impl Roll, climate: Climate) -> (CompassPoint, RuleEvent) {
    let face = roll.d8();
    let point = COMPASS[usize::from(face - 1)];
    let event = RuleEvent::new(EventKind::Weather, rule(climate, "3", "Wind Table"))
        .input("prevailing_wind", false, "no prevailing wind: the Compass dice")
        .dice(8, &[face])
        .outcome(point);
    (point, event)
}

/// The sum of today's chance-card changes of one kind (normally one card).
fn card_sum(today: &[ChanceOutcome], f: impl Fn(&ChanceOutcome) -> Option<i16>) -> i16 {
    today.iter().filter_map(f).fold(0, i16::saturating_add)
}

pub(crate) fn rule(climate: Climate, number: &str, title: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnWars, format!("{}.{number} {title}", climate.chapter()))
}

/// Throws the day's weather (FYOW 25, 26, 27) for `climate` in `month`
/// (1..=12), carrying on from `previous` (`None` on the campaign's first day).
///
/// The dice, in order: for each spell the Weather Marker (2D6 placing it on
/// the first day of a month, else 1D6 moving it), then a D6 for low cloud if
/// the square is Overcast and a D6 for the moon where the square's legend
/// has one; then the wind D6; then, on a sandstorm day, the sandstorm dice
/// session by session. `today` holds the outcome of the chance card in
/// today's diary box, if any, and `SplitWeather(Halves)` for a campaign that
/// plays "2 x half-days of 3 sessions" (FYOW 25, 26, 27).
///
/// Readings:
/// - FYOW 25.1 says "Each day, throw 3D6", then reads a score of 1, 2, 5 or
///   6, which three dice cannot make; 26.1 and 27.1 say 1D6. The marker moves
///   on one D6 (5 or 6 up a number, 1 or 2 down, held at 2 and 12); the other
///   daily dice are the wind and moon throws.
/// - "At the start of each month, throw 2D6": on the first day of a month
///   (a month other than `previous`'s) the marker is placed, not moved.
/// - Moon (25.1, 26.1, 27.1 legends): Fair, a D6: 6 moonlight, 5 some
///   moonlight (desert "Hot/Fair": 4–6 moonlight); temperate Overcast, a D6:
///   4+ moonlight (the line printed under "Overcast"); winter and desert
///   Overcast have no moon line and are moonless; rain, snow and fog nights
///   are moonless.
/// - Wind: the Wind Table is a separate chart from the Weather Table, so a
///   split day (cards 10 and 9: "the weather chart throw is taken for
///   sessions ...") throws the marker, low cloud and moon per spell and the
///   wind once.
pub fn throw_day(
    roll: &mut impl Roll,
    climate: Climate,
    month: u8,
    previous: Option<&WeatherState>,
    today: &[ChanceOutcome],
) -> Result<(DayWeather, Vec<RuleEvent>), WeatherError> {
    let month = check_month(month)?;
    if let Some(p) = previous {
        p.check()?;
    }
    let mut events = Vec::new();
    let steps = card_sum(today, |c| match c {
        ChanceOutcome::WeatherSteps(n) => Some(i16::from(*n)),
        _ => None,
    });
    let splits = |split| today.contains(&ChanceOutcome::SplitWeather(split));
    let spans: &[(u8, u8)] = if splits(SessionSplit::Thirds) {
        &[(1, 2), (3, 4), (5, 6)]
    } else if splits(SessionSplit::Halves) {
        &[(1, 3), (4, 6)]
    } else {
        &[(1, SESSIONS_PER_DAY)]
    };
    let mut marker = previous.filter(|p| p.month == month).map(|p| p.marker);
    let mut spells = Vec::new();
    for &(first, last) in spans {
        let (placed, event) = throw_marker(roll, climate, month, marker, steps);
        events.push(event.input("sessions", [first, last], "the sessions this throw covers"));
        marker = Some(placed.marker);
        let (low_cloud, moon) = throw_sky(roll, climate, placed.sky, &mut events);
        spells.push(WeatherSpell {
            first_session: first,
            last_session: last,
            marker: placed.marker,
            square: placed.square,
            sky: placed.sky,
            low_cloud,
            moon,
            work: WorkPenalty::default(),
            travel: GaugeEffect::default(),
        });
    }
    let (wind_band, wind, event) = throw_wind(roll, climate, month, today);
    events.push(event);
    let sandstorm_sessions = if wind == Wind::Sandstorm { throw_sandstorms(roll, &mut events) } else { Vec::new() };
    let thrown = Thrown { spells, wind_band, wind, sandstorm_sessions };
    Ok((finish_day(climate, month, previous, thrown, today, &mut events), events))
}

/// The day's throws before the effects are worked out.
pub(crate) struct Thrown {
    pub(crate) spells: Vec<WeatherSpell>,
    pub(crate) wind_band: WindBand,
    pub(crate) wind: Wind,
    pub(crate) sandstorm_sessions: Vec<u8>,
}

/// Works out the effects of the day's weather — work, travel, airstrips —
/// from the gauge carried from `previous`, and adjusts the gauge at the end
/// of the day (not in the desert).
pub(crate) fn finish_day(
    climate: Climate,
    month: u8,
    previous: Option<&WeatherState>,
    thrown: Thrown,
    today: &[ChanceOutcome],
    events: &mut Vec<RuleEvent>,
) -> DayWeather {
    let Thrown { mut spells, wind_band, wind, sandstorm_sessions } = thrown;
    let gauge_at_start = previous.map_or(0, |p| p.gauge);
    let gauge = tables::gauge_effect(climate, gauge_at_start);
    for spell in &mut spells {
        spell.work = tables::work_penalty(climate, spell.sky, wind);
        spell.travel = if climate == Climate::Desert && spell.sky == Sky::LightRain {
            // FYOW 27.5.1: light rain deducts 1 from the Map Board Movement
            // throws (a D10, 14.5, though the text says D6) and 1 pip from the
            // daily supply throws.
            GaugeEffect { movement: -1, all_movement_stops: false, supply: -1 }
        } else {
            gauge
        };
    }
    let (carried_gauge, snow_lying) = if climate == Climate::Desert {
        (gauge_at_start, false)
    } else {
        let (end, snow_lying, event) = adjust_gauge(climate, previous, &spells, wind, today);
        events.push(event);
        (end, snow_lying)
    };
    let last_marker = spells.last().map_or(2, |s| s.marker);
    DayWeather {
        climate,
        month,
        spells,
        wind_band,
        wind,
        sandstorm_sessions,
        gauge_at_start,
        unmetalled_airstrips_closed: climate != Climate::Desert && gauge_at_start >= AIRSTRIP_CLOSING_GAUGE,
        carried: WeatherState { month, marker: last_marker, gauge: carried_gauge, snow_lying },
    }
}

/// A Weather Marker throw's result.
struct Placed {
    marker: u8,
    square: u8,
    sky: Sky,
}

/// FYOW 25.1 / 26.1 / 27.1: the monthly 2D6 placing the marker, or the daily
/// D6 moving it. `steps` is a King chance card's shift for today only.
///
/// Reading (FYOW 32, Kings): "Weather up 2 steps today" moves the square read
/// today, held at 2 and 12; the marker itself stays where the throw left it
/// ("Cards affect one day only"). "Up" is up a number, as in 25.1's "moves
/// the Weather Marker up one number".
fn throw_marker(
    roll: &mut impl Roll,
    climate: Climate,
    month: u8,
    marker: Option<u8>,
    steps: i16,
) -> (Placed, RuleEvent) {
    let event = RuleEvent::new(EventKind::Weather, rule(climate, "1", "Weather Table"))
        .input("climate", climate, "the campaign's weather charts")
        .input("month", month, "the column read");
    let (marker, event) = match marker {
        None => {
            let faces = roll.throw(2, 6);
            let square = faces[0] + faces[1];
            (square, event.input("placed", true, "the start of a month: 2D6 place the marker").dice(6, &faces))
        }
        Some(from) => {
            let face = roll.d6();
            let to = match face {
                5..=6 => (from + 1).min(12),
                1..=2 => (from - 1).max(2),
                _ => from,
            };
            (to, event.input("from", from, "yesterday's square").dice(6, &[face]))
        }
    };
    let square = (i16::from(marker) + steps).clamp(2, 12) as u8;
    let sky = tables::weather_cell(climate, square, month);
    let event = event
        .input("card_steps", steps, "a King chance card moves today's square")
        .outcome(json!({ "marker": marker, "square": square, "sky": sky }));
    (Placed { marker, square, sky }, event)
}

/// The legend under the Weather Table: low cloud on an Overcast square, and
/// the moon.
pub(crate) fn throw_sky(roll: &mut impl Roll, climate: Climate, sky: Sky, events: &mut Vec<RuleEvent>) -> (bool, Moon) {
    let mut low_cloud = false;
    if sky == Sky::Overcast {
        let face = roll.d6();
        low_cloud = face == 6;
        events.push(
            RuleEvent::new(EventKind::Weather, rule(climate, "1", "Weather Table"))
                .input("sky", sky, "Overcast: 6 = low cloud so no flying")
                .dice(6, &[face])
                .outcome(json!({ "low_cloud": low_cloud })),
        );
    }
    let thrown = |face: u8| match (climate, sky, face) {
        (Climate::Desert, Sky::Fair, 4..=6) => Moon::Moonlit,
        (Climate::Desert, _, _) => Moon::NoMoon,
        (_, Sky::Fair, 6) => Moon::Moonlit,
        (_, Sky::Fair, 5) => Moon::SomeMoonlight,
        (Climate::Temperate, Sky::Overcast, 4..=6) => Moon::Moonlit,
        _ => Moon::NoMoon,
    };
    let has_moon_line = sky == Sky::Fair || (climate == Climate::Temperate && sky == Sky::Overcast);
    let moon = if has_moon_line {
        let face = roll.d6();
        let moon = thrown(face);
        events.push(
            RuleEvent::new(EventKind::Weather, rule(climate, "2", "Moonlight"))
                .input("sky", sky, "the legend under the Weather Table gives a moon throw")
                .dice(6, &[face])
                .outcome(moon),
        );
        moon
    } else {
        Moon::NoMoon
    };
    (low_cloud, moon)
}

/// FYOW 25.3 / 26.3 / 27.3 Wind Table: a D6 read on the month's band, with a
/// Queen chance card's change.
fn throw_wind(
    roll: &mut impl Roll,
    climate: Climate,
    month: u8,
    today: &[ChanceOutcome],
) -> (WindBand, Wind, RuleEvent) {
    let band = tables::wind_band(climate, month);
    let change = card_sum(today, |c| match c {
        ChanceOutcome::WindThrow(n) => Some(i16::from(*n)),
        _ => None,
    });
    let face = roll.d6();
    let wind = tables::wind_from_throw(climate, band, i16::from(face) + change);
    let event = RuleEvent::new(EventKind::Weather, rule(climate, "3", "Wind Table"))
        .input("band", band, "the month's line under the Wind Table (reconstructed)")
        .input("card_change", change, "a Queen chance card changes today's wind throw")
        .dice(6, &[face])
        .outcome(wind);
    (band, wind, event)
}

/// FYOW 27.5.2 Sandstorm effects: 3D6 at the start of each session, a double
/// brings the sandstorm; while it blows, 4D6 and a double keeps it; once it
/// stops no more dice are thrown ("only one sandstorm per campaign day").
pub(crate) fn throw_sandstorms(roll: &mut impl Roll, events: &mut Vec<RuleEvent>) -> Vec<u8> {
    let mut blowing = Vec::new();
    let mut blew_last = false;
    for session in 1..=SESSIONS_PER_DAY {
        let n = if blew_last { 4 } else { 3 };
        let faces = roll.throw(n, 6);
        let double = faces.iter().enumerate().any(|(i, f)| faces[i + 1..].contains(f));
        events.push(
            RuleEvent::new(EventKind::Weather, RuleRef::new(Book::FightYourOwnWars, "27.5.2 Sandstorm effects"))
                .input("session", session, "")
                .input("blew_last_session", blew_last, "4D6 to continue, 3D6 to arrive")
                .dice(6, &faces)
                .outcome(json!({ "sandstorm": double })),
        );
        if double {
            blowing.push(session);
        } else if blew_last {
            break;
        }
        blew_last = double;
    }
    blowing
}

/// The rain/snow gauge change of one spell's weather (FYOW 25.5, 26.5).
///
/// Reading: "Add 1 ... if the day is also subject to high winds" (and 2 for
/// freezing wind) follows the rain and snow lines: the wind adds to a day of
/// rain or snow. A fine day reduces the gauge by 2, or 3 with light winds; a
/// fine day with high or freezing wind reduces it by 2. Fog neither fills nor
/// dries the gauge.
fn gauge_change(sky: Sky, wind: Wind) -> i8 {
    let wet = match sky {
        Sky::LightRain | Sky::Snow => 1,
        Sky::HeavyRain => 2,
        Sky::Fair | Sky::Overcast => return if wind == Wind::Light { -3 } else { -2 },
        Sky::Fog => return 0,
    };
    wet + match wind {
        Wind::High => 1,
        Wind::Freezing => 2,
        Wind::Calm | Wind::Light | Wind::Sandstorm => 0,
    }
}

/// The end-of-day gauge adjustment (FYOW 25.5, 26.5) with a Jack chance card.
///
/// Readings: on a split day the wettest spell sets the change (a day with any
/// heavy rain is a day of heavy rain). "After a day of snow, the first fine
/// day and any wind effect is ignored": the first wholly fine day after snow
/// leaves the gauge as it is. Jacks: "if it rains today" is any rain or snow,
/// which is what the rain/snow gauge counts. The gauge is held between 0 and 8.
fn adjust_gauge(
    climate: Climate,
    previous: Option<&WeatherState>,
    spells: &[WeatherSpell],
    wind: Wind,
    today: &[ChanceOutcome],
) -> (u8, bool, RuleEvent) {
    let start = previous.map_or(0, |p| p.gauge);
    let lying = previous.is_some_and(|p| p.snow_lying);
    let wettest = spells.iter().map(|s| gauge_change(s.sky, wind)).max().unwrap_or(0);
    let any_wet = spells.iter().any(|s| s.sky.is_wet());
    let all_fine = spells.iter().all(|s| s.sky.is_fine());
    let first_fine_after_snow = lying && all_fine;
    let mut change = if first_fine_after_snow { 0 } else { i16::from(wettest) };
    let extra = card_sum(today, |c| match c {
        ChanceOutcome::GaugeIfWet(n) if any_wet => Some(i16::from(*n)),
        ChanceOutcome::GaugeIfDry(n) if !any_wet => Some(-i16::from(*n)),
        _ => None,
    });
    change += extra;
    let end = (i16::from(start) + change).clamp(0, i16::from(MAX_RAIN_SNOW_GAUGE)) as u8;
    let snow_lying = spells.iter().any(|s| s.sky == Sky::Snow) || (lying && !first_fine_after_snow);
    let event = RuleEvent::new(EventKind::Weather, rule(climate, "5", "The effect of travel"))
        .input("gauge_at_start", start, "")
        .input("skies", spells.iter().map(|s| s.sky).collect::<Vec<_>>(), "the day's weather")
        .input("wind", wind, "")
        .input("first_fine_day_after_snow", first_fine_after_snow, "ignored after a day of snow")
        .input("card_extra", extra, "a Jack chance card")
        .outcome(json!({ "change": change, "gauge": end, "snow_lying": snow_lying }));
    (end, snow_lying, event)
}

/// FYOW 25.2 / 26.2: the light of a night `session`. A moonlit night is
/// moonlit, a moonless one dark; on a night of "some moonlight" a D6 is thrown
/// for the session: 4+ (temperate) or 6 (winter) and it is moonlit.
pub fn night_session_light(
    roll: &mut impl Roll,
    weather: &DayWeather,
    session: u8,
) -> Result<(Light, RuleEvent), WeatherError> {
    let spell = weather.spell(session)?;
    let event = RuleEvent::new(EventKind::Weather, rule(weather.climate, "2", "Moonlight"))
        .input("session", session, "a night session")
        .input("moon", spell.moon, "");
    let (light, event) = match spell.moon {
        Moon::Moonlit => (Light::NightMoon, event),
        Moon::NoMoon => (Light::NightNoMoon, event),
        Moon::SomeMoonlight => {
            let face = roll.d6();
            let needed = if weather.climate == Climate::Winter { 6 } else { 4 };
            let light = if face >= needed { Light::NightMoon } else { Light::NightNoMoon };
            (light, event.input("needed", needed, "some moonlight: the session is moonlit on this").dice(6, &[face]))
        }
    };
    Ok((light, event.outcome(LIGHT_WORDS.word(light))))
}

/// Air Command's D6 "to determine whether or not flying is permitted"
/// (FYOW 25.8, 26.9, 27.7; 28.4) for `class` in `session`. `today` may hold a 3 of
/// Spades or Diamonds in today's diary box (the throw −1 or +1). No die is
/// thrown where the chart says no flying.
///
/// The section of the climate's weather rules on flying: FYOW 25.8, 26.9 or 27.7.
pub fn flying_section(climate: Climate) -> &'static str {
    match climate {
        Climate::Winter => "26.9 The effect of weather on flying",
        Climate::Temperate => "25.8 The effect of weather on flying",
        Climate::Desert => "27.7 The effect of weather on flying",
    }
}

/// Reading (FYOW 25.8 against 28.4): 25.8 throws "for each session", 28.4
/// "for each day"; the throw is made for the session asked, so a caller
/// following 28.4 throws once for the day's first flying session.
pub fn flying_permission(
    roll: &mut impl Roll,
    weather: &DayWeather,
    session: u8,
    class: AircraftClass,
    light: Light,
    today: &[ChanceOutcome],
    air_command: &str,
) -> Result<(bool, RuleEvent), WeatherError> {
    let needed = weather.flying_requirement(session, class, light)?;
    let section = flying_section(weather.climate);
    let change = card_sum(today, |c| match c {
        ChanceOutcome::FlyingPermission(n) => Some(i16::from(*n)),
        _ => None,
    });
    let event = RuleEvent::new(EventKind::AirOperation, RuleRef::new(Book::FightYourOwnWars, section))
        .actor(air_command)
        .input("session", session, "")
        .input("class", class, "the chart's column")
        .input("light", LIGHT_WORDS.word(light), "day, or night with or without moon")
        .input("needed", needed, "the chart's score; null is no flying")
        .input("card_change", change, "a 3 chance card");
    let Some(needed) = needed else {
        return Ok((false, event.outcome(json!({ "flying": false }))));
    };
    let face = roll.d6();
    let flying = i16::from(face) + change >= i16::from(needed);
    Ok((flying, event.dice(6, &[face]).outcome(json!({ "flying": flying }))))
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;
    use crate::weather::common::Climate::*;

    fn state(month: u8, marker: u8, gauge: u8) -> WeatherState {
        WeatherState { month, marker, gauge, snow_lying: false }
    }

    #[test]
    fn first_day_of_a_month_places_the_marker_with_2d6() {
        // January, 2D6 = 1 + 1 → square 2, Fog; wind D6 4 (stormy band: calm).
        let mut dice = Scripted::new([1, 1, 6]);
        let (day, events) = throw_day(&mut dice, Temperate, 1, None, &[]).unwrap();
        assert_eq!(dice.remaining(), 0);
        assert_eq!((day.spells[0].marker, day.spells[0].sky), (2, Sky::Fog));
        assert_eq!(day.spells[0].moon, Moon::NoMoon, "fog nights are moonless");
        assert_eq!(day.spells[0].work.total, 3);
        assert_eq!(day.wind, Wind::Calm);
        assert_eq!(events[0].dice.len(), 2);
        assert_eq!(events[0].rule.section, "25.1 Weather Table");
        // A new month places the marker again, even with a record carried.
        let prev = state(12, 12, 0);
        let mut dice = Scripted::new([3, 4, 5, 6]);
        let (day, _) = throw_day(&mut dice, Temperate, 1, Some(&prev), &[]).unwrap();
        assert_eq!((day.spells[0].marker, day.spells[0].sky), (7, Sky::Fair));
        assert_eq!(day.spells[0].moon, Moon::SomeMoonlight, "fair, moon D6 5");
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn daily_throw_moves_the_marker_and_holds_it_at_2_and_12() {
        let cases = [(7, 5, 8), (7, 6, 8), (7, 1, 6), (7, 2, 6), (7, 3, 7), (7, 4, 7), (2, 1, 2), (12, 6, 12)];
        for (from, face, to) in cases {
            let mut dice = Scripted::new([face, 6, 6, 6]);
            let (day, _) = throw_day(&mut dice, Winter, 7, Some(&state(7, from, 0)), &[]).unwrap();
            assert_eq!(day.spells[0].marker, to, "from {from} with {face}");
            assert_eq!(day.carried.marker, to);
        }
    }

    #[test]
    fn overcast_throws_low_cloud_then_the_temperate_moon() {
        // June square 7 is Overcast: D6 6 low cloud, moon D6 4 → moonlit; wind 6.
        let mut dice = Scripted::new([3, 6, 4, 6]);
        let (day, events) = throw_day(&mut dice, Temperate, 6, Some(&state(6, 7, 0)), &[]).unwrap();
        let spell = &day.spells[0];
        assert_eq!((spell.sky, spell.low_cloud, spell.moon), (Sky::Overcast, true, Moon::Moonlit));
        assert_eq!(day.flying_requirement(3, AircraftClass::Aircraft, Light::Daylight), Ok(None));
        assert_eq!(events.len(), 5, "marker, low cloud, moon, wind, gauge");
        // Winter overcast has no moon line: no moon die.
        let mut dice = Scripted::new([3, 2, 6]);
        let (day, _) = throw_day(&mut dice, Winter, 6, Some(&state(6, 7, 0)), &[]).unwrap();
        assert_eq!(
            (day.spells[0].sky, day.spells[0].low_cloud, day.spells[0].moon),
            (Sky::Overcast, false, Moon::NoMoon)
        );
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn desert_hot_fair_moon_on_4_to_6_and_a_work_pip_per_die() {
        let mut dice = Scripted::new([4, 4, 6]);
        let (day, _) = throw_day(&mut dice, Desert, 7, Some(&state(7, 7, 0)), &[]).unwrap();
        assert_eq!((day.spells[0].sky, day.spells[0].moon), (Sky::Fair, Moon::Moonlit));
        assert_eq!(day.spells[0].work, WorkPenalty { total: 0, per_die: 1 });
        assert_eq!(day.carried.gauge, 0, "no gauge in the desert");
    }

    #[test]
    fn desert_light_rain_deducts_movement_and_supply() {
        // January square 2 is light rain: marker 3 → 2 on a 1; wind 6.
        let mut dice = Scripted::new([1, 6]);
        let (day, events) = throw_day(&mut dice, Desert, 1, Some(&state(1, 3, 0)), &[]).unwrap();
        assert_eq!(day.spells[0].sky, Sky::LightRain);
        assert_eq!(day.spells[0].travel, GaugeEffect { movement: -1, all_movement_stops: false, supply: -1 });
        assert_eq!(day.supply_modifier(), -1);
        assert!(events.iter().all(|e| !e.rule.section.contains("travel")), "no gauge event");
    }

    #[test]
    fn sandstorm_example_arrives_in_session_2_and_stops_in_session_4() {
        // FYOW 27.5.2 example. May, stormy band: wind D6 1 → sandstorm.
        let mut dice = Scripted::new([3, 4, 1, 3, 5, 6, 3, 3, 4, 1, 1, 4, 5, 1, 3, 5, 6]);
        let (day, events) = throw_day(&mut dice, Desert, 5, Some(&state(5, 7, 0)), &[]).unwrap();
        assert_eq!(dice.remaining(), 0, "no dice for the 5th and 6th sessions");
        assert_eq!(day.wind, Wind::Sandstorm);
        assert_eq!(day.sandstorm_sessions, [2, 3]);
        let storms: Vec<_> = events.iter().filter(|e| e.rule.section == "27.5.2 Sandstorm effects").collect();
        assert_eq!(storms.iter().map(|e| e.dice.len()).collect::<Vec<_>>(), [3, 3, 4, 4]);
        assert_eq!(day.wind_in_session(2), Ok(Wind::Sandstorm));
        assert_eq!(day.wind_in_session(5), Ok(Wind::Calm));
        assert_eq!(day.flying_requirement(3, AircraftClass::Aircraft, Light::Daylight), Ok(None));
        assert_eq!(day.flying_requirement(4, AircraftClass::Aircraft, Light::Daylight), Ok(Some(1)));
    }

    #[test]
    fn a_sandstorm_that_never_comes_throws_every_session() {
        let mut dice = Scripted::new([3, 4, 1].into_iter().chain((0..18).map(|i| [1, 2, 3][i % 3])));
        let (day, _) = throw_day(&mut dice, Desert, 5, Some(&state(5, 7, 0)), &[]).unwrap();
        assert!(day.sandstorm_sessions.is_empty());
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn gauge_fills_with_rain_and_wind_and_dries_on_fine_days() {
        // December square 5, heavy rain (marker 5 stays on a 3), stormy band D6 1 → high winds: +3.
        let mut dice = Scripted::new([3, 1]);
        let (day, _) = throw_day(&mut dice, Temperate, 12, Some(&state(12, 5, 4)), &[]).unwrap();
        assert_eq!((day.spells[0].sky, day.wind, day.carried.gauge), (Sky::HeavyRain, Wind::High, 7));
        assert_eq!(day.gauge_at_start, 4);
        // The next day starts at 7: −2 movement, −1 supply; a fine day with light winds dries 3.
        let mut dice = Scripted::new([5, 1, 3, 3]);
        let (next, _) = throw_day(&mut dice, Temperate, 12, Some(&day.carried), &[]).unwrap();
        assert_eq!(next.spells[0].sky, Sky::Overcast);
        assert_eq!(next.spells[0].travel.movement, -2);
        assert!(next.unmetalled_airstrips_closed);
        assert_eq!((next.wind, next.carried.gauge), (Wind::Light, 4));
        // A fine day with high winds dries 2 (reading), never below 0.
        let mut dice = Scripted::new([3, 1, 1]);
        let (calm, _) = throw_day(&mut dice, Temperate, 7, Some(&state(7, 9, 1)), &[]).unwrap();
        assert_eq!((calm.spells[0].sky, calm.wind, calm.carried.gauge), (Sky::Fair, Wind::High, 0));
    }

    #[test]
    fn gauge_is_held_at_8_and_winter_8_stops_all_movement() {
        // January square 11, snow, winter stormy D6 1 → freezing wind: +3, held at 8.
        let mut dice = Scripted::new([3, 1]);
        let (day, _) = throw_day(&mut dice, Winter, 1, Some(&state(1, 11, 7)), &[]).unwrap();
        assert_eq!((day.spells[0].sky, day.wind), (Sky::Snow, Wind::Freezing));
        assert_eq!(day.spells[0].work.total, 5);
        assert_eq!(day.carried.gauge, 8);
        let mut dice = Scripted::new([3, 6]);
        let (next, _) = throw_day(&mut dice, Winter, 1, Some(&day.carried), &[]).unwrap();
        assert!(next.spells[0].travel.all_movement_stops);
        assert_eq!(next.supply_modifier(), -4);
    }

    #[test]
    fn first_fine_day_after_snow_leaves_the_gauge() {
        // Winter January: snow on square 2 (marker 2 held on a 1), wind 6 → light: +1.
        let mut dice = Scripted::new([1, 6]);
        let (snow, _) = throw_day(&mut dice, Winter, 1, Some(&state(1, 2, 3)), &[]).unwrap();
        assert_eq!((snow.spells[0].sky, snow.carried.gauge, snow.carried.snow_lying), (Sky::Snow, 4, true));
        // Marker 2 → … Fair needs square 7 in January: start a record there.
        let lying = WeatherState { month: 1, marker: 7, gauge: 4, snow_lying: true };
        let mut dice = Scripted::new([3, 2, 6]);
        let (fine, _) = throw_day(&mut dice, Winter, 1, Some(&lying), &[]).unwrap();
        assert_eq!((fine.spells[0].sky, fine.wind), (Sky::Fair, Wind::Light));
        assert_eq!((fine.carried.gauge, fine.carried.snow_lying), (4, false), "ignored, wind and all");
        let mut dice = Scripted::new([3, 2, 6]);
        let (second, _) = throw_day(&mut dice, Winter, 1, Some(&fine.carried), &[]).unwrap();
        assert_eq!(second.carried.gauge, 1, "the second fine day dries 3");
    }

    #[test]
    fn fog_neither_fills_nor_dries_and_keeps_snow_lying() {
        let prev = WeatherState { month: 3, marker: 2, gauge: 5, snow_lying: true };
        let mut dice = Scripted::new([3, 4]);
        let (day, _) = throw_day(&mut dice, Winter, 3, Some(&prev), &[]).unwrap();
        assert_eq!(day.spells[0].sky, Sky::Fog);
        assert_eq!((day.carried.gauge, day.carried.snow_lying), (5, true));
    }

    #[test]
    fn king_moves_todays_square_but_not_the_marker() {
        // Temperate January, marker 8 stays (3); King of Spades: up 2 → square 10, snow.
        let card = ChanceOutcome::WeatherSteps(2);
        let mut dice = Scripted::new([3, 6]);
        let (day, _) = throw_day(&mut dice, Temperate, 1, Some(&state(1, 8, 0)), &[card]).unwrap();
        assert_eq!((day.spells[0].marker, day.spells[0].square, day.spells[0].sky), (8, 10, Sky::Snow));
        assert_eq!(day.carried.marker, 8);
        let card = ChanceOutcome::WeatherSteps(-2);
        let mut dice = Scripted::new([1, 6]);
        let (day, _) = throw_day(&mut dice, Temperate, 1, Some(&state(1, 3, 0)), &[card]).unwrap();
        assert_eq!((day.spells[0].marker, day.spells[0].square), (2, 2), "held at 2");
    }

    #[test]
    fn queen_changes_the_wind_throw() {
        let card = ChanceOutcome::WindThrow(-1);
        let mut dice = Scripted::new([3, 6, 2]);
        let (day, _) = throw_day(&mut dice, Temperate, 7, Some(&state(7, 9, 0)), &[card]).unwrap();
        assert_eq!(day.wind, Wind::High, "2 − 1 = 1 on the settled line");
        let card = ChanceOutcome::WindThrow(1);
        let mut dice = Scripted::new([3, 6, 3]);
        let (day, _) = throw_day(&mut dice, Temperate, 7, Some(&state(7, 9, 0)), &[card]).unwrap();
        assert_eq!(day.wind, Wind::Calm);
    }

    #[test]
    fn jacks_add_to_a_wet_day_or_take_from_a_dry_one() {
        // July square 12 light rain, wind 6 calm: +1 and the Jack of Spades +2.
        let wet = ChanceOutcome::GaugeIfWet(2);
        let mut dice = Scripted::new([3, 6]);
        let (day, _) = throw_day(&mut dice, Temperate, 7, Some(&state(7, 12, 0)), std::slice::from_ref(&wet)).unwrap();
        assert_eq!(day.carried.gauge, 3);
        // The same card on a fair day does nothing; the Jack of Hearts takes 2 more.
        let mut dice = Scripted::new([3, 1, 6]);
        let (day, _) = throw_day(&mut dice, Temperate, 7, Some(&state(7, 9, 6)), std::slice::from_ref(&wet)).unwrap();
        assert_eq!(day.carried.gauge, 4);
        let dry = ChanceOutcome::GaugeIfDry(2);
        let mut dice = Scripted::new([3, 1, 6]);
        let (day, _) = throw_day(&mut dice, Temperate, 7, Some(&state(7, 9, 6)), &[dry]).unwrap();
        assert_eq!(day.carried.gauge, 2);
    }

    #[test]
    fn ten_splits_the_day_into_three_throws_and_the_wettest_sets_the_gauge() {
        // Temperate April from square 5: 6 → 6 light rain, 1 → 5 light rain,
        // 1 → 4 overcast (cloud 2, moon 2); wind 6 calm.
        let card = ChanceOutcome::SplitWeather(SessionSplit::Thirds);
        let mut dice = Scripted::new([6, 1, 1, 2, 2, 6]);
        let (day, _) = throw_day(&mut dice, Temperate, 4, Some(&state(4, 5, 2)), &[card]).unwrap();
        assert_eq!(dice.remaining(), 0);
        let skies: Vec<_> = day.spells.iter().map(|s| (s.first_session, s.last_session, s.sky)).collect();
        assert_eq!(skies, [(1, 2, Sky::LightRain), (3, 4, Sky::LightRain), (5, 6, Sky::Overcast)]);
        assert_eq!(day.carried.marker, 4);
        assert_eq!(day.carried.gauge, 3, "light rain fell: +1");
        assert_eq!(day.spell(4).unwrap().sky, Sky::LightRain);
        assert_eq!(day.spell(7), Err(WeatherError::BadSession(7)));
        let card = ChanceOutcome::SplitWeather(SessionSplit::Halves);
        let mut dice = Scripted::new([3, 3, 6]);
        let (day, _) = throw_day(&mut dice, Temperate, 4, Some(&state(4, 6, 0)), &[card]).unwrap();
        assert_eq!(day.spells.len(), 2);
        assert_eq!((day.spells[1].first_session, day.spells[1].last_session), (4, 6));
    }

    #[test]
    fn bad_input_is_refused() {
        let mut dice = Scripted::new([]);
        assert_eq!(throw_day(&mut dice, Temperate, 13, None, &[]).unwrap_err(), WeatherError::BadMonth(13));
        assert_eq!(throw_day(&mut dice, Temperate, 0, None, &[]).unwrap_err(), WeatherError::BadMonth(0));
        let bad = state(1, 13, 0);
        assert_eq!(throw_day(&mut dice, Temperate, 1, Some(&bad), &[]).unwrap_err(), WeatherError::BadSquare(13));
        let bad = state(1, 1, 0);
        assert_eq!(throw_day(&mut dice, Temperate, 1, Some(&bad), &[]).unwrap_err(), WeatherError::BadSquare(1));
        let bad = state(1, 7, 9);
        assert_eq!(throw_day(&mut dice, Temperate, 1, Some(&bad), &[]).unwrap_err(), WeatherError::BadGauge(9));
        assert!(WeatherError::BadGauge(9).to_string().contains("0 to 8"));
    }

    #[test]
    fn some_moonlight_throws_per_night_session() {
        let mut dice = Scripted::new([3, 5, 6]);
        let (day, _) = throw_day(&mut dice, Temperate, 7, Some(&state(7, 9, 0)), &[]).unwrap();
        assert_eq!(day.spells[0].moon, Moon::SomeMoonlight);
        let (light, e) = night_session_light(&mut Scripted::new([4]), &day, 1).unwrap();
        assert_eq!(light, Light::NightMoon, "temperate: 4+");
        assert_eq!(e.dice.len(), 1);
        assert_eq!(e.outcome, json!("NightMoonlit"), "the moon throw's own word for a moonlit night");
        let winter = DayWeather { climate: Winter, ..day.clone() };
        let (light, _) = night_session_light(&mut Scripted::new([5]), &winter, 6).unwrap();
        assert_eq!(light, Light::NightNoMoon, "winter: 6 only");
        let (light, _) = night_session_light(&mut Scripted::new([6]), &winter, 6).unwrap();
        assert_eq!(light, Light::NightMoon);
        assert!(night_session_light(&mut Scripted::new([]), &day, 0).is_err());
    }

    #[test]
    fn flying_permission_throws_against_the_chart() {
        // Temperate July square 12, light rain; wind 2 → light winds. Aircraft need 3 by day.
        let mut dice = Scripted::new([3, 2]);
        let (day, _) = throw_day(&mut dice, Temperate, 7, Some(&state(7, 12, 0)), &[]).unwrap();
        let aircraft = AircraftClass::Aircraft;
        let (ok, e) =
            flying_permission(&mut Scripted::new([3]), &day, 3, aircraft, Light::Daylight, &[], "RAF").unwrap();
        assert!(ok);
        assert_eq!(e.kind, EventKind::AirOperation);
        assert_eq!(e.inputs.iter().find(|i| i.name == "light").unwrap().value, json!("Day"));
        let (ok, _) =
            flying_permission(&mut Scripted::new([2]), &day, 3, aircraft, Light::Daylight, &[], "RAF").unwrap();
        assert!(!ok);
        let plus = ChanceOutcome::FlyingPermission(1);
        let (ok, _) =
            flying_permission(&mut Scripted::new([2]), &day, 3, aircraft, Light::Daylight, &[plus], "RAF").unwrap();
        assert!(ok, "the 3 of Diamonds adds 1");
        // Recce at night without moon: no flying, no die.
        let mut none = Scripted::new([]);
        let (ok, e) =
            flying_permission(&mut none, &day, 1, AircraftClass::Recce, Light::NightNoMoon, &[], "RAF").unwrap();
        assert!(!ok && e.dice.is_empty());
    }

    #[test]
    fn wind_direction_on_the_compass_dice() {
        let (point, event) = throw_wind_direction(&mut Scripted::new([3]), Temperate);
        assert_eq!(point, CompassPoint::E);
        assert_eq!(event.rule.section, "25.3 Wind Table");
        assert_eq!(throw_wind_direction(&mut Scripted::new([8]), Desert).0, CompassPoint::NW);
    }

    #[test]
    fn half_day_weather_goes_with_a_card_and_wild_card_values_do_not_overflow() {
        // A half-day campaign with the Queen of Hearts: two marker throws, one wind throw.
        let today = [ChanceOutcome::SplitWeather(SessionSplit::Halves), ChanceOutcome::WindThrow(-1)];
        let mut dice = Scripted::new([3, 3, 2]);
        let (day, _) = throw_day(&mut dice, Temperate, 4, Some(&state(4, 6, 0)), &today).unwrap();
        assert_eq!((day.spells.len(), day.wind), (2, Wind::High));
        // Values no card prints are held, not wrapped.
        let wild = [
            ChanceOutcome::WeatherSteps(i8::MAX),
            ChanceOutcome::WindThrow(i8::MIN),
            ChanceOutcome::GaugeIfWet(u8::MAX),
        ];
        let mut dice = Scripted::new([3, 6]);
        let (day, _) = throw_day(&mut dice, Temperate, 1, Some(&state(1, 7, 0)), &wild).unwrap();
        assert_eq!((day.spells[0].square, day.wind, day.carried.gauge), (12, Wind::High, 8));
    }

    #[test]
    fn the_day_and_its_events_save_and_read_back() {
        let mut dice = Scripted::new([3, 5, 6]);
        let (day, events) = throw_day(&mut dice, Temperate, 7, Some(&state(7, 9, 0)), &[]).unwrap();
        let back: DayWeather = serde_json::from_str(&serde_json::to_string(&day).unwrap()).unwrap();
        assert_eq!(back, day);
        assert!(events.iter().all(|e| e.kind == EventKind::Weather && e.to_json_line().contains("weather")));
    }

    #[test]
    fn split_desert_day_supply_takes_the_worst_spell() {
        // Desert January, halves from square 3: 1 → 2 light rain; 6 → 3 overcast (cloud 1); wind 6.
        let today = [ChanceOutcome::SplitWeather(SessionSplit::Halves)];
        let mut dice = Scripted::new([1, 6, 1, 6]);
        let (day, _) = throw_day(&mut dice, Desert, 1, Some(&state(1, 3, 0)), &today).unwrap();
        assert_eq!(dice.remaining(), 0);
        assert_eq!(day.spell(2).unwrap().travel.movement, -1);
        assert_eq!(day.spell(5).unwrap().travel.movement, 0);
        assert_eq!(day.supply_modifier(), -1);
    }
}
