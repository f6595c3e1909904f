//! Order Priority Cards and Officer Reaction Tests (*Fight Your Own Battles*,
//! "Order Priority Cards", "Officer Reaction Tests", "Command and Control
//! turn"): who gets a card, the shuffle and deal, the ORT chart, and the
//! Seize Initiative card swap.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::officer::{CommandGrade, Grade, Officer, Rank};

/// The army an element or officer belongs to: a Seize Initiative swap stays
/// within one nation, and radio tests depend on it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Nation {
    German,
    /// British and Commonwealth.
    British,
    American,
    Italian,
    Russian,
    /// Any other army, by name ("French", "Japanese").
    Other(String),
}

/// What a thing on the table is, for issuing OPCs (FYOB "Issuing OPCs").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Holder {
    /// An element: one card while active on the table.
    Element,
    /// A lorry or armoured carrier on transport duty carrying an element: it
    /// moves on its passengers' card ("infantry travelling in a vehicle will
    /// be activated by their own OPC").
    LoadedTransport,
    /// A transport moving empty: "the vehicle will need a card when it is empty".
    EmptyTransport,
    /// An element acting in a Group: it acts on its Group Company Officer's
    /// card (FYOB "Groups").
    GroupedElement,
    /// A Company Officer's card for **command** (also Air and Naval Commands,
    /// "the equivalent of a Company Officer"); separate from the card of any
    /// tank he rides in.
    CompanyOfficer,
    /// An aircraft squadron: one card and one Order Die for the squadron
    /// (*Heroes All*, "Aircraft formations and operation").
    AirSquadron,
    /// A vessel giving off-shore gunfire: "a single OPC for the vessels is all
    /// that is required", however many there are.
    OffshoreGunfireVessel,
}

/// One candidate for a card this bound.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Participant {
    pub id: String,
    pub holder: Holder,
    pub nation: Nation,
    /// On the table and active: not in reserve, not an aircraft yet to arrive.
    pub active: bool,
}

/// Which participants get an OPC this bound, in the order given (FYOB "Order
/// Priority Cards": one card per active element plus one per active Company
/// Officer). All active off-shore vessels share one card, held by the first.
pub fn card_holders(participants: &[Participant]) -> Vec<&Participant> {
    let mut vessels_carded = false;
    participants
        .iter()
        .filter(|p| p.active)
        .filter(|p| match p.holder {
            Holder::Element | Holder::EmptyTransport | Holder::CompanyOfficer | Holder::AirSquadron => true,
            Holder::LoadedTransport | Holder::GroupedElement => false,
            Holder::OffshoreGunfireVessel => !std::mem::replace(&mut vessels_carded, true),
        })
        .collect()
}

/// Bad input to, or a broken rule of, the deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpcError {
    /// More cards than [`MAX_CARDS`].
    TooManyCards(usize),
    UnknownHolder(String),
    /// Only the holder whose card is being played now can Seize Initiative.
    NotActingNow(String),
    /// The swap needs an ORT of Seizes Initiative.
    DidNotSeize(String),
    /// "A German element may not swap the OPC with, say, an Italian element."
    OtherNation(String),
    /// The card must be held by a friendly element that has not acted.
    NotASwapTarget(String),
}

impl fmt::Display for OpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpcError::TooManyCards(n) => write!(f, "{n} cards is more than a deck of {MAX_CARDS}"),
            OpcError::UnknownHolder(id) => write!(f, "{id} holds no card"),
            OpcError::NotActingNow(id) => write!(f, "{id} is not the one acting now"),
            OpcError::DidNotSeize(id) => write!(f, "{id} did not Seize the Initiative"),
            OpcError::OtherNation(id) => write!(f, "{id} is of another nation"),
            OpcError::NotASwapTarget(id) => write!(f, "{id} is not a friendly element yet to act"),
        }
    }
}

impl std::error::Error for OpcError {}

/// An Order Priority Card's number: 1 is played first.
pub type Card = u16;

/// The most cards a deal shuffles: a die of at most 255 faces picks each
/// card's place, two of them (a block of 255 and a place in it) past 255.
pub const MAX_CARDS: usize = 255 * 255;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Dealt {
    id: String,
    nation: Nation,
    command: bool,
    card: Card,
    played: bool,
    /// Took this bound's card by seizing: "does not need to re-take an ORT".
    ort_passed: bool,
}

