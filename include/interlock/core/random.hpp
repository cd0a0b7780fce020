// SPDX-License-Identifier: BSL-1.0
// interlock/core/random.hpp: the generator interlock's tools use, and exact uniform draws from any.
//
// Contract
//   - splitmix64 is a UniformRandomBitGenerator of 64-bit values (Steele,
//     Lea and Flood's SplitMix64 finalizer over a Weyl sequence): the same
//     sequence on every platform and compiler, one add and three
//     multiply-xorshift rounds per value, 8 bytes of state. interlock's VC
//     table optimizer, its tests and benchmarks use it; a model may use it
//     or any other generator.
//   - uniform_below(rng, n) draws uniformly from [0, n) for n >= 1 using any
//     UniformRandomBitGenerator whose range is all 32-bit or all 64-bit
//     values (std::mt19937, std::mt19937_64, splitmix64, pcg...); two 32-bit
//     draws make one 64-bit value. It is exact (rejection of the 2^64 mod n
//     lowest values, so every index has the same probability) and the same
//     on every platform: the result is the 64-bit value modulo n, with a
//     redraw only when the value falls below 2^64 mod n (probability below
//     n / 2^64). n = 0 is a contract violation and returns 0. It consumes
//     no value when n == 1: a choice with one option draws nothing.
//   - uniform_unit(rng) is uniform in [0, 1) with 53 random bits.
//   No allocation, no exception.
//
// Example
//   interlock::splitmix64 rng(42);
//   std::uint64_t die = interlock::uniform_below(rng, 6);   // 0..5
//   double u = interlock::uniform_unit(rng);                // [0, 1)
#ifndef INTERLOCK_CORE_RANDOM_HPP
#define INTERLOCK_CORE_RANDOM_HPP

#include <cstdint>
#include <type_traits>

#include "interlock/core/assert.hpp"

namespace interlock {

class splitmix64 {
 public:
  using result_type = std::uint64_t;

  constexpr explicit splitmix64(std::uint64_t seed = 0) noexcept : state_(seed) {}

  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return ~std::uint64_t{0}; }

  constexpr result_type operator()() noexcept {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
  constexpr result_type next() noexcept { return (*this)(); }
  /// The generator's whole state (restore it with splitmix64(state())).
  constexpr std::uint64_t state() const noexcept { return state_; }

  friend constexpr bool operator==(const splitmix64& a, const splitmix64& b) noexcept {
    return a.state_ == b.state_;
  }
  friend constexpr bool operator!=(const splitmix64& a, const splitmix64& b) noexcept {
    return !(a == b);
  }

 private:
  std::uint64_t state_;
};

namespace detail {
/// 64 uniform bits from a generator of 32 or 64 uniform bits per call.
template <class Random>
std::uint64_t random_bits64(Random& rng) {
  using result = typename std::decay_t<Random>::result_type;
  static_assert(std::is_unsigned_v<result>, "interlock: the generator must return unsigned values");
  constexpr std::uint64_t lo = static_cast<std::uint64_t>(std::decay_t<Random>::min());
  constexpr std::uint64_t hi = static_cast<std::uint64_t>(std::decay_t<Random>::max());
  static_assert(lo == 0 && (hi == 0xFFFFFFFFu || hi == ~std::uint64_t{0}),
                "interlock: the generator must give every 32-bit or every 64-bit value "
                "(min() == 0, max() == 2^32 - 1 or 2^64 - 1)");
  if constexpr (hi == ~std::uint64_t{0}) {
    return static_cast<std::uint64_t>(rng());
  } else {
    const auto high = static_cast<std::uint64_t>(rng());
    return high << 32 | static_cast<std::uint64_t>(rng());
  }
}
}  // namespace detail

/// Uniform in [0, n); exact; draws nothing when n <= 1.
template <class Random>
std::uint64_t uniform_below(Random& rng, std::uint64_t n) {
  INTERLOCK_ASSERT(n >= 1, "uniform_below: n must be at least 1");
  if (n <= 1) return 0;
  const std::uint64_t reject_below = (0 - n) % n;  // 2^64 mod n
  for (;;) {
    const std::uint64_t x = detail::random_bits64(rng);
    if (x >= reject_below) return x % n;
  }
}

/// Uniform in [0, 1), 53 random bits.
template <class Random>
double uniform_unit(Random& rng) {
  return static_cast<double>(detail::random_bits64(rng) >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace interlock

#endif  // INTERLOCK_CORE_RANDOM_HPP
