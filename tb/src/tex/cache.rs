//! The texel cache's behaviour (what the RTL's cache does, line by line): 64 sets × 4 ways of
//! 64-byte lines (16 KiB) in eight banks of 8 sets; line l lives in bank [`bank`]`(l)` (the XOR
//! of l's 3-bit groups), set l[5:3] of that bank, tag l / 64; a miss fills the first invalid way,
//! else the tree pseudo-LRU victim; allocate on miss; flush invalidates every line. Sets of
//! different banks never interact, so any order of accesses that keeps each bank's order gives
//! the same hits and misses.
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

/// Banks.
pub const BANKS: usize = 8;

/// The bank of line `line`: the XOR of all its 3-bit groups (bits 2:0, 5:3, 8:6, …).
pub fn bank(line: u64) -> usize {
    let mut x = line;
    let mut b = 0;
    while x != 0 {
        b ^= x & 7;
        x >>= 3;
    }
    b as usize
}

/// The set of line `line` (0…63): 8 × bank + line bits 5:3.
pub fn set_of(line: u64) -> usize {
    8 * bank(line) + (line >> 3 & 7) as usize
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
        let set = set_of(line);
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

    /// The k-th line of bank 0, set 0 (tag k).
    fn set0(k: u64) -> u64 {
        let l = k << 6;
        l | bank(l) as u64
    }

    #[test]
    fn plru_evicts_the_least_recent_of_a_sweep() {
        let mut c = Cache::default();
        assert!((0..5).all(|k| set_of(set0(k)) == 0));
        for k in 0..4 {
            assert!(!c.access(set0(k)));
        }
        // Touch 1, 2, 3 again: way 0 is the pseudo-LRU victim.
        for k in 1..4 {
            assert!(c.access(set0(k)));
        }
        assert!(!c.access(set0(4)));
        assert!(!c.access(set0(0)));
        assert!(c.access(set0(4)));
        assert_eq!((c.hits, c.misses), (4, 6));
    }

    #[test]
    fn eight_aligned_lines_and_power_of_two_strides_change_bank() {
        for base in [0u64, 8, 0x1234 << 3, (1 << 41) - 8] {
            let mut seen: Vec<usize> = (0..8).map(|k| bank(base + k)).collect();
            seen.sort();
            assert_eq!(seen, [0, 1, 2, 3, 4, 5, 6, 7], "{base:#x}");
        }
        // Adding 2^k without a carry flips one bit of one group: another bank, another set
        // index only when 3 <= k < 6.
        for k in 0..42 {
            assert_ne!(bank(0), bank(1 << k), "{k}");
            assert_eq!(
                set_of(1 << k) % 8 == set_of(0) % 8,
                !(3..6).contains(&k),
                "{k}"
            );
        }
        // Every (bank, set, tag) is one line's: the 64 sets of a 64-line block are distinct.
        let mut sets: Vec<usize> = (0..64).map(|l| set_of(0x40 * 7 + l)).collect();
        sets.sort();
        sets.dedup();
        assert_eq!(sets.len(), 64);
    }

    #[test]
    fn the_rtl_requesters_bank_rule_is_this_one() {
        // `line_bank` is what a requester of the RTL cache computes; the golden rule is here.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for k in 0..42 {
            assert_eq!(texpix_rtl::tex::line_bank(1 << k), bank(1 << k), "{k}");
        }
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let line = x & ((1 << 42) - 1);
            assert_eq!(texpix_rtl::tex::line_bank(line), bank(line), "{line:#x}");
        }
    }

    #[test]
    fn lookup_rounds_take_one_line_per_bank_in_bank_order() {
        // Banks: 0 → 0, 1 → 1, 8 → 1, 9 → 0, 2 → 2, 16 → 2, 7 → 7, 63 → 0.
        assert_eq!(
            [0, 1, 8, 9, 2, 16, 7, 63].map(bank),
            [0, 1, 1, 0, 2, 2, 7, 0]
        );
        assert_eq!(
            crate::tex::lookup_rounds(&[0, 1, 8, 9, 2, 16, 7, 63]),
            vec![vec![0, 1, 2, 7], vec![9, 8, 16], vec![63]]
        );
        assert!(crate::tex::lookup_rounds(&[]).is_empty());
    }

    #[test]
    fn disabled_cache_always_misses() {
        let mut c = Cache::new(CacheConfig { enabled: false });
        assert!(!c.access(5));
        assert!(!c.access(5));
    }
}
