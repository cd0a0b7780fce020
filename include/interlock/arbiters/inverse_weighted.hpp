// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/inverse_weighted.hpp: the Anton 2 inverse-weighted arbiter, the hardware
// model.
//
// Models [Towles14] (Towles, Grossman, Greskamp, Shaw, ISCA'14), Section 3.
// Equality of service (EoS): each input should be served in proportion to
// its load. Input i keeps an accumulator; a packet of traffic pattern n
// granted at input i adds 1 / gamma_{i,n}, and the requesting input with the
// lowest accumulator wins. With one pattern, S_i / S_j -> gamma_i / gamma_j
// (Eq. 2); with N patterns and packets labelled by pattern, the same holds
// for any blend of the patterns without the arbiter knowing the mix (Eq.
// 3-5).
//
//   inverse_weighted_exact<K, N>     (arbiters/inverse_weighted_exact.hpp)
//                                    Eq. 3 in double precision: A_i = sum_n
//                                    s_{i,n} / gamma_{i,n}; the lowest
//                                    requesting A_i wins, ties round robin.
//   inverse_weighted_arbiter<K, N, M> Section 3.3 and Figure 6, bit for bit:
//                                    M-bit inverse weights m_{i,n}, (M+1)-bit
//                                    accumulators relative to a sliding window
//                                    of 2^(M+1) values, priority bit = NOT
//                                    MSB, and Figure 8's 2-level priority
//                                    arbiter (priority_arbiter<K, 2>) with its
//                                    thermometer round robin.
//
// Figure 6's update, for a grant to g of a packet of pattern n:
//   low_grant = g had low priority (MSB set; then no requester was high)
//   acc[g] <- {0, acc[g][M-1:0]} + m_{g,n}
//   acc[i] <- low_grant ? (MSB of acc[i] ? acc[i] - 2^M : 0) : acc[i]   (i != g)
// i.e. a low-priority grant slides the window by 2^M for every input; an
// input below the window (not requesting, or it would have won) is zeroed.
// interlock keeps the accumulators as offsets from a window base, so the
// slide is O(1) instead of a loop over inputs (an input below the new base
// reads as 0; once every 2^12 slides the offsets are rewritten from 0);
// accumulator(i) returns the (M+1)-bit value Figure 6 holds, and a test
// replays Figure 6's SystemVerilog, transcribed, against it.
//
// Configuration and state: the weights are an inverse_weight_table
// (exact_weight_table for the exact model), validated once, immutable and
// shared (std::shared_ptr<const>) by every arbiter that uses them
// (inverse_weight_tables.hpp programs a network's arbiters, one table per
// distinct set of loads); an
// arbiter holds that pointer and its own accumulators, priority bits and
// round-robin state (8K + 32 bytes for the hardware model).
//
// Contract
//   - request_type is pattern_requests: the requesting inputs and, per input,
//     the pattern label of its packet (0..N-1). commit(g, requests) reads the
//     granted input's label.
//   - Invariants: grant_implies_request, work_conserving,
//     no_state_change_without_commit; accumulators stay below 2^(M+1).
//   - EoS bound (docs/arbiters/inverse_weighted.md): while every input
//     requests, |S_i m_i - S_j m_j| < 2^(M+1) for one pattern (and the
//     weighted service sum_n s_{i,n} m_{i,n} for several), so S_i / S_j
//     converges to m_j / m_i, which is gamma_i / gamma_j up to the weights'
//     quantization error. The exact model keeps |A_i - A_j| <= max weight.
//   - Equal weights and every input requesting: exactly round robin.
//   - Configuration: weights 1..2^M - 1 (0 would serve an input for free)
//     and, from weights_from_loads, the same M (a mismatch is reported as
//     one, before any weight).
//   - Bad input: a label >= N, or a label whose load was 0 in the exact
//     model, is a contract violation; the fallback uses the input's largest
//     weight. Request bits at or above K are ignored (also one).
//   - request_builder<...> of either model takes a candidate_view's mask and
//     pattern labels (core/candidates.hpp).
//   - Save and restore: state(ar) (core/state_io.hpp): each input's
//     (M+1)-bit accumulator and the tie breaker's rr_therm; the priority
//     bits follow from the accumulators.
//   Complexity: hardware O(1) per decision and commit (O(K) once every 2^12
//   window slides); exact O(popcount).
//
// Example
//   // Figure 5, arbiter A: loads 1 and 0.5 -> weights 127 and 254.
//   interlock::inverse_weighted_arbiter<2, 1, 8> a(interlock::weights_from_loads({{1.0}, {0.5}},
//   8)); std::uint8_t labels[2] = {0, 0}; interlock::pattern_requests both{0b11, labels}; int
//   served[2] = {}; for (int k = 0; k < 300; ++k) ++served[a.grant(both).index()];   // 200 : 100
#ifndef INTERLOCK_ARBITERS_INVERSE_WEIGHTED_HPP
#define INTERLOCK_ARBITERS_INVERSE_WEIGHTED_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interlock/arbiters/inverse_weights.hpp"
#include "interlock/arbiters/priority.hpp"
#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/arbiter_traits.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/span.hpp"
#include "interlock/core/state_io.hpp"

