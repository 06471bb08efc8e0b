//! The texel cache: 16 KiB of 64-byte lines in four banks that look up one line each per clock,
//! 4-way set associative, tree pseudo-LRU, allocate on miss, one memory request at a time.
//!
//! A line address l (byte address / 64, 42 bits) lives in bank b(l) = the XOR of l's 21 two-bit
//! groups (l[1:0] ^ l[3:2] ^ … ^ l[41:40]), set l[5:2] of that bank's 16, tag l[41:6]. The 64
//! (bank, set) pairs are the cache's 64 sets: lines that agree in bits 2–41 fall in four different
//! banks, so four neighbouring lines, a row's next line and (for power-of-two pitches) the next
//! row's line are looked up in one clock. The bank is the requester's to compute ([`line_bank`]
//! states the rule; the texture unit computes it once per tap).
//!
//! [`CacheBank`] is one bank; [`TexelCache`] holds four and the memory arbiter.

use rust_hdl::prelude::*;

/// One bank: 16 sets × 4 ways of 64-byte lines, set = line bits 5:2, tag = line bits 41:6; a miss
/// fills the first invalid way, else the pseudo-LRU victim (b0 picks the half, 0: ways 0–1; b1 the
/// way in the low half, 0: way 0; b2 in the high half, 0: way 2; an access to way w points them
/// away from it). `flush` invalidates every line in one cycle (valid bits are flip-flops; tags,
/// data and the pseudo-LRU bits are RAMs — stale pseudo-LRU bits never matter, because a set only
/// consults them once all four ways were refilled, which rewrites all three bits).
///
/// # Ports
/// Lookup (`lk_valid`/`lk_ready`, `lk_line`): a line address, accepted when the bank is idle or
/// returning a hit.
/// Result: `ln_valid` for one cycle with the line's bytes `ln_data[k]` (bytes 8k…8k+7,
/// little-endian) and `ln_hit`. Memory: `mem_req_valid`/`mem_req_ready`, `mem_req_line`; the
/// response `mem_resp_valid` with `mem_resp_data[k]` (one outstanding request, so no ready).
/// `enable` low makes every lookup a miss that allocates nothing. Counters `cnt_hits`,
/// `cnt_misses` (= memory requests), wrapping, cleared by `reset`.
///
/// # Timing
/// A hit returns on the clock after the lookup is accepted (the tag and data RAMs are read on the
/// accepting edge), and the cycle that returns a hit also accepts the next lookup: one line per
/// clock while lines hit. (A hit rewrites only its set's pseudo-LRU bits, on the edge that reads
/// the next lookup's set; when the two sets are equal the new bits are forwarded from a register.)
/// A miss requests its line on the second clock after the lookup and returns in the cycle the
/// memory answers; the bank is ready again the cycle after.
/// (Not `Clone`: rust-hdl's `RAM` is not.)
#[derive(LogicBlock, Default)]
pub struct CacheBank {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Invalidate every line.
    pub flush: Signal<In, Bit>,
    /// Cache on (off: no hits, no allocation).
    pub enable: Signal<In, Bit>,
    /// Lookup valid.
    pub lk_valid: Signal<In, Bit>,
    /// Lookup accepted.
    pub lk_ready: Signal<Out, Bit>,
    /// Line address (byte address / 64).
    pub lk_line: Signal<In, Bits<42>>,
    /// Result valid (one cycle).
    pub ln_valid: Signal<Out, Bit>,
    /// The line was in the cache.
    pub ln_hit: Signal<Out, Bit>,
    /// Line bytes 8k…8k+7.
    pub ln_data: [Signal<Out, Bits<64>>; 8],
    /// Memory request valid.
    pub mem_req_valid: Signal<Out, Bit>,
    /// Memory accepts the request.
    pub mem_req_ready: Signal<In, Bit>,
    /// Requested line.
    pub mem_req_line: Signal<Out, Bits<42>>,
    /// Memory response valid.
    pub mem_resp_valid: Signal<In, Bit>,
    /// Response bytes 8k…8k+7.
    pub mem_resp_data: [Signal<In, Bits<64>>; 8],
    /// Hits.
    pub cnt_hits: Signal<Out, Bits<32>>,
    /// Misses (memory requests).
    pub cnt_misses: Signal<Out, Bits<32>>,

