// SPDX-License-Identifier: BSL-1.0
// The QoS switch's virtual allocation rules (interlock/model/switch/allocation.hpp,
// config.hpp's va_rule): what an input arbiter offers, and that either rule
// keeps the switch's invariants.
#include <catch2/catch.hpp>
#include <interlock/model/switch/network.hpp>

#include <cstdint>
#include <vector>

namespace {

using namespace interlock::model;

// Table 2.2's configuration A: SL i on SC i on VL i, 50/40/10, SBT 60/30/10.
service_levels config_a() { return service_levels({0, 1, 2}, {0, 1, 2}); }
sl_traffic traffic_a() { return sl_traffic{{0.5, 0.4, 0.1}, {16, 16, 16}}; }

switch_network<interlock::qos::sbt_scheduler> network(va_rule va, std::size_t ports = 48) {
  switch_shape shape = opa_48_port();
  shape.ports = ports;
  shape.va = va;
  return switch_network<interlock::qos::sbt_scheduler>(
      single_switch(ports), shape, config_a(), traffic_a(), sbt_for(config_a(), {60, 30, 10}));
}

double total(const std::vector<sl_result>& r) {
  double sum = 0;
  for (const auto& x : r) sum += x.throughput;
  return sum;
}

}  // namespace

TEST_CASE("switch VA: under contention the routed rule picks heads with no room, can_go never",
          "[model][switch][va]") {
  // Uniform traffic past saturation fills output buffers: an input's routed
  // heads are often headed for a full one.
  auto can_go = network(va_rule::can_go);
  can_go.run(switch_pattern::uniform, 1.3, 2000, 6000, 5);
  CHECK(can_go.blocked_picks() == 0);
  auto routed = network(va_rule::routed);
  routed.run(switch_pattern::uniform, 1.3, 2000, 6000, 5);
  CHECK(routed.blocked_picks() > 1000);
  // The same traffic, another allocation: the runs differ.
  CHECK(routed.results()[0].latency_mean != can_go.results()[0].latency_mean);
}

TEST_CASE("switch VA: without contention both rules carry the same and nothing is blocked",
          "[model][switch][va]") {
  // Each NIC sends to the next at 0.5: no output receives from two inputs.
  for (const va_rule va : {va_rule::can_go, va_rule::routed}) {
    auto net = network(va);
    net.run(switch_pattern::shift, 0.5, 2000, 8000, 3);
    CHECK(net.blocked_picks() == 0);
    CHECK(total(net.results()) == Approx(0.5).epsilon(0.03));
  }
}

TEST_CASE("switch VA: the routed rule keeps packets and credits conserved, at 48 and 8 ports",
          "[model][switch][va]") {
  for (const std::size_t ports : {48u, 8u}) {
    INFO(ports << " ports");
    auto net = network(va_rule::routed, ports);
    net.run(switch_pattern::uniform, 1.3, 2000, 6000, 11);
    INFO(net.audit());
    REQUIRE(net.audit().empty());
    REQUIRE(net.packets_in_flight() > 0);
    net.drain();
    INFO(net.audit());
    REQUIRE(net.audit().empty());
    REQUIRE(net.packets_delivered() == net.packets_created());
  }
}
