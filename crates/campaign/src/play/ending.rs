//! How the campaign ends (FYOW 1, 12.3): an army withdraws or has no
//! battlegroups left, or the last day is over and the objectives held
//! decide it.

use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::map::common::Side;
use crate::play::state::{Campaign, Ending, fyow};

impl Campaign {
    /// Ends the campaign when an army withdraws or has nothing left.
    pub(crate) fn check_end(&mut self) {
        if self.ended.is_some() {
            return;
        }
        for side in [Side::Blue, Side::Red] {
            let a = self.army(side);
            if a.morale.withdrawn() {
                let reason = format!("{} withdraws from the campaign: Strategic Morale 0 (FYOW 12.3)", a.name);
                self.ended = Some(Ending { reason, winner: Some(side.enemy()) });
                return;
            }
            if self.forces.iter().all(|f| f.side != side || f.is_gone()) {
                let reason = format!("{} has no battlegroups left", a.name);
                self.ended = Some(Ending { reason, winner: Some(side.enemy()) });
                return;
            }
        }
    }

    /// The campaign's time is up: the attacker wins if it holds at least
    /// half of its objectives, else the defender.
    ///
    /// Reading (FYOW 1: the campaign's aims are the players'): the attacking
    /// army's objectives decide it; with both armies attacking, the one
    /// holding more of its objectives wins, a tie is a draw.
    pub(crate) fn finish(&mut self, why: &str) {
        let held =
            |c: &Campaign, side: Side| c.army(side).objectives.iter().filter(|b| c.held.get(*b) == Some(&side)).count();
        let attackers: Vec<Side> = [Side::Blue, Side::Red]
            .into_iter()
            .filter(|s| self.army(*s).stance == crate::play::file::Stance::Attack)
            .collect();
        let winner = match attackers.as_slice() {
            [a] => {
                let need = self.army(*a).objectives.len().div_ceil(2);
                Some(if held(self, *a) >= need { *a } else { a.enemy() })
            }
            _ => match held(self, Side::Blue).cmp(&held(self, Side::Red)) {
                std::cmp::Ordering::Greater => Some(Side::Blue),
                std::cmp::Ordering::Less => Some(Side::Red),
                std::cmp::Ordering::Equal => None,
            },
        };
        let reason = format!(
            "{why}: objectives held Blue {}/{}, Red {}/{}",
            held(self, Side::Blue),
            self.army(Side::Blue).objectives.len(),
            held(self, Side::Red),
            self.army(Side::Red).objectives.len()
        );
        self.log(
            RuleEvent::new(EventKind::Calendar, fyow("1 The Campaign day"))
                .input("date", self.date.to_string(), "")
                .outcome(json!({ "ended": reason, "winner": winner })),
        );
        self.ended = Some(Ending { reason, winner });
    }
}
