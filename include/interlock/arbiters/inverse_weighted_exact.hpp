// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/inverse_weighted_exact.hpp: the Anton 2 inverse-weighted arbiter in exact
// arithmetic (Eq. 3), the reference for the hardware model.
//
// Models [Towles14], Section 3, Eq. 3-5: input i keeps the accumulator A_i =
// sum_n s_{i,n} / gamma_{i,n} in double precision; a packet of pattern n
// granted at input i adds 1 / gamma_{i,n}; the lowest requesting A_i wins,
// ties broken by the thermometer round robin. The hardware model, with
// M-bit weights and a sliding window, is inverse_weighted_arbiter
// (arbiters/inverse_weighted.hpp); this one is what it approximates.
//
// Contract
//   - exact_weight_table<K, N>: the weights 1 / gamma_{i,n}, from a load
//     matrix validated as weights_from_loads validates it (an idle input or
//     a pattern of load 0 gets no weight); immutable and shared.
//   - inverse_weighted_exact<K, N>: request_type is pattern_requests (the
//     requesting inputs and their packets' pattern labels); grant_implies_
//     request, work_conserving, no_state_change_without_commit; while every
//     input requests, |A_i - A_j| <= the largest weight.
//   - Bad input: a label >= N, or one whose load was 0, is a contract
//     violation; the fallback adds the input's largest weight.
//   - request_builder<inverse_weighted_exact<K, N>> takes a candidate_view's
//     mask and pattern labels (core/candidates.hpp).
//   - Save and restore: state(ar) (core/state_io.hpp): each input's
//     accumulator (finite, >= 0) and the tie breaker's rr_therm.
//   Complexity: O(popcount) per decision, O(1) per commit; no allocation.
//
// Example
//   const interlock::load_matrix loads{{1.0}, {0.5}};  // input 1 carries half of input 0
//   interlock::inverse_weighted_exact<2, 1> a(loads);
//   std::uint8_t labels[2] = {0, 0};
//   interlock::pattern_requests both{0b11, labels};
//   int served[2] = {};
//   for (int k = 0; k < 300; ++k) {
//     const interlock::grant g = a.arbitrate(both);
//     a.commit(g, both);
//     ++served[g.index()];
//   }
//   assert(served[0] == 200 && served[1] == 100);
#ifndef INTERLOCK_ARBITERS_INVERSE_WEIGHTED_EXACT_HPP
#define INTERLOCK_ARBITERS_INVERSE_WEIGHTED_EXACT_HPP

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "interlock/arbiters/inverse_weighted.hpp"
#include "interlock/arbiters/inverse_weights.hpp"
#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/arbiter_traits.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/state_io.hpp"

namespace interlock {

/// Eq. 3's weights 1 / gamma_{i,n} of one arbiter, validated once and shared.
template <std::size_t K, std::size_t N = 2>
class exact_weight_table {
  static_assert(K >= 1 && K <= 64, "exact_weight_table<K, N>: K must be 1..64 inputs");
  static_assert(N >= 1 && N <= 256, "exact_weight_table<K, N>: N must be 1..256 patterns");

 public:
  /// loads[i][n] = gamma_{i,n}; validated as weights_from_loads does.
  explicit exact_weight_table(const load_matrix& loads, std::uint64_t idle_inputs = 0) {
    detail::check_loads(loads, idle_inputs);
    detail::check_shape<K, N>(loads.size(), loads[0].size(), "inverse_weighted_exact");
    for (std::size_t i = 0; i < K; ++i)
      for (std::size_t n = 0; n < N; ++n) {
        const double g = loads[i][n];
        weights_[i][n] = g > 0 ? 1.0 / g : 0.0;
        if (weights_[i][n] > largest_[i]) largest_[i] = weights_[i][n];
      }
  }
  double weight(std::size_t i, std::size_t n) const noexcept { return weights_[i % K][n % N]; }
  double largest(std::size_t i) const noexcept { return largest_[i % K]; }
  friend bool operator==(const exact_weight_table& a, const exact_weight_table& b) noexcept {
    return a.weights_ == b.weights_;
  }

