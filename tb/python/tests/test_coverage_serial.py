"""The time-multiplexed coverage unit (the iCEBreaker board's, rtl/src/coverage/serial.rs): registered
with one line like every unit, so its golden model, batch runs, both engines and the dut work with
no harness code of its own."""

import json
from pathlib import Path

import texpix
from texpix import Clock, ClockCycles, RisingEdge

TOPLEVEL = "coverage-serial"
SERIAL_CYCLES = 405  # clocks per transaction (rtl/src/coverage/serial.rs)
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _jsonl(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_golden_reproduces_the_examples_and_the_ideal():
    """The serial unit's golden model, reached through its own registration, reproduces the
    conformance examples' expected results (examples/coverage.expected.jsonl, every field) and equals
    the independent ideal reference (tb/src/coverage/ideal.rs: covmask and every op's rd, pd, error)
    on the random vectors of the batch test."""
    vecs, expected = _jsonl(EXAMPLES / "coverage.jsonl"), _jsonl(EXAMPLES / "coverage.expected.jsonl")
    assert len(vecs) == len(expected) > 0
    for k, (got, want) in enumerate(zip(texpix.golden.coverage_serial(vecs), expected)):
        assert got == want, f"examples/coverage.jsonl line {k + 1}"
    vecs = texpix.golden.random("coverage-serial", 30, seed=9)
    for k, (v, got) in enumerate(zip(vecs, texpix.golden.coverage_serial(vecs))):
        ideal = texpix.golden.ideal("coverage-serial", v)
        assert got == {"covmask": ideal["covmask"], "pixld": ideal["pixld"]}, f"vector {k}: {v}"


def test_batch_matches_golden_on_both_engines():
    vecs = texpix.golden.random("coverage-serial", 30, seed=9)
    expected = texpix.golden.coverage_serial(vecs)
    for engine in ("rtl", "netlist"):
        got, stats = texpix.golden.batch("coverage-serial", vecs, stall_permille=300, idle_permille=300,
                                         seed=4, with_cycles=True, engine=engine)
        for k, (e, g) in enumerate(zip(expected, got)):
            assert g["covmask"] == e["covmask"] and g["pixld"] == e["pixld"], f"{engine}: vector {k}"
        assert stats["cycles"] >= SERIAL_CYCLES * len(vecs), stats


@texpix.test(engine="netlist")
async def test_in_ready_low_while_computing(dut):
    """Offered a transaction, the unit computes with in_ready low and takes it SERIAL_CYCLES clocks
    later; the result's tag comes back."""
    dut.in_valid.value = 0
    dut.out_ready.value = 1
    dut.reset.value = 1
    Clock(dut.clock, 10, "ns").start()
    await ClockCycles(dut.clock, 2)
    dut.reset.value = 0
    dut.in_log2n.value = 2
    dut.in_tag.value = 0x5A5A
    dut.in_valid.value = 1
    waited = 0
    while True:
        await RisingEdge(dut.clock)
        waited += 1
        if int(dut.in_ready.value):
            break
        assert waited < 2 * SERIAL_CYCLES, "never accepted"
    dut.in_valid.value = 0
    assert waited == SERIAL_CYCLES, waited
    await RisingEdge(dut.clock)
    assert int(dut.out_valid.value) == 1 and int(dut.out_tag.value) == 0x5A5A
