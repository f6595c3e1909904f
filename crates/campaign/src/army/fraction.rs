//! Fractions and Pickets (FYOW 3): creating a Fraction by Command Decision,
//! its first activation (moves, stockpile, first supply throw), ending and
//! merging Fractions; Pickets, their supply chains, and the separated
//! Picket that must declare itself a Fraction.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::battlegroup::{Battlegroup, Element, take_elements};
use crate::army::commander::Decision;
use crate::army::orders::{Order, OrderKind};
use crate::army::{ArmyError, fyow, not_allowed, out_of_range};

/// "The maximum Stockpile that a Fraction can maintain is 5S" (FYOW 3.1).
pub const FRACTION_MAX_STOCKPILE: u32 = 5;
/// The daily requirement of S (FYOW 20.4): a first-activation throw above it
/// is surplus that may not go to the stockpile (FYOW 3.5).
pub const DAILY_REQUIREMENT: u32 = 10;

/// A Fraction (FYOW 3): part of a battlegroup split away, led by the CO of
/// its core company, with its own record sheet, BPC and stockpile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fraction {
    pub name: String,
    /// The battlegroup it ultimately came from.
    pub battlegroup: String,
    /// The battlegroup or Fraction it was created from.
    pub parent: String,
    pub commander: String,
    pub elements: Vec<Element>,
    pub stockpile: u32,
    /// Its first activation (FYOW 3.5) is behind it.
    pub activated: bool,
    pub at_rest: bool,
    pub rationed: bool,
}

/// The outcome of a Fraction's first activation (FYOW 3.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstActivation {
    /// Map moves left to it today.
    pub moves: u8,
    /// Its initial Stockpile: the parent's × ¼, rounded up (not deducted from the parent).
    pub stockpile: u32,
    /// The 3D6 of S it has for the rest of the campaign day.
    pub supply_today: u32,
    /// S above the daily requirement, which may not go to the Stockpile on this first activation.
    pub surplus_lost: u32,
}

fn require(decision: &Decision, what: &str) -> Result<(), ArmyError> {
    if decision.success { Ok(()) } else { Err(not_allowed(format!("{what} needs a successful Command Decision"))) }
}

impl Fraction {
    /// FYOW 3.4: "When activated, the Battlegroup Commander creates the
    /// Fraction from within his force ... using the Command Decision
    /// Process", only if the battlegroup is Active for Supply. Its value may
    /// not exceed half the battlegroup's original value (2.2); elements
    /// attached from Brigade HQ need a separate decision (3.3). Orders are
    /// issued at once and the Fraction draws a BPC from the next session.
    ///
    /// A Senior Command sending reserves from the Brigade HQ Battlegroup
    /// (2.5, 6.4) creates its Fraction the same way.
    pub fn create(
        parent: &mut Battlegroup,
        name: &str,
        commander: &str,
        names: &[String],
        creation: &Decision,
        attached: Option<&Decision>,
    ) -> Result<(Fraction, RuleEvent), ArmyError> {
        if !parent.is_active() {
            return Err(not_allowed(format!(
                "{} is not Active for Supply: Fractions can only be created from an Active battlegroup (FYOW 3.4)",
                parent.name
            )));
        }
        require(creation, "creating a Fraction (FYOW 3.4)")?;
        let chosen: Vec<&Element> = parent.elements.iter().filter(|e| names.contains(&e.name)).collect();
        let points: u32 = chosen.iter().map(|e| e.points).sum();
        if points * 2 > parent.original_points {
            return Err(out_of_range(format!(
                "a Fraction of {points} points is over half of {}'s original {} (FYOW 2.2)",
                parent.name, parent.original_points
            )));
        }
        if chosen.iter().any(|e| e.attached) {
            match attached {
                Some(d) => require(d, "adding elements attached from Brigade HQ (FYOW 3.3)")?,
                None => {
                    return Err(not_allowed("elements attached from Brigade HQ need a separate decision (FYOW 3.3)"));
                }
            }
        }
        let elements = parent.take_elements(names)?;
        let fraction = Fraction {
            name: name.to_string(),
            battlegroup: parent.name.clone(),
            parent: parent.name.clone(),
            commander: commander.to_string(),
            elements,
            stockpile: 0,
            activated: false,
            at_rest: false,
            rationed: false,
        };
        let event = fraction.created_event(&parent.name, points, creation, "3.4 Creating a fraction");
        Ok((fraction, event))
    }

