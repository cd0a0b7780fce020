// SPDX-License-Identifier: BSL-1.0
// The router state's candidate records (model/router_state.hpp): a head of
// an oblivious scheme has one way on, so each input buffer keeps one record;
// an adaptive scheme keeps as many as its topology can offer a head.
#include <catch2/catch.hpp>
#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>

#include <cstddef>

#include <interlock/model/network_checks.hpp>

namespace {

using interlock::model::detail::scheme_candidates;

TEST_CASE("candidate records: one per buffer for an oblivious scheme, the topology's most else",
          "[model][router_state]") {
  const interlock::torus_topology t({4, 4, 4}, {true, true, true});
  CHECK(scheme_candidates(interlock::dimension_order_routing(t)) == 1);
  CHECK(scheme_candidates(interlock::direction_order_routing(t)) == 1);
  CHECK(scheme_candidates(interlock::vc_promotion_routing(t)) == 1);
  // An adaptive head may take any minimal direction of each dimension, or
  // its escape: 1 + 2 per dimension.
  CHECK(scheme_candidates(interlock::t3e_adaptive_routing(t)) == 7);
  const interlock::torus_topology plane({4, 4}, {true, true});
  CHECK(scheme_candidates(interlock::t3e_adaptive_routing(plane)) == 5);
}

}  // namespace
