//! The Auto side (FYOB): when one of its elements acts, it chooses the next
//! command from the element's orders, what the Order Die and its CMS allow,
//! and only what its side has observed.
//!
//! - Observe (an Act) enemies in view it does not know yet, nearest first, so
//!   it may then close within 9" of them (*Heroes All*, "Spotting a potential
//!   ambush").
//! - Fire at a known enemy in view and in range, as its orders let it open
//!   fire: freely; only in reply (Recce and Report); on a Leadership Test
//!   (a Concealed position: FYOB "Officer decisions"); never (Overwatch).
//! - Check, with an Act, the place in sight where it last saw an enemy it
//!   lost track of; until then it closes with that place as if occupied.
//! - A posted guard with an enemy behind it, out of its 180° arc, is first
//!   re-faced towards the nearest such enemy by its NCO's Leadership Test
//!   (*Heroes All*, "Guards"; once a bound).
//! - Engineers under an Engineering order mend a damaged bridge they are in
//!   contact with, the whole bound (*Heroes All*, "Repairing roads and
//!   bridges").
//! - Immobile weapons (guns, MMG and HMG teams) take an Act to break down
//!   before they move and to set up where they stop.
//! - On an Act order it first aims an AT/HE shot at a target at long range
//!   or in cover (FYOB "Act", (iv)).
//! - Move as its orders say: stay (Hold, Overwatch), go to the named place
//!   (Support, Re-position, Concealed, Engineering), or close with the nearest
//!   enemy it knows (Contact Enemy; Recce and Report towards its location);
//!   at the double (*Heroes All*, "Movement") when it has nothing to fire at
//!   or observe and no enemy it knows of lies within the run; by stealth
//!   within 24" of a known enemy, while neither its own fire nor the enemy's
//!   has shown it.

use crate::prelude::*;
use warbound_rules::inches::Inches;
use warbound_rules::{
    command::{Activity, Moves, OpensFire},
    concealment,
    explosives::ChargeKind,
    forces,
    geometry::distance,
    momentum::{CmMovement, CmsMovement},
    order_dice::{self, Phase},
    terrain::Point,
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    check::check,
    command::{AutoChecked, Command, Current, Inbox, ObserveTarget, Pace},
    demolition, demolition_vehicles,
    setup::Control,
    state::Demolition,
    state::{ElementView, Elements, Flow, Place, Turn},
    visible::Sight,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, decide.in_set(FlowSet::Auto).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

/// Stop this far short of a known enemy when closing with it: within
/// effective range of small arms, outside grenade range.
const CLOSE_TO: Inches = Inches(10.0);
/// An element approaching a known enemy this near goes by stealth where it can.
const STEALTH_NEAR: Inches = Inches(24.0);
/// A Recce and Report element stops when it knows of an enemy this near.
const RECCE_STANDOFF: f32 = 24.0;
/// How far an element leaving a burning building goes.
const EVACUATE: Inches = Inches(6.0);
/// Near enough to a place to be there.
const ARRIVED: f32 = 2.0;

fn decide(mut t: Battlefield, mut inbox: ResMut<Inbox>, current: Res<Current>, mut checked: ResMut<AutoChecked>) {
    let Flow::Acting(turn) = &*t.flow else { return };
    let turn = turn.clone();
    if !inbox.0.is_empty() || current.0.is_some() {
        return;
    }
    let bound = t.battle.clock.bound();
    let els = t.elements.views();
    let Some(&me) = t.roster.find(&els, &turn.element) else {
        t.failures.record(
            &mut t.log,
            bound,
            "decide",
            &turn.element,
            format!("{} is no element of the battle", turn.element),
        );
        return;
    };
    if t.sides.0[me.identity.side].control != Control::Auto {
        return;
    }
    let codex = t.codex.0.clone();
    let sight = Sight::new(&t.battle, &codex).reading_only();
    let all = Elements::new(els, &t.roster);
    let aircraft = super::air::over_table(&t.sides);
    let home = super::shared::nearest_on_edge(
        t.battle.start.scenario.table,
        t.sides.0[me.identity.side].home(me.identity.company),
        me.place.at,
    );
    let mut rolls = Rolls { dice: &mut t.dice.0, log: &mut t.log, bound };
    let cmd = next_command(&turn, &me, &all, &sight, &t.battle, &aircraft, home, &mut rolls);
    checked.0 = Some((cmd.clone(), check(&cmd, &turn, &all, &sight, &t.battle, &aircraft)));
    inbox.0.push_back(cmd);
}

/// What an element observes with an Act: enemies on the table in view that
/// it does not know yet, nearest first, at most 2 (*Heroes All*: "up to 2
/// targets"). The Auto side and the Player's offer both take them from here.
///
/// A concealed enemy is never a target where it stands: its counters in view
/// are, each as the element would be there (FYOB "Placement options": "When
/// an enemy unit approaches a counter and successfully observes it"). Test
/// `the_auto_side_observes_counters_never_a_hidden_element`.
pub(super) fn observe_targets(me: &ElementView, all: &[ElementView], sight: &Sight) -> Vec<ObserveTarget> {
    // Every unknown enemy, or each of its counters, nearest first (a stable
    // sort keeps the first of equals); the sight, the costly test, is taken
    // only until two are found.
    let mut unknown = Vec::new();
    for e in all.iter().filter(|e| {
        e.identity.side != me.identity.side && e.presence.status.on_table() && !me.intel.known.contains(e.id())
    }) {
        if !e.concealment.concealed() {
            unknown.push((distance(me.place.at, e.place.at), e, None));
            continue;
        }
        for (counter, at) in e.concealment.counters() {
            unknown.push((distance(me.place.at, at), e, Some((counter, at))));
        }
    }
    unknown.sort_by(|a, b| a.0.total_cmp(&b.0));
    unknown
        .into_iter()
        .filter_map(|(_, e, counter)| match counter {
            None => sight.in_view(me, e).then(|| ObserveTarget::Element(e.id().to_owned())),
            Some((counter, at)) => {
                let place = Place { at, ..e.place.clone() };
                sight
                    .in_view(me, &ElementView { place: &place, ..*e })
                    .then(|| ObserveTarget::Counter { element: e.id().to_owned(), counter })
            }
        })
        .take(2)
        .collect()
}

/// Dice for the Officer decisions an Auto element takes, and where they are logged.
struct Rolls<'a> {
    dice: &'a mut warbound_rules::dice::Dice,
    log: &'a mut super::log::BattleLog,
    bound: u32,
}

