//! Strategic Conditions in the campaign (FYOW 12): the Strategic Morale of
//! the whole land force, thrown weekly by its General, and the Strategic
//! Condition Repair throw on a replenishment day.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::strategic::StrategicCondition;

use crate::army::commander::Competency;
use crate::army::{ArmyError, fyow, not_allowed};

/// "Each force starts with a Strategic Morale Score of 3" (FYOW 12.3), which
/// is also its ceiling (12.4).
pub const STARTING_MORALE: u8 = 3;
/// The repair throw's target (FYOW 12.4): "Any score of 6+".
pub const REPAIR_TARGET: u8 = 6;

/// The nature of an army (FYOW 12.3), which sets the dice it throws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Motivation {
    /// Japanese, Russians etc: D10s.
    Fanatical,
    /// British, German, Polish etc: D6s.
    Motivated,
    /// Belgian etc: D4s.
    Unmotivated,
    /// Netherlands, Albania etc: D3s.
    Weak,
}

impl Motivation {
    /// The die of the Strategic Morale throw (FYOW 12.3).
    pub const fn morale_die(self) -> u8 {
        match self {
            Motivation::Fanatical => 10,
            Motivation::Motivated => 6,
            Motivation::Unmotivated => 4,
            Motivation::Weak => 3,
        }
    }

    /// The die of the repair throw (FYOW 12.4); unmotivated and weak forces
    /// have none.
    pub const fn repair_die(self) -> Option<u8> {
        match self {
            Motivation::Fanatical => Some(10),
            Motivation::Motivated => Some(6),
            Motivation::Unmotivated | Motivation::Weak => None,
        }
    }

    fn throw(self, dice: &mut impl Roll) -> u8 {
        match self {
            Motivation::Fanatical => dice.d10(),
            Motivation::Motivated => dice.d6(),
            Motivation::Unmotivated => dice.d4(),
            Motivation::Weak => dice.d3(),
        }
    }
}

/// A battlegroup as the General sees it at the weekly review (the rows of FYOW 12.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Standing {
    Green,
    Yellow,
    Red,
    /// Red and having withdrawn.
    RedWithdrawn,
    /// Destroyed and no longer part of the force.
    Destroyed,
}

impl From<StrategicCondition> for Standing {
    fn from(c: StrategicCondition) -> Self {
        match c {
            StrategicCondition::Green => Standing::Green,
            StrategicCondition::Yellow => Standing::Yellow,
            StrategicCondition::Red => Standing::Red,
            StrategicCondition::Withdrawn => Standing::RedWithdrawn,
        }
    }
}

/// FYOW 12.3's table, row for row (green, yellow, red, red and withdrawn,
/// destroyed) by the General's rating (Below Average, Average, Above
/// Average): the dice each battlegroup counts as.
pub const MORALE_DICE: [[u8; 3]; 5] = [
    [0, 0, 0], // green
    [1, 0, 0], // yellow
    [2, 1, 0], // red
    [3, 2, 1], // red and having withdrawn
    [4, 3, 2], // destroyed
];

/// The dice a battlegroup of `standing` counts as for a General of `general`'s rating.
pub const fn morale_dice(standing: Standing, general: Competency) -> u8 {
    let row = match standing {
        Standing::Green => 0,
        Standing::Yellow => 1,
        Standing::Red => 2,
        Standing::RedWithdrawn => 3,
        Standing::Destroyed => 4,
    };
    let column = match general {
        Competency::BelowAverage => 0,
        Competency::Average => 1,
        Competency::AboveAverage => 2,
    };
    MORALE_DICE[row][column]
}

/// The Strategic Morale of a land force (FYOW 12.2–12.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrategicMorale {
    pub score: u8,
}

impl Default for StrategicMorale {
    fn default() -> Self {
        Self { score: STARTING_MORALE }
    }
}

/// One weekly Strategic Morale throw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoraleThrow {
    pub dice: u8,
    pub faces: Vec<u8>,
    pub score: u8,
    /// The score reached 0: the force withdraws from the campaign.
    pub withdraws: bool,
}

impl StrategicMorale {
    /// The force has withdrawn from the campaign.
    pub fn withdrawn(&self) -> bool {
        self.score == 0
    }

