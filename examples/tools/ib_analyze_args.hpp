// SPDX-License-Identifier: BSL-1.0
// ib_analyze's command line: the flags and their checks, read by the tools'
// shared layer (cli.hpp; --config FILE too). Shared by the tool and by the
// fuzz harness of its flag parsing (tests/fuzz/tool_flags_fuzz.cpp): parse()
// throws bad_input naming the flag for anything it refuses and nothing else.
#ifndef INTERLOCK_EXAMPLES_IB_ANALYZE_ARGS_HPP
#define INTERLOCK_EXAMPLES_IB_ANALYZE_ARGS_HPP

#include <interlock/qos/ib_vl_arbiter.hpp>

#include <string>

#include "cli.hpp"

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

inline arguments parse(int argc, char** argv) {
  arguments a;
  cli::flags flags(argc, argv, cli::no_switches);
  flags.resolves_config();
  flags.for_each([&](const std::string& flag, const auto& read) {
    const std::string value = read();
    if (flag == "--high") {
      a.high = value;
    } else if (flag == "--low") {
      a.low = value;
    } else if (flag == "--limit") {
      a.limit = static_cast<unsigned>(cli::number(flag, value, 0, 255));
    } else if (flag == "--runs") {
      a.runs = cli::number(flag, value, 1, 1000000);
    } else if (flag == "--packet-size") {
      a.packet_bytes = cli::number(flag, value, 1, interlock::qos::ib::max_packet_bytes);
    } else if (flag == "--max-packets") {
      a.max_packets = cli::number(flag, value, 1, 999999999999ul);
    } else if (flag == "--low-turn") {
      if (value == "entry") {
        a.turn = interlock::qos::low_priority_turn::whole_entry;
      } else if (value == "packet") {
        a.turn = interlock::qos::low_priority_turn::one_packet;
      } else {
        throw bad_input{flag + ": '" + value + "'; allowed: entry, packet"};
      }
    } else {
      throw bad_input{flag + ": unknown option (see --help)"};
    }
  });
  if (a.high.empty()) throw bad_input{"--high: missing (the high-priority table is required)"};
  std::vector<std::pair<std::string, std::string>> resolved = {{"high", a.high}};
  if (!a.low.empty()) resolved.emplace_back("low", a.low);
  resolved.emplace_back("limit", std::to_string(a.limit));
  resolved.emplace_back("runs", std::to_string(a.runs));
  resolved.emplace_back("packet-size", std::to_string(a.packet_bytes));
  resolved.emplace_back(
      "low-turn", a.turn == interlock::qos::low_priority_turn::whole_entry ? "entry" : "packet");
  resolved.emplace_back("max-packets", std::to_string(a.max_packets));
  flags.write_resolved(resolved);
  return a;
}

}  // namespace ib_analyze_tool

#endif  // INTERLOCK_EXAMPLES_IB_ANALYZE_ARGS_HPP
