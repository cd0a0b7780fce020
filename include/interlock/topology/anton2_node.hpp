// SPDX-License-Identifier: BSL-1.0
// interlock/topology/anton2_node.hpp: Anton 2's unified network, a 3-D torus of nodes each an
// on-chip 4x4 mesh of routers with skip channels and torus-channel adapters.
//
// Models Towles et al., ISCA'14, Sections 2.2, 2.4 and 4.4. Each
// node (ASIC) holds 16 routers R(u,v), u, v = 0..3, in a 4x4 mesh with
// dimensions U and V, and 12 torus-channel adapters C, one per torus channel
// (X, Y, Z, both directions, two slices). The on-chip mesh is the switch
// between the torus channels and connects the endpoints (cores).
//
// What the text gives (its Figure 1 is missing from the extracted text):
//   - the I/O pins lie along two opposite edges of the ASIC, here U = 0 and
//     U = 3; the Y and Z channels of one slice are on the same side; the X+
//     and X- channels are on opposite edges;
//   - "Y_0^+ -> R_{0,2} -> Y_0^-": both Y channels of slice 0 attach to
//     R(0,2), so a Y (or Z) through route crosses one router;
//   - "X_1^- -> R_{3,0} --skip--> R_{0,0} -> X_1^+": X1- attaches to R(3,0),
//     X1+ to R(0,0), and a skip channel joins them past R(1,0) and R(2,0);
//   - routers have six ports; adapters two (router side, channel side);
//     the ASIC has 16 routers, 12 channel adapters and 23 endpoint adapters.
// What is chosen here (documented, and tested where the text allows):
//   - slice 0's Y and Z channels on the U = 0 edge, Y at R(0,2) and Z at
//     R(0,1); slice 1's mirrored on U = 3: Y at R(3,2), Z at R(3,1);
//   - X+ of slice 0 at R(0,3), X- of slice 0 at R(3,3), with a second skip
//     channel between them (X+ of slice 1 at R(0,0), X- at R(3,0));
//   - one endpoint (core) per router, Section 4.1's measurement setup ("one
//     core per router participating"); the other 7 endpoint adapters are
//     not modelled. The test of Section 2.4's worst-case permutation checks
//     that this placement gives what the text says: under direction order
//     V-, U+, U-, V+ the busiest mesh channel carries two torus channels'
//     flows, and no other direction order does better.
//
// Contract
//   anton2_topology(torus) takes a 3-D torus with two slices (config_error
//   naming "dimensions", "slices" or "wrap" otherwise). Routers of the
//   unified network are numbered node * routers_per_node + kind: kinds 0..15
//   the mesh routers R(u,v), kind = 4u + v; kinds 16..27 the adapters,
//   16 + channel_index(dimension, sign, slice).
//   Ports of a mesh router: 0 U+, 1 U-, 2 V+, 3 V- (an input named by the
//   direction its packets travel: input U+ comes from R(u-1,v)), 4 the skip
//   channel, 5 and 6 the links to its adapters (a: the first channel
//   attached, b: the second); an adapter's 0 is its router link, 1 its torus
//   link. network_ports() = 7. A torus link joins the adapter of (d, +, s)
//   at node n with the adapter of (d, -, s) at n + 1 in d, port 1 to port 1.
//   A hop (routing/anton2.hpp) names a port by direction: dimension 0..2 the
//   torus channel (sign, slice) - from a mesh router into that channel's
//   adapter, from an adapter onto the torus link -, dim_u and dim_v a mesh
//   hop by sign, dim_skip the skip channel, dim_router an adapter's hop to
//   its router. port_of(router, hop) and next(router, hop) follow it;
//   local_route(from, to) is the on-chip direction order V-, U+, U-, V+.
//
// Example
//   interlock::torus_topology torus({4, 4, 4}, {}, 2);
//   interlock::anton2_topology a(torus);
//   // a.channel_router(1, +1, 0) == a.kind_of(0, 2): R(0,2) holds Y0+
#ifndef INTERLOCK_TOPOLOGY_ANTON2_NODE_HPP
#define INTERLOCK_TOPOLOGY_ANTON2_NODE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "interlock/core/assert.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {

/// The torus links' speed beside a mesh channel's, and their delay.
struct anton2_links {
  /// Flits per cycle of a torus link, a mesh channel carrying 1: Section
  /// 2.2's 89.6 Gb/s effective torus bandwidth over a mesh channel's 192
  /// bits at 1.5 GHz (288 Gb/s).
  double torus_bandwidth = 89.6 / 288.0;
  /// Cycles a torus link takes beyond an on-chip channel's (SerDes,
  /// framing, the wire; the text gives no figure: 0 by default).
  unsigned torus_latency = 0;
};

