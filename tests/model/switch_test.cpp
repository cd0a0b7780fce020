// SPDX-License-Identifier: BSL-1.0
// The hierarchical QoS switch (interlock/model/qos_switch.hpp and qos_switch/*.hpp):
// its buffers, its wiring, its timing and speed-ups, its invariants under
// every scheduler, and [QoSThesis] Table 2.2's shares.
#include <catch2/catch.hpp>
#include <interlock/core/config_error.hpp>
#include <interlock/model/qos_switch.hpp>

#include "support/switch_checks.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace interlock::model;
using namespace interlock::model::qos_switch;
using interlock::config_error;
using interlock_test::config_a;
using interlock_test::config_b;
using interlock_test::total;
using interlock_test::traffic_a;
using interlock_test::traffic_b;

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const config_error& e) {
    return e.what();
  }
  return "no error";
}

template <class S>
qos_switch::network<S> switch_of(const S& s, std::size_t ports = 48, service_levels l = config_a(),
                                 sl_traffic t = traffic_a()) {
  qos_switch::shape shape = opa_48_port();
  shape.ports = ports;
  return qos_switch::network<S>(single_switch(ports), shape, l, t, s);
}

// --- the dynamic VL space ---------------------------------------------------

TEST_CASE("vl_space: each VL keeps its minimum; above it VLs share what no VL owns",
          "[model][switch]") {
  vl_space b(256, 3, 16, 256);  // 208 shared
  REQUIRE(b.fits(0, 224));
  REQUIRE_FALSE(b.fits(0, 225));
  b.reserve(0, 224);
  REQUIRE(b.shared_used() == 208);
  REQUIRE_FALSE(b.fits(0, 1));
  REQUIRE(b.fits(1, 16));  // VL1's own minimum
  REQUIRE_FALSE(b.fits(1, 17));
  b.reserve(1, 16);
  b.release(0, 16);
  REQUIRE(b.fits(2, 32));  // 16 own + 16 shared freed by VL0
  REQUIRE_FALSE(b.fits(2, 33));
  REQUIRE(b.used() == 224);
}

TEST_CASE("vl_space: the maximum caps a VL even when space is free", "[model][switch]") {
  vl_space b(256, 2, 0, 100);
  REQUIRE(b.fits(0, 100));
  REQUIRE_FALSE(b.fits(0, 101));
}

TEST_CASE("vl_space: impossible bounds are refused naming the field", "[model][switch]") {
  REQUIRE(error_of([] { vl_space(64, 5, 16, 64); }).find("minimum per VL = 16") !=
          std::string::npos);
  REQUIRE(error_of([] { vl_space(64, 2, 16, 65); }).find("maximum per VL = 65") !=
          std::string::npos);
  REQUIRE(error_of([] { vl_space(64, 0, 0, 64); }).find("VLs = 0") != std::string::npos);
}

// --- configuration ----------------------------------------------------------

TEST_CASE(
    "qos_switch::shape: a port count MPorts do not divide, or too many requesters, is refused",
    "[model][switch]") {
  qos_switch::shape s = opa_48_port();
  s.ports = 50;
  REQUIRE(error_of([&] { s.check(); }).find("mport_ports = 4; allowed: a divisor of ports (50)") !=
          std::string::npos);
  s.ports = 128;  // 32 MPorts x 2 links + 4 > 64
  REQUIRE(error_of([&] { s.check(); }).find("at most 64 requesters") != std::string::npos);
  s = opa_48_port();
  s.mport_speedup = 0;
  REQUIRE(error_of([&] { s.check(); }).find("mport_speedup = 0") != std::string::npos);
}

TEST_CASE("switch latencies: Section 2.2.2's stages add up to its 160 cycles", "[model][switch]") {
  REQUIRE(opa_latencies().central_path() == 160);
}

TEST_CASE("service_levels: SL2SC and SC2VL as Table 2.2 gives them, and their errors",
          "[model][switch]") {
  const service_levels b = config_b();
  REQUIRE(b.sc(0) == 1);
  REQUIRE(b.vl(1) == 2);
  REQUIRE(b.vl(2) == 2);
  REQUIRE(b.vls() == 3);
  REQUIRE(b.sc_queue_sls()[3] == 2);
  REQUIRE(error_of([] { service_levels({0, 0}, {0}); }).find("sl2sc[1] = 0") != std::string::npos);
  REQUIRE(error_of([] {
            service_levels({0, 3}, {0, 1});
          }).find("sl2sc[1] = 3") != std::string::npos);
}

