// SPDX-License-Identifier: BSL-1.0
// interlock/model/results.hpp: what a run of the model reports, and its CSV row.
//
// Contract
//   results holds what a run measured over its window (measurement::fill
//   makes it): offered (none for a trace) and accepted load in flits per
//   node per cycle, per-source throughput (a trace's sources: the nodes it
//   sent from), hops, latency and (batch) completion time,
//   latency mean, sd and quantiles, Jain's index and max/min over the
//   sources' throughput and latency, the measured packets left in source
//   queues and in the network, channel utilization per dimension and
//   direction, and the counters a run was asked for (torus link use,
//   request shares, the SeaStar's age counters). csv_header()/csv_row()
//   give one line per run; a figure that measured nothing is an empty cell.
//   Jain's index and max/min are verify/fairness_metrics.hpp's;
//   quantile() is the nearest-rank quantile.
//
// Example
//   std::vector<std::uint32_t> latencies{4, 9, 5, 7};
//   double p50 = interlock::model::quantile(latencies, 0.5);   // 7
#ifndef INTERLOCK_MODEL_RESULTS_HPP
#define INTERLOCK_MODEL_RESULTS_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "interlock/model/deadlock.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

/// The q-quantile (0..1) of v, by the nearest-rank rule; v is reordered.
inline double quantile(std::vector<std::uint32_t>& v, double q) {
  if (v.empty()) return 0;
  std::size_t rank = static_cast<std::size_t>(q * static_cast<double>(v.size()));
  if (rank >= v.size()) rank = v.size() - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank), v.end());
  return v[rank];
}

struct results {
  // Offered and accepted load, flits per node per cycle, over the measured
  // window; a trace offers none of its own (NaN: none, an empty cell).
  double offered = 0;
  double accepted = 0;
  double capacity = 1;  // the ideal accepted load of the pattern (1 / the busiest channel)
  std::vector<double> accepted_per_source;  // flits per cycle, sources that send
  std::vector<node_id> sources;             // their node ids
  std::vector<double> hops_per_source;      // mean hops of each source's packets (as latency)
  // The packets created in the window (every packet of a batch) and where
  // those not delivered were when the run ended (past saturation, at the
  // drain limit: the latency figures are of the delivered ones).
  std::size_t measured_packets = 0;
  std::size_t measured_delivered = 0;
  std::size_t measured_in_source_queues = 0;
  std::size_t measured_in_network = 0;
  // Every measured packet delivered (a batch: every packet, within the
  // cycle limit; false means the figures are of a run cut short).
  bool complete = true;
  // Latency of the delivered measured packets (cycles).
  double latency_mean = 0, latency_sd = 0, latency_p50 = 0, latency_p99 = 0, latency_max = 0;
  double network_latency_mean = 0;  // from leaving the source queue to delivery
  double network_latency_sd = 0, network_latency_p99 = 0, network_latency_max = 0;
  double queueing_latency_mean = 0;  // in the source queue
  double hops_mean = 0;
  // Per source (as `sources`), over the packets delivered in the window
  // (whenever created: past saturation a source's newest packets may never
  // leave its queue, yet its delivered ones show the network's treatment):
  // latency mean and sd, network latency mean; and the max/min across
  // sources of the means (latency equalization).
  std::vector<double> latency_per_source, latency_sd_per_source, network_latency_per_source;
  double source_latency_max_min = 1, source_network_latency_max_min = 1;
  // Fairness over the sources' accepted throughput (Bernoulli runs; in a
  // batch every source sends the same, so see completion instead).
  double jain = 1;
  double max_min_ratio = 1;  // NaN (none) when a source accepted nothing
  // Batch runs: the cycle of each source's last delivery, and their spread.
  std::vector<std::uint64_t> completion_per_source;
  double completion_mean = 0;  // over the sources that delivered a packet
  std::uint64_t completion_min = 0, completion_max = 0;
  // Channel utilization per direction: [dimension][0: +, 1: -], flits per channel per cycle.
  std::vector<std::array<double, 2>> utilization;
  // With config::utilization_bin: the links between nodes, each bin's share
  // of their capacity, from cycle 0 to the run's end.
  std::vector<double> link_utilization;
  // With config::count_requests: over every (output arbiter, input port)
  // that requested, the share of the arbiter's cycles the input requested
  // it: the mean, the 10th and 50th percentiles, and how many pairs.
  double request_share_mean = 0, request_share_p10 = 0, request_share_p50 = 0;
  std::size_t request_pairs = 0;
  // Batch runs: the cycle of the last delivery.
  std::uint64_t batch_cycles = 0;
  // SeaStar counters (age arbiter only), over the measured window, summed
  // over the routers' input ports.
  bool has_age = false;
  std::array<std::uint64_t, 4> age_histogram{};  // departures by age / 64
  std::uint64_t stalled_cycles = 0;
  std::array<std::uint64_t, 4> vc_blocked{};
  // By input port direction [dimension][0: +, 1: -] (packets travelling
  // that way), and the local (injection) port: stalled cycles and Equation
  // 17's occupancy, stalled cycles per VC0 + VC1 packet received.
  std::vector<std::array<std::uint64_t, 2>> stalled_by_direction;
  std::vector<std::array<double, 2>> occupancy_by_direction;
  std::uint64_t stalled_local = 0;
  std::uint64_t stalled_on_chip = 0;  // at inputs from channels inside a node (a node shape)
  double occupancy = 0;               // over every port
  std::uint64_t epoch_switches = 0;
  // Share of router-cycles with the age clock inhibited (an epoch switch
  // waiting for the old epoch to drain): above about 0.1, AGE_CLK_PERIOD is
  // too small for the queueing the network holds.
  double inhibited_share = 0;
  // The measured window's cycles: --cycles, or fewer when the network
  // deadlocked inside it (the window ends at the cycle the deadlock was
  // found); a batch: to the last delivery.
  std::uint64_t window_cycles = 0;
  // Run.
  std::uint64_t cycles = 0;          // simulated cycles in all
  std::uint64_t stepped_cycles = 0;  // of which stepped (the rest: nothing in flight, skipped)
  std::size_t routers = 0;
  double wall_s = 0;
  deadlock_report deadlock;

