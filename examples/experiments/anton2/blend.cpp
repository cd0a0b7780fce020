// SPDX-License-Identifier: BSL-1.0
// blend: blended traffic patterns, Towles et al. (ISCA'14) Section 4.2 and Figure 10, on the
// network model.
//
//   blend [--full] [--radix K] [--batch B] [--steps N] [--settings S,...]
//         [--arbiter A] [--nodes anton2,router] [--buffer-flits N]
//         [--adapter-buffer-flits N] [--injection-buffer-flits N] [--torus-latency N]
//         [--seed N] [--csv FILE]
//
// Every core sends a batch of 1-flit packets, each to the tornado pattern's
// destination node with probability 1 - f and to the reverse tornado's with
// probability f, for f from 0 to 1 in --steps steps. Four settings of the
// arbiters (Figure 10's): none (round robin), forward (inverse weights from
// tornado's loads), reverse (from reverse tornado's), both (two weight sets,
// packets labelled with their pattern). Throughput as Section 4.1 measures
// it, normalized to the blend's torus channel capacity (anton2_experiment.hpp).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "anton2_experiment.hpp"
#include "cli.hpp"
#include "experiment.hpp"

namespace {

using namespace anton2_experiment;

struct settings {
  std::size_t radix = 4;
  std::size_t batch = 64;
  std::size_t steps = 10;
  std::vector<std::string> arbiters = {"none", "forward", "reverse", "both"};
  std::vector<std::string> nodes = {"anton2"};
  run_settings run;  // buffers, seed and the weighted settings' arbiter model
  unsigned torus_latency = 0;
};

const std::string help =
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
    "  --arbiter A          the weighted settings' arbiters: inverse_weighted\n"
    "                       (default: Figure 6/8's hardware model, every weight bit\n"
    "                       used), inverse_weighted:H (H bits of the 12 left as\n"
    "                       headroom, 1..11), inverse_weighted_exact (Eq. 3)\n"
    "  --nodes N,...        anton2 (16 routers per node, default), router (one)\n"
    "  --buffer-flits N     input buffer per VC at the mesh routers' ports (router:\n"
    "                       the network ports), 1..4096 (default 8)\n"
    "  --adapter-buffer-flits N  anton2: per VC at the channel adapters' inputs,\n"
    "                       from their router and from the torus link, 1..4096\n"
    "                       (default --buffer-flits)\n"
    "  --injection-buffer-flits N  per VC at the cores' injection ports, 1..4096\n"
    "                       (default --buffer-flits)\n"
    "  --torus-latency N    cycles a torus link takes beyond an on-chip channel,\n"
    "                       0..1000 (default 0); its credits take it back too\n"
    "  --pipeline N         router stages a head passes: 1 (default) or 4 (route\n"
    "                       computation, VC allocation, input and output switch\n"
    "                       arbitration, each a cycle: Figure 12's RC, VA, SA1, SA2)\n"
    "  --seed N             the runs' seed (default 1)\n" +
    cli::experiment_flags::help() +
    "\n"
    "Exit status: 0 done; 1 a run deadlocked or did not finish; 2 bad input;\n"
    "3 an output could not be written.\n";

struct cell {
  std::string node, setting;
  double f;
};

int run(int argc, char** argv) {
  settings s;
  cli::experiment_flags shared;
  cli::flags flags = shared.read(argc, argv, [&](const std::string& flag, const auto& value) {
    if (flag == "--radix") {
      s.radix = cli::number(flag, value(), 4, 16);
    } else if (flag == "--batch") {
      s.batch = cli::number(flag, value(), 1, 1000000);
    } else if (flag == "--steps") {
      s.steps = cli::number(flag, value(), 1, 100);
    } else if (flag == "--settings") {
      s.arbiters = names(flag, value(), {"none", "forward", "reverse", "both"});
    } else if (flag == "--nodes") {
      s.nodes = names(flag, value(), {"anton2", "router"});
    } else if (flag == "--arbiter") {
      s.run.arbiter = parse_arbiter(flag, value());
      if (!s.run.arbiter.weighted())
        throw cli::bad_input{flag +
                             ": 'round_robin'; the setting 'none' runs round robin; "
                             "allowed: inverse_weighted, inverse_weighted:H, "
                             "inverse_weighted_exact"};
    } else if (flag == "--buffer-flits") {
      s.run.buffer_flits = static_cast<unsigned>(cli::number(flag, value(), 1, 4096));
    } else if (flag == "--adapter-buffer-flits") {
      s.run.adapter_buffer_flits = static_cast<unsigned>(cli::number(flag, value(), 1, 4096));
    } else if (flag == "--injection-buffer-flits") {
      s.run.injection_buffer_flits = static_cast<unsigned>(cli::number(flag, value(), 1, 4096));
    } else if (flag == "--torus-latency") {
      s.torus_latency = static_cast<unsigned>(cli::number(flag, value(), 0, 1000));
    } else if (flag == "--pipeline") {
      const std::string v = value();
      if (v != "1" && v != "4")
        throw cli::bad_input{flag + ": '" + v.substr(0, 80) + "'; allowed: 1, 4"};
      s.run.pipeline = v == "1" ? 1 : 4;
    } else if (flag == "--seed") {
      s.run.seed = cli::number(flag, value(), 0, 1000000000);
    } else {
      throw cli::bad_input{flag + ": unknown option (see --help)"};
    }
  });
  if (flags.given("--adapter-buffer-flits") &&
      std::find(s.nodes.begin(), s.nodes.end(), "anton2") == s.nodes.end())
    throw cli::bad_input{
        "--adapter-buffer-flits: applies only to --nodes anton2 (the router "
        "shape has no channel adapters)"};
  if (shared.full) {
    if (!flags.given("--radix")) s.radix = 8;
    if (!flags.given("--batch")) s.batch = 1024;
  }
  if (!flags.given("--arbiter")) s.run.arbiter = parse_arbiter("--arbiter", "inverse_weighted");
  const unsigned adapter =
      s.run.adapter_buffer_flits != 0 ? s.run.adapter_buffer_flits : s.run.buffer_flits;
  const unsigned injection =
      s.run.injection_buffer_flits != 0 ? s.run.injection_buffer_flits : s.run.buffer_flits;
  shared.resolve(flags, {{"radix", std::to_string(s.radix)},
                         {"batch", std::to_string(s.batch)},
                         {"steps", std::to_string(s.steps)},
                         {"settings", cli::joined(s.arbiters)},
                         {"arbiter", s.run.arbiter.name()},
                         {"nodes", cli::joined(s.nodes)},
                         {"buffer-flits", std::to_string(s.run.buffer_flits)},
                         {"adapter-buffer-flits", std::to_string(adapter)},
                         {"injection-buffer-flits", std::to_string(injection)},
                         {"torus-latency", std::to_string(s.torus_latency)},
                         {"pipeline", std::to_string(s.run.pipeline)},
                         {"seed", std::to_string(s.run.seed)}});
  // Built once, before the runs, and shared by them (read only).
  const interlock::torus_topology torus({s.radix, s.radix, s.radix}, {}, 2);
  const node_pattern forward = pattern_named("tornado", torus);
  const node_pattern reverse = pattern_named("reverse_tornado", torus);
  const shapes both(s.nodes, s.radix, s.torus_latency);
  std::vector<cell> cells;
  double work = 0;
  for (const std::string& node : s.nodes)
    for (const std::string& setting : s.arbiters)
      for (std::size_t i = 0; i <= s.steps; ++i) {
        const double f = static_cast<double>(i) / static_cast<double>(s.steps);
        cells.push_back({node, setting, f});
        work += both.work(node, s.batch, busiest({&forward, &reverse}, {1 - f, f}));
      }
  shared.check_work(work, "lower --radix, --batch or --steps");
  cli::table_output csv = shared.output("blend");
  csv.line(
      "node,setting,reverse_share,radix,batch,last_arrival,normalized_throughput,"
      "completion_spread,seconds");
  std::printf(
      "Blended patterns (Towles et al., ISCA'14, Section 4.2, Figure 10)\n"
      "%zux%zux%zu torus, 2 slices, %zu 1-flit packets per core; buffers per VC: %u flits\n"
      "at the mesh routers, %u at the channel adapters, %u at the cores; torus links %u\n"
      "cycles longer than on-chip channels; a %u-stage router pipeline. f = share of\n"
      "packets to reverse tornado's node; throughput normalized to the blend's torus\n"
      "channel capacity. Inverse weights (%s, M = %u) at every arbitration point.\n\n",
      s.radix, s.radix, s.radix, s.batch, s.run.buffer_flits, adapter, injection, s.torus_latency,
      s.run.pipeline, s.run.arbiter.name().c_str(), weight_bits);
  std::printf("%-7s %-8s %5s %10s %11s %9s\n", "node", "setting", "f", "last", "throughput",
              "spread");
  std::fflush(stdout);
  int status = 0;
  shared.grid(
      cells.size(),
      [&](std::size_t k, bool) {
        const cell& c = cells[k];
        const std::vector<double> shares = {1 - c.f, c.f};
        std::vector<std::string> weights;
        if (c.setting == "forward") weights = {"tornado"};
        if (c.setting == "reverse") weights = {"reverse_tornado"};
        if (c.setting == "both") weights = {"tornado", "reverse_tornado"};
        const auto traffic = blend({&forward, &reverse}, shares, c.setting == "both");
        run_settings r = s.run;
        r.batch = s.batch;
        return both.run(c.node, r, traffic, weights, busiest({&forward, &reverse}, shares));
      },
      [&](std::size_t k, const outcome& o) {
        const cell& c = cells[k];
        std::printf("%-7s %-8s %5.2f %10llu %11.3f %9.3f%s\n", c.node.c_str(), c.setting.c_str(),
                    c.f, static_cast<unsigned long long>(o.last), o.normalized, o.completion_spread,
                    o.ok ? "" : "  (did not finish)");
        std::fflush(stdout);
        if (!o.ok) status = 1;
        csv.line(cli::format("%s,%s,%.3f,%zu,%zu,%llu,%.5f,%.4f,%.2f", c.node.c_str(),
                             c.setting.c_str(), c.f, s.radix, s.batch,
                             static_cast<unsigned long long>(o.last), o.normalized,
                             o.completion_spread, o.seconds));
      });
  csv.close();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("blend", help.c_str(), "try a smaller --radix", argc, argv,
                       [&] { return run(argc, argv); });
}
