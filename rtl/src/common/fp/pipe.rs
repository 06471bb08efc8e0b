//! Pipelined versions of the floating-point cores: each core followed by `S ≥ 1` register stages.
//!
//! Every wrapper has the core's data ports plus `clock` and `en`, and is built with
//! `new(stages)`. Its inputs feed the combinational core directly; each core output goes through
//! its own [`Retime`] chain, so an output is the core's function of the inputs presented `S`
//! enabled clocks earlier (latency `S`, one result per enabled clock; `en` low holds every stage).
//! Registers power up at zero and are not reset (data only: keep valid bits in reset registers).
//! The registers sit after the core, and moving them into the logic (retiming) is left to synthesis
//! (e.g. Yosys `abc -dff`, vendor register retiming) — except in [`FpAddP`], [`FpMulP`],
//! [`FpLog2P`] and [`FpToFixedP`], whose cores are built from pieces (six, seven, six and three):
//! their registers sit between the pieces ([`FP_CUTS`], [`MUL_CUTS`], [`LOG2_CUTS`],
//! [`FIX_CUTS`]), because no retiming we tried moved registers into the logic (docs/fpga.md).
//!
//! The other wrappers come from one macro ([`pipelined!`](crate::pipelined)), so they are the same
//! construction, not copies.

use super::add::{FpAddAlign, FpAddLead, FpAddNorm, FpAddOrder, FpAddRound, FpAddSum};
use super::fixed::{FpFixClass, FpFixRound, FpFixShift};
use super::log2::{FpLog2Class, FpLog2Interp, FpLog2Norm, FpLog2Rom, FpLog2Round};
use super::mul::{
    FpMulAlign, FpMulClass, FpMulDenorm, FpMulNorm, FpMulProductP, FpMulRound, FpMulSum,
};
use super::{F16ToF32, FpCmp, Lzc, MulUReg, Retime, LZC_BITS};
use rust_hdl::prelude::*;

/// Defines `$name`: the core `$core` followed by a [`Retime`] chain per output.
///
/// Syntax: `pipelined!(doc; Name [generic params] [generic args] = Core { in a: T, …; out y: T => reg_name, … })`.
/// `reg_name` names the output's register chain (it appears in the Verilog hierarchy).
#[macro_export]
macro_rules! pipelined {
    (
        $(#[$meta:meta])*
        $name:ident [$($gp:tt)*] [$($ga:tt)*] = $core:ty {
            in $($i:ident : $it:ty),+ ;
            out $($o:ident : $ot:ty => $r:ident),+ $(;)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, LogicBlock)]
        pub struct $name<$($gp)*> {
            /// Clock.
            pub clock: Signal<In, Clock>,
            /// Advance the pipeline (all stages hold while low).
            pub en: Signal<In, Bit>,
            $(
                #[doc = concat!("Core input `", stringify!($i), "`.")]
                pub $i: Signal<In, $it>,
            )+
            $(
                #[doc = concat!("Core output `", stringify!($o), "`, delayed by the pipeline.")]
                pub $o: Signal<Out, $ot>,
            )+
            /// The combinational core.
            pub core: $core,
            $(
                #[doc = concat!("Register chain of `", stringify!($o), "`.")]
                pub $r: Retime<$ot>,
            )+
        }

        impl<$($gp)*> $name<$($ga)*> {
            /// The core followed by `stages ≥ 1` register stages (latency `stages`).
            pub fn new(stages: usize) -> Self {
                Self {
                    clock: Default::default(),
                    en: Default::default(),
                    $($i: Default::default(),)+
                    $($o: Default::default(),)+
                    core: Default::default(),
                    $($r: Retime::new(stages),)+
                }
            }

            /// Register stages (the latency in enabled clocks).
            pub fn stages(&self) -> usize {
                [$(self.$r.stages()),+][0]
            }
        }

        impl<$($gp)*> Logic for $name<$($ga)*> {
            #[hdl_gen]
            fn update(&mut self) {
                $(self.core.$i.next = self.$i.val();)+
                $(
                    self.$r.clock.next = self.clock.val();
                    self.$r.en.next = self.en.val();
                    self.$r.d.next = self.core.$o.val();
                    self.$o.next = self.$r.q.val();
                )+
            }
        }
    };
}

/// Where [`FpAddP`] puts its registers (and [`FpMulP`], shifted by one piece: [`MUL_CUTS`]):
/// `FP_CUTS[S][j]` says whether the boundary
/// after piece `j + 1` of the six is registered in an `S`-stage build (`S ≥ 7` as `S = 6`). `S`
/// stages use `min(S, 6) − 1` internal boundaries, chosen to split the pieces into runs of about
/// equal delay (measured on ECP5, docs/fpga.md); the remaining `S − 1 − cuts` stages follow the
/// last piece, and there is always one register after it.
pub const FP_CUTS: [[bool; 5]; 7] = [
    [false, false, false, false, false],
    [false, false, false, false, false],
    [false, false, true, false, false],
    [false, true, false, true, false],
    [true, false, true, false, true],
    [true, true, false, true, true],
    [true, true, true, true, true],
];

/// Register stages at boundary `j` (after piece `j + 1`) of an `stages`-stage build: 0 or 1.
pub fn fp_cut(stages: usize, j: usize) -> usize {
    usize::from(FP_CUTS[stages.min(6)][j])
}

/// Register stages after the last piece of an `stages`-stage build.
pub fn fp_tail(stages: usize) -> usize {
    stages - (0..5).map(|j| fp_cut(stages, j)).sum::<usize>()
}

/// Where [`FpMulP`] puts its registers: `MUL_CUTS[S][j]` is the number of registers at the
/// boundary after piece `j + 1` of the seven in an `S`-stage build (`S ≥ 10` as `S = 9`). Up to six
/// stages they are [`FP_CUTS`]' boundaries shifted by one piece (its first piece, the unpacking,
/// is now the classification and the normalising shift, which stay together up to six stages);
/// seven stages cut every boundary. Eight and nine stages add transport registers on the two sides
/// of the multipliers: a second register on the operands (boundary 2) and on the partial products
/// (boundary 3). A register chain with nothing between its registers lets the placer put one
/// register beside the DSP slice and the other beside the logic, however far apart the two are on
/// a large die (the 15.7 ns worst path of the depth-35 LOD unit on the ECP5-85F was 7.6 ns of
/// routing from the operand register to its multiplier, docs/fpga.md).
pub const MUL_CUTS: [[u8; 6]; 10] = [
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 1, 0, 0],
    [0, 0, 1, 0, 1, 0],
    [0, 1, 0, 1, 0, 1],
    [0, 1, 1, 0, 1, 1],
    [0, 1, 1, 1, 1, 1],
    [1, 1, 1, 1, 1, 1],
    [1, 2, 1, 1, 1, 1],
    [1, 2, 2, 1, 1, 1],
];

