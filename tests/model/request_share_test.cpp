// SPDX-License-Identifier: BSL-1.0
// The model's request counters (config::count_requests): per output
// arbiter, the cycles it arbitrated and each input port requested it,
// against what the arbiters themselves were asked, in one and two switch
// stages and with the output-first allocator.
#include <catch2/catch.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>

#include <interlock/model/network.hpp>

namespace {

using interlock::node_id;
using rr = interlock::round_robin_arbiter<64>;

// What each (router, output)'s arbiter was asked: its arbitrations and, per
// input, the ones it was requested in.
struct asked {
  std::map<std::pair<node_id, std::size_t>, std::uint64_t> calls;
  std::map<std::tuple<node_id, std::size_t, std::size_t>, std::uint64_t> requests;
};

// Round robin that tells `asked` every request it arbitrates.
class telling_rr : public rr {
 public:
  telling_rr(std::shared_ptr<asked> a, node_id r, std::size_t o) : a_(std::move(a)), r_(r), o_(o) {}
  interlock::grant arbitrate(std::uint64_t requests) const {
    ++a_->calls[{r_, o_}];
    for (std::uint64_t x = requests; x != 0; x &= x - 1)
      ++a_->requests[{r_, o_, static_cast<std::size_t>(interlock::bits::lowest_index(x))}];
    return rr::arbitrate(requests);
  }

 private:
  std::shared_ptr<asked> a_;
  node_id r_;
  std::size_t o_;
};

}  // namespace

namespace interlock {
template <>
class request_builder<telling_rr> : public request_builder<rr> {
 public:
  request_builder() = default;
  explicit request_builder(const telling_rr&) noexcept {}
};
}  // namespace interlock

namespace {

template <class Allocator>
void counts_what_the_arbiters_see(unsigned switch_stages) {
  const interlock::torus_topology t({4, 3}, {true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.batch = 40;
  c.lengths = {{1, 1}, {3, 1}};
  c.buffer_flits = 6;
  c.switch_stages = switch_stages;
  c.count_requests = true;
  c.measure = 1000000;
  auto a = std::make_shared<asked>();
  interlock::model::network<interlock::dimension_order_routing, telling_rr, Allocator> net(
      dor, c,
      [&t](node_id s, interlock::splitmix64& g) {
        return interlock::traffic::uniform_random{}.destination(t, s, g);
      },
      [a](node_id r, std::size_t o) { return telling_rr(a, r, o); });
  const interlock::model::results res = net.run();
  REQUIRE(res.complete);
  std::uint64_t pairs = 0;
  const std::size_t ports = t.ports();
  for (node_id r = 0; r < t.node_count(); ++r)
    for (std::size_t o = 0; o < ports; ++o) {
      CHECK(net.routers().arbitrations(r, o) == a->calls[{r, o}]);
      for (std::size_t i = 0; i < ports; ++i) {
        CHECK(net.routers().request_cycles(r, o, i) == a->requests[{r, o, i}]);
        if (a->requests[{r, o, i}] != 0) ++pairs;
      }
    }
  CHECK(res.request_pairs == pairs);
  CHECK(res.request_share_mean > 0);
  CHECK(res.request_share_mean <= 1);
  CHECK(res.request_share_p10 <= res.request_share_p50);
}

}  // namespace

TEST_CASE("request counters count what every output arbiter is asked",
          "[model][measurement][requests]") {
  SECTION("input-first, one switch stage") {
    counts_what_the_arbiters_see<interlock::model::separable_input_first>(1);
  }
  SECTION("input-first, two switch stages") {
    counts_what_the_arbiters_see<interlock::model::separable_input_first>(2);
  }
  SECTION("output-first") {
    counts_what_the_arbiters_see<interlock::model::separable_output_first>(1);
  }
}

TEST_CASE("one flow's inputs request their outputs in every cycle they are arbitrated",
          "[model][measurement][requests]") {
  const interlock::torus_topology t({3}, {false});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.batch = 30;
  c.count_requests = true;
  c.measure = 1000000;
  interlock::model::network<interlock::dimension_order_routing, rr> net(
      dor, c,
      [](node_id s, interlock::splitmix64&) { return s == 0 ? node_id{1} : interlock::no_node; },
      [](node_id, std::size_t) { return rr{}; });
  const interlock::model::results res = net.run();
  REQUIRE(res.complete);
  // Router 0's +X output, its local input alone; router 1's ejection, its
  // +X input alone: two pairs, each the only requester of its arbiter.
  CHECK(res.request_pairs == 2);
  CHECK(res.request_share_mean == 1.0);
  CHECK(res.request_share_p10 == 1.0);
}
