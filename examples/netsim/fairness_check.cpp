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

const char* const help_text =
    "usage: fairness_check [netsim's network, scheme, router and node flags]\n"
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
    "\n"
    "  --min-jain J           the throughput verdict's threshold, 0..1 (default 0.9)\n"
    "  --max-latency-ratio R  the latency verdict's threshold, 1..1000 (default 2)\n"
    "  --destination N        all-to-one's node (default the last)\n"
    "  --load L               uniform traffic's offered load per source, 0..1\n"
    "                         (default 1: past saturation)\n"
    "  netsim's flags         --radix, --wrap, --slices, --node, --scheme, --orders,\n"
    "                         --arbiter and its options, --input-arbiter,\n"
    "                         --allocator, --vcs, buffers, --packet-flits,\n"
    "                         --cycles, --warmup, --seed, --preset, --config ...\n"
    "                         (netsim --help); not --traffic, --batch, --sweep,\n"
    "                         --per-source or --drain: the check sets the traffic\n"
    "                         and measures the window undrained\n"
    "  --write-config FILE    the network's settings and the check's, to rerun\n"
    "                         with --config FILE\n"
    "  --csv FILE             one row per test: test,sources,\n"
    "                         accepted,jain,max_min,latency_max_min,\n"
    "                         network_latency_max_min,deadlocked,fair,\n"
    "                         latency_fair (the verdicts: fair, unfair or\n"
    "                         inconclusive; figures empty when nothing was\n"
    "                         measured), min_jain, max_latency_ratio, then\n"
    "                         the network's settings as the test ran them\n"
    "  --json FILE            the flags, both tests' figures and the verdict\n"
    "\n"
    "Exit status: 0 fair by both verdicts; 1 unfair by either (or a run\n"
    "deadlocked); 2 bad input; 3 failure; 4 inconclusive: a test delivered\n"
    "nothing in its window, so no verdict rests on a figure.\n";

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
         "deadlocked,fair,latency_fair,min_jain,max_latency_ratio," +
         netsim_tool::settings().columns();
}

// One CSV row of a test; the fairness cells are empty when nothing arrived.
std::string csv_row(const char* test, const interlock::model::fairness_options& o,
                    const interlock::model::fairness_figures& f, const char* fair,
                    const char* latency_fair, const std::string& network) {
  const bool measured = f.accepted > 0;
  const auto cell = [&](const char* pattern, double x) {
    return measured ? cli::format(pattern, x) : std::string();
  };
  return cli::format("%s,%zu,%.4f,", test, f.sources, f.accepted) + cell("%.4f", f.jain) + "," +
         (f.max_min == f.max_min ? cell("%.3f", f.max_min) : std::string()) + "," +
         cell("%.3f", f.latency_max_min) + "," + cell("%.3f", f.network_latency_max_min) + "," +
         (f.deadlocked ? "1" : "0") + "," + fair + "," + latency_fair + "," +
         cli::real_text(o.min_jain) + "," + cli::real_text(o.max_network_latency_ratio) + "," +
         network;
}

int run(int argc, char** argv) {
  // fairness_check's own flags; the rest are netsim's.
  interlock::model::fairness_options options;
  std::string destination_text, csv_path, json_path;
  arguments a = parse(argc, argv, [&](const std::string& flag, const auto& value) {
    if (flag == "--min-jain") {
      options.min_jain = cli::real(flag, value(), 0, 1);
    } else if (flag == "--max-latency-ratio") {
      options.max_network_latency_ratio = cli::real(flag, value(), 1, 1000);
    } else if (flag == "--load") {
      options.load = cli::real(flag, value(), 0.001, 1);
    } else if (flag == "--destination") {
      destination_text = value();
    } else if (flag == "--csv") {
      csv_path = value();
    } else if (flag == "--json") {
      json_path = value();
    } else if (flag == "--traffic" || flag == "--batch" || flag == "--sweep" ||
               flag == "--per-source") {
      throw bad_input{flag + ": fairness_check sets the traffic and runs itself"};
    } else if (flag == "--drain") {
      throw bad_input{flag + ": fairness_check measures the window past saturation, undrained"};
    } else {
      return false;
    }
    return true;
  });
  std::size_t nodes = 1;
  for (const std::size_t k : a.radix) nodes *= k;
  options.destination = static_cast<interlock::node_id>(
      destination_text.empty() ? nodes - 1
                               : cli::number("--destination", destination_text, 0, nodes - 1));
  cli::output_file csv("--csv", csv_path);
  cli::output_file json("--json", json_path);
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
    written.emplace_back("min-jain", cli::real_text(options.min_jain));
    written.emplace_back("max-latency-ratio", cli::real_text(options.max_network_latency_ratio));
    written.emplace_back("load", cli::real_text(options.load));
    written.emplace_back("destination", std::to_string(options.destination));
    write_config(config_file, written, "fairness_check");
  }
  print(("all-to-one to node " + std::to_string(options.destination)).c_str(), report.all_to_one);
  print(("uniform at " + cli::format("%g", options.load) + " per source").c_str(), report.uniform);
  const bool fair = report.fair(), latency_fair = report.latency_fair();
  // A verdict over a test that delivered nothing is inconclusive.
  const bool measured = report.measured();
  const char* const verdict = !measured ? "inconclusive" : fair ? "fair" : "unfair";
  const char* const latency_verdict = !measured ? "inconclusive" : latency_fair ? "fair" : "unfair";
  const std::string rows[2] = {
      csv_row("all_to_one", options, report.all_to_one, verdict, latency_verdict,
              network_columns[0]),
      csv_row("uniform", options, report.uniform, verdict, latency_verdict, network_columns[1])};
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
  return cli::run_tool("fairness_check", help_text, "a smaller network, or fewer --cycles", argc,
                       argv, [&] {
                         try {
                           return run(argc, argv);
                         } catch (const interlock::config_error& e) {
                           throw bad_input{flag_of_field(e.field()) + " = " + e.value() +
                                           "; allowed: " + e.allowed()};
                         }
                       });
}
