//! A campaign played headless session by session, its engagements on paper,
//! on the table, or both (the table's result carrying the campaign on, the
//! paper one resolved beside it for comparison).

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use warbound_campaign::map::common::Side;
use warbound_campaign::play::{Campaign, table::Tabletop};
use warbound_rules::day::SESSIONS_PER_DAY;

use crate::tabletop::TableRunner;

/// How the campaign's engagements are resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Battles {
    /// By the Dunnigan rules (FYOW 33).
    #[default]
    Paper,
    /// On the table, both sides Auto.
    Table,
    /// On the table, each also resolved on paper from the same state.
    Both,
}

impl FromStr for Battles {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "paper" => Ok(Self::Paper),
            "table" => Ok(Self::Table),
            "both" => Ok(Self::Both),
            _ => Err(format!("--battles takes paper, table or both, not \"{s}\"")),
        }
    }
}

/// A campaign and how its engagements are fought, between sessions.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Progress {
    pub battles: Battles,
    /// Sessions of the present campaign day already played (0 before its
    /// first; the day is over when its end has been played too).
    pub sessions_today: u8,
    /// The army a player commands on the campaign map; `None`: both Auto.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Side>,
    pub campaign: Campaign,
}

/// A campaign being played, with the tabletop that fights its battles.
pub struct War {
    pub progress: Progress,
    pub table: Option<TableRunner>,
}

impl War {
    /// `campaign` played with its engagements resolved as `battles` says;
    /// `table` fights them when they go to the table.
    pub fn new(campaign: Campaign, battles: Battles, table: TableRunner) -> Self {
        Self::resume(Progress { battles, sessions_today: 0, player: None, campaign }, table)
    }

    /// Goes on with a campaign where its save left it.
    pub fn resume(progress: Progress, table: TableRunner) -> Self {
        let table = (progress.battles != Battles::Paper).then_some(table);
        Self { progress, table }
    }

    pub fn campaign(&self) -> &Campaign {
        &self.progress.campaign
    }

    /// Whether the campaign is over.
    pub fn ended(&self) -> bool {
        self.progress.campaign.ended.is_some()
    }

    /// Plays the next session (starting the day before its first, ending it
    /// after its last), every battle due resolved as [`Progress::battles`]
    /// says. Returns false once the campaign has ended.
    pub fn play_session(&mut self) -> bool {
        if !self.open_session() {
            return false;
        }
        for (a, d) in self.campaign().due_battles() {
            self.resolve(&a, &d, self.progress.battles != Battles::Paper);
        }
        self.close_session();
        true
    }

    /// The next session up to its battles (the day begun before its first
    /// session); false once the campaign has ended.
    pub fn open_session(&mut self) -> bool {
        if self.ended() {
            return false;
        }
        let p = &mut self.progress;
        if p.sessions_today == 0 {
            p.campaign.begin_day();
        }
        p.campaign.open_session();
        true
    }

    /// One Combat Session of the battle of `attacker` on `defender`: on the
    /// headless table, both sides Auto, when `table` is asked and there is
    /// one; else on paper.
    pub fn resolve(&mut self, attacker: &str, defender: &str, table: bool) {
        let t = self.table.as_mut().filter(|_| table).map(|t| t as &mut dyn Tabletop);
        self.progress.campaign.resolve_battle(attacker, defender, t);
    }

    /// The session's end, after its battles, and the day's after its last.
    pub fn close_session(&mut self) {
        let p = &mut self.progress;
        p.campaign.close_session();
        p.sessions_today += 1;
        if p.sessions_today == SESSIONS_PER_DAY || p.campaign.ended.is_some() {
            p.campaign.end_of_day();
            p.sessions_today = 0;
        }
    }

    /// Plays to the end of the present day.
    pub fn play_day(&mut self, mut after_session: impl FnMut(&Progress)) {
        loop {
            if !self.play_session() {
                return;
            }
            after_session(&self.progress);
            if self.progress.sessions_today == 0 {
                return;
            }
        }
    }
}
