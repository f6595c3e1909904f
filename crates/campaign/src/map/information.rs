//! Gathering Information (FYOW 17): after detection, or for terrain, an
//! observing force throws a D6 from the box (or a D10 on an empty board) for
//! the number of pieces of information it gathers from its list, in order,
//! basic facts before the facts that depend on them.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::map::common::{MapError, SessionConditions};

/// A kind of troops, for the counts the observers may ask for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TroopType {
    /// Counted in platoons.
    Infantry,
    /// Counted in batteries.
    Artillery,
    /// Counted in squadrons.
    Armour,
    ArmouredCars,
    Other(String),
}

/// A piece of information (FYOW 17's list is "indicative only"; `Other` covers the rest).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    /// Enemy troop types present (infantry, artillery, armour etc).
    TroopTypes,
    /// The number of one troop type present: needs the troop types first.
    Number(TroopType),
    /// Attitude of the enemy troops (Rest, Active etc).
    Attitude,
    /// Whether the enemy occupies defences.
    OccupiesDefences,
    /// Forces in the "box": only when a 6 is thrown.
    ForcesInBox,
    BridgeStrength(String),
    BuildingType(String),
    Ford(String),
    WoodDensity(String),
    RoadMined(String),
    BeachDefences(String),
    Other(String),
}

impl Fact {
    /// Facts about enemy troops, as opposed to terrain and works.
    pub fn is_about_enemy(&self) -> bool {
        matches!(self, Fact::TroopTypes | Fact::Number(_) | Fact::Attitude | Fact::OccupiesDefences | Fact::ForcesInBox)
    }

    /// "Some pieces of information are dependent on gathering more basic facts first": a
    /// number of troops needs the troop types present.
    pub fn prerequisite(&self) -> Option<Fact> {
        matches!(self, Fact::Number(_)).then_some(Fact::TroopTypes)
    }
}

/// Where the observers gather from (FYOW 17.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Vantage {
    /// From the box: D6 pieces.
    Box,
    /// Entering a Map Board without enemy troops: D10 pieces of terrain information.
    OnEmptyBoard,
}

/// The observed enemy, as far as the rules need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observed {
    /// Enemy troops on the Map Board.
    pub enemy_present: bool,
    /// "Information cannot be gathered on Concealed units."
    pub enemy_concealed: bool,
}

/// Why a fact on the list was passed over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Passed {
    pub fact: Fact,
    pub reason: String,
}

/// What an attempt gathered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gathered {
    /// Pieces of information the throw allowed.
    pub pieces: u8,
    pub facts: Vec<Fact>,
    pub passed_over: Vec<Passed>,
}

