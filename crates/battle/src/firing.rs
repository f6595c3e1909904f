//! The Fire phase (*Heroes All*, "How to fire weapons" and "Effects of hits"):
//! each firing team that reaches the target throws its volley over open
//! sights; hits become casualties, HE effects or AT results against the
//! Defence Values; the target accrues its CM tests (FYOB Momentum Test
//! Charts), checks for its officers, and leaves the table if nothing is left.

use super::change::{Change, Held, HeldBattle};
use crate::prelude::*;
use warbound_rules::inches::Inches;
use warbound_rules::{
    buildings::HeHit,
    codex::Codex,
    command::{self, MoraleCause},
    dice::Dice,
    effects::{self, VehicleState},
    facing::{self, facing_along},
    fire_tests::{ChartTarget, FireResults},
    firing::{self, Cover, IndirectFire, IndirectMove, OpenSightsFire, Ranging, Weapon},
    forces::{FiringTeam, Shooter},
    geometry::distance,
    observation::Momentum,
    order_dice::{Act, Phase},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    bridging::erode_bridges,
    command::{Command, Current},
    invariant::InvariantFailures,
    log::BattleLog,
    pair_mut,
    shared::{accrue_fire, building_hit, chart_of, he_target},
    sorted,
    state::{Build, ElementView, Flow, LastShot, Status},
    visible::Sight,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, fire_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

fn fire_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    let (element, target, aimed) = match current.0.clone() {
        Some(Command::Fire { element, target }) => (element, target, false),
        Some(Command::AimedFire { element, target }) => (element, target, true),
        _ => return,
    };
    current.0 = None;
    let Flow::Acting(turn) = &*t.flow else { return };
    let stance = Stance::of(turn, aimed);
    if aimed {
        // FYOB "Act" (iv): the aim is an Act of the Act phase, taken first.
        super::turn::phase_done(&mut t, Phase::Act, &[Act::Aim]);
    }
    do_fire(&mut t, &element, &target, stance);
    super::turn::phase_done(&mut t, Phase::Fire, &[]);
}

/// How an element fires this turn: on the move or not, its CM tests'
/// failures this bound, and whether it used an Act to aim.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stance {
    pub(super) on_the_move: bool,
    pub(super) failures: u8,
    pub(super) aimed: bool,
}

impl Stance {
    /// A stance as given: on the move or not, the CM tests' failures this
    /// bound, aimed or not.
    pub fn new(on_the_move: bool, failures: u8, aimed: bool) -> Self {
        Self { on_the_move, failures, aimed }
    }

    /// How the element of `turn` fires now: on the move when its Order Die
    /// is Move or it has moved this turn (*Heroes All*, "-1 firing on the
    /// move"), with its CM tests' failures, aimed or not.
    pub(super) fn of(turn: &super::state::Turn, aimed: bool) -> Self {
        Self {
            on_the_move: turn.orders.order == Phase::Move || turn.taken.contains(&Phase::Move),
            failures: turn.failures,
            aimed,
        }
    }
}

