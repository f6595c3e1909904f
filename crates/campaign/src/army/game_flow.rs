//! Game Flow (FYOW 4) and Event Timings (FYOW 5): the duties of each command
//! and of the Umpire at each point of the calendar, as data the program
//! queries for a date; and the Diary Box, with reminder cards and the three
//! cards that hide when a decision takes effect.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::calendar::CampaignDate;
use crate::army::{ArmyError, fyow, out_of_range};

/// When a duty falls due (the headings of FYOW 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum When {
    FirstDayOfSeason,
    FirstDayOfMonth,
    FirstDayOfWeek,
    StartOfDay,
    StartOfSession,
    DuringSession,
    EndOfDay,
    LastDayOfMonth,
}

/// Who carries out a duty (FYOW 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Actor {
    /// The Army Commands (Generals).
    ArmyCommands,
    SeniorCommands,
    BattlegroupCommanders,
    AirCommand,
    NavalCommand,
    /// Squadron / air battlegroup leaders.
    SquadronLeaders,
    /// Ship captains / naval battlegroup leaders.
    ShipCaptains,
    Partisans,
    Umpire,
}

/// One duty of the Game Flow, with the section of FYOW that rules it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Duty {
    pub when: When,
    pub actor: Actor,
    pub duty: &'static str,
    /// Marked "(Optional)" in the book.
    pub optional: bool,
    /// The FYOW section that rules the duty.
    pub rule: &'static str,
}

const fn duty(when: When, actor: Actor, duty: &'static str, optional: bool, rule: &'static str) -> Duty {
    Duty { when, actor, duty, optional, rule }
}

use Actor::*;
use When::*;

