// SPDX-License-Identifier: BSL-1.0
// interlock/qos/dtable_config.hpp: the DTable configuration methodology and bandwidth correction.
//
// Models [QoSThesis], Sections 4.3.3.2-4.3.3.3 and 5.4.4 (Tables 4.3-4.5). A
// table of N entries, a general MTU (GMTU) and decoupling parameters w and k
// give the maximum entry weight M = GMTU * w and the bandwidth pool
// pool = N * GMTU * k (k <= w). An SL with n_i entries and MTU_i can then be
// given any share phi_i in
//     min_phi_i = n_i * MTU_i / pool,   max_phi_i = n_i * M / pool = n_i * w / (N * k).
// plan_dtable() turns requested shares into a table, as Section 4.3.3.3 does:
//   1. Tweight_i = pool * phi_i; entry weight EW_i = ceil(Tweight_i / n_i),
//      never below MTU_i; the SL's weight sum n_i * EW_i;
//   2. the real share R_phi_i = n_i * EW_i / sum_j n_j * EW_j;
//   3. Dweight_i = -Round((R_phi_i - phi_i) * sum_j n_j * EW_j) (half away
//      from zero), computed exactly as Round(n_i EW_i - phi_i sum_j n_j
//      EW_j) in integers (round_weight_error), so an exact half rounds away
//      from zero whatever floating point would make of it; F_weight_i = n_i * EW_i + Dweight_i,
//      F_phi_i its share;
//   4. the table: each SL's n_i entries spread evenly (dtable_layout), every
//      entry EW_i, then apply_bandwidth_correction() adds Dweight_i one unit
//      per entry, walking the SL's entries from the end of the table
//      backwards, round robin, skipping an entry that would fall below MTU_i
//      (Table 4.5). M bounds the entry weights of step 1, not the
//      correction: Table 4.4's own correction takes 21 of SL1's entries from
//      12 = M to 13, and we reproduce it.
//
// Table 4.4 prints R_phi_i - phi_i as 0.03502 and -0.01751 where exact
// arithmetic gives 0.03508 and -0.01754: the printed column subtracts phi
// rounded to four decimals (0.3334, 0.3333). Dweight (-43, 21, 21) and every
// other column agree either way; the tests check both readings.
//
// w and k are real numbers: Section 5.5.3 adjusts them in steps of 0.1 and
// configures Table 5.4 with w = 3, k = 0.5 (pool = 64 * 32 * 0.5 = 1024).
// M = GMTU * w is rounded down to a whole weight.
//
// Contract
//   - dtable_parameters{entries N 1..256, gmtu >= 1, w > 0 with 1 <= GMTU * w
//     <= the scheduler's largest weight, k in (0, w] with N * GMTU * k >= 1};
//     dtable_sl{entries n_i >= 1, mtu 1..M}; the n_i sum to N (every entry
//     belongs to an SL). config_error names the field otherwise.
//   - plan_dtable(): phi_i in [min_phi_i, max_phi_i] (1e-9 slack) and
//     sum phi_i <= 1, else config_error naming the SL, its phi and the range.
//     The plan's table feeds dtable_scheduler directly.
//   - apply_bandwidth_correction(): config_error when an SL's entries cannot
//     absorb its Dweight within [MTU_i, max_weight] (the scheduler's limit).
//   Complexity: O(N * SLs) for the layout, O(N + |Dweight| ) for the correction.
//
// Example (Table 4.4)
//   auto plan = interlock::qos::plan_dtable({128, 3, 4, 3}, {{64, 1}, {32, 2}, {32, 3}},
//                                           {0.33334, 0.33333, 0.33333});
//   // plan.pool == 1152, plan.sls[0].entry_weight == 7, plan.sls[0].dweight == -43
//   interlock::qos::dtable_scheduler d(plan.table, {0, 1, 2}, {1, 2, 3});
#ifndef INTERLOCK_QOS_DTABLE_CONFIG_HPP
#define INTERLOCK_QOS_DTABLE_CONFIG_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "interlock/core/config_error.hpp"
#include "interlock/qos/dtable.hpp"