/// The command an Auto element gives next.
#[allow(clippy::too_many_arguments)]
fn next_command(
    turn: &Turn,
    me: &ElementView,
    all: &Elements,
    sight: &Sight,
    battle: &super::state::Battle,
    aircraft: &[super::air::Overhead],
    home: Point,
    t: &mut Rolls,
) -> Command {
    let charges: &[Demolition] = &battle.charges;
    let element = me.id().to_owned();
    let enemies: Vec<ElementView> =
        all.iter().copied().filter(|f| f.identity.side != me.identity.side && f.presence.status.on_table()).collect();
    // Heroes All, "Guards": a guard with an enemy behind it is re-faced by
    // its NCO's Leadership Test, before it does anything else.
    if let Some(to) = super::guards::auto_facing(me, &enemies) {
        let cmd = Command::ReFace { element: element.clone(), to };
        if check(&cmd, turn, all, sight, battle, aircraft).is_ok() {
            return cmd;
        }
    }
    if let Some(cmd) = transport_choice(turn, me, (all, &enemies), (sight, battle, aircraft), home) {
        return cmd;
    }
    let conduct = me.order.objective.activity.conduct();

    // FYOB "Runners": news to pass to its Company Officer or to hear from him
    // goes by runner, one of its Acts; it observes one target fewer for it.
    let runner = (turn.runner == Some(true)).then(|| Command::Runner { element: element.clone() });
    // What it would observe, worked out the first time a choice asks.
    let observing = std::cell::OnceCell::new();
    let observe = || {
        observing.get_or_init(|| {
            let mut targets = observe_targets(me, &enemies, sight);
            if runner.is_some() {
                targets.truncate(order_dice::ACTS_PER_TURN - 1);
            }
            targets
        })
    };

    // Fire: the known enemy in view with the most teams in range, nearest first.
    let replies = |e: &ElementView| {
        me.actions.this_bound.fired_on_by.contains(e.id()) || me.actions.last_bound.fired_on_by.contains(e.id())
    };
    let may_open = match conduct.opens_fire {
        OpensFire::Freely => Some(true),
        OpensFire::Never => Some(false),
        OpensFire::OnlyInReply => None,
        OpensFire::OnLeadershipTest => None,
    };
    let teams = forces::firing_teams(&me.force.element, sight.codex).unwrap_or_default();
    let mut targets: Vec<(ElementView, usize)> = enemies
        .iter()
        .copied()
        .filter(|e| may_open.unwrap_or_else(|| replies(e)))
        .map(|e| (e, sight.reaching(&teams, me, &e).count()))
        .filter(|(_, n)| *n > 0)
        .collect();
    // In that order (a stable sort keeps the first of equals), the sight,
    // the costly test, is taken only until one passes.
    targets.sort_by(|a, b| {
        b.1.cmp(&a.1).then(distance(me.place.at, a.0.place.at).total_cmp(&distance(me.place.at, b.0.place.at)))
    });
    let mut fire = targets.iter().find(|(e, _)| sight.may_fire_at(me, e)).map(|(e, _)| e.id().to_owned());
    if fire.is_none() && conduct.opens_fire == OpensFire::OnLeadershipTest && !turn.taken.contains(&Phase::Fire) {
        // A concealed element opening fire at an enemy it sees: an Officer decision.
        let seen: Option<ElementView> =
            enemies.iter().copied().find(|e| sight.may_fire_at(me, e) && sight.in_range_of_any(me, e));
        if let (Some(e), Some(nco)) = (seen, me.force.element.nco) {
            let (fires, event) = concealment::opens_fire(nco, me.order.objective.activity, t.dice, me.id());
            t.log.extend(t.bound, event);
            if fires {
                fire = Some(e.id().to_owned());
            }
        }
    }

    // Charges: fire one of ours when the enemy is on it; engineers lift the
    // enemy's they are in contact with (Heroes All, "Explosives").
    let blow = charges.iter().find(|d| {
        demolition::may_detonate(me, d, sight.terrain)
            && enemies.iter().any(|e| distance(e.place.at, d.at) <= super::shared::CONTACT * 2.0)
    });
    let lift = (me.order.objective.activity == Activity::Engineering)
        .then(|| charges.iter().find(|d| demolition::may_clear(me, d)))
        .flatten();
    let engineer = me.order.objective.activity == Activity::Engineering;
    // Engineers ordered to a bridge set a large charge on it for the
    // detonation pack, where none of their side's is set.
    let ours_set = |b: &super::state::BridgeState| {
        charges.iter().any(|d| {
            d.side == me.identity.side
                && d.live()
                && warbound_rules::terrain::distance_to_segment(d.at, b.span.from, b.span.to) <= super::shared::CONTACT
        })
    };
    if engineer
        && turn.taken.is_empty()
        && me.force.explosives.contains(&ChargeKind::Large)
        && demolition::bridge_in_contact(me, battle).is_some_and(|b| !ours_set(&battle.bridges[b]))
    {
        return Command::SetCharge { element, kind: ChargeKind::Large, delay: 0 };
    }
    // Engineers in contact with a minefield spend the bound clearing it.
    if engineer
        && turn.taken.is_empty()
        && demolition::minefield_in_contact(me, sight.terrain, &battle.minefields).is_some()
    {
        return Command::ClearMines { element };
    }
    // Engineers in contact with a damaged bridge spend the bound mending it.
    if engineer && super::bridging::mendable(me, turn, battle).is_ok() {
        return Command::Repair { element };
    }
    // Engineers at the bank of their bridging site spend the bound building.
    if engineer && turn.taken.is_empty() && super::bridging::site_at(me, &battle.pontoons).is_some() {
        return Command::Bridge { element };
    }
    // A burning building is left at once, towards its own edge ("if any
    // occupants are unable to evacuate on their next bound they are lost").
    let burning = warbound_rules::geometry::building_at(sight.terrain, me.place.at).is_some_and(|(k, _)| {
        battle
            .buildings
            .iter()
            .any(|(b, building)| *b == k && matches!(building.state, warbound_rules::buildings::State::Burning { .. }))
    });
    let destination = if burning {
        Some(super::shared::toward(me.place.at, home, EVACUATE))
    } else {
        destination(turn, me, &enemies, sight, battle)
    };
    // Men with a Bangalore Torpedo blow a gap in wire or a wall just ahead
    // on their way (Heroes All, "Explosives").
    let bangalore = destination
        .filter(|&p| {
            me.force.explosives.contains(&ChargeKind::Bangalore)
                && warbound_rules::explosives::bangalore_gap(sight.terrain, me.place.at, p).is_some()
        })
        .map(|p| Command::Bangalore { element: element.clone(), toward: (p.0, p.1) });
    // At the double when there is nothing to fire at or observe and no enemy
    // it knows of within the run (the fire phase and the Acts are given up).
    let runs = |to: Point| {
        let calm = fire.is_none() && blow.is_none() && lift.is_none() && observe().is_empty();
        calm && super::movement::reach_at(battle, me, to, turn.orders.movement_pips, Pace::AtTheDouble).is_some_and(
            |r| {
                !enemies
                    .iter()
                    .any(|e| me.intel.known.contains(e.id()) && distance(me.place.at, e.place.at) <= r.furthest)
                    && !me.intel.last_seen.values().any(|&at| distance(me.place.at, at) <= r.furthest)
            },
        )
    };
    // By stealth within 24" of an enemy it knows of, neither shown by its own
    // fire nor fired on this bound and last (Heroes All, "Movement",
    // "Observation": no "moved" segment for its observers).
    let sneaks = |to: Point| {
        let (this, last) = (&me.actions.this_bound, &me.actions.last_bound);
        let quiet = !this.fired && !last.fired && this.fired_on_by.is_empty() && last.fired_on_by.is_empty();
        let near = enemies
            .iter()
            .any(|e| me.intel.known.contains(e.id()) && distance(me.place.at, e.place.at) <= STEALTH_NEAR);
        quiet
            && near
            && me.force.build == super::state::Build::Infantry
            && super::movement::chance_to_reach(battle, me, to, turn.orders.movement_pips, Pace::Stealth).is_some()
    };
    // Immobile weapons: taken down to move on, set up where they stop (Heroes
    // All, "Weapons table notes").
    let set_up = sight
        .immobile(me)
        .then(|| {
            // Something to fire at keeps it set up.
            let up = destination.is_none() || fire.is_some();
            Command::SetUp { element: element.clone(), up }
        })
        .filter(|c| matches!(c, Command::SetUp { up, .. } if *up != me.actions.set_up));
    // In a building with the enemy, the close assault goes on: outnumbered,
    // it withdraws away from the building if its NCO passes a Leadership
    // Test, else it fights another round (Heroes All, "Close assaults").
    if let Some(foe) = super::assault::foe_inside(me, &enemies, sight)
        && turn.taken.is_empty()
        && assaults(turn, me)
        && me.men() < foe.men()
    {
        let round = Command::Assault { element: element.clone(), target: foe.id().to_owned() };
        let away = Command::Move { element: element.clone(), to: (home.0, home.1), pace: Pace::Normal };
        let may = |c: &Command| check(c, turn, all, sight, battle, aircraft).is_ok();
        if may(&round) && may(&away) {
            return if super::assault::withdraws(me, &foe, t.dice, t.log, t.bound) { away } else { round };
        }
    }
    // FYOB "Radios": a set knocked off the net is netted in again with an Act.
    let renet = me.force.off_net.as_ref().is_some_and(|n| !n.dis).then(|| Command::Renet { element: element.clone() });
    let acts = || -> Vec<Command> {
        let first: Vec<Command> = if let Some(s) = &set_up {
            vec![s.clone()]
        } else if let Some(r) = &renet {
            vec![r.clone()]
        } else if let Some(d) = blow {
            vec![Command::Detonate { element: element.clone(), charge: d.id.clone() }]
        } else if let Some(d) = lift {
            vec![Command::Clear { element: element.clone(), charge: d.id.clone() }]
        } else if let Some(b) = &bangalore {
            vec![b.clone()]
        } else if !observe().is_empty() {
            vec![Command::Observe { element: element.clone(), targets: observe().clone() }]
        } else {
            // The nearest place in sight where it last saw an enemy it lost track of:
            // checked with an Act (Heroes All, "Checking vacated positions").
            let vacated = me
                .intel
                .last_seen
                .iter()
                .filter(|(_, at)| sight.place_in_sight(me, **at))
                .min_by(|a, b| distance(me.place.at, *a.1).total_cmp(&distance(me.place.at, *b.1)))
                .map(|(id, _)| id.clone());
            vacated.map(|enemy| Command::CheckVacated { element: element.clone(), enemy }).into_iter().collect()
        };
        first.into_iter().chain(runner.clone()).collect()
    };
    // Each choice is drawn up only when those before it are refused.
    let candidates = preference(turn.orders.order).into_iter().flat_map(|p| match p {
        Phase::Act => acts(),
        Phase::Fire => {
            let petard = demolition_vehicles::has_petard(me, sight.codex)
                .then(|| {
                    enemies
                        .iter()
                        .filter(|e| {
                            me.intel.known.contains(e.id())
                                && demolition_vehicles::petard_refused(me, e, battle, sight.codex).is_none()
                        })
                        .min_by(|a, b| distance(me.place.at, a.place.at).total_cmp(&distance(me.place.at, b.place.at)))
                        .map(|e| Command::Petard { element: element.clone(), target: e.id().to_owned() })
                })
                .flatten();
            // Smoke to hide its company's infantry crossing the open from a known
            // enemy overlooking them (Heroes All, "Firing smoke").
            let screen = super::smoke::auto_spot(me, all, &enemies, sight);
            let smoke = screen.map(|p| Command::Smoke { element: element.clone(), at: (p.0, p.1) });
            // An Act order's Act before its Fire: aim an AT/HE shot at a target at
            // long range or in cover (FYOB "Act", (iv)).
            let aim = fire.clone().filter(|target| {
                all.get(target).is_some_and(|e| super::firing::aim_worth(sight, me, e, turn.failures))
            });
            let aimed = aim.map(|target| Command::AimedFire { element: element.clone(), target });
            // The enemy's aircraft overhead within reach of its AA weapon.
            let aa = super::air::aa_weapon(me, sight.codex);
            let overhead = aa
                .and_then(|(w, _)| aircraft.iter().find(|o| o.side != me.identity.side && o.in_reach_of(w)))
                .map(|o| Command::FireAa { element: element.clone(), squadron: o.squadron.clone() });
            let ground = fire.clone().map(|target| Command::Fire { element: element.clone(), target });
            // A gun that fires at aircraft (a Flak or a Bofors) takes them
            // first; the rest fire at aircraft only with nothing to hit on
            // the ground.
            let aa_gun = aa.is_some() && matches!(me.force.build, super::state::Build::Guns { .. });
            let plain = if aa_gun { overhead.or(ground) } else { ground.or(overhead) };
            petard.into_iter().chain(smoke).chain(aimed).chain(plain).collect()
        }
        Phase::Move => destination
            .map(|p| {
                let mv = |pace| Command::Move { element: element.clone(), to: (p.0, p.1), pace };
                if runs(p) {
                    vec![mv(Pace::AtTheDouble), mv(Pace::Normal)]
                } else if sneaks(p) {
                    vec![mv(Pace::Stealth), mv(Pace::Normal)]
                } else {
                    vec![mv(Pace::Normal)]
                }
            })
            .unwrap_or_default(),
    });
    // At a river's edge on its way: wade in (or out) before anything else.
    let wade = destination.map(|p| Command::Wade { element: element.clone(), to: (p.0, p.1) });
    let launch = destination.map(|p| Command::Launch { element: element.clone(), to: (p.0, p.1) });
    let assault = std::iter::once_with(|| {
        let target = (!burning).then(|| assault_target(turn, me, &enemies, sight, battle)).flatten();
        target.map(|target| Command::Assault { element: element.clone(), target })
    })
    .flatten();
    // On an Act order it observes before it assaults, so that the enemies it
    // spots do not halt its advance into contact (Heroes All "Spotting a
    // potential ambush": "without taking an observation test using an Act").
    let look_first = std::iter::once_with(|| {
        (turn.orders.order == Phase::Act && !observe().is_empty())
            .then(|| Command::Observe { element: element.clone(), targets: observe().clone() })
    })
    .flatten();
    // A Goliath in contact with an enemy it drives at, or any in contact, is detonated.
    let blast = demolition_vehicles::is_goliath(me)
        .then(|| {
            let quarry = demolition_vehicles::goliath_quarry(me, &enemies, battle).map(|(id, _)| id);
            let in_contact = |e: &&ElementView| demolition_vehicles::goliath_refused(me, e, battle).is_none();
            enemies
                .iter()
                .filter(in_contact)
                .find(|e| Some(e.id()) == quarry.as_deref())
                .or_else(|| enemies.iter().find(in_contact))
                .map(|e| Command::Goliath { element: element.clone(), target: e.id().to_owned() })
        })
        .flatten();
    blast
        .into_iter()
        .chain(wade)
        .chain(launch)
        .chain(look_first)
        .chain(assault)
        .chain(candidates)
        .find(|c| check(c, turn, all, sight, battle, aircraft).is_ok())
        .unwrap_or(Command::EndTurn { element })
}

