// SPDX-License-Identifier: BSL-1.0
// netsim's runs: the traffic, the policies, the model and its report, for
// one routing scheme type at a time. Each scheme type's runs are compiled in
// a translation unit of their own (netsim_<scheme>.cpp), so that the
// compositions build in parallel.
#ifndef INTERLOCK_EXAMPLES_NETSIM_RUN_HPP
#define INTERLOCK_EXAMPLES_NETSIM_RUN_HPP

#include <unistd.h>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weights.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/model/network.hpp>
#include <interlock/model/presets.hpp>
#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/routing/vc_table.hpp>
#include <interlock/traffic/anton2_loads.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

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

struct progress_bar {
  bool on = false;
  std::string label;
  void operator()(double fraction) const {
    if (!on) return;
    const int width = 40;
    const int filled = static_cast<int>(std::min(1.0, fraction) * width);
    std::fprintf(stderr, "\r%s [%s%s] %3d%%", label.c_str(),
                 std::string(static_cast<std::size_t>(filled), '#').c_str(),
                 std::string(static_cast<std::size_t>(width - filled), ' ').c_str(),
                 static_cast<int>(std::min(1.0, fraction) * 100));
  }
  void done() const {
    if (on) std::fprintf(stderr, "\r%*s\r", 60 + static_cast<int>(label.size()), "");
  }
};

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
  if (a.arbiter == "inverse_weighted") {
    check_flow_pairs(pairs);
    s.loads = interlock::router_arbiter_loads(scheme, interlock::traffic_class::request, pattern);
    if (a.input_arbiter == "inverse_weighted")
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
  if (a.arbiter == "inverse_weighted") {
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

// The age parameters: given, or Section 3.2's methodology for this network
// (interlock::model::recommended_age).
inline interlock::model::age_config make_age_config(const arguments& a,
                                                    const interlock::torus_topology& t,
                                                    unsigned vcs_per_class,
                                                    bool per_port_bias = true) {
  const unsigned classes = a.model.response_share > 0 && a.model.response_share < 1 ? 2 : 1;
  const unsigned per_link = a.model.vcs != 0 ? a.model.vcs / classes : vcs_per_class;
  const interlock::model::age_advice advice =
      interlock::model::recommended_age(t, a.model, per_link);
  interlock::model::age_config age = advice.age;
  if (a.age_period != 0) age.period = a.age_period;
  // A node of many routers (--node anton2) has on-chip ports: one bias for all.
  if (!per_port_bias && (a.age_bias.size() > 1 || a.rsp_age_bias.size() > 1))
    throw bad_input{std::string(a.age_bias.size() > 1 ? "--age-bias" : "--rsp-age-bias") +
                    ": one value with --node anton2 (its routers' ports are on-chip, not "
                    "dimensions)"};
  const std::vector<unsigned> bias = !a.age_bias.empty() ? a.age_bias
                                     : per_port_bias     ? advice.dimension_bias
                                                         : std::vector<unsigned>{};
  // RSP_AGE_BIAS: --rsp-age-bias, else as REQ_AGE_BIAS.
  const std::vector<unsigned> rsp = a.rsp_age_bias.empty() ? bias : a.rsp_age_bias;
  if (bias.size() <= 1 && rsp.size() <= 1) {
    age.bias = interlock::age_bias{bias.empty() ? 1u : bias[0], rsp.empty() ? 1u : rsp[0]};
  } else {
    const auto spread = [&](const std::vector<unsigned>& b) {
      return b.size() == 1 ? std::vector<unsigned>(t.dimensions() + 1, b[0]) : b;
    };
    const auto req_ports = interlock::model::biases_by_dimension(t, spread(bias));
    const auto rsp_ports = interlock::model::biases_by_dimension(t, spread(rsp));
    for (std::size_t p = 0; p < t.ports(); ++p)
      age.port_bias.push_back(interlock::age_bias{req_ports[p].request(), rsp_ports[p].request()});
  }
  if (a.quiet) return age;
  std::printf("age: AGE_CLK_PERIOD %u%s, REQ/RSP_AGE_BIAS", age.period,
              a.age_period != 0 ? ""
              : advice.advised  ? " (Section 3.2's recommendation)"
                                : " (default)");
  if (bias.empty()) std::printf(" 1 (default)");
  for (std::size_t i = 0; i < bias.size(); ++i) std::printf("%s%u", i ? "," : " ", bias[i]);
  if (a.age_bias.empty() && advice.advised && per_port_bias)
    std::printf(" (by dimension, Section 3.2)");
  if (!a.rsp_age_bias.empty()) {
    std::printf("; RSP_AGE_BIAS");
    for (std::size_t i = 0; i < rsp.size(); ++i) std::printf("%s%u", i ? "," : " ", rsp[i]);
  }
  std::printf("; AGE_RR_SELECT 0x%llx\n", static_cast<unsigned long long>(a.age_rr_select));
  return age;
}

inline void print_results(const arguments& a, const interlock::model::results& r, double capacity) {
  if (a.model.batch > 0) {
    std::printf("batch: %zu packets per source, last delivery at cycle %llu\n", a.model.batch,
                static_cast<unsigned long long>(r.batch_cycles));
    if (!r.complete)
      std::printf(
          "BATCH CUT OFF at cycle %llu (--cycles + --drain): %zu of %zu packets delivered, %zu "
          "still in source queues, %zu in the network\n",
          static_cast<unsigned long long>(r.cycles), r.measured_delivered, r.measured_packets,
          r.measured_in_source_queues, r.measured_in_network);
    std::printf(
        "completion per source (cycle of its last delivery): min %llu  mean %.1f  max %llu\n",
        static_cast<unsigned long long>(r.completion_min), r.completion_mean,
        static_cast<unsigned long long>(r.completion_max));
  } else {
    std::printf("offered %.3f flits/node/cycle\n", r.offered);
  }
  std::printf("accepted %.4f flits/node/cycle", r.accepted);
  if (capacity > 0)
    std::printf(" (%.3f of the pattern's ideal %.4f)", r.accepted / capacity, capacity);
  std::printf("\n");
  std::printf(
      "latency (cycles) mean %.2f  sd %.2f  p50 %.0f  p99 %.0f  max %.0f  (network %.2f, p99 %.0f; "
      "source queue %.2f); %.2f hops on average\n",
      r.latency_mean, r.latency_sd, r.latency_p50, r.latency_p99, r.latency_max,
      r.network_latency_mean, r.network_latency_p99, r.queueing_latency_mean, r.hops_mean);
  if (a.model.batch == 0 && !r.complete)
    std::printf(
        "  %zu of %zu packets created in the window were not delivered after --drain (%zu in "
        "source queues, %zu in the network): the latency is of the delivered ones (past "
        "saturation)\n",
        r.measured_packets - r.measured_delivered, r.measured_packets, r.measured_in_source_queues,
        r.measured_in_network);
  if (a.model.batch == 0)
    std::printf("fairness over %zu sources: Jain %.4f, max/min throughput %.3f", r.sources.size(),
                r.jain, r.max_min_ratio);
  else
    std::printf("over %zu sources", r.sources.size());
  std::printf("; max/min mean latency %.3f (network %.3f)\n", r.source_latency_max_min,
              r.source_network_latency_max_min);
  std::printf("channel utilization:");
  for (std::size_t d = 0; d < r.utilization.size(); ++d)
    std::printf(" dim %zu +%.3f -%.3f", d, r.utilization[d][0], r.utilization[d][1]);
  std::printf("\n");
  if (r.has_age) {
    std::printf(
        "age histogram (departures, ages 0-63/64-127/128-191/192-255): %llu %llu %llu %llu;"
        " stalled cycles %llu, occupancy (Eq. 17) %.3f\n",
        static_cast<unsigned long long>(r.age_histogram[0]),
        static_cast<unsigned long long>(r.age_histogram[1]),
        static_cast<unsigned long long>(r.age_histogram[2]),
        static_cast<unsigned long long>(r.age_histogram[3]),
        static_cast<unsigned long long>(r.stalled_cycles), r.occupancy);
    std::printf("occupancy by input direction:");
    for (std::size_t d = 0; d < r.occupancy_by_direction.size(); ++d) {
      const char name =
          static_cast<char>(d < 3 ? 'X' + static_cast<int>(d) : '0' + static_cast<int>(d));
      std::printf(" +%c %.3f -%c %.3f", name, r.occupancy_by_direction[d][0], name,
                  r.occupancy_by_direction[d][1]);
    }
    std::printf("; epoch switches %llu, age clock inhibited %.1f%% of router-cycles\n",
                static_cast<unsigned long long>(r.epoch_switches), 100 * r.inhibited_share);
    if (r.inhibited_share > 0.1)
      std::printf(
          "  warning: the age clocks were inhibited more than 10%% of the time: AGE_CLK_PERIOD "
          "is too small for the queueing this network holds (Section 3.2)\n");
  }
  std::printf("speed: %llu cycles (%llu stepped) x %zu routers in %.2f s = %.3g router-cycles/s\n",
              static_cast<unsigned long long>(r.cycles),
              static_cast<unsigned long long>(r.stepped_cycles), r.routers, r.wall_s,
              r.router_cycles_per_s());
  if (r.deadlock.deadlocked) {
    std::printf(
        "DEADLOCK at cycle %llu: nothing moved for the stall limit; full buffers, each "
        "waiting for the next:\n",
        static_cast<unsigned long long>(r.deadlock.cycle));
    for (const auto& b : r.deadlock.cycle_of_buffers) std::printf("  %s\n", b.c_str());
  }
}

using cli::format;
using cli::output_file;

// The run's configuration as CSV columns (values with commas joined by
// 'x' or ' '), so that the rows of many sweeps can be merged.
inline std::pair<std::string, std::string> config_columns(const arguments& a, double load) {
  const auto join = [](const auto& values, const char* sep) {
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i)
      text += (i ? sep : "") + std::to_string(static_cast<unsigned long long>(values[i]));
    return text;
  };
  std::string lengths;
  for (std::size_t i = 0; i < a.model.lengths.size(); ++i)
    lengths += (i ? " " : "") + std::to_string(a.model.lengths[i].flits) +
               (a.model.lengths.size() > 1 ? ":" + format("%g", a.model.lengths[i].share) : "");
  std::string orders = a.orders;
  for (char& c : orders)
    if (c == ',') c = ' ';
  const std::vector<std::pair<const char*, std::string>> columns = {
      {"radix", join(a.radix, "x")},
      {"wrap", join(a.wrap, "x")},
      {"slices", std::to_string(a.slices)},
      {"scheme", a.scheme},
      {"dateline_rule", a.scheme == "dor" ? a.dateline_rule : std::string("-")},
      {"orders", orders},
      {"arbiter", a.arbiter},
      {"input_arbiter", a.input_arbiter},
      {"allocator",
       a.allocator == "islip" ? "islip:" + std::to_string(a.islip_iterations) : a.allocator},
      {"vcs", std::to_string(a.model.vcs)},
      {"buffer_flits", std::to_string(a.model.buffer_flits)},
      {"injection_buffer_flits", std::to_string(a.model.injection_flits())},
      {"staging_flits", std::to_string(a.model.staging_flits)},
      {"packet_flits", lengths},
      {"channel_latency", std::to_string(a.model.channel_latency)},
      {"router_delay", std::to_string(a.model.router_delay)},
      {"head_cycles", std::to_string(a.model.head_cycles)},
      {"endpoints", std::to_string(a.model.endpoints)},
      {"endpoint_bandwidth", format("%g", a.model.endpoint_bandwidth)},
      {"traffic", a.traffic},
      {"response_share", format("%g", a.model.response_share)},
      {"load", a.model.batch > 0 ? "" : format("%g", load)},
      {"batch", std::to_string(a.model.batch)},
      {"warmup", std::to_string(a.model.warmup)},
      {"cycles", std::to_string(a.model.measure)},
      {"seed", std::to_string(a.model.seed)},
  };
  std::pair<std::string, std::string> out;
  for (const auto& c : columns) {
    std::string value = c.second;  // a mix's commas would split the column
    for (char& ch : value)
      if (ch == ',') ch = ' ';
    out.first += std::string(c.first) + ",";
    out.second += value + ",";
  }
  return out;
}

template <class Scheme, class Policy, class Allocator, class InputPolicy>
int simulate(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
             const std::function<Policy(node_id, std::size_t)>& make_policy,
             const interlock::model::age_config& age, const Allocator& allocator,
             const std::function<InputPolicy(node_id, std::size_t)>& make_input) {
  std::vector<double> loads = a.sweep;
  if (loads.empty()) loads.push_back(a.model.load);
  output_file csv("--csv", a.csv);
  output_file per_source("--per-source", a.per_source);
  csv.line(config_columns(a, 0).first + interlock::model::csv_header());
  if (!a.quiet) {
    // The configuration, as given and as run.
    const auto c = config_columns(a, a.model.load);
    std::printf("configuration:");
    std::size_t h = 0, v = 0;
    while (h < c.first.size()) {
      const std::size_t hn = c.first.find(',', h), vn = c.second.find(',', v);
      const std::string value = c.second.substr(v, vn - v);
      if (!value.empty()) std::printf(" %s=%s", c.first.substr(h, hn - h).c_str(), value.c_str());
      h = hn + 1;
      v = vn + 1;
    }
    std::printf("\n");
  }
  int status = 0;
  for (const double load : loads) {
    interlock::model::config cfg = a.model;
    if (cfg.batch == 0) cfg.load = load;
    interlock::model::network<Scheme, Policy, Allocator, InputPolicy> net(
        scheme, cfg, traffic.destination, make_policy, age, allocator, make_input);
    if (loads.size() > 1) std::printf("\n");
    progress_bar bar;
    bar.on = a.progress && isatty(2) != 0;
    bar.label = cfg.batch > 0 ? "batch" : "load " + std::to_string(load).substr(0, 5);
    interlock::model::results r = net.run([&](double f) { bar(f); });
    bar.done();
    r.capacity = traffic.capacity > 0 ? traffic.capacity : 1;
    if (!a.quiet) print_results(a, r, traffic.capacity);
    if (a.on_results) a.on_results(r);
    csv.line(config_columns(a, load).second + interlock::model::csv_row(r));
    if (per_source.open()) {
      double total = 0;
      for (const double x : r.accepted_per_source) total += x;
      per_source.line(
          "source,hops,accepted,share,latency_mean,latency_sd,network_latency_mean,completion");
      const interlock::torus_topology& t = torus_of(scheme.topology());
      for (std::size_t i = 0; i < r.sources.size(); ++i) {
        const double hops =
            a.traffic == "all_to_one"
                ? static_cast<double>(t.distance(node_of(scheme.topology(), r.sources[i]),
                                                 a.destination == ~std::size_t{0}
                                                     ? t.node_count() - 1
                                                     : static_cast<node_id>(a.destination)))
                : r.hops_per_source[i];
        per_source.line(format(
            "%u,%.3f,%.6f,%.6f,%.3f,%.3f,%.3f,%llu", r.sources[i], hops, r.accepted_per_source[i],
            total > 0 ? r.accepted_per_source[i] / total : 0.0, r.latency_per_source[i],
            r.latency_sd_per_source[i], r.network_latency_per_source[i],
            static_cast<unsigned long long>(
                r.completion_per_source.empty() ? 0 : r.completion_per_source[i])));
      }
    }
    if (r.deadlock.deadlocked || (cfg.batch > 0 && !r.complete)) status = 1;
  }
  csv.close();
  per_source.close();
  return status;
}

// The switch allocator and input arbiter (--allocator, --input-arbiter) for
// an output policy: the compositions netsim instantiates (parse() refuses the
// others).
template <class Scheme, class Policy, class MakePolicy>
int with_allocator(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
                   const MakePolicy& make_policy, const interlock::model::age_config& age) {
  namespace m = interlock::model;
  using rr = interlock::round_robin_arbiter<64>;
  const std::function<Policy(node_id, std::size_t)> policies = make_policy;
  const bool same_input = a.input_arbiter == a.arbiter && a.arbiter != "round_robin";
  if constexpr (std::is_same<Policy, interlock::age_epoch_arbiter<64>>::value) {
    if (same_input) {
      // The SeaStar compares every (input, VC) head by age: age at both stages.
      const std::function<Policy(node_id, std::size_t)> inputs =
          [select = a.age_rr_select](node_id, std::size_t) { return Policy(select); };
      if (a.allocator == "separable_output_first")
        return simulate<Scheme, Policy, m::separable_output_first, Policy>(
            a, scheme, traffic, policies, age, {}, inputs);
      return simulate<Scheme, Policy, m::separable_input_first, Policy>(a, scheme, traffic,
                                                                        policies, age, {}, inputs);
    }
  }
  if constexpr (std::is_same<Policy, rr>::value) {
    if (a.allocator == "islip")
      return simulate<Scheme, Policy, m::islip<16>, rr>(a, scheme, traffic, policies, age,
                                                        m::islip<16>{a.islip_iterations}, {});
    if (a.allocator == "wavefront")
      return simulate<Scheme, Policy, m::wavefront<16>, rr>(a, scheme, traffic, policies, age, {},
                                                            {});
  }
  if (a.allocator == "separable_output_first")
    return simulate<Scheme, Policy, m::separable_output_first, rr>(a, scheme, traffic, policies,
                                                                   age, {}, {});
  return simulate<Scheme, Policy, m::separable_input_first, rr>(a, scheme, traffic, policies, age,
                                                                {}, {});
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
  const auto stack = [&](interlock::arbiter_loads traffic_setup::*member) {
    if ((parts[0].*member).empty()) return;
    interlock::arbiter_loads& l = s.*member;
    l = parts[0].*member;
    for (std::size_t arb = 0; arb < l.size(); ++arb)
      for (std::size_t in = 0; in < l[arb].size(); ++in) {
        l[arb][in].clear();
        for (const traffic_setup& p : parts) l[arb][in].push_back((p.*member)[arb][in][0]);
      }
  };
  stack(&traffic_setup::loads);
  stack(&traffic_setup::input_loads);
  if (parts[0].unified) {
    auto u = std::make_shared<interlock::unified_arbiter_loads>(*parts[0].unified);
    const std::size_t np = parts.size();
    u->patterns = np;
    u->outputs.assign(parts[0].unified->outputs.size() * np, 0.0);
    u->inputs.assign(parts[0].unified->inputs.size() * np, 0.0);
    for (std::size_t k = 0; k < np; ++k) {
      const interlock::unified_arbiter_loads& p = *parts[k].unified;
      for (std::size_t i = 0; i < p.outputs.size(); ++i) u->outputs[i * np + k] = p.outputs[i];
      for (std::size_t i = 0; i < p.inputs.size(); ++i) u->inputs[i * np + k] = p.inputs[i];
    }
    s.unified = u;
  }
  return s;
}

// The inverse-weighted arbiters at the outputs, and at the inputs with
// --input-arbiter inverse_weighted, each from its inputs' loads (Section 3.1).
template <class Scheme, class Policy, class MakeOutput, class MakeInput>
int with_inverse_inputs(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
                        const MakeOutput& outputs, const MakeInput& inputs) {
  namespace m = interlock::model;
  const std::function<Policy(node_id, std::size_t)> out = outputs;
  if (a.input_arbiter != "inverse_weighted")
    return with_allocator<Scheme, Policy>(a, scheme, traffic, outputs, {});
  const std::function<Policy(node_id, std::size_t)> in = inputs;
  if (a.allocator == "separable_output_first")
    return simulate<Scheme, Policy, m::separable_output_first, Policy>(a, scheme, traffic, out, {},
                                                                       {}, in);
  return simulate<Scheme, Policy, m::separable_input_first, Policy>(a, scheme, traffic, out, {}, {},
                                                                    in);
}

template <std::size_t N, class Scheme>
int with_inverse_weights(const arguments& a, const Scheme& scheme, const traffic_setup& traffic) {
  const interlock::torus_topology& t = scheme.topology();
  using policy = interlock::inverse_weighted_arbiter<64, N, 8>;
  interlock::inverse_weight_tables<64, N, 8> tables;
  std::vector<std::shared_ptr<const typename interlock::inverse_weight_tables<64, N, 8>::table>>
      out(traffic.loads.size()), in(traffic.input_loads.size());
  for (std::size_t arb = 0; arb < out.size(); ++arb) {
    const auto& l = traffic.loads[arb];
    out[arb] = tables.from_loads(l.size(), [&](std::size_t i, std::size_t n) { return l[i][n]; });
  }
  for (std::size_t arb = 0; arb < in.size(); ++arb) {
    const auto& l = traffic.input_loads[arb];
    in[arb] = tables.from_loads(l.size(), [&](std::size_t i, std::size_t n) { return l[i][n]; });
  }
  return with_inverse_inputs<Scheme, policy>(
      a, scheme, traffic,
      [out, &t](node_id r, std::size_t o) {
        return policy(out[interlock::router_arbiter(t, r, o)]);
      },
      [in, &t](node_id r, std::size_t q) {
        return policy(in[interlock::router_arbiter(t, r, q)]);
      });
}

// Anton 2's unified network: arbiters of 8 inputs (ports at the outputs,
// VCs at the inputs), with 12-bit weights: an on-chip router's inputs carry
// loads up to 572 times apart (a core's injection against a torus link's).
template <std::size_t N>
int with_inverse_weights(const arguments& a, const interlock::anton2_routing& scheme,
                         const traffic_setup& traffic) {
  using policy = interlock::inverse_weighted_arbiter<8, N, 12>;
  const interlock::unified_arbiter_loads& l = *traffic.unified;
  interlock::inverse_weight_tables<8, N, 12> tables;
  const std::size_t ports = l.ports;
  std::vector<std::shared_ptr<const typename interlock::inverse_weight_tables<8, N, 12>::table>>
      out(l.routers * ports), in(l.routers * ports);
  for (node_id r = 0; r < l.routers; ++r)
    for (std::size_t p = 0; p < ports; ++p) {
      out[r * ports + p] = tables.from_loads(
          ports, [&](std::size_t i, std::size_t n) { return l.output(r, p, i, n); });
      in[r * ports + p] = tables.from_loads(
          l.vcs, [&](std::size_t v, std::size_t n) { return l.input(r, p, v, n); });
    }
  return with_inverse_inputs<interlock::anton2_routing, policy>(
      a, scheme, traffic,
      [out, ports](node_id r, std::size_t o) { return policy(out[r * ports + o]); },
      [in, ports](node_id r, std::size_t q) { return policy(in[r * ports + q]); });
}

template <class Scheme>
int with_arbiter(const arguments& a, const Scheme& scheme) {
  const interlock::torus_topology& t = torus_of(scheme.topology());
  // [Towles14] programs one set of weights, from uniform traffic, for every
  // pattern it runs: --weights-from names the patterns whose loads set them.
  // Packets carry their pattern's label when the weights are per label.
  const std::size_t labels =
      a.arbiter != "inverse_weighted" ? 1 : (a.weights_mix.empty() ? a.mix : a.weights_mix).size();
  traffic_setup traffic = with_traffic(a, scheme, a.mix, "--traffic", labels > 1);
  if (!a.weights_mix.empty()) {
    const traffic_setup weights = with_traffic(a, scheme, a.weights_mix, "--weights-from", false);
    traffic.loads = weights.loads;
    traffic.input_loads = weights.input_loads;
    traffic.unified = weights.unified;
  }
  if (a.arbiter == "round_robin") {
    using policy = interlock::round_robin_arbiter<64>;
    return with_allocator<Scheme, policy>(a, scheme, traffic,
                                          [](node_id, std::size_t) { return policy{}; }, {});
  }
  if (a.arbiter == "age") {
    using policy = interlock::age_epoch_arbiter<64>;
    return with_allocator<Scheme, policy>(
        a, scheme, traffic,
        [select = a.age_rr_select](node_id, std::size_t) { return policy(select); },
        make_age_config(a, t, scheme.vcs_per_class(),
                        std::is_same<Scheme, interlock::anton2_routing>::value == false));
  }
  if (labels == 2) return with_inverse_weights<2>(a, scheme, traffic);
  return with_inverse_weights<1>(a, scheme, traffic);
}

/// One run (or sweep) per routing scheme type; each defined in its own file.
int run_scheme(const arguments& a, const interlock::dimension_order_routing& scheme);
int run_scheme(const arguments& a, const interlock::vc_promotion_routing& scheme);
int run_scheme(const arguments& a, const interlock::direction_order_routing& scheme);
int run_scheme(const arguments& a, const interlock::t3e_adaptive_routing& scheme);
int run_scheme(const arguments& a, const interlock::anton2_routing& scheme);
/// The run (or sweep) the arguments name: the network, scheme and node (netsim_select.cpp).
int run_network(const arguments& a);

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_RUN_HPP
