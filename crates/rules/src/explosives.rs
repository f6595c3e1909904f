//! *Heroes All*, "Explosives": setting small and large charges and Bangalore
//! Torpedoes, delays, the detonation pack, the HE effect of each charge
//! (column D small, F large), the "stun" zone, gaps blown in wire and walls,
//! mouse-holing, and observers detecting charges set for delay.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::effects::{EffectError, HeColumn, HeOutcome, HeTarget, he_hit};
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::loads::{FIGURE_MAY_CARRY, Item, LoadError, Loads};
use crate::momentum::Incident;
use crate::observation::{ObservationError, observation_dice};
use crate::terrain::{Gap, Point, Terrain};

fn rule() -> RuleRef {
    RuleRef::new(Book::HeroesAll, "Explosives")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChargeKind {
    Small,
    Large,
    Bangalore,
}

/// Setting a charge: "in contact with the target for 1 bound using both Acts";
/// a Bangalore Torpedo: "set using 2 Acts".
pub const ACTS_TO_SET: usize = 2;

/// Bangalore Torpedoes "affect wire/obstacles 2 inches in front of the user".
pub const BANGALORE_REACH: f32 = 2.0;

/// A Bangalore Torpedo (or a mouse-hole) makes "a gap in wire or walling 1 figure wide".
pub const GAP_FIGURES: u8 = 1;

/// The detonation pack: "The firer must be within 12 inches of and in sight of the charge."
pub const DETONATION_PACK_RANGE: f32 = 12.0;
/// "A throw of 2+ on a D6 triggers the charge."
pub const PACK_NEEDS: u8 = 2;

/// The chance a charge of `kind` goes off when fired ([`Charge::detonate`]):
/// the detonation pack's 2+ on a D6, or certain without a pack.
pub fn detonation_chance(kind: ChargeKind) -> f64 {
    if kind.needs_pack() { f64::from(7 - PACK_NEEDS) / 6.0 } else { 1.0 }
}

/// Troops in a stun zone "accrue Momentum Tests as if they were under
/// artillery/mortar fire": HE, on whichever chart the element reads
/// ([`crate::momentum::row_for`]; an AFV's "under HE fire").
pub const STUN: Incident = Incident::He;

/// Bad use of explosives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ExplosivesError {
    /// Longer than the charge may be delayed (3 bounds small, 10 large), or a
    /// delayed Bangalore ("They explode on the bound they are set").
    DelayTooLong {
        kind: ChargeKind,
        bounds: u8,
        max: u8,
    },
    /// Only large charges use the detonation pack.
    NoPackNeeded(ChargeKind),
    /// A charge set for delay goes off by itself.
    SetForDelay,
    /// Farther than 12 inches from the charge.
    OutOfReach(f32),
    NotInSight,
    /// "Small charges can be used for 'mouse-holing'."
    OnlySmallChargesMouseHole(ChargeKind),
    /// A charge that already went off or is dead.
    Spent,
    Effect(EffectError),
    Observation(ObservationError),
}

