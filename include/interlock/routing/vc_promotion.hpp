// SPDX-License-Identifier: BSL-1.0
// interlock/routing/vc_promotion.hpp: Anton 2's VC promotion, n+1 VCs for any dimension order.
//
// Models Towles et al., ISCA'14, Sections 2.3 and 2.5. Routes are minimal
// and dimension-ordered, with each packet's order chosen from a set (Anton 2:
// all six orders of X, Y, Z) and its torus slice chosen from the topology's
// slices (Anton 2: two); a packet uses one slice's links for its whole route.
//
//   vc_scheme::promotion      the packet's VC starts at 0 and is incremented
//                             when it crosses a dateline (the wrap link
//                             between ordinates k-1 and 0, in either
//                             direction: "a packet's VC is incremented when
//                             its coordinate changes from k_D - 1 to 0 (or
//                             vice versa)"; the wrap hop is taken on the new
//                             VC) or when it finishes a dimension in which it
//                             did not cross one (the first hop of the next
//                             dimension is taken on the new VC). At most one
//                             increment per dimension: n + 1 VCs per class.
//   vc_scheme::per_dimension  the 2n-VC scheme it improves on: VC 2j while
//                             routing the j-th dimension the packet
//                             traverses, 2j + 1 after that dimension's
//                             dateline.
//
// The deadlock-freedom proof of Section 2.5 needs minimal routes and the +
// and - datelines between the same two nodes; this scheme has both (the
// deadlock checker tests what happens without them).
//
// Contract
//   config_error for an order that is not a permutation of the dimensions;
//   for_each_start enumerates every order and slice (and, with
//   non_minimal_routes, every choice of rings to go the long way round),
//   each with equal probability; start() draws one of them with one draw
//   from the caller's generator (none when there is one); start_with()
//   takes order and slice by index. minus_dateline is taken modulo each
//   ring's radix.
//
// Example
//   interlock::torus_topology t({8, 8, 8}, {}, 2);             // two slices
//   interlock::vc_promotion_routing anton(t, interlock::all_dimension_orders(3));
//   assert(anton.vcs_per_class() == 4);                        // n + 1
#ifndef INTERLOCK_ROUTING_VC_PROMOTION_HPP
#define INTERLOCK_ROUTING_VC_PROMOTION_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/routing/dimension_order.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {

enum class vc_scheme { promotion, per_dimension };

/// Settings of vc_promotion_routing. The two besides the scheme break the
/// assumptions of Section 2.5's proof; they exist so the deadlock checker
/// can show what goes wrong without them.
struct vc_promotion_options {
  vc_scheme scheme = vc_scheme::promotion;
  /// Also give routes that go the long way round any ring (non-minimal).
  bool non_minimal_routes = false;
  /// The - direction's dateline lies between ordinates s - 1 and s (mod k)
  /// instead of k - 1 and 0 (s = 0: both datelines between the same nodes).
  std::size_t minus_dateline = 0;
};

class vc_promotion_routing : public detail::oblivious_route<vc_promotion_routing> {
 public:
  struct state : detail::ordered_route {
    std::uint8_t vc = 0;  // within the class
    std::uint8_t slice = 0;
    std::uint8_t traversed = 0;  // dimensions routed in so far (per_dimension)
    std::int8_t direction = 0;   // sign of the current dimension's hops; 0 before its first
    bool crossed = false;        // has crossed the current dimension's dateline
    std::uint8_t other_way = 0;  // a bit per dimension routed the long way round
  };

  explicit vc_promotion_routing(const torus_topology& topology,
                                std::vector<dimension_sequence> orders = {},
                                vc_scheme scheme = vc_scheme::promotion)
      : vc_promotion_routing(topology, std::move(orders), vc_promotion_options{scheme}) {}

  vc_promotion_routing(const torus_topology& topology, std::vector<dimension_sequence> orders,
                       vc_promotion_options options)
      : topology_(topology),
        orders_(std::move(orders)),
        scheme_(options.scheme),
        options_(options) {
    if (orders_.empty()) orders_ = {detail::identity_order(topology.dimensions())};
    detail::check_orders(orders_, topology.dimensions(), "vc_promotion_routing");
    const auto n = static_cast<unsigned>(topology_.dimensions());
    vcs_ = scheme_ == vc_scheme::promotion ? n + 1 : 2 * n;
  }

  const torus_topology& topology() const noexcept { return topology_; }
  vc_scheme scheme() const noexcept { return scheme_; }
  const vc_promotion_options& options() const noexcept { return options_; }
  unsigned vcs_per_class() const noexcept { return vcs_; }
  unsigned vcs_per_channel() const noexcept { return traffic_classes * vcs_; }
  const std::vector<dimension_sequence>& orders() const noexcept { return orders_; }

