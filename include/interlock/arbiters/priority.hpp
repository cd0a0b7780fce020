// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/priority.hpp: the Anton 2 P-level priority arbiter with round-robin ties.
//
// Models [Towles14] (Towles et al., ISCA'14), Section 3.4, Figures 7 and 8. A
// request at level p (0..P-1, P-1 highest) beats every request at a lower
// level; ties within the highest requesting level are broken by the shared
// thermometer-coded round-robin state rr_therm (arbiters/rr_thermometer.hpp).
// Figure 8's formulation is kept: instead of one round-robin arbiter (two
// fixed-priority passes) per level, i.e. 2P passes, the requests are unrolled
// into P + 1 mutually exclusive rows,
//
//   row p = req[i] & ({pri[i], rr_therm[i]} >= 2p - 1),  p = 1..P;  row 0 = req,
//
// and the first non-empty row from the top is resolved by one fixed-priority
// rule (most significant bit first). In bit-parallel form with A(p) the
// requests at level >= p: row p = A(p) | (A(p-1) & rr_therm). P = 2 is the
// arbiter under Anton 2's inverse-weighted arbiters.
//
// Contract
//   - priority_arbiter<N, P>, 1 <= N <= 64, 1 <= P <= 256: requests are
//     priority_requests<P> (one mask per level); arbitrate is P + 1 row
//     computations, branch-free, then one count-leading-zeros.
//   - dynamic_priority_arbiter<P>: any N >= 1 fixed at construction;
//     requests are priority_request_views<P> of exactly N bits; O(P N / 64).
//   - The round-robin state is updated on every committed grant, whatever its
//     level (one rr_therm per arbiter, as in Figure 8). With P = 1 the
//     arbiter is round_robin_arbiter.
//   - Invariants: grant_implies_request, grant_onehot0, work_conserving,
//     priority_respected, thermometer_coded, no_state_change_without_commit;
//     among requesters at the highest requesting level, round_robin_order.
//   - Bad input: request bits at or above N are a precondition violation and
//     otherwise ignored; a requester in several levels requests at the highest.
//   - priority_arbiter<N, P, rr_order::ascending> breaks ties the other way
//     (arbiters/rr_pointer.hpp): strict levels, then the lowest requester at
//     or after the pointer within the highest requesting level.
//   - request_builder<priority_arbiter<N, P>> makes the bit planes from a
//     candidate_view's priority field (core/candidates.hpp).
//   - Save and restore: state(ar) (core/state_io.hpp): the
//     round-robin state (rr_therm or the pointer).
//
// Example
//   interlock::priority_arbiter<4, 2> arb;
//   interlock::priority_requests<2> req;
//   req.set(0, 1).set(1, 1).set(3, 0);    // 0 and 1 high, 3 low
//   assert(arb.grant(req).index() == 1);   // highest level, then most significant
//   assert(arb.grant(req).index() == 0);   // round robin within the level
#ifndef INTERLOCK_ARBITERS_PRIORITY_HPP
#define INTERLOCK_ARBITERS_PRIORITY_HPP

#include <cstddef>
#include <cstdint>

#include "interlock/arbiters/rr_pointer.hpp"
#include "interlock/arbiters/rr_thermometer.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/invariants.hpp"
#include "interlock/core/priority_requests.hpp"

