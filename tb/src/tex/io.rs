//! Texture-unit vectors and results as JSON Lines (docs/units/tex.md, vector fields).
//!
//! A vector is one quad sampling instruction:
//! - `op` (required): a name of [`TexOp::ALL`]: "tex", "txb", "txl", "txd", "txf", "txq",
//!   "gather4", "sample_c", "sample_c_lz", "txp" (`coords` s, t, r divided by q), "lodq" (returns
//!   (λ, unclamped λ', 0, 0) as f32), and ATI CTM's "nop", "lookup_uncached" (past the cache),
//!   "kill_lt_0" (the kill mask of `coords` below 0) plus the aliases "lookup" (= "tex") and
//!   "lookup_proj" (= "txp").
//! - `textures` (required, may be empty): a list of textures, each the address pipeline's `tex`
//!   object (`width`, `height` 1…32768, `layers` 1…65536 (default 1), `levels` 1…16, `base`
//!   0…2^48−1, `dim`, `sparse` (default false), `nonresident` [[level, tile], …] (only with
//!   `"sparse": true`); parsed by [`crate::texaddr::parse_line`], so ranges and messages are the
//!   same) **without** `bpp`, which is the format's ([`Format::bpp`]), plus
//!   - `format` (required): a name of [`Format::ALL`];
//!   - `swizzle`: four letters of `r g b a 0 1`, one per output component (default "rgba");
//!   - the texel data, at most one of: `data`, a string of hex digits (either case, even length,
//!     at most 64 MiB of bytes over the whole vector and no longer than the mip chain) holding
//!     the chain's bytes from `base` in the linear layout (missing bytes read 0); or `fill`
//!     {`kind`: "hash", `seed`: 0…2^64−1} ([`TexData::Hash`]). Neither means all bytes zero
//!     (`TexData::Bytes` of nothing); both is an error.
//!
//!   `dim` accepts every name of [`crate::texaddr::Dim::ALL`] as the address pipeline does; "cube"
//!   and "cube_array" (`layers` = cubes) are sampled as cube maps, and the unit answers
//!   `reserved_param_a` for "3d" and "3d_array". `base` must be
//!   a multiple of the format's texel size (an error names the field otherwise).
//! - `sampler` (default: every field at its default), all fields optional with the values of
//!   [`TexSampler::default`]: `wrap_s`, `wrap_t` (names of [`crate::texaddr::Wrap::ALL`], default
//!   "repeat"), `min_filter`, `mag_filter` ("nearest" (default) | "linear"), `mip_filter` ("none"
//!   (default) | "nearest" | "linear", as the LOD unit names them), `unnormalized` (default
//!   false), `bias` (bias·256, −4096…4096, default 0), `min_lod`, `max_lod` (·256, 0…4095,
//!   defaults 0 and 3840 = 15·256), `compare` (a name of [`Compare::ALL`], default "never"),
//!   `border` [4] (each an f32 field: a bare integer is the bit pattern — for integer formats the
//!   integer itself — a number with a fraction or exponent or a string is a value; default zeros),
//!   `max_aniso` (1…16, default 1: isotropic).
//! - `unit`: index into `textures`, 0…2^32−1 (default 0); an index past the list is unbound.
//! - Per lane, four lanes each:
//!   - `coords` [4][1…4 components] (s, t, r, q; missing components are 0): f32 fields, except for
//!     `txf`, where they are the integers i, j, k, level given as JSON integers −2^31…2^32−1 and
//!     stored as 32-bit two's complement. Required except for `txq` (default zeros there).
//!   - `grad` [4][dsdx, dsdy, dtdx, dtdy] f32 (default zeros).
//!   - `bias` [4] f32 (shader bias for `txb`, default 0).
//!   - `lod` [4]: f32 (explicit LOD for `txl`), or for `txq` the integer level 0…2^32−1 (default
//!     0).
//!   - `ref` [4] f32 (depth reference for `sample_c*`, default 0).
//!   - `offset` [4][du, dv] or [4][du, dv, dw], −8…7 (default zeros; dw, the r offset, moves
//!     only a 3D texture).
//! - `wmask` 0…15 (bit k: component k written; default 15), `gather_comp` 0…3 (default 0).
//! - ATI CTM instruction bits (booleans, default false): `unscaled` (unnormalized coordinates),
//!   `sem_wait`, `sem_acquire` (the texture semaphore).
//! - AMD MIMG instruction bits: `dmask` 0…15 (default 15: the components returned; for
//!   `gather4` exactly one bit, which picks the gathered component instead of `gather_comp`),
//!   booleans `d16`, `tfe`, `lwe`, and `a16`, `g16` (only with `mimg`); `mimg` {`vaddr` [4][n]
//!   (each lane's address dwords, 0…2^32−1, n exactly the form's count for the op, the bound
//!   texture's dimension (2D when unbound) and the flags), `nsa` (default false), `offset`
//!   (default false: the form carries the offset dword)} gives the operands instead of `coords`,
//!   `grad`, `bias`, `lod`, `ref` and `offset` (which are then errors), for every op except
//!   "txp", "nop", "lookup_uncached" and "kill_lt_0" (no MIMG form).
//!
//! Every other field is an error ("unknown field"), and every error names the field's path
//! (`textures[1].format`, `coords[2][0]`, `sampler.border[3]`). [`txn_json`] is the inverse of
//! [`parse_line`]: it leaves out every field equal to its default (`layers` 1, `swizzle` "rgba",
//! empty `data`, default sampler fields and the whole `sampler` when all are default, zero
//! operand arrays (except `coords` outside `txq`), `unit` 0, `wmask` 15, `gather_comp` 0), prints
//! f32 fields as bit patterns, `txf` coordinates as signed integers, `data` in lower case, and
//! trims each lane's `coords` after its last non-zero component.
//!
//! Results ([`result_json`]): `rgba` [4 lanes][4] (f32 bits, or integers for integer formats and
//! `txq`; a component whose write-mask bit is 0 is null), `status` [4] (the TFE words), `fault` (a
//! name of [`crate::texaddr::Fault::ALL`]: "none", "unbound", "bad_descriptor",
//! "reserved_param_a"), `lambda` [4] (λ·256), `mem_lines` (the number of memory requests),
//! `lines` (their line addresses, byte address / 64, in order) and `kill` (`kill_lt_0`'s 4-bit
//! mask, 0 for every other op); with `mimg`, `d16`, `tfe` or `lwe` also `vdata` [4 lanes][n] (the
//! dwords the lane's VGPRs receive: the DMASK components, D16-packed with `d16`, then the status
//! dword with `tfe` or `lwe`), and with `d16` also `d16` [4][n] (the packed data dwords alone).
//! A component outside DMASK is null in `rgba`, like one outside the write mask.

use super::{
    mimg, Compare, Filter, Format, MimgAddress, MimgBits, Swz, TexData, TexOp, TexResult,
    TexSampler, TexTxn, Texture, IDENTITY,
};
use crate::lod::MipFilter;
use crate::texaddr::{self, Form, Lane, Op, SamplerDesc, TexAddrTxn, Wrap};
use crate::vectors::{
    array, boolean, check_fields, f32_bits, int, join, name, object, opt, parse_object, ranged,
    req, FieldError,
};
use serde_json::{json, Map, Value};

/// Largest amount of `data` in one vector, in bytes.
pub const MAX_DATA_BYTES: usize = 64 << 20;

