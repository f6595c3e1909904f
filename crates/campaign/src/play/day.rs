//! A campaign day in the order of the Game Flow (FYOW 4): the season's,
//! month's, week's and day's duties, six sessions of Battlegroup Priority
//! Cards, and the end of the day.

use serde_json::json;
use warbound_rules::day::{Light as DayLight, SESSIONS_PER_DAY};
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::air::Conditions;
use crate::air::flying::{Chart, Flight, flying_throw};
use crate::air::squadron::Role;
use crate::army::commander::{Commander, CommanderRole, Traits, rate_commander};
use crate::army::game_flow::{Deck, DiaryCard, Phase, deal, duties};
use crate::army::morale::Standing;
use crate::map::board::{BoardId, RouteKind};
use crate::map::common::{Light, SessionConditions, Side};
use crate::map::movement::MovementState;
use crate::paper::dunnigan::StrategicCondition;
use crate::play::state::{Campaign, Ending, Whereabouts, fyow, ix};
use crate::supply::SupplyError;
use crate::supply::logistics::{
    DailyModifiers, DayOrders, Route, RouteGuide, SupplyDice, TreatedAsDirect, convoy_dice, daily_throw,
};
use crate::supply::repairs::{RepairConditions, crew_session};
use crate::supply::replenishment::{LostBy, ReplenishedTo, month_end, replenished_to};
use crate::supply::work::line_through_hub;
use crate::weather::{
    ChanceOutcome, Climate, Moon, RallyWho, Sky, StockpileWho, Wind, draw_chance_card, night_session_light, throw_day,
};
use warbound_rules::codex::Points;

impl Campaign {
    /// Plays campaign days until the campaign ends or `days` more have been
    /// played.
    pub fn play_days(&mut self, days: u32) {
        for _ in 0..days {
            if self.ended.is_some() {
                return;
            }
            self.play_day();
        }
    }

    /// Plays one campaign day.
    pub fn play_day(&mut self) {
        if self.ended.is_some() {
            return;
        }
        self.day += 1;
        self.start_of_day();
        for _ in 0..SESSIONS_PER_DAY {
            self.play_session();
            if self.ended.is_some() {
                break;
            }
        }
        self.end_of_day();
    }

    fn start_of_day(&mut self) {
        self.decisions.clear();
        let date = self.date;
        let due: Vec<String> =
            duties(&date, Phase::DayStart).iter().map(|d| format!("{:?}: {} ({})", d.actor, d.duty, d.rule)).collect();
        self.log(
            RuleEvent::new(EventKind::Calendar, fyow("4 Game Flow"))
                .input("date", date.to_string(), "")
                .input("campaign_day", self.day, "")
                .outcome(json!({ "duties": due })),
        );
        let first_day = self.day == 1;
        if date.is_first_day_of_month() {
            match draw_chance_card(&mut self.dice, date.month().number()) {
                Ok((draw, e)) => {
                    self.log(e);
                    self.chance = Some(draw);
                }
                Err(e) => self.log_refusal("32", &e.to_string()),
            }
        }
        // 32: the card of today, if the month's card falls today, for every step of the day.
        self.cards_today =
            self.chance.as_ref().and_then(|c| (c.day == date.day()).then(|| c.card.outcome())).into_iter().collect();
        if date.is_first_day_of_season() && !first_day {
            self.partisans_new_season();
        }
        if date.is_first_day_of_month() {
            if !first_day {
                self.replenishment();
                self.partisans_start_of_month();
            }
            self.partisans_plan_missions();
        }
        if date.is_first_day_of_week() {
            self.partisan_sweeps();
            self.weekly_morale();
            self.weekly_orders();
        }
        // 4.4 Start of the day: the diary box, the weather, supply.
        for card in self.diary.draw(&date) {
            self.diary_card(card);
        }
        self.chance_card_today();
        match throw_day(
            &mut self.dice,
            self.file.climate,
            date.month().number(),
            self.weather.as_ref(),
            &self.cards_today,
        ) {
            Ok((day, es)) => {
                for e in es {
                    self.log(e);
                }
                self.weather = Some(day.carried.clone());
                self.today = Some(day);
            }
            Err(e) => self.log_refusal("25", &e.to_string()),
        }
        self.ordered_today.clear();
        self.trains_new_day();
        for i in 0..self.forces.len() {
            let f = &self.forces[i];
            let max = f.mover().profile().map_or(0, |p| p.max_per_day);
            let retry = f.movement.retry.clone();
            self.forces[i].movement = MovementState::new_day(max, retry);
        }
        self.daily_supply();
        self.air_start_of_day();
        self.daily_orders();
    }

    /// The light and weather of session `s` as the map rules read them.
    fn session_conditions(&mut self, s: u8) -> SessionConditions {
        let night = self.date.light() == DayLight::Night;
        let Some(today) = self.today.clone() else { return SessionConditions::fine_day() };
        let Ok(spell) = today.spell(s) else { return SessionConditions::fine_day() };
        let light = if !night {
            Light::Daylight
        } else {
            match night_session_light(&mut self.dice, &today, s) {
                Ok((light, e)) => {
                    if spell.moon == Moon::SomeMoonlight {
                        self.log(e);
                    }
                    light
                }
                Err(_) => Light::NightNoMoon,
            }
        };
        let wind = today.wind_in_session(s).unwrap_or(Wind::Calm);
        SessionConditions {
            light,
            heavy_rain: spell.sky == Sky::HeavyRain,
            snow: spell.sky == Sky::Snow,
            high_winds: matches!(wind, Wind::High | Wind::Freezing | Wind::Sandstorm),
            fog: spell.sky == Sky::Fog,
        }
    }

    /// The Rain/Snow Gauge's Movement Test deduction in this session (FYOW
    /// 25.6, 26.6), or `None` when all movement stops (the winter gauge at 8).
    pub(crate) fn gauge_movement(&self) -> Option<i8> {
        self.today
            .as_ref()
            .and_then(|t| t.spell(self.date.session()).ok())
            .map_or(Some(0), |s| s.travel.movement_test())
    }

