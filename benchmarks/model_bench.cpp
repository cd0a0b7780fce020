// SPDX-License-Identifier: BSL-1.0
// Speed of the reference network model (include/interlock/model/), in router-cycles per
// second on one core: the configuration the model is compared with BookSim2 on.
//
//   model/torus8x8x8/<load>/<packet flits>
//     8x8x8 torus, dimension order with datelines, 4 VCs (two per dateline
//     class: one traffic class, each of its 2 VCs given 2 physical VCs),
//     8-flit buffers per VC, uniform random traffic, Bernoulli injection at
//     <load> flits per node per cycle, round-robin output arbiters.
//   model/torus8x8x8/idle/1
//     the same network with no traffic: what a cycle costs when nothing moves.
//   model/torus8x8x8/0.7/1/<allocator>
//     saturated, with the other switch allocators: separable output-first,
//     iSLIP with 1 and 4 iterations, wavefront (8-port matrices).
//   model/anton2/<k>x<k>x<k>/<arbiter>
//     Anton 2's unified network (28 routers per node: 16 mesh routers, 12
//     channel adapters), uniform traffic at 0.1 flits per core per cycle
//     (past the torus links' saturation: 0.078 at k = 4, 0.039 at k = 8),
//     8-flit buffers, round robin or inverse weights (the hardware model,
//     from uniform traffic's loads) at both stages; k = 8 is Figure 9's
//     size. 1,000 cycles of warm-up, then steps of 20 cycles timed.
//   model/torus_size/<k>/0.3/1
//     k x k x k tori (k = 8, 16, 32) as model/torus8x8x8/0.3/1, 1,000 cycles
//     of warm-up, then steps of 20 cycles timed: flit_hops_per_s (flits
//     crossing channels between routers per second) says how the cost per
//     unit of work holds as the network grows; bytes_per_router the heap
//     the network holds once warm, per router (glibc's count; 0 elsewhere).
//     Uniform traffic saturates a k-ary torus at 8/k flits per node per
//     cycle, so 0.3 is past saturation at k = 32.
//   model/torus_size/<k>/half/1
//     the same at half of each torus's saturation, 4/k flits per node per
//     cycle: the cost per flit-hop at the same relative load, apart from
//     the contention a fixed 0.3 adds as k grows.
//   model/torus_size/<k>/0.3/1/threads:<n>, model/torus_size/<k>/half/1/threads:<n>
//     the same on n threads (config::threads; the same run bit for bit):
//     its time against the one-thread case's of the same k, measured in the
//     same run, is the speedup (k = 16 and 32, n = 2). These cases are timed
//     by the wall clock.
//   model/switch/A/<load>
//     the QoS switch of [QoSThesis] Table 2.2, configuration A (48 ports in
//     MPorts of 4, three SLs at 0.5/0.4/0.1 of the load, 16-flit packets,
//     SBT 60/30/10), uniform traffic at <load> flits per NIC per cycle:
//     one run of 2,000 cycles of warm-up and 10,000 measured per iteration,
//     network built included; counter port_cycles_per_s (ports x cycles /
//     second) and accepted (flits per NIC per cycle, every SL).
// The torus cases build the network, run 2,000 cycles of warm-up untimed,
// then time steps of 100 cycles. Counter router_cycles_per_s (a rate:
// routers x cycles / second); accepted is the measured throughput,
// flits/node/cycle (anton2: accepted_per_core, packets per core per cycle).
#include <benchmark/benchmark.h>

#include <interlock/arbiters/inverse_weight_tables.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/anton2_loads.hpp>
#include <interlock/traffic/arbitration_weights.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <interlock/model/network.hpp>
#include <interlock/model/qos_switch.hpp>