TEST_CASE("qos_switch::layout: a NIC unattached, a route unset or into another NIC's port is named",
          "[model][switch]") {
  qos_switch::layout l(1, 4, 2);
  l.attach_nic(0, 0, 0);
  REQUIRE(error_of([&] { l.check(); }).find("NIC 1") != std::string::npos);
  l.attach_nic(1, 0, 1);
  REQUIRE(error_of([&] { l.check(); }).find("route at switch 0 to NIC 0") != std::string::npos);
  l.set_route(0, 0, 0);
  l.set_route(0, 1, 0);
  REQUIRE(error_of([&] { l.check(); }).find("holds NIC 0") != std::string::npos);
  l.set_route(0, 1, 1);
  REQUIRE_NOTHROW(l.check());
}

TEST_CASE("sl_traffic: shares that do not sum to 1 or packets larger than a buffer are refused",
          "[model][switch]") {
  REQUIRE(error_of([] {
            sl_traffic{{0.5, 0.4}, {16, 16}}.check(2, 256);
          }).find("(sum)") != std::string::npos);
  REQUIRE(error_of([] {
            sl_traffic{{0.5, 0.5}, {16, 300}}.check(2, 256);
          }).find("packet flits of SL1 = 300") != std::string::npos);
}

// --- timing -----------------------------------------------------------------

TEST_CASE(
    "switch: a lone packet through the central crossbar takes the 160-cycle header path plus "
    "its flits; within an MPort one crossbar less",
    "[model][switch]") {
  auto net = switch_of(round_robin_scheduler{});
  net.inject(0, 5, 0);  // MPort 0 to MPort 1: the central crossbar
  net.drain();
  const qos_switch::latencies l = opa_latencies();
  REQUIRE(net.results()[0].latency_mean == Approx(l.central_path() + 16));
  auto near = switch_of(round_robin_scheduler{});
  near.inject(0, 2, 1);  // both in MPort 0
  near.drain();
  REQUIRE(near.results()[1].latency_mean == Approx(l.central_path() - l.at - l.x + 16));
}

TEST_CASE("switch: the MPort's central links bound the traffic that leaves it (the speed-ups)",
          "[model][switch]") {
  // 8 ports, MPorts {0..3} and {4..7}: every NIC sends to the other MPort.
  const std::vector<std::uint32_t> across{4, 5, 6, 7, 0, 1, 2, 3};
  const auto run = [&](std::size_t links, std::uint32_t speedup) {
    qos_switch::shape shape = opa_48_port();
    shape.ports = 8;
    shape.central_links = links;
    shape.mport_speedup = speedup;
    qos_switch::network<round_robin_scheduler> net(single_switch(8), shape, config_a(), traffic_a(),
                                                   round_robin_scheduler{});
    net.set_destinations(across);
    net.run(qos_switch::pattern::fixed, 1.0, 4000, 20000, 3);
    REQUIRE(net.audit().empty());
    return total(net.results());
  };
  // 4 NICs share the MPort's links: a 16-flit packet crosses a link of
  // speed-up s in ceil(16 / s) whole cycles (the model moves packets, so a
  // transfer's last cycle is not shared with the next packet).
  const auto share = [](double cycles) { return 16.0 / cycles / 4.0; };
  CHECK(run(1, 1) == Approx(share(16)).margin(0.01));
  CHECK(run(1, 2) == Approx(share(8)).margin(0.01));
  CHECK(run(1, 3) == Approx(share(6)).margin(0.01));
  CHECK(run(2, 3) > 0.95);  // Figure 2.1's two x3 links: more than the 4 ports need
}

