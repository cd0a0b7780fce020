// expect: arbitrate\(const request_type&\) const` \(const: deciding changes no state\)
// SPDX-License-Identifier: BSL-1.0
// arbitrate() must be const: deciding may not change the arbiter's state.
#include <interlock/core/arbiter_traits.hpp>

#include <cstdint>

struct mutable_decision {
  using request_type = std::uint64_t;
#ifdef INTERLOCK_COMPILE_FAIL_CONTROL
  interlock::grant arbitrate(std::uint64_t) const { return interlock::grant(); }
#else
  interlock::grant arbitrate(std::uint64_t) { return interlock::grant(); }
#endif
  void commit(interlock::grant, std::uint64_t) {}
  interlock::grant grant(std::uint64_t r) { return arbitrate(r); }
  std::size_t size() const { return 64; }
  friend bool operator==(const mutable_decision&, const mutable_decision&) { return true; }
};

static_assert(interlock::require_arbiter<mutable_decision>());
int main() { return 0; }
