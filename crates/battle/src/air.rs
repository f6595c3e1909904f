//! Aircraft over the table (*Heroes All*, "Aircraft rules"): a squadron comes
//! in its window with its own OPC; its Squadron Leader takes his ORT, the
//! machines fly on from the box, and the Order Die decides the order of its
//! move (down to low level to attack), its act (acquire a ground target) and
//! its fire (an enemy squadron met at its height, else bombs, or guns and
//! rockets from low level). When the window closes the squadron leaves on its
//! next card.

use super::change::{Change, Held, SideChange};
use crate::prelude::*;
use warbound_rules::{
    aircraft::{self, AaWeapon, AirMove, Height, Position},
    codex::{Armament, Codex},
    effects,
    event::{Book, EventKind, RuleEvent, RuleRef},
    fire_tests::FireResults,
    firing::Weapon,
    geometry::distance,
    opc::{self, OrtResult},
    order_dice::{self, Phase},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{Command, Current},
    firing::{Out, apply_vehicle},
    shared::{accrue_fire, chart_of, cover_where, he_target},
    state::{Build, ElementView, Flow, Status},
    visible::Sight,
};

pub(super) fn squadron_of(t: &Battlefield, id: &str) -> Option<(usize, usize)> {
    t.sides.0.iter().enumerate().find_map(|(s, side)| side.squadrons.iter().position(|q| q.id == id).map(|k| (s, k)))
}

/// The squadron's turn on its card.
pub(super) fn squadron_turn(t: &mut Battlefield, s: usize, k: usize) {
    squadron_acts(t, s, k, false);
}

/// The squadron's attack given by a 2-player Command Die: its ORT taken as
/// the die was allocated, no Order Die (down, acquire, attack).
pub(super) fn squadron_die(t: &mut Battlefield, s: usize, k: usize) {
    squadron_acts(t, s, k, true);
}

fn squadron_acts(t: &mut Battlefield, s: usize, k: usize, by_die: bool) {
    let bound = t.battle.clock.bound();
    let q = t.sides.0[s].squadrons[k].clone();
    if q.window.may_act(bound).is_err() {
        // "They must leave immediately they are activated by their OPC on the
        // next bound without taking any further action."
        let ev = RuleEvent::new(EventKind::Leaves, RuleRef::new(Book::HeroesAll, "Aircraft rules"))
            .actor(q.id.clone())
            .input("window", q.window.first, "the 4-bound window has closed")
            .outcome(serde_json::json!({ "status": "left the table" }));
        t.log.push(bound, ev);
        leave_for_good(t, s, k);
        return;
    }
    if !by_die {
        let (ort, e) = opc::officer_reaction_test(q.leader, &mut t.dice.0, &q.id);
        t.log.push(bound, e);
        if ort == OrtResult::NoAction {
            return;
        }
    }
    // "If the pilot passes his ORT, the aircraft must move onto the table
    // automatically before the Order Die is thrown."
    for (m, machine) in q.machines.iter().enumerate() {
        let mut now = machine.clone();
        let _ = aircraft::enter_table(&mut now);
        t.sides.apply(s, SideChange::Machine(k, m, now));
    }
    let order = if by_die {
        Phase::Move
    } else {
        let (order, e) = order_dice::throw_order_die(&mut t.dice.0, &q.id);
        t.log.push(bound, e);
        order
    };
    let phases = match order {
        Phase::Fire => [Phase::Fire, Phase::Act, Phase::Move],
        Phase::Move => [Phase::Move, Phase::Act, Phase::Fire],
        Phase::Act => [Phase::Act, Phase::Fire, Phase::Move],
    };
    let mut moved = false;
    let mut fired = false;
    for phase in phases {
        match phase {
            // Down to low level to attack with guns and rockets; bombers bomb
            // from medium; fighters go to the height of the enemy's machines
            // over the table, to fight them.
            Phase::Move if !moved => {
                moved = true;
                let enemy_at = over_table(&t.sides).into_iter().find(|o| o.side != s).map(|o| o.height);
                let machines = t.sides.0[s].squadrons[k].machines.clone();
                for (i, m) in machines.into_iter().enumerate() {
                    let Some(now_at) = m.height().filter(|_| matches!(m.position, Position::OverTable(_))) else {
                        continue;
                    };
                    let bombs = m.kind.bombs.is_some_and(|b| b.1 > 0);
                    let to = match enemy_at {
                        Some(h) if m.kind.role == aircraft::Role::Fighter => h,
                        _ if bombs && now_at == Height::Medium => now_at,
                        _ => Height::Low,
                    };
                    if to != now_at {
                        let mut now = m;
                        let _ = aircraft::air_move(&mut now, AirMove::ToHeight(to));
                        t.sides.apply(s, SideChange::Machine(k, i, now));
                    }
                }
            }
            Phase::Act => acquire(t, s, k),
            Phase::Fire if !fired => {
                fired = true;
                if !dogfight(t, s, k) {
                    attack(t, s, k);
                }
            }
            _ => {}
        }
    }
}

