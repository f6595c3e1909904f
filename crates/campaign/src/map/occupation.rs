//! Who is on a Map Board and where (FYOW 13.7, 13.9, 15.1, 15.2, 15.5, 15.9):
//! forces in the "box" on each edge or on the board itself, box shifts, the
//! capacity per side, arriving on a board, merging and stacking.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::map::attitude::AttitudeState;
use crate::map::board::{BoardId, MapBoard, board_capacity};
use crate::map::common::{Edge, ForceKind, MapError, SessionStamp, Side};
use crate::map::movement::MoveAllowance;

/// Where on a Map Board a force is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    /// In the "box" at an edge: part of the board, not of the table (FYOW 13.7).
    Box(Edge),
    /// On the Map Board itself.
    OnBoard,
}

/// A force occupying a Map Board (FYOW 15.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occupant {
    pub force: String,
    pub side: Side,
    pub kind: ForceKind,
    /// Points value, table and box together (FYOW 13.9).
    pub points: u32,
    /// The edge it arrived at: its box, "owned" by it (15.2), and the edge it deploys from (15.3).
    pub arrival_edge: Edge,
    pub place: Place,
    pub attitude: AttitudeState,
    pub arrived: SessionStamp,
    /// Elements concealed on the board (FYOW 15.4).
    #[serde(default)]
    pub concealed_elements: Vec<String>,
    /// Every element concealed: it cannot be detected (FYOW 16) nor observed (FYOW 17).
    #[serde(default)]
    pub entirely_concealed: bool,
    /// Its elements have thrown for concealment on this board (FYOW 15.4:
    /// "at the start of the session after their arrival").
    #[serde(default)]
    pub concealment_thrown: bool,
    /// An emplaced coastal gun may deploy beyond the 1/3rd limit (FYOW 15.3).
    #[serde(default)]
    pub emplaced_coastal_gun: bool,
}

/// A force arriving on a board (FYOW 15.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrivingForce {
    pub force: String,
    pub side: Side,
    pub kind: ForceKind,
    pub points: u32,
    /// The box it arrives in: the edge the link reaches (FYOW 13.7).
    pub edge: Edge,
    pub session: SessionStamp,
}

/// What follows an arrival (FYOW 15.5, 16.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrivalOutcome {
    /// No friendly Battlegroup or Fraction was on the board: the arriving force makes a
    /// Detection Throw at once (FYOW 15.5, 16).
    pub detection_throw: bool,
    /// Enemy forces occupying the board, who throw to detect the arrival when next
    /// activated if it stays in the box (FYOW 16.3).
    pub occupiers_to_test: Vec<String>,
}

/// The forces on one Map Board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardOccupation {
    pub board: BoardId,
    pub occupants: Vec<Occupant>,
}

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnWars, section)
}

impl BoardOccupation {
    pub fn empty(board: BoardId) -> Self {
        Self { board, occupants: Vec::new() }
    }

    pub fn occupant(&self, force: &str) -> Result<&Occupant, MapError> {
        self.occupants.iter().find(|o| o.force == force).ok_or_else(|| MapError::UnknownForce(force.into()))
    }

    fn occupant_mut(&mut self, force: &str) -> Result<&mut Occupant, MapError> {
        self.occupants.iter_mut().find(|o| o.force == force).ok_or_else(|| MapError::UnknownForce(force.into()))
    }

    /// Points a side has on the board, table and box together (FYOW 13.9).
    pub fn side_points(&self, side: Side) -> u32 {
        self.occupants.iter().filter(|o| o.side == side).fold(0, |sum, o| sum.saturating_add(o.points))
    }

    fn enemy_in_box(&self, side: Side, edge: Edge) -> Option<&Occupant> {
        self.occupants.iter().find(|o| o.side != side && o.place == Place::Box(edge))
    }

