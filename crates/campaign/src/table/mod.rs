//! A Map Board becomes a games table (FYOW 13.1: Map Boards "represent the
//! playing surfaces for games when they transfer to the tabletop"): the
//! terrain generated from the board's type, detail, links and coast, or an
//! authored layout that overrides it.

/// The generator: a board, its links and a seed give one table.
pub mod layout;

/// Authored layouts (`scenarios/tables/<campaign>/<board id>.ron`), read and
/// checked against the board they lay out.
pub mod authored;

/// What the campaign keeps of its table battles between sessions.
pub mod record;

pub use authored::{AuthoredLayout, authored_table, load_table};
pub use layout::{BoardTable, Entry, Shore, TableError, table_of, table_size};

/// What the campaign brings to a table battle: its forces and companies.
pub mod forces;

/// An engagement becomes a battle: the forces deployed on the board's table
/// by FYOW 15.3–15.7.
pub mod deploy;

/// The squadrons flying over a battle on the table (FYOW 28.8, *Heroes
/// All* "Aircraft rules").
pub mod air;

/// The sides' goals from their forces' orders.
pub mod victory;

/// Forces landing from the sea by their Landing Plan, in landing craft.
pub mod landing;

/// A force joining a battle under way (FYOW 15.7).
pub mod joining;

pub use deploy::{
    BattleDay, Deployment, Roster, RosterEntry, TableCompany, TableForce, deployment, scenario_for, senior_officer,
};