    /// 0 idle, 1 compare tags, 2 request the line, 3 wait for its data.
    state: DFF<Bits<2>>,
    line: DFF<Bits<42>>,
    victim: DFF<Bits<2>>,
    hits: DFF<Bits<32>>,
    misses: DFF<Bits<32>>,
    /// Valid bit of set s in bit s, per way.
    valid: [DFF<Bits<16>>; 4],
    tags: [RAM<Bits<36>, 4>; 4],
    /// Line bytes 8k… of way 0…3.
    way0: [RAM<Bits<64>, 4>; 8],
    way1: [RAM<Bits<64>, 4>; 8],
    way2: [RAM<Bits<64>, 4>; 8],
    way3: [RAM<Bits<64>, 4>; 8],
    plru: RAM<Bits<3>, 4>,
    /// The pseudo-LRU bits written on the edge that read the same set for the next lookup.
    fwd_v: DFF<Bit>,
    fwd_d: DFF<Bits<3>>,
    /// The held set's pseudo-LRU bits (the RAM's, or the forwarded ones).
    lru: Signal<Local, Bits<3>>,
    /// The held line hits (in state 1).
    hit: Signal<Local, Bit>,
    set: Signal<Local, Bits<4>>,
    lset: Signal<Local, Bits<4>>,
    tag: Signal<Local, Bits<36>>,
    vshift: [Signal<Local, Bits<16>>; 4],
    vb: [Signal<Local, Bit>; 4],
    hb: [Signal<Local, Bit>; 4],
    setbit: Signal<Local, Bits<16>>,
    way: Signal<Local, Bits<2>>,
    touched: Signal<Local, Bits<3>>,
    victim_c: Signal<Local, Bits<2>>,
}

