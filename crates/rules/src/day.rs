//! The wargame day (*Heroes All*, "The Wargame Day", "The \"box\"", 2020
//! addendum "Weather"; *Fight Your Own Battles*, "Start of session activity
//! for Senior Officer"; *Fight Your Own Wars* 1.2, seasons): bounds of one
//! hour, sessions of four bounds, daylight and night by season, the weather
//! that reaches the table, and the "box" beyond the friendly table edge.

use std::fmt;

use serde::{Deserialize, Serialize};

/// *Heroes All*, "The Wargame Day": "A wargame bound lasts for 1 hour."
pub const HOURS_PER_BOUND: u8 = 1;
/// "A wargame day lasts for 24 bounds divided into 6 sessions of 4 bounds."
pub const BOUNDS_PER_DAY: u8 = 24;
pub const SESSIONS_PER_DAY: u8 = 6;
pub const BOUNDS_PER_SESSION: u8 = 4;
/// *Fight Your Own Wars* 25.6: "The maximum value for the Rain/Snow gauge is 8."
pub const MAX_RAIN_SNOW_GAUGE: u8 = 8;

/// Bad input to the day's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DayError {
    /// A month outside 1..=12.
    MonthOutOfRange(u8),
    /// An hour of the day outside 0..=23.
    HourOutOfRange(u8),
    /// A Rain/Snow Gauge reading above 8.
    GaugeOutOfRange(u8),
    /// Reserves are committed only in the Senior Officer's session at the
    /// start of a session; the bound starting at this hour is not one.
    NotSessionStart(u8),
}

impl fmt::Display for DayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MonthOutOfRange(m) => write!(f, "month {m} is outside 1..=12"),
            Self::HourOutOfRange(h) => write!(f, "hour {h} is outside 0..=23"),
            Self::GaugeOutOfRange(g) => write!(f, "Rain/Snow Gauge {g} is above its maximum of {MAX_RAIN_SNOW_GAUGE}"),
            Self::NotSessionStart(h) => {
                write!(
                    f,
                    "reserves are committed at the start of a session; the bound at {h:02}00 hrs does not start one"
                )
            }
        }
    }
}

impl std::error::Error for DayError {}

/// The seasons (*Heroes All*, "The Wargame Day"; months from *Fight Your Own Wars* 1.2),
/// for a battle and for the campaign calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Season {
    Winter,
    Spring,
    Summer,
    Autumn,
}

/// *Fight Your Own Wars* 1.2: Winter December–February, Spring March–May,
/// Summer June–August, Autumn September–November (index = month − 1).
const SEASON_OF_MONTH: [Season; 12] = {
    use Season::*;
    [Winter, Winter, Spring, Spring, Spring, Summer, Summer, Summer, Autumn, Autumn, Autumn, Winter]
};

/// *Heroes All*, "The Wargame Day": the hours daylight begins and ends.
/// Summer 0400–2000 (4 sessions), Autumn 0800–2000 (3), Winter 0800–1600 (2),
/// Spring 0400–1600 (3). *Fight Your Own Wars* 1.2 gives the same sessions.
const DAYLIGHT: [(Season, u8, u8); 4] =
    [(Season::Summer, 4, 20), (Season::Autumn, 8, 20), (Season::Winter, 8, 16), (Season::Spring, 4, 16)];

impl Season {
    /// The season of a month, 1 (January) ..= 12 (December).
    pub fn of_month(month: u8) -> Result<Self, DayError> {
        match month {
            1..=12 => Ok(SEASON_OF_MONTH[usize::from(month - 1)]),
            _ => Err(DayError::MonthOutOfRange(month)),
        }
    }

    /// First hour of daylight and the hour night falls.
    pub fn daylight_hours(self) -> (u8, u8) {
        let &(_, from, to) = DAYLIGHT.iter().find(|(s, _, _)| *s == self).expect("every season has a daylight row");
        (from, to)
    }

