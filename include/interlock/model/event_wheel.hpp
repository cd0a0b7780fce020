// SPDX-License-Identifier: BSL-1.0
// interlock/model/event_wheel.hpp: the model's events and the timing wheel that holds them.
//
// Contract
//   An event is a packet's head arriving at an input buffer, credits arriving
//   at an output, a packet delivered at its destination's ejection port, or
//   an output staging buffer's space coming back (port: the output; vc: the
//   staging buffer, input port x VCs + VC); each names a router.
//   basic_event_wheel<Event> keeps events of any type by the cycle they
//   happen in, in a ring of slots one per cycle (event_wheel: the torus
//   model's events; event_calendar.hpp adds events beyond the reach, for the
//   QoS switch); within a cycle they stay in the order scheduled; every event must
//   be scheduled less than reach() cycles ahead (the reach is fixed when the
//   wheel is built: the longest delay a run has). Scheduling is O(1) and, once
//   the storage has grown to the busiest cycles, allocates nothing: a cleared
//   slot's storage passes to the next slot to take an event, so storage is
//   kept for as many cycles as hold events at once, not for the whole reach.
//   due(t) is the slot of cycle t; the caller handles its events, then
//   clear(t).
//   pending() counts the events scheduled and not cleared; storage() the
//   events the slots have room for.
//
// Example
//   interlock::model::event_wheel wheel(16);    // events up to 15 cycles ahead
//   wheel.schedule(3, {interlock::model::event_kind::credit, 1, 0, 5, 4});
//   for (const auto& e : wheel.due(3)) { (void)e; }
//   wheel.clear(3);
#ifndef INTERLOCK_MODEL_EVENT_WHEEL_HPP
#define INTERLOCK_MODEL_EVENT_WHEEL_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

enum class event_kind : std::uint8_t { arrival, credit, delivery, staging_credit };

struct event {
  event_kind kind;
  std::uint8_t port;
  std::uint8_t vc;
  node_id router;
  std::uint32_t payload;  // arrival, delivery: the packet; credit, staging_credit: flits
};

template <class Event>
class basic_event_wheel {
 public:
  /// A wheel for events at most `reach - 1` cycles ahead of the cycle handled.
  explicit basic_event_wheel(std::uint64_t reach = 2) {
    while (size_ < reach) size_ <<= 1;
    slots_.resize(size_);
    spare_.reserve(size_);
  }

  void schedule(std::uint64_t at, const Event& e) {
    std::vector<Event>& slot = slots_[at & (size_ - 1)];
    if (slot.capacity() == 0 && !spare_.empty()) {
      slot.swap(spare_.back());
      spare_.pop_back();
    }
    slot.push_back(e);
    ++pending_;
  }
  std::vector<Event>& due(std::uint64_t t) { return slots_[t & (size_ - 1)]; }
  /// Empties cycle t's slot, once its events are handled. Its storage goes
  /// to the next slot to take an event, so that only as many slots as hold
  /// events at once keep storage, not every slot of the reach.
  void clear(std::uint64_t t) {
    auto& slot = slots_[t & (size_ - 1)];
    pending_ -= slot.size();
    slot.clear();
    if (slot.capacity() != 0) {
      spare_.emplace_back();
      spare_.back().swap(slot);
    }
  }
  /// Events scheduled and not yet cleared.
  std::uint64_t pending() const noexcept { return pending_; }
  std::uint64_t reach() const noexcept { return size_; }
  /// The events the wheel has storage for, in all its slots.
  std::size_t storage() const noexcept {
    std::size_t n = 0;
    for (const auto& slot : slots_) n += slot.capacity();
    for (const auto& slot : spare_) n += slot.capacity();
    return n;
  }
  /// Every pending event, in no particular order (audits).
  template <class F>
  void for_each(F&& f) const {
    for (const auto& slot : slots_)
      for (const Event& e : slot) f(e);
  }

 private:
  std::uint64_t size_ = 1, pending_ = 0;
  std::vector<std::vector<Event>> slots_;
  std::vector<std::vector<Event>> spare_;  // emptied slots' storage, capacity kept
};

/// The torus model's wheel.
using event_wheel = basic_event_wheel<event>;

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_EVENT_WHEEL_HPP
