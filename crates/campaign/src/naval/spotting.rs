//! Spotting targets in a naval engagement (FYOW 29.9): who may spot what
//! from where, the spotting dice of each observer, the score needed and its
//! modifiers. Only spotted targets can be fired on (29.17).

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::map::common::Light;
use crate::naval::craft::Craft;
use crate::naval::{NavalError, Rain, SeaConditions, Wind, rule};

/// Who is spotting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Observer {
    /// A vessel; `british_radar` for a British Destroyer carrying RADAR.
    Vessel {
        craft: Craft,
        british_radar: bool,
    },
    /// A squadron of `machines` aircraft.
    Aircraft {
        machines: u8,
    },
    CoastalArtillery,
}

/// What is to be spotted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpotTarget {
    Vessel(Craft),
    OnShore,
    /// Aircraft; `single` when the target is a single machine.
    Aircraft {
        single: bool,
    },
}

/// One target nominated by an observer this session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nomination {
    pub id: String,
    pub target: SpotTarget,
    /// The target is in the Combat Area (ignored for on-shore targets).
    pub in_combat_area: bool,
    /// The target fired at the observer (-1 to the score needed).
    pub firing_at_observer: bool,
}

/// One spotting die against one nominated target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpotResult {
    pub id: String,
    pub needed: i8,
    pub face: u8,
    pub spotted: bool,
}

/// FYOW 29.9 "Spotting Dice throws": D6 per session.
///
/// Reading (FYOW 29.9): coastal artillery, not named in the list, throws 1D6
/// like "all other" observers (the quick reference's "Others 1D6").
pub fn spotting_dice(observer: Observer) -> u8 {
    match observer {
        Observer::Vessel { craft: Craft::Destroyer, .. } => 3,
        Observer::Vessel { craft: Craft::Gunboat, .. } => 2,
        Observer::Vessel { .. } | Observer::CoastalArtillery => 1,
        Observer::Aircraft { machines } => machines,
    }
}

/// FYOW 29.9 "Spotting mechanism": the D6 score needed before modifiers.
///
/// Reading (FYOW 29.9 against the Quick Reference Guide): the section's text
/// governs where the quick reference disagrees: a surface vessel needs 4+ on
/// an on-shore target (quick reference 5+) and coastal artillery 5+ on a
/// surface vessel (quick reference 4+).
pub fn base_score(observer: Observer, target: SpotTarget) -> Result<i8, NavalError> {
    use Craft::{Destroyer, Submarine};
    let surface = |c: Craft| c != Submarine;
    Ok(match (observer, target) {
        (Observer::Vessel { craft: Destroyer, .. }, SpotTarget::Vessel(Submarine)) => 2,
        (Observer::Vessel { craft: Submarine, .. }, SpotTarget::Vessel(t)) if surface(t) => 2,
        (Observer::Vessel { craft, .. }, SpotTarget::Vessel(t)) if surface(craft) && surface(t) => 3,
        (Observer::Vessel { craft, .. }, SpotTarget::OnShore) if surface(craft) => 4,
        (Observer::Vessel { craft, .. }, SpotTarget::Aircraft { single }) if surface(craft) => {
            if single {
                3
            } else {
                2
            }
        }
        (Observer::CoastalArtillery, SpotTarget::Vessel(t)) if surface(t) => 5,
        (Observer::Aircraft { .. }, SpotTarget::Vessel(t)) if surface(t) => 2,
        (o, t) => return Err(NavalError::CannotSpot(format!("{o:?} against {t:?}"))),
    })
}

