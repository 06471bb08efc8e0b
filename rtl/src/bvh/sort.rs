//! The box node's child sort (docs/units/bvh.md §7): a five-stage compare-exchange network over four
//! (pointer, key, hit) entries, then misses replaced by 0xFFFFFFFF.
//!
//! # Ports
//! `ptr_i`, `key_i` (f32 bits), `hit_i` for i = 0…3, `sort` (box_sort_en) → `d_i`. With `sort`:
//! pairs (0,2), (1,3), (0,1), (2,3), (1,2), swapping A,B iff (B hits and key_B < key_A) or A
//! misses, `<` being IEEE's: each key enters as an order-preserving unsigned code (−0 as +0; a
//! negative value's bits inverted, a positive value's sign bit set) and a NaN flag, and a NaN on
//! either side never swaps; misses end up last. Without `sort` the slots stay in place. Finally a
//! missed slot reads 0xFFFFFFFF. Combinational, latency 0, five 32-bit comparators.

use rust_hdl::prelude::*;

crate::settled_block! {
/// The sort network. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct ChildSort {
    /// Child pointer 0.
    pub ptr_0: Signal<In, Bits<32>>,
    /// Child pointer 1.
    pub ptr_1: Signal<In, Bits<32>>,
    /// Child pointer 2.
    pub ptr_2: Signal<In, Bits<32>>,
    /// Child pointer 3.
    pub ptr_3: Signal<In, Bits<32>>,
    /// Key 0.
    pub key_0: Signal<In, Bits<32>>,
    /// Key 1.
    pub key_1: Signal<In, Bits<32>>,
    /// Key 2.
    pub key_2: Signal<In, Bits<32>>,
    /// Key 3.
    pub key_3: Signal<In, Bits<32>>,
    /// Child 0 hit.
    pub hit_0: Signal<In, Bit>,
    /// Child 1 hit.
    pub hit_1: Signal<In, Bit>,
    /// Child 2 hit.
    pub hit_2: Signal<In, Bit>,
    /// Child 3 hit.
    pub hit_3: Signal<In, Bit>,
    /// Sort by key.
    pub sort: Signal<In, Bit>,
    /// Result dword 0.
    pub d_0: Signal<Out, Bits<32>>,
    /// Result dword 1.
    pub d_1: Signal<Out, Bits<32>>,
    /// Result dword 2.
    pub d_2: Signal<Out, Bits<32>>,
    /// Result dword 3.
    pub d_3: Signal<Out, Bits<32>>,
    p: [Signal<Local, Bits<32>>; 4],
    k: [Signal<Local, Bits<32>>; 4],
    v: [Signal<Local, Bit>; 4],
    tp: Signal<Local, Bits<32>>,
    tk: Signal<Local, Bits<32>>,
    tv: Signal<Local, Bit>,
    swap: Signal<Local, Bit>,
    raw: [Signal<Local, Bits<32>>; 4],
    n: [Signal<Local, Bit>; 4],
    tn: Signal<Local, Bit>,
}
}

