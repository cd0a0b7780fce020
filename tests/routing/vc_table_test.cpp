// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/routing/vc_table.hpp: Table 1 of Scott & Thorson
// (HOTI'96), the VC balance metric against an independent count, and the
// optimizer.
#include "support/interlock_test.hpp"

#include <interlock/routing/vc_table.hpp>

#include <cmath>
#include <cstdlib>
#include <vector>

using interlock::ring_vc_assignment;
using interlock::vc_balance;

namespace {

// Table 1's printed values: rounded half up to three decimals.
double printed(double x) { return std::floor(x * 1000 + 0.5) / 1000; }

struct table1_row {
  std::size_t ring, subring;
  vc_balance time_of_crossing, limited, full;
};
const std::vector<table1_row> table1 = {
    {4, 4, {1, 1}, {0, 0}, {0, 0}},
    {8, 8, {.813, 1}, {.031, .250}, {.031, .250}},
    {8, 4, {.625, 1}, {.125, .250}, {.125, .250}},
    {16, 16, {.813, 1}, {.137, .563}, {.133, .563}},
    {16, 8, {.656, 1}, {.063, .313}, {.063, .313}},
    {16, 4, {.625, 1}, {.125, .250}, {.125, .250}},
    {32, 32, {.807, 1}, {.220, .875}, {.173, .797}},
    {32, 16, {.664, 1}, {.246, .609}, {.062, .250}},
    {32, 8, {.656, 1}, {.488, 1}, {.031, .063}},
    {32, 4, {.625, 1}, {.594, 1}, {.125, .250}},
};

// The balance counted from scratch: walk each route of the level hop by hop.
vc_balance brute_force(const ring_vc_assignment& a, std::size_t level) {
  const std::size_t k = a.ring_size();
  std::vector<long> vc0(k, 0), vc1(k, 0);
  for (std::size_t s = 0; s < k; ++s)
    for (std::size_t d = 0; d < k; ++d) {
      if (d == s) continue;
      const std::size_t dist = (d + k - s) % k;
      bool used;
      if (level >= k)
        used = 2 * dist < k || (2 * dist == k && s % 2 == 0);
      else
        used = d > s && s / level == d / level && (s / level + 1) * level <= k;
      if (!used) continue;
      unsigned vc = a.vc(s, d);
      std::size_t node = s;
      for (std::size_t h = 0; h < dist; ++h) {
        if (node == 0 && h > 0 && vc == 0) vc = 1;  // passed through the dateline node
        (vc != 0 ? vc1 : vc0)[node] += 1;
        node = (node + 1) % k;
      }
    }
  long busiest = 0;
  for (std::size_t l = 0; l < k; ++l) busiest = std::max(busiest, vc0[l] + vc1[l]);
  vc_balance b;
  for (std::size_t l = 0; l < k; ++l) {
    const double x = static_cast<double>(std::labs(vc0[l] - vc1[l])) / static_cast<double>(busiest);
    b.average += x / static_cast<double>(k);
    b.maximum = std::max(b.maximum, x);
  }
  return b;
}

std::vector<vc_balance> caps_of(std::size_t ring, bool full) {
  std::vector<vc_balance> caps;
  for (const table1_row& row : table1)
    if (row.ring == ring) {
      const vc_balance v = full ? row.full : row.limited;
      caps.push_back({v.average + 0.0005, v.maximum + 0.0005});  // at most the printed value
    }
  return caps;
}

}  // namespace

TEST_CASE("Table 1: the time-of-crossing column, exactly", "[vc_table]") {
  for (const table1_row& row : table1) {
    const vc_balance b = interlock::measure_balance(ring_vc_assignment(row.ring), row.subring);
    INFO("ring " << row.ring << ", subring " << row.subring);
    CHECK(printed(b.average) == row.time_of_crossing.average);
    CHECK(printed(b.maximum) == row.time_of_crossing.maximum);
  }
}

TEST_CASE("Table 1: the optimized columns, at least as good as the T3E's", "[vc_table]") {
  // Rings 4, 8 and 16, with the 8-entry limit and with full tables. The
  // 32-node ring is exercised by examples/tools/vc_balance (docs/routing/vc_table.md
  // shows the comparison).
  for (std::size_t ring : {4u, 8u, 16u}) {
    for (bool full : {false, true}) {
      interlock::vc_optimizer_options options;
      options.caps = caps_of(ring, full);
      const ring_vc_assignment a = interlock::optimize_vc_assignment(
          ring, full ? ring : ring_vc_assignment::t3e_entries, options);
      CHECK_NOTHROW(interlock::validate(a));
      for (const table1_row& row : table1) {
        if (row.ring != ring) continue;
        const vc_balance b = interlock::measure_balance(a, row.subring);
        const vc_balance paper = full ? row.full : row.limited;
        INFO("ring " << ring << ", subring " << row.subring
                     << (full ? ", full tables" : ", 8 entries"));
        CHECK(printed(b.average) <= paper.average);
        CHECK(printed(b.maximum) <= paper.maximum);
      }
    }
  }
}

