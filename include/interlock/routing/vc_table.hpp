// SPDX-License-Identifier: BSL-1.0
// interlock/routing/vc_table.hpp: Cray T3E VC lookup tables and their VC balance.
//
// Models Scott & Thorson, "The Cray T3E Network" (HOTI'96), Sections 3.2 and 4.
// A packet entering a direction of a ring takes the VC named by its router's
// VC lookup table for that direction, indexed by the destination's ordinate
// in that dimension; T3E tables have 8 entries, so on rings above 8 nodes
// destinations whose ordinates agree in their low 3 bits share an entry.
// Routes that pass the dateline must start on VC0 (they switch to VC1 on
// leaving the dateline node); every other route is free, and a shared entry
// is forced to VC0 when any route using it is constrained.
//
//   ring_vc_assignment  one ring's tables in the + direction: for every
//                       source ordinate s, a bit per entry. (The - direction
//                       is the mirror image; direction_order_routing
//                       reflects it.) All zeros is the time-of-crossing
//                       assignment.
//   measure_balance     Section 4's VC balance: every node sends one packet
//                       to every other node of the ring, or of each aligned
//                       power-of-two subring (a partition: routed as a mesh);
//                       a link's balance is |VC0 routes - VC1 routes| over
//                       the largest number of routes on any link of the
//                       ring; the average and the maximum over the ring's k
//                       links are reported.
//   optimize_vc_assignment  simulated annealing over the free entries for the
//                       hierarchical traffic model (the ring and its
//                       subrings), with or without the 8-entry limit.
//
// The model's conventions, fixed by reproducing Table 1's time-of-crossing
// column exactly: in the + direction the dateline is node 0, and a route
// "crosses" when it passes through it (arrives over the wrap link and goes
// on), so a route ending at node 0 does not; full-ring traffic is minimal,
// ties at k/2 going + from even sources (torus_topology's tie rule);
// subrings are the aligned blocks [mS, (m+1)S) for power-of-two S < k, S >= 4.
//
// Contract
//   Offline code: allocates, throws config_error for a ring size outside
//   2..64, entries outside 1..64, or an assignment that puts a constrained
//   route on VC1 (validate; with vc_routes::every_route also the routes
//   that go the long way round, for tables that serve other-way route tags
//   or final hops). The optimizer is deterministic for a seed.
//
// Example
//   interlock::ring_vc_assignment toc(8);                      // time of crossing
//   auto b = interlock::measure_balance(toc, 8);               // Table 1: .813 / 1
//   auto opt = interlock::optimize_vc_assignment(8, 8, {});    // .031 / .250 and .125 / .250
#ifndef INTERLOCK_ROUTING_VC_TABLE_HPP
#define INTERLOCK_ROUTING_VC_TABLE_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/random.hpp"

namespace interlock {

/// True when the + route from ordinate s to d passes through the dateline node 0.
constexpr bool crosses_dateline(std::size_t s, std::size_t d) noexcept { return s > d && d > 0; }

/// Which + routes a ring's tables must keep safe: those of the hierarchical
/// model (minimal routes and subrings), or every route of one to k hops,
/// including the long way round and a full turn (s == d), for tables that
/// also serve route tags going the other way or routes extended by a final
/// hop in the same direction.
enum class vc_routes { minimal, every_route };

/// Whether a + route of the set from s to d passes through node 0 (a full
/// turn from s back to s does unless s is 0).
constexpr bool constrained_route(std::size_t s, std::size_t d, vc_routes routes) noexcept {
  return crosses_dateline(s, d) || (routes == vc_routes::every_route && s == d && s > 0);
}

class ring_vc_assignment {
 public:
  static constexpr std::size_t t3e_entries = 8;

  /// The time-of-crossing assignment (every route starts on VC0).
  explicit ring_vc_assignment(std::size_t ring_size, std::size_t entries = t3e_entries)
      : k_(ring_size), entries_(entries) {
    detail::require_in_range("ring_vc_assignment", "ring size", ring_size, 2, 64);
    detail::require_in_range("ring_vc_assignment", "table entries", entries, 1, 64);
    bits_.assign(k_, 0);
  }

