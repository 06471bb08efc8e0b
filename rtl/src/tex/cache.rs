//! The texel cache: 16 KiB of 64-byte lines in eight banks that look up one line each per clock,
//! 4-way set associative, tree pseudo-LRU, allocate on miss, non-blocking (up to 32 lines in flight).
//!
//! A line address l (byte address / 64, 42 bits) lives in bank b(l) = the XOR of l's 14 three-bit
//! groups (l[2:0] ^ l[5:3] ^ … ^ l[41:39]), set l[5:3] of that bank's 8, tag l[41:6]. The 64
//! (bank, set) pairs are the cache's 64 sets: lines that agree in bits 3–41 fall in eight different
//! banks, so eight neighbouring lines, a row's next line and (for power-of-two pitches) the next
//! rows' lines are looked up in one clock. The bank is the requester's to compute ([`line_bank`]
//! states the rule; the texture unit computes it once per tap).
//!
//! [`CacheBank`] is one bank; [`TexelCache`] holds eight and the fill buffer (the memory port).

use rust_hdl::prelude::*;

/// One bank: 8 sets × 4 ways of 64-byte lines, set = line bits 5:3, tag = line bits 41:6; a miss
/// fills the first invalid way, else the pseudo-LRU victim (b0 picks the half, 0: ways 0–1; b1 the
/// way in the low half, 0: way 0; b2 in the high half, 0: way 2; an access to way w points them
/// away from it). `flush` invalidates every line in one cycle (valid bits are flip-flops; tags,
/// data and the pseudo-LRU bits are RAMs — stale pseudo-LRU bits never matter, because a set only
/// consults them once all four ways were refilled, which rewrites all three bits).
///
/// Non-blocking: the tags are looked up and updated in lookup order (a miss allocates its way at
/// once), the data side answers in the same order from a four-entry queue: a hit from the data
/// RAMs, a miss with its line from the cache's fill buffer once that line is the oldest one
/// returned by memory (written into its way as it passes). Every access to a set's data therefore
/// happens in lookup order, so a way re-allocated while an earlier hit on it waits is read before
/// it is overwritten.
///
/// # Ports
/// Lookup (`lk_valid`/`lk_ready`, `lk_line`): a line address; `lk_ready` depends on registers only.
/// Miss (`mq_valid`, `mq_line`): in the cycle after a lookup that misses, for the memory request.
/// Fill: `fill_ok` (the fill buffer's oldest line is this bank's), `fill_take` (taken on this
/// edge), `fill_data[k]` (its bytes in the cycle after the take).
/// Result: `ln_valid` for one cycle with the line address `ln_line`, its bytes `ln_data[k]` (bytes
/// 8k…8k+7, little-endian) and `ln_hit`. `enable` low makes every lookup a miss that allocates
/// nothing. `hold`: no answer in this cycle; `hold_next`: nothing leaves the queue on this edge
/// (so no answer from it in the next cycle); lookups go on while the queue has room. Counters
/// `cnt_hits`, `cnt_misses` (= memory requests), wrapping, cleared by `reset`.
///
/// # Timing
/// One lookup per clock while the queue has room. A hit with nothing older waiting returns in the
/// cycle after its lookup (tags and data RAMs read on the accepting edge); behind older entries,
/// one entry per clock, in order (a hit to the set a fill is written to waits one clock). A miss
/// returns two cycles after memory's response at the earliest.
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
    /// A lookup missed (this cycle): request `mq_line`.
    pub mq_valid: Signal<Out, Bit>,
    /// The missed line.
    pub mq_line: Signal<Out, Bits<42>>,
    /// Hold the answers: none in this cycle (lookups go on while the queue has room) ...
    pub hold: Signal<In, Bit>,
    /// ... and none in the next (nothing leaves the queue on this edge).
    pub hold_next: Signal<In, Bit>,
    /// The fill buffer's oldest returned line is this bank's.
    pub fill_ok: Signal<In, Bit>,
    /// The bank takes that line on this edge.
    pub fill_take: Signal<Out, Bit>,
    /// The taken line's bytes 8k…8k+7 (in the cycle after the take).
    pub fill_data: [Signal<In, Bits<64>>; 8],
    /// Result valid (one cycle).
    pub ln_valid: Signal<Out, Bit>,
    /// The line was in the cache.
    pub ln_hit: Signal<Out, Bit>,
    /// The result's line address.
    pub ln_line: Signal<Out, Bits<42>>,
    /// Line bytes 8k…8k+7.
    pub ln_data: [Signal<Out, Bits<64>>; 8],
    /// Hits.
    pub cnt_hits: Signal<Out, Bits<32>>,
    /// Misses (memory requests).
    pub cnt_misses: Signal<Out, Bits<32>>,

    // Tag side: the lookup accepted on the last edge.
    t_v: DFF<Bit>,
    t_line: DFF<Bits<42>>,
    hits: DFF<Bits<32>>,
    misses: DFF<Bits<32>>,
    /// Valid bit of set s in bit s, per way.
    valid: [DFF<Bits<8>>; 4],
    tags: [RAM<Bits<36>, 3>; 4],
    plru: RAM<Bits<3>, 3>,
    /// The tag and pseudo-LRU bits written on the last edge (forwarded to a lookup of that set
    /// read on the same edge).
    fw_v: DFF<Bit>,
    fw_alloc: DFF<Bit>,
    fw_set: DFF<Bits<3>>,
    fw_way: DFF<Bits<2>>,
    fw_lru: DFF<Bits<3>>,
    fw_tag: DFF<Bits<36>>,
    // Data side: the four-entry queue, then the entry read on the last edge (`d_`).
    q_hit: [DFF<Bit>; 4],
    q_alloc: [DFF<Bit>; 4],
    q_way: [DFF<Bits<2>>; 4],
    q_line: [DFF<Bits<42>>; 4],
    q_rd: DFF<Bits<2>>,
    q_wr: DFF<Bits<2>>,
    q_n: DFF<Bits<3>>,
    d_v: DFF<Bit>,
    d_hit: DFF<Bit>,
    d_alloc: DFF<Bit>,
    d_way: DFF<Bits<2>>,
    d_line: DFF<Bits<42>>,
    /// A fill was written on the last edge, to set `wl_set`.
    wl_v: DFF<Bit>,
    wl_set: DFF<Bits<3>>,
    /// Line bytes 8k… of way 0…3.
    way0: [RAM<Bits<64>, 3>; 8],
    way1: [RAM<Bits<64>, 3>; 8],
    way2: [RAM<Bits<64>, 3>; 8],
    way3: [RAM<Bits<64>, 3>; 8],
    lru: Signal<Local, Bits<3>>,
    tset: Signal<Local, Bits<3>>,
    tag: Signal<Local, Bits<36>>,
    vshift: [Signal<Local, Bits<8>>; 4],
    vb: [Signal<Local, Bit>; 4],
    hb: [Signal<Local, Bit>; 4],
    hit: Signal<Local, Bit>,
    setbit: Signal<Local, Bits<8>>,
    way: Signal<Local, Bits<2>>,
    victim: Signal<Local, Bits<2>>,
    touched: Signal<Local, Bits<3>>,
    /// The compared lookup is answered now (nothing older waits, its data was read for it).
    bypass: Signal<Local, Bit>,
    /// The compared lookup enters the queue.
    push: Signal<Local, Bit>,
    // The oldest waiting entry (the queue's head, or the compared lookup when the queue is empty).
    h_v: Signal<Local, Bit>,
    h_hit: Signal<Local, Bit>,
    h_alloc: Signal<Local, Bit>,
    h_way: Signal<Local, Bits<2>>,
    h_line: Signal<Local, Bits<42>>,
    /// The head goes to the data RAMs (or takes its fill) on this edge.
    pop: Signal<Local, Bit>,
    from_q: Signal<Local, Bit>,
    rset: Signal<Local, Bits<3>>,
    dset: Signal<Local, Bits<3>>,
    /// The way whose data RAMs answer.
    osel: Signal<Local, Bits<2>>,
    lru_we: Signal<Local, Bit>,
    fill_we: Signal<Local, Bit>,
}