  /// Whether any packet of the window was delivered: without one, the
  /// latency figures and the fairness over sources measure nothing.
  bool delivered_any() const noexcept { return measured_delivered > 0; }
  /// Whether the window carried any flit to a source's destination (the
  /// fairness figures compare the sources' throughput).
  bool accepted_any() const noexcept {
    for (const double a : accepted_per_source)
      if (a > 0) return true;
    return false;
  }

  double router_cycles_per_s() const {
    return wall_s > 0 ? static_cast<double>(cycles) * static_cast<double>(routers) / wall_s : 0;
  }
};

inline const char* csv_header() {
  return "offered,accepted,normalized,latency_mean,latency_p50,latency_p99,latency_max,"
         "network_latency_mean,queueing_latency_mean,hops_mean,jain,max_min_ratio,measured,"
         "delivered,deadlock,simulated_cycles,wall_s,router_cycles_per_s,latency_sd,"
         "network_latency_p99,source_latency_max_min,source_network_latency_max_min,"
         "in_source_queues,complete,window_cycles";
}

/// One row under csv_header(): a figure that measured nothing (latency with
/// no packet delivered, fairness with no flit accepted) is an empty cell.
inline std::string csv_row(const results& r) {
  const bool lat = r.delivered_any(), fair = r.accepted_any();
  const auto cell = [](bool measured, const char* pattern, double x) {
    char text[48] = "";
    if (measured) std::snprintf(text, sizeof text, pattern, x);
    return std::string(text);
  };
  std::string line = cell(r.offered == r.offered, "%.4f", r.offered) + "," +
                     cell(true, "%.4f", r.accepted) + "," +
                     cell(true, "%.4f", r.accepted / r.capacity) + ",";
  line += cell(lat, "%.2f", r.latency_mean) + "," + cell(lat, "%.0f", r.latency_p50) + "," +
          cell(lat, "%.0f", r.latency_p99) + "," + cell(lat, "%.0f", r.latency_max) + "," +
          cell(lat, "%.2f", r.network_latency_mean) + "," +
          cell(lat, "%.2f", r.queueing_latency_mean) + "," + cell(lat, "%.3f", r.hops_mean) + ",";
  line += cell(fair, "%.4f", r.jain) + "," +
          cell(fair && r.max_min_ratio == r.max_min_ratio, "%.3f", r.max_min_ratio) + ",";
  char rest[256];
  std::snprintf(rest, sizeof rest, "%zu,%zu,%d,%llu,%.3f,%.0f,", r.measured_packets,
                r.measured_delivered, r.deadlock.deadlocked ? 1 : 0,
                static_cast<unsigned long long>(r.cycles), r.wall_s, r.router_cycles_per_s());
  line += rest;
  line += cell(lat, "%.2f", r.latency_sd) + "," + cell(lat, "%.0f", r.network_latency_p99) + "," +
          cell(lat, "%.4f", r.source_latency_max_min) + "," +
          cell(lat, "%.4f", r.source_network_latency_max_min) + ",";
  std::snprintf(rest, sizeof rest, "%zu,%d,%llu", r.measured_in_source_queues, r.complete ? 1 : 0,
                static_cast<unsigned long long>(r.window_cycles));
  line += rest;
  return line;
}

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_RESULTS_HPP
