// SPDX-License-Identifier: BSL-1.0
// blend: blended traffic patterns, Towles et al. (ISCA'14) Section 4.2 and Figure 10, on the
// network model.
//
//   blend [--full] [--radix K] [--batch B] [--steps N] [--settings S,...]
//         [--nodes anton2,router] [--buffer-flits N] [--seed N] [--csv FILE]
//
// Every core sends a batch of 1-flit packets, each to the tornado pattern's
// destination node with probability 1 - f and to the reverse tornado's with
// probability f, for f from 0 to 1 in --steps steps. Four settings of the
// arbiters (Figure 10's): none (round robin), forward (inverse weights from
// tornado's loads), reverse (from reverse tornado's), both (two weight sets,
// packets labelled with their pattern). Throughput as Section 4.1 measures
// it, normalized to the blend's torus channel capacity (anton2_experiment.hpp).
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
  std::size_t batch = 64;
  std::size_t steps = 10;
  std::vector<std::string> arbiters = {"none", "forward", "reverse", "both"};
  std::vector<std::string> nodes = {"anton2"};
  unsigned buffer_flits = 8;
  std::uint64_t seed = 1;
  std::string csv;
  std::string json;  // --json FILE
};

const char* help =
    "usage: blend [options]\n"
    "\n"
    "Blended patterns (Towles et al., ISCA'14, Section 4.2, Figure 10): each\n"
    "packet goes to the tornado pattern's node with probability 1 - f and to\n"
    "reverse tornado's with probability f, f from 0 to 1; throughput (Section\n"
    "4.1's, normalized to the blend's torus channel capacity) under four\n"
    "arbiter settings: none (round robin), forward (inverse weights from\n"
    "tornado's loads), reverse (from reverse tornado's), both (two weight sets,\n"
    "packets labelled by pattern).\n"
    "\n"
    "  --full               the paper's size: an 8x8x8 torus, 1024 packets per core\n"
    "  --radix K            a KxKxK torus, 4..16 (default 4)\n"
    "  --batch B            packets per core (default 64)\n"
    "  --steps N            f in N equal steps from 0 to 1, 1..100 (default 10)\n"
    "  --settings S,...     none, forward, reverse, both (default all four)\n"
    "  --nodes N,...        anton2 (16 routers per node, default), router (one)\n"
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
  bool full = false, radix_given = false, batch_given = false;
  cli::flags flags(argc, argv, [](const std::string& f) { return f == "--full"; });
  flags.for_each([&](const std::string& flag, const auto& value) {
    if (flag == "--full") {
      full = true;
    } else if (flag == "--radix") {
      s.radix = cli::number(flag, value(), 4, 16);
      radix_given = true;
    } else if (flag == "--batch") {
      s.batch = cli::number(flag, value(), 1, 1000000);
      batch_given = true;
    } else if (flag == "--steps") {
      s.steps = cli::number(flag, value(), 1, 100);
    } else if (flag == "--settings") {
      s.arbiters = names(flag, value(), {"none", "forward", "reverse", "both"});
    } else if (flag == "--nodes") {
      s.nodes = names(flag, value(), {"anton2", "router"});
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
    if (!batch_given) s.batch = 1024;
  }
  cli::table_output csv(s.csv, s.json, "blend", flags.settings());
  csv.line(
      "node,setting,reverse_share,radix,batch,last_arrival,normalized_throughput,"
      "completion_spread,seconds");
  std::printf(
      "Blended patterns (Towles et al., ISCA'14, Section 4.2, Figure 10)\n"
      "%zux%zux%zu torus, 2 slices, %zu 1-flit packets per core, %u-flit buffers per VC;\n"
      "f = share of packets to reverse tornado's node; throughput normalized to the\n"
      "blend's torus channel capacity. Inverse weights M = %u at every arbitration point.\n\n",
      s.radix, s.radix, s.radix, s.batch, s.buffer_flits, weight_bits);
  std::printf("%-7s %-8s %5s %10s %11s %9s\n", "node", "setting", "f", "last", "throughput",
              "spread");
  const interlock::torus_topology torus({s.radix, s.radix, s.radix}, {}, 2);
  const node_pattern forward = pattern_named("tornado", torus);
  const node_pattern reverse = pattern_named("reverse_tornado", torus);
  std::unique_ptr<anton2_shape> anton;
  std::unique_ptr<router_shape> router;
  int status = 0;
  for (const std::string& node : s.nodes) {
    if (node == "anton2" && !anton) anton = std::make_unique<anton2_shape>(s.radix);
    if (node == "router" && !router) router = std::make_unique<router_shape>(s.radix);
    for (const std::string& setting : s.arbiters)
      for (std::size_t i = 0; i <= s.steps; ++i) {
        const double f = static_cast<double>(i) / static_cast<double>(s.steps);
        const std::vector<double> shares = {1 - f, f};
        std::vector<std::string> weights;
        if (setting == "forward") weights = {"tornado"};
        if (setting == "reverse") weights = {"reverse_tornado"};
        if (setting == "both") weights = {"tornado", "reverse_tornado"};
        const auto traffic = blend({&forward, &reverse}, shares, setting == "both");
        const double load = busiest({&forward, &reverse}, shares);
        const outcome o = node == "anton2" ? anton->run(s.batch, s.buffer_flits, s.seed, traffic,
                                                        weights, anton->ideal(load))
                                           : router->run(s.batch, s.buffer_flits, s.seed, traffic,
                                                         weights, router->ideal(load));
        std::printf("%-7s %-8s %5.2f %10llu %11.3f %9.3f%s\n", node.c_str(), setting.c_str(), f,
                    static_cast<unsigned long long>(o.last), o.normalized, o.completion_spread,
                    o.ok ? "" : "  (did not finish)");
        std::fflush(stdout);
        if (!o.ok) status = 1;
        csv.line(cli::format("%s,%s,%.3f,%zu,%zu,%llu,%.5f,%.4f,%.2f", node.c_str(),
                             setting.c_str(), f, s.radix, s.batch,
                             static_cast<unsigned long long>(o.last), o.normalized,
                             o.completion_spread, o.seconds));
      }
  }
  csv.close();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("blend", help, "try a smaller --radix", argc, argv,
                       [&] { return run(argc, argv); });
}
