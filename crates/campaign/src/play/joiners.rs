//! Forces joining a battle on the table under way (FYOW 15.7, 33.7 (xii)):
//! a battlegroup or Fraction of either side on the board of a table battle
//! that has begun, and not one of its forces, joins it from its box after
//! 0, 2 or 4 bounds by its Battlegroup Priority Card against the two
//! combatants'; its companies come with the next session's continuation,
//! its losses come back with the battle's result, and it shares its side's
//! fate: the losing side's forces all retire (14.14).
//!
//! Readings (docs/rules-readings.md, "Engagements on the table"):
//! - a force counts as arriving when it stands on the battle's board, in
//!   its box or on the board itself, at the end of a session's activations
//!   (it has made its Movement Test to get there, or was there already);
//!   the campaign's session that follows the table battle's start is the
//!   first it may join;
//! - it arrives in the box it owns (15.2), the edge it came by;
//! - its timing is 15.7's by the session's cards: before both combatants,
//!   the next bound; after one, after 2 bounds; after both, after 4; no dice
//!   are thrown.

use serde_json::json;

use warbound_rules::handoff::Joining;

use crate::map::engagement::join_timing;
use crate::play::state::Campaign;
use crate::play::table::Tabletop;
use crate::table::joining::joining;
use crate::table::record::TableBattle;

impl Campaign {
    /// The card `name` was dealt this session, counted from 1.
    fn card(&self, name: &str) -> Option<u32> {
        self.activated.iter().position(|n| n == name).and_then(|p| u32::try_from(p + 1).ok())
    }

