//! BVH vectors and results as JSON Lines (docs/units/bvh.md §11).
//!
//! Fields: `ray` {`origin`, `dir`, `inv_dir`, `extent`} (f32; `dir`/`inv_dir` f16 when `a16`: a
//! bare integer is the f16 bit pattern, a value must be exactly representable in f16), `desc`
//! {`base`, `size`, `box_grow`, `box_sort`, `return_mode`, `heuristic`, `watertight`} or `desc_bits` (four u32,
//! low dword first; exactly one of the two), `node_ptr` (u32, u64 with `bvh64`), `node`, `a16`,
//! `bvh64`, and the optional `instr` {`dmask`, `d16`, `r128`, `unrm`, `dim`, `lwe`, `tfe`,
//! `ssamp`} (integers or, for the one-bit fields, booleans; defaults are the only legal values
//! 0xf, 0, 1, 1, 0, 0, 0, 0 — an illegal value is accepted here and rejected by the decoder model,
//! which reports it in the result).
//!
//! Checks beyond field types and ranges: `node` is required when the pointer fetches a node (types
//! 0–5 within `size`), forbidden for types 6 and 7; its type must agree with `ptr[2:0]` (tri ⇔
//! 0–3, box16 ⇔ 4, box32 ⇔ 5); a triangle needs the vertices its type tests (3 for type 0, 4 for
//! type 1, 5 for types 2 and 3; at most 5); `heuristic` is 0…3 (0 closest first, 1 largest
//! first, 2 closest midpoint, 3 as 0); `size` in `desc` is 0…2^42−2 (all ones is "no limit", the
//! default).
//!
//! Results: `{"d": [4 u32]}`, or for a rejected instruction `{"d": null, "error": "…"}`.

use super::{
    f32_to_f16, node_fetch, BvhResult, BvhTxn, Descriptor, Instr, Node, Ray, SIZE_NO_LIMIT,
};
use crate::fpmodel::f16_to_f32;
use crate::vectors::{
    array, boolean, check_fields, f32_bits, object, parse_object, required, FieldError,
};
use serde_json::{json, Map, Value};

/// An unsigned integer in `0..=max` (up to u64::MAX).
fn uint(v: &Value, field: &str, max: u64) -> Result<u64, FieldError> {
    match v.as_u64() {
        Some(x) if x <= max && v.is_u64() => Ok(x),
        _ => Err(FieldError::new(
            field,
            format!("expected an integer in 0..={max}, found {v}"),
        )),
    }
}

/// An f16: a bare integer is its bit pattern; a value (number with fraction/exponent or string)
/// must be exactly representable.
fn f16_bits(v: &Value, field: &str) -> Result<u16, FieldError> {
    if v.is_u64() || v.is_i64() {
        return uint(v, field, 0xFFFF).map(|x| x as u16);
    }
    let f = f32_bits(v, field)?;
    let h = f32_to_f16(f);
    let nan = f & 0x7FFF_FFFF > 0x7F80_0000;
    if nan || f16_to_f32(h) == f {
        Ok(if nan { 0x7E00 } else { h })
    } else {
        Err(FieldError::new(
            field,
            format!(
                "{v} is not exactly representable in f16 (nearest: bits {h:#06x} = {})",
                f32::from_bits(f16_to_f32(h))
            ),
        ))
    }
}

fn f32x3(v: &Value, field: &str) -> Result<[u32; 3], FieldError> {
    let a = array(v, field, Some(3))?;
    let mut out = [0; 3];
    for (k, x) in a.iter().enumerate() {
        out[k] = f32_bits(x, &format!("{field}[{k}]"))?;
    }
    Ok(out)
}

fn f16x3(v: &Value, field: &str) -> Result<[u32; 3], FieldError> {
    let a = array(v, field, Some(3))?;
    let mut out = [0; 3];
    for (k, x) in a.iter().enumerate() {
        out[k] = u32::from(f16_bits(x, &format!("{field}[{k}]"))?);
    }
    Ok(out)
}

fn u32s<const N: usize>(v: &Value, field: &str) -> Result<[u32; N], FieldError> {
    let a = array(v, field, Some(N))?;
    let mut out = [0; N];
    for (k, x) in a.iter().enumerate() {
        out[k] = uint(x, &format!("{field}[{k}]"), u64::from(u32::MAX))? as u32;
    }
    Ok(out)
}

