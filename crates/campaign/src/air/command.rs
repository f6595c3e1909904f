//! Air Command's Strategic Condition (FYOW 28.12): the Strategic Milestone
//! counted from its aircraft, worn down by damage, inactive and lost
//! machines, rallied by machines returning to service.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::air::{AirError, rule};

/// Air Command's Strategic Condition: "from Green to Amber or from Amber to
/// Red or from Red to Withdraw".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AirCondition {
    Green,
    Amber,
    Red,
    Withdraw,
}

impl AirCondition {
    const fn worse(self) -> Self {
        match self {
            Self::Green => Self::Amber,
            Self::Amber => Self::Red,
            Self::Red | Self::Withdraw => Self::Withdraw,
        }
    }
}

/// The start-of-day count for the Strategic Milestone throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AirLosses {
    /// Damages to aircraft in the Command.
    pub damages: u32,
    /// Machines inactive (not damaged, not operational).
    pub inactive: u32,
    /// Aircraft lost.
    pub lost: u32,
}

impl AirLosses {
    /// "Add 1 for each inactive machine. Add 2 for each aircraft lost."
    pub const fn dice(self) -> u32 {
        self.damages.saturating_add(self.inactive).saturating_add(self.lost.saturating_mul(2))
    }
}

/// Scores of 1, 2 or 3 count (28.12); 4, 5 and 6 are ignored.
fn counted(faces: &[u8]) -> u32 {
    faces.iter().filter(|&&f| f <= 3).map(|&f| u32::from(f)).sum()
}

/// Air Command's record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AirCommand {
    /// "Count the total number of aircraft controlled by Air Command."
    original: u32,
    milestone: u32,
    condition: AirCondition,
}

impl AirCommand {
    /// Starts at Green with the Strategic Milestone the number of aircraft.
    pub fn new(aircraft: u32) -> Result<Self, AirError> {
        if aircraft == 0 {
            return Err(AirError::NoAircraft);
        }
        Ok(Self { original: aircraft, milestone: aircraft, condition: AirCondition::Green })
    }

    /// The Strategic Condition now.
    pub fn condition(&self) -> AirCondition {
        self.condition
    }

    /// The Strategic Milestone score now.
    pub fn milestone(&self) -> u32 {
        self.milestone
    }

    /// The original Strategic Milestone: the aircraft counted at the start.
    pub fn original(&self) -> u32 {
        self.original
    }

    /// The start-of-day throw (28.12): a D6 for each damage, inactive machine
    /// and two for each loss; the 1s, 2s and 3s are deducted from the
    /// Strategic Milestone. At 0 the condition falls one step and the
    /// milestone is restored to the original.
    ///
    /// Reading (FYOW 28.12): the count is of the damage, inactivity and losses
    /// new since the last throw, so each loss is thrown for once: the example's
    /// second day, "after no activity", throws only to rally (test
    /// `book_example_twenty_aircraft`). A fall past 0 is not carried into the
    /// restored milestone, and the condition falls one step per throw.
    pub fn losses_throw(
        &mut self,
        losses: AirLosses,
        dice: &mut impl Roll,
        id: &str,
    ) -> Result<(AirCondition, RuleEvent), AirError> {
        if self.condition == AirCondition::Withdraw {
            return Err(AirError::Withdrawn);
        }
        let before = self.milestone;
        let faces = dice.throw(losses.dice() as usize, 6);
        let loss = counted(&faces);
        if loss >= self.milestone {
            self.condition = self.condition.worse();
            self.milestone = self.original;
        } else {
            self.milestone -= loss;
        }
        let event = RuleEvent::new(EventKind::StrategicMorale, rule("28.12 Strategic Condition Score of Air Command"))
            .actor(id)
            .input("damages", losses.damages, "1D6 each")
            .input("inactive", losses.inactive, "1D6 each")
            .input("lost", losses.lost, "2D6 each")
            .input("milestone", before, "")
            .dice(6, &faces)
            .outcome(json!({ "deducted": loss, "milestone": self.milestone, "condition": self.condition }));
        Ok((self.condition, event))
    }

