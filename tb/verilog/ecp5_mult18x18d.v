// Behavioural model of the Lattice ECP5 MULT18X18D sysDSP multiplier, for simulation only.
//
// Written for texpix from the primitive's documented behaviour (Lattice TN1267, ECP5 and ECP5-5G
// sysDSP Usage Guide) and the port and parameter names of Yosys' ECP5 cell library; it covers the
// subset texpix's MulUReg leaf instantiates, and stops the simulation on any other setting:
// - operands A and B from the parallel inputs (SOURCEA = SOURCEB = 0), unsigned or signed;
// - input registers A and B and the output register, each either bypassed ("NONE") or clocked by
//   CLK0 with clock enable CE0 and synchronous reset RST0; no pipeline register, no C input;
// - P = A * B (36 bits); registers start at zero (the global set/reset at configuration).
module MULT18X18D(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16, A17, B0, B1, B2, B3, B4, B5, B6, B7, B8, B9, B10, B11, B12, B13, B14, B15, B16, B17, C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, C17, SIGNEDA, SIGNEDB, SOURCEA, SOURCEB, CLK0, CLK1, CLK2, CLK3, CE0, CE1, CE2, CE3, RST0, RST1, RST2, RST3, P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17, P18, P19, P20, P21, P22, P23, P24, P25, P26, P27, P28, P29, P30, P31, P32, P33, P34, P35);
   parameter REG_INPUTA_CLK = "NONE";
   parameter REG_INPUTA_CE = "CE0";
   parameter REG_INPUTA_RST = "RST0";
   parameter REG_INPUTB_CLK = "NONE";
   parameter REG_INPUTB_CE = "CE0";
   parameter REG_INPUTB_RST = "RST0";
   parameter REG_INPUTC_CLK = "NONE";
   parameter REG_INPUTC_CE = "CE0";
   parameter REG_INPUTC_RST = "RST0";
   parameter REG_PIPELINE_CLK = "NONE";
   parameter REG_PIPELINE_CE = "CE0";
   parameter REG_PIPELINE_RST = "RST0";
   parameter REG_OUTPUT_CLK = "NONE";
   parameter REG_OUTPUT_CE = "CE0";
   parameter REG_OUTPUT_RST = "RST0";
   parameter GSR = "ENABLED";
   parameter RESETMODE = "SYNC";
   input A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16, A17;
   input B0, B1, B2, B3, B4, B5, B6, B7, B8, B9, B10, B11, B12, B13, B14, B15, B16, B17;
   input C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, C17;
   input SIGNEDA, SIGNEDB, SOURCEA, SOURCEB;
   input CLK0, CLK1, CLK2, CLK3, CE0, CE1, CE2, CE3, RST0, RST1, RST2, RST3;
   output P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17, P18, P19, P20, P21, P22, P23, P24, P25, P26, P27, P28, P29, P30, P31, P32, P33, P34, P35;

   wire [17:0] a = {A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0};
   wire [17:0] b = {B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0};
   reg [17:0] ra = 18'd0;
   reg [17:0] rb = 18'd0;
   reg sa = 1'b0;
   reg sb = 1'b0;
   reg [35:0] rp = 36'd0;
   localparam IN_A = REG_INPUTA_CLK == "CLK0";
   localparam IN_B = REG_INPUTB_CLK == "CLK0";
   localparam OUT = REG_OUTPUT_CLK == "CLK0";
   initial begin
      if ((REG_INPUTA_CLK != "NONE" && REG_INPUTA_CLK != "CLK0")
          || (REG_INPUTB_CLK != "NONE" && REG_INPUTB_CLK != "CLK0")
          || (REG_OUTPUT_CLK != "NONE" && REG_OUTPUT_CLK != "CLK0")
          || REG_INPUTC_CLK != "NONE" || REG_PIPELINE_CLK != "NONE"
          || REG_INPUTA_CE != "CE0" || REG_INPUTB_CE != "CE0" || REG_OUTPUT_CE != "CE0"
          || REG_INPUTA_RST != "RST0" || REG_INPUTB_RST != "RST0" || REG_OUTPUT_RST != "RST0"
          || RESETMODE != "SYNC")
         $fatal(1, "MULT18X18D model: a register setting outside the modelled subset");
   end
   always @(posedge CLK0) begin
      if (SOURCEA !== 1'b0 || SOURCEB !== 1'b0)
         $fatal(1, "MULT18X18D model: only the parallel inputs (SOURCEA = SOURCEB = 0) are modelled");
      if (RST0) begin
         ra <= 18'd0;
         rb <= 18'd0;
         sa <= 1'b0;
         sb <= 1'b0;
         rp <= 36'd0;
      end else if (CE0) begin
         ra <= a;
         rb <= b;
         sa <= SIGNEDA;
         sb <= SIGNEDB;
         rp <= product;
      end
   end
   wire [17:0] xa = IN_A ? ra : a;
   wire [17:0] xb = IN_B ? rb : b;
   wire xsa = IN_A ? sa : SIGNEDA;
   wire xsb = IN_B ? sb : SIGNEDB;
   wire [35:0] ea = xsa ? {{18{xa[17]}}, xa} : {18'd0, xa};
   wire [35:0] eb = xsb ? {{18{xb[17]}}, xb} : {18'd0, xb};
   wire [35:0] product = ea * eb;
   wire [35:0] p = OUT ? rp : product;
   assign {P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19, P18, P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0} = p;
endmodule
