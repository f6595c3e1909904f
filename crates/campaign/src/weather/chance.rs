//! FYOW 32 Chance Cards: one playing card drawn at the start of each month,
//! put unseen into the diary box on the D12th day, affecting that day only.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::weather::common::{WeatherError, check_month};

/// The suits, in the order of the printed table's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Suit {
    Spades,
    Clubs,
    Hearts,
    Diamonds,
}

const SUITS: [Suit; 4] = [Suit::Spades, Suit::Clubs, Suit::Hearts, Suit::Diamonds];

/// The ranks, Ace low as in the printed table's last row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rank {
    Ace,
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
}

const RANKS: [Rank; 13] = [
    Rank::Ace,
    Rank::Two,
    Rank::Three,
    Rank::Four,
    Rank::Five,
    Rank::Six,
    Rank::Seven,
    Rank::Eight,
    Rank::Nine,
    Rank::Ten,
    Rank::Jack,
    Rank::Queen,
    Rank::King,
];

/// A card of the "normal pack of playing cards".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayingCard {
    pub rank: Rank,
    pub suit: Suit,
}

/// Who gets an extra SC (Strategic Condition) Rallying throw (the 4s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RallyWho {
    AirCommands,
    Everybody,
    NavalCommands,
}

/// How a 10 or a 9 splits the day's weather throw over the sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SessionSplit {
    /// The 10s: sessions 1-2, 3-4 and 5-6.
    Thirds,
    /// The 9s: sessions 1-3 and 4-6 (also the "2 x half-days of 3 sessions"
    /// of FYOW 25, 26 and 27, where a campaign plays its weather so).
    Halves,
}

/// Whose stockpile an 8 changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StockpileWho {
    AllBattlegroups,
    AllFractions,
}

/// A card's "suggested chance card outcome" (FYOW 32), for the day it is in
/// the diary box. The weather outcomes are applied by
/// [`crate::weather::throw_day`] and [`crate::weather::flying_permission`];
/// the others are read by the areas they name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChanceOutcome {
    /// Kings: "Weather up 2 steps today" (+2), up 1, down 2, down 1.
    WeatherSteps(i8),
    /// Queens: "Add 1 to wind throw today" (+1) or "Deduct 1" (−1).
    WindThrow(i8),
    /// Jacks of Spades and Clubs: "If it rains today +2 (+1) extra to Rain Gauge".
    GaugeIfWet(u8),
    /// Jacks of Hearts and Diamonds: "If it doesn't rain today −2 (−1) extra
    /// from Rain Gauge".
    GaugeIfDry(u8),
    /// 10s: "The weather chart throw is taken for sessions 1-2, 3-4 and 5-6
    /// today"; 9s: "for sessions 1-3 and 4-6".
    SplitWeather(SessionSplit),
    /// 8s: "All Battlegroups (Fractions) −1 from (+1 to) Stockpile".
    Stockpile { who: StockpileWho, change: i8 },
    /// 7s and 6s: "All supply throws lose (gain) n pips".
    SupplyPips(i8),
    /// 5♠: "Planned Partisan activity today is cancelled".
    PartisanActivityCancelled,
    /// 5♣: "Any Agent present does not need to test for detection today".
    AgentNeedsNoDetectionTest,
    /// 5♥: "1 Partisan radio added".
    PartisanRadioAdded,
    /// 5♦: "1 Partisan radio broken".
    PartisanRadioBroken,
    /// 4♠: "Command Decision rolls can be re-rolled today".
    CommandDecisionReroll,
    /// 4♣ ♥ ♦: an extra SC Rallying throw.
    ExtraRally(RallyWho),
    /// 3♠ and 3♦: "Air Command Flying permission throw −1 (+1) today".
    FlyingPermission(i8),
    /// 3♣: "Any MP Test D10 roll of 0 counts as 0 not 10 today".
    MovementTestZeroCountsZero,
    /// 3♥: "Any MP Test D10 roll of 1 can be re-rolled today".
    MovementTestRerollOnes,
    /// 2♠ and 2♣: "Add 2 (1) to every Work & Task need".
    WorkTaskNeed(u8),
    /// 2♥: "Any Air Recce film from yesterday ruined and unusable".
    AirRecceFilmRuined,
    /// 2♦: "Any Replenishment due today delayed until tomorrow".
    ReplenishmentDelayed,
    /// Aces of Spades and Clubs: "Senior Command chosen by dice throw
    /// appoints a new CO".
    SeniorCommandAppointsNewCo,
    /// Aces of Hearts and Diamonds: "CO chosen by dice throw appoints a new NCO".
    CoAppointsNewNco,
}

