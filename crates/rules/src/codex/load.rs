//! Loading the CODEX from its RON files: each entry read, checked and
//! located by file and line, ids unique across the files.

use std::collections::HashMap;

use serde::Deserialize;

use super::check::check;
use super::entry::EntryData;
use super::{Codex, CodexEntry, CodexError, Points, Problem};
use crate::data::{from_ron, locate};
use crate::opc::Nation;

/// A CODEX file as written: the nation, then its entries.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CodexFile {
    nation: Nation,
    entries: Vec<EntryData>,
}

/// Where the field `field` ("armour", "armament[1].he") of the `index`-th
/// entry, whose id is `id`, is written in `text`; an entry that leaves the
/// field out is placed at its id.
fn field_position(text: &str, index: usize, id: &str, field: &str) -> (usize, usize) {
    locate(text, &format!("entries[{index}].{field}"), Some(id))
}

impl Codex {
    /// Loads CODEX files given as (file name, RON text); ids are unique across
    /// all of them.
    pub fn load(files: &[(&str, &str)]) -> Result<Self, CodexError> {
        let mut codex = Self { entries: Vec::new(), by_id: HashMap::default() };
        for &(file, text) in files {
            let data: CodexFile = from_ron(file, text).map_err(CodexError::Malformed)?;
            for (index, e) in data.entries.into_iter().enumerate() {
                if let Err((field, problem)) = check(&e) {
                    let position = field_position(text, index, &e.id, &field);
                    return Err(CodexError::Invalid { file: file.into(), position, id: e.id, field, problem });
                }
                let entry = CodexEntry {
                    id: e.id,
                    name: e.name,
                    nation: data.nation.clone(),
                    kind: e.kind,
                    service: e.service,
                    crew: e.crew,
                    armament: e.armament,
                    armour: e.armour,
                    observation: e.observation,
                    open_topped: e.open_topped,
                    movement: e.movement,
                    drive: e.drive,
                    capacity: e.capacity,
                    load_space: e.load_space,
                    petard: e.petard,
                    lays_bridge: e.lays_bridge,
                    air: e.air,
                };
                if let Some(written) = e.cost
                    && Points::whole(written) != entry.cost()
                {
                    let position = field_position(text, index, &entry.id, "cost");
                    let problem = Problem::CostDisagrees { written, formula: entry.cost() };
                    return Err(CodexError::Invalid {
                        file: file.into(),
                        position,
                        id: entry.id,
                        field: "cost".into(),
                        problem,
                    });
                }
                if let Some((_, first)) = codex.by_id.get(&entry.id) {
                    return Err(CodexError::DuplicateId {
                        position: field_position(text, index, &entry.id, "id"),
                        id: entry.id,
                        file: file.into(),
                        first: first.clone(),
                    });
                }
                codex.by_id.insert(entry.id.clone(), (codex.entries.len(), file.to_owned()));
                codex.entries.push(entry);
            }
        }
        Ok(codex)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::testing::{GOOD, invalid, load_one, one_file, pts};

    #[test]
    fn a_good_entry_loads() {
        let c = load_one(GOOD).unwrap();
        assert_eq!(c.get("x_gun").unwrap().cost(), pts(10));
        assert_eq!(c.get("x_gun").unwrap().nation, Nation::British);
    }

    #[test]
    fn malformed_ron_names_file_and_line() {
        let bad = GOOD.replace("crew: 4,\n", "crew: \"four\",\n");
        match load_one(&bad) {
            Err(CodexError::Malformed(e)) => {
                assert_eq!(e.file, "test.ron");
                assert_eq!(e.position.map(|p| p.0), Some(10), "{e}");
            }
            other => panic!("{other:?}"),
        }
        // An unknown class is a parse error at its line.
        let bad = GOOD.replace("at_gun_class2", "at_gun_class6");
        match load_one(&bad) {
            Err(CodexError::Malformed(e)) => {
                assert_eq!(e.position.map(|p| p.0), Some(11));
                assert!(e.message.contains("at_gun_class6"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        let bad = GOOD.replace("HandMovedGun", "Hovercraft");
        assert!(
            matches!(load_one(&bad), Err(CodexError::Malformed(e)) if e.position.map(|p| p.0) == Some(13) && e.message.contains("Hovercraft"))
        );
        let bad = GOOD.replace("observation: csw(crew: 4)", "observation: battleship");
        assert!(matches!(load_one(&bad), Err(CodexError::Malformed(e)) if e.position.map(|p| p.0) == Some(12)));
        let bad = GOOD.replace("load_space: 6,", "load_space: 6, colour: \"green\",");
        assert!(matches!(load_one(&bad), Err(CodexError::Malformed(e)) if e.message.contains("colour")));
    }

    #[test]
    fn the_second_armament_is_located() {
        let two = GOOD.replace("kind: weapon", "kind: vehicle").replace("csw(crew: 4)", "tank").replace(
            "armament: [(row: at_gun_class2, calibre: 40)],",
            "armament: [\n                (row: at_gun_class2, calibre: 40),\n                (row: tank_mg, count: 0),\n            ],",
        ).replace("load_space: 6,", "load_space: 45, armour: medium,");
        let (line, field, _) = invalid(&two);
        assert_eq!((line, field.as_str()), (Some(13), "armament[1].count"));
        let shown = CodexError::Invalid {
            file: "test.ron".into(),
            position: (line.unwrap(), 32),
            id: "x_gun".into(),
            field,
            problem: Problem::OutOfRange { value: 0, min: 1, max: 60 },
        }
        .to_string();
        assert_eq!(shown, "test.ron:13:32: armament[1].count: 0 is outside 1..=60 (entry \"x_gun\")");
        match load_one(&two) {
            Err(e @ CodexError::Invalid { .. }) => assert_eq!(e.to_string(), shown, "the count's own column"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn duplicate_ids_are_rejected_across_files() {
        let a = one_file(GOOD);
        let b = one_file(&format!("{}\n{}", GOOD.replace("x_gun", "y_gun"), GOOD));
        match Codex::load(&[("a.ron", &a), ("b.ron", &b)]) {
            Err(e @ CodexError::DuplicateId { .. }) => {
                assert_eq!(
                    e.to_string(),
                    "b.ron:17:17: id: \"x_gun\" is already used in a.ron",
                    "the second entry of b.ron"
                );
            }
            other => panic!("{other:?}"),
        }
        let twice = one_file(&format!("{GOOD}\n{GOOD}"));
        assert!(matches!(Codex::load(&[("c.ron", &twice)]), Err(CodexError::DuplicateId { position: (17, _), .. })));
    }
}
