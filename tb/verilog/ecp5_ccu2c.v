// Behavioural model of the Lattice ECP5 CCU2C carry cell (two LUT4s on the carry chain), for
// simulation only.
//
// Written for texpix from the cell's behaviour as Yosys' ECP5 cell library and nextpnr model it,
// for the subset texpix's gated adders instantiate (rtl/src/common/carry.rs), and stops the
// simulation on any other setting:
// - INJECT1_0 = INJECT1_1 = "NO": each half's sum is its LUT4 output XOR the carry into it;
// - the carry out of a half is the carry into it where the LUT4 output (the propagate bit) is 1,
//   else the half's generate bit: the low nibble of its INIT read as a LUT2 of A and B.
module CCU2C(CIN, A0, B0, C0, D0, A1, B1, C1, D1, S0, S1, COUT);
   parameter [15:0] INIT0 = 16'h0000;
   parameter [15:0] INIT1 = 16'h0000;
   parameter INJECT1_0 = "YES";
   parameter INJECT1_1 = "YES";
   input CIN, A0, B0, C0, D0, A1, B1, C1, D1;
   output S0, S1, COUT;
   initial begin
      if (INJECT1_0 != "NO" || INJECT1_1 != "NO") begin
         $display("ecp5_ccu2c.v: only INJECT1_0 = INJECT1_1 = \"NO\" is modelled");
         $fatal(1);
      end
   end
   wire p0 = INIT0[{D0, C0, B0, A0}];
   wire g0 = INIT0[{B0, A0}];
   wire c1 = p0 ? CIN : g0;
   wire p1 = INIT1[{D1, C1, B1, A1}];
   wire g1 = INIT1[{B1, A1}];
   assign S0 = p0 ^ CIN;
   assign S1 = p1 ^ c1;
   assign COUT = p1 ? c1 : g1;
endmodule
