// SPDX-License-Identifier: BSL-1.0
// saturation: throughput beyond saturation, Towles et al. (ISCA'14) Section 4.1 and Figure 9,
// on the network model.
//
//   saturation [--full] [--radix K] [--batches B,...] [--patterns P,...]
//              [--nodes anton2,router] [--arbiters round_robin,inverse_weighted,...]
//              [--buffer-flits N] [--adapter-buffer-flits N] [--injection-buffer-flits N]
//              [--torus-latency N] [--seed N] [--csv FILE] [--json FILE] [--jobs N]
//
// Every core sends a batch of 1-flit packets as fast as it can; throughput is
// Section 4.1's (anton2_experiment.hpp). Round robin against inverse-weighted
// arbiters programmed once from uniform traffic's loads at every arbitration
// point (output and input stages), on Anton 2's node and on one router per
// node (anton2_experiment.hpp).
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
  std::size_t radix = 4;
  std::vector<std::size_t> batches = {8, 32, 128};
  std::vector<std::string> patterns = {"uniform", "neighbor2", "neighbor1"};
  std::vector<std::string> nodes = {"anton2", "router"};
  std::vector<arbiter_model> arbiters = {parse_arbiter("", "round_robin"),
                                         parse_arbiter("", "inverse_weighted")};
  network_flags net;  // buffers, torus latency, pipeline, seed (batch and arbiter per cell)
  // --timeline, --positions, --counts, --counts-timeline: the files
  std::string timeline, positions, counts, counts_timeline;
  std::uint64_t timeline_bin = 100;
  cli::experiment_flags shared;  // --full, --csv, --json, --jobs, --max-work
};

/// --arbiters' list: each an arbiter parse_arbiter() reads, none twice.
std::vector<arbiter_model> arbiters(const std::string& flag, const std::string& text) {
  std::vector<arbiter_model> v;
  std::vector<std::string> seen;
  for (const std::string& a : cli::split(text)) {
    v.push_back(parse_arbiter(flag, a));
    if (std::find(seen.begin(), seen.end(), v.back().name()) != seen.end())
      throw cli::bad_input{flag + ": '" + a.substr(0, 80) + "' given twice"};
    seen.push_back(v.back().name());
  }
  return v;
}
std::string arbiter_names(const std::vector<arbiter_model>& arbiters) {
  std::vector<std::string> names;
  for (const arbiter_model& a : arbiters) names.push_back(a.name());
  return cli::joined(names);
}

