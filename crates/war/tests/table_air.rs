//! Aircraft over the campaign's table battles: the ground-attack squadrons
//! the campaign sends over a battle fly on the table, the battle plays them
//! (*Heroes All*, "Aircraft rules"), and the machines lost there come off the
//! squadron that flew.

use std::sync::Arc;

use warbound_battle::{log::BattleLog, play};
use warbound_campaign::{
    army::orbat::Templates,
    map::board::BoardId,
    play::{Campaign, table::Tabletop},
    table::{BoardTable, TableError},
};
use warbound_rules::{
    codex::Codex,
    handoff::{BattleResult, BattleStart, Decision},
};
use warbound_war::{shipped, tabletop::TableRunner};

/// The engine's tabletop, keeping every battle that ended with its start.
struct Watch {
    inner: TableRunner,
    ended: Vec<(BattleStart, BattleResult)>,
}

impl Tabletop for Watch {
    fn codex(&self) -> &Codex {
        self.inner.codex()
    }
    fn templates(&self) -> &Templates {
        self.inner.templates()
    }
    fn board_table(&self, c: &Campaign, board: &BoardId) -> Result<BoardTable, TableError> {
        self.inner.board_table(c, board)
    }
    fn fight(&mut self, key: &str, start: &BattleStart) -> Result<BattleResult, String> {
        let r = self.inner.fight(key, start)?;
        if r.decided_by != Decision::Paused {
            self.ended.push((start.clone(), r.clone()));
        }
        Ok(r)
    }
    fn compare(&self) -> bool {
        false
    }
}

/// The campaign squadron a table squadron's id names ("<squadron>, flight <n>").
fn squadron_of(id: &str) -> &str {
    id.rsplit_once(", flight ").map_or(id, |(name, _)| name)
}

#[test]
fn aircraft_fly_over_the_table_battles_and_their_losses_come_back() {
    let codex = shipped::codex().unwrap();
    let (_, file) = shipped::campaigns().unwrap().into_iter().find(|(n, _)| n == "guernsey-1942").unwrap();
    let (mut battles, mut with_aircraft, mut air_events, mut strikes, mut lost, mut carried) = (0, 0, 0, 0, 0, 0);
    for seed in 0..20 {
        let mut c = Campaign::new("guernsey-1942", file.clone(), seed).unwrap();
        let mut t = Watch { inner: shipped::runner(false).unwrap(), ended: Vec::new() };
        let mut campaign_log = Vec::new();
        let mut seed_lost = 0;
        for _ in 0..40 {
            c.play_day_with(Some(&mut t));
            campaign_log.extend(c.drain_events().iter().map(|e| e.to_json_line()));
            if c.ended.is_some() {
                break;
            }
        }
        for (start, result) in &t.ended {
            battles += 1;
            let flights: Vec<&str> =
                start.scenario.sides.iter().flat_map(|s| &s.aircraft).map(|q| q.id.as_str()).collect();
            if flights.is_empty() {
                assert!(result.squadrons.is_empty());
                continue;
            }
            with_aircraft += 1;
            assert!(!start.scenario.weather.fog && !start.scenario.weather.snow && !start.scenario.weather.high_winds);
            // The battle replayed from its start: its log has the squadrons' events.
            let (app, again) = play::autoplay(start.clone(), BattleLog::default(), Arc::clone(&codex)).unwrap();
            assert_eq!(&again, result, "the battle replays");
            let lines = app.world().resource::<BattleLog>().json_lines();
            air_events += lines.lines().filter(|l| flights.iter().any(|f| l.contains(f))).count();
            strikes += lines.lines().filter(|l| l.contains("Aircraft attacking ground troops")).count();
            for q in &result.squadrons {
                lost += q.machines_lost;
                seed_lost += q.machines_lost;
            }
        }
        // Each machine shot down over the table comes off the squadron that flew,
        // where it was still on its books as operational.
        let off = campaign_log.iter().filter(|l| l.contains("a table battle") && l.contains("shot_down")).count();
        assert!(off as u32 <= seed_lost, "seed {seed}: {off} taken off, {seed_lost} lost");
        for (_, result) in &t.ended {
            for q in result.squadrons.iter().filter(|q| q.machines_lost > 0) {
                let name = squadron_of(&q.id);
                assert!(
                    campaign_log.iter().any(|l| l.contains("a table battle") && l.contains(name)),
                    "seed {seed}: {name} lost {} over the table",
                    q.machines_lost
                );
            }
        }
        carried += off;
    }
    eprintln!(
        "20 seeds: {battles} table battles, {with_aircraft} with aircraft, {air_events} air events ({strikes} ground attacks), \
         {lost} machines lost over the table, {carried} taken off their squadrons"
    );
    assert!(strikes > 0, "the squadrons attack the ground troops");
    assert!(with_aircraft > 0 && air_events > 0, "{with_aircraft} battles with aircraft, {air_events} air events");
    assert!(lost > 0 && carried > 0, "{lost} machines lost, {carried} taken off their squadrons");
}
