// SPDX-License-Identifier: BSL-1.0
// interlock/verify/route_enumeration.hpp: every route of a routing function, walked once.
//
// Contract (what check_deadlock_freedom and the adaptive checks build on;
// everything here is in interlock::verify::detail)
//   - follow_route walks one route with interlock::walk_hops, validating
//     every hop (a channel that exists, a VC of the packet's class) and
//     saturating VCs at options.vc_limit; it returns what went wrong, or
//     nothing when the route arrives.
//   - for_each_route_to enumerates, for one destination, every source and
//     every route for_each_start gives, as enumerated_route.
//   - walk_routes walks them all, with state_memo: next() is a function of
//     the node and the packet's state (the routing contract), so a route
//     that reaches a node in a state an earlier route to the same
//     destination left from goes the same way, and the walk stops there.
//     This needs states that compare byte for byte (trivially copyable, no
//     padding: memoizable_v); other states are walked in full.
//   - find_witness_routes finds a route for every edge of a cycle.
#ifndef INTERLOCK_VERIFY_ROUTE_ENUMERATION_HPP
#define INTERLOCK_VERIFY_ROUTE_ENUMERATION_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/prefetch.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"
#include "interlock/verify/cdg_report.hpp"
#include "interlock/verify/dependency_graph.hpp"

namespace interlock::verify {

// ---- routes ----------------------------------------------------------------

namespace detail {

inline std::string class_name(traffic_class c) {
  return c == traffic_class::request ? "request" : "response";
}

inline void check_options(const char* component, const cdg_options& options, unsigned per_class) {
  interlock::detail::require_in_range(component, "vc_limit", options.vc_limit, 0, per_class);
  if (options.classes.empty())
    throw config_error(component, "classes", "none", "request and/or response, each once");
  for (std::size_t i = 0; i < options.classes.size(); ++i) {
    interlock::detail::require_in_range(
        component, "class", static_cast<unsigned>(options.classes[i]), 0, traffic_classes - 1);
    for (std::size_t j = 0; j < i; ++j)
      if (options.classes[j] == options.classes[i])
        throw config_error(component, "classes", class_name(options.classes[i]) + " twice",
                           "request and/or response, each once");
  }
}

// Whether hop h out of `at` is a real channel with a VC of class cls.
template <class Scheme>
bool hop_is_valid(const Scheme& scheme, node_id at, const hop& h, traffic_class cls) noexcept {
  const torus_topology& t = scheme.topology();
  const unsigned base = static_cast<unsigned>(cls) * scheme.vcs_per_class();
  return h.dimension < t.dimensions() && (h.sign == 1 || h.sign == -1) && h.slice < t.slices() &&
         h.vc >= base && h.vc < base + scheme.vcs_per_class() &&
         t.neighbor(at, h.dimension, h.sign) != no_node;
}

// What is wrong with a hop that is not valid.
template <class Scheme>
std::string hop_problem(const Scheme& scheme, node_id at, const hop& h, traffic_class cls) {
  const torus_topology& t = scheme.topology();
  const unsigned base = static_cast<unsigned>(cls) * scheme.vcs_per_class();
  if (h.dimension >= t.dimensions() || (h.sign != 1 && h.sign != -1) || h.slice >= t.slices())
    return "takes a channel that does not exist at " + describe_node(t, at) + " (dimension " +
           std::to_string(h.dimension) + ", sign " + std::to_string(h.sign) + ", slice " +
           std::to_string(h.slice) + ")";
  if (h.vc < base || h.vc >= base + scheme.vcs_per_class())
    return "takes VC " + std::to_string(h.vc) + " at " + describe_node(t, at) + ", outside the " +
           class_name(cls) + " class's VCs " + std::to_string(base) + ".." +
           std::to_string(base + scheme.vcs_per_class() - 1);
  return "leaves the network at " + describe_node(t, at);
}

inline hop limit_vc(hop h, unsigned base, unsigned vc_limit) noexcept {
  if (vc_limit != 0) h.vc = base + std::min(h.vc - base, vc_limit - 1);
  return h;
}

// Walks one route from `source` in state s: visit(at, state) before each
// hop, on_hop(at, hop) for each hop with its VC limited. Returns an empty
// string when the route arrives, or what went wrong.
template <class Scheme, class Visit, class OnHop>
std::string follow_route(const Scheme& scheme, node_id source, typename Scheme::state s,
                         traffic_class cls, unsigned vc_limit, Visit&& visit, OnHop&& on_hop) {
  const unsigned base = static_cast<unsigned>(cls) * scheme.vcs_per_class();
  std::string problem;
  const walk_end end = walk_hops(scheme, source, s, visit, [&](node_id at, const hop& h) {
    if (!hop_is_valid(scheme, at, h, cls)) {
      problem = hop_problem(scheme, at, h, cls);
      return false;
    }
    on_hop(at, limit_vc(h, base, vc_limit));
    return true;
  });
  if (end == walk_end::hop_limit)
    return "does not arrive within " + std::to_string(hop_limit(scheme.topology())) + " hops";
  return problem;  // empty when the route arrived (an off-network hop is an invalid hop)
}

// Remembers, for the routes to one destination, every (node, state) a
// route has left and the resource it took from there: next() is a function
// of the two, so a later route in the same state at the same node goes the
// same way, and the walk can stop there. Open addressing over the state's
// bytes, so only for states without padding (memoizable_v); reset per
// destination by a generation count, not by clearing.
template <class State>
inline constexpr bool memoizable_v =
    std::is_trivially_copyable_v<State>&& std::has_unique_object_representations_v<State>;

template <class State>
class state_memo {
 public:
  struct alignas(64) entry {  // one cache line for the usual small state
    State state;
    node_id at;
    std::uint32_t generation;
    std::uint32_t route;   // the route (numbered per destination) that left (at, state)
    std::uint32_t key;     // the resource it took, relative to `at`
    std::uint64_t vertex;  // the same, as a vertex
  };
  struct probe {
    const entry* found;  // the entry for (at, state), or null
    std::size_t slot;    // where to insert it otherwise
  };

