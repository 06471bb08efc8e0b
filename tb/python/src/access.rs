//! Reading and writing any signal of a rust-hdl block by name.
//!
//! rust-hdl's `Probe` visitor hands out each signal as a `&dyn Atom` with its name, width, direction
//! and type descriptor, but only for reading. This module walks the block once and, for every signal
//! whose type it knows (`Bit`, `Clock`, `Bits<1..=128>`, `Signed<1..=128>`), records the signal's
//! address and a getter/setter monomorphised for its exact type `Signal<D, T>`. The identification is
//! checked: the typed view must report the same signal id and width as the visitor's `&dyn Atom`,
//! otherwise the signal is left to the slow path (a visitor pass that reads `Atom::vcd`).
//!
//! Soundness rests on two facts the caller guarantees: the block is boxed and never moved or
//! resized after [`table`] ran (signals in `Vec`s of sub-blocks stay put too), and only
//! top-level inputs are ever written, through `Signal::next`, exactly as a parent block would.

use rust_hdl::prelude::*;
use texpix_rtl::export::port_name;

/// What a signal is to the test bench.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Top-level input: writable.
    Input,
    /// Top-level output.
    Output,
    /// Anything inside the hierarchy (sub-block ports, locals, registers).
    Internal,
}

/// Typed access to one signal at a fixed address.
#[derive(Clone, Copy)]
pub struct Access {
    addr: usize,
    get: unsafe fn(usize) -> u128,
    set: Option<unsafe fn(usize, u128)>,
}

impl Access {
    /// The current (settled) value, as unsigned bits.
    pub fn get(&self) -> u128 {
        // SAFETY: `addr` and `get` were paired and checked in `table` (see the module docs).
        unsafe { (self.get)(self.addr) }
    }

    /// Drives `next` of a top-level input; `v` must fit the width (checked by the caller).
    pub fn set(&self, v: u128) -> bool {
        match self.set {
            // SAFETY: as for `get`; `set` exists only for `Signal<In, _>` at depth 1.
            Some(f) => {
                unsafe { f(self.addr, v) };
                true
            }
            None => false,
        }
    }
}

/// One signal: hierarchical name (`.`-separated, Verilog spelling), width, role, atom id, accessor.
#[derive(Clone)]
pub struct Sig {
    pub name: String,
    pub bits: usize,
    pub role: Role,
    pub id: usize,
    pub access: Option<Access>,
    /// A top-level input the test bench can drive.
    pub writable: bool,
    /// The type rust-hdl reports (`Bits::<8>`, `Bit`, `clock`, an enum name, ...).
    pub type_name: String,
}

unsafe fn get_bit<D: Direction>(a: usize) -> u128 {
    (*(a as *const Signal<D, Bit>)).next as u128
}
unsafe fn get_clock<D: Direction>(a: usize) -> u128 {
    (*(a as *const Signal<D, Clock>)).next.clk as u128
}
unsafe fn get_bits<D: Direction, const N: usize>(a: usize) -> u128 {
    (*(a as *const Signal<D, Bits<N>>)).next.to_u128()
}
unsafe fn get_signed<D: Direction, const N: usize>(a: usize) -> u128 {
    (*(a as *const Signal<D, Signed<N>>)).next.inner().to_u128()
}
unsafe fn set_bit(a: usize, v: u128) {
    (*(a as *mut Signal<In, Bit>)).next = v != 0;
}
unsafe fn set_clock(a: usize, v: u128) {
    (*(a as *mut Signal<In, Clock>)).next = Clock { clk: v != 0 };
}
unsafe fn set_bits<const N: usize>(a: usize, v: u128) {
    let b: Bits<N> = if N <= 64 {
        (v as u64).into()
    } else {
        v.to_bits::<N>()
    };
    (*(a as *mut Signal<In, Bits<N>>)).next = b;
}
unsafe fn id_of<D: Direction, T: Synth>(a: usize) -> (usize, usize) {
    let s = &*(a as *const Signal<D, T>);
    (Atom::id(s), Atom::bits(s))
}

type Getter = unsafe fn(usize) -> u128;
type Setter = unsafe fn(usize, u128);
type IdOf = unsafe fn(usize) -> (usize, usize);

