//! Strategic Condition of naval Battlegroups, rallying, dockyard repairs
//! (FYOW 29.11, 29.12, 29.15) and the special rules for shallow-draft craft
//! at sea and landings at coves (29.16).

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::naval::craft::{Craft, START_CONDITION, Vessel};
use crate::naval::{NavalError, Wind, rule};

/// The damage assessment on activation (29.11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionTest {
    pub faces: Vec<u8>,
    pub condition: u8,
    /// Strategic Condition 0: "the boat retires from the Map Board".
    pub retires: bool,
}

/// FYOW 29.11: "When activated, a vessel which has taken damage since its
/// previous activation ... Throw a D6 for each point of damage taken. A score
/// of 1 reduces the Strategic Condition of the vessel by 1." Clears the
/// damage counted since the last activation.
pub fn assess_condition(vessel: &mut Vessel, dice: &mut impl Roll) -> Result<(ConditionTest, RuleEvent), NavalError> {
    if vessel.sunk() {
        return Err(NavalError::Sunk);
    }
    let damage = vessel.damage_since_activation;
    let faces = dice.throw(usize::from(damage), 6);
    let ones = faces.iter().filter(|&&f| f == 1).count() as u8;
    vessel.condition = vessel.condition.saturating_sub(ones);
    vessel.damage_since_activation = 0;
    let test = ConditionTest { faces: faces.clone(), condition: vessel.condition, retires: vessel.condition == 0 };
    let event = RuleEvent::new(EventKind::StrategicMorale, rule("29.11 Strategic Condition of naval Battlegroups"))
        .actor(vessel.id.clone())
        .input("damage_since_activation", damage, "1D6 per point")
        .dice(6, &faces)
        .outcome(json!(test));
    Ok((test, event))
}

/// FYOW 29.12 "Rallying Strategic Condition": "a Destroyer, Gunboat or
/// submarine can attempt to rally up the Strategic Condition of the damaged
/// vessel by taking a Rallying Throw ... Rallying can also take place in the
/// Dockyard. The Rallying Throw comprises 4D6 ... improved by 1 point for
/// each score of 6".
///
/// Reading (FYOW 29.12): the damage control teams are the vessel's own, so a
/// Destroyer, Gunboat or submarine rallies itself at sea, and any vessel may
/// rally in the Dockyard; the condition never rises above its starting 6; a
/// vessel retired at 0 has left the Map Board and rallies only in the
/// Dockyard.
pub fn rally(vessel: &mut Vessel, in_dockyard: bool, dice: &mut impl Roll) -> Result<(u8, RuleEvent), NavalError> {
    if vessel.sunk() {
        return Err(NavalError::Sunk);
    }
    if !in_dockyard {
        if !matches!(vessel.craft, Craft::Destroyer | Craft::Gunboat | Craft::Submarine) {
            return Err(NavalError::CannotEngage(format!("a {:?} rallies only in the Dockyard", vessel.craft)));
        }
        if vessel.retired() {
            return Err(NavalError::Retired);
        }
    }
    let faces = dice.throw(4, 6);
    let sixes = faces.iter().filter(|&&f| f == 6).count() as u8;
    vessel.condition = (vessel.condition + sixes).min(START_CONDITION);
    let event = RuleEvent::new(EventKind::StrategicMorale, rule("29.12 Rallying Strategic Condition"))
        .actor(vessel.id.clone())
        .input("in_dockyard", in_dockyard, "")
        .dice(6, &faces)
        .outcome(json!({ "sixes": sixes, "condition": vessel.condition }));
    Ok((vessel.condition, event))
}

/// FYOW 29.15 "Repairs to damage on boats": "When Naval Command is activated,
/// 1 point of damage can be repaired for 1 vessel in 1 campaign day by the
/// Dockyard throwing 2D6. Damage is repaired for each 3+ thrown."
///
/// Reading (FYOW 29.15): one vessel a day is repaired, 1 point for each 3+
/// of the 2D6 (so up to 2 points); the opening "1 point" is read as the
/// point each 3+ repairs. A sunk vessel cannot be repaired (29.1: it is lost).
pub fn dockyard_repair(vessel: &mut Vessel, dice: &mut impl Roll) -> Result<(u8, RuleEvent), NavalError> {
    if vessel.sunk() {
        return Err(NavalError::Sunk);
    }
    let faces = dice.throw(2, 6);
    let repaired = (faces.iter().filter(|&&f| f >= 3).count() as u8).min(vessel.damage);
    vessel.damage -= repaired;
    let event = RuleEvent::new(EventKind::Supply, rule("29.15 Repairs to damage on boats"))
        .actor(vessel.id.clone())
        .input("damage", vessel.damage + repaired, "before repair")
        .dice(6, &faces)
        .outcome(json!({ "repaired": repaired, "damage": vessel.damage }));
    Ok((repaired, event))
}

/// Where a shallow-draft craft is swamped (FYOW 29.16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Swamped {
    /// "Landing Craft, barges and other non sea-going craft utilised off shore".
    OffShore,
    /// "Landing at coves and other difficult locations": rubber boats, and
    /// whether they are handled by Enhanced ("properly trained") troops.
    AtCove { enhanced_crew: bool },
}

