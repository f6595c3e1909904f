//! What each side of an engagement must do on the table, from its force's
//! campaign order (FYOW 10.5): a force sent against the board attacks it,
//! any other holds it. The battle's goals are *Heroes All*'s and FYOB's
//! (`warbound_rules::scenario::Goal`); the companies' objectives are FYOB's
//! "Orders & Objectives".
//!
//! Readings (docs/rules-readings.md, "Engagements become battles"):
//! - a force attacks when its order enters a board the enemy holds (Engage,
//!   Move To Contact: FYOW 10.5 "will move onto/enter a Map Board") or when
//!   this board is its objective under any order but Defend; every other
//!   force defends (Move turns to Defend when the enemy arrives, FYOW 10.5;
//!   Reconnaissance may withdraw without entering; Defend, Rest, Stand By and
//!   Support do not seek the fight);
//! - the attacker must break the enemy and hold the board's key place at the
//!   end; the defender must hold the same place and survive to the time limit;
//! - the key place is the board's first recorded settlement, else its first
//!   recorded bridge, else the table's centre.

use warbound_rules::command::Activity;
use warbound_rules::scenario::{Goal, Order};

use crate::army::orders::{EnemyOnBoard, OrderKind};
use crate::map::engagement::Engagement;
use crate::table::layout::BoardTable;

/// Inches about the key place that a `Hold` goal counts.
pub const HOLD_RADIUS: f32 = 6.0;

/// The name of the table's centre where the board records neither
/// settlement nor bridge.
pub const CENTRE: &str = "the centre of the table";

/// What a force came to the board to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    Attack,
    Defend,
}

/// The intent of a force under `order` on a board that is (or is not) its
/// objective.
pub fn intent(order: Option<OrderKind>, objective_here: bool) -> Intent {
    let advances = order.is_some_and(|o| o.enemy_on_destination() == EnemyOnBoard::Enters);
    let sent_here = objective_here && order != Some(OrderKind::Defend);
    if advances || sent_here { Intent::Attack } else { Intent::Defend }
}

/// The place on the table that the battle is fought for.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyPlace {
    pub name: String,
    pub at: (f32, f32),
}

/// The board's first recorded settlement on the table, else its first
/// recorded bridge, else the table's centre.
pub fn key_place(engagement: &Engagement, table: &BoardTable) -> KeyPlace {
    let detail = &engagement.detail;
    let recorded = detail.settlements.iter().map(|s| &s.name).chain(detail.bridges.iter().map(|b| &b.location));
    recorded
        .filter_map(|name| table.place(name).map(|at| KeyPlace { name: name.clone(), at }))
        .next()
        .unwrap_or_else(|| KeyPlace { name: CENTRE.to_owned(), at: (table.table.width / 2.0, table.table.depth / 2.0) })
}

/// The side's goals: the attacker breaks the enemy and holds the key place,
/// the defender holds it and survives.
pub fn goals(intent: Intent, key: &KeyPlace) -> Vec<Goal> {
    let hold = Goal::Hold { place: key.name.clone(), at: key.at, radius: HOLD_RADIUS };
    match intent {
        Intent::Attack => vec![Goal::Break, hold],
        Intent::Defend => vec![hold, Goal::Survive],
    }
}

/// A company's objective at the start (FYOB "Orders & Objectives"): an
/// attacker's companies advance into contact towards the key place; a
/// defender's on the table hold where they stand (no objective: the battle's
/// "remain in and hold present position"); a defender's in the box
/// re-position to the key place.
pub fn objective(intent: Intent, key: &KeyPlace, on_table: bool) -> Option<Order> {
    let order = |activity| Some(Order { activity, location: key.name.clone(), detail: String::new() });
    match (intent, on_table) {
        (Intent::Attack, _) => order(Activity::ContactEnemy),
        (Intent::Defend, true) => None,
        (Intent::Defend, false) => order(Activity::Reposition),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_follow_orders() {
        // FYOW 10.5: Engage and Move To Contact "will move onto/enter a Map
        // Board" held by the enemy; the others do not seek the fight.
        for order in [OrderKind::Engage, OrderKind::MoveToContact] {
            assert_eq!(intent(Some(order), false), Intent::Attack, "{order:?}");
        }
        for order in [
            OrderKind::Defend,
            OrderKind::Move,
            OrderKind::Reconnaissance,
            OrderKind::Support,
            OrderKind::Rest,
            OrderKind::StandBy,
        ] {
            assert_eq!(intent(Some(order), false), Intent::Defend, "{order:?}");
        }
        assert_eq!(intent(None, false), Intent::Defend);
        // A reserve on Stand By with this board its objective counter-attacks;
        // a force defending its objective defends it.
        assert_eq!(intent(Some(OrderKind::StandBy), true), Intent::Attack);
        assert_eq!(intent(Some(OrderKind::Defend), true), Intent::Defend);
        let key = KeyPlace { name: "Castel".into(), at: (36.0, 24.0) };
        let hold = Goal::Hold { place: "Castel".into(), at: (36.0, 24.0), radius: HOLD_RADIUS };
        assert_eq!(goals(Intent::Attack, &key), vec![Goal::Break, hold.clone()]);
        assert_eq!(goals(Intent::Defend, &key), vec![hold, Goal::Survive]);
        assert_eq!(objective(Intent::Attack, &key, false).map(|o| o.activity), Some(Activity::ContactEnemy));
        assert_eq!(objective(Intent::Defend, &key, true), None);
        assert_eq!(objective(Intent::Defend, &key, false).map(|o| o.activity), Some(Activity::Reposition));
    }
}