/// The getter, the setter (inputs only) and an identity check for `Signal<D, T>` of the described type.
fn typed<D: Direction>(
    desc: &TypeDescriptor,
    input: bool,
) -> Option<(Getter, Option<Setter>, IdOf)> {
    macro_rules! widths {
        ($kind:ident, $n:expr, $($w:literal)*) => {
            match $n {
                $($w => widths!(@one $kind, $w),)*
                _ => None,
            }
        };
        (@one Bits, $w:literal) => {
            Some((
                get_bits::<D, $w> as Getter,
                if input { Some(set_bits::<$w> as Setter) } else { None },
                id_of::<D, Bits<$w>> as IdOf,
            ))
        };
        (@one Signed, $w:literal) => {
            Some((get_signed::<D, $w> as Getter, None, id_of::<D, Signed<$w>> as IdOf))
        };
    }
    match (&desc.kind, desc.name.as_str()) {
        (_, "Bit") => Some((
            get_bit::<D> as Getter,
            input.then_some(set_bit as Setter),
            id_of::<D, Bit> as IdOf,
        )),
        (_, "clock") => Some((
            get_clock::<D> as Getter,
            input.then_some(set_clock as Setter),
            id_of::<D, Clock> as IdOf,
        )),
        (TypeKind::Bits(n), _) if desc.name == format!("Bits::<{n}>") => widths!(Bits, *n,
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64
            65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96
            97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120
            121 122 123 124 125 126 127 128),
        (TypeKind::Signed(n), _) => widths!(Signed, *n,
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64
            65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96
            97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120
            121 122 123 124 125 126 127 128),
        _ => None,
    }
}

#[derive(Default)]
struct Lister {
    scopes: Vec<String>,
    sigs: Vec<Sig>,
}

impl Probe for Lister {
    fn visit_start_scope(&mut self, name: &str, _node: &dyn Block) {
        self.scopes.push(port_name(name));
    }
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.scopes.pop();
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        let depth = self.scopes.len();
        let kind = signal.kind();
        let role = match (depth, kind) {
            (1, AtomKind::InputParameter) => Role::Input,
            (1, AtomKind::OutputParameter) => Role::Output,
            _ => Role::Internal,
        };
        let mut path: Vec<&str> = self.scopes.iter().skip(1).map(|s| s.as_str()).collect();
        let leaf = port_name(name);
        path.push(&leaf);
        let full = path.join(".");
        let desc = signal.descriptor();
        let addr = signal as *const dyn Atom as *const u8 as usize;
        let input = role == Role::Input;
        let t = match kind {
            AtomKind::InputParameter => typed::<In>(&desc, input),
            AtomKind::OutputParameter => typed::<Out>(&desc, false),
            AtomKind::LocalSignal => typed::<Local>(&desc, false),
            AtomKind::InOutParameter => typed::<InOut>(&desc, false),
            _ => None,
        };
        let access = t.and_then(|(get, set, id_of)| {
            // SAFETY: `addr` is a live signal; the typed view is used only if it agrees with the
            // visitor's on identity and width.
            let (id, bits) = unsafe { id_of(addr) };
            (id == signal.id() && bits == signal.bits()).then_some(Access { addr, get, set })
        });
        self.sigs.push(Sig {
            name: full,
            bits: signal.bits(),
            role,
            id: signal.id(),
            access,
            writable: access.is_some_and(|a| a.set.is_some()),
            type_name: desc.name,
        });
    }
}

/// Every signal of `uut` in visiting order (top-level ports first as declared).
pub fn table<B: Block>(uut: &B) -> Vec<Sig> {
    let mut l = Lister::default();
    uut.accept("top", &mut l);
    l.sigs
}

/// The slow path: the value of the signal with atom id `id`, as unsigned bits (enums: their index
/// in the VCD string is not available, so their name is returned in `Err`).
pub fn read_by_id<B: Block>(uut: &B, id: usize) -> Result<u128, String> {
    struct Find {
        id: usize,
        out: Option<Result<u128, String>>,
    }
    impl Probe for Find {
        fn visit_atom(&mut self, _name: &str, signal: &dyn Atom) {
            if self.out.is_some() || signal.id() != self.id {
                return;
            }
            self.out = Some(match signal.vcd() {
                VCDValue::Single(v) => Ok((v == vcd::Value::V1) as u128),
                VCDValue::Vector(bits) if bits.len() <= 128 => {
                    // rust-hdl lists the most significant bit first.
                    Ok(bits
                        .iter()
                        .fold(0u128, |acc, b| (acc << 1) | (*b == vcd::Value::V1) as u128))
                }
                VCDValue::String(s) => Err(s),
                _ => Err("(value wider than 128 bits or composite)".into()),
            });
        }
    }
    let mut f = Find { id, out: None };
    uut.accept("top", &mut f);
    f.out
        .unwrap_or_else(|| Err(format!("no signal with id {id}")))
}
