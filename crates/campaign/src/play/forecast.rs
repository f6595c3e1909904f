//! The day's weather (FYOW 25–27): thrown each morning, or, under the
//! optional Weather Forecasting of 25.4 (26.4, 27.4), forecast three days
//! ahead and made better or worse when the day comes.

use warbound_rules::event::RuleEvent;

use crate::play::state::Campaign;
use crate::weather::forecast::realise_forecast;
use crate::weather::{ChanceOutcome, DayWeather, WeatherError, throw_day};

/// "The above dice throws are used to determine the weather for the next 3
/// days".
pub const FORECAST_DAYS: usize = 3;

impl Campaign {
    /// The day's weather, its throws logged as one step.
    ///
    /// Reading (FYOW 25.4 with 32): a chance card that moves or splits the
    /// day's weather is the unexpected; that day is thrown afresh with the
    /// card, its forecast put aside, and the later forecast days stand (test
    /// `a_forecast_campaign_realises_each_day_from_the_forecast_three_days_ahead`).
    pub(crate) fn weather_of_the_day(&mut self) {
        self.in_step(|c| {
            let forecasting = c.file.weather_forecast;
            if forecasting && c.forecast.is_empty() {
                c.forecast_ahead(0);
            }
            let card = c
                .cards_today
                .iter()
                .any(|k| matches!(k, ChanceOutcome::WeatherSteps(_) | ChanceOutcome::SplitWeather(_)));
            let forecast = forecasting.then(|| c.forecast.remove(0));
            let thrown: Result<(DayWeather, Vec<RuleEvent>), WeatherError> = match forecast {
                Some(day) if !card => realise_forecast(&mut c.dice, &day, c.weather.as_ref()),
                _ => {
                    throw_day(&mut c.dice, c.file.climate, c.date.month().number(), c.weather.as_ref(), &c.cards_today)
                }
            };
            match thrown {
                Ok((day, es)) => {
                    for e in es {
                        c.log(e);
                    }
                    c.weather = Some(day.carried.clone());
                    c.today = Some(day);
                }
                Err(e) => c.log_refusal("25", &e.to_string()),
            }
            if forecasting {
                c.forecast_ahead(1);
            }
        });
    }

    /// Throws forecast days, each from the one before it, until
    /// [`FORECAST_DAYS`] are forecast; the first forecast is `first` days
    /// from today. Each throw's events name the day it forecasts.
    fn forecast_ahead(&mut self, first: u32) {
        while self.forecast.len() < FORECAST_DAYS {
            let date = self.date.plus_days(first + self.forecast.len() as u32);
            let previous = self.forecast.last().map(|d| d.carried.clone()).or_else(|| self.weather.clone());
            match throw_day(&mut self.dice, self.file.climate, date.month().number(), previous.as_ref(), &[]) {
                Ok((day, es)) => {
                    for e in es {
                        self.log(e.input(
                            "forecast_for",
                            format!("{} {:?}", date.diary_date(), date.month()),
                            "a forecast noted in the Campaign Log",
                        ));
                    }
                    self.forecast.push(day);
                }
                Err(e) => {
                    self.log_refusal("25.4", &e.to_string());
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;

    fn small(forecast: bool) -> Campaign {
        let mut file = CampaignFile::load("small.ron", SMALL).unwrap();
        file.weather_forecast = forecast;
        Campaign::new("small.ron", file, 4).unwrap()
    }

    #[test]
    fn a_forecast_campaign_realises_each_day_from_the_forecast_three_days_ahead() {
        // 25.4 "The above dice throws are used to determine the weather for the
        // next 3 days and the Campaign Log is noted with this forecast. Each day,
        // a d6 is thrown. A score of 1 moves the marker down 1 number ... A score
        // of 6 moves the marker up 1 number".
        let mut c = small(true);
        c.drain_events();
        c.begin_day();
        assert_eq!(c.forecast.len(), FORECAST_DAYS, "three days ahead");
        let events = c.drain_events();
        let noted: Vec<&str> = events
            .iter()
            .filter_map(|e| e.inputs.iter().find(|i| i.name == "forecast_for"))
            .filter_map(|i| i.value.as_str())
            .collect();
        assert!(noted.contains(&"1st June") && noted.contains(&"6th June"), "{noted:?}");
        let realised =
            |events: &[RuleEvent]| events.iter().filter(|e| e.rule.section == "25.4 Weather Forecasting").count();
        assert_eq!(realised(&events), 1, "today's weather from its forecast");
        for _ in 0..5 {
            // The rest of today, then tomorrow's weather from its forecast.
            for _ in 0..warbound_rules::day::SESSIONS_PER_DAY {
                if c.ended.is_none() {
                    c.play_session_with(None);
                }
            }
            c.end_of_day();
            c.drain_events();
            if c.ended.is_some() {
                break;
            }
            let expected = c.forecast[0].clone();
            c.begin_day();
            let events = c.drain_events();
            let today = c.today.as_ref().unwrap();
            let card = c
                .cards_today
                .iter()
                .any(|k| matches!(k, ChanceOutcome::WeatherSteps(_) | ChanceOutcome::SplitWeather(_)));
            if !card {
                assert_eq!(realised(&events), 1);
                let moved = i16::from(today.spells[0].marker) - i16::from(expected.spells[0].marker);
                assert!(moved.abs() <= 1, "one number better or worse at most: {moved}");
            }
            assert_eq!(c.forecast.len(), FORECAST_DAYS, "kept three days ahead");
        }
    }

    #[test]
    fn without_the_optional_rule_each_day_is_thrown_on_the_morning() {
        let mut c = small(false);
        c.begin_day();
        assert!(c.forecast.is_empty());
        assert!(c.today.is_some());
        assert!(
            !c.drain_events().iter().any(|e| e.rule.section.ends_with("Weather Forecasting")
                || e.inputs.iter().any(|i| i.name == "forecast_for"))
        );
    }
}
