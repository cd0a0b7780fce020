// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/events.hpp: what happens when in a switch network, in time order.
//
// Contract
//   events holds the switch network's future events (qos_switch.hpp):
//   a source buffer or link to look at again, space or a write port coming
//   free, credits arriving, a NIC's next packet, a delivery. It is the
//   model's calendar (event_calendar.hpp) of event, the torus model's
//   calendar with the switch's event type: events of one cycle come out in
//   the order they were pushed, so a run is the same on every standard
//   library; an event within the calendar's reach costs O(1), one beyond
//   it (a NIC's next packet at a low rate) O(log n). push(q, at, kind, a,
//   b, c) pushes event{kind, a, b, c}.
//
// Example
//   namespace qs = interlock::model::qos_switch;
//   qs::events q;
//   push(q, 5, qs::event_kind::credit, 2, 0, 16);
//   push(q, 3, qs::event_kind::deliver, 7);
//   auto first = q.next();   // 3
#ifndef INTERLOCK_MODEL_QOS_SWITCH_EVENTS_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_EVENTS_HPP

#include <cstdint>

#include "interlock/model/event_calendar.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

enum class event_kind : std::uint8_t {
  wake_source,  // a: a buffer to offer its heads again
  wake_link,    // a: a link to schedule again
  release,      // a: a buffer; b: VL; c: flits whose space comes back
  port_free,    // a: a buffer whose write port is free again
  credit,       // a: a link; b: VL; c: flits of credit arriving
  generate,     // a: a NIC; b: an SL whose source fires
  deliver       // a: a packet whose tail reached its NIC
};

struct event {
  event_kind kind;
  std::uint32_t a, b, c;
};

using events = event_calendar<event>;

/// Pushes event{kind, a, b, c} for cycle `at`.
inline void push(events& q, std::uint64_t at, event_kind kind, std::uint32_t a, std::uint32_t b = 0,
                 std::uint32_t c = 0) {
  q.push(at, event{kind, a, b, c});
}

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_EVENTS_HPP
