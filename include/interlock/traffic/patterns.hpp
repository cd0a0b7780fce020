// SPDX-License-Identifier: BSL-1.0
// interlock/traffic/patterns.hpp: synthetic traffic patterns on a torus_topology.
//
// Contract
//   A traffic pattern (namespace interlock::traffic) is a value with
//     template <class F> void for_each_flow(const torus_topology&, F&& f) const;
//         // f(source, destination, rate) for every flow: the expected packets
//         // per unit time (each source injects 1 in total, except where noted)
//     template <class Random>
//     node_id destination(const torus_topology&, node_id source, Random& rng) const;
//         // one packet's destination, drawn from the caller's generator with
//         // the probabilities of the source's flows (rate / the source's total);
//         // no_node when the pattern gives the source nothing to send
//     void check(const torus_topology&) const;
//         // config_error if the pattern does not fit the topology
//   for_each_flow enumerates flows instead of building an N x N matrix, so a
//   16x16x16 torus costs no memory; it throws what check() throws.
//   destination() is the per-packet path: no allocation, no exception; on a
//   topology check() rejects it is a contract violation and returns no_node.
//   A deterministic pattern draws nothing from the generator.
//
//   uniform_random      every source sends 1/N to every node, itself
//                       included (so [Abts07]'s Eq. 8 holds exactly: every
//                       torus channel carries k/8 when 4 divides k; for other
//                       even k, k/8 on average); include_self = false spreads
//                       it over the others.
//   tornado             (x_d + k_d/2 - 1) in every dimension ([Towles14],
//                       Section 4.2); reverse_tornado: (x_d - k_d/2 + 1).
//   neighbor            a destination at most `hops` away along each
//                       dimension, uniformly over those ordinates (n-hop
//                       neighbor traffic, [Towles14] Section 4.1; the
//                       source itself included).
//   transpose           the coordinates reversed: (x_0, ..., x_{n-1}) ->
//                       (x_{n-1}, ..., x_0); every node whose image is
//                       itself sends nothing.
//   bit_complement      x_d -> k_d - 1 - x_d in every dimension.
//   permutation         a given destination per source.
//   all_to_one          every other node sends 1 to one destination: the
//                       parking lot of [Abts07]'s Figure 4; the destination
//                       sends nothing.
//   hotspot             every source sends `fraction` of its packets to one
//                       hot node and the rest uniformly over all nodes.
//
//   config_error (check, for_each_flow): transpose on dimensions of
//   different radix, a permutation that is not one, a destination that does
//   not exist, a hotspot fraction outside [0, 1].
//
// Example
//   interlock::torus_topology torus({8, 8});
//   interlock::splitmix64 rng(1);
//   interlock::traffic::tornado pattern;
//   pattern.check(torus);
//   const interlock::node_id source = torus.node({0, 0});
//   interlock::node_id d = pattern.destination(torus, source, rng);
//   assert(d == torus.node({3, 3}));  // (k/2 - 1) ahead in every dimension
#ifndef INTERLOCK_TRAFFIC_PATTERNS_HPP
#define INTERLOCK_TRAFFIC_PATTERNS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/random.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace traffic {

struct uniform_random {
  bool include_self = true;

  void check(const torus_topology&) const noexcept {}
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    const node_id n = t.node_count();
    if (!include_self && n == 1) return;
    const double rate = 1.0 / static_cast<double>(include_self ? n : n - 1);
    for (node_id s = 0; s < n; ++s)
      for (node_id d = 0; d < n; ++d)
        if (include_self || d != s) f(s, d, rate);
  }
  template <class Random>
  node_id destination(const torus_topology& t, node_id source, Random& rng) const {
    const node_id n = t.node_count();
    if (include_self) return static_cast<node_id>(uniform_below(rng, n));
    if (n == 1) return no_node;
    const auto d = static_cast<node_id>(uniform_below(rng, n - 1));
    return d >= source ? d + 1 : d;
  }
};

