//! Anti-aircraft fire (*Heroes All* "Anti aircraft fire"): the AA table,
//! hits from doubles and better, and the damage throw by speed.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{AirError, Aircraft, Height, Speed, rule};
use crate::dice::Roll;
use crate::event::{EventKind, RuleEvent};

/// The AA weapons of "Anti aircraft fire".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AaWeapon {
    /// Per 3 figures.
    Infantry,
    /// LMG in a dedicated role.
    Lmg,
    /// Turret-mounted MG.
    Tmg,
    Hmg,
    /// Multiple HMG (AA).
    MultipleHmg,
    CannonUnder40,
    Cannon40Plus,
    Cannon75Plus,
}

/// One row of the AA table: dice per shot at each height (`None`: cannot
/// fire at that height), shots per bound, and whether the (*) extra D6 for a
/// ground attacker applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AaRow {
    pub weapon: AaWeapon,
    pub dice: [Option<u8>; 3],
    pub shots: u8,
    pub star: bool,
}

/// 0 is a blank cell: the weapon cannot fire at that height.
const fn cell(n: u8) -> Option<u8> {
    if n == 0 { None } else { Some(n) }
}

const fn aa(weapon: AaWeapon, low: u8, medium: u8, high: u8, shots: u8, star: bool) -> AaRow {
    AaRow { weapon, dice: [cell(low), cell(medium), cell(high)], shots, star }
}

/// *Heroes All*, "Anti aircraft fire" table: D6 per shot by height; "Guns
/// have 2 shots per bound unless stated" (infantry: "1 shot only").
///
/// Readings: every weapon is a "gun" for the 2 shots except infantry; a
/// 40mm+ cannon fires at medium (3D6) and high (2D6) levels; a 75mm+ at high
/// (3D6) only, where it is listed; no cannon is listed against low level and
/// none fires there, as written (test `aa_table_as_printed`).
pub const AA_TABLE: [AaRow; 8] = [
    aa(AaWeapon::Infantry, 2, 0, 0, 1, false),
    aa(AaWeapon::Lmg, 2, 0, 0, 2, true),
    aa(AaWeapon::Tmg, 2, 0, 0, 2, true),
    aa(AaWeapon::Hmg, 3, 0, 0, 2, true),
    aa(AaWeapon::MultipleHmg, 4, 0, 0, 2, true),
    aa(AaWeapon::CannonUnder40, 0, 3, 0, 2, false),
    aa(AaWeapon::Cannon40Plus, 0, 3, 2, 2, false),
    aa(AaWeapon::Cannon75Plus, 0, 0, 3, 2, false),
];

impl AaWeapon {
    pub fn row(self) -> &'static AaRow {
        &AA_TABLE[self as usize]
    }
}

/// "Each double thrown scores 1 hit. A 'triple' counts as 2 hits, a
/// quadruple is 3 hits and a quintuple is 4 hits": every face showing n
/// times (n ≥ 2) scores n − 1; two pairs are two doubles.
pub fn aa_hits(faces: &[u8]) -> u8 {
    (1..=6u8).map(|f| faces.iter().filter(|&&x| x == f).count().saturating_sub(1) as u8).sum()
}

/// The D6 an AA or air-to-air hit needs to register damage.
pub const fn aa_damage_need(speed: Speed) -> u8 {
    match speed {
        Speed::Fast => 5,
        Speed::Normal => 4,
        Speed::Slow => 3,
    }
}

