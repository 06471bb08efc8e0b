//! Texture-address vectors and results as JSON Lines (docs/units/texaddr.md §11).
//!
//! A vector comes in one of two forms (exactly one; both or neither is an error):
//! - **direct**: `tex` {`width`, `height` 1…32768, `layers` 1…65536 (default 1), `levels` 1…16,
//!   `bpp` 1|2|4|8|16, `base` 0…2^48−1 (bytes), `dim` (a name of [`Dim::ALL`]: "1d", "2d",
//!   "1d_array", "2d_array"; also "3d", "cube", "3d_array", "cube_array", whose paramA rows TXD
//!   reserves: `reserved_param_a`), `sparse` (default false), `nonresident` [[level, tile], …] (64 KiB tiles,
//!   only with `"sparse": true`)}, `sampler` {`wrap_s`, `wrap_t` (names of [`Wrap::ALL`], both
//!   required), `filter` "nearest"|"linear", `unnormalized` (default false)}, `lanes` [4]{`s`, `t`
//!   (f32, `t` default 0), `layer` 0…65535 (default 0), `offset` [du, dv] −8…7 (default [0, 0])}.
//!   `lanes` may be left out of a TXQ vector (all zero).
//! - **TXD**: `txd` {`bindless`, `lc`, `aoffi` (default false), `param_a` (a name of [`Dim::ALL`]
//!   or the code 0…7), `ts_idx` 0…8191 or the legacy pair `tid` 0…255 and `smp` 0…31 (ts_idx =
//!   smp·256 + tid; one of the two spellings is required without `bindless`, ts_idx defaults to 0
//!   with it), `ogl` (default false), `ra` [4 lanes][1…4 register words] (missing words are 0; a
//!   word is a u32 bit pattern, or, as for f32 fields, a number with a fraction or exponent or a
//!   string, stored as its f32 bits), `cbank` [[index 0…8191, u32], …] (default []),
//!   `header_max`, `sampler_max` 0…2^20−1 (required), `headers` [[index 0…2^20−1, header], …]
//!   with a header a `tex` object as above (encoded by [`TexDesc::to_words`]), `{"raw": [4 u32],
//!   "nonresident"?: […]}` or `null` (all zero: unbound), `samplers` [[index 0…2^20−1, sampler],
//!   …] with a sampler a `sampler` object or `{"raw": u32}` (both lists default to [])}.
//! - common: `level` 0…15 (required), `mip` {`level1` 0…15, `frac` 0…255} (trilinear),
//!   `op` "sample" (default) | "txq", `lambda` [4] λ·256 (i32, default 0), `lod_warning` [4] bool
//!   (default false).
//!
//! Unknown fields are errors; every error names the field's path (`lanes[2].offset[0]`,
//! `txd.headers[1][1].bpp`). [`txn_json`] is the inverse of [`parse_line`]: it prints the direct
//! form with the fields of the conformance examples and leaves out defaults they omit (`sparse`,
//! `op`, `mip`, `lambda`, `lod_warning`, a zero `offset`, a zero `layer` of a non-array texture); a
//! header or sampler word that a `tex` / `sampler` object encodes exactly is printed as that
//! object, any other as `raw`.
//!
//! Results ([`result_json`]): `lanes` [4]{`taps` [{`i`, `j`, `layer`, `level`, `addr`,
//! `border`}], `wu`, `wv`, `wu1`, `wv1` (level 1's weights, 0 unless trilinear), `req` (memory
//! request mask, bit k for tap k), `fail` (TEXEL_FAIL), `status` (the TFE word), `lod_clamp`},
//! `fault` (a name of [`Fault::ALL`]), `frac` (mip fraction), `size` [4] (TXQ).

use super::{
    Dim, Form, Header, HeaderFields, Lane, Op, SamplerDesc, TexAddrResult, TexAddrTxn, TexDesc,
    Txd, Wrap,
};
use crate::vectors::{
    array, boolean, check_fields, f32_bits, int, join, name, object, opt, parse_object, ranged,
    req, FieldError,
};
use serde_json::{json, Map, Value};

const FILTERS: [(bool, &str); 2] = [(false, "nearest"), (true, "linear")];
const OPS: [(Op, &str); 2] = [(Op::Sample, "sample"), (Op::Txq, "txq")];
const BPPS: [u32; 5] = [1, 2, 4, 8, 16];
/// Largest header / sampler pool index (a 20-bit header pointer).
const POOL_MAX: i64 = (1 << 20) - 1;

fn u32_int(v: &Value, field: &str) -> Result<u32, FieldError> {
    int(v, field, 0, u32::MAX.into()).map(|x| x as u32)
}

/// `[[level, tile], …]`.
fn parse_nonresident(v: &Value, field: &str) -> Result<Vec<(u32, u64)>, FieldError> {
    let a = array(v, field, None)?;
    let mut out = Vec::with_capacity(a.len());
    for (k, e) in a.iter().enumerate() {
        let f = format!("{field}[{k}]");
        let p = array(e, &f, Some(2))?;
        out.push((
            int(&p[0], &format!("{f}[0]"), 0, 15)? as u32,
            int(&p[1], &format!("{f}[1]"), 0, u32::MAX.into())? as u64,
        ));
    }
    Ok(out)
}

