//! Detection Throws (FYOW 16): the force arriving in a box throws to detect
//! the enemy on the board (16, 16.1, 16.2); the force in occupation throws to
//! detect an enemy that stays in a box (16.3, 16.4).

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::map::attitude::Attitude;
use crate::map::common::{Edge, Light, MapError, SessionConditions};

/// Who throws for a force arriving in a box (FYOW 16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArrivingObserver {
    /// Not headed by Recce designated troops in its Order of March: 4D6.
    Ordinary,
    /// Headed by Recce designated troops in its Order of March: 6D6.
    RecceLed,
    /// A Recce unit scouting as a Fraction ahead of the main body: 6D6.
    RecceFraction,
    /// A specialist reconnaissance aircraft: 6D6.
    ReconAircraft,
    /// Any other aircraft: 4D6.
    OtherAircraft,
}

impl ArrivingObserver {
    pub fn dice(self) -> u8 {
        match self {
            ArrivingObserver::Ordinary | ArrivingObserver::OtherAircraft => 4,
            ArrivingObserver::RecceLed | ArrivingObserver::RecceFraction | ArrivingObserver::ReconAircraft => 6,
        }
    }
}

/// How an enemy force on the board shows to an arriving observer (FYOW 16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EnemyPosture {
    /// Present or resting: a 5+ detects.
    PresentOrResting,
    /// Deployed: a 6 detects.
    Deployed,
    /// Entirely concealed: "cannot be detected".
    Concealed,
}

impl EnemyPosture {
    /// Reading (FYOW 15.3, 16): a Fortified Defence is a deployed one (needs a 6); a force in
    /// Disarray is not deployed (5+). `resting` is the supply mode "Rest".
    pub fn of(attitude: Attitude, entirely_concealed: bool) -> Self {
        match (entirely_concealed, attitude) {
            (true, _) => EnemyPosture::Concealed,
            (false, Attitude::Deployed | Attitude::Fortified) => EnemyPosture::Deployed,
            (false, Attitude::Present | Attitude::Disarray) => EnemyPosture::PresentOrResting,
        }
    }

    fn needs(self) -> Option<u8> {
        match self {
            EnemyPosture::PresentOrResting => Some(5),
            EnemyPosture::Deployed => Some(6),
            EnemyPosture::Concealed => None,
        }
    }
}

/// Dice lost to the light and weather (FYOW 16, 16.4): 1D6 on a moonlit night, 2D6 on a
/// night without moon, a further 1D6 in heavy rain or fog.
/// Reading (FYOW 16 against 25.2 "Where the night is moonlit ... Detection throws are taken as
/// if made during a daylight session"): the detection rule's own "deduct 1D6" for moonlight
/// governs; otherwise its moonlight line would never apply.
pub fn dice_lost(c: &SessionConditions) -> u8 {
    let light = match c.light {
        Light::Daylight => 0,
        Light::NightMoon => 1,
        Light::NightNoMoon => 2,
    };
    light + u8::from(c.rain_or_fog())
}

/// The outcome for one enemy force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sighting {
    pub force: String,
    pub detected: bool,
}

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnWars, section)
}

/// FYOW 16 Detection Throw by a force arriving in the box: one throw of 4D6 or 6D6, less
/// dice for night and weather, read against each enemy force on the board. Rationing does
/// not affect it (20.7.3). If an enemy is detected the arriving force follows its orders and
/// may retire if not itself detected (16.1); if none is, it enters the board and the action
/// moves to the tabletop (16.2).
pub fn detect_on_arrival(
    observer_force: &str,
    observer: ArrivingObserver,
    conditions: &SessionConditions,
    enemies: &[(String, EnemyPosture)],
    dice: &mut impl Roll,
) -> (Vec<Sighting>, RuleEvent) {
    let n = observer.dice().saturating_sub(dice_lost(conditions));
    let faces = dice.throw(n.into(), 6);
    let best = faces.iter().copied().max().unwrap_or(0);
    let sightings: Vec<Sighting> = enemies
        .iter()
        .map(|(f, p)| Sighting { force: f.clone(), detected: p.needs().is_some_and(|need| best >= need) })
        .collect();
    let event = RuleEvent::new(EventKind::Detection, rule("16 Detection Throw - forces arriving"))
        .actor(observer_force)
        .input("observer", observer, "4D6, or 6D6 for Recce")
        .input("dice_lost", dice_lost(conditions), "night and heavy rain or fog")
        .input("enemies", enemies, "5+ for present or resting, 6 for deployed, none for concealed")
        .dice(6, &faces)
        .outcome(json!({ "sightings": sightings }));
    (sightings, event)
}

