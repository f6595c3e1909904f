//! One Combat Session resolved (FYOW 33.7.2–33.7.3): each side's account and
//! what happens next.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::RuleEvent;

use super::common::{Side, combat_value, event};
use super::crt::{COLUMN_LABELS, CrtResult, CrtThrow, base_column, crt};
use super::force::{Competency, Force};
use super::losses::{LOSSES, Role, StrategicCondition, lc, losses_row};
use super::retreat::RetreatOrder;
use super::situation::{Engagement, Situation};
use super::supplemental::{Supplemental, supplemental};
use crate::paper::PaperError;

/// What happens after a Combat Session (33.7.3 (viii), (x)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NextStep {
    /// NR: the next session is automatically a further Combat Session
    /// ([`Situation::continue_after_nr`]); either force may instead choose to
    /// retreat one Map Board away in good order.
    FurtherCombatSession,
    /// `side` retreats one Map Board away from the enemy in the Outcome
    /// Session (automatically, no Movement Test, FYOW 14); the winner may
    /// remain. When the defenders retreat, the attackers may attack again if
    /// activated before them ([`Situation::second_attack`]).
    Retreat { side: Side, order: RetreatOrder },
    /// `side` has lost all its value.
    Destroyed { side: Side },
}

/// One side's account of a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideOutcome {
    pub name: String,
    pub value_before: u32,
    /// Points lost to the enemy barrage or counter-battery fire.
    pub barrage_loss: u32,
    /// Points lost by the Losses Suffered Table.
    pub battle_loss: u32,
    pub value_after: u32,
    pub role: Role,
    /// The Strategic Condition named by the losses table, if any.
    pub condition: Option<StrategicCondition>,
    pub supplemental: Option<Supplemental>,
}

impl Force {
    /// The force as it goes on after a session: its value after losses.
    pub fn after(&self, outcome: &SideOutcome) -> Force {
        Force { value: outcome.value_after, ..self.clone() }
    }
}

/// A Combat Session resolved: losses per side, what happens next, every throw.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CombatSession {
    pub attacker: SideOutcome,
    pub defender: SideOutcome,
    /// `None` when the barrage left a force without Combat Value.
    pub crt: Option<CrtThrow>,
    pub next: NextStep,
    pub events: Vec<RuleEvent>,
}

/// Resolves one Combat Session of a paper battle (FYOW 33.7.2–33.7.3):
/// barrage and counter-battery, the CRT throw, each side's losses and
/// supplemental effects, and the next step. Dice are thrown in that order:
/// barrage D6s, counter-battery D6s, the CRT D10, the attacker's then the
/// defender's losses D6, then the attacker's and the defender's supplemental
/// dice (machines, ammunition, engineers' pieces, buildings).
pub fn resolve_combat_session(
    attacker: &Force,
    defender: &Force,
    situation: &Situation,
    dice: &mut impl Roll,
) -> Result<CombatSession, PaperError> {
    check_combat_values(attacker, defender)?;
    situation.check()?;
    let mut events = Vec::new();
    let (att, def) = pre_battle_artillery(attacker, defender, situation, dice, &mut events);
    if let Some(lost_side) = left_without_combat_value(att, def) {
        return Ok(destroyed_by_barrage(attacker, defender, att, def, lost_side, events));
    }
    let column = crt_column(combat_value(att.value), combat_value(def.value), situation);
    let modifiers = d10_modifiers(attacker, defender, situation);
    let (thrown, e) = attacker_throws_d10(attacker, defender, &column, &modifiers, dice);
    events.push(e);
    let result = thrown.result;
    let (mut attacker_outcome, e) = losses_suffered(attacker, att, Side::Attacker, result, thrown.added, dice);
    events.push(e);
    let (mut defender_outcome, e) = losses_suffered(defender, def, Side::Defender, result, 0, dice);
    events.push(e);
    for (outcome, force) in [(&mut attacker_outcome, attacker), (&mut defender_outcome, defender)] {
        let (s, e) = supplemental(force, result, outcome.role, dice);
        outcome.supplemental = Some(s);
        events.push(e);
    }
    let (next, e) = outcome_session(result, (attacker, &attacker_outcome), (defender, &defender_outcome));
    events.push(e);
    Ok(CombatSession { attacker: attacker_outcome, defender: defender_outcome, crt: Some(thrown), next, events })
}

