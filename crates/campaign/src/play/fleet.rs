//! The fleets at sea (FYOW 29). At the start of each day every vessel is
//! activated: its damage is assessed (29.11), its Dockyard repairs and
//! rallies it in harbour (29.15, 29.12), and a vessel that sails is thrown
//! for serviceability (29.4) and placed on its sea Map Board for the day
//! (29.5). In each session a vessel on station spots the enemy on the
//! coasts its sea touches and fires on him (29.9, 29.10.4); the enemy's dive
//! and fighter bombers strike at a vessel that has fired on his forces,
//! through its AA fire (28.8, 29.9, 29.10.5, 29.10.6).

use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::air::Role;
use crate::map::board::{BoardId, Route};
use crate::map::common::Side;
use crate::naval::condition::{assess_condition, dockyard_repair, rally};
use crate::naval::craft::{Craft, START_CONDITION, Weapon, serviceability};
use crate::naval::fire::{AirAttack, AircraftRole, Ordnance, aircraft_attack, ship_aa_fire, ship_fire_at_shore};
use crate::naval::spotting::{Nomination, Observer, SpotTarget, spot, spotting_dice};
use crate::naval::{Rain, SeaConditions, Wind};
use crate::play::state::{Campaign, CampaignError, ix};

/// The guns a vessel fires at the shore, the heaviest first.
const SHORE_GUNS: [Weapon; 3] = [Weapon::Gun150mmPlus, Weapon::Gun149mm, Weapon::Gun75mm];

/// How a squadron of this role attacks a ship (29.10.6), if it may.
fn anti_shipping(role: Role) -> Option<AirAttack> {
    match role {
        Role::DiveBomber => Some(AirAttack::DiveBomber),
        // Reading (FYOW 29.10.6): a fighter bomber carries small bombs (Table D).
        Role::FighterBomber => Some(AirAttack::FighterBomber(Ordnance::SmallBombs)),
        _ => None,
    }
}

impl Campaign {
    /// The session's light and weather as the naval rules read them.
    pub(crate) fn sea_conditions(&self) -> SeaConditions {
        let c = self.conditions;
        SeaConditions {
            light: c.light,
            rain: if c.heavy_rain { Rain::Heavy } else { Rain::None },
            wind: if c.high_winds { Wind::High } else { Wind::Calm },
            snow: c.snow,
            fog: c.fog,
        }
    }

    /// The coastal Map Boards a vessel on `station` covers: those the sea
    /// links to (29.5, "where off-shore fire support is required").
    pub(crate) fn coasts_of(&self, station: &BoardId) -> Vec<BoardId> {
        let mut coasts: Vec<BoardId> = self
            .file
            .map
            .links
            .iter()
            .filter(|l| l.route == Route::Sea)
            .filter_map(|l| {
                if &l.from == station {
                    Some(l.to.clone())
                } else if &l.to == station {
                    Some(l.from.clone())
                } else {
                    None
                }
            })
            .collect();
        coasts.sort();
        coasts.dedup();
        coasts
    }

    /// Whether army `a`'s Naval Command sends a vessel on `station` out
    /// today: its army knows of an enemy force on a coast it covers, or has
    /// a force of its own there to support.
    fn wanted_off_shore(&self, a: usize, station: &BoardId) -> bool {
        let side = self.armies[a].side;
        let coasts = self.coasts_of(station);
        let enemy_known = self.armies[a].known.values().any(|(b, _)| coasts.contains(b));
        let ours_there = self.forces.iter().any(|f| f.side == side && f.board().is_some_and(|b| coasts.contains(b)));
        enemy_known || ours_there
    }

