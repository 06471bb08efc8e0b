//! f32 3-vector cross and dot products with a fixed operation order (each product rounded, then
//! sums rounded left to right; round to nearest even, denormals kept). Combinational, latency 0.
//! Ports are scalar so the blocks can live in arrays.

use crate::common::fp::{FpAdd, FpMul};
use rust_hdl::prelude::*;

crate::settled_block! {
/// `w = u × v`, component c = `u_{c+1}·v_{c+2} − u_{c+2}·v_{c+1}` (indices mod 3): two rounded
/// products, one rounded subtraction. 6 multipliers, 3 subtracters.
#[derive(Clone, Debug, Default)]
pub struct Cross3 {
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
    mul: [FpMul; 6],
    sub: [FpAdd; 3],
}
}

impl Logic for Cross3 {
    #[hdl_gen]
    fn update(&mut self) {
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
/// `s = (u.x·v.x + u.y·v.y) + u.z·v.z`: three rounded products, two rounded additions.
#[derive(Clone, Debug, Default)]
pub struct Dot3 {
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
    mul: [FpMul; 3],
    add: [FpAdd; 2],
}
}

impl Logic for Dot3 {
    #[hdl_gen]
    fn update(&mut self) {
        self.mul[0].a.next = self.ux.val();
        self.mul[0].b.next = self.vx.val();
        self.mul[1].a.next = self.uy.val();
        self.mul[1].b.next = self.vy.val();
        self.mul[2].a.next = self.uz.val();
        self.mul[2].b.next = self.vz.val();
        self.add[0].a.next = self.mul[0].y.val();
        self.add[0].b.next = self.mul[1].y.val();
        self.add[0].sub.next = false;
        self.add[1].a.next = self.add[0].y.val();
        self.add[1].b.next = self.mul[2].y.val();
        self.add[1].sub.next = false;
        self.s.next = self.add[1].y.val();
    }
}
