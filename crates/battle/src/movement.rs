//! The Move phase (*Heroes All*, "Movement"): the route to the destination is
//! measured from the terrain, the Movement Dice thrown, and the element goes
//! as far along it as the dice allow — stopping short of 9" from any enemy
//! if it has not taken an observation test this bound ("Spotting a potential
//! ambush"). Enemies who can no longer see it lose track of it.

use super::change::{Change, FlowChange, Held, HeldSides};
use crate::prelude::*;
use warbound_rules::inches::Inches;
use warbound_rules::{
    buildings::Traffic,
    codex::Codex,
    dice::Dice,
    effects::{ArmourClass, VehicleState},
    event::{Book, EventKind, RuleEvent, RuleRef},
    firing::Cover,
    geometry::{self, HazardKind, distance},
    logistics, mines,
    momentum::Incident,
    movement::{self, Concealment, MoveError, MoveMode, MoveRequest, Mover},
    observation::AMBUSH_DISTANCE,
    order_dice::Phase,
    scenario::Edge,
    terrain::{Feature, Point, TableSize, distance_to_segment},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{Command, Current, Pace},
    invariant::InvariantFailures,
    log::BattleLog,
    shared::{from_edge, nearest_on_edge, toward},
    sorted,
    state::{Battle, Build, ElementView, Flow, PendingMove, Status},
    visible::Sight,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, move_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

/// Steps along a move when checking the 9" rule.
const STEP: f32 = 0.25;

fn move_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    let (element, to, halt, pace) = match current.0.clone() {
        Some(Command::Move { element, to, pace }) => (element, to, false, pace),
        Some(Command::MoveTo { element, to }) => (element, to, true, Pace::Normal),
        _ => return,
    };
    current.0 = None;
    let Flow::Acting(turn) = &*t.flow else { return };
    let pips = turn.orders.movement_pips;
    let declared = turn.pending_move.map(|p| Point(p.to.0, p.to.1));
    if pace == Pace::AtTheDouble {
        t.flow.apply(FlowChange::AtTheDouble);
    }
    if halt {
        // The Player stops where he chose, within what the dice allowed.
        t.flow.apply(FlowChange::PendingMove(None));
        place(&mut t, &element, Point(to.0, to.1));
        // Boats that reach the bank on the declared route: the men get out.
        if let Some(declared) = declared {
            let bound = t.battle.clock.bound();
            let mut els = t.elements.one(&t.roster, &element);
            if let Some(f) = els.as_mut() {
                super::river_craft::land_at_bank(&mut t.log, bound, &t.battle.terrain, f, declared);
            }
        }
        super::turn::phase_done(&mut t, Phase::Move, &[]);
        return;
    }
    let side = t.roster.index(&element).and_then(|i| t.elements.view_at(&t.roster, i)).map(|f| f.identity.side);
    let player = side.is_some_and(|s| t.sides.0[s].control == super::setup::Control::Player);
    if player {
        // Heroes All, "Movement": the route is declared and the dice thrown;
        // the player then moves up to the score along it.
        let allowance = throw_only(&mut t, &element, Point(to.0, to.1), pips, pace);
        if gone(&mut t, &element) {
            super::turn::end_turn(&mut t, &element);
            return;
        }
        if pace == Pace::Stealth {
            stealthy(&mut t, &element);
        }
        t.flow.apply(FlowChange::PendingMove(Some(PendingMove { to, allowance })));
        return;
    }
    do_move(&mut t, &element, Point(to.0, to.1), pips, pace);
    if gone(&mut t, &element) {
        // Gone from the table in its move (a Goliath broken down and removed
        // with its crew, men lost in a minefield): its turn is over.
        super::turn::end_turn(&mut t, &element);
        return;
    }
    if pace == Pace::Stealth {
        stealthy(&mut t, &element);
    }
    super::turn::phase_done(&mut t, Phase::Move, &[]);
}

/// Whether the element has left the table (or the transport it rode in has).
fn gone(t: &mut Battlefield, element: &str) -> bool {
    let view = |i: Option<usize>| i.and_then(|i| t.elements.view_at(&t.roster, i));
    view(t.roster.index(element)).is_some_and(|f| {
        !f.presence.status.in_play()
            || f.presence.status.aboard().is_some_and(|k| !view(Some(k)).is_some_and(|v| v.presence.status.on_table()))
    })
}

/// Marks the element's move this bound as a stealth move (after its
/// Movement Dice are logged).
pub(super) fn stealthy(t: &mut Battlefield, element: &str) {
    let mut els = t.elements.one(&t.roster, element);
    if let Some(f) = els.as_mut() {
        f.apply(Change::Stealthy);
    }
}