/// A `tex` object: the texture and its non-resident tiles.
fn parse_tex(v: &Value, path: &str) -> Result<(TexDesc, Vec<(u32, u64)>), FieldError> {
    let m = object(v, path)?;
    check_fields(
        m,
        path,
        &[
            "width",
            "height",
            "layers",
            "levels",
            "bpp",
            "base",
            "dim",
            "sparse",
            "nonresident",
        ],
    )?;
    let bpp = req(m, path, "bpp", ranged(1, 16))? as u32;
    if !BPPS.contains(&bpp) {
        return Err(FieldError::new(
            join(path, "bpp"),
            format!("expected one of {BPPS:?} (bytes per texel), found {bpp}"),
        ));
    }
    let tex = TexDesc {
        width: req(m, path, "width", ranged(1, 32768))? as u32,
        height: req(m, path, "height", ranged(1, 32768))? as u32,
        layers: opt(m, path, "layers", 1, ranged(1, 65536))? as u32,
        levels: req(m, path, "levels", ranged(1, 16))? as u32,
        bpp,
        base: req(m, path, "base", ranged(0, (1 << 48) - 1))? as u64,
        dim: req(m, path, "dim", |v, f| name(v, f, &Dim::ALL))?,
        sparse: opt(m, path, "sparse", false, boolean)?,
    };
    let nonresident = opt(m, path, "nonresident", Vec::new(), parse_nonresident)?;
    if m.contains_key("nonresident") && !tex.sparse {
        return Err(FieldError::new(
            join(path, "nonresident"),
            "a residency map is allowed only with \"sparse\": true",
        ));
    }
    Ok((tex, nonresident))
}

fn parse_sampler(v: &Value, path: &str) -> Result<SamplerDesc, FieldError> {
    let m = object(v, path)?;
    check_fields(m, path, &["wrap_s", "wrap_t", "filter", "unnormalized"])?;
    Ok(SamplerDesc {
        wrap_s: req(m, path, "wrap_s", |v, f| name(v, f, &Wrap::ALL))?,
        wrap_t: req(m, path, "wrap_t", |v, f| name(v, f, &Wrap::ALL))?,
        linear: req(m, path, "filter", |v, f| name(v, f, &FILTERS))?,
        unnormalized: opt(m, path, "unnormalized", false, boolean)?,
    })
}

fn parse_lanes(v: &Value, field: &str) -> Result<[Lane; 4], FieldError> {
    let a = array(v, field, Some(4))?;
    let mut out = [Lane::default(); 4];
    for (l, e) in a.iter().enumerate() {
        let p = format!("{field}[{l}]");
        let m = object(e, &p)?;
        check_fields(m, &p, &["s", "t", "layer", "offset"])?;
        let offset = opt(m, &p, "offset", [0, 0], |v, f| {
            let o = array(v, f, Some(2))?;
            Ok([
                int(&o[0], &format!("{f}[0]"), -8, 7)? as i32,
                int(&o[1], &format!("{f}[1]"), -8, 7)? as i32,
            ])
        })?;
        out[l] = Lane {
            s: req(m, &p, "s", f32_bits)?,
            t: opt(m, &p, "t", 0, f32_bits)?,
            layer: opt(m, &p, "layer", 0, ranged(0, 65535))? as u32,
            offset,
        };
    }
    Ok(out)
}

/// A header pool entry: a `tex` object, `{"raw": [4 u32], "nonresident"?}` or null.
fn parse_header(v: &Value, path: &str) -> Result<Header, FieldError> {
    if v.is_null() {
        return Ok(Header::default());
    }
    let m = object(v, path)?;
    if m.contains_key("raw") {
        check_fields(m, path, &["raw", "nonresident"])?;
        let f = join(path, "raw");
        let a = array(&m["raw"], &f, Some(4))?;
        let mut words = [0; 4];
        for (k, x) in a.iter().enumerate() {
            words[k] = u32_int(x, &format!("{f}[{k}]"))?;
        }
        let nonresident = opt(m, path, "nonresident", Vec::new(), parse_nonresident)?;
        return Ok(Header { words, nonresident });
    }
    let (tex, nonresident) = parse_tex(v, path)?;
    Ok(Header {
        words: tex.to_words(),
        nonresident,
    })
}

/// A sampler pool entry: a `sampler` object or `{"raw": u32}`.
fn parse_sampler_word(v: &Value, path: &str) -> Result<u32, FieldError> {
    let m = object(v, path)?;
    if m.contains_key("raw") {
        check_fields(m, path, &["raw"])?;
        return u32_int(&m["raw"], &join(path, "raw"));
    }
    Ok(parse_sampler(v, path)?.to_word())
}

/// `[[index, entry], …]`.
fn parse_pool<T>(
    v: &Value,
    field: &str,
    max_index: i64,
    entry: impl Fn(&Value, &str) -> Result<T, FieldError>,
) -> Result<Vec<(u32, T)>, FieldError> {
    let a = array(v, field, None)?;
    let mut out = Vec::with_capacity(a.len());
    for (k, e) in a.iter().enumerate() {
        let f = format!("{field}[{k}]");
        let p = array(e, &f, Some(2))?;
        let idx = int(&p[0], &format!("{f}[0]"), 0, max_index)? as u32;
        out.push((idx, entry(&p[1], &format!("{f}[1]"))?));
    }
    Ok(out)
}

