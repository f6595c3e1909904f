//! Groups (FYOB "Groups"): land elements acting together on their Company
//! Officer's card, for a term, until released.

use serde::{Deserialize, Serialize};

use super::{CommandError, fyob};
use crate::dice::Roll;
use crate::event::RuleEvent;
use crate::momentum::{CmCause, ElementType};
use crate::officer::{Officer, leadership_test};
use crate::opc::{Deal, OrtResult, officer_reaction_test};
use crate::order_dice::{Phase, throw_order_die};

/// What may join a Group: land elements by their CM type; "aircraft or boats
/// ... act independently".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Component {
    Land(ElementType),
    Aircraft,
    Boat,
}

/// How long a Group lasts (FYOB "Groups").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum GroupTerm {
    /// "(i) a specific number of bounds".
    Bounds(u32),
    /// "(ii) until the group reaches a geographical location on the table".
    Reaches(String),
    /// "(iii) until the group is dissolved by the chosen Company Officer".
    UntilDissolved,
}

/// Elements acting together under a chosen Company Officer (FYOB "Groups").
/// Grouped elements have no OPC of their own (`opc::Holder::GroupedElement`):
/// the Group acts on its CO's card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub co: String,
    members: Vec<String>,
    term: GroupTerm,
}

/// Elements released from a Group at the Command phase: they act on their own
/// "with effect from the start of their next turn (which may be later in this
/// bound)".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Released {
    /// Released elements holding a card this bound: they act on it.
    pub on_own_card: Vec<String>,
    /// "If they have not been allocated an OPC initially, they take the
    /// highest numbered card and thus have their turn last on this bound":
    /// with the card numbers they take, in order.
    pub last_cards: Vec<(String, u8)>,
    /// The Group is dissolved (no members left).
    pub dissolved: bool,
}

impl Group {
    pub fn form(co: &str, members: &[(&str, Component)], term: GroupTerm) -> Result<Self, CommandError> {
        if let Some((id, _)) = members.iter().find(|(_, c)| !matches!(c, Component::Land(_))) {
            return Err(CommandError::NotGroupable((*id).to_owned()));
        }
        if members.len() < 2 {
            return Err(CommandError::GroupTooSmall(members.len()));
        }
        Ok(Self { co: co.to_owned(), members: members.iter().map(|(id, _)| (*id).to_owned()).collect(), term })
    }

    pub fn members(&self) -> &[String] {
        &self.members
    }

    /// "Whilst the Group remains together, the 'Not Deployed from a Group'
    /// Momentum Tests will accrue": the persistent (grey) row every member
    /// adds whenever it takes tests.
    pub fn momentum_state(&self) -> CmCause {
        CmCause::NotDeployedFromGroup
    }

    /// The Group's turn on its Company Officer's OPC: "He may have to take and
    /// pass an ORT before acting. The Order Dice is then thrown and this
    /// determines the activity for all of the elements in the Group." Each
    /// member then throws its own Movement Dice and has its own 2 Acts.
    pub fn turn(&self, co: Officer, dice: &mut impl Roll) -> (Option<Phase>, Vec<RuleEvent>) {
        let (ort, e) = officer_reaction_test(co, dice, &self.co);
        if ort == OrtResult::NoAction {
            return (None, vec![e]);
        }
        let (order, o) = throw_order_die(dice, &self.co);
        (Some(order), vec![e, o.input("group", &self.members, "one Order Die for all")])
    }

    /// Releases `ids` (all members: dissolves the Group), decided at the
    /// Command phase "by the Company Officer passing a Leadership Test".
    /// `None` when the test is failed. `deal` is this bound's deal, to find
    /// who already holds a card.
    pub fn release(
        &mut self,
        co: Officer,
        ids: &[&str],
        deal: &Deal,
        dice: &mut impl Roll,
    ) -> Result<(Option<Released>, RuleEvent), CommandError> {
        if let Some(id) = ids.iter().find(|id| !self.members.iter().any(|m| m == *id)) {
            return Err(CommandError::NotInGroup((*id).to_owned()));
        }
        let (t, mut e) = leadership_test(co, dice, &self.co);
        e.rule = fyob("Groups");
        let e = e.input("release", ids, "split or end the Group");
        if !t.passed {
            return Ok((None, e));
        }
        self.members.retain(|m| !ids.contains(&m.as_str()));
        let mut next = deal.order().len() as u8;
        let mut released =
            Released { on_own_card: Vec::new(), last_cards: Vec::new(), dissolved: self.members.is_empty() };
        for id in ids {
            if deal.card_of(id).is_some() {
                released.on_own_card.push((*id).to_owned());
            } else {
                next += 1;
                released.last_cards.push(((*id).to_owned(), next));
            }
        }
        Ok((Some(released), e))
    }