/// *Heroes All*, "Air to air combat": on its card a squadron whose machines
/// share a height over the table with an enemy squadron's fights them instead
/// of attacking the ground. Its armed machines "match-up" with the enemy's at
/// that height, the surplus spread evenly; each spots its opponent (2+, worse
/// in rain) and throws a D6 per gun, AT cannon excepted; the damages of all
/// its attackers are taken together. The enemy fires back on its own card:
/// "the order in which aircraft ... shoot at each other ... is driven solely
/// by the OPC order". Returns whether it fought.
fn dogfight(t: &mut Battlefield, s: usize, k: usize) -> bool {
    let bound = t.battle.clock.bound();
    let ours = t.sides.0[s].squadrons[k].clone();
    let armed = |m: &aircraft::Aircraft| m.kind.mmg + m.kind.hmg + m.kind.cannon > 0;
    // The first enemy squadron met at a height one of ours flies at.
    let Some((e, j, height)) = t.sides.0.iter().enumerate().filter(|(e, _)| *e != s).find_map(|(e, side)| {
        side.squadrons.iter().enumerate().find_map(|(j, q)| {
            q.machines
                .iter()
                .filter_map(|m| m.height().filter(|_| matches!(m.position, Position::OverTable(_))))
                .find(|h| ours.machines.iter().any(|m| armed(m) && m.position == Position::OverTable(*h)))
                .map(|h| (e, j, h))
        })
    }) else {
        return false;
    };
    let theirs = t.sides.0[e].squadrons[j].clone();
    let attackers: Vec<usize> = (0..ours.machines.len())
        .filter(|&i| armed(&ours.machines[i]) && ours.machines[i].position == Position::OverTable(height))
        .collect();
    let defenders: Vec<usize> =
        (0..theirs.machines.len()).filter(|&i| theirs.machines[i].position == Position::OverTable(height)).collect();
    let per_defender = aircraft::match_up(attackers.len(), defenders.len());
    let ev = RuleEvent::new(EventKind::Fire, RuleRef::new(Book::HeroesAll, "Air to air combat"))
        .actor(ours.id.clone())
        .target(theirs.id.clone())
        .input("height", height, "both squadrons over the table at this height")
        .input("match_up", &per_defender, "attackers on each defender, the surplus spread evenly")
        .outcome(serde_json::json!({ "attackers": attackers.len(), "defenders": defenders.len() }));
    t.log.push(bound, ev);
    let mut damages = vec![0u8; defenders.len()];
    let mut next = attackers.iter();
    for (d, &n) in per_defender.iter().enumerate() {
        for &a in next.by_ref().take(n) {
            let (attacker, target) = (&ours.machines[a], &theirs.machines[defenders[d]]);
            let need = aircraft::spot_aircraft_need(t.battle.weather.sky, false);
            let (seen, e) = aircraft::spot(Some(need), &theirs.id, &mut t.dice.0, &ours.id);
            t.log.push(bound, e.target(theirs.id.clone()));
            if !seen {
                continue;
            }
            match aircraft::air_to_air_fire(attacker, target, &mut t.dice.0, &ours.id) {
                Ok((hit, e)) => {
                    t.log.push(bound, e.target(theirs.id.clone()));
                    damages[d] = damages[d].saturating_add(hit);
                }
                Err(err) => t.fail("air to air combat", &ours.id, err.to_string()),
            }
        }
    }
    let mut counted_all = 0;
    for (d, &m) in defenders.iter().enumerate().filter(|(d, _)| damages[*d] > 0) {
        let mut now = theirs.machines[m].clone();
        let (_, counted, mut ev) = aircraft::take_damage(&mut now, damages[d], bound, &mut t.dice.0, &theirs.id);
        // The strength and driven-off rules of AA fire, taken in the air.
        ev.rule = RuleRef::new(Book::HeroesAll, "Air to air combat");
        t.log.push(bound, ev.actor(ours.id.clone()));
        t.sides.apply(e, SideChange::Machine(j, m, now));
        counted_all += u32::from(counted);
    }
    if let Some(mut ac) = t.sides.0[e].air_command.clone().filter(|_| counted_all > 0) {
        ac.damages += counted_all;
        t.sides.apply(e, SideChange::AirCommand(ac));
    }
    true
}

