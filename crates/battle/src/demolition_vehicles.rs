//! Demolition vehicles (*Heroes All*, "Petard type mortars" and "Goliath"):
//! an AFV's petard fired at the building an enemy holds, within 6", 2+ to
//! hit, the hit going on the building on column F doubled (and doubled again
//! by the "hits on buildings" rule); and the Goliath, a remote-controlled
//! mini-tank fielded with 2 Elite controllers, that moves a D6 a bound and
//! may break down (its move, `movement.rs`), goes no further than 24" from
//! where it was deployed, and is detonated at will against what it is in
//! contact with: Attack Value +11 on a vehicle, column F doubled on men or a
//! building. The machine is destroyed by its detonation.

use super::change::{Change, Held, HeldSides};
use crate::prelude::*;
use warbound_rules::inches::Inches;
use warbound_rules::{
    assault::{self as rules, DEMOLITION},
    codex::Codex,
    dice::Dice,
    effects::ArmourClass,
    event::{Book, EventKind, RuleEvent, RuleRef},
    facing::{self, facing_along},
    fire_tests::{ChartTarget, FireResults},
    firing::{Cover, FireTarget},
    geometry::{self, distance},
    movement::MoveClass,
    order_dice::Phase,
    terrain::{Feature, Point, distance_to_segment},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{Command, Current},
    firing::Out,
    invariant::InvariantFailures,
    log::BattleLog,
    pair_mut,
    shared::{CONTACT, accrue_fire, building_hit, chart_of},
    sorted,
    state::{Battle, Build, ElementView, Flow, LastShot, Status},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

fn phase(mut t: Battlefield, mut current: ResMut<Current>) {
    match current.0.clone() {
        Some(Command::Petard { element, target }) => {
            current.0 = None;
            petard(&mut t, &element, &target);
            super::turn::phase_done(&mut t, Phase::Fire, &[]);
        }
        Some(Command::Goliath { element, target }) => {
            current.0 = None;
            detonate(&mut t, &element, &target);
            // The machine and its controllers are gone with the blast: its turn ends.
            super::turn::end_turn(&mut t, &element);
        }
        _ => {}
    }
}

/// Whether the element carries a petard mortar (its CODEX entry's `petard`).
pub fn has_petard(f: &ElementView, codex: &Codex) -> bool {
    f.force.element.pieces.iter().any(|p| codex.get(&p.codex).is_ok_and(|e| e.petard))
}

/// Whether the element is a Goliath and its controllers (it moves on the
/// Movement Table's Goliath row).
pub fn is_goliath(f: &ElementView) -> bool {
    f.place.mover.class == MoveClass::Goliath
}

/// The standing building (its feature) at `at`: a ruin is no building to
/// demolish, it is hard cover.
fn standing_building(battle: &Battle, at: Point) -> Option<usize> {
    let (feature, _) = geometry::building_at(&battle.terrain, at)?;
    battle
        .buildings
        .iter()
        .find(|(k, b)| *k == feature && !matches!(b.state, warbound_rules::buildings::State::Destroyed(_)))
        .map(|(k, _)| *k)
}

/// What a petard fired at `tgt` would strike: the standing building (or
/// bunker) it holds, else the element itself, which a petard may not target.
fn petard_target(battle: &Battle, tgt: &ElementView) -> FireTarget {
    if !tgt.force.build.is_vehicle() && standing_building(battle, tgt.place.at).is_some() {
        FireTarget::Building
    } else {
        tgt.force.build.fire_target()
    }
}

/// Why `me` may not fire a petard at the building `tgt` stands in, if it may
/// not: it has none, or the rule's own refusal ("They may **only** target
/// buildings and bunkers etc. Range is 6 inches."). Reading: the range is
/// measured to the enemy element in the building, as all fire is (test
/// `a_petard_at_seven_inches_is_refused`).
pub(super) fn petard_refused(me: &ElementView, tgt: &ElementView, battle: &Battle, codex: &Codex) -> Option<String> {
    if !has_petard(me, codex) {
        return Some("it has no petard mortar".into());
    }
    let d = distance(me.place.at, tgt.place.at).get();
    rules::may_fire_petard(petard_target(battle, tgt), d).err().map(|e| e.to_string())
}

/// The petard fired at the building `target` holds: 2+ hits; a hit is
/// [`DEMOLITION`] on the building (`shared::building_hit`), the occupants
/// taking what comes through; they accrue their tests as under HE fire.
pub(super) fn petard(t: &mut Battlefield, element: &str, target: &str) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let mut els = sorted(&mut t.elements);
    let (Some(i), Some(j)) = (t.roster.index(element), t.roster.index(target)) else {
        let what = format!("{element} or {target} is no element of the battle");
        t.failures.record(&mut t.log, bound, "petard", element, what);
        return;
    };
    super::shared::reveal(&mut t.log, bound, &mut els[i], warbound_rules::concealment::ConcealedActivity::Fire);
    let (firer, tgt) = pair_mut(&mut els, i, j);
    let d = distance(firer.place.at, tgt.place.at);
    let (hit, event) = match rules::fire_petard(petard_target(&t.battle, &tgt.view()), d.get(), &mut t.dice.0) {
        Ok(fired) => fired,
        Err(e) => {
            t.failures.record(&mut t.log, bound, "petard", element, format!("the petard cannot fire: {e}"));
            return;
        }
    };
    t.log.push(bound, event.actor(firer.id()).target(tgt.id()));
    firer.apply(Change::Fired);
    firer.apply(Change::Shot(LastShot { target: tgt.id().to_owned(), from: firer.place.at, at: tgt.place.at }));
    let mut damage = FireResults::default();
    damage.under(FireResults::under_fire_from(chart_of(&tgt.view()), true, false));
    if hit
        && let Some(lost) =
            building_hit(&mut t.battle, &tgt.view(), DEMOLITION, &mut t.dice.0, (&mut t.log, &mut t.failures), bound)
    {
        damage.casualties += tgt.apply(Change::LoseMen(u32::from(lost)));
    }
    if let Build::Afv { armour, .. } = firer.force.build
        && matches!(chart_of(&tgt.view()), ChartTarget::Infantry { .. })
    {
        damage.from_armour = Some(super::firing::suitable_at_weapon(&tgt.view(), armour, &codex));
    }
    let firer_id = firer.id().to_owned();
    let unobserved = !tgt.intel.known.contains(&firer_id);
    tgt.apply(Change::FiredOnBy(firer_id));
    let held = (&mut *t.log, &mut *t.failures, &mut t.dice.0, &mut t.sides);
    aftermath(held, bound, tgt, &damage, (unobserved, Cover::Hard, "petard"));
}

