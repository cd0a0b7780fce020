// SPDX-License-Identifier: BSL-1.0
// Messages cut into packets (sl_traffic::packet_limit, [QoSThesis] Section
// 5.5.2's one-flit packets): latency per message, throughput per flit, and
// the switch's invariants.
#include <catch2/catch.hpp>
#include <interlock/model/qos_switch.hpp>

#include "support/switch_checks.hpp"

#include <cstddef>
#include <cstdint>

namespace {

using namespace interlock::model;
using namespace interlock::model::qos_switch;

// Two SLs on VLs of their own: 3-flit and 32-flit messages.
service_levels two_sls() { return service_levels({0, 1}, {0, 1}); }

sl_traffic traffic_cut_at(std::uint32_t limit) {
  sl_traffic t{{0.5, 0.5}, {3, 32}};
  t.packet_limit = limit;
  return t;
}

qos_switch::network<round_robin_scheduler> switch_cutting(std::uint32_t limit,
                                                          std::size_t ports = 8) {
  qos_switch::shape shape = opa_48_port();
  shape.ports = ports;
  return qos_switch::network<round_robin_scheduler>(single_switch(ports), shape, two_sls(),
                                                    traffic_cut_at(limit), round_robin_scheduler{});
}

}  // namespace

TEST_CASE("switch messages: a lone message cut into packets arrives as one packet would",
          "[model][switch][messages]") {
  // Every stage is pipelined and moves a flit per cycle on the links, so
  // the last packet lands when a whole packet's tail would.
  for (const std::uint32_t limit : {1u, 5u})
    for (const std::size_t dst : {1u, 5u}) {  // within the MPort, across the central crossbar
      INFO("packets of at most " << limit << " flits to NIC " << dst);
      auto whole = switch_cutting(0), cut = switch_cutting(limit);
      whole.inject(0, dst, 1);
      cut.inject(0, dst, 1);
      whole.drain();
      cut.drain();
      REQUIRE(cut.audit().empty());
      CHECK(cut.packets_created() == (32 + limit - 1) / limit);
      CHECK(cut.results()[1].packets == 1);  // one message
      CHECK(cut.results()[1].latency_mean == whole.results()[1].latency_mean);
      CHECK(cut.results()[1].network_latency_mean == whole.results()[1].network_latency_mean);
    }
}

TEST_CASE("switch messages: a short message is not held behind a long one's whole packet",
          "[model][switch][messages]") {
  // A 32-flit message, then a 3-flit one of another SL, from NIC 0 to 5.
  // Whole, the short one waits for the long one's 32 flits on the NIC's
  // link; cut into one-flit packets, round robin alternates the two SLs.
  const auto short_latency = [](std::uint32_t limit) {
    auto net = switch_cutting(limit);
    net.inject(0, 5, 1);
    net.inject(0, 5, 0);
    net.drain();
    REQUIRE(net.audit().empty());
    REQUIRE(net.results()[0].packets == 1);
    REQUIRE(net.results()[1].packets == 1);
    return net.results()[0].latency_mean;
  };
  const double whole = short_latency(0), cut = short_latency(1);
  CHECK(whole - cut >= 26);
  // Packets of 4 flits: its one packet follows at most one of the long
  // message's.
  CHECK(short_latency(4) < whole - 20);
}

TEST_CASE("switch messages: packets, credits and messages are conserved",
          "[model][switch][messages]") {
  for (const std::uint32_t limit : {1u, 5u})
    for (const std::size_t ports : {8u, 48u}) {
      INFO("packets of at most " << limit << " flits, " << ports << " ports");
      auto net = switch_cutting(limit, ports);
      interlock_test::check_switch_conserved(net);
    }
}

TEST_CASE("switch messages: throughput counts flits, latency counts messages",
          "[model][switch][messages]") {
  auto whole = switch_cutting(0), cut = switch_cutting(1);
  whole.run(qos_switch::pattern::shift, 0.4, 2000, 8000, 3);
  cut.run(qos_switch::pattern::shift, 0.4, 2000, 8000, 3);
  const auto w = whole.results(), c = cut.results();
  for (std::size_t sl = 0; sl < 2; ++sl) {
    INFO("SL" << sl);
    CHECK(c[sl].offered == w[sl].offered);  // the same messages, seed for seed
    CHECK(c[sl].throughput == Approx(w[sl].throughput).epsilon(0.02));
    CHECK(c[sl].packets == Approx(static_cast<double>(w[sl].packets)).epsilon(0.02));
  }
  // Most messages are the 3-flit SL0 ones: about 5.5 flits per message.
  CHECK(cut.packets_created() > 5 * whole.packets_created());
}

TEST_CASE("switch messages: a packet limit above the buffers is refused",
          "[model][switch][messages]") {
  sl_traffic t = traffic_cut_at(300);  // the 8-port switch's buffers hold 256 flits
  qos_switch::shape shape = opa_48_port();
  shape.ports = 8;
  CHECK_THROWS_WITH((qos_switch::network<round_robin_scheduler>(single_switch(8), shape, two_sls(),
                                                                t, round_robin_scheduler{})),
                    Catch::Contains("packet limit"));
}
