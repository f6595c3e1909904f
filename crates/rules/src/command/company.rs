//! A Company under its Company Officer (FYOB "Company Officer figures",
//! "Runners", "Company Officer as a casualty"): its elements and how each
//! talks to the CO, the CO moving between elements, runners carrying what was
//! seen and ordered, and a lost CO's successor.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::{CommandError, Objective, Presence, fyob};
use crate::dice::Roll;
use crate::event::RuleEvent;
use crate::momentum::MAX_CMS;
use crate::officer::{ElementMakeup, Officer, Rank, leadership_test, successor};
use crate::strategic::RadioNet;

/// How an element talks to its Company Officer (FYOB "Runners").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Comms {
    Radio,
    NoRadio,
    /// Failed 3 Radio Tests: DIS for the rest of the game.
    RadioDis,
}

/// What an element without a working radio is waiting to hear from its CO.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub objective: Option<Objective>,
    pub sightings: BTreeSet<String>,
}

/// An element under a Company Officer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Subordinate {
    pub id: String,
    /// `None` after the NCO was hit, until a replacement is diced for.
    pub nco: Option<Officer>,
    pub makeup: ElementMakeup,
    pub cms: u8,
    pub presence: Presence,
    pub comms: Comms,
    pub objective: Option<Objective>,
    /// Enemy elements its NCO knows of.
    pub known: BTreeSet<String>,
    /// Orders and news from the CO waiting for a runner.
    pub awaiting_runner: Option<Message>,
}

impl Subordinate {
    /// A fresh element: CMS 6, on the table, no orders yet.
    pub fn new(id: &str, nco: Officer, makeup: ElementMakeup, comms: Comms) -> Self {
        Self {
            id: id.to_owned(),
            nco: Some(nco),
            makeup,
            cms: MAX_CMS,
            presence: Presence::OnTable,
            comms,
            objective: None,
            known: BTreeSet::new(),
            awaiting_runner: None,
        }
    }
}

/// A Company (or squadron, battery …) under its Company Officer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Company {
    pub id: String,
    pub co: Officer,
    /// The element the CO figure is attached to and moves with.
    pub attached_to: String,
    /// The Company's radio net (the CO's link to the Senior Officer).
    pub radio: RadioNet,
    pub rationed: bool,
    /// The objective from the Senior Officer.
    pub objective: Option<Objective>,
    /// What the Senior Officer sent without a radio link, waiting for a runner.
    pub from_senior_officer: Option<Message>,
    /// Enemy elements the CO knows of.
    pub known: BTreeSet<String>,
    pub elements: Vec<Subordinate>,
    /// The element whose NCO succeeded a lost Company Officer (see
    /// [`Company::succeed`]); `None` while the original CO commands.
    pub successor: Option<String>,
}

/// How an order or message reached its element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Delivery {
    /// By radio, or face to face where the CO is with the element.
    Delivered,
    /// Waiting for the element's runner (its NCO's Leadership Test as an Act).
    AwaitsRunner,
    /// The Leadership Test an Overwatch order needs was failed: no change.
    Refused,
}

impl Company {
    pub(super) fn index(&self, id: &str) -> Result<usize, CommandError> {
        self.elements.iter().position(|e| e.id == id).ok_or_else(|| CommandError::UnknownElement(id.to_owned()))
    }

    pub fn element(&self, id: &str) -> Result<&Subordinate, CommandError> {
        self.index(id).map(|i| &self.elements[i])
    }

    /// Whether the CO talks to `element` without a runner: it has a working
    /// radio, or he is with it.
    pub(super) fn in_touch(&self, e: &Subordinate) -> bool {
        e.comms == Comms::Radio || e.id == self.attached_to
    }

    /// Whether the CO has his radio link to the Senior Officer (FYOB "Radio
    /// Links between Officer levels": netted in, not DIS).
    pub fn linked_to_senior_officer(&self) -> bool {
        self.radio.netted && !self.radio.dis
    }

    /// The CO figure moves to another element (FYOB "Company Officer
    /// figures": "if the element he is presently attached to and the new
    /// element pass within 1 inch of each other"). `closest` is the nearest
    /// the two came. Reading: this happens as the elements move, whenever
    /// they pass that close, not only on the CO's card.
    pub fn change_element(&mut self, to: &str, closest: f32) -> Result<(), CommandError> {
        let e = self.element(to)?;
        if e.presence != Presence::OnTable {
            return Err(CommandError::UnknownElement(to.to_owned()));
        }
        if !(closest.is_finite() && (0.0..=1.0).contains(&closest)) {
            return Err(CommandError::TooFarApart(closest));
        }
        self.attached_to = to.to_owned();
        Ok(())
    }

