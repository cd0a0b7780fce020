// SPDX-License-Identifier: BSL-1.0
// qos_plan's settings, each declared once (cli::setting_table): the SLs'
// requirements, the table's size and decoupling parameters, the runs of the
// switch that check the plan, and the estimate that refuses runs past
// --max-work. parse() reads them (--config FILE too) and throws bad_input
// naming the flag, with FILE:LINE:COLUMN when a file gave it.
#ifndef INTERLOCK_EXAMPLES_QOS_PLAN_ARGS_HPP
#define INTERLOCK_EXAMPLES_QOS_PLAN_ARGS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli.hpp"
#include "experiment.hpp"
#include "settings.hpp"

namespace qos_plan_tool {

/// One SL's requirement: its share of the bandwidth, the largest distance
/// between its table entries, its MTU.
struct requirement {
  std::string name;
  double share = 0;
  std::size_t distance = 0;
  std::uint32_t mtu_bytes = 0;
};

/// NAME:SHARE:DISTANCE:MTU_BYTES,...: 1..15 SLs, each name once.
inline std::vector<requirement> parse_sls(const std::string& flag, const std::string& text) {
  std::vector<requirement> out;
  for (const std::string& item : cli::split(text)) {
    const std::vector<std::string> f = cli::split(item, ':');
    if (f.size() != 4 || f[0].empty())
      throw cli::bad_input{flag + ": '" + item.substr(0, 60) +
                           "' is not NAME:SHARE:DISTANCE:MTU_BYTES"};
    if (f[0].size() > 16)
      throw cli::bad_input{flag + ": the name '" + f[0].substr(0, 40) +
                           "' is longer than 16 characters"};
    for (const requirement& r : out)
      if (r.name == f[0]) throw cli::bad_input{flag + ": the SL '" + f[0] + "' given twice"};
    requirement r;
    r.name = f[0];
    r.share = cli::real(flag, f[1], 0.000001, 1);
    r.distance = cli::number(flag, f[2], 1, 256);
    r.mtu_bytes = static_cast<std::uint32_t>(cli::number(flag, f[3], 1, 65536));
    out.push_back(r);
  }
  if (out.size() > 15)
    throw cli::bad_input{flag + ": " + std::to_string(out.size()) + " SLs; allowed 1..15"};
  return out;
}

inline std::string sls_text(const std::vector<requirement>& sls) {
  std::string out;
  for (const requirement& r : sls)
    out += (out.empty() ? "" : ",") + r.name + ":" + cli::real_text(r.share) + ":" +
           std::to_string(r.distance) + ":" + std::to_string(r.mtu_bytes);
  return out;
}

/// Table 5.4's requirements.
constexpr const char* table_5_4 =
    "NC:0.094:2:192,VO:0.164:4:128,VI:0.3:8:2048,CL:0.35:16:2048,EE:0.04:32:1024,"
    "BE:0.036:64:1024,BK:0.016:64:1024";

struct settings {
  std::vector<requirement> sls = parse_sls("--sls", table_5_4);
  std::size_t entries = 64;
  std::uint32_t gmtu_bytes = 0;  // 0: the largest MTU
  double w = 0, k = 0;           // 0: searched
  std::vector<double> loads{0.6, 1.2};
  std::size_t seeds = 2, cycles = 20000;
  bool whole_packets = false;
  std::string csv;
  std::uint64_t max_work = 100000000000;
};

/// The warm-up of every run, in cycles.
constexpr std::size_t warmup = 5000;
/// The switch's ports.
constexpr std::size_t ports = 48;

inline const cli::setting_table<settings>& table() {
  using s_t = settings;
  static const cli::setting_table<s_t> t({
      cli::custom<s_t>(
          "--sls", "LIST",
          "NAME:SHARE:DISTANCE:MTU_BYTES per SL, comma-separated (default Table 5.4's "
          "NC:0.094:2:192, VO:0.164:4:128, VI:0.3:8:2048, CL:0.35:16:2048, EE:0.04:32:1024, "
          "BE:0.036:64:1024, BK:0.016:64:1024)",
          [](s_t& s, const std::string& v) { s.sls = parse_sls("--sls", v); },
          [](const s_t& s) { return sls_text(s.sls); })
          .axis()
          .defaults("-"),
      cli::whole<s_t>(
          "--entries", "N", [](auto& s) -> auto& { return s.entries; }, 1, 256, "table entries"),
      cli::whole<s_t>(
          "--gmtu", "BYTES", [](auto& s) -> auto& { return s.gmtu_bytes; }, 64, 65536,
          "the general MTU")
          .when([](const s_t& s) { return s.gmtu_bytes != 0; }, "a given general MTU")
          .defaults("the largest MTU"),
      cli::decimal<s_t>(
          "--w", "W", [](auto& s) -> auto& { return s.w; }, 0.1, 4096,
          "the decoupling parameter w, with --k; Table 5.4 takes w = 3, k = 0.5")
          .when([](const s_t& s) { return s.w != 0; }, "given w")
          .defaults("searched as above"),
      cli::decimal<s_t>(
          "--k", "K", [](auto& s) -> auto& { return s.k; }, 0.1, 4096,
          "the decoupling parameter k, with --w")
          .when([](const s_t& s) { return s.k != 0; }, "given k")
          .defaults("searched as above"),
      cli::custom<s_t>(
          "--loads", "L,...", "offered loads, flits/cycle/NIC",
          [](s_t& s, const std::string& v) { s.loads = cli::reals("--loads", v, 0.01, 4); },
          [](const s_t& s) {
            std::string out;
            for (const double l : s.loads) out += (out.empty() ? "" : ",") + cli::real_text(l);
            return out;
          })
          .axis(),
      cli::whole<s_t>(
          "--seeds", "N", [](auto& s) -> auto& { return s.seeds; }, 1, 1000,
          "runs averaged per point"),
      cli::whole<s_t>(
          "--cycles", "N", [](auto& s) -> auto& { return s.cycles; }, 1000, 100000000,
          "measured cycles per run (after 5000 of warm-up)"),
      cli::toggle<s_t>(
          "--whole-packets", [](auto& s) -> auto& { return s.whole_packets; },
          "packets cross the crossbars only once wholly in their input buffer (default: "
          "cut-through)"),
      cli::output<s_t>(
          "--csv", [](auto& s) -> auto& { return s.csv; },
          "one row per (scheduler, load, SL), with a header, then every setting"),
      cli::whole<s_t>(
          "--max-work", "N", [](auto& s) -> auto& { return s.max_work; }, 1, 1000000000000000000,
          "refuse runs estimated past N port-cycles")
          .control()
          .defaults("1e11, about 9 hours"),
  });
  return t;
}

/// The settings read and checked; the configuration as run written to
/// --write-config (--gmtu, --w and --k only when given: left out, the run
/// derives them again).
inline settings parse(int argc, char** argv) {
  settings s;
  const cli::flags flags = table().parse(argc, argv, s);
  if ((s.w > 0) != (s.k > 0))
    throw cli::setting_table<settings>::refusal(flags, s.w > 0 ? "--w" : "--k",
                                                "--w: give --w and --k together, or neither");
  // Two schedulers, every load, every seed: the switch's ports for the
  // warm-up and the measured cycles.
  const double work = static_cast<double>(ports) * static_cast<double>(warmup + s.cycles) * 2.0 *
                      static_cast<double>(s.loads.size() * s.seeds);
  cli::refuse_work(work, s.max_work, "port-cycles", "lower --seeds, --cycles or the loads");
  flags.write_resolved(table().resolved(s));
  return s;
}

}  // namespace qos_plan_tool

#endif  // INTERLOCK_EXAMPLES_QOS_PLAN_ARGS_HPP
