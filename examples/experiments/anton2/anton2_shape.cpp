// SPDX-License-Identifier: BSL-1.0
// Anton 2's node shape's runs (anton2_experiment.hpp), compiled once for
// saturation and blend: the unified network under round robin, the
// hardware model (window slides counted), Eq. 3 and the inverse-weighted
// family's forms (their counts collected), one or two labels.
#include <interlock/arbiters/inverse_weight_tables.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/arbiters/window_slides.hpp>
#include <interlock/traffic/arbitration_weights.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "anton2_experiment.hpp"
#include "anton2_runs.hpp"

namespace anton2_experiment {

namespace {
interlock::anton2_links with_latency(unsigned torus_latency) {
  interlock::anton2_links l;
  l.torus_latency = torus_latency;
  return l;
}
}  // namespace

anton2_shape::anton2_shape(std::size_t k, unsigned torus_latency)
    : torus_({k, k, k}, {}, 2), node_(torus_, with_latency(torus_latency)), routing_(node_) {}

// Computed at first use, under a lock: runs on several threads share them
// (a std::map's elements stay where they are).
const interlock::unified_arbiter_loads& anton2_shape::loads(const std::string& pattern) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = loads_.find(pattern);
  if (it == loads_.end())
    it = loads_
             .emplace(pattern, with_pattern(pattern,
                                            [&](const auto& p) {
                                              return interlock::anton2_arbiter_loads(
                                                  routing_, interlock::traffic_class::request, p);
                                            }))
             .first;
  return it->second;
}

template <class Tables, class Arbiter>
outcome anton2_shape::run_weighted(const interlock::model::config& c, const run_settings& s,
                                   const interlock::model::traffic_source& traffic,
                                   const std::vector<std::string>& weights, Tables tables,
                                   const std::string& model, double packets, double ideal) {
  std::vector<const interlock::unified_arbiter_loads*> l;
  for (const std::string& w : weights) l.push_back(&loads(w));
  // Every run of one arbiter model and weight set shares its tables: built
  // at the first, under a lock (they depend on neither the batch, nor the
  // buffers, nor the seed).
  using table_set =
      decltype(interlock::unified_arbitration_tables(tables, interlock::stack_unified_labels(l)));
  std::string key = model;
  for (const std::string& w : weights) key += "," + w;
  std::shared_ptr<const table_set> shared;
  {
    std::lock_guard<std::mutex> lock(tables_mutex_);
    std::shared_ptr<const void>& slot = tables_[key];
    if (!slot)
      slot = std::make_shared<const table_set>(
          interlock::unified_arbitration_tables(tables, interlock::stack_unified_labels(l)));
    shared = std::static_pointer_cast<const table_set>(slot);
  }
  const table_set& w = *shared;
  interlock::model::network<interlock::anton2_routing, Arbiter,
                            interlock::model::separable_allocator, Arbiter>
      net(
          routing_, c, traffic, [&](node_id r, std::size_t o) { return Arbiter(w.output(r, o)); },
          {}, s.allocator, [&](node_id r, std::size_t q) { return Arbiter(w.input(r, q)); });
  const auto routers = static_cast<node_id>(w.outputs.size() / w.ports);
  constexpr std::size_t ports = interlock::anton2_topology::network_ports + 1;
  outcome o = finish(net, packets, ideal, true, family_sampler<Arbiter>(net, routers, ports, s));
  o.slides = slide_counts<Arbiter>(net, routers, ports);
  o.family = family_counts<Arbiter>(net, routers, ports);
  return o;
}

outcome anton2_shape::run(const run_settings& s, const interlock::model::traffic_source& nodes,
                          const std::vector<std::string>& weights, double ideal_per_node) {
  const interlock::model::config c = batch_config(s.batch, s);
  const auto traffic = interlock::model::to_cores(node_, nodes);
  const double packets = static_cast<double>(s.batch * cores);
  if (weights.empty() || !s.arbiter.weighted()) {
    using rr = interlock::round_robin_arbiter<8>;
    interlock::model::network<interlock::anton2_routing, rr, interlock::model::separable_allocator,
                              rr>
        net(
            routing_, c, traffic, [](node_id, std::size_t) { return rr{}; }, {}, s.allocator,
            [](node_id, std::size_t) { return rr{}; });
    return finish(net, packets, ideal_per_node, true);
  }
  return with_weighted<8>(s.arbiter, weights.size(), [&](auto tables, auto arbiter) {
    return run_weighted<decltype(tables), typename decltype(arbiter)::type>(
        c, s, traffic, weights, tables, s.arbiter.name(), packets, ideal_per_node);
  });
}

}  // namespace anton2_experiment
