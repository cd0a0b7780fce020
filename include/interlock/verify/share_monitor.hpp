// SPDX-License-Identifier: BSL-1.0
// interlock/verify/share_monitor.hpp: long-run shares of a saturated arbiter against its weights.
//
// A weighted arbiter promises each requester a share of the grants while
// all of them request. share_monitor counts the grants of the decisions at
// which every member requests and compares each member's share with its
// target, within a tolerance the arbiter's own guarantee gives.
//
// spread_share_bounds turns the usual form of that guarantee into targets
// and tolerances. If a grant to i costs c_i and the weighted services
// y_i = S_i c_i of any two members never differ by more than D, then after
// T grants, with H = sum_j 1 / c_j and target w_i = (1 / c_i) / H,
//
//   |S_i / T - w_i| <= w_i D / (T / H - D)          (when T / H > D)
//
// (y_min >= T / H - D, and S_i / T lies between y_min / (c_i (y_min + D) H)
// and (y_min + D) / (c_i y_min H)). The guarantees that give D
// (docs/verify/oracles.md):
//   - inverse_weighted_arbiter<K, N, M>, one pattern, every input requesting
//     from reset: c_i = m_i, D = 2^(M+1) (the window bound);
//   - inverse_weighted_exact, likewise: c_i = 1 / gamma_i, D = max c_i;
//   - sbt_scheduler, one queue per SL, saturated from reset: c_i = 100 /
//     weight_i, D = 100 (a table cycle serves each SL its weight exactly).
//
// Contract
//   - share_monitor(n, members): 1 <= n <= 64 requesters (config_error
//     otherwise); members (a non-zero subset of [0, n)) are the requesters
//     whose shares are compared.
//   - check(targets, tolerances) reports `none` when no decision had every
//     member requesting (no conclusion is drawn from no samples), else
//     `within` or `outside` with the first member outside and its numbers.
//   - spread_share_bounds(costs, D, T) returns nothing when T / H <= D (the
//     bound says nothing yet); costs must be positive and finite
//     (config_error).
//
// Example
//   interlock::round_robin_arbiter<2> rr;
//   interlock::verify::share_monitor shares(2, 0b11);
//   for (int t = 0; t < 100; ++t)
//     shares.observe(0b11, interlock::verify::grant_vector(rr.grant(0b11)));
//   auto bounds = interlock::verify::spread_share_bounds({1.0, 1.0}, 1.0, shares.decisions());
//   assert(shares.check(bounds->target, bounds->tolerance).outcome ==
//          interlock::verify::share_check::within);
#ifndef INTERLOCK_VERIFY_SHARE_MONITOR_HPP
#define INTERLOCK_VERIFY_SHARE_MONITOR_HPP

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/verify/arbiter_oracle.hpp"

namespace interlock::verify {

/// Targets and tolerances, one per requester.
struct share_bounds {
  std::vector<double> target;
  std::vector<double> tolerance;
};

struct share_check {
  enum kind { none, within, outside };
  kind outcome = none;
  std::string detail;
};

inline std::optional<share_bounds> spread_share_bounds(const std::vector<double>& costs,
                                                       double spread, std::uint64_t decisions) {
  double h = 0;
  for (const double c : costs) {
    if (!(c > 0) || !std::isfinite(c))
      throw config_error("spread_share_bounds", "cost", std::to_string(c), "positive and finite");
    h += 1 / c;
  }
  const double t = static_cast<double>(decisions);
  if (!(t / h > spread)) return std::nullopt;
  share_bounds b;
  for (const double c : costs) {
    const double w = 1 / c / h;
    b.target.push_back(w);
    b.tolerance.push_back(w * spread / (t / h - spread));
  }
  return b;
}

class share_monitor {
 public:
  share_monitor(std::size_t n, std::uint64_t members) : n_(n), members_(members) {
    interlock::detail::require_in_range("share_monitor", "requesters", n, 1, 64);
    if (members == 0 || (members & ~bits::low_mask(n)) != 0)
      throw config_error("share_monitor", "members", interlock::detail::to_hex(members),
                         "a non-empty subset of the " + std::to_string(n) + " requesters");
  }

  /// One decision: counted when every member requests.
  void observe(std::uint64_t requests, std::uint64_t grant) {
    if ((requests & members_) != members_) return;
    ++decisions_;
    if (bits::is_onehot0(grant) && grant != 0) ++grants_[bits::lowest_index(grant)];
  }

  std::uint64_t decisions() const noexcept { return decisions_; }
  std::uint64_t grants(std::size_t i) const noexcept { return i < 64 ? grants_[i] : 0; }
  /// Member i's share of the counted decisions; nothing before the first.
  std::optional<double> share(std::size_t i) const {
    if (decisions_ == 0) return std::nullopt;
    return static_cast<double>(grants(i)) / static_cast<double>(decisions_);
  }

  share_check check(const std::vector<double>& target, const std::vector<double>& tolerance) const {
    share_check r;
    if (decisions_ == 0) {
      r.detail = "no decision had every member requesting";
      return r;
    }
    r.outcome = share_check::within;
    for (std::size_t i = 0; i < n_; ++i) {
      if (((members_ >> i) & 1u) == 0) continue;
      const double s = *share(i);
      const double w = i < target.size() ? target[i] : 0;
      const double e = i < tolerance.size() ? tolerance[i] : 0;
      if (std::fabs(s - w) > e) {
        r.outcome = share_check::outside;
        r.detail = "requester " + std::to_string(i) + " got " + std::to_string(grants(i)) + " of " +
                   std::to_string(decisions_) + " grants, share " + std::to_string(s) +
                   ", target " + std::to_string(w) + " +- " + std::to_string(e);
        return r;
      }
    }
    return r;
  }

 private:
  std::size_t n_;
  std::uint64_t members_;
  std::uint64_t decisions_ = 0;
  std::array<std::uint64_t, 64> grants_{};
};

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_SHARE_MONITOR_HPP