namespace interlock {

template <std::size_t N, std::size_t P = 2, rr_order Order = rr_order::descending>
class priority_arbiter : public detail::rr_arbiter_base<priority_arbiter<N, P, Order>,
                                                        priority_requests<P>, rr_thermometer<N>> {
  static_assert(N >= 1 && N <= 64,
                "priority_arbiter<N, P>: N must be 1..64; use dynamic_priority_arbiter<P> for "
                "more requesters");
  static_assert(P >= 1 && P <= 256, "priority_arbiter<N, P>: P must be 1..256");
  static_assert(Order == rr_order::descending, "the ascending order is a specialization");
  using base = detail::rr_arbiter_base<priority_arbiter<N, P, Order>, priority_requests<P>,
                                       rr_thermometer<N>>;

 public:
  static constexpr std::size_t levels = P;
  static constexpr rr_order order = rr_order::descending;
  static constexpr std::uint64_t valid_mask = bits::low_mask(N);

  priority_arbiter() = default;
  explicit priority_arbiter(std::uint64_t rr_therm)
      : base(rr_thermometer<N>(rr_therm, "priority_arbiter")) {}
  static priority_arbiter with_highest_priority(std::size_t i) {
    return priority_arbiter(rr_thermometer<N>::with_highest_priority(i, "priority_arbiter").mask());
  }

  interlock::grant arbitrate(const priority_requests<P>& requests) const {
    INTERLOCK_ASSERT((requests.requests() & ~valid_mask) == 0, "request bit at or above N");
    const detail::figure8_row pick = detail::first_row<P>(
        [&](std::size_t p) { return requests.levels[p] & valid_mask; }, this->rr_.mask());
    const interlock::grant g = detail::highest_of(pick.bits);
    INTERLOCK_ASSERT(detail::grant_vector_agrees(pick.bits, g), "grant_onehot0");
    INTERLOCK_ASSERT(invariants::grant_implies_request(requests, g), "grant_implies_request");
    INTERLOCK_ASSERT(invariants::work_conserving(requests, g), "work_conserving");
    INTERLOCK_ASSERT(invariants::priority_respected(requests, g), "priority_respected");
    return g;
  }
};

/// Ties broken in the ascending order (arbiters/rr_pointer.hpp): the highest
/// requesting level wins, and within it the lowest requester at or after the
/// pointer, else the lowest; the pointer moves to winner + 1 on every
/// committed grant (BookSim2's priority arbitration among equal levels).
template <std::size_t N, std::size_t P>
class priority_arbiter<N, P, rr_order::ascending>
    : public detail::rr_arbiter_base<priority_arbiter<N, P, rr_order::ascending>,
                                     priority_requests<P>, rr_pointer<N>> {
  static_assert(N >= 1 && N <= 64, "priority_arbiter<N, P, rr_order::ascending>: N must be 1..64");
  static_assert(P >= 1 && P <= 256, "priority_arbiter<N, P>: P must be 1..256");

 public:
  static constexpr std::size_t levels = P;
  static constexpr rr_order order = rr_order::ascending;
  static constexpr std::uint64_t valid_mask = bits::low_mask(N);

  priority_arbiter() noexcept {}  // user-provided: T{} is not aggregate initialization
  static priority_arbiter with_highest_priority(std::size_t i) {
    priority_arbiter arb;
    arb.rr_ = rr_pointer<N>::with_highest_priority(i, "priority_arbiter");
    return arb;
  }

  interlock::grant arbitrate(const priority_requests<P>& requests) const {
    INTERLOCK_ASSERT((requests.requests() & ~valid_mask) == 0, "request bit at or above N");
    std::uint64_t top = 0;
    for (std::size_t p = P; p-- > 0 && top == 0;) top = requests.levels[p] & valid_mask;
    const interlock::grant g = this->rr_.pick(top);
    INTERLOCK_ASSERT(invariants::grant_implies_request(requests, g), "grant_implies_request");
    INTERLOCK_ASSERT(invariants::work_conserving(requests, g), "work_conserving");
    INTERLOCK_ASSERT(invariants::priority_respected(requests, g), "priority_respected");
    return g;
  }
};

template <std::size_t P = 2>
class dynamic_priority_arbiter
    : public detail::rr_arbiter_base<dynamic_priority_arbiter<P>, priority_request_views<P>,
                                     dynamic_rr_thermometer> {
  static_assert(P >= 1 && P <= 256, "dynamic_priority_arbiter<P>: P must be 1..256");
  using base = detail::rr_arbiter_base<dynamic_priority_arbiter<P>, priority_request_views<P>,
                                       dynamic_rr_thermometer>;

 public:
  static constexpr std::size_t levels = P;

  explicit dynamic_priority_arbiter(std::size_t size)
      : base(dynamic_rr_thermometer(size, "dynamic_priority_arbiter")) {}
  explicit dynamic_priority_arbiter(request_view rr_therm)
      : base(dynamic_rr_thermometer(rr_therm, "dynamic_priority_arbiter")) {}
  static dynamic_priority_arbiter with_highest_priority(std::size_t size, std::size_t i) {
    dynamic_priority_arbiter arb(size);
    arb.rr_ = dynamic_rr_thermometer::with_highest_priority(size, i, "dynamic_priority_arbiter");
    return arb;
  }

  interlock::grant arbitrate(const priority_request_views<P>& requests) const {
    INTERLOCK_ASSERT(requests.size() == this->size(),
                     "request set size differs from the arbiter's");
    const interlock::grant g = detail::scan_words<P>(
        [&](std::size_t p, std::size_t w) { return requests.levels[p].word(w); }, this->rr_);
    INTERLOCK_ASSERT(invariants::grant_implies_request(requests, g), "grant_implies_request");
    INTERLOCK_ASSERT(invariants::work_conserving(requests, g), "work_conserving");
    INTERLOCK_ASSERT(invariants::priority_respected(requests, g), "priority_respected");
    return g;
  }
};

/// Requests from a candidate_view: each requesting candidate at the level
/// its `priority` field gives (a level >= P is a contract violation and
/// counts as P-1; bits at or above N likewise, dropped). O(requesters).
template <std::size_t N, std::size_t P, rr_order Order>
class request_builder<priority_arbiter<N, P, Order>> {
 public:
  request_builder() = default;
  explicit request_builder(const priority_arbiter<N, P, Order>&) noexcept {}
  priority_requests<P> operator()(const candidate_view& v) const {
    INTERLOCK_ASSERT((v.requests & ~bits::low_mask(N)) == 0, "candidate at or above N");
    priority_requests<P> r;
    for (std::uint64_t x = v.requests & bits::low_mask(N); x != 0; x &= x - 1) {
      const std::size_t i = bits::lowest_index(x);
      const std::size_t level = v.priority.at(i, 0);
      INTERLOCK_ASSERT(level < P, "priority level out of range");
      r.levels[level < P ? level : P - 1] |= bits::bit(i);
    }
    return r;
  }
};

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_PRIORITY_HPP
