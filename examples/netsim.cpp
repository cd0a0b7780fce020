// netsim: the reference network model (interlock/model/) from the command line.
//
//   netsim --radix 8,8,8 --scheme dor --arbiter round_robin --traffic uniform_random --load 0.3
//   netsim --radix 8 --wrap 0 --traffic all_to_one --load 1 --arbiter age --per-source lot.csv
//
// Exit status: 0 the run(s) finished, 1 the network deadlocked or a batch was cut off
// by the cycle limit, 2 bad input, 3 an output file could not be written.
// --help lists every flag.
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weights.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/routing/vc_table.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <stdexcept>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <interlock/model/network.hpp>
#include <interlock/model/presets.hpp>
#include "netsim_args.hpp"
#include "tool_main.hpp"

namespace {

using namespace netsim_tool;
using interlock::node_id;

const char* const help_text =
    "usage: netsim [options]\n"
    "\n"
    "Runs the reference network model: credit-based virtual cut-through routers\n"
    "on a torus or mesh, routing and output arbitration by interlock's policies.\n"
    "Prints a summary; --csv writes one row per run.\n"
    "\n"
    "  --preset NAME          seastar or anton2: the router shapes of the papers\n"
    "                         (interlock/model/presets.hpp); other flags override\n"
    "\n"
    "network (as deadlock_check)\n"
    "  --radix K0,K1,...      radix of each dimension (2..256), 1 to 8 dimensions;\n"
    "                         default 8,8,8\n"
    "  --wrap W0,W1,...       1: ring (torus), 0: line (mesh); default all 1\n"
    "  --slices N             parallel copies of every link (Anton 2: 2); default 1\n"
    "  --scheme NAME          dor (default), t3e, t3e_adaptive, vc_promotion, per_dimension\n"
    "    --orders LIST        dor, vc_promotion, per_dimension: dimension orders packets\n"
    "                         take, chosen at random per packet (xyz,zyx,... or all)\n"
    "    --no-datelines       dor: one VC per class, no dateline (deadlocks on rings\n"
    "                         of 5 or more; the model reports the cycle)\n"
    "    --tables toc|optimized  t3e, t3e_adaptive: VC tables\n"
    "\n"
    "router\n"
    "  --arbiter NAME         output arbiter: round_robin (default), age (the Cray XT\n"
    "                         age-epoch arbiter, every grant by age), inverse_weighted\n"
    "                         (Anton 2, weights from the pattern's loads, M = 8)\n"
    "    --age-period N       age: AGE_CLK_PERIOD in cycles (default: Section 3.2's\n"
    "                         recommendation for the network, recommend_age_clock)\n"
    "    --age-bias B|B0,..   age: REQ/RSP_AGE_BIAS (0..7) of every input port, or of\n"
    "                         the ports of each dimension [and the local port]\n"
    "                         (default: Section 3.2's n, n-1, ..., 1 by dimension)\n"
    "  --vcs N                physical VCs per channel: a multiple of what the scheme\n"
    "                         uses for the classes sent (default exactly that)\n"
    "  --buffer-flits N       input buffer per (port, VC), >= the longest packet\n"
    "                         (default 16)\n"
    "  --injection-buffer-flits N  the local (injection) port's, per VC (default\n"
    "                         as --buffer-flits)\n"
    "  --channel-latency N    cycles on a channel (default 1)\n"
    "  --router-delay N       cycles from a head's arrival to its allocation (default 1)\n"
    "\n"
    "traffic\n"
    "  --traffic NAME         uniform_random (default), tornado, reverse_tornado,\n"
    "                         bit_complement, transpose, neighbor, all_to_one, hotspot\n"
    "    --destination N      all_to_one, hotspot: the node (default the last)\n"
    "    --hotspot-fraction F hotspot: share of packets to it (default 0.5)\n"
    "    --neighbor-hops H    neighbor: at most H hops per dimension (default 1)\n"
    "  --load L               offered flits per node per cycle, 0..1 (default 0.1)\n"
    "  --sweep L1,L2,...      one run per load, one CSV row each\n"
    "  --batch B              every source sends B packets as fast as it can; the run\n"
    "                         ends at the last delivery\n"
    "  --packet-flits N|N:S,..  packet length, or lengths with shares (default 1)\n"
    "  --response-share F     share of packets in the response class (default 0)\n"
    "\n"
    "run\n"
    "  --warmup N             cycles before measuring (default 1000)\n"
    "  --cycles N             measured cycles (default 10000)\n"
    "  --drain N              at most N more cycles for measured packets (default 50000)\n"
    "  --seed N               the run's seed (default 1)\n"
    "  --csv FILE             one row per run, with a header line\n"
    "  --per-source FILE      one row per source: source,hops,accepted,share,\n"
    "                         latency_mean,latency_sd,network_latency_mean,completion\n"
    "                         (completion: a batch's last delivery from the source)\n"
    "  --no-progress          no progress bar (it is shown only on a terminal)\n"
    "  --help                 this text\n"
    "\n"
    "Exit status: 0 the run(s) finished; 1 the network deadlocked, or a batch was\n"
    "cut off by --cycles + --drain; 2 bad input; 3 an output could not be written.\n"
    "\n"
    "Throughput is in flits per node per cycle; 'normalized' divides it by the\n"
    "pattern's ideal (1 / the load of the busiest channel, injection or ejection\n"
    "port per unit offered), computed from interlock's channel loads.\n";

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

// What the run needs of its traffic pattern.
struct traffic_setup {
  interlock::model::destination_function destination;
  double capacity = 0;             // 0: not computed
  interlock::arbiter_loads loads;  // only for --arbiter inverse_weighted
};

// The largest network whose flows are summed for the capacity and the weights.
constexpr double max_flow_pairs = 4.0e6;

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
    const auto channel = interlock::channel_loads(scheme, pattern);
    double busiest = 1;  // the injection port
    for (const double l : channel) busiest = std::max(busiest, l);
    std::vector<double> into(t.node_count(), 0.0);
    std::vector<bool> sends(t.node_count(), false);
    pattern.for_each_flow(t, [&](node_id src, node_id dst, double rate) {
      into[dst] += rate;
      if (rate > 0) sends[src] = true;
    });
    for (const double l : into) busiest = std::max(busiest, l);
    const double senders = static_cast<double>(std::count(sends.begin(), sends.end(), true));
    s.capacity = senders / static_cast<double>(t.node_count()) / busiest;
  }
  if (a.arbiter == "inverse_weighted") {
    if (pairs > max_flow_pairs)
      throw bad_input{
          "--arbiter: inverse_weighted computes its weights from every flow's "
          "route; at most 2000 nodes"};
    s.loads = interlock::router_arbiter_loads(scheme, interlock::traffic_class::request, pattern);
  }
  return s;
}

