// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/core/bits.hpp against bit-by-bit loops.
#include "support/interlock_test.hpp"

#include <interlock/core/bits.hpp>

namespace bits = interlock::bits;

namespace {
bool bit_of(std::uint64_t x, std::size_t i) { return ((x >> i) & 1u) != 0; }
}  // namespace

TEST_CASE("bits: masks and thermometer codes", "[bits]") {
  STATIC_REQUIRE(bits::low_mask(0) == 0);
  STATIC_REQUIRE(bits::low_mask(1) == 1);
  STATIC_REQUIRE(bits::low_mask(63) == 0x7fffffffffffffffu);
  STATIC_REQUIRE(bits::low_mask(64) == ~std::uint64_t{0});
  STATIC_REQUIRE(bits::low_mask(200) == ~std::uint64_t{0});
  STATIC_REQUIRE(bits::thermometer(3) == 0b111);
  STATIC_REQUIRE(bits::words_for(0) == 0);
  STATIC_REQUIRE(bits::words_for(64) == 1);
  STATIC_REQUIRE(bits::words_for(65) == 2);
  STATIC_REQUIRE(bits::words_for(1024) == 16);
  STATIC_REQUIRE(bits::bit(64) == 0);
  CHECK(bits::is_thermometer(0));
  CHECK(bits::is_thermometer(0b0111));
  CHECK(bits::is_thermometer(~std::uint64_t{0}));
  CHECK_FALSE(bits::is_thermometer(0b0101));
  CHECK_FALSE(bits::is_thermometer(0b0110));
  CHECK(bits::lowest_index(0) == 64);
  CHECK(bits::highest_index(0) == 64);
  CHECK(bits::isolate_highest(0) == 0);
  CHECK(bits::rotate_left(0b0001, 3, 4) == 0b1000);
  CHECK(bits::rotate_left(0b1000, 1, 4) == 0b0001);
  CHECK(bits::rotate_left(0b1, 5, 0) == 0b1);  // width clamped to 1
}

TEST_CASE("bits: properties against bit loops", "[bits][property]") {
  rc::prop("lowest_index and highest_index find the extreme set bits", [](std::uint64_t x) {
    std::size_t lo = 64, hi = 64;
    for (std::size_t i = 0; i < 64; ++i)
      if (bit_of(x, i)) {
        if (lo == 64) lo = i;
        hi = i;
      }
    RC_ASSERT(bits::lowest_index(x) == lo);
    RC_ASSERT(bits::highest_index(x) == hi);
    if (x != 0) RC_ASSERT(bits::highest_index_nonzero(x) == hi);
    RC_ASSERT(bits::isolate_lowest(x) == (lo == 64 ? 0 : std::uint64_t{1} << lo));
    RC_ASSERT(bits::isolate_highest(x) == (hi == 64 ? 0 : std::uint64_t{1} << hi));
  });
  rc::prop("popcount counts the set bits", [](std::uint64_t x) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < 64; ++i) n += bit_of(x, i) ? 1u : 0u;
    RC_ASSERT(bits::popcount(x) == n);
  });
  rc::prop("smear_down sets bit i when any bit at or above i is set", [](std::uint64_t x) {
    const std::uint64_t s = bits::smear_down(x);
    for (std::size_t i = 0; i < 64; ++i) {
      bool above = false;
      for (std::size_t j = i; j < 64; ++j) above = above || bit_of(x, j);
      RC_ASSERT(bit_of(s, i) == above);
    }
  });
  rc::prop("smear_up sets bit i when any bit at or below i is set", [](std::uint64_t x) {
    const std::uint64_t s = bits::smear_up(x);
    for (std::size_t i = 0; i < 64; ++i) {
      bool below = false;
      for (std::size_t j = 0; j <= i; ++j) below = below || bit_of(x, j);
      RC_ASSERT(bit_of(s, i) == below);
    }
  });
  rc::prop("is_thermometer holds exactly for ones contiguous from bit 0", [](std::uint64_t x) {
    std::size_t ones = 0;
    while (ones < 64 && bit_of(x, ones)) ++ones;
    const bool expected = (ones == 64) || (x >> ones) == 0;
    RC_ASSERT(bits::is_thermometer(x) == expected);
    RC_ASSERT(bits::is_thermometer(bits::thermometer(ones % 65)));
  });
  rc::prop("is_onehot0 holds exactly for at most one bit",
           [](std::uint64_t x) { RC_ASSERT(bits::is_onehot0(x) == (bits::popcount(x) <= 1)); });
  rc::prop("rotate_left moves bit i to (i + r) mod width; rotate_right undoes it", [] {
    const auto width = *rc::gen::inRange<std::size_t>(1, 65);
    const auto r = *rc::gen::inRange<std::size_t>(0, 200);
    const auto x = *rc::gen::arbitrary<std::uint64_t>() & bits::low_mask(width);
    const std::uint64_t y = bits::rotate_left(x, r, width);
    for (std::size_t i = 0; i < width; ++i) RC_ASSERT(bit_of(y, (i + r) % width) == bit_of(x, i));
    RC_ASSERT((y & ~bits::low_mask(width)) == 0);
    RC_ASSERT(bits::rotate_right(y, r, width) == x);
  });
}
