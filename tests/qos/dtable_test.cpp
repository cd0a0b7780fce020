// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/qos/dtable.hpp: the Deficit Table scheduler of paper
// 004, Sections 4.3.3 and 5.4 (Algorithm 3, Figure 5.2).
#include "support/interlock_test.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include <interlock/qos/dtable.hpp>

using interlock::grant;
using interlock::qos::dtable_entry;
using interlock::qos::dtable_scheduler;
using interlock::qos::queue_requests;
using namespace interlock_test;

TEST_CASE("dtable: Figure 5.2, SL0's packets of 2 credits with an entry weight of 3",
          "[dtable][paper]") {
  // Two SLs, one buffer each; SL0 holds 3 packets of 2 credits, SL1 none.
  dtable_scheduler d({{0, 3}, {1, 3}}, {0, 1}, {2, 2});
  const std::array<std::uint32_t, 2> size{2, 2};
  const queue_requests sl0_only{0b01, size};
  // Round N: entry 0 is selected, accumulated weight 3 + deficit 0.
  auto step = d.decide(sl0_only);
  CHECK(step.new_entry);
  CHECK(step.entry == 0);
  CHECK(d.grant(sl0_only) == grant(0));
  CHECK(d.accumulated_weight() == 1);  // Round N, after delivery
  // 1 < 2 credits: the remaining unit goes to SL0's deficit counter; SL1 has
  // no packets, so SL0's entry is selected again with 3 + 1 = 4.
  step = d.decide(sl0_only);
  CHECK(step.new_entry);
  CHECK(step.entry == 0);
  CHECK(d.grant(sl0_only) == grant(0));
  CHECK(d.current_entry() == 0);
  CHECK(d.accumulated_weight() == 2);
  CHECK(d.grant(sl0_only) == grant(0));
  CHECK(d.accumulated_weight() == 0);  // Round N+1, after delivery: both packets sent
  // Stepping through the deficit: after round N it held 1 unit.
  dtable_scheduler replay({{0, 3}, {1, 3}}, {0, 1}, {2, 2});
  replay.grant(sl0_only);
  const queue_requests both{0b11, size};
  replay.grant(both);  // 1 < 2: SL0 keeps 1 unit; SL1 is active now, entry 1
  CHECK(replay.deficit_counter(0) == 1);
  CHECK(replay.current_entry() == 1);
}

TEST_CASE("dtable: an SL that becomes inactive loses its accumulated weight and deficit",
          "[dtable]") {
  dtable_scheduler d({{0, 5}, {1, 4}}, {0, 1}, {2, 4});
  const std::array<std::uint32_t, 2> size{2, 4};
  d.grant({0b11, size});                    // SL0: 5 -> 3
  d.grant({0b11, size});                    // SL0: 3 -> 1
  CHECK(d.decide({0b11, size}).new_entry);  // 1 < 2: next entry, SL0 keeps 1
  d.grant({0b11, size});
  CHECK(d.deficit_counter(0) == 1);
  CHECK(d.current_sl() == 1);
  d.grant({0b01, size});  // SL1 inactive: its entry ends, SL0 selected: 1 + 5
  CHECK(d.deficit_counter(1) == 0);
  CHECK(d.accumulated_weight() == 4);
  d.grant({0b10, size});  // SL0 inactive: discarded, deficit 0; SL1: 4 -> 0
  CHECK(d.deficit_counter(0) == 0);
  CHECK(d.current_sl() == 1);
  CHECK(d.accumulated_weight() == 0);
}

TEST_CASE("dtable: Section 4.3.3, the VLs of one SL are served round robin, one per selection",
          "[dtable][paper]") {
  // SL0 spans SC0, SC1, SC2 (queues 0..2); SL1 is queue 3.
  dtable_scheduler d({{0, 1}, {1, 1}}, {0, 0, 0, 1}, {1, 1});
  const std::array<std::uint32_t, 4> size{1, 1, 1, 1};
  std::vector<std::size_t> order;
  for (int i = 0; i < 8; ++i) order.push_back(d.grant({0b1111, size}).index());
  CHECK(order == std::vector<std::size_t>{0, 3, 1, 3, 2, 3, 0, 3});
}

