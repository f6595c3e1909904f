//! Concealment on a Map Board (FYOW 15.4): Elite or Enhanced infantry
//! ordered to CONCEAL throw a D10 each at the start of the session after
//! they arrive on the board, 6+ hiding; an enemy cannot detect (16) nor
//! gather information on (17) a force hidden whole, and its hidden elements
//! start concealed if the engagement goes to the table. A battle there
//! reveals them.

use crate::army::battlegroup::ElementClass;
use crate::army::orders::OrderKind;
use crate::map::attitude::{ConcealCandidate, conceal_on_board};
use crate::map::movement::MoverClass;
use crate::map::occupation::Place;
use crate::play::file::ElementFile;
use crate::play::state::{Campaign, CampaignError, Force};

/// Whether an element of `force` may conceal on a board: infantry (CSW
/// units included) that is Elite or Enhanced.
///
/// Reading (FYOW 15.4, 2 "'Enhanced' training that allows them to be (for
/// example) Reconnaissance, parachute or engineer elements"): an element is
/// Elite when its force is, Enhanced when it is designated recce or is
/// special-purpose troops (commandos, airborne, marines); infantry are the
/// foot, special forces and bicycle rows of the Movement Test table (test
/// `defenders_hide_on_their_board_and_a_battle_reveals_them`).
pub fn may_conceal(force: &Force, element: &ElementFile) -> bool {
    let infantry =
        matches!(element.mover, MoverClass::RegularInfantry | MoverClass::SpecialForces | MoverClass::BicycleTroops);
    infantry && (force.elite || element.recce || element.class == ElementClass::SpecialPurpose)
}

impl Campaign {
    /// Whether force `i` is under orders to CONCEAL: the player's by his
    /// order; the Auto's while it holds its ground.
    ///
    /// Reading (FYOW 15.4, 10.5): the Auto orders a force with elements that
    /// may hide to conceal while its orders are to Defend or Stand By; one
    /// moving on, attacking or resting does not stop to hide.
    fn ordered_to_conceal(&self, i: usize) -> bool {
        let f = &self.forces[i];
        if self.player == Some(f.side) { f.conceal } else { matches!(f.order, OrderKind::Defend | OrderKind::StandBy) }
    }

    /// FYOW 15.4 at the start of a session: each force ordered to conceal
    /// that is on a board it arrived on before this session, and has not
    /// yet thrown there, throws a D10 for each element that may hide.
    pub(crate) fn conceal_on_boards(&mut self) {
        let now = self.stamp();
        for i in 0..self.forces.len() {
            let name = self.forces[i].name.clone();
            if self.forces[i].is_gone() || !self.ordered_to_conceal(i) || self.in_battle(&name) {
                continue;
            }
            let Some(occ) = self.occupant(&name) else { continue };
            if occ.place != Place::OnBoard || occ.concealment_thrown || occ.arrived >= now {
                continue;
            }
            let f = &self.forces[i];
            let candidates: Vec<ConcealCandidate> = f
                .battlegroup
                .elements
                .iter()
                .filter_map(|e| f.kit.iter().find(|k| k.name == e.name))
                .filter(|k| may_conceal(f, k))
                .map(|k| ConcealCandidate {
                    element: k.name.clone(),
                    infantry: true,
                    elite: f.elite,
                    enhanced: k.recce || k.class == ElementClass::SpecialPurpose,
                })
                .collect();
            if candidates.is_empty() {
                continue;
            }
            let arrived = occ.arrived;
            let Ok((thrown, e)) = conceal_on_board(&name, &candidates, arrived, now, &mut self.dice) else { continue };
            self.log(e);
            let hidden: Vec<String> = thrown.into_iter().filter(|(_, h)| *h).map(|(n, _)| n).collect();
            let whole = self.forces[i].battlegroup.elements.iter().all(|e| hidden.contains(&e.name));
            if let Some(occ) = self.occupant_mut(&name) {
                occ.concealment_thrown = true;
                occ.entirely_concealed = whole;
                occ.concealed_elements = hidden;
            }
        }
    }

    /// The player orders a force to CONCEAL on the boards it occupies, or
    /// no longer to (FYOW 15.4); refused for a force with no Elite or
    /// Enhanced infantry.
    pub(crate) fn order_conceal(&mut self, name: &str, conceal: bool) -> Result<(), CampaignError> {
        let i = self.live(name)?;
        let f = &self.forces[i];
        if conceal && !f.kit.iter().any(|k| may_conceal(f, k)) {
            return Err(CampaignError::new(
                "15.4",
                format!("{name} has no Elite or Enhanced infantry to conceal on a Map Board"),
            ));
        }
        self.forces[i].conceal = conceal;
        Ok(())
    }