    /// FYOW 3.2: "A Fraction can create another Fraction from itself", by
    /// its CO's Command Decision, while it is Active.
    pub fn split(
        &mut self,
        name: &str,
        commander: &str,
        names: &[String],
        creation: &Decision,
    ) -> Result<(Fraction, RuleEvent), ArmyError> {
        if self.at_rest || self.rationed {
            return Err(not_allowed(format!("{} is not Active for Supply (FYOW 3.4)", self.name)));
        }
        require(creation, "creating a Fraction (FYOW 3.2)")?;
        let elements = take_elements(&mut self.elements, names, &self.name)?;
        let points = elements.iter().map(|e| e.points).sum();
        let fraction = Fraction {
            name: name.to_string(),
            battlegroup: self.battlegroup.clone(),
            parent: self.name.clone(),
            commander: commander.to_string(),
            elements,
            stockpile: 0,
            activated: false,
            at_rest: false,
            rationed: false,
        };
        let event = fraction.created_event(&self.name, points, creation, "3.2 A Fraction from a Fraction");
        Ok((fraction, event))
    }

    fn created_event(&self, parent: &str, points: u32, decision: &Decision, section: &str) -> RuleEvent {
        RuleEvent::new(EventKind::Battlegroup, fyow(section))
            .actor(parent)
            .target(&self.name)
            .input("decision", decision, "Command Decision Process")
            .input("points", points, "")
            .outcome(json!({
                "fraction": self.name,
                "commander": self.commander,
                "elements": self.elements.iter().map(|e| &e.name).collect::<Vec<_>>(),
                "orders": "issued immediately",
                "bpc": "from the next session",
            }))
    }

    pub fn points(&self) -> u32 {
        self.elements.iter().map(|e| e.points).sum()
    }

    /// FYOW 3.5, the Fraction's first activation: it has the moves left to
    /// its parent today, capped by any FYOW 14.11 maximum; its Stockpile is
    /// the parent's × ¼ rounded up (not taken from the parent; at most 5S,
    /// 3.1); it throws 3D6 for its S for the rest of the day, and on this
    /// first activation any S over the daily 10 may not go to the Stockpile.
    pub fn first_activation(
        &mut self,
        parent_stockpile: u32,
        parent_moves_left: u8,
        move_limit: Option<u8>,
        dice: &mut impl Roll,
    ) -> Result<(FirstActivation, RuleEvent), ArmyError> {
        if self.activated {
            return Err(not_allowed(format!("{} has had its first activation (FYOW 3.6)", self.name)));
        }
        let moves = move_limit.map_or(parent_moves_left, |m| m.min(parent_moves_left));
        let stockpile = parent_stockpile.div_ceil(4).min(FRACTION_MAX_STOCKPILE);
        let faces = dice.throw(3, 6);
        let supply_today: u32 = faces.iter().map(|&f| u32::from(f)).sum();
        let outcome = FirstActivation {
            moves,
            stockpile,
            supply_today,
            surplus_lost: supply_today.saturating_sub(DAILY_REQUIREMENT),
        };
        self.activated = true;
        self.stockpile = stockpile;
        let event = RuleEvent::new(EventKind::Battlegroup, fyow("3.5 When the Fraction is first activated"))
            .actor(&self.name)
            .input("parent_stockpile", parent_stockpile, "x 1/4, rounded up")
            .input("parent_moves_left", parent_moves_left, "")
            .input("move_limit", move_limit, "FYOW 14.11")
            .dice(6, &faces)
            .outcome(&outcome);
        Ok((outcome, event))
    }