/// The inches an element may go towards `target`: its Movement Dice, cut
/// short by the 9" rule.
fn throw_only(t: &mut Battlefield, element: &str, target: Point, pips: u8, pace: Pace) -> f32 {
    let element = &super::transport::driver(t, element);
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(element) else {
        t.failures.record(&mut t.log, bound, "throw_only", element, format!("{} is no element of the battle", element));
        return 0.0;
    };
    let enemies: Vec<Point> = els
        .iter()
        .filter(|f| f.identity.side != els[i].identity.side && f.presence.status.on_table())
        .filter(|f| !super::demolition_vehicles::drives_at(&els[i].view(), &f.view(), target))
        .map(|f| f.place.at)
        .collect();
    let f = &mut els[i];
    let Some(travel) =
        throw_move(&mut t.log, &mut t.failures, &mut t.dice.0, &t.battle, bound, f, target, (pips, pace))
    else {
        return 0.0;
    };
    let allowed =
        if f.actions.this_bound.observed { travel } else { ambush_limit(f.place.at, target, travel, &enemies) };
    if allowed < travel {
        t.log.push(bound, ambush_event(f.id(), travel, allowed));
    }
    allowed
}

pub(super) fn ambush_event(id: &str, travel: f32, allowed: f32) -> RuleEvent {
    RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Spotting a potential ambush"))
        .actor(id)
        .input("thrown", travel, "inches the Movement Dice allow")
        .input("observed_this_bound", false, "no observation test taken with an Act this bound")
        .outcome(serde_json::json!({ "halted_after": allowed, "within": AMBUSH_DISTANCE }))
}

/// Puts the element (or the transport it rides in, with it) at `at` after a move.
fn place(t: &mut Battlefield, element: &str, at: Point) {
    let driver = super::transport::driver(t, element);
    place_one(t, &driver, at);
    super::transport::ride(t, &driver);
}

fn place_one(t: &mut Battlefield, element: &str, at: Point) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(element) else {
        t.failures.record(&mut t.log, bound, "place", element, format!("{} is no element of the battle", element));
        return;
    };
    let from = els[i].place.at;
    let allowed = building_limit(&mut t.log, bound, &t.battle, &t.codex.0, &els, i, at, distance(from, at).get());
    let at = toward(from, at, Inches(allowed));
    let f = &mut els[i];
    let moved = distance(f.place.at, at) > 0.0;
    f.apply(Change::Move { to: at, moved });
    super::shared::reveal_at(&mut t.log, bound, f, warbound_rules::concealment::ConcealedActivity::Move, from);
    if moved {
        fuel(&mut t.log, &mut t.dice.0, bound, &t.battle, f);
    }
    minefields((&mut t.log, &mut t.failures), &mut t.dice.0, bound, (&t.battle, &mut t.sides), f, from);
    weakened_bridges((&mut t.log, &mut t.failures), &mut t.dice.0, bound, &mut t.battle, f, from);
    lose_track(&mut els, i, from, &t.battle, &t.codex.0);
}

/// *Heroes All*, "Bridges": "When, as a result of an attack, the bridge
/// value falls to 1, throw 2D6 per bound per vehicle passing over it. A
/// double means it collapses" ([`warbound_rules::buildings::Bridge::cross`]).
/// Reading: a vehicle passes over a bridge when its move this bound entered
/// the span (or began on it), one throw for each such move; the vehicle on a
/// bridge that collapses goes down with it and is destroyed, crew and all
/// (test `a_vehicle_crossing_a_bridge_at_one_collapses_it_on_a_double`).
pub(super) fn weakened_bridges(
    (log, failures): (&mut BattleLog, &mut InvariantFailures),
    dice: &mut Dice,
    bound: u32,
    battle: &mut super::change::HeldBattle,
    f: &mut Held,
    from: Point,
) {
    if !f.force.build.is_vehicle() || !f.presence.status.on_table() || distance(from, f.place.at) <= 0.0 {
        return;
    }
    let traffic = match f.force.build {
        Build::Afv { armour: ArmourClass::Heavy | ArmourClass::Formidable, .. } => Traffic::Heavy,
        _ => Traffic::UpToMediumTank,
    };
    for k in 0..battle.bridges.len() {
        let b = battle.bridges[k].clone();
        if b.bridge.is_destroyed()
            || b.bridge.value != warbound_rules::buildings::COLLAPSE_TEST_AT
            || geometry::span_entered_at(&b.span, from, f.place.at).is_none()
        {
            continue;
        }
        let mut bridge = b.bridge;
        let crossing = match bridge.cross(traffic, dice, f.id()) {
            Ok((crossing, e)) => {
                log.push(bound, e);
                crossing
            }
            Err(e) => {
                failures.record(
                    log,
                    bound,
                    "move",
                    f.id(),
                    format!("the crossing of a bridge cannot be resolved: {e:?}"),
                );
                continue;
            }
        };
        if crossing == warbound_rules::buildings::Crossing::Collapsed {
            battle.apply(super::change::BattleChange::Bridge(k, bridge));
            battle.apply(super::change::BattleChange::BridgeGone { river: b.river, span: b.span });
            super::shared::leave(log, bound, f, Status::Destroyed, "went down with the collapsing bridge");
            return;
        }
    }
}

