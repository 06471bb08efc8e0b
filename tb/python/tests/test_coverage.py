"""Coverage unit (docs/units/coverage.md) test bench.

Runs unchanged on the Rust model (``pytest``, ``python -m texpix.run``) and under real cocotb with
Icarus on the exported Verilog (tb/python/cocotb/run_icarus.sh): ``texpix.portable`` supplies
cocotb's names inside a cocotb simulation and texpix's otherwise. Expected results come from the
golden model (``texpix.golden``), never from the RTL.
"""

import os
import random

from texpix.portable import (Clock, ClockCycles, ReadOnly, RisingEdge, Scoreboard, get_sim_time, golden,
                             start_soon, test)

TOPLEVEL = "texpix_coverage"

OPS = 4  # op slots per RTL transaction (rtl/src/coverage/mod.rs)
MODES = ["MSCOUNT", "COVMASK", "COVERED", "OFFSET", "CENTROID_OFFSET", "MY_INDEX", "INVALID6", "INVALID7",
         "SAMPLE_INFO", "SAMPLE_POS_X", "SAMPLE_POS_Y"]
STANDARD = {  # standard patterns (docs/units/coverage.md §2), (dx, dy) in 1/16 pixel
    1: [(0, 0)],
    2: [(4, 4), (-4, -4)],
    4: [(-2, -6), (6, -2), (-6, 2), (2, 6)],
    8: [(1, -3), (-1, 3), (5, 1), (-3, -5), (-5, 5), (-7, -1), (3, 7), (7, -7)],
    16: [(1, 1), (-1, -3), (-3, 2), (4, -1), (-5, -2), (2, 5), (5, 3), (3, -5), (-2, 6), (0, -7), (-4, -6),
         (-6, 4), (-8, 0), (7, -4), (6, 7), (-7, -8)],
}
N_VECTORS = int(os.environ.get("TEXPIX_COV_VECTORS", "60"))


def vectors(n, seed):
    """Random and edge-case vectors from the generator, cut to one RTL transaction (≤ OPS ops)."""
    out = []
    for v in golden.random("coverage", n, seed=seed):
        v = dict(v)
        v["ops"] = v["ops"][:OPS]
        out.append(v)
    return out


def lane_positions(v, lane):
    p = v.get("positions")
    if p is None:
        return STANDARD[v["samples"]]
    return p[lane] if isinstance(p[0][0], list) else p


def apply(dut, v, tag):
    """Drives one vector on the input ports (the encoding documented in rtl/src/coverage/unit.rs)."""
    m = lambda x, bits: x & ((1 << bits) - 1)  # noqa: E731
    dut.in_tag.value = tag & 0xFFFF
    dut.in_log2n.value = v["samples"].bit_length() - 1
    dut.in_prog.value = int("positions" in v)
    for lane in range(4):
        pos = lane_positions(v, lane) if "positions" in v else []
        for s in range(16):
            dx, dy = pos[s] if s < len(pos) else (0, 0)
            getattr(dut, f"in_pos_{16 * lane + s}").value = (m(dy, 4) << 4) | m(dx, 4)
    for i in range(3):
        getattr(dut, f"in_vx_{i}").value = m(v["tri"][i][0], 25)
        getattr(dut, f"in_vy_{i}").value = m(v["tri"][i][1], 25)
    dut.in_quad_x.value = m(v["quad"][0], 17)
    dut.in_quad_y.value = m(v["quad"][1], 17)
    dut.in_smask.value = v.get("sample_mask", 0xFFFF)
    dut.in_ssaa.value = int(v.get("ssaa", False))
    for lane in range(4):
        getattr(dut, f"in_sid_{lane}").value = v.get("sample_id", [0, 0, 0, 0])[lane]
    for o in range(OPS):
        op = v["ops"][o] if o < len(v["ops"]) else {"mode": "MSCOUNT"}
        mode = op["mode"] if isinstance(op["mode"], int) else MODES.index(op["mode"])
        getattr(dut, f"in_op_mode_{o}").value = mode
        getattr(dut, f"in_op_index_{o}").value = op.get("index", 0) & 0xFFFFFFFF
        getattr(dut, f"in_op_pd_{o}").value = int(op.get("pd", False))
        getattr(dut, f"in_op_tgsi_{o}").value = int(op.get("tgsi", False))


def read(dut, n_ops):
    """The result on the output ports, in the vector-file result format (docs/units/coverage.md §7;
    errors: rd/pd null)."""
    r = lambda name: int(getattr(dut, name).value)  # noqa: E731
    pixld = []
    for o in range(n_ops):
        if r(f"out_err_{o}"):
            pixld.append({"rd": None, "pd": None, "error": True})
            continue
        pd = [bool(r(f"out_pd_{OPS * lane + o}")) for lane in range(4)] if r(f"out_pd_wr_{o}") else None
        pixld.append({"rd": [r(f"out_rd_{OPS * lane + o}") for lane in range(4)], "pd": pd})
    return {"tag": r("out_tag"), "covmask": [r(f"out_covmask_{lane}") for lane in range(4)], "pixld": pixld}


def same(expected, actual):
    """Golden vs RTL: covmask and every op; a rejected op only needs an error on both sides."""
    if expected["covmask"] != actual["covmask"] or len(expected["pixld"]) != len(actual["pixld"]):
        return False
    for e, a in zip(expected["pixld"], actual["pixld"]):
        if ("error" in e) != ("error" in a):
            return False
        if "error" not in e and (e["rd"] != a["rd"] or e["pd"] != a["pd"]):
            return False
    return True