/// FYOW 33.2: a force fights with its Combat Value, so each needs one.
fn check_combat_values(attacker: &Force, defender: &Force) -> Result<(), PaperError> {
    if attacker.combat_value() == 0 {
        return Err(PaperError::new("33.2", format!("the attacking force {} has no Combat Value", attacker.name)));
    }
    if defender.combat_value() == 0 {
        return Err(PaperError::new("33.2", format!("the defending force {} has no Combat Value", defender.name)));
    }
    Ok(())
}

/// A side's points going into the CRT: its value less what the enemy's
/// pre-battle artillery took.
#[derive(Clone, Copy)]
struct Committed {
    value: u32,
    barrage_loss: u32,
}

/// (iv) The pre-battle artillery barrage, then counter-battery fire, each
/// where the Command Decision was taken.
fn pre_battle_artillery(
    attacker: &Force,
    defender: &Force,
    situation: &Situation,
    dice: &mut impl Roll,
    events: &mut Vec<RuleEvent>,
) -> (Committed, Committed) {
    let mut att = Committed { value: attacker.value, barrage_loss: 0 };
    let mut def = Committed { value: defender.value, barrage_loss: 0 };
    if situation.barrage {
        let (lost, e) = artillery(attacker, &defender.name, def.value, false, dice);
        def.value -= lost;
        def.barrage_loss = lost;
        events.push(e);
    }
    if situation.counter_battery {
        let (lost, e) = artillery(defender, &attacker.name, att.value, true, dice);
        att.value -= lost;
        att.barrage_loss = lost;
        events.push(e);
    }
    (att, def)
}

/// Pre-combat barrage or counter-battery fire (33.7.2 (iv)): 1D6 per piece
/// of 100mm or over, the score in points lost by the target.
fn artillery(firer: &Force, target: &str, target_value: u32, counter: bool, dice: &mut impl Roll) -> (u32, RuleEvent) {
    let faces = dice.throw(firer.heavy_guns as usize, 6);
    let score: u32 = faces.iter().map(|&f| u32::from(f)).sum();
    let lost = score.min(target_value);
    let (section, what) = if counter {
        ("33.7.2 (iv) Counter-battery fire", "defenders activated after the attackers, attackers detected")
    } else {
        ("33.7.2 (iv) Pre-combat artillery barrage", "attackers detected the defenders")
    };
    let e = event(section)
        .actor(firer.name.clone())
        .target(target)
        .input("guns_100mm_and_over", firer.heavy_guns, "1D6 per artillery piece of 100mm or over")
        .input("decision", true, what)
        .dice(6, &faces)
        .outcome(json!({"score": score, "points_lost": lost, "value_after": target_value - lost}));
    (lost, e)
}

/// The side the artillery left with a Combat Value of 0, the defender
/// looked at first.
fn left_without_combat_value(att: Committed, def: Committed) -> Option<Side> {
    [(def, Side::Defender), (att, Side::Attacker)].into_iter().find(|(c, _)| combat_value(c.value) == 0).map(|(_, s)| s)
}

/// Reading (FYOW 33.7.2 (iv)): a barrage that leaves a force with a Combat
/// Value of 0 leaves it nothing to fight with; the CRT is not consulted and
/// the rest of that force's value is lost.
fn destroyed_by_barrage(
    attacker: &Force,
    defender: &Force,
    att: Committed,
    def: Committed,
    lost_side: Side,
    mut events: Vec<RuleEvent>,
) -> CombatSession {
    let (a_after, d_after) = if lost_side == Side::Defender { (att.value, 0) } else { (0, def.value) };
    let mut a = side_outcome(attacker, att.barrage_loss, a_after, Role::Winner);
    let mut d = side_outcome(defender, def.barrage_loss, d_after, Role::Winner);
    let loser = if lost_side == Side::Defender { &mut d } else { &mut a };
    loser.battle_loss = value_left(loser);
    loser.role = Role::Loser;
    events.push(
        event("33.7.2 (iv) Pre-combat artillery barrage")
            .actor(loser.name.clone())
            .input("value_after_barrage", loser.value_before - loser.barrage_loss, "Combat Value 0")
            .outcome(json!({"destroyed": lost_side})),
    );
    CombatSession { attacker: a, defender: d, crt: None, next: NextStep::Destroyed { side: lost_side }, events }
}

