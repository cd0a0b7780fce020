// SPDX-License-Identifier: BSL-1.0
// interlock/routing/dimension_order.hpp: dimension-order routing with datelines.
//
// Models the Cray XT SeaStar (Abts, "The Cray XT4 and Seastar 3-D Torus
// Interconnect"; Abts & Weisser, SC'07, Section 1.1) and the unicast routes
// of Anton 2 (Towles et al., ISCA'14, Section 2.3): a packet corrects one
// dimension at a time, in a fixed dimension order, minimally in each
// (torus_topology's tie rule at exactly k/2). Anton 2 draws each packet's
// order from the six orders XYZ, XZY, YXZ, YZX, ZXY, ZYX.
//
// VCs: two per traffic class, as the SeaStar's VC0/VC1 (requests) and
// VC2/VC3 (responses). Which one a hop takes is the dateline rule:
//   switch_at_wrap (default, the SeaStar's): a packet enters every
//     dimension on the class's first VC and moves to the second when it
//     takes that dimension's wrap link, between ordinates k-1 and 0 (the
//     dateline), and stays there for the rest of the dimension;
//   booksim2 (BookSim2's dim_order_torus, for comparing with it): the VC is
//     chosen when the packet enters a ring and kept there: in the +
//     direction the second VC when its route in the ring takes the wrap
//     link, in the - direction the second VC when it does not. Both rules
//     are deadlock-free (each VC of a direction carries either routes that
//     avoid the wrap link or minimal routes that all take it); BookSim2's
//     spreads a ring's hops more evenly over the two VCs (on an 8-ring under
//     uniform traffic about 2:1, against about 4:1 for switch_at_wrap).
//     BookSim2 breaks the tie at exactly k/2 at random; interlock by the
//     torus topology's rule.
// A mesh dimension has no wrap link and uses the first VC.
//
// Contract
//   - orders: any non-empty set of permutations of the dimensions (default:
//     the identity, XYZ); each packet uses one, each with equal
//     probability. for_each_start enumerates them; start() draws one from
//     the caller's generator (nothing when there is one order);
//     start_with() takes it by index.
//   - Routes are minimal and follow their order; next() is O(n) in the worst
//     case (skipping finished dimensions), O(1) per hop on average.
//   - config_error for an order that is not a permutation of the dimensions.
//
// Example
//   interlock::torus_topology t({8, 8, 8});
//   interlock::dimension_order_routing dor(t);  // XYZ
//   auto s = dor.start_with(t.node({7, 0, 0}), t.node({1, 2, 0}),
//                           interlock::traffic_class::request);
//   interlock::hop h = dor.next(t.node({7, 0, 0}), s);  // +X over the wrap link: VC1
//   assert(h.dimension == 0 && h.sign == +1 && h.vc == 1);
#ifndef INTERLOCK_ROUTING_DIMENSION_ORDER_HPP
#define INTERLOCK_ROUTING_DIMENSION_ORDER_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {

/// The order in which a packet corrects the dimensions: a list of dimension
/// indices, each once ({0, 1, 2} is XYZ). The routing scheme itself is
/// dimension_order_routing.
using dimension_sequence = std::vector<unsigned>;

/// Every order of n dimensions (n! of them; the six of Anton 2 for n = 3),
/// in lexicographic order.
inline std::vector<dimension_sequence> all_dimension_orders(std::size_t n) {
  dimension_sequence order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::vector<dimension_sequence> orders;
  do orders.push_back(order);
  while (std::next_permutation(order.begin(), order.end()));
  return orders;
}

namespace detail {
/// Throws config_error unless every order is a permutation of 0..n-1.
inline void check_orders(const std::vector<dimension_sequence>& orders, std::size_t n,
                         const char* component) {
  if (orders.empty()) throw config_error(component, "dimension orders", "none", "at least one");
  for (const dimension_sequence& o : orders) {
    dimension_sequence sorted = o;
    std::sort(sorted.begin(), sorted.end());
    dimension_sequence identity(n);
    std::iota(identity.begin(), identity.end(), 0u);
    if (sorted != identity) {
      std::string text;
      for (unsigned d : o) text += (text.empty() ? "" : ",") + std::to_string(d);
      throw config_error(component, "dimension order", "[" + text + "]",
                         "a permutation of the " + std::to_string(n) + " dimensions");
    }
  }
}
/// What a dimension-ordered packet carries: its destination, the order of
/// its dimensions, and where in that order it is.
struct ordered_route {
  node_id destination = 0;
  coordinates target{};  // the destination's ordinates
  std::array<std::uint8_t, max_dimensions> order{};
  std::uint8_t position = 0;  // index into order of the dimension being corrected
  std::uint8_t cls = 0;

