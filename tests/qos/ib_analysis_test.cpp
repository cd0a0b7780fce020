// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/qos/ib_analysis.hpp: the offline multi-table analysis of
// [QoSThesis], Section 6.3 (Algorithm 4, Eq. 6.2), on Table 6.1's
// configurations, against closed forms and against ib_vl_arbiter itself.
#include "support/interlock_test.hpp"

#include <array>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <interlock/qos/ib_analysis.hpp>
#include <interlock/qos/ib_vl_arbiter.hpp>

using interlock::grant;
using interlock::qos::analyze_vl_arbitration;
using interlock::qos::ib_analysis;
using interlock::qos::ib_vl_arbiter;
using interlock::qos::ib_vl_arbitration_config;
using interlock::qos::ib_vl_arbitration_entry;
using interlock::qos::low_priority_turn;
using interlock::qos::read_vl_arbitration_table;
using interlock::qos::table_parse_error;
using namespace interlock_test;

namespace {

std::vector<ib_vl_arbitration_entry> load(const std::string& name) {
  const std::string path = std::string(INTERLOCK_TEST_DATA) + "/ib/" + name;
  std::ifstream in(path);
  REQUIRE(in);
  return read_vl_arbitration_table(in, path);
}

std::vector<ib_vl_arbitration_entry> parse(const std::string& text) {
  std::istringstream in(text);
  return read_vl_arbitration_table(in, "t.csv");
}

const interlock::qos::ib_vl_statistics& vl_of(const ib_analysis& a, std::size_t vl) {
  for (const auto& s : a.vls)
    if (s.vl == vl) return s;
  FAIL("VL " << vl << " sent nothing");
  return a.vls.front();
}

// Closed form for a saturated high table of H packets per cycle (64-byte
// packets), LimitOfHighPriority L and one low entry of weight w, whole-entry
// turns: a turn before every (64 L)-th high packet but the first.
double low_share(std::uint64_t h_per_cycle, std::uint64_t runs, std::uint64_t limit,
                 std::uint64_t w) {
  const std::uint64_t high = h_per_cycle * runs;
  const std::uint64_t turns = (high - 1) / (64 * limit);
  return double(turns * w) / double(high + turns * w);
}

}  // namespace

TEST_CASE("ib_analysis: Table 6.1 configuration A, SL3 gets 8.57% (Section 6.5.3)",
          "[ib_analysis][paper]") {
  const ib_vl_arbitration_config a{load("config_a_high.csv"), load("config_a_low.csv"), 1,
                                   low_priority_turn::whole_entry};
  REQUIRE(a.high.size() == 64);
  const ib_analysis result = analyze_vl_arbitration(a, {300, 64});
  CHECK(vl_of(result, 3).share == Approx(low_share(528, 300, 1, 6)).epsilon(1e-12));
  CHECK(std::round(vl_of(result, 3).share * 10000) / 100 == Approx(8.57));
  CHECK(vl_of(result, 0).packets == 264 * 300);
  CHECK(vl_of(result, 1).packets == 158 * 300);
  CHECK(vl_of(result, 2).packets == 106 * 300);
  // 30 runs cut the last cycle's turns short: 8.56%.
  const ib_analysis short_run = analyze_vl_arbitration(a, {30, 64});
  CHECK(std::round(vl_of(short_run, 3).share * 10000) / 100 == Approx(8.56));
  // Distances: SL0's entries are every other one; a low turn between two of
  // them makes 3. SL1 and SL2 every fourth entry, 5 with a low turn.
  CHECK(vl_of(result, 0).max_distance == 3);
  CHECK(vl_of(result, 1).max_distance == 5);
  CHECK(vl_of(result, 2).max_distance == 5);
  // Mean distance: selections per cycle over the VL's selections per cycle,
  // (64 + 528 / 64) / 32 = 2.258 for SL0, twice that for SL1 and SL2.
  CHECK(vl_of(result, 0).mean_distance == Approx((64 + 528.0 / 64) / 32).epsilon(1e-3));
  CHECK(vl_of(result, 1).mean_distance == Approx((64 + 528.0 / 64) / 16).epsilon(1e-3));
}

TEST_CASE("ib_analysis: Table 6.1 configuration B", "[ib_analysis][paper]") {
  const ib_vl_arbitration_config b{load("config_b_high.csv"), load("config_b_low.csv"), 1,
                                   low_priority_turn::whole_entry};
  const ib_analysis result = analyze_vl_arbitration(b, {300, 64});
  CHECK(vl_of(result, 3).share == Approx(low_share(1424, 300, 1, 2)).epsilon(1e-12));
  CHECK(vl_of(result, 0).packets == 704 * 300);
}

