// SPDX-License-Identifier: BSL-1.0
// inverse_weighted_demo: equality of service on the network of Figure 5 ([Towles14]).
//
// Sources E0, E1 and E2 all send as fast as they can to one destination.
// E1 (input 0) and E0 (input 1) meet at arbiter A; A's output (input 0) and
// E2 (input 1) meet at arbiter B, which feeds the destination. Locally fair
// round robin halves the bandwidth at every merge; inverse-weighted arbiters
// programmed from the loads of Figure 5 (E0 0.5, E1 1, E2 1) serve each
// source in proportion to its load.
//
// With `--csv FILE` it also writes the convergence of a blended pattern at
// one arbiter (docs/arbiters/inverse_weighted_shares.csv, plotted by the
// gnuplot script beside it).
#include <interlock/interlock.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "output.hpp"
#include "run_tool.hpp"

namespace {

// Runs the two-arbiter network for `cycles` deliveries and returns how many
// packets of E0, E1, E2 reached the destination.
template <class Arbiter>
std::vector<long> figure5_network(Arbiter a, Arbiter b, long cycles) {
  const std::uint8_t labels[2] = {0, 0};
  const interlock::pattern_requests both{0b11, labels};
  std::vector<long> delivered(3, 0);
  int a_output = a.grant(both).index() == 0 ? 1 : 0;  // the packet waiting at B's input 0
  for (long c = 0; c < cycles; ++c) {
    if (b.grant(both).index() == 1) {
      ++delivered[2];
    } else {
      ++delivered[static_cast<std::size_t>(a_output)];
      a_output = a.grant(both).index() == 0 ? 1 : 0;  // A refills: input 0 is E1, input 1 is E0
    }
  }
  return delivered;
}

struct round_robin_as_pattern_arbiter {  // round robin behind the same request type
  interlock::round_robin_arbiter<2> rr;
  interlock::grant grant(const interlock::pattern_requests& r) { return rr.grant(r.requests); }
};

void print_shares(const char* name, const std::vector<long>& d) {
  const double total = static_cast<double>(d[0] + d[1] + d[2]);
  std::printf("  %-18s E0 %.3f   E1 %.3f   E2 %.3f\n", name, static_cast<double>(d[0]) / total,
              static_cast<double>(d[1]) / total, static_cast<double>(d[2]) / total);
}

// Bresenham labels: the k-th packet gets the pattern whose count lags its share most.
struct labeller {
  double share[2];
  double count[2] = {0, 0};
  double packets = 0;
  std::uint8_t next() {
    packets += 1;
    const int n = packets * share[1] - count[1] > packets * share[0] - count[0] ? 1 : 0;
    count[n] += 1;
    return static_cast<std::uint8_t>(n);
  }
};

void write_blend_csv(const std::string& path) {
  // Four inputs, two patterns with opposite loads, blended 30% / 70%.
  const interlock::load_matrix loads{{1.0, 0.25}, {0.5, 0.25}, {0.25, 0.5}, {0.25, 1.0}};
  const double alpha[2] = {0.3, 0.7};
  interlock::inverse_weighted_arbiter<4, 2, 8> hw(interlock::weights_from_loads(loads, 8));
  interlock::inverse_weighted_exact<4, 2> exact(loads);
  std::vector<labeller> label_hw, label_exact;
  double target[4], sum = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    const double blended = alpha[0] * loads[i][0] + alpha[1] * loads[i][1];
    target[i] = blended;
    sum += blended;
    const labeller l{{alpha[0] * loads[i][0] / blended, alpha[1] * loads[i][1] / blended}};
    label_hw.push_back(l);
    label_exact.push_back(l);
  }
  std::uint8_t cur_hw[4], cur_exact[4];
  for (std::size_t i = 0; i < 4; ++i)
    cur_hw[i] = label_hw[i].next(), cur_exact[i] = label_exact[i].next();
  cli::output_file out("--csv", path);
  out.line("decisions,hw0,hw1,hw2,hw3,exact0,exact1,exact2,exact3,target0,target1,target2,target3");
  double s_hw[4] = {}, s_exact[4] = {};
  int next_row = 1;  // rows at about 20 per decade
  for (int t = 1; t <= 10000; ++t) {
    const std::size_t g = hw.grant(interlock::pattern_requests{0b1111, cur_hw}).index();
    s_hw[g] += 1;
    cur_hw[g] = label_hw[g].next();
    const std::size_t e = exact.grant(interlock::pattern_requests{0b1111, cur_exact}).index();
    s_exact[e] += 1;
    cur_exact[e] = label_exact[e].next();
    if (t == next_row) {
      next_row = t + 1 + t / 10;
      std::string row = std::to_string(t);
      for (double s : s_hw) row += cli::format(",%.5f", s / t);
      for (double s : s_exact) row += cli::format(",%.5f", s / t);
      for (double g_i : target) row += cli::format(",%.5f", g_i / sum);
      out.line(row);
    }
  }
  out.close();
  std::printf("wrote %s\n", path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_demo(
      "inverse_weighted_demo",
      "usage: inverse_weighted_demo [--csv FILE]\n"
      "Equality of service on the network of Figure 5 ([Towles14]): round robin\n"
      "against inverse-weighted arbiters. --csv FILE also writes a blended\n"
      "pattern's convergence at one arbiter.\n",
      argc, argv,
      [](const std::vector<std::string>& csv) {
        std::printf("Figure 5: E0 (load 0.5), E1 (1) and E2 (1) share one destination link\n");
        std::printf("  equality of service  E0 0.200   E1 0.400   E2 0.400\n");
        const long cycles = 300000;
        print_shares("round robin", figure5_network(round_robin_as_pattern_arbiter{},
                                                    round_robin_as_pattern_arbiter{}, cycles));
        using iw = interlock::inverse_weighted_arbiter<2, 1, 8>;
        const auto a = interlock::weights_from_loads({{1.0}, {0.5}}, 8);  // E1, E0
        const auto b = interlock::weights_from_loads({{1.5}, {1.0}}, 8);  // A's output, E2
        std::printf("  weights: A %u / %u, B %u / %u (M = 8)\n", a.weights[0][0], a.weights[1][0],
                    b.weights[0][0], b.weights[1][0]);
        print_shares("inverse weighted", figure5_network(iw(a), iw(b), cycles));
        if (!csv[0].empty()) write_blend_csv(csv[0]);
        return 0;
      },
      {"--csv"});
}
