// SPDX-License-Identifier: BSL-1.0
// saturation: throughput beyond saturation, Towles et al. (ISCA'14) Section 4.1 and Figure 9,
// on the network model.
//
//   saturation [--full] [--radix K] [--batches B,...] [--patterns P,...]
//              [--nodes anton2,router] [--arbiters round_robin,inverse_weighted]
//              [--buffer-flits N] [--seed N] [--csv FILE] [--json FILE] [--jobs N]
//
// Every core sends a batch of 1-flit packets as fast as it can; throughput is
// Section 4.1's (anton2_experiment.hpp). Round robin against inverse-weighted
// arbiters programmed once from uniform traffic's loads at every arbitration
// point (output and input stages), on Anton 2's node and on one router per
// node (anton2_experiment.hpp).
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "anton2_experiment.hpp"
#include "cli.hpp"
#include "experiment.hpp"

namespace {

using namespace anton2_experiment;

struct settings {
  std::size_t radix = 4;
  std::vector<std::size_t> batches = {8, 32, 128};
  std::vector<std::string> patterns = {"uniform", "neighbor2", "neighbor1"};
  std::vector<std::string> nodes = {"anton2", "router"};
  std::vector<std::string> arbiters = {"round_robin", "inverse_weighted"};
  unsigned buffer_flits = 8;
  std::uint64_t seed = 1;
};

const std::string help =
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
    "  --seed N             the runs' seed (default 1)\n" +
    cli::experiment_flags::help() +
    "\n"
    "Exit status: 0 done; 1 a run deadlocked or did not finish; 2 bad input;\n"
    "3 an output could not be written.\n";

struct cell {
  std::string node, pattern, arbiter;
  std::size_t batch;
};

int run(int argc, char** argv) {
  settings s;
  cli::experiment_flags shared;
  cli::flags flags = shared.read(argc, argv, [&](const std::string& flag, const auto& value) {
    if (flag == "--radix") {
      s.radix = cli::number(flag, value(), 2, 16);
    } else if (flag == "--batches") {
      s.batches = numbers(flag, value(), 1, 1000000);
    } else if (flag == "--patterns") {
      s.patterns = names(flag, value(), pattern_names());
    } else if (flag == "--nodes") {
      s.nodes = names(flag, value(), {"anton2", "router"});
    } else if (flag == "--arbiters") {
      s.arbiters = names(flag, value(), {"round_robin", "inverse_weighted"});
    } else if (flag == "--buffer-flits") {
      s.buffer_flits = static_cast<unsigned>(cli::number(flag, value(), 1, 64));
    } else if (flag == "--seed") {
      s.seed = cli::number(flag, value(), 0, 1000000000);
    } else {
      throw cli::bad_input{flag + ": unknown option (see --help)"};
    }
  });
  if (shared.full) {
    if (!flags.given("--radix")) s.radix = 8;
    if (!flags.given("--batches")) s.batches = {16, 64, 256, 1024};
  }
  shared.resolve(flags, {{"radix", std::to_string(s.radix)},
                         {"batches", cli::joined(s.batches)},
                         {"patterns", cli::joined(s.patterns)},
                         {"nodes", cli::joined(s.nodes)},
                         {"arbiters", cli::joined(s.arbiters)},
                         {"buffer-flits", std::to_string(s.buffer_flits)},
                         {"seed", std::to_string(s.seed)}});
  // Built once, before the runs, and shared by them (read only).
  const interlock::torus_topology torus({s.radix, s.radix, s.radix}, {}, 2);
  const shapes both(s.nodes, s.radix);
  std::map<std::string, node_pattern> patterns;
  for (const std::string& p : s.patterns) patterns.emplace(p, pattern_named(p, torus));
  std::vector<cell> cells;
  double work = 0;
  for (const std::string& node : s.nodes)
    for (const std::string& pattern : s.patterns)
      for (const std::string& arbiter : s.arbiters)
        for (const std::size_t batch : s.batches) {
          cells.push_back({node, pattern, arbiter, batch});
          work += both.work(node, batch, busiest({&patterns.at(pattern)}, {1.0}));
        }
  shared.check_work(work, "lower --radix or --batches");
  cli::table_output csv = shared.output("saturation");
  csv.line(
      "node,pattern,arbiter,radix,batch,last_arrival,normalized_throughput,"
      "completion_spread,seconds");
  std::printf(
      "Throughput beyond saturation (Towles et al., ISCA'14, Section 4.1, Figure 9)\n"
      "%zux%zux%zu torus, 2 slices, 1-flit packets, %u-flit buffers per VC; batch = packets\n"
      "per core (16 per node); throughput normalized to the torus channels' capacity.\n"
      "Inverse weights (M = %u) from uniform traffic's loads at every arbitration point.\n"
      "Columns: batch, packets per core; last, the cycle of the last delivery;\n"
      "throughput, the batch over that cycle as a share of the torus's capacity\n"
      "(1 = every torus channel busy every cycle); spread, the latest core's\n"
      "completion over the earliest's (1 = all finish together).\n\n",
      s.radix, s.radix, s.radix, s.buffer_flits, weight_bits);
  std::printf("%-7s %-10s %-17s %7s %10s %11s %9s\n", "node", "pattern", "arbiter", "batch", "last",
              "throughput", "spread");
  std::fflush(stdout);
  int status = 0;
  shared.grid(
      cells.size(),
      [&](std::size_t k, bool) {
        const cell& c = cells[k];
        const node_pattern& p = patterns.at(c.pattern);
        // Section 4.1: one set of weights, uniform traffic's, for every pattern.
        const std::vector<std::string> weights = c.arbiter == "inverse_weighted"
                                                     ? std::vector<std::string>{"uniform"}
                                                     : std::vector<std::string>{};
        return both.run(c.node, c.batch, s.buffer_flits, s.seed, p.destination, weights,
                        busiest({&p}, {1.0}));
      },
      [&](std::size_t k, const outcome& o) {
        const cell& c = cells[k];
        std::printf("%-7s %-10s %-17s %7zu %10llu %11.3f %9.3f%s\n", c.node.c_str(),
                    c.pattern.c_str(), c.arbiter.c_str(), c.batch,
                    static_cast<unsigned long long>(o.last), o.normalized, o.completion_spread,
                    o.ok ? "" : "  (did not finish)");
        std::fflush(stdout);
        if (!o.ok) status = 1;
        csv.line(cli::format("%s,%s,%s,%zu,%zu,%llu,%.5f,%.4f,%.2f", c.node.c_str(),
                             c.pattern.c_str(), c.arbiter.c_str(), s.radix, c.batch,
                             static_cast<unsigned long long>(o.last), o.normalized,
                             o.completion_spread, o.seconds));
      });
  csv.close();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("saturation", help.c_str(), "try a smaller --radix", argc, argv,
                       [&] { return run(argc, argv); });
}
