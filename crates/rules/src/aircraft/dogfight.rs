//! Air-to-air combat (*Heroes All* "Air to air combat"): matching attackers
//! to defenders, the hit table by speed, and the fire with its damage throw.

use serde_json::json;

use super::{AirError, Aircraft, Speed, rule};
use crate::dice::Roll;
use crate::event::{EventKind, RuleEvent};

/// "For every hit, throw a D6 and score 3+ to register damage" (air to air).
pub const AIR_TO_AIR_DAMAGE: u8 = 3;

/// Checks a match-up: per defender, how many attackers take it on. "It is
/// not permitted for more than one aircraft to attack a member of the
/// opposing squadron unless the attackers outnumber the defenders in which
/// case any surplus attackers ... can attack any defender"; "4 attackers and
/// 2 defenders ... must 'match-up' 2-1 twice and cannot 'match-up' 1-1 and 3-1".
///
/// Reading: from the example, surplus attackers are spread evenly (no
/// defender has two more attackers than another); with fewer attackers each
/// takes a different defender (test `match_up_four_against_two`).
pub fn check_match_up(attackers: usize, per_defender: &[usize]) -> Result<(), AirError> {
    let bad = || AirError::BadMatchUp(per_defender.to_vec());
    if per_defender.iter().sum::<usize>() != attackers || per_defender.is_empty() {
        return Err(bad());
    }
    let max = per_defender.iter().copied().max().unwrap_or(0);
    let min = per_defender.iter().copied().min().unwrap_or(0);
    if max > 1 && (max - min > 1 || attackers <= per_defender.len()) {
        return Err(bad());
    }
    Ok(())
}

/// An even match-up: the first defenders take the surplus.
pub fn match_up(attackers: usize, defenders: usize) -> Vec<usize> {
    if defenders == 0 {
        return Vec::new();
    }
    (0..defenders).map(|i| attackers / defenders + usize::from(i < attackers % defenders)).collect()
}

/// *Heroes All*, "Air to air combat" hit table: rows the target's speed,
/// columns the attacker's (Fast, All other, Slow). A 7 is "6 then 4+".
pub const AIR_TO_AIR_HIT: [[u8; 3]; 3] = [
    [5, 6, 7], // Fast target
    [4, 5, 6], // All other
    [3, 4, 5], // Slow target
];

/// The score needed, as a ladder past 6: 7 is "6 then 4+", and "increased by
/// 1 if the firing aircraft is damaged".
///
/// Reading: past 6 the ladder continues the book's "6 then 4+": 8 is "6 then
/// 5+" (test `air_to_air_table`).
pub fn air_to_air_need(attacker: Speed, target: Speed, attacker_damaged: bool) -> u8 {
    AIR_TO_AIR_HIT[target as usize][attacker as usize] + u8::from(attacker_damaged)
}

/// Whether a D6 (and, past 6, a second D6) scores `need`.
fn ladder(need: u8, dice: &mut impl Roll, faces: &mut Vec<u8>) -> bool {
    let f = dice.d6();
    faces.push(f);
    if need <= 6 {
        return f >= need;
    }
    if f < 6 {
        return false;
    }
    let g = dice.d6();
    faces.push(g);
    g >= need - 3
}