/// "Providing it is over the table, it can ... acquire a ground target": the
/// enemy nearest its own troops, spotted on a D6 (3+ at low level, 4+ at
/// medium, 5+ in a building or wood).
fn acquire(t: &mut Battlefield, s: usize, k: usize) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let codex = &*codex;
    let els = t.elements.views();
    let q = &t.sides.0[s].squadrons[k];
    if q.target.as_ref().and_then(|id| t.roster.find(&els, id)).is_some_and(|f| f.presence.status.on_table()) {
        return;
    }
    let Some(height) = q.machines.iter().find_map(|m| m.height()) else { return };
    let sight = Sight { night: false, ..Sight::new(&t.battle, codex) };
    let friends: Vec<_> =
        els.iter().filter(|f| f.identity.side == s && f.presence.status.on_table()).map(|f| f.place.at).collect();
    let near_friends =
        |f: &ElementView| friends.iter().map(|&p| distance(p, f.place.at).get()).fold(f32::MAX, f32::min);
    let Some(target) = els
        .iter()
        .filter(|f| f.identity.side != s && f.presence.status.on_table())
        .min_by(|a, b| near_friends(&a.view()).total_cmp(&near_friends(&b.view())))
    else {
        return;
    };
    let covered = sight.in_building(target.place.at)
        || sight.in_wood(target.place.at).is_some()
        || target.concealment.concealed();
    let need = match aircraft::spot_ground_target_need(height, covered, false) {
        Ok(need) => need,
        Err(e) => {
            let what = format!("the throw to spot {} cannot be made: {e:?}", target.id());
            t.failures.record(&mut t.log, bound, "air", &q.id, what);
            return;
        }
    };
    let (seen, e) = aircraft::spot(Some(need), target.id(), &mut t.dice.0, &q.id);
    t.log.push(bound, e.target(target.id().to_owned()));
    if seen {
        t.sides.apply(s, SideChange::SquadronTarget(k, target.id().to_owned()));
    }
}

