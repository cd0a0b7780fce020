// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/zero_load.hpp: a switch network's latency without load, and the
// routing time that gives a wanted one.
//
// The end-to-end latency of a lone packet is the pipeline's: each switch's
// stages (latencies), the links, and the packet's serialization. A
// network's zero-load latency for an SL is its mean over every ordered pair
// of distinct NICs, each packet alone in the network. Each switch a route
// crosses routes its header once, so the zero-load latency grows by the
// mean number of switches per route for each cycle added to RT; a target
// zero-load latency (for instance one read off a paper's figures) fixes the
// RT that reaches it.
//
// Contract
//   - zero_load_latency<Scheduler>(layout, shape, levels, traffic,
//     scheduler, sl) -> the mean, in cycles (NICs x (NICs - 1) packets, one
//     at a time: O(NICs^2 x route length) events).
//   - rt_for_zero_load<Scheduler>(..., sl, target) -> the RT, in cycles,
//     whose zero-load latency is nearest `target` (cycles), from two
//     measurements at shape's RT and one more; config_error (naming "zero-
//     load target") when even RT = 0 stays above the target or the RT
//     needed passes 100,000 cycles.
//
// Example
//   // with interlock/model/qos_switch/network_layouts.hpp: one SL of 16-flit packets, 8 ports
//   interlock::model::qos_switch::shape shape = interlock::model::qos_switch::opa_48_port();
//   shape.ports = 8;
//   const interlock::model::qos_switch::service_levels levels({0}, {0});
//   const interlock::model::qos_switch::sl_traffic traffic{{1.0}, {16}};
//   double cycles = interlock::model::qos_switch::zero_load_latency(
//       interlock::model::qos_switch::single_switch(8), shape, levels, traffic,
//       interlock::model::qos_switch::round_robin_scheduler{}, 0);
//   assert(cycles > 16);  // the pipeline, then 16 flits
#ifndef INTERLOCK_MODEL_QOS_SWITCH_ZERO_LOAD_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_ZERO_LOAD_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "interlock/core/config_error.hpp"
#include "interlock/model/qos_switch.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

template <class Scheduler>
double zero_load_latency(const layout& layout, const shape& shape, const service_levels& levels,
                         const sl_traffic& traffic, const Scheduler& scheduler, std::size_t sl) {
  network<Scheduler> net(layout, shape, levels, traffic, scheduler);
  const std::size_t nics = layout.nics();
  for (std::size_t src = 0; src < nics; ++src)
    for (std::size_t dst = 0; dst < nics; ++dst) {
      if (src == dst) continue;
      net.inject(src, dst, sl);
      net.drain();
    }
  return net.results()[sl].latency_mean;
}

template <class Scheduler>
std::uint32_t rt_for_zero_load(const layout& layout, shape shape, const service_levels& levels,
                               const sl_traffic& traffic, const Scheduler& scheduler,
                               std::size_t sl, double target) {
  const double at = zero_load_latency(layout, shape, levels, traffic, scheduler, sl);
  const std::uint32_t rt = shape.latency.rt;
  ++shape.latency.rt;
  // Cycles of zero-load latency per cycle of RT: switches per route.
  const double per = zero_load_latency(layout, shape, levels, traffic, scheduler, sl) - at;
  const double wanted = std::round(static_cast<double>(rt) + (target - at) / per);
  if (!(wanted >= 0 && wanted <= 100000)) {
    throw config_error("network", "zero-load target", std::to_string(target),
                       "a latency RT 0..100000 reaches: " + std::to_string(at) + " cycles at RT " +
                           std::to_string(rt) + ", " + std::to_string(per) +
                           " more per cycle of RT");
  }
  return static_cast<std::uint32_t>(wanted);
}

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_ZERO_LOAD_HPP
