//! Where an element stands for the Continuous Momentum Total and the deck
//! (on the table, in reserve, in the box, exited by design, lost), and FYOB's
//! "under fire".

use serde::{Deserialize, Serialize};

use super::CommandError;
use crate::firing::{FireError, WeaponRange};
use crate::inches::Inches;
use crate::strategic::{StrategicError, cmt};

/// Where an element stands for the Continuous Momentum Total and the deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Presence {
    OnTable,
    /// Held off table in reserve.
    Reserve,
    /// Withdrawn into the "box" (by its CMS or voluntarily).
    Box,
    /// Left by an exit point the game's objectives set ("Elements exiting the
    /// table by design").
    Exited,
    /// Destroyed, surrendered or otherwise ceased to exist.
    Lost,
}

/// FYOB "Continuous Momentum Total", "Destruction or withdrawal of an
/// element", "Elements exiting the table by design": (presence, counts in
/// the CMT, gets an OPC). Exited elements keep their CMS in the CMT but are
/// no longer on the table to be dealt a card.
const PRESENCE: [(Presence, bool, bool); 5] = [
    (Presence::OnTable, true, true),
    (Presence::Reserve, false, false),
    (Presence::Box, false, false),
    (Presence::Exited, true, false),
    (Presence::Lost, false, false),
];

impl Presence {
    pub fn counts_in_cmt(self) -> bool {
        PRESENCE.iter().find(|r| r.0 == self).is_some_and(|r| r.1)
    }

    pub fn gets_opc(self) -> bool {
        PRESENCE.iter().find(|r| r.0 == self).is_some_and(|r| r.2)
    }
}

/// The force's CMT from every element's presence and CMS.
pub fn force_cmt(elements: &[(Presence, u8)]) -> Result<u32, StrategicError> {
    let counted: Vec<u8> = elements.iter().filter(|(p, _)| p.counts_in_cmt()).map(|&(_, s)| s).collect();
    cmt(&counted)
}

/// FYOB "Definition of 'Under fire'": "An element is 'under fire' if the
/// weapon shooting at them is within range and has the capability of taking
/// casualties or inflicting damage even though any shot has not caused
/// either." `can_harm` is whether the weapon could hurt this target at all
/// (rifles against a closed tank cannot). A target inside a mortar's minimum
/// range cannot be shot at, so is not under its fire.
pub fn under_fire(range: WeaponRange, distance: Inches, can_harm: bool) -> Result<bool, CommandError> {
    match range.band(distance) {
        Ok(_) => Ok(can_harm),
        Err(FireError::OutOfRange | FireError::TooClose) => Ok(false),
        Err(e) => Err(CommandError::Fire(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exited_elements_keep_their_cms_in_the_cmt_but_get_no_card() {
        let force = [
            (Presence::OnTable, 6),
            (Presence::Exited, 5),
            (Presence::Box, 1),
            (Presence::Reserve, 6),
            (Presence::Lost, 3),
        ];
        assert_eq!(force_cmt(&force), Ok(11));
        assert!(Presence::OnTable.gets_opc() && !Presence::Exited.gets_opc() && !Presence::Reserve.gets_opc());
        assert_eq!(force_cmt(&[(Presence::Exited, 7)]), Err(StrategicError::CmsOutOfRange(7)));
    }

    #[test]
    fn under_fire_within_range_from_a_weapon_that_could_harm() {
        let rifle = WeaponRange::Bands { short: Some(6), effective: 18, long: Some(crate::firing::Reach::Inches(36)) };
        assert_eq!(under_fire(rifle, Inches(30.0), true), Ok(true), "even though the shot caused nothing");
        assert_eq!(under_fire(rifle, Inches(37.0), true), Ok(false));
        assert_eq!(under_fire(rifle, Inches(10.0), false), Ok(false), "rifles against a closed tank");
        let mortar = WeaponRange::Span { min: 6, max: crate::firing::Reach::Inches(24) };
        assert_eq!(under_fire(mortar, Inches(4.0), true), Ok(false));
        assert_eq!(under_fire(mortar, Inches(-1.0), true), Err(CommandError::Fire(FireError::BadDistance)));
    }
}
