//! Aircraft over the campaign map (FYOW 28): each morning the squadrons are
//! prepared and Air Command throws to fly (28.2–28.4, 28.12); a recce
//! squadron allowed to fly looks at the board its army most needs to see
//! (28.8); over a paper battle, ground-attack squadrons strike and fighters
//! patrol and engage (28.8–28.11), a squadron flying a second sortie when
//! none fresh is left (28.3); the enemy's AA guns on the board fire at
//! machines coming over it (28.10).

use serde_json::json;
use warbound_rules::day::{Light as DayLight, SESSIONS_PER_DAY};
use warbound_rules::event::{EventKind, RuleEvent};

use crate::air::firing::{
    AaGun, Mg, SpotTarget, aa_fire, air_spot_need, air_to_air_fire, ground_spot_need, mg_ground_attack, spot,
};
use crate::air::flying::{Chart, Flight, flight_time, flying_throw};
use crate::air::missions::{EnemyPosture, recce_detection};
use crate::air::squadron::Status;
use crate::air::{Conditions, Role, Sky as AirSky, Wind as AirWind};
use crate::map::attitude::Attitude;
use crate::map::board::BoardId;
use crate::map::common::Light;
use crate::play::state::{Campaign, fyow, ix};
use crate::weather::{ChanceOutcome, Climate, RallyWho, Sky, Wind, flying_section};

impl Campaign {
    /// FYOW 28.2–28.4 at the start of the day: preparation throws, Air
    /// Command's losses throw, and the decision to fly.
    pub(crate) fn air_start_of_day(&mut self) {
        let Some(today) = self.today.clone() else { return };
        let first_day_session = (1..=SESSIONS_PER_DAY).find(|s| {
            crate::army::calendar::CampaignDate::new(self.date.year(), self.date.month(), self.date.day(), *s)
                .is_ok_and(|d| d.light() == DayLight::Daylight)
        });
        let session = first_day_session.unwrap_or(1);
        let spell = today.spell(session).ok().cloned();
        let wind = today.wind_in_session(session).unwrap_or(Wind::Calm);
        let conditions =
            Conditions { sky: air_sky(spell.as_ref().map(|s| s.sky)), wind: air_wind(wind), light: Light::Daylight };
        let low_cloud = spell.is_some_and(|s| s.low_cloud);
        let chart = if self.file.climate == Climate::Winter { Chart::Winter } else { Chart::Standard };
        for a in 0..self.armies.len() {
            let Some(mut air) = self.armies[a].air.take() else { continue };
            let id = format!("{} Air Command", self.armies[a].name);
            let mut returned = 0u32;
            for (sq, _) in &mut air.squadrons {
                let (prep, e) = sq.prepare_day(&mut self.dice);
                self.log(e);
                returned += prep.iter().filter(|p| p.returned_to_service).count() as u32;
                sq.used_today = false;
            }
            // Reading (FYOW 28.12): the throw counts what is new since the last one;
            // the first day's preparation sets the count and neither loses nor rallies.
            let now = crate::air::command::AirLosses {
                damages: air.squadrons.iter().map(|(s, _)| s.damages()).sum(),
                inactive: air.squadrons.iter().map(|(s, _)| s.inactive()).sum(),
                lost: air.squadrons.iter().map(|(s, _)| s.lost()).sum(),
            };
            let losses = crate::air::command::AirLosses {
                damages: now.damages.saturating_sub(air.counted.damages),
                inactive: now.inactive.saturating_sub(air.counted.inactive),
                lost: now.lost.saturating_sub(air.counted.lost),
            };
            air.counted = now;
            if self.day > 1 {
                if losses.dice() > 0
                    && let Ok((_, e)) = air.command.losses_throw(losses, &mut self.dice, &id)
                {
                    self.log(e);
                }
                // "Throw 1D6 for each aircraft returning to service to rally" (FYOW 4.4, 28.12).
                if returned > 0
                    && let Ok((_, e)) = air.command.rally(returned, &mut self.dice, &id)
                {
                    self.log(e);
                }
            }
            // 32, the 4♣ and 4♥: Air Commands (everybody) "get an extra SC Rallying throw".
            let extra = self
                .cards_today
                .iter()
                .any(|c| matches!(c, ChanceOutcome::ExtraRally(RallyWho::AirCommands | RallyWho::Everybody)));
            if extra && let Ok((_, e)) = air.command.rally(1, &mut self.dice, &id) {
                self.log(e.input("card", "32: an extra SC Rallying throw", ""));
            }
            air.flying = None;
            // 25.8, 26.9: "When the Rain Gauge reaches 5, airstrips not using tarmac runways are inoperable."
            if today.unmetalled_airstrips_closed {
                for name in air.grass_strips.clone() {
                    self.log(
                        RuleEvent::new(EventKind::Weather, fyow(flying_section(self.file.climate)))
                            .actor(&name)
                            .input("rain_gauge", today.gauge_at_start, "5 or more")
                            .outcome(json!({ "flying": false, "reason": "its airstrip has no tarmac runway" })),
                    );
                }
            }
            if low_cloud {
                self.log(
                    RuleEvent::new(EventKind::Weather, fyow(flying_section(self.file.climate)))
                        .actor(&id)
                        .outcome(json!({ "flying": false, "reason": "low cloud" })),
                );
            } else if air.command.condition() != crate::air::command::AirCondition::Withdraw {
                let card = self
                    .cards_today
                    .iter()
                    .map(|c| if let ChanceOutcome::FlyingPermission(n) = c { *n } else { 0 })
                    .sum();
                let (throw, e) = flying_throw(conditions, chart, card, &mut self.dice, &id);
                self.log(e);
                air.flying = Some(throw);
            }
            let recce: Vec<usize> = air
                .squadrons
                .iter()
                .enumerate()
                .filter(|(_, (s, _))| s.role == Role::Recce && s.operational() > 0)
                .filter(|(_, (s, _))| !(today.unmetalled_airstrips_closed && air.grass_strips.contains(&s.name)))
                .map(|(i, _)| i)
                .collect();
            let may_recce = air.flying.is_some_and(|t| t.permits(Flight::Recce, conditions));
            self.armies[a].air = Some(air);
            if may_recce {
                for i in recce {
                    self.recce_flight(a, i, conditions);
                }
            }
        }
        if wind != Wind::Sandstorm {
            self.bombing_raids(conditions);
        }
    }