const FILTERS: [(Filter, &str); 2] = [(Filter::Nearest, "nearest"), (Filter::Linear, "linear")];
const FILL_KINDS: [((), &str); 1] = [((), "hash")];
/// The fields of a texture that are the address pipeline's `tex` object.
const TEX_FIELDS: [&str; 8] = [
    "width",
    "height",
    "layers",
    "levels",
    "base",
    "dim",
    "sparse",
    "nonresident",
];
const TEXTURE_FIELDS: [&str; 13] = [
    "width",
    "height",
    "layers",
    "depth",
    "levels",
    "base",
    "dim",
    "sparse",
    "nonresident",
    "format",
    "swizzle",
    "data",
    "fill",
];
const SAMPLER_FIELDS: [&str; 13] = [
    "wrap_s",
    "wrap_t",
    "wrap_r",
    "min_filter",
    "mag_filter",
    "mip_filter",
    "unnormalized",
    "bias",
    "min_lod",
    "max_lod",
    "compare",
    "border",
    "max_aniso",
];
const FIELDS: [&str; 22] = [
    "op",
    "textures",
    "sampler",
    "unit",
    "coords",
    "grad",
    "bias",
    "lod",
    "ref",
    "offset",
    "wmask",
    "gather_comp",
    "unscaled",
    "sem_wait",
    "sem_acquire",
    "dmask",
    "d16",
    "tfe",
    "lwe",
    "a16",
    "g16",
    "mimg",
];
const MIMG_FIELDS: [&str; 3] = ["vaddr", "nsa", "offset"];
/// The per-lane operand fields a MIMG address block replaces.
const OPERAND_FIELDS: [&str; 6] = ["coords", "grad", "bias", "lod", "ref", "offset"];

fn u32_int(v: &Value, field: &str) -> Result<u32, FieldError> {
    int(v, field, 0, u32::MAX.into()).map(|x| x as u32)
}

/// An integer −2^31…2^32−1 as its 32-bit two's complement.
fn word_int(v: &Value, field: &str) -> Result<u32, FieldError> {
    int(v, field, i32::MIN.into(), u32::MAX.into()).map(|x| x as u32)
}

fn u64_int(v: &Value, field: &str) -> Result<u64, FieldError> {
    match v {
        Value::Number(n) if n.is_u64() => Ok(n.as_u64().unwrap_or(0)),
        _ => Err(FieldError::new(
            field,
            format!("expected an integer in 0..={}, found {v}", u64::MAX),
        )),
    }
}

/// Four per-lane scalars.
fn scalars(
    v: &Value,
    field: &str,
    elem: impl Fn(&Value, &str) -> Result<u32, FieldError>,
) -> Result<[u32; 4], FieldError> {
    let a = array(v, field, Some(4))?;
    let mut out = [0; 4];
    for (l, x) in a.iter().enumerate() {
        out[l] = elem(x, &format!("{field}[{l}]"))?;
    }
    Ok(out)
}

/// Four lanes of `min`…4 components each (missing components are 0).
fn quad(
    v: &Value,
    field: &str,
    min: usize,
    elem: impl Fn(&Value, &str) -> Result<u32, FieldError>,
) -> Result<[[u32; 4]; 4], FieldError> {
    let a = array(v, field, Some(4))?;
    let mut out = [[0; 4]; 4];
    for (l, lane) in a.iter().enumerate() {
        let fl = format!("{field}[{l}]");
        let c = array(lane, &fl, None)?;
        if c.len() < min || c.len() > 4 {
            let n = if min == 4 {
                "4".to_string()
            } else {
                format!("{min}…4")
            };
            return Err(FieldError::new(
                fl,
                format!("expected {n} components, found {}", c.len()),
            ));
        }
        for (k, x) in c.iter().enumerate() {
            out[l][k] = elem(x, &format!("{fl}[{k}]"))?;
        }
    }
    Ok(out)
}

fn parse_offsets(v: &Value, field: &str) -> Result<[[i32; 3]; 4], FieldError> {
    let a = array(v, field, Some(4))?;
    let mut out = [[0; 3]; 4];
    for (l, lane) in a.iter().enumerate() {
        let fl = format!("{field}[{l}]");
        let o = array(lane, &fl, None)?;
        if o.len() != 2 && o.len() != 3 {
            return Err(FieldError::new(
                fl,
                format!(
                    "expected [du, dv] or [du, dv, dw], found {} components",
                    o.len()
                ),
            ));
        }
        for (k, x) in o.iter().enumerate() {
            out[l][k] = int(x, &format!("{fl}[{k}]"), -8, 7)? as i32;
        }
    }
    Ok(out)
}

fn parse_swizzle(v: &Value, field: &str) -> Result<[Swz; 4], FieldError> {
    let bad = || {
        FieldError::new(
            field,
            format!("expected 4 letters of r, g, b, a, 0, 1 (e.g. \"bgr1\"), found {v}"),
        )
    };
    let s = v.as_str().ok_or_else(bad)?;
    let sel: Vec<Swz> = s
        .chars()
        .map(|c| Swz::ALL.iter().find(|x| x.1 == c).map(|x| x.0))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    <[Swz; 4]>::try_from(sel).map_err(|_| bad())
}

/// A hex string of at most `limit` bytes.
fn parse_hex(v: &Value, field: &str, limit: usize) -> Result<Vec<u8>, FieldError> {
    let s = v.as_str().ok_or_else(|| {
        FieldError::new(field, format!("expected a string of hex digits, found {v}"))
    })?;
    if s.len() % 2 != 0 {
        return Err(FieldError::new(
            field,
            format!("odd number of hex digits ({}): two per byte", s.len()),
        ));
    }
    if s.len() / 2 > limit {
        return Err(FieldError::new(
            field,
            format!(
                "{} bytes of data, more than the {} bytes (64 MiB) a vector may carry",
                s.len() / 2,
                limit
            ),
        ));
    }
    if let Some((k, c)) = s.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(FieldError::new(
            field,
            format!("`{c}` at character {k} is not a hex digit"),
        ));
    }
    Ok(s.as_bytes()
        .chunks(2)
        .map(|p| {
            let d = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            d(p[0]) << 4 | d(p[1])
        })
        .collect())
}

fn parse_fill(v: &Value, field: &str) -> Result<TexData, FieldError> {
    let m = object(v, field)?;
    check_fields(m, field, &["kind", "seed"])?;
    req(m, field, "kind", |v, f| name(v, f, &FILL_KINDS))?;
    Ok(TexData::Hash(req(m, field, "seed", u64_int)?))
}

/// The address pipeline's reading of a `tex` object (`bpp` included), with its errors moved from
/// `tex…` to `path…`.
fn parse_tex_desc(tex: Map<String, Value>, path: &str) -> Result<Texture, FieldError> {
    let line = json!({
        "tex": tex,
        "sampler": {"wrap_s": "repeat", "wrap_t": "repeat", "filter": "nearest"},
        "level": 0,
        "op": "txq",
    });
    match texaddr::parse_line(&line.to_string()) {
        Ok(TexAddrTxn {
            form: Form::Direct {
                tex, nonresident, ..
            },
            ..
        }) => Ok(Texture {
            desc: tex,
            format: Format::R8,
            swizzle: IDENTITY,
            nonresident,
            data: TexData::Bytes(Vec::new()),
        }),
        Ok(_) => Err(FieldError::new(path, "not a texture")),
        Err(e) => {
            let field = match e.field.strip_prefix("tex") {
                Some(rest) => format!("{path}{rest}"),
                None => path.to_string(),
            };
            Err(FieldError::new(field, e.message))
        }
    }
}