    /// A battle on its board reveals a force's concealed elements (FYOW
    /// 15.4: "The actual place of concealment is ... determined during any
    /// subsequent game"): they are no longer hidden on the map.
    pub(crate) fn revealed_by_battle(&mut self, name: &str) {
        if let Some(occ) = self.occupant_mut(name) {
            occ.concealed_elements.clear();
            occ.entirely_concealed = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::common::Side;
    use crate::play::testing::guernsey;

    #[test]
    fn defenders_hide_on_their_board_and_a_battle_reveals_them() {
        // FYOW 15.4: "Elite or Enhanced infantry (including CSW units) can be
        // ordered to CONCEAL on a Map Board ... at the start of the session
        // after their arrival, each element throws a D10 and will be
        // considered in concealment on a score of 6+."
        let mut hid = 0;
        for seed in 0..12 {
            let mut c = Campaign::new("guernsey-1942", guernsey(), seed).unwrap();
            let cyclists = c
                .forces
                .iter()
                .find(|f| f.kit.iter().any(|k| k.mover == MoverClass::BicycleTroops && k.recce))
                .map(|f| f.name.clone())
                .expect("the Aufklärungs-Abteilung's cyclists");
            let i = c.fx(&cyclists).unwrap();
            let f = &c.forces[i];
            let may: Vec<String> = f.kit.iter().filter(|k| may_conceal(f, k)).map(|k| k.name.clone()).collect();
            assert!(may.iter().all(|n| n.contains("Radfahr")), "only the recce cyclists may hide: {may:?}");
            c.forces[i].order = OrderKind::Defend;
            if let Some(o) = c.occupant_mut(&cyclists) {
                o.place = Place::OnBoard;
            }
            c.drain_events();
            c.conceal_on_boards();
            let section = |e: &&warbound_rules::event::RuleEvent| e.rule.section == "15.4 Concealment on a Map Board";
            assert!(c.drain_events().iter().filter(section).count() == 0, "no throw in the session of arrival");
            c.close_session();
            c.drain_events();
            c.conceal_on_boards();
            let events = c.drain_events();
            let thrown: Vec<_> = events.iter().filter(section).collect();
            assert_eq!(thrown.len(), 1, "one throw for the battlegroup");
            assert_eq!(thrown[0].dice.len(), may.len(), "a D10 an element that may hide");
            let occ = c.occupant(&cyclists).unwrap().clone();
            assert!(occ.concealment_thrown);
            let sixes = thrown[0].dice.iter().filter(|d| d.face >= 6).count();
            assert_eq!(occ.concealed_elements.len(), sixes, "6+ hides");
            assert_eq!(occ.entirely_concealed, occ.concealed_elements.len() == c.forces[i].battlegroup.elements.len());
            hid += sixes;
            // Once a board: no second throw.
            c.conceal_on_boards();
            assert!(c.drain_events().iter().all(|e| e.rule.section != "15.4 Concealment on a Map Board"));
            c.revealed_by_battle(&cyclists);
            let occ = c.occupant(&cyclists).unwrap();
            assert!(occ.concealed_elements.is_empty() && !occ.entirely_concealed, "a battle reveals them");
        }
        assert!(hid > 0, "some elements hide");
    }

    #[test]
    fn the_player_conceals_only_by_his_order_and_only_elite_or_enhanced_infantry() {
        let mut c = Campaign::new("guernsey-1942", guernsey(), 3).unwrap();
        c.player = Some(Side::Blue);
        let commando = c.forces.iter().find(|f| f.side == Side::Blue && f.elite).map(|f| f.name.clone()).unwrap();
        let i = c.fx(&commando).unwrap();
        assert!(c.forces[i].kit.iter().all(|k| may_conceal(&c.forces[i], k)), "the whole Commando may hide");
        c.forces[i].order = OrderKind::Defend;
        assert!(!c.ordered_to_conceal(i), "the player's force hides only when he orders it");
        let line = c.forces.iter().position(|f| f.side == Side::Blue && !f.elite).unwrap();
        let refused = c.command(crate::play::Command::Conceal { force: c.forces[line].name.clone(), conceal: true });
        assert_eq!(refused.unwrap_err().section, "15.4", "a line battalion with no Elite or Enhanced infantry");
        c.command(crate::play::Command::Conceal { force: commando.clone(), conceal: true }).unwrap();
        assert!(c.ordered_to_conceal(i));
    }
}