/// One AA weapon's fire at an aircraft for the bound: each shot its dice
/// (another D6 per shot at a low-level aircraft that has made a ground attack
/// this bound, for starred rows), hits from doubles and better, then a damage
/// D6 per hit. Returns damages. `air_to_air_at_medium`: air-to-air combat is
/// taking place at medium level, which stops AA fire there.
pub fn aa_fire(
    weapon: AaWeapon,
    target: &Aircraft,
    air_to_air_at_medium: bool,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(u8, RuleEvent), AirError> {
    let height = target.over_table()?;
    if height == Height::Medium && air_to_air_at_medium {
        return Err(AirError::NoAaFire);
    }
    let row = weapon.row();
    let base = row.dice[height as usize].ok_or(AirError::NoAaFire)?;
    let extra = u8::from(row.star && height == Height::Low && target.attacked_ground);
    let mut e = RuleEvent::new(EventKind::Fire, rule("Anti aircraft fire"))
        .actor(id)
        .input("weapon", weapon, "")
        .input("height", height, "")
        .input("dice_per_shot", base + extra, "(*) another D6 at an aircraft that made a ground attack")
        .input("shots", row.shots, "guns 2 shots unless stated");
    let mut hits = 0;
    for _ in 0..row.shots {
        let faces = dice.throw(usize::from(base + extra), 6);
        hits += aa_hits(&faces);
        e = e.dice(6, &faces);
    }
    let need = aa_damage_need(target.kind.speed);
    let damage_faces = dice.throw(usize::from(hits), 6);
    let damages = damage_faces.iter().filter(|&&f| f >= need).count() as u8;
    let e = e
        .input("damage_need", need, "4+; Fast 5+; Slow 3+")
        .dice(6, &damage_faces)
        .outcome(json!({ "hits": hits, "damages": damages }));
    Ok((damages, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aircraft::Role;
    use crate::aircraft::testing::{flying, kind};
    use crate::dice::Scripted;

    #[test]
    fn aa_table_as_printed() {
        use AaWeapon as W;
        assert_eq!(W::Infantry.row().dice, [Some(2), None, None]);
        assert_eq!(W::Infantry.row().shots, 1);
        assert_eq!(W::Hmg.row().dice[0], Some(3));
        assert_eq!(W::MultipleHmg.row().dice[0], Some(4));
        assert_eq!(W::CannonUnder40.row().dice, [None, Some(3), None]);
        assert_eq!(W::Cannon40Plus.row().dice, [None, Some(3), Some(2)]);
        assert_eq!(W::Cannon75Plus.row().dice, [None, None, Some(3)]);
        assert!(AA_TABLE.iter().all(|r| r.shots == 2 || r.weapon == W::Infantry));
        assert!(AA_TABLE.iter().enumerate().all(|(i, r)| r.weapon as usize == i));
    }

    #[test]
    fn doubles_triples_and_more_score_hits() {
        assert_eq!(aa_hits(&[1, 2]), 0);
        assert_eq!(aa_hits(&[3, 3]), 1);
        assert_eq!(aa_hits(&[3, 3, 3]), 2);
        assert_eq!(aa_hits(&[5, 5, 5, 5]), 3);
        assert_eq!(aa_hits(&[2, 2, 2, 2, 2]), 4);
        assert_eq!(aa_hits(&[3, 3, 5, 5]), 2, "two doubles");
    }

    #[test]
    fn aa_fire_adds_a_die_after_a_ground_attack_and_damages_by_speed() {
        let mut a = flying(kind(Role::GroundAttack, Speed::Fast, 2), Height::Low);
        // HMG 2 shots of 3D6: (4,4,1) = 1 hit, (2,2,2) = 2 hits; damage 5+ (Fast): 5,4,6 -> 2.
        let (d, e) = aa_fire(AaWeapon::Hmg, &a, false, &mut Scripted::new([4, 4, 1, 2, 2, 2, 5, 4, 6]), "aa").unwrap();
        assert_eq!(d, 2);
        assert_eq!(e.dice.len(), 9);
        a.attacked_ground = true;
        // 4D6 a shot now: (1,2,3,4), (6,6,1,2) = 1 hit; damage 5 -> 1.
        let (d, _) = aa_fire(AaWeapon::Hmg, &a, false, &mut Scripted::new([1, 2, 3, 4, 6, 6, 1, 2, 5]), "aa").unwrap();
        assert_eq!(d, 1);
        assert_eq!(
            aa_fire(AaWeapon::CannonUnder40, &a, false, &mut Scripted::new([]), "aa").unwrap_err(),
            AirError::NoAaFire
        );
        let m = flying(kind(Role::MediumBomber, Speed::Slow, 3), Height::Medium);
        assert_eq!(
            aa_fire(AaWeapon::Cannon40Plus, &m, true, &mut Scripted::new([]), "aa").unwrap_err(),
            AirError::NoAaFire
        );
        assert_eq!(
            (aa_damage_need(Speed::Fast), aa_damage_need(Speed::Normal), aa_damage_need(Speed::Slow)),
            (5, 4, 3)
        );
    }
}