TEST_CASE("dtable: Section 5.4, entry distance sets latency at equal bandwidth",
          "[dtable][paper]") {
  // 64 entries: SL0 every other entry with weight 2, SL1 every fourth with 4.
  std::vector<dtable_entry> table(64);
  for (std::size_t e = 0; e < 64; ++e)
    table[e] =
        e % 2 == 0 ? dtable_entry{0, 2} : (e % 4 == 1 ? dtable_entry{1, 4} : dtable_entry{2, 1});
  dtable_scheduler d(table, {0, 1, 2}, {1, 1, 1});
  CHECK(d.sl_weight(0) == d.sl_weight(1));  // phi_0 = phi_1
  CHECK(d.entry_distance(0) == 2);
  CHECK(d.entry_distance(1) == 4);
  const std::array<std::uint32_t, 3> size{1, 1, 1};
  std::array<std::uint64_t, 3> sent{}, worst_wait{}, wait{};
  for (int i = 0; i < 144 * 44; ++i) {  // 44 cycles of 64 + 64 + 16 packets
    const grant g = d.grant({0b111, size});
    REQUIRE(g.index() < 3);
    const std::size_t q = g.index() % 3;
    ++sent[q];
    for (std::size_t s = 0; s < 3; ++s) {
      wait[s] = s == q ? 0 : wait[s] + 1;
      worst_wait[s] = std::max(worst_wait[s], wait[s]);
    }
  }
  CHECK(sent[0] == sent[1]);
  CHECK(worst_wait[0] < worst_wait[1]);
  CHECK(worst_wait[0] == 4);  // at most one SL1 entry (4 packets) between SL0's
  CHECK(worst_wait[1] == 5);  // SL0 2 + SL2 1 + SL0 2 between two SL1 entries
}

TEST_CASE("dtable: configuration errors name the entry or field", "[dtable][config]") {
  CHECK_THROWS_WITH(dtable_scheduler({{0, 3}, {1, 1}}, {0, 1}, {2, 2}),
                    "dtable_scheduler: table[1].weight = 1; allowed: 2..16777216 (at least SL1's "
                    "MTU, so a selected entry can send a packet)");
  CHECK_THROWS_WITH(dtable_scheduler({{0, 3}, {2, 3}}, {0, 1}, {2, 2}),
                    "dtable_scheduler: table[1].sl = 2; allowed: an SL with an MTU in SL_MTU");
  CHECK_THROWS_WITH(dtable_scheduler({{0, 3}}, {0, 4}, {2}),
                    "dtable_scheduler: SL of queue 1 = 4; allowed: an SL with an MTU, 0..0");
  CHECK_THROWS_AS(dtable_scheduler(std::vector<dtable_entry>(257, {0, 1}), {0}, {1}),
                  interlock::config_error);
  CHECK_THROWS_AS(dtable_scheduler({{0, 1}}, {0}, {0}), interlock::config_error);
}

TEST_CASE("dtable: a head packet larger than its SL's MTU is a precondition violation",
          "[dtable][config]") {
  dtable_scheduler d({{0, 3}}, {0}, {2});
  const std::array<std::uint32_t, 1> size{3};
  CHECK_THROWS(d.grant({0b1, size}));
}

namespace {

struct dtable_case {
  std::vector<dtable_entry> table;
  std::vector<std::uint8_t> sls;
  std::vector<std::uint32_t> mtu;
};

rc::Gen<dtable_case> gen_dtable_case() {
  return rc::gen::exec([] {
    const std::size_t sl_count = *rc::gen::inRange<std::size_t>(1, 6);
    std::vector<std::uint32_t> mtu(sl_count);
    for (auto& m : mtu) m = *rc::gen::inRange<std::uint32_t>(1, 9);
    const std::size_t n = *rc::gen::inRange<std::size_t>(sl_count, 129);
    std::vector<dtable_entry> table(n);
    for (std::size_t e = 0; e < n; ++e) {
      const auto sl =
          static_cast<std::uint8_t>(e < sl_count ? e : *rc::gen::inRange<std::size_t>(0, sl_count));
      table[e] = {sl, mtu[sl] + *rc::gen::inRange<std::uint32_t>(0, 20)};
    }
    std::shuffle(table.begin(), table.end(), std::mt19937(*rc::gen::arbitrary<unsigned>()));
    const std::size_t queues = *rc::gen::inRange<std::size_t>(sl_count, 13);
    std::vector<std::uint8_t> sls(queues);
    for (std::size_t q = 0; q < queues; ++q)
      sls[q] =
          static_cast<std::uint8_t>(q < sl_count ? q : *rc::gen::inRange<std::size_t>(0, sl_count));
    return dtable_case{table, sls, mtu};
  });
}

}  // namespace

