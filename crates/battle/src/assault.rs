//! Assaults (*Heroes All*, "Assaults"): an infantry element's Fire phase
//! spent closing with an observed enemy in a building or defensive position,
//! or with a vehicle, or a lone man's 1-on-1 attack on a lone enemy. "Any assault takes place in a **Fire** phase and
//! therefore the attackers must throw a **Move** or **Act** order if they need
//! to move into contact": an element not yet in contact first takes its Move
//! phase towards the target. Short of contact it fires from where it stands
//! ("Coming up short"); in contact with a building's occupants it enters,
//! throws its grenades (once a game day) and fires at close range into hard
//! cover; in contact with a vehicle it throws its grenades at it; a single
//! attacker closes with a single defender by a stealth move and fights him
//! 1-on-1 ([`fight_one_on_one`]). The
//! defenders' answer comes on their own card ([`defenders_retire`]): they
//! return fire from the building, or retire a full move.

use super::change::{Change, FlowChange, Held, HeldSides};
use crate::prelude::*;
use warbound_rules::{
    assault::{self as rules, Approach, AssaultError, CloseAssault, DefendersAction, GrenadeSupply, VehicleTarget},
    event::{Book, EventKind, RuleEvent, RuleRef},
    fire_tests::FireResults,
    firing::{self, Cover},
    geometry::{self, distance},
    inches::Inches,
    momentum::CmMovement,
    observation::Momentum,
    order_dice::{self, Phase, TurnPlan},
    terrain::Point,
    turn::{Course, ElementTurn},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{Command, Current, Pace, Refusal, refusal},
    firing::Out,
    movement, pair_mut,
    shared::{CONTACT, toward},
    sorted,
    state::{Battle, Build, ElementView, Elements, Flow, Status, Turn},
    visible::Sight,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, assault_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

/// *Heroes All*'s section of close assaults, as the rules crate names it.
const CLOSE: &str = "Close assaults (into buildings or defensive positions)";
/// *Heroes All*'s section of assaults on vehicles.
const VEHICLES: &str = "Assaults on AFVs and other vehicles";
/// *Heroes All*'s section of 1-on-1 attacks, as the rules crate names it.
const ONE_ON_ONE: &str = "Assaults: 1-on-1 attacks";

fn ha(section: &str) -> RuleRef {
    RuleRef::new(Book::HeroesAll, section)
}

/// What an assault by `me` on `target` is: into the building it holds, on
/// its vehicle, or a 1-on-1 attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Its building (feature index).
    Building(usize),
    Vehicle,
    /// A single attacker on a single defender/guard.
    OneOnOne,
}

/// Reading (*Heroes All*, "Assaults": 1-on-1 attacks, "Close assaults (into
/// buildings or defensive positions)", "Assaults on AFVs and other
/// vehicles"): a single attacker may attack a single defender wherever he
/// stands (the sentry in the open is the point of the rule); otherwise an
/// element assaults men in a building or a vehicle, and men in the open or
/// in a wood are fired on, not assaulted (tests
/// `only_buildings_and_vehicles_are_assaulted`,
/// `two_men_do_not_attack_a_man_in_the_open_1_on_1`).
fn kind(sight: &Sight, me: &ElementView, target: &ElementView) -> Option<Kind> {
    if target.force.build.is_vehicle() {
        return Some(Kind::Vehicle);
    }
    if one_on_one(me, target) {
        return Some(Kind::OneOnOne);
    }
    geometry::building_at(sight.terrain, target.place.at).map(|(k, _)| Kind::Building(k))
}

/// *Heroes All*, "1-on-1 attacks": "A single attacker can make a 1-on-1
/// attack on a single defender/guard": one infantry figure on one.
pub(super) fn one_on_one(me: &ElementView, target: &ElementView) -> bool {
    me.force.build == Build::Infantry && target.force.build == Build::Infantry && me.men() == 1 && target.men() == 1
}

/// The pace of the move into contact: "The attacker can make a \"stealth\"
/// move ... towards the defender/guard" of a 1-on-1 attack; any other
/// assault moves as the Movement Table gives.
fn pace(me: &ElementView, target: &ElementView) -> Pace {
    if one_on_one(me, target) { Pace::Stealth } else { Pace::Normal }
}

/// The grenades an element has left today.
fn grenades(f: &ElementView, battle: &Battle) -> GrenadeSupply {
    if f.actions.grenades_day == Some(battle.clock.day()) { GrenadeSupply::UsedToday } else { GrenadeSupply::Available }
}

