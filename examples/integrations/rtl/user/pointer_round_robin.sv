// SPDX-License-Identifier: BSL-1.0
// pointer_round_robin.sv: a round-robin arbiter as a reader might write one, with a
// binary pointer: the first requester at or after the pointer wins, and the
// pointer moves to the winner + 1. It follows the port convention of
// README.md (no field, no state port), and docs/integrations.md checks it
// against interlock::round_robin_arbiter<N, interlock::rr_order::ascending>.
module pointer_round_robin #(
    parameter int N = 4,
    parameter int PW = (N > 1) ? $clog2(N) : 1
) (
    input  logic         clk,
    input  logic         rst,
    input  logic [N-1:0] req,
    input  logic         commit,
    output logic [N-1:0] gnt,
    output logic         gnt_valid
);
  logic [PW-1:0] ptr;  // the requester served first

  always_comb begin
    gnt = '0;
    for (int k = N - 1; k >= 0; k--)
      if (req[(int'(ptr)+k)%N]) begin
        gnt = '0;
        gnt[(int'(ptr)+k)%N] = 1'b1;
      end
  end

  assign gnt_valid = |gnt;

  always_ff @(posedge clk)
    if (rst) ptr <= '0;
    else if (commit && gnt_valid)
      for (int i = 0; i < N; i++) if (gnt[i]) ptr <= PW'((i + 1) % N);
endmodule
