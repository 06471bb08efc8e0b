//! Anisotropic probes: where they sample and how their values are averaged (the golden model's
//! step 3a, `texpix_tb::tex`, bit for bit).
//!
//! - [`ProbeStepRom`]: `a: Bits<8>` = {N − 1 [7:4], p [3:0]} → `y`, the f32 bits of
//!   k_p = (2p + 1 − N)/(2N) (0 for p ≥ N): the probe's offset along the major axis, in units of
//!   that axis's derivative. A 256 × 32 ROM ([`probe_step_table`]); combinational.
//! - [`ProbeAccum`]: one step of a component's block-floating-point sum (anisotropic probes,
//!   weight 1; a 3D lookup's planes, weight W_p ≤ 2^16). State `e_in` (block exponent,
//!   0 = empty), `acc_in` (45-bit two's complement, units of 2^(e − 153)), `nan_in`, `pinf_in`,
//!   `ninf_in`; `first` starts a new sum; `x` (f32) is added with weight `w`: a NaN or infinity
//!   sets its flag; a finite value's significand (denormals at exponent 1) times w with three
//!   guard bits joins the block, which is realigned first if x's exponent is larger; every shift
//!   truncates the magnitude; w = 0 adds nothing. Outputs the new state. Combinational: a 24 × 17
//!   multiplier, two 45-bit shifters, two negations and a 45-bit adder. |acc| < 2^31 for 16
//!   probes, < 2^(S + 27) ≤ 2^43 for planes with Σ W_p = 2^S.
//! - [`ProbeMean`]: the mean of `n` summed values, or with `s3` > 0 the planes' weighted sum:
//!   specials first (NaN, or both infinities ⇒ the canonical NaN; an infinity ⇒ itself), else
//!   |acc| · R (R_N = round(2^30/N) from a 16-entry constant table, or R = 2^(30 − s3); one
//!   45 × 31 multiplier whose product stays below 2^61) rounded once by [`RoundF32`] with
//!   lim = e + 6 (the value is acc · R · 2^(e − 183)). Combinational.

use crate::common::fp::{MulU, RoundF32};
use rust_hdl::prelude::*;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// k_p = (2p + 1 − N)/(2N) rounded to f32, at index 16·(N − 1) + p (0 for p ≥ N).
pub fn probe_step_table() -> [u32; 256] {
    std::array::from_fn(|i| {
        let (n, p) = ((i >> 4) as f64 + 1.0, (i & 15) as f64);
        if p < n {
            (((2.0 * p + 1.0 - n) / (2.0 * n)) as f32).to_bits()
        } else {
            0
        }
    })
}

fn step_table() -> &'static [u32; 256] {
    static T: OnceLock<[u32; 256]> = OnceLock::new();
    T.get_or_init(probe_step_table)
}

/// R_N = round(2^30 / N) for N = 1…16 (index N − 1).
pub fn probe_recip_table() -> [u32; 16] {
    std::array::from_fn(|i| {
        let n = i as u64 + 1;
        (((1u64 << 30) + n / 2) / n) as u32
    })
}

/// A 256-entry ROM's Verilog body (`a` 8 bits in, `y` 32 bits out, declared `output reg`).
pub fn rom_verilog(table: &[u32; 256]) -> Verilog {
    let mut v = String::from("always @(*) begin\n  case (a)\n");
    for (c, x) in table.iter().enumerate() {
        let _ = writeln!(v, "    8'h{c:02x}: y = 32'h{x:08x};");
    }
    v.push_str("    default: y = 32'h00000000;\n  endcase\nend");
    Verilog::Custom(v)
}

crate::settled_block! {
/// The probe step ROM. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct ProbeStepRom {
    /// {N − 1, p}.
    pub a: Signal<In, Bits<8>>,
    /// k_p, f32 bits.
    pub y: Signal<Out, Bits<32>>,
}
}

impl Logic for ProbeStepRom {
    fn update(&mut self) {
        self.y.next = u64::from(step_table()[self.a.val().index()]).into();
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        rom_verilog(step_table())
    }
}