/// The cards dealt for a bound, face up (FYOB "The game flow": card 1 acts
/// first, then 2, and so on).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    dealt: Vec<Dealt>,
}

/// Shuffles the OPCs and deals one to each card holder (FYOB "The game flow"
/// and "End of bound"). The shuffle takes one die per card (Fisher–Yates, a
/// die of i faces for the i-th card from the top), so a seed replays the deal.
pub fn deal(participants: &[Participant], dice: &mut impl Roll) -> Result<(Deal, RuleEvent), OpcError> {
    let holders = card_holders(participants);
    let n = holders.len();
    if n > MAX_CARDS {
        return Err(OpcError::TooManyCards(n));
    }
    let mut cards: Vec<Card> = (1..=n as Card).collect();
    let mut thrown: Vec<(u8, u8)> = Vec::new();
    for i in (2..=n).rev() {
        let j = place(i, dice, &mut thrown);
        cards.swap(i - 1, j - 1);
    }
    let dealt: Vec<Dealt> = holders
        .iter()
        .zip(&cards)
        .map(|(p, &card)| Dealt {
            id: p.id.clone(),
            nation: p.nation.clone(),
            command: p.holder == Holder::CompanyOfficer,
            card,
            played: false,
            ort_passed: false,
        })
        .collect();
    let deal = Deal { dealt };
    let mut event = RuleEvent::new(EventKind::OpcDeal, RuleRef::new(Book::FightYourOwnBattles, "Order Priority Cards"))
        .input("cards", n, "one per active element, one per active Company Officer")
        .outcome(json!({ "order": deal.order() }));
    for &(sides, face) in &thrown {
        event = event.dice(sides, &[face]);
    }
    Ok((deal, event))
}

/// A place 1..=`i` for the `i`-th card from the top, each as likely: one
/// die of `i` faces; past 255, a die for the block of 255 places and a D255
/// for the place in it, thrown again when they name a place past `i`.
fn place(i: usize, dice: &mut impl Roll, thrown: &mut Vec<(u8, u8)>) -> usize {
    const DIE: usize = u8::MAX as usize;
    if i <= DIE {
        let face = dice.face(i as u8);
        thrown.push((i as u8, face));
        return usize::from(face);
    }
    let blocks = i.div_ceil(DIE) as u8;
    loop {
        let (block, at) = (dice.face(blocks), dice.face(u8::MAX));
        thrown.extend([(blocks, block), (u8::MAX, at)]);
        let j = (usize::from(block) - 1) * DIE + usize::from(at);
        if j <= i {
            return j;
        }
    }
}

impl Deal {
    /// Holders in the order their cards are played.
    pub fn order(&self) -> Vec<&str> {
        let mut by_card: Vec<&Dealt> = self.dealt.iter().collect();
        by_card.sort_by_key(|d| d.card);
        by_card.iter().map(|d| d.id.as_str()).collect()
    }

    pub fn card_of(&self, id: &str) -> Option<Card> {
        self.find(id).map(|d| d.card)
    }

    /// The holder of the lowest card not yet played: the one acting now.
    pub fn acting_now(&self) -> Option<&str> {
        self.dealt.iter().filter(|d| !d.played).min_by_key(|d| d.card).map(|d| d.id.as_str())
    }

    /// Whether `id` must take an ORT when its card comes up (not when it took
    /// the card by seizing the initiative).
    pub fn needs_ort(&self, id: &str) -> Result<bool, OpcError> {
        self.find(id).map(|d| !d.ort_passed).ok_or_else(|| OpcError::UnknownHolder(id.to_owned()))
    }

    /// The acting holder's turn is over (acted, or failed its ORT: "discard OPC").
    pub fn discard(&mut self, id: &str) -> Result<(), OpcError> {
        if self.acting_now() != Some(id) {
            return Err(OpcError::NotActingNow(id.to_owned()));
        }
        let d = self.dealt.iter_mut().find(|d| d.id == id).expect("acting holder is dealt");
        d.played = true;
        Ok(())
    }

