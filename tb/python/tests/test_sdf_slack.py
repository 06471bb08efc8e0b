"""scripts/sdf_slack.py: static timing over a routed SDF, on a hand-built netlist whose path delays
are worked out here by hand."""

import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[3] / "scripts" / "sdf_slack.py"

# Two registers a and b feed a LUT f (inputs A and B); f drives register c, b also drives d.
#   a: CLK→Q 500, route 1000, LUT A→F 250, route 8400, c's setup 100: 10 250 ps (fails 10 ns)
#   b: CLK→Q 500, route 200, LUT B→F 300: 1 000 ps at F, below a's 1 750, so c's path is a's
#   b: CLK→Q 500, route 300 to d, d's setup 100: 900 ps
SDF = r"""(DELAYFILE
  (SDFVERSION "3.0")
  (DIVIDER /)
  (TIMESCALE 1ps)
  (CELL
    (CELLTYPE "top")
    (INSTANCE )
    (DELAY
      (ABSOLUTE
        (INTERCONNECT dut.a_TRELLIS_FF_Q_3/Q dut.f\$lut/A (900:950:1000) (900:950:1000))
        (INTERCONNECT dut.b_TRELLIS_FF_Q/Q dut.f\$lut/B (100:150:200) (100:150:200))
        (INTERCONNECT dut.f\$lut/F dut.c_TRELLIS_FF_Q_1/DI (8000:8200:8400) (8000:8200:8400))
        (INTERCONNECT dut.b_TRELLIS_FF_Q/Q dut.d_TRELLIS_FF_Q/DI (300:300:300) (300:300:300))
      )
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE dut.a_TRELLIS_FF_Q_3)
    (DELAY (ABSOLUTE
        (IOPATH CLK Q (430:477:500) (430:477:500))
    ))
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE dut.b_TRELLIS_FF_Q)
    (DELAY (ABSOLUTE
        (IOPATH CLK Q (430:477:500) (430:477:500))
    ))
  )
  (CELL
    (CELLTYPE "TRELLIS_COMB")
    (INSTANCE dut.f\$lut)
    (DELAY (ABSOLUTE
        (IOPATH A F (200:220:250) (200:220:250))
        (IOPATH B F (200:250:300) (200:250:300))
    ))
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE dut.c_TRELLIS_FF_Q_1)
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (50:80:100) (0:0:0))
      (SETUPHOLD (negedge DI) (posedge CLK) (50:80:100) (0:0:0))
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE dut.d_TRELLIS_FF_Q)
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (50:80:100) (0:0:0))
    )
  )
)
"""


def run(tmp_path, text, *args):
    sdf = tmp_path / "design.sdf"
    sdf.write_text(text)
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(sdf), *args], capture_output=True, text=True
    )


def test_failing_endpoints_and_worst_path(tmp_path):
    r = run(tmp_path, SDF, "--period", "10")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "2 start points, 2 timed endpoints, 1 over 10.0 ns" in out
    assert "worst arrival 10.25 ns (97.6 MHz)" in out
    assert "10.25 ns      1 endpoint(s)  dut.a  ->  dut.c" in out
    # The worst path goes through the LUT's slower-arriving input A, not B.
    path = out[out.index("worst path dut.a -> dut.c"):]
    assert "dut.f$lut/A" in path and "dut.f$lut/B" not in path
    assert "   8.40  10.15  dut.c_TRELLIS_FF_Q_1/DI" in path


def test_longer_period_passes(tmp_path):
    r = run(tmp_path, SDF, "--period", "10.25")
    assert r.returncode == 0, r.stderr
    assert "2 timed endpoints, 0 over 10.25 ns" in r.stdout
    # Nothing fails: the worst path is still shown.
    assert "worst path dut.a -> dut.c: 10.25 ns" in r.stdout


def test_not_an_sdf_names_the_line(tmp_path):
    r = run(tmp_path, "hello\n")
    assert r.returncode != 0
    assert "design.sdf:1: not an SDF file" in r.stderr