/// Inches the element must still go to be in contact with `target`.
fn needed(me: &ElementView, target: &ElementView) -> f32 {
    (distance(me.place.at, target.place.at).get() - CONTACT).max(0.0)
}

fn figures(f: &ElementView) -> u8 {
    f.men().min(u32::from(u8::MAX)) as u8
}

/// The building's capacity (*Heroes All*, Buildings: 16 figures unless specified).
fn capacity(battle: &Battle, building: usize) -> u8 {
    battle
        .buildings
        .iter()
        .find(|(k, _)| *k == building)
        .map_or(warbound_rules::buildings::DEFAULT_CAPACITY, |(_, b)| b.capacity)
}

/// Figures already in `building` on `side`'s side, but `except`.
fn occupants(els: &[ElementView], sight: &Sight, building: usize, except: &str) -> u8 {
    let n: u32 = els
        .iter()
        .filter(|e| e.presence.status.on_table() && e.id() != except && !e.force.build.is_vehicle())
        .filter(|e| geometry::building_at(sight.terrain, e.place.at).is_some_and(|(k, _)| k == building))
        .map(|e| e.men())
        .sum();
    n.min(u32::from(u8::MAX)) as u8
}

/// Why `me` may not assault `target` in the turn `turn`, if it may not: the
/// order and the tests of the turn ([`warbound_rules::turn::Orders`]'s
/// `can_assault`, [`rules::may_assault`]), an observed enemy in a building
/// or a vehicle, and contact now or within the Move phase still open to it.
pub(super) fn refused(
    me: &ElementView,
    target: &str,
    turn: &Turn,
    els: &Elements,
    sight: &Sight,
    battle: &Battle,
) -> Option<Refusal> {
    let fyob = Book::FightYourOwnBattles;
    if me.force.build != Build::Infantry {
        let why = match me.force.build {
            Build::Guns { .. } => "CSW crews cannot be involved with assaults",
            _ => "only infantry elements assault",
        };
        return Some(refusal(Book::HeroesAll, CLOSE, why));
    }
    if !turn.orders.can_assault {
        return Some(refusal(fyob, "Continuous Momentum", "its CMS or this bound's CM tests forbid assaulting"));
    }
    if let Err(e) = rules::may_assault(me.force.element.cms, u32::from(turn.failures), false) {
        return Some(refusal(fyob, "Continuous Momentum Score", e.to_string()));
    }
    let Some(t) = els.get(target).filter(|e| e.identity.side != me.identity.side && e.presence.status.on_table())
    else {
        return Some(refusal(Book::HeroesAll, "Assaults", format!("{target} is no enemy on the table")));
    };
    if !me.intel.known.contains(target) {
        return Some(refusal(Book::HeroesAll, "Assaults", format!("{target} is not an enemy it has observed")));
    }
    match kind(sight, me, t) {
        None => {
            return Some(refusal(
                Book::HeroesAll,
                CLOSE,
                format!("{target} is in no building or defensive position: it is fired on, not assaulted"),
            ));
        }
        Some(Kind::Vehicle) => {
            if me.men() < u32::from(rules::FIGURES_PER_GRENADE) {
                return Some(refusal(Book::HeroesAll, VEHICLES, AssaultError::TooFewFigures(figures(me)).to_string()));
            }
            if grenades(me, battle) != GrenadeSupply::Available {
                return Some(refusal(
                    Book::HeroesAll,
                    CLOSE,
                    "a platoon is only allowed to throw grenades once during the game day",
                ));
            }
        }
        Some(Kind::Building(b)) => {
            let inside = geometry::building_at(sight.terrain, me.place.at).is_some_and(|(k, _)| k == b);
            if !inside && occupants(els, sight, b, me.id()) >= capacity(battle, b) {
                return Some(refusal(
                    Book::HeroesAll,
                    CLOSE,
                    "the maximum capacity of a building cannot be exceeded, even in assault",
                ));
            }
        }
        Some(Kind::OneOnOne) => {}
    }
    let needed = needed(me, t);
    if needed <= 0.0 {
        return None;
    }
    let must_move = |why: &str| Some(refusal(Book::HeroesAll, "Assaults", why.to_owned()));
    if turn.taken.contains(&Phase::Move) {
        return must_move("it is not in contact and has taken its Move phase");
    }
    let mut phases = turn.taken.clone();
    phases.extend([Phase::Move, Phase::Fire]);
    let plan = TurnPlan { phases, acts: turn.acts.clone(), at_the_double: false, overwatch: false, immobile: false };
    if order_dice::check_turn(turn.orders.order, &plan).is_err() {
        return must_move(
            "any assault takes place in a Fire phase: attackers not in contact must throw a Move or Act order",
        );
    }
    if turn.orders.movement != CmMovement::Free {
        return Some(refusal(
            fyob,
            "Results of Momentum Tests",
            "its CM tests this bound forbid moving towards the enemy",
        ));
    }
    let contact = toward(me.place.at, t.place.at, Inches(needed));
    let pace = pace(me, t);
    let pips = turn.orders.movement_pips;
    if let Some(e) = movement::pace_barred(battle, me, contact, pips, pace) {
        return Some(refusal(
            Book::HeroesAll,
            ONE_ON_ONE,
            format!("the stealth move towards {target} is barred: {e:?}"),
        ));
    }
    let furthest = movement::reach_at(battle, me, contact, pips, pace).map_or(0.0, |r| r.furthest);
    if furthest + 0.01 < needed {
        let dice = if pace == Pace::Stealth { "stealth move" } else { "Movement Dice" };
        return must_move(&format!(
            "{target} is {needed:.1} inches from contact, beyond the {furthest:.1} its {dice} can reach"
        ));
    }
    None
}

