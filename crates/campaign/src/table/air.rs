//! The squadrons over a battle on the table. The campaign sends over it what
//! it would send over a paper battle (FYOW 28.8): each side whose Air Command
//! may fly in the session's conditions sends its ground-attack squadron that
//! has not flown today (Air Artillery) and a fighter squadron (a patrol).
//! The patrol fights the enemy's machines on the map by 28.11, as over a
//! paper battle; the ground-attack machines still flying come onto the
//! table in flights of three with their CODEX type (*Heroes All*, "Aircraft
//! rules": "Aircraft normally operate in squadrons of 3 machines"), in a
//! window of the battle's first four bounds, the session's Flight Time
//! (28.6), and strike there instead of by 28.9. What they lose over the
//! table comes back to their squadron when the battle ends.

use serde_json::json;
use warbound_rules::aircraft::{Height, Role as TableRole, SQUADRON, Schedule};
use warbound_rules::codex::Codex;
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::scenario::Squadron;

use crate::air::squadron::Status;
use crate::play::state::{Campaign, fyow, ix};
use crate::table::record::TableBattle;
use crate::weather::flying_section;

/// The id of flight `n` (from 1) of a squadron on the table.
fn flight_id(squadron: &str, n: usize) -> String {
    format!("{squadron}, flight {n}")
}

/// The campaign squadron a table squadron's id names.
pub(crate) fn squadron_of(id: &str) -> &str {
    id.rsplit_once(", flight ").map_or(id, |(name, _)| name)
}

