// SPDX-License-Identifier: BSL-1.0
// interlock/routing/route.hpp: what every routing scheme offers, and walking a route.
//
// Contract
//   A routing scheme is a small value over a torus_topology that computes a
//   packet's route from the node it is at and the routing state it carries
//   (like the header bits and VC a router sees). Every scheme, oblivious or
//   adaptive, has one shape:
//
//     using state = ...;                                     // carried by the packet
//     const torus_topology& topology() const;
//     unsigned vcs_per_class() const;                        // VCs of one traffic class
//     unsigned vcs_per_channel() const;                      // every VC a channel needs
//     template <class Random>
//     state start(node_id source, node_id destination, traffic_class c, Random& rng) const;
//         // the packet's route: the scheme's own random choices (dimension
//         // order, slice, route tag, initial hop) drawn from the caller's
//         // generator, each route with the probability for_each_start gives it
//     template <class F> void for_each_start(node_id source, node_id destination,
//                                            traffic_class c, F&& f) const;
//         // every route start() may give: f(const state&, double probability)
//     bool arrived(node_id at, const state&) const;
//     std::size_t candidates(node_id at, const state&, hop* out) const;
//         // the hops the packet may take next, at most max_route_candidates:
//         // one for an oblivious scheme; the escape hop first, then the
//         // adaptive ones (hop::adaptive set), for an adaptive scheme
//     void follow(node_id at, state&, const hop& taken) const;
//         // the state once the router has chosen `taken` among the candidates
//     hop next(node_id at, state&) const;
//         // the deterministic (escape) route: candidates()[0], then follow()
//
//   A router has one route-compute path: candidates() at the head of a
//   buffer, follow() when the packet wins an output. next() is what the
//   deadlock checker and the loads walk.
//
//   start() makes no exception and allocates nothing: whatever a scheme
//   could reject (orders, tables, allowed route tags) is validated when the
//   scheme is built. A scheme without a choice for this packet draws nothing
//   from the generator. Random is any UniformRandomBitGenerator of 32 or 64
//   bits (core/random.hpp); draws are exact and the same on every platform.
//
//   A hop names the channel (dimension, sign, slice) and the VC. VCs are
//   numbered per scheme: traffic class c uses VCs [c * vcs_per_class(),
//   (c + 1) * vcs_per_class()), so request and response traffic never share
//   one (the SeaStar's VC0/1 and VC2/3, the T3E's doubling); an adaptive
//   scheme's adaptive VCs come after both classes', below vcs_per_channel().
//   next(), candidates() and follow() allocate nothing and have no virtual
//   call; calling them on a state that has arrived is a contract violation.
//
//   is_routing_scheme_v<T> tells whether T has all of this;
//   require_routing_scheme<T>() names what is missing. A routing function
//   (is_routing_function_v, require_routing_function) has only what walking
//   needs: state, topology, vcs_per_class, for_each_start, arrived and next;
//   the deadlock checker and the loads take any routing function. detail::oblivious_route gives a
//   scheme with one hop per step its candidates() and follow() from its next().
//
// Example
//   interlock::torus_topology torus({4, 4});
//   interlock::dimension_order_routing dor(torus);
//   interlock::splitmix64 rng(1);
//   const interlock::node_id src = 0, dst = 10;
//   auto s = dor.start(src, dst, interlock::traffic_class::request, rng);
//   interlock::hop options[interlock::max_route_candidates];
//   interlock::node_id at = src;
//   while (!dor.arrived(at, s)) {
//     interlock::hop h = options[dor.candidates(at, s, options) - 1];  // pick one
//     dor.follow(at, s, h);
//     at = torus.neighbor(at, h.dimension, h.sign);
//   }
//   assert(at == dst);
#ifndef INTERLOCK_ROUTING_ROUTE_HPP
#define INTERLOCK_ROUTING_ROUTE_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "interlock/core/assert.hpp"
#include "interlock/core/random.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {

enum class traffic_class : unsigned { request = 0, response = 1 };
inline constexpr unsigned traffic_classes = 2;

/// One hop: the channel out of the current node, and the VC taken on it.
struct hop {
  unsigned dimension = 0;
  int sign = +1;
  unsigned slice = 0;
  unsigned vc = 0;  // absolute: class * vcs_per_class() + VC within the class
  /// An adaptive hop: the router may take it only into a VC buffer with room
  /// for the whole packet (T3E Section 5; adaptive_hop_allowed).
  bool adaptive = false;

  friend bool operator==(const hop& a, const hop& b) {
    return a.dimension == b.dimension && a.sign == b.sign && a.slice == b.slice && a.vc == b.vc &&
           a.adaptive == b.adaptive;
  }
  friend bool operator!=(const hop& a, const hop& b) { return !(a == b); }
};

/// The most hops candidates() writes: the escape hop and both directions of
/// every dimension.
inline constexpr std::size_t max_route_candidates = 1 + 2 * max_dimensions;