/// *Heroes All*, "Mines": an element whose move entered a minefield —
/// infantry a D6 a figure in anti-personnel mines (1 or 2 a casualty);
/// a vehicle a D6 in anti-tank mines or 2D6 in anti-personnel ones.
pub(super) fn minefields(
    (log, failures): (&mut BattleLog, &mut InvariantFailures),
    dice: &mut Dice,
    bound: u32,
    (battle, sides): (&Battle, &mut HeldSides),
    f: &mut Held,
    from: Point,
) {
    if distance(from, f.place.at) <= 0.0 {
        return;
    }
    let terrain = &battle.terrain;
    let route = match geometry::route(terrain, &[from, f.place.at]) {
        Ok(route) => route,
        Err(e) => {
            failures.record(log, bound, "move", f.id(), format!("the route moved cannot be measured: {e:?}"));
            return;
        }
    };
    let clear = |k: usize| battle.minefields.iter().any(|(feature, m)| *feature == k && m.clear);
    for hazard in route.hazards.iter().filter(|h| h.kind == HazardKind::Minefield && !clear(h.feature)) {
        let Some(Feature::Minefield { kind, .. }) = terrain.features.get(hazard.feature) else { continue };
        let id = f.id().to_owned();
        match f.force.build {
            Build::Afv { armour, .. } => {
                let (result, e) = mines::vehicle_enter(*kind, armour, dice, &id);
                log.push(bound, e);
                let after = f.vehicle.state.unwrap_or_default().after(result);
                f.apply(Change::Vehicle(after));
            }
            Build::SoftSkin => {
                let (result, e) = mines::vehicle_enter(*kind, ArmourClass::SoftSkinned, dice, &id);
                log.push(bound, e);
                let after = f.vehicle.state.unwrap_or_default().after(result);
                f.apply(Change::Vehicle(after));
            }
            Build::Infantry | Build::Guns { .. } => {
                let men = f.men().min(u32::from(u8::MAX)) as u8;
                let (casualties, e) = match mines::infantry_enter(*kind, men, dice, &id) {
                    Ok(entered) => entered,
                    Err(e) => {
                        failures.record(log, bound, "mines", &id, format!("the minefield cannot be resolved: {e:?}"));
                        continue;
                    }
                };
                log.push(bound, e);
                let lost = f.apply(Change::LoseMen(u32::from(casualties)));
                super::shared::casualties((&mut *log, &mut *failures), dice, bound, sides, f, lost);
                super::shared::accrue(f, &[(Incident::Casualty(Cover::Open), lost)], false);
            }
        }
        if f.spent() {
            super::shared::leave(log, bound, f, Status::Destroyed, "lost in a minefield");
            return;
        }
    }
}

/// Whether `to` lies on the declared line from `from` towards `declared`,
/// no further than `allowance` (half an inch either side for the tape).
pub fn within_move(from: Point, declared: Point, to: Point, allowance: f32) -> bool {
    let along = distance(from, to);
    let off = distance_to_segment(to, from, declared);
    along <= allowance + 0.01 && off <= 0.5
}

/// Moves `element` towards `to` as far as its Movement Dice allow; an
/// element aboard a transport drives it, and rides where it goes.
pub(super) fn do_move(t: &mut Battlefield, element: &str, target: Point, pips: u8, pace: Pace) {
    let driver = super::transport::driver(t, element);
    move_one(t, &driver, target, pips, pace);
    super::transport::ride(t, &driver);
}

