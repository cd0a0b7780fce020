// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/routing/vc_promotion.hpp: Anton 2's VC promotion (n+1
// VCs) and the 2n-VC scheme it improves on ([Towles14], Section 2.5).
#include "support/interlock_test.hpp"
#include "support/routing_checks.hpp"

#include <interlock/routing/vc_promotion.hpp>

#include <algorithm>
#include <vector>

using interlock::hop;
using interlock::torus_topology;
using interlock::traffic_class;
using interlock::vc_promotion_routing;
using interlock::vc_scheme;
using namespace interlock_test;

TEST_CASE(
    "vc_promotion_routing: the VC rises at a dateline or at the end of a dimension without one",
    "[vc_promotion]") {
  torus_topology t({8, 8, 8}, {}, 2);
  vc_promotion_routing anton(t, interlock::all_dimension_orders(3));
  CHECK(anton.vcs_per_class() == 4);
  // XYZ, slice 1: X from 6 to 1 crosses (6 -> 7 -> 0 -> 1), Y from 0 to 2 does
  // not, Z from 1 to 7 crosses going - (1 -> 0 -> 7).
  const auto src = t.node({6, 0, 1}), dst = t.node({1, 2, 7});
  const auto r = record(anton, src, anton.start_with(src, dst, traffic_class::request, 0, 1));
  REQUIRE(r.arrived);
  std::vector<unsigned> vcs;
  for (const auto& [from, h] : r.hops) {
    vcs.push_back(h.vc);
    CHECK(h.slice == 1);
  }
  // X: 6->7 on 0, 7->0 (wrap) on 1, 0->1 on 1; Y: a new dimension after a
  // crossing keeps 1; Y did not cross, so Z starts on 2; Z: 1->0 on 2, 0->7
  // (wrap) on 3.
  CHECK(vcs == std::vector<unsigned>{0, 1, 1, 1, 1, 2, 3});
  vc_promotion_routing baseline(t, {}, vc_scheme::per_dimension);
  CHECK(baseline.vcs_per_class() == 6);
  std::vector<unsigned> base_vcs;
  for (const auto& [from, h] :
       record(baseline, src, baseline.start_with(src, dst, traffic_class::request)).hops)
    base_vcs.push_back(h.vc);
  CHECK(base_vcs == std::vector<unsigned>{0, 1, 1, 2, 2, 4, 5});  // 2j, 2j+1 after the dateline
}

namespace {
// The VC each hop should use, computed from the recorded route alone.
std::vector<unsigned> expected_vcs(const torus_topology& t, const recorded_route& r,
                                   vc_scheme scheme) {
  std::vector<unsigned> out;
  unsigned vc = 0, traversed = 0;
  bool crossed = false;
  unsigned dim = 99;
  for (const auto& [from, h] : r.hops) {
    if (h.dimension != dim) {
      if (dim != 99 && !crossed && scheme == vc_scheme::promotion) ++vc;
      crossed = false;
      dim = h.dimension;
      ++traversed;
    }
    if (t.is_wrap_hop(from, h.dimension, h.sign)) {
      crossed = true;
      if (scheme == vc_scheme::promotion) ++vc;
    }
    out.push_back(scheme == vc_scheme::promotion ? vc : 2 * (traversed - 1) + (crossed ? 1u : 0u));
  }
  return out;
}
}  // namespace

TEST_CASE("vc_promotion_routing: minimal, ordered, one slice, n+1 or 2n VCs",
          "[vc_promotion][property]") {
  rc::prop("for random tori, pairs, orders, slices and both schemes", [] {
    const torus_topology base = *gen_topology(4, 6, true);
    const torus_topology t(base.radices(), {}, *rc::gen::inRange<std::size_t>(1, 3));
    const auto scheme = *rc::gen::element(vc_scheme::promotion, vc_scheme::per_dimension);
    const vc_promotion_routing routing(t, interlock::all_dimension_orders(t.dimensions()), scheme);
    const auto src = *rc::gen::inRange<interlock::node_id>(0, t.node_count());
    const auto dst = *rc::gen::inRange<interlock::node_id>(0, t.node_count());
    const auto cls = *rc::gen::element(traffic_class::request, traffic_class::response);
    const unsigned base_vc = static_cast<unsigned>(cls) * routing.vcs_per_class();
    double total = 0;
    routing.for_each_start(src, dst, cls, [&](const vc_promotion_routing::state& s, double p) {
      total += p;
      const recorded_route r = record(routing, src, s);
      RC_ASSERT(r.arrived && r.end == dst);
      RC_ASSERT(r.hops.size() == t.distance(src, dst));
      const std::vector<unsigned> vcs = expected_vcs(t, r, scheme);
      std::size_t position = 0;
      for (std::size_t i = 0; i < r.hops.size(); ++i) {
        const hop& h = r.hops[i].second;
        while (s.order[position] != h.dimension) RC_ASSERT(++position < t.dimensions());
        RC_ASSERT(h.slice == s.slice);
        RC_ASSERT(h.vc == base_vc + vcs[i]);
        RC_ASSERT(h.vc < base_vc + routing.vcs_per_class());
      }
    });
    RC_ASSERT(std::abs(total - 1.0) < 1e-9);
  });
}

TEST_CASE("vc_promotion_options: the long way round, and a - dateline elsewhere",
          "[vc_promotion]") {
  const torus_topology t({8, 8});
  interlock::vc_promotion_options long_way;
  long_way.non_minimal_routes = true;
  const vc_promotion_routing anton(t, interlock::all_dimension_orders(2), long_way);
  // From (1,0) to (3,2): per order, each of X and Y minimal or the long way.
  const auto src = t.node({1, 0}), dst = t.node({3, 2});
  std::vector<std::size_t> lengths;
  double total = 0;
  anton.for_each_start(src, dst, traffic_class::request, [&](const auto& s, double p) {
    total += p;
    const recorded_route r = record(anton, src, s);
    REQUIRE(r.arrived);
    lengths.push_back(r.hops.size());
    // A dimension keeps the direction it starts in.
    for (std::size_t i = 1; i < r.hops.size(); ++i)
      if (r.hops[i].second.dimension == r.hops[i - 1].second.dimension)
        CHECK(r.hops[i].second.sign == r.hops[i - 1].second.sign);
  });
  CHECK(total == Approx(1.0));
  std::sort(lengths.begin(), lengths.end());
  // 2 + 2 minimal, 6 the long way round an 8-ring: 4, 8, 8, 12, for each order.
  CHECK(lengths == std::vector<std::size_t>{4, 4, 8, 8, 8, 8, 12, 12});
  // The - dateline between 3 and 4: the hop 4 -> 3 increments the VC, the
  // wrap link in the - direction no longer does.
  interlock::vc_promotion_options apart;
  apart.minus_dateline = 4;
  const vc_promotion_routing shifted(t, {}, apart);
  const auto a = t.node({5, 0}), b = t.node({2, 0});
  auto r = record(shifted, a, shifted.start_with(a, b, traffic_class::request));
  std::vector<unsigned> vcs;
  for (const auto& [from, h] : r.hops) vcs.push_back(h.vc);
  CHECK(vcs == std::vector<unsigned>{0, 1, 1});  // 5->4, 4->3 (dateline), 3->2
  const auto c = t.node({1, 0}), d = t.node({7, 0});
  r = record(shifted, c, shifted.start_with(c, d, traffic_class::request));
  vcs.clear();
  for (const auto& [from, h] : r.hops) vcs.push_back(h.vc);
  CHECK(vcs == std::vector<unsigned>{0, 0});  // 1->0, 0->7: no dateline here now
}
