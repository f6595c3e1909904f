//! Replenishment (FYOW 21) and the Diary Box cards that deliver it (5): each
//! battlegroup's losses come back at the month's turn, a third at once and
//! a third later, and buy back what it lost.

use serde_json::json;
use warbound_rules::codex::Points;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::game_flow::DiaryCard;
use crate::map::common::Side;
use crate::play::state::{Campaign, fyow};
use crate::supply::replenishment::{LostBy, ReplenishedTo, from_home, month_end, replenished_to};
use crate::weather::ChanceOutcome;

impl Campaign {
    /// A diary card comes out of the box (FYOW 5).
    pub(crate) fn diary_card(&mut self, card: DiaryCard) {
        // 32, the 2♦: "Any Replenishment due today delayed until tomorrow".
        if card.text.starts_with("replenishment ") && self.cards_today.contains(&ChanceOutcome::ReplenishmentDelayed) {
            let tomorrow = self.date.plus_days(1);
            self.log(
                RuleEvent::new(EventKind::Calendar, fyow("32 Chance Cards"))
                    .actor(&card.owner)
                    .outcome(json!({ "delayed_until": tomorrow.to_string(), "card": card.text })),
            );
            self.diary.file(&tomorrow, card);
            return;
        }
        self.log(
            RuleEvent::new(EventKind::Calendar, fyow("5 Event Timings"))
                .actor(&card.owner)
                .outcome(json!({ "card": card.text })),
        );
        if self.new_objective_card(&card) {
            return;
        }
        // Replenishment deliveries are filed as "replenishment N" for a
        // battlegroup or, a destroyed battlegroup's, for the army's HQ.
        if let Some(points) = card.text.strip_prefix("replenishment ").and_then(|p| p.parse::<u32>().ok()) {
            let side = match self.armies.iter().find(|a| a.name == card.owner) {
                Some(a) => {
                    let side = a.side;
                    self.army_mut(side).hq_banked += points;
                    self.distribute_hq_replacements(side);
                    Some(side)
                }
                None => self.force(&card.owner).map(|f| f.side).inspect(|_| self.reinforce(&card.owner, points)),
            };
            // 21.4.2: "take a Strategic Condition Repair throw when these replacements arrive" (12.4).
            if let Some(side) = side {
                self.morale_repair_throw(side, "21.4.2 replacements arrive");
            }
        }
    }

    /// FYOW 21–21.4: on the first day of a month each battlegroup's losses
    /// of the past month (its Fractions' with them, 21.2) come back in
    /// thirds: a third gone, a third in D10 days (a Diary Box card, with
    /// the 12.4 repair throw on arrival), D10% of the rest at once. A
    /// destroyed battlegroup's go to the force HQ (21.2).
    pub(crate) fn replenishment(&mut self) {
        for i in 0..self.forces.len() {
            let total = self.forces[i].losses.total();
            self.forces[i].losses = Default::default();
            if total == Points::ZERO {
                continue;
            }
            let (name, side) = (self.forces[i].name.clone(), self.forces[i].side);
            let lost_by = LostBy::Battlegroup { id: name.clone(), destroyed: self.forces[i].is_gone() };
            let (r, e) = month_end(total, &mut self.dice, &name);
            self.log(e);
            let owner = match replenished_to(&lost_by) {
                ReplenishedTo::Battlegroup(b) => b,
                ReplenishedTo::ForceHq => self.army(side).name.clone(),
            };
            if r.immediate > 0 {
                if owner == name {
                    self.reinforce(&name, r.immediate);
                } else {
                    self.army_mut(side).hq_banked += r.immediate;
                    self.distribute_hq_replacements(side);
                }
            }
            if r.delayed > 0 {
                let when = self.date.plus_days(u32::from(r.delay_days));
                self.diary.file(&when, DiaryCard { owner, text: format!("replenishment {}", r.delayed) });
            }
        }
    }