fn move_one(t: &mut Battlefield, element: &str, target: Point, pips: u8, pace: Pace) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(element) else {
        t.failures.record(&mut t.log, bound, "do_move", element, format!("{} is no element of the battle", element));
        return;
    };
    let enemies: Vec<Point> = els
        .iter()
        .filter(|f| f.identity.side != els[i].identity.side && f.presence.status.on_table())
        .filter(|f| !super::demolition_vehicles::drives_at(&els[i].view(), &f.view(), target))
        .map(|f| f.place.at)
        .collect();
    let f = &mut els[i];
    let Some(travel) =
        throw_move(&mut t.log, &mut t.failures, &mut t.dice.0, &t.battle, bound, f, target, (pips, pace))
    else {
        return;
    };
    let from = f.place.at;
    let allowed = if f.actions.this_bound.observed { travel } else { ambush_limit(from, target, travel, &enemies) };
    if allowed < travel {
        t.log.push(bound, ambush_event(f.id(), travel, allowed));
    }
    let allowed = building_limit(&mut t.log, bound, &t.battle, &t.codex.0, &els, i, target, allowed);
    let f = &mut els[i];
    f.apply(Change::Move { to: toward(from, target, Inches(allowed)), moved: allowed > 0.0 });
    super::river_craft::land_at_bank(&mut t.log, bound, &t.battle.terrain, f, target);
    super::shared::reveal_at(&mut t.log, bound, f, warbound_rules::concealment::ConcealedActivity::Move, from);
    if allowed > 0.0 {
        fuel(&mut t.log, &mut t.dice.0, bound, &t.battle, f);
    }
    minefields((&mut t.log, &mut t.failures), &mut t.dice.0, bound, (&t.battle, &mut t.sides), f, from);
    weakened_bridges((&mut t.log, &mut t.failures), &mut t.dice.0, bound, &mut t.battle, f, from);
    lose_track(&mut els, i, from, &t.battle, &t.codex.0);
}

/// *Heroes All*, "Forces acting whilst rationed" (2020 addendum): "If an
/// element has vehicles and these move, throw 2d6 after the move. A score
/// less than 5 means that the vehicle has run out of petrol and is unable to
/// move further. This counts as light damage for CMS purposes": an intact
/// vehicle is damaged, and an AFV accrues "Your vehicle damaged" (test
/// `a_rationed_tank_runs_dry_below_five_and_moves_no_more`).
fn fuel(log: &mut BattleLog, dice: &mut Dice, bound: u32, battle: &Battle, f: &mut Held) {
    let rationed = battle.start.scenario.sides.get(f.identity.side).is_some_and(|s| s.rationed);
    if !rationed || !f.force.build.is_vehicle() || f.vehicle.out_of_fuel {
        return;
    }
    let (fuel, event) = logistics::fuel_check(logistics::Supply::Rationed, dice, f.id());
    if let Some(event) = event {
        log.push(bound, event);
    }
    if fuel == logistics::Fuel::OutOfFuel {
        f.apply(Change::OutOfFuel);
        if f.vehicle.state.unwrap_or_default() == VehicleState::Intact {
            f.apply(Change::Vehicle(VehicleState::Damaged));
        }
        super::shared::accrue(f, &[(Incident::OwnVehicleDamaged, 1)], false);
    }
}

/// Throws the Movement Dice for a straight move to `to` at `pace`, `pips`
/// off each die; the inches it may go. *Heroes All*, "Movement": a tracked
/// vehicle that loses a track on rough ground ("A 1 indicates a lost track
/// and \"damage\"") is damaged there, and its crew owe the CM test for their
/// own vehicle damaged.
#[allow(clippy::too_many_arguments)]
pub(super) fn throw_move(
    log: &mut BattleLog,
    failures: &mut InvariantFailures,
    dice: &mut Dice,
    battle: &Battle,
    bound: u32,
    f: &mut Held,
    to: Point,
    (pips, pace): (u8, Pace),
) -> Option<f32> {
    let view = f.view();
    let (stretches, _) = passable_route(battle, &view, to, pips, pace)?;
    let barred = bridge_barred(battle, &view, to);
    let from = view.place.at;
    match movement::move_element(&request(battle, &view, &stretches, pips, pace), dice, f.id()) {
        Ok((mv, event)) => {
            log.push(bound, event);
            if mv.broke_down {
                super::demolition_vehicles::breaks_down(log, bound, f);
                return None;
            }
            if mv.track_lost {
                // A lost track is damage, not a hit: a vehicle already
                // damaged stays damaged (a second AT "damaged" would brew it).
                if f.vehicle.state.unwrap_or_default() == VehicleState::Intact {
                    f.apply(Change::Vehicle(VehicleState::Damaged));
                }
                super::shared::accrue(f, &[(Incident::OwnVehicleDamaged, 1)], false);
            }
            if let Some((k, bank)) = barred.filter(|(_, bank)| mv.distance + BANK >= distance(from, *bank).get()) {
                let b = &battle.bridges[k].bridge;
                let e = RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Bridges"))
                    .actor(f.id())
                    .input("kind", b.kind, "Type A: up to the weight of Medium tanks")
                    .input("damage", b.damage(), "a damaged B, C or D is treated as a Type A")
                    .input("traffic", Traffic::Heavy, "Heavy or Formidable armour")
                    .outcome(serde_json::json!({ "stopped_at_bank": [bank.0, bank.1] }));
                log.push(bound, e);
            }
            Some(mv.distance)
        }
        Err(e) => {
            failures.record(log, bound, "move", f.id(), format!("the move cannot be resolved: {e:?}"));
            None
        }
    }
}

