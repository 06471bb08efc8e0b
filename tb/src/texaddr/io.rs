//! Texture-address vectors and results as JSON Lines (being written).

use super::{TexAddrResult, TexAddrTxn};
use crate::vectors::FieldError;
use serde_json::Value;

/// Parses one texaddr vector.
pub fn parse_texaddr_line(_line: &str) -> Result<TexAddrTxn, FieldError> {
    Err(FieldError::new(
        "",
        "texaddr vectors: parser not written yet",
    ))
}

/// A vector as JSON.
pub fn to_json(_t: &TexAddrTxn) -> Value {
    Value::Null
}

/// A result as JSON.
pub fn result_to_json(_r: &TexAddrResult) -> Value {
    Value::Null
}
