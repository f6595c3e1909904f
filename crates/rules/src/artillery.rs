//! *Heroes All*, "Advanced Artillery Rules": the Forward Observation
//! Officer's radio net and his replacement, where off-table batteries stand
//! (their short range behind the table edge), and Interdiction Fire on
//! Artillery Targets 1–4, switched by both Acts and a Leadership Test (British
//! FOOs need none). The book's text ends part-way through the replacement of
//! Artillery Targets; what is printed is implemented.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice::Roll;
use crate::event::RuleEvent;
use crate::firing::{Band, FireError, Reach, WeaponRange};
use crate::inches::Inches;
use crate::officer::{self, Officer, Rank};
use crate::opc::Nation;
use crate::strategic::{self, RadioNet, StrategicError};

/// Bad input to an artillery rule, or an order the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArtilleryError {
    /// "He must net-in his radio ... before off-table firing can re-commence."
    NotNetted,
    /// A replacement FOO "must be a CO of an infantry or armoured Company/Squadron".
    NotACompanyOfficer,
    /// The weapon's range has no short band to stand behind the table.
    NoShortRange,
    Fire(FireError),
    Radio(StrategicError),
    /// "The total number of Artillery Targets cannot exceed 4."
    TooManyTargets,
    /// No Artillery Target with this number.
    NoSuchTarget(u8),
    /// Nominating or switching the target takes "both Acts".
    NeedsBothActs,
    /// No target is active yet: the first activation must nominate one.
    NoActiveTarget,
    /// A new target can be switched to only "on his next activation".
    NotYetAvailable(u8),
}

impl fmt::Display for ArtilleryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for ArtilleryError {}

/// What a replacement FOO commands: "a CO of an infantry or armoured Company/Squadron".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    InfantryCompany,
    ArmouredSquadron,
    Other,
}

/// The Forward Observation Officer and his radio.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Foo {
    pub officer: Officer,
    pub nation: Nation,
    pub net: RadioNet,
}

impl Foo {
    /// A FOO at the start of the game: not yet netted in.
    pub fn new(officer: Officer, nation: Nation) -> Self {
        Self { officer, nation, net: RadioNet::default() }
    }

    /// "The FOO must use an Act to net-in his radio at the start of the game.
    /// See Radio Rules in Fight Your Own Battles": a Radio Test.
    pub fn net_in(&mut self, dice: &mut impl Roll, id: &str) -> Result<(bool, RuleEvent), ArtilleryError> {
        strategic::radio_test(&self.nation, &mut self.net, dice, id).map_err(ArtilleryError::Radio)
    }

    /// Off-table guns fire only while the FOO's radio is netted in.
    pub fn may_call_fire(&self) -> Result<(), ArtilleryError> {
        if self.net.netted { Ok(()) } else { Err(ArtilleryError::NotNetted) }
    }
}

/// "In the event that the FOO is a casualty, the Battlegroup Commander (BC)
/// when next activated, can appoint a replacement who must be a CO of an
/// infantry or armoured Company/Squadron. He must net-in his radio as above":
/// the new FOO starts off the net.
pub fn replacement_foo(officer: Officer, command: Command, nation: Nation) -> Result<Foo, ArtilleryError> {
    if officer.rank() != Rank::CompanyOfficer || command == Command::Other {
        return Err(ArtilleryError::NotACompanyOfficer);
    }
    Ok(Foo::new(officer, nation))
}

/// How far behind the table edge an off-table battery stands: "the distance
/// given as their 'short' range (e.g. a British 4.5 inch gun with a short
/// range of 45 inches fires from 45 inches behind the baseboard edge)".
/// The range is the named gun's, where the CODEX gives it its own (the 4.5in
/// gun's 45"), else its Weapons table row's (30" for the gun rows).
pub fn behind_the_edge(range: WeaponRange) -> Result<u8, ArtilleryError> {
    match range {
        WeaponRange::Bands { short: Some(s), .. } => Ok(s),
        _ => Err(ArtilleryError::NoShortRange),
    }
}

/// The range band of an off-table battery's fire at a target `from_edge`
/// inches onto the table.
///
/// Reading: "Range measurements are taken from the board edge to the target"
/// is the tape laid on the table; the battery's distance behind the edge is
/// added to it, or standing it back would mean nothing. So off-table fire is
/// never at short range (test `reading_off_table_range_adds_the_distance_behind_the_edge`).
pub fn off_table_band(range: WeaponRange, from_edge: Inches) -> Result<(Inches, Band), ArtilleryError> {
    let behind = behind_the_edge(range)?;
    let distance = Inches(f32::from(behind)) + from_edge;
    let band = range.band(distance).map_err(ArtilleryError::Fire)?;
    Ok((distance, band))
}

/// "The total number of Artillery Targets cannot exceed 4."
pub const MAX_TARGETS: usize = 4;
/// Targets nominated at the start of the game: "2 target points ... marked
/// with Artillery Target counters numbered 1 and 2".
pub const START_TARGETS: [u8; 2] = [1, 2];

