//! What the campaign brings to a table battle: each force and company as the
//! table fields it, the waves of a landing still afloat, and which campaign
//! element each scenario element is.

use serde::{Deserialize, Serialize};
use warbound_rules::loads::Carrier;
use warbound_rules::officer::{Grade, Quality};
use warbound_rules::opc::Nation;
use warbound_rules::scenario::Edge as TableEdge;

use crate::army::orbat::TemplateElement;
use crate::army::orders::OrderKind;
use crate::map::common::Edge;

/// One campaign force as the table fields it.
#[derive(Debug, Clone, PartialEq)]
pub struct TableForce {
    /// The campaign force (`EngagedForce::force`).
    pub force: String,
    pub nation: Nation,
    pub quality: Quality,
    pub year: u16,
    /// The Senior Officer's grade: [`crate::table::deploy::senior_officer`] of
    /// its commander's competency.
    pub senior_officer: Grade,
    pub companies: Vec<TableCompany>,
    /// Its supply mode is Rationed (*Heroes All*, "Rationed").
    pub rationed: bool,
    /// Its army's Strategic Milestone in percent (FYOB).
    pub milestone: u32,
    /// Its campaign order (FYOW 10.5).
    pub order: Option<OrderKind>,
    /// This board is its order's objective.
    pub objective_here: bool,
    /// The waves of its Landing Plan still afloat (FYOW 18.2), which come
    /// ashore in landing craft ([`crate::table::landing`]).
    pub landing: Option<Afloat>,
}

/// One campaign element (a company, troop, battery) as the table fields it.
#[derive(Debug, Clone, PartialEq)]
pub struct TableCompany {
    /// The campaign element's name ("A Company").
    pub element: String,
    /// Its Company Officer's grade.
    pub officer: Grade,
    /// Its platoons and sections as they stand now (its template less its losses).
    pub elements: Vec<TemplateElement>,
    /// Per element, the CMS it carries (`None`: 6).
    pub cms: Vec<Option<u8>>,
    /// Per element, the bounds of fire it has used today (missing: none).
    pub shots_used: Vec<u32>,
    /// Concealed on the board (FYOW 15.4, `EngagedForce::concealed_elements`).
    pub concealed: bool,
    /// The grade of the FOO who calls its off-table guns' fire, where its
    /// order of battle has guns behind the table edge.
    pub foo: Option<Grade>,
}

/// Which campaign force, element and template element each scenario element is.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Roster(pub Vec<RosterEntry>);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosterEntry {
    pub scenario_element: String,
    pub force: String,
    pub campaign_element: String,
    pub template_element: String,
}

impl Roster {
    /// The entry of the scenario element `id`.
    pub fn get(&self, id: &str) -> Option<&RosterEntry> {
        self.0.iter().find(|e| e.scenario_element == id)
    }
}

/// The waves of a force still afloat when its battle starts: the first
/// lands in the battle's first session, each later one a session after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Afloat {
    /// Its craft, smallest first.
    pub craft: Vec<Carrier>,
    pub waves: Vec<Vec<String>>,
}

/// The table edge of a board edge: South near, North far, West left, East right.
pub fn table_edge(e: Edge) -> TableEdge {
    match e {
        Edge::South => TableEdge::Near,
        Edge::North => TableEdge::Far,
        Edge::West => TableEdge::Left,
        Edge::East => TableEdge::Right,
    }
}