    /// FYOW 3.7: the BC dissolves the Fraction by a Command Decision once it
    /// is on his Map Board. Its elements rejoin the roster; its Record
    /// Sheet, the S it had today and its Stockpile are discarded; its BPC
    /// leaves the pack for the next session. Reserves sent as a Fraction
    /// (2.5) are absorbed by the battlegroup they were sent to the same way.
    ///
    /// Reading (FYOW 2.5, 3.7): the receiving battlegroup must keep to its
    /// cost limit (2.5: "A Battlegroup's value cannot exceed the maximum").
    pub fn dissolve_into(
        &self,
        bg: &mut Battlegroup,
        same_map_board: bool,
        decision: &Decision,
    ) -> Result<RuleEvent, ArmyError> {
        if !same_map_board {
            return Err(not_allowed("a Fraction is absorbed once it moves to the battlegroup's Map Board (FYOW 3.7)"));
        }
        require(decision, "dissolving a Fraction (FYOW 3.7)")?;
        bg.add_elements(self.elements.clone())?;
        Ok(RuleEvent::new(EventKind::Battlegroup, fyow("3.7 Ending a fraction"))
            .actor(&bg.name)
            .target(&self.name)
            .input("decision", decision, "Command Decision Process")
            .outcome(json!({
                "points": bg.points(),
                "stockpile_discarded": self.stockpile,
                "bpc_removed": self.name,
            })))
    }

    /// FYOW 3.7 "Merging Fractions": the BC merges Fractions of his by a
    /// Command Decision and appoints one of their leaders; the new Fraction
    /// takes the supply condition (stockpile, Rest, Rationed) of the
    /// Fraction whose officer leads it.
    ///
    /// Reading (FYOW 3.7): the merged Fraction keeps the leading Fraction's
    /// name and orders; the others' BPCs leave the pack.
    pub fn merge(parts: &[Fraction], leader: &str, decision: &Decision) -> Result<(Fraction, RuleEvent), ArmyError> {
        if parts.len() < 2 {
            return Err(out_of_range("merging needs at least two Fractions"));
        }
        if parts.iter().any(|f| f.battlegroup != parts[0].battlegroup) {
            return Err(not_allowed("a BC merges only his own Fractions (FYOW 3.7)"));
        }
        let lead = parts
            .iter()
            .find(|f| f.commander == leader)
            .ok_or_else(|| out_of_range(format!("{leader} leads none of the Fractions merged (FYOW 3.7)")))?;
        require(decision, "merging Fractions (FYOW 3.7)")?;
        let mut merged = lead.clone();
        merged.elements = parts.iter().flat_map(|f| f.elements.iter().cloned()).collect();
        let event = RuleEvent::new(EventKind::Battlegroup, fyow("3.7 Merging Fractions"))
            .actor(&merged.battlegroup)
            .input("fractions", parts.iter().map(|f| &f.name).collect::<Vec<_>>(), "")
            .input("decision", decision, "Command Decision Process")
            .outcome(json!({
                "fraction": merged.name,
                "commander": leader,
                "stockpile": merged.stockpile,
                "rationed": merged.rationed,
                "at_rest": merged.at_rest,
                "bpcs_removed": parts.iter().filter(|f| f.name != merged.name).map(|f| &f.name).collect::<Vec<_>>(),
            }));
        Ok((merged, event))
    }

    /// FYOW 3.8: a separated picket, now a Fraction, that has re-connected
    /// becomes a picket again if required; its elements go back to its
    /// parent's roster.
    ///
    /// Reading (FYOW 3.8): no Command Decision is needed, as none was
    /// needed to declare it a Fraction; it must be back in its chain.
    pub fn back_to_picket(self, roster: &mut Vec<Element>, board: &str, connected: bool) -> Result<Picket, ArmyError> {
        if !connected {
            return Err(not_allowed(format!("{} is not connected to its parent's chain (FYOW 3.8)", self.name)));
        }
        let names = self.elements.iter().map(|e| e.name.clone()).collect();
        roster.extend(self.elements);
        Ok(Picket {
            name: self.name,
            battlegroup: self.battlegroup,
            parent: self.parent,
            board: board.to_string(),
            elements: names,
        })
    }
}

