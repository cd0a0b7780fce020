// SPDX-License-Identifier: BSL-1.0
// interlock/routing/direction_order.hpp: Cray T3E direction-order routing with VC lookup tables.
//
// Models Scott & Thorson, "The Cray T3E Network" (HOTI'96), Sections 2-4.
// A packet traverses the 2n directions in a fixed order (T3E: +X, +Y, +Z,
// -X, -Y, -Z; Anton 2's on-chip mesh: V-, U+, U-, V+), taking in each
// dimension the direction its route tag names: minimal by default, or
// deliberately the other way round a ring. Two extra hops:
//   - an initial hop in one of the first n directions of the order (T3E:
//     +X, +Y or +Z) before the route proper, which must not land on a
//     dateline node;
//   - a final hop in the last direction of the order (T3E: -Z) after it: the
//     route proper ends at the destination's neighbor on the far side.
//
// VCs: two per traffic class (VC0, VC1), doubled for request and response.
// On entering a direction a packet takes the VC its router's lookup table
// gives for the destination's ordinate in that dimension (routing/vc_table:
// 8 entries, the low bits of the ordinate). The dateline of a ring is a
// node, 0 for +, k-1 for -, beside the wrap link: a packet that passes
// through it on VC0 leaves it on VC1 ("switched by the hardware to VC1
// leaving the dateline node"); one that ends there, or only starts there,
// does not cross. The initial hop uses VC0. The final hop is a hop like
// any other in the last direction: straight on from a hop proper in that
// direction it keeps the VC, switched to VC1 leaving a dateline node the
// packet passed through on VC0; turning into the direction it takes the
// direction's table VC. (Giving it VC0 always, which the paper does not
// ask for, lets a packet leave a dateline node it passed on VC0, and the
// deadlock checker finds the cycle.)
//
// Contract
//   - route_tag: per dimension, minimal or the other way; initial: a
//     direction index in the order (or none); final_hop: whether to end with
//     the final hop. allowed_routes says which of these for_each_start
//     enumerates (default: minimal tags only, no extra hops).
//   - Tables: one ring_vc_assignment per dimension for the + direction; the
//     - direction uses its mirror image (ordinate x seen as k-1-x), so both
//     directions balance alike. A packet entering a direction indexes them
//     with the ordinate where its straight run in that direction ends: the
//     destination's (as the T3E text says), except that the run of the
//     route proper in the final hop's dimension but the other direction
//     ends at the destination's neighbor. Validated: sizes must match the
//     radices and no minimal route that passes a dateline may start on VC1;
//     when route tags may go the other way (every dimension) or a final hop
//     is allowed (its dimension), no route at all that passes a dateline may
//     (vc_routes::every_route).
//   - config_error for an order that is not every direction once.
//   - start(source, destination, c, rng) draws one of the route tags that
//     for_each_start enumerates for this pair (the allowed ones that work
//     from source to destination), each with equal probability; it never
//     throws. start_with(source, destination, c, tag) takes a given tag;
//     check_tag throws config_error for a tag that does not work (an initial
//     hop onto a dateline node or off a mesh edge, a final hop whose
//     far-side neighbor does not exist), and start_with given such a tag is
//     a contract violation that falls back to the minimal tag without
//     initial or final hop.
//
// Example
//   interlock::torus_topology t({8, 8, 8});
//   interlock::direction_order_routing t3e(t);  // time-of-crossing tables
//   const interlock::node_id a = t.node({0, 0, 0}), b = t.node({3, 5, 0});
//   auto s = t3e.start_with(a, b, interlock::traffic_class::request);  // minimal tag
//   assert(t3e.next(a, s).dimension == 0);  // +X first
#ifndef INTERLOCK_ROUTING_DIRECTION_ORDER_HPP
#define INTERLOCK_ROUTING_DIRECTION_ORDER_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/routing/vc_table.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {

struct direction {
  unsigned dimension;
  int sign;
  friend bool operator==(direction a, direction b) {
    return a.dimension == b.dimension && a.sign == b.sign;
  }
};

/// The T3E order for n dimensions: +0, +1, ..., +(n-1), -0, ..., -(n-1).
inline std::vector<direction> t3e_direction_order(std::size_t n) {
  std::vector<direction> order;
  for (unsigned d = 0; d < n; ++d) order.push_back({d, +1});
  for (unsigned d = 0; d < n; ++d) order.push_back({d, -1});
  return order;
}