/// Every firing team of `element` that reaches `target` fires at it.
pub(super) fn do_fire(t: &mut Battlefield, element: &str, target: &str, stance: Stance) {
    // Men aboard a transport fire its weapons (Heroes All, "Transport elements").
    let element = &super::transport::driver(t, element);
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let codex = &*codex;
    let mut els = sorted(&mut t.elements);
    let (Some(i), Some(j)) = (t.roster.index(element), t.roster.index(target)) else {
        let what = format!("{element} or {target} is no element of the battle");
        t.failures.record(&mut t.log, bound, "fire", element, what);
        return;
    };
    // Opening fire gives a concealed firer away.
    super::shared::reveal(&mut t.log, bound, &mut els[i], warbound_rules::concealment::ConcealedActivity::Fire);
    let target_edge = t.sides.0[els[j].identity.side].home(els[j].identity.company);
    let sight = Sight::new(&t.battle, codex);
    let teams = short_crews_apart(sight.teams_in_range(&els[i].view(), &els[j].view()), &els[i].view(), codex);
    let cover = sight.cover(&els[i].view(), &els[j].view());
    let (firer, tgt) = pair_mut(&mut els, i, j);
    let d = distance(firer.place.at, tgt.place.at);
    let mut damage = FireResults::default();
    let mut out = Out { dice: &mut t.dice.0, log: &mut t.log, failures: &mut t.failures, bound, battle: &mut t.battle };
    for (team, missing) in &teams {
        if team.row.row().procedure == firing::Procedure::Flame {
            if flame(&mut out, team, firer, tgt, target_edge, &mut damage) {
                use_rounds(firer, team);
            }
            continue;
        }
        let indirect_fire =
            matches!(team.row.row().procedure, firing::Procedure::Mortar { .. } | firing::Procedure::Rockets);
        let shot = if indirect_fire {
            None
        } else {
            match open_sights(team, &firer.view(), &tgt.view(), cover, stance, codex) {
                Some(shot) => Some(shot),
                None => continue,
            }
        };
        let shots_each = match *missing {
            0 => None,
            missing => {
                let (shots, event) = firing::crew_check(team.row, missing, &mut *out.dice);
                out.log.push(bound, event.actor(firer.id()).target(tgt.id()));
                if shots == 0 {
                    continue;
                }
                Some(shots)
            }
        };
        let Some((weapon, he, mut fire)) = shot else {
            if indirect(&mut out, team, firer, tgt, d, &mut damage) {
                use_rounds(firer, team);
            }
            continue;
        };
        fire.shots_each = shots_each;
        let volley = match firing::fire_open_sights(&fire, &mut *out.dice) {
            Ok(v) => v,
            Err(e) => {
                debug!("{} cannot fire {:?}: {e:?}", firer.id(), weapon);
                continue;
            }
        };
        out.log.push(bound, volley.event().actor(firer.id()).target(tgt.id()));
        use_rounds(firer, team);
        // Direct fire at a vehicle is an AT attack or nothing (see `hit`).
        let he = he && !tgt.force.build.is_vehicle();
        let attack = weapon.row().attack_at(volley.assessment.band).is_some();
        under(&mut out, &mut damage, (weapon.row(), he, attack), &firer.view(), &tgt.view(), d);
        for _ in 0..volley.hits {
            if tgt.spent() {
                break;
            }
            hit(&mut out, weapon, he, volley.assessment.band, tgt, firer.place.at, target_edge, &mut damage);
        }
    }
    if let Build::Afv { armour, .. } = firer.force.build
        && matches!(chart_of(&tgt.view()), ChartTarget::Infantry { .. })
        && (damage.small_arms || damage.he || damage.flame)
    {
        damage.from_armour = Some(suitable_at_weapon(&tgt.view(), armour, codex));
    }
    firer.apply(Change::Fired);
    firer.apply(Change::Shot(LastShot { target: tgt.id().to_owned(), from: firer.place.at, at: tgt.place.at }));
    let firer_id = firer.id().to_owned();
    tgt.apply(Change::FiredOnBy(firer_id.clone()));
    let unobserved = unobserved_by_target(&tgt.view(), &firer_id);
    accrue_tests(&mut out, tgt, &damage, unobserved, cover);
    super::shared::casualties(
        (&mut *out.log, &mut *out.failures),
        out.dice,
        bound,
        &mut t.sides,
        tgt,
        damage.casualties,
    );
    if tgt.spent() && tgt.presence.status.on_table() {
        super::shared::leave(out.log, bound, tgt, Status::Destroyed, "nothing left that fights");
    }
}

/// The firing teams with every short-crewed weapon or gun taken out of its
/// team to fire alone, each with the men its crew lacks (0 for the rest):
/// *Heroes All*, "Weapons table notes", "Crewed": "needs the whole crew to
/// fire at full rate. If it has less than a full crew, throw a D6 for each
/// missing man". Reading: a short crew's weapon fires as its own team, so
/// its failed throw never slows the full crews beside it; vehicles' guns are
/// not crew-served weapons (test `a_short_crewed_mmg_throws_for_each_missing_man`).
pub(super) fn short_crews_apart(teams: Vec<FiringTeam>, firer: &ElementView, codex: &Codex) -> Vec<(FiringTeam, u8)> {
    let short = |s: &Shooter| -> Option<(u8, u8)> {
        let Shooter::Piece(p, a) = *s else { return None };
        let piece = firer.force.element.pieces.get(p)?;
        let entry = codex.get(&piece.codex).ok()?;
        let missing = entry.crew.saturating_sub(piece.crew);
        let weapons = entry.armament.get(a)?.count;
        (entry.kind == warbound_rules::codex::Kind::Weapon && missing > 0).then_some((missing, weapons))
    };
    let mut out = Vec::new();
    for mut team in teams {
        if !team.row.row().crewed {
            out.push((team, 0));
            continue;
        }
        let mut full = Vec::new();
        for s in std::mem::take(&mut team.shooters) {
            match short(&s) {
                Some((missing, weapons)) => {
                    let weapons = if team.kind == warbound_rules::forces::TeamKind::Artillery { 1 } else { weapons };
                    team.weapons = team.weapons.saturating_sub(weapons);
                    out.push((FiringTeam { kind: team.kind, row: team.row, weapons, shooters: vec![s] }, missing));
                }
                None => full.push(s),
            }
        }
        if !full.is_empty() {
            team.shooters = full;
            out.push((team, 0));
        }
    }
    out
}

