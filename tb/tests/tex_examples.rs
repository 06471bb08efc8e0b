//! Texture unit conformance examples: every vector of examples/tex.jsonl through the golden model
//! (one cache, cold at the start and flushed when the textures change, as `golden_batch` runs a
//! file) against examples/tex.expected.jsonl, whose values were worked out by hand from the rules
//! in tb/src/tex (UNORM tables, swizzles, weights, compare, LOD, linear layout, 64-byte lines);
//! and the vectors' JSON round trip.

use serde_json::Value;
use std::path::Path;
use texpix_tb::tex::io::{parse_line, result_json, txn_json};
use texpix_tb::tex::{golden_batch, TexTxn};
use texpix_tb::vectors::{parse_object, read_jsonl};

fn examples() -> (Vec<TexTxn>, Vec<Value>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let vectors = read_jsonl(&dir.join("tex.jsonl"), parse_line).expect("vectors");
    let expected = read_jsonl(&dir.join("tex.expected.jsonl"), |l| {
        parse_object(l).map(Value::Object)
    })
    .expect("expected results");
    assert_eq!(vectors.len(), expected.len());
    assert!(vectors.len() >= 20);
    (vectors, expected)
}

#[test]
fn examples_match_the_hand_computed_results() {
    let (vectors, expected) = examples();
    let results = golden_batch(&vectors);
    let mut bad = Vec::new();
    for (k, (r, want)) in results.iter().zip(&expected).enumerate() {
        let got = result_json(r);
        if &got != want {
            bad.push(format!(
                "examples/tex.jsonl line {}:\n  golden   {got}\n  expected {want}",
                k + 1
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn examples_round_trip_and_cover_every_op() {
    let (vectors, _) = examples();
    for (k, t) in vectors.iter().enumerate() {
        let again = parse_line(&txn_json(t).to_string()).expect("reparse");
        assert_eq!(&again, t, "line {}", k + 1);
    }
    for (op, name) in texpix_tb::tex::TexOp::ALL {
        assert!(vectors.iter().any(|t| t.op == op), "no {name} example");
    }
}
