//! FYOW 21 Replenishment: which losses count, where replacements go, the
//! month-end thirds (a third gone, a third back in D10 days, D10% of the rest
//! back at once), the points bank, Replenishment from Home (the D6 x D10
//! chart) and trading in obsolete equipment.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::codex::Points;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::supply::{SupplyError, fyow};

/// What a loss was (FYOW 21): only casualties count towards replenishment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossKind {
    /// Men, weapons and vehicles lost: counted.
    Casualty,
    /// "Vehicles abandoned when they run out of fuel in Rationed mode do not count."
    AbandonedForFuel,
    /// "Dinghy's and assault boats can be recovered and do not count."
    RecoverableBoat,
    /// "Equipment used (bridging equipment, explosives etc) is not counted as lost."
    EquipmentUsed,
    /// "Prisoners are not counted as casualties."
    Prisoner,
}

impl LossKind {
    pub const fn counts(self) -> bool {
        matches!(self, LossKind::Casualty)
    }
}

/// One loss recorded during the month (FYOW 21.3, 4.7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loss {
    pub what: String,
    pub kind: LossKind,
    pub value: Points,
}

/// The losses a Battlegroup records in a campaign month.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LossLedger {
    pub losses: Vec<Loss>,
}

impl LossLedger {
    pub fn record(&mut self, what: &str, kind: LossKind, value: Points) {
        self.losses.push(Loss { what: what.to_owned(), kind, value });
    }

    /// FYOW 21.3: "totalled on the last day" — the losses that count.
    pub fn total(&self) -> Points {
        self.losses.iter().filter(|l| l.kind.counts()).map(|l| l.value).sum()
    }
}

/// Who suffered the losses (FYOW 21.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LostBy {
    Battlegroup { id: String, destroyed: bool },
    Fraction { parent: String },
}

/// Where the replacements go (FYOW 21.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplenishedTo {
    Battlegroup(String),
    /// "back to the force HQ Map Board for future re-distribution".
    ForceHq,
}

/// FYOW 21.2: a Fraction's casualties go "back to their parent Battlegroup";
/// a destroyed Battlegroup's to the force HQ.
pub fn replenished_to(lost_by: &LostBy) -> ReplenishedTo {
    match lost_by {
        LostBy::Battlegroup { destroyed: true, .. } => ReplenishedTo::ForceHq,
        LostBy::Battlegroup { id, destroyed: false } => ReplenishedTo::Battlegroup(id.clone()),
        LostBy::Fraction { parent } => ReplenishedTo::Battlegroup(parent.clone()),
    }
}

/// The month-end replenishment of one force (FYOW 21.4), in whole points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replenishment {
    /// 21.4.1: a third, rounded up, gone for good.
    pub gone: u32,
    /// 21.4.2: a third, rounded up, back in `delay_days` campaign days.
    pub delayed: u32,
    pub delay_days: u8,
    /// 21.4.3: the remainder …
    pub remainder: Points,
    /// … of which D10 x 10% …
    pub percent: u32,
    /// … comes back at once, rounded up.
    pub immediate: u32,
}

/// FYOW 21.4: the thirds of the month's losses.
///
/// Reading (FYOW 21.4.2): the D10 for the days counts a 0 as 10 (the
/// glossary's D10 scores). Reading (21.4.3): the D10 is tens of per cent, as
/// the example's "A 4 is thrown so 40%"; a 0 is 100%. Reading (21.4.1–2):
/// each third is rounded up and no third takes more than is left, so a
/// 1-point loss is simply gone (test `small_losses_round_up_the_first_third`).
pub fn month_end(total: Points, dice: &mut impl Roll, id: &str) -> (Replenishment, RuleEvent) {
    let h = total.halves();
    let third = h.div_ceil(6);
    let gone = third;
    let delayed = third.min((h / 2).saturating_sub(gone));
    let rem_halves = h.saturating_sub(2 * (gone + delayed));
    let delay_days = dice.d10();
    let pct_die = dice.d10();
    let percent = u32::from(pct_die) * 10;
    let immediate = (rem_halves * percent).div_ceil(200);
    let remainder = Points::HALF * rem_halves;
    let r = Replenishment { gone, delayed, delay_days, remainder, percent, immediate };
    let event = RuleEvent::new(EventKind::Supply, fyow("21.4 What can be replenished?"))
        .actor(id)
        .input("losses", total, "the month's losses that count (21, 21.3)")
        .dice(10, &[delay_days, pct_die])
        .outcome(json!({
            "gone": gone,
            "delayed": delayed,
            "delay_days": delay_days,
            "percent": percent,
            "immediate": immediate,
            "diary": format!("claim {delayed} points in {delay_days} days; Strategic Condition Repair throw on arrival"),
        }));
    (r, event)
}

