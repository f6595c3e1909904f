//! Checking a command against the rules before it is carried out: the
//! acting element's Order Die, its CMS and tests, what it can see, and each
//! step's own conditions. A refused command changes nothing.

use warbound_rules::{
    day::Light,
    event::Book,
    explosives::{Charge, ChargeKind},
    geometry::distance,
    momentum::{CmMovement, CmsMovement},
    movement::{self, Stretch, Terrain as RouteTerrain},
    night,
    order_dice::{self, Act, Phase, TurnPlan},
};

use super::{
    command::{Command, ObserveTarget, Pace, Refusal, refusal},
    demolition::charge_name,
    state::{Elements, Turn},
    visible,
};

/// The turn's phases so far plus the command's, as an Order Dice plan; an
/// element on Overwatch may not fire (*Heroes All*, "Overwatch"), one moving
/// at the double may neither fire nor act.
fn plan_with(
    turn: &Turn,
    phase: Phase,
    acts: usize,
    overwatch: bool,
    (at_the_double, immobile): (bool, bool),
) -> TurnPlan {
    let mut phases = turn.taken.clone();
    phases.push(phase);
    let mut plan_acts = turn.acts.clone();
    plan_acts.extend(std::iter::repeat_n(Act::Observe, acts));
    let at_the_double = turn.at_the_double || at_the_double;
    TurnPlan { phases, acts: plan_acts, at_the_double, overwatch, immobile }
}

/// The turn's phases so far plus an aimed shot: the Aim in its Act phase
/// (taken now, or already taken to observe), then the Fire phase.
fn aimed_plan(turn: &Turn, overwatch: bool, immobile: bool) -> TurnPlan {
    let mut phases = turn.taken.clone();
    if !phases.contains(&Phase::Act) {
        phases.push(Phase::Act);
    }
    phases.push(Phase::Fire);
    let mut acts = turn.acts.clone();
    acts.push(Act::Aim);
    TurnPlan { phases, acts, at_the_double: false, overwatch, immobile }
}

/// Whether a move to `to` ends nearer the nearest enemy on the table that the
/// element knows of than it stands now. Reading (FYOB "Results of Momentum
/// Tests", 3–4 and 5–6 failures: "may move towards cover but may not move
/// towards the enemy"): towards the enemy is nearer the nearest known enemy
/// (test `a_pinned_element_may_not_advance`).
fn towards_the_enemy(me: &super::state::ElementView, els: &Elements, to: (f32, f32)) -> bool {
    let to = warbound_rules::terrain::Point(to.0, to.1);
    let nearest = els
        .iter()
        .filter(|e| {
            e.identity.side != me.identity.side && e.presence.status.on_table() && me.intel.known.contains(e.id())
        })
        .min_by(|a, b| distance(me.place.at, a.place.at).total_cmp(&distance(me.place.at, b.place.at)));
    nearest.is_some_and(|e| distance(to, e.place.at) < distance(me.place.at, e.place.at))
}

/// Why the element's CMS bars a move from `from` to `to`, if it does. FYOB
/// "Continuous Momentum Score - AFVs and armoured transport", 4: "The element
/// can move but cannot traverse open ground"; "- soft-skinned vehicles", 4:
/// "The element can only move to achieve at least a partially hidden
/// position". Reading: open ground is the open and the road; a partially
/// hidden position is one off them (a wood, a built-up area, rough ground)
/// (test `an_afv_at_cms_four_keeps_off_open_ground`).
fn cms_bars_move(
    cms: CmsMovement,
    ctx: &visible::Sight<'_>,
    from: warbound_rules::terrain::Point,
    to: (f32, f32),
) -> Option<&'static str> {
    let open = |t: &Stretch| matches!(t.terrain, RouteTerrain::Open | RouteTerrain::Road);
    let route = || ctx.lines.route(ctx.terrain, from, warbound_rules::terrain::Point(to.0, to.1));
    match cms {
        CmsMovement::NoOpenGround
            if route().is_none_or(|r| r.stretches.iter().any(|t| open(t) && t.length > OPEN_GROUND)) =>
        {
            Some("at CMS 4 an AFV can move but cannot traverse open ground")
        }
        CmsMovement::ToHiddenPositionOnly if route().is_none_or(|r| r.stretches.last().is_none_or(open)) => {
            Some("at CMS 4 a soft-skin can only move to achieve at least a partially hidden position")
        }
        _ => None,
    }
}

