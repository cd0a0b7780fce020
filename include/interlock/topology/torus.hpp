// SPDX-License-Identifier: BSL-1.0
// interlock/topology/torus.hpp: k-ary n-cubes and n-meshes, mixed radix, per-dimension wrap.
//
// Contract
//   torus_topology describes n <= 8 dimensions, each with its own radix
//   k_d >= 2 and its own kind (a ring: torus; a line: mesh), and optionally
//   several parallel copies of every link ("slices", Anton 2's two torus
//   slices). Nodes are numbered in mixed radix, dimension 0 fastest:
//   id = x_0 + k_0 (x_1 + k_1 (x_2 + ...)).
//
//   Channels are directed and have stable ids: channel (node, dimension,
//   sign, slice) has id ((slice * nodes + node) * n + dimension) * 2 + (sign
//   < 0). A mesh has no channel off its edges; channel_exists tells.
//
//   Minimal direction in a ring: the shorter way round; at exactly k/2 (even
//   k) a packet goes + from an even ordinate and - from an odd one. This is
//   the rule under which the Cray T3E's published VC balance (Table 1 of
//   Scott & Thorson, HOTI'96) comes out exactly, and it splits the tie
//   traffic evenly between the two directions.
//
//   Average minimal hops: the exact average over ordered pairs of ordinates
//   is per dimension k/4 for an even-radix ring counting a node's own
//   ordinate, (k^2 - 1)/(4k) for an odd one, and (k + 1)/3 for a line over
//   distinct pairs: [Abts07]'s Eq. 4-7 are these, summed over dimensions.
//
//   Ports: a router has ports() = 2 n slices + 1 ports, numbered by the
//   topology so that arbiter inputs, channel loads, inverse weights and a
//   router agree: port slice * 2n + 2d + (sign < 0) for each (dimension d,
//   sign, slice), then local_port() = 2 n slices, the injection/ejection
//   port. Output port p sends on the channel in p's direction; input port p
//   receives the channel that travels in p's direction (a packet moving +X
//   arrives on input +X, from the -X neighbor). port_of(dimension, sign,
//   slice) and port_of(hop) number a direction; port_info(p) inverts it. On
//   a mesh the ports off an edge exist and carry nothing.
//
//   Validation: config_error for no or more than 8 dimensions, a radix below
//   2 or above 65535, wrap flags of another length, 0 or more than 8
//   slices, or more than 2^32 - 1 nodes.
//
// Example
//   interlock::torus_topology t({8, 8, 8});                 // 8-ary 3-cube
//   auto a = t.node({7, 0, 3});
//   assert(t.neighbor(a, 0, +1) == t.node({0, 0, 3}));      // the wrap link
//   assert(t.distance(a, t.node({1, 0, 3})) == 2);
#ifndef INTERLOCK_TOPOLOGY_TORUS_HPP
#define INTERLOCK_TOPOLOGY_TORUS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/config_error.hpp"

namespace interlock {

using node_id = std::uint32_t;
using channel_id = std::uint64_t;

inline constexpr node_id no_node = 0xFFFFFFFFu;
inline constexpr std::size_t max_dimensions = 8;

/// Coordinates of a node, dimension 0 first; entries past n are 0.
using coordinates = std::array<std::uint16_t, max_dimensions>;

/// A router port: a direction (dimension, sign, slice), or the local
/// injection/ejection port.
struct port_ref {
  unsigned dimension = 0;
  int sign = +1;
  unsigned slice = 0;
  bool local = false;
  friend bool operator==(const port_ref& a, const port_ref& b) {
    return a.local == b.local &&
           (a.local || (a.dimension == b.dimension && a.sign == b.sign && a.slice == b.slice));
  }
};

/// One directed link: from `node` along `dimension` in direction `sign`.
struct channel_ref {
  node_id node;
  unsigned dimension;
  int sign;  // +1 or -1
  unsigned slice = 0;
  friend bool operator==(const channel_ref& a, const channel_ref& b) {
    return a.node == b.node && a.dimension == b.dimension && a.sign == b.sign && a.slice == b.slice;
  }
};

enum class pair_set { all_pairs, distinct_pairs };

class torus_topology {
 public:
  /// radix[d] = k_d; wrap[d] true for a ring (torus), false for a line
  /// (mesh); an empty wrap means every dimension is a torus.
  explicit torus_topology(std::vector<std::size_t> radix, std::vector<bool> wrap = {},
                          std::size_t slices = 1)
      : radix_(std::move(radix)), wrap_(std::move(wrap)), slices_(slices) {
    if (radix_.empty() || radix_.size() > max_dimensions) {
      throw config_error("torus_topology", "dimensions", std::to_string(radix_.size()), "1..8");
    }
    if (wrap_.empty()) wrap_.assign(radix_.size(), true);
    if (wrap_.size() != radix_.size()) {
      throw config_error("torus_topology", "wrap flags", std::to_string(wrap_.size()),
                         "one per dimension, " + std::to_string(radix_.size()));
    }
    detail::require_in_range("torus_topology", "slices", slices_, 1, 8);
    std::uint64_t nodes = 1;
    for (std::size_t d = 0; d < radix_.size(); ++d) {
      detail::require_in_range("torus_topology", "radix of dimension " + std::to_string(d),
                               radix_[d], 2, 65535);
      stride_[d] = static_cast<node_id>(nodes);
      nodes *= radix_[d];
      if (nodes > 0xFFFFFFFEu) {
        throw config_error("torus_topology", "nodes", "more than " + std::to_string(nodes - 1),
                           "at most 4294967294");
      }
    }
    nodes_ = static_cast<node_id>(nodes);
    power_of_two_ = true;
    for (std::size_t d = 0; d < radix_.size(); ++d) {
      shift_[d] = 0;
      while ((std::size_t{1} << shift_[d]) < stride_[d]) ++shift_[d];
      power_of_two_ = power_of_two_ && (radix_[d] & (radix_[d] - 1)) == 0;
    }
  }

