// SPDX-License-Identifier: BSL-1.0
// Shared by interlock's test files: Catch2 + RapidCheck, how interlock types
// print in failure messages, and small helpers.
#ifndef INTERLOCK_TESTS_SUPPORT_INTERLOCK_TEST_HPP
#define INTERLOCK_TESTS_SUPPORT_INTERLOCK_TEST_HPP

#include <rapidcheck.h>
#include <rapidcheck/catch.h>
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

#include <interlock/core/grant.hpp>
#include <interlock/core/random.hpp>

namespace interlock {
inline std::string to_string(grant g) {
  return g ? "grant(" + std::to_string(g.index()) + ")" : std::string("no grant");
}
inline std::ostream& operator<<(std::ostream& os, grant g) { return os << to_string(g); }
inline void showValue(grant g, std::ostream& os) { os << to_string(g); }
}  // namespace interlock

namespace interlock_test {

/// True where AddressSanitizer instruments the build (scripts/test's
/// sanitizer build, unoptimized: the model runs 30 to 60 times slower
/// there). The longest tests check a smaller instance of the same claim
/// under it, through `sized`; the release build checks the full one.
#if defined(__SANITIZE_ADDRESS__)  // g++
#define INTERLOCK_TEST_ASAN 1
#elif defined(__has_feature)  // clang
#if __has_feature(address_sanitizer)
#define INTERLOCK_TEST_ASAN 1
#endif
#endif
#ifdef INTERLOCK_TEST_ASAN
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif

/// `full`, or `smaller` in a sanitizer build (see `sanitized`).
template <class T>
constexpr T sized(T full, T smaller) noexcept {
  return sanitized ? smaller : full;
}

/// interlock's splitmix64, for long random schedules inside a property,
/// seeded by a value RapidCheck draws (so a failure still reproduces from
/// its seed).
class splitmix : public interlock::splitmix64 {
 public:
  explicit splitmix(std::uint64_t seed = 0) : interlock::splitmix64(seed) {}
  /// Uniform in [0, n), n > 0.
  std::uint64_t below(std::uint64_t n) { return interlock::uniform_below(*this, n); }
};

/// Calls f(std::integral_constant<std::size_t, n>{}) for a run-time n in
/// 1..Max, so a property drawn at run time can drive a compile-time-sized policy.
template <std::size_t Max, class F, std::size_t... I>
void with_fixed_size_impl(std::size_t n, F&& f, std::index_sequence<I...>) {
  static_cast<void>(
      ((n == I + 1 ? (f(std::integral_constant<std::size_t, I + 1>{}), true) : false) || ...));
}
template <std::size_t Max = 64, class F>
void with_fixed_size(std::size_t n, F&& f) {
  with_fixed_size_impl<Max>(n, std::forward<F>(f), std::make_index_sequence<Max>{});
}

}  // namespace interlock_test

#endif  // INTERLOCK_TESTS_SUPPORT_INTERLOCK_TEST_HPP