    /// FYOW 21.7 (optional): at the start of each month after the first,
    /// each army that takes Replenishment from Home throws a D6 and a D10
    /// for a percentage of its forces' original cost, delivered in D10 days
    /// to its HQ (a Diary Box card, "a note ... to remind the player to
    /// distribute the points").
    ///
    /// Reading (FYOW 21.7): the points reach the army's HQ and go on from
    /// there as the HQ's other replacements do (21.2), to the battlegroup
    /// furthest below strength that is on the map, with the repair throw of
    /// 21.4.2 on arrival (test
    /// `replenishment_from_home_arrives_at_the_hq_in_d10_days`).
    pub(crate) fn replenishment_from_home(&mut self) {
        for k in 0..self.armies.len() {
            let side = self.armies[k].side;
            if !self.file.army(side).replenishment_from_home {
                continue;
            }
            let name = self.armies[k].name.clone();
            let (r, e) = from_home(Points::whole(self.armies[k].original_cost), &mut self.dice, &name);
            self.log(e);
            if r.points > 0 {
                let when = self.date.plus_days(u32::from(r.delivery_days));
                self.diary.file(&when, DiaryCard { owner: name, text: format!("replenishment {}", r.points) });
            }
        }
    }

    /// The force HQ's replacement points go to the battlegroup furthest
    /// below strength still in the field (FYOW 21.2 "for future
    /// re-distribution as required").
    fn distribute_hq_replacements(&mut self, side: Side) {
        let points = std::mem::take(&mut self.army_mut(side).hq_banked);
        let target = self
            .forces
            .iter()
            .filter(|f| f.side == side && f.board().is_some() && f.kind == crate::map::common::ForceKind::Battlegroup)
            .min_by_key(|f| f.points().saturating_mul(1000) / f.battlegroup.original_points.max(1))
            .map(|f| f.name.clone());
        match target {
            Some(name) => self.reinforce(&name, points),
            None => self.army_mut(side).hq_banked = points,
        }
    }