/// Men aboard get out within this of a known enemy (effective small-arms range).
const DEBUS_NEAR_ENEMY: f32 = 18.0;
/// Men aboard get out within this of the place their order sends them to.
const DEBUS_NEAR_PLACE: f32 = 6.0;

/// Transports on the Auto side (*Heroes All*, "Transport elements"): an
/// empty transport, whose weapons it may not use empty, drives back to its
/// own edge (`home`) out of the fight; men aboard get out with an Act when
/// they know of an enemy within [`DEBUS_NEAR_ENEMY`], are within
/// [`DEBUS_NEAR_PLACE`] of where their order sends them, or their vehicle is
/// damaged, and otherwise ride on (`None`: the usual choice, which the
/// check keeps to driving, the vehicle's weapons and observing).
fn transport_choice(
    turn: &Turn,
    me: &ElementView,
    (all, enemies): (&Elements, &[ElementView]),
    (sight, battle, aircraft): (&Sight, &super::state::Battle, &[super::air::Overhead]),
    home: Point,
) -> Option<Command> {
    let element = me.id().to_owned();
    if me.force.transport() == Some(None) {
        let back = empty_transport_home(me, home)
            .map(|p| Command::Move { element: element.clone(), to: (p.0, p.1), pace: Pace::Normal })
            .filter(|c| check(c, turn, all, sight, battle, aircraft).is_ok());
        return Some(back.unwrap_or(Command::EndTurn { element }));
    }
    let vehicle = all[..].get(me.presence.status.aboard()?)?;
    let out = Command::Disembark { element };
    (gets_out(me, vehicle, enemies, sight) && check(&out, turn, all, sight, battle, aircraft).is_ok()).then_some(out)
}

