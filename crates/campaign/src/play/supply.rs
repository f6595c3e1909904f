//! The daily supply of each force (FYOW 20, 24.2): the route its supply
//! takes home, over land or across the water, the day's throw on that line
//! and the need it meets.

use crate::map::board::{BoardId, RouteKind};
use crate::play::state::{Campaign, Whereabouts};
use crate::supply::logistics::{
    DailyModifiers, DayOrders, Route, RouteGuide, SupplyDice, TreatedAsDirect, convoy_dice, daily_throw,
};
use crate::supply::work::line_through_hub;
use crate::weather::{ChanceOutcome, Wind};

impl Campaign {
    /// FYOW 20: each force's daily supply throw and its need met.
    pub(crate) fn daily_supply(&mut self) {
        let shipping_stopped = self.today.as_ref().is_some_and(|t| matches!(t.wind, Wind::High | Wind::Freezing));
        for i in 0..self.forces.len() {
            // 3.8: a Picket in its battlegroup's chain is supplied through it.
            if self.forces[i].kind == crate::map::common::ForceKind::Picket && self.picket_connected(i) {
                continue;
            }
            let f = &self.forces[i];
            let direct = match &f.at {
                Whereabouts::Gone => continue,
                // Reading (FYOW 20.1): embarked forces are supplied from their
                // ships and throw nothing; on the invasion day, the first day
                // they are due to land across a beach, the line is Direct "for
                // that one day only".
                Whereabouts::Afloat { day, .. } if *day == self.day => Some(TreatedAsDirect::InvasionDay),
                Whereabouts::Afloat { .. } => continue,
                // Reading (FYOW 28.13): at its home airfield, off the map, an
                // airborne force is supplied there and throws nothing.
                Whereabouts::Airborne { .. } => continue,
                Whereabouts::Board(_) => None,
            };
            let (route, water) = self.supply_route(i);
            let mut disruptions = RouteGuide::BOOK.disruptions(route);
            let mut broken = false;
            if direct.is_none()
                && let Some(contested) = water
            {
                let hub = line_through_hub(contested, shipping_stopped);
                disruptions.extend_from_slice(hub.disruptions());
                broken = hub.broken;
            }
            let name = f.name.clone();
            let day = self.day;
            let effects = f.partisan_effects.clone();
            self.forces[i].line.set_disruptions(&disruptions);
            self.forces[i].line.broken = broken;
            if let Some(e) = self.forces[i].line.start_day(&mut self.dice, &name) {
                self.log_applied(e);
            }
            let mut mods = DailyModifiers {
                weather_pips: self.today.as_ref().map_or(0, |t| t.supply_modifier().unsigned_abs()),
                ..DailyModifiers::default()
            };
            for (effect, until) in effects.iter().filter(|(_, until)| *until >= day) {
                let _ = until;
                match effect {
                    crate::paper::partisans::SupplyEffect::SupplyDiceReduced { .. } => mods.partisan_dice += 1,
                    crate::paper::partisans::SupplyEffect::SupplyPipDeducted { .. } => mods.partisan_pips += 1,
                    _ => {}
                }
            }
            for card in &self.cards_today {
                if let ChanceOutcome::SupplyPips(n) = card {
                    mods.chance_pips = mods.chance_pips.saturating_add(*n);
                }
            }
            self.forces[i].partisan_effects.retain(|(_, until)| *until > day);
            // 20.10: a convoy's (here a supply train's) dice join the day's and the line counts as Direct.
            let convoy = std::mem::take(&mut self.forces[i].convoy_due);
            let (pool, direct) = match convoy {
                true => {
                    (SupplyDice::DAILY.with(convoy_dice(0).expect("no trucks lost")), Some(TreatedAsDirect::Convoy))
                }
                // Reading (FYOW 24.2): shipping kept away by the weather delivers nothing today.
                false if broken => (SupplyDice { d6: 0, d3: 0 }, direct),
                false => (SupplyDice::DAILY, direct),
            };
            let (thrown, e) = daily_throw(pool, &self.forces[i].line.clone(), direct, mods, &mut self.dice, &name);
            let e = match water {
                Some(contested) if direct.is_none() => e.input(
                    "through_port_or_beach",
                    if contested { "contested water" } else { "uncontested water" },
                    "24.2: Elongated or Contested; Broken when high winds keep shipping away",
                ),
                _ => e,
            };
            self.log(e);
            let f = &self.forces[i];
            let orders = DayOrders {
                rest: f.order == crate::army::orders::OrderKind::Rest && !self.in_battle(&name),
                engaged: self.in_battle(&name),
                ordered_to_act: f.order.moves(),
            };
            match self.forces[i].supply.meet_needs(thrown.received, orders, &name) {
                Ok((_, e)) => self.log(e),
                Err(e) => self.log_refusal("20.4", &e.to_string()),
            }
            let mode = self.forces[i].supply.mode;
            crate::table::record::daily_shots(&mut self.forces[i].orbat, mode);
        }
    }

