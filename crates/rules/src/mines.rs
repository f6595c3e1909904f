//! *Heroes All*, "Mines/Minefields": laying (4-inch squares or 6-inch
//! stretches of road, anti-tank or anti-personnel, in loads of mine
//! coverage), clearing by a specialist AFV, sappers or infantry (an
//! accumulated score of 10, 14 at night) or by artillery (4 "casualties"),
//! and what befalls infantry and vehicles that enter.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::effects::{ArmourClass, AtResult};
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::loads::{Item, Loads};

fn rule() -> RuleRef {
    RuleRef::new(Book::HeroesAll, "Mines/Minefields")
}

/// "They must be specified as Anti-tank or Anti-personnel."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MineKind {
    AntiTank,
    AntiPersonnel,
}

/// "Mines are laid in areas of 4 inches x 4 inches (including beaches) or
/// along a 6-inch stretch of road."
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    Area,
    /// A 6-inch stretch of a road `width` inches wide.
    Road {
        width: f32,
    },
}

pub const AREA_SIDE: f32 = 4.0;
pub const ROAD_STRETCH: f32 = 6.0;

/// Bad input to a mine rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MineError {
    /// A road width that is not a positive number of inches.
    BadRoadWidth(f32),
    /// Fewer men than the smallest team (1 sapper, 2 infantrymen).
    TooFewToClear(Clearers),
    /// No figure entered.
    NoFigures,
    /// The minefield is already clear.
    AlreadyClear,
}

impl fmt::Display for MineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadRoadWidth(w) => write!(f, "road width {w} is not a positive number of inches"),
            Self::TooFewToClear(c) => write!(f, "{c:?} cannot clear a minefield (1 sapper or 2 infantrymen at least)"),
            Self::NoFigures => write!(f, "no figures entered the minefield"),
            Self::AlreadyClear => write!(f, "the minefield is already clear"),
        }
    }
}

impl std::error::Error for MineError {}

/// Loads of mines a minefield takes to lay ("1 inch x 1 inch mine coverage 1").
/// Reading: a road stretch covers 6 inches by the road's width, part square
/// inches counting whole (test `mine_loads_by_coverage`).
pub fn mine_loads(shape: Shape) -> Result<Loads, MineError> {
    let square_inches = match shape {
        Shape::Area => AREA_SIDE * AREA_SIDE,
        Shape::Road { width } if width.is_finite() && width > 0.0 => ROAD_STRETCH * width,
        Shape::Road { width } => return Err(MineError::BadRoadWidth(width)),
    };
    Ok(Item::MineCoverage.size() * square_inches.ceil() as u32)
}

/// Who clears a minefield.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Clearers {
    SpecialistAfv,
    Sappers(u8),
    Infantry(u8),
}

/// One bound's clearing throw: `count` dice of `sides`, halved or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClearingDice {
    pub count: usize,
    pub sides: u8,
    pub halved: bool,
}

impl Clearers {
    /// *Heroes All*, "Mines/Minefields": "throw 2 x D10 for the AFV, 1 x D10
    /// for the sappers or 1 x D6 for the infantrymen" (a team of 2 sappers or 4
    /// infantrymen); "If only 1 sapper or 2 infantrymen are working, halve the
    /// dice throw rounding down odd numbers thrown."
    ///
    /// Reading: a team clears one minefield, so more men add no dice, and 3
    /// infantrymen are short of a team and throw as 2 (halved) (test
    /// `reading_clearing_teams_and_half_teams`).
    pub fn dice(self) -> Result<ClearingDice, MineError> {
        Ok(match self {
            Self::SpecialistAfv => ClearingDice { count: 2, sides: 10, halved: false },
            Self::Sappers(2..) => ClearingDice { count: 1, sides: 10, halved: false },
            Self::Sappers(1) => ClearingDice { count: 1, sides: 10, halved: true },
            Self::Infantry(4..) => ClearingDice { count: 1, sides: 6, halved: false },
            Self::Infantry(2..=3) => ClearingDice { count: 1, sides: 6, halved: true },
            Self::Sappers(0) | Self::Infantry(0..=1) => return Err(MineError::TooFewToClear(self)),
        })
    }
}

/// "The minefield is cleared when they have accumulated a score of 10.
/// (During Night Fighting this score needs to be 14)."
pub const fn clearing_needed(night: bool) -> u32 {
    if night { 14 } else { 10 }
}

/// "The minefield is clear when a total of 4 'casualties' have been achieved
/// against it" by artillery (hits found by treating it as a bridge).
pub const ARTILLERY_CASUALTIES_TO_CLEAR: u32 = 4;

/// A minefield on the table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Minefield {
    pub kind: MineKind,
    pub shape: Shape,
    /// The clearing score accumulated so far.
    pub cleared_score: u32,
    /// Artillery "casualties" scored against it.
    pub artillery_casualties: u32,
    pub clear: bool,
}

impl Minefield {
    pub const fn new(kind: MineKind, shape: Shape) -> Self {
        Self { kind, shape, cleared_score: 0, artillery_casualties: 0, clear: false }
    }

