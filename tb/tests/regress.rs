//! `texpix regress` as users run it, with small counts (the long runs are opt-in: tb/regress,
//! scripts/regress): every unit's regression passes with the count it was asked for; the shards
//! of a regression together run exactly its transactions; a mismatch is counted, named (chunk,
//! chunk seed, vector) and makes the exit status nonzero; bad option combinations are one line.

use std::process::Command;
use texpix_tb::lod::Lod;
use texpix_tb::registry::UNITS;
use texpix_tb::regress::chunk_seed;
use texpix_tb::unit::Unit;

struct Out {
    ok: bool,
    stdout: String,
    stderr: String,
}

fn texpix(args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_texpix"))
        .args(args)
        .output()
        .expect("run texpix");
    Out {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    }
}

/// The summary line's unit, transactions, mismatches and engine.
fn summary(stdout: &str) -> (String, u64, u64, String) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("regress "))
        .unwrap_or_else(|| panic!("no summary line in {stdout:?}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    // regress <unit>: <N> transactions, <M> mismatches, <secs> s, engine <e>, seed <S>
    assert_eq!(words[3], "transactions,", "{line}");
    assert_eq!(words[5], "mismatches,", "{line}");
    assert_eq!(words[8], "engine", "{line}");
    (
        words[1].trim_end_matches(':').to_string(),
        words[2].parse().expect("count"),
        words[4].parse().expect("mismatches"),
        words[9].trim_end_matches(',').to_string(),
    )
}

#[test]
fn every_unit_passes_a_short_regression_on_the_netlist_engine() {
    for u in UNITS {
        let o = texpix(&[
            "regress",
            u.name,
            "--count",
            "240",
            "--chunk-size",
            "80",
            "--seed",
            "7",
        ]);
        assert!(o.ok, "{}: {}\n{}", u.name, o.stdout, o.stderr);
        let (unit, n, m, engine) = summary(&o.stdout);
        assert_eq!(unit, u.name);
        assert_eq!(n, 240, "{}", o.stdout);
        assert_eq!(m, 0, "{}", o.stdout);
        assert_eq!(engine, "netlist");
        // Progress: one line per chunk when stderr is not a terminal.
        let progress = o.stderr.lines().filter(|l| l.contains("/240 ")).count();
        assert_eq!(progress, 3, "{}", o.stderr);
    }
}

#[test]
fn shards_together_run_every_transaction_once() {
    // 7 chunks (6 of 40, one of 10) dealt to 3 shards: chunk i to shard i % 3.
    let (count, size, shards) = (250u64, 40u64, 3u64);
    let chunks = count.div_ceil(size);
    let mut total = 0;
    for s in 0..shards {
        let want: u64 = (0..chunks)
            .filter(|i| i % shards == s)
            .map(|i| size.min(count - i * size))
            .sum();
        let o = texpix(&[
            "regress",
            "lod",
            "--count",
            &count.to_string(),
            "--chunk-size",
            &size.to_string(),
            "--shards",
            &shards.to_string(),
            "--shard",
            &s.to_string(),
            "--stall",
            "0.3",
        ]);
        assert!(o.ok, "{}\n{}", o.stdout, o.stderr);
        let (_, n, m, _) = summary(&o.stdout);
        assert_eq!((n, m), (want, 0), "shard {s}: {}", o.stdout);
        assert!(o.stdout.contains(&format!("shard {s}/{shards}")));
        total += n;
    }
    assert_eq!(total, count);
}

#[test]
fn an_injected_mismatch_is_counted_and_named() {
    // Vector k of the chunk is compared with the golden result of vector k + 1 (the hidden test
    // hook): pick a k whose two golden results differ, so exactly one mismatch is due.
    let (seed, n) = (5u64, 60usize);
    let cseed = chunk_seed(seed, 0);
    let golden = Lod::golden_batch(&Lod::random(cseed, n));
    let k = (10..n - 1)
        .find(|&k| golden[k] != golden[k + 1])
        .expect("two neighbouring vectors with different results");
    let args = ["regress", "lod", "--count", "60", "--seed", "5"];
    let o = texpix(&[&args[..], &["--inject-mismatch", &k.to_string()]].concat());
    assert!(!o.ok, "a mismatch must fail the run: {}", o.stdout);
    let (_, total, m, _) = summary(&o.stdout);
    assert_eq!((total, m), (60, 1), "{}", o.stdout);
    let err = o.stderr.lines().last().unwrap_or_default();
    assert!(
        err.starts_with("texpix: regress lod: 1 mismatches"),
        "{err}"
    );
    for needle in [
        "first mismatch: chunk 0".to_string(),
        format!("chunk seed {cseed:#018x}"),
        format!("vector {k} (0-based)"),
        "reproduce: texpix regress lod --count 60 --chunk-size 10000 --seed 5 --chunk 0".into(),
    ] {
        assert!(err.contains(&needle), "`{needle}` missing from {err}");
    }
    assert!(!o.stderr.contains("panicked"));
    // The reproduce command runs that chunk again (and, without the hook, passes).
    let o = texpix(&[&args[..], &["--chunk", "0"]].concat());
    assert!(o.ok, "{}\n{}", o.stdout, o.stderr);
    assert_eq!(summary(&o.stdout).1, 60);
}

#[test]
fn bad_options_give_one_line_errors() {
    for (args, needle) in [
        (
            &["--shards", "3", "--shard", "3"][..],
            "--shard 3 is out of range",
        ),
        (
            &["--count", "10", "--chunk", "1"][..],
            "--chunk 1 is out of range",
        ),
        (&["--count", "0"][..], "--count"),
        (&["--stall", "1.5"][..], "outside 0…0.95"),
        (&["--chunk-size", "0"][..], "--chunk-size"),
        (&["--engine", "spice"][..], "unknown engine"),
    ] {
        let o = texpix(&[&["regress", "lod"][..], args].concat());
        assert!(!o.ok, "{args:?} must fail");
        assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout);
        assert!(o.stderr.contains(needle), "{args:?}: {}", o.stderr);
        assert!(!o.stderr.contains("panicked"), "{args:?}: {}", o.stderr);
    }
    let o = texpix(&["regress", "nosuch"]);
    assert!(!o.ok && o.stderr.contains("unknown unit `nosuch`"));
}
