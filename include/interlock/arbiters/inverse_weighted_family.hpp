// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/inverse_weighted_family.hpp: the inverse-weighted arbiter with its
// ordering, quantization and history chosen independently: the eight corners between exact
// Eq. 3 and Figure 6/8's hardware model, and a bounded lag.
//
// Models [Towles14] Section 3 (Eq. 3), Section 3.3 and Figures 6 and 8, taken
// apart as inverse_weighted_form.hpp describes. One arbiter,
// inverse_weighted_family<K, N, M>, whose form comes with its weights
// (inverse_weighted_family_table): the form is a value, so a network of
// them is one type whatever the corner.
//
// The state: each input's accumulator A_i (a double), a base b and a floor
// F; input i's accumulator reads as a_i = max(A_i, F). Q is the quantum:
// 2^M with M-bit weights, 2^M / beta with real ones.
//   decide   two_level: high = {i : a_i - b < Q}; Figure 8's 2-level
//            priority_arbiter<K, 2> over (requests & high, requests & ~high);
//            full: the requesters of least a_i, the thermometer round robin
//            among them.
//   commit   a grant to g of pattern n: if g was low (a_g - b >= Q) and the
//            form slides (two levels, or the window), b <- b + Q, and with
//            the window F <- b; then A_g <- a_g + w_{g,n}; with a lag of L
//            quanta, F <- max(F, min over the requesters of a_i - L Q).
// Corners that equal today's arbiters, decision for decision and accumulator
// for accumulator (tests replay random streams against both):
//   levels.mbit.window   = inverse_weighted_arbiter<K, N, M>
//                          (accumulator(i) - base() is its accumulator(i));
//   full.real.unbounded  = inverse_weighted_exact<K, N> (F = lowest double).
// All integer arithmetic of the M-bit forms is exact in double precision
// while accumulators stay below 2^53 (about 2^(52 - M) grants per arbiter).
//
// Contract
//   - request_type is pattern_requests, as the other two models'.
//   - Invariants: grant_implies_request, work_conserving,
//     no_state_change_without_commit (the counters aside: commit counts).
//   - Configuration: the table validates the weights (M-bit: 1..2^M - 1;
//     real: finite and > 0) and the quantum (finite and > 0), throwing
//     config_error naming them. Bad labels as in the other two models.
//   - Counters (inverse_weighted_counts): counts(), reset_counts(). An input
//     that comes back to request with its accumulator below the floor has
//     lost F - A_i: counted (zeroed, quota_lost in quanta) once it has
//     requested before; the spread is sampled at each commit with two or
//     more requesters.
//   - Save and restore: state(ar): the accumulators, base, floor and both
//     tie breakers' rr_therm (the counters are not state).
//   Complexity: O(popcount) per decision and per commit; no allocation.
#ifndef INTERLOCK_ARBITERS_INVERSE_WEIGHTED_FAMILY_HPP
#define INTERLOCK_ARBITERS_INVERSE_WEIGHTED_FAMILY_HPP

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "interlock/arbiters/inverse_weighted.hpp"
#include "interlock/arbiters/inverse_weighted_form.hpp"
#include "interlock/arbiters/priority.hpp"
#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/arbiter_traits.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/state_io.hpp"

namespace interlock {

/// One arbiter's form, weights w[i][n] (M-bit integers or 1 / gamma) and
/// quantum: validated once, immutable, shared.
template <std::size_t K, std::size_t N = 2, unsigned M = 8>
class inverse_weighted_family_table {
  static_assert(K >= 1 && K <= 64, "inverse_weighted_family_table<K, N, M>: K must be 1..64");
  static_assert(N >= 1 && N <= 256, "inverse_weighted_family_table<K, N, M>: N must be 1..256");
  static_assert(M >= 1 && M <= 31, "inverse_weighted_family_table<K, N, M>: M must be 1..31");

