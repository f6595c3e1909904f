//! Commanders' experience (FYOW 7.1, optional): on the first day of each
//! month after the first, a battlegroup commander who has fought his army's
//! set number of battles since he last improved throws 2D6; a double
//! improves his competency by one step.

use serde_json::json;

use crate::army::commander::{MonthlyThrow, monthly_throw};
use crate::map::common::ForceKind;
use crate::play::state::Campaign;

impl Campaign {
    /// FYOW 7.1: "On the first day of each month, throw 2d6 for each
    /// Commander under review and allow his competency rating to improve by
    /// 1 step if a double is thrown."
    ///
    /// Reading (FYOW 7.1, "where Commanders have experienced a
    /// pre-determined number of battles"): the army's file sets the number
    /// (`experience_after_battles`); a battlegroup's commander is under
    /// review once his battlegroup has fought that many battles, as attacker
    /// or defender, since the campaign began or since he last improved, and
    /// stays under review until a double; an Above Average commander is not
    /// reviewed (test `a_commander_under_review_improves_on_a_double_and_starts_again`).
    pub(crate) fn experience_reviews(&mut self) {
        for i in 0..self.forces.len() {
            let f = &self.forces[i];
            let Some(needed) = self.file.army(f.side).experience_after_battles else { continue };
            if f.is_gone()
                || f.kind != ForceKind::Battlegroup
                || f.commander.competency == f.commander.competency.improved()
            {
                continue;
            }
            let fought = self.fought.iter().filter(|b| b.attacker == f.name || b.defender == f.name).count() as u32;
            if fought < f.improved_after_battles + needed {
                continue;
            }
            let since = fought - f.improved_after_battles;
            let (name, commander, before) = (f.name.clone(), f.commander.name.clone(), f.commander.competency);
            let (double, mut e) = monthly_throw(MonthlyThrow::Experience, &mut self.dice, &commander);
            let after = if double { before.improved() } else { before };
            e.outcome = json!({ "double": double, "competency": after });
            self.log(
                e.input("battlegroup", &name, "")
                    .input("battles", since, "fought since the campaign began or he last improved")
                    .input("competency", before, "before the throw"),
            );
            if double {
                self.forces[i].commander.competency = after;
                self.forces[i].improved_after_battles = fought;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::commander::Competency;
    use crate::map::board::BoardId;
    use crate::map::common::Side;
    use crate::play::state::BattleRecord;
    use crate::play::testing::campaign;

    #[test]
    fn a_commander_under_review_improves_on_a_double_and_starts_again() {
        // 7.1 "Where Commanders have experienced a pre-determined number of
        // battles ... On the first day of each month, throw 2d6 for each
        // Commander under review and allow his competency rating to improve by
        // 1 step if a double is thrown."
        let mut c = campaign();
        let k = c.file.armies.iter().position(|a| a.side == Side::Blue).unwrap();
        c.file.armies[k].experience_after_battles = Some(2);
        let i = c.forces.iter().position(|f| f.side == Side::Blue && f.kind == ForceKind::Battlegroup).unwrap();
        let name = c.forces[i].name.clone();
        c.forces[i].commander.competency = Competency::BelowAverage;
        let battle = |c: &mut Campaign| {
            c.fought.push(BattleRecord {
                board: BoardId::new("Beach"),
                attacker: name.clone(),
                defender: "Red 1".into(),
                began: String::new(),
                combat_sessions: 1,
                result: String::new(),
            })
        };
        battle(&mut c);
        c.drain_events();
        c.experience_reviews();
        assert!(c.drain_events().is_empty(), "one battle: not yet under review");
        battle(&mut c);
        let mut throws = 0;
        while c.forces[i].commander.competency == Competency::BelowAverage {
            c.experience_reviews();
            let events = c.drain_events();
            assert_eq!(events.len(), 1, "only he has fought two battles");
            let e = &events[0];
            assert_eq!(e.rule.section, "7.1 Changing Commanders, promotions and experience");
            let faces: Vec<u8> = e.dice.iter().map(|t| t.face).collect();
            assert_eq!(e.outcome["double"], json!(faces[0] == faces[1]));
            throws += 1;
            assert!(throws < 200, "a double comes");
        }
        assert_eq!(c.forces[i].commander.competency, Competency::Average, "one step");
        c.experience_reviews();
        assert!(c.drain_events().is_empty(), "improved: two more battles before he is reviewed again");
        battle(&mut c);
        battle(&mut c);
        c.experience_reviews();
        assert_eq!(c.drain_events().len(), 1);
    }
}
