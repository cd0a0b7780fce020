// SPDX-License-Identifier: BSL-1.0
// anton2_priority_arbiter.sv: the P-level priority arbiter of Anton 2, ties broken by a
// thermometer-coded round-robin state ([Towles14] Section 3.4, Figures 7 and 8).
//
// Decision (combinational): the requesters at the highest requesting level
// compete; among them, those whose rr_therm bit is set come first, and within
// either group the highest index wins (thermometer_pick.sv). rr_therm is a thermometer code (bit i
// set implies bit i-1 set), so "set bits first, then the highest index" is a
// rotation: after a committed grant to g the state becomes bits [0, g) set,
// g-1 is favoured next and g is served last. One state serves every level
// and moves on every committed grant. With P = 1 this is the round-robin
// arbiter.
//
// Ports follow the convention of examples/integrations/rtl/README.md:
//   clk, rst          rst is synchronous and active high: rr_therm <= 0
//   req [N]           the request vector
//   req_level [N*LW]  requester i's level, 0..P-1 (P-1 highest), in bits [i*LW +: LW]
//   commit            the grant of this cycle is used: the state advances at the edge
//   gnt [N]           one-hot or zero, combinational from req, req_level and the state
//   gnt_valid         |gnt
//   state_rr_therm    the round-robin state, for the co-simulation's state check
module anton2_priority_arbiter #(
    parameter int N = 8,
    parameter int P = 2,
    parameter int LW = (P > 1) ? $clog2(P) : 1
) (
    input  logic            clk,
    input  logic            rst,
    input  logic [   N-1:0] req,
    input  logic [N*LW-1:0] req_level,
    input  logic            commit,
    output logic [   N-1:0] gnt,
    output logic            gnt_valid,
    output logic [   N-1:0] state_rr_therm
);
  logic [N-1:0] rr_therm;
  logic [LW-1:0] top;
  logic [N-1:0] at_top;

  always_comb begin
    top = '0;
    for (int i = 0; i < N; i++)
      if (req[i] && req_level[i*LW+:LW] > top) top = req_level[i*LW+:LW];
    for (int i = 0; i < N; i++) at_top[i] = req[i] && (req_level[i*LW+:LW] == top);
  end

  thermometer_pick #(
      .N(N)
  ) pick (
      .candidates(at_top),
      .rr_therm(rr_therm),
      .gnt(gnt)
  );

  assign gnt_valid = |gnt;
  assign state_rr_therm = rr_therm;

  // A one-hot grant g minus one is bits [0, g): the new thermometer code.
  always_ff @(posedge clk)
    if (rst) rr_therm <= '0;
    else if (commit && gnt_valid) rr_therm <= gnt - 1'b1;
endmodule