 public:
  inverse_weighted_family_table(inverse_weighted_form form,
                                const std::vector<std::vector<double>>& weights, double quantum)
      : form_(form), quantum_(quantum) {
    const char* who = "inverse_weighted_family";
    detail::check_shape<K, N>(weights.size(), weights.empty() ? 0 : weights[0].size(), who);
    if (!(std::isfinite(quantum) && quantum > 0))
      throw config_error(who, "quantum", std::to_string(quantum), "finite and > 0");
    if (form.history == iw_history::bounded_lag &&
        (form.lag < 1 || form.lag > inverse_weighted_form::max_lag))
      throw config_error(who, "lag", std::to_string(form.lag),
                         "1.." + std::to_string(inverse_weighted_form::max_lag) + " quanta");
    const double most = static_cast<double>((std::uint32_t{1} << M) - 1);
    for (std::size_t i = 0; i < K; ++i) {
      detail::check_shape<K, N>(K, weights[i].size(), who);
      for (std::size_t n = 0; n < N; ++n) {
        const double w = weights[i][n];
        const std::string key =
            "weight of input " + std::to_string(i) + ", pattern " + std::to_string(n);
        if (form.quantization == iw_quantization::m_bit
                ? !(w >= 1 && w <= most && w == std::floor(w))
                : !(std::isfinite(w) && w > 0))
          throw config_error(who, key, std::to_string(w),
                             form.quantization == iw_quantization::m_bit
                                 ? "a whole number 1.." + std::to_string((1u << M) - 1)
                                 : "finite and > 0");
        weights_[i][n] = w;
        largest_[i] = w > largest_[i] ? w : largest_[i];
      }
    }
  }
  const inverse_weighted_form& form() const noexcept { return form_; }
  double quantum() const noexcept { return quantum_; }
  double weight(std::size_t i, std::size_t n) const noexcept { return weights_[i % K][n % N]; }
  double largest(std::size_t i) const noexcept { return largest_[i % K]; }
  friend bool operator==(const inverse_weighted_family_table& a,
                         const inverse_weighted_family_table& b) noexcept {
    return a.form_ == b.form_ && a.quantum_ == b.quantum_ && a.weights_ == b.weights_;
  }

