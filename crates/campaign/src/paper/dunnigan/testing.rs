//! Forces for the Dunnigan tests.

use super::force::Force;

pub(super) fn quiet(name: &str, value: u32) -> Force {
    Force::new(name, value)
}