/// Less open ground than this on a route is no traverse of open ground (a
/// road crossed, a gap between two woods).
const OPEN_GROUND: f32 = 1.0;

/// Whether `me` may open fire on this turn at all: its CMS and this bound's
/// CM tests allow it, and an immobile weapon stands set up (*Heroes All*,
/// "Weapons table notes").
fn may_open_fire(turn: &Turn, me: &super::state::ElementView, immobile: bool) -> Result<(), Refusal> {
    if !turn.orders.can_fire {
        return Err(refusal(
            Book::FightYourOwnBattles,
            "Continuous Momentum",
            "its CMS or this bound's CM tests forbid firing",
        ));
    }
    if immobile && (!me.actions.set_up || me.actions.this_bound.set_up) {
        return Err(refusal(
            Book::HeroesAll,
            "Weapons table notes: Immobile",
            "an immobile weapon fires only once set up with an Act, and not in the turn it sets up",
        ));
    }
    Ok(())
}

/// The enemy `target` that `me` may fire at: on the table and observed or
/// an autospot (*Heroes All*, "How to fire weapons"); `section` names the
/// rule that refuses a target that is no enemy on the table.
fn seen_enemy<'e, 'v>(
    me: &super::state::ElementView,
    els: &'e Elements<'v>,
    ctx: &visible::Sight<'_>,
    target: &str,
    section: &str,
) -> Result<&'e super::state::ElementView<'v>, Refusal> {
    let Some(t) = els.get(target).filter(|e| e.identity.side != me.identity.side && e.presence.status.on_table())
    else {
        return Err(refusal(Book::HeroesAll, section, format!("{target} is no enemy on the table")));
    };
    if !ctx.may_fire_at(me, t) {
        return Err(refusal(
            Book::HeroesAll,
            "How to fire weapons",
            format!("{target} is not observed and is not an autospot: only observed targets can be fired at"),
        ));
    }
    Ok(t)
}

