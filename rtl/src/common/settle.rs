//! Combinational blocks that settle inside one simulation pass.
//!
//! rust-hdl's simulator propagates a value by one block boundary (and one level of `Local`
//! signals) per pass over the whole design: a sub-block's `In` port latches after the sub-block
//! has run. A combinational core built of a chain of pieces (the f32 adder and multiplier, six
//! each) therefore costs the whole design a dozen passes whenever its inputs change.
//!
//! [`settled_block!`] declares such a struct and implements [`Block`](rust_hdl::prelude::Block)
//! for it the way `#[derive(LogicBlock)]` does, except that `update_all` repeats the block's own
//! `update` and its fields' `update_all` until nothing inside it changes, and `has_changed`
//! reports whether anything changed during that settling. The fixed point is the same (the block
//! is combinational, so it has exactly one), the Verilog is the same (`accept` visits the same
//! fields in the same order), and the rest of the design sees the block's outputs one pass after
//! its inputs, as for a leaf. Only blocks without registers settle (a block with registers is built
//! with `SettleState::new(true)` and takes one pass per `update_all`): a register's output would
//! change in the pass its clock edge arrives, before registers elsewhere in the design (deeper in
//! the hierarchy, so reached by the edge a pass or more later) have sampled their inputs.
//!
//! A settled block is also skipped while it is *quiet*: when its last `update_all` ended with a
//! pass in which nothing inside it changed and none of its input ports has a new value waiting,
//! another pass would change nothing, so `update_all` returns at once (`has_changed` false).
//! The test costs one comparison per input port. It is exact for blocks with registers too (a
//! clock edge is an input that moved, and the pass in which the edge latches is never quiet), so
//! the units and their register-holding stages use the macro for the skip alone (`SettleState::new(true)`).
//! rust-hdl's own `#[derive(LogicBlock)]` evaluates every block in every pass; with the skip, a
//! pass costs only the blocks whose inputs moved. Blocks with non-signal fields (state kept in
//! `_`-prefixed fields, such as [`Retime`](crate::common::fp::Retime) and the ray queue) and
//! generic blocks stay `#[derive(LogicBlock)]`: the macro handles neither.

/// Upper bound on the passes a settled block takes; a block that is still changing after this
/// many (a combinational loop) hands the rest to the enclosing simulation, which has its own
/// bound.
pub const SETTLE_PASSES: usize = 256;

/// An input port whose driver has set a value the port has not latched yet.
///
/// With [`NoInput`] this picks, per field type, whether a field of a [`settled_block!`] can wake
/// it: `(&field).input_pending()` resolves to this trait for `Signal<In, T>` and to
/// [`NoInput`] (always `false`) for everything else (sub-blocks, outputs and locals, whose next
/// values only the block itself writes and latches within the same pass).
pub trait InputPending {
    /// The driver's value differs from the latched one.
    fn input_pending(&self) -> bool;
}

impl<T: rust_hdl::prelude::Synth> InputPending
    for rust_hdl::prelude::Signal<rust_hdl::prelude::In, T>
{
    fn input_pending(&self) -> bool {
        self.next != self.val()
    }
}

impl<T: rust_hdl::prelude::Synth, const N: usize> InputPending
    for [rust_hdl::prelude::Signal<rust_hdl::prelude::In, T>; N]
{
    fn input_pending(&self) -> bool {
        self.iter().any(InputPending::input_pending)
    }
}

/// The fallback of [`InputPending`] for fields that are not input ports.
pub trait NoInput {
    /// Always `false`.
    fn input_pending(&self) -> bool;
}

impl<F> NoInput for &F {
    fn input_pending(&self) -> bool {
        false
    }
}

/// The simulation state a [`settled_block!`] adds to its struct (the private field `settle`).
#[derive(Clone, Copy, Debug, Default)]
pub struct SettleState {
    /// Something inside changed during the last `update_all`.
    pub changed: bool,
    /// One `update` per pass, as `#[derive(LogicBlock)]` does (the block holds registers).
    pub registers: bool,
    /// The last `update_all` ended with a pass in which nothing inside changed.
    pub quiet: bool,
}

impl SettleState {
    /// The state of a block that holds registers (`true`: one pass per `update_all`, skipped
    /// while quiet) or is combinational (`false`: settles, skipped while quiet). `Default` is
    /// combinational.
    pub fn new(registers: bool) -> Self {
        Self {
            registers,
            ..Self::default()
        }
    }
}

/// Declares a block struct and its [`Block`](rust_hdl::prelude::Block) implementation (see the
/// module documentation): combinational blocks settle and are skipped while quiet, blocks built
/// with [`SettleState::new`]`(true)` (they hold registers) take one pass per `update_all`, as
/// `#[derive(LogicBlock)]` does, and are skipped while quiet. The struct gets one extra private
/// field, `settle` ([`SettleState`], combinational by `Default`).
#[macro_export]
macro_rules! settled_block {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[$fmeta])* $fvis $field : $ty, )*
            /// Simulation state: see [`SettleState`]($crate::common::settle::SettleState).
            settle: $crate::common::settle::SettleState,
        }

        impl rust_hdl::prelude::Block for $name {
            fn connect_all(&mut self) {
                rust_hdl::prelude::Logic::connect(self);
                $( self.$field.connect_all(); )*
            }

            fn update_all(&mut self) {
                #[allow(unused_imports)]
                use $crate::common::settle::{InputPending as _, NoInput as _};
                if self.settle.quiet && !(false $( || (&self.$field).input_pending() )*) {
                    // Quiet and no input moved: a pass would change nothing.
                    self.settle.changed = false;
                    return;
                }
                if self.settle.registers {
                    rust_hdl::prelude::Logic::update(self);
                    $( self.$field.update_all(); )*
                    self.settle.changed = false $( || self.$field.has_changed() )*;
                    self.settle.quiet = !self.settle.changed;
                    return;
                }
                self.settle.changed = false;
                self.settle.quiet = false;
                for _ in 0..$crate::common::settle::SETTLE_PASSES {
                    rust_hdl::prelude::Logic::update(self);
                    $( self.$field.update_all(); )*
                    let changed = false $( || self.$field.has_changed() )*;
                    if !changed {
                        self.settle.quiet = true;
                        break;
                    }
                    self.settle.changed = true;
                }
            }

            fn has_changed(&self) -> bool {
                self.settle.changed
            }

            fn accept(&self, name: &str, probe: &mut dyn rust_hdl::prelude::Probe) {
                probe.visit_start_scope(name, self);
                $( self.$field.accept(stringify!($field), probe); )*
                probe.visit_end_scope(name, self);
            }
        }
    };
}