namespace interlock {
namespace qos {

struct dtable_parameters {
  std::size_t entries = 0;  // N
  std::uint32_t gmtu = 0;   // GMTU, credits
  double w = 0;             // maximum weight decoupling parameter
  double k = 0;             // bandwidth pool decoupling parameter
};

struct dtable_sl {
  std::size_t entries = 0;  // n_i
  std::uint32_t mtu = 0;    // MTU_i, credits
};

/// One SL's row of Table 4.4.
struct dtable_sl_plan {
  double min_phi = 0, max_phi = 0, phi = 0;
  double total_weight = 0;         // Tweight_i = pool * phi_i
  std::uint32_t entry_weight = 0;  // E.W.: ceil(Tweight_i / n_i), at least MTU_i
  std::uint64_t weight_sum = 0;    // n_i * EW_i
  double real_phi = 0;             // R_phi_i
  double error = 0;                // R_phi_i - phi_i
  std::int64_t dweight = 0;        // Dweight_i
  std::uint64_t final_weight = 0;  // F_weight_i, as the corrected table holds it
  double final_phi = 0;            // F_phi_i
};

struct dtable_plan {
  std::uint32_t max_entry_weight = 0;  // M, rounded down to a whole weight
  double pool = 0;                     // N * GMTU * k
  std::vector<dtable_sl_plan> sls;
  std::uint64_t weight_total = 0;  // sum of n_i * EW_i (before correction)
  std::uint64_t final_total = 0;   // after correction
  std::vector<dtable_entry> table;
};

}  // namespace qos

// QoS helpers live in interlock::detail with the others.
namespace detail {

inline void check_dtable_shape(const qos::dtable_parameters& p,
                               const std::vector<qos::dtable_sl>& sls) {
  require_in_range("dtable configuration", "N", p.entries, 1, qos::deficit_table::max_entries);
  require_in_range("dtable configuration", "GMTU", p.gmtu, 1, qos::deficit_table::max_mtu);
  const auto real = [](double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", x);
    return std::string(text);
  };
  const double w_max = double(qos::deficit_table::max_weight) / p.gmtu;
  if (!(p.w * p.gmtu >= 1 && p.w <= w_max)) {
    throw config_error("dtable configuration", "w", real(p.w),
                       "GMTU * w >= 1 and w <= " + real(w_max) +
                           " (M = GMTU * w within the scheduler's largest weight)");
  }
  if (!(p.k > 0 && p.k <= p.w && std::floor(double(p.entries) * p.gmtu * p.k) >= 1)) {
    throw config_error("dtable configuration", "k", real(p.k),
                       "0 < k <= w (" + real(p.w) + "), with a pool N * GMTU * k >= 1");
  }
  require_in_range("dtable configuration", "SL count", sls.size(), 1, qos::deficit_table::max_sls);
  const auto max_weight = static_cast<std::uint64_t>(std::floor(p.gmtu * p.w + 1e-9));
  std::size_t total = 0;
  for (std::size_t i = 0; i < sls.size(); ++i) {
    const std::string sl = "SL" + std::to_string(i);
    require_in_range("dtable configuration", sl + " n_i", sls[i].entries, 1, p.entries);
    require_in_range("dtable configuration", sl + " MTU_i", sls[i].mtu, 1, max_weight);
    total += sls[i].entries;
  }
  if (total != p.entries) {
    throw config_error("dtable configuration", "sum of n_i", std::to_string(total),
                       "N = " + std::to_string(p.entries) + " (every entry belongs to one SL)");
  }
}

}  // namespace detail

namespace qos {

/// Round(weight_sum - phi * total), half away from zero, computed exactly:
/// phi is a double, so phi * total is mant * total * 2^-shift with integers
/// (mant < 2^53, total < 2^33), a 128-bit product; no floating-point
/// rounding can move a value across a half. (Floating point gave 2.4999...
/// for an exact 2.5 and rounded it the wrong way.)
inline std::int64_t round_weight_error(std::uint64_t weight_sum, double phi, std::uint64_t total) {
  if (!(phi > 0) || total == 0) return static_cast<std::int64_t>(weight_sum);
  int e = 0;
  const double m = std::frexp(phi, &e);  // phi = m * 2^e, m in [0.5, 1)
  const auto mant = static_cast<std::uint64_t>(std::ldexp(m, 53));
  const int shift = 53 - e;  // phi = mant * 2^-shift; phi <= 1 gives shift >= 52
  // P = mant * total as 128 bits (hi, lo), from 32-bit halves.
  const std::uint64_t a0 = mant & 0xFFFFFFFFu, a1 = mant >> 32;
  const std::uint64_t b0 = total & 0xFFFFFFFFu, b1 = total >> 32;
  const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const std::uint64_t middle = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
  const std::uint64_t lo = (p00 & 0xFFFFFFFFu) | (middle << 32);
  const std::uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
  // q = floor(P / 2^shift), and how the remainder f = (P mod 2^shift) / 2^shift compares with 1/2.
  std::uint64_t q = 0;
  int half = 0;       // -1: f < 1/2, 0: f == 1/2, +1: f > 1/2
  bool zero = false;  // f == 0
  if (shift >= 128) {
    q = 0;
    half = -1;
    zero = hi == 0 && lo == 0;
  } else {
    const auto bit = [&](int i) { return i < 64 ? (lo >> i & 1u) : (hi >> (i - 64) & 1u); };
    q = shift >= 64 ? (shift >= 128 ? 0 : hi >> (shift - 64))
                    : (lo >> shift) | (shift == 0 ? 0 : hi << (64 - shift));
    // Below bit shift - 1 (the half bit): any set bit?
    bool below = false;
    for (int i = 0; i < shift - 1 && !below; ++i) below = bit(i) != 0;
    const bool top = shift >= 1 && bit(shift - 1) != 0;
    half = !top ? -1 : (below ? +1 : 0);
    zero = !top && !below;
  }
  // V = D - f with D = weight_sum - q; round half away from zero.
  const std::int64_t d = static_cast<std::int64_t>(weight_sum) - static_cast<std::int64_t>(q);
  const bool negative = d < 0 || (d == 0 && !zero);
  const bool down = half > 0 || (half == 0 && negative);
  return d - (down ? 1 : 0);
}

/// Entries n_i of each SL spread over N positions as evenly as possible:
/// SLs with more entries first (ties by SL), each from the first free
/// position with stride N / n_i, a taken position moving to the next free
/// one. Reproduces Table 4.5's layout (0 1 0 2 0 1 0 2).
inline std::vector<std::uint8_t> dtable_layout(std::size_t n, const std::vector<std::size_t>& n_i) {
  std::vector<std::size_t> order(n_i.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return n_i[a] > n_i[b]; });
  constexpr std::uint8_t free_slot = 0xFF;
  std::vector<std::uint8_t> layout(n, free_slot);
  auto next_free = [&](std::size_t from) {
    for (std::size_t step = 0; step < n; ++step)
      if (layout[(from + step) % n] == free_slot) return (from + step) % n;
    return n;
  };
  for (std::size_t sl : order) {
    const std::size_t start = next_free(0);
    for (std::size_t j = 0; j < n_i[sl]; ++j) {
      const std::size_t at = next_free(start + j * n / n_i[sl]);
      if (at == n) {
        throw config_error("dtable_layout", "sum of n_i", "more than " + std::to_string(n),
                           "at most N = " + std::to_string(n));
      }
      layout[at] = static_cast<std::uint8_t>(sl);
    }
  }
  return layout;
}

/// Adds dweight[sl] to SL sl's entries one unit at a time, from the end of
/// the table backwards, round robin, keeping each weight in [mtu[sl], max_weight].
/// plan_dtable() passes the scheduler's limit as max_weight, not M (Table 4.4).
inline void apply_bandwidth_correction(std::vector<dtable_entry>& table,
                                       const std::vector<std::int64_t>& dweight,
                                       const std::vector<std::uint32_t>& mtu,
                                       std::uint32_t max_weight) {
  for (std::size_t sl = 0; sl < dweight.size(); ++sl) {
    std::int64_t left = dweight[sl];
    const int step = left < 0 ? -1 : 1;
    while (left != 0) {
      bool changed = false;
      for (std::size_t i = table.size(); i-- > 0 && left != 0;) {
        dtable_entry& e = table[i];
        if (e.sl != sl) continue;
        const std::int64_t next = std::int64_t{e.weight} + step;
        if (next < std::int64_t{sl < mtu.size() ? mtu[sl] : 1} || next > max_weight) continue;
        e.weight = static_cast<std::uint32_t>(next);
        left -= step;
        changed = true;
      }
      if (!changed) {
        throw config_error(
            "dtable bandwidth correction", "Dweight of SL" + std::to_string(sl),
            std::to_string(dweight[sl]),
            "a change SL" + std::to_string(sl) + "'s entries can absorb within [MTU_i, " +
                std::to_string(max_weight) + "]; " + std::to_string(left) + " left over");
      }
    }
  }
}

/// The bounds of Section 4.3.3.2 for each SL, without choosing shares.
inline dtable_plan dtable_bounds(const dtable_parameters& p, const std::vector<dtable_sl>& sls) {
  detail::check_dtable_shape(p, sls);
  dtable_plan plan;
  plan.max_entry_weight = static_cast<std::uint32_t>(std::floor(p.gmtu * p.w + 1e-9));
  plan.pool = double(p.entries) * p.gmtu * p.k;
  plan.sls.resize(sls.size());
  for (std::size_t i = 0; i < sls.size(); ++i) {
    plan.sls[i].min_phi = double(sls[i].entries) * sls[i].mtu / plan.pool;
    plan.sls[i].max_phi = double(sls[i].entries) * plan.max_entry_weight / plan.pool;
  }
  return plan;
}

/// The methodology and bandwidth correction of Sections 4.3.3.2-4.3.3.3.
inline dtable_plan plan_dtable(const dtable_parameters& p, const std::vector<dtable_sl>& sls,
                               const std::vector<double>& phi) {
  dtable_plan plan = dtable_bounds(p, sls);
  if (phi.size() != sls.size()) {
    throw config_error("plan_dtable", "number of shares", std::to_string(phi.size()),
                       std::to_string(sls.size()) + " (one per SL)");
  }
  constexpr double slack = 1e-9;
  double phi_total = 0;
  for (std::size_t i = 0; i < sls.size(); ++i) {
    dtable_sl_plan& s = plan.sls[i];
    if (!(phi[i] >= s.min_phi - slack && phi[i] <= s.max_phi + slack)) {
      throw config_error("plan_dtable", "phi of SL" + std::to_string(i), std::to_string(phi[i]),
                         "[min_phi, max_phi] = [" + std::to_string(s.min_phi) + ", " +
                             std::to_string(s.max_phi) + "]");
    }
    phi_total += phi[i];
    s.phi = phi[i];
    s.total_weight = plan.pool * phi[i];
    const double per_entry = std::ceil(s.total_weight / double(sls[i].entries) - slack);
    s.entry_weight = std::max(sls[i].mtu, static_cast<std::uint32_t>(per_entry));
    s.weight_sum = std::uint64_t{s.entry_weight} * sls[i].entries;
    plan.weight_total += s.weight_sum;
  }
  if (phi_total > 1 + slack) {
    throw config_error("plan_dtable", "sum of phi", std::to_string(phi_total), "at most 1");
  }
  std::vector<std::int64_t> dweight(sls.size());
  std::vector<std::uint32_t> mtu(sls.size());
  for (std::size_t i = 0; i < sls.size(); ++i) {
    dtable_sl_plan& s = plan.sls[i];
    s.real_phi = double(s.weight_sum) / double(plan.weight_total);
    s.error = s.real_phi - s.phi;
    s.dweight = -round_weight_error(s.weight_sum, s.phi, plan.weight_total);
    dweight[i] = s.dweight;
    mtu[i] = sls[i].mtu;
  }
  std::vector<std::size_t> n_i(sls.size());
  for (std::size_t i = 0; i < sls.size(); ++i) n_i[i] = sls[i].entries;
  const std::vector<std::uint8_t> layout = dtable_layout(p.entries, n_i);
  plan.table.resize(p.entries);
  for (std::size_t e = 0; e < p.entries; ++e)
    plan.table[e] = dtable_entry{layout[e], plan.sls[layout[e]].entry_weight};
  apply_bandwidth_correction(plan.table, dweight, mtu, deficit_table::max_weight);
  for (const dtable_entry& e : plan.table) {
    plan.sls[e.sl].final_weight += e.weight;
    plan.final_total += e.weight;
  }
  for (dtable_sl_plan& s : plan.sls)
    s.final_phi = double(s.final_weight) / double(plan.final_total);
  return plan;
}

}  // namespace qos
}  // namespace interlock

#endif  // INTERLOCK_QOS_DTABLE_CONFIG_HPP
