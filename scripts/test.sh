#!/usr/bin/env bash
# The README's test command: the Rust tests (profile `ci`: release optimisation, quicker to build;
# the Python extension texpix-py has no Rust tests, and setup.sh built it with maturin) and the
# Python test benches (scripts/test_python.sh). Needs scripts/setup.sh first.
#
# Order, for two cores: the texture unit's netlist (a Yosys elaboration of about 10 minutes of one
# core, then its C) is built first, in the background, by one `texpix run tex` on the netlist
# engine; the Python part runs beside the Rust tests, its output kept and printed after theirs;
# and the Rust test binaries that need that netlist (`late`) run after all the others, so the
# others do not wait for it. Every file in rtl/tests and tb/tests runs in one of the two passes.
# The run fails if any part fails.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --profile ci --workspace --exclude texpix-py --no-run
warm_log="$(mktemp)"
target/ci/texpix run tex --input examples/tex.jsonl --engine netlist --output /dev/null >"$warm_log" 2>&1 &
warm_pid=$!
py_log="$(mktemp)"
bash scripts/test_python.sh >"$py_log" 2>&1 &
py_pid=$!
late=(cli netlist regress tex_rtl verilog)
early=()
for f in rtl/tests/*.rs sim/tests/*.rs tb/tests/*.rs; do
    [ -e "$f" ] || continue
    n="$(basename "$f" .rs)"
    [[ " ${late[*]} " == *" $n "* ]] || early+=(--test "$n")
done
late_args=()
for n in "${late[@]}"; do
    late_args+=(--test "$n")
done
# Packages are named explicitly (not --workspace, which would also build texpix-rtl's disabled
# unit-test harness for --lib); naming texpix-tb in each keeps cargo's feature resolution, and so
# the builds, those of `--no-run` above.
rust_rc=0
cargo test --profile ci -p texpix-sim -p texpix-tb --lib || rust_rc=$?
cargo test --profile ci -p texpix-rtl -p texpix-sim -p texpix-tb "${early[@]}" || rust_rc=$?
cargo test --profile ci -p texpix-tb "${late_args[@]}" || rust_rc=$?
warm_rc=0
wait "$warm_pid" || warm_rc=$?
py_rc=0
wait "$py_pid" || py_rc=$?
echo "---------------- Python test benches (scripts/test_python.sh) ----------------"
cat "$py_log"
rm -f "$py_log"
if [ "$warm_rc" -ne 0 ]; then
    echo "scripts/test.sh: building the texture unit's netlist (texpix run tex --engine netlist) failed (exit $warm_rc):" >&2
    cat "$warm_log" >&2
fi
rm -f "$warm_log"
if [ "$rust_rc" -ne 0 ]; then
    echo "scripts/test.sh: the Rust tests failed (exit $rust_rc)" >&2
fi
if [ "$py_rc" -ne 0 ]; then
    echo "scripts/test.sh: the Python test benches failed (exit $py_rc)" >&2
fi
[ "$warm_rc" -eq 0 ] && [ "$rust_rc" -eq 0 ] && [ "$py_rc" -eq 0 ]
