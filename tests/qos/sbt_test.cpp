// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/qos/sbt.hpp: the Simple Bandwidth Table of [QoSThesis],
// Sections 2.3.1 and 4.3.2 (Table 4.1, Algorithm 2).
#include "support/interlock_test.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include <interlock/qos/sbt.hpp>

using interlock::grant;
using interlock::qos::queue_requests;
using interlock::qos::sbt_scheduler;
using namespace interlock_test;

namespace {

// Algorithm 2 as printed, for comparison: the walk, the reset inside the
// decision that finds every active entry dry, and the exception.
struct algorithm_2 {
  std::vector<std::uint32_t> weight, table;
  std::vector<std::uint8_t> sl_of_vl;
  std::size_t last = 0;

  int decide(std::uint64_t active) {
    int no_weight = -1;
    std::size_t empty = 0;
    const std::size_t vls = sl_of_vl.size();
    for (std::size_t i = 0; i < vls; ++i) {
      const std::size_t vl = (last + i) % vls;
      if (((active >> vl) & 1u) == 0) continue;
      if (table[sl_of_vl[vl]] > 0) {
        last = vl;
        --table[sl_of_vl[vl]];
        return static_cast<int>(vl);
      }
      no_weight = static_cast<int>(vl);
      ++empty;
    }
    if (empty == table.size()) table = weight;
    if (no_weight >= 0) last = static_cast<std::size_t>(no_weight);
    return no_weight;
  }
};

}  // namespace

TEST_CASE("sbt: Table 4.1, SL0 55 and SL1 45 share a saturated link 55:45", "[sbt][paper]") {
  sbt_scheduler sbt({55, 45}, {0, 1});
  const queue_requests both{0b11, {}};
  std::array<int, 2> sent{};
  for (int i = 0; i < 100; ++i) ++sent[sbt.grant(both).index()];
  CHECK(sent == std::array<int, 2>{55, 45});
  CHECK(sbt.remaining(0) == 55);  // restored when the total reached zero
  CHECK(sbt.remaining(1) == 45);
}

TEST_CASE("sbt: Section 4.3.2, SL0 delivering 3 packets leaves a weight of 52", "[sbt][paper]") {
  sbt_scheduler sbt({55, 45}, {0, 1});
  const queue_requests sl0{0b01, {}};
  for (int i = 0; i < 3; ++i) CHECK(sbt.grant(sl0) == grant(0));
  CHECK(sbt.remaining(0) == 52);
  CHECK(sbt.remaining(1) == 45);
}

TEST_CASE("sbt: an SL sends while it has weight, then the walk moves on", "[sbt]") {
  sbt_scheduler sbt({60, 30, 10}, {0, 1, 2});
  const queue_requests all{0b111, {}};
  std::vector<std::size_t> order;
  for (int i = 0; i < 100; ++i) order.push_back(sbt.grant(all).index());
  for (std::size_t i = 0; i < 60; ++i) REQUIRE(order[i] == 0);
  for (std::size_t i = 60; i < 90; ++i) REQUIRE(order[i] == 1);
  for (std::size_t i = 90; i < 100; ++i) REQUIRE(order[i] == 2);
}

TEST_CASE("sbt: an inactive SL keeps its remaining weight", "[sbt]") {
  sbt_scheduler sbt({55, 45}, {0, 1});
  for (int i = 0; i < 10; ++i) sbt.grant({0b01, {}});
  for (int i = 0; i < 45; ++i) CHECK(sbt.grant({0b10, {}}) == grant(1));
  CHECK(sbt.remaining(0) == 45);
  CHECK(sbt.remaining(1) == 0);
  // SL1 is dry but the only active SL: the starvation exception lets it send
  // without spending weight, and the table is not restored (SL0 holds 45).
  for (int i = 0; i < 5; ++i) CHECK(sbt.grant({0b10, {}}) == grant(1));
  CHECK(sbt.remaining(0) == 45);
  CHECK(sbt.remaining(1) == 0);
  // Both active: SL0 has weight, so it goes first and spends it all.
  for (int i = 0; i < 45; ++i) CHECK(sbt.grant({0b11, {}}) == grant(0));
  CHECK(sbt.remaining(0) == 55);  // the total reached zero: restored
}