  /// The route with order, slice (and, with non_minimal_routes, the rings
  /// it goes the long way round) drawn uniformly: each route for_each_start
  /// gives has the same probability.
  template <class Random>
  state start(node_id source, node_id destination, traffic_class c, Random& rng) const {
    const std::size_t slices = topology_.slices();
    std::size_t choice = static_cast<std::size_t>(uniform_below(rng, route_count()));
    const std::size_t order = choice % orders_.size();
    choice /= orders_.size();
    const auto slice = static_cast<unsigned>(choice % slices);
    state s = start_with(source, destination, c, order, slice);
    s.other_way = static_cast<std::uint8_t>(choice / slices);
    return s;
  }
  /// The minimal route with orders()[order_index] on `slice` (out of range:
  /// a contract violation, otherwise taken modulo).
  state start_with(node_id, node_id destination, traffic_class c, std::size_t order_index = 0,
                   unsigned slice = 0) const {
    INTERLOCK_ASSERT(order_index < orders_.size() && slice < topology_.slices(),
                     "route choice out of range");
    state s;
    s.begin(topology_, destination, orders_[order_index % orders_.size()], c);
    s.slice = static_cast<std::uint8_t>(slice % topology_.slices());
    return s;
  }
  template <class F>
  void for_each_start(node_id source, node_id destination, traffic_class c, F&& f) const {
    const std::size_t ways = long_way_choices();
    const double p = 1.0 / static_cast<double>(route_count());
    for (std::size_t i = 0; i < orders_.size(); ++i)
      for (unsigned slice = 0; slice < topology_.slices(); ++slice)
        for (std::size_t w = 0; w < ways; ++w) {
          state s = start_with(source, destination, c, i, slice);
          s.other_way = static_cast<std::uint8_t>(w);
          f(s, p);
        }
  }

  bool arrived(node_id at, const state& s) const noexcept { return at == s.destination; }

  hop next(node_id at, state& s) const {
    INTERLOCK_ASSERT(at != s.destination, "next() after arrival");
    const torus_topology& t = topology_;
    unsigned d = s.order[s.position];
    std::size_t x = t.ordinate(at, d);
    if (x == s.target[d]) {
      if (s.direction != 0) finish_dimension(s);
      while (x == s.target[d] && s.position + 1u < t.dimensions()) {
        d = s.order[++s.position];
        x = t.ordinate(at, d);
      }
    }
    if (s.direction == 0) {  // the dimension's first hop fixes its direction
      int sign = t.minimal_direction(d, x, s.target[d]);
      if ((static_cast<unsigned>(s.other_way) >> d & 1u) != 0 && t.wraps(d)) sign = -sign;
      s.direction = static_cast<std::int8_t>(sign);
      if (scheme_ == vc_scheme::per_dimension) ++s.traversed;
    }
    const int sign = s.direction;
    if (crosses_dateline(d, x, sign)) {
      s.crossed = true;
      if (scheme_ == vc_scheme::promotion) ++s.vc;  // the wrap hop is taken on the new VC
    }
    const unsigned vc =
        scheme_ == vc_scheme::promotion ? s.vc : 2u * (s.traversed - 1u) + (s.crossed ? 1u : 0u);
    return hop{d, sign, s.slice, s.cls * vcs_ + vc};
  }

 private:
  std::size_t long_way_choices() const noexcept {
    return options_.non_minimal_routes ? (std::size_t{1} << topology_.dimensions()) : 1;
  }
  std::size_t route_count() const noexcept {
    return orders_.size() * topology_.slices() * long_way_choices();
  }
  bool crosses_dateline(unsigned d, std::size_t x, int sign) const noexcept {
    if (sign > 0 || options_.minus_dateline == 0) return topology_.is_wrap_hop_from(d, x, sign);
    return topology_.wraps(d) && x == options_.minus_dateline % topology_.radix(d);
  }
  // The packet turns out of the dimension it has routed in.
  void finish_dimension(state& s) const noexcept {
    if (scheme_ == vc_scheme::promotion && !s.crossed) ++s.vc;
    s.direction = 0;
    s.crossed = false;
  }

  torus_topology topology_;
  std::vector<dimension_sequence> orders_;
  vc_scheme scheme_;
  vc_promotion_options options_;
  unsigned vcs_ = 0;
};

}  // namespace interlock

#endif  // INTERLOCK_ROUTING_VC_PROMOTION_HPP
