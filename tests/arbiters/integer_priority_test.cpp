// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/integer_priority.hpp: the header's example, a
// loop reference for each rotation order over priorities of any range, and
// the request list's add-one-at-a-time rules.
#include "support/interlock_test.hpp"

#include <interlock/arbiters/integer_priority.hpp>

#include <cstdint>
#include <optional>
#include <vector>

using interlock::grant;
using interlock::integer_priority_arbiter;
using interlock::request_list;
using interlock::rr_order;
using namespace interlock_test;

namespace {

using priorities = std::vector<std::optional<std::int64_t>>;  // nullopt: not requesting

/// The highest priority wins; ties by distance from the round-robin state:
/// ascending, the fewest steps up from the pointer (pointer = winner + 1);
/// descending, the fewest steps down from the one below the last winner.
struct reference {
  std::size_t n;
  rr_order order;
  std::size_t next;  // ascending: the pointer; descending: the favoured requester

  grant arbitrate(const priorities& p) const {
    std::size_t best = n;
    const auto distance = [&](std::size_t i) {
      return order == rr_order::ascending ? (i + n - next) % n : (next + n - i) % n;
    };
    for (std::size_t i = 0; i < n; ++i) {
      if (!p[i]) continue;
      if (best == n || *p[i] > *p[best] || (*p[i] == *p[best] && distance(i) < distance(best)))
        best = i;
    }
    return best == n ? interlock::no_grant() : grant(best);
  }
  void commit(grant g) {
    if (!g) return;
    next = order == rr_order::ascending ? (g.index() + 1) % n : (g.index() + n - 1) % n;
  }
};

template <std::size_t N, rr_order Order>
void agrees_with_reference() {
  const std::size_t start = *rc::gen::inRange<std::size_t>(0, N);
  auto arb = integer_priority_arbiter<N, Order>::with_highest_priority(start);
  reference ref{N, Order, start};
  // Few distinct priorities make ties; a wide range makes none.
  const std::int64_t spread = *rc::gen::element<std::int64_t>(1, 3, 1000000000000LL);
  const int idle_permille = *rc::gen::inRange(0, 950);
  const std::size_t steps = *rc::gen::inRange<std::size_t>(1, 40);
  for (std::size_t k = 0; k < steps; ++k) {
    priorities p(N);
    interlock::integer_requests<N> r;
    for (std::size_t i = 0; i < N; ++i) {
      if (*rc::gen::inRange(0, 1000) < idle_permille) continue;
      p[i] = *rc::gen::inRange<std::int64_t>(-spread, spread + 1);
      r.set(i, *p[i]);
    }
    const grant expected = ref.arbitrate(p);
    RC_ASSERT(arb.grant(r) == expected);
    ref.commit(expected);
  }
}

}  // namespace

TEST_CASE("integer_priority_arbiter: the header's example", "[integer_priority]") {
  integer_priority_arbiter<8, rr_order::ascending> arb;
  request_list<8, int> list;
  list.add(2, 100, 7).add(5, 101, 9).add(6, 102, 9);
  const grant g = arb.grant(list.requests());
  CHECK(g == grant(5));  // priority 9; 5 is first going up from 0
  CHECK(list.payload(g) == 101);
  CHECK(arb.grant(list.requests()) == grant(6));  // pointer 6 now
  CHECK(arb.grant(list.requests()) == grant(5));
  // Descending: among the 9s, the most significant first.
  integer_priority_arbiter<8> down;
  CHECK(down.grant(list.requests()) == grant(6));
  CHECK(down.grant(list.requests()) == grant(5));
}

TEST_CASE("integer_priority_arbiter: highest priority, ties round robin, as the loop reference",
          "[integer_priority][property]") {
  rc::prop("ascending, N = 5", [] { agrees_with_reference<5, rr_order::ascending>(); });
  rc::prop("ascending, N = 64", [] { agrees_with_reference<64, rr_order::ascending>(); });
  rc::prop("descending, N = 7", [] { agrees_with_reference<7, rr_order::descending>(); });
  rc::prop("descending, N = 28", [] { agrees_with_reference<28, rr_order::descending>(); });
}

TEST_CASE("request_list: one request per input, the higher priority kept, O(1) clear",
          "[integer_priority]") {
  request_list<4, char> list;
  CHECK(list.empty());
  list.add(1, 'a', 5).add(1, 'b', 3);  // lower: ignored
  CHECK(list.priority(grant(1)) == 5);
  CHECK(list.payload(grant(1)) == 'a');
  list.add(1, 'c', 8);  // higher: replaces
  CHECK(list.payload(grant(1)) == 'c');
  list.add(1, 'd', 8);  // equal: the first stays
  CHECK(list.payload(grant(1)) == 'c');
  CHECK(list.requests().requests == 0b0010);
  list.clear();
  CHECK(list.empty());
  list.add(3, 'e', -2);  // negative priorities are priorities
  integer_priority_arbiter<4, rr_order::ascending> arb;
  CHECK(arb.arbitrate(list.requests()) == grant(3));
  CHECK_THROWS(list.add(4, 'f', 0));  // no such input: a contract violation
}

TEST_CASE("integer_priority_arbiter: the request builder reads the view's priorities",
          "[integer_priority]") {
  interlock::candidate_view view;
  view.requests = 0b1011;
  const std::uint8_t priority[4] = {4, 9, 0, 9};
  view.priority = priority;
  integer_priority_arbiter<4, rr_order::ascending> arb;
  interlock::request_builder<integer_priority_arbiter<4, rr_order::ascending>> build(arb);
  CHECK(arb.grant(build(view)) == grant(1));
  CHECK(arb.grant(build(view)) == grant(3));
}
