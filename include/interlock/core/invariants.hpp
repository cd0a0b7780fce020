// SPDX-License-Identifier: BSL-1.0
// interlock/core/invariants.hpp: the named invariants of arbitration.
//
// Contract
//   Each invariant is implemented once, here, and used twice: by
//   INTERLOCK_ASSERT inside the policies (debug builds) and by the property
//   tests of the same name. A user can call them on their own configuration.
//
//   Per decision:
//   - grant_implies_request(requests, g): a grant goes to a requester.
//   - grant_onehot0(vector): a grant vector has at most one bit set.
//   - work_conserving(requests, g): there is a grant exactly when there is a
//     request.
//   - priority_respected(requests, g): the grant's level is the highest level
//     that has a request.
//   - thermometer_coded(therm, n): a round-robin state is a thermometer code
//     of at most n bits ([Towles14], Figure 8 caption).
//   Per state:
//   - no_state_change_without_commit(arbiter, requests): arbitrate() leaves
//     the state as it was, and so does commit(no grant).
//   Per sequence (needs history, so it is a monitor in verify/fairness.hpp
//   rather than an assertion): round_robin_order.
//
// Example
//   interlock::round_robin_arbiter<8> arb;
//   std::uint64_t req = 0b10010000;
//   auto g = arb.arbitrate(req);
//   assert(interlock::invariants::grant_implies_request(req, g));
#ifndef INTERLOCK_CORE_INVARIANTS_HPP
#define INTERLOCK_CORE_INVARIANTS_HPP

#include <cstddef>
#include <cstdint>

#include "interlock/core/bits.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/priority_requests.hpp"
#include "interlock/core/request_set.hpp"

namespace interlock::invariants {

template <class Requests>
bool grant_implies_request(const Requests& requests, grant g) {
  return !g || requested(requests, g.index());
}

constexpr bool grant_onehot0(std::uint64_t grant_vector) noexcept {
  return bits::is_onehot0(grant_vector);
}

template <class Requests>
bool work_conserving(const Requests& requests, grant g) {
  return any_requested(requests) == g.valid();
}

template <class PriorityRequests>
bool priority_respected(const PriorityRequests& requests, grant g) {
  return !g || requests.level_of(g.index()) == requests.highest_level();
}

constexpr bool thermometer_coded(std::uint64_t therm, std::size_t n) noexcept {
  return bits::is_thermometer(therm) && (therm & ~bits::low_mask(n)) == 0;
}

template <class Arbiter, class Requests>
bool no_state_change_without_commit(const Arbiter& arbiter, const Requests& requests) {
  Arbiter probe = arbiter;
  static_cast<void>(probe.arbitrate(requests));
  if (!(probe == arbiter)) return false;
  probe.commit(no_grant(), requests);
  return probe == arbiter;
}

}  // namespace interlock::invariants

#endif  // INTERLOCK_CORE_INVARIANTS_HPP
