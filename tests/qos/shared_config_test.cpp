// SPDX-License-Identifier: BSL-1.0
// Shared configuration and small per-port state: DTable, SBT, InfiniBand VL
// arbitration and the inverse-weighted arbiters keep the table a fabric
// manager programs in one immutable object that every port shares, and
// only a few words of state per port.
#include "support/interlock_test.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weighted_exact.hpp>
#include <interlock/qos/dtable.hpp>
#include <interlock/qos/ib_vl_arbiter.hpp>
#include <interlock/qos/sbt.hpp>

using interlock::qos::queue_requests;

// The documented per-port state sizes (docs/qos/*.md, the benchmark's state_bytes).
static_assert(sizeof(interlock::qos::dtable_scheduler::state_type) == 56);
static_assert(sizeof(interlock::qos::basic_dtable_scheduler<32>::state_type) == 104);
static_assert(sizeof(interlock::qos::sbt_scheduler::state_type) == 48);
static_assert(sizeof(interlock::qos::ib_vl_arbiter::state_type) == 16);

namespace {
std::vector<std::uint8_t> one_sl_per_queue(std::size_t n) {
  std::vector<std::uint8_t> sls(n);
  for (std::size_t q = 0; q < n; ++q) sls[q] = static_cast<std::uint8_t>(q);
  return sls;
}

// Ports over one shared table: each keeps its own state; equality is
// table and state; a copy shares the table.
template <class Scheduler>
const auto& shared(const Scheduler& s) {
  if constexpr (std::is_same_v<Scheduler, interlock::qos::ib_vl_arbiter>) {
    return s.shared_tables();
  } else {
    return s.shared_table();
  }
}

template <class Scheduler, class Table>
void check_sharing(const std::shared_ptr<const Table>& table, const Table& same_contents,
                   const queue_requests& r) {
  Scheduler a(table), b(table);
  CHECK(shared(a) == shared(b));
  CHECK(table.use_count() == 3);
  CHECK(a == b);
  a.grant(r);
  CHECK_FALSE(a == b);  // only a's state moved
  CHECK(b.state() == Scheduler(table).state());
  b.grant(r);
  CHECK(a == b);  // the same decisions from the same state
  const Scheduler copy = a;
  CHECK(shared(copy) == table);
  // Another table with the same contents compares equal; the states decide.
  Scheduler c(std::make_shared<const Table>(same_contents));
  c.grant(r);
  CHECK(c == a);
}
}  // namespace

TEST_CASE("DTable: one shared deficit_table, a 56-byte state per port", "[dtable][shared]") {
  const std::vector<interlock::qos::dtable_entry> entries{{0, 4}, {1, 4}, {0, 6}};
  const auto table = std::make_shared<const interlock::qos::deficit_table>(
      entries, std::vector<std::uint8_t>{0, 1}, std::vector<std::uint32_t>{2, 2});
  const std::array<std::uint32_t, 2> size{2, 2};
  check_sharing<interlock::qos::dtable_scheduler>(
      table, interlock::qos::deficit_table(entries, {0, 1}, {2, 2}), queue_requests{0b11, size});
  // Different tables with the same state are different schedulers.
  CHECK_FALSE(interlock::qos::dtable_scheduler(entries, {0, 1}, {2, 2}) ==
              interlock::qos::dtable_scheduler({{0, 4}, {1, 5}}, {0, 1}, {2, 2}));
  // 17 SLs need the 32-SL state.
  std::vector<std::uint32_t> mtu(17, 1);
  std::vector<interlock::qos::dtable_entry> wide;
  for (std::uint8_t sl = 0; sl < 17; ++sl) wide.push_back({sl, 1});
  const auto wide_table =
      std::make_shared<const interlock::qos::deficit_table>(wide, one_sl_per_queue(17), mtu);
  CHECK_THROWS_WITH(interlock::qos::dtable_scheduler(wide_table),
                    "dtable_scheduler: SL count of the table = 17; allowed: 1..16");
  CHECK(interlock::qos::basic_dtable_scheduler<32>(wide_table).sl_count() == 17);
  CHECK_THROWS_AS(interlock::qos::dtable_scheduler(nullptr), interlock::config_error);
  // An MTU above 65535 credits cannot be held by the 16-bit deficit counters.
  CHECK_THROWS_WITH(interlock::qos::deficit_table({{0, 70000}}, {0}, {65536}),
                    "dtable_scheduler: SL_MTU[0] = 65536; allowed: 1..65535");
}

TEST_CASE("SBT: one shared bandwidth_table, a 48-byte state per port", "[sbt][shared]") {
  const auto table = std::make_shared<const interlock::qos::bandwidth_table>(
      std::vector<std::uint32_t>{55, 45}, std::vector<std::uint8_t>{0, 1});
  check_sharing<interlock::qos::sbt_scheduler>(
      table, interlock::qos::bandwidth_table({55, 45}, {0, 1}), queue_requests{0b11, {}});
  CHECK_THROWS_AS(interlock::qos::sbt_scheduler(nullptr), interlock::config_error);
}

TEST_CASE("IB VL arbitration: shared tables, a 16-byte state per port", "[ib_vl][shared]") {
  interlock::qos::ib_vl_arbitration_config c{{{0, 3}, {1, 3}}, {{2, 2}, {3, 2}}, 1};
  const auto tables = std::make_shared<const interlock::qos::vl_arbitration_tables>(c);
  const std::array<std::uint32_t, 4> size{64, 64, 64, 64};
  check_sharing<interlock::qos::ib_vl_arbiter>(tables, interlock::qos::vl_arbitration_tables(c),
                                               queue_requests{0b0101, size});
  CHECK_THROWS_AS(
      interlock::qos::ib_vl_arbiter(std::shared_ptr<const interlock::qos::vl_arbitration_tables>()),
      interlock::config_error);
}

TEST_CASE("inverse-weighted arbiters share their weights", "[inverse_weighted][shared]") {
  using arbiter = interlock::inverse_weighted_arbiter<2, 1, 8>;
  const auto weights =
      std::make_shared<const arbiter::table_type>(interlock::weights_from_loads({{1.0}, {0.5}}, 8));
  arbiter a(weights), b(weights);
  CHECK(a.shared_weights() == b.shared_weights());
  const std::array<std::uint8_t, 2> labels{0, 0};
  const interlock::pattern_requests both{0b11, labels};
  int served[2] = {};
  for (int k = 0; k < 300; ++k) ++served[a.grant(both).index()];
  CHECK(served[0] == 200);       // Figure 5, arbiter A: 2 : 1
  CHECK(b.accumulator(0) == 0);  // b's state did not move
  CHECK_FALSE(a == b);
  using exact = interlock::inverse_weighted_exact<2, 1>;
  const auto loads =
      std::make_shared<const exact::table_type>(interlock::load_matrix{{1.0}, {0.5}});
  exact e(loads), f(loads);
  CHECK(e == f);
  CHECK_THROWS_AS(arbiter(std::shared_ptr<const arbiter::table_type>()), interlock::config_error);
}
