//! Engine-free rules of *Fight Your Own Wars*: the solo campaign between battles.
//!
//! Same style as `warbound_rules`: plain Rust, no Bevy, every random outcome
//! from a [`warbound_rules::dice::Roll`] passed in, every rule step leaving a
//! [`warbound_rules::event::RuleEvent`] that names its book and section
//! (`docs/campaign-log.md`). The program takes the Umpire's duties; the
//! player only commands.

/// Game basics and commanders (FYOW 1–12): the calendar, battlegroups,
/// fractions, pickets, game flow, commanders, decisions, orders, the VOR,
/// strategic conditions.
pub mod army;

/// The campaign map (FYOW 13–19): Map Boards and links, movement tests,
/// attitudes, detection, information gathering, order of march, decoys.
pub mod map;

/// Logistics and work (FYOW 20–24, 31): supply, replenishment, carrying,
/// repairs, loading, work and tasks.
pub mod supply;

/// Weather (FYOW 25–27) and chance cards (FYOW 32).
pub mod weather;

/// Aircraft at campaign level (FYOW 28).
pub mod air;

/// Boats and trains (FYOW 29–30).
pub mod naval;

/// Paper battles and partisans (FYOW 33–34): the Dunnigan rules, partisans.
pub mod paper;

/// The campaign played (FYOW 1–5 tying the rest together): the campaign
/// file, the day's duties in order, Auto commanders, paper battles.
pub mod play;

/// Map Boards become games tables (FYOW 13.1): generated from the board or
/// authored, for the battles fought on them.
pub mod table;
