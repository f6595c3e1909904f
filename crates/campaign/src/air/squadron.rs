//! Squadrons and their aircraft (FYOW 28.1–28.3): the Squadron Log, the
//! daily Preparation throw, repairs to damage, second sorties, and damage
//! taken on a mission.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::air::{AirError, Role, Speed, rule};

/// "An aircraft Squadron comprises normally, 3 machines" (28.1).
pub const SQUADRON_MACHINES: usize = 3;

/// The Preparation throw: "score 3+ to indicate that it is operational" (28.2).
pub const PREPARATION: u8 = 3;

/// "If the aircraft has 'Endurance', add 1 to this requirement" (28.2).
pub const ENDURANCE_PREPARATION: u8 = 1;

/// Where a squadron is based (28.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basing {
    /// "Aircraft based on distant airfields away from the campaign area."
    Distant,
    /// "Aircraft based at local airfields, close to the campaign area."
    Local,
}

/// An aircraft's standing in the Squadron Log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Fuelled and armed: may fly today.
    Operational,
    /// Not available (failed its Preparation throw, or still damaged).
    Inactive,
    /// Shot down.
    Lost,
}

/// One machine of a squadron. "Each aircraft in the squadron fire, move and
/// take damage individually" (28.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aircraft {
    /// Strength factor from the Codex: "Each 'damage' reduces the strength of the aircraft by 1" (28.11).
    pub strength: u8,
    /// Damages recorded in the Squadron Log ("X2").
    pub damage: u8,
    pub status: Status,
}

impl Aircraft {
    /// A new machine of the given strength, not yet prepared.
    pub const fn new(strength: u8) -> Self {
        Self { strength, damage: 0, status: Status::Inactive }
    }

    /// The Squadron Log entry: "X" and the damages (`X2`), or empty.
    pub fn log_mark(&self) -> String {
        if self.damage == 0 { String::new() } else { format!("X{}", self.damage) }
    }

    /// Strength left after damage.
    pub fn strength_left(&self) -> u8 {
        self.strength.saturating_sub(self.damage)
    }

    /// Shown with an "X" in the Squadron Log.
    pub fn damaged(&self) -> bool {
        self.damage > 0
    }
}

/// What damage left an aircraft as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageOutcome {
    Flying,
    /// "If the aircraft strength is reduced to 0 (and thus is 'driven off')" (28.8, Recce).
    DrivenOff,
    ShotDown,
}

/// A squadron of comparable machines of one type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Squadron {
    pub name: String,
    pub role: Role,
    /// Speed class of the type as built; see [`Squadron::speed`].
    pub speed: Speed,
    pub basing: Basing,
    /// Fitted with "Endurance" tanks (28.6).
    pub endurance: bool,
    pub aircraft: Vec<Aircraft>,
    /// Flew a sortie today: if not, its operational machines need no Preparation throw tomorrow.
    pub used_today: bool,
    /// Flew a second sortie today (28.3).
    #[serde(default)]
    pub second_sortie: bool,
}

/// One aircraft's Preparation throw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preparation {
    /// Index of the machine in its squadron.
    pub aircraft: usize,
    /// `None`: operational and unused yesterday, so no throw (28.2).
    pub face: Option<u8>,
    /// The score needed: 3 (4 with Endurance) plus the damages.
    pub need: u8,
    /// Damages repaired by this throw.
    pub repaired: u8,
    /// Available for duty.
    pub operational: bool,
    /// Was not operational and now is: it rallies Air Command (28.12).
    pub returned_to_service: bool,
}

impl Squadron {
    /// A squadron of `machines` aircraft of `strength`. Endurance is only
    /// fitted to the types whose Flight Time it extends.
    pub fn new(
        name: impl Into<String>,
        role: Role,
        speed: Speed,
        basing: Basing,
        endurance: bool,
        machines: usize,
        strength: u8,
    ) -> Result<Self, AirError> {
        if machines == 0 {
            return Err(AirError::EmptySquadron);
        }
        if endurance && !role.takes_endurance() {
            return Err(AirError::EnduranceNotFitted(role));
        }
        Ok(Self {
            name: name.into(),
            role,
            speed,
            basing,
            endurance,
            aircraft: vec![Aircraft::new(strength); machines],
            used_today: false,
            second_sortie: false,
        })
    }

    /// The speed class flown: "Endurance" removes any "Agile" capability (28.6).
    pub fn speed(&self) -> Speed {
        match (self.speed, self.endurance) {
            (Speed::FastAgile, true) => Speed::Fast,
            (speed, _) => speed,
        }
    }

    /// The undamaged Preparation score: 3+, 4+ with Endurance.
    pub fn preparation_base(&self) -> u8 {
        PREPARATION + if self.endurance { ENDURANCE_PREPARATION } else { 0 }
    }

