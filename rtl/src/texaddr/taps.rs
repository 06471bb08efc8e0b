//! Byte addresses and residency tiles of one lane's four taps at one level (the linear layout of
//! `docs/units/texaddr.md`).
//!
//! Ports: `i0`, `i1`, `j0`, `j1` (the low 16 bits of the wrapped texels; border taps' addresses
//! are discarded by the unit), `layer` (clamped), `start`, `pitch`,
//! `slice` (from [`super::LevelLayout`]), `bpp_log2` → per tap k (order (i0,j0), (i1,j0), (i0,j1),
//! (i1,j1)) `addr<k>` = start + off (modulo 2^48) and `tile<k>` = off >> 16 (the 64 KiB tile within
//! the level), off = layer·slice + j·pitch + i·bpp. One 16×36 and two 16×20 products, six
//! 48-bit adds; `clock` and `en` (advance; every register holds while low).
//!
//! # Timing
//! [`TapAddr::new`]`(cuts)`, `cuts` 0…[`TapAddr::MAX_CUTS`]: 0 is combinational; 1 registers
//! the products, the column offsets i·bpp and `start` (cut T1, between the DSP products and the
//! adds); 2 also registers the four offsets and `start` (cut T2, between the row sums and the
//! start addition); 3 also registers the products' operands (cut T0, in front of the DSP slices,
//! so that a register placed beside them takes the route from the axes), the column offsets and
//! `start`. Latency `cuts`, one result per enabled clock.

use crate::common::fp::{MulUReg, Retime};
use rust_hdl::prelude::*;

crate::settled_block! {
/// Tap addresses. See the module documentation.
#[derive(Clone, Debug)]
pub struct TapAddr {
    /// Clock (used only with registers).
    pub clock: Signal<In, Clock>,
    /// Advance the registers.
    pub en: Signal<In, Bit>,
    /// First texel along u.
    pub i0: Signal<In, Bits<16>>,
    /// Second texel along u.
    pub i1: Signal<In, Bits<16>>,
    /// First texel along v.
    pub j0: Signal<In, Bits<16>>,
    /// Second texel along v.
    pub j1: Signal<In, Bits<16>>,
    /// Array layer.
    pub layer: Signal<In, Bits<16>>,
    /// Level start address.
    pub start: Signal<In, Bits<48>>,
    /// Row pitch in bytes.
    pub pitch: Signal<In, Bits<20>>,
    /// Layer size in bytes.
    pub slice: Signal<In, Bits<36>>,
    /// log2 bytes per texel.
    pub bpp_log2: Signal<In, Bits<3>>,
    /// Byte address of tap 0.
    pub addr0: Signal<Out, Bits<48>>,
    /// Byte address of tap 1.
    pub addr1: Signal<Out, Bits<48>>,
    /// Byte address of tap 2.
    pub addr2: Signal<Out, Bits<48>>,
    /// Byte address of tap 3.
    pub addr3: Signal<Out, Bits<48>>,
    /// Residency tile of tap 0.
    pub tile0: Signal<Out, Bits<32>>,
    /// Residency tile of tap 1.
    pub tile1: Signal<Out, Bits<32>>,
    /// Residency tile of tap 2.
    pub tile2: Signal<Out, Bits<32>>,
    /// Residency tile of tap 3.
    pub tile3: Signal<Out, Bits<32>>,
    /// The products: combinational, or with cut T0 on their operands and cut T1 on the product.
    lay: MulUReg<16, 36, 48>,
    row0: MulUReg<16, 20, 36>,
    row1: MulUReg<16, 20, 36>,
    col0: Signal<Local, Bits<48>>,
    col1: Signal<Local, Bits<48>>,
    /// Cut T1 (and T0): the products (in the multipliers with T0), the column offsets and the
    /// start.
    t1_lay: Retime<Bits<48>>,
    t1_row: [Retime<Bits<36>>; 2],
    t1_col: [Retime<Bits<48>>; 2],
    t1_start: Retime<Bits<48>>,
    r0: Signal<Local, Bits<48>>,
    r1: Signal<Local, Bits<48>>,
    off: [Signal<Local, Bits<48>>; 4],
    /// Cut T2: the offsets and the start.
    t2_off: [Retime<Bits<48>>; 4],
    t2_start: Retime<Bits<48>>,
}
}

impl Default for TapAddr {
    fn default() -> Self {
        Self::new(0)
    }
}

impl TapAddr {
    /// Most registers [`TapAddr::new`] places (cuts T1, T2 and T0).
    pub const MAX_CUTS: usize = 3;