impl Logic for ChildSort {
    #[hdl_gen]
    fn update(&mut self) {
        self.p[0].next = self.ptr_0.val();
        self.p[1].next = self.ptr_1.val();
        self.p[2].next = self.ptr_2.val();
        self.p[3].next = self.ptr_3.val();
        self.raw[0].next = self.key_0.val();
        self.raw[1].next = self.key_1.val();
        self.raw[2].next = self.key_2.val();
        self.raw[3].next = self.key_3.val();
        for i in 0..4 {
            self.n[i].next = (self.raw[i].val().get_bits::<8>(23) == bits::<8>(0xFF))
                & self.raw[i].val().get_bits::<23>(0).any();
            self.k[i].next = self.raw[i].val() | bits::<32>(0x8000_0000_u64);
            if self.raw[i].val().get_bit(31) {
                self.k[i].next = !self.raw[i].val();
            }
            if self.raw[i].val() == bits::<32>(0x8000_0000_u64) {
                self.k[i].next = bits::<32>(0x8000_0000_u64);
            }
        }
        self.v[0].next = self.hit_0.val();
        self.v[1].next = self.hit_1.val();
        self.v[2].next = self.hit_2.val();
        self.v[3].next = self.hit_3.val();
        // Compare-exchange (0,2), (1,3), (0,1), (2,3), (1,2).
        self.swap.next = self.sort.val()
            & ((self.v[2].val()
                & !self.n[2].val()
                & !self.n[0].val()
                & (self.k[2].val() < self.k[0].val()))
                | !self.v[0].val());
        self.tp.next = self.p[0].val();
        self.tk.next = self.k[0].val();
        self.tv.next = self.v[0].val();
        self.tn.next = self.n[0].val();
        if self.swap.val() {
            self.p[0].next = self.p[2].val();
            self.k[0].next = self.k[2].val();
            self.v[0].next = self.v[2].val();
            self.n[0].next = self.n[2].val();
            self.p[2].next = self.tp.val();
            self.k[2].next = self.tk.val();
            self.v[2].next = self.tv.val();
            self.n[2].next = self.tn.val();
        }
        self.swap.next = self.sort.val()
            & ((self.v[3].val()
                & !self.n[3].val()
                & !self.n[1].val()
                & (self.k[3].val() < self.k[1].val()))
                | !self.v[1].val());
        self.tp.next = self.p[1].val();
        self.tk.next = self.k[1].val();
        self.tv.next = self.v[1].val();
        self.tn.next = self.n[1].val();
        if self.swap.val() {
            self.p[1].next = self.p[3].val();
            self.k[1].next = self.k[3].val();
            self.v[1].next = self.v[3].val();
            self.n[1].next = self.n[3].val();
            self.p[3].next = self.tp.val();
            self.k[3].next = self.tk.val();
            self.v[3].next = self.tv.val();
            self.n[3].next = self.tn.val();
        }
        self.swap.next = self.sort.val()
            & ((self.v[1].val()
                & !self.n[1].val()
                & !self.n[0].val()
                & (self.k[1].val() < self.k[0].val()))
                | !self.v[0].val());
        self.tp.next = self.p[0].val();
        self.tk.next = self.k[0].val();
        self.tv.next = self.v[0].val();
        self.tn.next = self.n[0].val();
        if self.swap.val() {
            self.p[0].next = self.p[1].val();
            self.k[0].next = self.k[1].val();
            self.v[0].next = self.v[1].val();
            self.n[0].next = self.n[1].val();
            self.p[1].next = self.tp.val();
            self.k[1].next = self.tk.val();
            self.v[1].next = self.tv.val();
            self.n[1].next = self.tn.val();
        }
        self.swap.next = self.sort.val()
            & ((self.v[3].val()
                & !self.n[3].val()
                & !self.n[2].val()
                & (self.k[3].val() < self.k[2].val()))
                | !self.v[2].val());
        self.tp.next = self.p[2].val();
        self.tk.next = self.k[2].val();
        self.tv.next = self.v[2].val();
        self.tn.next = self.n[2].val();
        if self.swap.val() {
            self.p[2].next = self.p[3].val();
            self.k[2].next = self.k[3].val();
            self.v[2].next = self.v[3].val();
            self.n[2].next = self.n[3].val();
            self.p[3].next = self.tp.val();
            self.k[3].next = self.tk.val();
            self.v[3].next = self.tv.val();
            self.n[3].next = self.tn.val();
        }
        self.swap.next = self.sort.val()
            & ((self.v[2].val()
                & !self.n[2].val()
                & !self.n[1].val()
                & (self.k[2].val() < self.k[1].val()))
                | !self.v[1].val());
        self.tp.next = self.p[1].val();
        self.tk.next = self.k[1].val();
        self.tv.next = self.v[1].val();
        self.tn.next = self.n[1].val();
        if self.swap.val() {
            self.p[1].next = self.p[2].val();
            self.k[1].next = self.k[2].val();
            self.v[1].next = self.v[2].val();
            self.n[1].next = self.n[2].val();
            self.p[2].next = self.tp.val();
            self.k[2].next = self.tk.val();
            self.v[2].next = self.tv.val();
            self.n[2].next = self.tn.val();
        }
        for i in 0..4 {
            if !self.v[i].val() {
                self.p[i].next = bits::<32>(0xFFFF_FFFF_u64);
            }
        }
        self.d_0.next = self.p[0].val();
        self.d_1.next = self.p[1].val();
        self.d_2.next = self.p[2].val();
        self.d_3.next = self.p[3].val();
    }
}