  state_memo() : table_(std::size_t{1} << 12) {}

  void next_destination() {
    count_ = 0;
    if (++generation_ == 0) {  // wrapped: forget every stamp
      for (entry& e : table_) e.generation = 0;
      generation_ = 1;
    }
  }
  probe find(node_id at, const State& s) const noexcept {
    const std::size_t mask = table_.size() - 1;
    for (std::size_t i = hash(at, s) & mask;; i = (i + 1) & mask) {
      const entry& e = table_[i];
      if (e.generation != generation_) return {nullptr, i};
      if (e.at == at && std::memcmp(&e.state, &s, sizeof(State)) == 0) return {&e, i};
    }
  }
  /// Asks the cache for the slot find(at, s) looks at first.
  void prefetch(node_id at, const State& s) const noexcept {
    interlock::prefetch(&table_[hash(at, s) & (table_.size() - 1)]);
  }
  /// Inserts at the slot find() returned (found nothing) since the last insert.
  void insert(std::size_t slot, node_id at, const State& s, std::uint32_t route, std::uint32_t key,
              std::uint64_t vertex) {
    if (2 * (count_ + 1) > table_.size()) {
      grow();
      slot = find(at, s).slot;
    }
    table_[slot] = {s, at, generation_, route, key, vertex};
    ++count_;
  }

