// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/round_robin.hpp: the round-robin arbiter with a thermometer-coded pointer.
//
// Models [Towles14] (Anton 2), Section 3.4 and Figure 8 with one priority level:
// requests whose rr_therm bit is set go first, the most significant request
// wins within a group, and after a grant to g the state becomes rr_therm =
// bits [0, g), so g-1 is favoured next and g is served last
// (arbiters/rr_thermometer.hpp explains the choice of update).
//
// Contract
//   - round_robin_arbiter<N>, 1 <= N <= 64: requests are a std::uint64_t;
//     arbitrate is an AND, a select, a count-leading-zeros (no loop).
//   - round_robin_arbiter<N, rr_order::ascending>: the other rotation, the
//     one most software simulators use (BookSim2's RoundRobinArbiter): the
//     lowest requester at or after the pointer wins, else the lowest, and
//     the pointer moves to winner + 1 (arbiters/rr_pointer.hpp); an AND, a
//     select, a count-trailing-zeros. The two orders are mirror images.
//   - dynamic_round_robin_arbiter: any N >= 1, fixed at construction or by
//     resize(N) after default construction (no requesters: no grant);
//     requests are a request_view of exactly N bits, or, for N <= 64, the
//     same std::uint64_t mask the compile-time arbiters take; arbitrate
//     reads each word once. A round_robin_arbiter<64> decides for any
//     N <= 64 exactly as an N-wide one: the fast path when N is known only
//     at run time.
//   - Decision protocol: arbitrate() is const; commit(g) advances the state;
//     grant() does both; commit of no grant is a no-op.
//   - Invariants (asserted in debug builds, tested as properties):
//     grant_implies_request, grant_onehot0, work_conserving,
//     thermometer_coded, no_state_change_without_commit, round_robin_order:
//     a requester that keeps requesting is granted within N decisions, and
//     requesters that keep requesting are granted in strict alternation.
//   - Bad input: request bits at or above N are a precondition violation and
//     are otherwise ignored; a request_view of another size reads only the
//     arbiter's N bits.
//   - request_builder<round_robin_arbiter<N>> takes the mask of a
//     candidate_view (core/candidates.hpp).
//   - Save and restore: state(ar) (core/state_io.hpp): the
//     round-robin state (rr_therm or the pointer).
//   Complexity: O(1) for N <= 64, O(N / 64) words otherwise; no allocation.
//
// Example
//   interlock::round_robin_arbiter<4> rr;          // rr_therm = 0: 3 first
//   rr.grant(0b1011);                              // grants 3, rr_therm = 0b0111
//   rr.grant(0b1011);                              // grants 1, rr_therm = 0b0001
//   rr.grant(0b1011);                              // grants 0, rr_therm = 0
//   assert(rr.grant(0b1011).index() == 3);
#ifndef INTERLOCK_ARBITERS_ROUND_ROBIN_HPP
#define INTERLOCK_ARBITERS_ROUND_ROBIN_HPP

#include <cstddef>
#include <cstdint>

#include "interlock/arbiters/rr_pointer.hpp"
#include "interlock/arbiters/rr_thermometer.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/invariants.hpp"
#include "interlock/core/request_set.hpp"