    /// FYOW 29.4, 29.5, 29.11, 29.12, 29.15 at the start of the day: each
    /// vessel back in harbour with its day's shots, its damage assessed on
    /// activation, one vessel repaired by the Dockyard and the damaged
    /// rallied there; the vessels wanted off-shore throw for serviceability
    /// and those that operate are placed on their station for the day.
    ///
    /// Reading (FYOW 29.5, 29.6.1): on a simple coastline every sea-going
    /// vessel, not only the Destroyer, is placed where it is required
    /// without a move test; 29.6.1's test is for the river links. A vessel
    /// at half strength or less, or below its starting Strategic Condition,
    /// stays in the Dockyard until it is whole (test
    /// `a_damaged_vessel_stays_in_the_dockyard_until_it_is_whole`).
    pub(crate) fn fleet_start_of_day(&mut self) {
        for a in 0..self.armies.len() {
            for k in 0..self.armies[a].fleet.len() {
                let ship = &mut self.armies[a].fleet[k];
                ship.at_sea = false;
                ship.fired_at.clear();
                ship.vessel.new_day();
                if ship.vessel.damage_since_activation > 0 && !ship.vessel.sunk() {
                    self.in_step(|c| {
                        if let Ok((_, e)) = assess_condition(&mut c.armies[a].fleet[k].vessel, &mut c.dice) {
                            c.log(e.input("harbour", c.armies[a].fleet[k].harbour.clone(), ""));
                        }
                    });
                }
            }
            // 29.15: "1 point of damage can be repaired for 1 vessel in 1 campaign day".
            let most_damaged = (0..self.armies[a].fleet.len())
                .filter(|&k| !self.armies[a].fleet[k].vessel.sunk() && self.armies[a].fleet[k].vessel.damage > 0)
                .max_by_key(|&k| (self.armies[a].fleet[k].vessel.damage, usize::MAX - k));
            if let Some(k) = most_damaged {
                self.in_step(|c| {
                    if let Ok((_, e)) = dockyard_repair(&mut c.armies[a].fleet[k].vessel, &mut c.dice) {
                        c.log(e.input("dockyard", c.armies[a].fleet[k].harbour.clone(), ""));
                    }
                });
            }
            for k in 0..self.armies[a].fleet.len() {
                let v = &self.armies[a].fleet[k].vessel;
                if !v.sunk() && v.condition < START_CONDITION {
                    self.in_step(|c| {
                        if let Ok((_, e)) = rally(&mut c.armies[a].fleet[k].vessel, true, &mut c.dice) {
                            c.log(e.input("dockyard", c.armies[a].fleet[k].harbour.clone(), ""));
                        }
                    });
                }
            }
            let player = self.player == Some(self.armies[a].side);
            for k in 0..self.armies[a].fleet.len() {
                let ship = &self.armies[a].fleet[k];
                let v = &ship.vessel;
                let whole = !v.half_strength() && v.condition == START_CONDITION;
                let wanted = if player {
                    !ship.held_in_harbour
                } else if v.craft == Craft::Submarine {
                    self.enemy_vessels_stationed(a, &ship.station)
                } else {
                    self.wanted_off_shore(a, &ship.station)
                };
                if v.ready().is_err() || !whole || !wanted {
                    continue;
                }
                self.in_step(|c| c.sail(a, k));
            }
        }
        self.naval_engagements_begin();
    }

    /// FYOW 29.4, 29.5: vessel `k` of army `a` throws for serviceability and,
    /// if it operates, is placed on its station for the day.
    fn sail(&mut self, a: usize, k: usize) {
        let ship = &self.armies[a].fleet[k];
        let (results, e) = serviceability(std::slice::from_ref(&ship.vessel), false, &mut self.dice);
        let (name, station) = (ship.vessel.id.clone(), ship.station.clone());
        self.log(e.actor(&name));
        if !results.first().is_some_and(|r| r.operates) {
            return;
        }
        self.armies[a].fleet[k].at_sea = true;
        self.log(
            RuleEvent::new(EventKind::MapMovement, crate::naval::rule("29.5 Boats shown on the campaign map"))
                .actor(&name)
                .input("craft", self.armies[a].fleet[k].vessel.craft, "")
                .input("from", self.armies[a].fleet[k].harbour.clone(), "its harbour")
                .outcome(json!({ "placed_on": station, "for": "the day", "move_test": false })),
        );
    }

    /// FYOW 29.9, 29.10.4–29.10.6 in a session: the naval engagements are
    /// fought (29.17, [`crate::play::sea`]); each vessel on station and not
    /// in its Box spots and fires on the enemy on its coasts; then the enemy's bombers strike
    /// at the vessels that have fired on his forces today.
    pub(crate) fn fleet_session(&mut self) {
        self.naval_engagements_session();
        for a in 0..self.armies.len() {
            for k in 0..self.armies[a].fleet.len() {
                let ship = &self.armies[a].fleet[k];
                if ship.at_sea && ship.vessel.ready().is_ok() && !self.in_the_box(&ship.vessel.id) {
                    self.bombard(a, k);
                }
            }
        }
        for a in 0..self.armies.len() {
            for k in 0..self.armies[a].fleet.len() {
                let ship = &self.armies[a].fleet[k];
                let shelled_the_shore = ship.fired_at.iter().any(|t| self.vessel_at(t).is_none());
                if ship.at_sea && ship.vessel.ready().is_ok() && shelled_the_shore {
                    self.strike_at_ship(a, k);
                }
            }
        }
    }