/// Register stages at boundary `j` (after piece `j + 1`) of an `stages`-stage [`FpMulP`]: 0, 1 or 2.
pub fn mul_cut(stages: usize, j: usize) -> usize {
    usize::from(MUL_CUTS[stages.min(9)][j])
}

/// Whether an `stages`-stage [`FpMulP`] builds its partial products with the DSP slice's registers
/// ([`super::MulUReg`]): when boundaries 2 and 3 both have two registers (nine stages), one of each
/// pair is the slice's operand and product register and the other, the transport register,
/// stays in the logic. With a single register at a boundary it stays in the logic: inside the
/// slice it would put the route between the logic and the DSP column into the logic's clock
/// (on the ECP5-85F the BVH slab test at depth 23, whose products have six and seven stages, fell
/// from 76.1 to 70.0 MHz that way; the LOD lane at depth 39, nine stages, rose from 79.5 to
/// 83.6 MHz; docs/fpga.md).
pub fn mul_dsp_registers(stages: usize) -> bool {
    mul_cut(stages, 1) >= 2 && mul_cut(stages, 2) >= 2
}

/// Register stages in front of the first piece of an `stages`-stage [`FpMulP`]: from ten stages
/// on, one, a private copy of both operands that synthesis keeps ([`Retime::kept`]). An operand
/// that feeds two multipliers (a cross product's components, a size that scales two
/// derivatives) otherwise has its classification built once for both by synthesis, and one of
/// the two multipliers, placed far away, gets a die-crossing net inside its first piece (the BVH
/// triangle test's worst path at 61.7 MHz on the ECP5-85F, docs/fpga.md); with the copies, the
/// net that crosses runs from register to register with nothing else in the clock.
pub fn mul_front(stages: usize) -> usize {
    usize::from(stages >= 10)
}

/// Register stages after the last piece of an `stages`-stage [`FpMulP`].
pub fn mul_tail(stages: usize) -> usize {
    stages - mul_front(stages) - (0..6).map(|j| mul_cut(stages, j)).sum::<usize>()
}

crate::settled_block! {
/// [`super::FpAdd`] with `S ≥ 0` register stages (latency `S`, one result per enabled clock):
/// its six pieces with registers at the boundaries [`FP_CUTS`] names. Ports: `clock`, `en`, `a`,
/// `b`, `sub` → `y`. Each boundary signal is a [`Retime`] of 0 or 1 stages, named `<signal><n>`
/// after the boundary `n` (1–5) it crosses. At `S = 0` it is [`super::FpAdd`] with unused clock
/// ports, and settles within one simulation pass ([`crate::common::settle`]).
#[derive(Clone, Debug)]
pub struct FpAddP {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance the pipeline (all stages hold while low).
    pub en: Signal<In, Bit>,
    /// First operand.
    pub a: Signal<In, Bits<32>>,
    /// Second operand.
    pub b: Signal<In, Bits<32>>,
    /// Subtract (`b` negated).
    pub sub: Signal<In, Bit>,
    /// Sum, `S` enabled clocks later.
    pub y: Signal<Out, Bits<32>>,
    order: FpAddOrder,
    align: FpAddAlign,
    add: FpAddSum,
    lead: FpAddLead,
    norm: FpAddNorm,
    round: FpAddRound,
    ml1: Retime<Bits<32>>,
    ms1: Retime<Bits<32>>,
    dexp1: Retime<Bits<8>>,
    ctl1: Retime<Bits<15>>,
    xl2: Retime<Bits<32>>,
    al2: Retime<Bits<32>>,
    ctl2: Retime<Bits<15>>,
    sum3: Retime<Bits<32>>,
    mark3: Retime<Bits<27>>,
    ctl3: Retime<Bits<15>>,
    sum4: Retime<Bits<32>>,
    sh4: Retime<Bits<8>>,
    ctl4: Retime<Bits<15>>,
    nrm5: Retime<Bits<32>>,
    eexp5: Retime<Bits<8>>,
    flags5: Retime<Bits<7>>,
    y_reg: Retime<Bits<32>>,
}
}

impl FpAddP {
    /// The adder with `stages` register stages (latency `stages`; 0: combinational, [`super::FpAdd`]).
    pub fn new(stages: usize) -> Self {
        Self {
            settle: crate::common::settle::SettleState::new(stages > 0),
            clock: Default::default(),
            en: Default::default(),
            a: Default::default(),
            b: Default::default(),
            sub: Default::default(),
            y: Default::default(),
            order: Default::default(),
            align: Default::default(),
            add: Default::default(),
            lead: Default::default(),
            norm: Default::default(),
            round: Default::default(),
            ml1: Retime::new(fp_cut(stages, 0)),
            ms1: Retime::new(fp_cut(stages, 0)),
            dexp1: Retime::new(fp_cut(stages, 0)),
            ctl1: Retime::new(fp_cut(stages, 0)),
            xl2: Retime::new(fp_cut(stages, 1)),
            al2: Retime::new(fp_cut(stages, 1)),
            ctl2: Retime::new(fp_cut(stages, 1)),
            sum3: Retime::new(fp_cut(stages, 2)),
            mark3: Retime::new(fp_cut(stages, 2)),
            ctl3: Retime::new(fp_cut(stages, 2)),
            sum4: Retime::new(fp_cut(stages, 3)),
            sh4: Retime::new(fp_cut(stages, 3)),
            ctl4: Retime::new(fp_cut(stages, 3)),
            nrm5: Retime::new(fp_cut(stages, 4)),
            eexp5: Retime::new(fp_cut(stages, 4)),
            flags5: Retime::new(fp_cut(stages, 4)),
            y_reg: Retime::new(fp_tail(stages)),
        }
    }