/// FYOW 29.9: where observer and target must be. Destroyers spot vessels "providing
/// that either they, or their intended target is in the Combat area"; all other
/// vessels need both there; every vessel must be in the Combat Area to spot
/// on-shore targets and aircraft; coastal artillery spots only targets in the
/// Combat Area; aircraft must be in the Combat Area to spot a vessel.
///
/// Reading (FYOW 29.9): an aircraft, like "all other" observers, spots only
/// a vessel that is in the Combat Area too: a vessel in a Box is off the Map
/// Board's waters.
pub fn position_allows(observer: Observer, observer_in_combat: bool, n: &Nomination) -> bool {
    match (observer, n.target) {
        (Observer::Vessel { .. }, SpotTarget::OnShore) => observer_in_combat,
        (Observer::Vessel { craft: Craft::Destroyer, .. }, SpotTarget::Aircraft { .. }) => observer_in_combat,
        (Observer::Vessel { craft: Craft::Destroyer, .. }, _) => observer_in_combat || n.in_combat_area,
        (Observer::CoastalArtillery, _) => n.in_combat_area,
        _ => observer_in_combat && n.in_combat_area,
    }
}

/// FYOW 29.9 modifiers "to the required score" ("not applicable to or against
/// submarines").
///
/// Reading (FYOW 29.9): "+1 for British Destroyers (RADAR)" is a benefit, so it
/// lowers the score needed by 1 (as "+1" to the die would); the lost sign of
/// "1 for spotting target firing at observer" is a minus.
fn modifiers(observer: Observer, n: &Nomination, c: SeaConditions) -> Vec<(&'static str, i8)> {
    let submarine = matches!(observer, Observer::Vessel { craft: Craft::Submarine, .. })
        || n.target == SpotTarget::Vessel(Craft::Submarine);
    if submarine {
        return Vec::new();
    }
    let mut m = Vec::new();
    match c.rain {
        Rain::Light => m.push(("light rain", 1)),
        Rain::Heavy => m.push(("heavy rain", 2)),
        Rain::None => {}
    }
    if matches!(n.target, SpotTarget::Vessel(t) if t.is_small_vessel()) {
        m.push(("small vessel", 1));
    }
    match c.light {
        Light::NightMoon => m.push(("night with moonlight", 1)),
        Light::NightNoMoon => m.push(("night without moonlight", 2)),
        Light::Daylight => {}
    }
    if c.wind == Wind::High {
        m.push(("high winds", 2));
    }
    if n.firing_at_observer {
        m.push(("target firing at observer", -1));
    }
    if matches!(observer, Observer::Vessel { craft: Craft::Destroyer, british_radar: true }) {
        m.push(("British Destroyer with RADAR", -1));
    }
    m
}

