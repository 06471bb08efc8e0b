//! Cube-map face selection: the major axis of a direction (s, t, r) and the face coordinates,
//! per the Vulkan / Direct3D cube-map table.
//!
//! # Ports
//! `x`, `y`, `z` (f32 bits: s, t, r) → `face` (0 +x, 1 −x, 2 +y, 3 −y, 4 +z, 5 −z), `sc`, `tc`
//! (f32 bits, the table's face coordinates before division) and `ma` (the major component's
//! magnitude, sign cleared).
//!
//! # Rule
//! Magnitudes are compared as unsigned integers of the bit patterns with the sign cleared: exact
//! for every non-NaN value (denormals and ±0 included; +0 and −0 are equal), a NaN magnitude
//! ranking above +Inf and NaNs among themselves by payload (no public reference fixes NaN
//! directions; this costs no NaN detection). Major axis z if |z| ≥ |y| and |z| ≥ |x|, else y if |y| ≥ |x|, else x:
//! ties go to z over y over x. The face's sign is the major component's sign bit (−0 ⇒ the
//! negative face). Table (negation flips the sign bit): +x sc = −z, tc = −y; −x sc = z,
//! tc = −y; +y sc = x, tc = z; −y sc = x, tc = −z; +z sc = x, tc = −y; −z sc = −x, tc = −y.
//! Combinational, latency 0: three 31-bit comparators and the selection. `TexUnit` runs one
//! instance, one lane per two clocks, before the divisions by `ma` (docs/units/tex.md §3 step 0c).

use rust_hdl::prelude::*;

crate::settled_block! {
/// Cube face selection. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct CubeFace {
    /// s.
    pub x: Signal<In, Bits<32>>,
    /// t.
    pub y: Signal<In, Bits<32>>,
    /// r.
    pub z: Signal<In, Bits<32>>,
    /// Face 0…5.
    pub face: Signal<Out, Bits<3>>,
    /// Face s coordinate (before division by `ma`).
    pub sc: Signal<Out, Bits<32>>,
    /// Face t coordinate.
    pub tc: Signal<Out, Bits<32>>,
    /// |major component|.
    pub ma: Signal<Out, Bits<32>>,
    ax: Signal<Local, Bits<32>>,
    ay: Signal<Local, Bits<32>>,
    az: Signal<Local, Bits<32>>,
    nx: Signal<Local, Bits<32>>,
    ny: Signal<Local, Bits<32>>,
    nz: Signal<Local, Bits<32>>,
    f: Signal<Local, Bits<3>>,
    lsc: Signal<Local, Bits<32>>,
    ltc: Signal<Local, Bits<32>>,
    lma: Signal<Local, Bits<32>>,
}
}

impl Logic for CubeFace {
    #[hdl_gen]
    fn update(&mut self) {
        self.ax.next = self.x.val() & bits::<32>(0x7FFF_FFFF);
        self.ay.next = self.y.val() & bits::<32>(0x7FFF_FFFF);
        self.az.next = self.z.val() & bits::<32>(0x7FFF_FFFF);
        self.nx.next = self.x.val() ^ bits::<32>(0x8000_0000_u64);
        self.ny.next = self.y.val() ^ bits::<32>(0x8000_0000_u64);
        self.nz.next = self.z.val() ^ bits::<32>(0x8000_0000_u64);
        // +x by default.
        self.f.next = 0.into();
        self.lsc.next = self.nz.val();
        self.ltc.next = self.ny.val();
        self.lma.next = self.ax.val();
        if self.x.val().get_bit(31) {
            self.f.next = 1.into();
            self.lsc.next = self.z.val();
        }
        if self.ay.val() >= self.ax.val() {
            self.f.next = 2.into();
            self.lsc.next = self.x.val();
            self.ltc.next = self.z.val();
            self.lma.next = self.ay.val();
            if self.y.val().get_bit(31) {
                self.f.next = 3.into();
                self.ltc.next = self.nz.val();
            }
        }
        if (self.az.val() >= self.ay.val()) & (self.az.val() >= self.ax.val()) {
            self.f.next = 4.into();
            self.lsc.next = self.x.val();
            self.ltc.next = self.ny.val();
            self.lma.next = self.az.val();
            if self.z.val().get_bit(31) {
                self.f.next = 5.into();
                self.lsc.next = self.nx.val();
            }
        }
        self.face.next = self.f.val();
        self.sc.next = self.lsc.val();
        self.tc.next = self.ltc.val();
        self.ma.next = self.lma.val();
    }
}
