//! *Heroes All* "Effects of hits": infantry and CSW casualties, AT fire
//! against the Defence Values of armour (D10 + Attack Value), brewing and
//! damage, and the HE Effects table (columns A–F, G1/G2) against men, guns,
//! open-topped and closed AFVs.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};

/// A column of the HE Effects table (the Weapons table's "HE Effect").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HeColumn {
    A,
    B,
    C,
    D,
    E,
    F,
    /// Grenades.
    G1,
    /// Grenades thrown by Italians.
    G2,
}

/// *Heroes All*, "HE Effects Table": casualties by column (rows A..G2) and D6 (1..=6).
///
/// Reading: a blank cell is no casualty. Rows G1 and G2 were printed with
/// merged cells, which the conversion collapsed into "1 2 3" and "1 2"
/// followed by blanks: G1 reads 1–2 → 1, 3–4 → 2, 5–6 → 3 and G2 reads
/// 1–3 → 1, 4–6 → 2 (test `grenade_rows_read_as_merged_cells`).
pub const HE_EFFECTS: [[u8; 6]; 8] = [
    [0, 1, 1, 1, 1, 1], // A
    [0, 1, 1, 1, 1, 2], // B
    [0, 1, 1, 2, 2, 2], // C
    [0, 1, 2, 2, 2, 3], // D
    [1, 2, 2, 2, 3, 3], // E
    [1, 2, 2, 3, 3, 4], // F
    [1, 1, 2, 2, 3, 3], // G1
    [1, 1, 1, 2, 2, 2], // G2
];

impl HeColumn {
    /// Casualties the table gives for a D6 `face` (1..=6).
    pub fn casualties(self, face: u8) -> u8 {
        HE_EFFECTS[self as usize][usize::from(face.clamp(1, 6) - 1)]
    }
}

/// Armour classes of the Defence Values table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmourClass {
    SoftSkinned,
    Flimsy,
    Light,
    Medium,
    Heavy,
    Formidable,
}

/// Where an AT hit lands: "a line from corner to corner of the vehicle" and the
/// quadrant the firer can see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Facing {
    Front,
    /// "Assaulted or hit on side, bottom or top".
    Side,
    Rear,
}

/// One cell pair of the Defence Values table: the score that brews, and the
/// score that damages (`None` is "auto": every hit damages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DefenceValue {
    pub brew: u8,
    pub damage: Option<u8>,
}

const fn dv(brew: u8, damage: u8) -> DefenceValue {
    DefenceValue { brew, damage: Some(damage) }
}
const fn auto(brew: u8) -> DefenceValue {
    DefenceValue { brew, damage: None }
}

/// *Heroes All*, "Defence values of armoured vehicles (against AT fire or
/// Assault)": by armour class, then front / side / rear.
pub const DEFENCE_VALUES: [[DefenceValue; 3]; 6] = [
    [auto(2), auto(2), auto(2)],          // Soft-skinned vehicle
    [dv(11, 9), dv(7, 5), auto(5)],       // Flimsy
    [dv(14, 11), dv(10, 8), dv(8, 6)],    // Light
    [dv(17, 15), dv(13, 11), dv(11, 9)],  // Medium
    [dv(20, 18), dv(16, 14), dv(14, 12)], // Heavy
    [dv(23, 21), dv(19, 17), dv(17, 15)], // Formidable
];

impl ArmourClass {
    pub fn defence(self, facing: Facing) -> DefenceValue {
        DEFENCE_VALUES[self as usize][facing as usize]
    }
}

/// Result of one AT hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AtResult {
    NoEffect,
    Damaged,
    Brewed,
}

/// A vehicle's state across hits: "Any vehicle damaged twice is brewed."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VehicleState {
    #[default]
    Intact,
    Damaged,
    Brewed,
}

impl VehicleState {
    pub fn after(self, hit: AtResult) -> Self {
        match (self, hit) {
            (Self::Brewed, _) | (_, AtResult::Brewed) | (Self::Damaged, AtResult::Damaged) => Self::Brewed,
            (_, AtResult::Damaged) => Self::Damaged,
            (state, AtResult::NoEffect) => state,
        }
    }
}

/// Bad input to an effects rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EffectError {
    /// A target with no figures or crew left to hit.
    NoOneThere,
}

impl fmt::Display for EffectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoOneThere => write!(f, "the target has no figures or crew left"),
        }
    }
}

impl std::error::Error for EffectError {}

