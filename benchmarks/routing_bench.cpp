// SPDX-License-Identifier: BSL-1.0
// Next-hop decision latency of the routing schemes on an 8x8x8 torus.
//
// A stream of 65,536 decisions is recorded before timing: random
// source/destination pairs, each route walked, and every (node, state) on
// the way kept. Timing replays the stream: copy the packet's state, call
// next() (for the adaptive scheme: candidates(), all of them). The floor,
// floor/512, is a minimal XYZ dimension-order next hop written without
// interlock: per dimension, the first unequal ordinate and the shorter way.
//   dimension_order/512         XYZ with datelines (SeaStar)
//   dimension_order_random/512  a random one of the six orders per packet
//   direction_order/512         T3E direction order, VC tables (time of crossing)
//   vc_promotion/512            Anton 2: six orders, two slices, n+1 VCs
//   vc_per_dimension/512        the 2n-VC scheme VC promotion improves on
//   adaptive_candidates/512     T3E adaptive: the escape hop and every profitable hop
#include <benchmark/benchmark.h>

#include <cstdint>
#include <utility>
#include <vector>

#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>

#include "support/streams.hpp"

namespace {

using namespace interlock_bench;

const interlock::torus_topology& torus() {
  static const interlock::torus_topology t({8, 8, 8}, {}, 2);
  return t;
}

constexpr std::size_t decisions = 65536;

/// The decisions of random routes under `scheme`: (node, state before the hop).
template <class Scheme>
std::vector<std::pair<interlock::node_id, typename Scheme::state>> record_decisions(
    const Scheme& scheme) {
  std::vector<std::pair<interlock::node_id, typename Scheme::state>> out;
  rng r(2026);
  while (out.size() < decisions) {
    const auto src = static_cast<interlock::node_id>(r.next() % torus().node_count());
    const auto dst = static_cast<interlock::node_id>(r.next() % torus().node_count());
    typename Scheme::state s = scheme.start(src, dst, interlock::traffic_class::request, r);
    interlock::node_id at = src;
    while (!scheme.arrived(at, s) && out.size() < decisions) {
      out.emplace_back(at, s);
      const interlock::hop h = scheme.next(at, s);
      at = torus().neighbor(at, h.dimension, h.sign);
    }
  }
  return out;
}

/// The floor: XYZ, the first unequal ordinate, the shorter way (k = 8).
std::uint64_t floor_next_hop(interlock::node_id at, interlock::node_id dst) {
  unsigned a = at, b = dst;
  for (unsigned d = 0; d < 3; ++d, a >>= 3, b >>= 3) {
    const unsigned x = a & 7u, y = b & 7u;
    if (x != y) return d * 2 + (((y - x) & 7u) <= 4 ? 0u : 1u);
  }
  return 6;
}

template <class Scheme>
void register_scheme(const char* name, Scheme scheme) {
  benchmark::RegisterBenchmark(name, [scheme](benchmark::State& state) {
    const auto stream = record_decisions(scheme);
    time_decisions(state, stream.size(), [&](std::size_t k) {
      auto s = stream[k].second;
      const interlock::hop h = scheme.next(stream[k].first, s);
      return std::uint64_t{h.dimension} * 8 + h.vc;
    });
  });
}

const bool registered = [] {
  benchmark::RegisterBenchmark("floor/512", [](benchmark::State& state) {
    const auto stream = record_decisions(interlock::dimension_order_routing(torus()));
    time_decisions(state, stream.size(), [&](std::size_t k) {
      return floor_next_hop(stream[k].first, stream[k].second.destination);
    });
  });
  register_scheme("dimension_order/512", interlock::dimension_order_routing(torus()));
  register_scheme("dimension_order_random/512",
                  interlock::dimension_order_routing(torus(), interlock::all_dimension_orders(3)));
  register_scheme("direction_order/512", interlock::direction_order_routing(torus()));
  register_scheme("vc_promotion/512",
                  interlock::vc_promotion_routing(torus(), interlock::all_dimension_orders(3)));
  register_scheme("vc_per_dimension/512",
                  interlock::vc_promotion_routing(torus(), interlock::all_dimension_orders(3),
                                                  interlock::vc_scheme::per_dimension));
  benchmark::RegisterBenchmark("adaptive_candidates/512", [](benchmark::State& state) {
    const interlock::t3e_adaptive_routing scheme(torus());
    const auto stream = record_decisions(scheme);
    interlock::hop out[1 + 2 * interlock::max_dimensions];
    time_decisions(state, stream.size(), [&](std::size_t k) {
      const std::size_t n = scheme.candidates(stream[k].first, stream[k].second, out);
      return std::uint64_t{n} + out[n - 1].dimension;
    });
  });
  return true;
}();

}  // namespace
