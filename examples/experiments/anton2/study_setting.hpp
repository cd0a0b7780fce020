// SPDX-License-Identifier: BSL-1.0
// The network setting a registered Anton 2 study runs (docs/results.md: the
// Figure 9 and Figure 10 studies): the torus's size and the text's unknowns
// (mesh router and channel adapter buffers, torus link latency, pipeline),
// and whether the setting is physically consistent.
//
// Contract
//   consistent(adapter, latency) is true when adapter buffers of `adapter`
//   flits per VC cover a torus link's credit round trip at `latency` extra
//   cycles: round_trip_flits(latency) = ceil(89.6 / 288 x (2 (1 + latency)
//   + 2)), Anton 2's torus link bandwidth in flits per cycle over that
//   round trip (2 flits at latency 0, 22 at 32, 61 at 96). name(c) is the
//   setting as the studies' reports write it.
#ifndef INTERLOCK_EXAMPLES_ANTON2_STUDY_SETTING_HPP
#define INTERLOCK_EXAMPLES_ANTON2_STUDY_SETTING_HPP

#include <interlock/topology/anton2_node.hpp>

#include <cmath>
#include <string>
#include <tuple>

#include "cli.hpp"

namespace study_setting {

/// Whether adapter buffers of `adapter_flits` per VC cover a torus link's
/// credit round trip at `torus_latency`: a packet's head reaches the next
/// adapter 1 + latency cycles after it leaves, its credit comes back as
/// long after its tail leaves there, with a cycle at each end, so one VC
/// keeps the link busy when it holds the flits the link carries in
/// 2 (1 + latency) + 2 cycles (rounded up).
inline unsigned round_trip_flits(unsigned torus_latency) {
  const double bandwidth = interlock::anton2_links{}.torus_bandwidth;
  return static_cast<unsigned>(std::ceil(bandwidth * (2.0 * (1.0 + torus_latency) + 2.0) - 1e-9));
}
inline bool consistent(unsigned adapter_flits, unsigned torus_latency) {
  return adapter_flits >= round_trip_flits(torus_latency);
}

/// A network setting: size (the torus's radix) and the text's unknowns.
struct cell {
  unsigned size = 0, router_buffer = 0, adapter_buffer = 0, torus_latency = 0, pipeline = 0;
  auto key() const {
    return std::make_tuple(size, router_buffer, adapter_buffer, torus_latency, pipeline);
  }
  bool operator<(const cell& o) const { return key() < o.key(); }
  bool operator==(const cell& o) const { return key() == o.key(); }
};

inline std::string name(const cell& c) {
  return cli::format("%ux%ux%u, router %u, adapter %u, latency %u, pipeline %u", c.size, c.size,
                     c.size, c.router_buffer, c.adapter_buffer, c.torus_latency, c.pipeline);
}

}  // namespace study_setting

#endif  // INTERLOCK_EXAMPLES_ANTON2_STUDY_SETTING_HPP