/// A side's account before the Losses Suffered Table is read.
fn side_outcome(force: &Force, barrage_loss: u32, value_after: u32, role: Role) -> SideOutcome {
    SideOutcome {
        name: force.name.clone(),
        value_before: force.value,
        barrage_loss,
        battle_loss: 0,
        value_after,
        role,
        condition: None,
        supplemental: None,
    }
}

fn value_left(o: &SideOutcome) -> u32 {
    o.value_before - o.barrage_loss
}

/// Where an attack reads the Combat Results Table.
struct Column {
    /// The attackers' and the defenders' Combat Values after any barrage.
    attacker_cv: u32,
    defender_cv: u32,
    /// The differential's column, before shifts.
    base: usize,
    /// Every shift of the Terrain Effects and Battle Factors charts, with why.
    shifts: Vec<(i32, String)>,
    above_five: bool,
    /// The left shifts, ignored above a differential of 5.
    left: i32,
    /// The column read, after the shifts.
    column: usize,
    /// Added to the D10 for right shifts beyond the right-hand column.
    beyond: u32,
    /// Added to the D10 for every 5 (or part) above 5.
    over_five: u32,
}

impl Column {
    /// All the attacker adds to his D10 throw (and deducts from his losses D6).
    fn added(&self) -> u32 {
        self.beyond + self.over_five
    }
}

/// (v)–(vi) The column of the differential, moved by every shift of the
/// Terrain Effects and Battle Factors charts, and what a high differential
/// adds to the D10.
fn crt_column(a: u32, d: u32, situation: &Situation) -> Column {
    let base = base_column(a, d);
    let above_five = 10 * u64::from(a) > 50 * u64::from(d);
    let shifts = situation.shifts();
    let right: i32 = shifts.iter().map(|s| s.0.max(0)).sum();
    let left: i32 = shifts.iter().map(|s| (-s.0).max(0)).sum();
    // "If the differential is above 5, IGNORE any left-shift requirements."
    let net = if above_five { right } else { right - left };
    let raw = base as i32 + net;
    // Reading (FYOW 33.7.2 (v)): only shifts beyond the right-hand column are
    // turned into D10 additions; a shift left of "<1" stays in that column.
    let column = raw.clamp(0, 10) as usize;
    let beyond = (raw - 10).max(0) as u32;
    // "add 1 to the d10 throw for every 5 (or part of) above 5"
    let over_five = if above_five { (u64::from(a) - 5 * u64::from(d)).div_ceil(5 * u64::from(d)) as u32 } else { 0 };
    Column { attacker_cv: a, defender_cv: d, base, shifts, above_five, left, column, beyond, over_five }
}

/// (vii) The modifiers to the attacker's D10: the defender activated before
/// the attack, and each side's Battlegroup Commander.
fn d10_modifiers(attacker: &Force, defender: &Force, situation: &Situation) -> Vec<(i32, &'static str)> {
    let mut mods: Vec<(i32, &str)> = Vec::new();
    if situation.defender_activated_first {
        if situation.engagement == Engagement::NrContinuation {
            mods.push((0, "defender activated first, but cannot gain the -1 after an NR (33.7.3 (x))"));
        } else {
            mods.push((-1, "defender activated before the attack during the Combat Session"));
        }
    }
    match attacker.commander {
        Competency::AboveAverage => mods.push((1, "attacking BC above average")),
        Competency::BelowAverage => mods.push((-1, "attacking BC below average")),
        Competency::Average => {}
    }
    match defender.commander {
        Competency::AboveAverage => mods.push((-1, "defending BC above average")),
        Competency::BelowAverage => mods.push((1, "defending BC below average")),
        Competency::Average => {}
    }
    mods
}