    /// FYOW 15.5: a force arriving occupies the box at the link's edge. It cannot enter a box
    /// an enemy occupies (13.7) nor take its side over the board's capacity (13.9).
    pub fn arrive(
        &mut self,
        board: &MapBoard,
        max_battlegroup_points: u32,
        arriving: ArrivingForce,
    ) -> Result<(ArrivalOutcome, RuleEvent), MapError> {
        if board.id != self.board {
            return Err(MapError::NotAllowed(format!("occupation is of \"{}\", not \"{}\"", self.board, board.id)));
        }
        if self.occupants.iter().any(|o| o.force == arriving.force) {
            return Err(MapError::NotAllowed(format!("{} is already on \"{}\"", arriving.force, self.board)));
        }
        if let Some(enemy) = self.enemy_in_box(arriving.side, arriving.edge) {
            return Err(MapError::NotAllowed(format!(
                "the {:?} box of \"{}\" is occupied by the enemy ({}): it cannot be entered (FYOW 13.7)",
                arriving.edge, self.board, enemy.force
            )));
        }
        let now = self.side_points(arriving.side);
        if let Some(cap) = board_capacity(board, max_battlegroup_points)
            && now.saturating_add(arriving.points) > cap
        {
            return Err(MapError::NotAllowed(format!(
                "\"{}\" holds {cap} points a side (FYOW 13.9): {now} there and {} arriving",
                self.board, arriving.points
            )));
        }
        let detection_throw = !self
            .occupants
            .iter()
            .any(|o| o.side == arriving.side && matches!(o.kind, ForceKind::Battlegroup | ForceKind::Fraction));
        let occupiers_to_test =
            self.occupants.iter().filter(|o| o.side != arriving.side).map(|o| o.force.clone()).collect();
        let outcome = ArrivalOutcome { detection_throw, occupiers_to_test };
        let event = RuleEvent::new(EventKind::MapMovement, rule("15.5 Battlegroups arriving on a Map Board"))
            .actor(&arriving.force)
            .input("board", &self.board, "")
            .input("box", arriving.edge, "the edge the link reaches (13.7)")
            .input("side_points", now.saturating_add(arriving.points), "table and box together (13.9)")
            .outcome(&outcome);
        self.occupants.push(Occupant {
            force: arriving.force,
            side: arriving.side,
            kind: arriving.kind,
            points: arriving.points,
            arrival_edge: arriving.edge,
            place: Place::Box(arriving.edge),
            attitude: AttitudeState::present(),
            arrived: arriving.session,
            concealed_elements: Vec::new(),
            entirely_concealed: false,
            concealment_thrown: false,
            emplaced_coastal_gun: false,
        });
        Ok((outcome, event))
    }

    /// FYOW 13.7 box shift: a force in a box joins a friendly force in the box on an adjacent
    /// edge, without Movement Points or a Movement Test and without using its Moving
    /// Allowance, but the shift occupies the session.
    pub fn shift_box(&mut self, force: &str, to: Edge, allowance: &mut MoveAllowance) -> Result<RuleEvent, MapError> {
        let me = self.occupant(force)?;
        let Place::Box(from) = me.place else {
            return Err(MapError::NotAllowed(format!("{force} is on the board, not in a box (FYOW 13.7)")));
        };
        if !from.is_adjacent(to) {
            return Err(MapError::NotAllowed(format!(
                "{force} can shift only to a box on an adjacent edge, not from {from:?} to {to:?} (FYOW 13.7)"
            )));
        }
        let side = me.side;
        if !self.occupants.iter().any(|o| o.side == side && o.place == Place::Box(to)) {
            return Err(MapError::NotAllowed(format!(
                "{force} shifts only to join a friendly force in the {to:?} box (FYOW 13.7)"
            )));
        }
        if self.enemy_in_box(side, to).is_some() {
            return Err(MapError::NotAllowed(format!("the {to:?} box is occupied by the enemy (FYOW 13.7)")));
        }
        allowance.spend_session()?;
        let me = self.occupant_mut(force)?;
        me.place = Place::Box(to);
        me.arrival_edge = to;
        Ok(RuleEvent::new(EventKind::MapMovement, rule("13.7 The box"))
            .actor(force)
            .input("from", from, "")
            .input("to", to, "adjacent edge, friendly force there")
            .outcome(json!({ "box": to, "movement_points": 0, "session_used": true })))
    }

    /// The force moves from its box onto the Map Board (FYOW 13.7, 16.2).
    pub fn enter_board(&mut self, force: &str) -> Result<(), MapError> {
        let me = self.occupant_mut(force)?;
        me.place = Place::OnBoard;
        Ok(())
    }

