// SPDX-License-Identifier: BSL-1.0
// Exhaustive deadlock checks: every routing scheme that claims deadlock
// freedom, on every mesh and torus of a sweep of shapes (n = 1 and 2 with
// every radix 2..8 in every dimension; n = 3 with every cube of radix 2..8
// and mixed-radix triples in which each radix takes each position; n = 4 on
// radices 2 and 3; each dimension a ring or a line, in every combination).
// Every source, destination and route choice of the scheme is walked.
//
// The request class is checked here; the response class takes the same
// routes on its own VCs (channel_dependency_graph_test checks both).
#include "support/deadlock_checks.hpp"
#include "support/interlock_test.hpp"

#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/routing/vc_table.hpp>
#include <interlock/verify/channel_dependency_graph.hpp>

#include <map>
#include <vector>

using interlock::torus_topology;
using interlock::traffic_class;
using interlock::verify::cdg_report;
using namespace interlock_test;

namespace {
std::vector<torus_topology> sweep(std::size_t n, std::size_t slices = 1) {
  std::vector<torus_topology> out;
  const auto add = [&](const std::vector<std::vector<std::size_t>>& radices) {
    for (const auto& radix : radices)
      for (std::size_t w = 0; w < (std::size_t{1} << radix.size()); ++w) {
        std::vector<bool> wrap;
        for (std::size_t d = 0; d < radix.size(); ++d) wrap.push_back((w >> d & 1u) != 0);
        out.emplace_back(radix, wrap, slices);
      }
  };
  std::vector<std::vector<std::size_t>> radices;
  if (n == 1)
    for (std::size_t a = 2; a <= 8; ++a) radices.push_back({a});
  if (n == 2)
    for (std::size_t a = 2; a <= 8; ++a)
      for (std::size_t b = 2; b <= 8; ++b) radices.push_back({a, b});
  if (n == 3)
    for (std::size_t i = 0; i < 7; ++i) {
      radices.push_back({2 + i, 2 + i, 2 + i});
      radices.push_back({2 + i, 2 + (i + 2) % 7, 2 + (i + 5) % 7});
    }
  if (n == 4)
    for (const std::vector<std::size_t>& r :
         {std::vector<std::size_t>{2, 2, 2, 2}, {3, 3, 3, 3}, {2, 3, 2, 3}, {3, 2, 2, 3}})
      radices.push_back(r);
  add(radices);
  return out;
}

// Some torus dimension has a ring on which a minimal route crosses the
// dateline (radix 3 or more).
bool crossing_ring(const torus_topology& t) {
  for (std::size_t d = 0; d < t.dimensions(); ++d)
    if (t.wraps(d) && t.radix(d) >= 3) return true;
  return false;
}

template <class Scheme>
void expect_deadlock_free(const Scheme& scheme, const cdg_report& r) {
  INFO(name(scheme.topology()));
  INFO(r.route_problem);
  INFO(interlock::verify::format_cycle(scheme.topology(), r));
  CHECK(r.deadlock_free());
  CHECK(r.vcs_used[0] <= scheme.vcs_per_class());
}

// T3E tables optimized for each ring size, once.
const interlock::ring_vc_assignment& optimized_table(std::size_t k, interlock::vc_routes routes) {
  static std::map<std::pair<std::size_t, interlock::vc_routes>, interlock::ring_vc_assignment>
      tables;
  auto it = tables.find({k, routes});
  if (it == tables.end()) {
    interlock::vc_optimizer_options options;
    options.iterations = 20000;
    options.routes = routes;
    it = tables.emplace(std::make_pair(k, routes), interlock::optimize_vc_assignment(k, 8, options))
             .first;
  }
  return it->second;
}
}  // namespace

TEST_CASE("exhaustive: dimension order with datelines, each order", "[deadlock][exhaustive]") {
  for (std::size_t n = 1; n <= 4; ++n)
    for (const torus_topology& t : sweep(n))
      for (const auto& order : interlock::all_dimension_orders(n)) {
        const interlock::dimension_order_routing dor(t, {order});
        const cdg_report r = interlock::verify::check_deadlock_freedom(dor, request_only());
        expect_deadlock_free(dor, r);
        CHECK(r.vcs_used[0] == (crossing_ring(t) ? 2u : 1u));
      }
}

