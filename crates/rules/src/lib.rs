//! Engine-free rules of *Heroes All* and *Fight Your Own Battles*.
//!
//! Tables, dice, modifiers and outcomes as plain Rust: no Bevy, no global
//! RNG. Every random outcome comes from a [`dice::Roll`] passed in, seeded,
//! so a battle replays exactly, and every rule step leaves an
//! [`event::RuleEvent`] naming its book and section. Distances are in
//! inches, the unit every rule uses; one world unit on the 3D table is one inch.

pub mod codex;
pub mod data;
pub mod dice;
pub mod event;
pub mod geometry;
mod halves;
pub mod handoff;
pub mod inches;
pub mod narrate;
pub mod scenario;
pub mod terrain;

// The forces on the table: elements, officers, teams, transport.
pub mod forces;

// Fight Your Own Battles: who acts, when, and how willingly.
pub mod command;
pub mod concealment;
pub mod momentum;
pub mod officer;
pub mod opc;
pub mod order_dice;
pub mod strategic;
pub mod turn;

// Heroes All: the day, moving, seeing and shooting.
pub mod day;
pub mod effects;
pub mod facing;
pub mod fire_tests;
pub mod firing;
pub mod movement;
pub mod observation;

// Heroes All: close combat, the built-up area, the night.
pub mod assault;
pub mod buildings;
pub mod night;

// Heroes All: engineers, explosives, mines, loads, airborne landings.
pub mod airborne;
pub mod engineers;
pub mod explosives;
pub mod loads;
pub mod mines;

// Heroes All: aircraft, boats, supply, the guns behind the table.
pub mod aircraft;
pub mod artillery;
pub mod boats;
pub mod logistics;
