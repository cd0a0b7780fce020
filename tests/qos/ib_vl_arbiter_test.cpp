// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/qos/ib_vl_arbiter.hpp: InfiniBand dual-table VL
// arbitration with LimitOfHighPriority, [QoSThesis] Section 6.2 (Figure 6.1).
#include "support/interlock_test.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include <interlock/qos/ib_vl_arbiter.hpp>

using interlock::grant;
using interlock::qos::ib_vl_arbiter;
using interlock::qos::ib_vl_arbitration_config;
using interlock::qos::ib_vl_arbitration_entry;
using interlock::qos::low_priority_turn;
using interlock::qos::queue_requests;
using namespace interlock_test;

namespace {

// Figure 6.1: 4 VLs; the high-priority table starts with VL0 weight 3 (196
// bytes in the text, a misprint of 3 x 64 = 192), the low-priority table with
// VL2; 64-byte packets; LimitOfHighPriority = 1; the byte counter at 3968.
ib_vl_arbitration_config figure_6_1(low_priority_turn turn) {
  return {{{0, 3}, {1, 3}}, {{2, 2}, {3, 2}}, 1, turn};
}

std::vector<std::size_t> drain(ib_vl_arbiter& arb, std::array<int, 4> packets) {
  const std::array<std::uint32_t, 4> size{64, 64, 64, 64};
  std::vector<std::size_t> sent;
  for (;;) {
    std::uint64_t active = 0;
    for (std::size_t v = 0; v < 4; ++v)
      if (packets[v] > 0) active |= std::uint64_t{1} << v;
    const grant g = arb.grant({active, size});
    if (!g) return sent;
    --packets[g.index()];
    sent.push_back(g.index());
  }
}

}  // namespace

TEST_CASE("ib_vl_arbiter: Figure 6.1 as the thesis walks it (whole low-priority entry)",
          "[ib_vl_arbiter][paper]") {
  ib_vl_arbiter arb(figure_6_1(low_priority_turn::whole_entry));
  arb.set_high_priority_bytes(3968);
  // VL0 sends two packets and the counter reaches 4096; VL2 sends both of
  // its packets; the counter is reset and VL0 sends its last packet.
  CHECK(drain(arb, {3, 0, 2, 0}) == std::vector<std::size_t>{0, 0, 2, 2, 0});
}

TEST_CASE("ib_vl_arbiter: Figure 6.1 under the specification (one low-priority packet)",
          "[ib_vl_arbiter][paper]") {
  ib_vl_arbiter arb(figure_6_1(low_priority_turn::one_packet));
  arb.set_high_priority_bytes(3968);
  // The opportunity is one packet; VL2's second waits until VL0 is empty.
  CHECK(drain(arb, {3, 0, 2, 0}) == std::vector<std::size_t>{0, 0, 2, 0, 2});
  CHECK(arb.high_priority_bytes() == 0);
}

TEST_CASE("ib_vl_arbiter: the byte counter and its reset", "[ib_vl_arbiter]") {
  ib_vl_arbiter arb(figure_6_1(low_priority_turn::one_packet));
  const std::array<std::uint32_t, 4> size{64, 64, 64, 64};
  const queue_requests all{0b1111, size};
  for (int i = 0; i < 63; ++i) CHECK(arb.grant(all).index() <= 1);
  CHECK(arb.high_priority_bytes() == 63 * 64);
  CHECK(arb.grant(all).index() <= 1);  // the 64th packet reaches 4096
  CHECK(arb.grant(all) == grant(2));   // the low-priority opportunity
  CHECK(arb.high_priority_bytes() == 0);
}

TEST_CASE("ib_vl_arbiter: LimitOfHighPriority 0 alternates the tables, 255 never yields",
          "[ib_vl_arbiter][paper]") {
  const std::array<std::uint32_t, 4> size{64, 64, 64, 64};
  const queue_requests all{0b1111, size};
  ib_vl_arbiter zero({{{0, 8}}, {{2, 8}}, 0});
  std::vector<std::size_t> order;
  for (int i = 0; i < 6; ++i) order.push_back(zero.grant(all).index());
  CHECK(order == std::vector<std::size_t>{0, 2, 0, 2, 0, 2});
  ib_vl_arbiter unlimited({{{0, 8}}, {{2, 8}}, 255});
  for (int i = 0; i < 1000; ++i) REQUIRE(unlimited.grant(all) == grant(0));
  CHECK(unlimited.grant({0b0100, size}) == grant(2));  // high idle: low sends
  // 255 is no limit at all, not 255 x 4096 bytes: 300 packets of 4096 bytes
  // (1.2 MB, past 1,044,480) never give the low table a turn.
  const std::array<std::uint32_t, 4> mtu{4096, 4096, 4096, 4096};
  ib_vl_arbiter never({{{0, 64}}, {{2, 64}}, 255});
  for (int i = 0; i < 300; ++i) REQUIRE(never.grant({0b0101, mtu}) == grant(0));
  CHECK(never.high_priority_bytes() == 300u * 4096u);
  // 254 is a limit: after 254 x 4096 bytes the low table gets its turn.
  ib_vl_arbiter limited({{{0, 64}}, {{2, 64}}, 254});
  for (int i = 0; i < 254; ++i) REQUIRE(limited.grant({0b0101, mtu}) == grant(0));
  CHECK(limited.grant({0b0101, mtu}) == grant(2));
}

