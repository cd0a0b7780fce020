// SPDX-License-Identifier: BSL-1.0
// What the torus model's tests share to build and watch a network: an
// arbiter of one type at every (router, port), a destination function from
// a traffic pattern, and a fold of every send into one number.
#ifndef INTERLOCK_TESTS_SUPPORT_NETWORK_MAKERS_HPP
#define INTERLOCK_TESTS_SUPPORT_NETWORK_MAKERS_HPP

#include <cstddef>
#include <cstdint>
#include <functional>

#include <interlock/core/random.hpp>
#include <interlock/model/sources.hpp>
#include <interlock/topology/torus.hpp>

namespace interlock_test {

/// A default-constructed Policy at every (router, port).
template <class Policy>
std::function<Policy(interlock::node_id, std::size_t)> make() {
  return [](interlock::node_id, std::size_t) { return Policy{}; };
}

/// Pattern p's destinations on torus t (t must outlive the function).
template <class Pattern>
interlock::model::destination_function to(const interlock::torus_topology& t, Pattern p) {
  return [&t, p](interlock::node_id s, interlock::splitmix64& g) { return p.destination(t, s, g); };
}

/// Folds every send (router, ports, flits, cycle) into `trace`, so that two
/// runs can be compared send by send.
template <class Net>
void trace_sends(Net& net, std::uint64_t& trace) {
  net.on_send = [&trace](interlock::node_id r, std::size_t in, std::size_t out, unsigned f,
                         std::uint64_t at) {
    trace = trace * 1000003 + r * 131 + in * 31 + out * 7 + f + at;
  };
}

}  // namespace interlock_test

#endif  // INTERLOCK_TESTS_SUPPORT_NETWORK_MAKERS_HPP