/// Every machine over the table attacks the acquired target: bombs (6 to
/// hit, dive bombers 4+), else guns and rockets at low level ("hits on
/// infantry, CSW and soft-skinned targets are dealt with as if they were hits
/// from a grounded weapon": one casualty a hit, a soft-skin damaged); an AFV
/// is attacked with the machine's AT weapons, its AT cannon and rockets
/// ("Anti Tank damage": 5+ on a stationary target, 6 on a moving one, D10 + 8
/// on the side armour, any hit on an open-topped AFV destroys it).
///
/// The squadron is one firing element: its target takes one set of CM tests
/// for the attack, hit or miss (FYOB "Definition of 'Under fire'") — bombs
/// put anything under HE fire; guns and rockets put men and soft-skins under
/// fire from the air, AT weapons put an AFV under AT fire; MGs and cannon,
/// which cannot harm an AFV, put it under nothing.
/// Reading: the target sees the machines that attack it ("If the aircraft has
/// just made a ground attack, spotting on the same bound is automatic"), so
/// no row for an unobserved enemy.
fn attack(t: &mut Battlefield, s: usize, k: usize) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let Some(target) = t.sides.0[s].squadrons[k].target.clone() else { return };
    let mut els = t.elements.one(&t.roster, &target);
    let Some(f) = els.as_mut().filter(|f| f.presence.status.on_table()) else { return };
    let q = t.sides.0[s].squadrons[k].clone();
    let mut fire = FireResults::default();
    let mut attacked = false;
    for (i, m) in q.machines.iter().enumerate().filter(|(_, m)| matches!(m.position, Position::OverTable(_))) {
        if f.spent() {
            break;
        }
        if let Ok((size, hits, e)) = aircraft::drop_bombs(m, &mut t.dice.0, &q.id) {
            t.log.push(bound, e.target(target.clone()));
            attacked = true;
            fire.under(FireResults::under_fire_from(chart_of(&f.view()), true, false));
            for _ in 0..hits {
                if f.force.build == Build::SoftSkin {
                    // Heroes All, aircraft: "Hits on ... soft-skinned targets are
                    // dealt with as if they were hits from a grounded weapon".
                    let (after, e) = effects::soft_skin_he_hit(f.vehicle.state.unwrap_or_default());
                    t.log.push(bound, e.target(target.clone()));
                    let mut out = Out {
                        dice: &mut t.dice.0,
                        log: &mut t.log,
                        failures: &mut t.failures,
                        bound,
                        battle: &mut t.battle,
                    };
                    apply_vehicle(&mut out, f, after, &mut fire);
                    continue;
                }
                let Some(he) = he_target(&f.view()) else { break };
                if let Ok((casualties, wrecked, e)) = aircraft::bomb_hit(size, he, &mut t.dice.0) {
                    t.log.push(bound, e.target(target.clone()));
                    fire.casualties += f.apply(Change::LoseMen(u32::from(casualties)));
                    if wrecked {
                        wreck(f, &mut fire);
                        if f.force.build.is_vehicle() {
                            super::shared::knock_off_net(&mut t.log, bound, f, "its vehicle damaged by a bomb");
                        }
                    }
                }
            }
        } else if let (Build::Afv { armour, open_topped }, true) = (f.force.build, aircraft::at_weapons(m) > 0) {
            let (last, this) = (&f.actions.last_bound, &f.actions.this_bound);
            let target_now = aircraft::AtTarget {
                moving: last.moved || this.moved,
                armour,
                open_topped,
                state: f.vehicle.state.unwrap_or_default(),
            };
            if let Ok((after, events)) = aircraft::at_attack(m, false, target_now, &mut t.dice.0, &q.id) {
                for e in events {
                    t.log.push(bound, e.target(target.clone()));
                }
                attacked = true;
                fire.at = true;
                let mut out = Out {
                    dice: &mut t.dice.0,
                    log: &mut t.log,
                    failures: &mut t.failures,
                    bound,
                    battle: &mut t.battle,
                };
                apply_vehicle(&mut out, f, after, &mut fire);
            }
        } else if let Ok((hits, e)) = aircraft::strafe(m, &mut t.dice.0, &q.id) {
            t.log.push(bound, e.target(target.clone()));
            attacked = true;
            match f.force.build {
                Build::Afv { .. } => {}
                Build::SoftSkin => {
                    fire.from_the_air = true;
                    if hits > 0 {
                        let after = effects::soft_skin_hit(f.vehicle.state.unwrap_or_default());
                        f.apply(Change::Vehicle(after));
                        if after == effects::VehicleState::Damaged {
                            super::shared::knock_off_net(&mut t.log, bound, f, "its vehicle damaged from the air");
                        }
                    }
                }
                _ => {
                    fire.from_the_air = true;
                    fire.casualties += f.apply(Change::LoseMen(u32::from(hits)));
                }
            }
        }
        let mut now = m.clone();
        aircraft::after_attack(&mut now);
        t.sides.apply(s, SideChange::Machine(k, i, now));
    }
    super::shared::casualties((&mut t.log, &mut t.failures), &mut t.dice.0, bound, &mut t.sides, f, fire.casualties);
    if attacked {
        let sight = Sight { night: false, ..Sight::new(&t.battle, &codex) };
        let cover = cover_where(&sight, f.place.at);
        accrue_fire(f, &fire, (false, cover), "air attack", |event| {
            t.log.push(bound, event.input("squadron", &q.id, "one firing element"));
        });
    }
    if f.spent() && f.presence.status.on_table() {
        super::shared::leave(&mut t.log, bound, f, Status::Destroyed, "nothing left that fights");
    }
}

