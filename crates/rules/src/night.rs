//! *Heroes All* "Night Fighting": what a night bound changes for an element,
//! in one place. The rules themselves live where they act, and this module
//! reads them from there: the 4 observation segments in
//! [`crate::observation`] (`ObservationTest::night`), the halved movement and
//! the bar on "at the double" in [`crate::movement`] (`MoveRequest::light`),
//! the night minefield total in [`crate::mines::clearing_needed`], and ground
//! troops spotting aircraft in [`crate::aircraft::ground_spot_need`]. What
//! is only here: "Snipers cannot operate", and the summary itself.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::day::Light;
use crate::mines;
use crate::officer::Quality;

/// "During the night bounds, observation is undertaken as normal but add
/// **4 segments** to the required total **unless** the target element fired
/// on its last turn".
pub const NIGHT_SEGMENTS: u8 = 4;

/// The element whose night is asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NightElement {
    pub quality: Quality,
    /// "Elite and **Partisan** troops can ignore the above restrictions" (movement).
    pub partisan: bool,
    pub sniper: bool,
}

/// What the light of a bound does to an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NightEffects {
    /// Segments added to observing a target that did not fire on its last turn.
    pub observation_segments: u8,
    /// "halve all of the scores achieved. Round fractions downwards."
    pub movement_halved: bool,
    /// "'At the double' moves are not permitted."
    pub at_the_double: bool,
    /// "All weapons can be fired as usual"; "Snipers cannot operate."
    pub may_operate: bool,
    /// Accumulated score that clears a minefield ("During Night Fighting this score needs to be 14").
    pub minefield_clearing: u32,
}

/// A sniper at night.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SniperAtNight;

impl fmt::Display for SniperAtNight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "snipers cannot operate at night")
    }
}

impl std::error::Error for SniperAtNight {}

/// *Heroes All*, "Night Fighting", Firing weapons: "All weapons can be fired
/// as usual. Snipers cannot operate."
///
/// Reading: "cannot operate" is the whole of the sniper's activity, fire and
/// movement alike; he stays where he is, still concealed, until daylight
/// (test `snipers_cannot_operate_at_night`).
pub fn sniper_may_operate(light: Light) -> Result<(), SniperAtNight> {
    match light {
        Light::Daylight => Ok(()),
        Light::Night => Err(SniperAtNight),
    }
}

/// The night's effects on an element in a bound of `light`.
///
/// Reading: "the above restrictions" that elite and partisan troops ignore
/// are the movement ones just above that line (halving and "at the double");
/// they still observe and are observed with the 4 segments (test
/// `elite_and_partisans_move_freely_but_still_see_by_night`).
pub fn effects(light: Light, e: NightElement) -> NightEffects {
    let night = light == Light::Night;
    let moves_freely = !night || e.quality == Quality::Elite || e.partisan;
    NightEffects {
        observation_segments: if night { NIGHT_SEGMENTS } else { 0 },
        movement_halved: !moves_freely,
        at_the_double: moves_freely,
        may_operate: !(e.sniper && night),
        minefield_clearing: mines::clearing_needed(night),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::movement::{DoubleBar, MoveClass, MoveError, MoveRequest, Mover, Pace, Stretch, Terrain, move_element};
    use crate::observation::{
        Between, ObservationTest, ObserverClass, ObserverState, Segment, TargetClass, TargetState, assess,
    };

    #[test]
    fn snipers_cannot_operate_at_night() {
        assert_eq!(sniper_may_operate(Light::Daylight), Ok(()));
        assert_eq!(sniper_may_operate(Light::Night), Err(SniperAtNight));
        let sniper = NightElement { quality: Quality::Elite, sniper: true, ..NightElement::default() };
        assert!(effects(Light::Daylight, sniper).may_operate);
        assert!(!effects(Light::Night, sniper).may_operate);
        assert!(effects(Light::Night, NightElement::default()).may_operate, "all weapons fire as usual");
    }

    #[test]
    fn night_changes_by_the_book() {
        let regular = NightElement::default();
        let day = effects(Light::Daylight, regular);
        assert_eq!((day.observation_segments, day.movement_halved, day.at_the_double), (0, false, true));
        assert_eq!(day.minefield_clearing, 10);
        let night = effects(Light::Night, regular);
        assert_eq!((night.observation_segments, night.movement_halved, night.at_the_double), (4, true, false));
        assert_eq!(night.minefield_clearing, 14);
    }

    #[test]
    fn elite_and_partisans_move_freely_but_still_see_by_night() {
        for e in [
            NightElement { quality: Quality::Elite, ..NightElement::default() },
            NightElement { partisan: true, ..NightElement::default() },
        ] {
            let n = effects(Light::Night, e);
            assert!(!n.movement_halved && n.at_the_double);
            assert_eq!(n.observation_segments, NIGHT_SEGMENTS);
        }
    }

    #[test]
    fn the_summary_agrees_with_observation_and_movement() {
        // Observation: the night line is 4 segments, none when the target fired.
        let observers = [(ObserverClass::Figure, 4)];
        let targets = [(TargetClass::Figure, 4)];
        let t = |night, fired| ObservationTest {
            observers: &observers,
            targets: &targets,
            between: Between { distance: crate::inches::Inches(10.0), ..Between::default() },
            observer: ObserverState::default(),
            target: TargetState { fired_last_turn: fired, ..TargetState::default() },
            night,
        };
        let night_line = |night, fired| assess(&t(night, fired)).unwrap().segments.get(Segment::Night);
        assert_eq!(night_line(true, false), NIGHT_SEGMENTS as i8);
        assert_eq!(night_line(true, true), 0);
        assert_eq!(night_line(false, false), 0);
        // Movement: 2D6 of 5 and 4 cross-country is 9 by day, 4 by night.
        let route = [Stretch::new(Terrain::Open, 20.0)];
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &route);
        req.light = Light::Night;
        let (m, _) = move_element(&req, &mut Scripted::new([5, 4]), "x").unwrap();
        assert_eq!(m.allowance, 4.0);
        assert!(effects(Light::Night, NightElement::default()).movement_halved);
        req.pace = Pace::AtTheDouble;
        assert_eq!(
            move_element(&req, &mut Scripted::new([]), "x").unwrap_err(),
            MoveError::AtTheDouble(DoubleBar::Night)
        );
    }
}