    /// Register stages (the latency in enabled clocks).
    pub fn stages(&self) -> usize {
        self.ctl1.stages()
            + self.ctl2.stages()
            + self.ctl3.stages()
            + self.ctl4.stages()
            + self.flags5.stages()
            + self.y_reg.stages()
    }
}

impl Logic for FpAddP {
    #[hdl_gen]
    fn update(&mut self) {
        self.order.a.next = self.a.val();
        self.order.b.next = self.b.val();
        self.order.sub.next = self.sub.val();
        self.ml1.clock.next = self.clock.val();
        self.ml1.en.next = self.en.val();
        self.ml1.d.next = self.order.ml.val();
        self.align.ml.next = self.ml1.q.val();
        self.ms1.clock.next = self.clock.val();
        self.ms1.en.next = self.en.val();
        self.ms1.d.next = self.order.ms.val();
        self.align.ms.next = self.ms1.q.val();
        self.dexp1.clock.next = self.clock.val();
        self.dexp1.en.next = self.en.val();
        self.dexp1.d.next = self.order.dexp.val();
        self.align.dexp.next = self.dexp1.q.val();
        self.ctl1.clock.next = self.clock.val();
        self.ctl1.en.next = self.en.val();
        self.ctl1.d.next = self.order.ctl.val();
        self.ctl2.d.next = self.ctl1.q.val();
        self.xl2.clock.next = self.clock.val();
        self.xl2.en.next = self.en.val();
        self.xl2.d.next = self.align.xl.val();
        self.add.xl.next = self.xl2.q.val();
        self.al2.clock.next = self.clock.val();
        self.al2.en.next = self.en.val();
        self.al2.d.next = self.align.al.val();
        self.add.al.next = self.al2.q.val();
        self.ctl2.clock.next = self.clock.val();
        self.ctl2.en.next = self.en.val();
        self.add.eff_sub.next = self.ctl2.q.val().get_bit(8);
        self.add.el.next = self.ctl2.q.val().get_bits::<8>(0);
        self.sum3.clock.next = self.clock.val();
        self.sum3.en.next = self.en.val();
        self.sum3.d.next = self.add.sum.val();
        self.lead.sum.next = self.sum3.q.val().get_bits::<27>(0);
        self.mark3.clock.next = self.clock.val();
        self.mark3.en.next = self.en.val();
        self.mark3.d.next = self.add.mark.val();
        self.lead.mark.next = self.mark3.q.val();
        self.ctl3.clock.next = self.clock.val();
        self.ctl3.en.next = self.en.val();
        self.ctl3.d.next = self.ctl2.q.val();
        self.sum4.clock.next = self.clock.val();
        self.sum4.en.next = self.en.val();
        self.sum4.d.next = self.sum3.q.val();
        self.norm.sum.next = self.sum4.q.val();
        self.sh4.clock.next = self.clock.val();
        self.sh4.en.next = self.en.val();
        self.sh4.d.next = self.lead.sh.val();
        self.norm.sh.next = self.sh4.q.val();
        self.ctl4.clock.next = self.clock.val();
        self.ctl4.en.next = self.en.val();
        self.ctl4.d.next = self.ctl3.q.val();
        self.norm.el.next = self.ctl4.q.val().get_bits::<8>(0);
        self.nrm5.clock.next = self.clock.val();
        self.nrm5.en.next = self.en.val();
        self.nrm5.d.next = self.norm.nrm.val();
        self.round.nrm.next = self.nrm5.q.val();
        self.eexp5.clock.next = self.clock.val();
        self.eexp5.en.next = self.en.val();
        self.eexp5.d.next = self.norm.eexp.val();
        self.round.eexp.next = self.eexp5.q.val();
        self.flags5.clock.next = self.clock.val();
        self.flags5.en.next = self.en.val();
        self.flags5.d.next = self.ctl4.q.val().get_bits::<7>(8);
        self.round.flags.next = self.flags5.q.val();
        self.y_reg.clock.next = self.clock.val();
        self.y_reg.en.next = self.en.val();
        self.y_reg.d.next = self.round.y.val();
        self.y.next = self.y_reg.q.val();
    }
}

crate::settled_block! {
/// [`super::FpMul`] with `S ≥ 0` register stages (latency `S`, one result per enabled clock):
/// its seven pieces with registers at the boundaries [`MUL_CUTS`] names. Ports: `clock`, `en`,
/// `a`, `b` → `y`. Each boundary signal is a [`Retime`] of 0, 1 or 2 stages, named `<signal><n>`
/// after the boundary `n` (1–6) it crosses. With a register at boundary 3 the four partial products
/// are registered right behind their multipliers (an FPGA DSP slice's output register); eight and
/// nine stages add a transport register in front of the multipliers and behind them, and at nine
/// stages the other register of each pair is inside the multiplier leaf ([`super::MulUReg`],
/// [`mul_dsp_registers`]: the slice's operand and product registers, which an ECP5 export puts
/// into the `MULT18X18D` itself); ten stages add the private operand copies `a0`/`b0` in front
/// of the first piece ([`mul_front`]). At
/// `S = 0` it is [`super::FpMul`] with unused clock ports, and settles within one simulation pass
/// ([`crate::common::settle`]).
#[derive(Clone, Debug)]
pub struct FpMulP {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance the pipeline (all stages hold while low).
    pub en: Signal<In, Bit>,
    /// Multiplicand.
    pub a: Signal<In, Bits<32>>,
    /// Multiplier.
    pub b: Signal<In, Bits<32>>,
    /// Product, `S` enabled clocks later.
    pub y: Signal<Out, Bits<32>>,
    classify: FpMulClass,
    align: FpMulAlign,
    product: FpMulProductP,
    psum: FpMulSum,
    norm: FpMulNorm,
    denorm: FpMulDenorm,
    round: FpMulRound,
    a0: Retime<Bits<32>>,
    b0: Retime<Bits<32>>,
    ma1: Retime<Bits<24>>,
    mb1: Retime<Bits<24>>,
    lza1: Retime<Bits<LZC_BITS>>,
    lzb1: Retime<Bits<LZC_BITS>>,
    esum1: Retime<Bits<16>>,
    cls1: Retime<Bits<4>>,
    sa2: Retime<Bits<24>>,
    sb2: Retime<Bits<24>>,
    eob2: Retime<Bits<16>>,
    cls2: Retime<Bits<4>>,
    ll3: Retime<Bits<36>>,
    lh3: Retime<Bits<24>>,
    hl3: Retime<Bits<24>>,
    hh3: Retime<Bits<12>>,
    eob3: Retime<Bits<16>>,
    cls3: Retime<Bits<4>>,
    p4: Retime<Bits<48>>,
    eob4: Retime<Bits<16>>,
    cls4: Retime<Bits<4>>,
    w5: Retime<Bits<32>>,
    k5: Retime<Bits<5>>,
    e15: Retime<Bits<8>>,
    big5: Retime<Bit>,
    cls5: Retime<Bits<4>>,
    ws6: Retime<Bits<32>>,
    lost6: Retime<Bit>,
    e16: Retime<Bits<8>>,
    big6: Retime<Bit>,
    cls6: Retime<Bits<4>>,
    y_reg: Retime<Bits<32>>,
}
}

