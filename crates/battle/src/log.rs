//! The battle log: every rule event in the order it happened, kept for the
//! view and the egui log, and written as JSON lines when a file is given.

use std::{
    collections::BTreeMap,
    fs::File,
    io::{BufWriter, Write},
    path::Path,
};

use crate::{change::StateTally, prelude::*};
use warbound_rules::event::RuleEvent;

/// One logged event and the bound it happened in.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub bound: u32,
    pub event: RuleEvent,
}

/// Every event of the battle, and the file they go to.
#[derive(Resource, Default)]
pub struct BattleLog {
    pub entries: Vec<Entry>,
    /// The side each actor of the battle fights for (elements, companies,
    /// FOOs, batteries, squadrons, the sides themselves), by name: every
    /// event pushed names its actor's side.
    pub sides_of: BTreeMap<String, String>,
    sink: Option<BufWriter<File>>,
    /// The first write error, reported once.
    pub failed: Option<String>,
    /// Counts which events changed the battle's state (the rules report).
    tally: Option<StateTally>,
}

impl BattleLog {
    /// Writes every event, from now on, to `path` as JSON lines.
    pub fn to_file(path: &Path) -> std::io::Result<Self> {
        Ok(Self { sink: Some(BufWriter::new(File::create(path)?)), ..Self::default() })
    }

    /// Tells `tally` of every event pushed from now on.
    pub fn tally(&mut self, tally: StateTally) {
        self.tally = Some(tally);
    }

    /// What is applied from here until the next event is no logged rule's
    /// doing (a card's turn ends, officers share what they know): the tally
    /// credits it to no event.
    pub fn step_done(&mut self) {
        if let Some(tally) = &self.tally {
            tally.step_over();
        }
    }

    pub fn push(&mut self, bound: u32, mut event: RuleEvent) {
        if let Some(tally) = &self.tally {
            tally.event();
        }
        if event.side.is_none() {
            event.side = event.actor.as_ref().and_then(|a| self.sides_of.get(a)).cloned();
        }
        if let Some(sink) = &mut self.sink
            && self.failed.is_none()
            && let Err(e) = writeln!(sink, "{}", event.to_json_line())
        {
            self.failed = Some(e.to_string());
        }
        self.entries.push(Entry { bound, event });
    }

    pub fn extend(&mut self, bound: u32, events: impl IntoIterator<Item = RuleEvent>) {
        for e in events {
            self.push(bound, e);
        }
    }

    /// Flushes the file, if any.
    pub fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.sink {
            Some(s) => s.flush(),
            None => Ok(()),
        }
    }

    /// The whole log as JSON lines.
    pub fn json_lines(&self) -> String {
        let mut out = String::new();
        for e in &self.entries {
            out.push_str(&e.event.to_json_line());
            out.push('\n');
        }
        out
    }
}
