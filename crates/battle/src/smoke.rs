//! Firing smoke (*Heroes All*, "Firing smoke"): "A smoke round counts as one
//! round of the guns allocation. Pick the target for the smoke and fire as
//! usual with a +2 hit modifier on the D6. If a hit is obtained, place 3 x 1
//! inch smokeballs on this spot for 2 bounds." Mortars fire it with the
//! Indirect Fire rules, guns over open sights; the screen it lays hides
//! what lies through, in or behind it ([`super::visible::Sight::between`])
//! until it clears at the end of its second bound.

use super::change::{BattleChange, Change};
use crate::prelude::*;
use warbound_rules::{
    codex::Codex,
    concealment::ConcealedActivity,
    event::{Book, EventKind, RuleEvent, RuleRef},
    firing::{self, FireTarget, IndirectFire, IndirectMove, OpenSightsFire, Ranging, SmokeScreen, Weapon},
    forces::{self, FiringTeam, Shooter},
    geometry::distance,
    observation::Momentum,
    order_dice::Phase,
    terrain::Point,
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{Command, Current},
    firing::{Stance, short_crews_apart, use_rounds},
    shared::cover_where,
    sorted,
    state::{ElementView, Elements, Flow, Smoke},
    visible::Sight,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, smoke_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

/// The Fire phase of a [`Command::Smoke`].
fn smoke_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    let Some(Command::Smoke { element, at }) = current.0.clone() else { return };
    current.0 = None;
    let Flow::Acting(turn) = &*t.flow else { return };
    let on_the_move = turn.orders.order == Phase::Move || turn.taken.contains(&Phase::Move);
    let stance = Stance { on_the_move, failures: turn.failures, aimed: false };
    lay(&mut t, &element, at, stance);
    super::turn::phase_done(&mut t, Phase::Fire, &[]);
}

/// A firing team that can put smoke on a spot: the row it fires the round
/// with, and whether it fires indirectly (a mortar) or over open sights.
#[derive(Debug, Clone)]
pub(super) struct SmokeTeam {
    pub(super) team: FiringTeam,
    pub(super) weapon: Weapon,
    pub(super) indirect: bool,
}

/// The firer's teams that fire smoke and reach `spot`: mortars, guns and
/// howitzers, an AT gun with its HE shell's row ([`Weapon::fires_smoke`]).
pub(super) fn reach(firer: &ElementView, spot: Point, codex: &Codex) -> Vec<SmokeTeam> {
    let d = distance(firer.place.at, spot);
    armed(firer, codex).into_iter().filter(|(_, range)| range.band(d).is_ok()).map(|(team, _)| team).collect()
}

/// The firer's teams that fire smoke, each with the range of its round:
/// a mortar's own, a gun's HE range.
fn armed(firer: &ElementView, codex: &Codex) -> Vec<(SmokeTeam, firing::WeaponRange)> {
    forces::firing_teams(&firer.force.element, codex)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|team| {
            let weapon = if team.row.fires_smoke() { team.row } else { shell(&team, firer, codex)? };
            if !weapon.fires_smoke() {
                return None;
            }
            let row = weapon.row();
            let indirect = matches!(row.procedure, firing::Procedure::Mortar { .. });
            let range = if indirect { row.range } else { row.he_range.unwrap_or(row.range) };
            Some((SmokeTeam { team, weapon, indirect }, range))
        })
        .collect()
}

/// The HE shell of a gun in the team, from its CODEX entry.
fn shell(team: &FiringTeam, firer: &ElementView, codex: &Codex) -> Option<Weapon> {
    team.shooters.iter().find_map(|s| match s {
        Shooter::Piece(p, a) => {
            let piece = firer.force.element.pieces.get(*p)?;
            codex.get(&piece.codex).ok()?.armament.get(*a)?.he
        }
        Shooter::Figure(_) => None,
    })
}

/// Whether the spot is seen for a team's smoke. "Pick the target for the
/// smoke and fire as usual"; "Weapon crews can either spot their own
/// targets or rely on spotters" (*Heroes All*, "Indirect Fire"). Reading:
/// the firer sees the spot; a mortar may rely instead on an element of its
/// own company on the table that sees it (test
/// `a_smoke_round_is_thrown_with_its_plus_two_and_lays_three_smokeballs`).
pub(super) fn spotted(sight: &Sight, firer: &ElementView, all: &Elements, spot: Point, indirect: bool) -> bool {
    sight.place_in_sight(firer, spot)
        || (indirect
            && all.iter().any(|f| {
                f.identity.side == firer.identity.side
                    && f.identity.company == firer.identity.company
                    && f.presence.status.on_table()
                    && sight.place_in_sight(f, spot)
            }))
}

