//! Levels of Army Command (FYOW 6) and Communication (FYOW 9): who commands
//! what, when each level is activated and issues orders, the level the
//! player takes, requests passed up the chain through the Senior Commands,
//! and the optional telegraph-clerk delays.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::{ArmyError, fyow, out_of_range};

/// A level of land command (FYOW 6). Air and Naval Commands (6.7) stand
/// beside these and are activated like a Senior Command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CommandLevel {
    /// A Fraction, led by the CO of its core company (FYOW 3.3).
    Fraction,
    /// A Battlegroup, led by a Battlegroup Commander (6.6).
    Battlegroup,
    /// A Brigade ("Regiment" in some armies), led by a Senior Commander (6.3).
    Brigade,
    /// A Division, led by a General (6.2).
    Division,
    /// An Army of several Divisions, "treated like a General" (6.1).
    Army,
}

/// When a level sets out its orders (FYOW 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OrdersIssued {
    /// At the start of the campaign week, by Weekly Order Card (10.1).
    Weekly,
    /// At the start of the day, by Daily Order Card (10.2).
    Daily,
    /// At the start of each session, when its BPC comes up (10).
    EachSession,
}

impl CommandLevel {
    /// The commander's title in the rules.
    pub const fn commander(self) -> &'static str {
        match self {
            CommandLevel::Fraction => "Fraction CO",
            CommandLevel::Battlegroup => "Battlegroup Commander",
            CommandLevel::Brigade => "Senior Commander",
            CommandLevel::Division | CommandLevel::Army => "General",
        }
    }

    /// When this level issues its orders (FYOW 10; 6.2: the General "does
    /// not need to be activated during the campaign day").
    pub const fn orders_issued(self) -> OrdersIssued {
        match self {
            CommandLevel::Army | CommandLevel::Division => OrdersIssued::Weekly,
            CommandLevel::Brigade => OrdersIssued::Daily,
            CommandLevel::Battlegroup | CommandLevel::Fraction => OrdersIssued::EachSession,
        }
    }

    /// Whether the level receives a Battlegroup Priority Card each session
    /// (FYOW 4.5: Senior Commanders, Air and Naval Commands, Battlegroups,
    /// Fractions; the General acts weekly only).
    pub const fn has_bpc(self) -> bool {
        !matches!(self, CommandLevel::Army | CommandLevel::Division)
    }

    /// FYOW 6.8: the player commands "one level higher than the highest
    /// level represented on the campaign map". An Army on the map has no
    /// level above it in these rules.
    pub fn player_level(highest_on_map: CommandLevel) -> Result<CommandLevel, ArmyError> {
        match highest_on_map {
            CommandLevel::Fraction => Ok(CommandLevel::Battlegroup),
            CommandLevel::Battlegroup => Ok(CommandLevel::Brigade),
            CommandLevel::Brigade => Ok(CommandLevel::Division),
            CommandLevel::Division => Ok(CommandLevel::Army),
            CommandLevel::Army => Err(out_of_range("no command above an Army in FYOW 6")),
        }
    }
}

/// A request from a BC for another Battlegroup's movement or activity,
/// passed "through the Senior Officer and via other Senior Officers as
/// appropriate" (FYOW 9.1). The BC must first pass a Command Decision (or
/// the Obvious rule, or his orders, spare him it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    pub from: String,
    pub subject: String,
    /// The Senior Commands the request passes through, in order.
    pub route: Vec<String>,
    /// How many of them have dealt with it.
    pub hops_done: usize,
}

impl Request {
    pub fn new(from: &str, subject: &str, route: Vec<String>) -> Result<Self, ArmyError> {
        if route.is_empty() {
            return Err(out_of_range("a request passes through at least its own Senior Command (FYOW 9.1)"));
        }
        Ok(Self { from: from.to_string(), subject: subject.to_string(), route, hops_done: 0 })
    }

    /// Whether every Senior Command on the route has dealt with it.
    pub fn answered(&self) -> bool {
        self.hops_done == self.route.len()
    }

