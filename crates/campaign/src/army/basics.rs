//! Troop Quality (FYOW "GAME BASICS", "Troop Quality"): the cost of a figure
//! by grade, and the nation-and-period table that says how "Regular" troops
//! are treated for commander ratings, firing and Continuous Momentum.

use serde::{Deserialize, Serialize};

use crate::army::{ArmyError, out_of_range};

/// A troop grade of *Heroes All*: Poor (also Green or Militia), Regular,
/// Elite (also Veteran).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Grade {
    Poor,
    Regular,
    Elite,
}

/// A troop type for costing: a grade, with or without "Enhanced" training
/// (reconnaissance, parachute, engineer ...), or a Special Character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TroopType {
    Graded { grade: Grade, enhanced: bool },
    SpecialCharacter,
}

impl TroopType {
    /// The cost of one figure in half points, so that Regular's 1½ is exact
    /// (FYOW "Troop types 'cost'", row for row).
    pub const fn half_points(self) -> u32 {
        match self {
            TroopType::Graded { grade: Grade::Poor, enhanced: false } => 2,
            TroopType::Graded { grade: Grade::Poor, enhanced: true } => 4,
            TroopType::Graded { grade: Grade::Regular, enhanced: false } => 3,
            TroopType::Graded { grade: Grade::Regular, enhanced: true } => 6,
            TroopType::Graded { grade: Grade::Elite, enhanced: false } => 4,
            TroopType::Graded { grade: Grade::Elite, enhanced: true } => 8,
            TroopType::SpecialCharacter => 16,
        }
    }

    /// The cost of `figures` figures in whole points.
    ///
    /// Reading (FYOW "Troop types 'cost'"): Regulars cost 1½ points a figure;
    /// an odd number of them is rounded up to the next whole point, as the
    /// battlegroup limits of 2.1 are in whole points.
    pub fn cost(self, figures: u32) -> u32 {
        (self.half_points() * figures).div_ceil(2)
    }
}

/// The nations of the "Compensating for changes through the war" table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum QualityNation {
    Germany,
    Britain,
    Usa,
    France,
    Italy,
}

/// The three columns of that table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum QualityAspect {
    CommanderRatings,
    Firing,
    ContinuousMomentum,
}

/// One row: nation, years covered, and how "Regular" is treated for
/// commander ratings, firing and Continuous Momentum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegularTreatment {
    pub nation: QualityNation,
    pub from_year: u16,
    pub to_year: u16,
    pub commander_ratings: Grade,
    pub firing: Grade,
    pub continuous_momentum: Grade,
}

const fn row(nation: QualityNation, from_year: u16, to_year: u16, c: Grade, f: Grade, m: Grade) -> RegularTreatment {
    RegularTreatment { nation, from_year, to_year, commander_ratings: c, firing: f, continuous_momentum: m }
}

use Grade::{Elite as E, Poor as P, Regular as R};
use QualityNation::{Britain, France, Germany, Italy, Usa};

/// FYOW "Compensating for changes through the war", row for row.
pub const REGULAR_TREATMENT: [RegularTreatment; 11] = [
    row(Germany, 1939, 1941, E, R, E),
    row(Germany, 1942, 1944, R, R, R),
    row(Germany, 1945, 1945, R, R, P),
    row(Britain, 1939, 1939, R, R, R),
    row(Britain, 1940, 1942, R, R, R),
    row(Britain, 1943, 1943, R, R, R),
    row(Britain, 1944, 1945, R, R, R),
    row(Usa, 1942, 1942, P, R, P),
    row(Usa, 1943, 1945, R, R, E),
    row(France, 1939, 1940, P, R, R),
    row(Italy, 1939, 1943, P, R, P),
];

/// How a `grade` of troops of `nation` in `year` counts for `aspect`.
/// Only Regulars are adjusted ("these suggestions refer to 'Regular' troops
/// only and do not affect any other rating"); a year the table does not
/// cover for that nation is an error (the player extends the table).
pub fn treated_as(nation: QualityNation, year: u16, grade: Grade, aspect: QualityAspect) -> Result<Grade, ArmyError> {
    let row = REGULAR_TREATMENT
        .iter()
        .find(|r| r.nation == nation && (r.from_year..=r.to_year).contains(&year))
        .ok_or_else(|| out_of_range(format!("the Troop Quality table has no row for {nation:?} in {year}")))?;
    if grade != Grade::Regular {
        return Ok(grade);
    }
    Ok(match aspect {
        QualityAspect::CommanderRatings => row.commander_ratings,
        QualityAspect::Firing => row.firing,
        QualityAspect::ContinuousMomentum => row.continuous_momentum,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn troop_costs_follow_the_table() {
        let g = |grade, enhanced| TroopType::Graded { grade, enhanced };
        assert_eq!(g(Grade::Poor, false).cost(1), 1);
        assert_eq!(g(Grade::Poor, true).cost(1), 2);
        assert_eq!(g(Grade::Regular, false).cost(2), 3);
        assert_eq!(g(Grade::Regular, true).cost(1), 3);
        assert_eq!(g(Grade::Elite, false).cost(1), 2);
        assert_eq!(g(Grade::Elite, true).cost(1), 4);
        assert_eq!(TroopType::SpecialCharacter.cost(1), 8);
        assert_eq!(g(Grade::Regular, false).cost(9), 14, "13.5 rounds up");
        assert_eq!(g(Grade::Regular, false).cost(0), 0);
    }

    #[test]
    fn regulars_are_adjusted_by_nation_and_year() {
        use QualityAspect::*;
        assert_eq!(treated_as(Germany, 1940, Grade::Regular, CommanderRatings), Ok(Grade::Elite));
        assert_eq!(treated_as(Germany, 1945, Grade::Regular, ContinuousMomentum), Ok(Grade::Poor));
        assert_eq!(treated_as(Usa, 1942, Grade::Regular, CommanderRatings), Ok(Grade::Poor));
        assert_eq!(treated_as(Usa, 1944, Grade::Regular, ContinuousMomentum), Ok(Grade::Elite));
        assert_eq!(treated_as(Italy, 1943, Grade::Regular, Firing), Ok(Grade::Regular));
        assert_eq!(treated_as(France, 1940, Grade::Regular, CommanderRatings), Ok(Grade::Poor));
    }

    #[test]
    fn other_grades_are_untouched_and_missing_years_are_errors() {
        use QualityAspect::*;
        assert_eq!(treated_as(Germany, 1940, Grade::Poor, CommanderRatings), Ok(Grade::Poor));
        assert_eq!(treated_as(Usa, 1942, Grade::Elite, ContinuousMomentum), Ok(Grade::Elite));
        assert!(treated_as(Italy, 1944, Grade::Regular, Firing).is_err());
        assert!(treated_as(France, 1944, Grade::Poor, Firing).is_err());
    }
}