/// Whether the Auto side's men aboard `vehicle` get out now: they know of an
/// enemy within [`DEBUS_NEAR_ENEMY`], are within [`DEBUS_NEAR_PLACE`] of
/// where their order sends them, or the vehicle is damaged.
pub(super) fn gets_out(me: &ElementView, vehicle: &ElementView, enemies: &[ElementView], sight: &Sight) -> bool {
    let enemy_near = enemies
        .iter()
        .any(|e| me.intel.known.contains(e.id()) && distance(me.place.at, e.place.at).get() <= DEBUS_NEAR_ENEMY);
    let there =
        order_destination(me, enemies, sight).is_none_or(|p| distance(me.place.at, p).get() <= DEBUS_NEAR_PLACE);
    let hit = vehicle.vehicle.state != Some(warbound_rules::effects::VehicleState::Intact);
    enemy_near || there || hit
}

/// Where the Auto side drives an empty transport: back to its own edge
/// (`home`), out of the fight; `None` once there.
pub(super) fn empty_transport_home(me: &ElementView, home: Point) -> Option<Point> {
    (me.force.transport() == Some(None) && distance(me.place.at, home).get() > ARRIVED).then_some(home)
}

/// The known enemy an Auto element assaults, nearest first: infantry whose
/// order seeks contact (Contact Enemy), whose turn allows an assault, at a
/// CMS above 4 (FYOB "Continuous Momentum Score": at 4 or less "Infantry
/// elements cannot assault"), against a building's occupants or a vehicle in
/// contact or within a fair chance of its Movement Dice (*Heroes All*,
/// "Assaults"); a lone man, against a lone enemy anywhere within a fair
/// chance of his stealth move ("1-on-1 attacks"; test
/// `the_auto_side_attacks_a_lone_sentry_1_on_1`). AFVs, crew-served weapons and elements at CMS 4 or less keep
/// their stand-off (`CLOSE_TO`).
fn assault_target(
    turn: &Turn,
    me: &ElementView,
    enemies: &[ElementView],
    sight: &Sight,
    battle: &super::state::Battle,
) -> Option<String> {
    if !assaults(turn, me) {
        return None;
    }
    // Nearest first (a stable sort keeps the first of equals), so the reach,
    // the costly test, is measured only until one is found.
    let mut known: Vec<&ElementView> = enemies
        .iter()
        .filter(|e| me.intel.known.contains(e.id()) && super::assault::assailable(sight, me, e))
        .collect();
    known.sort_by(|a, b| distance(me.place.at, a.place.at).total_cmp(&distance(me.place.at, b.place.at)));
    known.into_iter().find(|e| super::assault::within_reach(me, e, turn, battle)).map(|e| e.id().to_owned())
}

