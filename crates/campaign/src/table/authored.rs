//! Authored layouts: a board laid out by hand in
//! `scenarios/tables/<campaign>/<board id>.ron` (a terrain and its places)
//! takes the place of the generated table. A layout is read as a scenario's
//! terrain is, checked against the board's table, and must bring a road to
//! every edge a road link leaves by; an error names the file, the line, the
//! field, the board and the rule broken.

use std::path::Path;

use serde::Deserialize;
use warbound_rules::data::{DataError, from_ron};
use warbound_rules::scenario::Place;
use warbound_rules::terrain::{Feature, Point, Terrain};

use super::layout::{BoardTable, Entry, TableError, exits, off_edge, sea_edge, table_of, table_size};
use crate::map::board::{BoardId, BoardKind, CampaignMap, Route};

/// What an authored layout file holds.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthoredLayout {
    #[serde(default)]
    pub terrain: Terrain,
    #[serde(default)]
    pub places: Vec<Place>,
}

/// How near the table's edge a road's end must be to reach it, inches.
const AT_EDGE: f32 = 1.0;

/// The table of `board` from an authored layout `text` (read from `file`).
pub fn authored_table(map: &CampaignMap, board: &BoardId, file: &str, text: &str) -> Result<BoardTable, TableError> {
    let b = map.boards.iter().find(|b| &b.id == board).ok_or_else(|| TableError::UnknownBoard(board.clone()))?;
    if b.kind == BoardKind::Tidal {
        return Err(TableError::Tidal(board.clone()));
    }
    let on = format!("(board \"{board}\")");
    let layout: AuthoredLayout = from_ron(file, text)
        .map_err(|e| TableError::Authored(DataError { message: format!("{} {on}", e.message), ..e }))?;
    let table = table_size(b.size);
    let refuse = |field: &str, value: Option<&str>, problem: String| {
        TableError::Authored(DataError::field(file, text, field, value, format!("{problem} {on}")))
    };
    layout.terrain.validate(table).map_err(|e| refuse(&format!("terrain.{}", e.path()), None, e.located()))?;
    for (i, p) in layout.places.iter().enumerate() {
        if !table.contains(p.at) {
            let problem = format!(
                "place \"{}\" at ({}, {}) is off the {}\" × {}\" table",
                p.name, p.at.0, p.at.1, table.width, table.depth
            );
            return Err(refuse(&format!("places[{i}]"), Some(&p.name), problem));
        }
    }
    let ends: Vec<Point> = layout
        .terrain
        .features
        .iter()
        .filter_map(|f| match f {
            Feature::Road { line, .. } => Some([line[0], line[line.len() - 1]]),
            _ => None,
        })
        .flatten()
        .collect();
    let mut entries = Vec::new();
    for (edge, route, to) in exits(map, board) {
        let at = match route {
            Route::MetalledRoad | Route::SecondaryRoad => {
                let Some(at) = ends.iter().find(|p| off_edge(edge, **p, table) <= AT_EDGE) else {
                    let problem = format!(
                        "no road reaches the {edge:?} edge, where the {} to \"{to}\" leaves: every road link comes onto the table by its edge (FYOW 13.7)",
                        route.kind().name()
                    );
                    return Err(refuse("terrain", None, problem));
                };
                *at
            }
            Route::Rail => super::layout::edge_point(edge, 0.5, table),
            Route::River(_) | Route::Sea => continue,
        };
        entries.push(Entry { edge, route, to, at });
    }
    let shore = match (sea_edge(map, b), b.coast) {
        (Some(edge), Some(coast)) => {
            let generated = table_of(map, board, 0)?;
            generated.shore.filter(|s| s.edge == edge && s.coast == coast)
        }
        _ => None,
    };
    Ok(BoardTable {
        board: board.clone(),
        table,
        terrain: layout.terrain,
        places: layout.places,
        entries,
        railways: Vec::new(),
        shore,
        authored: true,
    })
}