namespace detail {
/// Calls f(source, map(source), 1) for every source that sends (map gives
/// no_node for one that does not).
template <class Map, class F>
void for_each_mapped_flow(const torus_topology& t, Map&& map, F&& f) {
  for (node_id s = 0; s < t.node_count(); ++s) {
    const node_id d = map(s);
    if (d != no_node) f(s, d, 1.0);
  }
}
inline std::uint16_t shifted(std::size_t x, long shift, std::size_t k) {
  const long kk = static_cast<long>(k);
  return static_cast<std::uint16_t>(((static_cast<long>(x) + shift) % kk + kk) % kk);
}
/// A node's image under a per-ordinate map g(d, x).
template <class G>
node_id map_ordinates(const torus_topology& t, node_id s, G&& g) {
  coordinates c = t.coordinates_of(s);
  for (std::size_t d = 0; d < t.dimensions(); ++d) c[d] = g(d, c[d]);
  return t.node(c);
}
inline void check_node(const torus_topology& t, node_id v, const char* component,
                       const char* field) {
  if (v >= t.node_count()) {
    throw config_error(component, field, std::to_string(v),
                       "a node, 0.." + std::to_string(t.node_count() - 1));
  }
}
}  // namespace detail

/// Patterns that map each source to one destination: map(t, s) gives it
/// (no_node when the source sends nothing; a source may be its own image,
/// except under transpose).
template <class Derived>
struct deterministic_pattern {
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    self().check(t);
    detail::for_each_mapped_flow(
        t, [&](node_id s) { return self().map(t, s); }, f);
  }
  template <class Random>
  node_id destination(const torus_topology& t, node_id source, Random&) const {
    INTERLOCK_ASSERT(source < t.node_count(), "source out of range");
    if (source >= t.node_count()) return no_node;
    return self().map(t, source);
  }

 private:
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }
};

struct tornado : deterministic_pattern<tornado> {
  void check(const torus_topology&) const noexcept {}
  node_id map(const torus_topology& t, node_id s) const {
    return detail::map_ordinates(t, s, [&](std::size_t d, std::size_t x) {
      return detail::shifted(x, static_cast<long>(t.radix(d) / 2) - 1, t.radix(d));
    });
  }
};

struct reverse_tornado : deterministic_pattern<reverse_tornado> {
  void check(const torus_topology&) const noexcept {}
  node_id map(const torus_topology& t, node_id s) const {
    return detail::map_ordinates(t, s, [&](std::size_t d, std::size_t x) {
      return detail::shifted(x, 1 - static_cast<long>(t.radix(d) / 2), t.radix(d));
    });
  }
};

struct bit_complement : deterministic_pattern<bit_complement> {
  void check(const torus_topology&) const noexcept {}
  node_id map(const torus_topology& t, node_id s) const {
    return detail::map_ordinates(t, s, [&](std::size_t d, std::size_t x) {
      return static_cast<std::uint16_t>(t.radix(d) - 1 - x);
    });
  }
};

struct transpose : deterministic_pattern<transpose> {
  void check(const torus_topology& t) const {
    const std::size_t n = t.dimensions();
    for (std::size_t d = 0; d < n / 2; ++d)
      if (t.radix(d) != t.radix(n - 1 - d)) {
        throw config_error(
            "transpose",
            "radix of dimensions " + std::to_string(d) + " and " + std::to_string(n - 1 - d),
            std::to_string(t.radix(d)) + " and " + std::to_string(t.radix(n - 1 - d)), "equal");
      }
  }
  node_id map(const torus_topology& t, node_id s) const {
    const std::size_t n = t.dimensions();
    const coordinates c = t.coordinates_of(s);
    coordinates r{};
    for (std::size_t d = 0; d < n; ++d) {
      r[d] = c[n - 1 - d];
      INTERLOCK_ASSERT(r[d] < t.radix(d), "transpose on dimensions of different radix");
      if (r[d] >= t.radix(d)) return no_node;
    }
    const node_id image = t.node(r);
    return image == s ? no_node : image;
  }
};

/// Destinations at most `hops` away along each dimension (the source included).
struct neighbor {
  std::size_t hops = 1;

