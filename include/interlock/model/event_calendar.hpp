// SPDX-License-Identifier: BSL-1.0
// interlock/model/event_calendar.hpp: events at any distance ahead, taken cycle by cycle in time
// order.
//
// Contract
//   event_calendar<Event> holds events by the cycle they happen in, from
//   now() on: those less than reach() cycles ahead in a timing wheel
//   (basic_event_wheel, event_wheel.hpp), later ones in a heap until they
//   come within reach. push(at, e) needs at >= now(). next() is the
//   earliest cycle holding an event (empty(): none); advance_to(t), t <=
//   next(), makes t now(), moving the heap's events within reach into the
//   wheel; due() is now()'s events and clear() empties it once they are
//   handled. A push at now() while due() is handled is appended to it and
//   handled in turn. Events of one cycle come out in the order they were
//   pushed, wherever they waited: a heap's event is moved into its cycle
//   before any push can reach that cycle directly, and the heap orders
//   events of one cycle by the order they were pushed. So a run is the same
//   on every standard library and with any reach. Pushing and taking an
//   event within reach is O(1), allocation-free once each slot has grown to
//   its busiest cycle; an event beyond it costs O(log n) twice; next()
//   looks at the wheel's slots from now() on. for_each(f) visits every
//   pending event in no particular order (audits).
//
// Example
//   interlock::model::event_calendar<int> c(8);  // a wheel of 8 cycles
//   c.push(3, 30);
//   c.push(100, 1000);               // beyond reach: in the heap for now
//   c.advance_to(c.next());          // now() == 3
//   for (int e : c.due()) { (void)e; }
//   c.clear();
//   c.advance_to(c.next());          // now() == 100: 1000 is due
#ifndef INTERLOCK_MODEL_EVENT_CALENDAR_HPP
#define INTERLOCK_MODEL_EVENT_CALENDAR_HPP

#include <algorithm>
#include <cstdint>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/model/event_wheel.hpp"

namespace interlock {
namespace model {

template <class Event>
class event_calendar {
 public:
  /// next() of an empty calendar.
  static constexpr std::uint64_t none = ~std::uint64_t{0};

  /// A calendar whose wheel holds events up to `reach - 1` cycles ahead.
  explicit event_calendar(std::uint64_t reach = 1024) : wheel_(reach) {}

  void push(std::uint64_t at, const Event& e) {
    INTERLOCK_ASSERT(at >= now_, "an event pushed into the past");
    if (at - now_ < wheel_.reach()) {
      wheel_.schedule(at, e);
      return;
    }
    far_.push_back(far_event{at, order_++, e});
    std::push_heap(far_.begin(), far_.end(), later);
  }
  bool empty() const noexcept { return wheel_.pending() == 0 && far_.empty(); }
  /// Events pushed and not cleared.
  std::uint64_t pending() const noexcept { return wheel_.pending() + far_.size(); }
  std::uint64_t now() const noexcept { return now_; }
  std::uint64_t reach() const noexcept { return wheel_.reach(); }

  /// The earliest cycle holding an event, or `none`.
  std::uint64_t next() {
    if (wheel_.pending() == 0) return far_.empty() ? none : far_.front().at;
    std::uint64_t t = now_;
    while (wheel_.due(t).empty()) ++t;
    return t;
  }
  /// Makes t now() (t <= next(): no event is passed over).
  void advance_to(std::uint64_t t) {
    INTERLOCK_ASSERT(t >= now_, "the calendar does not go back");
    now_ = t;
    while (!far_.empty() && far_.front().at - now_ < wheel_.reach()) {
      std::pop_heap(far_.begin(), far_.end(), later);
      wheel_.schedule(far_.back().at, far_.back().e);
      far_.pop_back();
    }
  }
  /// now()'s events, in the order pushed.
  std::vector<Event>& due() { return wheel_.due(now_); }
  /// Empties now()'s events once they are handled.
  void clear() { wheel_.clear(now_); }
  /// Every pending event, in the wheel and beyond its reach, in no
  /// particular order (audits).
  template <class F>
  void for_each(F&& f) const {
    wheel_.for_each(f);
    for (const far_event& e : far_) f(e.e);
  }

 private:
  struct far_event {
    std::uint64_t at, order;
    Event e;
  };
  // The heap's order: the earliest cycle first, then the first pushed.
  static bool later(const far_event& a, const far_event& b) noexcept {
    return a.at != b.at ? a.at > b.at : a.order > b.order;
  }

  basic_event_wheel<Event> wheel_;
  std::vector<far_event> far_;
  std::uint64_t now_ = 0, order_ = 0;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_EVENT_CALENDAR_HPP