/// The teams that fire smoke on `spot`: in reach, with the spot seen.
pub(super) fn teams(sight: &Sight, firer: &ElementView, all: &Elements, spot: Point) -> Vec<SmokeTeam> {
    reach(firer, spot, sight.codex).into_iter().filter(|t| spotted(sight, firer, all, spot, t.indirect)).collect()
}

/// `element`'s Fire phase spent on smoke at `at`: each team that may fires
/// its round until one hits, which lays the screen.
///
/// Reading: "If a hit is obtained, place 3 x 1 inch smokeballs on this
/// spot": one screen on the spot, however many rounds hit it; a team's
/// round is a round of its allocation fired or not; smoke rounds range on
/// the spot like any indirect fire on a static target, without carrying
/// the ranging over to the element's later fire.
pub(super) fn lay(t: &mut Battlefield, element: &str, at: (f32, f32), stance: Stance) {
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let codex = &*codex;
    let spot = Point(at.0, at.1);
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(element) else {
        t.failures.record(&mut t.log, bound, "smoke", element, format!("{element} is no element of the battle"));
        return;
    };
    // Opening fire gives a concealed firer away.
    super::shared::reveal(&mut t.log, bound, &mut els[i], ConcealedActivity::Fire);
    let sight = Sight::new(&t.battle, codex);
    let all = Elements::new(els.iter().map(|m| m.view()).collect(), &t.roster);
    let firer_view = els[i].view();
    let firing: Vec<(SmokeTeam, u8)> = teams(&sight, &firer_view, &all, spot)
        .into_iter()
        .flat_map(|st| {
            short_crews_apart(vec![st.team.clone()], &firer_view, codex)
                .into_iter()
                .map(move |(team, missing)| (SmokeTeam { team, ..st.clone() }, missing))
        })
        .collect();
    let cover = cover_where(&sight, spot);
    let crew_in_wood = warbound_rules::geometry::depth_in_wood(sight.terrain, firer_view.place.at).get();
    drop(all);
    let firer = &mut els[i];
    let d = distance(firer.place.at, spot);
    let momentum = Momentum { cms: firer.force.element.cms.clamp(1, 6), failures: stance.failures };
    let mut hit = false;
    for (st, missing) in &firing {
        if hit {
            break;
        }
        let shots_each = match *missing {
            0 => None,
            missing => {
                let (shots, event) = firing::crew_check(st.team.row, missing, &mut t.dice.0);
                t.log.push(bound, event.actor(firer.id()));
                if shots == 0 {
                    continue;
                }
                Some(shots)
            }
        };
        if st.indirect {
            let mut ranging = Ranging::First;
            for _ in 0..st.team.weapons {
                let fire = IndirectFire {
                    weapon: st.weapon,
                    distance: d,
                    smoke: true,
                    ranging,
                    target_moved: IndirectMove::Static,
                    walked: 0.0,
                    crew_in_wood,
                };
                let (on, event) = match firing::fire_indirect(&fire, &mut t.dice.0) {
                    Ok(fired) => fired,
                    // "They cannot fire if they are more than 3 inches into a wood."
                    Err(firing::FireError::CrewInWood) => break,
                    Err(e) => {
                        let what = format!("the smoke round at ({:.1}, {:.1}) cannot be resolved: {e:?}", at.0, at.1);
                        t.failures.record(&mut t.log, bound, "smoke", firer.id(), what);
                        break;
                    }
                };
                t.log.push(bound, event.actor(firer.id()).input("at", at, "the spot picked for the smoke"));
                if on {
                    hit = true;
                    break;
                }
                ranging = match ranging {
                    Ranging::First => Ranging::Ladder { shot: 2 },
                    Ranging::Ladder { shot } => Ranging::Ladder { shot: shot.saturating_add(1) },
                    Ranging::OnTarget => Ranging::OnTarget,
                };
            }
        } else {
            let fire = OpenSightsFire {
                weapon: st.weapon,
                weapons: st.team.weapons,
                shots_each,
                distance: d,
                he: true,
                target: FireTarget::Infantry,
                cover,
                firer_quality: firer.force.fire_and_cm_quality(),
                firing_on_move: stance.on_the_move,
                smoke: true,
                momentum,
                ..OpenSightsFire::default()
            };
            match firing::fire_open_sights(&fire, &mut t.dice.0) {
                Ok(volley) => {
                    t.log
                        .push(bound, volley.event().actor(firer.id()).input("at", at, "the spot picked for the smoke"));
                    hit = volley.hits > 0;
                }
                Err(e) => {
                    debug!("{} cannot fire smoke with {:?}: {e:?}", firer.id(), st.weapon);
                    continue;
                }
            }
        }
        use_rounds(firer, &st.team);
    }
    firer.apply(Change::Fired);
    if !hit {
        return;
    }
    let screen = SmokeScreen { fired_in: bound };
    let balls = warbound_rules::geometry::smokeballs(spot, firer.place.at);
    let smoke = Smoke { by: firer.id().to_owned(), spot, balls, screen };
    let event = RuleEvent::new(EventKind::Fire, RuleRef::new(Book::HeroesAll, "Firing smoke"))
        .actor(firer.id())
        .input("at", at, "the spot the smoke round hit")
        .input("balls", SmokeScreen::BALLS, "3 x 1 inch smokeballs, in a row across the line of fire")
        .input("bounds", SmokeScreen::BOUNDS, "for 2 bounds: this one and the next")
        .outcome(serde_json::json!({ "laid": balls.iter().map(|b| (b.0, b.1)).collect::<Vec<_>>(), "until_bound": bound + 1 }));
    t.log.push(bound, event);
    drop(els);
    t.battle.apply(BattleChange::Smoke(smoke));
}

