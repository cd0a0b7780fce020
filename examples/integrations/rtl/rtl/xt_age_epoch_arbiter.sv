// SPDX-License-Identifier: BSL-1.0
// xt_age_epoch_arbiter.sv: the Cray XT (SeaStar) output arbiter's decision: oldest packet
// first or round robin, mixed by AGE_RR_SELECT (Abts & Weisser, SC'07, Sections 2.1-2.3
// and Procedure 2 line 12).
//
// Each candidate presents the age Procedure 2 computed for its packet (8
// bits, saturated upstream). Two policies, each with its own
// thermometer-coded round-robin pointer (thermometer_pick.sv):
//   age          the candidates with the largest age compete under the age pointer;
//   round robin  every candidate competes under the round-robin pointer.
// A 6-bit grant counter indexes the 64-bit AGE_RR_SELECT register: bit c = 1
// makes the grant made while the counter is c an age grant. While the age
// clock inhibits age arbitration (an epoch switch), every grant is round
// robin. A committed grant moves the counter and the pointer of the policy
// that made it.
//
// Ports (examples/integrations/rtl/README.md):
//   clk, rst                 synchronous reset: pointers and counter to 0
//   req [N], req_age [N*8]   candidate i's age in bits [i*8 +: 8]
//   age_suspended            the age clock's inhibit wire
//   cfg_age_rr_select [64]   the AGE_RR_SELECT register
//   commit, gnt, gnt_valid   as every arbiter here
//   state_rr_therm, state_age_therm, state_counter
module xt_age_epoch_arbiter #(
    parameter int N = 8
) (
    input  logic           clk,
    input  logic           rst,
    input  logic [  N-1:0] req,
    input  logic [N*8-1:0] req_age,
    input  logic           age_suspended,
    input  logic [   63:0] cfg_age_rr_select,
    input  logic           commit,
    output logic [  N-1:0] gnt,
    output logic           gnt_valid,
    output logic [  N-1:0] state_rr_therm,
    output logic [  N-1:0] state_age_therm,
    output logic [    5:0] state_counter
);
  logic [N-1:0] rr_therm, age_therm, oldest, candidates, therm;
  logic [7:0] best;
  logic [5:0] counter;
  logic by_age;

  always_comb begin
    best = '0;
    for (int i = 0; i < N; i++) if (req[i] && req_age[i*8+:8] > best) best = req_age[i*8+:8];
    for (int i = 0; i < N; i++) oldest[i] = req[i] && req_age[i*8+:8] == best;
    by_age = cfg_age_rr_select[counter] && !age_suspended;
    candidates = by_age ? oldest : req;
    therm = by_age ? age_therm : rr_therm;
  end

  thermometer_pick #(
      .N(N)
  ) pick (
      .candidates(candidates),
      .rr_therm(therm),
      .gnt(gnt)
  );

  assign gnt_valid = |gnt;
  assign state_rr_therm = rr_therm;
  assign state_age_therm = age_therm;
  assign state_counter = counter;

  always_ff @(posedge clk)
    if (rst) begin
      rr_therm <= '0;
      age_therm <= '0;
      counter <= '0;
    end else if (commit && gnt_valid) begin
      if (by_age) age_therm <= gnt - 1'b1;
      else rr_therm <= gnt - 1'b1;
      counter <= counter + 1'b1;
    end
endmodule