/// One texture of `textures`; `budget` is the data the vector may still carry.
fn parse_texture(v: &Value, path: &str, budget: &mut usize) -> Result<Texture, FieldError> {
    let m = object(v, path)?;
    check_fields(m, path, &TEXTURE_FIELDS)?;
    let formats: Vec<(Format, &str)> = Format::ALL.iter().map(|f| (f.0, f.1)).collect();
    let format = req(m, path, "format", |v, f| name(v, f, &formats))?;
    let mut tex: Map<String, Value> = TEX_FIELDS
        .iter()
        .filter_map(|k| m.get(*k).map(|x| (k.to_string(), x.clone())))
        .collect();
    tex.insert("bpp".into(), json!(format.bpp()));
    let volume = m.get("dim") == Some(&json!("3d"));
    if volume && m.contains_key("layers") {
        return Err(FieldError::new(
            join(path, "layers"),
            "a 3d texture has `depth`, not `layers`",
        ));
    }
    if let Some(d) = m.get("depth") {
        let f = join(path, "depth");
        if !volume {
            return Err(FieldError::new(f, "`depth` is for \"3d\" textures only"));
        }
        let depth = ranged(1, i64::from(super::MAX_DEPTH))(d, &f)?;
        // The header's layer field holds a 3D texture's depth.
        tex.insert("layers".into(), json!(depth));
    }
    let mut t = parse_tex_desc(tex, path)?;
    if t.desc.base % u64::from(format.bpp()) != 0 {
        // The texel datapath reads a texel from within one aligned 8-byte word (16-byte texels:
        // two), so a texture starts on a multiple of its texel size.
        return Err(FieldError::new(
            join(path, "base"),
            format!(
                "{} is not a multiple of the format's texel size ({} bytes)",
                t.desc.base,
                format.bpp()
            ),
        ));
    }
    t.format = format;
    t.swizzle = opt(m, path, "swizzle", IDENTITY, parse_swizzle)?;
    t.data = match (m.get("data"), m.get("fill")) {
        (Some(_), Some(_)) => {
            return Err(FieldError::new(
                join(path, "fill"),
                "give either `data` or `fill`, not both",
            ))
        }
        (Some(d), None) => {
            let f = join(path, "data");
            let bytes = parse_hex(d, &f, *budget)?;
            let chain = t.chain_bytes();
            if bytes.len() as u64 > chain {
                return Err(FieldError::new(
                    f,
                    format!(
                        "{} bytes of data, but the mip chain holds only {chain}",
                        bytes.len()
                    ),
                ));
            }
            *budget -= bytes.len();
            TexData::Bytes(bytes)
        }
        (None, Some(x)) => parse_fill(x, &join(path, "fill"))?,
        (None, None) => TexData::Bytes(Vec::new()),
    };
    Ok(t)
}

fn parse_sampler(v: &Value, p: &str) -> Result<TexSampler, FieldError> {
    let m = object(v, p)?;
    check_fields(m, p, &SAMPLER_FIELDS)?;
    let d = TexSampler::default();
    let wrap = |v: &Value, f: &str| name(v, f, &Wrap::ALL);
    let filter = |v: &Value, f: &str| name(v, f, &FILTERS);
    Ok(TexSampler {
        wrap_s: opt(m, p, "wrap_s", d.wrap_s, wrap)?,
        wrap_t: opt(m, p, "wrap_t", d.wrap_t, wrap)?,
        wrap_r: opt(m, p, "wrap_r", d.wrap_r, wrap)?,
        min_filter: opt(m, p, "min_filter", d.min_filter, filter)?,
        mag_filter: opt(m, p, "mag_filter", d.mag_filter, filter)?,
        mip_filter: opt(m, p, "mip_filter", d.mip_filter, |v, f| {
            name(v, f, &MipFilter::ALL)
        })?,
        unnormalized: opt(m, p, "unnormalized", d.unnormalized, boolean)?,
        bias: opt(m, p, "bias", d.bias.into(), ranged(-4096, 4096))? as i32,
        min_lod: opt(m, p, "min_lod", d.min_lod.into(), ranged(0, 4095))? as u32,
        max_lod: opt(m, p, "max_lod", d.max_lod.into(), ranged(0, 4095))? as u32,
        compare: opt(m, p, "compare", d.compare, |v, f| name(v, f, &Compare::ALL))?,
        border: opt(m, p, "border", d.border, |v, f| scalars(v, f, f32_bits))?,
        max_aniso: opt(m, p, "max_aniso", d.max_aniso.into(), ranged(1, 16))? as u32,
    })
}

/// Parses one texture-unit vector.
pub fn parse_line(line: &str) -> Result<TexTxn, FieldError> {
    let o = parse_object(line)?;
    check_fields(&o, "", &FIELDS)?;
    let ops: Vec<(TexOp, &str)> = TexOp::ALL.iter().chain(&TexOp::ALIASES).copied().collect();
    let op = req(&o, "", "op", |v, f| name(v, f, &ops))?;
    let mut budget = MAX_DATA_BYTES;
    let textures = req(&o, "", "textures", |v, f| {
        let a = array(v, f, None)?;
        a.iter()
            .enumerate()
            .map(|(k, x)| parse_texture(x, &format!("{f}[{k}]"), &mut budget))
            .collect::<Result<Vec<_>, _>>()
    })?;
    let coord = |v: &Value, f: &str| {
        if op == TexOp::Txf {
            word_int(v, f)
        } else {
            f32_bits(v, f)
        }
    };
    let unit = opt(&o, "", "unit", 0, u32_int)?;
    let mimg = parse_mimg(&o, op, &textures, unit)?;
    let coords = if op == TexOp::Txq || mimg.address.is_some() {
        opt(&o, "", "coords", [[0; 4]; 4], |v, f| quad(v, f, 1, coord))?
    } else {
        req(&o, "", "coords", |v, f| quad(v, f, 1, coord))?
    };
    let lod = |v: &Value, f: &str| {
        if op == TexOp::Txq {
            u32_int(v, f)
        } else {
            f32_bits(v, f)
        }
    };
    let mut gather_comp = opt(&o, "", "gather_comp", 0, ranged(0, 3))? as u32;
    if op == TexOp::Gather4 && o.contains_key("dmask") {
        gather_comp = mimg.dmask;
    }
    let mimg = if op == TexOp::Gather4 {
        MimgBits { dmask: 15, ..mimg }
    } else {
        mimg
    };
    Ok(TexTxn {
        op,
        textures,
        sampler: opt(&o, "", "sampler", TexSampler::default(), parse_sampler)?,
        unit,
        coords,
        grad: opt(&o, "", "grad", [[0; 4]; 4], |v, f| quad(v, f, 4, f32_bits))?,
        bias: opt(&o, "", "bias", [0; 4], |v, f| scalars(v, f, f32_bits))?,
        lod: opt(&o, "", "lod", [0; 4], |v, f| scalars(v, f, lod))?,
        reference: opt(&o, "", "ref", [0; 4], |v, f| scalars(v, f, f32_bits))?,
        offset: opt(&o, "", "offset", [[0; 3]; 4], parse_offsets)?,
        wmask: opt(&o, "", "wmask", 15, ranged(0, 15))? as u32,
        gather_comp,
        unscaled: opt(&o, "", "unscaled", false, boolean)?,
        sem_wait: opt(&o, "", "sem_wait", false, boolean)?,
        sem_acquire: opt(&o, "", "sem_acquire", false, boolean)?,
        mimg,
    })
}

