//! Pipelined versions of the floating-point cores: each core followed by `S ≥ 1` register stages.
//!
//! Every wrapper has the core's data ports plus `clock` and `en`, and is built with
//! `new(stages)`. Its inputs feed the combinational core directly; each core output goes through
//! its own [`Retime`] chain, so an output is the core's function of the inputs presented `S`
//! enabled clocks earlier (latency `S`, one result per enabled clock; `en` low holds every stage).
//! Registers power up at zero and are not reset (data only: keep valid bits in reset registers).
//! The registers all sit after the core on purpose: moving them into the logic (retiming) is left to
//! synthesis, which knows the target's timing (e.g. Yosys `abc -dff`, vendor register retiming).
//!
//! All wrappers come from one macro ([`pipelined!`](crate::pipelined)), so they are the same
//! construction, not copies.

use super::{F16ToF32, FpAdd, FpCmp, FpLog2, FpMul, FpToFixed, Lzc, Retime, LZC_BITS};
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

pipelined! {
    /// [`FpAdd`] with `S` output register stages. Ports: `clock`, `en`, `a`, `b`, `sub` → `y`.
    FpAddP [] [] = FpAdd {
        in a: Bits<32>, b: Bits<32>, sub: Bit;
        out y: Bits<32> => y_reg
    }
}

pipelined! {
    /// [`FpMul`] with `S` output register stages. Ports: `clock`, `en`, `a`, `b` → `y`.
    FpMulP [] [] = FpMul {
        in a: Bits<32>, b: Bits<32>;
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
