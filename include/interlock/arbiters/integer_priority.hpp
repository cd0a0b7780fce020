// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/integer_priority.hpp: arbitration among requests that carry an
// arbitrary integer priority, and the request list a simulator fills one request at a time.
//
// Software simulators attach an integer to each request (BookSim2's `int
// pri`, an age, a timestamp, a hop count) and grant the highest, breaking
// ties round robin. integer_priority_arbiter<N, Order, Priority> does that
// on masks, with no sort: one pass over the requesters keeps the highest
// priority seen and the mask of requesters that have it, then the tie is
// broken by round robin in either rotation order (arbiters/rr_pointer.hpp):
// rr_order::ascending is BookSim2's (the smallest distance up from the
// pointer; pointer = winner + 1), rr_order::descending Anton 2's. With the
// same order and the same priorities, a simulator's arbiter can be swapped
// for this one with identical results.
//
// When the priorities take a few known levels, priority_arbiter<N, P>
// (Anton 2's Figure 8) is the same rule on P bit planes; this arbiter is
// for priorities of any range.
//
//   integer_requests<N, Priority>  the mask and a priority per requester
//                                  (entries of non-requesters are ignored)
//   request_list<N, Payload, Priority>  built by add(input, payload,
//                                  priority), O(1) each, as a simulator's
//                                  AddRequest(input, id, pri) does: a
//                                  requester added twice keeps the higher
//                                  priority (and that request's payload);
//                                  requests() is the arbiter's request,
//                                  payload(g) the winner's payload; clear()
//                                  is O(1).
//
// Contract
//   - 1 <= N <= 64; Priority is any integral type (std::int64_t by default).
//   - arbitrate is O(requesters): a max-and-mask pass, then the round-robin
//     pick (count-leading- or trailing-zeros). No allocation.
//   - The round-robin state moves on every committed grant, whatever its
//     priority (as priority_arbiter's and BookSim2's do).
//   - Invariants: grant_implies_request, work_conserving, the grant has the
//     highest priority among the requests (asserted).
//   - Request bits at or above N are a contract violation and are ignored.
//   - request_builder<integer_priority_arbiter<...>> reads a candidate_view's
//     priority field (0..255) for each requesting candidate.
//   - Save and restore: state(ar) (core/state_io.hpp): the
//     round-robin state that breaks ties.
//
// Example
//   interlock::integer_priority_arbiter<8, interlock::rr_order::ascending> arb;
//   interlock::request_list<8, int> list;          // payload: a flit id
//   list.add(2, 100, 7).add(5, 101, 9).add(6, 102, 9);
//   interlock::grant g = arb.grant(list.requests());   // 5: priority 9, first up from 0
//   int id = list.payload(g);                          // 101
#ifndef INTERLOCK_ARBITERS_INTEGER_PRIORITY_HPP
#define INTERLOCK_ARBITERS_INTEGER_PRIORITY_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "interlock/arbiters/rr_pointer.hpp"
#include "interlock/arbiters/rr_thermometer.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/invariants.hpp"

namespace interlock {

/// Requests with an integer priority each.
template <std::size_t N, class Priority = std::int64_t>
struct integer_requests {
  static_assert(N >= 1 && N <= 64, "integer_requests<N>: N must be 1..64");
  static_assert(std::is_integral<Priority>::value, "integer_requests: Priority must be integral");
  std::uint64_t requests = 0;
  std::array<Priority, N> priority{};

