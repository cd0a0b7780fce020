// SPDX-License-Identifier: BSL-1.0
// interlock/model/measurement.hpp: what a run of the model measures.
//
// Contract
//   measurement accumulates, over a run's measured window [start, end):
//   flits delivered per source, flits sent per (router, output port), and,
//   for the packets created in the window (every packet of a batch), how
//   many were created, injected and delivered, and the delivered ones'
//   latency (creation to delivery), time in the source queue and hops; per
//   source, the latency and hops of the packets delivered in the window.
//   fill() turns them into results (results.hpp: loads, latency, fairness,
//   completion, channel utilization; its CSV row). Recording costs O(1) and
//   allocates only to grow the latency sample.
//
// Example
//   interlock::model::measurement m(16, 5);   // 16 routers of 5 ports
//   m.set_window(100, 1100);                  // the measured cycles
#ifndef INTERLOCK_MODEL_MEASUREMENT_HPP
#define INTERLOCK_MODEL_MEASUREMENT_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "interlock/core/prefetch.hpp"
#include "interlock/core/random.hpp"
#include "interlock/model/deadlock.hpp"
#include "interlock/model/fabric.hpp"
#include "interlock/model/results.hpp"
#include "interlock/model/sources.hpp"
#include "interlock/topology/torus.hpp"
#include "interlock/verify/fairness_metrics.hpp"

namespace interlock {
namespace model {
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
  void uncount_created(std::uint64_t k = 1) noexcept { measured_created_ -= k; }
  void count_injected(std::uint64_t k = 1) noexcept { measured_injected_ += k; }
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
    r.source_latency_max_min = verify::max_min(r.latency_per_source);
    r.source_network_latency_max_min = verify::max_min(r.network_latency_per_source);
    // Completion over the sources that delivered a packet (another has none).
    double completed = 0, completion_sum = 0;
    for (std::size_t i = 0; i < r.completion_per_source.size(); ++i) {
      if (source_packets_[r.sources[i]] == 0) continue;
      const std::uint64_t c = r.completion_per_source[i];
      r.completion_min = completed == 0 ? c : std::min(r.completion_min, c);
      r.completion_max = std::max(r.completion_max, c);
      completion_sum += static_cast<double>(c);
      ++completed;
    }
    if (completed > 0) r.completion_mean = completion_sum / completed;
    // Per endpoint host (a node's router; with a node shape, each router
    // with cores; adapters are none).
    const double hosts = static_cast<double>(f.host_count());
    r.accepted = total / window / hosts;
    if (batch && !r.sources.empty()) r.offered = static_cast<double>(r.sources.size()) / hosts;
    r.jain = verify::jain_index(r.accepted_per_source);
    double lo = 0, hi = 0;
    for (std::size_t i = 0; i < r.accepted_per_source.size(); ++i) {
      const double a = r.accepted_per_source[i];
      lo = i == 0 ? a : std::min(lo, a);
      hi = i == 0 ? a : std::max(hi, a);
    }
    // A source that accepted nothing leaves the ratio without a figure (NaN:
    // none); Jain's index and the per-source figures still show it.
    r.max_min_ratio = lo > 0 ? hi / lo : std::numeric_limits<double>::quiet_NaN();
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
      r.network_latency_mean = network_latency_sum_ / n;
      double network_squares = 0, network_max = 0;
      for (const auto l : network_latencies_) {
        network_squares += static_cast<double>(l) * static_cast<double>(l);
        network_max = std::max(network_max, static_cast<double>(l));
      }
      r.network_latency_sd = std::sqrt(
          std::max(0.0, network_squares / n - r.network_latency_mean * r.network_latency_mean));
      r.network_latency_max = network_max;
      r.network_latency_p99 = quantile(network_latencies_, 0.99);
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
