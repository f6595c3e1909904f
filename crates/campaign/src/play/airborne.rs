//! An airborne battlegroup dropped on the campaign map (FYOW 28.8 Transport
//! Missions, 28.13): on its day its army's transport squadron takes off
//! when the day's flying throw allows it with paratroops aboard (28.4),
//! the enemy's fighters on patrol and his AA guns on the drop board fire at
//! the carriers, each carrier shot down takes its stick with it, and each
//! platoon that jumps throws 2D6 for its landing. The battlegroup then
//! holds the board at once, without the box, and both sides throw to
//! detect, the defenders with an extra 1D6.

use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::air::landings::{DEFENDER_EXTRA_DETECTION_DICE, parachute_landing};
use crate::air::missions::{Load, lost_with_carrier, may_take_off};
use crate::air::squadron::{DamageOutcome, Status};
use crate::air::{Mission, Role};
use crate::map::board::BoardId;
use crate::map::common::Edge;
use crate::map::detection::{OccupierPosture, detect_landing_from_the_air};
use crate::play::command::MoveResult;
use crate::play::state::{Campaign, CampaignError, Whereabouts, fyow, ix};
use crate::supply::logistics::Mode;

impl Campaign {
    /// FYOW 28.13: the airborne battlegroup `name` is flown to its drop
    /// board and jumps. `Stayed` while its transports may not take off (it
    /// waits at its airfield for another session) or when none of it lands.
    pub(crate) fn drop_airborne(&mut self, name: &str) -> Result<MoveResult, CampaignError> {
        let i = self.live(name)?;
        let Whereabouts::Airborne { squadron, drop, .. } = self.forces[i].at.clone() else {
            return Err(CampaignError::new("28.13", format!("{name} is not waiting to be dropped")));
        };
        let side = self.forces[i].side;
        let (a, b) = (ix(side), ix(side.enemy()));
        let q = self.armies[a]
            .air
            .as_ref()
            .and_then(|air| air.squadrons.iter().position(|(s, _)| s.name == squadron))
            .ok_or_else(|| CampaignError::new("28.8", format!("{squadron} is not in {name}'s Air Command")))?;
        let board = self.file.map.board(&drop).map_err(|e| CampaignError::new("13", e.to_string()))?.clone();
        let edge = self.drop_edge(side, &drop);
        let mut trial = self.occupation[&drop].clone();
        if let Err(e) = trial.arrive(&board, self.file.max_points(), self.arriving(&self.forces[i], edge)) {
            return Err(CampaignError::new("13.9", e.to_string()));
        }
        let loads: Vec<Load> = self.forces[i]
            .battlegroup
            .elements
            .iter()
            .map(|e| Load::Paratroops { element: e.name.clone(), points: e.points })
            .collect();
        // 28.4: the day's throw must allow aircraft and paratroops in the
        // session's conditions; no low cloud or sandstorm (25.8, 27.7).
        let Some(conditions) = self.air_conditions() else { return Ok(MoveResult::Stayed) };
        let Some(throw) = self.armies[a].air.as_ref().and_then(|air| air.flying) else { return Ok(MoveResult::Stayed) };
        let (permitted, e) = may_take_off(throw, conditions, Mission::Transport, &loads, &squadron);
        self.log(e.target(name));
        if !permitted || !self.may_fly(a, conditions) || self.strip_closed(a, &squadron) {
            return Ok(MoveResult::Stayed);
        }
        // Reading (FYOW 28.8): every element jumps from a carrier of its
        // own; with fewer machines ready than elements the drop waits.
        let ready = self.armies[a].air.as_ref().expect("its Air Command").squadrons[q].0.operational();
        if ready < loads.len() {
            let why = format!(
                "{squadron} has {ready} machines ready, fewer than the {} elements of {name}: it waits at its airfield",
                loads.len()
            );
            self.log_refusal("28.8 Aircraft Missions, Transport Missions", &why);
            return Ok(MoveResult::Stayed);
        }
        // 28.8: the Transport Mission, escorted by a fighter squadron when one is free.
        let escort = self.squadron_for(a, |r| r == Role::Fighter);
        let patrol = if self.may_fly(b, conditions) { self.squadron_for(b, |r| r == Role::Fighter) } else { None };
        let missions = [
            (a, Some(q), "Transport", "28.8 Aircraft Missions, Transport Missions"),
            (a, escort, "Escort", "28.8 Aircraft missions"),
            (b, patrol, "Patrol", "28.8 Aircraft missions"),
        ];
        for (army, k, mission, section) in missions {
            let Some(k) = k else { continue };
            let Some(air) = self.armies[army].air.as_mut() else { continue };
            let sq = &mut air.squadrons[k].0;
            sq.fly_sortie();
            let (id, machines) = (sq.name.clone(), sq.operational());
            self.log_applied(
                RuleEvent::new(EventKind::AirOperation, fyow(section))
                    .actor(&id)
                    .input("mission", mission, "dropping paratroops")
                    .input("board", &drop, "")
                    .input("supporting", if army == a { name } else { "" }, "")
                    .outcome(json!({ "machines": machines })),
            );
        }
        let carriers = self.armies[a].air.as_ref().expect("its Air Command").squadrons[q].0.flying();
        // 28.11: the escort goes for the enemy's patrol, and what is left of
        // the patrol for the carriers; then the AA on the drop board (28.10).
        if let Some(p) = patrol {
            if let Some(e) = escort {
                self.air_to_air(a, e, b, p, conditions);
            }
            self.air_to_air(b, p, a, q, conditions);
        }
        self.flak(&drop, a, q, patrol.is_some());
        // Each carrier takes a stick of one element's men, element by element in turn.
        let elements: Vec<String> = loads
            .iter()
            .filter_map(|l| if let Load::Paratroops { element, .. } = l { Some(element.clone()) } else { None })
            .collect();
        let sq = &self.armies[a].air.as_ref().expect("its Air Command").squadrons[q].0;
        let lost_machines: Vec<bool> = carriers.iter().map(|&m| sq.aircraft[m].status == Status::Lost).collect();
        let sq_name = sq.name.clone();
        let mut casualties = 0;
        for (e, element) in elements.iter().enumerate() {
            let sticks: Vec<bool> = lost_machines.iter().skip(e).step_by(elements.len()).copied().collect();
            let shot_down = sticks.iter().filter(|&&l| l).count() as u32;
            if shot_down > 0 {
                let Some(el) = self.forces[i].battlegroup.elements.iter().find(|x| &x.name == element) else {
                    continue;
                };
                // Reading (FYOW 28.8): a carrier shot down loses its stick, the
                // element's value shared over the carriers it flew in.
                let cost = (el.points * shot_down).div_ceil(sticks.len() as u32).min(el.points);
                let load = Load::Paratroops { element: element.clone(), points: cost };
                let (_, e) = lost_with_carrier(&[load], DamageOutcome::ShotDown, &sq_name);
                self.log(e.actor(name).input("carriers_shot_down", shot_down, "").input("carriers", sticks.len(), ""));
                casualties += cost;
                if let Some(el) = self.forces[i].battlegroup.elements.iter_mut().find(|x| &x.name == element) {
                    el.points -= cost;
                }
            }
            if sticks.len() as u32 == shot_down {
                continue;
            }
            // 28.13: each platoon that jumps throws 2D6 for its landing.
            let Some(points) =
                self.forces[i].battlegroup.elements.iter().find(|x| &x.name == element).map(|x| x.points)
            else {
                continue;
            };
            let (lost, e) = parachute_landing(points, &mut self.dice, element);
            self.log(e.target(name).input("board", &drop, "the drop board"));
            casualties += lost;
            if let Some(el) = self.forces[i].battlegroup.elements.iter_mut().find(|x| &x.name == element) {
                el.points -= lost.min(el.points);
            }
        }
        let gone = self.book_casualties(i, casualties);
        self.after_losses(name, gone);
        if self.forces[i].at == Whereabouts::Gone {
            return Ok(MoveResult::Stayed);
        }
        // 28.13: "they immediately occupy that Map Board without entering
        // into the 'box' first".
        self.arrive_from_off_the_map(i, &board, edge)?;
        self.log(
            RuleEvent::new(EventKind::MapMovement, fyow("28.13 Parachutists and glider landings"))
                .actor(name)
                .input("board", &drop, "the drop board")
                .outcome(json!({ "occupies": true, "box": false })),
        );
        if let Some(occ) = self.occupation.get_mut(&drop) {
            let _ = occ.enter_board(name);
        }
        self.seen_coming_down(name, &drop);
        Ok(self.after_arrival(name, &drop))
    }

