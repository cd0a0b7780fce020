// SPDX-License-Identifier: BSL-1.0
// qos_network: [QoSThesis] Chapter 5's scenario on networks of the model's QoS switches: seven
// SLs (Table 5.2), their maps (Table 5.3) and the DTable of Table 5.4 derived by the library's
// methodology, on a 4-ary 3-tree of 8-port switches or an 8x8 torus of 48-port switches, with
// OPA-shaped and IB-shaped switches, the DTable against SBT and round robin.
//
//   qos_network [--topology tree|torus] [--switch opa,ib] [--scheduler dtable,sbt,round_robin]
//               [--steps N] [--seeds N] [--cycles N] [--packet-limit N]
//               [--zero-load SW:NS,...] [--csv FILE]
//               [--json FILE] [--jobs N]
#include <interlock/core/config_error.hpp>
#include <interlock/model/qos_switch.hpp>
#include <interlock/model/qos_switch/network_layouts.hpp>
#include <interlock/model/qos_switch/route_dependencies.hpp>
#include <interlock/model/qos_switch/zero_load.hpp>
#include <interlock/qos/dtable_config.hpp>
#include <interlock/topology/kary_ntree.hpp>
#include <interlock/topology/torus.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cli.hpp"
#include "experiment.hpp"
#include "switch_readings.hpp"

namespace qs = interlock::model::qos_switch;

