// SPDX-License-Identifier: BSL-1.0
// interlock/model/network_results.hpp: the measures a network collects at the end of a run
// from its routers: request shares and the Table 4 age counters.
//
// Contract
//   collect_requests(r, router, state): with config::count_requests, the
//   share of its arbiter's cycles each input port requested each output,
//   over every (router, output, input) pair that requested at all:
//   results::request_pairs, request_share_mean, _p10 and _p50.
//   collect_age(r, a, b, fabric, ports): the age counters between two
//   snapshots (the measured window): the departures' age histogram, blocked
//   and stalled cycles by input direction (local, on-chip, +X .. -Z),
//   occupancy, epoch switches and the share of router-cycles the age clock
//   was inhibited.
//
// Example
//   // network::collect calls detail::collect_requests(r, router, s).
#ifndef INTERLOCK_MODEL_NETWORK_RESULTS_HPP
#define INTERLOCK_MODEL_NETWORK_RESULTS_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interlock/model/age_support.hpp"
#include "interlock/model/fabric.hpp"
#include "interlock/model/measurement.hpp"
#include "interlock/model/router_state.hpp"

namespace interlock {
namespace model {
namespace detail {

/// The share of its arbiter's cycles each input port requested each output,
/// over every output that arbitrated (router: the network's routers).
template <class Router>
void collect_requests(results& r, const Router& router, const router_state& s) {
  std::vector<double> shares;
  for (node_id x = 0; x < s.nodes; ++x)
    for (std::size_t o = 0; o < s.ports_of(x); ++o) {
      const std::uint64_t cycles = router.arbitrations(x, o);
      if (cycles == 0) continue;
      for (std::size_t i = 0; i < s.ports; ++i) {
        const std::uint64_t k = router.request_cycles(x, o, i);
        if (k != 0) shares.push_back(static_cast<double>(k) / static_cast<double>(cycles));
      }
    }
  r.request_pairs = shares.size();
  if (shares.empty()) return;
  double sum = 0;
  for (const double x : shares) sum += x;
  r.request_share_mean = sum / static_cast<double>(shares.size());
  std::sort(shares.begin(), shares.end());
  r.request_share_p10 = shares[shares.size() / 10];
  r.request_share_p50 = shares[shares.size() / 2];
}

/// The Table 4 counters between snapshots a and b (the measured window),
/// by input port direction; `ports` per router in the snapshots.
inline void collect_age(results& r, const age_snapshot& a, const age_snapshot& b, const fabric& f,
                        std::size_t ports) {
  r.has_age = true;
  const std::size_t dims = f.torus().dimensions();
  r.stalled_by_direction.assign(dims, {0, 0});
  std::vector<std::array<std::uint64_t, 2>> packets(dims, {0, 0});
  std::uint64_t all_packets = 0;
  for (std::size_t i = 0; i < b.ports.size(); ++i) {
    const router_perf_counters& x = a.ports[i];
    const router_perf_counters& y = b.ports[i];
    for (unsigned k = 0; k < 4; ++k) {
      r.age_histogram[k] += static_cast<std::uint32_t>(y.age_bucket(k) - x.age_bucket(k));
      r.vc_blocked[k] += y.vc_blocked(k) - x.vc_blocked(k);
    }
    const std::uint64_t stalled = y.stalled() - x.stalled();
    const std::uint64_t received =
        y.vc_packets(0) + y.vc_packets(1) - x.vc_packets(0) - x.vc_packets(1);
    r.stalled_cycles += stalled;
    all_packets += received;
    const std::size_t port = i % ports;
    if (port >= f.network_ports()) {
      r.stalled_local += stalled;
      continue;
    }
    const channel_direction info = f.in_direction(static_cast<node_id>(i / ports), port);
    if (!info.between_nodes()) {
      r.stalled_on_chip += stalled;
      continue;
    }
    const std::size_t side = info.sign > 0 ? 0 : 1;
    const auto dim = static_cast<std::size_t>(info.dimension);
    r.stalled_by_direction[dim][side] += stalled;
    packets[dim][side] += received;
  }
  r.occupancy_by_direction.assign(dims, {0.0, 0.0});
  for (std::size_t d = 0; d < dims; ++d)
    for (std::size_t side = 0; side < 2; ++side)
      r.occupancy_by_direction[d][side] =
          packets[d][side] == 0 ? 0.0
                                : static_cast<double>(r.stalled_by_direction[d][side]) /
                                      static_cast<double>(packets[d][side]);
  r.occupancy = all_packets == 0
                    ? 0.0
                    : static_cast<double>(r.stalled_cycles) / static_cast<double>(all_packets);
  r.epoch_switches = b.epoch_switches - a.epoch_switches;
  const double router_cycles =
      static_cast<double>(f.routers()) * static_cast<double>(b.cycle - a.cycle);
  r.inhibited_share =
      router_cycles > 0 ? static_cast<double>(b.inhibited_ticks - a.inhibited_ticks) / router_cycles
                        : 0.0;
}

}  // namespace detail
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_NETWORK_RESULTS_HPP
