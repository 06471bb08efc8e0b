//! The sRGB decode ROM: 256 entries of f32, indexed by the 8-bit sRGB-encoded value.
//!
//! Ports: `a: Bits<8>` (the encoded byte c) → `y: Bits<32>` (f32 bits of the linear value).
//! Combinational, latency 0. One 256 × 32 ROM; no arithmetic.
//!
//! Contents ([`srgb_table`]), computed here at elaboration in f64 and rounded once to f32 (round to
//! nearest even, by the host's `f64 as f32`): with s = c / 255, `s / 12.92` for s ≤ 0.04045, else
//! `((s + 0.055) / 1.055)^2.4` (the inverse of the sRGB transfer function).
//!
//! The block is a leaf with its own simulation (a table lookup) and a Verilog `case` generated
//! from the same table, so the two cannot drift apart (`tb/tests/tex_blocks.rs` checks every entry
//! through the converter against the golden model, and the unit's Verilator co-simulation runs the
//! generated `case`).

use rust_hdl::prelude::*;
use std::sync::OnceLock;

/// The linear value of each sRGB byte, as f32 bits (see the module documentation).
pub fn srgb_table() -> [u32; 256] {
    std::array::from_fn(|c| {
        let s = c as f64 / 255.0;
        let v = if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        };
        (v as f32).to_bits()
    })
}

/// [`srgb_table`], computed once.
fn table() -> &'static [u32; 256] {
    static T: OnceLock<[u32; 256]> = OnceLock::new();
    T.get_or_init(srgb_table)
}

crate::settled_block! {
/// The ROM. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct SrgbRom {
    /// sRGB-encoded byte.
    pub a: Signal<In, Bits<8>>,
    /// Linear value, f32 bits.
    pub y: Signal<Out, Bits<32>>,
}
}

impl Logic for SrgbRom {
    fn update(&mut self) {
        self.y.next = u64::from(table()[self.a.val().index()]).into();
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        super::probe::rom_verilog(table())
    }
}
