// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/core/config_error.hpp.
#include "support/interlock_test.hpp"

#include <interlock/core/config_error.hpp>

#include <stdexcept>

TEST_CASE("config_error: the message names component, field, value and what is allowed",
          "[config_error]") {
  const interlock::config_error e("ib_vl_arbiter", "high-priority table entries", "65",
                                  "at most 64");
  CHECK(std::string(e.what()) ==
        "ib_vl_arbiter: high-priority table entries = 65; allowed: at most 64");
  CHECK(e.component() == "ib_vl_arbiter");
  CHECK(e.field() == "high-priority table entries");
  CHECK(e.value() == "65");
  CHECK(e.allowed() == "at most 64");
  const std::invalid_argument& base = e;  // catchable as std::invalid_argument
  CHECK(std::string(base.what()) == e.what());
}

TEST_CASE("config_error: range helper and hexadecimal values", "[config_error]") {
  CHECK(interlock::detail::to_hex(0) == "0x0");
  CHECK(interlock::detail::to_hex(0x5) == "0x5");
  CHECK(interlock::detail::to_hex(0xdeadbeef) == "0xdeadbeef");
  CHECK(interlock::detail::to_hex(~std::uint64_t{0}) == "0xffffffffffffffff");
  CHECK_NOTHROW(interlock::detail::require_in_range("c", "f", 3, 1, 3));
  try {
    interlock::detail::require_in_range("round_robin_arbiter", "highest_priority", 9, 0, 7);
    FAIL("no config_error for a value above the range");
  } catch (const interlock::config_error& e) {
    CHECK(std::string(e.what()) == "round_robin_arbiter: highest_priority = 9; allowed: 0..7");
  }
  CHECK_THROWS_AS(interlock::detail::require_in_range("c", "f", 0, 1, 3), interlock::config_error);
}
