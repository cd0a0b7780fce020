// SPDX-License-Identifier: BSL-1.0
// interlock/verify/fairness_metrics.hpp: the two numbers the papers judge fairness by.
//
// Contract
//   jain_index(x) = (sum x)^2 / (n sum x^2): 1 when every value is equal,
//   1/n when one holds everything; 1 for no values or all zero.
//   max_min(x): the largest over the smallest of x's positive values (1
//   when there are none): [Abts07]'s spread of per-source figures, which
//   leaves out sources that measured nothing.
//   Both are offline summaries of a run: they allocate nothing and never
//   throw.
//
// Example
//   std::vector<double> shares{0.5, 0.25, 0.25};
//   double j = interlock::verify::jain_index(shares);   // 0.889
//   double m = interlock::verify::max_min(shares);      // 2
#ifndef INTERLOCK_VERIFY_FAIRNESS_METRICS_HPP
#define INTERLOCK_VERIFY_FAIRNESS_METRICS_HPP

#include <algorithm>
#include <vector>

namespace interlock::verify {

/// Jain's fairness index of x: (sum x)^2 / (n sum x^2); 1 when all are equal.
inline double jain_index(const std::vector<double>& x) {
  double sum = 0, squares = 0;
  for (const double v : x) {
    sum += v;
    squares += v * v;
  }
  if (x.empty() || squares == 0) return 1;
  return sum * sum / (static_cast<double>(x.size()) * squares);
}

/// max/min of the positive values of x (1 when there are none).
inline double max_min(const std::vector<double>& x) {
  double lo = 0, hi = 0;
  bool any = false;
  for (const double v : x) {
    if (!(v > 0)) continue;
    lo = any ? std::min(lo, v) : v;
    hi = any ? std::max(hi, v) : v;
    any = true;
  }
  return any ? hi / lo : 1;
}

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_FAIRNESS_METRICS_HPP
