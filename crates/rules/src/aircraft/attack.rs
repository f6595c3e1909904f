//! Aircraft attacking ground troops (*Heroes All* "Aircraft attacking ground
//! troops", "Bomb damage", "Anti Tank damage"): strafing with guns and
//! rockets, bombs and their damage, and AT weapons against armour.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{AirError, Aircraft, BombSize, Height, Role, rule};
use crate::dice::Roll;
use crate::effects::{self, ArmourClass, AtResult, Facing, HeColumn, HeTarget, VehicleState};
use crate::event::{EventKind, RuleEvent};

/// "Aircraft fire their MMG's with a 1D6 each, HMGs with 2D6 each. Cannons
/// throw 2D6. 5+ hits. Rockets throw 1D6 each and hit on a 5+."
pub const GROUND_ATTACK_DICE: [(&str, u8); 4] = [("mmg", 1), ("hmg", 2), ("cannon", 2), ("rockets", 1)];
/// The hit score of guns and rockets against ground targets.
pub const GROUND_ATTACK_HIT: u8 = 5;

/// Strafes a ground target from low level: the dice of every MMG, HMG,
/// cannon and rocket, 5+ hits. "Hits on infantry, CSW and soft-skinned
/// targets are dealt with as if they were hits from a grounded weapon."
pub fn strafe(a: &Aircraft, dice: &mut impl Roll, id: &str) -> Result<(u8, RuleEvent), AirError> {
    if a.over_table()? != Height::Low {
        return Err(AirError::WrongHeight(a.over_table()?));
    }
    let counts = [a.kind.mmg, a.kind.hmg, a.kind.cannon, a.kind.rockets];
    let n: usize = GROUND_ATTACK_DICE.iter().zip(counts).map(|((_, per), c)| usize::from(per * c)).sum();
    if n == 0 {
        return Err(AirError::NoSuchWeapon);
    }
    let faces = dice.throw(n, 6);
    let hits = faces.iter().filter(|&&f| f >= GROUND_ATTACK_HIT).count() as u8;
    let e = RuleEvent::new(EventKind::Fire, rule("Aircraft attacking ground troops"))
        .actor(id)
        .input("mmg", a.kind.mmg, "1D6 each")
        .input("hmg", a.kind.hmg, "2D6 each")
        .input("cannon", a.kind.cannon, "2D6 each")
        .input("rockets", a.kind.rockets, "1D6 each")
        .input("hit", GROUND_ATTACK_HIT, "5+ hits")
        .dice(6, &faces)
        .outcome(json!({ "hits": hits }));
    Ok((hits, e))
}

/// Drops the bombs of one bound: "Bombs are dropped using Indirect Fire rules
/// but always need a 6 to hit the target. Dive bombers (Stuka etc) always need
/// a 4+ to hit." One D6 a bomb; no modifier ("always").
///
/// Reading: bombing is from low level or, for bombers and dive bombers, from
/// medium ("Aircraft at medium level trying to spot a target for bombing"),
/// never from high; guns and rockets are low level only
/// (test `bombs_need_six_or_four_for_dive_bombers`).
pub fn drop_bombs(a: &Aircraft, dice: &mut impl Roll, id: &str) -> Result<(BombSize, u8, RuleEvent), AirError> {
    let height = a.over_table()?;
    if height == Height::High {
        return Err(AirError::WrongHeight(height));
    }
    let (size, n) = a.kind.bombs.filter(|b| b.1 > 0).ok_or(AirError::NoSuchWeapon)?;
    let need = if a.kind.role == Role::DiveBomber { 4 } else { 6 };
    let faces = dice.throw(usize::from(n), 6);
    let hits = faces.iter().filter(|&&f| f >= need).count() as u8;
    let e = RuleEvent::new(EventKind::Fire, rule("Aircraft attacking ground troops"))
        .actor(id)
        .input("bombs", n, "dropped per bound (CODEX)")
        .input("size", size, "")
        .input("need", need, "always a 6; dive bombers always 4+")
        .dice(6, &faces)
        .outcome(json!({ "hits": hits }));
    Ok((size, hits, e))
}