/// The Movement Table's request for `f` along `route` at `pace`.
fn request<'a>(
    battle: &Battle,
    f: &ElementView,
    route: &'a [movement::Stretch],
    pips: u8,
    pace: Pace,
) -> MoveRequest<'a> {
    let overwatch = f.order.on_overwatch();
    MoveRequest {
        // *Heroes All*, "Movement modification": "Any vehicle noted as
        // \"damaged\" only moves 1 x D6 inches per bound."
        mover: Mover { damaged: f.vehicle.state == Some(VehicleState::Damaged), ..f.place.mover },
        route,
        mode: if pace == Pace::Stealth { MoveMode::Stealth } else { MoveMode::Normal },
        // *Heroes All*, "Moving on Overwatch": "a maximum move of 50% of the
        // move allowed to them by the dice throw"; "They cannot move \"at the
        // double\"" (the rules core refuses it).
        pace: match pace {
            Pace::AtTheDouble => movement::Pace::AtTheDouble,
            Pace::Normal | Pace::Stealth if overwatch => movement::Pace::Overwatch,
            Pace::Normal | Pace::Stealth => movement::Pace::Normal,
        },
        light: battle.clock.light(),
        weather: warbound_rules::day::BattleWeather::new(battle.weather.rain_snow_gauge).unwrap_or_default(),
        momentum_pips: pips,
        concealment: if f.concealment.concealed() { Concealment::LeavesWithoutAct } else { Concealment::NotConcealed },
        rationed: battle.start.scenario.sides.get(f.identity.side).is_some_and(|s| s.rationed),
    }
}

/// The straight route from `f` to `to` as far as it may go, and its plan
/// (dice and pips for the going crossed). Reading (*Heroes All*, "Rivers";
/// Movement Table): water the element may not enter, or may enter only with
/// an Act, ends the move at the bank; it goes as far as the dry ground allows.
fn passable_route(
    battle: &Battle,
    f: &ElementView,
    to: Point,
    pips: u8,
    pace: Pace,
) -> Option<(Vec<movement::Stretch>, movement::MovePlan)> {
    let to = bridge_barred(battle, f, to).map_or(to, |(_, bank)| bank);
    let route = battle.sight_lines.route(&battle.terrain, f.place.at, to)?;
    let mut stretches: &[movement::Stretch] = &route.stretches;
    loop {
        match movement::plan(&request(battle, f, stretches, pips, pace)) {
            Ok(plan) => return Some((stretches.to_vec(), plan)),
            Err(MoveError::Impassable { stretch, .. } | MoveError::RiverBankNeedsAnAct { stretch }) if stretch > 0 => {
                stretches = &stretches[..stretch];
            }
            Err(e) => {
                debug!("{} cannot move towards {to:?}: {e:?}", f.id());
                return None;
            }
        }
    }
}

/// *Heroes All*, "Bridges": a Type A bridge takes "Only light vehicles up to
/// the weight of Medium tanks"; a B, C or D bridge damaged far enough takes
/// "no heavy traffic ... i.e. treat as if it were a Type A". The first such
/// bridge on the straight line from `f` to `to` that `f` is too heavy for,
/// and the bank where its move stops. Reading: heavy traffic is an AFV of
/// Heavy or Formidable armour (above a Medium tank's); one already on the
/// bridge may drive off it.
pub(super) fn bridge_barred(battle: &Battle, f: &ElementView, to: Point) -> Option<(usize, Point)> {
    let Build::Afv { armour: ArmourClass::Heavy | ArmourClass::Formidable, .. } = f.force.build else { return None };
    battle
        .bridges
        .iter()
        .enumerate()
        .filter(|(_, b)| !b.bridge.is_destroyed() && b.bridge.treated_as_type_a())
        .filter_map(|(k, b)| geometry::span_entered_at(&b.span, f.place.at, to).map(|d| (k, d.get())))
        // Stopped at the bank (`BANK` short), it is still off the bridge.
        .filter(|&(_, d)| d > BANK / 2.0)
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(k, d)| (k, toward(f.place.at, to, Inches(d - BANK))))
}

