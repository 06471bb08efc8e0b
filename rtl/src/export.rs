//! Verilog export of a unit under a chosen top-level module name.
//!
//! rust-hdl's `generate_verilog` names the top `top` and panics on errors; this checks the block first
//! (returning the error), names the top module as asked, and turns rust-hdl's hierarchical `$`
//! separators into `_` (`in_pos$3` → `in_pos_3`, `texpix_coverage$lane0` → `texpix_coverage_lane0`) so
//! that ports keep readable names in every tool. System tasks and functions (`$signed`) are kept.

use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

/// Verilog source of `uut` with top module `top`, preceded by `header` (each line gets a `// `).
pub fn verilog<B: Block>(uut: &mut B, top: &str, header: &str) -> Result<String, String> {
    uut.connect_all();
    check_all(uut).map_err(|e| format!("rust-hdl design check failed for {top}: {e:?}"))?;
    let mut defines = ModuleDefines::default();
    uut.accept(top, &mut defines);
    let mut out = String::new();
    for line in header.lines() {
        out.push_str("// ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&port_name(&defines.defines()));
    Ok(out)
}

/// Replaces every `$` that continues an identifier by `_`; a `$` starting a token (`$signed`) stays.
pub fn port_name(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut prev_ident = false;
    for c in text.chars() {
        if c == '$' && prev_ident {
            out.push('_');
        } else {
            out.push(c);
        }
        prev_ident = c.is_ascii_alphanumeric() || c == '_' || (c == '$' && prev_ident);
    }
    out
}
