// SPDX-License-Identifier: BSL-1.0
// netsim's summary of one run: results_text() gives the lines it prints
// (load, latency, fairness, channel utilization, the age counters, speed and
// a deadlock's cycle of buffers), as text, so that the runs of a sweep made
// in parallel print in the order of the list. A figure that measured nothing
// says "none".
#ifndef INTERLOCK_EXAMPLES_NETSIM_REPORT_HPP
#define INTERLOCK_EXAMPLES_NETSIM_REPORT_HPP

#include <interlock/model/measurement.hpp>

#include <cstddef>
#include <string>

#include "cli.hpp"
#include "netsim_args.hpp"

namespace netsim_tool {

/// The summary of one run, as netsim prints it.
inline std::string results_text(const arguments& a, const interlock::model::results& r,
                                double capacity) {
  std::string out;
  if (a.finite()) {
    if (!a.trace.on())
      out += cli::format("batch: %zu packets per source, last delivery at cycle %llu\n",
                         a.model.batch, static_cast<unsigned long long>(r.batch_cycles));
    if (!r.complete && !a.trace.on())  // (a trace's is trace_text()'s)
      out += cli::format(
          "BATCH CUT OFF at cycle %llu (--cycles + --drain): %zu of %zu packets delivered, %zu "
          "still in source queues, %zu in the network\n",
          static_cast<unsigned long long>(r.cycles), r.measured_delivered, r.measured_packets,
          r.measured_in_source_queues, r.measured_in_network);
    if (r.delivered_any())
      out += cli::format(
          "completion per source (cycle of its last delivery, sources that delivered): min %llu  "
          "mean %.1f  max %llu\n",
          static_cast<unsigned long long>(r.completion_min), r.completion_mean,
          static_cast<unsigned long long>(r.completion_max));
    else
      out += "completion per source: none (no packet delivered)\n";
  } else {
    out += cli::format("offered %.3f flits/node/cycle\n", r.offered);
  }
  out += cli::format("accepted %.4f flits/node/cycle", r.accepted);
  if (capacity > 0)
    out += cli::format(" (%.3f of the pattern's ideal %.4f)", r.accepted / capacity, capacity);
  out += cli::format("\n");
  if (r.delivered_any())
    out += cli::format(
        "latency (cycles) mean %.2f  sd %.2f  p50 %.0f  p99 %.0f  max %.0f  (network %.2f, p99 "
        "%.0f; source queue %.2f); %.2f hops on average\n",
        r.latency_mean, r.latency_sd, r.latency_p50, r.latency_p99, r.latency_max,
        r.network_latency_mean, r.network_latency_p99, r.queueing_latency_mean, r.hops_mean);
  else
    out += cli::format("latency: none (no packet created in the window was delivered)\n");
  if (!a.finite() && !r.complete) {
    const char* why = r.deadlock.deadlocked ? "the network deadlocked"
                      : a.model.drain == 0  ? "still in flight when the window ended; --drain 0 "
                                              "waits for none"
                                            : "--drain ended first (past saturation)";
    out += cli::format(
        "  %zu of %zu packets created in the window were not delivered: %s (%zu in source "
        "queues, %zu in the network); the latency is of the delivered ones\n",
        r.measured_packets - r.measured_delivered, r.measured_packets, why,
        r.measured_in_source_queues, r.measured_in_network);
  }
  if (!a.finite() && r.accepted_any())
    out += cli::format(
        "fairness over %zu sources: Jain %.4f, max/min throughput %s", r.sources.size(), r.jain,
        r.max_min_ratio == r.max_min_ratio ? cli::format("%.3f", r.max_min_ratio).c_str()
                                           : "none (a source accepted nothing)");
  else if (!a.finite())
    out += cli::format("fairness over %zu sources: none (no flit delivered in the window)",
                       r.sources.size());
  else
    out += cli::format("over %zu sources", r.sources.size());
  if (r.delivered_any())
    out += cli::format("; max/min mean latency %.3f (network %.3f)\n", r.source_latency_max_min,
                       r.source_network_latency_max_min);
  else
    out += cli::format("; max/min mean latency none\n");
  out += cli::format("channel utilization:");
  for (std::size_t d = 0; d < r.utilization.size(); ++d)
    out += cli::format(" dim %zu +%.3f -%.3f", d, r.utilization[d][0], r.utilization[d][1]);
  out += cli::format("\n");
  if (r.has_age) {
    out += cli::format(
        "age histogram (departures, ages 0-63/64-127/128-191/192-255): %llu %llu %llu %llu;"
        " stalled cycles %llu, occupancy (Eq. 17) %.3f\n",
        static_cast<unsigned long long>(r.age_histogram[0]),
        static_cast<unsigned long long>(r.age_histogram[1]),
        static_cast<unsigned long long>(r.age_histogram[2]),
        static_cast<unsigned long long>(r.age_histogram[3]),
        static_cast<unsigned long long>(r.stalled_cycles), r.occupancy);
    out += cli::format("occupancy by input direction:");
    for (std::size_t d = 0; d < r.occupancy_by_direction.size(); ++d) {
      const char name =
          static_cast<char>(d < 3 ? 'X' + static_cast<int>(d) : '0' + static_cast<int>(d));
      out += cli::format(" +%c %.3f -%c %.3f", name, r.occupancy_by_direction[d][0], name,
                         r.occupancy_by_direction[d][1]);
    }
    out += cli::format("; epoch switches %llu, age clock inhibited %.1f%% of router-cycles\n",
                       static_cast<unsigned long long>(r.epoch_switches), 100 * r.inhibited_share);
    if (r.inhibited_share > 0.1)
      out += cli::format(
          "  warning: the age clocks were inhibited more than 10%% of the time: AGE_CLK_PERIOD "
          "is too small for the queueing this network holds (Section 3.2)\n");
  }
  out += cli::format(
      "speed: %llu cycles (%llu stepped) x %zu routers in %.2f s = %.3g router-cycles/s\n",
      static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.stepped_cycles),
      r.routers, r.wall_s, r.router_cycles_per_s());
  if (r.deadlock.deadlocked && a.finite()) {
    out += cli::format(
        "DEADLOCK at cycle %llu: nothing moved for the stall limit; full buffers, each "
        "waiting for the next:\n",
        static_cast<unsigned long long>(r.deadlock.cycle));
    for (const auto& b : r.deadlock.cycle_of_buffers) out += cli::format("  %s\n", b.c_str());
  } else if (r.deadlock.deadlocked) {
    out += cli::format(
        "DEADLOCK at cycle %llu: nothing moved for the stall limit; the measurement window "
        "ended there (%llu of %llu cycles measured; the figures above are over those); full "
        "buffers, each waiting for the next:\n",
        static_cast<unsigned long long>(r.deadlock.cycle),
        static_cast<unsigned long long>(r.window_cycles),
        static_cast<unsigned long long>(a.model.measure));
    for (const auto& b : r.deadlock.cycle_of_buffers) out += cli::format("  %s\n", b.c_str());
  }
  return out;
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_REPORT_HPP
