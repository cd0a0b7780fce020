// interlock/routing/route.hpp: what every routing scheme offers, and walking a route.
//
// Contract
//   A routing scheme is a small value over a torus_topology that computes a
//   packet's next hop from the node it is at and the routing state it
//   carries (like the header bits and VC a router sees):
//
//     using state = ...;                                     // carried by the packet
//     const torus_topology& topology() const;
//     unsigned vcs_per_class() const;                        // VCs of one traffic class
//     template <class F> void for_each_start(node_id source, node_id destination,
//                                            traffic_class c, F&& f) const;
//         // every route the scheme may give the packet: f(const state&, double probability)
//     bool arrived(node_id at, const state&) const;
//     hop next(node_id at, state&) const;                    // the hop from `at`; advances state
//
//   A hop names the channel (dimension, sign, slice) and the VC. VCs are
//   numbered per scheme: traffic class c uses VCs [c * vcs_per_class(),
//   (c + 1) * vcs_per_class()), so request and response traffic never share
//   one (the SeaStar's VC0/1 and VC2/3, the T3E's doubling).
//   next() allocates nothing and has no virtual call; calling it on a state
//   that has arrived is a contract violation.
//
//   is_routing_scheme_v<T> tells whether T has all of this;
//   require_routing_scheme<T>() names what is missing. walk() follows one
//   route hop by hop, giving up after a hop limit (so a broken scheme cannot
//   loop forever).
//
// Example
//   interlock::dimension_order_routing dor(torus);
//   dor.for_each_start(src, dst, interlock::traffic_class::request, [&](auto s, double) {
//     interlock::walk(dor, src, s, [](interlock::node_id from, interlock::hop h) { ... });
//   });
#ifndef INTERLOCK_ROUTING_ROUTE_HPP
#define INTERLOCK_ROUTING_ROUTE_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

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

  friend bool operator==(const hop& a, const hop& b) {
    return a.dimension == b.dimension && a.sign == b.sign && a.slice == b.slice && a.vc == b.vc;
  }
};

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
struct has_topology_and_vcs : std::false_type {};
template <class T>
struct has_topology_and_vcs<T, std::void_t<decltype(std::declval<const T&>().topology()),
                                           decltype(std::declval<const T&>().vcs_per_class())>>
    : std::true_type {};
}  // namespace detail

template <class T>
inline constexpr bool is_routing_scheme_v =
    detail::has_routing_state<T>::value&& detail::has_next_hop<T>::value&& detail::has_arrived<
        T>::value&& detail::has_for_each_start<T>::value&& detail::has_topology_and_vcs<T>::value;

/// Fails to compile, naming the missing member, unless T is a routing scheme.
template <class T>
constexpr bool require_routing_scheme() noexcept {
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
  static_assert(detail::has_topology_and_vcs<T>::value,
                "interlock routing scheme: T needs `topology()` and `vcs_per_class()`");
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

/// Follows the route from `source` in state `s`, calling f(from, hop) for
/// every hop. Returns true when the route arrives within hop_limit hops (a
/// hop off a mesh edge also ends the walk, returning false).
template <class Scheme, class F>
bool walk(const Scheme& scheme, node_id source, typename Scheme::state s, F&& f) {
  static_assert(require_routing_scheme<Scheme>(), "walk needs a routing scheme");
  const torus_topology& t = scheme.topology();
  node_id at = source;
  for (std::size_t hops = 0; hops <= hop_limit(t); ++hops) {
    if (scheme.arrived(at, s)) return true;
    const hop h = scheme.next(at, s);
    f(at, h);
    at = t.neighbor(at, h.dimension, h.sign);
    if (at == no_node) return false;
  }
  return false;
}

}  // namespace interlock

#endif  // INTERLOCK_ROUTING_ROUTE_HPP
