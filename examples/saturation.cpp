// saturation: throughput beyond saturation, Towles et al. (ISCA'14) Section 4.1 and Figure 9,
// on the network model.
//
//   saturation [--full] [--radix K] [--batches B,...] [--patterns P,...]
//              [--nodes anton2,router] [--arbiters round_robin,inverse_weighted]
//              [--buffer-flits N] [--seed N] [--csv FILE]
//
// Every core sends a batch of 1-flit packets as fast as it can; throughput is
// the packets of the batch over the cycle of the last arrival, normalized so
// that 1 is full use of the torus channels (the pattern's busiest channel
// at its bandwidth), as Section 4.1 measures it. Round robin against
// inverse-weighted arbiters programmed once from uniform traffic's loads at
// every arbitration point (output and input stages), on two node shapes:
//   anton2  the unified network: a node as 16 mesh routers and 12 channel
//           adapters (model/anton2_node.hpp), one core per router, torus
//           links at 89.6/288 of a mesh channel;
//   router  one router per node (13 ports: 2 slices), the 16 cores' packets
//           entering through 8 endpoints, torus links at a flit per cycle.
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weights.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/traffic/anton2_loads.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <interlock/model/network.hpp>
#include "cli.hpp"

namespace {

using interlock::node_id;
constexpr std::size_t cores = 16;  // per node: one per mesh router (Section 4.1)
constexpr unsigned weight_bits = 12;

struct settings {
  std::size_t radix = 4;
  std::vector<std::size_t> batches = {8, 32, 128};
  std::vector<std::string> patterns = {"uniform", "neighbor2", "neighbor1"};
  std::vector<std::string> nodes = {"anton2", "router"};
  std::vector<std::string> arbiters = {"round_robin", "inverse_weighted"};
  unsigned buffer_flits = 8;
  std::uint64_t seed = 1;
  std::string csv;
};

const char* help =
    "usage: saturation [options]\n"
    "\n"
    "Throughput beyond saturation (Towles et al., ISCA'14, Section 4.1, Figure 9):\n"
    "every core sends a batch of 1-flit packets as fast as it can; throughput is\n"
    "the batch over the cycle of the last arrival, normalized to full use of the\n"
    "torus channels. Round robin against inverse-weighted arbiters programmed\n"
    "once from uniform traffic's loads, on Anton 2's node (16 mesh routers) and\n"
    "on one router per node.\n"
    "\n"
    "  --full               the paper's size: an 8x8x8 torus, batches 16..1024\n"
    "  --radix K            a KxKxK torus, 2..16 (default 4)\n"
    "  --batches B,...      packets per core (default 8,32,128)\n"
    "  --patterns P,...     uniform, neighbor1, neighbor2, tornado, reverse_tornado\n"
    "                       (default uniform,neighbor2,neighbor1)\n"
    "  --nodes N,...        anton2 (16 routers per node), router (one); default both\n"
    "  --arbiters A,...     round_robin, inverse_weighted; default both\n"
    "  --buffer-flits N     input buffer per (port, VC), 1..64 (default 8)\n"
    "  --seed N             the runs' seed (default 1)\n"
    "  --csv FILE           one row per run, with a header\n"
    "  --config FILE        key = value lines of the flags above\n"
    "\n"
    "Exit status: 0 done; 1 a run deadlocked or did not finish; 2 bad input;\n"
    "3 an output could not be written.\n";

// A traffic pattern by name, over nodes.
struct pattern_choice {
  std::string name;
  std::function<node_id(node_id, interlock::splitmix64&)> destination;
  std::vector<double> channel_loads;  // per unit of node injection, over the torus
};

template <class Pattern>
pattern_choice make_pattern(const std::string& name, const interlock::torus_topology& t,
                            const Pattern& p) {
  pattern_choice c;
  c.name = name;
  c.destination = [&t, p](node_id s, interlock::splitmix64& g) { return p.destination(t, s, g); };
  const interlock::vc_promotion_routing torus_routes(t, interlock::all_dimension_orders(3));
  c.channel_loads = interlock::channel_loads(torus_routes, p);
  return c;
}

pattern_choice pattern_named(const std::string& name, const interlock::torus_topology& t) {
  namespace tr = interlock::traffic;
  if (name == "uniform") return make_pattern(name, t, tr::uniform_random{});
  if (name == "neighbor1") return make_pattern(name, t, tr::neighbor{1});
  if (name == "neighbor2") return make_pattern(name, t, tr::neighbor{2});
  if (name == "tornado") return make_pattern(name, t, tr::tornado{});
  if (name == "reverse_tornado") return make_pattern(name, t, tr::reverse_tornado{});
  throw cli::bad_input{"--patterns: '" + name +
                       "'; allowed: uniform, neighbor1, neighbor2, tornado, reverse_tornado"};
}

// Inverse-weight tables for arbiters of K inputs, one per distinct load
// vector (most arbiters of a symmetric network share theirs).
template <std::size_t K>
class weight_tables {
 public:
  using table = interlock::inverse_weight_table<K, 1, weight_bits>;
  std::shared_ptr<const table> get(const std::vector<double>& loads) {
    auto it = cache_.find(loads);
    if (it != cache_.end()) return it->second;
    interlock::load_matrix m(K, std::vector<double>(1, 0.0));
    std::uint64_t idle = 0;
    bool any = false;
    for (std::size_t i = 0; i < K; ++i) {
      m[i][0] = i < loads.size() ? loads[i] : 0.0;
      if (m[i][0] == 0) idle |= std::uint64_t{1} << i;
      any = any || m[i][0] > 0;
    }
    auto t =
        any ? std::make_shared<const table>(interlock::weights_from_loads(m, weight_bits, idle))
            : std::make_shared<const table>(std::vector<std::vector<std::uint32_t>>(
                  K, std::vector<std::uint32_t>(1, (1u << weight_bits) - 1)));
    cache_.emplace(loads, t);
    return t;
  }
  std::size_t size() const { return cache_.size(); }