namespace {

const char* sl_names[] = {"NC", "VO", "VI", "CL", "EE", "BE", "BK"};
constexpr std::size_t sls = 7;
// Table 5.2's message sizes in 64-byte flits (SL_MTU).
const std::vector<std::uint32_t> flits{3, 2, 32, 32, 16, 16, 16};
// Table 5.4: distances 2 .. 64 as entries of the 64-entry table, and phi.
const std::vector<std::size_t> entries{32, 16, 8, 4, 2, 1, 1};
const std::vector<double> phi{0.094, 0.164, 0.3, 0.35, 0.04, 0.036, 0.016};
const std::vector<double> fixed_rate{0.01, 0.016, 0.23, 0.28, 0, 0, 0};

qs::shape shape_of(const std::string& kind, std::size_t ports) {
  qs::shape s = qs::opa_48_port();
  s.ports = ports;
  s.flit_bytes = 64;
  s.credit_bytes = 64;
  // 114,688 bytes at every port; 229,376 bytes of central buffer per MPort.
  s.input_flits = s.output_flits = 1792;
  s.central_flits = 1792;
  s.vl_min_flits = 32;  // a GMTU per VL
  s.vl_max_flits = 1792;
  // Section 2.2.2's 100 ns through a switch at 64-byte flits (5.12 ns per
  // cycle at 12.5 GB/s): Chapter 2's stages scaled by 1/8, 20 cycles.
  s.latency = {1, 4, 6, 1, 0, 1};
  if (kind == "ib") {
    s.mport_ports = ports;  // one crossbar, at the links' rate
    s.mport_speedup = 1;
    s.central_links = 1;
  }
  return s;
}

// --zero-load's targets in ns per switch kind ("opa", "ib").
std::map<std::string, double> zero_load_targets(const std::string& flag, const std::string& text) {
  std::map<std::string, double> targets;
  for (const std::string& item : cli::split(text)) {
    const std::size_t colon = item.find(':');
    if (colon == std::string::npos)
      throw cli::bad_input{flag + ": '" + item + "' is not SWITCH:NS (opa:634, ib:764)"};
    const std::string name = cli::names(flag, item.substr(0, colon), {"opa", "ib"}).front();
    if (targets.count(name) != 0) throw cli::bad_input{flag + ": " + name + " given twice"};
    targets[name] = cli::real(flag, item.substr(colon + 1), 1, 1e6);
  }
  return targets;
}

constexpr double ns_per_cycle = 5.12;

struct options {
  std::string topology = "tree";
  std::vector<std::string> switches{"opa", "ib"}, schedulers{"dtable"};
  std::size_t steps = 8, seeds = 1, cycles = 10000;
  bool whole = false;
  qos_tools::switch_readings readings;
  std::map<std::string, double> zero_load;  // --zero-load: ns per switch kind
  std::uint32_t packet_limit = 1;
  cli::experiment_flags shared;  // --full, --csv, --json, --jobs, --max-work
};

std::string zero_load_text(const std::map<std::string, double>& targets) {
  std::string text;
  for (const auto& kv : targets)
    text += (text.empty() ? "" : ",") + kv.first + ":" + cli::real_text(kv.second);
  return text;
}

/// qos_network's settings, each declared once: the parser, --help, the
/// configuration as run and the CSV's configuration columns.
const cli::setting_table<options>& settings() {
  using o_t = options;
  using cli::custom;
  using cli::whole;
  static const cli::setting_table<options> table([] {
    std::vector<cli::setting<o_t>> list{
        cli::one_of<o_t>(
            "--topology", [](auto& o) -> auto& { return o.topology; }, {"tree", "torus"},
            "the 4-ary 3-tree of 8-port switches (64 NICs) or the 8x8 torus of 48-port "
            "switches with trunks of 10 ports and 8 NICs per switch (512 NICs)")
            .axis(),  // the first column
        custom<o_t>(
            "--switch", "LIST",
            "opa (MPorts of 4, x3 links into a x4 central crossbar), ib (one crossbar)",
            [](o_t& o, const std::string& v) {
              o.switches = cli::names("--switch", v, {"opa", "ib"});
            },
            [](const o_t& o) { return cli::joined(o.switches); })
            .axis(),
        custom<o_t>(
            "--scheduler", "LIST", "dtable, sbt, round_robin",
            [](o_t& o, const std::string& v) {
              o.schedulers = cli::names("--scheduler", v, {"dtable", "sbt", "round_robin"});
            },
            [](const o_t& o) { return cli::joined(o.schedulers); })
            .axis(),
        whole<o_t>(
            "--steps", "N", [](auto& o) -> auto& { return o.steps; }, 1, 100,
            "best-effort injection points, 1..100 (15 with --full)"),
        whole<o_t>(
            "--seeds", "N", [](auto& o) -> auto& { return o.seeds; }, 1, 1000,
            "runs averaged per point, 1..1000 (30 with --full)"),
        whole<o_t>(
            "--cycles", "N", [](auto& o) -> auto& { return o.cycles; }, 1000, 100000000,
            "measured cycles per run, after a warm-up of 4000"),
        whole<o_t>(
            "--packet-limit", "N", [](auto& o) -> auto& { return o.packet_limit; }, 0, 32,
            "cuts each message into packets of at most N flits, 0..32; latency runs to a "
            "message's last packet; 1 cuts each message into one-flit packets (Section 5.5.2: "
            "\"the packet size in 1 flit\"); 0: each message one packet. Below 3 on "
            "OPA-shaped switches only with --crossbar-cycles shared, or packets would lose "
            "OPA's x3 and x4"),
        custom<o_t>(
            "--zero-load", "SW:NS,...",
            "calibrates each named switch (opa, ib): its routing stage (RT) set so that NC's "
            "zero-load latency (a lone packet, mean over all pairs of NICs) is nearest NS "
            "nanoseconds, 1..1e6 (5.12 ns a cycle)",
            [](o_t& o, const std::string& v) { o.zero_load = zero_load_targets("--zero-load", v); },
            [](const o_t& o) { return zero_load_text(o.zero_load); })
            .when([](const o_t& o) { return !o.zero_load.empty(); }, "")
            .defaults("Chapter 2's stages scaled, 20 cycles a switch"),
        cli::toggle<o_t>(
            "--whole-packets", [](auto& o) -> auto& { return o.whole; },
            "a packet crosses a switch's crossbars only once wholly in its input buffer "
            "(default: cut-through, as the thesis)"),
    };
    cli::append(list, qos_tools::switch_readings::settings_of<o_t>());
    cli::append(list, cli::experiment_flags::settings<o_t>(
                          "15 points, 30 seeds, as the thesis (--steps and --seeds given keep "
                          "their value)"));
    return list;
  }());
  return table;
}

std::string help_text() {
  return "usage: qos_network [options]\n"
         "\n"
         "[QoSThesis] Chapter 5: seven SLs (Table 5.2: NC uniform 192 B; VO and VI CBR\n"
         "connections of 128 B and 2048 B; CL CBR of 2048 B to uniform destinations;\n"
         "EE, BE, BK bursts of four 1024 B messages), each SL on its own SC and VL\n"
         "(Table 5.3), 64-byte flits and credits, each message of its SL_MTU cut into\n"
         "one-flit packets (--packet-limit). NC, VO, VI and CL inject 0.01, 0.016,\n"
         "0.23, 0.28 flits/cycle/NIC; each best-effort SL from 0.0125 to 0.1525\n"
         "(Table 5.4's Min. and Max.).\n"
         "The DTable is Table 5.4's, derived by the configuration methodology\n"
         "(N = 64, GMTU = 32, w = 3, k = 0.5); SBT takes its shares in percent.\n"
         "Per SL: throughput and end-to-end latency against the total injection. The\n"
         "table: one row per switch, scheduler, injection and SL, then every setting.\n"
         "\n" +
         settings().help() +
         "\n"
         "Exit status: 0 done; 1 a layout's routes have a dependency cycle; 2 bad input;\n"
         "3 an output could not be written.\n";
}

int run(int argc, char** argv) {
  options o;
  const cli::flags flags = settings().parse(argc, argv, o);
  using table = cli::setting_table<options>;
  for (const auto& kv : o.zero_load)
    if (std::find(o.switches.begin(), o.switches.end(), kv.first) == o.switches.end())
      throw table::refusal(
          flags, "--zero-load",
          "--zero-load: " + kv.first + ": --switch runs " + cli::joined(o.switches) + " only");
  if (o.packet_limit > 0 && o.packet_limit < 3 && o.readings.crossbar_cycles == "whole" &&
      std::find(o.switches.begin(), o.switches.end(), "opa") != o.switches.end()) {
    throw table::refusal(
        flags, "--packet-limit",
        "--packet-limit: " + std::to_string(o.packet_limit) +
            " with --switch opa: whole crossbar cycles move one packet a cycle, so packets "
            "under 3 flits would lose OPA's x3 and x4 (give --crossbar-cycles shared, or "
            "--switch ib)");
  }
  if (o.shared.full && !flags.given("--steps")) o.steps = 15;
  if (o.shared.full && !flags.given("--seeds")) o.seeds = 30;
  o.shared.resolve(flags, settings().resolved(o));
  const std::string& topology = o.topology;
  const std::vector<std::string>& switches = o.switches;
  const std::vector<std::string>& schedulers = o.schedulers;
  const std::size_t steps = o.steps, seeds = o.seeds, cycles = o.cycles;
  const bool whole = o.whole;
  const qos_tools::switch_readings& readings = o.readings;
  const std::map<std::string, double>& zero_load = o.zero_load;
  const std::uint32_t packet_limit = o.packet_limit;
  const cli::experiment_flags& shared = o.shared;
  // Per switch kind: the settings' columns (--zero-load's target of that kind).
  std::map<std::string, std::string> configuration;
  for (const std::string& sw : switches) {
    options one = o;
    one.switches = {sw};
    one.zero_load.clear();
    if (zero_load.count(sw) != 0) one.zero_load[sw] = zero_load.at(sw);
    configuration[sw] = settings().values(one);
  }

  // Table 5.4 by the methodology.
  std::vector<interlock::qos::dtable_sl> plan_sls;
  std::vector<std::uint32_t> mtu(flits.begin(), flits.end());
  for (std::size_t sl = 0; sl < sls; ++sl) plan_sls.push_back({entries[sl], flits[sl]});
  const auto plan = interlock::qos::plan_dtable({64, 32, 3, 0.5}, plan_sls, phi);
  std::printf(
      "Table 5.4 by the methodology (N = 64, GMTU = 32, w = 3, k = 0.5: M = %u, pool = %g)\n",
      plan.max_entry_weight, plan.pool);
  std::printf("  SL  #entr  MTU  min_phi  max_phi    phi   E.W.    T.W.\n");
  for (std::size_t sl = 0; sl < sls; ++sl) {
    std::uint32_t lo = ~0u, hi = 0;
    for (const auto& e : plan.table)
      if (e.sl == sl) {
        lo = std::min(lo, e.weight);
        hi = std::max(hi, e.weight);
      }
    std::printf("  %s %6zu %4u %8.4f %8.3f %6.3f %3u-%-3u %6llu\n", sl_names[sl], entries[sl],
                flits[sl], plan.sls[sl].min_phi, plan.sls[sl].max_phi, phi[sl], lo, hi,
                static_cast<unsigned long long>(plan.sls[sl].final_weight));
  }
  std::printf("  total weight %llu (Table 5.4: 1073)\n\n",
              static_cast<unsigned long long>(plan.final_total));

  // The network and its deadlock check.
  const bool torus = topology == "torus";
  const interlock::torus_topology ring({8, 8}, {true, true}, 1);
  const qs::layout layout =
      torus ? qs::torus_layout(ring, 10, 8) : qs::fat_tree_layout(interlock::kary_ntree(4, 3));
  const auto report = qs::check_deadlock(layout);
  std::printf("%s: %zu switches of %zu ports, %zu NICs; routes %s\n",
              torus ? "8x8 torus, trunks of 10, 8 NICs per switch" : "4-ary 3-tree",
              layout.switches(), layout.ports(), layout.nics(), report.describe().c_str());
  if (!report.acyclic) return 1;
  // Every switch stepped over warm-up and window, for every run.
  shared.check_work(static_cast<double>(layout.switches()) * static_cast<double>(4000 + cycles) *
                        static_cast<double>(switches.size() * schedulers.size() * steps * seeds),
                    "lower --steps, --seeds or --cycles");
  std::vector<std::uint8_t> sl2sc(sls), sc2vl(torus ? 2 * sls : sls), sl2sc1;
  for (std::size_t i = 0; i < sc2vl.size(); ++i) sc2vl[i] = static_cast<std::uint8_t>(i);
  for (std::size_t sl = 0; sl < sls; ++sl) {
    sl2sc[sl] = static_cast<std::uint8_t>(sl);
    if (torus) sl2sc1.push_back(static_cast<std::uint8_t>(sl + sls));
  }
  const qs::service_levels levels(sl2sc, sc2vl, sl2sc1);
  using qs::sl_source;
  const qs::sl_traffic traffic{
      std::vector<double>(sls, 1.0 / sls),
      flits,
      {sl_source::bernoulli, sl_source::cbr_connection, sl_source::cbr_connection, sl_source::cbr,
       sl_source::bursts, sl_source::bursts, sl_source::bursts},
      4,
      packet_limit};

  // Each calibrated switch's RT (--zero-load), from lone NC packets.
  std::map<std::string, std::uint32_t> rt_of;
  for (const std::string& sw : switches) {
    qs::shape shape = shape_of(sw, layout.ports());
    readings.apply(shape);
    const qs::round_robin_scheduler any;  // a lone packet never waits
    const double at = qs::zero_load_latency(layout, shape, levels, traffic, any, 0);
    std::printf("%s-shaped switches: NC's zero-load latency %.1f cycles (%.0f ns) at RT %u",
                sw == "opa" ? "OPA" : "IB", at, at * ns_per_cycle, shape.latency.rt);
    const auto target = zero_load.find(sw);
    if (target != zero_load.end()) {
      std::uint32_t rt = 0;
      try {
        rt = qs::rt_for_zero_load(layout, shape, levels, traffic, any, 0,
                                  target->second / ns_per_cycle);
      } catch (const interlock::config_error& e) {
        throw cli::bad_input{"--zero-load: " + sw + ":" + cli::format("%g", target->second) +
                             " ns is out of reach (" + e.what() + ")"};
      }
      shape.latency.rt = rt;
      const double now = qs::zero_load_latency(layout, shape, levels, traffic, any, 0);
      std::printf("; RT %u gives %.1f cycles (%.0f ns; --zero-load %g ns)", rt, now,
                  now * ns_per_cycle, target->second);
      rt_of[sw] = rt;
    }
    std::printf("\n");
  }
  std::printf("\n");

  cli::table_output csv = shared.output("qos_network");
  csv.line(
      "topology,switch,scheduler,injection,sl,name,offered,throughput,latency_mean,"
      "network_latency_mean," +
      settings().columns());
  std::fflush(stdout);
  struct cell {
    std::string sw, scheduler;
    std::size_t step;
  };
  std::vector<cell> cells;
  for (const std::string& sw : switches)
    for (const std::string& name : schedulers)
      for (std::size_t step = 0; step < steps; ++step) cells.push_back({sw, name, step});
  const auto rates_of = [&](std::size_t step) {
    const double x = steps == 1 ? 0.0125 : 0.0125 + 0.14 * double(step) / double(steps - 1);
    std::vector<double> rates = fixed_rate;
    for (std::size_t sl = 4; sl < sls; ++sl) rates[sl] = x;
    return rates;
  };
  shared.grid(
      cells.size(),
      [&](std::size_t k, bool) {
        const cell& c = cells[k];
        qs::shape shape = shape_of(c.sw, layout.ports());
        shape.whole_packet_crossing = whole;
        readings.apply(shape);
        if (rt_of.count(c.sw) != 0) shape.latency.rt = rt_of.at(c.sw);
        const std::vector<double> rates = rates_of(c.step);
        std::vector<qs::sl_result> mean;
        const auto one = [&](const auto& scheduler) {
          using S = std::decay_t<decltype(scheduler)>;
          mean = qs::mean_over_seeds(seeds, [&](std::uint64_t seed) {
            qs::network<S> net(layout, shape, levels, traffic, scheduler);
            net.run_rates(qs::pattern::uniform, rates, 4000, cycles, seed);
            return net.results();
          });
        };
        if (c.scheduler == "dtable") {
          one(qs::dtable_for(levels, plan.table, mtu));
        } else if (c.scheduler == "sbt") {
          one(qs::sbt_for(levels, {9, 16, 30, 35, 4, 4, 2}));
        } else {
          one(qs::round_robin_scheduler{});
        }
        return mean;
      },
      [&](std::size_t k, const std::vector<qs::sl_result>& mean) {
        const cell& c = cells[k];
        if (c.step == 0) {
          std::printf(
              "\n%s switches, %s (latency in cycles of 5.12 ns; throughput flits/cycle/NIC)\n",
              c.sw == "opa" ? "OPA-shaped" : "IB-shaped", c.scheduler.c_str());
          std::printf("  %9s", "injection");
          for (std::size_t sl = 0; sl < sls; ++sl) std::printf(" %8s", sl_names[sl]);
          std::printf(" | throughput per SL\n");
        }
        double injection = 0;
        for (const double r : rates_of(c.step)) injection += r;
        std::printf("  %9.4f", injection);
        for (std::size_t sl = 0; sl < sls; ++sl)
          std::printf(" %s", cli::figure("%8.0f", mean[sl].latency_mean, 8).c_str());
        std::printf(" |");
        for (std::size_t sl = 0; sl < sls; ++sl) std::printf(" %.3f", mean[sl].throughput);
        std::printf("\n");
        std::fflush(stdout);
        for (std::size_t sl = 0; sl < sls; ++sl)
          csv.line(cli::format("%s,%s,%s,%.4f,%zu,%s,%.5f,%.5f,%s,%s,%s", topology.c_str(),
                               c.sw.c_str(), c.scheduler.c_str(), injection, sl, sl_names[sl],
                               mean[sl].offered, mean[sl].throughput,
                               cli::cell("%.1f", mean[sl].latency_mean).c_str(),
                               cli::cell("%.1f", mean[sl].network_latency_mean).c_str(),
                               configuration.at(c.sw).c_str()));
      });
  csv.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("qos_network", help.c_str(), "try --topology tree", argc, argv,
                       [&] { return run(argc, argv); });
}
