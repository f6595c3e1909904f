//! Movement (*Heroes All*, "Movement", "Movement Table", "Move distance
//! modifiers", "Movement modification", "Cavalry", "Rivers", "Overwatch",
//! "Guards", "Night fighting", "Goliath"; *FYOB* "Order Dice", "Concealment",
//! "Results of Momentum Tests"): the Movement Table as data, the pips taken
//! off each die, and how far an element may go along its route this bound.
//!
//! Geometry is not here: the caller gives the route as stretches of terrain
//! with their lengths in inches, and gets back the distance along it the
//! element may move.
//!
//! The Movement Table and its rows (`table`); what an element moves as
//! (`class`); the ground of the route (`route`); what a move is asked to do
//! (`request`) and why it may be refused (`error`); the move worked out
//! before the dice (`plan`) and thrown (`throw`); guards (`guards`); and a
//! vehicle's moving or stationary attitude (`attitude`).

mod attitude;
mod class;
mod error;
mod guards;
mod plan;
mod request;
mod route;
mod table;
mod throw;

pub use attitude::{Attitude, LastTurn, attitude_at_start};
pub use class::{Drive, MoveClass};
pub use error::{DoubleBar, MoveError};
pub use guards::{Compass, Guard, face_guard};
pub use plan::{MovePlan, PipCause, plan};
pub use request::{Concealment, MoveMode, MoveRequest, Mover, Pace};
pub use route::{FordCondition, Stretch, Terrain};
pub use table::{AFV_BUILT_UP_DICE, DAMAGED_DICE, ELITE_STEALTH_DICE, MOVEMENT_TABLE, Row, STEALTH_DICE, TableRow};
pub use throw::{GOLIATH_BREAKS_DOWN_ON, Move, TRACK_LOST_ON, move_element};