/// Replenishment points not yet spent (FYOW 21.4.2: "unused points can be banked").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bank {
    pub banked: Points,
}

impl Bank {
    pub fn deposit(&mut self, points: Points) {
        self.banked += points;
    }

    /// Spends points on replacements "using the values given in the Heroes All rules".
    pub fn spend(&mut self, points: Points) -> Result<(), SupplyError> {
        if points > self.banked {
            return Err(SupplyError::Overdrawn {
                wanted: points.halves().div_ceil(2),
                banked: self.banked.halves() / 2,
            });
        }
        self.banked = Points::HALF * (self.banked.halves() - points.halves());
        Ok(())
    }
}

/// FYOW 21.7 "Replenishment from home chart (%age of original force)": rows by
/// the D10 face as printed, 9 down to 0; columns by the D6, 6 down to 1.
pub const FROM_HOME_CHART: [[u8; 6]; 10] = [
    [10, 8, 8, 6, 6, 5], // 9
    [8, 8, 6, 6, 5, 5],  // 8
    [8, 6, 6, 5, 5, 4],  // 7
    [6, 6, 5, 5, 4, 4],  // 6
    [6, 5, 5, 4, 4, 2],  // 5
    [5, 5, 4, 4, 2, 2],  // 4
    [5, 4, 4, 2, 2, 0],  // 3
    [4, 4, 2, 2, 0, 0],  // 2
    [4, 2, 2, 0, 0, 0],  // 1
    [2, 2, 0, 0, 0, 0],  // 0
];

/// The chart's percentage for a D6 (1–6) and a D10 face as printed (0–9).
pub fn from_home_percent(d6: u8, d10_face: u8) -> Option<u8> {
    if !(1..=6).contains(&d6) || d10_face > 9 {
        return None;
    }
    Some(FROM_HOME_CHART[usize::from(9 - d10_face)][usize::from(6 - d6)])
}

/// One month's Replenishment from Home for a side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FromHome {
    pub percent: u8,
    /// Rounded up, as every replenishment fraction (FYOW 21.4).
    pub points: u32,
    /// "distributed in D10 days time to Brigade/Regiment HQ Map Boards".
    pub delivery_days: u8,
}

/// FYOW 21.7: "each side throws a D6 and a D10 and consults the following
/// chart for the percentage value of their original force cost".
///
/// Reading (FYOW 21.7): the chart prints a "0" row and no "10" row, so its
/// D10 is read as printed (0–9), not with the glossary's 0-as-10; the D10
/// for the delivery days counts 0 as 10. The points are rounded up, as the
/// rest of section 21 (test `reading_from_home_chart_reads_the_zero_face`).
pub fn from_home(original_cost: Points, dice: &mut impl Roll, id: &str) -> (FromHome, RuleEvent) {
    let d6 = dice.d6();
    let face = dice.d10_face();
    let percent = from_home_percent(d6, face).expect("a D6 and a D10 face are on the chart");
    let points = (original_cost.halves() * u32::from(percent)).div_ceil(200);
    let delivery_days = dice.d10();
    let r = FromHome { percent, points, delivery_days };
    let event = RuleEvent::new(EventKind::Supply, fyow("21.7 Replenishment from Home"))
        .actor(id)
        .input("original_cost", original_cost, "recorded only at the outset of the campaign")
        .dice(6, &[d6])
        .dice(10, &[if face == 0 { 10 } else { face }, delivery_days])
        .outcome(json!({ "d10_read": face, "percent": percent, "points": points, "delivery_days": delivery_days }));
    (r, event)
}

