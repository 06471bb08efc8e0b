//! Stage 0 of the texture address pipeline: TXD register decode and pointer checks, registered
//! into stage 1 (see `docs/units/texaddr.md`; the instruction is NVIDIA's SASS TXD).
//!
//! # Ports
//! Inputs (the unit's input ports of the same names, see [`super::TexAddrUnit`]): `in_tag`, the
//! register payload `in_ra[4·lane + k]` (Ra+k), the immediates `in_bindless` (.B), `in_lc` (.LC),
//! `in_aoffi` (.AOFFI), `in_param_a`, `in_ogl`, the constant-bank handle `in_cbank`, the pool
//! limits `in_hdr_max`/`in_smp_max`, and the LOD unit's `in_txq`, `in_level`, `in_tri`,
//! `in_level1`, `in_frac`, `in_lambda[lane]`, `in_warn`; `clock` and `adv_next` (the unit's
//! advance of the next clock, registered in the decoder's enable copies).
//! Outputs, all registered: `tag`, the pointers `hidx` (header) and `sidx` (sampler), `fault`
//! (0, or 1 reserved paramA, 2 header pointer above MaximumIndex, 3 sampler pointer above it),
//! `p2d` (paramA gives two coordinates), `txq`, `trilin`, `level`, `level1`, `frac`, `warn`, and
//! per lane `s`, `t` (f32 bits; t = 0 for one coordinate), `arr` (array index, 0 without an array
//! paramA), `lc` (.LC clamp, u4.8), `offu`/`offv` (.AOFFI texel offsets, 4-bit two's complement)
//! and `lambda`.
//!
//! # Timing
//! Combinational decode into one register stage that advances with the unit: latency 1.
//!
//! # What it computes
//! paramA 0, 1, 4, 5 are 1D, 2D, ARRAY_1D, ARRAY_2D; any other code is reserved. The handle is
//! Ra+0 with .B, else `in_cbank`: header pointer = bits 19:0, sampler pointer = bits 31:20 (the
//! header pointer itself with `in_ogl`). The lane's registers are Ra+0… = (handle with .B), s,
//! (t), (word with .LC, .AOFFI or an array paramA), compacted upwards; the word is
//! `{LodClamp[31:20] | toff[19:12] | array[11:0]}` with .LC, else `{toff[27:16] | array[15:0]}`,
//! with `toff = {v[7:4] | u[3:0]}`.

use crate::common::fp::Retime;
use crate::common::EnableCopy;
use rust_hdl::prelude::*;

