// SPDX-License-Identifier: BSL-1.0
// A program outside interlock that uses it the way a simulator would: the
// umbrella header, an arbiter, and interlock::config_error for bad input.
#include <interlock/interlock.hpp>

#include <cstdio>

int main() {
  interlock::round_robin_arbiter<4> arbiter;
  const interlock::grant first = arbiter.grant(0b0110);
  const interlock::grant second = arbiter.grant(0b0110);
  if (first.index() != 2 || second.index() != 1) {
    std::printf("unexpected grants %zu, %zu\n", first.index(), second.index());
    return 1;
  }
  try {
    interlock::dynamic_round_robin_arbiter empty(0);
    std::printf("a zero-size arbiter was accepted\n");
    return 1;
  } catch (const interlock::config_error& error) {
    std::printf("config_error as expected: %s\n", error.what());
  }
  std::printf("interlock %d.%d.%d consumed\n", INTERLOCK_VERSION_MAJOR, INTERLOCK_VERSION_MINOR,
              INTERLOCK_VERSION_PATCH);
  return 0;
}
