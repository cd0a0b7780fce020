// SPDX-License-Identifier: BSL-1.0
// blend: blended traffic patterns, Towles et al. (ISCA'14) Section 4.2 and Figure 10, on the
// network model.
//
//   blend [--full] [--radix K] [--batch B] [--steps N | --shares F,...] [--settings S,...]
//         [--arbiter A] [--nodes anton2,router] [--buffer-flits N]
//         [--adapter-buffer-flits N] [--injection-buffer-flits N] [--torus-latency N]
//         [--seed N] [--csv FILE]
//
// Every core sends a batch of 1-flit packets, each to the tornado pattern's
// destination node with probability 1 - f and to the reverse tornado's with
// probability f, for f from 0 to 1 in --steps steps (or the blends --shares
// lists). Four settings of the
// arbiters (Figure 10's): none (round robin), forward (inverse weights from
// tornado's loads), reverse (from reverse tornado's), both (two weight sets,
// packets labelled with their pattern). Throughput as Section 4.1 measures
// it, normalized to the blend's torus channel capacity (anton2_experiment.hpp).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "anton2_experiment.hpp"
#include "anton2_flags.hpp"
#include "cli.hpp"
#include "experiment.hpp"

namespace {

using namespace anton2_experiment;

struct settings {
  std::size_t radix = 4;
  std::size_t batch = 64;
  std::size_t steps = 10;
  std::vector<double> shares;  // --shares: the blends run, when given
  std::vector<std::string> arbiters = {"none", "forward", "reverse", "both"};
  std::vector<std::string> nodes = {"anton2"};
  network_flags net;  // buffers, torus latency, pipeline, seed, the weighted settings' arbiters
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
    "  --shares F,...       the blends f to run instead, each in 0..1, in the order\n"
    "                       given (a study's runs one at a time)\n"
    "  --settings S,...     none, forward, reverse, both (default all four)\n"
    "  --arbiter A          the weighted settings' arbiters: inverse_weighted\n"
    "                       (default: Figure 6/8's hardware model, every weight bit\n"
    "                       used), inverse_weighted:H (H bits of the 12 left as\n"
    "                       headroom, 1..11), inverse_weighted_exact (Eq. 3),\n"
    "                       iw:ORDERING.QUANTIZATION.HISTORY (the family: levels|full,\n"
    "                       mbit|real, window|unbounded|lagL)\n"
    "  --nodes N,...        anton2 (16 routers per node, default), router (one)\n" +
    network_flags::help() + cli::experiment_flags::help() +
    "\n"
    "Exit status: 0 done; 1 a run deadlocked or did not finish; 2 bad input;\n"
    "3 an output could not be written.\n";

// The blends as --shares reads them back (each exactly).
std::string shares_text(const std::vector<double>& shares) {
  std::string text;
  for (const double f : shares) text += (text.empty() ? "" : ",") + cli::real_text(f);
  return text;
}

struct cell {
  std::string node, setting;
  double f;
};

int run(int argc, char** argv) {
  settings s;
  cli::experiment_flags shared;
  cli::flags flags = shared.read(
      argc, argv,
      [&](const std::string& flag, const auto& value) {
        if (flag == "--radix") {
          s.radix = cli::number(flag, value(), 4, 16);
        } else if (flag == "--batch") {
          s.batch = cli::number(flag, value(), 1, 1000000);
        } else if (flag == "--steps") {
          s.steps = cli::number(flag, value(), 1, 100);
        } else if (flag == "--shares") {
          for (const std::string& f : cli::split(value())) {
            const double share = cli::real(flag, f, 0, 1);
            if (std::find(s.shares.begin(), s.shares.end(), share) != s.shares.end())
              throw cli::bad_input{flag + ": '" + f + "' given twice"};
            s.shares.push_back(share);
          }
        } else if (flag == "--settings") {
          s.arbiters = names(flag, value(), {"none", "forward", "reverse", "both"});
        } else if (flag == "--nodes") {
          s.nodes = names(flag, value(), {"anton2", "router"});
        } else if (flag == "--arbiter") {
          s.net.run.arbiter = parse_arbiter(flag, value());
          if (!s.net.run.arbiter.weighted())
            throw cli::bad_input{flag +
                                 ": 'round_robin'; the setting 'none' runs round robin; "
                                 "allowed: inverse_weighted, inverse_weighted:H, "
                                 "inverse_weighted_exact, iw:ORDERING.QUANTIZATION.HISTORY"};
        } else if (s.net.read(flag, value)) {
        } else {
          throw cli::bad_input{flag + ": unknown option (see --help)"};
        }
      },
      nullptr, &network_flags::is_switch);
  s.net.check(flags, s.nodes);
  if (flags.given("--steps") && flags.given("--shares"))
    throw cli::bad_input{"--shares: given with --steps; give one of them"};
  if (s.shares.empty())
    for (std::size_t i = 0; i <= s.steps; ++i)
      s.shares.push_back(static_cast<double>(i) / static_cast<double>(s.steps));
  if (shared.full) {
    if (!flags.given("--radix")) s.radix = 8;
    if (!flags.given("--batch")) s.batch = 1024;
  }
  if (!flags.given("--arbiter")) s.net.run.arbiter = parse_arbiter("--arbiter", "inverse_weighted");
  std::vector<std::pair<std::string, std::string>> resolved = {
      {"radix", std::to_string(s.radix)},    {"batch", std::to_string(s.batch)},
      {"shares", shares_text(s.shares)},     {"settings", cli::joined(s.arbiters)},
      {"arbiter", s.net.run.arbiter.name()}, {"nodes", cli::joined(s.nodes)}};
  for (const auto& x : s.net.resolved(s.nodes)) resolved.push_back(x);
  shared.resolve(flags, resolved);
  // Built once, before the runs, and shared by them (read only).
  const interlock::torus_topology torus({s.radix, s.radix, s.radix}, {}, 2);
  const node_pattern forward = pattern_named("tornado", torus);
  const node_pattern reverse = pattern_named("reverse_tornado", torus);
  const shapes both(s.nodes, s.radix, s.net.torus_latency);
  std::vector<cell> cells;
  double work = 0;
  for (const std::string& node : s.nodes)
    for (const std::string& setting : s.arbiters)
      for (const double f : s.shares) {
        cells.push_back({node, setting, f});
        work += both.work(node, s.batch, busiest({&forward, &reverse}, {1 - f, f}));
      }
  shared.check_work(work, "lower --radix, --batch, --steps or the --shares");
  cli::table_output csv = shared.output("blend");
  csv.line(
      "node,setting,reverse_share,radix,batch,last_arrival,normalized_throughput,"
      "completion_spread,seconds,finished");
  std::printf(
      "Blended patterns (Towles et al., ISCA'14, Section 4.2, Figure 10)\n"
      "%zux%zux%zu torus, 2 slices, %zu 1-flit packets per core; %s"
      "f = share of packets to reverse tornado's node; throughput normalized to the\n"
      "blend's torus channel capacity. Inverse weights (%s, M = %u) at every\n"
      "arbitration point.\n\n",
      s.radix, s.radix, s.radix, s.batch, s.net.described().c_str(),
      s.net.run.arbiter.name().c_str(), weight_bits);
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
        run_settings r = s.net.run;
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
        csv.line(cli::format("%s,%s,%.3f,%zu,%zu,%llu,%.5f,%.4f,%.2f,%d", c.node.c_str(),
                             c.setting.c_str(), c.f, s.radix, s.batch,
                             static_cast<unsigned long long>(o.last), o.normalized,
                             o.completion_spread, o.seconds, o.ok ? 1 : 0));
      });
  csv.close();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("blend", help.c_str(), "try a smaller --radix", argc, argv,
                       [&] { return run(argc, argv); });
}
