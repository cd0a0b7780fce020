// SPDX-License-Identifier: BSL-1.0
// The reference model composed with every switch allocator, input-stage
// policy and output policy interlock has: each composition keeps the model's
// invariants (conservation, credit loops, one flit per cycle per port, no
// deadlock for an acyclic scheme) and delivers its traffic.
#include <catch2/catch.hpp>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weights.hpp>
#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/model/network.hpp>
#include <interlock/qos/dtable.hpp>
#include <interlock/qos/ib_vl_arbiter.hpp>
#include <interlock/qos/sbt.hpp>
#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace model = interlock::model;
using interlock::node_id;
using rr = interlock::round_robin_arbiter<64>;
using age = interlock::age_epoch_arbiter<64>;
using inverse = interlock::inverse_weighted_arbiter<64, 1, 8>;
using priority = interlock::priority_arbiter<64, 2>;

// A policy and how to make one for a router's output (or input) port.
template <class P>
struct maker {
  static P make(node_id, std::size_t) { return P{}; }
};
template <>
struct maker<age> {
  static age make(node_id, std::size_t) { return age(age::all_age); }
};
template <>
struct maker<inverse> {
  static inverse make(node_id, std::size_t port) {
    interlock::load_matrix loads(64, std::vector<double>(1, 0.0));
    for (std::size_t i = 0; i < 64; ++i) loads[i][0] = 1.0 + static_cast<double>((i + port) % 4);
    return inverse(interlock::weights_from_loads(loads, 8));
  }
};
template <>
struct maker<interlock::qos::sbt_scheduler> {
  // Queues are the output's candidates: the router's 5 ports, in 3 SLs.
  static interlock::qos::sbt_scheduler make(node_id, std::size_t) {
    return interlock::qos::sbt_scheduler({50, 30, 20}, {0, 0, 1, 1, 2});
  }
};
template <>
struct maker<interlock::qos::dtable_scheduler> {
  static interlock::qos::dtable_scheduler make(node_id, std::size_t) {
    return interlock::qos::dtable_scheduler({{0, 8}, {1, 4}, {2, 4}, {0, 8}, {1, 6}},
                                            {0, 0, 1, 1, 2}, {4, 4, 4});
  }
};
template <>
struct maker<interlock::qos::ib_vl_arbiter> {
  static interlock::qos::ib_vl_arbiter make(node_id, std::size_t) {
    interlock::qos::ib_vl_arbitration_config c;
    for (std::uint8_t vl = 0; vl < 5; ++vl) {
      if (vl % 2 == 0) c.high.push_back({vl, static_cast<std::uint8_t>(2 + vl)});
      c.low.push_back({vl, static_cast<std::uint8_t>(1 + vl % 3)});
    }
    c.limit_of_high_priority = 4;
    return interlock::qos::ib_vl_arbiter(c);
  }
};

model::config busy_config() {
  model::config c;
  c.load = 0.8;  // past saturation for uniform traffic on a 4x4 torus
  c.warmup = 200;
  c.measure = 1500;
  c.drain = 3000;
  c.lengths = {{1, 0.5}, {4, 0.5}};
  c.buffer_flits = 8;
  c.response_share = 0.3;
  c.vcs = 8;
  return c;
}

// Runs a network, checking every cycle conservation and the credit loops,
// and every send the ports' one flit per cycle.
template <class Scheme, class Policy, class Allocator, class InputPolicy>
void check_composition(const Scheme& scheme, const model::config& c,
                       const Allocator& allocator = {}) {
  const auto& t = scheme.topology();
  const interlock::traffic::uniform_random uniform;
  model::network<Scheme, Policy, Allocator, InputPolicy> net(
      scheme, c, [&](node_id s, interlock::splitmix64& g) { return uniform.destination(t, s, g); },
      maker<Policy>::make, model::age_config{}, allocator, maker<InputPolicy>::make);
  std::map<std::pair<node_id, std::size_t>, std::uint64_t> input_free, output_free;
  std::uint64_t overlaps = 0;
  net.on_send = [&](node_id r, std::size_t in, std::size_t out, unsigned flits, std::uint64_t at) {
    if (input_free[{r, in}] > at) ++overlaps;
    if (output_free[{r, out}] > at) ++overlaps;
    input_free[{r, in}] = at + flits;
    output_free[{r, out}] = at + flits;
  };
  net.start();
  std::string problem;
  while (!net.finished() && problem.empty()) {
    net.step();
    problem = net.check_invariants();
  }
  INFO("cycle " << net.now() << ": " << problem);
  REQUIRE(problem.empty());
  CHECK(overlaps == 0);
  CHECK_FALSE(net.deadlock().deadlocked);
  CHECK(net.delivered() > 3000);
}

}  // namespace

TEMPLATE_TEST_CASE("every switch allocator keeps the model's invariants", "[model][allocators]",
                   model::separable_input_first, model::separable_output_first, model::islip<8>,
                   model::wavefront<8>) {
  const interlock::torus_topology t({4, 4}, {true, true});
  SECTION("dimension order") {
    const interlock::dimension_order_routing dor(t);
    check_composition<interlock::dimension_order_routing, rr, TestType, rr>(dor, busy_config());
  }
  SECTION("T3E adaptive") {
    const interlock::t3e_adaptive_routing adaptive(t);
    model::config c = busy_config();
    c.vcs = 0;
    check_composition<interlock::t3e_adaptive_routing, rr, TestType, rr>(adaptive, c);
  }
}

TEST_CASE("iSLIP with several iterations keeps the invariants", "[model][allocators]") {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  check_composition<interlock::dimension_order_routing, rr, model::islip<8>, rr>(
      dor, busy_config(), model::islip<8>{3});
}