    /// FYOW 29.9, 29.10.4: vessel `k` of army `a` spots the enemy forces on
    /// the coasts it covers (not those fighting a battle) and fires its
    /// heaviest guns with shots left at the first it spots.
    ///
    /// Reading (FYOW 29.10.4, 33.7.2 (iv)): the effect dice are the points
    /// the force loses, as a barrage's and an aircraft's ground attack's
    /// are (test `a_vessel_on_station_spots_and_shells_the_enemy_on_its_coast`).
    fn bombard(&mut self, a: usize, k: usize) {
        let side = self.armies[a].side;
        let ship = &self.armies[a].fleet[k];
        let observer = Observer::Vessel { craft: ship.vessel.craft, british_radar: ship.radar };
        let Some(weapon) = SHORE_GUNS
            .into_iter()
            .find(|&w| ship.vessel.guns_able_to_fire(w) > 0 && ship.vessel.mount(w).is_some_and(|m| m.left_today > 0))
        else {
            return;
        };
        let coasts = self.coasts_of(&ship.station);
        let mut targets: Vec<(String, BoardId)> = coasts
            .iter()
            .flat_map(|b| {
                self.occupation[b].occupants.iter().filter(|o| o.side != side).map(|o| (o.force.clone(), b.clone()))
            })
            .filter(|(f, _)| !self.in_battle(f))
            .collect();
        // The forces it fired on before come first: the follow-up (29.8).
        targets.sort_by_key(|(f, _)| !ship.fired_at.contains(f));
        targets.truncate(usize::from(spotting_dice(observer)));
        if targets.is_empty() {
            return;
        }
        let nominations: Vec<Nomination> = targets
            .iter()
            .map(|(f, _)| Nomination {
                id: f.clone(),
                target: SpotTarget::OnShore,
                in_combat_area: true,
                firing_at_observer: false,
            })
            .collect();
        let conditions = self.sea_conditions();
        let name = ship.vessel.id.clone();
        let spotted = self.in_step(|c| {
            let Ok((results, e)) = spot(&name, observer, true, &nominations, conditions, &mut c.dice) else {
                return None;
            };
            c.log(e);
            let day = c.day;
            for r in results.iter().filter(|r| r.spotted) {
                if let Some((_, b)) = targets.iter().find(|(f, _)| f == &r.id) {
                    c.armies[ix(side)].known.insert(r.id.clone(), (b.clone(), day));
                }
            }
            results.into_iter().find(|r| r.spotted).map(|r| r.id)
        });
        let Some(target) = spotted else { return };
        let board = targets.iter().find(|(f, _)| f == &target).map(|(_, b)| b.clone());
        self.in_step(|c| {
            let ship = &mut c.armies[a].fleet[k];
            let follow_up = ship.fired_at.contains(&target);
            let guns = ship.vessel.guns_able_to_fire(weapon);
            let Ok((out, e)) =
                ship_fire_at_shore(&mut ship.vessel, weapon, guns, follow_up, conditions.light, &mut c.dice)
            else {
                return;
            };
            ship.fired_at.insert(target.clone());
            let points = u32::from(out.effect);
            c.log(e.target(&target).input("board", &board, "").input(
                "points_lost",
                points,
                "the effect dice as points, as a barrage's (33.7.2 (iv))",
            ));
            c.book_losses(&target, points, None);
        });
    }

