//! Air Command (*Heroes All* "Aircraft rules", "Morale"): who may fly a
//! pre-game bombardment, Air Command's Continuous Momentum, and the 2-player
//! morale throws for aircraft lost.

use serde_json::json;

use super::{AirError, AircraftType, Role, rule};
use crate::dice::Roll;
use crate::event::{EventKind, RuleEvent};

/// "Light and/or medium bombers can be scheduled for a pre-game
/// bombardment"; the OPCs used are "those aircraft involved (including
/// fighters) plus any active dedicated AA elements on the table".
pub fn pre_game_role(role: Role) -> Result<(), AirError> {
    match role {
        Role::LightBomber | Role::MediumBomber | Role::Fighter => Ok(()),
        other => Err(AirError::NotForPreGame(other)),
    }
}

/// Air Command's Continuous Momentum score: "the total of the strength
/// factors of all aircraft", pre-game aircraft included.
pub fn air_command_cms(aircraft: &[AircraftType]) -> u32 {
    aircraft.iter().map(|a| u32::from(a.strength)).sum()
}

/// *Heroes All*, "Continuous Momentum for Aircraft": on activation, "1D6 for
/// each 'damage' suffered since the last activation. A score of 1, 2 or 3
/// reduces his Continuous Momentum score by that number. Throws of 4, 5 or 6
/// are ignored." At 0 he "will withdraw all of his remaining aircraft".
/// Returns the new score and whether he withdraws.
pub fn air_command_cm(cms: u32, damages: u32, dice: &mut impl Roll, id: &str) -> (u32, bool, RuleEvent) {
    let faces = dice.throw(damages as usize, 6);
    let loss: u32 = faces.iter().filter(|&&f| f <= 3).map(|&f| u32::from(f)).sum();
    let after = cms.saturating_sub(loss);
    let e = RuleEvent::new(EventKind::CmTests, rule("Continuous Momentum for Aircraft"))
        .actor(id)
        .input("cms", cms, "")
        .input("damages", damages, "1D6 each since the last activation")
        .dice(6, &faces)
        .outcome(json!({ "cms": after, "withdraws": after == 0 }));
    (after, after == 0, e)
}

/// The 2-player morale throws: "For each aircraft driven off, throw 1D6. If
/// the resultant throw is a '1', the element is unable to take any action";
/// "For each aircraft shot down, throw 1D6. If the resultant throw scores a
/// '1', the Air Command withdraws his machines." True when a 1 is thrown.
pub fn air_morale(count: u8, shot_down: bool, dice: &mut impl Roll, id: &str) -> (bool, RuleEvent) {
    let faces = dice.throw(usize::from(count), 6);
    let failed = faces.contains(&1);
    let e = RuleEvent::new(EventKind::Morale, rule("Morale"))
        .actor(id)
        .input(
            "aircraft",
            count,
            if shot_down { "shot down: a 1 withdraws Air Command" } else { "driven off: a 1 stops the element" },
        )
        .dice(6, &faces)
        .outcome(json!({ "failed": failed }));
    (failed, e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aircraft::testing::kind;
    use crate::aircraft::{
        AirMove, Aircraft, GROUNDED_AIRCRAFT_TARGETS, GROUNDED_ARMOUR, Height, Position, Speed, air_move,
        check_air_turn,
    };
    use crate::dice::Scripted;
    use crate::effects::ArmourClass;
    use crate::order_dice::Phase;

    #[test]
    fn pre_game_and_air_command_momentum() {
        assert!(pre_game_role(Role::LightBomber).is_ok() && pre_game_role(Role::Fighter).is_ok());
        assert_eq!(pre_game_role(Role::HeavyBomber), Err(AirError::NotForPreGame(Role::HeavyBomber)));
        let cms = air_command_cms(&[kind(Role::Fighter, Speed::Fast, 2), kind(Role::MediumBomber, Speed::Normal, 3)]);
        assert_eq!(cms, 5);
        let (after, withdraw, _) = air_command_cm(cms, 3, &mut Scripted::new([1, 5, 3]), "AC");
        assert_eq!((after, withdraw), (1, false), "1 and 3 count, 5 is ignored");
        let (after, withdraw, _) = air_command_cm(after, 1, &mut Scripted::new([2]), "AC");
        assert_eq!((after, withdraw), (0, true));
    }

    #[test]
    fn morale_and_aircraft_on_the_ground() {
        assert!(air_morale(2, true, &mut Scripted::new([4, 1]), "AC").0);
        assert!(!air_morale(1, false, &mut Scripted::new([2]), "el").0);
        let mut a = Aircraft::new(kind(Role::Transport, Speed::Slow, 2), Height::Medium);
        a.position = Position::OnGround;
        assert_eq!(check_air_turn(&a, &[Phase::Fire], &[]), Err(AirError::OnTheGround));
        assert_eq!(air_move(&mut a, AirMove::TakeOff(Height::Medium)), Ok(Position::Box(Height::Medium)));
        assert_eq!(GROUNDED_AIRCRAFT_TARGETS, 12);
        assert_eq!(GROUNDED_ARMOUR, ArmourClass::SoftSkinned);
    }
}