impl Logic for CacheBank {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, line, victim, hits, misses, fwd_v, fwd_d);
        self.lset.next = self.line.q.val().get_bits::<4>(2);
        self.tag.next = self.line.q.val().get_bits::<36>(6);
        // Tag compare of the held line.
        for w in 0..4 {
            self.vshift[w].next = self.valid[w].q.val() >> self.lset.val();
            self.vb[w].next = self.vshift[w].val().get_bit(0);
            self.hb[w].next = self.vb[w].val()
                & (self.tags[w].read_data.val() == self.tag.val())
                & self.enable.val();
        }
        self.hit.next = (self.state.q.val() == 1)
            & (self.hb[0].val() | self.hb[1].val() | self.hb[2].val() | self.hb[3].val());
        // The set being read: the incoming lookup's while idle or returning a hit, else the held
        // line's.
        self.lk_ready.next = (self.state.q.val() == 0) | self.hit.val();
        self.set.next = self.lset.val();
        if self.lk_ready.val() {
            self.set.next = self.lk_line.val().get_bits::<4>(2);
        }
        for w in 0..4 {
            self.valid[w].clock.next = self.clock.val();
            self.valid[w].d.next = self.valid[w].q.val();
            self.tags[w].read_clock.next = self.clock.val();
            self.tags[w].write_clock.next = self.clock.val();
            self.tags[w].write_enable.next = false;
            self.tags[w].write_address.next = self.lset.val();
            self.tags[w].write_data.next = self.tag.val();
            self.tags[w].read_address.next = self.set.val();
        }
        for k in 0..8 {
            self.way0[k].read_clock.next = self.clock.val();
            self.way0[k].write_clock.next = self.clock.val();
            self.way0[k].write_enable.next = false;
            self.way0[k].write_address.next = self.lset.val();
            self.way0[k].write_data.next = self.mem_resp_data[k].val();
            self.way0[k].read_address.next = self.set.val();
            self.way1[k].read_clock.next = self.clock.val();
            self.way1[k].write_clock.next = self.clock.val();
            self.way1[k].write_enable.next = false;
            self.way1[k].write_address.next = self.lset.val();
            self.way1[k].write_data.next = self.mem_resp_data[k].val();
            self.way1[k].read_address.next = self.set.val();
            self.way2[k].read_clock.next = self.clock.val();
            self.way2[k].write_clock.next = self.clock.val();
            self.way2[k].write_enable.next = false;
            self.way2[k].write_address.next = self.lset.val();
            self.way2[k].write_data.next = self.mem_resp_data[k].val();
            self.way2[k].read_address.next = self.set.val();
            self.way3[k].read_clock.next = self.clock.val();
            self.way3[k].write_clock.next = self.clock.val();
            self.way3[k].write_enable.next = false;
            self.way3[k].write_address.next = self.lset.val();
            self.way3[k].write_data.next = self.mem_resp_data[k].val();
            self.way3[k].read_address.next = self.set.val();
        }
        self.plru.read_clock.next = self.clock.val();
        self.plru.write_clock.next = self.clock.val();
        self.plru.write_enable.next = false;
        self.plru.write_address.next = self.lset.val();
        self.plru.read_address.next = self.set.val();

        self.lru.next = self.plru.read_data.val();
        if self.fwd_v.q.val() {
            self.lru.next = self.fwd_d.q.val();
        }
        // The way hit, or for a miss the victim: the first invalid way, else the pseudo-LRU one.
        self.way.next = 0.into();
        if self.hb[1].val() {
            self.way.next = 1.into();
        }
        if self.hb[2].val() {
            self.way.next = 2.into();
        }
        if self.hb[3].val() {
            self.way.next = 3.into();
        }
        if !self.lru.val().get_bit(0) {
            self.victim_c.next = 0.into();
            if self.lru.val().get_bit(1) {
                self.victim_c.next = 1.into();
            }
        } else {
            self.victim_c.next = 2.into();
            if self.lru.val().get_bit(2) {
                self.victim_c.next = 3.into();
            }
        }
        if !self.vb[3].val() {
            self.victim_c.next = 3.into();
        }
        if !self.vb[2].val() {
            self.victim_c.next = 2.into();
        }
        if !self.vb[1].val() {
            self.victim_c.next = 1.into();
        }
        if !self.vb[0].val() {
            self.victim_c.next = 0.into();
        }
        if self.state.q.val() == 3 {
            self.way.next = self.victim.q.val();
        }
        // Pseudo-LRU bits after touching `way`.
        if !self.way.val().get_bit(1) {
            self.touched.next = (self.lru.val() & 4) | 1;
            if !self.way.val().get_bit(0) {
                self.touched.next = self.touched.val() | 2;
            }
        } else {
            self.touched.next = self.lru.val() & 2;
            if !self.way.val().get_bit(0) {
                self.touched.next = self.touched.val() | 4;
            }
        }
        self.plru.write_data.next = self.touched.val();
        self.setbit.next = bits::<16>(1) << self.lset.val();

        // Outputs and the state machine.
        self.fwd_v.d.next = false;
        self.fwd_d.d.next = self.touched.val();
        self.ln_valid.next = false;
        self.ln_hit.next = false;
        self.mem_req_valid.next = self.state.q.val() == 2;
        self.mem_req_line.next = self.line.q.val();
        for k in 0..8 {
            self.ln_data[k].next = self.mem_resp_data[k].val();
        }
        self.cnt_hits.next = self.hits.q.val();
        self.cnt_misses.next = self.misses.q.val();
        if self.state.q.val() == 0 {
            if self.lk_valid.val() {
                self.line.d.next = self.lk_line.val();
                self.state.d.next = 1.into();
            }
        } else if self.state.q.val() == 1 {
            if self.hit.val() {
                self.ln_valid.next = true;
                self.ln_hit.next = true;
                self.plru.write_enable.next = true;
                self.hits.d.next = self.hits.q.val() + 1;
                self.state.d.next = 0.into();
                if self.lk_valid.val() {
                    self.line.d.next = self.lk_line.val();
                    self.state.d.next = 1.into();
                    self.fwd_v.d.next = self.set.val() == self.lset.val();
                }
                match self.way.val().index() {
                    0 => {
                        for k in 0..8 {
                            self.ln_data[k].next = self.way0[k].read_data.val();
                        }
                    }
                    1 => {
                        for k in 0..8 {
                            self.ln_data[k].next = self.way1[k].read_data.val();
                        }
                    }
                    2 => {
                        for k in 0..8 {
                            self.ln_data[k].next = self.way2[k].read_data.val();
                        }
                    }
                    _ => {
                        for k in 0..8 {
                            self.ln_data[k].next = self.way3[k].read_data.val();
                        }
                    }
                }
            } else {
                self.victim.d.next = self.victim_c.val();
                self.misses.d.next = self.misses.q.val() + 1;
                self.state.d.next = 2.into();
            }
        } else if self.state.q.val() == 2 {
            if self.mem_req_ready.val() {
                self.state.d.next = 3.into();
            }
        } else if self.mem_resp_valid.val() {
            self.ln_valid.next = true;
            self.state.d.next = 0.into();
            if self.enable.val() {
                self.plru.write_enable.next = true;
                match self.victim.q.val().index() {
                    0 => {
                        self.tags[0].write_enable.next = true;
                        self.valid[0].d.next = self.valid[0].q.val() | self.setbit.val();
                        for k in 0..8 {
                            self.way0[k].write_enable.next = true;
                        }
                    }
                    1 => {
                        self.tags[1].write_enable.next = true;
                        self.valid[1].d.next = self.valid[1].q.val() | self.setbit.val();
                        for k in 0..8 {
                            self.way1[k].write_enable.next = true;
                        }
                    }
                    2 => {
                        self.tags[2].write_enable.next = true;
                        self.valid[2].d.next = self.valid[2].q.val() | self.setbit.val();
                        for k in 0..8 {
                            self.way2[k].write_enable.next = true;
                        }
                    }
                    _ => {
                        self.tags[3].write_enable.next = true;
                        self.valid[3].d.next = self.valid[3].q.val() | self.setbit.val();
                        for k in 0..8 {
                            self.way3[k].write_enable.next = true;
                        }
                    }
                }
            }
        }
        if self.flush.val() {
            for w in 0..4 {
                self.valid[w].d.next = 0.into();
            }
        }
        if self.reset.val() {
            self.state.d.next = 0.into();
            self.hits.d.next = 0.into();
            self.misses.d.next = 0.into();
            for w in 0..4 {
                self.valid[w].d.next = 0.into();
            }
        }
    }
}

