//! The `texpix` program as users run it: exit status, outputs, and one clear error line per bad input.

use std::path::PathBuf;
use std::process::Command;

fn texpix(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_texpix"))
        .args(args)
        .output()
        .expect("run texpix");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&p, text).expect("write");
    p
}

const GOOD: &str = r#"{"samples": 4, "tri": [[0, 0], [2560, 0], [0, 2560]], "quad": [2, 2], "ops": [{"mode": "COVMASK"}]}"#;

/// Each malformed file must fail with exit status 1, one line naming file, line and field, no panic.
#[test]
fn malformed_vector_files_give_one_clear_error() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("bad_json", "{\"samples\": 4,", &[":2:"]),
        (
            "unknown_field",
            r#"{"samples": 4, "tri": [[0,0],[1,0],[0,1]], "quad": [0,0], "ops": [], "colour": 1}"#,
            &[":2:", "colour"],
        ),
        (
            "missing_field",
            r#"{"samples": 4, "quad": [0,0], "ops": []}"#,
            &[":2:", "tri"],
        ),
        (
            "wrong_type",
            r#"{"samples": "four", "tri": [[0,0],[1,0],[0,1]], "quad": [0,0], "ops": []}"#,
            &[":2:", "samples"],
        ),
        (
            "out_of_range",
            r#"{"samples": 4, "tri": [[0,0],[99999999,0],[0,1]], "quad": [0,0], "ops": []}"#,
            &[":2:", "tri[1][0]"],
        ),
        (
            "bad_mode",
            r#"{"samples": 4, "tri": [[0,0],[1,0],[0,1]], "quad": [0,0], "ops": [{"mode": "FOO"}]}"#,
            &[":2:", "ops[0].mode"],
        ),
    ];
    for (name, line2, needles) in cases {
        let f = tmp(
            &format!("{name}.jsonl"),
            &format!("{GOOD}\n{line2}\n{GOOD}\n"),
        );
        let out = f.with_extension("out.jsonl");
        let (ok, _, err) = texpix(&[
            "run",
            "coverage",
            "--input",
            f.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ]);
        assert!(!ok, "{name}: must fail");
        assert!(!err.contains("panicked"), "{name}: panic: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{name}: one line: {err}");
        for n in *needles {
            assert!(err.contains(n), "{name}: `{n}` missing from: {err}");
        }
        assert!(
            err.contains(&format!("{name}.jsonl")),
            "{name}: file missing from: {err}"
        );
        assert!(!out.exists(), "{name}: no result file on failure");
    }
}

