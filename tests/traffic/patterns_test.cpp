// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/traffic/patterns.hpp.
#include "support/interlock_test.hpp"

#include <interlock/traffic/patterns.hpp>

#include <cmath>
#include <map>
#include <utility>

#include "support/routing_checks.hpp"

using interlock::node_id;
using interlock::torus_topology;

namespace {
template <class Pattern>
std::map<std::pair<node_id, node_id>, double> flows(const Pattern& p, const torus_topology& t) {
  std::map<std::pair<node_id, node_id>, double> out;
  p.for_each_flow(t, [&](node_id s, node_id d, double r) { out[{s, d}] += r; });
  return out;
}
template <class Pattern>
std::vector<double> injected(const Pattern& p, const torus_topology& t) {
  std::vector<double> out(t.node_count(), 0.0);
  p.for_each_flow(t, [&](node_id s, node_id, double r) { out[s] += r; });
  return out;
}
}  // namespace

TEST_CASE("traffic: tornado and reverse tornado ([Towles14], Section 4.2)", "[traffic]") {
  torus_topology t({8, 8, 8});
  const auto fwd = flows(interlock::traffic::tornado{}, t);
  CHECK(fwd.count({t.node({0, 0, 0}), t.node({3, 3, 3})}) == 1);  // x + k/2 - 1
  CHECK(fwd.count({t.node({6, 1, 7}), t.node({1, 4, 2})}) == 1);
  const auto rev = flows(interlock::traffic::reverse_tornado{}, t);
  CHECK(rev.count({t.node({3, 3, 3}), t.node({0, 0, 0})}) == 1);  // x - k/2 + 1
  for (const auto& [pair, rate] : fwd) CHECK(rev.count({pair.second, pair.first}) == 1);
  CHECK(fwd.size() == t.node_count());
}

TEST_CASE("traffic: uniform, neighbor, transpose, complement, permutation, all-to-one",
          "[traffic]") {
  torus_topology t({4, 4});
  for (double r : injected(interlock::traffic::uniform_random{}, t)) CHECK(r == Approx(1.0));
  for (double r : injected(interlock::traffic::uniform_random{false}, t)) CHECK(r == Approx(1.0));
  CHECK(flows(interlock::traffic::uniform_random{false}, t).count({3, 3}) == 0);
  for (double r : injected(interlock::traffic::neighbor{1}, t)) CHECK(r == Approx(1.0));
  for (const auto& [pair, rate] : flows(interlock::traffic::neighbor{1}, t)) {
    for (unsigned d = 0; d < 2; ++d)
      CHECK(t.minimal_hops(d, t.ordinate(pair.first, d), t.ordinate(pair.second, d)) <= 1);
    CHECK(rate == Approx(1.0 / 9));
  }
  CHECK(flows(interlock::traffic::transpose{}, t).count({t.node({1, 2}), t.node({2, 1})}) == 1);
  CHECK(flows(interlock::traffic::transpose{}, t).count({t.node({1, 1}), t.node({1, 1})}) == 0);
  CHECK(flows(interlock::traffic::bit_complement{}, t).count({t.node({0, 1}), t.node({3, 2})}) ==
        1);
  const auto lot = flows(interlock::traffic::all_to_one{5}, t);
  CHECK(lot.size() == 15);
  CHECK(lot.count({5, 5}) == 0);
  std::vector<node_id> reversed(16);
  for (node_id v = 0; v < 16; ++v) reversed[v] = 15 - v;
  CHECK(flows(interlock::traffic::permutation{reversed}, t).count({0, 15}) == 1);
  CHECK_THROWS_AS(flows(interlock::traffic::permutation{std::vector<node_id>(16, 0)}, t),
                  interlock::config_error);
  CHECK_THROWS_AS(flows(interlock::traffic::transpose{}, torus_topology({4, 8})),
                  interlock::config_error);
  CHECK_THROWS_AS(flows(interlock::traffic::all_to_one{16}, t), interlock::config_error);
}

