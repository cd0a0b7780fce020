// SPDX-License-Identifier: BSL-1.0
// thermometer_pick.sv: one round-robin pick under a thermometer-coded state ([Towles14]
// Section 3.4, Figure 8's tie rule).
//
// Among `candidates`, those whose rr_therm bit is set come first, and within
// either group the highest index wins: with rr_therm = bits [0, g) set, the
// order is g-1, g-2, ..., 0, N-1, ..., g. gnt is one-hot, or zero when there
// is no candidate. Combinational; the arbiters that use it keep rr_therm.
module thermometer_pick #(
    parameter int N = 8
) (
    input  logic [N-1:0] candidates,
    input  logic [N-1:0] rr_therm,
    output logic [N-1:0] gnt
);
  logic [N-1:0] preferred, pool;

  always_comb begin
    preferred = candidates & rr_therm;
    pool = (preferred != '0) ? preferred : candidates;
    gnt = '0;
    for (int i = 0; i < N; i++)
      if (pool[i]) begin
        gnt = '0;
        gnt[i] = 1'b1;
      end
  end
endmodule