#[test]
fn run_writes_one_result_per_vector_with_cycles() {
    let f = tmp("good.jsonl", &format!("{GOOD}\n{GOOD}\n"));
    let out = f.with_extension("res.jsonl");
    let (ok, _, err) = texpix(&[
        "run",
        "coverage",
        "--input",
        f.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
        "--stall",
        "0.3",
        "--seed",
        "4",
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    for l in lines {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert!(
            v["cycle_in"].as_u64().is_some() && v["cycle_out"].as_u64() > v["cycle_in"].as_u64()
        );
        // All four samples of pixel (2,2) (within 0.375 px of its centre) lie inside x + y < 10 px.
        assert_eq!(v["covmask"][0], 15);
    }
}

/// Exit status of `texpix args`, with its stderr.
fn status(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_texpix"))
        .args(args)
        .output()
        .expect("run texpix");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Usage errors exit with 2 (clap), data errors with 1 and one line.
#[test]
fn unknown_unit_and_option_are_errors() {
    let (code, err) = status(&["run", "nosuch", "--input", "x"]);
    assert!(
        code == Some(2) && err.contains("unknown unit `nosuch`"),
        "{err}"
    );
    let (code, err) = status(&["bench", "coverage", "--frobnicate", "1"]);
    assert!(code == Some(2) && err.contains("--frobnicate"), "{err}");
    let (code, err) = status(&["run", "coverage", "--input", "x", "--stall", "0.99"]);
    assert!(code == Some(2) && err.contains("outside 0…0.95"), "{err}");
    let (code, err) = status(&["run", "coverage", "--input", "/nonexistent/v.jsonl"]);
    assert!(
        code == Some(1) && err.contains("/nonexistent/v.jsonl"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `--help` for the program and each command, `--version`, and `list --names` (the registry).
#[test]
fn help_version_and_unit_names() {
    let (ok, out, _) = texpix(&["--help"]);
    assert!(ok && out.contains("Usage: texpix <COMMAND>"), "{out}");
    for cmd in [
        "list",
        "run",
        "gen",
        "export",
        "export-fpga",
        "cosim",
        "bench",
    ] {
        assert!(out.contains(cmd), "--help lacks {cmd}");
        let (ok, out, err) = texpix(&[cmd, "--help"]);
        assert!(
            ok && out.contains(&format!("Usage: texpix {cmd}")),
            "{cmd}: {out}{err}"
        );
    }
    let (ok, out, _) = texpix(&["--version"]);
    assert!(ok && out.starts_with("texpix "), "{out}");
    let (ok, out, _) = texpix(&["list", "--names"]);
    let names: Vec<&str> = out.lines().collect();
    assert!(ok && names == texpix_tb::registry::names(), "{out}");
}

/// `run lod` (golden model and RTL) on the conformance examples, `gen lod` round trip, and LOD
/// input errors.
#[test]
fn lod_golden_runs_and_rejects_bad_vectors() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/lod.jsonl");
    let (ok, out, err) = texpix(&["run", "lod", "--input", examples, "--model", "golden"]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 30);
    assert!(out
        .lines()
        .all(|l| l.contains("\"lambda\":[") && l.contains("\"cycle_in\":null")));
    let gen = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gen_lod.jsonl");
    let (ok, _, err) = texpix(&[
        "gen",
        "lod",
        "--count",
        "50",
        "--seed",
        "3",
        "--output",
        gen.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let (ok, out, err) = texpix(&[
        "run",
        "lod",
        "--input",
        gen.to_str().unwrap(),
        "--model",
        "golden",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 50);
    let cases: &[(&str, &str, &str)] = &[
        (
            "lod_range",
            r#"{"tex":{"width":0,"height":4,"levels":1},"sampler":{},"mode":"lz"}"#,
            "tex.width",
        ),
        (
            "lod_missing",
            r#"{"tex":{"width":4,"height":4,"levels":1},"sampler":{},"mode":"grad"}"#,
            "`grad`",
        ),
        (
            "lod_mode",
            r#"{"tex":{"width":4,"height":4,"levels":1},"sampler":{},"mode":"tex"}"#,
            "`mode`",
        ),
        (
            "lod_f32",
            r#"{"tex":{"width":4,"height":4,"levels":1},"sampler":{},"mode":"lod","lod":[1,2,3,-4]}"#,
            "lod[3]",
        ),
    ];
    for (name, line, field) in cases {
        let p = tmp(&format!("{name}.jsonl"), &format!("{line}\n"));
        let (ok, _, err) = texpix(&["run", "lod", "--input", p.to_str().unwrap()]);
        assert!(!ok, "{name} must fail");
        assert!(
            err.contains(":1:") && err.contains(field) && err.lines().count() == 1,
            "{name}: {err}"
        );
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    // The RTL with back-pressure, checked against the golden model line by line.
    let (ok, out, err) = texpix(&[
        "run", "lod", "--input", examples, "--stall", "0.3", "--seed", "5",
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("RTL == golden for all"), "{err}");
    assert_eq!(out.lines().count(), 30);
    assert!(
        !out.contains("\"cycle_in\":null"),
        "RTL results carry cycles"
    );
}

/// `run texaddr` on the conformance examples (RTL with back-pressure, checked line by line; a VCD),
/// and texture-address input errors naming line and field.
#[test]
fn texaddr_runs_and_rejects_bad_vectors() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/texaddr.jsonl");
    let vcd = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("texaddr.vcd");
    let (ok, out, err) = texpix(&[
        "run",
        "texaddr",
        "--input",
        examples,
        "--stall",
        "0.3",
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("RTL == golden for all"), "{err}");
    assert_eq!(out.lines().count(), 30);
    let wave = std::fs::read_to_string(&vcd).expect("vcd");
    assert!(
        wave.contains("out_addr") && wave.contains("desc_rd"),
        "VCD lacks the ports"
    );
    let good = r#""sampler":{"wrap_s":"repeat","wrap_t":"repeat","filter":"linear"},"level":0,"lanes":[{"s":0.5,"t":0.5},{"s":0.5,"t":0.5},{"s":0.5,"t":0.5},{"s":0.5,"t":0.5}]"#;
    let cases: &[(&str, String, &str)] = &[
        (
            "ta_bpp",
            format!(
                r#"{{"tex":{{"width":4,"height":4,"levels":1,"bpp":3,"base":0,"dim":"2d"}},{good}}}"#
            ),
            "tex.bpp",
        ),
        (
            "ta_dim",
            format!(
                r#"{{"tex":{{"width":4,"height":4,"levels":1,"bpp":4,"base":0,"dim":"4d"}},{good}}}"#
            ),
            "tex.dim",
        ),
        (
            "ta_unknown",
            format!(
                r#"{{"tex":{{"width":4,"height":4,"levels":1,"bpp":4,"base":0,"dim":"2d","colour":1}},{good}}}"#
            ),
            "tex.colour",
        ),
    ];
    for (name, line, field) in cases {
        let p = tmp(&format!("{name}.jsonl"), &format!("{line}\n"));
        let (ok, _, err) = texpix(&["run", "texaddr", "--input", p.to_str().unwrap()]);
        assert!(!ok, "{name} must fail");
        assert!(
            err.contains(":1:") && err.contains(field) && err.lines().count() == 1,
            "{name}: {err}"
        );
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

/// `run tex` on the conformance examples through the RTL (checked against the golden model, with
/// back-pressure) equals the hand-computed expected file; `gen tex` round trip through the golden
/// model; a bad texture field is one error line naming file, line and field.
#[test]
fn tex_runs_the_examples_and_rejects_bad_vectors() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/");
    let examples = format!("{dir}tex.jsonl");
    let expected = std::fs::read_to_string(format!("{dir}tex.expected.jsonl")).expect("read");
    let out_file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tex_results.jsonl");
    let (ok, _, err) = texpix(&[
        "run",
        "tex",
        "--input",
        &examples,
        "--output",
        out_file.to_str().unwrap(),
        "--stall",
        "0.3",
        "--seed",
        "4",
    ]);
    assert!(ok, "{err}");
    let got = std::fs::read_to_string(&out_file).expect("results");
    let strip = |l: &str| {
        let mut v: serde_json::Value = serde_json::from_str(l).expect("json");
        let m = v.as_object_mut().expect("object");
        m.remove("cycle_in");
        m.remove("cycle_out");
        v
    };
    let (got, want): (Vec<_>, Vec<_>) = (
        got.lines().map(strip).collect(),
        expected.lines().map(strip).collect(),
    );
    assert_eq!(got.len(), want.len());
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "examples/tex.jsonl line {}", k + 1);
    }
    let gen = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gen_tex.jsonl");
    let (ok, _, err) = texpix(&[
        "gen",
        "tex",
        "--count",
        "40",
        "--seed",
        "2",
        "--output",
        gen.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let (ok, out, err) = texpix(&[
        "run",
        "tex",
        "--input",
        gen.to_str().unwrap(),
        "--model",
        "golden",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 40);
    let first = std::fs::read_to_string(&examples).expect("read");
    let first = first.lines().next().expect("a line");
    let bad = tmp(
        "tex_bad.jsonl",
        &format!("{first}\n{}\n", first.replacen("\"rgba8\"", "\"rgba9\"", 1)),
    );
    let (ok, _, err) = texpix(&["run", "tex", "--input", bad.to_str().unwrap()]);
    assert!(!ok);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(":2:") && err.contains("textures[0].format"),
        "{err}"
    );
}
