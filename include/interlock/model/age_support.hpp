// SPDX-License-Identifier: BSL-1.0
// interlock/model/age_support.hpp: the age clock side of a model run (Cray XT, Abts & Weisser
// SC'07).
//
// Contract
//   With an output policy whose request_builder is built from an age_clock
//   (age_epoch_arbiter: reads_age_v<Policy>), every router of the model has
//   the chip-wide age clock of Procedure 3, ticking every cycle, and the
//   Table 4 performance counters. age_config gives AGE_CLK_PERIOD, the age
//   bias of every input port (or one per port) and the saturation rule.
//   age_state holds the clocks of a network and the counters of every input
//   port, and the counters' view of a router that slept: catch_up(r, t)
//   counts the cycles a sleeping router skipped as the hardware would have
//   counted them (blocked VCs and stalled cycles, unchanged while nothing
//   moved); snapshot(t) settles every router up to cycle t and copies the
//   counters, so that a measured window is the difference of two.
//   recommended_age() derives the Section 3.2 parameters for a network and
//   run (age_tuning::recommend_age_clock); biases_by_dimension() spreads one
//   bias per dimension over a router's ports.
//   The default period is the hardware's reset value, 0x1000 ([Abts07],
//   Section 4: "the default configuration (age clock rate=0x1000)").
//
// Example
//   interlock::model::age_config a;
//   a.period = 18;                          // Section 3.2's value for the XT's 11x12x16
//   a.bias = interlock::age_bias{1, 1};
#ifndef INTERLOCK_MODEL_AGE_SUPPORT_HPP
#define INTERLOCK_MODEL_AGE_SUPPORT_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "interlock/arbiters/age_clock.hpp"
#include "interlock/arbiters/age_counters.hpp"
#include "interlock/arbiters/age_tuning.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/model/config.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

/// AGE_CLK_PERIOD's reset value in the SeaStar ([Abts07], Section 4).
inline constexpr std::uint32_t hardware_age_clk_period = 0x1000;

/// The age-clock side of a run (used only with an arbiter that reads ages).
struct age_config {
  std::uint32_t period = hardware_age_clk_period;  // AGE_CLK_PERIOD
  age_bias bias{1, 1};                             // every input port's, unless port_bias is given
  std::vector<age_bias> port_bias;                 // per input port (the topology's numbering)
  saturation_rule rule = saturation_rule::corrected;
};

/// Whether Policy's request_builder reads the age clock.
template <class Policy, class = void>
struct reads_age : std::false_type {};
template <class Policy>
struct reads_age<
    Policy,
    std::enable_if_t<std::is_constructible<request_builder<Policy>, const age_clock&>::value>>
    : std::true_type {};
template <class Policy>
inline constexpr bool reads_age_v = reads_age<Policy>::value;

/// The Table 4 counters of every input port of a network, and the clocks'
/// epoch switches and inhibited ticks, at one moment: results subtract two.
struct age_snapshot {
  std::uint64_t cycle = 0;                  // as of the start of this cycle
  std::vector<router_perf_counters> ports;  // per (router, input port)
  std::uint64_t epoch_switches = 0, inhibited_ticks = 0;
};

/// The age clocks of every router of a network and the Table 4 counters of
/// every input port (the SeaStar keeps them per port: Table 5 reports them
/// by direction). A port's VC v is blocked in a cycle when its head lacks
/// credits for one of its ways on; the port is stalled when it has such a
/// head and offers no packet to the switch. A departure counts its age at
/// the input port it leaves.
class age_state {
 public:
  age_state() = default;
  age_state(node_id routers, std::size_t ports, const age_config& a)
      : ports_(ports),
        clocks_(routers, age_clock(a.period)),
        counters_(static_cast<std::size_t>(routers) * ports, router_perf_counters{}),
        asleep_since_(routers, 0),
        asleep_ports_(routers, 0),
        asleep_blocked_(static_cast<std::size_t>(routers) * ports, 0) {}

  void tick() noexcept {
    for (auto& c : clocks_) c.tick();
  }
  /// n cycles of a network holding no packet.
  void tick_idle(std::uint64_t n) noexcept {
    for (auto& c : clocks_) c.tick_idle(n);
  }
  age_clock& clock(node_id r) noexcept { return clocks_[r]; }
  const age_clock& clock(node_id r) const noexcept { return clocks_[r]; }
  router_perf_counters& counters(node_id r, std::size_t port) noexcept {
    return counters_[static_cast<std::size_t>(r) * ports_ + port];
  }
  const router_perf_counters& counters(node_id r, std::size_t port) const noexcept {
    return counters_[static_cast<std::size_t>(r) * ports_ + port];
  }

