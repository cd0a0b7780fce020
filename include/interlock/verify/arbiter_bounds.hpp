// SPDX-License-Identifier: BSL-1.0
// interlock/verify/arbiter_bounds.hpp: each interlock arbiter's wait bound, derived.
//
// The wait bound an arbiter_oracle checks (verify/arbiter_oracle.hpp): how
// many cycles in a row a requester that stays eligible can be passed over.
// docs/verify/oracles.md gives each derivation; in short:
//
//   round robin (thermometer or pointer), N requesters      N - 1
//     After a grant to g the order is g-1, g-2, ..., g. A requester that is
//     passed over loses to one ranked above it, so its rank falls by at
//     least one per grant to another; from rank N - 1 at most it reaches 0.
//   priority_arbiter<N, P>, integer_priority_arbiter<N>,
//   eligible = highest requesting level (priority)               N - 1
//     The same argument: the round-robin state is shared by the levels and
//     every grant goes to the highest level, where the requester competes.
//   inverse_weighted_arbiter<K, N, M>, every requester eligible
//     (K - 1) + sum over j != i of ceil(2^M / least weight of j)
//     A low-priority requester (accumulator >= 2^M) loses only to
//     high-priority ones, each of which goes low after at most
//     ceil(2^M / m_min) high grants with no slide in between; the first
//     grant with no high requester slides the window and makes the requester
//     high, and from then on the round-robin argument gives K - 1.
//   age_epoch_arbiter<N>, eligible = the oldest requests
//     N - 1 when every grant is made by one policy (AGE_RR_SELECT all 0s, or
//     all 1s with age never suspended); 2N - 2 under any mix: each grant to
//     another lowers the requester's rank under the pointer of the policy
//     that made it, and each pointer's rank starts at N - 1 at most.
//   sbt_scheduler, queue q of an SL of weight w > 0 (the thesis's SBT)
//     2 (100 - w) + Q for Q queues (qos/sbt.hpp states it).
//
// inverse_weighted_exact has no wait bound: an input that has not requested
// for a long time keeps a low accumulator and, once it requests, wins until
// it catches up, however long that is (a test shows the oracle catching it).
//
// Contract
//   - Each function returns the bound in cycles; n or K is the arbiter's
//     number of requesters. Tests check every arbiter against its bound on
//     random streams, and reach the round-robin bounds exactly.
//
// Example
//   using weights = std::vector<std::vector<std::uint32_t>>;
//   interlock::inverse_weighted_arbiter<3, 1, 4> a(weights{{1}, {2}, {4}});
//   // input 2 waits longest: 2 + ceil(16 / 1) + ceil(16 / 2)
//   assert(interlock::verify::inverse_weighted_wait_bound(a) == 2 + 16 + 8);
#ifndef INTERLOCK_VERIFY_ARBITER_BOUNDS_HPP
#define INTERLOCK_VERIFY_ARBITER_BOUNDS_HPP

#include <cstddef>
#include <cstdint>

#include "interlock/arbiters/inverse_weighted.hpp"

namespace interlock::verify {

constexpr std::size_t round_robin_wait_bound(std::size_t n) noexcept { return n - 1; }

constexpr std::size_t priority_wait_bound(std::size_t n) noexcept { return n - 1; }

/// AGE_RR_SELECT `select`; `age_may_suspend`: the age clock may inhibit age
/// arbitration during the run (an epoch switch).
constexpr std::size_t age_epoch_wait_bound(std::size_t n, std::uint64_t select,
                                           bool age_may_suspend) noexcept {
  const bool one_policy = select == 0 || (select == ~std::uint64_t{0} && !age_may_suspend);
  return one_policy ? n - 1 : 2 * n - 2;
}

constexpr std::size_t sbt_wait_bound(unsigned sl_weight, std::size_t queues) noexcept {
  return 2 * (100 - static_cast<std::size_t>(sl_weight)) + queues;
}

/// The largest, over requesters i, of (K - 1) + sum_{j != i} ceil(2^M / m_min(j)).
template <std::size_t K, std::size_t N, unsigned M>
std::size_t inverse_weighted_wait_bound(const inverse_weighted_arbiter<K, N, M>& arbiter) {
  const std::uint64_t window = std::uint64_t{1} << M;
  std::uint64_t high_grants[K] = {};
  std::uint64_t sum = 0;
  for (std::size_t j = 0; j < K; ++j) {
    std::uint64_t least = arbiter.weight(j, 0);
    for (std::size_t n = 1; n < N; ++n)
      least = arbiter.weight(j, n) < least ? arbiter.weight(j, n) : least;
    high_grants[j] = (window + least - 1) / least;
    sum += high_grants[j];
  }
  std::uint64_t worst = 0;
  for (std::size_t i = 0; i < K; ++i)
    worst = sum - high_grants[i] > worst ? sum - high_grants[i] : worst;
  return static_cast<std::size_t>(K - 1 + worst);
}

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_ARBITER_BOUNDS_HPP
