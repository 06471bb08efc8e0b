//! Pipelined versions of the floating-point cores: each core followed by `S ≥ 1` register stages.
//!
//! Every wrapper has the core's data ports plus `clock` and `en`, and is built with
//! `new(stages)`. Its inputs feed the combinational core directly; each core output goes through
//! its own [`Retime`] chain, so an output is the core's function of the inputs presented `S`
//! enabled clocks earlier (latency `S`, one result per enabled clock; `en` low holds every stage).
//! Registers power up at zero and are not reset (data only: keep valid bits in reset registers).
//! The registers sit after the core, and moving them into the logic (retiming) is left to synthesis
//! (e.g. Yosys `abc -dff`, vendor register retiming) — except in [`FpAddP`] and [`FpMulP`], whose
//! cores are built from two halves: with two or more stages their first register sits between the
//! halves ([`split_pipelined!`](crate::split_pipelined)), because Yosys' retiming did not move the
//! registers into the iCE40 logic (docs/fpga.md).
//!
//! All wrappers come from one macro ([`pipelined!`](crate::pipelined)), so they are the same
//! construction, not copies.

use super::add::{FpAddBack, FpAddFront};
use super::mul::{FpMulBack, FpMulFront};
use super::{F16ToF32, FpCmp, FpLog2, FpToFixed, Lzc, Retime, LZC_BITS};
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

/// Defines `$name`: a core made of two halves, `$front` and `$back`, with `S ≥ 1` register stages:
/// for `S ≥ 2` the first stage sits between the halves (each signal joining them goes through a
/// one-stage [`Retime`]) and `S − 1` after the back half; for `S = 1` the halves are wired directly
/// and the one stage follows. Latency `S`, one result per enabled clock, the same function as the
/// combinational core; the split shortens the longest register-to-register path.
#[macro_export]
macro_rules! split_pipelined {
    (
        $(#[$meta:meta])*
        $name:ident = $front:ty => $back:ty {
            in $($i:ident : $it:ty),+ ;
            mid $($m:ident : $mt:ty => $mr:ident),+ ;
            out $($o:ident : $ot:ty => $r:ident),+ $(;)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, LogicBlock)]
        pub struct $name {
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
            /// The first half of the core.
            pub first: $front,
            /// The second half of the core.
            pub second: $back,
            $(
                #[doc = concat!("Middle stage of `", stringify!($m), "` (a wire when S = 1).")]
                pub $mr: Retime<$mt>,
            )+
            $(
                #[doc = concat!("Register chain of `", stringify!($o), "`.")]
                pub $r: Retime<$ot>,
            )+
        }

        impl $name {
            /// The core with `stages ≥ 1` register stages (latency `stages`).
            pub fn new(stages: usize) -> Self {
                assert!(stages >= 1, "a pipelined core needs at least one stage");
                let mid = usize::from(stages >= 2);
                Self {
                    clock: Default::default(),
                    en: Default::default(),
                    $($i: Default::default(),)+
                    $($o: Default::default(),)+
                    first: Default::default(),
                    second: Default::default(),
                    $($mr: Retime::new(mid),)+
                    $($r: Retime::new(stages - mid),)+
                }
            }

            /// Register stages (the latency in enabled clocks).
            pub fn stages(&self) -> usize {
                [$(self.$mr.stages()),+][0] + [$(self.$r.stages()),+][0]
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                $(self.first.$i.next = self.$i.val();)+
                $(
                    self.$mr.clock.next = self.clock.val();
                    self.$mr.en.next = self.en.val();
                    self.$mr.d.next = self.first.$m.val();
                    self.second.$m.next = self.$mr.q.val();
                )+
                $(
                    self.$r.clock.next = self.clock.val();
                    self.$r.en.next = self.en.val();
                    self.$r.d.next = self.second.$o.val();
                    self.$o.next = self.$r.q.val();
                )+
            }
        }
    };
}

split_pipelined! {
    /// [`super::FpAdd`] with `S` register stages, the first between alignment ([`FpAddFront`]) and
    /// add/normalise/round ([`FpAddBack`]) when `S ≥ 2`. Ports: `clock`, `en`, `a`, `b`, `sub` → `y`.
    FpAddP = FpAddFront => FpAddBack {
        in a: Bits<32>, b: Bits<32>, sub: Bit;
        mid xl: Bits<32> => xl_reg, al: Bits<32> => al_reg, ctl: Bits<15> => ctl_reg;
        out y: Bits<32> => y_reg
    }
}

split_pipelined! {
    /// [`super::FpMul`] with `S` register stages, the first between the significand product
    /// ([`FpMulFront`]) and normalise/round ([`FpMulBack`]) when `S ≥ 2`. Ports: `clock`, `en`,
    /// `a`, `b` → `y`.
    FpMulP = FpMulFront => FpMulBack {
        in a: Bits<32>, b: Bits<32>;
        mid p: Bits<48> => p_reg, eob: Bits<16> => eob_reg, cls: Bits<4> => cls_reg;
        out y: Bits<32> => y_reg
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

pipelined! {
    /// [`FpToFixed<F>`] with `S` output register stages. Ports: `clock`, `en`, `a` → `y`, `nan`,
    /// `sat`.
    FpToFixedP [const F: usize] [F] = FpToFixed<F> {
        in a: Bits<32>;
        out y: Bits<32> => y_reg, nan: Bit => nan_reg, sat: Bit => sat_reg
    }
}

pipelined! {
    /// [`FpLog2`] with `S` output register stages. Ports: `clock`, `en`, `a` → `y`, `zero`, `inf`,
    /// `nan`, `neg`.
    FpLog2P [] [] = FpLog2 {
        in a: Bits<32>;
        out y: Bits<32> => y_reg, zero: Bit => zero_reg, inf: Bit => inf_reg, nan: Bit => nan_reg,
            neg: Bit => neg_reg
    }
}

pipelined! {
    /// [`Lzc<N>`] with `S` output register stages. Ports: `clock`, `en`, `a` → `count`.
    LzcP [const N: usize] [N] = Lzc<N> {
        in a: Bits<N>;
        out count: Bits<LZC_BITS> => count_reg
    }
}
