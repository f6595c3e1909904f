//! *Heroes All* "Assaults": 1-on-1 attacks, close assaults into buildings and
//! defensive positions (grenades, rounds of close fire, the defenders'
//! retirement), coming up short, assaults on AFVs and vehicles with AT and HE
//! grenades and the split stealth move; and the demolition weapons of
//! "Firing weapons" (the petard mortar and the Goliath's charge) and the
//! sniper's movement. Sniper fire is in [`crate::firing`], sniper concealment
//! in [`crate::concealment`], the Goliath's movement in [`crate::movement`].
//!
//! FYOB governs who may assault: an infantry element at a Continuous
//! Momentum score of 4 or less "cannot assault" (FYOB "Continuous Momentum
//! Score"), and since "any assault takes place in a Fire phase" (HA) an
//! element whose Momentum Tests this bound forbid firing cannot assault either.
//! Its throws are recorded as `assault` events (the petard's to-hit as `fire`).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::buildings::HeHit;
use crate::dice::Roll;
use crate::effects::{self, ArmourClass, AtResult, Facing, HeColumn, VehicleState};
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::firing::{Cover, FireTarget, OpenSightsFire, Weapon, grenades};
use crate::momentum::{self, CmCause, ElementType};
use crate::movement::MoveMode;
use crate::observation::Momentum;
use crate::officer::Quality;
use crate::opc::Nation;

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::HeroesAll, section)
}

/// Bad input to an assault, or an assault the rules forbid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssaultError {
    /// "CSW crews cannot be involved with assaults."
    CswCrew,
    /// FYOB: at a CMS of 4 or less infantry "cannot assault".
    CmsForbids(u8),
    /// This bound's Momentum Tests forbid firing, and an assault is fire.
    MomentumForbids(u32),
    /// A CMS above 6.
    CmsOutOfRange(u8),
    /// The platoon has no grenades to throw.
    NoGrenades(GrenadeSupply),
    /// "These 2 Germans cannot assault the tank using AT grenades as 3 figures are required."
    TooFewFigures(u8),
    /// A 1-on-1 attack is "a single attacker … on a single defender/guard".
    NotOneOnOne { attackers: u8, defenders: u8 },
    /// The vehicle cannot be assaulted now.
    NotAssailable(Unassailable),
    /// A closed AFV must have armour (a soft-skin is its own target).
    ClosedAfvIsSoftSkinned,
    /// The split move to and from the AFV is longer than the stealth move allows.
    SplitMoveTooLong { moved: u32, allowed: u32 },
    /// A distance that is negative or not a number.
    BadDistance,
    /// A petard "may only target buildings and bunkers".
    PetardTarget,
    /// Beyond the petard's 6 inches.
    OutOfRange,
    /// Beyond the Goliath's 24 inches from its start point.
    GoliathRange,
    /// No attackers, or a team that is nobody.
    NoOne,
    /// The building is full: no attacker can enter.
    BuildingFull,
}

impl fmt::Display for AssaultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::CswCrew => write!(f, "CSW crews cannot be involved with assaults"),
            Self::CmsForbids(c) => write!(f, "infantry at a Continuous Momentum score of {c} cannot assault"),
            Self::MomentumForbids(n) => write!(f, "{n} Momentum Test failures this bound forbid firing, so no assault"),
            Self::CmsOutOfRange(c) => write!(f, "Continuous Momentum score {c} is outside 0..=6"),
            Self::NoGrenades(s) => write!(f, "no grenades to throw: {s:?}"),
            Self::TooFewFigures(n) => write!(f, "{n} figures: 3 are required for each grenade"),
            Self::NotOneOnOne { attackers, defenders } => {
                write!(f, "a 1-on-1 attack is one against one, not {attackers} against {defenders}")
            }
            Self::NotAssailable(why) => write!(f, "the vehicle cannot be assaulted: {why:?}"),
            Self::ClosedAfvIsSoftSkinned => write!(f, "a closed AFV needs an armour class; assault a soft-skin as one"),
            Self::SplitMoveTooLong { moved, allowed } => {
                write!(f, "split move of {moved} inches exceeds the stealth move of {allowed}")
            }
            Self::BadDistance => write!(f, "distances must be finite and not negative"),
            Self::PetardTarget => write!(f, "petard mortars may only target buildings and bunkers"),
            Self::OutOfRange => write!(f, "beyond the petard's 6 inches"),
            Self::GoliathRange => write!(f, "a Goliath's range from the start point is 24 inches"),
            Self::NoOne => write!(f, "no figures to make the assault"),
            Self::BuildingFull => write!(f, "the building is full: the maximum capacity cannot be exceeded"),
        }
    }
}

impl std::error::Error for AssaultError {}

/// Whether an infantry element may assault this bound: FYOB "Continuous
/// Momentum Score" (4 or less: "Infantry elements cannot assault") and
/// "Results of Momentum Tests this bound" (no fire means no assault, which
/// "takes place in a **Fire** phase"). A CSW crew never may.
///
/// Reading: the assault is the element's fire, so the same tests that stop it
/// firing stop it assaulting (test `momentum_and_csw_crews_bar_assaults`).
pub fn may_assault(cms: u8, failures_this_bound: u32, csw_crew: bool) -> Result<(), AssaultError> {
    if csw_crew {
        return Err(AssaultError::CswCrew);
    }
    let effects = momentum::cms_effects(ElementType::Infantry, cms).map_err(|_| AssaultError::CmsOutOfRange(cms))?;
    if !effects.can_assault {
        return Err(AssaultError::CmsForbids(cms));
    }
    if !momentum::band_for(failures_this_bound).can_fire {
        return Err(AssaultError::MomentumForbids(failures_this_bound));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// 1-on-1 attacks

/// "The attacker throws a D6 and successfully assaults with a score of 3+."
pub const ONE_ON_ONE_SUCCESS: u8 = 3;
/// "the defender/guard can fight back and beat the attacker with a throw of 4+ on a D6 (unmodified)".
pub const FIGHT_BACK: u8 = 4;
/// "alerts friendly troops within 12 inches on a D6 throw of 2+".
pub const ALERT_ON: u8 = 2;
/// Radius of the alert.
pub const ALERT_RADIUS: f32 = 12.0;

/// "Elite troops add 1 to their throw. Poor/Militia troops deduct 1."
pub const fn one_on_one_modifier(q: Quality) -> i8 {
    match q {
        Quality::Elite => 1,
        Quality::Regular => 0,
        Quality::Poor => -1,
    }
}

/// Who won a fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    Attacker,
    Defender,
}

/// A 1-on-1 attack fought out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OneOnOne {
    pub winner: Winner,
    /// Rounds of throws until it was resolved.
    pub rounds: u32,
    /// Friendly troops within 12 inches of the defender are alerted.
    pub alerted: bool,
}

