// SPDX-License-Identifier: BSL-1.0
// check_deadlock_freedom on several threads: the report is the one thread's,
// field by field, for acyclic and cyclic graphs (the witness cycle and its
// routes too) and for schemes whose routes fail (the first failure in the
// walk's order, whichever thread met it).
#include "support/interlock_test.hpp"

#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/verify/channel_dependency_graph.hpp>

#include <cstddef>
#include <string>
#include <vector>

using interlock::hop;
using interlock::node_id;
using interlock::torus_topology;
using interlock::traffic_class;
using interlock::verify::cdg_options;
using interlock::verify::cdg_report;
using interlock::verify::check_deadlock_freedom;

namespace {

bool same_route(const interlock::verify::enumerated_route& a,
                const interlock::verify::enumerated_route& b) {
  return a.source == b.source && a.destination == b.destination && a.cls == b.cls &&
         a.choice == b.choice;
}

// Every field of the two reports, named where they differ ("" when equal).
std::string difference(const cdg_report& a, const cdg_report& b) {
  if (a.acyclic != b.acyclic) return "acyclic";
  if (a.routes_arrive != b.routes_arrive) return "routes_arrive";
  if (a.route_problem != b.route_problem) return "route_problem";
  if (!a.routes_arrive && !same_route(a.failed_route, b.failed_route)) return "failed_route";
  if (a.vcs_used != b.vcs_used) return "vcs_used";
  if (a.routes != b.routes) return "routes";
  if (a.hops != b.hops) return "hops";
  if (a.resources != b.resources) return "resources";
  if (a.dependencies != b.dependencies) return "dependencies";
  if (a.cycle.size() != b.cycle.size()) return "cycle";
  for (std::size_t i = 0; i < a.cycle.size(); ++i) {
    const auto &x = a.cycle[i], &y = b.cycle[i];
    if (x.from.channel != y.from.channel || x.from.vc != y.from.vc ||
        x.to.channel != y.to.channel || x.to.vc != y.to.vc || !same_route(x.route, y.route) ||
        x.indirect != y.indirect)
      return "cycle edge " + std::to_string(i);
  }
  return "";
}

template <class Scheme>
std::string threads_difference(const Scheme& scheme, cdg_options o, unsigned threads) {
  const cdg_report one = check_deadlock_freedom(scheme, o);
  o.threads = threads;
  return difference(one, check_deadlock_freedom(scheme, o));
}

// Straight to the destination on a line, but the hop out of node `bad`
// takes a VC outside the class: every route through `bad` fails, so the
// first failure in the walk's order is not the first route walked.
struct bad_node_routing {
  torus_topology line;
  node_id bad;
  struct state {
    node_id destination;
  };
  const torus_topology& topology() const { return line; }
  unsigned vcs_per_class() const { return 1; }
  template <class F>
  void for_each_start(node_id, node_id destination, traffic_class, F&& f) const {
    f(state{destination}, 1.0);
  }
  bool arrived(node_id at, const state& s) const { return at == s.destination; }
  hop next(node_id at, state& s) const {
    return hop{0, at > s.destination ? -1 : +1, 0, at == bad ? 1u : 0u};
  }
};

}  // namespace

TEST_CASE("check_deadlock_freedom: any number of threads gives the one thread's report",
          "[deadlock][threads][property]") {
  rc::prop("dimension order and VC promotion, acyclic and cyclic", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 4);
    std::vector<std::size_t> radix;
    std::vector<bool> wrap;
    for (std::size_t d = 0; d < n; ++d) {
      radix.push_back(*rc::gen::inRange<std::size_t>(2, n == 3 ? 5 : 7));
      wrap.push_back(*rc::gen::arbitrary<bool>());
    }
    const torus_topology t(radix, wrap, *rc::gen::inRange<std::size_t>(1, 3));
    const auto threads = *rc::gen::inRange(2u, 5u);
    cdg_options o;
    if (*rc::gen::arbitrary<bool>()) o.classes = {traffic_class::response};
    if (*rc::gen::arbitrary<bool>()) {
      // Several orders on one network need more VCs than dimension order's:
      // a cycle, with its witness routes, whenever the torus wraps.
      const interlock::dimension_order_routing dor(t, interlock::all_dimension_orders(n));
      RC_ASSERT(threads_difference(dor, o, threads) == "");
    } else {
      const interlock::vc_promotion_routing anton(t, interlock::all_dimension_orders(n));
      o.vc_limit = *rc::gen::inRange(0u, anton.vcs_per_class() + 1);
      RC_ASSERT(threads_difference(anton, o, threads) == "");
    }
  });
}

TEST_CASE("check_deadlock_freedom: the first route that fails, on any number of threads",
          "[deadlock][threads]") {
  const torus_topology line({7}, {false});
  for (node_id bad = 0; bad < 7; ++bad)
    for (unsigned threads = 1; threads <= 4; ++threads) {
      cdg_options o;
      o.threads = threads;
      const cdg_report r = check_deadlock_freedom(bad_node_routing{line, bad}, o);
      REQUIRE_FALSE(r.routes_arrive);
      // The walk goes by destination, then source: the first route through
      // `bad` is bad's own to node 0, or, with bad = 0, node 0's to node 1.
      CHECK(r.failed_route.cls == traffic_class::request);
      CHECK(r.failed_route.destination == (bad == 0 ? 1u : 0u));
      CHECK(r.failed_route.source == bad);
      CHECK_THAT(r.route_problem, Catch::Contains("outside the request class's VCs"));
      CHECK(threads_difference(bad_node_routing{line, bad}, cdg_options{}, threads) == "");
    }
}

TEST_CASE("check_deadlock_freedom: threads out of range name the field", "[deadlock][config]") {
  const torus_topology t({4}, {true});
  const interlock::dimension_order_routing dor(t);
  cdg_options o;
  o.threads = 0;
  CHECK_THROWS_WITH(check_deadlock_freedom(dor, o), Catch::Contains("threads"));
  o.threads = 257;
  CHECK_THROWS_WITH(check_deadlock_freedom(dor, o), Catch::Contains("threads"));
}
