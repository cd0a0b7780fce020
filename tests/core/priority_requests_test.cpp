// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/core/priority_requests.hpp.
#include "support/interlock_test.hpp"

#include <interlock/core/priority_requests.hpp>

using interlock::priority_requests;

TEST_CASE("priority_requests: levels, union and the highest level", "[priority_requests]") {
  priority_requests<3> r;
  CHECK(r.highest_level() == 3);  // nobody requests
  CHECK(r.level_of(0) == 3);
  r.set(3, 1).set(5, 0).set(7, 2);
  CHECK(r.requests() == 0b10101000);
  CHECK(r.highest_level() == 2);
  CHECK(r.level_of(3) == 1);
  CHECK(r.level_of(5) == 0);
  CHECK(r.level_of(4) == 3);
  r.set(5, 2);  // in two levels: the higher one counts
  CHECK(r.level_of(5) == 2);
  CHECK(interlock::requested(r, 7));
  CHECK_FALSE(interlock::requested(r, 6));
  CHECK(interlock::any_requested(r));
  CHECK_FALSE(interlock::any_requested(priority_requests<3>{}));
  CHECK_THROWS_AS(r.set(1, 3), interlock::contract_violation);
  CHECK_THROWS_AS(r.set(64, 0), interlock::contract_violation);
}

TEST_CASE("priority_requests: the wide form mirrors the 64-bit form",
          "[priority_requests][property]") {
  rc::prop("dynamic_priority_requests views agree with per-requester levels", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 200);
    const auto levels = *rc::gen::container<std::vector<int>>(n, rc::gen::inRange(-1, 4));
    interlock::dynamic_priority_requests<4> owned(n);
    int top = -1;
    for (std::size_t i = 0; i < n; ++i) {
      if (levels[i] >= 0) owned.set(i, static_cast<std::size_t>(levels[i]));
      top = std::max(top, levels[i]);
    }
    const interlock::priority_request_views<4> view = owned;
    RC_ASSERT(view.size() == n);
    RC_ASSERT(view.any() == (top >= 0));
    RC_ASSERT(view.highest_level() == (top >= 0 ? static_cast<std::size_t>(top) : 4));
    for (std::size_t i = 0; i < n; ++i) {
      RC_ASSERT(view.level_of(i) == (levels[i] >= 0 ? static_cast<std::size_t>(levels[i]) : 4));
      RC_ASSERT(interlock::requested(view, i) == (levels[i] >= 0));
    }
  });
}
