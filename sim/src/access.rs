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
//! resized after [`table`] ran (signals in `Vec`s of sub-blocks stay put too), and only top-level
//! ports are ever written: inputs through `Signal::next`, exactly as a parent block would, and —
//! by an engine that computes the block's outputs itself ([`crate::Sim::on_netlist`]) — top-level
//! ports through [`Access::force`].

use rust_hdl::prelude::*;

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
    force: Option<unsafe fn(usize, u128)>,
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

    /// Sets both the current value and `next` of a top-level port (the engine computed it); `v`
    /// must fit the width.
    pub fn force(&self, v: u128) -> bool {
        match self.force {
            // SAFETY: as for `get`; `force` exists only for top-level ports (depth 1).
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
fn bits_of<const N: usize>(v: u128) -> Bits<N> {
    if N <= 64 {
        (v as u64).into()
    } else {
        v.to_bits::<N>()
    }
}
unsafe fn set_bit(a: usize, v: u128) {
    (*(a as *mut Signal<In, Bit>)).next = v != 0;
}
unsafe fn set_clock(a: usize, v: u128) {
    (*(a as *mut Signal<In, Clock>)).next = Clock { clk: v != 0 };
}
unsafe fn set_bits<const N: usize>(a: usize, v: u128) {
    (*(a as *mut Signal<In, Bits<N>>)).next = bits_of::<N>(v);
}
unsafe fn force_typed<D: Direction, T: Synth>(a: usize, v: T) {
    let s = &mut *(a as *mut Signal<D, T>);
    s.next = v;
    // A signal's own commit (`val` = `next`), as its block's `update_all` would do.
    Block::update_all(s);
}
unsafe fn force_bit<D: Direction>(a: usize, v: u128) {
    force_typed::<D, Bit>(a, v != 0)
}
unsafe fn force_clock<D: Direction>(a: usize, v: u128) {
    force_typed::<D, Clock>(a, Clock { clk: v != 0 })
}
unsafe fn force_bits<D: Direction, const N: usize>(a: usize, v: u128) {
    force_typed::<D, Bits<N>>(a, bits_of::<N>(v))
}
unsafe fn force_signed<D: Direction, const N: usize>(a: usize, v: u128) {
    force_typed::<D, Signed<N>>(a, signed_cast(bits_of::<N>(v)))
}
unsafe fn id_of<D: Direction, T: Synth>(a: usize) -> (usize, usize) {
    let s = &*(a as *const Signal<D, T>);
    (Atom::id(s), Atom::bits(s))
}

type Getter = unsafe fn(usize) -> u128;
type Setter = unsafe fn(usize, u128);
type IdOf = unsafe fn(usize) -> (usize, usize);

/// Monomorphised accessors of one `Signal<D, T>`.
struct Typed {
    get: Getter,
    set: Option<Setter>,
    force: Option<Setter>,
    id_of: IdOf,
}

/// The accessors for `Signal<D, T>` of the described type: a setter for top-level inputs
/// (`input`), a forcing setter for top-level ports (`port`).
fn typed<D: Direction>(desc: &TypeDescriptor, input: bool, port: bool) -> Option<Typed> {
    macro_rules! widths {
        ($kind:ident, $n:expr, $($w:literal)*) => {
            match $n {
                $($w => widths!(@one $kind, $w),)*
                _ => None,
            }
        };
        (@one Bits, $w:literal) => {
            Some(Typed {
                get: get_bits::<D, $w>,
                set: if input { Some(set_bits::<$w> as Setter) } else { None },
                force: port.then_some(force_bits::<D, $w> as Setter),
                id_of: id_of::<D, Bits<$w>>,
            })
        };
        (@one Signed, $w:literal) => {
            Some(Typed {
                get: get_signed::<D, $w>,
                set: None,
                force: port.then_some(force_signed::<D, $w> as Setter),
                id_of: id_of::<D, Signed<$w>>,
            })
        };
    }
    match (&desc.kind, desc.name.as_str()) {
        (_, "Bit") => Some(Typed {
            get: get_bit::<D>,
            set: input.then_some(set_bit as Setter),
            force: port.then_some(force_bit::<D> as Setter),
            id_of: id_of::<D, Bit>,
        }),
        (_, "clock") => Some(Typed {
            get: get_clock::<D>,
            set: input.then_some(set_clock as Setter),
            force: port.then_some(force_clock::<D> as Setter),
            id_of: id_of::<D, Clock>,
        }),
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

struct Lister {
    rename: fn(&str) -> String,
    scopes: Vec<String>,
    sigs: Vec<Sig>,
}

impl Probe for Lister {
    fn visit_start_scope(&mut self, name: &str, _node: &dyn Block) {
        self.scopes.push((self.rename)(name));
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
        let leaf = (self.rename)(name);
        path.push(&leaf);
        let full = path.join(".");
        let desc = signal.descriptor();
        let addr = signal as *const dyn Atom as *const u8 as usize;
        let input = role == Role::Input;
        let port = role != Role::Internal;
        let t = match kind {
            AtomKind::InputParameter => typed::<In>(&desc, input, port),
            AtomKind::OutputParameter => typed::<Out>(&desc, false, port),
            AtomKind::LocalSignal => typed::<Local>(&desc, false, false),
            AtomKind::InOutParameter => typed::<InOut>(&desc, false, false),
            _ => None,
        };
        let access = t.and_then(|t| {
            // SAFETY: `addr` is a live signal; the typed view is used only if it agrees with the
            // visitor's on identity and width.
            let (id, bits) = unsafe { (t.id_of)(addr) };
            (id == signal.id() && bits == signal.bits()).then_some(Access {
                addr,
                get: t.get,
                set: t.set,
                force: t.force,
            })
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

/// Every signal of `uut` in visiting order (top-level ports first as declared); `rename` turns each
/// rust-hdl name into the one shown (e.g. the exported Verilog spelling).
pub fn table<B: Block>(uut: &B, rename: fn(&str) -> String) -> Vec<Sig> {
    let mut l = Lister {
        rename,
        scopes: Vec::new(),
        sigs: Vec::new(),
    };
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
                VCDValue::Single(v) => Ok(is_one(v) as u128),
                VCDValue::Vector(bits) if bits.len() <= 128 => {
                    // rust-hdl lists the most significant bit first.
                    Ok(bits
                        .iter()
                        .fold(0u128, |acc, b| (acc << 1) | is_one(b) as u128))
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

/// A VCD bit of rust-hdl's `vcd` version (which differs from this crate's), read through its text.
fn is_one(v: impl std::fmt::Display) -> bool {
    v.to_string() == "1"
}
