// SPDX-License-Identifier: BSL-1.0
// interlock/model/network_checks.hpp: what a network checks of its configuration once, where it
// enters, and the router state it builds from it.
//
// Contract
//   In interlock::model::detail, for network.hpp:
//   - checked_config(c, f): config::check(), then the ports a router of f
//     can have (64: network ports + config::endpoints), config_error naming
//     "slices" or "endpoints";
//   - checked_age(a, f, sets, c): with an age-reading policy, the
//     age_config's port_bias (one per router port) and that a router holds
//     at most 2047 packets (the age clock's 11-bit packet_count), naming
//     "port_bias", "buffer_flits" or "adapter_buffer_flits"; returns the
//     routers to keep age state for;
//   - make_router_state(f, sets, c, candidates): the router_state of the
//     configuration (buffers, staging buffers, head pipeline, switch
//     stages); scheme_candidates(scheme): the most candidates a head can
//     have (1 for an oblivious scheme, detail::is_oblivious_v; else as
//     its topology allows); host_flags(f), min_bandwidth(f): the fabric's
//     hosts, its slowest channel.
//
// Example
//   // interlock::model::detail::checked_config(c, f) throws config_error
//   // {"interlock::model::config", "endpoints", ...} for 60 endpoints.
#ifndef INTERLOCK_MODEL_NETWORK_CHECKS_HPP
#define INTERLOCK_MODEL_NETWORK_CHECKS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/arbiters/age_clock.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/model/config.hpp"
#include "interlock/model/fabric.hpp"
#include "interlock/model/router_state.hpp"
#include "interlock/model/vc_sets.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {
namespace detail {

inline config checked_config(const config& c, const fabric& f) {
  c.check();
  if (f.network_ports() > 63)
    throw config_error("interlock::model::network", "slices", std::to_string(f.torus().slices()),
                       "at most 64 router ports (2 x dimensions x slices + 1)");
  if (f.network_ports() + c.endpoints > 64)
    throw config_error("interlock::model::config", "endpoints", std::to_string(c.endpoints),
                       "at most " + std::to_string(64 - f.network_ports()) +
                           " here: 64 router ports (network ports + endpoints)");
  return c;
}
inline router_state make_router_state(const fabric& f, const vc_sets& sets, const config& c,
                                      std::size_t candidates) {
  router_state s(f, sets.physical(), {c.buffer_flits, c.injection_flits(), c.adapter_flits()},
                 c.min_flits(), candidates, c.endpoints, c.channel_latency);
  if (c.staging_flits != 0) s.add_staging(c.staging_flits, c.staging_flits / c.min_flits());
  if (c.head_cycles != 0) s.add_head_pipeline(c.head_cycles);
  if (c.switch_stages == 2) s.add_switch_stages();
  if (c.persistent_picks) s.add_persistent_picks();
  if (c.pipelined_heads) s.add_pipelined_heads();
  return s;
}
inline std::size_t route_candidates(const torus_topology& t) {
  const std::size_t m = 1 + 2 * t.dimensions() * t.slices();
  return m > max_route_candidates ? max_route_candidates : m;
}
template <class Topology>
auto route_candidates(const Topology& t) -> decltype(t.max_candidates()) {
  return t.max_candidates();
}
template <class Scheme>
std::size_t scheme_candidates(const Scheme& scheme) {
  if constexpr (interlock::detail::is_oblivious_v<Scheme>)
    return 1;
  else
    return route_candidates(scheme.topology());
}
inline std::vector<std::uint8_t> host_flags(const fabric& f) {
  std::vector<std::uint8_t> h(f.routers());
  for (node_id r = 0; r < f.routers(); ++r) h[r] = f.hosts(r) ? 1 : 0;
  return h;
}
inline double min_bandwidth(const fabric& f) {
  double b = 1;
  if (f.uniform_bandwidth()) return b;
  for (node_id r = 0; r < f.routers(); ++r)
    for (std::size_t o = 0; o < f.network_ports(); ++o) b = std::min(b, f.bandwidth(r, o));
  return b;
}
inline node_id checked_age(const age_config& a, const fabric& f, const vc_sets& sets,
                           const config& c) {
  const std::size_t network = f.network_ports();
  if (!a.port_bias.empty() && a.port_bias.size() != network + 1)
    throw config_error("interlock::model::age_config", "port_bias",
                       std::to_string(a.port_bias.size()) + " ports",
                       "one bias per router port (" + std::to_string(network + 1) + ")");
  // The age clock's packet_count (11 bits) must hold every packet a router
  // can store (the deeper kind's, with channel adapters).
  bool adapters = false;
  for (node_id r = 0; r < f.routers() && !adapters; ++r) adapters = !f.hosts(r);
  const unsigned deepest = adapters ? std::max(c.buffer_flits, c.adapter_flits()) : c.buffer_flits;
  const bool by_adapters = deepest != c.buffer_flits;
  const std::size_t capacity = deepest / c.min_flits();
  const std::size_t ports = network + c.endpoints;
  const std::size_t packets =
      (network * capacity + c.endpoints * (c.injection_flits() / c.min_flits()) +
       ports * (c.staging_flits / c.min_flits())) *
      sets.physical();
  if (packets > age_clock::max_packet_count)
    throw config_error(
        "interlock::model::config", by_adapters ? "adapter_buffer_flits" : "buffer_flits",
        std::to_string(deepest),
        "a router holding at most 2047 packets with an age arbiter (the age clock's "
        "11-bit packet_count): " +
            std::to_string(ports) + " ports x " + std::to_string(sets.physical()) + " VCs of " +
            std::to_string(capacity) +
            " packets of the shortest length (the local port's by injection_buffer_flits, and "
            "the staging buffers) is too many");
  return f.routers();
}

}  // namespace detail
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_NETWORK_CHECKS_HPP