namespace detail {
template <class T, class = void>
struct has_routing_state : std::false_type {};
template <class T>
struct has_routing_state<T, std::void_t<typename T::state>> : std::true_type {};

template <class T, class = void>
struct has_next_hop : std::false_type {};
template <class T>
struct has_next_hop<T, std::void_t<decltype(std::declval<const T&>().next(
                           node_id{}, std::declval<typename T::state&>()))>>
    : std::is_same<decltype(std::declval<const T&>().next(node_id{},
                                                          std::declval<typename T::state&>())),
                   hop> {};

template <class T, class = void>
struct has_arrived : std::false_type {};
template <class T>
struct has_arrived<T, std::void_t<decltype(std::declval<const T&>().arrived(
                          node_id{}, std::declval<const typename T::state&>()))>> : std::true_type {
};

struct start_sink {
  template <class S>
  void operator()(const S&, double) const {}
};
template <class T, class = void>
struct has_for_each_start : std::false_type {};
template <class T>
struct has_for_each_start<T, std::void_t<decltype(std::declval<const T&>().for_each_start(
                                 node_id{}, node_id{}, traffic_class{}, start_sink{}))>>
    : std::true_type {};

template <class T, class = void>
struct has_topology_and_vcs_per_class : std::false_type {};
template <class T>
struct has_topology_and_vcs_per_class<
    T, std::void_t<decltype(std::declval<const T&>().topology()),
                   decltype(std::declval<const T&>().vcs_per_class())>> : std::true_type {};

template <class T, class = void>
struct has_vcs_per_channel : std::false_type {};
template <class T>
struct has_vcs_per_channel<T, std::void_t<decltype(std::declval<const T&>().vcs_per_channel())>>
    : std::true_type {};

template <class T, class = void>
struct has_random_start : std::false_type {};
template <class T>
struct has_random_start<T,
                        std::void_t<decltype(std::declval<const T&>().start(
                            node_id{}, node_id{}, traffic_class{}, std::declval<splitmix64&>()))>>
    : std::is_same<decltype(std::declval<const T&>().start(node_id{}, node_id{}, traffic_class{},
                                                           std::declval<splitmix64&>())),
                   typename T::state> {};

template <class T, class = void>
struct has_candidates : std::false_type {};
template <class T>
struct has_candidates<
    T, std::void_t<decltype(std::declval<const T&>().candidates(
           node_id{}, std::declval<const typename T::state&>(), std::declval<hop*>()))>>
    : std::is_convertible<decltype(std::declval<const T&>().candidates(
                              node_id{}, std::declval<const typename T::state&>(),
                              std::declval<hop*>())),
                          std::size_t> {};

template <class T, class = void>
struct has_follow : std::false_type {};
template <class T>
struct has_follow<T,
                  std::void_t<decltype(std::declval<const T&>().follow(
                      node_id{}, std::declval<typename T::state&>(), std::declval<const hop&>()))>>
    : std::true_type {};

/// candidates() and follow() of a scheme that offers one hop per step, from
/// its next(): the CRTP base of the oblivious schemes.
template <class Derived>
class oblivious_route {
 public:
  /// The one hop the route takes from `at`; returns 1.
  template <class State>
  std::size_t candidates(node_id at, const State& s, hop* out) const {
    State copy = s;
    out[0] = self().next(at, copy);
    return 1;
  }
  /// Advances the state past the hop from `at` (the only candidate).
  template <class State>
  void follow(node_id at, State& s, const hop& taken) const {
    const hop h = self().next(at, s);
    INTERLOCK_ASSERT(h == taken, "follow() of a hop that is not the candidate");
    static_cast<void>(h);
    static_cast<void>(taken);
  }

 private:
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }
};

/// A scheme built on oblivious_route: its heads have one candidate each.
template <class Scheme>
inline constexpr bool is_oblivious_v = std::is_base_of_v<oblivious_route<Scheme>, Scheme>;
}  // namespace detail

/// A routing function: what walking a route needs (state, next, arrived,
/// for_each_start, topology, vcs_per_class). The deadlock checker and the
/// loads take any routing function, so a user can check a scheme of their
/// own that has nothing else.
template <class T>
inline constexpr bool is_routing_function_v = detail::has_routing_state<T>::value&&
    detail::has_next_hop<T>::value&& detail::has_arrived<T>::value&&
        detail::has_for_each_start<T>::value&& detail::has_topology_and_vcs_per_class<T>::value;

/// A routing scheme: a routing function a router can drive (start from a
/// generator, candidates and follow, vcs_per_channel).
template <class T>
inline constexpr bool is_routing_scheme_v =
    is_routing_function_v<T>&& detail::has_vcs_per_channel<T>::value&& detail::has_random_start<
        T>::value&& detail::has_candidates<T>::value&& detail::has_follow<T>::value;

