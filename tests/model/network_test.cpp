// SPDX-License-Identifier: BSL-1.0
// The reference network model (interlock/model/network.hpp): its invariants,
// end to end with interlock's routing schemes and arbiters.
#include <catch2/catch.hpp>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/age_tuning.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>
#include <interlock/verify/adaptive_deadlock.hpp>
#include <interlock/verify/channel_dependency_graph.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <interlock/model/network.hpp>
#include <interlock/traffic/merging.hpp>
#include "support/interlock_test.hpp"
#include "support/network_makers.hpp"

namespace {

using interlock::node_id;
using interlock_test::make;
using interlock_test::to;
using interlock_test::trace_sends;
using rr = interlock::round_robin_arbiter<64>;
using age = interlock::age_epoch_arbiter<64>;

interlock::model::config small_config(double load) {
  interlock::model::config c;
  c.load = load;
  c.warmup = 200;
  c.measure = 2000;
  c.drain = 20000;
  return c;
}

// Steps a network, checking conservation and every credit loop each cycle.
template <class Net>
void step_checked(Net& net, std::uint64_t cycles) {
  net.start();
  for (std::uint64_t i = 0; i < cycles; ++i) {
    net.step();
    const std::string problem = net.check_invariants();
    INFO("cycle " << net.now() << ": " << problem);
    REQUIRE(problem.empty());
  }
}

}  // namespace

