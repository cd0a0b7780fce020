// SPDX-License-Identifier: BSL-1.0
// interlock/allocators/request_matrix.hpp: what an allocator matches, and the matching it returns.
//
// Contract
//   An allocator matches inputs to outputs (a router's input VCs or ports
//   to its output ports) so that each input gets at most one output and
//   each output at most one input, and only where the input requests it.
//   Everything is a bit mask, as in the hardware:
//     request_matrix<I, O>  I rows of up to 64 bits: bit o of row i set
//                           means input i requests output o (1 <= I, O <= 64);
//     matching<I, O>        for each input the granted output (or none), and
//                           the set of matched outputs.
//   Allocators follow the arbiters' protocol: arbitrate(requests) const
//   returns the matching and changes nothing; commit(used, requests)
//   updates the state for the pairs of `used` that the allocator decided (a
//   router commits only the grants it used: drop pairs before committing);
//   allocate(requests) does both.
//
//   Bad input: bits of a row at or above O, and a pair in `used` that the
//   allocator did not decide, are contract violations; they are otherwise
//   ignored.
//
// Example
//   interlock::request_matrix<4, 4> r;
//   r.set(0, 2).set(1, 2).set(3, 0);
//   interlock::wavefront_allocator<4, 4> wf;
//   interlock::matching<4, 4> m = wf.allocate(r);   // 2 matched pairs
#ifndef INTERLOCK_ALLOCATORS_REQUEST_MATRIX_HPP
#define INTERLOCK_ALLOCATORS_REQUEST_MATRIX_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/grant.hpp"

namespace interlock {

/// Transposes a 64 x 64 bit matrix in place (bit j of word i <-> bit i of
/// word j): six rounds of block swaps, 32 word pairs each.
inline void transpose64(std::array<std::uint64_t, 64>& m) noexcept {
  std::uint64_t mask = 0x00000000FFFFFFFFull;
  for (std::size_t width = 32; width != 0; width >>= 1, mask ^= mask << width) {
    for (std::size_t k = 0; k < 64; k = (k + width + 1) & ~width) {
      const std::uint64_t t = ((m[k] >> width) ^ m[k + width]) & mask;
      m[k] ^= t << width;
      m[k + width] ^= t;
    }
  }
}

template <std::size_t I, std::size_t O>
struct request_matrix {
  static_assert(I >= 1 && I <= 64 && O >= 1 && O <= 64,
                "request_matrix<I, O>: 1..64 inputs and 1..64 outputs");
  static constexpr std::size_t inputs = I;
  static constexpr std::size_t outputs = O;
  static constexpr std::uint64_t output_mask = bits::low_mask(O);

  std::array<std::uint64_t, I> rows{};

  /// Input i requests output o (out of range: a contract violation, ignored).
  request_matrix& set(std::size_t i, std::size_t o) {
    INTERLOCK_ASSERT(i < I && o < O, "request outside the matrix");
    if (i < I && o < O) rows[i] |= bits::bit(o);
    return *this;
  }
  bool test(std::size_t i, std::size_t o) const noexcept {
    return i < I && o < O && ((rows[i] >> o) & 1u) != 0;
  }
  /// The outputs input i requests (bits at or above O dropped).
  std::uint64_t row(std::size_t i) const noexcept { return i < I ? rows[i] & output_mask : 0; }
  /// Every output's requesters: columns[o] bit i set when input i requests
  /// o. A bit-matrix transpose without branches: I x O steps for small
  /// matrices, six butterfly rounds over 64 words for large ones.
  std::array<std::uint64_t, O> columns() const noexcept {
    std::array<std::uint64_t, O> c{};
    if constexpr (I * O <= 512) {
      for (std::size_t i = 0; i < I; ++i) {
        const std::uint64_t r = row(i);
        for (std::size_t o = 0; o < O; ++o) c[o] |= ((r >> o) & 1u) << i;
      }
    } else {
      std::array<std::uint64_t, 64> m{};
      for (std::size_t i = 0; i < I; ++i) m[i] = row(i);
      transpose64(m);
      for (std::size_t o = 0; o < O; ++o) c[o] = m[o];
    }
    return c;
  }
  std::size_t count() const noexcept {
    std::size_t n = 0;
    for (std::size_t i = 0; i < I; ++i) n += bits::popcount(row(i));
    return n;
  }
  friend bool operator==(const request_matrix& a, const request_matrix& b) noexcept {
    for (std::size_t i = 0; i < I; ++i)
      if (a.row(i) != b.row(i)) return false;
    return true;
  }
};

template <std::size_t I, std::size_t O>
class matching {
  static constexpr std::uint8_t unmatched = 0xFF;