  /// Adds requester i at priority p (i >= N: a contract violation, ignored).
  constexpr integer_requests& set(std::size_t i, Priority p) {
    INTERLOCK_ASSERT(i < N, "requester out of range");
    if (i < N) {
      requests |= bits::bit(i);
      priority[i] = p;
    }
    return *this;
  }
};

template <std::size_t N, class Priority>
inline bool requested(const integer_requests<N, Priority>& r, std::size_t i) noexcept {
  return i < N && ((r.requests >> i) & 1u) != 0;
}
template <std::size_t N, class Priority>
inline bool any_requested(const integer_requests<N, Priority>& r) noexcept {
  return r.requests != 0;
}

namespace detail {
template <std::size_t N, rr_order Order>
using rr_state_t =
    std::conditional_t<Order == rr_order::ascending, rr_pointer<N>, rr_thermometer<N>>;

/// The pick among tied requesters in the given order.
template <std::size_t N, rr_order Order>
constexpr grant rr_pick(std::uint64_t tied, const rr_state_t<N, Order>& rr) noexcept {
  if constexpr (Order == rr_order::ascending) {
    return rr.pick(tied);
  } else {
    const std::uint64_t preferred = tied & rr.mask();
    return highest_of(preferred != 0 ? preferred : tied);
  }
}
}  // namespace detail

template <std::size_t N, rr_order Order = rr_order::descending, class Priority = std::int64_t>
class integer_priority_arbiter
    : public detail::rr_arbiter_base<integer_priority_arbiter<N, Order, Priority>,
                                     integer_requests<N, Priority>, detail::rr_state_t<N, Order>> {
  static_assert(N >= 1 && N <= 64, "integer_priority_arbiter<N>: N must be 1..64");

 public:
  static constexpr rr_order order = Order;
  static constexpr std::uint64_t valid_mask = bits::low_mask(N);

  integer_priority_arbiter() noexcept {}  // user-provided: T{} is not aggregate initialization
  /// Starts with requester i first among ties.
  static integer_priority_arbiter with_highest_priority(std::size_t i) {
    integer_priority_arbiter arb;
    arb.rr_ = detail::rr_state_t<N, Order>::with_highest_priority(i, "integer_priority_arbiter");
    return arb;
  }

  /// The requesters that have the highest priority among the requests.
  static std::uint64_t highest(const integer_requests<N, Priority>& r) noexcept {
    std::uint64_t tied = 0;
    Priority best{};
    for (std::uint64_t x = r.requests & valid_mask; x != 0; x &= x - 1) {
      const std::size_t i = bits::lowest_index(x);
      const Priority p = r.priority[i];
      if (tied == 0 || p > best) {
        best = p;
        tied = bits::bit(i);
      } else if (p == best) {
        tied |= bits::bit(i);
      }
    }
    return tied;
  }

  interlock::grant arbitrate(const integer_requests<N, Priority>& r) const {
    INTERLOCK_ASSERT((r.requests & ~valid_mask) == 0, "request bit at or above N");
    const std::uint64_t tied = highest(r);
    const interlock::grant g = detail::rr_pick<N, Order>(tied, this->rr_);
    INTERLOCK_ASSERT(!g || ((tied >> g.index()) & 1u) != 0, "priority_respected");
    INTERLOCK_ASSERT(invariants::grant_implies_request(r.requests & valid_mask, g),
                     "grant_implies_request");
    INTERLOCK_ASSERT(invariants::work_conserving(r.requests & valid_mask, g), "work_conserving");
    return g;
  }
};

/// Requests added one at a time, each with a payload (see the contract above).
template <std::size_t N, class Payload, class Priority = std::int64_t>
class request_list {
 public:
  /// Adds input's request; a second request of the same input replaces the
  /// first only at a higher priority. An input >= N is a contract violation
  /// and is ignored.
  request_list& add(std::size_t input, const Payload& payload, Priority priority) {
    INTERLOCK_ASSERT(input < N, "input out of range");
    if (input >= N) return *this;
    const bool present = ((requests_.requests >> input) & 1u) != 0;
    if (!present || requests_.priority[input] < priority) {
      requests_.set(input, priority);
      payload_[input] = payload;
    }
    return *this;
  }
  void clear() noexcept { requests_.requests = 0; }
  bool empty() const noexcept { return requests_.requests == 0; }
  const integer_requests<N, Priority>& requests() const noexcept { return requests_; }
  /// The payload of the granted input (a grant that is not a request is a
  /// contract violation; the payload returned is then unspecified).
  const Payload& payload(interlock::grant g) const {
    INTERLOCK_ASSERT(g && g.index() < N && ((requests_.requests >> g.index()) & 1u) != 0,
                     "payload of an input that did not request");
    return payload_[g && g.index() < N ? g.index() : 0];
  }
  Priority priority(interlock::grant g) const {
    INTERLOCK_ASSERT(g && g.index() < N, "priority of no grant");
    return requests_.priority[g && g.index() < N ? g.index() : 0];
  }

 private:
  integer_requests<N, Priority> requests_;
  std::array<Payload, N> payload_{};
};

/// Requests from a candidate_view: each requesting candidate at its
/// `priority` field (0..255). O(requesters).
template <std::size_t N, rr_order Order, class Priority>
class request_builder<integer_priority_arbiter<N, Order, Priority>> {
 public:
  request_builder() = default;
  explicit request_builder(const integer_priority_arbiter<N, Order, Priority>&) noexcept {}
  integer_requests<N, Priority> operator()(const candidate_view& v) const {
    INTERLOCK_ASSERT((v.requests & ~bits::low_mask(N)) == 0, "candidate at or above N");
    integer_requests<N, Priority> r;
    for (std::uint64_t x = v.requests & bits::low_mask(N); x != 0; x &= x - 1) {
      const std::size_t i = bits::lowest_index(x);
      r.set(i, static_cast<Priority>(v.priority.at(i, 0)));
    }
    return r;
  }
};

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_INTEGER_PRIORITY_HPP
