//! Seeded dice. Every throw in a battle comes from one [`Dice`], so a battle
//! started from the same seed replays throw for throw.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

    /// One die of `sides` faces, 1..=sides.
    pub fn die(&mut self, sides: u8) -> u8 {
        assert!(sides >= 2, "a die has at least two faces");
        self.thrown += 1;
        self.rng.random_range(1..=sides)
    }

    /// One D6.
    pub fn d6(&mut self) -> u8 {
        self.die(6)
    }

    /// One D10 read 1..=10: the face marked 0 counts as 10
    /// (*Fight Your Own Wars*, glossary "D10 scores": a thrown "0" counts as "10";
    /// rules that read the 0 otherwise, such as the paratroop landing grid, say so).
    pub fn d10(&mut self) -> u8 {
        self.die(10)
    }

    /// `n` dice of `sides` faces.
    pub fn throw(&mut self, n: usize, sides: u8) -> Vec<u8> {
        (0..n).map(|_| self.die(sides)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
