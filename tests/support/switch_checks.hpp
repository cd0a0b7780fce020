// SPDX-License-Identifier: BSL-1.0
// A check the QoS switch's tests share: a switch network run past
// saturation keeps its invariants, holds packets, and after a drain has
// delivered every packet it created with every buffer empty.
#ifndef INTERLOCK_TESTS_SUPPORT_SWITCH_CHECKS_HPP
#define INTERLOCK_TESTS_SUPPORT_SWITCH_CHECKS_HPP

#include <catch2/catch.hpp>
#include <interlock/model/switch/network.hpp>

#include <cstdint>

namespace interlock_test {

/// Runs `net` under uniform traffic at 1.3 flits/cycle/NIC (seed 11), then
/// drains it, checking the audit both times and that nothing is lost.
template <class Network>
void check_switch_conserved(Network& net) {
  net.run(interlock::model::switch_pattern::uniform, 1.3, 2000, 6000, 11);
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
