// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/sl_sources.hpp: when a switch network's NICs create packets, and for
// whom.
//
// [QoSThesis] Table 5.2's sources per SL (shape.hpp's sl_source):
// Bernoulli packets, constant bit rate on connections or to the run's
// pattern, and bursts; and the run's pattern of destinations: uniform over
// the other NICs, (src + 1) mod NICs, or a fixed destination per NIC.
//
// Contract
//   - sources(nics, traffic); set_destinations(d) for
//     pattern::fixed (config_error names a NIC sending to itself or
//     out of range, or a list of the wrong length).
//   - start(pattern, rates, seed, now, schedule): one generator per NIC
//     seeded from `seed` (same seed, same packets); schedule(at, nic, sl)
//     for each SL with a positive rate at every NIC; returns whether any SL
//     injects. CBR connections are a random derangement drawn per SL, so
//     every NIC ends exactly one.
//   - fire(nic, sl, now, create, schedule): the creation event of (nic,
//     sl) at `now`: create(dst) once per packet (a burst's packets share a
//     destination), then schedule(next, nic, sl).
//   Cost: O(1) per packet besides the draws; start() O(NICs x SLs).
//
// Example
//   namespace qs = interlock::model::qos_switch;
//   qs::sources s(48, qs::sl_traffic{{1.0}, {16}});
//   s.start(qs::pattern::uniform, {0.5}, 1, 0,
//           [](std::uint64_t at, std::uint32_t nic, std::uint32_t sl) { /* queue the event */ });
#ifndef INTERLOCK_MODEL_QOS_SWITCH_SL_SOURCES_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_SL_SOURCES_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "interlock/core/config_error.hpp"
#include "interlock/core/random.hpp"
#include "interlock/model/qos_switch/shape.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

/// Where NICs send: uniform random over the other NICs; (src + 1) mod NICs;
/// or a fixed destination per source (set_destinations).
enum class pattern : std::uint8_t { uniform, shift, fixed };

class sources {
 public:
  sources(std::size_t nics, sl_traffic traffic) : nics_(nics), traffic_(std::move(traffic)) {}

  void set_destinations(const std::vector<std::uint32_t>& destination) {
    if (destination.size() != nics_) {
      throw config_error("network", "destinations", std::to_string(destination.size()),
                         "one per NIC (" + std::to_string(nics_) + ")");
    }
    for (std::size_t n = 0; n < destination.size(); ++n) {
      if (destination[n] >= nics_ || destination[n] == n) {
        throw config_error("network", "destination of NIC " + std::to_string(n),
                           std::to_string(destination[n]),
                           "another NIC 0.." + std::to_string(nics_ - 1));
      }
    }
    destination_ = destination;
  }
  bool has_destinations() const noexcept { return !destination_.empty(); }

  template <class Schedule>
  bool start(pattern pattern, const std::vector<double>& rates, std::uint64_t seed,
             std::uint64_t now, Schedule&& schedule) {
    pattern_ = pattern;
    const std::size_t N = nics_, L = rates.size();
    rng_.clear();
    for (std::size_t n = 0; n < N; ++n) rng_.emplace_back(seed * 0x9E3779B97F4A7C15ull + n + 1);
    rate_.assign(L, 0);
    period_.assign(L, 0);
    next_cbr_.assign(N * L, 0);
    connection_.assign(N * L, 0);
    bool any = false;
    for (std::size_t sl = 0; sl < L; ++sl) {
      const double flits = traffic_.packet_flits[sl];
      const sl_source kind = traffic_.source_of(sl);
      if (rates[sl] <= 0) continue;
      any = true;
      // Bernoulli and bursts: a packet (a burst) per cycle with this probability.
      const double per = kind == sl_source::bursts ? flits * traffic_.burst : flits;
      rate_[sl] = std::min(1.0, rates[sl] / per);
      period_[sl] = flits / rates[sl];
      if (kind == sl_source::cbr_connection) {
        // A random permutation without fixed points: each NIC opens one
        // connection and is the end of one, so no NIC's link is offered
        // more than one connection's rate of the SL.
        splitmix64 g(seed * 0xA24BAED4963EE407ull + sl + 1);
        const std::vector<std::uint32_t> to = derangement(N, g);
        for (std::size_t n = 0; n < N; ++n) connection_[n * L + sl] = to[n];
      }
      for (std::size_t n = 0; n < N; ++n) {
        const auto nic = static_cast<std::uint32_t>(n);
        if (kind == sl_source::cbr || kind == sl_source::cbr_connection) {
          next_cbr_[n * L + sl] = static_cast<double>(now) + uniform_unit(rng_[n]) * period_[sl];
          schedule(static_cast<std::uint64_t>(std::ceil(next_cbr_[n * L + sl])), nic,
                   static_cast<std::uint32_t>(sl));
        } else {
          schedule(bernoulli_next(nic, sl, now), nic, static_cast<std::uint32_t>(sl));
        }
      }
    }
    return any;
  }

