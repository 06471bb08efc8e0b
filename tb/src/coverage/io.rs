//! Coverage vectors and results as JSON Lines (docs/units/coverage.md §7).

use super::{
    CoverageResult, CoverageTxn, OpMode, OpResult, PixldOp, QUAD_MAX, QUAD_MIN, VERTEX_MAX,
    VERTEX_MIN,
};
use crate::vectors::{array, boolean, check_fields, int, parse_object, required, FieldError};
use serde_json::{json, Map, Value};

fn point(v: &Value, field: &str, min: i64, max: i64) -> Result<[i32; 2], FieldError> {
    let a = array(v, field, Some(2))?;
    Ok([
        int(&a[0], &format!("{field}[0]"), min, max)? as i32,
        int(&a[1], &format!("{field}[1]"), min, max)? as i32,
    ])
}

fn positions(v: &Value, n: usize) -> Result<[Vec<[i32; 2]>; 4], FieldError> {
    let a = array(v, "positions", None)?;
    let per_lane = a
        .first()
        .and_then(Value::as_array)
        .is_some_and(|x| x.first().is_some_and(Value::is_array));
    let list = |v: &Value, field: &str| -> Result<Vec<[i32; 2]>, FieldError> {
        let l = array(v, field, Some(n))?;
        l.iter()
            .enumerate()
            .map(|(s, p)| point(p, &format!("{field}[{s}]"), -8, 7))
            .collect()
    };
    if per_lane {
        array(v, "positions", Some(4))?;
        Ok([
            list(&a[0], "positions[0]")?,
            list(&a[1], "positions[1]")?,
            list(&a[2], "positions[2]")?,
            list(&a[3], "positions[3]")?,
        ])
    } else {
        let one = list(v, "positions")?;
        Ok([one.clone(), one.clone(), one.clone(), one])
    }
}

fn op(v: &Value, field: &str) -> Result<PixldOp, FieldError> {
    let o = v
        .as_object()
        .ok_or_else(|| FieldError::new(field, format!("expected an object, found {v}")))?;
    check_fields(o, field, &["mode", "index", "pd", "tgsi"])?;
    let mf = format!("{field}.mode");
    let mode = match required(o, field, "mode")? {
        Value::String(s) => OpMode::from_name(s)
            .ok_or_else(|| FieldError::new(&mf, format!("unknown PIXLD mode \"{s}\"")))?,
        m @ Value::Number(_) => {
            OpMode::from_encoding(int(m, &mf, 0, 7)? as u32).unwrap_or(OpMode::Invalid7)
        }
        other => {
            return Err(FieldError::new(
                &mf,
                format!("expected a mode name or encoding 0..=7, found {other}"),
            ))
        }
    };
    let index = match o.get("index") {
        Some(i) => int(i, &format!("{field}.index"), -(1 << 31), u32::MAX as i64)? as u32,
        None => 0,
    };
    let flag = |k: &str| -> Result<bool, FieldError> {
        o.get(k)
            .map_or(Ok(false), |b| boolean(b, &format!("{field}.{k}")))
    };
    Ok(PixldOp {
        mode,
        index,
        pd: flag("pd")?,
        tgsi: flag("tgsi")?,
    })
}

