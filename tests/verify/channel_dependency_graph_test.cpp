// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/verify/channel_dependency_graph.hpp: the graph, cycle
// detection against a reference, witnesses validated edge by edge, the
// negative checks of the Anton 2 proof ([Towles14], Section 2.5) and the T3E
// text ([Scott96], Sections 3 and 5), adaptive escape, user-written schemes.
#include "support/deadlock_checks.hpp"
#include "support/interlock_test.hpp"
#include "support/routing_checks.hpp"

#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/verify/adaptive_deadlock.hpp>
#include <interlock/verify/channel_dependency_graph.hpp>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

using interlock::hop;
using interlock::node_id;
using interlock::torus_topology;
using interlock::traffic_class;
using interlock::verify::cdg_options;
using interlock::verify::cdg_report;
using interlock::verify::cdg_resource;
using interlock::verify::channel_dependency_graph;
using interlock::verify::check_deadlock_freedom;
using namespace interlock_test;

namespace {

// The reference: Kahn's algorithm removes every vertex exactly when the
// graph has no cycle.
bool acyclic_by_topological_sort(
    std::size_t vertices, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& edges) {
  std::vector<std::vector<std::uint64_t>> out(vertices);
  std::vector<std::size_t> in(vertices, 0);
  std::set<std::pair<std::uint64_t, std::uint64_t>> unique(edges.begin(), edges.end());
  for (const auto& [a, b] : unique) {
    out[a].push_back(b);
    ++in[b];
  }
  std::vector<std::uint64_t> ready;
  for (std::size_t v = 0; v < vertices; ++v)
    if (in[v] == 0) ready.push_back(v);
  std::size_t removed = 0;
  while (!ready.empty()) {
    const std::uint64_t v = ready.back();
    ready.pop_back();
    ++removed;
    for (const std::uint64_t w : out[v])
      if (--in[w] == 0) ready.push_back(w);
  }
  return removed == vertices;
}
}  // namespace

TEST_CASE("channel_dependency_graph: a ring of channels is a cycle, a chain is not", "[deadlock]") {
  const torus_topology t({4});
  channel_dependency_graph g(t, 2);
  const auto plus = [&](node_id at, unsigned vc) { return g.vertex(at, hop{0, +1, 0, vc}); };
  for (node_id x = 0; x < 3; ++x) CHECK(g.add(plus(x, 0), plus(x + 1, 0)));
  CHECK_FALSE(g.add(plus(0, 0), plus(1, 0)));  // already there
  CHECK(g.edge_count() == 3);
  CHECK(g.find_cycle().empty());
  CHECK(g.contains(plus(0, 0), plus(1, 0)));
  CHECK_FALSE(g.contains(plus(1, 0), plus(0, 0)));
  CHECK_FALSE(g.contains(plus(0, 0), plus(2, 0)));  // not even adjacent
  g.add(plus(3, 0), plus(0, 0));                    // over the wrap link: closes the ring
  const std::vector<std::uint64_t> cycle = g.find_cycle();
  REQUIRE(cycle.size() == 4);
  for (std::size_t i = 0; i < cycle.size(); ++i)
    CHECK(g.contains(cycle[i], cycle[(i + 1) % cycle.size()]));
  // The same ring on VC1 has nothing to do with VC0's.
  channel_dependency_graph h(t, 2);
  for (node_id x = 0; x < 3; ++x) h.add(plus(x, 0), plus(x + 1, 0));
  h.add(plus(3, 0), plus(0, 1));
  CHECK(h.find_cycle().empty());
  CHECK_THROWS_AS(channel_dependency_graph(t, 0), interlock::config_error);
}

TEST_CASE("describe: resources in the network's own terms", "[deadlock]") {
  using interlock::verify::describe;
  const torus_topology t({8, 8, 8});
  CHECK(describe(t, cdg_resource{t.channel({t.node({3, 0, 1}), 0, +1}), 1}) ==
        "+X (3,0,1)->(4,0,1) VC1");
  CHECK(describe(t, cdg_resource{t.channel({t.node({0, 5, 7}), 2, +1}), 2}) ==
        "+Z (0,5,7)->(0,5,0) VC2");
  CHECK(describe(t, cdg_resource{t.channel({t.node({0, 5, 7}), 1, -1}), 0}) ==
        "-Y (0,5,7)->(0,4,7) VC0");
  const torus_topology four({2, 2, 2, 3}, {}, 2);
  CHECK(describe(four, cdg_resource{four.channel({four.node({1, 0, 0, 2}), 3, +1, 1}), 0}) ==
        "+D3 (1,0,0,2)->(1,0,0,0) VC0 slice 1");
  const interlock::verify::enumerated_route r{t.node({1, 2, 3}), t.node({0, 0, 0}),
                                              traffic_class::response, 4};
  CHECK(describe(t, r) == "(1,2,3) to (0,0,0), response, route 4");
}