TEST_CASE("packets are conserved and credits stay within the buffers, every cycle",
          "[model][invariants]") {
  const interlock::torus_topology t({4, 3}, {true, false});
  interlock::model::config c = small_config(0.6);  // past saturation: full buffers, blocked heads
  c.lengths = {{1, 0.5}, {3, 0.3}, {5, 0.2}};
  c.buffer_flits = 6;
  c.channel_latency = 2;
  c.response_share = 0.3;
  SECTION("dimension order, round robin") {
    const interlock::dimension_order_routing dor(t);
    interlock::model::network<interlock::dimension_order_routing, rr> net(
        dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
    step_checked(net, 3000);
    CHECK(net.delivered() > 1000);
  }
  SECTION("dimension order, round robin, a head pipeline") {
    c.head_cycles = 2;
    const interlock::dimension_order_routing dor(t);
    interlock::model::network<interlock::dimension_order_routing, rr> net(
        dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
    step_checked(net, 3000);
    CHECK(net.delivered() > 1000);
  }
  SECTION("T3E adaptive, age-epoch arbiter, two physical VCs per VC") {
    const interlock::t3e_adaptive_routing adaptive(t);
    c.vcs = 2 * adaptive.vcs_per_channel();
    c.buffer_flits = 5;
    interlock::model::network<interlock::t3e_adaptive_routing, age> net(
        adaptive, c, to(t, interlock::traffic::tornado{}), make<age>());
    CHECK(net.vc_replication() == 2);
    step_checked(net, 3000);
    CHECK(net.delivered() > 500);
  }
}

TEST_CASE("a deterministic scheme delivers each flow in order, at its destination",
          "[model][order]") {
  const interlock::torus_topology t({5, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c = small_config(0.5);
  c.lengths = {{1, 1}, {4, 1}};
  interlock::model::network<interlock::dimension_order_routing, rr> net(
      dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
  std::map<std::tuple<node_id, node_id, unsigned>, std::uint64_t> last;
  std::uint64_t deliveries = 0, out_of_order = 0;
  net.on_delivery = [&](node_id s, node_id d, unsigned cls, std::uint64_t seq, std::uint64_t) {
    ++deliveries;
    auto key = std::make_tuple(s, d, cls);
    auto it = last.find(key);
    if (it != last.end() && it->second > seq) ++out_of_order;
    last[key] = seq;
  };
  const interlock::model::results r = net.run();
  CHECK(deliveries == net.delivered());
  CHECK(deliveries > 5000);
  CHECK(out_of_order == 0);
  CHECK(r.measured_delivered == r.measured_packets);
  CHECK_FALSE(r.deadlock.deadlocked);
}

TEST_CASE("the same seed gives the same run; another seed another one", "[model][determinism]") {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::vc_promotion_routing scheme(t, interlock::all_dimension_orders(2));
  const auto run = [&](std::uint64_t seed) {
    interlock::model::config c = small_config(0.4);
    c.seed = seed;
    c.lengths = {{2, 1}, {6, 1}};
    interlock::model::network<interlock::vc_promotion_routing, rr> net(
        scheme, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
    std::uint64_t trace = 0;
    net.on_delivery = [&](node_id s, node_id d, unsigned, std::uint64_t seq, std::uint64_t at) {
      trace = trace * 1000003 + s * 31 + d * 7 + seq * 13 + at;
    };
    interlock::model::results r = net.run();
    r.wall_s = 0;
    return std::make_pair(interlock::model::csv_row(r), trace);
  };
  CHECK(run(7) == run(7));
  CHECK(run(7).second != run(8).second);
}

namespace {
template <class Scheme>
void no_deadlock_at_saturation(const Scheme& scheme) {
  interlock::model::config c;
  c.load = 1.0;
  c.warmup = 0;
  c.measure = 100000;
  c.drain = 0;
  c.lengths = {{1, 1}, {4, 1}};
  c.buffer_flits = 4;
  c.response_share = 0.5;
  const auto& t = scheme.topology();
  interlock::model::network<Scheme, rr> net(scheme, c, to(t, interlock::traffic::uniform_random{}),
                                            make<rr>());
  const interlock::model::results r = net.run();
  CHECK_FALSE(r.deadlock.deadlocked);
  CHECK(r.cycles >= 100000);
  CHECK(r.accepted > 0.1);
}
}  // namespace

TEST_CASE("no deadlock in 10^5 saturated cycles for every scheme the checker proves acyclic",
          "[model][deadlock][slow]") {
  const interlock::torus_topology t({5, 4}, {true, true});
  namespace v = interlock::verify;
  SECTION("dimension order with datelines") {
    const interlock::dimension_order_routing s(t);
    REQUIRE(v::check_deadlock_freedom(s).deadlock_free());
    no_deadlock_at_saturation(s);
  }
  SECTION("T3E direction order") {
    const interlock::direction_order_routing s(t);
    REQUIRE(v::check_deadlock_freedom(s).deadlock_free());
    no_deadlock_at_saturation(s);
  }
  SECTION("T3E adaptive") {
    const interlock::t3e_adaptive_routing s(t);
    REQUIRE(v::check_adaptive_deadlock_freedom(s, v::adaptive_flow_control::whole_packet)
                .deadlock_free());
    no_deadlock_at_saturation(s);
  }
  SECTION("Anton 2 VC promotion, every order") {
    const interlock::vc_promotion_routing s(t, interlock::all_dimension_orders(2));
    REQUIRE(v::check_deadlock_freedom(s).deadlock_free());
    no_deadlock_at_saturation(s);
  }
}

TEST_CASE("a scheme with a cyclic dependency graph deadlocks, and the cycle is reported",
          "[model][deadlock]") {
  // Dimension order without datelines on a 6-node ring: the checker finds a
  // cycle, and the model, saturated, fills it.
  const interlock::torus_topology t({6}, {true});
  const interlock::dimension_order_routing s(t, {}, {false});
  REQUIRE_FALSE(interlock::verify::check_deadlock_freedom(s).deadlock_free());
  interlock::model::config c;
  c.load = 1.0;
  c.warmup = 0;
  c.measure = 100000;
  c.drain = 0;
  c.buffer_flits = 2;
  c.lengths = {{2, 1}};
  interlock::model::network<interlock::dimension_order_routing, rr> net(
      s, c, to(t, interlock::traffic::tornado{}), make<rr>());
  const interlock::model::results r = net.run();
  REQUIRE(r.deadlock.deadlocked);
  CHECK(r.cycles < 100000);
  // The measured window ends where the deadlock was found: the accepted
  // load is over the cycles measured, not over the 100000 asked for.
  CHECK(r.window_cycles == r.deadlock.cycle);
  // Every buffer of the cycle is full (one whole packet), and the cycle goes
  // around the ring in one direction: six buffers.
  REQUIRE(r.deadlock.cycle_of_buffers.size() == 6);
  for (const std::string& b : r.deadlock.cycle_of_buffers) {
    INFO(b);
    CHECK(b.find("1 packets") != std::string::npos);
  }
}

namespace {
template <class Policy>
interlock::model::results parking_lot(bool wrap, interlock::model::age_config a = {},
                                      unsigned injection_buffer_flits = 0) {
  static const interlock::torus_topology mesh({8}, {false});
  static const interlock::torus_topology ring({8}, {true});
  const auto& t = wrap ? ring : mesh;
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.load = 1.0;
  c.warmup = 2000;
  c.measure = interlock_test::sized(40000u, 12000u);
  c.drain = 0;
  c.injection_buffer_flits = injection_buffer_flits;
  interlock::model::network<interlock::dimension_order_routing, Policy> net(
      dor, c, to(t, interlock::traffic::all_to_one{7}), make<Policy>(), a);
  return net.run();
}
}  // namespace

TEST_CASE("parking lot: round robin's shares fall geometrically with distance ([Abts07] Fig. 4)",
          "[model][parking_lot]") {
  for (const bool wrap : {false, true}) {
    INFO((wrap ? "ring" : "mesh"));
    const interlock::model::results r = parking_lot<rr>(wrap);
    const interlock::torus_topology t({8}, {wrap});
    const auto expected =
        interlock::traffic::merging_rule_shares(interlock::dimension_order_routing(t), 7);
    double total = 0;
    for (const double x : r.accepted_per_source) total += x;
    CHECK(total == Approx(1.0).epsilon(0.01));  // the ejection port is saturated
    for (std::size_t i = 0; i < r.sources.size(); ++i) {
      INFO("P" << r.sources[i]);
      CHECK(r.accepted_per_source[i] == Approx(expected[r.sources[i]]).margin(0.004));
    }
    if (!wrap) {
      // Mesh: P6 1/2, P5 1/4, ... P1 and P0 1/64 each.
      CHECK(expected[6] == 0.5);
      CHECK(expected[0] == 1.0 / 64);
      CHECK(expected[1] == 1.0 / 64);
      CHECK(r.accepted_per_source[0] < r.accepted_per_source[6] / 16);
    }
  }
}

TEST_CASE("parking lot: age-based arbitration equalizes the sources' network latency ([Abts07])",
          "[model][parking_lot]") {
  // [Abts07]'s claim for age-based arbitration: every source's packets see
  // the same latency through the network, however far they come. Round
  // robin makes the far sources' packets wait far longer.
  interlock::model::age_config a;
  a.period = 1;
  for (const bool wrap : {false, true}) {
    INFO((wrap ? "ring" : "mesh"));
    const interlock::model::results r = parking_lot<age>(wrap, a);
    const interlock::model::results round_robin = parking_lot<rr>(wrap);
    REQUIRE(r.network_latency_per_source.size() == 7);
    CHECK(r.source_network_latency_max_min < 1.10);
    CHECK(round_robin.source_network_latency_max_min > 5);
    CHECK(r.jain > round_robin.jain + (wrap ? 0.0 : 0.25));
  }
}

TEST_CASE("parking lot: with equal ages the shares follow the buffers (Little's law)",
          "[model][parking_lot]") {
  // Ages count from entry into the router (Procedure 1), so oldest-first
  // equalizes the ages of the heads that meet. At node 1 of the line, P0's
  // head has waited through node 0's injection buffer and node 1's input
  // buffer, both served at P0's rate s0; P1's head through node 1's
  // injection buffer, served at s1: (B_inj + B_net) / s0 = B_inj / s1, so
  // s1 / s0 = B_inj / (B_inj + B_net): 1/2 with equal buffers, 2/3 with an
  // injection buffer twice the network's.
  interlock::model::age_config a;
  a.period = 1;
  const interlock::model::results equal = parking_lot<age>(false, a);
  REQUIRE(equal.accepted_per_source.size() == 7);
  CHECK(equal.accepted_per_source[1] / equal.accepted_per_source[0] ==
        Approx(16.0 / 32.0).epsilon(0.05));
  const interlock::model::results deeper = parking_lot<age>(false, a, 32);
  CHECK(deeper.accepted_per_source[1] / deeper.accepted_per_source[0] ==
        Approx(32.0 / 48.0).epsilon(0.05));
  CHECK(equal.max_min_ratio < 6);
}

TEST_CASE("measured channel loads match traffic/loads.hpp at low uniform load", "[model][loads]") {
  const interlock::torus_topology t({4, 4, 4}, {true, true, true});
  const interlock::vc_promotion_routing scheme(t, interlock::all_dimension_orders(3));
  interlock::model::config c;
  c.load = 0.1;
  c.warmup = 500;
  c.measure = 20000;
  const interlock::traffic::uniform_random pattern;
  interlock::model::network<interlock::vc_promotion_routing, rr> net(scheme, c, to(t, pattern),
                                                                     make<rr>());
  net.run();
  const auto expected = interlock::channel_loads(scheme, pattern);
  std::size_t checked = 0;
  for (node_id r = 0; r < t.node_count(); ++r)
    for (std::size_t d = 0; d < 3; ++d)
      for (const int sign : {+1, -1}) {
        const double want = c.load * expected[t.channel({r, static_cast<unsigned>(d), sign, 0})] *
                            static_cast<double>(c.measure);
        const double got = static_cast<double>(net.channel_flits(r, t.port_of(d, sign)));
        // Poisson-like counts: within 5 standard deviations.
        INFO("node " << r << " dimension " << d << " sign " << sign);
        CHECK(std::abs(got - want) < 5 * std::sqrt(want) + 5);
        ++checked;
      }
  CHECK(checked == 384);
}

TEST_CASE("a batch run delivers every packet and measures the time of the last", "[model][batch]") {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.batch = 50;
  c.lengths = {{4, 1}};
  interlock::model::network<interlock::dimension_order_routing, rr> net(
      dor, c, to(t, interlock::traffic::tornado{}), make<rr>());
  const interlock::model::results r = net.run();
  CHECK(r.measured_delivered == 16 * 50);
  CHECK(r.batch_cycles > 0);
  // Tornado on a 4-ring: two hops each, so no faster than one 4-flit packet
  // per 4 cycles per source (the injection port).
  CHECK(r.batch_cycles >= 50 * 4);
  CHECK(r.accepted == Approx(16.0 * 50 * 4 / 16 / static_cast<double>(r.batch_cycles + 1)));
}

TEST_CASE("several endpoints per node keep the invariants and deliver", "[model][endpoints]") {
  const interlock::torus_topology t({4, 3}, {true, false});
  interlock::model::config c = small_config(0.8);
  c.lengths = {{1, 0.5}, {3, 0.5}};
  c.buffer_flits = 6;
  c.endpoints = 3;
  c.response_share = 0.3;
  SECTION("dimension order, round robin") {
    const interlock::dimension_order_routing dor(t);
    interlock::model::network<interlock::dimension_order_routing, rr> net(
        dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
    step_checked(net, 3000);
    CHECK(net.delivered() > 1000);
  }
  SECTION("T3E adaptive, age-epoch arbiter, staging buffers, slower endpoint ports") {
    const interlock::t3e_adaptive_routing adaptive(t);
    c.staging_flits = 4;
    c.endpoint_bandwidth = 0.5;
    interlock::model::network<interlock::t3e_adaptive_routing, age> net(
        adaptive, c, to(t, interlock::traffic::tornado{}), make<age>());
    step_checked(net, 3000);
    CHECK(net.delivered() > 500);
  }
}

TEST_CASE("several endpoints per node inject and eject in parallel, each through its own port",
          "[model][endpoints]") {
  // Every node sends a batch to itself: with one endpoint its injection and
  // ejection ports carry one flit per cycle; with four, four ports share
  // the batch (destination endpoints drawn at random), and every one of
  // them carries packets both ways.
  const interlock::torus_topology t({2}, {false});
  const interlock::dimension_order_routing dor(t);
  std::uint64_t cycles[2] = {0, 0};
  for (const unsigned endpoints : {1u, 4u}) {
    interlock::model::config c;
    c.batch = 200;
    c.endpoints = endpoints;
    interlock::model::network<interlock::dimension_order_routing, rr> net(
        dor, c, [](node_id s, interlock::splitmix64&) { return s; }, make<rr>());
    std::vector<std::uint64_t> in_use(8, 0), out_use(8, 0);
    net.on_send = [&](node_id, std::size_t in, std::size_t out, unsigned, std::uint64_t) {
      ++in_use[in - t.local_port()];
      ++out_use[out - t.local_port()];
    };
    const interlock::model::results r = net.run();
    INFO("endpoints " << endpoints);
    REQUIRE(r.complete);
    REQUIRE(r.measured_delivered == 2 * 200);
    for (unsigned e = 0; e < endpoints; ++e) {
      CHECK(in_use[e] > 2 * 200 / endpoints / 2);
      CHECK(out_use[e] > 2 * 200 / endpoints / 2);
    }
    cycles[endpoints == 1 ? 0 : 1] = r.batch_cycles;
  }
  CHECK(cycles[0] >= 200);
  CHECK(cycles[1] < cycles[0] / 2);
}

TEST_CASE("impossible configurations are refused naming the field", "[model][config]") {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  const auto build = [&](interlock::model::config c) {
    interlock::model::network<interlock::dimension_order_routing, rr> net(
        dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
  };
  interlock::model::config c;
  c.lengths = {{8, 1}};
  c.buffer_flits = 4;
  CHECK_THROWS_WITH(build(c),
                    Catch::Contains("buffer_flits = 4") && Catch::Contains("whole packets"));
  c = {};
  c.vcs = 3;  // dor needs 2 for one class
  CHECK_THROWS_WITH(build(c), Catch::Contains("vcs = 3") && Catch::Contains("multiple of 2"));
  c = {};
  c.load = 1.5;
  CHECK_THROWS_WITH(build(c), Catch::Contains("load = 1.5"));
  c = {};
  c.endpoints = 9;
  CHECK_THROWS_WITH(build(c), Catch::Contains("endpoints = 9") && Catch::Contains("1..8"));
  c = {};
  c.lengths = {{1, 1e308}, {2, 1e308}};  // each finite, their sum not
  CHECK_THROWS_WITH(build(c), Catch::Contains("lengths = shares summing past the largest double"));
  c.lengths = {{1, 1e300}, {2, 1e300}};
  CHECK_NOTHROW(build(c));
  c = {};
  c.buffer_flits = 96;  // 5 ports x 8 VCs x 96 one-flit packets > 2047
  c.vcs = 8;
  CHECK_THROWS_WITH((interlock::model::network<interlock::dimension_order_routing, age>(
                        dor, c, to(t, interlock::traffic::uniform_random{}), make<age>())),
                    Catch::Contains("buffer_flits = 96") && Catch::Contains("2047"));
}

TEST_CASE(
    "zero-load latency is the pipeline: (hops + 1) x (channel + router delay + head cycles) + "
    "flits",
    "[model][timing]") {
  // One packet: the injection channel, the router delay and the head
  // pipeline at its first router, then per hop the channel and the next
  // router's delay and head pipeline, then its flits leave through the
  // ejection port one per cycle.
  const interlock::torus_topology t({8}, {false});
  const interlock::dimension_order_routing dor(t);
  for (const unsigned latency : {1u, 3u})
    for (const unsigned delay : {0u, 2u})
      for (const unsigned head : {0u, 3u})
        for (const unsigned flits : {1u, 5u})
          for (const node_id destination : {node_id{0}, node_id{3}, node_id{7}}) {
            interlock::model::config c;
            c.batch = 1;
            c.lengths = {{flits, 1}};
            c.channel_latency = latency;
            c.router_delay = delay;
            c.head_cycles = head;
            interlock::model::network<interlock::dimension_order_routing, rr> net(
                dor, c,
                [destination](node_id s, interlock::splitmix64&) {
                  return s == 0 ? destination : interlock::no_node;
                },
                make<rr>());
            const interlock::model::results r = net.run();
            INFO("latency " << latency << " delay " << delay << " head " << head << " flits "
                            << flits << " to " << destination);
            CHECK(r.latency_mean == (destination + 1) * (latency + delay + head) + flits);
            // One packet, never queued at its source: every network figure is its latency.
            CHECK(r.network_latency_mean == r.latency_mean);
            CHECK(r.network_latency_max == r.latency_mean);
            CHECK(r.network_latency_sd == 0);
          }
}

TEST_CASE("with a head pipeline a queued packet competes head cycles after the one before it left",
          "[model][timing][pipeline]") {
  // Node 0 sends a batch to node 1 over one VC. Without the pipeline the
  // local input buffer sends a packet every `flits` cycles; with it, each
  // new head waits head_cycles once the one before it has left: one packet
  // every flits + head_cycles cycles (BookSim2's iq_router re-runs routing
  // and VC allocation at each VC head so).
  const interlock::torus_topology t({2}, {false});
  const interlock::dimension_order_routing dor(t);
  for (const unsigned head : {0u, 1u, 2u, 4u})
    for (const unsigned flits : {1u, 3u}) {
      interlock::model::config c;
      c.batch = 30;
      c.lengths = {{flits, 1}};
      c.buffer_flits = 12;
      c.head_cycles = head;
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
      const interlock::model::results r = net.run();
      INFO("head " << head << " flits " << flits);
      REQUIRE(r.complete);
      REQUIRE(sends.size() == 30);
      for (std::size_t k = 1; k < sends.size(); ++k) CHECK(sends[k] - sends[k - 1] == flits + head);
    }
}

TEST_CASE("credits come back when the tail leaves: one flow through a one-packet buffer",
          "[model][timing]") {
  // Node 0 sends 4-flit packets to node 1 through a 4-flit buffer. A packet
  // sent at t reaches node 1's buffer at t + 2, leaves it (ejection) from
  // t + 2 to t + 5, and the credits reach node 0 at t + 6: one packet per 6
  // cycles.
  const interlock::torus_topology t({2}, {false});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.batch = 100;
  c.lengths = {{4, 1}};
  c.buffer_flits = 4;
  interlock::model::network<interlock::dimension_order_routing, rr> net(
      dor, c,
      [](node_id s, interlock::splitmix64&) { return s == 0 ? node_id{1} : interlock::no_node; },
      make<rr>());
  std::vector<std::uint64_t> sends;
  net.on_send = [&](node_id r, std::size_t, std::size_t out, unsigned, std::uint64_t at) {
    if (r == 0 && out != t.local_port()) sends.push_back(at);
  };
  net.run();
  REQUIRE(sends.size() == 100);
  for (std::size_t i = 1; i < sends.size(); ++i) CHECK(sends[i] - sends[i - 1] == 6);
}

TEST_CASE("every input port and output channel carries at most one flit per cycle",
          "[model][invariants]") {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::vc_promotion_routing scheme(t, interlock::all_dimension_orders(2));
  interlock::model::config c = small_config(0.9);
  c.lengths = {{1, 1}, {3, 1}, {6, 1}};
  c.vcs = 2 * scheme.vcs_per_class();
  c.buffer_flits = 12;
  interlock::model::network<interlock::vc_promotion_routing, rr> net(
      scheme, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
  std::map<std::pair<node_id, std::size_t>, std::uint64_t> input_free, output_free;
  std::uint64_t overlaps = 0, sends = 0;
  net.on_send = [&](node_id r, std::size_t in, std::size_t out, unsigned flits, std::uint64_t at) {
    ++sends;
    if (input_free[{r, in}] > at) ++overlaps;
    if (output_free[{r, out}] > at) ++overlaps;
    input_free[{r, in}] = at + flits;
    output_free[{r, out}] = at + flits;
  };
  net.run();
  CHECK(sends > 20000);
  CHECK(overlaps == 0);
}

TEST_CASE("T3E adaptive routing carries more than its escape network alone past saturation",
          "[model][adaptive]") {
  // Bit complement on a 4x4 torus: every packet crosses the bisection; the
  // direction-order escape routes leave channels idle that adaptive hops use.
  const interlock::torus_topology t({4, 4}, {true, true});
  interlock::model::config c;
  c.load = 1;
  c.warmup = 1000;
  c.measure = 5000;
  c.drain = 0;
  c.lengths = {{4, 1}};
  c.buffer_flits = 8;
  const interlock::direction_order_routing escape(t);
  const interlock::t3e_adaptive_routing adaptive(t);
  interlock::model::network<interlock::direction_order_routing, rr> a(
      escape, c, to(t, interlock::traffic::bit_complement{}), make<rr>());
  interlock::model::network<interlock::t3e_adaptive_routing, rr> b(
      adaptive, c, to(t, interlock::traffic::bit_complement{}), make<rr>());
  const double oblivious = a.run().accepted, adapted = b.run().accepted;
  CHECK(adapted > 1.2 * oblivious);
}

namespace {
// The age arbiter (its Table 4 counters count the cycles slept) and an
// adaptive scheme, past saturation so that many heads wait for credits:
// the run with sleeping routers equals the run evaluating every router
// every cycle, trace and counters.
void sleeping_equals_eager(unsigned staging_flits, unsigned head_cycles = 0,
                           unsigned endpoints = 1) {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::t3e_adaptive_routing scheme(t);
  const auto run = [&](bool every_cycle) {
    interlock::model::config c = small_config(0.8);
    c.lengths = {{1, 1}, {5, 1}};
    c.buffer_flits = 10;
    c.staging_flits = staging_flits;
    c.head_cycles = head_cycles;
    c.endpoints = endpoints;
    c.response_share = 0.5;
    c.evaluate_every_cycle = every_cycle;
    interlock::model::network<interlock::t3e_adaptive_routing, age> net(
        scheme, c, to(t, interlock::traffic::uniform_random{}), make<age>());
    std::uint64_t trace = 0;
    trace_sends(net, trace);
    interlock::model::results res = net.run();
    res.wall_s = 0;
    return std::make_tuple(trace, interlock::model::csv_row(res), res.stalled_cycles,
                           res.vc_blocked, res.age_histogram);
  };
  const auto lazy = run(false), eager = run(true);
  CHECK(std::get<0>(lazy) == std::get<0>(eager));
  CHECK(std::get<1>(lazy) == std::get<1>(eager));
  CHECK(std::get<2>(lazy) == std::get<2>(eager));
  CHECK(std::get<3>(lazy) == std::get<3>(eager));
  CHECK(std::get<4>(lazy) == std::get<4>(eager));
  CHECK(std::get<2>(eager) > 0);  // there were stalls to count
}
}  // namespace

TEST_CASE("routers that sleep while blocked give the run of routers evaluated every cycle",
          "[model][activity]") {
  sleeping_equals_eager(0);
}

TEST_CASE("with several endpoints, sleeping routers give the run of routers evaluated every cycle",
          "[model][activity][endpoints]") {
  sleeping_equals_eager(0, 0, 3);
  sleeping_equals_eager(5, 0, 2);
}

TEST_CASE("with a head pipeline, sleeping routers give the run of routers evaluated every cycle",
          "[model][activity][pipeline]") {
  sleeping_equals_eager(0, 2);
  sleeping_equals_eager(5, 3);
}

TEST_CASE("every packet is delivered at its destination", "[model][order]") {
  // Transpose on a 4x4 torus under VC promotion (random orders): each
  // source's destination is known, and so is where each delivery happens.
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::vc_promotion_routing scheme(t, interlock::all_dimension_orders(2));
  const interlock::traffic::transpose pattern;
  interlock::model::config c = small_config(0.6);
  c.lengths = {{1, 1}, {3, 1}};
  interlock::model::network<interlock::vc_promotion_routing, rr> net(scheme, c, to(t, pattern),
                                                                     make<rr>());
  std::uint64_t deliveries = 0, misplaced = 0;
  net.on_delivery = [&](node_id s, node_id at, unsigned, std::uint64_t, std::uint64_t) {
    ++deliveries;
    if (at != pattern.map(t, s)) ++misplaced;
  };
  net.run();
  CHECK(deliveries > 5000);
  CHECK(misplaced == 0);
}

// ---- measurement ----------------------------------------------------------

TEST_CASE("a network idle for longer than the stall limit is not deadlocked",
          "[model][measurement]") {
  // Two nodes, a packet every ~1000 cycles: long stretches with nothing in
  // flight, each longer than the stall limit.
  const interlock::torus_topology t({2}, {true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.load = 0.001;
  c.stall_limit = 50;
  c.warmup = 0;
  c.measure = 20000;
  interlock::model::network<interlock::dimension_order_routing, rr> net(
      dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
  const interlock::model::results r = net.run();
  CHECK_FALSE(r.deadlock.deadlocked);
  CHECK(r.measured_packets > 10);
  CHECK(r.measured_delivered == r.measured_packets);
}

TEST_CASE("packets created in the window and still in source queues are counted",
          "[model][measurement]") {
  // Past saturation with no drain: the source queues grow. Every packet
  // created in the window is measured, wherever it is at the end.
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.load = 1.0;
  c.lengths = {{4, 1}};
  c.warmup = 500;
  c.measure = 3000;
  c.drain = 0;
  interlock::model::network<interlock::dimension_order_routing, rr> net(
      dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
  const interlock::model::results r = net.run();
  // Bernoulli creations, p = 1/4 per node-cycle: 12,000 expected, sd 95.
  CHECK(std::abs(static_cast<double>(r.measured_packets) - 12000.0) < 5 * 95.0);
  CHECK(r.measured_in_source_queues > 1000);
  CHECK(r.measured_packets ==
        r.measured_delivered + r.measured_in_source_queues + r.measured_in_network);
  CHECK_FALSE(r.complete);
}

TEST_CASE("a batch cut off by the cycle limit says so", "[model][measurement]") {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.batch = 200;
  c.lengths = {{4, 1}};
  c.measure = 100;
  c.drain = 0;
  interlock::model::network<interlock::dimension_order_routing, rr> cut(
      dor, c, to(t, interlock::traffic::tornado{}), make<rr>());
  const interlock::model::results r = cut.run();
  CHECK_FALSE(r.complete);
  CHECK(r.measured_packets == 16 * 200);
  CHECK(r.measured_delivered < r.measured_packets);
  CHECK(r.cycles == 100);
  c.drain = 100000;
  interlock::model::network<interlock::dimension_order_routing, rr> whole(
      dor, c, to(t, interlock::traffic::tornado{}), make<rr>());
  CHECK(whole.run().complete);
}

TEST_CASE("the SeaStar counters count the measured window only", "[model][measurement]") {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c = small_config(0.7);
  c.warmup = 1000;
  c.measure = 2000;
  c.lengths = {{3, 1}};
  interlock::model::age_config a;
  a.period = 4;
  interlock::model::network<interlock::dimension_order_routing, age> net(
      dor, c, to(t, interlock::traffic::uniform_random{}), make<age>(), a);
  std::uint64_t in_window = 0, all = 0;
  net.on_send = [&](node_id, std::size_t, std::size_t, unsigned, std::uint64_t at) {
    ++all;
    if (at >= 1000 && at < 3000) ++in_window;
  };
  const interlock::model::results r = net.run();
  std::uint64_t histogram = 0;
  for (const auto x : r.age_histogram) histogram += x;
  CHECK(histogram == in_window);
  CHECK(all > in_window + 1000);  // warm-up and drain departures, not counted
  CHECK(r.stalled_cycles > 0);
  std::uint64_t by_direction = r.stalled_local;
  for (const auto& d : r.stalled_by_direction) by_direction += d[0] + d[1];
  CHECK(by_direction == r.stalled_cycles);
  CHECK(r.occupancy > 0);
  CHECK(r.epoch_switches > 0);  // period 4: a switch every 1,024 cycles per router
}

TEST_CASE("per-source latency and completion time", "[model][measurement]") {
  // A batch: every source sends the same number of packets, so the mean of
  // the per-source means is the mean.
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.batch = 40;
  c.lengths = {{2, 1}};
  interlock::model::network<interlock::dimension_order_routing, rr> net(
      dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>());
  const interlock::model::results r = net.run();
  REQUIRE(r.latency_per_source.size() == 16);
  REQUIRE(r.completion_per_source.size() == 16);
  double sum = 0;
  for (const double x : r.latency_per_source) sum += x;
  CHECK(sum / 16 == Approx(r.latency_mean).epsilon(1e-9));
  CHECK(r.completion_max == r.batch_cycles);
  CHECK(static_cast<double>(r.completion_min) <= r.completion_mean);
  CHECK(r.latency_sd > 0);
  CHECK(r.source_latency_max_min >= 1);
  // Network latency leaves out the source queue: no larger than latency, and spread too.
  CHECK(r.network_latency_sd > 0);
  CHECK(r.network_latency_max >= r.network_latency_p99);
  CHECK(r.network_latency_p99 >= r.network_latency_mean);
  CHECK(r.network_latency_max <= r.latency_max);
  CHECK(r.network_latency_sd < r.latency_sd);
  for (std::size_t i = 0; i < 16; ++i) {
    CHECK(r.network_latency_per_source[i] <= r.latency_per_source[i]);
    CHECK(r.latency_sd_per_source[i] >= 0);
  }
}

TEST_CASE("a network with nothing in flight skips to the next creation", "[model][activity]") {
  SECTION("2^40 idle cycles") {
    const interlock::torus_topology t({4, 4}, {true, true});
    const interlock::dimension_order_routing dor(t);
    interlock::model::config c;
    c.load = 0;
    c.measure = std::uint64_t{1} << 40;
    interlock::model::network<interlock::dimension_order_routing, age> net(
        dor, c, to(t, interlock::traffic::uniform_random{}), make<age>());
    const interlock::model::results r = net.run();
    CHECK(r.cycles >= (std::uint64_t{1} << 40));
    CHECK(r.stepped_cycles < 10);
  }
  SECTION("a sparse age run equals the run stepped every cycle, clocks and counters included") {
    const interlock::torus_topology t({4, 4}, {true, true});
    const interlock::t3e_adaptive_routing scheme(t);
    const auto run = [&](bool every_cycle) {
      interlock::model::config c = small_config(0.003);
      c.measure = 30000;
      c.lengths = {{1, 1}, {5, 1}};
      c.response_share = 0.5;
      c.evaluate_every_cycle = every_cycle;
      interlock::model::age_config a;
      a.period = 3;
      interlock::model::network<interlock::t3e_adaptive_routing, age> net(
          scheme, c, to(t, interlock::traffic::uniform_random{}), make<age>(), a);
      std::uint64_t trace = 0;
      trace_sends(net, trace);
      interlock::model::results res = net.run();
      res.wall_s = 0;
      return std::make_tuple(trace, interlock::model::csv_row(res), res.age_histogram,
                             res.epoch_switches, res.stepped_cycles);
    };
    const auto skipping = run(false), stepped = run(true);
    CHECK(std::get<0>(skipping) == std::get<0>(stepped));
    CHECK(std::get<1>(skipping) == std::get<1>(stepped));
    CHECK(std::get<2>(skipping) == std::get<2>(stepped));
    CHECK(std::get<3>(skipping) == std::get<3>(stepped));
    CHECK(std::get<3>(stepped) > 0);
    CHECK(std::get<4>(skipping) < std::get<4>(stepped) / 2);
  }
}

TEST_CASE("a slower endpoint port limits injection and ejection", "[model][endpoints]") {
  const interlock::torus_topology t({8}, {false});
  const interlock::dimension_order_routing dor(t);
  SECTION("zero-load latency: the injection and ejection at the endpoint's rate") {
    for (const double bandwidth : {1.0, 0.5, 0.4})
      for (const unsigned flits : {1u, 4u}) {
        interlock::model::config c;
        c.batch = 1;
        c.lengths = {{flits, 1}};
        c.endpoint_bandwidth = bandwidth;
        interlock::model::network<interlock::dimension_order_routing, rr> net(
            dor, c,
            [](node_id s, interlock::splitmix64&) {
              return s == 0 ? node_id{3} : interlock::no_node;
            },
            make<rr>());
        const interlock::model::results r = net.run();
        const auto endpoint = static_cast<std::uint64_t>(std::ceil(flits / bandwidth));
        // Injection ends at ceil(flits / F); the head is forwarded so that it
        // never overtakes the tail; 3 hops of channel and router delay (1 + 1
        // each) after the first router; ejection takes ceil(flits / F) again.
        INFO("bandwidth " << bandwidth << " flits " << flits);
        CHECK(r.latency_mean == static_cast<double>(endpoint - flits + 4 * 2 + endpoint));
      }
  }
  SECTION("a saturated node injects and ejects at the endpoint's rate") {
    interlock::model::config c;
    c.load = 1.0;
    c.warmup = 500;
    c.measure = 5000;
    c.drain = 0;
    c.endpoint_bandwidth = 0.4;
    c.lengths = {{1, 0.5}, {3, 0.5}};
    const interlock::traffic::neighbor pattern{1};
    interlock::model::network<interlock::dimension_order_routing, rr> net(dor, c, to(t, pattern),
                                                                          make<rr>());
    std::string problem;
    net.start();
    while (!net.finished() && problem.empty()) {
      net.step();
      problem = net.check_invariants();
    }
    REQUIRE(problem.empty());
    net.start();
  }
  SECTION("the ejection port of a hot spot delivers at the endpoint's rate") {
    interlock::model::config c;
    c.load = 1.0;
    c.warmup = 500;
    c.measure = 5000;
    c.drain = 0;
    c.endpoint_bandwidth = 0.4;
    interlock::model::network<interlock::dimension_order_routing, rr> net(
        dor, c, to(t, interlock::traffic::all_to_one{7}), make<rr>());
    const interlock::model::results r = net.run();
    double total = 0;
    for (const double x : r.accepted_per_source) total += x;
    CHECK(total == Approx(0.4).epsilon(0.01));
  }
  SECTION("one source injects at the endpoint's rate") {
    interlock::model::config c;
    c.batch = 200;
    c.lengths = {{3, 1}};
    c.endpoint_bandwidth = 0.4;
    interlock::model::network<interlock::dimension_order_routing, rr> net(
        dor, c,
        [](node_id s, interlock::splitmix64&) { return s == 0 ? node_id{5} : interlock::no_node; },
        make<rr>());
    std::vector<std::uint64_t> sends;
    net.on_send = [&](node_id r, std::size_t, std::size_t, unsigned, std::uint64_t at) {
      if (r == 0) sends.push_back(at);
    };
    net.run();
    REQUIRE(sends.size() == 200);
    // 3 flits at 0.4 per cycle: 7.5 cycles a packet, so 1,492.5 cycles for 199 gaps.
    CHECK(static_cast<double>(sends.back() - sends.front()) == Approx(1492.5).margin(1));
  }
}

// ---- output staging buffers ---------------------------------------------------

TEST_CASE("output staging buffers keep the invariants and deliver", "[model][staging]") {
  // The SeaStar's shape: per output, a staging buffer per (input port, VC);
  // the output policy (here age-based, as the SeaStar's) chooses among all
  // of their heads.
  const interlock::torus_topology t({4, 3}, {true, false});
  interlock::model::config c = small_config(0.7);
  c.lengths = {{1, 0.5}, {3, 0.3}, {5, 0.2}};
  c.buffer_flits = 10;
  c.staging_flits = 6;
  c.response_share = 0.3;
  c.endpoint_bandwidth = 0.6;
  SECTION("dimension order, age-based") {
    const interlock::dimension_order_routing dor(t);
    interlock::model::network<interlock::dimension_order_routing, age> net(
        dor, c, to(t, interlock::traffic::uniform_random{}), make<age>());
    step_checked(net, 3000);
    CHECK(net.delivered() > 1000);
  }
  SECTION("T3E adaptive, round robin, VC sets") {
    const interlock::t3e_adaptive_routing adaptive(t);
    c.vcs = 2 * adaptive.vcs_per_channel();
    interlock::model::network<interlock::t3e_adaptive_routing, rr> net(
        adaptive, c, to(t, interlock::traffic::tornado{}), make<rr>());
    step_checked(net, 3000);
    CHECK(net.delivered() > 500);
  }
}

TEST_CASE("a staging buffer adds a cycle per router at zero load", "[model][staging]") {
  // The head is staged in the cycle it would have left, and leaves its
  // staging buffer the next: (hops + 1) x (channel + router delay + 1) + flits.
  const interlock::torus_topology t({8}, {false});
  const interlock::dimension_order_routing dor(t);
  for (const unsigned flits : {1u, 4u})
    for (const node_id destination : {node_id{0}, node_id{5}}) {
      interlock::model::config c;
      c.batch = 1;
      c.lengths = {{flits, 1}};
      c.staging_flits = 4;
      interlock::model::network<interlock::dimension_order_routing, rr> net(
          dor, c,
          [destination](node_id s, interlock::splitmix64&) {
            return s == 0 ? destination : interlock::no_node;
          },
          make<rr>());
      INFO("flits " << flits << " to " << destination);
      CHECK(net.run().latency_mean == (destination + 1) * 3 + flits);
    }
}

TEST_CASE("no deadlock at saturation with staging buffers", "[model][staging][deadlock]") {
  const interlock::torus_topology t({5, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.load = 1.0;
  c.warmup = 0;
  c.measure = 30000;
  c.drain = 0;
  c.lengths = {{1, 1}, {4, 1}};
  c.buffer_flits = 4;
  c.staging_flits = 4;
  c.response_share = 0.5;
  interlock::model::network<interlock::dimension_order_routing, age> net(
      dor, c, to(t, interlock::traffic::uniform_random{}), make<age>());
  const interlock::model::results r = net.run();
  CHECK_FALSE(r.deadlock.deadlocked);
  CHECK(r.accepted > 0.1);
}

TEST_CASE("staging buffers need the input-first allocator and at most 64 heads per output",
          "[model][staging][config]") {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.staging_flits = 4;
  CHECK_THROWS_WITH(
      (interlock::model::network<interlock::dimension_order_routing, rr,
                                 interlock::model::separable_output_first>(
          dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>())),
      Catch::Contains("staging_flits = 4") && Catch::Contains("separable_input_first"));
  c.vcs = 16;  // 5 ports x 16 VCs = 80 heads
  CHECK_THROWS_WITH((interlock::model::network<interlock::dimension_order_routing, rr>(
                        dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>())),
                    Catch::Contains("staging_flits") && Catch::Contains("64"));
  c.vcs = 0;
  c.staging_flits = 2;
  c.lengths = {{3, 1}};
  CHECK_THROWS_WITH((interlock::model::network<interlock::dimension_order_routing, rr>(
                        dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>())),
                    Catch::Contains("staging_flits = 2") && Catch::Contains("longest packet"));
}

TEST_CASE("with staging buffers, sleeping routers give the run of routers evaluated every cycle",
          "[model][staging][activity]") {
  sleeping_equals_eager(5);
}