/// *Heroes All*, "1-on-1 attacks": the attacker's D6 (±1 for quality) needs
/// 3+; if it fails the defender throws an unmodified D6 and wins on 4+, and
/// a D6 of 2+ alerts his friends within 12 inches; "If the defender does not
/// win, the fight continues until resolved."
///
/// Readings: the alert is thrown for each unsuccessful attack ("in all cases
/// where the attack is unsuccessful") until friends are alerted, after which
/// there is nothing left to throw for; each round is one event (test
/// `one_on_one_fights_until_resolved`). After a win the attacker may stay (if
/// he keeps cohesion) or go back to where he started: the caller's choice.
pub fn one_on_one(
    attackers: u8,
    defenders: u8,
    quality: Quality,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(OneOnOne, Vec<RuleEvent>), AssaultError> {
    if attackers != 1 || defenders != 1 {
        return Err(AssaultError::NotOneOnOne { attackers, defenders });
    }
    let modifier = one_on_one_modifier(quality);
    let mut events = Vec::new();
    let mut alerted = false;
    let mut rounds = 0;
    loop {
        rounds += 1;
        let attack = dice.d6();
        let mut e = RuleEvent::new(EventKind::Assault, rule("Assaults: 1-on-1 attacks"))
            .actor(id)
            .input("round", rounds, "the fight continues until resolved")
            .input("quality_modifier", modifier, "elite +1, poor/militia -1")
            .input("needed", ONE_ON_ONE_SUCCESS, "the attacker succeeds with 3+")
            .dice(6, &[attack]);
        if i16::from(attack) + i16::from(modifier) >= i16::from(ONE_ON_ONE_SUCCESS) {
            let out = OneOnOne { winner: Winner::Attacker, rounds, alerted };
            events.push(e.outcome(out));
            return Ok((out, events));
        }
        let back = dice.d6();
        e = e.dice(6, &[back]).input("fight_back", FIGHT_BACK, "the defender beats the attacker with 4+, unmodified");
        if !alerted {
            let alarm = dice.d6();
            alerted = alarm >= ALERT_ON;
            e = e.dice(6, &[alarm]).input("alert", ALERT_ON, "an unsuccessful attack alerts friends within 12\" on 2+");
        }
        if back >= FIGHT_BACK {
            let out = OneOnOne { winner: Winner::Defender, rounds, alerted };
            events.push(e.outcome(out));
            return Ok((out, events));
        }
        events.push(e.outcome(serde_json::json!({ "continues": true, "alerted": alerted })));
    }
}

/// Exact chance the attacker wins a 1-on-1 fight: each round he wins with
/// p, the defender with (1 − p) × ½, so the attacker's share is p / (p + (1 − p)/2).
pub fn one_on_one_odds(quality: Quality) -> f64 {
    let p = crate::firing::chance_d6(ONE_ON_ONE_SUCCESS, one_on_one_modifier(quality));
    p / (p + (1.0 - p) * 0.5)
}

// ---------------------------------------------------------------------------
// Grenades

/// Whether a platoon still has its grenades.
///
/// Reading: "A platoon is only allowed to throw grenades once during the
/// game day", Supply's "1 use of grenades per day per 3 men of a platoon" and
/// the RGL note's "one use of either AT or HE grenades per platoon" agree on
/// one use a day for each platoon, AT or HE, in a close assault or against a
/// vehicle; "per 3 men" is how many are thrown in that use (test
/// `italians_use_g2_and_grenades_go_once_a_day`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrenadeSupply {
    #[default]
    Available,
    /// "A platoon is only allowed to throw grenades once during the game day"
    /// (also *Supply*: "1 use of grenades per day per 3 men of a platoon").
    UsedToday,
    /// "Rifle grenade launchers and hand grenades are not available for use if
    /// the force is rationed."
    Rationed,
}

impl GrenadeSupply {
    fn check(self) -> Result<(), AssaultError> {
        if self == Self::Available { Ok(()) } else { Err(AssaultError::NoGrenades(self)) }
    }
}

/// The HE column of a nation's thrown grenades: "Italians throwing grenades
/// use HE Effects Table column G2", everyone else G1.
pub fn grenade_column(nation: &Nation) -> HeColumn {
    if *nation == Nation::Italian { HeColumn::G2 } else { HeColumn::G1 }
}

/// Grenades thrown: one D6 each on `column`, the casualties summed and capped
/// at the `figures` there.
fn throw_he_grenades(count: u8, column: HeColumn, figures: u8, dice: &mut impl Roll) -> (Vec<u8>, u8) {
    let faces = dice.throw(usize::from(count), 6);
    let total: u32 = faces.iter().map(|&f| u32::from(column.casualties(f))).sum();
    let casualties = total.min(u32::from(figures)) as u8;
    (faces, casualties)
}

// ---------------------------------------------------------------------------
// Close assaults into buildings or defensive positions

/// A close assault into a building or defensive position, as the attackers
/// reach it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CloseAssault {
    /// Figures of the attacking element in contact.
    pub attackers: u8,
    /// Figures defending inside.
    pub defenders: u8,
    /// The building's capacity ([`crate::buildings::DEFAULT_CAPACITY`] unless
    /// specified); `None` for a defensive position that is not a building.
    pub capacity: Option<u8>,
    pub nation: Nation,
    pub grenades: GrenadeSupply,
}