/// One team's shot over open sights at `tgt`, as the fire phase takes it.
fn open_sights(
    team: &FiringTeam,
    firer: &ElementView,
    tgt: &ElementView,
    cover: Cover,
    stance: Stance,
    codex: &Codex,
) -> Option<(Weapon, bool, OpenSightsFire)> {
    let (weapon, he) = weapon_for(team, firer, tgt, codex)?;
    // *Heroes All*: "+1 for a 2nd shot at a stationary target from the same
    // position". Reading: its last Fire phase was at this target, from where
    // it stands, and the target stands where it stood then (test
    // `a_second_shot_from_the_same_place_gets_plus_one`).
    let second = firer
        .actions
        .last_shot
        .as_ref()
        .is_some_and(|s| s.target == tgt.id() && s.from == firer.place.at && s.at == tgt.place.at);
    let fire = OpenSightsFire {
        weapon,
        weapons: team.weapons,
        shots_each: None,
        distance: distance(firer.place.at, tgt.place.at),
        he,
        target: tgt.force.build.fire_target(),
        cover: fitting(cover, tgt.force.build),
        firer_quality: firer.force.fire_and_cm_quality(),
        firing_on_move: stance.on_the_move,
        target_moving: tgt.actions.this_bound.moved,
        second_shot_same_position: second,
        aimed: stance.aimed,
        unobserved_autospot: !firer.intel.known.contains(tgt.id()),
        // *Heroes All*, "Snipers": "They shoot using the normal rifle rules but
        // only need a 4+ to hit."
        sniper: firer.force.sniper && weapon == Weapon::Rifle,
        smoke: false,
        momentum: Momentum { cms: firer.force.element.cms.clamp(1, 6), failures: stance.failures },
    };
    Some((weapon, he, fire))
}

/// The odds of a volley before it is fired, from the rules core's exact
/// chances: the shots of the teams firing over open sights and of flame
/// weapons (each a hit), the hits to expect, and the chance of at least one
/// hit (mortars and rockets, fired indirectly, are not counted).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FireOdds {
    pub shots: u32,
    pub expected_hits: f64,
    pub at_least_one_hit: f64,
}

pub fn fire_odds(sight: &Sight, firer: &ElementView, tgt: &ElementView, stance: Stance) -> Option<FireOdds> {
    let codex = sight.codex;
    let cover = sight.cover(firer, tgt);
    let mut odds = FireOdds { shots: 0, expected_hits: 0.0, at_least_one_hit: 0.0 };
    let mut miss_all = 1.0;
    for team in sight.teams_in_range(firer, tgt) {
        if matches!(team.row.row().procedure, firing::Procedure::Mortar { .. } | firing::Procedure::Rockets) {
            continue;
        }
        // *Heroes All*, "Flame weapons": "an automatic hit if fired within range".
        if team.row.row().procedure == firing::Procedure::Flame {
            odds.shots += u32::from(team.weapons);
            odds.expected_hits += f64::from(team.weapons);
            miss_all = 0.0;
            continue;
        }
        let Some((_, _, fire)) = open_sights(&team, firer, tgt, cover, stance, codex) else { continue };
        let Ok(a) = firing::assess_open_sights(&fire) else { continue };
        let p = a.chance_each();
        odds.shots += u32::from(a.shots);
        odds.expected_hits += f64::from(a.shots) * p;
        miss_all *= (1.0 - p).powi(i32::from(a.shots));
    }
    odds.at_least_one_hit = 1.0 - miss_all;
    (odds.shots > 0).then_some(odds)
}