crate::settled_block! {
/// One step of the probe sum. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct ProbeAccum {
    /// The value, f32 bits.
    pub x: Signal<In, Bits<32>>,
    /// Its weight (1 for a probe).
    pub w: Signal<In, Bits<17>>,
    /// Start a new sum (ignore the state inputs).
    pub first: Signal<In, Bit>,
    /// Block exponent.
    pub e_in: Signal<In, Bits<8>>,
    /// Sum.
    pub acc_in: Signal<In, Bits<45>>,
    /// A NaN was added.
    pub nan_in: Signal<In, Bit>,
    /// +Inf was added.
    pub pinf_in: Signal<In, Bit>,
    /// −Inf was added.
    pub ninf_in: Signal<In, Bit>,
    /// New block exponent.
    pub e: Signal<Out, Bits<8>>,
    /// New sum.
    pub acc: Signal<Out, Bits<45>>,
    /// New NaN flag.
    pub nan: Signal<Out, Bit>,
    /// New +Inf flag.
    pub pinf: Signal<Out, Bit>,
    /// New −Inf flag.
    pub ninf: Signal<Out, Bit>,
    ex: Signal<Local, Bits<8>>,
    ee: Signal<Local, Bits<8>>,
    sig: Signal<Local, Bits<45>>,
    special: Signal<Local, Bit>,
    live: Signal<Local, Bit>,
    e0: Signal<Local, Bits<8>>,
    a0: Signal<Local, Bits<45>>,
    mag: Signal<Local, Bits<45>>,
    shm: Signal<Local, Bits<45>>,
    a1: Signal<Local, Bits<45>>,
    e1: Signal<Local, Bits<8>>,
    t: Signal<Local, Bits<45>>,
    sh1: Signal<Local, Bits<8>>,
    sh2: Signal<Local, Bits<8>>,
    fnan: Signal<Local, Bit>,
    fpinf: Signal<Local, Bit>,
    fninf: Signal<Local, Bit>,
    wm: MulU<24, 17, 41>,
    sw: Signal<Local, Bits<45>>,
}
}

impl Logic for ProbeAccum {
    #[hdl_gen]
    fn update(&mut self) {
        self.ex.next = self.x.val().get_bits::<8>(23);
        self.special.next = self.ex.val() == bits::<8>(0xFF);
        self.sig.next = bit_cast::<45, 23>(self.x.val().get_bits::<23>(0));
        self.ee.next = self.ex.val();
        if self.ex.val().any() {
            self.sig.next = self.sig.val() | bits::<45>(0x80_0000);
        } else {
            self.ee.next = bits::<8>(1);
        }
        self.live.next = !self.special.val() & self.sig.val().any() & self.w.val().any();
        self.wm.a.next = self.sig.val().get_bits::<24>(0);
        self.wm.b.next = self.w.val();
        self.sw.next = bit_cast::<45, 41>(self.wm.p.val()) << 3;
        // The state so far (empty on `first`).
        self.e0.next = self.e_in.val();
        self.a0.next = self.acc_in.val();
        self.fnan.next = self.nan_in.val();
        self.fpinf.next = self.pinf_in.val();
        self.fninf.next = self.ninf_in.val();
        if self.first.val() {
            self.e0.next = bits::<8>(0);
            self.a0.next = bits::<45>(0);
            self.fnan.next = false;
            self.fpinf.next = false;
            self.fninf.next = false;
        }
        if self.special.val() & self.w.val().any() {
            if self.x.val().get_bits::<23>(0).any() {
                self.fnan.next = true;
            } else if self.x.val().get_bit(31) {
                self.fninf.next = true;
            } else {
                self.fpinf.next = true;
            }
        }
        // Realign the block to a larger exponent (magnitude shifted, sign kept).
        self.e1.next = self.e0.val();
        self.a1.next = self.a0.val();
        self.mag.next = self.a0.val();
        if self.a0.val().get_bit(44) {
            self.mag.next = bits::<45>(0) - self.a0.val();
        }
        self.sh1.next = self.ee.val() - self.e0.val();
        self.shm.next = self.mag.val() >> self.sh1.val();
        if self.live.val() & (self.ee.val() > self.e0.val()) {
            self.e1.next = self.ee.val();
            self.a1.next = self.shm.val();
            if self.a0.val().get_bit(44) {
                self.a1.next = bits::<45>(0) - self.shm.val();
            }
        }
        // Align the new value and add it with its sign.
        self.sh2.next = self.e1.val() - self.ee.val();
        self.t.next = self.sw.val() >> self.sh2.val();
        self.acc.next = self.a1.val();
        if self.live.val() {
            if self.x.val().get_bit(31) {
                self.acc.next = self.a1.val() - self.t.val();
            } else {
                self.acc.next = self.a1.val() + self.t.val();
            }
        }
        self.e.next = self.e1.val();
        self.nan.next = self.fnan.val();
        self.pinf.next = self.fpinf.val();
        self.ninf.next = self.fninf.val();
    }
}

