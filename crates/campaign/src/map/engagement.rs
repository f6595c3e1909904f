//! Engagements on Map Boards (FYOW 15.6, 15.7): the plain value that starts a
//! table battle from a Map Board, and when forces activated during a
//! continuing engagement may join it.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::day::BOUNDS_PER_SESSION;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::map::attitude::Attitude;
use crate::map::board::{BoardDetail, BoardId, BoardKind, BoardSize, CampaignMap, Coast, can_deploy};
use crate::map::common::{Edge, ForceKind, MapError, SessionConditions, SessionStamp, Side};
use crate::map::occupation::{BoardOccupation, Occupant, Place};

/// How deep into the table a force may stand from its edge (FYOW 15.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeploymentDepth {
    /// "1/3rd of the board from the edge on which it arrived" — Present when engaged, or Deployed.
    OneThird,
    /// "The deployment limit of 1/3 may only be exceeded where a defensive position is an emplaced coastal gun".
    Unlimited,
}

/// When a force joining a continuing engagement reaches its box (FYOW 15.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum JoinTiming {
    /// Activated before both combatants: joins from the next tabletop bound.
    NextBound,
    /// Activated after one combatant but before the other: after the next 2 bounds.
    AfterTwoBounds,
    /// Activated after both: for the start of the following session (4 bounds).
    NextSession,
}

impl JoinTiming {
    /// Tabletop bounds before the force may enter from its box.
    pub fn bounds_delay(self) -> u8 {
        match self {
            JoinTiming::NextBound => 0,
            JoinTiming::AfterTwoBounds => 2,
            JoinTiming::NextSession => BOUNDS_PER_SESSION,
        }
    }
}

/// FYOW 15.7: when a force activated on Battlegroup Priority Card `joiner` may join a battle
/// whose two combatants hold cards `combatants` (cards are activated lowest first, as in the
/// book's example). The joiner still needs a successful Movement Test.
pub fn join_timing(joiner: u32, combatants: [u32; 2]) -> Result<(JoinTiming, RuleEvent), MapError> {
    if combatants.contains(&joiner) || combatants[0] == combatants[1] {
        return Err(MapError::NotAllowed(format!(
            "Battlegroup Priority Cards are distinct: {joiner} against {combatants:?} (FYOW 15.7)"
        )));
    }
    let before = combatants.iter().filter(|&&c| joiner < c).count();
    let timing = match before {
        2 => JoinTiming::NextBound,
        1 => JoinTiming::AfterTwoBounds,
        _ => JoinTiming::NextSession,
    };
    let event = RuleEvent::new(
        EventKind::MapMovement,
        RuleRef::new(Book::FightYourOwnWars, "15.7 Engagements continuing across multiple sessions"),
    )
    .input("joiner_bpc", joiner, "")
    .input("combatant_bpcs", combatants, "engaged forces discard their BPC but keep their place")
    .outcome(json!({ "timing": timing, "bounds_delay": timing.bounds_delay() }));
    Ok((timing, event))
}

/// One force in an [`Engagement`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngagedForce {
    pub force: String,
    pub side: Side,
    pub kind: ForceKind,
    pub points: u32,
    /// The box it arrived in and deploys from (FYOW 13.7, 15.3).
    pub box_edge: Edge,
    /// On the Map Board itself, or still in its box.
    pub on_board: bool,
    pub attitude: Attitude,
    /// False for a Battlegroup on a half board (FYOW 13.1).
    pub may_deploy: bool,
    pub depth: DeploymentDepth,
    pub concealed_elements: Vec<String>,
    /// Bounds before it may enter from its box (FYOW 15.7); 0 for the forces already there.
    pub joins_after_bounds: u8,
}

impl EngagedForce {
    fn from_occupant(o: &Occupant, size: BoardSize, joins_after_bounds: u8) -> Self {
        Self {
            force: o.force.clone(),
            side: o.side,
            kind: o.kind,
            points: o.points,
            box_edge: o.arrival_edge,
            on_board: o.place == Place::OnBoard,
            attitude: o.attitude.attitude(),
            may_deploy: can_deploy(o.kind, size),
            depth: if o.emplaced_coastal_gun { DeploymentDepth::Unlimited } else { DeploymentDepth::OneThird },
            concealed_elements: o.concealed_elements.clone(),
            joins_after_bounds,
        }
    }
}

/// A contact on a Map Board moved to the tabletop (FYOW 15.6): everything a table battle
/// needs from the campaign map. Serialisable, so a saved campaign can start the battle later.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Engagement {
    pub board: BoardId,
    pub board_name: String,
    pub kind: BoardKind,
    pub size: BoardSize,
    pub coast: Option<Coast>,
    pub detail: BoardDetail,
    pub session: SessionStamp,
    pub conditions: SessionConditions,
    pub forces: Vec<EngagedForce>,
}

impl Engagement {
    /// Starts a battle on `occupation`'s board between the named forces, which must all be
    /// there and include both sides. With several forces of a side stacked on the board the
    /// attacker names the one it attacks (FYOW 15.9).
    pub fn start(
        map: &CampaignMap,
        occupation: &BoardOccupation,
        forces: &[&str],
        session: SessionStamp,
        conditions: SessionConditions,
    ) -> Result<(Self, RuleEvent), MapError> {
        let board = map.board(&occupation.board)?;
        let occupants = forces.iter().map(|f| occupation.occupant(f)).collect::<Result<Vec<_>, _>>()?;
        for (i, f) in forces.iter().enumerate() {
            if forces[..i].contains(f) {
                return Err(MapError::NotAllowed(format!("{f} is named twice")));
            }
        }
        let sides: Vec<Side> = occupants.iter().map(|o| o.side).collect();
        if !(sides.contains(&Side::Blue) && sides.contains(&Side::Red)) {
            return Err(MapError::NotAllowed("an engagement needs forces of both sides (FYOW 15.6)".into()));
        }
        let engagement = Engagement {
            board: board.id.clone(),
            board_name: board.name.clone(),
            kind: board.kind,
            size: board.size,
            coast: board.coast,
            detail: board.detail.clone(),
            session,
            conditions,
            forces: occupants.iter().map(|o| EngagedForce::from_occupant(o, board.size, 0)).collect(),
        };
        let event = RuleEvent::new(
            EventKind::MapMovement,
            RuleRef::new(Book::FightYourOwnWars, "15.6 Engagements on Map Boards"),
        )
        .input("board", &board.id, "")
        .input("forces", forces, "")
        .input("session", session, "")
        .outcome(json!({ "to": "tabletop" }));
        Ok((engagement, event))
    }