/// The MIMG bits and address block of a vector (see the module documentation). For `gather4`
/// the returned `dmask` is the gathered component (0…3) read from its one-bit DMASK.
fn parse_mimg(
    o: &Map<String, Value>,
    op: TexOp,
    textures: &[Texture],
    unit: u32,
) -> Result<MimgBits, FieldError> {
    let mut m = MimgBits {
        dmask: opt(o, "", "dmask", 15, ranged(0, 15))? as u32,
        d16: opt(o, "", "d16", false, boolean)?,
        tfe: opt(o, "", "tfe", false, boolean)?,
        lwe: opt(o, "", "lwe", false, boolean)?,
        a16: opt(o, "", "a16", false, boolean)?,
        g16: opt(o, "", "g16", false, boolean)?,
        address: None,
    };
    if op == TexOp::Gather4 && o.contains_key("dmask") {
        if m.dmask.count_ones() != 1 {
            return Err(FieldError::new(
                "dmask",
                format!(
                    "gather4 takes exactly one DMASK bit (the gathered component), found {}",
                    m.dmask
                ),
            ));
        }
        if o.contains_key("gather_comp") {
            return Err(FieldError::new(
                "gather_comp",
                "gather4's component is given by its dmask; give one of the two",
            ));
        }
        m.dmask = m.dmask.trailing_zeros();
    }
    let Some(v) = o.get("mimg") else {
        for f in ["a16", "g16"] {
            if o.get(f) == Some(&Value::Bool(true)) {
                return Err(FieldError::new(f, "needs a `mimg` address block"));
            }
        }
        return Ok(m);
    };
    let b = object(v, "mimg")?;
    check_fields(b, "mimg", &MIMG_FIELDS)?;
    if matches!(
        op,
        TexOp::Txp | TexOp::Nop | TexOp::LookupUncached | TexOp::KillLt0
    ) {
        return Err(FieldError::new(
            "mimg",
            format!("op \"{}\" has no MIMG form", op.name()),
        ));
    }
    if let Some(f) = OPERAND_FIELDS.iter().find(|f| o.contains_key(**f)) {
        return Err(FieldError::new(
            *f,
            "the operands come from the `mimg` address block; give one of the two",
        ));
    }
    let offset = opt(b, "mimg", "offset", false, boolean)?;
    let nsa = opt(b, "mimg", "nsa", false, boolean)?;
    let dim = textures
        .get(unit as usize)
        .map_or(texaddr::Dim::D2 as u32, |x| x.desc.dim as u32);
    let n = mimg::address_dwords(op as u32, dim, offset, m.a16, m.g16);
    let vaddr = req(b, "mimg", "vaddr", |v, f| {
        let lanes = array(v, f, Some(4))?;
        let mut out: [Vec<u32>; 4] = Default::default();
        for (l, lane) in lanes.iter().enumerate() {
            let fl = format!("{f}[{l}]");
            let dw = array(lane, &fl, None)?;
            if dw.len() != n {
                return Err(FieldError::new(
                    fl,
                    format!(
                        "expected {n} address dwords for \"{}\" on this texture dimension with \
                         these flags, found {}",
                        op.name(),
                        dw.len()
                    ),
                ));
            }
            out[l] = dw
                .iter()
                .enumerate()
                .map(|(k, x)| u32_int(x, &format!("{fl}[{k}]")))
                .collect::<Result<_, _>>()?;
        }
        Ok(out)
    })?;
    m.address = Some(MimgAddress { vaddr, nsa, offset });
    Ok(m)
}

fn hex(bytes: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * bytes.len());
    for b in bytes {
        s.push(D[usize::from(b >> 4)] as char);
        s.push(D[usize::from(b & 15)] as char);
    }
    s
}

