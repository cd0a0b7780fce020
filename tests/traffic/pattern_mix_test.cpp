// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/traffic/pattern_mix.hpp: flows scaled by their shares,
// destinations drawn in those shares, bad shares refused.
#include "support/interlock_test.hpp"

#include <interlock/traffic/pattern_mix.hpp>
#include <interlock/traffic/patterns.hpp>

#include <map>
#include <utility>

using interlock::node_id;
using interlock::torus_topology;
using mix =
    interlock::traffic::pattern_mix<interlock::traffic::neighbor, interlock::traffic::hotspot>;

TEST_CASE("pattern_mix: each pattern's flows scaled by its share", "[traffic]") {
  const torus_topology t({6, 6});
  const node_id hot = t.node({2, 3});
  const mix m{{1}, {hot, 1.0}, 0.25};
  std::map<std::pair<node_id, node_id>, double> flow;
  std::vector<double> sent(t.node_count(), 0.0), received(t.node_count(), 0.0);
  m.for_each_flow(t, [&](node_id s, node_id d, double r) {
    flow[{s, d}] += r;
    sent[s] += r;
    received[d] += r;
  });
  for (node_id s = 0; s < t.node_count(); ++s) CHECK(sent[s] == Approx(1.0));
  // Neighbour traffic spreads 1/9 over the 3x3 square around a source; the
  // hot node gets a quarter of every source's packets on top.
  const node_id far = t.node({5, 0});
  CHECK(flow[{far, hot}] == Approx(0.25));
  CHECK(flow[{far, t.node({0, 0})}] == Approx(0.75 / 9));
  CHECK(flow[{hot, hot}] == Approx(0.75 / 9 + 0.25));
  CHECK(received[hot] == Approx(0.75 + 0.25 * 36));
  CHECK(received[far] == Approx(0.75));
}

TEST_CASE("pattern_mix: destinations drawn in the shares", "[traffic]") {
  const torus_topology t({8, 8});
  const node_id hot = t.node({7, 7});
  const node_id source = t.node({2, 2});  // the hot node is not one of its neighbours
  interlock::splitmix64 rng(3);
  for (const double share : {0.0, 0.1, 0.5, 1.0}) {
    INFO("share " << share);
    const mix m{{1}, {hot, 1.0}, share};
    int to_hot = 0;
    const int draws = 40000;
    for (int i = 0; i < draws; ++i) {
      const node_id d = m.destination(t, source, rng);
      if (d == hot) {
        ++to_hot;
        continue;
      }
      // Otherwise a neighbour: at most one hop along each dimension.
      for (std::size_t k = 0; k < 2; ++k) {
        const std::size_t a = t.ordinate(source, k), b = t.ordinate(d, k);
        CHECK((a == b || a + 1 == b || b + 1 == a));
      }
    }
    CHECK(static_cast<double>(to_hot) / draws == Approx(share).margin(0.01));
  }
}

TEST_CASE("pattern_mix: a share outside [0, 1] is refused by name", "[traffic]") {
  const torus_topology t({4, 4});
  for (const double share : {-0.1, 1.5}) {
    const mix m{{1}, {0, 1.0}, share};
    CHECK_THROWS_WITH(m.check(t), Catch::Contains("share"));
  }
  const mix bad_hot{{1}, {99, 1.0}, 0.5};
  CHECK_THROWS_AS(bad_hot.check(t), interlock::config_error);
}
