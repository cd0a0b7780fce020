// SPDX-License-Identifier: BSL-1.0
// interlock/traffic/pattern_mix.hpp: two traffic patterns offered together, in given shares.
//
// Contract
//   pattern_mix<A, B>{a, b, share} is a traffic pattern (patterns.hpp's
//   contract): each packet goes where `b` sends it with probability `share`
//   and where `a` sends it otherwise. for_each_flow gives a's flows scaled
//   by 1 - share, then b's scaled by share (a pair both carry comes twice;
//   every consumer of flows sums them). destination() draws one uniform
//   number, then the chosen pattern's destination from the same generator:
//   no allocation, no exception. When the chosen pattern gives a source
//   nothing to send, neither does the packet (no_node).
//   check() is both patterns' checks; config_error for a share outside
//   [0, 1] (field "share").
//
// Example
//   // [Abts07]'s production mix, in spirit: nearest neighbours and a hot node.
//   interlock::torus_topology torus({4, 4, 4});
//   interlock::traffic::pattern_mix<interlock::traffic::neighbor, interlock::traffic::hotspot>
//       mix{{1}, {0, 1.0}, 0.01};  // 1 % of packets to node 0
//   mix.check(torus);
#ifndef INTERLOCK_TRAFFIC_PATTERN_MIX_HPP
#define INTERLOCK_TRAFFIC_PATTERN_MIX_HPP

#include <string>

#include "interlock/core/config_error.hpp"
#include "interlock/core/random.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace traffic {

template <class A, class B>
struct pattern_mix {
  A a;
  B b;
  double share = 0.5;  // of the packets, to b

  void check(const torus_topology& t) const {
    a.check(t);
    b.check(t);
    if (!(share >= 0 && share <= 1))
      throw config_error("pattern_mix", "share", std::to_string(share), "0..1");
  }
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    check(t);
    const double to_a = 1 - share;
    if (to_a > 0)
      a.for_each_flow(t, [&](node_id s, node_id d, double rate) { f(s, d, rate * to_a); });
    if (share > 0)
      b.for_each_flow(t, [&](node_id s, node_id d, double rate) { f(s, d, rate * share); });
  }
  template <class Random>
  node_id destination(const torus_topology& t, node_id source, Random& rng) const {
    return uniform_unit(rng) < share ? b.destination(t, source, rng)
                                     : a.destination(t, source, rng);
  }
};

}  // namespace traffic
}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_PATTERN_MIX_HPP