/// How the occupying force stands (FYOW 16.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OccupierPosture {
    /// At Rest: 2D6.
    Rest,
    /// Present: 3D6.
    Present,
    /// Deployed: 4D6.
    Deployed,
    /// All a Recce unit: 5D6.
    AllRecce,
}

impl OccupierPosture {
    pub fn dice(self) -> u8 {
        match self {
            OccupierPosture::Rest => 2,
            OccupierPosture::Present => 3,
            OccupierPosture::Deployed => 4,
            OccupierPosture::AllRecce => 5,
        }
    }

    /// Reading (FYOW 15.3, 16.4): Fortified counts as Deployed, Disarray as Present.
    pub fn of(attitude: Attitude, resting: bool, all_recce: bool) -> Self {
        match (all_recce, resting, attitude) {
            (true, _, _) => OccupierPosture::AllRecce,
            (false, true, _) => OccupierPosture::Rest,
            (false, false, Attitude::Deployed | Attitude::Fortified) => OccupierPosture::Deployed,
            (false, false, Attitude::Present | Attitude::Disarray) => OccupierPosture::Present,
        }
    }
}

/// Where the arriving enemy's box lies, seen from the occupiers (FYOW 16.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bearing {
    Front,
    Flank,
    Rear,
}

/// Reading (FYOW 16.4): the occupiers face away from the edge they arrived at (they deploy in
/// the third of the board at that edge, 15.3): a box on that edge is to their rear, a box on an
/// adjacent edge to their flank, the opposite edge in front.
pub fn bearing(occupier_edge: Edge, box_edge: Edge) -> Bearing {
    if box_edge == occupier_edge {
        Bearing::Rear
    } else if box_edge.is_adjacent(occupier_edge) {
        Bearing::Flank
    } else {
        Bearing::Front
    }
}

/// What the occupiers try to detect (FYOW 16.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Quarry {
    /// "A result of a 4+ double is required to detect partisans".
    Partisans,
    /// "A result of a 5+ on any dice is required to detect enemy units".
    EnemyUnits,
    /// "A result of 2+ is required on any dice to detect enemy aircraft".
    Aircraft,
    /// "Spotting enemy aircraft that have just conducted a ground attack is automatic".
    AircraftAfterGroundAttack,
}

/// A "4+ double": two dice showing the same score of 4 or more (FYOW dice conventions).
pub fn has_double_at_least(faces: &[u8], least: u8) -> bool {
    faces.iter().enumerate().any(|(i, &f)| f >= least && faces[i + 1..].contains(&f))
}

/// FYOW 16.3, 16.4 Detection Throw by the forces in occupation, when next activated, of an
/// enemy that arrived in a box and stayed there: 2D6/3D6/4D6/5D6 by posture, less 1D6 for a
/// box to the flank or rear (unless Recce), less dice for night and weather.
pub fn detect_from_occupation(
    occupier_force: &str,
    posture: OccupierPosture,
    box_bearing: Bearing,
    conditions: &SessionConditions,
    quarry: Quarry,
    enemy_stayed_in_box: bool,
    dice: &mut impl Roll,
) -> Result<(bool, RuleEvent), MapError> {
    if !enemy_stayed_in_box {
        return Err(MapError::NotAllowed(
            "the occupiers throw only if the arriving force remains in the box (FYOW 16.3)".into(),
        ));
    }
    occupiers_throw(occupier_force, posture, box_bearing, conditions, quarry, 0, dice)
}

/// FYOW 28.13: the occupiers' Detection Throw at an enemy landing by
/// parachute or glider on their board, `extra_dice` more than 16.4 gives
/// them ("the defenders gaining an extra 1D6").
///
/// Reading (FYOW 28.13 with 16.4): the landing comes down on the board
/// itself, not in a box at an edge, so no die is lost for a flank or rear
/// (test `paratroops_are_seen_coming_down_with_an_extra_die`).
pub fn detect_landing_from_the_air(
    occupier_force: &str,
    posture: OccupierPosture,
    conditions: &SessionConditions,
    extra_dice: u8,
    dice: &mut impl Roll,
) -> (bool, RuleEvent) {
    occupiers_throw(occupier_force, posture, Bearing::Front, conditions, Quarry::EnemyUnits, extra_dice, dice)
        .expect("units are thrown for, not spotted automatically")
}