/// FYOW 4.1–4.8, heading by heading and line by line.
pub const GAME_FLOW: [Duty; 51] = [
    // 4.1 First day of a new season
    duty(FirstDayOfSeason, ArmyCommands, "New Senior Commanders are created by the army", true, "7.1"),
    duty(FirstDayOfSeason, Partisans, "Dice for new Partisan cells and their members", false, "34"),
    // 4.2 First day of new Month
    duty(FirstDayOfMonth, ArmyCommands, "New Battlegroup Commanders and 2iCs are created by the army", true, "7.1"),
    duty(FirstDayOfMonth, ArmyCommands, "Replenishment determined and forces allocated to Battlegroups", false, "21"),
    duty(
        FirstDayOfMonth,
        ArmyCommands,
        "Replenishment From Home forces determined and distributed as required",
        false,
        "21",
    ),
    duty(FirstDayOfMonth, SeniorCommands, "Anti-Partisan sweeps undertaken as required", false, "34"),
    duty(
        FirstDayOfMonth,
        Umpire,
        "Weather dice (2D6) are thrown and the Weather Marker placed in the appropriate square",
        false,
        "25",
    ),
    duty(
        FirstDayOfMonth,
        Umpire,
        "Chance Cards are drawn (if being used) and put into the Diary Box on the D12th day of the month",
        false,
        "32",
    ),
    duty(
        FirstDayOfMonth,
        Partisans,
        "Dice for recruitment to existing cells, for supplies of ammunition and explosives and for radio transmitters",
        false,
        "34",
    ),
    duty(FirstDayOfMonth, Partisans, "Dice throws made for a Partisan Agent; diarise his activity", false, "34"),
    duty(
        FirstDayOfMonth,
        Partisans,
        "Dice for Partisan activity and make diary cards for attacks; Observation missions commence in the 4th Session of the chosen day",
        false,
        "34",
    ),
    // 4.3 First day of each Week
    duty(
        FirstDayOfWeek,
        ArmyCommands,
        "The Highest Command makes a Strategic Morale throw for the whole force",
        false,
        "12.3",
    ),
    duty(
        FirstDayOfWeek,
        ArmyCommands,
        "Weekly Order Cards are dealt to each Highest Command to set the order in which they make decisions and Orders for the week",
        false,
        "10.1",
    ),
    duty(
        FirstDayOfWeek,
        ArmyCommands,
        "Orders are issued to the Senior Commands (including Air and Naval)",
        false,
        "10.1",
    ),
    // 4.4 Start of the Day
    duty(StartOfDay, Umpire, "Take and distribute the diary cards from the Diary Box", false, "5"),
    duty(
        StartOfDay,
        Umpire,
        "Weather and wind are established for the day; moonlight determined; Rain Gauge updated; effects on Map Board movement recorded (aircraft and boats too)",
        false,
        "25",
    ),
    duty(StartOfDay, Umpire, "Partisan agents throw to avoid detection", false, "34"),
    duty(StartOfDay, Umpire, "Changes in the condition of Supply routes are noted", false, "20"),
    duty(
        StartOfDay,
        SeniorCommands,
        "Daily Order Cards are dealt to all Senior Commands to set the order in which each sets out and distributes his Orders for the day",
        false,
        "10.2",
    ),
    duty(
        StartOfDay,
        BattlegroupCommanders,
        "Each Battlegroup Commander makes his Supply throws and records the outcome and consequences",
        false,
        "20",
    ),
    duty(
        StartOfDay,
        AirCommand,
        "A D6 throw to determine whether flying is permitted in the weather prevailing",
        false,
        "28",
    ),
    duty(StartOfDay, AirCommand, "Aircraft Preparation Throws to bring aircraft into service for the day", false, "28"),
    duty(
        StartOfDay,
        AirCommand,
        "Strategic Milestone throws for inactive/lost aircraft (after Preparation Throws); 1D6 for each aircraft returning to service to rally the score",
        false,
        "28",
    ),
    duty(
        StartOfDay,
        NavalCommand,
        "Preparation Throws for each powered vessel to be active during the day",
        false,
        "29",
    ),
    // 4.5 Start of each session
    duty(
        StartOfSession,
        Umpire,
        "Issue a Battlegroup Priority Card to every Senior Commander, Air and Naval Command, Battlegroup, Fraction and Partisan group",
        false,
        "4.5",
    ),
    duty(
        StartOfSession,
        Umpire,
        "Activate units and commands in the order of their BPCs; no Officer Reaction Tests and no Order Dice",
        false,
        "4.5",
    ),
    duty(StartOfSession, Umpire, "Refer to tabletop actions for any interaction with the Map Movements", false, "4.5"),
    // 4.6 During each session
    duty(DuringSession, Umpire, "Take control of train movements, loading and unloading", false, "30"),
    duty(DuringSession, Umpire, "Take control of ship and aircraft loading and unloading", false, "23"),
    duty(DuringSession, SeniorCommands, "When activated, deal with requests from Battlegroup Commanders", false, "9"),
    duty(
        DuringSession,
        BattlegroupCommanders,
        "Move as ordered, subject to movement restrictions and tests",
        false,
        "14",
    ),
    duty(DuringSession, BattlegroupCommanders, "Make any Command Decision throws required", false, "8"),
    duty(
        DuringSession,
        BattlegroupCommanders,
        "Change the Battlegroup attitude (Active, Resting, Deployed etc)",
        false,
        "15",
    ),
    duty(DuringSession, BattlegroupCommanders, "Create or dissolve a Fraction", false, "3"),
    duty(DuringSession, BattlegroupCommanders, "Undertake Work and Tasks", false, "31"),
    duty(
        DuringSession,
        BattlegroupCommanders,
        "Field Park Engineers/crews make repair throws for damaged vehicles (a CMS Rallying Throw when a repair is complete)",
        false,
        "22",
    ),
    duty(DuringSession, BattlegroupCommanders, "Loading and unloading", false, "23"),
    duty(
        DuringSession,
        BattlegroupCommanders,
        "Conduct paper battles under the Dunnigan rules as required",
        false,
        "33",
    ),
    duty(
        DuringSession,
        SquadronLeaders,
        "Preparation Throws for aircraft on second sorties (no repairs made)",
        false,
        "28",
    ),
    duty(
        DuringSession,
        SquadronLeaders,
        "Move as ordered onto or between Map Boards; undertake aircraft action subject to AA activity",
        false,
        "28",
    ),
    duty(DuringSession, SquadronLeaders, "Make any Command Decision throws required", false, "8"),
    duty(DuringSession, SquadronLeaders, "Conduct paper battles under the Dunnigan rules as required", false, "33"),
    duty(
        DuringSession,
        ShipCaptains,
        "A Strategic Condition throw if damage has been taken, and any Rallying throw afterwards",
        false,
        "29",
    ),
    duty(
        DuringSession,
        ShipCaptains,
        "Move as ordered onto or between Map Boards if permitted; undertake naval action",
        false,
        "29",
    ),
    duty(
        DuringSession,
        ShipCaptains,
        "Make any Command Decision throws required; conduct paper battles as required",
        false,
        "8",
    ),
    duty(DuringSession, Partisans, "Act as determined by planned activity", false, "34"),
    // 4.7 End of day
    duty(
        EndOfDay,
        BattlegroupCommanders,
        "Record casualties suffered during the day for collation at month end",
        false,
        "21",
    ),
    // 4.8 Last day of the month
    duty(
        LastDayOfMonth,
        ArmyCommands,
        "Replenishment calculations; D10s thrown for delivery time to Battlegroup or Brigade HQ and for the percentage available immediately",
        false,
        "21.4",
    ),
    duty(LastDayOfMonth, Umpire, "Calculate the Replenishment From Home figures", true, "21"),
    duty(LastDayOfMonth, Umpire, "Undertake Upgrades and Trade-Ins for obsolete equipment", true, "21"),
    duty(
        LastDayOfMonth,
        Partisans,
        "Partisan reports sent to the nominated Senior Commander; listening-in activities resolved",
        false,
        "34",
    ),
];

