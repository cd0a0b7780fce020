// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/age_counters.hpp: the SeaStar router performance counters used to tune aging.
//
// Models Table 4 of Abts & Weisser (SC'07) and the occupancy metric of
// Equation 17:
//   RTR_PERF_VCv_BLOCKED  cycles VC v spent blocked waiting for buffer space
//   RTR_PERF_STALLED      cycles stalled without enough VC send credits
//   RTR_AGE_GROUP0/1      age histogram: four 32-bit buckets of 64 ages,
//                         [31:0] and [63:32] of each register
//   RTR_PERF_VCv_PKTS/FLITS  packets and flits received per VC
//   occupancy = RTR_PERF_STALLED / (PKTS of VC0 + PKTS of VC1)   (Eq. 17)
//
// Contract
//   The model calls the count_* hooks; nothing here is called by the
//   arbiter itself. The age histogram counts each packet's age as it leaves
//   (the age send_packet stuffs into the header). Counters wrap at their
//   width (64 bits; 32 bits per histogram bucket), as hardware counters do.
//   A VC outside 0..3 is a contract violation and is otherwise not counted.
//
// Example
//   interlock::router_perf_counters perf;
//   perf.count_departure_age(200);             // bucket 3
//   assert(perf.age_group1() >> 32 == 1);
#ifndef INTERLOCK_ARBITERS_AGE_COUNTERS_HPP
#define INTERLOCK_ARBITERS_AGE_COUNTERS_HPP

#include <array>
#include <cstdint>

#include "interlock/core/assert.hpp"

namespace interlock {

class router_perf_counters {
 public:
  static constexpr unsigned vcs = 4;

  void count_blocked_cycle(unsigned vc) {
    if (valid(vc)) ++vc_blocked_[vc];
  }
  void count_stalled_cycle() noexcept { ++stalled_; }
  /// n cycles at once, for an event-driven model that skips cycles in which
  /// nothing changes.
  void count_blocked_cycles(unsigned vc, std::uint64_t n) {
    if (valid(vc)) vc_blocked_[vc] += n;
  }
  void count_stalled_cycles(std::uint64_t n) noexcept { stalled_ += n; }
  void count_received(unsigned vc, std::uint64_t flits) {
    if (!valid(vc)) return;
    ++vc_packets_[vc];
    vc_flits_[vc] += flits;
  }
  void count_departure_age(std::uint8_t age) noexcept { ++buckets_[age >> 6]; }

  std::uint64_t vc_blocked(unsigned vc) const noexcept { return vc_blocked_[vc & 3u]; }
  std::uint64_t stalled() const noexcept { return stalled_; }
  std::uint64_t vc_packets(unsigned vc) const noexcept { return vc_packets_[vc & 3u]; }
  std::uint64_t vc_flits(unsigned vc) const noexcept { return vc_flits_[vc & 3u]; }
  /// Packets that left with an age in [64b, 64b + 63].
  std::uint32_t age_bucket(unsigned b) const noexcept { return buckets_[b & 3u]; }
  /// RTR_AGE_GROUP0: [31:0] ages 0..63, [63:32] ages 64..127.
  std::uint64_t age_group0() const noexcept {
    return std::uint64_t{buckets_[1]} << 32 | buckets_[0];
  }
  /// RTR_AGE_GROUP1: [31:0] ages 128..191, [63:32] ages 192..255.
  std::uint64_t age_group1() const noexcept {
    return std::uint64_t{buckets_[3]} << 32 | buckets_[2];
  }
  /// Equation 17: stalled cycles per request-class packet (0 when none).
  double occupancy() const noexcept {
    const std::uint64_t packets = vc_packets_[0] + vc_packets_[1];
    return packets == 0 ? 0.0 : static_cast<double>(stalled_) / static_cast<double>(packets);
  }

 private:
  static bool valid(unsigned vc) {
    INTERLOCK_ASSERT(vc < vcs, "SeaStar has VC0..VC3");
    return vc < vcs;
  }

  std::array<std::uint64_t, vcs> vc_blocked_{};
  std::uint64_t stalled_ = 0;
  std::array<std::uint64_t, vcs> vc_packets_{};
  std::array<std::uint64_t, vcs> vc_flits_{};
  std::array<std::uint32_t, 4> buckets_{};
};

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_AGE_COUNTERS_HPP