enum class tag_choice : std::uint8_t { minimal, other_way };

/// A packet's route choices.
struct route_tag {
  std::array<tag_choice, max_dimensions> way{};  // per dimension
  int initial = -1;  // index in the direction order of the initial hop, or -1
  bool final_hop = false;
};

/// Which routes for_each_start enumerates.
struct allowed_routes {
  bool other_way = false;  // tags that go the long way round rings
  bool initial_hops = false;
  bool final_hop = false;
  /// Unsafe: also let an initial hop land on a dateline node, against
  /// Section 3.1's rule. Exists so the deadlock checker can show the cycle.
  bool initial_onto_dateline = false;
};

class direction_order_routing : public detail::oblivious_route<direction_order_routing> {
 public:
  struct state {
    node_id destination = 0;
    node_id target = 0;  // where the route proper ends (destination, or its far-side neighbor)
    coordinates target_ordinates{};
    std::array<std::int8_t, max_dimensions> sign{};  // per dimension: +1, -1, 0 (no movement)
    std::int8_t initial = -1;                        // pending initial hop: index in the order
    bool final_hop = false;                          // a final hop is pending
    std::uint8_t position = 0;                       // index in the order of the current direction
    std::int8_t current = -1;  // index of the direction of the last hop proper, -1 before any
    bool passed_wrap = false;  // the last hop was a wrap hop in the current direction
    std::uint8_t vc = 0;       // within the class
    std::uint8_t cls = 0;
    std::uint8_t unused = 0;  // no padding: equal states are equal bytes (the deadlock checker)
  };

  /// `tables[d]`: dimension d's + direction VC tables (empty: time of crossing).
  explicit direction_order_routing(const torus_topology& topology,
                                   std::vector<direction> order = {},
                                   std::vector<ring_vc_assignment> tables = {},
                                   allowed_routes allowed = {})
      : topology_(topology), order_(std::move(order)), allowed_(allowed) {
    const std::size_t n = topology_.dimensions();
    if (order_.empty()) order_ = t3e_direction_order(n);
    check_order();
    for (std::size_t d = 0; d < n; ++d) {
      if (tables.size() <= d)
        tables.emplace_back(
            std::max<std::size_t>(2, std::min<std::size_t>(topology_.radix(d), 64)));
      if (tables[d].ring_size() != topology_.radix(d) && topology_.radix(d) <= 64) {
        throw config_error("direction_order_routing", "VC table of dimension " + std::to_string(d),
                           "ring size " + std::to_string(tables[d].ring_size()),
                           "the radix, " + std::to_string(topology_.radix(d)));
      }
      // Tags going the other way, and a final hop straight on in the last
      // direction, give routes beyond the hierarchical model's.
      const bool every = allowed_.other_way || (allowed_.final_hop && d == order_.back().dimension);
      if (topology_.wraps(d))
        validate(tables[d], every ? vc_routes::every_route : vc_routes::minimal);
    }
    tables_ = std::move(tables);
    final_ = order_.back();
  }

  const torus_topology& topology() const noexcept { return topology_; }
  unsigned vcs_per_class() const noexcept { return 2; }
  unsigned vcs_per_channel() const noexcept { return traffic_classes * 2; }
  const std::vector<direction>& order() const noexcept { return order_; }
  const ring_vc_assignment& table(std::size_t dimension) const { return tables_.at(dimension); }

  /// The route with a tag drawn uniformly from those for_each_start gives
  /// (nothing is drawn when only the minimal tag is allowed).
  template <class Random>
  state start(node_id source, node_id destination, traffic_class c, Random& rng) const {
    if (!allowed_.other_way && !allowed_.initial_hops && !allowed_.final_hop)
      return make_state(source, destination, c, route_tag{});
    std::size_t count = 0;
    for_each_usable_tag(source, destination, [&](const route_tag&) { ++count; });
    std::size_t pick = static_cast<std::size_t>(uniform_below(rng, count));
    route_tag chosen;
    for_each_usable_tag(source, destination, [&](const route_tag& tag) {
      if (pick-- == 0) chosen = tag;
    });
    return make_state(source, destination, c, chosen);
  }

  /// The route with the given tag. A tag that does not work from source to
  /// destination (check_tag) is a contract violation; the route then takes
  /// the minimal tag without initial or final hop.
  state start_with(node_id source, node_id destination, traffic_class c,
                   const route_tag& tag = {}) const {
    const bool ok = usable(source, destination, tag);
    INTERLOCK_ASSERT(ok, "a route tag that does not work from source to destination");
    return make_state(source, destination, c, ok ? tag : route_tag{});
  }

