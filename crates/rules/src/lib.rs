//! Engine-free rules of *Heroes All* and *Fight Your Own Battles*.
//!
//! Tables, dice, modifiers and outcomes as plain Rust: no Bevy, no global
//! RNG. Every random outcome comes from a [`dice::Dice`] passed in, seeded,
//! so a battle replays exactly. Distances are in inches, the unit every rule
//! uses; one world unit on the 3D table is one inch.

pub mod data;
pub mod dice;
pub mod scenario;