template <class Scheme>
traffic_setup with_pattern(const arguments& a, const Scheme& scheme) {
  const interlock::torus_topology& t = scheme.topology();
  const node_id last = t.node_count() - 1;
  const node_id chosen =
      a.destination == ~std::size_t{0} ? last : static_cast<node_id>(a.destination);
  if (a.destination != ~std::size_t{0} && a.destination > last)
    throw bad_input{"--destination: " + std::to_string(a.destination) +
                    "; the network has nodes 0.." + std::to_string(last)};
  namespace tr = interlock::traffic;
  if (a.traffic == "uniform_random") return make_traffic(a, scheme, tr::uniform_random{});
  if (a.traffic == "tornado") return make_traffic(a, scheme, tr::tornado{});
  if (a.traffic == "reverse_tornado") return make_traffic(a, scheme, tr::reverse_tornado{});
  if (a.traffic == "bit_complement") return make_traffic(a, scheme, tr::bit_complement{});
  if (a.traffic == "transpose") return make_traffic(a, scheme, tr::transpose{});
  if (a.traffic == "neighbor") return make_traffic(a, scheme, tr::neighbor{a.neighbor_hops});
  if (a.traffic == "all_to_one") return make_traffic(a, scheme, tr::all_to_one{chosen});
  if (a.traffic == "hotspot")
    return make_traffic(a, scheme, tr::hotspot{chosen, a.hotspot_fraction});
  throw bad_input{"--traffic: '" + a.traffic +
                  "'; allowed: uniform_random, tornado, reverse_tornado, bit_complement, "
                  "transpose, neighbor, all_to_one, hotspot"};
}

