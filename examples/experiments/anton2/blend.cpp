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
#include <map>
#include <string>
#include <vector>

#include "anton2_experiment.hpp"
#include "anton2_flags.hpp"
#include "cli.hpp"
#include "experiment.hpp"

namespace {

using namespace anton2_experiment;

struct settings {
  settings() { net.run.arbiter = parse_arbiter("", "inverse_weighted"); }
  std::size_t radix = 4;
  std::size_t batch = 64;
  std::size_t steps = 10;
  std::vector<double> shares;  // --shares: the blends run, when given
  std::vector<std::string> arbiters = {"none", "forward", "reverse", "both"};
  std::vector<std::string> nodes = {"anton2"};
  network_flags net;  // buffers, torus latency, pipeline, seed, the weighted settings' arbiters
  cli::experiment_flags shared;  // --full, --csv, --json, --jobs, --max-work
};

// The blends as --shares reads them back (each exactly).
std::string shares_text(const std::vector<double>& shares) {
  std::string text;
  for (const double f : shares) text += (text.empty() ? "" : ",") + cli::real_text(f);
  return text;
}

bool weighted(const settings& s) {
  return std::find_if(s.arbiters.begin(), s.arbiters.end(),
                      [](const std::string& a) { return a != "none"; }) != s.arbiters.end();
}

/// blend's settings, each declared once: the parser, --help, the
/// configuration as run and the CSV's configuration columns.
const cli::setting_table<settings>& table() {
  using s_t = settings;
  static const cli::setting_table<settings> t([] {
    std::vector<cli::setting<s_t>> list{
        cli::whole<s_t>(
            "--radix", "K", [](auto& s) -> auto& { return s.radix; }, 4, 16,
            "a KxKxK torus, 4..16")
            .axis(),  // its column is the fourth, where it has always been
        cli::whole<s_t>(
            "--batch", "B", [](auto& s) -> auto& { return s.batch; }, 1, 1000000,
            "packets per core")
            .axis(),  // the fifth
        // Written back as the --shares it makes.
        cli::whole<s_t>(
            "--steps", "N", [](auto& s) -> auto& { return s.steps; }, 1, 100,
            "f in N equal steps from 0 to 1, 1..100")
            .local(),
        cli::custom<s_t>(
            "--shares", "F,...",
            "the blends f to run instead, each in 0..1, in the order given (a study's runs "
            "one at a time)",
            [](s_t& s, const std::string& v) {
              for (const std::string& f : cli::split(v)) {
                const double share = cli::real("--shares", f, 0, 1);
                if (std::find(s.shares.begin(), s.shares.end(), share) != s.shares.end())
                  throw cli::bad_input{"--shares: '" + f + "' given twice"};
                s.shares.push_back(share);
              }
            },
            [](const s_t& s) { return shares_text(s.shares); })
            .axis()
            .defaults("-"),
        cli::custom<s_t>(
            "--settings", "S,...", "none, forward, reverse, both",
            [](s_t& s, const std::string& v) {
              s.arbiters = names("--settings", v, {"none", "forward", "reverse", "both"});
            },
            [](const s_t& s) { return cli::joined(s.arbiters); })
            .axis(),
        cli::custom<s_t>(
            "--arbiter", "A",
            "the weighted settings' arbiters: inverse_weighted (Figure 6/8's hardware model, "
            "every weight bit used), inverse_weighted:H (H bits of the 12 left as headroom, "
            "1..11), inverse_weighted_exact (Eq. 3), iw:ORDERING.QUANTIZATION.HISTORY (the "
            "family: levels|full, mbit|real, window|unbounded|lagL)",
            [](s_t& s, const std::string& v) {
              s.net.run.arbiter = parse_arbiter("--arbiter", v);
              if (!s.net.run.arbiter.weighted())
                throw cli::bad_input{
                    "--arbiter: 'round_robin'; the setting 'none' runs round "
                    "robin; allowed: inverse_weighted, inverse_weighted:H, "
                    "inverse_weighted_exact, iw:ORDERING.QUANTIZATION.HISTORY"};
            },
            [](const s_t& s) { return s.net.run.arbiter.name(); })
            .when(weighted, "--settings forward, reverse or both (none runs round robin)"),
        cli::custom<s_t>(
            "--nodes", "N,...", "anton2 (16 routers per node), router (one)",
            [](s_t& s, const std::string& v) {
              s.nodes = names("--nodes", v, {"anton2", "router"});
            },
            [](const s_t& s) { return cli::joined(s.nodes); })
            .axis(),
    };
    cli::append(list, network_settings<s_t>());
    cli::append(list, cli::experiment_flags::settings<s_t>(
                          "the paper's size: an 8x8x8 torus, 1024 packets per core (flags "
                          "given keep their value)"));
    return list;
  }());
  return t;
}

std::string help_text() {
  return "usage: blend [options]\n"
         "\n"
         "Blended patterns (Towles et al., ISCA'14, Section 4.2, Figure 10): each\n"
         "packet goes to the tornado pattern's node with probability 1 - f and to\n"
         "reverse tornado's with probability f, f from 0 to 1; throughput (Section\n"
         "4.1's, normalized to the blend's torus channel capacity) under four\n"
         "arbiter settings: none (round robin), forward (inverse weights from\n"
         "tornado's loads), reverse (from reverse tornado's), both (two weight sets,\n"
         "packets labelled by pattern).\n"
         "\n" +
         table().help() +
         "\n"
         "Exit status: 0 done; 1 a run deadlocked or did not finish; 2 bad input;\n"
         "3 an output could not be written.\n";
}

struct cell {
  std::string node, setting;
  double f;
};

int run(int argc, char** argv) {
  settings s;
  const cli::flags flags = table().parse(argc, argv, s);
  s.net.check(flags);
  if (flags.given("--steps") && flags.given("--shares"))
    throw cli::setting_table<settings>::refusal(flags, "--shares",
                                                "--shares: given with --steps; give one of them");
  if (s.shares.empty())
    for (std::size_t i = 0; i <= s.steps; ++i)
      s.shares.push_back(static_cast<double>(i) / static_cast<double>(s.steps));
  if (s.shared.full) {
    if (!flags.given("--radix")) s.radix = 8;
    if (!flags.given("--batch")) s.batch = 1024;
  }
  cli::experiment_flags& shared = s.shared;
  shared.resolve(flags, table().resolved(s));
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
  // The cell's columns and the measures first, then every other setting:
  // per node shape and arbiter setting, as what applies differs.
  csv.line(
      "node,setting,reverse_share,radix,batch,last_arrival,normalized_throughput,"
      "completion_spread,seconds,finished," +
      table().columns());
  std::map<std::string, std::string> configuration;
  for (const std::string& node : s.nodes)
    for (const std::string& setting : s.arbiters) {
      settings one = s;
      one.nodes = {node};
      one.arbiters = {setting};
      configuration[node + "," + setting] = table().values(one);
    }
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
        csv.line(cli::format("%s,%s,%.3f,%zu,%zu,%llu,%.5f,%.4f,%.2f,%d,%s", c.node.c_str(),
                             c.setting.c_str(), c.f, s.radix, s.batch,
                             static_cast<unsigned long long>(o.last), o.normalized,
                             o.completion_spread, o.seconds, o.ok ? 1 : 0,
                             configuration.at(c.node + "," + c.setting).c_str()));
      });
  csv.close();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("blend", help.c_str(), "try a smaller --radix", argc, argv,
                       [&] { return run(argc, argv); });
}