    pub(crate) fn play_session(&mut self) {
        // A new session: each commander's activation is new (FYOW 8).
        self.decisions.clear();
        let s = self.date.session();
        self.conditions = self.session_conditions(s);
        self.activated.clear();
        for f in &mut self.forces {
            f.movement.allowance.new_session();
        }
        self.partisan_missions();
        self.run_trains();
        self.crew_repairs();
        let forces: Vec<String> = self
            .forces
            .iter()
            .filter(|f| match &f.at {
                Whereabouts::Board(_) => true,
                Whereabouts::Afloat { day, .. } => *day <= self.day,
                Whereabouts::Gone => false,
            })
            .map(|f| f.name.clone())
            .collect();
        // 4.5: Senior Commands hold BPCs beside the battlegroups and Fractions.
        let mut holders: Vec<String> = self.senior_commands.iter().map(|sc| sc.commander.name.clone()).collect();
        holders.extend(forces);
        match deal(Deck::BattlegroupPriority, &holders, &mut self.dice) {
            Ok((order, e)) => {
                self.log(e.input("session", self.date.to_string(), "").input("conditions", self.conditions, ""));
                for name in order {
                    self.activated.push(name.clone());
                    match self.senior_commands.iter().position(|sc| sc.commander.name == name) {
                        Some(k) => self.senior_command_activated(k),
                        None => self.activate(&name),
                    }
                }
            }
            Err(e) => self.log_refusal("4.5", &e.to_string()),
        }
        self.resolve_battles();
        // End of the session: attitudes move on (15.3).
        let names: Vec<String> = self.forces.iter().filter(|f| f.board().is_some()).map(|f| f.name.clone()).collect();
        for name in names {
            let challenged = self.in_battle(&name);
            let fortified = self.occupant_mut(&name).and_then(|o| o.attitude.end_session(&name, challenged));
            if let Some(e) = fortified {
                self.log(e);
            }
            if let Some(i) = self.fx(&name) {
                self.forces[i].sessions_here += 1;
                if challenged {
                    self.forces[i].movement.allowance.engaged_session();
                }
            }
        }
        self.update_held();
        let (_, e) = self.date.advance();
        self.log(e);
        self.check_end();
    }

    fn end_of_day(&mut self) {
        if self.ended.is_none() && self.day >= self.file.days {
            self.finish("the campaign's last day is over");
        }
    }

    /// Ends the campaign when an army withdraws or has nothing left.
    pub(crate) fn check_end(&mut self) {
        if self.ended.is_some() {
            return;
        }
        for side in [Side::Blue, Side::Red] {
            let a = self.army(side);
            if a.morale.withdrawn() {
                let reason = format!("{} withdraws from the campaign: Strategic Morale 0 (FYOW 12.3)", a.name);
                self.ended = Some(Ending { reason, winner: Some(side.enemy()) });
                return;
            }
            if self.forces.iter().all(|f| f.side != side || f.is_gone()) {
                let reason = format!("{} has no battlegroups left", a.name);
                self.ended = Some(Ending { reason, winner: Some(side.enemy()) });
                return;
            }
        }
    }

    /// The campaign's time is up: the attacker wins if it holds at least
    /// half of its objectives, else the defender.
    ///
    /// Reading (FYOW 1: the campaign's aims are the players'): the attacking
    /// army's objectives decide it; with both armies attacking, the one
    /// holding more of its objectives wins, a tie is a draw.
    pub(crate) fn finish(&mut self, why: &str) {
        let held =
            |c: &Campaign, side: Side| c.army(side).objectives.iter().filter(|b| c.held.get(*b) == Some(&side)).count();
        let attackers: Vec<Side> = [Side::Blue, Side::Red]
            .into_iter()
            .filter(|s| self.army(*s).stance == crate::play::file::Stance::Attack)
            .collect();
        let winner = match attackers.as_slice() {
            [a] => {
                let need = self.army(*a).objectives.len().div_ceil(2);
                Some(if held(self, *a) >= need { *a } else { a.enemy() })
            }
            _ => match held(self, Side::Blue).cmp(&held(self, Side::Red)) {
                std::cmp::Ordering::Greater => Some(Side::Blue),
                std::cmp::Ordering::Less => Some(Side::Red),
                std::cmp::Ordering::Equal => None,
            },
        };
        let reason = format!(
            "{why}: objectives held Blue {}/{}, Red {}/{}",
            held(self, Side::Blue),
            self.army(Side::Blue).objectives.len(),
            held(self, Side::Red),
            self.army(Side::Red).objectives.len()
        );
        self.log(
            RuleEvent::new(EventKind::Calendar, fyow("1 The Campaign day"))
                .input("date", self.date.to_string(), "")
                .outcome(json!({ "ended": reason, "winner": winner })),
        );
        self.ended = Some(Ending { reason, winner });
    }

    /// Records that a step could not be taken (a rule refused it).
    pub(crate) fn log_refusal(&mut self, section: &str, why: &str) {
        self.log(RuleEvent::new(EventKind::Calendar, fyow(section)).outcome(json!({ "refused": why })));
    }

    /// FYOW 12.2–12.3: the weekly Strategic Morale throw of each army, on
    /// its battlegroups (their Fractions are part of them).
    pub(crate) fn weekly_morale(&mut self) {
        for side in [Side::Blue, Side::Red] {
            let standings: Vec<Standing> = self
                .forces
                .iter()
                .filter(|f| f.side == side && f.is_battlegroup())
                .map(|f| match (&f.at, f.condition) {
                    (Whereabouts::Gone, _) => Standing::Destroyed,
                    (_, StrategicCondition::Green) => Standing::Green,
                    (_, StrategicCondition::Amber) => Standing::Yellow,
                    (_, StrategicCondition::Red) if f.withdrawn => Standing::RedWithdrawn,
                    (_, StrategicCondition::Red) => Standing::Red,
                })
                .collect();
            let army = &mut self.armies[ix(side)];
            let reduced = std::mem::take(&mut army.reduced_since_review);
            let (general, motivation, name) = (army.general.competency, army.motivation, army.name.clone());
            match army.morale.weekly_throw(general, motivation, &standings, reduced, &mut self.dice, &name) {
                Ok((_, e)) => self.log(e),
                Err(e) => self.log_refusal("12.3", &e.to_string()),
            }
        }
        self.check_end();
    }