/// The point of the day at which the program asks what is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Before the first session: season, month, week and day duties, in that order.
    DayStart,
    /// At the start of a session.
    SessionStart,
    /// While the session's BPCs are worked through.
    DuringSession,
    /// After the last session: end of day and, on the last day, end of month.
    DayEnd,
}

/// The duties due at `phase` of `date`'s day (FYOW 4).
///
/// Reading (FYOW 4.8): the last-day-of-the-month duties are done at the end
/// of that day, after the day's casualties are recorded (4.7), as they
/// collate them.
pub fn duties(date: &CampaignDate, phase: Phase) -> Vec<&'static Duty> {
    let due: Vec<When> = match phase {
        Phase::DayStart => {
            let mut w = Vec::new();
            if date.is_first_day_of_season() {
                w.push(FirstDayOfSeason);
            }
            if date.is_first_day_of_month() {
                w.push(FirstDayOfMonth);
            }
            if date.is_first_day_of_week() {
                w.push(FirstDayOfWeek);
            }
            w.push(StartOfDay);
            w
        }
        Phase::SessionStart => vec![StartOfSession],
        Phase::DuringSession => vec![DuringSession],
        Phase::DayEnd => {
            if date.is_last_day_of_month() {
                vec![EndOfDay, LastDayOfMonth]
            } else {
                vec![EndOfDay]
            }
        }
    };
    due.iter().flat_map(|w| GAME_FLOW.iter().filter(move |d| d.when == *w)).collect()
}

/// The three packs of priority cards (FYOW 4.3–4.5, 10.1–10.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Deck {
    /// Dealt weekly to each General (and Air and Naval Command) for the
    /// order in which they set out their options (10.1).
    WeeklyOrder,
    /// Dealt daily to each Senior Command for the order in which he sets
    /// out his Orders for the day (10.2).
    DailyOrder,
    /// Battlegroup Priority Cards, issued each session to every Senior,
    /// Air and Naval Command, Battlegroup, Fraction and Partisan group; they
    /// are activated in card order (4.5). Battlegroups in a Brigade Group
    /// hold none (2.9).
    BattlegroupPriority,
}

