// SPDX-License-Identifier: BSL-1.0
// qos_switch: [QoSThesis] Table 2.2 and Figures 2.4-2.5 on the model's hierarchical switch:
// per SL throughput, normalized throughput and latency of a 48-port OPA-shaped switch
// under an output scheduler, swept over the injection rate.
//
//   qos_switch [--preset A|B] [--config FILE] [--scheduler LIST] [--traffic LIST]
//              [--load L | --sweep] [--seeds N] [--full] [--csv FILE] [--jobs N] ...
#include <interlock/model/switch/network.hpp>
#include <interlock/qos/dtable_config.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.hpp"
#include "experiment.hpp"
#include "qos_switch_args.hpp"

namespace {

using namespace qos_switch_tool;

const std::string help =
    "usage: qos_switch [options]\n"
    "\n"
    "One switch shaped as [QoSThesis] Section 2.2 models the 48-port Omni-Path\n"
    "switch (12 MPorts of 4 ports, two x3 links per MPort into a x4 central\n"
    "crossbar, 256-flit buffers with VL space shared between a minimum and a\n"
    "maximum, 8-byte flits, 16-flit packets), a NIC on every port. Every NIC\n"
    "injects L flits per cycle split among the SLs by the generation shares, to\n"
    "uniform random other NICs (contention) or to (src + 1) mod NICs (none).\n"
    "Output ports and NICs schedule their VLs with the scheduler. Per SL: offered\n"
    "and delivered flits per cycle per NIC, normalized throughput (share of the\n"
    "delivered flits), end-to-end and network latency, averaged over seeds.\n"
    "\n"
    "  --preset A|B            Table 2.2's configuration A (the default) or B: the\n"
    "                          flags below, which --config and the command line\n"
    "                          override\n"
    "  --config FILE           a file of `key = value` lines of the flags below, e.g.\n"
    "                            sl2sc = 0:0,1:1,2:2\n"
    "                            sc2vl = 0:0,1:1,2:2\n"
    "                            generation = 0.5,0.4,0.1\n"
    "                            table = 0:60,1:30,2:10\n"
    "  --sl2sc SL:SC,...       each SL's SC (SLs 0..n-1, each once)\n"
    "  --sc2vl SC:VL,...       each SC's VL\n"
    "  --generation S0,S1,...  each SL's share of the injected flits (sum 1)\n"
    "  --table SL:W,...        the output table: each SL's weight (sum 100)\n"
    "  --scheduler LIST        round_robin, sbt, dtable, ib, comma-separated\n"
    "                          (default sbt,round_robin). dtable: a table planned\n"
    "                          by the configuration methodology with shares\n"
    "                          weight/100; ib: the low-priority table, each VL\n"
    "                          weighted by its SLs' weights\n"
    "  --traffic LIST          uniform, shift (default uniform,shift)\n"
    "  --load L                one injection rate, flits/cycle/NIC (0..4)\n"
    "  --sweep                 0.1, 0.2, ... --max-load (the default)\n"
    "  --max-load L            the sweep's last rate (default 1.0)\n"
    "  --seeds N               runs averaged per point (default 3)\n"
    "  --first-seed S          the first run's seed (default 1): seeds S .. S + N - 1\n"
    "  --speedup M/C           flits per cycle through the MPort crossbars' links and\n"
    "                          the central crossbar's, 0.5..16 in steps of 0.5\n"
    "                          (default 3/4: the text's x3 links, the model's x4)\n"
    "  --full                  30 seeds per point, as the thesis averages\n"
    "  --cycles N              measured cycles per run (default 20000; warm-up 5000)\n"
    "  --ports P               switch ports (default 48; 8 is Chapter 5's fat-tree switch)\n"
    "  --mport-ports M         ports per MPort (default 4)\n"
    "  --packet-flits F        packet size (default 16: 128 bytes)\n"
    "  --buffer-flits B        input, output and central buffer flits (default 256)\n"
    "  --va-rule R             what an input arbiter offers in the virtual allocation:\n"
    "                          routed (the default: every VL with a routed head,\n"
    "                          Section 2.2.1's sentence; a pick without room costs\n"
    "                          the input that cycle) or can_go (VLs whose routed head\n"
    "                          has room where it goes)\n"
    "  --crossbar-cycles C     shared (the default: packets under a crossbar link's\n"
    "                          speed-up share its cycles, so x3 moves three 1-flit\n"
    "                          packets) or whole (a packet takes whole cycles of a link)\n"
    "  --queues per_sc|per_vl  output buffers and NICs keep a FIFO per SC inside each\n"
    "                          VL, so a scheduler can serve an SC queued behind\n"
    "                          another of the same VL (per_sc, the default), or one\n"
    "                          FIFO per VL\n"
    "  --vl-flits MIN,MAX      each VL's guaranteed and largest share of a buffer (the\n"
    "                          sharing rule; default: a packet, or the buffer over the\n"
    "                          VLs if less, and the whole buffer); MIN = MAX = the\n"
    "                          buffer over the VLs is a static split\n"
    "  --routing-unit U        an input buffer's routing unit: pipelined (the default:\n"
    "                          every header routed RT after it is stored), per_port\n"
    "                          (one header at a time, RT cycles each) or per_vl (one\n"
    "                          unit per VL)\n"
    "  --storing-unit U        an input or output buffer's write stage: pipelined (the\n"
    "                          default: every packet stored SB after it arrives),\n"
    "                          per_port (one packet at a time, SB cycles each) or\n"
    "                          per_vl (one per VL)\n"
    "  --dtable N,GMTU,W,K     DTable methodology parameters (default 64,MTU,3,2)\n"
    "  --entries SL:N,...      DTable entries per SL (default: N split by weight)\n"
    "  --ib-high SL,...        SLs whose VLs go in InfiniBand's high-priority table\n"
    "  --ib-limit N            LimitOfHighPriority, 0..255 (default 255: no limit)\n"
    "  --label NAME            the table's config column (default: the preset, the\n"
    "                          --config file, or A)\n"
    "                          (the table: one row per scheduler, traffic, load, SL)\n" +
    cli::experiment_flags::help() +
    "\n"
    "Exit status: 0 done; 2 bad input; 3 an output could not be written.\n";

template <class S>
std::vector<interlock::model::sl_result> run_point(const S& scheduler, const options& o,
                                                   const interlock::model::switch_shape& shape,
                                                   const interlock::model::service_levels& levels,
                                                   const interlock::model::sl_traffic& traffic,
                                                   interlock::model::switch_pattern p,
                                                   double load) {
  return interlock::model::mean_over_seeds(o.seeds, [&](std::uint64_t seed) {
    interlock::model::switch_network<S> net(interlock::model::single_switch(o.ports), shape, levels,
                                            traffic, scheduler);
    net.run(p, load, 5000, o.cycles, seed + o.first_seed - 1);
    return net.results();
  });
}

int run(int argc, char** argv) {
  cli::experiment_flags shared;
  const options o = parse(argc, argv, shared);
  const std::size_t sls = o.sl2sc.size();
  std::vector<std::uint8_t> sl2sc(o.sl2sc.begin(), o.sl2sc.end());
  std::vector<std::uint8_t> sc2vl(o.sc2vl.begin(), o.sc2vl.end());
  const interlock::model::service_levels levels(sl2sc, sc2vl);
  interlock::model::switch_shape shape = interlock::model::opa_48_port();
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
  const interlock::model::sl_traffic traffic{o.generation,
                                             std::vector<std::uint32_t>(sls, o.packet_flits)};
  traffic.check(sls, std::min(o.buffer_flits, shape.vl_max_flits));
  std::vector<std::uint32_t> weights(o.table.begin(), o.table.end());

  // Every run steps the switch (one router-cycle per port) over warm-up and window.
  shared.check_work(
      static_cast<double>(o.ports) * static_cast<double>(5000 + o.cycles) *
          static_cast<double>(o.seeds * o.schedulers.size() * o.traffic.size() * o.loads.size()),
      "lower --seeds, --cycles or the loads");
  cli::table_output csv = shared.output("qos_switch");
  csv.line(
      "config,scheduler,traffic,load,sl,offered,throughput,normalized_throughput,latency_mean,"
      "network_latency_mean");

  // Each scheduler by name, built (and so checked) from the configuration.
  const auto with_scheduler = [&](const std::string& name, const auto& f) {
    if (name == "round_robin") {
      f(interlock::model::round_robin_scheduler{}, "");
    } else if (name == "sbt") {
      f(interlock::model::sbt_for(levels, weights), "");
    } else if (name == "dtable") {
      const std::uint32_t mtu =
          interlock::model::head_units<interlock::qos::dtable_scheduler>(o.packet_flits, shape);
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
      f(interlock::model::dtable_for(levels, plan.table, std::vector<std::uint32_t>(sls, mtu)),
        note + ")");
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
      f(interlock::model::ib_for(c), " (InfiniBand: VLs weighted by their SLs' weights)");
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
    std::vector<interlock::model::sl_result> mean;
    std::string note;
  };
  shared.grid(
      cells.size(),
      [&](std::size_t k, bool) {
        const cell& c = cells[k];
        const auto pattern = c.traffic == "shift" ? interlock::model::switch_pattern::shift
                                                  : interlock::model::switch_pattern::uniform;
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
          std::printf(" | %7.3f %5.3f %7.0f %4.0f", m.throughput, m.normalized_throughput,
                      m.latency_mean, m.network_latency_mean);
          csv.line(cli::format("%s,%s,%s,%.2f,%zu,%.5f,%.5f,%.5f,%.1f,%.1f", o.label.c_str(),
                               c.scheduler.c_str(), c.traffic.c_str(), load, sl, m.offered,
                               m.throughput, m.normalized_throughput, m.latency_mean,
                               m.network_latency_mean));
        }
        std::printf("\n");
        std::fflush(stdout);
      });
  csv.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("qos_switch", help.c_str(), "try fewer --ports", argc, argv, [&] {
    try {
      return run(argc, argv);
    } catch (const interlock::config_error& e) {
      throw cli::bad_input{qos_switch_tool::flag_of_field(e.field()) + ": " + e.field() + " = " +
                           e.value() + "; allowed: " + e.allowed()};
    }
  });
}
