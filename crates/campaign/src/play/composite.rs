//! Composite Orders (FYOW 10.7) on the player's orders: "defend for 1
//! session but if your Strategic Condition remains at Green, extend ... If
//! not, retire to Map Board xx". The "if" is read at the force's activation
//! once its order has stood the sessions set, with no Command Decision:
//! that is the point of writing it into the order.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::strategic::StrategicCondition;

use crate::paper::dunnigan::StrategicCondition as ForceCondition;

use crate::army::orders::{Condition, OrderKind, Situation};
use crate::map::board::BoardId;
use crate::play::state::{Campaign, CampaignError, fyow};

/// An order and its objective.
pub type Orders = (OrderKind, Option<BoardId>);

/// The "if" written into a force's order: while the force is under `with`,
/// after it has stood `sessions` sessions, `then` if `condition` holds,
/// else `otherwise` (none: the order stands).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IfOrder {
    pub with: Orders,
    pub sessions: u8,
    pub condition: Condition,
    pub then: Orders,
    pub otherwise: Option<Orders>,
}

/// An "if" order waiting to be read: the sessions its order has stood, and
/// whether the force has been attacked since it was given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Composite {
    pub order: IfOrder,
    pub stood: u8,
    pub attacked: bool,
}

impl IfOrder {
    /// The clause in the words of FYOW 10.7.
    pub fn words(&self) -> String {
        let o = |(k, b): &Orders| {
            let k = warbound_rules::narrate::words(&format!("{k:?}"));
            match b {
                Some(b) => format!("{k} on {}", b.0),
                None => k,
            }
        };
        let condition = match &self.condition {
            Condition::StrategicConditionAtLeast(StrategicCondition::Green) => {
                "its condition is still Green".to_owned()
            }
            Condition::StrategicConditionAtLeast(_) => "its condition is Amber or better".to_owned(),
            Condition::EnemyDetected(b) => format!("the enemy is detected on {b}"),
            Condition::Attacked => "it has been attacked".to_owned(),
        };
        let otherwise = self.otherwise.as_ref().map(|x| format!("; if not, {}", o(x))).unwrap_or_default();
        let sessions = match self.sessions {
            0 => String::new(),
            1 => " for 1 session".to_owned(),
            n => format!(" for {n} sessions"),
        };
        format!("{}{sessions}, then if {condition}, {}{otherwise}", o(&self.with), o(&self.then))
    }
}

/// A force's condition (the worse of the Dunnigan table's and the FYOB
/// milestones', FYOW 12) in the milestones' terms, which an "if" reads:
/// Amber is FYOB's Yellow.
pub fn milestone(c: ForceCondition) -> StrategicCondition {
    match c {
        ForceCondition::Green => StrategicCondition::Green,
        ForceCondition::Amber => StrategicCondition::Yellow,
        ForceCondition::Red => StrategicCondition::Red,
    }
}

impl Campaign {
    /// The player writes an "if" into one of his force's orders (FYOW
    /// 10.7), or takes it out (`None`). It is read while the force is under
    /// the order it was written with.
    pub fn set_if_order(&mut self, name: &str, order: Option<IfOrder>) -> Result<(), CampaignError> {
        let f = self.force(name).ok_or_else(|| CampaignError::new("10.7", format!("no force is called {name:?}")))?;
        if self.player != Some(f.side) {
            return Err(CampaignError::new("10.7", format!("{name} is not the player's to command")));
        }
        let Some(order) = order else {
            self.composite.remove(name);
            return Ok(());
        };
        for (kind, objective) in [Some(&order.with), Some(&order.then), order.otherwise.as_ref()].into_iter().flatten()
        {
            if let Some(b) = objective {
                self.file.map.board(b).map_err(|e| CampaignError::new("10.7", e.to_string()))?;
            }
            if kind.needs_order_of_march() && objective.is_none() {
                return Err(CampaignError::new("10.5", format!("{kind:?} orders name the board to go to")));
            }
        }
        if let Condition::EnemyDetected(b) = &order.condition {
            self.file.map.board(&BoardId(b.clone())).map_err(|e| CampaignError::new("10.7", e.to_string()))?;
        }
        self.composite.insert(name.to_owned(), Composite { order, stood: 0, attacked: false });
        Ok(())
    }

