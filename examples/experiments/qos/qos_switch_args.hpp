// SPDX-License-Identifier: BSL-1.0
// qos_switch's settings, each declared once (cli/settings.hpp): configurations
// A and B of [QoSThesis] Table 2.2 as presets, the SL maps, shares and tables
// as KEY:VALUE lists (every key once), every flag checked where it enters and
// against the others (a flag no chosen scheduler reads is refused, naming
// both). The table makes the parser, --help's lines, the configuration as
// run (--write-config, --json's) and the CSV's configuration columns.
#ifndef INTERLOCK_EXAMPLES_QOS_SWITCH_ARGS_HPP
#define INTERLOCK_EXAMPLES_QOS_SWITCH_ARGS_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "catalogue.hpp"
#include "cli.hpp"
#include "experiment.hpp"
#include "settings.hpp"
#include "switch_readings.hpp"

namespace qos_switch_tool {

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
  double load = 0;  // --load: the one rate run (0: the sweep up to max_load)
  bool sweep = false;
  double max_load = 1.0;
  std::vector<double> loads;  // the rates run: --load's, or the sweep's
  std::size_t seeds = 3, first_seed = 1, cycles = 20000, ports = 48, mport_ports = 4;
  // --speedup M/C: the MPort links' and the central crossbar's speed-ups in
  // half flits per cycle (x3/x4 by default).
  std::uint32_t mport_halves = 6, central_halves = 8;
  std::uint32_t packet_flits = 16, buffer_flits = 256;
  std::size_t dtable_entries = 64;
  std::uint32_t dtable_gmtu = 0;  // 0: the packet's credits
  double dtable_w = 3, dtable_k = 2;
  std::vector<std::size_t> ib_high;
  std::size_t ib_limit = 255;
  std::string label;                    // the table's config column
  qos_tools::switch_readings readings;  // --va-rule, --routing-unit, --storing-unit, --queues
  // --vl-flits MIN,MAX: each VL's guaranteed and largest share of a buffer
  // (0, 0: not given, the defaults).
  std::uint32_t vl_min = 0, vl_max = 0;
  cli::experiment_flags shared;  // --full, --csv, --json, --jobs, --max-work

  bool uses(const std::vector<std::string>& names) const {
    for (const std::string& s : schedulers)
      for (const std::string& n : names)
        if (s == n) return true;
    return false;
  }
};

/// "K:V,..." of `values` (keys 0..n-1).
template <class Values>
std::string key_value_text(const Values& values) {
  std::string text;
  for (std::size_t k = 0; k < values.size(); ++k)
    text += (k ? "," : "") + std::to_string(k) + ":" + std::to_string(values[k]);
  return text;
}

inline std::string reals_text(const std::vector<double>& v) {
  std::string text;
  for (const double x : v) text += (text.empty() ? "" : ",") + cli::real_text(x);
  return text;
}

/// Flits per cycle from half flits: "3", or "1.5".
inline std::string flits_per_cycle(std::uint32_t halves) {
  return halves % 2 == 0 ? std::to_string(halves / 2) : cli::real_text(halves / 2.0);
}

/// A KEY:VALUE list setting (keys 0..max_key, values lo..hi).
inline cli::setting<options> key_value_setting(const char* flag, const char* value_name,
                                               std::vector<std::size_t> options::*member,
                                               std::size_t max_key, std::size_t lo, std::size_t hi,
                                               const char* help) {
  return cli::custom<options>(
      flag, value_name, help,
      [=](options& o, const std::string& v) { o.*member = key_values(flag, v, max_key, lo, hi); },
      [=](const options& o) { return key_value_text(o.*member); });
}