/// The tests the fire or blast leaves on `tgt`, its officers' checks, and
/// its leaving the table when nothing is left that fights.
fn aftermath(
    (log, failures, dice, sides): (&mut BattleLog, &mut InvariantFailures, &mut Dice, &mut HeldSides),
    bound: u32,
    tgt: &mut Held,
    damage: &FireResults,
    (unobserved, cover, by): (bool, Cover, &str),
) {
    accrue_fire(tgt, damage, (unobserved, cover), by, |ev| log.push(bound, ev));
    super::shared::casualties((&mut *log, &mut *failures), dice, bound, sides, tgt, damage.casualties);
    if tgt.spent() && tgt.presence.status.on_table() {
        super::shared::leave(log, bound, tgt, Status::Destroyed, "nothing left that fights");
    }
}

/// How far the Goliath at `g` is from what it would blow up with `tgt`: the
/// outline of the standing building `tgt` holds, else `tgt` itself.
fn reach_to(battle: &Battle, g: Point, tgt: &ElementView) -> f32 {
    let building = (!tgt.force.build.is_vehicle()).then(|| standing_building(battle, tgt.place.at)).flatten();
    let Some(Feature::Building { outline, .. }) = building.and_then(|k| battle.terrain.features.get(k)) else {
        return distance(g, tgt.place.at).get();
    };
    if geometry::building_at(&battle.terrain, g).is_some_and(|(k, _)| Some(k) == building) {
        return 0.0;
    }
    (0..outline.len())
        .map(|k| distance_to_segment(g, outline[k], outline[(k + 1) % outline.len()]).get())
        .fold(f32::INFINITY, f32::min)
}

