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
//   - Cycle detection is an iterative depth-first search (no recursion, so
//     no depth limit on large tori); the graph keeps one bit per possible
//     edge: vertices x ceil(2n x slices x VCs / 64) words of memory.
//   - describe() prints a resource in the network's own terms, as
//     "+X (3,0,1)->(4,0,1) VC1" (dimensions X, Y, Z, then D3, D4, ...;
//     " slice 1" is added on a multi-slice topology); format_cycle() prints
//     a witness, one line per dependency with its route.
//
//   Adaptive routing (check_adaptive_deadlock_freedom) is Duato's scheme as
//   the T3E applies it: the deterministic escape routes must be deadlock
//   free on their own, and every state a packet can reach must offer its
//   escape hop, with every adaptive hop profitable so adaptive detours end.
//   Then the flow control decides what else must hold:
//     adaptive_flow_control::whole_packet   the T3E: a packet enters an
//         adaptive VC only when the buffer has room for all of it, so an
//         adaptive VC never holds part of a packet and nothing waits while
//         holding one; the escape graph alone decides.
//     adaptive_flow_control::wormhole       Duato's condition: a packet can
//         hold an escape channel while its head wanders on adaptive VCs and
//         then waits for another escape channel; these indirect dependencies
//         join the direct ones in the extended graph, which must be acyclic.
//   The checker relies on, and verifies route by route, that after an
//   adaptive hop the packet continues as a fresh route from where it is
//   (follow(at, s, adaptive hop) routes like start_with(reached, destination)).
//
// Example
//   interlock::torus_topology t({8, 8, 8}, {}, 2);
//   interlock::vc_promotion_routing anton(t, interlock::all_dimension_orders(3));
//   auto report = interlock::verify::check_deadlock_freedom(anton);
//   if (!report.deadlock_free()) std::cout << interlock::verify::format_cycle(t, report);
#ifndef INTERLOCK_VERIFY_CHANNEL_DEPENDENCY_GRAPH_HPP
#define INTERLOCK_VERIFY_CHANNEL_DEPENDENCY_GRAPH_HPP

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
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock::verify {

/// A vertex of the graph: one VC (absolute, as hop::vc) of a directed channel.
struct cdg_resource {
  channel_id channel = 0;
  unsigned vc = 0;
  friend bool operator==(const cdg_resource& a, const cdg_resource& b) {
    return a.channel == b.channel && a.vc == b.vc;
  }
};

/// A route as the checker enumerates it: the choice-th route that the
/// scheme's for_each_start gives from source to destination in class cls.
struct enumerated_route {
  node_id source = 0;
  node_id destination = 0;
  traffic_class cls = traffic_class::request;
  std::size_t choice = 0;
};

/// One edge of a witness cycle and a route that creates it. An indirect
/// dependency (adaptive wormhole only) is one the route's packet creates by
/// leaving its escape route on adaptive VCs after `from` and coming back to
/// the escape network at `to`.
struct cdg_dependency {
  cdg_resource from;
  cdg_resource to;
  enumerated_route route;
  bool indirect = false;
};

struct cdg_options {
  /// VCs per class the hardware has (0: as many as the scheme uses).
  unsigned vc_limit = 0;
  std::vector<traffic_class> classes{traffic_class::request, traffic_class::response};
  /// Look up a route for every edge of a witness cycle (a second pass).
  bool witness_routes = true;
};

struct cdg_report {
  bool acyclic = true;
  bool routes_arrive = true;
  std::string route_problem;                         // what went wrong with failed_route
  enumerated_route failed_route;                     // valid when !routes_arrive
  std::array<unsigned, traffic_classes> vcs_used{};  // highest VC used in the class, plus one
  std::uint64_t routes = 0;
  std::uint64_t hops = 0;
  std::size_t resources = 0;          // (channel, VC) pairs some route takes
  std::size_t dependencies = 0;       // edges
  std::vector<cdg_dependency> cycle;  // cycle[i].to == cycle[i + 1].from, last to first

  bool deadlock_free() const noexcept { return acyclic && routes_arrive; }
};

namespace detail {

// Iterative depth-first search for a cycle in any graph that offers
// vertex_count(), a cursor over a vertex's successors (first(v),
// advance(cursor, successor)) and has_successor(v). Returns the cycle's
// vertices in order, or nothing. O(vertices + edges), no recursion.
template <class Graph>
std::vector<std::uint64_t> find_cycle_in(const Graph& g) {
  enum : std::uint8_t { unvisited, on_path, finished };
  using cursor = typename Graph::cursor;
  std::vector<std::uint8_t> mark(static_cast<std::size_t>(g.vertex_count()), unvisited);
  std::vector<cursor> path;
  for (std::uint64_t root = 0; root < g.vertex_count(); ++root) {
    if (mark[static_cast<std::size_t>(root)] != unvisited || !g.has_successor(root)) continue;
    mark[static_cast<std::size_t>(root)] = on_path;
    path.push_back(g.first(root));
    while (!path.empty()) {
      std::uint64_t next = 0;
      if (!g.advance(path.back(), next)) {
        mark[static_cast<std::size_t>(path.back().vertex)] = finished;
        path.pop_back();
        continue;
      }
      const std::uint8_t m = mark[static_cast<std::size_t>(next)];
      if (m == on_path) {
        std::size_t i = path.size() - 1;
        while (path[i].vertex != next) --i;
        std::vector<std::uint64_t> cycle;
        for (; i < path.size(); ++i) cycle.push_back(path[i].vertex);
        return cycle;
      }
      if (m == unvisited) {
        mark[static_cast<std::size_t>(next)] = on_path;
        path.push_back(g.first(next));
      }
    }
  }
  return {};
}

}  // namespace detail

/// The graph: one bit per possible edge. A successor of a resource on the
/// channel into node b is a resource on a channel out of b, so it is named
/// by (slice, dimension, sign, VC) relative to b: its key.
class channel_dependency_graph {
 public:
  channel_dependency_graph(const torus_topology& topology, unsigned vcs)
      : topology_(topology), vcs_(vcs), directions_(2 * topology.dimensions()) {
    interlock::detail::require_in_range("channel_dependency_graph", "VCs per channel", vcs, 1,
                                        4096);
    words_ = (static_cast<std::uint64_t>(topology.slices()) * directions_ * vcs_ + 63) / 64;
    adjacency_.assign(static_cast<std::size_t>(vertex_count() * words_), 0);
    used_.assign(static_cast<std::size_t>((vertex_count() + 63) / 64), 0);
  }

  const torus_topology& topology() const noexcept { return topology_; }
  unsigned vcs() const noexcept { return static_cast<unsigned>(vcs_); }
  std::uint64_t vertex_count() const noexcept { return topology_.channel_count() * vcs_; }
  std::uint64_t vertex(const cdg_resource& r) const noexcept { return r.channel * vcs_ + r.vc; }
  /// The vertex of a hop's resource out of node `at`.
  std::uint64_t vertex(node_id at, const hop& h) const noexcept {
    return vertex({topology_.channel({at, h.dimension, h.sign, h.slice}), h.vc});
  }
  cdg_resource resource(std::uint64_t v) const noexcept {
    return {v / vcs_, static_cast<unsigned>(v % vcs_)};
  }
  /// The node the vertex's channel leads to.
  node_id end_node(std::uint64_t v) const noexcept {
    const channel_ref c = topology_.channel_info(resource(v).channel);
    return topology_.neighbor(c.node, c.dimension, c.sign);
  }
  /// The node the vertex's channel leaves.
  node_id start_node(std::uint64_t v) const noexcept {
    return topology_.channel_info(resource(v).channel).node;
  }

  /// Marks a resource as taken by some route.
  void use(std::uint64_t v) noexcept {
    std::uint64_t& word = used_[static_cast<std::size_t>(v / 64)];
    const std::uint64_t bit = std::uint64_t{1} << (v % 64);
    used_count_ += (word & bit) == 0 ? 1u : 0u;
    word |= bit;
  }
  /// Adds the edge from -> to; `to` must be on a channel out of the node
  /// that `from`'s channel leads to. True if the edge is new.
  bool add(std::uint64_t from, std::uint64_t to) noexcept {
    INTERLOCK_ASSERT(end_node(from) == start_node(to),
                     "a dependency joins a channel to one out of the node it leads to");
    return add_successor(from, key_of(to));
  }
  /// The same, with `to` named by the hop that takes it (no division: the
  /// checker's inner loop).
  bool add(std::uint64_t from, const hop& to) noexcept { return add_successor(from, key(to)); }
  /// The same, with `to` named by key(hop).
  bool add_successor(std::uint64_t from, std::uint64_t key) noexcept {
    std::uint64_t& word = adjacency_[static_cast<std::size_t>(from * words_ + key / 64)];
    const std::uint64_t bit = std::uint64_t{1} << (key % 64);
    const bool fresh = (word & bit) == 0;
    edge_count_ += fresh ? 1u : 0u;
    word |= bit;
    return fresh;
  }
  /// A hop's resource relative to the node it leaves: (slice, direction, VC).
  std::uint64_t key(const hop& h) const noexcept {
    const std::uint64_t direction = 2u * h.dimension + (h.sign < 0 ? 1u : 0u);
    return (h.slice * directions_ + direction) * vcs_ + h.vc;
  }
  bool contains(std::uint64_t from, std::uint64_t to) const noexcept {
    if (from >= vertex_count() || to >= vertex_count() || end_node(from) != start_node(to))
      return false;
    const std::uint64_t key = key_of(to);
    return (word(from, key / 64) >> (key % 64) & 1u) != 0;
  }
  std::size_t used_count() const noexcept { return used_count_; }
  std::size_t edge_count() const noexcept { return edge_count_; }

  /// A cycle as its vertices in order (each has an edge to the next, the
  /// last to the first), or nothing when the graph is acyclic.
  std::vector<std::uint64_t> find_cycle() const { return detail::find_cycle_in(*this); }

  // The successor cursor of find_cycle_in.
  struct cursor {
    std::uint64_t vertex;
    node_id end;
    std::uint64_t word;
    std::uint64_t bits;  // successors in `word` not yet visited
  };
  cursor first(std::uint64_t v) const noexcept { return {v, end_node(v), 0, word(v, 0)}; }
  bool advance(cursor& c, std::uint64_t& successor) const noexcept {
    while (c.bits == 0 && c.word + 1 < words_) c.bits = word(c.vertex, ++c.word);
    if (c.bits == 0) return false;
    successor = successor_of(c.end, c.word * 64 + bits::lowest_index(c.bits));
    c.bits &= c.bits - 1;
    return true;
  }
  bool has_successor(std::uint64_t v) const noexcept {
    for (std::uint64_t w = 0; w < words_; ++w)
      if (word(v, w) != 0) return true;
    return false;
  }

 private:
  std::uint64_t word(std::uint64_t v, std::uint64_t w) const noexcept {
    return adjacency_[static_cast<std::size_t>(v * words_ + w)];
  }
  // A channel id holds (dimension, sign) in its low bits modulo 2n and the
  // slice above the node, so these two name the channel relative to its node.
  std::uint64_t key_of(std::uint64_t v) const noexcept {
    const channel_id c = v / vcs_;
    const std::uint64_t per_slice =
        static_cast<std::uint64_t>(topology_.node_count()) * directions_;
    return ((c / per_slice) * directions_ + c % directions_) * vcs_ + v % vcs_;
  }
  std::uint64_t successor_of(node_id b, std::uint64_t key) const noexcept {
    const std::uint64_t rest = key / vcs_;
    const std::uint64_t slice = rest / directions_;
    const std::uint64_t channel =
        (slice * topology_.node_count() + b) * directions_ + rest % directions_;
    return channel * vcs_ + key % vcs_;
  }

  torus_topology topology_;
  std::uint64_t vcs_;
  std::uint64_t directions_;
  std::uint64_t words_ = 0;
  std::vector<std::uint64_t> adjacency_;
  std::vector<std::uint64_t> used_;
  std::size_t used_count_ = 0;
  std::size_t edge_count_ = 0;
};

namespace detail {

// A graph whose edges may join any two vertices (Duato's extended graph,
// whose indirect dependencies skip over adaptive hops), as sorted lists.
class adjacency_lists {
 public:
  explicit adjacency_lists(std::uint64_t vertices) : lists_(static_cast<std::size_t>(vertices)) {}
  std::uint64_t vertex_count() const noexcept { return lists_.size(); }
  void add(std::uint64_t from, std::uint64_t to) {
    lists_[static_cast<std::size_t>(from)].push_back(to);
  }
  // Sorts and de-duplicates every list; returns (vertices touched, edges).
  std::pair<std::size_t, std::size_t> finish() {
    std::vector<bool> touched(lists_.size(), false);
    std::size_t edges = 0;
    for (std::size_t v = 0; v < lists_.size(); ++v) {
      std::vector<std::uint64_t>& l = lists_[v];
      std::sort(l.begin(), l.end());
      l.erase(std::unique(l.begin(), l.end()), l.end());
      edges += l.size();
      if (!l.empty()) touched[v] = true;
      for (const std::uint64_t w : l) touched[static_cast<std::size_t>(w)] = true;
    }
    return {static_cast<std::size_t>(std::count(touched.begin(), touched.end(), true)), edges};
  }

  struct cursor {
    std::uint64_t vertex;
    std::size_t index;
  };
  cursor first(std::uint64_t v) const noexcept { return {v, 0}; }
  bool advance(cursor& c, std::uint64_t& successor) const noexcept {
    const std::vector<std::uint64_t>& l = lists_[static_cast<std::size_t>(c.vertex)];
    if (c.index == l.size()) return false;
    successor = l[c.index++];
    return true;
  }
  bool has_successor(std::uint64_t v) const noexcept {
    return !lists_[static_cast<std::size_t>(v)].empty();
  }

 private:
  std::vector<std::vector<std::uint64_t>> lists_;
};

}  // namespace detail

// ---- printing ------------------------------------------------------------

/// A node's coordinates: "(3,0,1)".
inline std::string describe_node(const torus_topology& t, node_id id) {
  std::string text = "(";
  for (std::size_t d = 0; d < t.dimensions(); ++d)
    text += (d != 0 ? "," : "") + std::to_string(t.ordinate(id, d));
  return text + ")";
}

/// A resource in the network's own terms: "+X (3,0,1)->(4,0,1) VC1".
inline std::string describe(const torus_topology& t, const cdg_resource& r) {
  const channel_ref c = t.channel_info(r.channel);
  std::string text = c.sign > 0 ? "+" : "-";
  if (t.dimensions() <= 3) {
    text += "XYZ"[c.dimension];
  } else {
    text += "D" + std::to_string(c.dimension);
  }
  const node_id to = t.neighbor(c.node, c.dimension, c.sign);
  text += " " + describe_node(t, c.node) + "->" + (to == no_node ? "?" : describe_node(t, to));
  text += " VC" + std::to_string(r.vc);
  if (t.slices() > 1) text += " slice " + std::to_string(c.slice);
  return text;
}

/// "(0,0,0) to (5,2,0), request, route 3".
inline std::string describe(const torus_topology& t, const enumerated_route& r) {
  return describe_node(t, r.source) + " to " + describe_node(t, r.destination) +
         (r.cls == traffic_class::request ? ", request" : ", response") + ", route " +
         std::to_string(r.choice);
}

/// The witness: the cycle on one line, then each dependency with a route
/// that creates it.
inline std::string format_cycle(const torus_topology& t, const cdg_report& report) {
  if (report.cycle.empty()) return {};
  std::string text = "cycle of " + std::to_string(report.cycle.size()) + " dependencies:\n  ";
  for (const cdg_dependency& d : report.cycle) text += describe(t, d.from) + " -> ";
  text += describe(t, report.cycle.front().from) + "\n";
  for (const cdg_dependency& d : report.cycle) {
    text += "  " + describe(t, d.from) + " -> " + describe(t, d.to) + "\n      ";
    text += d.indirect ? "indirect, through adaptive VCs, by " : "by ";
    text += describe(t, d.route) + "\n";
  }
  return text;
}

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
  const torus_topology& t = scheme.topology();
  const unsigned base = static_cast<unsigned>(cls) * scheme.vcs_per_class();
  const std::size_t limit = hop_limit(t);
  node_id at = source;
  for (std::size_t hops = 0;; ++hops) {
    if (scheme.arrived(at, s)) return {};
    if (hops == limit) return "does not arrive within " + std::to_string(limit) + " hops";
    visit(at, static_cast<const typename Scheme::state&>(s));
    const hop h = scheme.next(at, s);
    if (!hop_is_valid(scheme, at, h, cls)) return hop_problem(scheme, at, h, cls);
    on_hop(at, limit_vc(h, base, vc_limit));
    at = t.neighbor(at, h.dimension, h.sign);
  }
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

// Walks every route: on_hop(previous vertex or none, vertex, hop, route)
// for every hop walked, on_join(previous vertex, vertex, key, route) where a
// route joins one walked before (memoizable states only) and stops,
// on_route(route, problem) after every route, which returns false to stop.
inline constexpr std::uint64_t no_vertex = ~std::uint64_t{0};

template <class Scheme, class OnHop, class OnJoin, class OnRoute>
void for_each_dependency(const Scheme& scheme, const cdg_options& options,
                         const channel_dependency_graph& g, OnHop&& on_hop, OnJoin&& on_join,
                         OnRoute&& on_route) {
  using state = typename Scheme::state;
  const torus_topology& t = scheme.topology();
  [[maybe_unused]] state_memo<std::conditional_t<memoizable_v<state>, state, char>> memo;
  std::uint32_t route_number = 0;  // per destination
  for (const traffic_class cls : options.classes) {
    const unsigned base = static_cast<unsigned>(cls) * scheme.vcs_per_class();
    for (node_id destination = 0; destination < t.node_count(); ++destination) {
      if constexpr (memoizable_v<state>) memo.next_destination();
      route_number = 0;
      const bool go = for_each_route_to(
          scheme, destination, cls, [&](const enumerated_route& route, const state& start) {
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
          });
      if (!go) return;
    }
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

/// Builds the channel dependency graph of every route the scheme gives and
/// looks for a cycle. See the contract at the top of this header.
template <class Scheme>
cdg_report check_deadlock_freedom(const Scheme& scheme, const cdg_options& options = {}) {
  static_assert(require_routing_function<Scheme>(), "check_deadlock_freedom needs a routing function");
  const unsigned per_class = scheme.vcs_per_class();
  detail::check_options("check_deadlock_freedom", options, per_class);
  channel_dependency_graph g(scheme.topology(), traffic_classes * per_class);
  cdg_report report;
  detail::for_each_dependency(
      scheme, options, g,
      [&](std::uint64_t from, std::uint64_t to, const hop& h, const enumerated_route& route) {
        g.use(to);
        if (from != detail::no_vertex) g.add(from, h);
        const unsigned within = h.vc - static_cast<unsigned>(route.cls) * per_class;
        unsigned& used = report.vcs_used[static_cast<std::size_t>(route.cls)];
        used = std::max(used, within + 1);
        ++report.hops;
      },
      [&](std::uint64_t from, std::uint64_t, std::uint64_t key, const enumerated_route&) {
        if (from != detail::no_vertex) g.add_successor(from, key);
      },
      [&](const enumerated_route& route, const std::string& problem) {
        ++report.routes;
        if (!problem.empty() && report.routes_arrive) {
          report.routes_arrive = false;
          report.failed_route = route;
          report.route_problem = problem;
        }
        return true;
      });
  report.resources = g.used_count();
  report.dependencies = g.edge_count();
  detail::record_cycle(g, g.vcs(), report);
  if (!report.cycle.empty() && options.witness_routes) {
    detail::find_witness_routes(g.vcs(), report.cycle, [&](auto&& on_edge) {
      bool go = true;
      detail::for_each_dependency(
          scheme, options, g,
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

// ---- adaptive routing --------------------------------------------------------

enum class adaptive_flow_control {
  whole_packet,  // T3E: an adaptive hop needs room for the whole packet
  wormhole       // Duato: a packet may span escape and adaptive VCs
};

struct adaptive_report {
  adaptive_flow_control flow_control = adaptive_flow_control::whole_packet;
  cdg_report escape;                     // the escape routes' own graph
  bool escape_always_offered = true;     // every reachable state offers its escape hop
  bool adaptive_profitable = true;       // every adaptive hop brings the packet closer
  bool continues_as_fresh_route = true;  // after an adaptive hop: start(reached, destination)
  std::string problem;                   // the first violation of the three above
  std::size_t adaptive_resources = 0;    // adaptive (channel, VC) pairs offered
  cdg_report extended;                   // wormhole: escape graph plus indirect dependencies

  bool deadlock_free() const noexcept {
    const bool base = escape.deadlock_free() && escape_always_offered && adaptive_profitable &&
                      continues_as_fresh_route;
    return flow_control == adaptive_flow_control::whole_packet ? base : base && extended.acyclic;
  }
};

namespace detail {

// Every state along every escape route offers the escape hop first, its
// adaptive hops are profitable, and each continues as a fresh route.
template <class Adaptive>
void check_adaptive_offers(const Adaptive& a, const cdg_options& options, adaptive_report& report) {
  using state = typename Adaptive::state;
  const torus_topology& t = a.topology();
  std::vector<hop> candidates(4 + 4 * t.dimensions());  // room beyond the 1 + 2n a scheme may offer
  std::vector<bool> adaptive_used(static_cast<std::size_t>(t.channel_count()), false);
  std::vector<hop> after_follow, after_start;
  const auto fail = [&](bool& flag, const enumerated_route& route, const std::string& what) {
    if (report.problem.empty()) report.problem = describe(t, route) + ": " + what;
    flag = false;
  };
  const auto hops_of = [&](node_id from, const state& s, traffic_class cls, std::vector<hop>& out) {
    out.clear();
    follow_route(
        a, from, s, cls, 0, [](node_id, const state&) {},
        [&](node_id, const hop& h) { out.push_back(h); });
  };
  for (const traffic_class cls : options.classes) {
    for (node_id destination = 0; destination < t.node_count(); ++destination) {
      for_each_route_to(a, destination, cls, [&](const enumerated_route& route, const state& s0) {
        follow_route(
            a, route.source, s0, cls, 0,
            [&](node_id at, const state& s) {
              const std::size_t count = a.candidates(at, s, candidates.data());
              state escape_state = s;
              const hop escape = a.next(at, escape_state);
              if (count == 0 || !(candidates[0] == escape) || escape.vc == a.adaptive_vc())
                fail(report.escape_always_offered, route,
                     "at " + describe_node(t, at) + " the escape hop is not offered first");
              for (std::size_t i = 1; i < count; ++i) {
                const hop& h = candidates[i];
                const node_id w = t.neighbor(at, h.dimension, h.sign);
                if (h.vc != a.adaptive_vc() || w == no_node ||
                    t.distance(w, destination) >= t.distance(at, destination)) {
                  fail(report.adaptive_profitable, route,
                       "at " + describe_node(t, at) + " candidate " + std::to_string(i) +
                           " is not a profitable adaptive hop");
                  continue;
                }
                adaptive_used[static_cast<std::size_t>(
                    t.channel({at, h.dimension, h.sign, h.slice}))] = true;
                if (w == destination) continue;
                state followed = s;
                a.follow(at, followed, h);
                hops_of(w, followed, cls, after_follow);
                hops_of(w, a.start_with(w, destination, cls), cls, after_start);
                if (after_follow != after_start)
                  fail(report.continues_as_fresh_route, route,
                       "after the adaptive hop from " + describe_node(t, at) +
                           " the packet does not route as a fresh packet from " +
                           describe_node(t, w));
              }
            },
            [](node_id, const hop&) {});
        return true;
      });
    }
  }
  report.adaptive_resources =
      static_cast<std::size_t>(std::count(adaptive_used.begin(), adaptive_used.end(), true));
}

// Duato's extended graph for wormhole flow control: the escape routes'
// direct dependencies, and an indirect one from every escape resource a
// packet holds on entering node v to every escape hop it can request after
// one or more adaptive hops from v.
template <class Adaptive, class OnEdge>
void extended_dependencies(const Adaptive& a, const cdg_options& options,
                           const channel_dependency_graph& g, OnEdge&& on_edge) {
  using state = typename Adaptive::state;
  constexpr std::uint64_t none = no_vertex;
  const torus_topology& t = a.topology();
  const node_id nodes = t.node_count();
  std::vector<hop> candidates(4 + 4 * t.dimensions());  // room beyond the 1 + 2n a scheme may offer
  const auto limited = [&](node_id at, hop h, traffic_class cls) {
    const unsigned base = static_cast<unsigned>(cls) * a.vcs_per_class();
    if (options.vc_limit != 0) h.vc = base + std::min(h.vc - base, options.vc_limit - 1);
    return g.vertex(at, h);
  };
  std::vector<std::vector<std::uint64_t>> reachable(nodes);  // escape hops after adaptive hops
  std::vector<node_id> by_distance(nodes);
  for (const traffic_class cls : options.classes) {
    for (node_id destination = 0; destination < nodes; ++destination) {
      // reachable[w]: the escape hops a packet at w (fresh) may request after
      // zero or more adaptive hops; nearer nodes first, since hops are profitable.
      for (node_id w = 0; w < nodes; ++w) by_distance[w] = w;
      std::sort(by_distance.begin(), by_distance.end(), [&](node_id x, node_id y) {
        return t.distance(x, destination) < t.distance(y, destination);
      });
      for (const node_id w : by_distance) {
        std::vector<std::uint64_t>& r = reachable[w];
        r.clear();
        if (w == destination) continue;
        state s = a.start_with(w, destination, cls);
        const std::size_t count = a.candidates(w, s, candidates.data());
        r.push_back(limited(w, a.next(w, s), cls));
        for (std::size_t i = 1; i < count; ++i) {
          const node_id x = t.neighbor(w, candidates[i].dimension, candidates[i].sign);
          if (x != no_node && t.distance(x, destination) < t.distance(w, destination))
            r.insert(r.end(), reachable[x].begin(), reachable[x].end());
        }
        std::sort(r.begin(), r.end());
        r.erase(std::unique(r.begin(), r.end()), r.end());
      }
      for_each_route_to(a, destination, cls, [&](const enumerated_route& route, const state& s0) {
        std::uint64_t previous = none;
        bool go = true;
        follow_route(
            a, route.source, s0, cls, options.vc_limit,
            [&](node_id at, const state& s) {
              if (previous == none || !go) return;
              const std::size_t count = a.candidates(at, s, candidates.data());
              for (std::size_t i = 1; go && i < count; ++i) {
                const node_id x = t.neighbor(at, candidates[i].dimension, candidates[i].sign);
                if (x == no_node || x == destination) continue;
                for (const std::uint64_t v : reachable[x]) {
                  if (!(go = on_edge(previous, v, route, true))) break;
                }
              }
            },
            [&](node_id at, const hop& h) {
              const std::uint64_t v = g.vertex(at, h);
              if (go && previous != none) go = on_edge(previous, v, route, false);
              previous = v;
            });
        return go;
      });
    }
  }
}

}  // namespace detail

/// Checks adaptive routing with an escape network (the contract at the top
/// of this header). Adaptive is a routing scheme for its escape routes that
/// also offers start(source, destination, class), candidates(at, state,
/// hop*) with the escape hop first, follow(at, state, hop) and
/// adaptive_vc(), as t3e_adaptive_routing does.
template <class Adaptive>
adaptive_report check_adaptive_deadlock_freedom(const Adaptive& a,
                                                adaptive_flow_control flow_control,
                                                const cdg_options& options = {}) {
  adaptive_report report;
  report.flow_control = flow_control;
  report.escape = check_deadlock_freedom(a, options);
  if (!report.escape.routes_arrive) return report;
  detail::check_adaptive_offers(a, options, report);
  if (flow_control == adaptive_flow_control::wormhole) {
    const channel_dependency_graph names(a.topology(), traffic_classes * a.vcs_per_class());
    detail::adjacency_lists g(names.vertex_count());
    detail::extended_dependencies(
        a, options, names,
        [&](std::uint64_t from, std::uint64_t to, const enumerated_route&, bool) {
          g.add(from, to);
          return true;
        });
    const auto size = g.finish();
    report.extended.routes = report.escape.routes;
    report.extended.hops = report.escape.hops;
    report.extended.vcs_used = report.escape.vcs_used;
    report.extended.resources = size.first;
    report.extended.dependencies = size.second;
    detail::record_cycle(g, names.vcs(), report.extended);
    if (!report.extended.cycle.empty() && options.witness_routes)
      detail::find_witness_routes(names.vcs(), report.extended.cycle, [&](auto&& on_edge) {
        detail::extended_dependencies(a, options, names, on_edge);
      });
  }
  return report;
}

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_CHANNEL_DEPENDENCY_GRAPH_HPP