impl fmt::Display for ExplosivesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DelayTooLong { kind, bounds, max } => {
                write!(f, "a {kind:?} charge may be delayed up to {max} bounds, not {bounds}")
            }
            Self::NoPackNeeded(k) => write!(f, "a {k:?} charge does not use the detonation pack"),
            Self::SetForDelay => write!(f, "the charge is set for delayed detonation"),
            Self::OutOfReach(d) => write!(f, "the firer is {d} inches from the charge (12 at most)"),
            Self::NotInSight => write!(f, "the firer must be in sight of the charge"),
            Self::OnlySmallChargesMouseHole(k) => write!(f, "a {k:?} charge cannot be used for mouse-holing"),
            Self::Spent => write!(f, "the charge has gone off or is dead"),
            Self::Effect(e) => write!(f, "{e}"),
            Self::Observation(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ExplosivesError {}

impl ChargeKind {
    /// "Small or large charges can be set for delayed detonation - up to 3
    /// bounds for a small charge and up to 10 bounds for a large charge."
    pub const fn max_delay(self) -> u8 {
        match self {
            Self::Small => 3,
            Self::Large => 10,
            Self::Bangalore => 0,
        }
    }

    /// The HE Effects Table column: "column F ... for a large charge", "column
    /// D ... for a small charge"; a Bangalore blows a gap and nothing else.
    pub const fn he_column(self) -> Option<HeColumn> {
        match self {
            Self::Small => Some(HeColumn::D),
            Self::Large => Some(HeColumn::F),
            Self::Bangalore => None,
        }
    }

    /// The stun zone's die: D6 inches (large), D4 (small); "Bangalore
    /// Torpedoes do not have a 'stun' effect nor do they endanger the user".
    pub const fn stun_die(self) -> Option<u8> {
        match self {
            Self::Small => Some(4),
            Self::Large => Some(6),
            Self::Bangalore => None,
        }
    }

    /// "Large charges are detonated using the Detonation Pack"; "Small charges
    /// and Bangalore Torpedoes do not need a detonation pack."
    pub const fn needs_pack(self) -> bool {
        matches!(self, Self::Large)
    }
}

/// The load a man carries it as (*Heroes All*, "Load sizes": "Small explosive
/// charge 1/2", "Large explosive charge 1"). Reading: the list gives no size
/// for a Bangalore Torpedo; a length of tube as long as a man, it is carried
/// as a large charge, 1 load (test `a_bangalore_is_carried_as_one_load`).
pub fn load(kind: ChargeKind) -> Loads {
    match kind {
        ChargeKind::Small => Item::SmallCharge.size(),
        ChargeKind::Large | ChargeKind::Bangalore => Item::LargeCharge.size(),
    }
}

/// Whether `men` can carry `charges` besides their personal kit, a man at
/// most 1 load ([`crate::loads::FIGURE_MAY_CARRY`]); the loads they come to.
/// Reading: the charges are shared out among the men, each taking what fits
/// (test `a_bangalore_is_carried_as_one_load`).
pub fn carried_by(men: u32, charges: &[ChargeKind]) -> Result<Loads, LoadError> {
    let total: Loads = charges.iter().map(|&k| load(k)).sum();
    if total > FIGURE_MAY_CARRY * men {
        return Err(LoadError::FigureOverloaded { carried: total });
    }
    Ok(total)
}

/// The gap a Bangalore Torpedo pushed from `from` towards `toward` blows
/// ("affect wire/obstacles 2 inches in front of the user"): where that 2"
/// first meets a line of wire or a wall not gapped there already.
pub fn bangalore_gap(terrain: &Terrain, from: Point, toward: Point) -> Option<Gap> {
    crate::geometry::first_gappable(terrain, from, toward, BANGALORE_REACH)
}

/// "Small charges can be used for 'mouse-holing'. Treat them as Bangalore Torpedoes."
pub fn mouse_hole(kind: ChargeKind) -> Result<ChargeKind, ExplosivesError> {
    match kind {
        ChargeKind::Small => Ok(ChargeKind::Bangalore),
        k => Err(ExplosivesError::OnlySmallChargesMouseHole(k)),
    }
}

/// Where a set charge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChargeState {
    /// Waiting for the firer (detonation pack) or, for a small charge or a
    /// Bangalore, going off on the bound it is set.
    Set,
    /// Bounds still to run before it goes off.
    Delayed(u8),
    Detonated,
    /// "A failure means that the charge is dead."
    Dead,
}

/// A charge set on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Charge {
    pub kind: ChargeKind,
    pub state: ChargeState,
}

impl Charge {
    /// Sets a charge, with a delay of `delay` bounds (0 for none).
    pub fn set(kind: ChargeKind, delay: u8) -> Result<Self, ExplosivesError> {
        if delay > kind.max_delay() {
            return Err(ExplosivesError::DelayTooLong { kind, bounds: delay, max: kind.max_delay() });
        }
        let state = if delay == 0 { ChargeState::Set } else { ChargeState::Delayed(delay) };
        Ok(Self { kind, state })
    }

