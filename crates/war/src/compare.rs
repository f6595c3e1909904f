//! Paper and table compared: over the engagements of many campaigns played
//! with `--battles both`, how often the Dunnigan rules and the table agree
//! on who won, on who retreated, and how their losses differ.

use std::fmt;

use serde::Serialize;
use warbound_campaign::table::record::Comparison;

/// The comparison over many engagements.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    pub engagements: u32,
    /// Both named the same winner, or both none.
    pub same_winner: u32,
    /// The table's winner was the attacker; the paper's.
    pub attacker_won: (u32, u32),
    /// Neither won.
    pub undecided: (u32, u32),
    /// Both had the same force retreat (or none).
    pub same_retreat: u32,
    /// Points lost by attackers and by defenders: table, paper.
    pub attacker_losses: (u64, u64),
    pub defender_losses: (u64, u64),
    /// Bounds on the table, Combat Sessions on paper.
    pub table_bounds: u64,
    pub paper_sessions: u64,
}

impl Report {
    pub fn add(&mut self, c: &Comparison) {
        self.engagements += 1;
        self.same_winner += u32::from(c.table.winner == c.paper.winner);
        self.same_retreat += u32::from(c.table.retreated == c.paper.retreated);
        let attacker = |w: &Option<String>| u32::from(w.as_deref() == Some(c.attacker.as_str()));
        self.attacker_won.0 += attacker(&c.table.winner);
        self.attacker_won.1 += attacker(&c.paper.winner);
        self.undecided.0 += u32::from(c.table.winner.is_none());
        self.undecided.1 += u32::from(c.paper.winner.is_none());
        self.attacker_losses.0 += u64::from(c.table.losses.0);
        self.attacker_losses.1 += u64::from(c.paper.losses.0);
        self.defender_losses.0 += u64::from(c.table.losses.1);
        self.defender_losses.1 += u64::from(c.paper.losses.1);
        self.table_bounds += u64::from(c.table.length);
        self.paper_sessions += u64::from(c.paper.length);
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.engagements.max(1);
        let pct = |x: u32| 100.0 * f64::from(x) / f64::from(n);
        let mean = |x: u64| x as f64 / f64::from(n);
        writeln!(f, "{} engagements fought on the table and resolved on paper", self.engagements)?;
        writeln!(f, "  same winner:        {:5.1}%", pct(self.same_winner))?;
        writeln!(f, "  same retreat:       {:5.1}%", pct(self.same_retreat))?;
        writeln!(f, "                       table   paper")?;
        writeln!(f, "  attacker won:      {:5.1}%  {:5.1}%", pct(self.attacker_won.0), pct(self.attacker_won.1))?;
        writeln!(f, "  undecided:         {:5.1}%  {:5.1}%", pct(self.undecided.0), pct(self.undecided.1))?;
        writeln!(
            f,
            "  attacker lost (pts) {:6.0}  {:6.0}",
            mean(self.attacker_losses.0),
            mean(self.attacker_losses.1)
        )?;
        writeln!(
            f,
            "  defender lost (pts) {:6.0}  {:6.0}",
            mean(self.defender_losses.0),
            mean(self.defender_losses.1)
        )?;
        write!(
            f,
            "  length: {:.1} bounds on the table, {:.1} Combat Sessions on paper",
            mean(self.table_bounds),
            mean(self.paper_sessions)
        )
    }
}
