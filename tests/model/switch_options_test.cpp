// SPDX-License-Identifier: BSL-1.0
// The QoS switch's readings of [QoSThesis] as options
// (interlock/model/qos_switch/shape.hpp): the virtual allocation's rule
// (va_rule: what an input arbiter offers), a FIFO per SC inside each VL
// (sc_queues), and input buffers that route (routing_unit) or buffers that
// store (storing_unit) one packet at a time; each keeps the switch's
// invariants.
#include <catch2/catch.hpp>
#include <interlock/model/qos_switch.hpp>

#include "support/switch_checks.hpp"

#include <cstdint>
#include <vector>

namespace {

using namespace interlock::model;
using namespace interlock::model::qos_switch;
using interlock_test::config_a;
using interlock_test::config_b;
using interlock_test::total;
using interlock_test::traffic_a;
using interlock_test::traffic_b;

// Configuration A on one switch of shape.ports ports, SBT 60/30/10.
qos_switch::network<interlock::qos::sbt_scheduler> network_a(const qos_switch::shape& shape) {
  return qos_switch::network<interlock::qos::sbt_scheduler>(single_switch(shape.ports), shape,
                                                            config_a(), traffic_a(),
                                                            sbt_for(config_a(), {60, 30, 10}));
}

qos_switch::network<interlock::qos::sbt_scheduler> switch_with_va(va_rule va,
                                                                  std::size_t ports = 48) {
  qos_switch::shape shape = opa_48_port();
  shape.ports = ports;
  shape.va = va;
  return network_a(shape);
}

template <class S>
qos_switch::network<S> network_of(const S& scheduler, bool sc_queues, service_levels l,
                                  sl_traffic t, std::size_t ports = 48) {
  qos_switch::shape shape = opa_48_port();
  shape.ports = ports;
  shape.sc_queues = sc_queues;
  return qos_switch::network<S>(single_switch(ports), shape, l, t, scheduler);
}

}  // namespace

TEST_CASE("switch VA: under contention the routed rule picks heads with no room, can_go never",
          "[model][switch][va]") {
  // Uniform traffic past saturation fills output buffers: an input's routed
  // heads are often headed for a full one.
  auto can_go = switch_with_va(va_rule::can_go);
  can_go.run(qos_switch::pattern::uniform, 1.3, 2000, 6000, 5);
  CHECK(can_go.blocked_picks() == 0);
  auto routed = switch_with_va(va_rule::routed);
  routed.run(qos_switch::pattern::uniform, 1.3, 2000, 6000, 5);
  CHECK(routed.blocked_picks() > 1000);
  // The same traffic, another allocation: the runs differ.
  CHECK(routed.results()[0].latency_mean != can_go.results()[0].latency_mean);
}

TEST_CASE("switch VA: without contention both rules carry the same and nothing is blocked",
          "[model][switch][va]") {
  // Each NIC sends to the next at 0.5: no output receives from two inputs.
  for (const va_rule va : {va_rule::can_go, va_rule::routed}) {
    auto net = switch_with_va(va);
    net.run(qos_switch::pattern::shift, 0.5, 2000, 8000, 3);
    CHECK(net.blocked_picks() == 0);
    CHECK(total(net.results()) == Approx(0.5).epsilon(0.03));
  }
}

TEST_CASE("switch VA: the routed rule keeps packets and credits conserved, at 48 and 8 ports",
          "[model][switch][va]") {
  for (const std::size_t ports : {48u, 8u}) {
    INFO(ports << " ports");
    auto net = switch_with_va(va_rule::routed, ports);
    interlock_test::check_switch_conserved(net);
  }
}

TEST_CASE("switch SC queues: with an SC per VL nothing changes (Table 2.2 A)",
          "[model][switch][sc_queues]") {
  const auto run = [](bool sc_queues) {
    auto net = network_of(sbt_for(config_a(), {60, 30, 10}), sc_queues, config_a(), traffic_a());
    net.run(qos_switch::pattern::uniform, 1.3, 2000, 6000, 9);
    return net.results();
  };
  const auto fifo_per_vl = run(false), fifo_per_sc = run(true);
  for (std::size_t sl = 0; sl < 3; ++sl) {
    CHECK(fifo_per_sc[sl].throughput == fifo_per_vl[sl].throughput);
    CHECK(fifo_per_sc[sl].latency_mean == fifo_per_vl[sl].latency_mean);
  }
}