TEST_CASE("find_cycle agrees with a topological sort on random graphs", "[deadlock][property]") {
  rc::prop("random dependencies between adjacent resources", [] {
    const torus_topology t = *gen_topology(2, 4);
    const auto vcs = *rc::gen::inRange<unsigned>(1, 4);
    channel_dependency_graph g(t, vcs);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> edges;
    const auto count = *rc::gen::inRange<std::size_t>(0, 3 * g.vertex_count());
    splitmix random(*rc::gen::arbitrary<std::uint64_t>());
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t v = random.below(g.vertex_count());
      const node_id b = g.end_node(v);
      if (!t.channel_exists(g.resource(v).channel)) continue;
      const hop h{static_cast<unsigned>(random.below(t.dimensions())),
                  random.below(2) != 0 ? +1 : -1, 0, static_cast<unsigned>(random.below(vcs))};
      if (t.neighbor(b, h.dimension, h.sign) == interlock::no_node) continue;
      const std::uint64_t w = g.vertex(b, h);
      g.add(v, w);
      edges.emplace_back(v, w);
    }
    const std::vector<std::uint64_t> cycle = g.find_cycle();
    RC_ASSERT(cycle.empty() ==
              acyclic_by_topological_sort(static_cast<std::size_t>(g.vertex_count()), edges));
    for (std::size_t i = 0; i < cycle.size(); ++i)
      RC_ASSERT(std::find(edges.begin(), edges.end(),
                          std::make_pair(cycle[i], cycle[(i + 1) % cycle.size()])) != edges.end());
  });
}

TEST_CASE("Anton 2, Section 2.5: VC promotion needs n+1 VCs, and n are not enough", "[deadlock]") {
  const std::size_t k = sized<std::size_t>(6, 4);
  const torus_topology t({k, k, k}, {}, 2);  // both torus slices
  const interlock::vc_promotion_routing anton(t, interlock::all_dimension_orders(3));
  const cdg_report r = check_deadlock_freedom(anton);
  CHECK(r.deadlock_free());
  CHECK(r.cycle.empty());
  CHECK(r.vcs_used == std::array<unsigned, 2>{4, 4});  // request VCs 0-3, response 4-7
  const std::size_t nodes = k * k * k;
  CHECK(r.routes == 2u * nodes * (nodes - 1) * 6 * 2);  // classes x pairs x orders x slices
  CHECK(r.resources > 0);
  CHECK(r.dependencies > 0);
  // Three VCs per class (the fourth saturating onto the third): a cycle.
  const cdg_report three = check_deadlock_freedom(anton, request_only(3));
  REQUIRE_FALSE(three.acyclic);
  CHECK(witness_problem(anton, three, 3).empty());
  INFO(interlock::verify::format_cycle(t, three));
  for (const auto& d : three.cycle) CHECK(d.from.vc == 2);  // the saturated VC
}

TEST_CASE("negative: a torus with one VC per class", "[deadlock][negative]") {
  const torus_topology t({5, 3});
  const interlock::dimension_order_routing dor(t);
  CHECK(check_deadlock_freedom(dor).deadlock_free());
  const cdg_report r = check_deadlock_freedom(dor, request_only(1));
  REQUIRE_FALSE(r.acyclic);
  INFO(interlock::verify::format_cycle(t, r));
  CHECK(witness_problem(dor, r, 1).empty());
  for (const auto& d : r.cycle) CHECK(d.from.vc == 0);
}

TEST_CASE("negative: dimension order without the dateline switch", "[deadlock][negative]") {
  const torus_topology t({4, 7, 3});
  const interlock::dimension_order_routing no_dateline(t, {}, {false});
  const cdg_report r = check_deadlock_freedom(no_dateline);
  REQUIRE_FALSE(r.acyclic);
  INFO(interlock::verify::format_cycle(t, r));
  CHECK(witness_problem(no_dateline, r).empty());
  // The cycle goes round the 7-node Y ring in one direction.
  CHECK(r.cycle.size() == 7);
  for (const auto& d : r.cycle) {
    const auto c = t.channel_info(d.from.channel);
    CHECK(c.dimension == 1);
    CHECK(c.sign == t.channel_info(r.cycle.front().from.channel).sign);
  }
}

TEST_CASE("without datelines one VC suffices exactly on rings of at most 4 nodes",
          "[deadlock][property]") {
  // A 3-ring's minimal routes are single hops. A 4-ring's two-hop routes go
  // + from even ordinates and - from odd ones (the tie rule), so no two of
  // them chain round the ring. From 5 nodes on, every node starts a two-hop
  // route in each direction, and those chain round the ring.
  rc::prop("random meshes and tori of up to three dimensions", [] {
    const torus_topology t = *gen_topology(3, 7);
    const interlock::dimension_order_routing dor(t, {}, {false});
    bool big_ring = false;
    for (std::size_t d = 0; d < t.dimensions(); ++d) big_ring |= t.wraps(d) && t.radix(d) >= 5;
    const cdg_report r = check_deadlock_freedom(dor, request_only());
    RC_ASSERT(r.routes_arrive);
    RC_ASSERT(r.acyclic == !big_ring);
    if (!r.acyclic) RC_ASSERT(witness_problem(dor, r).empty());
  });
}

