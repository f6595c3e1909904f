//! The orders list (FYOB "Orders & Objectives"): each order's number, what it
//! obliges the element to do, and the objective an order names.

use serde::{Deserialize, Serialize};

use super::CommandError;

/// The activity of an order or objective (FYOB "Orders & Objectives", the
/// list numbered 1 to 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Activity {
    /// 1 "remain in and hold present position".
    Hold,
    /// 2 "x unit from y position".
    Support,
    /// 3 "move to another location without deliberately contacting the enemy".
    Reposition,
    /// 4 "advance into contact with the intention of engaging with him".
    ContactEnemy,
    /// 5 "advance into contact with the enemy without initiating combat for
    /// the purposes of reconnaissance".
    RecceAndReport,
    /// 6 "Occupy a Concealed position until otherwise ordered".
    ConcealedPosition,
    /// 7 "guarding a specific location or feature".
    Overwatch,
    /// 8 "tasks to be detailed".
    Engineering,
}

/// Where an order takes the element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Moves {
    /// Stays where it is.
    Stays,
    /// Goes to the location named (and stays there).
    ToLocation,
    /// Goes to the location named by a way that keeps clear of the enemy.
    AvoidingContact,
    /// Advances into contact with the enemy.
    IntoContact,
}

/// Whether an order lets the element start a fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpensFire {
    Freely,
    /// "Without initiating combat": it fires only at an enemy that fired on it.
    OnlyInReply,
    /// Firing from a concealed position at approaching enemy is an Officer
    /// decision (FYOB "Officer decisions" (i)).
    OnLeadershipTest,
    /// "Elements on Overwatch may not fire."
    Never,
}

/// What an order obliges the element to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conduct {
    pub moves: Moves,
    pub opens_fire: OpensFire,
    /// In the Overwatch state (*Heroes All* "Overwatch": no fire, half
    /// movement, better observation over a 180° arc).
    pub overwatch: bool,
    /// Passes what it sees to its Company Officer (an Act, *Heroes All*
    /// "Passing on information").
    pub reports: bool,
}

const fn conduct(moves: Moves, opens_fire: OpensFire, overwatch: bool, reports: bool) -> Conduct {
    Conduct { moves, opens_fire, overwatch, reports }
}

/// FYOB "Orders & Objectives": the list, with what each order obliges.
///
/// Readings: Re-position limits the route, not the firing (only Recce and
/// Report and the Concealed position speak of not starting a fight); a
/// Concealed position is moved to, then held; Overwatch stays guarding its
/// location (moving at 50%, *Heroes All*) and may not fire.
const ORDERS: [(u8, Activity, Conduct); 8] = [
    (1, Activity::Hold, conduct(Moves::Stays, OpensFire::Freely, false, false)),
    (2, Activity::Support, conduct(Moves::ToLocation, OpensFire::Freely, false, false)),
    (3, Activity::Reposition, conduct(Moves::AvoidingContact, OpensFire::Freely, false, false)),
    (4, Activity::ContactEnemy, conduct(Moves::IntoContact, OpensFire::Freely, false, false)),
    (5, Activity::RecceAndReport, conduct(Moves::IntoContact, OpensFire::OnlyInReply, false, true)),
    (6, Activity::ConcealedPosition, conduct(Moves::ToLocation, OpensFire::OnLeadershipTest, false, false)),
    (7, Activity::Overwatch, conduct(Moves::Stays, OpensFire::Never, true, false)),
    (8, Activity::Engineering, conduct(Moves::ToLocation, OpensFire::Freely, false, false)),
];

impl Activity {
    fn row(self) -> &'static (u8, Activity, Conduct) {
        ORDERS.iter().find(|r| r.1 == self).expect("every activity is on the orders list")
    }

    /// Its number on the list (recorded on the Cardsheet).
    pub fn number(self) -> u8 {
        self.row().0
    }

    /// Reading (the Cardsheet's box says "Order given to element (1 to 6)"
    /// while the list runs to 8): the list is the rule, so 1..=8 are orders.
    pub fn from_number(n: u8) -> Result<Self, CommandError> {
        ORDERS.iter().find(|r| r.0 == n).map(|r| r.1).ok_or(CommandError::NoSuchOrder(n))
    }

    pub fn conduct(self) -> Conduct {
        self.row().2
    }
}

/// An order or objective: "a location/route etc and an activity".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Objective {
    pub activity: Activity,
    /// The location or route.
    pub location: String,
    /// The unit supported (Support) or the task (Engineering).
    pub detail: String,
}

impl Objective {
    pub fn new(activity: Activity, location: &str, detail: &str) -> Result<Self, CommandError> {
        if matches!(activity, Activity::Support | Activity::Engineering) && detail.trim().is_empty() {
            return Err(CommandError::MissingDetail(activity));
        }
        Ok(Self { activity, location: location.to_owned(), detail: detail.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_orders_list_numbers_one_to_eight() {
        let all = [
            Activity::Hold,
            Activity::Support,
            Activity::Reposition,
            Activity::ContactEnemy,
            Activity::RecceAndReport,
            Activity::ConcealedPosition,
            Activity::Overwatch,
            Activity::Engineering,
        ];
        for (i, a) in all.iter().enumerate() {
            assert_eq!(a.number(), i as u8 + 1);
            assert_eq!(Activity::from_number(i as u8 + 1), Ok(*a));
        }
        assert_eq!(Activity::from_number(0), Err(CommandError::NoSuchOrder(0)));
        assert_eq!(Activity::from_number(9), Err(CommandError::NoSuchOrder(9)));
    }

    #[test]
    fn what_each_order_obliges() {
        let c = |a: Activity| a.conduct();
        assert_eq!((c(Activity::Hold).moves, c(Activity::Hold).opens_fire), (Moves::Stays, OpensFire::Freely));
        assert_eq!(c(Activity::Reposition).moves, Moves::AvoidingContact);
        assert_eq!(c(Activity::ContactEnemy).moves, Moves::IntoContact);
        let recce = c(Activity::RecceAndReport);
        assert_eq!((recce.moves, recce.opens_fire, recce.reports), (Moves::IntoContact, OpensFire::OnlyInReply, true));
        assert_eq!(c(Activity::ConcealedPosition).opens_fire, OpensFire::OnLeadershipTest);
        let ow = c(Activity::Overwatch);
        assert!(ow.overwatch && ow.opens_fire == OpensFire::Never);
        assert_eq!(ORDERS.iter().filter(|r| r.2.overwatch).count(), 1);
    }

    #[test]
    fn support_and_engineering_name_their_unit_or_task() {
        assert_eq!(
            Objective::new(Activity::Support, "hill 112", " "),
            Err(CommandError::MissingDetail(Activity::Support))
        );
        assert_eq!(
            Objective::new(Activity::Engineering, "bridge", ""),
            Err(CommandError::MissingDetail(Activity::Engineering))
        );
        assert!(Objective::new(Activity::Support, "hill 112", "B Coy").is_ok());
    }
}