/// saturation's settings, each declared once: the parser, --help, the
/// configuration as run and the CSV's configuration columns.
const cli::setting_table<settings>& table() {
  using s_t = settings;
  static const cli::setting_table<settings> t([] {
    std::vector<cli::setting<s_t>> list{
        cli::whole<s_t>(
            "--radix", "K", [](auto& s) -> auto& { return s.radix; }, 2, 16,
            "a KxKxK torus, 2..16")
            .axis(),  // its column is the fourth, where it has always been
        cli::custom<s_t>(
            "--batches", "B,...", "packets per core, each 1..1000000",
            [](s_t& s, const std::string& v) { s.batches = numbers("--batches", v, 1, 1000000); },
            [](const s_t& s) { return cli::joined(s.batches); })
            .axis(),
        cli::custom<s_t>(
            "--patterns", "P,...", "uniform, neighbor1, neighbor2, tornado, reverse_tornado",
            [](s_t& s, const std::string& v) {
              s.patterns = names("--patterns", v, pattern_names());
            },
            [](const s_t& s) { return cli::joined(s.patterns); })
            .axis(),
        cli::custom<s_t>(
            "--nodes", "N,...", "anton2 (16 routers per node), router (one)",
            [](s_t& s, const std::string& v) {
              s.nodes = names("--nodes", v, {"anton2", "router"});
            },
            [](const s_t& s) { return cli::joined(s.nodes); })
            .axis(),
        cli::custom<s_t>(
            "--arbiters", "A,...",
            "round_robin, inverse_weighted (Figure 6/8's hardware model, every weight bit "
            "used), inverse_weighted:H (H bits of the 12 left as headroom, 1..11), "
            "inverse_weighted_exact (Eq. 3), iw:ORDERING.QUANTIZATION.HISTORY (the family of "
            "inverse_weighted_family.hpp: levels|full, mbit|real, window|unbounded|lagL; "
            "iw:levels.mbit.window decides as inverse_weighted, iw:full.real.unbounded as "
            "inverse_weighted_exact)",
            [](s_t& s, const std::string& v) { s.arbiters = arbiters("--arbiters", v); },
            [](const s_t& s) { return arbiter_names(s.arbiters); })
            .axis(),
    };
    cli::append(list, network_settings<s_t>());
    cli::append(
        list,
        {
            cli::output<s_t>(
                "--positions", [](auto& s) -> auto& { return s.positions; },
                "per run, each mesh router position R(u,v)'s cores' completion (mean, earliest, "
                "latest over the nodes), CSV")
                .when([](const s_t& s) { return has_anton2(s.nodes); },
                      "--nodes anton2 (positions in its node)"),
            cli::output<s_t>(
                "--timeline", [](auto& s) -> auto& { return s.timeline; },
                "per run, the torus links' use in bins of --timeline-bin cycles from cycle 0, CSV"),
            cli::whole<s_t>(
                "--timeline-bin", "N", [](auto& s) -> auto& { return s.timeline_bin; }, 1, 1000000,
                "the bins of --timeline, 1..1000000 cycles")
                .control()
                .under()
                .when([](const s_t& s) { return !s.timeline.empty(); }, "--timeline FILE"),
            cli::output<s_t>(
                "--counts", [](auto& s) -> auto& { return s.counts; },
                "per run of an iw: arbiter, what its arbiters counted over the batch, both stages: "
                "grants, slides, inputs zeroed and quota lost (quanta) per grant, the requesters' "
                "spread (quanta, mean and greatest), CSV; none where nothing was counted"),
            cli::output<s_t>(
                "--counts-timeline", [](auto& s) -> auto& { return s.counts_timeline; },
                "per run of an iw: arbiter, the same per 4,096 cycles from cycle 0: grants, "
                "inputs zeroed and quota lost per grant, the requesters' mean spread in the bin, "
                "and the greatest spread up to the bin's end, CSV"),
        });
    cli::append(list, cli::experiment_flags::settings<s_t>(
                          "the paper's size: an 8x8x8 torus, batches 16,64,256,1024 (flags "
                          "given keep their value)"));
    return list;
  }());
  return t;
}

std::string help_text() {
  return "usage: saturation [options]\n"
         "\n"
         "Throughput beyond saturation (Towles et al., ISCA'14, Section 4.1, Figure 9):\n"
         "every core sends a batch of 1-flit packets as fast as it can; throughput is\n"
         "the batch over the cycle of the last arrival, normalized to full use of the\n"
         "torus channels. Round robin against inverse-weighted arbiters programmed\n"
         "once from uniform traffic's loads, on Anton 2's node (16 mesh routers) and\n"
         "on one router per node.\n"
         "\n" +
         table().help() +
         "\n"
         "Exit status: 0 done; 1 a run deadlocked or did not finish; 2 bad input;\n"
         "3 an output could not be written.\n";
}

struct cell {
  std::string node, pattern;
  arbiter_model arbiter;
  std::size_t batch;
};

