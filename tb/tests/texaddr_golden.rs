//! Texture address golden model: the conformance examples; the TXD decoder against register
//! layouts written by hand from NVIDIA's TXD register packing; faults (no taps, no memory
//! request); the golden model against the exact ideal reference on a million random lanes per wrap
//! mode (integer texel coordinates equal except within 1/256 texel of a floor boundary, weights
//! within 1/256, addresses equal) and per axis on random f32 bit patterns of any magnitude; the
//! documented results for NaN, ±Inf, denormals, 1×1 textures and the last level; the JSON round
//! trip; and what the stimulus covers.

use serde_json::Value;
use std::time::Instant;
use texpix_tb::texaddr::stim::{lanes_for_wrap, random};
use texpix_tb::texaddr::{
    golden, ideal, parse_line, result_json, txn_json, Dim, Fault, Form, Header, Lane, Op,
    SamplerDesc, TexAddrResult, TexAddrTxn, TexDesc, Txd, Wrap, ADDR_MASK,
};
use texpix_tb::vectors::{parse_object, read_jsonl, FieldError};

fn fb(x: f32) -> u32 {
    x.to_bits()
}

// ------------------------------------------------------------------------------------------------
// Conformance examples
// ------------------------------------------------------------------------------------------------

#[test]
fn conformance_examples_match_taps_exactly_and_weights_within_one() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let vectors = read_jsonl(&dir.join("texaddr.jsonl"), parse_line).expect("vectors");
    let expected = read_jsonl(&dir.join("texaddr.expected.jsonl"), |l| {
        let o = parse_object(l)?;
        o.get("lanes")
            .cloned()
            .ok_or_else(|| FieldError::new("lanes", "missing"))
    })
    .expect("expected results");
    assert_eq!(vectors.len(), expected.len());
    assert!(vectors.len() >= 30);
    // txn_json prints the direct form exactly as the conformance examples spell it.
    let text = std::fs::read_to_string(dir.join("texaddr.jsonl")).unwrap();
    for (k, (line, t)) in text.lines().zip(&vectors).enumerate() {
        let original: Value = serde_json::from_str(line).unwrap();
        assert_eq!(txn_json(t), original, "line {}", k + 1);
    }
    let (mut exact_lines, mut lanes, mut exact_lanes, mut weights_off_by_one) = (0, 0, 0, 0);
    for (k, (t, want)) in vectors.iter().zip(&expected).enumerate() {
        let line = k + 1;
        let got = result_json(&golden(t));
        assert_eq!(got["fault"], "none", "line {line}");
        let mut exact = true;
        for l in 0..4 {
            let (g, w) = (&got["lanes"][l], &want[l]);
            lanes += 1;
            assert_eq!(
                g["taps"], w["taps"],
                "line {line} lane {l}: taps {} vs expected {}",
                g["taps"], w["taps"]
            );
            let mut lane_exact = true;
            for f in ["wu", "wv"] {
                let (a, b) = (g[f].as_i64().unwrap(), w[f].as_i64().expect(f));
                assert!(
                    (a - b).abs() <= 1,
                    "line {line} lane {l}: {f} {a} vs expected {b}"
                );
                if a != b {
                    lane_exact = false;
                    weights_off_by_one += 1;
                }
            }
            exact_lanes += u32::from(lane_exact);
            exact &= lane_exact;
        }
        exact_lines += u32::from(exact);
    }
    println!(
        "examples: {} lines, taps equal on all; {exact_lines} lines and {exact_lanes}/{lanes} lanes exact \
         including weights; {weights_off_by_one} weights differ by 1",
        vectors.len()
    );
}

// ------------------------------------------------------------------------------------------------
// TXD decoder (NVIDIA's TXD), written from its register packing table by hand
// ------------------------------------------------------------------------------------------------

/// Register layouts, Ra+0 first, from NVIDIA's TXD packing table ("compacted upwards"): H the
/// handle {samplerPtr | headerPtr} (.B only), s, t (2D only), W the word {LodClamp[31:20] |
/// toff[19:12] | array[11:0]} with .LC, {toff[27:16] | array[15:0]} without, present with .LC,
/// .AOFFI or an ARRAY paramA.
const LAYOUTS: [(u32, bool, bool, bool, &str); 32] = [
    // paramA 0: 1D
    (0, false, false, false, "s"),
    (0, false, false, true, "s W"),
    (0, false, true, false, "s W"),
    (0, false, true, true, "s W"),
    (0, true, false, false, "H s"),
    (0, true, false, true, "H s W"),
    (0, true, true, false, "H s W"),
    (0, true, true, true, "H s W"),
    // paramA 1: 2D
    (1, false, false, false, "s t"),
    (1, false, false, true, "s t W"),
    (1, false, true, false, "s t W"),
    (1, false, true, true, "s t W"),
    (1, true, false, false, "H s t"),
    (1, true, false, true, "H s t W"),
    (1, true, true, false, "H s t W"),
    (1, true, true, true, "H s t W"),
    // paramA 4: ARRAY_1D (a, s)
    (4, false, false, false, "s W"),
    (4, false, false, true, "s W"),
    (4, false, true, false, "s W"),
    (4, false, true, true, "s W"),
    (4, true, false, false, "H s W"),
    (4, true, false, true, "H s W"),
    (4, true, true, false, "H s W"),
    (4, true, true, true, "H s W"),
    // paramA 5: ARRAY_2D (a, s, t)
    (5, false, false, false, "s t W"),
    (5, false, false, true, "s t W"),
    (5, false, true, false, "s t W"),
    (5, false, true, true, "s t W"),
    (5, true, false, false, "H s t W"),
    (5, true, false, true, "H s t W"),
    (5, true, true, false, "H s t W"),
    (5, true, true, true, "H s t W"),
];

const HDR: u32 = 7;
const SMP: u32 = 3;
const HANDLE: u32 = SMP << 20 | HDR;
const TS_IDX: u32 = 0x123;
const DU: [i32; 4] = [-8, -1, 3, 7];
const DV: [i32; 4] = [7, 2, -3, -8];

fn array_tex(two_d: bool) -> TexDesc {
    TexDesc {
        width: 64,
        height: 64,
        layers: 300,
        levels: 7,
        bpp: 4,
        base: 0x10_0000,
        dim: if two_d { Dim::Array2D } else { Dim::Array1D },
        sparse: false,
    }
}

/// Nearest, clamp to edge, unnormalized: i = ⌊s⌋ directly.
fn plain_sampler() -> SamplerDesc {
    SamplerDesc {
        wrap_s: Wrap::ClampToEdge,
        wrap_t: Wrap::ClampToEdge,
        linear: false,
        unnormalized: true,
    }
}

