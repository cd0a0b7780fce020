// SPDX-License-Identifier: BSL-1.0
// The model's switch allocation in two stages (config::switch_stages = 2:
// [Towles14] Figure 12's SA1 then SA2): its timing at zero load and on one
// VC, its invariants past saturation, sleeping routers against eager ones,
// and the configurations it refuses.
#include <catch2/catch.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <interlock/model/network.hpp>
#include "support/network_makers.hpp"

namespace {

using interlock::node_id;
using interlock_test::make;
using interlock_test::to;
using rr = interlock::round_robin_arbiter<64>;

}  // namespace

TEST_CASE("two switch stages add a cycle per router at zero load",
          "[model][timing][switch_stages]") {
  // SA1 picks in one cycle, SA2 grants in the next: (hops + 1) x (channel +
  // router delay + head cycles + 1) + flits.
  const interlock::torus_topology t({8}, {false});
  const interlock::dimension_order_routing dor(t);
  for (const unsigned head : {0u, 2u})
    for (const unsigned flits : {1u, 4u})
      for (const node_id destination : {node_id{0}, node_id{5}}) {
        interlock::model::config c;
        c.batch = 1;
        c.lengths = {{flits, 1}};
        c.head_cycles = head;
        c.switch_stages = 2;
        interlock::model::network<interlock::dimension_order_routing, rr> net(
            dor, c,
            [destination](node_id s, interlock::splitmix64&) {
              return s == 0 ? destination : interlock::no_node;
            },
            make<rr>());
        INFO("head " << head << " flits " << flits << " to " << destination);
        CHECK(net.run().latency_mean == (destination + 1) * (1 + 1 + head + 1) + flits);
      }
}

TEST_CASE("with two switch stages one VC's packets leave a cycle further apart",
          "[model][timing][switch_stages]") {
  // Node 0 sends a batch to node 1 over one VC. The next head is picked
  // (SA1) only once the one before it has left, and granted (SA2) the cycle
  // after: one packet every flits + head_cycles + 1 cycles.
  const interlock::torus_topology t({2}, {false});
  const interlock::dimension_order_routing dor(t);
  for (const unsigned head : {0u, 2u})
    for (const unsigned flits : {1u, 3u}) {
      interlock::model::config c;
      c.batch = 20;
      c.lengths = {{flits, 1}};
      c.buffer_flits = 12;
      c.head_cycles = head;
      c.switch_stages = 2;
      interlock::model::network<interlock::dimension_order_routing, rr> net(
          dor, c,
          [](node_id s, interlock::splitmix64&) {
            return s == 0 ? node_id{1} : interlock::no_node;
          },
          make<rr>());
      std::vector<std::uint64_t> sends;
      net.on_send = [&](node_id r, std::size_t in, std::size_t, unsigned, std::uint64_t at) {
        if (r == 0 && in == t.local_port()) sends.push_back(at);
      };
      INFO("head " << head << " flits " << flits);
      REQUIRE(net.run().complete);
      REQUIRE(sends.size() == 20);
      for (std::size_t k = 1; k < sends.size(); ++k)
        CHECK(sends[k] - sends[k - 1] == flits + head + 1);
    }
}

TEST_CASE("two switch stages keep every invariant and one flit per port per cycle past saturation",
          "[model][invariants][switch_stages]") {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::t3e_adaptive_routing scheme(t);
  interlock::model::config c;
  c.load = 0.9;
  c.lengths = {{1, 1}, {4, 1}};
  c.buffer_flits = 8;
  c.switch_stages = 2;
  c.warmup = 100;
  c.measure = 1500;
  interlock::model::network<interlock::t3e_adaptive_routing, rr> net(
      scheme, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
  std::map<std::pair<node_id, std::size_t>, std::uint64_t> in_free, out_free;
  std::string overlap;
  net.on_send = [&](node_id r, std::size_t in, std::size_t out, unsigned flits, std::uint64_t at) {
    std::uint64_t& i = in_free[{r, in}];
    std::uint64_t& o = out_free[{r, out}];
    if ((i > at || o > at) && overlap.empty())
      overlap = "router " + std::to_string(r) + " at " + std::to_string(at);
    i = o = at + flits;
  };
  net.start();
  for (int k = 0; k < 1500; ++k) {
    net.step();
    const std::string problem = net.check_invariants();
    INFO("cycle " << net.now() << ": " << problem);
    REQUIRE(problem.empty());
  }
  CHECK(overlap.empty());
  CHECK(net.delivered() > 1000);
  CHECK(!net.deadlock().deadlocked);
}

TEST_CASE("with two switch stages, sleeping routers give the run of routers evaluated every cycle",
          "[model][activity][switch_stages]") {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::t3e_adaptive_routing scheme(t);
  const auto run = [&](bool every_cycle) {
    interlock::model::config c;
    c.load = 0.8;
    c.lengths = {{1, 1}, {5, 1}};
    c.buffer_flits = 10;
    c.head_cycles = 2;
    c.switch_stages = 2;
    c.warmup = 200;
    c.measure = 2000;
    c.evaluate_every_cycle = every_cycle;
    interlock::model::network<interlock::t3e_adaptive_routing, rr> net(
        scheme, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
    std::uint64_t trace = 0;
    net.on_send = [&trace](node_id r, std::size_t in, std::size_t out, unsigned f,
                           std::uint64_t at) {
      trace = trace * 1000003 + r * 131 + in * 31 + out * 7 + f + at;
    };
    interlock::model::results res = net.run();
    res.wall_s = 0;
    return std::make_pair(trace, interlock::model::csv_row(res));
  };
  const auto lazy = run(false), eager = run(true);
  CHECK(lazy.first == eager.first);
  CHECK(lazy.second == eager.second);
}

TEST_CASE("two switch stages need the input-first allocator and no staging buffers",
          "[model][config][switch_stages]") {
  const interlock::torus_topology t({4}, {true});
  const interlock::dimension_order_routing dor(t);
  const auto field_of = [&](interlock::model::config c, auto allocator) {
    using net_type =
        interlock::model::network<interlock::dimension_order_routing, rr, decltype(allocator)>;
    try {
      net_type net(dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>(), {}, allocator);
    } catch (const interlock::config_error& e) {
      return e.field();
    }
    return std::string("accepted");
  };
  interlock::model::config c;
  c.switch_stages = 3;
  CHECK(field_of(c, interlock::model::separable_input_first{}) == "switch_stages");
  c.switch_stages = 2;
  CHECK(field_of(c, interlock::model::separable_input_first{}) == "accepted");
  CHECK(field_of(c, interlock::model::separable_output_first{}) == "switch_stages");
  c.staging_flits = 4;
  CHECK(field_of(c, interlock::model::separable_input_first{}) == "switch_stages");
}
