// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/core/grant.hpp.
#include "support/interlock_test.hpp"

#include <interlock/core/grant.hpp>

#include <type_traits>

using interlock::grant;

TEST_CASE("grant: an index or none", "[grant]") {
  STATIC_REQUIRE(sizeof(grant) == 4);
  STATIC_REQUIRE(std::is_trivially_copyable_v<grant>);
  constexpr grant none;
  STATIC_REQUIRE(!none.valid());
  STATIC_REQUIRE(none == interlock::no_grant());
  STATIC_REQUIRE(none.index() == grant::none_index);
  STATIC_REQUIRE(none.vector() == 0);
  constexpr grant g(5);
  STATIC_REQUIRE(g.valid());
  STATIC_REQUIRE(g.index() == 5);
  STATIC_REQUIRE(g.vector() == 0b100000);
  STATIC_REQUIRE(g != none);
  STATIC_REQUIRE(grant(64).vector() == 0);
  STATIC_REQUIRE(!grant(grant::none_index).valid());
  STATIC_REQUIRE(!grant(grant::none_index + 7).valid());
  CHECK(static_cast<bool>(g));
  CHECK_FALSE(static_cast<bool>(none));
}
