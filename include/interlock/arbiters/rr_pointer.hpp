// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/rr_pointer.hpp: the two rotation orders of a round robin, and the
// pointer of the ascending one.
//
// A round robin either rotates downward or upward, and a simulator whose
// results must not change when its arbiter is swapped needs the one it had:
//
//   rr_order::descending  Anton 2's thermometer order ([Towles14], Figure 8;
//                         arbiters/rr_thermometer.hpp): the most significant
//                         requester below the last grant wins, else the most
//                         significant one; after a grant to g, g-1 is
//                         favoured. interlock's default.
//   rr_order::ascending   the order of most software simulators and textbook
//                         round robins (BookSim2's RoundRobinArbiter among
//                         them): the lowest requester at or after the pointer
//                         wins, else the lowest one; after a grant to g the
//                         pointer is g + 1 (mod N).
//
// The two are mirror images. With requester i renamed N-1-i, ascending from
// pointer p grants g exactly when descending with rr_therm = bits [0, N-p)
// grants N-1-g; the default states correspond (pointer 0, rr_therm 0: both
// plain fixed priority), and so do the states after every commit. A test
// checks it decision by decision, so a simulator's round robin can be
// swapped for either without mirroring its inputs.
//
// rr_pointer<N> (1 <= N <= 64) is the ascending state: the pointer, 0..N-1,
// kept with the mask of requesters at or after it.
//
// Contract
//   - advance(g) moves the pointer to g + 1 (mod N) when g is a requester
//     (index < N); no grant leaves it unchanged. Branch-free but for the wrap.
//   - The default state points at 0: requester 0 first.
//   - with_highest_priority(i) (config_error unless i < N) points at i.
//   - Save and restore: state(ar) (core/state_io.hpp): the pointer (0..N-1).
//
// Example
//   interlock::rr_pointer<8> p;            // requester 0 first
//   p.advance(interlock::grant(5));        // pointer 6
//   assert(p.highest_priority() == 6);
#ifndef INTERLOCK_ARBITERS_RR_POINTER_HPP
#define INTERLOCK_ARBITERS_RR_POINTER_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/state_io.hpp"

namespace interlock {

/// Which way a round robin rotates (see the contract above).
enum class rr_order : std::uint8_t { descending, ascending };

template <std::size_t N>
class rr_pointer {
  static_assert(N >= 1 && N <= 64, "rr_pointer<N>: N must be 1..64");

 public:
  constexpr rr_pointer() noexcept = default;

  /// The state in which requester i has the highest priority.
  static rr_pointer with_highest_priority(std::size_t i,
                                          std::string_view component = "rr_pointer") {
    if (i >= N)
      throw config_error(component, "highest_priority", std::to_string(i),
                         "0.." + std::to_string(N - 1));
    rr_pointer p;
    p.pointer_ = static_cast<std::uint8_t>(i);
    return p;
  }

  static constexpr std::size_t size() noexcept { return N; }
  /// The requester the next decision favours.
  constexpr std::size_t highest_priority() const noexcept { return pointer_; }
  /// The requesters at or after the pointer.
  constexpr std::uint64_t at_or_after() const noexcept {
    return bits::low_mask(N) & ~bits::low_mask(pointer_);
  }

  /// The ascending pick among `candidates`: the lowest at or after the
  /// pointer, else the lowest; no grant when there is none.
  constexpr grant pick(std::uint64_t candidates) const noexcept {
    const std::uint64_t preferred = candidates & at_or_after();
    const std::uint64_t row = preferred != 0 ? preferred : candidates;
    return row != 0 ? grant(bits::lowest_index(row)) : no_grant();
  }

  /// pointer = g + 1 (mod N) when g is a requester; otherwise unchanged.
  constexpr void advance(grant g) noexcept {
    const std::size_t i = g.index();
    if (i < N) pointer_ = static_cast<std::uint8_t>(i + 1 == N ? 0 : i + 1);
  }

  /// Save and restore (core/state_io.hpp): the pointer, 0..N-1.
  template <class Archive>
  void state(Archive& ar) {
    ar.object("RRPT", "rr_pointer", N);
    ar.u8("pointer", pointer_, state_range{0, N - 1});
  }

  friend constexpr bool operator==(rr_pointer a, rr_pointer b) noexcept {
    return a.pointer_ == b.pointer_;
  }
  friend constexpr bool operator!=(rr_pointer a, rr_pointer b) noexcept { return !(a == b); }

 private:
  std::uint8_t pointer_ = 0;
};

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_RR_POINTER_HPP