/// The chance of its Movement Dice reaching contact at which the Auto side
/// declares an assault: one in three (HA "Coming up short": the dice are
/// thrown after the assault is declared, and an element that falls short
/// fires from where it stands, as it would after an ordinary advance).
const FAIR_CHANCE: f64 = 1.0 / 3.0;

/// Whether the Auto element would assault `target` now: it is in contact, or
/// its Movement Dice (a stealth move's for a 1-on-1 attack) reach contact
/// with a fair chance ([`FAIR_CHANCE`]).
pub(super) fn within_reach(me: &ElementView, target: &ElementView, turn: &Turn, battle: &Battle) -> bool {
    let needed = needed(me, target);
    let contact = toward(me.place.at, target.place.at, Inches(needed));
    needed <= 0.0
        || movement::chance_to_reach(battle, me, contact, turn.orders.movement_pips, pace(me, target))
            .is_some_and(|p| p + 1e-9 >= FAIR_CHANCE)
}

/// The enemy infantry inside `me`'s building with it, nearest first: the
/// other side of a close assault that goes on.
pub(super) fn foe_inside<'a>(me: &ElementView, enemies: &[ElementView<'a>], sight: &Sight) -> Option<ElementView<'a>> {
    if me.force.build != Build::Infantry {
        return None;
    }
    let (b, _) = geometry::building_at(sight.terrain, me.place.at)?;
    enemies
        .iter()
        .filter(|e| e.identity.side != me.identity.side && e.presence.status.on_table())
        .filter(|e| e.force.build == Build::Infantry)
        .filter(|e| geometry::building_at(sight.terrain, e.place.at).is_some_and(|(k, _)| k == b))
        .min_by(|a, b| distance(me.place.at, a.place.at).total_cmp(&distance(me.place.at, b.place.at)))
        .copied()
}

/// *Heroes All*, "Close assaults": "If the attackers take their next bound
/// before the defenders, they may fire again (without grenades) **or**
/// withdraw away from the building"; the rounds go on "until one side is
/// forced to withdraw or withdraws voluntarily (i.e. it's NCO passes a
/// Leadership Test)". The NCO's Leadership Test (an Officer decision, FYOB)
/// and the round's verdict ([`rules::another_round`]) are logged; returns
/// whether the attackers withdraw.
///
/// Reading: an element with no NCO has no one to pass the test, and fights
/// on (test `outnumbered_attackers_withdraw_when_their_nco_passes`).
pub(super) fn withdraws(
    me: &ElementView,
    foe: &ElementView,
    dice: &mut warbound_rules::dice::Dice,
    log: &mut super::log::BattleLog,
    bound: u32,
) -> bool {
    let passed = match me.force.element.nco {
        Some(nco) => {
            let (test, mut event) = warbound_rules::officer::leadership_test(nco, dice, me.id());
            event.rule = RuleRef::new(Book::FightYourOwnBattles, "Officer decisions");
            let why = "withdraws voluntarily (i.e. it's NCO passes a Leadership Test)";
            log.push(bound, event.input("decision", "withdraw from the close assault", why));
            test.passed
        }
        None => false,
    };
    let another = rules::another_round(false, false, passed);
    let mut outcome = serde_json::json!({ "another_round": another });
    if !another {
        outcome["winner"] = serde_json::json!("defender");
    }
    let e = RuleEvent::new(EventKind::Assault, ha(CLOSE))
        .actor(me.id())
        .target(foe.id())
        .input("attackers", me.men(), "figures fighting in the building")
        .input("defenders", foe.men(), "figures holding it")
        .input("withdraws", passed, "its NCO passed a Leadership Test to withdraw")
        .outcome(outcome);
    log.push(bound, e);
    !another
}

