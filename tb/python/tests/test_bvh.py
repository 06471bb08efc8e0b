"""BVH intersector (docs/units/bvh.md) from Python: batch runs of the RTL against the golden model,
a port-level test of the idle unit with its memory port, and rays driven through the ports with the
node memory answered by a Python coroutine.

Ports: docs/units/bvh.md §9 (rtl/src/bvh/unit.rs); node layouts and T# bits: docs/units/bvh.md §5
and §4.
The batch entry point uses the Rust memory model (latency 4…12 cycles); the port-level stream test
packs the nodes into a Python byte memory itself and answers the memory port from it.
"""

import json
import random
import struct
from collections import deque
from pathlib import Path

import texpix
from texpix import ClockCycles, ReadOnly, RisingEdge, get_sim_time, golden, start_soon

TOPLEVEL = "texpix_bvh"
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def strip_cycles(results):
    return [{k: v for k, v in r.items() if k not in ("cycle_in", "cycle_out")} for r in results]


def test_batch_vs_golden_with_backpressure():
    """300 random/edge vectors (box32, box16, triangle nodes) through the RTL with 30 % stalls on
    the output and the memory port: every result equals the golden model's, in order."""
    vecs = golden.random("bvh", 300, seed=21)
    rtl, stats = golden.batch("bvh", vecs, stall_permille=300, idle_permille=100, seed=4, with_cycles=True)
    assert stats["out_stall_cycles"] > 0, "back-pressure was requested but never exercised"
    exp = golden.bvh(vecs)
    sb = texpix.Scoreboard()
    for v, e in zip(vecs, exp):
        sb.expect(v, e)
    for r in rtl:
        sb.check({k: r[k] for k in r if not k.startswith("cycle")}, cycle=r["cycle_out"])
    sb.finish()


def test_examples_golden():
    """The golden model from Python reproduces examples/bvh.expected.jsonl."""
    vecs = [json.loads(l) for l in (EXAMPLES / "bvh.jsonl").read_text().splitlines() if l.strip()]
    exp = [json.loads(l) for l in (EXAMPLES / "bvh.expected.jsonl").read_text().splitlines() if l.strip()]
    assert golden.bvh(vecs) == exp


@texpix.test()
async def test_idle_ports(dut):
    """After reset the unit is ready, issues no memory request and produces nothing for 200 cycles;
    every internal signal of its hierarchy can be read."""
    for name in ("in_valid", "out_ready", "mem_req_ready", "mem_resp_valid"):
        getattr(dut, name).value = 0
    dut.reset.value = 1
    texpix.Clock(dut.clock, 10, "ns").start()
    await ClockCycles(dut.clock, 2)
    dut.reset.value = 0
    await RisingEdge(dut.clock)
    await ClockCycles(dut.clock, 200)
    await ReadOnly()
    assert int(dut.in_ready.value) == 1
    assert int(dut.mem_req_valid.value) == 0
    assert int(dut.out_valid.value) == 0
    internal = dut.signals("internal")
    assert len(internal) > 100
    widths = [len(h.value) for h in internal]  # reads every one (typed or slow path)
    assert widths == [len(h) for h in internal]


# ---------------------------------------------------------------------------------------------
# Port level: rays through the ports, node memory in Python

PERIOD_NS = 10
LEGAL_INSTR = {"dmask": 0xF, "d16": 0, "r128": 1, "unrm": 1, "dim": 0, "lwe": 0, "tfe": 0, "ssamp": 0}
NODE_BYTES = {"box32": 128, "box16": 64, "tri": 64}
PTR_NODE = {0: "tri", 1: "tri", 2: "tri", 3: "tri", 4: "box16", 5: "box32"}
NO_LIMIT = (1 << 42) - 1
M64 = (1 << 64) - 1


def desc_words(v):
    """The T# as four dwords, low first (tb/src/bvh/mod.rs "Descriptor"): base [39:0], box_grow
    [62:55], box_sort_en [63], size [105:64] (all ones = no limit), return_mode [120], watertight
    [121], type 8."""
    if "desc_bits" in v:
        return list(v["desc_bits"])
    d = v["desc"]
    lo = d.get("base", 0) | d.get("heuristic", 0) << 53 | d.get("box_grow", 0) << 55 \
        | int(bool(d.get("box_sort", False))) << 63
    hi = d.get("size", NO_LIMIT) | d.get("return_mode", 0) << 56 \
        | int(bool(d.get("watertight", False))) << 57 | 8 << 60
    return [lo & 0xFFFFFFFF, lo >> 32, hi & 0xFFFFFFFF, hi >> 32]


