//! The texture unit as a [`Unit`](crate::unit::Unit), run with the cache on and the default
//! memory model ([`super::dut::run`]).

use super::{TexResult, TexTxn};
use texpix_rtl::tex::TexUnit;

/// The texture unit (docs/units/tex.md).
pub struct Tex;

crate::unit_impl!(Tex {
    block: TexUnit,
    txn: TexTxn,
    res: TexResult,
    name: "tex",
    top: "texpix_tex",
    about: "texture unit: LOD, addressing, texel cache, formats, filtering, depth compare",
    test_vectors: 200,
    ports_doc: "rtl/src/tex/unit.rs",
    parameters: "one instruction at a time; texel cache 16 KiB, 64 sets x 4 ways, 64-byte lines".to_string(),
    golden_batch: super::golden_batch,
});