/// Whether `target` is what an assault by `me` is made on (a building's
/// occupants, a vehicle, a lone man for a lone man).
pub(super) fn assailable(sight: &Sight, me: &ElementView, target: &ElementView) -> bool {
    kind(sight, me, target).is_some()
}

fn assault_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    let Some(Command::Assault { element, target }) = current.0.clone() else { return };
    current.0 = None;
    let Flow::Acting(turn) = &*t.flow else { return };
    let turn = turn.clone();
    assault(&mut t, &element, &target, &turn);
    super::turn::phase_done(&mut t, Phase::Fire, &[]);
}

/// Where the attackers stand inside the defenders' building: an inch in
/// from the defenders towards where they came from, or with the defenders.
fn inside(sight: &Sight, building: usize, defenders: Point, from: Point) -> Point {
    let p = toward(defenders, from, Inches(1.0));
    if geometry::building_at(sight.terrain, p).is_some_and(|(k, _)| k == building) { p } else { defenders }
}

pub(super) fn assault(t: &mut Battlefield, element: &str, target: &str, turn: &Turn) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let (Some(i), Some(j)) = (t.roster.index(element), t.roster.index(target)) else {
        t.fail("assault", element, format!("{element} or {target} is no element of the battle"));
        return;
    };
    let sight = Sight::new(&t.battle, &codex);
    let mut els = sorted(&mut t.elements);
    let Some(kind) = kind(&sight, &els[i].view(), &els[j].view()) else {
        drop(els);
        t.fail("assault", element, format!("{target} is neither in a building nor a vehicle, nor one man for one"));
        return;
    };
    let from = els[i].place.at;
    let needed = needed(&els[i].view(), &els[j].view());
    if needed > 0.0 {
        // The Move phase into contact.
        let contact = toward(from, els[j].place.at, Inches(needed));
        let pips = turn.orders.movement_pips;
        let pace = if kind == Kind::OneOnOne { Pace::Stealth } else { Pace::Normal };
        let thrown = movement::throw_move(
            &mut t.log,
            &mut t.failures,
            &mut t.dice.0,
            &t.battle,
            bound,
            &mut els[i],
            contact,
            (pips, pace),
        );
        if pace == Pace::Stealth {
            els[i].apply(Change::Stealthy);
        }
        let travel = thrown.unwrap_or(0.0);
        // Reading (HA "Spotting a potential ambush"): the enemy assaulted has
        // been observed, so the 9" halt is not for it; any other enemy still stops the move.
        let others: Vec<Point> = els
            .iter()
            .enumerate()
            .filter(|(k, f)| *k != j && f.identity.side != els[i].identity.side && f.presence.status.on_table())
            .map(|(_, f)| f.place.at)
            .collect();
        let allowed = if els[i].actions.this_bound.observed {
            travel
        } else {
            movement::ambush_limit(from, contact, travel, &others)
        };
        if allowed < travel {
            t.log.push(bound, movement::ambush_event(element, travel, allowed));
        }
        // A move that ends within a hundredth of an inch of contact (the
        // route's rounding) has reached it.
        let allowed = if needed - allowed < 0.01 { needed } else { allowed };
        let reached = rules::approach(needed, allowed).unwrap_or(Approach::ComingUpShort { short_by: needed });
        if let Approach::ComingUpShort { short_by } = reached {
            let e = RuleEvent::new(EventKind::Assault, ha("Coming up short"))
                .actor(element)
                .target(target)
                .input("needed", needed, "inches to contact")
                .input("allowance", allowed, "the move thrown")
                .outcome(serde_json::json!({
                    "short_by": short_by,
                    "grenades": false,
                    "winner": "defender",
                }));
            t.log.push(bound, e);
        }
        let f = &mut els[i];
        f.apply(Change::Move { to: toward(from, contact, Inches(allowed)), moved: allowed > 0.0 });
        super::shared::reveal_at(&mut t.log, bound, f, warbound_rules::concealment::ConcealedActivity::Move, from);
        movement::minefields((&mut t.log, &mut t.failures), &mut t.dice.0, bound, (&t.battle, &mut t.sides), f, from);
        movement::lose_track(&mut els, i, from, &t.battle, &codex);
        t.flow.apply(FlowChange::PhaseTaken(Phase::Move, Vec::new()));
        if !els[i].presence.status.on_table() {
            return;
        }
        if matches!(reached, Approach::ComingUpShort { .. }) {
            // Reading: a 1-on-1 attacker who falls short stays where his
            // stealth move ended, unseen, and does not fire (test
            // `a_lone_man_closes_by_stealth_and_stops_short_without_a_fight`).
            if kind == Kind::OneOnOne {
                return;
            }
            // HA "Coming up short": "the advancing troops may fire from their
            // final position. They may not throw grenades".
            let may = sight.may_fire_at(&els[i].view(), &els[j].view())
                && sight.in_range_of_any(&els[i].view(), &els[j].view());
            drop(els);
            if may {
                super::firing::do_fire(
                    t,
                    element,
                    target,
                    super::firing::Stance { on_the_move: true, failures: turn.failures, aimed: false },
                );
            }
            return;
        }
    }
    match kind {
        Kind::OneOnOne => {
            let mut out =
                Out { dice: &mut t.dice.0, log: &mut t.log, failures: &mut t.failures, bound, battle: &mut t.battle };
            fight_one_on_one(&mut out, &mut t.sides, &mut els, (i, j));
        }
        Kind::Vehicle => {
            let mut out =
                Out { dice: &mut t.dice.0, log: &mut t.log, failures: &mut t.failures, bound, battle: &mut t.battle };
            on_vehicle(&mut out, &mut t.sides, &mut els, (i, j));
        }
        Kind::Building(b) => {
            let already_in = geometry::building_at(sight.terrain, els[i].place.at).is_some_and(|(k, _)| k == b);
            if already_in {
                // HA: "On the second or subsequent round of assault, both
                // elements fire at close range with the appropriate cover modifiers".
                let e = RuleEvent::new(EventKind::Assault, ha(CLOSE))
                    .actor(element)
                    .target(target)
                    .input("round", "a further round", "both elements fire at close range, without grenades")
                    .outcome(serde_json::json!({ "grenades": false }));
                t.log.push(bound, e);
                els[i].apply(Change::Fired);
                let mut out = Out {
                    dice: &mut t.dice.0,
                    log: &mut t.log,
                    failures: &mut t.failures,
                    bound,
                    battle: &mut t.battle,
                };
                close_fire(&mut out, &mut t.sides, &codex, &mut els, (i, j), turn.failures, FireResults::default());
                return;
            }
            let views: Vec<ElementView> = els.iter().map(|f| f.view()).collect();
            let others = occupants(&views, &sight, b, target);
            drop(views);
            let a = CloseAssault {
                attackers: figures(&els[i].view()),
                defenders: figures(&els[j].view()),
                capacity: Some(capacity(&t.battle, b).saturating_sub(others)),
                nation: t.sides.0[els[i].identity.side].nation.clone(),
                grenades: grenades(&els[i].view(), &t.battle),
            };
            let (entry, e) = match rules::enter(&a, &mut t.dice.0, element) {
                Ok(entered) => entered,
                Err(AssaultError::BuildingFull | AssaultError::NoOne) => return,
                Err(e) => {
                    drop(els);
                    t.fail("assault", element, format!("the close assault cannot be resolved: {e}"));
                    return;
                }
            };
            t.log.push(bound, e.target(target));
            let day = t.battle.clock.day();
            let to = inside(&sight, b, els[j].place.at, els[i].place.at);
            if !entry.grenade_faces.is_empty() {
                els[i].apply(Change::GrenadesUsed(day));
            }
            els[i].apply(Change::Move { to, moved: true });
            els[i].apply(Change::Fired);
            let mut damage = FireResults::default();
            damage.casualties += els[j].apply(Change::LoseMen(u32::from(entry.casualties)));
            let mut out =
                Out { dice: &mut t.dice.0, log: &mut t.log, failures: &mut t.failures, bound, battle: &mut t.battle };
            close_fire(&mut out, &mut t.sides, &codex, &mut els, (i, j), turn.failures, damage);
        }
    }
}

