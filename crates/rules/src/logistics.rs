//! *Heroes All*, "Logistics" and "The effect of Supply on firing weapons",
//! with the 2020 addendum "Forces acting whilst rationed": the day's
//! allowance of firing bounds by weapon ([`ShotsPerDay`] from the CODEX),
//! what rationing does to it, the fuel throw after a rationed vehicle moves,
//! no grenades and no "at the double", work and task requirements doubled,
//! and abandoned vehicles. Continuous Momentum tests doubled and no CMS
//! rallying throws are applied where the tests are taken
//! ([`crate::momentum::reduce`], [`crate::momentum::rally`], their `rationed` flag).

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::codex::{BOUNDS_PER_DAY, ShotsPerDay};
use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::firing::Weapon;
use crate::officer::{self, Officer};

/// The force's logistical state, set by the scenario or the campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Supply {
    /// "No movement penalties ... only the normal restrictions on ammunition."
    Full,
    Rationed,
}

/// Bad input to a logistics rule, or an action rationing forbids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SupplyError {
    /// "Rifle grenade launchers and hand grenades are not available for use
    /// if the force is 'rationed'."
    NoGrenadesWhenRationed(Weapon),
    /// The weapon has fired in all the bounds it is allowed today.
    OutOfAmmunition,
    /// "Any element capable of an 'at the double' move ... is unable to
    /// execute this whilst in rationed mode."
    NoDoubleWhenRationed,
    /// Carried-forward bounds above what the weapon may hold.
    CarriedTooMany { carried: u8, max: u8 },
}

impl fmt::Display for SupplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for SupplyError {}

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::HeroesAll, section)
}

/// The grenade rows the rationed state takes away.
///
/// Reading: AT grenades are hand grenades, thrown by hand; they go with them
/// (test `rationed_force_has_no_grenades`).
pub const fn grenade_row(weapon: Weapon) -> bool {
    matches!(weapon, Weapon::RifleGrenadeLauncher | Weapon::HandGrenades | Weapon::AtGrenades)
}

/// "1 use of grenades per day per 3 men of a platoon".
///
/// Reading: every 3 men or part of 3 give a use, so a section of 2 still has
/// one (test `grenade_uses_per_three_men`).
pub const fn grenade_uses(men: u8) -> u8 {
    men.div_ceil(3)
}

/// The firing bounds a weapon has for a day, by supply.
///
/// Fully supplied: the CODEX's bounds ("This figure represents the number of
/// bounds that the weapon can fire in, not the number of shots"), grenades by
/// the men, unlimited small arms unlimited. Rationed: "halved (rounded up)";
/// grenades and rifle grenades none.
///
/// Reading (README contradiction, unlimited weapons when rationed): *Heroes
/// All* "The effect of Supply" says they fire only when a D6 avoids 1–2
/// before firing; the 2020 addendum says "Each element ... with unlimited
/// ammunition can only fire in half the number of bounds". The addendum is
/// the later word and is followed: unlimited means every bound of the
/// 24-bound day, so rationed it is 12 bounds (test
/// `reading_unlimited_weapons_fire_in_half_the_bounds_when_rationed`).
///
/// Reading (limited weapons): the addendum adds that "the total shown on the
/// Cardsheet is carried forward and not topped back up"; both rules hold, so
/// a rationed day begins with what was carried forward, no more than half the
/// CODEX allowance (test `rationed_day_carries_forward_and_halves`).
pub fn day_allowance(
    weapon: Weapon,
    shots: ShotsPerDay,
    men: u8,
    supply: Supply,
    carried: Option<u8>,
) -> Result<Option<u8>, SupplyError> {
    let full = match shots {
        ShotsPerDay::Unlimited => None,
        ShotsPerDay::Bounds(n) => Some(n),
        ShotsPerDay::PerThreeMen => Some(grenade_uses(men)),
    };
    if supply == Supply::Full {
        return Ok(full);
    }
    if grenade_row(weapon) {
        return Err(SupplyError::NoGrenadesWhenRationed(weapon));
    }
    let halved = full.unwrap_or(BOUNDS_PER_DAY).div_ceil(2);
    match carried {
        Some(c) if c > full.unwrap_or(BOUNDS_PER_DAY) => {
            Err(SupplyError::CarriedTooMany { carried: c, max: full.unwrap_or(BOUNDS_PER_DAY) })
        }
        Some(c) => Ok(Some(c.min(halved))),
        None => Ok(Some(halved)),
    }
}