/// The bank of line address `line`: the XOR of its 21 two-bit groups (see the module
/// documentation).
pub fn line_bank(line: u64) -> usize {
    (0..21).fold(0, |b, g| b ^ (line >> (2 * g) & 3)) as usize
}

/// The texel cache: four [`CacheBank`]s and their memory arbiter.
///
/// # Ports
/// Per bank b: a lookup `lk_valid[b]`/`lk_ready[b]`, `lk_line[b]` (a line of bank b, by
/// [`line_bank`]; the requester's duty), its result `ln_valid[b]`, `ln_hit[b]`, bytes
/// `ln_data[8b + k]` (bytes 8k…8k+7), timed as in [`CacheBank`]. `flush` and `enable` go to every
/// bank. Memory: one request at a time (`mem_req_valid`/`mem_req_ready`, `mem_req_line`; the
/// response `mem_resp_valid`, `mem_resp_data[k]`): among the banks waiting to request, the lowest
/// numbered is granted, and the response goes to the bank granted. Lookups accepted in one clock
/// therefore request their misses in bank order. `cnt_hits`, `cnt_misses`: the banks' counters
/// summed (wrapping).
#[derive(LogicBlock, Default)]
pub struct TexelCache {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Invalidate every line.
    pub flush: Signal<In, Bit>,
    /// Cache on (off: no hits, no allocation).
    pub enable: Signal<In, Bit>,
    /// Lookup valid, per bank.
    pub lk_valid: [Signal<In, Bit>; 4],
    /// Lookup accepted, per bank.
    pub lk_ready: [Signal<Out, Bit>; 4],
    /// Line address (byte address / 64), per bank.
    pub lk_line: [Signal<In, Bits<42>>; 4],
    /// Result valid (one cycle), per bank.
    pub ln_valid: [Signal<Out, Bit>; 4],
    /// The line was in the cache, per bank.
    pub ln_hit: [Signal<Out, Bit>; 4],
    /// Bank b's line bytes 8k…8k+7 at 8b + k.
    pub ln_data: [Signal<Out, Bits<64>>; 32],
    /// Memory request valid.
    pub mem_req_valid: Signal<Out, Bit>,
    /// Memory accepts the request.
    pub mem_req_ready: Signal<In, Bit>,
    /// Requested line.
    pub mem_req_line: Signal<Out, Bits<42>>,
    /// Memory response valid.
    pub mem_resp_valid: Signal<In, Bit>,
    /// Response bytes 8k…8k+7.
    pub mem_resp_data: [Signal<In, Bits<64>>; 8],
    /// Hits.
    pub cnt_hits: Signal<Out, Bits<32>>,
    /// Misses (memory requests).
    pub cnt_misses: Signal<Out, Bits<32>>,