/// Whether the Auto element seeks to assault this turn: infantry ordered
/// into contact (not to report), above CMS 4, its turn allowing an assault.
fn assaults(turn: &Turn, me: &ElementView) -> bool {
    let conduct = me.order.objective.activity.conduct();
    let seeks_contact = conduct.moves == Moves::IntoContact && !conduct.reports;
    seeks_contact
        && me.force.build == super::state::Build::Infantry
        && me.force.element.cms > 4
        && turn.orders.can_assault
        && warbound_rules::assault::may_assault(me.force.element.cms, u32::from(turn.failures), false).is_ok()
}

/// Where an Auto element that assaults closes to: contact with the nearest
/// known enemy it would assault (in a building, a vehicle), even past a
/// nearer one it would only fire on (FYOB "Orders & Objectives": Contact
/// Enemy is to "advance into contact with the intention of engaging with
/// him"); with none known, its order's destination, `CLOSE_TO` short of an
/// enemy in the open. Test `the_auto_side_closes_with_a_house_past_men_in_the_open`.
fn assault_approach(turn: &Turn, me: &ElementView, enemies: &[ElementView], sight: &Sight) -> Option<Point> {
    if !assaults(turn, me) {
        return None;
    }
    let e = enemies
        .iter()
        .filter(|e| me.intel.known.contains(e.id()) && super::assault::assailable(sight, me, e))
        .min_by(|a, b| distance(me.place.at, a.place.at).total_cmp(&distance(me.place.at, b.place.at)))?;
    let d = distance(me.place.at, e.place.at);
    let to_contact = d - Inches(super::shared::CONTACT);
    (to_contact.get() > ARRIVED).then(|| super::shared::toward(me.place.at, e.place.at, to_contact))
}

