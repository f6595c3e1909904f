//! The Combat Results Table (FYOW 33.7.2 (v)): its results, its columns by
//! differential, and the throw a session records.

use serde::{Deserialize, Serialize};

use super::common::Side;

/// A result of the Combat Results Table (FYOW 33.7.2 (v)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CrtResult {
    /// No result.
    Nr,
    Ar,
    Ar2,
    Ar3,
    Dr,
    Dr2,
    Dr3,
    Dr4,
    Dr5,
}

impl CrtResult {
    /// The side obliged to retreat; none on NR.
    pub fn loser(self) -> Option<Side> {
        match self {
            CrtResult::Nr => None,
            CrtResult::Ar | CrtResult::Ar2 | CrtResult::Ar3 => Some(Side::Attacker),
            _ => Some(Side::Defender),
        }
    }

    /// 0 for NR, 1 for AR/DR, 2 for AR2/DR2 … 5 for DR5.
    pub fn level(self) -> usize {
        match self {
            CrtResult::Nr => 0,
            CrtResult::Ar | CrtResult::Dr => 1,
            CrtResult::Ar2 | CrtResult::Dr2 => 2,
            CrtResult::Ar3 | CrtResult::Dr3 => 3,
            CrtResult::Dr4 => 4,
            CrtResult::Dr5 => 5,
        }
    }
}

/// The CRT's column headings: a column applies when the differential is above
/// its figure, in tenths ("<1", >1.3, >1.6, >1.9, >2.2, >2.5, >2.8, >3.1, >3.7, >4.3, >5).
///
/// Reading (FYOW 33.7.2 (v)): no column is printed for 1.0 to 1.3. Read as a
/// continuous scale, every column runs from its heading up to the next one,
/// so the first column ("<1") covers every differential up to and including
/// 1.3 and a differential of exactly 1.6 is still in the ">1.3" column.
const COLUMN_ABOVE_TENTHS: [u64; 10] = [13, 16, 19, 22, 25, 28, 31, 37, 43, 50];

/// The column labels, for the log.
pub(super) const COLUMN_LABELS: [&str; 11] =
    ["<1 (to 1.3)", ">1.3", ">1.6", ">1.9", ">2.2", ">2.5", ">2.8", ">3.1", ">3.7", ">4.3", ">5"];

/// The Combat Results Table (FYOW 33.7.2 (v)), row for row: D10 10 down to 1,
/// columns as [`COLUMN_LABELS`].
pub(super) fn crt(row: u8, column: usize) -> CrtResult {
    use CrtResult::*;
    const TABLE: [[CrtResult; 11]; 10] = [
        /* 10 */ [Dr, Dr, Dr, Dr2, Dr2, Dr2, Dr2, Dr3, Dr5, Dr5, Dr5],
        /*  9 */ [Nr, Dr, Dr, Dr2, Dr2, Dr2, Dr2, Dr3, Dr4, Dr5, Dr5],
        /*  8 */ [Nr, Nr, Dr, Dr, Dr2, Dr2, Dr2, Dr3, Dr3, Dr4, Dr5],
        /*  7 */ [Ar, Nr, Nr, Dr, Dr, Dr2, Dr2, Dr2, Dr3, Dr3, Dr4],
        /*  6 */ [Ar, Ar, Nr, Nr, Dr, Dr, Dr2, Dr2, Dr2, Dr3, Dr3],
        /*  5 */ [Ar, Ar, Ar, Nr, Nr, Dr, Dr, Dr2, Dr2, Dr2, Dr3],
        /*  4 */ [Ar, Ar, Ar, Ar, Nr, Nr, Dr, Dr, Dr2, Dr2, Dr2],
        /*  3 */ [Ar, Ar, Ar, Ar, Ar, Nr, Dr, Dr, Dr, Dr2, Dr2],
        /*  2 */ [Ar2, Ar, Ar, Ar, Ar, Ar, Nr, Dr, Dr, Dr, Dr2],
        /*  1 */ [Ar3, Ar2, Ar, Ar, Ar, Ar, Ar, Nr, Dr, Dr, Dr],
    ];
    TABLE[usize::from(10 - row)][column]
}

/// The CRT column of an attack of Combat Value `a` on `d` (both above 0), before shifts.
pub(super) fn base_column(a: u32, d: u32) -> usize {
    COLUMN_ABOVE_TENTHS.iter().filter(|&&t| 10 * u64::from(a) > t * u64::from(d)).count()
}

/// The CRT throw of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrtThrow {
    /// 0 = "<1" … 10 = ">5", after shifts.
    pub column: usize,
    pub d10: u8,
    /// Added for right shifts beyond the last column and for every 5 (or part) above 5.
    pub added: u32,
    /// Commander and activation modifiers (33.7.2 (vii)).
    pub modifier: i32,
    /// The row read, 1..=10.
    pub row: u8,
    pub result: CrtResult,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crt_table_corners_and_rows() {
        assert_eq!(crt(10, 0), CrtResult::Dr);
        assert_eq!(crt(1, 0), CrtResult::Ar3);
        assert_eq!(crt(10, 10), CrtResult::Dr5);
        assert_eq!(crt(1, 10), CrtResult::Dr);
        assert_eq!(crt(1, 7), CrtResult::Nr);
        assert_eq!(crt(9, 8), CrtResult::Dr4);
    }

    #[test]
    fn column_reading_fills_the_gap_up_to_1_3() {
        assert_eq!(base_column(10, 10), 0, "1.0 is in the first column");
        assert_eq!(base_column(13, 10), 0, "1.3 is not above 1.3");
        assert_eq!(base_column(14, 10), 1);
        assert_eq!(base_column(16, 10), 1, "exactly 1.6 stays in >1.3");
        assert_eq!(base_column(17, 10), 2);
        assert_eq!(base_column(50, 10), 9, "exactly 5 is >4.3");
        assert_eq!(base_column(51, 10), 10);
        assert_eq!(base_column(5, 10), 0);
    }
}
