// SPDX-License-Identifier: BSL-1.0
// interlock/qos/ib_analysis.hpp: the offline InfiniBand multi-table analysis (Algorithm 4).
//
// Models [QoSThesis], Section 6.3 (Algorithm 4, Eq. 6.2). Given the two VL
// arbitration tables and LimitOfHighPriority, it predicts each VL's share of
// a saturated link and the distance between consecutive selections of its
// entries, under the thesis's assumptions: every VL always has packets of
// one size and the next device always has room. It walks the high-priority
// table `runs` times; before each high-priority packet, when the byte
// counter has reached the limit, the low-priority table takes its turn and
// the counter is reset:
//     share_i = packets_i / sum_j packets_j                       (Eq. 6.2)
//     mean_distance_i = accumulated distance_i / times selected_i  (Eq. 6.2)
// (we divide by the number of distances, times selected - 1, since the first
// selection has no predecessor; max_distance_i is the largest one).
// A *selection* is an entry starting service (a high-priority entry, or a
// low-priority entry on its turn); the distance of a VL's selection is the
// number of selections since the previous selection of an entry of the same
// VL, so entries of one VL at every other position have distance 2.
//
// Units and corners (Algorithm 4 as printed leaves them open):
//   - weights count 64-byte units; an entry sends whole packets while
//     weight is left, and each packet spends its size rounded up to whole
//     64-byte units (a 100-byte packet spends 2), as ib_vl_arbiter does: an
//     entry of weight w sends ceil(w / ceil(packet_bytes / 64)) packets.
//     We read the specification's weight as a count of 64-byte units sent
//     (the unit of its flow-control credits), so a partial unit counts as a
//     whole one; charging exact bytes instead would send ceil(w * 64 /
//     packet_bytes), which differs unless 64 divides packet_bytes (entries
//     of weight 10 and 1 at 100-byte packets: 5 : 1, 83.33% / 16.67%, not
//     7 : 1). Algorithm 4's "one packet per weight unit" is packet_bytes = 64;
//   - the printed test "limit_hp_counter >= limit_hp" compares bytes with the
//     limit in its own units; we compare with limit * 4096 bytes (Section
//     6.2), and limit 0 means one high-priority packet per turn;
//   - the low-priority turn follows `config.turn` (Algorithm 4: whole_entry).
// The figures the thesis reports for Table 6.1's Configuration A (SL3 at
// 8.57%) arise at packet_bytes = 64: 4096 high-priority bytes, then the
// low-priority entry's 6 units, 6 / (64 + 6) = 8.57%.
//
// For any configuration, analyze_vl_arbitration() equals running
// ib_vl_arbiter with every VL saturated for the same number of high-priority
// packets (tests/qos/ib_analysis_test.cpp checks it as a property).
//
// Contract
//   - analyze_vl_arbitration(config, {runs >= 1, packet_bytes 1..4222}):
//     config_error on bad options or tables (as ib_vl_arbiter validates), and
//     when the high-priority table has no entry with weight > 0.
//   - read_vl_arbitration_table(stream, file): lines "vl,weight" (spaces
//     allowed, '#' starts a comment, blank lines skipped); table_parse_error
//     names file, line and column for anything else (a VL above 14, a weight above
//     255, a missing or extra field, more than 64 entries).
//   Complexity: O(runs * packets per table cycle).
//
// Example (Figure 6.1's tables)
//   interlock::qos::ib_vl_arbitration_config config{{{0, 3}, {1, 3}}, {{2, 2}, {3, 2}}, 1};
//   auto result = interlock::qos::analyze_vl_arbitration(config, {30, 64});
//   for (const auto& vl : result.vls) std::printf("VL%zu %.4f\n", vl.vl, vl.share);
#ifndef INTERLOCK_QOS_IB_ANALYSIS_HPP
#define INTERLOCK_QOS_IB_ANALYSIS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

#include "interlock/core/config_error.hpp"
#include "interlock/qos/ib_vl_arbiter.hpp"

namespace interlock {
namespace qos {

struct ib_analysis_options {
  std::size_t runs = 30;            // high-priority table cycles
  std::uint32_t packet_bytes = 64;  // every packet's size
};

struct ib_vl_statistics {
  std::size_t vl = 0;
  std::uint64_t packets = 0;
  double share = 0;
  std::uint64_t times_selected = 0;
  double mean_distance = 0;  // 0 when selected fewer than twice
  std::uint64_t max_distance = 0;
};

struct ib_analysis {
  std::vector<ib_vl_statistics> vls;  // the VLs that sent, in VL order
  std::uint64_t packets = 0;
  std::uint64_t high_priority_packets = 0;
  std::uint64_t selections = 0;
};

}  // namespace qos

// QoS helpers live in interlock::detail with the others.
namespace detail {

/// One table's walk under saturation: entry pointer and weight left.
struct saturated_table {
  const std::vector<qos::ib_vl_arbitration_entry>* entries = nullptr;
  std::size_t entry = 0;
  std::int64_t remaining = 0;
  bool started = false;