TEST_CASE("dtable: properties", "[dtable][property]") {
  rc::prop("work conserving, arbitrate changes nothing, deficit counters stay below the MTU", [] {
    const dtable_case c = *gen_dtable_case();
    dtable_scheduler d(c.table, c.sls, c.mtu);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    std::vector<std::uint32_t> size(c.sls.size());
    for (int i = 0; i < 400; ++i) {
      for (std::size_t q = 0; q < size.size(); ++q)
        size[q] = 1 + static_cast<std::uint32_t>(rng.below(c.mtu[c.sls[q]]));
      const std::uint64_t active = rng.next() & interlock::bits::low_mask(c.sls.size());
      const queue_requests r{active, size};
      const dtable_scheduler before = d;
      const grant g = d.arbitrate(r);
      RC_ASSERT(d == before);
      RC_ASSERT(bool(g) == (active != 0));
      if (g) RC_ASSERT(((active >> g.index()) & 1u) != 0);
      d.commit(g, r);
      for (std::size_t sl = 0; sl < c.mtu.size(); ++sl)
        RC_ASSERT(d.deficit_counter(sl) < c.mtu[sl]);
    }
  });
  rc::prop("saturated: each SL sends its table weight per cycle, within one MTU and one entry", [] {
    const dtable_case c = *gen_dtable_case();
    dtable_scheduler d(c.table, c.sls, c.mtu);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const std::uint64_t all = interlock::bits::low_mask(c.sls.size());
    std::vector<std::uint32_t> size(c.sls.size());
    std::vector<std::uint64_t> sent(c.mtu.size(), 0);
    std::uint64_t cycles = 0;
    std::size_t previous = 0;
    bool started = false;
    std::uint32_t max_weight = 0;
    for (const auto& e : c.table) max_weight = std::max(max_weight, e.weight);
    for (int i = 0; i < 3000; ++i) {
      for (std::size_t q = 0; q < size.size(); ++q)
        size[q] = 1 + static_cast<std::uint32_t>(rng.below(c.mtu[c.sls[q]]));
      const queue_requests r{all, size};
      const auto step = d.decide(r);
      if (step.new_entry && started && step.entry <= previous) ++cycles;  // wrapped
      if (step.new_entry) previous = step.entry;
      started = true;
      const grant g = d.grant(r);
      sent[c.sls[g.index()]] += size[g.index()];
    }
    for (std::size_t sl = 0; sl < c.mtu.size(); ++sl) {
      const std::uint64_t w = d.sl_weight(sl);
      RC_ASSERT(sent[sl] + c.mtu[sl] >= cycles * w);
      RC_ASSERT(sent[sl] <= (cycles + 1) * w + c.mtu[sl]);
    }
  });
  rc::prop("latency: between two grants to a saturated SL at most d - 1 foreign entries serve", [] {
    const dtable_case c = *gen_dtable_case();
    dtable_scheduler d(c.table, c.sls, c.mtu);
    const std::uint64_t all = interlock::bits::low_mask(c.sls.size());
    std::vector<std::uint32_t> size(c.sls.size());
    for (std::size_t q = 0; q < size.size(); ++q) size[q] = c.mtu[c.sls[q]];
    std::uint32_t max_weight = 0, max_mtu = 0;
    for (const auto& e : c.table) max_weight = std::max(max_weight, e.weight);
    for (auto m : c.mtu) max_mtu = std::max(max_mtu, m);
    std::vector<std::uint64_t> waited(c.mtu.size(), 0);
    for (int i = 0; i < 3000; ++i) {
      const grant g = d.grant({all, size});
      const std::size_t sl = c.sls[g.index()];
      for (std::size_t s = 0; s < waited.size(); ++s) {
        waited[s] = s == sl ? 0 : waited[s] + size[g.index()];
        // d - 1 foreign entries, each at most its weight plus a deficit.
        const std::uint64_t bound =
            (d.entry_distance(s) - 1) * std::uint64_t{max_weight + max_mtu - 1};
        RC_ASSERT(waited[s] <= bound);
      }
    }
  });
}

TEST_CASE("dtable: a queue whose SL has no table entry is refused", "[dtable][config]") {
  // SL1 has an MTU but no entry: its queue would never be served.
  CHECK_THROWS_WITH(dtable_scheduler({{0, 4}}, {0, 1}, {2, 2}),
                    "dtable_scheduler: SL of queue 1 = 1; allowed: an SL with at least one table "
                    "entry");
  CHECK_NOTHROW(dtable_scheduler({{0, 4}, {1, 4}}, {0, 1}, {2, 2}));
}

TEST_CASE("dtable: the deficit moves into the accumulated weight while its entry is served",
          "[dtable]") {
  // Figure 5.2: after round N SL0 keeps 1 unit; when its entry is selected
  // again the unit joins the accumulated weight (1 + 3 = 4) and the counter
  // reads 0 until the entry ends.
  dtable_scheduler d({{0, 3}, {1, 3}}, {0, 1}, {2, 2});
  const std::array<std::uint32_t, 2> size{2, 2};
  const queue_requests sl0_only{0b01, size};
  d.grant(sl0_only);
  CHECK(d.accumulated_weight() == 1);
  d.grant(sl0_only);  // 1 < 2: the entry ends with 1 in the deficit, and is selected again
  CHECK(d.accumulated_weight() == 2);
  CHECK(d.deficit_counter(0) == 0);  // moved, not copied
}