/// A Picket (FYOW 3.8): part of a battlegroup or Fraction, nominally a
/// platoon or troop, on an adjacent Map Board. Its elements stay on its
/// parent's roster while it is connected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Picket {
    pub name: String,
    pub battlegroup: String,
    /// The battlegroup or Fraction that sent it.
    pub parent: String,
    pub board: String,
    pub elements: Vec<String>,
}

impl Picket {
    /// FYOW 3.8: supply reaches a picket on a board adjacent to its parent's,
    /// and the route "can pass through other pickets of its own
    /// Battlegroup" (a chain). `adjacent` says whether two Map Boards are
    /// linked (the map's business); `pickets` are all the pickets on the map.
    pub fn connected(&self, parent_board: &str, pickets: &[Picket], adjacent: impl Fn(&str, &str) -> bool) -> bool {
        let mut reached = vec![parent_board.to_string()];
        let mut queue = VecDeque::from([parent_board.to_string()]);
        while let Some(board) = queue.pop_front() {
            if board == self.board {
                return true;
            }
            for p in pickets.iter().filter(|p| p.battlegroup == self.battlegroup) {
                if !reached.contains(&p.board) && adjacent(&board, &p.board) {
                    reached.push(p.board.clone());
                    queue.push_back(p.board.clone());
                }
            }
        }
        false
    }

    /// FYOW 3.8: a picket separated from its parent "must, when next
    /// activated, declare itself to be a Fraction", with no Command
    /// Decision, and is given automatic orders to re-connect as quickly as
    /// possible. Its elements leave the parent's `roster`; it then has its
    /// first activation as any new Fraction (3.5).
    pub fn declare_fraction(
        &self,
        roster: &mut Vec<Element>,
        commander: &str,
        parent_board: &str,
    ) -> Result<(Fraction, Order, RuleEvent), ArmyError> {
        let elements = take_elements(roster, &self.elements, &self.parent)?;
        let fraction = Fraction {
            name: self.name.clone(),
            battlegroup: self.battlegroup.clone(),
            parent: self.parent.clone(),
            commander: commander.to_string(),
            elements,
            stockpile: 0,
            activated: false,
            at_rest: false,
            rationed: false,
        };
        let mut order = Order::simple(OrderKind::Move, &format!("re-connect with {} at {parent_board}", self.parent));
        order.order_of_march = self.elements.clone();
        let event = RuleEvent::new(EventKind::Battlegroup, fyow("3.8 Pickets"))
            .actor(&self.name)
            .input("board", &self.board, "separated from its parent's chain")
            .outcome(json!({ "fraction": self.name, "orders": order.first.detail, "decision": "not needed" }));
        Ok((fraction, order, event))
    }
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;
    use crate::army::battlegroup::{BattlegroupKind, ElementClass};

    fn el(name: &str, points: u32, attached: bool) -> Element {
        Element { name: name.into(), points, class: ElementClass::Line, movement_points: 3, attached }
    }

    fn passed() -> Decision {
        Decision { question: "q".into(), target: 9, face: 2, success: true }
    }

    fn failed() -> Decision {
        Decision { question: "q".into(), target: 9, face: 9, success: false }
    }

    fn bg() -> Battlegroup {
        let elements =
            vec![el("A Coy", 300, false), el("B Coy", 320, false), el("MMG Pl", 100, false), el("RE Pl", 80, true)];
        let mut b = Battlegroup::new("1 BG", BattlegroupKind::Line, "1 Bde", "Lt Col", elements, 1500).unwrap();
        b.stockpile = 13;
        b
    }

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn creating_a_fraction() {
        let mut b = bg();
        let (f, event) =
            Fraction::create(&mut b, "A Coy Gp", "Maj A", &names(&["A Coy", "MMG Pl"]), &passed(), None).unwrap();
        assert_eq!(f.points(), 400);
        assert_eq!(b.points(), 400, "exactly half is allowed");
        assert_eq!(event.outcome["bpc"], "from the next session");
        assert_eq!(f.parent, "1 BG");
    }