  /// Throws config_error unless `tag` works from source to destination: an
  /// initial hop among the first n directions that stays in the network and
  /// does not land on a dateline node, a final hop into a destination with a
  /// neighbor on the far side of the final direction.
  void check_tag(node_id source, node_id destination, const route_tag& tag) const {
    const torus_topology& t = topology_;
    if (tag.final_hop && t.neighbor(destination, final_.dimension, -final_.sign) == no_node) {
      throw config_error("direction_order_routing", "final hop",
                         "into node " + std::to_string(destination),
                         "a destination with a neighbor on the far side of the final direction");
    }
    if (tag.initial >= 0) {
      detail::require_in_range("direction_order_routing", "initial hop direction",
                               static_cast<std::size_t>(tag.initial), 0, t.dimensions() - 1);
      const direction dir = order_[static_cast<std::size_t>(tag.initial)];
      if (t.neighbor(source, dir.dimension, dir.sign) == no_node ||
          (lands_on_dateline(source, dir) && !allowed_.initial_onto_dateline)) {
        throw config_error("direction_order_routing", "initial hop",
                           "from node " + std::to_string(source) + " in direction " + name(dir),
                           "a hop that stays in the network and does not land on a dateline node");
      }
    }
  }

 private:
  // The state of a tag that works (usable()); no check, no exception.
  state make_state(node_id source, node_id destination, traffic_class c,
                   const route_tag& tag) const {
    const torus_topology& t = topology_;
    state s;
    s.destination = destination;
    s.target = destination;
    s.cls = static_cast<std::uint8_t>(c);
    if (tag.final_hop) {  // end at the neighbor the final hop comes from
      s.target = t.neighbor(destination, final_.dimension, -final_.sign);
      s.final_hop = true;
    }
    s.target_ordinates = t.coordinates_of(s.target);
    node_id from = source;
    if (tag.initial >= 0) {
      const direction dir = order_[static_cast<std::size_t>(tag.initial)];
      from = t.neighbor(source, dir.dimension, dir.sign);
      s.initial = static_cast<std::int8_t>(tag.initial);
    }
    for (unsigned d = 0; d < t.dimensions(); ++d) {
      const std::size_t a = t.ordinate(from, d), b = t.ordinate(s.target, d);
      const int minimal = t.minimal_direction(d, a, b);
      const bool other = tag.way[d] == tag_choice::other_way && minimal != 0 && t.wraps(d);
      s.sign[d] = static_cast<std::int8_t>(other ? -minimal : minimal);
    }
    return s;
  }

 public:
  template <class F>
  void for_each_start(node_id source, node_id destination, traffic_class c, F&& f) const {
    std::size_t count = 0;  // first count the usable tags, then give each its share
    for_each_usable_tag(source, destination, [&](const route_tag&) { ++count; });
    const double p = 1.0 / static_cast<double>(count);
    for_each_usable_tag(source, destination, [&](const route_tag& tag) {
      f(make_state(source, destination, c, tag), p);
    });
  }

  bool arrived(node_id at, const state& s) const noexcept {
    return at == s.destination && s.initial < 0 && !s.final_hop;
  }

  hop next(node_id at, state& s) const {
    const torus_topology& t = topology_;
    if (s.initial >= 0) {  // the initial hop, on VC0
      const direction dir = order_[static_cast<std::size_t>(s.initial)];
      s.initial = -1;
      return hop{dir.dimension, dir.sign, 0, s.cls * 2u};
    }
    for (std::size_t p = s.position; p < order_.size(); ++p) {
      const direction dir = order_[p];
      if (s.sign[dir.dimension] != dir.sign) continue;
      const std::size_t x = t.ordinate(at, dir.dimension), y = s.target_ordinates[dir.dimension];
      if (x == y) continue;
      if (static_cast<int>(p) != s.current) {     // entering a direction: the lookup table,
        s.current = static_cast<std::int8_t>(p);  // at the ordinate where the run ends
        s.position = static_cast<std::uint8_t>(p);
        const bool final_run = s.final_hop && dir == final_;
        s.vc = static_cast<std::uint8_t>(
            table_vc(dir, x, final_run ? t.ordinate(s.destination, dir.dimension) : y));
      } else if (s.passed_wrap && s.vc == 0) {
        s.vc = 1;  // leaving the dateline node after passing through it
      }
      s.passed_wrap = t.is_wrap_hop_from(dir.dimension, x, dir.sign);
      return hop{dir.dimension, dir.sign, 0, s.cls * 2u + s.vc};
    }
    INTERLOCK_ASSERT(s.final_hop, "next() after arrival");
    s.final_hop = false;
    if (static_cast<std::size_t>(s.current) + 1 == order_.size()) {
      // Straight on in the last direction: the hardware's dateline rule holds.
      if (s.passed_wrap && s.vc == 0) s.vc = 1;
    } else {  // entering the last direction: its lookup table, as for any direction
      s.vc = static_cast<std::uint8_t>(table_vc(final_, t.ordinate(at, final_.dimension),
                                                t.ordinate(s.destination, final_.dimension)));
    }
    return hop{final_.dimension, final_.sign, 0, s.cls * 2u + s.vc};
  }