TEST_CASE("sbt: Algorithm 2 as printed sends 101 packets per saturated cycle", "[sbt][paper]") {
  // The reset inside the decision that finds every entry dry, followed by the
  // exception without a decrement, gives one SL an extra packet per cycle;
  // restoring at zero (Section 4.3.2's text) keeps the cycle at 100.
  algorithm_2 printed{{60, 30, 10}, {60, 30, 10}, {0, 1, 2}};
  sbt_scheduler sbt({60, 30, 10}, {0, 1, 2});
  std::array<int, 3> printed_sent{}, sent{};
  for (int i = 0; i < 101 * 50; ++i) ++printed_sent[static_cast<std::size_t>(printed.decide(7))];
  for (int i = 0; i < 100 * 50; ++i) ++sent[sbt.grant({7, {}}).index()];
  CHECK(sent == std::array<int, 3>{3000, 1500, 500});
  CHECK(printed_sent[0] + printed_sent[1] + printed_sent[2] == 5050);
  CHECK(printed_sent != std::array<int, 3>{3030, 1515, 505});  // not proportional
  // Without the dry-cycle corner, the two agree decision by decision.
  algorithm_2 fresh{{60, 30, 10}, {60, 30, 10}, {0, 1, 2}};
  sbt_scheduler ours({60, 30, 10}, {0, 1, 2});
  for (int i = 0; i < 99; ++i)
    REQUIRE(ours.grant({7, {}}).index() == static_cast<std::size_t>(fresh.decide(7)));
}

TEST_CASE("sbt: the starvation exception walks backward from the queue served last",
          "[sbt][paper]") {
  // SL1 and SL2 have no weight, so queues 1 and 2 are always dry: every
  // grant among them is Algorithm 2's exception, which serves the last
  // active queue met walking from the queue served last, i.e. the active
  // queue just before it, cyclically: from queue 0, queue 2; then 1; then 2.
  sbt_scheduler sbt({100, 0, 0}, {0, 1, 2});
  const interlock::qos::queue_requests dry{0b110, {}};
  std::vector<std::size_t> order;
  for (int i = 0; i < 4; ++i) order.push_back(sbt.grant(dry).index());
  CHECK(order == std::vector<std::size_t>{2, 1, 2, 1});
  CHECK(sbt.remaining(0) == 100);  // the exception spends nothing
}

TEST_CASE("sbt: several queues of one SL share its weight round robin", "[sbt]") {
  sbt_scheduler sbt({50, 50}, {0, 0, 1});  // queues 0 and 1 carry SL0
  std::array<int, 3> sent{};
  // Queue 0 goes idle halfway: queue 1 carries on with SL0's weight.
  for (int i = 0; i < 20; ++i) ++sent[sbt.grant({0b001, {}}).index()];
  for (int i = 0; i < 30; ++i) ++sent[sbt.grant({0b010, {}}).index()];
  CHECK(sbt.remaining(0) == 0);
  for (int i = 0; i < 50; ++i) ++sent[sbt.grant({0b111, {}}).index()];
  CHECK(sent == std::array<int, 3>{20, 30, 50});
}

TEST_CASE("sbt: configuration errors name the field", "[sbt][config]") {
  CHECK_THROWS_WITH(sbt_scheduler({50, 40}, {0, 1}),
                    "sbt_scheduler: sum of weights = 90; allowed: 100 (Section 4.3.2: the "
                    "weights are percentages)");
  CHECK_THROWS_WITH(sbt_scheduler({50, 50}, {0, 2}),
                    "sbt_scheduler: SL of queue 1 = 2; allowed: an SL of the table, 0..1");
  CHECK_THROWS_AS(sbt_scheduler(std::vector<std::uint32_t>(33, 0), {0}), interlock::config_error);
  CHECK_THROWS_AS(sbt_scheduler({100}, {}), interlock::config_error);
}