    /// FYOW 20: each force's daily supply throw and its need met.
    fn daily_supply(&mut self) {
        let shipping_stopped = self.today.as_ref().is_some_and(|t| matches!(t.wind, Wind::High | Wind::Freezing));
        for i in 0..self.forces.len() {
            let f = &self.forces[i];
            let direct = match &f.at {
                Whereabouts::Gone => continue,
                // Reading (FYOW 20.1): embarked forces are supplied from their
                // ships and throw nothing; on the invasion day, the first day
                // they are due to land across a beach, the line is Direct "for
                // that one day only".
                Whereabouts::Afloat { day, .. } if *day == self.day => Some(TreatedAsDirect::InvasionDay),
                Whereabouts::Afloat { .. } => continue,
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
                self.log(e);
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
        let conditions = Conditions {
            sky: super::air::air_sky(spell.as_ref().map(|s| s.sky)),
            wind: super::air::air_wind(wind),
            light: Light::Daylight,
        };
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
            // 25.8: "When the Rain Gauge reaches 5, airstrips not using tarmac runways are inoperable."
            if today.unmetalled_airstrips_closed {
                for name in air.grass_strips.clone() {
                    self.log(
                        RuleEvent::new(EventKind::Weather, fyow("25.8 The effect of weather on flying"))
                            .actor(&name)
                            .input("rain_gauge", today.gauge_at_start, "5 or more")
                            .outcome(json!({ "flying": false, "reason": "its airstrip has no tarmac runway" })),
                    );
                }
            }
            if low_cloud {
                self.log(
                    RuleEvent::new(EventKind::Weather, fyow("25.8 The effect of weather on flying"))
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
    }

    /// FYOW 32: the outcomes of today's chance card that act once, at the
    /// start of the day: the 8s on every Stockpile, the 5♥ and 5♦ on a
    /// partisan radio, the 4♥ on each land force's Strategic Condition
    /// Repair throw. (The weather cards act in the day's throw, the 7s and
    /// 6s on supply, the 4♠ on Command Decisions, the 3s on flying and
    /// movement, the 2s on Work & Tasks and on replenishment.)
    ///
    /// Reading (FYOW 32 5♥, 5♦): the radio goes to the first cell without
    /// one, and the first cell with one loses it (test `chance_cards_act_on_their_day`).
    fn chance_card_today(&mut self) {
        for card in self.cards_today.clone() {
            match card {
                ChanceOutcome::Stockpile { who, change } => {
                    let kind = match who {
                        StockpileWho::AllBattlegroups => crate::map::common::ForceKind::Battlegroup,
                        StockpileWho::AllFractions => crate::map::common::ForceKind::Fraction,
                    };
                    for i in 0..self.forces.len() {
                        if self.forces[i].kind == kind && !self.forces[i].is_gone() {
                            let name = self.forces[i].name.clone();
                            let e = self.forces[i].supply.chance_card(change, &name);
                            self.log(e);
                        }
                    }
                }
                ChanceOutcome::SeniorCommandAppointsNewCo => self.new_fraction_co(),
                // The 4♥ "Everybody gets an extra SC Rallying throw": each
                // land force its Strategic Condition Repair throw (12.4), the Air
                // Commands theirs at their start of the day (28.12).
                ChanceOutcome::ExtraRally(RallyWho::Everybody) => {
                    for side in [Side::Blue, Side::Red] {
                        self.morale_repair_throw(side, "32: the 4 of Hearts, an extra SC Rallying throw");
                    }
                }
                ChanceOutcome::PartisanRadioAdded | ChanceOutcome::PartisanRadioBroken => {
                    let added = card == ChanceOutcome::PartisanRadioAdded;
                    let Some(p) = self.partisans.as_mut() else { continue };
                    let Some(cell) = p.cells.iter_mut().find(|c| c.radio != added) else { continue };
                    cell.radio = added;
                    let name = cell.name.clone();
                    self.log(
                        RuleEvent::new(EventKind::Partisans, fyow("32 Chance cards"))
                            .actor(&name)
                            .outcome(json!({ "radio": added })),
                    );
                }
                _ => {}
            }
        }
    }

    /// FYOW 32, the A♠ and A♣: "Senior Command chosen by dice throw appoints
    /// a new CO".
    ///
    /// Reading (FYOW 3.3, 32): the COs on the campaign map are the Fractions'
    /// (3.3); the Senior Command chosen by a die among all of them appoints a
    /// new CO, rated (7) with his traits thrown (8.4), to one of its Fractions
    /// chosen by a die; with none, the card changes nothing on the map (test
    /// `chance_cards_act_on_their_day`).
    fn new_fraction_co(&mut self) {
        if self.senior_commands.is_empty() {
            return;
        }
        // A die with a face for each; one alone needs no throw.
        let pick = |c: &mut Campaign, n: usize| match u8::try_from(n).unwrap_or(u8::MAX) {
            0 | 1 => 0,
            n => usize::from(c.dice.face(n)) - 1,
        };
        let k = pick(self, self.senior_commands.len());
        let (side, brigade, sc) = {
            let sc = &self.senior_commands[k];
            (sc.side, sc.brigade.clone(), sc.commander.name.clone())
        };
        let fractions: Vec<usize> = (0..self.forces.len())
            .filter(|&i| {
                let f = &self.forces[i];
                f.kind == crate::map::common::ForceKind::Fraction
                    && f.side == side
                    && f.battlegroup.brigade == brigade
                    && !f.is_gone()
            })
            .collect();
        if fractions.is_empty() {
            self.log(
                RuleEvent::new(EventKind::Calendar, fyow("32 Chance cards"))
                    .actor(&sc)
                    .outcome(json!({ "new_co": null, "reason": "no Fraction, no CO on the map" })),
            );
            return;
        }
        let i = fractions[pick(self, fractions.len())];
        let name = format!("CO of {} (appointed {})", self.forces[i].name, self.date);
        let elite = self.forces[i].elite;
        let (competency, e) = rate_commander(CommanderRole::BattlegroupCommander, elite, &mut self.dice, &name);
        self.log(e);
        let (traits, e) = Traits::thrown(elite, &mut self.dice, &name);
        self.log(e);
        self.forces[i].commander = Commander {
            name: name.clone(),
            role: CommanderRole::BattlegroupCommander,
            competency,
            traits: Some(traits),
        };
        self.forces[i].traits = traits;
        self.log(
            RuleEvent::new(EventKind::Calendar, fyow("32 Chance cards"))
                .actor(&sc)
                .target(&self.forces[i].name)
                .outcome(json!({ "new_co": name })),
        );
    }

    /// A diary card comes out of the box (FYOW 5).
    fn diary_card(&mut self, card: DiaryCard) {
        // 32, the 2♦: "Any Replenishment due today delayed until tomorrow".
        if card.text.starts_with("replenishment ") && self.cards_today.contains(&ChanceOutcome::ReplenishmentDelayed) {
            let tomorrow = self.date.plus_days(1);
            self.log(
                RuleEvent::new(EventKind::Calendar, fyow("32 Chance cards"))
                    .actor(&card.owner)
                    .outcome(json!({ "delayed_until": tomorrow.to_string(), "card": card.text })),
            );
            self.diary.file(&tomorrow, card);
            return;
        }
        self.log(
            RuleEvent::new(EventKind::Calendar, fyow("5 Event Timings"))
                .actor(&card.owner)
                .outcome(json!({ "card": card.text })),
        );
        // Replenishment deliveries are filed as "replenishment N" for a
        // battlegroup or, a destroyed battlegroup's, for the army's HQ.
        if let Some(points) = card.text.strip_prefix("replenishment ").and_then(|p| p.parse::<u32>().ok()) {
            let side = match self.armies.iter().find(|a| a.name == card.owner) {
                Some(a) => {
                    let side = a.side;
                    self.army_mut(side).hq_banked += points;
                    self.distribute_hq_replacements(side);
                    Some(side)
                }
                None => self.force(&card.owner).map(|f| f.side).inspect(|_| self.reinforce(&card.owner, points)),
            };
            // 21.4.2: "take a Strategic Condition Repair throw when these replacements arrive" (12.4).
            if let Some(side) = side {
                self.morale_repair_throw(side, "21.4.2 replacements arrive");
            }
        }
    }

    /// FYOW 12.4: the army's Strategic Condition Repair throw, when its
    /// Strategic Morale is below where it started.
    fn morale_repair_throw(&mut self, side: Side, why: &str) {
        let army = &mut self.armies[ix(side)];
        if army.morale.score >= crate::army::morale::STARTING_MORALE {
            return;
        }
        let (c, m, name) = (army.general.competency, army.motivation, army.name.clone());
        match army.morale.repair_throw(c, m, &mut self.dice, &name) {
            Ok((_, e)) => self.log(e.input("occasion", why, "")),
            Err(e) => self.log_refusal("12.4", &e.to_string()),
        }
    }

    /// FYOW 21–21.4: on the first day of a month each battlegroup's losses
    /// of the past month (its Fractions' with them, 21.2) come back in
    /// thirds: a third gone, a third in D10 days (a Diary Box card, with
    /// the 12.4 repair throw on arrival), D10% of the rest at once. A
    /// destroyed battlegroup's go to the force HQ (21.2).
    fn replenishment(&mut self) {
        for i in 0..self.forces.len() {
            let total = self.forces[i].losses.total();
            self.forces[i].losses = Default::default();
            if total == Points::ZERO {
                continue;
            }
            let (name, side) = (self.forces[i].name.clone(), self.forces[i].side);
            let lost_by = LostBy::Battlegroup { id: name.clone(), destroyed: self.forces[i].is_gone() };
            let (r, e) = month_end(total, &mut self.dice, &name);
            self.log(e);
            let owner = match replenished_to(&lost_by) {
                ReplenishedTo::Battlegroup(b) => b,
                ReplenishedTo::ForceHq => self.army(side).name.clone(),
            };
            if r.immediate > 0 {
                if owner == name {
                    self.reinforce(&name, r.immediate);
                } else {
                    self.army_mut(side).hq_banked += r.immediate;
                    self.distribute_hq_replacements(side);
                }
            }
            if r.delayed > 0 {
                let when = self.date.plus_days(u32::from(r.delay_days));
                self.diary.file(&when, DiaryCard { owner, text: format!("replenishment {}", r.delayed) });
            }
        }
    }

    /// The force HQ's replacement points go to the battlegroup furthest
    /// below strength still in the field (FYOW 21.2 "for future
    /// re-distribution as required").
    fn distribute_hq_replacements(&mut self, side: Side) {
        let points = std::mem::take(&mut self.army_mut(side).hq_banked);
        let target = self
            .forces
            .iter()
            .filter(|f| f.side == side && f.board().is_some() && f.kind == crate::map::common::ForceKind::Battlegroup)
            .min_by_key(|f| f.points().saturating_mul(1000) / f.battlegroup.original_points.max(1))
            .map(|f| f.name.clone());
        match target {
            Some(name) => self.reinforce(&name, points),
            None => self.army_mut(side).hq_banked = points,
        }
    }

    /// FYOW 21.4: a battlegroup spends its replenishment, with what it has
    /// banked, on replacements: "the return of the wounded men and repaired
    /// equipment", each element it lost made up toward its value in the
    /// ORBAT, in ORBAT order, within the cost limit (2.1) and the board's
    /// capacity (13.9); what it cannot spend it banks (21.4.2).
    ///
    /// Reading (FYOW 21.4.2, 21.6): the Auto Senior Command buys back what
    /// the battlegroup lost (21.6 allows new kinds of element, which it does
    /// not choose); an AFV under repair is made good by its crew, not
    /// bought (test `losses_come_back_to_the_battlegroup_that_suffered_them`);
    /// an element split off into one of its Fractions is bought back only
    /// once lost there (21.2; test
    /// `elements_in_a_fraction_are_not_bought_again_for_its_parent`).
    pub(crate) fn reinforce(&mut self, name: &str, points: u32) {
        let Some(i) = self.fx(name) else { return };
        if self.forces[i].is_gone() {
            let side = self.forces[i].side;
            self.army_mut(side).hq_banked += points;
            return;
        }
        let side = self.forces[i].side;
        let max = self.file.max_points();
        let available = self.forces[i].banked + points;
        let board_points = self.forces[i].board().map_or(0, |b| self.occupation[b].side_points(side));
        let mut room = max.saturating_sub(self.forces[i].points()).min(max.saturating_sub(board_points)).min(available);
        let mut bought = Vec::new();
        let kit = self.forces[i].kit.clone();
        // Elements split off into its Fractions live on there (3.2, 3.4).
        let in_fractions: Vec<String> = (0..self.forces.len())
            .filter(|&j| j != i && !self.forces[j].is_gone() && self.root_battlegroup(j) == i)
            .flat_map(|j| self.forces[j].battlegroup.elements.iter().map(|e| e.name.clone()))
            .collect();
        for k in &kit {
            if room == 0 {
                break;
            }
            if in_fractions.contains(&k.name) || self.forces[i].repairs.iter().any(|j| j.vehicle == k.name) {
                continue;
            }
            let elements = &mut self.forces[i].battlegroup.elements;
            let have = elements.iter().find(|e| e.name == k.name).map_or(0, |e| e.points);
            let add = k.points.saturating_sub(have).min(room);
            if add == 0 {
                continue;
            }
            match elements.iter_mut().find(|e| e.name == k.name) {
                Some(e) => e.points += add,
                None => elements.push(crate::army::battlegroup::Element { points: add, ..k.element() }),
            }
            room -= add;
            bought.push(json!({ "element": k.name, "points": add }));
        }
        let spent: u32 = bought.iter().filter_map(|b| b["points"].as_u64()).map(|p| p as u32).sum();
        self.forces[i].banked = available - spent;
        self.sync_points(name);
        self.milestone_tests(name);
        self.log(
            RuleEvent::new(EventKind::Supply, fyow("21.4 What can be replenished?"))
                .actor(name)
                .input("points", points, "replenishment arriving")
                .input("banked_before", available - points, "21.4.2 unused points banked")
                .outcome(
                    json!({ "bought": bought, "banked": self.forces[i].banked, "points_now": self.forces[i].points() }),
                ),
        );
    }

    /// FYOW 33.10, 23.1: the crews of damaged AFVs throw 2D6 a session to
    /// repair their own vehicles (not while their force fights or rests); a
    /// repaired AFV is back at its full value.
    fn crew_repairs(&mut self) {
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
                    let full = self.forces[i].kit.iter().find(|k| k.name == vehicle).map(|k| k.points);
                    if let (Some(full), Some(el)) =
                        (full, self.forces[i].battlegroup.elements.iter_mut().find(|e| e.name == vehicle))
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

    /// FYOW 10.2: each day the Senior Commands set their battlegroups' (and
    /// their Fractions') orders, in the order of the Daily Order Cards.
    pub(crate) fn daily_orders(&mut self) {
        let holders: Vec<String> = self
            .senior_commands
            .iter()
            .filter(|sc| {
                self.forces.iter().any(|f| !f.is_gone() && f.side == sc.side && f.battlegroup.brigade == sc.brigade)
            })
            .map(|sc| sc.commander.name.clone())
            .collect();
        let order = match deal(Deck::DailyOrder, &holders, &mut self.dice) {
            Ok((order, e)) => {
                self.log(e);
                order
            }
            Err(_) => holders,
        };
        for sc in order {
            let Some(k) = self.senior_commands.iter().position(|s| s.commander.name == sc) else { continue };
            let (side, brigade) = (self.senior_commands[k].side, self.senior_commands[k].brigade.clone());
            let forces: Vec<String> = self
                .forces
                .iter()
                .filter(|f| !f.is_gone() && f.side == side && f.battlegroup.brigade == brigade)
                .map(|f| f.name.clone())
                .collect();
            for name in forces {
                self.auto_daily_order(&name, k);
                self.ordered_today.insert(name);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::commander::Competency;
    use crate::map::common::Edge;
    use crate::paper::dunnigan::StrategicCondition;
    use crate::play::command::Command;
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;
    use crate::play::state::Whereabouts;
    use crate::supply::repairs::{FULL_CMS, RepairJob};
    use crate::weather::throw_day;

    fn campaign() -> Campaign {
        let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), 5).unwrap();
        c.day = 2;
        c
    }

    /// The wind of a thrown June day set to `wind`.
    fn weather(c: &mut Campaign, wind: Wind) {
        let (mut day, _) = throw_day(&mut c.dice, c.file.climate, 6, None, &[]).unwrap();
        day.wind = wind;
        c.today = Some(day);
    }

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
    fn losses_come_back_to_the_battlegroup_that_suffered_them() {
        // 21 "When a Battlegroup takes casualties ... replacements can be sent to
        // them"; 21.2 "Casualties sustained by Fractions are replenished back to
        // their parent Battlegroup"; 21.4.2 "These resources represent the return
        // of the wounded men and repaired equipment ... Make a Diary Box note to
        // distribute the replacements and to take a Strategic Condition Repair
        // throw when these replacements arrive."
        let mut c = campaign();
        c.relocate("Blue 2", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Hill"), Edge::West).unwrap();
        let mut recce = c.force("Blue 1").unwrap().clone();
        recce.name = "Blue 1 carriers".into();
        recce.kind = crate::map::common::ForceKind::Fraction;
        recce.parent = Some("Blue 1".into());
        recce.at = Whereabouts::Gone;
        c.forces.push(recce);
        c.book_losses("Blue 2", 300, None);
        c.book_losses("Blue 1 carriers", 100, None);
        assert_eq!(c.force("Blue 2").unwrap().losses.total(), Points::whole(300));
        assert_eq!(c.force("Blue 1").unwrap().losses.total(), Points::whole(100), "the Fraction's, to its parent");
        assert_eq!(c.force("Blue 1 carriers").unwrap().losses.total(), Points::ZERO);
        let blue2_before = c.force("Blue 2").unwrap().points();
        c.army_mut(Side::Blue).morale.score = 1;
        c.drain_events();
        c.replenishment();
        let events = c.drain_events();
        let thirds: Vec<_> = events.iter().filter(|e| e.rule.section == "21.4 What can be replenished?").collect();
        let month: Vec<&str> =
            thirds.iter().filter(|e| e.outcome.get("gone").is_some()).filter_map(|e| e.actor.as_deref()).collect();
        assert_eq!(month, ["Blue 1", "Blue 2"], "each battlegroup's own month-end thirds");
        assert!(
            !events.iter().any(|e| e.rule.section.starts_with("12.4")),
            "no repair throw before the replacements arrive"
        );
        let immediate = thirds
            .iter()
            .find(|e| e.actor.as_deref() == Some("Blue 2") && e.outcome.get("gone").is_some())
            .unwrap()
            .outcome["immediate"]
            .as_u64()
            .unwrap() as u32;
        let blue2 = c.force("Blue 2").unwrap();
        assert_eq!(blue2.points(), blue2_before + immediate, "its own losses made up");
        assert!(
            blue2
                .battlegroup
                .elements
                .iter()
                .all(|e| blue2.kit.iter().any(|k| k.name == e.name && e.points <= k.points)),
            "its own elements, no generic replacements"
        );
        assert_eq!(c.force("Blue 1").unwrap().points(), 900, "Blue 1 lost nothing itself");

        c.diary_card(DiaryCard { owner: "Blue 2".into(), text: "replenishment 50".into() });
        let events = c.drain_events();
        assert!(
            events.iter().any(|e| e.rule.section.starts_with("12.4")),
            "the repair throw comes with the replacements"
        );
        assert_eq!(c.force("Blue 2").unwrap().points(), (blue2_before + immediate + 50).min(1050));
    }

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

    /// A campaign of `file`, prepared by `prepare`, in which each of `splits` (force,
    /// Fraction, elements) has been made in turn: seeds are tried until every
    /// Command Decision passes.
    fn with_fractions(file: &str, prepare: impl Fn(&mut Campaign), splits: &[(&str, &str, &[&str])]) -> Campaign {
        'seed: for seed in 0..200 {
            let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", file).unwrap(), seed).unwrap();
            prepare(&mut c);
            for (force, name, elements) in splits {
                let elements = elements.iter().map(|e| e.to_string()).collect();
                c.command(Command::Fraction { force: force.to_string(), name: name.to_string(), elements }).unwrap();
                if c.force(name).is_none() {
                    continue 'seed;
                }
            }
            return c;
        }
        panic!("no seed gave successful decisions");
    }

    #[test]
    fn elements_in_a_fraction_are_not_bought_again_for_its_parent() {
        // 3.4 the BC "creates the Fraction from within his force"; 21.2
        // "Casualties sustained by Fractions are replenished back to their
        // parent Battlegroup"; 21.4.2 "the return of the wounded men and
        // repaired equipment".
        let ashore = |c: &mut Campaign| {
            c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        };
        let mut c = with_fractions(SMALL, ashore, &[("Blue 1", "Rifles", &["B Company"])]);
        c.reinforce("Blue 1", 400);
        let blue1 = c.force("Blue 1").unwrap();
        assert!(!blue1.battlegroup.elements.iter().any(|e| e.name == "B Company"), "it lives in the Fraction");
        assert_eq!((blue1.points(), blue1.banked), (550, 400), "nothing lost, nothing bought");
        c.book_losses("Rifles", 350, None);
        assert!(c.force("Rifles").unwrap().is_gone());
        c.reinforce("Blue 1", 0);
        let blue1 = c.force("Blue 1").unwrap();
        let b = blue1.battlegroup.elements.iter().find(|e| e.name == "B Company").map(|e| e.points);
        assert_eq!(b, Some(350), "lost with the Fraction, made up in its parent");
        assert_eq!(blue1.banked, 50);

        // 23.1 "Each AFV crew can make a 2D6 throw per session to repair their own vehicle".
        let damaged = |c: &mut Campaign| {
            c.relocate("Blue 2", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
            let i = c.fx("Blue 2").unwrap();
            c.forces[i].battlegroup.elements.iter_mut().find(|e| e.name == "Tanks").unwrap().points = 225;
            c.forces[i].repairs.push(RepairJob::new("Tanks", Points::whole(450), FULL_CMS).unwrap());
            c.sync_points("Blue 2");
        };
        let mut c = with_fractions(SMALL, damaged, &[("Blue 2", "Tank troop", &["Tanks"])]);
        assert!(c.force("Blue 2").unwrap().repairs.is_empty());
        assert_eq!(c.force("Tank troop").unwrap().repairs.len(), 1, "the crew goes with its tank");
        for _ in 0..100 {
            if c.force("Tank troop").unwrap().repairs.is_empty() {
                break;
            }
            c.crew_repairs();
        }
        assert_eq!(c.force("Tank troop").unwrap().points(), 450, "repaired in the Fraction");
    }

    #[test]
    fn a_fraction_of_a_fractions_losses_go_back_to_the_battlegroup() {
        // 3.2 "A Fraction can create another Fraction from itself"; 21.2
        // "Casualties sustained by Fractions are replenished back to their
        // parent Battlegroup".
        let carriers = r#"(name: "Carriers", points: 150, mover: TrackedCarriers, recce: true),"#;
        let file = SMALL.replacen(
            carriers,
            &format!(r#"{carriers} (name: "Mortars", points: 100, mover: RegularInfantry),"#),
            1,
        );
        let ashore = |c: &mut Campaign| {
            c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        };
        let splits: [(&str, &str, &[&str]); 2] =
            [("Blue 1", "Rifles", &["B Company", "Carriers"]), ("Rifles", "Scouts", &["Carriers"])];
        let mut c = with_fractions(&file, ashore, &splits);
        assert_eq!(c.force("Scouts").unwrap().parent.as_deref(), Some("Rifles"));
        c.book_losses("Scouts", 100, None);
        assert_eq!(c.force("Blue 1").unwrap().losses.total(), Points::whole(100), "to the battlegroup");
        assert_eq!(c.force("Rifles").unwrap().losses.total(), Points::ZERO, "not to the Fraction it split from");
        assert_eq!(c.force("Scouts").unwrap().losses.total(), Points::ZERO);
        c.drain_events();
        c.replenishment();
        let month: Vec<String> = c
            .drain_events()
            .into_iter()
            .filter(|e| e.rule.section == "21.4 What can be replenished?" && e.outcome.get("gone").is_some())
            .filter_map(|e| e.actor)
            .collect();
        assert_eq!(month, ["Blue 1"], "the battlegroup's month-end thirds");
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

    #[test]
    fn a_battlegroup_at_red_that_has_withdrawn_counts_as_such_at_the_weekly_review() {
        // 12.3 "Battlegroups with Strategic Condition red and having withdrawn
        // count as 3 / 2 / 1" dice, against red's "2 / 1 / 0".
        let mut c = campaign();
        for (name, board) in [("Blue 1", "Beach"), ("Blue 2", "Hill")] {
            c.relocate(name, &BoardId::new("Sea"), &BoardId::new(board), Edge::West).unwrap();
            let i = c.fx(name).unwrap();
            c.forces[i].condition = StrategicCondition::Red;
        }
        c.relocate("Blue 1", &BoardId::new("Beach"), &BoardId::new("Village"), Edge::West).unwrap();
        assert!(c.force("Blue 1").unwrap().withdrawn && !c.force("Blue 2").unwrap().withdrawn);
        c.army_mut(Side::Blue).reduced_since_review = true;
        c.drain_events();
        c.weekly_morale();
        let e = c
            .drain_events()
            .into_iter()
            .find(|e| e.rule.section.starts_with("12.3") && e.actor.as_deref() == Some("Landing force"))
            .unwrap();
        let standings = &e.inputs.iter().find(|i| i.name == "battlegroups").unwrap().value;
        assert_eq!(standings, &json!(["RedWithdrawn", "Red"]));
    }

    #[test]
    fn the_weekly_review_counts_battlegroups_not_their_fractions() {
        // 12.2 "These throws ... only need to be made if any one Battlegroup
        // suffers a reduction in its Strategic Condition"; 12.3 "each General
        // reviews the Strategic Condition of the Battlegroups under his command".
        let mut c = campaign();
        let mut rifles = c.force("Blue 1").unwrap().clone();
        rifles.name = "Rifles".into();
        rifles.kind = crate::map::common::ForceKind::Fraction;
        rifles.parent = Some("Blue 1".into());
        c.forces.push(rifles);
        c.book_losses("Rifles", 0, Some(StrategicCondition::Red));
        c.remove_force("Rifles", "destroyed");
        assert!(!c.army(Side::Blue).reduced_since_review, "a Fraction's fall is no battlegroup's");
        c.book_losses("Blue 1", 0, Some(StrategicCondition::Amber));
        assert!(c.army(Side::Blue).reduced_since_review);
        c.drain_events();
        c.weekly_morale();
        let e = c
            .drain_events()
            .into_iter()
            .find(|e| e.rule.section.starts_with("12.3") && e.actor.as_deref() == Some("Landing force"))
            .unwrap();
        let standings = &e.inputs.iter().find(|i| i.name == "battlegroups").unwrap().value;
        assert_eq!(standings, &json!(["Yellow", "Green"]), "the destroyed Fraction is not a battlegroup destroyed");
    }

    #[test]
    fn the_card_of_today_is_read_by_the_steps_of_the_start_of_the_week() {
        // 32: the card goes "into the diary box on the d12th day ... Cards
        // affect one day only"; the 4♠ "Command Decision rolls can be re-rolled
        // today" reaches the General's partisan sweep decision (34.14) taken at
        // the start of the week (4.3), and yesterday's card does not.
        use crate::paper::partisans::SweepTrigger;
        use crate::weather::{PlayingCard, Rank, Suit};
        let sweeps = |seed: u64, card_day: u8, yesterday: Vec<ChanceOutcome>| {
            let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
            c.day = 4;
            c.date = c.date.plus_days(3);
            assert!(c.date.is_first_day_of_week() && !c.date.is_first_day_of_month());
            c.chance = Some(crate::weather::ChanceDraw {
                card: PlayingCard { rank: Rank::Four, suit: Suit::Spades },
                day: card_day,
            });
            c.cards_today = yesterday;
            c.partisans.as_mut().unwrap().sweeps_due.push((0, SweepTrigger::Attack, "Village".into()));
            c.drain_events();
            c.start_of_day();
            c.drain_events()
                .into_iter()
                .filter(|e| e.rule.section.starts_with("8.1") && e.actor.as_deref() == Some("Oberst Red"))
                .collect::<Vec<_>>()
        };
        let rerolled = |e: &RuleEvent| e.inputs.iter().any(|i| i.name == "rerolled");
        let mut failed = 0;
        for seed in 0..30 {
            let decisions = sweeps(seed, 4, Vec::new());
            assert_eq!(decisions.len(), 1, "seed {seed}: the sweep decision");
            let target = decisions[0].inputs.iter().find(|i| i.name == "target").unwrap().value.as_u64().unwrap();
            if u64::from(decisions[0].dice[0].face) >= target {
                failed += 1;
                assert!(rerolled(&decisions[0]), "seed {seed}: today's card re-throws a failure");
            }
            let stale = sweeps(seed, 3, vec![ChanceOutcome::CommandDecisionReroll]);
            assert!(!stale.iter().any(rerolled), "seed {seed}: yesterday's card is over");
        }
        assert!(failed > 0, "some first throws fail");
    }

    #[test]
    fn the_four_of_hearts_gives_everybody_an_extra_rallying_throw() {
        // 32: "4♥ Everybody gets an extra SC Rallying throw", against the 4♣'s
        // "Air Commands get an extra SC Rallying throw".
        let mut c = campaign();
        for a in &mut c.armies {
            a.morale.score = 2;
            a.general.competency = Competency::Average;
        }
        let repair_throws = |c: &mut Campaign| -> Vec<String> {
            c.drain_events()
                .into_iter()
                .filter(|e| e.rule.section == "12.4 Strategic Condition Repair Throw")
                .map(|e| e.actor.unwrap_or_default())
                .collect()
        };
        c.drain_events();
        c.cards_today = vec![ChanceOutcome::ExtraRally(RallyWho::AirCommands)];
        c.chance_card_today();
        assert!(repair_throws(&mut c).is_empty(), "the 4♣ is the Air Commands' alone");
        c.cards_today = vec![ChanceOutcome::ExtraRally(RallyWho::Everybody)];
        c.chance_card_today();
        assert_eq!(repair_throws(&mut c), ["Landing force", "Garrison"], "each land force's throw (12.4)");
        weather(&mut c, Wind::Calm);
        c.air_start_of_day();
        let extra = c.drain_events().into_iter().find(|e| {
            e.rule.section == "28.12 Rallying Strategic Condition" && e.inputs.iter().any(|i| i.name == "card")
        });
        assert!(extra.is_some(), "and the Air Command's");
    }

    #[test]
    fn chance_cards_act_on_their_day() {
        // 32: "8s All Battlegroups (Fractions) -1 from (+1 to) Stockpile";
        // "5♥ 1 Partisan radio added"; "2♦ Any Replenishment due today delayed
        // until tomorrow"; "4♠ Command Decision rolls can be re-rolled today".
        let mut c = campaign();
        let before: Vec<u32> = c.forces.iter().map(|f| f.supply.stockpile()).collect();
        c.cards_today = vec![ChanceOutcome::Stockpile { who: StockpileWho::AllBattlegroups, change: -1 }];
        c.chance_card_today();
        for (f, b) in c.forces.iter().zip(before) {
            assert_eq!(f.supply.stockpile(), b.saturating_sub(1), "{}", f.name);
        }

        for cell in &mut c.partisans.as_mut().unwrap().cells {
            cell.radio = false;
        }
        c.cards_today = vec![ChanceOutcome::PartisanRadioAdded];
        c.chance_card_today();
        let radios: Vec<bool> = c.partisans.as_ref().unwrap().cells.iter().map(|c| c.radio).collect();
        assert_eq!(radios.iter().filter(|&&r| r).count(), 1, "one radio added: {radios:?}");
        assert!(radios[0]);

        c.relocate("Blue 2", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        c.book_losses("Blue 2", 300, None);
        let (points, cards) = (c.force("Blue 2").unwrap().points(), c.diary.len());
        c.cards_today = vec![ChanceOutcome::ReplenishmentDelayed];
        c.diary_card(DiaryCard { owner: "Blue 2".into(), text: "replenishment 50".into() });
        assert_eq!(c.force("Blue 2").unwrap().points(), points, "not today");
        assert_eq!(c.diary.len(), cards + 1, "filed again for tomorrow");

        c.cards_today = vec![ChanceOutcome::CommandDecisionReroll];
        c.drain_events();
        let mut rerolled = 0;
        for q in 0..60 {
            c.decisions.clear();
            let Ok((d, e)) = c.command_decision("Major Two", Competency::BelowAverage, &format!("q{q}"), false) else {
                panic!("a decision")
            };
            if e.inputs.iter().any(|i| i.name == "rerolled") {
                rerolled += 1;
                assert_eq!(e.dice.len(), 2, "the first D10 and the re-roll");
                assert_eq!(d.success, d.face < d.target);
                assert!(e.dice[0].face >= d.target, "only a failure is re-rolled");
            }
        }
        assert!(rerolled > 0);

        // "4♣ Air Commands get an extra SC Rallying throw".
        weather(&mut c, Wind::Calm);
        c.cards_today = vec![ChanceOutcome::ExtraRally(RallyWho::AirCommands)];
        c.drain_events();
        c.air_start_of_day();
        let rally = c.drain_events().into_iter().find(|e| e.rule.section == "28.12 Rallying Strategic Condition");
        assert_eq!(rally.expect("the extra throw").dice.len(), 1, "one D6");

        // "A♠ Senior Command chosen by dice throw appoints a new CO": a Fraction's CO (3.3).
        let mut fraction = c.force("Blue 1").unwrap().clone();
        fraction.name = "Blue 1 carriers".into();
        fraction.kind = crate::map::common::ForceKind::Fraction;
        c.forces.push(fraction);
        c.cards_today = vec![ChanceOutcome::SeniorCommandAppointsNewCo];
        let mut appointed = false;
        for _ in 0..20 {
            c.chance_card_today();
            let co = &c.force("Blue 1 carriers").unwrap().commander;
            if co.name.starts_with("CO of Blue 1 carriers") {
                appointed = true;
                break;
            }
        }
        assert!(appointed, "the landing force's Senior Command comes up on the die");
        assert_eq!(c.force("Blue 1").unwrap().commander.name, "Major One", "a battlegroup's BC stays");
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
