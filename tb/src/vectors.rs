//! JSON Lines vector files, unit-agnostic: strict field extraction with errors that name the field,
//! and file reading with errors that name the file and line.
//!
//! Conventions (docs/units/README.md, Common conventions): an f32 field given as a bare JSON
//! integer is its bit pattern; a number with a fraction or exponent is a value; a string may spell
//! `inf`, `-inf`, `nan`, `-0.0` or any number. Unknown fields are errors, as are missing required
//! ones.

use serde_json::{Map, Value};
use std::fmt;
use std::path::Path;

/// A problem with one field of one object.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// Path of the field, e.g. `ops[2].index`.
    pub field: String,
    pub message: String,
}

impl FieldError {
    /// An error at `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "field `{}`: {}", self.field, self.message)
        }
    }
}

/// A problem with a vector file: path, 1-based line, field.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorError {
    pub path: String,
    pub line: usize,
    pub field: String,
    pub message: String,
}

impl fmt::Display for VectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.line > 0 {
            format!("{}:{}", self.path, self.line)
        } else {
            self.path.clone()
        };
        if self.field.is_empty() {
            write!(f, "{at}: {}", self.message)
        } else {
            write!(f, "{at}: field `{}`: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for VectorError {}

/// Reads a JSON Lines file, parsing each non-blank line with `parse`; stops at the first bad line.
pub fn read_jsonl<T>(
    path: &Path,
    parse: impl Fn(&str) -> Result<T, FieldError>,
) -> Result<Vec<T>, VectorError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| VectorError {
        path: name.clone(),
        line: 0,
        field: String::new(),
        message: format!("cannot read: {e}"),
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        out.push(parse(line).map_err(|e| VectorError {
            path: name.clone(),
            line: i + 1,
            field: e.field,
            message: e.message,
        })?);
    }
    Ok(out)
}

/// Parses one line as a JSON object.
pub fn parse_object(line: &str) -> Result<Map<String, Value>, FieldError> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(other) => Err(FieldError::new(
            "",
            format!("expected a JSON object, found {}", kind(&other)),
        )),
        Err(e) => Err(FieldError::new("", format!("bad JSON: {e}"))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The path of member `field` of the object at `prefix` (`prefix.field`, or `field` at the top).
pub fn join(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_string()
    } else {
        format!("{prefix}.{field}")
    }
}

/// Rejects any field of `obj` not in `known`, naming it (`prefix` is the object's own path).
pub fn check_fields(
    obj: &Map<String, Value>,
    prefix: &str,
    known: &[&str],
) -> Result<(), FieldError> {
    for k in obj.keys() {
        if !known.contains(&k.as_str()) {
            return Err(FieldError::new(
                join(prefix, k),
                format!("unknown field (known: {})", known.join(", ")),
            ));
        }
    }
    Ok(())
}

/// A required member.
pub fn required<'a>(
    obj: &'a Map<String, Value>,
    prefix: &str,
    k: &str,
) -> Result<&'a Value, FieldError> {
    obj.get(k)
        .ok_or_else(|| FieldError::new(join(prefix, k), "missing required field"))
}

/// An optional member of `m` (at `prefix`), parsed by `f`, or `default`.
pub fn opt<T>(
    m: &Map<String, Value>,
    prefix: &str,
    k: &str,
    default: T,
    f: impl FnOnce(&Value, &str) -> Result<T, FieldError>,
) -> Result<T, FieldError> {
    match m.get(k) {
        Some(v) => f(v, &join(prefix, k)),
        None => Ok(default),
    }
}

/// A required member of `m` (at `prefix`), parsed by `f`.
pub fn req<T>(
    m: &Map<String, Value>,
    prefix: &str,
    k: &str,
    f: impl FnOnce(&Value, &str) -> Result<T, FieldError>,
) -> Result<T, FieldError> {
    f(required(m, prefix, k)?, &join(prefix, k))
}

/// A parser of integers in `min..=max`.
pub fn ranged(min: i64, max: i64) -> impl Fn(&Value, &str) -> Result<i64, FieldError> {
    move |v, f| int(v, f, min, max)
}

/// An object member.
pub fn object<'a>(v: &'a Value, field: &str) -> Result<&'a Map<String, Value>, FieldError> {
    v.as_object()
        .ok_or_else(|| FieldError::new(field, format!("expected an object, found {v}")))
}

/// One of the named values `names` (a string).
pub fn name<T: Copy>(v: &Value, field: &str, names: &[(T, &str)]) -> Result<T, FieldError> {
    let list: Vec<&str> = names.iter().map(|n| n.1).collect();
    v.as_str()
        .and_then(|s| names.iter().find(|n| n.1 == s).map(|n| n.0))
        .ok_or_else(|| FieldError::new(field, format!("expected one of {list:?}, found {v}")))
}