/// The end of a bound: each screen laid the bound before this one clears
/// ("for 2 bounds").
pub(super) fn clear(t: &mut Battlefield) {
    let bound = t.battle.clock.bound();
    for k in (0..t.battle.smoke.len()).rev() {
        let s = &t.battle.smoke[k];
        if s.screen.stands_in(bound + 1) {
            continue;
        }
        let event = RuleEvent::new(EventKind::Fire, RuleRef::new(Book::HeroesAll, "Firing smoke"))
            .actor(s.by.clone())
            .input("at", (s.spot.0, s.spot.1), "the spot the smoke round hit")
            .input("laid_in", s.screen.fired_in, "for 2 bounds: the bound it was laid and the next")
            .outcome(serde_json::json!({ "cleared": true }));
        t.log.push(bound, event);
        t.battle.apply(BattleChange::SmokeClears(k));
    }
}

/// The Auto side's smoke (*Heroes All*, "Firing smoke"): a known enemy that
/// sees an infantry element of the firer's own company, on its way across
/// the open within the enemy's range, is hidden from it by smoke on his
/// position, where the firer's smoke reaches and is seen. Nearest such
/// friend first. Reading: smoke screens infantry crossing open ground under
/// the enemy's fire, the use a careful player makes of it; the Auto element
/// lays it only as its orders let it open fire freely (test
/// `the_auto_side_screens_its_infantry_with_smoke`).
pub(super) fn auto_spot(me: &ElementView, all: &Elements, enemies: &[ElementView], sight: &Sight) -> Option<Point> {
    if me.order.objective.activity.conduct().opens_fire != warbound_rules::command::OpensFire::Freely
        || armed(me, sight.codex).is_empty()
    {
        return None;
    }
    let friends = all.iter().filter(|f| {
        f.identity.side == me.identity.side
            && f.identity.company == me.identity.company
            && f.id() != me.id()
            && f.presence.status.on_table()
            && f.force.build == super::state::Build::Infantry
            && f.order.objective.activity.conduct().moves != warbound_rules::command::Moves::Stays
            && cover_where(sight, f.place.at) == firing::Cover::Open
    });
    // The known enemies whose position its smoke reaches and is seen.
    let reached: Vec<&ElementView> = enemies
        .iter()
        .filter(|e| me.intel.known.contains(e.id()) && !teams(sight, me, all, e.place.at).is_empty())
        .collect();
    if reached.is_empty() {
        return None;
    }
    let mut best: Option<(f32, Point)> = None;
    for f in friends {
        for e in &reached {
            let d = distance(f.place.at, e.place.at).get();
            if best.is_some_and(|(b, _)| b <= d) || !sight.in_range_of_any(e, f) || !sight.in_view(e, f) {
                continue;
            }
            best = Some((d, e.place.at));
        }
    }
    best.map(|(_, p)| p)
}