/// The mesh directions of Anton 2's on-chip routing (Section 2.4).
enum class mesh_direction : std::uint8_t { u_plus, u_minus, v_plus, v_minus };

class anton2_topology {
 public:
  static constexpr std::size_t mesh = 4;               // routers along U and along V
  static constexpr std::size_t mesh_routers = 16;      // R(u,v)
  static constexpr std::size_t channels = 12;          // torus channels per node
  static constexpr std::size_t routers_per_node = 28;  // 16 routers + 12 adapters
  static constexpr std::size_t port_u_plus = 0, port_u_minus = 1, port_v_plus = 2, port_v_minus = 3,
                               port_skip = 4, port_a = 5, port_b = 6;
  static constexpr std::size_t adapter_router_port = 0, adapter_torus_port = 1;
  static constexpr std::size_t network_ports = 7;
  // hop::dimension values beyond the torus's.
  static constexpr unsigned dim_u = 3, dim_v = 4, dim_skip = 5, dim_router = 6;
  static constexpr std::size_t no_kind = ~std::size_t{0};

  explicit anton2_topology(const torus_topology& t, anton2_links links = {})
      : torus_(t), links_(links) {
    const char* who = "interlock::anton2_topology";
    if (!(links.torus_bandwidth > 0) || !(links.torus_bandwidth <= 1) ||
        !(links.torus_bandwidth * 1024 >= 1))
      throw config_error(who, "torus_bandwidth", std::to_string(links.torus_bandwidth),
                         "1/1024..1 flits per cycle (a mesh channel's is 1)");
    if (links.torus_latency > 1000)
      throw config_error(who, "torus_latency", std::to_string(links.torus_latency), "0..1000");
    if (t.dimensions() != 3)
      throw config_error(who, "dimensions", std::to_string(t.dimensions()),
                         "3 (X, Y, Z: the node's channels are laid out for a 3-D torus)");
    if (t.slices() != 2)
      throw config_error(who, "slices", std::to_string(t.slices()), "2 (Anton 2's two slices)");
    for (std::size_t d = 0; d < 3; ++d)
      if (!t.wraps(d))
        throw config_error(who, "wrap", "0 in dimension " + std::to_string(d),
                           "1 in every dimension (a torus)");
    for (auto& p : ports_) p.fill(no_kind);
    for (auto& p : skip_) p = no_kind;
    // Section 2.2 and the choices in the header.
    place(0, +1, 1, 0, 0);  // X1+ at R(0,0)
    place(0, -1, 1, 3, 0);  // X1- at R(3,0)
    place(0, +1, 0, 0, 3);  // X0+ at R(0,3)
    place(0, -1, 0, 3, 3);  // X0- at R(3,3)
    place(1, +1, 0, 0, 2);  // Y0 at R(0,2)
    place(1, -1, 0, 0, 2);
    place(2, +1, 0, 0, 1);  // Z0 at R(0,1)
    place(2, -1, 0, 0, 1);
    place(1, +1, 1, 3, 2);  // Y1 at R(3,2)
    place(1, -1, 1, 3, 2);
    place(2, +1, 1, 3, 1);  // Z1 at R(3,1)
    place(2, -1, 1, 3, 1);
    skip_[kind_of(3, 0)] = kind_of(0, 0);
    skip_[kind_of(0, 0)] = kind_of(3, 0);
    skip_[kind_of(3, 3)] = kind_of(0, 3);
    skip_[kind_of(0, 3)] = kind_of(3, 3);
  }

  const torus_topology& torus() const noexcept { return torus_; }
  const anton2_links& links() const noexcept { return links_; }
  node_id node_count() const noexcept { return torus_.node_count(); }
  node_id router_count() const noexcept {
    return static_cast<node_id>(torus_.node_count() * routers_per_node);
  }
  std::size_t max_candidates() const noexcept { return 1; }
  /// The most hops a route takes: per dimension k torus links, each with
  /// an adapter on both sides and a skip or mesh crossing, plus two
  /// crossings of the mesh per dimension and at the ends.
  std::size_t hop_limit() const noexcept {
    std::size_t h = 8;
    for (std::size_t d = 0; d < 3; ++d) h += 4 * torus_.radix(d) + 8;
    return h;
  }

  // ---- numbering -----------------------------------------------------------

