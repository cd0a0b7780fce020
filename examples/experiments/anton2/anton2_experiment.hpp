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
// The shapes' runs are compiled once, in anton2_shape.cpp and
// router_shape.cpp, for both programs.
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
#include <interlock/arbiters/inverse_weighted_form.hpp>
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
#include <utility>
#include <vector>

#include <interlock/model/config.hpp>
#include <interlock/model/router_allocators.hpp>
#include <interlock/model/sources.hpp>
#include "cli.hpp"
#include "prefetch_flag.hpp"

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
  enum class kind { round_robin, hardware, exact, family };
  kind model = kind::round_robin;
  unsigned headroom = 0;
  // kind::family: inverse_weighted_family of this form (inverse_weighted_form.hpp).
  interlock::inverse_weighted_form form;

  bool weighted() const { return model != kind::round_robin; }
  /// The name it is given by: round_robin, inverse_weighted,
  /// inverse_weighted:H, inverse_weighted_exact, iw:FORM.
  std::string name() const {
    if (model == kind::round_robin) return "round_robin";
    if (model == kind::exact) return "inverse_weighted_exact";
    if (model == kind::family) return "iw:" + form.name();
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
  if (text.compare(0, 3, "iw:") == 0) {
    a.model = arbiter_model::kind::family;
    try {
      a.form = interlock::parse_inverse_weighted_form(text.substr(3));
    } catch (const interlock::config_error& e) {
      throw cli::bad_input{flag + ": '" + text.substr(0, 80) + "': " + e.what()};
    }
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
  throw cli::bad_input{
      flag + ": '" + text.substr(0, 80) +
      "'; allowed: round_robin, inverse_weighted, inverse_weighted:H (H = 1.." +
      std::to_string(weight_bits - 1) +
      " bits of weight headroom), inverse_weighted_exact, iw:ORDERING.QUANTIZATION.HISTORY "
      "(levels|full, mbit|real, window|unbounded|lagL)"};
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
  // The router's readings (model::config::pipelined_heads, persistent_picks)
  // and its switch allocator (input first by default).
  bool pipelined_heads = false, persistent_picks = false;
  interlock::model::separable_allocator allocator;
  std::uint64_t timeline_bin = 0;  // > 0: the torus links' use per this many cycles
  // Count the cycles each input requests each output arbiter
  // (outcome::request_share): a write per arbitration, which a program
  // that does not report the shares is spared.
  bool count_requests = false;
  // iw:FORM arbiters: sample their summed counts every family_bin cycles
  // (outcome::family_over_time).
  bool family_over_time = false;
  // --prefetch: the model's cache hints (the same results either way).
  interlock::model::prefetch_mode prefetch = interlock::model::prefetch_mode::automatic;
  std::uint64_t seed = 1;
  arbiter_model arbiter;
};

// The bins of outcome::family_over_time: the interval at which
// model::network::run calls its progress function.
constexpr std::uint64_t family_bin = 4096;

struct outcome {
  double normalized = 0;         // throughput over the torus channels' capacity
  std::uint64_t last = 0;        // cycle of the last arrival
  double completion_spread = 0;  // latest / earliest source completion
  // The hardware model's window slides at every arbiter, both stages (zero
  // for round robin and the exact model, which have no window).
  interlock::window_slide_counts slides;
  // iw:FORM arbiters: what inverse_weighted_family counted at every arbiter,
  // both stages, over the batch.
  interlock::inverse_weighted_counts family;
  // With run_settings::family_over_time: `family` as it stood at every
  // family_bin-th cycle and at the end (cumulative; differences give a bin's).
  struct family_sample {
    std::uint64_t cycle = 0;
    interlock::inverse_weighted_counts counts;
  };
  std::vector<family_sample> family_over_time;
  // With run_settings::timeline_bin: the torus links' use per bin, up to
  // the run's end (cycles).
  std::vector<double> link_utilization;
  std::uint64_t cycles = 0;
  // With run_settings::count_requests, over every output arbiter and input
  // port that requested it: the share of the arbiter's cycles the input
  // requested (mean, 10th percentile; else 0).
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

/// Anton 2's node: 16 mesh routers, 12 adapters, a core per router
/// (anton2_shape.cpp).
class anton2_shape {
 public:
  anton2_shape(std::size_t k, unsigned torus_latency);

  const interlock::torus_topology& torus() const { return torus_; }
  /// Packets per node per cycle that fill the torus links, for a blend.
  double ideal(double busiest_load) const { return node_.links().torus_bandwidth / busiest_load; }

  /// A batch of s.batch packets per core; `weights` the patterns whose loads
  /// program inverse-weighted arbiters at both stages (none: round robin).
  outcome run(const run_settings& s, const interlock::model::traffic_source& nodes,
              const std::vector<std::string>& weights, double ideal_per_node);

 private:
  const interlock::unified_arbiter_loads& loads(const std::string& pattern);
  template <class Tables, class Arbiter>
  outcome run_weighted(const interlock::model::config& c, const run_settings& s,
                       const interlock::model::traffic_source& traffic,
                       const std::vector<std::string>& weights, Tables tables,
                       const std::string& model, double packets, double ideal);

  interlock::torus_topology torus_;
  interlock::anton2_topology node_;
  interlock::anton2_routing routing_;
  std::map<std::string, interlock::unified_arbiter_loads> loads_;
  std::mutex mutex_;
  // Weight tables by arbiter model and weight set (a table set's type
  // depends on the model: run_weighted casts back).
  std::map<std::string, std::shared_ptr<const void>> tables_;
  std::mutex tables_mutex_;
};

/// One router per node: 12 torus ports and 8 endpoints (router_shape.cpp).
class router_shape {
 public:
  static constexpr std::size_t endpoints = 8;
  router_shape(std::size_t k, unsigned torus_latency);

  double ideal(double busiest_load) const { return 1.0 / busiest_load; }

  outcome run(const run_settings& s, const interlock::model::traffic_source& nodes,
              const std::vector<std::string>& weights, double ideal_per_node);

 private:
  struct stage_loads {
    interlock::arbiter_loads outputs, inputs;
  };
  const stage_loads& loads(const std::string& pattern);
  template <class Tables, class Arbiter>
  outcome run_weighted(const interlock::model::config& c, const run_settings& s,
                       const interlock::model::traffic_source& nodes,
                       const std::vector<std::string>& weights, Tables tables, double packets,
                       double ideal);

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

using cli::numbers;

}  // namespace anton2_experiment

#endif  // INTERLOCK_EXAMPLES_ANTON2_EXPERIMENT_HPP
