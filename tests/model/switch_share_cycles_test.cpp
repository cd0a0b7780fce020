// SPDX-License-Identifier: BSL-1.0
// Crossbar links whose cycles packets smaller than the speed-up share
// (qos_switch::shape::share_cycles): an x3 link moves three one-flit packets a
// cycle, and nothing changes for packets of a cycle or more; speed-ups of
// whole flits per several cycles (x1.5) move their flits evenly.
#include <catch2/catch.hpp>
#include <interlock/model/qos_switch.hpp>

#include "support/switch_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using namespace interlock::model;
using namespace interlock::model::qos_switch;
using interlock_test::one_sl;

// An 8-port switch (two MPorts of 4) with one central link per MPort:
// every NIC sends to the other MPort's NIC n + 4 mod 8, so an MPort's four
// inputs share one link into the central crossbar, of `speedup` flits per
// `cycles` cycles (the central crossbar as fast; x3 and x4 by default).
double across(bool share, std::uint32_t flits, std::uint32_t speedup = 0,
              std::uint32_t cycles = 1) {
  qos_switch::shape shape = opa_48_port();
  shape.ports = 8;
  shape.central_links = 1;
  shape.share_cycles = share;
  if (speedup != 0) shape.mport_speedup = shape.central_speedup = speedup;
  shape.speedup_cycles = cycles;
  qos_switch::network<round_robin_scheduler> net(
      single_switch(8), shape, one_sl(), sl_traffic{{1.0}, {flits}}, round_robin_scheduler{});
  std::vector<std::uint32_t> to(8);
  for (std::uint32_t n = 0; n < 8; ++n) to[n] = (n + 4) % 8;
  net.set_destinations(to);
  net.run(qos_switch::pattern::fixed, 1.0, 2000, 8000, 1);
  INFO(net.audit());
  REQUIRE(net.audit().empty());
  return net.results()[0].throughput;
}

}  // namespace

TEST_CASE("switch shared cycles: an x3 link moves three one-flit packets a cycle",
          "[model][switch][share_cycles]") {
  // Four inputs, one flit a cycle each, into one x3 central link: a packet
  // a cycle without sharing (a quarter of each NIC's link), three with it.
  CHECK(across(false, 1) == Approx(0.25).margin(0.01));
  CHECK(across(true, 1) == Approx(0.75).margin(0.01));
  // Two-flit packets: one a cycle (0.5 of the four links) either way, the
  // third flit of a cycle too few for a second packet.
  CHECK(across(true, 2) == Approx(across(false, 2)).margin(0.01));
}

TEST_CASE("switch shared cycles: packets of a cycle or more cross as before",
          "[model][switch][share_cycles]") {
  const auto run = [](bool share) {
    qos_switch::shape shape = opa_48_port();
    shape.share_cycles = share;
    const service_levels a({0, 1, 2}, {0, 1, 2});
    qos_switch::network<interlock::qos::sbt_scheduler> net(
        single_switch(48), shape, a, sl_traffic{{0.5, 0.4, 0.1}, {16, 16, 16}},
        sbt_for(a, {60, 30, 10}));
    net.run(qos_switch::pattern::uniform, 1.2, 2000, 6000, 2);
    return net.results();
  };
  const auto off = run(false), on = run(true);
  for (std::size_t sl = 0; sl < 3; ++sl) {
    CHECK(on[sl].throughput == off[sl].throughput);
    CHECK(on[sl].latency_mean == off[sl].latency_mean);
  }
}

TEST_CASE("switch shared cycles: packets and credits are conserved, at 48 and 8 ports",
          "[model][switch][share_cycles]") {
  for (const std::uint32_t limit : {1u, 2u})
    for (const std::size_t ports : {48u, 8u}) {
      INFO("packets of at most " << limit << " flits, " << ports << " ports");
      qos_switch::shape shape = opa_48_port();
      shape.ports = ports;
      shape.share_cycles = true;
      sl_traffic t{{0.5, 0.5}, {3, 8}};
      t.packet_limit = limit;
      qos_switch::network<round_robin_scheduler> net(
          single_switch(ports), shape, service_levels({0, 1}, {0, 1}), t, round_robin_scheduler{});
      interlock_test::check_switch_conserved(net);
    }
}