  void check(const torus_topology&) const noexcept {}
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    const std::size_t n = t.dimensions();
    for (node_id s = 0; s < t.node_count(); ++s) {
      std::size_t combos = 1;
      for (std::size_t d = 0; d < n; ++d) combos *= span_of(t, d, t.ordinate(s, d)).count;
      const double rate = 1.0 / static_cast<double>(combos);
      for (std::size_t i = 0; i < combos; ++i) {
        coordinates c{};
        std::size_t rest = i;
        for (std::size_t d = 0; d < n; ++d) {
          const ordinate_span r = span_of(t, d, t.ordinate(s, d));
          c[d] = r.at(rest % r.count, t.radix(d));
          rest /= r.count;
        }
        f(s, t.node(c), rate);
      }
    }
  }
  template <class Random>
  node_id destination(const torus_topology& t, node_id source, Random& rng) const {
    coordinates c{};
    for (std::size_t d = 0; d < t.dimensions(); ++d) {
      const ordinate_span r = span_of(t, d, t.ordinate(source, d));
      c[d] = r.at(static_cast<std::size_t>(uniform_below(rng, r.count)), t.radix(d));
    }
    return t.node(c);
  }

 private:
  // The ordinates within `hops` of x: `count` of them from `first`, cyclically.
  struct ordinate_span {
    std::size_t first;
    std::size_t count;
    std::uint16_t at(std::size_t i, std::size_t k) const {
      return static_cast<std::uint16_t>((first + i) % k);
    }
  };
  ordinate_span span_of(const torus_topology& t, std::size_t d, std::size_t x) const {
    const std::size_t k = t.radix(d);
    if (t.wraps(d)) {
      if (2 * hops + 1 >= k) return {0, k};
      return {(x + k - hops % k) % k, 2 * hops + 1};
    }
    const std::size_t lo = x > hops ? x - hops : 0;
    const std::size_t hi = x + hops < k - 1 ? x + hops : k - 1;
    return {lo, hi - lo + 1};
  }
};

struct permutation : deterministic_pattern<permutation> {
  std::vector<node_id> destinations;  // destinations[s]

  permutation() = default;
  explicit permutation(std::vector<node_id> to) : destinations(std::move(to)) {}

  void check(const torus_topology& t) const {
    if (destinations.size() != t.node_count()) {
      throw config_error("permutation", "destinations", std::to_string(destinations.size()),
                         "one per node, " + std::to_string(t.node_count()));
    }
    std::vector<bool> seen(t.node_count(), false);
    for (node_id d : destinations) {
      if (d >= t.node_count() || seen[d]) {
        throw config_error("permutation", "destination", std::to_string(d),
                           "each node exactly once");
      }
      seen[d] = true;
    }
  }
  node_id map(const torus_topology& t, node_id s) const {
    INTERLOCK_ASSERT(s < destinations.size() && destinations[s] < t.node_count(),
                     "permutation of another topology");
    if (s >= destinations.size() || destinations[s] >= t.node_count()) return no_node;
    return destinations[s];
  }
};

struct all_to_one : deterministic_pattern<all_to_one> {
  node_id to = 0;

  all_to_one() = default;
  explicit all_to_one(node_id destination) : to(destination) {}

  void check(const torus_topology& t) const {
    detail::check_node(t, to, "all_to_one", "destination");
  }
  node_id map(const torus_topology& t, node_id s) const {
    INTERLOCK_ASSERT(to < t.node_count(), "all_to_one destination out of range");
    return s == to || to >= t.node_count() ? no_node : to;
  }
};

struct hotspot {
  node_id hot = 0;
  double fraction = 0.5;

  void check(const torus_topology& t) const {
    detail::check_node(t, hot, "hotspot", "hot node");
    if (!(fraction >= 0 && fraction <= 1)) {
      throw config_error("hotspot", "fraction", std::to_string(fraction), "0..1");
    }
  }
  template <class F>
  void for_each_flow(const torus_topology& t, F&& f) const {
    check(t);
    const node_id n = t.node_count();
    const double uniform = (1 - fraction) / static_cast<double>(n);
    for (node_id s = 0; s < n; ++s)
      for (node_id d = 0; d < n; ++d) f(s, d, uniform + (d == hot ? fraction : 0.0));
  }
  template <class Random>
  node_id destination(const torus_topology& t, node_id, Random& rng) const {
    INTERLOCK_ASSERT(hot < t.node_count(), "hotspot node out of range");
    if (uniform_unit(rng) < fraction && hot < t.node_count()) return hot;
    return static_cast<node_id>(uniform_below(rng, t.node_count()));
  }
};

}  // namespace traffic
}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_PATTERNS_HPP
