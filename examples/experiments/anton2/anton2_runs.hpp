// SPDX-License-Identifier: BSL-1.0
// What the two node shapes' runs share (anton2_shape.cpp, router_shape.cpp):
// a batch run's configuration from its settings, and the measurement of a
// finished network: throughput, completion (by position in Anton 2's node),
// the links' use over time, request shares and the window slides counted
// at every arbiter.
#ifndef INTERLOCK_EXAMPLES_ANTON2_RUNS_HPP
#define INTERLOCK_EXAMPLES_ANTON2_RUNS_HPP

#include <interlock/arbiters/inverse_weight_tables.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weighted_family.hpp>
#include <interlock/arbiters/window_slides.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#include <interlock/model/network.hpp>
#include "anton2_experiment.hpp"

namespace anton2_experiment {

/// Runs `net` and measures it; `node_positions`: its sources are Anton 2's
/// cores, whose completion is summed by their router's place in the node.
/// `family`, when given, sums the arbiters' counts: sampled every
/// family_bin cycles and at the end into outcome::family_over_time.
template <class Net>
outcome finish(Net& net, double packets_per_node, double ideal_per_node,
               bool node_positions = false,
               const std::function<interlock::inverse_weighted_counts()>& family = {}) {
  outcome o;
  std::function<void(double)> progress;
  if (family)
    progress = [&](double) {
      if (net.now() % family_bin == 0) o.family_over_time.push_back({net.now(), family()});
    };
  const auto start = std::chrono::steady_clock::now();
  const interlock::model::results r = net.run(progress);
  if (family) o.family_over_time.push_back({net.now(), family()});
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.ok = r.complete && !r.deadlock.deadlocked;
  o.last = r.batch_cycles;
  o.normalized = packets_per_node / static_cast<double>(r.batch_cycles) / ideal_per_node;
  o.completion_spread = r.completion_min > 0 ? static_cast<double>(r.completion_max) /
                                                   static_cast<double>(r.completion_min)
                                             : 0;
  o.link_utilization = r.link_utilization;
  o.cycles = r.cycles;
  o.request_share = r.request_share_mean;
  o.request_share_p10 = r.request_share_p10;
  if (node_positions) {
    using at = interlock::anton2_topology;
    o.positions.assign(at::mesh_routers, {});
    std::vector<std::size_t> counted(at::mesh_routers, 0);
    for (std::size_t i = 0; i < r.sources.size() && i < r.completion_per_source.size(); ++i) {
      const std::size_t k = at::kind(r.sources[i]);
      if (k >= at::mesh_routers) continue;
      outcome::position& p = o.positions[k];
      const std::uint64_t c = r.completion_per_source[i];
      p.first = counted[k] == 0 ? c : std::min(p.first, c);
      p.last = std::max(p.last, c);
      p.mean += static_cast<double>(c);
      ++counted[k];
    }
    for (std::size_t k = 0; k < at::mesh_routers; ++k)
      if (counted[k] != 0) o.positions[k].mean /= static_cast<double>(counted[k]);
  }
  return o;
}

/// The window-slide counts of every arbiter of `net` (routers x ports, both
/// stages), when they count.
template <class T>
struct counts_slides : std::false_type {};
template <class A>
struct counts_slides<interlock::window_slide_counter<A>> : std::true_type {};

/// The counts() of every arbiter of `net` (routers x ports, both stages), summed.
template <class Counts, class Net>
Counts summed_counts(Net& net, node_id routers, std::size_t ports) {
  Counts c;
  for (node_id r = 0; r < routers; ++r)
    for (std::size_t p = 0; p < std::min(ports, net.routers().ports(r)); ++p) {
      c += net.routers().policy(r, p).counts();
      c += net.routers().input_policy(r, p).counts();
    }
  return c;
}

template <class Arbiter, class Net>
interlock::window_slide_counts slide_counts(Net& net, node_id routers, std::size_t ports) {
  if constexpr (counts_slides<Arbiter>::value)
    return summed_counts<interlock::window_slide_counts>(net, routers, ports);
  (void)net, (void)routers, (void)ports;
  return {};
}

/// What the iw:FORM arbiters of `net` counted (routers x ports, both
/// stages); nothing for other arbiters.
template <class T>
struct is_family : std::false_type {};
template <std::size_t K, std::size_t N, unsigned M>
struct is_family<interlock::inverse_weighted_family<K, N, M>> : std::true_type {};

template <class Arbiter, class Net>
interlock::inverse_weighted_counts family_counts(Net& net, node_id routers, std::size_t ports) {
  if constexpr (is_family<Arbiter>::value)
    return summed_counts<interlock::inverse_weighted_counts>(net, routers, ports);
  (void)net, (void)routers, (void)ports;
  return {};
}

/// finish()'s `family` for `net` under `s`: empty unless the arbiters are
/// iw:FORM and run_settings::family_over_time asks.
template <class Arbiter, class Net>
std::function<interlock::inverse_weighted_counts()> family_sampler(Net& net, node_id routers,
                                                                   std::size_t ports,
                                                                   const run_settings& s) {
  if (!is_family<Arbiter>::value || !s.family_over_time) return {};
  return [&net, routers, ports] { return family_counts<Arbiter>(net, routers, ports); };
}

/// A batch run's configuration: `batch` packets per source, 1-flit packets.
inline interlock::model::config batch_config(std::size_t batch, const run_settings& s) {
  interlock::model::config c;
  c.batch = batch;
  c.buffer_flits = s.buffer_flits;
  c.adapter_buffer_flits = s.adapter_buffer_flits;
  c.injection_buffer_flits = s.injection_buffer_flits;
  if (s.pipeline == 4) {
    c.head_cycles = 2;    // RC, VA
    c.switch_stages = 2;  // SA1, SA2
  }
  c.pipelined_heads = s.pipelined_heads;
  c.persistent_picks = s.persistent_picks;
  c.utilization_bin = s.timeline_bin;
  c.count_requests = s.count_requests;
  c.prefetch = s.prefetch;
  c.seed = s.seed;
  c.measure = 100000000;
  c.drain = 0;
  return c;
}

/// A type, passed as a value.
template <class T>
struct type_tag {
  using type = T;
};

/// Calls run(tables, type_tag<Arbiter>{}) with the weight-table factory and
/// arbiter type of a's model (the hardware model, its window slides counted,
/// with a's headroom; Eq. 3; or the family of a's form) for arbiters of K inputs and `labels` (1 or
/// 2) pattern labels.
template <std::size_t K, class Run>
outcome with_weighted(const arbiter_model& a, std::size_t labels, Run&& run) {
  namespace il = interlock;
  if (a.model == arbiter_model::kind::family) {
    if (labels == 1)
      return run(il::inverse_weighted_family_tables<K, 1, weight_bits>(a.form, a.headroom),
                 type_tag<il::inverse_weighted_family<K, 1, weight_bits>>{});
    return run(il::inverse_weighted_family_tables<K, 2, weight_bits>(a.form, a.headroom),
               type_tag<il::inverse_weighted_family<K, 2, weight_bits>>{});
  }
  if (a.model == arbiter_model::kind::exact) {
    if (labels == 1)
      return run(il::exact_weight_tables<K, 1>{}, type_tag<il::inverse_weighted_exact<K, 1>>{});
    return run(il::exact_weight_tables<K, 2>{}, type_tag<il::inverse_weighted_exact<K, 2>>{});
  }
  if (labels == 1)
    return run(
        il::inverse_weight_tables<K, 1, weight_bits>(a.headroom),
        type_tag<il::window_slide_counter<il::inverse_weighted_arbiter<K, 1, weight_bits>>>{});
  return run(il::inverse_weight_tables<K, 2, weight_bits>(a.headroom),
             type_tag<il::window_slide_counter<il::inverse_weighted_arbiter<K, 2, weight_bits>>>{});
}

}  // namespace anton2_experiment

#endif  // INTERLOCK_EXAMPLES_ANTON2_RUNS_HPP