TEST_CASE(
    "switch shared cycles: an input with a backlog sends up to three one-flit packets a cycle",
    "[model][switch][share_cycles]") {
  // NIC 2's 200-flit packet holds output 1's write port while it arrives;
  // NIC 0's one-flit packets to NICs 1, 2 and 3 in turn (all in its
  // MPort) queue behind its first blocked one in their VL, then drain: a
  // packet a cycle without sharing, up to three with it, so those to NICs
  // 2 and 3, whose links are free, leave sooner.
  const auto drain_latency = [](bool share) {
    qos_switch::shape shape = opa_48_port();
    shape.ports = 8;
    shape.share_cycles = share;
    const service_levels two({0, 1}, {0, 1});
    qos_switch::network<round_robin_scheduler> net(
        single_switch(8), shape, two, sl_traffic{{0.5, 0.5}, {200, 1}}, round_robin_scheduler{});
    net.inject(2, 1, 0);
    for (std::size_t i = 0; i < 60; ++i) net.inject(0, 1 + i % 3, 1);
    net.drain();
    REQUIRE(net.audit().empty());
    return net.results()[1].latency_mean;
  };
  const double whole_cycles = drain_latency(false), shared = drain_latency(true);
  CHECK(shared < whole_cycles - 10);
}

TEST_CASE("switch shared cycles: no crossbar input moves more than its speed-up in a cycle",
          "[model][switch][share_cycles]") {
  // One-, two- and three-flit packets past saturation: a cycle's packets
  // out of an input buffer fit x3, out of a central buffer x4.
  qos_switch::shape shape = opa_48_port();
  shape.ports = 8;
  shape.central_speedup = 3;
  shape.share_cycles = true;
  const service_levels three({0, 1, 2}, {0, 1, 2});
  qos_switch::network<round_robin_scheduler> net(single_switch(8), shape, three,
                                                 sl_traffic{{0.2, 0.3, 0.5}, {1, 2, 3}},
                                                 round_robin_scheduler{});
  net.run(qos_switch::pattern::uniform, 1.5, 2000, 8000, 4);
  REQUIRE(net.audit().empty());
  CHECK(net.peak_crossbar_rate() == 3.0);
}

namespace {
double at_speedup(std::uint32_t speedup, std::uint32_t cycles, std::uint32_t flits) {
  return across(true, flits, speedup, cycles);
}
}  // namespace

TEST_CASE("switch: a speed-up of whole flits per several cycles moves its flits evenly",
          "[model][switch][share_cycles]") {
  // x1.5 (3 flits per 2 cycles) has moved floor(1.5 t) flits by cycle t. A
  // 16-flit packet taking the link at an even cycle e ends at e + 11
  // (1.5 e + 16 <= 1.5 (e + 11)); at an odd one, where half a flit of the
  // cycle before is spent, at e + 11 too: four NICs share 16 flits per 11
  // cycles. x2.5: 7 cycles either way. Whole speed-ups are as before
  // (6 cycles at x3 as 6 at 6 per 2 cycles).
  CHECK(at_speedup(3, 2, 16) == Approx(16.0 / 11 / 4).margin(0.005));
  CHECK(at_speedup(5, 2, 16) == Approx(16.0 / 7 / 4).margin(0.005));
  CHECK(at_speedup(6, 2, 16) == Approx(at_speedup(3, 1, 16)).margin(1e-12));
  // One-flit packets share cycles: x1.5 moves 1 and 2 flits in turn, 1.5 a
  // cycle over the four NICs.
  CHECK(at_speedup(3, 2, 1) == Approx(1.5 / 4).margin(0.005));
  CHECK(at_speedup(1, 2, 1) == Approx(0.5 / 4).margin(0.005));
}

TEST_CASE("qos_switch::shape: a speed-up period outside 1..16 is refused naming the field",
          "[model][switch]") {
  qos_switch::shape s = opa_48_port();
  s.speedup_cycles = 0;
  try {
    s.check();
    FAIL("accepted");
  } catch (const interlock::config_error& e) {
    CHECK(e.field() == "speedup_cycles");
  }
  s.speedup_cycles = 17;
  CHECK_THROWS_AS(s.check(), interlock::config_error);
}
