//! What the player reads for each id in the battle: elements and companies
//! by the names their scenario gives them, else their ids in words; FOOs,
//! batteries, squadrons, landing craft and charges by their ids in words; a
//! side's Air Command by its nation.

use std::collections::HashMap;

use warbound_rules::narrate::id_name;
use warbound_rules::opc::Nation;
use warbound_rules::scenario::{CompanySpec, Scenario};

use crate::prelude::*;

/// Every id of the battle with its name.
#[derive(Resource, Debug, Clone, Default)]
pub struct Names(HashMap<String, String>);

impl Names {
    /// The names of everything `scenario` fields.
    pub fn of(scenario: &Scenario) -> Self {
        let mut names = Self::default();
        for (s, side) in scenario.sides.iter().enumerate() {
            for c in &side.companies {
                names.add_company(c);
            }
            if !side.aircraft.is_empty() {
                names.0.insert(format!("air_command_{s}"), format!("{} Air Command", adjective(&side.nation)));
            }
            for f in &side.foos {
                let with = names.name(&f.attached_to);
                names.0.insert(f.id.clone(), format!("FOO with {with}"));
            }
            let others = side.artillery.iter().map(|b| &b.id).chain(side.aircraft.iter().map(|q| &q.id));
            let others = others.chain(side.charges.iter().map(|c| &c.id));
            let others = others.chain(side.landing.iter().flat_map(|l| l.craft.iter().map(|c| &c.id)));
            for id in others {
                names.0.insert(id.clone(), id_name(id));
            }
        }
        names
    }

    /// A company and its elements, at the start or joining.
    pub fn add_company(&mut self, c: &CompanySpec) {
        self.0.insert(c.id.clone(), c.name.clone().unwrap_or_else(|| id_name(&c.id)));
        for e in &c.elements {
            self.0.insert(e.id.clone(), e.name.clone().unwrap_or_else(|| id_name(&e.id)));
        }
    }

    /// The name of `id`, if it is one of the battle's.
    pub fn get(&self, id: &str) -> Option<String> {
        self.0.get(id).cloned()
    }

    /// The name of `id`, or the id in words.
    pub fn name(&self, id: &str) -> String {
        self.get(id).unwrap_or_else(|| id_name(id))
    }
}

/// A nation as an adjective ("German Air Command").
fn adjective(nation: &Nation) -> &str {
    match nation {
        Nation::German => "German",
        Nation::British => "British",
        Nation::American => "American",
        Nation::Italian => "Italian",
        Nation::Russian => "Soviet",
        Nation::Other(name) => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shipped;

    #[test]
    fn every_fielded_id_of_the_shipped_battles_has_a_name_without_underscores() {
        let codex = shipped::codex().unwrap();
        for (battle, scenario) in shipped::battles(&codex).unwrap() {
            let names = Names::of(&scenario);
            for side in &scenario.sides {
                for c in &side.companies {
                    for id in std::iter::once(&c.id).chain(c.elements.iter().map(|e| &e.id)) {
                        let name = names.get(id).unwrap_or_else(|| panic!("{battle}: {id} has no name"));
                        assert!(!name.contains('_'), "{battle}: {id} reads {name}");
                    }
                }
                for f in &side.foos {
                    assert!(names.name(&f.id).starts_with("FOO with "), "{battle}: {}", f.id);
                }
                for q in &side.aircraft {
                    let name = names.get(&q.id).unwrap_or_else(|| panic!("{battle}: {} has no name", q.id));
                    assert!(!name.contains('_'), "{battle}: {} reads {name}", q.id);
                }
            }
        }
    }

    #[test]
    fn a_written_name_wins_over_the_id() {
        let codex = shipped::codex().unwrap();
        let mut scenario = shipped::battle("village", &codex).unwrap();
        let company = &mut scenario.sides[0].companies[0];
        company.name = Some("C Company".into());
        company.elements[0].name = Some("13 Platoon, C Company".into());
        let (cid, eid) = (company.id.clone(), company.elements[0].id.clone());
        let names = Names::of(&scenario);
        assert_eq!(names.name(&cid), "C Company");
        assert_eq!(names.name(&eid), "13 Platoon, C Company");
        assert_eq!(names.get("no such id"), None);
    }

    #[test]
    fn each_sides_air_command_is_named_by_its_nation() {
        let codex = shipped::codex().unwrap();
        let scenario = shipped::battle("gabr_saleh", &codex).unwrap();
        let names = Names::of(&scenario);
        assert_eq!(names.name("air_command_0"), "British Air Command");
        assert_eq!(names.name("air_command_1"), "German Air Command");
        // A side without aircraft has no Air Command.
        let village = Names::of(&shipped::battle("village", &codex).unwrap());
        assert_eq!(village.get("air_command_1"), None);
    }
}
