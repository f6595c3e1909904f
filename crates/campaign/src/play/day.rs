//! A campaign day in the order of the Game Flow (FYOW 4): the season's,
//! month's, week's and day's duties, six sessions of Battlegroup Priority
//! Cards, and the end of the day.

use serde_json::json;
use warbound_rules::day::{Light as DayLight, SESSIONS_PER_DAY};
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::game_flow::{Deck, Phase, deal, duties};
use crate::map::common::{Light, SessionConditions};
use crate::map::movement::MovementState;
use crate::play::state::{Campaign, Whereabouts, fyow};
use crate::play::table::Tabletop;
use crate::weather::{Moon, Sky, Wind, draw_chance_card, night_session_light};

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

    /// Plays one campaign day, every engagement on paper.
    pub fn play_day(&mut self) {
        self.play_day_with(None);
    }

    /// Plays one campaign day, its engagements fought on `table` when one is
    /// given (FYOW 15.6), else on paper (FYOW 33).
    pub fn play_day_with(&mut self, mut table: Option<&mut dyn Tabletop>) {
        if self.ended.is_some() {
            return;
        }
        self.begin_day();
        for _ in 0..SESSIONS_PER_DAY {
            self.play_session_with(table.as_mut().map(|t| &mut **t as &mut dyn Tabletop));
            if self.ended.is_some() {
                break;
            }
        }
        self.end_of_day();
    }

    /// The day's first steps, before its first session: the calendar's
    /// duties, weather and supply.
    pub fn begin_day(&mut self) {
        self.day += 1;
        self.start_of_day();
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
            self.in_step(Self::partisans_new_season);
        }
        if date.is_first_day_of_month() {
            if !first_day {
                self.replenishment();
                self.replenishment_from_home();
                self.experience_reviews();
                self.in_step(Self::partisans_start_of_month);
            }
            self.in_step(Self::partisan_agents);
            self.in_step(Self::partisans_plan_missions);
        }
        self.in_step(Self::partisan_agents_evade);
        if date.is_first_day_of_week() {
            self.in_step(Self::partisans_regather);
            self.in_step(Self::partisan_sweeps);
            self.in_step(Self::partisan_reports);
            self.weekly_morale();
            self.weekly_orders();
        }
        // 4.4 Start of the day: the diary box, the weather, supply.
        for card in self.diary.draw(&date) {
            self.diary_card(card);
        }
        self.chance_card_today();
        self.weather_of_the_day();
        self.ordered_today.clear();
        self.trains_new_day();
        for i in 0..self.forces.len() {
            let f = &self.forces[i];
            let max = f.mover().profile().map_or(0, |p| p.max_per_day);
            let retry = f.movement.retry.clone();
            self.forces[i].movement = MovementState::new_day(max, retry);
        }
        self.daily_supply();
        self.pickets_supplied();
        self.in_step(Self::air_start_of_day);
        self.fleet_start_of_day();
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

    /// One session of Battlegroup Priority Cards, its battles fought on
    /// `table` when one is given.
    pub fn play_session_with(&mut self, table: Option<&mut dyn Tabletop>) {
        self.open_session();
        self.resolve_battles(table);
        self.close_session();
    }

    /// A session up to its battles: the commanders' activations on their
    /// Battlegroup Priority Cards (FYOW 4.5). The battles due
    /// ([`Campaign::due_battles`]) are resolved next, one by one
    /// ([`Campaign::resolve_battle`]), then [`Campaign::close_session`].
    pub fn open_session(&mut self) {
        // A new session: each commander's activation is new (FYOW 8).
        self.decisions.clear();
        let s = self.date.session();
        self.conditions = self.session_conditions(s);
        self.activated.clear();
        self.jams.clear();
        for f in &mut self.forces {
            f.movement.allowance.new_session();
        }
        self.in_step(Self::partisan_missions);
        self.in_step(Self::run_trains);
        self.in_step(Self::crew_repairs);
        self.in_step(Self::unload_waves);
        self.fleet_session();
        self.in_step(Self::conceal_on_boards);
        let forces: Vec<String> = self
            .forces
            .iter()
            .filter(|f| match &f.at {
                Whereabouts::Board(_) => true,
                Whereabouts::Afloat { day, .. } | Whereabouts::Airborne { day, .. } => *day <= self.day,
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
    }

    /// The session's end, after its battles: attitudes move on (15.3), the
    /// boards' holders, the calendar, the campaign's end.
    pub fn close_session(&mut self) {
        // End of the session: attitudes move on (15.3).
        let names: Vec<String> = self.forces.iter().filter(|f| f.board().is_some()).map(|f| f.name.clone()).collect();
        for name in names {
            let challenged = self.in_battle(&name);
            if challenged {
                self.revealed_by_battle(&name);
            }
            let fortified = self.occupant_mut(&name).and_then(|o| o.attitude.end_session(&name, challenged));
            if let Some(e) = fortified {
                self.log_applied(e);
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
        self.log_applied(e);
        self.check_end();
    }

    /// The day's last steps, after its sessions.
    pub fn end_of_day(&mut self) {
        if self.ended.is_none() && self.day >= self.file.days {
            self.finish("the campaign's last day is over");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;
    use crate::weather::ChanceOutcome;

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
}
