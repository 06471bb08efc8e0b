//! The AMD RDNA MIMG instruction forms as standalone blocks: the f32 → f16 converter
//! (`texpix_rtl::common::fp::F32ToF16`), the address unpacker (`texpix_rtl::tex::MimgUnpack`) and
//! the result packer (`texpix_rtl::tex::MimgPack`), each evaluated through rust-hdl directly
//! (connect once; set inputs; `update_all` until nothing changes) against its golden model
//! (`texpix_tb::fpmodel::f32_to_f16`, `texpix_tb::tex::mimg`), and each golden model against an
//! independent formulation: nearest-f16 by a sweep over the sorted f16 values in f64, an address
//! encoder (unpack ∘ pack = identity), a straightforward result packer. The Verilog of the two
//! MIMG blocks exports and passes Yosys' checks, and the exported Verilog of all three blocks
//! matches the golden models in Icarus Verilog (needs iverilog and yosys: scripts/setup.sh).
//! Run with `cargo test --release -p texpix-tb --test tex_mimg`.

use rust_hdl::prelude::*;
use texpix_rtl::common::fp::F32ToF16;
use texpix_sim::{settle_block, SplitMix64};
use texpix_tb::fpmodel::{f16_to_f32, f32_to_f16};

fn connected<B: Block>(mut u: B) -> B {
    u.connect_all();
    u
}

// ---------------------------------------------------------------------------------------------
// F32ToF16
// ---------------------------------------------------------------------------------------------

/// The value of the non-negative f16 pattern `k` (0…0x7C00) in f64; 0x7C00 (Inf) counts as
/// 2^16, the next value of an unbounded exponent range, which is how IEEE rounds overflow.
fn f16_value(k: u32) -> f64 {
    if k == 0x7C00 {
        65536.0
    } else {
        f64::from(f32::from_bits(f16_to_f32(k as u16)))
    }
}

/// The rounding boundaries: `mids[k]` = the midpoint of f16 magnitudes k and k + 1 (exact in f64).
fn f16_midpoints() -> Vec<f64> {
    (0..0x7C00)
        .map(|k| (f16_value(k) + f16_value(k + 1)) / 2.0)
        .collect()
}

/// Walks the f32 magnitudes in increasing order (any increasing subsequence of 0…0x7F80_0000)
/// alongside the f16 magnitudes, moving to the next f16 value while the input lies past the
/// midpoint (at the midpoint only if the next one is even), and checks the golden model on both
/// signs. Returns the number of inputs checked.
fn sweep(mags: impl Iterator<Item = u32>) -> u64 {
    let mids = f16_midpoints();
    let mut cur = 0u32;
    let mut n = 0u64;
    let mut last = None;
    for u in mags {
        assert!(last.is_none_or(|l| l < u) && u <= 0x7F80_0000);
        last = Some(u);
        let v = f64::from(f32::from_bits(u));
        while cur < 0x7C00 {
            let m = mids[cur as usize];
            if v > m || (v == m && (cur + 1).is_multiple_of(2)) {
                cur += 1;
            } else {
                break;
            }
        }
        let want = cur as u16;
        assert_eq!(f32_to_f16(u), want, "{u:08x}");
        assert_eq!(f32_to_f16(u | 0x8000_0000), want | 0x8000, "-{u:08x}");
        n += 2;
    }
    n
}

/// Every NaN pattern (both signs): quiet, sign kept, payload the top ten fraction bits.
fn nan_sweep() -> u64 {
    let mut n = 0;
    for u in 0x7F80_0001u32..=0x7FFF_FFFF {
        for s in [0, 0x8000_0000u32] {
            let h = f32_to_f16(u | s);
            assert_eq!(h, ((s >> 16) | 0x7E00 | ((u >> 13) & 0x3FF)) as u16);
            assert!(f32::from_bits(f16_to_f32(h)).is_nan());
            n += 1;
        }
    }
    n
}