impl Logic for CacheBank {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, t_v, t_line, hits, misses, fw_v, fw_alloc, fw_set, fw_way, fw_lru, fw_tag,
            q_rd, q_wr, q_n, d_v, d_hit, d_alloc, d_way, d_line, wl_v, wl_set
        );
        for e in 0..4 {
            self.q_hit[e].clock.next = self.clock.val();
            self.q_hit[e].d.next = self.q_hit[e].q.val();
            self.q_alloc[e].clock.next = self.clock.val();
            self.q_alloc[e].d.next = self.q_alloc[e].q.val();
            self.q_way[e].clock.next = self.clock.val();
            self.q_way[e].d.next = self.q_way[e].q.val();
            self.q_line[e].clock.next = self.clock.val();
            self.q_line[e].d.next = self.q_line[e].q.val();
        }
        // ---------------- tag side: compare the lookup accepted on the last edge ----------------
        self.tset.next = self.t_line.q.val().get_bits::<3>(3);
        self.tag.next = self.t_line.q.val().get_bits::<36>(6);
        for w in 0..4 {
            self.vshift[w].next = self.valid[w].q.val() >> self.tset.val();
            self.vb[w].next = self.vshift[w].val().get_bit(0);
            self.hb[w].next = self.vb[w].val()
                & (self.tags[w].read_data.val() == self.tag.val())
                & self.enable.val();
            // The way allocated on the last edge, in the set just read, holds the last tag.
            if self.fw_v.q.val()
                & self.fw_alloc.q.val()
                & (self.fw_set.q.val() == self.tset.val())
                & (self.fw_way.q.val().index() == w)
            {
                self.hb[w].next =
                    self.vb[w].val() & (self.fw_tag.q.val() == self.tag.val()) & self.enable.val();
            }
        }
        self.hit.next = self.t_v.q.val()
            & (self.hb[0].val() | self.hb[1].val() | self.hb[2].val() | self.hb[3].val());
        self.lru.next = self.plru.read_data.val();
        if self.fw_v.q.val() & (self.fw_set.q.val() == self.tset.val()) {
            self.lru.next = self.fw_lru.q.val();
        }
        // The way hit, or for a miss the victim: the first invalid way, else the pseudo-LRU one.
        if !self.lru.val().get_bit(0) {
            self.victim.next = 0.into();
            if self.lru.val().get_bit(1) {
                self.victim.next = 1.into();
            }
        } else {
            self.victim.next = 2.into();
            if self.lru.val().get_bit(2) {
                self.victim.next = 3.into();
            }
        }
        if !self.vb[3].val() {
            self.victim.next = 3.into();
        }
        if !self.vb[2].val() {
            self.victim.next = 2.into();
        }
        if !self.vb[1].val() {
            self.victim.next = 1.into();
        }
        if !self.vb[0].val() {
            self.victim.next = 0.into();
        }
        self.way.next = self.victim.val();
        if self.hit.val() {
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
        self.setbit.next = bits::<8>(1) << self.tset.val();
        // A hit touches its way; an enabled miss allocates the victim (tag, valid bit) and touches
        // it; a disabled miss changes nothing.
        self.lru_we.next = self.t_v.q.val() & (self.hit.val() | self.enable.val());
        self.fw_v.d.next = self.lru_we.val();
        self.fw_alloc.d.next = !self.hit.val();
        self.fw_set.d.next = self.tset.val();
        self.fw_way.d.next = self.way.val();
        self.fw_lru.d.next = self.touched.val();
        self.fw_tag.d.next = self.tag.val();
        self.plru.read_clock.next = self.clock.val();
        self.plru.write_clock.next = self.clock.val();
        self.plru.write_enable.next = self.lru_we.val();
        self.plru.write_address.next = self.tset.val();
        self.plru.write_data.next = self.touched.val();
        self.plru.read_address.next = self.lk_line.val().get_bits::<3>(3);
        for w in 0..4 {
            self.valid[w].clock.next = self.clock.val();
            self.valid[w].d.next = self.valid[w].q.val();
            self.tags[w].read_clock.next = self.clock.val();
            self.tags[w].write_clock.next = self.clock.val();
            self.tags[w].write_enable.next = false;
            self.tags[w].write_address.next = self.tset.val();
            self.tags[w].write_data.next = self.tag.val();
            self.tags[w].read_address.next = self.lk_line.val().get_bits::<3>(3);
            if self.t_v.q.val()
                & !self.hit.val()
                & self.enable.val()
                & (self.way.val().index() == w)
            {
                self.tags[w].write_enable.next = true;
                self.valid[w].d.next = self.valid[w].q.val() | self.setbit.val();
            }
        }
        self.mq_valid.next = self.t_v.q.val() & !self.hit.val();
        self.mq_line.next = self.t_line.q.val();
        if self.t_v.q.val() {
            if self.hit.val() {
                self.hits.d.next = self.hits.q.val() + 1;
            } else {
                self.misses.d.next = self.misses.q.val() + 1;
            }
        }
        self.cnt_hits.next = self.hits.q.val();
        self.cnt_misses.next = self.misses.q.val();
        // The next lookup: while the queue surely has room for it.
        self.lk_ready.next =
            (self.q_n.q.val() + bit_cast::<3, 1>(self.t_v.q.val().into())) < bits::<3>(4);
        self.t_v.d.next = self.lk_valid.val() & self.lk_ready.val();
        self.t_line.d.next = self.lk_line.val();

        // ---------------- data side, in lookup order ----------------
        // The compared lookup is answered at once when it hits, nothing older waits (so the data
        // RAMs were read for it on the last edge) and no fill was written to its set then.
        self.bypass.next = self.hit.val()
            & !self.hold.val()
            & !self.d_v.q.val()
            & (self.q_n.q.val() == 0)
            & !(self.wl_v.q.val() & (self.wl_set.q.val() == self.tset.val()));
        self.push.next = self.t_v.q.val() & !self.bypass.val();
        // The head: the queue's oldest entry, else the compared lookup if it is not answered now.
        self.from_q.next = self.q_n.q.val() != 0;
        self.h_v.next = self.from_q.val() | self.push.val();
        self.h_hit.next = self.hit.val();
        self.h_alloc.next = self.enable.val();
        self.h_way.next = self.way.val();
        self.h_line.next = self.t_line.q.val();
        if self.from_q.val() {
            match self.q_rd.q.val().index() {
                0 => {
                    self.h_hit.next = self.q_hit[0].q.val();
                    self.h_alloc.next = self.q_alloc[0].q.val();
                    self.h_way.next = self.q_way[0].q.val();
                    self.h_line.next = self.q_line[0].q.val();
                }
                1 => {
                    self.h_hit.next = self.q_hit[1].q.val();
                    self.h_alloc.next = self.q_alloc[1].q.val();
                    self.h_way.next = self.q_way[1].q.val();
                    self.h_line.next = self.q_line[1].q.val();
                }
                2 => {
                    self.h_hit.next = self.q_hit[2].q.val();
                    self.h_alloc.next = self.q_alloc[2].q.val();
                    self.h_way.next = self.q_way[2].q.val();
                    self.h_line.next = self.q_line[2].q.val();
                }
                _ => {
                    self.h_hit.next = self.q_hit[3].q.val();
                    self.h_alloc.next = self.q_alloc[3].q.val();
                    self.h_way.next = self.q_way[3].q.val();
                    self.h_line.next = self.q_line[3].q.val();
                }
            }
        }
        self.dset.next = self.d_line.q.val().get_bits::<3>(3);
        // A hit reads the data RAMs on this edge, except in the clock a fill is written to its
        // set (the RAMs read the old line); a miss takes its fill when it is the oldest returned.
        self.pop.next = self.h_v.val()
            & !self.hold_next.val()
            & ((self.h_hit.val()
                & !(self.d_v.q.val()
                    & !self.d_hit.q.val()
                    & self.d_alloc.q.val()
                    & (self.dset.val() == self.h_line.val().get_bits::<3>(3))))
                | (!self.h_hit.val() & self.fill_ok.val()));
        self.fill_take.next = self.pop.val() & !self.h_hit.val();
        // Queue: the compared lookup enters unless it is popped straight away.
        self.q_n.d.next = self.q_n.q.val()
            + bit_cast::<3, 1>((self.push.val() & !(self.pop.val() & !self.from_q.val())).into())
            - bit_cast::<3, 1>((self.pop.val() & self.from_q.val()).into());
        if self.push.val() & !(self.pop.val() & !self.from_q.val()) {
            self.q_wr.d.next = self.q_wr.q.val() + 1;
            for e in 0..4 {
                if self.q_wr.q.val().index() == e {
                    self.q_hit[e].d.next = self.hit.val();
                    self.q_alloc[e].d.next = self.enable.val();
                    self.q_way[e].d.next = self.way.val();
                    self.q_line[e].d.next = self.t_line.q.val();
                }
            }
        }
        if self.pop.val() & self.from_q.val() {
            self.q_rd.d.next = self.q_rd.q.val() + 1;
        }
        self.d_v.d.next = self.pop.val();
        self.d_hit.d.next = self.h_hit.val();
        self.d_alloc.d.next = self.h_alloc.val();
        self.d_way.d.next = self.h_way.val();
        self.d_line.d.next = self.h_line.val();
        // The data RAMs read the popped entry's set, else the accepted lookup's (for a bypass).
        self.rset.next = self.lk_line.val().get_bits::<3>(3);
        if self.pop.val() {
            self.rset.next = self.h_line.val().get_bits::<3>(3);
        }
        // A fill is written into its way as it is answered.
        self.fill_we.next = self.d_v.q.val() & !self.d_hit.q.val() & self.d_alloc.q.val();
        self.wl_v.d.next = self.fill_we.val();
        self.wl_set.d.next = self.dset.val();
        for k in 0..8 {
            self.way0[k].read_clock.next = self.clock.val();
            self.way0[k].write_clock.next = self.clock.val();
            self.way0[k].write_enable.next = self.fill_we.val() & (self.d_way.q.val() == 0);
            self.way0[k].write_address.next = self.dset.val();
            self.way0[k].write_data.next = self.fill_data[k].val();
            self.way0[k].read_address.next = self.rset.val();
            self.way1[k].read_clock.next = self.clock.val();
            self.way1[k].write_clock.next = self.clock.val();
            self.way1[k].write_enable.next = self.fill_we.val() & (self.d_way.q.val() == 1);
            self.way1[k].write_address.next = self.dset.val();
            self.way1[k].write_data.next = self.fill_data[k].val();
            self.way1[k].read_address.next = self.rset.val();
            self.way2[k].read_clock.next = self.clock.val();
            self.way2[k].write_clock.next = self.clock.val();
            self.way2[k].write_enable.next = self.fill_we.val() & (self.d_way.q.val() == 2);
            self.way2[k].write_address.next = self.dset.val();
            self.way2[k].write_data.next = self.fill_data[k].val();
            self.way2[k].read_address.next = self.rset.val();
            self.way3[k].read_clock.next = self.clock.val();
            self.way3[k].write_clock.next = self.clock.val();
            self.way3[k].write_enable.next = self.fill_we.val() & (self.d_way.q.val() == 3);
            self.way3[k].write_address.next = self.dset.val();
            self.way3[k].write_data.next = self.fill_data[k].val();
            self.way3[k].read_address.next = self.rset.val();
        }
        // The answer: the entry read on the last edge, or the bypassed hit.
        self.ln_valid.next = self.d_v.q.val() | self.bypass.val();
        self.ln_hit.next = self.d_hit.q.val();
        self.ln_line.next = self.d_line.q.val();
        self.osel.next = self.way.val();
        if self.d_v.q.val() {
            self.osel.next = self.d_way.q.val();
        } else {
            self.ln_hit.next = true;
            self.ln_line.next = self.t_line.q.val();
        }
        match self.osel.val().index() {
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
        if self.d_v.q.val() & !self.d_hit.q.val() {
            for k in 0..8 {
                self.ln_data[k].next = self.fill_data[k].val();
            }
        }
        if self.flush.val() {
            for w in 0..4 {
                self.valid[w].d.next = 0.into();
            }
        }
        if self.reset.val() {
            self.t_v.d.next = false;
            self.fw_v.d.next = false;
            self.d_v.d.next = false;
            self.wl_v.d.next = false;
            self.q_n.d.next = 0.into();
            self.q_rd.d.next = 0.into();
            self.q_wr.d.next = 0.into();
            self.hits.d.next = 0.into();
            self.misses.d.next = 0.into();
            for w in 0..4 {
                self.valid[w].d.next = 0.into();
            }
        }
    }
}