async def reset(dut):
    """Quiet inputs, start the clock, hold reset for two rising edges."""
    apply(dut, {"samples": 1, "tri": [[0, 0]] * 3, "quad": [0, 0], "ops": []}, 0)
    dut.in_valid.value = 0
    dut.out_ready.value = 0
    dut.reset.value = 1
    Clock(dut.clock, 10, "ns").start()
    await ClockCycles(dut.clock, 2)
    dut.reset.value = 0
    await RisingEdge(dut.clock)


async def send(dut, vecs, rng, idle_permille):
    """Offers each vector until the unit accepts it (in_valid and in_ready at a rising edge)."""
    for k, v in enumerate(vecs):
        while rng.randrange(1000) < idle_permille:
            dut.in_valid.value = 0
            await RisingEdge(dut.clock)
        apply(dut, v, k)
        dut.in_valid.value = 1
        while True:
            await RisingEdge(dut.clock)
            if int(dut.in_ready.value):
                break
    dut.in_valid.value = 0


@test()
async def test_reset_idle(dut):
    """After reset the pipeline is empty and ready."""
    await reset(dut)
    await ReadOnly()
    assert int(dut.out_valid.value) == 0, "out_valid after reset"
    assert int(dut.in_ready.value) == 1, "in_ready after reset"


@test()
async def test_stream_vs_golden(dut):
    """Random vectors with random idle inputs and output stalls; every result is compared in order
    with the golden model. The monitor touches the output ports on every cycle."""
    rng = random.Random(7)
    vecs = vectors(N_VECTORS, seed=11)
    sb = Scoreboard(compare=same)
    for v in vecs:
        sb.expect(v, golden.coverage(v))
    await reset(dut)
    start_soon(send(dut, vecs, rng, idle_permille=200))
    got, cycles = 0, 0
    while got < len(vecs):
        dut.out_ready.value = int(rng.randrange(1000) >= 300)
        await RisingEdge(dut.clock)
        cycles += 1
        assert cycles < 50 * len(vecs) + 100, f"only {got} of {len(vecs)} results after {cycles} cycles"
        if int(dut.out_valid.value) and int(dut.out_ready.value):
            res = read(dut, len(vecs[got]["ops"]))
            assert res["tag"] == got & 0xFFFF, f"result {got} has tag {res['tag']} (lost or reordered)"
            sb.check(res, cycle=cycles)
            got += 1
    sb.finish()
    dut._log.info(f"{got} results in {cycles} cycles")


@test()
async def test_stall_holds_output(dut):
    """With out_ready low a result stays on the outputs (waited with ClockCycles) and the unit
    stops accepting; raising out_ready delivers it once."""
    v = vectors(3, seed=5)[2]
    await reset(dut)
    apply(dut, v, 0x1234)
    dut.in_valid.value = 1
    await RisingEdge(dut.clock)  # the input is accepted at the next rising edge
    await RisingEdge(dut.clock)
    dut.in_valid.value = 0
    await ClockCycles(dut.clock, 20)
    await ReadOnly()
    assert int(dut.out_valid.value) == 1, "the result must wait while out_ready is low"
    assert int(dut.in_ready.value) == 0, "a stalled full output stage cannot accept"
    res = read(dut, len(v["ops"]))
    assert res["tag"] == 0x1234
    assert same(golden.coverage(v), res), f"{res} != golden {golden.coverage(v)}"
    await RisingEdge(dut.clock)
    dut.out_ready.value = 1
    await RisingEdge(dut.clock)  # the output transfers here
    await RisingEdge(dut.clock)
    await ReadOnly()
    assert int(dut.out_valid.value) == 0, "the result must leave exactly once"


@test()
async def test_handshake_every_cycle(dut):
    """A light per-cycle test: every cycle the bench writes in_valid, in_tag and out_ready at random
    and reads in_ready, out_valid and out_tag; results must come back exactly once, in order."""
    rng = random.Random(3)
    n = int(os.environ.get("TEXPIX_HANDSHAKE_CYCLES", "2000"))
    await reset(dut)
    apply(dut, vectors(1, seed=2)[0], 0)
    sent, got = 0, 0
    for _ in range(n):
        valid = int(rng.randrange(4) != 0)
        dut.in_valid.value = valid
        dut.in_tag.value = sent & 0xFFFF
        dut.out_ready.value = int(rng.randrange(4) != 0)
        await RisingEdge(dut.clock)
        if valid and int(dut.in_ready.value):
            sent += 1
        if int(dut.out_valid.value) and int(dut.out_ready.value):
            assert int(dut.out_tag.value) == got & 0xFFFF, f"result {got} out of order"
            got += 1
    assert 0 < got <= sent <= got + 3, f"{sent} accepted, {got} returned (lost or duplicated)"


@test()
async def test_idle_clockcycles(dut):
    """Many idle cycles awaited in one ClockCycles: time advances by exactly that many periods and
    the idle unit produces nothing."""
    await reset(dut)
    t0 = get_sim_time("ns")
    n = int(os.environ.get("TEXPIX_IDLE_CYCLES", "2000"))
    dut.out_ready.value = 1
    await ClockCycles(dut.clock, n)
    assert round(get_sim_time("ns") - t0, 3) == 10 * n  # cocotb's times are floats
    await ReadOnly()
    assert int(dut.out_valid.value) == 0
    assert int(dut.in_ready.value) == 1