/// The phases in the order an Auto element prefers to take them under each
/// Order Die: the ordered phase first, then look before moving.
fn preference(order: Phase) -> [Phase; 3] {
    match order {
        Phase::Fire => [Phase::Fire, Phase::Act, Phase::Move],
        Phase::Move => [Phase::Move, Phase::Fire, Phase::Act],
        Phase::Act => [Phase::Act, Phase::Fire, Phase::Move],
    }
}

/// Where its orders take it this bound, if anywhere.
/// How far ahead a guard on its beat heads, inches.
const GUARD_BEAT: f32 = 4.0;

fn destination(
    turn: &Turn,
    me: &ElementView,
    enemies: &[ElementView],
    sight: &Sight,
    battle: &super::state::Battle,
) -> Option<Point> {
    let pontoons = &battle.pontoons;
    // *Heroes All*, "Forces acting whilst rationed": out of petrol, "unable to move further".
    if me.vehicle.out_of_fuel {
        return None;
    }
    // FYOB "Results of Momentum Tests": suppressed or pinned, "If the element
    // is in the open it may move towards cover but may not move towards the
    // enemy": the Auto element in the open makes for the nearest cover that
    // does not take it towards the enemy, and otherwise stays where it is.
    if turn.orders.movement == CmMovement::TowardsCoverOnly && turn.orders.cms_movement != CmsMovement::StaysPut {
        return to_cover(me, enemies, sight);
    }
    if turn.orders.movement != CmMovement::Free || turn.orders.cms_movement == CmsMovement::StaysPut {
        return None;
    }
    // Heroes All, "Guards": a guard walks its beat the way it faces, and
    // turns about at the end of each bound.
    if let Some(g) = me.order.posted() {
        let ahead = g.facing.toward();
        let to = Point(me.place.at.0 + ahead.0 * GUARD_BEAT, me.place.at.1 + ahead.1 * GUARD_BEAT);
        return sight.scenario.table.contains((to.0, to.1)).then_some(to);
    }
    if me.force.build == (super::state::Build::Guns { artillery: true }) && me.actions.this_bound.fired {
        return None;
    }
    // Engineers bridging go to the bank at their site, on their own side of the river.
    if let Some(k) = super::bridging::site_for(me, pontoons) {
        let bank = super::bridging::near_bank(&pontoons[k].site, me.place.at);
        return (distance(me.place.at, bank) > super::bridging::AT_THE_BANK / 2.0).then_some(bank);
    }
    // A Goliath drives at the nearest known vehicle or held building within
    // its 24" and otherwise stays; an AVRE closes within its petard's 6" of
    // the nearest known enemy holding a building (Heroes All, "Goliath",
    // "Petard type mortars").
    if demolition_vehicles::is_goliath(me) {
        return demolition_vehicles::goliath_quarry(me, enemies, battle)
            .map(|(_, p)| p)
            .filter(|p| distance(me.place.at, *p) > Inches(0.1));
    }
    let to = demolition_vehicles::petard_approach(me, enemies, battle, sight.codex)
        .or_else(|| assault_approach(turn, me, enemies, sight))
        .or_else(|| order_destination(me, enemies, sight))?;
    Some(by_the_bridge(me, to, battle).unwrap_or(to))
}

