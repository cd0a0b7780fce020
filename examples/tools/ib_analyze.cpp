// SPDX-License-Identifier: BSL-1.0
// ib_analyze: predicts each VL's share of a saturated InfiniBand link and the
// distance between its entries, from the two VL arbitration tables and
// LimitOfHighPriority (the offline analysis of [QoSThesis], Section 6.3).
//
//   ib_analyze --high high.csv [--low low.csv] [--limit 1] [--runs 30] [--packet-size 64]
//
// Output: CSV "vl,share,mean_distance,max_distance". Exit status: 0 done,
// 2 bad input (a message naming the flag, or the file, line and column).
#include <sys/stat.h>
#include <interlock/qos/ib_analysis.hpp>
#include <interlock/qos/ib_vl_arbiter.hpp>

#include <cerrno>
#include <cstring>

#include "ib_analyze_args.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace ib_analyze_tool;

std::string help_text() {
  return "usage: ib_analyze --high HIGH.csv [--low LOW.csv] [--limit L] [--runs R]\n"
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
         "options\n" +
         settings().help() +
         "\n"
         "A configuration file (--config) names tables relative to its own folder.\n";
}

std::vector<interlock::qos::ib_vl_arbitration_entry> read_table(const std::string& flag,
                                                                const std::string& path) {
  // Only a regular file: a FIFO or a device would block or never end.
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    throw bad_input{flag + ": cannot open '" + path.substr(0, 200) + "': " + std::strerror(errno)};
  if (!S_ISREG(info.st_mode))
    throw bad_input{flag + ": '" + path.substr(0, 200) + "' is not a regular file"};
  std::ifstream in(path);
  if (!in) throw bad_input{flag + ": cannot open '" + path.substr(0, 200) + "'"};
  return interlock::qos::read_vl_arbitration_table(in, path);
}

int run(int argc, char** argv) {
  {
    const arguments a = parse(argc, argv);
    interlock::qos::ib_vl_arbitration_config config;
    config.high = read_table("--high", a.high);
    bool sends = false;
    for (const auto& e : config.high) sends = sends || e.weight > 0;
    if (!sends)
      throw bad_input{a.high + ": the high-priority table has no entry with a weight above 0 " +
                      "(empty, or every weight 0)"};
    if (!a.low.empty()) config.low = read_table("--low", a.low);
    config.limit_of_high_priority = static_cast<std::uint8_t>(a.limit);
    config.turn = a.turn;
    // The packets the analysis will walk, bounded above: per high-table
    // cycle every high entry's packets, each perhaps followed by a
    // low-priority turn of up to the largest low entry's packets.
    const double units = static_cast<double>(
        interlock::qos::ib::weight_units(static_cast<std::uint32_t>(a.packet_bytes)));
    double high_packets = 0, low_turn = 0;
    for (const auto& e : config.high) high_packets += std::ceil(e.weight / units);
    for (const auto& e : config.low) low_turn = std::max(low_turn, std::ceil(e.weight / units));
    if (a.turn == interlock::qos::low_priority_turn::one_packet && low_turn > 0) low_turn = 1;
    const double packets = static_cast<double>(a.runs) * high_packets * (1 + low_turn);
    if (packets > static_cast<double>(a.max_packets)) {
      char text[64];
      std::snprintf(text, sizeof text, "%.3g", packets);
      throw bad_input{std::string("--max-packets: the analysis could walk up to ") + text +
                      " packets; lower --runs or raise --max-packets"};
    }
    const auto result = interlock::qos::analyze_vl_arbitration(
        config, {a.runs, static_cast<std::uint32_t>(a.packet_bytes)});
    std::printf("vl,share,mean_distance,max_distance\n");
    for (const auto& vl : result.vls) {
      std::printf("%zu,%.4f,%.4f,%llu\n", vl.vl, 100.0 * vl.share, vl.mean_distance,
                  static_cast<unsigned long long>(vl.max_distance));
    }
    return 0;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("ib_analyze", help.c_str(), "fewer --runs", argc, argv, [&] {
    try {
      return run(argc, argv);
    } catch (const interlock::qos::table_parse_error& e) {
      throw bad_input{e.what()};  // FILE:LINE:COLUMN: what is wrong
    }
  });
}
