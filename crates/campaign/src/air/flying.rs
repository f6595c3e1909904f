//! Whether aircraft may fly (FYOW 28.4), how long they stay over the Map
//! Boards (28.6) and their moves between Map Boards (28.7).

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::air::squadron::Basing;
use crate::air::{AirError, Conditions, Role, Sky, Speed, Wind, rule};
use crate::map::common::Light;
use crate::weather::AIRSTRIP_CLOSING_GAUGE;

/// The columns of the flying chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flight {
    Aircraft,
    Gliders,
    Paratroops,
    Recce,
}

impl Flight {
    /// The columns in printed order.
    pub const ALL: [Self; 4] = [Self::Aircraft, Self::Gliders, Self::Paratroops, Self::Recce];
}

/// One cell of the flying chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cell {
    /// The D6 score needed (weather rows).
    Score(u8),
    /// Added to the requirement (the grey wind and night rows).
    Add(u8),
    NoFlying,
}

use Cell::{Add, NoFlying, Score};

/// FYOW 28.4 (and 25.8), the weather rows: columns Aircraft, Gliders, Paratroops, Recce.
pub const SKY_ROWS: [(Sky, [Cell; 4]); 5] = [
    (Sky::Fine, [Score(1), Score(1), Score(1), Score(1)]),
    (Sky::LightRain, [Score(2), Score(2), Score(2), Score(2)]),
    (Sky::HeavyRain, [Score(6), NoFlying, NoFlying, NoFlying]),
    (Sky::Snow, [NoFlying, NoFlying, NoFlying, NoFlying]),
    (Sky::Fog, [NoFlying, NoFlying, NoFlying, NoFlying]),
];

/// Which printed flying chart applies: 28.4 (the same as 25.8, and the
/// desert's by 27.7) or the winter chart of 26.9.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Chart {
    #[default]
    Standard,
    Winter,
}

/// The wind rows of 28.4 (grey in the book). Calm adds nothing (no row
/// printed). Freezing wind only blows in winter; it grounds everything on
/// either chart.
pub const WIND_ROWS: [(Wind, [Cell; 4]); 4] = [
    (Wind::Calm, [Add(0), Add(0), Add(0), Add(0)]),
    (Wind::Light, [Add(1), Add(2), Add(2), Add(1)]),
    (Wind::High, [Add(3), NoFlying, NoFlying, NoFlying]),
    (Wind::Freezing, [NoFlying, NoFlying, NoFlying, NoFlying]),
];

/// The wind rows of the winter chart (26.9), as printed: light winds add
/// +1/+1/+1/+2 there, against 28.4's +1/+2/+2/+1, and "Freezing wind" grounds all.
///
/// Reading (FYOW 28.4 against 26.9): each chart is used as printed for its
/// climate, as the weather module does, rather than correcting one by the
/// other (test `light_winds_differ_between_the_charts`).
pub const WINTER_WIND_ROWS: [(Wind, [Cell; 4]); 4] = [
    (Wind::Calm, [Add(0), Add(0), Add(0), Add(0)]),
    (Wind::Light, [Add(1), Add(1), Add(1), Add(2)]),
    (Wind::High, [Add(3), NoFlying, NoFlying, NoFlying]),
    (Wind::Freezing, [NoFlying, NoFlying, NoFlying, NoFlying]),
];

/// The night rows (grey in the book); daylight adds nothing.
pub const LIGHT_ROWS: [(Light, [Cell; 4]); 3] = [
    (Light::Daylight, [Add(0), Add(0), Add(0), Add(0)]),
    (Light::NightNoMoon, [Add(1), Add(1), Add(1), NoFlying]),
    (Light::NightMoon, [Add(1), Add(1), Add(1), Add(1)]),
];

fn cell<K: PartialEq + Copy>(rows: &[(K, [Cell; 4])], key: K, flight: Flight) -> Cell {
    rows.iter().find(|(k, _)| *k == key).map_or(NoFlying, |(_, cells)| cells[flight as usize])
}

/// The D6 score a flight needs to take off in `conditions`, or `None` where
/// the chart says "no flying". A requirement over 6 cannot be thrown.
/// "The throw requirement is adjusted by the factors shown in grey for either
/// windy weather and/or for night moves."
/// The sky and night rows are the same on both charts.
pub fn requirement(flight: Flight, conditions: Conditions, chart: Chart) -> Option<u8> {
    let winds: &[(Wind, [Cell; 4])] = match chart {
        Chart::Standard => &WIND_ROWS,
        Chart::Winter => &WINTER_WIND_ROWS,
    };
    let cells = [
        cell(&SKY_ROWS, conditions.sky, flight),
        cell(winds, conditions.wind, flight),
        cell(&LIGHT_ROWS, conditions.light, flight),
    ];
    cells.iter().try_fold(0u8, |sum, c| match c {
        Score(n) | Add(n) => Some(sum + n),
        NoFlying => None,
    })
}

