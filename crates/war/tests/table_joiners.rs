//! Forces joining a table battle under way (FYOW 15.7), played by the
//! battle engine: the joiner's companies come on from their box, fight, are
//! in the battle's result, and their losses come back to their force.

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
use warbound_war::{TableRunner, shipped};

/// The engine's tabletop, keeping each battle that ended with its start.
struct Recorder {
    runner: TableRunner,
    ended: Vec<(BattleStart, BattleResult)>,
}

impl Tabletop for Recorder {
    fn codex(&self) -> &Codex {
        self.runner.codex()
    }
    fn templates(&self) -> &Templates {
        self.runner.templates()
    }
    fn board_table(&self, c: &Campaign, board: &BoardId) -> Result<BoardTable, TableError> {
        self.runner.board_table(c, board)
    }
    fn fight(&mut self, key: &str, start: &BattleStart) -> Result<BattleResult, String> {
        let r = self.runner.fight(key, start)?;
        if r.decided_by != Decision::Paused {
            self.ended.push((start.clone(), r.clone()));
        }
        Ok(r)
    }
    fn compare(&self) -> bool {
        false
    }
}

#[test]
fn a_joiner_fights_on_the_table_and_its_losses_come_back() {
    let (_, file) = shipped::campaigns().unwrap().into_iter().find(|(n, _)| n == "guernsey-1942").unwrap();
    let mut battles = 0;
    let mut battles_joined = 0;
    let mut elements_joined = 0;
    let mut losses_carried = 0;
    for seed in 0..20 {
        let mut c = Campaign::new("guernsey-1942", file.clone(), seed).unwrap();
        let mut t = Recorder { runner: shipped::runner(false).unwrap(), ended: Vec::new() };
        'days: for _ in 0..file.days {
            c.begin_day();
            for _ in 0..warbound_rules::day::SESSIONS_PER_DAY {
                c.play_session_with(Some(&mut t));
                for (start, r) in std::mem::take(&mut t.ended) {
                    battles += 1;
                    let joining: Vec<_> = start.continuations.iter().flat_map(|x| &x.joining).collect();
                    if joining.is_empty() {
                        continue;
                    }
                    battles_joined += 1;
                    for j in joining {
                        // The force and campaign element the company is ("force, element").
                        let force = c.forces.iter().find(|f| j.company.id.starts_with(&format!("{}, ", f.name)));
                        let force = force.unwrap_or_else(|| panic!("{}: a campaign force's company", j.company.id));
                        let element = &j.company.id[force.name.len() + 2..];
                        for e in &j.company.elements {
                            let res = r.elements.iter().find(|x| x.id == e.id);
                            let res = res.unwrap_or_else(|| panic!("{}: in the battle's result", e.id));
                            assert_eq!((res.side, res.company.as_str()), (j.side, j.company.id.as_str()));
                            elements_joined += 1;
                            // Its men as the battle left them are its order of battle's now.
                            let Some(company) = force.orbat.iter().find(|o| o.element == element) else { continue };
                            let template_id = &e.id[j.company.id.len() + 1..];
                            let Some(now) = company.elements.iter().find(|x| x.id == template_id) else { continue };
                            let left: Vec<_> = res.figures.iter().filter(|f| f.men > 0).cloned().collect();
                            assert_eq!(now.figures, left, "seed {seed}: {}", e.id);
                            let before: u32 = e.figures.iter().map(|f| u32::from(f.men)).sum();
                            if res.men < before {
                                losses_carried += 1;
                            }
                        }
                    }
                }
                if c.ended.is_some() {
                    break 'days;
                }
            }
            c.end_of_day();
        }
    }
    println!(
        "{battles_joined} of {battles} table battles had forces join them over 20 seeds; {elements_joined} elements \
         joined, {losses_carried} of them lost men"
    );
    assert!(battles_joined > 0, "no battle had a force join it");
    assert!(losses_carried > 0, "no joiner lost men on the table");
}
