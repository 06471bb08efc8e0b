//! External tools, called in one place: any command with its output captured, Verilog simulation
//! runs with a time limit, Verilator lint and Yosys structural checks of an exported design.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs an external tool to completion: its stdout and stderr, or an error naming the tool (not
/// installed, or failed with its output).
pub fn run_tool(cmd: &mut Command, what: &str) -> Result<String, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {what}: {e} (install it with scripts/setup.sh)"))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !out.status.success() {
        return Err(format!("{what} failed ({}):\n{text}", out.status));
    }
    Ok(text)
}

/// Wall-time limit of one Verilog simulation run. A zero-delay loop in the exported Verilog (e.g.
/// two combinational blocks re-triggering each other through transient writes) hangs Icarus at one
/// simulated time; this turns the hang into an error.
pub const SIM_TIMEOUT: Duration = Duration::from_secs(600);

/// Runs `cmd` to completion, killing it after `limit`.
pub fn run_with_timeout(cmd: &mut Command, what: &str, limit: Duration) -> Result<(), String> {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {what}: {e} (install it with scripts/setup.sh)"))?;
    let t0 = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if t0.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{what} did not finish within {} s (a zero-delay loop in the Verilog?)",
                    limit.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("{what}: {e}")),
        }
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{what}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}

/// Verilator `-Wall` lint of `verilog` (top module `top`) with the project's waiver file
/// `scripts/verilator_waivers.vlt` and any `extra_waivers` (file names in `scripts/`): an error
/// naming the warnings if there are any. `-fno-reorder` skips Verilator's statement reordering,
/// an optimisation that reports nothing and is quadratic in the length of an `always` block: it
/// took 261 of the 318 s Verilator 5.006 spent on the texture unit's Verilog (whose top is one
/// 40 000-line block); without it the lint takes 51 s and reports the same warnings.
pub fn lint(verilog: &Path, top: &str, extra_waivers: &[&str]) -> Result<(), String> {
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let out = run_tool(
        Command::new("verilator")
            .args(["--lint-only", "-Wall", "-fno-reorder", "--top-module", top])
            .arg(scripts.join("verilator_waivers.vlt"))
            .args(extra_waivers.iter().map(|w| scripts.join(w)))
            .arg(verilog),
        &format!("verilator --lint-only -Wall ({top})"),
    )?;
    if out.contains("%Warning") {
        return Err(format!("{top}: lint warnings:\n{out}"));
    }
    Ok(())
}

/// Yosys structural checks of `verilog` (top module `top`): the hierarchy resolves, no latches, no
/// undriven nets, no logic loops (`check -assert`).
pub fn yosys_check(verilog: &Path, top: &str) -> Result<(), String> {
    let script = format!(
        "read_verilog {}; hierarchy -check -top {top}; proc; check -assert; select -assert-none t:$dlatch",
        verilog.display()
    );
    run_tool(
        Command::new("yosys").args(["-q", "-p", &script]),
        &format!("yosys ({top})"),
    )
    .map(|_| ())
}