/// *Heroes All*, "Close assaults": "The attackers now fire from inside the
/// building, noting that they get the benefit of close range but that the
/// defenders are in hard cover. Hits, casualties **and Continuous Momentum
/// Tests** are calculated." `damage` holds what the grenades did.
///
/// Reading: the close-assault fire is the attackers' small arms (weapons
/// firing HE into the building would hit the building, which the assault
/// does not); the grenades and the fire are one firing element's, so one
/// set of tests (test `seven_figures_throw_two_grenades_into_the_farm`).
fn close_fire(
    out: &mut Out,
    sides: &mut HeldSides,
    codex: &warbound_rules::codex::Codex,
    els: &mut [Held],
    (i, j): (usize, usize),
    failures: u8,
    mut damage: FireResults,
) {
    let bound = out.bound;
    let teams = Sight::new(out.battle, codex).teams_in_range(&els[i].view(), &els[j].view());
    let edge = sides.0[els[j].identity.side].home(els[j].identity.company);
    let (firer, tgt) = pair_mut(els, i, j);
    let d = distance(firer.place.at, tgt.place.at);
    let momentum = Momentum { cms: firer.force.element.cms.clamp(1, 6), failures };
    for team in &teams {
        if !matches!(team.row.row().procedure, firing::Procedure::OpenSights) || tgt.spent() {
            continue;
        }
        let Some((weapon, false)) = super::firing::weapon_for(team, &firer.view(), &tgt.view(), codex) else {
            continue;
        };
        let fire = rules::close_assault_fire(weapon, team.weapons, firer.force.fire_and_cm_quality(), momentum);
        let Ok(volley) = firing::fire_open_sights(&fire, &mut *out.dice) else { continue };
        out.log.push(bound, volley.event().actor(firer.id()).target(tgt.id()));
        super::firing::use_rounds(firer, team);
        let attack = weapon.row().attack_at(volley.assessment.band).is_some();
        super::firing::under(out, &mut damage, (weapon.row(), false, attack), &firer.view(), &tgt.view(), d);
        for _ in 0..volley.hits {
            if tgt.spent() {
                break;
            }
            let band = volley.assessment.band;
            super::firing::hit(out, weapon, false, band, tgt, firer.place.at, edge, &mut damage);
        }
    }
    let firer_id = firer.id().to_owned();
    tgt.apply(Change::FiredOnBy(firer_id.clone()));
    // The defenders know who is in their building with them.
    tgt.apply(Change::Knows(vec![firer_id]));
    super::shared::accrue_fire(tgt, &damage, (false, Cover::Hard), "a close assault", |ev| out.log.push(bound, ev));
    super::shared::casualties((&mut *out.log, &mut *out.failures), out.dice, bound, sides, tgt, damage.casualties);
    if tgt.spent() && tgt.presence.status.on_table() {
        let e = RuleEvent::new(EventKind::Assault, ha(CLOSE))
            .actor(firer.id())
            .target(tgt.id())
            .input("defenders_left", 0, "every defender is a casualty")
            .outcome(serde_json::json!({ "winner": "attacker", "status": Status::Destroyed }));
        out.log.push(bound, e);
        tgt.apply(Change::Leave(Status::Destroyed));
    }
}