TEST_CASE("switch: with a one-packet input buffer, a NIC sends once per credit round trip",
          "[model][switch]") {
  // One SL, 16-flit packets, 16-flit input buffers: the NIC may send the
  // next packet when the last one's credits are back. The packet's head
  // arrives INJ after it leaves and is routed SB + RT later; it crosses the
  // MPort crossbar in ceil(16 / 3) cycles but never before its tail has
  // arrived (16 cycles after its head); its credits take INJ back.
  const auto rate = [](qos_switch::latencies l) {
    qos_switch::shape shape = opa_48_port();
    shape.ports = 8;
    shape.input_flits = 16;
    shape.latency = l;
    qos_switch::network<round_robin_scheduler> net(
        single_switch(8), shape, service_levels({0}, {0}), sl_traffic{{1.0}, {16}},
        round_robin_scheduler{});
    net.set_destinations({1, 0, 3, 2, 5, 4, 7, 6});  // within each MPort
    net.run(qos_switch::pattern::fixed, 1.0, 3000, 30000, 1);
    return net.results()[0].throughput;
  };
  qos_switch::latencies routed = opa_latencies();
  routed.inj = 20;
  CHECK(rate(routed) == Approx(16 / (2.0 * 20 + 50 + 32 + 6)).epsilon(0.01));
  qos_switch::latencies at_once{20, 0, 0, 0, 0, 8};  // the tail is still arriving
  CHECK(rate(at_once) == Approx(16 / (2.0 * 20 + 16)).epsilon(0.01));
}

TEST_CASE("switch: a port's scheduler sees SCs, not VLs", "[model][switch]") {
  // SL0 on SC0 on VL1, SL1 on SC1 on VL0; a scheduler that always serves the
  // lowest queue favours SL0 if queues are SCs, SL1 if they were VLs.
  struct lowest_queue {
    interlock::grant arbitrate(const interlock::qos::queue_requests& r) const {
      return r.requests ? interlock::grant(interlock::bits::lowest_index(r.requests))
                        : interlock::grant();
    }
    void commit(interlock::grant, const interlock::qos::queue_requests&) {}
  };
  auto net = switch_of(lowest_queue{}, 8, service_levels({0, 1}, {1, 0}),
                       sl_traffic{{0.5, 0.5}, {16, 16}});
  net.run(qos_switch::pattern::shift, 1.6, 2000, 10000, 1);
  const auto r = net.results();
  CHECK(r[0].throughput == Approx(r[0].offered).epsilon(0.03));
  CHECK(r[1].throughput < 0.25);
}

TEST_CASE("switch: no link or input port carries more than a flit per cycle", "[model][switch]") {
  auto net = switch_of(interlock::model::qos_switch::sbt_for(config_a(), {60, 30, 10}));
  net.run(qos_switch::pattern::uniform, 1.6, 3000, 10000, 5);
  REQUIRE(net.peak_link_rate() == 1);
  REQUIRE(net.peak_crossbar_rate() <= 4.0);
  const double cycles = static_cast<double>(net.now());
  for (std::size_t p = 0; p < 48; ++p) {
    REQUIRE(static_cast<double>(net.flits_sent(0, p)) <= cycles);
    REQUIRE(static_cast<double>(net.flits_received(0, p)) <= cycles);
  }
}

// --- invariants under every scheduler ----------------------------------------

template <class S>
void check_conservation(const S& s, std::size_t ports, service_levels l, sl_traffic t) {
  auto net = switch_of(s, ports, l, t);
  interlock_test::check_switch_conserved(net);
}

TEST_CASE("switch: packets and credits are conserved under every scheduler, at 48 and 8 ports",
          "[model][switch]") {
  for (std::size_t ports : {48u, 8u}) {
    check_conservation(round_robin_scheduler{}, ports, config_a(), traffic_a());
    check_conservation(sbt_for(config_a(), {60, 30, 10}), ports, config_a(), traffic_a());
    check_conservation(sbt_for(config_b(), {50, 30, 20}), ports, config_b(), traffic_b());
    check_conservation(dtable_for(config_a(), {{0, 12}, {1, 6}, {2, 2}}, {2, 2, 2}), ports,
                       config_a(), traffic_a());
    interlock::qos::ib_vl_arbitration_config ib;
    ib.low = {{0, 60}, {1, 30}, {2, 10}};
    check_conservation(ib_for(ib), ports, config_a(), traffic_a());
  }
}

TEST_CASE("switch: the same seed gives the same results, another seed others", "[model][switch]") {
  const auto run = [](std::uint64_t seed) {
    auto net = switch_of(sbt_for(config_a(), {60, 30, 10}));
    net.run(qos_switch::pattern::uniform, 0.9, 1000, 4000, seed);
    return net.results();
  };
  const auto a = run(7), b = run(7), c = run(8);
  REQUIRE(a[0].latency_mean == b[0].latency_mean);
  REQUIRE(a[1].throughput == b[1].throughput);
  REQUIRE(a[0].latency_mean != c[0].latency_mean);
}