impl Campaign {
    /// The squadrons over battle `k`, which goes to the table for the first
    /// time as `battle`: the missions of 28.8 flown, the patrols' fights of
    /// 28.11 thrown, and the ground-attack machines still flying fielded in
    /// the scenario's sides.
    ///
    /// Reading (FYOW 28.6, 28.8; *Heroes All*, "Aircraft rules"): each
    /// squadron flies one sortie a day, a session's Flight Time: over a table
    /// battle it is the window of the battle's first four bounds, the
    /// machines scheduled for its first bound; the sessions after bring none
    /// (test `a_ground_attack_squadron_flies_over_the_table`).
    pub(crate) fn table_air(&mut self, k: usize, battle: &mut TableBattle, codex: &Codex) {
        let Some(conditions) = self.air_conditions() else { return };
        let b = self.battles[k].clone();
        let names = [b.attacker.clone(), b.defender.clone()];
        if battle.start.scenario.weather.grounds_aircraft() {
            // 25.8, 26.9, 27.7: "no flying" in fog, snow or high winds.
            for name in &names {
                let Some(side) = self.force(name).map(|f| f.side) else { continue };
                if self.army(side).air.is_some() {
                    self.log(
                        RuleEvent::new(EventKind::Weather, fyow(flying_section(self.file.climate)))
                            .actor(format!("{} Air Command", self.armies[ix(side)].name))
                            .input("board", &b.board, "a battle on the table")
                            .outcome(json!({ "flying": false, "reason": "fog, snow or high winds" })),
                    );
                }
            }
            return;
        }
        let mut sides = [0usize; 2];
        let mut strike = [None, None];
        let mut cover = [None, None];
        for r in 0..2 {
            let Some(side) = self.force(&names[r]).map(|f| f.side) else { return };
            let a = ix(side);
            sides[r] = a;
            if !self.may_fly(a, conditions) {
                continue;
            }
            (strike[r], cover[r]) = self.sorties_over_battle(a, &names[r], &b.board, "over a battle on the table");
        }
        self.patrols_fight(sides, strike, cover, conditions);
        let before = battle.start.scenario.clone();
        for r in 0..2 {
            let Some(q) = strike[r] else { continue };
            let side = self.armies[sides[r]].side;
            let Some(s) = battle.sides.iter().position(|&x| x == side) else { continue };
            let Some(air) = self.armies[sides[r]].air.as_ref() else { continue };
            let sq = &air.squadrons[q].0;
            let flying = sq.aircraft.iter().filter(|m| m.status == Status::Operational).count();
            let file = self.file.army(side).squadrons.iter().find(|f| f.name == sq.name);
            let Some(aircraft) = file.and_then(|f| f.aircraft(codex)) else {
                let why = format!("{} names no CODEX aircraft to field on the table", sq.name);
                self.log_refusal("28.8 Aircraft missions", &why);
                continue;
            };
            // "Dive bombers operate from medium level"; the others attack from low.
            let height = if aircraft.role == TableRole::DiveBomber { Height::Medium } else { Height::Low };
            let name = sq.name.clone();
            let mut left = flying;
            let mut n = 0;
            while left > 0 {
                let count = left.min(SQUADRON);
                left -= count;
                n += 1;
                battle.start.scenario.sides[s].aircraft.push(Squadron {
                    id: flight_id(&name, n),
                    aircraft: aircraft.clone(),
                    count: count as u8,
                    height,
                    schedule: Schedule::Bound(1),
                    window: 1,
                });
            }
            self.log(
                RuleEvent::new(EventKind::AirOperation, fyow("28.8 Aircraft missions"))
                    .actor(&name)
                    .input("board", &b.board, "a battle on the table")
                    .input("aircraft", &aircraft.name, "its CODEX type")
                    .input("window", "bounds 1 to 4", "the session's Flight Time (28.6)")
                    .outcome(json!({ "on_table": flying, "flights": n })),
            );
        }
        if let Err(e) = battle.start.scenario.check(codex) {
            self.log_refusal(
                "28.8 Aircraft missions",
                &format!("no aircraft on the table: {}: {}", e.field, e.message),
            );
            battle.start.scenario = before;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::air::flying::{Chart, FlyingThrow};
    use crate::army::orbat::{shipped, test_codex};
    use crate::map::board::BoardId;
    use crate::map::common::{Edge, Side};
    use crate::play::table::Tabletop;
    use crate::table::layout::board_seed;
    use crate::table::{BoardTable, TableError, table_of};
    use crate::weather::{Sky, Wind, throw_day};
    use warbound_rules::handoff::{BattleResult, BattleStart, Decision, SquadronResult};

    /// A tabletop that keeps each start and pauses, or ends with the
    /// squadrons' losses it is given.
    struct Keeps {
        codex: Codex,
        templates: crate::army::orbat::Templates,
        fought: Vec<BattleStart>,
        squadrons: Option<Vec<SquadronResult>>,
    }

    impl Tabletop for Keeps {
        fn codex(&self) -> &Codex {
            &self.codex
        }
        fn templates(&self) -> &crate::army::orbat::Templates {
            &self.templates
        }
        fn board_table(&self, c: &Campaign, board: &BoardId) -> Result<BoardTable, TableError> {
            table_of(&c.file.map, board, board_seed(c.seed, board))
        }
        fn fight(&mut self, _key: &str, start: &BattleStart) -> Result<BattleResult, String> {
            self.fought.push(start.clone());
            Ok(BattleResult {
                scenario: start.scenario.name.clone(),
                seed: start.seed,
                bounds_played: 4,
                winner: None,
                decided_by: if self.squadrons.is_some() { Decision::TimeLimit } else { Decision::Paused },
                sides: Vec::new(),
                elements: Vec::new(),
                squadrons: self.squadrons.clone().unwrap_or_default(),
            })
        }
        fn compare(&self) -> bool {
            false
        }
    }

    /// The Dorsets landed at Cobo Bay against the garrison, a battle due on
    /// the table, on a calm day of `sky` that both Air Commands may fly, every
    /// machine operational.
    fn at_cobo(sky: Sky) -> Campaign {
        let mut c = Campaign::new("guernsey-1942", crate::play::testing::guernsey(), 3).unwrap();
        let cobo = BoardId::new("Cobo Bay");
        c.relocate("4th Dorsets", &BoardId::new("West Sea"), &cobo, Edge::West).unwrap();
        let red = c.forces_on(&cobo, Side::Red)[0].name.clone();
        let (mut day, _) = throw_day(&mut c.dice, c.file.climate, 8, None, &[]).unwrap();
        for spell in &mut day.spells {
            spell.sky = sky;
            spell.low_cloud = false;
        }
        day.wind = Wind::Calm;
        c.conditions.fog = sky == Sky::Fog;
        c.today = Some(day);
        for a in &mut c.armies {
            let air = a.air.as_mut().unwrap();
            air.flying = Some(FlyingThrow { face: 6, chart: Chart::Standard });
            for (sq, _) in &mut air.squadrons {
                sq.used_today = false;
                for m in &mut sq.aircraft {
                    m.status = Status::Operational;
                }
            }
        }
        c.start_battle("4th Dorsets", &red);
        c.drain_events();
        c
    }

    fn keeps() -> Keeps {
        Keeps { codex: test_codex(), templates: shipped(), fought: Vec::new(), squadrons: None }
    }

    #[test]
    fn a_ground_attack_squadron_flies_over_the_table() {
        // FYOW 28.8 Air Artillery over the battle; Heroes All: "Aircraft normally
        // operate in squadrons of 3 machines", in "windows" of 4 bounds.
        let mut c = at_cobo(Sky::Fair);
        let mut t = keeps();
        let k = c.battles.len() - 1;
        assert_eq!(c.table_session(k, &mut t), Ok(false));
        let s = t.fought[0].scenario.clone();
        let blue = &s.sides[0].aircraft;
        assert!(!blue.is_empty(), "the Hurricanes fly over the Dorsets' battle");
        let hurricane = t.codex.get("gb_hurricane_iib").unwrap().air.clone().unwrap();
        for q in blue {
            assert_eq!(q.aircraft, hurricane, "its CODEX type");
            assert_eq!(squadron_of(&q.id), "No. 175 Squadron RAF (Hurricane IIB fighter-bomber)");
            assert!((1..=3).contains(&q.count));
            assert_eq!((q.window, q.schedule, q.height), (1, Schedule::Bound(1), Height::Low));
        }
        assert!(s.sides[1].aircraft.iter().all(|q| q.aircraft.name == t.codex.get("de_fw190a").unwrap().name));
        // The fighters fought on the map (28.11) and fly on no table.
        assert!(s.sides.iter().flat_map(|x| &x.aircraft).all(|q| !q.id.contains("Spitfire") && !q.id.contains("109")));
        let events = c.drain_events();
        assert!(events.iter().any(|e| e.rule.section == "28.11 Air-to-air combat"));
        // The Hurricanes flew as many machines as the air-to-air combat left them.
        let air = c.army(Side::Blue).air.as_ref().unwrap();
        let flying = air.squadrons.iter().find(|(s, _)| squadron_of(&blue[0].id) == s.name).unwrap().0.operational();
        assert_eq!(blue.iter().map(|q| usize::from(q.count)).sum::<usize>(), flying);
        // The next session brings no new sortie.
        assert_eq!(c.table_session(k, &mut t), Ok(false));
        assert_eq!(t.fought[1].scenario.sides[0].aircraft, *blue);
        assert!(t.fought[1].continuations.iter().all(|x| x.joining.is_empty()));
    }

    #[test]
    fn fog_grounds_the_squadrons_over_the_table() {
        // FYOW 25.8: "no flying" in fog.
        let mut c = at_cobo(Sky::Fog);
        let mut t = keeps();
        let k = c.battles.len() - 1;
        assert_eq!(c.table_session(k, &mut t), Ok(false));
        assert!(t.fought[0].scenario.weather.fog);
        assert!(t.fought[0].scenario.sides.iter().all(|s| s.aircraft.is_empty()));
        let events = c.drain_events();
        assert!(!events.iter().any(|e| e.rule.section == "28.8 Aircraft missions"));
        assert!(events.iter().any(|e| e.rule.section == "25.8 The effect of weather on flying"));
        let air = c.army(Side::Blue).air.as_ref().unwrap();
        assert!(air.squadrons.iter().all(|(s, _)| !s.used_today), "no sortie flown");
    }

    #[test]
    fn machines_lost_over_the_table_come_off_the_squadron_that_flew() {
        let mut c = at_cobo(Sky::Fair);
        let mut t = keeps();
        let k = c.battles.len() - 1;
        let fighters = "No. 234 Squadron RAF (Spitfire VB)";
        let hurricanes = "No. 175 Squadron RAF (Hurricane IIB fighter-bomber)";
        let lost_in = |c: &Campaign, name: &str| {
            let air = c.army(Side::Blue).air.as_ref().unwrap();
            air.squadrons.iter().find(|(s, _)| s.name == name).unwrap().0.lost()
        };
        let before = (lost_in(&c, fighters), lost_in(&c, hurricanes));
        t.squadrons =
            Some(vec![SquadronResult { id: flight_id(hurricanes, 1), side: 0, machines_lost: 1, damaged: 0 }]);
        assert_eq!(c.table_session(k, &mut t), Ok(true));
        assert_eq!(lost_in(&c, fighters), before.0, "the Spitfires did not fly over the table");
        assert_eq!(lost_in(&c, hurricanes), before.1 + 1);
    }
}