 private:
  std::map<std::vector<double>, std::shared_ptr<const table>> cache_;
};

struct outcome {
  double normalized = 0;         // throughput over the torus channels' capacity
  std::uint64_t last = 0;        // cycle of the last arrival
  double completion_spread = 0;  // latest / earliest source completion
  bool ok = false;
  double seconds = 0;
};

template <class Net>
outcome finish(Net& net, double packets_per_node, double ideal_per_node) {
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
  return o;
}

interlock::model::config batch_config(const settings& s, std::size_t batch) {
  interlock::model::config c;
  c.batch = batch;
  c.buffer_flits = s.buffer_flits;
  c.seed = s.seed;
  c.measure = 100000000;
  c.drain = 0;
  return c;
}

// Anton 2's node: 16 mesh routers, 12 adapters.
struct anton2_shape {
  interlock::torus_topology torus;
  interlock::anton2_topology node;
  interlock::anton2_routing routing;
  interlock::unified_arbiter_loads
      loads;  // uniform traffic's, once an inverse-weighted run needs them
  explicit anton2_shape(std::size_t k) : torus({k, k, k}, {}, 2), node(torus), routing(node) {}

  outcome run(const settings& s, const pattern_choice& p, bool weighted, std::size_t batch) {
    const double busiest = *std::max_element(p.channel_loads.begin(), p.channel_loads.end());
    const double ideal = node.links().torus_bandwidth / busiest;  // packets per node per cycle
    const interlock::model::config c = batch_config(s, batch);
    const auto traffic = interlock::model::to_cores(node, p.destination);
    if (!weighted) {
      using rr = interlock::round_robin_arbiter<8>;
      interlock::model::network<interlock::anton2_routing, rr,
                                interlock::model::separable_input_first, rr>
          net(
              routing, c, traffic, [](node_id, std::size_t) { return rr{}; }, {}, {},
              [](node_id, std::size_t) { return rr{}; });
      return finish(net, static_cast<double>(batch * cores), ideal);
    }
    using iw = interlock::inverse_weighted_arbiter<8, 1, weight_bits>;
    if (loads.routers == 0)
      loads = interlock::anton2_arbiter_loads(routing, interlock::traffic_class::request,
                                              interlock::traffic::uniform_random{});
    weight_tables<8> tables;
    const std::size_t ports = loads.ports;
    std::vector<std::shared_ptr<const weight_tables<8>::table>> out(loads.routers * ports),
        in(loads.routers * ports);
    std::vector<double> v(8);
    for (node_id r = 0; r < loads.routers; ++r)
      for (std::size_t o = 0; o < ports; ++o) {
        for (std::size_t i = 0; i < 8; ++i) v[i] = loads.output(r, o, i, 0);
        out[r * ports + o] = tables.get(v);
        for (std::size_t i = 0; i < 8; ++i) v[i] = loads.input(r, o, i, 0);
        in[r * ports + o] = tables.get(v);
      }
    interlock::model::network<interlock::anton2_routing, iw,
                              interlock::model::separable_input_first, iw>
        net(
            routing, c, traffic, [&](node_id r, std::size_t o) { return iw(out[r * ports + o]); },
            {}, {}, [&](node_id r, std::size_t q) { return iw(in[r * ports + q]); });
    return finish(net, static_cast<double>(batch * cores), ideal);
  }
};

// One router per node: 12 torus ports and 8 endpoints.
struct router_shape {
  static constexpr std::size_t endpoints = 8;
  interlock::torus_topology torus;
  interlock::vc_promotion_routing routing;
  interlock::arbiter_loads outputs, inputs;  // uniform traffic's, computed when first needed
  explicit router_shape(std::size_t k)
      : torus({k, k, k}, {}, 2), routing(torus, interlock::all_dimension_orders(3)) {}