/// *Heroes All*, "1-on-1 attacks": the attacker in contact throws a D6 (3+,
/// elite +1, poor/militia −1) with the quality his element fires with; each
/// time it fails the defender/guard fights back (4+) and "alerts friendly
/// troops within 12 inches on a D6 throw of 2+", and "the fight continues
/// until resolved" ([`rules::one_on_one`], each round one event).
///
/// Readings: the figure who loses the fight is a casualty, and his element
/// of one is destroyed (test `a_lone_man_attacks_a_sentry_1_on_1`); after a
/// win the attacker stays where he made the attack ("can remain at the
/// position of the attack"; the Auto side and the Player alike); the alerted
/// friends are the defender's other elements within 12 inches of him, who
/// come to know of the attacker (test `an_alerted_sentry_warns_friends_within_12_inches`).
fn fight_one_on_one(t: &mut Out, sides: &mut HeldSides, els: &mut [Held], (i, j): (usize, usize)) {
    let bound = t.bound;
    let (attacker, defender) = (els[i].id().to_owned(), els[j].id().to_owned());
    let quality = els[i].force.fire_and_cm_quality();
    let (fight, events) =
        match rules::one_on_one(figures(&els[i].view()), figures(&els[j].view()), quality, &mut *t.dice, &attacker) {
            Ok(fought) => fought,
            Err(e) => {
                debug!("{attacker} cannot attack {defender} 1-on-1: {e}");
                return;
            }
        };
    for e in events {
        t.log.push(bound, e.target(defender.as_str()));
    }
    if fight.alerted {
        let (side, at) = (els[j].identity.side, els[j].place.at);
        for (k, f) in els.iter_mut().enumerate() {
            let near = distance(f.place.at, at).get() <= rules::ALERT_RADIUS;
            if k != j && f.identity.side == side && f.presence.status.on_table() && near {
                f.apply(Change::Knows(vec![attacker.clone()]));
            }
        }
    }
    let loser = match fight.winner {
        rules::Winner::Attacker => j,
        rules::Winner::Defender => i,
    };
    let f = &mut els[loser];
    let lost = f.apply(Change::LoseMen(1));
    super::shared::casualties((&mut *t.log, &mut *t.failures), t.dice, bound, sides, f, lost);
    if f.spent() && f.presence.status.on_table() {
        let e = RuleEvent::new(EventKind::Assault, ha(ONE_ON_ONE))
            .actor(attacker.as_str())
            .target(defender.as_str())
            .input("casualty", f.id(), "the figure who lost the fight")
            .outcome(serde_json::json!({ "winner": fight.winner, "status": Status::Destroyed }));
        t.log.push(bound, e);
        f.apply(Change::Leave(Status::Destroyed));
    }
}