TEST_CASE("measure_balance equals an independent count", "[vc_table][property]") {
  rc::prop("for random valid assignments of rings of 2..24 nodes, every level", [] {
    const auto k = *rc::gen::inRange<std::size_t>(2, 25);
    const auto entries = *rc::gen::element<std::size_t>(8, k);
    ring_vc_assignment a(k, entries);
    // Random bits on entries no constrained route uses.
    for (std::size_t s = 0; s < k; ++s)
      for (std::size_t e = 0; e < a.entries(); ++e) {
        bool forced = false;
        for (std::size_t level : interlock::balance_levels(k))
          for (const auto& [src, dst] : interlock::balance_routes(k, level))
            forced = forced ||
                     (src == s && a.entry_of(dst) == e && interlock::crosses_dateline(src, dst));
        if (!forced && *rc::gen::arbitrary<bool>()) a.set(s, e, 1);
      }
    interlock::validate(a);
    for (std::size_t level : interlock::balance_levels(k)) {
      const vc_balance mine = interlock::measure_balance(a, level), theirs = brute_force(a, level);
      RC_ASSERT(std::abs(mine.average - theirs.average) < 1e-12);
      RC_ASSERT(std::abs(mine.maximum - theirs.maximum) < 1e-12);
    }
  });
}

TEST_CASE("optimize_vc_assignment: other ring sizes, checked by the independent count",
          "[vc_table]") {
  for (std::size_t ring : {6u, 12u, 20u}) {
    interlock::vc_optimizer_options options;
    options.iterations = 200000;
    const ring_vc_assignment a = interlock::optimize_vc_assignment(ring, 8, options);
    CHECK_NOTHROW(interlock::validate(a));
    for (std::size_t level : interlock::balance_levels(ring)) {
      const vc_balance b = interlock::measure_balance(a, level), count = brute_force(a, level);
      const vc_balance toc = interlock::measure_balance(ring_vc_assignment(ring), level);
      CHECK(b.average == Approx(count.average));
      CHECK(b.maximum == Approx(count.maximum));
      CHECK(b.average < toc.average);  // better than time of crossing
    }
  }
}

TEST_CASE("optimize_vc_assignment: tables safe for every route still beat time of crossing",
          "[vc_table]") {
  for (std::size_t ring : {5u, 8u, 12u}) {
    interlock::vc_optimizer_options options;
    options.routes = interlock::vc_routes::every_route;
    const ring_vc_assignment a = interlock::optimize_vc_assignment(ring, 8, options);
    CHECK_NOTHROW(interlock::validate(a, interlock::vc_routes::every_route));
    for (std::size_t s = 0; s < ring; ++s)
      for (std::size_t d = 0; d < ring; ++d)
        if (interlock::constrained_route(s, d, interlock::vc_routes::every_route))
          CHECK(a.vc(s, d) == 0);
    const vc_balance toc = interlock::measure_balance(ring_vc_assignment(ring), ring);
    CHECK(interlock::measure_balance(a, ring).average < toc.average);
  }
}

TEST_CASE("vc tables: levels, routes and bad input", "[vc_table][config]") {
  CHECK(interlock::balance_levels(32) == std::vector<std::size_t>{32, 16, 8, 4});
  CHECK(interlock::balance_levels(12) == std::vector<std::size_t>{12, 8, 4});
  CHECK(interlock::balance_levels(4) == std::vector<std::size_t>{4});
  CHECK(interlock::crosses_dateline(7, 1));
  CHECK_FALSE(interlock::crosses_dateline(7, 0));  // ends at the dateline node
  CHECK_FALSE(interlock::crosses_dateline(1, 7));
  CHECK_THROWS_WITH(ring_vc_assignment(65), "ring_vc_assignment: ring size = 65; allowed: 2..64");
  CHECK_THROWS_AS(ring_vc_assignment(8, 0), interlock::config_error);
  ring_vc_assignment a(16);
  CHECK(a.entry_of(13) == 5);  // 8 entries: the low three bits
  a.set(15, 5, 1);             // the + route 15 -> 5 passes node 0
  CHECK_THROWS_AS(interlock::validate(a), interlock::config_error);
  CHECK_THROWS_AS(a.set(16, 0, 1), interlock::config_error);
  interlock::vc_optimizer_options bad;
  bad.caps = {{0.1, 0.1}};
  CHECK_THROWS_AS(interlock::optimize_vc_assignment(16, 8, bad), interlock::config_error);
}

TEST_CASE("vc tables: flip checks its arguments", "[vc_table][contract]") {
  interlock::ring_vc_assignment ring(4);
  CHECK_THROWS_AS(ring.flip(70, 0), interlock::contract_violation);  // once a heap overflow
  CHECK_THROWS_AS(ring.flip(0, 70), interlock::contract_violation);  // once a shift by 70
  ring.flip(1, 2);
  CHECK(ring.vc(1, 2) == 1);
}
