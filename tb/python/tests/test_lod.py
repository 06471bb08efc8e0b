"""LOD unit (docs/units/lod.md) test bench: port-level stream against the golden model, and a
batch run.

Written against ``texpix.portable``, so it also runs under cocotb with the exported Verilog.
"""

import os
import random

from texpix.portable import Clock, ClockCycles, ReadOnly, RisingEdge, Scoreboard, golden, start_soon, test

TOPLEVEL = "texpix_lod"

MODES = ["implicit", "grad", "lod", "bias", "lz"]  # LodMode encodings (tb/src/lod/mod.rs)
MIP = ["none", "nearest", "linear"]
FIELDS = ["lambda", "level0", "level1", "frac", "magnify", "lod_warning", "probes", "major", "status"]


def operands(v):
    """The 16 operand registers, ``4·lane + k`` (as tb/src/lod/dut.rs lays them out)."""
    ops = [0] * 16
    for lane in range(4):
        for k in range(4):
            mode = v["mode"]
            if mode == "grad":
                x = v["grad"][lane][k]
            elif mode == "lod" and k == 0:
                x = v["lod"][lane]
            elif mode in ("implicit", "bias") and k < 2:
                x = v["coords"][lane][k]
            elif mode == "bias" and k == 2:
                x = v["bias"][lane]
            else:
                x = 0
            ops[4 * lane + k] = x
    return ops


def apply(dut, v, tag):
    s, t = v["sampler"], v["tex"]
    dut.in_tag.value = tag & 0xFFFF
    dut.in_width.value = t["width"]
    dut.in_height.value = t["height"]
    dut.in_levels.value = t["levels"]
    dut.in_base.value = t["base_level"]
    dut.in_sbias.value = s["bias"] & 0xFFFF
    dut.in_min_lod.value = s["min_lod"]
    dut.in_max_lod.value = s["max_lod"]
    dut.in_lod_clamp.value = v.get("lod_clamp", 0)
    dut.in_warn.value = v.get("min_lod_warning", 0)
    dut.in_mip.value = MIP.index(s["mip_filter"])
    dut.in_aniso.value = s["max_aniso"]
    dut.in_mode.value = MODES.index(v["mode"])
    dut.in_fine.value = int(v.get("fine", False))
    dut.in_maxabs.value = int(v.get("rho") == "maxabs")
    for i, x in enumerate(operands(v)):
        getattr(dut, f"in_op_{i}").value = x


def read(dut):
    r = {}
    for f in FIELDS:
        port = "major_y" if f == "major" else f
        vals = [getattr(dut, f"out_{port}_{lane}").value for lane in range(4)]
        if f == "lambda":
            r[f] = [x.to_signed() for x in vals]  # 16-bit two's complement
        elif f == "major":
            r[f] = ["y" if int(x) else "x" for x in vals]
        elif f in ("magnify", "lod_warning"):
            r[f] = [bool(int(x)) for x in vals]
        else:
            r[f] = [int(x) for x in vals]
    return r


def canonical(n, seed):
    # The generator's dicts are canonical (bit patterns, all fields present): what apply() expects.
    return golden.random("lod", n, seed=seed)


@test()
async def test_stream_vs_golden(dut):
    """Random/edge vectors through the ports with output stalls, compared in order with golden."""
    vecs = canonical(int(os.environ.get("TEXPIX_LOD_VECTORS", "40")), seed=3)
    sb = Scoreboard(unit="lod")
    for v in vecs:
        sb.expect(v)
    rng = random.Random(5)
    for name in ("in_valid", "out_ready", "reset"):
        getattr(dut, name).value = 0
    apply(dut, vecs[0], 0)
    dut.reset.value = 1
    Clock(dut.clock, 10, "ns").start()
    await ClockCycles(dut.clock, 2)
    dut.reset.value = 0

    async def send():
        for k, v in enumerate(vecs):
            apply(dut, v, k)
            dut.in_valid.value = 1
            while True:
                await RisingEdge(dut.clock)
                if int(dut.in_ready.value):
                    break
        dut.in_valid.value = 0

    start_soon(send())
    got = cycles = 0
    while got < len(vecs):
        dut.out_ready.value = int(rng.random() > 0.3)
        await RisingEdge(dut.clock)
        cycles += 1
        assert cycles < 100 * len(vecs), f"only {got} results after {cycles} cycles"
        if int(dut.out_valid.value) and int(dut.out_ready.value):
            assert int(dut.out_tag.value) == got, "lost, duplicated or reordered result"
            sb.check(read(dut), cycle=cycles)
            got += 1
    sb.finish()


@test()
async def test_idle_after_reset(dut):
    """An idle unit stays empty: no output appears in 100 cycles without input."""
    dut.in_valid.value = 0
    dut.out_ready.value = 1
    dut.reset.value = 1
    Clock(dut.clock, 10, "ns").start()
    await ClockCycles(dut.clock, 2)
    dut.reset.value = 0
    for _ in range(100):
        await RisingEdge(dut.clock)
        await ReadOnly()
        assert int(dut.out_valid.value) == 0