impl PlayingCard {
    /// The FYOW 32 table of suggested outcomes, row by row as printed.
    pub fn outcome(self) -> ChanceOutcome {
        use ChanceOutcome as O;
        use Suit::*;
        let s = self.suit;
        match self.rank {
            Rank::King => O::WeatherSteps(match s {
                Spades => 2,
                Clubs => 1,
                Hearts => -2,
                Diamonds => -1,
            }),
            Rank::Queen => O::WindThrow(if matches!(s, Spades | Clubs) { 1 } else { -1 }),
            Rank::Jack => match s {
                Spades => O::GaugeIfWet(2),
                Clubs => O::GaugeIfWet(1),
                Hearts => O::GaugeIfDry(2),
                Diamonds => O::GaugeIfDry(1),
            },
            Rank::Ten => O::SplitWeather(SessionSplit::Thirds),
            Rank::Nine => O::SplitWeather(SessionSplit::Halves),
            Rank::Eight => match s {
                Spades => O::Stockpile { who: StockpileWho::AllBattlegroups, change: -1 },
                Clubs => O::Stockpile { who: StockpileWho::AllFractions, change: -1 },
                Hearts => O::Stockpile { who: StockpileWho::AllFractions, change: 1 },
                Diamonds => O::Stockpile { who: StockpileWho::AllBattlegroups, change: 1 },
            },
            Rank::Seven => O::SupplyPips(match s {
                Spades => -2,
                Clubs => -1,
                Hearts => 1,
                Diamonds => 2,
            }),
            Rank::Six => O::SupplyPips(if matches!(s, Spades | Clubs) { -1 } else { 1 }),
            Rank::Five => match s {
                Spades => O::PartisanActivityCancelled,
                Clubs => O::AgentNeedsNoDetectionTest,
                Hearts => O::PartisanRadioAdded,
                Diamonds => O::PartisanRadioBroken,
            },
            Rank::Four => match s {
                Spades => O::CommandDecisionReroll,
                Clubs => O::ExtraRally(RallyWho::AirCommands),
                Hearts => O::ExtraRally(RallyWho::Everybody),
                Diamonds => O::ExtraRally(RallyWho::NavalCommands),
            },
            Rank::Three => match s {
                Spades => O::FlyingPermission(-1),
                Clubs => O::MovementTestZeroCountsZero,
                Hearts => O::MovementTestRerollOnes,
                Diamonds => O::FlyingPermission(1),
            },
            Rank::Two => match s {
                Spades => O::WorkTaskNeed(2),
                Clubs => O::WorkTaskNeed(1),
                Hearts => O::AirRecceFilmRuined,
                Diamonds => O::ReplenishmentDelayed,
            },
            Rank::Ace => match s {
                Spades | Clubs => O::SeniorCommandAppointsNewCo,
                Hearts | Diamonds => O::CoAppointsNewNco,
            },
        }
    }
}

/// The month's chance card in the diary box.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChanceDraw {
    pub card: PlayingCard,
    /// The D12th day of the month, on which the card is taken from the diary
    /// box ("Cards affect one day only").
    pub day: u8,
}

impl ChanceDraw {
    /// The card's outcome if `day_of_month` (1..=31) is its day, else `None`.
    pub fn for_day(&self, day_of_month: u8) -> Result<Option<ChanceOutcome>, WeatherError> {
        if !(1..=31).contains(&day_of_month) {
            return Err(WeatherError::BadDay(day_of_month));
        }
        Ok((day_of_month == self.day).then(|| self.card.outcome()))
    }
}

