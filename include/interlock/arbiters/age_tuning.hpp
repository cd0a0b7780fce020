// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/age_tuning.hpp: deriving the aging parameters (age bias, AGE_CLK_PERIOD).
//
// Models Abts & Weisser (SC'07), Section 3 and Equations 4-16. The extracted
// text of the equations is garbled; each formula below was rebuilt from the
// surrounding prose and checked against the paper's worked example (the
// 11,12,16 torus). Dimensions are given in routing order (x, y, z for the
// SeaStar's dimension-order routing), each a mesh or a torus of radix k >= 2.
//
//   Eq. 4-7  average hops per dimension: k/4 (torus), (k+1)/3 (mesh);
//            the network's average is the sum over dimensions.
//            (k/4 is exact for even k counting a node's own ordinate;
//            (k+1)/3 is exact over distinct source-destination pairs.)
//   Eq. 8-9  average channel load under uniform traffic: k/8 (torus), k/4 (mesh).
//   Eq. 10-13 probability that a packet leaves the network from dimension d
//            (its last routed dimension): ((k_d - 1)/k_d) * prod over later
//            dimensions e of 1/k_e, and for the last dimension 1 minus the
//            others (Eq. 12 keeps the packets already at their destination
//            there); each direction gets half (Eq. 13).
//   Eq. 14-16 utilization bound per dimension, from the last one back:
//            U_last = min(B_c * c/k_last, E_p), U_d = min(B_c * c/k_d, U_next),
//            with c = 8 for a torus and 4 for a mesh (the paper's
//            substitution for meshes).
//   Age bias: with dimension-order routing a packet in an earlier dimension
//            has more hops left, so bias_x > bias_y > bias_z: dor_age_biases
//            gives n, n-1, ..., 1 (3/2/1 for three dimensions).
//            load_proportional_biases is the paper's alternative for mixed
//            radix (bias in proportion to channel load: 16,12,8 -> 2,2,1).
//   Section 3.2 AGE_CLK_PERIOD:
//            whole hops H_d = nearest integer of the Eq. 4-7 term (the paper
//            writes 2.75 as 3: "3+3+4 = 10"), H = sum H_d;
//            T_bias = sum H_d * bias_d (19);
//            age ticks per hop = round((target - T_bias) / H) (109/10 -> 11);
//            packets queued per hop = floor(input buffer / max packet) +
//            floor(staging buffer / max packet) (10 + 1 = 11);
//            cycles per packet = VCs sharing the link x max packet (2 x 9 = 18);
//            queueing per hop = packets x cycles (198);
//            AGE_CLK_PERIOD = round(queueing per hop / age ticks per hop) (18).
//   Rounding. The paper does not say how it rounds; interlock rounds half
//   away from zero (std::lround) at each of the three places it rounds: the
//   whole hops per dimension, the age ticks per hop and AGE_CLK_PERIOD; the
//   buffer counts are floors (whole packets). The choice shows: an 8x8x8
//   mesh gives 198 / 12 = 16.5 cycles per age tick, so AGE_CLK_PERIOD 17
//   here and 16 under rounding half down or to even (a test names it).
//
// Contract
//   Offline functions, not on any decision path; they allocate freely and
//   throw config_error for a radix outside 2..65535, no or more than 8
//   dimensions, a bias above 7, mismatched lengths, a target age outside
//   1..255 (ages are 8 bits), VCs per link outside 1..64, a max packet
//   outside 1..65535 flits, an input buffer smaller than a packet or above
//   2^20 flits, a staging buffer above 2^20 flits, or inputs that leave no
//   age range for queueing.
//
// Example
//   using namespace interlock::age_tuning;
//   auto r = recommend_age_clock({{{11}, {12}, {16}}});    // torus, biases 3/2/1
//   assert(r.hops == 10 && r.bias_contribution == 19 && r.age_clk_period == 18);
#ifndef INTERLOCK_ARBITERS_AGE_TUNING_HPP
#define INTERLOCK_ARBITERS_AGE_TUNING_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/core/config_error.hpp"