// --- [QoSThesis] Table 2.2 and Figures 2.4-2.5 --------------------------------

TEST_CASE(
    "switch: Table 2.2 A without contention: below a link's rate each SL gets what it "
    "offers; above it, SBT's table shares 60/30/10",
    "[model][switch][paper]") {
  auto light = switch_of(sbt_for(config_a(), {60, 30, 10}));
  light.run(qos_switch::pattern::shift, 0.8, 3000, 20000, 1);
  for (const auto& r : light.results()) REQUIRE(r.throughput == Approx(r.offered).epsilon(0.03));
  auto heavy = switch_of(sbt_for(config_a(), {60, 30, 10}));
  heavy.run(qos_switch::pattern::shift, 1.6, 3000, 20000, 1);
  const auto r = heavy.results();
  CHECK(r[0].normalized_throughput == Approx(0.60).margin(0.01));
  CHECK(r[1].normalized_throughput == Approx(0.30).margin(0.01));
  CHECK(r[2].normalized_throughput == Approx(0.10).margin(0.01));
  CHECK(total(r) == Approx(1.0).margin(0.02));
}

TEST_CASE("switch: Table 2.2 A without contention under round robin: backlogged SLs share equally",
          "[model][switch][paper]") {
  auto net = switch_of(round_robin_scheduler{});
  net.run(qos_switch::pattern::shift, 1.6, 3000, 20000, 1);
  const auto r = net.results();
  // SL2 offers 0.16 < 1/3 and gets it; SL0 and SL1 split the rest.
  CHECK(r[2].throughput == Approx(r[2].offered).epsilon(0.03));
  CHECK(r[0].throughput == Approx(r[1].throughput).epsilon(0.03));
}

TEST_CASE(
    "switch: Table 2.2 A under contention: SBT gives SL0 more than round robin does, SL1 "
    "less, and keeps SL0's latency lower",
    "[model][switch][paper]") {
  auto sbt = switch_of(sbt_for(config_a(), {60, 30, 10}));
  sbt.run(qos_switch::pattern::uniform, 1.2, 3000, 20000, 1);
  auto round_robin = switch_of(round_robin_scheduler{});
  round_robin.run(qos_switch::pattern::uniform, 1.2, 3000, 20000, 1);
  const auto s = sbt.results(), r = round_robin.results();
  CHECK(s[0].normalized_throughput > r[0].normalized_throughput + 0.08);
  CHECK(s[1].normalized_throughput < r[1].normalized_throughput - 0.08);
  CHECK(s[0].normalized_throughput > 0.5);
  CHECK(s[0].latency_mean < r[0].latency_mean);
}

TEST_CASE("switch: DTable and InfiniBand tables of the same shares give Table 2.2 A's 60/30/10",
          "[model][switch][paper]") {
  // 16-flit packets of 8-byte flits: 128 bytes, 2 DTable credits, 2 IB units.
  auto dtable = switch_of(dtable_for(config_a(), {{0, 12}, {1, 6}, {2, 2}}, {2, 2, 2}));
  dtable.run(qos_switch::pattern::shift, 1.6, 3000, 20000, 1);
  interlock::qos::ib_vl_arbitration_config c;
  c.low = {{0, 60}, {1, 30}, {2, 10}};
  auto ib = switch_of(ib_for(c));
  ib.run(qos_switch::pattern::shift, 1.6, 3000, 20000, 1);
  for (const auto& r : {dtable.results(), ib.results()}) {
    CHECK(r[0].normalized_throughput == Approx(0.60).margin(0.015));
    CHECK(r[1].normalized_throughput == Approx(0.30).margin(0.015));
    CHECK(r[2].normalized_throughput == Approx(0.10).margin(0.015));
  }
}

TEST_CASE(
    "switch: Table 2.2 B with a FIFO per VL: SL1 and SL2 share VL2's FIFO, so they split it as "
    "they arrive, not as the table weighs them",
    "[model][switch][paper]") {
  qos_switch::shape shape = opa_48_port();
  shape.sc_queues = false;
  qos_switch::network<interlock::qos::sbt_scheduler> net(
      single_switch(48), shape, config_b(), traffic_b(), sbt_for(config_b(), {50, 30, 20}));
  net.run(qos_switch::pattern::shift, 1.6, 3000, 20000, 1);
  const auto r = net.results();
  // SL0, alone on VL1, gets about its 50 (a few packets go to VL2 by the
  // starvation exception while SL2's weight waits behind SL1's packets).
  CHECK(r[0].normalized_throughput > 0.45);
  CHECK(r[0].normalized_throughput < 0.52);
  // In VL2, SL2 : SL1 follows their generation 10 : 50, far from 20 : 30.
  CHECK(r[2].throughput / r[1].throughput == Approx(0.2).margin(0.03));
}

}  // namespace

