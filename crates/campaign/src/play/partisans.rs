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
    Mission, SupplyEffect, Sweep, SweepTrigger, anti_partisan_sweep, attack, halved_stockpile, new_cell_for_season,
    observe, plan_mission,
};
use crate::play::state::{Campaign, fyow};
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
        let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut p.missions).into_iter().partition(|m| m.0 <= now);
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
            let (k, e) = p.list.choose(&p.cells[i].name.clone(), &mut self.dice);
            self.log(e);
            let target = p.list.targets()[k].clone();
            let board = BoardId::new(&target.map_board);
            match mission {
                Mission::Attack => {
                    let Ok((result, es)) = attack(&mut p.cells[i], &target, &mut self.dice) else { continue };
                    es.into_iter().for_each(|e| self.log(e));
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
                    if let Ok((_, es)) = observe(&mut p.cells[i], spotted, &mut self.dice) {
                        es.into_iter().for_each(|e| self.log(e));
                    }
                    if spotted {
                        p.sweeps_due.push((i, SweepTrigger::Detected, target.map_board.clone()));
                    } else {
                        // 34.9: the radio report reaches the army the partisans help.
                        let day = self.day;
                        for (force, _) in occupiers {
                            self.army_mut(p.helps).known.insert(force, (board.clone(), day));
                        }
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
