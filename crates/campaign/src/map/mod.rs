//! The campaign map (FYOW 13–19): Map Boards and the links between them,
//! Map Board movement and the Movement Test, Battlegroups on Map Boards
//! (attitudes, concealment, arriving, engagements), detection throws,
//! gathering information, order of march and traffic jams, and decoy map
//! markers. Rules only: the program's engine reads these outcomes and events.

pub mod attitude;
pub mod board;
pub mod common;
pub mod decoy;
pub mod detection;
pub mod engagement;
pub mod information;
pub mod march;
pub mod movement;
pub mod occupation;

pub use attitude::{Attitude, AttitudeState};
pub use board::{BoardId, CampaignMap, Leg, Link, MapBoard, MapKnowledge};
pub use common::{Edge, ForceKind, Light, MapError, SessionConditions, SessionStamp, Side};
pub use decoy::DecoySet;
pub use detection::{detect_from_occupation, detect_on_arrival};
pub use engagement::Engagement;
pub use information::gather_information;
pub use march::{LandingPlan, OrderOfMarch};
pub use movement::{
    MoveAttempt, MoveOutcome, MovementState, Mover, MoverClass, landing_test, may_leave_contact, movement_test,
};
pub use occupation::BoardOccupation;

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::board::RouteKind;
    use super::detection::{ArrivingObserver, EnemyPosture};
    use super::occupation::ArrivingForce;
    use super::*;

    /// A Battlegroup moves along a road, arrives in the box, fails to detect the deployed
    /// defenders, and the contact becomes a table battle on the board it reached.
    #[test]
    fn a_move_an_arrival_a_detection_throw_and_a_battle() {
        let map = board::tests::guernsey();
        let castel = BoardId::new("Castel");
        let session = SessionStamp::new(1, 3).unwrap();
        let day = SessionConditions::fine_day();

        let mut held = BoardOccupation::empty(castel.clone());
        let board = map.board(&castel).unwrap();
        let red = ArrivingForce {
            force: "Red 1".into(),
            side: Side::Red,
            kind: ForceKind::Battlegroup,
            points: 900,
            edge: Edge::East,
            session: SessionStamp::new(1, 1).unwrap(),
        };
        held.arrive(board, 1200, red).unwrap();
        held.enter_board("Red 1").unwrap();
        let mut moves = movement::MoveAllowance::new_day(2);
        held.occupants[0].attitude.deploy("Red 1", &mut moves).unwrap();

        let blue = Mover::new([MoverClass::RegularInfantry, MoverClass::HalfTracks], false);
        let mut state = MovementState::new_day(blue.profile().unwrap().max_per_day, None);
        let leg = map.leg(&BoardId::new("Cobo Bay"), &castel, RouteKind::MetalledRoad).unwrap();
        let (moved, _) =
            movement_test("1 Bn", &blue, &mut state, &MoveAttempt::new(leg.clone(), day), &mut Scripted::new([5]))
                .unwrap();
        assert!(moved.moved, "5 + 1 = 6");

        let arriving = ArrivingForce {
            force: "1 Bn".into(),
            side: Side::Blue,
            kind: ForceKind::Battlegroup,
            points: 1000,
            edge: leg.arrival_edge,
            session,
        };
        let (arrival, _) = held.arrive(board, 1200, arriving).unwrap();
        assert!(arrival.detection_throw);
        let red = held.occupant("Red 1").unwrap();
        let posture = EnemyPosture::of(red.attitude.attitude(), red.entirely_concealed);
        let (seen, _) = detect_on_arrival(
            "1 Bn",
            ArrivingObserver::Ordinary,
            &day,
            &[("Red 1".into(), posture)],
            &mut Scripted::new([5, 5, 2, 1]),
        );
        assert!(!seen[0].detected, "a deployed enemy needs a 6");

        held.enter_board("1 Bn").unwrap();
        let (battle, _) = Engagement::start(&map, &held, &["1 Bn", "Red 1"], session, day).unwrap();
        assert_eq!(battle.kind, board::BoardKind::Land(board::Terrain::Broken));
        assert_eq!(battle.forces[0].box_edge, Edge::West);
        assert_eq!(battle.forces[1].attitude, Attitude::Deployed);
        assert_eq!(battle.detail.fords, ["mill"]);
    }
}