    /// The element uses an Act to pass what it has seen to its CO and to
    /// hear what waits for it (*Heroes All* "Passing on information"; FYOB
    /// "Runners": without a working radio, "each time that the NCO of the
    /// element is due to receive or send information he must do so by
    /// sending a 'runner' ... passing a Leadership Test as one of the
    /// element's Acts"). With a radio, or the CO with it, it always gets
    /// through. Returns whether it got through.
    pub fn inform_co(
        &mut self,
        element: &str,
        dice: &mut impl Roll,
    ) -> Result<(bool, Option<RuleEvent>), CommandError> {
        let i = self.index(element)?;
        let (through, event) = if self.in_touch(&self.elements[i]) {
            (true, None)
        } else {
            let nco = self.elements[i].nco.ok_or_else(|| CommandError::NoNco(element.to_owned()))?;
            let (t, mut e) = leadership_test(nco, dice, element);
            e.rule = fyob("Runners");
            (t.passed, Some(e.input("comms", self.elements[i].comms, "no working radio: a runner")))
        };
        if through {
            let e = &mut self.elements[i];
            self.known.extend(e.known.iter().cloned());
            if let Some(m) = e.awaiting_runner.take() {
                e.known.extend(m.sightings);
                if m.objective.is_some() {
                    e.objective = m.objective;
                }
            }
        }
        Ok((through, event))
    }

    /// FYOB "Company Officer as a casualty": "an Officer from his command must
    /// be nominated to succeed him (usually, for obvious reasons, the highest
    /// ranked)": the highest rated NCO of the elements on the table (see
    /// [`successor`]). He keeps his rating, commands from his own element,
    /// and the Company's command OPC is no longer dealt ("he does not get
    /// another card"). Returns the successor's element.
    pub fn succeed(&mut self) -> Result<String, CommandError> {
        let candidates: Vec<(&str, Officer)> = self
            .elements
            .iter()
            .filter(|e| e.presence == Presence::OnTable)
            .filter_map(|e| e.nco.map(|n| (e.id.as_str(), n)))
            .collect();
        let id = successor(&candidates).ok_or_else(|| CommandError::NoNco(self.id.clone()))?.to_owned();
        let nco = self.element(&id)?.nco.expect("candidates have NCOs");
        self.co = Officer::new(Rank::CompanyOfficer, nco.grade()).expect("NCO grades are Company Officer grades");
        self.attached_to = id.clone();
        self.successor = Some(id.clone());
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::testing::{company, nco};
    use crate::dice::Scripted;
    use crate::officer::Grade;

    #[test]
    fn the_highest_rated_nco_succeeds_a_lost_co_and_commands_on_his_own_row() {
        let mut c = company(true);
        c.elements[1].nco = Some(nco(Grade::Bold));
        c.elements[2].nco = Some(nco(Grade::Inspirational));
        c.elements[2].presence = Presence::Box;
        assert_eq!(c.succeed().unwrap(), "2 Pl", "the Inspirational NCO is off the table");
        assert_eq!((c.co.rank(), c.co.grade(), c.attached_to.as_str()), (Rank::CompanyOfficer, Grade::Bold, "2 Pl"));
        // A Bold CO would command automatically; the successor reads the Bold NCO row: 1 is no action.
        assert!(c.command_turn(&mut Scripted::new([1])).unwrap().0.is_none());
        let (turn, e) = c.command_turn(&mut Scripted::new([2])).unwrap();
        assert!(turn.is_some());
        assert_eq!(e.dice.len(), 1);
        for e in &mut c.elements {
            e.nco = None;
        }
        assert_eq!(c.succeed().unwrap_err(), CommandError::NoNco("A Coy".into()));
    }

    #[test]
    fn the_co_changes_element_only_within_one_inch() {
        let mut c = company(true);
        assert_eq!(c.change_element("2 Pl", 1.5), Err(CommandError::TooFarApart(1.5)));
        assert_eq!(c.change_element("2 Pl", 1.0), Ok(()));
        assert_eq!(c.attached_to, "2 Pl");
        c.elements[2].presence = Presence::Box;
        assert!(c.change_element("3 Pl", 0.5).is_err());
        assert!(matches!(c.change_element("2 Pl", f32::NAN), Err(CommandError::TooFarApart(_))));
    }
}