/// Checks `cmd` for the element acting in `turn`, against its Order Die, its
/// CMS and tests, and what it can see. `els` are all elements.
pub fn check(
    cmd: &Command,
    turn: &Turn,
    els: &Elements,
    ctx: &visible::Sight<'_>,
    battle: &super::state::Battle,
    aircraft: &[super::air::Overhead],
) -> Result<(), Refusal> {
    let (charges, minefields) = (&battle.charges, &battle.minefields);
    let fyob = Book::FightYourOwnBattles;
    if cmd.element() != turn.element {
        return Err(refusal(fyob, "The game flow", format!("{} is not the element acting now", cmd.element())));
    }
    let Some(me) = els.get(&turn.element) else {
        return Err(refusal(fyob, "The game flow", "the acting element is not on the table"));
    };
    if matches!(cmd, Command::Die { .. } | Command::Reroll { .. } | Command::Pass { .. }) {
        return Err(refusal(fyob, "The game flow", "Command Dice belong to the 2-player game, not the solo flow"));
    }
    if matches!(cmd, Command::Command { .. } | Command::Session { .. } | Command::Seize { .. }) {
        return Err(refusal(fyob, "The game flow", "it is an element's turn, not an officer's"));
    }
    if let Some(pending) = turn.pending_move {
        let Command::MoveTo { to, .. } = cmd else {
            return Err(refusal(Book::HeroesAll, "Movement", "the Movement Dice are thrown: finish the move first"));
        };
        let from = me.place.at;
        let declared = warbound_rules::terrain::Point(pending.to.0, pending.to.1);
        let at = warbound_rules::terrain::Point(to.0, to.1);
        if !super::movement::within_move(from, declared, at, pending.allowance) {
            return Err(refusal(
                Book::HeroesAll,
                "Movement",
                format!(
                    "the score allows {:.1} inches along the declared route; ({:.1}, {:.1}) is {:.1} inches away or off the route",
                    pending.allowance,
                    to.0,
                    to.1,
                    distance(from, at)
                ),
            ));
        }
        return Ok(());
    }
    if matches!(cmd, Command::MoveTo { .. }) {
        return Err(refusal(Book::HeroesAll, "Movement", "no Movement Dice have been thrown: declare the move first"));
    }
    if let Command::ReFace { to, .. } = cmd {
        return super::guards::may_re_face(me, *to);
    }
    // Aboard a transport, the element drives it and fires its weapons.
    let vehicle = me.presence.status.aboard().and_then(|k| els[..].get(k)).copied();
    if vehicle.is_some() {
        let aboard = matches!(
            cmd,
            Command::Move { pace: Pace::Normal, .. }
                | Command::Fire { .. }
                | Command::AimedFire { .. }
                | Command::Observe { .. }
                | Command::Disembark { .. }
                | Command::Runner { .. }
                | Command::Renet { .. }
                | Command::CheckVacated { .. }
                | Command::EndTurn { .. }
        );
        if !aboard {
            return Err(refusal(
                Book::HeroesAll,
                "Transport elements",
                "aboard a transport, it moves with the vehicle at its pace, fires its weapons and observes; it gets out first with an Act",
            ));
        }
    }
    let Some(phase) = cmd.phase() else { return Ok(()) };
    // A runner may be the second Act of the Act phase just taken.
    let second_act = matches!(cmd, Command::Runner { .. })
        && turn.taken.last() == Some(&Phase::Act)
        && turn.acts.len() < order_dice::ACTS_PER_TURN;
    if turn.taken.contains(&phase) && !second_act {
        return Err(refusal(fyob, "Order Dice", "an element can only undertake each phase once during the bound"));
    }
    // *Heroes All*, "Night Fighting": "Snipers cannot operate."
    let light = if ctx.night { Light::Night } else { Light::Daylight };
    if me.force.sniper && night::sniper_may_operate(light).is_err() {
        return Err(refusal(Book::HeroesAll, "Night Fighting", "snipers cannot operate at night"));
    }
    let layer = super::bridging::is_layer(me, ctx.codex);
    let acts = match cmd {
        Command::Observe { targets, .. } => targets.len(),
        // "This type of vehicle uses its Act to undertake its task."
        Command::Bridge { .. } if layer => 1,
        Command::Detonate { .. }
        | Command::Goliath { .. }
        | Command::Wade { .. }
        | Command::Launch { .. }
        | Command::Extract { .. }
        | Command::CheckVacated { .. }
        | Command::Runner { .. }
        | Command::Renet { .. }
        | Command::SetFire { .. }
        | Command::Embark { .. }
        | Command::Disembark { .. }
        | Command::SetUp { .. } => 1,
        Command::Clear { .. }
        | Command::ClearMines { .. }
        | Command::Bridge { .. }
        | Command::Repair { .. }
        | Command::SetCharge { .. }
        | Command::Bangalore { .. } => 2,
        _ => 0,
    };
    let overwatch = me.order.on_overwatch();
    let pace = match cmd {
        Command::Move { pace, .. } => *pace,
        _ => Pace::Normal,
    };
    let immobile = ctx.immobile(me);
    let plan = match cmd {
        Command::AimedFire { .. } => aimed_plan(turn, overwatch, immobile),
        Command::Runner { .. } if second_act => {
            let mut plan = plan_with(turn, phase, 0, overwatch, (false, immobile));
            plan.phases.pop();
            plan.acts.push(Act::SendRunner);
            plan
        }
        _ => plan_with(turn, phase, acts, overwatch, (pace == Pace::AtTheDouble, immobile)),
    };
    match order_dice::check_turn(turn.orders.order, &plan) {
        Err(order_dice::OrderError::FiresOnOverwatch) => {
            return Err(refusal(Book::HeroesAll, "Overwatch", "elements on Overwatch cannot Fire"));
        }
        Err(order_dice::OrderError::AimNotFollowedByFire) => {
            return Err(refusal(
                fyob,
                "Act",
                "an aim is the Act of an Act order, taken first; the firer then fires, and only then moves",
            ));
        }
        Err(order_dice::OrderError::TooManyActs(_)) => {
            return Err(refusal(fyob, "Act", "an element undertakes any 2 acts: none is left to aim"));
        }
        Err(e) => return Err(refusal(fyob, "Order Dice", e.to_string())),
        Ok(_) => {}
    }
    match cmd {
        Command::Move { to, pace, .. } => {
            let me = vehicle.as_ref().unwrap_or(me);
            if !(to.0.is_finite() && to.1.is_finite() && ctx.scenario.table.contains(*to)) {
                return Err(refusal(Book::HeroesAll, "Movement", "the destination is off the table"));
            }
            if let Err(e) = movement::Pace::of(&plan) {
                return Err(refusal(Book::HeroesAll, "Overwatch", e.to_string()));
            }
            // Reading: "at the double" is a free full move; an element
            // restricted to moving towards cover does not run for it (the
            // rules core's `Turn::check_plan`).
            if *pace == Pace::AtTheDouble && turn.orders.movement != CmMovement::Free {
                return Err(refusal(
                    fyob,
                    "Results of Momentum Tests",
                    "its CM tests this bound forbid moving at the double",
                ));
            }
            if let Some(e) = super::movement::pace_barred(
                battle,
                me,
                warbound_rules::terrain::Point(to.0, to.1),
                turn.orders.movement_pips,
                *pace,
            ) {
                return Err(refusal(Book::HeroesAll, "Movement", e.to_string()));
            }
            if me
                .order
                .posted()
                .is_some_and(|g| !g.may_walk_to(me.place.at, warbound_rules::terrain::Point(to.0, to.1)))
            {
                return Err(refusal(Book::HeroesAll, "Guards", "a guard can only move in the direction it is facing"));
            }
            if me.vehicle.out_of_fuel {
                return Err(refusal(
                    Book::HeroesAll,
                    "Forces acting whilst rationed",
                    "the vehicle has run out of petrol and is unable to move further",
                ));
            }
            if me.force.build == (super::state::Build::Guns { artillery: true }) && me.actions.this_bound.fired {
                return Err(refusal(Book::HeroesAll, "Weapons table notes", "an immobile gun cannot move and fire"));
            }
            if immobile && me.actions.set_up {
                return Err(refusal(
                    Book::HeroesAll,
                    "Weapons table notes: Immobile",
                    "an immobile weapon set up requires an Act to break down before it moves",
                ));
            }
            if let Some(why) =
                super::demolition_vehicles::goliath_move_refused(me, warbound_rules::terrain::Point(to.0, to.1))
            {
                return Err(refusal(Book::HeroesAll, "Goliath", why));
            }
            if let Some(why) = cms_bars_move(turn.orders.cms_movement, ctx, me.place.at, *to) {
                return Err(refusal(fyob, "Continuous Momentum", why));
            }
            if turn.orders.movement != CmMovement::Free && towards_the_enemy(me, els, *to) {
                return Err(refusal(
                    fyob,
                    "Results of Momentum Tests",
                    "its CM tests this bound let it move towards cover but never towards the enemy",
                ));
            }
            if turn.orders.movement == CmMovement::TowardsCoverOnly
                && let Some(why) = super::shared::towards_cover_bars(
                    ctx.terrain,
                    me.place.at,
                    warbound_rules::terrain::Point(to.0, to.1),
                )
            {
                return Err(refusal(fyob, "Results of Momentum Tests", why));
            }
        }
        Command::Fire { target, .. } | Command::AimedFire { target, .. } => {
            let me = vehicle.as_ref().unwrap_or(me);
            if me.force.transport() == Some(None) {
                return Err(refusal(
                    Book::HeroesAll,
                    "Transport elements",
                    "armoured transports may only use their weapons when they are carrying passengers",
                ));
            }
            may_open_fire(turn, me, immobile)?;
            let t = seen_enemy(me, els, ctx, target, "How to fire weapons")?;
            if !ctx.in_range_of_any(me, t) {
                return Err(refusal(Book::HeroesAll, "Weapons table", format!("{target} is out of range")));
            }
            if matches!(cmd, Command::AimedFire { .. }) && !super::firing::aim_counts(ctx, me, t, turn.failures) {
                return Err(refusal(
                    Book::HeroesAll,
                    "How to fire weapons",
                    format!("none of its weapons fires AT or HE at {target}: only an AT/HE shot is aimed"),
                ));
            }
        }
        Command::SetFire { .. } => super::setting_fire::may_set_fire(me, turn, battle)?,
        Command::Repair { .. } => {
            super::bridging::mendable(me, turn, battle)?;
        }
        Command::Petard { target, .. } => {
            may_open_fire(turn, me, immobile)?;
            let t = seen_enemy(me, els, ctx, target, "Petard type mortars")?;
            if let Some(why) = super::demolition_vehicles::petard_refused(me, t, battle, ctx.codex) {
                return Err(refusal(Book::HeroesAll, "Petard type mortars", why));
            }
        }
        Command::Goliath { target, .. } => {
            let Some(t) =
                els.get(target).filter(|e| e.identity.side != me.identity.side && e.presence.status.on_table())
            else {
                return Err(refusal(Book::HeroesAll, "Goliath", format!("{target} is no enemy on the table")));
            };
            if let Some(why) = super::demolition_vehicles::goliath_refused(me, t, battle) {
                return Err(refusal(Book::HeroesAll, "Goliath", why));
            }
        }
        Command::Smoke { at, .. } => {
            may_open_fire(turn, me, immobile)?;
            if !(at.0.is_finite() && at.1.is_finite() && ctx.scenario.table.contains(*at)) {
                return Err(refusal(Book::HeroesAll, "Firing smoke", "the spot is off the table"));
            }
            let spot = warbound_rules::terrain::Point(at.0, at.1);
            let reach = super::smoke::reach(me, spot, ctx.codex);
            if reach.is_empty() {
                return Err(refusal(
                    Book::HeroesAll,
                    "Firing smoke",
                    format!(
                        "none of its guns or mortars fires smoke as far as ({:.1}, {:.1}): a smoke round counts as one round of the guns allocation",
                        at.0, at.1
                    ),
                ));
            }
            if !reach.iter().any(|t| super::smoke::spotted(ctx, me, els, spot, t.indirect)) {
                return Err(refusal(
                    Book::HeroesAll,
                    "Indirect Fire",
                    format!(
                        "({:.1}, {:.1}) is in sight of neither it nor, for a mortar, a spotter of its company",
                        at.0, at.1
                    ),
                ));
            }
        }
        Command::Assault { target, .. } => {
            if let Some(r) = super::assault::refused(me, target, turn, els, ctx, battle) {
                return Err(r);
            }
        }
        Command::Observe { targets, .. } => {
            if !turn.orders.can_observe {
                return Err(refusal(fyob, "Continuous Momentum", "its CMS or this bound's CM tests forbid observing"));
            }
            if targets.is_empty() || targets.len() > order_dice::ACTS_PER_TURN {
                return Err(refusal(fyob, "Act", "an element undertakes any 2 acts: observe 1 or 2 targets"));
            }
            if targets.len() == 2 && targets[0] == targets[1] {
                return Err(refusal(
                    Book::HeroesAll,
                    "Observation",
                    "a whole element cannot use its 2 Acts to attempt to spot the same target twice",
                ));
            }
            for t in targets {
                let id = t.element();
                let Some(e) =
                    els.get(id).filter(|e| e.identity.side != me.identity.side && e.presence.status.on_table())
                else {
                    return Err(refusal(Book::HeroesAll, "Observation", format!("{id} is no enemy on the table")));
                };
                // FYOB "Placement options": a concealed enemy is observed by
                // its counters, never where it stands.
                let standing = |k: &u8| e.concealment.counters().iter().any(|(c, _)| c == k);
                match t {
                    ObserveTarget::Element(_) if e.concealment.concealed() => {
                        return Err(refusal(
                            fyob,
                            "Placement options",
                            "a concealed element is observed by its counters",
                        ));
                    }
                    ObserveTarget::Counter { counter, .. } if !standing(counter) => {
                        return Err(refusal(fyob, "Placement options", format!("no counter {counter} of {id} stands")));
                    }
                    _ => {}
                }
            }
        }
        Command::Extract { counter, .. } => {
            let declared = me.concealment.state.clone().filter(|_| me.concealment.concealed()).map(|mut c| {
                c.act(warbound_rules::concealment::ConcealedActivity::Extract, *counter).map_err(|e| e.to_string())
            });
            match declared {
                None => return Err(refusal(fyob, "Placement options", "it is not in a concealed position")),
                Some(Err(why)) => return Err(refusal(fyob, "Placement options", why)),
                Some(Ok(_)) => {}
            }
        }
        Command::SetUp { up, .. } => {
            if !immobile {
                return Err(refusal(
                    Book::HeroesAll,
                    "Weapons table notes: Immobile",
                    "it has no immobile weapon to set up",
                ));
            }
            if *up == me.actions.set_up {
                let why = if *up { "it is set up already" } else { "it is not set up" };
                return Err(refusal(Book::HeroesAll, "Weapons table notes: Immobile", why));
            }
        }
        Command::CheckVacated { enemy, .. } => {
            if !turn.orders.can_observe {
                return Err(refusal(fyob, "Continuous Momentum", "its CMS or this bound's CM tests forbid observing"));
            }
            if !me.intel.last_seen.get(enemy).is_some_and(|&at| ctx.place_in_sight(me, at)) {
                return Err(refusal(
                    Book::HeroesAll,
                    "Checking vacated positions",
                    format!("{enemy} is no enemy it lost track of whose last place it can see"),
                ));
            }
        }
        Command::Runner { .. } if turn.runner.is_none() => {
            return Err(refusal(
                fyob,
                "Runners",
                "it talks to its Company Officer by radio on the Company's net or face to face: no runner is needed",
            ));
        }
        Command::Runner { .. } if turn.acts.contains(&Act::SendRunner) => {
            return Err(refusal(fyob, "Runners", "its runner has already gone this turn"));
        }
        Command::Renet { .. } => match &me.force.off_net {
            None => return Err(refusal(fyob, "Radio netting-in", "it has no radio set knocked off the Company's net")),
            Some(net) if net.dis => {
                return Err(refusal(fyob, "Radio netting-in", "its set failed 3 Radio Tests and is DIS for the game"));
            }
            Some(_) => {}
        },
        Command::FireAa { squadron, .. } => {
            if !turn.orders.can_fire {
                return Err(refusal(fyob, "Continuous Momentum", "its CMS or this bound's CM tests forbid firing"));
            }
            let Some((weapon, _)) = super::air::aa_weapon(me, ctx.codex) else {
                return Err(refusal(Book::HeroesAll, "Anti aircraft fire", "it has no weapon that fires at aircraft"));
            };
            match aircraft.iter().find(|o| &o.squadron == squadron && o.side != me.identity.side) {
                None => {
                    return Err(refusal(
                        Book::HeroesAll,
                        "Anti aircraft fire",
                        format!("{squadron} is no enemy squadron over the table"),
                    ));
                }
                Some(o) if o.in_dogfight && o.in_reach_of_height(weapon) => {
                    return Err(refusal(
                        Book::HeroesAll,
                        "Anti aircraft fire",
                        "no AA fire at medium level while aircraft fight each other there",
                    ));
                }
                Some(o) if !o.in_reach_of(weapon) => {
                    return Err(refusal(
                        Book::HeroesAll,
                        "Anti aircraft fire",
                        format!(
                            "its {} cannot reach aircraft at {} level",
                            super::air::weapon_words(weapon),
                            super::air::height_words(o.height)
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        Command::Detonate { charge, .. } => {
            let ok = charges
                .iter()
                .find(|d| &d.id == charge)
                .is_some_and(|d| super::demolition::may_detonate(me, d, ctx.terrain));
            if !ok {
                return Err(refusal(
                    Book::HeroesAll,
                    "Explosives",
                    format!(
                        "{charge} is not a charge of its side it can fire: within 12 inches, in sight, set for the detonation pack"
                    ),
                ));
            }
        }
        Command::Embark { transport, .. } => {
            let why = match els.get(transport) {
                Some(v) => super::transport::embark_refused(me, v, ctx.codex),
                None => Some("that is no element of the battle".into()),
            };
            if let Some(why) = why {
                return Err(refusal(Book::HeroesAll, "Transport elements", why));
            }
        }
        Command::Disembark { .. } if vehicle.is_none() => {
            return Err(refusal(Book::HeroesAll, "Transport elements", "it rides in no transport"));
        }
        Command::Wade { to, .. } if !super::bridging::at_waterline(me, ctx, *to) => {
            return Err(refusal(
                Book::HeroesAll,
                "Rivers",
                "only men on foot at a river's edge get into or out of it, towards the water or the bank",
            ));
        }
        Command::Launch { to, .. } if !super::river_craft::at_launch(me, ctx.terrain, *to) => {
            return Err(refusal(
                Book::HeroesAll,
                "Boats",
                "only an element with its boats, at a river's edge, gets into them, towards the water",
            ));
        }
        Command::Bridge { .. } if layer && super::bridging::site_at(me, &battle.pontoons).is_none() => {
            return Err(refusal(
                Book::HeroesAll,
                "Bridge-laying or fascine-laying tanks",
                "no unbridged site of its Engineering order at the bank here",
            ));
        }
        Command::Bridge { .. } if layer => {}
        Command::Bridge { .. } => {
            if !turn.taken.is_empty() {
                return Err(refusal(Book::HeroesAll, "Pontoon bridges", "the builders do nothing else this bound"));
            }
            if super::bridging::site_at(me, &battle.pontoons).is_none() {
                return Err(refusal(
                    Book::HeroesAll,
                    "Pontoon bridges",
                    "no unbuilt bridging site of its Engineering order at the bank here",
                ));
            }
        }
        Command::ClearMines { .. } => {
            if !turn.taken.is_empty() {
                return Err(refusal(Book::HeroesAll, "Mines", "the clearers do nothing else this bound"));
            }
            if super::demolition::minefield_in_contact(me, ctx.terrain, minefields).is_none() {
                return Err(refusal(Book::HeroesAll, "Mines", "no uncleared minefield in contact"));
            }
        }
        Command::SetCharge { kind, delay, .. } => {
            let explosives = Book::HeroesAll;
            if !turn.taken.is_empty() {
                let why = "setting a charge takes the whole bound, without carrying out any other activity";
                return Err(refusal(explosives, "Explosives", why));
            }
            if *kind == ChargeKind::Bangalore || !me.force.explosives.contains(kind) {
                return Err(refusal(
                    explosives,
                    "Explosives",
                    format!("its men carry no {} to set", charge_name(*kind)),
                ));
            }
            if let Err(e) = Charge::set(*kind, *delay) {
                return Err(refusal(explosives, "Explosives", e.to_string()));
            }
            if super::demolition::bridge_in_contact(me, battle).is_none() {
                return Err(refusal(explosives, "Explosives", "no standing bridge in contact to set it on"));
            }
        }
        Command::Bangalore { toward, .. } => {
            if !me.force.explosives.contains(&ChargeKind::Bangalore) {
                return Err(refusal(Book::HeroesAll, "Explosives", "its men carry no Bangalore Torpedo"));
            }
            let toward = warbound_rules::terrain::Point(toward.0, toward.1);
            if warbound_rules::explosives::bangalore_gap(ctx.terrain, me.place.at, toward).is_none() {
                let why = "no wire or wall within 2 inches ahead that has no gap there";
                return Err(refusal(Book::HeroesAll, "Explosives", why));
            }
        }
        Command::Clear { charge, .. }
            if !charges.iter().find(|d| &d.id == charge).is_some_and(|d| super::demolition::may_clear(me, d)) =>
        {
            return Err(refusal(Book::HeroesAll, "Explosives", format!("{charge} is no live enemy charge in contact")));
        }
        _ => {}
    }
    Ok(())
}