    /// One bound's clearing. The clearers do nothing else this bound and their
    /// element has passed its ORT (the Order Die is not thrown); the caller
    /// calls this only then. Returns whether the minefield is now clear.
    pub fn clear_bound(
        &mut self,
        clearers: Clearers,
        night: bool,
        dice: &mut impl Roll,
        id: &str,
    ) -> Result<(bool, RuleEvent), MineError> {
        if self.clear {
            return Err(MineError::AlreadyClear);
        }
        let d = clearers.dice()?;
        let faces = dice.throw(d.count, d.sides);
        let thrown: u32 = faces.iter().map(|&f| u32::from(f)).sum();
        let score = if d.halved { thrown / 2 } else { thrown };
        self.cleared_score += score;
        let needed = clearing_needed(night);
        self.clear = self.cleared_score >= needed;
        let event = RuleEvent::new(EventKind::Minefield, rule())
            .actor(id)
            .input("clearers", clearers, if d.halved { "half a team: the throw is halved, rounded down" } else { "" })
            .input("needed", needed, if night { "Night Fighting" } else { "by day" })
            .dice(d.sides, &faces)
            .outcome(json!({ "score": score, "accumulated": self.cleared_score, "clear": self.clear }));
        Ok((self.clear, event))
    }

    /// Artillery "casualties" scored against the minefield.
    pub fn shelled(&mut self, casualties: u32) -> bool {
        self.artillery_casualties += casualties;
        self.clear |= self.artillery_casualties >= ARTILLERY_CASUALTIES_TO_CLEAR;
        self.clear
    }
}

