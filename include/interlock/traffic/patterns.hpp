// interlock/traffic/patterns.hpp: synthetic traffic patterns on a torus_topology.
//
// Contract
//   A traffic pattern is a value with
//     template <class F> void for_each_flow(const torus_topology&, F&& f) const;
//   calling f(source, destination, rate) for every flow, where rate is the
//   expected packets per unit time (each source injects 1 in total, except
//   where noted). Patterns enumerate flows instead of building an N x N
//   matrix, so a 16x16x16 torus costs no memory.
//
//   uniform_random      every source sends 1/N to every node, itself
//                       included (so paper 000's Eq. 8 holds exactly:
//                       every torus channel carries k/8 for even k);
//                       include_self = false spreads it over the others.
//   tornado             (x_d + k_d/2 - 1) in every dimension (paper 001,
//                       Section 4.2); reverse_tornado: (x_d - k_d/2 + 1).
//   neighbor            a destination at most `hops` away along each
//                       dimension, uniformly over those ordinates (n-hop
//                       neighbour traffic, paper 001 Section 4.1; the
//                       source itself included).
//   transpose           the coordinates reversed: (x_0, ..., x_{n-1}) ->
//                       (x_{n-1}, ..., x_0); every node whose image is
//                       itself sends nothing.
//   bit_complement      x_d -> k_d - 1 - x_d in every dimension.
//   permutation         a given destination per source.
//   all_to_one          every other node sends 1 to one destination: the
//                       parking lot of paper 000's Figure 4.
//
//   config_error: transpose on dimensions of different radix, a
//   permutation that is not one, a destination that does not exist.
//
// Example
//   double total = 0;
//   interlock::tornado{}.for_each_flow(torus, [&](auto s, auto d, double r) { total += r; });
#ifndef INTERLOCK_TRAFFIC_PATTERNS_HPP
#define INTERLOCK_TRAFFIC_PATTERNS_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "interlock/core/config_error.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {

struct uniform_random {
  bool include_self = true;
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    const node_id n = t.node_count();
    const double rate = 1.0 / static_cast<double>(include_self ? n : n - 1);
    for (node_id s = 0; s < n; ++s)
      for (node_id d = 0; d < n; ++d)
        if (include_self || d != s) f(s, d, rate);
  }
};

namespace detail {
template <class Map, class F>
void for_each_mapped_flow(const torus_topology& t, Map&& map, F&& f) {
  for (node_id s = 0; s < t.node_count(); ++s) {
    coordinates c = t.coordinates_of(s);
    map(c);
    f(s, t.node(c), 1.0);
  }
}
inline std::uint16_t shifted(std::size_t x, long shift, std::size_t k) {
  const long kk = static_cast<long>(k);
  return static_cast<std::uint16_t>(((static_cast<long>(x) + shift) % kk + kk) % kk);
}
}  // namespace detail

struct tornado {
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    detail::for_each_mapped_flow(
        t,
        [&](coordinates& c) {
          for (std::size_t d = 0; d < t.dimensions(); ++d)
            c[d] = detail::shifted(c[d], static_cast<long>(t.radix(d) / 2) - 1, t.radix(d));
        },
        f);
  }
};

struct reverse_tornado {
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    detail::for_each_mapped_flow(
        t,
        [&](coordinates& c) {
          for (std::size_t d = 0; d < t.dimensions(); ++d)
            c[d] = detail::shifted(c[d], 1 - static_cast<long>(t.radix(d) / 2), t.radix(d));
        },
        f);
  }
};

struct bit_complement {
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    detail::for_each_mapped_flow(
        t,
        [&](coordinates& c) {
          for (std::size_t d = 0; d < t.dimensions(); ++d)
            c[d] = static_cast<std::uint16_t>(t.radix(d) - 1 - c[d]);
        },
        f);
  }
};

struct transpose {
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    const std::size_t n = t.dimensions();
    for (std::size_t d = 0; d < n / 2; ++d)
      if (t.radix(d) != t.radix(n - 1 - d)) {
        throw config_error(
            "transpose",
            "radix of dimensions " + std::to_string(d) + " and " + std::to_string(n - 1 - d),
            std::to_string(t.radix(d)) + " and " + std::to_string(t.radix(n - 1 - d)), "equal");
      }
    for (node_id s = 0; s < t.node_count(); ++s) {
      const coordinates c = t.coordinates_of(s);
      coordinates r{};
      for (std::size_t d = 0; d < n; ++d) r[d] = c[n - 1 - d];
      const node_id dst = t.node(r);
      if (dst != s) f(s, dst, 1.0);
    }
  }
};

/// Destinations at most `hops` away along each dimension (distinct ordinates).
struct neighbor {
  std::size_t hops = 1;
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    const std::size_t n = t.dimensions();
    for (node_id s = 0; s < t.node_count(); ++s) {
      std::vector<std::vector<std::uint16_t>> choices(n);
      std::size_t combos = 1;
      for (std::size_t d = 0; d < n; ++d) {
        const std::size_t k = t.radix(d), x = t.ordinate(s, d);
        for (std::size_t y = 0; y < k; ++y)
          if (t.minimal_hops(d, x, y) <= hops) choices[d].push_back(static_cast<std::uint16_t>(y));
        combos *= choices[d].size();
      }
      const double rate = 1.0 / static_cast<double>(combos);
      for (std::size_t i = 0; i < combos; ++i) {
        coordinates c{};
        std::size_t rest = i;
        for (std::size_t d = 0; d < n; ++d) {
          c[d] = choices[d][rest % choices[d].size()];
          rest /= choices[d].size();
        }
        f(s, t.node(c), rate);
      }
    }
  }
};

struct permutation {
  std::vector<node_id> destination;  // destination[s]
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    if (destination.size() != t.node_count()) {
      throw config_error("permutation", "destinations", std::to_string(destination.size()),
                         "one per node, " + std::to_string(t.node_count()));
    }
    std::vector<bool> seen(t.node_count(), false);
    for (node_id d : destination) {
      if (d >= t.node_count() || seen[d]) {
        throw config_error("permutation", "destination", std::to_string(d),
                           "each node exactly once");
      }
      seen[d] = true;
    }
    for (node_id s = 0; s < t.node_count(); ++s) f(s, destination[s], 1.0);
  }
};

struct all_to_one {
  node_id destination = 0;
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    if (destination >= t.node_count()) {
      throw config_error("all_to_one", "destination", std::to_string(destination),
                         "a node, 0.." + std::to_string(t.node_count() - 1));
    }
    for (node_id s = 0; s < t.node_count(); ++s)
      if (s != destination) f(s, destination, 1.0);
  }
};

}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_PATTERNS_HPP