fn parse_param_a(v: &Value, field: &str) -> Result<u32, FieldError> {
    if v.is_number() {
        return int(v, field, 0, 7).map(|x| x as u32);
    }
    let list: Vec<&str> = Dim::ALL.iter().map(|n| n.1).collect();
    v.as_str()
        .and_then(|s| Dim::ALL.iter().find(|n| n.1 == s).map(|n| n.0 as u32))
        .ok_or_else(|| {
            FieldError::new(
                field,
                format!("expected one of {list:?} or a code 0..=7, found {v}"),
            )
        })
}

fn parse_txd(v: &Value) -> Result<Txd, FieldError> {
    let p = "txd";
    let m = object(v, p)?;
    check_fields(
        m,
        p,
        &[
            "bindless",
            "lc",
            "aoffi",
            "param_a",
            "ts_idx",
            "tid",
            "smp",
            "ogl",
            "ra",
            "cbank",
            "header_max",
            "sampler_max",
            "headers",
            "samplers",
        ],
    )?;
    let bindless = opt(m, p, "bindless", false, boolean)?;
    let (ts_idx, legacy) = match (m.get("ts_idx"), m.get("tid"), m.get("smp")) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            return Err(FieldError::new(
                "txd.ts_idx",
                "give either `ts_idx` or the legacy `tid` and `smp`, not both",
            ))
        }
        (Some(x), None, None) => (int(x, "txd.ts_idx", 0, 8191)? as u32, None),
        (None, Some(t), Some(s)) => {
            let tid = int(t, "txd.tid", 0, 255)? as u32;
            let smp = int(s, "txd.smp", 0, 31)? as u32;
            (smp << 8 | tid, Some((tid, smp)))
        }
        (None, Some(_), None) => {
            return Err(FieldError::new(
                "txd.smp",
                "missing required field (the legacy form needs both `tid` and `smp`)",
            ))
        }
        (None, None, Some(_)) => {
            return Err(FieldError::new(
                "txd.tid",
                "missing required field (the legacy form needs both `tid` and `smp`)",
            ))
        }
        (None, None, None) if bindless => (0, None),
        (None, None, None) => {
            return Err(FieldError::new(
                "txd.ts_idx",
                "missing required field without `bindless` (or give `tid` and `smp`)",
            ))
        }
    };
    let ra = req(m, p, "ra", |v, f| {
        let a = array(v, f, Some(4))?;
        let mut out = [[0u32; 4]; 4];
        for (l, e) in a.iter().enumerate() {
            let fl = format!("{f}[{l}]");
            let w = array(e, &fl, None)?;
            if w.is_empty() || w.len() > 4 {
                return Err(FieldError::new(
                    fl,
                    format!("expected 1…4 register words, found {}", w.len()),
                ));
            }
            for (k, x) in w.iter().enumerate() {
                out[l][k] = f32_bits(x, &format!("{fl}[{k}]"))?;
            }
        }
        Ok(out)
    })?;
    Ok(Txd {
        bindless,
        lc: opt(m, p, "lc", false, boolean)?,
        aoffi: opt(m, p, "aoffi", false, boolean)?,
        param_a: req(m, p, "param_a", parse_param_a)?,
        ts_idx,
        legacy,
        ogl: opt(m, p, "ogl", false, boolean)?,
        ra,
        cbank: opt(m, p, "cbank", Vec::new(), |v, f| {
            parse_pool(v, f, 8191, u32_int)
        })?,
        header_max: req(m, p, "header_max", ranged(0, POOL_MAX))? as u32,
        sampler_max: req(m, p, "sampler_max", ranged(0, POOL_MAX))? as u32,
        headers: opt(m, p, "headers", Vec::new(), |v, f| {
            parse_pool(v, f, POOL_MAX, parse_header)
        })?,
        samplers: opt(m, p, "samplers", Vec::new(), |v, f| {
            parse_pool(v, f, POOL_MAX, parse_sampler_word)
        })?,
    })
}

