// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/vl_buffer.hpp: a switch buffer whose space the VLs share dynamically.
//
// Models [QoSThesis] Sections 2.2.1 and 4.2.2: "VL buffer storage space is
// dynamically managed, i.e. the buffer space is shared by all the VLs ...
// ensuring a minimum and a maximum amount of flits per VL". The thesis names
// the two bounds and no rule between them; the rule here is the usual one
// for shared buffers: each VL owns its minimum, and above it draws on the
// space no VL owns (capacity - sum of minimums), never beyond its maximum.
//
// Contract
//   - vl_space(capacity, vls, min_flits, max_flits): a capacity in flits
//     split among 1..32 VLs, each guaranteed min_flits and capped at
//     max_flits; vls x min_flits <= capacity and min_flits <= max_flits <=
//     capacity, config_error naming the field otherwise.
//   - fits(vl, flits): a packet of `flits` may be stored in `vl` now;
//     reserve() stores it (precondition: fits), release() frees it. used(vl)
//     and used() count flits; shared_used() the flits above the minimums.
//   - packet_fifo: the packets of one VL in arrival order, linked through a
//     `next` field of the caller's records, so queueing allocates nothing.
//   Complexity: O(1) per call.
//
// Example
//   interlock::model::qos_switch::vl_space b(256, 3, 16, 256);   // 3 VLs, 16 flits each guaranteed
//   b.reserve(0, 224);                                // VL0: its 16 and all 208 shared
//   assert(!b.fits(0, 16) && b.fits(1, 16));          // VL1 still has its own 16
#ifndef INTERLOCK_MODEL_QOS_SWITCH_VL_BUFFER_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_VL_BUFFER_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "interlock/core/assert.hpp"
#include "interlock/core/config_error.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

class vl_space {
 public:
  static constexpr std::size_t max_vls = 32;

  vl_space() = default;
  vl_space(std::uint32_t capacity, std::size_t vls, std::uint32_t min_flits,
           std::uint32_t max_flits)
      : capacity_(capacity), vls_(vls), min_(min_flits), max_(max_flits) {
    interlock::detail::require_in_range("vl_space", "VLs", vls, 1, max_vls);
    interlock::detail::require_in_range("vl_space", "capacity", capacity, 1, 1u << 30);
    if (std::uint64_t{min_flits} * vls > capacity) {
      throw config_error("vl_space", "minimum per VL", std::to_string(min_flits),
                         "at most capacity / VLs = " + std::to_string(capacity / vls));
    }
    interlock::detail::require_in_range("vl_space", "maximum per VL", max_flits,
                                        min_flits > 0 ? min_flits : 1, capacity);
    shared_ = capacity - min_flits * static_cast<std::uint32_t>(vls);
  }

  bool fits(std::size_t vl, std::uint32_t flits) const noexcept {
    const std::uint32_t after = used_[vl] + flits;
    if (after > max_) return false;
    return shared_used_ + excess(after) - excess(used_[vl]) <= shared_;
  }
  void reserve(std::size_t vl, std::uint32_t flits) noexcept {
    INTERLOCK_ASSERT(fits(vl, flits), "vl_space::reserve: the packet does not fit");
    shared_used_ += excess(used_[vl] + flits) - excess(used_[vl]);
    used_[vl] += flits;
    total_ += flits;
  }
  void release(std::size_t vl, std::uint32_t flits) noexcept {
    INTERLOCK_ASSERT(used_[vl] >= flits, "vl_space::release: more than the VL holds");
    shared_used_ -= excess(used_[vl]) - excess(used_[vl] - flits);
    used_[vl] -= flits;
    total_ -= flits;
  }

  std::uint32_t used(std::size_t vl) const noexcept { return used_[vl]; }
  std::uint32_t used() const noexcept { return total_; }
  std::uint32_t shared_used() const noexcept { return shared_used_; }
  std::uint32_t capacity() const noexcept { return capacity_; }
  std::size_t vls() const noexcept { return vls_; }

  friend bool operator==(const vl_space& a, const vl_space& b) noexcept {
    return a.used_ == b.used_ && a.capacity_ == b.capacity_ && a.min_ == b.min_ && a.max_ == b.max_;
  }
  friend bool operator!=(const vl_space& a, const vl_space& b) noexcept { return !(a == b); }

 private:
  std::uint32_t excess(std::uint32_t used) const noexcept { return used > min_ ? used - min_ : 0; }

  std::uint32_t capacity_ = 0;
  std::size_t vls_ = 0;
  std::uint32_t min_ = 0, max_ = 0, shared_ = 0;
  std::uint32_t shared_used_ = 0, total_ = 0;
  std::array<std::uint32_t, max_vls> used_{};
};

/// No packet in a packet_fifo link.
inline constexpr std::uint32_t fifo_end = 0xFFFFFFFFu;

/// One VL's packets in arrival order, linked through records' `next` field.
struct packet_fifo {
  std::uint32_t head = fifo_end, tail = fifo_end;

  bool empty() const noexcept { return head == fifo_end; }
  template <class Records>
  void push(Records& records, std::uint32_t id) noexcept {
    records[id].next = fifo_end;
    if (tail == fifo_end) {
      head = id;
    } else {
      records[tail].next = id;
    }
    tail = id;
  }
  template <class Records>
  std::uint32_t pop(Records& records) noexcept {
    const std::uint32_t id = head;
    head = records[id].next;
    if (head == fifo_end) tail = fifo_end;
    return id;
  }
};

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_VL_BUFFER_HPP
