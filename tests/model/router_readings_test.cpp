// SPDX-License-Identifier: BSL-1.0
// The router's readings of what [Towles14] Section 2.2 leaves open, as the
// model's options: pipelined heads (config::pipelined_heads: a VC's next
// packet passes RC and VA while the one before it is still in switch
// allocation) and persistent picks (config::persistent_picks: an input
// whose offer lost offers it again). Their timing on one VC, worked by
// hand; zero-load latency unchanged; invariants past saturation; sleeping
// routers against eager ones; and the configurations they refuse.
#include <catch2/catch.hpp>
#include <interlock/arbiters/age_epoch.hpp>
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

// Node 0 sends a batch of 20 to node 1 over one VC: the cycles its local
// input port sends them.
std::vector<std::uint64_t> stream(unsigned head, unsigned stages, unsigned flits, bool pipelined) {
  static const interlock::torus_topology t({2}, {false});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.batch = 20;
  c.lengths = {{flits, 1}};
  c.buffer_flits = 12;
  c.head_cycles = head;
  c.switch_stages = stages;
  c.pipelined_heads = pipelined;
  interlock::model::network<interlock::dimension_order_routing, rr> net(
      dor, c,
      [](node_id s, interlock::splitmix64&) { return s == 0 ? node_id{1} : interlock::no_node; },
      make<rr>());
  std::vector<std::uint64_t> sends;
  net.on_send = [&](node_id r, std::size_t in, std::size_t, unsigned, std::uint64_t at) {
    if (r == 0 && in == t.local_port()) sends.push_back(at);
  };
  REQUIRE(net.run().complete);
  return sends;
}

}  // namespace

TEST_CASE("pipelined heads: one VC's packets leave one per packet length, as fast as they come",
          "[model][timing][router_readings]") {
  // The source injects a flit a cycle. Worked by hand for 1-flit packets
  // through the four-stage router (RC, VA, SA1, SA2): packet i arrives at
  // a + i, passes RC and VA at a + i + 1 and a + i + 2, SA1 at a + i + 2
  // and leaves (SA2) at a + i + 3, while packet i + 1 is a stage behind it:
  // one a cycle. Without pipelined heads packet i + 1 starts RC only once
  // packet i has left: 1 + 2 + 1 = 4 cycles apart. Longer packets leave
  // one per length (the crossbar input is the limit), against length +
  // head cycles + 1.
  for (const unsigned stages : {1u, 2u})
    for (const unsigned head : {0u, 2u})
      for (const unsigned flits : {1u, 3u}) {
        INFO("stages " << stages << " head " << head << " flits " << flits);
        const std::vector<std::uint64_t> pipelined = stream(head, stages, flits, true);
        const std::vector<std::uint64_t> waiting = stream(head, stages, flits, false);
        REQUIRE(pipelined.size() == 20);
        REQUIRE(waiting.size() == 20);
        for (std::size_t k = 1; k < 20; ++k) {
          CHECK(pipelined[k] - pipelined[k - 1] == flits);
          const unsigned behind = stages == 2 ? flits + head + 1 : flits + head;
          CHECK(waiting[k] - waiting[k - 1] == behind);
        }
        // The first packet meets an empty pipeline either way.
        CHECK(pipelined[0] == waiting[0]);
      }
}

TEST_CASE("pipelined heads leave the latency at zero load as it is",
          "[model][timing][router_readings]") {
  // (hops + 1) x (channel + head cycles + switch stages) + flits, as without.
  const interlock::torus_topology t({8}, {false});
  const interlock::dimension_order_routing dor(t);
  for (const unsigned stages : {1u, 2u})
    for (const unsigned head : {0u, 2u})
      for (const unsigned flits : {1u, 4u})
        for (const node_id destination : {node_id{0}, node_id{5}}) {
          interlock::model::config c;
          c.batch = 1;
          c.lengths = {{flits, 1}};
          c.head_cycles = head;
          c.switch_stages = stages;
          c.pipelined_heads = true;
          interlock::model::network<interlock::dimension_order_routing, rr> net(
              dor, c,
              [destination](node_id s, interlock::splitmix64&) {
                return s == 0 ? destination : interlock::no_node;
              },
              make<rr>());
          INFO("stages " << stages << " head " << head << " flits " << flits << " to "
                         << destination);
          CHECK(net.run().latency_mean == (destination + 1) * (1 + head + stages) + flits);
        }
}

