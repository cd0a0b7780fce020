// SPDX-License-Identifier: BSL-1.0
// Networks of QoS switches: the k-ary n-tree (topology/kary_ntree.hpp), the
// layouts of [QoSThesis] Section 5.5.2 (model/qos_switch/network_layouts.hpp), their
// deadlock check (model/qos_switch/route_dependencies.hpp) and runs on them.
#include <catch2/catch.hpp>
#include <interlock/model/qos_switch.hpp>
#include <interlock/model/qos_switch/network_layouts.hpp>
#include <interlock/model/qos_switch/route_dependencies.hpp>
#include <interlock/topology/kary_ntree.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace {

using namespace interlock::model;
using namespace interlock::model::qos_switch;

// Every way the routes may take a packet from `nic` to `dst`: the longest
// walk in switch hops, or -1 if some walk does not arrive within `limit`.
int longest_walk(const qos_switch::layout& l, std::size_t s, std::size_t dst, int limit) {
  if (limit < 0) return -1;
  const qos_switch::route_group& r = l.route_entry(s, dst);
  int longest = 0;
  for (std::size_t p = r.first; p < std::size_t{r.first} + r.count; ++p) {
    const port_peer& q = l.peer(s, p);
    if (q.what == port_peer::kind::nic) {
      if (q.id != dst) return -1;
      continue;
    }
    const int rest = longest_walk(l, q.id, dst, limit - 1);
    if (rest < 0) return -1;
    longest = std::max(longest, rest + 1);
  }
  return longest;
}

TEST_CASE("kary_ntree: Section 5.5.2's 4-ary 3-tree, its links and subtrees",
          "[topology][switch]") {
  const interlock::kary_ntree t(4, 3);
  REQUIRE(t.nics() == 64);
  REQUIRE(t.switches() == 48);
  REQUIRE(t.ports() == 8);
  for (std::size_t s = 0; s < 32; ++s) {  // levels 0 and 1
    for (std::size_t j = 0; j < 4; ++j) {
      const auto up = t.up_peer(s, j);
      REQUIRE(t.level(up.first) == t.level(s) + 1);
      const auto back = t.down_peer(up.first, up.second);
      REQUIRE(back.first == s);
      REQUIRE(back.second == 4 + j);
    }
  }
  REQUIRE(t.in_subtree(t.switch_id(0, 2), 63));  // a root reaches every NIC
  REQUIRE(t.in_subtree(t.switch_id(5, 1), 20));  // leaves 4..7 below <5, 1>: NICs 16..31
  REQUIRE_FALSE(t.in_subtree(t.switch_id(5, 1), 32));
  REQUIRE_THROWS_AS(interlock::kary_ntree(1, 3), interlock::config_error);
}

TEST_CASE("fat_tree_layout: every route arrives within 2n - 1 switches and is deadlock free",
          "[model][switch]") {
  const qos_switch::layout l = fat_tree_layout(interlock::kary_ntree(4, 3));
  REQUIRE_NOTHROW(l.check());
  int longest = 0;
  for (std::size_t src = 0; src < l.nics(); ++src)
    for (std::size_t dst = 0; dst < l.nics(); ++dst) {
      if (src == dst) continue;
      const int hops = longest_walk(l, l.nic(src).sw, dst, 5);
      REQUIRE(hops >= 0);
      longest = std::max(longest, hops);
    }
  REQUIRE(longest == 4);  // leaf, up, root, down, leaf: 5 switches
  const qos_switch::deadlock_report r = qos_switch::check_deadlock(l);
  INFO(r.describe());
  REQUIRE(r.acyclic);
}

TEST_CASE(
    "torus_layout: Section 5.5.2's 8x8 torus of 48-port switches; datelines keep it free "
    "of deadlock, one class does not",
    "[model][switch]") {
  const interlock::torus_topology t({8, 8}, {true, true}, 1);
  const qos_switch::layout l = torus_layout(t, 10, 8);
  REQUIRE(l.ports() == 48);
  REQUIRE(l.nics() == 512);
  for (std::size_t dst : {0u, 100u, 511u}) {
    for (std::size_t src = 0; src < l.nics(); src += 37) {
      if (src == dst) continue;
      const int hops = longest_walk(l, l.nic(src).sw, dst, 9);
      REQUIRE(hops >= 0);
      REQUIRE(hops <= 8);  // at most 4 + 4 torus hops
    }
  }
  const qos_switch::deadlock_report r = qos_switch::check_deadlock(l);
  INFO(r.describe());
  REQUIRE(r.acyclic);
  // The same routes on one class: each ring closes a cycle.
  qos_switch::layout one = l;
  for (std::size_t s = 0; s < one.switches(); ++s)
    for (std::size_t nic = 0; nic < one.nics(); ++nic) {
      const qos_switch::route_group e = one.route_entry(s, nic);
      one.set_route(s, nic, e.first, e.count, 0);
    }
  const qos_switch::deadlock_report bad = qos_switch::check_deadlock(one);
  REQUIRE_FALSE(bad.acyclic);
  REQUIRE(bad.cycle.size() >= 8);
  REQUIRE(bad.describe().find("CYCLE") != std::string::npos);
}

TEST_CASE("switch networks: a fat tree and a torus of switches conserve packets and drain",
          "[model][switch]") {
  qos_switch::shape eight = opa_48_port();
  eight.ports = 8;
  const service_levels one({0, 1}, {0, 1});
  const sl_traffic t{{0.5, 0.5}, {16, 16}};
  qos_switch::network<interlock::qos::sbt_scheduler> tree(
      fat_tree_layout(interlock::kary_ntree(4, 2)), eight, one, t, sbt_for(one, {70, 30}));
  tree.run(qos_switch::pattern::uniform, 1.2, 2000, 5000, 3);
  REQUIRE(tree.audit().empty());
  // Full bisection: the tree carries what a lone switch does (over 0.9).
  REQUIRE(tree.results()[0].throughput + tree.results()[1].throughput > 0.85);
  tree.drain();
  INFO(tree.audit());
  REQUIRE(tree.audit().empty());

  qos_switch::shape twelve = opa_48_port();
  twelve.ports = 12;  // 4 directions x 2 ports + 4 NICs
  const service_levels two({0, 1}, {0, 1, 2, 3}, {2, 3});
  const interlock::torus_topology ring({4, 4}, {true, true}, 1);
  qos_switch::network<interlock::qos::sbt_scheduler> torus(torus_layout(ring, 2, 4), twelve, two, t,
                                                           sbt_for(two, {70, 30}));
  torus.run(qos_switch::pattern::uniform, 1.2, 2000, 5000, 3);
  REQUIRE(torus.audit().empty());
  torus.drain();
  INFO(torus.audit());
  REQUIRE(torus.audit().empty());
  REQUIRE(torus.packets_delivered() == torus.packets_created());
}

TEST_CASE("switch networks: a layout that needs two classes is refused with one",
          "[model][switch]") {
  const interlock::torus_topology ring({4}, {true}, 1);
  qos_switch::shape s = opa_48_port();
  s.ports = 4;
  s.mport_ports = 4;
  const service_levels one({0}, {0});
  REQUIRE_THROWS_WITH(
      (qos_switch::network<round_robin_scheduler>(
          torus_layout(ring, 1, 2), s, one, sl_traffic{{1.0}, {16}}, round_robin_scheduler{})),
      Catch::Contains("route classes = 2"));
}

}  // namespace
