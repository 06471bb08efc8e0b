//! Top-level ports of any rust-hdl block, by name, width and direction, and their current values.
//!
//! Names are the exported Verilog names (`in_pos$3` becomes `in_pos_3`, see
//! [`texpix_rtl::export::port_name`]), so a trace taken here lines up with the exported module.

use rust_hdl::prelude::*;
use texpix_rtl::export::port_name;

/// One top-level port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    /// Verilog name.
    pub name: String,
    /// Width in bits.
    pub bits: usize,
    /// Input (else output).
    pub input: bool,
}

impl Port {
    /// A port named `name`, `bits` wide, an input or an output.
    pub fn new(name: &str, bits: usize, input: bool) -> Self {
        Self {
            name: name.into(),
            bits,
            input,
        }
    }

    /// Hex digits of a value of this port.
    pub fn hex_digits(&self) -> usize {
        self.bits.div_ceil(4)
    }
}

#[derive(Default)]
struct PortLister {
    depth: usize,
    ports: Vec<Port>,
    values: Vec<String>,
}

impl Probe for PortLister {
    fn visit_start_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth += 1;
    }
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth -= 1;
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        if self.depth != 1 {
            return;
        }
        let input = match signal.kind() {
            AtomKind::InputParameter => true,
            AtomKind::OutputParameter => false,
            _ => return,
        };
        let port = Port {
            name: port_name(name),
            bits: signal.bits(),
            input,
        };
        // rust-hdl formats literals as `<bits>'h<hex>`.
        let lit = format!("{:x}", signal.verilog());
        let hex = lit.rsplit('h').next().unwrap_or("0");
        self.values
            .push(format!("{hex:0>width$}", width = port.hex_digits()));
        self.ports.push(port);
    }
}

/// The ports of `uut` (in declaration order) and their current values as zero-padded hex.
pub fn ports_and_values<B: Block>(uut: &B) -> (Vec<Port>, Vec<String>) {
    let mut p = PortLister::default();
    uut.accept("top", &mut p);
    (p.ports, p.values)
}