/// FYOW 17.1 Information gathering attempt for one session. The throw (D6 from the box, D10
/// on an empty board) less 1 (D6) or 2 (D10) at night and again in fog or heavy rain gives
/// the pieces; the facts are taken from `wanted` in order, passing over those that need a
/// basic fact not yet known, those about concealed units, enemy facts where there is no
/// enemy, and forces in the box unless the D6 shows a 6.
pub fn gather_information(
    observer: &str,
    vantage: Vantage,
    observed: Observed,
    conditions: &SessionConditions,
    wanted: &[Fact],
    known: &[Fact],
    dice: &mut impl Roll,
) -> Result<(Gathered, RuleEvent), MapError> {
    if vantage == Vantage::OnEmptyBoard && observed.enemy_present {
        return Err(MapError::NotAllowed(
            "observers enter the Map Board for D10 pieces only when it holds no enemy troops (FYOW 17.1)".into(),
        ));
    }
    let (sides, step) = match vantage {
        Vantage::Box => (6, 1),
        Vantage::OnEmptyBoard => (10, 2),
    };
    let face = if sides == 6 { dice.d6() } else { dice.d10() };
    let night = if conditions.light.is_night() { step } else { 0 };
    let weather = if conditions.rain_or_fog() { step } else { 0 };
    let pieces = face.saturating_sub(night + weather);

    let mut facts: Vec<Fact> = Vec::new();
    let mut passed_over = Vec::new();
    let mut pass = |fact: &Fact, reason: &str| passed_over.push(Passed { fact: fact.clone(), reason: reason.into() });
    for fact in wanted {
        if facts.len() == usize::from(pieces) {
            break;
        }
        if known.contains(fact) || facts.contains(fact) {
            pass(fact, "already known");
        } else if fact.is_about_enemy() && !observed.enemy_present {
            pass(fact, "no enemy troops on the Map Board");
        } else if fact.is_about_enemy() && observed.enemy_concealed {
            pass(fact, "information cannot be gathered on Concealed units");
        } else if *fact == Fact::ForcesInBox && !(vantage == Vantage::Box && face == 6) {
            pass(fact, "forces in the box only when a 6 is thrown");
        } else if let Some(basic) = fact.prerequisite().filter(|b| !known.contains(b) && !facts.contains(b)) {
            pass(fact, &format!("needs {basic:?} first"));
        } else {
            facts.push(fact.clone());
        }
    }
    let gathered = Gathered { pieces, facts, passed_over };
    let event = RuleEvent::new(
        EventKind::Detection,
        RuleRef::new(Book::FightYourOwnWars, "17.1 Information gathering attempt"),
    )
    .actor(observer)
    .input("vantage", vantage, "D6 from the box, D10 on a board without enemy")
    .input("night", night, "deduct 1 from a D6, 2 from a D10")
    .input("fog_or_heavy_rain", weather, "deduct 1 from a D6, 2 from a D10")
    .input("wanted", wanted, "the compiled list, in order")
    .dice(sides, &[face])
    .outcome(json!({ "pieces": gathered.pieces, "facts": gathered.facts }));
    Ok((gathered, event))
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;
    use crate::map::common::Light;

    const ENEMY: Observed = Observed { enemy_present: true, enemy_concealed: false };
    const NO_ENEMY: Observed = Observed { enemy_present: false, enemy_concealed: false };

    #[test]
    fn partisans_in_heavy_rain_gather_four_pieces_from_a_five() {
        // FYOW 17.1 first example: daylight, heavy rain, D6 5: "(5 - 1) 4 pieces".
        let rain = SessionConditions { heavy_rain: true, ..SessionConditions::fine_day() };
        let wanted = [
            Fact::TroopTypes,
            Fact::Number(TroopType::ArmouredCars),
            Fact::Number(TroopType::Infantry),
            Fact::Attitude,
            Fact::OccupiesDefences,
        ];
        let (g, e) =
            gather_information("Partisan cell", Vantage::Box, ENEMY, &rain, &wanted, &[], &mut Scripted::new([5]))
                .unwrap();
        assert_eq!(g.pieces, 4);
        assert_eq!(g.facts, wanted[..4]);
        assert_eq!(e.rule.section, "17.1 Information gathering attempt");
        assert_eq!(e.dice[0].face, 5);
    }

    #[test]
    fn an_infantry_group_on_a_fine_day_identifies_the_bridge_and_the_woods() {
        // FYOW 17.1 second example: a river crossing observed in daylight, fine, D6 2.
        let wanted = [
            Fact::BridgeStrength("river crossing".into()),
            Fact::WoodDensity("near side of the bridge".into()),
            Fact::Ford("river crossing".into()),
        ];
        let (g, _) = gather_information(
            "Infantry group",
            Vantage::Box,
            NO_ENEMY,
            &SessionConditions::fine_day(),
            &wanted,
            &[],
            &mut Scripted::new([2]),
        )
        .unwrap();
        assert_eq!(g.facts, wanted[..2]);
    }

    #[test]
    fn numbers_need_the_troop_types_first() {
        let wanted = [Fact::Number(TroopType::Infantry), Fact::TroopTypes, Fact::Number(TroopType::Artillery)];
        let (g, _) = gather_information(
            "Recce",
            Vantage::Box,
            ENEMY,
            &SessionConditions::fine_day(),
            &wanted,
            &[],
            &mut Scripted::new([3]),
        )
        .unwrap();
        assert_eq!(g.facts, [Fact::TroopTypes, Fact::Number(TroopType::Artillery)]);
        assert!(g.passed_over[0].reason.contains("TroopTypes first"));
        let (g, _) = gather_information(
            "Recce",
            Vantage::Box,
            ENEMY,
            &SessionConditions::fine_day(),
            &wanted[..1],
            &[Fact::TroopTypes],
            &mut Scripted::new([1]),
        )
        .unwrap();
        assert_eq!(g.facts, [Fact::Number(TroopType::Infantry)], "known from an earlier session");
    }

    #[test]
    fn the_box_needs_a_six_and_concealed_units_give_nothing() {
        let wanted = [Fact::ForcesInBox, Fact::TroopTypes];
        let (g, _) = gather_information(
            "Recce",
            Vantage::Box,
            ENEMY,
            &SessionConditions::fine_day(),
            &wanted,
            &[],
            &mut Scripted::new([5]),
        )
        .unwrap();
        assert_eq!(g.facts, [Fact::TroopTypes]);
        let (g, _) = gather_information(
            "Recce",
            Vantage::Box,
            ENEMY,
            &SessionConditions::fine_day(),
            &wanted,
            &[],
            &mut Scripted::new([6]),
        )
        .unwrap();
        assert_eq!(g.facts, wanted);
        let hidden = Observed { enemy_present: true, enemy_concealed: true };
        let (g, _) = gather_information(
            "Recce",
            Vantage::Box,
            hidden,
            &SessionConditions::fine_day(),
            &wanted,
            &[],
            &mut Scripted::new([6]),
        )
        .unwrap();
        assert!(g.facts.is_empty());
    }

    #[test]
    fn an_empty_board_gives_d10_terrain_pieces_less_two_for_night_and_two_for_fog() {
        let wanted: Vec<Fact> = (0..10).map(|i| Fact::BuildingType(format!("house {i}"))).collect();
        let night_fog = SessionConditions { fog: true, ..SessionConditions::fine(Light::NightNoMoon) };
        let (g, e) = gather_information(
            "Scouts",
            Vantage::OnEmptyBoard,
            NO_ENEMY,
            &night_fog,
            &wanted,
            &[],
            &mut Scripted::new([10]),
        )
        .unwrap();
        assert_eq!(g.pieces, 6);
        assert_eq!(e.dice[0].sides, 10);
        let (g, _) =
            gather_information("Scouts", Vantage::Box, NO_ENEMY, &night_fog, &wanted, &[], &mut Scripted::new([1]))
                .unwrap();
        assert_eq!(g.pieces, 0, "never below nothing");
        assert!(
            gather_information(
                "Scouts",
                Vantage::OnEmptyBoard,
                ENEMY,
                &night_fog,
                &wanted,
                &[],
                &mut Scripted::new([])
            )
            .is_err()
        );
    }
}
