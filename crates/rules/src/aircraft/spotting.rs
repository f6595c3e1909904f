//! Spotting from and at aircraft (*Heroes All* "Observation - aircraft
//! rules"): the score needed by height, weather and night, and the throw.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{AirError, Height, rule};
use crate::dice::Roll;
use crate::event::{EventKind, RuleEvent};

/// The weather for spotting, as the two spotting tables name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weather {
    Fair,
    Overcast,
    LightRain,
    HeavyRain,
}

/// The D6 an aircraft needs to spot a ground target (*Heroes All*,
/// "Observation - aircraft rules"): at low level 3+ (5+ in a building or
/// woodland or camouflaged); at medium level, for bombing, 4+ (5+ as before);
/// "called in" to a specific target, 2+.
///
/// Reading: the called-in 2+ is for the target it was called to, at either
/// height and whatever its cover (the briefing names it). High-level bombers
/// do not attack on this table (test `spotting_ground_targets_by_height`).
pub fn spot_ground_target_need(height: Height, covered: bool, called_in: bool) -> Result<u8, AirError> {
    match (height, called_in, covered) {
        (Height::High, ..) => Err(AirError::WrongHeight(Height::High)),
        (_, true, _) => Ok(2),
        (_, false, true) => Ok(5),
        (Height::Low, false, false) => Ok(3),
        (Height::Medium, false, false) => Ok(4),
    }
}

/// An aircraft spotting another: 2+ fair, 3+ light rain, 5+ heavy rain, less 1
/// if the target is firing at the spotter.
///
/// Reading: overcast without rain is fair for aircraft (only rain is named);
/// the "deduct 1" can bring 2+ to 1+, which always spots
/// (test `spotting_aircraft_by_weather`).
pub fn spot_aircraft_need(weather: Weather, target_firing_at_spotter: bool) -> u8 {
    let need = match weather {
        Weather::Fair | Weather::Overcast => 2,
        Weather::LightRain => 3,
        Weather::HeavyRain => 5,
    };
    need - u8::from(target_firing_at_spotter)
}

/// AA crews and ground troops spotting an aircraft: 2+ fair, 3+
/// overcast/light rain, 4+ heavy rain; automatic if it "has just made a ground
/// attack" (`None`). "Ground troops spotting aircraft at night require a 3+
/// for all levels."
///
/// Reading: at night the 3+ is a floor, so heavy rain at night stays 4+
/// (test `ground_spotting_aircraft`).
pub fn ground_spot_need(weather: Weather, night: bool, just_attacked: bool) -> Option<u8> {
    if just_attacked {
        return None;
    }
    let need = match weather {
        Weather::Fair => 2,
        Weather::Overcast | Weather::LightRain => 3,
        Weather::HeavyRain => 4,
    };
    Some(if night { need.max(3) } else { need })
}

/// Throws a spotting D6 against `need` (`None` is automatic).
pub fn spot(need: Option<u8>, what: &str, dice: &mut impl Roll, id: &str) -> (bool, RuleEvent) {
    let face = need.map(|_| dice.d6());
    let seen = match (need, face) {
        (Some(n), Some(f)) => f >= n,
        _ => true,
    };
    let e = RuleEvent::new(EventKind::Observation, rule("Observation - aircraft rules"))
        .actor(id)
        .input("spotting", what, "")
        .input("need", need, "None: automatic after a ground attack this bound")
        .dice(6, face.as_slice())
        .outcome(json!({ "seen": seen }));
    (seen, e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;

    #[test]
    fn spotting_ground_targets_by_height() {
        assert_eq!(spot_ground_target_need(Height::Low, false, false), Ok(3));
        assert_eq!(spot_ground_target_need(Height::Low, true, false), Ok(5));
        assert_eq!(spot_ground_target_need(Height::Medium, false, false), Ok(4));
        assert_eq!(spot_ground_target_need(Height::Medium, true, false), Ok(5));
        assert_eq!(spot_ground_target_need(Height::Low, true, true), Ok(2));
        assert!(spot_ground_target_need(Height::High, false, false).is_err());
        let (seen, e) = spot(Some(3), "ground target", &mut Scripted::new([2]), "Typhoon");
        assert!(!seen);
        assert_eq!(e.dice.len(), 1);
    }

    #[test]
    fn spotting_aircraft_by_weather() {
        assert_eq!(spot_aircraft_need(Weather::Fair, false), 2);
        assert_eq!(spot_aircraft_need(Weather::LightRain, false), 3);
        assert_eq!(spot_aircraft_need(Weather::HeavyRain, false), 5);
        assert_eq!(spot_aircraft_need(Weather::HeavyRain, true), 4);
        assert_eq!(spot_aircraft_need(Weather::Fair, true), 1);
        assert!(spot(Some(1), "aircraft", &mut Scripted::new([1]), "a").0);
    }

    #[test]
    fn ground_spotting_aircraft() {
        assert_eq!(ground_spot_need(Weather::Fair, false, false), Some(2));
        assert_eq!(ground_spot_need(Weather::Overcast, false, false), Some(3));
        assert_eq!(ground_spot_need(Weather::HeavyRain, false, false), Some(4));
        assert_eq!(ground_spot_need(Weather::Fair, true, false), Some(3));
        assert_eq!(ground_spot_need(Weather::HeavyRain, true, false), Some(4));
        assert_eq!(ground_spot_need(Weather::HeavyRain, false, true), None);
        let (seen, e) = spot(None, "aircraft", &mut Scripted::new([]), "AA");
        assert!(seen && e.dice.is_empty());
    }
}
