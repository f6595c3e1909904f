//! A force committed to a paper battle: its points value, heavy guns,
//! commander, Movement Allowance and supporting machines, equipment and
//! buildings (FYOW 33.2, 33.7).

use serde::{Deserialize, Serialize};

use super::common::combat_value;

/// A Battlegroup Commander's competency (FYOW 7), as it moves the CRT throw (33.7.2 (vii)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Competency {
    BelowAverage,
    Average,
    AboveAverage,
}

/// A force committed to a paper battle: "any losses suffered only relate to
/// the force committed" (33.7.3 (ix)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Force {
    pub name: String,
    /// Points value of what is committed (33.2).
    pub value: u32,
    /// Artillery pieces of 100mm calibre or over: 1D6 each in a barrage (33.7.2 (iv)).
    pub heavy_guns: u32,
    /// The Battlegroup Commander's competency.
    pub commander: Competency,
    /// Whether it still has Movement Allowance: without, an AR/DR retreat is in disarray.
    pub movement_allowance_left: bool,
    /// Supporting aircraft and shipping (supplemental effects).
    pub machines: u32,
    /// Pieces of engineers' equipment (supplemental effects).
    pub engineer_pieces: u32,
    /// Buildings and bridges of the battlefield this force answers for (supplemental effects).
    pub buildings: u32,
}

impl Force {
    /// A force of `value` points with an average commander, Movement Allowance
    /// left, and no guns, machines, equipment or buildings.
    pub fn new(name: impl Into<String>, value: u32) -> Self {
        Self {
            name: name.into(),
            value,
            heavy_guns: 0,
            commander: Competency::Average,
            movement_allowance_left: true,
            machines: 0,
            engineer_pieces: 0,
            buildings: 0,
        }
    }

    /// The force's Combat Value (33.2).
    pub fn combat_value(&self) -> u32 {
        combat_value(self.value)
    }

    /// Multiple combat (33.7 (x)): a Battlegroup joining during the Contact
    /// Session adds its value (points summed before dividing by 10) and its
    /// guns, machines, equipment and buildings; the commander stays.
    pub fn join(&mut self, other: &Force) {
        self.value += other.value;
        self.heavy_guns += other.heavy_guns;
        self.machines += other.machines;
        self.engineer_pieces += other.engineer_pieces;
        self.buildings += other.buildings;
    }
}

#[cfg(test)]
mod tests {
    use super::Force;

    #[test]
    fn combat_value_example_reserves_join_as_124_not_123() {
        // 33.2 Note: 1019 + reserves of 229 = 1248, Combat Value 124 and not 123.
        let mut bg = Force::new("BG", 1019);
        let reserve = Force::new("Reserve", 229);
        assert_eq!(bg.combat_value() + reserve.combat_value(), 123);
        bg.join(&reserve);
        assert_eq!(bg.value, 1248);
        assert_eq!(bg.combat_value(), 124);
    }
}
