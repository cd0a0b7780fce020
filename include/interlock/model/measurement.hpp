// SPDX-License-Identifier: BSL-1.0
// interlock/model/measurement.hpp: what a run of the model measures, and its CSV.
//
// Contract
//   measurement accumulates, over a run's measured window [start, end):
//   flits delivered per source, flits sent per (router, output port), and,
//   for the packets created in the window (every packet of a batch), how
//   many were created, injected and delivered, and the delivered ones'
//   latency (creation to delivery), time in the source queue and hops; per
//   source, the latency and hops of the packets delivered in the window.
//   fill() turns them into results: offered and accepted load in flits per
//   node per cycle, per-source throughput, hops,
//   latency and (batch) completion time, latency mean, sd and quantiles,
//   Jain's index and max/min over the sources' throughput and latency, the
//   measured packets left in source queues and in the network, and channel
//   utilization per dimension and direction. Recording costs O(1)
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

#include "interlock/core/prefetch.hpp"
#include "interlock/core/random.hpp"
#include "interlock/model/deadlock.hpp"
#include "interlock/model/fabric.hpp"
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
  double network_latency_p99 = 0;
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
  double max_min_ratio = 1;
  // Batch runs: the cycle of each source's last delivery, and their spread.
  std::vector<std::uint64_t> completion_per_source;
  double completion_mean = 0;
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
  std::string line = cell(true, "%.4f", r.offered) + "," + cell(true, "%.4f", r.accepted) + "," +
                     cell(true, "%.4f", r.accepted / r.capacity) + ",";
  line += cell(lat, "%.2f", r.latency_mean) + "," + cell(lat, "%.0f", r.latency_p50) + "," +
          cell(lat, "%.0f", r.latency_p99) + "," + cell(lat, "%.0f", r.latency_max) + "," +
          cell(lat, "%.2f", r.network_latency_mean) + "," +
          cell(lat, "%.2f", r.queueing_latency_mean) + "," + cell(lat, "%.3f", r.hops_mean) + ",";
  line += cell(fair, "%.4f", r.jain) + "," + cell(fair, "%.3f", r.max_min_ratio) + ",";
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

