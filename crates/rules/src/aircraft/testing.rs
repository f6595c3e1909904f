//! Aircraft types and machines over the table for the aircraft tests.

use super::{Aircraft, AircraftType, Height, Role, Speed, enter_table};

pub(super) fn kind(role: Role, speed: Speed, strength: u8) -> AircraftType {
    AircraftType {
        name: "test".into(),
        role,
        speed,
        strength,
        mmg: 0,
        hmg: 0,
        cannon: 0,
        at_cannon: 0,
        rockets: 0,
        bombs: None,
    }
}

pub(super) fn flying(k: AircraftType, h: Height) -> Aircraft {
    let mut a = Aircraft::new(k, h);
    enter_table(&mut a).unwrap();
    a
}
