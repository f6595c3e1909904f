//! Guernsey's landings fought on the battle engine by their Landing Plans
//! (FYOW 18.2; *Heroes All*, "Landing craft"): the battle on a landing's
//! beach starts with the first wave aboard landing craft in the beach's
//! lanes, and its log shows each craft's approach, landing and retirement in
//! the bounds of the landing sequence, its troops ashore in its lane.

use std::sync::Arc;

use serde_json::Value;
use warbound_battle::{log::BattleLog, play};
use warbound_campaign::{
    army::orbat::Templates,
    map::board::BoardId,
    play::{Campaign, table::Tabletop},
    table::{BoardTable, TableError},
};
use warbound_rules::{
    boats::{self, Slot},
    codex::Codex,
    handoff::{BattleResult, BattleStart},
    scenario::{Edge, Start},
};
use warbound_war::{shipped, tabletop::TableRunner};

/// The engine's tabletop, keeping each landing battle's start.
struct Watch {
    runner: TableRunner,
    landings: Vec<BattleStart>,
}

impl Tabletop for Watch {
    fn codex(&self) -> &Codex {
        self.runner.codex()
    }
    fn templates(&self) -> &Templates {
        self.runner.templates()
    }
    fn board_table(&self, campaign: &Campaign, board: &BoardId) -> Result<BoardTable, TableError> {
        self.runner.board_table(campaign, board)
    }
    fn fight(&mut self, key: &str, start: &BattleStart) -> Result<BattleResult, String> {
        if start.continuations.is_empty() && start.scenario.sides.iter().any(|s| s.landing.is_some()) {
            self.landings.push(start.clone());
        }
        self.runner.fight(key, start)
    }
    fn compare(&self) -> bool {
        false
    }
}

/// The landing battles of Guernsey's first two days on seeds `seeds`.
fn landings(seeds: std::ops::Range<u64>) -> Vec<BattleStart> {
    let (_, file) = shipped::campaigns().unwrap().into_iter().find(|(n, _)| n == "guernsey-1942").unwrap();
    let mut watch = Watch { runner: shipped::runner(false).unwrap(), landings: Vec::new() };
    for seed in seeds {
        let mut c = Campaign::new("guernsey-1942", file.clone(), seed).unwrap();
        for _ in 0..2 {
            c.play_day_with(Some(&mut watch));
        }
    }
    watch.landings
}

fn text(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or_default().to_owned()
}

#[test]
fn a_landing_battle_lands_its_waves_by_the_landing_sequence() {
    let starts = landings(0..6);
    assert!(!starts.is_empty(), "no landing was fought on the table in 6 seeds' first two days");
    let codex = shipped::codex().unwrap();
    let mut landed = 0;
    let mut retired = 0;
    for start in &starts {
        let side = start.scenario.sides.iter().position(|s| s.landing.is_some()).unwrap();
        let beach = start.scenario.sides[side].landing.clone().unwrap();
        let slots = boats::beach_slots(beach.width).unwrap();
        let mut straight = start.clone();
        straight.pause_every = None;
        let (app, result) = play::autoplay(straight, BattleLog::default(), Arc::clone(&codex)).unwrap();
        let log: Vec<(u32, Value)> = app
            .world()
            .resource::<BattleLog>()
            .entries
            .iter()
            .map(|e| (e.bound, serde_json::from_str(&e.event.to_json_line()).unwrap()))
            .collect();
        let sequence = |craft: &str, stage: &str| -> Option<u32> {
            log.iter()
                .find(|(_, v)| {
                    v["rule"]["section"] == "Landing craft landing sequence"
                        && text(v, "actor") == craft
                        && v["inputs"].to_string().contains(&format!("\"{stage}\""))
                })
                .map(|(b, _)| *b)
        };
        for c in &beach.craft {
            // "Each landing craft occupies a lane".
            assert_eq!(slots[c.slot], Slot::Lane, "{}", c.id);
            if c.wave > result.bounds_played {
                continue;
            }
            // Bound w: on approach; w + 1: land; w + 2: retire.
            assert_eq!(sequence(&c.id, "approach"), Some(c.wave), "{}: approach", c.id);
            if c.wave + 1 > result.bounds_played {
                continue;
            }
            assert_eq!(sequence(&c.id, "land"), Some(c.wave + 1), "{}: lands the bound after", c.id);
            landed += 1;
            if c.wave + 2 <= result.bounds_played {
                assert_eq!(sequence(&c.id, "retire"), Some(c.wave + 2), "{}: retires the bound after that", c.id);
                retired += 1;
            }
            // Its troops come ashore in its lane, up the beach from the sea,
            // their Order Dice thrown in the bound they land.
            let aboard: Vec<&str> = start.scenario.sides[side]
                .elements()
                .filter(|e| e.start == Start::Landing(c.wave, c.slot))
                .map(|e| e.id.as_str())
                .collect();
            assert!(!aboard.is_empty(), "{} carries someone", c.id);
            let (x, y) = beach.slot_centre(c.slot);
            for id in aboard {
                let (bound, arrival) = log
                    .iter()
                    .find(|(_, v)| {
                        v["kind"] == "arrival" && text(v, "actor") == id && v["inputs"].to_string().contains(&c.id)
                    })
                    .unwrap_or_else(|| panic!("{id} never came ashore from {}", c.id));
                assert_eq!(*bound, c.wave + 1, "{id}");
                let at =
                    arrival["inputs"].as_array().unwrap().iter().find(|i| i["name"] == "at").unwrap()["value"].clone();
                let (ax, ay) = (at[0].as_f64().unwrap() as f32, at[1].as_f64().unwrap() as f32);
                match beach.sea {
                    Some(Edge::Left) => assert!(ay == y && ax > x && ax < 20.0, "{id} at {ax},{ay}"),
                    Some(Edge::Right) => assert!(ay == y && ax < x && ax > x - 20.0, "{id} at {ax},{ay}"),
                    other => panic!("Guernsey's beaches face west or east, not {other:?}"),
                }
            }
        }
        // No mined approaches on the campaign's beaches: no craft throws for them.
        assert!(!log.iter().any(|(_, v)| v["inputs"].to_string().contains("approaches_mined\",\"value\":true")));
    }
    assert!(landed > 0, "no craft landed");
    assert!(retired > 0, "no craft retired");
}