    /// The board an army most needs to see: the next board on its forces'
    /// roads to their objectives where the enemy is, else its first objective.
    fn recce_target(&self, a: usize) -> Option<BoardId> {
        let side = self.armies[a].side;
        let enemy = side.enemy();
        let ahead = self.forces.iter().filter(|f| f.side == side).find_map(|f| {
            let (here, to) = (f.board()?, f.objective.as_ref()?);
            let v = f.mover().profile().is_ok_and(|p| p.v_barred);
            self.road_route(here, to, v)?.into_iter().map(|l| l.to).find(|b| self.occupation[b].side_points(enemy) > 0)
        });
        ahead.or_else(|| self.armies[a].objectives.first().cloned())
    }

    /// FYOW 28.8: a recce machine over the target board for its Flight
    /// Time (28.6). Each session it is there the enemy's AA on the board
    /// fires at it (28.10), it throws to detect the enemy forces it has not
    /// yet spotted, and, having spotted any, makes an Information Gathering
    /// throw on them (17): "If the aircraft has sufficient Flight Time, it
    /// can remain over the Map Board for a number of sessions to make
    /// additional Information Gathering throws."
    pub(crate) fn recce_flight(&mut self, a: usize, squadron: usize, conditions: Conditions) {
        let Some(board) = self.recce_target(a) else { return };
        let side = self.armies[a].side;
        let enemies: Vec<(String, EnemyPosture)> = self.occupation[&board]
            .occupants
            .iter()
            .filter(|o| o.side != side)
            .map(|o| {
                let posture = match (o.entirely_concealed, o.attitude.attitude()) {
                    (true, _) => EnemyPosture::Concealed,
                    (false, Attitude::Deployed | Attitude::Fortified) => EnemyPosture::Deployed,
                    _ => EnemyPosture::PresentOrResting,
                };
                (o.force.clone(), posture)
            })
            .collect();
        let Some(air) = self.armies[a].air.as_mut() else { return };
        let sq = &air.squadrons[squadron].0;
        let (id, role, basing, endurance) = (sq.name.clone(), sq.role, sq.basing, sq.endurance);
        let sessions = match flight_time(role, basing, endurance) {
            Ok(n) => n,
            Err(e) => return self.log_refusal("28.6", &e.to_string()),
        };
        self.log(
            RuleEvent::new(EventKind::AirOperation, fyow("28.6 Flight Time"))
                .actor(&id)
                .input("role", role, "")
                .input("basing", basing, "Distant or Local")
                .input("endurance", endurance, "Endurance tanks")
                .input("board", &board, "the board flown over")
                .outcome(json!({ "sessions": sessions })),
        );
        if let Some(air) = self.armies[a].air.as_mut() {
            air.squadrons[squadron].0.fly_sortie();
        }
        let day = self.day;
        let mut spotted: Vec<String> = Vec::new();
        for _ in 0..sessions {
            // 28.10: the enemy's AA on the board fires as the machines come
            // over and each session they stay; no aircraft of his are up
            // before the day's first session.
            self.flak(&board, a, squadron, false);
            let Some(air) = self.armies[a].air.as_ref() else { return };
            let (sq, specialist) = &air.squadrons[squadron];
            if sq.flying().is_empty() {
                return;
            }
            let specialist = *specialist;
            let unseen: Vec<&(String, EnemyPosture)> = enemies.iter().filter(|(f, _)| !spotted.contains(f)).collect();
            for (force, posture) in unseen {
                if let Ok((seen, e)) = recce_detection(specialist, conditions, *posture, &mut self.dice, &id) {
                    self.log(e.target(force).input("board", &board, "the board flown over"));
                    if seen {
                        self.armies[ix(side)].known.insert(force.clone(), (board.clone(), day));
                        spotted.push(force.clone());
                    }
                }
            }
            // 28.8 "Information Gathering rules also apply if the aircraft
            // successfully spots enemy forces. See Section 17."
            if !spotted.is_empty() {
                self.gather_on(&id, "the air", (side, &board), spotted.clone(), false);
            }
        }
    }
}

