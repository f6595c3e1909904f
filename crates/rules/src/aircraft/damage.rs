//! Damage to aircraft (*Heroes All* "Hits on aircraft with AA fire"):
//! strength lost, driven off or shot down, and the return of a driven-off
//! machine.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{Aircraft, Height, Position, Window, rule};
use crate::dice::Roll;
use crate::event::{EventKind, RuleEvent};

/// What damage left an aircraft as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageResult {
    Flying,
    /// Strength 0 and a 1 or 2: "driven off the table for D4 bounds".
    DrivenOff {
        bounds: u8,
    },
    ShotDown,
}

/// Applies the damages of one fire (AA or air to air). "Each 'damage'
/// reduces the strength of the aircraft by 1." At exactly 0 it throws a D6
/// and is driven off for D4 bounds on a 1 or 2; below 0 (or damaged again at
/// 0) it is shot down. Returns the result and the damages that count for
/// Continuous Momentum: a shooting-down "is recorded as 1 further damage ...
/// irrespective of the number of damages taken by the aircraft on that
/// bound", so at most strength + 1.
///
/// Reading: damages of one fire are taken together; an aircraft at 1 that
/// takes 2 is shot down without a driven-off throw
/// (test `strength_driven_off_and_shot_down`).
pub fn take_damage(
    a: &mut Aircraft,
    damages: u8,
    bound: u32,
    dice: &mut impl Roll,
    id: &str,
) -> (DamageResult, u8, RuleEvent) {
    let before = a.strength;
    let counted = u8::try_from((i16::from(before) + 1).max(0)).unwrap_or(u8::MAX).min(damages);
    a.strength = (i16::from(before) - i16::from(damages)).max(-1) as i8;
    let mut thrown = Vec::new();
    let result = if damages == 0 {
        DamageResult::Flying
    } else if a.strength < 0 {
        a.position = Position::ShotDown;
        DamageResult::ShotDown
    } else if a.strength == 0 {
        let face = dice.d6();
        thrown.push(face);
        if face <= 2 {
            let bounds = dice.d4();
            thrown.push(bounds);
            a.position = Position::DrivenOff { until: bound + u32::from(bounds) };
            DamageResult::DrivenOff { bounds }
        } else {
            DamageResult::Flying
        }
    } else {
        DamageResult::Flying
    };
    let mut e = RuleEvent::new(EventKind::Fire, rule("Hits on aircraft with AA fire"))
        .target(id)
        .input("strength", before, "")
        .input("damages", damages, "")
        .dice(6, &thrown[..thrown.len().min(1)]);
    if thrown.len() > 1 {
        e = e.dice(4, &thrown[1..]);
    }
    let e = e.outcome(json!({ "result": result, "strength": a.strength, "cm_damages": counted }));
    (result, counted, e)
}

/// A driven-off aircraft comes back to the box on the bound it is due
/// (at the height it flew); "This may mean that the 'window' closes before it
/// returns."
pub fn return_from_driven_off(a: &mut Aircraft, bound: u32, window: Window, height: Height) -> bool {
    match a.position {
        Position::DrivenOff { until } if bound >= until && window.open(bound) => {
            a.position = Position::Box(height);
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aircraft::testing::{flying, kind};
    use crate::aircraft::{Role, Speed};
    use crate::dice::Scripted;

    #[test]
    fn strength_driven_off_and_shot_down() {
        let k = kind(Role::GroundAttack, Speed::Normal, 2);
        let mut a = flying(k.clone(), Height::Low);
        let (r, cm, _) = take_damage(&mut a, 1, 3, &mut Scripted::new([]), "a");
        assert_eq!((r, cm, a.strength), (DamageResult::Flying, 1, 1));
        assert!(a.damaged());
        // To 0: a 2 drives it off for D4 = 3 bounds.
        let (r, _, _) = take_damage(&mut a, 1, 3, &mut Scripted::new([2, 3]), "a");
        assert_eq!(r, DamageResult::DrivenOff { bounds: 3 });
        assert_eq!(a.position, Position::DrivenOff { until: 6 });
        assert!(!return_from_driven_off(&mut a, 5, Window { first: 3 }, Height::Low));
        assert!(!return_from_driven_off(&mut a, 7, Window { first: 3 }, Height::Low), "the window closed first");
        assert!(return_from_driven_off(&mut a, 6, Window { first: 3 }, Height::Low));
        // At 0 and a 3: it stays; damaged again it is shot down, 1 damage for CM.
        let mut b = flying(k.clone(), Height::Low);
        take_damage(&mut b, 2, 3, &mut Scripted::new([3]), "b");
        assert_eq!(b.position, Position::OverTable(Height::Low));
        let (r, cm, _) = take_damage(&mut b, 3, 4, &mut Scripted::new([]), "b");
        assert_eq!((r, cm), (DamageResult::ShotDown, 1));
        // From 2, four damages: shot down, counted 3 (2 + 1 further).
        let mut c = flying(k, Height::Low);
        let (r, cm, _) = take_damage(&mut c, 4, 4, &mut Scripted::new([]), "c");
        assert_eq!((r, cm), (DamageResult::ShotDown, 3));
    }
}
