// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/inverse_weights.hpp: programming inverse-weighted arbiters from traffic loads.
//
// Models [Towles14] (Towles et al., ISCA'14), Sections 3.1-3.3.
//   - Equality of service (Section 3.1): an arbiter input's load gamma_{i,n}
//     under traffic pattern n is the expected number of packets per unit
//     time that enter the arbiter at input i; traffic/loads.hpp sums it
//     from a traffic matrix and the routes a routing function takes.
//   - Quantization (Section 3.3): m_{i,n} = nint(beta / gamma_{i,n}), with M
//     bits: m_{i,n} < 2^M. weights_from_loads chooses beta for a given M;
//     weights_for_accuracy finds the smallest M for a given accuracy.
//
// Choosing beta. The paper only says that a larger beta is more accurate and
// needs more bits. For a given M every weight must be 1..2^M - 1, so beta
// lies in [gamma_max / 2, (2^M - 1/2) gamma_min). The weights change only
// at the breakpoints beta = (j + 1/2) gamma; between two, the weights m are
// fixed and the error max |m gamma / beta - 1| is least at beta = (min m
// gamma + max m gamma) / 2, clamped into the interval. interlock sweeps
// every interval in order (a merge of the loads' breakpoints; a tournament
// tree keeps the smallest m gamma) and keeps the smallest error, ties to
// the larger beta, so loads in simple ratios (Figure 5's 1 : 0.5) get exact
// weights (254 : 127, not 255 : 128). The sweep is exact
// while there are at most 2^20 breakpoints (M up to about 20 for a few
// distinct loads); beyond that it tries beta = t gamma_min for the 4096
// largest whole t <= 2^M - 1. weights_for_accuracy therefore returns the
// smallest M whenever the sweeps up to it were exact (a property checks it
// against a brute force over weight vectors).
//
// The quantization error is max over loaded (i, n) of |m gamma / beta - 1|,
// the relative error of each weight; a service ratio S_i / S_j then deviates
// from gamma_i / gamma_j by a factor within [(1-e)/(1+e), (1+e)/(1-e)].
//
// Contract
//   Offline functions: they allocate and throw config_error for a negative
//   or non-finite load, an input that can request but has no load (inputs
//   that never request are listed in `idle_inputs`), more than 64 inputs,
//   M outside 1..31, or loads too spread for M bits (the largest load's
//   weight would round to 0). A zero load of one pattern on an input that
//   carries others means the pattern never arrives there; its weight is
//   2^M - 1, the least service, should one arrive anyway.
//
// Example
//   // Figure 5, arbiter A: input 0 carries load 1, input 1 load 0.5.
//   auto w = interlock::weights_from_loads({{1.0}, {0.5}}, 8);
//   assert(w.weights[0][0] == 127 && w.weights[1][0] == 254 && w.max_relative_error == 0);
#ifndef INTERLOCK_ARBITERS_INVERSE_WEIGHTS_HPP
#define INTERLOCK_ARBITERS_INVERSE_WEIGHTS_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "interlock/core/config_error.hpp"

