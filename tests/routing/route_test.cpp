// SPDX-License-Identifier: BSL-1.0
// The routing protocol every scheme shares: start() from a generator draws
// the routes for_each_start enumerates with their probabilities, and the
// route-compute path (candidates, follow) agrees with next().
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/route.hpp>
#include <interlock/routing/vc_promotion.hpp>

#include "support/interlock_test.hpp"
#include "support/routing_checks.hpp"

using interlock::hop;
using interlock::node_id;
using interlock::torus_topology;
using interlock::traffic_class;
using interlock_test::gen_topology;

static_assert(interlock::is_routing_scheme_v<interlock::dimension_order_routing>);
static_assert(interlock::is_routing_scheme_v<interlock::vc_promotion_routing>);
static_assert(interlock::is_routing_scheme_v<interlock::direction_order_routing>);
static_assert(interlock::is_routing_scheme_v<interlock::t3e_adaptive_routing>);

namespace {

template <class State>
std::string bytes_of(const State& s) {
  std::string b(sizeof(State), '\0');
  std::memcpy(&b[0], &s, sizeof(State));
  return b;
}

// Draws `draws` starts and compares each route's frequency with the
// probability for_each_start gives it: every drawn route is enumerated, and
// every frequency is within five standard deviations of its probability.
template <class Scheme>
void check_start_frequencies(const Scheme& scheme, node_id src, node_id dst, traffic_class c,
                             std::uint64_t seed) {
  std::map<std::string, double> expected;
  scheme.for_each_start(
      src, dst, c, [&](const typename Scheme::state& s, double p) { expected[bytes_of(s)] += p; });
  constexpr int draws = 4000;
  std::map<std::string, int> seen;
  interlock::splitmix64 rng(seed);
  for (int i = 0; i < draws; ++i) ++seen[bytes_of(scheme.start(src, dst, c, rng))];
  for (const auto& [route, count] : seen) RC_ASSERT(expected.count(route) == 1u);
  for (const auto& [route, p] : expected) {
    const auto it = seen.find(route);
    const double f = it == seen.end() ? 0.0 : static_cast<double>(it->second) / draws;
    const double sigma = std::sqrt(p * (1 - p) / draws);
    RC_ASSERT(std::abs(f - p) <= 5 * sigma + 1e-12);
  }
}

// Walks the route by the router's path (candidates, then follow of the
// first) and by next(): the same hops.
template <class Scheme>
void check_route_compute(const Scheme& scheme, node_id src, typename Scheme::state s) {
  const torus_topology& t = scheme.topology();
  typename Scheme::state by_next = s;
  hop options[interlock::max_route_candidates];
  node_id at = src;
  for (std::size_t hops = 0; !scheme.arrived(at, s); ++hops) {
    RC_ASSERT(hops <= interlock::hop_limit(t));
    const std::size_t n = scheme.candidates(at, s, options);
    RC_ASSERT(n >= 1u);
    RC_ASSERT(n <= interlock::max_route_candidates);
    const hop escape = scheme.next(at, by_next);
    RC_ASSERT(options[0] == escape);
    RC_ASSERT(!options[0].adaptive);
    RC_ASSERT(options[0].vc < scheme.vcs_per_channel());
    for (std::size_t i = 1; i < n; ++i) RC_ASSERT(options[i].adaptive);
    scheme.follow(at, s, options[0]);
    RC_ASSERT(bytes_of(s) == bytes_of(by_next));
    at = t.neighbor(at, escape.dimension, escape.sign);
    RC_ASSERT(at != interlock::no_node);
  }
}

std::vector<interlock::dimension_sequence> some_orders(std::size_t n) {
  auto all = interlock::all_dimension_orders(n);
  const auto keep = *rc::gen::inRange<std::size_t>(1, all.size() + 1);
  all.resize(keep);
  return all;
}

}  // namespace