/// Whether an airstrip can be used at this Rain Gauge reading (FYOW 25.8).
pub const fn airstrip_operable(rain_gauge: u8, tarmac: bool) -> bool {
    tarmac || rain_gauge < AIRSTRIP_CLOSING_GAUGE
}

/// Air Command's D6 for the day (28.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlyingThrow {
    pub face: u8,
    pub chart: Chart,
}

impl FlyingThrow {
    /// Whether the day's throw lets this flight take off in these conditions.
    pub fn permits(self, flight: Flight, conditions: Conditions) -> bool {
        requirement(flight, conditions, self.chart).is_some_and(|need| self.face >= need)
    }
}

/// Air Command's throw to fly (28.4): one D6 read against every column of
/// the chart ("some aircraft types may be permitted whereas others are
/// grounded"). "If flying is permitted, each Battlegroup will receive a BPC in
/// each session": the outcome's `bpc_each_session`.
///
/// Reading (FYOW 28.4 against 25.8): the throw is made once a day, as 28.4
/// and the start-of-day sequence (4.4) say, not each session as 25.8 says;
/// a night session's flights compare the same throw with their own
/// requirement, which adds the night row (test `one_throw_a_day_read_against_each_session`).
///
/// `card` is a 3♠'s −1 or a 3♦'s +1 to the throw (32).
pub fn flying_throw(
    conditions: Conditions,
    chart: Chart,
    card: i8,
    dice: &mut impl Roll,
    id: &str,
) -> (FlyingThrow, RuleEvent) {
    let face = dice.d6();
    let thrown = FlyingThrow { face: face.saturating_add_signed(card), chart };
    let columns: Vec<_> = Flight::ALL
        .iter()
        .map(
            |&f| json!({ "flight": f, "need": requirement(f, conditions, chart), "permitted": thrown.permits(f, conditions) }),
        )
        .collect();
    let event = RuleEvent::new(EventKind::Weather, rule("28.4 Air Command decision to fly"))
        .actor(id)
        .input("conditions", conditions, "weather, wind and night rows of the flying chart")
        .input("chart", chart, "28.4, or the winter chart of 26.9")
        .input("card_change", card, "32: a 3 of Spades or Diamonds")
        .dice(6, &[face])
        .outcome(json!({ "columns": columns, "bpc_each_session": thrown.permits(Flight::Aircraft, conditions) }));
    (thrown, event)
}

/// The rows of the Flight Time table (28.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlightTimeRow {
    /// "Fighters, Ground attack, Dive bombers, Recce".
    ShortRange,
    /// "Above with Endurance".
    ShortRangeEndurance,
    TorpedoBombers,
    /// "Bombers, transport".
    BombersTransport,
}

/// FYOW 28.6: sessions over the Map Boards, Distant and Local.
pub const FLIGHT_TIME: [(FlightTimeRow, [u8; 2]); 4] = [
    (FlightTimeRow::ShortRange, [1, 2]),
    (FlightTimeRow::ShortRangeEndurance, [2, 3]),
    (FlightTimeRow::TorpedoBombers, [2, 2]),
    (FlightTimeRow::BombersTransport, [2, 3]),
];

/// The row of the Flight Time table for a type.
pub fn flight_time_row(role: Role, endurance: bool) -> Result<FlightTimeRow, AirError> {
    match (role, endurance) {
        (_, true) if !role.takes_endurance() => Err(AirError::EnduranceNotFitted(role)),
        (_, true) => Ok(FlightTimeRow::ShortRangeEndurance),
        (Role::TorpedoBomber, false) => Ok(FlightTimeRow::TorpedoBombers),
        (Role::Bomber | Role::Transport, false) => Ok(FlightTimeRow::BombersTransport),
        (_, false) => Ok(FlightTimeRow::ShortRange),
    }
}

/// Sessions a squadron may spend over the Map Boards (28.6).
pub fn flight_time(role: Role, basing: Basing, endurance: bool) -> Result<u8, AirError> {
    let row = flight_time_row(role, endurance)?;
    let cells = FLIGHT_TIME.iter().find(|(r, _)| *r == row).map_or([0, 0], |(_, c)| *c);
    Ok(cells[basing as usize])
}

