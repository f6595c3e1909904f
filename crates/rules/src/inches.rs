//! A distance on the table in inches, the one unit both books measure in
//! ("within 9 inches", "move 6 inches"). Distances that cross from one rule
//! to another, or from the rules to the battle, are [`Inches`], so a distance
//! cannot be taken for a count, a height in storeys or a distance in feet.
//!
//! The books' figures are written as plain numbers: an `Inches` compares
//! with a bare number of inches (`d <= 9.0`), and scales by one (`d * 0.5`);
//! sums and differences are of two distances.

use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, Sub};

use serde::{Deserialize, Serialize};

/// A distance on the table, inches (serialized as the bare number).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Inches(pub f32);

impl Inches {
    pub const ZERO: Inches = Inches(0.0);

    /// The number of inches.
    pub fn get(self) -> f32 {
        self.0
    }

    /// Orders distances totally, as `f32::total_cmp` (for sorting by distance).
    pub fn total_cmp(&self, other: &Inches) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }

    /// The shorter of two distances.
    pub fn min(self, other: Inches) -> Inches {
        Inches(self.0.min(other.0))
    }

    /// The longer of two distances.
    pub fn max(self, other: Inches) -> Inches {
        Inches(self.0.max(other.0))
    }
}

impl fmt::Display for Inches {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match f.precision() {
            Some(p) => write!(f, "{:.*}\"", p, self.0),
            None => write!(f, "{}\"", self.0),
        }
    }
}

impl PartialEq<f32> for Inches {
    fn eq(&self, other: &f32) -> bool {
        self.0 == *other
    }
}

impl PartialOrd<f32> for Inches {
    fn partial_cmp(&self, other: &f32) -> Option<std::cmp::Ordering> {
        self.0.partial_cmp(other)
    }
}

impl PartialEq<Inches> for f32 {
    fn eq(&self, other: &Inches) -> bool {
        *self == other.0
    }
}

impl PartialOrd<Inches> for f32 {
    fn partial_cmp(&self, other: &Inches) -> Option<std::cmp::Ordering> {
        self.partial_cmp(&other.0)
    }
}

impl Add for Inches {
    type Output = Inches;
    fn add(self, other: Inches) -> Inches {
        Inches(self.0 + other.0)
    }
}

impl AddAssign for Inches {
    fn add_assign(&mut self, other: Inches) {
        self.0 += other.0;
    }
}

impl Sub for Inches {
    type Output = Inches;
    fn sub(self, other: Inches) -> Inches {
        Inches(self.0 - other.0)
    }
}

impl Mul<f32> for Inches {
    type Output = Inches;
    fn mul(self, by: f32) -> Inches {
        Inches(self.0 * by)
    }
}

impl Div<f32> for Inches {
    type Output = Inches;
    fn div(self, by: f32) -> Inches {
        Inches(self.0 / by)
    }
}

/// How many times one distance goes into another.
impl Div for Inches {
    type Output = f32;
    fn div(self, by: Inches) -> f32 {
        self.0 / by.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_distance_reads_and_compares_as_the_books_write_it() {
        let d = Inches(7.5);
        assert!(d <= 9.0 && d > 6.0 && 9.0 > d);
        assert_eq!(d + Inches(1.5), 9.0);
        assert_eq!(d * 2.0, Inches(15.0));
        assert_eq!(Inches(12.0) / Inches(4.0), 3.0);
        assert_eq!(format!("{d}"), "7.5\"");
        assert_eq!(format!("{:.0}", Inches(7.6)), "8\"");
        assert_eq!(serde_json::to_string(&d).unwrap(), "7.5");
    }
}