impl FpMulP {
    /// The multiplier with `stages` register stages (latency `stages`; 0: combinational,
    /// [`super::FpMul`]).
    pub fn new(stages: usize) -> Self {
        let dsp = mul_dsp_registers(stages);
        let operands = mul_cut(stages, 1) - usize::from(dsp);
        let products = mul_cut(stages, 2) - usize::from(dsp);
        Self {
            settle: crate::common::settle::SettleState::new(stages > 0),
            clock: Default::default(),
            en: Default::default(),
            a: Default::default(),
            b: Default::default(),
            y: Default::default(),
            classify: Default::default(),
            align: Default::default(),
            product: FpMulProductP::new(dsp),
            psum: Default::default(),
            norm: Default::default(),
            denorm: Default::default(),
            round: Default::default(),
            a0: Retime::kept(mul_front(stages)),
            b0: Retime::kept(mul_front(stages)),
            ma1: Retime::new(mul_cut(stages, 0)),
            mb1: Retime::new(mul_cut(stages, 0)),
            lza1: Retime::new(mul_cut(stages, 0)),
            lzb1: Retime::new(mul_cut(stages, 0)),
            esum1: Retime::new(mul_cut(stages, 0)),
            cls1: Retime::new(mul_cut(stages, 0)),
            sa2: Retime::new(operands),
            sb2: Retime::new(operands),
            eob2: Retime::new(mul_cut(stages, 1)),
            cls2: Retime::new(mul_cut(stages, 1)),
            ll3: Retime::new(products),
            lh3: Retime::new(products),
            hl3: Retime::new(products),
            hh3: Retime::new(products),
            eob3: Retime::new(mul_cut(stages, 2)),
            cls3: Retime::new(mul_cut(stages, 2)),
            p4: Retime::new(mul_cut(stages, 3)),
            eob4: Retime::new(mul_cut(stages, 3)),
            cls4: Retime::new(mul_cut(stages, 3)),
            w5: Retime::new(mul_cut(stages, 4)),
            k5: Retime::new(mul_cut(stages, 4)),
            e15: Retime::new(mul_cut(stages, 4)),
            big5: Retime::new(mul_cut(stages, 4)),
            cls5: Retime::new(mul_cut(stages, 4)),
            ws6: Retime::new(mul_cut(stages, 5)),
            lost6: Retime::new(mul_cut(stages, 5)),
            e16: Retime::new(mul_cut(stages, 5)),
            big6: Retime::new(mul_cut(stages, 5)),
            cls6: Retime::new(mul_cut(stages, 5)),
            y_reg: Retime::new(mul_tail(stages)),
        }
    }

    /// Register stages (the latency in enabled clocks).
    pub fn stages(&self) -> usize {
        self.a0.stages()
            + [
                &self.cls1, &self.cls2, &self.cls3, &self.cls4, &self.cls5, &self.cls6,
            ]
            .iter()
            .map(|r| r.stages())
            .sum::<usize>()
            + self.y_reg.stages()
    }
}

