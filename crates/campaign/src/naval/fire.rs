//! Fire power of boats and firing in a naval engagement (FYOW 29.8, 29.10):
//! coastal batteries against shipping, torpedoes, ship against ship and
//! submarine, ship against shore, ship AA, aircraft against ships, kamikazes,
//! and the naval "Artillery & Bombs Effects Chart".
//!
//! The naval chart governs naval fire. Its rows differ from the *Heroes All*
//! HE Effects table (the rulebooks' README names row F, where the naval chart
//! reads 2 2 3 3 4 5 against 1 2 2 3 3 4; rows A–E are a step heavier on the
//! higher faces as well): naval fire is resolved here, at campaign level,
//! with the chart printed in the naval section, while tabletop HE keeps the
//! *Heroes All* table (`warbound_rules::effects::HE_EFFECTS`).

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::map::common::Light;
use crate::naval::craft::{Craft, Vessel, Weapon};
use crate::naval::{NavalError, rule};

/// A column of the naval Artillery & Bombs Effects Chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HeTable {
    A,
    B,
    C,
    D,
    E,
    F,
}

/// FYOW 29 Quick Reference Guide, "HE Effect/D6", rows A–F by D6 1..=6: the
/// damage points (or, against shore targets, casualties) of one hit. A blank
/// cell is none.
pub const NAVAL_HE_EFFECTS: [[u8; 6]; 6] = [
    [0, 1, 1, 1, 1, 2], // A
    [0, 1, 1, 1, 2, 2], // B
    [0, 1, 1, 2, 2, 3], // C
    [0, 1, 2, 2, 3, 3], // D
    [1, 2, 2, 3, 3, 4], // E
    [2, 2, 3, 3, 4, 5], // F
];

impl HeTable {
    /// The chart's value for a D6 `face`.
    pub fn effect(self, face: u8) -> u8 {
        NAVAL_HE_EFFECTS[self as usize][usize::from(face.clamp(1, 6) - 1)]
    }
}

/// The chart's column for a ship's gun: "75mm/3 inch guns Use Table C,
/// 149mm/6 inch guns Use Table E, 150mm & larger guns Use Table F".
pub fn gun_table(weapon: Weapon) -> Result<HeTable, NavalError> {
    match weapon {
        Weapon::Gun75mm => Ok(HeTable::C),
        Weapon::Gun149mm => Ok(HeTable::E),
        Weapon::Gun150mmPlus => Ok(HeTable::F),
        other => Err(NavalError::CannotEngage(format!("{other:?} has no HE column"))),
    }
}

/// What an aircraft drops or fires at a ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ordnance {
    SmallBombs,
    MediumBombs,
    /// "Heavy bombs cannot be used against shipping."
    HeavyBombs,
    /// AT weapons or rockets: "use Table C" (29.10.6).
    AtOrRockets,
}

/// The chart's column for aircraft ordnance ("Small aircraft bombs Use Table
/// D, Medium aircraft bombs Use Table F ... Heavy bombs cannot be used against
/// shipping"; AT or rockets Table C, 29.10.6).
pub fn ordnance_table(ordnance: Ordnance) -> Result<HeTable, NavalError> {
    match ordnance {
        Ordnance::SmallBombs => Ok(HeTable::D),
        Ordnance::MediumBombs => Ok(HeTable::F),
        Ordnance::AtOrRockets => Ok(HeTable::C),
        Ordnance::HeavyBombs => Err(NavalError::CannotEngage("heavy bombs cannot be used against shipping".into())),
    }
}

/// How a hit's effect is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Effect {
    /// The HE chart, plus a number (the kamikaze's +1).
    He(HeTable, u8),
    /// Torpedoes: "1, 2 or 3 Half initial Defence Value lost; 4+ Ship sinks".
    HalfOrSink,
    /// Depth charges: "a score of 5 registers 1 damage and a score of 6 registers 2".
    DepthCharge,
    /// One point of damage on this D6 score or more (HMG fire 4+, AA 3+).
    OnePoint(u8),
}

impl Effect {
    fn value(self, face: u8, target: Option<&Vessel>) -> u8 {
        match self {
            Self::He(t, plus) => t.effect(face) + plus,
            Self::HalfOrSink => match target {
                Some(v) if face >= 4 => v.strength(),
                Some(v) => v.defence_value().div_ceil(2),
                None => 0,
            },
            Self::DepthCharge => match face {
                5 => 1,
                6 => 2,
                _ => 0,
            },
            Self::OnePoint(min) => u8::from(face >= min),
        }
    }
}

/// One shot, torpedo, charge or aircraft attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shot {
    /// The to-hit die (D10; D6 for ship AA).
    pub face: u8,
    /// Score needed after modifiers.
    pub needed: u8,
    pub hit: bool,
    /// The effect D6, thrown on a hit.
    pub effect_face: Option<u8>,
    /// Damage points (casualties against shore targets).
    pub effect: u8,
}

/// The result of one firing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireOutcome {
    pub shots: Vec<Shot>,
    /// Total damage points or casualties.
    pub effect: u8,
    /// The target vessel sank (false for shore and air targets).
    pub sunk: bool,
    /// Aircraft lost by the attacker (kamikazes).
    pub aircraft_lost: u8,
}

