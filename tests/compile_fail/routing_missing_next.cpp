// expect: needs `interlock::hop next\(node_id, state&\) const`
// SPDX-License-Identifier: BSL-1.0
// A routing function without next() handed to the deadlock checker is
// rejected with a message that names the missing member.
#include <interlock/verify/channel_dependency_graph.hpp>

struct no_next {
  struct state {
    interlock::node_id destination;
  };
  interlock::torus_topology torus{{4}};
  const interlock::torus_topology& topology() const { return torus; }
  unsigned vcs_per_class() const { return 1; }
  template <class F>
  void for_each_start(interlock::node_id, interlock::node_id d, interlock::traffic_class,
                      F&& f) const {
    f(state{d}, 1.0);
  }
  bool arrived(interlock::node_id at, const state& s) const { return at == s.destination; }
#ifdef INTERLOCK_COMPILE_FAIL_CONTROL
  interlock::hop next(interlock::node_id, state&) const { return interlock::hop{}; }
#endif
};

int main() { return interlock::verify::check_deadlock_freedom(no_next{}).deadlock_free() ? 0 : 1; }
