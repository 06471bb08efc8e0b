import texpix
from texpix import Clock, ClockCycles, ReadOnly, RisingEdge

TOPLEVEL = "coverage"  # the unit this file tests (its name or its Verilog top, texpix_coverage)


@texpix.test()
async def test_one_quad(dut):
    """One triangle over a 2×2 quad, 4× MSAA: the RTL's coverage masks equal the golden model's."""
    vector = {"samples": 4, "tri": [[0, 0], [2560, 0], [0, 2560]], "quad": [2, 2], "ops": []}
    expected = texpix.golden.coverage(vector)  # bit-accurate golden model, from Rust

    dut.in_valid.value = 0
    dut.out_ready.value = 1
    dut.reset.value = 1
    Clock(dut.clock, 10, "ns").start()  # the clock runs inside Rust
    await ClockCycles(dut.clock, 2)
    dut.reset.value = 0

    dut.in_log2n.value = 2  # 4 samples
    for i, (x, y) in enumerate(vector["tri"]):  # vertices, 16.8 fixed point
        getattr(dut, f"in_vx_{i}").value = x
        getattr(dut, f"in_vy_{i}").value = y
    dut.in_quad_x.value, dut.in_quad_y.value = vector["quad"]
    dut.in_smask.value = 0xFFFF
    dut.in_valid.value = 1
    await RisingEdge(dut.clock)  # in_valid and in_ready are high here: the unit takes the quad
    dut.in_valid.value = 0

    for _ in range(10):
        await RisingEdge(dut.clock)
        await ReadOnly()
        if dut.out_valid.value:
            break
    assert dut.out_valid.value == 1, "no result within 10 cycles"
    covmask = [int(getattr(dut, f"out_covmask_{lane}").value) for lane in range(4)]
    assert covmask == expected["covmask"]