/// (vii) The attacker throws a D10, adds and modifies it, and reads the
/// Combat Results Table.
fn attacker_throws_d10(
    attacker: &Force,
    defender: &Force,
    column: &Column,
    mods: &[(i32, &'static str)],
    dice: &mut impl Roll,
) -> (CrtThrow, RuleEvent) {
    let (a, d) = (column.attacker_cv, column.defender_cv);
    let added = column.added();
    let modifier: i32 = mods.iter().map(|m| m.0).sum();
    let d10 = dice.d10();
    let total = i32::from(d10) + added as i32 + modifier;
    // Reading (FYOW 33.7.2 (v)): the table's rows run 1..10; a modified
    // throw above 10 reads the 10 row and one below 1 reads the 1 row.
    let row = total.clamp(1, 10) as u8;
    let result = crt(row, column.column);
    let mut e = event("33.7.2 (v) Combat Results Table")
        .actor(attacker.name.clone())
        .target(defender.name.clone())
        .input("attacker_combat_value", a, "points / 10 after any barrage")
        .input("defender_combat_value", d, "points / 10 after any barrage")
        .input("differential", (f64::from(a) / f64::from(d) * 100.0).round() / 100.0, "attackers / defenders")
        .input("base_column", COLUMN_LABELS[column.base], "");
    for (shift, why) in &column.shifts {
        e = e.input("shift", shift, why.clone());
    }
    if column.above_five && column.left > 0 {
        e = e.input("left_shifts_ignored", column.left, "differential above 5");
    }
    e = e.input("column", COLUMN_LABELS[column.column], "after cumulative shifts");
    if column.beyond > 0 {
        e = e.input(
            "added_for_shifts_beyond_last_column",
            column.beyond,
            "+1 per right shift beyond the right-hand column",
        );
    }
    if column.over_five > 0 {
        e = e.input("added_above_5", column.over_five, "+1 for every 5 (or part of) above 5");
    }
    for (m, why) in mods {
        e = e.input("d10_modifier", m, *why);
    }
    let e = e.dice(10, &[d10]).outcome(json!({"total": total, "row": row, "result": result}));
    (CrtThrow { column: column.column, d10, added, modifier, row, result }, e)
}

/// How `side` fared by `result`.
fn role_of(side: Side, result: CrtResult) -> Role {
    match result.loser() {
        None => Role::NoResult,
        Some(l) if l == side => Role::Loser,
        Some(_) => Role::Winner,
    }
}

/// (ix) One side's D6 on the Losses Suffered Table, less `deduct`: what the
/// attacker added to his D10 throw.
fn losses_suffered(
    force: &Force,
    committed: Committed,
    side: Side,
    result: CrtResult,
    deduct: u32,
    dice: &mut impl Roll,
) -> (SideOutcome, RuleEvent) {
    let Committed { value, barrage_loss } = committed;
    let role = role_of(side, result);
    let face = dice.d6();
    let modified = i32::from(face) - deduct as i32;
    // Reading (FYOW 33.7.3 (ix)): "a result of 0 or less means he suffers
    // 1% losses" and names no Strategic Condition.
    let cell = if modified <= 0 { lc(1, None) } else { LOSSES[losses_row(result, role)][modified as usize - 1] };
    let lost = (u64::from(value) * u64::from(cell.percent) / 100) as u32;
    let mut ev = event("33.7.3 (ix) Losses Suffered Table")
        .actor(force.name.clone())
        .input("result", result, "")
        .input("role", role, "")
        .input("force_value", value, "the force committed");
    if deduct > 0 {
        ev = ev.input("d6_deduction", deduct, "the attacker added as much to his D10 throw");
    }
    let ev = ev.dice(6, &[face]).outcome(json!({
        "modified": modified, "percent": cell.percent, "points_lost": lost, "condition": cell.condition,
    }));
    let mut o = side_outcome(force, barrage_loss, value - lost, role);
    o.battle_loss = lost;
    o.condition = cell.condition;
    (o, ev)
}

/// (viii) What the result obliges in the Outcome Session: after NR a further
/// Combat Session; otherwise the loser retreats, in good order or in
/// disarray, or is destroyed when it has no value left.
fn outcome_session(
    result: CrtResult,
    attacker: (&Force, &SideOutcome),
    defender: (&Force, &SideOutcome),
) -> (NextStep, RuleEvent) {
    let next = match result.loser() {
        None => NextStep::FurtherCombatSession,
        Some(s) => {
            let (f, o) = if s == Side::Attacker { attacker } else { defender };
            if o.value_after == 0 {
                NextStep::Destroyed { side: s }
            } else if result.level() >= 2 || !f.movement_allowance_left {
                NextStep::Retreat { side: s, order: RetreatOrder::Disarray }
            } else {
                NextStep::Retreat { side: s, order: RetreatOrder::GoodOrder }
            }
        }
    };
    let why = match next {
        NextStep::FurtherCombatSession => "NR: a further Combat Session; retreat by choice in good order",
        NextStep::Retreat { order: RetreatOrder::GoodOrder, .. } => "AR/DR with Movement Allowance: good order",
        NextStep::Retreat { .. } if result.level() == 1 => "AR/DR with all Movement Allowance used: disarray",
        NextStep::Retreat { .. } => "AR2/DR2 and worse: disarray",
        NextStep::Destroyed { .. } => "all of the force's value lost",
    };
    (next, event("33.7.3 (viii) CRT Results Table").input("result", result, why).outcome(next))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paper::dunnigan::situation::{Attitude, Terrain};
    use crate::paper::dunnigan::supplemental::AmmoUsed;
    use crate::paper::dunnigan::testing::quiet;
    use warbound_rules::dice::Scripted;
    use warbound_rules::event::EventKind;

    #[test]
    fn barrage_example_score_36_is_36_points_lost() {
        // 33.7.2 (iv): "a score of 36 means losses of 36 points inflicted".
        let mut att = quiet("A", 1000);
        att.heavy_guns = 6;
        let def = quiet("D", 500);
        let mut sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        sit.barrage = true;
        // 6 guns all 6 = 36; D10 5; losses D6 3, 3; supplemental ammo D6 1, 1.
        let mut dice = Scripted::new([6, 6, 6, 6, 6, 6, 5, 3, 3, 1, 1]);
        let s = resolve_combat_session(&att, &def, &sit, &mut dice).unwrap();
        assert_eq!(s.defender.barrage_loss, 36);
        assert_eq!(s.events[0].outcome["points_lost"], 36);
        // 464 points: CV 46; 100/46 = 2.17 -> ">1.9" column; D10 5 -> NR.
        let crt = s.crt.unwrap();
        assert_eq!((crt.column, crt.result), (3, CrtResult::Nr));
        assert_eq!(s.next, NextStep::FurtherCombatSession);
        // NR row, D6 3: 5% of 1000 and of 464 (rounded down).
        assert_eq!(s.attacker.battle_loss, 50);
        assert_eq!(s.defender.battle_loss, 23);
        assert_eq!(s.defender.value_after, 464 - 23);
        assert_eq!(dice.remaining(), 0);
    }

    fn fight(att: &Force, def: &Force, sit: &Situation, faces: &[u8]) -> CombatSession {
        let mut dice = Scripted::new(faces.iter().copied());
        let s = resolve_combat_session(att, def, sit, &mut dice).unwrap();
        assert_eq!(dice.remaining(), 0, "every scripted face used");
        s
    }

    #[test]
    fn above_five_adds_for_every_five_or_part_and_ignores_left_shifts() {
        // 60 v 10 = 6: +1 for the part of 5 above 5; the city's 2 left ignored.
        let sit = Situation::new(Terrain::City, Attitude::Deployed);
        let s = fight(&quiet("A", 600), &quiet("D", 100), &sit, &[7, 2, 2, 3]);
        let crt = s.crt.unwrap();
        assert_eq!((crt.column, crt.added, crt.row), (10, 1, 8));
        assert_eq!(crt.result, CrtResult::Dr5);
        // 110 v 10 = 11: 6 above 5 -> +2; the attacker deducts 2 from his losses D6.
        let sit = Situation::new(Terrain::OpenPlains, Attitude::Deployed);
        let s = fight(&quiet("A", 1100), &quiet("D", 100), &sit, &[1, 2, 6, 4, 3]);
        let crt = s.crt.unwrap();
        // open plains 1 right beyond the last column: +1 more; 1 + 3 = 4.
        assert_eq!((crt.added, crt.row, crt.result), (3, 4, CrtResult::Dr2));
        // attacker D6 2 - 3 = -1: 1% losses, no condition.
        assert_eq!(s.attacker.battle_loss, 11);
        assert_eq!(s.attacker.condition, None);
        // defender loser of DR2 on 6: 40% and Red.
        assert_eq!(s.defender.battle_loss, 40);
        assert_eq!(s.defender.condition, Some(StrategicCondition::Red));
        assert_eq!(s.next, NextStep::Retreat { side: Side::Defender, order: RetreatOrder::Disarray });
    }

    #[test]
    fn shifts_are_cumulative_and_left_stops_at_first_column() {
        // 20 v 10 = 2.0 -> ">1.9" (3); fortified 3 left, rationed 2 right -> 2.
        let mut sit = Situation::new(Terrain::Fortified, Attitude::Deployed);
        sit.defender_rationed = true;
        let s = fight(&quiet("A", 200), &quiet("D", 100), &sit, &[6, 1, 1, 1, 1]);
        assert_eq!(s.crt.unwrap().column, 2);
        assert_eq!(s.crt.unwrap().result, CrtResult::Nr);
        // 1.0, fortified and undetected defenders: 4 left of "<1" stays there.
        let mut sit = Situation::new(Terrain::Fortified, Attitude::Deployed);
        sit.attackers_detected_defenders = false;
        let s = fight(&quiet("A", 100), &quiet("D", 100), &sit, &[1, 6, 1, 1, 1]);
        let crt = s.crt.unwrap();
        assert_eq!((crt.column, crt.added, crt.result), (0, 0, CrtResult::Ar3));
        // AR3: attacker loser on 6 -> 50% and Red, disarray; defender winner on 1 -> 1%.
        assert_eq!(s.attacker.battle_loss, 50);
        assert_eq!(s.attacker.condition, Some(StrategicCondition::Red));
        assert_eq!(s.defender.battle_loss, 1);
        assert_eq!(s.next, NextStep::Retreat { side: Side::Attacker, order: RetreatOrder::Disarray });
    }

    #[test]
    fn right_shifts_beyond_last_column_add_to_d10_and_loss_throw() {
        // 45 v 10 = 4.5 -> ">4.3" (9); rest 2 right, open 1 right -> 12: +2.
        let sit = Situation::new(Terrain::OpenPlains, Attitude::Rest);
        let s = fight(&quiet("A", 450), &quiet("D", 100), &sit, &[3, 3, 1, 1, 1]);
        let crt = s.crt.unwrap();
        assert_eq!((crt.column, crt.added, crt.row, crt.result), (10, 2, 5, CrtResult::Dr3));
        // attacker D6 3 - 2 = 1: AR3/DR3 winner 1% = 4 points.
        assert_eq!(s.attacker.battle_loss, 4);
    }

    #[test]
    fn commander_and_activation_modifiers() {
        // 1.5 -> ">1.3"; attacker above avg +1, defender below avg +1, defender first -1.
        let mut att = quiet("A", 150);
        att.commander = Competency::AboveAverage;
        let mut def = quiet("D", 100);
        def.commander = Competency::BelowAverage;
        let mut sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        sit.defender_activated_first = true;
        let s = fight(&att, &def, &sit, &[8, 1, 1, 1, 1]);
        let crt = s.crt.unwrap();
        assert_eq!((crt.modifier, crt.row, crt.result), (1, 9, CrtResult::Dr));
        // After NR the defenders cannot gain the -1 even if activated first.
        let mut cont = sit.continue_after_nr();
        cont.defender_activated_first = true;
        let s = fight(&att, &def, &cont, &[8, 1, 1, 1, 1]);
        let crt = s.crt.unwrap();
        // already engaged (NR): 1 right -> ">1.6"; modifier +2.
        assert_eq!((crt.column, crt.modifier, crt.row, crt.result), (2, 2, 10, CrtResult::Dr));
    }

    #[test]
    fn barrage_allowed_again_after_nr_but_decisions_start_cleared() {
        let mut att = quiet("A", 300);
        att.heavy_guns = 1;
        let mut sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        sit.barrage = true;
        let cont = sit.continue_after_nr();
        assert!(!cont.barrage && !cont.counter_battery);
        assert_eq!(cont.engagement, Engagement::NrContinuation);
        let mut cont = cont;
        cont.barrage = true;
        let s = fight(&att, &quiet("D", 100), &cont, &[2, 1, 1, 1, 1, 1]);
        assert_eq!(s.defender.barrage_loss, 2);
        // 30 v 9 = 3.33 -> ">3.1", already engaged (NR) 1 right -> ">3.7"; D10 1 -> DR.
        assert_eq!((s.crt.unwrap().column, s.crt.unwrap().result), (8, CrtResult::Dr));
    }

    #[test]
    fn dr_with_no_movement_allowance_retreats_in_disarray() {
        // 30 v 10 = 3 -> ">2.8" (6), D10 5 -> DR.
        let sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        let mut def = quiet("D", 100);
        let s = fight(&quiet("A", 300), &def, &sit, &[5, 1, 1, 1, 1]);
        assert_eq!(s.next, NextStep::Retreat { side: Side::Defender, order: RetreatOrder::GoodOrder });
        def.movement_allowance_left = false;
        let s = fight(&quiet("A", 300), &def, &sit, &[5, 1, 1, 1, 1]);
        assert_eq!(s.next, NextStep::Retreat { side: Side::Defender, order: RetreatOrder::Disarray });
    }

    #[test]
    fn dr4_loser_on_six_is_destroyed() {
        // 45 v 10 (">4.3"), D10 8 -> DR4; defender loses 100% on 6.
        let sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        let s = fight(&quiet("A", 450), &quiet("D", 100), &sit, &[8, 4, 6, 1, 1]);
        assert_eq!(s.crt.unwrap().result, CrtResult::Dr4);
        assert_eq!(s.defender.value_after, 0);
        assert_eq!(s.next, NextStep::Destroyed { side: Side::Defender });
        // DR4 winner on 4: 5%.
        assert_eq!(s.attacker.battle_loss, 22);
    }

    #[test]
    fn supplemental_effects_by_row() {
        // 51 v 10, D10 10 -> DR5. Attacker (winner) has 2 aircraft and 1 bridge,
        // defender (DR5 loser) has 1 aircraft and 2 engineer pieces.
        let mut att = quiet("A", 510);
        att.machines = 2;
        att.buildings = 1;
        let mut def = quiet("D", 100);
        def.machines = 1;
        def.engineer_pieces = 2;
        let sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        // D10, loss D6 x2, attacker: machines 5, 2; ammo 6; bridge 3. Defender: nothing thrown.
        let s = fight(&att, &def, &sit, &[10, 6, 1, 5, 2, 6, 3]);
        let a = s.attacker.supplemental.unwrap();
        assert_eq!(a.machine_damage, vec![2, 0], "D6 minus 3");
        assert_eq!(a.ammo, AmmoUsed::ThreeQuarters);
        assert_eq!(a.building_damage, vec![3]);
        let d = s.defender.supplemental.unwrap();
        assert!(d.machines_lost);
        assert_eq!(d.ammo, AmmoUsed::AllAndStockpileLost);
        assert_eq!(d.engineer_pieces_lost, 2);
        // DR5 loser on 1: 50% Amber.
        assert_eq!(s.defender.condition, Some(StrategicCondition::Amber));
    }

    #[test]
    fn counter_battery_hits_the_attackers() {
        let mut att = quiet("A", 400);
        att.heavy_guns = 1;
        let mut def = quiet("D", 200);
        def.heavy_guns = 2;
        let mut sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        sit.barrage = true;
        sit.counter_battery = true;
        let s = fight(&att, &def, &sit, &[4, 5, 6, 5, 1, 1, 1, 1]);
        assert_eq!(s.defender.barrage_loss, 4);
        assert_eq!(s.attacker.barrage_loss, 11);
        // 389 v 196: 38 v 19 = 2.0 -> ">1.9"; D10 5 -> NR.
        assert_eq!(s.crt.unwrap().result, CrtResult::Nr);
        assert_eq!(s.events.len(), 8);
    }

    #[test]
    fn barrage_that_leaves_no_combat_value_destroys_the_defender() {
        let mut att = quiet("A", 400);
        att.heavy_guns = 2;
        let mut sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        sit.barrage = true;
        let s = fight(&att, &quiet("D", 15), &sit, &[4, 3]);
        assert_eq!(s.next, NextStep::Destroyed { side: Side::Defender });
        assert_eq!(s.defender.barrage_loss, 7);
        assert_eq!(s.defender.battle_loss, 8);
        assert_eq!(s.defender.value_after, 0);
        assert!(s.crt.is_none());
    }

    #[test]
    fn bad_input_is_refused() {
        let att = quiet("A", 300);
        let mut dice = Scripted::new([]);
        let sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        assert_eq!(resolve_combat_session(&att, &quiet("D", 9), &sit, &mut dice).unwrap_err().section, "33.2");
        assert!(resolve_combat_session(&quiet("A", 0), &att, &sit, &mut dice).is_err());
        let mut s = sit.clone();
        s.barrage = true;
        s.attackers_detected_defenders = false;
        assert!(resolve_combat_session(&att, &att, &s, &mut dice).is_err());
        let mut s = sit.clone();
        s.counter_battery = true;
        s.defender_activated_first = true;
        assert!(resolve_combat_session(&att, &att, &s, &mut dice).is_err());
        let mut s = sit.second_attack(RetreatOrder::GoodOrder, true, false);
        s.barrage = true;
        let e = resolve_combat_session(&att, &att, &s, &mut dice).unwrap_err();
        assert_eq!(e.section, "33.7.3 (x)");
        assert!(e.to_string().contains("second battles"));
        let mut s = sit.clone();
        s.second_attack_this_session = true;
        s.second_attack_today = true;
        assert!(resolve_combat_session(&att, &att, &s, &mut dice).is_err());
    }

    #[test]
    fn second_attack_carries_the_disarray_penalty() {
        let sit = Situation::new(Terrain::Farmland, Attitude::Deployed);
        let second = sit.second_attack(RetreatOrder::Disarray, false, true);
        // disarray 2 right, 2nd attack today 1 right, in the Outcome Session 1 left.
        let net: i32 = second.shifts().iter().map(|s| s.0).sum();
        assert_eq!(net, 2);
        assert_eq!(second.engagement, Engagement::SecondBattle);
        // 1.0 -> "<1" + 2 -> ">1.6"; D10 7 -> NR.
        let s = fight(&quiet("A", 100), &quiet("D", 100), &second, &[7, 1, 1, 1, 1]);
        assert_eq!(s.crt.unwrap().column, 2);
        assert_eq!(s.crt.unwrap().result, CrtResult::Nr);
    }

    #[test]
    fn events_serialise_and_name_the_rule() {
        let sit = Situation::new(Terrain::HeavyWoodland, Attitude::Present);
        let s = fight(&quiet("A", 300), &quiet("D", 100), &sit, &[6, 2, 2, 1, 1]);
        assert!(s.events.iter().all(|e| e.kind == EventKind::PaperBattle));
        assert_eq!(s.events[0].rule.section, "33.7.2 (v) Combat Results Table");
        let line = s.events[0].to_json_line();
        assert!(line.contains("\"result\":\"Dr2\""), "{line}");
        let back: CombatSession = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
    }
}