/// The attackers' first round: who got in, and the grenades thrown before entering.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Figures that enter and fight.
    pub entering: u8,
    /// Figures that cannot enter: "The maximum capacity of a building cannot be
    /// exceeded, even in assault."
    pub left_outside: u8,
    /// Grenades thrown (one per 3 figures attacking); none when the supply is gone.
    pub grenade_faces: Vec<u8>,
    pub column: HeColumn,
    /// Defenders lost to the grenades.
    pub casualties: u8,
}

/// *Heroes All*, "Close assaults": the attackers enter (within the building's
/// capacity), and for every 3 figures attacking throw 1 grenade, a D6 each on
/// column G1 (Italians G2), against the defenders. Then they fire from inside
/// ([`close_assault_fire`]). "If the attackers take their next bound before
/// the defenders, they may fire again (without grenades) **or** withdraw".
///
/// Readings: the capacity counts defenders and attackers together, and
/// figures that do not fit stay outside and take no part (so throw no
/// grenades) (test `capacity_limits_who_enters_and_throws`). A grenade thrown
/// in an assault does not damage the building nor double its effect ("When
/// hit by HE fire (or a thrown grenade **not** during an assault)", HA
/// "Hits on buildings"): column G1 falls on the defenders as printed (test
/// `british_farm_assault_example`). With no grenades left the assault goes
/// in without them.
pub fn enter(a: &CloseAssault, dice: &mut impl Roll, id: &str) -> Result<(Entry, RuleEvent), AssaultError> {
    if a.attackers == 0 {
        return Err(AssaultError::NoOne);
    }
    let room = a.capacity.map_or(a.attackers, |c| c.saturating_sub(a.defenders));
    let entering = a.attackers.min(room);
    if entering == 0 {
        return Err(AssaultError::BuildingFull);
    }
    let column = grenade_column(&a.nation);
    let (grenade_faces, casualties) = if a.grenades == GrenadeSupply::Available {
        throw_he_grenades(grenades(entering), column, a.defenders, dice)
    } else {
        (Vec::new(), 0)
    };
    let entry = Entry { entering, left_outside: a.attackers - entering, grenade_faces, column, casualties };
    let event = RuleEvent::new(EventKind::Assault, rule("Close assaults (into buildings or defensive positions)"))
        .actor(id)
        .input("attackers", a.attackers, "")
        .input("defenders", a.defenders, "")
        .input("capacity", a.capacity, "the maximum capacity of a building cannot be exceeded, even in assault")
        .input("grenades", a.grenades, "one grenade per 3 figures attacking, once a game day per platoon")
        .input("column", column, "G1; Italians G2")
        .dice(6, &entry.grenade_faces)
        .outcome(&entry);
    Ok((entry, event))
}

/// Close range: the sides of a close assault touch.
pub const CLOSE_RANGE: f32 = 0.0;

/// One side's fire in a close assault: "they get the benefit of close range
/// but … the defenders are in hard cover"; "If the defenders can fire back,
/// the attackers will benefit from hard cover"; later rounds: "both elements
/// fire at close range with the appropriate cover modifiers".
///
/// Reading: close range is the short range band (+1 where the weapon has
/// one); the side fired at inside the building is infantry in hard cover
/// (−1), not the building (+3) (test `close_assault_fire_is_short_range_into_hard_cover`).
/// Throw it with [`crate::firing::fire_open_sights`].
pub fn close_assault_fire(weapon: Weapon, weapons: u8, firer: Quality, momentum: Momentum) -> OpenSightsFire {
    OpenSightsFire {
        weapon,
        weapons,
        distance: crate::inches::Inches(CLOSE_RANGE),
        target: FireTarget::Infantry,
        cover: Cover::Hard,
        firer_quality: firer,
        momentum,
        ..OpenSightsFire::default()
    }
}

/// The Momentum Chart row for an element under assault in the building:
/// FYOB "Under small arms/MG fire or assault in hard cover" (casualties are
/// [`CmCause::CasualtyInHardCover`]). Attackers who came up short are fired on
/// where they stand.
pub const ASSAULTED_IN_BUILDING: CmCause = CmCause::SmallArmsInHardCover;

/// What the defenders do when they can act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefendersAction {
    /// Return fire at the attackers, who are in hard cover.
    ReturnFire,
    /// "retire away from the enemy 1 full move", "at the double" allowed
    /// "voluntarily if this allows them to take cover".
    Retire,
}

/// *Heroes All*, "Close assaults": "the defenders must pass their CM Tests
/// before returning fire … If, after taking their CM Tests, the defenders are
/// not permitted to take offensive action, they must retire away from the
/// enemy 1 full move. This full move retirement is mandatory and is the only
/// action permitted by the defenders if they fail their Officer Reaction Test."
///
/// Reading: a failed ORT does not leave the defenders sitting in the
/// building: they retire, the one action left to them; so they return fire
/// only when their ORT is passed and their Momentum allows fire (test
/// `defenders_retire_unless_they_may_fire`).
pub fn defenders_act(cms: u8, failures_this_bound: u32, passed_ort: bool) -> Result<DefendersAction, AssaultError> {
    let cms_fire =
        momentum::cms_effects(ElementType::Infantry, cms).map_err(|_| AssaultError::CmsOutOfRange(cms))?.can_fire;
    let may_fire = passed_ort && cms_fire && momentum::band_for(failures_this_bound).can_fire;
    Ok(if may_fire { DefendersAction::ReturnFire } else { DefendersAction::Retire })
}

/// "If the results of the Continuous Momentum tests do not dictate that
/// either force has to withdraw, a second round of assault may take place."
/// A side "withdraws voluntarily (i.e. it's NCO passes a Leadership Test)":
/// take [`crate::officer::leadership_test`] and pass its verdict as `withdraws`.
pub fn another_round(attackers_must_withdraw: bool, defenders_must_withdraw: bool, withdraws: bool) -> bool {
    !(attackers_must_withdraw || defenders_must_withdraw || withdraws)
}

