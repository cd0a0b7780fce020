// SPDX-License-Identifier: BSL-1.0
// The separable allocator chosen at run time (model::separable_allocator):
// input first and output first as their compile-time tags, bit for bit;
// output first in several rounds (iSLIP's iterations over the ports' own
// policies), which match more and commit only the first round's matches;
// and the configurations it refuses.
#include <catch2/catch.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include <interlock/model/network.hpp>
#include "support/interlock_test.hpp"
#include "support/network_makers.hpp"

namespace {

using interlock::node_id;
using interlock_test::make;
using interlock_test::to;
using rr = interlock::round_robin_arbiter<64>;

}  // namespace

namespace {
// A loaded 4x4 torus under allocator `a`: every send and the results' row.
template <class Allocator>
std::pair<std::uint64_t, std::string> allocated(const Allocator& a, bool every_cycle = false) {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::t3e_adaptive_routing scheme(t);
  interlock::model::config c;
  c.load = 0.9;
  c.lengths = {{1, 1}, {3, 1}};
  c.buffer_flits = 6;
  c.warmup = 200;
  c.measure = 2000;
  c.evaluate_every_cycle = every_cycle;
  interlock::model::network<interlock::t3e_adaptive_routing, rr, Allocator> net(
      scheme, c, to(t, interlock::traffic::uniform_random{}), make<rr>(), {}, a);
  std::uint64_t trace = 0;
  net.on_send = [&trace](node_id r, std::size_t in, std::size_t out, unsigned f, std::uint64_t at) {
    trace = trace * 1000003 + r * 131 + in * 31 + out * 7 + f + at;
  };
  interlock::model::results res = net.run();
  res.wall_s = 0;
  return {trace, interlock::model::csv_row(res)};
}
}  // namespace

TEST_CASE("the allocator chosen at run time is the allocator named at compile time, bit for bit",
          "[model][allocators][router_readings]") {
  using interlock::model::separable_allocator;
  CHECK(allocated(separable_allocator{false, 1}) ==
        allocated(interlock::model::separable_input_first{}));
  CHECK(allocated(separable_allocator{true, 1}) ==
        allocated(interlock::model::separable_output_first{}));
}

TEST_CASE("output first in several rounds matches more, and sleeps as it evaluates",
          "[model][allocators][router_readings]") {
  using interlock::model::separable_allocator;
  const auto one = allocated(separable_allocator{true, 1});
  const auto four = allocated(separable_allocator{true, 4});
  CHECK(four.first != one.first);
  for (const std::size_t rounds : {2u, 4u}) {
    INFO("rounds " << rounds);
    CHECK(allocated(separable_allocator{true, rounds}) ==
          allocated(separable_allocator{true, rounds}, true));
  }
  // iSLIP's point: later rounds fill outputs the first left idle, so past
  // saturation the network carries more.
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::t3e_adaptive_routing scheme(t);
  const auto throughput = [&](std::size_t rounds) {
    interlock::model::config c;
    c.load = 1.0;
    c.buffer_flits = 4;
    c.warmup = 1000;
    c.measure = interlock_test::sized(10000u, 4000u);
    c.drain = 0;
    interlock::model::network<interlock::t3e_adaptive_routing, rr, separable_allocator> net(
        scheme, c, to(t, interlock::traffic::uniform_random{}), make<rr>(), {},
        separable_allocator{true, rounds});
    return net.run().accepted;
  };
  CHECK(throughput(4) > throughput(1));
}

namespace {
// Round robin that counts its commits (into *commits).
struct counting_rr : interlock::round_robin_arbiter<64> {
  std::size_t* commits = nullptr;
  void commit(interlock::grant g, std::uint64_t requests = 0) {
    if (g) ++*commits;
    interlock::round_robin_arbiter<64>::commit(g, requests);
  }
};
}  // namespace

template <>
class interlock::request_builder<counting_rr>
    : public interlock::request_builder<interlock::round_robin_arbiter<64>> {
 public:
  request_builder() = default;
  explicit request_builder(const counting_rr&) noexcept {}
};

TEST_CASE("output first in several rounds commits only the first round's matches, as iSLIP",
          "[model][allocators][router_readings]") {
  // Every packet sent was matched in some round; only first-round matches
  // move the output's and the input's round robin. With one round every
  // send commits both; with four, past saturation, later rounds match
  // more, committing neither.
  using interlock::model::separable_allocator;
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::t3e_adaptive_routing scheme(t);
  for (const std::size_t rounds : {1u, 4u}) {
    std::size_t outputs = 0, inputs = 0, sends = 0;
    interlock::model::config c;
    c.load = 1.0;
    c.buffer_flits = 4;
    c.warmup = 200;
    c.measure = 3000;
    c.drain = 0;
    interlock::model::network<interlock::t3e_adaptive_routing, counting_rr, separable_allocator,
                              counting_rr>
        net(
            scheme, c, to(t, interlock::traffic::uniform_random{}),
            [&](node_id, std::size_t) {
              counting_rr p;
              p.commits = &outputs;
              return p;
            },
            {}, separable_allocator{true, rounds},
            [&](node_id, std::size_t) {
              counting_rr p;
              p.commits = &inputs;
              return p;
            });
    net.on_send = [&](node_id, std::size_t, std::size_t, unsigned, std::uint64_t) { ++sends; };
    net.run();
    INFO("rounds " << rounds << ": sends " << sends << ", output commits " << outputs
                   << ", input commits " << inputs);
    REQUIRE(sends > 1000);
    CHECK(outputs == inputs);
    if (rounds == 1) CHECK(outputs == sends);
    if (rounds == 4) CHECK(outputs < sends);
  }
}

TEST_CASE("the allocator chosen at run time refuses what it cannot be, naming the field",
          "[model][allocators][config][router_readings]") {
  using interlock::model::separable_allocator;
  const interlock::torus_topology t({4}, {true});
  const interlock::dimension_order_routing dor(t);
  const auto field_of = [&](interlock::model::config c, separable_allocator a) {
    try {
      interlock::model::network<interlock::dimension_order_routing, rr, separable_allocator> net(
          dor, c, to(t, interlock::traffic::uniform_random{}), make<rr>(), {}, a);
    } catch (const interlock::config_error& e) {
      return e.field();
    }
    return std::string("accepted");
  };
  interlock::model::config c;
  CHECK(field_of(c, {true, 0}) == "iterations");
  CHECK(field_of(c, {true, 17}) == "iterations");
  CHECK(field_of(c, {true, 16}) == "accepted");
  CHECK(field_of(c, {false, 2}) == "iterations");
  c.switch_stages = 2;
  CHECK(field_of(c, {false, 1}) == "accepted");
  CHECK(field_of(c, {true, 1}) == "switch_stages");
  c.switch_stages = 1;
  c.persistent_picks = true;
  CHECK(field_of(c, {true, 1}) == "persistent_picks");
}