    /// Machines operational now.
    pub fn operational(&self) -> usize {
        self.aircraft.iter().filter(|a| a.status == Status::Operational).count()
    }

    /// The indices of the machines operational now, in the squadron's order.
    pub fn flying(&self) -> Vec<usize> {
        self.aircraft.iter().enumerate().filter(|(_, a)| a.status == Status::Operational).map(|(i, _)| i).collect()
    }

    /// Machines inactive for Air Command's count (28.12): not lost, not damaged, not operational.
    ///
    /// Reading (FYOW 28.12): the example counts "damages to others" and
    /// "machines inactive" apart, so a damaged machine counts its damages and
    /// not also 1 as inactive (test `inactive_and_damages_for_air_command`).
    pub fn inactive(&self) -> u32 {
        self.aircraft.iter().filter(|a| a.status == Status::Inactive && a.damage == 0).count() as u32
    }

    /// Damages in the Squadron Log of machines not lost.
    pub fn damages(&self) -> u32 {
        self.aircraft.iter().filter(|a| a.status != Status::Lost).map(|a| u32::from(a.damage)).sum()
    }

    /// Machines lost.
    pub fn lost(&self) -> u32 {
        self.aircraft.iter().filter(|a| a.status == Status::Lost).count() as u32
    }

    /// The start-of-day Preparation throws (28.2, 28.3): a D6 per machine
    /// against 3+ (4+ with Endurance) plus its damages. A damaged machine
    /// that fails repairs the excess over the base ("4 minus 3 equals 1
    /// repair") and stays unavailable. Machines operational in a squadron that
    /// was not used yesterday need no throw. Lost machines are skipped.
    ///
    /// Reading (FYOW 28.3): with Endurance the excess is counted over 4, the
    /// Endurance requirement (the QRG: "3+ on a D6 with excess removing
    /// Damage (4+ if Endurance)") (test `endurance_machine_repairs_the_excess_over_four`).
    pub fn prepare_day(&mut self, dice: &mut impl Roll) -> (Vec<Preparation>, RuleEvent) {
        let base = self.preparation_base();
        let unused = !self.used_today;
        let mut results = Vec::new();
        let mut faces = Vec::new();
        for (i, a) in self.aircraft.iter_mut().enumerate() {
            if a.status == Status::Lost {
                continue;
            }
            let need = base.saturating_add(a.damage);
            if unused && a.status == Status::Operational && a.damage == 0 {
                results.push(Preparation {
                    aircraft: i,
                    face: None,
                    need,
                    repaired: 0,
                    operational: true,
                    returned_to_service: false,
                });
                continue;
            }
            let was_operational = a.status == Status::Operational;
            let face = dice.d6();
            faces.push(face);
            let (operational, repaired) =
                if face >= need { (true, a.damage) } else { (false, face.saturating_sub(base).min(a.damage)) };
            a.damage -= repaired;
            a.status = if operational { Status::Operational } else { Status::Inactive };
            results.push(Preparation {
                aircraft: i,
                face: Some(face),
                need,
                repaired,
                operational,
                returned_to_service: operational && !was_operational,
            });
        }
        self.used_today = false;
        self.second_sortie = false;
        let event = RuleEvent::new(EventKind::AirOperation, rule("28.2 Supply for air operations"))
            .actor(&self.name)
            .input("base", base, "3+ to be operational; +1 with Endurance")
            .input("unused_yesterday", unused, "operational machines of an unused squadron need no throw")
            .input("damage", self.aircraft.iter().map(|a| a.damage).collect::<Vec<_>>(), "after repairs")
            .dice(6, &faces)
            .outcome(json!({ "preparations": results }));
        (results, event)
    }

    /// Preparation throws for a second sortie the same day (28.3): every
    /// machine throws again, but "any aircraft showing damage will not be
    /// able to join the second sortie" and no damage is repaired.
    pub fn prepare_second_sortie(&mut self, dice: &mut impl Roll) -> (Vec<Preparation>, RuleEvent) {
        self.second_sortie = true;
        let base = self.preparation_base();
        let mut results = Vec::new();
        let mut faces = Vec::new();
        for (i, a) in self.aircraft.iter_mut().enumerate() {
            if a.status == Status::Lost {
                continue;
            }
            if a.damage > 0 {
                a.status = Status::Inactive;
                results.push(Preparation {
                    aircraft: i,
                    face: None,
                    need: base.saturating_add(a.damage),
                    repaired: 0,
                    operational: false,
                    returned_to_service: false,
                });
                continue;
            }
            let face = dice.d6();
            faces.push(face);
            let operational = face >= base;
            a.status = if operational { Status::Operational } else { Status::Inactive };
            results.push(Preparation {
                aircraft: i,
                face: Some(face),
                need: base,
                repaired: 0,
                operational,
                returned_to_service: false,
            });
        }
        let event =
            RuleEvent::new(EventKind::AirOperation, rule("28.3 Repairs to damage received whilst on a mission"))
                .actor(&self.name)
                .input("base", base, "second sortie: damaged machines cannot join, no repairs")
                .dice(6, &faces)
                .outcome(json!({ "preparations": results }));
        (results, event)
    }