  outcome run(const settings& s, const pattern_choice& p, bool weighted, std::size_t batch) {
    const double busiest = *std::max_element(p.channel_loads.begin(), p.channel_loads.end());
    const double ideal = 1.0 / busiest;
    interlock::model::config c = batch_config(s, batch * cores);
    c.endpoints = endpoints;
    if (!weighted) {
      using rr = interlock::round_robin_arbiter<64>;
      interlock::model::network<interlock::vc_promotion_routing, rr> net(
          routing, c, p.destination, [](node_id, std::size_t) { return rr{}; });
      return finish(net, static_cast<double>(batch * cores), ideal);
    }
    // The model's ports: 12 torus ports, then the endpoints, which share the
    // loads' one local port evenly.
    const std::size_t local = torus.local_port(), lp = torus.ports();
    using iw = interlock::inverse_weighted_arbiter<64, 1, weight_bits>;
    if (outputs.empty()) {
      outputs = interlock::router_arbiter_loads(routing, interlock::traffic_class::request,
                                                interlock::traffic::uniform_random{});
      inputs = interlock::router_input_loads(routing, interlock::traffic_class::request,
                                             interlock::traffic::uniform_random{});
    }
    weight_tables<64> tables;
    auto output = [&](node_id r, std::size_t o) {
      const auto& arb = outputs[r * lp + std::min(o, local)];
      std::vector<double> v(local + endpoints);
      for (std::size_t q = 0; q < v.size(); ++q)
        v[q] = q < local ? arb[q][0] : arb[local][0] / static_cast<double>(endpoints);
      return iw(tables.get(v));
    };
    auto input = [&](node_id r, std::size_t q) {
      const auto& arb = inputs[r * lp + std::min(q, local)];
      std::vector<double> v(arb.size());
      for (std::size_t x = 0; x < v.size(); ++x) v[x] = arb[x][0];
      return iw(tables.get(v));
    };
    interlock::model::network<interlock::vc_promotion_routing, iw,
                              interlock::model::separable_input_first, iw>
        net(routing, c, p.destination, output, {}, {}, input);
    return finish(net, static_cast<double>(batch * cores), ideal);
  }
};

std::vector<std::size_t> numbers(const std::string& flag, const std::string& text, std::size_t lo,
                                 std::size_t hi) {
  std::vector<std::size_t> v;
  for (const std::string& x : cli::split(text)) v.push_back(cli::number(flag, x, lo, hi));
  return v;
}

std::vector<std::string> names(const std::string& flag, const std::string& text,
                               const std::vector<std::string>& allowed) {
  std::vector<std::string> v = cli::split(text);
  for (const std::string& x : v)
    if (std::find(allowed.begin(), allowed.end(), x) == allowed.end()) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw cli::bad_input{flag + ": '" + x + "'; allowed: " + list};
    }
  return v;
}

