// SPDX-License-Identifier: BSL-1.0
// interlock/verify/arbiter_oracle.hpp: an arbiter's properties as a monitor of its cycles.
//
// The oracle watches what any arbiter of up to 64 requesters does, cycle by
// cycle: the request vector it saw and the grant vector it drove. It does
// not look inside, so the same oracle judges one of interlock's policies and
// an RTL arbiter co-simulated under Verilator (examples/integrations/rtl/),
// and reports the first violation with its cycle. The properties are those
// hardware arbiter libraries state as assertions (docs/verify/oracles.md):
//
//   grant_to_requester  the grant vector is one-hot or zero, and its bit is
//                       a requester's;
//   work_conserving     there is a grant whenever there is a request;
//   wait_bound          a requester that is *eligible* in consecutive cycles
//                       is passed over in at most `wait_bound` of them. Each
//                       arbiter says which requesters are eligible: every
//                       requester for round robin, those at the highest
//                       requesting level for a priority arbiter, the oldest
//                       for the age arbiter (verify/arbiter_bounds.hpp derives
//                       each interlock arbiter's bound);
//   grant_hold          a requester granted last cycle that asks to hold
//                       (its bit in `hold`, e.g. its packet has more flits)
//                       and still requests is granted again.
//
// Contract
//   - arbiter_oracle(n, properties): 1 <= n <= 64 requesters (config_error
//     otherwise). observe(cycle) checks one cycle and returns false once any
//     violation has been seen; the first is kept, with its cycle (counted
//     from 0 over observe calls, reset() included).
//   - reset() forgets the wait and hold history, as a hardware reset clears
//     the arbiter; the cycle count goes on.
//   - Request or grant bits at or above n are violations
//     (grant_to_requester names them), never ignored.
//   - observe(requests, grant) takes one of interlock's request types and an
//     interlock::grant; eligibility comes from the request
//     (eligible_requesters): the highest level's mask of a prioritized
//     request, the requesters at the highest integer priority, the `oldest`
//     set of an age request, else every requester.
//   - check_arbiter(arbiter, stream, cycles, properties) drives one of
//     interlock's arbiters with grant() on stream(cycle) and returns the
//     oracle after the run (or after its first violation).
//   Not for a decision path: observe is O(n).
//
// Example
//   interlock::round_robin_arbiter<4> rr;
//   interlock::verify::arbiter_properties p;
//   p.wait_bound = 3;  // N - 1 for round robin
//   auto stream = [](std::uint64_t cycle) { return std::uint64_t{cycle * 7 % 16}; };
//   auto oracle = interlock::verify::check_arbiter(rr, stream, 1000, p);
//   assert(oracle.passed() && oracle.max_wait() <= 3);
#ifndef INTERLOCK_VERIFY_ARBITER_ORACLE_HPP
#define INTERLOCK_VERIFY_ARBITER_ORACLE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/request_set.hpp"

namespace interlock::verify {

/// Which properties the oracle checks.
struct arbiter_properties {
  static constexpr std::size_t unbounded = std::numeric_limits<std::size_t>::max();
  bool grant_to_requester = true;
  bool work_conserving = true;
  std::size_t wait_bound = unbounded;  // cycles an eligible requester may be passed over in a row
  bool grant_hold = false;
};

/// One cycle as the oracle sees it. `eligible` defaults to every requester
/// (bits outside `requests` are ignored); `hold` is read only when
/// grant_hold is checked.
struct arbiter_cycle {
  static constexpr std::uint64_t all = ~std::uint64_t{0};
  std::uint64_t requests = 0;
  std::uint64_t grant = 0;  // the grant vector: one-hot, or 0 for no grant
  std::uint64_t eligible = all;
  std::uint64_t hold = 0;
};

/// The first violation: the property, its cycle and what was seen.
struct oracle_violation {
  std::string property;
  std::uint64_t cycle = 0;
  std::string detail;
  std::string what() const {
    return property + " violated at cycle " + std::to_string(cycle) + ": " + detail;
  }
};

namespace detail {
template <class T, class = void>
struct has_highest_level : std::false_type {};
template <class T>
struct has_highest_level<T, std::void_t<decltype(std::declval<const T&>().highest_level()),
                                        decltype(std::declval<const T&>().level_of(0))>>
    : std::true_type {};
template <class T, class = void>
struct has_priority_values : std::false_type {};
template <class T>
struct has_priority_values<T, std::void_t<decltype(std::declval<const T&>().priority[0])>>
    : std::true_type {};
template <class T, class = void>
struct has_oldest : std::false_type {};
template <class T>
struct has_oldest<T, std::void_t<decltype(std::declval<const T&>().oldest)>> : std::true_type {};

}  // namespace detail

/// The request vector of any interlock request type, over requesters [0, n).
template <class Requests>
std::uint64_t request_vector(const Requests& requests, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n && i < 64; ++i)
    v |= static_cast<std::uint64_t>(requested(requests, i)) << i;
  return v;
}

