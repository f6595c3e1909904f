//! The Company Officer's Command turn (FYOB "The 'Command' turn of a Company
//! Officer"): his ORT, then orders, one rally, a replacement NCO and sharing
//! what is known with the Senior Officer and the NCOs.

use serde::{Deserialize, Serialize};

use super::{Activity, CommandError, Company, Delivery, Message, Objective, SeniorOfficer, fyob};
use crate::dice::Roll;
use crate::event::{Book, RuleEvent, RuleRef};
use crate::momentum::{Rallied, rally};
use crate::officer::{Officer, Rank, leadership_test, replacement_nco};
use crate::opc::{OrtResult, officer_reaction_test};

/// What the Company Officer's Command turn changed: FYOB "The 'Command' turn
/// of a Company Officer", Updates.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CommandReport {
    /// New or revised orders, for the Cardsheet.
    pub orders: Vec<(String, Delivery)>,
    pub rallied: Vec<Rallied>,
    pub new_ncos: Vec<String>,
    /// Points the Senior Officer adds to his CMT (rallies of elements that
    /// count in it; an element in the box counts again only once recommitted).
    pub cmt_gain: u32,
}

impl Company {
    /// Starts the Company Officer's Command turn on his OPC (FYOB "The
    /// 'Command' turn of a Company Officer"): his ORT (automatic unless Below
    /// Average, see `opc`), then his duties. `None` when he takes no action
    /// (discard the OPC).
    ///
    /// A successor (FYOB "Company Officer as a casualty") "will undertake the
    /// Command and Control function during his own turn in the bound using
    /// his own OPC ... but will need to pass his ORT to take his own combat
    /// turn and carry out his Officer duties": reading, on his element's card
    /// he takes one ORT on his own NCO row, which serves both his Command
    /// turn and his element's turn.
    pub fn command_turn(&mut self, dice: &mut impl Roll) -> Result<(Option<CommandTurn<'_>>, RuleEvent), CommandError> {
        if self.co.rank() != Rank::CompanyOfficer {
            return Err(CommandError::WrongRank(self.co.rank()));
        }
        let reader = match &self.successor {
            Some(_) => Officer::new(Rank::Nco, self.co.grade()).expect("a successor is graded as an NCO"),
            None => self.co,
        };
        let (ort, event) = officer_reaction_test(reader, dice, &self.id);
        let turn = (ort != OrtResult::NoAction).then(|| CommandTurn {
            company: self,
            rallied: false,
            report: CommandReport::default(),
        });
        Ok((turn, event))
    }
}

/// A Company Officer's Command turn, once his ORT is passed. Each duty is
/// "for any element under his command"; none counts as an Act.
#[derive(Debug)]
pub struct CommandTurn<'a> {
    company: &'a mut Company,
    rallied: bool,
    report: CommandReport,
}

