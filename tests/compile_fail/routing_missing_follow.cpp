// expect: needs `void follow\(node_id, state&, const hop&\) const`
// SPDX-License-Identifier: BSL-1.0
// A scheme a router cannot drive (no follow()) is rejected with a message
// that names the missing member.
#include <interlock/routing/dimension_order.hpp>

struct no_follow {
  interlock::dimension_order_routing dor;
  using state = interlock::dimension_order_routing::state;
  const interlock::torus_topology& topology() const { return dor.topology(); }
  unsigned vcs_per_class() const { return dor.vcs_per_class(); }
  unsigned vcs_per_channel() const { return dor.vcs_per_channel(); }
  template <class Random>
  state start(interlock::node_id s, interlock::node_id d, interlock::traffic_class c,
              Random& rng) const {
    return dor.start(s, d, c, rng);
  }
  template <class F>
  void for_each_start(interlock::node_id s, interlock::node_id d, interlock::traffic_class c,
                      F&& f) const {
    dor.for_each_start(s, d, c, f);
  }
  bool arrived(interlock::node_id at, const state& s) const { return dor.arrived(at, s); }
  interlock::hop next(interlock::node_id at, state& s) const { return dor.next(at, s); }
  std::size_t candidates(interlock::node_id at, const state& s, interlock::hop* out) const {
    return dor.candidates(at, s, out);
  }
#ifdef INTERLOCK_COMPILE_FAIL_CONTROL
  void follow(interlock::node_id at, state& s, const interlock::hop& h) const {
    dor.follow(at, s, h);
  }
#endif
};

static_assert(interlock::require_routing_scheme<no_follow>());

int main() { return 0; }
