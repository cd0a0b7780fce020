// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/age_heads.hpp: Procedure 2 over an output port's staging-buffer heads: the
// oldest requesters.
//
// Models Abts & Weisser (SC'07), Procedure 2: each head's stored 11-bit age
// field becomes its current age against the chip's age clock, and the
// output port's age arbitration (arbiters/age_epoch.hpp) serves the oldest.
// The ages. A request carries the candidates and, among them, the oldest
// ones (age_requests). age_heads<N> keeps the 11-bit age fields of the N
// staging-buffer heads and computes Procedure 2 for all of them at once, as
// the hardware's parallel comparators do: with SSE2, eight candidates per
// 128-bit register (a portable scalar loop elsewhere, or when
// INTERLOCK_NO_SIMD is defined; the tests check both); oldest_by_age does
// the same from ages a model computed itself.
//
// Contract
//   - age_requests: the candidates (heads whose VC is not blocked), the
//     oldest among them, and the clock's inhibit flag.
//   - age_heads<N>, 1 <= N <= 64: oldest(requests, clock) is the requesting
//     candidates whose Procedure 2 age is the largest, empty for no request;
//     the SSE2 and scalar paths agree for every field, clock and rule.
//   - oldest_by_age(requests, ages): the same from ages a model computed.
//   - invariants::age_respected: a grant has the largest age among the
//     requests.
//   Complexity: oldest is O(N/8) vector steps (O(N) scalar); no allocation.
//
// Example
//   interlock::age_clock clock(18);
//   interlock::age_heads<8> heads;
//   heads.set(2, interlock::age_field::with_age(40));
//   heads.set(6, interlock::age_field::with_age(70));
//   assert(heads.oldest(0b01000100, clock) == 0b01000000);
#ifndef INTERLOCK_ARBITERS_AGE_HEADS_HPP
#define INTERLOCK_ARBITERS_AGE_HEADS_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#if !defined(INTERLOCK_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#include <emmintrin.h>
#define INTERLOCK_AGE_SSE2 1
#endif

#include "interlock/arbiters/age_clock.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/invariants.hpp"
#include "interlock/core/span.hpp"