namespace interlock {

template <std::size_t N, rr_order Order = rr_order::descending>
class round_robin_arbiter : public detail::rr_arbiter_base<round_robin_arbiter<N, Order>,
                                                           std::uint64_t, rr_thermometer<N>> {
  static_assert(N >= 1 && N <= 64,
                "round_robin_arbiter<N>: N must be 1..64; use dynamic_round_robin_arbiter for "
                "more requesters");
  static_assert(Order == rr_order::descending, "the ascending order is a specialization");
  using base =
      detail::rr_arbiter_base<round_robin_arbiter<N, Order>, std::uint64_t, rr_thermometer<N>>;

 public:
  static constexpr std::uint64_t valid_mask = bits::low_mask(N);
  static constexpr rr_order order = rr_order::descending;

  /// rr_therm = 0: requester N-1 has the highest priority.
  round_robin_arbiter() = default;
  /// Starts from a given rr_therm (config_error unless a thermometer code of <= N bits).
  explicit round_robin_arbiter(std::uint64_t rr_therm)
      : base(rr_thermometer<N>(rr_therm, "round_robin_arbiter")) {}
  /// Starts with requester i at the highest priority.
  static round_robin_arbiter with_highest_priority(std::size_t i) {
    return round_robin_arbiter(
        rr_thermometer<N>::with_highest_priority(i, "round_robin_arbiter").mask());
  }

  interlock::grant arbitrate(std::uint64_t requests) const {
    INTERLOCK_ASSERT((requests & ~valid_mask) == 0, "request bit at or above N");
    const std::uint64_t req = requests & valid_mask;
    const std::uint64_t preferred = req & this->rr_.mask();
    const std::uint64_t row = preferred != 0 ? preferred : req;
    const interlock::grant g = detail::highest_of(row);
    INTERLOCK_ASSERT(detail::grant_vector_agrees(row, g), "grant_onehot0");
    INTERLOCK_ASSERT(invariants::grant_implies_request(req, g), "grant_implies_request");
    INTERLOCK_ASSERT(invariants::work_conserving(req, g), "work_conserving");
    return g;
  }
};

/// The ascending order (arbiters/rr_pointer.hpp): the lowest requester at or
/// after the pointer wins, else the lowest; the pointer moves to g + 1.
template <std::size_t N>
class round_robin_arbiter<N, rr_order::ascending>
    : public detail::rr_arbiter_base<round_robin_arbiter<N, rr_order::ascending>, std::uint64_t,
                                     rr_pointer<N>> {
  static_assert(N >= 1 && N <= 64, "round_robin_arbiter<N, rr_order::ascending>: N must be 1..64");

 public:
  static constexpr std::uint64_t valid_mask = bits::low_mask(N);
  static constexpr rr_order order = rr_order::ascending;

  /// The pointer at 0: requester 0 first.
  round_robin_arbiter() noexcept {}  // user-provided: T{} is not aggregate initialization
  /// Starts with requester i at the highest priority (the pointer at i).
  static round_robin_arbiter with_highest_priority(std::size_t i) {
    round_robin_arbiter arb;
    arb.rr_ = rr_pointer<N>::with_highest_priority(i, "round_robin_arbiter");
    return arb;
  }

  interlock::grant arbitrate(std::uint64_t requests) const {
    INTERLOCK_ASSERT((requests & ~valid_mask) == 0, "request bit at or above N");
    const std::uint64_t req = requests & valid_mask;
    const interlock::grant g = this->rr_.pick(req);
    INTERLOCK_ASSERT(invariants::grant_implies_request(req, g), "grant_implies_request");
    INTERLOCK_ASSERT(invariants::work_conserving(req, g), "work_conserving");
    return g;
  }
};

class dynamic_round_robin_arbiter
    : public detail::rr_arbiter_base<dynamic_round_robin_arbiter, request_view,
                                     dynamic_rr_thermometer> {
  using base =
      detail::rr_arbiter_base<dynamic_round_robin_arbiter, request_view, dynamic_rr_thermometer>;

 public:
  /// No requesters: arbitrate grants nothing until resize() gives it some
  /// (a simulator that builds its arbiters before it reads N).
  dynamic_round_robin_arbiter() = default;
  /// `size` requesters (config_error unless 1 <= size < 2^32 - 1), rr_therm = 0.
  explicit dynamic_round_robin_arbiter(std::size_t size)
      : base(dynamic_rr_thermometer(size, "dynamic_round_robin_arbiter")) {}
  /// Starts from a given rr_therm; its size is the number of requesters.
  explicit dynamic_round_robin_arbiter(request_view rr_therm)
      : base(dynamic_rr_thermometer(rr_therm, "dynamic_round_robin_arbiter")) {}
  static dynamic_round_robin_arbiter with_highest_priority(std::size_t size, std::size_t i) {
    dynamic_round_robin_arbiter arb(size);
    arb.rr_ = dynamic_rr_thermometer::with_highest_priority(size, i, "dynamic_round_robin_arbiter");
    return arb;
  }

  /// `size` requesters from now on, rr_therm = 0 (config_error unless 1 <= size < 2^32 - 1).
  void resize(std::size_t size) {
    rr_ = dynamic_rr_thermometer(size, "dynamic_round_robin_arbiter");
  }

  /// For up to 64 requesters, the compile-time arbiters' request: a mask.
  interlock::grant arbitrate(std::uint64_t requests) const {
    INTERLOCK_ASSERT(size() <= 64, "a mask request for more than 64 requesters");
    return arbitrate(request_view(&requests, size() <= 64 ? size() : 64));
  }
  using base::grant;
  interlock::grant grant(std::uint64_t requests) {
    const interlock::grant g = arbitrate(requests);
    this->commit(g);
    return g;
  }

  interlock::grant arbitrate(request_view requests) const {
    INTERLOCK_ASSERT(requests.size() == size(), "request set size differs from the arbiter's");
    const interlock::grant g =
        detail::scan_words<1>([&](std::size_t, std::size_t w) { return requests.word(w); }, rr_);
    INTERLOCK_ASSERT(invariants::grant_implies_request(requests, g), "grant_implies_request");
    INTERLOCK_ASSERT(invariants::work_conserving(requests, g), "work_conserving");
    return g;
  }
};

/// Requests from a candidate_view: the mask (bits at or above N are a
/// contract violation and are dropped).
template <std::size_t N, rr_order Order>
class request_builder<round_robin_arbiter<N, Order>> {
 public:
  request_builder() = default;
  explicit request_builder(const round_robin_arbiter<N, Order>&) noexcept {}
  std::uint64_t operator()(const candidate_view& v) const {
    INTERLOCK_ASSERT((v.requests & ~bits::low_mask(N)) == 0, "candidate at or above N");
    return v.requests & bits::low_mask(N);
  }
};

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_ROUND_ROBIN_HPP
