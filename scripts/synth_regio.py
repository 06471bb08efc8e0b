#!/usr/bin/env python3
"""Writes a timing wrapper around a bare block for out-of-context place-and-route.

usage: synth_regio.py VERILOG TOP OUT.v

The wrapper `<TOP>_regio` has TOP's ports and puts a register on every input and every output
(all clocked by TOP's `clock`, or by a new `clock` input for a combinational TOP), so that nextpnr, which times only register-to-register paths out of
context, also times the block's port-to-register and register-to-port logic: the block's
combinational input and output stages become register-to-register paths. Prints the number of
register bits the wrapper adds (the non-clock port bits).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from synth_ports import verilog_ports  # noqa: E402


def main():
    verilog, top, out = sys.argv[1:4]
    ports = verilog_ports(verilog, top)
    comb = not any(p == "clock" for p, _, _ in ports)
    names = (["clock"] if comb else []) + [p for p, _, _ in ports]
    v = [f"// Timing wrapper of {top} (scripts/synth_regio.py): a register on every input and output.",
         f"module {top}_regio(" + ", ".join(names) + ");"]
    if comb:
        v.append("    input wire clock;")
    inst, bits = [], 0
    for p, d, w in ports:
        rng = f" [{w - 1}:0]" if w > 1 else ""
        if p == "clock":
            v.append("    input wire clock;")
            inst.append(".clock(clock)")
            continue
        bits += w
        if d == "input":
            v.append(f"    input wire{rng} {p};")
            v.append(f"    reg{rng} {p}_r;")
            v.append(f"    always @(posedge clock) {p}_r <= {p};")
            inst.append(f".{p}({p}_r)")
        else:
            v.append(f"    output reg{rng} {p};")
            v.append(f"    wire{rng} {p}_w;")
            v.append(f"    always @(posedge clock) {p} <= {p}_w;")
            inst.append(f".{p}({p}_w)")
    v.append(f"    {top} dut(" + ", ".join(inst) + ");")
    v.append("endmodule")
    open(out, "w").write("\n".join(v) + "\n")
    print(bits)


if __name__ == "__main__":
    main()