/// The registers of `lane` for a layout string, with s = 10.5 + lane, t = 20.5 + lane, array
/// index 261 + lane, offsets DU/DV, LOD clamp 0x100 + 0x11·lane.
fn hand_registers(layout: &str, lc: bool, lane: usize, handle: u32) -> [u32; 4] {
    let mut r = [0xDEAD_BEEF; 4];
    let toff = ((DV[lane] as u32 & 0xF) << 4) | (DU[lane] as u32 & 0xF);
    let array = 261 + lane as u32;
    let clamp = 0x100 + 0x11 * lane as u32;
    for (k, slot) in layout.split(' ').enumerate() {
        r[k] = match slot {
            "H" => handle,
            "s" => fb(10.5 + lane as f32),
            "t" => fb(20.5 + lane as f32),
            "W" if lc => clamp << 20 | toff << 12 | array,
            "W" => toff << 16 | array,
            _ => unreachable!(),
        };
    }
    r
}

/// Header and sampler pool entries.
type Pools = (Vec<(u32, Header)>, Vec<(u32, u32)>);

fn pools(tex: &TexDesc, smp: &SamplerDesc) -> Pools {
    (
        vec![(
            HDR,
            Header {
                words: tex.to_words(),
                nonresident: vec![],
            },
        )],
        vec![(SMP, smp.to_word())],
    )
}

fn txd_txn(x: Txd) -> TexAddrTxn {
    TexAddrTxn {
        form: Form::Txd(x),
        op: Op::Sample,
        level: 0,
        mip: None,
        lambda: [0; 4],
        lod_warning: [false; 4],
    }
}

fn hand_txd(param_a: u32, bindless: bool, lc: bool, aoffi: bool, layout: &str) -> Txd {
    let tex = array_tex(Dim::from_code(param_a).coords() == 2);
    let (headers, samplers) = pools(&tex, &plain_sampler());
    Txd {
        bindless,
        lc,
        aoffi,
        param_a,
        ts_idx: TS_IDX,
        legacy: None,
        ogl: false,
        // Lanes 1–3 carry a garbage handle: the quad uses lane 0's.
        ra: std::array::from_fn(|l| {
            hand_registers(layout, lc, l, if l == 0 { HANDLE } else { u32::MAX })
        }),
        // With .B the constant bank holds a garbage handle at ts_idx: it must be ignored.
        cbank: vec![(TS_IDX, if bindless { u32::MAX } else { HANDLE })],
        header_max: 10,
        sampler_max: 5,
        headers,
        samplers,
    }
}

/// Texel memory requests of a quad (Σ popcount(req)) and descriptor fetches (0 or 1).
fn requests(r: &TexAddrResult) -> (u32, u32) {
    (
        r.lanes.iter().map(|l| l.req.count_ones()).sum(),
        u32::from(!r.fault.before_fetch()),
    )
}

fn assert_zero_quad(r: &TexAddrResult, what: &str) {
    for (l, lane) in r.lanes.iter().enumerate() {
        assert!(lane.taps.is_empty(), "{what}: lane {l} has taps");
        assert_eq!(
            (lane.req, lane.wu, lane.wv, lane.fail),
            (0, 0, 0, false),
            "{what}: lane {l}"
        );
    }
    assert_eq!(r.size, [0; 4], "{what}");
}

#[test]
fn txd_registers_land_where_nvidias_txd_packing_puts_them() {
    let mut checked = 0;
    for (param_a, bindless, lc, aoffi, layout) in LAYOUTS {
        let pd = Dim::from_code(param_a);
        let x = hand_txd(param_a, bindless, lc, aoffi, layout);
        let what = format!("paramA {param_a} .B {bindless} .LC {lc} .AOFFI {aoffi} ({layout})");
        let r = golden(&txd_txn(x.clone()));
        assert_eq!(r.fault, Fault::None, "{what}");
        let tex = array_tex(pd.coords() == 2);
        for (l, lane) in r.lanes.iter().enumerate() {
            let i = 10 + l as i32 + if aoffi { DU[l] } else { 0 };
            let j = if pd.coords() == 2 {
                20 + l as i32 + if aoffi { DV[l] } else { 0 }
            } else {
                0
            };
            let layer = if pd.is_array() { 261 + l as u32 } else { 0 };
            assert_eq!(lane.taps.len(), 1, "{what}");
            let tp = lane.taps[0];
            assert_eq!((tp.i, tp.j, tp.layer), (i, j, layer), "{what} lane {l}");
            assert!(!tp.border);
            let want_addr = ideal::texel_address(&tex, 0, i as u32, j as u32, layer);
            assert_eq!(u128::from(tp.addr), want_addr, "{what} lane {l}");
            let clamp = if lc { 0x100 + 0x11 * l as u32 } else { 0 };
            assert_eq!(lane.lod_clamp, clamp, "{what} lane {l}");
            assert_eq!(lane.req, 1, "{what} lane {l}");
        }
        let (texel_reqs, fetches) = requests(&r);
        assert!(texel_reqs == 4 && fetches == 1, "{what}");
        // The legacy {tid, smp} spelling of the same index gives the same quad.
        if !bindless {
            let mut v = txn_json(&txd_txn(x.clone()));
            let o = v["txd"].as_object_mut().unwrap();
            o.remove("ts_idx");
            o.insert("tid".into(), (TS_IDX & 0xFF).into());
            o.insert("smp".into(), (TS_IDX >> 8).into());
            let t = parse_line(&v.to_string()).unwrap();
            let Form::Txd(y) = &t.form else { panic!() };
            assert_eq!((y.ts_idx, y.legacy), (TS_IDX, Some((0x23, 1))));
            assert_eq!(golden(&t), r, "{what}: legacy spelling");
            // The swapped reading tid·32 + smp finds an empty bank word: handle 0, unbound.
            let mut z = x.clone();
            z.ts_idx = (0x23 << 5) | 1;
            assert_eq!(golden(&txd_txn(z)).fault, Fault::Unbound, "{what}");
        }
        checked += 1;
    }
    // The reserved paramA codes are rejected whatever the flags: no fetch, no request.
    let mut rejected = 0;
    for param_a in [2, 3, 6, 7] {
        for flags in 0..8u32 {
            let (b, lc, ao) = (flags & 1 != 0, flags & 2 != 0, flags & 4 != 0);
            let layout = if b { "H s t W" } else { "s t W" };
            let r = golden(&txd_txn(hand_txd(param_a, b, lc, ao, layout)));
            assert_eq!(r.fault, Fault::ReservedParamA);
            assert_zero_quad(&r, "reserved paramA");
            assert_eq!(requests(&r), (0, 0));
            rejected += 1;
        }
    }
    println!(
        "decoder: {checked} valid paramA × flag layouts checked, {rejected} reserved rejected"
    );
}