/// An observer's spotting throws for the session: one D6 per nominated target
/// against the score needed after modifiers.
///
/// Reading (FYOW 29.9): the observer's dice are its session's attempts, one
/// die per target nominated ("one target cannot be nominated twice in the same
/// Session by the same observer"), so a Destroyer tries for up to 3 targets.
pub fn spot(
    observer_id: &str,
    observer: Observer,
    observer_in_combat: bool,
    nominations: &[Nomination],
    conditions: SeaConditions,
    dice: &mut impl Roll,
) -> Result<(Vec<SpotResult>, RuleEvent), NavalError> {
    let allowed = spotting_dice(observer);
    if nominations.len() > usize::from(allowed) {
        return Err(NavalError::OutOfRange(format!(
            "{} targets nominated; {observer:?} has {allowed} spotting dice a session",
            nominations.len()
        )));
    }
    let mut needed = Vec::new();
    for (i, n) in nominations.iter().enumerate() {
        if nominations[..i].iter().any(|o| o.id == n.id) {
            return Err(NavalError::CannotSpot(format!("{} nominated twice in a session", n.id)));
        }
        let base = base_score(observer, n.target)?;
        if !position_allows(observer, observer_in_combat, n) {
            return Err(NavalError::CannotSpot(format!("{} is not where {observer:?} can see it", n.id)));
        }
        let mods = modifiers(observer, n, conditions);
        needed.push((base + mods.iter().map(|m| m.1).sum::<i8>(), mods));
    }
    let mut faces = Vec::new();
    let results: Vec<SpotResult> = nominations
        .iter()
        .zip(&needed)
        .map(|(n, (need, _))| {
            let face = dice.d6();
            faces.push(face);
            SpotResult { id: n.id.clone(), needed: *need, face, spotted: i16::from(face) >= i16::from(*need) }
        })
        .collect();
    let mut event = RuleEvent::new(EventKind::Detection, rule("29.9 Spotting targets"))
        .actor(observer_id)
        .input("observer", observer, "")
        .input("observer_in_combat_area", observer_in_combat, "");
    for (n, (_, mods)) in nominations.iter().zip(&needed) {
        event = event.input(format!("modifiers against {}", n.id), mods, "added to the score needed");
    }
    let event = event.dice(6, &faces).outcome(json!({ "results": results }));
    Ok((results, event))
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    fn nom(id: &str, target: SpotTarget) -> Nomination {
        Nomination { id: id.into(), target, in_combat_area: true, firing_at_observer: false }
    }

    const DESTROYER: Observer = Observer::Vessel { craft: Craft::Destroyer, british_radar: false };
    const GUNBOAT: Observer = Observer::Vessel { craft: Craft::Gunboat, british_radar: false };

    #[test]
    fn spotting_dice_per_session() {
        assert_eq!(spotting_dice(DESTROYER), 3);
        assert_eq!(spotting_dice(GUNBOAT), 2);
        assert_eq!(spotting_dice(Observer::Vessel { craft: Craft::Submarine, british_radar: false }), 1);
        assert_eq!(spotting_dice(Observer::Vessel { craft: Craft::Mtb, british_radar: false }), 1);
        assert_eq!(spotting_dice(Observer::Aircraft { machines: 4 }), 4);
        assert_eq!(spotting_dice(Observer::CoastalArtillery), 1);
    }

    #[test]
    fn scores_needed_as_in_the_section() {
        let sub = Observer::Vessel { craft: Craft::Submarine, british_radar: false };
        assert_eq!(base_score(GUNBOAT, SpotTarget::Vessel(Craft::Destroyer)), Ok(3));
        assert_eq!(base_score(GUNBOAT, SpotTarget::OnShore), Ok(4));
        assert_eq!(base_score(GUNBOAT, SpotTarget::Aircraft { single: false }), Ok(2));
        assert_eq!(base_score(GUNBOAT, SpotTarget::Aircraft { single: true }), Ok(3));
        assert_eq!(base_score(Observer::CoastalArtillery, SpotTarget::Vessel(Craft::Gunboat)), Ok(5));
        assert_eq!(base_score(Observer::Aircraft { machines: 1 }, SpotTarget::Vessel(Craft::Gunboat)), Ok(2));
        assert_eq!(base_score(sub, SpotTarget::Vessel(Craft::Destroyer)), Ok(2));
        assert_eq!(base_score(DESTROYER, SpotTarget::Vessel(Craft::Submarine)), Ok(2));
        assert!(base_score(GUNBOAT, SpotTarget::Vessel(Craft::Submarine)).is_err(), "only destroyers detect");
        assert!(base_score(Observer::Aircraft { machines: 1 }, SpotTarget::Vessel(Craft::Submarine)).is_err());
        assert!(base_score(sub, SpotTarget::OnShore).is_err());
    }

    #[test]
    fn destroyer_spots_from_the_box_others_do_not() {
        let mut n = nom("E1", SpotTarget::Vessel(Craft::Mtb));
        let (r, _) =
            spot("D", DESTROYER, false, &[n.clone()], SeaConditions::FAIR_DAY, &mut Scripted::new([4])).unwrap();
        assert!(r[0].spotted, "3 + 1 small vessel = 4");
        assert!(spot("G", GUNBOAT, false, &[n.clone()], SeaConditions::FAIR_DAY, &mut Scripted::new([6])).is_err());
        n.in_combat_area = false;
        assert!(spot("D", DESTROYER, false, &[n.clone()], SeaConditions::FAIR_DAY, &mut Scripted::new([6])).is_err());
        let shore = nom("Bty", SpotTarget::OnShore);
        assert!(spot("D", DESTROYER, false, &[shore], SeaConditions::FAIR_DAY, &mut Scripted::new([6])).is_err());
    }

    #[test]
    fn night_rain_and_wind_add_up() {
        let c =
            SeaConditions { light: Light::NightNoMoon, rain: Rain::Heavy, wind: Wind::High, ..SeaConditions::FAIR_DAY };
        let (r, e) =
            spot("G", GUNBOAT, true, &[nom("D1", SpotTarget::Vessel(Craft::Destroyer))], c, &mut Scripted::new([6]))
                .unwrap();
        assert_eq!(r[0].needed, 9, "3 + 2 + 2 + 2");
        assert!(!r[0].spotted);
        assert_eq!(e.kind, EventKind::Detection);
    }

    #[test]
    fn radar_and_return_fire_lower_the_score() {
        let radar = Observer::Vessel { craft: Craft::Destroyer, british_radar: true };
        let mut n = nom("T", SpotTarget::Vessel(Craft::SmallGunboat));
        n.firing_at_observer = true;
        let (r, _) = spot("D", radar, true, &[n], SeaConditions::FAIR_DAY, &mut Scripted::new([2])).unwrap();
        assert_eq!(r[0].needed, 2, "3 + 1 small - 1 firing - 1 radar");
        assert!(r[0].spotted);
    }

    #[test]
    fn no_modifiers_against_submarines() {
        let c = SeaConditions { light: Light::NightNoMoon, wind: Wind::High, ..SeaConditions::FAIR_DAY };
        let radar = Observer::Vessel { craft: Craft::Destroyer, british_radar: true };
        let (r, _) =
            spot("D", radar, true, &[nom("U", SpotTarget::Vessel(Craft::Submarine))], c, &mut Scripted::new([2]))
                .unwrap();
        assert_eq!(r[0].needed, 2);
        assert!(r[0].spotted);
    }

    #[test]
    fn one_die_per_target_and_no_target_twice() {
        let a = nom("A", SpotTarget::Vessel(Craft::Gunboat));
        let b = nom("B", SpotTarget::Vessel(Craft::Gunboat));
        let err = spot(
            "G",
            GUNBOAT,
            true,
            &[a.clone(), b.clone(), a.clone()],
            SeaConditions::FAIR_DAY,
            &mut Scripted::new([]),
        );
        assert!(matches!(err, Err(NavalError::OutOfRange(_))));
        let err = spot("G", GUNBOAT, true, &[a.clone(), a.clone()], SeaConditions::FAIR_DAY, &mut Scripted::new([]));
        assert!(matches!(err, Err(NavalError::CannotSpot(_))));
        let (r, _) = spot("G", GUNBOAT, true, &[a, b], SeaConditions::FAIR_DAY, &mut Scripted::new([2, 3])).unwrap();
        assert_eq!(r.iter().map(|r| r.spotted).collect::<Vec<_>>(), [false, true]);
    }

    #[test]
    fn coastal_artillery_sees_only_the_combat_area() {
        let mut n = nom("G", SpotTarget::Vessel(Craft::Gunboat));
        let (r, _) = spot(
            "Bty",
            Observer::CoastalArtillery,
            false,
            &[n.clone()],
            SeaConditions::FAIR_DAY,
            &mut Scripted::new([5]),
        )
        .unwrap();
        assert!(r[0].spotted);
        n.in_combat_area = false;
        assert!(
            spot("Bty", Observer::CoastalArtillery, false, &[n], SeaConditions::FAIR_DAY, &mut Scripted::new([5]))
                .is_err()
        );
    }

    #[test]
    fn aircraft_spot_vessels_only_in_the_combat_area() {
        let sq = Observer::Aircraft { machines: 2 };
        let mut n = nom("G", SpotTarget::Vessel(Craft::Gunboat));
        assert!(spot("Sq", sq, false, &[n.clone()], SeaConditions::FAIR_DAY, &mut Scripted::new([6])).is_err());
        n.in_combat_area = false;
        assert!(spot("Sq", sq, true, &[n.clone()], SeaConditions::FAIR_DAY, &mut Scripted::new([6])).is_err());
        n.in_combat_area = true;
        let (r, _) = spot("Sq", sq, true, &[n], SeaConditions::FAIR_DAY, &mut Scripted::new([2])).unwrap();
        assert!(r[0].spotted);
    }
}