    /// FYOW 21.4: a battlegroup spends its replenishment, with what it has
    /// banked, on replacements: "the return of the wounded men and repaired
    /// equipment", each element it lost made up toward its value in the
    /// ORBAT, in ORBAT order, within the cost limit (2.1) and the board's
    /// capacity (13.9); what it cannot spend it banks (21.4.2).
    ///
    /// Reading (FYOW 21.4.2, 21.6): the Auto Senior Command buys back what
    /// the battlegroup lost (21.6 allows new kinds of element, which it does
    /// not choose); an AFV under repair is made good by its crew, not
    /// bought (test `losses_come_back_to_the_battlegroup_that_suffered_them`);
    /// an element split off into one of its Fractions is bought back only
    /// once lost there (21.2; test
    /// `elements_in_a_fraction_are_not_bought_again_for_its_parent`).
    pub(crate) fn reinforce(&mut self, name: &str, points: u32) {
        let Some(i) = self.fx(name) else { return };
        if self.forces[i].is_gone() {
            let side = self.forces[i].side;
            self.army_mut(side).hq_banked += points;
            return;
        }
        let side = self.forces[i].side;
        let max = self.file.max_points();
        let available = self.forces[i].banked + points;
        let board_points = self.forces[i].board().map_or(0, |b| self.occupation[b].side_points(side));
        let mut room = max.saturating_sub(self.forces[i].points()).min(max.saturating_sub(board_points)).min(available);
        let mut bought = Vec::new();
        let kit = self.forces[i].kit.clone();
        // Elements split off into its Fractions live on there (3.2, 3.4).
        let in_fractions: Vec<String> = (0..self.forces.len())
            .filter(|&j| j != i && !self.forces[j].is_gone() && self.root_battlegroup(j) == i)
            .flat_map(|j| self.forces[j].battlegroup.elements.iter().map(|e| e.name.clone()))
            .collect();
        for k in &kit {
            if room == 0 {
                break;
            }
            if in_fractions.contains(&k.name) || self.forces[i].repairs.iter().any(|j| j.vehicle == k.name) {
                continue;
            }
            let elements = &mut self.forces[i].battlegroup.elements;
            let have = elements.iter().find(|e| e.name == k.name).map_or(0, |e| e.points);
            let add = k.points().saturating_sub(have).min(room);
            if add == 0 {
                continue;
            }
            match elements.iter_mut().find(|e| e.name == k.name) {
                Some(e) => e.points += add,
                None => elements.push(crate::army::battlegroup::Element { points: add, ..k.element() }),
            }
            room -= add;
            bought.push(json!({ "element": k.name, "points": add }));
        }
        let spent: u32 = bought.iter().filter_map(|b| b["points"].as_u64()).map(|p| p as u32).sum();
        self.forces[i].banked = available - spent;
        self.sync_points(name);
        self.milestone_tests(name);
        self.log(
            RuleEvent::new(EventKind::Supply, fyow("21.4 What can be replenished?"))
                .actor(name)
                .input("points", points, "replenishment arriving")
                .input("banked_before", available - points, "21.4.2 unused points banked")
                .outcome(
                    json!({ "bought": bought, "banked": self.forces[i].banked, "points_now": self.forces[i].points() }),
                ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::board::BoardId;
    use crate::map::common::Edge;
    use crate::play::command::Command;
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;
    use crate::play::state::Whereabouts;
    use crate::play::testing::campaign;
    use warbound_rules::momentum::MAX_CMS;

    use crate::supply::repairs::RepairJob;

    #[test]
    fn replenishment_from_home_arrives_at_the_hq_in_d10_days() {
        // 21.7 "ONLY at the outset of the campaign, calculate and record the total
        // points value ... At the start of the following month, and all subsequent
        // months, each side throws a D6 and a D10 ... for the percentage value of
        // their original force cost ... distributed in D10 days time".
        let mut c = campaign();
        let blue: u32 = c.forces.iter().filter(|f| f.side == Side::Blue).map(|f| f.points()).sum();
        assert!(blue > 0);
        assert_eq!(c.army(Side::Blue).original_cost, blue, "recorded at the outset");
        c.drain_events();
        c.replenishment_from_home();
        assert!(c.drain_events().is_empty(), "an optional rule: no army of the file takes it");
        let k = c.file.armies.iter().position(|a| a.side == Side::Blue).unwrap();
        c.file.armies[k].replenishment_from_home = true;
        // A throw of 0% files nothing; throw until one delivers.
        let (mut points, mut days) = (0, 0);
        for _ in 0..20 {
            c.replenishment_from_home();
            let events = c.drain_events();
            assert_eq!(events.len(), 1, "Blue's throw only");
            let e = &events[0];
            assert_eq!(e.rule.section, "21.7 Replenishment from Home");
            assert_eq!(e.actor.as_deref(), Some(c.army(Side::Blue).name.as_str()));
            let percent = e.outcome["percent"].as_u64().unwrap() as u32;
            points = e.outcome["points"].as_u64().unwrap() as u32;
            assert_eq!(points, (blue * percent).div_ceil(100));
            days = e.outcome["delivery_days"].as_u64().unwrap() as u32;
            if points > 0 {
                break;
            }
        }
        assert!(points > 0 && (1..=10).contains(&days));
        let due = c.date.plus_days(days);
        let card = c.diary.cards().iter().find(|(d, card)| *d == due && card.text == format!("replenishment {points}"));
        assert_eq!(card.map(|(_, card)| card.owner.as_str()), Some(c.army(Side::Blue).name.as_str()));
    }

    #[test]
    fn losses_come_back_to_the_battlegroup_that_suffered_them() {
        // 21 "When a Battlegroup takes casualties ... replacements can be sent to
        // them"; 21.2 "Casualties sustained by Fractions are replenished back to
        // their parent Battlegroup"; 21.4.2 "These resources represent the return
        // of the wounded men and repaired equipment ... Make a Diary Box note to
        // distribute the replacements and to take a Strategic Condition Repair
        // throw when these replacements arrive."
        let mut c = campaign();
        c.relocate("Blue 2", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Hill"), Edge::West).unwrap();
        let mut recce = c.force("Blue 1").unwrap().clone();
        recce.name = "Blue 1 carriers".into();
        recce.kind = crate::map::common::ForceKind::Fraction;
        recce.parent = Some("Blue 1".into());
        recce.at = Whereabouts::Gone;
        c.forces.push(recce);
        c.book_losses("Blue 2", 300, None);
        c.book_losses("Blue 1 carriers", 100, None);
        assert_eq!(c.force("Blue 2").unwrap().losses.total(), Points::whole(300));
        assert_eq!(c.force("Blue 1").unwrap().losses.total(), Points::whole(100), "the Fraction's, to its parent");
        assert_eq!(c.force("Blue 1 carriers").unwrap().losses.total(), Points::ZERO);
        let blue2_before = c.force("Blue 2").unwrap().points();
        c.army_mut(Side::Blue).morale.score = 1;
        c.drain_events();
        c.replenishment();
        let events = c.drain_events();
        let thirds: Vec<_> = events.iter().filter(|e| e.rule.section == "21.4 What can be replenished?").collect();
        let month: Vec<&str> =
            thirds.iter().filter(|e| e.outcome.get("gone").is_some()).filter_map(|e| e.actor.as_deref()).collect();
        assert_eq!(month, ["Blue 1", "Blue 2"], "each battlegroup's own month-end thirds");
        assert!(
            !events.iter().any(|e| e.rule.section.starts_with("12.4")),
            "no repair throw before the replacements arrive"
        );
        let immediate = thirds
            .iter()
            .find(|e| e.actor.as_deref() == Some("Blue 2") && e.outcome.get("gone").is_some())
            .unwrap()
            .outcome["immediate"]
            .as_u64()
            .unwrap() as u32;
        let blue2 = c.force("Blue 2").unwrap();
        assert_eq!(blue2.points(), blue2_before + immediate, "its own losses made up");
        assert!(
            blue2
                .battlegroup
                .elements
                .iter()
                .all(|e| blue2.kit.iter().any(|k| k.name == e.name && e.points <= k.points())),
            "its own elements, no generic replacements"
        );
        assert_eq!(c.force("Blue 1").unwrap().points(), 900, "Blue 1 lost nothing itself");

        c.diary_card(DiaryCard { owner: "Blue 2".into(), text: "replenishment 50".into() });
        let events = c.drain_events();
        assert!(
            events.iter().any(|e| e.rule.section.starts_with("12.4")),
            "the repair throw comes with the replacements"
        );
        assert_eq!(c.force("Blue 2").unwrap().points(), (blue2_before + immediate + 50).min(1050));
    }

    /// A campaign of `file`, prepared by `prepare`, in which each of `splits` (force,
    /// Fraction, elements) has been made in turn: seeds are tried until every
    /// Command Decision passes.
    fn with_fractions(file: &str, prepare: impl Fn(&mut Campaign), splits: &[(&str, &str, &[&str])]) -> Campaign {
        'seed: for seed in 0..200 {
            let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", file).unwrap(), seed).unwrap();
            prepare(&mut c);
            for (force, name, elements) in splits {
                let elements = elements.iter().map(|e| e.to_string()).collect();
                c.command(Command::Fraction { force: force.to_string(), name: name.to_string(), elements }).unwrap();
                if c.force(name).is_none() {
                    continue 'seed;
                }
            }
            return c;
        }
        panic!("no seed gave successful decisions");
    }

    #[test]
    fn elements_in_a_fraction_are_not_bought_again_for_its_parent() {
        // 3.4 the BC "creates the Fraction from within his force"; 21.2
        // "Casualties sustained by Fractions are replenished back to their
        // parent Battlegroup"; 21.4.2 "the return of the wounded men and
        // repaired equipment".
        let ashore = |c: &mut Campaign| {
            c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        };
        let mut c = with_fractions(SMALL, ashore, &[("Blue 1", "Rifles", &["B Company"])]);
        c.reinforce("Blue 1", 400);
        let blue1 = c.force("Blue 1").unwrap();
        assert!(!blue1.battlegroup.elements.iter().any(|e| e.name == "B Company"), "it lives in the Fraction");
        assert_eq!((blue1.points(), blue1.banked), (550, 400), "nothing lost, nothing bought");
        c.book_losses("Rifles", 350, None);
        assert!(c.force("Rifles").unwrap().is_gone());
        c.reinforce("Blue 1", 0);
        let blue1 = c.force("Blue 1").unwrap();
        let b = blue1.battlegroup.elements.iter().find(|e| e.name == "B Company").map(|e| e.points);
        assert_eq!(b, Some(350), "lost with the Fraction, made up in its parent");
        assert_eq!(blue1.banked, 50);

        // 23.1 "Each AFV crew can make a 2D6 throw per session to repair their own vehicle".
        let damaged = |c: &mut Campaign| {
            c.relocate("Blue 2", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
            let i = c.fx("Blue 2").unwrap();
            c.forces[i].battlegroup.elements.iter_mut().find(|e| e.name == "Tanks").unwrap().points = 225;
            c.forces[i].repairs.push(RepairJob::new("Tanks", Points::whole(450), MAX_CMS).unwrap());
            c.sync_points("Blue 2");
        };
        let mut c = with_fractions(SMALL, damaged, &[("Blue 2", "Tank troop", &["Tanks"])]);
        assert!(c.force("Blue 2").unwrap().repairs.is_empty());
        assert_eq!(c.force("Tank troop").unwrap().repairs.len(), 1, "the crew goes with its tank");
        for _ in 0..100 {
            if c.force("Tank troop").unwrap().repairs.is_empty() {
                break;
            }
            c.crew_repairs();
        }
        assert_eq!(c.force("Tank troop").unwrap().points(), 450, "repaired in the Fraction");
    }

    #[test]
    fn a_fraction_of_a_fractions_losses_go_back_to_the_battlegroup() {
        // 3.2 "A Fraction can create another Fraction from itself"; 21.2
        // "Casualties sustained by Fractions are replenished back to their
        // parent Battlegroup".
        let carriers = r#"(name: "Carriers", points: 150, mover: TrackedCarriers, recce: true),"#;
        let file = SMALL.replacen(
            carriers,
            &format!(r#"{carriers} (name: "Mortars", points: 100, mover: RegularInfantry),"#),
            1,
        );
        let ashore = |c: &mut Campaign| {
            c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        };
        let splits: [(&str, &str, &[&str]); 2] =
            [("Blue 1", "Rifles", &["B Company", "Carriers"]), ("Rifles", "Scouts", &["Carriers"])];
        let mut c = with_fractions(&file, ashore, &splits);
        assert_eq!(c.force("Scouts").unwrap().parent.as_deref(), Some("Rifles"));
        c.book_losses("Scouts", 100, None);
        assert_eq!(c.force("Blue 1").unwrap().losses.total(), Points::whole(100), "to the battlegroup");
        assert_eq!(c.force("Rifles").unwrap().losses.total(), Points::ZERO, "not to the Fraction it split from");
        assert_eq!(c.force("Scouts").unwrap().losses.total(), Points::ZERO);
        c.drain_events();
        c.replenishment();
        let month: Vec<String> = c
            .drain_events()
            .into_iter()
            .filter(|e| e.rule.section == "21.4 What can be replenished?" && e.outcome.get("gone").is_some())
            .filter_map(|e| e.actor)
            .collect();
        assert_eq!(month, ["Blue 1"], "the battlegroup's month-end thirds");
    }
}