    /// The block with `cuts` (0…[`TapAddr::MAX_CUTS`]) registers: latency `cuts`.
    pub fn new(cuts: usize) -> Self {
        use std::array::from_fn;
        assert!(
            cuts <= Self::MAX_CUTS,
            "TapAddr: {cuts} cuts (0…{})",
            Self::MAX_CUTS
        );
        let (t1, t2, t0) = (cuts.min(1), cuts.clamp(1, 2) - 1, cuts.saturating_sub(2));
        Self {
            settle: crate::common::settle::SettleState::new(cuts > 0),
            clock: Default::default(),
            en: Default::default(),
            i0: Default::default(),
            i1: Default::default(),
            j0: Default::default(),
            j1: Default::default(),
            layer: Default::default(),
            start: Default::default(),
            pitch: Default::default(),
            slice: Default::default(),
            bpp_log2: Default::default(),
            addr0: Default::default(),
            addr1: Default::default(),
            addr2: Default::default(),
            addr3: Default::default(),
            tile0: Default::default(),
            tile1: Default::default(),
            tile2: Default::default(),
            tile3: Default::default(),
            lay: MulUReg::new(t0 == 1),
            row0: MulUReg::new(t0 == 1),
            row1: MulUReg::new(t0 == 1),
            col0: Default::default(),
            col1: Default::default(),
            t1_lay: Retime::new(t1 - t0),
            t1_row: from_fn(|_| Retime::new(t1 - t0)),
            t1_col: from_fn(|_| Retime::new(t0 + t1)),
            t1_start: Retime::new(t0 + t1),
            r0: Default::default(),
            r1: Default::default(),
            off: Default::default(),
            t2_off: from_fn(|_| Retime::new(t2)),
            t2_start: Retime::new(t2),
        }
    }

    /// Register stages (the latency in enabled clocks).
    pub fn stages(&self) -> usize {
        self.t1_start.stages() + self.t2_start.stages()
    }
}

impl Logic for TapAddr {
    #[hdl_gen]
    fn update(&mut self) {
        self.lay.clock.next = self.clock.val();
        self.lay.en.next = self.en.val();
        self.row0.clock.next = self.clock.val();
        self.row0.en.next = self.en.val();
        self.row1.clock.next = self.clock.val();
        self.row1.en.next = self.en.val();
        self.lay.a.next = self.layer.val();
        self.lay.b.next = self.slice.val();
        self.row0.a.next = self.j0.val();
        self.row0.b.next = self.pitch.val();
        self.row1.a.next = self.j1.val();
        self.row1.b.next = self.pitch.val();
        self.col0.next = bit_cast::<48, 16>(self.i0.val()) << self.bpp_log2.val();
        self.col1.next = bit_cast::<48, 16>(self.i1.val()) << self.bpp_log2.val();
        // Cut T1.
        self.t1_lay.clock.next = self.clock.val();
        self.t1_lay.en.next = self.en.val();
        self.t1_lay.d.next = self.lay.p.val();
        self.t1_start.clock.next = self.clock.val();
        self.t1_start.en.next = self.en.val();
        self.t1_start.d.next = self.start.val();
        for k in 0..2 {
            self.t1_row[k].clock.next = self.clock.val();
            self.t1_row[k].en.next = self.en.val();
            self.t1_col[k].clock.next = self.clock.val();
            self.t1_col[k].en.next = self.en.val();
        }
        self.t1_row[0].d.next = self.row0.p.val();
        self.t1_row[1].d.next = self.row1.p.val();
        self.t1_col[0].d.next = self.col0.val();
        self.t1_col[1].d.next = self.col1.val();
        self.r0.next = self.t1_lay.q.val() + bit_cast::<48, 36>(self.t1_row[0].q.val());
        self.r1.next = self.t1_lay.q.val() + bit_cast::<48, 36>(self.t1_row[1].q.val());
        self.off[0].next = self.r0.val() + self.t1_col[0].q.val();
        self.off[1].next = self.r0.val() + self.t1_col[1].q.val();
        self.off[2].next = self.r1.val() + self.t1_col[0].q.val();
        self.off[3].next = self.r1.val() + self.t1_col[1].q.val();
        // Cut T2.
        for k in 0..4 {
            self.t2_off[k].clock.next = self.clock.val();
            self.t2_off[k].en.next = self.en.val();
            self.t2_off[k].d.next = self.off[k].val();
        }
        self.t2_start.clock.next = self.clock.val();
        self.t2_start.en.next = self.en.val();
        self.t2_start.d.next = self.t1_start.q.val();
        self.addr0.next = self.t2_start.q.val() + self.t2_off[0].q.val();
        self.tile0.next = self.t2_off[0].q.val().get_bits::<32>(16);
        self.addr1.next = self.t2_start.q.val() + self.t2_off[1].q.val();
        self.tile1.next = self.t2_off[1].q.val().get_bits::<32>(16);
        self.addr2.next = self.t2_start.q.val() + self.t2_off[2].q.val();
        self.tile2.next = self.t2_off[2].q.val().get_bits::<32>(16);
        self.addr3.next = self.t2_start.q.val() + self.t2_off[3].q.val();
        self.tile3.next = self.t2_off[3].q.val().get_bits::<32>(16);
    }
}