TEST_CASE("start() draws the routes of for_each_start with their probabilities",
          "[route][property]") {
  rc::prop("dimension order, any set of orders", [] {
    const torus_topology t = *gen_topology(3, 6);
    const interlock::dimension_order_routing dor(t, some_orders(t.dimensions()));
    const auto src = *rc::gen::inRange<node_id>(0, t.node_count());
    const auto dst = *rc::gen::inRange<node_id>(0, t.node_count());
    check_start_frequencies(dor, src, dst, traffic_class::request,
                            *rc::gen::arbitrary<std::uint64_t>());
  });
  rc::prop("VC promotion: orders, slices and long-way choices", [] {
    const torus_topology base = *gen_topology(3, 5, true);
    const torus_topology t(base.radices(), {}, *rc::gen::inRange<std::size_t>(1, 3));
    interlock::vc_promotion_options o;
    o.non_minimal_routes = *rc::gen::arbitrary<bool>();
    const interlock::vc_promotion_routing anton(t, some_orders(t.dimensions()), o);
    const auto src = *rc::gen::inRange<node_id>(0, t.node_count());
    const auto dst = *rc::gen::inRange<node_id>(0, t.node_count());
    check_start_frequencies(anton, src, dst, traffic_class::response,
                            *rc::gen::arbitrary<std::uint64_t>());
  });
  rc::prop("T3E direction order: tags, initial and final hops", [] {
    const torus_topology t = *gen_topology(3, 6);
    interlock::allowed_routes allowed;
    allowed.other_way = *rc::gen::arbitrary<bool>();
    allowed.initial_hops = *rc::gen::arbitrary<bool>();
    allowed.final_hop = *rc::gen::arbitrary<bool>();
    std::vector<interlock::ring_vc_assignment> tables;
    for (std::size_t d = 0; d < t.dimensions(); ++d) tables.emplace_back(t.radix(d));
    const interlock::direction_order_routing t3e(t, {}, tables, allowed);
    const auto src = *rc::gen::inRange<node_id>(0, t.node_count());
    const auto dst = *rc::gen::inRange<node_id>(0, t.node_count());
    check_start_frequencies(t3e, src, dst, traffic_class::request,
                            *rc::gen::arbitrary<std::uint64_t>());
  });
}

TEST_CASE("a router's route-compute path agrees with next()", "[route][property]") {
  rc::prop("every scheme: candidates()[0] is next(), follow() advances as next()", [] {
    const torus_topology base = *gen_topology(3, 6, true);
    const torus_topology t(base.radices(), {}, 2);
    const auto src = *rc::gen::inRange<node_id>(0, t.node_count());
    const auto dst = *rc::gen::inRange<node_id>(0, t.node_count());
    interlock::splitmix64 rng(*rc::gen::arbitrary<std::uint64_t>());
    const interlock::dimension_order_routing dor(t,
                                                 interlock::all_dimension_orders(t.dimensions()));
    check_route_compute(dor, src, dor.start(src, dst, traffic_class::request, rng));
    const interlock::vc_promotion_routing anton(t, interlock::all_dimension_orders(t.dimensions()));
    check_route_compute(anton, src, anton.start(src, dst, traffic_class::response, rng));
    const interlock::direction_order_routing t3e(t);
    check_route_compute(t3e, src, t3e.start(src, dst, traffic_class::request, rng));
    const interlock::t3e_adaptive_routing adaptive(t);
    check_route_compute(adaptive, src, adaptive.start(src, dst, traffic_class::request, rng));
  });
}

TEST_CASE("vcs_per_channel counts every class and the adaptive VC", "[route]") {
  const torus_topology t({4, 4, 4}, {}, 2);
  CHECK(interlock::dimension_order_routing(t).vcs_per_channel() == 4);
  CHECK(interlock::dimension_order_routing(t, {}, {false}).vcs_per_channel() == 2);
  CHECK(interlock::vc_promotion_routing(t).vcs_per_channel() == 8);  // (n + 1) x 2 classes
  CHECK(interlock::vc_promotion_routing(t, {}, interlock::vc_scheme::per_dimension)
            .vcs_per_channel() == 12);
  CHECK(interlock::direction_order_routing(t).vcs_per_channel() == 4);
  CHECK(interlock::t3e_adaptive_routing(t).vcs_per_channel() == 5);
}

TEST_CASE("uniform_below is exact and draws nothing for one option", "[route][random]") {
  interlock::splitmix64 a(3), b(3);
  CHECK(interlock::uniform_below(a, 1) == 0);
  CHECK(a == b);
  // 2^64 mod 3 = 1: only the value 0 is redrawn; otherwise x mod 3.
  const std::uint64_t x = b();
  CHECK(interlock::uniform_below(a, 3) == (x == 0 ? interlock::uniform_below(b, 3) : x % 3));
  // A 32-bit generator makes one 64-bit value of two draws, high half first.
  struct counter32 {
    using result_type = std::uint32_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return 0xFFFFFFFFu; }
    std::uint32_t next = 1;
    result_type operator()() { return next++; }
  } g;
  CHECK(interlock::uniform_below(g, 1000) == ((std::uint64_t{1} << 32 | 2) % 1000));
  CHECK(g.next == 3);
  CHECK_THROWS_AS(interlock::uniform_below(g, 0), interlock::contract_violation);
}
