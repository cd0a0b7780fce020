// SPDX-License-Identifier: BSL-1.0
// netsim's points and their report: each load of a run (a sweep's, or one)
// through a point runner that builds and runs the network, and the text,
// --csv, --per-source and --json written from the results. Compiled once per
// routing scheme type; only the point runner depends on the policies
// (netsim_run.hpp).
#ifndef INTERLOCK_EXAMPLES_NETSIM_POINTS_HPP
#define INTERLOCK_EXAMPLES_NETSIM_POINTS_HPP

#include <unistd.h>
#include <interlock/model/results.hpp>
#include <interlock/traffic/netrace.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
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

// One point of a run: a network of `cfg` built, driven by the trace's replay
// when there is one, and run (reporting its progress).
using point_runner = std::function<interlock::model::results(
    const interlock::model::config& cfg, trace_session* session,
    const std::function<void(double)>& progress)>;

// The points of a run (the loads of a sweep, or one) through `run_one`, and
// their report: text, --csv, --per-source, --json. Compiled once per scheme
// type; only `run_one` depends on the policies.
template <class Scheme>
int run_points(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
               const interlock::model::age_config& age, const point_runner& run_one) {
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
    progress_bar bar;
    bar.on = tty && alone && !a.trace.on();  // (a trace's length is not known ahead)
    bar.label = cfg.batch > 0 ? "batch" : "load " + std::to_string(loads[k]).substr(0, 5);
    interlock::model::results r;
    try {
      r = run_one(cfg, session.get(), [&](double f) { bar(f); });
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

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_POINTS_HPP
