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
//   for_each_start enumerates every order and slice, each with equal
//   probability; start_random draws both from a caller's generator.
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

class vc_promotion_routing {
 public:
  struct state : detail::ordered_route {
    std::uint8_t vc = 0;  // within the class
    std::uint8_t slice = 0;
    std::uint8_t traversed = 0;  // dimensions routed in so far (per_dimension)
    bool moving = false;         // has hopped in the current dimension
    bool crossed = false;        // has crossed the current dimension's dateline
  };

  explicit vc_promotion_routing(const torus_topology& topology,
                                std::vector<dimension_order> orders = {},
                                vc_scheme scheme = vc_scheme::promotion)
      : topology_(topology), orders_(std::move(orders)), scheme_(scheme) {
    if (orders_.empty()) orders_ = {detail::identity_order(topology.dimensions())};
    detail::check_orders(orders_, topology.dimensions(), "vc_promotion_routing");
    const auto n = static_cast<unsigned>(topology_.dimensions());
    vcs_ = scheme_ == vc_scheme::promotion ? n + 1 : 2 * n;
  }

  const torus_topology& topology() const noexcept { return topology_; }
  vc_scheme scheme() const noexcept { return scheme_; }
  unsigned vcs_per_class() const noexcept { return vcs_; }
  const std::vector<dimension_order>& orders() const noexcept { return orders_; }

  state start(node_id, node_id destination, traffic_class c, std::size_t order_index = 0,
              unsigned slice = 0) const {
    INTERLOCK_ASSERT(order_index < orders_.size() && slice < topology_.slices(),
                     "route choice out of range");
    state s;
    s.begin(topology_, destination, orders_[order_index % orders_.size()], c);
    s.slice = static_cast<std::uint8_t>(slice % topology_.slices());
    return s;
  }
  template <class Random>
  state start_random(node_id source, node_id destination, traffic_class c, Random&& random) const {
    const std::size_t order = static_cast<std::size_t>(random()) % orders_.size();
    const auto slice =
        static_cast<unsigned>(static_cast<std::size_t>(random()) % topology_.slices());
    return start(source, destination, c, order, slice);
  }
  template <class F>
  void for_each_start(node_id source, node_id destination, traffic_class c, F&& f) const {
    const double p = 1.0 / static_cast<double>(orders_.size() * topology_.slices());
    for (std::size_t i = 0; i < orders_.size(); ++i)
      for (unsigned slice = 0; slice < topology_.slices(); ++slice)
        f(start(source, destination, c, i, slice), p);
  }

  bool arrived(node_id at, const state& s) const noexcept { return at == s.destination; }

  hop next(node_id at, state& s) const {
    INTERLOCK_ASSERT(at != s.destination, "next() after arrival");
    const torus_topology& t = topology_;
    unsigned d = s.order[s.position];
    std::size_t x = t.ordinate(at, d);
    if (x == s.target[d]) {
      if (s.moving) finish_dimension(s);
      while (x == s.target[d] && s.position + 1u < t.dimensions()) {
        d = s.order[++s.position];
        x = t.ordinate(at, d);
      }
    }
    const int sign = t.minimal_direction(d, x, s.target[d]);
    if (t.is_wrap_hop_from(d, x, sign)) {
      s.crossed = true;
      if (scheme_ == vc_scheme::promotion) ++s.vc;  // the wrap hop is taken on the new VC
    }
    if (!s.moving && scheme_ == vc_scheme::per_dimension) ++s.traversed;
    s.moving = true;
    const unsigned vc =
        scheme_ == vc_scheme::promotion ? s.vc : 2u * (s.traversed - 1u) + (s.crossed ? 1u : 0u);
    return hop{d, sign, s.slice, s.cls * vcs_ + vc};
  }

 private:
  // The packet turns out of the dimension it has routed in.
  void finish_dimension(state& s) const noexcept {
    if (scheme_ == vc_scheme::promotion && !s.crossed) ++s.vc;
    s.moving = false;
    s.crossed = false;
  }

  torus_topology topology_;
  std::vector<dimension_order> orders_;
  vc_scheme scheme_;
  unsigned vcs_ = 0;
};

}  // namespace interlock

#endif  // INTERLOCK_ROUTING_VC_PROMOTION_HPP
