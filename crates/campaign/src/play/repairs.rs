//! Crews repairing their damaged AFVs each session (FYOW 23.1, 33.10).

use crate::map::common::Light;
use crate::play::state::Campaign;
use crate::supply::SupplyError;
use crate::supply::repairs::{RepairConditions, crew_session};
use crate::weather::ChanceOutcome;

impl Campaign {
    /// FYOW 33.10, 23.1: the crews of damaged AFVs throw 2D6 a session to
    /// repair their own vehicles (not while their force fights or rests); a
    /// repaired AFV is back at its full value.
    pub(crate) fn crew_repairs(&mut self) {
        let gauge = self.today.as_ref().map_or(0, |t| t.gauge_at_start);
        for i in 0..self.forces.len() {
            if self.forces[i].repairs.is_empty() || self.forces[i].is_gone() || self.in_battle(&self.forces[i].name) {
                continue;
            }
            let cond = RepairConditions {
                night: self.conditions.light != Light::Daylight,
                heavy_rain_or_snow: self.conditions.heavy_rain || self.conditions.snow,
                gauge,
                mode: self.forces[i].supply.mode,
            };
            let name = self.forces[i].name.clone();
            // 32, the 2♠ and 2♣: "Add 2 (1) to every Work & Task need" today.
            let added: u32 = self
                .cards_today
                .iter()
                .map(|c| if let ChanceOutcome::WorkTaskNeed(n) = c { u32::from(*n) } else { 0 })
                .sum();
            let mut jobs = std::mem::take(&mut self.forces[i].repairs);
            let mut repaired = Vec::new();
            for job in &mut jobs {
                job.needed += added;
                let worked = crew_session(job, &cond, &mut self.dice, &name);
                job.needed -= added;
                let completed = match worked {
                    Ok((session, e)) => {
                        self.log(e.target(&job.vehicle));
                        session.completed.into_iter().map(|done| done.vehicle).collect()
                    }
                    // Worked past today's need on a day it was higher: done now.
                    Err(SupplyError::AlreadyDone) => vec![job.vehicle.clone()],
                    Err(_) => continue,
                };
                for vehicle in completed {
                    // Within the board's capacity for the side (13.9).
                    let side = self.forces[i].side;
                    let room = self.forces[i]
                        .board()
                        .map_or(0, |b| self.file.max_points().saturating_sub(self.occupation[b].side_points(side)));
                    // A vehicle damaged on the table runs again; its
                    // company's points never fell for the damage (its cost
                    // is still in its order of battle).
                    let mut on_table = false;
                    for company in self.forces[i].orbat.iter_mut().filter(|c| c.element == vehicle) {
                        for piece in company.elements.iter_mut().flat_map(|e| e.pieces.iter_mut()) {
                            on_table |= piece.damaged;
                            piece.damaged = false;
                        }
                    }
                    let full = self.forces[i]
                        .kit
                        .iter()
                        .find(|k| k.name == vehicle)
                        .map(crate::play::file::ElementFile::points);
                    if let (false, Some(full), Some(el)) =
                        (on_table, full, self.forces[i].battlegroup.elements.iter_mut().find(|e| e.name == vehicle))
                    {
                        el.points += full.saturating_sub(el.points).min(room);
                    }
                    repaired.push(vehicle);
                }
            }
            // A job unfinished at today's need (with the day's card) goes on.
            jobs.retain(|j| !repaired.contains(&j.vehicle));
            self.forces[i].repairs = jobs;
            self.sync_points(&name);
            if !repaired.is_empty() {
                self.milestone_tests(&name);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use warbound_rules::codex::Points;
    use warbound_rules::event::EventKind;

    use crate::map::board::BoardId;
    use crate::map::common::Edge;
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;
    use crate::play::testing::campaign;

    #[test]
    fn a_damaged_afv_is_repaired_by_its_crew_not_replaced() {
        // 33.10 "An AFV can have its value reduced by up to 50% but then is
        // considered to be damaged ... Repairs can be undertaken"; 23.1 "Throw
        // 2D6 per session. The damage is repaired when HALF of the vehicle's
        // points value (rounded up) is accumulated as a score".
        let mut c = campaign();
        c.relocate("Blue 2", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        c.book_losses("Blue 2", 825, None);
        let f = c.force("Blue 2").unwrap();
        assert_eq!(
            f.battlegroup.elements.iter().map(|e| (e.name.as_str(), e.points)).collect::<Vec<_>>(),
            [("Tanks", 225)]
        );
        assert_eq!(f.losses.total(), Points::whole(600), "the damaged tanks are not casualties");
        assert_eq!(f.repairs.len(), 1);
        assert_eq!(f.repairs[0].needed, 225, "half of 450");
        c.drain_events();
        let mut sessions = 0;
        while !c.force("Blue 2").unwrap().repairs.is_empty() {
            c.crew_repairs();
            sessions += 1;
            assert!(sessions < 100);
        }
        assert!(sessions >= 225 / 12, "2D6 a session: at least {} sessions, took {sessions}", 225 / 12);
        assert_eq!(c.force("Blue 2").unwrap().points(), 450, "repaired to its full value");
        // 24.2 "if the element ... has a Continuous Momentum score of less than 6
        // ... the element gains a Rallying throw": on the map its CMS is 6.
        let events = c.drain_events();
        let done = events.iter().rfind(|e| e.rule.section == "23.1 Repairs to Damaged vehicles").unwrap();
        assert_eq!(done.outcome["completed"][0]["rally_throw"], json!(false));
        assert!(!events.iter().any(|e| e.kind == EventKind::Rally));
        c.check_invariants().unwrap();
    }

    #[test]
    fn an_unfinished_repair_is_kept_until_the_vehicle_is_restored() {
        // 23.1 "The damage is repaired when HALF of the vehicle's points value
        // (rounded up) is accumulated as a score"; 32, the 2♠: "Add 2 to every
        // Work & Task need" that day.
        let damaged = |seed| {
            let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
            c.day = 2;
            c.relocate("Blue 2", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
            c.book_losses("Blue 2", 825, None);
            c
        };
        for seed in 0..8 {
            let mut c = damaged(seed);
            c.cards_today = vec![ChanceOutcome::WorkTaskNeed(2)];
            for _ in 0..100 {
                c.crew_repairs();
                let f = c.force("Blue 2").unwrap();
                if f.repairs.is_empty() {
                    break;
                }
            }
            let f = c.force("Blue 2").unwrap();
            assert!(f.repairs.is_empty(), "seed {seed}: the crew finishes within 100 sessions");
            assert_eq!(f.points(), 450, "seed {seed}: the job ends only with the tanks repaired");
        }
        // Worked to 226 of a need raised to 227: done on a day the need is 225 again.
        let mut c = damaged(0);
        let i = c.fx("Blue 2").unwrap();
        c.forces[i].repairs[0].accumulated = 226;
        c.cards_today.clear();
        c.crew_repairs();
        let f = c.force("Blue 2").unwrap();
        assert!(f.repairs.is_empty());
        assert_eq!(f.points(), 450, "repaired without another throw");
    }
}