/// How far short of a bridge it may not cross a vehicle stops, inches.
const BANK: f32 = 0.05;

/// Why a move from `f` towards `to` may not be made at `pace`: the rules
/// core's bars on the route it can take (an "at the double" move through
/// woods, at night, leaving concealment).
pub(super) fn pace_barred(battle: &Battle, f: &ElementView, to: Point, pips: u8, pace: Pace) -> Option<MoveError> {
    if pace == Pace::Normal {
        return None;
    }
    let (stretches, _) = passable_route(battle, f, to, pips, Pace::Normal)?;
    movement::plan(&request(battle, f, &stretches, pips, pace)).err()
}

/// A move's reach before the dice are thrown, towards a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reach {
    /// The furthest the Movement Dice can take it (all sixes), inches.
    pub furthest: f32,
    /// The distance it reaches at least even chances, inches.
    pub even: f32,
    /// The chance the dice take it all the way to the point (0 when the
    /// route stops at water short of it).
    pub to_point: f64,
}

/// What the Movement Dice can give a move from `f` straight towards `to`,
/// read from the very plan the throw uses: the route's going and features set
/// the dice and pips, water it may not enter ends the route. The route is
/// taken as declared to where it can reach, so terrain beyond the reach does
/// not count against it.
pub fn reach(battle: &Battle, f: &ElementView, to: Point, pips: u8) -> Option<Reach> {
    reach_at(battle, f, to, pips, Pace::Normal)
}

/// A move's reach at `pace` (see [`reach`]).
pub fn reach_at(battle: &Battle, f: &ElementView, to: Point, pips: u8, pace: Pace) -> Option<Reach> {
    let (to_point, dry, plan) = first_leg(battle, f, to, pips, pace)?;
    // The furthest and the even-chance distance on a route declared to where it reaches.
    let mut plan = plan;
    let mut length = dry;
    for _ in 0..3 {
        let furthest = plan.max_allowance().min(length);
        if furthest + 0.01 >= length {
            break;
        }
        length = furthest;
        match passable_route(battle, f, toward(f.place.at, to, Inches(length)), pips, pace) {
            Some((_, p)) => plan = p,
            None => break,
        }
    }
    let furthest = plan.max_allowance().min(length);
    let even = plan
        .distribution()
        .iter()
        .rev()
        .scan(0.0, |acc, &(inches, p)| {
            *acc += p;
            Some((inches, *acc))
        })
        .find(|&(_, acc)| acc >= 0.5)
        .map_or(0.0, |(inches, _)| inches.min(length));
    Some(Reach { furthest, even, to_point })
}

/// [`Reach::to_point`] alone, without the furthest and even-chance distances.
pub fn chance_to_reach(battle: &Battle, f: &ElementView, to: Point, pips: u8, pace: Pace) -> Option<f64> {
    first_leg(battle, f, to, pips, pace).map(|(to_point, ..)| to_point)
}

/// The move declared straight to `to`: the chance the dice take it there,
/// the dry length of its route, and its plan.
fn first_leg(
    battle: &Battle,
    f: &ElementView,
    to: Point,
    pips: u8,
    pace: Pace,
) -> Option<(f64, f32, movement::MovePlan)> {
    let full = distance(f.place.at, to);
    if full <= 0.0 {
        return None;
    }
    let (stretches, plan) = passable_route(battle, f, to, pips, pace)?;
    let dry: f32 = stretches.iter().map(|s| s.length).sum();
    let to_point = if dry + 0.01 >= full { at_least(&plan, full.get()) } else { 0.0 };
    Some((to_point, dry, plan))
}

/// The chance the plan's dice allow at least `d` inches.
fn at_least(plan: &movement::MovePlan, d: f32) -> f64 {
    plan.distribution().iter().filter(|&&(inches, _)| inches + 0.01 >= d).map(|&(_, p)| p).sum()
}

/// How far along the line to `to` the element may go without coming closer
/// than 9" to an enemy (one it is already within 9" of, no closer).
pub fn ambush_limit(from: Point, to: Point, travel: f32, enemies: &[Point]) -> f32 {
    let mut s = 0.0;
    while s < travel {
        let next = (s + STEP).min(travel);
        let p = toward(from, to, Inches(next));
        let breaks = enemies.iter().any(|&e| {
            let d = distance(p, e);
            d <= AMBUSH_DISTANCE && d < distance(from, e) - Inches(1e-3)
        });
        if breaks {
            return s;
        }
        s = next;
    }
    travel
}

