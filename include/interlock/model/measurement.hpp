// interlock/model/measurement.hpp: what a run of the model measures, and its CSV.
//
// Contract
//   measurement accumulates, over a run's measured window [start, end):
//   flits delivered per source, flits sent per (router, output port), and,
//   for the packets created in the window (every packet of a batch), their
//   latency (creation to delivery), time in the source queue and hops.
//   fill() turns them into results: offered and accepted load in flits per
//   node per cycle, per-source throughput and hops, latency mean and
//   quantiles, Jain's index and max/min over the sources' throughput, and
//   channel utilization per dimension and direction. Recording costs O(1)
//   and allocates only to grow the latency sample.
//   jain_index(x) = (sum x)^2 / (n sum x^2) (1 when all are equal);
//   quantile() is the nearest-rank quantile; csv_header()/csv_row() give one
//   line per run.
//
// Example
//   std::vector<double> shares{0.5, 0.25, 0.25};
//   double j = interlock::model::jain_index(shares);   // 0.889
#ifndef INTERLOCK_MODEL_MEASUREMENT_HPP
#define INTERLOCK_MODEL_MEASUREMENT_HPP

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "interlock/core/random.hpp"
#include "interlock/model/deadlock.hpp"
#include "interlock/model/sources.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

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

struct results {
  // Offered and accepted load, flits per node per cycle, over the measured window.
  double offered = 0;
  double accepted = 0;
  double capacity = 1;  // the ideal accepted load of the pattern (1 / the busiest channel)
  std::vector<double> accepted_per_source;  // flits per cycle, sources that send
  std::vector<node_id> sources;             // their node ids
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

/// The accumulators of one run.
class measurement {
 public:
  measurement() = default;
  measurement(node_id nodes, std::size_t ports)
      : nodes_(nodes),
        ports_(ports),
        accepted_flits_(nodes, 0),
        source_hops_(nodes, 0),
        source_packets_(nodes, 0),
        channel_flits_(static_cast<std::size_t>(nodes) * ports, 0) {}

  void set_window(std::uint64_t start, std::uint64_t end) noexcept {
    start_ = start;
    end_ = end;
  }
  std::uint64_t window_start() const noexcept { return start_; }
  std::uint64_t window_end() const noexcept { return end_; }
  bool in_window(std::uint64_t t) const noexcept { return t >= start_ && t < end_; }

  /// A packet created at `created` is measured (counted when it is made).
  void count_created() noexcept { ++measured_created_; }
  std::uint64_t measured_created() const noexcept { return measured_created_; }
  std::uint64_t measured_delivered() const noexcept { return measured_delivered_; }

  /// Flits leaving router r through output port o at cycle t.
  void count_channel(node_id r, std::size_t o, std::uint32_t flits, std::uint64_t t) noexcept {
    if (in_window(t)) channel_flits_[static_cast<std::size_t>(r) * ports_ + o] += flits;
  }
  std::uint64_t channel_flits(node_id r, std::size_t o) const {
    return channel_flits_[static_cast<std::size_t>(r) * ports_ + o];
  }

  /// A packet delivered at cycle t.
  void count_delivery(node_id source, std::uint32_t flits, bool measured, std::uint64_t created,
                      std::uint32_t queued, unsigned hops, std::uint64_t t) {
    last_delivery_ = t;
    if (in_window(t)) accepted_flits_[source] += flits;
    if (!measured) return;
    ++measured_delivered_;
    latencies_.push_back(static_cast<std::uint32_t>(t - created));
    network_latency_sum_ += static_cast<double>(t - created - queued);
    queueing_latency_sum_ += static_cast<double>(queued);
    hops_sum_ += hops;
    source_hops_[source] += hops;
    ++source_packets_[source];
  }
  std::uint64_t last_delivery() const noexcept { return last_delivery_; }

