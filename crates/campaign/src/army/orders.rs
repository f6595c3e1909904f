//! Orders (FYOW 10): the eight orders and what each allows, the operational
//! directive, standing orders, composite "if" orders, and changing orders by
//! Command Decision.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::strategic::StrategicCondition;

use crate::army::commander::Decision;
use crate::army::{ArmyError, fyow, not_allowed};

/// The range of orders (FYOW 10.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OrderKind {
    Defend,
    Engage,
    Move,
    MoveToContact,
    Reconnaissance,
    Support,
    Rest,
    StandBy,
}

/// What a force under an order does about a Map Board on which it has
/// identified an enemy force (FYOW 10.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EnemyOnBoard {
    /// Engage, Move To Contact: "will move onto/enter a Map Board" with the enemy on it.
    Enters,
    /// Reconnaissance: "permitted to withdraw without entering the Map Board".
    MayWithdrawWithoutEntering,
    /// Move ("in the absence of specific orders, ... cannot enter") and the others.
    MayNotEnter,
}

impl OrderKind {
    /// FYOW 10.5, order by order.
    ///
    /// Reading (FYOW 10.5): Support moves to "a specified location" and,
    /// like Move, does not enter a board with a known enemy without specific
    /// orders; Defend, Rest and Stand By do not move at all.
    pub const fn enemy_on_destination(self) -> EnemyOnBoard {
        match self {
            OrderKind::Engage | OrderKind::MoveToContact => EnemyOnBoard::Enters,
            OrderKind::Reconnaissance => EnemyOnBoard::MayWithdrawWithoutEntering,
            _ => EnemyOnBoard::MayNotEnter,
        }
    }

    /// Whether the order makes Map Board moves (Move, Move To Contact,
    /// Reconnaissance, Engage, Support).
    pub const fn moves(self) -> bool {
        !matches!(self, OrderKind::Defend | OrderKind::Rest | OrderKind::StandBy)
    }

    /// Move and Move To Contact: "An Order of March must be quoted".
    pub const fn needs_order_of_march(self) -> bool {
        matches!(self, OrderKind::Move | OrderKind::MoveToContact)
    }

    /// Move: "if the enemy arrive on a Map Board occupied by a moving
    /// Battlegroup, that Battlegroup will automatically adopt Defend orders"
    /// (absent specific orders).
    pub const fn on_enemy_arrival(self) -> Option<OrderKind> {
        match self {
            OrderKind::Move => Some(OrderKind::Defend),
            _ => None,
        }
    }

    /// Defend: digs in if the Map Board was occupied for 1 whole session
    /// before the enemy arrived, instead of making a Map Board move.
    pub const fn digs_in(self, whole_sessions_on_board: u8) -> bool {
        matches!(self, OrderKind::Defend) && whole_sessions_on_board >= 1
    }

    /// Stand By: the force "remains active" and "does not deploy on the Map Board".
    pub const fn deploys(self) -> bool {
        !matches!(self, OrderKind::StandBy)
    }

    /// Rest: "ordered to rest in order to preserve Supply".
    pub const fn preserves_supply(self) -> bool {
        matches!(self, OrderKind::Rest)
    }
}

/// A step of an order: what to do and for how long (in sessions, if set),
/// with the place or target in words ("retire to Map Board 12").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Directive {
    pub kind: OrderKind,
    pub detail: String,
    pub sessions: Option<u8>,
}

/// A condition of an "if" order (FYOW 10.7) or a trigger (10.2.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Condition {
    /// The battlegroup's Strategic Condition is this or better.
    StrategicConditionAtLeast(StrategicCondition),
    /// The enemy has been detected on the named Map Board.
    EnemyDetected(String),
    /// The force has been attacked.
    Attacked,
}

/// An "if ... then ..., if not ..." clause (FYOW 10.7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contingency {
    pub condition: Condition,
    pub then: Directive,
    pub otherwise: Option<Directive>,
}

/// What the force knows when its composite order is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Situation {
    pub strategic_condition: StrategicCondition,
    /// Map Boards on which the enemy has been detected.
    pub enemy_detected: Vec<String>,
    pub attacked: bool,
    /// The Strategic Condition rules demand that the force withdraws (FYOW 10.4).
    pub withdrawal_demanded: bool,
}

impl Condition {
    pub fn holds(&self, s: &Situation) -> bool {
        match self {
            Condition::StrategicConditionAtLeast(c) => s.strategic_condition <= *c,
            Condition::EnemyDetected(board) => s.enemy_detected.contains(board),
            Condition::Attacked => s.attacked,
        }
    }
}

