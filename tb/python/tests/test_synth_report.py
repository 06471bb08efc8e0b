"""scripts/synth_report.py: which rows of an earlier fpga_results.csv a merge keeps."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "scripts"))
from synth_report import is_known_design  # noqa: E402

UNITS = ["coverage", "lod", "texaddr", "bvh", "tex"]


def test_units_at_every_depth_and_their_blocks_are_kept():
    # A unit's depth rows (`<unit>-d<N>`) and its blocks (`<module without texpix_>-d<N>`) are
    # rows scripts/synth still builds: a merge of another design's run must not drop them.
    for design in ["lod", "lod-d42", "texaddr-d45", "coverage-d8", "lod_lane_0-d41",
                   "coverage_lane0-d8", "texaddr_addr_ax_0-d45", "bvh_slab_0-d53"]:
        assert is_known_design(design, UNITS), design


def test_boards_and_fp_blocks_are_kept():
    for design in ["coverage-board", "coverage-board-ulx3s", "lod-board-ulx3s", "fp-board-s2", "fp-board-s3-retime",
                   "fp-cmp-board-s2", "fpmul-s6", "fpadd-s1"]:
        assert is_known_design(design, UNITS), design


def test_designs_that_no_longer_exist_are_dropped():
    for design in ["raster", "lod-x", "lodd-d3", "lod-d", "fp-board", "coverage-board-2",
                   "lod_lane_0", "-d3"]:
        assert not is_known_design(design, UNITS), design


def test_latency_is_read_from_a_whole_units_export(tmp_path):
    from synth_report import unit_latency  # noqa: E402

    v = tmp_path / "texpix_lod.v"
    v.write_text("// texpix_lod: generated\n// parameters: depth 42, latency 47, II = 1; ports\n")
    assert unit_latency("lod-d42", str(v), UNITS) == 47
    assert unit_latency("lod", str(v), UNITS) == 47
    # Where the latency depends on the memory it is kept as the header's expression, not cut
    # to its first number.
    b = tmp_path / "texpix_bvh.v"
    b.write_text("// texpix_bvh: generated\n// parameters: QUEUE = 8 rays in flight, depth 53 "
                 "(latency 1 + memory latency + 53), II = 1; ports: see rtl/src/bvh/unit.rs\n")
    assert unit_latency("bvh-d53", str(b), UNITS) == "1 + memory latency + 53"
    # Blocks, boards and fp cores have no unit latency; a missing export or header gives none.
    assert unit_latency("lod_lane_0-d41", str(v), UNITS) is None
    assert unit_latency("fp-board-s2", str(v), UNITS) is None
    assert unit_latency("lod-d42", str(tmp_path / "gone.v"), UNITS) is None
    v.write_text("// texpix_lod\n// parameters: depth 42, II = 1\n")
    assert unit_latency("lod-d42", str(v), UNITS) is None


def test_a_flows_job_line_carries_its_settings_into_the_status():
    from synth_report import parse_job, with_flow  # noqa: E402

    plain = parse_job("lod-d42|B/lod-d42/texpix_lod.v|texpix_lod|ecp5|\n")
    assert plain == ("lod-d42", "B/lod-d42/texpix_lod.v", "texpix_lod", "ecp5", "", "")
    flow = parse_job("texaddr-d45|v|texpix_texaddr|ecp5||ecp5_ram_retime=1;ecp5_pnr_flags=--placer static")
    assert flow[4] == "" and flow[5] == "ecp5_ram_retime=1;ecp5_pnr_flags=--placer static"
    assert with_flow("routed", flow[5]) == \
        "routed [flow: ecp5_ram_retime=1; ecp5_pnr_flags=--placer static]"
    assert with_flow("routed", plain[5]) == "routed"
    # A line with too few or too many fields is an error naming it, not a shifted row.
    for bad in ["lod|v|top|ecp5", "a|b|c|d|e|f|g"]:
        try:
            parse_job(bad)
        except ValueError as e:
            assert bad in str(e)
        else:
            raise AssertionError(bad)