    /// The route a force's supply takes home (FYOW 20.1): links crossed,
    /// those of 8 MP or more, through boards the enemy holds, surrounded;
    /// and, when it comes over the sea to a port or beach (24.2), whether
    /// that water is contested.
    ///
    /// Reading (FYOW 20.1, 24.2): supply goes by land where a land route
    /// home exists, else over the sea. 20.1 names "across a stretch of
    /// water" as a contested route: the water is contested while an enemy
    /// force stands on a Tidal Map Board crossed or on a land board linked to
    /// one (its guns and defences command the water); with none there the
    /// line is Elongated (test `supply_over_a_beach_is_elongated_contested_or_broken`).
    fn supply_route(&self, i: usize) -> (Route, Option<bool>) {
        let f = &self.forces[i];
        let Some(start) = f.board().cloned() else { return (Route::default(), None) };
        let enemy_on =
            |b: &BoardId| self.occupation.get(b).is_some_and(|o| o.occupants.iter().any(|x| x.side != f.side));
        let found = self.trace_home(i, &start, false).or_else(|| self.trace_home(i, &start, true));
        let neighbours: Vec<bool> =
            self.file.map.legs_from(&start).iter().filter(|l| !self.is_sea(&l.to)).map(|l| enemy_on(&l.to)).collect();
        let surrounded = crate::supply::logistics::surrounded(&neighbours);
        match found {
            Some((links, hard_links, through_enemy, seas)) => {
                let water = (!seas.is_empty()).then(|| {
                    seas.iter().any(|sea| {
                        enemy_on(sea)
                            || self.file.map.legs_from(sea).iter().any(|l| !self.is_sea(&l.to) && enemy_on(&l.to))
                    })
                });
                (Route { links, hard_links, through_enemy, surrounded }, water)
            }
            // Cut off from home altogether: through the enemy.
            None => (Route { links: 0, hard_links: 0, through_enemy: true, surrounded }, None),
        }
    }