def instr_of(v):
    return {k: int(v.get("instr", {}).get(k, dflt)) for k, dflt in LEGAL_INSTR.items()}


def fetch_of(v):
    """(byte address, bytes) of the node the ray fetches, or None (docs/units/bvh.md §2 and §5): a
    rejected instruction, an instance/procedural pointer and an out-of-bounds index fetch nothing."""
    if instr_of(v) != LEGAL_INSTR:
        return None
    w = desc_words(v)
    base = (w[0] | w[1] << 32) & ((1 << 40) - 1)
    size = (w[2] | w[3] << 32) & NO_LIMIT
    ptr = v["node_ptr"] if v.get("bvh64") else v["node_ptr"] & 0xFFFFFFFF
    kind, index = ptr & 7, ptr >> 3
    if kind >= 6 or (size != NO_LIMIT and index > size):
        return None
    return (base * 256 + index * 64) & M64, NODE_BYTES[PTR_NODE[kind]]


def node_bytes(node):
    """The node's bytes (tb/src/bvh/mod.rs "Memory", little-endian): box32 children at 0…15, child i's
    min xyz at 16 + 24i and max xyz at 28 + 24i; box16 children at 0…15, box i at 16 + 12i as
    {minx | miny<<16, minz | maxx<<16, maxy | maxz<<16}; triangle v0…v4 at 0, 12, …, 48, id at 60.
    Bytes a node leaves unwritten are 0."""
    b = bytearray(NODE_BYTES[node["type"]])
    if node["type"] in ("box32", "box16"):
        struct.pack_into("<4I", b, 0, *node["children"])
        for i, bx in enumerate(node["boxes"]):
            if node["type"] == "box32":
                struct.pack_into("<6I", b, 16 + 24 * i, *bx)
            else:
                struct.pack_into("<6H", b, 16 + 12 * i, *bx)  # f16 pairs: low half first
    else:
        for k, xyz in enumerate(node["verts"]):
            struct.pack_into("<3I", b, 12 * k, *xyz)
        struct.pack_into("<I", b, 60, node["tri_id"])
    return bytes(b)


def stream_vectors(seed):
    """20 vectors from the generator's edge cases and random vectors (shuffled), chosen by their
    golden results so that most nodes are hit: box32 (5 hit, 1 all-miss), box16 (3 hit, 1 all-miss),
    triangles (a hit for each pointer type 0…3, 2 misses), 2 that fetch nothing (an instance/procedural
    pointer, an index beyond the T#'s size) and 2 rejected instructions. Fetched nodes never
    overlap, so one memory holds them all."""
    quota = {"box32 hit": 5, "box32 miss": 1, "box16 hit": 3, "box16 miss": 1, "tri0 hit": 1,
             "tri1 hit": 1, "tri2 hit": 1, "tri3 hit": 1, "tri miss": 2, "instance/procedural": 1,
             "out of bounds": 1, "reject": 2}
    pool = golden.random("bvh", 1500, seed=seed)
    random.Random(seed).shuffle(pool)
    picked, used = [], []
    for v, e in zip(pool, golden.bvh(pool)):
        f = fetch_of(v)
        if e["d"] is None:
            cat = "reject"
        elif f is None:
            cat = "instance/procedural" if v["node_ptr"] & 7 >= 6 else "out of bounds"
        elif v["node"]["type"] == "tri":
            cat = f"tri{v['node_ptr'] & 7} hit" if e["d"][0] != 0x7F800000 else "tri miss"
        else:
            cat = v["node"]["type"] + (" hit" if any(x != 0xFFFFFFFF for x in e["d"]) else " miss")
        if quota[cat] == 0:
            continue
        if f is not None:
            lo, hi = f[0], f[0] + f[1]
            if hi > 1 << 64 or any(lo < h and l < hi for l, h in used):
                continue
            used.append((lo, hi))
        quota[cat] -= 1
        picked.append(v)
        if not any(quota.values()):
            break
    assert not any(quota.values()), f"pool too small: {quota}"
    return picked


