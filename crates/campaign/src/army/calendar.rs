//! The campaign day (FYOW 1): 6 sessions of 4 bounds a day, 3-day weeks,
//! 4-week (12-day) months with the diary dates, and the 3-month seasons. A
//! season and its night and daylight sessions are the rules crate's
//! [`Season`] and [`Light`].

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::day::{BOUNDS_PER_SESSION, Light, SESSIONS_PER_DAY, Season};
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::{ArmyError, fyow, out_of_range};

/// Days in a campaign week (FYOW 1.1).
pub const DAYS_PER_WEEK: u8 = 3;
/// Days in a campaign month: 4 weeks of 3 days (FYOW 1.1).
pub const DAYS_PER_MONTH: u8 = 12;

/// The diary dates of a campaign month (FYOW 1.1), day 1 to 12:
/// week 1 1st, 3rd, 6th; week 2 8th, 11th, 14th; week 3 16th, 19th, 22nd;
/// week 4 24th, 27th, Last day.
pub const DIARY_DATES: [&str; 12] =
    ["1st", "3rd", "6th", "8th", "11th", "14th", "16th", "19th", "22nd", "24th", "27th", "Last day"];

/// A calendar month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Month {
    January,
    February,
    March,
    April,
    May,
    June,
    July,
    August,
    September,
    October,
    November,
    December,
}

const MONTHS: [Month; 12] = [
    Month::January,
    Month::February,
    Month::March,
    Month::April,
    Month::May,
    Month::June,
    Month::July,
    Month::August,
    Month::September,
    Month::October,
    Month::November,
    Month::December,
];

impl Month {
    /// The month numbered 1 (January) to 12 (December).
    pub fn from_number(n: u8) -> Result<Month, ArmyError> {
        MONTHS.get(usize::from(n).wrapping_sub(1)).copied().ok_or_else(|| out_of_range(format!("month {n} (1..=12)")))
    }

    /// 1 for January … 12 for December.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The season the month belongs to (FYOW 1.2).
    pub fn season(self) -> Season {
        match self {
            Month::December | Month::January | Month::February => Season::Winter,
            Month::March | Month::April | Month::May => Season::Spring,
            Month::June | Month::July | Month::August => Season::Summer,
            Month::September | Month::October | Month::November => Season::Autumn,
        }
    }

    /// The first month of a season (its first day is the "first day of a
    /// new season" of the Game Flow, 4.1).
    pub fn first_of(season: Season) -> Month {
        match season {
            Season::Winter => Month::December,
            Season::Spring => Month::March,
            Season::Summer => Month::June,
            Season::Autumn => Month::September,
        }
    }

    /// "Note the start date of the campaign or throw a D12 to determine the
    /// month" (FYOW "Preparations": Weather). The D12 reads 1 = January.
    pub fn thrown(dice: &mut impl Roll) -> (Month, RuleEvent) {
        let face = dice.d12();
        let month = MONTHS[usize::from(face - 1)];
        let event = RuleEvent::new(EventKind::Calendar, fyow("Preparations for the campaign: Weather"))
            .dice(12, &[face])
            .outcome(json!({ "month": month }));
        (month, event)
    }
}

/// What the calendar crossed when it moved on a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Crossed {
    pub new_day: bool,
    pub new_week: bool,
    pub new_month: bool,
    pub new_season: bool,
    pub new_year: bool,
}

/// A moment of the campaign: year, month, campaign day 1..=12 of the month
/// and session 1..=6 of the day. A saved date is checked when read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawDate")]
pub struct CampaignDate {
    year: u16,
    month: Month,
    day: u8,
    session: u8,
}

#[derive(Deserialize)]
struct RawDate {
    year: u16,
    month: Month,
    day: u8,
    session: u8,
}

impl TryFrom<RawDate> for CampaignDate {
    type Error = ArmyError;
    fn try_from(r: RawDate) -> Result<Self, ArmyError> {
        CampaignDate::new(r.year, r.month, r.day, r.session)
    }
}

impl CampaignDate {
    /// A date; `day` is the campaign day 1..=12 (not the diary date) and
    /// `session` 1..=6.
    pub fn new(year: u16, month: Month, day: u8, session: u8) -> Result<Self, ArmyError> {
        if !(1..=DAYS_PER_MONTH).contains(&day) {
            return Err(out_of_range(format!("campaign day {day} (1..=12; a month has 4 weeks of 3 days)")));
        }
        if !(1..=SESSIONS_PER_DAY).contains(&session) {
            return Err(out_of_range(format!("session {session} (1..=6)")));
        }
        Ok(Self { year, month, day, session })
    }

