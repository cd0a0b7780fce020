// SPDX-License-Identifier: BSL-1.0
// event_calendar: events come out cycle by cycle, each cycle's in the order
// pushed, whether they waited in the wheel or in the heap beyond its reach,
// and pushes made while a cycle is handled are handled in turn; checked
// against a reference that sorts by (cycle, push order); the wheel keeps
// storage only for the cycles that hold events at once.
#include "support/interlock_test.hpp"

#include <interlock/model/event_calendar.hpp>
#include <interlock/model/event_wheel.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

using interlock::model::event_calendar;

TEST_CASE("event_calendar: the header's example", "[model][events]") {
  event_calendar<int> c(8);
  c.push(3, 30);
  c.push(100, 1000);
  CHECK(c.pending() == 2);
  c.advance_to(c.next());
  CHECK(c.now() == 3);
  REQUIRE(c.due() == std::vector<int>{30});
  c.clear();
  CHECK(c.next() == 100);
  c.advance_to(c.next());
  CHECK(c.due() == std::vector<int>{1000});
  c.clear();
  CHECK(c.empty());
  CHECK(c.next() == event_calendar<int>::none);
}

TEST_CASE("event_calendar: a cycle's events in the order pushed, near or far", "[model][events]") {
  event_calendar<int> c(4);
  c.push(10, 1);  // beyond reach: the heap
  c.push(2, 2);
  c.push(10, 3);  // the heap too, after 1
  c.advance_to(c.next());
  CHECK(c.due() == std::vector<int>{2});
  c.clear();
  c.advance_to(8);  // 10 comes within reach: 1, 3 move into the wheel
  c.push(10, 4);    // a direct push, after them
  c.advance_to(c.next());
  CHECK(c.now() == 10);
  CHECK(c.due() == std::vector<int>{1, 3, 4});
}

TEST_CASE("event_calendar: the same order as a sort by cycle and push, for any reach",
          "[model][events][property]") {
  rc::prop("random pushes, some while a cycle is handled", [] {
    const auto reach = std::uint64_t{1} << *rc::gen::inRange(0, 6);
    event_calendar<std::size_t> c(reach);
    // The reference: (cycle, push number) of every event pushed.
    std::vector<std::pair<std::uint64_t, std::size_t>> pushed;
    const auto push = [&](std::uint64_t at) {
      c.push(at, pushed.size());
      pushed.emplace_back(at, pushed.size());
    };
    for (int i = *rc::gen::inRange(1, 40); i > 0; --i)
      push(*rc::gen::inRange<std::uint64_t>(0, 200));
    std::vector<std::pair<std::uint64_t, std::size_t>> taken;
    std::size_t budget = 200;  // pushes made while handling, at most
    while (!c.empty()) {
      const std::uint64_t t = c.next();
      RC_ASSERT(t >= c.now());
      c.advance_to(t);
      for (std::size_t i = 0; i < c.due().size(); ++i) {
        taken.emplace_back(t, c.due()[i]);
        if (budget > 0 && *rc::gen::inRange(0, 3) == 0) {
          --budget;
          push(t + *rc::gen::inRange<std::uint64_t>(0, 3 * reach + 2));
        }
      }
      c.clear();
    }
    std::vector<std::pair<std::uint64_t, std::size_t>> expected = pushed;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    RC_ASSERT(taken == expected);
  });
}

TEST_CASE("event_wheel: storage for the cycles holding events at once, not for the whole reach",
          "[model][events]") {
  // Each cycle schedules 16 events one cycle ahead: at most two slots hold
  // events at once, so storage stays within two slots' worth however far
  // the wheel reaches (it was one busiest cycle per slot of the reach).
  interlock::model::event_wheel wheel(64);
  for (std::uint64_t t = 0; t < 1000; ++t) {
    for (std::uint32_t k = 0; k < 16; ++k)
      wheel.schedule(t + 1, {interlock::model::event_kind::credit, 0, 0, 0, k});
    std::uint32_t k = 0;
    for (const auto& e : wheel.due(t)) REQUIRE(e.payload == k++);
    REQUIRE(k == (t == 0 ? 0u : 16u));
    wheel.clear(t);
  }
  REQUIRE(wheel.pending() == 16);
  REQUIRE(wheel.storage() >= 16);
  REQUIRE(wheel.storage() <= 2 * 16);
}