/// QR "Firing modifiers": +1 to the score needed at night with moonlight, +2
/// without.
///
/// Reading (FYOW 29 Quick Reference Guide): these night modifiers are printed
/// only in the quick reference; they add to the D10 score needed for every
/// naval firing except against submarines, to which, as with spotting,
/// modifiers do not apply. A score above 10 cannot hit.
fn night(light: Light) -> u8 {
    match light {
        Light::Daylight => 0,
        Light::NightMoon => 1,
        Light::NightNoMoon => 2,
    }
}

/// Throws `n` to-hit dice of `sides` and an effect D6 for each hit, applying
/// damage to `target` as it accrues.
fn resolve(
    n: u8,
    sides: u8,
    needed: u8,
    effect: Effect,
    mut target: Option<&mut Vessel>,
    dice: &mut impl Roll,
) -> (Vec<Shot>, Vec<u8>, Vec<u8>) {
    let (mut hit_faces, mut effect_faces, mut shots) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        let face = dice.face(sides);
        hit_faces.push(face);
        let hit = face >= needed;
        let mut shot = Shot { face, needed, hit, effect_face: None, effect: 0 };
        if hit {
            let e = dice.d6();
            effect_faces.push(e);
            shot.effect_face = Some(e);
            shot.effect = effect.value(e, target.as_deref());
            if let Some(v) = target.as_deref_mut() {
                let before = v.damage;
                v.take_damage(shot.effect);
                shot.effect = v.damage - before;
            }
        }
        shots.push(shot);
    }
    (shots, hit_faces, effect_faces)
}

fn outcome(shots: Vec<Shot>, target: Option<&Vessel>, aircraft_lost: u8) -> FireOutcome {
    FireOutcome {
        effect: shots.iter().map(|s| s.effect).sum(),
        sunk: target.is_some_and(Vessel::sunk),
        shots,
        aircraft_lost,
    }
}

fn afloat(target: &Vessel) -> Result<(), NavalError> {
    if target.sunk() { Err(NavalError::Sunk) } else { Ok(()) }
}

/// FYOW 29.10.3 "Ship vs Ship/submarine firing": the D10 score a firer's gun
/// needs against a target, row (target) for row, column (firer) for column:
/// Destroyer | Gunboat | Small gunboat/trawler | MTB/E-Boat.
///
/// Reading (FYOW 29.10.3 against the Quick Reference Guide): the section's
/// chart governs where the quick reference disagrees: gunboats, trawlers and
/// MTBs need 5+ against cargo and landing ships (quick reference 3+).
/// Landing craft are read into the "Cargo ship, landing ship" row, as the
/// quick reference's "cargo boat or landing craft" has them.
pub fn ship_hit_score(firer: Craft, target: Craft) -> Result<u8, NavalError> {
    const NA: u8 = 0;
    let row: [u8; 4] = match target {
        Craft::Destroyer => [6, 7, 7, 10],
        Craft::Gunboat => [6, 7, 7, 8],
        Craft::SmallGunboat => [8, 7, 7, 8],
        Craft::Mtb => [10, 9, 9, 8],
        Craft::Submarine => [5, NA, NA, NA],
        Craft::FishingBoat => [NA, 6, 6, 6],
        Craft::CargoShip | Craft::LandingCraft => [3, 5, 5, 5],
        _ => [NA; 4],
    };
    let col = match firer {
        Craft::Destroyer => 0,
        Craft::Gunboat => 1,
        Craft::SmallGunboat => 2,
        Craft::Mtb => 3,
        _ => return Err(NavalError::CannotEngage(format!("{firer:?} has no column in the ship-vs-ship chart"))),
    };
    match row[col] {
        NA => Err(NavalError::CannotEngage(format!("{firer:?} against {target:?} is n/a"))),
        s => Ok(s),
    }
}

/// FYOW 29.10.1 "Coastal gun battery counter-fire (150mm+) against shipping":
/// "Throw 1D10 for each gun firing. A score of 9+ registers a hit", then a D6
/// on the chart's column for 150mm+ guns (F). "These guns cannot be used
/// against MTB/E-boats or submarines."
pub fn coastal_battery_fire(
    battery_id: &str,
    guns: u8,
    target: &mut Vessel,
    light: Light,
    dice: &mut impl Roll,
) -> Result<(FireOutcome, RuleEvent), NavalError> {
    afloat(target)?;
    if guns == 0 {
        return Err(NavalError::OutOfRange("no guns fire".into()));
    }
    if matches!(target.craft, Craft::Mtb | Craft::Submarine) {
        return Err(NavalError::CannotEngage(format!("coastal guns against {:?}", target.craft)));
    }
    let needed = 9 + night(light);
    let (shots, hits, effects) = resolve(guns, 10, needed, Effect::He(HeTable::F, 0), Some(target), dice);
    let out = outcome(shots, Some(target), 0);
    let event = RuleEvent::new(EventKind::Naval, rule("29.10.1 Coastal gun battery counter-fire"))
        .actor(battery_id)
        .target(target.id.clone())
        .input("guns", guns, "1D10 per gun")
        .input("needed", needed, "9+, night modifiers of the quick reference")
        .input("table", HeTable::F, "150mm+ guns")
        .dice(10, &hits)
        .dice(6, &effects)
        .outcome(json!(out));
    Ok((out, event))
}