/// Most Map Boards a move may cross (28.7): Slow 4, Fast 8, others 6.
pub const fn max_move(speed: Speed) -> u8 {
    match speed {
        Speed::Slow => 4,
        Speed::Fast | Speed::FastAgile => 8,
        Speed::Other => 6,
    }
}

/// "They must throw a 2+ on a D10 to permit their movement" (28.7).
pub const MOVE_THROW: u8 = 2;

/// A move between Map Boards to intercept enemy aircraft (28.7). Needs
/// Flight Time left and a move within the maximum; a D10 of 2+ (0 counts
/// 10) permits it. The move takes the session and the aircraft arrive in the
/// "box", unable to act until the following session. Returns whether it moved.
pub fn move_between_boards(
    speed: Speed,
    boards: u8,
    flight_time_left: u8,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(bool, RuleEvent), AirError> {
    if boards == 0 {
        return Err(AirError::NoMove);
    }
    let max = max_move(speed);
    if boards > max {
        return Err(AirError::TooFar { boards, max });
    }
    if flight_time_left == 0 {
        return Err(AirError::NoFlightTimeLeft);
    }
    let face = dice.d10();
    let moved = face >= MOVE_THROW;
    let event = RuleEvent::new(EventKind::AirOperation, rule("28.7 Aircraft Movement between Map Boards"))
        .actor(id)
        .input("speed", speed, "Slow 4, Fast 8, others 6 Map Boards")
        .input("boards", boards, "")
        .input("flight_time_left", flight_time_left, "sessions")
        .input("need", MOVE_THROW, "D10, 0 counts 10")
        .dice(10, &[face])
        .outcome(json!({ "moved": moved, "arrives_in_box": moved }));
    Ok((moved, event))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::dice::Scripted;

    fn c(sky: Sky, wind: Wind, light: Light) -> Conditions {
        Conditions { sky, wind, light }
    }

    #[test]
    fn book_example_no_moon_light_rain_high_winds_needs_six() {
        // "an aircraft taking off on a night with no moon but light rain and high
        // winds, requires a throw of 6 (1 + 2 + 3)".
        let night = c(Sky::LightRain, Wind::High, Light::NightNoMoon);
        assert_eq!(requirement(Flight::Aircraft, night, Chart::Standard), Some(6));
        assert_eq!(requirement(Flight::Gliders, night, Chart::Winter), None);
        assert_eq!(requirement(Flight::Recce, night, Chart::Standard), None);
        assert!(FlyingThrow { face: 6, chart: Chart::Standard }.permits(Flight::Aircraft, night));
        assert!(!FlyingThrow { face: 5, chart: Chart::Winter }.permits(Flight::Aircraft, night));
    }

    #[test]
    fn chart_rows_as_printed() {
        let fine = Conditions::FINE_DAY;
        assert!(Flight::ALL.iter().all(|&f| requirement(f, fine, Chart::Standard) == Some(1)));
        let heavy = c(Sky::HeavyRain, Wind::Calm, Light::Daylight);
        assert_eq!(Flight::ALL.map(|f| requirement(f, heavy, Chart::Winter)), [Some(6), None, None, None]);
        for sky in [Sky::Snow, Sky::Fog] {
            assert!(
                Flight::ALL
                    .iter()
                    .all(|&f| requirement(f, c(sky, Wind::Calm, Light::Daylight), Chart::Standard).is_none())
            );
        }
        let moon = c(Sky::Fine, Wind::Calm, Light::NightMoon);
        assert!(Flight::ALL.iter().all(|&f| requirement(f, moon, Chart::Standard) == Some(2)));
        let dark = c(Sky::Fine, Wind::Calm, Light::NightNoMoon);
        assert_eq!(Flight::ALL.map(|f| requirement(f, dark, Chart::Winter)), [Some(2), Some(2), Some(2), None]);
        // Heavy rain and light winds: 7, which no D6 can throw.
        let seven = c(Sky::HeavyRain, Wind::Light, Light::Daylight);
        assert_eq!(requirement(Flight::Aircraft, seven, Chart::Standard), Some(7));
        assert!(!FlyingThrow { face: 6, chart: Chart::Standard }.permits(Flight::Aircraft, seven));
        assert_eq!(requirement(Flight::Aircraft, c(Sky::Fine, Wind::Freezing, Light::Daylight), Chart::Standard), None);
    }

    #[test]
    fn light_winds_differ_between_the_charts() {
        let windy = c(Sky::Fine, Wind::Light, Light::Daylight);
        assert_eq!(Flight::ALL.map(|f| requirement(f, windy, Chart::Standard)), [Some(2), Some(3), Some(3), Some(2)]);
        assert_eq!(Flight::ALL.map(|f| requirement(f, windy, Chart::Winter)), [Some(2), Some(2), Some(2), Some(3)]);
        let freezing = c(Sky::Fine, Wind::Freezing, Light::Daylight);
        assert!(Flight::ALL.iter().all(|&f| requirement(f, freezing, Chart::Winter).is_none()));
    }

    #[test]
    fn one_throw_a_day_read_against_each_session() {
        let day = c(Sky::LightRain, Wind::Calm, Light::Daylight);
        let (t, e) = flying_throw(day, Chart::Standard, 0, &mut Scripted::new([2]), "Air Command");
        assert_eq!(e.kind, EventKind::Weather);
        assert_eq!(e.outcome["columns"][0]["permitted"], true);
        assert_eq!(e.outcome["bpc_each_session"], true);
        assert!(Flight::ALL.iter().all(|&f| t.permits(f, day)));
        let night = c(Sky::LightRain, Wind::Calm, Light::NightMoon);
        assert!(!t.permits(Flight::Aircraft, night), "the night session needs 3");
        // 32: "Air Command Flying permission throw −1 (+1) today".
        let (t, _) = flying_throw(day, Chart::Standard, 1, &mut Scripted::new([2]), "Air Command");
        assert!(t.permits(Flight::Aircraft, night), "a 3 of Diamonds makes the 2 a 3");
        let (t, _) = flying_throw(day, Chart::Standard, -1, &mut Scripted::new([2]), "Air Command");
        assert!(!t.permits(Flight::Aircraft, day), "a 3 of Spades makes it a 1");
    }

    #[test]
    fn airstrips_close_at_rain_gauge_five_unless_tarmac() {
        assert!(airstrip_operable(4, false));
        assert!(!airstrip_operable(5, false));
        assert!(!airstrip_operable(9, false));
        assert!(airstrip_operable(9, true));
    }

    #[test]
    fn flight_time_table() {
        use Basing::{Distant, Local};
        assert_eq!(flight_time(Role::Fighter, Distant, false), Ok(1));
        assert_eq!(flight_time(Role::Recce, Local, false), Ok(2));
        assert_eq!(flight_time(Role::DiveBomber, Distant, true), Ok(2));
        assert_eq!(flight_time(Role::GroundAttack, Local, true), Ok(3));
        assert_eq!(flight_time(Role::TorpedoBomber, Distant, false), Ok(2));
        assert_eq!(flight_time(Role::TorpedoBomber, Local, false), Ok(2));
        assert_eq!(flight_time(Role::Bomber, Distant, false), Ok(2));
        assert_eq!(flight_time(Role::Transport, Local, false), Ok(3));
        assert_eq!(flight_time(Role::Transport, Local, true), Err(AirError::EnduranceNotFitted(Role::Transport)));
    }

    #[test]
    fn moves_between_map_boards() {
        assert_eq!((max_move(Speed::Slow), max_move(Speed::Other), max_move(Speed::Fast)), (4, 6, 8));
        assert_eq!(max_move(Speed::FastAgile), 8);
        let (moved, e) = move_between_boards(Speed::Other, 6, 1, &mut Scripted::new([2]), "601").unwrap();
        assert!(moved);
        assert_eq!(e.dice[0].sides, 10);
        let (moved, _) = move_between_boards(Speed::Slow, 1, 1, &mut Scripted::new([1]), "601").unwrap();
        assert!(!moved, "a 1 fails");
        let (moved, _) = move_between_boards(Speed::Slow, 1, 1, &mut Scripted::new([10]), "601").unwrap();
        assert!(moved, "a 0 counts 10");
        assert_eq!(
            move_between_boards(Speed::Slow, 5, 1, &mut Scripted::new([]), "601").unwrap_err(),
            AirError::TooFar { boards: 5, max: 4 }
        );
        assert_eq!(
            move_between_boards(Speed::Fast, 2, 0, &mut Scripted::new([]), "601").unwrap_err(),
            AirError::NoFlightTimeLeft
        );
        assert_eq!(
            move_between_boards(Speed::Fast, 0, 2, &mut Scripted::new([]), "601").unwrap_err(),
            AirError::NoMove
        );
    }
}