// ---------------------------------------------------------------------------
// Coming up short

/// Whether the assaulting element reached its enemy.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Approach {
    Contact,
    /// "the assault is cancelled and the advancing troops may fire from their
    /// final position. They may not throw grenades and will not gain any cover
    /// benefits from the building if the defenders fire back."
    ComingUpShort {
        short_by: f32,
    },
}

/// *Heroes All*, "Coming up short": the move thrown against the distance to contact.
pub fn approach(needed: f32, allowance: f32) -> Result<Approach, AssaultError> {
    if !(needed.is_finite() && allowance.is_finite() && needed >= 0.0 && allowance >= 0.0) {
        return Err(AssaultError::BadDistance);
    }
    Ok(if allowance >= needed { Approach::Contact } else { Approach::ComingUpShort { short_by: needed - allowance } })
}

/// The attackers' cover when the defenders fire back: hard cover in the
/// building once they are in contact, and only the cover of where they
/// stand (`own`) when they came up short ("will not gain any cover benefits
/// from the building if the defenders fire back").
pub fn attackers_cover(approach: Approach, own: Cover) -> Cover {
    match approach {
        Approach::Contact => Cover::Hard,
        Approach::ComingUpShort { .. } => own,
    }
}

// ---------------------------------------------------------------------------
// Assaults on AFVs and other vehicles

/// Figures needed for each grenade against a vehicle ("a D10 per 3 figures").
pub const FIGURES_PER_GRENADE: u8 = 3;
/// The AT grenade's Attack Value (Weapons table, "AT grenades … +5").
pub const AT_GRENADE_ATTACK: i8 = 5;
/// "The vehicle is brewed with 5+ on a D6" (open-topped AFVs assaulted with HE grenades).
pub const OPEN_TOPPED_BREWS_ON: u8 = 5;
/// A tank passing "within 1 inch of a building they are occupying" may be assaulted from it.
pub const FROM_BUILDING_REACH: f32 = 1.0;

/// The vehicle assaulted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VehicleTarget {
    /// A closed AFV: AT grenades against the Defence Values.
    ClosedAfv { armour: ArmourClass },
    /// An open-topped AFV: HE grenades against the crew, then 5+ brews.
    OpenTopped { crew: u8 },
    /// A soft-skin: HE grenades against the passengers; automatically destroyed.
    SoftSkin { passengers: u8 },
}

/// Why a vehicle cannot be assaulted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unassailable {
    /// "A tank or open-topped AFV that is making an 'at the double' move".
    AtTheDouble,
    /// "a vehicle carrying tank-riders".
    TankRiders,
    /// From a building, the vehicle did not pass within 1 inch of it.
    NotWithinOneInch,
}

/// Where the assault is made from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AssaultFrom {
    /// "The attackers move up to touching distance of the AFV".
    Contact,
    /// "declare an assault from a building": the vehicle passed `closest`
    /// inches from the building during its bound.
    Building { closest: f32 },
}

/// An infantry assault on a vehicle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VehicleAssault {
    pub figures: u8,
    pub nation: Nation,
    pub grenades: GrenadeSupply,
    pub target: VehicleTarget,
    /// The vehicle's state before the assault ("any vehicle damaged twice is brewed").
    pub state: VehicleState,
    pub target_at_the_double: bool,
    pub tank_riders: bool,
    pub from: AssaultFrom,
}

/// What the grenades did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VehicleAssaultOutcome {
    pub grenades: u8,
    /// AT grenades: the sum of the D10s plus the Attack Values added together.
    pub score: Option<u16>,
    pub result: AtResult,
    pub state: VehicleState,
    /// Crew (open-topped) or passengers (soft-skin) lost to HE grenades.
    pub casualties: u8,
}

/// Checks the vehicle may be assaulted.
pub fn assailable(a: &VehicleAssault) -> Result<(), AssaultError> {
    let tank = matches!(a.target, VehicleTarget::ClosedAfv { .. } | VehicleTarget::OpenTopped { .. });
    if tank && a.target_at_the_double {
        return Err(AssaultError::NotAssailable(Unassailable::AtTheDouble));
    }
    if a.tank_riders {
        return Err(AssaultError::NotAssailable(Unassailable::TankRiders));
    }
    if let AssaultFrom::Building { closest } = a.from {
        if !(closest.is_finite() && closest >= 0.0) {
            return Err(AssaultError::BadDistance);
        }
        if closest > FROM_BUILDING_REACH {
            return Err(AssaultError::NotAssailable(Unassailable::NotWithinOneInch));
        }
    }
    Ok(())
}