    /// Daylight or night in each of the day's six sessions (0000, 0400 … 2000 hrs).
    pub fn sessions(self) -> [Light; SESSIONS_PER_DAY as usize] {
        std::array::from_fn(|i| self.light_at(i as u8 * BOUNDS_PER_SESSION))
    }

    /// Daylight or night in the bound starting at `hour` (0..=23).
    fn light_at(self, hour: u8) -> Light {
        let (from, to) = self.daylight_hours();
        if (from..to).contains(&hour) { Light::Daylight } else { Light::Night }
    }
}

/// Daylight or night for a bound, and for a campaign session (*Fight Your Own Wars* 1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Light {
    Daylight,
    /// *Heroes All*, "Night fighting" applies.
    Night,
}

/// The battle's clock: which bound it is and the hour it starts.
///
/// Reading: sessions are the day's fixed blocks of four hours (0000, 0400 …
/// 2000 hrs: *Heroes All* "24 bounds divided into 6 sessions of 4 bounds";
/// *Fight Your Own Wars* 1.2 "the hour at which each session starts"), so a
/// battle that begins at 0600 meets its first Senior Officer session at 0800.
/// *FYOB* says both "activated by a prompt at the end of each session of 4
/// bounds" and "At the start of each session"; the end of one session is the
/// start of the next, so the prompt comes before the first bound of each
/// session, including the battle's first bound when it starts a session (the
/// start-of-game objectives are given then). Test `senior_officer_every_four_bounds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WargameClock {
    season: Season,
    start_hour: u8,
    /// 1-based bound of the battle.
    bound: u32,
}

impl WargameClock {
    /// The clock at the battle's first bound, which starts at `start_hour`.
    pub fn new(season: Season, start_hour: u8) -> Result<Self, DayError> {
        if start_hour >= BOUNDS_PER_DAY {
            return Err(DayError::HourOutOfRange(start_hour));
        }
        Ok(Self { season, start_hour, bound: 1 })
    }

    pub fn season(&self) -> Season {
        self.season
    }

    /// The battle's bound, from 1.
    pub fn bound(&self) -> u32 {
        self.bound
    }

    fn hours_elapsed(&self) -> u32 {
        u32::from(self.start_hour) + (self.bound - 1) * u32::from(HOURS_PER_BOUND)
    }

    /// Hour of the day at which this bound starts, 0..=23.
    pub fn hour(&self) -> u8 {
        (self.hours_elapsed() % u32::from(BOUNDS_PER_DAY)) as u8
    }

    /// Days since the battle's first day (0 on the first day).
    pub fn day(&self) -> u32 {
        self.hours_elapsed() / u32::from(BOUNDS_PER_DAY)
    }

    /// The session of the day, 0 (0000–0300 hrs) ..= 5 (2000–2300 hrs).
    pub fn session(&self) -> u8 {
        self.hour() / BOUNDS_PER_SESSION
    }

    pub fn light(&self) -> Light {
        self.season.light_at(self.hour())
    }

    /// This bound begins a session: the Senior Officer's session comes first
    /// (*FYOB* "Start of session activity for Senior Officer": Strategic
    /// Milestone Tests, committing reserves, new orders to Company Officers).
    pub fn senior_officer_session(&self) -> bool {
        self.hour().is_multiple_of(BOUNDS_PER_SESSION)
    }

    /// This bound begins a wargame day: a Brigade Officer is prompted
    /// (*FYOB* "Decisions made and actions taken by the Officer grades").
    pub fn brigade_officer_prompt(&self) -> bool {
        self.hour() == 0
    }

    /// On to the next bound.
    pub fn next_bound(&mut self) {
        self.bound += 1;
    }
}

/// The weather as it reaches the table (*Heroes All*, 2020 addendum "Weather",
/// repeated under "Movement modification").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BattleWeather {
    /// The campaign's Rain/Snow Gauge (*Fight Your Own Wars* 25.5), when it
    /// is in use for the battle; `None` in a stand-alone battle.
    rain_snow_gauge: Option<u8>,
}