int run(int argc, char** argv) {
  settings s;
  const cli::flags flags = table().parse(argc, argv, s);
  s.net.check(flags);
  if (!s.timeline.empty()) s.net.run.timeline_bin = s.timeline_bin;
  s.net.run.family_over_time = !s.counts_timeline.empty();
  if (s.shared.full) {
    if (!flags.given("--radix")) s.radix = 8;
    if (!flags.given("--batches")) s.batches = {16, 64, 256, 1024};
  }
  cli::experiment_flags& shared = s.shared;
  shared.resolve(flags, table().resolved(s));
  // Built once, before the runs, and shared by them (read only).
  const interlock::torus_topology torus({s.radix, s.radix, s.radix}, {}, 2);
  const shapes both(s.nodes, s.radix, s.net.torus_latency);
  std::map<std::string, node_pattern> patterns;
  for (const std::string& p : s.patterns) patterns.emplace(p, pattern_named(p, torus));
  std::vector<cell> cells;
  double work = 0;
  for (const std::string& node : s.nodes)
    for (const std::string& pattern : s.patterns)
      for (const arbiter_model& arbiter : s.arbiters)
        for (const std::size_t batch : s.batches) {
          cells.push_back({node, pattern, arbiter, batch});
          work += both.work(node, batch, busiest({&patterns.at(pattern)}, {1.0}));
        }
  shared.check_work(work, "lower --radix or --batches");
  cli::table_output csv = shared.output("saturation");
  cli::output_file positions("--positions", s.positions), timeline("--timeline", s.timeline),
      counts("--counts", s.counts), counts_timeline("--counts-timeline", s.counts_timeline);
  counts.line(
      "node,pattern,arbiter,batch,grants,slides,zeroed_per_grant,quota_lost_per_grant,"
      "spread_mean,spread_max");
  counts_timeline.line(
      "node,pattern,arbiter,batch,bin_start,bin_cycles,grants,zeroed_per_grant,"
      "quota_lost_per_grant,spread_mean,spread_max_to_date");
  positions.line(
      "node,pattern,arbiter,batch,position,u,v,completion_mean,completion_first,"
      "completion_last,last_arrival");
  timeline.line("node,pattern,arbiter,batch,bin_start,bin_cycles,torus_utilization");
  // The cell's columns and the measures first, then every other setting.
  csv.line(
      "node,pattern,arbiter,radix,batch,last_arrival,normalized_throughput,"
      "completion_spread,forfeits_per_grant,request_share,request_share_p10,seconds,finished," +
      table().columns());
  // Per node shape: the adapters' buffers apply to anton2's rows only.
  std::map<std::string, std::string> configuration;
  for (const std::string& node : s.nodes) {
    settings one = s;
    one.nodes = {node};
    configuration[node] = table().values(one);
  }
  std::printf(
      "Throughput beyond saturation (Towles et al., ISCA'14, Section 4.1, Figure 9)\n"
      "%zux%zux%zu torus, 2 slices, 1-flit packets; %s"
      "Batch = packets per core (16 per node); throughput normalized to the torus\n"
      "channels' capacity. Inverse weights (M = %u) from uniform traffic's loads at\n"
      "every arbitration point.\n"
      "Columns: batch, packets per core; last, the cycle of the last delivery;\n"
      "throughput, the batch over that cycle as a share of the torus's capacity\n"
      "(1 = every torus channel busy every cycle); spread, the latest core's\n"
      "completion over the earliest's (1 = all finish together); forfeits, the\n"
      "hardware model's inputs zeroed by a window slide while owed service, per\n"
      "grant, over every arbiter of both stages (window_slides.hpp). --csv adds the\n"
      "share of an output arbiter's cycles each input port requests it (mean and\n"
      "10th percentile over the pairs that requested) and whether the run finished\n"
      "(0: it deadlocked or ran out of cycles).\n\n",
      s.radix, s.radix, s.radix, s.net.described().c_str(), weight_bits);
  std::printf("%-7s %-10s %-22s %7s %10s %11s %9s %9s\n", "node", "pattern", "arbiter", "batch",
              "last", "throughput", "spread", "forfeits");
  std::fflush(stdout);
  int status = 0;
  shared.grid(
      cells.size(),
      [&](std::size_t k, bool) {
        const cell& c = cells[k];
        const node_pattern& p = patterns.at(c.pattern);
        // Section 4.1: one set of weights, uniform traffic's, for every pattern.
        const std::vector<std::string> weights =
            c.arbiter.weighted() ? std::vector<std::string>{"uniform"} : std::vector<std::string>{};
        run_settings r = s.net.run;
        r.batch = c.batch;
        r.arbiter = c.arbiter;
        r.count_requests = true;  // the request_share columns
        return both.run(c.node, r, p.destination, weights, busiest({&p}, {1.0}));
      },
      [&](std::size_t k, const outcome& o) {
        const cell& c = cells[k];
        const std::string arbiter = c.arbiter.name();
        std::printf("%-7s %-10s %-22s %7zu %10llu %11.3f %9.3f %9.4f%s\n", c.node.c_str(),
                    c.pattern.c_str(), arbiter.c_str(), c.batch,
                    static_cast<unsigned long long>(o.last), o.normalized, o.completion_spread,
                    o.slides.forfeits_per_grant(), o.ok ? "" : "  (did not finish)");
        std::fflush(stdout);
        if (!o.ok) status = 1;
        csv.line(cli::format("%s,%s,%s,%zu,%zu,%llu,%.5f,%.4f,%.5f,%.4f,%.4f,%.2f,%d,%s",
                             c.node.c_str(), c.pattern.c_str(), arbiter.c_str(), s.radix, c.batch,
                             static_cast<unsigned long long>(o.last), o.normalized,
                             o.completion_spread, o.slides.forfeits_per_grant(), o.request_share,
                             o.request_share_p10, o.seconds, o.ok ? 1 : 0,
                             configuration.at(c.node).c_str()));
        const std::string key =
            c.node + "," + c.pattern + "," + arbiter + "," + std::to_string(c.batch);
        for (std::size_t p = 0; p < o.positions.size(); ++p)
          positions.line(cli::format("%s,%zu,%zu,%zu,%.1f,%llu,%llu,%llu", key.c_str(), p,
                                     interlock::anton2_topology::u_of(p),
                                     interlock::anton2_topology::v_of(p), o.positions[p].mean,
                                     static_cast<unsigned long long>(o.positions[p].first),
                                     static_cast<unsigned long long>(o.positions[p].last),
                                     static_cast<unsigned long long>(o.last)));
        const auto real = [](double v) {
          return v == v ? cli::format("%.6f", v) : std::string("none");
        };
        if (c.arbiter.model == arbiter_model::kind::family) {
          const interlock::inverse_weighted_counts& f = o.family;
          counts.line(cli::format(
              "%s,%llu,%llu,%s,%s,%s,%s", key.c_str(), static_cast<unsigned long long>(f.grants),
              static_cast<unsigned long long>(f.slides), real(f.zeroed_per_grant()).c_str(),
              real(f.quota_lost_per_grant()).c_str(), real(f.spread_mean()).c_str(),
              f.spread_samples == 0 ? "none" : cli::format("%.6f", f.spread_max).c_str()));
        }
        interlock::inverse_weighted_counts before;
        std::uint64_t bin_start = 0;
        for (const outcome::family_sample& x : o.family_over_time) {
          if (x.cycle == bin_start) continue;  // the end on a bin's boundary
          // This bin's counts: the cumulative sums' differences.
          interlock::inverse_weighted_counts bin;
          bin.grants = x.counts.grants - before.grants;
          bin.zeroed = x.counts.zeroed - before.zeroed;
          bin.quota_lost = x.counts.quota_lost - before.quota_lost;
          bin.spread_samples = x.counts.spread_samples - before.spread_samples;
          bin.spread_sum = x.counts.spread_sum - before.spread_sum;
          counts_timeline.line(cli::format(
              "%s,%llu,%llu,%llu,%s,%s,%s,%s", key.c_str(),
              static_cast<unsigned long long>(bin_start),
              static_cast<unsigned long long>(x.cycle - bin_start),
              static_cast<unsigned long long>(bin.grants), real(bin.zeroed_per_grant()).c_str(),
              real(bin.quota_lost_per_grant()).c_str(), real(bin.spread_mean()).c_str(),
              x.counts.spread_samples == 0 ? "none"
                                           : cli::format("%.6f", x.counts.spread_max).c_str()));
          before = x.counts;
          bin_start = x.cycle;
        }
        for (std::size_t b = 0; b < o.link_utilization.size(); ++b)
          timeline.line(cli::format("%s,%llu,%llu,%.5f", key.c_str(),
                                    static_cast<unsigned long long>(b * s.timeline_bin),
                                    static_cast<unsigned long long>(std::min<std::uint64_t>(
                                        s.timeline_bin, o.cycles - b * s.timeline_bin)),
                                    o.link_utilization[b]));
      });
  csv.close();
  counts.close();
  counts_timeline.close();
  positions.close();
  timeline.close();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("saturation", help.c_str(), "try a smaller --radix", argc, argv,
                       [&] { return run(argc, argv); });
}