/// The ground-attack squadron each side committed over a Combat Session
/// (FYOW 28.8 Air Artillery), by its index in its army's Air Command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct AirOverBattle {
    pub attacker: Option<usize>,
    pub defender: Option<usize>,
}

/// Ground-attack squadrons: the Air Artillery of 28.8.
fn ground_attack_role(role: Role) -> bool {
    matches!(role, Role::GroundAttack | Role::FighterBomber | Role::DiveBomber)
}

/// The day's sky as the flying table reads it (28.4).
pub(crate) fn air_sky(sky: Option<Sky>) -> AirSky {
    match sky {
        Some(Sky::LightRain) => AirSky::LightRain,
        Some(Sky::HeavyRain) => AirSky::HeavyRain,
        Some(Sky::Snow) => AirSky::Snow,
        Some(Sky::Fog) => AirSky::Fog,
        _ => AirSky::Fine,
    }
}

/// The wind as the flying table reads it (28.4; a sandstorm blows high).
pub(crate) fn air_wind(wind: Wind) -> AirWind {
    match wind {
        Wind::Calm => AirWind::Calm,
        Wind::Light => AirWind::Light,
        Wind::High | Wind::Sandstorm => AirWind::High,
        Wind::Freezing => AirWind::Freezing,
    }
}

impl Campaign {
    /// The flying conditions of this session (28.4): the day's sky for the
    /// session, its wind and its light.
    pub(crate) fn air_conditions(&self) -> Option<Conditions> {
        let today = self.today.as_ref()?;
        let s = self.date.session();
        let spell = today.spell(s).ok()?;
        let wind = today.wind_in_session(s).ok()?;
        Some(Conditions { sky: air_sky(Some(spell.sky)), wind: air_wind(wind), light: self.conditions.light })
    }

    /// Whether army `a`'s aircraft may fly this session: the day's throw
    /// permits it in the session's conditions (28.4), no low cloud (25.8),
    /// and no sandstorm blowing (27.7).
    pub(crate) fn may_fly(&self, a: usize, conditions: Conditions) -> bool {
        let sandstorm =
            self.today.as_ref().and_then(|t| t.wind_in_session(self.date.session()).ok()) == Some(Wind::Sandstorm);
        let low_cloud =
            self.today.as_ref().and_then(|t| t.spell(self.date.session()).ok()).is_some_and(|s| s.low_cloud);
        !sandstorm
            && !low_cloud
            && self.armies[a]
                .air
                .as_ref()
                .and_then(|air| air.flying)
                .is_some_and(|t| t.permits(Flight::Aircraft, conditions))
    }

    /// Whether `squadron` of army `a` flies from a grass strip closed today (25.8).
    pub(crate) fn strip_closed(&self, a: usize, squadron: &str) -> bool {
        let closed = self.today.as_ref().is_some_and(|t| t.unmetalled_airstrips_closed);
        closed && self.armies[a].air.as_ref().is_some_and(|air| air.grass_strips.contains(squadron))
    }

    /// The squadron of army `a` of a role that has not flown today, with the
    /// most machines operational, its airstrip open (25.8).
    pub(crate) fn squadron_for(&self, a: usize, role: impl Fn(Role) -> bool) -> Option<usize> {
        let air = self.armies[a].air.as_ref()?;
        air.squadrons
            .iter()
            .enumerate()
            .filter(|(_, (s, _))| role(s.role) && !s.used_today && s.operational() > 0)
            .filter(|(_, (s, _))| !self.strip_closed(a, &s.name))
            .max_by_key(|(i, (s, _))| (s.operational(), usize::MAX - i))
            .map(|(i, _)| i)
    }