  template <class Create, class Schedule>
  void fire(std::uint32_t n, std::uint32_t sl, std::uint64_t now, Create&& create,
            Schedule&& schedule) {
    const std::size_t L = rate_.size();
    switch (traffic_.source_of(sl)) {
      case sl_source::bernoulli:
        create(pattern_destination(n));
        schedule(bernoulli_next(n, sl, now + 1), n, sl);
        break;
      case sl_source::bursts: {
        const std::uint32_t dst = pattern_destination(n);
        for (std::uint32_t i = 0; i < traffic_.burst; ++i) create(dst);
        schedule(bernoulli_next(n, sl, now + 1), n, sl);
        break;
      }
      case sl_source::cbr:
      case sl_source::cbr_connection: {
        const bool connection = traffic_.source_of(sl) == sl_source::cbr_connection;
        create(connection ? connection_[n * L + sl] : pattern_destination(n));
        double& next = next_cbr_[n * L + sl];
        next += period_[sl];
        schedule(std::max(now + 1, static_cast<std::uint64_t>(std::ceil(next))), n, sl);
        break;
      }
    }
  }

 private:
  // Bernoulli trials per cycle from `from`: the first success is geometric.
  std::uint64_t bernoulli_next(std::uint32_t n, std::size_t sl, std::uint64_t from) {
    const double p = rate_[sl];
    if (p >= 1) return from;
    const double u = uniform_unit(rng_[n]);
    return from + static_cast<std::uint64_t>(std::floor(std::log1p(-u) / std::log1p(-p)));
  }

  std::uint32_t pattern_destination(std::uint32_t n) {
    if (pattern_ == pattern::shift) return static_cast<std::uint32_t>((n + 1) % nics_);
    if (pattern_ == pattern::fixed) return destination_[n];
    const auto d = static_cast<std::uint32_t>(uniform_below(rng_[n], nics_ - 1));
    return d >= n ? d + 1 : d;
  }

  // A uniformly random permutation of 0..n-1 with no fixed point (n >= 2),
  // by rejection: about e tries.
  static std::vector<std::uint32_t> derangement(std::size_t n, splitmix64& g) {
    std::vector<std::uint32_t> p(n);
    for (;;) {
      for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint32_t>(i);
      for (std::size_t i = n - 1; i > 0; --i) std::swap(p[i], p[uniform_below(g, i + 1)]);
      bool fixed = false;
      for (std::size_t i = 0; i < n && !fixed; ++i) fixed = p[i] == i;
      if (!fixed) return p;
    }
  }

  std::size_t nics_;
  sl_traffic traffic_;
  pattern pattern_ = pattern::uniform;
  std::vector<std::uint32_t> destination_;
  std::vector<splitmix64> rng_;
  std::vector<double> rate_, period_, next_cbr_;
  std::vector<std::uint32_t> connection_;
};

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_SL_SOURCES_HPP