TEST_CASE("ib_analysis: a single table gives Eq. 6.1's shares and the entry distances",
          "[ib_analysis][paper]") {
  // Section 6.3's example: VL0 32 entries at distance 2 with weight 2, VL1 16
  // at distance 4 with weight 4: 50% each, distances 2 and 4.
  ib_vl_arbitration_config c;
  for (std::size_t e = 0; e < 64; ++e)
    c.high.push_back(
        e % 2 == 0 ? ib_vl_arbitration_entry{0, 2}
                   : (e % 4 == 1 ? ib_vl_arbitration_entry{1, 4} : ib_vl_arbitration_entry{2, 1}));
  const ib_analysis r = analyze_vl_arbitration(c, {10, 64});
  CHECK(vl_of(r, 0).share == Approx(64.0 / 144));
  CHECK(vl_of(r, 1).share == Approx(64.0 / 144));
  CHECK(vl_of(r, 0).max_distance == 2);
  CHECK(vl_of(r, 0).mean_distance == Approx(2.0));
  CHECK(vl_of(r, 1).max_distance == 4);
  CHECK(vl_of(r, 1).times_selected == 160);
}

TEST_CASE("ib_analysis: 4096-byte packets round each entry up to whole packets", "[ib_analysis]") {
  const ib_vl_arbitration_config a{load("config_a_high.csv"), load("config_a_low.csv"), 1,
                                   low_priority_turn::whole_entry};
  const ib_analysis r = analyze_vl_arbitration(a, {30, 4096});
  // Every entry (weight <= 64 units) sends one packet; the limit (one 4096-byte
  // packet) gives the low table a turn before every high packet but the first.
  CHECK(vl_of(r, 0).packets == 32 * 30);
  CHECK(vl_of(r, 3).packets == 64 * 30 - 1);
}

TEST_CASE("ib_analysis: table files, comments and errors with file and line",
          "[ib_analysis][config]") {
  CHECK(parse("# header\n0,8\n\n 1 , 9 # trailing\n") ==
        std::vector<ib_vl_arbitration_entry>{{0, 8}, {1, 9}});
  CHECK_THROWS_WITH(parse("0,8\n15,1\n"), "t.csv:2:1: VL 15 is out of range 0..14");
  // The column points at the field, past blanks.
  CHECK_THROWS_WITH(parse("  3 ,  x9\n"),
                    "t.csv:1:8: weight 'x9' is not a whole number (expected vl,weight)");
  // Leading zeros parse; a long number is out of range, not "not a whole number".
  CHECK(parse("0001,0008\n000,00\n") == std::vector<ib_vl_arbitration_entry>{{1, 8}, {0, 0}});
  CHECK_THROWS_WITH(parse("0,99999999999999999999\n"),
                    "t.csv:1:3: weight 99999999999999999999 is out of range 0..255");
  CHECK_THROWS_WITH(parse("0,0000256\n"), "t.csv:1:3: weight 0000256 is out of range 0..255");
  const std::string long_field(200, 'x');
  try {
    parse("0," + long_field + "\n");
    FAIL("accepted");
  } catch (const std::exception& e) {
    CHECK(std::string(e.what()).size() < 160);  // the field is cut, not echoed whole
  }
  CHECK_THROWS_WITH(parse("0,256\n"), "t.csv:1:3: weight 256 is out of range 0..255");
  CHECK_THROWS_WITH(parse("#\n\n0;8\n"), "t.csv:3:1: expected vl,weight, found '0;8'");
  CHECK_THROWS_WITH(parse("0,8,1\n"), "t.csv:1:4: expected two fields vl,weight, found '0,8,1'");
  CHECK_THROWS_WITH(parse("x,8\n"), "t.csv:1:1: VL 'x' is not a whole number (expected vl,weight)");
  CHECK_THROWS_WITH(parse("0,-1\n"),
                    "t.csv:1:3: weight '-1' is not a whole number (expected vl,weight)");
  std::string many;
  for (int i = 0; i < 65; ++i) many += "0,1\n";
  CHECK_THROWS_WITH(parse(many), "t.csv:65:1: more than 64 entries");
  CHECK_THROWS_AS(analyze_vl_arbitration({{{0, 0}}, {}, 1}, {30, 64}), interlock::config_error);
  CHECK_THROWS_AS(analyze_vl_arbitration({{{0, 1}}, {}, 1}, {0, 64}), interlock::config_error);
  CHECK_THROWS_AS(analyze_vl_arbitration({{{0, 1}}, {}, 1}, {1, 5000}), interlock::config_error);
}