namespace {
// destination(t, source, rng) against the source's flows: each destination
// is drawn with probability rate / the source's total, within five standard
// deviations; a source without flows always gets no_node.
template <class Pattern>
void check_destinations(const Pattern& p, const torus_topology& t, node_id source,
                        std::uint64_t seed) {
  std::map<node_id, double> expected;
  double total = 0;
  p.for_each_flow(t, [&](node_id s, node_id d, double r) {
    if (s != source) return;
    expected[d] += r;
    total += r;
  });
  constexpr int draws = 3000;
  std::map<node_id, int> seen;
  interlock::splitmix64 rng(seed);
  for (int i = 0; i < draws; ++i) ++seen[p.destination(t, source, rng)];
  if (total == 0) {
    RC_ASSERT(seen.size() == 1u);
    RC_ASSERT(seen.begin()->first == interlock::no_node);
    return;
  }
  for (const auto& [d, count] : seen) RC_ASSERT(expected.count(d) == 1u);
  for (const auto& [d, rate] : expected) {
    const double q = rate / total;
    const auto it = seen.find(d);
    const double f = it == seen.end() ? 0.0 : static_cast<double>(it->second) / draws;
    RC_ASSERT(std::abs(f - q) <= 5 * std::sqrt(q * (1 - q) / draws) + 1e-12);
  }
}
}  // namespace

TEST_CASE("traffic: per-packet destinations follow the flows", "[traffic][property]") {
  rc::prop("every pattern, random tori and meshes, a random source", [] {
    const torus_topology t = *interlock_test::gen_topology(3, 5);
    const auto source = *rc::gen::inRange<node_id>(0, t.node_count());
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    check_destinations(interlock::traffic::uniform_random{}, t, source, seed);
    check_destinations(interlock::traffic::uniform_random{false}, t, source, seed);
    check_destinations(interlock::traffic::tornado{}, t, source, seed);
    check_destinations(interlock::traffic::reverse_tornado{}, t, source, seed);
    check_destinations(interlock::traffic::bit_complement{}, t, source, seed);
    check_destinations(interlock::traffic::neighbor{*rc::gen::inRange<std::size_t>(0, 4)}, t,
                       source, seed);
    std::vector<node_id> shuffled(t.node_count());
    for (node_id v = 0; v < t.node_count(); ++v) shuffled[v] = v;
    interlock::splitmix64 shuffle(seed ^ 0x5eed);
    for (std::size_t i = shuffled.size(); i > 1; --i)
      std::swap(shuffled[i - 1], shuffled[interlock::uniform_below(shuffle, i)]);
    check_destinations(interlock::traffic::permutation{shuffled}, t, source, seed);
    const auto hot = *rc::gen::inRange<node_id>(0, t.node_count());
    check_destinations(interlock::traffic::all_to_one{hot}, t, source, seed);
    check_destinations(interlock::traffic::hotspot{hot, 0.3}, t, source, seed);
    const torus_topology square({t.radix(0), t.radix(0)}, {t.wraps(0), true});
    check_destinations(interlock::traffic::transpose{}, square, source % square.node_count(), seed);
  });
}

TEST_CASE("traffic: check() names what does not fit", "[traffic]") {
  const torus_topology t({4, 4});
  const interlock::traffic::hotspot too_hot{3, 1.5}, off_the_map{16, 0.5};
  CHECK_THROWS_WITH(too_hot.check(t), "hotspot: fraction = 1.500000; allowed: 0..1");
  CHECK_THROWS_WITH(off_the_map.check(t), "hotspot: hot node = 16; allowed: a node, 0..15");
  CHECK_THROWS_AS(interlock::traffic::transpose{}.check(torus_topology({4, 8})),
                  interlock::config_error);
  interlock::splitmix64 rng(1);
  CHECK_THROWS_AS(interlock::traffic::transpose{}.destination(torus_topology({4, 8}), 20, rng),
                  interlock::contract_violation);
}