namespace interlock {

/// The requests of one arbitration, with each input's traffic-pattern label.
struct pattern_requests {
  std::uint64_t requests = 0;
  span<const std::uint8_t> pattern;  // pattern[i]: the pattern of input i's packet
};

inline bool requested(const pattern_requests& r, std::size_t i) noexcept {
  return requested(r.requests, i);
}
inline bool any_requested(const pattern_requests& r) noexcept { return r.requests != 0; }

namespace detail {
template <std::size_t K, std::size_t N>
void check_shape(std::size_t inputs, std::size_t patterns, const char* component) {
  if (inputs != K || patterns != N) {
    throw config_error(
        component, "weights shape",
        std::to_string(inputs) + " inputs x " + std::to_string(patterns) + " patterns",
        std::to_string(K) + " inputs x " + std::to_string(N) + " patterns");
  }
}
}  // namespace detail

/// Section 3.3's inverse weights m[i][n] of one arbiter, as software
/// programs them: validated once, immutable, shared by every arbiter that
/// uses them (every router's arbiter for the same output direction, under a
/// symmetric pattern).
template <std::size_t K, std::size_t N = 2, unsigned M = 8>
class inverse_weight_table {
  static_assert(K >= 1 && K <= 64, "inverse_weight_table<K, N, M>: K must be 1..64 inputs");
  static_assert(N >= 1 && N <= 256, "inverse_weight_table<K, N, M>: N must be 1..256 patterns");
  static_assert(M >= 1 && M <= 31, "inverse_weight_table<K, N, M>: M must be 1..31 bits");

 public:
  /// Weights from weights_from_loads (its M must be this M, checked first).
  explicit inverse_weight_table(const quantized_weights& q)
      : inverse_weight_table(same_bits(q).weights) {}
  /// Inverse weights m[i][n], each 1..2^M - 1 (a weight of 0 would serve its
  /// input for free: refused).
  explicit inverse_weight_table(const std::vector<std::vector<std::uint32_t>>& inverse_weights) {
    detail::check_shape<K, N>(inverse_weights.size(),
                              inverse_weights.empty() ? 0 : inverse_weights[0].size(),
                              "inverse_weighted_arbiter");
    for (std::size_t i = 0; i < K; ++i) {
      detail::check_shape<K, N>(K, inverse_weights[i].size(), "inverse_weighted_arbiter");
      for (std::size_t n = 0; n < N; ++n) {
        detail::require_in_range(
            "inverse_weighted_arbiter",
            "weight of input " + std::to_string(i) + ", pattern " + std::to_string(n),
            inverse_weights[i][n], 1, (std::uint32_t{1} << M) - 1);
        weights_[i][n] = inverse_weights[i][n];
        if (inverse_weights[i][n] > largest_[i]) largest_[i] = inverse_weights[i][n];
      }
    }
  }
  std::uint32_t weight(std::size_t i, std::size_t n) const noexcept {
    return weights_[i % K][n % N];
  }
  /// Input i's largest weight: what a packet with a bad label is charged.
  std::uint32_t largest(std::size_t i) const noexcept { return largest_[i % K]; }