    /// Ends a bound for a delayed charge; true when its delay has run and it
    /// goes off. Reading: a charge set for delay goes off when its bounds have
    /// run without the detonation pack (the delay is its detonator) (test
    /// `reading_delayed_charges_go_off_by_themselves`).
    pub fn tick(&mut self) -> bool {
        match self.state {
            ChargeState::Delayed(1) => {
                self.state = ChargeState::Detonated;
                true
            }
            ChargeState::Delayed(n) => {
                self.state = ChargeState::Delayed(n - 1);
                false
            }
            _ => false,
        }
    }

    /// Sets off a charge that is not delayed. A large charge needs the
    /// detonation pack: the firer within 12 inches and in sight, "A throw of
    /// 2+ on a D6 triggers the charge. A failure means that the charge is
    /// dead." Small charges and Bangalores go off without a throw.
    pub fn detonate(
        &mut self,
        firer_distance: crate::inches::Inches,
        in_sight: bool,
        dice: &mut impl Roll,
        id: &str,
    ) -> Result<(bool, RuleEvent), ExplosivesError> {
        let firer_distance = firer_distance.get();
        match self.state {
            ChargeState::Set => {}
            ChargeState::Delayed(_) => return Err(ExplosivesError::SetForDelay),
            ChargeState::Detonated | ChargeState::Dead => return Err(ExplosivesError::Spent),
        }
        let mut event = RuleEvent::new(EventKind::Explosives, rule()).actor(id).input("charge", self.kind, "");
        let fired = if self.kind.needs_pack() {
            if !(firer_distance.is_finite() && (0.0..=DETONATION_PACK_RANGE).contains(&firer_distance)) {
                return Err(ExplosivesError::OutOfReach(firer_distance));
            }
            if !in_sight {
                return Err(ExplosivesError::NotInSight);
            }
            let face = dice.d6();
            event = event.input("firer_distance", firer_distance, "within 12 inches and in sight").dice(6, &[face]);
            face >= PACK_NEEDS
        } else {
            true
        };
        self.state = if fired { ChargeState::Detonated } else { ChargeState::Dead };
        Ok((fired, event.outcome(json!({ "state": self.state }))))
    }
}

/// The HE effect of one charge on one target ("Dice for the effect of each
/// charge when detonated"): the HE Effects Table on the charge's column.
pub fn charge_effect(
    kind: ChargeKind,
    target: HeTarget,
    dice: &mut impl Roll,
) -> Result<Option<(HeOutcome, RuleEvent)>, ExplosivesError> {
    let Some(column) = kind.he_column() else { return Ok(None) };
    let (out, mut event) = he_hit(column, target, dice).map_err(ExplosivesError::Effect)?;
    event.inputs.insert(
        0,
        crate::event::Input {
            name: "charge".into(),
            value: json!(kind),
            reason: "Explosives: column F for a large charge, D for a small".into(),
        },
    );
    Ok(Some((out, event)))
}

/// The stun zone's radius in inches, thrown when a charge goes off; troops
/// within accrue tests as under artillery/mortar fire ([`STUN`]) and
/// "can be observed as if it were daylight with no weather effects" on that
/// bound. `None` for a Bangalore.
pub fn stun_zone(kind: ChargeKind, dice: &mut impl Roll, id: &str) -> Option<(u8, RuleEvent)> {
    let sides = kind.stun_die()?;
    let inches = dice.face(sides);
    let event = RuleEvent::new(EventKind::Explosives, rule())
        .actor(id)
        .input("charge", kind, "stun zone: D6 inches large, D4 small")
        .dice(sides, &[inches])
        .outcome(json!({ "stun_inches": inches, "cm_incident": STUN }));
    Some((inches, event))
}

