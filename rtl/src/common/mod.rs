//! Hardware shared by every unit. rust-hdl's sharp edges (see `RUST_HDL_NOTES.md` in the shared docs)
//! are guarded here once, not per unit.

pub mod mul;

pub use mul::MulS;
