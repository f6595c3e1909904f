//! The battle engine as the campaign's [`Tabletop`]: each table battle is a
//! headless battle app, both sides Auto, kept running between campaign
//! sessions and replayed from its start and continuations when it is not
//! (after a campaign is loaded).

use std::{collections::BTreeMap, sync::Arc};

use warbound_battle::{log::BattleLog, play};
use warbound_campaign::{
    army::orbat::Templates,
    map::board::BoardId,
    play::{Campaign, table::Tabletop},
    table::{BoardTable, TableError, authored_table, layout::board_seed, table_of},
};
use warbound_rules::{
    codex::Codex,
    handoff::{BattleResult, BattleStart, Decision},
};

/// A battle kept between sessions and the continuations it has taken.
struct Live {
    app: warbound_battle::prelude::App,
    continuations: usize,
}

/// Plays a campaign's table battles headless.
pub struct TableRunner {
    codex: Arc<Codex>,
    templates: Templates,
    /// Authored layouts, by their path (`scenarios/tables/<campaign>/<board>.ron`).
    layouts: Vec<(String, String)>,
    compare: bool,
    live: BTreeMap<String, Live>,
    /// Table battles fought to their end, and bounds played in all.
    pub battles: u32,
    pub bounds: u32,
}

impl TableRunner {
    pub fn new(codex: Arc<Codex>, templates: Templates, layouts: Vec<(String, String)>, compare: bool) -> Self {
        Self { codex, templates, layouts, compare, live: BTreeMap::new(), battles: 0, bounds: 0 }
    }

    /// The authored layout of `board` for the campaign `source`, if any.
    fn layout(&self, source: &str, board: &BoardId) -> Option<&(String, String)> {
        let stem = std::path::Path::new(source).file_stem().map(|s| s.to_string_lossy().into_owned())?;
        let path = format!("scenarios/tables/{stem}/{board}.ron");
        self.layouts.iter().find(|(p, _)| p.ends_with(&path) || *p == path)
    }
}

impl Tabletop for TableRunner {
    fn codex(&self) -> &Codex {
        &self.codex
    }

    fn templates(&self) -> &Templates {
        &self.templates
    }

    fn board_table(&self, campaign: &Campaign, board: &BoardId) -> Result<BoardTable, TableError> {
        let map = &campaign.file.map;
        match self.layout(&campaign.source, board) {
            Some((path, text)) => authored_table(map, board, path, text),
            None => table_of(map, board, board_seed(campaign.seed, board)),
        }
    }

    fn fight(&mut self, key: &str, start: &BattleStart) -> Result<BattleResult, String> {
        let result = match self.live.remove(key) {
            Some(mut live) if live.continuations + 1 == start.continuations.len() => {
                let next = start.continuations.last().cloned().expect("one more continuation");
                let r = play::resume(&mut live.app, next)?;
                live.continuations += 1;
                self.live.insert(key.to_owned(), live);
                r
            }
            _ => {
                let (app, r) = play::autoplay(start.clone(), BattleLog::default(), self.codex.clone())?;
                let live = Live { app, continuations: start.continuations.len() };
                self.live.insert(key.to_owned(), live);
                r
            }
        };
        if result.decided_by != Decision::Paused {
            self.live.remove(key);
            self.battles += 1;
            self.bounds += result.bounds_played;
        }
        Ok(result)
    }

    fn compare(&self) -> bool {
        self.compare
    }
}