    /// FYOW 28.3: when no squadron of army `a` of a role is left unflown
    /// today, the one that has flown a single sortie with the most machines
    /// undamaged flies a second: every machine throws its Preparation again,
    /// and the damaged cannot join. Returns it if any machine may fly.
    ///
    /// Reading (FYOW 28.3, "If a second sortie is to be flown on the same day
    /// by the squadron"): a squadron flies at most two sorties a day, the
    /// second only when no fresh squadron of its role is left (test
    /// `a_squadron_flies_a_second_sortie_without_its_damaged_machines`).
    pub(crate) fn second_sortie_for(&mut self, a: usize, role: impl Fn(Role) -> bool) -> Option<usize> {
        let air = self.armies[a].air.as_ref()?;
        let sound = |s: &crate::air::squadron::Squadron| {
            s.aircraft.iter().filter(|m| m.status != Status::Lost && m.damage == 0).count()
        };
        let (k, _) = air
            .squadrons
            .iter()
            .enumerate()
            .filter(|(_, (s, _))| role(s.role) && s.used_today && !s.second_sortie)
            .filter(|(_, (s, _))| !self.strip_closed(a, &s.name))
            .map(|(i, (s, _))| (i, sound(s)))
            .filter(|&(_, n)| n > 0)
            .max_by_key(|&(i, n)| (n, usize::MAX - i))?;
        let air = self.armies[a].air.as_mut()?;
        let (_, e) = air.squadrons[k].0.prepare_second_sortie(&mut self.dice);
        let flies = air.squadrons[k].0.operational() > 0;
        self.log(e);
        flies.then_some(k)
    }

    /// FYOW 28.8–28.11 over a paper battle's Combat Session: each side's Air
    /// Command sends its ground-attack squadron that has not flown today
    /// (Air Artillery) and a fighter squadron (a patrol over the board);
    /// fighters engage the enemy's ground-attack machines, else its
    /// fighters (28.11); the ground-attack machines still flying spot their
    /// target and fire (28.9), the effect dice being points off the enemy
    /// force's value, as a barrage's are (33.7.2 (iv)). Each sortie is a
    /// session's Flight Time (28.6); a squadron flies a second in the day
    /// only when no fresh one of its role is left (28.3).
    ///
    /// Reading (FYOW 28.9, 33.2): the Dunnigan Combat Value counts the
    /// battlegroups' own values; supporting aircraft act by their own
    /// firing, each machine one heavy machine gun (the CODEX of guns is not
    /// on the campaign map), and take the Supplemental Effects' damage
    /// (33.7.3 (ix)) (test `aircraft_over_a_battle_fight_and_strike`).
    /// The squadrons side `a` sends over a battle (FYOW 28.8): its
    /// ground-attack squadron and a fighter patrol, each flying a sortie
    /// (28.6), logged as supporting `supporting` on `board`, `over`
    /// a paper battle or one on the table. Returns (strike, patrol).
    pub(crate) fn sorties_over_battle(
        &mut self,
        a: usize,
        supporting: &str,
        board: &impl serde::Serialize,
        over: &str,
    ) -> (Option<usize>, Option<usize>) {
        let fighter = |role| role == Role::Fighter;
        let strike = self.squadron_for(a, ground_attack_role).or_else(|| self.second_sortie_for(a, ground_attack_role));
        let cover = self.squadron_for(a, fighter).or_else(|| self.second_sortie_for(a, fighter));
        for (k, mission) in [(strike, "Air Artillery (ground attack)"), (cover, "Patrol")] {
            let Some(k) = k else { continue };
            let Some(air) = self.armies[a].air.as_mut() else { continue };
            let sq = &mut air.squadrons[k].0;
            sq.fly_sortie();
            let (id, machines) = (sq.name.clone(), sq.operational());
            self.log(
                RuleEvent::new(EventKind::AirOperation, fyow("28.8 Aircraft missions"))
                    .actor(&id)
                    .input("mission", mission, over)
                    .input("board", board, "")
                    .input("supporting", supporting, "")
                    .outcome(json!({ "machines": machines })),
            );
        }
        (strike, cover)
    }

    /// Each side's patrol goes for the enemy's strike squadron, else his
    /// patrol (FYOW 28.11), `sides` by army index.
    pub(crate) fn patrols_fight(
        &mut self,
        sides: [usize; 2],
        strike: [Option<usize>; 2],
        cover: [Option<usize>; 2],
        conditions: Conditions,
    ) {
        for r in 0..2 {
            if let Some(f) = cover[r]
                && let Some(t) = strike[1 - r].or(cover[1 - r])
            {
                self.air_to_air(sides[r], f, sides[1 - r], t, conditions);
            }
        }
    }

    pub(crate) fn air_over_battle(&mut self, attacker: &str, defender: &str) -> AirOverBattle {
        let Some(conditions) = self.air_conditions() else { return AirOverBattle::default() };
        let names = [attacker, defender];
        let mut sides = [0usize; 2];
        let mut strike = [None, None];
        let mut cover = [None, None];
        for r in 0..2 {
            let Some(side) = self.force(names[r]).map(|f| f.side) else { return AirOverBattle::default() };
            let a = ix(side);
            sides[r] = a;
            if !self.may_fly(a, conditions) {
                continue;
            }
            let board = self.force(names[r]).and_then(|f| f.board().cloned());
            (strike[r], cover[r]) = self.sorties_over_battle(a, names[r], &board, "over a paper battle");
        }
        self.patrols_fight(sides, strike, cover, conditions);
        for r in 0..2 {
            if let Some(g) = strike[r] {
                let own_overhead = strike[1 - r].is_some() || cover[1 - r].is_some();
                if let Some(board) = self.force(names[1 - r]).and_then(|f| f.board().cloned()) {
                    self.flak(&board, sides[r], g, own_overhead);
                }
                let loss = self.ground_attack(sides[r], g, names[1 - r], conditions);
                if loss > 0 {
                    self.book_losses(names[1 - r], loss, None);
                }
            }
        }
        AirOverBattle { attacker: strike[0], defender: strike[1] }
    }

