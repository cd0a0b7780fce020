// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/inverse_weighted_form.hpp: the three ways exact Eq. 3 and Figure 6/8's
// hardware model differ, as independent options, and what an arbiter of the family counts.
//
// Models [Towles14] Section 3 (Eq. 3), Section 3.3 and Figures 6 and 8. Exact
// Eq. 3 (inverse_weighted_exact.hpp) and the hardware model
// (inverse_weighted.hpp) differ at once in
//   ordering      two_level: Figure 8's two priority levels (an input is high
//                 while its accumulator lies below the window's base plus
//                 one quantum, 2^M), ties and each level round robin;
//                 full: the lowest accumulator wins, ties round robin;
//   quantization  m_bit: Section 3.3's M-bit weights nint(beta / gamma);
//                 real: the weights 1 / gamma in double precision, the
//                 quantum 2^M / beta (the same window in packets);
//   history       window: Figure 6's window of 2^(M+1) values: a grant to a
//                 low input (no requester high) slides the base up by one
//                 quantum and lifts every accumulator below the new base to
//                 it (the clamp to zero);
//                 unbounded: accumulators only grow;
//                 bounded_lag: after each grant no accumulator lies more than
//                 `lag` quanta below the smallest requester's.
// inverse_weighted_form names one combination; its text form is
// ORDERING.QUANTIZATION.HISTORY with the words levels|full, mbit|real,
// window|unbounded|lagL (L = 1..64 quanta), e.g. "levels.mbit.window" (the
// hardware model) or "full.real.unbounded" (exact Eq. 3).
//
// Contract
//   - parse_inverse_weighted_form(text) throws config_error naming the part
//     of the text that is wrong and what is allowed; name() is its inverse.
//   - inverse_weighted_counts: what an inverse_weighted_family arbiter
//     counted since its counters were last reset, summable over arbiters.
//     quota_lost is in quanta; a ratio over no grants is none (a NaN the
//     caller prints as "none"), never 0.
#ifndef INTERLOCK_ARBITERS_INVERSE_WEIGHTED_FORM_HPP
#define INTERLOCK_ARBITERS_INVERSE_WEIGHTED_FORM_HPP

#include <cstdint>
#include <limits>
#include <string>

#include "interlock/core/config_error.hpp"

namespace interlock {

enum class iw_ordering : std::uint8_t { two_level, full };
enum class iw_quantization : std::uint8_t { m_bit, real };
enum class iw_history : std::uint8_t { window, unbounded, bounded_lag };

/// One combination of the three options.
struct inverse_weighted_form {
  iw_ordering ordering = iw_ordering::two_level;
  iw_quantization quantization = iw_quantization::m_bit;
  iw_history history = iw_history::window;
  unsigned lag = 2;  // bounded_lag: quanta an accumulator may lie below the smallest requester's

  static constexpr unsigned max_lag = 64;

  /// Figure 6/8's hardware model.
  static constexpr inverse_weighted_form hardware() noexcept { return {}; }
  /// Eq. 3 exactly.
  static constexpr inverse_weighted_form exact() noexcept {
    return {iw_ordering::full, iw_quantization::real, iw_history::unbounded, 2};
  }

  /// ORDERING.QUANTIZATION.HISTORY, e.g. "levels.mbit.window".
  std::string name() const {
    std::string s = ordering == iw_ordering::two_level ? "levels." : "full.";
    s += quantization == iw_quantization::m_bit ? "mbit." : "real.";
    if (history == iw_history::window) return s + "window";
    if (history == iw_history::unbounded) return s + "unbounded";
    return s + "lag" + std::to_string(lag);
  }
  /// Whether a base slides by a quantum at a low grant (two levels, or the window).
  constexpr bool slides() const noexcept {
    return ordering == iw_ordering::two_level || history == iw_history::window;
  }