    /// At the end of a bound: whether the Group's term has run out ("a
    /// specific number of bounds" counted down, or the location reached).
    /// Reading: the Leadership Test is for ending a Group early; one whose
    /// term runs out ends without it, its elements taking their own cards in
    /// the next deal.
    pub fn end_of_bound(&mut self, reached_location: bool) -> bool {
        match &mut self.term {
            GroupTerm::Bounds(n) => {
                *n = n.saturating_sub(1);
                *n == 0
            }
            GroupTerm::Reaches(_) => reached_location,
            GroupTerm::UntilDissolved => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::testing::co;
    use crate::dice::{Dice, Scripted};
    use crate::event::EventKind;
    use crate::officer::Grade;
    use crate::opc::{Holder, Nation, Participant, deal};

    fn land(t: ElementType) -> Component {
        Component::Land(t)
    }

    #[test]
    fn groups_mix_land_elements_but_not_aircraft_or_boats() {
        assert!(
            Group::form(
                "Sqn CO",
                &[
                    ("tank", land(ElementType::Afv)),
                    ("lorry", land(ElementType::SoftSkin)),
                    ("pl", land(ElementType::Infantry))
                ],
                GroupTerm::UntilDissolved
            )
            .is_ok()
        );
        assert_eq!(
            Group::form(
                "CO",
                &[("pl", land(ElementType::Infantry)), ("Typhoon", Component::Aircraft)],
                GroupTerm::UntilDissolved
            ),
            Err(CommandError::NotGroupable("Typhoon".into()))
        );
        assert_eq!(
            Group::form("CO", &[("b", Component::Boat)], GroupTerm::UntilDissolved),
            Err(CommandError::NotGroupable("b".into()))
        );
        assert_eq!(
            Group::form("CO", &[("pl", land(ElementType::Infantry))], GroupTerm::UntilDissolved),
            Err(CommandError::GroupTooSmall(1))
        );
    }

    #[test]
    fn a_group_acts_on_its_cos_card_with_one_order_die() {
        let g = Group::form(
            "CO",
            &[("a", land(ElementType::Infantry)), ("b", land(ElementType::Afv))],
            GroupTerm::Bounds(2),
        )
        .unwrap();
        assert_eq!(g.momentum_state(), CmCause::NotDeployedFromGroup);
        // Cautious CO reads the Below Average row: a 1 is no action.
        let (order, events) = g.turn(co(Grade::Cautious), &mut Scripted::new([1]));
        assert_eq!((order, events.len()), (None, 1));
        let (order, events) = g.turn(co(Grade::Regular), &mut Scripted::new([4]));
        assert_eq!(order, Some(Phase::Move));
        assert_eq!(events[1].kind, EventKind::OrderDie);
        let force = [
            Participant { id: "a".into(), holder: Holder::GroupedElement, nation: Nation::British, active: true },
            Participant { id: "b".into(), holder: Holder::GroupedElement, nation: Nation::British, active: true },
            Participant { id: "CO".into(), holder: Holder::CompanyOfficer, nation: Nation::British, active: true },
        ];
        let (d, _) = deal(&force, &mut Dice::new(1)).unwrap();
        assert_eq!(d.order(), ["CO"], "grouped elements hold no OPC");
    }

    #[test]
    fn released_elements_without_a_card_take_the_highest_numbered_cards() {
        let mut g = Group::form(
            "CO",
            &[("a", land(ElementType::Infantry)), ("b", land(ElementType::Infantry)), ("c", land(ElementType::Afv))],
            GroupTerm::UntilDissolved,
        )
        .unwrap();
        let force = [
            Participant { id: "x".into(), holder: Holder::Element, nation: Nation::German, active: true },
            Participant { id: "CO".into(), holder: Holder::CompanyOfficer, nation: Nation::German, active: true },
        ];
        let (d, _) = deal(&force, &mut Scripted::new([2])).unwrap();
        // Regular CO: fails his Leadership Test on a 5.
        let (r, e) = g.release(co(Grade::Regular), &["a"], &d, &mut Scripted::new([5])).unwrap();
        assert!(r.is_none());
        assert_eq!(e.rule.section, "Groups");
        let (r, _) = g.release(co(Grade::Regular), &["b", "a"], &d, &mut Scripted::new([1])).unwrap();
        let r = r.unwrap();
        assert_eq!(r.last_cards, [("b".to_string(), 3), ("a".to_string(), 4)]);
        assert!(!r.dissolved && r.on_own_card.is_empty());
        assert_eq!(g.members(), ["c"]);
        assert_eq!(
            g.release(co(Grade::Regular), &["a"], &d, &mut Scripted::new([1])).unwrap_err(),
            CommandError::NotInGroup("a".into())
        );
        let (r, _) = g.release(co(Grade::Regular), &["c"], &d, &mut Scripted::new([1])).unwrap();
        assert!(r.unwrap().dissolved);
    }

    #[test]
    fn a_group_ends_when_its_term_runs_out() {
        let members = [("a", land(ElementType::Infantry)), ("b", land(ElementType::Infantry))];
        let mut g = Group::form("CO", &members, GroupTerm::Bounds(2)).unwrap();
        assert!(!g.end_of_bound(true));
        assert!(g.end_of_bound(false));
        let mut g = Group::form("CO", &members, GroupTerm::Reaches("the bridge".into())).unwrap();
        assert!(!g.end_of_bound(false) && g.end_of_bound(true));
        let mut g = Group::form("CO", &members, GroupTerm::UntilDissolved).unwrap();
        assert!(!g.end_of_bound(true));
    }
}