  std::size_t dimensions() const noexcept { return radix_.size(); }
  std::size_t radix(std::size_t d) const noexcept { return radix_[d]; }
  bool wraps(std::size_t d) const noexcept { return wrap_[d]; }
  std::size_t slices() const noexcept { return slices_; }
  node_id node_count() const noexcept { return nodes_; }
  const std::vector<std::size_t>& radices() const noexcept { return radix_; }

  node_id node(const coordinates& c) const {
    node_id id = 0;
    for (std::size_t d = 0; d < dimensions(); ++d) {
      INTERLOCK_ASSERT(c[d] < radix_[d], "coordinate out of range");
      id += static_cast<node_id>(c[d] % radix_[d]) * stride_[d];
    }
    return id;
  }
  coordinates coordinates_of(node_id id) const noexcept {
    coordinates c{};
    for (std::size_t d = 0; d < dimensions(); ++d) c[d] = ordinate(id, d);
    return c;
  }
  /// The ordinate of `id` in dimension d (a shift and a mask when every
  /// radix is a power of two, a division otherwise).
  std::uint16_t ordinate(node_id id, std::size_t d) const noexcept {
    if (power_of_two_) return static_cast<std::uint16_t>((id >> shift_[d]) & (radix_[d] - 1));
    return static_cast<std::uint16_t>((id / stride_[d]) % radix_[d]);
  }
  /// The node with ordinate `x` in dimension d and the others of `id`.
  node_id with_ordinate(node_id id, std::size_t d, std::size_t x) const noexcept {
    return id - ordinate(id, d) * stride_[d] + static_cast<node_id>(x % radix_[d]) * stride_[d];
  }

  /// The neighbor of `id` along d in direction sign, or no_node off a mesh edge.
  node_id neighbor(node_id id, std::size_t d, int sign) const noexcept {
    const std::size_t k = radix_[d];
    const std::size_t x = ordinate(id, d);
    if (sign > 0) {
      if (x + 1 < k) return id + stride_[d];
      return wrap_[d] ? id - static_cast<node_id>(k - 1) * stride_[d] : no_node;
    }
    if (x > 0) return id - stride_[d];
    return wrap_[d] ? id + static_cast<node_id>(k - 1) * stride_[d] : no_node;
  }
  /// True when the hop from `id` along d in direction sign is a ring's wrap
  /// link (between ordinates k-1 and 0).
  bool is_wrap_hop(node_id id, std::size_t d, int sign) const noexcept {
    return is_wrap_hop_from(d, ordinate(id, d), sign);
  }
  /// The same, from ordinate x of dimension d.
  bool is_wrap_hop_from(std::size_t d, std::size_t x, int sign) const noexcept {
    return wrap_[d] && (sign > 0 ? x + 1 == radix_[d] : x == 0);
  }

  // ---- channels ----------------------------------------------------------
  channel_id channel_count() const noexcept {
    return static_cast<channel_id>(slices_) * nodes_ * dimensions() * 2;
  }
  channel_id channel(const channel_ref& c) const noexcept {
    return ((static_cast<channel_id>(c.slice) * nodes_ + c.node) * dimensions() + c.dimension) * 2 +
           (c.sign < 0 ? 1u : 0u);
  }
  channel_ref channel_info(channel_id id) const noexcept {
    channel_ref c{};
    c.sign = (id & 1u) != 0 ? -1 : +1;
    id >>= 1;
    c.dimension = static_cast<unsigned>(id % dimensions());
    id /= dimensions();
    c.node = static_cast<node_id>(id % nodes_);
    c.slice = static_cast<unsigned>(id / nodes_);
    return c;
  }
  bool channel_exists(channel_id id) const noexcept {
    if (id >= channel_count()) return false;
    const channel_ref c = channel_info(id);
    return neighbor(c.node, c.dimension, c.sign) != no_node;
  }