/// An integer in `min..=max`.
pub fn int(v: &Value, field: &str, min: i64, max: i64) -> Result<i64, FieldError> {
    let n = match v {
        Value::Number(n) if n.is_i64() => n.as_i64(),
        Value::Number(n) if n.is_u64() => n.as_u64().and_then(|u| i64::try_from(u).ok()),
        _ => None,
    };
    match n {
        Some(x) if (min..=max).contains(&x) => Ok(x),
        _ => Err(FieldError::new(
            field,
            format!("expected an integer in {min}..={max}, found {v}"),
        )),
    }
}

/// A boolean.
pub fn boolean(v: &Value, field: &str) -> Result<bool, FieldError> {
    v.as_bool()
        .ok_or_else(|| FieldError::new(field, format!("expected true or false, found {v}")))
}

/// An array of exactly `n` elements (any length when `n` is `None`).
pub fn array<'a>(
    v: &'a Value,
    field: &str,
    n: Option<usize>,
) -> Result<&'a Vec<Value>, FieldError> {
    match (v.as_array(), n) {
        (Some(a), Some(n)) if a.len() != n => Err(FieldError::new(
            field,
            format!("expected an array of {n} elements, found {}", a.len()),
        )),
        (Some(a), _) => Ok(a),
        (None, _) => Err(FieldError::new(
            field,
            format!("expected an array, found {}", kind(v)),
        )),
    }
}

/// An f32 as its bit pattern (docs/units/README.md, Common conventions).
pub fn f32_bits(v: &Value, field: &str) -> Result<u32, FieldError> {
    match v {
        Value::Number(n) if n.is_u64() => n
            .as_u64()
            .and_then(|u| u32::try_from(u).ok())
            .ok_or_else(|| FieldError::new(field, format!("bit pattern {n} does not fit 32 bits"))),
        Value::Number(n) if n.is_i64() => Err(FieldError::new(
            field,
            format!("a bare integer is a bit pattern and must be 0..=4294967295, found {n}"),
        )),
        Value::Number(n) => Ok((n.as_f64().unwrap_or(f64::NAN) as f32).to_bits()),
        Value::String(s) => {
            let t = s.trim().to_ascii_lowercase();
            let x = match t.as_str() {
                "inf" | "+inf" | "infinity" => f32::INFINITY,
                "-inf" | "-infinity" => f32::NEG_INFINITY,
                "nan" => f32::NAN,
                _ => t
                    .parse::<f32>()
                    .map_err(|_| FieldError::new(field, format!("`{s}` is not a number")))?,
            };
            Ok(x.to_bits())
        }
        _ => Err(FieldError::new(
            field,
            format!(
                "expected an f32 (bits, number or string), found {}",
                kind(v)
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn f32_fields_follow_the_conventions() {
        assert_eq!(f32_bits(&json!(1065353216), "x"), Ok(0x3f80_0000));
        assert_eq!(f32_bits(&json!(1.0), "x"), Ok(0x3f80_0000));
        assert_eq!(f32_bits(&json!(2.5e-3), "x"), Ok(2.5e-3f32.to_bits()));
        assert_eq!(f32_bits(&json!("-0.0"), "x"), Ok(0x8000_0000));
        assert_eq!(f32_bits(&json!("inf"), "x"), Ok(0x7f80_0000));
        assert_eq!(f32_bits(&json!("-inf"), "x"), Ok(0xff80_0000));
        assert!(f32::from_bits(f32_bits(&json!("nan"), "x").unwrap()).is_nan());
        assert!(f32_bits(&json!(-1), "x").is_err());
        assert!(f32_bits(&json!(4294967296u64), "x").is_err());
        assert!(f32_bits(&json!("one"), "x")
            .unwrap_err()
            .message
            .contains("one"));
        assert!(f32_bits(&json!([1]), "x").is_err());
    }

    #[test]
    fn field_helpers_name_the_field() {
        let e = int(&json!(5), "a.b", 0, 3).unwrap_err();
        assert_eq!(
            e.to_string(),
            "field `a.b`: expected an integer in 0..=3, found 5"
        );
        assert!(int(&json!(1.5), "a", 0, 3).is_err());
        let o = parse_object(r#"{"x": 1, "y": 2}"#).unwrap();
        let e = check_fields(&o, "p", &["x"]).unwrap_err();
        assert_eq!(e.field, "p.y");
        assert_eq!(required(&o, "", "z").unwrap_err().field, "z");
        assert!(parse_object("[1]").is_err());
        assert!(parse_object("{").unwrap_err().message.contains("bad JSON"));
        assert_eq!(array(&json!([1, 2]), "a", Some(3)).unwrap_err().field, "a");
    }
}
