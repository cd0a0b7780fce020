// SPDX-License-Identifier: BSL-1.0
// interlock/verify/channel_dependency_graph.hpp: deadlock freedom of a routing scheme.
//
// Dally and Seitz's condition: deterministic routing on a wormhole network
// is free of deadlock when the channel dependency graph is acyclic. A vertex
// of the graph is a resource a packet holds while it waits for the next one,
// here a (directed channel, VC) pair; an edge A -> B says that some route
// takes B right after A, so a packet can hold A while waiting for B. Every
// cycle is a set of packets that can each wait for the next one's resource.
//
// Contract
//   - check_deadlock_freedom(scheme, options) enumerates, for every traffic
//     class in options.classes, every ordered pair of distinct nodes and
//     every route the scheme's for_each_start gives for the pair (orders,
//     slices, route tags, initial and final hops: whatever the scheme
//     enumerates), walks each route with the scheme's own next(), and adds
//     the dependency between every two consecutive hops. Classes use
//     disjoint VCs, so the one graph is the union of the per-class graphs.
//   - The report says whether the graph is acyclic, how many VCs of each
//     class the routes use, the graph's size, and either nothing more or a
//     witness cycle whose every edge names a route that creates it
//     (enumerated_route: source, destination, class and the index of the
//     route among for_each_start's; route_resources() replays it).
//   - A route that does not arrive within hop_limit hops, leaves a mesh,
//     names a channel or slice that does not exist or a VC outside its
//     class's range makes routes_arrive false, with the first such route
//     and what went wrong; deadlock_free() needs both.
//   - options.vc_limit = m > 0 gives every class only m VCs: a hop the
//     scheme puts on VC v (within its class) is taken on min(v, m - 1), as
//     if the hardware had m VCs and saturated the VC number. config_error
//     unless 0 <= m <= vcs_per_class(), or for an empty or repeated class.
//   - next() is a function of the node and the packet's state (the routing
//     contract), so a route to a destination that reaches a node in a state
//     an earlier route to it left from goes the same way: the walk adds the
//     dependency into that hop and stops. This needs states that compare
//     byte for byte (trivially copyable, no padding: detail::memoizable_v);
//     other states are walked in full. report.hops counts the hops walked.
//   - options.threads = n > 1 walks the routes on n threads, the
//     destinations shared out among them, each with its own graph and
//     remembered states; the report is the one thread's field by field
//     (a failing route: the first in the order class, destination, source,
//     route). config_error unless 1 <= n <= 256.
//   - Cycle detection is an iterative depth-first search (no recursion, so
//     no depth limit on large tori); the graph keeps one bit per possible
//     edge: vertices x ceil(2n x slices x VCs / 64) words of memory.
//   - The report prints with describe() and format_cycle()
//     (verify/cdg_report.hpp); adaptive routing is checked by
//     verify/adaptive_deadlock.hpp.
//
// Example
//   interlock::torus_topology t({4, 4, 4}, {}, 2);
//   interlock::vc_promotion_routing anton(t, interlock::all_dimension_orders(3));
//   auto report = interlock::verify::check_deadlock_freedom(anton);
//   if (!report.deadlock_free()) std::cout << interlock::verify::format_cycle(t, report);
#ifndef INTERLOCK_VERIFY_CHANNEL_DEPENDENCY_GRAPH_HPP
#define INTERLOCK_VERIFY_CHANNEL_DEPENDENCY_GRAPH_HPP

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"
#include "interlock/verify/cdg_report.hpp"
#include "interlock/verify/dependency_graph.hpp"
#include "interlock/verify/route_enumeration.hpp"

namespace interlock::verify {

/// Builds the channel dependency graph of every route the scheme gives and
/// looks for a cycle. See the contract at the top of this header.
namespace detail {

/// What one thread's share of the walk found: its graph, its counts and
/// its first route that does not arrive, by item and then route order.
struct cdg_part {
  channel_dependency_graph graph;
  std::array<unsigned, traffic_classes> vcs_used{};
  std::uint64_t routes = 0, hops = 0;
  bool failed = false;
  std::size_t failed_item = 0;
  enumerated_route failed_route;
  std::string problem;