TEST_CASE("ib_analysis: properties", "[ib_analysis][property]") {
  rc::prop(
      "the analysis equals ib_vl_arbiter run saturated for the same high-priority packets", [] {
        ib_vl_arbitration_config c;
        const std::size_t vls = *rc::gen::inRange<std::size_t>(1, 16);
        const std::size_t high = *rc::gen::inRange<std::size_t>(1, 65);
        const std::size_t low = *rc::gen::inRange<std::size_t>(0, 65);
        for (std::size_t e = 0; e < high + low; ++e) {
          const ib_vl_arbitration_entry entry{
              static_cast<std::uint8_t>(*rc::gen::inRange<std::size_t>(0, vls)),
              static_cast<std::uint8_t>(*rc::gen::inRange(0, 256))};
          (e < high ? c.high : c.low).push_back(entry);
        }
        bool any_high = false;
        for (const auto& e : c.high) any_high = any_high || e.weight > 0;
        RC_PRE(any_high);
        c.limit_of_high_priority = *rc::gen::element<std::uint8_t>(0, 1, 2, 3, 255);
        c.turn = *rc::gen::element(low_priority_turn::one_packet, low_priority_turn::whole_entry);
        const std::uint32_t bytes = *rc::gen::element<std::uint32_t>(64, 100, 256, 2048, 4096);
        const std::size_t runs = *rc::gen::inRange<std::size_t>(1, 4);
        const ib_analysis predicted = analyze_vl_arbitration(c, {runs, bytes});

        ib_vl_arbiter arb(c);
        std::array<std::uint32_t, 15> size{};
        size.fill(bytes);
        std::array<std::uint64_t, 15> packets{}, selected{}, last{}, max_distance{};
        std::uint64_t selections = 0, high_packets = 0;
        while (high_packets < predicted.high_priority_packets) {
          const interlock::qos::queue_requests r{0x7FFFu, size};
          const auto d = arb.decide(r);
          RC_ASSERT(d.from != ib_vl_arbiter::table::none);
          if (d.new_entry) {
            ++selections;
            if (selected[d.vl] > 0)
              max_distance[d.vl] = std::max(max_distance[d.vl], selections - last[d.vl]);
            ++selected[d.vl];
            last[d.vl] = selections;
          }
          arb.commit(grant(d.vl), r);
          ++packets[d.vl];
          if (d.from == ib_vl_arbiter::table::high) ++high_packets;
        }
        std::uint64_t total = 0;
        for (auto p : packets) total += p;
        RC_ASSERT(total == predicted.packets);
        RC_ASSERT(selections == predicted.selections);
        for (const auto& s : predicted.vls) {
          RC_ASSERT(packets[s.vl] == s.packets);
          RC_ASSERT(selected[s.vl] == s.times_selected);
          RC_ASSERT(max_distance[s.vl] == s.max_distance);
        }
      });
}

TEST_CASE("ib_analysis: a packet spends whole 64-byte units, at a size 64 does not divide",
          "[ib_analysis]") {
  // Entries of weight 10 and 1 at 100-byte packets: each packet spends
  // ceil(100 / 64) = 2 units, so VL0 sends ceil(10 / 2) = 5 packets per
  // table cycle and VL1 one: 83.33% / 16.67% (charging exact bytes would
  // give ceil(10 * 64 / 100) = 7 : 1, 87.5% / 12.5%).
  interlock::qos::ib_vl_arbitration_config c;
  c.high = {{0, 10}, {1, 1}};
  const auto a = interlock::qos::analyze_vl_arbitration(c, {60, 100});
  REQUIRE(a.vls.size() == 2);
  CHECK(a.vls[0].packets == 5 * 60);
  CHECK(a.vls[1].packets == 60);
  CHECK(a.vls[0].share == Approx(5.0 / 6));
  CHECK(a.vls[1].share == Approx(1.0 / 6));
  // The arbiter agrees: saturate both VLs and count one table cycle.
  interlock::qos::ib_vl_arbiter arb(c);
  const std::array<std::uint32_t, 2> size{100, 100};
  int sent[2] = {};
  for (int k = 0; k < 6; ++k) ++sent[arb.grant({0b11, size}).index()];
  CHECK(sent[0] == 5);
  CHECK(sent[1] == 1);
}

TEST_CASE("ib_analysis: endless lines, byte-order marks and long fields", "[ib_analysis][config]") {
  // An input without newlines (such as /dev/zero) stops at the line limit.
  std::istringstream endless(std::string(100000, '0'));
  CHECK_THROWS_WITH(interlock::qos::read_vl_arbitration_table(endless, "z.csv"),
                    "z.csv:1:4097: line longer than 4096 characters");
  std::istringstream bom(
      "\xEF\xBB\xBF"
      "0,8\n1,2\n");
  CHECK(interlock::qos::read_vl_arbitration_table(bom, "b.csv") ==
        std::vector<ib_vl_arbitration_entry>{{0, 8}, {1, 2}});
  std::istringstream noisy(std::string(300, ';') + "\n");
  try {
    interlock::qos::read_vl_arbitration_table(noisy, "n.csv");
    FAIL("accepted");
  } catch (const interlock::qos::table_parse_error& e) {
    CHECK(std::string(e.what()).size() < 140);
  }
}