/// Where an element goes first when the straight way to `to` runs into
/// water it may not enter (*Heroes All*, "Rivers": a wide river "can only be
/// crossed using a bridge ..., boat or raft"; vehicles cross a small one by a
/// bridge): the near end of the standing bridge that makes the shortest way,
/// and from there over it to its far end. `None` where it may go straight:
/// no such water, men wading a small river, an element with boats or afloat,
/// or no bridge standing.
fn by_the_bridge(me: &ElementView, to: Point, battle: &super::state::Battle) -> Option<Point> {
    let class = me.place.mover.class;
    if me.place.boats.is_some() || me.place.mover.in_water || battle.bridges.iter().all(|b| b.bridge.is_destroyed()) {
        return None;
    }
    let route = battle.sight_lines.route(&battle.terrain, me.place.at, to)?;
    let water = route.stretches.iter().find(|s| s.terrain.is_water())?;
    let wades = class.wades() && water.terrain == warbound_rules::movement::Terrain::SmallRiver;
    let floats = class.water_row().is_some() && !class.wades();
    if wades || floats {
        return None;
    }
    let at = me.place.at;
    let (near, far) = battle
        .bridges
        .iter()
        .filter(|b| !b.bridge.is_destroyed())
        .map(|b| {
            let (a, c) = (b.span.from, b.span.to);
            if distance(at, a) <= distance(at, c) { (a, c) } else { (c, a) }
        })
        .min_by(|x, y| (distance(at, x.0) + distance(x.1, to)).total_cmp(&(distance(at, y.0) + distance(y.1, to))))?;
    Some(if distance(at, near).get() > ON_THE_BRIDGE { near } else { far })
}