/// The table of `board`: the authored layout `<tables>/<board id>.ron` if
/// there is one, else the table generated for the campaign seed `seed`.
pub fn load_table(map: &CampaignMap, board: &BoardId, seed: u64, tables: &Path) -> Result<BoardTable, TableError> {
    let path = tables.join(format!("{board}.ron"));
    match std::fs::read_to_string(&path) {
        Ok(text) => authored_table(map, board, &path.display().to_string(), &text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => table_of(map, board, seed),
        Err(e) => Err(TableError::Authored(DataError::new(path.display().to_string(), format!("cannot be read: {e}")))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::layout::tests::guernsey;

    /// L'Ancresse laid out by hand: its two roads, a wood, the village.
    const LANCRESSE: &str = r#"(
    terrain: (features: [
        Road(kind: metalled, line: [(30, 0), (30, 24)], width: 3),
        Road(kind: secondary, line: [(0, 30), (30, 24)], width: 2),
        Wood(density: sparse, outline: [(40, 30), (50, 30), (50, 40)]),
    ]),
    places: [(name: "L'Ancresse", at: (30, 24))],
)"#;

    #[test]
    fn the_shipped_perelle_layout_is_a_valid_half_table() {
        let map = guernsey();
        let text = include_str!("../../../../scenarios/tables/guernsey-1942/Perelle.ron");
        let board = BoardId::new("Perelle");
        let t = authored_table(&map, &board, "Perelle.ron", text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((t.table.width, t.table.depth), (36.0, 48.0), "Perelle is a half board");
        let edges: Vec<_> = t.entries.iter().filter(|e| e.route != Route::Rail).map(|e| e.edge).collect();
        use crate::map::common::Edge;
        assert_eq!(edges.len(), 3);
        for e in [Edge::North, Edge::South, Edge::East] {
            assert!(edges.contains(&e), "a road by the {e:?} edge");
        }
        assert_eq!(t.shore.as_ref().map(|s| (s.edge, s.coast)), Some((Edge::West, crate::map::board::Coast::NonBeach)));
        assert!(t.place("Perelle").is_some());
        let tables = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/tables/guernsey-1942"));
        assert_eq!(load_table(&map, &board, 3, tables).unwrap(), t, "the shipped layout overrides the generator");
    }

    fn dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("warbound-tables-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn an_authored_layout_overrides_and_a_broken_one_names_the_board() {
        let map = guernsey();
        let board = BoardId::new("L'Ancresse");
        let tables = dir("override");
        std::fs::write(tables.join("L'Ancresse.ron"), LANCRESSE).unwrap();
        let t = load_table(&map, &board, 7, &tables).unwrap();
        assert!(t.authored);
        assert_eq!(t.terrain.features.len(), 3, "the authored terrain, not a generated one");
        assert_eq!(t.place("L'Ancresse"), Some((30.0, 24.0)));
        let south = t.entries.iter().find(|e| e.route == Route::MetalledRoad).unwrap();
        assert_eq!((south.edge, south.at), (crate::map::common::Edge::South, Point(30.0, 0.0)));
        assert_eq!(
            t.shore.as_ref().map(|s| s.edge),
            Some(crate::map::common::Edge::East),
            "the coast stays the board's"
        );
        let other = load_table(&map, &BoardId::new("Grand Havre"), 7, &tables).unwrap();
        assert!(!other.authored, "a board with no layout is generated");
        assert_eq!(other, table_of(&map, &BoardId::new("Grand Havre"), 7).unwrap());

        let off = LANCRESSE.replace("(50, 30), (50, 40)", "(50, 30), (80, 40)");
        std::fs::write(tables.join("L'Ancresse.ron"), &off).unwrap();
        let err = load_table(&map, &board, 7, &tables).unwrap_err().to_string();
        assert!(err.contains("L'Ancresse.ron:5:"), "the file and line: {err}");
        assert!(err.contains("terrain.features[2].outline[2]: point (80, 40) is off the table (Wood)"), "{err}");
        assert!(err.ends_with("(board \"L'Ancresse\")"), "{err}");

        let no_lane = LANCRESSE.replace("Road(kind: secondary, line: [(0, 30), (30, 24)], width: 2),\n", "");
        let err = authored_table(&map, &board, "l.ron", &no_lane).unwrap_err().to_string();
        assert!(
            err.contains("no road reaches the West edge, where the secondary road to \"Grand Havre\" leaves"),
            "{err}"
        );
        assert!(err.contains("(board \"L'Ancresse\")"), "{err}");

        let misspelt = LANCRESSE.replace("places:", "placs:");
        let err = authored_table(&map, &board, "l.ron", &misspelt).unwrap_err().to_string();
        assert!(err.starts_with("l.ron:7:") && err.contains("(board \"L'Ancresse\")"), "{err}");

        let far = LANCRESSE.replace("at: (30, 24)", "at: (30, 60)");
        let err = authored_table(&map, &board, "l.ron", &far).unwrap_err().to_string();
        assert!(err.contains("places[0]") && err.contains("off the 72\" × 48\" table"), "{err}");

        assert_eq!(
            authored_table(&map, &BoardId::new("West Sea"), "w.ron", LANCRESSE).unwrap_err(),
            TableError::Tidal(BoardId::new("West Sea"))
        );
        std::fs::remove_dir_all(&tables).unwrap();
    }
}