/// The address pipeline's printing of the texture's `tex` object, without `bpp`.
fn tex_desc_json(t: &Texture) -> Map<String, Value> {
    let at = TexAddrTxn {
        form: Form::Direct {
            tex: t.desc.clone(),
            nonresident: t.nonresident.clone(),
            sampler: SamplerDesc {
                wrap_s: Wrap::Repeat,
                wrap_t: Wrap::Repeat,
                linear: false,
                unnormalized: false,
            },
            lanes: [Lane::default(); 4],
        },
        op: Op::Txq,
        level: 0,
        mip: None,
        lambda: [0; 4],
        lod_warning: [false; 4],
    };
    let mut m = match texaddr::txn_json(&at)["tex"].take() {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    m.remove("bpp");
    if let Some(layers) = m.remove("layers") {
        if t.desc.layers != 1 {
            let k = if t.desc.dim == texaddr::Dim::D3 {
                "depth"
            } else {
                "layers"
            };
            m.insert(k.into(), layers);
        }
    }
    m
}

fn texture_json(t: &Texture) -> Value {
    let mut m = tex_desc_json(t);
    m.insert("format".into(), json!(t.format.name()));
    if t.swizzle != IDENTITY {
        let s: String = t.swizzle.iter().map(|s| s.letter()).collect();
        m.insert("swizzle".into(), json!(s));
    }
    match &t.data {
        TexData::Bytes(b) if b.is_empty() => {}
        TexData::Bytes(b) => {
            m.insert("data".into(), json!(hex(b)));
        }
        TexData::Hash(seed) => {
            m.insert("fill".into(), json!({"kind": "hash", "seed": seed}));
        }
    }
    Value::Object(m)
}

fn sampler_json(s: &TexSampler) -> Value {
    let d = TexSampler::default();
    let mut m = Map::new();
    let mut put = |k: &str, differs: bool, v: Value| {
        if differs {
            m.insert(k.into(), v);
        }
    };
    put("wrap_s", s.wrap_s != d.wrap_s, json!(s.wrap_s.name()));
    put("wrap_t", s.wrap_t != d.wrap_t, json!(s.wrap_t.name()));
    put("wrap_r", s.wrap_r != d.wrap_r, json!(s.wrap_r.name()));
    let filter = |f: Filter| FILTERS[f as usize].1;
    put(
        "min_filter",
        s.min_filter != d.min_filter,
        json!(filter(s.min_filter)),
    );
    put(
        "mag_filter",
        s.mag_filter != d.mag_filter,
        json!(filter(s.mag_filter)),
    );
    put(
        "mip_filter",
        s.mip_filter != d.mip_filter,
        json!(s.mip_filter.name()),
    );
    put(
        "unnormalized",
        s.unnormalized != d.unnormalized,
        json!(s.unnormalized),
    );
    put("bias", s.bias != d.bias, json!(s.bias));
    put("min_lod", s.min_lod != d.min_lod, json!(s.min_lod));
    put("max_lod", s.max_lod != d.max_lod, json!(s.max_lod));
    put("compare", s.compare != d.compare, json!(s.compare.name()));
    put("border", s.border != d.border, json!(s.border));
    put("max_aniso", s.max_aniso != d.max_aniso, json!(s.max_aniso));
    Value::Object(m)
}

/// A vector as JSON (the inverse of [`parse_line`]; see the module documentation).
pub fn txn_json(t: &TexTxn) -> Value {
    let mut v = Map::new();
    v.insert("op".into(), json!(t.op.name()));
    v.insert(
        "textures".into(),
        Value::Array(t.textures.iter().map(texture_json).collect()),
    );
    if t.sampler != TexSampler::default() {
        v.insert("sampler".into(), sampler_json(&t.sampler));
    }
    if t.unit != 0 {
        v.insert("unit".into(), json!(t.unit));
    }
    let from_mimg = t.mimg.address.is_some();
    if (t.op != TexOp::Txq && !from_mimg) || t.coords != [[0; 4]; 4] {
        let lanes: Vec<Value> = t
            .coords
            .iter()
            .map(|c| {
                let n = c.iter().rposition(|&x| x != 0).map_or(1, |k| k + 1);
                if t.op == TexOp::Txf {
                    json!(c[..n].iter().map(|&x| x as i32).collect::<Vec<_>>())
                } else {
                    json!(c[..n])
                }
            })
            .collect();
        v.insert("coords".into(), Value::Array(lanes));
    }
    if t.grad != [[0; 4]; 4] {
        v.insert("grad".into(), json!(t.grad));
    }
    if t.bias != [0; 4] {
        v.insert("bias".into(), json!(t.bias));
    }
    if t.lod != [0; 4] {
        v.insert("lod".into(), json!(t.lod));
    }
    if t.reference != [0; 4] {
        v.insert("ref".into(), json!(t.reference));
    }
    if t.offset != [[0; 3]; 4] {
        // [du, dv] unless some lane has a dw.
        let o: Vec<&[i32]> = if t.offset.iter().all(|o| o[2] == 0) {
            t.offset.iter().map(|o| &o[..2]).collect()
        } else {
            t.offset.iter().map(|o| &o[..]).collect()
        };
        v.insert("offset".into(), json!(o));
    }
    if t.wmask != 15 {
        v.insert("wmask".into(), json!(t.wmask));
    }
    if t.gather_comp != 0 {
        v.insert("gather_comp".into(), json!(t.gather_comp));
    }
    let m = &t.mimg;
    if m.dmask != 15 {
        v.insert("dmask".into(), json!(m.dmask));
    }
    for (f, on) in [
        ("unscaled", t.unscaled),
        ("sem_wait", t.sem_wait),
        ("sem_acquire", t.sem_acquire),
        ("d16", m.d16),
        ("tfe", m.tfe),
        ("lwe", m.lwe),
        ("a16", m.a16),
        ("g16", m.g16),
    ] {
        if on {
            v.insert(f.into(), json!(true));
        }
    }
    if let Some(a) = &m.address {
        let mut b = Map::new();
        b.insert("vaddr".into(), json!(a.vaddr));
        if a.nsa {
            b.insert("nsa".into(), json!(true));
        }
        if a.offset {
            b.insert("offset".into(), json!(true));
        }
        v.insert("mimg".into(), Value::Object(b));
    }
    Value::Object(v)
}

/// A result as JSON (see the module documentation).
pub fn result_json(r: &TexResult) -> Value {
    let rgba: Vec<Value> = r
        .rgba
        .iter()
        .map(|lane| {
            Value::Array(
                (0..4)
                    .map(|c| {
                        if r.wmask >> c & 1 != 0 {
                            json!(lane[c])
                        } else {
                            Value::Null
                        }
                    })
                    .collect(),
            )
        })
        .collect();
    let mut v = json!({
        "rgba": rgba,
        "status": r.status,
        "fault": r.fault.name(),
        "lambda": r.lambda,
        "mem_lines": r.lines.len(),
        "lines": r.lines,
        "kill": r.kill,
    });
    if let Some(d) = &r.vdata {
        v["vdata"] = json!(d);
    }
    if let Some(d) = &r.d16 {
        v["d16"] = json!(d);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texaddr::{Dim, TexDesc};

    fn fb(x: f32) -> u32 {
        x.to_bits()
    }

    fn desc(width: u32, height: u32, levels: u32, format: Format, dim: Dim) -> TexDesc {
        TexDesc {
            width,
            height,
            layers: 1,
            levels,
            bpp: format.bpp(),
            base: 0,
            dim,
            sparse: false,
        }
    }

    fn texture(format: Format, data: TexData) -> Texture {
        Texture {
            desc: desc(2, 2, 1, format, Dim::D2),
            format,
            swizzle: IDENTITY,
            nonresident: Vec::new(),
            data,
        }
    }

    fn txn(op: TexOp, textures: Vec<Texture>) -> TexTxn {
        TexTxn {
            op,
            textures,
            sampler: TexSampler::default(),
            unit: 0,
            coords: [[fb(0.25), fb(0.75), 0, 0]; 4],
            grad: [[0; 4]; 4],
            bias: [0; 4],
            lod: [0; 4],
            reference: [0; 4],
            offset: [[0; 3]; 4],
            wmask: 15,
            gather_comp: 0,
            unscaled: false,
            sem_wait: false,
            sem_acquire: false,
            mimg: MimgBits::default(),
        }
    }

    fn round_trip(t: &TexTxn) {
        let text = txn_json(t).to_string();
        assert_eq!(parse_line(&text).as_ref(), Ok(t), "{text}");
    }

    /// A small valid vector: two 2×2 textures (rgba8 with data, r8 with a fill).
    const LINE: &str = r#"{"op": "tex", "textures": [{"width": 2, "height": 2, "levels": 1, "base": 0, "dim": "2d", "format": "rgba8", "data": "FF0000ff"}, {"width": 4, "height": 2, "levels": 2, "base": 4096, "dim": "2d", "format": "r8", "swizzle": "rrr1", "fill": {"kind": "hash", "seed": 18446744073709551615}}], "sampler": {"mag_filter": "linear", "border": [1.0, 1065353216, "inf", 0]}, "coords": [[0.25, 0.5], [0.75], [0.5, 0.5, 1.0, 2.0], [1065353216, 0]]}"#;

    fn err(line: &str) -> FieldError {
        parse_line(line).expect_err(line)
    }

    /// `LINE` with `from` replaced by `to`: the error.
    fn edited(from: &str, to: &str) -> FieldError {
        assert!(LINE.contains(from), "{from}");
        err(&LINE.replacen(from, to, 1))
    }

    #[test]
    fn parses_a_line_with_its_defaults() {
        let t = parse_line(LINE).unwrap();
        assert_eq!(t.op, TexOp::Tex);
        assert_eq!(t.textures.len(), 2);
        let a = &t.textures[0];
        assert_eq!(a.desc, desc(2, 2, 1, Format::Rgba8, Dim::D2));
        assert_eq!(a.data, TexData::Bytes(vec![0xFF, 0, 0, 0xFF]));
        assert_eq!(a.swizzle, IDENTITY);
        let b = &t.textures[1];
        assert_eq!((b.desc.bpp, b.desc.base, b.desc.levels), (1, 4096, 2));
        assert_eq!(b.swizzle, [Swz::R, Swz::R, Swz::R, Swz::One]);
        assert_eq!(b.data, TexData::Hash(u64::MAX));
        let s = TexSampler {
            mag_filter: Filter::Linear,
            border: [fb(1.0), fb(1.0), 0x7F80_0000, 0],
            ..TexSampler::default()
        };
        assert_eq!(t.sampler, s);
        assert_eq!(t.coords[0], [fb(0.25), fb(0.5), 0, 0]);
        assert_eq!(t.coords[1], [fb(0.75), 0, 0, 0]);
        assert_eq!(t.coords[2], [fb(0.5), fb(0.5), fb(1.0), fb(2.0)]);
        assert_eq!(t.coords[3], [fb(1.0), 0, 0, 0]);
        assert_eq!((t.unit, t.wmask, t.gather_comp), (0, 15, 0));
        assert_eq!((t.grad, t.offset), ([[0; 4]; 4], [[0; 3]; 4]));
        assert_eq!((t.bias, t.lod, t.reference), ([0; 4], [0; 4], [0; 4]));
        round_trip(&t);
        // No sampler at all: TexSampler::default(); a texture without data reads zeros.
        let l = LINE
            .replace(
                r#""sampler": {"mag_filter": "linear", "border": [1.0, 1065353216, "inf", 0]}, "#,
                "",
            )
            .replace(r#", "data": "FF0000ff""#, "");
        let t = parse_line(&l).unwrap();
        assert_eq!(t.sampler, TexSampler::default());
        assert_eq!(t.textures[0].data, TexData::Bytes(Vec::new()));
        // Every sampler field spelled out at its default is the default too.
        let l = LINE.replace(
            r#""mag_filter": "linear", "border": [1.0, 1065353216, "inf", 0]"#,
            r#""wrap_s": "repeat", "wrap_t": "repeat", "wrap_r": "repeat", "min_filter": "nearest", "mag_filter": "nearest", "mip_filter": "none", "unnormalized": false, "bias": 0, "min_lod": 0, "max_lod": 3840, "compare": "never", "border": [0, 0, 0, 0], "max_aniso": 1"#,
        );
        assert_eq!(parse_line(&l).unwrap().sampler, TexSampler::default());
    }

    #[test]
    fn depth_round_trips_and_is_checked() {
        // A 3D texture's depth is the descriptor's layer count, printed as `depth`.
        let mut tex = texture(Format::Rgba8, TexData::Bytes(vec![1, 2, 3, 4]));
        tex.desc = TexDesc {
            layers: 4,
            ..desc(4, 2, 3, Format::Rgba8, Dim::D3)
        };
        let mut t = txn(TexOp::Tex, vec![tex]);
        t.sampler.wrap_r = Wrap::ClampToBorder;
        t.coords = [[fb(0.5), fb(0.5), fb(1.25), 0]; 4];
        round_trip(&t);
        let j = txn_json(&t);
        assert_eq!(j["textures"][0]["dim"], "3d", "{j}");
        assert_eq!(j["textures"][0]["depth"], 4, "{j}");
        assert!(j["textures"][0].get("layers").is_none(), "{j}");
        assert_eq!(j["sampler"]["wrap_r"], "clamp_to_border", "{j}");
        // Depth 1 is the default, left out.
        t.textures[0].desc.layers = 1;
        round_trip(&t);
        assert!(txn_json(&t)["textures"][0].get("depth").is_none());
        // Parsed: `depth` 1…32 768 on a "3d" texture.
        for d in [1, 7, 32_768] {
            let l = LINE.replacen(
                r#""dim": "2d""#,
                &format!(r#""dim": "3d", "depth": {d}"#),
                1,
            );
            let t = parse_line(&l).unwrap();
            assert_eq!(
                (t.textures[0].desc.dim, t.textures[0].desc.layers),
                (Dim::D3, d)
            );
            round_trip(&t);
        }
        // Errors name the field.
        let cases = [
            (r#""dim": "2d", "depth": 2"#, "textures[0].depth"),
            (r#""dim": "1d_array", "depth": 2"#, "textures[0].depth"),
            (r#""dim": "3d", "layers": 2"#, "textures[0].layers"),
            (r#""dim": "3d", "depth": 0"#, "textures[0].depth"),
            (r#""dim": "3d", "depth": 32769"#, "textures[0].depth"),
            (r#""dim": "3d", "depth": -1"#, "textures[0].depth"),
            (r#""dim": "3d", "depth": 2.5"#, "textures[0].depth"),
        ];
        for (to, field) in cases {
            let e = edited(r#""dim": "2d""#, to);
            assert_eq!(e.field, field, "{to}: {e}");
        }
    }

    #[test]
    fn every_op_and_operand_round_trips() {
        let tex = texture(Format::Rgba8, TexData::Bytes(vec![1, 2, 3, 0xAB]));
        for (op, name) in TexOp::ALL {
            let mut t = txn(op, vec![tex.clone()]);
            match op {
                TexOp::Txf => t.coords = [[0, 1, 0, 0], [u32::MAX, 7, 1, 2], [0; 4], [5, 0, 0, 9]],
                TexOp::Txq => t.coords = [[0; 4]; 4],
                _ => {}
            }
            round_trip(&t);
            let j = txn_json(&t);
            assert_eq!(j["op"], name);
            // Defaults are left out.
            for k in [
                "sampler",
                "unit",
                "grad",
                "bias",
                "lod",
                "ref",
                "offset",
                "wmask",
                "gather_comp",
            ] {
                assert!(j.get(k).is_none(), "{name}: {k} printed: {j}");
            }
            assert_eq!(j.get("coords").is_none(), op == TexOp::Txq, "{j}");
            assert!(j["textures"][0].get("layers").is_none());
            assert!(j["textures"][0].get("swizzle").is_none());
            assert!(j["textures"][0].get("bpp").is_none());
            assert_eq!(j["textures"][0]["data"], "010203ab");
            // Every operand set.
            t.unit = 7;
            t.grad = [[1, 2, 3, 4], [0; 4], [fb(-0.5); 4], [0x7FC0_0001, 0, 0, 0]];
            t.bias = [fb(1.0), 0, fb(-16.0), 0xFF80_0000];
            t.lod = if op == TexOp::Txq {
                [0, 1, 15, u32::MAX]
            } else {
                [fb(0.5), fb(2.0), 0, fb(-1.0)]
            };
            t.reference = [fb(0.5), 0x8000_0000, 1, 0];
            t.offset = [[-8, 7, 0], [0, 0, 0], [3, -1, 0], [0, 5, 0]];
            t.wmask = 5;
            t.gather_comp = 3;
            t.coords[1][3] = 9;
            round_trip(&t);
            // `txf` coordinates print as signed integers.
            if op == TexOp::Txf {
                assert_eq!(txn_json(&t)["coords"][1], json!([-1, 7, 1, 9]));
            }
        }
    }

    #[test]
    fn every_format_swizzle_and_data_round_trips() {
        let swizzles = [
            IDENTITY,
            [Swz::B, Swz::G, Swz::R, Swz::One],
            [Swz::Zero, Swz::Zero, Swz::Zero, Swz::A],
            [Swz::One, Swz::A, Swz::Zero, Swz::R],
        ];
        for (k, (format, name, bpp)) in Format::ALL.iter().enumerate() {
            let mut tex = texture(*format, TexData::Bytes((0..4 * *bpp as u8).collect()));
            tex.swizzle = swizzles[k % 4];
            let mut filled = tex.clone();
            filled.data = TexData::Hash(k as u64 * 0x9E37_79B9_7F4A_7C15);
            filled.desc.base = 1 << 20;
            let mut empty = tex.clone();
            empty.data = TexData::Bytes(Vec::new());
            let t = txn(TexOp::Tex, vec![tex, filled, empty]);
            round_trip(&t);
            let j = txn_json(&t);
            assert_eq!(j["textures"][0]["format"], *name);
            assert_eq!(j["textures"][1]["fill"]["kind"], "hash");
            assert!(j["textures"][2].get("data").is_none());
            assert!(j["textures"][2].get("fill").is_none());
            let sw: String = swizzles[k % 4].iter().map(|s| s.letter()).collect();
            if k % 4 != 0 {
                assert_eq!(j["textures"][0]["swizzle"], sw);
            }
        }
        // Arrays, sparse textures with residency maps, other dims; an empty list.
        let mut tex = texture(Format::Rgba16f, TexData::Hash(3));
        tex.desc.dim = Dim::Array2D;
        tex.desc.layers = 6;
        tex.desc.sparse = true;
        tex.nonresident = vec![(0, 1), (3, 7)];
        let mut one_d = texture(Format::D16, TexData::Bytes(vec![0xFF; 3]));
        one_d.desc.dim = Dim::Array1D;
        one_d.desc.height = 1;
        let mut t = txn(TexOp::SampleC, vec![tex, one_d]);
        t.sampler = TexSampler {
            wrap_s: Wrap::ClampToBorder,
            wrap_t: Wrap::MirrorClampToEdge,
            wrap_r: Wrap::ClampToBorder,
            min_filter: Filter::Linear,
            mag_filter: Filter::Linear,
            mip_filter: MipFilter::Linear,
            unnormalized: true,
            bias: -4096,
            min_lod: 4095,
            max_lod: 0,
            compare: Compare::GEqual,
            border: [fb(0.25), u32::MAX, 0, 1],
            max_aniso: 16,
        };
        round_trip(&t);
        for (c, _) in Compare::ALL {
            t.sampler.compare = c;
            round_trip(&t);
        }
        t.textures.clear();
        round_trip(&t);
        // A sampler differing in one field prints just that field.
        let mut t = txn(TexOp::Txl, vec![]);
        t.sampler.mip_filter = MipFilter::Nearest;
        assert_eq!(txn_json(&t)["sampler"], json!({"mip_filter": "nearest"}));
    }

    #[test]
    fn offsets_and_short_coordinates() {
        let l = LINE.replace(
            r#"[1065353216, 0]]"#,
            r#"[1065353216, 0]], "offset": [[1, -2], [0, 0, 0], [-8, 7], [7, -8, -3]]"#,
        );
        let t = parse_line(&l).unwrap();
        assert_eq!(t.offset, [[1, -2, 0], [0, 0, 0], [-8, 7, 0], [7, -8, -3]]);
        let l = LINE.replace(r#""op": "tex""#, r#""op": "txf", "lod": [1, 2, 3, 4]"#);
        // `txf` takes integers; 0.25 is not one.
        assert_eq!(err(&l).field, "coords[0][0]");
        let l = LINE.replace(r#""op": "tex""#, r#""op": "txf""#).replace(
            r#"[[0.25, 0.5], [0.75], [0.5, 0.5, 1.0, 2.0], [1065353216, 0]]"#,
            r#"[[-1, 2], [4294967295], [-2147483648, 0, 1, 3], [2147483647]]"#,
        );
        let t = parse_line(&l).unwrap();
        assert_eq!(
            t.coords,
            [
                [u32::MAX, 2, 0, 0],
                [u32::MAX, 0, 0, 0],
                [1 << 31, 0, 1, 3],
                [i32::MAX as u32, 0, 0, 0]
            ]
        );
        round_trip(&t);
        let bad = l.replace("-2147483648", "-2147483649");
        assert_eq!(err(&bad).field, "coords[2][0]");
        let bad = l.replace("4294967295", "4294967296");
        assert_eq!(err(&bad).field, "coords[1][0]");
        // `txq` needs no coordinates, and its `lod` is an integer level.
        let l = r#"{"op": "txq", "textures": [], "lod": [0, 1, 2, 4294967295]}"#;
        let t = parse_line(l).unwrap();
        assert_eq!(t.lod, [0, 1, 2, u32::MAX]);
        assert_eq!(t.coords, [[0; 4]; 4]);
        assert_eq!(err(&l.replace("[0, 1,", "[0.5, 1,")).field, "lod[0]");
        // `txl`'s `lod` is an f32 field.
        let t = parse_line(
            &l.replace("txq", "txl")
                .replace("}", r#", "coords": [[0], [0], [0], [0]]}"#),
        )
        .unwrap();
        assert_eq!(t.lod[1], 1);
        let t = parse_line(
            &l.replace("txq", "txl")
                .replace("[0, 1, 2, 4294967295]", "[0.5, 1, 2, 3]")
                .replace("}", r#", "coords": [[0], [0], [0], [0]]}"#),
        )
        .unwrap();
        assert_eq!(t.lod[0], fb(0.5));
    }

    #[test]
    fn random_vectors_with_mimg_forms_round_trip() {
        let v = crate::tex::stim::random(77, 3000);
        assert!(v.iter().filter(|t| t.mimg.address.is_some()).count() > 300);
        for t in &v {
            round_trip(t);
        }
    }

    #[test]
    fn mimg_fields_are_checked() {
        // LINE's "tex" on texture 0 (2D): body s, t = two dwords per lane.
        let coords = r#", "coords": [[0.25, 0.5], [0.75], [0.5, 0.5, 1.0, 2.0], [1065353216, 0]]"#;
        let no_coords = LINE.replacen(coords, "", 1);
        let with = |extra: &str| no_coords.replacen("}]", &format!("}}]{extra}"), 1);
        let two = r#", "mimg": {"vaddr": [[1, 2], [3, 4], [5, 6], [7, 8]]}"#;
        let t = parse_line(&with(two)).unwrap();
        let a = t.mimg.address.as_ref().unwrap();
        assert_eq!(a.vaddr[3], vec![7, 8]);
        round_trip(&t);
        let cases = [
            (
                r#", "mimg": {"vaddr": [[1, 2], [3], [5, 6], [7, 8]]}"#,
                "mimg.vaddr[1]",
                "expected 2 address dwords",
            ),
            (
                r#", "mimg": {"vaddr": [[1, 2], [3, 4], [5, 6], [7, 8]], "offset": true}"#,
                "mimg.vaddr[0]",
                "expected 3 address dwords",
            ),
            (
                r#", "mimg": {"vaddr": [[1, 2], [3, 4], [5, 6], [7, 8]], "nsa": 1}"#,
                "mimg.nsa",
                "true or false",
            ),
            (
                r#", "mimg": {"vaddr": [[1, 2], [3, 4], [5, 6], [7, -8]]}"#,
                "mimg.vaddr[3][1]",
                "integer",
            ),
            (
                r#", "mimg": {"vaddr": [[1, 2], [3, 4], [5, 6], [7, 8]], "dim": "2d"}"#,
                "mimg.dim",
                "unknown field",
            ),
            (r#", "a16": true"#, "a16", "needs a `mimg`"),
            (r#", "dmask": 16"#, "dmask", "0..=15"),
            (
                r#", "mimg": {"vaddr": [[1, 2], [3, 4], [5, 6], [7, 8]]}, "bias": [0, 0, 0, 0]"#,
                "bias",
                "come from the `mimg`",
            ),
        ];
        for (extra, field, msg) in cases {
            let e = err(&with(extra));
            assert_eq!(e.field, field, "{extra}: {e}");
            assert!(e.message.contains(msg), "{extra}: {e}");
        }
        // Coordinates with a MIMG address are an error; txp has no MIMG form.
        let e = err(&LINE.replacen("}]", &format!("}}]{two}"), 1));
        assert_eq!(e.field, "coords", "{e}");
        let e = err(&with(two).replacen(r#""op": "tex""#, r#""op": "txp""#, 1));
        assert!(
            e.field == "mimg" && e.message.contains("no MIMG form"),
            "{e}"
        );
        // gather4: one DMASK bit is the component; two bits, or dmask with gather_comp, are
        // errors.
        let g = |extra: &str| LINE.replacen(r#""op": "tex""#, r#""op": "gather4""#, 1) + extra;
        let g = |extra: &str| g("").replacen("}]", &format!("}}]{extra}"), 1);
        let t = parse_line(&g(r#", "dmask": 4"#)).unwrap();
        assert_eq!((t.gather_comp, t.mimg.dmask), (2, 15));
        assert_eq!(err(&g(r#", "dmask": 5"#)).field, "dmask");
        assert_eq!(
            err(&g(r#", "dmask": 4, "gather_comp": 2"#)).field,
            "gather_comp"
        );
    }

    #[test]
    fn unknown_fields_are_named() {
        let cases = [
            (r#""op": "tex""#, r#""op": "tex", "lvl": 1"#, "lvl"),
            (
                r#""format": "rgba8""#,
                r#""format": "rgba8", "bpp": 4"#,
                "textures[0].bpp",
            ),
            (
                r#""format": "r8""#,
                r#""format": "r8", "pitch": 4"#,
                "textures[1].pitch",
            ),
            (
                r#""mag_filter""#,
                r#""filter": "linear", "mag_filter""#,
                "sampler.filter",
            ),
            (r#""seed""#, r#""salt": 1, "seed""#, "textures[1].fill.salt"),
        ];
        for (from, to, field) in cases {
            let e = edited(from, to);
            assert_eq!(e.field, field, "{to}: {e}");
            assert!(e.message.contains("unknown field"), "{e}");
        }
    }

    #[test]
    fn bad_values_are_named() {
        let cases = [
            (r#""op": "tex""#, r#""op": "txg""#, "op"),
            (
                r#""format": "r8""#,
                r#""format": "r8g8""#,
                "textures[1].format",
            ),
            (
                r#""format": "rgba8""#,
                r#""format": 2"#,
                "textures[0].format",
            ),
            (
                r#""swizzle": "rrr1""#,
                r#""swizzle": "rrrx""#,
                "textures[1].swizzle",
            ),
            (
                r#""swizzle": "rrr1""#,
                r#""swizzle": "rrr""#,
                "textures[1].swizzle",
            ),
            (
                r#""swizzle": "rrr1""#,
                r#""swizzle": "rgba1""#,
                "textures[1].swizzle",
            ),
            (r#""FF0000ff""#, r#""FF0000f""#, "textures[0].data"),
            (r#""FF0000ff""#, r#""FF0000fg""#, "textures[0].data"),
            (r#""FF0000ff""#, r#""FF 0000f""#, "textures[0].data"),
            (r#""FF0000ff""#, r#"[255, 0, 0, 255]"#, "textures[0].data"),
            (
                r#""kind": "hash""#,
                r#""kind": "random""#,
                "textures[1].fill.kind",
            ),
            (
                r#""seed": 18446744073709551615"#,
                r#""seed": 18446744073709551616"#,
                "textures[1].fill.seed",
            ),
            (
                r#""seed": 18446744073709551615"#,
                r#""seed": -1"#,
                "textures[1].fill.seed",
            ),
            (r#""width": 2"#, r#""width": 0"#, "textures[0].width"),
            (r#""width": 4"#, r#""width": 32769"#, "textures[1].width"),
            (r#""levels": 2"#, r#""levels": 17"#, "textures[1].levels"),
            (r#""dim": "2d""#, r#""dim": "2D""#, "textures[0].dim"),
            (r#""base": 4096"#, r#""base": -4096"#, "textures[1].base"),
            (r#""base": 0"#, r#""base": 2"#, "textures[0].base"),
            (
                r#""mag_filter": "linear""#,
                r#""mag_filter": "cubic""#,
                "sampler.mag_filter",
            ),
            (
                r#""mag_filter": "linear""#,
                r#""mip_filter": "trilinear""#,
                "sampler.mip_filter",
            ),
            (
                r#""mag_filter": "linear""#,
                r#""wrap_t": "clamp""#,
                "sampler.wrap_t",
            ),
            (
                r#""mag_filter": "linear""#,
                r#""bias": 4097"#,
                "sampler.bias",
            ),
            (
                r#""mag_filter": "linear""#,
                r#""max_lod": 4096"#,
                "sampler.max_lod",
            ),
            (
                r#""mag_filter": "linear""#,
                r#""min_lod": -1"#,
                "sampler.min_lod",
            ),
            (
                r#""mag_filter": "linear""#,
                r#""max_aniso": 0"#,
                "sampler.max_aniso",
            ),
            (
                r#""mag_filter": "linear""#,
                r#""max_aniso": 17"#,
                "sampler.max_aniso",
            ),
            (
                r#""mag_filter": "linear""#,
                r#""compare": "lt""#,
                "sampler.compare",
            ),
            (
                r#""mag_filter": "linear""#,
                r#""unnormalized": 1"#,
                "sampler.unnormalized",
            ),
            (r#""inf""#, r#""infinite""#, "sampler.border[2]"),
            (r#", "inf", 0]"#, r#", "inf"]"#, "sampler.border"),
            (r#"[0.75]"#, r#"[]"#, "coords[1]"),
            (r#"[0.75]"#, r#"[0.75, 0, 0, 0, 0]"#, "coords[1]"),
            (r#"[0.75]"#, r#"[-1]"#, "coords[1][0]"),
            (r#", [1065353216, 0]]"#, r#"]"#, "coords"),
        ];
        for (from, to, field) in cases {
            let e = edited(from, to);
            assert_eq!(e.field, field, "{to}: {e}");
        }
        let tail = r#"[1065353216, 0]]"#;
        let extra = [
            (
                r#", "offset": [[0, 0], [0, 0], [-9, 0], [0, 0]]"#,
                "offset[2][0]",
            ),
            (
                r#", "offset": [[0, 0], [0, 8], [0, 0], [0, 0]]"#,
                "offset[1][1]",
            ),
            (
                r#", "offset": [[0, 0], [0, 0, 8], [0, 0], [0, 0]]"#,
                "offset[1][2]",
            ),
            (r#", "offset": [[0, 0], [0], [0, 0], [0, 0]]"#, "offset[1]"),
            (r#", "offset": [[0, 0], [0, 0], [0, 0]]"#, "offset"),
            (r#", "wmask": 16"#, "wmask"),
            (r#", "wmask": -1"#, "wmask"),
            (r#", "gather_comp": 4"#, "gather_comp"),
            (r#", "unit": -1"#, "unit"),
            (r#", "unit": 4294967296"#, "unit"),
            (
                r#", "grad": [[0, 0, 0, 0], [0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]"#,
                "grad[1]",
            ),
            (
                r#", "grad": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, "x", 0], [0, 0, 0, 0]]"#,
                "grad[2][2]",
            ),
            (r#", "bias": [0, 0, 0]"#, "bias"),
            (r#", "ref": [0, 0, 0, -2]"#, "ref[3]"),
            (r#", "lod": [0, 0, true, 0]"#, "lod[2]"),
            (r#", "sampler": 1"#, "sampler"),
        ];
        for (add, field) in extra {
            let e = edited(tail, &format!("{tail}{add}"));
            assert_eq!(e.field, field, "{add}: {e}");
        }
        let e = edited(r#""FF0000ff""#, r#""FF0000fg""#);
        assert!(e.message.contains("`g` at character 7"), "{e}");
        let e = edited(r#""FF0000ff""#, r#""FF0000f""#);
        assert!(e.message.contains("odd"), "{e}");
    }

    #[test]
    fn required_fields_and_exclusive_data() {
        assert_eq!(err(&LINE.replace(r#""op": "tex", "#, "")).field, "op");
        assert_eq!(
            err(&LINE.replacen(r#""textures": ["#, r#""texture": ["#, 1)).field,
            "texture"
        );
        let no_textures = r#"{"op": "tex", "coords": [[0], [0], [0], [0]]}"#;
        assert_eq!(err(no_textures).field, "textures");
        assert_eq!(
            err(&no_textures.replace("}", r#", "textures": {}}"#)).field,
            "textures"
        );
        assert_eq!(
            err(&LINE.replace(r#", "format": "r8""#, "")).field,
            "textures[1].format"
        );
        assert_eq!(
            err(&LINE.replace(r#""levels": 2, "#, "")).field,
            "textures[1].levels"
        );
        let coords = r#", "coords": [[0.25, 0.5], [0.75], [0.5, 0.5, 1.0, 2.0], [1065353216, 0]]"#;
        assert_eq!(err(&LINE.replace(coords, "")).field, "coords");
        assert!(parse_line(&LINE.replace(coords, "").replace(r#""tex""#, r#""txq""#)).is_ok());
        // Both data and fill.
        let e = edited(r#""swizzle""#, r#""data": "00", "swizzle""#);
        assert_eq!(e.field, "textures[1].fill");
        assert!(e.message.contains("not both"), "{e}");
        // A residency map needs a sparse texture (the address pipeline's rule).
        let e = edited(r#""dim": "2d""#, r#""dim": "2d", "nonresident": [[0, 0]]"#);
        assert_eq!(e.field, "textures[0].nonresident");
        let l = LINE.replacen(
            r#""dim": "2d""#,
            r#""dim": "2d", "sparse": true, "nonresident": [[0, 0], [16, 0]]"#,
            1,
        );
        assert_eq!(err(&l).field, "textures[0].nonresident[1][0]");
        assert!(err("[1]").message.contains("JSON object"));
    }

    #[test]
    fn data_is_limited_by_the_chain_and_the_budget() {
        // A 2×2 rgba8 texture's chain is one aligned level: 256 bytes.
        let full = "ab".repeat(256);
        let t = parse_line(&LINE.replace("FF0000ff", &full)).unwrap();
        assert_eq!(t.textures[0].data, TexData::Bytes(vec![0xAB; 256]));
        round_trip(&t);
        let e = edited("FF0000ff", &format!("{full}00"));
        assert_eq!(e.field, "textures[0].data");
        assert!(
            e.message.contains("257 bytes") && e.message.contains("256"),
            "{e}"
        );
        // The size limit is checked before the digits.
        let e = parse_hex(&json!("0000zz"), "d", 2).unwrap_err();
        assert!(e.message.contains("64 MiB"), "{e}");
        assert_eq!(parse_hex(&json!("00fF"), "d", 2), Ok(vec![0, 255]));
        assert_eq!(parse_hex(&json!(""), "d", 0), Ok(vec![]));
    }

    #[test]
    fn random_stimulus_round_trips() {
        let v = crate::tex::stim::random(11, 400);
        assert_eq!(v.len(), 400);
        for t in &v {
            round_trip(t);
        }
    }

    #[test]
    fn results_print_masked_components_as_null() {
        let r = TexResult {
            rgba: [[1, 2, 3, 4], [5, 6, 7, 8], [0; 4], [u32::MAX; 4]],
            wmask: 0b1010,
            status: [0, 1 << 16, 1, 3],
            fault: texaddr::Fault::BadDescriptor,
            lambda: [-5, 0, 256, 4095],
            lines: vec![0, 4, 1 << 40],
            kill: 5,
            vdata: None,
            d16: None,
        };
        assert_eq!(
            result_json(&r),
            json!({
                "rgba": [[null, 2, null, 4], [null, 6, null, 8], [null, 0, null, 0],
                         [null, 4294967295u32, null, 4294967295u32]],
                "status": [0, 65536, 1, 3],
                "fault": "bad_descriptor",
                "lambda": [-5, 0, 256, 4095],
                "mem_lines": 3,
                "lines": [0, 4, 1u64 << 40],
                "kill": 5,
            })
        );
        let t = parse_line(LINE).unwrap();
        let j = result_json(&crate::tex::golden(&t));
        assert_eq!(j["fault"], "none");
        assert_eq!(j["rgba"].as_array().map(Vec::len), Some(4));
    }
}
