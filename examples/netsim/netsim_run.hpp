// SPDX-License-Identifier: BSL-1.0
// netsim's runs: the policies (netsim_traffic.hpp gives the traffic), the
// model and its report, for one routing scheme type at a time. Each scheme type's runs are compiled
// in a translation unit of their own (netsim_<scheme>.cpp), so that the compositions build in
// parallel.
#ifndef INTERLOCK_EXAMPLES_NETSIM_RUN_HPP
#define INTERLOCK_EXAMPLES_NETSIM_RUN_HPP

#include <unistd.h>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weighted_family.hpp>
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
#include <interlock/traffic/arbitration_weights.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "grid.hpp"
#include "netsim_args.hpp"
#include "netsim_config.hpp"
#include "netsim_report.hpp"
#include "netsim_trace_run.hpp"
#include "netsim_traffic.hpp"

namespace netsim_tool {

using interlock::node_id;

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
  if (loads.empty()) loads.push_back(a.trace.on() ? 0.0 : a.model.load);
  // The configuration as run: the physical VCs the network builds, the age
  // clock's parameters.
  const bool responses = a.model.response_share > 0;
  const bool requests = a.model.response_share < 1;
  const unsigned vcs = static_cast<unsigned>(
      interlock::model::vc_sets(scheme.vcs_per_channel(), scheme.vcs_per_class(), requests,
                                responses, a.model.vcs)
          .physical());
  const arguments as_run = resolved(a, vcs, age, torus_of(scheme.topology()).dimensions());
  const std::vector<setting> settings = netsim_tool::settings().resolved(as_run);
  if (a.on_resolved) a.on_resolved(settings);
  // A trace is opened, and its work estimated from its header, before any
  // output is written (a trace run is one point).
  std::unique_ptr<trace_session> session;
  if (a.trace.on()) {
    const std::size_t nodes = torus_of(scheme.topology()).node_count();
    session = std::make_unique<trace_session>(a.trace, nodes);
    check_trace_work(a, static_cast<double>(nodes), session->cycles(), session->packets());
  }
  cli::output_file csv("--csv", a.csv);
  cli::output_file per_source("--per-source", a.per_source);
  cli::output_file json("--json", a.json);
  if (!a.write_config.empty()) write_config(a.write_config, settings, "netsim");
  csv.line(netsim_tool::settings().columns() + "," + interlock::model::csv_header() +
           (a.trace.on() ? trace_csv_header() : ""));
  trace_figures figures;  // --trace: the replay's
  if (!a.quiet) std::printf("%s\n", echo_line(settings).c_str());
  std::string runs;  // --json: one object per load
  int status = 0;
  // The points of a sweep run on --jobs threads, each its own network, and
  // print in the order of the list (cli::run_grid): the output equals --jobs 1's.
  const bool tty = a.progress && isatty(2) != 0;
  const auto run_point = [&](std::size_t k, bool alone) {
    interlock::model::config cfg = a.model;
    if (cfg.batch == 0) cfg.load = loads[k];
    interlock::model::network<Scheme, Policy, Allocator, InputPolicy> net(
        scheme, cfg, traffic.destination, make_policy, age, allocator, make_input);
    if (session) net.drive(session->replay());
    progress_bar bar;
    bar.on = tty && alone && !a.trace.on();  // (a trace's length is not known ahead)
    bar.label = cfg.batch > 0 ? "batch" : "load " + std::to_string(loads[k]).substr(0, 5);
    interlock::model::results r;
    try {
      r = net.run([&](double f) { bar(f); });
    } catch (const interlock::netrace::error& e) {  // (the trace is read as it runs)
      throw bad_input{std::string("--trace: ") + e.what()};
    }
    bar.done();
    if (session) {
      figures = session->figures();
      r.complete = r.complete && !figures.cut_off;  // packets never read were not delivered
    }
    r.capacity = traffic.capacity > 0 ? traffic.capacity : 1;
    return r;
  };
  const auto emit = [&](std::size_t k, const interlock::model::results& r) {
    const double load = loads[k];
    if (loads.size() > 1 && !a.quiet) std::printf("\n");
    if (!a.quiet && a.trace.on()) std::fputs(trace_text(figures, r).c_str(), stdout);
    // (a trace has no pattern, so no ideal throughput)
    if (!a.quiet)
      std::fputs(results_text(a, r, a.trace.on() ? 0.0 : traffic.capacity).c_str(), stdout);
    if (a.on_results) a.on_results(r);
    const std::string row = interlock::model::csv_row(r);
    if (a.on_config_values) a.on_config_values(config_values(as_run, load));
    csv.line(config_values(as_run, load) + "," + row +
             (a.trace.on() ? trace_csv_row(figures) : std::string()));
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
        // A source that delivered nothing has no latency, hops (but
        // all-to-one's, the topology's distance), share or completion:
        // empty cells, never 0.
        const bool delivered = r.accepted_per_source[i] > 0;
        const auto cell = [](bool measured, const char* pattern, double x) {
          return measured ? cli::format(pattern, x) : std::string();
        };
        sources.push_back(
            std::to_string(r.sources[i]) + "," +
            cell(delivered || a.traffic == "all_to_one", "%.3f", hops) + "," +
            cli::format("%.6f", r.accepted_per_source[i]) + "," +
            cell(total > 0, "%.6f", total > 0 ? r.accepted_per_source[i] / total : 0.0) + "," +
            cell(delivered, "%.3f", r.latency_per_source[i]) + "," +
            cell(delivered, "%.3f", r.latency_sd_per_source[i]) + "," +
            cell(delivered, "%.3f", r.network_latency_per_source[i]) + "," +
            (delivered && !r.completion_per_source.empty()
                 ? std::to_string(r.completion_per_source[i])
                 : std::string()));
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
              (a.trace.on()
                   ? ",\n      \"trace\": " +
                         cli::json::row(trace_csv_header() + 1, trace_csv_row(figures).substr(1))
                   : std::string()) +
              ",\n      \"per_source\": [" + list + "]}";
    }
    if (r.deadlock.deadlocked || (a.finite() && !r.complete)) status = 1;
  };
  cli::run_grid(loads.size(), a.jobs, run_point, emit, a.progress ? "sweep" : nullptr);
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