    /// The first session of the first day of a month.
    pub fn start_of(year: u16, month: Month) -> Self {
        Self { year, month, day: 1, session: 1 }
    }

    pub fn year(&self) -> u16 {
        self.year
    }
    pub fn month(&self) -> Month {
        self.month
    }
    /// Campaign day of the month, 1..=12.
    pub fn day(&self) -> u8 {
        self.day
    }
    /// Session of the day, 1..=6.
    pub fn session(&self) -> u8 {
        self.session
    }
    /// Week of the month, 1..=4.
    pub fn week(&self) -> u8 {
        (self.day - 1) / DAYS_PER_WEEK + 1
    }
    pub fn season(&self) -> Season {
        self.month.season()
    }
    /// The diary date of the day ("1st" … "27th", "Last day").
    pub fn diary_date(&self) -> &'static str {
        DIARY_DATES[usize::from(self.day - 1)]
    }
    /// The hour the session starts (00.00, 04.00 … 20.00hrs; FYOW 1.2).
    pub fn start_hour(&self) -> u8 {
        (self.session - 1) * BOUNDS_PER_SESSION
    }
    /// Night or daylight, by the season's session structure (FYOW 1.2).
    pub fn light(&self) -> Light {
        self.season().sessions()[usize::from(self.session - 1)]
    }
    /// First day of a week: the 1st, 8th, 16th and 24th (FYOW 1.1).
    pub fn is_first_day_of_week(&self) -> bool {
        (self.day - 1).is_multiple_of(DAYS_PER_WEEK)
    }
    pub fn is_first_day_of_month(&self) -> bool {
        self.day == 1
    }
    pub fn is_last_day_of_month(&self) -> bool {
        self.day == DAYS_PER_MONTH
    }
    pub fn is_first_day_of_season(&self) -> bool {
        self.day == 1 && self.month == Month::first_of(self.season())
    }

    /// The same day's first session.
    pub fn day_start(&self) -> Self {
        Self { session: 1, ..*self }
    }

    /// The first session of the day `days` campaign days later.
    pub fn plus_days(&self, days: u32) -> Self {
        let index =
            (u32::from(self.month as u8) * u32::from(DAYS_PER_MONTH) + u32::from(self.day - 1)).saturating_add(days);
        let months = index / u32::from(DAYS_PER_MONTH);
        let year = self.year.saturating_add(u16::try_from(months / 12).unwrap_or(u16::MAX));
        Self {
            year,
            month: MONTHS[(months % 12) as usize],
            day: (index % u32::from(DAYS_PER_MONTH)) as u8 + 1,
            session: 1,
        }
    }

    /// The next session, and what was crossed on the way.
    pub fn next_session(&self) -> (Self, Crossed) {
        if self.session < SESSIONS_PER_DAY {
            return (Self { session: self.session + 1, ..*self }, Crossed::default());
        }
        let next = self.plus_days(1);
        let crossed = Crossed {
            new_day: true,
            new_week: next.is_first_day_of_week(),
            new_month: next.is_first_day_of_month(),
            new_season: next.is_first_day_of_season(),
            new_year: next.year != self.year,
        };
        (next, crossed)
    }

    /// Moves the calendar on one session (the Umpire's step) and logs it.
    pub fn advance(&mut self) -> (Crossed, RuleEvent) {
        let before = *self;
        let (next, crossed) = self.next_session();
        *self = next;
        let event = RuleEvent::new(EventKind::Calendar, fyow("1 The Campaign day"))
            .input("from", before.to_string(), "")
            .outcome(json!({
                "date": next.to_string(),
                "light": next.light(),
                "start_hour": next.start_hour(),
                "crossed": crossed,
            }));
        (crossed, event)
    }
}

