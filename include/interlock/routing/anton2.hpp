// SPDX-License-Identifier: BSL-1.0
// interlock/routing/anton2.hpp: routing in Anton 2's unified network, the on-chip mesh and the
// torus as one, with VC promotion across the whole path.
//
// Models Towles et al., ISCA'14, Sections 2.3-2.5 on the node of
// topology/anton2_node.hpp. A packet goes from its source core's router to
// its destination core's router:
//   - torus routing (Section 2.3): minimal, dimension order drawn per packet
//     from orders() (Anton 2: all six), one torus slice for the whole route
//     drawn from both; a ring's tie at k/2 goes + (torus_topology's
//     minimal_direction);
//   - on-chip routing (Section 2.4): a local route (from the source core,
//     after a turn between dimensions, and to the destination core) crosses
//     the mesh in direction order V-, U+, U-, V+ to the router of the next
//     channel; a through route (a packet going on along the dimension it
//     arrived on) goes straight from the arriving channel's router to the
//     departing channel's: the same router for Y and Z, over the skip
//     channel for X;
//   - every hop between a mesh router and a channel passes the channel's
//     adapter: router -> adapter -> torus link -> adapter -> router;
//   - deadlock avoidance (Section 2.5): the M-group is the mesh channels,
//     the T-group the skip channels, the router-adapter links and the torus
//     links. The packet's VC starts at 0 and is incremented when it crosses
//     a dateline (the torus link between ordinates k-1 and 0, either way; the
//     link is taken on the new VC) or when it finishes a dimension in which
//     it did not cross one (the mesh hops after the turn are on the new VC):
//     n + 1 = 4 VCs per class, request and response classes apart, 8 per
//     channel.
//   options.promotion = false puts every hop of a class on one VC (no
//   datelines): the torus rings then close cycles, which the deadlock
//   checker (verify/unified_deadlock.hpp) finds.
//
// Contract
//   A routing scheme (route.hpp) whose nodes are the unified network's
//   routers: start(source, destination, ...) take routers (cores' routers
//   in practice; any router is accepted), and topology() is the
//   anton2_topology. start() draws order and slice with one draw;
//   for_each_start gives every order and slice with equal probability.
//   Hops name ports by direction (anton2_topology::port_of). config_error
//   for an order that is not a permutation of X, Y, Z.
//
// Example
//   interlock::torus_topology torus({4, 4, 4}, {}, 2);
//   interlock::anton2_topology node(torus);
//   interlock::anton2_routing anton(node);
//   interlock::splitmix64 rng(1);
//   auto s = anton.start(node.router(0, 5), node.router(9, 0),
//                        interlock::traffic_class::request, rng);
//   assert(!anton.arrived(node.router(0, 5), s));
#ifndef INTERLOCK_ROUTING_ANTON2_HPP
#define INTERLOCK_ROUTING_ANTON2_HPP

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/routing/dimension_order.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/anton2_node.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {

struct anton2_routing_options {
  /// Section 2.5's VC promotion; false: one VC per class (deadlocks).
  bool promotion = true;
};

class anton2_routing : public detail::oblivious_route<anton2_routing> {
 public:
  struct state : detail::ordered_route {  // destination: the node; target its ordinates
    node_id to = 0;                       // the destination router
    std::uint8_t vc = 0;                  // within the class
    std::uint8_t slice = 0;
    std::int8_t direction = 0;  // sign of the current dimension's hops; 0 before it starts
    std::uint8_t crossed = 0;   // has crossed the current dimension's dateline
    std::uint8_t riding = 0;    // has taken a torus link of the current dimension
    std::uint8_t leg = 0;       // 0 at a mesh router, 1 at the outbound adapter, 2 inbound
  };

  explicit anton2_routing(const anton2_topology& topology,
                          std::vector<dimension_sequence> orders = all_dimension_orders(3),
                          anton2_routing_options options = {})
      : topology_(topology), orders_(std::move(orders)), options_(options) {
    if (orders_.empty()) orders_ = {detail::identity_order(3)};
    detail::check_orders(orders_, 3, "anton2_routing");
  }

  const anton2_topology& topology() const noexcept { return topology_; }
  const std::vector<dimension_sequence>& orders() const noexcept { return orders_; }
  const anton2_routing_options& options() const noexcept { return options_; }
  unsigned vcs_per_class() const noexcept { return options_.promotion ? 4 : 1; }
  unsigned vcs_per_channel() const noexcept { return traffic_classes * vcs_per_class(); }

  template <class Random>
  state start(node_id source, node_id destination, traffic_class c, Random& rng) const {
    const std::size_t choice =
        static_cast<std::size_t>(uniform_below(rng, orders_.size() * std::size_t{2}));
    return start_with(source, destination, c, choice % orders_.size(),
                      static_cast<unsigned>(choice / orders_.size()));
  }
  /// The route with orders()[order_index] on `slice`.
  state start_with(node_id, node_id destination, traffic_class c, std::size_t order_index = 0,
                   unsigned slice = 0) const {
    INTERLOCK_ASSERT(order_index < orders_.size() && slice < 2, "route choice out of range");
    state s;
    s.begin(topology_.torus(), anton2_topology::node_of(destination),
            orders_[order_index % orders_.size()], c);
    s.to = destination;
    s.slice = static_cast<std::uint8_t>(slice % 2);
    return s;
  }
  template <class F>
  void for_each_start(node_id source, node_id destination, traffic_class c, F&& f) const {
    const double p = 1.0 / static_cast<double>(orders_.size() * 2);
    for (std::size_t i = 0; i < orders_.size(); ++i)
      for (unsigned slice = 0; slice < 2; ++slice)
        f(start_with(source, destination, c, i, slice), p);
  }

  bool arrived(node_id at, const state& s) const noexcept { return at == s.to; }

  hop next(node_id at, state& s) const {
    INTERLOCK_ASSERT(at != s.to, "next() after arrival");
    const torus_topology& t = topology_.torus();
    const node_id n = anton2_topology::node_of(at);
    const std::size_t k = anton2_topology::kind(at);
    if (anton2_topology::is_adapter(k)) {
      if (s.leg == 1) {  // outbound: onto the torus link
        const unsigned d = anton2_topology::channel_dimension(k);
        const int sign = anton2_topology::channel_sign(k);
        if (options_.promotion && t.is_wrap_hop_from(d, t.ordinate(n, d), sign)) {
          s.crossed = 1;
          ++s.vc;  // the dateline link is taken on the new VC
        }
        s.leg = 2;
        s.riding = 1;
        return hop{d, sign, s.slice, vc(s)};
      }
      s.leg = 0;  // inbound: to the router
      return hop{anton2_topology::dim_router, +1, 0, vc(s)};
    }
    if (s.riding != 0) {
      const unsigned d = s.order[s.position];
      if (t.ordinate(n, d) == s.target[d]) {  // the dimension is done: turn
        if (options_.promotion && s.crossed == 0) ++s.vc;
        s.direction = 0;
        s.crossed = 0;
        s.riding = 0;
      }
    }
    if (s.direction == 0) {
      while (s.position < 3 && t.ordinate(n, s.order[s.position]) == s.target[s.order[s.position]])
        ++s.position;
      if (s.position == 3) return mesh_hop(k, anton2_topology::kind(s.to), s);
      const unsigned d = s.order[s.position];
      s.direction = static_cast<std::int8_t>(t.minimal_direction(d, t.ordinate(n, d), s.target[d]));
    }
    const unsigned d = s.order[s.position];
    const std::size_t goal = topology_.channel_router(d, s.direction, s.slice);
    if (k == goal) {  // into the channel's adapter
      s.leg = 1;
      return hop{d, s.direction, s.slice, vc(s)};
    }
    if (s.riding != 0) {  // an X through route: the skip channel
      INTERLOCK_ASSERT(topology_.skip_peer(k) == goal, "a through route without a skip channel");
      return hop{anton2_topology::dim_skip, +1, 0, vc(s)};
    }
    return mesh_hop(k, goal, s);
  }

 private:
  unsigned vc(const state& s) const noexcept {
    return options_.promotion ? s.cls * 4u + s.vc : s.cls;
  }
  hop mesh_hop(std::size_t from, std::size_t to, const state& s) const {
    switch (anton2_topology::local_route(from, to)) {
      case mesh_direction::u_plus:
        return hop{anton2_topology::dim_u, +1, 0, vc(s)};
      case mesh_direction::u_minus:
        return hop{anton2_topology::dim_u, -1, 0, vc(s)};
      case mesh_direction::v_plus:
        return hop{anton2_topology::dim_v, +1, 0, vc(s)};
      case mesh_direction::v_minus:
        break;
    }
    return hop{anton2_topology::dim_v, -1, 0, vc(s)};
  }

  anton2_topology topology_;
  std::vector<dimension_sequence> orders_;
  anton2_routing_options options_;
};

}  // namespace interlock

#endif  // INTERLOCK_ROUTING_ANTON2_HPP