fn occupiers_throw(
    occupier_force: &str,
    posture: OccupierPosture,
    box_bearing: Bearing,
    conditions: &SessionConditions,
    quarry: Quarry,
    extra_dice: u8,
    dice: &mut impl Roll,
) -> Result<(bool, RuleEvent), MapError> {
    let mut event = RuleEvent::new(EventKind::Detection, rule("16.4 Detection Throw - the forces in occupation"))
        .actor(occupier_force)
        .input("posture", posture, "2D6 Rest, 3D6 present, 4D6 deployed, 5D6 all Recce")
        .input("bearing", box_bearing, "1D6 less to the flank or rear unless Recce")
        .input("dice_lost_to_light_and_weather", dice_lost(conditions), "")
        .input("quarry", quarry, "");
    if extra_dice > 0 {
        event = event.input("extra_dice", extra_dice, "FYOW 28.13: the enemy lands from the air on their board");
    }
    if quarry == Quarry::AircraftAfterGroundAttack {
        return Ok((true, event.outcome(json!({ "detected": true, "automatic": true }))));
    }
    let flank_or_rear = u8::from(box_bearing != Bearing::Front && posture != OccupierPosture::AllRecce);
    let n = (posture.dice() + extra_dice).saturating_sub(flank_or_rear + dice_lost(conditions));
    let faces = dice.throw(n.into(), 6);
    let detected = match quarry {
        Quarry::Partisans => has_double_at_least(&faces, 4),
        Quarry::EnemyUnits => faces.iter().any(|&f| f >= 5),
        Quarry::Aircraft => faces.iter().any(|&f| f >= 2),
        Quarry::AircraftAfterGroundAttack => true,
    };
    Ok((detected, event.dice(6, &faces).outcome(json!({ "detected": detected }))))
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    fn enemies() -> Vec<(String, EnemyPosture)> {
        vec![
            ("resting".into(), EnemyPosture::PresentOrResting),
            ("dug in".into(), EnemyPosture::Deployed),
            ("hidden".into(), EnemyPosture::Concealed),
        ]
    }

    #[test]
    fn a_five_finds_a_present_enemy_a_six_a_deployed_one_and_nothing_the_concealed() {
        let day = SessionConditions::fine_day();
        let (s, e) =
            detect_on_arrival("1 Bn", ArrivingObserver::Ordinary, &day, &enemies(), &mut Scripted::new([1, 2, 5, 3]));
        assert_eq!(s.iter().map(|x| x.detected).collect::<Vec<_>>(), [true, false, false]);
        assert_eq!(e.dice.len(), 4);
        let (s, _) =
            detect_on_arrival("1 Bn", ArrivingObserver::Ordinary, &day, &enemies(), &mut Scripted::new([6, 1, 1, 1]));
        assert_eq!(s.iter().map(|x| x.detected).collect::<Vec<_>>(), [true, true, false]);
    }

    #[test]
    fn recce_throws_six_dice_and_night_and_fog_take_dice_away() {
        let (_, e) = detect_on_arrival(
            "Recce",
            ArrivingObserver::RecceLed,
            &SessionConditions::fine_day(),
            &enemies(),
            &mut Scripted::new([1; 6]),
        );
        assert_eq!(e.dice.len(), 6);
        let dark_fog = SessionConditions { fog: true, ..SessionConditions::fine(Light::NightNoMoon) };
        let (_, e) = detect_on_arrival(
            "Recce",
            ArrivingObserver::RecceFraction,
            &dark_fog,
            &enemies(),
            &mut Scripted::new([1; 3]),
        );
        assert_eq!(e.dice.len(), 3, "6 - 2 - 1");
        let (s, e) = detect_on_arrival(
            "1 Bn",
            ArrivingObserver::Ordinary,
            &SessionConditions { heavy_rain: true, ..dark_fog },
            &enemies(),
            &mut Scripted::new([1]),
        );
        assert_eq!(e.dice.len(), 1, "heavy rain and fog together cost one die");
        assert!(!s[0].detected);
        let (_, e) = detect_on_arrival(
            "Spitfire PR",
            ArrivingObserver::ReconAircraft,
            &SessionConditions::fine(Light::NightMoon),
            &[],
            &mut Scripted::new([1; 5]),
        );
        assert_eq!(e.dice.len(), 5);
    }

    #[test]
    fn paratroops_are_seen_coming_down_with_an_extra_die() {
        // Present occupiers throw 3D6, and one more for a landing from the
        // air; a box at their rear would have cost them one.
        let day = SessionConditions::fine_day();
        let (seen, e) = detect_landing_from_the_air(
            "Grenadiers",
            OccupierPosture::Present,
            &day,
            1,
            &mut Scripted::new([1, 2, 3, 5]),
        );
        assert!(seen, "the fourth die's 5 finds them");
        assert_eq!(e.dice.len(), 4);
        let (seen, e) = detect_from_occupation(
            "Grenadiers",
            OccupierPosture::Present,
            Bearing::Rear,
            &day,
            Quarry::EnemyUnits,
            true,
            &mut Scripted::new([1, 2, 3, 5]),
        )
        .unwrap();
        assert!(!seen, "two dice at a box to the rear");
        assert_eq!(e.dice.len(), 2);
    }

    #[test]
    fn moonlit_night_costs_one_die_not_daylight() {
        assert_eq!(dice_lost(&SessionConditions::fine(Light::NightMoon)), 1);
        assert_eq!(dice_lost(&SessionConditions::fine_day()), 0);
    }

    #[test]
    fn postures_follow_the_attitudes() {
        assert_eq!(EnemyPosture::of(Attitude::Fortified, false), EnemyPosture::Deployed);
        assert_eq!(EnemyPosture::of(Attitude::Disarray, false), EnemyPosture::PresentOrResting);
        assert_eq!(EnemyPosture::of(Attitude::Deployed, true), EnemyPosture::Concealed);
        assert_eq!(OccupierPosture::of(Attitude::Deployed, false, true), OccupierPosture::AllRecce);
        assert_eq!(OccupierPosture::of(Attitude::Deployed, true, false), OccupierPosture::Rest);
        assert_eq!(OccupierPosture::of(Attitude::Fortified, false, false), OccupierPosture::Deployed);
    }

    #[test]
    fn the_occupiers_lose_a_die_for_a_box_on_the_flank_or_rear_unless_recce() {
        assert_eq!(bearing(Edge::West, Edge::West), Bearing::Rear);
        assert_eq!(bearing(Edge::West, Edge::North), Bearing::Flank);
        assert_eq!(bearing(Edge::West, Edge::East), Bearing::Front);
        let day = SessionConditions::fine_day();
        let (found, e) = detect_from_occupation(
            "1 Bn",
            OccupierPosture::Deployed,
            Bearing::Flank,
            &day,
            Quarry::EnemyUnits,
            true,
            &mut Scripted::new([4, 4, 5]),
        )
        .unwrap();
        assert!(found);
        assert_eq!(e.dice.len(), 3);
        let (_, e) = detect_from_occupation(
            "Recce",
            OccupierPosture::AllRecce,
            Bearing::Rear,
            &day,
            Quarry::EnemyUnits,
            true,
            &mut Scripted::new([1; 5]),
        )
        .unwrap();
        assert_eq!(e.dice.len(), 5);
        let (found, e) = detect_from_occupation(
            "HQ",
            OccupierPosture::Rest,
            Bearing::Rear,
            &SessionConditions::fine(Light::NightMoon),
            Quarry::EnemyUnits,
            true,
            &mut Scripted::new([]),
        )
        .unwrap();
        assert!(!found && e.dice.is_empty(), "2 - 1 - 1 = no dice");
        assert!(
            detect_from_occupation(
                "1 Bn",
                OccupierPosture::Present,
                Bearing::Front,
                &day,
                Quarry::EnemyUnits,
                false,
                &mut Scripted::new([])
            )
            .is_err()
        );
    }

    #[test]
    fn partisans_need_a_four_plus_double_and_aircraft_a_two() {
        let day = SessionConditions::fine_day();
        let front = Bearing::Front;
        let (found, _) = detect_from_occupation(
            "1 Bn",
            OccupierPosture::Present,
            front,
            &day,
            Quarry::Partisans,
            true,
            &mut Scripted::new([6, 5, 3]),
        )
        .unwrap();
        assert!(!found, "a 6 and a 5 are no double");
        let (found, _) = detect_from_occupation(
            "1 Bn",
            OccupierPosture::Present,
            front,
            &day,
            Quarry::Partisans,
            true,
            &mut Scripted::new([4, 1, 4]),
        )
        .unwrap();
        assert!(found);
        assert!(!has_double_at_least(&[3, 3, 6], 4));
        let (found, _) = detect_from_occupation(
            "1 Bn",
            OccupierPosture::Rest,
            front,
            &day,
            Quarry::Aircraft,
            true,
            &mut Scripted::new([1, 2]),
        )
        .unwrap();
        assert!(found);
        let (found, e) = detect_from_occupation(
            "1 Bn",
            OccupierPosture::Rest,
            front,
            &day,
            Quarry::AircraftAfterGroundAttack,
            true,
            &mut Scripted::new([]),
        )
        .unwrap();
        assert!(found && e.dice.is_empty());
    }
}