 private:
  static std::size_t hash(node_id at, const State& s) noexcept {
    constexpr std::size_t words = (sizeof(State) + 7) / 8;
    std::uint64_t w[words] = {};
    std::memcpy(w, &s, sizeof(State));
    // Independent products (they pipeline), then one mixing step.
    std::uint64_t h = at;
    for (std::size_t i = 0; i < words; ++i)
      h += (w[i] ^ (0x9E3779B97F4A7C15ull * (i + 1))) * (2 * i + 0xFF51AFD7ED558CCDull);
    h ^= h >> 31;
    h *= 0xC4CEB9FE1A85EC53ull;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
  void grow() {
    std::vector<entry> old(table_.size() * 2);
    old.swap(table_);
    for (entry& e : table_) e.generation = 0;
    for (const entry& e : old) {
      if (e.generation != generation_) continue;
      table_[find(e.at, e.state).slot] = e;
    }
  }

  std::vector<entry> table_;
  std::size_t count_ = 0;
  std::uint32_t generation_ = 1;
};

// Calls f(route, state) for every route of the pairs (every source, to
// `destination`) in class cls. f returns false to stop; so does this.
template <class Scheme, class F>
bool for_each_route_to(const Scheme& scheme, node_id destination, traffic_class cls, F&& f) {
  bool go = true;
  for (node_id source = 0; go && source < scheme.topology().node_count(); ++source) {
    if (source == destination) continue;
    enumerated_route route{source, destination, cls, 0};
    scheme.for_each_start(source, destination, cls, [&](const typename Scheme::state& s, double) {
      if (go) go = f(route, s);
      ++route.choice;
    });
  }
  return go;
}

// for_each_route_to for a scheme with memoizable states: the routes of each
// source are gathered (into `now` and `ahead`, kept by the caller so that
// they allocate only while they grow) and the memo's first slot for each
// route's second node is asked for while the routes of the source before
// are walked, so that the walk's first look at the memo finds it in cache.
template <class Scheme, class Memo, class Routes, class F>
bool for_each_route_prefetched(const Scheme& scheme, node_id destination, traffic_class cls,
                               unsigned base, unsigned vc_limit, const Memo& memo, Routes& now,
                               Routes& ahead, F&& f) {
  using state = typename Scheme::state;
  const torus_topology& t = scheme.topology();
  const auto next_source = [&](node_id s) { return s + 1 == destination ? s + 2 : s + 1; };
  const auto gather = [&](node_id source, Routes& into) {
    into.clear();
    if (source >= t.node_count()) return;
    enumerated_route route{source, destination, cls, 0};
    scheme.for_each_start(source, destination, cls, [&](const state& s, double) {
      into.emplace_back(route, s);
      ++route.choice;
    });
    for (const auto& r : into) {
      state s = r.second;
      if (scheme.arrived(source, s)) continue;
      const hop h = limit_vc(scheme.next(source, s), base, vc_limit);
      if (hop_is_valid(scheme, source, h, cls))
        memo.prefetch(t.neighbor(source, h.dimension, h.sign), s);
    }
  };
  node_id source = destination == 0 ? 1 : 0;
  gather(source, now);
  while (source < t.node_count()) {
    const node_id following = next_source(source);
    gather(following, ahead);
    for (const auto& r : now)
      if (!f(r.first, r.second)) return false;
    now.swap(ahead);
    source = following;
  }
  return true;
}

// Walks every route: on_hop(previous vertex or none, vertex, hop, route)
// for every hop walked, on_join(previous vertex, vertex, key, route) where a
// route joins one walked before (memoizable states only) and stops,
// on_route(route, problem) after every route, which returns false to stop.
// The routes go by items, one per class and destination (item i: class
// options.classes[i / nodes], destination i % nodes), in the order
// next_item() gives them (an item past the last ends the walk): every item
// in order walks every route once; threads that share out the items, each
// with its own callbacks, walk each route once between them. An item's
// walk does not depend on the items before it.
inline constexpr std::uint64_t no_vertex = ~std::uint64_t{0};

/// The items of for_each_dependency, one after another.
struct items_in_order {
  std::size_t next = 0;
  std::size_t operator()() noexcept { return next++; }
};

template <class Scheme, class NextItem, class OnHop, class OnJoin, class OnRoute>
void for_each_dependency(const Scheme& scheme, const cdg_options& options,
                         const channel_dependency_graph& g, NextItem&& next_item, OnHop&& on_hop,
                         OnJoin&& on_join, OnRoute&& on_route) {
  using state = typename Scheme::state;
  const torus_topology& t = scheme.topology();
  [[maybe_unused]] state_memo<std::conditional_t<memoizable_v<state>, state, char>> memo;
  [[maybe_unused]] std::vector<std::pair<enumerated_route, state>> now, ahead;
  std::uint32_t route_number = 0;  // per destination
  const std::size_t nodes = t.node_count(), items = options.classes.size() * nodes;
  for (std::size_t item = next_item(); item < items; item = next_item()) {
    const traffic_class cls = options.classes[item / nodes];
    const unsigned base = static_cast<unsigned>(cls) * scheme.vcs_per_class();
    const node_id destination = static_cast<node_id>(item % nodes);
    if constexpr (memoizable_v<state>) memo.next_destination();
    route_number = 0;
    const auto walk = [&](const enumerated_route& route, const state& start) {
      ++route_number;
      std::uint64_t previous = no_vertex;
      std::string problem;
      if constexpr (memoizable_v<state>) {
        // Routes start in distinct states, so the walk looks only
        // from the second node on.
        state s = start;
        node_id at = route.source;
        for (std::size_t hops = 0; problem.empty() && !scheme.arrived(at, s); ++hops) {
          typename state_memo<state>::probe p{nullptr, 0};
          if (hops != 0) {
            p = memo.find(at, s);
            if (p.found != nullptr) {
              if (p.found->route == route_number) {
                problem = "comes back to " + describe_node(t, at) + " in the same state";
              } else if (p.found->vertex != no_vertex) {
                on_join(previous, p.found->vertex, p.found->key, route);
              }
              break;
            }
          }
          if (hops == hop_limit(t)) {
            problem = "does not arrive within " + std::to_string(hops) + " hops";
            break;
          }
          const state before = s;
          const hop h = limit_vc(scheme.next(at, s), base, options.vc_limit);
          const bool valid = hop_is_valid(scheme, at, h, cls);
          const std::uint64_t v = valid ? g.vertex(at, h) : no_vertex;
          if (hops != 0)
            memo.insert(p.slot, at, before, route_number,
                        valid ? static_cast<std::uint32_t>(g.key(h)) : 0u, v);
          if (!valid) {
            problem = hop_problem(scheme, at, h, cls);
            break;
          }
          on_hop(previous, v, h, route);
          previous = v;
          at = t.neighbor(at, h.dimension, h.sign);
        }
      } else {
        problem = follow_route(
            scheme, route.source, start, cls, options.vc_limit, [](node_id, const state&) {},
            [&](node_id at, const hop& h) {
              const std::uint64_t v = g.vertex(at, h);
              on_hop(previous, v, h, route);
              previous = v;
            });
      }
      return on_route(route, problem);
    };
    bool go = true;
    if constexpr (memoizable_v<state>)
      go = for_each_route_prefetched(scheme, destination, cls, base, options.vc_limit, memo, now,
                                     ahead, walk);
    else
      go = for_each_route_to(scheme, destination, cls, walk);
    if (!go) return;
  }
}

// The witness routes: the first route found for each edge of the cycle.
template <class Enumerate>
void find_witness_routes(unsigned vcs, std::vector<cdg_dependency>& cycle, Enumerate&& enumerate) {
  const auto vertex = [vcs](const cdg_resource& r) { return r.channel * vcs + r.vc; };
  std::vector<std::pair<std::uint64_t, std::size_t>> from;  // (vertex, index in cycle), sorted
  for (std::size_t i = 0; i < cycle.size(); ++i) from.emplace_back(vertex(cycle[i].from), i);
  std::sort(from.begin(), from.end());
  std::vector<bool> found(cycle.size(), false);
  std::size_t missing = cycle.size();
  enumerate([&](std::uint64_t a, std::uint64_t b, const enumerated_route& route, bool indirect) {
    const auto it = std::lower_bound(from.begin(), from.end(), std::make_pair(a, std::size_t{0}));
    if (it == from.end() || it->first != a) return missing != 0;
    const std::size_t i = it->second;
    if (!found[i] && vertex(cycle[i].to) == b) {
      found[i] = true;
      --missing;
      cycle[i].route = route;
      cycle[i].indirect = indirect;
    }
    return missing != 0;
  });
}

template <class Graph>
void record_cycle(const Graph& g, unsigned vcs, cdg_report& report) {
  const std::vector<std::uint64_t> vertices = find_cycle_in(g);
  report.acyclic = vertices.empty();
  const auto resource = [vcs](std::uint64_t v) {
    return cdg_resource{v / vcs, static_cast<unsigned>(v % vcs)};
  };
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    report.cycle.push_back(
        {resource(vertices[i]), resource(vertices[(i + 1) % vertices.size()]), {}, false});
  }
}

}  // namespace detail

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_ROUTE_ENUMERATION_HPP