impl BattleWeather {
    /// Weather for a battle, with the campaign gauge when in use (0..=8).
    pub fn new(rain_snow_gauge: Option<u8>) -> Result<Self, DayError> {
        match rain_snow_gauge {
            Some(g) if g > MAX_RAIN_SNOW_GAUGE => Err(DayError::GaugeOutOfRange(g)),
            _ => Ok(Self { rain_snow_gauge }),
        }
    }

    pub fn rain_snow_gauge(&self) -> Option<u8> {
        self.rain_snow_gauge
    }

    /// "If the Rain/Snow Gauge used in FYOW is in use for the game, deduct 1
    /// pip from each Movement dice thrown for any cross-country move uphill
    /// made by a vehicle that is not tracked, half-tracked, all wheel drive."
    ///
    /// Reading: the rule names no level of the gauge, only that it is in use,
    /// so any reading (0 included) applies it. Test `uphill_rule_needs_the_gauge_in_use`.
    pub fn uphill_pip(&self) -> u8 {
        u8::from(self.rain_snow_gauge.is_some())
    }
}

/// Where an element of a force is (*Heroes All*, "The \"box\"").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Whereabouts {
    /// Beyond its own table edge, "neither on the table nor on the road
    /// joining this table with any other": waiting, in reserve, or retired.
    Box,
    OnTable,
}

impl Whereabouts {
    /// "Forces in the \"box\" are not active until they appear on the table,
    /// nor can they move, fire, act or be attacked." An element that is
    /// activated in the box may still move onto the table: that move is
    /// measured from its own table edge.
    pub fn is_active(self) -> bool {
        self == Self::OnTable
    }

    /// Whether enemy fire, assault or observation can reach it.
    pub fn can_be_attacked(self) -> bool {
        self == Self::OnTable
    }
}

