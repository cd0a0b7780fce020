// SPDX-License-Identifier: BSL-1.0
// Reference models the arbiters are checked against, written as plainly as
// possible: loops over requesters, no bit tricks. Requests are given per
// requester as a level, -1 meaning "not requesting".
#ifndef INTERLOCK_TESTS_SUPPORT_REFERENCE_ARBITERS_HPP
#define INTERLOCK_TESTS_SUPPORT_REFERENCE_ARBITERS_HPP

#include <rapidcheck.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <interlock/core/grant.hpp>
#include <interlock/core/priority_requests.hpp>
#include <interlock/core/request_set.hpp>

namespace interlock_test {

using levels_t = std::vector<int>;  // levels[i]: requester i's level, -1 when idle

/// Round robin by pointer over N requesters with priority levels. The pointer
/// is the number of ones of a thermometer code: with `ones` = t the order is
/// t-1, t-2, ..., 0, N-1, ..., t. A grant to g sets t = g.
struct reference_priority_arbiter {
  std::size_t n;
  std::size_t ones;

  interlock::grant arbitrate(const levels_t& levels) const {
    int top = -1;
    for (std::size_t i = 0; i < n; ++i)
      if (levels[i] > top) top = levels[i];
    if (top < 0) return interlock::no_grant();
    for (std::size_t k = 1; k <= n; ++k) {
      const std::size_t i = (ones + n - k) % n;
      if (levels[i] == top) return interlock::grant(i);
    }
    return interlock::no_grant();
  }
  void commit(interlock::grant g) {
    if (g) ones = g.index();
  }
};

inline std::size_t clog2(std::size_t x) {
  std::size_t bits = 0;
  while ((std::size_t{1} << bits) < x) ++bits;
  return bits;
}

/// A line-by-line transcription of the SystemVerilog of [Towles14], Figure 8
/// (module priority_arb), on vectors of bool: the (P+1) x K request unroll,
/// the Kogge-Stone prefix over the flattened vector (row P in the most
/// significant bits), the cancel, and the OR-fold of the rows. Returns the
/// K-bit grant vector.
inline std::vector<bool> figure8_priority_arb(std::size_t K, std::size_t P,
                                              const std::vector<bool>& req,
                                              const std::vector<std::size_t>& pri,
                                              const std::vector<bool>& rr_therm) {
  const std::size_t width = (P + 1) * K;  // bit p*K + i is req_unroll[p][i]
  std::vector<bool> req_unroll(width, false);
  for (std::size_t i = 0; i < K; ++i) req_unroll[i] = req[i];
  for (std::size_t p = 1; p <= P; ++p)
    for (std::size_t i = 0; i < K; ++i)
      req_unroll[p * K + i] = req[i] && (2 * pri[i] + (rr_therm[i] ? 1 : 0) >= 2 * p - 1);

  auto shift_right = [&](const std::vector<bool>& v, std::size_t by) {
    std::vector<bool> out(width, false);
    for (std::size_t b = 0; b + by < width; ++b) out[b] = v[b + by];
    return out;
  };
  std::vector<bool> higher_pri_req = shift_right(req_unroll, 1);
  const std::size_t prefix_stages = K >= 2 ? clog2(K - 1) : 0;
  for (std::size_t s = 0; s < prefix_stages; ++s) {
    const std::vector<bool> shifted = shift_right(higher_pri_req, std::size_t{1} << s);
    for (std::size_t b = 0; b < width; ++b) higher_pri_req[b] = higher_pri_req[b] || shifted[b];
  }
  std::vector<bool> grant_unroll(width);
  for (std::size_t b = 0; b < width; ++b) grant_unroll[b] = req_unroll[b] && !higher_pri_req[b];
  for (std::size_t s = 0; s < clog2(P + 1); ++s) {
    const std::vector<bool> shifted = shift_right(grant_unroll, K << s);
    for (std::size_t b = 0; b < width; ++b) grant_unroll[b] = grant_unroll[b] || shifted[b];
  }
  return std::vector<bool>(grant_unroll.begin(),
                           grant_unroll.begin() + static_cast<std::ptrdiff_t>(K));
}

/// One arbitration scenario: N requesters, P levels, an initial round-robin
/// state, and a sequence of request vectors.
struct arbitration_scenario {
  std::size_t n = 1;
  std::size_t p = 1;
  std::size_t ones = 0;
  std::vector<levels_t> steps;
};

inline rc::Gen<arbitration_scenario> gen_scenario(std::size_t max_n, std::size_t max_p,
                                                  std::size_t max_steps) {
  return rc::gen::exec([=] {
    arbitration_scenario s;
    s.n = *rc::gen::inRange<std::size_t>(1, max_n + 1);
    s.p = *rc::gen::inRange<std::size_t>(1, max_p + 1);
    s.ones = *rc::gen::inRange<std::size_t>(0, s.n + 1);
    // Each requester draws 0..999: below idle_permille it is idle, otherwise
    // its level is the draw modulo P. idle_permille = 0: everyone requests.
    const int idle_permille = *rc::gen::inRange(0, 950);
    const std::size_t count = *rc::gen::inRange<std::size_t>(1, max_steps + 1);
    for (std::size_t k = 0; k < count; ++k) {
      levels_t draw = *rc::gen::container<levels_t>(s.n, rc::gen::inRange(0, 1000));
      for (int& d : draw) d = d < idle_permille ? -1 : d % static_cast<int>(s.p);
      s.steps.push_back(draw);
    }
    return s;
  });
}

/// Level masks for N <= 64.
template <std::size_t P>
interlock::priority_requests<P> to_priority_requests(const levels_t& levels) {
  interlock::priority_requests<P> r;
  for (std::size_t i = 0; i < levels.size(); ++i)
    if (levels[i] >= 0) r.set(i, static_cast<std::size_t>(levels[i]));
  return r;
}

template <std::size_t P>
interlock::dynamic_priority_requests<P> to_dynamic_priority_requests(const levels_t& levels) {
  interlock::dynamic_priority_requests<P> r(levels.size());
  for (std::size_t i = 0; i < levels.size(); ++i)
    if (levels[i] >= 0) r.set(i, static_cast<std::size_t>(levels[i]));
  return r;
}

inline std::uint64_t to_mask(const levels_t& levels) {
  std::uint64_t m = 0;
  for (std::size_t i = 0; i < levels.size() && i < 64; ++i)
    if (levels[i] >= 0) m |= std::uint64_t{1} << i;
  return m;
}

inline interlock::dynamic_request_set to_request_set(const levels_t& levels) {
  interlock::dynamic_request_set r(levels.size());
  for (std::size_t i = 0; i < levels.size(); ++i)
    if (levels[i] >= 0) r.set(i);
  return r;
}

/// Every level >= 0 becomes 0: the same requesters, one level.
inline levels_t flatten(const levels_t& levels) {
  levels_t out(levels);
  for (int& l : out) l = l >= 0 ? 0 : -1;
  return out;
}

/// The grant of Figure 8's transcription for per-requester levels and a
/// round-robin state with `ones` ones. `onehot0` reports whether the grant
/// vector had at most one bit set (the grant_onehot0 invariant).
inline interlock::grant figure8_grant(const levels_t& levels, std::size_t p, std::size_t ones,
                                      bool& onehot0) {
  const std::size_t k = levels.size();
  std::vector<bool> req(k), rr_therm(k);
  std::vector<std::size_t> pri(k, 0);
  for (std::size_t i = 0; i < k; ++i) {
    req[i] = levels[i] >= 0;
    pri[i] = levels[i] >= 0 ? static_cast<std::size_t>(levels[i]) : 0;
    rr_therm[i] = i < ones;
  }
  const std::vector<bool> vector = figure8_priority_arb(k, p, req, pri, rr_therm);
  interlock::grant g;
  std::size_t set_bits = 0;
  for (std::size_t i = 0; i < k; ++i)
    if (vector[i]) {
      ++set_bits;
      g = interlock::grant(i);
    }
  onehot0 = set_bits <= 1;
  return g;
}

/// "The typical approach [17]" that Figure 7 improves on: one round-robin
/// arbiter per level, each two fixed-priority passes (requests with rr_therm
/// set, then all), the highest level with a request winning: 2P passes.
inline interlock::grant two_passes_per_level(const levels_t& levels, std::size_t p,
                                             std::size_t ones) {
  for (std::size_t level = p; level-- > 0;) {
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t i = levels.size(); i-- > 0;) {  // most significant bit first
        const bool in_pass = pass == 1 || i < ones;
        if (levels[i] == static_cast<int>(level) && in_pass) return interlock::grant(i);
      }
    }
  }
  return interlock::no_grant();
}

/// Runs `arbiter` through the scenario's steps with grant() and requires every
/// grant, and the round-robin state after it, to match the reference.
/// `to_requests` turns a levels vector into the arbiter's request_type.
template <class Arbiter, class ToRequests>
void require_agrees_with_reference(Arbiter arbiter, const arbitration_scenario& s,
                                   ToRequests&& to_requests, bool one_level) {
  reference_priority_arbiter reference{s.n, s.ones};
  for (const levels_t& drawn : s.steps) {
    const levels_t step = one_level ? flatten(drawn) : drawn;
    const interlock::grant expected = reference.arbitrate(step);
    RC_ASSERT(arbiter.grant(to_requests(step)) == expected);
    reference.commit(expected);
    RC_ASSERT(arbiter.thermometer().ones() == reference.ones);
  }
}

/// An rr_therm of n bits with `ones` ones, as a set.
inline interlock::dynamic_request_set thermometer_set(std::size_t n, std::size_t ones) {
  interlock::dynamic_request_set t(n);
  for (std::size_t i = 0; i < ones; ++i) t.set(i);
  return t;
}

}  // namespace interlock_test

#endif  // INTERLOCK_TESTS_SUPPORT_REFERENCE_ARBITERS_HPP
