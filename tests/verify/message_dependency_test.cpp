// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/verify/message_dependency.hpp: message-dependent
// deadlock, the published fixture (Song and Pinkston; Hansson, Goossens and
// Radulescu): requests and replies on one virtual network deadlock through
// the endpoints even where the routes alone cannot, and a second virtual
// network for replies removes the cycle. (The other published fixtures, a
// torus without datelines [Dally and Seitz] and a mesh whose routes turn both
// ways [Glass and Ni], are channel_dependency_graph_test.cpp's negatives.)
#include "support/deadlock_checks.hpp"
#include "support/interlock_test.hpp"

#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/verify/cdg_report.hpp>
#include <interlock/verify/channel_dependency_graph.hpp>
#include <interlock/verify/message_dependency.hpp>

namespace verify = interlock::verify;
using interlock::torus_topology;
using interlock_test::request_only;
using interlock_test::witness_problem;

TEST_CASE("message-dependent deadlock: XY on a mesh, one shared network against two",
          "[deadlock]") {
  const torus_topology mesh({3, 3}, {false, false});
  const interlock::dimension_order_routing xy(mesh);
  // The routes alone are acyclic: XY never turns from Y to X.
  REQUIRE(verify::check_deadlock_freedom(xy, request_only()).deadlock_free());

  const verify::request_reply_chain shared(xy, verify::message_networks::shared);
  const verify::cdg_report r = verify::check_deadlock_freedom(shared, request_only());
  CHECK(r.routes_arrive);
  REQUIRE_FALSE(r.acyclic);
  INFO(verify::format_cycle(mesh, r));
  CHECK(witness_problem(shared, r).empty());
  // Every resource of the witness is a request-class VC: the reply waits in
  // the same network as the request it answers.
  for (const auto& d : r.cycle) CHECK(d.from.vc < xy.vcs_per_class());

  const verify::request_reply_chain separate(xy, verify::message_networks::separate);
  const verify::cdg_report s = verify::check_deadlock_freedom(separate, request_only());
  CHECK(s.routes_arrive);
  CHECK(s.deadlock_free());
  CHECK(s.dependencies > verify::check_deadlock_freedom(xy, request_only()).dependencies);
}

TEST_CASE("message-dependent deadlock: a torus with datelines and Anton 2's VC promotion",
          "[deadlock]") {
  const torus_topology torus({4, 4});
  const interlock::dimension_order_routing dor(torus);
  CHECK_FALSE(
      verify::check_deadlock_freedom(
          verify::request_reply_chain(dor, verify::message_networks::shared), request_only())
          .acyclic);
  CHECK(verify::check_deadlock_freedom(
            verify::request_reply_chain(dor, verify::message_networks::separate), request_only())
            .deadlock_free());
  const interlock::vc_promotion_routing anton(torus, interlock::all_dimension_orders(2));
  const verify::request_reply_chain promoted(anton, verify::message_networks::shared);
  const verify::cdg_report r = verify::check_deadlock_freedom(promoted, request_only());
  REQUIRE_FALSE(r.acyclic);
  CHECK(witness_problem(promoted, r).empty());
  CHECK(verify::check_deadlock_freedom(
            verify::request_reply_chain(anton, verify::message_networks::separate), request_only())
            .deadlock_free());
}

TEST_CASE("request_reply_chain: only the request class has routes", "[deadlock]") {
  const torus_topology ring({5});
  const interlock::dimension_order_routing dor(ring);
  const verify::request_reply_chain chain(dor, verify::message_networks::separate);
  CHECK(chain.vcs_per_class() == 2 * dor.vcs_per_class());
  int starts = 0;
  chain.for_each_start(0, 2, interlock::traffic_class::response,
                       [&](const auto&, double) { ++starts; });
  CHECK(starts == 0);
  chain.for_each_start(0, 2, interlock::traffic_class::request,
                       [&](const auto&, double) { ++starts; });
  CHECK(starts == 1);
}