  static constexpr std::size_t kind_of(std::size_t u, std::size_t v) noexcept {
    return u * mesh + v;
  }
  static constexpr std::size_t u_of(std::size_t kind) noexcept { return kind / mesh; }
  static constexpr std::size_t v_of(std::size_t kind) noexcept { return kind % mesh; }
  static constexpr bool is_adapter(std::size_t kind) noexcept { return kind >= mesh_routers; }
  static constexpr std::size_t channel_index(unsigned d, int sign, unsigned slice) noexcept {
    return d * 4 + (sign > 0 ? 0 : 2) + slice;
  }
  static constexpr std::size_t adapter_kind(unsigned d, int sign, unsigned slice) noexcept {
    return mesh_routers + channel_index(d, sign, slice);
  }
  /// The adapter kind's channel: dimension, sign, slice.
  static constexpr unsigned channel_dimension(std::size_t kind) noexcept {
    return static_cast<unsigned>((kind - mesh_routers) / 4);
  }
  static constexpr int channel_sign(std::size_t kind) noexcept {
    return (kind - mesh_routers) % 4 < 2 ? +1 : -1;
  }
  static constexpr unsigned channel_slice(std::size_t kind) noexcept {
    return static_cast<unsigned>((kind - mesh_routers) % 2);
  }
  node_id router(node_id node, std::size_t kind) const noexcept {
    return static_cast<node_id>(node * routers_per_node + kind);
  }
  static node_id node_of(node_id r) noexcept { return static_cast<node_id>(r / routers_per_node); }
  static std::size_t kind(node_id r) noexcept { return r % routers_per_node; }

  /// The mesh router (kind) the channel (d, sign, slice) attaches to.
  std::size_t channel_router(unsigned d, int sign, unsigned slice) const noexcept {
    return attach_[channel_index(d, sign, slice)];
  }
  /// The port of mesh router `kind` linked to the channel's adapter.
  std::size_t channel_port(unsigned d, int sign, unsigned slice) const noexcept {
    return attach_port_[channel_index(d, sign, slice)];
  }
  /// The adapter kind linked to a mesh router's port a or b (no_kind: none).
  std::size_t adapter_at(std::size_t kind, std::size_t port) const noexcept {
    return ports_[kind][port - port_a];
  }
  /// Where mesh router `kind`'s skip channel leads (no_kind: it has none).
  std::size_t skip_peer(std::size_t kind) const noexcept { return skip_[kind]; }

  // ---- on-chip routing -----------------------------------------------------

  /// Section 2.4's local routes: directions V-, U+, U-, V+ in that order.
  /// The first hop from mesh router `from` towards `to` (from != to).
  static mesh_direction local_route(std::size_t from, std::size_t to) noexcept {
    INTERLOCK_ASSERT(from != to, "local_route to itself");
    if (v_of(to) < v_of(from)) return mesh_direction::v_minus;
    if (u_of(to) > u_of(from)) return mesh_direction::u_plus;
    if (u_of(to) < u_of(from)) return mesh_direction::u_minus;
    return mesh_direction::v_plus;
  }
  /// Any direction order of the four (a permutation of mesh_direction): the
  /// first hop from `from` towards `to`. local_route is order {v-, u+, u-, v+}.
  static mesh_direction ordered_route(const std::array<mesh_direction, 4>& order, std::size_t from,
                                      std::size_t to) noexcept {
    for (const mesh_direction d : order) {
      switch (d) {
        case mesh_direction::u_plus:
          if (u_of(to) > u_of(from)) return d;
          break;
        case mesh_direction::u_minus:
          if (u_of(to) < u_of(from)) return d;
          break;
        case mesh_direction::v_plus:
          if (v_of(to) > v_of(from)) return d;
          break;
        case mesh_direction::v_minus:
          if (v_of(to) < v_of(from)) return d;
          break;
      }
    }
    INTERLOCK_ASSERT(false, "ordered_route to itself");
    return order[0];
  }
  static std::size_t mesh_port(mesh_direction d) noexcept {
    return static_cast<std::size_t>(d);  // U+, U-, V+, V- are ports 0..3
  }
  /// The mesh router next to `kind` in direction d.
  static std::size_t mesh_step(std::size_t kind, mesh_direction d) noexcept {
    switch (d) {
      case mesh_direction::u_plus:
        return kind + mesh;
      case mesh_direction::u_minus:
        return kind - mesh;
      case mesh_direction::v_plus:
        return kind + 1;
      case mesh_direction::v_minus:
        return kind - 1;
    }
    return kind;
  }

  // ---- hops ------------------------------------------------------------------

