// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/schedulers.hpp: the output schedulers a QoS switch takes, made from SL
// tables.
//
// A switch's output port (and a NIC's injection link) holds packets in VL
// buffers and hands its scheduler one queue per SC ([QoSThesis] Section 2.3:
// the SC is the only QoS identifier a packet carries, and SC2SL gives the SL
// a table is indexed by), so two SLs sharing a VL are told apart by the SC
// of the VL's head packet. InfiniBand's arbiter has no SCs: it takes one
// queue per VL (Section 6.2).
//
// Contract
//   - queues<S>::per_vl: S schedules VLs (ib_vl_arbiter) rather than
//     SCs (every other scheduler).
//   - head_units<S>(flits, shape): a packet's size in S::head_size_unit
//     (credits of credit_bytes for the DTable, bytes for InfiniBand), or in
//     flits for a scheduler that counts packets.
//   - round_robin_scheduler: the thesis's baseline, round robin over the
//     active queues in ascending order from the one served last (the order
//     of Algorithm 1's walk); any queue_requests scheduler fits the slot.
//   - sbt_for(levels, weights): SBT with weights per SL (summing to 100).
//     dtable_for(levels, table, mtus): DTable over the SC queues.
//     ib_for(levels, high, low, limit): InfiniBand's dual table over VLs.
//     Each checks its table through the scheduler's own constructor.
//
// Example
//   interlock::model::qos_switch::service_levels a({0, 1, 2}, {0, 1, 2});
//   // Table 2.2, configuration A:
//   auto sbt = interlock::model::qos_switch::sbt_for(a, {60, 30, 10});
#ifndef INTERLOCK_MODEL_QOS_SWITCH_SCHEDULERS_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_SCHEDULERS_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/model/qos_switch/shape.hpp"
#include "interlock/qos/dtable.hpp"
#include "interlock/qos/ib_vl_arbiter.hpp"
#include "interlock/qos/queue_requests.hpp"
#include "interlock/qos/sbt.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

/// Round robin over a port's active queues: the baseline with no QoS.
class round_robin_scheduler {
 public:
  using request_type = qos::queue_requests;
  interlock::grant arbitrate(const qos::queue_requests& r) const {
    return rr_.arbitrate(r.requests);
  }
  void commit(interlock::grant g, const qos::queue_requests& /*r*/) { rr_.commit(g); }

 private:
  round_robin_arbiter<64, rr_order::ascending> rr_;
};

template <class S>
struct queues {
  static constexpr bool per_vl = false;
};
template <>
struct queues<qos::ib_vl_arbiter> {
  static constexpr bool per_vl = true;
};

namespace detail {
template <class S, class = void>
struct has_head_size_unit : std::false_type {};
template <class S>
struct has_head_size_unit<S, std::void_t<decltype(S::head_size_unit)>> : std::true_type {};
}  // namespace detail

/// A packet of `flits` in the unit S reads head sizes in.
template <class S>
std::uint32_t head_units(std::uint32_t flits, const shape& shape) noexcept {
  if constexpr (detail::has_head_size_unit<S>::value) {
    const std::uint64_t bytes = std::uint64_t{flits} * shape.flit_bytes;
    if constexpr (S::head_size_unit == size_unit::bytes) {
      return static_cast<std::uint32_t>(bytes);
    } else if constexpr (S::head_size_unit == size_unit::credits) {
      return static_cast<std::uint32_t>((bytes + shape.credit_bytes - 1) / shape.credit_bytes);
    } else {
      return flits;
    }
  } else {
    return flits;
  }
}

inline qos::sbt_scheduler sbt_for(const service_levels& levels,
                                  const std::vector<std::uint32_t>& weights) {
  return qos::sbt_scheduler(weights, levels.sc_queue_sls());
}

inline qos::dtable_scheduler dtable_for(const service_levels& levels,
                                        const std::vector<qos::dtable_entry>& table,
                                        const std::vector<std::uint32_t>& mtus) {
  return qos::dtable_scheduler(table, levels.sc_queue_sls(), mtus);
}

inline qos::ib_vl_arbiter ib_for(const qos::ib_vl_arbitration_config& config) {
  return qos::ib_vl_arbiter(config);
}

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_SCHEDULERS_HPP