/// FYOW 21.7: the points "cannot be distributed to a Brigade/Regiment HQ Map
/// Board if that unit is in contact/combat with an enemy unit or is surrounded".
pub fn can_distribute_to_hq(in_contact: bool, surrounded: bool) -> Result<(), SupplyError> {
    if in_contact || surrounded { Err(SupplyError::HqUnavailable) } else { Ok(()) }
}

/// What is traded in (FYOW 21.8), each spent only on its own kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TradeClass {
    /// CSWs or guns, by "the highest army Command", spent on newer CSWs or guns.
    CswOrGun,
    /// AFVs, by "the Senior Army Command", spent on newer AFVs.
    Afv,
}

/// FYOW 21.8: at the start of a campaign month, items traded in give "their
/// combined points value", fractions rounded up.
pub fn trade_in(class: TradeClass, values: &[Points], id: &str) -> (u32, RuleEvent) {
    let total: Points = values.iter().copied().sum();
    let credit = total.halves().div_ceil(2);
    let event = RuleEvent::new(EventKind::Supply, fyow("21.8 Trading-in System for obsolete equipment"))
        .actor(id)
        .input("class", class, "spent only on newer equipment of the same class")
        .input("items", values.len(), "")
        .outcome(json!({ "credit": credit }));
    (credit, event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::dice::Scripted;

    #[test]
    fn book_example_fifty_points_of_losses() {
        // FYOW 21.5: 20 Regular infantry at 1½, a machine gun 5 (the text says LMG,
        // the table MMG; 5 points either way) and a medium mortar 15 = 50.
        let mut ledger = LossLedger::default();
        for i in 0..20 {
            ledger.record(&format!("rifleman {i}"), LossKind::Casualty, Points::whole(1) + Points::HALF);
        }
        ledger.record("MMG", LossKind::Casualty, Points::whole(5));
        ledger.record("MMtr", LossKind::Casualty, Points::whole(15));
        assert_eq!(ledger.total(), Points::whole(50));
        // The example numbers these steps 24.4.1–24.4.3: they are 21.4.1–21.4.3.
        let (r, e) = month_end(ledger.total(), &mut Scripted::new([5, 4]), "BG");
        assert_eq!((r.gone, r.delayed, r.delay_days), (17, 17, 5), "16.66 rounded up; back in 5 days");
        assert_eq!((r.remainder, r.percent, r.immediate), (Points::whole(16), 40, 7), "6.4 rounded up to 7");
        assert_eq!(e.rule.section, "21.4 What can be replenished?");
        assert!(e.outcome["diary"].as_str().unwrap().contains("17 points in 5 days"));
    }

    #[test]
    fn only_casualties_count() {
        let mut ledger = LossLedger::default();
        ledger.record("Matilda", LossKind::AbandonedForFuel, Points::whole(40));
        ledger.record("assault boat", LossKind::RecoverableBoat, Points::whole(2));
        ledger.record("bridging", LossKind::EquipmentUsed, Points::whole(30));
        ledger.record("captured section", LossKind::Prisoner, Points::whole(9));
        ledger.record("Bren team", LossKind::Casualty, Points::whole(3));
        assert_eq!(ledger.total(), Points::whole(3));
    }

    #[test]
    fn small_losses_round_up_the_first_third() {
        let (r, _) = month_end(Points::whole(1), &mut Scripted::new([3, 10]), "BG");
        assert_eq!((r.gone, r.delayed, r.immediate), (1, 0, 0));
        let (r, _) = month_end(Points::whole(4), &mut Scripted::new([3, 10]), "BG");
        assert_eq!((r.gone, r.delayed, r.remainder, r.immediate), (2, 2, Points::ZERO, 0));
        let (r, _) = month_end(Points::whole(9), &mut Scripted::new([10, 10]), "BG");
        assert_eq!((r.delay_days, r.percent, r.immediate), (10, 100, 3), "a 0 is 10 days and 100%");
    }

    #[test]
    fn fractions_go_to_the_parent_destroyed_battlegroups_to_hq() {
        assert_eq!(
            replenished_to(&LostBy::Fraction { parent: "BG1".into() }),
            ReplenishedTo::Battlegroup("BG1".into())
        );
        assert_eq!(replenished_to(&LostBy::Battlegroup { id: "BG2".into(), destroyed: true }), ReplenishedTo::ForceHq);
        assert_eq!(
            replenished_to(&LostBy::Battlegroup { id: "BG2".into(), destroyed: false }),
            ReplenishedTo::Battlegroup("BG2".into())
        );
    }

    #[test]
    fn bank_keeps_unspent_points() {
        let mut bank = Bank::default();
        bank.deposit(Points::whole(7));
        bank.spend(Points::whole(4) + Points::HALF).unwrap();
        assert_eq!(bank.banked, Points::whole(2) + Points::HALF);
        assert_eq!(bank.spend(Points::whole(3)), Err(SupplyError::Overdrawn { wanted: 3, banked: 2 }));
    }

    #[test]
    fn from_home_chart_rows() {
        assert_eq!(from_home_percent(6, 9), Some(10));
        assert_eq!(from_home_percent(1, 9), Some(5));
        assert_eq!(from_home_percent(5, 7), Some(6));
        assert_eq!(from_home_percent(1, 5), Some(2));
        assert_eq!(from_home_percent(3, 3), Some(2));
        assert_eq!(from_home_percent(6, 0), Some(2));
        assert_eq!(from_home_percent(4, 0), Some(0));
        assert_eq!(from_home_percent(0, 5), None);
        assert_eq!(from_home_percent(3, 10), None);
        // Every row falls (or stays) from the D6 of 6 to the D6 of 1, and from the D10 of 9 to 0.
        for row in FROM_HOME_CHART {
            assert!(row.windows(2).all(|w| w[0] >= w[1]));
        }
        for col in 0..6 {
            assert!(FROM_HOME_CHART.windows(2).all(|w| w[0][col] >= w[1][col]));
        }
    }

    #[test]
    fn reading_from_home_chart_reads_the_zero_face() {
        // D6 6, D10 "0" → the 0 row: 2%. Delivery D10 0 → 10 days.
        let (r, e) = from_home(Points::whole(1500), &mut Scripted::new([6, 10, 10]), "Allies");
        assert_eq!((r.percent, r.points, r.delivery_days), (2, 30, 10));
        assert_eq!(e.outcome["d10_read"], 0);
        let (r, _) = from_home(Points::whole(1215), &mut Scripted::new([6, 9, 4]), "Axis");
        assert_eq!((r.percent, r.points), (10, 122), "121.5 rounded up");
    }

    #[test]
    fn from_home_blocked_at_an_hq_in_contact_or_surrounded() {
        assert_eq!(can_distribute_to_hq(false, false), Ok(()));
        assert_eq!(can_distribute_to_hq(true, false), Err(SupplyError::HqUnavailable));
        assert_eq!(can_distribute_to_hq(false, true), Err(SupplyError::HqUnavailable));
    }

    #[test]
    fn trade_in_rounds_the_combined_value_up() {
        let (credit, e) = trade_in(TradeClass::CswOrGun, &[Points::whole(15), Points::whole(5) + Points::HALF], "Army");
        assert_eq!(credit, 21);
        assert_eq!(e.outcome["credit"], 21);
        assert_eq!(trade_in(TradeClass::Afv, &[], "Army").0, 0);
    }
}
