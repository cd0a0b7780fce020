// expect: no member named [^ ]*none
// SPDX-License-Identifier: BSL-1.0
// A test for no grant misspelt as a call: grant has no member none() (a
// factory by that name would compile here and always be false); no grant
// is tested with !g.
#include <interlock/core/grant.hpp>

int main() {
  const interlock::grant g = interlock::no_grant();
#ifdef INTERLOCK_COMPILE_FAIL_CONTROL
  return !g ? 0 : 1;
#else
  return g.none() ? 0 : 1;
#endif
}