/// *Heroes All*, "Assaults on AFVs and other vehicles": the attackers in
/// contact throw a grenade per 3 figures; the vehicle as the grenades leave it.
///
/// Reading: the assault is won when the vehicle is damaged or destroyed,
/// lost when the grenades do nothing (test `a_section_in_contact_throws_at_grenades_at_the_tank`).
fn on_vehicle(t: &mut Out, sides: &mut HeldSides, els: &mut [Held], (i, j): (usize, usize)) {
    let bound = t.bound;
    let (firer, tgt) = pair_mut(els, i, j);
    let crew: u8 = tgt.force.element.pieces.iter().map(|p| p.crew).sum();
    let vehicle = match tgt.force.build {
        Build::Afv { open_topped: true, .. } => VehicleTarget::OpenTopped { crew },
        Build::Afv { armour, .. } => VehicleTarget::ClosedAfv { armour },
        _ => VehicleTarget::SoftSkin { passengers: figures(&tgt.view()) },
    };
    let a = rules::VehicleAssault {
        figures: figures(&firer.view()),
        nation: sides.0[firer.identity.side].nation.clone(),
        grenades: grenades(&firer.view(), t.battle),
        target: vehicle,
        state: tgt.vehicle.state.unwrap_or_default(),
        target_at_the_double: false,
        tank_riders: false,
        from: rules::AssaultFrom::Contact,
    };
    let (out, mut e) = match rules::assault_vehicle(&a, &mut *t.dice, firer.id()) {
        Ok(done) => done,
        Err(e) => {
            debug!("{} cannot assault {}: {e}", firer.id(), tgt.id());
            return;
        }
    };
    let won = out.result != warbound_rules::effects::AtResult::NoEffect || out.casualties > 0;
    if let serde_json::Value::Object(m) = &mut e.outcome {
        m.insert("winner".into(), serde_json::json!(if won { "attacker" } else { "defender" }));
    }
    t.log.push(bound, e.target(tgt.id()));
    firer.apply(Change::GrenadesUsed(t.battle.clock.day()));
    firer.apply(Change::Fired);
    let before = tgt.vehicle.state.unwrap_or_default();
    tgt.apply(Change::Vehicle(out.state));
    if out.state == warbound_rules::effects::VehicleState::Damaged && before != out.state {
        super::shared::knock_off_net(t.log, bound, tgt, "its vehicle damaged in an assault");
    }
    let mut damage = FireResults {
        damaged: out.state == warbound_rules::effects::VehicleState::Damaged
            && before != warbound_rules::effects::VehicleState::Damaged,
        at: true,
        ..FireResults::default()
    };
    damage.casualties += tgt.apply(Change::LoseMen(u32::from(out.casualties)));
    tgt.apply(Change::FiredOnBy(firer.id().to_owned()));
    let cover = Cover::Soft;
    super::shared::accrue_fire(tgt, &damage, (false, cover), "an assault with grenades", |ev| t.log.push(bound, ev));
    super::shared::casualties((&mut *t.log, &mut *t.failures), t.dice, bound, sides, tgt, damage.casualties);
    if tgt.spent() && tgt.presence.status.on_table() {
        super::shared::leave(t.log, bound, tgt, Status::Destroyed, "brewed by the assault's grenades");
    }
}