    /// FYOW 28.8, 29.9, 29.10.5, 29.10.6: the enemy's Air Command sends a
    /// dive or fighter bomber squadron that has not flown today at vessel
    /// `k` of army `a`, when its aircraft may fly this session: the machines
    /// spot the vessel, its AA guns fire at them, and those still flying
    /// attack it.
    fn strike_at_ship(&mut self, a: usize, k: usize) {
        let enemy = ix(self.armies[a].side.enemy());
        let Some(conditions) = self.air_conditions() else { return };
        if !self.may_fly(enemy, conditions) {
            return;
        }
        let Some(g) = self.squadron_for(enemy, |r| anti_shipping(r).is_some()) else { return };
        let Some(air) = self.armies[enemy].air.as_mut() else { return };
        let sq = &mut air.squadrons[g].0;
        sq.fly_sortie();
        let (squadron, machines, role) = (sq.name.clone(), sq.operational(), sq.role);
        let Some(attack) = anti_shipping(role) else { return };
        let ship = &self.armies[a].fleet[k];
        let (vessel, craft, station) = (ship.vessel.id.clone(), ship.vessel.craft, ship.station.clone());
        self.log_step([RuleEvent::new(EventKind::AirOperation, crate::play::state::fyow("28.8 Aircraft missions"))
            .actor(&squadron)
            .input("mission", "Strike at shipping", "a vessel that has fired on our forces today")
            .input("board", &station, "")
            .target(&vessel)
            .outcome(json!({ "machines": machines }))]);
        let sea = self.sea_conditions();
        let nomination = Nomination {
            id: vessel.clone(),
            target: SpotTarget::Vessel(craft),
            in_combat_area: true,
            firing_at_observer: false,
        };
        let observer = Observer::Aircraft { machines: u8::try_from(machines).unwrap_or(u8::MAX) };
        let seen = self.in_step(|c| match spot(&squadron, observer, true, &[nomination], sea, &mut c.dice) {
            Ok((results, e)) => {
                c.log(e);
                results.first().is_some_and(|r| r.spotted)
            }
            Err(_) => false,
        });
        if !seen {
            return;
        }
        // 29.10.5: the vessel's AA guns fire at the attackers first.
        let aa = {
            let v = &self.armies[a].fleet[k].vessel;
            v.guns_able_to_fire(Weapon::Aa20mm)
                .min(v.mount(Weapon::Aa20mm).map_or(0, |m| u8::try_from(m.left_today).unwrap_or(u8::MAX)))
        };
        let aircraft_role = if role == Role::DiveBomber { AircraftRole::DiveBomber } else { AircraftRole::Other };
        if aa > 0 {
            self.in_step(|c| {
                let Ok((out, e)) =
                    ship_aa_fire(&mut c.armies[a].fleet[k].vessel, aa, aircraft_role, false, &mut c.dice)
                else {
                    return;
                };
                c.log(e.target(&squadron));
                c.aa_damage(enemy, g, out.effect, crate::naval::rule("29.10.5 Ships vs aircraft"));
            });
        }
        let flying = self.armies[enemy].air.as_ref().map_or(0, |air| air.squadrons[g].0.operational());
        if flying == 0 {
            return;
        }
        let light = sea.light;
        self.in_step(|c| {
            let flying = u8::try_from(flying).unwrap_or(u8::MAX);
            if let Ok((out, e)) =
                aircraft_attack(&squadron, attack, flying, &mut c.armies[a].fleet[k].vessel, light, &mut c.dice)
            {
                c.log(e.input("board", &station, ""));
                if out.sunk {
                    c.armies[a].fleet[k].at_sea = false;
                }
            }
        });
    }

    /// The player keeps a vessel of his fleet in harbour, or lets it sail
    /// from tomorrow (FYOW 29.5: a vessel is placed for a day).
    pub(crate) fn hold_in_harbour(&mut self, vessel: &str, hold: bool) -> Result<(), CampaignError> {
        self.afloat_mut(vessel, "29.5")?.held_in_harbour = hold;
        Ok(())
    }

    /// The player orders a vessel's captain to keep out of a naval
    /// engagement, waiting in her Box, or to fight again (FYOW 29.17: a
    /// captain "may ... Move onto or away from the Combat Area"). Takes
    /// effect at her next activation.
    pub(crate) fn stand_off(&mut self, vessel: &str, stand_off: bool) -> Result<(), CampaignError> {
        self.afloat_mut(vessel, "29.17")?.stands_off = stand_off;
        Ok(())
    }

    /// The vessel called `vessel`, refused under `section` when there is
    /// none and under 29.1 when she has sunk.
    fn afloat_mut(&mut self, vessel: &str, section: &str) -> Result<&mut crate::play::state::Ship, CampaignError> {
        let found = self
            .armies
            .iter_mut()
            .flat_map(|a| a.fleet.iter_mut())
            .find(|s| s.vessel.id == vessel)
            .ok_or_else(|| CampaignError::new(section, format!("no vessel is called {vessel:?}")))?;
        if found.vessel.sunk() {
            return Err(CampaignError::new("29.1", format!("{vessel} has sunk")));
        }
        Ok(found)
    }