// The age parameters: given, or Section 3.2's methodology for this network
// (interlock::model::recommended_age).
interlock::model::age_config make_age_config(const arguments& a, const interlock::torus_topology& t,
                                             unsigned vcs_per_class) {
  const unsigned classes = a.model.response_share > 0 && a.model.response_share < 1 ? 2 : 1;
  const unsigned per_link = a.model.vcs != 0 ? a.model.vcs / classes : vcs_per_class;
  const interlock::model::age_advice advice =
      interlock::model::recommended_age(t, a.model, per_link);
  interlock::model::age_config age = advice.age;
  if (a.age_period != 0) age.period = a.age_period;
  const std::vector<unsigned> bias = a.age_bias.empty() ? advice.dimension_bias : a.age_bias;
  if (bias.size() == 1) {
    age.bias = interlock::age_bias{bias[0], bias[0]};
  } else if (!bias.empty()) {
    age.port_bias = interlock::model::biases_by_dimension(t, bias);
  }
  std::printf("age: AGE_CLK_PERIOD %u%s, REQ/RSP_AGE_BIAS", age.period,
              a.age_period != 0 ? ""
              : advice.advised  ? " (Section 3.2's recommendation)"
                                : " (default)");
  if (bias.empty()) std::printf(" 1 (default)");
  for (std::size_t i = 0; i < bias.size(); ++i) std::printf("%s%u", i ? "," : " ", bias[i]);
  if (a.age_bias.empty() && advice.advised) std::printf(" (by dimension, Section 3.2)");
  std::printf("\n");
  return age;
}

void print_results(const arguments& a, const interlock::model::results& r, double capacity) {
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

// An output file: opened before the run (a path that cannot be written is
// bad input), every write checked (a failed one fails the run).
class output_file {
 public:
  output_file(const std::string& flag, const std::string& path) : flag_(flag), path_(path) {
    if (path.empty()) return;
    f_ = std::fopen(path.c_str(), "w");
    if (f_ == nullptr) throw bad_input{flag + ": cannot write '" + path + "'"};
  }
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  ~output_file() {
    if (f_ != nullptr) std::fclose(f_);
  }
  bool open() const { return f_ != nullptr; }
  void line(const std::string& text) {
    if (f_ == nullptr) return;
    if (std::fputs(text.c_str(), f_) < 0 || std::fputc('\n', f_) == EOF || std::fflush(f_) != 0)
      fail();
  }
  void close() {
    if (f_ == nullptr) return;
    const int status = std::fclose(f_);
    f_ = nullptr;
    if (status != 0) fail();
  }

 private:
  [[noreturn]] void fail() {
    throw std::runtime_error(flag_ + ": writing '" + path_ + "' failed: " + std::strerror(errno));
  }
  std::string flag_, path_;
  std::FILE* f_ = nullptr;
};

std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* pattern, ...) {
  char text[512];
  va_list args;
  va_start(args, pattern);
  std::vsnprintf(text, sizeof text, pattern, args);
  va_end(args);
  return text;
}