/// An order as given to a BC (FYOW 10.2.1, the Operational Directive).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    pub first: Directive,
    pub objective: String,
    /// Start time and expected length.
    pub timing: String,
    /// The commander of the operation and those under him.
    pub command: String,
    pub forces: String,
    pub transport: String,
    /// "If" clauses and triggers, read in order after the first directive
    /// (FYOW 10.2.1 Triggers, 10.7).
    pub contingencies: Vec<Contingency>,
    /// Move and Move To Contact: the Order of March.
    pub order_of_march: Vec<String>,
    /// Move To Contact: what to do once the enemy is contacted (Engage or Reconnaissance).
    pub on_contact: Option<OrderKind>,
    /// Standing orders over a period (FYOW 10.3) rather than for the day.
    pub standing: bool,
}

impl Order {
    /// A plain order of one directive.
    pub fn simple(kind: OrderKind, detail: &str) -> Self {
        Self {
            first: Directive { kind, detail: detail.to_string(), sessions: None },
            objective: String::new(),
            timing: String::new(),
            command: String::new(),
            forces: String::new(),
            transport: String::new(),
            contingencies: Vec::new(),
            order_of_march: Vec::new(),
            on_contact: None,
            standing: false,
        }
    }

    /// Checks what FYOW 10.5 says an order must include.
    pub fn check(&self) -> Result<(), ArmyError> {
        if self.first.kind.needs_order_of_march() && self.order_of_march.is_empty() {
            return Err(not_allowed("a Move order must quote an Order of March (FYOW 10.5)"));
        }
        if self.first.kind == OrderKind::MoveToContact
            && !matches!(self.on_contact, Some(OrderKind::Engage | OrderKind::Reconnaissance))
        {
            return Err(not_allowed(
                "Move To Contact must include instructions if the enemy are contacted: engage or reconnaissance (FYOW 10.5)",
            ));
        }
        Ok(())
    }

    /// The directive that follows the first one, by the "if" clauses
    /// (FYOW 10.7): the first clause whose condition holds gives its `then`;
    /// one that fails and has an `otherwise` gives that; `None` when no
    /// clause applies, or when the Strategic Condition demands a withdrawal,
    /// which "will trigger a demand for new Orders" (10.4): the force needs
    /// new orders.
    pub fn follow_on(&self, s: &Situation) -> Option<&Directive> {
        if s.withdrawal_demanded {
            return None;
        }
        self.contingencies.iter().find_map(|c| if c.condition.holds(s) { Some(&c.then) } else { c.otherwise.as_ref() })
    }
}

/// Why a BC may change his orders (FYOW 10.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChangeGrounds {
    /// Unknown or underestimated enemy positions or strength revealed.
    EnemyRevealed,
    /// Unexpected enemy action against him.
    UnexpectedEnemyAction,
    /// Detection during an operation requiring secrecy.
    DetectedInSecret,
}

/// A force's orders: the current ones and any new ones waiting for the next
/// activation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrdersRecord {
    pub current: Order,
    pub pending: Option<Order>,
}

impl OrdersRecord {
    pub fn new(current: Order) -> Result<Self, ArmyError> {
        current.check()?;
        Ok(Self { current, pending: None })
    }

    /// FYOW 10.6: the BC changes his orders on one of the grounds, by a
    /// Command Decision; "new Orders will be available when he is next
    /// activated". A failed decision leaves the orders as they are.
    pub fn change(
        &mut self,
        grounds: ChangeGrounds,
        decision: &Decision,
        new: Order,
        bc: &str,
    ) -> Result<RuleEvent, ArmyError> {
        new.check()?;
        if decision.success {
            self.pending = Some(new.clone());
        }
        Ok(RuleEvent::new(EventKind::CommandDecision, fyow("10.6 Changing orders"))
            .actor(bc)
            .input("grounds", grounds, "")
            .input("decision", decision, "Command Decision Process")
            .outcome(json!({ "changed": decision.success, "new_order": new.first.kind, "from": "next activation" })))
    }