    /// FYOW 15.7: the forces on the board of battle `k`, on the table as
    /// `battle`, that are in no battle join it: their companies for the next
    /// session's continuation, their elements added to the battle's roster,
    /// each named among the battle's forces.
    pub(crate) fn joiners(&mut self, k: usize, battle: &mut TableBattle, t: &dyn Tabletop) -> Vec<Joining> {
        let board = self.battles[k].board.clone();
        let combatants = [self.battles[k].attacker.clone(), self.battles[k].defender.clone()];
        let mut arriving: Vec<String> = self
            .forces
            .iter()
            .filter(|f| f.board() == Some(&board) && !f.is_gone())
            .map(|f| f.name.clone())
            .filter(|n| !self.in_battle(n))
            .collect();
        // In the order they were activated.
        arriving.sort_by_key(|n| self.card(n));
        let mut out = Vec::new();
        for name in arriving {
            let cards = (self.card(&name), self.card(&combatants[0]), self.card(&combatants[1]));
            let (timing, event) = match cards {
                (Some(j), Some(a), Some(d)) => match join_timing(j, [a, d]) {
                    Ok(x) => x,
                    Err(e) => {
                        self.log_refusal("15.7", &e.to_string());
                        continue;
                    }
                },
                _ => {
                    self.log_refusal("15.7", &format!("{name} holds no card this session to join by"));
                    continue;
                }
            };
            let Some(force) = self.table_force(&name, &board, t) else { continue };
            let Some(side) = self.force(&name).and_then(|f| battle.sides.iter().position(|&s| s == f.side)) else {
                continue;
            };
            let Some(occupant) = self.occupant(&name).cloned() else { continue };
            let mut roster = battle.roster.clone();
            let companies = match joining(
                &battle.start,
                &force,
                side,
                occupant.arrival_edge,
                timing.bounds_delay(),
                t.codex(),
                &mut roster,
            ) {
                Ok(c) if !c.is_empty() => c,
                Ok(_) => {
                    self.log_refusal("15.7", &format!("{name} has no element the table fields"));
                    continue;
                }
                Err(why) => {
                    self.log_refusal("15.7", &format!("{name} cannot join the battle on the table: {why}"));
                    continue;
                }
            };
            self.log(
                event
                    .actor(&name)
                    .target(&combatants[0])
                    .input("board", &board, "")
                    .input("box", occupant.arrival_edge, "the box it owns (15.2)")
                    .input("side", side, "the scenario's side")
                    .outcome(json!({
                        "joins": "the battle on the table",
                        "timing": timing,
                        "after_bounds": timing.bounds_delay(),
                        "companies": companies.iter().map(|j| j.company.id.clone()).collect::<Vec<_>>(),
                    })),
            );
            if let Some(Err(e)) = self.battles[k].engagement.as_mut().map(|e| e.join(&occupant, timing)) {
                self.log_refusal("15.7", &e.to_string());
            }
            battle.roster = roster;
            self.battles[k].joined.push(name);
            out.extend(companies);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::orbat::{Templates, shipped, test_codex};
    use crate::map::board::BoardId;
    use crate::map::common::{Edge, Side};
    use crate::table::{BoardTable, TableError, layout::board_seed, table_of};
    use warbound_rules::codex::Codex;
    use warbound_rules::handoff::{BattleResult, BattleStart, Decision};

    /// A tabletop whose battles pause after each session, or end at the
    /// end of the session `end.0` (counted from 0), won by scenario side `end.1`.
    struct Pausing {
        codex: Codex,
        templates: Templates,
        fought: Vec<BattleStart>,
        end: Option<(usize, usize)>,
    }

    impl Tabletop for Pausing {
        fn codex(&self) -> &Codex {
            &self.codex
        }
        fn templates(&self) -> &Templates {
            &self.templates
        }
        fn board_table(&self, c: &Campaign, board: &BoardId) -> Result<BoardTable, TableError> {
            table_of(&c.file.map, board, board_seed(c.seed, board))
        }
        fn fight(&mut self, _key: &str, start: &BattleStart) -> Result<BattleResult, String> {
            self.fought.push(start.clone());
            let won = self.end.filter(|&(session, _)| session == start.continuations.len()).map(|(_, side)| side);
            Ok(BattleResult {
                scenario: start.scenario.name.clone(),
                seed: start.seed,
                bounds_played: 4 * (1 + start.continuations.len() as u32),
                winner: won,
                decided_by: if won.is_some() { Decision::Withdrawal } else { Decision::Paused },
                sides: Vec::new(),
                elements: Vec::new(),
                squadrons: Vec::new(),
            })
        }
        fn compare(&self) -> bool {
            false
        }
    }

    /// Seed `seed`'s Guernsey: 4th Dorsets engage Panzer-Abteilung 213 on
    /// St Andrew, on the table from the first session; then III./IR 582
    /// comes by the East and 7th Hampshires by the South, activated before
    /// both combatants and between them, and the second session is fought.
    fn two_come_to_a_battle(seed: u64, t: &mut Pausing) -> Campaign {
        let file = crate::play::testing::guernsey();
        let mut c = Campaign::new("guernsey-1942", file, seed).unwrap();
        // Each side's forces within the board's 1500 points (FYOW 13.9).
        for (name, n) in [("4th Dorsets", 2), ("7th Hampshires", 2), ("Panzer-Abteilung 213", 2), ("III./IR 582", 2)] {
            let i = c.fx(name).unwrap();
            c.forces[i].battlegroup.elements.truncate(n);
            c.sync_points(name);
        }
        let board = BoardId::new("St Andrew");
        c.relocate("4th Dorsets", &BoardId::new("West Sea"), &board, Edge::West).unwrap();
        c.start_battle("4th Dorsets", "Panzer-Abteilung 213");
        assert_eq!(c.battles.len(), 1);
        assert!(!c.table_session(0, t).unwrap(), "the first session pauses");
        assert!(c.battles[0].table.is_some());
        c.relocate("III./IR 582", &BoardId::new("Forest"), &board, Edge::East).unwrap();
        c.relocate("7th Hampshires", &BoardId::new("West Sea"), &board, Edge::South).unwrap();
        assert!(!c.in_battle("III./IR 582") && !c.in_battle("7th Hampshires"));
        c.activated =
            ["III./IR 582", "4th Dorsets", "7th Hampshires", "Panzer-Abteilung 213"].map(String::from).to_vec();
        c.drain_events();
        c
    }

    #[test]
    fn a_force_reaching_a_board_in_battle_joins_by_its_card_from_its_own_box() {
        // FYOW 15.7: activated before both combatants, a force joins "from the
        // next tabletop bound"; after one but before the other, "after the
        // next 2 tabletop bounds"; it is placed in "the appropriate 'box'".
        let mut t = Pausing { codex: test_codex(), templates: shipped(), fought: Vec::new(), end: None };
        let mut c = two_come_to_a_battle(3, &mut t);
        assert!(!c.table_session(0, &mut t).unwrap());
        let start = t.fought.last().unwrap();
        assert_eq!(start.continuations.len(), 1);
        let joining = &start.continuations[0].joining;
        let red = t.fought[0].scenario.sides.iter().position(|s| s.name == "Panzer-Abteilung 213").unwrap();
        let blue = 1 - red;
        let of = |force: &str| -> Vec<_> { joining.iter().filter(|j| j.company.id.starts_with(force)).collect() };
        let (late_red, late_blue) = (of("III./IR 582"), of("7th Hampshires"));
        assert!(!late_red.is_empty() && !late_blue.is_empty(), "{joining:?}");
        assert!(late_red.iter().all(|j| j.side == red && j.after_bounds == 0), "before both: the next bound");
        assert!(late_blue.iter().all(|j| j.side == blue && j.after_bounds == 2), "after one: 2 bounds on");
        use warbound_rules::scenario::Edge as TableEdge;
        assert!(late_red.iter().all(|j| j.company.edge == Some(TableEdge::Right)), "its own box, the East");
        assert!(late_blue.iter().all(|j| j.company.edge == Some(TableEdge::Near)), "its own box, the South");
        // Its elements are on the battle's roster, so their losses come back,
        // and it is in the battle: engaged for 15.8, named among its forces.
        let battle = c.battles[0].table.as_ref().unwrap();
        for j in joining {
            for e in &j.company.elements {
                let entry = battle.roster.get(&e.id).unwrap_or_else(|| panic!("{} on the roster", e.id));
                assert!(j.company.id.starts_with(&entry.force));
            }
        }
        assert_eq!(c.battles[0].joined, vec!["III./IR 582".to_owned(), "7th Hampshires".to_owned()]);
        assert!(c.in_battle("III./IR 582") && c.in_battle("7th Hampshires"));
        let logged = c.drain_events();
        let joined: Vec<_> = logged
            .iter()
            .filter(|e| e.rule.section == "15.7 Engagements continuing across multiple sessions")
            .collect();
        assert_eq!(joined.len(), 2);
        assert_eq!(joined[1].outcome["after_bounds"], 2);
        let engaged = c.battles[0].engagement.as_ref().unwrap();
        assert_eq!(engaged.forces.len(), 4);
        assert_eq!(engaged.forces[3].joins_after_bounds, 2);
        // A force joins once: the next session brings no one new.
        assert!(!c.table_session(0, &mut t).unwrap());
        assert!(t.fought.last().unwrap().continuations[1].joining.is_empty());
        let side = |n: &str| c.force(n).unwrap().side;
        assert_eq!((side("III./IR 582"), side("7th Hampshires")), (Side::Red, Side::Blue));
    }

    #[test]
    fn the_forces_that_joined_the_beaten_side_retire_with_it_and_the_winners_stay() {
        // FYOW 33.7 (xii): forces "friendly to a defeated force, are also
        // obliged to retreat when the defeated Battlegroup retreats"; the
        // table's defeat is a Strategic Condition result, so each retires by
        // its own Movement Test at +1 (14.14) and stays if it fails it.
        let board = BoardId::new("St Andrew");
        let (mut left, mut stayed) = (0, 0);
        for seed in 0..12 {
            let mut t = Pausing { codex: test_codex(), templates: shipped(), fought: Vec::new(), end: None };
            let mut c = two_come_to_a_battle(seed, &mut t);
            let blue = t.fought[0].scenario.sides.iter().position(|s| s.name == "4th Dorsets").unwrap();
            t.end = Some((1, blue));
            assert!(c.table_session(0, &mut t).unwrap(), "seed {seed}: the battle ends");
            let events = c.drain_events();
            let end = events.iter().find(|e| e.outcome.get("joiners_retreated").is_some()).unwrap();
            let joined = &end.inputs.iter().find(|i| i.name == "joined").unwrap().value;
            assert_eq!(joined, &serde_json::json!(["III./IR 582", "7th Hampshires"]));
            let retreated = &end.outcome["joiners_retreated"];
            let here = |n: &str| c.force(n).and_then(|f| f.board()) == Some(&board);
            if retreated == &serde_json::json!(["III./IR 582"]) {
                assert!(!here("III./IR 582"), "seed {seed}");
                left += 1;
            } else {
                assert_eq!(retreated, &serde_json::json!([]), "seed {seed}: no winner retires");
                assert!(here("III./IR 582"), "seed {seed}: failing its test, it fights on");
                stayed += 1;
            }
            assert!(here("7th Hampshires") && here("4th Dorsets"), "seed {seed}: the winners stay");
        }
        assert!(left > 0, "{left} retired, {stayed} stayed");
    }
}