/// Whether an Act used to aim would help any of its shots at `tgt`: only
/// AT or HE fire is aimed (*Heroes All*, "+1 when firing AT/HE on an ACT
/// order"; FYOB "Act", (iv): "'aim' a HE/AT shot").
pub(super) fn aim_counts(sight: &Sight, firer: &ElementView, tgt: &ElementView, failures: u8) -> bool {
    !aimed_shots(sight, firer, tgt, failures).is_empty()
}

/// Whether the Auto side aims at `tgt`: its aim counts, and the target is
/// at long range for an aimed weapon or in cover.
pub(super) fn aim_worth(sight: &Sight, firer: &ElementView, tgt: &ElementView, failures: u8) -> bool {
    let shots = aimed_shots(sight, firer, tgt, failures);
    !shots.is_empty() && (sight.cover(firer, tgt) != Cover::Open || shots.iter().any(|a| a.band == firing::Band::Long))
}

/// The shots at `tgt` an aim would add its +1 to.
fn aimed_shots(sight: &Sight, firer: &ElementView, tgt: &ElementView, failures: u8) -> Vec<firing::HitAssessment> {
    let cover = sight.cover(firer, tgt);
    let stance = Stance { on_the_move: false, failures, aimed: true };
    sight
        .teams_in_range(firer, tgt)
        .iter()
        .filter_map(|team| open_sights(team, firer, tgt, cover, stance, sight.codex))
        .filter_map(|(_, _, fire)| firing::assess_open_sights(&fire).ok())
        .filter(|a| a.modifiers.has(firing::Modifier::Aimed))
        .collect()
}

/// The battle's dice, log and table, borrowed apart from the elements.
pub(super) struct Out<'a, 'w> {
    pub(super) dice: &'a mut Dice,
    pub(super) log: &'a mut BattleLog,
    pub(super) failures: &'a mut InvariantFailures,
    pub(super) bound: u32,
    pub(super) battle: &'a mut HeldBattle<'w>,
}

fn unobserved_by_target(tgt: &ElementView, firer: &str) -> bool {
    !tgt.intel.known.contains(firer)
}

/// Hard cover is only for men and guns; a vehicle is never "in the open".
fn fitting(cover: Cover, build: Build) -> Cover {
    match (cover, build.is_vehicle()) {
        (Cover::Hard | Cover::Pillbox, true) | (Cover::Open, true) => Cover::Soft,
        (c, _) => c,
    }
}

/// The row a team fires at this target, and whether it fires HE: AT fire at
/// vehicles; small arms or HE at men; an AT gun at men fires its HE shell
/// ("a 2pdr gun (AT class 2 and no HE)" cannot).
pub(super) fn weapon_for(
    team: &FiringTeam,
    _firer: &ElementView,
    tgt: &ElementView,
    codex: &Codex,
) -> Option<(Weapon, bool)> {
    let row = team.row.row();
    let has_attack = row.attack.iter().any(Option::is_some);
    match tgt.force.build {
        Build::Afv { .. } => has_attack.then_some((team.row, false)),
        Build::SoftSkin => Some((team.row, false)),
        Build::Infantry | Build::Guns { .. } => {
            if !has_attack {
                return Some((team.row, row.he.is_some() && row.procedure == firing::Procedure::Howitzer));
            }
            let shell = team.shooters.iter().find_map(|s| match s {
                Shooter::Piece(p, a) => {
                    let piece = _firer.force.element.pieces.get(*p)?;
                    codex.get(&piece.codex).ok()?.armament.get(*a)?.he
                }
                Shooter::Figure(_) => None,
            });
            shell.map(|w| (w, true))
        }
    }
}

