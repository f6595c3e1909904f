//! Commandos cutting the enemy's railway (FYOW 30.5: "A railway line can be
//! cut using 1 large or 2 small charges"): a battlegroup carrying
//! demolition stores, standing on a board the enemy's supply train runs
//! through, blows the line there; the enemy's platoons mend it (30.5).

use crate::map::board::BoardId;
use crate::map::movement::MoverClass;
use crate::play::state::{Campaign, CampaignError, Force, ix};
use crate::play::trains::Charges;

/// Whether a force carries demolition charges on the campaign map.
///
/// Reading (FYOW 30.5 "1 large or 2 small charges"; the campaign map does
/// not list charges): special forces (commandos, airborne troops) carry
/// demolition stores as their trade, so a battlegroup with an element of
/// special forces has the large charge a line needs; other troops do not
/// (test `commandos_cut_the_enemys_railway_and_others_may_not`).
pub fn carries_charges(f: &Force) -> bool {
    f.kit.iter().any(|e| e.mover == MoverClass::SpecialForces)
}

impl Campaign {
    /// FYOW 30.5: the board whose railway line `f` may blow with one large
    /// charge. Refused unless it carries charges, a railway runs through
    /// its board and is not cut already, and no enemy stands on the board
    /// (the charge is laid out of contact).
    pub fn may_cut_railway(&self, f: &Force) -> Result<BoardId, CampaignError> {
        let name = &f.name;
        let refuse = |why: String| Err(CampaignError::new("30.5", why));
        let Some(board) = f.board().cloned() else { return refuse(format!("{name} is not on a Map Board")) };
        if !carries_charges(f) {
            return refuse(format!("{name} carries no demolition charges: special forces do"));
        }
        if !self.railway_at(&board) {
            return refuse(format!("no railway runs through {board}"));
        }
        if self.cut_lines.contains_key(&board) {
            return refuse(format!("the line through {board} is cut already"));
        }
        if self.occupation[&board].occupants.iter().any(|o| o.side != f.side) || self.in_battle(name) {
            return refuse(format!("{name} is in contact with the enemy on {board}"));
        }
        Ok(board)
    }

    /// FYOW 30.5: `name` blows the railway line through its board, when it
    /// may ([`Campaign::may_cut_railway`]).
    pub(crate) fn cut_railway(&mut self, name: &str) -> Result<(), CampaignError> {
        let i = self.live(name)?;
        let board = self.may_cut_railway(&self.forces[i])?;
        self.cut_line(&board, name, Charges { large: 1, ..Charges::default() });
        Ok(())
    }

    /// The Auto's commandos cut the railway through their board when it
    /// serves the enemy's supply train and not their own army's.
    ///
    /// Reading (FYOW 30.5): a line is cut to stop the enemy's trains, so
    /// the Auto cuts one only where the enemy army runs a train and its own
    /// does not (test `commandos_cut_the_enemys_railway_and_others_may_not`).
    pub(crate) fn auto_cut_railway(&mut self, name: &str) {
        let Some(f) = self.force(name) else { return };
        let side = f.side;
        let worth = self.player != Some(side)
            && self.armies[ix(side.enemy())].train.is_some()
            && self.armies[ix(side)].train.is_none();
        if worth && let Ok(board) = self.may_cut_railway(f) {
            self.cut_line(&board, name, Charges { large: 1, ..Charges::default() });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::common::Edge;

    /// Guernsey with its trains running, and a railway board down the line
    /// from the train's home, cleared of its occupants.
    fn guernsey() -> (Campaign, BoardId) {
        let mut c = Campaign::new("guernsey-1942.ron", crate::play::testing::guernsey(), 3).unwrap();
        c.trains_at_start();
        let home = c.armies.iter().find_map(|a| a.train.as_ref()).expect("an army runs a train").home.clone();
        let rail = c.occupation.keys().find(|b| **b != home && c.railway_at(b)).cloned().expect("a railway board");
        c.occupation.get_mut(&rail).unwrap().occupants.clear();
        (c, rail)
    }

    fn put(c: &mut Campaign, name: &str, on: &BoardId) {
        let from = match &c.force(name).unwrap().at {
            crate::play::state::Whereabouts::Afloat { sea, .. } => sea.clone(),
            crate::play::state::Whereabouts::Airborne { .. } => panic!("{name} is at its airfield"),
            crate::play::state::Whereabouts::Board(b) => b.clone(),
            crate::play::state::Whereabouts::Gone => panic!("{name} is gone"),
        };
        c.relocate(name, &from, on, Edge::West).unwrap();
    }

    #[test]
    fn commandos_cut_the_enemys_railway_and_others_may_not() {
        let (mut c, rail) = guernsey();
        let train_side = c.armies.iter().find(|a| a.train.is_some()).unwrap().side;
        let raiders = train_side.enemy();
        let commando = c.forces.iter().find(|f| f.side == raiders && carries_charges(f)).unwrap().name.clone();
        let riflemen = c.forces.iter().find(|f| f.side == raiders && !carries_charges(f)).unwrap().name.clone();
        // Riflemen carry no charges.
        put(&mut c, &riflemen, &rail);
        let refused = c.cut_railway(&riflemen).unwrap_err();
        assert_eq!(refused.section, "30.5");
        assert!(refused.message.contains("no demolition charges"), "{}", refused.message);
        c.auto_cut_railway(&riflemen);
        assert!(c.cut_lines.is_empty());
        // The Auto's commandos cut the enemy's line.
        put(&mut c, &commando, &rail);
        c.drain_events();
        c.auto_cut_railway(&commando);
        assert!(c.cut_lines.contains_key(&rail), "the enemy's train is stopped at {rail}");
        let e = c.drain_events().pop().unwrap();
        assert_eq!(e.rule.section, "30.5 A railway line can be cut");
        assert_eq!(e.actor.as_deref(), Some(commando.as_str()));
        assert!(e.inputs.iter().any(|x| x.name == "large_charges" && x.value == 1));
        assert!(c.cut_railway(&commando).unwrap_err().message.contains("cut already"));

        // Never where its own army's train runs, nor the player's by itself.
        let (mut c, rail) = guernsey();
        put(&mut c, &commando, &rail);
        let train = c.armies[ix(train_side)].train.clone();
        c.armies[ix(raiders)].train = train;
        c.auto_cut_railway(&commando);
        assert!(c.cut_lines.is_empty(), "its own train runs here too");
        let (mut c, rail) = guernsey();
        put(&mut c, &commando, &rail);
        c.player = Some(raiders);
        c.auto_cut_railway(&commando);
        assert!(c.cut_lines.is_empty(), "the player cuts a line by his own command");
        c.command(crate::play::command::Command::CutRailway { force: commando.clone() }).unwrap();
        assert!(c.cut_lines.contains_key(&rail));
    }
}