/// Parses one texaddr vector.
pub fn parse_line(line: &str) -> Result<TexAddrTxn, FieldError> {
    let o = parse_object(line)?;
    check_fields(
        &o,
        "",
        &[
            "tex",
            "sampler",
            "lanes",
            "txd",
            "level",
            "mip",
            "op",
            "lambda",
            "lod_warning",
        ],
    )?;
    let op = opt(&o, "", "op", Op::Sample, |v, f| name(v, f, &OPS))?;
    let direct = ["tex", "sampler", "lanes"]
        .iter()
        .find(|k| o.contains_key(**k));
    let form = match (o.get("txd"), direct) {
        (Some(_), Some(k)) => {
            return Err(FieldError::new(
                "txd",
                format!("give either the direct form (`tex`, `sampler`, `lanes`) or `txd`, not both (found `{k}` too)"),
            ))
        }
        (None, None) => {
            return Err(FieldError::new(
                "tex",
                "missing required field (give the direct form `tex`, `sampler`, `lanes`, or `txd`)",
            ))
        }
        (Some(t), None) => Form::Txd(parse_txd(t)?),
        (None, Some(_)) => {
            let (tex, nonresident) = req(&o, "", "tex", parse_tex)?;
            let sampler = req(&o, "", "sampler", parse_sampler)?;
            let lanes = if op == Op::Txq {
                opt(&o, "", "lanes", [Lane::default(); 4], parse_lanes)?
            } else {
                req(&o, "", "lanes", parse_lanes)?
            };
            Form::Direct {
                tex,
                nonresident,
                sampler,
                lanes,
            }
        }
    };
    let mip = opt(&o, "", "mip", None, |v, f| {
        let m = object(v, f)?;
        check_fields(m, f, &["level1", "frac"])?;
        Ok(Some((
            req(m, f, "level1", ranged(0, 15))? as u32,
            req(m, f, "frac", ranged(0, 255))? as u32,
        )))
    })?;
    let lambda = opt(&o, "", "lambda", [0; 4], |v, f| {
        let a = array(v, f, Some(4))?;
        let mut out = [0; 4];
        for (l, x) in a.iter().enumerate() {
            out[l] = int(x, &format!("{f}[{l}]"), i32::MIN.into(), i32::MAX.into())? as i32;
        }
        Ok(out)
    })?;
    let lod_warning = opt(&o, "", "lod_warning", [false; 4], |v, f| {
        let a = array(v, f, Some(4))?;
        let mut out = [false; 4];
        for (l, x) in a.iter().enumerate() {
            out[l] = boolean(x, &format!("{f}[{l}]"))?;
        }
        Ok(out)
    })?;
    Ok(TexAddrTxn {
        form,
        op,
        level: req(&o, "", "level", ranged(0, 15))? as u32,
        mip,
        lambda,
        lod_warning,
    })
}

fn tex_json(t: &TexDesc, nonresident: &[(u32, u64)]) -> Value {
    let mut v = json!({
        "width": t.width, "height": t.height, "layers": t.layers, "levels": t.levels,
        "bpp": t.bpp, "base": t.base, "dim": t.dim.name(),
    });
    if t.sparse {
        v["sparse"] = json!(true);
        if !nonresident.is_empty() {
            v["nonresident"] = json!(nonresident);
        }
    }
    v
}

fn sampler_json(s: &SamplerDesc) -> Value {
    json!({
        "wrap_s": s.wrap_s.name(), "wrap_t": s.wrap_t.name(),
        "filter": FILTERS[usize::from(s.linear)].1, "unnormalized": s.unnormalized,
    })
}

/// The texture a header's words encode, if a `tex` object gives exactly these words.
fn header_tex(words: &[u32; 4]) -> Option<TexDesc> {
    let f = HeaderFields::from_words(words);
    if f.bpp_log2 > 4 {
        return None;
    }
    let t = TexDesc {
        width: f.width,
        height: f.height,
        layers: f.layers,
        levels: f.levels,
        bpp: 1 << f.bpp_log2,
        base: f.base,
        dim: f.dim,
        sparse: f.sparse,
    };
    (t.to_words() == *words).then_some(t)
}

fn header_json(h: &Header) -> Value {
    if h.words == [0; 4] && h.nonresident.is_empty() {
        return Value::Null;
    }
    match header_tex(&h.words) {
        Some(t) if t.sparse || h.nonresident.is_empty() => tex_json(&t, &h.nonresident),
        _ => {
            let mut v = json!({ "raw": h.words });
            if !h.nonresident.is_empty() {
                v["nonresident"] = json!(h.nonresident);
            }
            v
        }
    }
}

fn sampler_word_json(w: u32) -> Value {
    match (Wrap::from_code(w & 7), Wrap::from_code((w >> 3) & 7)) {
        (Some(wrap_s), Some(wrap_t)) if w >> 8 == 0 => sampler_json(&SamplerDesc {
            wrap_s,
            wrap_t,
            linear: w & 0x40 != 0,
            unnormalized: w & 0x80 != 0,
        }),
        _ => json!({ "raw": w }),
    }
}

fn txd_json(t: &Txd) -> Value {
    let ra: Vec<Vec<u32>> =
        t.ra.iter()
            .map(|r| {
                let n = r.iter().rposition(|&w| w != 0).map_or(1, |k| k + 1);
                r[..n].to_vec()
            })
            .collect();
    let mut v = json!({
        "bindless": t.bindless, "lc": t.lc, "aoffi": t.aoffi,
        "param_a": Dim::from_code(t.param_a).name(),
        "ogl": t.ogl,
        "ra": ra,
        "cbank": t.cbank,
        "header_max": t.header_max, "sampler_max": t.sampler_max,
        "headers": t.headers.iter().map(|(k, h)| json!([k, header_json(h)])).collect::<Vec<_>>(),
        "samplers": t.samplers.iter().map(|(k, s)| json!([k, sampler_word_json(*s)]))
            .collect::<Vec<_>>(),
    });
    match t.legacy {
        Some((tid, smp)) => {
            v["tid"] = json!(tid);
            v["smp"] = json!(smp);
        }
        None if !t.bindless || t.ts_idx != 0 => v["ts_idx"] = json!(t.ts_idx),
        None => {}
    }
    v
}