def drive_ray(dut, v, tag, rng):
    """Offers ``v``; inputs the unit must ignore (in_ptr_hi without BVH64, in_i_* with A16) get
    random bits."""
    r = v["ray"]
    dut.in_tag.value = tag
    dut.in_ptr_lo.value = v["node_ptr"] & 0xFFFFFFFF
    dut.in_ptr_hi.value = v["node_ptr"] >> 32 if v.get("bvh64") else rng.getrandbits(32)
    dut.in_bvh64.value = int(bool(v.get("bvh64")))
    dut.in_a16.value = int(bool(v.get("a16")))
    dut.in_extent.value = r["extent"]
    for k, c in enumerate("xyz"):
        getattr(dut, f"in_o_{c}").value = r["origin"][k]
        if v.get("a16"):  # VGPR packing {d | inv << 16}
            getattr(dut, f"in_d_{c}").value = r["dir"][k] | r["inv_dir"][k] << 16
            getattr(dut, f"in_i_{c}").value = rng.getrandbits(32)
        else:
            getattr(dut, f"in_d_{c}").value = r["dir"][k]
            getattr(dut, f"in_i_{c}").value = r["inv_dir"][k]
    for k, w in enumerate(desc_words(v)):
        getattr(dut, f"in_desc_{k}").value = w
    i = instr_of(v)
    dut.in_dmask.value = i["dmask"] & 0xF
    dut.in_dim.value = i["dim"] & 7
    for name in ("d16", "r128", "unrm", "lwe", "tfe", "ssamp"):
        getattr(dut, f"in_{name}").value = int(i[name] != 0)


IN_DATA = ["in_tag", "in_ptr_lo", "in_ptr_hi", "in_extent"] + [f"in_{p}_{c}" for p in "odi" for c in "xyz"] \
    + [f"in_desc_{k}" for k in range(4)]