    #[test]
    fn a_fraction_needs_an_active_parent_a_decision_and_at_most_half_the_value() {
        let mut b = bg();
        assert!(Fraction::create(&mut b, "F", "x", &names(&["A Coy"]), &failed(), None).is_err());
        assert!(
            Fraction::create(&mut b, "F", "x", &names(&["A Coy", "B Coy"]), &passed(), None).is_err(),
            "620 > 800 / 2"
        );
        b.rationed = true;
        assert!(Fraction::create(&mut b, "F", "x", &names(&["A Coy"]), &passed(), None).is_err());
        assert_eq!(b.elements.len(), 4, "nothing taken");
    }

    #[test]
    fn attached_elements_need_a_second_decision() {
        let mut b = bg();
        let n = names(&["A Coy", "RE Pl"]);
        assert!(Fraction::create(&mut b, "F", "x", &n, &passed(), None).is_err());
        assert!(Fraction::create(&mut b, "F", "x", &n, &passed(), Some(&failed())).is_err());
        assert!(Fraction::create(&mut b, "F", "x", &n, &passed(), Some(&passed())).is_ok());
    }

    #[test]
    fn first_activation_stockpile_moves_and_supply() {
        let mut b = bg();
        let (mut f, _) = Fraction::create(&mut b, "F", "x", &names(&["A Coy"]), &passed(), None).unwrap();
        let (first, event) = f.first_activation(b.stockpile, 3, Some(2), &mut Scripted::new([6, 5, 3])).unwrap();
        assert_eq!(first.stockpile, 4, "13 x 1/4 = 3.25, rounded up");
        assert_eq!(b.stockpile, 13, "not deducted from the parent");
        assert_eq!(first.moves, 2, "capped by 14.11");
        assert_eq!(first.supply_today, 14);
        assert_eq!(first.surplus_lost, 4, "surplus over 10 cannot go to the Stockpile");
        assert_eq!(event.dice.len(), 3);
        assert!(f.first_activation(13, 3, None, &mut Scripted::new([1, 1, 1])).is_err(), "only once");
        let (mut g, _) = Fraction::create(&mut b, "G", "y", &names(&["MMG Pl"]), &passed(), None).unwrap();
        let (first, _) = g.first_activation(20, 1, None, &mut Scripted::new([1, 2, 3])).unwrap();
        assert_eq!((first.stockpile, first.moves, first.surplus_lost), (5, 1, 0));
    }

    #[test]
    fn a_fraction_can_split_and_be_dissolved() {
        let mut b = bg();
        let (mut f, _) = Fraction::create(&mut b, "F", "x", &names(&["A Coy", "MMG Pl"]), &passed(), None).unwrap();
        let (g, _) = f.split("G", "Lt B", &names(&["MMG Pl"]), &passed()).unwrap();
        assert_eq!((g.parent.as_str(), g.battlegroup.as_str()), ("F", "1 BG"));
        assert!(f.split("H", "z", &names(&["Nobody"]), &passed()).is_err());
        f.stockpile = 4;
        assert!(f.dissolve_into(&mut b, false, &passed()).is_err(), "not on the parent's board");
        assert!(f.dissolve_into(&mut b, true, &failed()).is_err());
        b.max_points = 600;
        assert!(f.dissolve_into(&mut b, true, &passed()).is_err(), "2.5: not over the cost limit");
        b.max_points = 1500;
        let e = f.dissolve_into(&mut b, true, &passed()).unwrap();
        assert_eq!(b.points(), 700);
        assert_eq!(b.stockpile, 13, "the Fraction's stockpile is ignored");
        assert_eq!(e.outcome["stockpile_discarded"], 4);
    }