namespace interlock {

/// The candidates of one output arbitration: the requests, and among them
/// the ones with the largest computed age.
struct age_requests {
  std::uint64_t requests = 0;  // heads whose VC is not blocked
  std::uint64_t oldest = 0;    // the requests whose Procedure 2 age is the largest
  bool age_suspended = false;  // the age clock's inhibit flag: age arbitration suspended
};

/// The requests with the largest of `ages` (ages[i]: candidate i's computed
/// age; an index past the span reads as age 0).
inline std::uint64_t oldest_by_age(std::uint64_t requests, span<const std::uint8_t> ages) {
  unsigned best = 0;
  for (std::uint64_t x = requests; x != 0; x &= x - 1) {
    const unsigned a = ages.at(bits::lowest_index(x), 0);
    best = a > best ? a : best;
  }
  std::uint64_t set = 0;
  for (std::uint64_t x = requests; x != 0; x &= x - 1) {
    const std::size_t i = bits::lowest_index(x);
    set |= static_cast<std::uint64_t>(ages.at(i, 0) == best) << i;
  }
  return set;
}

namespace detail {

// Procedure 2 for one 11-bit field, as a key: age + 1 (0 for "not requesting").
inline unsigned age_key(unsigned field, unsigned epoch, unsigned timestamp, unsigned corrected) {
  const unsigned rollover = ((field >> 9) ^ epoch) & 1u;
  const unsigned sum = (field & 0x1FFu) + (rollover << 8 | timestamp);
  const unsigned qualifier = ((field >> 8) ^ corrected) & 1u;
  const unsigned saturation = ((sum >> 8) | ((sum >> 9) & qualifier)) & 1u;
  return (saturation != 0 ? 255u : (sum & 0xFFu)) + 1u;
}

/// Four 16-bit lanes per word: lane i of the heads is bits [16(i%4), 16(i%4)+16) of word i/4.
inline unsigned lane_of(const std::uint64_t* words, std::size_t i) noexcept {
  return static_cast<unsigned>(words[i / 4] >> (16 * (i % 4)) & 0xFFFFu);
}

/// The oldest requesting candidates, one candidate at a time.
template <std::size_t Words>
std::uint64_t oldest_scalar(std::uint64_t requests, const std::array<std::uint64_t, Words>& lanes,
                            unsigned epoch, unsigned timestamp, unsigned corrected) {
  constexpr std::size_t count = Words * 4;
  std::array<unsigned, count> key{};
  unsigned best = 0;
  for (std::size_t i = 0; i < count && i < 64; ++i) {
    key[i] = ((requests >> i) & 1u) != 0
                 ? age_key(lane_of(lanes.data(), i), epoch, timestamp, corrected)
                 : 0u;
    best = key[i] > best ? key[i] : best;
  }
  std::uint64_t set = 0;
  for (std::size_t i = 0; i < count && i < 64; ++i)
    set |= static_cast<std::uint64_t>(key[i] == best && best != 0) << i;
  return set;
}

#ifdef INTERLOCK_AGE_SSE2
/// The same, eight candidates per SSE2 register (16-bit lanes). Each
/// register is loaded as two 64-bit halves, the width age_heads::set stores,
/// so a head written just before is forwarded from the store buffer.
template <std::size_t Words>
std::uint64_t oldest_sse2(std::uint64_t requests, const std::array<std::uint64_t, Words>& lanes,
                          unsigned epoch, unsigned timestamp, unsigned corrected) {
  constexpr std::size_t vectors = Words / 2;
  const __m128i one = _mm_set1_epi16(1);
  const __m128i low9 = _mm_set1_epi16(0x1FF);
  const __m128i low8 = _mm_set1_epi16(0xFF);
  const __m128i e = _mm_set1_epi16(static_cast<short>(epoch));
  const __m128i t = _mm_set1_epi16(static_cast<short>(timestamp));
  const __m128i c = _mm_set1_epi16(static_cast<short>(corrected));
  const __m128i lane_bit = _mm_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128);
  __m128i key[vectors];
  __m128i best = _mm_setzero_si128();
  for (std::size_t v = 0; v < vectors; ++v) {
    const __m128i f = _mm_unpacklo_epi64(
        _mm_loadl_epi64(reinterpret_cast<const __m128i*>(lanes.data() + 2 * v)),
        _mm_loadl_epi64(reinterpret_cast<const __m128i*>(lanes.data() + 2 * v + 1)));
    const __m128i rollover = _mm_and_si128(_mm_xor_si128(_mm_srli_epi16(f, 9), e), one);
    const __m128i sum =
        _mm_add_epi16(_mm_and_si128(f, low9), _mm_or_si128(_mm_slli_epi16(rollover, 8), t));
    const __m128i qualifier = _mm_xor_si128(_mm_srli_epi16(f, 8), c);
    const __m128i saturation = _mm_and_si128(
        _mm_or_si128(_mm_srli_epi16(sum, 8), _mm_and_si128(_mm_srli_epi16(sum, 9), qualifier)),
        one);
    const __m128i age = _mm_or_si128(_mm_and_si128(sum, low8),
                                     _mm_and_si128(_mm_cmpeq_epi16(saturation, one), low8));
    const __m128i asks = _mm_set1_epi16(static_cast<short>((requests >> (8 * v)) & 0xFFu));
    const __m128i mask = _mm_cmpeq_epi16(_mm_and_si128(asks, lane_bit), lane_bit);
    key[v] = _mm_and_si128(_mm_add_epi16(age, one), mask);
    best = _mm_max_epi16(best, key[v]);
  }
  best = _mm_max_epi16(best, _mm_shuffle_epi32(best, _MM_SHUFFLE(1, 0, 3, 2)));
  best = _mm_max_epi16(best, _mm_shuffle_epi32(best, _MM_SHUFFLE(2, 3, 0, 1)));
  best = _mm_max_epi16(best, _mm_shufflelo_epi16(_mm_shufflehi_epi16(best, _MM_SHUFFLE(2, 3, 0, 1)),
                                                 _MM_SHUFFLE(2, 3, 0, 1)));
  const __m128i none = _mm_cmpeq_epi16(best, _mm_setzero_si128());
  std::uint64_t set = 0;
  for (std::size_t v = 0; v < vectors; ++v) {
    const __m128i equal = _mm_andnot_si128(none, _mm_cmpeq_epi16(key[v], best));
    const int bits8 = _mm_movemask_epi8(_mm_packs_epi16(equal, _mm_setzero_si128()));
    set |= static_cast<std::uint64_t>(static_cast<unsigned>(bits8) & 0xFFu) << (8 * v);
  }
  return set;
}
#endif

}  // namespace detail

