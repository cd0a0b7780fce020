// expect: priority_arbiter<N, P>: P must be 1..256
// SPDX-License-Identifier: BSL-1.0
// A priority arbiter needs at least one level.
#include <interlock/arbiters/priority.hpp>

#ifdef INTERLOCK_COMPILE_FAIL_CONTROL
constexpr std::size_t levels = 1;
#else
constexpr std::size_t levels = 0;
#endif

int main() {
  interlock::priority_arbiter<8, levels> arb;
  return static_cast<int>(arb.size()) - 8;
}
