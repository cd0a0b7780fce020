// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/window_slides.hpp: the window-slide counter of
// the inverse-weighted hardware model, against a trace worked by hand from
// Figure 6's update, and deciding exactly as the bare arbiter does.
#include <interlock/arbiters/window_slides.hpp>
#include <interlock/core/random.hpp>
#include "support/interlock_test.hpp"

#include <cstdint>
#include <vector>

namespace {

using hw2 = interlock::inverse_weighted_arbiter<2, 1, 2>;  // M = 2: window 2^M = 4

interlock::grant step(interlock::window_slide_counter<hw2>& a, std::uint64_t requests) {
  static const std::uint8_t labels[2] = {0, 0};
  const interlock::pattern_requests r{requests, labels};
  const interlock::grant g = a.arbitrate(r);
  a.commit(g, r);
  return g;
}

}  // namespace

TEST_CASE("window_slide_counter: a trace worked by hand from Figure 6's update",
          "[inverse_weighted][window_slides]") {
  // Both inputs weigh 3; M = 2, so an accumulator's MSB is set from 4 on.
  interlock::window_slide_counter<hw2> a(std::vector<std::vector<std::uint32_t>>{{3}, {3}});
  // 1: only input 1 requests: granted, acc1 0 -> 3 (high priority still).
  CHECK(step(a, 0b10).index() == 1);
  CHECK(a.accumulator(1) == 3);
  // 2, 3: only input 0: acc0 0 -> 3 -> 6 (its MSB now set). No slide yet.
  CHECK(step(a, 0b01).index() == 0);
  CHECK(step(a, 0b01).index() == 0);
  CHECK(a.accumulator(0) == 6);
  CHECK(a.slides() == 0);
  CHECK(a.forfeits() == 0);
  // 4: input 0 again, low priority: the window slides. acc0 -> {0, 6[1:0]} +
  // 3 = 5; input 1, owed service (acc1 = 3 < 4) and active since it
  // requested in step 1, is zeroed: 4 - 3 = 1 unit forfeited.
  CHECK(step(a, 0b01).index() == 0);
  CHECK(a.accumulator(0) == 5);
  CHECK(a.accumulator(1) == 0);
  CHECK(a.slides() == 1);
  CHECK(a.forfeits() == 1);
  CHECK(a.forfeited_quota() == 1);
  // 5, 6: both request; input 1 (acc 0, high) wins twice: acc1 -> 3 -> 6.
  CHECK(step(a, 0b11).index() == 1);
  CHECK(step(a, 0b11).index() == 1);
  CHECK(a.accumulator(1) == 6);
  // 7: both low priority (5 and 6): a slide, but neither was owed service
  // (an input with its MSB set keeps acc - 4): no forfeit.
  step(a, 0b11);
  CHECK(a.slides() == 2);
  CHECK(a.forfeits() == 1);
  CHECK(a.grants() == 7);
  CHECK(a.counts().forfeits_per_grant() == Approx(1.0 / 7.0));
}

TEST_CASE("window_slide_counter: an input that never requested forfeits nothing",
          "[inverse_weighted][window_slides]") {
  interlock::window_slide_counter<hw2> a(std::vector<std::vector<std::uint32_t>>{{3}, {3}});
  for (int k = 0; k < 10; ++k) step(a, 0b01);
  CHECK(a.slides() > 0);
  CHECK(a.forfeits() == 0);
}

TEST_CASE("window_slide_counter decides, commits and accumulates exactly as the bare arbiter",
          "[inverse_weighted][window_slides]") {
  using hw = interlock::inverse_weighted_arbiter<8, 2, 6>;
  std::vector<std::vector<std::uint32_t>> w(8, std::vector<std::uint32_t>(2));
  interlock::splitmix64 rng(7);
  for (auto& row : w)
    for (auto& x : row) x = 1 + static_cast<std::uint32_t>(interlock::uniform_below(rng, 63));
  hw bare(w);
  interlock::window_slide_counter<hw> counted(w);
  std::uint8_t labels[8] = {};
  for (int k = 0; k < 20000; ++k) {
    const std::uint64_t req = interlock::uniform_below(rng, 256);
    for (auto& l : labels) l = static_cast<std::uint8_t>(interlock::uniform_below(rng, 2));
    const interlock::pattern_requests r{req, labels};
    const interlock::grant g = bare.arbitrate(r);
    REQUIRE(counted.arbitrate(r).index() == g.index());
    bare.commit(g, r);
    counted.commit(g, r);
    REQUIRE(static_cast<const hw&>(counted) == bare);
  }
  CHECK(counted.slides() > 0);
  CHECK(counted.forfeits() > 0);
  CHECK(counted.grants() <= 20000);
}

TEST_CASE("window_slide_counter: a slide forgets who requested before it",
          "[inverse_weighted][window_slides]") {
  interlock::window_slide_counter<hw2> a(std::vector<std::vector<std::uint32_t>>{{3}, {3}});
  step(a, 0b10);  // input 1: acc1 = 3
  step(a, 0b01);  // input 0: acc0 = 3
  step(a, 0b01);  // acc0 = 6
  step(a, 0b01);  // a slide: input 1 forfeits 1; acc0 = 5
  REQUIRE(a.forfeits() == 1);
  // Input 0 alone again, still low priority (5): a second slide. Input 1 is
  // high (0) but has not requested since the first slide: nothing owed.
  step(a, 0b01);
  CHECK(a.slides() == 2);
  CHECK(a.accumulator(0) == 4);  // {0, 5[1:0]} + 3
  CHECK(a.forfeits() == 1);
  CHECK(a.forfeited_quota() == 1);
}