 private:
  std::array<std::array<double, N>, K> weights_{};
  std::array<double, K> largest_{};
};

/// Eq. 3 in double precision: the model the hardware approximates.
template <std::size_t K, std::size_t N = 2>
class inverse_weighted_exact : public arbiter_base<inverse_weighted_exact<K, N>, pattern_requests> {
  static_assert(K >= 1 && K <= 64, "inverse_weighted_exact<K, N>: K must be 1..64 inputs");
  static_assert(N >= 1 && N <= 256, "inverse_weighted_exact<K, N>: N must be 1..256 patterns");

 public:
  using table_type = exact_weight_table<K, N>;
  static constexpr std::uint64_t valid_mask = bits::low_mask(K);

  /// loads[i][n] = gamma_{i,n}; validated as weights_from_loads does; a table of its own.
  explicit inverse_weighted_exact(const load_matrix& loads, std::uint64_t idle_inputs = 0)
      : inverse_weighted_exact(std::make_shared<const table_type>(loads, idle_inputs)) {}
  /// An arbiter over a shared weight table.
  explicit inverse_weighted_exact(std::shared_ptr<const table_type> weights)
      : weights_(std::move(weights)) {
    if (!weights_)
      throw config_error("inverse_weighted_exact", "weights", "null", "an exact_weight_table");
  }

  static constexpr std::size_t size() noexcept { return K; }

  interlock::grant arbitrate(const pattern_requests& r) const {
    INTERLOCK_ASSERT((r.requests & ~valid_mask) == 0, "request bit at or above K");
    const std::uint64_t req = r.requests & valid_mask;
    double lowest = 0;
    for (std::uint64_t x = req; x != 0; x &= x - 1) {
      const double a = acc_[bits::lowest_index(x)];
      lowest = x == req || a < lowest ? a : lowest;
    }
    std::uint64_t ties = 0;
    for (std::uint64_t x = req; x != 0; x &= x - 1) {
      const std::size_t i = bits::lowest_index(x);
      ties |= static_cast<std::uint64_t>(acc_[i] == lowest) << i;
    }
    return rr_.arbitrate(ties);
  }

  void commit(interlock::grant g, const pattern_requests& r) {
    INTERLOCK_ASSERT(!g || g.index() < K, "commit of a grant to an input that does not exist");
    if (!g || g.index() >= K) return;
    const std::size_t i = g.index();
    const std::size_t n = r.pattern.at(i, 0);
    const double w = n < N ? weights_->weight(i, n) : 0.0;
    INTERLOCK_ASSERT(n < N && w > 0, "a pattern that never arrives at this input");
    acc_[i] += n < N && w > 0 ? w : weights_->largest(i);
    rr_.commit(g);
  }

  double accumulator(std::size_t i) const noexcept { return acc_[i % K]; }
  double weight(std::size_t i, std::size_t n) const noexcept { return weights_->weight(i, n); }
  const table_type& weights() const noexcept { return *weights_; }

  /// Save and restore (core/state_io.hpp): each input's accumulator A_i
  /// (a finite double >= 0), then the tie breaker's rr_therm. The weights
  /// are the constructor's; N is checked.
  template <class Archive>
  void state(Archive& ar) {
    ar.object("IWEX", "inverse_weighted_exact", K);
    std::uint32_t n = N;
    ar.u16("N", n, state_range{N, N});
    for (double& a : acc_)
      ar.f64("accumulator", a,
             state_rule{[](double v) { return std::isfinite(v) && v >= 0; }, "finite, >= 0"});
    rr_.state(ar);
  }

  friend bool operator==(const inverse_weighted_exact& a,
                         const inverse_weighted_exact& b) noexcept {
    return a.acc_ == b.acc_ && a.rr_ == b.rr_ &&
           (a.weights_ == b.weights_ || *a.weights_ == *b.weights_);
  }
  friend bool operator!=(const inverse_weighted_exact& a,
                         const inverse_weighted_exact& b) noexcept {
    return !(a == b);
  }

 private:
  std::shared_ptr<const table_type> weights_;
  std::array<double, K> acc_{};
  round_robin_arbiter<K> rr_;
};

/// Requests from a candidate_view: the mask and each candidate's pattern label.
template <std::size_t K, std::size_t N>
class request_builder<inverse_weighted_exact<K, N>> : public detail::pattern_request_builder<K> {
 public:
  request_builder() = default;
  explicit request_builder(const inverse_weighted_exact<K, N>&) noexcept {}
};

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_INVERSE_WEIGHTED_EXACT_HPP