/// The golden `f32_to_f16` equals the nearest-f16 sweep on all 2^32 inputs (about 10 s).
#[test]
fn f32_to_f16_golden_matches_nearest_all_inputs() {
    let t = std::time::Instant::now();
    let n = sweep(0..=0x7F80_0000u32);
    let nans = nan_sweep();
    println!(
        "{n} finite/Inf inputs and {nans} NaNs in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    assert_eq!(n + nans, 1u64 << 32);
}

/// f32 patterns for the RTL: each f16 value and each midpoint between neighbours, ±2 f32 ulps,
/// both signs, the f32 denormal and NaN/Inf edges.
fn f32_to_f16_edges() -> Vec<u32> {
    let mut v = Vec::new();
    for k in 0..0x7C00u32 {
        let val = f16_to_f32(k as u16);
        let mid = (((f16_value(k) + f16_value(k + 1)) / 2.0) as f32).to_bits();
        for c in [val, mid] {
            for d in 0..5u32 {
                v.push((c + d).saturating_sub(2));
            }
        }
    }
    v.extend([
        0x0000_0001,
        0x007F_FFFF,
        0x0080_0000,
        0x3300_0000,
        0x3300_0001,
        0x32FF_FFFF,
        0x337F_FFFF,
        0x3380_0000,
        0x477F_EFFF,
        0x477F_F000,
        0x477F_F001,
        0x7F7F_FFFF,
        0x7F80_0000,
        0x7F80_0001,
        0x7FBF_FFFF,
        0x7FC0_0000,
        0x7FFF_FFFF,
        0x7F80_2000,
    ]);
    let neg: Vec<u32> = v.iter().map(|x| x | 0x8000_0000).collect();
    v.extend(neg);
    v
}

/// `F32ToF16`: the RTL equals the golden model on every f16 value and rounding boundary (±2
/// ulps, both signs) and on 250 000 random patterns (a third of them in the f16 range).
#[test]
fn f32_to_f16_rtl_matches_golden() {
    let t = std::time::Instant::now();
    let mut u = connected(F32ToF16::default());
    let mut all = f32_to_f16_edges();
    let edges = all.len();
    let mut r = SplitMix64::new(0x3216);
    for i in 0..250_000 {
        let x = r.next_u64() as u32;
        all.push(if i % 3 == 0 {
            // exponents 100…145: denormal, normal and overflow f16 results
            (x & 0x807F_FFFF) | ((100 + (x >> 8) % 46) << 23)
        } else {
            x
        });
    }
    for &a in &all {
        u.a.next = u64::from(a).into();
        settle_block(&mut u);
        assert_eq!(u.y.val().to_u32() as u16, f32_to_f16(a), "{a:08x}");
    }
    println!(
        "{} inputs ({edges} boundary cases) in {:.1} s",
        all.len(),
        t.elapsed().as_secs_f64()
    );
}

// ---------------------------------------------------------------------------------------------
// MimgUnpack
// ---------------------------------------------------------------------------------------------

/// TexOp codes with a MIMG form, plus codes without one (decoded as tex).
const OPS: [u32; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 9, 11, 12, 13, 14, 15];
const TXL: u32 = 2;
const TXB: u32 = 1;
const TXD: u32 = 3;
const TXF: u32 = 4;
const TXQ: u32 = 5;

/// A random f16 value widened to f32 (signalling NaNs made quiet: they do not survive a
/// round trip through 16 bits by design).
fn f16_value_bits(r: &mut SplitMix64) -> u32 {
    let mut h = r.next_u64() as u16;
    if h & 0x7C00 == 0x7C00 && h & 0x3FF != 0 {
        h |= 0x200;
    }
    f16_to_f32(h)
}

/// Random operands for the form (op, dim, flags), stated from the layout table independently of
/// the golden model: every field the form carries gets a random value it can carry (f16 values
/// under a16/g16, 16-bit integers for txf/txq under a16), every other field is 0.
fn random_operands(
    r: &mut SplitMix64,
    op: u32,
    dim: u32,
    has_off: bool,
    a16: bool,
    g16: bool,
) -> texpix_tb::tex::mimg::Unpacked {
    let op = if matches!(op, 9 | 11..=15) { 0 } else { op };
    let dim = if dim == 6 { 5 } else { dim };
    let mut u = texpix_tb::tex::mimg::Unpacked::default();
    let f32_or_f16 = |r: &mut SplitMix64, half: bool| {
        if half {
            f16_value_bits(r)
        } else {
            r.next_u64() as u32
        }
    };
    if has_off {
        u.off = r.next_u64() as u16 & 0xFFF;
    }
    if op == TXB {
        u.bias = f32_or_f16(r, a16);
    }
    if op == 7 || op == 8 {
        u.zref = r.next_u64() as u32;
    }
    let one_d = dim == 0 || dim == 4;
    if op == TXD {
        u.grad[0] = f32_or_f16(r, g16);
        u.grad[1] = f32_or_f16(r, g16);
        if !one_d {
            u.grad[2] = f32_or_f16(r, g16);
            u.grad[3] = f32_or_f16(r, g16);
        }
    }
    match op {
        TXQ => {
            u.lod = (r.next_u64() as u32) >> if a16 { 16 } else { 0 };
        }
        TXF => {
            // (i, j, k/slice, level) as the unit's txf reads them: the 1d_array slice in coord 2.
            let used: &[usize] = match dim {
                0 => &[0, 3],
                1 => &[0, 1, 3],
                4 => &[0, 2, 3],
                _ => &[0, 1, 2, 3],
            };
            for &i in used {
                u.coord[i] = (r.next_u64() as u32) >> if a16 { 16 } else { 0 };
            }
        }
        _ => {
            // s; 2d t; 1d_array slice → t; 2d_array slice → r; 3d/cube r; cube_array index → q.
            let n = [1, 2, 3, 3, 2, 3, 3, 4][dim as usize];
            for i in 0..n {
                u.coord[i] = f32_or_f16(r, a16);
            }
            if op == TXL {
                u.lod = f32_or_f16(r, a16);
            }
        }
    }
    u
}

/// The golden model inverts the encoder on every (op, dim, has_off, a16, g16) with 40 random
/// operand sets each (junk in every unused bit and in the dwords past the form), and the form's
/// length agrees with `address_dwords`.
#[test]
fn unpack_inverts_pack_on_every_form() {
    use texpix_tb::tex::mimg::{address_dwords, pack_address, unpack};
    let mut r = SplitMix64::new(0x3116);
    let mut n = 0u32;
    let mut lens = [0u32; 13];
    for op in OPS {
        for dim in 0..8 {
            for flags in 0..8u32 {
                let (has_off, a16, g16) = (flags & 1 != 0, flags & 2 != 0, flags & 4 != 0);
                for _ in 0..40 {
                    let mut u = random_operands(&mut r, op, dim, has_off, a16, g16);
                    let mut junk = SplitMix64::new(r.next_u64());
                    let mut v = pack_address(op, dim, has_off, a16, g16, &u, &mut || {
                        junk.next_u64() as u32
                    });
                    u.count = v.len() as u32;
                    assert_eq!(v.len(), address_dwords(op, dim, has_off, a16, g16));
                    lens[v.len()] += 1;
                    while v.len() < 12 {
                        v.push(r.next_u64() as u32);
                    }
                    let got = unpack(op, dim, has_off, a16, g16, &v);
                    assert_eq!(
                        got, u,
                        "op {op} dim {dim} off {has_off} a16 {a16} g16 {g16} {v:08x?}"
                    );
                    n += 1;
                }
            }
        }
    }
    println!("{n} round trips, address lengths 0…12: {lens:?}");
    assert_eq!(lens[0], 0);
}

/// Hand-written forms, dword by dword, from the layout table.
#[test]
fn unpack_examples() {
    use texpix_tb::tex::mimg::unpack;
    let h = |x: f32| u32::from(texpix_tb::fpmodel::f32_to_f16(x.to_bits()));
    let f = |x: f32| x.to_bits();
    // txd _O, 3d, g16: {off}{dsdx,dtdx}{drdx,–}{dsdy,dtdy}{drdy,–} s t r.
    let off = 0x3F | (0x07 << 8) | (0x15 << 16); // x = −1, y = 7, z = 21 wraps to 5
    let v = [
        0xAB00_0000 | off,
        h(1.0) | h(2.0) << 16,
        h(3.0) | 0xDEAD_0000,
        h(4.0) | h(5.0) << 16,
        h(6.0) | 0xBEEF_0000,
        f(0.25),
        f(0.5),
        f(0.75),
    ];
    let u = unpack(3, 2, true, false, true, &v);
    assert_eq!(u.off, 0x57F);
    assert_eq!(u.grad, [f(1.0), f(4.0), f(2.0), f(5.0)]);
    assert_eq!(u.coord, [f(0.25), f(0.5), f(0.75), 0]);
    assert_eq!(u.count, 8);
    // txd 3d, 32-bit: dsdx dtdx drdx dsdy dtdy drdy s t r.
    let v: Vec<u32> = (1..=9).map(|k| f(k as f32)).collect();
    let u = unpack(3, 2, false, false, false, &v);
    assert_eq!(u.grad, [f(1.0), f(4.0), f(2.0), f(5.0)]);
    assert_eq!((u.coord, u.count), ([f(7.0), f(8.0), f(9.0), 0], 9));
    // txd 1d_array, g16: {dsdx,–}{dsdy,–}{s}{slice}.
    let v = [h(1.5) | 0xFFFF_0000, h(-2.0) | 0x1234_0000, f(0.5), f(3.0)];
    let u = unpack(3, 4, false, false, true, &v);
    assert_eq!(u.grad, [f(1.5), f(-2.0), 0, 0]);
    assert_eq!((u.coord, u.count), ([f(0.5), f(3.0), 0, 0], 4));
    // txl cube_array, a16: {s,t}{r,index}{lod,–}.
    let v = [
        h(0.5) | h(-1.0) << 16,
        h(0.25) | h(2.0) << 16,
        h(1.5) | 0x7777_0000,
    ];
    let u = unpack(2, 7, false, true, false, &v);
    assert_eq!(u.coord, [f(0.5), f(-1.0), f(0.25), f(2.0)]);
    assert_eq!((u.lod, u.count), (f(1.5), 3));
    // txb 2d, a16: {bias,–}{s,t}.
    let v = [h(-0.5) | 0xFFFF_0000, h(0.125) | h(0.875) << 16];
    let u = unpack(1, 1, false, true, false, &v);
    assert_eq!(
        (u.bias, u.coord, u.count),
        (f(-0.5), [f(0.125), f(0.875), 0, 0], 2)
    );
    // sample_c 2d_array _O: {off}{zref}{s}{t}{slice}; the z-compare stays f32 under a16.
    let v = [
        0x0000_0802,
        f(0.3),
        h(0.5) | h(0.25) << 16,
        h(4.0) | 0xAAAA_0000,
    ];
    let u = unpack(7, 5, true, true, false, &v);
    assert_eq!((u.off, u.zref), (0x82, f(0.3)));
    assert_eq!((u.coord, u.count), ([f(0.5), f(0.25), f(4.0), 0], 4));
    // txf 1d_array, a16: {i,slice}{mip,–} → i, 0, slice, mip (the unit's txf layout).
    let v = [17 | 3 << 16, 2 | 0x5555_0000];
    let u = unpack(4, 4, false, true, false, &v);
    assert_eq!((u.coord, u.lod, u.count), ([17, 0, 3, 2], 0, 2));
    // txf 2d: i j mip → i, j, 0, mip.
    let u = unpack(4, 1, false, false, false, &[5, 6, 7]);
    assert_eq!((u.coord, u.count), ([5, 6, 0, 7], 3));
    // txq: the mip level; a16 zero-extends the low half.
    let u = unpack(5, 1, false, true, false, &[0xFFFF_0009]);
    assert_eq!((u.lod, u.coord, u.count), (9, [0; 4], 1));
    // txp (9) has no MIMG form: decoded as tex. dim 6 as 2d_array.
    let u = unpack(9, 6, false, false, false, &[1, 2, 3, 4]);
    assert_eq!((u.coord, u.count), ([1, 2, 3, 0], 3));
}

/// Offsets: x, y and z are 6-bit two's complement; the unit keeps their low four bits, so each
/// 4-bit field read as two's complement is the offset wrapped to −8…7 (modulo 16).
#[test]
fn offsets_wrap_modulo_16() {
    use texpix_tb::tex::mimg::unpack;
    for x in 0..64u32 {
        for y in 0..64u32 {
            for z in 0..64u32 {
                let o = x | y << 8 | z << 16 | 0xFFC0_C0C0;
                let u = unpack(0, 2, true, false, false, &[o, 0, 0, 0]);
                let s6 = |v: u32| ((v << 26) as i32) >> 26;
                let s4 = |v: u16| ((((v & 0xF) as u8) << 4) as i8) >> 4;
                let wrap = |v: i32| (v + 8).rem_euclid(16) - 8;
                assert_eq!(i32::from(s4(u.off)), wrap(s6(x)));
                assert_eq!(i32::from(s4(u.off >> 4)), wrap(s6(y)));
                assert_eq!(i32::from(s4(u.off >> 8)), wrap(s6(z)));
            }
        }
    }
}

/// An address dword: random bits, or two f16 specials (±0, ±Inf, NaNs, denormals, 1.0).
fn address_dword(r: &mut SplitMix64) -> u32 {
    const H: [u16; 10] = [
        0, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7D01, 0x0001, 0x83FF, 0x3C00, 0x7BFF,
    ];
    if r.next_u64().is_multiple_of(3) {
        let a = H[(r.next_u64() % 10) as usize];
        let b = H[(r.next_u64() % 10) as usize];
        u32::from(a) | u32::from(b) << 16
    } else {
        r.next_u64() as u32
    }
}

/// `MimgUnpack`: the RTL equals the golden model on every (op code 0…15, dim 0…7, has_off, a16,
/// g16) with 100 random address lists each (12 dwords of random bits and f16 specials, so
/// unused halves and trailing dwords hold garbage): 102 400 cases; the Verilog exports and
/// passes Yosys' checks.
#[test]
fn mimg_unpack_rtl_matches_golden() {
    use texpix_rtl::tex::MimgUnpack;
    use texpix_tb::tex::mimg::unpack;
    let t = std::time::Instant::now();
    let mut u = connected(MimgUnpack::default());
    let mut r = SplitMix64::new(0xAD_D8);
    let mut n = 0u32;
    for op in 0..16u32 {
        for dim in 0..8u32 {
            for flags in 0..8u32 {
                let (has_off, a16, g16) = (flags & 1 != 0, flags & 2 != 0, flags & 4 != 0);
                for _ in 0..100 {
                    let v: Vec<u32> = (0..12).map(|_| address_dword(&mut r)).collect();
                    u.op.next = u64::from(op).into();
                    u.dim.next = u64::from(dim).into();
                    u.has_off.next = has_off;
                    u.a16.next = a16;
                    u.g16.next = g16;
                    for (p, &x) in u.vaddr.iter_mut().zip(&v) {
                        p.next = u64::from(x).into();
                    }
                    settle_block(&mut u);
                    let got = texpix_tb::tex::mimg::Unpacked {
                        coord: std::array::from_fn(|i| u.coord[i].val().to_u32()),
                        lod: u.lod.val().to_u32(),
                        bias: u.bias.val().to_u32(),
                        zref: u.zref.val().to_u32(),
                        grad: std::array::from_fn(|i| u.grad[i].val().to_u32()),
                        off: u.off.val().to_u32() as u16,
                        count: u.count.val().to_u32(),
                    };
                    let want = unpack(op, dim, has_off, a16, g16, &v);
                    assert_eq!(
                        got, want,
                        "op {op} dim {dim} off {has_off} a16 {a16} g16 {g16} {v:08x?}"
                    );
                    n += 1;
                }
            }
        }
    }
    println!("{n} cases in {:.1} s", t.elapsed().as_secs_f64());
    yosys(&mut MimgUnpack::default(), "mimg_unpack");
}

/// Exports `uut` as Verilog with top `top` and runs Yosys' structural checks on it.
fn yosys<B: Block>(uut: &mut B, top: &str) {
    let v = texpix_rtl::export::verilog(uut, top, &format!("{top} test")).expect("export");
    let dir = std::env::temp_dir().join(format!("texpix_{top}"));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join(format!("{top}.v"));
    std::fs::write(&path, v).expect("write");
    texpix_tb::tools::yosys_check(&path, top).expect("yosys");
}

// ---------------------------------------------------------------------------------------------
// MimgPack
// ---------------------------------------------------------------------------------------------

/// The nearest f16 by a binary search over the midpoints (ties to the even neighbour; NaN: quiet,
/// sign and top payload bits kept): independent of `f32_to_f16`'s bit manipulation.
fn nearest_f16(x: u32) -> u16 {
    static MIDS: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    let mids = MIDS.get_or_init(f16_midpoints);
    let sign = ((x >> 16) & 0x8000) as u16;
    let m = x & 0x7FFF_FFFF;
    if m > 0x7F80_0000 {
        return sign | 0x7E00 | ((m >> 13) & 0x3FF) as u16;
    }
    let v = f64::from(f32::from_bits(m));
    // The first k whose upper midpoint is not below v (all k < that have mids[k] < v).
    let k = mids.partition_point(|&mid| mid < v) as u32;
    // v ≤ mids[k]; at equality the tie goes to the even one of k and k + 1.
    let k = if k < 0x7C00 && v == mids[k as usize] && k % 2 == 1 {
        k + 1
    } else {
        k
    };
    sign | k as u16
}

/// The result packing stated the straightforward way: a stream of 16-bit halves (each selected
/// component as two halves, or as one under d16), grouped in pairs with a zero pad.
fn pack_reference(
    rgba: [u32; 4],
    int_result: bool,
    dmask: u32,
    d16: bool,
    tfe: bool,
    lwe: bool,
    status: u32,
) -> Vec<u32> {
    let fail = lwe && status & 1 == 1;
    let mut halves: Vec<u16> = Vec::new();
    for (k, &c) in rgba.iter().enumerate() {
        if dmask & (1 << k) == 0 {
            continue;
        }
        let c = if fail { 0 } else { c };
        if !d16 {
            halves.extend([c as u16, (c >> 16) as u16]);
        } else if int_result {
            halves.push(if c > 0xFFFF { 0xFFFF } else { c as u16 });
        } else {
            halves.push(nearest_f16(c));
        }
    }
    if halves.len() % 2 == 1 {
        halves.push(0);
    }
    let mut out: Vec<u32> = halves
        .chunks(2)
        .map(|p| u32::from(p[0]) | u32::from(p[1]) << 16)
        .collect();
    if tfe || lwe {
        out.push(status);
    }
    out
}

/// Result components: random bits, small integers, and f32 values at the f16 edges (NaNs,
/// ±Inf, f16 overflow 65520 and just below, the f16 denormal range, f32 denormals, ±0).
fn result_component(r: &mut SplitMix64) -> u32 {
    const E: [u32; 16] = [
        0,
        0x8000_0000,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFF80_0001,
        0x477F_F000, // 65520: Inf
        0x477F_EFFF, // just below: 65504
        0x47C3_5000, // 1e5
        0x3380_0000, // 2^-24, the smallest f16 denormal
        0x3300_0000, // 2^-25: ties to 0
        0x3300_0001,
        0x0000_0001,
        0x3F80_0000,
        0x0001_0000, // integer 65536: saturates
        0x0000_FFFF,
    ];
    match r.next_u64() % 4 {
        0 => E[(r.next_u64() % 16) as usize],
        1 => (r.next_u64() as u32) >> (r.next_u64() % 32),
        _ => r.next_u64() as u32,
    }
}

/// A status word: random ⌊λ⌋ and bits, TEXEL_FAIL half the time.
fn status_word(r: &mut SplitMix64) -> u32 {
    (r.next_u64() as u32) & 0xFFFF_0003
}

/// One of the 256 packing configurations: (dmask, d16, tfe, lwe, int_result).
fn pack_flags(combo: u32) -> (u32, bool, bool, bool, bool) {
    (
        combo & 15,
        combo & 16 != 0,
        combo & 32 != 0,
        combo & 64 != 0,
        combo & 128 != 0,
    )
}

/// The golden `pack_result` equals the straightforward formulation on every (dmask, d16, tfe,
/// lwe, int_result) with 400 random results each, and on hand-written cases.
#[test]
fn pack_result_golden_matches_reference() {
    use texpix_tb::tex::mimg::pack_result;
    let mut r = SplitMix64::new(0x9AC);
    let mut n = 0u32;
    for combo in 0..256u32 {
        let (dmask, d16, tfe, lwe, int) = pack_flags(combo);
        for _ in 0..400 {
            let rgba: [u32; 4] = std::array::from_fn(|_| result_component(&mut r));
            let st = status_word(&mut r);
            assert_eq!(
                pack_result(rgba, int, dmask, d16, tfe, lwe, st),
                pack_reference(rgba, int, dmask, d16, tfe, lwe, st),
                "{rgba:08x?} int {int} dmask {dmask} d16 {d16} tfe {tfe} lwe {lwe} {st:08x}"
            );
            n += 1;
        }
    }
    println!("{n} cases");
    let one = 0x3F80_0000;
    let rgba = [one, 0x4000_0000, 0x477F_F000, 0xC080_0000];
    // dmask 0: no data; tfe alone: the status dword only.
    assert_eq!(
        pack_result(rgba, false, 0, false, false, false, 5),
        Vec::<u32>::new()
    );
    assert_eq!(pack_result(rgba, false, 0, false, true, false, 5), vec![5]);
    // dmask 0b1011, 32-bit: x y w.
    assert_eq!(
        pack_result(rgba, false, 0b1011, false, false, false, 0),
        vec![one, 0x4000_0000, 0xC080_0000]
    );
    // d16, dmask 0b0111: {x, y} {z = 65520 → Inf, 0}; tfe adds the status.
    assert_eq!(
        pack_result(rgba, false, 0b0111, true, true, false, 0x0003_0002),
        vec![0x4000_3C00, 0x0000_7C00, 0x0003_0002]
    );
    // d16 integers saturate.
    assert_eq!(
        pack_result(
            [7, 0x1_0000, 0xFFFF, 0],
            true,
            0b0111,
            true,
            false,
            false,
            0
        ),
        vec![0xFFFF_0007, 0x0000_FFFF]
    );
    // lwe + TEXEL_FAIL: data zero, status kept.
    assert_eq!(
        pack_result(rgba, false, 0b1111, false, false, true, 0x0001_0001),
        vec![0, 0, 0, 0, 0x0001_0001]
    );
    // tfe + TEXEL_FAIL without lwe: data kept.
    assert_eq!(
        pack_result(rgba, false, 0b0001, false, true, false, 1),
        vec![one, 1]
    );
}

/// `MimgPack`: the RTL equals the golden model on every (dmask, d16, tfe, lwe, int_result) with
/// 420 random results each (NaN, ±Inf, f16 overflow, denormals, saturating integers): 107 520
/// cases; unused output dwords are 0; the Verilog exports and passes Yosys' checks.
#[test]
fn mimg_pack_rtl_matches_golden() {
    use texpix_rtl::tex::MimgPack;
    use texpix_tb::tex::mimg::pack_result;
    let t = std::time::Instant::now();
    let mut u = connected(MimgPack::default());
    let mut r = SplitMix64::new(0xD16);
    let mut n = 0u32;
    let mut per_count = [0u32; 6];
    for combo in 0..256u32 {
        let (dmask, d16, tfe, lwe, int) = pack_flags(combo);
        for _ in 0..420 {
            let rgba: [u32; 4] = std::array::from_fn(|_| result_component(&mut r));
            let st = status_word(&mut r);
            for (p, &x) in u.rgba.iter_mut().zip(&rgba) {
                p.next = u64::from(x).into();
            }
            u.int_result.next = int;
            u.dmask.next = u64::from(dmask).into();
            u.d16.next = d16;
            u.tfe.next = tfe;
            u.lwe.next = lwe;
            u.status.next = u64::from(st).into();
            settle_block(&mut u);
            let mut want = pack_result(rgba, int, dmask, d16, tfe, lwe, st);
            let count = want.len();
            want.resize(5, 0);
            let got: Vec<u32> = u.dw.iter().map(|d| d.val().to_u32()).collect();
            assert_eq!(
                (got, u.count.val().to_u32() as usize),
                (want, count),
                "{rgba:08x?} int {int} dmask {dmask} d16 {d16} tfe {tfe} lwe {lwe} {st:08x}"
            );
            per_count[count] += 1;
            n += 1;
        }
    }
    println!(
        "{n} cases in {:.1} s, per dword count 0…5: {per_count:?}",
        t.elapsed().as_secs_f64()
    );
    yosys(&mut MimgPack::default(), "mimg_pack");
}

// ---------------------------------------------------------------------------------------------
// Exported Verilog in Icarus
// ---------------------------------------------------------------------------------------------

/// Runs `cases` (per case the input values in `inputs` order) through the exported Verilog of
/// `uut` (top `top`) in Icarus Verilog and returns per case the values of `outputs`. Each case's
/// inputs are applied together and the outputs sampled one time unit later.
fn icarus_comb<B: Block>(
    uut: &mut B,
    top: &str,
    inputs: &[(&str, usize)],
    outputs: &[(&str, usize)],
    cases: &[Vec<u64>],
) -> Vec<Vec<u64>> {
    use std::fmt::Write as _;
    let dir = std::env::temp_dir().join(format!("texpix_{top}_icarus"));
    std::fs::create_dir_all(&dir).expect("dir");
    let v = texpix_rtl::export::verilog(uut, top, &format!("{top} Icarus test")).expect("export");
    std::fs::write(dir.join(format!("{top}.v")), v).expect("write");
    let n = cases.len();
    let mut tb = String::from("`timescale 1ns/1ps\nmodule tb;\n");
    for (k, &(name, w)) in inputs.iter().enumerate() {
        let _ = writeln!(
            tb,
            "reg [{}:0] {name};\nreg [{}:0] m{k} [0:{}];",
            w - 1,
            w - 1,
            n - 1
        );
        let text: String = cases.iter().map(|c| format!("{:x}\n", c[k])).collect();
        std::fs::write(dir.join(format!("in{k}.hex")), text).expect("write");
    }
    for &(name, w) in outputs {
        let _ = writeln!(tb, "wire [{}:0] {name};", w - 1);
    }
    let ports: Vec<String> = inputs
        .iter()
        .chain(outputs)
        .map(|(p, _)| format!(".{p}({p})"))
        .collect();
    let _ = writeln!(tb, "{top} dut({});", ports.join(", "));
    let _ = writeln!(tb, "integer i, f;\ninitial begin");
    for k in 0..inputs.len() {
        let _ = writeln!(
            tb,
            "  $readmemh(\"{}\", m{k});",
            dir.join(format!("in{k}.hex")).display()
        );
    }
    let _ = writeln!(
        tb,
        "  f = $fopen(\"{}\", \"w\");",
        dir.join("out.txt").display()
    );
    let _ = writeln!(tb, "  for (i = 0; i < {n}; i = i + 1) begin");
    for (k, &(name, _)) in inputs.iter().enumerate() {
        let _ = writeln!(tb, "    {name} = m{k}[i];");
    }
    let fmt = vec!["%h"; outputs.len()].join(" ");
    let outs: Vec<&str> = outputs.iter().map(|o| o.0).collect();
    let _ = writeln!(tb, "    #1 $fdisplay(f, \"{fmt}\", {});", outs.join(", "));
    let _ = writeln!(tb, "  end\n  $fclose(f);\n  $finish;\nend\nendmodule");
    std::fs::write(dir.join("tb.v"), tb).expect("write");
    let sim = dir.join("sim.vvp");
    texpix_tb::tools::run_tool(
        std::process::Command::new("iverilog")
            .args(["-g2005", "-o"])
            .arg(&sim)
            .arg(dir.join("tb.v"))
            .arg(dir.join(format!("{top}.v"))),
        "iverilog",
    )
    .expect("iverilog");
    texpix_tb::tools::run_tool(std::process::Command::new("vvp").arg("-n").arg(&sim), "vvp")
        .expect("vvp");
    let text = std::fs::read_to_string(dir.join("out.txt")).expect("read");
    let rows: Vec<Vec<u64>> = text
        .lines()
        .map(|l| {
            l.split_whitespace()
                .map(|x| u64::from_str_radix(x, 16).unwrap_or_else(|_| panic!("{top}: {l}")))
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), n, "{top}: output rows");
    rows
}

/// `F32ToF16`'s exported Verilog in Icarus equals the golden model on 20 000 f16 values and
/// rounding boundaries and 20 000 random inputs.
#[test]
fn icarus_f32_to_f16() {
    let mut r = SplitMix64::new(0x1C);
    let edges = f32_to_f16_edges();
    let mut cases: Vec<Vec<u64>> = (0..20_000)
        .map(|_| {
            vec![u64::from(
                edges[(r.next_u64() % edges.len() as u64) as usize],
            )]
        })
        .collect();
    cases.extend((0..20_000).map(|_| vec![u64::from(r.next_u64() as u32)]));
    let out = icarus_comb(
        &mut F32ToF16::default(),
        "f32_to_f16",
        &[("a", 32)],
        &[("y", 16)],
        &cases,
    );
    for (c, o) in cases.iter().zip(&out) {
        assert_eq!(o[0] as u16, f32_to_f16(c[0] as u32), "{:08x}", c[0]);
    }
}

/// `MimgUnpack`'s exported Verilog in Icarus equals the golden model on 20 480 random forms and
/// address lists (every op code, dim and flag combination 20 times).
#[test]
fn icarus_mimg_unpack() {
    use texpix_tb::tex::mimg::unpack;
    let mut r = SplitMix64::new(0x1CA);
    let mut inputs: Vec<(String, usize)> = vec![
        ("op".into(), 4),
        ("dim".into(), 3),
        ("has_off".into(), 1),
        ("a16".into(), 1),
        ("g16".into(), 1),
    ];
    inputs.extend((0..12).map(|k| (format!("vaddr_{k}"), 32)));
    let mut outputs: Vec<(String, usize)> = (0..4).map(|k| (format!("coord_{k}"), 32)).collect();
    outputs.extend([("lod".into(), 32), ("bias".into(), 32), ("zref".into(), 32)]);
    outputs.extend((0..4).map(|k| (format!("grad_{k}"), 32)));
    outputs.extend([("off".into(), 12), ("count".into(), 4)]);
    let mut cases = Vec::new();
    for combo in 0..1024u64 {
        for _ in 0..20 {
            let mut c = vec![combo & 15, (combo >> 4) & 7, (combo >> 7) & 1];
            c.extend([(combo >> 8) & 1, (combo >> 9) & 1]);
            c.extend((0..12).map(|_| u64::from(address_dword(&mut r))));
            cases.push(c);
        }
    }
    let ins: Vec<(&str, usize)> = inputs.iter().map(|(s, w)| (s.as_str(), *w)).collect();
    let outs: Vec<(&str, usize)> = outputs.iter().map(|(s, w)| (s.as_str(), *w)).collect();
    let out = icarus_comb(
        &mut texpix_rtl::tex::MimgUnpack::default(),
        "mimg_unpack",
        &ins,
        &outs,
        &cases,
    );
    for (c, o) in cases.iter().zip(&out) {
        let v: Vec<u32> = c[5..].iter().map(|&x| x as u32).collect();
        let u = unpack(
            c[0] as u32,
            c[1] as u32,
            c[2] == 1,
            c[3] == 1,
            c[4] == 1,
            &v,
        );
        let mut want: Vec<u64> = u.coord.iter().map(|&x| u64::from(x)).collect();
        want.extend([u.lod, u.bias, u.zref].map(u64::from));
        want.extend(u.grad.map(u64::from));
        want.extend([u64::from(u.off), u64::from(u.count)]);
        assert_eq!(o, &want, "{c:x?}");
    }
}

/// `MimgPack`'s exported Verilog in Icarus equals the golden model on 20 480 random results
/// (every dmask, d16, tfe, lwe, int_result combination 80 times).
#[test]
fn icarus_mimg_pack() {
    use texpix_tb::tex::mimg::pack_result;
    let mut r = SplitMix64::new(0x1CB);
    let ins = [
        ("rgba_0", 32),
        ("rgba_1", 32),
        ("rgba_2", 32),
        ("rgba_3", 32),
        ("int_result", 1),
        ("dmask", 4),
        ("d16", 1),
        ("tfe", 1),
        ("lwe", 1),
        ("status", 32),
    ];
    let outs = [
        ("dw_0", 32),
        ("dw_1", 32),
        ("dw_2", 32),
        ("dw_3", 32),
        ("dw_4", 32),
        ("count", 3),
    ];
    let mut cases = Vec::new();
    for combo in 0..256u64 {
        for _ in 0..80 {
            let mut c: Vec<u64> = (0..4)
                .map(|_| u64::from(result_component(&mut r)))
                .collect();
            c.extend([(combo >> 7) & 1, combo & 15, (combo >> 4) & 1]);
            c.extend([(combo >> 5) & 1, (combo >> 6) & 1]);
            c.push(u64::from(status_word(&mut r)));
            cases.push(c);
        }
    }
    let out = icarus_comb(
        &mut texpix_rtl::tex::MimgPack::default(),
        "mimg_pack",
        &ins,
        &outs,
        &cases,
    );
    for (c, o) in cases.iter().zip(&out) {
        let rgba = [c[0], c[1], c[2], c[3]].map(|x| x as u32);
        let b = |k: usize| c[k] == 1;
        let mut want = pack_result(rgba, b(4), c[5] as u32, b(6), b(7), b(8), c[9] as u32);
        let count = want.len() as u64;
        want.resize(5, 0);
        let mut want: Vec<u64> = want.into_iter().map(u64::from).collect();
        want.push(count);
        assert_eq!(o, &want, "{c:x?}");
    }
}