    /// The force leaves the board (moves on, retreats or is destroyed).
    pub fn leave(&mut self, force: &str) -> Result<Occupant, MapError> {
        let i =
            self.occupants.iter().position(|o| o.force == force).ok_or_else(|| MapError::UnknownForce(force.into()))?;
        Ok(self.occupants.remove(i))
    }

    /// FYOW 15.9: two Battlegroups of a side on the same board may be merged when their
    /// combined value is within the maximum (the commander's Leadership Test is the army
    /// rules'). Returns the merged value.
    /// Reading (FYOW 15.9 "less than the permitted maximum" against 2.7 "cannot exceed the
    /// maximum value"): a merged Battlegroup may equal the maximum, as 2.7 allows.
    pub fn merge_value(&self, a: &str, b: &str, max_battlegroup_points: u32) -> Result<u32, MapError> {
        let (x, y) = (self.occupant(a)?, self.occupant(b)?);
        if a == b || x.side != y.side || x.kind != ForceKind::Battlegroup || y.kind != ForceKind::Battlegroup {
            return Err(MapError::NotAllowed(format!(
                "{a} and {b} are not two Battlegroups of one side on this board (FYOW 15.9)"
            )));
        }
        let sum = x.points.saturating_add(y.points);
        if sum > max_battlegroup_points {
            return Err(MapError::NotAllowed(format!(
                "{a} and {b} together are {sum} points, over the {max_battlegroup_points} maximum (FYOW 2.7, 15.9)"
            )));
        }
        Ok(sum)
    }

