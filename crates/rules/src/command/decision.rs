//! Officer decisions (FYOB "Using the Leadership Test to decide between 2
//! courses of action").

use serde::Serialize;

use super::fyob;
use crate::dice::Roll;
use crate::event::RuleEvent;
use crate::officer::{Officer, leadership_test};

/// Decides between two courses of action with a Leadership Test (FYOB "Using
/// the Leadership Test to decide between 2 courses of action"): a pass takes
/// the likelier course, a failure the other.
pub fn decide<T: Serialize + Copy>(
    officer: Officer,
    likely: T,
    unlikely: T,
    dice: &mut impl Roll,
    id: &str,
) -> (T, RuleEvent) {
    let (test, mut event) = leadership_test(officer, dice, id);
    let chosen = if test.passed { likely } else { unlikely };
    event.rule = fyob("Using the Leadership Test to decide between 2 courses of action");
    let event = event
        .input("likely", likely, "taken on a pass")
        .input("unlikely", unlikely, "taken on a failure")
        .input("chosen", chosen, "");
    (chosen, event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::testing::{co, nco};
    use crate::dice::Scripted;
    use crate::event::EventKind;
    use crate::officer::Grade;

    #[test]
    fn book_example_regular_nco_choosing_between_building_and_barn() {
        // FYOB "Using the Leadership Test to decide between 2 courses of action": a Regular (2)
        // NCO "needs to throw less than a 5 (2+3)": move (likely) or stay (less likely).
        let n = nco(Grade::Regular);
        assert_eq!(decide(n, "barn", "building", &mut Scripted::new([4]), "x").0, "barn");
        let (choice, e) = decide(n, "barn", "building", &mut Scripted::new([5]), "x");
        assert_eq!(choice, "building");
        assert_eq!((e.kind, e.dice.len()), (EventKind::LeadershipTest, 1));
    }

    #[test]
    fn book_example_german_company_officer_holds_the_platoon_back() {
        // FYOB caption: a Regular (2) German CO wants to commit another platoon; "A 4 or less
        // is required but the die shows that he has decided to hold those men back".
        let (choice, _) = decide(co(Grade::Regular), "commit", "hold back", &mut Scripted::new([5]), "CO");
        assert_eq!(choice, "hold back");
    }
}
