// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/network_layouts.hpp: networks of QoS switches as [QoSThesis] Chapter 5
// builds them.
//
// Contract
//   - fat_tree_layout(tree): a k-ary n-tree (topology/kary_ntree.hpp) of
//     2k-port switches, NIC i on leaf w = i / k, port i % k; up*/down*
//     routes, the up ports as one group (a port picked at random per packet
//     at every switch on the way up), all on class 0.
//   - torus_layout(t, trunk, nics_per_switch): one switch per node of the
//     torus t, its ports as trunk links of `trunk` ports per direction (port
//     (2d + (sign < 0)) x trunk + i; Section 5.5.2's 8x8 torus of 48-port
//     switches: trunk 10, 8 NICs on ports 40..47) and then the NICs. NIC
//     node x nics_per_switch + j hangs on port 2n x trunk + j. Dimension
//     order, the shorter way round each ring (ties: +), a trunk's ports as
//     one group. Classes avoid the rings' cycles: a hop is class 0 while the
//     ring's dateline (the wrap link k-1 -> 0 going +, 0 -> k-1 going -) is
//     still ahead of it, class 1 once no dateline is ahead; class-1 packets
//     never take a wrap link and class-0 dependencies end at it, so neither
//     class closes a ring (the thesis gives each SL one SC and one VL and
//     does not say how its tori avoid deadlock; two classes need two SCs
//     per SL, service_levels' class-1 map). Meshes (no wrap) use class 0.
//   config_error when the ports do not fit the shape (ports = 2n x trunk +
//   NICs per switch, at most 256).
//
// Example
//   interlock::kary_ntree tree(4, 3);
//   auto layout = interlock::model::qos_switch::fat_tree_layout(tree);   // 48 switches, 64 NICs
#ifndef INTERLOCK_MODEL_QOS_SWITCH_NETWORK_LAYOUTS_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_NETWORK_LAYOUTS_HPP

#include <cstddef>
#include <string>

#include "interlock/core/config_error.hpp"
#include "interlock/model/qos_switch/layout.hpp"
#include "interlock/topology/kary_ntree.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

inline layout fat_tree_layout(const kary_ntree& tree) {
  const std::size_t k = tree.k();
  layout layout(tree.switches(), tree.ports(), tree.nics());
  for (std::size_t nic = 0; nic < tree.nics(); ++nic)
    layout.attach_nic(nic, tree.leaf(nic), tree.nic_port(nic));
  for (std::size_t s = 0; s < tree.switches(); ++s) {
    if (tree.level(s) + 1 >= tree.n()) continue;
    for (std::size_t j = 0; j < k; ++j) {
      const auto up = tree.up_peer(s, j);
      layout.connect(s, k + j, up.first, up.second);
    }
  }
  for (std::size_t s = 0; s < tree.switches(); ++s) {
    for (std::size_t nic = 0; nic < tree.nics(); ++nic) {
      if (tree.in_subtree(s, nic)) {
        layout.set_route(s, nic, tree.down_port(s, nic));
      } else {
        layout.set_route(s, nic, k, k);
      }
    }
  }
  return layout;
}

inline layout torus_layout(const torus_topology& t, std::size_t trunk,
                           std::size_t nics_per_switch) {
  const std::size_t n = t.dimensions();
  const std::size_t ports = 2 * n * trunk + nics_per_switch;
  if (trunk < 1 || nics_per_switch < 1 || ports > 256) {
    throw config_error("torus_layout", "ports (2n x trunk + NICs per switch)",
                       std::to_string(ports), "2..256, with trunk and NICs per switch >= 1");
  }
  const std::size_t nodes = t.node_count();
  layout layout(nodes, ports, nodes * nics_per_switch);
  const auto trunk_port = [&](std::size_t d, int sign) { return (2 * d + (sign < 0)) * trunk; };
  for (std::size_t s = 0; s < nodes; ++s) {
    for (std::size_t j = 0; j < nics_per_switch; ++j)
      layout.attach_nic(s * nics_per_switch + j, s, 2 * n * trunk + j);
    for (std::size_t d = 0; d < n; ++d) {
      const node_id next = t.neighbor(static_cast<node_id>(s), d, +1);
      if (next == no_node) continue;
      for (std::size_t i = 0; i < trunk; ++i)
        layout.connect(s, trunk_port(d, +1) + i, next, trunk_port(d, -1) + i);
    }
  }
  for (std::size_t s = 0; s < nodes; ++s) {
    const coordinates here = t.coordinates_of(static_cast<node_id>(s));
    for (std::size_t nic = 0; nic < layout.nics(); ++nic) {
      const std::size_t to = nic / nics_per_switch;
      if (to == s) {
        layout.set_route(s, nic, 2 * n * trunk + nic % nics_per_switch);
        continue;
      }
      const coordinates there = t.coordinates_of(static_cast<node_id>(to));
      std::size_t d = 0;
      while (here[d] == there[d]) ++d;
      const std::size_t k = t.radix(d), z = here[d], y = there[d];
      int sign = y > z ? +1 : -1;
      std::size_t cls = 0;
      if (t.wraps(d)) {
        const std::size_t forward = (y + k - z) % k;  // hops going +
        sign = forward <= k - forward ? +1 : -1;
        const bool dateline_ahead = sign > 0 ? y < z : y > z;
        cls = dateline_ahead ? 0 : 1;
      }
      layout.set_route(s, nic, trunk_port(d, sign), trunk, cls);
    }
  }
  return layout;
}

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_NETWORK_LAYOUTS_HPP