/// Mortars and rockets (*Heroes All*, "Indirect Fire"): one shot a weapon,
/// each needing its score; each hit is an HE hit on the target. Ranging on
/// the same target carries from bound to bound while it stays put. Returns
/// whether the team fired.
fn indirect(
    out: &mut Out,
    team: &FiringTeam,
    firer: &mut Held,
    tgt: &mut Held,
    d: Inches,
    damage: &mut FireResults,
) -> bool {
    let row = team.row.row();
    // "Walked" from where the fire last fell: the same target, wherever it
    // stands now, or another within 3 inches of a hit (readings: "Walking fire").
    let walked_from = firer.actions.ranging_at.map(|at| distance(at, tgt.place.at));
    let (mut ranging, mut walked) = match (&firer.actions.ranging, walked_from) {
        (Some((id, r)), Some(w)) if id == tgt.id() => (*r, w.get()),
        (Some((_, Ranging::OnTarget)), Some(w)) if w <= WALK => (Ranging::OnTarget, w.get()),
        _ => (Ranging::First, 0.0),
    };
    // "if the target moved more than 3 inches on this bound".
    let moved = match tgt.actions.this_bound.moved_inches {
        m if m > WALK.get() => IndirectMove::Over3,
        _ if tgt.actions.this_bound.moved => IndirectMove::UpTo3,
        _ => IndirectMove::Static,
    };
    let crew_in_wood = warbound_rules::geometry::depth_in_wood(&out.battle.terrain, firer.place.at).get();
    for _ in 0..team.weapons {
        let fire = IndirectFire {
            weapon: team.row,
            distance: d,
            smoke: false,
            ranging,
            target_moved: moved,
            walked,
            crew_in_wood,
        };
        // Every later shot falls where the last one aimed.
        walked = 0.0;
        let (hit, event) = match firing::fire_indirect(&fire, &mut *out.dice) {
            Ok(fired) => fired,
            // "They cannot fire if they are more than 3 inches into a wood."
            Err(firing::FireError::CrewInWood) => {
                debug!("{}'s crews are {crew_in_wood} inches into a wood and cannot fire", firer.id());
                return false;
            }
            Err(e) => {
                let what = format!("the indirect fire at {} cannot be resolved: {e:?}", tgt.id());
                out.failures.record(out.log, out.bound, "fire", firer.id(), what);
                return false;
            }
        };
        out.log.push(out.bound, event.actor(firer.id()).target(tgt.id()));
        under(out, damage, (team.row.row(), true, false), &firer.view(), &tgt.view(), d);
        ranging = match (hit, ranging) {
            (true, _) | (false, Ranging::OnTarget) => Ranging::OnTarget,
            (false, Ranging::First) => Ranging::Ladder { shot: 2 },
            (false, Ranging::Ladder { shot }) => Ranging::Ladder { shot: shot.saturating_add(1) },
        };
        let column = row.he.unwrap_or(effects::HeColumn::A);
        if hit {
            let (log, failures) = (&mut *out.log, &mut *out.failures);
            let reach = (tgt.place.at, super::shared::CONTACT);
            erode_bridges(out.battle, out.dice, (log, failures), out.bound, reach, column, firer.id());
        }
        if hit && !tgt.spent() {
            he_on(out, column, tgt, damage);
            if tgt.force.build == Build::Infantry && warbound_rules::strategic::shell_knocks_off_net(team.row, None) {
                super::shared::knock_off_net(out.log, out.bound, tgt, "hit by mortar fire of 81mm or more");
            }
        }
    }
    firer.apply(Change::Ranging(tgt.id().to_owned(), ranging, tgt.place.at));
    true
}

/// *Heroes All*, "Flame weapons": "These are an automatic hit if fired
/// within range. Use the Attack Value against armour/softs and the HE effect
/// against infantry and buildings etc. Buildings automatically catch fire
/// when hit." Each weapon of the team hits once. Reading: the target is
/// under flame fire (FYOB "Under fire from flame weapon"), not under HE or AT
/// fire besides (test `a_flamethrower_hits_the_section_and_puts_it_under_flame`).
/// Returns whether the team fired.
fn flame(
    out: &mut Out,
    team: &FiringTeam,
    firer: &mut Held,
    tgt: &mut Held,
    edge: warbound_rules::scenario::Edge,
    damage: &mut FireResults,
) -> bool {
    let d = distance(firer.place.at, tgt.place.at);
    let (attack, column, event) = match firing::fire_flame(team.row, d) {
        Ok(fired) => fired,
        Err(e) => {
            let what = format!("the flame at {} cannot be resolved: {e:?}", tgt.id());
            out.failures.record(out.log, out.bound, "fire", firer.id(), what);
            return false;
        }
    };
    out.log.push(out.bound, event.actor(firer.id()).target(tgt.id()).input("weapons", team.weapons, "one hit each"));
    damage.flame = true;
    for _ in 0..team.weapons {
        if tgt.spent() {
            break;
        }
        match tgt.force.build {
            Build::Afv { armour, .. } => at_on(out, attack, armour, tgt, firer.place.at, edge, damage),
            Build::SoftSkin => {
                let armour = effects::ArmourClass::SoftSkinned;
                at_on(out, attack, armour, tgt, firer.place.at, edge, damage);
            }
            Build::Infantry | Build::Guns { .. } => {
                he_hit_on(out, HeHit { column, multiplier: 1, flame: true }, tgt, damage);
            }
        }
    }
    true
}

