//! Movement for boats (FYOW 29.6): river moves between Map Boards on simple
//! coastlines (29.6.1), and off-shore moves in island/peninsular campaigns
//! (29.6.2). Destroyers on simple coastlines are placed where required
//! without a test (29.5, 29.6.1) and occupy a sea Map Board for 1 day.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::map::common::Light;
use crate::naval::craft::Craft;
use crate::naval::{NavalError, Rain, SeaConditions, Wind, rule};

/// A move test's throw and result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoatMove {
    pub face: u8,
    /// D10 plus Movement Points plus modifiers.
    pub score: i16,
    pub needed: u8,
    pub moved: bool,
}

/// FYOW 29.6.1: "A Battlegroup throws a D10 for each proposed move between
/// Map Boards ... adds the D10 score to its own number of Movement Points and
/// then modifies that score by any factors shown on the Movement Test Table
/// ... the total scored must equal or exceed the number of Movement Points
/// shown on the map on the link". `modifiers` is the Movement Test Table's
/// total for the Battlegroup (FYOW 14, from the map rules); "a failed throw
/// means that the unit does not move in that session".
pub fn river_move(
    id: &str,
    movement_points: u8,
    modifiers: i8,
    link_points: u8,
    dice: &mut impl Roll,
) -> (BoatMove, RuleEvent) {
    let face = dice.d10();
    let score = i16::from(face) + i16::from(movement_points) + i16::from(modifiers);
    let result = BoatMove { face, score, needed: link_points, moved: score >= i16::from(link_points) };
    let event = RuleEvent::new(EventKind::MapMovement, rule("29.6.1 Movement for boats - simple coastlines"))
        .actor(id)
        .input("movement_points", movement_points, "the Battlegroup's own")
        .input("modifiers", modifiers, "Movement Test Table")
        .input("link_points", link_points, "river link on the campaign map")
        .dice(10, &[face])
        .outcome(json!(result));
    (result, event)
}

/// One row of the 29.6.2 tables for an off-shore vessel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffShoreRow {
    /// "Movement per session" (Map Boards).
    pub per_session: u8,
    /// "Maximum moves per day".
    pub per_day: u8,
    /// The vessel's "Movement Points".
    pub movement_points: u8,
    /// Weather effects: heavy rain, snow, high winds, fog, night (moonlit),
    /// night (no moon); 0 where the table says "n/a".
    pub heavy_rain: i8,
    pub snow: i8,
    pub high_winds: i8,
    pub fog: i8,
    pub night_moonlit: i8,
    pub night_no_moon: i8,
}

const fn row(per_session: u8, movement_points: u8, weather: [i8; 6]) -> OffShoreRow {
    OffShoreRow {
        per_session,
        per_day: per_session * 6,
        movement_points,
        heavy_rain: weather[0],
        snow: weather[1],
        high_winds: weather[2],
        fog: weather[3],
        night_moonlit: weather[4],
        night_no_moon: weather[5],
    }
}

/// "A score of 3 is required to move between any two Map Boards covering the
/// off-shore area" (29.6.2).
pub const OFF_SHORE_SCORE: u8 = 3;

/// FYOW 29.6.2, the moves table and the "Movement Table for off-shore boats",
/// row for row (the maximum per day is six sessions' moves, as printed:
/// 18, 12, 12, 6, 24, 6).
pub fn off_shore_row(craft: Craft) -> Result<OffShoreRow, NavalError> {
    Ok(match craft {
        Craft::Destroyer => row(3, 2, [0, 0, -1, -1, 0, 0]),
        Craft::Gunboat => row(2, 2, [0, 0, -2, -2, 0, 0]),
        Craft::SmallGunboat => row(2, 2, [0, 0, -2, -2, 0, 0]),
        Craft::Mtb => row(4, 2, [0, 0, -2, -2, 0, 0]),
        Craft::Submarine => row(1, 2, [0, 0, 0, 0, 0, 0]),
        Craft::FishingBoat => row(1, 1, [-1, -1, -3, -3, 0, -1]),
        other => return Err(NavalError::NotNavigable(format!("{other:?} has no off-shore movement row"))),
    })
}

