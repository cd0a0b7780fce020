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
#include <interlock/traffic/arbitration_weights.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "netsim_args.hpp"
#include "netsim_config.hpp"
#include "netsim_report.hpp"

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

// The threads of a sweep: start() runs work(k) for every point k on `jobs`
// threads, each taking the next point; finish() records a point as done
// under the lock and wakes the printer, which wait()s for its next point in
// order. The destructor lets no new point start and joins the threads, so
// a failure reported on the main thread ends the sweep cleanly.
class sweep_workers {
 public:
  explicit sweep_workers(std::size_t points) : points_(points) {}
  sweep_workers(const sweep_workers&) = delete;
  sweep_workers& operator=(const sweep_workers&) = delete;
  ~sweep_workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      next_ = points_;
    }
    for (std::thread& t : threads_) t.join();
  }
  template <class Work>
  void start(std::size_t jobs, Work work) {
    for (std::size_t j = 0; j < jobs; ++j)
      threads_.emplace_back([this, work] {
        for (;;) {
          std::size_t k = 0;
          {
            std::lock_guard<std::mutex> lock(mutex_);
            if (next_ >= points_) return;
            k = next_++;
          }
          work(k);
        }
      });
  }
  template <class Record>
  void finish(Record&& record) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      record();
      ++finished_;
    }
    ready_.notify_all();
  }
  template <class Done>
  void wait(Done&& done) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, done);
  }
  /// "sweep: N of M points done" on stderr (a terminal's).
  void show_progress() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::fprintf(stderr, "\rsweep: %zu of %zu points done", finished_, points_);
  }
  void clear_progress(bool shown) const {
    if (shown) std::fprintf(stderr, "\r%40s\r", "");
  }

 private:
  std::size_t points_, next_ = 0, finished_ = 0;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<std::thread> threads_;
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

