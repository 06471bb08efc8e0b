//! The unit registry: the one list of units that the `texpix` program, the Python package, the
//! Verilog and netlist test loops, the demo and the synthesis scripts (`texpix list --names`) read.
//!
//! Adding a unit: its folders `rtl/src/<unit>/` and `tb/src/<unit>/` (see [`crate::unit`]) and one
//! line in [`for_each_unit!`](crate::for_each_unit).

use crate::unit::Unit;

/// Calls macro `$m` with every registered unit as `ident => Type`, in registry order. The ident
/// names the unit in Rust (test modules); the type implements [`Unit`].
#[macro_export]
macro_rules! for_each_unit {
    ($m:ident) => {
        $m! {
            coverage => $crate::coverage::Coverage,
            coverage_serial => $crate::coverage::SerialCoverage,
            lod => $crate::lod::Lod,
            texaddr => $crate::texaddr::TexAddr,
            bvh => $crate::bvh::Bvh,
            tex => $crate::tex::Tex,
        }
    };
}

/// A registered unit's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitInfo {
    /// Name on the command line and in Python.
    pub name: &'static str,
    /// Exported Verilog top module.
    pub top: &'static str,
    /// One line: what it is.
    pub about: &'static str,
    /// The RTL block's struct and the file that documents its ports.
    pub block: &'static str,
    pub ports_doc: &'static str,
}

/// Something to do with a unit type chosen by name at run time (see [`with_unit`]).
pub trait UnitFn {
    type Out;
    fn call<U: Unit>(self) -> Self::Out;
}

macro_rules! registry_items {
    ($($id:ident => $u:ty),* $(,)?) => {
        /// Every registered unit, in registry order.
        pub const UNITS: &[UnitInfo] = &[$(UnitInfo {
            name: <$u as Unit>::NAME,
            top: <$u as Unit>::TOP,
            about: <$u as Unit>::ABOUT,
            block: <$u as Unit>::BLOCK,
            ports_doc: <$u as Unit>::PORTS_DOC,
        }),*];

        /// Calls `f` with the unit named `name` (its name or its Verilog top module).
        pub fn with_unit<F: UnitFn>(name: &str, f: F) -> Result<F::Out, String> {
            $(
                if name == <$u as Unit>::NAME || name == <$u as Unit>::TOP {
                    return Ok(f.call::<$u>());
                }
            )*
            Err(format!("unknown unit `{name}` (known: {})", names().join(", ")))
        }
    };
}

for_each_unit!(registry_items);

/// The registered units' names.
pub fn names() -> Vec<&'static str> {
    UNITS.iter().map(|u| u.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_tops_are_unique_and_resolve() {
        struct Name;
        impl UnitFn for Name {
            type Out = &'static str;
            fn call<U: Unit>(self) -> &'static str {
                U::NAME
            }
        }
        for (k, u) in UNITS.iter().enumerate() {
            assert!(UNITS[..k]
                .iter()
                .all(|v| v.name != u.name && v.top != u.top));
            assert_eq!(with_unit(u.name, Name), Ok(u.name));
            assert_eq!(with_unit(u.top, Name), Ok(u.name));
        }
        assert!(with_unit("nosuch", Name)
            .unwrap_err()
            .contains("known: coverage"));
    }
}
