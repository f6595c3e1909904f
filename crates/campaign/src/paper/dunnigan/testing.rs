//! Forces for the Dunnigan tests.

use super::Force;

pub(super) fn quiet(name: &str, value: u32) -> Force {
    Force::new(name, value)
}
