// SPDX-License-Identifier: BSL-1.0
// What the QoS switch's tests share: [QoSThesis] Table 2.2's
// configurations A and B, one SL on one VL, the sum of an SL table's
// throughputs, and a check that a switch network run past saturation keeps
// its invariants, holds packets, and after a drain has delivered every
// packet it created with every buffer empty.
#ifndef INTERLOCK_TESTS_SUPPORT_SWITCH_CHECKS_HPP
#define INTERLOCK_TESTS_SUPPORT_SWITCH_CHECKS_HPP

#include <catch2/catch.hpp>
#include <interlock/model/qos_switch.hpp>

#include <cstdint>
#include <vector>

namespace interlock_test {

// Table 2.2, configuration A: SL i on SC i on VL i; 50/40/10 of the
// injected flits (its SBT table: 60/30/10).
inline interlock::model::qos_switch::service_levels config_a() {
  return interlock::model::qos_switch::service_levels({0, 1, 2}, {0, 1, 2});
}
inline interlock::model::qos_switch::sl_traffic traffic_a() {
  return interlock::model::qos_switch::sl_traffic{{0.5, 0.4, 0.1}, {16, 16, 16}};
}
// Configuration B: SL0 on SC1, SL1 on SC2, SL2 on SC3; SC1 on VL1, SCs 2
// and 3 share VL2; 40/50/10 generated (its table: 50/30/20).
inline interlock::model::qos_switch::service_levels config_b() {
  return interlock::model::qos_switch::service_levels({1, 2, 3}, {0, 1, 2, 2});
}
inline interlock::model::qos_switch::sl_traffic traffic_b() {
  return interlock::model::qos_switch::sl_traffic{{0.4, 0.5, 0.1}, {16, 16, 16}};
}
/// One SL, on SC 0 and VL 0.
inline interlock::model::qos_switch::service_levels one_sl() {
  return interlock::model::qos_switch::service_levels({0}, {0});
}

/// The sum of the SLs' throughputs.
inline double total(const std::vector<interlock::model::qos_switch::sl_result>& r) {
  double sum = 0;
  for (const auto& x : r) sum += x.throughput;
  return sum;
}

/// Runs `net` under uniform traffic at 1.3 flits/cycle/NIC (seed 11), then
/// drains it, checking the audit both times and that nothing is lost.
template <class Network>
void check_switch_conserved(Network& net) {
  net.run(interlock::model::qos_switch::pattern::uniform, 1.3, 2000, 6000, 11);
  INFO(net.audit());
  REQUIRE(net.audit().empty());
  REQUIRE(net.packets_in_flight() > 0);
  net.drain();
  INFO(net.audit());
  REQUIRE(net.audit().empty());
  REQUIRE(net.packets_delivered() == net.packets_created());
}

}  // namespace interlock_test

#endif  // INTERLOCK_TESTS_SUPPORT_SWITCH_CHECKS_HPP
