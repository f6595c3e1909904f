//! The partisans' month (FYOW 34): new cells each season, recruits,
//! explosives and radios each month, missions planned by the 5D6 and carried
//! out in their session, the damage done to the enemy's supply, observation
//! for the army they help, and the enemy's sweeps the week after.

use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::calendar::CampaignDate;
use crate::map::board::BoardId;
use crate::map::detection::{Bearing, OccupierPosture, Quarry, detect_from_occupation};
use crate::paper::partisans::{
    AgentFate, AttackOutcome, Mission, Standing, SupplyEffect, Sweep, SweepTrigger, anti_partisan_sweep, attack,
    buy_agents, halved_stockpile, new_cell_for_season, observe, plan_mission, weekly_report,
};
use crate::play::state::{Campaign, Partisans, fyow};
use crate::supply::logistics::Mode;
use crate::weather::ChanceOutcome;

impl Campaign {
    /// FYOW 34.4: the start of a season after the first; a double on 2D6 adds a cell.
    pub(crate) fn partisans_new_season(&mut self) {
        let Some(mut p) = self.partisans.take() else { return };
        let name = format!("Cell {}", p.cells.len() + 1);
        let (cell, e) = new_cell_for_season(name, &mut self.dice);
        self.log(e);
        p.cells.extend(cell);
        self.partisans = Some(p);
    }

    /// FYOW 34.4–34.6: each month after the first, recruits, explosives and radios.
    pub(crate) fn partisans_start_of_month(&mut self) {
        let Some(mut p) = self.partisans.take() else { return };
        for cell in p.cells.iter_mut().filter(|c| !c.is_gone()) {
            match cell.start_of_month(&mut self.dice) {
                Ok(es) => es.into_iter().for_each(|e| self.log(e)),
                Err(e) => self.log_refusal(e.section, &e.message),
            }
        }
        self.partisans = Some(p);
    }

    /// FYOW 34.15 at the start of a campaign month: the liberators try for
    /// an agent for each active cell (a double on 2D10), and every agent at
    /// home joins a cell still without one, the active cells first.
    ///
    /// Reading (FYOW 34.15): an agent home from a mission "can be sent
    /// again", and is, with the month's new agents (test
    /// `agents_bought_join_cells_and_throw_each_day_to_evade_capture`).
    pub(crate) fn partisan_agents(&mut self) {
        let Some(mut p) = self.partisans.take() else { return };
        let active = p.cells.iter().filter(|c| c.is_active()).count();
        if active > 0 {
            let (bought, e) = buy_agents(active, &mut self.dice);
            self.log(e);
            p.agents_home.extend(bought);
        }
        let mut order: Vec<usize> = (0..p.cells.len()).filter(|&i| !p.cells[i].is_gone()).collect();
        order.sort_by_key(|&i| !p.cells[i].is_active());
        for i in order {
            if p.cells[i].agent.is_some() || p.agents_home.is_empty() {
                continue;
            }
            let agent = p.agents_home.remove(0);
            match p.cells[i].attach_agent(agent) {
                Ok(e) => {
                    p.agent_joined.insert(i, self.day);
                    self.log(e);
                }
                Err(_) => p.agents_home.insert(0, agent),
            }
        }
        self.partisans = Some(p);
    }

    /// FYOW 34.15: "For each day after the Agent arrives, during the first
    /// daily session, the agent must throw 2D10. A double means that he and
    /// the cell are captured".
    pub(crate) fn partisan_agents_evade(&mut self) {
        let Some(mut p) = self.partisans.take() else { return };
        for i in 0..p.cells.len() {
            let after_arrival = p.agent_joined.get(&i).is_some_and(|&d| d < self.day);
            if p.cells[i].agent.is_none() || !after_arrival {
                continue;
            }
            if let Ok((captured, e)) = p.cells[i].agent_daily_evasion(&mut self.dice) {
                self.log(e);
                if captured {
                    p.agent_joined.remove(&i);
                }
            }
        }
        self.partisans = Some(p);
    }

