//! A force joining a table battle under way (FYOW 15.7): its companies as
//! the next session's continuation brings them, each from the force's own
//! box (15.2), after 0, 2 or 4 bounds.
//!
//! Readings (docs/rules-readings.md, "Engagements on the table"):
//! - a joiner's companies serve its side as the side's own do: the side's
//!   goals give their objective as for a company in the box (an attacker's
//!   advance into contact towards the key place, a defender's re-position
//!   to it), its men keep their own force's quality where it is not the
//!   side's;
//! - only what stands on the table joins: a battery's guns behind the
//!   table edge need their FOO, whom a continuation does not bring, so they
//!   stay out of the battle.

use std::collections::BTreeSet;

use warbound_rules::codex::Codex;
use warbound_rules::handoff::{BattleStart, Joining};
use warbound_rules::scenario::{CompanySpec, Goal};

use crate::map::common::Edge;
use crate::table::deploy::{Roster, TableForce, company_elements, table_edge};
use crate::table::victory::{self, Intent, KeyPlace};

/// Every id the battle of `start` has so far: its companies, elements,
/// FOOs and batteries, and those of every company that joined it.
fn ids(start: &BattleStart) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for side in &start.scenario.sides {
        for company in &side.companies {
            ids.insert(company.id.clone());
            ids.extend(company.elements.iter().map(|e| e.id.clone()));
        }
        ids.extend(side.foos.iter().map(|f| f.id.clone()));
        ids.extend(side.artillery.iter().map(|b| b.id.clone()));
    }
    for j in start.continuations.iter().flat_map(|c| &c.joining) {
        ids.insert(j.company.id.clone());
        ids.extend(j.company.elements.iter().map(|e| e.id.clone()));
    }
    ids
}

/// The companies of `force` joining the battle of `start` for its scenario
/// side `side` from the box at `edge`, `after_bounds` after the next bound
/// (FYOW 15.7), each element recorded in `roster` so its losses come back.
/// Its orders come from the side's goals: the side that must break the enemy
/// attacks, the other holds (`victory::goals`).
pub fn joining(
    start: &BattleStart,
    force: &TableForce,
    side: usize,
    edge: Edge,
    after_bounds: u8,
    codex: &Codex,
    roster: &mut Roster,
) -> Result<Vec<Joining>, String> {
    let scenario = &start.scenario;
    let theirs = scenario.sides.get(side).ok_or_else(|| format!("the battle has no side {side}"))?;
    let intent = if theirs.victory.contains(&Goal::Break) { Intent::Attack } else { Intent::Defend };
    let key = theirs
        .victory
        .iter()
        .find_map(|g| match g {
            Goal::Hold { place, at, .. } => Some(KeyPlace { name: place.clone(), at: *at }),
            _ => None,
        })
        .ok_or_else(|| format!("{}'s goals hold no place", theirs.name))?;
    let objective = victory::objective(intent, &key, false);
    let mut taken = ids(start);
    let mut companies = Vec::new();
    for company in &force.companies {
        let (id, fielded) =
            company_elements(force, company, theirs.quality, codex, &scenario.terrain, &mut taken, &mut roster.0)?;
        let elements: Vec<_> = fielded.into_iter().map(|(spec, _)| spec).collect();
        let Some(first) = elements.first() else { continue };
        companies.push(Joining {
            side,
            company: CompanySpec {
                id,
                name: Some(company.element.clone()),
                officer: company.officer,
                attached_to: first.id.clone(),
                objective: objective.clone(),
                elements,
                edge: Some(table_edge(edge)),
            },
            after_bounds,
        });
    }
    Ok(companies)
}