namespace detail {
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
}  // namespace detail

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
        source_last_(nodes, 0),
        source_latency_(nodes, 0),
        source_latency_squares_(nodes, 0),
        source_network_latency_(nodes, 0),
        channel_flits_(static_cast<std::size_t>(nodes) * ports, 0) {}

  void set_window(std::uint64_t start, std::uint64_t end) noexcept {
    start_ = start;
    end_ = end;
  }
  /// Ends the window at cycle t if it has not ended by then (a deadlock
  /// found at t: what follows measures nothing); before the window's start
  /// it leaves an empty window.
  void end_window_at(std::uint64_t t) noexcept {
    if (t < end_) end_ = t < start_ ? start_ : t;
  }
  std::uint64_t window_start() const noexcept { return start_; }
  std::uint64_t window_end() const noexcept { return end_; }
  bool in_window(std::uint64_t t) const noexcept { return t >= start_ && t < end_; }

  /// A measured packet was created (count_created), dropped at the head of
  /// its source queue because its source sends nothing (uncount_created),
  /// injected into the network (count_injected).
  void count_created() noexcept { ++measured_created_; }
  void uncount_created() noexcept { --measured_created_; }
  void count_injected() noexcept { ++measured_injected_; }
  std::uint64_t measured_created() const noexcept { return measured_created_; }
  std::uint64_t measured_delivered() const noexcept { return measured_delivered_; }

  /// Flits leaving router r through output port o at cycle t.
  void count_channel(node_id r, std::size_t o, std::uint32_t flits, std::uint64_t t) noexcept {
    if (in_window(t)) channel_flits_[static_cast<std::size_t>(r) * ports_ + o] += flits;
  }
  std::uint64_t channel_flits(node_id r, std::size_t o) const {
    return channel_flits_[static_cast<std::size_t>(r) * ports_ + o];
  }
  /// Asks the cache for router r's outputs' counts (a hint).
  void prefetch_channels(node_id r) const noexcept {
    interlock::prefetch_lines(channel_flits_.data() + static_cast<std::size_t>(r) * ports_, ports_);
  }

  /// A packet delivered at cycle t.
  void count_delivery(node_id source, std::uint32_t flits, bool measured, std::uint64_t created,
                      std::uint32_t queued, unsigned hops, std::uint64_t t) {
    last_delivery_ = t;
    source_last_[source] = t;
    const std::uint64_t latency = t - created, network = t - created - queued;
    if (in_window(t)) {
      // Per source: every packet delivered in the window, so that a source
      // whose packets queue for long (past saturation) is still sampled.
      accepted_flits_[source] += flits;
      source_hops_[source] += hops;
      ++source_packets_[source];
      source_latency_[source] += static_cast<double>(latency);
      source_latency_squares_[source] +=
          static_cast<double>(latency) * static_cast<double>(latency);
      source_network_latency_[source] += static_cast<double>(network);
    }
    if (!measured) return;
    ++measured_delivered_;
    latencies_.push_back(static_cast<std::uint32_t>(latency));
    network_latencies_.push_back(static_cast<std::uint32_t>(network));
    network_latency_sum_ += static_cast<double>(network);
    queueing_latency_sum_ += static_cast<double>(queued);
    hops_sum_ += hops;
  }
  std::uint64_t last_delivery() const noexcept { return last_delivery_; }

  /// The results of the window (a batch: [0, last delivery]); `sends(n)`
  /// tells whether node n is a source.
  template <class Sends>
  void fill(results& r, const fabric& f, std::size_t local_port, double offered_load, bool batch,
            Sends&& sends) {
    if (batch) {
      r.batch_cycles = last_delivery_;
      start_ = 0;
      end_ = last_delivery_ + 1;
    }
    r.window_cycles = end_ - start_;
    // An empty window (a deadlock before it began) accepted nothing.
    const double window = end_ > start_ ? static_cast<double>(end_ - start_) : HUGE_VAL;
    r.offered = batch ? 0 : offered_load;
    double total = 0;
    for (node_id n = 0; n < nodes_; ++n) {
      total += static_cast<double>(accepted_flits_[n]);
      if (!sends(n)) continue;
      r.sources.push_back(n);
      r.accepted_per_source.push_back(static_cast<double>(accepted_flits_[n]) / window);
      const double k = static_cast<double>(source_packets_[n]);
      const double mean = k == 0 ? 0.0 : source_latency_[n] / k;
      r.hops_per_source.push_back(k == 0 ? 0.0 : static_cast<double>(source_hops_[n]) / k);
      r.latency_per_source.push_back(mean);
      r.latency_sd_per_source.push_back(
          k == 0 ? 0.0 : std::sqrt(std::max(0.0, source_latency_squares_[n] / k - mean * mean)));
      r.network_latency_per_source.push_back(k == 0 ? 0.0 : source_network_latency_[n] / k);
      if (batch) r.completion_per_source.push_back(source_last_[n]);
    }
    r.source_latency_max_min = detail::max_min(r.latency_per_source);
    r.source_network_latency_max_min = detail::max_min(r.network_latency_per_source);
    if (!r.completion_per_source.empty()) {
      double sum = 0;
      r.completion_min = r.completion_per_source[0];
      for (const std::uint64_t c : r.completion_per_source) {
        sum += static_cast<double>(c);
        r.completion_min = std::min(r.completion_min, c);
        r.completion_max = std::max(r.completion_max, c);
      }
      r.completion_mean = sum / static_cast<double>(r.completion_per_source.size());
    }
    // Per endpoint host (a node's router; with a node shape, each router
    // with cores; adapters are none).
    const double hosts = static_cast<double>(f.host_count());
    r.accepted = total / window / hosts;
    if (batch && !r.sources.empty()) r.offered = static_cast<double>(r.sources.size()) / hosts;
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
    r.measured_in_source_queues = measured_created_ - measured_injected_;
    r.measured_in_network = measured_injected_ - measured_delivered_;
    r.complete = measured_delivered_ == measured_created_;
    if (!latencies_.empty()) {
      const double n = static_cast<double>(latencies_.size());
      double sum = 0, squares = 0, mx = 0;
      for (const auto l : latencies_) {
        sum += l;
        squares += static_cast<double>(l) * static_cast<double>(l);
        mx = std::max(mx, static_cast<double>(l));
      }
      r.latency_mean = sum / n;
      r.latency_sd = std::sqrt(std::max(0.0, squares / n - r.latency_mean * r.latency_mean));
      r.latency_max = mx;
      r.network_latency_p99 = quantile(network_latencies_, 0.99);
      r.network_latency_mean = network_latency_sum_ / n;
      r.queueing_latency_mean = queueing_latency_sum_ / n;
      r.hops_mean = hops_sum_ / n;
      r.latency_p50 = quantile(latencies_, 0.5);
      r.latency_p99 = quantile(latencies_, 0.99);
    }
    // Channels between nodes, by the direction they travel.
    const std::size_t dims = f.torus().dimensions();
    r.utilization.assign(dims, {0.0, 0.0});
    std::vector<std::uint64_t> sent(dims * 2, 0);      // flits per direction
    std::vector<std::uint64_t> channels(dims * 2, 0);  // channels per direction
    for (node_id n = 0; n < nodes_; ++n)
      for (std::size_t o = 0; o < local_port; ++o) {
        const channel_direction p = f.out_direction(n, o);
        if (!p.between_nodes()) continue;
        const std::size_t k = static_cast<std::size_t>(p.dimension) * 2 + (p.sign > 0 ? 0 : 1);
        sent[k] += channel_flits(n, o);
        ++channels[k];
      }
    for (std::size_t k = 0; k < dims * 2; ++k)
      if (channels[k] != 0)
        r.utilization[k / 2][k % 2] =
            static_cast<double>(sent[k]) / (static_cast<double>(channels[k]) * window);
  }

 private:
  node_id nodes_ = 0;
  std::size_t ports_ = 0;
  std::uint64_t start_ = 0, end_ = 0, last_delivery_ = 0;
  std::uint64_t measured_created_ = 0, measured_injected_ = 0, measured_delivered_ = 0;
  std::vector<std::uint64_t> accepted_flits_, source_hops_, source_packets_, source_last_;
  std::vector<double> source_latency_, source_latency_squares_, source_network_latency_;
  std::vector<std::uint64_t> channel_flits_;  // per (router, output port), in the window
  std::vector<std::uint32_t> latencies_, network_latencies_;
  double network_latency_sum_ = 0, queueing_latency_sum_ = 0, hops_sum_ = 0;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_MEASUREMENT_HPP
