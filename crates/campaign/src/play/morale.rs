//! The armies' Strategic Morale in play (FYOW 12.2–12.4): the weekly throw
//! on the battlegroups' Strategic Conditions, and the Strategic Condition
//! Repair throw.

use crate::army::morale::Standing;
use crate::map::common::Side;
use crate::paper::dunnigan::StrategicCondition;
use crate::play::state::{Campaign, Whereabouts, ix};

impl Campaign {
    /// FYOW 12.2–12.3: the weekly Strategic Morale throw of each army, on
    /// its battlegroups (their Fractions are part of them).
    pub(crate) fn weekly_morale(&mut self) {
        for side in [Side::Blue, Side::Red] {
            let standings: Vec<Standing> = self
                .forces
                .iter()
                .filter(|f| f.side == side && f.is_battlegroup() && f.merged_into.is_none())
                .map(|f| match (&f.at, f.condition) {
                    (Whereabouts::Gone, _) => Standing::Destroyed,
                    (_, StrategicCondition::Green) => Standing::Green,
                    (_, StrategicCondition::Amber) => Standing::Yellow,
                    (_, StrategicCondition::Red) if f.withdrawn => Standing::RedWithdrawn,
                    (_, StrategicCondition::Red) => Standing::Red,
                })
                .collect();
            let army = &mut self.armies[ix(side)];
            let reduced = std::mem::take(&mut army.reduced_since_review);
            let (general, motivation, name) = (army.general.competency, army.motivation, army.name.clone());
            match army.morale.weekly_throw(general, motivation, &standings, reduced, &mut self.dice, &name) {
                Ok((_, e)) => self.log_applied(e),
                Err(e) => self.log_refusal("12.3", &e.to_string()),
            }
        }
        self.check_end();
    }

    /// FYOW 12.4: the army's Strategic Condition Repair throw, when its
    /// Strategic Morale is below where it started.
    pub(crate) fn morale_repair_throw(&mut self, side: Side, why: &str) {
        let army = &mut self.armies[ix(side)];
        if army.morale.score >= crate::army::morale::STARTING_MORALE {
            return;
        }
        let (c, m, name) = (army.general.competency, army.motivation, army.name.clone());
        match army.morale.repair_throw(c, m, &mut self.dice, &name) {
            // The throw has repaired the morale it repairs.
            Ok((_, e)) => self.log_applied(e.input("occasion", why, "")),
            Err(e) => self.log_refusal("12.4", &e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::map::board::BoardId;
    use crate::map::common::Edge;
    use crate::play::testing::campaign;

    #[test]
    fn a_battlegroup_at_red_that_has_withdrawn_counts_as_such_at_the_weekly_review() {
        // 12.3 "Battlegroups with Strategic Condition red and having withdrawn
        // count as 3 / 2 / 1" dice, against red's "2 / 1 / 0".
        let mut c = campaign();
        for (name, board) in [("Blue 1", "Beach"), ("Blue 2", "Hill")] {
            c.relocate(name, &BoardId::new("Sea"), &BoardId::new(board), Edge::West).unwrap();
            let i = c.fx(name).unwrap();
            c.forces[i].condition = StrategicCondition::Red;
        }
        c.relocate("Blue 1", &BoardId::new("Beach"), &BoardId::new("Village"), Edge::West).unwrap();
        assert!(c.force("Blue 1").unwrap().withdrawn && !c.force("Blue 2").unwrap().withdrawn);
        c.army_mut(Side::Blue).reduced_since_review = true;
        c.drain_events();
        c.weekly_morale();
        let e = c
            .drain_events()
            .into_iter()
            .find(|e| e.rule.section.starts_with("12.3") && e.actor.as_deref() == Some("Landing force"))
            .unwrap();
        let standings = &e.inputs.iter().find(|i| i.name == "battlegroups").unwrap().value;
        assert_eq!(standings, &json!(["RedWithdrawn", "Red"]));
    }

    #[test]
    fn the_weekly_review_counts_battlegroups_not_their_fractions() {
        // 12.2 "These throws ... only need to be made if any one Battlegroup
        // suffers a reduction in its Strategic Condition"; 12.3 "each General
        // reviews the Strategic Condition of the Battlegroups under his command".
        let mut c = campaign();
        let mut rifles = c.force("Blue 1").unwrap().clone();
        rifles.name = "Rifles".into();
        rifles.kind = crate::map::common::ForceKind::Fraction;
        rifles.parent = Some("Blue 1".into());
        c.forces.push(rifles);
        c.book_losses("Rifles", 0, Some(StrategicCondition::Red));
        c.remove_force("Rifles", "destroyed");
        assert!(!c.army(Side::Blue).reduced_since_review, "a Fraction's fall is no battlegroup's");
        c.book_losses("Blue 1", 0, Some(StrategicCondition::Amber));
        assert!(c.army(Side::Blue).reduced_since_review);
        c.drain_events();
        c.weekly_morale();
        let e = c
            .drain_events()
            .into_iter()
            .find(|e| e.rule.section.starts_with("12.3") && e.actor.as_deref() == Some("Landing force"))
            .unwrap();
        let standings = &e.inputs.iter().find(|i| i.name == "battlegroups").unwrap().value;
        assert_eq!(standings, &json!(["Yellow", "Green"]), "the destroyed Fraction is not a battlegroup destroyed");
    }
}