    #[test]
    fn merged_fractions_take_the_leaders_supply_condition() {
        let mut b = bg();
        let (mut f, _) = Fraction::create(&mut b, "F", "Maj A", &names(&["A Coy"]), &passed(), None).unwrap();
        let (mut g, _) = Fraction::create(&mut b, "G", "Capt B", &names(&["MMG Pl"]), &passed(), None).unwrap();
        f.stockpile = 1;
        f.rationed = true;
        g.stockpile = 5;
        let (m, e) = Fraction::merge(&[f.clone(), g.clone()], "Capt B", &passed()).unwrap();
        assert_eq!((m.name.as_str(), m.stockpile, m.rationed), ("G", 5, false));
        assert_eq!(m.points(), 400);
        assert_eq!(e.outcome["bpcs_removed"], json!(["F"]));
        assert!(Fraction::merge(&[f.clone(), g.clone()], "Gen X", &passed()).is_err());
        assert!(Fraction::merge(&[f.clone(), g.clone()], "Capt B", &failed()).is_err());
        g.battlegroup = "2 BG".into();
        assert!(Fraction::merge(&[f, g], "Capt B", &passed()).is_err());
    }

    fn guernsey(a: &str, b: &str) -> bool {
        const LINKS: [(&str, &str); 3] =
            [("Cobo Bay", "Grandes Rocques"), ("Cobo Bay", "Vazon Bay"), ("La Passee", "L'Ancresse")];
        LINKS.iter().any(|&(x, y)| (x == a && y == b) || (x == b && y == a))
    }

    fn picket(name: &str, board: &str) -> Picket {
        Picket {
            name: name.into(),
            battlegroup: "1 BG".into(),
            parent: "1 BG".into(),
            board: board.into(),
            elements: vec![name.into()],
        }
    }

    #[test]
    fn defensive_forces_in_nw_guernsey() {
        // FYOW 3.8's picture: Battlegroup 1 at Cobo Bay with Pickets at
        // Grandes Rocques (2) and Vazon Bay (3); the force at La Passee (4)
        // "has to be a Fraction as it is not connected to the chain".
        let pickets = [picket("2", "Grandes Rocques"), picket("3", "Vazon Bay"), picket("4", "La Passee")];
        assert!(pickets[0].connected("Cobo Bay", &pickets, guernsey));
        assert!(pickets[1].connected("Cobo Bay", &pickets, guernsey));
        assert!(!pickets[2].connected("Cobo Bay", &pickets, guernsey));

        let mut b = bg();
        b.elements.push(el("4", 40, false));
        let (f, order, event) = pickets[2].declare_fraction(&mut b.elements, "Lt D", "Cobo Bay").unwrap();
        assert_eq!(f.points(), 40);
        assert_eq!(order.first.kind, OrderKind::Move);
        assert!(order.check().is_ok());
        assert_eq!(event.outcome["decision"], "not needed");
        assert!(!b.elements.iter().any(|e| e.name == "4"));
        assert!(f.clone().back_to_picket(&mut b.elements, "La Passee", false).is_err());
        let p = f.back_to_picket(&mut b.elements, "Grandes Rocques", true).unwrap();
        assert_eq!(p.board, "Grandes Rocques");
        assert!(b.elements.iter().any(|e| e.name == "4"));
    }

    #[test]
    fn a_chain_runs_through_pickets_of_the_same_battlegroup_only() {
        let line = |a: &str, b: &str| (a.len() as i32 - b.len() as i32).abs() == 1;
        // Boards named by length: "a" - "aa" - "aaa".
        let mut far = picket("far", "aaa");
        let mut near = picket("near", "aa");
        assert!(far.connected("a", &[near.clone(), far.clone()], line));
        near.battlegroup = "2 BG".into();
        assert!(!far.connected("a", &[near.clone(), far.clone()], line));
        far.board = "a".into();
        assert!(far.connected("a", &[], line));
    }
}