int run(int argc, char** argv) {
  settings s;
  bool full = false;
  bool radix_given = false, batches_given = false;
  cli::flags flags(argc, argv, [](const std::string& f) { return f == "--full"; });
  flags.for_each([&](const std::string& flag, const auto& value) {
    if (flag == "--full") {
      full = true;
    } else if (flag == "--radix") {
      s.radix = cli::number(flag, value(), 2, 16);
      radix_given = true;
    } else if (flag == "--batches") {
      s.batches = numbers(flag, value(), 1, 1000000);
      batches_given = true;
    } else if (flag == "--patterns") {
      s.patterns =
          names(flag, value(), {"uniform", "neighbor1", "neighbor2", "tornado", "reverse_tornado"});
    } else if (flag == "--nodes") {
      s.nodes = names(flag, value(), {"anton2", "router"});
    } else if (flag == "--arbiters") {
      s.arbiters = names(flag, value(), {"round_robin", "inverse_weighted"});
    } else if (flag == "--buffer-flits") {
      s.buffer_flits = static_cast<unsigned>(cli::number(flag, value(), 1, 64));
    } else if (flag == "--seed") {
      s.seed = cli::number(flag, value(), 0, 1000000000);
    } else if (flag == "--csv") {
      s.csv = value();
    } else {
      throw cli::bad_input{flag + ": unknown option (see --help)"};
    }
  });
  if (full) {
    if (!radix_given) s.radix = 8;
    if (!batches_given) s.batches = {16, 64, 256, 1024};
  }
  std::FILE* csv = nullptr;
  if (!s.csv.empty()) {
    csv = std::fopen(s.csv.c_str(), "w");
    if (csv == nullptr) throw cli::bad_input{"--csv: cannot write '" + s.csv + "'"};
    std::fprintf(csv,
                 "node,pattern,arbiter,radix,batch,last_arrival,normalized_throughput,"
                 "completion_spread,seconds\n");
  }
  std::printf(
      "Throughput beyond saturation (Towles et al., ISCA'14, Section 4.1, Figure 9)\n"
      "%zux%zux%zu torus, 2 slices, 1-flit packets, %u-flit buffers per VC; batch = packets\n"
      "per core (16 per node); throughput normalized to the torus channels' capacity.\n"
      "Inverse weights (M = %u) from uniform traffic's loads at every arbitration point.\n\n",
      s.radix, s.radix, s.radix, s.buffer_flits, weight_bits);
  std::printf("%-7s %-10s %-17s %7s %10s %11s %9s\n", "node", "pattern", "arbiter", "batch", "last",
              "throughput", "spread");
  const interlock::torus_topology torus({s.radix, s.radix, s.radix}, {}, 2);
  std::unique_ptr<anton2_shape> anton;
  std::unique_ptr<router_shape> router;
  int status = 0;
  for (const std::string& node : s.nodes) {
    if (node == "anton2" && !anton) anton = std::make_unique<anton2_shape>(s.radix);
    if (node == "router" && !router) router = std::make_unique<router_shape>(s.radix);
    for (const std::string& pname : s.patterns) {
      const pattern_choice p = pattern_named(pname, torus);
      for (const std::string& arbiter : s.arbiters)
        for (const std::size_t batch : s.batches) {
          const bool weighted = arbiter == "inverse_weighted";
          const outcome o = node == "anton2" ? anton->run(s, p, weighted, batch)
                                             : router->run(s, p, weighted, batch);
          std::printf("%-7s %-10s %-17s %7zu %10llu %11.3f %9.3f%s\n", node.c_str(), pname.c_str(),
                      arbiter.c_str(), batch, static_cast<unsigned long long>(o.last), o.normalized,
                      o.completion_spread, o.ok ? "" : "  (did not finish)");
          std::fflush(stdout);
          if (!o.ok) status = 1;
          if (csv != nullptr && std::fprintf(csv, "%s,%s,%s,%zu,%zu,%llu,%.5f,%.4f,%.2f\n",
                                             node.c_str(), pname.c_str(), arbiter.c_str(), s.radix,
                                             batch, static_cast<unsigned long long>(o.last),
                                             o.normalized, o.completion_spread, o.seconds) < 0) {
            std::fclose(csv);
            throw std::runtime_error("--csv: writing '" + s.csv + "' failed");
          }
        }
    }
  }
  if (csv != nullptr && std::fclose(csv) != 0)
    throw std::runtime_error("--csv: writing '" + s.csv + "' failed");
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("saturation", help, "try a smaller --radix", argc, argv,
                       [&] { return run(argc, argv); });
}
