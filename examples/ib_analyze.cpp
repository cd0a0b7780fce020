// ib_analyze: predicts each VL's share of a saturated InfiniBand link and the
// distance between its entries, from the two VL arbitration tables and
// LimitOfHighPriority (the offline analysis of paper 004, Section 6.3).
//
//   ib_analyze --high high.csv [--low low.csv] [--limit 1] [--runs 30] [--packet-size 64]
//
// Output: CSV "vl,share,mean_distance,max_distance". Exit status: 0 done,
// 2 bad input (a message naming the flag, or the file, line and column).
#include <interlock/qos/ib_analysis.hpp>
#include <interlock/qos/ib_vl_arbiter.hpp>

#include <cstdio>
#include <exception>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace {

const char* const help_text =
    "usage: ib_analyze --high HIGH.csv [--low LOW.csv] [--limit L] [--runs R]\n"
    "                  [--packet-size BYTES] [--low-turn entry|packet]\n"
    "\n"
    "Simulates an InfiniBand output port whose VLs always have packets to send\n"
    "(Algorithm 4 of the thesis) and prints, for each VL that sends:\n"
    "  vl,share,mean_distance,max_distance\n"
    "  share          percent of the packets sent (all packets have one size, so\n"
    "                 also percent of the bytes)\n"
    "  mean_distance  entry selections between consecutive selections of this\n"
    "                 VL's entries (high- or low-priority), averaged\n"
    "  max_distance   the largest of those distances\n"
    "\n"
    "tables: one entry per line, 'vl,weight'; VL 0..14, weight 0..255 in units\n"
    "of 64 bytes (weight 0 skips the entry); '#' starts a comment; at most 64\n"
    "entries. The high-priority table is required.\n"
    "\n"
    "options\n"
    "  --limit L          LimitOfHighPriority 0..255, in units of 4096 bytes:\n"
    "                     the low-priority table gets a turn once L * 4096\n"
    "                     high-priority bytes were sent (0: after every\n"
    "                     high-priority packet; 255: never). Default 1.\n"
    "  --runs R           high-priority table cycles to simulate (default 30;\n"
    "                     more for configurations that converge slowly)\n"
    "  --packet-size B    every packet's size in bytes, 1..4222 (default 64).\n"
    "                     An entry sends whole packets while weight is left,\n"
    "                     each spending its size in whole 64-byte units, so it\n"
    "                     sends ceil(weight / ceil(B / 64)) packets: with the\n"
    "                     default, one packet per weight unit, as Algorithm 4\n"
    "                     counts. The thesis's Table 6.1 figures (SL3 at 8.57%\n"
    "                     with --runs 300) arise at 64 bytes; with 4096-byte\n"
    "                     packets every entry of weight <= 64 sends one packet.\n"
    "  --low-turn T       entry (default): a low-priority turn serves a whole\n"
    "                     entry, as the thesis's tool does; packet: one packet,\n"
    "                     as the InfiniBand specification words it\n"
    "  --help             this text\n";

struct bad_input {
  std::string message;
};

struct arguments {
  std::string high, low;
  unsigned limit = 1;
  unsigned long runs = 30;
  unsigned long packet_bytes = 64;
  interlock::qos::low_priority_turn turn = interlock::qos::low_priority_turn::whole_entry;
};

unsigned long number(const std::string& flag, const std::string& text, unsigned long lo,
                     unsigned long hi) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    throw bad_input{flag + ": '" + text + "' is not a number in " + range};
  const unsigned long value = std::stoul(text);
  if (value < lo || value > hi) throw bad_input{flag + ": " + text + " is outside " + range};
  return value;
}

arguments parse(int argc, char** argv) {
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

std::vector<interlock::qos::ib_vl_arbitration_entry> read_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw bad_input{path + ": cannot open"};
  return interlock::qos::read_vl_arbitration_table(in, path);
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs(help_text, stdout);
      return 0;
    }
  }
  try {
    const arguments a = parse(argc, argv);
    interlock::qos::ib_vl_arbitration_config config;
    config.high = read_table(a.high);
    bool sends = false;
    for (const auto& e : config.high) sends = sends || e.weight > 0;
    if (!sends)
      throw bad_input{a.high + ": the high-priority table has no entry with a weight above 0 " +
                      "(empty, or every weight 0)"};
    if (!a.low.empty()) config.low = read_table(a.low);
    config.limit_of_high_priority = static_cast<std::uint8_t>(a.limit);
    config.turn = a.turn;
    const auto result = interlock::qos::analyze_vl_arbitration(
        config, {a.runs, static_cast<std::uint32_t>(a.packet_bytes)});
    std::printf("vl,share,mean_distance,max_distance\n");
    for (const auto& vl : result.vls) {
      std::printf("%zu,%.4f,%.4f,%llu\n", vl.vl, 100.0 * vl.share, vl.mean_distance,
                  static_cast<unsigned long long>(vl.max_distance));
    }
    return 0;
  } catch (const bad_input& e) {
    std::fprintf(stderr, "ib_analyze: %s\n", e.message.c_str());
  } catch (const interlock::qos::table_parse_error& e) {
    std::fprintf(stderr, "ib_analyze: %s\n", e.what());
  } catch (const interlock::config_error& e) {
    std::fprintf(stderr, "ib_analyze: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ib_analyze: %s\n", e.what());
  }
  return 2;
}