    /// FYOW 10.7 by an Auto Senior Command, in the book's own words:
    /// "defend for 1 session but if your Strategic Condition remains at
    /// Green, extend ... If not, retire to Map Board xx". A force given
    /// Defend orders on a board that is not one of its army's objectives,
    /// with an enemy known on its board or the next, has it written in,
    /// xx being the neighbouring board by road nearer its army's home that
    /// the enemy does not hold.
    ///
    /// Reading: an outpost holds while it is whole and falls back when
    /// hurt; an objective is held to the last (test
    /// `an_auto_outpost_defends_while_green_and_retires_when_hurt`).
    pub(crate) fn auto_if_order(&mut self, name: &str) {
        let Some(i) = self.fx(name) else { return };
        let f = &self.forces[i];
        let side = f.side;
        let Some(here) = f.board().cloned() else { return };
        if self.player == Some(side)
            || f.order != OrderKind::Defend
            || self.army(side).objectives.contains(&here)
            || self.composite.get(name).is_some_and(|c| c.order.with == (f.order, f.objective.clone()))
        {
            return;
        }
        let v = f.mover().profile().is_ok_and(|p| p.v_barred);
        let near = |b: &BoardId| b == &here || self.file.map.legs_from(&here).iter().any(|l| &l.to == b);
        let threatened = self
            .army(side)
            .known
            .iter()
            .any(|(enemy, (b, _))| near(b) && self.force(enemy).is_some_and(|e| e.board() == Some(b)));
        // One written with orders since changed is spent.
        self.composite.remove(name);
        if !threatened {
            return;
        }
        let hops = self.road_hops(&self.army(side).home, v);
        let to_home = |from: &BoardId| hops.get(from).copied();
        let Some(mine) = to_home(&here) else { return };
        let rear = self
            .land_legs(&here, v)
            .into_iter()
            .filter(|l| self.held.get(&l.to) != Some(&side.enemy()))
            .filter_map(|l| to_home(&l.to).filter(|d| *d < mine).map(|d| (d, l.to)))
            .min();
        let Some((_, rear)) = rear else { return };
        let order = IfOrder {
            with: (OrderKind::Defend, None),
            sessions: 1,
            condition: Condition::StrategicConditionAtLeast(StrategicCondition::Green),
            then: (OrderKind::Defend, None),
            otherwise: Some((OrderKind::Move, Some(rear))),
        };
        self.composite.insert(name.to_owned(), Composite { order, stood: 0, attacked: false });
    }

    /// An attack on `defender` is what an "if attacked" clause waits for.
    pub(crate) fn note_attack(&mut self, defender: &str) {
        if let Some(c) = self.composite.get_mut(defender) {
            c.attacked = true;
        }
    }