/// A reserve held in the box, committed by the Senior Officer (*FYOB*
/// "Strategic Condition": "The Senior Officer makes this decision during his
/// Command & Control actions at the start of a session by passing a
/// Leadership Test. The element(s) being committed are activated and an OPC is
/// added to the deck for each one. The element(s) can then move onto the table
/// during the next bound.")
///
/// Reading: "the next bound" is the bound the session's Command & Control
/// actions precede, so a reserve committed before bound 5 gets its OPC and may
/// move on in bound 5. Test `reserves_enter_in_the_session_they_are_committed`.
pub fn commit_reserve(clock: &WargameClock) -> Result<u32, DayError> {
    if clock.senior_officer_session() { Ok(clock.bound()) } else { Err(DayError::NotSessionStart(clock.hour())) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_six_sessions_of_four_one_hour_bounds() {
        assert_eq!(u32::from(SESSIONS_PER_DAY) * u32::from(BOUNDS_PER_SESSION), u32::from(BOUNDS_PER_DAY));
        let mut clock = WargameClock::new(Season::Summer, 0).unwrap();
        let mut sessions = 0;
        for _ in 0..BOUNDS_PER_DAY {
            sessions += u32::from(clock.senior_officer_session());
            clock.next_bound();
        }
        assert_eq!(sessions, 6);
        assert_eq!((clock.bound(), clock.hour(), clock.day()), (25, 0, 1), "bound 25 starts the next day");
    }

    #[test]
    fn daylight_sessions_by_season() {
        use Light::{Daylight as D, Night as N};
        // Heroes All, "The Wargame Day".
        assert_eq!(Season::Summer.sessions(), [N, D, D, D, D, N], "0400 to 2000: 4 sessions, 2 night");
        assert_eq!(Season::Autumn.sessions(), [N, N, D, D, D, N], "0800 to 2000: 3 sessions, 3 night");
        assert_eq!(Season::Winter.sessions(), [N, N, D, D, N, N], "0800 to 1600: 2 sessions, 4 night");
        assert_eq!(Season::Spring.sessions(), [N, D, D, D, N, N], "0400 to 1600: 3 sessions, 3 night");
    }

    #[test]
    fn night_falls_on_the_hour() {
        let mut clock = WargameClock::new(Season::Winter, 14).unwrap();
        assert_eq!(clock.light(), Light::Daylight);
        clock.next_bound();
        assert_eq!((clock.hour(), clock.light()), (15, Light::Daylight), "the 1500 bound is the last of daylight");
        clock.next_bound();
        assert_eq!((clock.hour(), clock.light()), (16, Light::Night));
    }

    #[test]
    fn months_fall_in_fyow_seasons() {
        let seasons: Vec<Season> = (1..=12).map(|m| Season::of_month(m).unwrap()).collect();
        assert_eq!(seasons.iter().filter(|&&s| s == Season::Winter).count(), 3);
        assert_eq!(Season::of_month(12), Ok(Season::Winter));
        assert_eq!(Season::of_month(3), Ok(Season::Spring));
        assert_eq!(Season::of_month(8), Ok(Season::Summer));
        assert_eq!(Season::of_month(9), Ok(Season::Autumn));
        assert_eq!(Season::of_month(0), Err(DayError::MonthOutOfRange(0)));
        assert_eq!(Season::of_month(13), Err(DayError::MonthOutOfRange(13)));
    }

    /// FYOB "Strategic Condition" example: "During the first session (4
    /// bounds) … At the start of the 2nd session … the SO needs to take his
    /// first Strategic Milestone test".
    #[test]
    fn senior_officer_every_four_bounds() {
        let mut clock = WargameClock::new(Season::Summer, 8).unwrap();
        let mut prompts = Vec::new();
        for _ in 0..12 {
            if clock.senior_officer_session() {
                prompts.push(clock.bound());
            }
            clock.next_bound();
        }
        assert_eq!(prompts, [1, 5, 9], "the first session is bounds 1-4; the second starts at bound 5");

        // A battle starting mid-session meets the clock's next session.
        let mut clock = WargameClock::new(Season::Summer, 6).unwrap();
        assert!(!clock.senior_officer_session());
        clock.next_bound();
        clock.next_bound();
        assert_eq!((clock.bound(), clock.hour(), clock.senior_officer_session()), (3, 8, true));
    }

    #[test]
    fn brigade_officer_at_the_start_of_each_day() {
        let mut clock = WargameClock::new(Season::Autumn, 22).unwrap();
        assert!(!clock.brigade_officer_prompt());
        clock.next_bound();
        clock.next_bound();
        assert!(clock.brigade_officer_prompt() && clock.senior_officer_session());
        assert_eq!(clock.day(), 1);
    }

    #[test]
    fn bad_hours_and_gauges_are_refused() {
        assert_eq!(WargameClock::new(Season::Summer, 24), Err(DayError::HourOutOfRange(24)));
        assert_eq!(BattleWeather::new(Some(9)), Err(DayError::GaugeOutOfRange(9)));
        assert!(DayError::GaugeOutOfRange(9).to_string().contains("maximum of 8"));
    }

    #[test]
    fn uphill_rule_needs_the_gauge_in_use() {
        assert_eq!(BattleWeather::default().uphill_pip(), 0, "a stand-alone battle has no gauge");
        assert_eq!(BattleWeather::new(Some(0)).unwrap().uphill_pip(), 1);
        assert_eq!(BattleWeather::new(Some(8)).unwrap().uphill_pip(), 1);
    }

    #[test]
    fn the_box_is_out_of_the_battle() {
        assert!(!Whereabouts::Box.is_active() && !Whereabouts::Box.can_be_attacked());
        assert!(Whereabouts::OnTable.is_active() && Whereabouts::OnTable.can_be_attacked());
    }

    #[test]
    fn reserves_enter_in_the_session_they_are_committed() {
        let mut clock = WargameClock::new(Season::Spring, 4).unwrap();
        for _ in 0..4 {
            clock.next_bound();
        }
        assert_eq!(commit_reserve(&clock), Ok(5));
        clock.next_bound();
        assert_eq!(commit_reserve(&clock), Err(DayError::NotSessionStart(9)));
    }
}