fn parse_desc(o: &Map<String, Value>) -> Result<Descriptor, FieldError> {
    match (o.get("desc"), o.get("desc_bits")) {
        (Some(_), Some(_)) => Err(FieldError::new(
            "desc_bits",
            "give either `desc` or `desc_bits`, not both",
        )),
        (None, None) => Err(FieldError::new(
            "desc",
            "missing required field (or give `desc_bits`)",
        )),
        (None, Some(b)) => Ok(Descriptor::from_bits(u32s::<4>(b, "desc_bits")?)),
        (Some(v), None) => {
            let m = object(v, "desc")?;
            check_fields(
                m,
                "desc",
                &[
                    "base",
                    "size",
                    "box_grow",
                    "box_sort",
                    "return_mode",
                    "heuristic",
                    "watertight",
                ],
            )?;
            let get = |k: &str, max: u64, default: u64| -> Result<u64, FieldError> {
                m.get(k)
                    .map_or(Ok(default), |v| uint(v, &format!("desc.{k}"), max))
            };
            let heuristic = get("heuristic", 3, 0)? as u32;
            Ok(Descriptor {
                base: get("base", (1 << 40) - 1, 0)?,
                heuristic,
                box_grow: get("box_grow", 255, 0)? as u32,
                box_sort: match m.get("box_sort") {
                    Some(b) => boolean(b, "desc.box_sort")?,
                    None => false,
                },
                size: match m.get("size") {
                    Some(s) => Some(uint(s, "desc.size", SIZE_NO_LIMIT - 1)?),
                    None => None,
                },
                return_mode: get("return_mode", 1, 0)? as u32,
                watertight: match m.get("watertight") {
                    Some(b) => boolean(b, "desc.watertight")?,
                    None => false,
                },
                rtype: super::BVH_RSRC_TYPE,
            })
        }
    }
}

fn parse_instr(v: &Value) -> Result<Instr, FieldError> {
    let m = object(v, "instr")?;
    let names: Vec<&str> = Instr::LEGAL.iter().map(|l| l.0).collect();
    check_fields(m, "instr", &names)?;
    let mut i = Instr::default();
    for (k, (name, _, width)) in Instr::LEGAL.iter().enumerate() {
        if let Some(x) = m.get(*name) {
            let f = format!("instr.{name}");
            let val = match x {
                Value::Bool(b) if *width == 1 => u32::from(*b),
                _ => uint(x, &f, (1u64 << width) - 1)? as u32,
            };
            i.set(k, val);
        }
    }
    Ok(i)
}

fn parse_node(v: &Value, ptr: u64) -> Result<Node, FieldError> {
    let m = object(v, "node")?;
    let ty = required(m, "node", "type")?;
    let ptr_type = (ptr & 7) as u32;
    let name = ty.as_str();
    let node = match name {
        Some("box32") | Some("box16") => {
            check_fields(m, "node", &["type", "children", "boxes"])?;
            let children = u32s::<4>(required(m, "node", "children")?, "node.children")?;
            let b = array(required(m, "node", "boxes")?, "node.boxes", Some(4))?;
            if name == Some("box32") {
                let mut boxes = [[0u32; 6]; 4];
                for (i, bx) in b.iter().enumerate() {
                    let f = format!("node.boxes[{i}]");
                    for (c, x) in array(bx, &f, Some(6))?.iter().enumerate() {
                        boxes[i][c] = f32_bits(x, &format!("{f}[{c}]"))?;
                    }
                }
                Node::Box32 { children, boxes }
            } else {
                let mut boxes = [[0u16; 6]; 4];
                for (i, bx) in b.iter().enumerate() {
                    let f = format!("node.boxes[{i}]");
                    for (c, x) in array(bx, &f, Some(6))?.iter().enumerate() {
                        boxes[i][c] = f16_bits(x, &format!("{f}[{c}]"))?;
                    }
                }
                Node::Box16 { children, boxes }
            }
        }
        Some("tri") => {
            check_fields(m, "node", &["type", "verts", "tri_id"])?;
            let vs = array(required(m, "node", "verts")?, "node.verts", None)?;
            let need = match ptr_type {
                0 => 3,
                1 => 4,
                _ => 5,
            };
            if vs.len() > 5 || (ptr_type < 4 && vs.len() < need) {
                return Err(FieldError::new(
                    "node.verts",
                    format!(
                        "pointer type {ptr_type} tests vertices {:?}: expected {need}…5 vertices, found {}",
                        super::TRI_VERTS[(ptr_type & 3) as usize],
                        vs.len()
                    ),
                ));
            }
            let mut verts = Vec::with_capacity(vs.len());
            for (k, x) in vs.iter().enumerate() {
                verts.push(f32x3(x, &format!("node.verts[{k}]"))?);
            }
            let tri_id = uint(
                required(m, "node", "tri_id")?,
                "node.tri_id",
                u32::MAX.into(),
            )? as u32;
            Node::Tri { verts, tri_id }
        }
        _ => {
            return Err(FieldError::new(
                "node.type",
                format!("expected one of [\"box32\", \"box16\", \"tri\"], found {ty}"),
            ))
        }
    };
    if !node.matches(ptr_type) {
        return Err(FieldError::new(
            "node.type",
            format!(
                "node type \"{}\" disagrees with node_ptr[2:0] = {ptr_type} (tri: 0–3, box16: 4, box32: 5)",
                node.type_name()
            ),
        ));
    }
    Ok(node)
}