namespace interlock::age_tuning {

enum class wrap { mesh, torus };

struct dimension {
  std::size_t radix;
  wrap kind = wrap::torus;
};

namespace detail {
inline void check(const dimension& d) {
  if (d.radix < 2) {
    throw config_error("age_tuning", "radix", std::to_string(d.radix), "at least 2");
  }
  if (d.radix > 65535) {  // as torus_topology; whole hops then fit any unsigned
    throw config_error("age_tuning", "radix", std::to_string(d.radix),
                       "at most 65535 (a torus_topology's limit)");
  }
}
inline void check(const std::vector<dimension>& dims) {
  if (dims.empty()) throw config_error("age_tuning", "dimensions", "none", "at least one");
  if (dims.size() > 8) {
    throw config_error("age_tuning", "dimensions", std::to_string(dims.size()), "1..8");
  }
  for (const dimension& d : dims) check(d);
}
inline unsigned nearest(double x) { return static_cast<unsigned>(std::lround(x)); }
}  // namespace detail

/// Eq. 5 / Eq. 7 term: average hops in one dimension.
inline double average_hops(dimension d) {
  detail::check(d);
  const double k = static_cast<double>(d.radix);
  return d.kind == wrap::torus ? k / 4.0 : (k + 1.0) / 3.0;
}

/// Eq. 4-7: average hops of the network.
inline double average_hops(const std::vector<dimension>& dims) {
  detail::check(dims);
  double h = 0;
  for (const dimension& d : dims) h += average_hops(d);
  return h;
}

/// The paper's whole number of hops in a dimension (2.75 -> 3).
inline unsigned whole_hops(dimension d) { return detail::nearest(average_hops(d)); }

/// Eq. 8 / Eq. 9: average channel load under uniform traffic.
inline double channel_load(dimension d) {
  detail::check(d);
  const double k = static_cast<double>(d.radix);
  return d.kind == wrap::torus ? k / 8.0 : k / 4.0;
}

/// Eq. 10-12, in routing order: the probability that a packet leaves the
/// network from each dimension. Each direction of a dimension gets half (Eq. 13).
inline std::vector<double> ejection_probabilities(const std::vector<dimension>& route_order) {
  detail::check(route_order);
  const std::size_t n = route_order.size();
  std::vector<double> p(n, 0.0);
  double others = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double k = static_cast<double>(route_order[i].radix);
    double at_later_ordinates = 1;
    for (std::size_t j = i + 1; j < n; ++j)
      at_later_ordinates /= static_cast<double>(route_order[j].radix);
    p[i] = (k - 1) / k * at_later_ordinates;
    others += p[i];
  }
  p[n - 1] = 1 - others;
  return p;
}

/// Eq. 14-16, in routing order: the rate at which each dimension can eject
/// packets, bounded by its channel bandwidth and by the next dimension (the
/// last by the processor's ejection bandwidth). Units are those of the inputs.
inline std::vector<double> utilization_bounds(const std::vector<dimension>& route_order,
                                              double channel_bandwidth, double ejection_bandwidth) {
  detail::check(route_order);
  std::vector<double> u(route_order.size());
  double next = ejection_bandwidth;
  for (std::size_t i = route_order.size(); i-- > 0;) {
    const double c = route_order[i].kind == wrap::torus ? 8.0 : 4.0;
    u[i] = std::min(channel_bandwidth * c / static_cast<double>(route_order[i].radix), next);
    next = u[i];
  }
  return u;
}

/// Biases for dimension-order routing: the first routed dimension gets the
/// largest, n, n-1, ..., 1 (3/2/1 for x, y, z), capped at 7.
inline std::vector<std::uint8_t> dor_age_biases(std::size_t dimensions) {
  std::vector<std::uint8_t> b(dimensions);
  for (std::size_t i = 0; i < dimensions; ++i)
    b[i] = static_cast<std::uint8_t>(std::min<std::size_t>(dimensions - i, 7));
  return b;
}

/// Biases in proportion to each dimension's channel load, the least-loaded
/// dimension getting 1, rounded and capped at 7 (16,12,8 torus -> 2,2,1).
inline std::vector<std::uint8_t> load_proportional_biases(const std::vector<dimension>& dims) {
  detail::check(dims);
  double least = channel_load(dims[0]);
  for (const dimension& d : dims) least = std::min(least, channel_load(d));
  std::vector<std::uint8_t> b;
  for (const dimension& d : dims)
    b.push_back(static_cast<std::uint8_t>(std::min(7u, detail::nearest(channel_load(d) / least))));
  return b;
}