TEST_CASE(
    "switch SC queues: Table 2.2 B's SL1 is cut to its 30 % once its SC has a FIFO of its own",
    "[model][switch][sc_queues][paper]") {
  // Without contention at 1.6 flits/cycle/NIC. A FIFO per VL: VL2's head is
  // an SL1 packet five times in six, so SBT cannot give SL2 its turns and
  // SL1 keeps what it generates; a FIFO per SC: SBT serves SL2 behind SL1,
  // and SL1 falls to about its table's 30 % ([QoSThesis] Section 2.4:
  // "SL1 throughput is reduced to 30%").
  const auto shares = [](bool sc_queues) {
    auto net = network_of(sbt_for(config_b(), {50, 30, 20}), sc_queues, config_b(), traffic_b());
    net.run(qos_switch::pattern::shift, 1.6, 3000, 12000, 1);
    return net.results();
  };
  const auto per_vl = shares(false), per_sc = shares(true);
  CHECK(per_vl[1].normalized_throughput > 0.42);
  CHECK(per_vl[2].normalized_throughput < 0.10);
  CHECK(per_sc[1].normalized_throughput < 0.37);
  CHECK(per_sc[2].throughput == Approx(per_sc[2].offered).epsilon(0.05));  // all SL2 offers
  CHECK(per_sc[0].normalized_throughput > per_vl[0].normalized_throughput);
}

TEST_CASE("switch SC queues: packets and credits are conserved, at 48 and 8 ports",
          "[model][switch][sc_queues]") {
  for (const std::size_t ports : {48u, 8u}) {
    INFO(ports << " ports");
    auto net = network_of(sbt_for(config_b(), {50, 30, 20}), true, config_b(), traffic_b(), ports);
    interlock_test::check_switch_conserved(net);
  }
}

TEST_CASE("switch routing unit: one header at a time caps an input at a packet per RT cycles",
          "[model][switch][routing_unit]") {
  // Without contention at 1.6: 16-flit packets and RT = 32 cycles. One unit
  // per input buffer routes a packet every 32 cycles (0.5 flits/cycle); one
  // per VL caps each SL at 0.5 (SL0 wants 0.6 of the link); pipelined, the
  // link's rate.
  const auto run = [](routing_unit unit) {
    qos_switch::shape shape = opa_48_port();
    shape.routing = unit;
    auto net = network_a(shape);
    net.run(qos_switch::pattern::shift, 1.6, 3000, 12000, 1);
    return net.results();
  };
  const auto pipelined = run(routing_unit::pipelined), per_port = run(routing_unit::per_port),
             per_vl = run(routing_unit::per_vl);
  CHECK(total(pipelined) == Approx(1.0).margin(0.01));
  CHECK(total(per_port) == Approx(0.5).margin(0.01));
  CHECK(per_vl[0].throughput <= 0.505);  // its VL's unit: at most a packet per 32 cycles
  CHECK(per_vl[0].throughput > 0.4);
  CHECK(total(per_vl) > 0.85);
  CHECK(total(per_vl) < 0.95);
}

TEST_CASE("switch routing unit: a lone packet sees the same latency under every unit",
          "[model][switch][routing_unit]") {
  std::vector<double> latency;
  for (const routing_unit unit :
       {routing_unit::pipelined, routing_unit::per_port, routing_unit::per_vl}) {
    qos_switch::shape shape = opa_48_port();
    shape.routing = unit;
    auto net = network_a(shape);
    net.inject(0, 9, 0);  // across the central crossbar
    net.drain();
    latency.push_back(net.results()[0].latency_mean);
    REQUIRE(net.audit().empty());
  }
  CHECK(latency[0] > 0);
  CHECK(latency[1] == latency[0]);
  CHECK(latency[2] == latency[0]);
}

TEST_CASE("switch routing unit: packets and credits are conserved, at 48 and 8 ports",
          "[model][switch][routing_unit]") {
  for (const routing_unit unit : {routing_unit::per_port, routing_unit::per_vl})
    for (const std::size_t ports : {48u, 8u}) {
      INFO(ports << " ports");
      qos_switch::shape shape = opa_48_port();
      shape.ports = ports;
      shape.routing = unit;
      auto net = network_a(shape);
      interlock_test::check_switch_conserved(net);
    }
}