    /// FYOB "Taking an Officer Reaction Test": an NCO who Seizes Initiative
    /// "may swap his OPC with any card held by friendly element that has not
    /// acted so far on this bound" of the same nation. The target now acts on
    /// the seizer's card (taking its own ORT; seizing again passes it on), and
    /// the seizer acts later on the target's card without a new ORT.
    pub fn seize_initiative(&mut self, seizer: &str, ort: OrtResult, target: &str) -> Result<(), OpcError> {
        if ort != OrtResult::SeizesInitiative {
            return Err(OpcError::DidNotSeize(seizer.to_owned()));
        }
        if self.acting_now() != Some(seizer) {
            return Err(OpcError::NotActingNow(seizer.to_owned()));
        }
        let s = self.index(seizer)?;
        let t = self.index(target)?;
        let tgt = &self.dealt[t];
        if t == s || tgt.played || tgt.command {
            return Err(OpcError::NotASwapTarget(target.to_owned()));
        }
        if tgt.nation != self.dealt[s].nation {
            return Err(OpcError::OtherNation(target.to_owned()));
        }
        let (a, b) = (self.dealt[s].card, self.dealt[t].card);
        self.dealt[s].card = b;
        self.dealt[t].card = a;
        self.dealt[s].ort_passed = true;
        Ok(())
    }

    fn find(&self, id: &str) -> Option<&Dealt> {
        self.dealt.iter().find(|d| d.id == id)
    }

    fn index(&self, id: &str) -> Result<usize, OpcError> {
        self.dealt.iter().position(|d| d.id == id).ok_or_else(|| OpcError::UnknownHolder(id.to_owned()))
    }
}

/// An Officer Reaction Test's outcome (FYOB "Outcomes of ORTs").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrtResult {
    /// Discard the OPC; no further action this bound.
    NoAction,
    /// On to Continuous Momentum (or, for a CO, to Command).
    ActsAsOrdered,
    /// May swap the OPC (see [`Deal::seize_initiative`]) or simply act as ordered.
    SeizesInitiative,
}

/// One row of the Officer Reaction Test chart: the highest D10 for No action
/// and for Acts as ordered (above that, Seizes initiative), or automatic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OrtRow {
    Throw { no_action_to: u8, acts_to: u8 },
    Auto,
}

/// FYOB "Officer Reaction Test chart", rows by rating 0..=7
/// ("n/a" No action is 0; "n/a" Seizes initiative is acts_to 10).
const ORT_CHART: [OrtRow; 8] = [
    OrtRow::Throw { no_action_to: 4, acts_to: 10 }, // Weak (0): 1-4, 5-10, n/a
    OrtRow::Throw { no_action_to: 3, acts_to: 9 },  // Cautious (1): 1-3, 4-9, 10
    OrtRow::Throw { no_action_to: 2, acts_to: 8 },  // Regular (2): 1-2, 3-8, 9-10
    OrtRow::Throw { no_action_to: 1, acts_to: 7 },  // Bold (3): 1, 2-7, 8-10
    OrtRow::Throw { no_action_to: 0, acts_to: 6 },  // Inspirational (4): n/a, 1-6, 7-10
    OrtRow::Throw { no_action_to: 1, acts_to: 10 }, // Below Avge Officer (5): 1, 2-10, n/a
    OrtRow::Auto,                                   // Average Officer (6): auto
    OrtRow::Auto,                                   // Above Avge Officer (7): auto
];

/// The chart row an officer reads. An NCO reads his own grade. A Company
/// Officer taking the ORT for his Command turn reads the Officer rows by his
/// command grade ("other than Below Average Officers, CO's will automatically
/// carry out their Command & Control turn"; reading in
/// [`Officer::command_grade`]). A Senior Officer is activated by the session
/// prompt, not by a card, but reads his own row if asked.
fn ort_row(officer: Officer) -> OrtRow {
    let grade = match (officer.rank(), officer.command_grade()) {
        (Rank::Nco, _) | (_, None) => officer.grade(),
        (_, Some(CommandGrade::BelowAverage)) => Grade::BelowAverage,
        (_, Some(CommandGrade::Average)) => Grade::Average,
        (_, Some(CommandGrade::AboveAverage)) => Grade::AboveAverage,
    };
    ORT_CHART[usize::from(grade.rating())]
}

