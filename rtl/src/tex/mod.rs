//! The texture unit (`docs/units/tex.md`): [`TexUnit`] and its blocks — the texel cache
//! ([`TexelCache`]), format conversion ([`TexelConvert`]), depth compare ([`DepthCompare`]), the
//! filter's weighted sum ([`TapBlend`]) and one lane's datapath ([`FilterLane`]), and the standalone AMD MIMG address/result blocks
//! ([`MimgUnpack`], [`MimgPack`]). The algorithm is
//! stated bit for bit in the golden model's documentation (`texpix_tb::tex`).

pub mod blend;
pub mod cache;
pub mod compare;
pub mod convert;
pub mod cube;
pub mod lane;
pub mod mimg;
pub mod prep;
pub mod probe;
pub mod srgb;
pub mod unit;
pub mod unorm;

pub use blend::TapBlend;
pub use cache::{line_bank, CacheBank, TexelCache};
pub use compare::DepthCompare;
pub use convert::TexelConvert;
pub use cube::CubeFace;
pub use lane::FilterLane;
pub use mimg::{MimgPack, MimgUnpack};
pub use prep::LanePrep;
pub use probe::{ProbeAccum, ProbeMean, ProbeStepRom};
pub use srgb::{srgb_table, SrgbRom};
pub use unit::TexUnit;
pub use unorm::UnormToF32;