/// Deals a pack of priority cards to `holders` and returns them in the
/// order the cards give (card 1 first), a fair shuffle thrown on dice.
pub fn deal(deck: Deck, holders: &[String], dice: &mut impl Roll) -> Result<(Vec<String>, RuleEvent), ArmyError> {
    if holders.len() > usize::from(u8::MAX) {
        return Err(out_of_range(format!("{} card holders: at most 255 in one pack", holders.len())));
    }
    let mut order = holders.to_vec();
    let mut faces = Vec::new();
    // Fisher-Yates from the last card down: card i swaps with one of the first i + 1.
    for i in (1..order.len()).rev() {
        let face = dice.face((i + 1) as u8);
        faces.push(face);
        order.swap(i, usize::from(face - 1));
    }
    let section = match deck {
        Deck::WeeklyOrder => "10.1 Generals: Weekly Order Cards",
        Deck::DailyOrder => "10.2 Senior Commands: Daily Order Cards",
        Deck::BattlegroupPriority => "4.5 Start of each session: Battlegroup Priority Cards",
    };
    let mut event = RuleEvent::new(EventKind::Calendar, fyow(section)).input("holders", holders, "");
    for (i, &f) in faces.iter().enumerate() {
        event = event.dice((holders.len() - i) as u8, &[f]);
    }
    let event = event.outcome(json!({ "order": order }));
    Ok((order, event))
}

/// A card in the Diary Box (FYOW 5): a reminder or a decision to act on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiaryCard {
    /// The command or force whose card it is.
    pub owner: String,
    pub text: String,
}

/// The Diary Box (FYOW 5): cards filed by campaign day. Blank cards are
/// not kept: they only hide which day holds the real one.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DiaryBox {
    cards: Vec<(CampaignDate, DiaryCard)>,
}

/// "Perhaps the next 3 days" (FYOW 5.2): three cards, one of them marked.
pub const SURPRISE_CARDS: u8 = 3;

impl DiaryBox {
    pub fn new() -> Self {
        Self::default()
    }

    /// Files a reminder for the day of `date` (a replenishment delivery, a
    /// partisan attack ...).
    pub fn file(&mut self, date: &CampaignDate, card: DiaryCard) {
        self.cards.push((date.day_start(), card));
    }

    /// FYOW 5.2: once a commander has made a decision, three cards are
    /// prepared, two blank and one marked with it, shuffled and put into
    /// the next 3 days; when the marked card comes up the Umpire carries it
    /// out. Shuffling three cards into three days is one day in three: a D3.
    ///
    /// Reading (FYOW 5.2): "the next 3 days" are the three campaign days
    /// after the day of the decision.
    pub fn file_surprise(
        &mut self,
        today: &CampaignDate,
        card: DiaryCard,
        dice: &mut impl Roll,
    ) -> (CampaignDate, RuleEvent) {
        let n = dice.d3();
        let day = today.plus_days(u32::from(n));
        let event = RuleEvent::new(EventKind::Chance, fyow("5.2 \"Surprise\" Events"))
            .actor(&card.owner)
            .input("decision", &card.text, "")
            .input("decided", today.to_string(), "shuffled with 2 blank cards into the next 3 days")
            .dice(3, &[n])
            .outcome(json!({ "day": day.to_string() }));
        self.file(&day, card);
        (day, event)
    }