namespace {

using namespace interlock::model;
using namespace interlock::model::qos_switch;

TEST_CASE(
    "switch: Table 5.2's sources: CBR offers its rate exactly, bursts queue longer than "
    "Bernoulli packets at the same rate",
    "[model][switch]") {
  const service_levels three({0, 1, 2}, {0, 1, 2});
  const auto run = [&](sl_source kind) {
    sl_traffic t{{1.0 / 3, 1.0 / 3, 1.0 / 3}, {2, 32, 16}, {kind, kind, kind}};
    qos_switch::shape s = opa_48_port();
    s.ports = 16;
    qos_switch::network<round_robin_scheduler> net(single_switch(16), s, three, t,
                                                   round_robin_scheduler{});
    net.run_rates(qos_switch::pattern::uniform, {0.05, 0.3, 0.4}, 2000, 40000, 9);
    REQUIRE(net.audit().empty());
    return net.results();
  };
  const auto cbr = run(sl_source::cbr_connection);
  CHECK(cbr[0].offered == Approx(0.05).epsilon(0.002));
  CHECK(cbr[1].offered == Approx(0.3).epsilon(0.003));
  CHECK(cbr[2].offered == Approx(0.4).epsilon(0.002));
  const auto bernoulli = run(sl_source::bernoulli);
  CHECK(bernoulli[2].offered == Approx(0.4).epsilon(0.03));
  CHECK(bernoulli[2].offered != Approx(0.4).epsilon(0.0005));
  const auto bursts = run(sl_source::bursts);
  CHECK(bursts[2].offered == Approx(0.4).epsilon(0.05));
  CHECK(bursts[2].latency_mean > 1.5 * bernoulli[2].latency_mean);
}

TEST_CASE("switch: run_rates checks its rates", "[model][switch]") {
  const service_levels one({0}, {0});
  qos_switch::network<round_robin_scheduler> net(single_switch(48), opa_48_port(), one,
                                                 sl_traffic{{1.0}, {16}}, round_robin_scheduler{});
  REQUIRE_THROWS_WITH(net.run_rates(qos_switch::pattern::uniform, {0.5, 0.5}, 10, 10, 1),
                      Catch::Contains("rates = 2; allowed: one per SL (1)"));
  REQUIRE_THROWS_WITH(net.run_rates(qos_switch::pattern::uniform, {-1}, 10, 10, 1),
                      Catch::Contains("rate of SL0"));
}

}  // namespace

namespace {

using namespace interlock::model;
using namespace interlock::model::qos_switch;

TEST_CASE(
    "switch: a packet still arriving holds its central link at the link's rate; small "
    "packets queue behind it unless packets cross whole",
    "[model][switch]") {
  // 2-flit and 32-flit packets, half the flits each, uniform at 0.5, with a
  // short pipeline (routing ends long before a 32-flit tail arrives): cut
  // through, a 32-flit packet holds an x3 central link for about 32 cycles
  // and the MPort's two links carry about 2 flits per cycle, which its four
  // ports' traffic to other MPorts needs; crossing whole, it holds one for 11.
  const auto small_latency = [](bool whole) {
    qos_switch::shape shape = opa_48_port();
    shape.flit_bytes = shape.credit_bytes = 64;
    shape.latency = {1, 4, 6, 1, 0, 1};
    shape.whole_packet_crossing = whole;
    const service_levels two({0, 1}, {0, 1});
    qos_switch::network<round_robin_scheduler> net(
        single_switch(48), shape, two, sl_traffic{{0.5, 0.5}, {2, 32}}, round_robin_scheduler{});
    net.run(qos_switch::pattern::uniform, 0.5, 5000, 10000, 1);
    return net.results()[0].latency_mean;
  };
  const double cut = small_latency(false), whole = small_latency(true);
  CHECK(cut > 4 * whole);
  CHECK(whole < 80);
}

}  // namespace