  std::size_t ring_size() const noexcept { return k_; }
  std::size_t entries() const noexcept { return entries_; }
  /// The table entry a destination ordinate uses (its low bits).
  std::size_t entry_of(std::size_t destination) const noexcept { return destination % entries_; }
  /// The VC of the + route from ordinate s to d as it enters the direction.
  unsigned vc(std::size_t s, std::size_t d) const noexcept {
    return static_cast<unsigned>((bits_[s % k_] >> entry_of(d)) & 1u);
  }
  /// Sets entry `entry` of source s's table to `vc` (0 or 1).
  void set(std::size_t s, std::size_t entry, unsigned vc) {
    detail::require_in_range("ring_vc_assignment", "source", s, 0, k_ - 1);
    detail::require_in_range("ring_vc_assignment", "entry", entry, 0, entries_ - 1);
    const std::uint64_t bit = std::uint64_t{1} << entry;
    bits_[s] = vc != 0 ? (bits_[s] | bit) : (bits_[s] & ~bit);
  }
  /// Source s's table as a bit per entry.
  std::uint64_t row(std::size_t s) const noexcept { return bits_[s % k_]; }
  /// Toggles entry `entry` of source s's table; a source or entry out of
  /// range is a contract violation and changes nothing.
  void flip(std::size_t s, std::size_t entry) {
    INTERLOCK_ASSERT(s < k_ && entry < entries_, "flip of a source or entry out of range");
    if (s >= k_ || entry >= entries_) return;
    bits_[s] ^= std::uint64_t{1} << entry;
  }

  friend bool operator==(const ring_vc_assignment& a, const ring_vc_assignment& b) {
    return a.k_ == b.k_ && a.entries_ == b.entries_ && a.bits_ == b.bits_;
  }

 private:
  std::size_t k_;
  std::size_t entries_;
  std::vector<std::uint64_t> bits_;
};

/// The levels of the hierarchical traffic model of a ring: the ring itself,
/// then the power-of-two subring sizes below it, down to 4.
inline std::vector<std::size_t> balance_levels(std::size_t ring_size) {
  std::vector<std::size_t> levels{ring_size};
  std::size_t s = 4;
  while (s * 2 < ring_size) s *= 2;
  for (; s >= 4 && s < ring_size; s /= 2) levels.push_back(s);
  return levels;
}

/// The + direction routes (source, destination) of one level of the model.
inline std::vector<std::pair<std::size_t, std::size_t>> balance_routes(std::size_t ring_size,
                                                                       std::size_t level) {
  std::vector<std::pair<std::size_t, std::size_t>> routes;
  const std::size_t k = ring_size;
  if (level >= k) {  // the whole ring: minimal routes, ties + from even sources
    for (std::size_t s = 0; s < k; ++s)
      for (std::size_t dist = 1; dist < k; ++dist)
        if (2 * dist < k || (2 * dist == k && s % 2 == 0)) routes.emplace_back(s, (s + dist) % k);
    return routes;
  }
  for (std::size_t base = 0; base + level <= k; base += level)  // aligned partitions: a mesh
    for (std::size_t s = base; s < base + level; ++s)
      for (std::size_t d = s + 1; d < base + level; ++d) routes.emplace_back(s, d);
  return routes;
}

/// Throws config_error when a route that passes the dateline would start
/// on VC1: a route of the hierarchical model, or with vc_routes::every_route
/// any + route of up to a full turn.
inline void validate(const ring_vc_assignment& a, vc_routes routes = vc_routes::minimal) {
  const auto reject = [&](std::size_t s, std::size_t d) {
    throw config_error("ring_vc_assignment",
                       "entry " + std::to_string(a.entry_of(d)) + " of source " + std::to_string(s),
                       "VC1",
                       "VC0: the route " + std::to_string(s) + " -> " + std::to_string(d) +
                           " passes the dateline");
  };
  for (std::size_t level : balance_levels(a.ring_size()))
    for (const auto& [s, d] : balance_routes(a.ring_size(), level))
      if (crosses_dateline(s, d) && a.vc(s, d) != 0) reject(s, d);
  if (routes == vc_routes::every_route)
    for (std::size_t s = 0; s < a.ring_size(); ++s)
      for (std::size_t d = 0; d < a.ring_size(); ++d)
        if (constrained_route(s, d, routes) && a.vc(s, d) != 0) reject(s, d);
}

struct vc_balance {
  double average = 0;
  double maximum = 0;
};

namespace detail {

// Per-link VC0/VC1 route counts of one level, kept up to date as entries flip.
class balance_counter {
 public:
  balance_counter(std::size_t ring_size, std::size_t level)
      : k_(ring_size),
        routes_(balance_routes(ring_size, level)),
        vc0_(ring_size, 0),
        vc1_(ring_size, 0) {}