  /// The VC a packet takes on entering `dir` at ordinate a toward ordinate b.
  unsigned table_vc(direction dir, std::size_t a, std::size_t b) const {
    const std::size_t k = topology_.radix(dir.dimension);
    const ring_vc_assignment& table = tables_[dir.dimension];
    if (table.ring_size() != k) return 0;
    return dir.sign > 0 ? table.vc(a, b) : table.vc(k - 1 - a, k - 1 - b);
  }

 private:
  void check_order() const {
    const std::size_t n = topology_.dimensions();
    bool ok = order_.size() == 2 * n;
    for (std::size_t i = 0; ok && i < order_.size(); ++i) {
      ok = order_[i].dimension < n && (order_[i].sign == 1 || order_[i].sign == -1);
      for (std::size_t j = 0; ok && j < i; ++j) ok = !(order_[i] == order_[j]);
    }
    if (!ok) {
      std::string text;
      for (const direction& d : order_) text += (text.empty() ? "" : ",") + name(d);
      throw config_error("direction_order_routing", "direction order", "[" + text + "]",
                         "each of the " + std::to_string(2 * n) + " directions exactly once");
    }
  }
  // A hop in dir from `from` that lands on the dateline node of that direction.
  bool lands_on_dateline(node_id from, direction dir) const {
    return topology_.is_wrap_hop(from, dir.dimension, dir.sign);
  }
  // Calls f(tag) for every tag allowed_ enumerates that works from source
  // to destination.
  template <class F>
  void for_each_usable_tag(node_id source, node_id destination, F&& f) const {
    const std::size_t n = topology_.dimensions();
    const std::size_t ways = allowed_.other_way ? (std::size_t{1} << n) : 1;
    for (std::size_t w = 0; w < ways; ++w) {
      route_tag tag;
      for (std::size_t d = 0; d < n; ++d)
        tag.way[d] = (w >> d & 1u) != 0 ? tag_choice::other_way : tag_choice::minimal;
      for (int initial = -1; initial < (allowed_.initial_hops ? static_cast<int>(n) : 0);
           ++initial) {
        for (int fin = 0; fin < (allowed_.final_hop ? 2 : 1); ++fin) {
          tag.initial = initial;
          tag.final_hop = fin != 0;
          if (usable(source, destination, tag)) f(static_cast<const route_tag&>(tag));
        }
      }
    }
  }

 public:
  /// True when `tag` works from source to destination (check_tag would not throw).
  bool usable(node_id source, node_id destination, const route_tag& tag) const {
    const torus_topology& t = topology_;
    if (tag.final_hop && t.neighbor(destination, final_.dimension, -final_.sign) == no_node)
      return false;
    if (tag.initial >= static_cast<int>(t.dimensions())) return false;
    if (tag.initial >= 0) {
      const direction dir = order_[static_cast<std::size_t>(tag.initial)];
      if (t.neighbor(source, dir.dimension, dir.sign) == no_node) return false;
      if (lands_on_dateline(source, dir) && !allowed_.initial_onto_dateline) return false;
    }
    return true;
  }

 private:
  static std::string name(direction d) {
    return std::string(d.sign > 0 ? "+" : "-") + std::to_string(d.dimension);
  }

  torus_topology topology_;
  std::vector<direction> order_;
  std::vector<ring_vc_assignment> tables_;
  allowed_routes allowed_;
  direction final_{0, -1};
};

}  // namespace interlock

#endif  // INTERLOCK_ROUTING_DIRECTION_ORDER_HPP