/// A weapon's firing bounds left today (`None`: unlimited).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ammunition {
    pub left: Option<u8>,
}

impl Ammunition {
    /// Spends one bound of fire ("the total number of bounds on which that
    /// weapon may shoot").
    pub fn fire_bound(&mut self) -> Result<(), SupplyError> {
        match &mut self.left {
            None => Ok(()),
            Some(0) => Err(SupplyError::OutOfAmmunition),
            Some(n) => {
                *n -= 1;
                Ok(())
            }
        }
    }
}

/// "Any element capable of an 'at the double' move on the game table is
/// unable to execute this whilst in rationed mode."
pub fn at_the_double(supply: Supply) -> Result<(), SupplyError> {
    match supply {
        Supply::Full => Ok(()),
        Supply::Rationed => Err(SupplyError::NoDoubleWhenRationed),
    }
}

/// The addendum's fuel throw: 2D6 after a rationed vehicle moves, "less than 5".
pub const OUT_OF_FUEL_BELOW: u8 = 5;

/// What a fuel throw left the vehicle as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fuel {
    Running,
    /// "Run out of petrol and is unable to move further. This counts as light
    /// damage for CMS purposes and may result in the vehicle being abandoned."
    OutOfFuel,
}

/// Throws 2D6 after a rationed vehicle's move.
///
/// Reading (README contradiction, fuel when rationed): *Heroes All*
/// "Logistics" runs a vehicle dry on a double; the 2020 addendum "Forces
/// acting whilst rationed" on a score less than 5; FYOW 20.7.1 on 5 or less.
/// FYOW 20.7.1 is the map move of a whole Battlegroup and stays with the
/// campaign. On the table the addendum, the later word, governs: less than 5
/// (2–4, 6 chances in 36, the same odds as a double), and the loss counts as
/// light damage for CMS (test `reading_fuel_runs_out_below_five_not_on_a_double`).
pub fn fuel_check(supply: Supply, dice: &mut impl Roll, id: &str) -> (Fuel, Option<RuleEvent>) {
    if supply == Supply::Full {
        return (Fuel::Running, None);
    }
    let faces = [dice.d6(), dice.d6()];
    let score = faces[0] + faces[1];
    let fuel = if score < OUT_OF_FUEL_BELOW { Fuel::OutOfFuel } else { Fuel::Running };
    let e = RuleEvent::new(EventKind::Movement, rule("Forces acting whilst rationed"))
        .actor(id)
        .input("below", OUT_OF_FUEL_BELOW, "2020 addendum: a score less than 5 runs out of petrol")
        .dice(6, &faces)
        .outcome(
            json!({ "score": score, "fuel": fuel, "cms": if fuel == Fuel::OutOfFuel { "light damage" } else { "" } }),
        );
    (fuel, Some(e))
}

/// Work and Task dice requirements: "The requirements for Work and Task
/// dice throws are doubled" when rationed.
///
/// Reading (README contradiction): the addendum and FYOW 20.7.3 double them;
/// FYOW 31.1 adds 50%. On the table the addendum governs, doubled; the +50%
/// stays with the campaign's Work & Tasks (test `work_and_tasks_doubled_when_rationed`).
pub const fn work_requirement(base: u32, supply: Supply) -> u32 {
    match supply {
        Supply::Full => base,
        Supply::Rationed => base * 2,
    }
}