TEST_CASE("negative: VC promotion with non-minimal routes", "[deadlock][negative]") {
  const torus_topology t({4, 4});
  interlock::vc_promotion_options options;
  options.non_minimal_routes = true;
  const interlock::vc_promotion_routing long_way(t, interlock::all_dimension_orders(2), options);
  const cdg_report r = check_deadlock_freedom(long_way);
  REQUIRE(r.routes_arrive);
  REQUIRE_FALSE(r.acyclic);
  INFO(interlock::verify::format_cycle(t, r));
  CHECK(witness_problem(long_way, r).empty());
  CHECK(r.vcs_used[0] <= long_way.vcs_per_class());  // not a lack of VCs: of minimality
}

TEST_CASE("negative: VC promotion with the + and - datelines between different nodes",
          "[deadlock][negative]") {
  const torus_topology t({8, 8});
  interlock::vc_promotion_options options;
  options.minus_dateline = 4;  // - dateline between 3 and 4; + between 7 and 0
  const interlock::vc_promotion_routing apart(t, interlock::all_dimension_orders(2), options);
  const cdg_report r = check_deadlock_freedom(apart);
  REQUIRE_FALSE(r.acyclic);
  INFO(interlock::verify::format_cycle(t, r));
  CHECK(witness_problem(apart, r).empty());
  // The proof's assumption is sufficient, not necessary: one node apart
  // (the - dateline between 0 and 1) the graph is still acyclic here.
  options.minus_dateline = 1;
  CHECK(check_deadlock_freedom(
            interlock::vc_promotion_routing(t, interlock::all_dimension_orders(2), options))
            .deadlock_free());
}

TEST_CASE("negative: a T3E initial hop onto a dateline", "[deadlock][negative]") {
  const torus_topology t({5, 4});
  interlock::allowed_routes allowed;
  allowed.initial_hops = true;
  CHECK(check_deadlock_freedom(interlock::direction_order_routing(t, {}, {}, allowed))
            .deadlock_free());
  allowed.initial_onto_dateline = true;
  const interlock::direction_order_routing unsafe(t, {}, {}, allowed);
  const cdg_report r = check_deadlock_freedom(unsafe);
  REQUIRE_FALSE(r.acyclic);
  INFO(interlock::verify::format_cycle(t, r));
  CHECK(witness_problem(unsafe, r).empty());
}

TEST_CASE("negative: dimension order with several orders on two VCs", "[deadlock][negative]") {
  // Why Anton 2 needs VC promotion: XY and YX routes on the same VCs turn
  // both ways, so even a mesh has a cycle.
  const torus_topology mesh({3, 3}, {false, false});
  const interlock::dimension_order_routing both(mesh, interlock::all_dimension_orders(2));
  const cdg_report r = check_deadlock_freedom(both);
  REQUIRE_FALSE(r.acyclic);
  INFO(interlock::verify::format_cycle(mesh, r));
  CHECK(witness_problem(both, r).empty());
  CHECK(check_deadlock_freedom(
            interlock::vc_promotion_routing(mesh, interlock::all_dimension_orders(2)))
            .deadlock_free());
}

TEST_CASE("every class is checked, with its own VCs", "[deadlock]") {
  const torus_topology t({5, 5});
  const interlock::dimension_order_routing dor(t);
  cdg_options response;
  response.classes = {traffic_class::response};
  const cdg_report r = check_deadlock_freedom(dor, response);
  CHECK(r.deadlock_free());
  CHECK(r.vcs_used == std::array<unsigned, 2>{0, 2});
  response.vc_limit = 1;
  const cdg_report one = check_deadlock_freedom(dor, response);
  REQUIRE_FALSE(one.acyclic);
  for (const auto& d : one.cycle) {
    CHECK(d.from.vc == 2);  // the response class's first VC
    CHECK(d.route.cls == traffic_class::response);
  }
}

TEST_CASE("check_deadlock_freedom: bad options name the field", "[deadlock][config]") {
  const torus_topology t({4, 4});
  const interlock::dimension_order_routing dor(t);
  CHECK_THROWS_WITH(check_deadlock_freedom(dor, request_only(3)),
                    Catch::Contains("vc_limit = 3; allowed: 0..2"));
  cdg_options none;
  none.classes.clear();
  CHECK_THROWS_WITH(check_deadlock_freedom(dor, none), Catch::Contains("classes = none"));
  cdg_options twice;
  twice.classes = {traffic_class::request, traffic_class::request};
  CHECK_THROWS_WITH(check_deadlock_freedom(dor, twice), Catch::Contains("request twice"));
}

