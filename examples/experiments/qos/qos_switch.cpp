// SPDX-License-Identifier: BSL-1.0
// qos_switch: [QoSThesis] Table 2.2 and Figures 2.4-2.5 on the model's hierarchical switch:
// per SL throughput, normalized throughput and latency of a 48-port OPA-shaped switch
// under an output scheduler, swept over the injection rate.
//
//   qos_switch [--preset A|B] [--config FILE] [--scheduler LIST] [--traffic LIST]
//              [--load L | --sweep] [--seeds N] [--full] [--csv FILE] [--jobs N] ...
#include <interlock/model/qos_switch.hpp>
#include <interlock/qos/dtable_config.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cli.hpp"
#include "experiment.hpp"
#include "qos_switch_args.hpp"

namespace qs = interlock::model::qos_switch;

namespace {

using namespace qos_switch_tool;

std::string help_text() {
  return "usage: qos_switch [options]\n"
         "\n"
         "One switch shaped as [QoSThesis] Section 2.2 models the 48-port Omni-Path\n"
         "switch (12 MPorts of 4 ports, two x3 links per MPort into a x4 central\n"
         "crossbar, 256-flit buffers with VL space shared between a minimum and a\n"
         "maximum, 8-byte flits, 16-flit packets), a NIC on every port. Every NIC\n"
         "injects L flits per cycle split among the SLs by the generation shares, to\n"
         "uniform random other NICs (contention) or to (src + 1) mod NICs (none).\n"
         "Output ports and NICs schedule their VLs with the scheduler. Per SL: offered\n"
         "and delivered flits per cycle per NIC, normalized throughput (share of the\n"
         "delivered flits), end-to-end and network latency, averaged over seeds. The\n"
         "table: one row per scheduler, traffic, load and SL, then every setting.\n"
         "\n"
         "  --preset A|B           Table 2.2's configuration A (the default) or B: the\n"
         "                         flags below, which --config and the command line\n"
         "                         override\n"
         "  --config FILE          a file of `key = value` lines of the flags below, e.g.\n"
         "                           sl2sc = 0:0,1:1,2:2\n"
         "                           sc2vl = 0:0,1:1,2:2\n"
         "                           generation = 0.5,0.4,0.1\n"
         "                           table = 0:60,1:30,2:10\n" +
         settings().help() +
         "\n"
         "Exit status: 0 done; 2 bad input; 3 an output could not be written.\n";
}

template <class S>
std::vector<qs::sl_result> run_point(const S& scheduler, const options& o, const qs::shape& shape,
                                     const qs::service_levels& levels,
                                     const qs::sl_traffic& traffic, qs::pattern p, double load) {
  return qs::mean_over_seeds(o.seeds, [&](std::uint64_t seed) {
    qs::network<S> net(qs::single_switch(o.ports), shape, levels, traffic, scheduler);
    net.run(p, load, 5000, o.cycles, seed + o.first_seed - 1);
    return net.results();
  });
}

int run(int argc, char** argv) {
  const options o = parse(argc, argv);
  const cli::experiment_flags& shared = o.shared;
  const std::size_t sls = o.sl2sc.size();
  std::vector<std::uint8_t> sl2sc(o.sl2sc.begin(), o.sl2sc.end());
  std::vector<std::uint8_t> sc2vl(o.sc2vl.begin(), o.sc2vl.end());
  const qs::service_levels levels(sl2sc, sc2vl);
  qs::shape shape = qs::opa_48_port();
  shape.ports = o.ports;
  shape.mport_ports = o.mport_ports;
  // Speed-ups in half flits: whole flits per cycle, or per two cycles.
  const bool halves = o.mport_halves % 2 != 0 || o.central_halves % 2 != 0;
  shape.speedup_cycles = halves ? 2 : 1;
  shape.mport_speedup = halves ? o.mport_halves : o.mport_halves / 2;
  shape.central_speedup = halves ? o.central_halves : o.central_halves / 2;
  shape.input_flits = shape.output_flits = shape.central_flits = o.buffer_flits;
  shape.vl_max_flits = o.buffer_flits;
  shape.vl_min_flits = std::min(o.packet_flits, o.buffer_flits / std::uint32_t(levels.vls()));
  if (o.vl_max != 0) {
    // The buffer sharing rule given: each VL's minimum and maximum.
    const std::uint32_t vls = static_cast<std::uint32_t>(levels.vls());
    if (o.vl_max > o.buffer_flits || o.vl_min * vls > o.buffer_flits)
      throw cli::bad_input{
          "--vl-flits: " + std::to_string(o.vl_min) + "," + std::to_string(o.vl_max) +
          " does not fit a " + std::to_string(o.buffer_flits) + "-flit buffer of " +
          std::to_string(vls) + " VLs (MAX at most the buffer, " + "MIN x VLs at most the buffer)"};
    shape.vl_min_flits = o.vl_min;
    shape.vl_max_flits = o.vl_max;
  }
  o.readings.apply(shape);
  shape.check();
  const qs::sl_traffic traffic{o.generation, std::vector<std::uint32_t>(sls, o.packet_flits)};
  traffic.check(sls, std::min(o.buffer_flits, shape.vl_max_flits));
  std::vector<std::uint32_t> weights(o.table.begin(), o.table.end());

  // Every run steps the switch (one router-cycle per port) over warm-up and window.
  shared.check_work(
      static_cast<double>(o.ports) * static_cast<double>(5000 + o.cycles) *
          static_cast<double>(o.seeds * o.schedulers.size() * o.traffic.size() * o.loads.size()),
      "lower --seeds, --cycles or the loads");
  cli::table_output csv = shared.output("qos_switch");
  // The cell's columns and the measures, then every other setting (per
  // scheduler: what applies differs).
  csv.line(
      "config,scheduler,traffic,load,sl,offered,throughput,normalized_throughput,latency_mean,"
      "network_latency_mean," +
      settings().columns());
  std::map<std::string, std::string> configuration;
  for (const std::string& name : o.schedulers) {
    options one = o;
    one.schedulers = {name};
    configuration[name] = settings().values(one);
  }

  // Each scheduler by name, built (and so checked) from the configuration.
  const auto with_scheduler = [&](const std::string& name, const auto& f) {
    if (name == "round_robin") {
      f(qs::round_robin_scheduler{}, "");
    } else if (name == "sbt") {
      f(qs::sbt_for(levels, weights), "");
    } else if (name == "dtable") {
      const std::uint32_t mtu =
          qs::head_units<interlock::qos::dtable_scheduler>(o.packet_flits, shape);
      const interlock::qos::dtable_parameters params{
          o.dtable_entries, o.dtable_gmtu == 0 ? mtu : o.dtable_gmtu, o.dtable_w, o.dtable_k};
      std::vector<std::size_t> entries = o.entries;
      if (entries.empty()) {
        // N split by weight, largest remainder, at least one entry per SL.
        entries.assign(sls, 1);
        std::size_t left = params.entries - std::min(params.entries, sls);
        std::vector<double> want(sls);
        for (std::size_t sl = 0; sl < sls; ++sl)
          want[sl] = static_cast<double>(params.entries) * weights[sl] / 100.0 - 1;
        while (left > 0) {
          std::size_t best = 0;
          for (std::size_t sl = 1; sl < sls; ++sl)
            if (want[sl] - static_cast<double>(entries[sl]) >
                want[best] - static_cast<double>(entries[best]))
              best = sl;
          ++entries[best];
          --left;
        }
      }
      if (entries.size() != sls)
        throw cli::bad_input{"--entries: " + std::to_string(entries.size()) + " SLs, not " +
                             std::to_string(sls)};
      std::vector<interlock::qos::dtable_sl> plan_sls;
      std::vector<double> phi;
      for (std::size_t sl = 0; sl < sls; ++sl) {
        plan_sls.push_back({entries[sl], mtu});
        phi.push_back(weights[sl] / 100.0);
      }
      const auto plan = interlock::qos::plan_dtable(params, plan_sls, phi);
      std::string note = cli::format(" (DTable N=%zu GMTU=%u w=%g k=%g; entries", params.entries,
                                     params.gmtu, params.w, params.k);
      for (std::size_t sl = 0; sl < sls; ++sl)
        note += cli::format(" SL%zu %zux%u", sl, entries[sl], plan.sls[sl].entry_weight);
      f(qs::dtable_for(levels, plan.table, std::vector<std::uint32_t>(sls, mtu)), note + ")");
    } else {
      interlock::qos::ib_vl_arbitration_config c;
      std::vector<std::uint32_t> vl_weight(levels.vls(), 0);
      std::vector<bool> high(levels.vls(), false);
      for (std::size_t sl = 0; sl < sls; ++sl) vl_weight[levels.vl(sl)] += weights[sl];
      for (const std::size_t sl : o.ib_high) {
        if (sl >= sls)
          throw cli::bad_input{"--ib-high: SL " + std::to_string(sl) + " not configured"};
        high[levels.vl(sl)] = true;
      }
      for (std::size_t sl = 0; sl < sls; ++sl)
        if (o.generation[sl] > 0 && vl_weight[levels.vl(sl)] == 0)
          throw cli::bad_input{"--table: SL " + std::to_string(sl) +
                               " carries traffic and its VL " + std::to_string(levels.vl(sl)) +
                               " has weight 0: InfiniBand's tables would never grant it"};
      for (std::size_t vl = 0; vl < levels.vls(); ++vl) {
        if (vl_weight[vl] == 0) continue;
        if (vl_weight[vl] > 255)
          throw cli::bad_input{"--table: VL " + std::to_string(vl) + "'s weight " +
                               std::to_string(vl_weight[vl]) + " exceeds InfiniBand's 255"};
        (high[vl] ? c.high : c.low)
            .push_back({static_cast<std::uint8_t>(vl), static_cast<std::uint8_t>(vl_weight[vl])});
      }
      c.limit_of_high_priority = static_cast<std::uint8_t>(o.ib_limit);
      f(qs::ib_for(c), " (InfiniBand: VLs weighted by their SLs' weights)");
    }
  };
  for (const std::string& name : o.schedulers)
    with_scheduler(name, [](const auto&, const std::string&) {});
  const auto times = [](std::uint32_t in_halves) {
    return in_halves % 2 == 0 ? std::to_string(in_halves / 2) : cli::real_text(in_halves / 2.0);
  };
  std::printf(
      "%zu-port switch (MPorts of %zu), %u-flit packets, %u-flit buffers, crossbars x%s/x%s; "
      "configuration %s: %zu SLs, %zu VLs, %zu seed(s) from seed %zu x %zu cycles per point\n",
      o.ports, o.mport_ports, o.packet_flits, o.buffer_flits, times(o.mport_halves).c_str(),
      times(o.central_halves).c_str(), o.label.c_str(), sls, levels.vls(), o.seeds, o.first_seed,
      o.cycles);
  std::fflush(stdout);
  struct cell {
    std::string scheduler, traffic;
    std::size_t load;
  };
  std::vector<cell> cells;
  for (const std::string& name : o.schedulers)
    for (const std::string& tr : o.traffic)
      for (std::size_t l = 0; l < o.loads.size(); ++l) cells.push_back({name, tr, l});
  struct point {
    std::vector<qs::sl_result> mean;
    std::string note;
  };
  shared.grid(
      cells.size(),
      [&](std::size_t k, bool) {
        const cell& c = cells[k];
        const auto pattern = c.traffic == "shift" ? qs::pattern::shift : qs::pattern::uniform;
        point out;
        with_scheduler(c.scheduler, [&](const auto& scheduler, const std::string& note) {
          out.mean = run_point(scheduler, o, shape, levels, traffic, pattern, o.loads[c.load]);
          out.note = note;
        });
        return out;
      },
      [&](std::size_t k, const point& out) {
        const cell& c = cells[k];
        if (c.load == 0) {
          std::printf("\n%s, %s traffic%s\n  %5s", c.scheduler.c_str(), c.traffic.c_str(),
                      out.note.c_str(), "load");
          for (std::size_t sl = 0; sl < sls; ++sl)
            std::printf(" | SL%zu thr  norm  latency net", sl);
          std::printf("\n");
        }
        const double load = o.loads[c.load];
        std::printf("  %5.2f", load);
        for (std::size_t sl = 0; sl < sls; ++sl) {
          const auto& m = out.mean[sl];
          std::printf(" | %7.3f %s %s %s", m.throughput,
                      cli::figure("%5.3f", m.normalized_throughput, 5).c_str(),
                      cli::figure("%7.0f", m.latency_mean, 7).c_str(),
                      cli::figure("%4.0f", m.network_latency_mean, 4).c_str());
          csv.line(cli::format("%s,%s,%s,%.2f,%zu,%.5f,%.5f,%s,%s,%s,%s", o.label.c_str(),
                               c.scheduler.c_str(), c.traffic.c_str(), load, sl, m.offered,
                               m.throughput, cli::cell("%.5f", m.normalized_throughput).c_str(),
                               cli::cell("%.1f", m.latency_mean).c_str(),
                               cli::cell("%.1f", m.network_latency_mean).c_str(),
                               configuration.at(c.scheduler).c_str()));
        }
        std::printf("\n");
        std::fflush(stdout);
      });
  csv.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("qos_switch", help.c_str(), "try fewer --ports", argc, argv, [&] {
    try {
      return run(argc, argv);
    } catch (const interlock::config_error& e) {
      throw cli::bad_input{qos_switch_tool::flag_of_field(e.field()) + ": " + e.field() + " = " +
                           e.value() + "; allowed: " + e.allowed()};
    }
  });
}
