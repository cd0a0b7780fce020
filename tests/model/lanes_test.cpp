// SPDX-License-Identifier: BSL-1.0
// A network stepped on several threads (config::threads, model/lanes.hpp)
// gives the run of one thread, bit for bit: every delivery (source,
// destination, class, sequence, cycle) in order, every field of the
// results, the age counters; past saturation, with the age arbiter and an
// adaptive scheme, staging buffers, two switch stages with pipelined heads,
// Anton 2's unified network, a batch. And the lanes themselves: every lane
// runs, blocks of whole 64-router words.
#include <catch2/catch.hpp>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <interlock/model/anton2_node.hpp>
#include <interlock/model/lanes.hpp>
#include <interlock/model/network.hpp>
#include "support/network_makers.hpp"

namespace {

using interlock::node_id;
using interlock_test::make;
using interlock_test::to;
using rr = interlock::round_robin_arbiter<64>;
using age = interlock::age_epoch_arbiter<64>;

// A run's deliveries folded in order, its results' row (the wall clock
// left out), its age counters and its packets created and injected.
template <class Net>
std::tuple<std::uint64_t, std::uint64_t, std::string, std::vector<std::uint64_t>> outcome(
    Net& net) {
  std::uint64_t trace = 0, count = 0;
  net.on_delivery = [&](node_id s, node_id d, unsigned cls, std::uint64_t seq, std::uint64_t at) {
    for (const std::uint64_t x : {std::uint64_t{s}, std::uint64_t{d}, std::uint64_t{cls}, seq, at})
      trace = (trace ^ x) * 0x100000001B3ull;
    ++count;
  };
  interlock::model::results r = net.run();
  r.wall_s = 0;
  std::vector<std::uint64_t> ages(r.age_histogram.begin(), r.age_histogram.end());
  ages.insert(ages.end(), r.vc_blocked.begin(), r.vc_blocked.end());
  ages.push_back(r.stalled_cycles);
  ages.push_back(net.created());
  ages.push_back(net.injected());
  return {trace, count, interlock::model::csv_row(r), ages};
}

template <class Scheme, class Policy>
void same_on_threads(const Scheme& scheme, const interlock::model::config& base,
                     const interlock::model::traffic_source& to) {
  const auto run = [&](std::size_t threads) {
    interlock::model::config c = base;
    c.threads = threads;
    interlock::model::network<Scheme, Policy> net(scheme, c, to, make<Policy>());
    return outcome(net);
  };
  const auto one = run(1);
  CHECK(std::get<1>(one) > 300);  // a run with traffic to compare
  for (const std::size_t threads : {std::size_t{2}, std::size_t{3}}) {
    INFO(threads << " threads");
    const auto many = run(threads);
    CHECK(std::get<0>(many) == std::get<0>(one));
    CHECK(std::get<1>(many) == std::get<1>(one));
    CHECK(std::get<2>(many) == std::get<2>(one));
    CHECK(std::get<3>(many) == std::get<3>(one));
  }
}

interlock::model::config past_saturation() {
  interlock::model::config c;
  c.load = 0.7;
  c.lengths = {{1, 0.5}, {4, 0.5}};
  c.buffer_flits = 8;
  c.response_share = 0.5;
  c.warmup = 100;
  c.measure = 600;
  c.drain = 20000;
  return c;
}

}  // namespace

TEST_CASE("lanes: every lane runs, each time", "[model][lanes]") {
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
    interlock::model::lane_pool pool(threads);
    std::vector<int> runs(threads, 0);
    for (int i = 0; i < 100; ++i) pool.run([&](std::size_t k) { ++runs[k]; });
    CHECK(runs == std::vector<int>(threads, 100));
  }
}

TEST_CASE("lanes: blocks of whole 64-router words, every router in one", "[model][lanes]") {
  CHECK(interlock::model::lane_blocks(512, 2) == std::vector<std::size_t>{0, 256, 512});
  CHECK(interlock::model::lane_blocks(512, 3) == std::vector<std::size_t>{0, 128, 320, 512});
  CHECK(interlock::model::lane_blocks(100, 2) == std::vector<std::size_t>{0, 64, 100});
  CHECK(interlock::model::lane_blocks(64, 4) == std::vector<std::size_t>{0, 64});
}

