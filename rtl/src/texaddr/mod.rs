//! Texture address pipeline (SPEC §3): [`TexAddrUnit`] and its datapath blocks. The algorithm is
//! stated bit for bit in the golden model's documentation (`texpix_tb::texaddr`).

pub mod coord;
pub mod layout;
pub mod taps;
pub mod unit;
pub mod wrap;

pub use coord::{Axis, ScaledFloor};
pub use layout::LevelLayout;
pub use taps::TapAddr;
pub use unit::TexAddrUnit;
pub use wrap::{ModP, Wrap1};
