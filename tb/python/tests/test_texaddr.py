"""Texture address pipeline (docs/units/texaddr.md) from Python: a batch run of the RTL against the
golden model, the golden model against the conformance examples, and one quad driven through the
ports with the descriptor and residency ports answered by Python coroutines.

Ports: docs/units/texaddr.md §9 (rtl/src/texaddr/unit.rs); descriptor layout and lowering:
docs/units/texaddr.md §3 and §11.
Not run under cocotb + Icarus (Icarus simulates this unit at ~90 cycles/s).
"""

import json
import random
import struct
from pathlib import Path

import texpix
from texpix import ClockCycles, ReadOnly, ReadWrite, RisingEdge, golden, start_soon

TOPLEVEL = "texpix_texaddr"
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

# Encodings of tb/src/texaddr/mod.rs: paramA / header dimension code, sampler wrap codes.
DIMS = ["1d", "2d", "3d", "cube", "1d_array", "2d_array", "3d_array", "cube_array"]
WRAPS = ["repeat", "mirrored_repeat", "clamp_to_edge", "clamp_to_border", "mirror_clamp_to_edge"]


def strip_cycles(r):
    return {k: v for k, v in r.items() if k not in ("cycle_in", "cycle_out")}


def stimulus(n, seed):
    """``n`` vectors drawn (in order) from the generator's first 3 000: its fixed edge-case list comes
    first and is ~1 500 long (all direct-form, fault-free samples), so a plain ``random(n)`` of a few
    hundred would test nothing else; the draw mixes edge cases with random TXD/direct vectors."""
    pool = golden.random("texaddr", 3000, seed=seed)
    return [pool[k] for k in sorted(random.Random(seed).sample(range(len(pool)), n))]


def test_batch_vs_golden_with_backpressure():
    """300 vectors (edge cases and random ones: both forms, every fault, TXQ, trilinear, sparse with
    non-resident tiles) through the RTL with 30 % output stalls and 10 % input gaps: every result
    equals the golden model's, in order."""
    vecs = stimulus(300, seed=23)
    exp = golden.texaddr(vecs)
    faults = {e["fault"] for e in exp}
    assert len(faults) == 7, f"fault codes in the batch: {sorted(faults)}"
    assert any("txd" in v for v in vecs) and any(v.get("op") == "txq" for v in vecs)
    assert any("mip" in v for v in vecs) and any(l["fail"] for e in exp for l in e["lanes"])
    rtl, stats = golden.batch("texaddr", vecs, stall_permille=300, idle_permille=100, seed=6,
                              with_cycles=True)
    assert len(rtl) == len(vecs)
    assert stats["out_stall_cycles"] > 0, "back-pressure was requested but never exercised"
    assert stats["in_stall_cycles"] > 0, "the stalled output never held the input back"
    sb = texpix.Scoreboard()
    for v, e in zip(vecs, exp):
        sb.expect(v, e)
    for r in rtl:
        sb.check(strip_cycles(r), cycle=r["cycle_out"])
    sb.finish()


def test_examples_golden():
    """The golden model from Python reproduces examples/texaddr.expected.jsonl: taps exactly,
    weights within 1 (the examples' tolerance)."""
    vecs = [json.loads(l) for l in (EXAMPLES / "texaddr.jsonl").read_text().splitlines() if l.strip()]
    exp = [json.loads(l) for l in (EXAMPLES / "texaddr.expected.jsonl").read_text().splitlines() if l.strip()]
    assert len(vecs) == len(exp) >= 30
    got = golden.texaddr(vecs)
    for n, (g, e) in enumerate(zip(got, exp), 1):
        assert g["fault"] == "none", f"line {n}"
        for lane, (gl, el) in enumerate(zip(g["lanes"], e["lanes"])):
            assert gl["taps"] == el["taps"], f"line {n} lane {lane}: taps"
            for f in ("wu", "wv"):
                assert abs(gl[f] - el[f]) <= 1, f"line {n} lane {lane}: {f} {gl[f]} vs {el[f]}"


def test_ideal_reference_agrees_with_golden_on_the_examples():
    """texpix.golden.ideal("texaddr", v) (exact arithmetic, docs/units/texaddr.md §14) gives the
    golden model's taps on the examples (their coordinates sit away from texel boundaries) and
    weights within [0, 1) of the golden model's truncated 8-bit weights; a TXD-form vector is
    refused with a clear error."""
    vecs = [json.loads(l) for l in (EXAMPLES / "texaddr.jsonl").read_text().splitlines() if l.strip()]
    got = golden.texaddr(vecs)
    for n, (v, g) in enumerate(zip(vecs, got), 1):
        ideal = golden.ideal("texaddr", v)
        for lane, (il, gl) in enumerate(zip(ideal["lanes"], g["lanes"])):
            assert il is not None, f"line {n} lane {lane}"
            assert il["taps"] == gl["taps"], f"line {n} lane {lane}: taps"
            for f in ("wu", "wv"):
                assert 0 <= il[f] - gl[f] < 1, f"line {n} lane {lane}: {f} {il[f]} vs {gl[f]}"
    txd = next(v for v in golden.random("texaddr", 1600, seed=1) if "txd" in v)
    try:
        golden.ideal("texaddr", txd)
    except ValueError as e:
        assert "direct form" in str(e)
    else:
        raise AssertionError("a TXD-form vector must be refused")


