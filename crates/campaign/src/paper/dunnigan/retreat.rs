//! Retreats (FYOW 33.7 (xii), 33.7.3 (viii), 33.8): in good order or
//! disarray, bystanders retreating with a defeated force, and retreating into
//! trouble.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::event::RuleEvent;

use super::common::event;

/// How a retreat is made (33.7.3 (viii), 33.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RetreatOrder {
    /// Moves one Map Board away from the enemy and may count as deployed there.
    GoodOrder,
    /// Moves one Map Board away, not deployed: deploying takes the next 2
    /// daylight sessions, and an attack on it gets 2 right-shifts.
    Disarray,
}

/// Multiple combat (33.7 (xii)): Battlegroups friendly to a defeated force on
/// its Map Board but not engaged retreat with it, unless they arrived late and
/// triggered a new Contact Session. Returns whether `battlegroup` retreats.
pub fn bystander_retreats(battlegroup: &str, triggered_new_contact: bool) -> (bool, RuleEvent) {
    let retreats = !triggered_new_contact;
    let e = event("33.7 (xii) Multiple Combat")
        .actor(battlegroup)
        .input("triggered_new_contact", triggered_new_contact, "arrived late: a new Contact Session")
        .outcome(json!({"retreats": retreats}));
    (retreats, e)
}

/// Where a retreat leads (33.8 "Retreating into trouble").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RetreatDestination {
    /// A Map Board with no enemy.
    Clear,
    /// Into the sea or a lake.
    SeaOrLake,
    /// A Map Board occupied by an enemy force of this points value.
    Enemy { value: u32 },
}

/// The fate of a retreating force (33.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RetreatFate {
    Retreats,
    /// The force surrenders.
    Surrenders,
    /// It may (a) open a new Contact Session as attacker, or (b) stay in the
    /// "box" and, if activated before the occupiers, attempt to move away.
    AttackOrSlipAway,
}

/// A force of `value` points retreating in `order` to `destination` (FYOW 33.8).
///
/// Reading (FYOW 33.8): disarray onto an enemy of "more than 50%" surrenders
/// and "less than 50%" chooses; exactly 50% is not more than half, so it chooses.
pub fn retreat_into(
    force: &str,
    value: u32,
    order: RetreatOrder,
    destination: RetreatDestination,
) -> (RetreatFate, RuleEvent) {
    let (fate, why) = match destination {
        RetreatDestination::Clear => (RetreatFate::Retreats, "no trouble"),
        RetreatDestination::SeaOrLake => (RetreatFate::Surrenders, "retreat into the sea or a lake"),
        RetreatDestination::Enemy { value: enemy }
            if order == RetreatOrder::Disarray && u64::from(enemy) * 2 > u64::from(value) =>
        {
            (RetreatFate::Surrenders, "disarray onto an enemy of more than 50% of their value")
        }
        RetreatDestination::Enemy { .. } if order == RetreatOrder::Disarray => {
            (RetreatFate::AttackOrSlipAway, "disarray onto an enemy of no more than 50% of their value")
        }
        RetreatDestination::Enemy { .. } => (RetreatFate::AttackOrSlipAway, "retreat in good order onto an enemy"),
    };
    let e = event("33.8 Retreating into trouble")
        .actor(force)
        .input("value", value, "")
        .input("order", order, "")
        .input("destination", destination, why)
        .outcome(fate);
    (fate, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retreating_into_trouble() {
        let g = RetreatOrder::GoodOrder;
        let d = RetreatOrder::Disarray;
        assert_eq!(retreat_into("BG", 500, g, RetreatDestination::SeaOrLake).0, RetreatFate::Surrenders);
        assert_eq!(retreat_into("BG", 500, d, RetreatDestination::Enemy { value: 251 }).0, RetreatFate::Surrenders);
        assert_eq!(
            retreat_into("BG", 500, d, RetreatDestination::Enemy { value: 250 }).0,
            RetreatFate::AttackOrSlipAway
        );
        assert_eq!(
            retreat_into("BG", 500, g, RetreatDestination::Enemy { value: 900 }).0,
            RetreatFate::AttackOrSlipAway
        );
        assert_eq!(retreat_into("BG", 500, d, RetreatDestination::Clear).0, RetreatFate::Retreats);
    }
}
