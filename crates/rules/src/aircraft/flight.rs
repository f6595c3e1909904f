//! An aircraft in flight: where it is (the box, over the table, driven off,
//! shot down, on the ground), the Squadron Leader, entering the table, the
//! Order Die's move and act options, and aircraft on the ground.

use serde::{Deserialize, Serialize};

use super::{AirError, AircraftType, Height, Role};
use crate::effects::ArmourClass;
use crate::order_dice::Phase;

/// Where an aircraft is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// On the friendly edge: "In this position, they are referred to as being
    /// in the 'box'." The height it flies at is kept.
    Box(Height),
    OverTable(Height),
    /// Driven off until the bound given.
    DrivenOff {
        until: u32,
    },
    ShotDown,
    /// "Aircraft on the ground": a soft-skinned vehicle that may not use its guns.
    OnGround,
}

/// One machine of a squadron.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aircraft {
    pub kind: AircraftType,
    /// Strength left: below 0 is shot down.
    pub strength: i8,
    pub position: Position,
    /// Made a ground attack this bound (AA adds a D6, spotting is automatic).
    pub attacked_ground: bool,
}

impl Aircraft {
    /// A machine arriving in the box at the height it will fly.
    pub fn new(kind: AircraftType, height: Height) -> Self {
        let strength = kind.strength as i8;
        Self { kind, strength, position: Position::Box(height), attacked_ground: false }
    }

    /// "Increased by 1 if the firing aircraft is damaged": strength below its start.
    pub fn damaged(&self) -> bool {
        self.strength < self.kind.strength as i8
    }

    pub fn in_action(&self) -> bool {
        matches!(self.position, Position::Box(_) | Position::OverTable(_))
    }

    pub fn height(&self) -> Option<Height> {
        match self.position {
            Position::Box(h) | Position::OverTable(h) => Some(h),
            _ => None,
        }
    }

    pub(super) fn over_table(&self) -> Result<Height, AirError> {
        match self.position {
            Position::OverTable(h) => Ok(h),
            Position::ShotDown => Err(AirError::ShotDown),
            Position::OnGround => Err(AirError::OnTheGround),
            _ => Err(AirError::NotOverTable),
        }
    }
}

/// The Squadron Leader: "If the Squadron Leader is shot down or driven off,
/// the second aircraft in the squadron takes over automatically" — the first
/// machine, in squadron order, still in action.
pub fn squadron_leader(squadron: &[Aircraft]) -> Option<usize> {
    squadron.iter().position(Aircraft::in_action)
}

/// "If the pilot passes his ORT, the aircraft must move onto the table
/// automatically before the Order Die is thrown": from the box to over the
/// table at its height.
pub fn enter_table(a: &mut Aircraft) -> Result<(), AirError> {
    match a.position {
        Position::Box(h) => {
            a.position = Position::OverTable(h);
            Ok(())
        }
        Position::OverTable(_) => Err(AirError::AlreadyOverTable),
        Position::ShotDown => Err(AirError::ShotDown),
        _ => Err(AirError::NotOverTable),
    }
}

/// A **move** order's choices for an aircraft over the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AirMove {
    /// "Move back into the 'box' to avoid AA fire".
    ToBox,
    /// "Move from one operating height to another."
    ToHeight(Height),
    /// Take off or land: "Aircraft on the ground ... may take off (or land) on
    /// a move order and are then placed in the 'box' until activated again."
    TakeOff(Height),
    Land,
    /// Refused: "Aircraft cannot move 'at the double'".
    AtTheDouble,
}

/// *Heroes All*, "Order Die options", Move.
pub fn air_move(a: &mut Aircraft, mv: AirMove) -> Result<Position, AirError> {
    let next = match (mv, a.position) {
        (AirMove::AtTheDouble, _) => return Err(AirError::AtTheDouble),
        (AirMove::TakeOff(h), Position::OnGround) => Position::Box(h),
        (AirMove::Land, Position::OverTable(_) | Position::Box(_)) => Position::OnGround,
        (AirMove::ToBox, Position::OverTable(h)) => Position::Box(h),
        (AirMove::ToHeight(to), Position::OverTable(h)) if to == h => return Err(AirError::SameHeight(h)),
        (AirMove::ToHeight(to), Position::OverTable(_)) => Position::OverTable(to),
        (_, Position::ShotDown) => return Err(AirError::ShotDown),
        (_, Position::OnGround) => return Err(AirError::OnTheGround),
        _ => return Err(AirError::NotOverTable),
    };
    a.position = next;
    Ok(next)
}