  // ---- a router's ports ------------------------------------------------------
  /// Ports per router: one per (dimension, sign, slice), and the local port.
  std::size_t ports() const noexcept { return 2 * dimensions() * slices_ + 1; }
  /// The injection/ejection port, after every direction.
  std::size_t local_port() const noexcept { return 2 * dimensions() * slices_; }
  /// The port of direction (dimension, sign) on `slice` (a dimension or
  /// slice out of range is a contract violation and gives local_port()).
  std::size_t port_of(std::size_t dimension, int sign, std::size_t slice = 0) const {
    INTERLOCK_ASSERT(dimension < dimensions() && slice < slices_, "port of a missing direction");
    if (dimension >= dimensions() || slice >= slices_) return local_port();
    return (slice * dimensions() + dimension) * 2 + (sign < 0 ? 1u : 0u);
  }
  /// The port of a hop, or of anything with dimension, sign and slice.
  template <class Hop>
  std::size_t port_of(const Hop& h) const {
    return port_of(h.dimension, h.sign, h.slice);
  }
  /// The direction of port p, or local for local_port() (and, as a contract
  /// violation, for p >= ports()).
  port_ref port_info(std::size_t p) const {
    INTERLOCK_ASSERT(p < ports(), "port out of range");
    port_ref r;
    if (p >= local_port()) {
      r.local = true;
      return r;
    }
    r.sign = (p & 1u) != 0 ? -1 : +1;
    r.dimension = static_cast<unsigned>((p / 2) % dimensions());
    r.slice = static_cast<unsigned>(p / 2 / dimensions());
    return r;
  }

  /// The port at the other end of port p's link: the neighbour's port of the
  /// opposite direction on the same slice (the local port is its own). interlock
  /// numbers a router's inputs by the direction a packet travels, the port of
  /// the hop that brought it (router_arbiter_loads, the model's routers); a
  /// simulator that numbers them by the link's port at the router (Merlin,
  /// BookSim2) sees interlock's input q on its port peer_port(q).
  std::size_t peer_port(std::size_t p) const noexcept { return p < local_port() ? p ^ 1u : p; }

  // ---- distances -----------------------------------------------------------
  /// Hops from ordinate a to ordinate b in dimension d going in direction
  /// sign (k for an impossible mesh direction).
  std::size_t hops(std::size_t d, std::size_t a, std::size_t b, int sign) const noexcept {
    const std::size_t k = radix_[d];
    const std::size_t forward = b >= a ? b - a : b + k - a;
    const std::size_t steps = sign > 0 ? forward : (k - forward) % k;
    if (!wrap_[d] && (sign > 0 ? b < a : b > a)) return k;
    return steps;
  }
  /// The minimal direction from ordinate a to b in dimension d: +1, -1, or
  /// 0 when a == b. Ties at exactly k/2: + from an even ordinate, - from an odd.
  int minimal_direction(std::size_t d, std::size_t a, std::size_t b) const noexcept {
    if (a == b) return 0;
    if (!wrap_[d]) return b > a ? +1 : -1;
    const std::size_t k = radix_[d];
    const std::size_t forward = b >= a ? b - a : b + k - a;
    if (2 * forward < k) return +1;
    if (2 * forward > k) return -1;
    return a % 2 == 0 ? +1 : -1;
  }
  std::size_t minimal_hops(std::size_t d, std::size_t a, std::size_t b) const noexcept {
    const int s = minimal_direction(d, a, b);
    return s == 0 ? 0 : hops(d, a, b, s);
  }
  std::size_t distance(node_id a, node_id b) const noexcept {
    std::size_t h = 0;
    for (std::size_t d = 0; d < dimensions(); ++d)
      h += minimal_hops(d, ordinate(a, d), ordinate(b, d));
    return h;
  }
  std::size_t diameter() const noexcept {
    std::size_t h = 0;
    for (std::size_t d = 0; d < dimensions(); ++d) h += wrap_[d] ? radix_[d] / 2 : radix_[d] - 1;
    return h;
  }
  /// The exact average minimal hops in dimension d over ordered pairs of ordinates.
  double dimension_average_hops(std::size_t d, pair_set pairs) const noexcept {
    const std::size_t k = radix_[d];
    double sum = 0;
    for (std::size_t a = 0; a < k; ++a)
      for (std::size_t b = 0; b < k; ++b) sum += static_cast<double>(minimal_hops(d, a, b));
    const double count =
        static_cast<double>(k) * static_cast<double>(pairs == pair_set::all_pairs ? k : k - 1);
    return sum / count;
  }
  /// The exact average minimal hops over ordered pairs of nodes.
  double average_minimal_hops(pair_set pairs) const noexcept {
    double all = 0;  // average over all pairs is the sum of the dimensions' averages
    for (std::size_t d = 0; d < dimensions(); ++d)
      all += dimension_average_hops(d, pair_set::all_pairs);
    if (pairs == pair_set::all_pairs) return all;
    const double n = static_cast<double>(nodes_);
    return all * n / (n - 1);
  }

 private:
  std::vector<std::size_t> radix_;
  std::vector<bool> wrap_;
  std::size_t slices_;
  std::array<node_id, max_dimensions> stride_{};
  std::array<unsigned, max_dimensions>
      shift_{};  // log2 of the stride when every radix is a power of two
  bool power_of_two_ = false;
  node_id nodes_ = 1;
};

}  // namespace interlock

#endif  // INTERLOCK_TOPOLOGY_TORUS_HPP