  /// The output port of router r a hop takes.
  template <class Hop>
  std::size_t port_of(node_id r, const Hop& h) const noexcept {
    return port_for(kind(r), h.dimension, h.sign, h.slice);
  }
  /// The router a hop from r leads to (no_node: none, a broken route).
  template <class Hop>
  node_id next(node_id r, const Hop& h) const noexcept {
    const std::size_t k = kind(r);
    const node_id n = node_of(r);
    if (is_adapter(k)) {
      if (h.dimension == dim_router) return router(n, attach_[k - mesh_routers]);
      const unsigned d = channel_dimension(k);
      const int sign = channel_sign(k);
      const node_id m = torus_.neighbor(n, d, sign);
      return m == no_node ? no_node : router(m, adapter_kind(d, -sign, channel_slice(k)));
    }
    if (h.dimension < 3) return router(n, adapter_kind(h.dimension, h.sign, h.slice));
    if (h.dimension == dim_skip) return skip_[k] == no_kind ? no_node : router(n, skip_[k]);
    const mesh_direction d = h.dimension == dim_u
                                 ? (h.sign > 0 ? mesh_direction::u_plus : mesh_direction::u_minus)
                                 : (h.sign > 0 ? mesh_direction::v_plus : mesh_direction::v_minus);
    return router(n, mesh_step(k, d));
  }

  /// Whether router r hosts a core (mesh routers do, adapters not).
  static bool hosts(node_id r) noexcept { return !is_adapter(kind(r)); }
  /// "node (1,0,3) R(0,2)".
  std::string describe_router(node_id r) const {
    std::string text = "node (";
    const auto c = torus_.coordinates_of(node_of(r));
    for (std::size_t d = 0; d < 3; ++d) text += (d ? "," : "") + std::to_string(c[d]);
    return text + ") " + name(kind(r));
  }
  /// "U+", "skip", "C(Y0+)" (a mesh router's link to that adapter), or an
  /// adapter's "router" or "torus link": port p of router r.
  std::string port_name(node_id r, std::size_t p) const {
    const std::size_t k = kind(r);
    if (is_adapter(k)) return p == adapter_router_port ? "router" : "torus link";
    const char* mesh_names[] = {"U+", "U-", "V+", "V-", "skip"};
    if (p <= port_skip) return mesh_names[p];
    const std::size_t c = p <= port_b ? ports_[k][p - port_a] : no_kind;
    return c == no_kind ? "port " + std::to_string(p) : name(c);
  }

  /// The input port a hop from r arrives on at next(r, hop).
  template <class Hop>
  std::size_t next_port(node_id r, const Hop& h) const noexcept {
    const std::size_t k = kind(r);
    if (is_adapter(k))
      return h.dimension == dim_router ? attach_port_[k - mesh_routers] : adapter_torus_port;
    if (h.dimension < 3) return adapter_router_port;
    return port_for(k, h.dimension, h.sign, h.slice);  // mesh and skip: the same port
  }

  /// "R(0,2)", or "C(Y0+)" for an adapter.
  static std::string name(std::size_t kind) {
    if (!is_adapter(kind))
      return "R(" + std::to_string(u_of(kind)) + "," + std::to_string(v_of(kind)) + ")";
    const unsigned d = channel_dimension(kind);
    return std::string("C(") + static_cast<char>('X' + static_cast<int>(d)) +
           std::to_string(channel_slice(kind)) + (channel_sign(kind) > 0 ? "+" : "-") + ")";
  }

 private:
  void place(unsigned d, int sign, unsigned slice, std::size_t u, std::size_t v) {
    const std::size_t k = kind_of(u, v);
    const std::size_t c = channel_index(d, sign, slice);
    const std::size_t slot = ports_[k][0] == no_kind ? 0 : 1;
    ports_[k][slot] = mesh_routers + c;
    attach_[c] = k;
    attach_port_[c] = port_a + slot;
  }
  std::size_t port_for(std::size_t k, unsigned dimension, int sign, unsigned slice) const noexcept {
    if (is_adapter(k)) return dimension == dim_router ? adapter_router_port : adapter_torus_port;
    if (dimension < 3) return attach_port_[channel_index(dimension, sign, slice)];
    if (dimension == dim_skip) return port_skip;
    if (dimension == dim_u) return sign > 0 ? port_u_plus : port_u_minus;
    return sign > 0 ? port_v_plus : port_v_minus;
  }

  torus_topology torus_;
  anton2_links links_;
  std::array<std::array<std::size_t, 2>, mesh_routers> ports_{};  // adapters at ports a, b
  std::array<std::size_t, channels> attach_{};                    // channel -> mesh router
  std::array<std::size_t, channels> attach_port_{};               // channel -> that router's port
  std::array<std::size_t, mesh_routers> skip_{};
};

}  // namespace interlock

#endif  // INTERLOCK_TOPOLOGY_ANTON2_NODE_HPP
