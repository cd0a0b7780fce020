// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/sl_measurement.hpp: what a run of a switch network measures per SL.
//
// [QoSThesis] Section 2.4's metrics per SL: throughput and normalized
// throughput, end-to-end latency (creation to the tail's delivery) and
// network latency (the head leaving the NIC to the tail's delivery).
//
// Contract
//   - measurement(sls): counters per SL over a window [start, end);
//     reset(now) opens [now, forever), window(start, end) sets it; created()
//     and delivered() count what falls in the window (O(1), no allocation);
//     for a message cut into packets, flits_delivered() per packet and
//     completed() once its last packet is in (latencies and counts are per
//     message).
//   - results(nics, now) -> sl_result per SL over the window up to `now`
//     (at least one cycle): offered and delivered flits per cycle per NIC,
//     the share of the delivered flits, mean latencies; all zero before any
//     counting. A figure over no samples is NaN: an SL's latencies when no
//     message of it completed in the window, every share when no flit was
//     delivered.
//   - accumulate_mean(into, r, runs): into[sl] += r[sl] / runs, field by
//     field (the packet counts are summed), a NaN figure left out and the
//     runs that gave one counted; mean_over_seeds(runs, run) is the mean of
//     run(seed) -> results for seeds 1..runs, each figure over the runs that
//     measured it (NaN where none did; bit for bit the plain mean where all
//     did).
//
// Example
//   interlock::model::qos_switch::measurement m(2);
//   m.reset(0);
//   m.created(1, 16, 5);
//   m.delivered(1, 16, 180, 170, 185);
//   auto r = m.results(1, 200);    // r[1].latency_mean == 180
#ifndef INTERLOCK_MODEL_QOS_SWITCH_SL_MEASUREMENT_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_SL_MEASUREMENT_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace interlock {
namespace model {
namespace qos_switch {

/// One SL's figures over a run's measured window.
struct sl_result {
  double offered = 0;                // flits created per cycle per NIC
  double throughput = 0;             // flits delivered per cycle per NIC
  double normalized_throughput = 0;  // share of all delivered flits
  double latency_mean = 0;           // creation to delivery, cycles
  double network_latency_mean = 0;   // leaving the NIC to delivery, cycles
  std::uint64_t packets = 0;         // messages delivered in the window (each whole)
  // In a mean over runs: how many runs measured the latencies (delivered a
  // message of the SL) and the share (delivered any flit).
  std::size_t latency_runs = 0, share_runs = 0;
};

/// into[sl] += r[sl] / runs for every field (packets summed): one run's
/// share of a mean over `runs`; `into` grows to r's size.
inline void accumulate_mean(std::vector<sl_result>& into, const std::vector<sl_result>& r,
                            std::size_t runs) {
  if (into.size() < r.size()) into.resize(r.size());
  const double n = static_cast<double>(runs);
  for (std::size_t sl = 0; sl < r.size(); ++sl) {
    into[sl].offered += r[sl].offered / n;
    into[sl].throughput += r[sl].throughput / n;
    if (r[sl].normalized_throughput == r[sl].normalized_throughput) {
      into[sl].normalized_throughput += r[sl].normalized_throughput / n;
      ++into[sl].share_runs;
    }
    if (r[sl].latency_mean == r[sl].latency_mean) {
      into[sl].latency_mean += r[sl].latency_mean / n;
      into[sl].network_latency_mean += r[sl].network_latency_mean / n;
      ++into[sl].latency_runs;
    }
    into[sl].packets += r[sl].packets;
  }
}

/// Turns sums of accumulate_mean() over `runs` into means over the runs
/// that measured each figure: NaN where none did, unchanged where all did.
inline void finish_mean(std::vector<sl_result>& mean, std::size_t runs) {
  const auto over = [runs](double& x, std::size_t measured) {
    if (measured == 0) {
      x = std::numeric_limits<double>::quiet_NaN();
    } else if (measured != runs) {
      x *= static_cast<double>(runs) / static_cast<double>(measured);
    }
  };
  for (sl_result& m : mean) {
    over(m.normalized_throughput, m.share_runs);
    over(m.latency_mean, m.latency_runs);
    over(m.network_latency_mean, m.latency_runs);
  }
}

/// The mean of run(seed)'s per-SL results over seeds 1..runs, each figure
/// over the runs that measured it.
template <class Run>
std::vector<sl_result> mean_over_seeds(std::size_t runs, Run&& run) {
  std::vector<sl_result> mean;
  for (std::size_t seed = 1; seed <= runs; ++seed) accumulate_mean(mean, run(seed), runs);
  finish_mean(mean, runs);
  return mean;
}

class measurement {
 public:
  explicit measurement(std::size_t sls = 0) : sls_(sls) {}

