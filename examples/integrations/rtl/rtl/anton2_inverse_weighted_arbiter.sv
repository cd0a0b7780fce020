// SPDX-License-Identifier: BSL-1.0
// anton2_inverse_weighted_arbiter.sv: Anton 2's inverse-weighted arbiter, the hardware
// model of [Towles14] Section 3.3 (Figure 6's accumulators feeding Figure 8's arbiter).
//
// Input i keeps an (M+1)-bit accumulator, relative to a sliding window of
// 2^(M+1) values. Its most significant bit is the priority: 0 (the lower half
// of the window) asks at the high level of a 2-level anton2_priority_arbiter,
// 1 at the low level. When the grant of a packet of pattern n at input g is
// committed:
//   - g's accumulator drops its MSB and adds the M-bit inverse weight m[g][n];
//   - if g had low priority, no requester was high, and the window slides by
//     2^M: every other accumulator with its MSB set drops it, and one below
//     the window (MSB clear: it was not requesting) is set to zero.
// So every accumulator stays below 2^(M+1), one adder per input.
//
// Ports (examples/integrations/rtl/README.md):
//   clk, rst          synchronous reset: accumulators and rr_therm to 0
//   req [K]           the requesting inputs
//   req_label [K*LB]  input i's packet pattern, 0..N-1, in bits [i*LB +: LB]
//   cfg_weights       m[i][n] (1..2^M-1) in bits [(i*N + n)*M +: M]: the
//                     configuration registers software programs
//   commit, gnt, gnt_valid as every arbiter here
//   state_acc         accumulator i in bits [i*(M+1) +: M+1]
//   state_rr_therm    the tie breaker's round-robin state
module anton2_inverse_weighted_arbiter #(
    parameter int K = 4,
    parameter int N = 2,
    parameter int M = 8,
    parameter int LB = (N > 1) ? $clog2(N) : 1
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [      K-1:0] req,
    input  logic [   K*LB-1:0] req_label,
    input  logic [ K*N*M-1:0]  cfg_weights,
    input  logic               commit,
    output logic [      K-1:0] gnt,
    output logic               gnt_valid,
    output logic [K*(M+1)-1:0] state_acc,
    output logic [      K-1:0] state_rr_therm
);
  logic [M:0] acc[K];
  logic [K-1:0] high;

  for (genvar i = 0; i < K; i++) begin : g_view
    assign high[i] = ~acc[i][M];
    assign state_acc[i*(M+1)+:M+1] = acc[i];
  end

  anton2_priority_arbiter #(
      .N(K),
      .P(2)
  ) tie_breaker (
      .clk(clk),
      .rst(rst),
      .req(req),
      .req_level(high),
      .commit(commit),
      .gnt(gnt),
      .gnt_valid(gnt_valid),
      .state_rr_therm(state_rr_therm)
  );

  wire low_grant = |(gnt & ~high);

  function automatic logic [M-1:0] weight(int i, logic [LB-1:0] n);
    return cfg_weights[(i*N+int'(n))*M+:M];
  endfunction

  always_ff @(posedge clk)
    if (rst) begin
      for (int i = 0; i < K; i++) acc[i] <= '0;
    end else if (commit && gnt_valid) begin
      for (int i = 0; i < K; i++)
        if (gnt[i]) acc[i] <= {1'b0, acc[i][M-1:0]} + {1'b0, weight(i, req_label[i*LB+:LB])};
        else if (low_grant) acc[i] <= acc[i][M] ? {1'b0, acc[i][M-1:0]} : '0;
    end
endmodule