/// qos_switch's settings, each declared once, in --help's order.
inline const cli::setting_table<options>& settings() {
  using o_t = options;
  using cli::custom;
  using cli::whole;
  static const cli::setting_table<options> table([] {
    const auto scheduled = [](const char* which, std::vector<std::string> names) {
      return std::make_pair([names](const o_t& o) { return o.uses(names); },
                            std::string("--scheduler ") + which + " (the schedulers that read it)");
    };
    const auto tables = scheduled("sbt, dtable or ib", {"sbt", "dtable", "ib"});
    const auto dtable = scheduled("dtable", {"dtable"});
    const auto ib = scheduled("ib", {"ib"});
    std::vector<cli::setting<o_t>> list{
        custom<o_t>(
            "--label", "NAME",
            "the table's config column: 1..64 characters, no comma, quote or newline "
            "(default: the preset, the --config file's name, or A)",
            [](o_t& o, const std::string& v) {
              if (v.size() > 64 || v.find_first_of(",\"\n\r") != std::string::npos)
                throw cli::bad_input{"--label: '" + v.substr(0, 80) +
                                     "'; allowed: 1..64 characters, no comma, quote or newline"};
              o.label = v;
            },
            [](const o_t& o) { return o.label; })
            .axis()  // the first column, config
            .defaults("-"),
        key_value_setting("--sl2sc", "SL:SC,...", &o_t::sl2sc, 31, 0, 31,
                          "each SL's SC (SLs 0..n-1, each once)"),
        key_value_setting("--sc2vl", "SC:VL,...", &o_t::sc2vl, 31, 0, 31, "each SC's VL"),
        custom<o_t>(
            "--generation", "S0,S1,...", "each SL's share of the injected flits (sum 1)",
            [](o_t& o, const std::string& v) {
              o.generation.clear();
              for (const std::string& x : cli::split(v))
                o.generation.push_back(cli::real("--generation", x, 0, 1));
            },
            [](const o_t& o) { return reals_text(o.generation); }),
        key_value_setting("--table", "SL:W,...", &o_t::table, 31, 0, 100,
                          "the output table: each SL's weight (sum 100)")
            .when(tables.first, tables.second),
        custom<o_t>(
            "--scheduler", "LIST",
            "round_robin, sbt, dtable, ib, comma-separated. dtable: a table planned by the "
            "configuration methodology with shares weight/100; ib: the low-priority table, "
            "each VL weighted by its SLs' weights",
            [](o_t& o, const std::string& v) {
              o.schedulers = cli::names("--scheduler", v, cli::catalogue::names("qos_scheduler"));
            },
            [](const o_t& o) { return cli::joined(o.schedulers); })
            .axis(),
        custom<o_t>(
            "--traffic", "LIST", "uniform, shift",
            [](o_t& o, const std::string& v) {
              o.traffic = cli::names("--traffic", v, {"uniform", "shift"});
            },
            [](const o_t& o) { return cli::joined(o.traffic); })
            .axis(),
        cli::decimal<o_t>(
            "--load", "L", [](auto& o) -> auto& { return o.load; }, 0.01, 4,
            "one injection rate, flits/cycle/NIC (0.01..4)")
            .axis()
            .when([](const o_t& o) { return o.load != 0; }, "")
            .defaults("-"),
        cli::toggle<o_t>(
            "--sweep", [](auto& o) -> auto& { return o.sweep; },
            "0.1, 0.2, ... --max-load (the default)")
            .local()
            .when([](const o_t& o) { return o.load == 0; }, "a sweep, not with --load"),
        cli::decimal<o_t>(
            "--max-load", "L", [](auto& o) -> auto& { return o.max_load; }, 0.1, 4,
            "the sweep's last rate, 0.1..4")
            .axis()
            .when([](const o_t& o) { return o.load == 0; }, "a sweep, not with --load"),
        whole<o_t>(
            "--seeds", "N", [](auto& o) -> auto& { return o.seeds; }, 1, 1000,
            "runs averaged per point"),
        whole<o_t>(
            "--first-seed", "S", [](auto& o) -> auto& { return o.first_seed; }, 1, 1000000,
            "the first run's seed: seeds S .. S + N - 1"),
        custom<o_t>(
            "--speedup", "M/C",
            "flits per cycle through the MPort crossbars' links and the central crossbar's, "
            "0.5..16 in steps of 0.5 (3/4: the text's x3 links, the model's x4)",
            [](o_t& o, const std::string& text) {
              const std::string flag = "--speedup";
              const auto parts = cli::split(text, '/');
              if (parts.size() != 2)
                throw cli::bad_input{flag + ": '" + text.substr(0, 40) +
                                     "'; allowed: M/C, the MPort links' and the central "
                                     "crossbar's flits per cycle, each 0.5..16 in steps of 0.5 "
                                     "(e.g. 3/4)"};
              std::uint32_t* halves[] = {&o.mport_halves, &o.central_halves};
              for (std::size_t k = 0; k < 2; ++k) {
                const double x = cli::real(flag, parts[k], 0.5, 16);
                if (x * 2 != std::floor(x * 2))
                  throw cli::bad_input{flag + ": '" + parts[k].substr(0, 40) +
                                       "' is not a multiple of 0.5 flits per cycle"};
                *halves[k] = static_cast<std::uint32_t>(x * 2);
              }
            },
            [](const o_t& o) {
              return flits_per_cycle(o.mport_halves) + "/" + flits_per_cycle(o.central_halves);
            }),
        whole<o_t>(
            "--cycles", "N", [](auto& o) -> auto& { return o.cycles; }, 1000, 100000000,
            "measured cycles per run, after a warm-up of 5000"),
        whole<o_t>(
            "--ports", "P", [](auto& o) -> auto& { return o.ports; }, 2, 256,
            "switch ports (8 is Chapter 5's fat-tree switch)"),
        whole<o_t>(
            "--mport-ports", "M", [](auto& o) -> auto& { return o.mport_ports; }, 1, 256,
            "ports per MPort"),
        whole<o_t>(
            "--packet-flits", "F", [](auto& o) -> auto& { return o.packet_flits; }, 1, 4096,
            "packet size (16: 128 bytes)"),
        whole<o_t>(
            "--buffer-flits", "B", [](auto& o) -> auto& { return o.buffer_flits; }, 1, 1u << 20,
            "input, output and central buffer flits"),
    };
    cli::append(list, qos_tools::switch_readings::settings_of<o_t>());
    cli::append(
        list,
        {custom<o_t>(
             "--vl-flits", "MIN,MAX",
             "each VL's guaranteed and largest share of a buffer (the sharing rule; default: a "
             "packet, or the buffer over the VLs if less, and the whole buffer); MIN = MAX = "
             "the buffer over the VLs is a static split",
             [](o_t& o, const std::string& v) {
               const std::string flag = "--vl-flits";
               const auto parts = cli::split(v);
               if (parts.size() != 2) throw cli::bad_input{flag + ": two values MIN,MAX"};
               o.vl_min = static_cast<std::uint32_t>(cli::number(flag, parts[0], 0, 1u << 20));
               o.vl_max = static_cast<std::uint32_t>(cli::number(flag, parts[1], 1, 1u << 20));
               if (o.vl_min > o.vl_max)
                 throw cli::bad_input{flag + ": MIN " + parts[0] + " above MAX " + parts[1]};
             },
             [](const o_t& o) { return std::to_string(o.vl_min) + "," + std::to_string(o.vl_max); })
             .when([](const o_t& o) { return o.vl_max != 0; }, "")
             .defaults("-"),
         custom<o_t>(
             "--dtable", "N,GMTU,W,K", "DTable methodology parameters",
             [](o_t& o, const std::string& v) {
               const std::string flag = "--dtable";
               const auto parts = cli::split(v);
               if (parts.size() != 4) throw cli::bad_input{flag + ": four values N,GMTU,W,K"};
               o.dtable_entries = cli::number(flag, parts[0], 1, 256);
               o.dtable_gmtu = static_cast<std::uint32_t>(cli::number(flag, parts[1], 0, 1u << 16));
               o.dtable_w = cli::real(flag, parts[2], 0.01, 65536);
               o.dtable_k = cli::real(flag, parts[3], 0.01, 65536);
             },
             [](const o_t& o) {
               return std::to_string(o.dtable_entries) + "," + std::to_string(o.dtable_gmtu) + "," +
                      cli::real_text(o.dtable_w) + "," + cli::real_text(o.dtable_k);
             })
             .when(dtable.first, dtable.second)
             .defaults("64,0,3,2 (GMTU 0: the packet's)"),
         key_value_setting("--entries", "SL:N,...", &o_t::entries, 31, 1, 256,
                           "DTable entries per SL (default: N split by weight)")
             .when([](const o_t& o) { return o.uses({"dtable"}) && !o.entries.empty(); },
                   dtable.second)
             .defaults("-"),
         custom<o_t>(
             "--ib-high", "SL,...", "SLs whose VLs go in InfiniBand's high-priority table",
             [](o_t& o, const std::string& v) {
               o.ib_high.clear();
               for (const std::string& x : cli::split(v)) {
                 o.ib_high.push_back(cli::number("--ib-high", x, 0, 31));
                 if (std::find(o.ib_high.begin(), o.ib_high.end() - 1, o.ib_high.back()) !=
                     o.ib_high.end() - 1)
                   throw cli::bad_input{"--ib-high: SL " + x + " given twice"};
               }
             },
             [](const o_t& o) { return cli::joined(o.ib_high); })
             .when([](const o_t& o) { return o.uses({"ib"}) && !o.ib_high.empty(); }, ib.second)
             .defaults("-"),
         whole<o_t>(
             "--ib-limit", "N", [](auto& o) -> auto& { return o.ib_limit; }, 0, 255,
             "LimitOfHighPriority, 0..255 (255: no limit)")
             .when(ib.first, ib.second)});
    cli::append(list, cli::experiment_flags::settings<o_t>(
                          "30 seeds per point, as the thesis averages (--seeds given keeps its "
                          "value)"));
    return list;
  }());
  return table;
}

