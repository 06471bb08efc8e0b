//! Hardware shared by every unit. rust-hdl's sharp edges (a native multiply only up to 16×16 bits,
//! slow simulation of values wider than 32 bits; the coding rules are listed in [`fp`]'s module
//! documentation) are guarded here once, not per unit.

pub mod carry;
pub mod enable;
pub mod fix_to_f32;
pub mod fp;
pub mod mul;
pub mod settle;
pub mod u16_to_f32;

pub use enable::{EnableCopy, SkidControl};
pub use fix_to_f32::Fix8ToF32;
pub use mul::MulS;
pub use u16_to_f32::U16ToF32;
