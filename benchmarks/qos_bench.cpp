// SPDX-License-Identifier: BSL-1.0
// Per-packet decision latency (arbitrate + commit) of the QoS output
// schedulers with 16 queues (VLs), against floor/16/<density%>, a 16-way
// bit-mask round robin measured in the same run. Each decision's active
// queues are a random mask with the given density (10%, 50%, 90%).
//   sbt/16/<d>          Simple Bandwidth Table, 16 SLs, one VL each
//   dtable64/16/<d>     Deficit Table, 64 entries, 16 SLs, MTUs 1..4 credits
//   dtable128/16/<d>    the same with 128 entries
//   ib_vl/16/<d>        InfiniBand dual table, 64 + 64 entries over VLs 0..14
//                       (VL15 is management), LimitOfHighPriority 1, packets
//                       of 64..4096 bytes
// Each reports state_bytes, the scheduler's per-port state (the table is
// shared by every port and not counted): SBT 48, DTable 56, IB 16.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <vector>

#include <interlock/qos/dtable.hpp>
#include <interlock/qos/ib_vl_arbiter.hpp>
#include <interlock/qos/sbt.hpp>

#include "support/floor.hpp"
#include "support/streams.hpp"

namespace {

using namespace interlock_bench;
using interlock::qos::queue_requests;

constexpr std::size_t queues = 16;
constexpr double densities[] = {0.1, 0.5, 0.9};
constexpr std::size_t decisions = 65536;

std::vector<std::uint64_t> active_stream(double density) {
  return request_words(queues, density, decisions,
                       5000 + static_cast<std::uint64_t>(density * 100));
}

std::vector<std::uint8_t> one_sl_per_queue() {
  std::vector<std::uint8_t> sls(queues);
  for (std::size_t q = 0; q < queues; ++q) sls[q] = static_cast<std::uint8_t>(q);
  return sls;
}

/// A DTable of `entries` entries: SL i gets entries in proportion to i % 4 + 1
/// at random positions, weights MTU..MTU + 16.
interlock::qos::dtable_scheduler make_dtable(std::size_t entries) {
  rng r(entries);
  std::vector<std::uint32_t> mtu(queues);
  for (std::size_t sl = 0; sl < queues; ++sl) mtu[sl] = 1 + static_cast<std::uint32_t>(sl % 4);
  std::vector<interlock::qos::dtable_entry> table(entries);
  for (std::size_t e = 0; e < entries; ++e) {
    const auto sl = static_cast<std::uint8_t>(e < queues ? e : r.next() % queues);
    table[e] = {sl, mtu[sl] + static_cast<std::uint32_t>(r.next() % 17)};
  }
  return interlock::qos::dtable_scheduler(table, one_sl_per_queue(), mtu);
}

interlock::qos::ib_vl_arbiter make_ib() {
  rng r(64);
  interlock::qos::ib_vl_arbitration_config c;
  for (std::size_t e = 0; e < 64; ++e) {
    c.high.push_back(
        {static_cast<std::uint8_t>(r.next() % 8), static_cast<std::uint8_t>(r.next() % 256)});
    c.low.push_back(
        {static_cast<std::uint8_t>(8 + r.next() % 7), static_cast<std::uint8_t>(r.next() % 256)});
  }
  c.limit_of_high_priority = 1;
  return interlock::qos::ib_vl_arbiter(c);
}

template <class Make>
void register_scheduler(const char* policy, Make make, std::array<std::uint32_t, queues> sizes,
                        std::uint64_t mask = ~std::uint64_t{0}) {
  for (double density : densities) {
    benchmark::RegisterBenchmark(
        name(policy, queues, density).c_str(), [=](benchmark::State& state) {
          const std::vector<std::uint64_t> active = active_stream(density);
          auto scheduler = make();
          time_decisions(state, active.size(), [&](std::size_t k) {
            const queue_requests r{active[k] & mask, sizes};
            return scheduler.grant(r).index();
          });
          // The per-port state; the table is shared.
          state.counters["state_bytes"] =
              static_cast<double>(sizeof(typename decltype(scheduler)::state_type));
        });
  }
}

void register_all() {
  for (double density : densities) {
    benchmark::RegisterBenchmark(
        name("floor", queues, density).c_str(),
        [=](benchmark::State& state) { time_floor(state, queues, density); });
  }
  std::array<std::uint32_t, queues> credits{};
  for (std::size_t q = 0; q < queues; ++q) credits[q] = 1 + static_cast<std::uint32_t>(q % 4);
  std::array<std::uint32_t, queues> bytes{};
  for (std::size_t q = 0; q < queues; ++q) bytes[q] = 64u << (q % 7);
  register_scheduler(
      "sbt",
      [] {
        std::vector<std::uint32_t> weights(queues, 6);
        weights[0] = 10;
        return interlock::qos::sbt_scheduler(weights, one_sl_per_queue());
      },
      credits);
  register_scheduler(
      "dtable64", [] { return make_dtable(64); }, credits);
  register_scheduler(
      "dtable128", [] { return make_dtable(128); }, credits);
  register_scheduler("ib_vl", make_ib, bytes, 0x7FFFu);
}

const bool registered = (register_all(), true);

}  // namespace
