//! Hardware shared by every unit. rust-hdl's sharp edges (see `RUST_HDL_NOTES.md` in the shared docs)
//! are guarded here once, not per unit.

pub mod fp;
pub mod mul;
pub mod u16_to_f32;

pub use mul::MulS;
pub use u16_to_f32::U16ToF32;
