// SPDX-License-Identifier: BSL-1.0
// Building and checking the channel dependency graph of Anton 2's VC
// promotion (all six dimension orders) on k-ary 3-cubes: every route of
// every source-destination pair walked, the graph built, a cycle searched.
//
//   vc_promotion_cdg/<k>/<classes>/<slices>/<threads>
//
// k = 4 (the run ctest makes), 8 and 16; one traffic class (one class's
// graph: classes never share a VC) or both; one slice or Anton 2's two; the
// routes walked on one thread or two (cdg_options::threads; the same
// report).
// Counters: routes and graph size, ns per route, and the process's peak
// resident memory after the run (getrusage; it only grows, so read it for
// the largest case run). One iteration each: a run is seconds long.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <chrono>

#include <interlock/routing/vc_promotion.hpp>
#include <interlock/verify/channel_dependency_graph.hpp>

namespace {

double peak_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

void vc_promotion_cdg(benchmark::State& state) {
  const auto k = static_cast<std::size_t>(state.range(0));
  const bool both_classes = state.range(1) == 2;
  const auto slices = static_cast<std::size_t>(state.range(2));
  const auto threads = static_cast<unsigned>(state.range(3));
  const interlock::torus_topology t({k, k, k}, {}, slices);
  const interlock::vc_promotion_routing anton(t, interlock::all_dimension_orders(3));
  interlock::verify::cdg_options options;
  if (!both_classes) options.classes = {interlock::traffic_class::request};
  options.threads = threads;
  interlock::verify::cdg_report report;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    report = interlock::verify::check_deadlock_freedom(anton, options);
    benchmark::DoNotOptimize(report.acyclic);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  if (!report.deadlock_free()) state.SkipWithError("VC promotion reported a cycle");
  state.counters["routes"] = static_cast<double>(report.routes);
  state.counters["resources"] = static_cast<double>(report.resources);
  state.counters["dependencies"] = static_cast<double>(report.dependencies);
  state.counters["ns_per_route"] =
      seconds * 1e9 /
      (static_cast<double>(report.routes) * static_cast<double>(state.iterations()));
  state.counters["peak_MiB"] = peak_mib();
  state.SetLabel(std::to_string(k) + "x" + std::to_string(k) + "x" + std::to_string(k) + ", " +
                 (both_classes ? "both classes" : "one class") + ", " + std::to_string(slices) +
                 (slices == 1 ? " slice" : " slices") + ", " + std::to_string(threads) +
                 (threads == 1 ? " thread" : " threads"));
}

BENCHMARK(vc_promotion_cdg)
    ->Args({4, 2, 2, 1})
    ->Args({4, 2, 2, 2})
    ->Args({8, 1, 1, 1})
    ->Args({8, 2, 2, 1})
    ->Args({8, 2, 2, 2})
    ->Args({16, 1, 1, 1})
    ->Args({16, 2, 1, 1})
    ->Args({16, 2, 1, 2})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

}  // namespace