/// Observers looking for charges set for delayed detonation: "Count a charge
/// as 1 target figure when determining the number of dice to throw. A score
/// of 6 is required to spot the charges." Reading: the 6 replaces the segment
/// count, and one 6 spots all the charges looked at together (test
/// `detecting_delayed_charges_needs_a_six`).
pub fn detect_charges(
    observers: u32,
    charges: u32,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(bool, RuleEvent), ExplosivesError> {
    let n = observation_dice(observers, charges).map_err(ExplosivesError::Observation)?;
    let faces = dice.throw(usize::from(n), 6);
    let spotted = faces.contains(&6);
    let event =
        RuleEvent::new(EventKind::Observation, RuleRef::new(Book::HeroesAll, "Detecting charges set for delay"))
            .actor(id)
            .input("observers", observers, "")
            .input("charges", charges, "each counts as 1 target figure")
            .dice(6, &faces)
            .outcome(json!({ "spotted": spotted }));
    Ok((spotted, event))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_bangalore_is_carried_as_one_load() {
        assert_eq!(load(ChargeKind::Small), Loads::HALF);
        assert_eq!(load(ChargeKind::Large), Loads::whole(1));
        assert_eq!(load(ChargeKind::Bangalore), Loads::whole(1));
        // Two sappers carry two Bangalores, or a large and two small charges.
        assert_eq!(carried_by(2, &[ChargeKind::Bangalore; 2]), Ok(Loads::whole(2)));
        assert!(carried_by(2, &[ChargeKind::Large, ChargeKind::Small, ChargeKind::Small]).is_ok());
        assert!(carried_by(2, &[ChargeKind::Bangalore; 3]).is_err(), "3 loads for 2 men");
        assert!(carried_by(0, &[]).is_ok());
    }

    use super::*;
    use crate::dice::Scripted;
    use crate::momentum::{CmCause, ElementType};

    #[test]
    fn the_pack_fires_on_two_plus_and_a_failure_kills_the_charge() {
        assert!((detonation_chance(ChargeKind::Large) - 5.0 / 6.0).abs() < 1e-12);
        assert_eq!(detonation_chance(ChargeKind::Bangalore), 1.0);
        let mut charge = Charge::set(ChargeKind::Large, 0).unwrap();
        let (fired, _) = charge.detonate(crate::inches::Inches(6.0), true, &mut Scripted::new([1]), "e").unwrap();
        assert!(!fired, "a 1 fails and kills the charge");
    }

    #[test]
    fn delays_up_to_three_and_ten_bounds() {
        assert!(Charge::set(ChargeKind::Small, 3).is_ok());
        assert_eq!(
            Charge::set(ChargeKind::Small, 4),
            Err(ExplosivesError::DelayTooLong { kind: ChargeKind::Small, bounds: 4, max: 3 })
        );
        assert!(Charge::set(ChargeKind::Large, 10).is_ok());
        assert!(Charge::set(ChargeKind::Large, 11).is_err());
        assert!(Charge::set(ChargeKind::Bangalore, 1).is_err(), "explode on the bound they are set");
    }

    #[test]
    fn reading_delayed_charges_go_off_by_themselves() {
        let mut c = Charge::set(ChargeKind::Large, 2).unwrap();
        assert_eq!(
            c.detonate(crate::inches::Inches(5.0), true, &mut Scripted::new([]), "RE"),
            Err(ExplosivesError::SetForDelay)
        );
        assert!(!c.tick());
        assert!(c.tick());
        assert_eq!(c.state, ChargeState::Detonated);
        assert!(!c.tick());
    }

    #[test]
    fn detonation_pack_within_twelve_inches_in_sight_two_plus() {
        let mut c = Charge::set(ChargeKind::Large, 0).unwrap();
        assert_eq!(
            c.detonate(crate::inches::Inches(12.5), true, &mut Scripted::new([]), "RE"),
            Err(ExplosivesError::OutOfReach(12.5))
        );
        assert_eq!(
            c.detonate(crate::inches::Inches(8.0), false, &mut Scripted::new([]), "RE"),
            Err(ExplosivesError::NotInSight)
        );
        assert!(c.detonate(crate::inches::Inches(12.0), true, &mut Scripted::new([2]), "RE").unwrap().0);
        let mut dud = Charge::set(ChargeKind::Large, 0).unwrap();
        assert!(!dud.detonate(crate::inches::Inches(3.0), true, &mut Scripted::new([1]), "RE").unwrap().0);
        assert_eq!(dud.state, ChargeState::Dead);
        assert_eq!(
            dud.detonate(crate::inches::Inches(3.0), true, &mut Scripted::new([6]), "RE"),
            Err(ExplosivesError::Spent)
        );
        // A small charge needs no pack and no throw.
        let mut small = Charge::set(ChargeKind::Small, 0).unwrap();
        let (fired, e) = small.detonate(crate::inches::Inches(40.0), false, &mut Scripted::new([]), "RE").unwrap();
        assert!(fired && e.dice.is_empty());
    }

    #[test]
    fn charges_hit_on_columns_f_and_d_and_each_is_diced() {
        let target = HeTarget::Infantry { figures: 10 };
        // D6 of 6: column F gives 4, column D 3.
        let (large, _) = charge_effect(ChargeKind::Large, target, &mut Scripted::new([6])).unwrap().unwrap();
        assert_eq!(large.casualties, 4);
        let (small, _) = charge_effect(ChargeKind::Small, target, &mut Scripted::new([6])).unwrap().unwrap();
        assert_eq!(small.casualties, 3);
        // Column F's 1 is a casualty; D's is not.
        assert_eq!(charge_effect(ChargeKind::Large, target, &mut Scripted::new([1])).unwrap().unwrap().0.casualties, 1);
        assert_eq!(charge_effect(ChargeKind::Small, target, &mut Scripted::new([1])).unwrap().unwrap().0.casualties, 0);
        assert!(charge_effect(ChargeKind::Bangalore, target, &mut Scripted::new([])).unwrap().is_none());
        // Two charges laid together: two dice.
        let mut dice = Scripted::new([4, 5]);
        let total: u8 = [ChargeKind::Small, ChargeKind::Large]
            .iter()
            .map(|&k| charge_effect(k, target, &mut dice).unwrap().unwrap().0.casualties)
            .sum();
        assert_eq!(total, 2 + 3);
    }

    #[test]
    fn stun_zones_d6_large_d4_small_none_for_bangalores() {
        let (r, e) = stun_zone(ChargeKind::Large, &mut Scripted::new([5]), "RE").unwrap();
        assert_eq!(r, 5);
        assert_eq!(e.dice[0].sides, 6);
        assert_eq!(stun_zone(ChargeKind::Small, &mut Scripted::new([4]), "RE").unwrap().1.dice[0].sides, 4);
        assert!(stun_zone(ChargeKind::Bangalore, &mut Scripted::new([]), "RE").is_none());
        let row = |t, open_topped| crate::momentum::row_for(t, open_topped, STUN);
        assert_eq!(row(ElementType::Infantry, false), Some(CmCause::MortarArtilleryOrAir));
        assert_eq!(row(ElementType::SoftSkin, false), Some(CmCause::MortarArtilleryOrAir));
        assert_eq!(row(ElementType::Afv, false), Some(CmCause::ClosedAfvUnderHe), "a tank in the zone");
    }

    #[test]
    fn mouse_holing_is_a_small_charge_treated_as_a_bangalore() {
        let k = mouse_hole(ChargeKind::Small).unwrap();
        assert_eq!(k, ChargeKind::Bangalore);
        assert!(!k.needs_pack() && k.stun_die().is_none() && k.he_column().is_none());
        assert_eq!(mouse_hole(ChargeKind::Large), Err(ExplosivesError::OnlySmallChargesMouseHole(ChargeKind::Large)));
        assert_eq!(GAP_FIGURES, 1);
    }

    #[test]
    fn detecting_delayed_charges_needs_a_six() {
        // 12 observers x 2 charges = 24: 3 dice.
        let (seen, e) = detect_charges(12, 2, &mut Scripted::new([5, 5, 6]), "Obs").unwrap();
        assert!(seen);
        assert_eq!(e.dice.len(), 3);
        assert!(!detect_charges(3, 1, &mut Scripted::new([5]), "Obs").unwrap().0);
        assert!(detect_charges(0, 1, &mut Scripted::new([]), "Obs").is_err());
    }
}
