// interlock/traffic/loads.hpp: expected channel and arbiter loads of traffic under a routing
// scheme.
//
// Contract
//   - for_each_hop_load(scheme, pattern, c, f) walks every flow of the
//     pattern along every route the scheme may give it (for_each_start),
//     and calls f(from, hop, rate x probability) for each hop: the
//     expected packets per unit time that take that hop on that VC.
//     Randomized orders and slices are weighted by their probability.
//   - channel_loads sums them per channel id (torus_topology::channel).
//     Under uniform_random traffic on a k-ary n-cube every channel carries
//     k/8 when 4 divides k (paper 000, Eq. 8); for other even k the channels
//     carry k/8 on average (the k/2 ties cannot be spread evenly); on a mesh
//     the bisection channels carry k/4 (Eq. 9). Tests check all three.
//   - router_arbiter_loads gives each router arbiter the per-input loads of
//     paper 001, Section 3.1, one pattern per traffic pattern given, ready
//     for weights_from_loads: arbiter a < channel_count() arbitrates for
//     channel a (its output), arbiter channel_count() + v for node v's
//     ejection port; input slice*2n + 2d + (sign < 0) is the channel the
//     packet arrived on (dimension d, direction sign), input slices*2n is
//     injection. Result: [arbiter][input][pattern].
//   A route that does not arrive is a contract violation (a broken scheme);
//   it is otherwise counted up to where it stopped. Loads are offline sums:
//   they allocate; their cost is flows x routes per flow x hops.
//
// Example
//   auto loads = interlock::channel_loads(dor, interlock::uniform_random{});
#ifndef INTERLOCK_TRAFFIC_LOADS_HPP
#define INTERLOCK_TRAFFIC_LOADS_HPP

#include <cstddef>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {

template <class Scheme, class Pattern, class F>
void for_each_hop_load(const Scheme& scheme, const Pattern& pattern, traffic_class c, F&& f) {
  static_assert(require_routing_scheme<Scheme>(), "for_each_hop_load needs a routing scheme");
  pattern.for_each_flow(scheme.topology(), [&](node_id source, node_id destination, double rate) {
    scheme.for_each_start(source, destination, c, [&](const typename Scheme::state& s, double p) {
      const bool arrived =
          walk(scheme, source, s, [&](node_id from, const hop& h) { f(from, h, rate * p); });
      INTERLOCK_ASSERT(arrived, "a route that does not arrive");
      static_cast<void>(arrived);
    });
  });
}

template <class Scheme, class Pattern>
std::vector<double> channel_loads(const Scheme& scheme, const Pattern& pattern,
                                  traffic_class c = traffic_class::request) {
  const torus_topology& t = scheme.topology();
  std::vector<double> load(static_cast<std::size_t>(t.channel_count()), 0.0);
  for_each_hop_load(scheme, pattern, c, [&](node_id from, const hop& h, double rate) {
    load[static_cast<std::size_t>(t.channel({from, h.dimension, h.sign, h.slice}))] += rate;
  });
  return load;
}

template <class Scheme, class... Patterns>
std::vector<std::vector<std::vector<double>>> router_arbiter_loads(const Scheme& scheme,
                                                                   traffic_class c,
                                                                   const Patterns&... patterns) {
  const torus_topology& t = scheme.topology();
  const std::size_t channels = static_cast<std::size_t>(t.channel_count());
  const std::size_t inputs = t.slices() * 2 * t.dimensions() + 1;
  const std::size_t injection = inputs - 1;
  std::vector<std::vector<std::vector<double>>> loads(
      channels + t.node_count(),
      std::vector<std::vector<double>>(inputs, std::vector<double>(sizeof...(Patterns), 0.0)));
  std::size_t n = 0;
  auto one_pattern = [&](const auto& pattern) {
    pattern.for_each_flow(t, [&](node_id source, node_id destination, double rate) {
      scheme.for_each_start(source, destination, c, [&](const typename Scheme::state& s, double p) {
        std::size_t input = injection;
        walk(scheme, source, s, [&](node_id from, const hop& h) {
          loads[static_cast<std::size_t>(t.channel({from, h.dimension, h.sign, h.slice}))][input]
               [n] += rate * p;
          input = h.slice * 2 * t.dimensions() + 2 * h.dimension + (h.sign < 0 ? 1u : 0u);
        });
        loads[channels + destination][input][n] += rate * p;  // the ejection port
      });
    });
    ++n;
  };
  (one_pattern(patterns), ...);
  return loads;
}

}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_LOADS_HPP
