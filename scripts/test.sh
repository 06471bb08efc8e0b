#!/usr/bin/env bash
# The README's test command: the Rust tests (profile `ci`: release optimisation, quicker to build;
# the Python extension texpix-py has no Rust tests, and setup.sh built it with maturin) and the
# Python test benches (scripts/test_python.sh). Cargo runs the Rust test binaries one after
# another and several of them hold one core only, so once the test binaries are built the Python
# part runs beside them, its output kept and printed after the Rust tests'; the run fails if
# either part fails. Needs scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --profile ci --workspace --exclude texpix-py --no-run
py_log="$(mktemp)"
bash scripts/test_python.sh >"$py_log" 2>&1 &
py_pid=$!
rust_rc=0
cargo test --profile ci --workspace --exclude texpix-py || rust_rc=$?
py_rc=0
wait "$py_pid" || py_rc=$?
echo "---------------- Python test benches (scripts/test_python.sh) ----------------"
cat "$py_log"
rm -f "$py_log"
if [ "$rust_rc" -ne 0 ]; then
    echo "scripts/test.sh: the Rust tests failed (exit $rust_rc)" >&2
fi
if [ "$py_rc" -ne 0 ]; then
    echo "scripts/test.sh: the Python test benches failed (exit $py_rc)" >&2
fi
[ "$rust_rc" -eq 0 ] && [ "$py_rc" -eq 0 ]