  bool started() const noexcept { return !created_.empty(); }
  void reset(std::uint64_t now) {
    created_.assign(sls_, 0);
    delivered_.assign(sls_, 0);
    packets_.assign(sls_, 0);
    latency_.assign(sls_, 0);
    network_latency_.assign(sls_, 0);
    window(now, ~std::uint64_t{0});
  }
  void window(std::uint64_t start, std::uint64_t end) noexcept {
    start_ = start;
    end_ = end;
  }
  std::uint64_t end() const noexcept { return end_; }
  bool in_window(std::uint64_t t) const noexcept { return t >= start_ && t < end_; }

  void created(std::size_t sl, std::uint32_t flits, std::uint64_t t) noexcept {
    if (in_window(t)) created_[sl] += flits;
  }
  /// A whole message delivered at t: its flits and its latencies.
  void delivered(std::size_t sl, std::uint32_t flits, std::uint64_t latency,
                 std::uint64_t network_latency, std::uint64_t t) noexcept {
    flits_delivered(sl, flits, t);
    completed(sl, latency, network_latency, t);
  }
  /// A packet of a message cut into packets, delivered at t.
  void flits_delivered(std::size_t sl, std::uint32_t flits, std::uint64_t t) noexcept {
    if (in_window(t)) delivered_[sl] += flits;
  }
  /// A message whose last packet was delivered at t.
  void completed(std::size_t sl, std::uint64_t latency, std::uint64_t network_latency,
                 std::uint64_t t) noexcept {
    if (!in_window(t)) return;
    latency_[sl] += static_cast<double>(latency);
    network_latency_[sl] += static_cast<double>(network_latency);
    ++packets_[sl];
  }

  std::vector<sl_result> results(std::size_t nics, std::uint64_t now) const {
    std::vector<sl_result> r(sls_);
    if (!started()) return r;
    const std::uint64_t last = std::min(end_, std::max(now, start_ + 1));
    const double cycles = static_cast<double>(last - start_);
    const double n = static_cast<double>(nics);
    const double none = std::numeric_limits<double>::quiet_NaN();
    double total = 0;
    for (std::size_t sl = 0; sl < sls_; ++sl) total += static_cast<double>(delivered_[sl]);
    for (std::size_t sl = 0; sl < sls_; ++sl) {
      r[sl].offered = static_cast<double>(created_[sl]) / cycles / n;
      r[sl].throughput = static_cast<double>(delivered_[sl]) / cycles / n;
      r[sl].normalized_throughput = total > 0 ? static_cast<double>(delivered_[sl]) / total : none;
      r[sl].packets = packets_[sl];
      r[sl].latency_runs = r[sl].share_runs = 1;
      if (packets_[sl] > 0) {
        r[sl].latency_mean = latency_[sl] / static_cast<double>(packets_[sl]);
        r[sl].network_latency_mean = network_latency_[sl] / static_cast<double>(packets_[sl]);
      } else {
        r[sl].latency_mean = r[sl].network_latency_mean = none;
        r[sl].latency_runs = 0;
      }
      if (total == 0) r[sl].share_runs = 0;
    }
    return r;
  }

 private:
  std::size_t sls_;
  std::uint64_t start_ = 0, end_ = 1;
  std::vector<std::uint64_t> created_, delivered_, packets_;
  std::vector<double> latency_, network_latency_;
};

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_SL_MEASUREMENT_HPP