namespace {
struct reading {
  unsigned stages, head;
  bool pipelined, persistent;
};

// A loaded 4x4 torus under the reading: its invariants checked every cycle,
// and no port's crossbar input or output carrying two packets at once.
void check_loaded(const reading& x) {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::t3e_adaptive_routing scheme(t);
  interlock::model::config c;
  c.load = 0.9;
  c.lengths = {{1, 1}, {4, 1}};
  c.buffer_flits = 8;
  c.switch_stages = x.stages;
  c.head_cycles = x.head;
  c.pipelined_heads = x.pipelined;
  c.persistent_picks = x.persistent;
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

// The same run with routers that sleep and routers evaluated every cycle:
// every send and the results' row.
std::pair<std::uint64_t, std::string> sends_and_row(const reading& x, bool every_cycle) {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::t3e_adaptive_routing scheme(t);
  interlock::model::config c;
  c.load = 0.8;
  c.lengths = {{1, 1}, {5, 1}};
  c.buffer_flits = 10;
  c.head_cycles = x.head;
  c.switch_stages = x.stages;
  c.pipelined_heads = x.pipelined;
  c.persistent_picks = x.persistent;
  c.warmup = 200;
  c.measure = 2000;
  c.evaluate_every_cycle = every_cycle;
  interlock::model::network<interlock::t3e_adaptive_routing, rr> net(
      scheme, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
  std::uint64_t trace = 0;
  net.on_send = [&trace](node_id r, std::size_t in, std::size_t out, unsigned f, std::uint64_t at) {
    trace = trace * 1000003 + r * 131 + in * 31 + out * 7 + f + at;
  };
  interlock::model::results res = net.run();
  res.wall_s = 0;
  return {trace, interlock::model::csv_row(res)};
}

const reading readings[] = {{1, 2, true, false}, {2, 0, true, false}, {2, 2, true, false},
                            {1, 0, false, true}, {2, 2, false, true}, {2, 2, true, true}};
}  // namespace

TEST_CASE("the readings keep every invariant and one packet per port at a time past saturation",
          "[model][invariants][router_readings]") {
  for (const reading& x : readings) {
    INFO("stages " << x.stages << " head " << x.head << " pipelined " << x.pipelined
                   << " persistent " << x.persistent);
    check_loaded(x);
  }
}

TEST_CASE("under the readings, sleeping routers give the run of routers evaluated every cycle",
          "[model][activity][router_readings]") {
  for (const reading& x : readings) {
    INFO("stages " << x.stages << " head " << x.head << " pipelined " << x.pipelined
                   << " persistent " << x.persistent);
    const auto lazy = sends_and_row(x, false), eager = sends_and_row(x, true);
    CHECK(lazy.first == eager.first);
    CHECK(lazy.second == eager.second);
  }
}

TEST_CASE("each reading changes the run it applies to, and only that", "[model][router_readings]") {
  const auto row = [](reading x) { return sends_and_row(x, false); };
  // Pipelined heads with one switch stage and no head cycles: nothing
  // overlaps that did not already.
  CHECK(row({1, 0, true, false}) == row({1, 0, false, false}));
  // Elsewhere each moves the run.
  CHECK(row({1, 2, true, false}).first != row({1, 2, false, false}).first);
  CHECK(row({2, 0, true, false}).first != row({2, 0, false, false}).first);
  CHECK(row({1, 0, false, true}).first != row({1, 0, false, false}).first);
  CHECK(row({2, 2, false, true}).first != row({2, 2, false, false}).first);
  CHECK(row({2, 2, true, true}).first != row({2, 2, true, false}).first);
}

TEST_CASE("persistent picks on one VC per port change nothing: there is nothing else to pick",
          "[model][router_readings]") {
  // A mesh under dimension order has one VC: a port's pick is its only head.
  const interlock::torus_topology t({4, 4}, {false, false});
  const interlock::dimension_order_routing dor(t);
  const auto run = [&](bool persistent, unsigned stages) {
    interlock::model::config c;
    c.load = 0.7;
    c.lengths = {{1, 1}, {3, 1}};
    c.switch_stages = stages;
    c.persistent_picks = persistent;
    c.warmup = 200;
    c.measure = 2000;
    interlock::model::network<interlock::dimension_order_routing, rr> net(
        dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
    interlock::model::results res = net.run();
    res.wall_s = 0;
    return interlock::model::csv_row(res);
  };
  for (const unsigned stages : {1u, 2u}) {
    INFO("stages " << stages);
    CHECK(run(true, stages) == run(false, stages));
  }
}

TEST_CASE("the readings refuse what they cannot apply to, naming the field",
          "[model][config][router_readings]") {
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
  c.persistent_picks = true;
  CHECK(field_of(c, interlock::model::separable_input_first{}) == "accepted");
  CHECK(field_of(c, interlock::model::separable_output_first{}) == "persistent_picks");
  c.staging_flits = 4;
  CHECK(field_of(c, interlock::model::separable_input_first{}) == "persistent_picks");
  c = {};
  c.pipelined_heads = true;
  c.switch_stages = 2;
  CHECK(field_of(c, interlock::model::separable_input_first{}) == "accepted");
  using age_arbiter = interlock::age_epoch_arbiter<64>;
  try {
    interlock::model::network<interlock::dimension_order_routing, age_arbiter> net(
        dor, c, to(t, interlock::traffic::uniform_random{}),
        [](node_id, std::size_t) { return age_arbiter{}; });
    FAIL("accepted");
  } catch (const interlock::config_error& e) {
    CHECK(e.field() == "pipelined_heads");
  }
}
