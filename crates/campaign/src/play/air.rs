//! Air reconnaissance over the campaign map (FYOW 28.8): a recce squadron
//! allowed to fly looks at the board its army most needs to see.

use crate::air::Conditions;
use crate::air::missions::{EnemyPosture, recce_detection};
use crate::map::attitude::Attitude;
use crate::map::board::BoardId;
use crate::play::state::{Campaign, ix};

impl Campaign {
    /// The board an army most needs to see: the next board on its forces'
    /// roads to their objectives where the enemy is, else its first objective.
    fn recce_target(&self, a: usize) -> Option<BoardId> {
        let side = self.armies[a].side;
        let enemy = side.enemy();
        let ahead = self.forces.iter().filter(|f| f.side == side).find_map(|f| {
            let (here, to) = (f.board()?, f.objective.as_ref()?);
            let v = f.mover().profile().is_ok_and(|p| p.v_barred);
            self.road_route(here, to, v)?.into_iter().map(|l| l.to).find(|b| self.occupation[b].side_points(enemy) > 0)
        });
        ahead.or_else(|| self.armies[a].objectives.first().cloned())
    }

    /// FYOW 28.8: a recce machine's Detection Throw over the target board.
    pub(crate) fn recce_flight(&mut self, a: usize, squadron: usize, conditions: Conditions) {
        let Some(board) = self.recce_target(a) else { return };
        let side = self.armies[a].side;
        let enemies: Vec<(String, EnemyPosture)> = self.occupation[&board]
            .occupants
            .iter()
            .filter(|o| o.side != side)
            .map(|o| {
                let posture = match (o.entirely_concealed, o.attitude.attitude()) {
                    (true, _) => EnemyPosture::Concealed,
                    (false, Attitude::Deployed | Attitude::Fortified) => EnemyPosture::Deployed,
                    _ => EnemyPosture::PresentOrResting,
                };
                (o.force.clone(), posture)
            })
            .collect();
        let Some(air) = self.armies[a].air.as_mut() else { return };
        let (sq, specialist) = &mut air.squadrons[squadron];
        sq.fly_sortie();
        let (id, specialist) = (sq.name.clone(), *specialist);
        let day = self.day;
        for (force, posture) in enemies {
            if let Ok((seen, e)) = recce_detection(specialist, conditions, posture, &mut self.dice, &id) {
                self.log(e.target(&force).input("board", &board, "the board flown over"));
                if seen {
                    self.armies[ix(side)].known.insert(force, (board.clone(), day));
                }
            }
        }
    }
}
