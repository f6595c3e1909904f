//! Parachute and glider landings (FYOW 28.13) and German parachute landings.
//!
//! Landing troops "immediately occupy that Map Board without entering into
//! the 'box' first" and may attack at once; both sides then take Detection
//! Throws, the defenders with [`DEFENDER_EXTRA_DETECTION_DICE`] more.
//!
//! [`DEFENDER_EXTRA_DETECTION_DICE`]: crate::air::landings::DEFENDER_EXTRA_DETECTION_DICE

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::air::rule;

/// "Both attackers and defenders take Detection Throws as usual with the defenders gaining an extra 1D6."
pub const DEFENDER_EXTRA_DETECTION_DICE: u8 = 1;

/// FYOW 28.13, parachute platoons: the double thrown on 2D6 and the percentage
/// of the platoon's value lost (no double: none).
pub const PARACHUTE_LOSSES: [(u8, u32); 6] = [(1, 50), (2, 50), (3, 25), (4, 25), (5, 10), (6, 10)];

/// What a glider landing costs (FYOW 28.13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GliderLoss {
    pub glider_lost: bool,
    /// Percentage of the contents' value lost.
    pub contents_pct: u32,
}

const fn glider(contents_pct: u32) -> GliderLoss {
    GliderLoss { glider_lost: true, contents_pct }
}

/// FYOW 28.13, gliders: the double thrown on 2D6 and its loss (no double: none).
pub const GLIDER_LOSSES: [(u8, GliderLoss); 6] =
    [(1, glider(100)), (2, glider(75)), (3, glider(75)), (4, glider(50)), (5, glider(50)), (6, glider(25))];

/// The double of a 2D6 throw, if it is one.
fn double(faces: &[u8]) -> Option<u8> {
    match faces {
        [a, b] if a == b => Some(*a),
        _ => None,
    }
}

/// Points lost: "value" is the element's points value; "Any fractions are rounded down."
///
/// Reading (FYOW 28.13): the fraction rounded down is the loss, so a 75-point
/// platoon losing 50% loses 37 (test `parachute_platoon_landing`).
pub const fn points_lost(points: u32, pct: u32) -> u32 {
    (points as u64 * pct as u64 / 100) as u32
}

/// One parachute platoon's landing: 2D6, a double loses the table's share of
/// its points value. Returns the points lost.
pub fn parachute_landing(points: u32, dice: &mut impl Roll, id: &str) -> (u32, RuleEvent) {
    let faces = dice.throw(2, 6);
    let pct = double(&faces).and_then(|d| PARACHUTE_LOSSES.iter().find(|(f, _)| *f == d)).map_or(0, |&(_, p)| p);
    let lost = points_lost(points, pct);
    let event = RuleEvent::new(EventKind::AirOperation, rule("28.13 Parachutists and glider landings"))
        .actor(id)
        .input("points", points, "platoon value")
        .dice(6, &faces)
        .outcome(json!({ "pct_lost": pct, "points_lost": lost }));
    (lost, event)
}

/// A glider's contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GliderLoad {
    pub points: u32,
    /// A tank or armoured vehicle aboard.
    pub afv: bool,
}

/// A glider landing's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GliderLanding {
    pub glider_lost: bool,
    pub points_lost: u32,
    /// "If a glider carrying a tank or armoured vehicle suffers damage on
    /// landing, the AFV automatically becomes damaged."
    pub afv_damaged: bool,
}

/// One glider's landing: 2D6, a double loses the glider and the table's
/// share of its contents.
///
/// Reading (FYOW 28.13): an AFV aboard is damaged rather than losing a share
/// of its points on doubles 2–6; on a double 1 it is lost with everything
/// else (test `glider_with_a_tank`).
pub fn glider_landing(load: GliderLoad, dice: &mut impl Roll, id: &str) -> (GliderLanding, RuleEvent) {
    let faces = dice.throw(2, 6);
    let loss = double(&faces).and_then(|d| GLIDER_LOSSES.iter().find(|(f, _)| *f == d)).map(|&(_, l)| l);
    let landing = match loss {
        None => GliderLanding { glider_lost: false, points_lost: 0, afv_damaged: false },
        Some(l) if load.afv && l.contents_pct < 100 => {
            GliderLanding { glider_lost: l.glider_lost, points_lost: 0, afv_damaged: true }
        }
        Some(l) => GliderLanding {
            glider_lost: l.glider_lost,
            points_lost: points_lost(load.points, l.contents_pct),
            afv_damaged: false,
        },
    };
    let event = RuleEvent::new(EventKind::AirOperation, rule("28.13 Parachutists and glider landings"))
        .actor(id)
        .input("contents_points", load.points, "")
        .input("afv", load.afv, "an AFV aboard is damaged by any landing damage")
        .dice(6, &faces)
        .outcome(json!({ "landing": landing }));
    (landing, event)
}

