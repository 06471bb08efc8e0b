"""The harness itself: robustness (issue 6, item 6), scheduler semantics, waveforms, runner and
pytest integration. Uses the coverage unit as a DUT; expectations follow from the tests' own
stimulus and the unit's documented handshake (``in_ready = !out_valid || out_ready``)."""

import os
import subprocess
import sys
import textwrap

import pytest

import texpix
from texpix import (ClockCycles, Combine, Event, FallingEdge, First, Queue, ReadOnly, RisingEdge,
                    SimTimeoutError, Timer, get_sim_time, start_soon, with_timeout)
from texpix._texpix import Sim

UNIT = "coverage"


def fresh_dut():
    return texpix.Dut(Sim(UNIT), UNIT)


def run(coro_fn, **kw):
    """Runs ``coro_fn`` as a test on a fresh coverage unit; returns the TestResult."""
    return texpix.run_test(texpix.test(toplevel=UNIT, **kw)(coro_fn))


async def reset(dut):
    dut.in_valid.value = 0
    dut.out_ready.value = 0
    dut.reset.value = 1
    texpix.Clock(dut.clock, 10, "ns").start()
    await ClockCycles(dut.clock, 2)
    dut.reset.value = 0
    await RisingEdge(dut.clock)


# ------------------------------------------------------------------------------ robustness


def test_unknown_signal_names_closest_matches():
    dut = fresh_dut()
    with pytest.raises(AttributeError) as e:
        dut.in_vaild  # noqa: B018 - the typo is the test
    assert "in_vaild" in str(e.value) and "in_valid" in str(e.value)
    with pytest.raises(AttributeError) as e:
        dut["in_quad_z"]
    assert "in_quad_x" in str(e.value) and "in_quad_y" in str(e.value)


def test_value_too_wide_raises_valueerror():
    dut = fresh_dut()
    dut.in_tag.value = 0xFFFF  # 16 bits: fits
    dut.in_tag.value = -1  # two's complement of a 16-bit value: fits
    for bad in (0x10000, -0x8001, 1 << 200):
        with pytest.raises(ValueError, match="in_tag"):
            dut.in_tag.value = bad
    with pytest.raises(ValueError):
        dut.in_valid.value = 2
    with pytest.raises(TypeError):
        dut.in_tag.value = "12"


def test_writing_output_or_internal_raises():
    dut = fresh_dut()
    with pytest.raises(TypeError, match="output"):
        dut.out_valid.value = 1
    internal = dut.signals("internal")[0]
    with pytest.raises(TypeError, match="internal"):
        internal.value = 0
    with pytest.raises(AttributeError):
        dut.in_valid = 1  # assigning the handle instead of .value


def test_rust_panic_does_not_abort_the_interpreter():
    sim = Sim(UNIT)
    with pytest.raises(texpix.RustPanic, match="deliberate panic"):
        sim._panic_for_test()
    with pytest.raises(texpix.RustPanic, match="panicked earlier"):
        sim.edge()
    # The interpreter and other simulators carry on.
    other = fresh_dut()
    assert int(other.in_ready.value) in (0, 1)


def test_rust_panic_inside_a_test_fails_that_test_only():
    async def body(dut):
        await reset(dut)
        dut._sim._panic_for_test()

    r = run(body)
    assert not r.passed and isinstance(r.error, texpix.RustPanic)


def test_failing_test_reports_assertion_and_cycle():
    async def body(dut):
        await reset(dut)  # 3 rising edges
        await ClockCycles(dut.clock, 7)
        assert int(dut.out_valid.value) == 1, "no output without input"

    r = run(body)
    assert not r.passed
    assert isinstance(r.error, AssertionError)
    assert "no output without input" in r.message
    assert "clock cycle 10" in r.message  # 3 + 7 edges, counted by the Rust clock
    assert "assert int(dut.out_valid.value) == 1" in r.message  # the failing line


def test_expect_fail_and_timeout_options():
    async def failing(dut):
        await reset(dut)
        assert False

    assert run(failing, expect_fail=True).passed

    async def hangs(dut):
        await reset(dut)
        await RisingEdge(dut.out_valid)  # never rises without input

    r = run(hangs, timeout_time=1, timeout_unit="us")
    assert not r.passed and isinstance(r.error, SimTimeoutError)