/// A bomb that wrecks: a gun destroyed, a vehicle damaged.
fn wreck(f: &mut Held, fire: &mut FireResults) {
    if f.force.build.is_vehicle() {
        let after = f.vehicle.state.unwrap_or_default().after(effects::AtResult::Damaged);
        f.apply(Change::Vehicle(after));
        fire.damaged = true;
    } else {
        let crew = f.apply(Change::LoseWeapon);
        if crew > 0 {
            fire.guns_lost += 1;
            fire.casualties += crew;
        }
    }
}

/// Machines driven off come back to the box when their bounds are up
/// ("driven off the table for D4 bounds").
pub(super) fn returning(t: &mut Battlefield) {
    let bound = t.battle.clock.bound();
    for s in 0..t.sides.0.len() {
        let withdrawn = t.sides.0[s].air_command.as_ref().is_some_and(|ac| ac.withdrawn);
        for (k, q) in t.sides.0[s].squadrons.clone().into_iter().enumerate() {
            for (i, mut m) in q.machines.into_iter().enumerate() {
                if let Position::DrivenOff { until } = m.position
                    && until <= bound
                {
                    m.position =
                        if withdrawn { Position::DrivenOff { until: u32::MAX } } else { Position::Box(Height::Low) };
                    t.sides.apply(s, SideChange::Machine(k, i, m));
                }
            }
        }
    }
}

/// Every machine of squadron `k` still in action leaves the table for good.
fn leave_for_good(t: &mut Battlefield, s: usize, k: usize) {
    for (i, mut m) in t.sides.0[s].squadrons[k].machines.clone().into_iter().enumerate() {
        if m.in_action() {
            m.position = Position::DrivenOff { until: u32::MAX };
            t.sides.apply(s, SideChange::Machine(k, i, m));
        }
    }
}

/// A squadron with a machine over the table, as the troops below see it.
#[derive(Debug, Clone, PartialEq)]
pub struct Overhead {
    pub squadron: String,
    pub side: usize,
    /// The height of its leading machine over the table, the one AA fire aims at.
    pub height: Height,
    /// It flies at medium level while both sides have aircraft there: "AA
    /// fire cannot be conducted at medium level aircraft if air-to-air combat
    /// is taking place".
    pub in_dogfight: bool,
}

impl Overhead {
    /// Whether `weapon` may fire at this squadron: it reaches its height (the
    /// AA table's blank cells: no cannon fires at low level, no machine gun
    /// above it) and no dogfight at medium level bars the fire.
    pub fn in_reach_of(&self, weapon: AaWeapon) -> bool {
        self.in_reach_of_height(weapon) && !self.in_dogfight
    }

    /// Whether `weapon` reaches this squadron's height.
    pub fn in_reach_of_height(&self, weapon: AaWeapon) -> bool {
        weapon.row().dice[self.height as usize].is_some()
    }
}