  /// Moves to the next entry with weight > 0; false when there is none.
  bool next_entry() {
    const std::size_t n = entries->size();
    for (std::size_t step = 0; step < n; ++step) {
      entry = started ? (entry + 1) % n : step;
      started = true;
      if ((*entries)[entry].weight > 0) {
        remaining = (*entries)[entry].weight;
        return true;
      }
    }
    return false;
  }
  std::size_t vl() const { return (*entries)[entry].vl; }
};

struct analysis_recorder {
  std::array<std::uint64_t, qos::ib::data_vls> packets{};
  std::array<std::uint64_t, qos::ib::data_vls> selected{};
  std::array<std::uint64_t, qos::ib::data_vls> last{};
  std::array<std::uint64_t, qos::ib::data_vls> distance_sum{};
  std::array<std::uint64_t, qos::ib::data_vls> distance_max{};
  std::uint64_t selections = 0;

  void select(std::size_t vl) {
    ++selections;
    if (selected[vl] > 0) {
      const std::uint64_t d = selections - last[vl];
      distance_sum[vl] += d;
      if (d > distance_max[vl]) distance_max[vl] = d;
    }
    ++selected[vl];
    last[vl] = selections;
  }
};

}  // namespace detail

namespace qos {

inline ib_analysis analyze_vl_arbitration(const ib_vl_arbitration_config& config,
                                          const ib_analysis_options& options) {
  const ib_vl_arbiter validated(config);  // the same table checks as the arbiter
  (void)validated;
  detail::require_in_range("analyze_vl_arbitration", "runs", options.runs, 1, 1u << 24);
  detail::require_in_range("analyze_vl_arbitration", "packet_bytes", options.packet_bytes, 1,
                           ib::max_packet_bytes);
  detail::saturated_table high{&config.high};
  detail::saturated_table low{&config.low};
  detail::analysis_recorder rec;
  const std::int64_t units = ib::weight_units(options.packet_bytes);
  bool low_has_entries = false;
  for (const auto& e : config.low) low_has_entries = low_has_entries || e.weight > 0;
  std::size_t high_entries = 0;
  for (const auto& e : config.high) high_entries += e.weight > 0 ? 1 : 0;
  if (high_entries == 0) {
    throw config_error("analyze_vl_arbitration", "high-priority table",
                       std::to_string(config.high.size()) + " entries, none with weight",
                       "at least one entry with weight 1..255");
  }
  ib_analysis out;
  std::uint64_t high_bytes = 0;
  auto low_turn = [&] {
    if (config.turn == low_priority_turn::whole_entry || low.remaining <= 0) {
      low.next_entry();
      rec.select(low.vl());
    }
    do {
      ++rec.packets[low.vl()];
      low.remaining -= units;
    } while (config.turn == low_priority_turn::whole_entry && low.remaining > 0);
    high_bytes = 0;
  };
  for (std::size_t i = 0; i < high_entries * options.runs; ++i) {
    high.next_entry();
    bool first_packet = true;
    while (high.remaining > 0) {
      if (low_has_entries && ib::limit_reached(config.limit_of_high_priority, high_bytes))
        low_turn();
      if (first_packet) rec.select(high.vl());  // the entry starts with its first packet
      first_packet = false;
      ++rec.packets[high.vl()];
      ++out.high_priority_packets;
      high.remaining -= units;
      high_bytes += options.packet_bytes;
    }
  }
  for (std::size_t vl = 0; vl < ib::data_vls; ++vl) out.packets += rec.packets[vl];
  for (std::size_t vl = 0; vl < ib::data_vls; ++vl) {
    if (rec.packets[vl] == 0) continue;
    ib_vl_statistics s;
    s.vl = vl;
    s.packets = rec.packets[vl];
    s.share = double(rec.packets[vl]) / double(out.packets);
    s.times_selected = rec.selected[vl];
    s.mean_distance =
        rec.selected[vl] > 1 ? double(rec.distance_sum[vl]) / double(rec.selected[vl] - 1) : 0;
    s.max_distance = rec.distance_max[vl];
    out.vls.push_back(s);
  }
  out.selections = rec.selections;
  return out;
}

/// A malformed table file: what() is "file:line:column: problem".
class table_parse_error : public std::runtime_error {
 public:
  /// "file:line:column: problem" (column 1-based, in bytes after any BOM).
  table_parse_error(const std::string& file, std::size_t line, std::size_t column,
                    const std::string& problem)
      : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                           problem),
        file_(file),
        line_(line),
        column_(column) {}
  const std::string& file() const noexcept { return file_; }
  std::size_t line() const noexcept { return line_; }
  std::size_t column() const noexcept { return column_; }