    /// FYOW 12.3: at the start of the week the General reviews his
    /// battlegroups; each counts as some dice by its Strategic Condition and
    /// his rating, thrown as the army's die. Any 1 (however many) takes 1
    /// from the score; at 0 the force withdraws from the campaign. The throw
    /// is only made if a battlegroup's Strategic Condition fell (12.2).
    ///
    /// Reading (FYOW 12.2): "only need to be made if any one Battlegroup
    /// suffers a reduction" is read as a fall since the last weekly review
    /// (`any_reduction`); without one no dice are thrown.
    pub fn weekly_throw(
        &mut self,
        general: Competency,
        motivation: Motivation,
        battlegroups: &[Standing],
        any_reduction: bool,
        dice: &mut impl Roll,
        force: &str,
    ) -> Result<(MoraleThrow, RuleEvent), ArmyError> {
        if self.withdrawn() {
            return Err(not_allowed(format!("{force} has withdrawn from the campaign (FYOW 12.3)")));
        }
        let count: u8 = if any_reduction { battlegroups.iter().map(|&s| morale_dice(s, general)).sum() } else { 0 };
        let faces: Vec<u8> = (0..count).map(|_| motivation.throw(dice)).collect();
        if faces.contains(&1) {
            self.score -= 1;
        }
        let result = MoraleThrow { dice: count, faces: faces.clone(), score: self.score, withdraws: self.withdrawn() };
        let event = RuleEvent::new(EventKind::StrategicMorale, fyow("12.3 Strategic Morale Throws"))
            .actor(force)
            .input("general", general, "")
            .input("motivation", motivation, "sets the die")
            .input("battlegroups", battlegroups, "each counts as dice by condition and the General's rating")
            .input("any_reduction", any_reduction, "12.2: thrown only after a battlegroup's condition fell")
            .dice(motivation.morale_die(), &faces)
            .outcome(&result);
        Ok((result, event))
    }

    /// FYOW 12.4: on the day a third of a battlegroup's losses comes back by
    /// the Replenishment rules, the force's command may throw 1D10
    /// (fanatical) or 1D6 (motivated); 6+ adds 1 to the Strategic Morale,
    /// to at most 3. He must be Average or Above Average; an Above Average
    /// one may re-roll a 1 or 2. Unmotivated and weak forces have no throw.
    ///
    /// Reading (FYOW 12.4): the text names the "Force Senior Command" and
    /// then "a General rated as Above Average": both mean the command whose
    /// Strategic Morale it is, and the re-roll is made once.
    pub fn repair_throw(
        &mut self,
        commander: Competency,
        motivation: Motivation,
        dice: &mut impl Roll,
        force: &str,
    ) -> Result<(bool, RuleEvent), ArmyError> {
        if self.withdrawn() {
            return Err(not_allowed(format!("{force} has withdrawn from the campaign (FYOW 12.3)")));
        }
        let Some(die) = motivation.repair_die() else {
            return Err(not_allowed("unmotivated and weak forces have no repair throw (FYOW 12.4)"));
        };
        if commander == Competency::BelowAverage {
            return Err(not_allowed("the repair throw needs an Average or Above Average commander (FYOW 12.4)"));
        }
        let mut faces = vec![motivation.throw(dice)];
        if commander == Competency::AboveAverage && faces[0] <= 2 {
            faces.push(motivation.throw(dice));
        }
        let last = *faces.last().expect("one die thrown");
        let repaired = last >= REPAIR_TARGET && self.score < STARTING_MORALE;
        if repaired {
            self.score += 1;
        }
        let event = RuleEvent::new(EventKind::StrategicMorale, fyow("12.4 Strategic Condition Repair Throw"))
            .actor(force)
            .input("commander", commander, "Above Average re-rolls a 1 or 2")
            .input("motivation", motivation, "")
            .dice(die, &faces)
            .outcome(json!({ "repaired": repaired, "score": self.score }));
        Ok((repaired, event))
    }
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    #[test]
    fn dice_by_condition_and_rating() {
        assert_eq!(morale_dice(Standing::Green, Competency::BelowAverage), 0);
        assert_eq!(morale_dice(Standing::Yellow, Competency::BelowAverage), 1);
        assert_eq!(morale_dice(Standing::Yellow, Competency::Average), 0);
        assert_eq!(morale_dice(Standing::Red, Competency::Average), 1);
        assert_eq!(morale_dice(Standing::RedWithdrawn, Competency::AboveAverage), 1);
        assert_eq!(morale_dice(Standing::Destroyed, Competency::BelowAverage), 4);
        assert_eq!(Standing::from(StrategicCondition::Withdrawn), Standing::RedWithdrawn);
    }

