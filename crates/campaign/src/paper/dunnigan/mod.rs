//! The Dunnigan rules for "paper battles" (FYOW 33).
//!
//! One Combat Session is resolved by [`resolve_combat_session`]: the optional
//! pre-combat barrage and counter-battery fire (33.7.2 (iv)), the Combat
//! Results Table with its column shifts and high differentials (v)–(vii), the
//! losses and Strategic Condition of each side (ix), the supplemental effects
//! on machines, ammunition, engineers' equipment and buildings, and what
//! happens next ([`NextStep`]: a further Combat Session after NR, a retreat in
//! good order or disarray, a force destroyed). [`Situation::continue_after_nr`]
//! and [`Situation::second_attack`] build the next session's input;
//! [`retreat_into`] settles retreats into trouble (33.8) and
//! [`allocate_losses`] checks the attrition a player books against the ORBAT
//! (33.10).
//!
//! Values are points (the cost of the force); the Combat Value is points ÷ 10
//! (33.2). Losses are taken from the points value.

mod attrition;
mod common;
mod crt;
mod force;
mod losses;
mod retreat;
mod session;
mod situation;
mod supplemental;
#[cfg(test)]
mod testing;

pub use attrition::{AssetLoss, Attrition, allocate_losses};
pub use common::{Side, combat_value};
pub use crt::{CrtResult, CrtThrow};
pub use force::{Competency, Force};
pub use losses::{LossCell, Role, StrategicCondition};
pub use retreat::{RetreatDestination, RetreatFate, RetreatOrder, bystander_retreats, retreat_into};
pub use session::{CombatSession, NextStep, SideOutcome, resolve_combat_session};
pub use situation::{Attitude, Engagement, ExtraShift, Situation, Terrain};
pub use supplemental::{AmmoUsed, Supplemental};
