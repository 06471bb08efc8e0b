//! f32 3-vector cross and dot products with a fixed operation order (each product rounded, then
//! sums rounded left to right; round to nearest even, denormals kept). Built with `new(mul, add)`:
//! every multiplier is the pipelined core [`FpMulP`] with `mul` register stages and every adder
//! [`FpAddP`] with `add`, so the cross product has latency `mul + add` and the dot product
//! `mul + 2·add`, one result per advancing clock; `default()` is combinational (latency 0).
//! The stall comes in as `adv_next`, the advance of the next clock, and is registered in an
//! [`EnableCopy`] per operator, so that no enable net spans the block (a single one, from the
//! triangle test's port, was its worst path at 65.3 MHz on the ECP5-85F: 14.8 ns of routing).
//! Ports are scalar so the blocks can live in arrays.

use crate::common::fp::{FpAddP, FpMulP, Retime};
use crate::common::EnableCopy;
use rust_hdl::prelude::*;

crate::settled_block! {
/// `w = u × v`, component c = `u_{c+1}·v_{c+2} − u_{c+2}·v_{c+1}` (indices mod 3): two rounded
/// products, one rounded subtraction. 6 multipliers, 3 subtracters. Latency `mul + add`.
#[derive(Clone, Debug)]
pub struct Cross3 {
    /// Clock (used only with register stages).
    pub clock: Signal<In, Clock>,
    /// Advance the register stages in the next clock (registered per operator).
    pub adv_next: Signal<In, Bit>,
    /// u.x
    pub ux: Signal<In, Bits<32>>,
    /// u.y
    pub uy: Signal<In, Bits<32>>,
    /// u.z
    pub uz: Signal<In, Bits<32>>,
    /// v.x
    pub vx: Signal<In, Bits<32>>,
    /// v.y
    pub vy: Signal<In, Bits<32>>,
    /// v.z
    pub vz: Signal<In, Bits<32>>,
    /// w.x = u.y·v.z − u.z·v.y
    pub wx: Signal<Out, Bits<32>>,
    /// w.y = u.z·v.x − u.x·v.z
    pub wy: Signal<Out, Bits<32>>,
    /// w.z = u.x·v.y − u.y·v.x
    pub wz: Signal<Out, Bits<32>>,
    mul: [FpMulP; 6],
    sub: [FpAddP; 3],
    /// The advance of each multiplier (0…5) and subtracter (6…8).
    e: [EnableCopy; 9],
}
}

impl Default for Cross3 {
    fn default() -> Self {
        Self::new(0, 0)
    }
}

impl Cross3 {
    /// The cross product with `mul` register stages per multiplier and `add` per subtracter
    /// (latency `mul + add`).
    pub fn new(mul: usize, add: usize) -> Self {
        use std::array::from_fn;
        Self {
            settle: crate::common::settle::SettleState::new(mul + add > 0),
            clock: Default::default(),
            adv_next: Default::default(),
            e: Default::default(),
            ux: Default::default(),
            uy: Default::default(),
            uz: Default::default(),
            vx: Default::default(),
            vy: Default::default(),
            vz: Default::default(),
            wx: Default::default(),
            wy: Default::default(),
            wz: Default::default(),
            mul: from_fn(|_| FpMulP::new(mul)),
            sub: from_fn(|_| FpAddP::new(add)),
        }
    }
}

impl Logic for Cross3 {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..9 {
            self.e[i].clock.next = self.clock.val();
            self.e[i].d.next = self.adv_next.val();
        }
        for i in 0..6 {
            self.mul[i].clock.next = self.clock.val();
            self.mul[i].en.next = self.e[i].q.val();
        }
        self.mul[0].a.next = self.uy.val();
        self.mul[0].b.next = self.vz.val();
        self.mul[1].a.next = self.uz.val();
        self.mul[1].b.next = self.vy.val();
        self.mul[2].a.next = self.uz.val();
        self.mul[2].b.next = self.vx.val();
        self.mul[3].a.next = self.ux.val();
        self.mul[3].b.next = self.vz.val();
        self.mul[4].a.next = self.ux.val();
        self.mul[4].b.next = self.vy.val();
        self.mul[5].a.next = self.uy.val();
        self.mul[5].b.next = self.vx.val();
        for c in 0..3 {
            self.sub[c].clock.next = self.clock.val();
            self.sub[c].en.next = self.e[6 + c].q.val();
            self.sub[c].a.next = self.mul[2 * c].y.val();
            self.sub[c].b.next = self.mul[2 * c + 1].y.val();
            self.sub[c].sub.next = true;
        }
        self.wx.next = self.sub[0].y.val();
        self.wy.next = self.sub[1].y.val();
        self.wz.next = self.sub[2].y.val();
    }
}