def test_task_exception_fails_the_test():
    async def bad():
        await Timer(5, "ns")
        raise RuntimeError("from a background task")

    async def body(dut):
        start_soon(bad())
        await Timer(100, "ns")

    r = run(body)
    assert not r.passed and "from a background task" in str(r.error)


# ------------------------------------------------------------------------------ semantics


def test_edge_semantics_sample_then_write():
    """Code woken by RisingEdge sees what the flip-flops sample; its writes land after the edge."""
    seen = {}

    async def body(dut):
        await reset(dut)
        dut.in_valid.value = 1  # lands after this edge
        assert int(dut.in_valid.value) == 0, "a write is not visible before the time step ends"
        await ReadOnly()
        assert int(dut.in_valid.value) == 1
        await RisingEdge(dut.clock)  # the unit accepts here (in_ready was 1)
        seen["ready_at_accept"] = int(dut.in_ready.value)
        dut.in_valid.value = 0
        # out_ready is low: once the transaction reaches the output stage, in_ready drops.
        n = 0
        while int(dut.in_ready.value):
            await RisingEdge(dut.clock)
            n += 1
            assert n < 20
        seen["cycles_to_full"] = n
        await ReadOnly()
        assert int(dut.out_valid.value) == 1

    r = run(body)
    assert r.passed, r.message
    assert seen["ready_at_accept"] == 1


def test_triggers_first_combine_event_queue_timer():
    log = []

    async def body(dut):
        await reset(dut)
        t0 = get_sim_time("ns")
        await Timer(23, "ns")
        assert get_sim_time("ns") - t0 == 23
        await FallingEdge(dut.clock)
        assert get_sim_time("ns") % 10 == 5  # rising at 10k, falling at 10k + 5
        assert int(dut.clock.value) == 0
        await RisingEdge(dut.clock)
        assert int(dut.clock.value) == 1

        r = await First(Timer(1, "us"), ClockCycles(dut.clock, 3))
        assert isinstance(r, ClockCycles)
        t1 = get_sim_time("ns")
        await Combine(Timer(40, "ns"), ClockCycles(dut.clock, 2))
        assert get_sim_time("ns") - t1 == 40

        ev, q = Event(), Queue()

        async def producer():
            for k in range(3):
                await ClockCycles(dut.clock, 2)
                await q.put(k)
            ev.set("done")

        task = start_soon(producer())
        got = [await q.get() for _ in range(3)]
        await ev.wait()
        assert got == [0, 1, 2] and ev.data == "done"
        await task  # a finished task joins at once
        assert task.done()

        with pytest.raises(SimTimeoutError):
            await with_timeout(RisingEdge(dut.out_valid), 50, "ns")
        log.append("ok")

    r = run(body)
    assert r.passed, r.message
    assert log == ["ok"]


def test_value_change_trigger_on_an_output():
    """RisingEdge on a non-clock signal (out_valid) is found by the Rust clock loop."""

    async def body(dut):
        await reset(dut)
        dut.in_valid.value = 1
        await RisingEdge(dut.clock)
        dut.in_valid.value = 0
        t0 = get_sim_time("ns")
        await with_timeout(RisingEdge(dut.out_valid), 200, "ns")
        assert 0 < get_sim_time("ns") - t0 < 100

    r = run(body)
    assert r.passed, r.message


def test_hand_driven_clock_without_clock_object():
    """A clock toggled from Python with Timers drives the unit like the Rust clock."""

    async def body(dut):
        async def toggle():
            while True:
                dut.clock.value = 0
                await Timer(5, "ns")
                dut.clock.value = 1
                await Timer(5, "ns")

        dut.in_valid.value = 0
        dut.out_ready.value = 0
        dut.reset.value = 1
        start_soon(toggle())
        await ClockCycles(dut.clock, 2)
        dut.reset.value = 0
        dut.in_valid.value = 1
        await RisingEdge(dut.clock)
        await RisingEdge(dut.clock)
        dut.in_valid.value = 0
        await ClockCycles(dut.clock, 10)
        assert int(dut.out_valid.value) == 1  # held: out_ready is low

    r = run(body)
    assert r.passed, r.message