/// Within this of a bridge's near end an element goes on over it, inches.
const ON_THE_BRIDGE: f32 = 1.0;

/// The nearest cover for an element in the open, where it does not lie
/// towards the nearest enemy it knows of (test
/// `a_pinned_element_in_the_open_moves_only_towards_cover`).
fn to_cover(me: &ElementView, enemies: &[ElementView], sight: &Sight) -> Option<Point> {
    let (d, cover) = super::shared::from_cover(sight.terrain, me.place.at)?;
    if d <= super::shared::IN_COVER {
        return None;
    }
    let nearest = enemies
        .iter()
        .filter(|e| me.intel.known.contains(e.id()))
        .min_by(|a, b| distance(me.place.at, a.place.at).total_cmp(&distance(me.place.at, b.place.at)));
    let towards_enemy = nearest.is_some_and(|e| distance(cover, e.place.at) < distance(me.place.at, e.place.at));
    (!towards_enemy).then_some(cover)
}

/// Where the element's order takes it: nowhere (Hold, Overwatch), its place,
/// or towards the nearest enemy it knows, or the place where it last saw an
/// enemy it lost track of (*Heroes All*, "Checking vacated positions": "any
/// approaching force must assume that they are still in place").
pub(super) fn order_destination(me: &ElementView, enemies: &[ElementView], sight: &Sight) -> Option<Point> {
    let place = sight.scenario.place(&me.order.objective.location).map(|p| Point(p.0, p.1));
    let nearest_known = enemies
        .iter()
        .copied()
        .filter(|e| me.intel.known.contains(e.id()))
        .min_by(|a, b| distance(me.place.at, a.place.at).total_cmp(&distance(me.place.at, b.place.at)));
    let go = |to: Point| (distance(me.place.at, to) > ARRIVED).then_some(to);
    let last_seen = me
        .intel
        .last_seen
        .values()
        .copied()
        .min_by(|a, b| distance(me.place.at, *a).total_cmp(&distance(me.place.at, *b)))
        .filter(|&at| nearest_known.is_none_or(|e| distance(me.place.at, at) < distance(me.place.at, e.place.at)));
    match me.order.objective.activity.conduct().moves {
        Moves::Stays => None,
        Moves::ToLocation | Moves::AvoidingContact => place.and_then(go),
        Moves::IntoContact => {
            let reports = me.order.objective.activity.conduct().reports;
            if let Some(at) = last_seen {
                let d = distance(me.place.at, at);
                let stop = if reports { Inches(RECCE_STANDOFF) } else { CLOSE_TO };
                return if d <= stop { None } else { go(super::shared::toward(me.place.at, at, d - stop)) };
            }
            match nearest_known {
                Some(e) if reports && distance(me.place.at, e.place.at) <= RECCE_STANDOFF => None,
                Some(e) if !reports => {
                    let d = distance(me.place.at, e.place.at);
                    if d <= CLOSE_TO
                        || (sight.may_fire_at(me, &e) && sight.in_range_of_any(me, &e) && d <= CLOSE_TO * 2.0)
                    {
                        None
                    } else {
                        go(super::shared::toward(me.place.at, e.place.at, d - CLOSE_TO))
                    }
                }
                _ => place.and_then(go),
            }
        }
    }
}
