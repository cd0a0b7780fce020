// SPDX-License-Identifier: BSL-1.0
// qos_switch::measurement's figures over no samples: an SL that delivered no
// message has no latency (NaN, never 0), a window that delivered no flit no
// shares; a mean over seeds takes each figure over the runs that measured
// it, and is the plain mean, bit for bit, where every run did.
#include <catch2/catch.hpp>
#include <interlock/model/qos_switch/sl_measurement.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using namespace interlock::model;
using namespace interlock::model::qos_switch;

bool none(double x) { return std::isnan(x); }

}  // namespace

TEST_CASE("switch measurement: an SL that delivered nothing has no latency, not 0",
          "[model][switch]") {
  qos_switch::measurement m(2);
  m.reset(0);
  m.created(0, 16, 5);
  m.created(1, 16, 6);
  m.delivered(1, 16, 180, 170, 185);
  const std::vector<sl_result> r = m.results(1, 200);
  CHECK(none(r[0].latency_mean));
  CHECK(none(r[0].network_latency_mean));
  CHECK(r[0].normalized_throughput == 0);  // flits were delivered, none of SL 0's
  CHECK(r[1].latency_mean == 180);
  CHECK(r[1].network_latency_mean == 170);
}

TEST_CASE("switch measurement: a window that delivered no flit has no shares", "[model][switch]") {
  qos_switch::measurement m(2);
  m.reset(0);
  m.created(0, 16, 5);
  const std::vector<sl_result> r = m.results(1, 200);
  CHECK(none(r[0].normalized_throughput));
  CHECK(none(r[1].normalized_throughput));
  CHECK(r[0].offered > 0);
  CHECK(r[0].throughput == 0);  // a rate over the window's cycles: measured, zero
}

TEST_CASE("switch measurement: a mean over seeds takes each figure over the runs that measured it",
          "[model][switch]") {
  // Seed 1 delivers SL 0 at latency 100; seed 2 delivers nothing of SL 0;
  // SL 1 is delivered by both, at 40 and 60.
  const auto run = [](std::size_t seed) {
    qos_switch::measurement m(2);
    m.reset(0);
    if (seed == 1) m.delivered(0, 8, 100, 90, 150);
    m.delivered(1, 8, seed == 1 ? 40 : 60, 30, 150);
    return m.results(1, 200);
  };
  const std::vector<sl_result> mean = mean_over_seeds(2, run);
  CHECK(mean[0].latency_mean == 100);
  CHECK(mean[0].network_latency_mean == 90);
  CHECK(mean[0].latency_runs == 1);
  CHECK(mean[1].latency_mean == 50);
  CHECK(mean[1].latency_runs == 2);
  CHECK(mean[0].packets == 1);
  // Three runs that delivered nothing of SL 0: none, not 0.
  const std::vector<sl_result> idle = mean_over_seeds(3, [](std::size_t) {
    qos_switch::measurement m(2);
    m.reset(0);
    m.delivered(1, 8, 40, 30, 150);
    return m.results(1, 200);
  });
  CHECK(none(idle[0].latency_mean));
  CHECK(idle[1].latency_mean == 40);
}

TEST_CASE("switch measurement: where every run measured, the mean is the plain one bit for bit",
          "[model][switch]") {
  const std::vector<double> latencies{101, 97, 103.5, 88, 91};
  const std::size_t n = latencies.size();
  const std::vector<sl_result> mean = mean_over_seeds(n, [&](std::size_t seed) {
    qos_switch::measurement m(1);
    m.reset(0);
    m.delivered(0, 1, 0, 0, 10);  // a latency of 0 is a measurement
    m.delivered(0, 1, static_cast<std::uint64_t>(2 * latencies[seed - 1]), 1, 20);
    return m.results(1, 200);
  });
  double plain = 0;
  for (const double l : latencies) plain += l / static_cast<double>(n);
  CHECK(mean[0].latency_mean == plain);
  CHECK(mean[0].latency_runs == n);
}