TEST_CASE("route_resources replays the route the checker names", "[deadlock]") {
  const torus_topology t({4, 4, 4});
  const interlock::vc_promotion_routing anton(t, interlock::all_dimension_orders(3));
  const node_id src = t.node({3, 1, 0}), dst = t.node({1, 2, 3});
  std::size_t choice = 0;
  anton.for_each_start(src, dst, traffic_class::request, [&](auto s, double) {
    const recorded_route recorded = record(anton, src, s);
    const auto replayed =
        interlock::verify::route_resources(anton, {src, dst, traffic_class::request, choice++});
    REQUIRE(replayed.size() == recorded.hops.size());
    for (std::size_t i = 0; i < replayed.size(); ++i) {
      const auto& [from, h] = recorded.hops[i];
      CHECK(replayed[i] == cdg_resource{t.channel({from, h.dimension, h.sign, h.slice}), h.vc});
    }
  });
  CHECK(choice == 6);
  CHECK(interlock::verify::route_resources(anton, {src, dst, traffic_class::request, 6}).empty());
}

// ---- adaptive routing ------------------------------------------------------

namespace {
// Checks an indirect dependency of Duato's extended graph on its own terms:
// the route takes `from` into node v, and `to` is the escape hop of a fresh
// route to the same destination from a node w that profitable hops reach
// from v (w on a minimal path from v to the destination, w != v).
std::string indirect_problem(const interlock::t3e_adaptive_routing& a,
                             const interlock::verify::cdg_dependency& d) {
  const torus_topology& t = a.topology();
  const auto resources = interlock::verify::route_resources(a, d.route);
  if (std::find(resources.begin(), resources.end(), d.from) == resources.end())
    return "the route does not take `from`";
  const auto from = t.channel_info(d.from.channel);
  const node_id v = t.neighbor(from.node, from.dimension, from.sign);
  const node_id w = t.channel_info(d.to.channel).node;
  const node_id dst = d.route.destination;
  if (w == v || t.distance(v, w) + t.distance(w, dst) != t.distance(v, dst))
    return "w is not beyond v on a minimal path";
  auto s = a.start_with(w, dst, d.route.cls);
  const hop h = a.next(w, s);
  if (!(cdg_resource{t.channel({w, h.dimension, h.sign, h.slice}), h.vc} == d.to))
    return "`to` is not the escape hop from w";
  return {};
}

// An adaptive scheme with one thing wrong, for the checks that must catch it.
struct broken_adaptive : interlock::t3e_adaptive_routing {
  enum class flaw { no_escape, backwards_hop } what;
  broken_adaptive(const torus_topology& t, flaw f) : t3e_adaptive_routing(t), what(f) {}
  std::size_t candidates(node_id at, const state& s, hop* out) const {
    std::size_t n = t3e_adaptive_routing::candidates(at, s, out);
    if (what == flaw::no_escape) {
      std::rotate(out, out + 1, out + n);  // the escape hop is no longer first
    } else {
      out[n++] = hop{0, +1, 0, adaptive_vc(), true};
      out[n++] = hop{0, -1, 0, adaptive_vc(), true};  // one of the two takes the packet away
    }
    return n;
  }
};
}  // namespace

TEST_CASE("Section 5: T3E adaptive routing, escape network and whole-packet rule",
          "[deadlock][adaptive]") {
  using interlock::verify::adaptive_flow_control;
  for (const torus_topology& t :
       {torus_topology({4, 4, 4}), torus_topology({5, 3}, {true, false})}) {
    INFO(name(t));
    const interlock::t3e_adaptive_routing adaptive(t);
    const auto whole = interlock::verify::check_adaptive_deadlock_freedom(
        adaptive, adaptive_flow_control::whole_packet);
    CHECK(whole.deadlock_free());
    CHECK(whole.escape.deadlock_free());
    CHECK(whole.escape_always_offered);
    CHECK(whole.adaptive_profitable);
    CHECK(whole.continues_as_fresh_route);
    CHECK(whole.problem.empty());
    CHECK(whole.adaptive_resources > 0);
    // Under wormhole flow control a packet can hold an escape channel while
    // its head wanders on adaptive VCs: Duato's extended graph has a cycle
    // through such indirect dependencies.
    const auto worm = interlock::verify::check_adaptive_deadlock_freedom(
        adaptive, adaptive_flow_control::wormhole);
    CHECK(worm.escape.deadlock_free());
    REQUIRE_FALSE(worm.extended.acyclic);
    CHECK_FALSE(worm.deadlock_free());
    INFO(interlock::verify::format_cycle(t, worm.extended));
    bool some_indirect = false;
    const auto& cycle = worm.extended.cycle;
    for (std::size_t i = 0; i < cycle.size(); ++i) {
      CHECK(cycle[i].to == cycle[(i + 1) % cycle.size()].from);
      if (cycle[i].indirect) {
        some_indirect = true;
        CHECK(indirect_problem(adaptive, cycle[i]).empty());
      } else {
        const auto r = interlock::verify::route_resources(adaptive, cycle[i].route);
        bool taken = false;
        for (std::size_t h = 0; h + 1 < r.size(); ++h)
          taken |= r[h] == cycle[i].from && r[h + 1] == cycle[i].to;
        CHECK(taken);
      }
    }
    CHECK(some_indirect);
  }
}