crate::settled_block! {
/// `s = (u.x·v.x + u.y·v.y) + u.z·v.z`: three rounded products, two rounded additions (the third
/// product waits beside the first addition). Latency `mul + 2·add`.
#[derive(Clone, Debug)]
pub struct Dot3 {
    /// Clock (used only with register stages).
    pub clock: Signal<In, Clock>,
    /// Advance the register stages in the next clock (registered per operator).
    pub adv_next: Signal<In, Bit>,
    /// u.x
    pub ux: Signal<In, Bits<32>>,
    /// u.y
    pub uy: Signal<In, Bits<32>>,
    /// u.z
    pub uz: Signal<In, Bits<32>>,
    /// v.x
    pub vx: Signal<In, Bits<32>>,
    /// v.y
    pub vy: Signal<In, Bits<32>>,
    /// v.z
    pub vz: Signal<In, Bits<32>>,
    /// The dot product.
    pub s: Signal<Out, Bits<32>>,
    mul: [FpMulP; 3],
    add: [FpAddP; 2],
    /// u.z·v.z beside the first addition.
    z: Retime<Bits<32>>,
    /// The advance of each multiplier (0…2) and adder (3, 4; the first one's also `z`).
    e: [EnableCopy; 5],
}
}

impl Default for Dot3 {
    fn default() -> Self {
        Self::new(0, 0)
    }
}

impl Dot3 {
    /// The dot product with `mul` register stages per multiplier and `add` per adder (latency
    /// `mul + 2·add`).
    pub fn new(mul: usize, add: usize) -> Self {
        use std::array::from_fn;
        Self {
            settle: crate::common::settle::SettleState::new(mul + add > 0),
            clock: Default::default(),
            adv_next: Default::default(),
            e: Default::default(),
            ux: Default::default(),
            uy: Default::default(),
            uz: Default::default(),
            vx: Default::default(),
            vy: Default::default(),
            vz: Default::default(),
            s: Default::default(),
            mul: from_fn(|_| FpMulP::new(mul)),
            add: from_fn(|_| FpAddP::new(add)),
            z: Retime::new(add),
        }
    }
}

impl Logic for Dot3 {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..5 {
            self.e[i].clock.next = self.clock.val();
            self.e[i].d.next = self.adv_next.val();
        }
        for i in 0..3 {
            self.mul[i].clock.next = self.clock.val();
            self.mul[i].en.next = self.e[i].q.val();
        }
        for i in 0..2 {
            self.add[i].clock.next = self.clock.val();
            self.add[i].en.next = self.e[3 + i].q.val();
            self.add[i].sub.next = false;
        }
        self.mul[0].a.next = self.ux.val();
        self.mul[0].b.next = self.vx.val();
        self.mul[1].a.next = self.uy.val();
        self.mul[1].b.next = self.vy.val();
        self.mul[2].a.next = self.uz.val();
        self.mul[2].b.next = self.vz.val();
        self.add[0].a.next = self.mul[0].y.val();
        self.add[0].b.next = self.mul[1].y.val();
        self.z.clock.next = self.clock.val();
        self.z.en.next = self.e[3].q.val();
        self.z.d.next = self.mul[2].y.val();
        self.add[1].a.next = self.add[0].y.val();
        self.add[1].b.next = self.z.q.val();
        self.s.next = self.add[1].y.val();
    }
}