    /// The squadron flies a sortie: it will need Preparation throws tomorrow.
    pub fn fly_sortie(&mut self) {
        self.used_today = true;
    }

    /// Damages taken by machine `index` (AA or air-to-air).
    ///
    /// Reading (FYOW 28.8, 28.11): a machine whose strength is brought to
    /// exactly 0 is "driven off" (the recce rule), and one damaged beyond its
    /// strength is shot down and lost; a driven-off machine leaves the action
    /// (inactive) and returns with its damages in the log (test
    /// `damage_drives_off_at_zero_and_shoots_down_below`).
    pub fn take_damage(&mut self, index: usize, damages: u8) -> Result<(DamageOutcome, RuleEvent), AirError> {
        let a = self.aircraft.get_mut(index).ok_or(AirError::NoSuchAircraft(index))?;
        if a.status == Status::Lost {
            return Err(AirError::AircraftLost);
        }
        let before = a.damage;
        a.damage = a.damage.saturating_add(damages);
        let outcome = if a.damage > a.strength {
            a.status = Status::Lost;
            DamageOutcome::ShotDown
        } else if a.damage == a.strength && damages > 0 {
            a.status = Status::Inactive;
            DamageOutcome::DrivenOff
        } else {
            DamageOutcome::Flying
        };
        let event = RuleEvent::new(EventKind::AirOperation, rule("28.11 Air-to-air combat"))
            .target(format!("{}#{index}", self.name))
            .input("strength", a.strength, "Codex strength factor")
            .input("damage_before", before, "")
            .input("damages", damages, "each reduces strength by 1")
            .outcome(json!({ "result": outcome, "log": a.log_mark() }));
        Ok((outcome, event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::dice::Scripted;

    fn squadron(endurance: bool) -> Squadron {
        Squadron::new("601", Role::Fighter, Speed::FastAgile, Basing::Local, endurance, 3, 3).unwrap()
    }

    #[test]
    fn preparation_needs_three_plus() {
        let mut s = squadron(false);
        let (p, e) = s.prepare_day(&mut Scripted::new([3, 2, 6]));
        assert_eq!(p.iter().map(|p| p.operational).collect::<Vec<_>>(), [true, false, true]);
        assert_eq!(s.operational(), 2);
        assert!(p[0].returned_to_service);
        assert_eq!(e.dice.len(), 3);
        assert_eq!(e.kind, EventKind::AirOperation);
    }

    #[test]
    fn endurance_adds_one_to_the_preparation_and_removes_agility() {
        let mut s = squadron(true);
        assert_eq!(s.preparation_base(), 4);
        assert_eq!(s.speed(), Speed::Fast);
        assert_eq!(squadron(false).speed(), Speed::FastAgile);
        let (p, _) = s.prepare_day(&mut Scripted::new([3, 4, 6]));
        assert_eq!(p.iter().map(|p| p.operational).collect::<Vec<_>>(), [false, true, true]);
    }

    #[test]
    fn endurance_only_for_types_it_extends() {
        assert_eq!(
            Squadron::new("B", Role::Bomber, Speed::Slow, Basing::Distant, true, 3, 4).unwrap_err(),
            AirError::EnduranceNotFitted(Role::Bomber)
        );
        assert_eq!(
            Squadron::new("B", Role::Bomber, Speed::Slow, Basing::Distant, false, 0, 4).unwrap_err(),
            AirError::EmptySquadron
        );
    }

    #[test]
    fn unused_operational_squadron_needs_no_throw_next_day() {
        let mut s = squadron(false);
        s.prepare_day(&mut Scripted::new([6, 1, 6]));
        // Not used: the two operational machines keep their status; the inactive one throws.
        let (p, _) = s.prepare_day(&mut Scripted::new([5]));
        assert_eq!(p.iter().map(|p| p.face).collect::<Vec<_>>(), [None, Some(5), None]);
        assert_eq!(s.operational(), 3);
        // Used today: every machine throws tomorrow.
        s.fly_sortie();
        let (p, _) = s.prepare_day(&mut Scripted::new([1, 1, 1]));
        assert!(p.iter().all(|p| p.face.is_some() && !p.operational));
    }

    #[test]
    fn book_example_x2_needs_five_and_a_four_repairs_one() {
        // FYOW 28.3: "an aircraft shown as X2 must throw a 5+ to become operational
        // without Endurance"; a throw of 4 "deducts 3 and can record that 1 of its
        // damage has been repaired ... amended to show it as X1. This machine is still
        // not available for duty." A throw of 1, 2 or 3 repairs nothing.
        let mut s = squadron(false);
        s.aircraft.truncate(1);
        s.aircraft[0].damage = 2;
        s.fly_sortie();
        assert_eq!(s.aircraft[0].log_mark(), "X2");
        let (p, _) = s.prepare_day(&mut Scripted::new([4]));
        assert_eq!((p[0].need, p[0].repaired, p[0].operational), (5, 1, false));
        assert_eq!(s.aircraft[0].log_mark(), "X1");
        let (p, _) = s.prepare_day(&mut Scripted::new([3]));
        assert_eq!((p[0].need, p[0].repaired), (4, 0));
        assert_eq!(s.aircraft[0].log_mark(), "X1");
        let (p, _) = s.prepare_day(&mut Scripted::new([4]));
        assert!(p[0].operational && p[0].returned_to_service);
        assert_eq!(s.aircraft[0].log_mark(), "");
        // And an X2 that throws 5 is operational at once.
        s.aircraft[0].damage = 2;
        s.fly_sortie();
        let (p, _) = s.prepare_day(&mut Scripted::new([5]));
        assert_eq!((p[0].repaired, p[0].operational, s.aircraft[0].damage), (2, true, 0));
    }

    #[test]
    fn endurance_machine_repairs_the_excess_over_four() {
        let mut s = squadron(true);
        s.aircraft.truncate(1);
        s.aircraft[0].damage = 2;
        let (p, _) = s.prepare_day(&mut Scripted::new([5]));
        assert_eq!((p[0].need, p[0].repaired, p[0].operational), (6, 1, false));
        // X4 without Endurance can never throw 7: it repairs up to 3 a day.
        let mut s = squadron(false);
        s.aircraft[0].damage = 4;
        s.aircraft[0].strength = 5;
        let (p, _) = s.prepare_day(&mut Scripted::new([6, 1, 1]));
        assert_eq!((p[0].need, p[0].repaired, p[0].operational), (7, 3, false));
        assert_eq!(s.aircraft[0].damage, 1);
    }

    #[test]
    fn inactive_and_damages_for_air_command() {
        let mut s = squadron(false);
        s.prepare_day(&mut Scripted::new([1, 6, 6]));
        s.fly_sortie();
        s.take_damage(1, 2).unwrap();
        s.take_damage(2, 4).unwrap();
        assert_eq!((s.inactive(), s.damages(), s.lost()), (1, 2, 1));
        s.prepare_day(&mut Scripted::new([6, 3]));
        assert_eq!((s.inactive(), s.damages(), s.lost()), (0, 2, 1), "X2 throwing 3 repairs nothing");
    }

    #[test]
    fn damaged_machines_miss_the_second_sortie() {
        let mut s = squadron(false);
        s.prepare_day(&mut Scripted::new([6, 6, 6]));
        s.fly_sortie();
        s.take_damage(1, 1).unwrap();
        let (p, e) = s.prepare_second_sortie(&mut Scripted::new([2, 3]));
        assert_eq!(p.iter().map(|p| p.operational).collect::<Vec<_>>(), [false, false, true]);
        assert_eq!(p[1].face, None, "damaged: no throw, no repair");
        assert_eq!(s.aircraft[1].damage, 1);
        assert_eq!(e.dice.len(), 2);
    }

    #[test]
    fn damage_drives_off_at_zero_and_shoots_down_below() {
        let mut s = squadron(false);
        assert_eq!(s.take_damage(0, 2).unwrap().0, DamageOutcome::Flying);
        assert_eq!(s.take_damage(0, 1).unwrap().0, DamageOutcome::DrivenOff);
        assert_eq!((s.aircraft[0].strength_left(), s.aircraft[0].status), (0, Status::Inactive));
        assert_eq!(s.take_damage(0, 1).unwrap().0, DamageOutcome::ShotDown);
        assert_eq!(s.aircraft[0].status, Status::Lost);
        assert_eq!(s.take_damage(0, 1).unwrap_err(), AirError::AircraftLost);
        assert_eq!(s.take_damage(7, 1).unwrap_err(), AirError::NoSuchAircraft(7));
        assert_eq!(s.take_damage(1, 5).unwrap().0, DamageOutcome::ShotDown);
        // Lost machines take no more Preparation throws.
        let (p, _) = s.prepare_day(&mut Scripted::new([6]));
        assert_eq!(p.len(), 1);
    }
}