namespace {

qos_switch::network<interlock::qos::sbt_scheduler> storing_network(storing_unit unit,
                                                                   std::size_t ports = 48) {
  qos_switch::shape shape = opa_48_port();
  shape.ports = ports;
  shape.storing = unit;
  return network_a(shape);
}

// Two packets across the central crossbar to NIC 9, from NIC 0 of SLs a
// and b (or from NICs 0 and 1 when apart): their mean latency.
double pair_latency(storing_unit unit, std::size_t a, std::size_t b, bool apart = false) {
  auto net = storing_network(unit);
  net.inject(0, 9, a);
  net.inject(apart ? 1 : 0, 9, b);
  net.drain();
  REQUIRE(net.audit().empty());
  double sum = 0, packets = 0;
  for (const auto& r : net.results()) {
    if (r.packets == 0) continue;  // an SL without a message has no latency
    sum += r.latency_mean * static_cast<double>(r.packets);
    packets += static_cast<double>(r.packets);
  }
  REQUIRE(packets == 2);
  return sum / packets;
}

}  // namespace

TEST_CASE("switch storing unit: one packet at a time caps a buffer at a packet per SB cycles",
          "[model][switch][storing_unit]") {
  // Without contention at 1.6: 16-flit packets and SB = 50 cycles. One
  // store per buffer takes a packet every 50 cycles (0.32 flits/cycle); one
  // per VL caps each SL at 0.32 (SL0's backlog then fills the shared input
  // buffer, and SL1 gets less); pipelined, the link's rate.
  const auto run = [](storing_unit unit) {
    auto net = storing_network(unit);
    net.run(qos_switch::pattern::shift, 1.6, 3000, 12000, 1);
    return net.results();
  };
  const auto pipelined = run(storing_unit::pipelined), per_port = run(storing_unit::per_port),
             per_vl = run(storing_unit::per_vl);
  CHECK(total(pipelined) == Approx(1.0).margin(0.01));
  CHECK(total(per_port) == Approx(0.32).margin(0.01));
  CHECK(per_vl[0].throughput <= 0.325);
  CHECK(per_vl[0].throughput > 0.3);
  CHECK(per_vl[1].throughput <= 0.325);
  CHECK(per_vl[2].throughput <= 0.325);
  CHECK(total(per_vl) > total(per_port) + 0.2);
}

TEST_CASE("switch storing unit: a packet behind another in its store waits SB, tail and all",
          "[model][switch][storing_unit]") {
  // Back to back on NIC 0's link the second header arrives 16 cycles after
  // the first: pipelined it is 16 cycles later, stored one at a time 50
  // (its input buffer's store; the output buffer's is then free in time).
  const double pipelined = pair_latency(storing_unit::pipelined, 0, 0);
  CHECK(pair_latency(storing_unit::per_port, 0, 0) - pipelined == Approx(17.0));
  CHECK(pair_latency(storing_unit::per_vl, 0, 0) - pipelined == Approx(17.0));
  // On two VLs only the port's one store serializes them.
  const double two_vls = pair_latency(storing_unit::pipelined, 0, 1);
  CHECK(pair_latency(storing_unit::per_port, 0, 1) - two_vls == Approx(17.0));
  CHECK(pair_latency(storing_unit::per_vl, 0, 1) == two_vls);
  // From two NICs they are stored at once in their input buffers, and
  // meet in NIC 9's output buffer: pipelined its link spaces them 16
  // cycles apart, its one store 50.
  const double apart = pair_latency(storing_unit::pipelined, 0, 0, true);
  CHECK(pair_latency(storing_unit::per_port, 0, 0, true) - apart == Approx(17.0));
  CHECK(pair_latency(storing_unit::per_port, 0, 1, true) -
            pair_latency(storing_unit::pipelined, 0, 1, true) ==
        Approx(17.0));
  CHECK(pair_latency(storing_unit::per_vl, 0, 1, true) ==
        pair_latency(storing_unit::pipelined, 0, 1, true));
}

TEST_CASE("switch storing unit: a lone packet sees the same latency under every unit",
          "[model][switch][storing_unit]") {
  std::vector<double> latency;
  for (const storing_unit unit :
       {storing_unit::pipelined, storing_unit::per_port, storing_unit::per_vl}) {
    auto net = storing_network(unit);
    net.inject(0, 9, 0);
    net.drain();
    latency.push_back(net.results()[0].latency_mean);
  }
  CHECK(latency[0] > 0);
  CHECK(latency[1] == latency[0]);
  CHECK(latency[2] == latency[0]);
}

TEST_CASE("switch storing unit: packets and credits are conserved, at 48 and 8 ports",
          "[model][switch][storing_unit]") {
  for (const storing_unit unit : {storing_unit::per_port, storing_unit::per_vl})
    for (const std::size_t ports : {48u, 8u}) {
      INFO(ports << " ports");
      auto net = storing_network(unit, ports);
      interlock_test::check_switch_conserved(net);
    }
}