/// Fails to compile, naming the missing member, unless T is a routing function.
template <class T>
constexpr bool require_routing_function() noexcept {
  static_assert(
      detail::has_routing_state<T>::value,
      "interlock routing scheme: T must declare `using state = ...;` (what a packet carries)");
  static_assert(detail::has_next_hop<T>::value,
                "interlock routing scheme: T needs `interlock::hop next(node_id, state&) const`");
  static_assert(detail::has_arrived<T>::value,
                "interlock routing scheme: T needs `bool arrived(node_id, const state&) const`");
  static_assert(
      detail::has_for_each_start<T>::value,
      "interlock routing scheme: T needs `for_each_start(node_id, node_id, traffic_class, f)`");
  static_assert(detail::has_topology_and_vcs_per_class<T>::value,
                "interlock routing scheme: T needs `topology()` and `vcs_per_class()`");
  return true;
}

/// Fails to compile, naming the missing member, unless T is a routing scheme.
template <class T>
constexpr bool require_routing_scheme() noexcept {
  require_routing_function<T>();
  static_assert(detail::has_vcs_per_channel<T>::value,
                "interlock routing scheme: T needs `unsigned vcs_per_channel() const` (every VC "
                "a channel needs: both classes' and any adaptive VCs)");
  static_assert(detail::has_random_start<T>::value,
                "interlock routing scheme: T needs `template <class Random> state "
                "start(node_id, node_id, traffic_class, Random&) const`");
  static_assert(detail::has_candidates<T>::value,
                "interlock routing scheme: T needs `std::size_t candidates(node_id, const "
                "state&, hop*) const`");
  static_assert(detail::has_follow<T>::value,
                "interlock routing scheme: T needs `void follow(node_id, state&, const hop&) "
                "const`");
  return true;
}

/// The most hops walk() follows before giving up: the longest route any
/// scheme here takes (every dimension the long way, plus initial and final
/// hops) is below it.
inline std::size_t hop_limit(const torus_topology& t) {
  std::size_t h = 4;
  for (std::size_t d = 0; d < t.dimensions(); ++d) h += t.radix(d);
  return h;
}

namespace detail {
// What walking needs of a scheme's topology: a torus's neighbor along the
// hop, or a node shape's next(router, hop) (topology/anton2_node.hpp).
inline std::size_t route_hop_limit(const torus_topology& t) { return hop_limit(t); }
template <class Topology>
auto route_hop_limit(const Topology& t) -> decltype(t.hop_limit()) {
  return t.hop_limit();
}
inline node_id hop_target(const torus_topology& t, node_id at, const hop& h) {
  return t.neighbor(at, h.dimension, h.sign);
}
template <class Topology>
auto hop_target(const Topology& t, node_id at, const hop& h) -> decltype(t.next(at, h)) {
  return t.next(at, h);
}
}  // namespace detail

/// How walk_hops ended.
enum class walk_end {
  arrived,      // the route reached its destination
  hop_limit,    // hop_limit(topology) hops and not there
  off_network,  // a hop off a mesh edge
  stopped       // the visitor returned false
};

/// Follows the route from `source` in state `s`, at most hop_limit hops:
/// before each hop, before_hop(from, state) sees the state the hop is
/// computed from; then on_hop(from, hop) returns false to stop the walk
/// there (before the hop is taken), or true to go on. No state is copied.
template <class Scheme, class BeforeHop, class OnHop>
walk_end walk_hops(const Scheme& scheme, node_id source, typename Scheme::state s,
                   BeforeHop&& before_hop, OnHop&& on_hop) {
  static_assert(require_routing_function<Scheme>(), "walk_hops needs a routing function");
  const auto& t = scheme.topology();
  const std::size_t limit = detail::route_hop_limit(t);
  node_id at = source;
  for (std::size_t hops = 0;; ++hops) {
    if (scheme.arrived(at, s)) return walk_end::arrived;
    if (hops == limit) return walk_end::hop_limit;
    before_hop(at, static_cast<const typename Scheme::state&>(s));
    const hop h = scheme.next(at, s);
    if (!on_hop(at, h)) return walk_end::stopped;
    at = detail::hop_target(t, at, h);
    if (at == no_node) return walk_end::off_network;
  }
}

/// Follows the route from `source` in state `s`, calling f(from, hop) for
/// every hop. Returns true when the route arrives within hop_limit hops (a
/// hop off a mesh edge also ends the walk, returning false).
template <class Scheme, class F>
bool walk(const Scheme& scheme, node_id source, typename Scheme::state s, F&& f) {
  static_assert(require_routing_function<Scheme>(), "walk needs a routing function");
  return walk_hops(
             scheme, source, s, [](node_id, const typename Scheme::state&) {},
             [&](node_id from, const hop& h) {
               f(from, h);
               return true;
             }) == walk_end::arrived;
}

}  // namespace interlock

#endif  // INTERLOCK_ROUTING_ROUTE_HPP