impl fmt::Display for CampaignDate {
    /// "16th June 1944 (week 3), session 2 (04.00hrs)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:?} {} (week {}), session {} ({:02}.00hrs)",
            self.diary_date(),
            self.month,
            self.year,
            self.week(),
            self.session,
            self.start_hour()
        )
    }
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    #[test]
    fn diary_dates_and_weeks() {
        let d = |day| CampaignDate::new(1944, Month::June, day, 1).unwrap();
        assert_eq!(d(1).diary_date(), "1st");
        assert_eq!(d(4).diary_date(), "8th");
        assert_eq!(d(12).diary_date(), "Last day");
        let week_starts: Vec<&str> =
            (1..=12).map(d).filter(|x| x.is_first_day_of_week()).map(|x| x.diary_date()).collect();
        assert_eq!(week_starts, ["1st", "8th", "16th", "24th"], "FYOW 1.1");
        assert_eq!(d(9).week(), 3);
        assert_eq!(d(12).week(), 4);
    }

    #[test]
    fn season_session_structures() {
        let light = |m, s| CampaignDate::new(1944, m, 1, s).unwrap().light();
        assert_eq!(light(Month::January, 2), Light::Night, "winter: 2 night sessions to 07.00");
        assert_eq!(light(Month::January, 3), Light::Daylight);
        assert_eq!(light(Month::January, 5), Light::Night, "winter: night from 16.00");
        assert_eq!(light(Month::April, 2), Light::Daylight, "spring: daylight from 04.00");
        assert_eq!(light(Month::April, 5), Light::Night);
        assert_eq!(light(Month::July, 5), Light::Daylight, "summer: daylight to 19.00");
        assert_eq!(light(Month::July, 6), Light::Night);
        assert_eq!(light(Month::October, 2), Light::Night, "autumn: night to 07.00");
        assert_eq!(light(Month::October, 5), Light::Daylight, "autumn: daylight to 19.00");
        for s in [Season::Winter, Season::Spring, Season::Summer, Season::Autumn] {
            let day = s.sessions().iter().filter(|&&l| l == Light::Daylight).count();
            assert_eq!(
                day,
                match s {
                    Season::Winter => 2,
                    Season::Summer => 4,
                    _ => 3,
                }
            );
        }
        assert_eq!(CampaignDate::new(1944, Month::May, 1, 6).unwrap().start_hour(), 20);
    }

    #[test]
    fn the_calendar_rolls_over_day_week_month_season_and_year() {
        let mut date = CampaignDate::new(1944, Month::November, 12, 6).unwrap();
        let (crossed, event) = date.advance();
        assert_eq!(date, CampaignDate::start_of(1944, Month::December));
        assert!(crossed.new_day && crossed.new_week && crossed.new_month && crossed.new_season && !crossed.new_year);
        assert_eq!(event.kind, EventKind::Calendar);

        let mut date = CampaignDate::new(1944, Month::December, 12, 6).unwrap();
        let (crossed, _) = date.advance();
        assert_eq!(date, CampaignDate::start_of(1945, Month::January));
        assert!(crossed.new_year && crossed.new_month && !crossed.new_season, "winter runs December to February");

        let mut date = CampaignDate::new(1944, Month::June, 3, 6).unwrap();
        let (crossed, _) = date.advance();
        assert_eq!((date.day(), date.session()), (4, 1));
        assert!(crossed.new_week && !crossed.new_month);

        let mut date = CampaignDate::new(1944, Month::June, 4, 2).unwrap();
        let (crossed, _) = date.advance();
        assert_eq!(date.session(), 3);
        assert_eq!(crossed, Crossed::default());
    }

    #[test]
    fn seventy_two_sessions_make_a_month() {
        let mut date = CampaignDate::start_of(1943, Month::March);
        for _ in 0..72 {
            date.advance();
        }
        assert_eq!(date, CampaignDate::start_of(1943, Month::April));
        assert_eq!(CampaignDate::start_of(1943, Month::March).plus_days(36), CampaignDate::start_of(1943, Month::June));
    }

    #[test]
    fn bad_dates_are_rejected() {
        assert!(CampaignDate::new(1944, Month::June, 0, 1).is_err());
        assert!(CampaignDate::new(1944, Month::June, 13, 1).is_err());
        assert!(CampaignDate::new(1944, Month::June, 1, 7).is_err());
        assert!(Month::from_number(13).is_err());
        assert!(Month::from_number(0).is_err());
        assert_eq!(Month::from_number(12), Ok(Month::December));
        let saved = r#"{"year":1944,"month":"June","day":13,"session":1}"#;
        assert!(serde_json::from_str::<CampaignDate>(saved).is_err(), "a saved day 13 is refused");
        let good = CampaignDate::new(1944, Month::June, 12, 6).unwrap();
        let back: CampaignDate = serde_json::from_str(&serde_json::to_string(&good).unwrap()).unwrap();
        assert_eq!(back, good);
    }

    #[test]
    fn the_start_month_can_be_thrown_on_a_d12() {
        let (month, event) = Month::thrown(&mut Scripted::new([6]));
        assert_eq!(month, Month::June);
        assert_eq!(event.dice.len(), 1);
    }

    #[test]
    fn a_date_prints_with_its_diary_date() {
        let d = CampaignDate::new(1944, Month::June, 7, 2).unwrap();
        assert_eq!(d.to_string(), "16th June 1944 (week 3), session 2 (04.00hrs)");
    }
}
