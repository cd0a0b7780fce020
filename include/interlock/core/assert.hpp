// SPDX-License-Identifier: BSL-1.0
// interlock/core/assert.hpp: INTERLOCK_ASSERT, the decision-path contract check.
//
// Contract
//   INTERLOCK_ASSERT(condition, message) checks a precondition or a named
//   invariant on a decision path (arbitrate, commit, route). Configuration is
//   never checked with it: constructors throw interlock::config_error instead.
//
//   - A definition of INTERLOCK_ASSERT made before the first interlock header
//     is included wins: a simulator can route failures to its own handler.
//   - Otherwise the check is active when NDEBUG is not defined or when
//     INTERLOCK_ENABLE_ASSERTS is defined, and compiles to nothing (the
//     condition is not evaluated) otherwise.
//   - An active check that fails throws interlock::contract_violation when
//     INTERLOCK_ASSERT_THROWS is defined (the test suite does this, so that a
//     violated precondition is an ordinary REQUIRE_THROWS), and otherwise
//     prints the file, line, condition and message to stderr and aborts.
//
//   Every decision path stays defined behaviour when a check is compiled out:
//   bad input then gives a documented fallback (usually "no grant" or a
//   no-op), never undefined behaviour.
//
// Example (not compiled: a definition before the first interlock header)
//   #define INTERLOCK_ASSERT(c, m) ((c) ? (void)0 : my_sim_abort(m))
//   #include <interlock/interlock.hpp>
#ifndef INTERLOCK_CORE_ASSERT_HPP
#define INTERLOCK_CORE_ASSERT_HPP

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace interlock {

/// Thrown by a failed INTERLOCK_ASSERT when INTERLOCK_ASSERT_THROWS is defined.
class contract_violation : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace detail {

[[noreturn]] inline void assertion_failed_throw(const char* condition, const char* message,
                                                const char* file, int line) {
  throw contract_violation(std::string(file) + ":" + std::to_string(line) +
                           ": interlock contract violated: " + condition + " (" + message + ")");
}

[[noreturn]] inline void assertion_failed_abort(const char* condition, const char* message,
                                                const char* file, int line) noexcept {
  std::fprintf(stderr, "%s:%d: interlock contract violated: %s (%s)\n", file, line, condition,
               message);
  std::abort();
}

}  // namespace detail
}  // namespace interlock

#ifndef INTERLOCK_ASSERT
#if defined(INTERLOCK_ENABLE_ASSERTS) || !defined(NDEBUG)
#ifdef INTERLOCK_ASSERT_THROWS
#define INTERLOCK_ASSERT(condition, message) \
  ((condition)                               \
       ? static_cast<void>(0)                \
       : ::interlock::detail::assertion_failed_throw(#condition, message, __FILE__, __LINE__))
#else
#define INTERLOCK_ASSERT(condition, message) \
  ((condition)                               \
       ? static_cast<void>(0)                \
       : ::interlock::detail::assertion_failed_abort(#condition, message, __FILE__, __LINE__))
#endif
#else
// Compiled out: sizeof keeps the names used (no unused warnings) and
// evaluates nothing.
#define INTERLOCK_ASSERT(condition, message) static_cast<void>(sizeof(!(condition)))
#endif
#endif

#endif  // INTERLOCK_CORE_ASSERT_HPP