 private:
  inverse_weighted_form form_;
  double quantum_ = 1;
  std::array<std::array<double, N>, K> weights_{};
  std::array<double, K> largest_{};
};

template <std::size_t K, std::size_t N = 2, unsigned M = 8>
class inverse_weighted_family
    : public arbiter_base<inverse_weighted_family<K, N, M>, pattern_requests> {
 public:
  using table_type = inverse_weighted_family_table<K, N, M>;
  static constexpr std::uint64_t valid_mask = bits::low_mask(K);

  explicit inverse_weighted_family(std::shared_ptr<const table_type> table)
      : table_(std::move(table)) {
    if (!table_)
      throw config_error("inverse_weighted_family", "weights", "null",
                         "an inverse_weighted_family_table");
    form_ = table_->form();
    q_ = table_->quantum();
    lag_ = form_.history == iw_history::bounded_lag ? q_ * form_.lag : 0;
  }

  static constexpr std::size_t size() noexcept { return K; }

  interlock::grant arbitrate(const pattern_requests& r) const {
    INTERLOCK_ASSERT((r.requests & ~valid_mask) == 0, "request bit at or above K");
    const std::uint64_t req = r.requests & valid_mask;
    if (form_.ordering == iw_ordering::two_level) {
      const std::uint64_t high = high_among(req);
      priority_requests<2> levels;
      levels.levels[1] = req & high;
      levels.levels[0] = req & ~high;
      return levels_.arbitrate(levels);
    }
    double lowest = 0;
    for (std::uint64_t x = req; x != 0; x &= x - 1) {
      const double a = read(bits::lowest_index(x));
      lowest = x == req || a < lowest ? a : lowest;
    }
    std::uint64_t ties = 0;
    for (std::uint64_t x = req; x != 0; x &= x - 1) {
      const std::size_t i = bits::lowest_index(x);
      ties |= static_cast<std::uint64_t>(read(i) == lowest) << i;
    }
    return rr_.arbitrate(ties);
  }

  void commit(interlock::grant g, const pattern_requests& r) {
    INTERLOCK_ASSERT(!g || g.index() < K, "commit of a grant to an input that does not exist");
    if (!g || g.index() >= K) return;
    const std::uint64_t req = (r.requests & valid_mask) | bits::bit(g.index());
    count_before(req);
    const std::size_t i = g.index();
    if (form_.slides() && read(i) - base_ >= q_) {  // a low grant
      base_ += q_;
      ++counts_.slides;
      if (form_.history == iw_history::window) floor_ = base_;
    }
    acc_[i] = read(i) + weight_of(i, r.pattern.at(i, 0));
    if (form_.history == iw_history::bounded_lag) {
      double least = acc_[i];
      for (std::uint64_t x = req; x != 0; x &= x - 1) {
        const double a = read(bits::lowest_index(x));
        least = a < least ? a : least;
      }
      floor_ = least - lag_ > floor_ ? least - lag_ : floor_;
    }
    if (form_.ordering == iw_ordering::two_level)
      levels_.commit(g);
    else
      rr_.commit(g);
  }

  /// Input i's accumulator as it reads, max(A_i, floor) (0 beyond K).
  double accumulator(std::size_t i) const noexcept { return i < K ? read(i) : 0.0; }
  /// The window's base (0 for forms that never slide).
  double base() const noexcept { return base_; }
  double floor() const noexcept { return floor_; }
  /// The inputs at the high level (two_level ordering; every input otherwise).
  std::uint64_t priority() const noexcept {
    return form_.ordering == iw_ordering::two_level ? high_among(valid_mask) : valid_mask;
  }
  const inverse_weighted_form& form() const noexcept { return form_; }
  double quantum() const noexcept { return q_; }
  const table_type& weights() const noexcept { return *table_; }
  double weight(std::size_t i, std::size_t n) const noexcept { return table_->weight(i, n); }

  const inverse_weighted_counts& counts() const noexcept { return counts_; }
  void reset_counts() noexcept { counts_ = {}; }

  template <class Archive>
  void state(Archive& ar) {
    ar.object("IWFA", "inverse_weighted_family", K);
    std::uint32_t n = N;
    ar.u16("N", n, state_range{N, N});
    const state_rule finite{[](double v) { return std::isfinite(v); }, "finite"};
    for (double& a : acc_) ar.f64("accumulator", a, finite);
    ar.f64("base", base_, finite);
    ar.f64("floor", floor_, finite);
    ar.u64("seen", seen_, state_range{0, valid_mask});
    levels_.state(ar);
    rr_.state(ar);
  }

  friend bool operator==(const inverse_weighted_family& a,
                         const inverse_weighted_family& b) noexcept {
    if (!(a.form_ == b.form_) || a.base_ != b.base_ || !(a.levels_ == b.levels_) ||
        !(a.rr_ == b.rr_) || !(a.table_ == b.table_ || *a.table_ == *b.table_))
      return false;
    for (std::size_t i = 0; i < K; ++i)
      if (a.read(i) != b.read(i)) return false;
    return true;
  }
  friend bool operator!=(const inverse_weighted_family& a,
                         const inverse_weighted_family& b) noexcept {
    return !(a == b);
  }

 private:
  double read(std::size_t i) const noexcept { return acc_[i] > floor_ ? acc_[i] : floor_; }
  std::uint64_t high_among(std::uint64_t inputs) const noexcept {
    std::uint64_t high = 0;
    for (std::uint64_t x = inputs; x != 0; x &= x - 1) {
      const std::size_t i = bits::lowest_index(x);
      high |= static_cast<std::uint64_t>(read(i) - base_ < q_) << i;
    }
    return high;
  }
  double weight_of(std::size_t i, std::size_t n) const {
    INTERLOCK_ASSERT(n < N, "pattern label out of range");
    return n < N ? table_->weight(i, n) : table_->largest(i);
  }
  // Before a commit: the requesters that come back below the floor lose
  // what the floor lifted (counted once they have requested before); the
  // requesters' spread.
  void count_before(std::uint64_t req) noexcept {
    ++counts_.grants;
    double least = 0, most = 0;
    for (std::uint64_t x = req; x != 0; x &= x - 1) {
      const std::size_t i = bits::lowest_index(x);
      if (acc_[i] < floor_) {
        if ((seen_ >> i) & 1u) {
          ++counts_.zeroed;
          counts_.quota_lost += (floor_ - acc_[i]) / q_;
        }
        acc_[i] = floor_;
      }
      least = x == req || acc_[i] < least ? acc_[i] : least;
      most = x == req || acc_[i] > most ? acc_[i] : most;
    }
    seen_ |= req;
    if ((req & (req - 1)) != 0) {
      const double s = (most - least) / q_;
      ++counts_.spread_samples;
      counts_.spread_sum += s;
      counts_.spread_max = s > counts_.spread_max ? s : counts_.spread_max;
    }
  }

  std::shared_ptr<const table_type> table_;
  inverse_weighted_form form_;
  double q_ = 1, lag_ = 0;
  std::array<double, K> acc_{};
  double base_ = 0;
  double floor_ = std::numeric_limits<double>::lowest();
  std::uint64_t seen_ = 0;  // inputs that have requested
  priority_arbiter<K, 2> levels_;
  round_robin_arbiter<K> rr_;
  inverse_weighted_counts counts_;
};

template <std::size_t K, std::size_t N, unsigned M>
class request_builder<inverse_weighted_family<K, N, M>>
    : public detail::pattern_request_builder<K> {
 public:
  request_builder() = default;
  explicit request_builder(const inverse_weighted_family<K, N, M>&) noexcept {}
};

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_INVERSE_WEIGHTED_FAMILY_HPP
