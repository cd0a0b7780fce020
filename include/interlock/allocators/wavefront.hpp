// SPDX-License-Identifier: BSL-1.0
// interlock/allocators/wavefront.hpp: the wavefront allocator.
//
// Models Tamir & Chi, "Symmetric Crossbar Arbiters for VLSI Communication
// Switches" (IEEE TPDS 4(1), 1993), the wavefront arbiter of Dally & Towles
// Section 19.4. The request matrix is padded to S x S, S = max(I, O), and
// swept one wrapped diagonal at a time from a priority diagonal: cell (i, j)
// lies on diagonal (j - i) mod S. The cells of one diagonal share no row or
// column, so all of them are decided at once: a cell is granted when it is
// requested and neither its row nor its column is taken yet. Every request
// whose row and column are both free when its diagonal comes is granted, so
// the matching is maximal. The priority diagonal advances by one on every
// commit of a non-empty matching, so each diagonal leads in turn.
//
// Bit-parallel form: the requests are skewed once into S diagonal masks
// (bit i of diagonal k: input i requests output (i + k) mod S: each row
// rotated right by its index, then a bit-matrix transpose), and each
// diagonal is one AND with the free rows and the free columns rotated onto
// it: S steps of a few word operations, whatever the number of requests.
//
// Contract
//   - wavefront_allocator<I, O>: 1 <= I, O <= 64.
//   - arbitrate(r) const, commit(used, r), allocate(r) as in
//     request_matrix.hpp; commit of a non-empty `used` advances the
//     priority diagonal, of an empty one changes nothing.
//   - Invariants: matching_requested, maximal_matching; a request that
//     persists is granted within S allocations whose matchings are committed.
//   - Save and restore: state(ar) (core/state_io.hpp): the diagonal
//     swept first (0..side-1).
//   Complexity: a branch-free S x S bit transpose to skew, S mask steps to
//   sweep, one write per matched pair; no allocation.
//
// Example
//   interlock::wavefront_allocator<5, 5> wf;
//   interlock::request_matrix<5, 5> requests;
//   requests.set(0, 0).set(0, 1).set(1, 0);
//   auto m = wf.allocate(requests);  // maximal: 0-0 alone, or 0-1 and 1-0
//   assert(m.size() >= 1 && interlock::invariants::maximal_matching(requests, m));
#ifndef INTERLOCK_ALLOCATORS_WAVEFRONT_HPP
#define INTERLOCK_ALLOCATORS_WAVEFRONT_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#include "interlock/allocators/request_matrix.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/state_io.hpp"

namespace interlock {

template <std::size_t I, std::size_t O>
class wavefront_allocator {
 public:
  using request_type = request_matrix<I, O>;
  static constexpr std::size_t inputs = I;
  static constexpr std::size_t outputs = O;
  static constexpr std::size_t side = I > O ? I : O;

  wavefront_allocator() = default;
  /// Starts with diagonal `priority` first (taken modulo max(I, O)).
  explicit wavefront_allocator(std::size_t priority) noexcept : priority_(priority % side) {}

  /// The diagonal swept first.
  std::size_t priority_diagonal() const noexcept { return priority_; }

  matching<I, O> arbitrate(const request_matrix<I, O>& r) const {
    // Skew: row i rotated right by i has bit k for cell (i, (i + k) mod S);
    // transposing the rotated rows gives the diagonals.
    request_matrix<side, side> skewed;
    for (std::size_t i = 0; i < I; ++i) skewed.rows[i] = bits::rotate_right(r.row(i), i, side);
    const std::array<std::uint64_t, side> diagonal = skewed.columns();
    matching<I, O> m;
    std::uint64_t free_rows = bits::low_mask(I);
    std::uint64_t free_columns = bits::low_mask(O);
    for (std::size_t t = 0; t < side; ++t) {
      const std::size_t k = priority_ + t < side ? priority_ + t : priority_ + t - side;
      // bit i of the rotated columns: column (i + k) mod S is free.
      const std::uint64_t granted =
          diagonal[k] & free_rows & bits::rotate_right(free_columns, k, side);
      if (granted == 0) continue;
      free_rows &= ~granted;
      free_columns &= ~bits::rotate_left(granted, k, side);
      for (std::uint64_t x = granted; x != 0; x &= x - 1) {
        const std::size_t i = bits::lowest_index(x);
        m.add(i, (i + k) % side);
      }
    }
    return m;
  }

  void commit(const matching<I, O>& used, const request_matrix<I, O>& r) {
#if !defined(NDEBUG) || defined(INTERLOCK_ENABLE_ASSERTS)
    const matching<I, O> decided = arbitrate(r);
    used.for_each([&](std::size_t i, std::size_t o) {
      INTERLOCK_ASSERT(decided.contains(i, o), "commit of a pair the allocator did not decide");
    });
#else
    static_cast<void>(r);
#endif
    if (!used.empty()) priority_ = priority_ + 1 == side ? 0 : priority_ + 1;
  }

  matching<I, O> allocate(const request_matrix<I, O>& r) {
    const matching<I, O> m = arbitrate(r);
    if (!m.empty()) priority_ = priority_ + 1 == side ? 0 : priority_ + 1;
    return m;
  }

  /// Save and restore (core/state_io.hpp): the diagonal swept first,
  /// 0..side-1, where side = max(I, O).
  template <class Archive>
  void state(Archive& ar) {
    ar.object("WAVE", "wavefront_allocator", side);
    ar.u8("priority_diagonal", priority_, state_range{0, side - 1});
  }

  friend bool operator==(const wavefront_allocator& a, const wavefront_allocator& b) noexcept {
    return a.priority_ == b.priority_;
  }
  friend bool operator!=(const wavefront_allocator& a, const wavefront_allocator& b) noexcept {
    return !(a == b);
  }

 private:
  std::size_t priority_ = 0;
};

}  // namespace interlock

#endif  // INTERLOCK_ALLOCATORS_WAVEFRONT_HPP