/// *Heroes All*, "Buildings": how far along the line to `to` element `i`
/// may go before it would enter a building that may not hold it — "Buildings
/// may not be occupied by vehicles, artillery or mortars", only hand-held AT
/// weapons, no figures into a burning one, and no more figures than its
/// capacity with those already inside. Reading: the move ends at the wall;
/// a building it already stands in does not stop it; a structure (pillbox,
/// bunker) is no building and stops no one (test
/// `a_tank_stops_at_the_wall_of_a_house`).
#[allow(clippy::too_many_arguments)]
fn building_limit(
    log: &mut BattleLog,
    bound: u32,
    battle: &Battle,
    codex: &Codex,
    els: &[Held],
    i: usize,
    to: Point,
    travel: f32,
) -> f32 {
    let from = els[i].place.at;
    if !geometry::passes_a_building(&battle.terrain, from, toward(from, to, Inches(travel))) {
        return travel;
    }
    let start = geometry::building_at(&battle.terrain, from).map(|(k, _)| k);
    let Ok(occupiers) = els[i].force.element.occupiers(codex) else { return travel };
    let mut s = 0.0;
    while s < travel {
        let next = (s + STEP).min(travel);
        let p = toward(from, to, Inches(next));
        if let Some((k, _)) = geometry::building_at(&battle.terrain, p)
            && Some(k) != start
            && let Some((_, building)) = battle.buildings.iter().find(|(f, _)| *f == k)
            && building.structure.row().building
        {
            let inside = els
                .iter()
                .enumerate()
                .filter(|(j, e)| {
                    *j != i
                        && e.presence.status.on_table()
                        && geometry::building_at(&battle.terrain, e.place.at).is_some_and(|(b, _)| b == k)
                })
                .filter_map(|(_, e)| e.force.element.occupiers(codex).ok())
                .fold(0u8, |n, o| n.saturating_add(warbound_rules::buildings::figures(&o)));
            if let Err(e) = building.may_hold_all(&occupiers, inside) {
                log.push(
                    bound,
                    RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Buildings"))
                        .actor(els[i].id())
                        .input("building", k, "the terrain feature it would enter")
                        .input("inside", inside, "figures already inside")
                        .outcome(serde_json::json!({ "halted_after": s, "refused": e.to_string() })),
                );
                return s;
            }
        }
        s = next;
    }
    travel
}

/// Enemies who knew of element `i` and cannot see it where it now stands
/// lose track of it, and remember it where it stood before the move (`from`).
/// Reading (*Heroes All* has no rule for how long a target stays observed):
/// an enemy stays observed while it stays in view.
pub(super) fn lose_track(els: &mut [Held], i: usize, from: Point, battle: &Battle, codex: &Codex) {
    let sight = Sight::new(battle, codex);
    let id = els[i].id().to_owned();
    let lost: Vec<usize> = (0..els.len())
        .filter(|&j| {
            j != i
                && els[j].identity.side != els[i].identity.side
                && els[j].intel.known.contains(&id)
                && !sight.in_view(&els[j].view(), &els[i].view())
        })
        .collect();
    for j in lost {
        els[j].apply(Change::LostTrack { id: id.clone(), at: from });
    }
}

/// FYOB "Results of Momentum Tests" 7-8: "a full move away from the enemy",
/// towards its own edge; reaching it, the element is back in the box.
#[allow(clippy::too_many_arguments)]
pub(super) fn fall_back(
    log: &mut BattleLog,
    failures: &mut InvariantFailures,
    dice: &mut Dice,
    (battle, sides): (&Battle, &mut HeldSides),
    bound: u32,
    f: &mut Held,
    table: TableSize,
    edge: Edge,
) {
    let home = nearest_on_edge(table, edge, f.place.at);
    // A vehicle out of petrol is "unable to move further".
    if f.vehicle.out_of_fuel {
        return;
    }
    if let Some(travel) = throw_move(log, failures, dice, battle, bound, f, home, (0, Pace::Normal)) {
        let from = f.place.at;
        let to = toward(f.place.at, home, Inches(travel));
        // "AFV's may reverse so as to continue to show their frontal armour
        // to the enemy."
        if matches!(f.force.build, Build::Afv { .. }) && travel > 0.0 {
            f.apply(Change::Reverse { to });
        } else {
            f.apply(Change::Move { to, moved: travel > 0.0 });
        }
        if travel > 0.0 {
            fuel(log, dice, bound, battle, f);
        }
        minefields((log, failures), dice, bound, (battle, sides), f, from);
        if !f.presence.status.on_table() {
            return;
        }
    }
    if from_edge(table, edge, f.place.at) <= 1.0 {
        super::shared::leave(log, bound, f, Status::Retired, "a full move away took it off its own edge");
    }
}

