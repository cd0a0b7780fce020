// SPDX-License-Identifier: BSL-1.0
// interlock/model/switch/events.hpp: what happens when in a switch network, in time order.
//
// Contract
//   switch_events holds the switch network's future events (network.hpp):
//   a source buffer or link to look at again, space or a write port coming
//   free, credits arriving, a NIC's next packet, a delivery. It is the
//   model's calendar (event_calendar.hpp) of switch_event: events of one
//   cycle come out in the order they were pushed, so a run is the same on
//   every standard library; an event within the calendar's reach costs
//   O(1), one beyond it (a NIC's next packet at a low rate) O(log n).
//
// Example
//   interlock::model::switch_events q;
//   q.push(5, interlock::model::switch_event_kind::credit, 2, 0, 16);
//   q.push(3, interlock::model::switch_event_kind::deliver, 7);
//   auto first = q.next();   // 3
#ifndef INTERLOCK_MODEL_SWITCH_EVENTS_HPP
#define INTERLOCK_MODEL_SWITCH_EVENTS_HPP

#include <cstdint>

#include "interlock/model/event_calendar.hpp"

namespace interlock {
namespace model {

enum class switch_event_kind : std::uint8_t {
  wake_source,  // a: a buffer to offer its heads again
  wake_link,    // a: a link to schedule again
  release,      // a: a buffer; b: VL; c: flits whose space comes back
  port_free,    // a: a buffer whose write port is free again
  credit,       // a: a link; b: VL; c: flits of credit arriving
  generate,     // a: a NIC; b: an SL whose source fires
  deliver       // a: a packet whose tail reached its NIC
};

struct switch_event {
  switch_event_kind kind;
  std::uint32_t a, b, c;
};

class switch_events : public event_calendar<switch_event> {
 public:
  using event_calendar<switch_event>::push;
  void push(std::uint64_t at, switch_event_kind kind, std::uint32_t a, std::uint32_t b = 0,
            std::uint32_t c = 0) {
    push(at, switch_event{kind, a, b, c});
  }
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_SWITCH_EVENTS_HPP
