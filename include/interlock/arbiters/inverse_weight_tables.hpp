// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/inverse_weight_tables.hpp: programming a whole network's
// inverse-weighted arbiters from their loads, as the hardware model or as
// Eq. 3 exactly.
//
// Models [Towles14] (Towles et al., ISCA'14), Section 3.1 (software programs
// every arbiter from its inputs' loads) and Section 3.3 (the M-bit weights).
//   inverse_weight_tables<K, N, M>  tables for inverse_weighted_arbiter<K,
//                                   N, M>: weights_from_loads's weights. With
//                                   headroom h > 0 the weights are quantized
//                                   to M - h bits (the largest weight below
//                                   2^(M-h)) and run in the M-bit arbiter:
//                                   the same accumulators and window of 2^M,
//                                   each grant 2^h times smaller against
//                                   them. h = 0 (the default) is maximum
//                                   accuracy: every bit of M used.
//   exact_weight_tables<K, N>       tables for inverse_weighted_exact<K, N>:
//                                   Eq. 3's 1 / gamma, in double precision.
//   inverse_weighted_family_tables<K, N, M>
//                                   tables for inverse_weighted_family<K, N,
//                                   M> of one form (inverse_weighted_form.hpp):
//                                   the hardware factory's weights for M-bit
//                                   quantization, the exact factory's for
//                                   real, whose quantum is 2^M / beta with the
//                                   beta the M-bit weights were scaled by.
// Both make one table per distinct set of loads and share it (in a
// symmetric network most arbiters share a few), through the same
// from_loads(inputs, loads) that arbitration_weights.hpp calls. An arbiter
// with no load at all gets equal weights, so it serves round robin: 2^(M-h)
// - 1 in the hardware model, 1 in the exact one. A zero load of one input
// (or one pattern at an input), should a packet arrive there anyway, gets
// the least service: 2^(M-h) - 1 in the hardware model (Section 3.3's
// quantization), the weight of the table's least loaded input in the exact
// one.
//
// Contract
//   Offline: from_loads allocates and throws what weights_from_loads (or
//   exact_weight_table) throws; the constructor throws config_error
//   ("headroom") for h outside 0..M-1.
//
// Example
//   interlock::inverse_weight_tables<4, 1, 8> tables(/*headroom=*/2);   // 6-bit weights
//   auto t = tables.from_loads(2, [](std::size_t i, std::size_t) { return i == 0 ? 1.0 : 0.5; });
//   // t->weight(0, 0) == 31, t->weight(1, 0) == 62
#ifndef INTERLOCK_ARBITERS_INVERSE_WEIGHT_TABLES_HPP
#define INTERLOCK_ARBITERS_INVERSE_WEIGHT_TABLES_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "interlock/arbiters/inverse_weighted.hpp"
#include "interlock/arbiters/inverse_weighted_exact.hpp"
#include "interlock/arbiters/inverse_weighted_family.hpp"
#include "interlock/arbiters/inverse_weighted_form.hpp"
#include "interlock/arbiters/inverse_weights.hpp"
#include "interlock/core/config_error.hpp"

namespace interlock {

namespace detail {
/// The loads(i, n) of inputs i < inputs as a K x N key (0 beyond), whether
/// any is positive, and the inputs with none (idle).
template <std::size_t K, std::size_t N, class Loads>
std::vector<double> load_key(std::size_t inputs, Loads&& loads) {
  std::vector<double> key(K * N, 0.0);
  for (std::size_t i = 0; i < inputs && i < K; ++i)
    for (std::size_t n = 0; n < N; ++n) key[i * N + n] = loads(i, n);
  return key;
}
template <std::size_t K, std::size_t N>
load_matrix key_matrix(const std::vector<double>& key, std::uint64_t& idle, bool& any) {
  load_matrix m(K, std::vector<double>(N, 0.0));
  idle = 0;
  any = false;
  for (std::size_t i = 0; i < K; ++i) {
    double sum = 0;
    for (std::size_t n = 0; n < N; ++n) sum += m[i][n] = key[i * N + n];
    if (sum == 0) idle |= std::uint64_t{1} << i;
    any = any || sum > 0;
  }
  return m;
}
/// One Table per distinct K x N set of loads: make(matrix, idle, any) builds
/// a new one from the loads as a matrix, the inputs with none, and whether
/// any is positive.
template <std::size_t K, std::size_t N, class Table>
class table_cache {
 public:
  template <class Loads, class Make>
  std::shared_ptr<const Table> get(std::size_t inputs, Loads&& loads, Make&& make) {
    std::vector<double> key = load_key<K, N>(inputs, loads);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    std::uint64_t idle = 0;
    bool any = false;
    load_matrix m = key_matrix<K, N>(key, idle, any);
    std::shared_ptr<const Table> t = make(m, idle, any);
    cache_.emplace(std::move(key), t);
    return t;
  }
  std::size_t size() const noexcept { return cache_.size(); }