  void begin(const torus_topology& t, node_id to, const dimension_sequence& o, traffic_class c) {
    destination = to;
    target = t.coordinates_of(to);
    for (std::size_t i = 0; i < o.size(); ++i) order[i] = static_cast<std::uint8_t>(o[i]);
    position = 0;
    cls = static_cast<std::uint8_t>(c);
  }
};

/// The identity order 0, 1, ..., n-1.
inline dimension_sequence identity_order(std::size_t n) {
  dimension_sequence o(n);
  std::iota(o.begin(), o.end(), 0u);
  return o;
}
}  // namespace detail

/// Which of a class's two VCs a hop around a ring takes (see the header).
enum class dateline_rule : std::uint8_t {
  switch_at_wrap,  ///< the first VC, the second from the wrap link on (the SeaStar's)
  booksim2,        ///< chosen on entering the ring by whether the route wraps (BookSim2's)
};

/// Settings of dimension_order_routing.
struct dimension_order_options {
  /// Two VCs per class, by `rule`. Turning it off leaves one VC per class,
  /// which deadlocks on any ring of five or more nodes (the deadlock checker
  /// shows the cycle).
  bool datelines = true;
  dateline_rule rule = dateline_rule::switch_at_wrap;
};

class dimension_order_routing : public detail::oblivious_route<dimension_order_routing> {
 public:
  struct state : detail::ordered_route {
    std::uint8_t vc = 0;       // within the class (0 before the dateline, 1 after)
    std::uint8_t entered = 0;  // BookSim2's rule: 1 once a hop of the dimension is taken
    // (No padding: equal states are equal bytes, as the deadlock checker needs.)
  };

  explicit dimension_order_routing(const torus_topology& topology,
                                   std::vector<dimension_sequence> orders = {},
                                   dimension_order_options options = {})
      : topology_(topology), orders_(std::move(orders)), options_(options) {
    if (orders_.empty()) orders_ = {detail::identity_order(topology.dimensions())};
    detail::check_orders(orders_, topology.dimensions(), "dimension_order_routing");
  }

  const torus_topology& topology() const noexcept { return topology_; }
  /// Two VCs per class (VC0 before the dateline, VC1 after), one without datelines.
  unsigned vcs_per_class() const noexcept { return options_.datelines ? 2 : 1; }
  unsigned vcs_per_channel() const noexcept { return traffic_classes * vcs_per_class(); }
  const std::vector<dimension_sequence>& orders() const noexcept { return orders_; }

  /// The route from source to destination with an order drawn uniformly
  /// from orders() (nothing is drawn when there is one).
  template <class Random>
  state start(node_id source, node_id destination, traffic_class c, Random& rng) const {
    return start_with(source, destination, c,
                      static_cast<std::size_t>(uniform_below(rng, orders_.size())));
  }
  /// The route using orders()[order_index] (an index out of range is a
  /// contract violation and otherwise taken modulo the number of orders).
  state start_with(node_id, node_id destination, traffic_class c,
                   std::size_t order_index = 0) const {
    INTERLOCK_ASSERT(order_index < orders_.size(), "order index out of range");
    state s;
    s.begin(topology_, destination, orders_[order_index % orders_.size()], c);
    return s;
  }
  template <class F>
  void for_each_start(node_id source, node_id destination, traffic_class c, F&& f) const {
    const double p = 1.0 / static_cast<double>(orders_.size());
    for (std::size_t i = 0; i < orders_.size(); ++i) f(start_with(source, destination, c, i), p);
  }

  bool arrived(node_id at, const state& s) const noexcept { return at == s.destination; }

  hop next(node_id at, state& s) const {
    INTERLOCK_ASSERT(at != s.destination, "next() after arrival");
    const torus_topology& t = topology_;
    const std::size_t n = t.dimensions();
    unsigned d = s.order[s.position];
    std::size_t x = t.ordinate(at, d);
    while (x == s.target[d] && s.position + 1u < n) {
      ++s.position;  // this dimension is done: the next one starts afresh
      s.vc = 0;
      s.entered = 0;
      d = s.order[s.position];
      x = t.ordinate(at, d);
    }
    const int sign = t.minimal_direction(d, x, s.target[d]);
    if (options_.rule == dateline_rule::switch_at_wrap) {
      if (options_.datelines && t.is_wrap_hop_from(d, x, sign)) s.vc = 1;  // the dateline
    } else if (options_.datelines) {
      if (s.entered == 0 && t.wraps(d)) {
        // BookSim2: + routes that wrap and - routes that do not take VC1.
        const bool wraps = sign > 0 ? s.target[d] < x : s.target[d] > x;
        s.vc = (sign > 0) == wraps ? 1 : 0;
      }
      s.entered = 1;
    }
    return hop{d, sign, 0, s.cls * vcs_per_class() + s.vc};
  }

 private:
  torus_topology topology_;
  std::vector<dimension_sequence> orders_;
  dimension_order_options options_;
};

}  // namespace interlock

#endif  // INTERLOCK_ROUTING_DIMENSION_ORDER_HPP
