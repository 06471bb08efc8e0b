//! Depth compare (percentage-closer filtering's per-tap test): the reference against each of
//! eight taps' depth, each result 1.0 or 0.0 (the golden model's `texel::compare_ref` and
//! `texel::compare_tap`, bit for bit).
//!
//! # Ports
//! - `reference: Bits<32>` — the lane's raw f32 reference.
//! - `unorm: Bit` — the texture format is UNORM (`d16` and every other UNORM format): the
//!   reference is clamped to [0, 1].
//! - `func: Bits<3>` — the compare function, Vulkan's order: 0 never, 1 less, 2 equal, 3 lequal,
//!   4 greater, 5 notequal, 6 gequal, 7 always (`reference OP z`).
//! - `z: [Bits<32>; 8]` — the taps' component 0, f32 bits.
//! - `pass: [Bits<32>; 8]` — 0x3F800000 (1.0) where `reference OP z` holds, else 0.
//!
//! Combinational, latency 0.
//!
//! # What it computes
//! The reference is flushed (a denormal becomes a signed zero); with `unorm` and not NaN, a
//! negative non-zero reference (−Inf included) becomes +0 and one above 1.0 (+Inf included)
//! becomes 1.0 (−0 stays −0, which compares equal to +0). Each tap is then compared by an
//! [`FpCmp`] (IEEE relations: −0 = +0, a NaN on either side is unordered; tap denormals compare
//! exactly). The function's bits select the relations that pass — bit 0 less, bit 1 equal,
//! bit 2 greater, and unordered for `notequal` and `always` (codes 5 and 7) — so no compare
//! result needs decoding per function. No rounding happens.
//!
//! # Cost
//! The clamp (two 31-bit magnitude comparisons against constants and a 32-bit multiplexer),
//! eight [`FpCmp`] of which only the relation outputs are used (their minNum/maxNum logic is left
//! for synthesis to remove), and eight 4-input AND-OR selections.

use crate::common::fp::FpCmp;
use rust_hdl::prelude::*;

crate::settled_block! {
/// The depth comparator. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct DepthCompare {
    /// Raw reference, f32 bits.
    pub reference: Signal<In, Bits<32>>,
    /// The format is UNORM: clamp the reference to [0, 1].
    pub unorm: Signal<In, Bit>,
    /// Compare function code.
    pub func: Signal<In, Bits<3>>,
    /// Tap depths, f32 bits.
    pub z: [Signal<In, Bits<32>>; 8],
    /// 1.0 where the test passes, else 0.
    pub pass: [Signal<Out, Bits<32>>; 8],
    zcmp: [FpCmp; 8],
    rflush: Signal<Local, Bits<32>>,
    rmag: Signal<Local, Bits<32>>,
    rc: Signal<Local, Bits<32>>,
    take_lt: Signal<Local, Bit>,
    take_eq: Signal<Local, Bit>,
    take_gt: Signal<Local, Bit>,
    take_un: Signal<Local, Bit>,
    hold: [Signal<Local, Bit>; 8],
    res: [Signal<Local, Bits<32>>; 8],
}
}

impl Logic for DepthCompare {
    #[hdl_gen]
    fn update(&mut self) {
        self.rflush.next = self.reference.val();
        if !self.reference.val().get_bits::<8>(23).any() {
            self.rflush.next = self.reference.val() & bits::<32>(0x8000_0000_u64);
        }
        self.rmag.next = self.rflush.val() & bits::<32>(0x7fff_ffff);
        self.rc.next = self.rflush.val();
        if self.unorm.val() & (self.rmag.val() <= bits::<32>(0x7f80_0000)) {
            if self.rflush.val().get_bit(31) & self.rmag.val().any() {
                self.rc.next = bits::<32>(0);
            }
            if !self.rflush.val().get_bit(31) & (self.rmag.val() > bits::<32>(0x3f80_0000)) {
                self.rc.next = bits::<32>(0x3f80_0000);
            }
        }
        self.take_lt.next = self.func.val().get_bit(0);
        self.take_eq.next = self.func.val().get_bit(1);
        self.take_gt.next = self.func.val().get_bit(2);
        self.take_un.next = self.func.val().get_bit(0) & self.func.val().get_bit(2);
        for k in 0..8 {
            self.zcmp[k].a.next = self.rc.val();
            self.zcmp[k].b.next = self.z[k].val();
            self.hold[k].next = (self.take_lt.val() & self.zcmp[k].lt.val())
                | (self.take_eq.val() & self.zcmp[k].eq.val())
                | (self.take_gt.val() & self.zcmp[k].gt.val())
                | (self.take_un.val() & self.zcmp[k].unordered.val());
            self.res[k].next = bits::<32>(0);
            if self.hold[k].val() {
                self.res[k].next = bits::<32>(0x3f80_0000);
            }
            self.pass[k].next = self.res[k].val();
        }
    }
}
