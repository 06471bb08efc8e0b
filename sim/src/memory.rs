//! An in-order memory model for test-bench drivers of units with a request/response memory port
//! (unit-agnostic: the response payload is the driver's). Each request is answered after a random
//! latency in `min_latency..=max_latency` cycles, in order; in any cycle the memory may refuse a
//! request or withhold the response at the front with probability `stall_permille`‰.

use crate::SplitMix64;
use std::collections::VecDeque;

/// Outstanding requests: when each may be answered, and its response.
#[derive(Clone, Debug)]
pub struct LatencyMemory<D> {
    min_latency: u64,
    max_latency: u64,
    stall_permille: u32,
    queue: VecDeque<(u64, D)>,
}

impl<D> LatencyMemory<D> {
    /// An empty memory; an error if the minimum latency exceeds the maximum.
    pub fn new(min_latency: u64, max_latency: u64, stall_permille: u32) -> Result<Self, String> {
        if min_latency > max_latency {
            return Err(format!(
                "memory latency {min_latency}…{max_latency}: the minimum exceeds the maximum"
            ));
        }
        Ok(Self {
            min_latency,
            max_latency,
            stall_permille,
            queue: VecDeque::new(),
        })
    }

    /// This cycle's draws, in a fixed order: whether a request would be accepted, then whether the
    /// front response is offered (drawn only when it is due).
    pub fn draw(&self, cycle: u64, rng: &mut SplitMix64) -> (bool, bool) {
        let req_ready = !rng.permille(self.stall_permille);
        let resp_valid =
            self.queue.front().is_some_and(|p| p.0 <= cycle) && !rng.permille(self.stall_permille);
        (req_ready, resp_valid)
    }

    /// The response at the front (answered or not yet due).
    pub fn front(&self) -> Option<&D> {
        self.queue.front().map(|p| &p.1)
    }

    /// Takes a request accepted in `cycle`, to be answered with `data`.
    pub fn request(&mut self, cycle: u64, rng: &mut SplitMix64, data: D) {
        let lat = self.min_latency + rng.next_u64() % (self.max_latency - self.min_latency + 1);
        self.queue.push_back((cycle + lat, data));
    }

    /// Removes the front response (the unit took it).
    pub fn pop(&mut self) {
        self.queue.pop_front();
    }

    /// Outstanding requests.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// No request outstanding.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_order_within_the_latency_range() {
        let mut rng = SplitMix64::new(1);
        let mut m = LatencyMemory::new(3, 5, 0).expect("valid");
        m.request(10, &mut rng, 'a');
        m.request(11, &mut rng, 'b');
        assert_eq!(m.draw(12, &mut rng), (true, false), "not due before 13");
        let due = (13..=15)
            .find(|&c| m.draw(c, &mut rng).1)
            .expect("due by 15");
        assert!((13..=15).contains(&due));
        assert_eq!(m.front(), Some(&'a'));
        m.pop();
        assert_eq!(m.front(), Some(&'b'));
        assert_eq!(m.len(), 1);
        assert!(LatencyMemory::<u8>::new(5, 4, 0).is_err());
    }
}