/// FYOW 32: the card drawn at the start of the month (a D4 for the suit and
/// a D13 for the rank stand for drawing from the pack) and the D12 for its
/// day. The card is recorded in the event; the caller keeps it from the
/// player until its day ("Without looking at the card").
///
/// Reading (FYOW 32): nothing says drawn cards stay out of the pack, so each
/// month's card is drawn from a full pack.
pub fn draw_chance_card(roll: &mut impl Roll, month: u8) -> Result<(ChanceDraw, RuleEvent), WeatherError> {
    check_month(month)?;
    let suit = roll.d4();
    let rank = roll.face(13);
    let day = roll.d12();
    let card = PlayingCard { rank: RANKS[usize::from(rank - 1)], suit: SUITS[usize::from(suit - 1)] };
    let draw = ChanceDraw { card, day };
    let event = RuleEvent::new(EventKind::Chance, RuleRef::new(Book::FightYourOwnWars, "32 Chance Cards"))
        .input("month", month, "one card at the start of each month")
        .dice(4, &[suit])
        .dice(13, &[rank])
        .dice(12, &[day])
        .outcome(json!({ "card": card, "diary_day": day, "outcome": card.outcome() }));
    Ok((draw, event))
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    fn card(rank: Rank, suit: Suit) -> PlayingCard {
        PlayingCard { rank, suit }
    }

    #[test]
    fn the_printed_outcomes_row_by_row() {
        use ChanceOutcome as O;
        use Suit::*;
        assert_eq!(card(Rank::King, Spades).outcome(), O::WeatherSteps(2));
        assert_eq!(card(Rank::King, Diamonds).outcome(), O::WeatherSteps(-1));
        assert_eq!(card(Rank::Queen, Clubs).outcome(), O::WindThrow(1));
        assert_eq!(card(Rank::Queen, Hearts).outcome(), O::WindThrow(-1));
        assert_eq!(card(Rank::Jack, Clubs).outcome(), O::GaugeIfWet(1));
        assert_eq!(card(Rank::Jack, Hearts).outcome(), O::GaugeIfDry(2));
        for suit in SUITS {
            assert_eq!(card(Rank::Ten, suit).outcome(), O::SplitWeather(SessionSplit::Thirds));
            assert_eq!(card(Rank::Nine, suit).outcome(), O::SplitWeather(SessionSplit::Halves));
        }
        assert_eq!(card(Rank::Eight, Clubs).outcome(), O::Stockpile { who: StockpileWho::AllFractions, change: -1 });
        assert_eq!(
            card(Rank::Eight, Diamonds).outcome(),
            O::Stockpile { who: StockpileWho::AllBattlegroups, change: 1 }
        );
        assert_eq!(card(Rank::Seven, Spades).outcome(), O::SupplyPips(-2));
        assert_eq!(card(Rank::Six, Diamonds).outcome(), O::SupplyPips(1));
        assert_eq!(card(Rank::Five, Clubs).outcome(), O::AgentNeedsNoDetectionTest);
        assert_eq!(card(Rank::Four, Hearts).outcome(), O::ExtraRally(RallyWho::Everybody));
        assert_eq!(card(Rank::Three, Spades).outcome(), O::FlyingPermission(-1));
        assert_eq!(card(Rank::Three, Clubs).outcome(), O::MovementTestZeroCountsZero);
        assert_eq!(card(Rank::Two, Spades).outcome(), O::WorkTaskNeed(2));
        assert_eq!(card(Rank::Two, Diamonds).outcome(), O::ReplenishmentDelayed);
        assert_eq!(card(Rank::Ace, Clubs).outcome(), O::SeniorCommandAppointsNewCo);
        assert_eq!(card(Rank::Ace, Hearts).outcome(), O::CoAppointsNewNco);
    }

    #[test]
    fn monthly_draw_goes_in_the_diary_box_on_the_d12th_day() {
        // D4 3 (Hearts), D13 13 (King), D12 7.
        let (draw, event) = draw_chance_card(&mut Scripted::new([3, 13, 7]), 4).unwrap();
        assert_eq!(draw.card, card(Rank::King, Suit::Hearts));
        assert_eq!(draw.day, 7);
        assert_eq!(event.kind, EventKind::Chance);
        assert_eq!(event.dice.len(), 3);
        assert_eq!(draw.for_day(6), Ok(None));
        assert_eq!(draw.for_day(7), Ok(Some(ChanceOutcome::WeatherSteps(-2))));
        assert_eq!(draw.for_day(8), Ok(None), "one day only");
        assert_eq!(draw.for_day(0), Err(WeatherError::BadDay(0)));
        assert_eq!(draw_chance_card(&mut Scripted::new([]), 13).unwrap_err(), WeatherError::BadMonth(13));
    }

    #[test]
    fn a_drawn_card_reads_back_from_json() {
        let (draw, _) = draw_chance_card(&mut Scripted::new([1, 1, 12]), 1).unwrap();
        assert_eq!(draw.card, card(Rank::Ace, Suit::Spades));
        let back: ChanceDraw = serde_json::from_str(&serde_json::to_string(&draw).unwrap()).unwrap();
        assert_eq!(back, draw);
    }
}
