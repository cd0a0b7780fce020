// SPDX-License-Identifier: BSL-1.0
// qos_switch's flags: configurations A and B of [QoSThesis] Table 2.2 as
// presets, the SL maps, shares and tables as KEY:VALUE lists (every key
// once), every flag checked where it enters and against the others (a flag
// no chosen scheduler reads is refused, naming both), and the resolved
// configuration that --write-config writes and --config reads back.
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
  std::vector<double> loads;
  double max_load = 1.0;
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
};

bool is_switch(const std::string& flag) {
  return cli::experiment_flags::is_switch(flag) || flag == "--sweep";
}

/// "K:V,..." of `values` (keys 0..n-1).
template <class Values>
std::string key_value_text(const Values& values) {
  std::string text;
  for (std::size_t k = 0; k < values.size(); ++k)
    text += (k ? "," : "") + std::to_string(k) + ":" + std::to_string(values[k]);
  return text;
}

/// The flags read, checked, with presets and defaults applied; the resolved
/// configuration handed to `shared` (every key the run reads, in flag syntax).
inline options parse(int argc, char** argv, cli::experiment_flags& shared) {
  options o;
  bool sweep = false;
  cli::flags flags = shared.read(
      argc, argv,
      [&](const std::string& flag, const auto& value) {
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
        } else if (flag == "--first-seed") {
          o.first_seed = cli::number(flag, value(), 1, 1000000);
        } else if (flag == "--speedup") {
          const std::string text = value();
          const auto parts = cli::split(text, '/');
          if (parts.size() != 2)
            throw cli::bad_input{flag + ": '" + text.substr(0, 40) +
                                 "'; allowed: M/C, the MPort links' and the central crossbar's "
                                 "flits per cycle, each 0.5..16 in steps of 0.5 (e.g. 3/4)"};
          std::uint32_t* halves[] = {&o.mport_halves, &o.central_halves};
          for (std::size_t k = 0; k < 2; ++k) {
            const double x = cli::real(flag, parts[k], 0.5, 16);
            if (x * 2 != std::floor(x * 2))
              throw cli::bad_input{flag + ": '" + parts[k].substr(0, 40) +
                                   "' is not a multiple of 0.5 flits per cycle"};
            *halves[k] = static_cast<std::uint32_t>(x * 2);
          }
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
        } else if (flag == "--vl-flits") {
          const auto parts = cli::split(value());
          if (parts.size() != 2) throw cli::bad_input{flag + ": two values MIN,MAX"};
          o.vl_min = static_cast<std::uint32_t>(cli::number(flag, parts[0], 0, 1u << 20));
          o.vl_max = static_cast<std::uint32_t>(cli::number(flag, parts[1], 1, 1u << 20));
          if (o.vl_min > o.vl_max)
            throw cli::bad_input{flag + ": MIN " + parts[0] + " above MAX " + parts[1]};
        } else if (o.readings.take(flag, value)) {
          // switch_readings.hpp
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
        } else if (flag == "--label") {
          o.label = value();
          if (o.label.empty() || o.label.size() > 64 ||
              o.label.find_first_of(",\"\n\r") != std::string::npos)
            throw cli::bad_input{flag + ": '" + o.label.substr(0, 80) +
                                 "'; allowed: 1..64 characters, no comma, quote or newline"};
        } else {
          throw cli::bad_input{flag + ": unknown option (see --help)"};
        }
      },
      named, is_switch);
  o.label = !o.label.empty()          ? o.label
            : !flags.preset().empty() ? flags.preset()
            : flags.config().empty()  ? "A"
                                      : flags.config();
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
  if (shared.full && !flags.given("--seeds")) o.seeds = 30;
  const std::size_t sls = o.sl2sc.size();
  if (o.generation.size() != sls)
    throw cli::bad_input{"--generation: " + std::to_string(o.generation.size()) + " shares for " +
                         std::to_string(sls) + " SLs (--sl2sc)"};
  if (uses({"sbt", "dtable", "ib"}) && o.table.size() != sls)
    throw cli::bad_input{"--table: " + std::to_string(o.table.size()) + " weights for " +
                         std::to_string(sls) + " SLs (--sl2sc)"};

  const auto reals = [](const std::vector<double>& v) {
    std::string text;
    for (const double x : v) text += (text.empty() ? "" : ",") + cli::real_text(x);
    return text;
  };
  cli::settings_list resolved = {{"label", o.label},
                                 {"sl2sc", key_value_text(o.sl2sc)},
                                 {"sc2vl", key_value_text(o.sc2vl)},
                                 {"generation", reals(o.generation)},
                                 {"scheduler", cli::joined(o.schedulers)},
                                 {"traffic", cli::joined(o.traffic)}};
  if (uses({"sbt", "dtable", "ib"})) resolved.emplace_back("table", key_value_text(o.table));
  if (flags.given("--load")) {
    resolved.emplace_back("load", reals(o.loads));
  } else {
    resolved.emplace_back("max-load", cli::real_text(o.max_load));
  }
  const auto flits_per_cycle = [](std::uint32_t halves) {
    return halves % 2 == 0 ? std::to_string(halves / 2) : cli::real_text(halves / 2.0);
  };
  resolved.emplace_back("speedup",
                        flits_per_cycle(o.mport_halves) + "/" + flits_per_cycle(o.central_halves));
  for (const auto& kv :
       std::vector<std::pair<const char*, std::size_t>>{{"seeds", o.seeds},
                                                        {"first-seed", o.first_seed},
                                                        {"cycles", o.cycles},
                                                        {"ports", o.ports},
                                                        {"mport-ports", o.mport_ports},
                                                        {"packet-flits", o.packet_flits},
                                                        {"buffer-flits", o.buffer_flits}})
    resolved.emplace_back(kv.first, std::to_string(kv.second));
  for (auto& kv : o.readings.settings()) resolved.emplace_back(kv.first, kv.second);
  if (o.vl_max != 0)
    resolved.emplace_back("vl-flits", std::to_string(o.vl_min) + "," + std::to_string(o.vl_max));
  for (const std::string& s : o.schedulers) {
    if (s == "dtable") {
      resolved.emplace_back(
          "dtable", std::to_string(o.dtable_entries) + "," + std::to_string(o.dtable_gmtu) + "," +
                        cli::real_text(o.dtable_w) + "," + cli::real_text(o.dtable_k));
      if (!o.entries.empty()) resolved.emplace_back("entries", key_value_text(o.entries));
    }
    if (s == "ib") {
      if (!o.ib_high.empty()) resolved.emplace_back("ib-high", cli::joined(o.ib_high));
      resolved.emplace_back("ib-limit", std::to_string(o.ib_limit));
    }
  }
  shared.resolve(flags, std::move(resolved));
  return o;
}

}  // namespace qos_switch_tool

#endif  // INTERLOCK_EXAMPLES_QOS_SWITCH_ARGS_HPP