namespace {

struct sbt_case {
  std::vector<std::uint32_t> weights;
  std::vector<std::uint8_t> sls;
};

rc::Gen<sbt_case> gen_sbt_case() {
  return rc::gen::exec([] {
    const std::size_t sl_count = *rc::gen::inRange<std::size_t>(1, 9);
    std::vector<std::uint32_t> weights(sl_count, 0);
    for (int unit = 0; unit < 100; ++unit) ++weights[*rc::gen::inRange<std::size_t>(0, sl_count)];
    const std::size_t queues = *rc::gen::inRange<std::size_t>(sl_count, 17);
    std::vector<std::uint8_t> sls(queues);
    for (std::size_t q = 0; q < queues; ++q)
      sls[q] =
          static_cast<std::uint8_t>(q < sl_count ? q : *rc::gen::inRange<std::size_t>(0, sl_count));
    return sbt_case{weights, sls};
  });
}

}  // namespace

TEST_CASE("sbt: properties", "[sbt][property]") {
  rc::prop("work conserving: a grant exactly when some queue is active, to an active one", [] {
    const sbt_case c = *gen_sbt_case();
    sbt_scheduler sbt(c.weights, c.sls);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    for (int i = 0; i < 500; ++i) {
      const std::uint64_t active = rng.next() & interlock::bits::low_mask(c.sls.size());
      const sbt_scheduler before = sbt;
      const grant g = sbt.arbitrate({active, {}});
      RC_ASSERT(sbt == before);
      RC_ASSERT(bool(g) == (active != 0));
      if (g) RC_ASSERT(((active >> g.index()) & 1u) != 0);
      sbt.commit(g);
    }
  });
  rc::prop("saturated shares are exactly weight_i / 100 per table cycle", [] {
    const sbt_case c = *gen_sbt_case();
    sbt_scheduler sbt(c.weights, c.sls);
    const std::uint64_t all = interlock::bits::low_mask(c.sls.size());
    const int cycles = *rc::gen::inRange(1, 6);
    std::vector<std::uint32_t> sent(c.weights.size(), 0);
    for (int i = 0; i < 100 * cycles; ++i) ++sent[c.sls[sbt.grant({all, {}}).index()]];
    for (std::size_t sl = 0; sl < c.weights.size(); ++sl)
      RC_ASSERT(sent[sl] == c.weights[sl] * static_cast<std::uint32_t>(cycles));
  });
  rc::prop(
      "no starvation: a persistently active SL with weight w waits at most 2 (100 - w) + queues",
      [] {
        const sbt_case c = *gen_sbt_case();
        const std::uint8_t watched =
            *rc::gen::inRange<std::uint8_t>(0, static_cast<std::uint8_t>(c.weights.size()));
        RC_PRE(c.weights[watched] > 0);
        sbt_scheduler sbt(c.weights, c.sls);
        std::uint64_t own = 0;
        for (std::size_t q = 0; q < c.sls.size(); ++q)
          if (c.sls[q] == watched) own |= interlock::bits::bit(q);
        splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
        const std::size_t bound = 2 * (100 - c.weights[watched]) + c.sls.size();
        std::size_t waited = 0;
        for (int i = 0; i < 3000; ++i) {
          const std::uint64_t active =
              (rng.next() & interlock::bits::low_mask(c.sls.size())) | (own & (~own + 1));
          const grant g = sbt.grant({active, {}});
          waited = c.sls[g.index()] == watched ? 0 : waited + 1;
          RC_ASSERT(waited <= bound);
        }
      });
}