/// *Heroes All*, "AT guns firing at armour/softs": the quadrant the firer at
/// `from` sees of the hull, pointing the way it last drove (away from its own
/// `edge` until it has moved).
fn seen_of(tgt: &Held, from: warbound_rules::terrain::Point, edge: warbound_rules::scenario::Edge) -> effects::Facing {
    facing_along(tgt.place.at, tgt.place.heading.unwrap_or_else(|| facing::ahead(edge)), from)
}

/// One AT hit of `attack` on a vehicle of `armour`, fired from `from`.
fn at_on(
    t: &mut Out,
    attack: i8,
    armour: effects::ArmourClass,
    tgt: &mut Held,
    from: warbound_rules::terrain::Point,
    edge: warbound_rules::scenario::Edge,
    damage: &mut FireResults,
) {
    let state = tgt.vehicle.state.unwrap_or_default();
    let (after, _, event) = effects::at_hit(attack, armour, seen_of(tgt, from, edge), state, t.dice);
    t.log.push(t.bound, event.target(tgt.id()));
    apply_vehicle(t, tgt, after, damage);
}

/// *Heroes All*, Indirect Fire: the 3 inches a target may move, or fire be
/// walked, and a hit still hold at 3+.
const WALK: Inches = Inches(3.0);

/// One HE hit on an element (*Heroes All*, "HE Effects Table"): on a
/// standing building it stands in, else on its men, gun or vehicle.
pub(super) fn he_on(t: &mut Out, column: effects::HeColumn, tgt: &mut Held, damage: &mut FireResults) {
    he_hit_on(t, HeHit::he(column), tgt, damage);
}

/// One HE or flame hit on an element: on a standing building it stands in
/// (flame setting it on fire), else on its men, gun or vehicle.
fn he_hit_on(t: &mut Out, hit: HeHit, tgt: &mut Held, damage: &mut FireResults) {
    let column = hit.column;
    if !tgt.force.build.is_vehicle()
        && let Some(lost) = building_hit(t.battle, &tgt.view(), hit, t.dice, (t.log, t.failures), t.bound)
    {
        damage.casualties += tgt.apply(Change::LoseMen(u32::from(lost)));
        return;
    }
    if tgt.force.build == Build::SoftSkin {
        let (after, event) = effects::soft_skin_he_hit(tgt.vehicle.state.unwrap_or_default());
        t.log.push(t.bound, event.target(tgt.id()));
        apply_vehicle(t, tgt, after, damage);
        return;
    }
    let Some(target) = he_target(&tgt.view()) else { return };
    let (out, event) = match effects::he_hit(column, target, t.dice) {
        Ok(hit) => hit,
        Err(e) => {
            let what = format!("the HE hit on {} cannot be resolved: {e:?}", tgt.id());
            t.failures.record(t.log, t.bound, "HE hit", tgt.id(), what);
            return;
        }
    };
    t.log.push(t.bound, event.target(tgt.id()));
    damage.casualties += tgt.apply(Change::LoseMen(u32::from(out.casualties)));
    if out.vehicle_damaged {
        let before = tgt.vehicle.state.unwrap_or_default();
        apply_vehicle(t, tgt, before.after(effects::AtResult::Damaged), damage);
    }
    if out.weapon_destroyed {
        let crew = tgt.apply(Change::LoseWeapon);
        if crew > 0 {
            damage.guns_lost += 1;
            damage.casualties += crew;
        }
    }
}

/// One bound of fire used by every weapon of the team that counts its rounds.
pub(super) fn use_rounds(firer: &mut Held, team: &FiringTeam) {
    for &s in &team.shooters {
        firer.apply(Change::UseRound(s));
    }
}