TEMPLATE_TEST_CASE("every input-stage policy keeps the model's invariants", "[model][input]", rr,
                   age, inverse, priority) {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  check_composition<interlock::dimension_order_routing, rr, model::separable_input_first, TestType>(
      dor, busy_config());
  check_composition<interlock::dimension_order_routing, age, model::separable_output_first,
                    TestType>(dor, busy_config());
}

TEMPLATE_TEST_CASE("every output policy with a request_builder drives the model's outputs",
                   "[model][output]", rr, age, inverse, priority, interlock::qos::sbt_scheduler,
                   interlock::qos::dtable_scheduler, interlock::qos::ib_vl_arbiter) {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  check_composition<interlock::dimension_order_routing, TestType, model::separable_input_first, rr>(
      dor, busy_config());
}

TEST_CASE("a scheduler with fewer queues than the router's ports is refused", "[model][output]") {
  const interlock::torus_topology t({4, 4, 4}, {true, true, true});  // 7 ports
  const interlock::dimension_order_routing dor(t);
  using sbt = interlock::qos::sbt_scheduler;
  const auto build = [&] {
    model::network<interlock::dimension_order_routing, sbt> net(
        dor, model::config{}, [](node_id, interlock::splitmix64&) { return interlock::no_node; },
        maker<sbt>::make);
  };
  CHECK_THROWS_WITH(build(),
                    Catch::Contains("output policy = 5 queues") && Catch::Contains("at least 7"));
}

TEST_CASE("a matrix allocator narrower than the router is refused", "[model][allocators]") {
  const interlock::torus_topology t({4, 4, 4}, {true, true, true});  // 7 ports
  const interlock::dimension_order_routing dor(t);
  const auto build = [&] {
    model::network<interlock::dimension_order_routing, rr, model::wavefront<4>> net(
        dor, model::config{}, [](node_id, interlock::splitmix64&) { return interlock::no_node; },
        maker<rr>::make);
  };
  CHECK_THROWS_WITH(build(), Catch::Contains("allocator ports = 7"));
}

TEST_CASE("the allocators differ where they should: saturation throughput, 4x4 torus",
          "[model][allocators]") {
  // One VC per input port and 1-flit packets: each cycle is a bipartite
  // matching of input ports to output ports. A maximal matching (wavefront,
  // iSLIP with enough iterations) carries at least what one iteration of
  // separable allocation does.
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  const interlock::traffic::uniform_random uniform;
  const auto run = [&](auto allocator) {
    using A = decltype(allocator);
    model::config c;
    c.load = 1.0;
    c.warmup = 1000;
    c.measure = 5000;
    c.drain = 0;
    c.vcs = 8;
    c.buffer_flits = 4;
    model::network<interlock::dimension_order_routing, rr, A> net(
        dor, c, [&](node_id s, interlock::splitmix64& g) { return uniform.destination(t, s, g); },
        maker<rr>::make, model::age_config{}, allocator);
    return net.run().accepted;
  };
  const double input_first = run(model::separable_input_first{});
  const double output_first = run(model::separable_output_first{});
  const double islip1 = run(model::islip<8>{1});
  const double islip4 = run(model::islip<8>{4});
  const double wave = run(model::wavefront<8>{});
  INFO("input first " << input_first << ", output first " << output_first << ", iSLIP-1 " << islip1
                      << ", iSLIP-4 " << islip4 << ", wavefront " << wave);
  CHECK(wave >= input_first * 0.98);
  CHECK(islip4 >= islip1 * 0.98);
  CHECK(wave > 0.3);
  CHECK(output_first > 0.3);
}

namespace {
// An output policy that grants the lowest requester and counts the pattern
// labels its builder sees.
struct label_spy {
  using request_type = std::uint64_t;
  static inline std::map<unsigned, std::uint64_t> seen;
  interlock::grant arbitrate(std::uint64_t r) const {
    return r == 0 ? interlock::grant() : interlock::grant(interlock::bits::lowest_index(r));
  }
  void commit(interlock::grant, std::uint64_t) {}
  interlock::grant grant(std::uint64_t r) { return arbitrate(r); }
};
}  // namespace

template <>
class interlock::request_builder<label_spy> {
 public:
  std::uint64_t operator()(const interlock::candidate_view& v) const {
    for (std::uint64_t x = v.requests; x != 0; x &= x - 1)
      ++label_spy::seen[v.pattern.at(interlock::bits::lowest_index(x), 0)];
    return v.requests;
  }
};

TEST_CASE("a labelled traffic source's pattern labels reach the output policies",
          "[model][output]") {
  // Three packets in ten from a second pattern (label 1): tornado, the rest
  // uniform; the outputs see both labels in about that ratio.
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  const interlock::traffic::uniform_random uniform;
  const interlock::traffic::tornado tornado;
  model::config c;
  c.load = 0.3;
  c.warmup = 200;
  c.measure = 3000;
  label_spy::seen.clear();
  model::network<interlock::dimension_order_routing, label_spy> net(
      dor, c,
      [&](node_id s, interlock::splitmix64& g) {
        if (interlock::uniform_unit(g) < 0.3)
          return model::labelled_destination{tornado.destination(t, s, g), 1};
        return model::labelled_destination{uniform.destination(t, s, g), 0};
      },
      [](node_id, std::size_t) { return label_spy{}; });
  net.run();
  const double zero = static_cast<double>(label_spy::seen[0]);
  const double one = static_cast<double>(label_spy::seen[1]);
  CHECK(label_spy::seen.size() == 2);
  CHECK(one / (zero + one) > 0.2);
  CHECK(one / (zero + one) < 0.45);
}