/// FYOW 29.6.2: an off-shore vessel's move to the next Map Board. "Throw
/// 1D10. The result is modified by any weather effects"; with the vessel's
/// Movement Points added "as usual" (29.6.1) the score must reach 3. "A
/// vessel moving multiple Map Boards in a session makes multiple throws."
///
/// Reading (FYOW 29.6.2): every weather effect that applies is added (high
/// winds and fog together both count); light rain and light winds have no
/// column and no effect.
pub fn off_shore_move(
    id: &str,
    craft: Craft,
    conditions: SeaConditions,
    moved_this_session: u8,
    moved_today: u8,
    dice: &mut impl Roll,
) -> Result<(BoatMove, RuleEvent), NavalError> {
    let r = off_shore_row(craft)?;
    if moved_this_session >= r.per_session {
        return Err(NavalError::OutOfRange(format!("{craft:?} moves {} Map Boards a session", r.per_session)));
    }
    if moved_today >= r.per_day {
        return Err(NavalError::OutOfRange(format!("{craft:?} moves at most {} Map Boards a day", r.per_day)));
    }
    let mut weather = 0i8;
    if conditions.rain == Rain::Heavy {
        weather += r.heavy_rain;
    }
    if conditions.snow {
        weather += r.snow;
    }
    if conditions.wind == Wind::High {
        weather += r.high_winds;
    }
    if conditions.fog {
        weather += r.fog;
    }
    weather += match conditions.light {
        Light::Daylight => 0,
        Light::NightMoon => r.night_moonlit,
        Light::NightNoMoon => r.night_no_moon,
    };
    let face = dice.d10();
    let score = i16::from(face) + i16::from(r.movement_points) + i16::from(weather);
    let result = BoatMove { face, score, needed: OFF_SHORE_SCORE, moved: score >= i16::from(OFF_SHORE_SCORE) };
    let event = RuleEvent::new(EventKind::MapMovement, rule("29.6.2 Movement for boats - island/peninsular campaigns"))
        .actor(id)
        .input("craft", craft, "")
        .input("movement_points", r.movement_points, "Movement Table for off-shore boats")
        .input("weather", weather, "weather effects of the table")
        .input("moved_this_session", moved_this_session, "")
        .dice(10, &[face])
        .outcome(json!(result));
    Ok((result, event))
}

/// FYOW 29.6.2: a vessel attacked by another vessel, coastal artillery or
/// aircraft "may attempt move to another Map Board ... unless it has orders
/// to defend that Map Board".
pub fn may_evade(orders_to_defend: bool) -> bool {
    !orders_to_defend
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    #[test]
    fn river_move_needs_the_link_points() {
        let (m, e) = river_move("Flotilla", 4, -1, 9, &mut Scripted::new([6]));
        assert_eq!(m.score, 9);
        assert!(m.moved, "equal to the link moves");
        assert_eq!(e.kind, EventKind::MapMovement);
        let (m, _) = river_move("Flotilla", 4, -1, 9, &mut Scripted::new([5]));
        assert!(!m.moved);
    }

    #[test]
    fn off_shore_tables_as_printed() {
        let expect = [
            (Craft::Destroyer, 3, 18),
            (Craft::Gunboat, 2, 12),
            (Craft::SmallGunboat, 2, 12),
            (Craft::Submarine, 1, 6),
            (Craft::Mtb, 4, 24),
            (Craft::FishingBoat, 1, 6),
        ];
        for (c, s, d) in expect {
            let r = off_shore_row(c).unwrap();
            assert_eq!((r.per_session, r.per_day), (s, d), "{c:?}");
        }
        let f = off_shore_row(Craft::FishingBoat).unwrap();
        assert_eq!((f.movement_points, f.heavy_rain, f.high_winds, f.night_no_moon), (1, -1, -3, -1));
        assert!(off_shore_row(Craft::Canoe).is_err());
    }

    #[test]
    fn fishing_boat_in_a_gale_at_night() {
        // 1 MP, high winds -3, fog -3, no moon -1: a D10 of 9 scores 3 and moves, 8 fails.
        let c = SeaConditions { light: Light::NightNoMoon, wind: Wind::High, fog: true, ..SeaConditions::FAIR_DAY };
        let (m, _) = off_shore_move("Smack", Craft::FishingBoat, c, 0, 0, &mut Scripted::new([9])).unwrap();
        assert_eq!(m.score, 3);
        assert!(m.moved);
        let (m, _) = off_shore_move("Smack", Craft::FishingBoat, c, 0, 0, &mut Scripted::new([8])).unwrap();
        assert!(!m.moved);
    }

    #[test]
    fn submarines_ignore_weather() {
        let c = SeaConditions { wind: Wind::High, fog: true, rain: Rain::Heavy, ..SeaConditions::FAIR_DAY };
        let (m, _) = off_shore_move("U", Craft::Submarine, c, 0, 0, &mut Scripted::new([1])).unwrap();
        assert!(m.moved, "1 + 2 = 3");
    }

    #[test]
    fn destroyer_in_high_wind_and_fog() {
        let c = SeaConditions { wind: Wind::High, fog: true, ..SeaConditions::FAIR_DAY };
        let (m, _) = off_shore_move("D", Craft::Destroyer, c, 0, 0, &mut Scripted::new([2])).unwrap();
        assert_eq!(m.score, 2);
        assert!(!m.moved);
    }

    #[test]
    fn moves_per_session_and_day_are_limits() {
        let c = SeaConditions::FAIR_DAY;
        assert!(off_shore_move("U", Craft::Submarine, c, 1, 1, &mut Scripted::new([5])).is_err());
        assert!(off_shore_move("M", Craft::Mtb, c, 3, 23, &mut Scripted::new([5])).is_ok());
        assert!(off_shore_move("M", Craft::Mtb, c, 0, 24, &mut Scripted::new([5])).is_err());
    }

    #[test]
    fn defending_vessels_stay() {
        assert!(may_evade(false));
        assert!(!may_evade(true));
    }
}