/// Takes an Officer Reaction Test: a D10 (0 counts 10) read on the chart
/// row; automatic rows throw nothing.
pub fn officer_reaction_test(officer: Officer, dice: &mut impl Roll, id: &str) -> (OrtResult, RuleEvent) {
    let row = ort_row(officer);
    let (result, faces) = match row {
        OrtRow::Auto => (OrtResult::ActsAsOrdered, Vec::new()),
        OrtRow::Throw { no_action_to, acts_to } => {
            let d = dice.d10();
            let r = if d <= no_action_to {
                OrtResult::NoAction
            } else if d <= acts_to {
                OrtResult::ActsAsOrdered
            } else {
                OrtResult::SeizesInitiative
            };
            (r, vec![d])
        }
    };
    let event = RuleEvent::new(EventKind::Ort, RuleRef::new(Book::FightYourOwnBattles, "Officer Reaction Test"))
        .actor(id)
        .input("rank", officer.rank(), "")
        .input("grade", officer.grade(), format!("rating {}", officer.grade().rating()))
        .dice(10, &faces)
        .outcome(json!({ "result": result, "automatic": faces.is_empty() }));
    (result, event)
}

/// The exact chance of each ORT outcome, `[no action, acts, seizes]`.
pub fn ort_odds(officer: Officer) -> [f64; 3] {
    match ort_row(officer) {
        OrtRow::Auto => [0.0, 1.0, 0.0],
        OrtRow::Throw { no_action_to, acts_to } => {
            let (n, a) = (f64::from(no_action_to), f64::from(acts_to));
            [n / 10.0, (a - n) / 10.0, (10.0 - a) / 10.0]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};

    fn p(id: &str, holder: Holder, nation: Nation) -> Participant {
        Participant { id: id.into(), holder, nation, active: true }
    }

    fn nco(g: Grade) -> Officer {
        Officer::new(Rank::Nco, g).unwrap()
    }

    #[test]
    fn book_example_squadron_of_three_gun_tanks_and_a_cs_tank_gets_five_opcs() {
        // FYOB "Command and Control turn": 3 gun tanks and a CS tank (HQ Troop) get an OPC
        // each (4) "and then a 5th OPC for the command function being carried out by the CO".
        let squadron = [
            p("1 Tp", Holder::Element, Nation::British),
            p("2 Tp", Holder::Element, Nation::British),
            p("3 Tp", Holder::Element, Nation::British),
            p("HQ CS", Holder::Element, Nation::British),
            p("Sqn CO", Holder::CompanyOfficer, Nation::British),
        ];
        assert_eq!(card_holders(&squadron).len(), 5);
        let (deal, event) = deal(&squadron, &mut Dice::new(3)).unwrap();
        let mut cards: Vec<Card> = squadron.iter().map(|s| deal.card_of(&s.id).unwrap()).collect();
        cards.sort();
        assert_eq!(cards, [1, 2, 3, 4, 5]);
        assert_eq!(event.dice.len(), 4, "one die per card after the first");
    }

    #[test]
    fn who_gets_a_card() {
        let mut reserve = p("reserve", Holder::Element, Nation::German);
        reserve.active = false;
        let force = [
            p("inf", Holder::Element, Nation::German),
            p("lorry", Holder::LoadedTransport, Nation::German),
            p("empty", Holder::EmptyTransport, Nation::German),
            p("grouped", Holder::GroupedElement, Nation::German),
            reserve,
            p("air cmd", Holder::CompanyOfficer, Nation::German),
            p("Stukas", Holder::AirSquadron, Nation::German),
            p("ship 1", Holder::OffshoreGunfireVessel, Nation::German),
            p("ship 2", Holder::OffshoreGunfireVessel, Nation::German),
        ];
        let ids: Vec<&str> = card_holders(&force).iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["inf", "empty", "air cmd", "Stukas", "ship 1"]);
    }

    #[test]
    fn a_deal_past_255_cards_is_a_permutation_and_replays() {
        // A brigade's battle: more holders than a die has faces.
        let force: Vec<Participant> = (0..600).map(|i| p(&format!("e{i}"), Holder::Element, Nation::British)).collect();
        let (a, event) = deal(&force, &mut Dice::new(5)).unwrap();
        let (b, _) = deal(&force, &mut Dice::new(5)).unwrap();
        assert_eq!(a, b);
        let mut cards: Vec<Card> = force.iter().map(|f| a.card_of(&f.id).unwrap()).collect();
        cards.sort();
        assert_eq!(cards, (1..=600).collect::<Vec<Card>>());
        // Each of the 345 places past 255 takes a block die and a D255 at least.
        assert!(event.dice.iter().filter(|d| d.sides == 255).count() >= 345, "{}", event.dice.len());
        assert!(event.dice.iter().all(|d| d.face >= 1 && d.face <= d.sides));
        let too_many: Vec<Participant> =
            (0..=MAX_CARDS).map(|i| p(&format!("e{i}"), Holder::Element, Nation::British)).collect();
        assert_eq!(deal(&too_many, &mut Dice::new(1)).unwrap_err(), OpcError::TooManyCards(MAX_CARDS + 1));
    }

    #[test]
    fn deal_is_a_permutation_and_replays_for_every_seed() {
        let force: Vec<Participant> = (0..12).map(|i| p(&format!("e{i}"), Holder::Element, Nation::American)).collect();
        let mut first_seen = [0u32; 12];
        for seed in 0..400 {
            let (a, _) = deal(&force, &mut Dice::new(seed)).unwrap();
            let (b, _) = deal(&force, &mut Dice::new(seed)).unwrap();
            assert_eq!(a, b);
            let mut cards: Vec<Card> = force.iter().map(|f| a.card_of(&f.id).unwrap()).collect();
            let first = cards.iter().position(|&c| c == 1).unwrap();
            first_seen[first] += 1;
            cards.sort();
            assert_eq!(cards, (1..=12).collect::<Vec<Card>>());
        }
        assert!(first_seen.iter().all(|&n| n > 10), "every element sometimes goes first: {first_seen:?}");
    }

    #[test]
    fn scripted_deal_plays_in_card_order() {
        let force = [
            p("a", Holder::Element, Nation::British),
            p("b", Holder::Element, Nation::British),
            p("c", Holder::Element, Nation::British),
        ];
        // D3 face 1 swaps cards 3 and 1, D2 face 2 leaves card 2: a=3, b=2, c=1.
        let (deal, _) = deal(&force, &mut Scripted::new([1, 2])).unwrap();
        assert_eq!(deal.order(), ["c", "b", "a"]);
        assert_eq!(deal.acting_now(), Some("c"));
    }

    #[test]
    fn ort_chart_rows() {
        // Faces giving (no action, acts, seizes) for each row of the chart.
        let rows = [
            (Grade::Weak, (4, 6, 0)),
            (Grade::Cautious, (3, 6, 1)),
            (Grade::Regular, (2, 6, 2)),
            (Grade::Bold, (1, 6, 3)),
            (Grade::Inspirational, (0, 6, 4)),
        ];
        for (grade, want) in rows {
            let mut got = (0, 0, 0);
            for face in 1..=10 {
                match officer_reaction_test(nco(grade), &mut Scripted::new([face]), "x").0 {
                    OrtResult::NoAction => got.0 += 1,
                    OrtResult::ActsAsOrdered => got.1 += 1,
                    OrtResult::SeizesInitiative => got.2 += 1,
                }
            }
            assert_eq!(got, want, "{grade:?}");
        }
    }

    #[test]
    fn book_example_regular_nco_passes() {
        // FYOB caption: "The Regular NCO of this British 3 inch mortar team passes his ORT".
        let (r, e) = officer_reaction_test(nco(Grade::Regular), &mut Scripted::new([2]), "mortar");
        assert_eq!(r, OrtResult::NoAction);
        let (r, _) = officer_reaction_test(nco(Grade::Regular), &mut Scripted::new([3]), "mortar");
        assert_eq!(r, OrtResult::ActsAsOrdered);
        assert_eq!(e.kind, EventKind::Ort);
        // A D10's 0 face counts 10: seizes the initiative.
        let (r, _) = officer_reaction_test(nco(Grade::Regular), &mut Scripted::new([10]), "mortar");
        assert_eq!(r, OrtResult::SeizesInitiative);
    }

    #[test]
    fn reading_company_officers_command_automatically_unless_below_average() {
        let co = |g| Officer::new(Rank::CompanyOfficer, g).unwrap();
        for g in [Grade::Regular, Grade::Bold, Grade::Inspirational] {
            let (r, e) = officer_reaction_test(co(g), &mut Scripted::new([]), "CO");
            assert_eq!(r, OrtResult::ActsAsOrdered);
            assert!(e.dice.is_empty());
        }
        for g in [Grade::Weak, Grade::Cautious] {
            assert_eq!(officer_reaction_test(co(g), &mut Scripted::new([1]), "CO").0, OrtResult::NoAction);
            assert_eq!(officer_reaction_test(co(g), &mut Scripted::new([10]), "CO").0, OrtResult::ActsAsOrdered);
        }
    }

    #[test]
    fn ort_odds_match_a_seeded_sample() {
        let mut dice = Dice::new(11);
        for grade in [Grade::Weak, Grade::Cautious, Grade::Regular, Grade::Bold, Grade::Inspirational] {
            let odds = ort_odds(nco(grade));
            assert!((odds.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let n = 20_000;
            let mut seen = [0u32; 3];
            for _ in 0..n {
                seen[officer_reaction_test(nco(grade), &mut dice, "x").0 as usize] += 1;
            }
            for k in 0..3 {
                let f = f64::from(seen[k]) / f64::from(n);
                assert!((f - odds[k]).abs() < 0.015, "{grade:?} {k}: {f} vs {}", odds[k]);
            }
        }
    }

    fn three_elements() -> (Vec<Participant>, Deal) {
        let force = vec![
            p("a", Holder::Element, Nation::German),
            p("b", Holder::Element, Nation::German),
            p("it", Holder::Element, Nation::Italian),
            p("co", Holder::CompanyOfficer, Nation::German),
        ];
        // Faces keep the cards in dealt order: a=1, b=2, it=3, co=4.
        let (deal, _) = deal(&force, &mut Scripted::new([4, 3, 2])).unwrap();
        (force, deal)
    }

    #[test]
    fn seize_initiative_swaps_cards_and_spares_the_seizer_a_new_ort() {
        let (_, mut deal) = three_elements();
        assert_eq!(deal.order(), ["a", "b", "it", "co"]);
        deal.seize_initiative("a", OrtResult::SeizesInitiative, "b").unwrap();
        assert_eq!(deal.order(), ["b", "a", "it", "co"]);
        assert_eq!(deal.acting_now(), Some("b"));
        assert!(deal.needs_ort("b").unwrap());
        assert!(!deal.needs_ort("a").unwrap(), "the original element does not re-take its ORT");
        // b fails its ORT: the card is discarded and the priority lost.
        deal.discard("b").unwrap();
        assert_eq!(deal.acting_now(), Some("a"));
    }

    #[test]
    fn seize_initiative_stays_within_the_nation_and_among_elements_yet_to_act() {
        let (_, mut deal) = three_elements();
        assert_eq!(
            deal.seize_initiative("a", OrtResult::SeizesInitiative, "it"),
            Err(OpcError::OtherNation("it".into()))
        );
        assert_eq!(
            deal.seize_initiative("a", OrtResult::SeizesInitiative, "co"),
            Err(OpcError::NotASwapTarget("co".into()))
        );
        assert_eq!(deal.seize_initiative("a", OrtResult::ActsAsOrdered, "b"), Err(OpcError::DidNotSeize("a".into())));
        assert_eq!(
            deal.seize_initiative("b", OrtResult::SeizesInitiative, "a"),
            Err(OpcError::NotActingNow("b".into()))
        );
        assert_eq!(
            deal.seize_initiative("a", OrtResult::SeizesInitiative, "zz"),
            Err(OpcError::UnknownHolder("zz".into()))
        );
        deal.discard("a").unwrap();
        assert_eq!(
            deal.seize_initiative("b", OrtResult::SeizesInitiative, "a"),
            Err(OpcError::NotASwapTarget("a".into()))
        );
    }

    #[test]
    fn a_seized_card_can_be_passed_on_again() {
        let force: Vec<Participant> =
            ["a", "b", "c"].iter().map(|id| p(id, Holder::Element, Nation::Russian)).collect();
        let (mut deal, _) = deal(&force, &mut Scripted::new([3, 2])).unwrap();
        deal.seize_initiative("a", OrtResult::SeizesInitiative, "b").unwrap();
        deal.seize_initiative("b", OrtResult::SeizesInitiative, "c").unwrap();
        assert_eq!(deal.order(), ["c", "a", "b"]);
        assert!(!deal.needs_ort("a").unwrap() && !deal.needs_ort("b").unwrap() && deal.needs_ort("c").unwrap());
    }
}