TEST_CASE("exhaustive: dimension order with BookSim2's dateline rule", "[deadlock][exhaustive]") {
  interlock::dimension_order_options booksim2;
  booksim2.rule = interlock::dateline_rule::booksim2;
  for (std::size_t n = 1; n <= 4; ++n)
    for (const torus_topology& t : sweep(n)) {
      const interlock::dimension_order_routing dor(t, {}, booksim2);
      const cdg_report r = interlock::verify::check_deadlock_freedom(dor, request_only());
      expect_deadlock_free(dor, r);
    }
}

// The T3E sweeps are the longest (up to 64 routes per pair); each is split
// in two test cases so that ctest can run the halves side by side.
static void t3e_extras(const std::vector<std::size_t>& dimensions) {
  for (const std::size_t n : dimensions)
    for (const torus_topology& t : sweep(n)) {
      // Every extra at once: a graph is acyclic for a set of routes only if
      // it is for each subset, so this covers each extra alone.
      const interlock::direction_order_routing t3e(t, {}, {}, {true, true, true});
      expect_deadlock_free(t3e, interlock::verify::check_deadlock_freedom(t3e, request_only()));
    }
}

static void t3e_optimized_tables(const std::vector<std::size_t>& dimensions) {
  for (const std::size_t n : dimensions)
    for (const torus_topology& t : sweep(n)) {
      // Tables optimized for the minimal model serve minimal routes with
      // initial hops; tables safe for every route serve all the extras.
      for (const auto routes : {interlock::vc_routes::minimal, interlock::vc_routes::every_route}) {
        std::vector<interlock::ring_vc_assignment> tables;
        for (std::size_t d = 0; d < n; ++d) tables.push_back(optimized_table(t.radix(d), routes));
        interlock::allowed_routes allowed;
        allowed.initial_hops = true;
        allowed.other_way = allowed.final_hop = routes == interlock::vc_routes::every_route;
        const interlock::direction_order_routing t3e(t, {}, tables, allowed);
        expect_deadlock_free(t3e, interlock::verify::check_deadlock_freedom(t3e, request_only()));
      }
    }
}

TEST_CASE("exhaustive: T3E direction order, initial and final hops, other-way tags (n = 1, 2, 4)",
          "[deadlock][exhaustive]") {
  t3e_extras({1, 2, 4});
}

TEST_CASE("exhaustive: T3E direction order, initial and final hops, other-way tags (n = 3)",
          "[deadlock][exhaustive]") {
  t3e_extras({3});
}

TEST_CASE("exhaustive: T3E direction order with optimized VC tables (n = 1, 2, 4)",
          "[deadlock][exhaustive]") {
  t3e_optimized_tables({1, 2, 4});
}

TEST_CASE("exhaustive: T3E direction order with optimized VC tables (n = 3)",
          "[deadlock][exhaustive]") {
  t3e_optimized_tables({3});
}

TEST_CASE("exhaustive: Anton 2 VC promotion, all orders, both slices, n+1 VCs",
          "[deadlock][exhaustive]") {
  for (std::size_t n = 1; n <= 4; ++n)
    for (const torus_topology& t : sweep(n, n <= 3 ? 2 : 1)) {
      const interlock::vc_promotion_routing anton(t, interlock::all_dimension_orders(n));
      const cdg_report r = interlock::verify::check_deadlock_freedom(anton, request_only());
      expect_deadlock_free(anton, r);
      // One VC more per dimension turned out of, and one for a dateline
      // crossed in the last: the last can cross only on a ring of 3 or more.
      CHECK(r.vcs_used[0] == n + (crossing_ring(t) ? 1u : 0u));
    }
}

TEST_CASE("exhaustive: the 2n-VC scheme VC promotion improves on", "[deadlock][exhaustive]") {
  for (std::size_t n = 1; n <= 4; ++n)
    for (const torus_topology& t : sweep(n)) {
      const interlock::vc_promotion_routing baseline(t, interlock::all_dimension_orders(n),
                                                     interlock::vc_scheme::per_dimension);
      const cdg_report r = interlock::verify::check_deadlock_freedom(baseline, request_only());
      expect_deadlock_free(baseline, r);
      CHECK(r.vcs_used[0] == 2 * n - 1 + (crossing_ring(t) ? 1u : 0u));
    }
}