/// One Artillery Target counter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArtilleryTarget {
    pub number: u8,
    /// Where on the table (inches).
    pub at: (f32, f32),
    /// Nominated on the FOO's activation of this number (start of game: 0).
    pub nominated_on: u32,
}

/// A FOO's Interdiction Fire plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Interdiction {
    pub targets: Vec<ArtilleryTarget>,
    /// The counter turned to "Active": the guns fire on it with their Fire order.
    pub active: Option<u8>,
    /// The FOO's activations so far.
    pub activations: u32,
}

/// Whether this FOO's switches need a Leadership Test: "British FOOs and
/// their batteries do not need to pass a Leadership Test."
pub fn switch_needs_test(nation: &Nation) -> bool {
    *nation != Nation::British
}

impl Interdiction {
    /// "At the start of the game, nominate 2 target points on the table."
    pub fn new(first: (f32, f32), second: (f32, f32)) -> Self {
        let targets = START_TARGETS
            .iter()
            .zip([first, second])
            .map(|(&number, at)| ArtilleryTarget { number, at, nominated_on: 0 })
            .collect();
        Self { targets, active: None, activations: 0 }
    }

    /// The FOO is activated: counts the activation.
    pub fn activate(&mut self) {
        self.activations += 1;
    }

    fn has(&self, number: u8) -> Result<&ArtilleryTarget, ArtilleryError> {
        self.targets.iter().find(|t| t.number == number).ok_or(ArtilleryError::NoSuchTarget(number))
    }

    /// "When first activated, the FOO uses both Acts to nominate one
    /// Artillery Target as being active" (no test).
    pub fn nominate_first(&mut self, number: u8, acts: usize) -> Result<(), ArtilleryError> {
        if acts < 2 {
            return Err(ArtilleryError::NeedsBothActs);
        }
        self.has(number)?;
        self.active = Some(number);
        Ok(())
    }

    /// "Use an Act to observe a potential target and, if successful,
    /// nominate this as a further Interdiction target" (observation is the
    /// caller's). Takes the lowest free number 1–4.
    pub fn add_target(&mut self, at: (f32, f32)) -> Result<u8, ArtilleryError> {
        if self.targets.len() >= MAX_TARGETS {
            return Err(ArtilleryError::TooManyTargets);
        }
        let number = (1..=MAX_TARGETS as u8).find(|n| self.has(*n).is_err()).ok_or(ArtilleryError::TooManyTargets)?;
        self.targets.push(ArtilleryTarget { number, at, nominated_on: self.activations });
        Ok(number)
    }

    /// "Select additional Artillery Targets in replacement for those already
    /// identified": the counter `number` moves to a new point.
    pub fn replace_target(&mut self, number: u8, at: (f32, f32)) -> Result<(), ArtilleryError> {
        let activations = self.activations;
        let t = self.targets.iter_mut().find(|t| t.number == number).ok_or(ArtilleryError::NoSuchTarget(number))?;
        t.at = at;
        t.nominated_on = activations;
        Ok(())
    }

    /// "Use both of his Acts and pass a Leadership Test to instruct the guns
    /// to switch to another of his Artillery Targets. The new target will be
    /// used when the guns use their next Fire order." A target observed and
    /// nominated during the game can be switched to "on his next activation".
    /// British FOOs throw no test.
    pub fn switch(
        &mut self,
        observer: &Foo,
        number: u8,
        acts: usize,
        dice: &mut impl Roll,
        id: &str,
    ) -> Result<(bool, Option<RuleEvent>), ArtilleryError> {
        if acts < 2 {
            return Err(ArtilleryError::NeedsBothActs);
        }
        if self.active.is_none() {
            return Err(ArtilleryError::NoActiveTarget);
        }
        let t = self.has(number)?;
        if t.nominated_on != 0 && t.nominated_on >= self.activations {
            return Err(ArtilleryError::NotYetAvailable(number));
        }
        let (passed, event) = if switch_needs_test(&observer.nation) {
            let (test, e) = officer::leadership_test(observer.officer, dice, id);
            (test.passed, Some(e))
        } else {
            (true, None)
        };
        if passed {
            self.active = Some(number);
        }
        let event = event
            .map(|e| e.input("switch_to", number, "Heroes All, Interdiction Fire: both Acts and a Leadership Test"));
        Ok((passed, event))
    }
}

