//! The CODEX of named weapons, vehicles and aircraft that *Heroes All* refers
//! to but does not print ("The Heroes All Weapons Codex gives values for guns,
//! vehicles and other weapons"). It is authored from public WW2 facts in
//! `assets/codex/*.ron`, one file per nation, and mapped onto the classes the
//! rules define: the Weapons table rows ([`Weapon`]), AT classes 1–5, HE
//! columns, armour classes, observation target classes, movement table rows,
//! load space and carriage capacity (the Loads chapter), shots per day (the
//! logistics chapter). Points costs come from one formula ([`Armament::cost`],
//! [`CodexEntry::cost`], [`FigureGrade::cost`]); `docs/codex.md` documents the
//! format, the mapping and the formula's anchors.
//!
//! [`Weapon`]: crate::firing::Weapon

mod check;
mod entry;
mod load;
mod points;
#[cfg(test)]
mod testing;

use std::collections::HashMap;
use std::fmt;

use crate::data::DataError;

pub use check::Problem;
pub use entry::{Armament, BOUNDS_PER_DAY, CodexEntry, Kind, ShotsPerDay};
pub use points::{Era, FigureGrade, POINTS_PER_STEP, Points};
#[cfg(test)]
pub(crate) use testing::test_codex;

/// Why the CODEX could not be loaded, or an id could not be found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodexError {
    /// The RON itself is malformed (unknown field, unknown class, bad syntax).
    Malformed(DataError),
    /// A value is wrong: the file, the line and column of the field where it
    /// can be found, the entry and the field.
    Invalid {
        file: String,
        position: (usize, usize),
        id: String,
        field: String,
        problem: Problem,
    },
    /// The same id twice; `first` is the file that has it first.
    DuplicateId {
        id: String,
        file: String,
        position: (usize, usize),
        first: String,
    },
    UnknownId(String),
}

impl fmt::Display for CodexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownId(id) => write!(f, "unknown codex id \"{id}\""),
            _ => write!(f, "{}", DataError::from(self.clone())),
        }
    }
}

/// A CODEX file's error as every data file's: `file:line:col: field: problem`.
impl From<CodexError> for DataError {
    fn from(e: CodexError) -> Self {
        match e {
            CodexError::Malformed(e) => e,
            CodexError::Invalid { file, position, id, field, problem } => {
                DataError { file, position: Some(position), message: format!("{field}: {problem} (entry \"{id}\")") }
            }
            CodexError::DuplicateId { id, file, position, first } => DataError {
                file,
                position: Some(position),
                message: format!("id: \"{id}\" is already used in {first}"),
            },
            CodexError::UnknownId(id) => DataError::new("the CODEX", format!("unknown codex id \"{id}\"")),
        }
    }
}

impl std::error::Error for CodexError {}

/// The loaded CODEX: every nation's entries, looked up by id.
#[derive(Debug, Clone, PartialEq)]
pub struct Codex {
    entries: Vec<CodexEntry>,
    by_id: HashMap<String, (usize, String)>,
}

impl Codex {
    pub fn get(&self, id: &str) -> Result<&CodexEntry, CodexError> {
        self.by_id.get(id).map(|(i, _)| &self.entries[*i]).ok_or_else(|| CodexError::UnknownId(id.to_owned()))
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[CodexEntry] {
        &self.entries
    }

    /// The cost of a force: its figures by grade (crews included) and its
    /// equipment by id and number.
    pub fn force_cost(&self, figures: &[(FigureGrade, u32)], equipment: &[(&str, u32)]) -> Result<Points, CodexError> {
        let men: Points = figures.iter().map(|&(grade, n)| grade.cost() * n).sum();
        let mut kit = Points::ZERO;
        for &(id, n) in equipment {
            kit += self.get(id)?.cost() * n;
        }
        Ok(men + kit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::testing::test_codex as codex;

    #[test]
    fn unknown_ids_are_typed_errors() {
        let c = codex();
        assert_eq!(c.get("gb_tardis"), Err(CodexError::UnknownId("gb_tardis".into())));
        assert_eq!(c.force_cost(&[], &[("gb_tardis", 1)]), Err(CodexError::UnknownId("gb_tardis".into())));
        assert_eq!(CodexError::UnknownId("gb_tardis".into()).to_string(), "unknown codex id \"gb_tardis\"");
    }
}