TEST_CASE("lanes: a 4x4x8 torus past saturation runs the same on 1, 2 and 3 threads",
          "[model][lanes]") {
  const interlock::torus_topology t({4, 4, 8}, {true, true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c = past_saturation();
  c.measure = 300;
  same_on_threads<interlock::dimension_order_routing, rr>(
      dor, c, to(t, interlock::traffic::uniform_random{}));
}

TEST_CASE("threads: an 8x8x8 torus past saturation runs the same on 1, 2 and 3 threads",
          "[model][lanes]") {
  const interlock::torus_topology t({8, 8, 8}, {true, true, true});
  const interlock::dimension_order_routing dor(t);
  same_on_threads<interlock::dimension_order_routing, rr>(
      dor, past_saturation(), to(t, interlock::traffic::uniform_random{}));
}

TEST_CASE(
    "threads: the age arbiter and an adaptive scheme, with staging buffers and a head "
    "pipeline, run the same on 1, 2 and 3 threads",
    "[model][lanes]") {
  const interlock::torus_topology t({8, 4, 4}, {true, true, true});
  const interlock::t3e_adaptive_routing adaptive(t);
  interlock::model::config c = past_saturation();
  same_on_threads<interlock::t3e_adaptive_routing, age>(
      adaptive, c, to(t, interlock::traffic::uniform_random{}));
  c.staging_flits = 8;
  c.head_cycles = 2;
  same_on_threads<interlock::t3e_adaptive_routing, age>(
      adaptive, c, to(t, interlock::traffic::uniform_random{}));
}

TEST_CASE(
    "threads: two switch stages with pipelined heads, and a batch, run the same on 1, 2 "
    "and 3 threads",
    "[model][lanes]") {
  const interlock::torus_topology t({8, 8, 4}, {true, true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c = past_saturation();
  c.switch_stages = 2;
  c.head_cycles = 1;
  c.pipelined_heads = true;
  same_on_threads<interlock::dimension_order_routing, rr>(
      dor, c, to(t, interlock::traffic::uniform_random{}));
  interlock::model::config b = past_saturation();
  b.batch = 8;
  same_on_threads<interlock::dimension_order_routing, rr>(
      dor, b, to(t, interlock::traffic::uniform_random{}));
}

TEST_CASE(
    "threads: two endpoints per router, and sources that send nothing, run the same on 1, 2 "
    "and 3 threads",
    "[model][lanes]") {
  const interlock::torus_topology t({8, 8, 4}, {true, true, true});
  const interlock::dimension_order_routing dor(t);
  // Every third source draws no destination: its packets are dropped.
  const interlock::model::destination_function some = [&t](node_id s,
                                                           interlock::splitmix64& g) -> node_id {
    if (s % 3 == 0) return interlock::no_node;
    return interlock::traffic::uniform_random{}.destination(t, s, g);
  };
  interlock::model::config c = past_saturation();
  c.endpoints = 2;
  same_on_threads<interlock::dimension_order_routing, rr>(dor, c, some);
  c.batch = 8;
  same_on_threads<interlock::dimension_order_routing, rr>(dor, c, some);
}

TEST_CASE("threads: Anton 2's unified network runs the same on 1, 2 and 3 threads",
          "[model][lanes][anton2]") {
  const interlock::torus_topology torus({4, 4, 2}, {}, 2);
  const interlock::anton2_topology node(torus);
  const interlock::anton2_routing anton(node);
  interlock::model::config c = past_saturation();
  c.load = 0.3;
  // Past its saturation: a full drain would take 20,000 cycles; 500 still
  // carry deliveries after the measurement.
  c.drain = 500;
  same_on_threads<interlock::anton2_routing, rr>(
      anton, c, interlock::model::to_cores(node, [&torus](node_id s, interlock::splitmix64& g) {
        return interlock::traffic::uniform_random{}.destination(torus, s, g);
      }));
}

TEST_CASE("threads: a configuration of more than 64 threads is refused", "[model][lanes]") {
  interlock::model::config c;
  c.threads = 65;
  CHECK_THROWS_WITH(c.check(), Catch::Contains("threads") && Catch::Contains("1..64"));
  c.threads = 0;
  CHECK_THROWS_WITH(c.check(), Catch::Contains("threads"));
}