    #[test]
    fn one_one_or_many_costs_one_point() {
        let mut m = StrategicMorale::default();
        let bgs = [Standing::Green, Standing::Red, Standing::Destroyed];
        // Average General: red 1 + destroyed 3 = 4 D6.
        let (t, event) = m
            .weekly_throw(
                Competency::Average,
                Motivation::Motivated,
                &bgs,
                true,
                &mut Scripted::new([1, 1, 4, 6]),
                "BEF",
            )
            .unwrap();
        assert_eq!(t.dice, 4);
        assert_eq!(t.score, 2, "two 1s still cost only 1");
        assert_eq!(event.kind, EventKind::StrategicMorale);
        let (t, _) = m
            .weekly_throw(
                Competency::Average,
                Motivation::Motivated,
                &bgs,
                true,
                &mut Scripted::new([2, 3, 4, 6]),
                "BEF",
            )
            .unwrap();
        assert_eq!(t.score, 2);
    }

    #[test]
    fn the_force_withdraws_at_zero() {
        let mut m = StrategicMorale { score: 1 };
        let (t, _) = m
            .weekly_throw(
                Competency::BelowAverage,
                Motivation::Weak,
                &[Standing::Yellow],
                true,
                &mut Scripted::new([2]),
                "x",
            )
            .unwrap();
        assert!(t.withdraws, "a D3 from the faces 1,1,2,2,3,3: a 2 reads 1");
        assert!(m.weekly_throw(Competency::Average, Motivation::Weak, &[], true, &mut Scripted::new([]), "x").is_err());
        assert!(m.repair_throw(Competency::Average, Motivation::Motivated, &mut Scripted::new([6]), "x").is_err());
    }

    #[test]
    fn no_throw_without_a_reduction_and_fanatics_throw_d10s() {
        let mut m = StrategicMorale::default();
        let bgs = [Standing::Red, Standing::Red];
        let (t, _) = m
            .weekly_throw(Competency::Average, Motivation::Fanatical, &bgs, false, &mut Scripted::new([]), "x")
            .unwrap();
        assert_eq!((t.dice, t.score), (0, 3));
        let (t, e) = m
            .weekly_throw(Competency::Average, Motivation::Fanatical, &bgs, true, &mut Scripted::new([10, 2]), "x")
            .unwrap();
        assert_eq!(t.score, 3, "a 0 counts as 10, not 1");
        assert_eq!(e.dice[0].sides, 10);
        let (t, _) = m
            .weekly_throw(Competency::Average, Motivation::Unmotivated, &bgs, true, &mut Scripted::new([4, 1]), "x")
            .unwrap();
        assert_eq!(t.score, 2);
    }

    #[test]
    fn repair_throw() {
        let mut m = StrategicMorale { score: 2 };
        assert!(m.repair_throw(Competency::Average, Motivation::Motivated, &mut Scripted::new([6]), "x").unwrap().0);
        assert_eq!(m.score, 3);
        assert!(
            !m.repair_throw(Competency::Average, Motivation::Fanatical, &mut Scripted::new([9]), "x").unwrap().0,
            "capped at 3"
        );
        let mut m = StrategicMorale { score: 1 };
        assert!(m.repair_throw(Competency::BelowAverage, Motivation::Motivated, &mut Scripted::new([]), "x").is_err());
        assert!(m.repair_throw(Competency::Average, Motivation::Weak, &mut Scripted::new([]), "x").is_err());
        assert!(!m.repair_throw(Competency::Average, Motivation::Motivated, &mut Scripted::new([2]), "x").unwrap().0);
        let (ok, e) =
            m.repair_throw(Competency::AboveAverage, Motivation::Motivated, &mut Scripted::new([2, 6]), "x").unwrap();
        assert!(ok, "Above Average re-rolls the 2");
        assert_eq!(e.dice.len(), 2);
        assert_eq!(m.score, 2);
        assert!(
            m.repair_throw(Competency::AboveAverage, Motivation::Fanatical, &mut Scripted::new([7]), "x").unwrap().0
        );
    }
}