    /// At the force's activation: its "if" read once its order has stood
    /// the sessions set. The chosen order stands at once and for the
    /// following days' orders; a Strategic Condition that demands a
    /// withdrawal voids the clause (10.4: new orders are needed).
    pub(crate) fn read_composite(&mut self, name: &str) {
        let (Some(i), Some(c)) = (self.fx(name), self.composite.get(name).cloned()) else { return };
        let f = &self.forces[i];
        if f.is_gone() {
            self.composite.remove(name);
            return;
        }
        if (f.order, f.objective.clone()) != c.order.with {
            return;
        }
        let stood = c.stood.saturating_add(1);
        if stood <= c.order.sessions {
            if let Some(x) = self.composite.get_mut(name) {
                x.stood = stood;
            }
            return;
        }
        self.composite.remove(name);
        let detected: Vec<String> = self.army(f.side).known.values().map(|(b, _)| b.0.clone()).collect();
        let situation = Situation {
            strategic_condition: milestone(f.condition),
            enemy_detected: detected,
            attacked: c.attacked,
            withdrawal_demanded: f.condition == ForceCondition::Red && f.order.moves(),
        };
        let holds = c.order.condition.holds(&situation);
        let chosen = if situation.withdrawal_demanded {
            None
        } else if holds {
            Some(c.order.then.clone())
        } else {
            Some(c.order.otherwise.clone().unwrap_or(c.order.with.clone()))
        };
        let mut e = RuleEvent::new(EventKind::CommandDecision, fyow("10.7 Composite Orders"))
            .actor(name)
            .input("order", c.order.words(), "written into its orders")
            .input("sessions_stood", c.stood, "")
            .input("strategic_condition", f.condition, "")
            .input("attacked", c.attacked, "since the order was given");
        if let Condition::EnemyDetected(b) = &c.order.condition {
            e = e.input(
                "enemy_detected_on",
                b,
                if situation.enemy_detected.contains(b) { "known to its army" } else { "not known to its army" },
            );
        }
        let Some((order, objective)) = chosen else {
            self.log(e.outcome(json!({ "condition_holds": holds, "void": "its Strategic Condition demands a withdrawal: new orders are needed (10.4)" })));
            return;
        };
        if order == OrderKind::Rest && self.in_battle(name) {
            self.log(
                e.outcome(json!({ "condition_holds": holds, "void": "engaged with the enemy, it cannot Rest (20.6)" })),
            );
            return;
        }
        self.log(e.outcome(json!({ "condition_holds": holds, "order": order, "objective": objective })));
        self.forces[i].order = order;
        self.forces[i].objective = objective.clone();
        if self.player == Some(self.forces[i].side) {
            self.player_orders.insert(name.to_owned(), (order, objective));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::testing;

    #[test]
    fn an_auto_outpost_defends_while_green_and_retires_when_hurt() {
        // FYOW 10.7: "defend for 1 session but if your Strategic Condition
        // remains at Green, extend the period for a further 2 sessions. If not,
        // retire to Map Board xx."
        use crate::map::common::{Edge, Side};
        for (condition, expected) in [
            (ForceCondition::Green, (OrderKind::Defend, None)),
            (ForceCondition::Amber, (OrderKind::Move, Some(BoardId::new("Town")))),
        ] {
            let mut c = testing::campaign();
            c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
            c.relocate("Red 1", &BoardId::new("Village"), &BoardId::new("Hill"), Edge::North).unwrap();
            c.army_mut(Side::Red).known.insert("Blue 1".into(), (BoardId::new("Beach"), 1));
            let i = c.fx("Red 1").unwrap();
            c.forces[i].order = OrderKind::Defend;
            c.forces[i].objective = None;
            c.auto_if_order("Red 1");
            let written = c.composite.get("Red 1").expect("written into its orders").order.clone();
            assert_eq!(written.otherwise, Some((OrderKind::Move, Some(BoardId::new("Town")))), "the board toward home");
            c.forces[i].condition = condition;
            c.drain_events();
            c.read_composite("Red 1");
            assert!(c.drain_events().is_empty(), "it stands its session first");
            c.read_composite("Red 1");
            let read = c.drain_events();
            assert!(read.iter().any(|e| e.rule.section == "10.7 Composite Orders"));
            assert_eq!((c.forces[i].order, c.forces[i].objective.clone()), expected, "{condition:?}");
            assert!(!c.player_orders.contains_key("Red 1"), "an Auto force's orders are not the player's");
        }
        // On an objective of its army it holds to the last; with no enemy near, nothing is written.
        let mut c = testing::campaign();
        c.army_mut(Side::Red).known.insert("Blue 1".into(), (BoardId::new("Beach"), 1));
        c.auto_if_order("Red 1");
        assert!(c.composite.is_empty(), "the Village is an objective");
        c.relocate("Red 1", &BoardId::new("Village"), &BoardId::new("Hill"), Edge::North).unwrap();
        c.auto_if_order("Red 1");
        assert!(c.composite.is_empty(), "Blue 1 is known on the Beach but is still afloat");
    }

    fn mine(c: &mut Campaign) -> (String, Orders) {
        let f = c.forces.iter().find(|f| f.board().is_some()).expect("a force on a board");
        let (name, with) = (f.name.clone(), (f.order, f.objective.clone()));
        c.player = Some(f.side);
        (name, with)
    }

    fn if_green(with: Orders, then: Orders, otherwise: Orders) -> IfOrder {
        IfOrder {
            with,
            sessions: 1,
            condition: Condition::StrategicConditionAtLeast(StrategicCondition::Green),
            then,
            otherwise: Some(otherwise),
        }
    }

    #[test]
    fn the_if_is_read_after_the_sessions_its_order_stands_and_takes_the_branch_the_condition_gives() {
        for (condition, expected) in
            [(ForceCondition::Green, OrderKind::StandBy), (ForceCondition::Amber, OrderKind::Rest)]
        {
            let mut c = testing::campaign();
            let (name, with) = mine(&mut c);
            let i = c.fx(&name).unwrap();
            c.forces[i].condition = condition;
            let order = if_green(with.clone(), (OrderKind::StandBy, None), (OrderKind::Rest, None));
            c.set_if_order(&name, Some(order)).unwrap();
            c.read_composite(&name);
            assert_eq!((c.forces[i].order, c.forces[i].objective.clone()), with, "the first session its order stands");
            assert_eq!(c.composite[&name].stood, 1);
            c.read_composite(&name);
            assert_eq!(c.forces[i].order, expected, "{condition:?}");
            assert!(!c.composite.contains_key(&name), "read once");
            assert_eq!(c.player_orders[&name].0, expected, "it stands for the next day's orders");
            let e = c.drain_events().into_iter().rev().find(|e| e.rule.section.contains("10.7")).expect("logged");
            assert_eq!(e.outcome["condition_holds"], condition == ForceCondition::Green);
        }
    }

    #[test]
    fn an_if_waits_while_the_force_is_under_another_order_and_attacks_are_remembered() {
        let mut c = testing::campaign();
        let (name, with) = mine(&mut c);
        let other = if with.0 == OrderKind::StandBy { OrderKind::Rest } else { OrderKind::StandBy };
        let order = IfOrder {
            with: (other, None),
            sessions: 0,
            condition: Condition::Attacked,
            then: (OrderKind::Defend, None),
            otherwise: None,
        };
        c.set_if_order(&name, Some(order)).unwrap();
        c.read_composite(&name);
        assert_eq!(c.composite[&name].stood, 0, "not under the order it was written with");
        let i = c.fx(&name).unwrap();
        c.forces[i].order = other;
        c.forces[i].objective = None;
        c.note_attack(&name);
        c.read_composite(&name);
        assert_eq!(c.forces[i].order, OrderKind::Defend, "attacked: the then-branch");
    }

    #[test]
    fn a_red_force_needs_new_orders_and_only_the_players_forces_take_ifs() {
        let mut c = testing::campaign();
        let (name, with) = mine(&mut c);
        let i = c.fx(&name).unwrap();
        c.forces[i].order = OrderKind::Engage;
        c.forces[i].condition = ForceCondition::Red;
        let with = (OrderKind::Engage, with.1.or_else(|| c.forces[i].board().cloned()));
        c.forces[i].objective = with.1.clone();
        let mut order = if_green(with, (OrderKind::Defend, None), (OrderKind::Rest, None));
        order.sessions = 0;
        c.set_if_order(&name, Some(order.clone())).unwrap();
        c.read_composite(&name);
        assert_eq!(c.forces[i].order, OrderKind::Engage, "void: 10.4 demands new orders");
        let enemy = c.forces.iter().find(|f| Some(f.side) != c.player).unwrap().name.clone();
        assert!(c.set_if_order(&enemy, Some(order.clone())).is_err(), "the Auto's force");
        order.then = (OrderKind::Move, None);
        assert!(c.set_if_order(&name, Some(order)).is_err(), "a Move names its board");
    }
}