    /// The edge a drop on `board` counts as arriving by: in front of the
    /// enemy there, else toward a board of its own side, else the board's
    /// first road out.
    ///
    /// Reading (FYOW 28.13, 15.3): the box edge sets where a force deploys
    /// and the bearings of later Detection Throws; paratroops come down on
    /// the board itself, so they are taken to face the enemy there.
    fn drop_edge(&self, side: crate::map::common::Side, board: &BoardId) -> Edge {
        if let Some(enemy) = self.occupation[board].occupants.iter().find(|o| o.side != side) {
            return enemy.arrival_edge.opposite();
        }
        let legs = self.file.map.legs_from(board);
        legs.iter()
            .find(|l| self.occupation.get(&l.to).is_some_and(|o| o.side_points(side) > 0))
            .or(legs.first())
            .map_or(Edge::North, |l| l.departure_edge)
    }

    /// FYOW 28.13: "Both attackers and defenders take Detection Throws as
    /// usual with the defenders gaining an extra 1D6": each enemy force on
    /// the drop board throws as the paratroops come down.
    fn seen_coming_down(&mut self, name: &str, board: &BoardId) {
        let Some(side) = self.force(name).map(|f| f.side) else { return };
        let defenders: Vec<String> =
            self.occupation[board].occupants.iter().filter(|o| o.side != side).map(|o| o.force.clone()).collect();
        for d in defenders {
            let (Some(occ), Some(f)) = (self.occupant(&d).cloned(), self.force(&d)) else { continue };
            let all_recce = f.kit.iter().all(|k| k.recce);
            let posture = OccupierPosture::of(occ.attitude.attitude(), f.supply.mode == Mode::Rest, all_recce);
            let (seen, e) = detect_landing_from_the_air(
                &d,
                posture,
                &self.conditions,
                DEFENDER_EXTRA_DETECTION_DICE,
                &mut self.dice,
            );
            self.log(e.target(name));
            if seen {
                self.sight(&d, name);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::air::flying::{Chart, FlyingThrow};
    use crate::map::common::{SessionConditions, Side};
    use crate::map::occupation::Place;
    use crate::weather::{Sky, Wind, throw_day};

    const PARAS: &str = "C Company, 2nd Parachute Battalion";

    fn input_named(e: &RuleEvent, name: &str) -> bool {
        e.inputs.iter().any(|x| x.name == name)
    }

    /// Guernsey on a fair day 1 in `wind`, both Air Commands throwing
    /// `face` on the standard chart, the paratroops at their airfield.
    fn before_the_drop(seed: u64, wind: Wind, face: u8) -> (Campaign, usize) {
        let mut c = Campaign::new("guernsey-1942", crate::play::testing::guernsey(), seed).unwrap();
        let (mut day, _) = throw_day(&mut c.dice, c.file.climate, 8, None, &[]).unwrap();
        for spell in &mut day.spells {
            spell.sky = Sky::Fair;
            spell.low_cloud = false;
        }
        day.wind = wind;
        c.today = Some(day);
        c.conditions = SessionConditions::fine_day();
        for a in &mut c.armies {
            let air = a.air.as_mut().unwrap();
            air.flying = Some(FlyingThrow { face, chart: Chart::Standard });
            for (sq, _) in &mut air.squadrons {
                for m in &mut sq.aircraft {
                    m.status = Status::Operational;
                }
            }
        }
        c.drain_events();
        let i = c.fx(PARAS).unwrap();
        (c, i)
    }

    #[test]
    fn paratroops_wait_at_their_airfield_until_they_may_take_off() {
        // 28.4: light winds add 1 to the Aircraft column and 2 to the
        // Paratroops': a 2 lets fighters up, not the drop.
        let (mut c, i) = before_the_drop(1, Wind::Light, 2);
        let conditions = c.air_conditions().unwrap();
        assert!(c.may_fly(0, conditions), "aircraft fly");
        assert!(matches!(c.forces[i].at, Whereabouts::Airborne { day: 1, .. }));
        assert_eq!(c.drop_airborne(PARAS).unwrap(), MoveResult::Stayed);
        assert!(matches!(c.forces[i].at, Whereabouts::Airborne { .. }), "still at the airfield");
        let events = c.drain_events();
        let take_off = events.iter().find(|e| e.rule.section == "28.4 Air Command decision to fly").unwrap();
        assert_eq!(take_off.outcome["permitted"], false);
        assert!(events.iter().all(|e| e.rule.section != "28.13 Parachutists and glider landings"));
    }

    #[test]
    fn a_drop_waits_for_a_machine_for_each_element() {
        let (mut c, i) = before_the_drop(2, Wind::Calm, 6);
        let air = c.armies[ix(Side::Blue)].air.as_mut().unwrap();
        let (whitleys, _) = air.squadrons.iter_mut().find(|(s, _)| s.role == Role::Transport).unwrap();
        for m in whitleys.aircraft.iter_mut().skip(2) {
            m.status = Status::Inactive;
        }
        assert_eq!(c.drop_airborne(PARAS).unwrap(), MoveResult::Stayed);
        assert!(matches!(c.forces[i].at, Whereabouts::Airborne { .. }), "still at the airfield");
        let events = c.drain_events();
        let refused = events.iter().find(|e| e.outcome.get("refused").is_some()).expect("the refusal is logged");
        let why = refused.outcome["refused"].as_str().unwrap();
        assert!(why.contains("2 machines ready, fewer than the 3 elements"), "{why}");
        assert!(events.iter().all(|e| e.rule.section != "28.13 Parachutists and glider landings"));
    }

    /// FYOW 28.8, 28.10, 28.13: the Whitleys fly the company in over the
    /// airfield's flak; a carrier shot down loses its stick, each platoon
    /// throws 2D6 for its landing, the company holds the board at once, and
    /// the garrison throws with one die more than 16.4 gives it.
    #[test]
    fn paratroops_drop_on_the_airfield_with_their_losses_and_are_looked_for() {
        let forest = BoardId::new("Forest");
        let (mut doubles, mut patrols) = (0, 0);
        for seed in 0..12 {
            let (mut c, i) = before_the_drop(seed, Wind::Calm, 6);
            if seed % 3 == 0 {
                // The German Air Command may not fly today: no patrol is up.
                c.armies[ix(Side::Red)].air.as_mut().unwrap().flying = None;
            }
            let before: u32 = c.forces[i].battlegroup.elements.iter().map(|e| e.points).sum();
            let result = c.drop_airborne(PARAS).unwrap();
            let events = c.drain_events();
            let of = |section: &'static str| events.iter().filter(move |e| e.rule.section == section);
            let flown = of("28.8 Aircraft Missions, Transport Missions").find(|e| input_named(e, "mission"));
            assert_eq!(flown.unwrap().outcome["machines"], 12, "seed {seed}");
            // 28.10: the airfield's flak holds its fire while its own fighters are up.
            let patrol = of("28.8 Aircraft missions").any(|e| e.inputs.iter().any(|x| x.value == "Patrol"));
            assert_eq!(of("28.10 Anti-Aircraft fire").count() > 0, !patrol, "seed {seed}");
            patrols += usize::from(patrol);
            let landings: Vec<_> =
                of("28.13 Parachutists and glider landings").filter(|e| !e.dice.is_empty()).collect();
            let lost_in_landing: u64 = landings.iter().map(|e| e.outcome["points_lost"].as_u64().unwrap()).sum();
            doubles += landings.iter().filter(|e| e.outcome["pct_lost"].as_u64() > Some(0)).count();
            let lost_with_carriers: u64 = of("28.8 Aircraft Missions, Transport Missions")
                .filter(|e| input_named(e, "carriers"))
                .flat_map(|e| e.outcome["lost"].as_array().unwrap().clone())
                .map(|l| l["paratroops"]["points"].as_u64().unwrap())
                .sum();
            if c.forces[i].is_gone() {
                continue;
            }
            assert_ne!(result, MoveResult::Stayed, "seed {seed}");
            let after: u32 = c.forces[i].battlegroup.elements.iter().map(|e| e.points).sum();
            assert_eq!(u64::from(before - after), lost_in_landing + lost_with_carriers, "seed {seed}");
            assert_eq!(c.forces[i].at, Whereabouts::Board(forest.clone()));
            let paras = c.occupant(PARAS).unwrap();
            assert_eq!(paras.place, Place::OnBoard, "seed {seed}: no box");
            let garrison_edge = c.occupant("III./IR 582").unwrap().arrival_edge;
            assert_eq!(paras.arrival_edge, garrison_edge.opposite(), "seed {seed}: down in front of the garrison");
            let looked = of("16.4 Detection Throw - the forces in occupation")
                .find(|e| e.actor.as_deref() == Some("III./IR 582"))
                .expect("the garrison throws");
            let garrison = c.occupant("III./IR 582").unwrap().attitude.attitude();
            let dice = OccupierPosture::of(garrison, false, false).dice() + DEFENDER_EXTRA_DETECTION_DICE;
            assert_eq!(looked.dice.len(), usize::from(dice), "seed {seed}: 16.4's dice and the extra 1D6");
            let seen = c.force("III./IR 582").unwrap().sighted.contains(PARAS);
            assert_eq!(seen, looked.outcome["detected"] == true, "seed {seed}");
        }
        assert!(doubles > 0, "a double costs a platoon some of its men");
        assert_eq!(patrols, 8, "the German fighters are up whenever their Air Command flies");
    }
}