/// "Infantry entering an anti-personnel minefield throw 1D6 per figure. A
/// result of 1 or 2 results in a casualty. This does not clear the
/// minefield." Reading: anti-tank mines do not go off under infantry (no rule
/// gives them an effect; test `reading_infantry_are_safe_in_anti_tank_mines`).
pub fn infantry_enter(
    kind: MineKind,
    figures: u8,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(u8, RuleEvent), MineError> {
    if figures == 0 {
        return Err(MineError::NoFigures);
    }
    let faces = match kind {
        MineKind::AntiPersonnel => dice.throw(usize::from(figures), 6),
        MineKind::AntiTank => Vec::new(),
    };
    let casualties = faces.iter().filter(|&&f| f <= 2).count() as u8;
    let event = RuleEvent::new(EventKind::Minefield, rule())
        .actor(id)
        .input("minefield", kind, "")
        .input("figures", figures, "1D6 per figure; 1 or 2 is a casualty")
        .dice(6, &faces)
        .outcome(json!({ "casualties": casualties }));
    Ok((casualties, event))
}

/// What entering a minefield does to a vehicle.
///
/// *Heroes All*, "Mines/Minefields": anti-tank, AFV with light or better
/// armour: "a D6 per move. A 2 damages it and a 1 destroys it"; flimsy armour
/// or soft-skinned: "A 1, 2 or 3 destroys it"; anti-personnel, any vehicle:
/// "2 x D6 per bound. A double score damages the vehicle". Destroyed is read
/// as brewed (the vehicle is lost).
pub fn vehicle_result(kind: MineKind, armour: ArmourClass, faces: &[u8]) -> AtResult {
    match (kind, armour, faces) {
        (MineKind::AntiTank, ArmourClass::SoftSkinned | ArmourClass::Flimsy, [1..=3]) => AtResult::Brewed,
        (MineKind::AntiTank, ArmourClass::SoftSkinned | ArmourClass::Flimsy, _) => AtResult::NoEffect,
        (MineKind::AntiTank, _, [1]) => AtResult::Brewed,
        (MineKind::AntiTank, _, [2]) => AtResult::Damaged,
        (MineKind::AntiPersonnel, _, [a, b]) if a == b => AtResult::Damaged,
        _ => AtResult::NoEffect,
    }
}

/// A vehicle's throw for a minefield it entered: one D6 per move (anti-tank)
/// or 2D6 per bound (anti-personnel).
pub fn vehicle_enter(kind: MineKind, armour: ArmourClass, dice: &mut impl Roll, id: &str) -> (AtResult, RuleEvent) {
    let faces = match kind {
        MineKind::AntiTank => dice.throw(1, 6),
        MineKind::AntiPersonnel => dice.throw(2, 6),
    };
    let result = vehicle_result(kind, armour, &faces);
    let event = RuleEvent::new(EventKind::Minefield, rule())
        .actor(id)
        .input("minefield", kind, "")
        .input("armour", armour, "light or better, or flimsy/soft-skinned, in anti-tank mines")
        .dice(6, &faces)
        .outcome(json!({ "result": result }));
    (result, event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;

    #[test]
    fn mine_loads_by_coverage() {
        assert_eq!(mine_loads(Shape::Area), Ok(Loads::whole(16)));
        assert_eq!(mine_loads(Shape::Road { width: 2.0 }), Ok(Loads::whole(12)));
        assert_eq!(mine_loads(Shape::Road { width: 1.5 }), Ok(Loads::whole(9)));
        assert_eq!(mine_loads(Shape::Road { width: 0.0 }), Err(MineError::BadRoadWidth(0.0)));
        assert!(mine_loads(Shape::Road { width: f32::NAN }).is_err());
    }

    #[test]
    fn reading_clearing_teams_and_half_teams() {
        assert_eq!(Clearers::SpecialistAfv.dice(), Ok(ClearingDice { count: 2, sides: 10, halved: false }));
        assert_eq!(Clearers::Sappers(2).dice(), Ok(ClearingDice { count: 1, sides: 10, halved: false }));
        assert_eq!(Clearers::Sappers(5).dice(), Clearers::Sappers(2).dice(), "more men add no dice");
        assert!(Clearers::Sappers(1).dice().unwrap().halved);
        assert_eq!(Clearers::Infantry(4).dice(), Ok(ClearingDice { count: 1, sides: 6, halved: false }));
        assert!(Clearers::Infantry(3).dice().unwrap().halved, "3 infantrymen are short of a team");
        assert!(Clearers::Infantry(2).dice().unwrap().halved);
        assert_eq!(Clearers::Infantry(1).dice(), Err(MineError::TooFewToClear(Clearers::Infantry(1))));
        assert!(Clearers::Sappers(0).dice().is_err());
    }

    #[test]
    fn clearing_accumulates_to_ten_by_day_and_fourteen_by_night() {
        let mut m = Minefield::new(MineKind::AntiTank, Shape::Area);
        // Sappers: 6, then 4: 10 clears by day.
        let mut dice = Scripted::new([6, 4]);
        assert!(!m.clear_bound(Clearers::Sappers(2), false, &mut dice, "RE").unwrap().0);
        assert!(m.clear_bound(Clearers::Sappers(2), false, &mut dice, "RE").unwrap().0);
        assert_eq!(
            m.clear_bound(Clearers::Sappers(2), false, &mut Scripted::new([1]), "RE"),
            Err(MineError::AlreadyClear)
        );
        // At night the flail's 2D10 of 6 + 7 = 13 is one short.
        let mut m = Minefield::new(MineKind::AntiTank, Shape::Area);
        let (clear, e) = m.clear_bound(Clearers::SpecialistAfv, true, &mut Scripted::new([6, 7]), "Crab").unwrap();
        assert!(!clear);
        assert_eq!(e.dice.len(), 2);
        assert!(m.clear_bound(Clearers::SpecialistAfv, true, &mut Scripted::new([1, 1]), "Crab").unwrap().0);
    }

    #[test]
    fn half_teams_halve_rounding_down() {
        let mut m = Minefield::new(MineKind::AntiPersonnel, Shape::Area);
        m.clear_bound(Clearers::Sappers(1), false, &mut Scripted::new([9]), "RE").unwrap();
        assert_eq!(m.cleared_score, 4, "9 halved rounds down to 4");
        m.clear_bound(Clearers::Infantry(2), false, &mut Scripted::new([5]), "Inf").unwrap();
        assert_eq!(m.cleared_score, 6);
    }

    #[test]
    fn artillery_clears_with_four_casualties() {
        let mut m = Minefield::new(MineKind::AntiPersonnel, Shape::Road { width: 2.0 });
        assert!(!m.shelled(3));
        assert!(m.shelled(1));
    }

    #[test]
    fn infantry_in_anti_personnel_mines_lose_a_man_on_1_or_2() {
        let (c, e) = infantry_enter(MineKind::AntiPersonnel, 5, &mut Scripted::new([1, 2, 3, 6, 2]), "1 Sec").unwrap();
        assert_eq!(c, 3);
        assert_eq!(e.dice.len(), 5);
        assert_eq!(infantry_enter(MineKind::AntiPersonnel, 0, &mut Scripted::new([]), "x"), Err(MineError::NoFigures));
    }

    #[test]
    fn reading_infantry_are_safe_in_anti_tank_mines() {
        let mut dice = Scripted::new([]);
        assert_eq!(infantry_enter(MineKind::AntiTank, 6, &mut dice, "1 Sec").unwrap().0, 0);
    }

    #[test]
    fn vehicles_in_minefields_by_armour() {
        use AtResult::*;
        use MineKind::*;
        let at = |armour, f: u8| vehicle_result(AntiTank, armour, &[f]);
        assert_eq!([1, 2, 3, 6].map(|f| at(ArmourClass::Light, f)), [Brewed, Damaged, NoEffect, NoEffect]);
        assert_eq!(at(ArmourClass::Formidable, 1), Brewed);
        assert_eq!([1, 2, 3, 4].map(|f| at(ArmourClass::Flimsy, f)), [Brewed, Brewed, Brewed, NoEffect]);
        assert_eq!(at(ArmourClass::SoftSkinned, 3), Brewed);
        assert_eq!(vehicle_result(AntiPersonnel, ArmourClass::SoftSkinned, &[4, 4]), Damaged);
        assert_eq!(vehicle_result(AntiPersonnel, ArmourClass::Heavy, &[4, 5]), NoEffect);
        let (r, e) = vehicle_enter(AntiPersonnel, ArmourClass::Medium, &mut Scripted::new([2, 2]), "Sherman");
        assert_eq!(r, Damaged);
        assert_eq!(e.dice.len(), 2);
    }
}