    /// An agent's fate after a mission: home again to be sent once more (34.15).
    fn agent_back(p: &mut Partisans, i: usize, fate: Option<AgentFate>) {
        if let Some(AgentFate::ReturnedHome { agent }) = fate {
            p.agents_home.push(agent);
        }
        if p.cells[i].agent.is_none() {
            p.agent_joined.remove(&i);
        }
    }

    /// FYOW 34.8–34.9: each active cell throws for a mission this month:
    /// an attack if it has explosives, else an observation mission.
    pub(crate) fn partisans_plan_missions(&mut self) {
        let Some(mut p) = self.partisans.take() else { return };
        for (i, cell) in p.cells.iter().enumerate() {
            let mission = if cell.is_active() {
                Mission::Attack
            } else if cell.can_observe() {
                Mission::Observation
            } else {
                continue;
            };
            match plan_mission(cell, mission, &mut self.dice) {
                Ok((Some(when), e)) => {
                    self.log(e);
                    let day = (when.week - 1) * 3 + when.day;
                    if let Ok(date) = CampaignDate::new(self.date.year(), self.date.month(), day, when.session)
                        && date >= self.date
                    {
                        p.missions.push((date, i, mission));
                    }
                }
                Ok((None, e)) => self.log(e),
                Err(e) => self.log_refusal(e.section, &e.message),
            }
        }
        self.partisans = Some(p);
    }

    /// Missions whose session has come.
    pub(crate) fn partisan_missions(&mut self) {
        let Some(mut p) = self.partisans.take() else { return };
        let now = self.date;
        // 34.11: a cell fighting beside its liberators goes on its mission
        // once its battle is over.
        let fighting: Vec<usize> = self.battles.iter().filter_map(|b| b.partisans).collect();
        let (due, later): (Vec<_>, Vec<_>) =
            std::mem::take(&mut p.missions).into_iter().partition(|m| m.0 <= now && !fighting.contains(&m.1));
        p.missions = later;
        let enemy = p.helps.enemy();
        for (_, i, mission) in due {
            if self.cards_today.contains(&ChanceOutcome::PartisanActivityCancelled) {
                self.log(
                    RuleEvent::new(EventKind::Partisans, fyow("32 Chance Cards"))
                        .actor(&p.cells[i].name)
                        .outcome(json!({ "cancelled": "5 of Spades: planned partisan activity today is cancelled" })),
                );
                continue;
            }
            if p.cells[i].standing != Standing::Free {
                // 34.11: back from a battle, the cell takes no further action this month.
                self.log(
                    RuleEvent::new(EventKind::Partisans, fyow("34.11 Partisans in battle"))
                        .actor(&p.cells[i].name)
                        .input("standing", p.cells[i].standing, "after its battle")
                        .outcome(json!({ "cancelled": mission })),
                );
                continue;
            }
            let (k, e) = p.list.choose(&p.cells[i].name.clone(), &mut self.dice);
            self.log(e);
            let target = p.list.targets()[k].clone();
            let board = BoardId::new(&target.map_board);
            p.last_mission.insert(i, target.map_board.clone());
            match mission {
                Mission::Attack => {
                    let Ok((result, es)) = attack(&mut p.cells[i], &target, &mut self.dice) else { continue };
                    es.into_iter().for_each(|e| self.log(e));
                    Self::agent_back(&mut p, i, result.agent);
                    if target.railway
                        && matches!(result.outcome, AttackOutcome::Destroyed | AttackOutcome::Damaged { .. })
                    {
                        self.cut_line(
                            &board,
                            &p.cells[i].name,
                            crate::play::trains::Charges { partisan_sets: 1, ..Default::default() },
                        );
                    }
                    if let Some(effect) = result.supply {
                        self.partisan_supply_damage(&board, enemy, effect);
                    }
                    p.sweeps_due.push((i, SweepTrigger::Attack, target.map_board.clone()));
                    // 34.10: a new target for the vacant number, never the one just taken off.
                    if let Some(pos) = p.reserve.iter().position(|t| *t != target) {
                        let new = p.reserve.remove(pos).expect("found");
                        match p.list.replace(k, new.clone()) {
                            Ok(e) => {
                                self.log(e);
                                p.reserve.push_back(target);
                            }
                            Err(_) => p.reserve.push_front(new),
                        }
                    }
                }
                Mission::Observation => {
                    let occupiers: Vec<(String, OccupierPosture)> = self
                        .occupation
                        .get(&board)
                        .map(|o| {
                            o.occupants
                                .iter()
                                .filter(|x| x.side == enemy)
                                .map(|x| (x.force.clone(), OccupierPosture::of(x.attitude.attitude(), false, false)))
                                .collect()
                        })
                        .unwrap_or_default();
                    let mut spotted = false;
                    if let Some((force, posture)) = occupiers.first()
                        && let Ok((seen, e)) = detect_from_occupation(
                            force,
                            *posture,
                            Bearing::Front,
                            &self.conditions,
                            Quarry::Partisans,
                            true,
                            &mut self.dice,
                        )
                    {
                        self.log(e);
                        spotted = seen;
                    }
                    if let Ok((result, es)) = observe(&mut p.cells[i], spotted, &mut self.dice) {
                        es.into_iter().for_each(|e| self.log(e));
                        Self::agent_back(&mut p, i, result.agent);
                    }
                    if spotted {
                        p.sweeps_due.push((i, SweepTrigger::Detected, target.map_board.clone()));
                    } else {
                        // 34.9, 34.12: what the cell saw waits for its weekly radio report.
                        let day = self.day;
                        let seen = p.unreported.entry(i).or_default();
                        seen.extend(occupiers.into_iter().map(|(force, _)| (force, board.clone(), day)));
                    }
                }
            }
        }
        self.partisans = Some(p);
    }