/// The label a run without --label gets: the preset's name, the stem of the
/// --config file (characters a CSV cell or the label cannot hold as '_',
/// at most 64), or A.
inline std::string default_label(const cli::flags& flags) {
  if (!flags.preset().empty()) return flags.preset();
  if (flags.config().empty()) return "A";
  std::string stem = flags.config();
  const std::size_t slash = stem.find_last_of('/');
  if (slash != std::string::npos) stem = stem.substr(slash + 1);
  const std::size_t dot = stem.find_last_of('.');
  if (dot != std::string::npos && dot > 0) stem = stem.substr(0, dot);
  for (char& c : stem)
    if (c == ',' || c == '"' || c == '\n' || c == '\r') c = '_';
  return stem.empty() ? "A" : stem.substr(0, 64);
}

/// The flags read, checked, with presets and defaults applied; the resolved
/// configuration written (every key the run reads, in flag syntax).
inline options parse(int argc, char** argv) {
  options o;
  // Presets A and B set --table for every scheduler; only a --table the
  // user gave is refused where no chosen scheduler reads it (parse()).
  const cli::flags flags = settings().parse(argc, argv, o, named);
  if (o.label.empty()) o.label = default_label(flags);
  if (o.load != 0) {
    o.loads = {o.load};
  } else {
    for (int i = 1; i <= static_cast<int>(o.max_load * 10 + 1e-9); ++i) o.loads.push_back(i / 10.0);
  }
  if (o.shared.full && !flags.given("--seeds")) o.seeds = 30;
  using table = cli::setting_table<options>;
  const std::size_t sls = o.sl2sc.size();
  if (o.generation.size() != sls)
    throw table::refusal(flags, "--generation",
                         "--generation: " + std::to_string(o.generation.size()) + " shares for " +
                             std::to_string(sls) + " SLs (--sl2sc)");
  if (o.uses({"sbt", "dtable", "ib"}) && o.table.size() != sls)
    throw table::refusal(flags, "--table",
                         "--table: " + std::to_string(o.table.size()) + " weights for " +
                             std::to_string(sls) + " SLs (--sl2sc)");
  o.shared.resolve(flags, settings().resolved(o));
  return o;
}

}  // namespace qos_switch_tool

#endif  // INTERLOCK_EXAMPLES_QOS_SWITCH_ARGS_HPP
