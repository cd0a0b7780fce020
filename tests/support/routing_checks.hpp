// SPDX-License-Identifier: BSL-1.0
// Helpers for the routing tests: recording routes and random topologies.
#ifndef INTERLOCK_TESTS_SUPPORT_ROUTING_CHECKS_HPP
#define INTERLOCK_TESTS_SUPPORT_ROUTING_CHECKS_HPP

#include <rapidcheck.h>

#include <cstddef>
#include <utility>
#include <vector>

#include <interlock/routing/route.hpp>
#include <interlock/topology/torus.hpp>

namespace interlock_test {

struct recorded_route {
  std::vector<std::pair<interlock::node_id, interlock::hop>> hops;  // (from, hop)
  interlock::node_id end = interlock::no_node;
  bool arrived = false;
};

template <class Scheme>
recorded_route record(const Scheme& scheme, interlock::node_id source, typename Scheme::state s) {
  recorded_route r;
  interlock::node_id at = source;
  r.arrived =
      interlock::walk(scheme, source, s, [&](interlock::node_id from, const interlock::hop& h) {
        r.hops.emplace_back(from, h);
        at = scheme.topology().neighbor(from, h.dimension, h.sign);
      });
  r.end = at;
  return r;
}

/// A random topology: 1..max_n dimensions of radix 2..max_k, each a torus or a mesh.
inline rc::Gen<interlock::torus_topology> gen_topology(std::size_t max_n, std::size_t max_k,
                                                       bool all_torus = false) {
  return rc::gen::exec([=] {
    const auto n = *rc::gen::inRange<std::size_t>(1, max_n + 1);
    std::vector<std::size_t> radix;
    std::vector<bool> wrap;
    for (std::size_t d = 0; d < n; ++d) {
      radix.push_back(*rc::gen::inRange<std::size_t>(2, max_k + 1));
      wrap.push_back(all_torus || *rc::gen::arbitrary<bool>());
    }
    return interlock::torus_topology(radix, wrap);
  });
}

}  // namespace interlock_test

#endif  // INTERLOCK_TESTS_SUPPORT_ROUTING_CHECKS_HPP