    /// FYOW 34.8: what an attack on a stockpile or a supply route does to the
    /// enemy forces on that board.
    fn partisan_supply_damage(&mut self, board: &BoardId, enemy: crate::map::common::Side, effect: SupplyEffect) {
        let day = self.day;
        let names: Vec<String> = self.forces_on(board, enemy).iter().map(|f| f.name.clone()).collect();
        for name in names {
            let Some(i) = self.fx(&name) else { continue };
            let s = self.forces[i].supply.stockpile();
            match effect {
                SupplyEffect::StockpileLost => {
                    let e = self.forces[i].supply.lose_stockpile(s, &name);
                    self.log(e);
                }
                SupplyEffect::StockpileHalved => {
                    let e = self.forces[i].supply.lose_stockpile(s - halved_stockpile(s), &name);
                    self.log(e);
                }
                SupplyEffect::SupplyDiceReduced { days } | SupplyEffect::SupplyPipDeducted { days } => {
                    self.forces[i].partisan_effects.push((effect, day + u32::from(days)));
                }
            }
        }
    }

    /// FYOW 34.12, 34.13 at the start of each week: each cell with a radio
    /// calls in (5+ on a D10 to connect, then 2+ on a D6 to transmit). A
    /// report transmitted tells the army the partisans help what the cell
    /// has seen since it last got through; the occupier's listening units
    /// pinpoint the radio on a D10 of that score or less, and a sweep falls
    /// due where the cell last acted (34.14).
    ///
    /// Reading (FYOW 34.9, 34.12): an observation reaches the liberators
    /// only by the weekly report; a report that does not get through is
    /// sent again the next week. The occupier always has listening units
    /// ("It is expected that, where partisans are operating, the occupying
    /// army will deploy some") (test
    /// `what_a_cell_sees_reaches_the_army_by_its_weekly_radio_report`).
    pub(crate) fn partisan_reports(&mut self) {
        let Some(mut p) = self.partisans.take() else { return };
        for i in 0..p.cells.len() {
            if p.cells[i].is_gone() || !p.cells[i].radio {
                continue;
            }
            let Ok((report, es)) = weekly_report(&p.cells[i], true, &mut self.dice) else { continue };
            es.into_iter().for_each(|e| self.log(e));
            if report.transmitted.is_some() {
                for (force, board, day) in p.unreported.remove(&i).unwrap_or_default() {
                    self.army_mut(p.helps).known.insert(force, (board, day));
                }
            }
            if report.intercepted
                && let Some(board) = p.last_mission.get(&i)
            {
                p.sweeps_due.push((i, SweepTrigger::Intercept, board.clone()));
            }
        }
        self.partisans = Some(p);
    }

