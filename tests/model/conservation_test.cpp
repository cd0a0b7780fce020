// SPDX-License-Identifier: BSL-1.0
// The conservation laws every network of the model is audited by
// (model/conservation.hpp): each holds on balanced terms, and each term
// off by one breaks it with a line naming the place and every term; the
// event calendar shows its audits every pending event, beyond the wheel's
// reach too; the QoS switch's audit balances its packets at the ends of
// runs stopped at 24 successive cycles past saturation (the torus
// network's is checked every cycle by network_test.cpp and others).
#include "support/interlock_test.hpp"
#include "support/switch_checks.hpp"

#include <interlock/model/conservation.hpp>
#include <interlock/model/event_calendar.hpp>
#include <interlock/model/qos_switch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace law = interlock::model;

namespace {
bool conservation_names(const std::string& line, const std::string& part) {
  return line.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("conservation: the header's example", "[model][conservation]") {
  law::packet_ledger n;
  n.created = 10;
  n.delivered = 7;
  n.in_buffers = 2;
  n.in_flight = 1;
  CHECK(law::check(n).empty());
  const law::credit_loop l{8, 3, 5, 0};
  CHECK(law::check(l, "port 1").empty());
}

TEST_CASE("conservation: the packet ledger balances, and each term off by one breaks it",
          "[model][conservation]") {
  const law::packet_ledger balanced{100, 60, 25, 10, 5};
  REQUIRE(balanced.holds());
  CHECK(balanced.in_network() == 35);
  for (int term = 0; term < 5; ++term) {
    law::packet_ledger n = balanced;
    std::uint64_t* terms[] = {&n.created, &n.delivered, &n.in_buffers, &n.in_flight, &n.delivering};
    ++*terms[term];
    CHECK_FALSE(n.holds());
    const std::string line = law::check(n);
    CHECK(conservation_names(line, "created " + std::to_string(n.created)));
    CHECK(conservation_names(line, "being delivered " + std::to_string(n.delivering)));
  }
}

TEST_CASE("conservation: a credit loop closes, and breaks on any term or out of range",
          "[model][conservation]") {
  const law::credit_loop closed{16, 4, 9, 3};
  REQUIRE(closed.holds());
  law::credit_loop more_held = closed;
  ++more_held.held;
  CHECK(conservation_names(law::check(more_held, "router 3 port 1 VC 2"),
                           "router 3 port 1 VC 2: credit loop"));
  CHECK(conservation_names(law::check(more_held, "x"), "held 10"));
  law::credit_loop fewer_returning = closed;
  --fewer_returning.returning;
  CHECK_FALSE(fewer_returning.holds());
  law::credit_loop more_credits = closed;
  ++more_credits.credits;
  CHECK_FALSE(more_credits.holds());
  // Balanced but out of range: credits above the size, or below 0.
  CHECK(conservation_names(law::check(law::credit_loop{4, 5, 0, -1}, "p"),
                           "p: credits out of range"));
  CHECK(conservation_names(law::check(law::credit_loop{4, -1, 5, 0}, "p"), "credits -1 of 4"));
  CHECK(law::check(law::credit_loop{4, 4, 0, 0}, "p").empty());
  CHECK(law::check(law::credit_loop{4, 0, 2, 2}, "p").empty());
}

TEST_CASE("conservation: a buffer's law::occupancy is what it queues and sends",
          "[model][conservation]") {
  CHECK(law::check(law::occupancy{12, 8, 4}, "b").empty());
  CHECK(conservation_names(law::check(law::occupancy{12, 8, 3}, "buffer 7 VL 1"),
                           "buffer 7 VL 1: holds 12 flits but queues 8 and sends 3"));
  CHECK_FALSE((law::occupancy{11, 8, 4}).holds());
}

TEST_CASE("conservation: the event calendar's for_each visits events beyond the wheel's reach",
          "[model][conservation][events]") {
  law::event_calendar<int> c(8);
  c.push(2, 20);
  c.push(7, 70);
  c.push(50, 500);  // in the heap
  c.push(9, 90);    // beyond reach of now() == 0 too
  std::vector<int> seen;
  c.for_each([&](int e) { seen.push_back(e); });
  std::sort(seen.begin(), seen.end());
  CHECK(seen == std::vector<int>{20, 70, 90, 500});
}

TEST_CASE("conservation: a QoS switch's audit holds at every run's end past saturation and drained",
          "[model][conservation][switch]") {
  namespace qs = interlock::model::qos_switch;
  // 8 ports of the 48-port switch's shape, two SLs, runs ending at 24
  // different cycles (a run's end falls in any phase of the packets'
  // crossings and deliveries), past saturation at 1.3 flits/cycle/NIC.
  qs::shape eight = qs::opa_48_port();
  eight.ports = 8;
  std::uint64_t left_in_network = 0;
  for (std::uint64_t end = 600; end < 624; ++end) {
    qs::network<interlock::qos::sbt_scheduler> net(
        qs::single_switch(8), eight, interlock_test::config_a(), interlock_test::traffic_a(),
        qs::sbt_for(interlock_test::config_a(), {60, 30, 10}));
    net.run(qs::pattern::uniform, 1.3, 100, end - 100, 5);
    INFO("run ending at cycle " << end << ": " << net.audit());
    REQUIRE(net.audit().empty());
    left_in_network += net.packets_in_flight();
    net.drain();
    REQUIRE(net.audit().empty());
    REQUIRE(net.packets_delivered() == net.packets_created());
  }
  CHECK(left_in_network > 0);
}
