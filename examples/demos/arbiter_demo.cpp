// SPDX-License-Identifier: BSL-1.0
// arbiter_demo: the two foundation arbiters deciding, step by step.
//
// A round-robin arbiter with a thermometer-coded pointer (Anton 2, [Towles14],
// Figure 8) serves a fixed set of requesters, printing rr_therm after each
// grant; then a 2-level priority arbiter shows high-priority requests winning
// and round robin breaking ties within a level. Finally the decide/commit
// split: an allocator-style loop that commits only accepted grants.
#include <interlock/interlock.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "run_tool.hpp"

namespace {

std::string bits_of(std::uint64_t mask, std::size_t n) {
  std::string s;
  for (std::size_t i = n; i-- > 0;) s += ((mask >> i) & 1u) != 0 ? '1' : '0';
  return s;
}

void round_robin_demo() {
  constexpr std::size_t n = 8;
  interlock::round_robin_arbiter<n> rr;
  const std::uint64_t requests = 0b10110110;  // requesters 1, 2, 4, 5, 7
  std::printf("round_robin_arbiter<8>, requests %s (bit 7 on the left)\n",
              bits_of(requests, n).c_str());
  std::printf("  step  rr_therm  grant\n");
  std::size_t served[n] = {};
  for (int step = 0; step < 30; ++step) {
    const std::uint64_t before = rr.thermometer().mask();
    const interlock::grant g = rr.grant(requests);
    ++served[g.index()];
    if (step < 8) std::printf("  %4d  %s  %zu\n", step, bits_of(before, n).c_str(), g.index());
  }
  bool fair = true;
  for (std::size_t i = 0; i < n; ++i)
    fair = fair && served[i] == (interlock::requested(requests, i) ? 6u : 0u);
  std::printf("  ... after 30 grants: %s\n\n",
              fair ? "round robin: every requester served 6 times" : "UNFAIR");
}

void priority_demo() {
  interlock::priority_arbiter<8, 2> arb;
  interlock::priority_requests<2> req;
  req.set(1, 1).set(6, 1).set(0, 0).set(3, 0).set(7, 0);
  std::printf("priority_arbiter<8, 2>: high level {1, 6}, low level {0, 3, 7}\n");
  std::printf("  grants:");
  for (int step = 0; step < 4; ++step) std::printf(" %zu", arb.grant(req).index());
  std::printf("   (the high level alternates; the low level waits)\n");
  interlock::priority_requests<2> low;
  low.set(0, 0).set(3, 0).set(7, 0);
  std::printf("  high level idle, grants:");
  for (int step = 0; step < 4; ++step) std::printf(" %zu", arb.grant(low).index());
  std::printf("\n\n");
}

void decide_commit_demo() {
  // Two outputs arbitrate over the same inputs; input 5 can accept only one
  // grant per cycle, so the second output's grant is not committed and its
  // pointer stays where it was (iSLIP-style).
  interlock::round_robin_arbiter<8> out0, out1;
  const std::uint64_t requests = 0b00100100;  // inputs 2 and 5 request both outputs
  const interlock::grant g0 = out0.arbitrate(requests);
  const interlock::grant g1 = out1.arbitrate(requests);
  std::printf("decide, then commit: output 0 offers %zu, output 1 offers %zu\n", g0.index(),
              g1.index());
  out0.commit(g0);
  if (g1 != g0) out1.commit(g1);
  std::printf(
      "  input %zu accepts output 0; output 1's offer was refused, its pointer stays "
      "(highest priority still %zu)\n",
      g0.index(), out1.highest_priority());
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_demo("arbiter_demo",
                       "usage: arbiter_demo\n"
                       "The round-robin and priority arbiters deciding step by step, then\n"
                       "the decide/commit split of an allocator.\n",
                       argc, argv, [](const std::vector<std::string>&) {
                         round_robin_demo();
                         priority_demo();
                         decide_commit_demo();
                         return 0;
                       });
}