TEST_CASE("adaptive checks catch a missing escape and an unprofitable hop",
          "[deadlock][adaptive][negative]") {
  using interlock::verify::adaptive_flow_control;
  const torus_topology t({4, 4});
  const auto no_escape = interlock::verify::check_adaptive_deadlock_freedom(
      broken_adaptive(t, broken_adaptive::flaw::no_escape), adaptive_flow_control::whole_packet);
  CHECK_FALSE(no_escape.escape_always_offered);
  CHECK_FALSE(no_escape.deadlock_free());
  CHECK_THAT(no_escape.problem, Catch::Contains("the escape hop is not offered first"));
  const auto backwards = interlock::verify::check_adaptive_deadlock_freedom(
      broken_adaptive(t, broken_adaptive::flaw::backwards_hop),
      adaptive_flow_control::whole_packet);
  CHECK_FALSE(backwards.adaptive_profitable);
  CHECK_FALSE(backwards.deadlock_free());
  CHECK_THAT(backwards.problem, Catch::Contains("is not a profitable adaptive hop"));
}

// ---- a scheme of the user's own -------------------------------------------

namespace {
// Clockwise only round every ring, in dimension order, with a dateline VC
// when `datelines` (the example of docs/verify/deadlock.md).
struct clockwise_routing {
  struct state {
    node_id destination;
    std::uint8_t vc;
    std::uint8_t cls;
    std::uint8_t dimension;
    std::uint8_t unused;  // no padding: the checker can remember states
  };
  torus_topology torus;
  bool datelines = true;

  const torus_topology& topology() const { return torus; }
  unsigned vcs_per_class() const { return datelines ? 2 : 1; }
  template <class F>
  void for_each_start(node_id, node_id destination, traffic_class c, F&& f) const {
    f(state{destination, 0, static_cast<std::uint8_t>(c), 0, 0}, 1.0);
  }
  bool arrived(node_id at, const state& s) const { return at == s.destination; }
  hop next(node_id at, state& s) const {
    while (torus.ordinate(at, s.dimension) == torus.ordinate(s.destination, s.dimension)) {
      ++s.dimension;
      s.vc = 0;
    }
    if (datelines && torus.is_wrap_hop(at, s.dimension, +1)) s.vc = 1;
    return hop{s.dimension, +1, 0, s.cls * vcs_per_class() + s.vc};
  }
};

// Schemes with bugs the checker must report instead of looping or crashing.
struct broken_routing {
  enum class flaw { off_the_mesh, foreign_vc, forever } what;
  torus_topology torus;
  struct state {
    node_id destination;
  };
  const torus_topology& topology() const { return torus; }
  unsigned vcs_per_class() const { return 1; }
  template <class F>
  void for_each_start(node_id, node_id destination, traffic_class, F&& f) const {
    f(state{destination}, 1.0);
  }
  bool arrived(node_id at, const state& s) const {
    return what != flaw::forever && at == s.destination;
  }
  hop next(node_id, state&) const { return hop{0, +1, 0, what == flaw::foreign_vc ? 1u : 0u}; }
};
}  // namespace

TEST_CASE("a routing scheme of the user's own", "[deadlock][custom]") {
  static_assert(interlock::is_routing_function_v<clockwise_routing>);
  static_assert(!interlock::is_routing_scheme_v<clockwise_routing>);
  static_assert(interlock::verify::detail::memoizable_v<clockwise_routing::state>);
  const torus_topology t({5, 5});
  const cdg_report safe = check_deadlock_freedom(clockwise_routing{t, true});
  CHECK(safe.deadlock_free());
  CHECK(safe.vcs_used == std::array<unsigned, 2>{2, 2});
  const clockwise_routing one_vc{t, false};
  const cdg_report unsafe = check_deadlock_freedom(one_vc);
  REQUIRE_FALSE(unsafe.acyclic);
  CHECK(unsafe.cycle.size() == 5);  // round one ring
  CHECK(witness_problem(one_vc, unsafe).empty());
}

TEST_CASE("a broken scheme is reported, not followed forever", "[deadlock][custom]") {
  const torus_topology mesh({4}, {false});
  const cdg_report off =
      check_deadlock_freedom(broken_routing{broken_routing::flaw::off_the_mesh, mesh});
  CHECK_FALSE(off.routes_arrive);
  CHECK_FALSE(off.deadlock_free());
  CHECK_THAT(off.route_problem, Catch::Contains("leaves the network at (3)"));
  const torus_topology ring({4});
  const cdg_report foreign =
      check_deadlock_freedom(broken_routing{broken_routing::flaw::foreign_vc, ring});
  CHECK_FALSE(foreign.routes_arrive);
  CHECK_THAT(foreign.route_problem, Catch::Contains("outside the request class's VCs 0..0"));
  const cdg_report forever =
      check_deadlock_freedom(broken_routing{broken_routing::flaw::forever, ring});
  CHECK_FALSE(forever.routes_arrive);
  CHECK_THAT(forever.route_problem, Catch::Contains("comes back to"));
}

// ---- properties over random topologies and scheme parameters --------------