/// An AA weapon as the player reads it.
pub(super) fn weapon_words(w: AaWeapon) -> &'static str {
    match w {
        AaWeapon::Infantry => "rifles",
        AaWeapon::Lmg => "light machine gun",
        AaWeapon::Tmg => "turret machine gun",
        AaWeapon::Hmg => "heavy machine gun",
        AaWeapon::MultipleHmg => "multiple heavy machine guns",
        AaWeapon::CannonUnder40 => "cannon under 40mm",
        AaWeapon::Cannon40Plus => "40mm cannon",
        AaWeapon::Cannon75Plus => "75mm cannon",
    }
}

/// A height as the player reads it.
pub(super) fn height_words(h: Height) -> &'static str {
    match h {
        Height::Low => "low",
        Height::Medium => "medium",
        Height::High => "high",
    }
}

/// The squadrons of either side with a machine over the table.
pub fn over_table(sides: &super::state::Sides) -> Vec<Overhead> {
    let mut overhead: Vec<Overhead> = sides
        .0
        .iter()
        .enumerate()
        .flat_map(|(side, s)| {
            s.squadrons.iter().filter_map(move |q| {
                q.machines.iter().find_map(|m| match m.position {
                    Position::OverTable(height) => {
                        Some(Overhead { squadron: q.id.clone(), side, height, in_dogfight: false })
                    }
                    _ => None,
                })
            })
        })
        .collect();
    let at_medium: std::collections::BTreeSet<usize> =
        overhead.iter().filter(|o| o.height == Height::Medium).map(|o| o.side).collect();
    if at_medium.len() > 1 {
        for o in overhead.iter_mut().filter(|o| o.height == Height::Medium) {
            o.in_dogfight = true;
        }
    }
    overhead
}

/// What an element fires at aircraft with, and how many times: infantry
/// "per 3 figures"; an AFV its turret-mounted MG; guns their cannon (the
/// autocannon rows: "single cannon <40mm", "40mm+") or HMGs, one a piece
/// crewed.
///
/// Reading: the AA table's cannon are the light and heavy autocannon of the
/// Weapons table (2 cm Flak, Bofors); a bigger gun fires at aircraft only
/// where the CODEX rates it an autocannon.
pub fn aa_weapon(f: &ElementView, codex: &Codex) -> Option<(AaWeapon, u32)> {
    match f.force.build {
        Build::Afv { .. } => Some((AaWeapon::Tmg, 1)),
        Build::Infantry => {
            let threes = f.force.element.figures.iter().filter(|fig| fig.weapon.is_some()).count() as u32 / 3;
            (threes > 0).then_some((AaWeapon::Infantry, threes))
        }
        Build::Guns { .. } => {
            let weapons: Vec<AaWeapon> = f
                .force
                .element
                .pieces
                .iter()
                .filter(|p| p.crew > 0)
                .filter_map(|p| codex.get(&p.codex).ok())
                .filter_map(|entry| entry.armament.iter().find_map(gun_aa))
                .collect();
            let best = weapons.iter().copied().max_by_key(|w| *w as u8)?;
            Some((best, weapons.iter().filter(|w| **w == best).count() as u32))
        }
        Build::SoftSkin => None,
    }
}