impl Logic for FpMulP {
    #[hdl_gen]
    fn update(&mut self) {
        self.a0.clock.next = self.clock.val();
        self.a0.en.next = self.en.val();
        self.a0.d.next = self.a.val();
        self.b0.clock.next = self.clock.val();
        self.b0.en.next = self.en.val();
        self.b0.d.next = self.b.val();
        self.classify.a.next = self.a0.q.val();
        self.classify.b.next = self.b0.q.val();
        self.ma1.clock.next = self.clock.val();
        self.ma1.en.next = self.en.val();
        self.ma1.d.next = self.classify.ma.val();
        self.align.ma.next = self.ma1.q.val();
        self.mb1.clock.next = self.clock.val();
        self.mb1.en.next = self.en.val();
        self.mb1.d.next = self.classify.mb.val();
        self.align.mb.next = self.mb1.q.val();
        self.lza1.clock.next = self.clock.val();
        self.lza1.en.next = self.en.val();
        self.lza1.d.next = self.classify.lza.val();
        self.align.lza.next = self.lza1.q.val();
        self.lzb1.clock.next = self.clock.val();
        self.lzb1.en.next = self.en.val();
        self.lzb1.d.next = self.classify.lzb.val();
        self.align.lzb.next = self.lzb1.q.val();
        self.esum1.clock.next = self.clock.val();
        self.esum1.en.next = self.en.val();
        self.esum1.d.next = self.classify.esum.val();
        self.align.esum.next = self.esum1.q.val();
        self.cls1.clock.next = self.clock.val();
        self.cls1.en.next = self.en.val();
        self.cls1.d.next = self.classify.cls.val();
        self.product.clock.next = self.clock.val();
        self.product.en.next = self.en.val();
        self.sa2.clock.next = self.clock.val();
        self.sa2.en.next = self.en.val();
        self.sa2.d.next = self.align.sa.val();
        self.product.sa.next = self.sa2.q.val();
        self.sb2.clock.next = self.clock.val();
        self.sb2.en.next = self.en.val();
        self.sb2.d.next = self.align.sb.val();
        self.product.sb.next = self.sb2.q.val();
        self.eob2.clock.next = self.clock.val();
        self.eob2.en.next = self.en.val();
        self.eob2.d.next = self.align.eob.val();
        self.cls2.clock.next = self.clock.val();
        self.cls2.en.next = self.en.val();
        self.cls2.d.next = self.cls1.q.val();
        self.ll3.clock.next = self.clock.val();
        self.ll3.en.next = self.en.val();
        self.ll3.d.next = self.product.ll.val();
        self.psum.ll.next = self.ll3.q.val();
        self.lh3.clock.next = self.clock.val();
        self.lh3.en.next = self.en.val();
        self.lh3.d.next = self.product.lh.val();
        self.psum.lh.next = self.lh3.q.val();
        self.hl3.clock.next = self.clock.val();
        self.hl3.en.next = self.en.val();
        self.hl3.d.next = self.product.hl.val();
        self.psum.hl.next = self.hl3.q.val();
        self.hh3.clock.next = self.clock.val();
        self.hh3.en.next = self.en.val();
        self.hh3.d.next = self.product.hh.val();
        self.psum.hh.next = self.hh3.q.val();
        self.eob3.clock.next = self.clock.val();
        self.eob3.en.next = self.en.val();
        self.eob3.d.next = self.eob2.q.val();
        self.cls3.clock.next = self.clock.val();
        self.cls3.en.next = self.en.val();
        self.cls3.d.next = self.cls2.q.val();
        self.p4.clock.next = self.clock.val();
        self.p4.en.next = self.en.val();
        self.p4.d.next = self.psum.p.val();
        self.norm.p.next = self.p4.q.val();
        self.eob4.clock.next = self.clock.val();
        self.eob4.en.next = self.en.val();
        self.eob4.d.next = self.eob3.q.val();
        self.norm.eob.next = self.eob4.q.val();
        self.cls4.clock.next = self.clock.val();
        self.cls4.en.next = self.en.val();
        self.cls4.d.next = self.cls3.q.val();
        self.w5.clock.next = self.clock.val();
        self.w5.en.next = self.en.val();
        self.w5.d.next = self.norm.w.val();
        self.denorm.w.next = self.w5.q.val();
        self.k5.clock.next = self.clock.val();
        self.k5.en.next = self.en.val();
        self.k5.d.next = self.norm.k.val();
        self.denorm.k.next = self.k5.q.val();
        self.e15.clock.next = self.clock.val();
        self.e15.en.next = self.en.val();
        self.e15.d.next = self.norm.e1.val();
        self.big5.clock.next = self.clock.val();
        self.big5.en.next = self.en.val();
        self.big5.d.next = self.norm.big.val();
        self.cls5.clock.next = self.clock.val();
        self.cls5.en.next = self.en.val();
        self.cls5.d.next = self.cls4.q.val();
        self.ws6.clock.next = self.clock.val();
        self.ws6.en.next = self.en.val();
        self.ws6.d.next = self.denorm.ws.val();
        self.round.ws.next = self.ws6.q.val();
        self.lost6.clock.next = self.clock.val();
        self.lost6.en.next = self.en.val();
        self.lost6.d.next = self.denorm.lost.val();
        self.round.lost.next = self.lost6.q.val();
        self.e16.clock.next = self.clock.val();
        self.e16.en.next = self.en.val();
        self.e16.d.next = self.e15.q.val();
        self.round.e1.next = self.e16.q.val();
        self.big6.clock.next = self.clock.val();
        self.big6.en.next = self.en.val();
        self.big6.d.next = self.big5.q.val();
        self.round.big.next = self.big6.q.val();
        self.cls6.clock.next = self.clock.val();
        self.cls6.en.next = self.en.val();
        self.cls6.d.next = self.cls5.q.val();
        self.round.cls.next = self.cls6.q.val();
        self.y_reg.clock.next = self.clock.val();
        self.y_reg.en.next = self.en.val();
        self.y_reg.d.next = self.round.y.val();
        self.y.next = self.y_reg.q.val();
    }
}

pipelined! {
    /// [`FpCmp`] with `S` output register stages. Ports: `clock`, `en`, `a`, `b` → `lt`, `eq`,
    /// `gt`, `unordered`, `min`, `max`.
    FpCmpP [] [] = FpCmp {
        in a: Bits<32>, b: Bits<32>;
        out lt: Bit => lt_reg, eq: Bit => eq_reg, gt: Bit => gt_reg, unordered: Bit => unordered_reg,
            min: Bits<32> => min_reg, max: Bits<32> => max_reg
    }
}

pipelined! {
    /// [`F16ToF32`] with `S` output register stages. Ports: `clock`, `en`, `a` → `y`.
    F16ToF32P [] [] = F16ToF32 {
        in a: Bits<16>;
        out y: Bits<32> => y_reg
    }
}

/// Where [`FpToFixedP`] puts its registers: `FIX_CUTS[S][j]` says whether the boundary after
/// piece `j + 1` of the three is registered in an `S`-stage build (`S ≥ 2` as `S = 2`): one stage
/// cuts before the rounding add, two before the shifts too; a third is a transport register in
/// front of the first piece (the operand can come from a register far across the die), and
/// further stages follow the last piece.
pub const FIX_CUTS: [[bool; 2]; 3] = [[false, false], [false, true], [true, true]];

