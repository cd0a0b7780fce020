// examples/model/metrics.hpp: what a run of the network model measured, and its CSV.
#ifndef INTERLOCK_EXAMPLES_MODEL_METRICS_HPP
#define INTERLOCK_EXAMPLES_MODEL_METRICS_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace netmodel {

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

/// The q-quantile (0..1) of v, by the nearest-rank rule; v is reordered.
inline double quantile(std::vector<std::uint32_t>& v, double q) {
  if (v.empty()) return 0;
  std::size_t rank = static_cast<std::size_t>(q * static_cast<double>(v.size()));
  if (rank >= v.size()) rank = v.size() - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank), v.end());
  return v[rank];
}

struct deadlock_report {
  bool deadlocked = false;
  std::uint64_t cycle = 0;                    // when it was declared
  std::vector<std::string> cycle_of_buffers;  // full buffers, each waiting for the next
};

struct results {
  // Offered and accepted load, flits per node per cycle, over the measured window.
  double offered = 0;
  double accepted = 0;
  double capacity = 1;  // the ideal accepted load of the pattern (1 / the busiest channel)
  std::vector<double> accepted_per_source;  // flits per cycle, sources that send
  std::vector<std::uint32_t> sources;       // their node ids
  std::vector<double> hops_per_source;      // mean hops of each source's measured packets
  // Latency of the packets created in the window (cycles).
  std::size_t measured_packets = 0;
  std::size_t measured_delivered = 0;  // the rest were still in the network at the drain limit
  double latency_mean = 0, latency_p50 = 0, latency_p99 = 0, latency_max = 0;
  double network_latency_mean = 0;   // from leaving the source queue to delivery
  double queueing_latency_mean = 0;  // in the source queue
  double hops_mean = 0;
  // Fairness over the sources' accepted throughput.
  double jain = 1;
  double max_min_ratio = 1;
  // Channel utilization per direction: [dimension][0: +, 1: -], flits per channel per cycle.
  std::vector<std::array<double, 2>> utilization;
  // Batch runs: the cycle of the last delivery.
  std::uint64_t batch_cycles = 0;
  // SeaStar counters (age arbiter only), summed over the routers.
  bool has_age = false;
  std::array<std::uint64_t, 4> age_histogram{};  // departures by age / 64
  std::uint64_t stalled_cycles = 0;
  std::array<std::uint64_t, 4> vc_blocked{};
  std::uint64_t epoch_switches = 0;
  // Run.
  std::uint64_t cycles = 0;  // simulated cycles in all
  std::size_t routers = 0;
  double wall_s = 0;
  deadlock_report deadlock;

  double router_cycles_per_s() const {
    return wall_s > 0 ? static_cast<double>(cycles) * static_cast<double>(routers) / wall_s : 0;
  }
};

inline const char* csv_header() {
  return "offered,accepted,normalized,latency_mean,latency_p50,latency_p99,latency_max,"
         "network_latency_mean,queueing_latency_mean,hops_mean,jain,max_min_ratio,measured,"
         "delivered,deadlock,cycles,wall_s,router_cycles_per_s";
}

inline std::string csv_row(const results& r) {
  char line[512];
  std::snprintf(line, sizeof line,
                "%.4f,%.4f,%.4f,%.2f,%.0f,%.0f,%.0f,%.2f,%.2f,%.3f,%.4f,%.3f,%zu,%zu,%d,%llu,%.3f,"
                "%.0f",
                r.offered, r.accepted, r.accepted / r.capacity, r.latency_mean, r.latency_p50,
                r.latency_p99, r.latency_max, r.network_latency_mean, r.queueing_latency_mean,
                r.hops_mean, r.jain, r.max_min_ratio, r.measured_packets, r.measured_delivered,
                r.deadlock.deadlocked ? 1 : 0, static_cast<unsigned long long>(r.cycles), r.wall_s,
                r.router_cycles_per_s());
  return line;
}

}  // namespace netmodel

#endif  // INTERLOCK_EXAMPLES_MODEL_METRICS_HPP
