// SPDX-License-Identifier: BSL-1.0
// interlock/verify/arbiter_checks.hpp: the arbiter invariants as checks a user can run.
//
// Contract
//   - check_decision(arbiter, requests) runs one decision on a copy and
//     reports the per-decision invariants of core/invariants.hpp:
//     grant_implies_request, work_conserving, no_state_change_without_commit
//     (and priority_respected when the requests carry levels). It compiles
//     only for types that follow the arbiter protocol (require_arbiter).
//   - round_robin_order_monitor watches a sequence of committed decisions and
//     reports the first violation of round_robin_order:
//       (a) a requester that keeps requesting is granted within `bound`
//           decisions (N for a round-robin arbiter);
//       (b) two requesters that both keep requesting are granted in strict
//           alternation, which is the same as "their grant counts differ by
//           at most 1 in every window of decisions".
//   Neither is meant for a decision path: the monitor keeps O(N) history and
//   spends O(N) per decision.
//
// Example
//   interlock::round_robin_arbiter<8> rr;
//   interlock::verify::round_robin_order_monitor mon(8);
//   const std::uint64_t stream[] = {0b1011, 0b1111, 0b0001, 0b1010};
//   for (const std::uint64_t req : stream)
//     if (!mon.observe(req, rr.grant(req))) std::puts(mon.violation().c_str());
//   assert(mon.violation().empty());
#ifndef INTERLOCK_VERIFY_ARBITER_CHECKS_HPP
#define INTERLOCK_VERIFY_ARBITER_CHECKS_HPP

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "interlock/core/arbiter_traits.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/invariants.hpp"
#include "interlock/core/priority_requests.hpp"
#include "interlock/core/request_set.hpp"

namespace interlock::verify {

namespace detail {
template <class T, class = void>
struct has_levels : std::false_type {};
template <class T>
struct has_levels<T, std::void_t<decltype(std::declval<const T&>().highest_level())>>
    : std::true_type {};
}  // namespace detail

/// Which per-decision invariants held; empty failed() means all of them.
struct decision_check {
  interlock::grant g;
  std::string failed;  // names of the invariants that did not hold, space-separated
  explicit operator bool() const noexcept { return failed.empty(); }
};

template <class Arbiter, class Requests>
decision_check check_decision(const Arbiter& arbiter, const Requests& requests) {
  static_assert(require_arbiter<Arbiter>(), "check_decision needs an arbiter");
  decision_check result;
  result.g = arbiter.arbitrate(requests);
  auto require = [&](bool held, const char* name) {
    if (!held) result.failed += result.failed.empty() ? name : std::string(" ") + name;
  };
  require(invariants::grant_implies_request(requests, result.g), "grant_implies_request");
  require(invariants::work_conserving(requests, result.g), "work_conserving");
  require(invariants::no_state_change_without_commit(arbiter, requests),
          "no_state_change_without_commit");
  if constexpr (detail::has_levels<Requests>::value) {
    require(invariants::priority_respected(requests, result.g), "priority_respected");
  }
  return result;
}

class round_robin_order_monitor {
 public:
  /// `size` requesters; a persistent requester must be granted within `bound`
  /// decisions (0 means size).
  explicit round_robin_order_monitor(std::size_t size, std::size_t bound = 0)
      : bound_(bound == 0 ? size : bound),
        waiting_(size, 0),
        run_start_(size, npos),
        last_grant_(size, npos) {}

  /// Records one committed decision; false once any violation has been seen.
  template <class Requests>
  bool observe(const Requests& requests, interlock::grant g) {
    if (!violation_.empty()) return false;
    const std::size_t n = waiting_.size();
    for (std::size_t i = 0; i < n; ++i) {
      const bool asks = requested(requests, i);
      if (!asks)
        run_start_[i] = npos;
      else if (run_start_[i] == npos)
        run_start_[i] = now_;
    }
    if (g && g.index() < n) check_alternation(g.index());
    for (std::size_t i = 0; i < n; ++i) check_wait(i, requested(requests, i) && g.index() != i);
    ++now_;
    return violation_.empty();
  }

  const std::string& violation() const noexcept { return violation_; }
  std::size_t decisions() const noexcept { return now_; }
  /// The longest run of decisions any requester has requested without a grant.
  std::size_t max_wait() const noexcept { return max_wait_; }

 private:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  void check_wait(std::size_t i, bool waited) {
    waiting_[i] = waited ? waiting_[i] + 1 : 0;
    if (waiting_[i] > max_wait_) max_wait_ = waiting_[i];
    if (waiting_[i] >= bound_ && violation_.empty()) {
      violation_ = "requester " + std::to_string(i) + " kept requesting for " +
                   std::to_string(waiting_[i]) + " decisions without a grant (bound " +
                   std::to_string(bound_) + ") at decision " + std::to_string(now_);
    }
  }

  // i is granted now. If i has kept requesting since its previous grant, every
  // requester j that has kept requesting since then must have been granted in
  // between.
  void check_alternation(std::size_t i) {
    const std::size_t previous = last_grant_[i];
    last_grant_[i] = now_;
    if (previous == npos || run_start_[i] > previous) return;
    for (std::size_t j = 0; j < waiting_.size(); ++j) {
      if (j == i || run_start_[j] == npos || run_start_[j] > previous) continue;
      if (last_grant_[j] == npos || last_grant_[j] < previous) {
        violation_ = "requester " + std::to_string(i) + " was granted at decisions " +
                     std::to_string(previous) + " and " + std::to_string(now_) +
                     " while requester " + std::to_string(j) +
                     " kept requesting without a grant in between";
        return;
      }
    }
  }

  std::size_t bound_;
  std::vector<std::size_t> waiting_;     // decisions requested in a row without a grant
  std::vector<std::size_t> run_start_;   // decision at which the current request run began
  std::vector<std::size_t> last_grant_;  // decision of the latest grant
  std::size_t now_ = 0;
  std::size_t max_wait_ = 0;
  std::string violation_;
};

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_ARBITER_CHECKS_HPP