namespace {

using rr = interlock::round_robin_arbiter<64>;

// booksim2_shape: BookSim2's iq_router and torus as docs/model.md compares
// them (2-cycle channels, a 2-cycle head pipeline, BookSim2's dateline rule).
template <class Allocator = interlock::model::separable_input_first>
void model_torus(benchmark::State& state, double load, unsigned flits, Allocator allocator = {},
                 bool booksim2_shape = false) {
  using net_type = interlock::model::network<interlock::dimension_order_routing, rr, Allocator>;
  static const interlock::torus_topology t({8, 8, 8}, {true, true, true});
  static const interlock::dimension_order_routing plain(t);
  static const interlock::dimension_order_routing booksim2(
      t, {}, {true, interlock::dateline_rule::booksim2});
  const interlock::dimension_order_routing& dor = booksim2_shape ? booksim2 : plain;
  interlock::model::config c;
  if (booksim2_shape) {
    c.channel_latency = 2;
    c.router_delay = 2;
    c.head_cycles = 2;
  }
  c.load = load;
  c.vcs = 4;
  c.buffer_flits = 8;
  c.lengths = {{flits, 1.0}};
  c.warmup = 2000;
  c.measure = std::uint64_t{1} << 40;  // the window never closes while timed
  static const interlock::traffic::uniform_random uniform;
  net_type net(
      dor, c,
      [](interlock::node_id s, interlock::splitmix64& g) { return uniform.destination(t, s, g); },
      [](interlock::node_id, std::size_t) { return rr{}; }, {}, allocator);
  net.start();
  for (int i = 0; i < 2000; ++i) net.step();
  const std::uint64_t delivered_before = net.delivered();
  std::uint64_t cycles = 0;
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) net.step();
    cycles += 100;
  }
  state.counters["router_cycles_per_s"] =
      benchmark::Counter(static_cast<double>(cycles) * static_cast<double>(t.node_count()),
                         benchmark::Counter::kIsRate);
  state.counters["accepted"] = static_cast<double>(net.delivered() - delivered_before) * flits /
                               static_cast<double>(cycles) / static_cast<double>(t.node_count());
}

// Bytes the heap holds now (glibc; elsewhere 0, and the counter reads 0).
std::size_t heap_in_use() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
#else
  return 0;
#endif
}