/// A vessel's fire at another vessel (FYOW 29.8, 29.10.2, 29.10.3).
///
/// - Guns: "one shot is taken per gun over 75mm ... per Session. Smaller guns
///   have 2 shots", against the 29.10.3 chart, then a D6 on the chart column
///   of the calibre. `guns` may not exceed the guns able to fire (halved at
///   half strength); shots are taken from the day's allowance.
/// - Depth charges (Destroyer against submarine): "2 depth charges per
///   attack", 5+ to hit, then "5 registers 1 damage and ... 6 registers 2".
/// - Torpedoes: "2 shots per session", 8+ to hit, then "1, 2 or 3 Half
///   initial Defence Value lost, 4+ Ship sinks".
///
/// `follow_up`: the firer has fired at this target before and has fired one
/// calibre only this session (see `engagement`); Destroyers and gunboats
/// then "gain a +1 on the firing dice" (the score needed falls by 1).
///
/// Reading (FYOW 29.2, 29.10.2): MTB torpedoes have no procedure of their
/// own; they are fired like a submarine's (2 a session, 8+, the torpedo
/// chart). Reading (FYOW 29.8): "Destroyers and gunboats" are those two
/// classes; small gunboats/trawlers get no follow-up bonus.
pub fn ship_fire(
    firer: &mut Vessel,
    weapon: Weapon,
    guns: u8,
    target: &mut Vessel,
    follow_up: bool,
    light: Light,
    dice: &mut impl Roll,
) -> Result<(FireOutcome, RuleEvent), NavalError> {
    firer.ready()?;
    afloat(target)?;
    if guns == 0 {
        return Err(NavalError::OutOfRange("no guns fire".into()));
    }
    let submarine = target.craft == Craft::Submarine;
    let night_mod = if submarine { 0 } else { night(light) };
    let bonus = u8::from(follow_up && matches!(firer.craft, Craft::Destroyer | Craft::Gunboat) && weapon.is_gun());
    let (section, shots, needed, effect) = match weapon {
        Weapon::Torpedoes => {
            if submarine || !matches!(firer.craft, Craft::Submarine | Craft::Mtb) {
                return Err(NavalError::CannotEngage(format!(
                    "{:?} torpedoes against {:?}",
                    firer.craft, target.craft
                )));
            }
            if guns > 2 {
                return Err(NavalError::OutOfRange("torpedoes: 2 shots per session".into()));
            }
            ("29.10.2 Submarine vs ship firing", guns, 8 + night_mod, Effect::HalfOrSink)
        }
        Weapon::DepthCharges => {
            if firer.craft != Craft::Destroyer || !submarine {
                return Err(NavalError::CannotEngage("depth charges: Destroyers against submarines".into()));
            }
            if guns != 2 {
                return Err(NavalError::OutOfRange("Destroyers drop 2 depth charges per attack".into()));
            }
            (
                "29.10.3 Ship vs Ship/submarine firing",
                2,
                ship_hit_score(firer.craft, target.craft)?,
                Effect::DepthCharge,
            )
        }
        Weapon::Aa20mm => return Err(NavalError::CannotEngage("AA guns fire at aircraft".into())),
        gun => {
            if submarine {
                return Err(NavalError::CannotEngage("only depth charges reach a submarine".into()));
            }
            if guns > firer.guns_able_to_fire(gun) {
                return Err(NavalError::OutOfRange(format!(
                    "{guns} {gun:?} fire; {} may",
                    firer.guns_able_to_fire(gun)
                )));
            }
            let per_gun = if gun == Weapon::Gun75mm { 2 } else { 1 };
            let needed = ship_hit_score(firer.craft, target.craft)? + night_mod - bonus;
            ("29.10.3 Ship vs Ship/submarine firing", guns * per_gun, needed, Effect::He(gun_table(gun)?, 0))
        }
    };
    let mount = firer.mount_mut(weapon).ok_or_else(|| NavalError::NoShots(format!("{weapon:?} not carried")))?;
    let shots = shots.min(u8::try_from(mount.left_today).unwrap_or(u8::MAX));
    if shots == 0 {
        return Err(NavalError::NoShots(format!("{weapon:?}: none left today")));
    }
    mount.left_today -= u16::from(shots);
    let (shots_out, hits, effects) = resolve(shots, 10, needed, effect, Some(target), dice);
    let out = outcome(shots_out, Some(target), 0);
    let event = RuleEvent::new(EventKind::Naval, rule(section))
        .actor(firer.id.clone())
        .target(target.id.clone())
        .input("firer", firer.craft, "")
        .input("target_craft", target.craft, "")
        .input("weapon", weapon, "")
        .input("shots", shots, "per gun: 1 over 75mm, 2 for 75mm and under")
        .input("needed", needed, "D10")
        .input("follow_up_bonus", bonus, "second or subsequent firing at the same target, one calibre")
        .input("night", night_mod, "quick reference firing modifiers")
        .dice(10, &hits)
        .dice(6, &effects)
        .outcome(json!(out));
    Ok((out, event))
}