# ---------------------------------------------------------------------------------------------
# Port level


def f32(x):
    """The f32 bit pattern of ``x``."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


def header_words(tex):
    """The four header words of a ``tex`` object (layout of tb/src/texaddr/mod.rs §2)."""
    base = tex["base"]
    w1 = ((base >> 32) & 0xFFFF) | (tex["bpp"].bit_length() - 1) << 16 | DIMS.index(tex["dim"]) << 19 \
        | int(tex.get("sparse", False)) << 22 | (tex["levels"] - 1) << 24 | 1 << 31
    return [base & 0xFFFFFFFF, w1, (tex["width"] - 1) | (tex["height"] - 1) << 16, tex.get("layers", 1) - 1]


def sampler_byte(smp):
    return (WRAPS.index(smp["wrap_s"]) | WRAPS.index(smp["wrap_t"]) << 3
            | int(smp["filter"] == "linear") << 6 | int(smp.get("unnormalized", False)) << 7)


# A sparse 2D texture (nothing non-resident), trilinear, with offsets in two lanes.
VECTOR = {
    "tex": {"width": 100, "height": 60, "layers": 1, "levels": 5, "bpp": 4, "base": 0x1234_5678_9A00,
            "dim": "2d", "sparse": True},
    "sampler": {"wrap_s": "repeat", "wrap_t": "mirrored_repeat", "filter": "linear", "unnormalized": False},
    "level": 1,
    "mip": {"level1": 2, "frac": 77},
    "lanes": [{"s": f32(0.3), "t": f32(0.7)},
              {"s": f32(-0.45), "t": f32(1.3)},
              {"s": f32(0.999), "t": f32(0.01), "offset": [-2, 3]},
              {"s": f32(2.125), "t": f32(-0.6), "offset": [7, -8]}],
}


def lower(v):
    """The direct form as its TXD instruction (tb/src/texaddr/mod.rs §0): .B with handle 0 in Ra+0,
    s and t in Ra+1/Ra+2, .AOFFI with the offset word {toff[27:16] | array[15:0]} in Ra+3."""
    ra = []
    for ln in v["lanes"]:
        du, dv = ln.get("offset", [0, 0])
        toff = (dv & 0xF) << 4 | (du & 0xF)
        ra += [0, ln["s"], ln["t"], toff << 16 | ln.get("layer", 0)]
    return ra


def drive_quad(dut, v, tag):
    dut.in_tag.value = tag
    for k, word in enumerate(lower(v)):
        getattr(dut, f"in_ra_{k}").value = word
    dut.in_bindless.value = 1
    dut.in_lc.value = 0
    dut.in_aoffi.value = 1
    dut.in_param_a.value = DIMS.index(v["tex"]["dim"])
    dut.in_ogl.value = 0
    dut.in_cbank.value = 0
    dut.in_hdr_max.value = 0
    dut.in_smp_max.value = 0
    dut.in_txq.value = 0
    dut.in_level.value = v["level"]
    dut.in_tri.value = int("mip" in v)
    dut.in_level1.value = v.get("mip", {}).get("level1", 0)
    dut.in_frac.value = v.get("mip", {}).get("frac", 0)
    for lane in range(4):
        getattr(dut, f"in_lambda_{lane}").value = 0
    dut.in_warn.value = 0


def read_result(dut):
    """The output ports as a result dict (the format of tb/src/texaddr/io.rs, as texaddr_dut reads)."""
    r = lambda name: int(getattr(dut, name).value)  # noqa: E731
    n, tri = r("out_ntaps"), r("out_tri")
    lanes = []
    for lane in range(4):
        taps, req = [], 0
        for base, level in [(0, r("out_level0"))] + ([(4, r("out_level1"))] if tri else []):
            for q in range(n):
                s = 8 * lane + base + q
                if r(f"out_req_{s}"):
                    req |= 1 << len(taps)
                taps.append({"i": getattr(dut, f"out_i_{s}").value.to_signed(),
                             "j": getattr(dut, f"out_j_{s}").value.to_signed(),
                             "layer": r(f"out_layer_{lane}"), "level": level,
                             "addr": r(f"out_addr_{s}"), "border": bool(r(f"out_border_{s}"))})
        lanes.append({"taps": taps, "wu": r(f"out_wu_{lane}"), "wv": r(f"out_wv_{lane}"),
                      "wu1": r(f"out_wu1_{lane}"), "wv1": r(f"out_wv1_{lane}"), "req": req,
                      "fail": bool(r(f"out_fail_{lane}")), "status": r(f"out_status_{lane}"),
                      "lod_clamp": r(f"out_lod_clamp_{lane}")})
    faults = ["none", "reserved_param_a", "invalid_header_ptr", "invalid_sampler_ptr", "unbound",
              "bad_descriptor", "type_mismatch"]
    return {"lanes": lanes, "fault": faults[r("out_fault")], "frac": r("out_frac"),
            "size": [r(f"out_size_{k}") for k in range(4)]}


@texpix.test(timeout_time=2, timeout_unit="us")
async def test_one_quad_through_the_ports(dut):
    """One quad through the ports: Python answers the descriptor port like a synchronous RAM (header
    0 and sampler 0 while ``desc_rd`` is high, random words otherwise) and the residency port (all
    tiles resident while ``res_rd`` is high, random bits otherwise); the result equals the golden model's for the direct-form vector, 3 cycles after the
    accepting edge, after exactly one descriptor read."""
    v = VECTOR
    words, smp = header_words(v["tex"]), sampler_byte(v["sampler"])
    rng = random.Random(7)
    reads = []  # (desc_tag, desc_hdr_idx, desc_smp_idx) per cycle with desc_rd high
    res_reads = []

    async def descriptor_ram():
        # After each rising edge, once the unit's registered desc_rd/desc_hdr_idx are updated
        # (ReadWrite: same time step, after the edge), drive the data for the next edge to sample.
        while True:
            await RisingEdge(dut.clock)
            await ReadWrite()
            if int(dut.desc_rd.value):
                reads.append((int(dut.desc_tag.value), int(dut.desc_hdr_idx.value),
                              int(dut.desc_smp_idx.value)))
                hdr = words if int(dut.desc_hdr_idx.value) == 0 else [0, 0, 0, 0]
                s = smp if int(dut.desc_smp_idx.value) == 0 else 0
            else:
                hdr, s = [rng.getrandbits(32) for _ in range(4)], rng.getrandbits(8)
            for k in range(4):
                getattr(dut, f"desc_hdr_{k}").value = hdr[k]
            dut.desc_smp.value = s

    async def residency_map():
        while True:
            await RisingEdge(dut.clock)
            await ReadWrite()
            if int(dut.res_rd.value):
                res_reads.append(int(dut.res_tag.value))
                ok = (1 << 32) - 1  # every tile of the texture is resident
            else:
                ok = rng.getrandbits(32)
            for k in range(32):
                getattr(dut, f"res_ok_{k}").value = (ok >> k) & 1

    for name in ("in_valid", "out_ready"):
        getattr(dut, name).value = 0
    drive_quad(dut, v, 0x5A5)
    dut.reset.value = 1
    texpix.Clock(dut.clock, 10, "ns").start()
    start_soon(descriptor_ram())
    start_soon(residency_map())
    await ClockCycles(dut.clock, 2)
    dut.reset.value = 0
    await RisingEdge(dut.clock)

    dut.in_valid.value = 1
    dut.out_ready.value = 1
    accepted = None
    cycle = 0
    while True:
        await RisingEdge(dut.clock)
        cycle += 1
        assert cycle < 20, "no result"
        if accepted is None and int(dut.in_valid.value) and int(dut.in_ready.value):
            accepted = cycle
            dut.in_valid.value = 0
        if int(dut.out_valid.value):
            break
    assert int(dut.out_tag.value) == 0x5A5
    assert cycle - accepted == 3, f"latency {cycle - accepted}, expected 3"
    got = read_result(dut)
    exp = golden.texaddr(v)
    assert exp["fault"] == "none" and all(len(l["taps"]) == 8 for l in exp["lanes"])
    for lane, (g, e) in enumerate(zip(got["lanes"], exp["lanes"])):
        assert g["taps"] == e["taps"], f"lane {lane}: taps"
        assert (g["wu"], g["wv"], g["wu1"], g["wv1"]) == (e["wu"], e["wv"], e["wu1"], e["wv1"]), f"lane {lane}"
    assert got == exp
    assert reads == [(0x5A5, 0, 0)], f"descriptor reads {reads}"
    assert res_reads == [0x5A5], f"residency reads {res_reads}"

    # Nothing more comes out.
    for _ in range(10):
        await RisingEdge(dut.clock)
        await ReadOnly()
        assert int(dut.out_valid.value) == 0
