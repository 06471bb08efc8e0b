//! Drawing stimulus values from the engine's SplitMix64: the helpers every unit's `stim.rs` uses,
//! written once. A generator implements [`Draw::rng`] and gets the rest.

use texpix_sim::SplitMix64;

/// Random draws for stimulus generators (deterministic for a seed).
pub trait Draw {
    /// The generator's random source.
    fn rng(&mut self) -> &mut SplitMix64;

    /// 64 random bits.
    fn next(&mut self) -> u64 {
        self.rng().next_u64()
    }

    /// Uniform in `lo..=hi` (modulo bias accepted).
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }

    /// One of `xs`, uniformly.
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}