/// FYOW 29.16 "Landing Craft, barges and low-draft vessels at sea": "Each
/// vessel will throw a D6 per session in any wind. A 1 or 2 will sink it in
/// light winds and 1, 2, 3, 4 or 5 will sink it in high winds. All
/// vehicles/guns/CSWs are lost." "Landing at coves": rubber boats are treated
/// the same, but "if the boats are being handled by Enhanced troops ... add 2
/// to the dice throw". Returns whether the craft sank (no throw in calm).
pub fn swamping(id: &str, wind: Wind, at: Swamped, dice: &mut impl Roll) -> (bool, RuleEvent) {
    let sinks_on = match wind {
        Wind::Calm => 0,
        Wind::Light => 2,
        Wind::High => 5,
    };
    let faces: Vec<u8> = if sinks_on == 0 { Vec::new() } else { vec![dice.d6()] };
    let (section, bonus) = match at {
        Swamped::OffShore => ("29.16 Landing Craft, barges and low-draft vessels at sea", 0),
        Swamped::AtCove { enhanced_crew } => ("29.16 Landing at coves", if enhanced_crew { 2 } else { 0 }),
    };
    let sunk = faces.first().is_some_and(|&f| f + bonus <= sinks_on);
    let event = RuleEvent::new(EventKind::Naval, rule(section))
        .actor(id)
        .input("wind", wind, "")
        .input("enhanced_crew", bonus > 0, "+2 to the throw")
        .input("sinks_on", sinks_on, "D6 score or less sinks")
        .dice(6, &faces)
        .outcome(json!({ "sunk": sunk, "cargo_lost": sunk }));
    (sunk, event)
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    fn gunboat() -> Vessel {
        Vessel::new("G", Craft::Gunboat, vec![])
    }

    #[test]
    fn a_one_per_point_of_damage_costs_condition() {
        let mut g = gunboat();
        assert_eq!(g.condition, 6);
        g.take_damage(3);
        let (t, e) = assess_condition(&mut g, &mut Scripted::new([1, 4, 1])).unwrap();
        assert_eq!(t.condition, 4);
        assert!(!t.retires);
        assert_eq!(g.damage_since_activation, 0);
        assert_eq!(e.kind, EventKind::StrategicMorale);
        let (t, _) = assess_condition(&mut g, &mut Scripted::new([])).unwrap();
        assert!(t.faces.is_empty(), "no new damage, no throw");
    }

    #[test]
    fn condition_zero_retires() {
        let mut d = Vessel::new("D", Craft::Destroyer, vec![]);
        d.condition = 1;
        d.take_damage(2);
        let (t, _) = assess_condition(&mut d, &mut Scripted::new([1, 1])).unwrap();
        assert_eq!(t.condition, 0, "never below 0");
        assert!(t.retires);
        assert_eq!(d.ready(), Err(NavalError::Retired));
    }

    #[test]
    fn rallying_4d6_sixes_capped_at_6() {
        let mut g = gunboat();
        g.condition = 3;
        let (c, _) = rally(&mut g, false, &mut Scripted::new([6, 2, 6, 5])).unwrap();
        assert_eq!(c, 5);
        let (c, _) = rally(&mut g, false, &mut Scripted::new([6, 6, 6, 6])).unwrap();
        assert_eq!(c, 6);
    }

    #[test]
    fn only_some_vessels_rally_at_sea() {
        let mut t = Vessel::new("T", Craft::SmallGunboat, vec![]);
        t.condition = 2;
        assert!(rally(&mut t, false, &mut Scripted::new([])).is_err());
        let (c, _) = rally(&mut t, true, &mut Scripted::new([6, 1, 1, 1])).unwrap();
        assert_eq!(c, 3);
        let mut g = gunboat();
        g.condition = 0;
        assert_eq!(rally(&mut g, false, &mut Scripted::new([])).unwrap_err(), NavalError::Retired);
    }

    #[test]
    fn dockyard_repairs_a_point_per_3_plus() {
        let mut g = gunboat();
        g.take_damage(3);
        let (r, _) = dockyard_repair(&mut g, &mut Scripted::new([3, 2])).unwrap();
        assert_eq!(r, 1);
        assert_eq!(g.damage, 2);
        let (r, _) = dockyard_repair(&mut g, &mut Scripted::new([6, 6])).unwrap();
        assert_eq!(r, 2);
        let (r, _) = dockyard_repair(&mut g, &mut Scripted::new([6, 6])).unwrap();
        assert_eq!(r, 0, "nothing left to repair");
        g.take_damage(6);
        assert_eq!(dockyard_repair(&mut g, &mut Scripted::new([])).unwrap_err(), NavalError::Sunk);
    }

    #[test]
    fn swamping_in_light_and_high_winds() {
        let sea = Swamped::OffShore;
        assert!(swamping("LC", Wind::Light, sea, &mut Scripted::new([2])).0);
        assert!(!swamping("LC", Wind::Light, sea, &mut Scripted::new([3])).0);
        assert!(swamping("LC", Wind::High, sea, &mut Scripted::new([5])).0);
        assert!(!swamping("LC", Wind::High, sea, &mut Scripted::new([6])).0);
        let (sunk, e) = swamping("LC", Wind::Calm, sea, &mut Scripted::new([]));
        assert!(!sunk);
        assert!(e.dice.is_empty());
    }

    #[test]
    fn enhanced_troops_add_2_at_coves() {
        let trained = Swamped::AtCove { enhanced_crew: true };
        assert!(!swamping("Rubber", Wind::Light, trained, &mut Scripted::new([1])).0, "1 + 2 = 3");
        assert!(swamping("Rubber", Wind::High, trained, &mut Scripted::new([3])).0, "3 + 2 = 5");
        assert!(!swamping("Rubber", Wind::High, trained, &mut Scripted::new([4])).0);
        let (sunk, e) =
            swamping("Rubber", Wind::Light, Swamped::AtCove { enhanced_crew: false }, &mut Scripted::new([2]));
        assert!(sunk, "untrained crews take no +2");
        assert_eq!(e.rule.section, "29.16 Landing at coves");
    }
}
