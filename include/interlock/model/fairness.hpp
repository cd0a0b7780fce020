// SPDX-License-Identifier: BSL-1.0
// interlock/model/fairness.hpp: fairness a user reruns on their own network: all-to-one and
// uniform traffic at saturation, summarized the way the papers judge it.
//
// Contract
//   check_fairness(run, options) runs two scenarios through the caller's
//   `run(const fairness_scenario&) -> results` (the caller builds its
//   network, scheme and arbiters for the scenario's traffic: the papers' two
//   tests of fairness):
//     all_to_one  every source sends to options.destination as fast as it
//                 can ([Abts07]'s parking lot at network scale; [Towles14]'s
//                 Section 3.1 example);
//     uniform     every source offers options.load of uniform random traffic,
//                 past saturation by default ([Towles14] Section 4.1).
//   From each run's results it takes, over the sources: Jain's index and
//   max/min of the accepted throughput, and max/min of the mean latency and
//   of the mean network latency ([Abts07]'s claim for age arbitration is
//   equal network latency). fair() holds when both runs finished without
//   deadlock and both Jain indexes reach options.min_jain (default 0.9);
//   latency_fair() when both runs finished without deadlock and the max/min
//   of the sources' mean network latency is at most
//   options.max_network_latency_ratio (default 2) in both.
//   fairness_of(results) gives one run's figures. Nothing here allocates
//   beyond what the runs do.
//
// Example (docs/verify/fairness.md has it in full)
//   namespace m = interlock::model;  // with model/network.hpp: a 4x4 mesh, round robin
//   const interlock::torus_topology t({4, 4}, {false, false});
//   const interlock::dimension_order_routing dor(t);
//   using rr = interlock::round_robin_arbiter<64>;
//   auto report = m::check_fairness([&](const m::fairness_scenario& s) {
//     m::config c;
//     c.load = s.load;
//     c.measure = 2000;
//     m::traffic_source traffic = [&](interlock::node_id n, interlock::splitmix64& g) {
//       return s.traffic == m::fairness_traffic::all_to_one
//                  ? interlock::traffic::all_to_one{s.destination}.destination(t, n, g)
//                  : interlock::traffic::uniform_random{}.destination(t, n, g);
//     };
//     m::network<interlock::dimension_order_routing, rr> net(
//         dor, c, traffic, [](interlock::node_id, std::size_t) { return rr{}; });
//     return net.run();
//   }, {/*destination=*/15});
//   if (!report.fair()) std::puts("unfair");  // round robin starves all-to-one's far sources
#ifndef INTERLOCK_MODEL_FAIRNESS_HPP
#define INTERLOCK_MODEL_FAIRNESS_HPP

#include <cstddef>
#include <string>

#include "interlock/model/measurement.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

enum class fairness_traffic { all_to_one, uniform };

inline const char* name(fairness_traffic t) {
  return t == fairness_traffic::all_to_one ? "all_to_one" : "uniform";
}

/// What one scenario asks of the caller's network.
struct fairness_scenario {
  fairness_traffic traffic = fairness_traffic::all_to_one;
  node_id destination = 0;  // all_to_one: the node every source sends to
  double load = 1;          // offered per source per cycle
};

struct fairness_options {
  node_id destination = 0;
  double load = 1;  // uniform: offered per source (1: past saturation)
  double min_jain = 0.9;
  double max_network_latency_ratio = 2.0;
};

/// One run's fairness over its sources.
struct fairness_figures {
  std::size_t sources = 0;
  double accepted = 0;                 // per source, mean
  double jain = 0, max_min = 0;        // accepted throughput
  double latency_max_min = 0;          // of the sources' mean latency
  double network_latency_max_min = 0;  // of the sources' mean network latency
  bool deadlocked = false;
};

inline fairness_figures fairness_of(const results& r) {
  fairness_figures f;
  f.sources = r.sources.size();
  double total = 0;
  for (const double a : r.accepted_per_source) total += a;
  f.accepted = f.sources == 0 ? 0 : total / static_cast<double>(f.sources);
  f.jain = r.jain;
  f.max_min = r.max_min_ratio;
  f.latency_max_min = r.source_latency_max_min;
  f.network_latency_max_min = r.source_network_latency_max_min;
  f.deadlocked = r.deadlock.deadlocked;
  return f;
}

struct fairness_report {
  fairness_figures all_to_one, uniform;
  fairness_options options;
  /// Whether both tests delivered something in their windows: without it
  /// neither verdict has a figure to rest on (inconclusive), whatever
  /// fair() and latency_fair() say.
  bool measured() const noexcept { return all_to_one.accepted > 0 && uniform.accepted > 0; }
  bool fair() const noexcept {
    return measured() && !all_to_one.deadlocked && !uniform.deadlocked &&
           all_to_one.jain >= options.min_jain && uniform.jain >= options.min_jain;
  }
  bool latency_fair() const noexcept {
    const double most = options.max_network_latency_ratio;
    return !all_to_one.deadlocked && !uniform.deadlocked && all_to_one.accepted > 0 &&
           uniform.accepted > 0 && all_to_one.network_latency_max_min <= most &&
           uniform.network_latency_max_min <= most;
  }
};

template <class Run>
fairness_report check_fairness(Run&& run, const fairness_options& options) {
  fairness_report report;
  report.options = options;
  report.all_to_one =
      fairness_of(run(fairness_scenario{fairness_traffic::all_to_one, options.destination, 1.0}));
  report.uniform = fairness_of(
      run(fairness_scenario{fairness_traffic::uniform, options.destination, options.load}));
  return report;
}

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_FAIRNESS_HPP
