// expect: round_robin_arbiter<N>: N must be 1..64; use dynamic_round_robin_arbiter
// SPDX-License-Identifier: BSL-1.0
// The 64-bit round robin refuses more than 64 requesters at compile time and
// names the type to use instead.
#include <interlock/arbiters/round_robin.hpp>

#ifdef INTERLOCK_COMPILE_FAIL_CONTROL
constexpr std::size_t requesters = 64;
#else
constexpr std::size_t requesters = 65;
#endif

int main() {
  interlock::round_robin_arbiter<requesters> rr;
  return rr.grant(1).valid() ? 0 : 1;
}