/// Section 3.2: T_bias, the age the biases add on an average route.
inline unsigned bias_contribution(const std::vector<dimension>& dims,
                                  const std::vector<std::uint8_t>& biases) {
  detail::check(dims);
  if (biases.size() != dims.size()) {
    throw config_error("age_tuning", "biases", std::to_string(biases.size()) + " values",
                       "one per dimension, " + std::to_string(dims.size()));
  }
  unsigned t = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (biases[i] > 7) {
      throw config_error("age_tuning", "bias of dimension " + std::to_string(i),
                         std::to_string(biases[i]), "0..7");
    }
    t += whole_hops(dims[i]) * biases[i];
  }
  return t;
}

/// The inputs of Section 3.2; the defaults are the SeaStar's.
struct age_clock_inputs {
  std::vector<dimension> dimensions{};  // in routing order
  std::vector<std::uint8_t> biases{};   // per dimension; empty: dor_age_biases
  unsigned target_age = 128;            // centre of the age range
  unsigned input_buffer_flits = 96;     // per-VC input buffer
  unsigned staging_buffer_flits = 16;   // output staging buffer
  unsigned max_packet_flits = 9;
  unsigned vcs_per_link = 2;  // VCs of a class sharing the link
};

struct age_clock_recommendation {
  std::vector<double> hops_per_dimension;  // Eq. 5/7 terms
  std::vector<unsigned> whole_hops;        // rounded per dimension
  unsigned hops = 0;                       // H
  std::vector<std::uint8_t> biases;
  unsigned bias_contribution = 0;  // T_bias
  unsigned queueing_age = 0;       // target - T_bias
  double age_ticks_per_hop = 0;    // (target - T_bias) / H
  unsigned whole_age_ticks_per_hop = 0;
  unsigned packets_queued_per_hop = 0;
  unsigned cycles_per_packet = 0;
  unsigned queueing_cycles_per_hop = 0;
  std::uint32_t age_clk_period = 0;  // the recommended AGE_CLK_PERIOD
};

/// Section 3.2: the recommended AGE_CLK_PERIOD, with every intermediate value.
inline age_clock_recommendation recommend_age_clock(const age_clock_inputs& in) {
  detail::check(in.dimensions);
  interlock::detail::require_in_range("age_tuning", "target age", in.target_age, 1, 255);
  interlock::detail::require_in_range("age_tuning", "VCs per link", in.vcs_per_link, 1, 64);
  interlock::detail::require_in_range("age_tuning", "max packet flits", in.max_packet_flits, 1,
                                      65535);
  interlock::detail::require_in_range("age_tuning", "input buffer flits", in.input_buffer_flits,
                                      in.max_packet_flits, 1u << 20);
  interlock::detail::require_in_range("age_tuning", "staging buffer flits", in.staging_buffer_flits,
                                      0, 1u << 20);
  age_clock_recommendation r;
  r.biases = in.biases.empty() ? dor_age_biases(in.dimensions.size()) : in.biases;
  r.bias_contribution = bias_contribution(in.dimensions, r.biases);
  for (const dimension& d : in.dimensions) {
    r.hops_per_dimension.push_back(average_hops(d));
    r.whole_hops.push_back(whole_hops(d));
    r.hops += r.whole_hops.back();
  }
  if (r.bias_contribution >= in.target_age) {
    throw config_error("age_tuning", "bias contribution", std::to_string(r.bias_contribution),
                       "below the target age " + std::to_string(in.target_age));
  }
  r.queueing_age = in.target_age - r.bias_contribution;
  r.age_ticks_per_hop = static_cast<double>(r.queueing_age) / static_cast<double>(r.hops);
  r.whole_age_ticks_per_hop = std::max(1u, detail::nearest(r.age_ticks_per_hop));
  r.packets_queued_per_hop =
      in.input_buffer_flits / in.max_packet_flits + in.staging_buffer_flits / in.max_packet_flits;
  r.cycles_per_packet = in.vcs_per_link * in.max_packet_flits;
  r.queueing_cycles_per_hop = r.packets_queued_per_hop * r.cycles_per_packet;
  r.age_clk_period =
      std::max<std::uint32_t>(1, detail::nearest(static_cast<double>(r.queueing_cycles_per_hop) /
                                                 static_cast<double>(r.whole_age_ticks_per_hop)));
  return r;
}

}  // namespace interlock::age_tuning

#endif  // INTERLOCK_ARBITERS_AGE_TUNING_HPP