/// What an aircraft's one act may be ("Act" option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AirAct {
    SpotAircraft,
    AcquireGroundTarget,
    /// "It can use its act to 'aim' if it is firing at ground targets."
    Aim,
}

/// "Aircraft get 1 act per bound."
pub const AIR_ACTS_PER_BOUND: usize = 1;

/// Checks an aircraft's turn: its phases (the ordered one first, as for any
/// element) and acts: one act, only "providing it is over the table".
pub fn check_air_turn(a: &Aircraft, phases: &[Phase], acts: &[AirAct]) -> Result<(), AirError> {
    if acts.len() > AIR_ACTS_PER_BOUND {
        return Err(AirError::TooManyActs(acts.len()));
    }
    if !acts.is_empty() || phases.contains(&Phase::Fire) {
        a.over_table()?;
    }
    Ok(())
}

/// After a dive bomber's attack it "is considered to be at low level".
pub fn after_attack(a: &mut Aircraft) {
    a.attacked_ground = true;
    if a.kind.role == Role::DiveBomber
        && let Position::OverTable(_) = a.position
    {
        a.position = Position::OverTable(Height::Low);
    }
}

/// "A landing craft/grounded aircraft etc counts as 12 targets" when observed.
pub const GROUNDED_AIRCRAFT_TARGETS: u32 = 12;

/// "If fired at when on the ground, treat an aircraft as a soft-skinned vehicle."
pub const GROUNDED_ARMOUR: ArmourClass = ArmourClass::SoftSkinned;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aircraft::testing::{flying, kind};
    use crate::aircraft::{Role, SQUADRON, Speed};

    #[test]
    fn arrival_box_moves_and_acts() {
        let mut a = Aircraft::new(kind(Role::Fighter, Speed::Fast, 2), Height::Medium);
        assert_eq!(a.position, Position::Box(Height::Medium));
        assert_eq!(check_air_turn(&a, &[Phase::Act], &[AirAct::SpotAircraft]), Err(AirError::NotOverTable));
        enter_table(&mut a).unwrap();
        assert_eq!(enter_table(&mut a), Err(AirError::AlreadyOverTable));
        assert_eq!(check_air_turn(&a, &[Phase::Act], &[AirAct::SpotAircraft]), Ok(()));
        assert_eq!(check_air_turn(&a, &[Phase::Act], &[AirAct::Aim, AirAct::Aim]), Err(AirError::TooManyActs(2)));
        assert_eq!(air_move(&mut a, AirMove::AtTheDouble), Err(AirError::AtTheDouble));
        assert_eq!(air_move(&mut a, AirMove::ToHeight(Height::Medium)), Err(AirError::SameHeight(Height::Medium)));
        assert_eq!(air_move(&mut a, AirMove::ToHeight(Height::Low)), Ok(Position::OverTable(Height::Low)));
        assert_eq!(air_move(&mut a, AirMove::ToBox), Ok(Position::Box(Height::Low)));
        assert_eq!(air_move(&mut a, AirMove::ToBox), Err(AirError::NotOverTable));
    }

    #[test]
    fn second_aircraft_takes_over_as_squadron_leader() {
        let k = kind(Role::GroundAttack, Speed::Normal, 1);
        let mut sq = vec![
            Aircraft::new(k.clone(), Height::Low),
            Aircraft::new(k.clone(), Height::Low),
            Aircraft::new(k, Height::Low),
        ];
        assert_eq!(squadron_leader(&sq), Some(0));
        sq[0].position = Position::DrivenOff { until: 5 };
        assert_eq!(squadron_leader(&sq), Some(1));
        sq[1].position = Position::ShotDown;
        sq[2].position = Position::ShotDown;
        assert_eq!(squadron_leader(&sq), None);
        assert_eq!(SQUADRON, 3);
    }

    #[test]
    fn dive_bomber_is_at_low_level_after_its_attack() {
        let mut a = flying(kind(Role::DiveBomber, Speed::Slow, 2), Height::Medium);
        after_attack(&mut a);
        assert_eq!(a.position, Position::OverTable(Height::Low));
        let mut b = flying(kind(Role::MediumBomber, Speed::Normal, 3), Height::Medium);
        after_attack(&mut b);
        assert_eq!(b.position, Position::OverTable(Height::Medium));
        assert!(b.attacked_ground);
    }
}
