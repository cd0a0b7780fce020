// SPDX-License-Identifier: BSL-1.0
// interlock/verify/dependency_graph.hpp: the channel dependency graph as bits, and cycle search.
//
// Contract
//   - cdg_resource: a vertex, one VC of a directed channel.
//   - channel_dependency_graph(topology, vcs): one bit per possible edge. A
//     successor of a resource on the channel into node b is a resource on a
//     channel out of b, so it is named relative to b; the graph keeps
//     vertices x ceil(2n x slices x VCs / 64) words. vertex(at, hop) names a
//     hop's resource; add(from, to) an edge.
//   - detail::find_cycle: an iterative depth-first search (no recursion, so
//     no depth limit on large tori) over any graph with vertex_count(),
//     first(v), advance(cursor, successor) and has_successor(v); O(vertices
//     + edges). detail::adjacency_lists is such a graph with edges between
//     any two vertices (Duato's extended graph).
//   config_error for VCs per channel outside 1..4096.
//
// Example
//   interlock::torus_topology torus({4, 4});
//   interlock::verify::channel_dependency_graph g(torus, 2);
//   const interlock::node_id a = torus.node({0, 0}), b = torus.node({1, 0});
//   interlock::hop h1, h2;  // +X on VC0 into b, then +X on VC0 out of it
//   g.add(g.vertex(a, h1), g.vertex(b, h2));
#ifndef INTERLOCK_VERIFY_DEPENDENCY_GRAPH_HPP
#define INTERLOCK_VERIFY_DEPENDENCY_GRAPH_HPP

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
    keys_ = static_cast<std::uint64_t>(topology.slices()) * directions_ * vcs_;
    words_ = (keys_ + 63) / 64;
    adjacency_.assign(static_cast<std::size_t>(vertex_count() * words_), 0);
    used_.assign(static_cast<std::size_t>((vertex_count() + 63) / 64), 0);
  }

  const torus_topology& topology() const noexcept { return topology_; }
  unsigned vcs() const noexcept { return static_cast<unsigned>(vcs_); }
  std::uint64_t vertex_count() const noexcept { return topology_.channel_count() * vcs_; }
  /// The vertex of a resource; a channel or VC outside the graph is a
  /// contract violation and gives vertex_count(), which add and use ignore.
  std::uint64_t vertex(const cdg_resource& r) const {
    const bool inside = r.channel < topology_.channel_count() && r.vc < vcs_;
    INTERLOCK_ASSERT(inside, "a resource outside the graph");
    return inside ? r.channel * vcs_ + r.vc : vertex_count();
  }
  /// The vertex of a hop's resource out of node `at`.
  std::uint64_t vertex(node_id at, const hop& h) const {
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

  /// Marks a resource as taken by some route (a vertex outside the graph
  /// is a contract violation, ignored).
  void use(std::uint64_t v) {
    INTERLOCK_ASSERT(v < vertex_count(), "use of a vertex outside the graph");
    if (v >= vertex_count()) return;
    std::uint64_t& word = used_[static_cast<std::size_t>(v / 64)];
    const std::uint64_t bit = std::uint64_t{1} << (v % 64);
    used_count_ += (word & bit) == 0 ? 1u : 0u;
    word |= bit;
  }
  /// Adds the edge from -> to; `to` must be on a channel out of the node
  /// that `from`'s channel leads to. True if the edge is new.
  /// Vertices outside the graph are a contract violation, ignored (false).
  bool add(std::uint64_t from, std::uint64_t to) {
    INTERLOCK_ASSERT(from < vertex_count() && to < vertex_count(), "an edge outside the graph");
    if (from >= vertex_count() || to >= vertex_count()) return false;
    INTERLOCK_ASSERT(end_node(from) == start_node(to),
                     "a dependency joins a channel to one out of the node it leads to");
    return add_successor(from, key_of(to));
  }
  /// The same, with `to` named by the hop that takes it (no division: the
  /// checker's inner loop).
  bool add(std::uint64_t from, const hop& to) { return add_successor(from, key(to)); }
  /// The same, with `to` named by key(hop); a vertex or key outside the
  /// graph (a VC beyond it, a slice or dimension it lacks) is a contract
  /// violation, ignored (false).
  bool add_successor(std::uint64_t from, std::uint64_t key) {
    INTERLOCK_ASSERT(from < vertex_count() && key < keys_, "an edge outside the graph");
    if (from >= vertex_count() || key >= keys_) return false;
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
    if (direction >= directions_ || h.slice >= topology_.slices() || h.vc >= vcs_) return keys_;
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

  /// Adds every resource used and every edge of `other`, a graph of the
  /// same topology and VCs (the parts of a walk split among threads).
  void merge(const channel_dependency_graph& other) {
    INTERLOCK_ASSERT(other.adjacency_.size() == adjacency_.size(), "merging unlike graphs");
    if (other.adjacency_.size() != adjacency_.size()) return;
    for (std::size_t i = 0; i < adjacency_.size(); ++i) {
      edge_count_ += static_cast<std::size_t>(bits::popcount(other.adjacency_[i] & ~adjacency_[i]));
      adjacency_[i] |= other.adjacency_[i];
    }
    for (std::size_t i = 0; i < used_.size(); ++i) {
      used_count_ += static_cast<std::size_t>(bits::popcount(other.used_[i] & ~used_[i]));
      used_[i] |= other.used_[i];
    }
  }

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
  std::uint64_t keys_ = 0;  // successors a vertex can have: slices x directions x VCs
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
  // Each list is kept sorted and without repeats (an edge that every route
  // through a channel adds again costs a search, not memory).
  void add(std::uint64_t from, std::uint64_t to) {
    std::vector<std::uint64_t>& l = lists_[static_cast<std::size_t>(from)];
    const auto at = std::lower_bound(l.begin(), l.end(), to);
    if (at == l.end() || *at != to) l.insert(at, to);
  }
  // Returns (vertices touched, edges).
  std::pair<std::size_t, std::size_t> counts() const {
    std::vector<bool> touched(lists_.size(), false);
    std::size_t edges = 0;
    for (std::size_t v = 0; v < lists_.size(); ++v) {
      const std::vector<std::uint64_t>& l = lists_[v];
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

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_DEPENDENCY_GRAPH_HPP
