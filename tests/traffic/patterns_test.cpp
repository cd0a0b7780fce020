// Tests of interlock/traffic/patterns.hpp.
#include "support/interlock_test.hpp"

#include <interlock/traffic/patterns.hpp>

#include <map>

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

TEST_CASE("traffic: tornado and reverse tornado (paper 001, Section 4.2)", "[traffic]") {
  torus_topology t({8, 8, 8});
  const auto fwd = flows(interlock::tornado{}, t);
  CHECK(fwd.count({t.node({0, 0, 0}), t.node({3, 3, 3})}) == 1);  // x + k/2 - 1
  CHECK(fwd.count({t.node({6, 1, 7}), t.node({1, 4, 2})}) == 1);
  const auto rev = flows(interlock::reverse_tornado{}, t);
  CHECK(rev.count({t.node({3, 3, 3}), t.node({0, 0, 0})}) == 1);  // x - k/2 + 1
  for (const auto& [pair, rate] : fwd) CHECK(rev.count({pair.second, pair.first}) == 1);
  CHECK(fwd.size() == t.node_count());
}

TEST_CASE("traffic: uniform, neighbour, transpose, complement, permutation, all-to-one",
          "[traffic]") {
  torus_topology t({4, 4});
  for (double r : injected(interlock::uniform_random{}, t)) CHECK(r == Approx(1.0));
  for (double r : injected(interlock::uniform_random{false}, t)) CHECK(r == Approx(1.0));
  CHECK(flows(interlock::uniform_random{false}, t).count({3, 3}) == 0);
  for (double r : injected(interlock::neighbor{1}, t)) CHECK(r == Approx(1.0));
  for (const auto& [pair, rate] : flows(interlock::neighbor{1}, t)) {
    for (unsigned d = 0; d < 2; ++d)
      CHECK(t.minimal_hops(d, t.ordinate(pair.first, d), t.ordinate(pair.second, d)) <= 1);
    CHECK(rate == Approx(1.0 / 9));
  }
  CHECK(flows(interlock::transpose{}, t).count({t.node({1, 2}), t.node({2, 1})}) == 1);
  CHECK(flows(interlock::transpose{}, t).count({t.node({1, 1}), t.node({1, 1})}) == 0);
  CHECK(flows(interlock::bit_complement{}, t).count({t.node({0, 1}), t.node({3, 2})}) == 1);
  const auto lot = flows(interlock::all_to_one{5}, t);
  CHECK(lot.size() == 15);
  CHECK(lot.count({5, 5}) == 0);
  std::vector<node_id> reversed(16);
  for (node_id v = 0; v < 16; ++v) reversed[v] = 15 - v;
  CHECK(flows(interlock::permutation{reversed}, t).count({0, 15}) == 1);
  CHECK_THROWS_AS(flows(interlock::permutation{std::vector<node_id>(16, 0)}, t),
                  interlock::config_error);
  CHECK_THROWS_AS(flows(interlock::transpose{}, torus_topology({4, 8})), interlock::config_error);
  CHECK_THROWS_AS(flows(interlock::all_to_one{16}, t), interlock::config_error);
}