 private:
  std::string file_;
  std::size_t line_;
  std::size_t column_;
};

}  // namespace qos

// QoS helpers live in interlock::detail with the others.
namespace detail {

/// What an error quotes of a field: at most 80 characters.
inline std::string shown_field(const std::string& text) {
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

/// getline with a bound: false at the end of the input; a line longer than
/// `limit` characters throws table_parse_error naming file, line and column.
inline bool read_bounded_line(std::istream& in, std::string& text, std::size_t limit,
                              const std::string& file, std::size_t line) {
  text.clear();
  std::istream::int_type c;
  bool any = false;
  while ((c = in.get()) != std::istream::traits_type::eof()) {
    any = true;
    if (c == '\n') return true;
    if (text.size() == limit)
      throw qos::table_parse_error(file, line, limit + 1,
                                   "line longer than " + std::to_string(limit) + " characters");
    text.push_back(static_cast<char>(c));
  }
  return any;
}

inline std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

/// A decimal field in [0, hi]; throws qos::table_parse_error naming `what`.
inline unsigned parse_table_field(const std::string& field, unsigned hi, const char* what,
                                  const std::string& file, std::size_t line, std::size_t column) {
  const std::string text = trim(field);
  const std::string shown = shown_field(text);
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw qos::table_parse_error(
        file, line, column,
        std::string(what) + " '" + shown + "' is not a whole number (expected vl,weight)");
  // Leading zeros are fine ("0001"); more digits than hi can have is out of range.
  const std::size_t first = text.find_first_not_of('0');
  const std::string digits = first == std::string::npos ? "0" : text.substr(first);
  if (digits.size() > 9 || std::stoul(digits) > hi)
    throw qos::table_parse_error(
        file, line, column,
        std::string(what) + " " + shown + " is out of range 0.." + std::to_string(hi));
  return static_cast<unsigned>(std::stoul(digits));
}

}  // namespace detail

namespace qos {

/// The longest line read_vl_arbitration_table accepts.
inline constexpr std::size_t max_table_line = 4096;

/// Reads a VL arbitration table: one "vl,weight" entry per line; a UTF-8
/// byte-order mark is skipped; a line longer than max_table_line characters
/// is a table_parse_error (so an endless input cannot grow memory).
inline std::vector<ib_vl_arbitration_entry> read_vl_arbitration_table(std::istream& in,
                                                                      const std::string& file) {
  std::vector<ib_vl_arbitration_entry> table;
  std::string text;
  for (std::size_t line = 1; detail::read_bounded_line(in, text, max_table_line, file, line);
       ++line) {
    if (line == 1 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);  // UTF-8 BOM
    const std::string content = detail::trim(text.substr(0, text.find('#')));
    if (content.empty()) continue;
    const std::size_t start = text.find_first_not_of(" \t\r");  // where content begins
    const auto column_at = [&](std::size_t at) {  // 1-based, at the first non-blank from `at`
      const std::size_t c = text.find_first_not_of(" \t\r", at);
      return (c == std::string::npos ? at : c) + 1;
    };
    const std::string shown = detail::shown_field(content);
    const auto comma = content.find(',');
    if (comma == std::string::npos)
      throw table_parse_error(file, line, start + 1, "expected vl,weight, found '" + shown + "'");
    const auto second = content.find(',', comma + 1);
    if (second != std::string::npos)
      throw table_parse_error(file, line, start + second + 1,
                              "expected two fields vl,weight, found '" + shown + "'");
    const unsigned vl =
        detail::parse_table_field(content.substr(0, comma), 14, "VL", file, line, start + 1);
    const unsigned weight = detail::parse_table_field(content.substr(comma + 1), 255, "weight",
                                                      file, line, column_at(start + comma + 1));
    if (table.size() == ib::max_table_entries)
      throw table_parse_error(file, line, start + 1, "more than 64 entries");
    table.push_back({static_cast<std::uint8_t>(vl), static_cast<std::uint8_t>(weight)});
  }
  if (in.bad()) throw table_parse_error(file, 0, 0, "read error");
  return table;
}

}  // namespace qos
}  // namespace interlock

#endif  // INTERLOCK_QOS_IB_ANALYSIS_HPP
