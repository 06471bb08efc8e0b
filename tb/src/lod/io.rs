//! LOD vectors and results as JSON Lines (docs/units/lod.md §6).
//!
//! A vector may carry the options `fine` (bool: fine derivatives) and `rho` ("exact" | "maxabs").
//! Operand arrays are required only where the mode reads them (`coords` for implicit and bias,
//! `grad` for grad, `lod` for lod, `bias` for bias); an operand the mode does not read is accepted
//! and ignored.

use super::{LodLane, LodMode, LodResult, LodSampler, LodTex, LodTxn, MipFilter};
use crate::vectors::{
    array, boolean, check_fields, f32_bits, int, name, object, parse_object, required, FieldError,
};
use serde_json::{json, Value};

/// Four lanes of `k` f32 operands each.
fn lanes<const K: usize>(v: &Value, field: &str) -> Result<[[u32; K]; 4], FieldError> {
    let a = array(v, field, Some(4))?;
    let mut out = [[0u32; K]; 4];
    for (l, lane) in a.iter().enumerate() {
        let f = format!("{field}[{l}]");
        let ops = array(lane, &f, Some(K))?;
        for (k, x) in ops.iter().enumerate() {
            out[l][k] = f32_bits(x, &format!("{f}[{k}]"))?;
        }
    }
    Ok(out)
}

fn scalars(v: &Value, field: &str) -> Result<[u32; 4], FieldError> {
    let a = array(v, field, Some(4))?;
    let mut out = [0u32; 4];
    for (l, x) in a.iter().enumerate() {
        out[l] = f32_bits(x, &format!("{field}[{l}]"))?;
    }
    Ok(out)
}

/// Parses one LOD vector.
pub fn parse_line(line: &str) -> Result<LodTxn, FieldError> {
    let o = parse_object(line)?;
    check_fields(
        &o,
        "",
        &[
            "tex",
            "sampler",
            "mode",
            "coords",
            "grad",
            "lod",
            "bias",
            "lod_clamp",
            "min_lod_warning",
            "fine",
            "rho",
        ],
    )?;
    let tx = object(required(&o, "", "tex")?, "tex")?;
    check_fields(tx, "tex", &["width", "height", "levels", "base_level"])?;
    let tex = LodTex {
        width: int(required(tx, "tex", "width")?, "tex.width", 1, 32768)? as u32,
        height: int(required(tx, "tex", "height")?, "tex.height", 1, 32768)? as u32,
        levels: int(required(tx, "tex", "levels")?, "tex.levels", 1, 16)? as u32,
        base_level: match tx.get("base_level") {
            Some(b) => int(b, "tex.base_level", 0, 15)? as u32,
            None => 0,
        },
    };
    let sm = object(required(&o, "", "sampler")?, "sampler")?;
    check_fields(
        sm,
        "sampler",
        &["bias", "min_lod", "max_lod", "mip_filter", "max_aniso"],
    )?;
    let opt_int = |k: &str, min: i64, max: i64, default: i64| -> Result<i64, FieldError> {
        sm.get(k)
            .map_or(Ok(default), |v| int(v, &format!("sampler.{k}"), min, max))
    };
    let sampler = LodSampler {
        bias: opt_int("bias", -4096, 4096, 0)? as i32,
        min_lod: opt_int("min_lod", 0, 4095, 0)? as u32,
        max_lod: opt_int("max_lod", 0, 4095, 4095)? as u32,
        mip_filter: match sm.get("mip_filter") {
            Some(m) => name(m, "sampler.mip_filter", &MipFilter::ALL)?,
            None => MipFilter::Nearest,
        },
        max_aniso: opt_int("max_aniso", 1, 16, 1)? as u32,
    };
    let mode = name(required(&o, "", "mode")?, "mode", &LodMode::ALL)?;
    let need = |k: &str, used: bool| -> Result<Option<&Value>, FieldError> {
        match o.get(k) {
            None if used => Err(FieldError::new(
                k,
                format!("missing required field (mode \"{}\" reads it)", mode.name()),
            )),
            v => Ok(v),
        }
    };
    let mut t = LodTxn {
        tex,
        sampler,
        mode,
        coords: [[0; 2]; 4],
        grad: [[0; 4]; 4],
        lod: [0; 4],
        bias: [0; 4],
        lod_clamp: 0,
        min_lod_warning: 0,
        fine: false,
        maxabs: false,
    };
    if let Some(v) = need("coords", mode.implicit_derivatives())? {
        t.coords = lanes::<2>(v, "coords")?;
    }
    if let Some(v) = need("grad", mode == LodMode::Grad)? {
        t.grad = lanes::<4>(v, "grad")?;
    }
    if let Some(v) = need("lod", mode == LodMode::Lod)? {
        t.lod = scalars(v, "lod")?;
    }
    if let Some(v) = need("bias", mode == LodMode::Bias)? {
        t.bias = scalars(v, "bias")?;
    }
    if let Some(v) = o.get("lod_clamp") {
        t.lod_clamp = int(v, "lod_clamp", 0, 4095)? as u32;
    }
    if let Some(v) = o.get("min_lod_warning") {
        t.min_lod_warning = int(v, "min_lod_warning", 0, 4095)? as u32;
    }
    if let Some(v) = o.get("fine") {
        t.fine = boolean(v, "fine")?;
    }
    if let Some(v) = o.get("rho") {
        t.maxabs = name(v, "rho", &[(false, "exact"), (true, "maxabs")])?;
    }
    Ok(t)
}

/// A vector as JSON (the inverse of [`parse_line`]).
pub fn txn_json(t: &LodTxn) -> Value {
    let mut v = json!({
        "tex": {"width": t.tex.width, "height": t.tex.height, "levels": t.tex.levels,
                "base_level": t.tex.base_level},
        "sampler": {"bias": t.sampler.bias, "min_lod": t.sampler.min_lod,
                    "max_lod": t.sampler.max_lod, "mip_filter": t.sampler.mip_filter.name(),
                    "max_aniso": t.sampler.max_aniso},
        "mode": t.mode.name(),
        "lod_clamp": t.lod_clamp,
        "min_lod_warning": t.min_lod_warning,
    });
    match t.mode {
        LodMode::Implicit => v["coords"] = json!(t.coords),
        LodMode::Bias => {
            v["coords"] = json!(t.coords);
            v["bias"] = json!(t.bias);
        }
        LodMode::Grad => v["grad"] = json!(t.grad),
        LodMode::Lod => v["lod"] = json!(t.lod),
        LodMode::Lz => {}
    }
    if t.fine {
        v["fine"] = json!(true);
    }
    if t.maxabs {
        v["rho"] = json!("maxabs");
    }
    v
}

/// A result as JSON: one array of four per field.
pub fn result_json(r: &LodResult) -> Value {
    let col = |f: fn(&LodLane) -> Value| Value::Array(r.iter().map(f).collect());
    json!({
        "lambda": col(|l| json!(l.lambda)),
        "level0": col(|l| json!(l.level0)),
        "level1": col(|l| json!(l.level1)),
        "frac": col(|l| json!(l.frac)),
        "magnify": col(|l| json!(l.magnify)),
        "lod_warning": col(|l| json!(l.lod_warning)),
        "probes": col(|l| json!(l.probes)),
        "major": col(|l| json!(if l.major_y { "y" } else { "x" })),
        "status": col(|l| json!(l.status)),
    })
}