    /// Points of AA damage on squadron `g` of army `a`, by `rule`: one
    /// point on each machine still flying in turn (28.11's damage rule).
    pub(crate) fn aa_damage(&mut self, a: usize, g: usize, points: u8, rule: warbound_rules::event::RuleRef) {
        let Some(mut air) = self.armies[a].air.take() else { return };
        let sq = &mut air.squadrons[g].0;
        for m in sq.flying().into_iter().take(usize::from(points)) {
            if let Ok((_, mut e)) = sq.take_damage(m, 1) {
                e.rule = rule.clone();
                self.log(e);
            }
        }
        self.armies[a].air = Some(air);
    }

    /// FYOW 28.10: the AA guns of the enemy's forces on `board` fire at
    /// squadron `g` of army `a` over it, gun by gun, while its machines fly;
    /// none fire while `friendly_overhead` (aircraft of their own over the
    /// board).
    ///
    /// Reading (FYOW 28.10, "The AA guns form their own Battlegroup and are
    /// activated by a BPC as usual"): the AA guns of a battlegroup on the
    /// board act as that AA battlegroup, activated as the enemy machines
    /// come over, before they strike or look (test
    /// `flak_fires_at_machines_over_its_board_unless_its_own_are_up`).
    pub(crate) fn flak(&mut self, board: &BoardId, a: usize, g: usize, friendly_overhead: bool) {
        let enemy = self.armies[a].side.enemy();
        let guns: Vec<(String, AaGun)> = self
            .forces_on(board, enemy)
            .into_iter()
            .flat_map(|f| f.aa_guns().into_iter().map(|gun| (f.name.clone(), gun)))
            .collect();
        for (force, gun) in guns {
            let Some(sq) = self.armies[a].air.as_ref().map(|air| &air.squadrons[g].0) else { return };
            if sq.flying().is_empty() {
                return;
            }
            let (name, speed) = (sq.name.clone(), sq.speed());
            let Ok((damage, e)) = aa_fire(gun, speed, friendly_overhead, &mut self.dice, &force) else { return };
            self.log(e.target(&name).input("board", board, "the Map Board it is over"));
            self.aa_damage(a, g, damage, fyow("28.10 Anti-Aircraft fire"));
        }
    }

    /// FYOW 28.11: squadron `f` of army `a` spots and fires at squadron `t`
    /// of army `b`; each spotting machine's damages go to the first enemy
    /// machine still flying.
    pub(crate) fn air_to_air(&mut self, a: usize, f: usize, b: usize, t: usize, conditions: Conditions) {
        let Ok(need) = air_spot_need(conditions) else { return };
        let (Some(mut ours), Some(mut theirs)) = (self.armies[a].air.take(), self.armies[b].air.take()) else {
            return;
        };
        let fighters = &ours.squadrons[f].0;
        let flying = fighters.flying();
        let (spotted, e) = spot(flying.len(), need, SpotTarget::Air, &mut self.dice, &fighters.name);
        self.log(e.target(&theirs.squadrons[t].0.name));
        for (&m, seen) in flying.iter().zip(spotted) {
            let target = &mut theirs.squadrons[t].0;
            let Some(victim) = target.aircraft.iter().position(|x| x.status == Status::Operational) else { break };
            if !seen {
                continue;
            }
            let me = &ours.squadrons[f].0;
            let fire = air_to_air_fire(
                &[Mg::Hmg],
                me.speed(),
                me.aircraft[m].damaged(),
                target.speed(),
                &mut self.dice,
                &me.name,
            );
            let Ok((damages, e)) = fire else { continue };
            self.log(e.target(&target.name));
            if damages > 0
                && let Ok((_, e)) = target.take_damage(victim, damages)
            {
                self.log(e);
            }
        }
        ours.squadrons[f].0.used_today = true;
        self.armies[a].air = Some(ours);
        self.armies[b].air = Some(theirs);
    }