/// Why the Goliath `me` may not be detonated against `tgt`, if it may not:
/// it is no Goliath, or is not in contact (within [`CONTACT`] of the enemy,
/// or of the building it holds).
pub(super) fn goliath_refused(me: &ElementView, tgt: &ElementView, battle: &Battle) -> Option<String> {
    if !is_goliath(me) {
        return Some("it is no Goliath".into());
    }
    let d = reach_to(battle, me.place.at, tgt);
    (d > CONTACT).then(|| format!("{} is {d:.1} inches off: a Goliath is detonated in contact", tgt.id()))
}

/// Why the Goliath `me` may not drive to `to`: "Range from the start point
/// is 24 inches". Reading: measured from where it was deployed (test
/// `a_goliath_is_not_driven_beyond_24_inches_from_its_start`).
pub(super) fn goliath_move_refused(me: &ElementView, to: Point) -> Option<String> {
    if !is_goliath(me) {
        return None;
    }
    let start = me.place.deployed.unwrap_or(me.place.at);
    rules::goliath_may_reach(distance(start, to).get()).err().map(|e| e.to_string())
}

/// Whether the Goliath `me` moving to `to` drives at `enemy`: an enemy it
/// knows of, whom `to` is in contact with. Reading (*Heroes All*, "Spotting a
/// potential ambush", as for the enemy assaulted): that enemy has been
/// observed, and the 9" halt does not stop the Goliath sent at it; any other
/// enemy within 9" still halts its move (test
/// `a_goliath_sent_at_a_tank_is_not_halted_nine_inches_short`).
pub(super) fn drives_at(me: &ElementView, enemy: &ElementView, to: Point) -> bool {
    is_goliath(me) && me.intel.known.contains(enemy.id()) && distance(to, enemy.place.at).get() <= CONTACT
}

/// The Goliath breaks down on its reliability throw ("On a 1 or 2 the
/// machine breaks down and is removed from the table with the crew. The CMT
/// is reduced by their CM score"): it leaves the table, and with it its CMS
/// from its side's CMT (`outcome::cmt`).
pub(super) fn breaks_down(log: &mut BattleLog, bound: u32, f: &mut Held) {
    let ev = RuleEvent::new(EventKind::Leaves, RuleRef::new(Book::HeroesAll, "Goliath"))
        .actor(f.id())
        .input("cms", f.force.element.cms, "the CMT is reduced by their CM score")
        .input("crew", f.men(), "removed from the table with the crew")
        .outcome(serde_json::json!({ "broke_down": true, "status": Status::Destroyed }));
    log.push(bound, ev);
    f.apply(Change::Leave(Status::Destroyed));
}

/// What a Goliath's charge falls on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
enum Against {
    Vehicle,
    Building,
    Men,
}