TEST_CASE("the library's routing states can be remembered byte for byte", "[deadlock]") {
  // No padding, so the checker stops a route where an earlier one in the
  // same state went on (see state_memo).
  STATIC_REQUIRE(
      interlock::verify::detail::memoizable_v<interlock::dimension_order_routing::state>);
  STATIC_REQUIRE(
      interlock::verify::detail::memoizable_v<interlock::direction_order_routing::state>);
  STATIC_REQUIRE(interlock::verify::detail::memoizable_v<interlock::vc_promotion_routing::state>);
}

namespace {
// A random topology for the properties: n = 1..3, small enough that a
// scheme with every extra stays quick, with 1 or 2 slices.
torus_topology random_topology() {
  const auto n = *rc::gen::inRange<std::size_t>(1, 4);
  const std::size_t max_k = n == 3 ? 4 : 6;
  std::vector<std::size_t> radix;
  std::vector<bool> wrap;
  for (std::size_t d = 0; d < n; ++d) {
    radix.push_back(*rc::gen::inRange<std::size_t>(2, max_k + 1));
    wrap.push_back(*rc::gen::arbitrary<bool>());
  }
  return torus_topology(radix, wrap, *rc::gen::inRange<std::size_t>(1, 3));
}

std::vector<interlock::dimension_sequence> random_orders(std::size_t n) {
  std::vector<interlock::dimension_sequence> all = interlock::all_dimension_orders(n), some;
  const auto mask = *rc::gen::inRange<std::uint32_t>(1, 1u << all.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    if ((mask >> i & 1u) != 0) some.push_back(all[i]);
  return some;
}

// The topology with dimension d made a ring of the given radix.
torus_topology with_ring(const torus_topology& t, std::size_t d, std::size_t k) {
  std::vector<std::size_t> radix = t.radices();
  std::vector<bool> wrap;
  for (std::size_t i = 0; i < t.dimensions(); ++i) wrap.push_back(t.wraps(i));
  radix[d] = k;
  wrap[d] = true;
  return torus_topology(radix, wrap, t.slices());
}

template <class Scheme>
void require_caught(const Scheme& scheme, const cdg_options& options) {
  const cdg_report r = check_deadlock_freedom(scheme, options);
  RC_ASSERT(r.routes_arrive);
  RC_ASSERT(!r.acyclic);
  const std::string problem = witness_problem(scheme, r, options.vc_limit);
  RC_ASSERT(problem.empty());
}
}  // namespace

TEST_CASE("every scheme that claims deadlock freedom is acyclic", "[deadlock][property]") {
  rc::prop("random topologies, orders, route extras and VC tables", [] {
    const torus_topology t = random_topology();
    const std::size_t n = t.dimensions();
    cdg_report r;
    unsigned per_class = 0;
    switch (*rc::gen::inRange(0, 4)) {
      case 0: {  // dimension order: one order per network (several need promotion)
        const interlock::dimension_order_routing dor(
            t, {*rc::gen::elementOf(interlock::all_dimension_orders(n))});
        r = check_deadlock_freedom(dor, request_only());
        per_class = dor.vcs_per_class();
        break;
      }
      case 1: {  // T3E with any extras, time-of-crossing or optimized tables
        interlock::allowed_routes allowed;
        allowed.other_way = *rc::gen::arbitrary<bool>();
        allowed.initial_hops = *rc::gen::arbitrary<bool>();
        allowed.final_hop = *rc::gen::arbitrary<bool>();
        std::vector<interlock::ring_vc_assignment> tables;
        if (*rc::gen::arbitrary<bool>()) {
          interlock::vc_optimizer_options options;
          options.seed = *rc::gen::arbitrary<std::uint64_t>();
          options.iterations = 2000;
          options.routes = allowed.other_way || allowed.final_hop
                               ? interlock::vc_routes::every_route
                               : interlock::vc_routes::minimal;
          for (std::size_t d = 0; d < n; ++d)
            tables.push_back(interlock::optimize_vc_assignment(t.radix(d), 8, options));
        }
        const interlock::direction_order_routing t3e(t, {}, tables, allowed);
        r = check_deadlock_freedom(t3e, request_only());
        per_class = t3e.vcs_per_class();
        break;
      }
      default: {  // VC promotion or the 2n baseline, any set of orders
        const interlock::vc_promotion_routing scheme(
            t, random_orders(n),
            *rc::gen::element(interlock::vc_scheme::promotion,
                              interlock::vc_scheme::per_dimension));
        r = check_deadlock_freedom(scheme, request_only());
        per_class = scheme.vcs_per_class();
        break;
      }
    }
    RC_ASSERT(r.deadlock_free());
    RC_ASSERT(r.vcs_used[0] <= per_class);
  });
}

TEST_CASE("every mutation that breaks an assumption of the proofs is caught",
          "[deadlock][property][negative]") {
  // Each mutation on a topology where it does deadlock. The conditions are
  // the proofs' own: one VC fails on a ring of five nodes or more (smaller
  // rings need none, see above); non-minimal routes and misplaced datelines
  // need a second ring for the cycle to turn through, since leaving a
  // dimension without crossing its dateline always takes a new VC.
  rc::prop(
      "one VC per class, no dateline, one VC too few, non-minimal routes, datelines "
      "apart, an initial hop onto a dateline",
      [] {
        const torus_topology base = random_topology();
        const std::size_t n = base.dimensions();
        const auto d = *rc::gen::inRange<std::size_t>(0, n);
        const torus_topology t = with_ring(base, d, *rc::gen::inRange<std::size_t>(5, 7));
        const auto orders = interlock::all_dimension_orders(n);
        switch (*rc::gen::inRange(0, 7)) {
          case 0:
            require_caught(interlock::dimension_order_routing(t), request_only(1));
            break;
          case 1:
            require_caught(interlock::dimension_order_routing(t, {}, {false}), request_only());
            break;
          case 2:
            require_caught(interlock::vc_promotion_routing(t, orders),
                           request_only(static_cast<unsigned>(n)));
            break;
          case 3:
            require_caught(
                interlock::vc_promotion_routing(t, orders, interlock::vc_scheme::per_dimension),
                request_only(static_cast<unsigned>(2 * n - 1)));
            break;
          case 4: {
            RC_PRE(n >= 2);
            interlock::vc_promotion_options options;
            options.non_minimal_routes = true;
            const auto e = (d + *rc::gen::inRange<std::size_t>(1, n)) % n;
            const torus_topology two = with_ring(t, e, *rc::gen::inRange<std::size_t>(4, 6));
            require_caught(interlock::vc_promotion_routing(two, orders, options), request_only());
            break;
          }
          case 5: {
            // Two rings of the same radix k, the - datelines s nodes
            // round from the + ones, 2 <= s <= k - 3 (one node off, or
            // two the other way, the checker finds no cycle).
            RC_PRE(n >= 2);
            const std::size_t k = t.radix(d);
            const auto e = (d + *rc::gen::inRange<std::size_t>(1, n)) % n;
            interlock::vc_promotion_options options;
            options.minus_dateline = *rc::gen::inRange<std::size_t>(2, k - 2);
            require_caught(interlock::vc_promotion_routing(with_ring(t, e, k), orders, options),
                           request_only());
            break;
          }
          default: {
            interlock::allowed_routes allowed;
            allowed.initial_hops = allowed.initial_onto_dateline = true;
            require_caught(interlock::direction_order_routing(t, {}, {}, allowed), request_only());
            break;
          }
        }
      });
}

namespace {
// The same scheme with a state the checker cannot remember (it has
// padding), so every route is walked to its end.
template <class Scheme>
struct walked_in_full {
  struct state {
    typename Scheme::state inner;
    std::uint8_t flag;  // followed by padding
  };
  static_assert(!interlock::verify::detail::memoizable_v<state>);
  Scheme scheme;
  const torus_topology& topology() const { return scheme.topology(); }
  unsigned vcs_per_class() const { return scheme.vcs_per_class(); }
  template <class F>
  void for_each_start(node_id source, node_id destination, traffic_class c, F&& f) const {
    scheme.for_each_start(source, destination, c, [&](const typename Scheme::state& s, double p) {
      f(state{s, 0}, p);
    });
  }
  bool arrived(node_id at, const state& s) const { return scheme.arrived(at, s.inner); }
  hop next(node_id at, state& s) const { return scheme.next(at, s.inner); }
};
}  // namespace

TEST_CASE("remembering states changes nothing in the graph", "[deadlock][property]") {
  rc::prop("the same resources, dependencies and verdict, walked in full or not", [] {
    const torus_topology t = random_topology();
    const interlock::vc_promotion_routing anton(t, random_orders(t.dimensions()));
    interlock::allowed_routes extras{true, true, true};
    const interlock::direction_order_routing t3e(t, {}, {}, extras);
    const auto vcs = *rc::gen::inRange<unsigned>(0, 3);
    cdg_options options = request_only(vcs);
    const auto compare = [&](const auto& scheme) {
      const cdg_report remembered = check_deadlock_freedom(scheme, options);
      const cdg_report full =
          check_deadlock_freedom(walked_in_full<std::decay_t<decltype(scheme)>>{scheme}, options);
      RC_ASSERT(remembered.routes == full.routes);
      RC_ASSERT(remembered.resources == full.resources);
      RC_ASSERT(remembered.dependencies == full.dependencies);
      RC_ASSERT(remembered.acyclic == full.acyclic);
      RC_ASSERT(remembered.vcs_used == full.vcs_used);
      RC_ASSERT(remembered.hops <= full.hops);
    };
    compare(anton);
    compare(t3e);
  });
}

namespace {
// Kahn's algorithm: a directed graph is acyclic exactly when repeatedly
// removing vertices without incoming edges removes them all. Independent of
// the checker's depth-first search.
bool acyclic_by_kahn(const std::vector<std::vector<std::uint64_t>>& adjacency) {
  std::vector<std::size_t> indegree(adjacency.size(), 0);
  for (const auto& out : adjacency)
    for (std::uint64_t w : out) ++indegree[static_cast<std::size_t>(w)];
  std::vector<std::size_t> ready;
  for (std::size_t v = 0; v < adjacency.size(); ++v)
    if (indegree[v] == 0) ready.push_back(v);
  std::size_t removed = 0;
  while (!ready.empty()) {
    const std::size_t v = ready.back();
    ready.pop_back();
    ++removed;
    for (std::uint64_t w : adjacency[v])
      if (--indegree[static_cast<std::size_t>(w)] == 0)
        ready.push_back(static_cast<std::size_t>(w));
  }
  return removed == adjacency.size();
}
}  // namespace

TEST_CASE("cycle search agrees with a topological sort on random graphs of every size",
          "[deadlock][property]") {
  rc::prop("a cycle is found exactly when Kahn's algorithm cannot finish, and it is a cycle", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 300);
    const auto edges = *rc::gen::inRange<std::size_t>(0, 2 * n + 1);
    // Mostly forward edges (acyclic), a few backward ones, placed anywhere.
    interlock::verify::detail::adjacency_lists g(n);
    std::vector<std::vector<std::uint64_t>> adjacency(n);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const std::uint64_t backward_one_in = 1 + rng.below(4 * n);
    for (std::size_t e = 0; e < edges; ++e) {
      std::uint64_t a = rng.below(n), b = rng.below(n);
      if (a > b && rng.below(backward_one_in) != 0) std::swap(a, b);
      if (a == b) continue;
      g.add(a, b);
      adjacency[static_cast<std::size_t>(a)].push_back(b);
    }
    RC_ASSERT(g.counts().second <= edges);
    const auto cycle = interlock::verify::detail::find_cycle_in(g);
    RC_ASSERT(cycle.empty() == acyclic_by_kahn(adjacency));
    for (std::size_t i = 0; i < cycle.size(); ++i) {
      const auto& out = adjacency[static_cast<std::size_t>(cycle[i])];
      RC_ASSERT(std::find(out.begin(), out.end(), cycle[(i + 1) % cycle.size()]) != out.end());
    }
  });
  // The only cycle among the last vertices (a search that starts from the
  // first half only would miss it).
  interlock::verify::detail::adjacency_lists late(100);
  for (std::uint64_t v = 0; v + 1 < 97; ++v) late.add(v, v + 1);
  late.add(97, 98);
  late.add(98, 99);
  late.add(99, 97);
  late.add(98, 99);  // (an edge added again is kept once)
  CHECK(late.counts() == std::make_pair(std::size_t{100}, std::size_t{99}));
  CHECK(interlock::verify::detail::find_cycle_in(late).size() == 3);
}