crate::settled_block! {
/// TXD decode. See the module documentation.
#[derive(Clone, Debug)]
pub struct TxdDecode {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance of the next clock (the unit's stall when low), into the enable copies.
    pub adv_next: Signal<In, Bit>,
    /// Transaction id.
    pub in_tag: Signal<In, Bits<16>>,
    /// Ra+k of each lane, `4·lane + k`.
    pub in_ra: [Signal<In, Bits<32>>; 16],
    /// .B.
    pub in_bindless: Signal<In, Bit>,
    /// .LC.
    pub in_lc: Signal<In, Bit>,
    /// .AOFFI.
    pub in_aoffi: Signal<In, Bit>,
    /// paramA code.
    pub in_param_a: Signal<In, Bits<3>>,
    /// OpenGL binding mode.
    pub in_ogl: Signal<In, Bit>,
    /// Constant-bank handle word.
    pub in_cbank: Signal<In, Bits<32>>,
    /// Header pool MaximumIndex.
    pub in_hdr_max: Signal<In, Bits<20>>,
    /// Sampler pool MaximumIndex.
    pub in_smp_max: Signal<In, Bits<20>>,
    /// TXQ instead of a sample.
    pub in_txq: Signal<In, Bit>,
    /// Level (level0).
    pub in_level: Signal<In, Bits<4>>,
    /// Trilinear.
    pub in_tri: Signal<In, Bit>,
    /// Second level.
    pub in_level1: Signal<In, Bits<4>>,
    /// Mip fraction.
    pub in_frac: Signal<In, Bits<8>>,
    /// λ·256 per lane.
    pub in_lambda: [Signal<In, Bits<32>>; 4],
    /// LOD warning, bit per lane.
    pub in_warn: Signal<In, Bits<4>>,
    /// Transaction id.
    pub tag: Signal<Out, Bits<16>>,
    /// Header pointer.
    pub hidx: Signal<Out, Bits<20>>,
    /// Sampler pointer.
    pub sidx: Signal<Out, Bits<20>>,
    /// Decoder fault code.
    pub fault: Signal<Out, Bits<3>>,
    /// paramA gives two coordinates.
    pub p2d: Signal<Out, Bit>,
    /// TXQ.
    pub txq: Signal<Out, Bit>,
    /// Trilinear.
    pub trilin: Signal<Out, Bit>,
    /// Level (level0).
    pub level: Signal<Out, Bits<4>>,
    /// Second level.
    pub level1: Signal<Out, Bits<4>>,
    /// Mip fraction.
    pub frac: Signal<Out, Bits<8>>,
    /// LOD warning, bit per lane.
    pub warn: Signal<Out, Bits<4>>,
    /// s per lane (f32 bits).
    pub s: [Signal<Out, Bits<32>>; 4],
    /// t per lane (f32 bits).
    pub t: [Signal<Out, Bits<32>>; 4],
    /// Array index per lane.
    pub arr: [Signal<Out, Bits<16>>; 4],
    /// .LC clamp per lane.
    pub lc: [Signal<Out, Bits<12>>; 4],
    /// u texel offset per lane.
    pub offu: [Signal<Out, Bits<4>>; 4],
    /// v texel offset per lane.
    pub offv: [Signal<Out, Bits<4>>; 4],
    /// λ·256 per lane.
    pub lambda: [Signal<Out, Bits<32>>; 4],
    coords2: Signal<Local, Bit>,
    reserved: Signal<Local, Bit>,
    is_arr: Signal<Local, Bit>,
    has_word: Signal<Local, Bit>,
    handle: Signal<Local, Bits<32>>,
    hptr: Signal<Local, Bits<20>>,
    sptr: Signal<Local, Bits<20>>,
    fault0: Signal<Local, Bits<3>>,
    s_sel: [Signal<Local, Bits<32>>; 4],
    t_sel: [Signal<Local, Bits<32>>; 4],
    w_sel: [Signal<Local, Bits<32>>; 4],
    toff: [Signal<Local, Bits<32>>; 4],
    arr0: [Signal<Local, Bits<16>>; 4],
    aux: [Signal<Local, Bits<32>>; 4],
    ctl0: Signal<Local, Bits<32>>,
    /// {frac[7:0], level1[11:8], level[15:12], tri[16], txq[17], warn[21:18], coords2[22],
    /// fault0[25:23]}.
    r1_ctl: Retime<Bits<26>>,
    r1_tag: Retime<Bits<16>>,
    r1_hidx: Retime<Bits<20>>,
    r1_sidx: Retime<Bits<20>>,
    r1_s: [Retime<Bits<32>>; 4],
    r1_t: [Retime<Bits<32>>; 4],
    r1_arr: [Retime<Bits<16>>; 4],
    /// {lc[11:0], offu[15:12], offv[19:16]}.
    r1_aux: [Retime<Bits<20>>; 4],
    r1_lambda: [Retime<Bits<32>>; 4],
    /// Enable copies: the quad's registers, each lane's.
    e_q: EnableCopy,
    e_lane: [EnableCopy; 4],
}
}

impl Default for TxdDecode {
    fn default() -> Self {
        use std::array::from_fn;
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            adv_next: Default::default(),
            in_tag: Default::default(),
            in_ra: Default::default(),
            in_bindless: Default::default(),
            in_lc: Default::default(),
            in_aoffi: Default::default(),
            in_param_a: Default::default(),
            in_ogl: Default::default(),
            in_cbank: Default::default(),
            in_hdr_max: Default::default(),
            in_smp_max: Default::default(),
            in_txq: Default::default(),
            in_level: Default::default(),
            in_tri: Default::default(),
            in_level1: Default::default(),
            in_frac: Default::default(),
            in_lambda: Default::default(),
            in_warn: Default::default(),
            tag: Default::default(),
            hidx: Default::default(),
            sidx: Default::default(),
            fault: Default::default(),
            p2d: Default::default(),
            txq: Default::default(),
            trilin: Default::default(),
            level: Default::default(),
            level1: Default::default(),
            frac: Default::default(),
            warn: Default::default(),
            s: Default::default(),
            t: Default::default(),
            arr: Default::default(),
            lc: Default::default(),
            offu: Default::default(),
            offv: Default::default(),
            lambda: Default::default(),
            coords2: Default::default(),
            reserved: Default::default(),
            is_arr: Default::default(),
            has_word: Default::default(),
            handle: Default::default(),
            hptr: Default::default(),
            sptr: Default::default(),
            fault0: Default::default(),
            s_sel: Default::default(),
            t_sel: Default::default(),
            w_sel: Default::default(),
            toff: Default::default(),
            arr0: Default::default(),
            aux: Default::default(),
            ctl0: Default::default(),
            r1_ctl: Retime::new(1),
            r1_tag: Retime::new(1),
            r1_hidx: Retime::new(1),
            r1_sidx: Retime::new(1),
            r1_s: from_fn(|_| Retime::new(1)),
            r1_t: from_fn(|_| Retime::new(1)),
            r1_arr: from_fn(|_| Retime::new(1)),
            r1_aux: from_fn(|_| Retime::new(1)),
            r1_lambda: from_fn(|_| Retime::new(1)),
            e_q: Default::default(),
            e_lane: Default::default(),
        }
    }
}