/// The effect of a D10 `face` plus `attack` against the Defence Value: at
/// least the brew score brews, at least the damage score (or "auto") damages.
/// Reading: "refer to the Defence Value" is read as meet-or-beat.
pub fn at_result(attack: i8, armour: ArmourClass, facing: Facing, face: u8) -> AtResult {
    let score = i16::from(face) + i16::from(attack);
    let dv = armour.defence(facing);
    if score >= i16::from(dv.brew) {
        AtResult::Brewed
    } else if dv.damage.is_none_or(|d| score >= i16::from(d)) {
        AtResult::Damaged
    } else {
        AtResult::NoEffect
    }
}

/// *Heroes All*, "AT guns firing at armour/softs": a hit throws a D10 plus the
/// firing weapon's Attack Value against the Defence Value of the face hit.
pub fn at_hit(
    attack: i8,
    armour: ArmourClass,
    facing: Facing,
    state: VehicleState,
    dice: &mut impl Roll,
) -> (VehicleState, AtResult, RuleEvent) {
    let face = dice.d10();
    let result = at_result(attack, armour, facing, face);
    let after = state.after(result);
    let dv = armour.defence(facing);
    let event = RuleEvent::new(
        EventKind::AtEffect,
        RuleRef::new(Book::HeroesAll, "Effects of AT on armour and soft-skinned vehicles"),
    )
    .input("attack_value", attack, "the firing weapon's Attack Value at this range")
    .input("armour", armour, "")
    .input("facing", facing, "quadrant the firer can see, corner to corner")
    .input("defence", dv, "Defence Values of armoured vehicles; damage None is auto")
    .input("state", state, "any vehicle damaged twice is brewed")
    .dice(10, &[face])
    .outcome(serde_json::json!({ "result": result, "state": after }));
    (after, result, event)
}

/// Exact chances of (no effect, damaged, brewed) from one AT hit.
pub fn at_odds(attack: i8, armour: ArmourClass, facing: Facing) -> [f64; 3] {
    let mut faces = [0u8; 3];
    for face in 1..=10 {
        faces[at_result(attack, armour, facing, face) as usize] += 1;
    }
    faces.map(|n| f64::from(n) / 10.0)
}

/// *Heroes All*, "Small arms, mortar or HE fire against soft-skinned vehicles":
/// a hit from a weapon with no Attack Value damages automatically.
///
/// Reading: such a weapon has nothing to add to a D10 against the soft-skin's
/// brew score of 2, and the MMG/QLD example brews the lorry because "both
/// shots are hits"; so each hit damages ("damage is automatic") and the
/// second damage brews ("any vehicle damaged twice is brewed"). Weapons with
/// an Attack Value use [`at_hit`] (test `qld_example_two_mmg_hits_brew_the_lorry`).
pub fn soft_skin_hit(state: VehicleState) -> VehicleState {
    state.after(AtResult::Damaged)
}

/// An HE, mortar or bomb hit on a soft-skinned vehicle (*Heroes All*, "Small
/// arms, mortar or HE fire against soft-skinned vehicles"; aircraft: "Hits on
/// infantry, CSW and soft-skinned targets are dealt with as if they were hits
/// from a grounded weapon"): the vehicle takes the damage, not its crew as a
/// gun's would ([`soft_skin_hit`]), and its event.
///
/// Reading: the HE Effects Table is not read for the vehicle; its men are
/// hurt only when it brews (test `an_he_hit_on_a_lorry_damages_it_and_a_second_brews_it`).
pub fn soft_skin_he_hit(state: VehicleState) -> (VehicleState, RuleEvent) {
    let after = soft_skin_hit(state);
    let event = RuleEvent::new(
        EventKind::HeEffect,
        RuleRef::new(Book::HeroesAll, "Small arms, mortar or HE fire against soft-skinned vehicles"),
    )
    .input("state", state, "damage is automatic; any vehicle damaged twice is brewed")
    .outcome(serde_json::json!({ "vehicle": after }));
    (after, event)
}

/// "If the vehicle is brewed, throw a d6 and deduct 2 for crew casualties",
/// never more than the `aboard` (crew, or passengers in the QLD example).
pub fn brew_casualties(aboard: u8, dice: &mut impl Roll) -> (u8, RuleEvent) {
    let face = dice.d6();
    let lost = face.saturating_sub(2).min(aboard);
    let event =
        RuleEvent::new(EventKind::AtEffect, RuleRef::new(Book::HeroesAll, "Defence values of armoured vehicles"))
            .input("aboard", aboard, "")
            .input("deduct", 2, "brewed: a d6 less 2 for crew casualties")
            .dice(6, &[face])
            .outcome(serde_json::json!({ "casualties": lost }));
    (lost, event)
}

