// SPDX-License-Identifier: BSL-1.0
// ib_analyze's settings, each declared once in settings() (settings.hpp):
// the parser, --help's option lines and --write-config come from that table,
// read by the tools' shared layer (cli.hpp; --config FILE too, whose
// relative table paths are found beside it). Shared by the tool and by the
// fuzz harness of its flag parsing (tests/fuzz/tool_flags_fuzz.cpp): parse()
// throws bad_input naming the flag for anything it refuses and nothing else.
#ifndef INTERLOCK_EXAMPLES_IB_ANALYZE_ARGS_HPP
#define INTERLOCK_EXAMPLES_IB_ANALYZE_ARGS_HPP

#include <interlock/qos/ib_vl_arbiter.hpp>

#include <string>

#include "cli.hpp"
#include "settings.hpp"

namespace ib_analyze_tool {

using cli::bad_input;

struct arguments {
  std::string high, low;
  unsigned limit = 1;
  unsigned long runs = 30;
  unsigned long packet_bytes = 64;
  interlock::qos::low_priority_turn turn = interlock::qos::low_priority_turn::whole_entry;
  unsigned long max_packets = 10000000000;  // refuse a longer analysis (about 20 s)
};

/// ib_analyze's settings, each declared once, in --help's order.
inline const cli::setting_table<arguments>& settings() {
  using a = arguments;
  using cli::whole;
  const auto path = [](const char* flag, auto get, const char* help) {
    return cli::custom<a>(
        flag, "FILE", help, [get](a& s, const std::string& v) { get(s) = v; },
        [get](const a& s) { return get(s); });
  };
  static const cli::setting_table<arguments> table({
      path(
          "--high", [](auto& s) -> auto& { return s.high; }, "the high-priority table (required)")
          .defaults("-"),
      path(
          "--low", [](auto& s) -> auto& { return s.low; }, "the low-priority table")
          .when([](const a& s) { return !s.low.empty(); }, "")
          .defaults("none"),
      whole<a>(
          "--limit", "L", [](auto& s) -> auto& { return s.limit; }, 0, 255,
          "LimitOfHighPriority 0..255, in units of 4096 bytes: the low-priority table gets a "
          "turn once L * 4096 high-priority bytes were sent (0: after every high-priority "
          "packet; 255: never)"),
      whole<a>(
          "--runs", "R", [](auto& s) -> auto& { return s.runs; }, 1, 1000000,
          "high-priority table cycles to simulate, 1..1000000 (more for configurations that "
          "converge slowly)"),
      whole<a>(
          "--packet-size", "B", [](auto& s) -> auto& { return s.packet_bytes; }, 1,
          interlock::qos::ib::max_packet_bytes,
          "every packet's size in bytes, 1..4222. An entry sends whole packets while weight is "
          "left, each spending its size in whole 64-byte units, so it sends ceil(weight / "
          "ceil(B / 64)) packets: at 64 bytes, one packet per weight unit, as Algorithm 4 "
          "counts. The thesis's Table 6.1 figures (SL3 at 8.57% with --runs 300) arise at 64 "
          "bytes; with 4096-byte packets every entry of weight <= 64 sends one packet"),
      cli::custom<a>(
          "--low-turn", "T",
          "entry: a low-priority turn serves a whole entry, as the thesis's tool does; "
          "packet: one packet, as the InfiniBand specification words it",
          [](a& s, const std::string& v) {
            if (v == "entry") {
              s.turn = interlock::qos::low_priority_turn::whole_entry;
            } else if (v == "packet") {
              s.turn = interlock::qos::low_priority_turn::one_packet;
            } else {
              throw bad_input{"--low-turn: '" + v.substr(0, 80) + "'; allowed: entry, packet"};
            }
          },
          [](const a& s) {
            return std::string(s.turn == interlock::qos::low_priority_turn::whole_entry ? "entry"
                                                                                        : "packet");
          }),
      whole<a>(
          "--max-packets", "N", [](auto& s) -> auto& { return s.max_packets; }, 1, 999999999999ul,
          "refuse an analysis that could walk more packets (about 20 s at the default; "
          "estimated before it starts)")
          .control(),
  });
  return table;
}

inline arguments parse(int argc, char** argv) {
  arguments a;
  const cli::flags flags = settings().parse(argc, argv, a);
  if (a.high.empty()) throw bad_input{"--high: missing (the high-priority table is required)"};
  flags.write_resolved(settings().resolved(a));
  return a;
}

}  // namespace ib_analyze_tool

#endif  // INTERLOCK_EXAMPLES_IB_ANALYZE_ARGS_HPP
