// SPDX-License-Identifier: BSL-1.0
// config::prefetch: the cache hints the network gives ahead of a cycle's
// events and router steps change nothing a run measures. Each case runs the
// same network with the hints forced on and forced off (and as the size rule
// picks) and compares every send and every result; forced on, a small
// network takes every prefetch path, so the sanitizer build checks the
// addresses they compute on every test machine.
#include <catch2/catch.hpp>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cstdint>
#include <string>
#include <tuple>

#include <interlock/model/network.hpp>
#include "support/network_makers.hpp"

namespace {

using interlock::node_id;
using interlock::model::prefetch_mode;
using interlock_test::trace_sends;
using rr = interlock::round_robin_arbiter<64>;
using age = interlock::age_epoch_arbiter<64>;

// A 4x4 torus under T3E adaptive routing with age arbiters, past
// saturation, with staging buffers or a head pipeline: every send and the
// results' row.
std::tuple<std::uint64_t, std::string, bool> torus_run(prefetch_mode mode, unsigned staging,
                                                       unsigned head_cycles) {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::t3e_adaptive_routing scheme(t);
  interlock::model::config c;
  c.load = 0.8;
  c.warmup = 200;
  c.measure = 2000;
  c.drain = 20000;
  c.lengths = {{1, 1}, {5, 1}};
  c.buffer_flits = 10;
  c.staging_flits = staging;
  c.head_cycles = head_cycles;
  c.response_share = 0.5;
  c.prefetch = mode;
  interlock::model::network<interlock::t3e_adaptive_routing, age> net(
      scheme, c,
      [&t](node_id s, interlock::splitmix64& g) {
        return interlock::traffic::uniform_random{}.destination(t, s, g);
      },
      [](node_id, std::size_t) { return age{}; });
  std::uint64_t trace = 0;
  trace_sends(net, trace);
  interlock::model::results res = net.run();
  res.wall_s = 0;
  return {trace, interlock::model::csv_row(res), net.routers().prefetching()};
}

// A 2x2x2 torus of Anton 2 nodes (its slower torus channels, channel
// adapters of two ports), Figure 12's four stages (the switch's held
// picks), a batch of mixed lengths: every send, the cycles and the rows.
std::tuple<std::uint64_t, std::string, bool> anton2_run(prefetch_mode mode) {
  const interlock::torus_topology torus({2, 2, 2}, {}, 2);
  const interlock::anton2_topology node(torus);
  const interlock::anton2_routing anton(node);
  interlock::model::config c;
  c.batch = 30;
  c.lengths = {{1, 0.5}, {3, 0.5}};
  c.buffer_flits = 4;
  c.adapter_buffer_flits = 12;
  c.head_cycles = 2;
  c.switch_stages = 2;
  c.measure = 200000;
  c.prefetch = mode;
  interlock::model::network<interlock::anton2_routing, rr> net(
      anton, c,
      interlock::model::to_cores(node,
                                 [&torus](node_id s, interlock::splitmix64& g) {
                                   return interlock::traffic::uniform_random{}.destination(torus, s,
                                                                                           g);
                                 }),
      [](node_id, std::size_t) { return rr{}; });
  std::uint64_t trace = 0;
  trace_sends(net, trace);
  interlock::model::results res = net.run();
  res.wall_s = 0;
  REQUIRE(res.complete);
  return {trace, interlock::model::csv_row(res), net.routers().prefetching()};
}

}  // namespace

TEST_CASE("prefetching on a torus changes no send and no result", "[model][prefetch]") {
  for (const auto& shape :
       {std::make_pair(0u, 0u), std::make_pair(5u, 0u), std::make_pair(0u, 2u)}) {
    INFO("staging " << shape.first << ", head cycles " << shape.second);
    const auto on = torus_run(prefetch_mode::always, shape.first, shape.second);
    const auto off = torus_run(prefetch_mode::never, shape.first, shape.second);
    const auto automatic = torus_run(prefetch_mode::automatic, shape.first, shape.second);
    CHECK(std::get<2>(on));
    CHECK(!std::get<2>(off));
    CHECK(!std::get<2>(automatic));  // 16 routers' buffers: far below 1 MiB
    CHECK(std::get<0>(on) == std::get<0>(off));
    CHECK(std::get<1>(on) == std::get<1>(off));
    CHECK(std::get<0>(automatic) == std::get<0>(off));
  }
}

TEST_CASE("prefetching on Anton 2's unified network changes no send and no result",
          "[model][prefetch][anton2]") {
  const auto on = anton2_run(prefetch_mode::always);
  const auto off = anton2_run(prefetch_mode::never);
  CHECK(std::get<2>(on));
  CHECK(!std::get<2>(off));
  CHECK(std::get<0>(on) == std::get<0>(off));
  CHECK(std::get<1>(on) == std::get<1>(off));
}

TEST_CASE("a prefetch mode out of the enumeration is refused by its name",
          "[model][prefetch][contract]") {
  interlock::model::config c;
  c.prefetch = static_cast<prefetch_mode>(3);
  try {
    c.check();
    FAIL("accepted prefetch mode 3");
  } catch (const interlock::config_error& e) {
    CHECK(e.field() == "prefetch");
    CHECK(std::string(e.what()).find("automatic, always or never") != std::string::npos);
  }
}