namespace interlock {

/// loads[i][n]: gamma_{i,n}, the load on arbiter input i due to traffic pattern n.
using load_matrix = std::vector<std::vector<double>>;

/// Integer inverse weights for one arbiter.
struct quantized_weights {
  unsigned bits = 0;                                // M
  double beta = 0;                                  // the scale
  std::vector<std::vector<std::uint32_t>> weights;  // m[i][n] = nint(beta / gamma_{i,n})
  double max_relative_error = 0;                    // over loaded (i, n)
};

namespace detail {

inline void check_loads(const load_matrix& loads, std::uint64_t idle_inputs) {
  if (loads.empty() || loads.size() > 64) {
    throw config_error("inverse weights", "inputs", std::to_string(loads.size()), "1..64");
  }
  const std::size_t patterns = loads[0].size();
  if (patterns == 0 || patterns > 256) {
    throw config_error("inverse weights", "traffic patterns", std::to_string(patterns), "1..256");
  }
  for (std::size_t i = 0; i < loads.size(); ++i) {
    if (loads[i].size() != patterns) {
      throw config_error("inverse weights", "patterns of input " + std::to_string(i),
                         std::to_string(loads[i].size()),
                         "the same for every input, " + std::to_string(patterns));
    }
    double total = 0;
    for (std::size_t n = 0; n < patterns; ++n) {
      const double g = loads[i][n];
      if (!std::isfinite(g) || g < 0) {
        throw config_error("inverse weights",
                           "load of input " + std::to_string(i) + ", pattern " + std::to_string(n),
                           std::to_string(g), "a finite number >= 0");
      }
      total += g;
    }
    const bool idle = i < 64 && ((idle_inputs >> i) & 1u) != 0;
    if (total == 0 && !idle) {
      throw config_error("inverse weights", "load of input " + std::to_string(i),
                         "0 in every pattern",
                         "a positive load on an input that can request (list it in idle_inputs if "
                         "it never requests)");
    }
  }
}

inline double smallest_positive_load(const load_matrix& loads) {
  double least = 0;
  for (const auto& row : loads)
    for (double g : row)
      if (g > 0 && (least == 0 || g < least)) least = g;
  return least;
}

/// nint for the non-negative values it sees: halves round up.
inline double nearest_integer(double x) { return std::floor(x + 0.5); }

/// The weights nint(beta / gamma) of every load (2^M - 1 for a zero load)
/// and their error; fits is false when a weight leaves 1..2^M - 1.
inline quantized_weights weights_at(const load_matrix& loads, unsigned bits, double beta,
                                    bool& fits) {
  const std::uint64_t top = (std::uint64_t{1} << bits) - 1;
  quantized_weights q{bits, beta, {}, 0};
  fits = true;
  for (const auto& row : loads) {
    q.weights.emplace_back();
    for (double g : row) {
      if (g == 0) {
        q.weights.back().push_back(static_cast<std::uint32_t>(top));
        continue;
      }
      const double m = nearest_integer(beta / g);
      if (m < 1 || m > static_cast<double>(top)) fits = false;
      q.weights.back().push_back(static_cast<std::uint32_t>(m < 1 ? 0 : m));
      q.max_relative_error = std::max(q.max_relative_error, std::abs(m * g / beta - 1));
    }
  }
  return q;
}

inline constexpr std::size_t exact_search_breakpoints = std::size_t{1} << 20;

/// The beta of least error for M bits over every interval between
/// breakpoints (see the header comment). Returns false without a result when
/// there are more than exact_search_breakpoints; `beta` < 0 when no beta fits.
inline bool sweep_beta(const load_matrix& loads, unsigned bits, double& beta) {
  std::vector<double> g;
  for (const auto& row : loads)
    for (double x : row)
      if (x > 0) g.push_back(x);
  std::sort(g.begin(), g.end());
  g.erase(std::unique(g.begin(), g.end()), g.end());
  const double top = static_cast<double>((std::uint64_t{1} << bits) - 1);
  const double lo = 0.5 * g.back(), hi = (top + 0.5) * g.front();
  beta = -1;
  if (!(lo < hi)) return true;
  // Breakpoints (j + 1/2) g strictly inside (lo, hi), per load.
  std::size_t count = 0;
  std::vector<double> first_j(g.size()), last_j(g.size());
  for (std::size_t k = 0; k < g.size(); ++k) {
    first_j[k] = std::floor(lo / g[k] - 0.5) + 1;
    while ((first_j[k] + 0.5) * g[k] <= lo) first_j[k] += 1;
    last_j[k] = std::ceil(hi / g[k] - 0.5) - 1;
    while ((last_j[k] + 0.5) * g[k] >= hi) last_j[k] -= 1;
    if (last_j[k] >= first_j[k]) {
      const double n = last_j[k] - first_j[k] + 1;
      if (n > static_cast<double>(exact_search_breakpoints)) return false;
      count += static_cast<std::size_t>(n);
      if (count > exact_search_breakpoints) return false;
    }
  }
  // The weights at lo, and the smallest m g: a tournament tree over the
  // loads (leaf k holds m_k g_k, each inner node its children's least).
  std::vector<double> m(g.size());
  std::size_t width = 1;
  while (width < g.size()) width *= 2;
  std::vector<double> least(2 * width, std::numeric_limits<double>::infinity());
  const auto set_product = [&](std::size_t k) {
    std::size_t i = width + k;
    least[i] = m[k] * g[k];
    for (i /= 2; i != 0; i /= 2) {  // (above a node that keeps its value, all do)
      const double v = std::min(least[2 * i], least[2 * i + 1]);
      if (v == least[i]) break;
      least[i] = v;
    }
  };
  double largest = 0;
  for (std::size_t k = 0; k < g.size(); ++k) {
    m[k] = nearest_integer(lo / g[k]);
    set_product(k);
    largest = std::max(largest, m[k] * g[k]);
  }
  double best_error = -1;
  double a = lo;
  auto evaluate = [&](double b) {  // the interval [a, b)
    const double vmin = least[1], vmax = largest;
    double x = (vmin + vmax) / 2;
    const bool at_low = x <= a, at_high = x >= b;
    if (at_low) x = a;
    if (at_high) x = std::nextafter(b, a);
    if (at_low || at_high) {
      // At an end of the interval, floating point may round x / g onto the
      // neighboring weight: step inward until every weight is the interval's.
      const auto consistent = [&](double y) {
        for (std::size_t k = 0; k < g.size(); ++k)
          if (nearest_integer(y / g[k]) != m[k]) return false;
        return true;
      };
      int steps = 0;
      while (!consistent(x) && steps++ < 64) x = std::nextafter(x, at_low ? b : a);
      if (!consistent(x)) return;
    }
    if (x < a || x >= b) return;  // an empty interval
    const double error = std::max(vmax / x - 1, 1 - vmin / x);
    if (best_error < 0 || error <= best_error) {
      best_error = error;
      beta = x;
    }
  };
  // The breakpoints in increasing order, each load's in turn: a merge of
  // the loads' sequences (a heap holds each load's next breakpoint), equal
  // breakpoints taken together.
  using entry = std::pair<double, std::size_t>;
  std::priority_queue<entry, std::vector<entry>, std::greater<entry>> upcoming;
  std::vector<double>& next_j = first_j;  // (each load's next breakpoint, from here on)
  for (std::size_t k = 0; k < g.size(); ++k)
    if (next_j[k] <= last_j[k]) upcoming.emplace((next_j[k] + 0.5) * g[k], k);
  while (!upcoming.empty()) {
    const double b = upcoming.top().first;
    if (b > a) evaluate(b);
    while (!upcoming.empty() && upcoming.top().first == b) {
      const std::size_t k = upcoming.top().second;
      upcoming.pop();
      m[k] += 1;
      set_product(k);
      largest = std::max(largest, m[k] * g[k]);
      next_j[k] += 1;
      if (next_j[k] <= last_j[k]) upcoming.emplace((next_j[k] + 0.5) * g[k], k);
    }
    a = b;
  }
  evaluate(hi);
  return true;
}

}  // namespace detail

/// Integer inverse weights of M = `bits` bits for the given loads.
inline quantized_weights weights_from_loads(const load_matrix& loads, unsigned bits,
                                            std::uint64_t idle_inputs = 0) {
  detail::check_loads(loads, idle_inputs);
  detail::require_in_range("inverse weights", "M (weight bits)", bits, 1, 31);
  double swept = 0;
  if (detail::sweep_beta(loads, bits, swept) && swept > 0) {
    bool fits = false;
    const quantized_weights q = detail::weights_at(loads, bits, swept, fits);
    if (fits) return q;
  }
  const double least = detail::smallest_positive_load(loads);
  const std::uint64_t top = (std::uint64_t{1} << bits) - 1;
  quantized_weights best;
  best.bits = bits;
  best.max_relative_error = -1;
  const std::uint64_t tries = top < 4096 ? top : 4096;
  for (std::uint64_t k = 0; k < tries; ++k) {
    bool fits = false;
    const quantized_weights q =
        detail::weights_at(loads, bits, static_cast<double>(top - k) * least, fits);
    if (!fits) continue;
    if (best.max_relative_error < 0 || q.max_relative_error < best.max_relative_error) best = q;
    if (best.max_relative_error == 0) break;
  }
  if (best.max_relative_error < 0) {
    double most = 0;
    for (const auto& row : loads)
      for (double g : row) most = std::max(most, g);
    throw config_error("inverse weights", "M (weight bits)", std::to_string(bits),
                       "enough bits for the load ratio " + std::to_string(most / least) +
                           " (the largest load's weight rounds to 0)");
  }
  return best;
}

/// The smallest M (up to max_bits) whose weights are within
/// `max_relative_error` of the exact inverse loads.
inline quantized_weights weights_for_accuracy(const load_matrix& loads, double max_relative_error,
                                              std::uint64_t idle_inputs = 0,
                                              unsigned max_bits = 31) {
  detail::check_loads(loads, idle_inputs);
  if (!(max_relative_error >= 0)) {
    throw config_error("inverse weights", "accuracy", std::to_string(max_relative_error), ">= 0");
  }
  for (unsigned bits = 1; bits <= max_bits && bits <= 31; ++bits) {
    const double least = detail::smallest_positive_load(loads);
    double most = 0;
    for (const auto& row : loads)
      for (double g : row) most = std::max(most, g);
    if (static_cast<double>((std::uint64_t{1} << bits) - 1) * least / most < 0.5) continue;
    const quantized_weights q = weights_from_loads(loads, bits, idle_inputs);
    if (q.max_relative_error <= max_relative_error) return q;
  }
  throw config_error("inverse weights", "accuracy", std::to_string(max_relative_error),
                     "reachable with at most " + std::to_string(max_bits) + " weight bits");
}

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_INVERSE_WEIGHTS_HPP
