//! The Dunnigan rules for "paper battles" (FYOW 33).
//!
//! One Combat Session is resolved by [`resolve_combat_session`]: the optional
//! pre-combat barrage and counter-battery fire (33.7.2 (iv)), the Combat
//! Results Table with its column shifts and high differentials (v)–(vii), the
//! losses and Strategic Condition of each side (ix), the supplemental effects
//! on machines, ammunition, engineers' equipment and buildings, and what
//! happens next ([`NextStep`]: a further Combat Session after NR, a retreat in
//! good order or disarray, a force destroyed). [`Situation::continue_after_nr`]
//! and [`Situation::second_attack`] build the next session's input;
//! [`retreat_into`] settles retreats into trouble (33.8) and
//! [`allocate_losses`] checks the attrition a player books against the ORBAT
//! (33.10).
//!
//! Values are points (the cost of the force); the Combat Value is points ÷ 10
//! (33.2). Losses are taken from the points value.

mod attrition;
mod crt;
mod force;
mod losses;
mod retreat;
mod session;
mod situation;
mod supplemental;
#[cfg(test)]
mod testing;

use serde::{Deserialize, Serialize};
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

pub use attrition::{AssetLoss, Attrition, allocate_losses};
pub use crt::{CrtResult, CrtThrow};
pub use force::{Competency, Force};
pub use losses::{LossCell, Role, StrategicCondition};
pub use retreat::{RetreatDestination, RetreatFate, RetreatOrder, bystander_retreats, retreat_into};
pub use session::{CombatSession, NextStep, SideOutcome, resolve_combat_session};
pub use situation::{Attitude, Engagement, ExtraShift, Situation, Terrain};
pub use supplemental::{AmmoUsed, Supplemental};

fn event(section: &str) -> RuleEvent {
    RuleEvent::new(EventKind::PaperBattle, RuleRef::new(Book::FightYourOwnWars, section))
}

/// The Combat Value of a points value (FYOW 33.2): divide by 10 and "ignore
/// any fraction or decimal". Values are summed before dividing, so a
/// Battlegroup of 1019 joined by reserves of 229 is worth 124, not 101 + 22.
pub fn combat_value(points: u32) -> u32 {
    points / 10
}

/// The two sides of a paper battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    Attacker,
    Defender,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combat_value_example_ignores_fractions() {
        // 33.2: "Thus 951 becomes 95 and 1019 becomes 101."
        assert_eq!(combat_value(951), 95);
        assert_eq!(combat_value(1019), 101);
        assert_eq!(combat_value(9), 0);
    }
}
