//! The Losses Suffered Table (FYOW 33.7.3 (ix)): the share of a force's
//! value lost and the Strategic Condition named, by result, role and D6.

use serde::{Deserialize, Serialize};

use super::crt::CrtResult;

/// Strategic Condition imposed by the Losses Suffered Table (FYOW uses Amber
/// for FYOB's Yellow).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum StrategicCondition {
    Green,
    Amber,
    Red,
}

impl StrategicCondition {
    /// A force's condition after a battle that named `named` (33.7.3 (ix)).
    ///
    /// Reading (FYOW 33.7.3 (ix), 33.9): the table sets no better condition
    /// than the force had; Amber and Red are only repaired by the FYOB rules.
    pub fn after_battle(current: StrategicCondition, named: Option<StrategicCondition>) -> StrategicCondition {
        named.map_or(current, |n| current.max(n))
    }
}

/// One cell of the Losses Suffered Table: percent of the force value lost and
/// the Strategic Condition named (none where the cell names none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LossCell {
    pub percent: u8,
    pub condition: Option<StrategicCondition>,
}

pub(super) const fn lc(percent: u8, condition: Option<StrategicCondition>) -> LossCell {
    LossCell { percent, condition }
}

/// The Losses Suffered Table (FYOW 33.7.3 (ix)), D6 1..6 per row.
///
/// Reading: the table's merged cells were lost in conversion, leaving each
/// entry in the column where its span starts and blanks after it. Read as a
/// continuous scale, each entry runs rightward over the blanks up to the next
/// entry (so NR reads 1 none, 2–4 5%, 5–6 10%). Cells that name no Strategic
/// Condition ("1% of force lost", "100% ... lost") leave it as it was.
pub(super) const LOSSES: [[LossCell; 6]; 11] = {
    use StrategicCondition::{Amber as A, Green as G, Red as R};
    [
        // NR [both forces affected]: No losses | 5% SC Green (2–4) | 10% SC Green (5–6)
        [lc(0, None), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(10, Some(G)), lc(10, Some(G))],
        // AR/DR [winner]: 5% Green (1–4) | 10% Green (5–6)
        [lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(10, Some(G)), lc(10, Some(G))],
        // AR/DR [loser]: 10% Green (1–3) | 25% Amber (4–6)
        [lc(10, Some(G)), lc(10, Some(G)), lc(10, Some(G)), lc(25, Some(A)), lc(25, Some(A)), lc(25, Some(A))],
        // AR2/DR2 [winner]: 1% | 5% Green (2–5) | 10% Green
        [lc(1, None), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(10, Some(G))],
        // AR2/DR2 [loser]: 10% Amber (1–2) | 25% Amber (3–5) | 40% Red
        [lc(10, Some(A)), lc(10, Some(A)), lc(25, Some(A)), lc(25, Some(A)), lc(25, Some(A)), lc(40, Some(R))],
        // AR3/DR3 [winner]: 1% (1–2) | 5% Green (3–5) | 10% Green
        [lc(1, None), lc(1, None), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G)), lc(10, Some(G))],
        // AR3/DR3 [loser]: 10% Amber | 25% Amber (2–4) | 50% Red (5–6)
        [lc(10, Some(A)), lc(25, Some(A)), lc(25, Some(A)), lc(25, Some(A)), lc(50, Some(R)), lc(50, Some(R))],
        // DR4 [winner]: 1% (1–3) | 5% Green (4–6)
        [lc(1, None), lc(1, None), lc(1, None), lc(5, Some(G)), lc(5, Some(G)), lc(5, Some(G))],
        // DR4 [loser]: 25% Amber (1–3) | 50% Red (4–5) | 100%
        [lc(25, Some(A)), lc(25, Some(A)), lc(25, Some(A)), lc(50, Some(R)), lc(50, Some(R)), lc(100, None)],
        // DR5 [winner]: 1% SC Green (1–6)
        [lc(1, Some(G)), lc(1, Some(G)), lc(1, Some(G)), lc(1, Some(G)), lc(1, Some(G)), lc(1, Some(G))],
        // DR5 [loser]: 50% Amber | 75% Red (2–4) | 100% (5–6)
        [lc(50, Some(A)), lc(75, Some(R)), lc(75, Some(R)), lc(75, Some(R)), lc(100, None), lc(100, None)],
    ]
};

/// How a force fared: the row it reads in the losses and supplemental tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// An NR: both forces affected alike.
    NoResult,
    Winner,
    Loser,
}

pub(super) fn losses_row(result: CrtResult, role: Role) -> usize {
    match role {
        Role::NoResult => 0,
        Role::Winner => 2 * result.level() - 1,
        Role::Loser => 2 * result.level(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paper::dunnigan::retreat::bystander_retreats;

    #[test]
    fn nr_losses_read_the_merged_cells() {
        let row = &LOSSES[0];
        assert_eq!(row.map(|c| c.percent), [0, 5, 5, 5, 10, 10]);
        assert_eq!(LOSSES[4].map(|c| c.percent), [10, 10, 25, 25, 25, 40]);
        assert_eq!(LOSSES[10].map(|c| c.percent), [50, 75, 75, 75, 100, 100]);
        assert_eq!(LOSSES[8][5], lc(100, None));
    }

    #[test]
    fn conditions_only_worsen_and_bystanders_follow() {
        use StrategicCondition::*;
        assert_eq!(StrategicCondition::after_battle(Amber, Some(Green)), Amber);
        assert_eq!(StrategicCondition::after_battle(Green, Some(Red)), Red);
        assert_eq!(StrategicCondition::after_battle(Amber, None), Amber);
        assert!(bystander_retreats("2/BG", false).0);
        assert!(!bystander_retreats("3/BG", true).0);
    }
}