  /// The results of the window (a batch: [0, last delivery]); `sends(n)`
  /// tells whether node n is a source.
  template <class Sends>
  void fill(results& r, const torus_topology& t, std::size_t local_port, double offered_load,
            bool batch, Sends&& sends) {
    if (batch) {
      r.batch_cycles = last_delivery_;
      start_ = 0;
      end_ = last_delivery_ + 1;
    }
    const double window = static_cast<double>(end_ - start_);
    r.offered = batch ? 0 : offered_load;
    double total = 0;
    for (node_id n = 0; n < nodes_; ++n) {
      total += static_cast<double>(accepted_flits_[n]);
      if (!sends(n)) continue;
      r.sources.push_back(n);
      r.accepted_per_source.push_back(static_cast<double>(accepted_flits_[n]) / window);
      r.hops_per_source.push_back(source_packets_[n] == 0
                                      ? 0.0
                                      : static_cast<double>(source_hops_[n]) /
                                            static_cast<double>(source_packets_[n]));
    }
    r.accepted = total / window / static_cast<double>(nodes_);
    if (batch && !r.sources.empty())
      r.offered = static_cast<double>(r.sources.size()) / static_cast<double>(nodes_);
    r.jain = jain_index(r.accepted_per_source);
    double lo = 0, hi = 0;
    for (std::size_t i = 0; i < r.accepted_per_source.size(); ++i) {
      const double a = r.accepted_per_source[i];
      lo = i == 0 ? a : std::min(lo, a);
      hi = i == 0 ? a : std::max(hi, a);
    }
    r.max_min_ratio = lo > 0 ? hi / lo : (hi > 0 ? INFINITY : 1);
    r.measured_packets = measured_created_;
    r.measured_delivered = measured_delivered_;
    if (!latencies_.empty()) {
      const double n = static_cast<double>(latencies_.size());
      double sum = 0, mx = 0;
      for (const auto l : latencies_) {
        sum += l;
        mx = std::max(mx, static_cast<double>(l));
      }
      r.latency_mean = sum / n;
      r.latency_max = mx;
      r.network_latency_mean = network_latency_sum_ / n;
      r.queueing_latency_mean = queueing_latency_sum_ / n;
      r.hops_mean = hops_sum_ / n;
      r.latency_p50 = quantile(latencies_, 0.5);
      r.latency_p99 = quantile(latencies_, 0.99);
    }
    r.utilization.assign(t.dimensions(), {0.0, 0.0});
    std::vector<std::uint64_t> sent(t.dimensions() * 2, 0);  // flits per direction
    for (node_id n = 0; n < nodes_; ++n)
      for (std::size_t o = 0; o < ports_; ++o)
        if (o != local_port) {
          const auto p = t.port_info(o);
          sent[p.dimension * 2 + (p.sign > 0 ? 0 : 1)] += channel_flits(n, o);
        }
    for (std::size_t d = 0; d < t.dimensions(); ++d) {
      const std::size_t k = t.radix(d);
      const double per_direction = static_cast<double>(nodes_) / static_cast<double>(k) *
                                   static_cast<double>(t.wraps(d) ? k : k - 1) *
                                   static_cast<double>(t.slices());
      for (std::size_t s = 0; s < 2; ++s)
        r.utilization[d][s] = static_cast<double>(sent[d * 2 + s]) / (per_direction * window);
    }
  }

 private:
  node_id nodes_ = 0;
  std::size_t ports_ = 0;
  std::uint64_t start_ = 0, end_ = 0, last_delivery_ = 0;
  std::uint64_t measured_created_ = 0, measured_delivered_ = 0;
  std::vector<std::uint64_t> accepted_flits_, source_hops_, source_packets_;
  std::vector<std::uint64_t> channel_flits_;  // per (router, output port), in the window
  std::vector<std::uint32_t> latencies_;
  double network_latency_sum_ = 0, queueing_latency_sum_ = 0, hops_sum_ = 0;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_MEASUREMENT_HPP
