//! Verilog export of a unit under a chosen top-level module name.
//!
//! rust-hdl's `generate_verilog` names the top `top` and panics on errors; this checks the block first
//! (returning the error) and names the top module as asked.

use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

/// Verilog source of `uut` with top module `top`. Errors name the check that failed.
pub fn verilog<B: Block>(uut: &mut B, top: &str) -> Result<String, String> {
    uut.connect_all();
    check_all(uut).map_err(|e| format!("rust-hdl design check failed for {top}: {e:?}"))?;
    let mut defines = ModuleDefines::default();
    uut.accept(top, &mut defines);
    Ok(defines.defines())
}