#[test]
fn opengl_mode_reads_the_sampler_at_the_header_pointer() {
    let tex = array_tex(true);
    let linear_repeat = SamplerDesc {
        wrap_s: Wrap::Repeat,
        wrap_t: Wrap::Repeat,
        linear: true,
        unnormalized: false,
    };
    let mut x = hand_txd(5, true, false, false, "H s t W");
    // Handle: samplerPtr 2 (linear), headerPtr 3; sampler 3 is the plain nearest one.
    let handle = 2 << 20 | 3;
    for r in x.ra.iter_mut() {
        r[0] = handle;
    }
    x.headers = vec![(
        3,
        Header {
            words: tex.to_words(),
            nonresident: vec![],
        },
    )];
    x.samplers = vec![(2, linear_repeat.to_word()), (3, plain_sampler().to_word())];
    let r = golden(&txd_txn(x.clone()));
    assert_eq!(
        r.lanes[0].taps.len(),
        4,
        "sampler 2 (linear) without OpenGL mode"
    );
    x.ogl = true;
    let r = golden(&txd_txn(x.clone()));
    assert_eq!(
        r.lanes[0].taps.len(),
        1,
        "sampler 3 (nearest) in OpenGL mode"
    );
    assert_eq!((r.lanes[0].taps[0].i, r.lanes[0].taps[0].j), (10, 20));
    // A sampler field above MaximumIndex is ignored in OpenGL mode …
    for r in x.ra.iter_mut() {
        r[0] = 0xFFF << 20 | 3;
    }
    assert_eq!(golden(&txd_txn(x.clone())).fault, Fault::None);
    // … and faults without it.
    x.ogl = false;
    assert_eq!(golden(&txd_txn(x.clone())).fault, Fault::SamplerPtr);
    // In OpenGL mode the header pointer must be within the sampler pool too.
    x.ogl = true;
    x.sampler_max = 2;
    assert_eq!(golden(&txd_txn(x)).fault, Fault::SamplerPtr);
}

#[test]
fn invalid_textures_return_zeros_without_memory_requests() {
    let base = hand_txd(1, false, false, false, "s t");
    let mut cases: Vec<(&str, Txd, Fault)> = Vec::new();
    // Header pointer above MaximumIndex (the pool entry exists): invalid.
    let mut x = base.clone();
    x.header_max = HDR - 1;
    cases.push(("header pointer = max + 1", x, Fault::HeaderPtr));
    let mut x = base.clone();
    x.header_max = HDR;
    cases.push(("header pointer = max", x, Fault::None));
    let mut x = base.clone();
    x.sampler_max = SMP - 1;
    cases.push(("sampler pointer = max + 1", x, Fault::SamplerPtr));
    let mut x = base.clone();
    x.sampler_max = SMP;
    cases.push(("sampler pointer = max", x, Fault::None));
    // Unbound: no entry, or an all-zero one.
    let mut x = base.clone();
    x.headers.clear();
    cases.push(("absent header", x, Fault::Unbound));
    let mut x = base.clone();
    x.headers[0].1 = Header::default();
    cases.push(("all-zero header", x, Fault::Unbound));
    // Reserved paramA.
    for pa in [2, 3, 6, 7] {
        let mut x = base.clone();
        x.param_a = pa;
        cases.push(("reserved paramA", x, Fault::ReservedParamA));
    }
    // Bad descriptors.
    for code in 5..8 {
        let mut x = base.clone();
        let w = &mut x.headers[0].1.words[1];
        *w = (*w & !(7 << 16)) | code << 16;
        cases.push(("bpp_log2 5…7", x, Fault::BadDescriptor));
        for shift in [0, 3] {
            let mut x = base.clone();
            let w = &mut x.samplers[0].1;
            *w = (*w & !(7 << shift)) | code << shift;
            cases.push(("wrap code 5…7", x, Fault::BadDescriptor));
        }
    }
    // Coordinate description against the texture type.
    let mut x = base.clone();
    x.param_a = 0;
    x.ra = std::array::from_fn(|l| hand_registers("s", false, l, HANDLE));
    cases.push(("1D paramA on a 2D texture", x, Fault::TypeMismatch));
    let mut x = base.clone();
    x.headers[0].1.words = array_tex(false).to_words();
    cases.push(("2D paramA on a 1D texture", x, Fault::TypeMismatch));
    for d in [Dim::D3, Dim::Cube, Dim::Array3D, Dim::ArrayCube] {
        let mut x = base.clone();
        x.headers[0].1.words = TexDesc {
            dim: d,
            ..array_tex(true)
        }
        .to_words();
        cases.push(("3D / cube texture", x, Fault::TypeMismatch));
    }
    // Array paramA on a non-array texture and vice versa are fine.
    let mut x = base.clone();
    x.headers[0].1.words = TexDesc {
        dim: Dim::D2,
        ..array_tex(true)
    }
    .to_words();
    x.param_a = 5;
    x.ra = std::array::from_fn(|l| hand_registers("s t W", false, l, HANDLE));
    cases.push(("ARRAY_2D paramA on a 2D texture", x, Fault::None));
    let mut x = base.clone();
    x.param_a = 1;
    cases.push(("2D paramA on a 2D array texture", x, Fault::None));

    let mut report = Vec::new();
    for (what, x, fault) in cases {
        for op in [Op::Sample, Op::Txq] {
            let mut t = txd_txn(x.clone());
            t.op = op;
            let r = golden(&t);
            assert_eq!(r.fault, fault, "{what}");
            let (reqs, fetches) = requests(&r);
            if fault == Fault::None {
                if op == Op::Sample {
                    assert!(reqs > 0, "{what}");
                } else {
                    assert_ne!(r.size, [0; 4], "{what}");
                }
                assert_eq!(fetches, 1, "{what}");
            } else {
                assert_zero_quad(&r, what);
                assert_eq!(reqs, 0, "{what}");
                // Pointer and paramA faults are caught before any descriptor fetch; unbound,
                // bad and mismatching descriptors after the fetch, still without texel requests.
                let before = matches!(
                    fault,
                    Fault::HeaderPtr | Fault::SamplerPtr | Fault::ReservedParamA
                );
                assert_eq!(fetches, u32::from(!before), "{what}");
            }
            if op == Op::Sample {
                report.push(format!(
                    "{what}: {} reqs {reqs} fetch {fetches}",
                    fault.name()
                ));
            }
        }
    }
    println!("{}", report.join("\n"));
}

// ------------------------------------------------------------------------------------------------
// Golden against ideal
// ------------------------------------------------------------------------------------------------

/// One sub-texel step.
const STEP: f64 = 1.0 / 256.0;