  /// Router r is evaluated at cycle t: count the cycles it slept through.
  void catch_up(node_id r, std::uint64_t t) {
    count_asleep(r, t);
    asleep_since_[r] = t;
    for (std::uint64_t x = asleep_ports_[r]; x != 0; x &= x - 1)
      asleep_blocked_[static_cast<std::size_t>(r) * ports_ + bits::lowest_index(x)] = 0;
    asleep_ports_[r] = 0;
  }
  /// Router r goes to sleep after cycle t with input port `in`'s VCs
  /// `blocked` (bit v: VC v) waiting for credits: called for each such port.
  void fall_asleep(node_id r, std::size_t in, std::uint64_t blocked) {
    asleep_ports_[r] |= bits::bit(in);
    asleep_blocked_[static_cast<std::size_t>(r) * ports_ + in] =
        static_cast<std::uint8_t>(blocked & 0xF);
  }
  /// The counters as of the start of cycle t (before routers are evaluated).
  age_snapshot snapshot(std::uint64_t t) {
    for (node_id r = 0; r < clocks_.size(); ++r) {
      count_asleep(r, t);
      if (asleep_since_[r] + 1 < t) asleep_since_[r] = t - 1;
    }
    age_snapshot s;
    s.ports = counters_;
    for (const auto& c : clocks_) {
      s.epoch_switches += c.epoch_switches();
      s.inhibited_ticks += c.inhibited_ticks();
    }
    return s;
  }

 private:
  // The cycles after asleep_since_[r] and before t, in which nothing changed.
  void count_asleep(node_id r, std::uint64_t t) {
    if (asleep_since_[r] + 1 >= t) return;
    const std::uint64_t skipped = t - asleep_since_[r] - 1;
    for (std::uint64_t x = asleep_ports_[r]; x != 0; x &= x - 1) {
      const std::size_t in = bits::lowest_index(x);
      router_perf_counters& c = counters(r, in);
      for (std::uint64_t v = asleep_blocked_[static_cast<std::size_t>(r) * ports_ + in]; v != 0;
           v &= v - 1)
        c.count_blocked_cycles(static_cast<unsigned>(bits::lowest_index(v)), skipped);
      c.count_stalled_cycles(skipped);
    }
  }

  std::size_t ports_ = 0;
  std::vector<age_clock> clocks_;
  std::vector<router_perf_counters> counters_;
  std::vector<std::uint64_t> asleep_since_;
  std::vector<std::uint64_t> asleep_ports_;   // per router: ports stalled while it sleeps
  std::vector<std::uint8_t> asleep_blocked_;  // per (router, port): VCs 0-3 blocked then
};

/// The age parameters of [Abts07] Section 3.2 for a network and run: the
/// biases n, n-1, ..., 1 by dimension (dimension order) and AGE_CLK_PERIOD
/// from the queueing one hop can hold (input buffer / longest packet plus
/// staging buffer / longest packet; VCs of a class sharing a link).
/// `advised` is false when the inputs are outside the methodology's range;
/// the hardware defaults (AGE_CLK_PERIOD 0x1000, bias 1) are returned then.
struct age_advice {
  age_config age;
  bool advised = false;
  std::vector<unsigned> dimension_bias;  // per dimension (empty: every port bias 1)
};

inline age_advice recommended_age(const torus_topology& t, const config& c, unsigned vcs_per_link) {
  namespace tuning = age_tuning;
  tuning::age_clock_inputs in;
  for (std::size_t d = 0; d < t.dimensions(); ++d)
    in.dimensions.push_back({t.radix(d), t.wraps(d) ? tuning::wrap::torus : tuning::wrap::mesh});
  in.input_buffer_flits = c.buffer_flits;
  in.staging_buffer_flits = c.staging_flits;
  in.max_packet_flits = c.max_flits();
  in.vcs_per_link = std::max(1u, vcs_per_link);
  age_advice a;
  try {
    const tuning::age_clock_recommendation r = tuning::recommend_age_clock(in);
    a.advised = true;
    a.age.period = r.age_clk_period;
    a.dimension_bias.assign(r.biases.begin(), r.biases.end());
  } catch (const config_error&) {
    a.advised = false;
  }
  return a;
}

/// Per-port biases from one value per dimension (and, optionally, a last one
/// for the local port; 1 otherwise).
inline std::vector<age_bias> biases_by_dimension(const torus_topology& t,
                                                 const std::vector<unsigned>& bias) {
  std::vector<age_bias> ports(t.ports(), age_bias{1, 1});
  for (std::size_t p = 0; p < t.ports(); ++p) {
    const std::size_t i = p == t.local_port() ? t.dimensions() : t.port_info(p).dimension;
    if (i < bias.size()) ports[p] = age_bias{bias[i], bias[i]};
  }
  return ports;
}

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_AGE_SUPPORT_HPP