    /// The force is activated: waiting orders take effect.
    pub fn activate(&mut self) -> &Order {
        if let Some(next) = self.pending.take() {
            self.current = next;
        }
        &self.current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn situation(c: StrategicCondition) -> Situation {
        Situation { strategic_condition: c, enemy_detected: vec![], attacked: false, withdrawal_demanded: false }
    }

    #[test]
    fn what_each_order_allows() {
        assert_eq!(OrderKind::Move.enemy_on_destination(), EnemyOnBoard::MayNotEnter);
        assert_eq!(OrderKind::MoveToContact.enemy_on_destination(), EnemyOnBoard::Enters);
        assert_eq!(OrderKind::Engage.enemy_on_destination(), EnemyOnBoard::Enters);
        assert_eq!(OrderKind::Reconnaissance.enemy_on_destination(), EnemyOnBoard::MayWithdrawWithoutEntering);
        assert_eq!(OrderKind::Move.on_enemy_arrival(), Some(OrderKind::Defend));
        assert_eq!(OrderKind::Engage.on_enemy_arrival(), None);
        assert!(OrderKind::Defend.digs_in(1) && !OrderKind::Defend.digs_in(0) && !OrderKind::Move.digs_in(3));
        assert!(!OrderKind::StandBy.deploys() && OrderKind::Defend.deploys());
        assert!(OrderKind::Rest.preserves_supply() && !OrderKind::StandBy.preserves_supply());
        assert!(!OrderKind::Rest.moves() && OrderKind::Support.moves());
    }

    #[test]
    fn move_orders_need_an_order_of_march_and_contact_instructions() {
        assert!(Order::simple(OrderKind::Move, "to Vazon Bay").check().is_err());
        let mut o = Order::simple(OrderKind::Move, "to Vazon Bay");
        o.order_of_march = vec!["Recce troop".into(), "A Coy".into()];
        assert!(o.check().is_ok());
        o.first.kind = OrderKind::MoveToContact;
        assert!(o.check().is_err(), "no instructions for contact");
        o.on_contact = Some(OrderKind::Defend);
        assert!(o.check().is_err(), "engage or reconnaissance only");
        o.on_contact = Some(OrderKind::Engage);
        assert!(o.check().is_ok());
        assert!(OrdersRecord::new(Order::simple(OrderKind::Move, "x")).is_err());
    }

    #[test]
    fn defend_then_extend_if_green_else_retire() {
        // FYOW 10.7: "defend for 1 session but if your Strategic Condition
        // remains at Green, extend delaying action for a further session.
        // If not, retire to Map Board xx."
        let mut o = Order::simple(OrderKind::Defend, "hold the crossroads");
        o.first.sessions = Some(1);
        o.contingencies.push(Contingency {
            condition: Condition::StrategicConditionAtLeast(StrategicCondition::Green),
            then: Directive { kind: OrderKind::Defend, detail: "delay".into(), sessions: Some(1) },
            otherwise: Some(Directive {
                kind: OrderKind::Move,
                detail: "retire to Map Board xx".into(),
                sessions: None,
            }),
        });
        assert_eq!(o.follow_on(&situation(StrategicCondition::Green)).unwrap().kind, OrderKind::Defend);
        let retire = o.follow_on(&situation(StrategicCondition::Yellow)).unwrap();
        assert_eq!((retire.kind, retire.detail.as_str()), (OrderKind::Move, "retire to Map Board xx"));
        let mut red = situation(StrategicCondition::Red);
        red.withdrawal_demanded = true;
        assert_eq!(o.follow_on(&red), None, "10.4: a demanded withdrawal calls for new orders");
    }

    #[test]
    fn no_clause_that_applies_means_new_orders() {
        let mut o = Order::simple(OrderKind::Defend, "ridge");
        o.contingencies.push(Contingency {
            condition: Condition::EnemyDetected("Hill 112".into()),
            then: Directive { kind: OrderKind::Engage, detail: "Hill 112".into(), sessions: None },
            otherwise: None,
        });
        assert_eq!(o.follow_on(&situation(StrategicCondition::Green)), None);
        let mut s = situation(StrategicCondition::Red);
        s.enemy_detected.push("Hill 112".into());
        assert_eq!(o.follow_on(&s).unwrap().kind, OrderKind::Engage);
        assert!(Condition::Attacked.holds(&Situation { attacked: true, ..situation(StrategicCondition::Red) }));
    }

    #[test]
    fn changed_orders_wait_for_the_next_activation() {
        let mut rec = OrdersRecord::new(Order::simple(OrderKind::Defend, "village")).unwrap();
        let pass = Decision { question: "change orders".into(), target: 9, face: 3, success: true };
        let fail = Decision { face: 9, success: false, ..pass.clone() };
        rec.change(ChangeGrounds::EnemyRevealed, &fail, Order::simple(OrderKind::Rest, ""), "BC").unwrap();
        assert_eq!(rec.pending, None);
        let e =
            rec.change(ChangeGrounds::UnexpectedEnemyAction, &pass, Order::simple(OrderKind::Rest, ""), "BC").unwrap();
        assert_eq!(e.outcome["changed"], true);
        assert_eq!(rec.current.first.kind, OrderKind::Defend, "not until next activated");
        assert_eq!(rec.activate().first.kind, OrderKind::Rest);
        assert_eq!(rec.pending, None);
    }
}
