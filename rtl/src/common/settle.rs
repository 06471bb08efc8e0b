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
//! its inputs, as for a leaf. Use it only for blocks without registers: a register's output would
//! change in the pass its clock edge arrives, before registers elsewhere in the design (deeper in
//! the hierarchy, so reached by the edge a pass or more later) have sampled their inputs.

/// Upper bound on the passes a settled block takes; a block that is still changing after this
/// many (a combinational loop) hands the rest to the enclosing simulation, which has its own
/// bound.
pub const SETTLE_PASSES: usize = 256;

/// Declares a combinational block struct and its settling [`Block`](rust_hdl::prelude::Block)
/// implementation (see the module documentation). The struct gets two extra private fields,
/// `settle_changed` and `settle_off` (both `false` by `Default`). A block that holds registers
/// in some configurations (the pipelined f32 cores at one stage or more) sets `settle_off` in its
/// constructor for those: it then simulates exactly like `#[derive(LogicBlock)]`.
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
            /// Something inside changed during the last `update_all`.
            settle_changed: bool,
            /// Behave like `#[derive(LogicBlock)]` (one `update` per pass): set by constructors of
            /// blocks that hold registers in some configurations.
            settle_off: bool,
        }

        impl rust_hdl::prelude::Block for $name {
            fn connect_all(&mut self) {
                rust_hdl::prelude::Logic::connect(self);
                $( self.$field.connect_all(); )*
            }

            fn update_all(&mut self) {
                if self.settle_off {
                    rust_hdl::prelude::Logic::update(self);
                    $( self.$field.update_all(); )*
                    self.settle_changed = false $( || self.$field.has_changed() )*;
                    return;
                }
                self.settle_changed = false;
                for _ in 0..$crate::common::settle::SETTLE_PASSES {
                    rust_hdl::prelude::Logic::update(self);
                    $( self.$field.update_all(); )*
                    let changed = false $( || self.$field.has_changed() )*;
                    if !changed {
                        break;
                    }
                    self.settle_changed = true;
                }
            }

            fn has_changed(&self) -> bool {
                self.settle_changed
            }

            fn accept(&self, name: &str, probe: &mut dyn rust_hdl::prelude::Probe) {
                probe.visit_start_scope(name, self);
                $( self.$field.accept(stringify!($field), probe); )*
                probe.visit_end_scope(name, self);
            }
        }
    };
}