/// One aircraft's fire at another at the same height: "throw 1D6 per machine
/// gun. AT cannons cannot be used in air-to-air combat"; a hit then damages
/// on 3+. Returns damages.
///
/// Reading: the aircraft's (non-AT) cannon fire in the air like its machine
/// guns, a D6 each (test `air_to_air_fire_uses_guns_not_at_cannon`).
pub fn air_to_air_fire(
    attacker: &Aircraft,
    target: &Aircraft,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(u8, RuleEvent), AirError> {
    let (ha, ht) = (attacker.over_table()?, target.over_table()?);
    if ha != ht {
        return Err(AirError::DifferentLevels(ha, ht));
    }
    let guns = attacker.kind.mmg + attacker.kind.hmg + attacker.kind.cannon;
    if guns == 0 {
        return Err(AirError::NoAirWeapons);
    }
    let need = air_to_air_need(attacker.kind.speed, target.kind.speed, attacker.damaged());
    let mut faces = Vec::new();
    let hits = (0..guns).filter(|_| ladder(need, dice, &mut faces)).count();
    let damage_faces = dice.throw(hits, 6);
    let damages = damage_faces.iter().filter(|&&f| f >= AIR_TO_AIR_DAMAGE).count() as u8;
    let e = RuleEvent::new(EventKind::Fire, rule("Air to air combat"))
        .actor(id)
        .input("guns", guns, "1D6 per machine gun")
        .input("need", need, "7: 6 then 4+; +1 if the firer is damaged")
        .dice(6, &faces)
        .dice(6, &damage_faces)
        .outcome(json!({ "hits": hits, "damages": damages }));
    Ok((damages, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aircraft::testing::{flying, kind};
    use crate::aircraft::{Height, Role};
    use crate::dice::Scripted;

    #[test]
    fn match_up_four_against_two() {
        assert_eq!(match_up(4, 2), vec![2, 2]);
        assert_eq!(check_match_up(4, &[2, 2]), Ok(()));
        assert!(check_match_up(4, &[1, 3]).is_err(), "cannot match up 1-1 and 3-1");
        assert_eq!(check_match_up(5, &[3, 2]), Ok(()));
        assert_eq!(check_match_up(2, &[1, 1, 0]), Ok(()));
        assert!(check_match_up(2, &[2, 0, 0]).is_err(), "no doubling up without outnumbering");
        assert_eq!(match_up(2, 3), vec![1, 1, 0]);
    }

    #[test]
    fn air_to_air_table() {
        assert_eq!(air_to_air_need(Speed::Fast, Speed::Fast, false), 5);
        assert_eq!(air_to_air_need(Speed::Normal, Speed::Fast, false), 6);
        assert_eq!(air_to_air_need(Speed::Slow, Speed::Fast, false), 7);
        assert_eq!(air_to_air_need(Speed::Fast, Speed::Normal, false), 4);
        assert_eq!(air_to_air_need(Speed::Slow, Speed::Normal, false), 6);
        assert_eq!(air_to_air_need(Speed::Fast, Speed::Slow, false), 3);
        assert_eq!(air_to_air_need(Speed::Slow, Speed::Slow, false), 5);
        assert_eq!(air_to_air_need(Speed::Normal, Speed::Normal, true), 6);
        let mut faces = Vec::new();
        assert!(ladder(7, &mut Scripted::new([6, 4]), &mut faces), "6 then 4+");
        assert!(!ladder(7, &mut Scripted::new([6, 3]), &mut faces));
        assert!(!ladder(8, &mut Scripted::new([6, 4]), &mut faces), "damaged: 6 then 5+");
        assert!(!ladder(7, &mut Scripted::new([5]), &mut faces));
    }

    #[test]
    fn air_to_air_fire_uses_guns_not_at_cannon() {
        let mut k = kind(Role::Fighter, Speed::Fast, 2);
        k.mmg = 2;
        k.cannon = 1;
        k.at_cannon = 2;
        let a = flying(k, Height::Medium);
        let t = flying(kind(Role::MediumBomber, Speed::Normal, 3), Height::Medium);
        // Fast vs all other: 4+. 3 guns: 4, 3, 6 -> 2 hits; damage 3+: 3, 2 -> 1.
        let (d, _) = air_to_air_fire(&a, &t, &mut Scripted::new([4, 3, 6, 3, 2]), "f").unwrap();
        assert_eq!(d, 1);
        let low = flying(kind(Role::GroundAttack, Speed::Normal, 2), Height::Low);
        assert!(matches!(air_to_air_fire(&a, &low, &mut Scripted::new([]), "f"), Err(AirError::DifferentLevels(..))));
        let mut at_only = kind(Role::GroundAttack, Speed::Normal, 2);
        at_only.at_cannon = 2;
        let b = flying(at_only, Height::Medium);
        assert_eq!(air_to_air_fire(&b, &t, &mut Scripted::new([]), "b").unwrap_err(), AirError::NoAirWeapons);
    }
}