fn lane_json(l: &Lane, dim: Dim) -> Value {
    let mut v = json!({"s": l.s, "t": l.t});
    if dim.is_array() || l.layer != 0 {
        v["layer"] = json!(l.layer);
    }
    if l.offset != [0, 0] {
        v["offset"] = json!(l.offset);
    }
    v
}

/// A vector as JSON (the inverse of [`parse_line`]).
pub fn txn_json(t: &TexAddrTxn) -> Value {
    let mut v = Map::new();
    match &t.form {
        Form::Direct {
            tex,
            nonresident,
            sampler,
            lanes,
        } => {
            v.insert("tex".into(), tex_json(tex, nonresident));
            v.insert("sampler".into(), sampler_json(sampler));
            if t.op != Op::Txq || *lanes != [Lane::default(); 4] {
                let l: Vec<Value> = lanes.iter().map(|l| lane_json(l, tex.dim)).collect();
                v.insert("lanes".into(), Value::Array(l));
            }
        }
        Form::Txd(x) => {
            v.insert("txd".into(), txd_json(x));
        }
    }
    v.insert("level".into(), json!(t.level));
    if t.op == Op::Txq {
        v.insert("op".into(), json!("txq"));
    }
    if let Some((level1, frac)) = t.mip {
        v.insert("mip".into(), json!({"level1": level1, "frac": frac}));
    }
    if t.lambda != [0; 4] {
        v.insert("lambda".into(), json!(t.lambda));
    }
    if t.lod_warning != [false; 4] {
        v.insert("lod_warning".into(), json!(t.lod_warning));
    }
    Value::Object(v)
}