  /// Whether (item, route) comes before this part's failure.
  bool earlier(std::size_t item, const enumerated_route& r) const noexcept {
    if (!failed || item != failed_item) return !failed || item < failed_item;
    return r.source != failed_route.source ? r.source < failed_route.source
                                           : r.choice < failed_route.choice;
  }
};

/// Walks the items next_item() gives into `part`.
template <class Scheme, class NextItem>
void walk_part(const Scheme& scheme, const cdg_options& options, cdg_part& part,
               NextItem&& next_item) {
  const unsigned per_class = scheme.vcs_per_class();
  const std::size_t nodes = scheme.topology().node_count();
  channel_dependency_graph& g = part.graph;
  for_each_dependency(
      scheme, options, g, next_item,
      [&](std::uint64_t from, std::uint64_t to, const hop& h, const enumerated_route& route) {
        g.use(to);
        if (from != no_vertex) g.add(from, h);
        const unsigned within = h.vc - static_cast<unsigned>(route.cls) * per_class;
        unsigned& used = part.vcs_used[static_cast<std::size_t>(route.cls)];
        used = std::max(used, within + 1);
        ++part.hops;
      },
      [&](std::uint64_t from, std::uint64_t, std::uint64_t key, const enumerated_route&) {
        if (from != no_vertex) g.add_successor(from, key);
      },
      [&](const enumerated_route& route, const std::string& problem) {
        ++part.routes;
        if (problem.empty()) return true;
        const std::size_t position = static_cast<std::size_t>(
            std::find(options.classes.begin(), options.classes.end(), route.cls) -
            options.classes.begin());
        const std::size_t item = position * nodes + route.destination;
        if (part.earlier(item, route)) {
          part.failed = true;
          part.failed_item = item;
          part.failed_route = route;
          part.problem = problem;
        }
        return true;
      });
}

}  // namespace detail

/// Builds the channel dependency graph of every route the scheme gives and
/// looks for a cycle. See the contract at the top of this header.
template <class Scheme>
cdg_report check_deadlock_freedom(const Scheme& scheme, const cdg_options& options = {}) {
  static_assert(require_routing_function<Scheme>(),
                "check_deadlock_freedom needs a routing function");
  const unsigned per_class = scheme.vcs_per_class();
  detail::check_options("check_deadlock_freedom", options, per_class);
  interlock::detail::require_in_range("check_deadlock_freedom", "threads", options.threads, 1, 256);
  const channel_dependency_graph empty(scheme.topology(), traffic_classes * per_class);
  std::vector<detail::cdg_part> parts(options.threads,
                                      detail::cdg_part{empty, {}, 0, 0, false, 0, {}, {}});
  if (parts.size() == 1) {
    detail::walk_part(scheme, options, parts[0], detail::items_in_order{});
  } else {
    // Each thread takes the next destination not taken yet.
    std::atomic<std::size_t> next{0};
    const auto take = [&next] { return next.fetch_add(1, std::memory_order_relaxed); };
    std::vector<std::thread> threads;
    std::vector<std::exception_ptr> errors(parts.size());
    for (std::size_t k = 1; k < parts.size(); ++k)
      threads.emplace_back([&, k] {
        try {
          detail::walk_part(scheme, options, parts[k], take);
        } catch (...) {
          errors[k] = std::current_exception();
        }
      });
    try {
      detail::walk_part(scheme, options, parts[0], take);
    } catch (...) {
      errors[0] = std::current_exception();
    }
    for (std::thread& th : threads) th.join();
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
  }
  channel_dependency_graph& g = parts[0].graph;
  cdg_report report;
  const detail::cdg_part* failure = nullptr;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const detail::cdg_part& part = parts[k];
    if (k != 0) g.merge(part.graph);
    for (std::size_t c = 0; c < traffic_classes; ++c)
      report.vcs_used[c] = std::max(report.vcs_used[c], part.vcs_used[c]);
    report.routes += part.routes;
    report.hops += part.hops;
    if (part.failed &&
        (failure == nullptr || failure->earlier(part.failed_item, part.failed_route)))
      failure = &part;
  }
  if (failure != nullptr) {
    report.routes_arrive = false;
    report.failed_route = failure->failed_route;
    report.route_problem = failure->problem;
  }
  report.resources = g.used_count();
  report.dependencies = g.edge_count();
  detail::record_cycle(g, g.vcs(), report);
  if (!report.cycle.empty() && options.witness_routes) {
    detail::find_witness_routes(g.vcs(), report.cycle, [&](auto&& on_edge) {
      bool go = true;
      detail::for_each_dependency(
          scheme, options, g, detail::items_in_order{},
          [&](std::uint64_t from, std::uint64_t to, const hop&, const enumerated_route& route) {
            if (go && from != detail::no_vertex) go = on_edge(from, to, route, false);
          },
          [&](std::uint64_t from, std::uint64_t to, std::uint64_t, const enumerated_route& route) {
            if (go && from != detail::no_vertex) go = on_edge(from, to, route, false);
          },
          [&](const enumerated_route&, const std::string&) { return go; });
    });
  }
  return report;
}

/// The resources the enumerated route takes, in order, with the VC limit
/// applied (empty when the scheme has no such route).
template <class Scheme>
std::vector<cdg_resource> route_resources(const Scheme& scheme, const enumerated_route& route,
                                          unsigned vc_limit = 0) {
  static_assert(require_routing_function<Scheme>(), "route_resources needs a routing function");
  const torus_topology& t = scheme.topology();
  std::vector<cdg_resource> resources;
  std::size_t choice = 0;
  scheme.for_each_start(
      route.source, route.destination, route.cls, [&](const typename Scheme::state& s, double) {
        if (choice++ != route.choice) return;
        detail::follow_route(
            scheme, route.source, s, route.cls, vc_limit,
            [](node_id, const typename Scheme::state&) {},
            [&](node_id at, const hop& h) {
              resources.push_back({t.channel({at, h.dimension, h.sign, h.slice}), h.vc});
            });
      });
  return resources;
}

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_CHANNEL_DEPENDENCY_GRAPH_HPP
