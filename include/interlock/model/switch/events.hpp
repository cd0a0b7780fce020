// SPDX-License-Identifier: BSL-1.0
// interlock/model/switch/events.hpp: what happens when in a switch network, in time order.
//
// Contract
//   switch_events holds the switch network's future events (network.hpp):
//   a source buffer or link to look at again, space or a write port coming
//   free, credits arriving, a NIC's next packet, a delivery. top() is the
//   earliest; events of one cycle come out in the order they were pushed,
//   so a run is the same on every standard library. A binary heap: push and
//   pop are O(log n); its storage grows to the largest number pending and
//   is reused.
//
// Example
//   interlock::model::switch_events q;
//   q.push(5, interlock::model::switch_event_kind::credit, 2, 0, 16);
//   q.push(3, interlock::model::switch_event_kind::deliver, 7);
//   auto first = q.top().at;   // 3
#ifndef INTERLOCK_MODEL_SWITCH_EVENTS_HPP
#define INTERLOCK_MODEL_SWITCH_EVENTS_HPP

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

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
  std::uint64_t at;
  std::uint64_t order;
  switch_event_kind kind;
  std::uint32_t a, b, c;
  bool operator>(const switch_event& o) const noexcept {
    return at != o.at ? at > o.at : order > o.order;
  }
};

class switch_events {
 public:
  void push(std::uint64_t at, switch_event_kind kind, std::uint32_t a, std::uint32_t b = 0,
            std::uint32_t c = 0) {
    heap_.push(switch_event{at, order_++, kind, a, b, c});
  }
  bool empty() const noexcept { return heap_.empty(); }
  const switch_event& top() const { return heap_.top(); }
  void pop() { heap_.pop(); }

 private:
  std::priority_queue<switch_event, std::vector<switch_event>, std::greater<switch_event>> heap_;
  std::uint64_t order_ = 0;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_SWITCH_EVENTS_HPP