    /// FYOW 9.1: "the speed of the decision will be determined by the order
    /// of activation of Senior Commands that the request has to go through".
    /// `activations` is this session's order of activation (by BPC) and
    /// `after` how many of them had already acted when the request was
    /// made (0 for a request carried over from an earlier session). Each
    /// Senior Command on the route passes it on when next activated after
    /// it arrives. Returns the hops made this session.
    pub fn pass_on(&mut self, activations: &[String], after: usize) -> usize {
        let before = self.hops_done;
        for command in activations.iter().skip(after) {
            if self.answered() {
                break;
            }
            if *command == self.route[self.hops_done] {
                self.hops_done += 1;
            }
        }
        self.hops_done - before
    }
}

/// FYOW 9.2 (optional): a message up the chain needs `base`+ on a D6 (3+
/// in the book's example) to be answered in the usual time; the score
/// needed falls by 1 each later session ("falls to 2+ during the subsequent
/// session and so on"); at 1+ no throw is needed. `sessions_waited` is 0 in
/// the first session.
pub fn clerk_throw(base: u8, sessions_waited: u8, dice: &mut impl Roll, message: &str) -> (bool, RuleEvent) {
    let needed = base.saturating_sub(sessions_waited).max(1);
    let event = RuleEvent::new(EventKind::CommandDecision, fyow("9.2 Communication delays"))
        .actor(message)
        .input("needed", needed, "falls by 1 each session waited")
        .input("sessions_waited", sessions_waited, "");
    if needed <= 1 {
        return (true, event.outcome(json!({ "through": true, "automatic": true })));
    }
    let face = dice.d6();
    let through = face >= needed;
    (through, event.dice(6, &[face]).outcome(json!({ "through": through })))
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    #[test]
    fn player_takes_the_level_above_the_highest_on_the_map() {
        // FYOW 6.8: 3 Battlegroups in a Brigade under a Senior Commander: the player is the General.
        assert_eq!(CommandLevel::player_level(CommandLevel::Brigade), Ok(CommandLevel::Division));
        assert_eq!(CommandLevel::player_level(CommandLevel::Division).unwrap().commander(), "General");
        assert!(CommandLevel::player_level(CommandLevel::Army).is_err());
    }

    #[test]
    fn activation_periods() {
        assert_eq!(CommandLevel::Division.orders_issued(), OrdersIssued::Weekly);
        assert_eq!(CommandLevel::Brigade.orders_issued(), OrdersIssued::Daily);
        assert_eq!(CommandLevel::Battlegroup.orders_issued(), OrdersIssued::EachSession);
        assert!(!CommandLevel::Division.has_bpc());
        assert!(CommandLevel::Brigade.has_bpc() && CommandLevel::Fraction.has_bpc());
    }

    #[test]
    fn a_request_moves_up_the_chain_in_activation_order() {
        let route = vec!["1 Bde".to_string(), "2 Bde".to_string()];
        let mut r = Request::new("BG 1", "support on Hill 112", route).unwrap();
        // 2 Bde acts before 1 Bde this session: only 1 Bde's hop is made.
        let order: Vec<String> = ["BG 1", "2 Bde", "1 Bde", "BG 2"].map(String::from).to_vec();
        assert_eq!(r.pass_on(&order, 1), 1);
        assert!(!r.answered());
        let next: Vec<String> = ["1 Bde", "2 Bde"].map(String::from).to_vec();
        assert_eq!(r.pass_on(&next, 0), 1);
        assert!(r.answered());
        assert_eq!(r.pass_on(&next, 0), 0);
    }

    #[test]
    fn a_request_made_after_its_senior_command_acted_waits() {
        let mut r = Request::new("BG 1", "engineers", vec!["1 Bde".into()]).unwrap();
        let order: Vec<String> = ["1 Bde", "BG 1"].map(String::from).to_vec();
        assert_eq!(r.pass_on(&order, 2), 0);
        assert!(Request::new("BG 1", "x", vec![]).is_err());
    }

    #[test]
    fn clerks_need_three_then_two_then_nothing() {
        assert!(!clerk_throw(3, 0, &mut Scripted::new([2]), "msg").0);
        assert!(clerk_throw(3, 1, &mut Scripted::new([2]), "msg").0, "2+ the next session");
        let (through, event) = clerk_throw(3, 2, &mut Scripted::new([]), "msg");
        assert!(through);
        assert!(event.dice.is_empty());
    }
}
