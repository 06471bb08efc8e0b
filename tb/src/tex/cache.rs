//! The texel cache's behaviour (what the RTL's cache does, line by line): 64 sets × 4 ways of
//! 64-byte lines (16 KiB), set = line mod 64, tag = line / 64; a miss fills the first invalid way,
//! else the tree pseudo-LRU victim; allocate on miss; flush invalidates every line.
//!
//! Tree pseudo-LRU, three bits per set: b0 picks the half (0: ways 0–1, 1: ways 2–3), b1 the
//! way in the low half (0: way 0), b2 in the high half (0: way 2). An access to way w points the
//! bits away from it: w < 2 ⇒ b0 = 1, b1 = (w == 0); w ≥ 2 ⇒ b0 = 0, b2 = (w == 2).

use super::CacheConfig;

/// Sets.
pub const SETS: usize = 64;
/// Ways per set.
pub const WAYS: usize = 4;

/// Cache state and counters.
#[derive(Clone, Debug)]
pub struct Cache {
    pub cfg: CacheConfig,
    /// Tag per set and way, `None` when invalid.
    tags: [[Option<u64>; WAYS]; SETS],
    /// Pseudo-LRU bits (b0 | b1 << 1 | b2 << 2) per set.
    plru: [u8; SETS],
    pub hits: u64,
    pub misses: u64,
}

impl Default for Cache {
    fn default() -> Self {
        Self::new(CacheConfig::default())
    }
}

/// The pseudo-LRU victim of bits `p`.
pub fn plru_victim(p: u8) -> usize {
    if p & 1 == 0 {
        usize::from(p >> 1 & 1)
    } else {
        2 + usize::from(p >> 2 & 1)
    }
}

/// The pseudo-LRU bits after an access to way `w`.
pub fn plru_touch(p: u8, w: usize) -> u8 {
    if w < 2 {
        (p & 0b100) | 1 | u8::from(w == 0) << 1
    } else {
        (p & 0b010) | u8::from(w == 2) << 2
    }
}

impl Cache {
    /// An empty cache.
    pub fn new(cfg: CacheConfig) -> Self {
        Self {
            cfg,
            tags: [[None; WAYS]; SETS],
            plru: [0; SETS],
            hits: 0,
            misses: 0,
        }
    }

    /// Invalidates every line (counters are kept).
    pub fn flush(&mut self) {
        self.tags = [[None; WAYS]; SETS];
        self.plru = [0; SETS];
    }

    /// An access that bypasses the cache (`lookup_uncached`): counted as a miss, nothing looked
    /// up or allocated.
    pub fn bypass(&mut self) {
        self.misses += 1;
    }

    /// Looks up `line` (byte address / 64): true on a hit. A miss allocates when enabled.
    pub fn access(&mut self, line: u64) -> bool {
        let set = (line % SETS as u64) as usize;
        let tag = line / SETS as u64;
        if !self.cfg.enabled {
            self.misses += 1;
            return false;
        }
        let ways = &mut self.tags[set];
        if let Some(w) = ways.iter().position(|&t| t == Some(tag)) {
            self.plru[set] = plru_touch(self.plru[set], w);
            self.hits += 1;
            return true;
        }
        let w = ways
            .iter()
            .position(Option::is_none)
            .unwrap_or_else(|| plru_victim(self.plru[set]));
        ways[w] = Some(tag);
        self.plru[set] = plru_touch(self.plru[set], w);
        self.misses += 1;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plru_evicts_the_least_recent_of_a_sweep() {
        let mut c = Cache::default();
        for k in 0..4 {
            assert!(!c.access(k * 64));
        }
        // Touch 1, 2, 3 again: way 0 is the pseudo-LRU victim.
        for k in 1..4 {
            assert!(c.access(k * 64));
        }
        assert!(!c.access(4 * 64));
        assert!(!c.access(0));
        assert!(c.access(4 * 64));
        assert_eq!((c.hits, c.misses), (4, 6));
    }

    #[test]
    fn disabled_cache_always_misses() {
        let mut c = Cache::new(CacheConfig { enabled: false });
        assert!(!c.access(5));
        assert!(!c.access(5));
    }
}
