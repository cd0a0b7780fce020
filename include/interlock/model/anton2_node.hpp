// SPDX-License-Identifier: BSL-1.0
// interlock/model/anton2_node.hpp: the fabric of Anton 2's unified network, for the model.
//
// Contract
//   make_fabric(anton2_topology) lays out every node of the topology
//   (topology/anton2_node.hpp) as the model's routers: 16 mesh routers with
//   their U and V channels, the two skip channels, and 12 channel adapters,
//   each linked both ways to its mesh router, joined by torus links of
//   anton2_links::torus_bandwidth flits per cycle and torus_latency extra
//   cycles. Mesh routers host one endpoint each (a core); adapters none.
//   Ports are numbered as the topology numbers them; reports name routers
//   "R(u,v)" and adapters "C(Y0+)". A network of anton2_routing runs on it.
//   to_cores(a, f) turns a node pattern f(node, rng) (a node_id or a
//   labelled_destination; no_node: nothing) into the network's traffic
//   source over cores: a core's packet goes to the node f draws for the
//   core's node, to one of its 16 cores drawn uniformly, as Section 4's
//   "cores on node (x, y, z) send ... to node ..." (the text does not say
//   which core: here any, with equal probability).
//
// Example
//   interlock::torus_topology torus({4, 4, 4}, {}, 2);
//   interlock::anton2_topology node(torus);
//   interlock::model::fabric f = interlock::model::make_fabric(node);
//   // f.routers() == 64 * 28
#ifndef INTERLOCK_MODEL_ANTON2_NODE_HPP
#define INTERLOCK_MODEL_ANTON2_NODE_HPP

#include <cstddef>
#include <string>
#include <utility>

#include "interlock/core/random.hpp"
#include "interlock/model/fabric.hpp"
#include "interlock/model/sources.hpp"
#include "interlock/topology/anton2_node.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

inline fabric make_fabric(const anton2_topology& a) {
  using at = anton2_topology;
  const torus_topology& t = a.torus();
  fabric f(t, at::routers_per_node, at::network_ports);
  const mesh_direction directions[] = {mesh_direction::u_plus, mesh_direction::u_minus,
                                       mesh_direction::v_plus, mesh_direction::v_minus};
  for (node_id n = 0; n < t.node_count(); ++n) {
    for (std::size_t k = 0; k < at::mesh_routers; ++k) {
      const node_id r = a.router(n, k);
      for (const mesh_direction d : directions) {
        const bool inside = (d == mesh_direction::u_plus && at::u_of(k) + 1 < at::mesh) ||
                            (d == mesh_direction::u_minus && at::u_of(k) > 0) ||
                            (d == mesh_direction::v_plus && at::v_of(k) + 1 < at::mesh) ||
                            (d == mesh_direction::v_minus && at::v_of(k) > 0);
        if (inside)
          f.connect(r, at::mesh_port(d), a.router(n, at::mesh_step(k, d)), at::mesh_port(d));
      }
      if (a.skip_peer(k) != at::no_kind)
        f.connect(r, at::port_skip, a.router(n, a.skip_peer(k)), at::port_skip);
      for (std::size_t p = at::port_a; p <= at::port_b; ++p) {
        const std::size_t c = a.adapter_at(k, p);
        if (c == at::no_kind) continue;
        f.connect(r, p, a.router(n, c), at::adapter_router_port);
        f.connect(a.router(n, c), at::adapter_router_port, r, p);
      }
    }
    for (std::size_t c = at::mesh_routers; c < at::routers_per_node; ++c) {
      const unsigned d = at::channel_dimension(c);
      const int sign = at::channel_sign(c);
      const unsigned slice = at::channel_slice(c);
      const node_id m = t.neighbor(n, d, sign);
      f.connect(a.router(n, c), at::adapter_torus_port,
                a.router(m, at::adapter_kind(d, -sign, slice)), at::adapter_torus_port,
                channel_direction{static_cast<std::int8_t>(d), static_cast<std::int8_t>(sign),
                                  static_cast<std::uint8_t>(slice)},
                a.links().torus_bandwidth, a.links().torus_latency);
    }
  }
  const char* mesh_names[] = {"U+", "U-", "V+", "V-", "skip"};
  for (std::size_t k = 0; k < at::routers_per_node; ++k) {
    f.set_name(k, at::name(k));
    if (at::is_adapter(k)) {
      f.set_host(k, false);
      f.set_port_name(k, at::adapter_router_port, "from its router");
      f.set_port_name(k, at::adapter_torus_port, "from the torus link");
      continue;
    }
    for (std::size_t p = 0; p <= at::port_skip; ++p) f.set_port_name(k, p, mesh_names[p]);
    for (std::size_t p = at::port_a; p <= at::port_b; ++p)
      if (a.adapter_at(k, p) != at::no_kind)
        f.set_port_name(k, p, "from " + at::name(a.adapter_at(k, p)));
  }
  return f;
}

template <class NodePattern>
traffic_source to_cores(const anton2_topology& a, NodePattern f) {
  const traffic_source nodes(std::move(f));
  return [&a, nodes](node_id source, splitmix64& rng) {
    const labelled_destination d = nodes(anton2_topology::node_of(source), rng);
    if (d.node == no_node) return d;
    const auto core = static_cast<std::size_t>(uniform_below(rng, anton2_topology::mesh_routers));
    return labelled_destination{a.router(d.node, core), d.pattern};
  };
}

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_ANTON2_NODE_HPP
