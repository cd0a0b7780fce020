// SPDX-License-Identifier: BSL-1.0
// The one-router-per-node shape's runs (anton2_experiment.hpp), compiled
// once for saturation and blend: 12 torus ports and 8 endpoints under
// round robin, the hardware model (window slides counted) and Eq. 3, one
// or two labels.
#include <interlock/arbiters/inverse_weight_tables.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/arbiters/window_slides.hpp>
#include <interlock/traffic/arbitration_weights.hpp>

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "anton2_experiment.hpp"
#include "anton2_runs.hpp"

namespace anton2_experiment {

router_shape::router_shape(std::size_t k, unsigned torus_latency)
    : torus_({k, k, k}, {}, 2),
      routing_(torus_, interlock::all_dimension_orders(3)),
      latency_(torus_latency) {}

const router_shape::stage_loads& router_shape::loads(const std::string& pattern) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = loads_.find(pattern);
  if (it == loads_.end()) {
    stage_loads s;
    with_pattern(pattern, [&](const auto& p) {
      s.outputs = interlock::router_arbiter_loads(routing_, interlock::traffic_class::request, p);
      s.inputs = interlock::router_input_loads(routing_, interlock::traffic_class::request, p);
      return 0;
    });
    it = loads_.emplace(pattern, std::move(s)).first;
  }
  return it->second;
}

// The model's ports: 12 torus ports, then the endpoints, which share the
// loads' one local port evenly.
template <class Tables, class Arbiter>
outcome router_shape::run_weighted(const interlock::model::config& c, const run_settings& s,
                                   const interlock::model::traffic_source& nodes,
                                   const std::vector<std::string>& weights, Tables tables,
                                   double packets, double ideal) {
  std::vector<const interlock::arbiter_loads*> outputs, inputs;
  for (const std::string& w : weights) {
    outputs.push_back(&loads(w).outputs);
    inputs.push_back(&loads(w).inputs);
  }
  const std::size_t local = torus_.local_port(), lp = torus_.ports();
  // The output stage's inputs: the torus ports, then the endpoints, which
  // share the loads' one local port evenly.
  interlock::arbiter_loads spread = interlock::stack_labels(outputs);
  for (auto& point : spread) {
    const std::vector<double> shared = point[local];
    point.resize(local + endpoints, shared);
    for (std::size_t e = local; e < local + endpoints; ++e)
      for (double& x : point[e]) x /= static_cast<double>(endpoints);
  }
  const auto out = interlock::arbitration_tables(tables, spread);
  const auto in = interlock::arbitration_tables(tables, interlock::stack_labels(inputs));
  auto output = [&](node_id r, std::size_t o) { return Arbiter(out[r * lp + std::min(o, local)]); };
  auto input = [&](node_id r, std::size_t q) { return Arbiter(in[r * lp + std::min(q, local)]); };
  interlock::model::network<interlock::vc_promotion_routing, Arbiter,
                            interlock::model::separable_allocator, Arbiter>
      net(routing_, c, nodes, output, {}, s.allocator, input);
  outcome o = finish(net, packets, ideal, false,
                     family_sampler<Arbiter>(net, torus_.node_count(), local + endpoints, s));
  o.slides = slide_counts<Arbiter>(net, torus_.node_count(), local + endpoints);
  o.family = family_counts<Arbiter>(net, torus_.node_count(), local + endpoints);
  return o;
}

outcome router_shape::run(const run_settings& s, const interlock::model::traffic_source& nodes,
                          const std::vector<std::string>& weights, double ideal_per_node) {
  interlock::model::config c = batch_config(s.batch * cores, s);
  c.endpoints = endpoints;
  c.channel_latency = 1 + latency_;  // every channel a torus link
  const double packets = static_cast<double>(s.batch * cores);
  if (weights.empty() || !s.arbiter.weighted()) {
    using rr = interlock::round_robin_arbiter<64>;
    interlock::model::network<interlock::vc_promotion_routing, rr,
                              interlock::model::separable_allocator>
        net(
            routing_, c, nodes, [](node_id, std::size_t) { return rr{}; }, {}, s.allocator);
    return finish(net, packets, ideal_per_node);
  }
  return with_weighted<64>(s.arbiter, weights.size(), [&](auto tables, auto arbiter) {
    return run_weighted<decltype(tables), typename decltype(arbiter)::type>(
        c, s, nodes, weights, tables, packets, ideal_per_node);
  });
}

}  // namespace anton2_experiment
