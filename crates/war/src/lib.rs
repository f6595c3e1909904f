//! *Fight Your Own Wars* with its engagements fought on the table: the
//! campaign (`warbound_campaign`, engine-free) hands each engagement to the
//! battle (`warbound_battle`, no renderer) through [`TableRunner`], four
//! bounds a campaign session, and takes the result back. Played paper,
//! table or both ([`Battles`]); the campaign and any battle in progress
//! saved in one versioned file ([`save`]); the two systems compared over
//! many seeds ([`compare`]).

pub mod compare;
pub mod report;
pub mod run;
pub mod save;
pub mod shipped;
pub mod tabletop;

pub use run::{Battles, War};
pub use tabletop::TableRunner;
