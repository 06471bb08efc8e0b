//! Texture address pipeline: [`TexAddrUnit`], its stage blocks ([`TxdDecode`], [`DescStage`],
//! [`AddrStage`], [`Residency`]) and their datapath blocks. The unit is described in
//! `docs/units/texaddr.md`; the algorithm is stated bit for bit in the golden model's documentation
//! (`texpix_tb::texaddr`).

pub mod addr;
pub mod coord;
pub mod decode;
pub mod desc;
pub mod layout;
pub mod modp;
pub mod residency;
pub mod taps;
pub mod unit;
pub mod wrap;

pub use addr::AddrStage;
pub use coord::{Axis, ScaledFloor, AXIS_PLAN};
pub use decode::TxdDecode;
pub use desc::DescStage;
pub use layout::{LayoutCuts, LevelLayout, LevelOnes, LAYOUT_PLAN};
pub use modp::{ModP, ModStep, MODP_BOUNDARIES, MODP_STEPS};
pub use residency::Residency;
pub use taps::TapAddr;
pub use unit::TexAddrUnit;
pub use wrap::Wrap1;
