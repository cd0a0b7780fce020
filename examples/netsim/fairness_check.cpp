// SPDX-License-Identifier: BSL-1.0
// fairness_check: the fairness of a network, scheme and arbiter a user chooses, tested the way
// the papers test it: all-to-one and uniform traffic at saturation (interlock/model/fairness.hpp).
//
//   fairness_check --radix 8,8 --wrap 0,0 --scheme dor --arbiter age
//
// Takes netsim's network, scheme, router and node flags; sets the traffic
// itself. Exit status: 0 fair (Jain's index of the sources' throughput at
// least --min-jain under both), 1 unfair or deadlocked, 2 bad input, 3 a
// failure, 4 inconclusive (a test delivered nothing in its window).
#include <interlock/model/fairness.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.hpp"
#include "netsim_args.hpp"
#include "netsim_run.hpp"

namespace {

using namespace netsim_tool;

// fairness_check's own settings, beside netsim's table: the thresholds are
// result columns; the destination and the uniform load are each test's and
// so written in netsim's columns of the row (axes here).
struct own_settings {
  interlock::model::fairness_options options;
  std::string destination;  // checked against the network's size once it is known
  std::string csv, json;
};

const cli::setting_table<own_settings>& own_table() {
  using o_t = own_settings;
  static const cli::setting_table<o_t> table({
      cli::decimal<o_t>(
          "--min-jain", "J", [](auto& o) -> auto& { return o.options.min_jain; }, 0, 1,
          "the throughput verdict's threshold"),
      cli::decimal<o_t>(
          "--max-latency-ratio", "R",
          [](auto& o) -> auto& { return o.options.max_network_latency_ratio; }, 1, 1000,
          "the latency verdict's threshold"),
      cli::custom<o_t>(
          "--destination", "N", "all-to-one's node",
          [](o_t& o, const std::string& v) { o.destination = v; },
          [](const o_t& o) { return std::to_string(o.options.destination); })
          .axis()
          .defaults("the last"),
      cli::decimal<o_t>(
          "--load", "L", [](auto& o) -> auto& { return o.options.load; }, 0.001, 1,
          "uniform traffic's offered load per source (1: past saturation)")
          .axis(),
      cli::output<o_t>(
          "--csv", [](auto& o) -> auto& { return o.csv; },
          "one row per test: test, sources, accepted, jain, max_min, latency_max_min, "
          "network_latency_max_min, deadlocked, fair, latency_fair (the verdicts: fair, unfair "
          "or inconclusive; figures empty when nothing was measured), min_jain, "
          "max_latency_ratio, then the network's settings as the test ran them"),
      cli::output<o_t>(
          "--json", [](auto& o) -> auto& { return o.json; },
          "the flags, both tests' figures and the verdict"),
  });
  return table;
}

std::string help_text() {
  return "usage: fairness_check [netsim's network, scheme, router and node flags]\n"
         "                      [--min-jain J] [--destination N] [--load L]\n"
         "\n"
         "Runs the network model twice, as the papers test fairness: every source\n"
         "sending to one node as fast as it can (all-to-one: the parking lot at\n"
         "network scale), and uniform random traffic past saturation; reports over\n"
         "the sources Jain's index and max/min of the throughput, and max/min of the\n"
         "mean latency and network latency (age arbitration's claim is equal network\n"
         "latency). Two verdicts: throughput, fair when both Jain indexes reach\n"
         "--min-jain; latency, fair when max/min of the sources' mean network latency\n"
         "is at most --max-latency-ratio in both. Inverse-weighted arbiters are\n"
         "programmed as the paper programs them, one set from uniform traffic's loads\n"
         "for both tests (--weights-from to choose others).\n"
         "\n" +
         own_table().help() +
         "  netsim's flags         --radix, --wrap, --slices, --node, --scheme, --orders,\n"
         "                         --arbiter and its options, --input-arbiter,\n"
         "                         --allocator, --vcs, buffers, --packet-flits,\n"
         "                         --cycles, --warmup, --seed, --preset, --config ...\n"
         "                         (netsim --help); not --traffic, --trace..., --batch,\n"
         "                         --sweep, --per-source, --jobs or --drain: the check\n"
         "                         sets the traffic, runs its two tests in turn and\n"
         "                         measures the window undrained\n"
         "\n"
         "Exit status: 0 fair by both verdicts; 1 unfair by either (or a run\n"
         "deadlocked); 2 bad input; 3 failure; 4 inconclusive: a test delivered\n"
         "nothing in its window, so no verdict rests on a figure.\n";
}

void print(const char* what, const interlock::model::fairness_figures& f) {
  std::printf("%s: %zu sources, %.4f flits per source per cycle%s\n", what, f.sources, f.accepted,
              f.deadlocked ? "; DEADLOCKED" : "");
  if (f.accepted > 0) {
    std::printf("  throughput: Jain %.3f, max/min %s\n", f.jain,
                f.max_min == f.max_min ? cli::format("%.2f", f.max_min).c_str()
                                       : "none (a source accepted nothing)");
    std::printf("  latency: max/min of the sources' mean %.2f (network latency %.2f)\n",
                f.latency_max_min, f.network_latency_max_min);
  } else {
    std::printf("  throughput: none (no flit delivered)\n  latency: none\n");
  }
}

// The measures and verdicts, the thresholds, then the network's settings
// as the test ran them (netsim's columns: its traffic, load and destination).
std::string csv_header() {
  return "test,sources,accepted,jain,max_min,latency_max_min,network_latency_max_min,"
         "deadlocked,fair,latency_fair," +
         own_table().columns() + "," + netsim_tool::settings().columns();
}

// One CSV row of a test; the fairness cells are empty when nothing arrived.
std::string csv_row(const char* test, const std::string& own,
                    const interlock::model::fairness_figures& f, const char* fair,
                    const char* latency_fair, const std::string& network) {
  const bool measured = f.accepted > 0;
  const auto cell = [&](const char* pattern, double x) {
    return measured ? cli::format(pattern, x) : std::string();
  };
  return cli::format("%s,%zu,%.4f,", test, f.sources, f.accepted) + cell("%.4f", f.jain) + "," +
         (f.max_min == f.max_min ? cell("%.3f", f.max_min) : std::string()) + "," +
         cell("%.3f", f.latency_max_min) + "," + cell("%.3f", f.network_latency_max_min) + "," +
         (f.deadlocked ? "1" : "0") + "," + fair + "," + latency_fair + "," + own + "," + network;
}

int run(int argc, char** argv) {
  // fairness_check's own flags; the rest are netsim's.
  own_settings own;
  arguments a = parse(argc, argv, [&](const std::string& flag, const auto& value) {
    if (flag == "--traffic" || flag == "--batch" || flag == "--sweep" || flag == "--per-source" ||
        flag.rfind("--trace", 0) == 0)
      throw bad_input{flag + ": fairness_check sets the traffic and runs itself"};
    if (flag == "--jobs")
      throw bad_input{flag +
                      ": fairness_check runs its two tests in turn, with nothing to share out"};
    if (flag == "--drain")
      throw bad_input{flag + ": fairness_check measures the window past saturation, undrained"};
    return own_table().read(own, flag, value);
  });
  interlock::model::fairness_options& options = own.options;
  const std::string& destination_text = own.destination;
  std::size_t nodes = 1;
  for (const std::size_t k : a.radix) nodes *= k;
  options.destination = static_cast<interlock::node_id>(
      destination_text.empty() ? nodes - 1
                               : cli::number("--destination", destination_text, 0, nodes - 1));
  cli::output_file csv("--csv", own.csv);
  cli::output_file json("--json", own.json);
  // --write-config: the network's settings as the first test ran them (not
  // the tests' traffic, which fairness_check sets), then its own.
  cli::output_file config_file("--write-config", a.write_config);
  std::vector<setting> written;
  a.write_config.clear();  // (the tests' runs write none)
  // [Towles14] programs one set of weights, from uniform traffic's loads,
  // for every pattern it runs: a test's own pattern would be fair by
  // construction.
  const bool weighted = inverse_weighted_name(a.arbiter);
  const bool default_weights = weighted && a.weights_mix.empty();
  if (default_weights) {
    a.weights_from = "uniform_random";
    a.weights_mix = parse_mix("--weights-from", a.weights_from);
  }
  a.quiet = true;
  a.progress = false;
  a.model.drain = 0;  // past saturation: what the window delivered
  std::printf("fairness of: radix");
  for (std::size_t i = 0; i < a.radix.size(); ++i)
    std::printf("%s%zu%s", i ? "x" : " ", a.radix[i], a.wrap[i] ? "" : "(mesh)");
  std::printf(", %zu slice%s, node %s, scheme %s, arbiter %s, input arbiter %s, allocator %s\n",
              a.slices, a.slices > 1 ? "s" : "", a.node.c_str(), a.scheme.c_str(),
              a.arbiter.c_str(), a.input_arbiter.c_str(), a.allocator.c_str());
  if (weighted)
    std::printf("inverse weights: from %s's loads, one set for both tests%s\n",
                a.weights_from.c_str(),
                default_weights ? " (as the paper programs them)" : " (--weights-from)");
  int status = 0;
  std::string network_columns[2];  // each test's, as it ran
  const interlock::model::fairness_report report = interlock::model::check_fairness(
      [&](const interlock::model::fairness_scenario& s) {
        arguments run_args = a;
        run_args.model.load = s.load;
        run_args.destination = s.destination;
        run_args.traffic = s.traffic == interlock::model::fairness_traffic::all_to_one
                               ? "all_to_one"
                               : "uniform_random";
        run_args.mix = {{run_args.traffic, 1}};
        interlock::model::results out;
        run_args.on_results = [&out](const interlock::model::results& r) { out = r; };
        run_args.on_config_values = [&](const std::string& v) {
          network_columns[s.traffic == interlock::model::fairness_traffic::all_to_one ? 0 : 1] = v;
        };
        run_args.on_resolved = [&](const std::vector<setting>& settings) {
          if (!written.empty()) return;
          for (const setting& x : settings)
            if (x.first != "traffic" && x.first != "load" && x.first != "drain" &&
                x.first != "destination" && (x.first != "weights-from" || !default_weights))
              written.push_back(x);
        };
        status = std::max(status, run_network(run_args));
        return out;
      },
      options);
  if (config_file.open()) {
    for (const setting& x : own_table().resolved(own)) written.push_back(x);
    write_config(config_file, written, "fairness_check");
  }
  print(("all-to-one to node " + std::to_string(options.destination)).c_str(), report.all_to_one);
  print(("uniform at " + cli::format("%g", options.load) + " per source").c_str(), report.uniform);
  const bool fair = report.fair(), latency_fair = report.latency_fair();
  // A verdict over a test that delivered nothing is inconclusive.
  const bool measured = report.measured();
  const char* const verdict = !measured ? "inconclusive" : fair ? "fair" : "unfair";
  const char* const latency_verdict = !measured ? "inconclusive" : latency_fair ? "fair" : "unfair";
  const std::string own_columns = own_table().values(own);
  const std::string rows[2] = {csv_row("all_to_one", own_columns, report.all_to_one, verdict,
                                       latency_verdict, network_columns[0]),
                               csv_row("uniform", own_columns, report.uniform, verdict,
                                       latency_verdict, network_columns[1])};
  const std::string header = csv_header();
  csv.line(header);
  for (const std::string& row : rows) csv.line(row);
  csv.close();
  if (json.open()) {
    std::string network;
    for (const cli::token& t : a.config) network += (network.empty() ? "" : " ") + t.text;
    json.line(
        "{" + cli::json::header("fairness_check") + ",\n  \"configuration\": " +
        cli::json::object({{"flags", network},
                           {"min-jain", cli::real_text(options.min_jain)},
                           {"max-latency-ratio", cli::real_text(options.max_network_latency_ratio)},
                           {"weights-from", weighted ? a.weights_from : std::string()},
                           {"load", cli::real_text(options.load)},
                           {"destination", std::to_string(options.destination)}}) +
        ",\n  \"tests\": [\n    " + cli::json::row(header, rows[0]) + ",\n    " +
        cli::json::row(header, rows[1]) + "\n  ],\n  \"verdict\": " + cli::json::string(verdict) +
        ",\n  \"latency_verdict\": " + cli::json::string(latency_verdict) + "\n}");
    json.close();
  }
  if (!measured) {
    std::printf(
        "verdict: inconclusive (a test delivered nothing in its window: raise --cycles)\n"
        "latency verdict: inconclusive\n");
    return 4;
  }
  if (fair)
    std::printf("verdict: fair (Jain >= %g under both)\n", options.min_jain);
  else
    std::printf("verdict: unfair (Jain below %g%s)\n", options.min_jain,
                status != 0 ? ", or a run deadlocked" : "");
  if (latency_fair)
    std::printf("latency verdict: fair (network latency max/min <= %g under both)\n",
                options.max_network_latency_ratio);
  else
    std::printf("latency verdict: unfair (network latency max/min above %g%s)\n",
                options.max_network_latency_ratio,
                status != 0 ? ", or a run deadlocked or delivered nothing" : "");
  return fair && latency_fair ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("fairness_check", help.c_str(), "a smaller network, or fewer --cycles", argc,
                       argv, [&] {
                         try {
                           return run(argc, argv);
                         } catch (const interlock::config_error& e) {
                           throw bad_input{flag_of_field(e.field()) + " = " + e.value() +
                                           "; allowed: " + e.allowed()};
                         }
                       });
}
