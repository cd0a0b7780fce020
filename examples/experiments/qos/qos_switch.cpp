// SPDX-License-Identifier: BSL-1.0
// qos_switch: [QoSThesis] Table 2.2 and Figures 2.4-2.5 on the model's hierarchical switch:
// per SL throughput, normalized throughput and latency of a 48-port OPA-shaped switch
// under an output scheduler, swept over the injection rate.
//
//   qos_switch [--preset A|B] [--config FILE] [--scheduler LIST] [--traffic LIST] [--load L |
//   --sweep]
//              [--seeds N] [--full] [--csv FILE] ...
#include <interlock/model/switch_network.hpp>
#include <interlock/qos/dtable_config.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "catalogue.hpp"
#include "cli.hpp"

namespace {

const char* help =
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
    "  --full                  30 seeds per point, as the thesis averages\n"
    "  --cycles N              measured cycles per run (default 20000; warm-up 5000)\n"
    "  --ports P               switch ports (default 48; 8 is Chapter 5's fat-tree switch)\n"
    "  --mport-ports M         ports per MPort (default 4)\n"
    "  --packet-flits F        packet size (default 16: 128 bytes)\n"
    "  --buffer-flits B        input, output and central buffer flits (default 256)\n"
    "  --dtable N,GMTU,W,K     DTable methodology parameters (default 64,MTU,3,2)\n"
    "  --entries SL:N,...      DTable entries per SL (default: N split by weight)\n"
    "  --ib-high SL,...        SLs whose VLs go in InfiniBand's high-priority table\n"
    "  --ib-limit N            LimitOfHighPriority, 0..255 (default 255: no limit)\n"
    "  --csv FILE              one row per (scheduler, traffic, load, SL), with a header\n"
    "  --json FILE             the rows as JSON, with the version and the flags\n"
    "\n"
    "Exit status: 0 done; 2 bad input; 3 an output could not be written.\n";

std::vector<cli::token> named(const std::string& name) {
  const auto tokens = [&](std::vector<std::string> words) {
    std::vector<cli::token> t;
    for (std::string& w : words) t.push_back({std::move(w), "--preset " + name});
    return t;
  };
  if (name == "A") {
    return tokens({"--sl2sc", "0:0,1:1,2:2", "--sc2vl", "0:0,1:1,2:2", "--generation",
                   "0.5,0.4,0.1", "--table", "0:60,1:30,2:10"});
  }
  if (name == "B") {
    return tokens({"--sl2sc", "0:1,1:2,2:3", "--sc2vl", "0:0,1:1,2:2,3:2", "--generation",
                   "0.4,0.5,0.1", "--table", "0:50,1:30,2:20"});
  }
  return {};
}

// "K:V,K:V,..." with every key 0..n-1 exactly once, values in lo..hi.
std::vector<std::size_t> key_values(const std::string& flag, const std::string& text,
                                    std::size_t max_key, std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> out;
  std::vector<bool> seen;
  for (const std::string& part : cli::split(text)) {
    const std::size_t colon = part.find(':');
    if (colon == std::string::npos)
      throw cli::bad_input{flag + ": '" + part.substr(0, 40) + "' is not KEY:VALUE"};
    const std::size_t k = cli::number(flag, part.substr(0, colon), 0, max_key);
    const std::size_t v = cli::number(flag, part.substr(colon + 1), lo, hi);
    if (k >= out.size()) {
      out.resize(k + 1, 0);
      seen.resize(k + 1, false);
    }
    if (seen[k]) throw cli::bad_input{flag + ": key " + std::to_string(k) + " given twice"};
    seen[k] = true;
    out[k] = v;
  }
  for (std::size_t k = 0; k < seen.size(); ++k)
    if (!seen[k])
      throw cli::bad_input{flag + ": key " + std::to_string(k) + " missing (keys are 0.." +
                           std::to_string(seen.size() - 1) + ")"};
  return out;
}

// The flag a configuration error of the switch, its traffic or a scheduler's
// table is about, from the library's field name.
std::string flag_of_field(const std::string& field) {
  static const char* const fields[][2] = {
      {"sum of weights", "--table"},
      {"number of shares", "--table"},
      {"phi of", "--table"},
      {"sum of phi", "--table"},
      {"sum of n_i", "--entries"},
      {"w", "--dtable"},
      {"k", "--dtable"},
      {"mport_ports", "--mport-ports"},
      {"ports", "--ports"},
      {"generation", "--generation"},
      {"packet sizes", "--packet-flits"},
      {"sl2sc", "--sl2sc"},
      {"sc2vl", "--sc2vl"},
      {"vl_min_flits", "--buffer-flits"},
      {"vl_max_flits", "--buffer-flits"},
      {"input_flits", "--buffer-flits"},
  };
  for (const auto& f : fields) {
    const std::string name = f[0];
    if (field == name || (name.size() > 2 && field.compare(0, name.size(), name) == 0)) return f[1];
  }
  return "--config";
}

struct options {
  std::vector<std::size_t> sl2sc{0, 1, 2}, sc2vl{0, 1, 2}, table{60, 30, 10}, entries;
  std::vector<double> generation{0.5, 0.4, 0.1};
  std::vector<std::string> schedulers{"sbt", "round_robin"}, traffic{"uniform", "shift"};
  std::vector<double> loads;
  double max_load = 1.0;
  std::size_t seeds = 3, cycles = 20000, ports = 48, mport_ports = 4;
  std::uint32_t packet_flits = 16, buffer_flits = 256;
  std::size_t dtable_entries = 64;
  std::uint32_t dtable_gmtu = 0;  // 0: the packet's credits
  double dtable_w = 3, dtable_k = 2;
  std::vector<std::size_t> ib_high;
  std::size_t ib_limit = 255;
  std::string csv;
  std::string json;  // --json FILE
};

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
    net.run(p, load, 5000, o.cycles, seed);
    return net.results();
  });
}