    /// Rallying (28.12): a D6 for each machine back in service today; the 1s,
    /// 2s and 3s are added back, never above the original figure, and the
    /// condition is never restored.
    pub fn rally(&mut self, returned: u32, dice: &mut impl Roll, id: &str) -> Result<(u32, RuleEvent), AirError> {
        if self.condition == AirCondition::Withdraw {
            return Err(AirError::Withdrawn);
        }
        let before = self.milestone;
        let faces = dice.throw(returned as usize, 6);
        self.milestone = (self.milestone + counted(&faces)).min(self.original);
        let event = RuleEvent::new(EventKind::StrategicMorale, rule("28.12 Rallying Strategic Condition"))
            .actor(id)
            .input("returned", returned, "1D6 for each machine back in service")
            .input("milestone", before, "never above the original")
            .dice(6, &faces)
            .outcome(json!({ "milestone": self.milestone, "condition": self.condition }));
        Ok((self.milestone, event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::dice::Scripted;

    #[test]
    fn book_example_twenty_aircraft() {
        // "Air Command starts with 20 aircraft. After one day, he suffers one lost
        // aircraft and 6 damages to others. He has 2 machines inactive."
        let mut ac = AirCommand::new(20).unwrap();
        let losses = AirLosses { damages: 6, inactive: 2, lost: 1 };
        assert_eq!(losses.dice(), 10);
        assert_eq!(AirLosses { damages: u32::MAX, inactive: 1, lost: 1 }.dice(), u32::MAX, "saturates");
        let (cond, e) =
            ac.losses_throw(losses, &mut Scripted::new([2, 2, 6, 5, 4, 6, 2, 4, 5, 3]), "Air Command").unwrap();
        assert_eq!(e.outcome["deducted"], 9);
        assert_eq!((ac.milestone(), cond), (11, AirCondition::Green));
        // "2 damaged aircraft are returned to active service and the 2 inactive
        // aircraft are also able to fly ... 3 + 1 + 6 + 4. This adds 4 ... up to 15."
        let (m, _) = ac.rally(4, &mut Scripted::new([3, 1, 6, 4]), "Air Command").unwrap();
        assert_eq!(m, 15);
        // "This process continues until his Strategic Milestone score is reduced to 0.
        // At this point, his Strategic Condition is reduced to Amber and the Strategic
        // Milestone score restores to 20."
        let (cond, _) = ac
            .losses_throw(AirLosses { lost: 3, ..AirLosses::default() }, &mut Scripted::new([3, 3, 3, 3, 3, 1]), "AC")
            .unwrap();
        assert_eq!((cond, ac.milestone()), (AirCondition::Amber, 20));
    }

    #[test]
    fn a_day_of_preparation_losses_and_rallying() {
        use crate::air::squadron::{Basing, Squadron};
        use crate::air::{Role, Speed};
        let mut s = Squadron::new("II/JG 26", Role::Fighter, Speed::FastAgile, Basing::Local, false, 3, 3).unwrap();
        let mut ac = AirCommand::new(3).unwrap();
        s.prepare_day(&mut Scripted::new([6, 6, 2]));
        s.fly_sortie();
        s.take_damage(0, 1).unwrap();
        s.take_damage(1, 4).unwrap();
        // Next morning: preparation first (4.4), then the count: 1 damage, 0 inactive
        // (the X1 fails on a 3), 1 lost: 3D6.
        let (p, _) = s.prepare_day(&mut Scripted::new([3, 5]));
        let losses = AirLosses { damages: s.damages(), inactive: s.inactive(), lost: s.lost() };
        assert_eq!(losses, AirLosses { damages: 1, inactive: 0, lost: 1 });
        ac.losses_throw(losses, &mut Scripted::new([1, 4, 2]), "AC").unwrap();
        assert_eq!(ac.milestone(), 3, "3 deducted from 3: Amber, restored to 3");
        assert_eq!(ac.condition(), AirCondition::Amber);
        let back = p.iter().filter(|p| p.returned_to_service).count() as u32;
        assert_eq!(back, 1, "the machine that failed yesterday");
        let (m, _) = ac.rally(back, &mut Scripted::new([2]), "AC").unwrap();
        assert_eq!(m, 3);
    }

    #[test]
    fn rallying_never_exceeds_the_original_nor_restores_the_condition() {
        let mut ac = AirCommand::new(10).unwrap();
        ac.losses_throw(AirLosses { damages: 4, ..AirLosses::default() }, &mut Scripted::new([3, 3, 3, 1]), "AC")
            .unwrap();
        assert_eq!((ac.condition(), ac.milestone()), (AirCondition::Amber, 10));
        let (m, _) = ac.rally(2, &mut Scripted::new([3, 3]), "AC").unwrap();
        assert_eq!(m, 10);
        assert_eq!(ac.condition(), AirCondition::Amber);
        ac.losses_throw(AirLosses { damages: 2, ..AirLosses::default() }, &mut Scripted::new([3, 2]), "AC").unwrap();
        let (m, _) = ac.rally(2, &mut Scripted::new([3, 3]), "AC").unwrap();
        assert_eq!(m, 10, "capped at 10, not 11");
    }

    #[test]
    fn condition_falls_to_withdraw() {
        let mut ac = AirCommand::new(1).unwrap();
        let one = AirLosses { damages: 1, ..AirLosses::default() };
        for expected in [AirCondition::Amber, AirCondition::Red, AirCondition::Withdraw] {
            assert_eq!(ac.losses_throw(one, &mut Scripted::new([1]), "AC").unwrap().0, expected);
        }
        assert_eq!(ac.losses_throw(one, &mut Scripted::new([1]), "AC").unwrap_err(), AirError::Withdrawn);
        assert_eq!(ac.rally(1, &mut Scripted::new([1]), "AC").unwrap_err(), AirError::Withdrawn);
        assert_eq!(AirCommand::new(0).unwrap_err(), AirError::NoAircraft);
    }

    #[test]
    fn fours_fives_and_sixes_are_ignored() {
        let mut ac = AirCommand::new(5).unwrap();
        let (cond, e) = ac
            .losses_throw(AirLosses { lost: 2, ..AirLosses::default() }, &mut Scripted::new([4, 5, 6, 6]), "AC")
            .unwrap();
        assert_eq!((cond, ac.milestone(), e.dice.len()), (AirCondition::Green, 5, 4));
        let (_, e) = ac.losses_throw(AirLosses::default(), &mut Scripted::new([]), "AC").unwrap();
        assert!(e.dice.is_empty());
    }
}