/// FYOB "Results of Momentum Tests" 7-8, "a full move away from the
/// enemy", for men aboard: their transport drives it towards their own
/// `edge`, and reaching it takes them back to the box with it.
pub(super) fn fall_back_aboard(t: &mut Battlefield, element: &str, edge: Edge) {
    let bound = t.battle.clock.bound();
    let table = t.battle.start.scenario.table;
    let at = {
        let els = t.elements.views();
        let Some(f) = t.roster.find(&els, element) else { return };
        f.place.at
    };
    let home = nearest_on_edge(table, edge, at);
    do_move(t, element, home, 0, Pace::Normal);
    let driver = super::transport::driver(t, element);
    let mut els = t.elements.one(&t.roster, &driver);
    let Some(v) = els.as_mut() else { return };
    if v.presence.status.on_table() && from_edge(table, edge, v.place.at) <= 1.0 {
        super::shared::leave(&mut t.log, bound, v, Status::Retired, "a full move away took it off its own edge");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_halts_outside_nine_inches() {
        let allowed = ambush_limit(Point(0.0, 0.0), Point(0.0, 30.0), 20.0, &[Point(0.0, 25.0)]);
        assert!(allowed <= 16.0 + STEP && allowed > 15.0, "{allowed}");
        let far = ambush_limit(Point(0.0, 0.0), Point(0.0, 30.0), 10.0, &[Point(0.0, 25.0)]);
        assert_eq!(far, 10.0);
    }

    #[test]
    fn a_player_stops_on_the_declared_route_within_the_score() {
        let (from, declared) = (Point(0.0, 0.0), Point(0.0, 20.0));
        assert!(within_move(from, declared, Point(0.0, 8.0), 8.0));
        assert!(within_move(from, declared, Point(0.4, 5.0), 8.0), "half an inch of tape either side");
        assert!(!within_move(from, declared, Point(0.0, 9.0), 8.0), "further than thrown");
        assert!(!within_move(from, declared, Point(3.0, 5.0), 8.0), "off the declared route");
    }

    #[test]
    fn the_reach_before_the_dice_falls_with_distance_and_pips() {
        let codex = crate::shipped::codex().unwrap();
        let mut app = crate::play::battle_app(
            crate::setup::BattleStart::auto("patrol", crate::shipped::battle("patrol", &codex).unwrap(), 1),
            BattleLog::default(),
            codex,
        )
        .unwrap();
        let world = app.world_mut();
        let battle = world.resource::<Battle>().clone();
        let mut q = world.query::<crate::state::FieldedReadOnly>();
        let f = q.iter(world).find(|f| f.presence.status.on_table() && f.force.build == Build::Infantry).unwrap();
        let f = f.view();
        // Open ground straight ahead on a bare table.
        let mut open = battle.clone();
        open.terrain.features.clear();
        let r = reach(&open, &f, Point(f.place.at.0, f.place.at.1 + 4.0), 0).unwrap();
        assert!(r.furthest >= r.even && r.even > 0.0, "{r:?}");
        assert!(r.to_point > 0.9, "4 inches over open ground is nearly sure: {r:?}");
        // Towards the far edge: the furthest the dice give; just beyond it, no chance.
        let ahead = reach(&open, &f, Point(f.place.at.0, f.place.at.1 + 30.0), 0).unwrap();
        assert!(ahead.furthest > 4.0 && ahead.furthest < 30.0 && ahead.even < ahead.furthest, "{ahead:?}");
        let beyond = reach(&open, &f, Point(f.place.at.0, f.place.at.1 + ahead.furthest + 0.5), 0).unwrap();
        assert_eq!(beyond.to_point, 0.0, "beyond the furthest the dice give");
        // Each pip off each die shortens the reach.
        let slowed = reach(&open, &f, Point(f.place.at.0, f.place.at.1 + 4.0), 1).unwrap();
        assert!(slowed.to_point < r.to_point, "{slowed:?} {r:?}");
        let slowed_ahead = reach(&open, &f, Point(f.place.at.0, f.place.at.1 + 30.0), 1).unwrap();
        assert!(slowed_ahead.furthest < ahead.furthest, "{slowed_ahead:?} {ahead:?}");
    }

    #[test]
    fn moving_away_from_a_near_enemy_is_free() {
        let allowed = ambush_limit(Point(0.0, 5.0), Point(0.0, 0.0), 5.0, &[Point(0.0, 10.0)]);
        assert_eq!(allowed, 5.0);
    }
}
