//! The battle scenario: everything about a battle before it starts.
//!
//! This is the first part of the format documented in `docs/scenarios.md`:
//! the table and the briefing. Forces, terrain and victory conditions extend it.

use serde::{Deserialize, Serialize};

use crate::data::{DataError, from_ron};

/// A games table measured in inches (the *Heroes All* table is 6 ft × 4 ft).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSize {
    /// Left to right, inches.
    pub width: f32,
    /// Near edge to far edge, inches.
    pub depth: f32,
}

impl Default for TableSize {
    /// 6 ft × 4 ft.
    fn default() -> Self {
        Self { width: 72.0, depth: 48.0 }
    }
}

/// A battle as written in `scenarios/battles/*.ron`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// What the player reads before the battle.
    pub briefing: String,
    #[serde(default)]
    pub table: TableSize,
}

/// Largest table side accepted, inches (a 16 ft club table).
pub const MAX_TABLE_SIDE: f32 = 192.0;
/// Smallest table side accepted, inches (a 2 ft skirmish board).
pub const MIN_TABLE_SIDE: f32 = 24.0;

impl Scenario {
    /// Parses and checks a scenario; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Self, DataError> {
        let scenario: Scenario = from_ron(file, text)?;
        scenario.validate().map_err(|m| DataError::new(file, m))?;
        Ok(scenario)
    }

    fn validate(&self) -> Result<(), String> {
        if self.name.trim().is_empty() {
            return Err("name must not be empty".into());
        }
        for (side, v) in [("width", self.table.width), ("depth", self.table.depth)] {
            if !(MIN_TABLE_SIDE..=MAX_TABLE_SIDE).contains(&v) {
                return Err(format!("table {side} {v}\" is outside {MIN_TABLE_SIDE}\"..{MAX_TABLE_SIDE}\""));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_defaults_to_six_by_four_feet() {
        let s = Scenario::parse("t.ron", r#"(name: "T", briefing: "b")"#).unwrap();
        assert_eq!(s.table, TableSize { width: 72.0, depth: 48.0 });
    }

    #[test]
    fn impossible_table_is_refused_with_the_file_name() {
        let err = Scenario::parse("t.ron", r#"(name: "T", briefing: "", table: (width: 5, depth: 48))"#).unwrap_err();
        assert_eq!(err.file, "t.ron");
        assert!(err.message.contains("width"), "{err}");
    }

    #[test]
    fn misspelt_field_is_refused_with_a_position() {
        let err = Scenario::parse("t.ron", "(\n name: \"T\",\n breifing: \"\",\n)").unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(3), "{err}");
    }
}
