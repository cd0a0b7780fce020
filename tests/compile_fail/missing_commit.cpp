// expect: needs `void commit\(interlock::grant, const request_type&\)`
// SPDX-License-Identifier: BSL-1.0
// A type without commit() handed to a generic check is rejected with a
// message that names the missing member.
#include <interlock/verify/arbiter_checks.hpp>

#include <cstdint>

struct no_commit {
  using request_type = std::uint64_t;
  interlock::grant arbitrate(std::uint64_t) const { return interlock::grant(); }
#ifdef INTERLOCK_COMPILE_FAIL_CONTROL
  void commit(interlock::grant, std::uint64_t) {}
#endif
  interlock::grant grant(std::uint64_t r) { return arbitrate(r); }
  std::size_t size() const { return 64; }
  friend bool operator==(const no_commit&, const no_commit&) { return true; }
};

int main() { return interlock::verify::check_decision(no_commit{}, std::uint64_t{1}) ? 0 : 1; }
