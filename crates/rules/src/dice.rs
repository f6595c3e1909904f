//! Dice. Every throw in a battle comes from one [`Roll`] source passed in:
//! [`Dice`] (a seeded ChaCha stream, so a battle replays throw for throw) or
//! [`Scripted`] (faces given in advance, for tests and worked examples).

use std::collections::VecDeque;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// One die thrown: how many faces it had and the face that came up (as read
/// by the rule: a D10's 0 face is recorded as 10, see [`Roll::d10`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thrown {
    pub sides: u8,
    pub face: u8,
}

/// A source of die faces. Only [`Roll::face`] is required; every die of the
/// books is built on it.
pub trait Roll {
    /// One die of `sides` faces, 1..=sides.
    fn face(&mut self, sides: u8) -> u8;

    /// The Order Die (a D3 made from a D6 marked 1,1,2,2,3,3; FYOB "Order Dice").
    fn d3(&mut self) -> u8 {
        self.face(6).div_ceil(2)
    }
    fn d4(&mut self) -> u8 {
        self.face(4)
    }
    fn d6(&mut self) -> u8 {
        self.face(6)
    }
    /// The D8 read as a compass point (1 = N, 2 = NE … 8 = NW) where a rule scatters.
    fn d8(&mut self) -> u8 {
        self.face(8)
    }
    /// A D10 whose face marked 0 counts as 10 in totals
    /// (*Fight Your Own Wars*, glossary "D10 scores": a thrown "0" counts as "10").
    /// Rules that read the 0 face itself (the paratroop landing grid) use [`Roll::d10_face`].
    fn d10(&mut self) -> u8 {
        self.face(10)
    }
    /// A D10 read as printed, 0..=9.
    fn d10_face(&mut self) -> u8 {
        self.face(10) % 10
    }
    fn d12(&mut self) -> u8 {
        self.face(12)
    }
    /// The average die, marked 2,3,3,4,4,5.
    fn davg(&mut self) -> u8 {
        [2, 3, 3, 4, 4, 5][usize::from(self.face(6) - 1)]
    }
    /// `n` dice of `sides` faces.
    fn throw(&mut self, n: usize, sides: u8) -> Vec<u8> {
        (0..n).map(|_| self.face(sides)).collect()
    }
}

/// The battle's dice: a ChaCha stream from a 64-bit seed.
#[derive(Debug, Clone)]
pub struct Dice {
    seed: u64,
    rng: ChaCha8Rng,
    thrown: u64,
}

impl Dice {
    pub fn new(seed: u64) -> Self {
        Self { seed, rng: ChaCha8Rng::seed_from_u64(seed), thrown: 0 }
    }

    /// The seed this stream started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Dice thrown so far (for replay and the battle log).
    pub fn thrown(&self) -> u64 {
        self.thrown
    }

    /// Where the stream stands: stored in a save, it resumes exactly.
    pub fn state(&self) -> DiceState {
        let pos = self.rng.get_word_pos();
        DiceState { seed: self.seed, word_pos: [(pos >> 64) as u64, pos as u64], thrown: self.thrown }
    }

    /// The stream resumed where `state` left it.
    pub fn from_state(state: DiceState) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(state.seed);
        rng.set_word_pos((u128::from(state.word_pos[0]) << 64) | u128::from(state.word_pos[1]));
        Self { seed: state.seed, rng, thrown: state.thrown }
    }
}

/// A dice stream's place, as a save stores it: its seed, the ChaCha word it
/// has reached (high and low halves) and the dice thrown so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceState {
    pub seed: u64,
    pub word_pos: [u64; 2],
    pub thrown: u64,
}

impl Roll for Dice {
    fn face(&mut self, sides: u8) -> u8 {
        assert!(sides >= 2, "a die has at least two faces");
        self.thrown += 1;
        self.rng.random_range(1..=sides)
    }
}

/// Faces given in advance, taken in order: for tests and the books' worked
/// examples. Running out, or a face that cannot be on the die asked for, is a
/// bug in the test and panics with the die asked for.
#[derive(Debug, Clone, Default)]
pub struct Scripted(VecDeque<u8>);

impl Scripted {
    pub fn new(faces: impl IntoIterator<Item = u8>) -> Self {
        Self(faces.into_iter().collect())
    }

    /// Faces not yet used.
    pub fn remaining(&self) -> usize {
        self.0.len()
    }
}

impl Roll for Scripted {
    fn face(&mut self, sides: u8) -> u8 {
        let face = self.0.pop_front().unwrap_or_else(|| panic!("scripted dice ran out (a D{sides} was asked for)"));
        assert!((1..=sides).contains(&face), "scripted face {face} cannot be on a D{sides}");
        face
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restored_stream_throws_what_the_original_would() {
        let mut a = Dice::new(7);
        for k in 0..37 {
            a.face(if k % 3 == 0 { 10 } else { 6 });
        }
        let text = ron::to_string(&a.state()).unwrap();
        let mut b = Dice::from_state(ron::from_str(&text).unwrap());
        assert_eq!((b.seed(), b.thrown()), (7, 37));
        assert_eq!(a.throw(50, 6), b.throw(50, 6));
        assert_eq!(a.throw(20, 10), b.throw(20, 10));
    }

    #[test]
    fn same_seed_replays() {
        let mut a = Dice::new(42);
        let mut b = Dice::new(42);
        assert_eq!(a.throw(50, 6), b.throw(50, 6));
        assert_eq!(a.thrown(), 50);
    }

    #[test]
    fn different_seeds_differ() {
        assert_ne!(Dice::new(1).throw(20, 10), Dice::new(2).throw(20, 10));
    }

    #[test]
    fn faces_stay_in_range_and_all_appear() {
        let mut dice = Dice::new(7);
        let mut seen = [0u32; 11];
        for _ in 0..2000 {
            let d = dice.d10();
            assert!((1..=10).contains(&d));
            seen[d as usize] += 1;
        }
        assert!(seen[1..].iter().all(|&n| n > 100), "{seen:?}");
        let d6 = dice.throw(600, 6);
        assert!(d6.iter().all(|&d| (1..=6).contains(&d)));
        assert!((1..=6).all(|f| d6.contains(&f)));
    }

    #[test]
    fn special_dice_read_their_faces() {
        let mut s = Scripted::new([1, 2, 3, 4, 5, 6]);
        assert_eq!((0..6).map(|_| s.d3()).collect::<Vec<_>>(), [1, 1, 2, 2, 3, 3]);
        let mut s = Scripted::new([1, 2, 3, 4, 5, 6]);
        assert_eq!((0..6).map(|_| s.davg()).collect::<Vec<_>>(), [2, 3, 3, 4, 4, 5]);
        let mut s = Scripted::new([10, 10, 3]);
        assert_eq!(s.d10(), 10, "a 0 counts as 10 in totals");
        assert_eq!(s.d10_face(), 0, "the grid reads the 0 face");
        assert_eq!(s.d10_face(), 3);
        assert_eq!(s.remaining(), 0);
    }

    #[test]
    #[should_panic(expected = "ran out")]
    fn scripted_dice_say_when_they_run_out() {
        Scripted::new([]).d6();
    }
}