/// *Heroes All*, "Effects of hits", Infantry: "a hit on an infantry element
/// represents 1 casualty", never more than the figures there.
pub const fn infantry_casualties(hits: u8, figures: u8) -> u8 {
    if hits < figures { hits } else { figures }
}

/// *Heroes All*, "Effects of hits", Crew served weapons: casualties among the
/// crew, and whether "all of a CSW crew is lost" so the CSW is removed.
pub const fn csw_casualties(hits: u8, crew: u8) -> (u8, bool) {
    let lost = infantry_casualties(hits, crew);
    (lost, lost == crew)
}

/// What an HE (or mortar, or grenade) hit lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HeTarget {
    Infantry {
        figures: u8,
    },
    /// Artillery or a CSW: crew casualties, then "4+ destroys the weapon".
    Gun {
        crew: u8,
    },
    /// Open-topped AFV: the result less 1 against the crew, then a 6 damages.
    OpenTopped {
        crew: u8,
    },
    /// Closed AFVs and other armour: more than 1 casualty indicated means a D6,
    /// 6 damages (up to 149mm) or 5+ (150mm and over).
    Closed {
        calibre_150_plus: bool,
    },
}

/// The effect of one HE hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeOutcome {
    /// Casualties the table gives for the D6.
    pub table: u8,
    /// Casualties taken (after the open-topped reduction, capped at who is there).
    pub casualties: u8,
    pub weapon_destroyed: bool,
    pub vehicle_damaged: bool,
}

fn he_rule() -> RuleRef {
    RuleRef::new(Book::HeroesAll, "HE Effects Table")
}

/// Whether the second D6 is thrown for this target after `table` casualties.
fn second_die(target: HeTarget, table: u8) -> bool {
    match target {
        HeTarget::Infantry { .. } => false,
        HeTarget::Gun { crew } => table.min(crew) > 0,
        HeTarget::OpenTopped { crew } => table.saturating_sub(1).min(crew) > 0,
        HeTarget::Closed { .. } => table > 1,
    }
}

/// The HE effect of a first D6 `face` and (where one is thrown) a second D6 `second`.
pub fn he_outcome(column: HeColumn, target: HeTarget, face: u8, second: u8) -> HeOutcome {
    let table = column.casualties(face);
    let thrown = second_die(target, table);
    let (casualties, weapon_destroyed, vehicle_damaged) = match target {
        HeTarget::Infantry { figures } => (table.min(figures), false, false),
        HeTarget::Gun { crew } => (table.min(crew), thrown && second >= 4, false),
        HeTarget::OpenTopped { crew } => (table.saturating_sub(1).min(crew), false, thrown && second == 6),
        HeTarget::Closed { calibre_150_plus } => (0, false, thrown && second >= if calibre_150_plus { 5 } else { 6 }),
    };
    HeOutcome { table, casualties, weapon_destroyed, vehicle_damaged }
}

/// *Heroes All*, "HE Effects Table" and the rules under it: a D6 on the
/// weapon's column; against guns, open-topped and closed AFVs a second D6
/// where the rule calls for one.
pub fn he_hit(column: HeColumn, target: HeTarget, dice: &mut impl Roll) -> Result<(HeOutcome, RuleEvent), EffectError> {
    if matches!(target, HeTarget::Infantry { figures: 0 } | HeTarget::Gun { crew: 0 }) {
        return Err(EffectError::NoOneThere);
    }
    let face = dice.d6();
    let table = column.casualties(face);
    let second = if second_die(target, table) { Some(dice.d6()) } else { None };
    let out = he_outcome(column, target, face, second.unwrap_or(0));
    let reason = match target {
        HeTarget::Infantry { .. } => "casualties from the HE Effects Table",
        HeTarget::Gun { .. } => "HE hits on artillery or CSWs: any crew casualty, then 4+ destroys the weapon",
        HeTarget::OpenTopped { .. } => "open-topped AFV: table result reduced by 1; casualties still, then a 6 damages",
        HeTarget::Closed { .. } => {
            "closed AFV: more than 1 casualty indicated, then 6 (up to 149mm) or 5+ (150mm+) damages"
        }
    };
    let mut e = RuleEvent::new(EventKind::HeEffect, he_rule())
        .input("column", column, "the firing weapon's HE Effect")
        .input("target", target, reason)
        .dice(6, &[face]);
    if let Some(s) = second {
        e = e.dice(6, &[s]);
    }
    Ok((out, e.outcome(out)))
}