impl Logic for TxdDecode {
    #[hdl_gen]
    fn update(&mut self) {
        self.e_q.clock.next = self.clock.val();
        self.e_q.d.next = self.adv_next.val();
        for l in 0..4 {
            self.e_lane[l].clock.next = self.clock.val();
            self.e_lane[l].d.next = self.adv_next.val();
        }
        self.coords2.next =
            (self.in_param_a.val() == bits::<3>(1)) | (self.in_param_a.val() == bits::<3>(5));
        self.reserved.next = !(self.coords2.val()
            | (self.in_param_a.val() == bits::<3>(0))
            | (self.in_param_a.val() == bits::<3>(4)));
        self.is_arr.next = self.in_param_a.val().get_bit(2);
        self.has_word.next = self.in_lc.val() | self.in_aoffi.val() | self.is_arr.val();
        self.handle.next = self.in_cbank.val();
        if self.in_bindless.val() {
            self.handle.next = self.in_ra[0].val();
        }
        self.hptr.next = self.handle.val().get_bits::<20>(0);
        self.sptr.next = bit_cast::<20, 12>(self.handle.val().get_bits::<12>(20));
        if self.in_ogl.val() {
            self.sptr.next = self.hptr.val();
        }
        self.fault0.next = bits::<3>(0);
        if self.sptr.val() > self.in_smp_max.val() {
            self.fault0.next = bits::<3>(3);
        }
        if self.hptr.val() > self.in_hdr_max.val() {
            self.fault0.next = bits::<3>(2);
        }
        if self.reserved.val() {
            self.fault0.next = bits::<3>(1);
        }
        // Ra+0…: [handle], s, [t], [word], compacted upwards.
        for l in 0..4 {
            self.s_sel[l].next = self.in_ra[4 * l].val();
            self.t_sel[l].next = self.in_ra[4 * l + 1].val();
            self.w_sel[l].next = self.in_ra[4 * l + 1].val();
            if self.coords2.val() {
                self.w_sel[l].next = self.in_ra[4 * l + 2].val();
            }
            if self.in_bindless.val() {
                self.s_sel[l].next = self.in_ra[4 * l + 1].val();
                self.t_sel[l].next = self.in_ra[4 * l + 2].val();
                self.w_sel[l].next = self.in_ra[4 * l + 2].val();
                if self.coords2.val() {
                    self.w_sel[l].next = self.in_ra[4 * l + 3].val();
                }
            }
            if !self.coords2.val() {
                self.t_sel[l].next = bits::<32>(0);
            }
            if !self.has_word.val() {
                self.w_sel[l].next = bits::<32>(0);
            }
            // {LodClamp[31:20] | toff[19:12] | array[11:0]} with .LC,
            // else {toff[27:16] | array[15:0]}; aux = {lc[11:0], toff[19:12]}.
            self.toff[l].next = (self.w_sel[l].val() >> 4) & bits::<32>(0xff000);
            self.arr0[l].next = self.w_sel[l].val().get_bits::<16>(0);
            self.aux[l].next = bits::<32>(0);
            if self.in_lc.val() {
                self.toff[l].next = self.w_sel[l].val() & bits::<32>(0xff000);
                self.arr0[l].next = self.w_sel[l].val().get_bits::<16>(0) & bits::<16>(0xfff);
                self.aux[l].next = self.w_sel[l].val() >> 20;
            }
            if self.in_aoffi.val() {
                self.aux[l].next = self.aux[l].val() | self.toff[l].val();
            }
            if !self.is_arr.val() {
                self.arr0[l].next = bits::<16>(0);
            }
        }
        self.ctl0.next = bit_cast::<32, 8>(self.in_frac.val())
            | (bit_cast::<32, 4>(self.in_level1.val()) << 8)
            | (bit_cast::<32, 4>(self.in_level.val()) << 12)
            | (bit_cast::<32, 4>(self.in_warn.val()) << 18)
            | (bit_cast::<32, 3>(self.fault0.val()) << 23);
        if self.in_tri.val() {
            self.ctl0.next = self.ctl0.val() | bits::<32>(1 << 16);
        }
        if self.in_txq.val() {
            self.ctl0.next = self.ctl0.val() | bits::<32>(1 << 17);
        }
        if self.coords2.val() {
            self.ctl0.next = self.ctl0.val() | bits::<32>(1 << 22);
        }

        // Stage 1 registers.
        self.r1_ctl.clock.next = self.clock.val();
        self.r1_ctl.en.next = self.e_q.q.val();
        self.r1_ctl.d.next = self.ctl0.val().get_bits::<26>(0);
        self.r1_tag.clock.next = self.clock.val();
        self.r1_tag.en.next = self.e_q.q.val();
        self.r1_tag.d.next = self.in_tag.val();
        self.r1_hidx.clock.next = self.clock.val();
        self.r1_hidx.en.next = self.e_q.q.val();
        self.r1_hidx.d.next = self.hptr.val();
        self.r1_sidx.clock.next = self.clock.val();
        self.r1_sidx.en.next = self.e_q.q.val();
        self.r1_sidx.d.next = self.sptr.val();
        for l in 0..4 {
            self.r1_s[l].clock.next = self.clock.val();
            self.r1_s[l].en.next = self.e_lane[l].q.val();
            self.r1_s[l].d.next = self.s_sel[l].val();
            self.r1_t[l].clock.next = self.clock.val();
            self.r1_t[l].en.next = self.e_lane[l].q.val();
            self.r1_t[l].d.next = self.t_sel[l].val();
            self.r1_arr[l].clock.next = self.clock.val();
            self.r1_arr[l].en.next = self.e_lane[l].q.val();
            self.r1_arr[l].d.next = self.arr0[l].val();
            self.r1_aux[l].clock.next = self.clock.val();
            self.r1_aux[l].en.next = self.e_lane[l].q.val();
            self.r1_aux[l].d.next = self.aux[l].val().get_bits::<20>(0);
            self.r1_lambda[l].clock.next = self.clock.val();
            self.r1_lambda[l].en.next = self.e_lane[l].q.val();
            self.r1_lambda[l].d.next = self.in_lambda[l].val();
        }

        // Outputs.
        self.tag.next = self.r1_tag.q.val();
        self.hidx.next = self.r1_hidx.q.val();
        self.sidx.next = self.r1_sidx.q.val();
        self.frac.next = self.r1_ctl.q.val().get_bits::<8>(0);
        self.level1.next = self.r1_ctl.q.val().get_bits::<4>(8);
        self.level.next = self.r1_ctl.q.val().get_bits::<4>(12);
        self.trilin.next = self.r1_ctl.q.val().get_bit(16);
        self.txq.next = self.r1_ctl.q.val().get_bit(17);
        self.warn.next = self.r1_ctl.q.val().get_bits::<4>(18);
        self.p2d.next = self.r1_ctl.q.val().get_bit(22);
        self.fault.next = self.r1_ctl.q.val().get_bits::<3>(23);
        for l in 0..4 {
            self.s[l].next = self.r1_s[l].q.val();
            self.t[l].next = self.r1_t[l].q.val();
            self.arr[l].next = self.r1_arr[l].q.val();
            self.lc[l].next = self.r1_aux[l].q.val().get_bits::<12>(0);
            self.offu[l].next = self.r1_aux[l].q.val().get_bits::<4>(12);
            self.offv[l].next = self.r1_aux[l].q.val().get_bits::<4>(16);
            self.lambda[l].next = self.r1_lambda[l].q.val();
        }
    }
}