/// FYOW 29.10.4 "Ships firing on shore based targets": "Throw 1D10 for each
/// gun firing. A score of 3+ registers a hit", then a D6 on the chart column
/// of the calibre; the effect is the casualties or damage the shore target
/// takes (applied by the caller's tabletop or campaign rules).
///
/// Reading (FYOW 29.10.4): one shot per gun, as the quick reference's "1 per
/// gun"; the 29.8 follow-up bonus for Destroyers and gunboats applies to a
/// shore target as to a ship.
pub fn ship_fire_at_shore(
    firer: &mut Vessel,
    weapon: Weapon,
    guns: u8,
    follow_up: bool,
    light: Light,
    dice: &mut impl Roll,
) -> Result<(FireOutcome, RuleEvent), NavalError> {
    firer.ready()?;
    let table = gun_table(weapon)?;
    if guns == 0 || guns > firer.guns_able_to_fire(weapon) {
        return Err(NavalError::OutOfRange(format!("{guns} {weapon:?} fire; {} may", firer.guns_able_to_fire(weapon))));
    }
    let bonus = u8::from(follow_up && matches!(firer.craft, Craft::Destroyer | Craft::Gunboat));
    let mount = firer.mount_mut(weapon).ok_or_else(|| NavalError::NoShots(format!("{weapon:?} not carried")))?;
    let shots = guns.min(u8::try_from(mount.left_today).unwrap_or(u8::MAX));
    if shots == 0 {
        return Err(NavalError::NoShots(format!("{weapon:?}: none left today")));
    }
    mount.left_today -= u16::from(shots);
    let needed = 3 + night(light) - bonus;
    let (shots_out, hits, effects) = resolve(shots, 10, needed, Effect::He(table, 0), None, dice);
    let out = outcome(shots_out, None, 0);
    let event = RuleEvent::new(EventKind::Naval, rule("29.10.4 Ships firing on shore based targets"))
        .actor(firer.id.clone())
        .input("weapon", weapon, "")
        .input("table", table, "column of the calibre")
        .input("needed", needed, "3+ on a D10, night and follow-up modifiers")
        .dice(10, &hits)
        .dice(6, &effects)
        .outcome(json!(out));
    Ok((out, event))
}

/// The kind of aircraft a ship's AA fires at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AircraftRole {
    DiveBomber,
    TorpedoBomber,
    Other,
}

/// FYOW 29.10.5 "Ships vs aircraft": "throw 1D6 for each AA gun on board. A
/// score of 6 registers a hit and 3+ on a further D6 inflicts damage of 1
/// point to the aircraft". With friendly aircraft on the Map Board/Combat
/// Area, AA guns "can only be used against enemy dive and torpedo bombers".
/// The effect is the damage points the squadron takes.
pub fn ship_aa_fire(
    firer: &mut Vessel,
    guns: u8,
    target: AircraftRole,
    friendly_aircraft_present: bool,
    dice: &mut impl Roll,
) -> Result<(FireOutcome, RuleEvent), NavalError> {
    firer.ready()?;
    if friendly_aircraft_present && target == AircraftRole::Other {
        return Err(NavalError::CannotEngage(
            "with friendly aircraft present, AA fires only at dive and torpedo bombers".into(),
        ));
    }
    if guns == 0 || guns > firer.guns_able_to_fire(Weapon::Aa20mm) {
        return Err(NavalError::OutOfRange(format!(
            "{guns} AA guns fire; {} may",
            firer.guns_able_to_fire(Weapon::Aa20mm)
        )));
    }
    let mount = firer.mount_mut(Weapon::Aa20mm).ok_or_else(|| NavalError::NoShots("no AA guns".into()))?;
    let shots = guns.min(u8::try_from(mount.left_today).unwrap_or(u8::MAX));
    if shots == 0 {
        return Err(NavalError::NoShots("AA: none left today".into()));
    }
    mount.left_today -= u16::from(shots);
    let (shots_out, hits, effects) = resolve(shots, 6, 6, Effect::OnePoint(3), None, dice);
    let out = outcome(shots_out, None, 0);
    let event = RuleEvent::new(EventKind::Naval, rule("29.10.5 Ships vs aircraft"))
        .actor(firer.id.clone())
        .input("guns", shots, "1D6 per AA gun")
        .input("target", target, "")
        .input("friendly_aircraft_present", friendly_aircraft_present, "")
        .dice(6, &hits)
        .dice(6, &effects)
        .outcome(json!(out));
    Ok((out, event))
}

/// An aircraft attack on a ship (FYOW 29.10.6, "Kamikaze Aircraft").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AirAttack {
    FighterBomber(Ordnance),
    DiveBomber,
    TorpedoBomber,
    /// Fighters firing Heavy Machine Guns (MMG and small arms cannot damage ships).
    HmgFighter,
    /// Anti-submarine bombers with small or medium bombs.
    AntiSubmarine(Ordnance),
    Kamikaze,
}