template <class Scheme, class Policy, class Allocator, class InputPolicy>
int simulate(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
             const std::function<Policy(node_id, std::size_t)>& make_policy,
             const interlock::model::age_config& age, const Allocator& allocator,
             const std::function<InputPolicy(node_id, std::size_t)>& make_input) {
  std::vector<double> loads = a.sweep;
  if (loads.empty()) loads.push_back(a.model.load);
  // The configuration as run: the physical VCs the network builds, the age
  // clock's parameters.
  const bool responses = a.model.response_share > 0;
  const bool requests = a.model.response_share < 1;
  const unsigned vcs = static_cast<unsigned>(
      interlock::model::vc_sets(scheme.vcs_per_channel(), scheme.vcs_per_class(), requests,
                                responses, a.model.vcs)
          .physical());
  const std::vector<setting> settings =
      resolved_settings(a, vcs, age, torus_of(scheme.topology()).dimensions());
  cli::output_file csv("--csv", a.csv);
  cli::output_file per_source("--per-source", a.per_source);
  cli::output_file json("--json", a.json);
  if (!a.write_config.empty()) write_config(a.write_config, settings, "netsim");
  csv.line(config_columns(a, 0, vcs).first + interlock::model::csv_header());
  if (!a.quiet) std::printf("%s\n", echo_line(settings).c_str());
  std::string runs;  // --json: one object per load
  int status = 0;
  // The points of a sweep run on --jobs threads, each its own network; each
  // point prints once every point before it has, so the output and the rows
  // keep the order of the list and equal --jobs 1's.
  struct point {
    interlock::model::results r;
    std::exception_ptr error;
    bool done = false;
  };
  std::vector<point> points(loads.size());
  const bool tty = a.progress && isatty(2) != 0;
  const auto run_point = [&](std::size_t k, bool bar_on) {
    interlock::model::config cfg = a.model;
    if (cfg.batch == 0) cfg.load = loads[k];
    interlock::model::network<Scheme, Policy, Allocator, InputPolicy> net(
        scheme, cfg, traffic.destination, make_policy, age, allocator, make_input);
    progress_bar bar;
    bar.on = bar_on;
    bar.label = cfg.batch > 0 ? "batch" : "load " + std::to_string(loads[k]).substr(0, 5);
    points[k].r = net.run([&](double f) { bar(f); });
    bar.done();
    points[k].r.capacity = traffic.capacity > 0 ? traffic.capacity : 1;
  };
  const std::size_t jobs = std::min(a.jobs, loads.size());
  sweep_workers workers(loads.size());
  if (jobs > 1)
    workers.start(jobs, [&](std::size_t k) {
      std::exception_ptr error;
      try {
        run_point(k, false);
      } catch (...) {
        error = std::current_exception();
      }
      workers.finish([&] {
        points[k].error = error;
        points[k].done = true;
      });
      if (tty) workers.show_progress();
    });
  for (std::size_t k = 0; k < loads.size(); ++k) {
    if (jobs > 1) {
      workers.wait([&] { return points[k].done; });
    } else {
      run_point(k, tty);
    }
    if (points[k].error) std::rethrow_exception(points[k].error);
    const double load = loads[k];
    const interlock::model::results& r = points[k].r;
    if (loads.size() > 1 && !a.quiet) std::printf("\n");
    if (!a.quiet) std::fputs(results_text(a, r, traffic.capacity).c_str(), stdout);
    if (a.on_results) a.on_results(r);
    const std::string row = interlock::model::csv_row(r);
    csv.line(config_columns(a, load, vcs).second + row);
    const char* const source_header =
        "source,hops,accepted,share,latency_mean,latency_sd,network_latency_mean,completion";
    std::vector<std::string> sources;
    if (per_source.open() || json.open()) {
      double total = 0;
      for (const double x : r.accepted_per_source) total += x;
      const interlock::torus_topology& t = torus_of(scheme.topology());
      for (std::size_t i = 0; i < r.sources.size(); ++i) {
        const double hops =
            a.traffic == "all_to_one"
                ? static_cast<double>(t.distance(node_of(scheme.topology(), r.sources[i]),
                                                 a.destination == ~std::size_t{0}
                                                     ? t.node_count() - 1
                                                     : static_cast<node_id>(a.destination)))
                : r.hops_per_source[i];
        sources.push_back(cli::format(
            "%u,%.3f,%.6f,%.6f,%.3f,%.3f,%.3f,%llu", r.sources[i], hops, r.accepted_per_source[i],
            total > 0 ? r.accepted_per_source[i] / total : 0.0, r.latency_per_source[i],
            r.latency_sd_per_source[i], r.network_latency_per_source[i],
            static_cast<unsigned long long>(
                r.completion_per_source.empty() ? 0 : r.completion_per_source[i])));
      }
    }
    if (per_source.open()) {
      per_source.line(source_header);
      for (const std::string& line : sources) per_source.line(line);
    }
    if (json.open()) {
      std::string list;
      for (const std::string& line : sources)
        list += (list.empty() ? "" : ",\n        ") + cli::json::row(source_header, line);
      runs += std::string(runs.empty() ? "" : ",\n") +
              "    {\"results\": " + cli::json::row(interlock::model::csv_header(), row) +
              ",\n      \"per_source\": [" + list + "]}";
    }
    if (r.deadlock.deadlocked || (a.model.batch > 0 && !r.complete)) status = 1;
    points[k].r = {};  // a large network's per-source figures: not kept
  }
  workers.clear_progress(tty && jobs > 1);
  csv.close();
  per_source.close();
  if (json.open()) {
    json.line("{" + cli::json::header("netsim") + ",\n  \"configuration\": " +
              cli::json::object(settings) + ",\n  \"runs\": [\n" + runs + "\n  ]\n}");
    json.close();
  }
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
  const auto out = interlock::arbitration_tables(tables, traffic.loads);
  const auto in = interlock::arbitration_tables(tables, traffic.input_loads);
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