/// Which side the landed German paratroops are in a Dunnigan combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombatSide {
    Attacking,
    Defending,
}

/// "German forces did not drop with their weapons. If they are immediately
/// into a combat situation and if the 'Dunnigan' rules are being used, they
/// suffer a 1 right-shift on the Combat Results Table." Returns the column
/// shift (positive is right, toward the attacker's better results).
///
/// Reading (FYOW 28.13 with 33): on the Combat Results Table a right shift
/// helps the attacker, so it only makes the Germans "suffer" when they defend;
/// when they attack on landing (as 28.13 lets them) the penalty is one
/// left shift instead (test `german_paratroops_suffer_the_shift`).
pub fn german_landing_shift(side: CombatSide, id: &str) -> (i8, RuleEvent) {
    let shift = match side {
        CombatSide::Defending => 1,
        CombatSide::Attacking => -1,
    };
    let event = RuleEvent::new(EventKind::PaperBattle, rule("28.13 German Parachute landings"))
        .actor(id)
        .input("side", side, "dropped without their weapons: one shift against them")
        .outcome(json!({ "crt_shift": shift }));
    (shift, event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::dice::Scripted;

    #[test]
    fn parachute_platoon_landing() {
        let lost = |faces: [u8; 2]| parachute_landing(75, &mut Scripted::new(faces), "1 Para").0;
        assert_eq!(lost([1, 1]), 37, "50% of 75, rounded down");
        assert_eq!(lost([2, 2]), 37);
        assert_eq!(lost([3, 3]), 18);
        assert_eq!(lost([4, 4]), 18);
        assert_eq!(lost([5, 5]), 7);
        assert_eq!(lost([6, 6]), 7);
        assert_eq!(lost([1, 2]), 0);
        assert_eq!(points_lost(u32::MAX, 50), u32::MAX / 2, "no overflow on big values");
        let (_, e) = parachute_landing(0, &mut Scripted::new([1, 1]), "empty");
        assert_eq!(e.outcome["points_lost"], 0);
    }

    #[test]
    fn glider_landings() {
        let land =
            |faces: [u8; 2]| glider_landing(GliderLoad { points: 90, afv: false }, &mut Scripted::new(faces), "G").0;
        assert_eq!(land([1, 1]), GliderLanding { glider_lost: true, points_lost: 90, afv_damaged: false });
        assert_eq!(land([2, 2]).points_lost, 67);
        assert_eq!(land([3, 3]).points_lost, 67);
        assert_eq!(land([4, 4]).points_lost, 45);
        assert_eq!(land([5, 5]).points_lost, 45);
        assert_eq!(land([6, 6]), GliderLanding { glider_lost: true, points_lost: 22, afv_damaged: false });
        assert_eq!(land([6, 5]), GliderLanding { glider_lost: false, points_lost: 0, afv_damaged: false });
    }

    #[test]
    fn glider_with_a_tank() {
        let tank = GliderLoad { points: 100, afv: true };
        let (l, _) = glider_landing(tank, &mut Scripted::new([4, 4]), "Hamilcar");
        assert_eq!(l, GliderLanding { glider_lost: true, points_lost: 0, afv_damaged: true });
        let (l, _) = glider_landing(tank, &mut Scripted::new([1, 1]), "Hamilcar");
        assert_eq!(l, GliderLanding { glider_lost: true, points_lost: 100, afv_damaged: false });
        let (l, _) = glider_landing(tank, &mut Scripted::new([1, 3]), "Hamilcar");
        assert!(!l.afv_damaged && !l.glider_lost);
    }

    #[test]
    fn german_paratroops_suffer_the_shift() {
        let (shift, e) = german_landing_shift(CombatSide::Defending, "FJR 1");
        assert_eq!(shift, 1);
        assert_eq!(e.kind, EventKind::PaperBattle);
        assert_eq!(german_landing_shift(CombatSide::Attacking, "FJR 1").0, -1);
        assert_eq!(DEFENDER_EXTRA_DETECTION_DICE, 1);
    }
}