/// FYOW 29.10.6 "Aircraft vs ships", row for row: "Each aircraft throws a
/// D10" against the score, then the effect:
///
/// | attack | to hit | effect |
/// |---|---|---|
/// | Fighter bomber | 8+ | HE chart by ordnance (AT/rockets C) |
/// | Dive bomber | 6+ | HE chart D |
/// | Torpedo bomber | 6+ | 1–3 half original DV, 4+ sinks (Destroyers only) |
/// | HMG fighter | 9+ | 1 point on 4+ |
/// | Anti-submarine bomber | 7+ | D (small) or F (medium) |
/// | Kamikaze | 6+ as a dive bomber | D, "add 1 to the effect"; aircraft lost |
///
/// Reading (FYOW 29.10.6 against the Quick Reference Guide): the section's
/// "each aircraft throws a D10" governs the quick reference's "2" shots per
/// bomber; kamikaze's "add 1 to the effect" adds 1 to the damage read from
/// the chart (the quick reference's "+1 to Effect throw" would make a 6
/// read off the chart). Anti-submarine bombers attack submarines, and only
/// they may (submarines cannot be spotted by other aircraft, 29.9); the
/// other attacks are against surface vessels.
pub fn aircraft_attack(
    squadron_id: &str,
    attack: AirAttack,
    aircraft: u8,
    target: &mut Vessel,
    light: Light,
    dice: &mut impl Roll,
) -> Result<(FireOutcome, RuleEvent), NavalError> {
    afloat(target)?;
    if aircraft == 0 {
        return Err(NavalError::OutOfRange("no aircraft attack".into()));
    }
    let submarine = target.craft == Craft::Submarine;
    if submarine != matches!(attack, AirAttack::AntiSubmarine(_)) {
        return Err(NavalError::CannotEngage(format!("{attack:?} against {:?}", target.craft)));
    }
    let (score, effect, lost) = match attack {
        AirAttack::FighterBomber(o) => (8, Effect::He(ordnance_table(o)?, 0), 0),
        AirAttack::DiveBomber => (6, Effect::He(HeTable::D, 0), 0),
        AirAttack::Kamikaze => (6, Effect::He(HeTable::D, 1), aircraft),
        AirAttack::TorpedoBomber => {
            if target.craft != Craft::Destroyer {
                return Err(NavalError::CannotEngage("torpedo attacks only against Destroyers".into()));
            }
            (6, Effect::HalfOrSink, 0)
        }
        AirAttack::HmgFighter => (9, Effect::OnePoint(4), 0),
        AirAttack::AntiSubmarine(o @ (Ordnance::SmallBombs | Ordnance::MediumBombs)) => {
            (7, Effect::He(ordnance_table(o)?, 0), 0)
        }
        AirAttack::AntiSubmarine(o) => {
            return Err(NavalError::CannotEngage(format!(
                "anti-submarine bombers carry small or medium bombs, not {o:?}"
            )));
        }
    };
    let needed = score + if submarine { 0 } else { night(light) };
    let (shots, hits, effects) = resolve(aircraft, 10, needed, effect, Some(target), dice);
    let out = outcome(shots, Some(target), lost);
    let section = if attack == AirAttack::Kamikaze { "29.16 Kamikaze Aircraft" } else { "29.10.6 Aircraft vs ships" };
    let event = RuleEvent::new(EventKind::Naval, rule(section))
        .actor(squadron_id)
        .target(target.id.clone())
        .input("attack", attack, "")
        .input("aircraft", aircraft, "1D10 each")
        .input("needed", needed, "night modifiers of the quick reference")
        .dice(10, &hits)
        .dice(6, &effects)
        .outcome(json!(out));
    Ok((out, event))
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;
    use warbound_rules::effects::{HE_EFFECTS, HeColumn};

    use super::*;
    use crate::naval::craft::Mount;

    fn armed(id: &str, craft: Craft, mounts: &[(Weapon, u8, Option<u8>)]) -> Vessel {
        let mounts = mounts
            .iter()
            .map(|&(w, n, s)| Mount {
                weapon: w,
                count: n,
                shots_per_gun_per_day: s,
                left_today: u16::from(n) * u16::from(s.unwrap_or(1)),
            })
            .collect();
        Vessel::new(id, craft, mounts)
    }

    fn destroyer() -> Vessel {
        armed(
            "D",
            Craft::Destroyer,
            &[
                (Weapon::Gun149mm, 4, Some(2)),
                (Weapon::Gun150mmPlus, 2, Some(2)),
                (Weapon::Aa20mm, 4, Some(3)),
                (Weapon::DepthCharges, 6, None),
            ],
        )
    }

    #[test]
    fn naval_chart_differs_from_heroes_all_and_governs() {
        assert_eq!(HeTable::F.effect(1), 2);
        assert_eq!(HeTable::F.effect(6), 5);
        assert_eq!(HeColumn::F.casualties(6), 4, "Heroes All reads 4");
        assert_ne!(NAVAL_HE_EFFECTS[5], HE_EFFECTS[5]);
        assert_eq!(HeTable::A.effect(1), 0, "blank cell");
        assert_eq!(HeTable::C.effect(6), 3);
    }

    #[test]
    fn calibres_and_ordnance_pick_columns() {
        assert_eq!(gun_table(Weapon::Gun75mm), Ok(HeTable::C));
        assert_eq!(gun_table(Weapon::Gun149mm), Ok(HeTable::E));
        assert_eq!(gun_table(Weapon::Gun150mmPlus), Ok(HeTable::F));
        assert!(gun_table(Weapon::Torpedoes).is_err());
        assert_eq!(ordnance_table(Ordnance::SmallBombs), Ok(HeTable::D));
        assert_eq!(ordnance_table(Ordnance::MediumBombs), Ok(HeTable::F));
        assert_eq!(ordnance_table(Ordnance::AtOrRockets), Ok(HeTable::C));
        assert!(ordnance_table(Ordnance::HeavyBombs).is_err());
    }

    #[test]
    fn ship_chart_as_printed() {
        use Craft::*;
        assert_eq!(ship_hit_score(Destroyer, Destroyer), Ok(6));
        assert_eq!(ship_hit_score(Destroyer, SmallGunboat), Ok(8));
        assert_eq!(ship_hit_score(Destroyer, Mtb), Ok(10));
        assert_eq!(ship_hit_score(Destroyer, Submarine), Ok(5));
        assert!(ship_hit_score(Destroyer, FishingBoat).is_err(), "n/a");
        assert_eq!(ship_hit_score(Gunboat, Destroyer), Ok(7));
        assert_eq!(ship_hit_score(SmallGunboat, Mtb), Ok(9));
        assert_eq!(ship_hit_score(Mtb, Destroyer), Ok(10));
        assert_eq!(ship_hit_score(Mtb, Mtb), Ok(8));
        assert_eq!(ship_hit_score(Gunboat, FishingBoat), Ok(6));
        assert_eq!(ship_hit_score(Gunboat, CargoShip), Ok(5), "the section, not the quick reference's 3+");
        assert_eq!(ship_hit_score(Destroyer, LandingCraft), Ok(3));
        assert!(ship_hit_score(Gunboat, Submarine).is_err());
        assert!(ship_hit_score(Submarine, Gunboat).is_err(), "submarines fire torpedoes");
    }

    #[test]
    fn coastal_battery_hits_on_9_and_reads_f() {
        let mut g = armed("G", Craft::Gunboat, &[]);
        // Two guns: 9 hits (effect D6 3 -> 3 points), 8 misses.
        let (o, e) = coastal_battery_fire("Bty", 2, &mut g, Light::Daylight, &mut Scripted::new([9, 3, 8])).unwrap();
        assert_eq!(o.effect, 3);
        assert_eq!(g.damage, 3);
        assert!(g.half_strength());
        assert!(!o.sunk);
        assert_eq!(e.dice.len(), 3);
        let mut m = armed("M", Craft::Mtb, &[]);
        assert!(coastal_battery_fire("Bty", 1, &mut m, Light::Daylight, &mut Scripted::new([])).is_err());
        assert!(coastal_battery_fire("Bty", 0, &mut g, Light::Daylight, &mut Scripted::new([])).is_err());
        let (o, _) = coastal_battery_fire("Bty", 1, &mut g, Light::NightMoon, &mut Scripted::new([9])).unwrap();
        assert!(!o.shots[0].hit, "10+ at night with moonlight");
    }

    #[test]
    fn destroyer_guns_one_shot_each_gunboat_75mm_two() {
        let mut d = destroyer();
        let mut t = armed("T", Craft::SmallGunboat, &[]);
        // 2 x 149mm: 8 hits (D6 1 -> E 1), 7 misses.
        let (o, _) =
            ship_fire(&mut d, Weapon::Gun149mm, 2, &mut t, false, Light::Daylight, &mut Scripted::new([8, 1, 7]))
                .unwrap();
        assert_eq!(o.shots.len(), 2);
        assert_eq!(o.effect, 1);
        assert_eq!(d.mount(Weapon::Gun149mm).unwrap().left_today, 6);
        let mut g = armed("G", Craft::Gunboat, &[(Weapon::Gun75mm, 2, Some(3))]);
        let mut target = destroyer();
        let (o, _) = ship_fire(
            &mut g,
            Weapon::Gun75mm,
            2,
            &mut target,
            false,
            Light::Daylight,
            &mut Scripted::new([7, 6, 1, 2, 3]),
        )
        .unwrap();
        assert_eq!(o.shots.len(), 4, "75mm and under: 2 shots per gun");
        assert_eq!(o.effect, 3, "C on a 6");
        assert_eq!(g.mount(Weapon::Gun75mm).unwrap().left_today, 2);
    }

    #[test]
    fn follow_up_bonus_for_destroyers_and_gunboats_only() {
        let mut d = destroyer();
        let mut t = armed("T", Craft::SmallGunboat, &[]);
        let (o, _) =
            ship_fire(&mut d, Weapon::Gun150mmPlus, 1, &mut t, true, Light::Daylight, &mut Scripted::new([7, 1]))
                .unwrap();
        assert_eq!(o.shots[0].needed, 7);
        assert!(o.shots[0].hit);
        assert_eq!(o.effect, 2, "F on a 1");
        let mut tr = armed("Tr", Craft::SmallGunboat, &[(Weapon::Gun75mm, 1, Some(3))]);
        let mut g = armed("G", Craft::Gunboat, &[]);
        let (o, _) =
            ship_fire(&mut tr, Weapon::Gun75mm, 1, &mut g, true, Light::Daylight, &mut Scripted::new([6, 6])).unwrap();
        assert_eq!(o.shots[0].needed, 7, "trawlers get no bonus");
    }

    #[test]
    fn half_strength_limits_guns_and_shots_run_out() {
        let mut d = destroyer();
        d.take_damage(6);
        let mut t = armed("T", Craft::CargoShip, &[]);
        assert!(
            ship_fire(&mut d, Weapon::Gun149mm, 3, &mut t, false, Light::Daylight, &mut Scripted::new([])).is_err()
        );
        let (o, _) =
            ship_fire(&mut d, Weapon::Gun149mm, 2, &mut t, false, Light::Daylight, &mut Scripted::new([1, 1])).unwrap();
        assert_eq!(o.effect, 0);
        d.mount_mut(Weapon::Gun149mm).unwrap().left_today = 1;
        let (o, _) =
            ship_fire(&mut d, Weapon::Gun149mm, 2, &mut t, false, Light::Daylight, &mut Scripted::new([1])).unwrap();
        assert_eq!(o.shots.len(), 1, "only the day's last shot");
        assert!(matches!(
            ship_fire(&mut d, Weapon::Gun149mm, 1, &mut t, false, Light::Daylight, &mut Scripted::new([])),
            Err(NavalError::NoShots(_))
        ));
    }

    #[test]
    fn depth_charges_two_per_attack_5_and_6() {
        let mut d = destroyer();
        let mut u = armed("U", Craft::Submarine, &[(Weapon::Torpedoes, 6, None)]);
        // 5 hits (D6 6 -> 2), 9 hits (D6 5 -> 1); night does not apply.
        let (o, _) = ship_fire(
            &mut d,
            Weapon::DepthCharges,
            2,
            &mut u,
            false,
            Light::NightNoMoon,
            &mut Scripted::new([5, 6, 9, 5]),
        )
        .unwrap();
        assert_eq!(o.effect, 3);
        assert_eq!(u.damage, 3);
        assert_eq!(d.mount(Weapon::DepthCharges).unwrap().left_today, 4);
        let (o, _) =
            ship_fire(&mut d, Weapon::DepthCharges, 2, &mut u, false, Light::Daylight, &mut Scripted::new([5, 4, 4]))
                .unwrap();
        assert_eq!(o.effect, 0, "a 4 does nothing");
        assert!(
            ship_fire(&mut d, Weapon::DepthCharges, 1, &mut u, false, Light::Daylight, &mut Scripted::new([])).is_err()
        );
        assert!(
            ship_fire(&mut d, Weapon::Gun149mm, 1, &mut u, false, Light::Daylight, &mut Scripted::new([])).is_err()
        );
    }

    #[test]
    fn torpedoes_half_dv_or_sink() {
        let mut u = armed("U", Craft::Submarine, &[(Weapon::Torpedoes, 6, None)]);
        let mut d = destroyer();
        let (o, _) =
            ship_fire(&mut u, Weapon::Torpedoes, 2, &mut d, false, Light::Daylight, &mut Scripted::new([8, 3, 7]))
                .unwrap();
        assert_eq!(o.effect, 6, "half of 12");
        assert!(!o.sunk);
        let (o, _) =
            ship_fire(&mut u, Weapon::Torpedoes, 1, &mut d, false, Light::Daylight, &mut Scripted::new([10, 4]))
                .unwrap();
        assert!(o.sunk);
        assert_eq!(u.mount(Weapon::Torpedoes).unwrap().left_today, 3);
        assert!(
            ship_fire(&mut u, Weapon::Torpedoes, 3, &mut destroyer(), false, Light::Daylight, &mut Scripted::new([]))
                .is_err()
        );
        assert_eq!(
            ship_fire(&mut u, Weapon::Torpedoes, 1, &mut d, false, Light::Daylight, &mut Scripted::new([])),
            Err(NavalError::Sunk)
        );
    }

    #[test]
    fn ships_fire_on_shore_at_3_plus() {
        let mut g = armed("G", Craft::Gunboat, &[(Weapon::Gun75mm, 3, Some(3))]);
        let (o, _) = ship_fire_at_shore(
            &mut g,
            Weapon::Gun75mm,
            3,
            false,
            Light::Daylight,
            &mut Scripted::new([3, 5, 2, 10, 6]),
        )
        .unwrap();
        assert_eq!(o.effect, 5, "C: 2 + 3");
        assert!(!o.sunk);
        assert!(
            ship_fire_at_shore(&mut g, Weapon::Gun75mm, 4, false, Light::Daylight, &mut Scripted::new([])).is_err()
        );
    }

    #[test]
    fn ship_aa_6_then_3_plus() {
        let mut d = destroyer();
        let (o, _) = ship_aa_fire(&mut d, 3, AircraftRole::Other, false, &mut Scripted::new([6, 3, 6, 2, 5])).unwrap();
        assert_eq!(o.shots.iter().filter(|s| s.hit).count(), 2);
        assert_eq!(o.effect, 1);
        assert!(ship_aa_fire(&mut d, 1, AircraftRole::Other, true, &mut Scripted::new([])).is_err());
        assert!(ship_aa_fire(&mut d, 1, AircraftRole::DiveBomber, true, &mut Scripted::new([1])).is_ok());
    }

    #[test]
    fn aircraft_against_ships() {
        let mut g = armed("G", Craft::Gunboat, &[]);
        let (o, _) =
            aircraft_attack("Sq", AirAttack::DiveBomber, 2, &mut g, Light::Daylight, &mut Scripted::new([6, 6, 5]))
                .unwrap();
        assert_eq!(o.effect, 3, "D on a 6");
        let (o, _) =
            aircraft_attack("Sq", AirAttack::HmgFighter, 2, &mut g, Light::Daylight, &mut Scripted::new([9, 4, 10, 3]))
                .unwrap();
        assert_eq!(o.effect, 1);
        assert!(
            aircraft_attack("Sq", AirAttack::TorpedoBomber, 1, &mut g, Light::Daylight, &mut Scripted::new([]))
                .is_err()
        );
        assert!(
            aircraft_attack(
                "Sq",
                AirAttack::FighterBomber(Ordnance::HeavyBombs),
                1,
                &mut g,
                Light::Daylight,
                &mut Scripted::new([])
            )
            .is_err()
        );
        let mut u = armed("U", Craft::Submarine, &[]);
        assert!(
            aircraft_attack("Sq", AirAttack::DiveBomber, 1, &mut u, Light::Daylight, &mut Scripted::new([])).is_err()
        );
        let (o, _) = aircraft_attack(
            "Sq",
            AirAttack::AntiSubmarine(Ordnance::MediumBombs),
            1,
            &mut u,
            Light::NightNoMoon,
            &mut Scripted::new([7, 6]),
        )
        .unwrap();
        assert_eq!(o.effect, 5, "F on a 6; no night modifier against a submarine");
        let (o, _) = aircraft_attack(
            "Sq",
            AirAttack::FighterBomber(Ordnance::AtOrRockets),
            1,
            &mut destroyer(),
            Light::Daylight,
            &mut Scripted::new([8, 6]),
        )
        .unwrap();
        assert_eq!(o.effect, 3, "C on a 6");
    }

    #[test]
    fn torpedo_bomber_sinks_a_destroyer_on_4_plus() {
        let mut d = destroyer();
        let (o, _) =
            aircraft_attack("Sq", AirAttack::TorpedoBomber, 1, &mut d, Light::Daylight, &mut Scripted::new([6, 4]))
                .unwrap();
        assert!(o.sunk);
        assert_eq!(d.damage, 12);
    }

    #[test]
    fn kamikaze_adds_one_and_is_lost() {
        let mut d = destroyer();
        let (o, e) =
            aircraft_attack("Sq", AirAttack::Kamikaze, 2, &mut d, Light::Daylight, &mut Scripted::new([6, 6, 5]))
                .unwrap();
        assert_eq!(o.effect, 4, "D 3 + 1");
        assert_eq!(o.aircraft_lost, 2, "lost whether successful or not");
        assert_eq!(e.rule.section, "29.16 Kamikaze Aircraft");
    }

    #[test]
    fn damage_stops_at_sinking() {
        let mut f = armed("F", Craft::FishingBoat, &[]);
        let mut g = armed("G", Craft::Gunboat, &[(Weapon::Gun75mm, 1, Some(3))]);
        let (o, _) =
            ship_fire(&mut g, Weapon::Gun75mm, 1, &mut f, false, Light::Daylight, &mut Scripted::new([6, 6, 9, 6]))
                .unwrap();
        assert!(o.sunk);
        assert_eq!(o.effect, 2, "only the fishing boat's 2 points");
    }

    #[test]
    fn mtb_torpedoes_fire_like_a_submarines() {
        let mut m = armed("S-38", Craft::Mtb, &[(Weapon::Gun75mm, 2, Some(3)), (Weapon::Torpedoes, 4, None)]);
        let mut c = armed("Cargo", Craft::CargoShip, &[]);
        let (o, e) =
            ship_fire(&mut m, Weapon::Torpedoes, 2, &mut c, false, Light::Daylight, &mut Scripted::new([8, 2, 7]))
                .unwrap();
        assert_eq!(o.effect, 2, "half of the cargo ship's 4");
        assert_eq!(e.rule.section, "29.10.2 Submarine vs ship firing");
        assert_eq!(m.mount(Weapon::Torpedoes).unwrap().left_today, 2);
        let mut g = armed("G", Craft::Gunboat, &[(Weapon::Torpedoes, 2, None)]);
        assert!(
            ship_fire(&mut g, Weapon::Torpedoes, 1, &mut c, false, Light::Daylight, &mut Scripted::new([])).is_err()
        );
    }

    #[test]
    fn night_firing_can_put_a_hit_out_of_reach() {
        let mut m = armed("M", Craft::Mtb, &[(Weapon::Gun75mm, 1, Some(3))]);
        let mut d = destroyer();
        let (o, _) =
            ship_fire(&mut m, Weapon::Gun75mm, 1, &mut d, false, Light::NightMoon, &mut Scripted::new([10, 10]))
                .unwrap();
        assert_eq!(o.shots[0].needed, 11);
        assert!(o.shots.iter().all(|s| !s.hit));
    }

    #[test]
    fn a_sunk_or_retired_ship_does_not_fire() {
        let mut d = destroyer();
        d.condition = 0;
        let mut g = armed("G", Craft::Gunboat, &[]);
        assert_eq!(
            ship_fire(&mut d, Weapon::Gun149mm, 1, &mut g, false, Light::Daylight, &mut Scripted::new([])),
            Err(NavalError::Retired)
        );
        assert_eq!(
            ship_aa_fire(&mut d, 1, AircraftRole::Other, false, &mut Scripted::new([])),
            Err(NavalError::Retired)
        );
    }
}
