// SPDX-License-Identifier: BSL-1.0
// interlock/routing/adaptive.hpp: T3E adaptive routing with a deterministic escape.
//
// Models Scott & Thorson, "The Cray T3E Network" (HOTI'96), Section 5, an
// adaptation of Duato's scheme. Each physical channel has one adaptive VC
// besides the deterministic ones. From any node a packet may take either
//   - the escape hop: the next hop of its deterministic direction-order
//     route (direction_order_routing), on that route's VC; or
//   - an adaptive hop on the adaptive VC in any profitable direction, one
//     that brings it closer to its destination (both directions of a ring
//     at exactly k/2 are profitable);
// but an adaptive hop only into an adaptive VC buffer with room for the
// whole packet (adaptive_hop_allowed). A packet never holds part of an
// adaptive buffer while waiting, so no dependency leads from an adaptive VC
// to anything, and the escape network alone must be acyclic.
//
// After an adaptive hop the packet re-enters the deterministic network at
// the node it reached, on the route direction_order_routing gives from there
// (minimal tag, no initial or final hop).
//
// Contract
//   - VCs: the escape's 2 per class for each of the 2 classes (0..3), then
//     the adaptive VC, shared by both classes: adaptive_vc() == 4.
//   - candidates(at, state, out) writes the escape hop first, then the
//     adaptive hops (hop::adaptive set), into a caller's array of at most
//     1 + 2n hops (max_route_candidates), and returns the count; no
//     allocation.
//   - follow(at, state, taken) updates the state for the hop the router
//     chose among the candidates.
//   - vcs_per_channel() is 5: both classes' escape VCs and the adaptive VC.
//   - start, next and for_each_start are the escape network's, so the
//     deadlock checker can test it directly.
//
// Example
//   interlock::torus_topology torus({4, 4, 4});
//   interlock::t3e_adaptive_routing ar(torus);
//   interlock::splitmix64 rng(1);
//   const interlock::node_id src = torus.node({0, 0, 0}), dst = torus.node({1, 1, 0});
//   interlock::hop c[1 + 2 * interlock::max_dimensions];
//   auto s = ar.start(src, dst, interlock::traffic_class::request, rng);
//   std::size_t n = ar.candidates(src, s, c);  // c[0]: escape, c[1..]: adaptive
//   assert(n >= 2 && !c[0].adaptive && c[1].adaptive);
#ifndef INTERLOCK_ROUTING_ADAPTIVE_HPP
#define INTERLOCK_ROUTING_ADAPTIVE_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/routing/direction_order.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {

/// T3E Section 5: an adaptive hop needs room for the whole packet.
constexpr bool adaptive_hop_allowed(std::size_t free_flits, std::size_t packet_flits) noexcept {
  return free_flits >= packet_flits;
}

class t3e_adaptive_routing {
 public:
  using state = direction_order_routing::state;

  explicit t3e_adaptive_routing(const torus_topology& topology, std::vector<direction> order = {},
                                std::vector<ring_vc_assignment> tables = {})
      : escape_(topology, std::move(order), std::move(tables)) {}

  const torus_topology& topology() const noexcept { return escape_.topology(); }
  const direction_order_routing& escape() const noexcept { return escape_; }
  unsigned vcs_per_class() const noexcept { return escape_.vcs_per_class(); }
  /// The adaptive VC's number, after both classes' escape VCs.
  unsigned adaptive_vc() const noexcept { return traffic_classes * escape_.vcs_per_class(); }
  /// Both classes' escape VCs and the adaptive VC.
  unsigned vcs_per_channel() const noexcept { return adaptive_vc() + 1; }

  template <class Random>
  state start(node_id source, node_id destination, traffic_class c, Random& rng) const {
    return escape_.start(source, destination, c, rng);
  }
  /// The escape route with a given tag (direction_order_routing::start_with).
  state start_with(node_id source, node_id destination, traffic_class c,
                   const route_tag& tag = {}) const {
    return escape_.start_with(source, destination, c, tag);
  }
  template <class F>
  void for_each_start(node_id source, node_id destination, traffic_class c, F&& f) const {
    escape_.for_each_start(source, destination, c, std::forward<F>(f));
  }
  bool arrived(node_id at, const state& s) const noexcept { return escape_.arrived(at, s); }
  /// The escape hop (the deterministic route's next hop).
  hop next(node_id at, state& s) const { return escape_.next(at, s); }

  /// Writes the escape hop, then every profitable adaptive hop, into `out`
  /// (room for 1 + 2n hops); returns how many.
  std::size_t candidates(node_id at, const state& s, hop* out) const {
    INTERLOCK_ASSERT(!arrived(at, s), "candidates() after arrival");
    const torus_topology& t = topology();
    state escape_state = s;
    std::size_t count = 0;
    out[count++] = escape_.next(at, escape_state);
    for (unsigned d = 0; d < t.dimensions(); ++d) {
      const std::size_t a = t.ordinate(at, d), b = s.target_ordinates[d];
      if (a == b) continue;
      const int minimal = t.minimal_direction(d, a, b);
      out[count++] = hop{d, minimal, 0, adaptive_vc(), true};
      if (t.wraps(d) && 2 * t.hops(d, a, b, +1) == t.radix(d))  // both ways are minimal
        out[count++] = hop{d, -minimal, 0, adaptive_vc(), true};
    }
    return count;
  }

  /// Advances the state past `taken` (one of the candidates) from `at`:
  /// along the escape route, or, after an adaptive hop, onto the escape
  /// route from the node it reaches (minimal tag, no initial or final hop).
  void follow(node_id at, state& s, const hop& taken) const {
    if (!taken.adaptive) {
      const hop h = escape_.next(at, s);
      INTERLOCK_ASSERT(h == taken, "follow() of a hop that is not a candidate");
      static_cast<void>(h);
      return;
    }
    node_id reached = topology().neighbor(at, taken.dimension, taken.sign);
    INTERLOCK_ASSERT(reached != no_node, "follow() of an adaptive hop off a mesh edge");
    if (reached == no_node) reached = at;
    s = escape_.start_with(reached, s.destination, static_cast<traffic_class>(s.cls));
  }

 private:
  direction_order_routing escape_;
};

}  // namespace interlock

#endif  // INTERLOCK_ROUTING_ADAPTIVE_HPP