// A k x k x k torus as model/torus8x8x8/<load>/1 runs it: cost per
// delivered flit-hop, and heap bytes per router once warm.
void model_torus_size(benchmark::State& state, std::size_t k, double load, std::size_t threads) {
  using net_type = interlock::model::network<interlock::dimension_order_routing, rr>;
  const std::size_t heap_before = heap_in_use();
  const interlock::torus_topology t({k, k, k}, {true, true, true});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;
  c.load = load;
  c.vcs = 4;
  c.buffer_flits = 8;
  c.warmup = 1000;
  c.measure = std::uint64_t{1} << 40;
  c.threads = threads;
  const interlock::traffic::uniform_random uniform;
  net_type net(
      dor, c,
      [&t, &uniform](interlock::node_id s, interlock::splitmix64& g) {
        return uniform.destination(t, s, g);
      },
      [](interlock::node_id, std::size_t) { return rr{}; });
  net.start();
  for (int i = 0; i < 1000; ++i) net.step();
  const double bytes = static_cast<double>(heap_in_use() - heap_before);
  const auto channel_flits = [&] {
    std::uint64_t sum = 0;
    for (interlock::node_id r = 0; r < t.node_count(); ++r)
      for (std::size_t o = 0; o < t.local_port(); ++o) sum += net.channel_flits(r, o);
    return sum;
  };
  const std::uint64_t hops_before = channel_flits();
  std::uint64_t cycles = 0;
  for (auto _ : state) {
    for (int i = 0; i < 20; ++i) net.step();
    cycles += 20;
  }
  const double routers = static_cast<double>(t.node_count());
  state.counters["router_cycles_per_s"] =
      benchmark::Counter(static_cast<double>(cycles) * routers, benchmark::Counter::kIsRate);
  const double hops = static_cast<double>(channel_flits() - hops_before);
  state.counters["flit_hops_per_s"] = benchmark::Counter(hops, benchmark::Counter::kIsRate);
  // Its inverse: seconds per delivered flit-hop, the figure to keep flat.
  state.counters["s_per_flit_hop"] =
      benchmark::Counter(hops, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["bytes_per_router"] = bytes / routers;
}

// Anton 2's unified network of k x k x k nodes, stepped past saturation.
template <class Arbiter>
void model_anton2(benchmark::State& state, std::size_t k) {
  const interlock::torus_topology t({k, k, k}, {}, 2);
  const interlock::anton2_topology node(t);
  const interlock::anton2_routing anton(node);
  interlock::model::config c;
  c.load = 0.1;
  c.buffer_flits = 8;
  c.warmup = 1000;
  c.measure = std::uint64_t{1} << 40;
  const interlock::traffic::uniform_random uniform;
  const auto traffic = interlock::model::to_cores(
      node, [&t, uniform](interlock::node_id s, interlock::splitmix64& g) {
        return uniform.destination(t, s, g);
      });
  using net_type = interlock::model::network<interlock::anton2_routing, Arbiter,
                                             interlock::model::separable_input_first, Arbiter>;
  std::unique_ptr<net_type> net;
  if constexpr (std::is_same<Arbiter, interlock::round_robin_arbiter<8>>::value) {
    const auto make = [](interlock::node_id, std::size_t) { return Arbiter{}; };
    net = std::make_unique<net_type>(anton, c, traffic, make, interlock::model::age_config{},
                                     interlock::model::separable_input_first{}, make);
  } else {
    interlock::inverse_weight_tables<8, 1, 12> tables;
    const auto w = interlock::unified_arbitration_tables(
        tables, interlock::anton2_arbiter_loads(anton, interlock::traffic_class::request, uniform));
    net = std::make_unique<net_type>(
        anton, c, traffic,
        [&w](interlock::node_id r, std::size_t o) { return Arbiter(w.output(r, o)); },
        interlock::model::age_config{}, interlock::model::separable_input_first{},
        [&w](interlock::node_id r, std::size_t q) { return Arbiter(w.input(r, q)); });
  }
  net->start();
  for (int i = 0; i < 1000; ++i) net->step();
  const std::uint64_t delivered_before = net->delivered();
  std::uint64_t cycles = 0;
  for (auto _ : state) {
    for (int i = 0; i < 20; ++i) net->step();
    cycles += 20;
  }
  const double routers =
      static_cast<double>(t.node_count() * interlock::anton2_topology::routers_per_node);
  state.counters["router_cycles_per_s"] =
      benchmark::Counter(static_cast<double>(cycles) * routers, benchmark::Counter::kIsRate);
  state.counters["accepted_per_core"] = static_cast<double>(net->delivered() - delivered_before) /
                                        static_cast<double>(cycles) /
                                        static_cast<double>(t.node_count() * 16);
}

// One run of configuration A's switch per iteration.
void model_switch_a(benchmark::State& state, double load) {
  namespace qs = interlock::model::qos_switch;
  const qs::service_levels a({0, 1, 2}, {0, 1, 2});
  const qs::sl_traffic traffic{{0.5, 0.4, 0.1}, {16, 16, 16}};
  constexpr std::uint64_t warmup = 2000, measured = 10000;
  std::uint64_t cycles = 0;
  double accepted = 0;
  for (auto _ : state) {
    qs::network<interlock::qos::sbt_scheduler> net(qs::single_switch(48), qs::opa_48_port(), a,
                                                   traffic, qs::sbt_for(a, {60, 30, 10}));
    net.run(qs::pattern::uniform, load, warmup, measured, 1);
    accepted = 0;
    for (const qs::sl_result& r : net.results()) accepted += r.throughput;
    cycles += warmup + measured;
  }
  state.counters["port_cycles_per_s"] =
      benchmark::Counter(static_cast<double>(cycles) * 48, benchmark::Counter::kIsRate);
  state.counters["accepted"] = accepted;
}

const bool registered = [] {
  const char* const loads[] = {"0.1", "0.3", "0.7"};
  namespace m = interlock::model;
  benchmark::RegisterBenchmark("model/torus8x8x8/idle/1", model_torus<>, 0.0, 1u,
                               m::separable_input_first{}, false)
      ->Unit(benchmark::kMicrosecond);
  for (const unsigned flits : {1u, 4u})
    for (const char* load : loads)
      benchmark::RegisterBenchmark(
          ("model/torus8x8x8/" + std::string(load) + "/" + std::to_string(flits)).c_str(),
          model_torus<>, std::stod(load), flits, m::separable_input_first{}, false)
          ->Unit(benchmark::kMicrosecond);
  for (const char* load : loads)
    benchmark::RegisterBenchmark(
        ("model/torus8x8x8/booksim2_shape/" + std::string(load) + "/1").c_str(), model_torus<>,
        std::stod(load), 1u, m::separable_input_first{}, true)
        ->Unit(benchmark::kMicrosecond);
  // The other switch allocators, saturated.
  benchmark::RegisterBenchmark("model/torus8x8x8/0.7/1/separable_output_first",
                               model_torus<m::separable_output_first>, 0.7, 1u,
                               m::separable_output_first{}, false)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("model/torus8x8x8/0.7/1/islip1", model_torus<m::islip<8>>, 0.7, 1u,
                               m::islip<8>{1}, false)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("model/torus8x8x8/0.7/1/islip4", model_torus<m::islip<8>>, 0.7, 1u,
                               m::islip<8>{4}, false)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("model/torus8x8x8/0.7/1/wavefront", model_torus<m::wavefront<8>>,
                               0.7, 1u, m::wavefront<8>{}, false)
      ->Unit(benchmark::kMicrosecond);
  // Growing tori, 4^3 to 32^3: the cost per flit-hop and the memory per
  // router; the cost should stay flat as the torus grows.
  for (const std::size_t k : {4u, 8u, 12u, 16u, 24u, 32u})
    benchmark::RegisterBenchmark(("model/torus_size/" + std::to_string(k) + "/0.3/1").c_str(),
                                 model_torus_size, k, 0.3, std::size_t{1})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  for (const std::size_t k : {8u, 16u, 32u})
    benchmark::RegisterBenchmark(("model/torus_size/" + std::to_string(k) + "/half/1").c_str(),
                                 model_torus_size, k, 4.0 / static_cast<double>(k), std::size_t{1})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  // The large ones on two threads. Every size is timed by the wall clock
  // (a worker thread's time is not the benchmark's CPU time).
  for (const std::size_t k : {16u, 32u}) {
    benchmark::RegisterBenchmark(
        ("model/torus_size/" + std::to_string(k) + "/0.3/1/threads:2").c_str(), model_torus_size, k,
        0.3, std::size_t{2})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(
        ("model/torus_size/" + std::to_string(k) + "/half/1/threads:2").c_str(), model_torus_size,
        k, 4.0 / static_cast<double>(k), std::size_t{2})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  // The QoS switch, configuration A, below and past its saturation (about 0.7).
  for (const char* load : {"0.5", "1.0"})
    benchmark::RegisterBenchmark(("model/switch/A/" + std::string(load)).c_str(), model_switch_a,
                                 std::stod(load))
        ->Unit(benchmark::kMillisecond);
  // Anton 2's unified network.
  using rr8 = interlock::round_robin_arbiter<8>;
  using iw8 = interlock::inverse_weighted_arbiter<8, 1, 12>;
  benchmark::RegisterBenchmark("model/anton2/4x4x4/round_robin", model_anton2<rr8>, 4)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("model/anton2/4x4x4/inverse_weighted", model_anton2<iw8>, 4)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("model/anton2/8x8x8/round_robin", model_anton2<rr8>, 8)
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