/// "Abandoned vehicles can be destroyed by their owners if the BC passes a
/// Leadership Test."
pub fn destroy_abandoned(bc: Officer, dice: &mut impl Roll, id: &str) -> (bool, RuleEvent) {
    let (test, e) = officer::leadership_test(bc, dice, id);
    (test.passed, e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::officer::{Grade, Rank};

    fn spd(w: Weapon) -> ShotsPerDay {
        ShotsPerDay::for_row(w)
    }

    #[test]
    fn normal_allowances_come_from_the_codex() {
        let full = |w| day_allowance(w, spd(w), 10, Supply::Full, None).unwrap();
        assert_eq!(full(Weapon::Rifle), None);
        assert_eq!(full(Weapon::Mmg), Some(8));
        assert_eq!(full(Weapon::Hmg), Some(6));
        assert_eq!(full(Weapon::Piat), Some(5));
        assert_eq!(full(Weapon::HandGrenades), Some(4), "10 men: 4 uses");
    }

    #[test]
    fn rationed_rounds_are_halved_rounded_up() {
        let r = |w| day_allowance(w, spd(w), 10, Supply::Rationed, None).unwrap();
        assert_eq!(r(Weapon::Mmg), Some(4));
        assert_eq!(r(Weapon::Piat), Some(3), "5 halved, rounded up");
        assert_eq!(r(Weapon::ManpackFlamethrower), Some(2), "3 halved, rounded up");
        assert_eq!(day_allowance(Weapon::Howitzer149, ShotsPerDay::Bounds(7), 0, Supply::Rationed, None), Ok(Some(4)));
    }

    #[test]
    fn rationed_force_has_no_grenades() {
        for w in [Weapon::HandGrenades, Weapon::RifleGrenadeLauncher, Weapon::AtGrenades] {
            assert_eq!(
                day_allowance(w, spd(w), 9, Supply::Rationed, None),
                Err(SupplyError::NoGrenadesWhenRationed(w))
            );
        }
    }

    #[test]
    fn grenade_uses_per_three_men() {
        assert_eq!((grenade_uses(2), grenade_uses(3), grenade_uses(4), grenade_uses(9)), (1, 1, 2, 3));
    }

    #[test]
    fn reading_unlimited_weapons_fire_in_half_the_bounds_when_rationed() {
        assert_eq!(day_allowance(Weapon::Rifle, spd(Weapon::Rifle), 10, Supply::Rationed, None), Ok(Some(12)));
        let mut a = Ammunition { left: None };
        assert!((0..50).all(|_| a.fire_bound().is_ok()), "unlimited when supplied");
    }

    #[test]
    fn rationed_day_carries_forward_and_halves() {
        assert_eq!(day_allowance(Weapon::Mmg, spd(Weapon::Mmg), 0, Supply::Rationed, Some(2)), Ok(Some(2)));
        assert_eq!(day_allowance(Weapon::Mmg, spd(Weapon::Mmg), 0, Supply::Rationed, Some(7)), Ok(Some(4)));
        assert_eq!(
            day_allowance(Weapon::Mmg, spd(Weapon::Mmg), 0, Supply::Rationed, Some(9)),
            Err(SupplyError::CarriedTooMany { carried: 9, max: 8 })
        );
        let mut a = Ammunition { left: Some(1) };
        assert_eq!(a.fire_bound(), Ok(()));
        assert_eq!(a.fire_bound(), Err(SupplyError::OutOfAmmunition));
    }

    #[test]
    fn reading_fuel_runs_out_below_five_not_on_a_double() {
        assert_eq!(fuel_check(Supply::Rationed, &mut Scripted::new([2, 2]), "v").0, Fuel::OutOfFuel);
        assert_eq!(
            fuel_check(Supply::Rationed, &mut Scripted::new([3, 2]), "v").0,
            Fuel::Running,
            "5 is not less than 5"
        );
        assert_eq!(
            fuel_check(Supply::Rationed, &mut Scripted::new([6, 6]), "v").0,
            Fuel::Running,
            "a double is no longer dry"
        );
        let (f, e) = fuel_check(Supply::Full, &mut Scripted::new([]), "v");
        assert_eq!((f, e), (Fuel::Running, None));
    }

    #[test]
    fn no_at_the_double_when_rationed() {
        assert_eq!(at_the_double(Supply::Full), Ok(()));
        assert_eq!(at_the_double(Supply::Rationed), Err(SupplyError::NoDoubleWhenRationed));
    }

    #[test]
    fn work_and_tasks_doubled_when_rationed() {
        assert_eq!(work_requirement(90, Supply::Rationed), 180);
        assert_eq!(work_requirement(90, Supply::Full), 90);
    }

    #[test]
    fn abandoned_vehicles_need_the_bcs_leadership_test() {
        let bc = Officer::new(Rank::CompanyOfficer, Grade::Regular).unwrap();
        assert!(destroy_abandoned(bc, &mut Scripted::new([4]), "BC").0);
        assert!(!destroy_abandoned(bc, &mut Scripted::new([5]), "BC").0);
    }
}