/// *Heroes All*, "Bomb damage": small bombs on HE Effects column D, medium on
/// F, heavy on "3F": "Throw 3D6 and refer to HE Effects Table column F for
/// each. The effect is the accumulated score." "For hits on buildings, the HE
/// Effects Table scores are doubled." Returns the score a bomb hit gives
/// (the building rules take it from here).
pub fn bomb_score(size: BombSize, on_building: bool, dice: &mut impl Roll, id: &str) -> (u8, RuleEvent) {
    let (column, n) = bomb_column(size);
    let faces = dice.throw(n, 6);
    let table: u8 = faces.iter().map(|&f| column.casualties(f)).sum();
    let score = if on_building { table * 2 } else { table };
    let e = RuleEvent::new(EventKind::HeEffect, rule("Bomb damage"))
        .actor(id)
        .input("size", size, "small D, medium F, heavy 3 x F accumulated")
        .input("on_building", on_building, "scores doubled on buildings")
        .dice(6, &faces)
        .outcome(json!({ "score": score }));
    (score, e)
}

/// The HE Effects column and number of D6 of a bomb.
pub const fn bomb_column(size: BombSize) -> (HeColumn, usize) {
    match size {
        BombSize::Small => (HeColumn::D, 1),
        BombSize::Medium => (HeColumn::F, 1),
        BombSize::Heavy => (HeColumn::F, 3),
    }
}

/// A bomb hit on men, guns or AFVs. Small and medium bombs are an HE hit on
/// their column ([`effects::he_hit`]); a heavy bomb's accumulated 3F score
/// stands for the table's casualties and the rules under the HE Effects Table
/// follow from it.
///
/// Reading: against a closed AFV a heavy bomb damages on 5+ like a shell of
/// 150mm and over (test `heavy_bomb_accumulates_three_f_dice`).
pub fn bomb_hit(size: BombSize, target: HeTarget, dice: &mut impl Roll) -> Result<(u8, bool, RuleEvent), AirError> {
    if size != BombSize::Heavy {
        let (column, _) = bomb_column(size);
        let (out, e) = effects::he_hit(column, target, dice).map_err(|_| AirError::BadInput("no one there"))?;
        return Ok((out.casualties, out.weapon_destroyed || out.vehicle_damaged, e));
    }
    if matches!(target, HeTarget::Infantry { figures: 0 } | HeTarget::Gun { crew: 0 }) {
        return Err(AirError::BadInput("no one there"));
    }
    let faces = dice.throw(3, 6);
    let table: u8 = faces.iter().map(|&f| HeColumn::F.casualties(f)).sum();
    let (casualties, second_need) = match target {
        HeTarget::Infantry { figures } => (table.min(figures), None),
        HeTarget::Gun { crew } => (table.min(crew), (table > 0).then_some(4)),
        HeTarget::OpenTopped { crew } => {
            let c = table.saturating_sub(1).min(crew);
            (c, (c > 0).then_some(6))
        }
        HeTarget::Closed { .. } => (0, (table > 1).then_some(5)),
    };
    let second = second_need.map(|_| dice.d6());
    let wrecked = matches!((second_need, second), (Some(n), Some(f)) if f >= n);
    let mut e = RuleEvent::new(EventKind::HeEffect, rule("Bomb damage"))
        .input("size", size, "heavy: 3D6 on column F, accumulated")
        .input("target", target, "rules under the HE Effects Table")
        .dice(6, &faces);
    if let Some(s) = second {
        e = e.dice(6, &[s]);
    }
    let e = e.outcome(json!({ "table": table, "casualties": casualties, "destroyed_or_damaged": wrecked }));
    Ok((casualties, wrecked, e))
}

/// "Treat the Attack Value of the AT weapon as +8."
pub const AIR_AT_ATTACK: i8 = 8;

/// An armoured vehicle attacked from the air.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AtTarget {
    pub moving: bool,
    pub armour: ArmourClass,
    pub open_topped: bool,
    pub state: VehicleState,
}