#[derive(Default, Debug)]
struct WrapReport {
    vectors: u64,
    lanes: u64,
    axes: u64,
    linear_lanes: u64,
    unnormalized_lanes: u64,
    trilinear_lanes: u64,
    taps: u64,
    border_taps: u64,
    /// Axes whose ideal floored value lies within 1/256 texel of an integer.
    near_boundary: u64,
    /// Axes whose integer coordinates differ from the ideal (all near a boundary).
    exceptions: u64,
    /// … of which the coordinate is a denormal (flushed to ±0 by the golden model).
    exceptions_denormal: u64,
    max_weight_err: f64,
    /// Weights whose f64 error rounds to 1.0 although the exact error is below 1 (ideal α·256
    /// within 2^-53 of an integer: tiny coordinates).
    weight_err_rounded_to_one: u64,
    /// Weight error histogram in 1/256 steps: [0, 0.25), [0.25, 0.5), [0.5, 0.75), [0.75, 1).
    weight_hist: [u64; 4],
    addresses_checked: u64,
    examples: Vec<String>,
}

fn check_vector(t: &TexAddrTxn, check_addr: bool, rep: &mut WrapReport) -> Result<(), String> {
    let Form::Direct {
        tex,
        sampler,
        lanes,
        ..
    } = &t.form
    else {
        return Err("not direct".into());
    };
    let g = golden(t);
    if g.fault != Fault::None {
        return Err(format!("fault {:?}", g.fault));
    }
    rep.vectors += 1;
    let one_d = tex.dim.coords() == 1;
    let per_level = match (sampler.linear, one_d) {
        (false, _) => 1,
        (true, true) => 2,
        (true, false) => 4,
    };
    let mut levels = vec![t.level];
    if let Some((l1, _)) = t.mip {
        levels.push(l1);
    }
    for (l, lane) in lanes.iter().enumerate() {
        let gl = &g.lanes[l];
        rep.lanes += 1;
        rep.linear_lanes += u64::from(sampler.linear);
        rep.unnormalized_lanes += u64::from(sampler.unnormalized);
        rep.trilinear_lanes += u64::from(t.mip.is_some());
        if gl.taps.len() != per_level * levels.len() {
            return Err(format!("lane {l}: {} taps", gl.taps.len()));
        }
        for (k, &lv) in levels.iter().enumerate() {
            let id = ideal::lane(tex, sampler, lv, lane)
                .ok_or_else(|| format!("lane {l}: coordinate outside the ideal's range"))?;
            let taps = &gl.taps[k * per_level..(k + 1) * per_level];
            let (wu, wv) = if k == 0 {
                (gl.wu, gl.wv)
            } else {
                (gl.wu1, gl.wv1)
            };
            let axes = [(Some(id.u), wu, true), (id.v, wv, false)];
            let mut coords_equal = true;
            for (ax, w, is_u) in axes {
                let Some(ax) = ax else {
                    if w != 0 || taps.iter().any(|tp| tp.j != 0) {
                        return Err(format!("lane {l}: 1D with v weight {w}"));
                    }
                    continue;
                };
                rep.axes += 1;
                let near = ax.boundary_distance() < STEP;
                rep.near_boundary += u64::from(near);
                let same = taps.iter().zip(&id.taps).all(|(a, b)| {
                    if is_u {
                        i64::from(a.i) == b.i
                    } else {
                        i64::from(a.j) == b.j
                    }
                });
                if !same {
                    coords_equal = false;
                    if !near {
                        return Err(format!(
                            "lane {l} level {lv} {}: golden taps {taps:?} vs ideal {:?} with the \
                             floored value {} {} texels from a boundary",
                            if is_u { "u" } else { "v" },
                            id.taps,
                            ax.x,
                            ax.boundary_distance()
                        ));
                    }
                    rep.exceptions += 1;
                    let bits = if is_u { lane.s } else { lane.t };
                    let denormal = bits & 0x7F80_0000 == 0 && bits & 0x7F_FFFF != 0;
                    rep.exceptions_denormal += u64::from(denormal);
                    if rep.examples.len() < 3 || (!denormal && rep.examples.len() < 8) {
                        let ideal_i = &ax.i[..if sampler.linear { 2 } else { 1 }];
                        let golden_i = if sampler.linear {
                            let k = if is_u { 1 } else { 2 };
                            [taps[0], taps[k.min(taps.len() - 1)]]
                                .map(|tp| if is_u { tp.i } else { tp.j })
                                .to_vec()
                        } else {
                            vec![if is_u { taps[0].i } else { taps[0].j }]
                        };
                        rep.examples.push(format!(
                            "{} = {:#010x} ({:e}), {}, offset {}, level {lv}: ideal x = {:e}, \
                             ideal i {ideal_i:?}, golden {golden_i:?}",
                            if is_u { "s" } else { "t" },
                            bits,
                            f32::from_bits(bits),
                            if sampler.linear { "linear" } else { "nearest" },
                            lane.offset[usize::from(!is_u)],
                            ax.x,
                        ));
                    }
                    continue;
                }
                if !sampler.linear && w != 0 {
                    return Err(format!("lane {l}: nearest with weight {w}"));
                }
                if !ax.weight_within_one(w) {
                    return Err(format!(
                        "lane {l} level {lv}: weight {w} vs ideal {} (⌊⌋ {}, x = {})",
                        ax.weight, ax.weight_floor, ax.x
                    ));
                }
                let err = (f64::from(w) - ax.weight).abs();
                if err >= 1.0 {
                    rep.weight_err_rounded_to_one += 1;
                } else if sampler.linear {
                    rep.max_weight_err = rep.max_weight_err.max(err);
                    rep.weight_hist[((err * 4.0) as usize).min(3)] += 1;
                }
            }
            for (a, b) in taps.iter().zip(&id.taps) {
                rep.taps += 1;
                rep.border_taps += u64::from(a.border);
                if (a.layer, a.level) != (b.layer, b.level) {
                    return Err(format!("lane {l}: tap {a:?} vs ideal {b:?}"));
                }
                if coords_equal {
                    if a.border != b.border {
                        return Err(format!("lane {l}: border {a:?} vs ideal {b:?}"));
                    }
                    if check_addr {
                        rep.addresses_checked += 1;
                        let want = (b.addr & u128::from(ADDR_MASK)) as u64;
                        if a.addr != want {
                            return Err(format!("lane {l}: address {a:?} vs ideal {b:?}"));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn golden_vs_ideal(lanes_per_mode: usize, seed: u64) {
    for (mode, name) in Wrap::ALL {
        let start = Instant::now();
        let mut rep = WrapReport::default();
        for (k, t) in lanes_for_wrap(seed, mode, lanes_per_mode).enumerate() {
            check_vector(&t, k % 8 == 0, &mut rep)
                .unwrap_or_else(|e| panic!("{name} vector {k}: {e}\n{}", txn_json(&t)));
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}: {} lanes ({} vectors, {} axes, {} linear, {} unnormalized, {} trilinear), \
             {} taps ({} border), {} addresses checked; {} axes within 1/256 of a boundary, {} \
             of them differ from the ideal (allowed; {} of those are denormal coordinates); max \
             weight error (1 − {:.1e})/256, linear weight error histogram [<.25, <.5, <.75, <1] {:?} (+{} \
             below 1 exactly, 1.0 in f64); {secs:.2} s",
            rep.lanes,
            rep.vectors,
            rep.axes,
            rep.linear_lanes,
            rep.unnormalized_lanes,
            rep.trilinear_lanes,
            rep.taps,
            rep.border_taps,
            rep.addresses_checked,
            rep.near_boundary,
            rep.exceptions,
            rep.exceptions_denormal,
            1.0 - rep.max_weight_err,
            rep.weight_hist,
            rep.weight_err_rounded_to_one,
        );
        for e in &rep.examples {
            println!("  exception: {e}");
        }
        assert!(rep.lanes >= lanes_per_mode as u64);
        assert!(rep.max_weight_err < 1.0);
        assert!(rep.linear_lanes > rep.lanes / 3 && rep.unnormalized_lanes > rep.lanes / 8);
        assert!(rep.near_boundary > 0 && rep.addresses_checked > 0);
    }
}

#[test]
fn golden_matches_ideal_on_a_million_lanes_per_wrap_mode() {
    golden_vs_ideal(1_000_000, 2026);
}

/// Counts of the every-field comparison: regimes seen and fields compared.
#[derive(Debug, Default)]
struct FieldReport {
    vectors: u64,
    txq_in_range: u64,
    txq_beyond: u64,
    reserved_dim: u64,
    sampling: u64,
    sparse_sampling: u64,
    trilinear: u64,
    lanes: u64,
    sparse_lanes: u64,
    failed_lanes: u64,
    warned_lanes: u64,
    border_lanes: u64,
    /// Lanes whose taps differ from the ideal within 1/256 texel of a boundary (`check_vector`
    /// allows them); their request mask, TEXEL_FAIL and status follow the golden taps.
    near_boundary_lanes: u64,
    fields_equal: u64,
}

/// Reshapes a bounded direct-form vector so the regimes of the non-coordinate fields are the
/// majority: 20 % TXQ (levels up to two beyond the last), 8 % a dimension TXD's paramA reserves,
/// the rest sampling, 60 % of those sparse with the tile of one ideal tap (and a random tile)
/// non-resident, λ over ±2^20 levels·256 and random LOD warnings.
fn reshape(t: &mut TexAddrTxn, rng: &mut texpix_sim::SplitMix64) {
    let Form::Direct {
        tex, nonresident, ..
    } = &mut t.form
    else {
        return;
    };
    for l in 0..4 {
        t.lambda[l] = (rng.next_u64() % (1 << 21)) as i32 - (1 << 20);
        t.lod_warning[l] = rng.next_u64() & 1 == 0;
    }
    let r = rng.next_u64() % 100;
    if r < 20 {
        t.op = Op::Txq;
        t.level = (rng.next_u64() % u64::from(tex.levels + 2)) as u32;
        return;
    }
    if r < 28 {
        tex.dim = [Dim::D3, Dim::Cube, Dim::Array3D, Dim::ArrayCube][(r % 4) as usize];
        return;
    }
    if rng.next_u64() % 10 < 6 {
        tex.sparse = true;
        nonresident.push(((rng.next_u64() % 4) as u32, rng.next_u64() % 4));
        let q = ideal::quad(t).expect("direct form");
        let taps: Vec<ideal::IdealTap> = q
            .lanes
            .iter()
            .flatten()
            .flat_map(|x| x.taps.iter().copied())
            .filter(|tp| !tp.border)
            .collect();
        if !taps.is_empty() {
            let tp = taps[(rng.next_u64() % taps.len() as u64) as usize];
            let Form::Direct {
                tex, nonresident, ..
            } = &mut t.form
            else {
                return;
            };
            let tile = (tp.addr - ideal::level_start(tex, tp.level)) >> 16;
            nonresident.push((tp.level, tile as u64));
        }
    }
}

/// Every result field of `n` direct-form vectors against [`ideal::quad`]: the fault, TXQ's size,
/// the mip fraction, and per lane the taps of every level (coordinates through `check_vector`),
/// the memory-request mask, TEXEL_FAIL, the status word and `.LC` (none in the direct form).
fn every_field(n: usize, seed: u64) -> FieldReport {
    let mut rng = texpix_sim::SplitMix64::new(seed);
    let mut rep = FieldReport::default();
    let mut wrap_rep = WrapReport::default();
    let per_mode = n.div_ceil(Wrap::ALL.len()) * 4;
    let vectors = Wrap::ALL
        .iter()
        .flat_map(|&(mode, _)| lanes_for_wrap(seed, mode, per_mode));
    for (k, mut t) in vectors.enumerate() {
        reshape(&mut t, &mut rng);
        let what = || format!("vector {k}: {}", txn_json(&t));
        let g = golden(&t);
        let q = ideal::quad(&t).expect("direct form");
        rep.vectors += 1;
        if q.reserved_param_a {
            rep.reserved_dim += 1;
            let zero = TexAddrResult {
                lanes: Default::default(),
                fault: Fault::ReservedParamA,
                frac: 0,
                size: [0; 4],
            };
            assert_eq!(g, zero, "{}", what());
            rep.fields_equal += 1;
            continue;
        }
        assert_eq!(g.fault, Fault::None, "{}", what());
        assert_eq!(g.size.map(u64::from), q.size, "size: {}", what());
        assert_eq!(g.frac, q.frac, "frac: {}", what());
        rep.fields_equal += 3;
        if t.op == Op::Txq {
            let in_range = q.size[0] > 0;
            rep.txq_in_range += u64::from(in_range);
            rep.txq_beyond += u64::from(!in_range);
            assert_eq!(g.lanes, <[_; 4]>::default(), "TXQ lanes: {}", what());
            continue;
        }
        rep.sampling += 1;
        rep.trilinear += u64::from(t.mip.is_some());
        check_vector(&t, true, &mut wrap_rep).unwrap_or_else(|e| panic!("{e}: {}", what()));
        let sparse = matches!(&t.form, Form::Direct { tex, .. } if tex.sparse);
        rep.sparse_sampling += u64::from(sparse);
        for (l, (gl, il)) in g.lanes.iter().zip(&q.lanes).enumerate() {
            let il = il
                .as_ref()
                .expect("bounded coordinates have an ideal value");
            rep.lanes += 1;
            rep.sparse_lanes += u64::from(sparse);
            rep.border_lanes += u64::from(il.taps.iter().any(|tp| tp.border));
            assert_eq!(gl.lod_clamp, 0, "lane {l} .LC: {}", what());
            let same_taps = gl.taps.len() == il.taps.len()
                && gl.taps.iter().zip(&il.taps).all(|(a, b)| {
                    (i64::from(a.i), i64::from(a.j), a.layer, a.level, a.border)
                        == (b.i, b.j, b.layer, b.level, b.border)
                });
            if !same_taps {
                rep.near_boundary_lanes += 1;
                continue;
            }
            assert_eq!(
                (gl.req, gl.fail, gl.status),
                (il.req, il.fail, il.status),
                "lane {l} req/fail/status: {}",
                what()
            );
            rep.failed_lanes += u64::from(il.fail);
            rep.warned_lanes += u64::from(il.status & 2 != 0);
            rep.fields_equal += 4;
        }
    }
    rep
}

#[test]
fn golden_matches_ideal_on_every_result_field() {
    let start = Instant::now();
    let rep = every_field(1_000_000, 77);
    println!("{rep:#?}\n{:.1} s", start.elapsed().as_secs_f64());
    // The regimes these fields distinguish are the majority of what was compared.
    let interesting = rep.txq_in_range + rep.txq_beyond + rep.reserved_dim + rep.sparse_sampling;
    assert!(interesting > rep.vectors / 2, "{rep:?}");
    assert!(
        rep.failed_lanes > rep.lanes / 8 && rep.warned_lanes > rep.lanes / 4,
        "{rep:?}"
    );
    assert!(
        rep.txq_beyond > 0 && rep.border_lanes > 0 && rep.trilinear > 0,
        "{rep:?}"
    );
}

/// The same with five million lanes per mode (`cargo test --release -- --ignored`).
#[test]
#[ignore]
fn golden_matches_ideal_on_five_million_lanes_per_wrap_mode() {
    golden_vs_ideal(5_000_000, 77);
}

/// Any finite coordinate, one axis at a time: normalized repeat / mirrored repeat reduce exactly
/// at every magnitude and the clamp modes clamp far outside the texture, so the golden texel
/// coordinates equal the ideal's (except flushed denormals); weights too within ±2^22 texels (the
/// 24.8 range; beyond it a clamped coordinate's two taps are the same edge texel, or border).
/// Unnormalized repeat / mirrored repeat saturate at ±2^22 texels before wrapping (documented in
/// the model): there the ideal is only required within that range.
#[test]
fn golden_matches_ideal_per_axis_at_any_magnitude() {
    let mut rng = texpix_sim::SplitMix64::new(99);
    let limit = 2f64.powi(22);
    for (mode, name) in Wrap::ALL {
        let (mut checked, mut beyond_range, mut saturated_differ) = (0u64, 0u64, 0u64);
        for _ in 0..200_000 {
            let r = rng.next_u64();
            let n = match r % 4 {
                0 => 1 + (r >> 8) as u32 % 7,
                1 => 1 << ((r >> 8) % 16),
                _ => 1 + (r >> 8) as u32 % 32768,
            };
            let bits = rng.next_u64() as u32;
            let (linear, un) = (r & 16 != 0, r & 32 == 0 && r & 64 == 0);
            let offset = ((r >> 40) % 16) as i32 - 8;
            let x = f32::from_bits(bits);
            if !x.is_finite() || (bits & 0x7F80_0000 == 0 && bits & 0x7F_FFFF != 0) {
                continue;
            }
            let Some(id) = ideal::axis(x, n, mode, linear, un, offset) else {
                continue;
            };
            let (g0, g1, w) = texpix_tb::texaddr::axis(bits, n, mode, linear, un, offset);
            checked += 1;
            let same = (i64::from(g0.0), g0.1) == (id.i[0], id.border[0])
                && (!linear || (i64::from(g1.0), g1.1) == (id.i[1], id.border[1]));
            let in_range = id.u.abs() < limit;
            beyond_range += u64::from(!in_range);
            let periodic = matches!(mode, Wrap::Repeat | Wrap::MirroredRepeat);
            if un && periodic && !in_range {
                saturated_differ += u64::from(!same);
                continue;
            }
            assert!(
                same,
                "{name} s = {bits:#010x} n {n} linear {linear} unnormalized {un} offset {offset}: \
                 golden {g0:?} {g1:?} ideal {:?} {:?}",
                id.i, id.border
            );
            if in_range || (periodic && !un) {
                assert!(
                    id.weight_within_one(w),
                    "{name} s = {bits:#010x} n {n}: weight {w}"
                );
            }
        }
        println!(
            "{name}: {checked} axes with random f32 bit patterns, {beyond_range} beyond ±2^22 \
             texels; unnormalized beyond the range differing from the unbounded ideal: \
             {saturated_differ}"
        );
        assert!(checked > 150_000 && beyond_range > 50_000);
    }
}

// ------------------------------------------------------------------------------------------------
// Documented edge-case results
// ------------------------------------------------------------------------------------------------

fn tex2d(w: u32, h: u32, levels: u32) -> TexDesc {
    TexDesc {
        width: w,
        height: h,
        layers: 1,
        levels,
        bpp: 4,
        base: 0x4000,
        dim: Dim::D2,
        sparse: false,
    }
}

fn quad(tex: &TexDesc, smp: SamplerDesc, s: [u32; 4], t: u32, level: u32) -> TexAddrTxn {
    TexAddrTxn {
        form: Form::Direct {
            tex: tex.clone(),
            nonresident: vec![],
            sampler: smp,
            lanes: s.map(|s| Lane {
                s,
                t,
                layer: 0,
                offset: [0, 0],
            }),
        },
        op: Op::Sample,
        level,
        mip: None,
        lambda: [0; 4],
        lod_warning: [false; 4],
    }
}

fn smp(wrap: Wrap, linear: bool, unnormalized: bool) -> SamplerDesc {
    SamplerDesc {
        wrap_s: wrap,
        wrap_t: wrap,
        linear,
        unnormalized,
    }
}

const NAN: u32 = 0x7FC0_0000;
const NEG_NAN: u32 = 0xFFC0_0001;
const INF: u32 = 0x7F80_0000;
const NEG_INF: u32 = 0xFF80_0000;

#[test]
fn nan_reads_as_zero_and_infinities_wrap_or_clamp() {
    let t = tex2d(8, 8, 1);
    let quarter = fb(0.3);
    for (mode, name) in Wrap::ALL {
        for linear in [false, true] {
            for un in [false, true] {
                let s = smp(mode, linear, un);
                let r = golden(&quad(&t, s, [NAN, NEG_NAN, INF, NEG_INF], quarter, 0));
                let zero = golden(&quad(&t, s, [0; 4], quarter, 0));
                // NaN (either sign, any payload) is 0.0.
                assert_eq!(r.lanes[0], zero.lanes[0], "{name} NaN");
                assert_eq!(r.lanes[1], zero.lanes[1], "{name} -NaN");
                let periodic = matches!(mode, Wrap::Repeat | Wrap::MirroredRepeat);
                if periodic && !un {
                    // ±Inf normalized: the limit of huge floats (even integers) ⇒ as 0.
                    assert_eq!(r.lanes[2], zero.lanes[2], "{name} +Inf");
                    assert_eq!(r.lanes[3], zero.lanes[3], "{name} -Inf");
                    continue;
                }
                // Otherwise ±Inf saturate the 24.8 coordinate (±2^22 texels) and then wrap:
                // the edge texel for the clamp modes.
                let is = |l: usize| r.lanes[l].taps.iter().map(|tp| tp.i).collect::<Vec<_>>();
                let sat: [[i128; 2]; 2] = if linear {
                    [[(1 << 22) - 1, 1 << 22], [-(1 << 22) - 1, -(1 << 22)]]
                } else {
                    [[(1 << 22) - 1; 2], [-(1 << 22); 2]]
                };
                for (l, raw) in [(2, sat[0]), (3, sat[1])] {
                    let want: Vec<i32> = r.lanes[l]
                        .taps
                        .iter()
                        .enumerate()
                        .map(|(k, _)| ideal::wrap(raw[k & 1], 8, mode).0 as i32)
                        .collect();
                    assert_eq!(
                        is(l),
                        want,
                        "{name} linear {linear} unnormalized {un} lane {l}"
                    );
                }
                let edge = match mode {
                    Wrap::ClampToBorder => Some((8, -1)),
                    Wrap::MirrorClampToEdge => Some((7, 7)),
                    Wrap::ClampToEdge => Some((7, 0)),
                    _ => None,
                };
                if let Some((pos, neg)) = edge {
                    assert!(is(2).iter().all(|&i| i == pos), "{name} +Inf: {:?}", is(2));
                    assert!(is(3).iter().all(|&i| i == neg), "{name} -Inf: {:?}", is(3));
                }
                if mode == Wrap::ClampToBorder {
                    assert!(r.lanes[2].taps.iter().all(|tp| tp.border && tp.addr == 0));
                    assert!(r.lanes[2].req == 0 && r.lanes[3].req == 0);
                }
            }
        }
    }
}

#[test]
fn denormal_coordinates_are_flushed_to_zero() {
    let t = tex2d(8, 8, 1);
    let half = fb(0.5);
    for (mode, name) in Wrap::ALL {
        for linear in [false, true] {
            let s = smp(mode, linear, false);
            let r = golden(&quad(
                &t,
                s,
                [0x0000_0001, 0x8000_0001, 0x007F_FFFF, 0x807F_FFFF],
                half,
                0,
            ));
            let zero = golden(&quad(&t, s, [0; 4], half, 0));
            for l in 0..4 {
                assert_eq!(r.lanes[l], zero.lanes[l], "{name} linear {linear} lane {l}");
            }
        }
    }
    // The ideal keeps a negative denormal negative: nearest ⌊−tiny⌋ = −1 is a border texel there,
    // texel 0 in the golden model (one of the counted exceptions near a boundary).
    let r = golden(&quad(
        &t,
        smp(Wrap::ClampToBorder, false, false),
        [0x8000_0001; 4],
        half,
        0,
    ));
    assert_eq!(
        (r.lanes[0].taps[0].i, r.lanes[0].taps[0].border),
        (0, false)
    );
    let id = ideal::axis(
        f32::from_bits(0x8000_0001),
        8,
        Wrap::ClampToBorder,
        false,
        false,
        0,
    )
    .unwrap();
    assert_eq!((id.i[0], id.border[0]), (-1, true));
    assert!(id.boundary_distance() < 1e-40);
    // Linear on +denormal: as 0.0 ⇒ taps −1 and 0 with weight 128.
    let r = golden(&quad(
        &t,
        smp(Wrap::ClampToEdge, true, false),
        [1; 4],
        half,
        0,
    ));
    assert_eq!(r.lanes[0].wu, 128);
    assert_eq!(
        r.lanes[0].taps.iter().map(|tp| tp.i).collect::<Vec<_>>(),
        [0, 0, 0, 0]
    );
}

#[test]
fn one_by_one_textures_always_address_texel_zero() {
    let t = tex2d(1, 1, 1);
    let coords = [0.0f32, 0.25, 0.5, 0.999, 1.0, -0.5, 7.75, -1e6, 3e38];
    for (mode, name) in Wrap::ALL {
        for linear in [false, true] {
            for un in [false, true] {
                for c in coords.chunks(4) {
                    let s: [u32; 4] = std::array::from_fn(|k| fb(c[k % c.len()]));
                    let r = golden(&quad(&t, smp(mode, linear, un), s, fb(0.4), 0));
                    for (l, lane) in r.lanes.iter().enumerate() {
                        for tp in &lane.taps {
                            if tp.border {
                                assert_eq!(mode, Wrap::ClampToBorder, "{name}");
                                assert!(tp.i == -1 || tp.i == 1 || tp.j == -1 || tp.j == 1);
                                assert_eq!(tp.addr, 0);
                            } else {
                                assert_eq!(
                                    (tp.i, tp.j, tp.addr),
                                    (0, 0, t.base),
                                    "{name} lane {l}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn the_last_level_and_levels_beyond_it() {
    // 37×21, six levels: level 5 is 1×1; level 9 clamps to it; TXQ does not clamp.
    let mut t = tex2d(37, 21, 6);
    t.dim = Dim::Array2D;
    t.layers = 3;
    t.bpp = 16;
    let s = smp(Wrap::Repeat, true, false);
    for level in [5, 9, 15] {
        let mut q = quad(
            &t,
            s,
            [fb(0.3), fb(-2.7), fb(100.1), fb(0.5)],
            fb(0.6),
            level,
        );
        if let Form::Direct { lanes, .. } = &mut q.form {
            lanes[3].layer = 2;
            lanes[2].layer = 60;
        }
        let r = golden(&q);
        for (l, lane) in r.lanes.iter().enumerate() {
            assert_eq!(lane.taps.len(), 4);
            for tp in &lane.taps {
                assert_eq!((tp.i, tp.j, tp.level), (0, 0, 5));
                let layer = [0, 0, 2, 2][l];
                assert_eq!(tp.layer, layer);
                assert_eq!(
                    u128::from(tp.addr),
                    ideal::texel_address(&t, 5, 0, 0, layer)
                );
            }
        }
    }
    // Level starts: 256-aligned per level, all layers of a level together.
    let l5 = ideal::level_start(&t, 5) - u128::from(t.base);
    let sizes: u128 = [(37, 21), (18, 10), (9, 5), (4, 2), (2, 1)]
        .iter()
        .map(|(w, h)| (w * h * 16 * 3u128).div_ceil(256) * 256)
        .sum();
    assert_eq!(l5, sizes);
    let mut q = quad(&t, s, [0; 4], 0, 5);
    q.op = Op::Txq;
    assert_eq!(golden(&q).size, [1, 1, 3, 6]);
    q.level = 0;
    assert_eq!(golden(&q).size, [37, 21, 3, 6]);
    q.level = 6;
    assert_eq!(golden(&q).size, [0, 0, 0, 6]);
}

// ------------------------------------------------------------------------------------------------
// JSON round trip and stimulus coverage
// ------------------------------------------------------------------------------------------------

#[test]
fn stimulus_vectors_round_trip_through_json() {
    let vs = random(11, 10_000);
    for (k, t) in vs.iter().enumerate() {
        let line = txn_json(t).to_string();
        let back = parse_line(&line).unwrap_or_else(|e| panic!("vector {k}: {e}: {line}"));
        assert_eq!(&back, t, "vector {k}: {line}");
        let r: Value = result_json(&golden(t));
        assert!(r["lanes"].is_array());
    }
}

#[test]
fn stimulus_covers_the_cases() {
    let start = Instant::now();
    let vs = random(3, 20_000);
    let mut faults = [0u32; 7];
    let mut wraps = [[0u32; 5]; 2];
    let (mut linear, mut unnorm, mut trilinear, mut txq, mut txq_out) = (0, 0, 0, 0, 0);
    let (mut txd, mut direct, mut legacy, mut ogl, mut bindless) = (0, 0, 0, 0, 0);
    let mut param_a = [0u32; 8];
    let (mut sparse_lanes, mut failed_lanes, mut border_taps, mut offsets) = (0, 0, 0, 0);
    let (mut layer_clamped, mut wrapping_bases) = (0, 0);
    let mut bpp = [0u32; 5];
    let mut dims = [0u32; 8];
    let (mut sizes_1, mut sizes_max, mut npot) = (0, 0, 0);
    for t in &vs {
        let r = golden(t);
        faults[r.fault as usize] += 1;
        let x = t.lower();
        match &t.form {
            Form::Direct { lanes, .. } => {
                direct += 1;
                offsets += lanes.iter().filter(|l| l.offset != [0, 0]).count();
            }
            Form::Txd(x) => {
                txd += 1;
                legacy += u32::from(x.legacy.is_some());
                ogl += u32::from(x.ogl);
                bindless += u32::from(x.bindless);
                param_a[x.param_a as usize] += 1;
            }
        }
        if r.fault != Fault::None {
            continue;
        }
        let (hdr, sp) = x.pointers();
        let h = texpix_tb::texaddr::HeaderFields::from_words(&x.header(hdr).words);
        let sw = x.sampler(sp);
        wraps[0][(sw & 7) as usize] += 1;
        wraps[1][((sw >> 3) & 7) as usize] += 1;
        linear += u32::from(sw & 0x40 != 0);
        unnorm += u32::from(sw & 0x80 != 0);
        trilinear += u32::from(t.mip.is_some());
        bpp[h.bpp_log2 as usize] += 1;
        dims[h.dim as usize] += 1;
        sizes_1 += u32::from(h.width == 1 || h.height == 1);
        sizes_max += u32::from(h.width == 32768 || h.height == 32768);
        npot += u32::from(!h.width.is_power_of_two());
        let size = texpix_tb::texaddr::stim::texture_bytes(&TexDesc {
            width: h.width,
            height: h.height,
            layers: h.layers,
            levels: h.levels,
            bpp: 1 << h.bpp_log2,
            base: 0,
            dim: h.dim,
            sparse: false,
        });
        wrapping_bases += u32::from(u128::from(h.base) + size > 1 << 48);
        if t.op == Op::Txq {
            txq += 1;
            txq_out += u32::from(t.level >= h.levels);
            continue;
        }
        for (l, lane) in r.lanes.iter().enumerate() {
            border_taps += lane.taps.iter().filter(|tp| tp.border).count();
            if h.sparse {
                sparse_lanes += 1;
                failed_lanes += u32::from(lane.fail);
            }
            if h.dim.is_array() {
                let ops = texpix_tb::texaddr::unpack_lane(&x, &x.ra[l]);
                layer_clamped +=
                    u32::from(ops.array >= h.layers && Dim::from_code(x.param_a).is_array());
            }
        }
    }
    let n = vs.len() as f64;
    let fault_rate = (n - f64::from(faults[0])) / n;
    let fail_rate = f64::from(failed_lanes) / f64::from(sparse_lanes);
    println!(
        "{} vectors ({direct} direct, {txd} TXD: {bindless} bindless, {legacy} legacy, {ogl} OpenGL, \
         paramA {param_a:?}); faults {faults:?} ({:.1} %); wrap_s {:?} wrap_t {:?}; linear {linear} \
         unnormalized {unnorm} trilinear {trilinear}; TXQ {txq} ({txq_out} out of range); bpp {bpp:?}; \
         dims {dims:?}; 1-texel axes {sizes_1}, 32768 {sizes_max}, non-power-of-two widths {npot}; \
         {offsets} lanes with offsets; {border_taps} border taps; {layer_clamped} array indices \
         clamped; {wrapping_bases} bases wrapping past 2^48; sparse lanes {sparse_lanes}, failed \
         {failed_lanes} ({:.1} %); {:.2} s",
        vs.len(),
        100.0 * fault_rate,
        wraps[0],
        wraps[1],
        100.0 * fail_rate,
        start.elapsed().as_secs_f64()
    );
    assert!(
        (0.05..0.15).contains(&fault_rate),
        "fault rate {fault_rate}"
    );
    assert!(faults.iter().all(|&f| f > 20), "{faults:?}");
    assert!(wraps.iter().flatten().all(|&w| w > 500));
    assert!(param_a.iter().all(|&p| p > 20), "{param_a:?}");
    assert!(bpp.iter().all(|&b| b > 500) && dims[..2].iter().all(|&d| d > 500));
    assert!(dims[4] > 500 && dims[5] > 500);
    assert!(
        (0.2..0.5).contains(&fail_rate),
        "sparse fail rate {fail_rate}"
    );
    assert!(txq > 200 && txq_out > 50 && trilinear > 2000 && layer_clamped > 200);
    assert!(sizes_1 > 100 && sizes_max > 100 && border_taps > 1000 && wrapping_bases > 50);
    assert!(f64::from(wrapping_bases) < 0.05 * n);
}
