// SPDX-License-Identifier: BSL-1.0
// A program outside interlock that builds and runs a network of the reference
// model from the installed interlock::model target, as a simulator author would.
#include <interlock/interlock.hpp>
#include <interlock/model/network.hpp>

#include <cstdio>

int main() {
  using namespace interlock;
  const torus_topology t({4, 4}, {true, true});
  const dimension_order_routing dor(t);
  model::config c;
  c.load = 0.2;
  c.warmup = 200;
  c.measure = 2000;
  const traffic::uniform_random uniform;
  model::network<dimension_order_routing, round_robin_arbiter<64>> net(
      dor, c, [&](node_id s, splitmix64& g) { return uniform.destination(t, s, g); },
      [](node_id, std::size_t) { return round_robin_arbiter<64>{}; });
  const model::results r = net.run();
  std::printf("accepted %.3f of 0.2 offered, mean latency %.1f cycles\n", r.accepted,
              r.latency_mean);
  if (r.accepted < 0.18 || r.accepted > 0.22 || r.measured_delivered != r.measured_packets)
    return 1;
  try {
    c.buffer_flits = 0;
    model::network<dimension_order_routing, round_robin_arbiter<64>> bad(
        dor, c, [](node_id, splitmix64&) { return no_node; },
        [](node_id, std::size_t) { return round_robin_arbiter<64>{}; });
    std::printf("a zero-flit buffer was accepted\n");
    return 1;
  } catch (const config_error& e) {
    std::printf("config_error as expected: %s\n", e.what());
  }
  return 0;
}
