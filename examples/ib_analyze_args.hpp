// ib_analyze's command line: the flags and their checks. Shared by the tool
// and by the fuzz harness of its flag parsing (tests/fuzz/tool_flags_fuzz.cpp):
// parse() throws bad_input naming the flag for anything it refuses and
// nothing else.
#ifndef INTERLOCK_EXAMPLES_IB_ANALYZE_ARGS_HPP
#define INTERLOCK_EXAMPLES_IB_ANALYZE_ARGS_HPP

#include <interlock/qos/ib_vl_arbiter.hpp>

#include <set>
#include <string>

namespace ib_analyze_tool {

struct bad_input {
  std::string message;
};

struct arguments {
  std::string high, low;
  unsigned limit = 1;
  unsigned long runs = 30;
  unsigned long packet_bytes = 64;
  interlock::qos::low_priority_turn turn = interlock::qos::low_priority_turn::whole_entry;
  unsigned long max_packets = 10000000000;  // refuse a longer analysis (about 20 s)
};

inline unsigned long number(const std::string& flag, const std::string& text, unsigned long lo,
                            unsigned long hi) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos)
    throw bad_input{flag + ": '" + text + "' is not a number in " + range};
  const unsigned long value = std::stoul(text);
  if (value < lo || value > hi) throw bad_input{flag + ": " + text + " is outside " + range};
  return value;
}

inline arguments parse(int argc, char** argv) {
  arguments a;
  std::set<std::string> seen;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw bad_input{flag + ": unknown option or missing value (see --help)"};
    const std::string value = argv[++i];
    if (!seen.insert(flag).second) throw bad_input{flag + ": given twice"};
    if (flag == "--high") {
      a.high = value;
    } else if (flag == "--low") {
      a.low = value;
    } else if (flag == "--limit") {
      a.limit = static_cast<unsigned>(number(flag, value, 0, 255));
    } else if (flag == "--runs") {
      a.runs = number(flag, value, 1, 1000000);
    } else if (flag == "--packet-size") {
      a.packet_bytes = number(flag, value, 1, interlock::qos::ib::max_packet_bytes);
    } else if (flag == "--max-packets") {
      a.max_packets = number(flag, value, 1, 999999999999ul);
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
  }
  if (a.high.empty()) throw bad_input{"--high: missing (the high-priority table is required)"};
  return a;
}

}  // namespace ib_analyze_tool

#endif  // INTERLOCK_EXAMPLES_IB_ANALYZE_ARGS_HPP