int run(int argc, char** argv) {
  options o;
  bool full = false, sweep = false, seeds_given = false;
  cli::flags flags(
      argc, argv, [](const std::string& f) { return f == "--full" || f == "--sweep"; }, named);
  const std::string config = !flags.preset().empty()  ? flags.preset()
                             : flags.config().empty() ? "A"
                                                      : flags.config();
  flags.for_each([&](const std::string& flag, const auto& value) {
    if (flag == "--sl2sc") {
      o.sl2sc = key_values(flag, value(), 31, 0, 31);
    } else if (flag == "--sc2vl") {
      o.sc2vl = key_values(flag, value(), 31, 0, 31);
    } else if (flag == "--generation") {
      o.generation.clear();
      for (const std::string& s : cli::split(value()))
        o.generation.push_back(cli::real(flag, s, 0, 1));
    } else if (flag == "--table") {
      o.table = key_values(flag, value(), 31, 0, 100);
    } else if (flag == "--scheduler") {
      o.schedulers = cli::names(flag, value(), cli::catalogue::names("qos_scheduler"));
    } else if (flag == "--traffic") {
      o.traffic = cli::names(flag, value(), {"uniform", "shift"});
    } else if (flag == "--load") {
      o.loads = {cli::real(flag, value(), 0.01, 4)};
    } else if (flag == "--sweep") {
      sweep = true;
    } else if (flag == "--max-load") {
      o.max_load = cli::real(flag, value(), 0.1, 4);
    } else if (flag == "--seeds") {
      o.seeds = cli::number(flag, value(), 1, 1000);
      seeds_given = true;
    } else if (flag == "--full") {
      full = true;
    } else if (flag == "--cycles") {
      o.cycles = cli::number(flag, value(), 1000, 100000000);
    } else if (flag == "--ports") {
      o.ports = cli::number(flag, value(), 2, 256);
    } else if (flag == "--mport-ports") {
      o.mport_ports = cli::number(flag, value(), 1, 256);
    } else if (flag == "--packet-flits") {
      o.packet_flits = static_cast<std::uint32_t>(cli::number(flag, value(), 1, 4096));
    } else if (flag == "--buffer-flits") {
      o.buffer_flits = static_cast<std::uint32_t>(cli::number(flag, value(), 1, 1u << 20));
    } else if (flag == "--dtable") {
      const auto parts = cli::split(value());
      if (parts.size() != 4) throw cli::bad_input{flag + ": four values N,GMTU,W,K"};
      o.dtable_entries = cli::number(flag, parts[0], 1, 256);
      o.dtable_gmtu = static_cast<std::uint32_t>(cli::number(flag, parts[1], 0, 1u << 16));
      o.dtable_w = cli::real(flag, parts[2], 0.01, 65536);
      o.dtable_k = cli::real(flag, parts[3], 0.01, 65536);
    } else if (flag == "--entries") {
      o.entries = key_values(flag, value(), 31, 1, 256);
    } else if (flag == "--ib-high") {
      o.ib_high.clear();
      for (const std::string& s : cli::split(value()))
        o.ib_high.push_back(cli::number(flag, s, 0, 31));
    } else if (flag == "--ib-limit") {
      o.ib_limit = cli::number(flag, value(), 0, 255);
    } else if (flag == "--csv") {
      o.csv = value();
    } else if (flag == "--json") {
      o.json = value();
    } else {
      throw cli::bad_input{flag + ": unknown option (see --help)"};
    }
  });
  if (sweep && !o.loads.empty()) throw cli::bad_input{"--sweep: not with --load"};
  // A flag the chosen schedulers do not read is refused (presets A and B
  // set --table for every scheduler: only a flag the user gave counts).
  const auto user_given = [&](const char* f) {
    for (const cli::token& t : flags.words())
      if (t.text == f && t.where.rfind("--preset ", 0) != 0) return true;
    return false;
  };
  const auto uses = [&](const std::vector<std::string>& names) {
    for (const std::string& s : o.schedulers)
      for (const std::string& n : names)
        if (s == n) return true;
    return false;
  };
  struct scheduler_flag {
    const char* flag;
    std::vector<std::string> schedulers;
    const char* which;
  };
  const scheduler_flag scheduler_flags[] = {
      {"--table", {"sbt", "dtable", "ib"}, "sbt, dtable and ib"},
      {"--dtable", {"dtable"}, "dtable"},
      {"--entries", {"dtable"}, "dtable"},
      {"--ib-high", {"ib"}, "ib"},
      {"--ib-limit", {"ib"}, "ib"}};
  for (const scheduler_flag& f : scheduler_flags)
    if (user_given(f.flag) && !uses(f.schedulers)) {
      std::string list;
      for (const std::string& s : o.schedulers) list += (list.empty() ? "" : ",") + s;
      throw cli::bad_input{std::string(f.flag) + ": does not apply to --scheduler " + list +
                           " (only " + f.which + " read it)"};
    }
  if (o.loads.empty())
    for (int i = 1; i <= static_cast<int>(o.max_load * 10 + 1e-9); ++i) o.loads.push_back(i / 10.0);
  if (full && !seeds_given) o.seeds = 30;
  const std::size_t sls = o.sl2sc.size();
  if (o.generation.size() != sls)
    throw cli::bad_input{"--generation: " + std::to_string(o.generation.size()) + " shares for " +
                         std::to_string(sls) + " SLs (--sl2sc)"};
  if (o.table.size() != sls)
    throw cli::bad_input{"--table: " + std::to_string(o.table.size()) + " weights for " +
                         std::to_string(sls) + " SLs (--sl2sc)"};

  std::vector<std::uint8_t> sl2sc(o.sl2sc.begin(), o.sl2sc.end());
  std::vector<std::uint8_t> sc2vl(o.sc2vl.begin(), o.sc2vl.end());
  const interlock::model::service_levels levels(sl2sc, sc2vl);
  interlock::model::switch_shape shape = interlock::model::opa_48_port();
  shape.ports = o.ports;
  shape.mport_ports = o.mport_ports;
  shape.input_flits = shape.output_flits = shape.central_flits = o.buffer_flits;
  shape.vl_max_flits = o.buffer_flits;
  shape.vl_min_flits = std::min(o.packet_flits, o.buffer_flits / std::uint32_t(levels.vls()));
  shape.check();
  const interlock::model::sl_traffic traffic{o.generation,
                                             std::vector<std::uint32_t>(sls, o.packet_flits)};
  traffic.check(sls, std::min(o.buffer_flits, shape.vl_max_flits));
  std::vector<std::uint32_t> weights(o.table.begin(), o.table.end());

  cli::table_output csv(o.csv, o.json, "qos_switch", flags.settings());
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
  std::printf(
      "%zu-port switch (MPorts of %zu), %u-flit packets, %u-flit buffers; configuration %s: %zu "
      "SLs, %zu VLs, %zu seed(s) x %zu cycles per point\n",
      o.ports, o.mport_ports, o.packet_flits, o.buffer_flits, config.c_str(), sls, levels.vls(),
      o.seeds, o.cycles);
  for (const std::string& name : o.schedulers) {
    const auto sweep_with = [&](const auto& scheduler, const std::string& note) {
      for (const std::string& tr : o.traffic) {
        const auto pattern = tr == "shift" ? interlock::model::switch_pattern::shift
                                           : interlock::model::switch_pattern::uniform;
        std::printf("\n%s, %s traffic%s\n  %5s", name.c_str(), tr.c_str(), note.c_str(), "load");
        for (std::size_t sl = 0; sl < sls; ++sl) std::printf(" | SL%zu thr  norm  latency net", sl);
        std::printf("\n");
        for (const double load : o.loads) {
          const auto mean = run_point(scheduler, o, shape, levels, traffic, pattern, load);
          std::printf("  %5.2f", load);
          for (std::size_t sl = 0; sl < sls; ++sl) {
            const auto& m = mean[sl];
            std::printf(" | %7.3f %5.3f %7.0f %4.0f", m.throughput, m.normalized_throughput,
                        m.latency_mean, m.network_latency_mean);
            csv.line(cli::format("%s,%s,%s,%.2f,%zu,%.5f,%.5f,%.5f,%.1f,%.1f", config.c_str(),
                                 name.c_str(), tr.c_str(), load, sl, m.offered, m.throughput,
                                 m.normalized_throughput, m.latency_mean, m.network_latency_mean));
          }
          std::printf("\n");
        }
      }
    };
    with_scheduler(name, sweep_with);
  }
  csv.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("qos_switch", help, "try fewer --ports", argc, argv, [&] {
    try {
      return run(argc, argv);
    } catch (const interlock::config_error& e) {
      throw cli::bad_input{flag_of_field(e.field()) + ": " + e.field() + " = " + e.value() +
                           "; allowed: " + e.allowed()};
    }
  });
}
