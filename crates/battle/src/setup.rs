//! The value a battle starts from and the value it ends with, as the rules
//! crate defines them for the battle and the campaign alike.

pub use warbound_rules::handoff::*;