/// A result as JSON (see the module documentation).
pub fn result_json(r: &TexAddrResult) -> Value {
    let lanes: Vec<Value> = r
        .lanes
        .iter()
        .map(|l| {
            let taps: Vec<Value> = l
                .taps
                .iter()
                .map(|t| {
                    json!({"i": t.i, "j": t.j, "layer": t.layer, "level": t.level,
                           "addr": t.addr, "border": t.border})
                })
                .collect();
            json!({
                "taps": taps, "wu": l.wu, "wv": l.wv, "wu1": l.wu1, "wv1": l.wv1,
                "req": l.req, "fail": l.fail, "status": l.status, "lod_clamp": l.lod_clamp,
            })
        })
        .collect();
    json!({"lanes": lanes, "fault": r.fault.name(), "frac": r.frac, "size": r.size})
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEX: &str = r#""tex": {"width": 8, "height": 4, "layers": 3, "levels": 2, "bpp": 4, "base": 4096, "dim": "2d_array"}"#;
    const SMP: &str = r#""sampler": {"wrap_s": "repeat", "wrap_t": "clamp_to_edge", "filter": "linear", "unnormalized": false}"#;
    const LANES: &str = r#""lanes": [{"s": 0.5, "t": 0.25, "layer": 1}, {"s": 1065353216, "t": "-0.0", "offset": [-8, 7]}, {"s": "inf"}, {"s": "nan", "t": 2.5e-1, "layer": 65535}]"#;

    fn direct(extra: &str) -> String {
        format!("{{{TEX}, {SMP}, {LANES}, \"level\": 1{extra}}}")
    }

    fn err(line: &str) -> FieldError {
        parse_line(line).expect_err(line)
    }

    /// The direct vector with `from` replaced by `to` in its text.
    fn edited(from: &str, to: &str) -> FieldError {
        let l = direct("");
        assert!(l.contains(from), "{from}");
        err(&l.replacen(from, to, 1))
    }

    const TXD: &str = r#"{"txd": {"param_a": "2d", "ts_idx": 5, "ra": [[1], [2, 3], [0], [1, 2, 3, 4]], "header_max": 3, "sampler_max": 2, "cbank": [[5, 1048577]], "headers": [[1, {"width": 8, "height": 8, "levels": 4, "bpp": 2, "base": 0, "dim": "2d"}], [2, null], [3, {"raw": [1, 2, 3, 4]}]], "samplers": [[1, {"wrap_s": "repeat", "wrap_t": "repeat", "filter": "nearest"}], [2, {"raw": 7}]]}, "level": 0}"#;

    #[test]
    fn parses_the_direct_form_with_defaults_and_conventions() {
        let t = parse_line(&direct("")).unwrap();
        let Form::Direct {
            tex,
            nonresident,
            sampler,
            lanes,
        } = &t.form
        else {
            panic!("direct")
        };
        assert_eq!((tex.width, tex.layers, tex.dim), (8, 3, Dim::Array2D));
        assert!(!tex.sparse && nonresident.is_empty());
        assert!(sampler.linear && sampler.wrap_t == Wrap::ClampToEdge);
        assert_eq!(lanes[0].s, 0.5f32.to_bits());
        assert_eq!(lanes[1].t, 0x8000_0000);
        assert_eq!(lanes[1].offset, [-8, 7]);
        assert_eq!(lanes[2].s, 0x7F80_0000);
        assert_eq!(lanes[2].t, 0);
        assert!(f32::from_bits(lanes[3].s).is_nan());
        assert_eq!(lanes[3].layer, 65535);
        assert_eq!((t.op, t.level, t.mip), (Op::Sample, 1, None));
        assert_eq!(parse_line(&txn_json(&t).to_string()).unwrap(), t);
        // Layers default to 1; unnormalized to false.
        let l = direct("").replace(r#""layers": 3, "#, "");
        let l = l.replace(r#", "unnormalized": false"#, "");
        let Form::Direct { tex, sampler, .. } = parse_line(&l).unwrap().form else {
            panic!()
        };
        assert_eq!(tex.layers, 1);
        assert!(!sampler.unnormalized);
    }

    #[test]
    fn parses_the_txd_form_and_round_trips_it() {
        let t = parse_line(TXD).unwrap();
        let Form::Txd(x) = &t.form else { panic!() };
        assert_eq!(x.param_a, 1);
        assert_eq!(x.ts_idx, 5);
        assert_eq!(x.legacy, None);
        assert_eq!(x.ra[1], [2, 3, 0, 0]);
        assert_eq!(x.header(2), Header::default());
        assert_eq!(x.header(3).words, [1, 2, 3, 4]);
        assert_eq!(x.sampler(2), 7);
        assert_eq!(x.pointers(), (1, 1));
        assert_eq!(parse_line(&txn_json(&t).to_string()).unwrap(), t);
        // Legacy {smp, tid}: ts_idx = smp·256 + tid, printed back as given.
        let l = TXD.replace(r#""ts_idx": 5"#, r#""tid": 7, "smp": 3"#);
        let t = parse_line(&l).unwrap();
        let Form::Txd(x) = &t.form else { panic!() };
        assert_eq!((x.ts_idx, x.legacy), (3 * 256 + 7, Some((7, 3))));
        let j = txn_json(&t);
        assert_eq!(
            (j["txd"]["tid"].as_u64(), j["txd"]["smp"].as_u64()),
            (Some(7), Some(3))
        );
        assert!(j["txd"].get("ts_idx").is_none());
        assert_eq!(parse_line(&j.to_string()).unwrap(), t);
        // paramA as a code; bindless needs no ts_idx.
        let l = TXD
            .replace(r#""param_a": "2d""#, r#""param_a": 6, "bindless": true"#)
            .replace(r#""ts_idx": 5, "#, "");
        let Form::Txd(x) = parse_line(&l).unwrap().form else {
            panic!()
        };
        assert_eq!((x.param_a, x.ts_idx, x.bindless), (6, 0, true));
    }

    #[test]
    fn unknown_fields_are_named() {
        assert_eq!(err(&direct(r#", "lvl": 2"#)).field, "lvl");
        assert_eq!(
            edited(r#""dim""#, r#""depth": 1, "dim""#).field,
            "tex.depth"
        );
        assert_eq!(
            edited(r#""filter""#, r#""aniso": 1, "filter""#).field,
            "sampler.aniso"
        );
        assert_eq!(
            edited(r#""offset": [-8, 7]"#, r#""offset": [-8, 7], "r": 0"#).field,
            "lanes[1].r"
        );
        assert_eq!(
            err(&direct(r#", "mip": {"level1": 1, "frac": 3, "x": 0}"#)).field,
            "mip.x"
        );
        assert_eq!(
            err(&TXD.replace(r#""ts_idx""#, r#""wmsk": 15, "ts_idx""#)).field,
            "txd.wmsk"
        );
        assert_eq!(
            err(&TXD.replace(r#"{"raw": 7}"#, r#"{"raw": 7, "x": 1}"#)).field,
            "txd.samplers[1][1].x"
        );
        assert_eq!(
            err(&TXD.replace(r#""bpp": 2"#, r#""bpp": 2, "pitch": 16"#)).field,
            "txd.headers[0][1].pitch"
        );
        let e = err(&direct(r#", "lvl": 2"#)).to_string();
        assert!(e.contains("unknown field") && e.contains("lvl"), "{e}");
    }

    #[test]
    fn out_of_range_values_are_named() {
        let cases = [
            (r#""width": 8"#, r#""width": 0"#, "tex.width"),
            (r#""width": 8"#, r#""width": 32769"#, "tex.width"),
            (r#""height": 4"#, r#""height": 40000"#, "tex.height"),
            (r#""layers": 3"#, r#""layers": 65537"#, "tex.layers"),
            (r#""levels": 2"#, r#""levels": 17"#, "tex.levels"),
            (r#""bpp": 4"#, r#""bpp": 3"#, "tex.bpp"),
            (r#""bpp": 4"#, r#""bpp": 32"#, "tex.bpp"),
            (r#""base": 4096"#, r#""base": 281474976710656"#, "tex.base"),
            (r#""base": 4096"#, r#""base": -1"#, "tex.base"),
            (r#""layer": 1"#, r#""layer": 65536"#, "lanes[0].layer"),
            (r#"[-8, 7]"#, r#"[-9, 7]"#, "lanes[1].offset[0]"),
            (r#"[-8, 7]"#, r#"[-8, 8]"#, "lanes[1].offset[1]"),
            (r#"[-8, 7]"#, r#"[1]"#, "lanes[1].offset"),
            (r#""s": 0.5"#, r#""s": -3"#, "lanes[0].s"),
            (r#""s": 0.5"#, r#""s": "half""#, "lanes[0].s"),
            (r#""t": 0.25"#, r#""t": 4294967296"#, "lanes[0].t"),
            (r#""repeat""#, r#""wrap""#, "sampler.wrap_s"),
            (r#""linear""#, r#""cubic""#, "sampler.filter"),
            (
                r#""unnormalized": false"#,
                r#""unnormalized": 0"#,
                "sampler.unnormalized",
            ),
        ];
        for (from, to, field) in cases {
            let e = edited(from, to);
            assert_eq!(e.field, field, "{to}: {e}");
        }
        let e = edited(r#""bpp": 4"#, r#""bpp": 3"#);
        assert!(e.message.contains("[1, 2, 4, 8, 16]"), "{e}");
        assert_eq!(err(&direct(r#".5"#)).field, "level");
        assert_eq!(
            err(&direct("").replace(r#""level": 1"#, r#""level": 16"#)).field,
            "level"
        );
        assert_eq!(
            err(&direct(r#", "mip": {"level1": 16, "frac": 0}"#)).field,
            "mip.level1"
        );
        assert_eq!(
            err(&direct(r#", "mip": {"level1": 1, "frac": 256}"#)).field,
            "mip.frac"
        );
        assert_eq!(err(&direct(r#", "mip": {"level1": 1}"#)).field, "mip.frac");
        assert_eq!(err(&direct(r#", "op": "txf""#)).field, "op");
        assert_eq!(
            err(&direct(r#", "lambda": [0, 0, 2147483648, 0]"#)).field,
            "lambda[2]"
        );
        assert_eq!(
            err(&direct(r#", "lod_warning": [true, false, 1, false]"#)).field,
            "lod_warning[2]"
        );
        let txd = [
            (r#""ts_idx": 5"#, r#""ts_idx": 8192"#, "txd.ts_idx"),
            (
                r#""header_max": 3"#,
                r#""header_max": 1048576"#,
                "txd.header_max",
            ),
            (
                r#""sampler_max": 2"#,
                r#""sampler_max": -1"#,
                "txd.sampler_max",
            ),
            (r#"[[5, 1048577]]"#, r#"[[8192, 1]]"#, "txd.cbank[0][0]"),
            (
                r#"[[5, 1048577]]"#,
                r#"[[5, 4294967296]]"#,
                "txd.cbank[0][1]",
            ),
            (r#"[[1], [2, 3]"#, r#"[[], [2, 3]"#, "txd.ra[0]"),
            (r#"[1, 2, 3, 4]]"#, r#"[1, 2, 3, 4, 5]]"#, "txd.ra[3]"),
            (r#"[[1], [2, 3]"#, r#"[[-1], [2, 3]"#, "txd.ra[0][0]"),
            (r#""param_a": "2d""#, r#""param_a": 8"#, "txd.param_a"),
            (r#""param_a": "2d""#, r#""param_a": "2D""#, "txd.param_a"),
            (r#"[1, 2, 3, 4]}"#, r#"[1, 2, 3]}"#, "txd.headers[2][1].raw"),
            (r#"[2, null]"#, r#"[1048576, null]"#, "txd.headers[1][0]"),
            (r#"[2, null]"#, r#"[2]"#, "txd.headers[1]"),
            (r#"{"raw": 7}"#, r#"{"raw": -7}"#, "txd.samplers[1][1].raw"),
            (
                r#""filter": "nearest""#,
                r#""filter": 1"#,
                "txd.samplers[0][1].filter",
            ),
            (r#""bpp": 2"#, r#""bpp": 0"#, "txd.headers[0][1].bpp"),
        ];
        for (from, to, field) in txd {
            assert!(TXD.contains(from), "{from}");
            let e = err(&TXD.replacen(from, to, 1));
            assert_eq!(e.field, field, "{to}: {e}");
        }
    }

    #[test]
    fn forms_must_be_exactly_one() {
        // Both.
        let both = direct(r#", "txd": {}"#);
        let e = err(&both);
        assert_eq!(e.field, "txd");
        assert!(e.message.contains("not both"), "{e}");
        let e = err(&TXD.replace(r#""level": 0"#, &format!("\"level\": 0, {SMP}")));
        assert_eq!(e.field, "txd");
        assert!(e.message.contains("`sampler`"), "{e}");
        // Neither.
        let e = err(r#"{"level": 0}"#);
        assert_eq!(e.field, "tex");
        assert!(e.message.contains("txd"), "{e}");
        // A partial direct form names the missing part.
        assert_eq!(
            err(&format!("{{{TEX}, {SMP}, \"level\": 0}}")).field,
            "lanes"
        );
        assert_eq!(
            err(&format!("{{{TEX}, {LANES}, \"level\": 0}}")).field,
            "sampler"
        );
        // TXQ needs no lanes.
        let t = parse_line(&format!("{{{TEX}, {SMP}, \"level\": 0, \"op\": \"txq\"}}")).unwrap();
        assert_eq!(t.op, Op::Txq);
        assert!(txn_json(&t).get("lanes").is_none());
        // ts_idx and the legacy pair.
        let e = err(&TXD.replace(r#""ts_idx": 5"#, r#""ts_idx": 5, "tid": 1, "smp": 0"#));
        assert_eq!(e.field, "txd.ts_idx");
        assert!(e.message.contains("not both"));
        assert_eq!(
            err(&TXD.replace(r#""ts_idx": 5"#, r#""tid": 1"#)).field,
            "txd.smp"
        );
        assert_eq!(
            err(&TXD.replace(r#""ts_idx": 5"#, r#""smp": 1"#)).field,
            "txd.tid"
        );
        assert_eq!(
            err(&TXD.replace(r#""ts_idx": 5, "#, "")).field,
            "txd.ts_idx"
        );
        assert_eq!(
            err(&TXD.replace(r#""ts_idx": 5"#, r#""tid": 256, "smp": 1"#)).field,
            "txd.tid"
        );
        assert_eq!(
            err(&TXD.replace(r#""ts_idx": 5"#, r#""tid": 2, "smp": 32"#)).field,
            "txd.smp"
        );
        // Required TXD fields.
        assert_eq!(
            err(&TXD.replace(r#""header_max": 3, "#, "")).field,
            "txd.header_max"
        );
        assert_eq!(
            err(&TXD.replace(r#""param_a": "2d", "#, "")).field,
            "txd.param_a"
        );
        // Not an object at all.
        assert!(err("[1]").message.contains("JSON object"));
    }

    #[test]
    fn dim_names_are_checked() {
        let e = edited(r#""2d_array""#, r#""2darray""#);
        assert_eq!(e.field, "tex.dim");
        assert!(e.message.contains("1d_array"), "{e}");
        assert_eq!(edited(r#""2d_array""#, "5").field, "tex.dim");
        // The reserved names parse (the unit rejects them).
        for (d, n) in Dim::ALL {
            let l = direct("").replace(r#""2d_array""#, &format!("\"{n}\""));
            let Form::Direct { tex, .. } = parse_line(&l).unwrap().form else {
                panic!()
            };
            assert_eq!(tex.dim, d);
        }
    }

    #[test]
    fn residency_maps_need_a_sparse_texture() {
        let e = edited(
            r#""dim": "2d_array""#,
            r#""dim": "2d_array", "nonresident": []"#,
        );
        assert_eq!(e.field, "tex.nonresident");
        let l = direct("").replace(
            r#""dim": "2d_array""#,
            r#""dim": "2d_array", "sparse": true, "nonresident": [[0, 1], [1, 4294967295]]"#,
        );
        let t = parse_line(&l).unwrap();
        let Form::Direct { nonresident, .. } = &t.form else {
            panic!()
        };
        assert_eq!(nonresident, &vec![(0, 1), (1, u64::from(u32::MAX))]);
        assert_eq!(parse_line(&txn_json(&t).to_string()).unwrap(), t);
        let bad = l.replace("[1, 4294967295]", "[16, 0]");
        assert_eq!(err(&bad).field, "tex.nonresident[1][0]");
        let bad = l.replace("[1, 4294967295]", "[1, 4294967296]");
        assert_eq!(err(&bad).field, "tex.nonresident[1][1]");
    }

    #[test]
    fn headers_print_as_tex_objects_only_when_exact() {
        let mut t = parse_line(TXD).unwrap();
        let Form::Txd(x) = &mut t.form else { panic!() };
        // A header with a bit no tex object sets prints raw; so does a bad bpp code.
        let mut w = x.header(1).words;
        w[3] |= 1 << 20;
        x.headers.push((
            4,
            Header {
                words: w,
                nonresident: vec![],
            },
        ));
        let mut w = x.header(1).words;
        w[1] = (w[1] & !(7 << 16)) | 6 << 16;
        x.headers.push((
            5,
            Header {
                words: w,
                nonresident: vec![(0, 3)],
            },
        ));
        x.samplers.push((3, 0x105));
        let j = txn_json(&t);
        assert!(j["txd"]["headers"][0][1]["width"].is_u64());
        assert!(j["txd"]["headers"][1][1].is_null());
        assert!(j["txd"]["headers"][3][1]["raw"].is_array());
        assert!(j["txd"]["headers"][4][1]["raw"].is_array());
        assert!(j["txd"]["samplers"][1][1]["raw"].is_u64());
        assert!(j["txd"]["samplers"][2][1]["raw"].is_u64());
        assert_eq!(parse_line(&j.to_string()).unwrap(), t);
    }

    #[test]
    fn results_print_every_field() {
        let t = parse_line(&direct(r#", "mip": {"level1": 0, "frac": 9}"#)).unwrap();
        let r = crate::texaddr::golden(&t);
        let j = result_json(&r);
        assert_eq!(j["fault"], "none");
        assert_eq!(j["frac"], 9);
        assert_eq!(j["lanes"].as_array().unwrap().len(), 4);
        let l0 = &j["lanes"][0];
        assert_eq!(l0["taps"].as_array().unwrap().len(), 8);
        for k in [
            "wu",
            "wv",
            "wu1",
            "wv1",
            "req",
            "fail",
            "status",
            "lod_clamp",
        ] {
            assert!(l0.get(k).is_some(), "{k}");
        }
        for k in ["i", "j", "layer", "level", "addr", "border"] {
            assert!(l0["taps"][0].get(k).is_some(), "{k}");
        }
    }
}