/// [`FpToFixed<F>`] with `S ≥ 0` register stages (latency `S`, one result per enabled clock): its
/// three pieces ([`super::fixed`]) with registers at the boundaries [`FIX_CUTS`] names. Ports:
/// `clock`, `en`, `a` → `y`, `nan`, `sat`. Boundary signals are [`Retime`]s of 0 or 1 stages named
/// `<signal><n>` after the boundary `n` (1–2) they cross. At `S = 0` it is [`FpToFixed<F>`] with
/// unused clock ports.
#[derive(Clone, Debug, LogicBlock)]
pub struct FpToFixedP<const F: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance the pipeline (all stages hold while low).
    pub en: Signal<In, Bit>,
    /// f32 bits.
    pub a: Signal<In, Bits<32>>,
    /// Fixed-point result, `S` enabled clocks later.
    pub y: Signal<Out, Bits<32>>,
    /// The input was NaN.
    pub nan: Signal<Out, Bit>,
    /// The result saturated.
    pub sat: Signal<Out, Bit>,
    /// The transport register in front of the first piece (at three stages and more).
    a0: Retime<Bits<32>>,
    classify: FpFixClass<F>,
    shift: FpFixShift,
    round: FpFixRound,
    m1: Retime<Bits<32>>,
    left1: Retime<Bit>,
    lsh1: Retime<Bits<3>>,
    rm1_1: Retime<Bits<5>>,
    mask1: Retime<Bits<32>>,
    flags1: Retime<Bits<5>>,
    v2: Retime<Bits<32>>,
    inc2: Retime<Bit>,
    flags2: Retime<Bits<5>>,
    y_reg: Retime<Bits<32>>,
    /// {sat, nan}.
    flags_reg: Retime<Bits<2>>,
    flags: Signal<Local, Bits<2>>,
}

impl<const F: usize> FpToFixedP<F> {
    /// The converter with `stages` register stages (latency `stages`; 0: combinational).
    pub fn new(stages: usize) -> Self {
        let cut = |j: usize| usize::from(FIX_CUTS[stages.min(2)][j]);
        let front = usize::from(stages >= 3);
        let tail = stages - front - cut(0) - cut(1);
        Self {
            a0: Retime::new(front),
            clock: Default::default(),
            en: Default::default(),
            a: Default::default(),
            y: Default::default(),
            nan: Default::default(),
            sat: Default::default(),
            classify: Default::default(),
            shift: Default::default(),
            round: Default::default(),
            m1: Retime::new(cut(0)),
            left1: Retime::new(cut(0)),
            lsh1: Retime::new(cut(0)),
            rm1_1: Retime::new(cut(0)),
            mask1: Retime::new(cut(0)),
            flags1: Retime::new(cut(0)),
            v2: Retime::new(cut(1)),
            inc2: Retime::new(cut(1)),
            flags2: Retime::new(cut(1)),
            y_reg: Retime::new(tail),
            flags_reg: Retime::new(tail),
            flags: Default::default(),
        }
    }

    /// Register stages (the latency in enabled clocks).
    pub fn stages(&self) -> usize {
        self.a0.stages() + self.flags1.stages() + self.flags2.stages() + self.flags_reg.stages()
    }
}

impl<const F: usize> Logic for FpToFixedP<F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.a0.clock.next = self.clock.val();
        self.a0.en.next = self.en.val();
        self.a0.d.next = self.a.val();
        self.classify.a.next = self.a0.q.val();
        // Boundary 1: classification → shifts.
        self.m1.clock.next = self.clock.val();
        self.m1.en.next = self.en.val();
        self.m1.d.next = self.classify.m.val();
        self.shift.m.next = self.m1.q.val();
        self.left1.clock.next = self.clock.val();
        self.left1.en.next = self.en.val();
        self.left1.d.next = self.classify.left.val();
        self.shift.left.next = self.left1.q.val();
        self.lsh1.clock.next = self.clock.val();
        self.lsh1.en.next = self.en.val();
        self.lsh1.d.next = self.classify.lsh.val();
        self.shift.lsh.next = self.lsh1.q.val();
        self.rm1_1.clock.next = self.clock.val();
        self.rm1_1.en.next = self.en.val();
        self.rm1_1.d.next = self.classify.rm1.val();
        self.shift.rm1.next = self.rm1_1.q.val();
        self.mask1.clock.next = self.clock.val();
        self.mask1.en.next = self.en.val();
        self.mask1.d.next = self.classify.mask.val();
        self.shift.mask.next = self.mask1.q.val();
        self.flags1.clock.next = self.clock.val();
        self.flags1.en.next = self.en.val();
        self.flags1.d.next = self.classify.flags.val();
        // Boundary 2: shifts → rounding.
        self.v2.clock.next = self.clock.val();
        self.v2.en.next = self.en.val();
        self.v2.d.next = self.shift.v.val();
        self.round.v.next = self.v2.q.val();
        self.inc2.clock.next = self.clock.val();
        self.inc2.en.next = self.en.val();
        self.inc2.d.next = self.shift.inc.val();
        self.round.inc.next = self.inc2.q.val();
        self.flags2.clock.next = self.clock.val();
        self.flags2.en.next = self.en.val();
        self.flags2.d.next = self.flags1.q.val();
        self.round.flags.next = self.flags2.q.val();
        // Tail.
        self.y_reg.clock.next = self.clock.val();
        self.y_reg.en.next = self.en.val();
        self.y_reg.d.next = self.round.y.val();
        self.y.next = self.y_reg.q.val();
        self.flags.next = bit_cast::<2, 1>(self.round.nan.val().into())
            | (bit_cast::<2, 1>(self.round.sat.val().into()) << 1);
        self.flags_reg.clock.next = self.clock.val();
        self.flags_reg.en.next = self.en.val();
        self.flags_reg.d.next = self.flags.val();
        self.nan.next = self.flags_reg.q.val().get_bit(0);
        self.sat.next = self.flags_reg.q.val().get_bit(1);
    }
}

/// Where [`FpLog2P`] puts its registers: `LOG2_CUTS[S][j]` is the number of registers at the
/// boundary after piece `j + 1` of the six in an `S`-stage build (`S ≥ 9` as `S = 9`): 2 stages
/// cut after the ROM, 3 after the normalisation and after the product, 4 also after the
/// interpolation, 5 after every piece but the classification, 6 after every piece; 7 and 8 add
/// transport registers on the two sides of the interpolation product, in front of it (boundary
/// 3) and behind it (boundary 4), as [`MUL_CUTS`] does for the f32 multiplier; 9 a third register
/// behind the ROM (boundary 3), so that the ROM reads through its own register
/// ([`log2_rom_register`]) into a fabric register before the product's operand register; the
/// other stages follow the last piece.
pub const LOG2_CUTS: [[u8; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 1, 0, 0],
    [0, 1, 0, 1, 0],
    [0, 1, 0, 1, 1],
    [0, 1, 1, 1, 1],
    [1, 1, 1, 1, 1],
    [1, 1, 2, 1, 1],
    [1, 1, 2, 2, 1],
    [1, 1, 3, 2, 1],
];

