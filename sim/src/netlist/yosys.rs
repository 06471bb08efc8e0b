//! Making a unit's netlist: Yosys elaborates the exported Verilog into flattened word-level cells
//! (JSON), cached by the hash of the Verilog, the script and the Yosys version.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::build_lock::{Acquired, BuildLock};

/// Where netlists are cached: `$TEXPIX_CACHE`, else `$XDG_CACHE_HOME/texpix`, else
/// `~/.cache/texpix` (each + `/netlist`).
pub fn cache_dir() -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("TEXPIX_CACHE")
        .or_else(|| env("XDG_CACHE_HOME").map(|p| p.join("texpix")))
        .or_else(|| env("HOME").map(|p| p.join(".cache").join("texpix")))
        .unwrap_or_else(|| std::env::temp_dir().join("texpix-cache"))
        .join("netlist")
}

/// The elaboration: processes to cells; Yosys's structural checks, which refuse the design on any
/// finding (latches, undriven or multiply driven nets, logic loops within a module); one flat
/// module; constant folding and merging of identical cells (`opt -fast`: without the mux-tree and
/// reduction passes, which took 2 of the texture unit's 5.6 minutes and left it 0.6 % more cells);
/// no flip-flop rewriting (plain `$dff` only). Every named wire is kept, so each signal of the
/// rust-hdl hierarchy keeps its name even where optimisation made it an alias.
///
/// `proc` is spelled out as its passes so that `proc_prune` (removal of assignments a later one
/// overrides) can skip the top module: on the texture unit's top process (5 234 switch rules) it
/// took 233 of 590 s, and that unit's netlist without it is byte for byte the same (the
/// multiplexer pass folds those assignments anyway). The other modules need it: without it
/// `proc_init` fails on the `initial` loops of the RTL's `Retime` leaves.
pub fn script(verilog: &Path, top: &str, json: &Path) -> String {
    format!(
        "read_verilog {}; hierarchy -check -top {top}; proc_clean; proc_rmdead; proc_prune {top} %n; proc_init; proc_arst; proc_rom; proc_mux; proc_dlatch; proc_dff; proc_memwr; proc_clean; opt_expr -keepdc; check -assert; select -assert-none t:$dlatch; setattr -set keep 1 w:*; flatten; opt -fast -nodffe -nosdff; opt_clean; write_json {}",
        verilog.display(),
        json.display()
    )
}

/// FNV-1a, 64 bits over `parts` (each followed by a 0xff separator): a stable cache key.
pub fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for p in parts {
        for &b in p.iter().chain([0xffu8].iter()) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// The JSON netlist of module `top` in `verilog`, from `cache_dir` or made by Yosys (which must be on
/// `PATH`; `scripts/setup.sh` installs it).
pub fn netlist_json(verilog: &str, top: &str, cache_dir: &Path) -> Result<String, String> {
    let version = Command::new("yosys").arg("-V").output().map_err(|e| {
        format!("the netlist simulator needs Yosys on PATH (scripts/setup.sh installs it): {e}")
    })?;
    let version = String::from_utf8_lossy(&version.stdout).trim().to_string();
    std::fs::create_dir_all(cache_dir).map_err(|e| {
        format!(
            "{}: cannot create the netlist cache: {e}",
            cache_dir.display()
        )
    })?;
    let key = fnv(&[
        verilog.as_bytes(),
        top.as_bytes(),
        script(Path::new("V"), top, Path::new("J")).as_bytes(),
        version.as_bytes(),
    ]);
    let json = cache_dir.join(format!("{top}-{key:016x}.json"));
    let _lock = match BuildLock::acquire(&json) {
        Acquired::Ready => {
            return std::fs::read_to_string(&json).map_err(|e| format!("{}: {e}", json.display()))
        }
        Acquired::Make(lock) => lock,
    };
    // Temporary names unique per process and per call: two threads (two tests) may elaborate the
    // same design at once; each renames its own file into place.
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let pid = format!("{}-{call}", std::process::id());
    let v = cache_dir.join(format!("{top}-{key:016x}.{pid}.v"));
    let tmp = cache_dir.join(format!("{top}-{key:016x}.{pid}.json"));
    std::fs::write(&v, verilog).map_err(|e| format!("{}: {e}", v.display()))?;
    let out = Command::new("yosys")
        .args(["-q", "-p", &script(&v, top, &tmp)])
        .output()
        .map_err(|e| format!("running Yosys: {e}"))?;
    let _ = std::fs::remove_file(&v);
    if !out.status.success() {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!(
            "Yosys failed to elaborate {top} ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = std::fs::read_to_string(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &json).map_err(|e| format!("{}: {e}", json.display()))?;
    Ok(text)
}