@texpix.test(timeout_time=10, timeout_unit="us")
async def test_rays_through_the_ports(dut):
    """20 rays (box32, box16 and triangle nodes, mostly hits, A16 and BVH64 among them, plus rays that
    fetch nothing and rejected instructions) through the ports with three coroutines, all sampling the
    handshakes at the rising edge: a driver offering the rays in order with random idle cycles; a
    node memory (a Python byte memory holding every ray's node at base·256 + (ptr >> 3)·64, packed
    here from the vector's fields) that refuses requests at random, checks each request's address
    and length against the next fetching ray's, and answers in order 1…6 cycles later, withholding
    ``mem_resp_valid`` at random (random bits on the data bus whenever it is not carrying a node,
    and in dwords 16…31 of a 64-byte node); and a monitor with random ``out_ready`` back-pressure.
    Every result (tag, ``d``, ``out_err``) equals the golden model's, in order; each request is
    accepted in the cycle its ray is; stalls of every kind occurred; nothing more comes out."""
    vecs = stream_vectors(seed=32)
    exp = golden.bvh(vecs)
    fetches = [f for f in map(fetch_of, vecs) if f is not None]
    fetching = [k for k, v in enumerate(vecs) if fetch_of(v) is not None]
    fetched = [v for v in vecs if fetch_of(v)]
    assert any(v.get("a16") for v in fetched) and any(v.get("bvh64") for v in fetched)
    assert {desc_words(v)[3] >> 24 & 1 for v in fetched if v["node"]["type"] == "tri"} == {0, 1}
    assert sum(e["d"] is None for e in exp) == 2

    memory = {}  # byte address -> byte
    for v, f in zip(vecs, map(fetch_of, vecs)):
        if f is not None:
            for k, byte in enumerate(node_bytes(v["node"])):
                memory[(f[0] + k) & M64] = byte

    rng = random.Random(5)
    tags = [(0x9E37 * k + 0x1234) & 0xFFFF for k in range(len(vecs))]
    cycle = lambda: int(get_sim_time("ns")) // PERIOD_NS  # noqa: E731
    accepted, req_cycles, results = [], [], []
    st = {"idle": 0, "in_stall": 0, "req_stall": 0, "resp_wait": 0, "resp_withheld": 0, "out_stall": 0,
          "max_pending": 0}

    async def driver():
        k, offering = 0, False
        while True:
            await RisingEdge(dut.clock)
            if offering and int(dut.in_valid.value):
                if int(dut.in_ready.value):
                    accepted.append(cycle())
                    k, offering = k + 1, False
                else:
                    st["in_stall"] += 1
            if not offering and k < len(vecs):
                offering = rng.random() >= 0.2
                st["idle"] += not offering
            if offering:
                drive_ray(dut, vecs[k], tags[k], rng)
            else:
                for name in IN_DATA:
                    getattr(dut, name).value = rng.getrandbits(len(getattr(dut, name)))
            dut.in_valid.value = int(offering)

    async def node_memory():
        pending = deque()  # [cycle from which it may be answered, 32 dwords]
        while True:
            await RisingEdge(dut.clock)
            now = cycle()
            if int(dut.mem_resp_valid.value) and int(dut.mem_resp_ready.value):
                pending.popleft()
            if int(dut.mem_req_valid.value):
                if int(dut.mem_req_ready.value):
                    n = len(req_cycles)
                    assert n < len(fetches), f"extra memory request {n} at cycle {now}"
                    addr = int(dut.mem_req_addr_hi.value) << 32 | int(dut.mem_req_addr_lo.value)
                    length = 128 if int(dut.mem_req_len128.value) else 64
                    assert (addr, length) == fetches[n], \
                        f"request {n} (vector {fetching[n]}): {length} bytes at {addr:#x}, " \
                        f"expected {fetches[n][1]} bytes at {fetches[n][0]:#x}"
                    node = [int.from_bytes(bytes(memory.get((addr + 4 * w + b) & M64, 0) for b in range(4)),
                                           "little") for w in range(length // 4)]
                    node += [rng.getrandbits(32) for _ in range(32 - len(node))]
                    pending.append([now + rng.randint(1, 6), node])
                    req_cycles.append(now)
                    st["max_pending"] = max(st["max_pending"], len(pending))
                else:
                    st["req_stall"] += 1
            dut.mem_req_ready.value = int(rng.random() >= 0.25)
            due = bool(pending) and pending[0][0] <= now
            if pending and not due:
                st["resp_wait"] += 1
            valid = due and rng.random() >= 0.25
            st["resp_withheld"] += due and not valid
            dut.mem_resp_valid.value = int(valid)
            data = pending[0][1] if valid else [rng.getrandbits(32) for _ in range(32)]
            for w in range(32):
                getattr(dut, f"mem_resp_data_{w}").value = data[w]

    async def monitor():
        while len(results) < len(vecs):
            await RisingEdge(dut.clock)
            if int(dut.out_valid.value):
                if int(dut.out_ready.value):
                    err = int(dut.out_err.value)
                    d = None if err else [int(getattr(dut, f"out_d_{j}").value) for j in range(4)]
                    results.append((int(dut.out_tag.value), d, err, cycle()))
                else:
                    st["out_stall"] += 1
            dut.out_ready.value = int(rng.random() >= 0.3)

    for name in ("in_valid", "out_ready", "mem_req_ready", "mem_resp_valid"):
        getattr(dut, name).value = 0
    dut.reset.value = 1
    texpix.Clock(dut.clock, PERIOD_NS, "ns").start()
    await ClockCycles(dut.clock, 2)
    dut.reset.value = 0
    await RisingEdge(dut.clock)
    start = cycle()
    start_soon(driver())
    start_soon(node_memory())
    await start_soon(monitor())
    cycles = cycle() - start

    for k, ((tag, d, err, at), e) in enumerate(zip(results, exp)):
        assert tag == tags[k], f"result {k} at cycle {at}: tag {tag:#x}, expected {tags[k]:#x} (vector {k})"
        assert bool(err) == ("error" in e), f"vector {k}: out_err {err}, golden {e}"
        assert d == e["d"], f"vector {k} ({vecs[k].get('node', {}).get('type')}): d {d}, expected {e['d']}"
    assert len(req_cycles) == len(fetches), f"{len(req_cycles)} memory requests for {len(fetches)} fetching rays"
    assert req_cycles == [accepted[k] for k in fetching], "a request was not accepted in its ray's cycle"
    for what in ("idle", "in_stall", "req_stall", "resp_wait", "resp_withheld", "out_stall"):
        assert st[what] > 0, f"{what} never happened: {st}"
    assert st["max_pending"] >= 3, f"at most {st['max_pending']} requests outstanding"
    assert cycles < 200, f"{cycles} cycles"

    # Nothing more comes out, nothing more is fetched.
    for _ in range(10):
        await RisingEdge(dut.clock)
        await ReadOnly()
        assert int(dut.out_valid.value) == 0
        assert int(dut.mem_req_valid.value) == 0
    assert len(results) == len(vecs)
    print(f"bvh port stream: {len(vecs)} rays in {cycles} cycles, {st}")
