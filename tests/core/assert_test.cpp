// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/core/assert.hpp in the test build, where a failed
// INTERLOCK_ASSERT throws interlock::contract_violation.
#include "support/interlock_test.hpp"

#include <interlock/core/assert.hpp>

namespace {
int checked_half(int x) {
  INTERLOCK_ASSERT(x % 2 == 0, "x must be even");
  return x / 2;
}
}  // namespace

TEST_CASE("INTERLOCK_ASSERT: a failed check throws contract_violation in the test build",
          "[assert][contract]") {
  CHECK(checked_half(4) == 2);
  try {
    checked_half(3);
    FAIL("no contract_violation for a failed check");
  } catch (const interlock::contract_violation& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains("assert_test.cpp"));
    CHECK_THAT(what, Catch::Contains("x % 2 == 0"));
    CHECK_THAT(what, Catch::Contains("x must be even"));
  }
}