/// The bank of line address `line`: the XOR of its 14 three-bit groups (see the module
/// documentation).
pub fn line_bank(line: u64) -> usize {
    (0..14).fold(0, |b, g| b ^ (line >> (3 * g) & 7)) as usize
}

/// The texel cache: eight [`CacheBank`]s and the fill buffer.
///
/// # Ports
/// Per bank b: a lookup `lk_valid[b]`/`lk_ready[b]`, `lk_line[b]` (a line of bank b, by
/// [`line_bank`]; the requester's duty), its result `ln_valid[b]`, `ln_hit[b]`, `ln_line[b]`, bytes
/// 8k…8k+7 at `ln_data_lo[8b + k]` for banks 0–3 and `ln_data_hi[8(b − 4) + k]` for banks 4–7
/// (two arrays: rust-hdl's arrays of signals stop at 32), timed as in [`CacheBank`]. `flush` and
/// `enable` go to every bank. Memory: `mem_req_valid`/`mem_req_ready`, `mem_req_line`,
/// `mem_req_tag` (`req_tag` as it was in the cycle after the lookup that missed); the response
/// `mem_resp_valid`, `mem_resp_data[k]` (in request order, no ready). `cnt_hits`, `cnt_misses`:
/// the banks' counters summed (wrapping).
///
/// The fill buffer is a ring of 32 misses in lookup order (a clock's misses in bank order): each
/// is requested in turn, its response written into the ring's data RAMs, and the oldest returned
/// line goes to its bank when that bank's data side reaches the miss. Up to 32 lines are
/// outstanding or waiting; lookups are taken only while the ring has room for 16 more misses (the
/// lookups being compared and those accepted now).
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
    pub lk_valid: [Signal<In, Bit>; 8],
    /// Lookup accepted, per bank.
    pub lk_ready: [Signal<Out, Bit>; 8],
    /// Line address (byte address / 64), per bank.
    pub lk_line: [Signal<In, Bits<42>>; 8],
    /// Hold every bank's answers in this cycle.
    pub hold: Signal<In, Bit>,
    /// Hold every bank's answers in the next cycle.
    pub hold_next: Signal<In, Bit>,
    /// The tag a miss compared in this cycle carries to memory.
    pub req_tag: Signal<In, Bits<16>>,
    /// Result valid (one cycle), per bank.
    pub ln_valid: [Signal<Out, Bit>; 8],
    /// The line was in the cache, per bank.
    pub ln_hit: [Signal<Out, Bit>; 8],
    /// The result's line address, per bank.
    pub ln_line: [Signal<Out, Bits<42>>; 8],
    /// Bank b's (b < 4) line bytes 8k…8k+7 at 8b + k.
    pub ln_data_lo: [Signal<Out, Bits<64>>; 32],
    /// Bank b's (b ≥ 4) line bytes 8k…8k+7 at 8(b − 4) + k.
    pub ln_data_hi: [Signal<Out, Bits<64>>; 32],
    /// Memory request valid.
    pub mem_req_valid: Signal<Out, Bit>,
    /// Memory accepts the request.
    pub mem_req_ready: Signal<In, Bit>,
    /// Requested line.
    pub mem_req_line: Signal<Out, Bits<42>>,
    /// The request's tag.
    pub mem_req_tag: Signal<Out, Bits<16>>,
    /// Memory response valid.
    pub mem_resp_valid: Signal<In, Bit>,
    /// Response bytes 8k…8k+7.
    pub mem_resp_data: [Signal<In, Bits<64>>; 8],
    /// Hits.
    pub cnt_hits: Signal<Out, Bits<32>>,
    /// Misses (memory requests).
    pub cnt_misses: Signal<Out, Bits<32>>,

    // Eight named banks, not an array: the Verilog generator does not substitute a loop index
    // into an array port of an element of an array of blocks.
    bank0: CacheBank,
    bank1: CacheBank,
    bank2: CacheBank,
    bank3: CacheBank,
    bank4: CacheBank,
    bank5: CacheBank,
    bank6: CacheBank,
    bank7: CacheBank,
    /// Ring entries: line, tag, bank; data in `fill` (bytes 8k… of entry e at address e).
    r_line: [DFF<Bits<42>>; 32],
    r_tag: [DFF<Bits<16>>; 32],
    r_bank: [DFF<Bits<3>>; 32],
    fill: [RAM<Bits<64>, 5>; 8],
    /// Ring counters (6 bits, wrapping): entries written, requested, answered, taken.
    r_tail: DFF<Bits<6>>,
    r_req: DFF<Bits<6>>,
    r_arr: DFF<Bits<6>>,
    r_head: DFF<Bits<6>>,
    mqv: [Signal<Local, Bit>; 8],
    mql: [Signal<Local, Bits<42>>; 8],
    /// Per bank: it takes the ring's head line; its hit and miss counters.
    takes: [Signal<Local, Bit>; 8],
    hits: [Signal<Local, Bits<32>>; 8],
    misses: [Signal<Local, Bits<32>>; 8],
    /// Ring position of bank b's miss this cycle (tail + misses of lower banks).
    mpos: [Signal<Local, Bits<5>>; 8],
    tail5: Signal<Local, Bits<5>>,
    used: Signal<Local, Bits<6>>,
    room: Signal<Local, Bit>,
    arrived: Signal<Local, Bit>,
    hbank: Signal<Local, Bits<3>>,
    nmiss: Signal<Local, Bits<4>>,
    /// A response to an outstanding request.
    resp: Signal<Local, Bit>,
    /// Bank numbers as signals.
    bno: [Signal<Local, Bits<3>>; 8],
}

