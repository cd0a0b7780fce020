// SPDX-License-Identifier: BSL-1.0
// A switch network's zero-load latency and the RT that reaches a target
// (interlock/model/qos_switch/zero_load.hpp).
#include <catch2/catch.hpp>
#include <interlock/model/qos_switch/network_layouts.hpp>
#include <interlock/model/qos_switch/zero_load.hpp>
#include <interlock/topology/kary_ntree.hpp>

#include <cstddef>

#include "support/switch_checks.hpp"

namespace {

using namespace interlock::model;
using namespace interlock::model::qos_switch;
using interlock_test::one_sl;

sl_traffic sixteen_flits() { return sl_traffic{{1.0}, {16}}; }

qos_switch::shape eight_ports() {
  qos_switch::shape shape = opa_48_port();
  shape.ports = 8;  // two MPorts of 4
  return shape;
}

double lone(const qos_switch::shape& shape, std::size_t src, std::size_t dst) {
  qos_switch::network<round_robin_scheduler> net(single_switch(8), shape, one_sl(), sixteen_flits(),
                                                 round_robin_scheduler{});
  net.inject(src, dst, 0);
  net.drain();
  return net.results()[0].latency_mean;
}

}  // namespace

TEST_CASE("zero-load latency: the mean over pairs of a lone packet's latency",
          "[model][switch][zero_load]") {
  // On one 8-port switch, 3 of a NIC's 7 destinations share its MPort and
  // 4 cross the central crossbar: one more allocation and crossbar each.
  const qos_switch::shape shape = eight_ports();
  const double local = lone(shape, 0, 1), central = lone(shape, 0, 5);
  CHECK(central - local == shape.latency.at + shape.latency.x);
  const double mean = zero_load_latency(single_switch(8), shape, one_sl(), sixteen_flits(),
                                        round_robin_scheduler{}, 0);
  CHECK(mean == Approx((3 * local + 4 * central) / 7));
}

TEST_CASE("zero-load latency: RT for a target, one cycle per switch crossed",
          "[model][switch][zero_load]") {
  const qos_switch::shape shape = eight_ports();
  const double base = zero_load_latency(single_switch(8), shape, one_sl(), sixteen_flits(),
                                        round_robin_scheduler{}, 0);
  const std::uint32_t rt = rt_for_zero_load(single_switch(8), shape, one_sl(), sixteen_flits(),
                                            round_robin_scheduler{}, 0, base + 10.4);
  CHECK(rt == shape.latency.rt + 10);
  CHECK(rt_for_zero_load(single_switch(8), shape, one_sl(), sixteen_flits(),
                         round_robin_scheduler{}, 0, base - 5) == shape.latency.rt - 5);
  // On a 4-ary 3-tree a route crosses 1, 3 or 5 switches (3, 12 and 48 of
  // a NIC's 63 destinations): 279 / 63 cycles per cycle of RT.
  const qos_switch::layout tree = fat_tree_layout(interlock::kary_ntree(4, 3));
  qos_switch::shape tree_shape = eight_ports();
  const double tree_base =
      zero_load_latency(tree, tree_shape, one_sl(), sixteen_flits(), round_robin_scheduler{}, 0);
  ++tree_shape.latency.rt;
  CHECK(zero_load_latency(tree, tree_shape, one_sl(), sixteen_flits(), round_robin_scheduler{}, 0) -
            tree_base ==
        Approx(279.0 / 63.0));
  CHECK(rt_for_zero_load(tree, eight_ports(), one_sl(), sixteen_flits(), round_robin_scheduler{}, 0,
                         tree_base + 3 * 279.0 / 63.0) == eight_ports().latency.rt + 3);
}

TEST_CASE("zero-load latency: a target below what RT = 0 gives is refused",
          "[model][switch][zero_load]") {
  const qos_switch::shape shape = eight_ports();
  CHECK_THROWS_WITH(rt_for_zero_load(single_switch(8), shape, one_sl(), sixteen_flits(),
                                     round_robin_scheduler{}, 0, 10.0),
                    Catch::Contains("zero-load target") && Catch::Contains("RT 0..100000"));
}
