// SPDX-License-Identifier: BSL-1.0
// fairness_check: the fairness of a network, scheme and arbiter a user chooses, tested the way
// the papers test it: all-to-one and uniform traffic at saturation (interlock/model/fairness.hpp).
//
//   fairness_check --radix 8,8 --wrap 0,0 --scheme dor --arbiter age
//
// Takes netsim's network, scheme, router and node flags; sets the traffic
// itself. Exit status: 0 fair (Jain's index of the sources' throughput at
// least --min-jain under both), 1 unfair or deadlocked, 2 bad input.
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
    "latency). The network is fair when both Jain indexes reach --min-jain.\n"
    "\n"
    "  --min-jain J           the verdict's threshold, 0..1 (default 0.9)\n"
    "  --destination N        all-to-one's node (default the last)\n"
    "  --load L               uniform traffic's offered load per source, 0..1\n"
    "                         (default 1: past saturation)\n"
    "  netsim's flags         --radix, --wrap, --slices, --node, --scheme, --orders,\n"
    "                         --arbiter and its options, --input-arbiter,\n"
    "                         --allocator, --vcs, buffers, --packet-flits,\n"
    "                         --cycles, --warmup, --seed, --preset, --config ...\n"
    "                         (netsim --help); not --traffic, --batch, --sweep,\n"
    "                         --csv or --per-source: the check sets the traffic\n"
    "\n"
    "Exit status: 0 fair; 1 unfair (or a run deadlocked); 2 bad input; 3 failure.\n";

void print(const char* what, const interlock::model::fairness_figures& f) {
  std::printf("%s: %zu sources, %.4f flits per source per cycle%s\n", what, f.sources, f.accepted,
              f.deadlocked ? "; DEADLOCKED" : "");
  std::printf("  throughput: Jain %.3f, max/min %.2f\n", f.jain, f.max_min);
  std::printf("  latency: max/min of the sources' mean %.2f (network latency %.2f)\n",
              f.latency_max_min, f.network_latency_max_min);
}

int run(int argc, char** argv) {
  // fairness_check's own flags; the rest are netsim's.
  interlock::model::fairness_options options;
  std::vector<char*> rest = {argv[0]};
  bool destination_given = false;
  std::string destination_text;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const bool own = flag == "--min-jain" || flag == "--load" || flag == "--destination";
    if (!own) {
      rest.push_back(argv[i]);
      continue;
    }
    if (i + 1 >= argc) throw bad_input{flag + ": needs a value"};
    const std::string value = argv[++i];
    if (flag == "--min-jain") options.min_jain = cli::real(flag, value, 0, 1);
    if (flag == "--load") options.load = cli::real(flag, value, 0.001, 1);
    if (flag == "--destination") {
      destination_given = true;
      destination_text = value;
    }
  }
  arguments a = parse(static_cast<int>(rest.size()), rest.data());
  for (const auto& token : a.config)
    for (const char* f : {"--traffic", "--batch", "--sweep", "--csv", "--per-source", "--load"})
      if (token.text == f)
        throw bad_input{std::string(f) + ": fairness_check sets the traffic and runs itself"};
  std::size_t nodes = 1;
  for (const std::size_t k : a.radix) nodes *= k;
  options.destination = static_cast<interlock::node_id>(
      destination_given ? cli::number("--destination", destination_text, 0, nodes - 1) : nodes - 1);
  a.quiet = true;
  a.progress = false;
  a.model.drain = 0;  // past saturation: what the window delivered
  std::printf("fairness of: radix");
  for (std::size_t i = 0; i < a.radix.size(); ++i)
    std::printf("%s%zu%s", i ? "x" : " ", a.radix[i], a.wrap[i] ? "" : "(mesh)");
  std::printf(", %zu slice%s, node %s, scheme %s, arbiter %s, input arbiter %s, allocator %s\n",
              a.slices, a.slices > 1 ? "s" : "", a.node.c_str(), a.scheme.c_str(),
              a.arbiter.c_str(), a.input_arbiter.c_str(), a.allocator.c_str());
  int status = 0;
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
        status = std::max(status, run_network(run_args));
        return out;
      },
      options);
  print(("all-to-one to node " + std::to_string(options.destination)).c_str(), report.all_to_one);
  print(("uniform at " + cli::format("%g", options.load) + " per source").c_str(), report.uniform);
  if (report.fair()) {
    std::printf("verdict: fair (Jain >= %g under both)\n", options.min_jain);
    return 0;
  }
  std::printf("verdict: unfair (Jain below %g%s)\n", options.min_jain,
              status != 0 ? ", or a run deadlocked" : "");
  return 1;
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
