// SPDX-License-Identifier: BSL-1.0
// The version macros are consistent with one another.
#include "support/interlock_test.hpp"

#include <interlock/core/version.hpp>

TEST_CASE("version: INTERLOCK_VERSION combines the three parts", "[version]") {
  STATIC_REQUIRE(INTERLOCK_VERSION == INTERLOCK_VERSION_MAJOR * 10000 +
                                          INTERLOCK_VERSION_MINOR * 100 + INTERLOCK_VERSION_PATCH);
  STATIC_REQUIRE(INTERLOCK_VERSION_MINOR < 100 && INTERLOCK_VERSION_PATCH < 100);
}