  const std::vector<std::pair<std::size_t, std::size_t>>& routes() const { return routes_; }

  /// Adds (sign +1) or removes (-1) route r starting on `vc`.
  void apply(std::size_t r, unsigned vc, int sign) {
    const auto [s, d] = routes_[r];
    const std::size_t dist = (d + k_ - s) % k_;
    for (std::size_t h = 0; h < dist; ++h) {
      const std::size_t link = (s + h) % k_;  // the link from `link` to `link + 1`
      if (h > 0 && link == 0) vc = 1;         // leaving the dateline node after passing it
      (vc != 0 ? vc1_ : vc0_)[link] += sign;
    }
  }
  void load(const ring_vc_assignment& a) {
    std::fill(vc0_.begin(), vc0_.end(), 0);
    std::fill(vc1_.begin(), vc1_.end(), 0);
    for (std::size_t r = 0; r < routes_.size(); ++r)
      apply(r, a.vc(routes_[r].first, routes_[r].second), +1);
    busiest_ = 0;
    for (std::size_t l = 0; l < k_; ++l) busiest_ = std::max(busiest_, vc0_[l] + vc1_[l]);
  }
  vc_balance balance() const {
    vc_balance b;
    if (busiest_ == 0) return b;
    for (std::size_t l = 0; l < k_; ++l) {
      const double x =
          static_cast<double>(std::abs(vc0_[l] - vc1_[l])) / static_cast<double>(busiest_);
      b.average += x;
      b.maximum = std::max(b.maximum, x);
    }
    b.average /= static_cast<double>(k_);
    return b;
  }