crate::settled_block! {
/// The probe mean. See the module documentation.
#[derive(Clone, Debug)]
pub struct ProbeMean {
    /// Block exponent.
    pub e: Signal<In, Bits<8>>,
    /// Sum.
    pub acc: Signal<In, Bits<45>>,
    /// A NaN was added.
    pub nan: Signal<In, Bit>,
    /// +Inf was added.
    pub pinf: Signal<In, Bit>,
    /// −Inf was added.
    pub ninf: Signal<In, Bit>,
    /// Number of probes, 1…16.
    pub n: Signal<In, Bits<5>>,
    /// A 3D lookup's weight scale S (8 or 16; 0: the probe mean).
    pub s3: Signal<In, Bits<5>>,
    /// The mean, f32 bits.
    pub y: Signal<Out, Bits<32>>,
    /// R_N, N = 1…16 at index N − 1.
    recip: [Constant<Bits<31>>; 16],
    /// N = 1…16 as constants.
    kval: [Constant<Bits<5>>; 16],
    mul: MulU<45, 31, 64>,
    round: RoundF32,
    r: Signal<Local, Bits<31>>,
    mag: Signal<Local, Bits<45>>,
}
}

impl Default for ProbeMean {
    fn default() -> Self {
        let t = probe_recip_table();
        Self {
            settle: crate::common::settle::SettleState::new(false),
            e: Default::default(),
            acc: Default::default(),
            nan: Default::default(),
            pinf: Default::default(),
            ninf: Default::default(),
            n: Default::default(),
            s3: Default::default(),
            y: Default::default(),
            recip: std::array::from_fn(|i| Constant::new(u64::from(t[i]).into())),
            kval: std::array::from_fn(|i| Constant::new((i as u64 + 1).into())),
            mul: Default::default(),
            round: Default::default(),
            r: Default::default(),
            mag: Default::default(),
        }
    }
}

impl Logic for ProbeMean {
    #[hdl_gen]
    fn update(&mut self) {
        self.r.next = self.recip[0].val();
        for k in 0..16 {
            if self.n.val() == self.kval[k].val() {
                self.r.next = self.recip[k].val();
            }
        }
        if self.s3.val().any() {
            self.r.next = bits::<31>(1) << (bits::<31>(30) - bit_cast::<31, 5>(self.s3.val()));
        }
        self.mag.next = self.acc.val();
        if self.acc.val().get_bit(44) {
            self.mag.next = bits::<45>(0) - self.acc.val();
        }
        self.mul.a.next = self.mag.val();
        self.mul.b.next = self.r.val();
        self.round.m.next = self.mul.p.val();
        self.round.lim.next = bit_cast::<16, 8>(self.e.val()) + bits::<16>(6);
        self.round.neg.next = self.acc.val().get_bit(44);
        self.round.nan.next = self.nan.val();
        self.round.pinf.next = self.pinf.val();
        self.round.ninf.next = self.ninf.val();
        self.y.next = self.round.y.val();
    }
}
