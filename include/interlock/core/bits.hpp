// SPDX-License-Identifier: BSL-1.0
// interlock/core/bits.hpp: bit tricks on 64-bit words, as arbiter hardware uses them.
//
// Contract
//   Pure constexpr functions on std::uint64_t. Bit i is the request (or the
//   thermometer bit) of requester i. Every function is defined for every
//   input: the "index of" functions return 64 for an empty word, shifts by 64
//   or more give the saturated result, widths are clamped to 1..64.
//
//   Vocabulary ([Towles14], Section 3.4, Figure 8):
//   - a thermometer code has its ones at the bottom: for all i > 0, bit i set
//     implies bit i-1 set; thermometer(k) has exactly k ones;
//   - smear_down(x) is the parallel-prefix OR of Figure 8 (bit i is set when
//     any bit at or above i is set), computed in ceil(log2 64) = 6 steps.
//
//   Complexity: O(1), a handful of instructions each (a count-leading- or
//   trailing-zeros instruction where the compiler has one).
//
// Example
//   using namespace interlock::bits;
//   static_assert(thermometer(3) == 0b111);
//   static_assert(highest_index(0b1010) == 3 && lowest_index(0b1010) == 1);
//   static_assert(rotate_left(0b0001, 3, 4) == 0b1000);
#ifndef INTERLOCK_CORE_BITS_HPP
#define INTERLOCK_CORE_BITS_HPP

#include <cstddef>
#include <cstdint>

namespace interlock::bits {

inline constexpr std::size_t word_bits = 64;

/// Number of 64-bit words that hold `bit_count` bits.
constexpr std::size_t words_for(std::size_t bit_count) noexcept {
  return bit_count / word_bits + (bit_count % word_bits != 0 ? 1 : 0);
}

/// Bits [0, n) set; n >= 64 gives all ones.
constexpr std::uint64_t low_mask(std::size_t n) noexcept {
  return n >= word_bits ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

/// The thermometer code with `ones` ones (bits [0, ones) set).
constexpr std::uint64_t thermometer(std::size_t ones) noexcept { return low_mask(ones); }

/// True when x is a thermometer code: its ones are contiguous from bit 0.
constexpr bool is_thermometer(std::uint64_t x) noexcept { return (x & (x + 1)) == 0; }

/// True when x has at most one bit set (the "onehot0" of hardware assertions).
constexpr bool is_onehot0(std::uint64_t x) noexcept { return (x & (x - 1)) == 0; }

/// Bit i alone; i >= 64 gives 0.
constexpr std::uint64_t bit(std::size_t i) noexcept {
  return i >= word_bits ? 0 : std::uint64_t{1} << i;
}

/// Number of set bits.
constexpr std::size_t popcount(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return static_cast<std::size_t>(__builtin_popcountll(x));
#else
  std::size_t n = 0;
  for (; x != 0; x &= x - 1) ++n;
  return n;
#endif
}

/// Index of the lowest set bit; 64 for an empty word.
constexpr std::size_t lowest_index(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return x == 0 ? word_bits : static_cast<std::size_t>(__builtin_ctzll(x));
#else
  if (x == 0) return word_bits;
  std::size_t n = 0;
  for (; (x & 1) == 0; x >>= 1) ++n;
  return n;
#endif
}

/// Index of the highest set bit; 64 for an empty word.
constexpr std::size_t highest_index(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return x == 0 ? word_bits : static_cast<std::size_t>(63 ^ __builtin_clzll(x));
#else
  if (x == 0) return word_bits;
  std::size_t n = 63;
  for (; (x >> 63) == 0; x <<= 1) --n;
  return n;
#endif
}

/// Index of the highest set bit of a word known to be non-empty: a single
/// bit-scan instruction. For an empty word the result is unspecified but
/// defined (never undefined behaviour); use highest_index when x may be 0.
constexpr std::size_t highest_index_nonzero(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return x == 0 ? 0 : static_cast<std::size_t>(63 ^ __builtin_clzll(x));  // 63 - clz, as one bsr
#else
  return highest_index(x);
#endif
}

/// The lowest set bit alone (0 for an empty word).
constexpr std::uint64_t isolate_lowest(std::uint64_t x) noexcept { return x & (~x + 1); }

/// The highest set bit alone (0 for an empty word).
constexpr std::uint64_t isolate_highest(std::uint64_t x) noexcept {
  return x == 0 ? 0 : std::uint64_t{1} << highest_index(x);
}

/// Parallel-prefix OR toward bit 0 (Figure 8's Kogge-Stone network): bit i of
/// the result is set when any bit at or above i is set in x.
constexpr std::uint64_t smear_down(std::uint64_t x) noexcept {
  for (unsigned step = 1; step < word_bits; step <<= 1) x |= x >> step;
  return x;
}

/// Parallel-prefix OR toward bit 63: bit i is set when any bit at or below i is set.
constexpr std::uint64_t smear_up(std::uint64_t x) noexcept {
  for (unsigned step = 1; step < word_bits; step <<= 1) x |= x << step;
  return x;
}

/// Rotates the low `width` bits of x left by r (bit i moves to (i + r) mod
/// width). Bits at or above `width` are dropped; width is clamped to 1..64.
constexpr std::uint64_t rotate_left(std::uint64_t x, std::size_t r, std::size_t width) noexcept {
  width = width == 0 ? 1 : (width > word_bits ? word_bits : width);
  x &= low_mask(width);
  r %= width;
  if (r == 0) return x;
  return ((x << r) | (x >> (width - r))) & low_mask(width);
}

/// Rotates the low `width` bits of x right by r (bit i moves to (i - r) mod width).
constexpr std::uint64_t rotate_right(std::uint64_t x, std::size_t r, std::size_t width) noexcept {
  width = width == 0 ? 1 : (width > word_bits ? word_bits : width);
  return rotate_left(x, width - r % width, width);
}

}  // namespace interlock::bits

#endif  // INTERLOCK_CORE_BITS_HPP