 private:
  std::size_t k_;
  std::vector<std::pair<std::size_t, std::size_t>> routes_;
  std::vector<long> vc0_, vc1_;
  long busiest_ = 0;
};

}  // namespace detail

/// Section 4's VC balance of one level (the ring size, or a subring size).
inline vc_balance measure_balance(const ring_vc_assignment& a, std::size_t level) {
  detail::balance_counter counter(a.ring_size(), level);
  counter.load(a);
  return counter.balance();
}

struct vc_optimizer_options {
  std::uint64_t seed = 1;
  std::size_t iterations = 0;   // 0: 4000 per free entry
  double maximum_weight = 0.5;  // weight of a level's maximum against its average
  double ring_weight = 2.0;     // weight of the whole ring against each subring level
  /// Optional caps per level (same order as balance_levels): exceeding a
  /// cap costs a thousand times more than the ordinary objective, so the search
  /// first meets every cap, then improves the weighted sum.
  std::vector<vc_balance> caps{};
  /// Where the search starts (a previous result, to search again from it);
  /// empty: the time-of-crossing assignment.
  std::vector<std::uint64_t> start{};
  /// The routes the tables must keep safe (validate): every_route for tables
  /// that serve other-way route tags or final hops.
  vc_routes routes = vc_routes::minimal;
};

/// Simulated annealing over the free entries (those no constrained route
/// uses) for the hierarchical traffic model; returns the best assignment
/// seen. Deterministic for a given seed.
inline ring_vc_assignment optimize_vc_assignment(std::size_t ring_size, std::size_t entries,
                                                 const vc_optimizer_options& options) {
  ring_vc_assignment a(ring_size, std::min(entries, ring_size));
  for (std::size_t src = 0; src < options.start.size() && src < ring_size; ++src)
    for (std::size_t entry = 0; entry < a.entries(); ++entry)
      if ((options.start[src] >> entry & 1u) != 0) a.set(src, entry, 1);
  const std::vector<std::size_t> levels = balance_levels(ring_size);
  if (!options.caps.empty() && options.caps.size() != levels.size()) {
    throw config_error("optimize_vc_assignment", "caps",
                       std::to_string(options.caps.size()) + " levels",
                       "none, or one per level: " + std::to_string(levels.size()));
  }
  std::vector<detail::balance_counter> counters;
  for (std::size_t level : levels) counters.emplace_back(ring_size, level);

  // Which routes (level, index) use each (source, entry), and which entries are forced.
  const std::size_t e = a.entries();
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> users(ring_size * e);
  std::vector<bool> forced(ring_size * e, false);
  for (std::size_t li = 0; li < levels.size(); ++li)
    for (std::size_t r = 0; r < counters[li].routes().size(); ++r) {
      const auto [s, d] = counters[li].routes()[r];
      const std::size_t slot = s * e + a.entry_of(d);
      users[slot].emplace_back(li, r);
      if (crosses_dateline(s, d)) forced[slot] = true;
    }
  for (std::size_t s = 0; options.routes == vc_routes::every_route && s < ring_size; ++s)
    for (std::size_t d = 0; d < ring_size; ++d)
      if (constrained_route(s, d, options.routes)) {
        forced[s * e + a.entry_of(d)] = true;
        a.set(s, a.entry_of(d), 0);
      }
  std::vector<std::size_t> free_slots;
  for (std::size_t slot = 0; slot < users.size(); ++slot)
    if (!users[slot].empty() && !forced[slot]) free_slots.push_back(slot);
  for (auto& c : counters) c.load(a);
  if (free_slots.empty()) return a;

  double cap_weight = 1000;
  auto cost = [&] {
    double c = 0;
    for (std::size_t li = 0; li < levels.size(); ++li) {
      const vc_balance b = counters[li].balance();
      const double weight = li == 0 ? options.ring_weight : 1.0;
      c += weight * (b.average + options.maximum_weight * b.maximum);
      if (!options.caps.empty()) {
        c += cap_weight * (std::max(0.0, b.average - options.caps[li].average) +
                           std::max(0.0, b.maximum - options.caps[li].maximum));
      }
    }
    return c;
  };
  auto flip = [&](std::size_t slot) {
    const std::size_t s = slot / e, entry = slot % e;
    const unsigned old_vc = static_cast<unsigned>((a.row(s) >> entry) & 1u);
    for (const auto& [li, r] : users[slot]) {
      counters[li].apply(r, old_vc, -1);
      counters[li].apply(r, old_vc ^ 1u, +1);
    }
    a.flip(s, entry);
  };

  splitmix64 next(options.seed);
  const std::size_t iterations =
      options.iterations != 0 ? options.iterations : 4000 * free_slots.size();
  double current = cost();
  // The starting temperature is the mean cost change of a random flip, so
  // an uphill move of typical size is first accepted with probability 1/e;
  // it cools geometrically to a thousandth of that.
  double mean_change = 0;
  for (int probe = 0; probe < 64; ++probe) {
    const std::size_t slot = free_slots[next() % free_slots.size()];
    flip(slot);
    mean_change += std::abs(cost() - current) / 64;
    flip(slot);
  }
  const double hot = std::max(mean_change, 1e-9);
  const double cooling = std::pow(1e-3, 1.0 / static_cast<double>(iterations));
  double temperature = hot;
  double best = current;
  ring_vc_assignment best_assignment = a;
  for (std::size_t it = 0; it < iterations; ++it, temperature *= cooling) {
    // The caps' weight ramps up from 1 to 1000: early on the search may
    // cross infeasible ground, at the end it must not.
    const double before = cap_weight;
    cap_weight = std::pow(1000.0, static_cast<double>(it) / static_cast<double>(iterations));
    if (!options.caps.empty() && cap_weight != before) current = cost();
    const std::size_t slot = free_slots[next() % free_slots.size()];
    flip(slot);
    const double candidate = cost();
    const double u = static_cast<double>(next() >> 11) * 0x1.0p-53;
    if (candidate <= current || u < std::exp((current - candidate) / temperature)) {
      current = candidate;
      cap_weight = 1000;  // the best is judged at full weight
      const double judged = cost();
      cap_weight = std::pow(1000.0, static_cast<double>(it) / static_cast<double>(iterations));
      if (judged < best) {
        best = judged;
        best_assignment = a;
      }
    } else {
      flip(slot);
    }
  }
  return best_assignment;
}

}  // namespace interlock

#endif  // INTERLOCK_ROUTING_VC_TABLE_HPP