  friend bool operator==(const inverse_weight_table& a, const inverse_weight_table& b) noexcept {
    return a.weights_ == b.weights_;
  }

 private:
  static const quantized_weights& same_bits(const quantized_weights& q) {
    detail::require_in_range("inverse_weighted_arbiter", "M of the weights", q.bits, M, M);
    return q;
  }

  std::array<std::array<std::uint32_t, N>, K> weights_{};
  std::array<std::uint32_t, K> largest_{};
};

/// Section 3.3 and Figure 6: the hardware model.
template <std::size_t K, std::size_t N = 2, unsigned M = 8>
class inverse_weighted_arbiter
    : public arbiter_base<inverse_weighted_arbiter<K, N, M>, pattern_requests> {
  static_assert(K >= 1 && K <= 64, "inverse_weighted_arbiter<K, N, M>: K must be 1..64 inputs");
  static_assert(N >= 1 && N <= 256, "inverse_weighted_arbiter<K, N, M>: N must be 1..256 patterns");
  static_assert(M >= 1 && M <= 31, "inverse_weighted_arbiter<K, N, M>: M must be 1..31 bits");

 public:
  using table_type = inverse_weight_table<K, N, M>;
  static constexpr std::uint64_t valid_mask = bits::low_mask(K);
  static constexpr std::uint32_t window = std::uint32_t{1} << M;  // 2^M: half the window

  /// Weights from weights_from_loads (its M must be this M), a table of its own.
  explicit inverse_weighted_arbiter(const quantized_weights& q)
      : inverse_weighted_arbiter(std::make_shared<const table_type>(q)) {}
  /// Inverse weights m[i][n], each 0..2^M - 1, a table of its own.
  explicit inverse_weighted_arbiter(const std::vector<std::vector<std::uint32_t>>& inverse_weights)
      : inverse_weighted_arbiter(std::make_shared<const table_type>(inverse_weights)) {}
  /// An arbiter over a shared weight table.
  explicit inverse_weighted_arbiter(std::shared_ptr<const table_type> weights)
      : weights_(std::move(weights)) {
    if (!weights_)
      throw config_error("inverse_weighted_arbiter", "weights", "null", "an inverse_weight_table");
  }

  static constexpr std::size_t size() noexcept { return K; }

  interlock::grant arbitrate(const pattern_requests& r) const {
    INTERLOCK_ASSERT((r.requests & ~valid_mask) == 0, "request bit at or above K");
    const std::uint64_t req = r.requests & valid_mask;
    priority_requests<2> levels;
    levels.levels[1] = req & high_;
    levels.levels[0] = req & ~high_;
    return priority_.arbitrate(levels);
  }

  /// Figure 6's update for a grant to g of the packet labelled in `r`.
  void commit(interlock::grant g, const pattern_requests& r) {
    INTERLOCK_ASSERT(!g || g.index() < K, "commit of a grant to an input that does not exist");
    if (!g || g.index() >= K) return;
    const std::size_t i = g.index();
    std::uint64_t acc = offset(i);
    if (((high_ >> i) & 1u) == 0) {  // low_grant: slide the window for every input
      base_ += window;
      acc -= window;
      high_ = valid_mask;  // every other input is now below 2^M (or zeroed)
      if (base_ >= rebase_at) rebase();
    }
    acc += weight_of(i, r.pattern.at(i, 0));
    raw_[i] = base_ + acc;
    high_ = acc < window ? (high_ | bits::bit(i)) : (high_ & ~bits::bit(i));
    priority_.commit(g);
  }

  /// Input i's (M+1)-bit accumulator, as Figure 6 holds it (0 for i >= K).
  std::uint32_t accumulator(std::size_t i) const noexcept {
    return i < K ? static_cast<std::uint32_t>(offset(i)) : 0u;
  }
  /// The priority bits: input i is high priority when its accumulator's MSB is 0.
  std::uint64_t priority() const noexcept { return high_; }
  std::uint32_t weight(std::size_t i, std::size_t n) const noexcept {
    return weights_->weight(i, n);
  }
  /// The shared weights.
  const table_type& weights() const noexcept { return *weights_; }
  const std::shared_ptr<const table_type>& shared_weights() const noexcept { return weights_; }
  /// The round-robin state that breaks ties (Figure 8's rr_therm).
  const priority_arbiter<K, 2>& tie_breaker() const noexcept { return priority_; }

  /// Save and restore (core/state_io.hpp): Figure 6's registers, each
  /// input's (M+1)-bit accumulator, then the tie breaker's rr_therm; the
  /// priority bits follow from the accumulators (NOT MSB). The weights are
  /// the constructor's; M and N are checked.
  template <class Archive>
  void state(Archive& ar) {
    ar.object("IWAR", "inverse_weighted_arbiter", K);
    std::uint32_t m = M, n = N;
    ar.u8("M", m, state_range{M, M});
    ar.u16("N", n, state_range{N, N});
    for (std::size_t i = 0; i < K; ++i) {
      std::uint32_t acc = accumulator(i);
      ar.u32("accumulator", acc, state_range{0, 2 * std::uint64_t{window} - 1});
      if constexpr (Archive::loading) raw_[i] = acc;
    }
    if constexpr (Archive::loading) {
      base_ = 0;
      high_ = 0;
      for (std::size_t i = 0; i < K; ++i) high_ |= raw_[i] < window ? bits::bit(i) : 0;
    }
    priority_.state(ar);
  }

  friend bool operator==(const inverse_weighted_arbiter& a,
                         const inverse_weighted_arbiter& b) noexcept {
    if (!(a.priority_ == b.priority_) || a.high_ != b.high_ ||
        !(a.weights_ == b.weights_ || *a.weights_ == *b.weights_))
      return false;
    for (std::size_t i = 0; i < K; ++i)
      if (a.accumulator(i) != b.accumulator(i)) return false;
    return true;
  }
  friend bool operator!=(const inverse_weighted_arbiter& a,
                         const inverse_weighted_arbiter& b) noexcept {
    return !(a == b);
  }

 private:
  // Every 2^12 slides, accumulators are rewritten relative to a base of 0,
  // so the offsets of long-zeroed inputs never approach 2^63.
  static constexpr std::uint64_t rebase_at = std::uint64_t{1} << (M + 12);
  void rebase() noexcept {
    for (std::size_t k = 0; k < K; ++k) raw_[k] = offset(k);
    base_ = 0;
  }
  // The accumulator of input i < K: its offset above the window base, or 0
  // when it lies below (zeroed by a slide).
  std::uint64_t offset(std::size_t i) const noexcept {
    const auto above = static_cast<std::int64_t>(raw_[i] - base_);
    return above > 0 ? static_cast<std::uint64_t>(above) : 0u;
  }

  std::uint32_t weight_of(std::size_t i, std::size_t n) const {
    INTERLOCK_ASSERT(n < N, "pattern label out of range");
    return n < N ? weights_->weight(i, n) : weights_->largest(i);
  }

  std::shared_ptr<const table_type> weights_;
  std::array<std::uint64_t, K> raw_{};  // base_ + accumulator, or below base_ when zeroed
  std::uint64_t base_ = 0;              // the window's low end, in raw units
  std::uint64_t high_ = valid_mask;     // NOT MSB of each accumulator
  priority_arbiter<K, 2> priority_;
};

namespace detail {
/// The mask and the pattern labels of a candidate_view.
template <std::size_t K>
class pattern_request_builder {
 public:
  pattern_requests operator()(const candidate_view& v) const {
    INTERLOCK_ASSERT((v.requests & ~bits::low_mask(K)) == 0, "candidate at or above K");
    return pattern_requests{v.requests & bits::low_mask(K), v.pattern};
  }
};
}  // namespace detail

/// Requests from a candidate_view: the mask and each candidate's pattern label.
template <std::size_t K, std::size_t N, unsigned M>
class request_builder<inverse_weighted_arbiter<K, N, M>>
    : public detail::pattern_request_builder<K> {
 public:
  request_builder() = default;
  explicit request_builder(const inverse_weighted_arbiter<K, N, M>&) noexcept {}
};
}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_INVERSE_WEIGHTED_HPP