/// The AA table's row of a gun's armament, if it fires at aircraft.
fn gun_aa(a: &Armament) -> Option<AaWeapon> {
    match a.row {
        Weapon::AutocannonLight => Some(AaWeapon::CannonUnder40),
        Weapon::AutocannonHeavy if a.calibre.is_some_and(|c| c < 40) => Some(AaWeapon::CannonUnder40),
        Weapon::AutocannonHeavy => Some(AaWeapon::Cannon40Plus),
        Weapon::Hmg => Some(AaWeapon::Hmg),
        _ => None,
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, aa_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

/// The Fire phase of a [`Command::FireAa`]: opening fire gives a concealed
/// firer away.
fn aa_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    let Some(Command::FireAa { element, squadron }) = current.0.clone() else { return };
    current.0 = None;
    let bound = t.battle.clock.bound();
    let mut els = t.elements.one(&t.roster, &element);
    if let Some(f) = els.as_mut() {
        super::shared::reveal(&mut t.log, bound, f, warbound_rules::concealment::ConcealedActivity::Fire);
    }
    aa_fire(&mut t, &element, &squadron);
    let mut els = t.elements.one(&t.roster, &element);
    if let Some(f) = els.as_mut() {
        f.apply(Change::Fired);
    }
    super::turn::phase_done(&mut t, Phase::Fire, &[]);
}

/// *Heroes All*, "Anti aircraft fire": the firers spot the squadron (a D6 by
/// the weather; automatic after a ground attack this bound), then fire at its
/// leading machine over the table; each damage takes a point of strength.
pub(super) fn aa_fire(t: &mut Battlefield, element: &str, squadron: &str) {
    let bound = t.battle.clock.bound();
    let Some((s, k)) = squadron_of(t, squadron) else { return };
    let els = t.elements.views();
    let Some(f) = t.roster.find(&els, element) else {
        drop(els);
        t.fail("aa fire", element, "no element of the battle");
        return;
    };
    let Some((weapon, times)) = aa_weapon(&f.view(), &t.codex.0) else { return };
    let night = t.battle.clock.light() == warbound_rules::day::Light::Night;
    let q = &t.sides.0[s].squadrons[k];
    let Some(m) = q.machines.iter().position(|m| matches!(m.position, Position::OverTable(_))) else { return };
    let need = aircraft::ground_spot_need(t.battle.weather.sky, night, q.machines[m].attacked_ground);
    let (seen, e) = aircraft::spot(need, squadron, &mut t.dice.0, element);
    t.log.push(bound, e.target(squadron.to_owned()));
    if !seen {
        return;
    }
    // "AA fire cannot be conducted at medium level aircraft if air-to-air
    // combat is taking place": both sides' machines over the table at medium.
    let dogfight_at_medium = over_table(&t.sides).iter().any(|o| o.in_dogfight);
    let mut damages = 0;
    for _ in 0..times {
        if let Ok((d, e)) = aircraft::aa_fire(weapon, &q.machines[m], dogfight_at_medium, &mut t.dice.0, element) {
            t.log.push(bound, e.target(squadron.to_owned()));
            damages += d;
        }
    }
    let mut now = q.machines[m].clone();
    let (_, counted, e) = aircraft::take_damage(&mut now, damages, bound, &mut t.dice.0, squadron);
    t.log.push(bound, e);
    drop(els);
    t.sides.apply(s, SideChange::Machine(k, m, now));
    if let Some(mut ac) = t.sides.0[s].air_command.clone() {
        ac.damages += u32::from(counted);
        t.sides.apply(s, SideChange::AirCommand(ac));
    }
}

/// The Air Command CO's card: "share target information" and "take any
/// Continuous Momentum tests due since his last activation" — a D6 a damage,
/// 1-3 off his score; at 0 he withdraws every machine.
pub(super) fn air_command_turn(t: &mut Battlefield, s: usize) {
    let bound = t.battle.clock.bound();
    let Some(mut ac) = t.sides.0[s].air_command.clone() else { return };
    if ac.damages > 0 {
        let (cms, withdraws, e) = aircraft::air_command_cm(ac.cms, ac.damages, &mut t.dice.0, &ac.id);
        t.log.push(bound, e);
        ac.cms = cms;
        ac.damages = 0;
        ac.withdrawn |= withdraws;
        t.sides.apply(s, SideChange::AirCommand(ac));
        if withdraws {
            for k in 0..t.sides.0[s].squadrons.len() {
                leave_for_good(t, s, k);
            }
        }
    }
    let targets: Vec<String> = t.sides.0[s].squadrons.iter().filter_map(|q| q.target.clone()).collect();
    t.sides.apply(s, SideChange::Knows(targets));
}

/// The side whose Air Command holds card `id`.
pub(super) fn air_command_of(t: &Battlefield, id: &str) -> Option<usize> {
    t.sides.0.iter().position(|side| side.air_command.as_ref().is_some_and(|ac| ac.id == id))
}