/// *Heroes All*, "Anti Tank damage": a D6 per AT weapon, 5+ against a
/// stationary target, 6 against a moving one; a hit is D10 + 8 against the
/// side armour ("Defence Values for the top of AFVs is the same as the side
/// armour"); "Any hit on an open-topped AFV destroys it."
///
/// Reading: an aim (the aircraft's act) adds +1 to the D6 as the ground
/// rules' aim does for AT fire (test `at_from_the_air`). The AT weapons are
/// the machine's AT cannon and its rockets, a D6 each ("Rockets throw 1D6
/// each"): rockets were the ground-attack machines' weapon against armour,
/// while its MGs and ordinary cannon cannot harm an AFV (test
/// `rockets_are_at_weapons_from_the_air`).
pub fn at_attack(
    a: &Aircraft,
    aimed: bool,
    target: AtTarget,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(VehicleState, Vec<RuleEvent>), AirError> {
    let AtTarget { moving, armour, open_topped, state } = target;
    if a.over_table()? != Height::Low {
        return Err(AirError::WrongHeight(a.over_table()?));
    }
    let weapons = at_weapons(a);
    if weapons == 0 {
        return Err(AirError::NoSuchWeapon);
    }
    let need = if moving { 6 } else { 5 };
    let faces = dice.throw(usize::from(weapons), 6);
    let hits = faces.iter().filter(|&&f| f + u8::from(aimed) >= need).count();
    let mut events = vec![
        RuleEvent::new(EventKind::Fire, rule("Anti Tank damage"))
            .actor(id)
            .input("at_weapons", weapons, "AT cannon and rockets, a D6 each")
            .input("need", need, "5+ stationary, 6 moving")
            .input("aimed", aimed, "+1 for an aim")
            .dice(6, &faces)
            .outcome(json!({ "hits": hits })),
    ];
    let mut state = state;
    for _ in 0..hits {
        if open_topped {
            state = state.after(AtResult::Brewed);
            continue;
        }
        let (after, _, e) = effects::at_hit(AIR_AT_ATTACK, armour, Facing::Side, state, dice);
        state = after;
        events.push(e);
    }
    Ok((state, events))
}

/// The D6s of a machine's AT weapons: its AT cannon and its rockets.
pub fn at_weapons(a: &Aircraft) -> u8 {
    a.kind.at_cannon.saturating_add(a.kind.rockets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aircraft::testing::{flying, kind};
    use crate::aircraft::{Position, Speed};
    use crate::dice::Scripted;

    #[test]
    fn strafing_dice_by_weapon_and_five_hits() {
        let mut k = kind(Role::GroundAttack, Speed::Normal, 2);
        k.mmg = 2; // 2 dice
        k.hmg = 1; // 2 dice
        k.cannon = 1; // 2 dice
        k.rockets = 2; // 2 dice
        let a = flying(k, Height::Low);
        let mut d = Scripted::new([5, 4, 6, 1, 2, 5, 3, 5]);
        let (hits, e) = strafe(&a, &mut d, "a").unwrap();
        assert_eq!(hits, 4);
        assert_eq!(e.dice.len(), 8);
        assert_eq!(d.remaining(), 0);
        let mut b = a.clone();
        b.position = Position::OverTable(Height::Medium);
        assert_eq!(strafe(&b, &mut Scripted::new([]), "b").unwrap_err(), AirError::WrongHeight(Height::Medium));
    }

    #[test]
    fn bombs_need_six_or_four_for_dive_bombers() {
        let mut k = kind(Role::MediumBomber, Speed::Normal, 3);
        k.bombs = Some((BombSize::Medium, 3));
        let a = flying(k.clone(), Height::Medium);
        let (_, hits, _) = drop_bombs(&a, &mut Scripted::new([6, 5, 4]), "b").unwrap();
        assert_eq!(hits, 1);
        k.role = Role::DiveBomber;
        let d = flying(k.clone(), Height::Medium);
        let (_, hits, _) = drop_bombs(&d, &mut Scripted::new([6, 5, 4]), "s").unwrap();
        assert_eq!(hits, 3);
        let h = flying(k, Height::High);
        assert!(drop_bombs(&h, &mut Scripted::new([]), "h").is_err());
        let f = flying(kind(Role::Fighter, Speed::Fast, 1), Height::Low);
        assert_eq!(drop_bombs(&f, &mut Scripted::new([]), "f").unwrap_err(), AirError::NoSuchWeapon);
    }

    #[test]
    fn bomb_columns_and_buildings_doubled() {
        // Column D face 6 = 3; column F face 6 = 4 (HE Effects Table).
        assert_eq!(bomb_score(BombSize::Small, false, &mut Scripted::new([6]), "b").0, 3);
        assert_eq!(bomb_score(BombSize::Medium, false, &mut Scripted::new([6]), "b").0, 4);
        assert_eq!(bomb_score(BombSize::Medium, true, &mut Scripted::new([6]), "b").0, 8);
        // 3F: F(1)=1 + F(4)=3 + F(6)=4 = 8.
        assert_eq!(bomb_score(BombSize::Heavy, false, &mut Scripted::new([1, 4, 6]), "b").0, 8);
        assert_eq!(bomb_score(BombSize::Heavy, true, &mut Scripted::new([1, 4, 6]), "b").0, 16);
    }

    #[test]
    fn heavy_bomb_accumulates_three_f_dice() {
        let (c, _, _) =
            bomb_hit(BombSize::Heavy, HeTarget::Infantry { figures: 10 }, &mut Scripted::new([2, 2, 3])).unwrap();
        assert_eq!(c, 6, "F: 2 + 2 + 2");
        let (c, _, _) =
            bomb_hit(BombSize::Heavy, HeTarget::Infantry { figures: 4 }, &mut Scripted::new([6, 6, 6])).unwrap();
        assert_eq!(c, 4, "no more casualties than figures");
        let (_, wrecked, _) =
            bomb_hit(BombSize::Heavy, HeTarget::Closed { calibre_150_plus: false }, &mut Scripted::new([1, 1, 1, 5]))
                .unwrap();
        assert!(wrecked, "3 indicated (>1), then 5+ damages");
        let (c, wrecked, _) = bomb_hit(BombSize::Small, HeTarget::Gun { crew: 3 }, &mut Scripted::new([6, 4])).unwrap();
        assert_eq!((c, wrecked), (3, true), "column D face 6 = 3, then 4+ destroys the gun");
    }

    #[test]
    fn at_from_the_air() {
        let mut k = kind(Role::GroundAttack, Speed::Normal, 2);
        k.at_cannon = 2;
        let a = flying(k, Height::Low);
        // Stationary: 5 hits, 4 misses. Open-topped: any hit destroys.
        let (s, _) = at_attack(
            &a,
            false,
            AtTarget { moving: false, armour: ArmourClass::Light, open_topped: true, state: VehicleState::Intact },
            &mut Scripted::new([5, 4]),
            "a",
        )
        .unwrap();
        assert_eq!(s, VehicleState::Brewed);
        // Moving: a 5 misses, unless aimed (+1).
        let (s, ev) = at_attack(
            &a,
            false,
            AtTarget { moving: true, armour: ArmourClass::Light, open_topped: true, state: VehicleState::Intact },
            &mut Scripted::new([5, 5]),
            "a",
        )
        .unwrap();
        assert_eq!((s, ev.len()), (VehicleState::Intact, 1));
        let (s, _) = at_attack(
            &a,
            true,
            AtTarget { moving: true, armour: ArmourClass::Light, open_topped: true, state: VehicleState::Intact },
            &mut Scripted::new([5, 1]),
            "a",
        )
        .unwrap();
        assert_eq!(s, VehicleState::Brewed);
        // Closed: D10 + 8 against the side (top) armour.
        let (_, ev) = at_attack(
            &a,
            false,
            AtTarget { moving: false, armour: ArmourClass::Heavy, open_topped: false, state: VehicleState::Intact },
            &mut Scripted::new([6, 1, 10]),
            "a",
        )
        .unwrap();
        assert_eq!(ev.len(), 2);
        assert_eq!(ev[1].inputs[0].value, json!(8));
        assert_eq!(ev[1].inputs[2].value, json!("side"));
    }

    #[test]
    fn rockets_are_at_weapons_from_the_air() {
        // The village's Typhoon: 4 cannon, 8 rockets. "Where aircraft attack
        // with AT weapons against armoured vehicles, throw a 5+ on a D6 to
        // hit if the target is stationary".
        let mut k = kind(Role::GroundAttack, Speed::Fast, 3);
        (k.cannon, k.rockets) = (4, 8);
        let a = flying(k, Height::Low);
        assert_eq!(at_weapons(&a), 8, "the cannon are no AT weapons");
        let panther =
            AtTarget { moving: false, armour: ArmourClass::Heavy, open_topped: false, state: VehicleState::Intact };
        let (_, ev) = at_attack(&a, false, panther, &mut Scripted::new([5, 1, 1, 1, 1, 1, 1, 1, 10]), "t").unwrap();
        assert_eq!(ev[0].outcome["hits"], json!(1));
        assert_eq!(ev.len(), 2, "one hit: D10 + 8 on the side armour");
        let mut mg_only = kind(Role::Fighter, Speed::Fast, 3);
        mg_only.mmg = 4;
        let f = flying(mg_only, Height::Low);
        assert_eq!(at_attack(&f, false, panther, &mut Scripted::new([]), "f").unwrap_err(), AirError::NoSuchWeapon);
    }
}