 public:
  /// Input i's output, or no grant.
  interlock::grant output_of(std::size_t i) const noexcept {
    return i < I && output_[i] != unmatched ? interlock::grant(output_[i]) : interlock::grant();
  }
  /// Output o's input (O(I)), or no grant.
  interlock::grant input_of(std::size_t o) const noexcept {
    for (std::size_t i = 0; i < I; ++i)
      if (output_[i] == o) return interlock::grant(i);
    return interlock::grant();
  }
  bool contains(std::size_t i, std::size_t o) const noexcept {
    return i < I && o < O && output_[i] == o;
  }
  std::uint64_t matched_inputs() const noexcept { return inputs_; }
  std::uint64_t matched_outputs() const noexcept { return outputs_; }
  std::size_t size() const noexcept { return bits::popcount(inputs_); }
  bool empty() const noexcept { return inputs_ == 0; }

  /// Matches i to o; a contract violation (ignored) if either is matched or out of range.
  matching& add(std::size_t i, std::size_t o) {
    const bool ok = i < I && o < O && (inputs_ >> i & 1u) == 0 && (outputs_ >> o & 1u) == 0;
    INTERLOCK_ASSERT(ok, "matching: input or output already matched, or out of range");
    if (!ok) return *this;
    output_[i] = static_cast<std::uint8_t>(o);
    inputs_ |= bits::bit(i);
    outputs_ |= bits::bit(o);
    return *this;
  }
  /// Unmatches input i (a router that could not use its grant).
  matching& remove(std::size_t i) noexcept {
    if (i >= I || output_[i] == unmatched) return *this;
    outputs_ &= ~bits::bit(output_[i]);
    inputs_ &= ~bits::bit(i);
    output_[i] = unmatched;
    return *this;
  }
  /// Calls f(input, output) for every pair, by input.
  template <class F>
  void for_each(F&& f) const {
    for (std::uint64_t x = inputs_; x != 0; x &= x - 1) {
      const std::size_t i = bits::lowest_index(x);
      f(i, std::size_t{output_[i]});
    }
  }

  friend bool operator==(const matching& a, const matching& b) noexcept {
    return a.inputs_ == b.inputs_ && a.output_ == b.output_;
  }
  friend bool operator!=(const matching& a, const matching& b) noexcept { return !(a == b); }

 private:
  std::array<std::uint8_t, I> output_ = filled();
  std::uint64_t inputs_ = 0;
  std::uint64_t outputs_ = 0;
  static constexpr std::array<std::uint8_t, I> filled() noexcept {
    std::array<std::uint8_t, I> a{};
    for (auto& x : a) x = unmatched;
    return a;
  }
};

namespace invariants {
/// Every matched pair is requested.
template <std::size_t I, std::size_t O>
bool matching_requested(const request_matrix<I, O>& r, const matching<I, O>& m) {
  bool ok = true;
  m.for_each([&](std::size_t i, std::size_t o) { ok = ok && r.test(i, o); });
  return ok;
}
/// No request joins an unmatched input to an unmatched output.
template <std::size_t I, std::size_t O>
bool maximal_matching(const request_matrix<I, O>& r, const matching<I, O>& m) {
  for (std::size_t i = 0; i < I; ++i)
    if ((m.matched_inputs() >> i & 1u) == 0 && (r.row(i) & ~m.matched_outputs()) != 0) return false;
  return true;
}
}  // namespace invariants

}  // namespace interlock

#endif  // INTERLOCK_ALLOCATORS_REQUEST_MATRIX_HPP