/// The enemy inside the element's building with it, if any: the attackers of
/// a close assault.
fn assailant(els: &[ElementView], i: usize, sight: &Sight) -> Option<usize> {
    let me = &els[i];
    let b = held_building(me, sight)?;
    els.iter()
        .enumerate()
        .filter(|(_, e)| e.identity.side != me.identity.side && e.presence.status.on_table())
        .filter(|(_, e)| e.force.build == Build::Infantry)
        .filter(|(_, e)| geometry::building_at(sight.terrain, e.place.at).is_some_and(|(k, _)| k == b))
        .min_by(|a, b| distance(me.place.at, a.1.place.at).total_cmp(&distance(me.place.at, b.1.place.at)))
        .map(|(k, _)| k)
}

/// The building a man-held element stands in, where it may be assailed.
fn held_building(me: &ElementView, sight: &Sight) -> Option<usize> {
    if me.force.build.is_vehicle() || !me.presence.status.on_table() {
        return None;
    }
    geometry::building_at(sight.terrain, me.place.at).map(|(b, _)| b)
}

/// The defenders' card (*Heroes All*, "Close assaults"): "When they are able
/// to take action, the defenders must pass their CM Tests before returning
/// fire ... If, after taking their CM Tests, the defenders are not permitted
/// to take offensive action, they must retire away from the enemy 1 full
/// move. This full move retirement is mandatory and is the only action
/// permitted by the defenders if they fail their Officer Reaction Test."
/// Called once the element's turn (ORT, CM tests) is taken, for a turn that
/// acts or takes no action; returns whether it retired (its turn is over).
///
/// Readings: an element is under assault while an enemy infantry element is
/// inside its building with it; the full move away from the enemy is
/// towards its own edge (test `defenders_who_may_not_fire_retire_a_full_move`).
pub(super) fn defenders_retire(t: &mut Battlefield, id: &str, turn: &ElementTurn) -> bool {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let Some(i) = t.roster.index(id) else { return false };
    let sight = Sight::new(&t.battle, &codex);
    if t.elements.view_at(&t.roster, i).is_none_or(|me| held_building(&me, &sight).is_none()) {
        return false;
    }
    let Some(k) = assailant(&t.elements.views(), i, &sight) else { return false };
    let mut els = sorted(&mut t.elements);
    let passed_ort = matches!(turn.course, Course::Acts(_));
    let failures = turn.cm.as_ref().map_or(0, |c| c.failures);
    let Ok(action) = rules::defenders_act(turn.cms_after, failures, passed_ort) else { return false };
    let attacker = els[k].id().to_owned();
    let event = |outcome: serde_json::Value| {
        RuleEvent::new(EventKind::Assault, ha(CLOSE))
            .actor(id)
            .target(attacker.as_str())
            .input("cms", turn.cms_after, "the defenders must pass their CM Tests before returning fire")
            .input("failures", failures, "this bound's CM test failures")
            .input("passed_ort", passed_ort, "a failed ORT leaves only the full move retirement")
            .outcome(outcome)
    };
    match action {
        DefendersAction::ReturnFire => {
            t.log.push(bound, event(serde_json::json!({ "defenders": action, "defending": true })));
            els[i].apply(Change::Knows(vec![attacker]));
            false
        }
        DefendersAction::Retire => {
            let f = &mut els[i];
            let edge = t.sides.0[f.identity.side].home(f.identity.company);
            let table = t.battle.start.scenario.table;
            let home = super::shared::nearest_on_edge(table, edge, f.place.at);
            let travel = movement::throw_move(
                &mut t.log,
                &mut t.failures,
                &mut t.dice.0,
                &t.battle,
                bound,
                f,
                home,
                (0, Pace::Normal),
            )
            .unwrap_or(0.0);
            let from = f.place.at;
            let to = toward(from, home, Inches(travel));
            t.log.push(
                bound,
                event(serde_json::json!({ "defenders": action, "moved": travel, "winner": "attacker", "defending": true })),
            );
            f.apply(Change::Move { to, moved: travel > 0.0 });
            movement::minefields(
                (&mut t.log, &mut t.failures),
                &mut t.dice.0,
                bound,
                (&t.battle, &mut t.sides),
                f,
                from,
            );
            if f.presence.status.on_table() && super::shared::from_edge(table, edge, f.place.at) <= 1.0 {
                super::shared::leave(
                    &mut t.log,
                    bound,
                    f,
                    Status::Retired,
                    "a full move away took it off its own edge",
                );
            }
            movement::lose_track(&mut els, i, from, &t.battle, &codex);
            true
        }
    }
}
