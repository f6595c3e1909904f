//! Paper battles and partisans (*Fight Your Own Wars* 33–34).
//!
//! - [`dunnigan`]: the Dunnigan rules (FYOW 33) that settle an encounter on
//!   paper: Combat Values, terrain and battle factors, the pre-combat barrage
//!   and counter-battery, the Combat Results Table, losses and supplemental
//!   effects, what happens next, retreats and attrition.
//! - [`partisans`]: resistance cells (FYOW 34): recruits, explosives, radios,
//!   the monthly activity throw, attacks and observation missions, battle and
//!   retreat, communications, listening units, anti-partisan sweeps, agents.
//!
//! Every step that throws or decides returns a
//! [`warbound_rules::event::RuleEvent`] of kind `PaperBattle` or `Partisans`.
//!
//! [`dunnigan`]: crate::paper::dunnigan
//! [`partisans`]: crate::paper::partisans

use std::fmt;

pub mod dunnigan;
pub mod partisans;

/// Bad input to a paper-battle or partisan rule: the section it breaks and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaperError {
    /// The FYOW section whose rule the input breaks, e.g. "33.7.2 (iv)".
    pub section: &'static str,
    pub message: String,
}

impl PaperError {
    pub(crate) fn new(section: &'static str, message: impl Into<String>) -> Self {
        Self { section, message: message.into() }
    }
}

impl fmt::Display for PaperError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FYOW {}: {}", self.section, self.message)
    }
}

impl std::error::Error for PaperError {}
