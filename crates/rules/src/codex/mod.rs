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
    by_id: HashMap<String, (usize, String), IdHash>,
}

/// A hash for the CODEX's ids, short strings of our own files, looked up
/// for every weapon of every element many times a bound: FNV-1a, far
/// cheaper than the standard map's hash, which guards against keys chosen
/// by an attacker.
#[derive(Debug, Default, Clone, Copy)]
pub struct IdHash;

impl std::hash::BuildHasher for IdHash {
    type Hasher = IdHasher;
    fn build_hasher(&self) -> IdHasher {
        IdHasher(0xcbf2_9ce4_8422_2325)
    }
}

pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
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
    fn the_guernsey_kit_is_in_service_in_1942() {
        // The Channel Islands, 1942: the captured French armour and coast
        // guns of the garrison, the raiders' Thompsons and Vickers K.
        let c = codex();
        for id in ["de_char_b1bis_f", "de_r35_f", "de_k532f", "gb_thompson", "gb_vickers_k"] {
            assert!(c.get(id).unwrap().in_service(1942), "{id}");
        }
        let b1 = c.get("de_char_b1bis_f").unwrap();
        assert_eq!(b1.armour, Some(crate::effects::ArmourClass::Medium), "60mm front");
        assert_eq!(b1.armament.len(), 3, "the turret 47mm, the hull 75mm and the MG");
        let k = c.get("de_k532f").unwrap();
        assert_eq!((k.armament[0].row, k.armament[0].calibre), (crate::firing::Weapon::Howitzer150Plus, Some(220)));
        assert!(!c.get("gb_thompson").unwrap().in_service(1945), "the Sten replaced it");
    }

    #[test]
    fn an_aircraft_entry_gives_its_flying_data() {
        use crate::aircraft::{BombSize, Role};
        let c = codex();
        let fw = c.get("de_fw190a").unwrap().air.clone().expect("the Fw 190's flying data");
        assert_eq!((fw.role, fw.bombs), (Role::GroundAttack, Some((BombSize::Heavy, 1))));
        for id in ["gb_spitfire_vb", "gb_hurricane_iib", "de_bf109f", "de_fw190a"] {
            let e = c.get(id).unwrap();
            assert!(e.in_service(1942), "{id}");
            assert_eq!(e.air.as_ref().map(|a| a.name.as_str()), Some(e.name.as_str()), "{id}");
        }
        assert!(c.get("de_ju52").unwrap().air.is_none(), "a transport without flying data fields none");
    }

    #[test]
    fn unknown_ids_are_typed_errors() {
        let c = codex();
        assert_eq!(c.get("gb_tardis"), Err(CodexError::UnknownId("gb_tardis".into())));
        assert_eq!(c.force_cost(&[], &[("gb_tardis", 1)]), Err(CodexError::UnknownId("gb_tardis".into())));
        assert_eq!(CodexError::UnknownId("gb_tardis".into()).to_string(), "unknown codex id \"gb_tardis\"");
    }
}