  friend constexpr bool operator==(const inverse_weighted_form& a,
                                   const inverse_weighted_form& b) noexcept {
    return a.ordering == b.ordering && a.quantization == b.quantization && a.history == b.history &&
           (a.history != iw_history::bounded_lag || a.lag == b.lag);
  }
  friend constexpr bool operator!=(const inverse_weighted_form& a,
                                   const inverse_weighted_form& b) noexcept {
    return !(a == b);
  }
};

/// The form a text names, ORDERING.QUANTIZATION.HISTORY (config_error otherwise).
inline inverse_weighted_form parse_inverse_weighted_form(const std::string& text) {
  const std::string allowed =
      "ORDERING.QUANTIZATION.HISTORY: levels|full . mbit|real . window|unbounded|lagL (L = 1.." +
      std::to_string(inverse_weighted_form::max_lag) + ")";
  const std::size_t a = text.find('.');
  const std::size_t b = a == std::string::npos ? a : text.find('.', a + 1);
  if (b == std::string::npos || text.find('.', b + 1) != std::string::npos)
    throw config_error("inverse_weighted_form", "form", "'" + text.substr(0, 80) + "'", allowed);
  const std::string o = text.substr(0, a), q = text.substr(a + 1, b - a - 1),
                    h = text.substr(b + 1);
  inverse_weighted_form f;
  if (o == "full")
    f.ordering = iw_ordering::full;
  else if (o != "levels")
    throw config_error("inverse_weighted_form", "ordering", "'" + o.substr(0, 40) + "'",
                       "levels or full");
  if (q == "real")
    f.quantization = iw_quantization::real;
  else if (q != "mbit")
    throw config_error("inverse_weighted_form", "quantization", "'" + q.substr(0, 40) + "'",
                       "mbit or real");
  if (h == "unbounded") {
    f.history = iw_history::unbounded;
  } else if (h.compare(0, 3, "lag") == 0) {
    f.history = iw_history::bounded_lag;
    const std::string digits = h.substr(3);
    unsigned v = 0;
    bool ok = !digits.empty() && digits.size() <= 2 && digits[0] != '0';
    for (char c : digits) {
      ok = ok && c >= '0' && c <= '9';
      v = v * 10 + static_cast<unsigned>(c - '0');
    }
    if (!ok || v < 1 || v > inverse_weighted_form::max_lag)
      throw config_error("inverse_weighted_form", "lag", "'" + digits.substr(0, 40) + "'",
                         "1.." + std::to_string(inverse_weighted_form::max_lag) + " quanta");
    f.lag = v;
  } else if (h != "window") {
    throw config_error("inverse_weighted_form", "history", "'" + h.substr(0, 40) + "'",
                       "window, unbounded or lagL");
  }
  return f;
}

/// What an inverse_weighted_family arbiter counted, summable over arbiters.
struct inverse_weighted_counts {
  std::uint64_t grants = 0;
  std::uint64_t slides = 0;  // low grants that slid the base
  // Inputs that came back to request and found their accumulator lifted by
  // the history rule (window: zeroed; lag: lifted), and the quota they lost:
  // how far they were lifted, in quanta.
  std::uint64_t zeroed = 0;
  double quota_lost = 0;
  // The spread of the accumulators among an arbitration's requesters
  // (largest minus smallest, in quanta), at every committed grant with two
  // or more requesters.
  std::uint64_t spread_samples = 0;
  double spread_sum = 0, spread_max = 0;

  inverse_weighted_counts& operator+=(const inverse_weighted_counts& o) noexcept {
    grants += o.grants;
    slides += o.slides;
    zeroed += o.zeroed;
    quota_lost += o.quota_lost;
    spread_samples += o.spread_samples;
    spread_sum += o.spread_sum;
    spread_max = o.spread_max > spread_max ? o.spread_max : spread_max;
    return *this;
  }
  static constexpr double none = std::numeric_limits<double>::quiet_NaN();
  /// Quanta lost per grant (none without grants).
  double quota_lost_per_grant() const noexcept {
    return grants == 0 ? none : quota_lost / static_cast<double>(grants);
  }
  /// Inputs zeroed per grant (none without grants).
  double zeroed_per_grant() const noexcept {
    return grants == 0 ? none : static_cast<double>(zeroed) / static_cast<double>(grants);
  }
  /// The mean spread in quanta (none without samples).
  double spread_mean() const noexcept {
    return spread_samples == 0 ? none : spread_sum / static_cast<double>(spread_samples);
  }
};

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_INVERSE_WEIGHTED_FORM_HPP