/// Exact chances of an HE hit's effects.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeOdds {
    /// Chance of 0..=4 casualties.
    pub casualties: [f64; 5],
    pub weapon_destroyed: f64,
    pub vehicle_damaged: f64,
}

/// Enumerates both D6 (36 equally likely pairs; the second counts only where thrown).
pub fn he_odds(column: HeColumn, target: HeTarget) -> HeOdds {
    let mut odds = HeOdds { casualties: [0.0; 5], weapon_destroyed: 0.0, vehicle_damaged: 0.0 };
    for face in 1..=6 {
        for second in 1..=6 {
            let o = he_outcome(column, target, face, second);
            odds.casualties[usize::from(o.casualties)] += 1.0 / 36.0;
            odds.weapon_destroyed += f64::from(u8::from(o.weapon_destroyed)) / 36.0;
            odds.vehicle_damaged += f64::from(u8::from(o.vehicle_damaged)) / 36.0;
        }
    }
    odds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};
    use crate::firing::{Weapon, grenades};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn he_table_rows_as_printed() {
        let row = |c: HeColumn| (1..=6).map(|f| c.casualties(f)).collect::<Vec<_>>();
        assert_eq!(row(HeColumn::A), [0, 1, 1, 1, 1, 1]);
        assert_eq!(row(HeColumn::C), [0, 1, 1, 2, 2, 2]);
        assert_eq!(row(HeColumn::E), [1, 2, 2, 2, 3, 3]);
        assert_eq!(row(HeColumn::F), [1, 2, 2, 3, 3, 4]);
    }

    #[test]
    fn grenade_rows_read_as_merged_cells() {
        // The converted rows "G1 1 2 3" and "G2 1 2" end in blank cells where
        // rows A–D keep theirs in front: each value spans two (G1) or three
        // (G2) faces, so a grenade never does less as the die rises.
        let row = |c: HeColumn| (1..=6).map(|f| c.casualties(f)).collect::<Vec<_>>();
        assert_eq!(row(HeColumn::G1), [1, 1, 2, 2, 3, 3]);
        assert_eq!(row(HeColumn::G2), [1, 1, 1, 2, 2, 2]);
    }

    /// The Wespe (105mm) hits; row E; the yellow die shows 2: 2 casualties.
    #[test]
    fn wespe_example_row_e_two_casualties() {
        assert_eq!(Weapon::Howitzer149.row().he, Some(HeColumn::E), "105mm refers to row E");
        let (o, e) = he_hit(HeColumn::E, HeTarget::Infantry { figures: 8 }, &mut Scripted::new([2])).unwrap();
        assert_eq!(o.casualties, 2);
        assert_eq!(e.kind, EventKind::HeEffect);
        assert_eq!(e.dice.len(), 1);
        let (o, _) = he_hit(HeColumn::E, HeTarget::Infantry { figures: 8 }, &mut Scripted::new([5])).unwrap();
        assert_eq!(o.casualties, 3, "the other way: a 5 on row E is 3");
    }

    #[test]
    fn defence_values_as_printed() {
        assert_eq!(ArmourClass::Medium.defence(Facing::Front), dv(17, 15));
        assert_eq!(ArmourClass::Heavy.defence(Facing::Side), dv(16, 14));
        assert_eq!(ArmourClass::Formidable.defence(Facing::Rear), dv(17, 15));
        assert_eq!(ArmourClass::Flimsy.defence(Facing::Rear), auto(5));
        assert_eq!(ArmourClass::SoftSkinned.defence(Facing::Front), auto(2));
    }

    #[test]
    fn at_hits_brew_damage_or_bounce() {
        // Class 2 AT gun at effective range (+8) on a Medium tank's front (17/15).
        assert_eq!(at_result(8, ArmourClass::Medium, Facing::Front, 9), AtResult::Brewed);
        assert_eq!(at_result(8, ArmourClass::Medium, Facing::Front, 7), AtResult::Damaged);
        assert_eq!(at_result(8, ArmourClass::Medium, Facing::Front, 6), AtResult::NoEffect);
        assert_eq!(at_result(8, ArmourClass::Medium, Facing::Side, 5), AtResult::Brewed, "side 13");
        assert_eq!(at_result(-3, ArmourClass::Flimsy, Facing::Rear, 1), AtResult::Damaged, "rear damage auto");
        // PzSchreck (+11) on the Priest's side (Light: 10/8): always brews.
        assert_eq!(at_odds(11, ArmourClass::Light, Facing::Side), [0.0, 0.0, 1.0]);
        let (state, result, e) =
            at_hit(8, ArmourClass::Medium, Facing::Front, VehicleState::Intact, &mut Scripted::new([7]));
        assert_eq!((state, result), (VehicleState::Damaged, AtResult::Damaged));
        assert_eq!(e.kind, EventKind::AtEffect);
        let (state, ..) = at_hit(8, ArmourClass::Medium, Facing::Front, state, &mut Scripted::new([8]));
        assert_eq!(state, VehicleState::Brewed, "damaged twice is brewed");
    }

    #[test]
    fn at_odds_exact_and_sampled() {
        let [none, dmg, brew] = at_odds(8, ArmourClass::Medium, Facing::Front);
        assert!(close(brew, 0.2) && close(dmg, 0.2) && close(none, 0.6));
        let mut dice = Dice::new(5);
        let n = 100_000;
        let mut seen = [0u32; 3];
        for _ in 0..n {
            seen[at_hit(8, ArmourClass::Medium, Facing::Front, VehicleState::Intact, &mut dice).1 as usize] += 1;
        }
        for (k, want) in [none, dmg, brew].into_iter().enumerate() {
            assert!((f64::from(seen[k]) / f64::from(n) - want).abs() < 0.006);
        }
    }

    #[test]
    fn an_he_hit_on_a_lorry_damages_it_and_a_second_brews_it() {
        let (once, e) = soft_skin_he_hit(VehicleState::Intact);
        assert_eq!(once, VehicleState::Damaged);
        assert_eq!(e.outcome["vehicle"], "damaged");
        assert!(e.dice.is_empty(), "damage is automatic: no throw");
        assert_eq!(soft_skin_he_hit(once).0, VehicleState::Brewed);
    }

    #[test]
    fn qld_example_two_mmg_hits_brew_the_lorry() {
        let once = soft_skin_hit(VehicleState::Intact);
        assert_eq!(once, VehicleState::Damaged, "damage is automatic");
        assert_eq!(soft_skin_hit(once), VehicleState::Brewed, "both shots are hits so the lorry is brewed");
        let (lost, e) = brew_casualties(10, &mut Scripted::new([5]));
        assert_eq!(lost, 3, "a d6 less 2");
        assert_eq!(e.dice.len(), 1);
        assert_eq!(brew_casualties(10, &mut Scripted::new([2])).0, 0);
        assert_eq!(brew_casualties(2, &mut Scripted::new([6])).0, 2, "never more than aboard");
        assert_eq!(
            at_result(-3, ArmourClass::SoftSkinned, Facing::Front, 4),
            AtResult::Damaged,
            "HMG at long range: 4-3 < 2"
        );
        assert_eq!(at_result(-3, ArmourClass::SoftSkinned, Facing::Front, 5), AtResult::Brewed);
    }

    #[test]
    fn casualties_never_exceed_figures() {
        assert_eq!(infantry_casualties(3, 8), 3);
        assert_eq!(infantry_casualties(9, 8), 8);
        assert_eq!(csw_casualties(1, 3), (1, false));
        assert_eq!(csw_casualties(4, 3), (3, true), "all the crew lost: CSW removed");
        for seed in 0..500u64 {
            let mut dice = Dice::new(seed);
            let figures = dice.d4();
            let column = [
                HeColumn::A,
                HeColumn::B,
                HeColumn::C,
                HeColumn::D,
                HeColumn::E,
                HeColumn::F,
                HeColumn::G1,
                HeColumn::G2,
            ][usize::from(dice.d8()) - 1];
            for target in [
                HeTarget::Infantry { figures },
                HeTarget::Gun { crew: figures },
                HeTarget::OpenTopped { crew: figures },
            ] {
                let (o, _) = he_hit(column, target, &mut dice).unwrap();
                assert!(o.casualties <= figures && o.casualties <= o.table);
            }
        }
        assert_eq!(
            he_hit(HeColumn::F, HeTarget::Infantry { figures: 0 }, &mut Scripted::new([])),
            Err(EffectError::NoOneThere)
        );
    }

    #[test]
    fn he_on_guns_needs_casualties_then_four() {
        let gun = HeTarget::Gun { crew: 4 };
        let (o, e) = he_hit(HeColumn::C, gun, &mut Scripted::new([4, 4])).unwrap();
        assert!(o.casualties == 2 && o.weapon_destroyed);
        assert_eq!(e.dice.len(), 2);
        assert!(!he_hit(HeColumn::C, gun, &mut Scripted::new([4, 3])).unwrap().0.weapon_destroyed);
        let (o, e) = he_hit(HeColumn::C, gun, &mut Scripted::new([1])).unwrap();
        assert!(!o.weapon_destroyed && e.dice.len() == 1, "no casualties, no second die");
        let odds = he_odds(HeColumn::C, gun);
        assert!(close(odds.weapon_destroyed, 5.0 / 6.0 * 0.5));
    }

    #[test]
    fn open_topped_and_closed_afvs() {
        let open = HeTarget::OpenTopped { crew: 4 };
        let (o, _) = he_hit(HeColumn::E, open, &mut Scripted::new([5, 6])).unwrap();
        assert_eq!((o.table, o.casualties, o.vehicle_damaged), (3, 2, true));
        let (o, e) = he_hit(HeColumn::E, open, &mut Scripted::new([1])).unwrap();
        assert_eq!((o.casualties, e.dice.len()), (0, 1), "1 less 1: no casualties, no damage throw");
        let closed = HeTarget::Closed { calibre_150_plus: false };
        let (o, e) = he_hit(HeColumn::E, closed, &mut Scripted::new([2, 5])).unwrap();
        assert!(!o.vehicle_damaged && e.dice.len() == 2, "2 indicated is more than 1: a throw, 5 is short of 6");
        let (o, e) = he_hit(HeColumn::C, closed, &mut Scripted::new([3])).unwrap();
        assert!(!o.vehicle_damaged && e.dice.len() == 1, "1 casualty indicated: no throw");
        let (o, _) = he_hit(HeColumn::D, closed, &mut Scripted::new([3, 6])).unwrap();
        assert!(o.vehicle_damaged);
        let heavy = HeTarget::Closed { calibre_150_plus: true };
        assert!(
            he_hit(HeColumn::F, heavy, &mut Scripted::new([4, 5])).unwrap().0.vehicle_damaged,
            "150mm+ damages on 5+"
        );
        assert!(
            !he_hit(HeColumn::F, closed, &mut Scripted::new([4, 5])).unwrap().0.vehicle_damaged,
            "up to 149mm needs 6"
        );
        assert!(close(he_odds(HeColumn::F, heavy).vehicle_damaged, 5.0 / 6.0 * 2.0 / 6.0));
        assert!(close(he_odds(HeColumn::E, open).vehicle_damaged, 5.0 / 6.0 / 6.0));
    }

    #[test]
    fn grenades_from_seven_figures() {
        // "The 7 figures will get 2 grenades to throw": each a D6 on column G1.
        let n = grenades(7);
        let mut dice = Scripted::new([3, 5]);
        let total: u8 = (0..n)
            .map(|_| he_hit(HeColumn::G1, HeTarget::Infantry { figures: 8 }, &mut dice).unwrap().0.casualties)
            .sum();
        assert_eq!(total, 2 + 3, "G1: a 3 is 2 casualties, a 5 is 3");
    }

    #[test]
    fn he_odds_exact_and_sampled() {
        let target = HeTarget::Infantry { figures: 2 };
        let odds = he_odds(HeColumn::F, target);
        assert!(
            close(odds.casualties[0], 0.0)
                && close(odds.casualties[1], 1.0 / 6.0)
                && close(odds.casualties[2], 5.0 / 6.0),
            "capped at 2 figures"
        );
        let gun = HeTarget::Gun { crew: 3 };
        let exact = he_odds(HeColumn::D, gun);
        let mut dice = Dice::new(11);
        let n = 100_000;
        let (mut destroyed, mut cas) = (0u32, [0u32; 5]);
        for _ in 0..n {
            let (o, _) = he_hit(HeColumn::D, gun, &mut dice).unwrap();
            destroyed += u32::from(o.weapon_destroyed);
            cas[usize::from(o.casualties)] += 1;
        }
        assert!((f64::from(destroyed) / f64::from(n) - exact.weapon_destroyed).abs() < 0.006);
        for (seen, want) in cas.iter().zip(exact.casualties) {
            assert!((f64::from(*seen) / f64::from(n) - want).abs() < 0.006);
        }
    }
}