impl Logic for TexelCache {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_tail, r_req, r_arr, r_head);
        for e in 0..32 {
            self.r_line[e].clock.next = self.clock.val();
            self.r_line[e].d.next = self.r_line[e].q.val();
            self.r_tag[e].clock.next = self.clock.val();
            self.r_tag[e].d.next = self.r_tag[e].q.val();
            self.r_bank[e].clock.next = self.clock.val();
            self.r_bank[e].d.next = self.r_bank[e].q.val();
        }
        self.used.next = self.r_tail.q.val() - self.r_head.q.val();
        self.room.next = self.used.val() <= bits::<6>(16);
        self.arrived.next = self.r_arr.q.val() != self.r_head.q.val();
        self.hbank.next = 0.into();
        for e in 0..32 {
            if self.r_head.q.val().get_bits::<5>(0).index() == e {
                self.hbank.next = self.r_bank[e].q.val();
            }
        }
        self.bank0.clock.next = self.clock.val();
        self.bank0.reset.next = self.reset.val();
        self.bank0.flush.next = self.flush.val();
        self.bank0.enable.next = self.enable.val();
        self.bank0.hold.next = self.hold.val();
        self.bank0.hold_next.next = self.hold_next.val();
        self.bank0.lk_valid.next = self.lk_valid[0].val() & self.room.val();
        self.bank0.lk_line.next = self.lk_line[0].val();
        self.lk_ready[0].next = self.bank0.lk_ready.val() & self.room.val();
        self.ln_valid[0].next = self.bank0.ln_valid.val();
        self.ln_hit[0].next = self.bank0.ln_hit.val();
        self.ln_line[0].next = self.bank0.ln_line.val();
        self.bank0.fill_ok.next = self.arrived.val() & (self.hbank.val() == 0);
        self.mqv[0].next = self.bank0.mq_valid.val();
        self.mql[0].next = self.bank0.mq_line.val();
        self.takes[0].next = self.bank0.fill_take.val();
        self.hits[0].next = self.bank0.cnt_hits.val();
        self.misses[0].next = self.bank0.cnt_misses.val();
        self.bank1.clock.next = self.clock.val();
        self.bank1.reset.next = self.reset.val();
        self.bank1.flush.next = self.flush.val();
        self.bank1.enable.next = self.enable.val();
        self.bank1.hold.next = self.hold.val();
        self.bank1.hold_next.next = self.hold_next.val();
        self.bank1.lk_valid.next = self.lk_valid[1].val() & self.room.val();
        self.bank1.lk_line.next = self.lk_line[1].val();
        self.lk_ready[1].next = self.bank1.lk_ready.val() & self.room.val();
        self.ln_valid[1].next = self.bank1.ln_valid.val();
        self.ln_hit[1].next = self.bank1.ln_hit.val();
        self.ln_line[1].next = self.bank1.ln_line.val();
        self.bank1.fill_ok.next = self.arrived.val() & (self.hbank.val() == 1);
        self.mqv[1].next = self.bank1.mq_valid.val();
        self.mql[1].next = self.bank1.mq_line.val();
        self.takes[1].next = self.bank1.fill_take.val();
        self.hits[1].next = self.bank1.cnt_hits.val();
        self.misses[1].next = self.bank1.cnt_misses.val();
        self.bank2.clock.next = self.clock.val();
        self.bank2.reset.next = self.reset.val();
        self.bank2.flush.next = self.flush.val();
        self.bank2.enable.next = self.enable.val();
        self.bank2.hold.next = self.hold.val();
        self.bank2.hold_next.next = self.hold_next.val();
        self.bank2.lk_valid.next = self.lk_valid[2].val() & self.room.val();
        self.bank2.lk_line.next = self.lk_line[2].val();
        self.lk_ready[2].next = self.bank2.lk_ready.val() & self.room.val();
        self.ln_valid[2].next = self.bank2.ln_valid.val();
        self.ln_hit[2].next = self.bank2.ln_hit.val();
        self.ln_line[2].next = self.bank2.ln_line.val();
        self.bank2.fill_ok.next = self.arrived.val() & (self.hbank.val() == 2);
        self.mqv[2].next = self.bank2.mq_valid.val();
        self.mql[2].next = self.bank2.mq_line.val();
        self.takes[2].next = self.bank2.fill_take.val();
        self.hits[2].next = self.bank2.cnt_hits.val();
        self.misses[2].next = self.bank2.cnt_misses.val();
        self.bank3.clock.next = self.clock.val();
        self.bank3.reset.next = self.reset.val();
        self.bank3.flush.next = self.flush.val();
        self.bank3.enable.next = self.enable.val();
        self.bank3.hold.next = self.hold.val();
        self.bank3.hold_next.next = self.hold_next.val();
        self.bank3.lk_valid.next = self.lk_valid[3].val() & self.room.val();
        self.bank3.lk_line.next = self.lk_line[3].val();
        self.lk_ready[3].next = self.bank3.lk_ready.val() & self.room.val();
        self.ln_valid[3].next = self.bank3.ln_valid.val();
        self.ln_hit[3].next = self.bank3.ln_hit.val();
        self.ln_line[3].next = self.bank3.ln_line.val();
        self.bank3.fill_ok.next = self.arrived.val() & (self.hbank.val() == 3);
        self.mqv[3].next = self.bank3.mq_valid.val();
        self.mql[3].next = self.bank3.mq_line.val();
        self.takes[3].next = self.bank3.fill_take.val();
        self.hits[3].next = self.bank3.cnt_hits.val();
        self.misses[3].next = self.bank3.cnt_misses.val();
        self.bank4.clock.next = self.clock.val();
        self.bank4.reset.next = self.reset.val();
        self.bank4.flush.next = self.flush.val();
        self.bank4.enable.next = self.enable.val();
        self.bank4.hold.next = self.hold.val();
        self.bank4.hold_next.next = self.hold_next.val();
        self.bank4.lk_valid.next = self.lk_valid[4].val() & self.room.val();
        self.bank4.lk_line.next = self.lk_line[4].val();
        self.lk_ready[4].next = self.bank4.lk_ready.val() & self.room.val();
        self.ln_valid[4].next = self.bank4.ln_valid.val();
        self.ln_hit[4].next = self.bank4.ln_hit.val();
        self.ln_line[4].next = self.bank4.ln_line.val();
        self.bank4.fill_ok.next = self.arrived.val() & (self.hbank.val() == 4);
        self.mqv[4].next = self.bank4.mq_valid.val();
        self.mql[4].next = self.bank4.mq_line.val();
        self.takes[4].next = self.bank4.fill_take.val();
        self.hits[4].next = self.bank4.cnt_hits.val();
        self.misses[4].next = self.bank4.cnt_misses.val();
        self.bank5.clock.next = self.clock.val();
        self.bank5.reset.next = self.reset.val();
        self.bank5.flush.next = self.flush.val();
        self.bank5.enable.next = self.enable.val();
        self.bank5.hold.next = self.hold.val();
        self.bank5.hold_next.next = self.hold_next.val();
        self.bank5.lk_valid.next = self.lk_valid[5].val() & self.room.val();
        self.bank5.lk_line.next = self.lk_line[5].val();
        self.lk_ready[5].next = self.bank5.lk_ready.val() & self.room.val();
        self.ln_valid[5].next = self.bank5.ln_valid.val();
        self.ln_hit[5].next = self.bank5.ln_hit.val();
        self.ln_line[5].next = self.bank5.ln_line.val();
        self.bank5.fill_ok.next = self.arrived.val() & (self.hbank.val() == 5);
        self.mqv[5].next = self.bank5.mq_valid.val();
        self.mql[5].next = self.bank5.mq_line.val();
        self.takes[5].next = self.bank5.fill_take.val();
        self.hits[5].next = self.bank5.cnt_hits.val();
        self.misses[5].next = self.bank5.cnt_misses.val();
        self.bank6.clock.next = self.clock.val();
        self.bank6.reset.next = self.reset.val();
        self.bank6.flush.next = self.flush.val();
        self.bank6.enable.next = self.enable.val();
        self.bank6.hold.next = self.hold.val();
        self.bank6.hold_next.next = self.hold_next.val();
        self.bank6.lk_valid.next = self.lk_valid[6].val() & self.room.val();
        self.bank6.lk_line.next = self.lk_line[6].val();
        self.lk_ready[6].next = self.bank6.lk_ready.val() & self.room.val();
        self.ln_valid[6].next = self.bank6.ln_valid.val();
        self.ln_hit[6].next = self.bank6.ln_hit.val();
        self.ln_line[6].next = self.bank6.ln_line.val();
        self.bank6.fill_ok.next = self.arrived.val() & (self.hbank.val() == 6);
        self.mqv[6].next = self.bank6.mq_valid.val();
        self.mql[6].next = self.bank6.mq_line.val();
        self.takes[6].next = self.bank6.fill_take.val();
        self.hits[6].next = self.bank6.cnt_hits.val();
        self.misses[6].next = self.bank6.cnt_misses.val();
        self.bank7.clock.next = self.clock.val();
        self.bank7.reset.next = self.reset.val();
        self.bank7.flush.next = self.flush.val();
        self.bank7.enable.next = self.enable.val();
        self.bank7.hold.next = self.hold.val();
        self.bank7.hold_next.next = self.hold_next.val();
        self.bank7.lk_valid.next = self.lk_valid[7].val() & self.room.val();
        self.bank7.lk_line.next = self.lk_line[7].val();
        self.lk_ready[7].next = self.bank7.lk_ready.val() & self.room.val();
        self.ln_valid[7].next = self.bank7.ln_valid.val();
        self.ln_hit[7].next = self.bank7.ln_hit.val();
        self.ln_line[7].next = self.bank7.ln_line.val();
        self.bank7.fill_ok.next = self.arrived.val() & (self.hbank.val() == 7);
        self.mqv[7].next = self.bank7.mq_valid.val();
        self.mql[7].next = self.bank7.mq_line.val();
        self.takes[7].next = self.bank7.fill_take.val();
        self.hits[7].next = self.bank7.cnt_hits.val();
        self.misses[7].next = self.bank7.cnt_misses.val();
        // The misses compared this cycle enter the ring in bank order.
        self.bno[0].next = 0.into();
        self.bno[1].next = 1.into();
        self.bno[2].next = 2.into();
        self.bno[3].next = 3.into();
        self.bno[4].next = 4.into();
        self.bno[5].next = 5.into();
        self.bno[6].next = 6.into();
        self.bno[7].next = 7.into();
        self.nmiss.next = 0.into();
        self.tail5.next = self.r_tail.q.val().get_bits::<5>(0);
        for b in 0..8 {
            self.mpos[b].next = self.tail5.val() + bit_cast::<5, 4>(self.nmiss.val());
            if self.mqv[b].val() {
                self.nmiss.next = self.nmiss.val() + 1;
            }
        }
        for b in 0..8 {
            for e in 0..32 {
                if self.mqv[b].val() & (self.mpos[b].val().index() == e) {
                    self.r_line[e].d.next = self.mql[b].val();
                    self.r_tag[e].d.next = self.req_tag.val();
                    self.r_bank[e].d.next = self.bno[b].val();
                }
            }
        }
        self.r_tail.d.next = self.r_tail.q.val() + bit_cast::<6, 4>(self.nmiss.val());
        // Requests in ring order.
        self.mem_req_valid.next = self.r_req.q.val() != self.r_tail.q.val();
        self.mem_req_line.next = 0.into();
        self.mem_req_tag.next = 0.into();
        for e in 0..32 {
            if self.r_req.q.val().get_bits::<5>(0).index() == e {
                self.mem_req_line.next = self.r_line[e].q.val();
                self.mem_req_tag.next = self.r_tag[e].q.val();
            }
        }
        if self.mem_req_valid.val() & self.mem_req_ready.val() {
            self.r_req.d.next = self.r_req.q.val() + 1;
        }
        // Responses into the data RAMs (one while no request is outstanding is ignored); the
        // head entry's bytes are read every clock (a bank that takes the head on an edge sees
        // them in the next cycle).
        self.resp.next = self.mem_resp_valid.val() & (self.r_arr.q.val() != self.r_req.q.val());
        for k in 0..8 {
            self.fill[k].read_clock.next = self.clock.val();
            self.fill[k].write_clock.next = self.clock.val();
            self.fill[k].write_enable.next = self.resp.val();
            self.fill[k].write_address.next = self.r_arr.q.val().get_bits::<5>(0);
            self.fill[k].write_data.next = self.mem_resp_data[k].val();
            self.fill[k].read_address.next = self.r_head.q.val().get_bits::<5>(0);
            self.bank0.fill_data[k].next = self.fill[k].read_data.val();
            self.ln_data_lo[k].next = self.bank0.ln_data[k].val();
            self.bank1.fill_data[k].next = self.fill[k].read_data.val();
            self.ln_data_lo[8 + k].next = self.bank1.ln_data[k].val();
            self.bank2.fill_data[k].next = self.fill[k].read_data.val();
            self.ln_data_lo[16 + k].next = self.bank2.ln_data[k].val();
            self.bank3.fill_data[k].next = self.fill[k].read_data.val();
            self.ln_data_lo[24 + k].next = self.bank3.ln_data[k].val();
            self.bank4.fill_data[k].next = self.fill[k].read_data.val();
            self.ln_data_hi[k].next = self.bank4.ln_data[k].val();
            self.bank5.fill_data[k].next = self.fill[k].read_data.val();
            self.ln_data_hi[8 + k].next = self.bank5.ln_data[k].val();
            self.bank6.fill_data[k].next = self.fill[k].read_data.val();
            self.ln_data_hi[16 + k].next = self.bank6.ln_data[k].val();
            self.bank7.fill_data[k].next = self.fill[k].read_data.val();
            self.ln_data_hi[24 + k].next = self.bank7.ln_data[k].val();
        }
        if self.resp.val() {
            self.r_arr.d.next = self.r_arr.q.val() + 1;
        }
        self.cnt_hits.next = 0.into();
        self.cnt_misses.next = 0.into();
        for b in 0..8 {
            if self.takes[b].val() {
                self.r_head.d.next = self.r_head.q.val() + 1;
            }
            self.cnt_hits.next = self.cnt_hits.val() + self.hits[b].val();
            self.cnt_misses.next = self.cnt_misses.val() + self.misses[b].val();
        }
        if self.reset.val() {
            self.r_tail.d.next = 0.into();
            self.r_req.d.next = 0.into();
            self.r_arr.d.next = 0.into();
            self.r_head.d.next = 0.into();
        }
    }
}