    /// FYOW 28.9: squadron `g` of army `a` attacks the force `target`: a D6
    /// per machine still flying to spot, then its machine gun; the effect
    /// dice are points off the target's value. Returns the points.
    fn ground_attack(&mut self, a: usize, g: usize, target: &str, conditions: Conditions) -> u32 {
        let Ok(need) = ground_spot_need(conditions, false) else { return 0 };
        let Some(air) = self.armies[a].air.as_ref() else { return 0 };
        let sq = &air.squadrons[g].0;
        let (id, machines) = (sq.name.clone(), sq.operational());
        if machines == 0 {
            return 0;
        }
        let (spotted, e) = spot(machines, need, SpotTarget::Ground, &mut self.dice, &id);
        self.log(e.target(target));
        let spotters = spotted.iter().filter(|&&s| s).count();
        // Reading (FYOW 28.9): a machine that carries AT guns or rockets
        // fires them at the target's armour, one vehicle each; the others,
        // and those with no vehicle left to fire at, strafe with their
        // machine guns (test `rockets_brew_and_damage_a_panzer_companys_tanks`).
        let side = self.armies[a].side;
        let weapons = self.at_weapons(side, &id);
        let at_armour = self.rocket_strike(&id, &weapons, spotters, target);
        let guns = vec![Mg::Hmg; spotters - at_armour];
        let Ok((_, effect, e)) = mg_ground_attack(&guns, &mut self.dice, &id) else { return 0 };
        let points: u32 = effect.iter().map(|&f| u32::from(f)).sum();
        self.log(e.target(target).input(
            "points_lost",
            points,
            "the effect dice as points, as a barrage's (33.7.2 (iv))",
        ));
        points
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::air::flying::{Chart, FlyingThrow};
    use crate::air::squadron::Basing;
    use crate::map::common::{Edge, Side};
    use crate::weather::throw_day;

    #[test]
    fn a_winter_campaign_flies_by_the_winter_weather_rules() {
        // FYOW 25: "Separate weather tables and rules apply for cold climates";
        // 26.9 is the winter chart, closing grass strips at a gauge of 5 too.
        let mut seen_winter = 0;
        for seed in 1..=4 {
            let mut c = Campaign::new("ardennes-1945", crate::play::testing::ardennes(), seed).unwrap();
            c.play_days(6);
            let events = c.drain_events();
            let temperate: Vec<&str> =
                events.iter().map(|e| e.rule.section.as_str()).filter(|s| s.starts_with("25.")).collect();
            assert!(temperate.is_empty(), "seed {seed}: {temperate:?}");
            seen_winter += events.iter().filter(|e| e.rule.section.starts_with("26.9")).count();
        }
        assert!(seen_winter > 0, "the winter flying rules are played");
    }

    /// The Dorsets landed at Cobo Bay against the garrison there, on a fine
    /// calm day both Air Commands may fly.
    fn over_cobo(seed: u64, wind: Wind) -> (Campaign, String) {
        let file = crate::play::testing::guernsey();
        let mut c = Campaign::new("guernsey-1942", file, seed).unwrap();
        let cobo = BoardId::new("Cobo Bay");
        c.relocate("4th Dorsets", &BoardId::new("West Sea"), &cobo, Edge::West).unwrap();
        let red = c.forces_on(&cobo, Side::Red)[0].name.clone();
        let (mut day, _) = throw_day(&mut c.dice, c.file.climate, 8, None, &[]).unwrap();
        for spell in &mut day.spells {
            spell.sky = Sky::Fair;
            spell.low_cloud = false;
        }
        day.wind = wind;
        day.sandstorm_sessions = (1..=6).collect();
        c.today = Some(day);
        for a in &mut c.armies {
            let air = a.air.as_mut().unwrap();
            air.flying = Some(FlyingThrow { face: 6, chart: Chart::Standard });
            for (sq, _) in &mut air.squadrons {
                for m in &mut sq.aircraft {
                    m.status = Status::Operational;
                }
            }
        }
        c.drain_events();
        (c, red)
    }

    #[test]
    fn a_recce_machine_that_spots_the_enemy_gathers_information() {
        // 28.8 Reconnaissance Missions: "Information Gathering rules also
        // apply if the aircraft successfully spots enemy forces. See Section 17."
        let (mut spotted, mut gathered) = (0, 0);
        for seed in 0..12 {
            let (mut c, _) = over_cobo(seed, Wind::Calm);
            for a in 0..c.armies.len() {
                let Some(air) = c.armies[a].air.as_ref() else { continue };
                let Some(i) = air.squadrons.iter().position(|(s, _)| s.role == Role::Recce) else { continue };
                c.recce_flight(a, i, Conditions::FINE_DAY);
                let side = c.armies[a].side;
                let events = c.drain_events();
                let seen: Vec<&RuleEvent> = events
                    .iter()
                    .filter(|e| e.rule.section == "28.8 Aircraft Missions, Reconnaissance")
                    .filter(|e| e.outcome["detected"] == true)
                    .collect();
                let attempts: Vec<&RuleEvent> =
                    events.iter().filter(|e| e.rule.section == "17.1 Information gathering attempt").collect();
                assert_eq!(
                    attempts.len(),
                    usize::from(!seen.is_empty()),
                    "seed {seed}: one attempt a sortie that spots"
                );
                if let Some(attempt) = attempts.first() {
                    spotted += 1;
                    assert!(attempt.inputs.iter().any(|x| x.name == "from" && x.value == "the air"));
                    let board: BoardId = serde_json::from_value(
                        attempt.inputs.iter().find(|x| x.name == "board").unwrap().value.clone(),
                    )
                    .unwrap();
                    if attempt.outcome["pieces"].as_u64() > Some(0) {
                        gathered += 1;
                        assert!(c.army(side).reports.contains_key(&board), "seed {seed}: the report is kept");
                    }
                }
            }
        }
        assert!(spotted > 0 && gathered > 0, "spotted {spotted}, gathered {gathered}");
    }

    #[test]
    fn a_local_recce_machine_stays_over_the_board_for_its_flight_time() {
        // 28.6: "Fighters, Ground attack, Dive bombers, Recce: 1 session
        // Distant, 2 sessions Local"; 28.8 Reconnaissance Missions: "If the
        // aircraft has sufficient Flight Time, it can remain over the Map
        // Board for a number of sessions to make additional Information
        // Gathering throws."
        let mut second_looks = 0;
        for (seed, basing) in (0..16).map(|s| (s, if s % 4 == 0 { Basing::Distant } else { Basing::Local })) {
            let (mut c, _) = over_cobo(seed, Wind::Calm);
            for a in 0..c.armies.len() {
                let Some(air) = c.armies[a].air.as_mut() else { continue };
                let Some(i) = air.squadrons.iter().position(|(s, _)| s.role == Role::Recce) else { continue };
                air.squadrons[i].0.basing = basing;
                c.recce_flight(a, i, Conditions::FINE_DAY);
                let events = c.drain_events();
                let Some(time) = events.iter().find(|e| e.rule.section == "28.6 Flight Time") else { continue };
                let sessions = if basing == Basing::Local { 2 } else { 1 };
                assert_eq!(time.outcome["sessions"], sessions, "seed {seed}");
                // Each force is looked for until it is spotted, once a session.
                let looks: Vec<&RuleEvent> =
                    events.iter().filter(|e| e.rule.section == "28.8 Aircraft Missions, Reconnaissance").collect();
                let forces: std::collections::BTreeSet<&str> =
                    looks.iter().filter_map(|e| e.target.as_deref()).collect();
                for force in forces {
                    let mine: Vec<bool> = looks
                        .iter()
                        .filter(|e| e.target.as_deref() == Some(force))
                        .map(|e| e.outcome["detected"] == true)
                        .collect();
                    assert!(mine.len() <= sessions, "seed {seed}: {force} {mine:?}");
                    assert!(mine.iter().rev().skip(1).all(|seen| !seen), "seed {seed}: spotted once is enough");
                }
                let attempts = events.iter().filter(|e| e.rule.section == "17.1 Information gathering attempt").count();
                assert!(attempts <= sessions, "seed {seed}: one attempt a session at most");
                if attempts == 2 {
                    second_looks += 1;
                }
            }
        }
        assert!(second_looks > 0, "a local machine gathers information a second session");
    }

    #[test]
    fn aircraft_over_a_battle_fight_and_strike() {
        // 28.8 Air Artillery and Patrol missions; 28.11 "2+ on a D6 to spot enemy
        // squadrons"; 28.9 "The squadron throws 1D6 per aircraft to spot a ground
        // target ... Throw 1D6 per MMG or HMG firing. 3+ is a hit."
        let (mut struck, mut fought) = (0, 0);
        for seed in 0..10 {
            let (mut c, red) = over_cobo(seed, Wind::Calm);
            let before = [c.force("4th Dorsets").unwrap().points(), c.force(&red).unwrap().points()];
            let air = c.air_over_battle("4th Dorsets", &red);
            assert!(air.attacker.is_some() && air.defender.is_some(), "each side sends its fighter-bombers");
            for a in &c.armies {
                let air = a.air.as_ref().unwrap();
                let over_battles =
                    |s: &&(crate::air::squadron::Squadron, bool)| !matches!(s.0.role, Role::Recce | Role::Transport);
                assert!(air.squadrons.iter().filter(over_battles).all(|(s, _)| s.used_today));
            }
            let events = c.drain_events();
            let missions = events.iter().filter(|e| e.rule.section == "28.8 Aircraft missions").count();
            assert_eq!(missions, 4, "a strike and a patrol a side");
            fought += events.iter().filter(|e| e.rule.section == "28.11 Air-to-air combat").count();
            let lost = |who: &str| -> u32 {
                events
                    .iter()
                    .filter(|e| {
                        e.rule.section.starts_with("28.9 Aircraft firing, Machine gun")
                            && e.target.as_deref() == Some(who)
                    })
                    .filter_map(|e| e.inputs.iter().find(|i| i.name == "points_lost"))
                    .filter_map(|i| i.value.as_u64())
                    .sum::<u64>() as u32
            };
            let after = [c.force("4th Dorsets").map_or(0, |f| f.points()), c.force(&red).map_or(0, |f| f.points())];
            for (k, who) in [(0, "4th Dorsets"), (1, red.as_str())] {
                let l = lost(who);
                struck += l;
                assert!(
                    before[k] - after[k] + 1 >= l && before[k] - after[k] <= l,
                    "{who}: lost {l} points to the air"
                );
            }
            // A second sortie (28.3), then none: two sorties a day at most.
            c.air_over_battle("4th Dorsets", &red);
            assert_eq!(c.air_over_battle("4th Dorsets", &red), AirOverBattle::default(), "two sorties a day");
        }
        assert!(struck > 0 && fought > 0);
    }

    #[test]
    fn flak_fires_at_machines_over_its_board_unless_its_own_are_up() {
        // FYOW 28.10: "When activated, each AA gun throws 2D6 per barrel ... No
        // AA fire can be conducted if friendly aircraft are over the Map Board."
        let (c, _) = over_cobo(0, Wind::Calm);
        let flak = c.forces.iter().find(|f| !f.aa_guns().is_empty()).expect("the garrison has a Flak-Zug");
        let (board, guns) = (flak.board().cloned().expect("on a board"), flak.aa_guns().len());
        let blue = c.armies.iter().position(|a| a.side != flak.side).unwrap();
        let g = c.squadron_for(blue, ground_attack_role).expect("a fighter-bomber squadron");
        let (mut fired, mut damaged) = (0, 0);
        for seed in 0..20 {
            let (mut c, _) = over_cobo(seed, Wind::Calm);
            let before = c.armies[blue].air.as_ref().unwrap().squadrons[g].0.flying().len();
            c.flak(&board, blue, g, false);
            let events = c.drain_events();
            let shots: Vec<_> = events
                .iter()
                .filter(|e| e.rule.section == "28.10 Anti-Aircraft fire" && e.outcome.get("hits").is_some())
                .collect();
            let hurt: u64 = shots.iter().filter_map(|e| e.outcome["damage"].as_u64()).sum();
            let marked = events.iter().filter(|e| e.rule.section == "28.10 Anti-Aircraft fire").count() - shots.len();
            let sq = &c.armies[blue].air.as_ref().unwrap().squadrons[g].0;
            assert!(!shots.is_empty() && shots.len() <= guns, "seed {seed}: one throw a gun while machines fly");
            assert!(shots.iter().all(|e| e.target.as_deref() == Some(sq.name.as_str())));
            assert_eq!(marked as u64, hurt.min(before as u64), "seed {seed}: a point of damage a machine flying");
            fired += shots.len();
            damaged += hurt;
            // With its own aircraft over the board, no gun fires.
            c.flak(&board, blue, g, true);
            assert!(c.drain_events().iter().all(|e| !e.rule.section.starts_with("28.10")));
        }
        assert!(fired > 0 && damaged > 0, "{fired} throws, {damaged} damage");
    }

    #[test]
    fn a_squadron_flies_a_second_sortie_without_its_damaged_machines() {
        // 28.3: "If a second sortie is to be flown on the same day by the
        // squadron, all aircraft must take preparation throws again, but ...
        // any aircraft showing damage will not be able to join the second sortie."
        let mut second = 0;
        for seed in 0..10 {
            let (mut c, red) = over_cobo(seed, Wind::Calm);
            c.air_over_battle("4th Dorsets", &red);
            let blue = ix(c.force("4th Dorsets").unwrap().side);
            let g = {
                let air = c.armies[blue].air.as_mut().unwrap();
                let g = air.squadrons.iter().position(|(s, _)| ground_attack_role(s.role) && s.used_today).unwrap();
                // One machine came back damaged.
                air.squadrons[g].0.aircraft[0].damage = 1;
                air.squadrons[g].0.aircraft[0].status = Status::Inactive;
                g
            };
            c.drain_events();
            let air = c.air_over_battle("4th Dorsets", &red);
            let events = c.drain_events();
            let prep = events
                .iter()
                .find(|e| e.rule.section == "28.3 Repairs to damage received whilst on a mission")
                .expect("the second sortie's Preparation throws");
            let sq = &c.armies[blue].air.as_ref().unwrap().squadrons[g].0;
            assert_eq!(prep.actor.as_deref(), Some(sq.name.as_str()));
            let first = prep.outcome["preparations"].as_array().and_then(|p| p.iter().find(|m| m["aircraft"] == 0));
            assert_eq!(first.map(|m| m["operational"].clone()), Some(json!(false)), "the damaged machine stays behind");
            assert!(sq.second_sortie && sq.aircraft[0].status != Status::Operational);
            if air.attacker == Some(g) {
                second += 1;
            }
        }
        assert!(second > 0, "the squadron flies again");
    }

    #[test]
    fn nothing_flies_in_a_blowing_sandstorm() {
        // 27.7: no flying while a sandstorm blows.
        let (mut c, red) = over_cobo(1, Wind::Sandstorm);
        assert_eq!(c.air_over_battle("4th Dorsets", &red), AirOverBattle::default());
        assert!(!c.drain_events().iter().any(|e| e.rule.section.starts_with("28.")));
    }
}