/// One hit's effect on the target.
#[allow(clippy::too_many_arguments)]
pub(super) fn hit(
    t: &mut Out,
    weapon: Weapon,
    he: bool,
    band: firing::Band,
    tgt: &mut Held,
    from: warbound_rules::terrain::Point,
    edge: warbound_rules::scenario::Edge,
    damage: &mut FireResults,
) {
    let row = weapon.row();
    match tgt.force.build {
        Build::Afv { armour, .. } => {
            let Some(attack) = row.attack_at(band) else { return };
            at_on(t, attack, armour, tgt, from, edge, damage);
        }
        Build::SoftSkin => {
            let state = tgt.vehicle.state.unwrap_or_default();
            let after = match row.attack_at(band) {
                Some(attack) => {
                    let armour = effects::ArmourClass::SoftSkinned;
                    let (after, _, event) = effects::at_hit(attack, armour, seen_of(tgt, from, edge), state, t.dice);
                    t.log.push(t.bound, event.target(tgt.id()));
                    after
                }
                None => effects::soft_skin_hit(state),
            };
            apply_vehicle(t, tgt, after, damage);
        }
        Build::Infantry | Build::Guns { .. } => {
            if he {
                he_on(t, row.he.unwrap_or(effects::HeColumn::A), tgt, damage);
            } else {
                damage.casualties += tgt.apply(Change::LoseMen(1));
            }
        }
    }
}

pub(super) fn apply_vehicle(t: &mut Out, tgt: &mut Held, after: VehicleState, damage: &mut FireResults) {
    let before = tgt.vehicle.state.unwrap_or_default();
    tgt.apply(Change::Vehicle(after));
    if after == VehicleState::Damaged && before != VehicleState::Damaged {
        damage.damaged = true;
        super::shared::knock_off_net(t.log, t.bound, tgt, "its vehicle damaged by AT or HE fire");
    }
    if after == VehicleState::Brewed && before != VehicleState::Brewed {
        let aboard = tgt.men().min(u32::from(u8::MAX)) as u8;
        let (lost, event) = effects::brew_casualties(aboard, t.dice);
        t.log.push(t.bound, event.target(tgt.id()));
        damage.casualties += tgt.apply(Change::LoseMen(u32::from(lost)));
    }
}

/// The CM tests the fire leaves the target to take on its next activation.
/// The fire a volley or shell puts its target under, hit or miss (FYOB
/// "Definition of 'Under fire'"): from a weapon in range that can harm it
/// (small arms cannot harm an AFV).
pub(super) fn under(
    out: &mut Out,
    damage: &mut FireResults,
    (row, he, attack): (&'static firing::WeaponRow, bool, bool),
    firer: &ElementView,
    tgt: &ElementView,
    d: Inches,
) {
    let chart = chart_of(tgt);
    let can_harm = he || attack || !matches!(chart, ChartTarget::Afv { .. });
    let range = if he { row.he_range.unwrap_or(row.range) } else { row.range };
    match command::under_fire(range, d, can_harm) {
        Ok(true) => damage.under(FireResults::under_fire_from(chart, he, attack)),
        Ok(false) => {}
        Err(e) => {
            let what = format!("whether {} is under its fire cannot be told: {e:?}", tgt.id());
            out.failures.record(out.log, out.bound, "fire", firer.id(), what);
        }
    }
}

/// FYOB "Under fire from armour with a suitable AT weapon" / "without": the
/// men under an AFV's fire have a suitable AT weapon when one of their
/// weapons has an Attack Value that could damage or brew its armour from the
/// front at short range (*Heroes All* "AT guns firing at armour/softs"). Test
/// `riflemen_under_a_tanks_fire_take_the_armour_row`.
pub(super) fn suitable_at_weapon(tgt: &ElementView, armour: effects::ArmourClass, codex: &Codex) -> bool {
    warbound_rules::forces::firing_teams(&tgt.force.element, codex).unwrap_or_default().iter().any(|team| {
        team.row.row().attack[0].is_some_and(|a| effects::at_odds(a, armour, effects::Facing::Front)[0] < 1.0)
    })
}

/// The set of tests the firing element's volleys leave on the target, and
/// the 2-player game's morale throw for an AFV damaged (*Heroes All*,
/// "Morale"; those for casualties come with the officers' checks,
/// `shared::casualties`).
fn accrue_tests(t: &mut Out, tgt: &mut Held, damage: &FireResults, unobserved: bool, cover: Cover) {
    accrue_fire(tgt, damage, (unobserved, cover), "volleys", |ev| t.log.push(t.bound, ev));
    if damage.damaged && matches!(tgt.force.build, Build::Afv { .. }) {
        tgt.apply(Change::MoraleDue(MoraleCause::AfvDamaged, 1));
    }
}