def test_readonly_forbids_writes():
    async def body(dut):
        await reset(dut)
        await ReadOnly()
        dut.in_valid.value = 1

    r = run(body)
    assert not r.passed and "ReadOnly" in str(r.error)


def test_vcd_start_stop(tmp_path):
    path = tmp_path / "cov.vcd"

    async def body(dut):
        await reset(dut)
        assert get_sim_time("ns") == 20  # reset: edges at 0 and 10, then the one at 20
        texpix.vcd_start(str(path), filter=["clock", "in_valid", "out_valid"])
        dut.in_valid.value = 1
        await ClockCycles(dut.clock, 10)
        texpix.vcd_stop()
        await ClockCycles(dut.clock, 10)

    r = run(body)
    assert r.passed, r.message
    text = path.read_text()
    assert "$var" in text and "in_valid" in text and "out_valid" in text
    times = [int(l[1:]) for l in text.splitlines() if l.startswith("#")]
    # Dumping covers t = 20 ns up to the 10th rising edge at 120 ns, and stops there.
    assert times[0] == 20 and max(times) == 120, times
    assert [t for t in times if t % 10 == 5] == list(range(25, 120, 10))  # every falling edge
    assert (tmp_path / "cov.gtkw").exists()


def test_scoreboard_reports_first_mismatch():
    vec = texpix.golden.random(UNIT, 1, seed=3)[0]
    sb = texpix.Scoreboard(unit=UNIT)
    sb.expect(vec)
    wrong = dict(texpix.golden.coverage(vec), covmask=[1, 2, 3, 4])
    with pytest.raises(texpix.ScoreboardError) as e:
        sb.check(wrong, cycle=42)
    msg = str(e.value)
    assert "cycle 42" in msg and "input:" in msg and "expected:" in msg and "[1, 2, 3, 4]" in msg


def test_ideal_reference_agrees_with_golden():
    """Coverage: the exact reference's covered samples, masked, equal the golden covmask (the
    property the Rust tests check on 200 000 vectors), on 300 random/edge vectors from Python."""
    vecs = texpix.golden.random(UNIT, 300, seed=9)
    gold = texpix.golden.coverage(vecs)
    for v, g in zip(vecs, gold):
        ideal = texpix.golden.ideal(UNIT, v)["covered"]
        assert [c & v.get("sample_mask", 0xFFFF) for c in ideal] == g["covmask"], v
    lod = texpix.golden.ideal("lod", texpix.golden.random("lod", 1, seed=1)[0])
    assert all(len(lod[k]) == 4 for k in ("lambda", "d", "eta", "probes", "level0", "level1"))


def test_golden_rejects_bad_vectors():
    with pytest.raises(ValueError, match="samples"):
        texpix.golden.coverage({"samples": 3, "tri": [[0, 0]] * 3, "quad": [0, 0], "ops": []})


# ------------------------------------------------------------------------------ entry points


def test_readme_example_is_the_tested_file():
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    readme = (root / "README.md").read_text()
    section = readme.split("## Python test benches", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert code == (Path(__file__).parent / "test_readme_example.py").read_text()


FAILING = textwrap.dedent(
    """
    import texpix
    from texpix import ClockCycles

    TOPLEVEL = "coverage"

    @texpix.test()
    async def test_passes(dut):
        texpix.Clock(dut.clock, 10, "ns").start()
        await ClockCycles(dut.clock, 5)

    @texpix.test()
    async def test_fails(dut):
        texpix.Clock(dut.clock, 10, "ns").start()
        await ClockCycles(dut.clock, 4)
        assert int(dut.out_valid.value) == 7
    """
)


def test_runner_and_pytest_collection(tmp_path):
    f = tmp_path / "test_sample.py"
    f.write_text(FAILING)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    run_ = subprocess.run([sys.executable, "-m", "texpix.run", str(f)], capture_output=True, text=True, env=env)
    assert run_.returncode == 1, run_.stdout + run_.stderr
    assert "1 passed, 1 failed" in run_.stdout
    assert "clock cycle 4" in run_.stdout and "assert int(dut.out_valid.value) == 7" in run_.stdout
    pt = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(f)],
                        capture_output=True, text=True, env=env, cwd=tmp_path)
    assert "1 failed, 1 passed" in pt.stdout, pt.stdout + pt.stderr
    assert "clock cycle 4" in pt.stdout
