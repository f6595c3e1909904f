//! What the Dunnigan rules share: the two sides of a paper battle, the
//! Combat Value of a force, and the events their steps leave.

use serde::{Deserialize, Serialize};
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

/// An event of a Dunnigan rule.
pub(super) fn event(section: &str) -> RuleEvent {
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