    /// The Umpire takes out the cards of `date`'s day (and any left from
    /// earlier days) at the start of the day (FYOW 4.4).
    pub fn draw(&mut self, date: &CampaignDate) -> Vec<DiaryCard> {
        let today = date.day_start();
        let (due, later): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.cards).into_iter().partition(|(d, _)| *d <= today);
        self.cards = later;
        due.into_iter().map(|(_, c)| c).collect()
    }

    /// The cards in the box and the day each is filed for, in the order filed.
    pub fn cards(&self) -> &[(CampaignDate, DiaryCard)] {
        &self.cards
    }

    /// Cards still in the box.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;
    use crate::army::calendar::Month;

    fn date(m: Month, day: u8) -> CampaignDate {
        CampaignDate::new(1944, m, day, 1).unwrap()
    }

    #[test]
    fn first_day_of_a_season_brings_everything() {
        let d = duties(&date(Month::June, 1), Phase::DayStart);
        let whens: Vec<When> = d.iter().map(|d| d.when).collect();
        assert_eq!(whens.first(), Some(&FirstDayOfSeason));
        for w in [FirstDayOfSeason, FirstDayOfMonth, FirstDayOfWeek, StartOfDay] {
            assert!(whens.contains(&w), "{w:?}");
        }
        assert!(d.iter().any(|d| d.duty.contains("Strategic Morale") && d.rule == "12.3"));
    }

    #[test]
    fn an_ordinary_day_and_a_week_start() {
        let d = duties(&date(Month::July, 2), Phase::DayStart);
        assert!(d.iter().all(|d| d.when == StartOfDay));
        assert_eq!(d.len(), 10);
        let d = duties(&date(Month::July, 7), Phase::DayStart);
        assert!(d.iter().any(|d| d.when == FirstDayOfWeek), "the 16th starts week 3");
        assert!(!d.iter().any(|d| d.when == FirstDayOfMonth));
    }

    #[test]
    fn sessions_and_day_ends() {
        let d = duties(&date(Month::July, 2), Phase::SessionStart);
        assert!(d.iter().all(|d| d.actor == Umpire) && d.len() == 3);
        let during = duties(&date(Month::July, 2), Phase::DuringSession);
        assert!(during.iter().any(|d| d.actor == BattlegroupCommanders && d.duty.contains("Fraction")));
        assert_eq!(duties(&date(Month::July, 11), Phase::DayEnd).len(), 1);
        let last = duties(&date(Month::July, 12), Phase::DayEnd);
        assert_eq!(last.len(), 5);
        assert!(last.iter().filter(|d| d.optional).count() == 2);
    }

    #[test]
    fn a_decision_is_hidden_among_the_next_three_days() {
        let mut diary = DiaryBox::new();
        let today = CampaignDate::new(1944, Month::June, 10, 3).unwrap();
        let card = DiaryCard { owner: "1 BG".into(), text: "Blow the bridge at Le Bourg".into() };
        // Order die faces 5 -> 3: the third day, across the month end.
        let (day, event) = diary.file_surprise(&today, card.clone(), &mut Scripted::new([5]));
        assert_eq!(day, CampaignDate::start_of(1944, Month::July));
        assert_eq!(event.kind, EventKind::Chance);
        assert!(diary.draw(&date(Month::June, 12)).is_empty());
        assert_eq!(diary.len(), 1);
        assert_eq!(diary.draw(&CampaignDate::new(1944, Month::July, 1, 4).unwrap()), [card]);
        assert!(diary.is_empty());
    }

    #[test]
    fn priority_cards_are_dealt_in_a_thrown_order() {
        let holders: Vec<String> = ["1 Bde", "1 BG", "2 BG", "Partisans"].map(String::from).to_vec();
        // Swaps: card 4 with 1, card 3 with 3, card 2 with 1.
        let (order, event) = deal(Deck::BattlegroupPriority, &holders, &mut Scripted::new([1, 3, 1])).unwrap();
        assert_eq!(order, ["1 BG", "Partisans", "2 BG", "1 Bde"]);
        assert_eq!(event.dice.iter().map(|d| d.sides).collect::<Vec<_>>(), [4, 3, 2]);
        let (order, event) = deal(Deck::WeeklyOrder, &holders[..1], &mut Scripted::new([])).unwrap();
        assert_eq!(order, ["1 Bde"]);
        assert!(event.dice.is_empty());
        let many = vec![String::from("x"); 256];
        assert!(deal(Deck::DailyOrder, &many, &mut Scripted::new([])).is_err());
    }

    #[test]
    fn reminders_left_over_are_drawn_next_time() {
        let mut diary = DiaryBox::new();
        let card = DiaryCard { owner: "Sgt Major".into(), text: "1/3 of losses back to 1 BG".into() };
        diary.file(&date(Month::June, 5), card.clone());
        assert_eq!(diary.draw(&date(Month::June, 6)), std::slice::from_ref(&card));
        let (day, _) = diary.file_surprise(&date(Month::June, 1), card, &mut Scripted::new([1]));
        assert_eq!(day, date(Month::June, 2));
    }
}