template <class Scheme, class Policy>
int simulate(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
             const std::function<Policy(node_id, std::size_t)>& make_policy,
             const interlock::model::age_config& age) {
  std::vector<double> loads = a.sweep;
  if (loads.empty()) loads.push_back(a.model.load);
  output_file csv("--csv", a.csv);
  output_file per_source("--per-source", a.per_source);
  csv.line(interlock::model::csv_header());
  int status = 0;
  for (const double load : loads) {
    interlock::model::config cfg = a.model;
    if (cfg.batch == 0) cfg.load = load;
    interlock::model::network<Scheme, Policy> net(scheme, cfg, traffic.destination, make_policy,
                                                  age);
    if (loads.size() > 1) std::printf("\n");
    progress_bar bar;
    bar.on = a.progress && isatty(2) != 0;
    bar.label = cfg.batch > 0 ? "batch" : "load " + std::to_string(load).substr(0, 5);
    interlock::model::results r = net.run([&](double f) { bar(f); });
    bar.done();
    r.capacity = traffic.capacity > 0 ? traffic.capacity : 1;
    print_results(a, r, traffic.capacity);
    csv.line(interlock::model::csv_row(r));
    if (per_source.open()) {
      double total = 0;
      for (const double x : r.accepted_per_source) total += x;
      per_source.line(
          "source,hops,accepted,share,latency_mean,latency_sd,network_latency_mean,completion");
      const interlock::torus_topology& t = scheme.topology();
      for (std::size_t i = 0; i < r.sources.size(); ++i) {
        const double hops = a.traffic == "all_to_one"
                                ? static_cast<double>(t.distance(
                                      r.sources[i], a.destination == ~std::size_t{0}
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

template <class Scheme>
int with_arbiter(const arguments& a, const Scheme& scheme) {
  const interlock::torus_topology& t = scheme.topology();
  const traffic_setup traffic = with_pattern(a, scheme);
  if (a.arbiter == "round_robin") {
    using policy = interlock::round_robin_arbiter<64>;
    return simulate<Scheme, policy>(a, scheme, traffic,
                                    [](node_id, std::size_t) { return policy{}; }, {});
  }
  if (a.arbiter == "age") {
    using policy = interlock::age_epoch_arbiter<64>;
    return simulate<Scheme, policy>(
        a, scheme, traffic, [](node_id, std::size_t) { return policy(policy::all_age); },
        make_age_config(a, t, scheme.vcs_per_class()));
  }
  // inverse_weighted: each output's weights from its inputs' loads (Section 3.1).
  using policy = interlock::inverse_weighted_arbiter<64, 1, 8>;
  using table = interlock::inverse_weight_table<64, 1, 8>;
  std::vector<std::shared_ptr<const table>> tables(traffic.loads.size());
  for (std::size_t arb = 0; arb < traffic.loads.size(); ++arb) {
    interlock::load_matrix loads(64, std::vector<double>(1, 0.0));
    std::uint64_t idle = 0;
    bool any = false;
    for (std::size_t i = 0; i < 64; ++i) {
      if (i < traffic.loads[arb].size()) loads[i][0] = traffic.loads[arb][i][0];
      if (loads[i][0] == 0) idle |= std::uint64_t{1} << i;
      any = any || loads[i][0] > 0;
    }
    tables[arb] = any ? std::make_shared<const table>(interlock::weights_from_loads(loads, 8, idle))
                      : std::make_shared<const table>(std::vector<std::vector<std::uint32_t>>(
                            64, std::vector<std::uint32_t>(1, 255)));
  }
  return simulate<Scheme, policy>(
      a, scheme, traffic,
      [&](node_id r, std::size_t o) { return policy(tables[interlock::router_arbiter(t, r, o)]); },
      {});
}

std::vector<interlock::ring_vc_assignment> t3e_tables(const arguments& a) {
  return deadlock_check_tool::vc_tables(a.radix, a.tables, false);
}

int run(const arguments& a) {
  const interlock::torus_topology t(a.radix, a.wrap, a.slices);
  if (t.node_count() > (1u << 20))
    throw bad_input{"--radix: " + std::to_string(t.node_count()) + " nodes; at most 1048576"};
  const std::size_t n = a.radix.size();
  std::printf("network: %zu nodes,", static_cast<std::size_t>(t.node_count()));
  for (std::size_t d = 0; d < n; ++d)
    std::printf("%s%zu%s", d ? " x " : " ", a.radix[d], a.wrap[d] ? "" : " (mesh)");
  std::printf(", %zu slice%s; scheme %s; arbiter %s; traffic %s\n", a.slices,
              a.slices > 1 ? "s" : "", a.scheme.c_str(), a.arbiter.c_str(), a.traffic.c_str());
  if (a.scheme == "dor") {
    const interlock::dimension_order_routing dor(
        t, deadlock_check_tool::parse_orders(a.orders, n, false), {!a.no_datelines});
    return with_arbiter(a, dor);
  }
  if (a.scheme == "vc_promotion" || a.scheme == "per_dimension") {
    interlock::vc_promotion_options options;
    options.scheme = a.scheme == "vc_promotion" ? interlock::vc_scheme::promotion
                                                : interlock::vc_scheme::per_dimension;
    const interlock::vc_promotion_routing scheme(
        t, deadlock_check_tool::parse_orders(a.orders, n, true), options);
    return with_arbiter(a, scheme);
  }
  if (a.scheme == "t3e") {
    const interlock::direction_order_routing t3e(t, {}, t3e_tables(a));
    return with_arbiter(a, t3e);
  }
  const interlock::t3e_adaptive_routing adaptive(t, {}, t3e_tables(a));
  return with_arbiter(a, adaptive);
}

}  // namespace

int main(int argc, char** argv) {
  return example_tools::tool_main("netsim", help_text, "a smaller network, or fewer --cycles", argc,
                                  argv, [&] {
                                    try {
                                      return run(parse(argc, argv));
                                    } catch (const interlock::config_error& e) {
                                      // The model names its fields; say them as flags.
                                      throw bad_input{flag_of_field(e.field()) + " = " + e.value() +
                                                      "; allowed: " + e.allowed()};
                                    }
                                  });
}
