// SPDX-License-Identifier: BSL-1.0
// saturation: throughput beyond saturation, Towles et al. (ISCA'14) Section 4.1 and Figure 9,
// on the network model.
//
//   saturation [--full] [--radix K] [--batches B,...] [--patterns P,...]
//              [--nodes anton2,router] [--arbiters round_robin,inverse_weighted]
//              [--buffer-flits N] [--seed N] [--csv FILE]
//
// Every core sends a batch of 1-flit packets as fast as it can; throughput is
// Section 4.1's (anton2_experiment.hpp). Round robin against inverse-weighted
// arbiters programmed once from uniform traffic's loads at every arbitration
// point (output and input stages), on Anton 2's node and on one router per
// node (anton2_experiment.hpp).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "anton2_experiment.hpp"
#include "cli.hpp"

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
  std::string csv;
  std::string json;  // --json FILE
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
    "  --json FILE          the rows as JSON, with the version and the flags\n"
    "  --config FILE        key = value lines of the flags above\n"
    "\n"
    "Exit status: 0 done; 1 a run deadlocked or did not finish; 2 bad input;\n"
    "3 an output could not be written.\n";

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
      s.patterns = names(flag, value(), pattern_names());
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
    } else if (flag == "--json") {
      s.json = value();
    } else {
      throw cli::bad_input{flag + ": unknown option (see --help)"};
    }
  });
  if (full) {
    if (!radix_given) s.radix = 8;
    if (!batches_given) s.batches = {16, 64, 256, 1024};
  }
  cli::table_output csv(s.csv, s.json, "saturation", flags.settings());
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
  const interlock::torus_topology torus({s.radix, s.radix, s.radix}, {}, 2);
  std::unique_ptr<anton2_shape> anton;
  std::unique_ptr<router_shape> router;
  int status = 0;
  for (const std::string& node : s.nodes) {
    if (node == "anton2" && !anton) anton = std::make_unique<anton2_shape>(s.radix);
    if (node == "router" && !router) router = std::make_unique<router_shape>(s.radix);
    for (const std::string& pname : s.patterns) {
      const node_pattern p = pattern_named(pname, torus);
      const double busiest_load = busiest({&p}, {1.0});
      for (const std::string& arbiter : s.arbiters)
        for (const std::size_t batch : s.batches) {
          // Section 4.1: one set of weights, uniform traffic's, for every pattern.
          const std::vector<std::string> weights = arbiter == "inverse_weighted"
                                                       ? std::vector<std::string>{"uniform"}
                                                       : std::vector<std::string>{};
          const outcome o = node == "anton2"
                                ? anton->run(batch, s.buffer_flits, s.seed, p.destination, weights,
                                             anton->ideal(busiest_load))
                                : router->run(batch, s.buffer_flits, s.seed, p.destination, weights,
                                              router->ideal(busiest_load));
          std::printf("%-7s %-10s %-17s %7zu %10llu %11.3f %9.3f%s\n", node.c_str(), pname.c_str(),
                      arbiter.c_str(), batch, static_cast<unsigned long long>(o.last), o.normalized,
                      o.completion_spread, o.ok ? "" : "  (did not finish)");
          std::fflush(stdout);
          if (!o.ok) status = 1;
          csv.line(cli::format("%s,%s,%s,%zu,%zu,%llu,%.5f,%.4f,%.2f", node.c_str(), pname.c_str(),
                               arbiter.c_str(), s.radix, batch,
                               static_cast<unsigned long long>(o.last), o.normalized,
                               o.completion_spread, o.seconds));
        }
    }
  }
  csv.close();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("saturation", help, "try a smaller --radix", argc, argv,
                       [&] { return run(argc, argv); });
}