/// The requesters a wait bound applies to in this request: those at the
/// highest requesting level, the oldest, or every requester.
template <class Requests>
std::uint64_t eligible_requesters(const Requests& requests, std::size_t n) {
  if constexpr (detail::has_highest_level<Requests>::value) {
    std::uint64_t v = 0;
    if (!any_requested(requests)) return 0;
    const auto top = requests.highest_level();
    for (std::size_t i = 0; i < n && i < 64; ++i)
      v |= static_cast<std::uint64_t>(requested(requests, i) && requests.level_of(i) == top) << i;
    return v;
  } else if constexpr (detail::has_priority_values<Requests>::value) {
    const std::uint64_t asking = request_vector(requests, n);
    std::uint64_t v = 0;
    bool any = false;
    auto top = requests.priority[0];
    for (std::size_t i = 0; i < n && i < 64; ++i) {
      if (((asking >> i) & 1u) == 0) continue;
      if (!any || requests.priority[i] > top) {
        top = requests.priority[i];
        v = 0;
        any = true;
      }
      if (requests.priority[i] == top) v |= std::uint64_t{1} << i;
    }
    return v;
  } else if constexpr (detail::has_oldest<Requests>::value) {
    return requests.oldest & request_vector(requests, n);
  } else {
    return request_vector(requests, n);
  }
}

inline std::uint64_t grant_vector(interlock::grant g) noexcept {
  return g && g.index() < 64 ? std::uint64_t{1} << g.index() : 0;
}

class arbiter_oracle {
 public:
  arbiter_oracle(std::size_t n, arbiter_properties properties) : n_(n), properties_(properties) {
    interlock::detail::require_in_range("arbiter_oracle", "requesters", n, 1, 64);
    mask_ = bits::low_mask(n);
  }

  /// Checks one cycle; false once any violation has been seen.
  bool observe(const arbiter_cycle& c) {
    if (violation_) return false;
    const std::uint64_t requests = c.requests;
    if (properties_.grant_to_requester) {
      if ((requests & ~mask_) != 0)
        return fail("grant_to_requester", "request vector " + interlock::detail::to_hex(requests) +
                                              " has bits at or above " + std::to_string(n_));
      if (!bits::is_onehot0(c.grant))
        return fail("grant_to_requester", "grant vector " + interlock::detail::to_hex(c.grant) +
                                              " has more than one bit set");
      if ((c.grant & ~requests) != 0)
        return fail("grant_to_requester", "grant vector " + interlock::detail::to_hex(c.grant) +
                                              " is not inside requests " +
                                              interlock::detail::to_hex(requests));
    }
    if (properties_.work_conserving && requests != 0 && c.grant == 0)
      return fail("work_conserving",
                  "requests " + interlock::detail::to_hex(requests) + " and no grant");
    if (properties_.grant_hold && last_grant_ != 0 && (c.hold & last_grant_) != 0 &&
        (requests & last_grant_) != 0 && c.grant != last_grant_) {
      return fail("grant_hold", "requester " + std::to_string(bits::lowest_index(last_grant_)) +
                                    " holds its grant and was not granted (grant " +
                                    interlock::detail::to_hex(c.grant) + ")");
    }
    const std::uint64_t passed_over = requests & c.eligible & mask_ & ~c.grant;
    for (std::size_t i = 0; i < n_; ++i) {
      waits_[i] = ((passed_over >> i) & 1u) != 0 ? waits_[i] + 1 : 0;
      if (waits_[i] > max_wait_) max_wait_ = waits_[i];
      if (waits_[i] > properties_.wait_bound)
        return fail("wait_bound", "requester " + std::to_string(i) + " was passed over " +
                                      std::to_string(waits_[i]) + " cycles in a row (bound " +
                                      std::to_string(properties_.wait_bound) + ")");
    }
    last_grant_ = c.grant;
    ++cycle_;
    return true;
  }

  /// observe for one of interlock's request types and its grant.
  template <class Requests>
  bool observe(const Requests& requests, interlock::grant g, std::uint64_t hold = 0) {
    arbiter_cycle c;
    c.requests = request_vector(requests, n_);
    c.grant = grant_vector(g);
    if (g && g.index() >= 64) c.grant = ~std::uint64_t{0};  // reported as more than one bit
    c.eligible = eligible_requesters(requests, n_);
    c.hold = hold;
    return observe(c);
  }

  /// A hardware reset: the waits and the held grant are forgotten.
  void reset() noexcept {
    waits_.fill(0);
    last_grant_ = 0;
  }

  bool passed() const noexcept { return !violation_; }
  const std::optional<oracle_violation>& violation() const noexcept { return violation_; }
  std::uint64_t cycles() const noexcept { return cycle_; }
  /// The longest run of cycles any eligible requester was passed over.
  std::size_t max_wait() const noexcept { return max_wait_; }

 private:
  bool fail(const char* property, std::string detail) {
    violation_ = oracle_violation{property, cycle_, std::move(detail)};
    ++cycle_;
    return false;
  }

  std::size_t n_;
  arbiter_properties properties_;
  std::uint64_t mask_ = 0;
  std::array<std::size_t, 64> waits_{};
  std::uint64_t last_grant_ = 0;
  std::uint64_t cycle_ = 0;
  std::size_t max_wait_ = 0;
  std::optional<oracle_violation> violation_;
};

/// Drives `arbiter` (interlock's protocol) with grant(stream(cycle)) for
/// `cycles` cycles, or until the first violation.
template <class Arbiter, class Stream>
arbiter_oracle check_arbiter(Arbiter& arbiter, Stream&& stream, std::uint64_t cycles,
                             arbiter_properties properties) {
  arbiter_oracle oracle(arbiter.size(), properties);
  for (std::uint64_t t = 0; t < cycles; ++t) {
    const auto requests = stream(t);
    if (!oracle.observe(requests, arbiter.grant(requests))) break;
  }
  return oracle;
}

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_ARBITER_ORACLE_HPP