impl CommandTurn<'_> {
    /// (i) "give them an order or change an existing order". Putting an
    /// element onto or taking it off Overwatch needs the CO to pass a
    /// Leadership Test (*Heroes All* "Overwatch"). Without a working radio
    /// the order waits for the element's runner.
    pub fn order(
        &mut self,
        element: &str,
        objective: Objective,
        dice: &mut impl Roll,
    ) -> Result<(Delivery, Option<RuleEvent>), CommandError> {
        let i = self.company.index(element)?;
        let was_overwatch =
            self.company.elements[i].objective.as_ref().is_some_and(|o| o.activity == Activity::Overwatch);
        let event = if was_overwatch != (objective.activity == Activity::Overwatch) {
            let (t, mut e) = leadership_test(self.company.co, dice, &self.company.id);
            e.rule = RuleRef::new(Book::HeroesAll, "Overwatch");
            let e = e.target(element).input("overwatch", !was_overwatch, "onto (true) or off (false) Overwatch");
            if !t.passed {
                self.report.orders.push((element.to_owned(), Delivery::Refused));
                return Ok((Delivery::Refused, Some(e)));
            }
            Some(e)
        } else {
            None
        };
        let delivery = if self.company.in_touch(&self.company.elements[i]) {
            self.company.elements[i].objective = Some(objective);
            Delivery::Delivered
        } else {
            self.company.elements[i].awaiting_runner.get_or_insert_with(Message::default).objective = Some(objective);
            Delivery::AwaitsRunner
        };
        self.report.orders.push((element.to_owned(), delivery));
        Ok((delivery, event))
    }

    /// (ii) "rally their Continuous Momentum Score" (see [`rally`]): once a
    /// turn, elements in the order nominated. Elements in the box may be
    /// rallied too, to be recommitted as reserves.
    pub fn rally(
        &mut self,
        elements: &[&str],
        dice: &mut impl Roll,
    ) -> Result<(Vec<Rallied>, RuleEvent), CommandError> {
        if self.rallied {
            return Err(CommandError::AlreadyRallied);
        }
        let mut nominated = Vec::new();
        for id in elements {
            let e = self.company.element(id)?;
            nominated.push((e.id.as_str(), e.cms));
        }
        let (results, event) = rally(self.company.co, &nominated, self.company.rationed, dice, &self.company.id)?;
        self.rallied = true;
        for r in &results {
            let i = self.company.index(&r.id)?;
            let e = &mut self.company.elements[i];
            if e.presence.counts_in_cmt() {
                self.report.cmt_gain += u32::from(r.cms_after - e.cms);
            }
            e.cms = r.cms_after;
        }
        self.report.rallied.extend(results.iter().cloned());
        Ok((results, event))
    }

    /// FYOB "NCO is a casualty": "On the next bound that the element's
    /// Company Officer is activated, he will dice for the rank of a
    /// replacement NCO."
    pub fn replace_nco(&mut self, element: &str, dice: &mut impl Roll) -> Result<RuleEvent, CommandError> {
        let i = self.company.index(element)?;
        let e = &mut self.company.elements[i];
        if e.nco.is_some() {
            return Err(CommandError::HasAnNco(element.to_owned()));
        }
        let (nco, event) = replacement_nco(e.makeup, dice, element);
        e.nco = Some(nco);
        self.report.new_ncos.push(element.to_owned());
        Ok(event)
    }

    /// (iii) "gather and share information about enemy elements from his
    /// NCOs, other Company Officers (serving under the same Senior Officer)
    /// and their NCOs"; *Heroes All*: "The CO can then share this
    /// information with his other NCOs and his Senior Officer during his
    /// Command & Control turn."
    ///
    /// Reading: the Senior Officer's picture is the battalion's, through
    /// which Company Officers share with one another. With the radio link the
    /// exchange with him is sure; without it the CO sends a runner, a
    /// Leadership Test of his own (FYOB "Radio Links": "runners must be
    /// sent"), which also brings any objective the Senior Officer sent. Then
    /// the CO passes all he knows to his NCOs: at once by radio or face to
    /// face, otherwise it waits for their runners.
    pub fn share(
        &mut self,
        senior: &mut SeniorOfficer,
        dice: &mut impl Roll,
    ) -> Result<Option<RuleEvent>, CommandError> {
        let c = &mut *self.company;
        let (through, event) = if c.linked_to_senior_officer() {
            (true, None)
        } else {
            let (t, mut e) = leadership_test(c.co, dice, &c.id);
            e.rule = fyob("Radio Links between Officer levels");
            (t.passed, Some(e.input("radio_link", false, "no radio link to the Senior Officer: a runner")))
        };
        if through {
            senior.known.extend(c.known.iter().cloned());
            c.known.extend(senior.known.iter().cloned());
            if let Some(m) = c.from_senior_officer.take() {
                c.known.extend(m.sightings);
                if m.objective.is_some() {
                    c.objective = m.objective;
                }
            }
        }
        let known = c.known.clone();
        for i in 0..c.elements.len() {
            if c.in_touch(&c.elements[i]) {
                c.elements[i].known.extend(known.iter().cloned());
            } else {
                c.elements[i]
                    .awaiting_runner
                    .get_or_insert_with(Message::default)
                    .sightings
                    .extend(known.iter().cloned());
            }
        }
        Ok(event)
    }

    /// Ends the turn: the updates for the Cardsheet and the Senior Officer's CMT.
    pub fn finish(self) -> CommandReport {
        self.report
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::command::Presence;
    use crate::command::testing::{co, company, hold, nco, senior};
    use crate::dice::Scripted;
    use crate::event::EventKind;
    use crate::officer::Grade;

    #[test]
    fn a_below_average_co_may_fail_his_ort_and_lose_his_command_turn() {
        let mut c = company(true);
        c.co = co(Grade::Cautious);
        let (turn, e) = c.command_turn(&mut Scripted::new([1])).unwrap();
        assert!(turn.is_none());
        assert_eq!(e.kind, EventKind::Ort);
        c.co = co(Grade::Regular);
        let (turn, e) = c.command_turn(&mut Scripted::new([])).unwrap();
        assert!(turn.is_some() && e.dice.is_empty(), "other COs command automatically");
        c.co = nco(Grade::Regular);
        assert!(matches!(c.command_turn(&mut Scripted::new([])), Err(CommandError::WrongRank(Rank::Nco))));
    }

    #[test]
    fn orders_go_by_radio_face_to_face_or_wait_for_a_runner() {
        let mut c = company(true);
        let (mut turn, _) = c.command_turn(&mut Scripted::new([])).unwrap();
        let turn = turn.as_mut().unwrap();
        assert_eq!(
            turn.order("1 Pl", hold("farm"), &mut Scripted::new([])).unwrap().0,
            Delivery::Delivered,
            "CO attached"
        );
        assert_eq!(turn.order("2 Pl", hold("wood"), &mut Scripted::new([])).unwrap().0, Delivery::Delivered, "radio");
        assert_eq!(
            turn.order("3 Pl", hold("mill"), &mut Scripted::new([])).unwrap().0,
            Delivery::AwaitsRunner,
            "radio DIS"
        );
        assert!(turn.order("9 Pl", hold("x"), &mut Scripted::new([])).is_err());
        assert_eq!(c.element("3 Pl").unwrap().objective, None);
        // 3 Pl's NCO (Regular) sends his runner as an Act: fails on a 5, passes on a 4.
        let (ok, e) = c.inform_co("3 Pl", &mut Scripted::new([5])).unwrap();
        assert!(!ok && e.unwrap().rule.section == "Runners");
        assert_eq!(c.element("3 Pl").unwrap().objective, None);
        let (ok, _) = c.inform_co("3 Pl", &mut Scripted::new([4])).unwrap();
        assert!(ok);
        assert_eq!(c.element("3 Pl").unwrap().objective, Some(hold("mill")));
        assert_eq!(c.element("3 Pl").unwrap().awaiting_runner, None);
    }

    #[test]
    fn onto_or_off_overwatch_needs_the_co_to_pass_a_leadership_test() {
        let mut c = company(true);
        let ow = Objective::new(Activity::Overwatch, "crossroads", "").unwrap();
        let (mut turn, _) = c.command_turn(&mut Scripted::new([])).unwrap();
        let turn = turn.as_mut().unwrap();
        let (d, e) = turn.order("2 Pl", ow.clone(), &mut Scripted::new([6])).unwrap();
        assert_eq!(d, Delivery::Refused);
        assert_eq!(e.unwrap().rule.book, Book::HeroesAll);
        assert_eq!(turn.order("2 Pl", ow.clone(), &mut Scripted::new([2])).unwrap().0, Delivery::Delivered);
        // Overwatch to Overwatch elsewhere: no test; off Overwatch: a test.
        let (_, e) = turn.order("2 Pl", ow, &mut Scripted::new([])).unwrap();
        assert!(e.is_none());
        assert_eq!(turn.order("2 Pl", hold("crossroads"), &mut Scripted::new([5])).unwrap().0, Delivery::Refused);
    }

    #[test]
    fn rallying_once_a_turn_updates_cms_and_the_cmt() {
        let mut c = company(true);
        c.elements[1].cms = 4;
        c.elements[2].cms = 1;
        c.elements[2].presence = Presence::Box;
        let (mut turn, _) = c.command_turn(&mut Scripted::new([])).unwrap();
        let mut turn = turn.take().unwrap();
        // Regular CO: Average command grade, 2 throws.
        let (r, e) = turn.rally(&["2 Pl", "3 Pl"], &mut Scripted::new([6, 6])).unwrap();
        assert_eq!(r.iter().map(|r| r.cms_after).collect::<Vec<_>>(), [5, 2]);
        assert_eq!(e.kind, EventKind::Rally);
        assert_eq!(turn.rally(&["2 Pl"], &mut Scripted::new([6])).unwrap_err(), CommandError::AlreadyRallied);
        let report = turn.finish();
        assert_eq!(report.cmt_gain, 1, "the element in the box adds to the CMT only when recommitted");
        assert_eq!((c.element("2 Pl").unwrap().cms, c.element("3 Pl").unwrap().cms), (5, 2));
    }

    #[test]
    fn a_lost_nco_is_replaced_when_the_co_is_next_activated() {
        let mut c = company(true);
        c.elements[1].nco = None;
        let (mut turn, _) = c.command_turn(&mut Scripted::new([])).unwrap();
        let mut turn = turn.take().unwrap();
        assert_eq!(
            turn.replace_nco("1 Pl", &mut Scripted::new([])).unwrap_err(),
            CommandError::HasAnNco("1 Pl".into())
        );
        let e = turn.replace_nco("2 Pl", &mut Scripted::new([6])).unwrap();
        assert_eq!((e.kind, e.rule.section.as_str()), (EventKind::Rating, "NCO is a casualty"));
        assert_eq!(turn.finish().new_ncos, ["2 Pl"]);
        assert_eq!(c.element("2 Pl").unwrap().nco.map(|n| n.grade()), Some(Grade::Bold));
        // Without an NCO no runner can be sent.
        c.elements[2].nco = None;
        assert_eq!(c.inform_co("3 Pl", &mut Scripted::new([])).unwrap_err(), CommandError::NoNco("3 Pl".into()));
    }

    #[test]
    fn sightings_pass_up_to_the_co_then_to_the_senior_officer_and_the_other_ncos() {
        let mut c = company(true);
        let mut so = senior();
        so.known.insert("Tiger".into());
        c.elements[1].known.insert("MG 42".into());
        let (ok, e) = c.inform_co("2 Pl", &mut Scripted::new([])).unwrap();
        assert!(ok && e.is_none(), "by radio: no runner");
        let (mut turn, _) = c.command_turn(&mut Scripted::new([])).unwrap();
        assert!(turn.as_mut().unwrap().share(&mut so, &mut Scripted::new([])).unwrap().is_none());
        assert!(so.known.contains("MG 42"));
        let both: BTreeSet<String> = ["MG 42".to_string(), "Tiger".to_string()].into();
        assert_eq!(c.element("1 Pl").unwrap().known, both, "face to face");
        assert_eq!(c.element("2 Pl").unwrap().known, both, "by radio");
        assert!(c.element("3 Pl").unwrap().known.is_empty(), "DIS: waits for a runner");
        assert_eq!(c.element("3 Pl").unwrap().awaiting_runner.as_ref().unwrap().sightings, both);
    }
}