/// Register stages at boundary `j` (after piece `j + 1`) of an `stages`-stage [`FpLog2P`]: 0 to
/// 3.
pub fn log2_cut(stages: usize, j: usize) -> usize {
    usize::from(LOG2_CUTS[stages.min(9)][j])
}

/// Whether an `stages`-stage [`FpLog2P`] builds its interpolation product with the DSP slice's
/// operand and product registers ([`super::MulUReg`]): when the boundaries on both sides of the
/// product have two registers (eight stages), as [`mul_dsp_registers`] decides for the f32
/// multiplier.
pub fn log2_dsp_registers(stages: usize) -> bool {
    log2_cut(stages, 2) >= 2 && log2_cut(stages, 3) >= 2
}

/// Whether an `stages`-stage [`FpLog2P`] reads its ROM through a read register
/// ([`super::log2::FpLog2Rom`], block RAM on an FPGA): when the boundary behind the ROM has two
/// registers besides the product's operand register (seven stages, and nine and more), the
/// first of them, so that the slow block-RAM output (5.6 ns from the clock on the ECP5, speed 6)
/// lands in a fabric register. In the whole LOD unit on the ECP5-85F the ROM in logic was the
/// worst path at depths 41 and 42: its 6-bit index fans out to every one of its 40 output bits
/// (docs/fpga.md).
pub fn log2_rom_register(stages: usize) -> bool {
    log2_cut(stages, 2) - usize::from(log2_dsp_registers(stages)) >= 2
}

crate::settled_block! {
/// The f32 → fixed-point log2 ([`super::log2`]) with `S ≥ 0` register stages (latency `S`, one
/// result per enabled clock): its six pieces with registers at the boundaries [`LOG2_CUTS`] names; the
/// third piece, the ROM, is a [`super::log2::FpLog2Rom`] leaf, read through its own register
/// where [`log2_rom_register`] says so; the fourth, the interpolation product, is a
/// [`super::MulUReg`] leaf, with the DSP slice's operand and product registers from eight stages
/// ([`log2_dsp_registers`]; the transport registers beside them stay in the logic). Ports: `clock`, `en`, `a` → `y`, `zero`, `inf`,
/// `nan`, `neg`. Each boundary signal is a [`Retime`] of 0, 1 or 2 stages, named `<signal><n>`
/// after the boundary `n` (1–5) it crosses. At `S = 0` it is combinational, with unused clock
/// ports, and settles within one simulation pass ([`crate::common::settle`]).
#[derive(Clone, Debug)]
pub struct FpLog2P {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance the pipeline (all stages hold while low).
    pub en: Signal<In, Bit>,
    /// f32 bits.
    pub a: Signal<In, Bits<32>>,
    /// log2|a| · 65536, `S` enabled clocks later.
    pub y: Signal<Out, Bits<32>>,
    /// `a` was ±0.
    pub zero: Signal<Out, Bit>,
    /// `a` was ±Inf.
    pub inf: Signal<Out, Bit>,
    /// `a` was NaN.
    pub nan: Signal<Out, Bit>,
    /// `a` was negative (not ±0, not NaN).
    pub neg: Signal<Out, Bit>,
    classify: FpLog2Class,
    norm: FpLog2Norm,
    /// The ROM (piece 3), with its read register when boundary 3 has two ([`log2_rom_register`]).
    lookup: FpLog2Rom,
    /// The interpolation product `dv · r17` (piece 4).
    product: MulUReg<16, 17, 32>,
    interp: FpLog2Interp,
    round: FpLog2Round,
    fm1: Retime<Bits<23>>,
    eb1: Retime<Bits<16>>,
    den1: Retime<Bit>,
    lz1: Retime<Bits<LZC_BITS>>,
    cls1: Retime<Bits<4>>,
    f2: Retime<Bits<23>>,
    ex2: Retime<Bits<16>>,
    cls2: Retime<Bits<4>>,
    tv3: Retime<Bits<24>>,
    dv3: Retime<Bits<16>>,
    r3: Retime<Bits<17>>,
    ex3: Retime<Bits<16>>,
    cls3: Retime<Bits<4>>,
    p4: Retime<Bits<32>>,
    tv4: Retime<Bits<24>>,
    ex4: Retime<Bits<16>>,
    cls4: Retime<Bits<4>>,
    l5: Retime<Bits<32>>,
    ex5: Retime<Bits<16>>,
    cls5: Retime<Bits<4>>,
    y_reg: Retime<Bits<32>>,
    flags_reg: Retime<Bits<4>>,
    flags: Signal<Local, Bits<4>>,
}
}

impl FpLog2P {
    /// The log with `stages` register stages (latency `stages`; 0: combinational).
    pub fn new(stages: usize) -> Self {
        let cut = |j| log2_cut(stages, j);
        let tail = stages - (0..5).map(cut).sum::<usize>();
        let dsp = log2_dsp_registers(stages);
        let rom = log2_rom_register(stages);
        Self {
            settle: crate::common::settle::SettleState::new(stages > 0),
            clock: Default::default(),
            en: Default::default(),
            a: Default::default(),
            y: Default::default(),
            zero: Default::default(),
            inf: Default::default(),
            nan: Default::default(),
            neg: Default::default(),
            classify: Default::default(),
            norm: Default::default(),
            lookup: FpLog2Rom::new(rom),
            product: MulUReg::new(dsp),
            interp: Default::default(),
            round: Default::default(),
            fm1: Retime::new(cut(0)),
            eb1: Retime::new(cut(0)),
            den1: Retime::new(cut(0)),
            lz1: Retime::new(cut(0)),
            cls1: Retime::new(cut(0)),
            f2: Retime::new(cut(1)),
            ex2: Retime::new(cut(1)),
            cls2: Retime::new(cut(1)),
            tv3: Retime::new(cut(2) - usize::from(rom)),
            dv3: Retime::new(cut(2) - usize::from(rom) - usize::from(dsp)),
            r3: Retime::new(cut(2) - usize::from(dsp)),
            ex3: Retime::new(cut(2)),
            cls3: Retime::new(cut(2)),
            p4: Retime::new(cut(3) - usize::from(dsp)),
            tv4: Retime::new(cut(3)),
            ex4: Retime::new(cut(3)),
            cls4: Retime::new(cut(3)),
            l5: Retime::new(cut(4)),
            ex5: Retime::new(cut(4)),
            cls5: Retime::new(cut(4)),
            y_reg: Retime::new(tail),
            flags_reg: Retime::new(tail),
            flags: Default::default(),
        }
    }

