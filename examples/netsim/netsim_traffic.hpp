// SPDX-License-Identifier: BSL-1.0
// netsim's traffic: the pattern or mix of patterns a run offers, its
// capacity (the busiest channel, injection or ejection port per unit
// offered) and, for inverse weights, the loads at every arbitration point
// (per pattern label; Anton 2's unified network's both stages), for one
// routing scheme type at a time.
#ifndef INTERLOCK_EXAMPLES_NETSIM_TRAFFIC_HPP
#define INTERLOCK_EXAMPLES_NETSIM_TRAFFIC_HPP

#include <interlock/routing/anton2.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/topology/anton2_node.hpp>
#include <interlock/topology/torus.hpp>
#include <interlock/traffic/anton2_loads.hpp>
#include <interlock/traffic/arbitration_weights.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <interlock/model/anton2_node.hpp>
#include <interlock/model/sources.hpp>
#include "netsim_args.hpp"

namespace netsim_tool {

using interlock::node_id;

// The torus a scheme's traffic patterns run on, and the node a source is in:
// the topology itself, or Anton 2's unified network's torus of nodes.
inline const interlock::torus_topology& torus_of(const interlock::torus_topology& t) { return t; }
inline const interlock::torus_topology& torus_of(const interlock::anton2_topology& t) {
  return t.torus();
}
inline node_id node_of(const interlock::torus_topology&, node_id r) { return r; }
inline node_id node_of(const interlock::anton2_topology&, node_id r) {
  return interlock::anton2_topology::node_of(r);
}

// What the run needs of its traffic pattern (or mix).
struct traffic_setup {
  interlock::model::traffic_source destination = interlock::model::destination_function{};
  double capacity = 0;             // 0: not computed
  interlock::arbiter_loads loads;  // only for --arbiter inverse_weighted: [arbiter][input][label]
  interlock::arbiter_loads input_loads;  // --input-arbiter inverse_weighted: [port][VC][label]
  // Anton 2's unified network: both stages' loads, [label] in the last place.
  std::shared_ptr<const interlock::unified_arbiter_loads> unified;
  // Per unit of offered load: each channel's load, each node's ejection
  // load, and which nodes send (for the capacity of a mix).
  std::vector<double> channel, into;
  std::vector<bool> sends;
};

// 1 / the busiest channel, injection or ejection port, per unit offered
// (the ports carry endpoint_bandwidth flits a cycle), times the share of
// nodes that send.
inline double capacity_of(const arguments& a, const traffic_setup& s) {
  const double endpoint = a.model.endpoint_bandwidth;
  double busiest = 1 / endpoint;  // the injection port
  for (const double l : s.channel) busiest = std::max(busiest, l);
  for (const double l : s.into) busiest = std::max(busiest, l / endpoint);
  const double senders = static_cast<double>(std::count(s.sends.begin(), s.sends.end(), true));
  return senders / static_cast<double>(s.sends.size()) / busiest;
}

// The largest network whose flows are summed for the capacity and the weights.
constexpr double max_flow_pairs = 4.0e6;

// Each node's ejection load and whether it sends, then the capacity, from
// the pattern's flows (s.channel already set).
template <class Pattern>
void add_flows(const arguments& a, const interlock::torus_topology& t, const Pattern& pattern,
               traffic_setup& s) {
  s.into.assign(t.node_count(), 0.0);
  s.sends.assign(t.node_count(), false);
  pattern.for_each_flow(t, [&](node_id src, node_id dst, double rate) {
    s.into[dst] += rate;
    if (rate > 0) s.sends[src] = true;
  });
  s.capacity = capacity_of(a, s);
}

inline void check_flow_pairs(double pairs) {
  if (pairs > max_flow_pairs)
    throw bad_input{
        "--arbiter: inverse_weighted computes its weights from every flow's "
        "route; at most 2000 nodes"};
}

template <class Scheme, class Pattern>
traffic_setup make_traffic(const arguments& a, const Scheme& scheme, const Pattern& pattern) {
  const interlock::torus_topology& t = scheme.topology();
  pattern.check(t);
  traffic_setup s;
  s.destination = [pattern, &t](node_id source, interlock::splitmix64& rng) {
    return pattern.destination(t, source, rng);
  };
  const double pairs = static_cast<double>(t.node_count()) * static_cast<double>(t.node_count());
  if (pairs <= max_flow_pairs) {
    s.channel = interlock::channel_loads(scheme, pattern);
    add_flows(a, t, pattern, s);
  }
  if (inverse_weighted_name(a.arbiter)) {
    check_flow_pairs(pairs);
    s.loads = interlock::router_arbiter_loads(scheme, interlock::traffic_class::request, pattern);
    if (inverse_weighted_name(a.input_arbiter))
      s.input_loads =
          interlock::router_input_loads(scheme, interlock::traffic_class::request, pattern);
  }
  return s;
}

// Anton 2's unified network: packets from cores to cores (to_cores), the
// capacity per core from the torus links' loads under the same orders and
// slices, and the loads at every arbitration point.
template <class Pattern>
traffic_setup make_traffic(const arguments& a, const interlock::anton2_routing& scheme,
                           const Pattern& pattern) {
  const interlock::anton2_topology& node = scheme.topology();
  const interlock::torus_topology& t = node.torus();
  pattern.check(t);
  traffic_setup s;
  s.destination =
      interlock::model::to_cores(node, [pattern, &t](node_id n, interlock::splitmix64& rng) {
        return pattern.destination(t, n, rng);
      });
  const double pairs = static_cast<double>(t.node_count()) * static_cast<double>(t.node_count());
  if (pairs <= max_flow_pairs) {
    const interlock::vc_promotion_routing torus_routes(t, scheme.orders());
    s.channel = interlock::channel_loads(torus_routes, pattern);
    // Per unit a core offers, a node offers 16: in units of a link's bandwidth.
    for (double& l : s.channel) l *= 16.0 / node.links().torus_bandwidth;
    add_flows(a, t, pattern, s);  // per core: its node's share
  }
  if (inverse_weighted_name(a.arbiter)) {
    check_flow_pairs(pairs);
    s.unified = std::make_shared<const interlock::unified_arbiter_loads>(
        interlock::anton2_arbiter_loads(scheme, interlock::traffic_class::request, pattern));
  }
  return s;
}

/// The traffic of pattern `name` (--traffic's, or --weights-from's: `flag`).
template <class Scheme>
traffic_setup with_pattern(const arguments& a, const Scheme& scheme, const std::string& name,
                           const char* flag) {
  const interlock::torus_topology& t = torus_of(scheme.topology());
  const node_id last = t.node_count() - 1;
  const node_id chosen =
      a.destination == ~std::size_t{0} ? last : static_cast<node_id>(a.destination);
  if (a.destination != ~std::size_t{0} && a.destination > last)
    throw bad_input{"--destination: " + std::to_string(a.destination) +
                    "; the network has nodes 0.." + std::to_string(last)};
  namespace tr = interlock::traffic;
  if (name == "uniform_random") return make_traffic(a, scheme, tr::uniform_random{});
  if (name == "tornado") return make_traffic(a, scheme, tr::tornado{});
  if (name == "reverse_tornado") return make_traffic(a, scheme, tr::reverse_tornado{});
  if (name == "bit_complement") return make_traffic(a, scheme, tr::bit_complement{});
  if (name == "transpose") return make_traffic(a, scheme, tr::transpose{});
  if (name == "neighbor") return make_traffic(a, scheme, tr::neighbor{a.neighbor_hops});
  if (name == "all_to_one") return make_traffic(a, scheme, tr::all_to_one{chosen});
  if (name == "hotspot") return make_traffic(a, scheme, tr::hotspot{chosen, a.hotspot_fraction});
  throw bad_input{std::string(flag) + ": '" + name +
                  "'; allowed: uniform_random, tornado, reverse_tornado, bit_complement, "
                  "transpose, neighbor, all_to_one, hotspot"};
}

/// The traffic of a mix of labelled patterns (--traffic or --weights-from):
/// each packet draws a pattern by share, and carries its index as its label
/// when `labelled`; loads are stacked per pattern, [arbiter][input][pattern].
template <class Scheme>
traffic_setup with_traffic(const arguments& a, const Scheme& scheme,
                           const std::vector<mix_component>& mix, const char* flag, bool labelled) {
  if (mix.size() == 1) return with_pattern(a, scheme, mix[0].name, flag);
  std::vector<traffic_setup> parts;
  double total = 0;
  for (const mix_component& c : mix) {
    parts.push_back(with_pattern(a, scheme, c.name, flag));
    total += c.share;
  }
  traffic_setup s;
  std::vector<double> cumulative;
  double sum = 0;
  for (const mix_component& c : mix) cumulative.push_back(sum += c.share / total);
  cumulative.back() = 1.0;
  std::vector<interlock::model::traffic_source> sources;
  for (const traffic_setup& p : parts) sources.push_back(p.destination);
  s.destination = [sources, cumulative, labelled](node_id source, interlock::splitmix64& rng) {
    const double u = interlock::uniform_unit(rng);
    std::size_t k = 0;
    while (k + 1 < cumulative.size() && u >= cumulative[k]) ++k;
    interlock::model::labelled_destination d = sources[k](source, rng);
    d.pattern = labelled ? static_cast<std::uint8_t>(k) : 0;
    return d;
  };
  if (!parts[0].channel.empty()) {
    s.channel.assign(parts[0].channel.size(), 0.0);
    s.into.assign(parts[0].into.size(), 0.0);
    s.sends.assign(parts[0].sends.size(), false);
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const double w = mix[k].share / total;
      for (std::size_t i = 0; i < s.channel.size(); ++i) s.channel[i] += w * parts[k].channel[i];
      for (std::size_t i = 0; i < s.into.size(); ++i) s.into[i] += w * parts[k].into[i];
      for (std::size_t i = 0; i < s.sends.size(); ++i) s.sends[i] = s.sends[i] || parts[k].sends[i];
    }
    s.capacity = capacity_of(a, s);
  }
  // Each part's loads as its label (packets carry their pattern's label).
  const auto stack = [&](interlock::arbiter_loads traffic_setup::*member) {
    if ((parts[0].*member).empty()) return;
    std::vector<const interlock::arbiter_loads*> each;
    for (const traffic_setup& p : parts) each.push_back(&(p.*member));
    s.*member = interlock::stack_labels(each);
  };
  stack(&traffic_setup::loads);
  stack(&traffic_setup::input_loads);
  if (parts[0].unified) {
    std::vector<const interlock::unified_arbiter_loads*> each;
    for (const traffic_setup& p : parts) each.push_back(p.unified.get());
    s.unified = std::make_shared<const interlock::unified_arbiter_loads>(
        interlock::stack_unified_labels(each));
  }
  return s;
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_TRAFFIC_HPP