namespace {
// Three nodes, two slices: routes on slice 0 have datelines, routes on
// slice 1 do not, so the only cycle is among slice 1's (later) vertices.
struct sliced_ring {
  struct state {
    node_id destination;
    std::uint8_t slice;
    std::uint8_t vc;
    std::uint8_t unused[2];
  };
  torus_topology torus{{3}, {}, 2};
  const torus_topology& topology() const { return torus; }
  unsigned vcs_per_class() const { return 2; }
  template <class F>
  void for_each_start(node_id, node_id d, traffic_class, F&& f) const {
    f(state{d, 0, 0, {0, 0}}, 0.5);
    f(state{d, 1, 0, {0, 0}}, 0.5);
  }
  bool arrived(node_id at, const state& s) const { return at == s.destination; }
  hop next(node_id at, state& s) const {
    if (s.slice == 0 && torus.is_wrap_hop(at, 0, +1)) s.vc = 1;
    return hop{0, +1, s.slice, s.vc};
  }
};
}  // namespace

TEST_CASE("a ring whose only cycle is on slice 1 is reported", "[deadlock]") {
  const cdg_report r =
      check_deadlock_freedom(sliced_ring{}, cdg_options{0, {traffic_class::request}});
  CHECK_FALSE(r.acyclic);
  REQUIRE_FALSE(r.cycle.empty());
  const torus_topology t({3}, {}, 2);
  for (const auto& d : r.cycle) CHECK(t.channel_info(d.from.channel).slice == 1);
}

TEST_CASE("channel_dependency_graph: every entry point checks its arguments",
          "[deadlock][contract]") {
  const torus_topology t({3});
  interlock::verify::channel_dependency_graph g(t, 2);
  const std::uint64_t v = g.vertex(cdg_resource{0, 1});
  CHECK_THROWS_AS(g.vertex(cdg_resource{0, 2}), interlock::contract_violation);
  CHECK_THROWS_AS(g.vertex(cdg_resource{t.channel_count(), 0}), interlock::contract_violation);
  CHECK_THROWS_AS(g.add_successor(v, 1u << 20), interlock::contract_violation);
  CHECK_THROWS_AS(g.add_successor(g.vertex_count(), 0), interlock::contract_violation);
  CHECK_THROWS_AS(g.add(v, hop{0, +1, 0, 9}), interlock::contract_violation);
  CHECK_THROWS_AS(g.add(g.vertex_count(), v), interlock::contract_violation);
  CHECK_THROWS_AS(g.use(g.vertex_count()), interlock::contract_violation);
  CHECK(g.edge_count() == 0);
}