/// *Heroes All*, "Assaults on AFVs and other vehicles": one grenade per 3
/// figures; against a closed AFV AT grenades, "a D10 per 3 figures with an
/// attack value of +5. Multiple Attack Values can be added together", against
/// the Defence Values' "Assaulted" column; against an open-topped AFV HE
/// grenades, a D6 each on G1/G2 against the crew, then a D6 brews it on 5+;
/// against a soft-skin HE grenades against the passengers, and "the vehicle
/// is automatically destroyed".
///
/// Readings: the AT grenades make one attack, every D10 and every +5 added
/// together, against the brew and damage scores (test
/// `at_grenades_add_their_dice_and_attack_values`). The open-topped AFV's
/// brew die is thrown once per assault, and the HE Effects reduction by 1 for
/// open-topped AFVs (a rule of howitzer and mortar hits) does not apply to
/// grenades thrown in; the casualties named here are the assault's own, with
/// no further "d6 less 2" for a brew (test `open_topped_and_soft_skins_take_he_grenades`).
pub fn assault_vehicle(
    a: &VehicleAssault,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(VehicleAssaultOutcome, RuleEvent), AssaultError> {
    assailable(a)?;
    a.grenades.check()?;
    let n = grenades(a.figures);
    if n == 0 {
        return Err(AssaultError::TooFewFigures(a.figures));
    }
    let e = RuleEvent::new(EventKind::Assault, rule("Assaults on AFVs and other vehicles"))
        .actor(id)
        .input("figures", a.figures, "a grenade per 3 figures")
        .input("target", a.target, "")
        .input("state", a.state, "any vehicle damaged twice is brewed");
    let (out, e) = match a.target {
        VehicleTarget::ClosedAfv { armour } => {
            if armour == ArmourClass::SoftSkinned {
                return Err(AssaultError::ClosedAfvIsSoftSkinned);
            }
            let faces = dice.throw(usize::from(n), 10);
            let attack = i16::from(AT_GRENADE_ATTACK) * i16::from(n);
            let score = faces.iter().map(|&f| i16::from(f)).sum::<i16>() + attack;
            // The whole score read against the table (capped where no armour reaches).
            let result = effects::at_result(0, armour, Facing::Side, score.min(i16::from(u8::MAX)) as u8);
            let out = VehicleAssaultOutcome {
                grenades: n,
                score: Some(score as u16),
                result,
                state: a.state.after(result),
                casualties: 0,
            };
            let e = e
                .input("attack_value", attack, "+5 per AT grenade, multiple Attack Values added together")
                .input("defence", armour.defence(Facing::Side), "Defence Values: assaulted")
                .dice(10, &faces);
            (out, e)
        }
        VehicleTarget::OpenTopped { crew } => {
            let column = grenade_column(&a.nation);
            let (faces, casualties) = throw_he_grenades(n, column, crew, dice);
            let brew = dice.d6();
            let result = if brew >= OPEN_TOPPED_BREWS_ON { AtResult::Brewed } else { AtResult::NoEffect };
            let out =
                VehicleAssaultOutcome { grenades: n, score: None, result, state: a.state.after(result), casualties };
            let e = e
                .input("column", column, "HE grenades against the crew; G1, Italians G2")
                .input("brews_on", OPEN_TOPPED_BREWS_ON, "the vehicle is brewed with 5+ on a D6")
                .dice(6, &faces)
                .dice(6, &[brew]);
            (out, e)
        }
        VehicleTarget::SoftSkin { passengers } => {
            let column = grenade_column(&a.nation);
            let (faces, casualties) = throw_he_grenades(n, column, passengers, dice);
            let out = VehicleAssaultOutcome {
                grenades: n,
                score: None,
                result: AtResult::Brewed,
                state: VehicleState::Brewed,
                casualties,
            };
            let e = e
                .input("column", column, "HE grenades: casualties accrue against the passengers")
                .input("destroyed", true, "the vehicle is automatically destroyed")
                .dice(6, &faces);
            (out, e)
        }
    };
    let e = e.outcome(&out);
    Ok((out, e))
}

/// "Infantry moving to assault an AFV are allowed to split their movement
/// into two parts - up to the tank and away from the tank provided that the
/// total distance moved does not exceed the total allowed to them by a
/// **stealth** move" (`stealth_allowance`, from a stealth move's throw).
pub fn split_stealth_move(stealth_allowance: f32, to_vehicle: f32, away: f32) -> Result<(), AssaultError> {
    let all = [stealth_allowance, to_vehicle, away];
    if !all.iter().all(|d| d.is_finite() && *d >= 0.0) {
        return Err(AssaultError::BadDistance);
    }
    if to_vehicle + away > stealth_allowance {
        return Err(AssaultError::SplitMoveTooLong {
            moved: (to_vehicle + away).ceil() as u32,
            allowed: stealth_allowance.floor() as u32,
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Petards, the Goliath and snipers

/// Petard mortars: "Range is 6 inches."
pub const PETARD_RANGE: f32 = 6.0;
/// "A hit is scored with 2+ on a D6."
pub const PETARD_HIT: u8 = 2;
/// Petards and the Goliath: "column F with the resultant number of casualties doubled".
pub const DEMOLITION: HeHit = HeHit { column: HeColumn::F, multiplier: 2, flame: false };
/// The Goliath "is detonated at will with the effect of Attack Value +11".
pub const GOLIATH_ATTACK: i8 = 11;
/// The Goliath: "Range from the start point is 24 inches."
pub const GOLIATH_RANGE: f32 = 24.0;

/// Whether a petard may fire at `target` `distance` inches away: "They may
/// **only** target buildings and bunkers etc. Range is 6 inches."
pub fn may_fire_petard(target: FireTarget, distance: f32) -> Result<(), AssaultError> {
    if target != FireTarget::Building {
        return Err(AssaultError::PetardTarget);
    }
    if !(distance.is_finite() && distance >= 0.0) {
        return Err(AssaultError::BadDistance);
    }
    if distance > PETARD_RANGE {
        return Err(AssaultError::OutOfRange);
    }
    Ok(())
}

/// The chance a petard fired hits: "A hit is scored with 2+ on a D6".
pub fn petard_hit_chance() -> f64 {
    f64::from(7 - PETARD_HIT) / 6.0
}

/// Whether a Goliath may go to a point `from_start` inches from its start
/// point: "Range from the start point is 24 inches."
pub fn goliath_may_reach(from_start: f32) -> Result<(), AssaultError> {
    if !(from_start.is_finite() && from_start >= 0.0) {
        return Err(AssaultError::BadDistance);
    }
    if from_start > GOLIATH_RANGE {
        return Err(AssaultError::GoliathRange);
    }
    Ok(())
}

/// *Heroes All*, "Petard type mortars": only at buildings and bunkers, 6
/// inches, 2+ hits. A hit's effect is [`DEMOLITION`] on the building
/// ([`crate::buildings::Building::hit`]), which doubles it again: "casualties
/// are quadrupled by the 'hits on buildings' rule".
pub fn fire_petard(target: FireTarget, distance: f32, dice: &mut impl Roll) -> Result<(bool, RuleEvent), AssaultError> {
    may_fire_petard(target, distance)?;
    let face = dice.d6();
    let hit = face >= PETARD_HIT;
    let event = RuleEvent::new(EventKind::Fire, rule("Petard type mortars"))
        .input("distance", distance, "range is 6 inches")
        .input("needed", PETARD_HIT, "a hit is scored with 2+")
        .dice(6, &[face])
        .outcome(serde_json::json!({ "hit": hit }));
    Ok((hit, event))
}

/// The Goliath's charge against figures in the open or in cover (not in a
/// building, where [`DEMOLITION`] goes through [`crate::buildings::Building::hit`]):
/// a D6 on column F, doubled, capped at the `figures` there.
pub fn goliath_against_men(figures: u8, dice: &mut impl Roll, id: &str) -> Result<(u8, RuleEvent), AssaultError> {
    if figures == 0 {
        return Err(AssaultError::NoOne);
    }
    let face = dice.d6();
    let table = DEMOLITION.column.casualties(face) * DEMOLITION.multiplier;
    let casualties = table.min(figures);
    let event = RuleEvent::new(EventKind::HeEffect, rule("Goliath"))
        .actor(id)
        .input("column", DEMOLITION.column, "HE Effects Table column F with the casualties doubled")
        .input("figures", figures, "")
        .dice(6, &[face])
        .outcome(serde_json::json!({ "table": table, "casualties": casualties }));
    Ok((casualties, event))
}

/// The Goliath's charge against a vehicle: a D10 + 11 against the Defence
/// Value of the face it reached ([`effects::at_hit`]).
pub fn goliath_against_vehicle(
    armour: ArmourClass,
    facing: Facing,
    state: VehicleState,
    dice: &mut impl Roll,
) -> (VehicleState, AtResult, RuleEvent) {
    effects::at_hit(GOLIATH_ATTACK, armour, facing, state, dice)
}

/// "Snipers can only move using a **stealth** move."
pub fn sniper_may_move(mode: MoveMode) -> bool {
    mode == MoveMode::Stealth
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};
    use crate::firing::{Modifier, assess_open_sights};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn momentum_and_csw_crews_bar_assaults() {
        assert_eq!(may_assault(6, 0, false), Ok(()));
        assert_eq!(may_assault(5, 2, false), Ok(()), "1-2 failures still fire");
        assert_eq!(may_assault(4, 0, false), Err(AssaultError::CmsForbids(4)), "FYOB: CMS 4 cannot assault");
        assert_eq!(may_assault(6, 3, false), Err(AssaultError::MomentumForbids(3)), "suppressed cannot fire");
        assert_eq!(may_assault(6, 0, true), Err(AssaultError::CswCrew));
        assert_eq!(may_assault(7, 0, false), Err(AssaultError::CmsOutOfRange(7)));
    }

    #[test]
    fn one_on_one_needs_three_plus_modified_by_quality() {
        // Regular: a 3 wins at once.
        let (o, ev) = one_on_one(1, 1, Quality::Regular, &mut Scripted::new([3]), "a").unwrap();
        assert_eq!((o.winner, o.rounds, o.alerted), (Winner::Attacker, 1, false));
        assert_eq!(ev.len(), 1);
        // Elite: a 2 becomes 3 and wins; Poor: a 3 becomes 2 and fails, the defender's 4 wins.
        assert_eq!(one_on_one(1, 1, Quality::Elite, &mut Scripted::new([2]), "a").unwrap().0.winner, Winner::Attacker);
        let (o, _) = one_on_one(1, 1, Quality::Poor, &mut Scripted::new([3, 4, 1]), "a").unwrap();
        assert_eq!((o.winner, o.alerted), (Winner::Defender, false), "alarm 1 does not alert");
        assert_eq!(
            one_on_one(2, 1, Quality::Regular, &mut Scripted::new([]), "a").unwrap_err(),
            AssaultError::NotOneOnOne { attackers: 2, defenders: 1 }
        );
    }

    #[test]
    fn one_on_one_fights_until_resolved() {
        // Round 1: attack 2 fails, defender 3 fails, alarm 2 alerts. Round 2:
        // attack 1 fails, defender 2 fails (no alarm die: already alerted).
        // Round 3: attack 5 wins.
        let mut dice = Scripted::new([2, 3, 2, 1, 2, 5]);
        let (o, ev) = one_on_one(1, 1, Quality::Regular, &mut dice, "a").unwrap();
        assert_eq!((o.winner, o.rounds, o.alerted), (Winner::Attacker, 3, true));
        assert_eq!(ev.len(), 3);
        assert_eq!(ev[0].dice.len(), 3);
        assert_eq!(ev[1].dice.len(), 2);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn one_on_one_odds_match_play() {
        // Regular: p = 4/6, defender 1/6 a round: attacker wins 4/5.
        assert!(close(one_on_one_odds(Quality::Regular), 0.8));
        assert!(close(one_on_one_odds(Quality::Elite), (5.0 / 6.0) / (5.0 / 6.0 + 1.0 / 12.0)));
        let mut dice = Dice::new(11);
        let n = 20_000;
        let wins = (0..n)
            .filter(|_| one_on_one(1, 1, Quality::Poor, &mut dice, "a").unwrap().0.winner == Winner::Attacker)
            .count();
        let expected = one_on_one_odds(Quality::Poor);
        assert!((wins as f64 / n as f64 - expected).abs() < 0.02, "{wins} vs {expected}");
    }

    fn farm(attackers: u8, defenders: u8, grenades: GrenadeSupply, nation: Nation) -> CloseAssault {
        CloseAssault { attackers, defenders, capacity: Some(16), nation, grenades }
    }

    #[test]
    fn british_farm_assault_example() {
        // "The 7 figures will get 2 grenades to throw before entering": column
        // G1, not doubled for the building. Faces 3 and 2: 2 + 1 = 3 casualties.
        let (entry, e) =
            enter(&farm(7, 6, GrenadeSupply::Available, Nation::British), &mut Scripted::new([3, 2]), "x").unwrap();
        assert_eq!(entry.grenade_faces, [3, 2]);
        assert_eq!((entry.entering, entry.left_outside, entry.column, entry.casualties), (7, 0, HeColumn::G1, 3));
        assert_eq!(e.kind, EventKind::Assault);
        // 2 + 2 + 3 = 7, but casualties never exceed the defenders.
        let (entry, _) =
            enter(&farm(9, 2, GrenadeSupply::Available, Nation::British), &mut Scripted::new([3, 3, 6]), "x").unwrap();
        assert_eq!(entry.casualties, 2);
    }

    #[test]
    fn italians_use_g2_and_grenades_go_once_a_day() {
        let (entry, _) =
            enter(&farm(6, 8, GrenadeSupply::Available, Nation::Italian), &mut Scripted::new([3, 2]), "x").unwrap();
        assert_eq!((entry.column, entry.casualties), (HeColumn::G2, 2), "G2: 3 is 1, 2 is 1");
        for spent in [GrenadeSupply::UsedToday, GrenadeSupply::Rationed] {
            let (entry, _) = enter(&farm(9, 4, spent, Nation::German), &mut Scripted::new([]), "x").unwrap();
            assert!(entry.grenade_faces.is_empty() && entry.casualties == 0);
        }
    }

    #[test]
    fn capacity_limits_who_enters_and_throws() {
        // 10 defenders in a 16-figure house: only 6 of 9 attackers fit, 2 grenades.
        let (entry, _) =
            enter(&farm(9, 10, GrenadeSupply::Available, Nation::German), &mut Scripted::new([1, 1]), "x").unwrap();
        assert_eq!((entry.entering, entry.left_outside, entry.grenade_faces.len()), (6, 3, 2));
        // A trench has no capacity.
        let trench = CloseAssault { capacity: None, ..farm(9, 10, GrenadeSupply::UsedToday, Nation::German) };
        assert_eq!(enter(&trench, &mut Scripted::new([]), "x").unwrap().0.entering, 9);
        let full = farm(4, 16, GrenadeSupply::Available, Nation::German);
        assert_eq!(enter(&full, &mut Scripted::new([]), "x").unwrap_err(), AssaultError::BuildingFull);
    }

    #[test]
    fn close_assault_fire_is_short_range_into_hard_cover() {
        let f = close_assault_fire(Weapon::Rifle, 5, Quality::Elite, Momentum::default());
        let a = assess_open_sights(&f).unwrap();
        assert!(a.modifiers.has(Modifier::ShortRange) && a.modifiers.has(Modifier::HardCover));
        assert!(!a.modifiers.has(Modifier::Building));
        assert_eq!(a.modifiers.total(), 1, "+1 close, -1 hard cover, +1 elite");
        assert_eq!(a.shots, 5);
    }

    #[test]
    fn defenders_retire_unless_they_may_fire() {
        assert_eq!(defenders_act(6, 0, true), Ok(DefendersAction::ReturnFire));
        assert_eq!(defenders_act(6, 2, true), Ok(DefendersAction::ReturnFire));
        assert_eq!(defenders_act(6, 3, true), Ok(DefendersAction::Retire), "suppressed: no offensive action");
        assert_eq!(defenders_act(3, 0, true), Ok(DefendersAction::Retire));
        assert_eq!(defenders_act(6, 0, false), Ok(DefendersAction::Retire), "failed ORT: retirement only");
        assert!(another_round(false, false, false));
        assert!(!another_round(false, true, false));
        assert!(!another_round(false, false, true), "an NCO passing his Leadership Test withdraws");
    }

    #[test]
    fn coming_up_short_cancels_the_assault() {
        assert_eq!(approach(5.0, 6.0), Ok(Approach::Contact));
        assert_eq!(approach(5.0, 5.0), Ok(Approach::Contact));
        assert_eq!(approach(7.0, 4.0), Ok(Approach::ComingUpShort { short_by: 3.0 }));
        assert_eq!(approach(-1.0, 4.0), Err(AssaultError::BadDistance));
        assert_eq!(attackers_cover(Approach::Contact, Cover::Open), Cover::Hard);
        assert_eq!(attackers_cover(Approach::ComingUpShort { short_by: 1.0 }, Cover::Open), Cover::Open);
    }

    fn tank(figures: u8, armour: ArmourClass) -> VehicleAssault {
        VehicleAssault {
            figures,
            nation: Nation::British,
            grenades: GrenadeSupply::Available,
            target: VehicleTarget::ClosedAfv { armour },
            state: VehicleState::Intact,
            target_at_the_double: false,
            tank_riders: false,
            from: AssaultFrom::Contact,
        }
    }

    #[test]
    fn two_germans_cannot_assault_the_tank() {
        // "These 2 Germans cannot assault the tank using AT grenades as 3 figures are required."
        let a = VehicleAssault { nation: Nation::German, ..tank(2, ArmourClass::Medium) };
        assert_eq!(assault_vehicle(&a, &mut Scripted::new([]), "x").unwrap_err(), AssaultError::TooFewFigures(2));
    }

    #[test]
    fn at_grenades_add_their_dice_and_attack_values() {
        // 3 figures, 1 grenade: D10 4 + 5 = 9 against Medium "assaulted" (brew 13, damage 11): no effect.
        let (o, _) = assault_vehicle(&tank(3, ArmourClass::Medium), &mut Scripted::new([4]), "x").unwrap();
        assert_eq!((o.score, o.result), (Some(9), AtResult::NoEffect));
        // 6 figures, 2 grenades: 4 + 3 + 10 = 17 brews a Heavy (brew 16 on the side).
        let (o, e) = assault_vehicle(&tank(6, ArmourClass::Heavy), &mut Scripted::new([4, 3]), "x").unwrap();
        assert_eq!((o.grenades, o.score, o.state), (2, Some(17), VehicleState::Brewed));
        assert_eq!(e.dice.len(), 2);
        // A large party cannot overflow the score: 30 figures, 10 grenades.
        let (o, _) = assault_vehicle(&tank(30, ArmourClass::Formidable), &mut Scripted::new([10; 10]), "x").unwrap();
        assert_eq!((o.score, o.state), (Some(150), VehicleState::Brewed));
        // 3 figures: 6 + 5 = 11 damages a Medium; a second damage brews it.
        let (o, _) = assault_vehicle(&tank(3, ArmourClass::Medium), &mut Scripted::new([6]), "x").unwrap();
        assert_eq!(o.state, VehicleState::Damaged);
        let again = VehicleAssault { state: o.state, ..tank(3, ArmourClass::Medium) };
        assert_eq!(assault_vehicle(&again, &mut Scripted::new([6]), "x").unwrap().0.state, VehicleState::Brewed);
    }

    #[test]
    fn some_vehicles_cannot_be_assaulted() {
        let fast = VehicleAssault { target_at_the_double: true, ..tank(6, ArmourClass::Light) };
        assert_eq!(
            assault_vehicle(&fast, &mut Scripted::new([]), "x").unwrap_err(),
            AssaultError::NotAssailable(Unassailable::AtTheDouble)
        );
        let riders = VehicleAssault { tank_riders: true, ..tank(6, ArmourClass::Light) };
        assert_eq!(assailable(&riders), Err(AssaultError::NotAssailable(Unassailable::TankRiders)));
        let lorry = VehicleAssault {
            target: VehicleTarget::SoftSkin { passengers: 8 },
            target_at_the_double: true,
            ..tank(6, ArmourClass::Light)
        };
        assert_eq!(assailable(&lorry), Ok(()), "the at-the-double bar names tanks and open-topped AFVs");
        let near = VehicleAssault { from: AssaultFrom::Building { closest: 1.0 }, ..tank(6, ArmourClass::Light) };
        assert_eq!(assailable(&near), Ok(()));
        let far = VehicleAssault { from: AssaultFrom::Building { closest: 1.5 }, ..tank(6, ArmourClass::Light) };
        assert_eq!(assailable(&far), Err(AssaultError::NotAssailable(Unassailable::NotWithinOneInch)));
        let used = VehicleAssault { grenades: GrenadeSupply::UsedToday, ..tank(6, ArmourClass::Light) };
        assert_eq!(assailable(&used), Ok(()));
        assert_eq!(
            assault_vehicle(&used, &mut Scripted::new([]), "x").unwrap_err(),
            AssaultError::NoGrenades(GrenadeSupply::UsedToday)
        );
        let soft = tank(3, ArmourClass::SoftSkinned);
        assert_eq!(
            assault_vehicle(&soft, &mut Scripted::new([]), "x").unwrap_err(),
            AssaultError::ClosedAfvIsSoftSkinned
        );
    }

    #[test]
    fn open_topped_and_soft_skins_take_he_grenades() {
        // 6 figures on an open-topped AFV with crew 4: G1 faces 3, 6 = 2 + 3 casualties, capped at 4;
        // brew die 5 brews. No -1 open-topped reduction for grenades.
        let a = VehicleAssault { target: VehicleTarget::OpenTopped { crew: 4 }, ..tank(6, ArmourClass::Light) };
        let (o, _) = assault_vehicle(&a, &mut Scripted::new([3, 6, 5]), "x").unwrap();
        assert_eq!((o.casualties, o.state), (4, VehicleState::Brewed));
        let (o, _) = assault_vehicle(&a, &mut Scripted::new([1, 2, 4]), "x").unwrap();
        assert_eq!((o.casualties, o.state), (2, VehicleState::Intact), "4 on the brew die fails");
        // A soft-skin is destroyed whatever the grenades throw; casualties to the passengers.
        let a = VehicleAssault { target: VehicleTarget::SoftSkin { passengers: 10 }, ..tank(7, ArmourClass::Light) };
        let (o, _) = assault_vehicle(&a, &mut Scripted::new([6, 2]), "x").unwrap();
        assert_eq!((o.casualties, o.state), (3 + 1, VehicleState::Brewed));
    }

    #[test]
    fn split_stealth_move_stays_within_the_stealth_throw() {
        assert_eq!(split_stealth_move(5.0, 3.0, 2.0), Ok(()));
        assert_eq!(split_stealth_move(5.0, 3.0, 2.5), Err(AssaultError::SplitMoveTooLong { moved: 6, allowed: 5 }));
        assert_eq!(split_stealth_move(5.0, f32::NAN, 0.0), Err(AssaultError::BadDistance));
    }

    #[test]
    fn petard_hits_buildings_on_two_within_six() {
        assert!(fire_petard(FireTarget::Building, 6.0, &mut Scripted::new([2])).unwrap().0);
        assert!(!fire_petard(FireTarget::Building, 3.0, &mut Scripted::new([1])).unwrap().0);
        assert_eq!(fire_petard(FireTarget::Afv, 3.0, &mut Scripted::new([])).unwrap_err(), AssaultError::PetardTarget);
        assert_eq!(
            fire_petard(FireTarget::Building, 6.5, &mut Scripted::new([])).unwrap_err(),
            AssaultError::OutOfRange
        );
        assert_eq!((DEMOLITION.column, DEMOLITION.multiplier), (HeColumn::F, 2));
        assert!((petard_hit_chance() - 5.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn goliath_doubles_column_f_or_attacks_at_eleven() {
        // F on a 6 is 4, doubled 8, capped at the 5 figures there.
        assert_eq!(goliath_against_men(5, &mut Scripted::new([6]), "g").unwrap().0, 5);
        assert_eq!(goliath_against_men(10, &mut Scripted::new([2]), "g").unwrap().0, 4);
        // D10 2 + 11 = 13 brews a Medium from the side.
        let (state, result, _) =
            goliath_against_vehicle(ArmourClass::Medium, Facing::Side, VehicleState::Intact, &mut Scripted::new([2]));
        assert_eq!((state, result), (VehicleState::Brewed, AtResult::Brewed));
    }

    #[test]
    fn a_goliath_goes_no_further_than_24_inches_from_its_start() {
        assert_eq!(goliath_may_reach(24.0), Ok(()));
        assert_eq!(goliath_may_reach(24.1), Err(AssaultError::GoliathRange));
        assert_eq!(goliath_may_reach(f32::NAN), Err(AssaultError::BadDistance));
    }

    #[test]
    fn snipers_only_stealth_move() {
        assert!(sniper_may_move(MoveMode::Stealth));
        assert!(!sniper_may_move(MoveMode::Normal) && !sniper_may_move(MoveMode::Crawl));
    }
}