    /// Breadth-first from `start` to the army's home over land links, or
    /// over every link when `by_sea`: links, links of 8+ MP, through the
    /// enemy, and the Tidal Map Boards crossed.
    fn trace_home(&self, i: usize, start: &BoardId, by_sea: bool) -> Option<(u32, u32, bool, Vec<BoardId>)> {
        let f = &self.forces[i];
        let home = &self.army(f.side).home;
        let enemy_on =
            |b: &BoardId| self.occupation.get(b).is_some_and(|o| o.occupants.iter().any(|x| x.side != f.side));
        let mut seen = std::collections::BTreeMap::from([(start.clone(), (0u32, 0u32, false, Vec::new()))]);
        let mut queue = std::collections::VecDeque::from([start.clone()]);
        while let Some(b) = queue.pop_front() {
            let (links, hard, through, seas) = seen[&b].clone();
            if home.contains(&b) {
                return Some((links, hard, through, seas));
            }
            for leg in self.file.map.legs_from(&b) {
                if seen.contains_key(&leg.to) || (!by_sea && leg.route.kind() == RouteKind::Sea) {
                    continue;
                }
                let through_enemy = through || (leg.to != *start && enemy_on(&leg.to) && !home.contains(&leg.to));
                let mut seas = seas.clone();
                if self.is_sea(&leg.to) {
                    seas.push(leg.to.clone());
                }
                seen.insert(leg.to.clone(), (links + 1, hard + u32::from(leg.mp >= 8), through_enemy, seas));
                queue.push_back(leg.to.clone());
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::common::Edge;
    use crate::play::testing::{campaign, weather};

    /// The record and S received of `name`'s daily throw today, and whether
    /// its line was noted as coming through a port or beach.
    fn throw_of(c: &mut Campaign, name: &str) -> (String, u64, Option<String>) {
        c.drain_events();
        c.daily_supply();
        let e = c
            .drain_events()
            .into_iter()
            .find(|e| e.rule.section == "20 Logistics" && e.actor.as_deref() == Some(name))
            .expect("a daily throw");
        let input = |n: &str| e.inputs.iter().find(|i| i.name == n).map(|i| i.value.clone());
        let record = input("record").and_then(|v| v.as_str().map(str::to_owned)).unwrap();
        let hub = input("through_port_or_beach").and_then(|v| v.as_str().map(str::to_owned));
        (record.chars().filter(char::is_ascii_alphabetic).collect(), e.outcome["received"].as_u64().unwrap(), hub)
    }

    #[test]
    fn supply_over_a_beach_is_elongated_contested_or_broken() {
        // 24.2 "All forces supplied through a port, airfield or beach facility
        // must be treated as having an Elongated or Contested supply route";
        // 20.1 "the route is contested (across a stretch of water, for example)";
        // 24.2 "these supply lines can also be treated as Broken if the weather
        // prevents shipping from arriving at the port/beach".
        let mut c = campaign();
        weather(&mut c, Wind::Calm);
        c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        let (record, _, hub) = throw_of(&mut c, "Blue 1");
        assert_eq!(record, "E", "no enemy commands the water: Elongated, never Direct");
        assert_eq!(hub.as_deref(), Some("uncontested water"));
        let (record, _, hub) = throw_of(&mut c, "Red 2");
        assert_eq!((record.as_str(), hub), ("D", None), "the garrison in its home town is supplied by land");

        let mut contested = c.clone();
        contested.relocate("Red 1", &BoardId::new("Village"), &BoardId::new("Beach"), Edge::East).unwrap();
        let (record, _, hub) = throw_of(&mut contested, "Blue 1");
        assert!(record.contains('C') && !record.contains('D'), "the enemy on the shore contests the water: {record}");
        assert_eq!(hub.as_deref(), Some("contested water"));

        weather(&mut c, Wind::High);
        let (record, received, _) = throw_of(&mut c, "Blue 1");
        assert_eq!((record.as_str(), received), ("BE", 0), "high winds keep the shipping away: nothing lands");
        let (record, received, _) = throw_of(&mut c, "Red 2");
        assert_eq!(record, "D", "a line over land is not broken by the wind");
        assert!(received > 0 || c.today.as_ref().unwrap().supply_modifier() < 0);
    }

    #[test]
    fn a_force_still_afloat_after_the_invasion_day_is_not_direct_again() {
        // 20.1 "On the day of an invasion across a beach ... Direct for that
        // one day only."
        let mut c = campaign();
        assert!(matches!(c.force("Blue 1").unwrap().at, Whereabouts::Afloat { day: 1, .. }));
        c.day = 2;
        weather(&mut c, Wind::Calm);
        let stock = c.force("Blue 1").unwrap().supply.stockpile();
        c.drain_events();
        c.daily_supply();
        let thrown = c
            .drain_events()
            .into_iter()
            .any(|e| e.rule.section == "20 Logistics" && e.actor.as_deref() == Some("Blue 1"));
        assert!(!thrown, "no Direct line the day after: it lives off its ships");
        assert_eq!(c.force("Blue 1").unwrap().supply.stockpile(), stock);
    }

    #[test]
    fn invasion_day_is_direct_for_the_landing_force() {
        // 20.1 "On the day of an invasion across a beach ... the player should
        // consider supply to attacking units as being Direct for that one day only."
        let mut c = campaign();
        c.day = 1;
        weather(&mut c, Wind::High);
        c.drain_events();
        c.daily_supply();
        let e = c
            .drain_events()
            .into_iter()
            .find(|e| e.rule.section == "20 Logistics" && e.actor.as_deref() == Some("Blue 1"))
            .unwrap();
        let direct = e.inputs.iter().find(|i| i.name == "treated_as_direct").unwrap();
        assert_eq!(direct.value, "invasion_day");
        assert!(!e.inputs.iter().any(|i| i.name == "through_port_or_beach"));
    }
}