// The inverse-weighted arbiters at the outputs, and at the inputs with
// --input-arbiter inverse_weighted, each from its inputs' loads (Section 3.1).
template <class Scheme, class Policy, class MakeOutput, class MakeInput>
int with_inverse_inputs(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
                        const MakeOutput& outputs, const MakeInput& inputs) {
  namespace m = interlock::model;
  const std::function<Policy(node_id, std::size_t)> out = outputs;
  if (!inverse_weighted_name(a.input_arbiter))
    return with_allocator<Scheme, Policy>(a, scheme, traffic, outputs, {});
  const std::function<Policy(node_id, std::size_t)> in = inputs;
  if (a.allocator == "separable_output_first")
    return simulate<Scheme, Policy, m::separable_output_first, Policy>(a, scheme, traffic, out, {},
                                                                       {}, in);
  return simulate<Scheme, Policy, m::separable_input_first, Policy>(a, scheme, traffic, out, {}, {},
                                                                    in);
}

// The output arbiters (and the input arbiters with --input-arbiter the
// same) of one inverse-weighted model, each programmed from its inputs'
// loads by `tables` (inverse_weight_tables.hpp).
template <class Policy, class Scheme, class Tables>
int with_inverse_weights(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
                         Tables tables) {
  const interlock::torus_topology& t = scheme.topology();
  const auto out = interlock::arbitration_tables(tables, traffic.loads);
  const auto in = interlock::arbitration_tables(tables, traffic.input_loads);
  return with_inverse_inputs<Scheme, Policy>(
      a, scheme, traffic,
      [out, &t](node_id r, std::size_t o) {
        return Policy(out[interlock::router_arbiter(t, r, o)]);
      },
      [in, &t](node_id r, std::size_t q) {
        return Policy(in[interlock::router_arbiter(t, r, q)]);
      });
}

// Anton 2's unified network: arbiters of 8 inputs (ports at the outputs,
// VCs at the inputs), with 12-bit weights: an on-chip router's inputs carry
// loads up to 572 times apart (a core's injection against a torus link's).
template <class Policy, class Tables>
int with_inverse_weights(const arguments& a, const interlock::anton2_routing& scheme,
                         const traffic_setup& traffic, Tables tables) {
  using set = decltype(interlock::unified_arbitration_tables(tables, *traffic.unified));
  const auto w =
      std::make_shared<const set>(interlock::unified_arbitration_tables(tables, *traffic.unified));
  return with_inverse_inputs<interlock::anton2_routing, Policy>(
      a, scheme, traffic, [w](node_id r, std::size_t o) { return Policy(w->output(r, o)); },
      [w](node_id r, std::size_t q) { return Policy(w->input(r, q)); });
}

// --arbiter inverse_weighted (Figure 6/8's hardware model) or iw:FORM (the
// family), with weights of N labelled patterns: K inputs and M-bit weights,
// 64 and 8 on a torus of routers, 8 and 12 in Anton 2's node.
template <std::size_t N, class Scheme>
int with_inverse_weights(const arguments& a, const Scheme& scheme, const traffic_setup& traffic) {
  constexpr bool anton2 = std::is_same<Scheme, interlock::anton2_routing>::value;
  constexpr std::size_t K = anton2 ? 8 : 64;
  constexpr unsigned M = anton2 ? 12 : 8;
  if (a.arbiter != "inverse_weighted")
    return with_inverse_weights<interlock::inverse_weighted_family<K, N, M>>(
        a, scheme, traffic,
        interlock::inverse_weighted_family_tables<K, N, M>(
            interlock::parse_inverse_weighted_form(a.arbiter.substr(3)), a.weight_headroom));
  return with_inverse_weights<interlock::inverse_weighted_arbiter<K, N, M>>(
      a, scheme, traffic, interlock::inverse_weight_tables<K, N, M>(a.weight_headroom));
}

template <class Scheme>
int with_arbiter(const arguments& a, const Scheme& scheme) {
  const interlock::torus_topology& t = torus_of(scheme.topology());
  // [Towles14] programs one set of weights, from uniform traffic, for every
  // pattern it runs: --weights-from names the patterns whose loads set them.
  // Packets carry their pattern's label when the weights are per label.
  const std::size_t labels = !inverse_weighted_name(a.arbiter)
                                 ? 1
                                 : (a.weights_mix.empty() ? a.mix : a.weights_mix).size();
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