/// Parses one coverage vector.
pub fn parse_line(line: &str) -> Result<CoverageTxn, FieldError> {
    let o = parse_object(line)?;
    check_fields(
        &o,
        "",
        &[
            "samples",
            "positions",
            "tri",
            "quad",
            "sample_mask",
            "ssaa",
            "sample_id",
            "ops",
        ],
    )?;
    let samples = int(required(&o, "", "samples")?, "samples", 1, 16)? as u32;
    if !samples.is_power_of_two() {
        return Err(FieldError::new(
            "samples",
            format!("expected 1, 2, 4, 8 or 16, found {samples}"),
        ));
    }
    let tri_v = array(required(&o, "", "tri")?, "tri", Some(3))?;
    let mut tri = [[0; 2]; 3];
    for (k, p) in tri_v.iter().enumerate() {
        tri[k] = point(
            p,
            &format!("tri[{k}]"),
            VERTEX_MIN as i64,
            VERTEX_MAX as i64,
        )?;
    }
    let quad = point(
        required(&o, "", "quad")?,
        "quad",
        QUAD_MIN as i64,
        QUAD_MAX as i64,
    )?;
    let positions = o
        .get("positions")
        .map(|p| positions(p, samples as usize))
        .transpose()?;
    let sample_mask = o
        .get("sample_mask")
        .map_or(Ok(0xFFFF), |m| int(m, "sample_mask", 0, 0xFFFF))? as u32;
    let ssaa = o.get("ssaa").map_or(Ok(false), |b| boolean(b, "ssaa"))?;
    let mut sample_id = [0u32; 4];
    if let Some(s) = o.get("sample_id") {
        for (k, x) in array(s, "sample_id", Some(4))?.iter().enumerate() {
            sample_id[k] = int(x, &format!("sample_id[{k}]"), 0, 15)? as u32;
        }
    }
    let ops = array(required(&o, "", "ops")?, "ops", None)?
        .iter()
        .enumerate()
        .map(|(k, v)| op(v, &format!("ops[{k}]")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CoverageTxn {
        samples,
        positions,
        tri,
        quad,
        sample_mask,
        ssaa,
        sample_id,
        ops,
    })
}

/// One result line (without cycles): `{"covmask": [...], "pixld": [{"rd", "pd"[, "error"]}, ...]}`.
pub fn result_json(r: &CoverageResult) -> Value {
    let ops: Vec<Value> = r
        .pixld
        .iter()
        .map(|p| {
            let mut m = Map::new();
            m.insert("rd".into(), json!(p.rd));
            m.insert("pd".into(), json!(p.pd));
            if let Some(e) = &p.error {
                m.insert("error".into(), json!(e));
            }
            Value::Object(m)
        })
        .collect();
    json!({ "covmask": r.covmask, "pixld": ops })
}

/// A vector as a JSON object in the vector format (the inverse of [`parse_line`]).
pub fn txn_json(t: &CoverageTxn) -> Value {
    let mut v = json!({
        "samples": t.samples,
        "tri": t.tri,
        "quad": t.quad,
        "sample_mask": t.sample_mask,
        "ssaa": t.ssaa,
        "sample_id": t.sample_id,
        "ops": t.ops.iter().map(|o| json!({
            "mode": o.mode.name(),
            "index": o.index,
            "pd": o.pd,
            "tgsi": o.tgsi,
        })).collect::<Vec<_>>(),
    });
    if let Some(p) = &t.positions {
        v["positions"] = json!(p);
    }
    v
}

fn u32x4(v: &Value, field: &str) -> Result<[u32; 4], FieldError> {
    let a = array(v, field, Some(4))?;
    let mut out = [0; 4];
    for (k, x) in a.iter().enumerate() {
        out[k] = int(x, &format!("{field}[{k}]"), 0, u32::MAX as i64)? as u32;
    }
    Ok(out)
}

/// Parses a result line (expected-results files; `cycle_in`/`cycle_out` are ignored).
pub fn parse_result_line(line: &str) -> Result<CoverageResult, FieldError> {
    let o = parse_object(line)?;
    check_fields(&o, "", &["covmask", "pixld", "cycle_in", "cycle_out"])?;
    let covmask = u32x4(required(&o, "", "covmask")?, "covmask")?;
    let pixld = array(required(&o, "", "pixld")?, "pixld", None)?
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let f = format!("pixld[{k}]");
            let p = v
                .as_object()
                .ok_or_else(|| FieldError::new(&f, "expected an object"))?;
            check_fields(p, &f, &["rd", "pd", "error"])?;
            let rd = match p.get("rd") {
                None | Some(Value::Null) => None,
                Some(v) => Some(u32x4(v, &format!("{f}.rd"))?),
            };
            let pd = match p.get("pd") {
                None | Some(Value::Null) => None,
                Some(v) => {
                    let a = array(v, &format!("{f}.pd"), Some(4))?;
                    let mut b = [false; 4];
                    for (i, x) in a.iter().enumerate() {
                        b[i] = boolean(x, &format!("{f}.pd[{i}]"))?;
                    }
                    Some(b)
                }
            };
            let error = p.get("error").and_then(Value::as_str).map(str::to_string);
            Ok(OpResult { rd, pd, error })
        })
        .collect::<Result<Vec<_>, FieldError>>()?;
    Ok(CoverageResult { covmask, pixld })
}