    // Four named banks, not an array: the Verilog generator does not substitute a loop index
    // into an array port of an element of an array of blocks.
    bank0: CacheBank,
    bank1: CacheBank,
    bank2: CacheBank,
    bank3: CacheBank,
    /// A request is out (to bank `gnt`) and its response not yet back.
    busy: DFF<Bit>,
    gnt: DFF<Bits<2>>,
    /// The bank granted the memory port in this clock (valid with `req`).
    pick: Signal<Local, Bits<2>>,
    req: Signal<Local, Bit>,
}

impl Logic for TexelCache {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, gnt);
        self.pick.next = 0.into();
        self.bank0.clock.next = self.clock.val();
        self.bank0.reset.next = self.reset.val();
        self.bank0.flush.next = self.flush.val();
        self.bank0.enable.next = self.enable.val();
        self.bank0.lk_valid.next = self.lk_valid[0].val();
        self.bank0.lk_line.next = self.lk_line[0].val();
        self.lk_ready[0].next = self.bank0.lk_ready.val();
        self.ln_valid[0].next = self.bank0.ln_valid.val();
        self.ln_hit[0].next = self.bank0.ln_hit.val();
        self.bank0.mem_resp_valid.next =
            self.mem_resp_valid.val() & self.busy.q.val() & (self.gnt.q.val() == 0);
        self.bank0.mem_req_ready.next = false;
        self.bank1.clock.next = self.clock.val();
        self.bank1.reset.next = self.reset.val();
        self.bank1.flush.next = self.flush.val();
        self.bank1.enable.next = self.enable.val();
        self.bank1.lk_valid.next = self.lk_valid[1].val();
        self.bank1.lk_line.next = self.lk_line[1].val();
        self.lk_ready[1].next = self.bank1.lk_ready.val();
        self.ln_valid[1].next = self.bank1.ln_valid.val();
        self.ln_hit[1].next = self.bank1.ln_hit.val();
        self.bank1.mem_resp_valid.next =
            self.mem_resp_valid.val() & self.busy.q.val() & (self.gnt.q.val() == 1);
        self.bank1.mem_req_ready.next = false;
        self.bank2.clock.next = self.clock.val();
        self.bank2.reset.next = self.reset.val();
        self.bank2.flush.next = self.flush.val();
        self.bank2.enable.next = self.enable.val();
        self.bank2.lk_valid.next = self.lk_valid[2].val();
        self.bank2.lk_line.next = self.lk_line[2].val();
        self.lk_ready[2].next = self.bank2.lk_ready.val();
        self.ln_valid[2].next = self.bank2.ln_valid.val();
        self.ln_hit[2].next = self.bank2.ln_hit.val();
        self.bank2.mem_resp_valid.next =
            self.mem_resp_valid.val() & self.busy.q.val() & (self.gnt.q.val() == 2);
        self.bank2.mem_req_ready.next = false;
        self.bank3.clock.next = self.clock.val();
        self.bank3.reset.next = self.reset.val();
        self.bank3.flush.next = self.flush.val();
        self.bank3.enable.next = self.enable.val();
        self.bank3.lk_valid.next = self.lk_valid[3].val();
        self.bank3.lk_line.next = self.lk_line[3].val();
        self.lk_ready[3].next = self.bank3.lk_ready.val();
        self.ln_valid[3].next = self.bank3.ln_valid.val();
        self.ln_hit[3].next = self.bank3.ln_hit.val();
        self.bank3.mem_resp_valid.next =
            self.mem_resp_valid.val() & self.busy.q.val() & (self.gnt.q.val() == 3);
        self.bank3.mem_req_ready.next = false;
        for k in 0..8 {
            self.bank0.mem_resp_data[k].next = self.mem_resp_data[k].val();
            self.bank1.mem_resp_data[k].next = self.mem_resp_data[k].val();
            self.bank2.mem_resp_data[k].next = self.mem_resp_data[k].val();
            self.bank3.mem_resp_data[k].next = self.mem_resp_data[k].val();
            self.ln_data[k].next = self.bank0.ln_data[k].val();
            self.ln_data[8 + k].next = self.bank1.ln_data[k].val();
            self.ln_data[16 + k].next = self.bank2.ln_data[k].val();
            self.ln_data[24 + k].next = self.bank3.ln_data[k].val();
        }
        // The lowest-numbered bank waiting to request (granted only while no request is out).
        self.req.next = self.bank0.mem_req_valid.val()
            | self.bank1.mem_req_valid.val()
            | self.bank2.mem_req_valid.val()
            | self.bank3.mem_req_valid.val();
        if self.bank3.mem_req_valid.val() {
            self.pick.next = 3.into();
        }
        if self.bank2.mem_req_valid.val() {
            self.pick.next = 2.into();
        }
        if self.bank1.mem_req_valid.val() {
            self.pick.next = 1.into();
        }
        if self.bank0.mem_req_valid.val() {
            self.pick.next = 0.into();
        }
        self.mem_req_valid.next = self.req.val() & !self.busy.q.val();
        match self.pick.val().index() {
            0 => {
                self.mem_req_line.next = self.bank0.mem_req_line.val();
                self.bank0.mem_req_ready.next = self.mem_req_ready.val() & !self.busy.q.val();
            }
            1 => {
                self.mem_req_line.next = self.bank1.mem_req_line.val();
                self.bank1.mem_req_ready.next = self.mem_req_ready.val() & !self.busy.q.val();
            }
            2 => {
                self.mem_req_line.next = self.bank2.mem_req_line.val();
                self.bank2.mem_req_ready.next = self.mem_req_ready.val() & !self.busy.q.val();
            }
            _ => {
                self.mem_req_line.next = self.bank3.mem_req_line.val();
                self.bank3.mem_req_ready.next = self.mem_req_ready.val() & !self.busy.q.val();
            }
        }
        if self.mem_req_valid.val() & self.mem_req_ready.val() {
            self.busy.d.next = true;
            self.gnt.d.next = self.pick.val();
        }
        if self.mem_resp_valid.val() {
            self.busy.d.next = false;
        }
        self.cnt_hits.next = self.bank0.cnt_hits.val()
            + self.bank1.cnt_hits.val()
            + self.bank2.cnt_hits.val()
            + self.bank3.cnt_hits.val();
        self.cnt_misses.next = self.bank0.cnt_misses.val()
            + self.bank1.cnt_misses.val()
            + self.bank2.cnt_misses.val()
            + self.bank3.cnt_misses.val();
        if self.reset.val() {
            self.busy.d.next = false;
        }
    }
}
