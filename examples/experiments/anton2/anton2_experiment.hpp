// SPDX-License-Identifier: BSL-1.0
// What the Anton 2 experiments (saturation, blend) share: the two node shapes
// they run on, their inverse weights at every arbitration point, batch runs
// and the throughput Section 4 reports.
//   anton2  the unified network: a node as 16 mesh routers and 12 channel
//           adapters (model/anton2_node.hpp), one core per router, torus
//           links at 89.6/288 of a mesh channel;
//   router  one router per node (13 ports: 2 slices), the 16 cores' packets
//           entering through 8 endpoints, torus links at a flit per cycle.
// Throughput is Section 4.1's: the packets of a batch over the cycle of the
// last arrival, normalized so that 1 is full use of the torus channels (the
// pattern's busiest channel at its bandwidth).
// A run's settings (run_settings): the arbiters (round robin, or inverse
// weights as Figure 6/8's hardware model with a headroom of weight bits, or
// as Eq. 3 exactly, at both stages), the buffers by kind of port (mesh
// router ports, channel adapters, the cores' injection ports) and the torus
// links' extra latency (the router shape: every channel's, all being torus
// links), and the router pipeline (1 stage, or Figure 12's RC, VA, SA1, SA2).
#ifndef INTERLOCK_EXAMPLES_ANTON2_EXPERIMENT_HPP
#define INTERLOCK_EXAMPLES_ANTON2_EXPERIMENT_HPP

#include <interlock/arbiters/inverse_weight_tables.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weights.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/arbiters/window_slides.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/traffic/anton2_loads.hpp>
#include <interlock/traffic/arbitration_weights.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include <interlock/model/network.hpp>
#include "cli.hpp"

namespace anton2_experiment {

using interlock::node_id;
constexpr std::size_t cores = 16;  // per node: one per mesh router (Section 4.1)
// Weight bits: an on-chip router's inputs carry loads up to 572 times apart
// (a core's injection against a torus link's), beyond 8 bits.
constexpr unsigned weight_bits = 12;

/// A traffic pattern over nodes, and its torus channel loads per unit of
/// node injection under the routes' orders and slices.
struct node_pattern {
  std::string name;
  std::function<node_id(node_id, interlock::splitmix64&)> destination;
  std::vector<double> channel_loads;
};

template <class Pattern>
node_pattern make_pattern(const std::string& name, const interlock::torus_topology& t,
                          const Pattern& p) {
  node_pattern c;
  c.name = name;
  c.destination = [&t, p](node_id s, interlock::splitmix64& g) { return p.destination(t, s, g); };
  const interlock::vc_promotion_routing torus_routes(t, interlock::all_dimension_orders(3));
  c.channel_loads = interlock::channel_loads(torus_routes, p);
  return c;
}

inline const std::vector<std::string>& pattern_names() {
  static const std::vector<std::string> names = {"uniform", "neighbor1", "neighbor2", "tornado",
                                                 "reverse_tornado"};
  return names;
}

/// Calls f(pattern) with the pattern named `name`.
template <class F>
auto with_pattern(const std::string& name, F&& f) {
  namespace tr = interlock::traffic;
  if (name == "uniform") return f(tr::uniform_random{});
  if (name == "neighbor1") return f(tr::neighbor{1});
  if (name == "neighbor2") return f(tr::neighbor{2});
  if (name == "tornado") return f(tr::tornado{});
  if (name == "reverse_tornado") return f(tr::reverse_tornado{});
  throw cli::bad_input{"pattern '" + name + "'"};
}

inline node_pattern pattern_named(const std::string& name, const interlock::torus_topology& t) {
  return with_pattern(name, [&](const auto& p) { return make_pattern(name, t, p); });
}

/// The busiest channel of a blend: share w[i] of pattern i's loads.
inline double busiest(const std::vector<const node_pattern*>& patterns,
                      const std::vector<double>& shares) {
  double worst = 0;
  for (std::size_t c = 0; c < patterns[0]->channel_loads.size(); ++c) {
    double l = 0;
    for (std::size_t i = 0; i < patterns.size(); ++i)
      l += shares[i] * patterns[i]->channel_loads[c];
    worst = std::max(worst, l);
  }
  return worst;
}

/// How the arbiters decide: round robin, or inverse weights from loads as
/// the hardware model (Figure 6/8) with `headroom` spare bits of M, or as
/// Eq. 3 exactly.
struct arbiter_model {
  enum class kind { round_robin, hardware, exact };
  kind model = kind::round_robin;
  unsigned headroom = 0;