/// The Goliath detonated against `target`: "with the effect of Attack Value
/// +11 or by reference to the HE Effects Table column F with the resultant
/// number of casualties doubled". Reading: the Attack Value on a vehicle
/// (the face the Goliath reached), column F doubled on men, and on the
/// building they hold through the "hits on buildings" rule (test
/// `a_goliath_in_contact_with_a_tank_detonates_and_is_gone`).
pub(super) fn detonate(t: &mut Battlefield, element: &str, target: &str) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    let (Some(i), Some(j)) = (t.roster.index(element), t.roster.index(target)) else {
        let what = format!("{element} or {target} is no element of the battle");
        t.failures.record(&mut t.log, bound, "goliath", element, what);
        return;
    };
    let edge = t.sides.0[els[j].identity.side].home(els[j].identity.company);
    let (g, tgt) = pair_mut(&mut els, i, j);
    let against = if tgt.force.build.is_vehicle() {
        Against::Vehicle
    } else if standing_building(&t.battle, tgt.place.at).is_some() {
        Against::Building
    } else {
        Against::Men
    };
    let ev = RuleEvent::new(EventKind::Explosives, RuleRef::new(Book::HeroesAll, "Goliath"))
        .actor(g.id())
        .target(tgt.id())
        .input("act", "detonated at will", "an Act of its turn")
        .input("against", against, "Attack Value +11 on a vehicle; column F doubled on men or a building")
        .outcome(serde_json::json!({ "goliath": "destroyed by its detonation", "status": Status::Destroyed }));
    t.log.push(bound, ev);
    g.apply(Change::Leave(Status::Destroyed));
    let from = g.place.at;
    let mut damage = FireResults::default();
    damage.under(FireResults::under_fire_from(chart_of(&tgt.view()), true, against == Against::Vehicle));
    match (against, tgt.force.build) {
        (Against::Vehicle, build) => {
            let armour = match build {
                Build::Afv { armour, .. } => armour,
                _ => ArmourClass::SoftSkinned,
            };
            let heading = tgt.place.heading.unwrap_or_else(|| facing::ahead(edge));
            let seen = facing_along(tgt.place.at, heading, from);
            let state = tgt.vehicle.state.unwrap_or_default();
            let (after, _, event) = rules::goliath_against_vehicle(armour, seen, state, &mut t.dice.0);
            t.log.push(bound, event.actor(element).target(tgt.id()));
            let mut out =
                Out { dice: &mut t.dice.0, log: &mut t.log, failures: &mut t.failures, bound, battle: &mut t.battle };
            super::firing::apply_vehicle(&mut out, tgt, after, &mut damage);
        }
        (Against::Building, _) => {
            let dice = &mut t.dice.0;
            let lost = building_hit(&mut t.battle, &tgt.view(), DEMOLITION, dice, (&mut t.log, &mut t.failures), bound);
            damage.casualties += tgt.apply(Change::LoseMen(u32::from(lost.unwrap_or(0))));
        }
        (Against::Men, _) => {
            let figures = tgt.men().min(u32::from(u8::MAX)) as u8;
            match rules::goliath_against_men(figures, &mut t.dice.0, element) {
                Ok((lost, event)) => {
                    t.log.push(bound, event.target(tgt.id()));
                    damage.casualties += tgt.apply(Change::LoseMen(u32::from(lost)));
                }
                Err(e) => {
                    let what = format!("the Goliath's charge on {target} cannot be resolved: {e}");
                    t.failures.record(&mut t.log, bound, "goliath", element, what);
                }
            }
        }
    }
    if damage.damaged && matches!(tgt.force.build, Build::Afv { .. }) {
        tgt.apply(Change::MoraleDue(warbound_rules::command::MoraleCause::AfvDamaged, 1));
    }
    let cover = if against == Against::Building { Cover::Hard } else { Cover::Open };
    let held = (&mut *t.log, &mut *t.failures, &mut t.dice.0, &mut t.sides);
    aftermath(held, bound, tgt, &damage, (false, cover, "Goliath"));
}

/// The known enemy a Goliath drives at: the nearest vehicle, or enemy in a
/// standing building, whose contact point lies within its 24" of its start,
/// and that point (an inch and a half short of it on the Goliath's side).
pub(super) fn goliath_quarry(me: &ElementView, enemies: &[ElementView], battle: &Battle) -> Option<(String, Point)> {
    if !is_goliath(me) {
        return None;
    }
    let start = me.place.deployed.unwrap_or(me.place.at);
    enemies
        .iter()
        .filter(|e| me.intel.known.contains(e.id()))
        .filter(|e| e.force.build.is_vehicle() || standing_building(battle, e.place.at).is_some())
        .filter_map(|e| {
            let d = distance(me.place.at, e.place.at);
            let short = Inches(CONTACT * 0.75);
            let p = if d <= short { me.place.at } else { super::shared::toward(me.place.at, e.place.at, d - short) };
            (distance(start, p).get() <= rules::GOLIATH_RANGE).then(|| (d, e.id().to_owned(), p))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, id, p)| (id, p))
}

/// Where an Auto AVRE closes to: 5" from the nearest known enemy holding a
/// standing building, within the petard's 6".
pub(super) fn petard_approach(
    me: &ElementView,
    enemies: &[ElementView],
    battle: &Battle,
    codex: &Codex,
) -> Option<Point> {
    if !has_petard(me, codex) {
        return None;
    }
    let e = enemies
        .iter()
        .filter(|e| me.intel.known.contains(e.id()) && petard_target(battle, e) == FireTarget::Building)
        .min_by(|a, b| distance(me.place.at, a.place.at).total_cmp(&distance(me.place.at, b.place.at)))?;
    let d = distance(me.place.at, e.place.at);
    let stand_off = Inches(rules::PETARD_RANGE - 1.0);
    (d > Inches(rules::PETARD_RANGE)).then(|| super::shared::toward(me.place.at, e.place.at, d - stand_off))
}