    /// The vessels of `side`'s fleet, afloat.
    pub fn fleet(&self, side: Side) -> impl Iterator<Item = &crate::play::state::Ship> {
        self.armies[ix(side)].fleet.iter().filter(|s| !s.vessel.sunk())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::play::testing::cyrenaica;

    /// Battleaxe on `seed`, the Inshore Squadron's gunboat on station in
    /// daylight, the enemy on the coast it covers.
    fn aphis_on_station(seed: u64) -> Campaign {
        let mut c = Campaign::new("cyrenaica-1941.ron", cyrenaica(), seed).unwrap();
        c.begin_day();
        c.drain_events();
        c.conditions = crate::map::common::SessionConditions::fine_day();
        let blue = ix(Side::Blue);
        for ship in &mut c.armies[blue].fleet {
            ship.at_sea = ship.vessel.id == "HMS Aphis";
        }
        c.naval_engagements.clear();
        c
    }

    fn value(c: &Campaign, force: &str) -> u32 {
        c.force(force).map_or(0, |f| f.battlegroup.elements.iter().map(|e| e.points).sum())
    }

    #[test]
    fn a_vessel_on_station_spots_and_shells_the_enemy_on_its_coast() {
        let mut shelled = 0;
        for seed in 1..=10 {
            let mut c = aphis_on_station(seed);
            let mut shots = 0;
            let coasts = c.coasts_of(&BoardId::new("Gulf of Sollum"));
            for _ in 0..6 {
                let before: BTreeMap<String, u32> =
                    c.forces.iter().map(|f| (f.name.clone(), value(&c, &f.name))).collect();
                c.fleet_session();
                let events = c.drain_events();
                for (n, e) in events.iter().enumerate() {
                    if e.rule.section != "29.10.4 Ships firing on shore based targets" {
                        continue;
                    }
                    shelled += 1;
                    shots += e.outcome["shots"].as_array().unwrap().len();
                    let target = e.target.clone().unwrap();
                    // Only a target spotted this session by the same vessel is fired on (29.9, 29.17).
                    let spotted = events[..n].iter().any(|s| {
                        s.rule.section == "29.9 Spotting targets"
                            && s.actor.as_deref() == Some("HMS Aphis")
                            && s.outcome["results"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .any(|r| r["id"] == target.as_str() && r["spotted"] == true)
                    });
                    assert!(spotted, "seed {seed}: {target} was spotted first");
                    let board =
                        BoardId::new(e.inputs.iter().find(|i| i.name == "board").unwrap().value.as_str().unwrap());
                    assert!(coasts.contains(&board), "seed {seed}: {board} is a coast the Gulf touches");
                    assert!(c.army(Side::Blue).known.contains_key(&target), "the spotted force is known");
                    let lost =
                        e.inputs.iter().find(|i| i.name == "points_lost").unwrap().value.as_u64().unwrap() as u32;
                    let after = value(&c, &target);
                    assert!(
                        after <= before[&target] && after + lost >= before[&target],
                        "seed {seed}: {target} loses up to {lost}"
                    );
                    if lost >= 2 {
                        assert!(after < before[&target], "seed {seed}: {target} lost points");
                    }
                }
            }
            let aphis = &c.army(Side::Blue).fleet[0].vessel;
            let guns = aphis.mount(Weapon::Gun75mm).unwrap();
            // 29.2, 29.10.4: one shot a gun, from the day's 3 a gun.
            assert_eq!(usize::from(guns.count) * 3 - usize::from(guns.left_today), shots, "seed {seed}: shots spent");
        }
        assert!(shelled > 0, "the gunboat fires on the coast in some of 10 battles");
    }

    #[test]
    fn a_damaged_vessel_stays_in_the_dockyard_until_it_is_whole() {
        let mut c = Campaign::new("cyrenaica-1941.ron", cyrenaica(), 4).unwrap();
        let blue = ix(Side::Blue);
        c.armies[blue].fleet[0].vessel.take_damage(4);
        assert!(c.armies[blue].fleet[0].vessel.half_strength());
        c.begin_day();
        let events = c.drain_events();
        let of = |section: &str| {
            events.iter().filter(|e| e.rule.section == section && e.actor.as_deref() == Some("HMS Aphis")).count()
        };
        assert_eq!(of("29.11 Strategic Condition of naval Battlegroups"), 1, "its damage is assessed on activation");
        assert_eq!(of("29.15 Repairs to damage on boats"), 1, "the Dockyard works on the most damaged vessel");
        let aphis = &c.armies[blue].fleet[0];
        let repaired = events
            .iter()
            .find(|e| e.rule.section.starts_with("29.15"))
            .map(|e| e.outcome["repaired"].as_u64().unwrap())
            .unwrap();
        assert_eq!(u64::from(aphis.vessel.damage), 4 - repaired);
        assert_eq!(aphis.vessel.damage_since_activation, 0);
        if aphis.vessel.half_strength() || aphis.vessel.condition < START_CONDITION {
            assert!(!aphis.at_sea, "a damaged vessel does not sail");
            assert_eq!(of("29.5 Boats shown on the campaign map"), 0);
        }
    }

    #[test]
    fn the_enemys_bombers_strike_at_a_vessel_that_shelled_them_through_its_aa() {
        let mut attacks = 0;
        for seed in 1..=10 {
            let by = battleaxe_log(seed);
            for (n, e) in by.iter().enumerate() {
                if e.rule.section != "29.10.6 Aircraft vs ships" {
                    continue;
                }
                attacks += 1;
                let squadron = e.actor.clone().unwrap();
                let vessel = e.target.clone().unwrap();
                let sortie = by[..n]
                    .iter()
                    .rposition(|s| s.rule.section == "28.8 Aircraft missions" && s.actor.as_deref() == Some(&squadron))
                    .expect("the strike is a sortie of its own");
                let machines = by[sortie].outcome["machines"].as_u64().unwrap();
                let shelled_before = by[..sortie]
                    .iter()
                    .any(|s| s.rule.section.starts_with("29.10.4") && s.actor.as_deref() == Some(vessel.as_str()));
                assert!(shelled_before, "seed {seed}: {vessel} had fired on the shore");
                let aa_hits: u64 = by[sortie..n]
                    .iter()
                    .filter(|s| s.rule.section.starts_with("29.10.5") && s.outcome.get("effect").is_some())
                    .map(|s| s.outcome["effect"].as_u64().unwrap())
                    .sum();
                let aircraft = e.inputs.iter().find(|i| i.name == "aircraft").unwrap().value.as_u64().unwrap();
                assert!(aircraft <= machines, "seed {seed}: no more machines attack than flew");
                assert!(aircraft + aa_hits >= machines, "seed {seed}: each AA hit takes at most one machine out");
            }
        }
        assert!(attacks > 0, "the Stukas strike at the Inshore Squadron in some of 10 campaigns");
    }

    /// The whole log of Battleaxe on `seed`, in order.
    fn battleaxe_log(seed: u64) -> Vec<RuleEvent> {
        let mut c = Campaign::new("cyrenaica-1941.ron", cyrenaica(), seed).unwrap();
        let mut log = c.drain_events();
        for _ in 0..c.file.days {
            c.play_day();
            log.extend(c.drain_events());
        }
        log
    }

    #[test]
    fn the_players_vessel_held_in_harbour_does_not_sail() {
        use crate::play::Command;
        let sailed = |hold: bool| {
            let mut c = Campaign::new("cyrenaica-1941.ron", cyrenaica(), 2).unwrap();
            c.player = Some(Side::Blue);
            c.command(Command::Harbour { vessel: "HMS Aphis".into(), hold }).unwrap();
            c.play_days(3);
            c.drain_events()
                .iter()
                .filter(|e| e.rule.section.starts_with("29.4") && e.actor.as_deref() == Some("HMS Aphis"))
                .count()
        };
        assert_eq!(sailed(true), 0, "held in harbour: no serviceability throw, no sailing");
        assert!(sailed(false) > 0, "let go, the player's vessel sails");
        let mut c = Campaign::new("cyrenaica-1941.ron", cyrenaica(), 2).unwrap();
        let e = c.command(Command::Harbour { vessel: "HMS Hood".into(), hold: true }).unwrap_err();
        assert!(e.to_string().contains("no vessel is called"), "{e}");
    }
}