TEST_CASE("ib_vl_arbiter: weights count 64-byte units, rounded up to whole packets",
          "[ib_vl_arbiter][paper]") {
  // Weight 1 (64 bytes) still sends a whole 4096-byte packet; weight 65
  // sends two; weight 0 skips the entry.
  ib_vl_arbiter arb({{{0, 1}, {1, 0}, {2, 65}}, {}, 255});
  const std::array<std::uint32_t, 4> size{4096, 4096, 4096, 4096};
  std::vector<std::size_t> order;
  for (int i = 0; i < 6; ++i) order.push_back(arb.grant({0b0111, size}).index());
  CHECK(order == std::vector<std::size_t>{0, 2, 2, 0, 2, 2});
  // Small packets: weight 3 sends three 64-byte packets or two 100-byte ones.
  ib_vl_arbiter small({{{0, 3}, {1, 3}}, {}, 255});
  const std::array<std::uint32_t, 4> sizes{64, 100, 64, 64};
  order.clear();
  for (int i = 0; i < 5; ++i) order.push_back(small.grant({0b0011, sizes}).index());
  CHECK(order == std::vector<std::size_t>{0, 0, 0, 1, 1});
}

TEST_CASE("ib_vl_arbiter: an entry whose VL goes idle ends and loses its weight",
          "[ib_vl_arbiter]") {
  ib_vl_arbiter arb({{{0, 4}, {1, 4}}, {}, 255});
  const std::array<std::uint32_t, 4> size{64, 64, 64, 64};
  CHECK(arb.grant({0b01, size}) == grant(0));
  CHECK(arb.grant({0b10, size}) == grant(1));  // VL0 idle: entry 1
  CHECK(arb.grant({0b11, size}) == grant(1));  // entry 1 continues
  CHECK(arb.remaining_weight(ib_vl_arbiter::table::high) == 2);
}

TEST_CASE("ib_vl_arbiter: configuration errors", "[ib_vl_arbiter][config]") {
  CHECK_THROWS_WITH(ib_vl_arbiter({{{15, 1}}, {}, 1}),
                    "ib_vl_arbiter: high-priority table[0].vl = 15; allowed: 0..14 (VL15 is "
                    "management traffic, outside VL arbitration)");
  CHECK_THROWS_WITH(ib_vl_arbiter({{{0, 1}}, std::vector<ib_vl_arbitration_entry>(65, {0, 1}), 1}),
                    "ib_vl_arbiter: low-priority table entries = 65; allowed: at most 64");
}

namespace {

ib_vl_arbitration_config gen_config() {
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
  c.limit_of_high_priority = *rc::gen::element<std::uint8_t>(0, 1, 2, 5, 254, 255);
  c.turn = *rc::gen::element(low_priority_turn::one_packet, low_priority_turn::whole_entry);
  return c;
}

}  // namespace

TEST_CASE("ib_vl_arbiter: properties", "[ib_vl_arbiter][property]") {
  rc::prop("work conserving over VLs that have an entry of weight > 0", [] {
    const ib_vl_arbitration_config c = gen_config();
    ib_vl_arbiter arb(c);
    std::uint64_t served = 0;
    for (const auto& e : c.high) served |= e.weight > 0 ? std::uint64_t{1} << e.vl : 0;
    for (const auto& e : c.low) served |= e.weight > 0 ? std::uint64_t{1} << e.vl : 0;
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    std::array<std::uint32_t, 15> size{};
    for (int i = 0; i < 400; ++i) {
      for (auto& s : size) s = 1 + static_cast<std::uint32_t>(rng.below(4222));
      const std::uint64_t active = rng.next() & 0x7FFFu;
      const queue_requests r{active, size};
      const ib_vl_arbiter before = arb;
      const grant g = arb.arbitrate(r);
      RC_ASSERT(arb == before);
      RC_ASSERT(bool(g) == ((active & served) != 0));
      if (g) RC_ASSERT(((active >> g.index()) & 1u) != 0);
      arb.commit(g, r);
    }
  });
  rc::prop("LimitOfHighPriority bounds the high-priority bytes between low-priority packets", [] {
    ib_vl_arbitration_config c = gen_config();
    RC_PRE(c.limit_of_high_priority != 255);
    bool low_weight = false;
    for (const auto& e : c.low) low_weight = low_weight || e.weight > 0;
    RC_PRE(low_weight);
    ib_vl_arbiter arb(c);
    std::array<bool, 15> is_low{};
    for (const auto& e : c.low) is_low[e.vl] = is_low[e.vl] || e.weight > 0;
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    std::array<std::uint32_t, 15> size{};
    std::uint64_t high_bytes = 0;
    const std::uint64_t limit = std::uint64_t{c.limit_of_high_priority} * 4096;
    for (int i = 0; i < 2000; ++i) {
      for (auto& s : size) s = 1 + static_cast<std::uint32_t>(rng.below(4222));
      const queue_requests r{0x7FFFu, size};  // everything active
      const auto d = arb.decide(r);
      arb.commit(grant(d.vl), r);
      if (d.from == ib_vl_arbiter::table::low) {
        high_bytes = 0;
      } else {
        // A packet starts only while the counter is below the limit (or, for
        // limit 0, as the one packet of the turn).
        RC_ASSERT(high_bytes == 0 || high_bytes < limit);
        high_bytes += d.size;
      }
    }
  });
}