/// The age fields of the packets at the heads of an output port's N staging
/// buffers, as Procedure 1 stored them; Procedure 2 for all of them at once.
template <std::size_t N>
class age_heads {
  static_assert(N >= 1 && N <= 64, "age_heads<N>: N must be 1..64 candidates");

 public:
  /// Candidate i's head is now `f` (i >= N: a contract violation, ignored).
  void set(std::size_t i, age_field f) {
    INTERLOCK_ASSERT(i < N, "candidate out of range");
    if (i >= N) return;
    const unsigned shift = 16 * (i % 4);
    std::uint64_t& word = lanes_[i / 4];
    word = (word & ~(std::uint64_t{0xFFFF} << shift)) | std::uint64_t{f.bits()} << shift;
  }
  age_field field(std::size_t i) const noexcept {
    return age_field::from_bits(
        i < N ? static_cast<std::uint16_t>(detail::lane_of(lanes_.data(), i)) : std::uint16_t{0});
  }
  /// Candidate i's computed age (Procedure 2).
  std::uint8_t age(std::size_t i, const age_clock& clock,
                   saturation_rule rule = saturation_rule::corrected) const noexcept {
    return output_age(field(i), clock, rule).new_age;
  }
  /// The requesting candidates with the largest computed age.
  std::uint64_t oldest(std::uint64_t requests, const age_clock& clock,
                       saturation_rule rule = saturation_rule::corrected) const {
    const unsigned corrected = rule == saturation_rule::corrected ? 1u : 0u;
    requests &= bits::low_mask(N);
#ifdef INTERLOCK_AGE_SSE2
    return detail::oldest_sse2(requests, lanes_, clock.epoch(), clock.timestamp(), corrected);
#else
    return detail::oldest_scalar(requests, lanes_, clock.epoch(), clock.timestamp(), corrected);
#endif
  }
  /// The request of one output arbitration, with the clock's inhibit flag.
  age_requests requests(std::uint64_t requests, const age_clock& clock,
                        saturation_rule rule = saturation_rule::corrected) const {
    return age_requests{requests, oldest(requests, clock, rule), clock.inhibit()};
  }
  /// The fields as 16-bit lanes, four per word (N rounded up to a multiple
  /// of 8 lanes; unused lanes are 0).
  const auto& lanes() const noexcept { return lanes_; }

 private:
  std::array<std::uint64_t, (N + 7) / 8 * 2> lanes_{};
};

namespace invariants {
/// The grant has the largest of `ages` among the requests.
inline bool age_respected(std::uint64_t requests, span<const std::uint8_t> ages, grant g) {
  return !g || requested(oldest_by_age(requests, ages), g.index());
}
}  // namespace invariants

inline bool requested(const age_requests& r, std::size_t i) noexcept {
  return requested(r.requests, i);
}
inline bool any_requested(const age_requests& r) noexcept { return r.requests != 0; }

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_AGE_HEADS_HPP