    /// FYOW 34.14: at the start of the week after an incident the enemy
    /// commander decides on a sweep, and sweeps.
    pub(crate) fn partisan_sweeps(&mut self) {
        let Some(mut p) = self.partisans.take() else { return };
        let enemy = p.helps.enemy();
        for (i, trigger, board) in std::mem::take(&mut p.sweeps_due) {
            if p.cells[i].is_gone() {
                continue;
            }
            let board = BoardId::new(&board);
            let away = self
                .forces
                .iter()
                .filter(|f| f.side == enemy && f.supply.mode != Mode::Rest)
                .filter_map(|f| f.board())
                .filter_map(|b| self.road_route(b, &board, false).map(|r| r.len()))
                .min();
            let Some(away) = away.filter(|&n| n <= 3) else { continue };
            let general = self.army(enemy).general.clone();
            let question = format!("sweep for the partisans at {board}");
            let Ok((d, e)) =
                self.command_decision(&general.name, general.competency, &question, trigger == SweepTrigger::Attack)
            else {
                continue;
            };
            self.log(e);
            if !d.success {
                continue;
            }
            let sweep = Sweep { trigger, map_boards_away: away as u8, platoons: 3 };
            match anti_partisan_sweep(&mut p.cells[i], &sweep, &mut self.dice) {
                Ok((_, es)) => es.into_iter().for_each(|e| self.log(e)),
                Err(e) => self.log_refusal(e.section, &e.message),
            }
        }
        self.partisans = Some(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::testing::guernsey;

    #[test]
    fn agents_bought_join_cells_and_throw_each_day_to_evade_capture() {
        // 34.15 "Agents can be attached to any cell"; "Presence of an Agent
        // means that an attack or observation mission is automatic that
        // month"; "For each day after the Agent arrives, during the first
        // daily session, the agent must throw 2D10. A double means that he and
        // the cell are captured".
        let mut captured = 0;
        for seed in 0..10 {
            let mut c = Campaign::new("guernsey-1942.ron", guernsey(), seed).unwrap();
            let p = c.partisans.as_mut().unwrap();
            let cell = &mut p.cells[0];
            (cell.members, cell.radio, cell.explosives) = (cell.members.max(4), true, 1);
            cell.standing = Standing::Free;
            p.agents_home.push(crate::paper::partisans::Agent::new());
            c.day = 1;
            c.drain_events();
            c.partisan_agents();
            let events = c.drain_events();
            assert!(events[0].inputs.iter().any(|i| i.name == "active_cells"), "seed {seed}: the month's attempts");
            let p = c.partisans.as_ref().unwrap();
            assert!(p.cells[0].agent.is_some(), "seed {seed}: the active cell takes the agent");
            assert_eq!(p.agent_joined.get(&0), Some(&1));
            c.partisans_plan_missions();
            let plan = c.drain_events().into_iter().find(|e| e.actor.as_deref() == Some(p_name(&c))).unwrap();
            assert!(plan.inputs.iter().any(|i| i.name == "agent"), "seed {seed}: the mission is automatic");
            c.partisan_agents_evade();
            assert!(c.drain_events().is_empty(), "seed {seed}: no throw on the day he arrives");
            for day in 2..=10 {
                c.day = day;
                c.partisan_agents_evade();
                let Some(e) = c.drain_events().pop() else { break };
                let faces: Vec<u8> = e.dice.iter().map(|d| d.face).collect();
                assert_eq!(faces.len(), 2, "2D10");
                let caught = e.outcome["captured"] == true;
                assert_eq!(caught, faces[0] == faces[1], "seed {seed}: a double captures him");
                if caught {
                    captured += 1;
                    let cell = &c.partisans.as_ref().unwrap().cells[0];
                    assert!(cell.agent.is_none() && cell.is_gone(), "seed {seed}: the cell is taken with him");
                    break;
                }
            }
        }
        assert!(captured > 0, "some agents are caught in 10 campaigns of 9 days");
    }

    fn p_name(c: &Campaign) -> &str {
        &c.partisans.as_ref().unwrap().cells[0].name
    }

    #[test]
    fn what_a_cell_sees_reaches_the_army_by_its_weekly_radio_report() {
        // 34.12 "A connection is made by throwing 5+ on a D10 ... 1 Report
        // cannot get through ... 2+ Results of the attack or details of enemy
        // units is transmitted"; 34.13 "the listening unit ... will be
        // successful if it can throw the same number or less on a D10".
        let (mut through, mut lost, mut intercepted) = (0, 0, 0);
        for seed in 0..40 {
            let mut c = Campaign::new("guernsey-1942.ron", guernsey(), seed).unwrap();
            let helps = c.partisans.as_ref().unwrap().helps;
            let enemy = c.forces.iter().find(|f| f.side == helps.enemy()).unwrap();
            let (force, board) = (enemy.name.clone(), enemy.board().unwrap().clone());
            let p = c.partisans.as_mut().unwrap();
            p.cells[0].radio = true;
            p.cells[0].members = p.cells[0].members.max(3);
            p.cells[0].standing = Standing::Free;
            p.unreported.insert(0, vec![(force.clone(), board.clone(), 1)]);
            p.last_mission.insert(0, board.0.clone());
            c.army_mut(helps).known.clear();
            c.drain_events();
            c.partisan_reports();
            let events = c.drain_events();
            let cell = c.partisans.as_ref().unwrap().cells[0].name.clone();
            let of_cell = |e: &&RuleEvent, section: &str| {
                e.rule.section == section && (e.actor.as_deref() == Some(&cell) || e.target.as_deref() == Some(&cell))
            };
            let call = events.iter().find(|e| of_cell(e, "34.12 Partisan communications")).expect("the cell calls in");
            let p = c.partisans.as_ref().unwrap();
            if call.outcome["transmitted"].is_null() {
                lost += 1;
                assert!(!c.army(helps).known.contains_key(&force), "seed {seed}: nothing reaches the army");
                assert_eq!(p.unreported[&0].len(), 1, "seed {seed}: sent again next week");
            } else {
                through += 1;
                assert_eq!(c.army(helps).known.get(&force), Some(&(board.clone(), 1)), "seed {seed}");
                assert!(!p.unreported.contains_key(&0));
            }
            let heard = events
                .iter()
                .find(|e| of_cell(e, "34.13 Enemy listening units"))
                .is_some_and(|e| e.outcome["intercepted"] == true);
            if heard {
                intercepted += 1;
            }
            let swept = p.sweeps_due.iter().any(|(i, t, b)| *i == 0 && *t == SweepTrigger::Intercept && b == &board.0);
            assert_eq!(swept, heard, "seed {seed}: an intercept brings a sweep where the cell last acted");
        }
        assert!(
            through > 0 && lost > 0 && intercepted > 0,
            "through {through}, lost {lost}, intercepted {intercepted}"
        );
    }
}