    /// A force that passed its Movement Test joins the battle from its box
    /// (FYOW 15.7: "placed in the appropriate 'box' ready to join"). One
    /// already on the board but not in the battle joins from the box it
    /// owns (15.2), as the battle has begun without it.
    pub fn join(&mut self, occupant: &Occupant, timing: JoinTiming) -> Result<(), MapError> {
        if self.forces.iter().any(|f| f.force == occupant.force) {
            return Err(MapError::NotAllowed(format!("{} is already in the battle", occupant.force)));
        }
        let joiner =
            EngagedForce { on_board: false, ..EngagedForce::from_occupant(occupant, self.size, timing.bounds_delay()) };
        self.forces.push(joiner);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::board::tests::guernsey;
    use crate::map::occupation::tests::arriving;

    #[test]
    fn the_example_of_forces_joining_a_continuing_battle() {
        // Session 4: Red Fraction on BPC 6 (before both), Blue army on 9, a nearby Blue
        // Battlegroup on 11, and the engaged Red force "activates last of this little group".
        let (red_fraction, _) = join_timing(6, [9, 12]).unwrap();
        assert_eq!(red_fraction, JoinTiming::NextBound);
        let (blue_bg, event) = join_timing(11, [9, 12]).unwrap();
        assert_eq!(blue_bg, JoinTiming::AfterTwoBounds);
        assert_eq!(blue_bg.bounds_delay(), 2);
        assert_eq!(event.rule.section, "15.7 Engagements continuing across multiple sessions");
        assert_eq!(join_timing(13, [9, 12]).unwrap().0.bounds_delay(), 4);
        assert!(join_timing(9, [9, 12]).is_err());
    }

    #[test]
    fn an_engagement_carries_board_forces_boxes_weather_and_session() {
        let map = guernsey();
        let board = map.board(&BoardId::new("Vazon Bay")).unwrap();
        let mut occ = BoardOccupation::empty(board.id.clone());
        occ.arrive(board, 1200, arriving("1 Bn", Side::Blue, ForceKind::Battlegroup, 800, Edge::North)).unwrap();
        occ.arrive(board, 1200, arriving("Red F", Side::Red, ForceKind::Fraction, 300, Edge::East)).unwrap();
        occ.enter_board("Red F").unwrap();
        occ.arrive(board, 1200, arriving("Red 2", Side::Red, ForceKind::Fraction, 200, Edge::South)).unwrap();
        let session = SessionStamp::new(2, 4).unwrap();
        let weather = SessionConditions { fog: true, ..SessionConditions::fine_day() };
        let (mut e, event) = Engagement::start(&map, &occ, &["1 Bn", "Red F"], session, weather).unwrap();
        assert_eq!(event.kind, EventKind::MapMovement);
        assert_eq!(e.size, BoardSize::Half);
        assert_eq!(e.coast, Some(Coast::NonBeach));
        let bn = &e.forces[0];
        assert_eq!(
            (bn.box_edge, bn.on_board, bn.may_deploy),
            (Edge::North, false, false),
            "no Battlegroup deploys on a half board"
        );
        assert!(e.forces[1].may_deploy && e.forces[1].on_board);
        assert_eq!(e.forces[1].depth, DeploymentDepth::OneThird);
        e.join(occ.occupant("Red 2").unwrap(), JoinTiming::AfterTwoBounds).unwrap();
        assert_eq!(e.forces[2].joins_after_bounds, 2);
        assert!(e.join(occ.occupant("Red F").unwrap(), JoinTiming::NextBound).is_err());
        let text = ron::to_string(&e).unwrap();
        assert_eq!(ron::from_str::<Engagement>(&text).unwrap(), e);
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(serde_json::from_str::<Engagement>(&json).unwrap(), e);
    }

    #[test]
    fn an_engagement_needs_both_sides_present() {
        let map = guernsey();
        let board = map.board(&BoardId::new("Castel")).unwrap();
        let mut occ = BoardOccupation::empty(board.id.clone());
        occ.arrive(board, 1200, arriving("1 Bn", Side::Blue, ForceKind::Battlegroup, 800, Edge::West)).unwrap();
        let s = SessionStamp::new(1, 1).unwrap();
        let c = SessionConditions::fine_day();
        assert!(Engagement::start(&map, &occ, &["1 Bn"], s, c).is_err());
        assert!(matches!(Engagement::start(&map, &occ, &["1 Bn", "ghost"], s, c), Err(MapError::UnknownForce(_))));
        occ.arrive(board, 1200, arriving("R", Side::Red, ForceKind::Battlegroup, 800, Edge::East)).unwrap();
        occ.occupants[1].emplaced_coastal_gun = true;
        let (e, _) = Engagement::start(&map, &occ, &["1 Bn", "R"], s, c).unwrap();
        assert_eq!(e.forces[1].depth, DeploymentDepth::Unlimited);
    }
}