/// Parses one BVH vector.
pub fn parse_line(line: &str) -> Result<BvhTxn, FieldError> {
    let o = parse_object(line)?;
    check_fields(
        &o,
        "",
        &[
            "ray",
            "desc",
            "desc_bits",
            "node_ptr",
            "node",
            "a16",
            "bvh64",
            "instr",
        ],
    )?;
    let flag = |k: &str| o.get(k).map_or(Ok(false), |v| boolean(v, k));
    let a16 = flag("a16")?;
    let bvh64 = flag("bvh64")?;
    let r = object(required(&o, "", "ray")?, "ray")?;
    check_fields(r, "ray", &["origin", "dir", "inv_dir", "extent"])?;
    let dir3 = if a16 { f16x3 } else { f32x3 };
    let ray = Ray {
        origin: f32x3(required(r, "ray", "origin")?, "ray.origin")?,
        dir: dir3(required(r, "ray", "dir")?, "ray.dir")?,
        inv_dir: dir3(required(r, "ray", "inv_dir")?, "ray.inv_dir")?,
        extent: f32_bits(required(r, "ray", "extent")?, "ray.extent")?,
    };
    let desc = parse_desc(&o)?;
    let ptr_max = if bvh64 { u64::MAX } else { u32::MAX.into() };
    let node_ptr = uint(required(&o, "", "node_ptr")?, "node_ptr", ptr_max).map_err(|e| {
        if bvh64 {
            e
        } else {
            FieldError::new(
                e.field,
                format!("{} (a u64 pointer needs \"bvh64\": true)", e.message),
            )
        }
    })?;
    let instr = match o.get("instr") {
        Some(v) => parse_instr(v)?,
        None => Instr::default(),
    };
    let ptr_type = node_ptr & 7;
    let node = match o.get("node") {
        Some(_) if ptr_type >= 6 => {
            return Err(FieldError::new(
                "node",
                format!(
                    "node_ptr[2:0] = {ptr_type} ({}) fetches no node: remove `node`",
                    if ptr_type == 6 {
                        "instance"
                    } else {
                        "procedural"
                    }
                ),
            ))
        }
        Some(v) => Some(parse_node(v, node_ptr)?),
        None if node_fetch(&desc, node_ptr).is_some() => {
            return Err(FieldError::new(
                "node",
                format!("missing required field (node_ptr[2:0] = {ptr_type} fetches a node)"),
            ))
        }
        None => None,
    };
    Ok(BvhTxn {
        ray,
        a16,
        bvh64,
        desc,
        node_ptr,
        node,
        instr,
    })
}

/// A vector as JSON (the inverse of [`parse_line`]): `desc` when the descriptor's type is the
/// BVH type, else `desc_bits`; `instr` only when it is not the legal default.
pub fn txn_json(t: &BvhTxn) -> Value {
    let d = &t.desc;
    let mut v = json!({
        "ray": {"origin": t.ray.origin, "dir": t.ray.dir, "inv_dir": t.ray.inv_dir,
                "extent": t.ray.extent},
        "node_ptr": t.node_ptr,
        "a16": t.a16,
        "bvh64": t.bvh64,
    });
    if d.rtype == super::BVH_RSRC_TYPE {
        v["desc"] = json!({"base": d.base, "box_grow": d.box_grow, "box_sort": d.box_sort,
                           "return_mode": d.return_mode});
        if let Some(s) = d.size {
            v["desc"]["size"] = json!(s);
        }
        if d.heuristic != 0 {
            v["desc"]["heuristic"] = json!(d.heuristic);
        }
        if d.watertight {
            v["desc"]["watertight"] = json!(true);
        }
    } else {
        v["desc_bits"] = json!(d.to_bits());
    }
    if let Some(n) = &t.node {
        v["node"] = match n {
            Node::Box32 { children, boxes } => {
                json!({"type": "box32", "children": children, "boxes": boxes})
            }
            Node::Box16 { children, boxes } => {
                json!({"type": "box16", "children": children, "boxes": boxes})
            }
            Node::Tri { verts, tri_id } => json!({"type": "tri", "verts": verts, "tri_id": tri_id}),
        };
    }
    if t.instr != Instr::default() {
        let mut m = Map::new();
        for ((name, _, _), val) in Instr::LEGAL.iter().zip(t.instr.values()) {
            m.insert(name.to_string(), json!(val));
        }
        v["instr"] = Value::Object(m);
    }
    v
}

/// A result as JSON: `{"d": [4 u32]}` or `{"d": null, "error": "…"}`.
pub fn result_json(r: &BvhResult) -> Value {
    match r {
        Ok(d) => json!({ "d": d }),
        Err(e) => json!({"d": null, "error": e.to_string()}),
    }
}