/// The long reach of the gun rows ("table"): off-table guns reach the far edge.
pub const fn reaches_the_table(range: WeaponRange) -> bool {
    matches!(range, WeaponRange::Bands { long: Some(Reach::Table), .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::event::EventKind;
    use crate::firing::Weapon;
    use crate::officer::Grade;

    fn observer(nation: Nation) -> Foo {
        Foo::new(Officer::new(Rank::Nco, Grade::Regular).unwrap(), nation)
    }

    #[test]
    fn foo_nets_in_before_calling_fire() {
        let mut f = observer(Nation::British);
        assert_eq!(f.may_call_fire(), Err(ArtilleryError::NotNetted));
        let (ok, e) = f.net_in(&mut Scripted::new([10]), "FOO").unwrap();
        assert!(ok);
        assert_eq!(e.kind, EventKind::RadioTest);
        assert_eq!(f.may_call_fire(), Ok(()));
    }

    #[test]
    fn replacement_is_an_infantry_or_armoured_co_off_the_net() {
        let co = Officer::new(Rank::CompanyOfficer, Grade::Bold).unwrap();
        let f = replacement_foo(co, Command::ArmouredSquadron, Nation::German).unwrap();
        assert_eq!(f.may_call_fire(), Err(ArtilleryError::NotNetted));
        assert!(replacement_foo(co, Command::InfantryCompany, Nation::German).is_ok());
        assert_eq!(replacement_foo(co, Command::Other, Nation::German), Err(ArtilleryError::NotACompanyOfficer));
        let nco = Officer::new(Rank::Nco, Grade::Bold).unwrap();
        assert_eq!(
            replacement_foo(nco, Command::InfantryCompany, Nation::German),
            Err(ArtilleryError::NotACompanyOfficer)
        );
    }

    #[test]
    fn worked_example_british_45in_gun_stands_45_inches_behind_the_edge() {
        let codex = crate::codex::test_codex();
        let gun = codex.get("gb_45in_gun").unwrap();
        assert_eq!(behind_the_edge(gun.armament[0].range()), Ok(45));
        // The Weapons table's 105-149mm row alone would put it 30" back.
        assert_eq!(behind_the_edge(Weapon::Howitzer149.row().range), Ok(30));
        assert!(reaches_the_table(gun.armament[0].range()));
        assert_eq!(behind_the_edge(Weapon::MediumMortar.row().range), Err(ArtilleryError::NoShortRange));
    }

    #[test]
    fn reading_off_table_range_adds_the_distance_behind_the_edge() {
        let r = Weapon::Howitzer149.row().range; // 30 / 60 / table
        assert_eq!(off_table_band(r, Inches(10.0)), Ok((Inches(40.0), Band::Effective)));
        assert_eq!(off_table_band(r, Inches(40.0)), Ok((Inches(70.0), Band::Long)));
        assert_eq!(off_table_band(r, Inches(0.0)).unwrap().1, Band::Short, "only a target on the edge line");
    }

    #[test]
    fn interdiction_targets_one_to_four() {
        let mut plan = Interdiction::new((10.0, 20.0), (30.0, 40.0));
        assert_eq!(plan.targets.iter().map(|t| t.number).collect::<Vec<_>>(), [1, 2]);
        plan.activate();
        assert_eq!(plan.nominate_first(1, 1), Err(ArtilleryError::NeedsBothActs));
        plan.nominate_first(1, 2).unwrap();
        assert_eq!(plan.active, Some(1));
        assert_eq!(plan.add_target((5.0, 5.0)), Ok(3));
        assert_eq!(plan.add_target((6.0, 6.0)), Ok(4));
        assert_eq!(plan.add_target((7.0, 7.0)), Err(ArtilleryError::TooManyTargets));
        plan.replace_target(2, (8.0, 8.0)).unwrap();
        assert_eq!(plan.has(2).unwrap().at, (8.0, 8.0));
        assert_eq!(plan.replace_target(5, (0.0, 0.0)), Err(ArtilleryError::NoSuchTarget(5)));
    }

    #[test]
    fn switching_needs_both_acts_a_leadership_test_and_a_new_activation() {
        let f = observer(Nation::German); // Regular NCO: under 5.
        let mut plan = Interdiction::new((0.0, 0.0), (1.0, 1.0));
        plan.activate();
        assert_eq!(plan.switch(&f, 2, 2, &mut Scripted::new([]), "FOO").unwrap_err(), ArtilleryError::NoActiveTarget);
        plan.nominate_first(1, 2).unwrap();
        let new = plan.add_target((3.0, 3.0)).unwrap();
        assert_eq!(
            plan.switch(&f, new, 2, &mut Scripted::new([]), "FOO").unwrap_err(),
            ArtilleryError::NotYetAvailable(3)
        );
        assert_eq!(plan.switch(&f, 2, 1, &mut Scripted::new([]), "FOO").unwrap_err(), ArtilleryError::NeedsBothActs);
        let (ok, e) = plan.switch(&f, 2, 2, &mut Scripted::new([5]), "FOO").unwrap();
        assert!(!ok && e.is_some());
        assert_eq!(plan.active, Some(1), "a failed test leaves the guns on target 1");
        plan.activate();
        let (ok, _) = plan.switch(&f, new, 2, &mut Scripted::new([4]), "FOO").unwrap();
        assert!(ok);
        assert_eq!(plan.active, Some(3));
    }

    #[test]
    fn british_foos_switch_without_a_test() {
        let f = observer(Nation::British);
        assert!(!switch_needs_test(&Nation::British) && switch_needs_test(&Nation::American));
        let mut plan = Interdiction::new((0.0, 0.0), (1.0, 1.0));
        plan.activate();
        plan.nominate_first(1, 2).unwrap();
        let mut dice = Scripted::new([]);
        let (ok, e) = plan.switch(&f, 2, 2, &mut dice, "FOO").unwrap();
        assert!(ok && e.is_none());
        assert_eq!(plan.active, Some(2));
    }
}