  bool weighted() const { return model != kind::round_robin; }
  /// The name it is given by: round_robin, inverse_weighted,
  /// inverse_weighted:H, inverse_weighted_exact.
  std::string name() const {
    if (model == kind::round_robin) return "round_robin";
    if (model == kind::exact) return "inverse_weighted_exact";
    return headroom == 0 ? "inverse_weighted" : "inverse_weighted:" + std::to_string(headroom);
  }
};

/// The arbiter model a flag names (bad_input naming the flag otherwise).
inline arbiter_model parse_arbiter(const std::string& flag, const std::string& text) {
  arbiter_model a;
  if (text == "round_robin") return a;
  if (text == "inverse_weighted_exact") {
    a.model = arbiter_model::kind::exact;
    return a;
  }
  const std::string hw = "inverse_weighted";
  if (text.compare(0, hw.size(), hw) == 0 && (text.size() == hw.size() || text[hw.size()] == ':')) {
    a.model = arbiter_model::kind::hardware;
    if (text.size() > hw.size())
      a.headroom =
          static_cast<unsigned>(cli::number(flag + " (inverse_weighted:H, bits of headroom)",
                                            text.substr(hw.size() + 1), 1, weight_bits - 1));
    return a;
  }
  throw cli::bad_input{flag + ": '" + text.substr(0, 80) +
                       "'; allowed: round_robin, inverse_weighted, inverse_weighted:H (H = 1.." +
                       std::to_string(weight_bits - 1) +
                       " bits of weight headroom), inverse_weighted_exact"};
}

/// What a batch run is given besides its traffic.
struct run_settings {
  std::size_t batch = 0;                // packets per core
  unsigned buffer_flits = 8;            // per VC: the mesh routers' ports (router: network ports)
  unsigned adapter_buffer_flits = 0;    // anton2: the channel adapters' (0: buffer_flits)
  unsigned injection_buffer_flits = 0;  // the cores' injection ports (0: buffer_flits)
  // Router pipeline stages a head passes: 1 (routing, allocation and the
  // switch in one cycle) or 4 (Figure 12's RC, VA, SA1, SA2).
  unsigned pipeline = 1;
  std::uint64_t timeline_bin = 0;  // > 0: the torus links' use per this many cycles
  std::uint64_t seed = 1;
  arbiter_model arbiter;
};

struct outcome {
  double normalized = 0;         // throughput over the torus channels' capacity
  std::uint64_t last = 0;        // cycle of the last arrival
  double completion_spread = 0;  // latest / earliest source completion
  // The hardware model's window slides at every arbiter, both stages (zero
  // for round robin and the exact model, which have no window).
  interlock::window_slide_counts slides;
  // With run_settings::timeline_bin: the torus links' use per bin, up to
  // the run's end (cycles).
  std::vector<double> link_utilization;
  std::uint64_t cycles = 0;
  // Over every output arbiter and input port that requested it: the share
  // of the arbiter's cycles the input requested (mean, 10th percentile).
  double request_share = 0, request_share_p10 = 0;
  // Anton 2's node: per mesh router position (R(u,v), kind 0..15), the
  // completion cycles of its cores over the nodes: mean, earliest, latest.
  struct position {
    double mean = 0;
    std::uint64_t first = 0, last = 0;
  };
  std::vector<position> positions;
  bool ok = false;
  double seconds = 0;
};

/// Runs `net` and measures it; `node_positions`: its sources are Anton 2's
/// cores, whose completion is summed by their router's place in the node.
template <class Net>
outcome finish(Net& net, double packets_per_node, double ideal_per_node,
               bool node_positions = false) {
  const auto start = std::chrono::steady_clock::now();
  const interlock::model::results r = net.run();
  outcome o;
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

template <class Arbiter, class Net>
interlock::window_slide_counts slide_counts(Net& net, node_id routers, std::size_t ports) {
  interlock::window_slide_counts c;
  if constexpr (counts_slides<Arbiter>::value) {
    for (node_id r = 0; r < routers; ++r)
      for (std::size_t p = 0; p < ports; ++p) {
        c += net.routers().policy(r, p).counts();
        c += net.routers().input_policy(r, p).counts();
      }
  } else {
    (void)net, (void)routers, (void)ports;
  }
  return c;
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
  c.utilization_bin = s.timeline_bin;
  c.count_requests = true;
  c.seed = s.seed;
  c.measure = 100000000;
  c.drain = 0;
  return c;
}

/// A node traffic source: pattern i with probability shares[i], labelled i
/// when `labelled` (the inverse-weighted arbiters' N patterns).
inline std::function<interlock::model::labelled_destination(node_id, interlock::splitmix64&)> blend(
    const std::vector<const node_pattern*>& patterns, const std::vector<double>& shares,
    bool labelled) {
  std::vector<std::function<node_id(node_id, interlock::splitmix64&)>> draw;
  for (const node_pattern* p : patterns) draw.push_back(p->destination);
  return [draw, shares, labelled](node_id s, interlock::splitmix64& g) {
    std::size_t k = 0;
    if (draw.size() > 1) {
      const double u = interlock::uniform_unit(g);
      double sum = 0;
      while (k + 1 < draw.size() && u >= (sum += shares[k])) ++k;
    }
    return interlock::model::labelled_destination{draw[k](s, g),
                                                  static_cast<std::uint8_t>(labelled ? k : 0)};
  };
}

/// Anton 2's node: 16 mesh routers, 12 adapters, a core per router.
class anton2_shape {
 public:
  anton2_shape(std::size_t k, unsigned torus_latency)
      : torus_({k, k, k}, {}, 2), node_(torus_, links(torus_latency)), routing_(node_) {}

  const interlock::torus_topology& torus() const { return torus_; }
  /// Packets per node per cycle that fill the torus links, for a blend.
  double ideal(double busiest_load) const { return node_.links().torus_bandwidth / busiest_load; }

  /// A batch of s.batch packets per core; `weights` the patterns whose loads
  /// program inverse-weighted arbiters at both stages (none: round robin).
  outcome run(const run_settings& s, const interlock::model::traffic_source& nodes,
              const std::vector<std::string>& weights, double ideal_per_node) {
    const interlock::model::config c = batch_config(s.batch, s);
    const auto traffic = interlock::model::to_cores(node_, nodes);
    const double packets = static_cast<double>(s.batch * cores);
    if (weights.empty() || !s.arbiter.weighted()) {
      using rr = interlock::round_robin_arbiter<8>;
      interlock::model::network<interlock::anton2_routing, rr,
                                interlock::model::separable_input_first, rr>
          net(
              routing_, c, traffic, [](node_id, std::size_t) { return rr{}; }, {}, {},
              [](node_id, std::size_t) { return rr{}; });
      return finish(net, packets, ideal_per_node, true);
    }
    if (s.arbiter.model == arbiter_model::kind::exact) {
      if (weights.size() == 1)
        return run_weighted<interlock::exact_weight_tables<8, 1>,
                            interlock::inverse_weighted_exact<8, 1>>(c, traffic, weights, {},
                                                                     packets, ideal_per_node);
      return run_weighted<interlock::exact_weight_tables<8, 2>,
                          interlock::inverse_weighted_exact<8, 2>>(c, traffic, weights, {}, packets,
                                                                   ideal_per_node);
    }
    using hw1 =
        interlock::window_slide_counter<interlock::inverse_weighted_arbiter<8, 1, weight_bits>>;
    using hw2 =
        interlock::window_slide_counter<interlock::inverse_weighted_arbiter<8, 2, weight_bits>>;
    if (weights.size() == 1)
      return run_weighted<interlock::inverse_weight_tables<8, 1, weight_bits>, hw1>(
          c, traffic, weights,
          interlock::inverse_weight_tables<8, 1, weight_bits>(s.arbiter.headroom), packets,
          ideal_per_node);
    return run_weighted<interlock::inverse_weight_tables<8, 2, weight_bits>, hw2>(
        c, traffic, weights,
        interlock::inverse_weight_tables<8, 2, weight_bits>(s.arbiter.headroom), packets,
        ideal_per_node);
  }

 private:
  static interlock::anton2_links links(unsigned torus_latency) {
    interlock::anton2_links l;
    l.torus_latency = torus_latency;
    return l;
  }

  // Computed at first use, under a lock: runs on several threads share them
  // (a std::map's elements stay where they are).
  const interlock::unified_arbiter_loads& loads(const std::string& pattern) {
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
  outcome run_weighted(const interlock::model::config& c,
                       const interlock::model::traffic_source& traffic,
                       const std::vector<std::string>& weights, Tables tables, double packets,
                       double ideal) {
    std::vector<const interlock::unified_arbiter_loads*> l;
    for (const std::string& w : weights) l.push_back(&loads(w));
    const auto w =
        interlock::unified_arbitration_tables(tables, interlock::stack_unified_labels(l));
    interlock::model::network<interlock::anton2_routing, Arbiter,
                              interlock::model::separable_input_first, Arbiter>
        net(
            routing_, c, traffic, [&](node_id r, std::size_t o) { return Arbiter(w.output(r, o)); },
            {}, {}, [&](node_id r, std::size_t q) { return Arbiter(w.input(r, q)); });
    outcome o = finish(net, packets, ideal, true);
    o.slides = slide_counts<Arbiter>(net, static_cast<node_id>(w.outputs.size() / w.ports),
                                     interlock::anton2_topology::network_ports + 1);
    return o;
  }

  interlock::torus_topology torus_;
  interlock::anton2_topology node_;
  interlock::anton2_routing routing_;
  std::map<std::string, interlock::unified_arbiter_loads> loads_;
  std::mutex mutex_;
};

/// One router per node: 12 torus ports and 8 endpoints.
class router_shape {
 public:
  static constexpr std::size_t endpoints = 8;
  router_shape(std::size_t k, unsigned torus_latency)
      : torus_({k, k, k}, {}, 2),
        routing_(torus_, interlock::all_dimension_orders(3)),
        latency_(torus_latency) {}

  double ideal(double busiest_load) const { return 1.0 / busiest_load; }

  outcome run(const run_settings& s, const interlock::model::traffic_source& nodes,
              const std::vector<std::string>& weights, double ideal_per_node) {
    interlock::model::config c = batch_config(s.batch * cores, s);
    c.endpoints = endpoints;
    c.channel_latency = 1 + latency_;  // every channel a torus link
    const double packets = static_cast<double>(s.batch * cores);
    if (weights.empty() || !s.arbiter.weighted()) {
      using rr = interlock::round_robin_arbiter<64>;
      interlock::model::network<interlock::vc_promotion_routing, rr> net(
          routing_, c, nodes, [](node_id, std::size_t) { return rr{}; });
      return finish(net, packets, ideal_per_node);
    }
    if (s.arbiter.model == arbiter_model::kind::exact) {
      if (weights.size() == 1)
        return run_weighted<interlock::exact_weight_tables<64, 1>,
                            interlock::inverse_weighted_exact<64, 1>>(c, nodes, weights, {},
                                                                      packets, ideal_per_node);
      return run_weighted<interlock::exact_weight_tables<64, 2>,
                          interlock::inverse_weighted_exact<64, 2>>(c, nodes, weights, {}, packets,
                                                                    ideal_per_node);
    }
    using hw1 =
        interlock::window_slide_counter<interlock::inverse_weighted_arbiter<64, 1, weight_bits>>;
    using hw2 =
        interlock::window_slide_counter<interlock::inverse_weighted_arbiter<64, 2, weight_bits>>;
    if (weights.size() == 1)
      return run_weighted<interlock::inverse_weight_tables<64, 1, weight_bits>, hw1>(
          c, nodes, weights,
          interlock::inverse_weight_tables<64, 1, weight_bits>(s.arbiter.headroom), packets,
          ideal_per_node);
    return run_weighted<interlock::inverse_weight_tables<64, 2, weight_bits>, hw2>(
        c, nodes, weights, interlock::inverse_weight_tables<64, 2, weight_bits>(s.arbiter.headroom),
        packets, ideal_per_node);
  }

 private:
  struct stage_loads {
    interlock::arbiter_loads outputs, inputs;
  };
  const stage_loads& loads(const std::string& pattern) {
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
  outcome run_weighted(const interlock::model::config& c,
                       const interlock::model::traffic_source& nodes,
                       const std::vector<std::string>& weights, Tables tables, double packets,
                       double ideal) {
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
    auto output = [&](node_id r, std::size_t o) {
      return Arbiter(out[r * lp + std::min(o, local)]);
    };
    auto input = [&](node_id r, std::size_t q) { return Arbiter(in[r * lp + std::min(q, local)]); };
    interlock::model::network<interlock::vc_promotion_routing, Arbiter,
                              interlock::model::separable_input_first, Arbiter>
        net(routing_, c, nodes, output, {}, {}, input);
    outcome o = finish(net, packets, ideal);
    o.slides = slide_counts<Arbiter>(net, torus_.node_count(), local + endpoints);
    return o;
  }

  interlock::torus_topology torus_;
  interlock::vc_promotion_routing routing_;
  unsigned latency_;
  std::map<std::string, stage_loads> loads_;
  std::mutex mutex_;
};

/// The node shapes an experiment runs on, built once and shared by its runs
/// (on any thread).
class shapes {
 public:
  /// The shapes named, of KxKxK nodes whose torus links take
  /// `torus_latency` extra cycles.
  shapes(const std::vector<std::string>& nodes, std::size_t k, unsigned torus_latency = 0) : k_(k) {
    for (const std::string& n : nodes) {
      if (n == "anton2" && !anton_) anton_ = std::make_unique<anton2_shape>(k, torus_latency);
      if (n == "router" && !router_) router_ = std::make_unique<router_shape>(k, torus_latency);
    }
  }

  /// A batch run on node shape `node`, normalized to a blend whose busiest
  /// torus channel carries `busiest_load` per unit of node injection.
  outcome run(const std::string& node, const run_settings& s,
              const interlock::model::traffic_source& traffic,
              const std::vector<std::string>& weights, double busiest_load) const {
    if (node == "anton2") return anton_->run(s, traffic, weights, anton_->ideal(busiest_load));
    return router_->run(s, traffic, weights, router_->ideal(busiest_load));
  }

  /// A run's work estimate for --max-work, in router-cycles: every router
  /// (28 per Anton 2 node: 16 mesh routers and 12 adapters) stepped for
  /// twice the cycles the batch takes at the ideal throughput.
  double work(const std::string& node, std::size_t batch, double busiest_load) const {
    const double nodes = static_cast<double>(k_ * k_ * k_);
    const double packets = static_cast<double>(batch * cores);
    if (node == "anton2")
      return nodes *
             static_cast<double>(interlock::anton2_topology::mesh_routers +
                                 interlock::anton2_topology::channels) *
             2 * packets / anton_->ideal(busiest_load);
    return nodes * 2 * packets / router_->ideal(busiest_load);
  }

 private:
  std::size_t k_;
  std::unique_ptr<anton2_shape> anton_;
  std::unique_ptr<router_shape> router_;
};

using cli::names;

inline std::vector<std::size_t> numbers(const std::string& flag, const std::string& text,
                                        std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> v;
  for (const std::string& x : cli::split(text)) v.push_back(cli::number(flag, x, lo, hi));
  if (v.empty()) throw cli::bad_input{flag + ": names nothing"};
  return v;
}

}  // namespace anton2_experiment

#endif  // INTERLOCK_EXAMPLES_ANTON2_EXPERIMENT_HPP