 private:
  std::map<std::vector<double>, std::shared_ptr<const Table>> cache_;
};
}  // namespace detail

/// The hardware model's tables (Figure 6), one per distinct set of loads.
template <std::size_t K, std::size_t N = 2, unsigned M = 8>
class inverse_weight_tables {
 public:
  using table = inverse_weight_table<K, N, M>;
  /// Weights of M - headroom bits (0: maximum accuracy, all M).
  explicit inverse_weight_tables(unsigned headroom = 0) : headroom_(headroom) {
    if (headroom >= M)
      throw config_error(
          "inverse_weight_tables", "headroom", std::to_string(headroom),
          "0.." + std::to_string(M - 1) + " bits (the arbiter has M = " + std::to_string(M) + ")");
  }
  /// The table for the loads loads(i, n) of inputs i < inputs under
  /// pattern n (inputs from `inputs` on never request).
  template <class Loads>
  std::shared_ptr<const table> from_loads(std::size_t inputs, Loads&& loads) {
    const unsigned bits = M - headroom_;
    return cache_.get(inputs, loads, [bits](const load_matrix& m, std::uint64_t idle, bool any) {
      return any ? std::make_shared<const table>(weights_from_loads(m, bits, idle).weights)
                 : std::make_shared<const table>(std::vector<std::vector<std::uint32_t>>(
                       K, std::vector<std::uint32_t>(N, (std::uint32_t{1} << bits) - 1)));
    });
  }
  /// How many distinct tables were made.
  std::size_t distinct() const noexcept { return cache_.size(); }
  /// The bits of M the weights leave unused.
  unsigned headroom() const noexcept { return headroom_; }

 private:
  unsigned headroom_ = 0;
  detail::table_cache<K, N, table> cache_;
};

/// Eq. 3's tables (the exact model), one per distinct set of loads.
template <std::size_t K, std::size_t N = 2>
class exact_weight_tables {
 public:
  using table = exact_weight_table<K, N>;
  template <class Loads>
  std::shared_ptr<const table> from_loads(std::size_t inputs, Loads&& loads) {
    return cache_.get(inputs, loads, [](load_matrix m, std::uint64_t, bool any) {
      // A zero load (a pattern that should never arrive at the input, or an
      // input that should never request) is charged as the least loaded
      // input is, should a packet arrive anyway.
      double least = 0;
      for (const auto& row : m)
        for (double g : row) least = g > 0 && (least == 0 || g < least) ? g : least;
      for (auto& row : m)
        for (double& g : row) g = g > 0 ? g : (any ? least : 1.0);
      return std::make_shared<const table>(m);
    });
  }
  std::size_t distinct() const noexcept { return cache_.size(); }

 private:
  detail::table_cache<K, N, table> cache_;
};

/// The family's tables of one form, one per distinct set of loads: the
/// weights inverse_weight_tables (M-bit) or exact_weight_tables (real) give
/// the same loads, and the quantum 2^M (M-bit) or 2^M / beta (real, beta
/// the scale of the M - headroom bit weights; 2^(M - headroom) - 1 for an
/// arbiter with no load, whose weights are all 1).
template <std::size_t K, std::size_t N = 2, unsigned M = 8>
class inverse_weighted_family_tables {
 public:
  using table = inverse_weighted_family_table<K, N, M>;
  explicit inverse_weighted_family_tables(inverse_weighted_form form, unsigned headroom = 0)
      : form_(form), mbit_(headroom) {}
  template <class Loads>
  std::shared_ptr<const table> from_loads(std::size_t inputs, Loads&& loads) {
    const unsigned bits = M - mbit_.headroom();
    const double window = static_cast<double>(std::uint64_t{1} << M);
    const inverse_weighted_form form = form_;
    // On a miss only: the weights of the one quantization the form reads.
    return cache_.get(inputs, loads, [&](const load_matrix& l, std::uint64_t idle, bool any) {
      const auto given = [&l](std::size_t i, std::size_t n) { return l[i][n]; };
      std::vector<std::vector<double>> w(K, std::vector<double>(N, 0.0));
      if (form.quantization == iw_quantization::m_bit) {
        const auto m = mbit_.from_loads(K, given);
        for (std::size_t i = 0; i < K; ++i)
          for (std::size_t n = 0; n < N; ++n) w[i][n] = static_cast<double>(m->weight(i, n));
      } else {
        const auto e = real_.from_loads(K, given);
        for (std::size_t i = 0; i < K; ++i)
          for (std::size_t n = 0; n < N; ++n) w[i][n] = e->weight(i, n);
      }
      if (form.quantization == iw_quantization::m_bit)
        return std::make_shared<const table>(form, w, window);
      const double beta = any ? weights_from_loads(l, bits, idle).beta
                              : static_cast<double>((std::uint64_t{1} << bits) - 1);
      return std::make_shared<const table>(form, w, window / beta);
    });
  }
  std::size_t distinct() const noexcept { return cache_.size(); }
  const inverse_weighted_form& form() const noexcept { return form_; }

 private:
  inverse_weighted_form form_;
  inverse_weight_tables<K, N, M> mbit_;
  exact_weight_tables<K, N> real_;
  detail::table_cache<K, N, table> cache_;
};

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_INVERSE_WEIGHT_TABLES_HPP