    /// FYOW 15.9 stacking: the defending forces of `side` an attacker may pick from.
    pub fn stacked(&self, side: Side) -> Vec<&Occupant> {
        self.occupants.iter().filter(|o| o.side == side).collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::map::board::tests::guernsey;

    pub(crate) fn arriving(force: &str, side: Side, kind: ForceKind, points: u32, edge: Edge) -> ArrivingForce {
        ArrivingForce { force: force.into(), side, kind, points, edge, session: SessionStamp::new(1, 3).unwrap() }
    }

    #[test]
    fn the_first_arrival_throws_for_detection_and_a_second_friendly_force_does_not() {
        let map = guernsey();
        let board = map.board(&BoardId::new("Castel")).unwrap();
        let mut occ = BoardOccupation::empty(board.id.clone());
        let (out, event) =
            occ.arrive(board, 1200, arriving("1 Bn", Side::Blue, ForceKind::Battlegroup, 600, Edge::West)).unwrap();
        assert!(out.detection_throw);
        assert_eq!(event.rule.section, "15.5 Battlegroups arriving on a Map Board");
        assert_eq!(occ.occupant("1 Bn").unwrap().place, Place::Box(Edge::West));
        let (out, _) =
            occ.arrive(board, 1200, arriving("2 Bn", Side::Blue, ForceKind::Battlegroup, 500, Edge::South)).unwrap();
        assert!(!out.detection_throw);
        let (out, _) =
            occ.arrive(board, 1200, arriving("Red 1", Side::Red, ForceKind::Fraction, 300, Edge::East)).unwrap();
        assert!(out.detection_throw);
        assert_eq!(out.occupiers_to_test, ["1 Bn", "2 Bn"]);
    }

    #[test]
    fn a_friendly_picket_does_not_spare_the_detection_throw() {
        let map = guernsey();
        let board = map.board(&BoardId::new("Castel")).unwrap();
        let mut occ = BoardOccupation::empty(board.id.clone());
        occ.arrive(board, 1200, arriving("1 Pl", Side::Blue, ForceKind::Picket, 50, Edge::West)).unwrap();
        let (out, _) =
            occ.arrive(board, 1200, arriving("1 Bn", Side::Blue, ForceKind::Battlegroup, 600, Edge::West)).unwrap();
        assert!(out.detection_throw);
    }

    #[test]
    fn an_enemy_box_cannot_be_entered_and_capacity_is_per_side() {
        let map = guernsey();
        let board = map.board(&BoardId::new("Castel")).unwrap();
        let mut occ = BoardOccupation::empty(board.id.clone());
        occ.arrive(board, 1200, arriving("Red 1", Side::Red, ForceKind::Battlegroup, 1200, Edge::East)).unwrap();
        let err =
            occ.arrive(board, 1200, arriving("1 Bn", Side::Blue, ForceKind::Battlegroup, 600, Edge::East)).unwrap_err();
        assert!(err.to_string().contains("occupied by the enemy"), "{err}");
        occ.arrive(board, 1200, arriving("1 Bn", Side::Blue, ForceKind::Battlegroup, 1200, Edge::West)).unwrap();
        let err =
            occ.arrive(board, 1200, arriving("2 Bn", Side::Blue, ForceKind::Fraction, 1, Edge::South)).unwrap_err();
        assert!(err.to_string().contains("1200 points a side"), "{err}");
        assert!(occ.arrive(board, 1200, arriving("1 Bn", Side::Blue, ForceKind::Battlegroup, 1, Edge::South)).is_err());
    }

    #[test]
    fn the_tidal_board_holds_any_number_of_vessels() {
        let map = guernsey();
        let sea = map.board(&BoardId::new("West Sea")).unwrap();
        let mut occ = BoardOccupation::empty(sea.id.clone());
        for i in 0..5 {
            occ.arrive(
                sea,
                1200,
                arriving(&format!("Fleet {i}"), Side::Blue, ForceKind::Battlegroup, 1000, Edge::East),
            )
            .unwrap();
        }
        assert_eq!(occ.side_points(Side::Blue), 5000);
    }

    #[test]
    fn a_box_shift_joins_a_friend_on_an_adjacent_edge_and_uses_the_session_not_the_allowance() {
        let map = guernsey();
        let board = map.board(&BoardId::new("Castel")).unwrap();
        let mut occ = BoardOccupation::empty(board.id.clone());
        occ.arrive(board, 1800, arriving("1 Bn", Side::Blue, ForceKind::Battlegroup, 600, Edge::West)).unwrap();
        occ.arrive(board, 1800, arriving("2 Bn", Side::Blue, ForceKind::Battlegroup, 600, Edge::South)).unwrap();
        occ.arrive(board, 1800, arriving("3 Bn", Side::Blue, ForceKind::Fraction, 200, Edge::East)).unwrap();
        let mut moves = MoveAllowance::new_day(2);
        let err = occ.shift_box("3 Bn", Edge::West, &mut moves).unwrap_err();
        assert!(err.to_string().contains("adjacent edge"), "{err}");
        let e = occ.shift_box("1 Bn", Edge::South, &mut moves).unwrap();
        assert_eq!(occ.occupant("1 Bn").unwrap().place, Place::Box(Edge::South));
        assert_eq!(moves.remaining(), 2);
        assert!(moves.check_move().is_err(), "the shift occupied the session");
        assert!(e.dice.is_empty());
        let mut moves = MoveAllowance::new_day(2);
        let err = occ.shift_box("3 Bn", Edge::North, &mut moves).unwrap_err();
        assert!(err.to_string().contains("join a friendly force"), "{err}");
    }

    #[test]
    fn merging_needs_two_battlegroups_within_the_maximum() {
        let map = guernsey();
        let board = map.board(&BoardId::new("Castel")).unwrap();
        let mut occ = BoardOccupation::empty(board.id.clone());
        occ.arrive(board, 1200, arriving("1 Bn", Side::Blue, ForceKind::Battlegroup, 700, Edge::West)).unwrap();
        occ.arrive(board, 1200, arriving("2 Bn", Side::Blue, ForceKind::Battlegroup, 500, Edge::West)).unwrap();
        assert_eq!(occ.merge_value("1 Bn", "2 Bn", 1200), Ok(1200), "equal to the maximum is allowed");
        assert!(occ.merge_value("1 Bn", "2 Bn", 1100).is_err());
        assert!(occ.merge_value("1 Bn", "1 Bn", 1200).is_err());
        assert_eq!(occ.stacked(Side::Blue).len(), 2);
        occ.enter_board("2 Bn").unwrap();
        assert_eq!(occ.leave("2 Bn").unwrap().place, Place::OnBoard);
        assert!(occ.leave("2 Bn").is_err());
    }
}