    /// Register stages (the latency in enabled clocks).
    pub fn stages(&self) -> usize {
        [
            &self.cls1,
            &self.cls2,
            &self.cls3,
            &self.cls4,
            &self.cls5,
            &self.flags_reg,
        ]
        .iter()
        .map(|r| r.stages())
        .sum()
    }
}

impl Logic for FpLog2P {
    #[hdl_gen]
    fn update(&mut self) {
        self.classify.a.next = self.a.val();
        // Boundary 1: classification → normalisation.
        self.fm1.clock.next = self.clock.val();
        self.fm1.en.next = self.en.val();
        self.fm1.d.next = self.classify.fm.val();
        self.norm.fm.next = self.fm1.q.val();
        self.eb1.clock.next = self.clock.val();
        self.eb1.en.next = self.en.val();
        self.eb1.d.next = self.classify.eb.val();
        self.norm.eb.next = self.eb1.q.val();
        self.den1.clock.next = self.clock.val();
        self.den1.en.next = self.en.val();
        self.den1.d.next = self.classify.den.val();
        self.norm.den.next = self.den1.q.val();
        self.lz1.clock.next = self.clock.val();
        self.lz1.en.next = self.en.val();
        self.lz1.d.next = self.classify.lz.val();
        self.norm.lz.next = self.lz1.q.val();
        self.cls1.clock.next = self.clock.val();
        self.cls1.en.next = self.en.val();
        self.cls1.d.next = self.classify.cls.val();
        // Boundary 2: normalisation → ROM.
        self.f2.clock.next = self.clock.val();
        self.f2.en.next = self.en.val();
        self.f2.d.next = self.norm.f.val();
        self.lookup.clock.next = self.clock.val();
        self.lookup.en.next = self.en.val();
        self.lookup.f.next = self.f2.q.val();
        self.ex2.clock.next = self.clock.val();
        self.ex2.en.next = self.en.val();
        self.ex2.d.next = self.norm.ex.val();
        self.cls2.clock.next = self.clock.val();
        self.cls2.en.next = self.en.val();
        self.cls2.d.next = self.cls1.q.val();
        // Boundary 3: ROM → product.
        self.tv3.clock.next = self.clock.val();
        self.tv3.en.next = self.en.val();
        self.tv3.d.next = self.lookup.tv.val();
        self.dv3.clock.next = self.clock.val();
        self.dv3.en.next = self.en.val();
        self.dv3.d.next = self.lookup.dv.val();
        self.product.clock.next = self.clock.val();
        self.product.en.next = self.en.val();
        self.product.a.next = self.dv3.q.val();
        self.r3.clock.next = self.clock.val();
        self.r3.en.next = self.en.val();
        self.r3.d.next = self.lookup.r17.val();
        self.product.b.next = self.r3.q.val();
        self.ex3.clock.next = self.clock.val();
        self.ex3.en.next = self.en.val();
        self.ex3.d.next = self.ex2.q.val();
        self.cls3.clock.next = self.clock.val();
        self.cls3.en.next = self.en.val();
        self.cls3.d.next = self.cls2.q.val();
        // Boundary 4: product → interpolation.
        self.p4.clock.next = self.clock.val();
        self.p4.en.next = self.en.val();
        self.p4.d.next = self.product.p.val();
        self.interp.p17.next = self.p4.q.val();
        self.tv4.clock.next = self.clock.val();
        self.tv4.en.next = self.en.val();
        self.tv4.d.next = self.tv3.q.val();
        self.interp.tv.next = self.tv4.q.val();
        self.ex4.clock.next = self.clock.val();
        self.ex4.en.next = self.en.val();
        self.ex4.d.next = self.ex3.q.val();
        self.cls4.clock.next = self.clock.val();
        self.cls4.en.next = self.en.val();
        self.cls4.d.next = self.cls3.q.val();
        // Boundary 5: interpolation → rounding.
        self.l5.clock.next = self.clock.val();
        self.l5.en.next = self.en.val();
        self.l5.d.next = self.interp.l20.val();
        self.round.l20.next = self.l5.q.val();
        self.ex5.clock.next = self.clock.val();
        self.ex5.en.next = self.en.val();
        self.ex5.d.next = self.ex4.q.val();
        self.round.ex.next = self.ex5.q.val();
        self.cls5.clock.next = self.clock.val();
        self.cls5.en.next = self.en.val();
        self.cls5.d.next = self.cls4.q.val();
        self.round.cls.next = self.cls5.q.val();
        // Tail.
        self.y_reg.clock.next = self.clock.val();
        self.y_reg.en.next = self.en.val();
        self.y_reg.d.next = self.round.y.val();
        self.y.next = self.y_reg.q.val();
        self.flags.next = bit_cast::<4, 1>(self.round.zero.val().into())
            | (bit_cast::<4, 1>(self.round.inf.val().into()) << 1)
            | (bit_cast::<4, 1>(self.round.nan.val().into()) << 2)
            | (bit_cast::<4, 1>(self.round.neg.val().into()) << 3);
        self.flags_reg.clock.next = self.clock.val();
        self.flags_reg.en.next = self.en.val();
        self.flags_reg.d.next = self.flags.val();
        self.zero.next = self.flags_reg.q.val().get_bit(0);
        self.inf.next = self.flags_reg.q.val().get_bit(1);
        self.nan.next = self.flags_reg.q.val().get_bit(2);
        self.neg.next = self.flags_reg.q.val().get_bit(3);
    }
}

pipelined! {
    /// [`Lzc<N>`] with `S` output register stages. Ports: `clock`, `en`, `a` → `count`.
    LzcP [const N: usize] [N] = Lzc<N> {
        in a: Bits<N>;
        out count: Bits<LZC_BITS> => count_reg
    }
}
