// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/core/request_set.hpp against std::vector<bool>.
#include "support/interlock_test.hpp"

#include <interlock/core/request_set.hpp>

#include <vector>

using interlock::dynamic_request_set;
using interlock::request_set;
using interlock::request_view;

namespace {

// Checks every query of `set` against the model.
template <class Set>
void require_matches(const Set& set, const std::vector<bool>& model) {
  const std::size_t n = model.size();
  RC_ASSERT(set.size() == n);
  std::size_t count = 0, first = n, last = n;
  for (std::size_t i = 0; i < n; ++i) {
    RC_ASSERT(set.test(i) == model[i]);
    if (model[i]) {
      ++count;
      if (first == n) first = i;
      last = i;
    }
  }
  RC_ASSERT(!set.test(n));
  RC_ASSERT(set.count() == count);
  RC_ASSERT(set.any() == (count > 0));
  RC_ASSERT(set.find_first() == first);
  RC_ASSERT(set.find_last() == last);
  std::vector<std::size_t> visited;
  set.for_each([&](std::size_t i) { visited.push_back(i); });
  RC_ASSERT(visited.size() == count);
  for (std::size_t k = 0; k < visited.size(); ++k) {
    RC_ASSERT(model[visited[k]]);
    RC_ASSERT(set.find_next(k == 0 ? 0 : visited[k - 1] + 1) == visited[k]);
  }
  // Bits at or above size() stay zero in every word.
  if (n % 64 != 0) RC_ASSERT((set.word(set.word_count() - 1) >> (n % 64)) == 0);
}

template <class Set>
void apply_random_edits(Set& set, std::vector<bool>& model) {
  const auto edits = *rc::gen::container<std::vector<std::pair<std::size_t, bool>>>(
      rc::gen::pair(rc::gen::inRange<std::size_t>(0, model.size()), rc::gen::arbitrary<bool>()));
  for (const auto& [i, value] : edits) {
    set.set(i, value);
    model[i] = value;
  }
}

template <std::size_t N>
void check_fixed_size() {
  request_set<N> set;
  std::vector<bool> model(N, false);
  apply_random_edits(set, model);
  require_matches(set, model);
  require_matches(set.view(), model);
  request_set<N> copy = set;
  RC_ASSERT(copy == set);
  copy.set_word(copy.words_count - 1, ~std::uint64_t{0});
  RC_ASSERT(copy.count() <= N);
}

}  // namespace

TEST_CASE("request_set: queries agree with a vector<bool> model", "[request_set][property]") {
  rc::prop("dynamic_request_set of 1..300 bits", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 301);
    dynamic_request_set set(n);
    std::vector<bool> model(n, false);
    apply_random_edits(set, model);
    require_matches(set, model);
    const request_view view = set;
    require_matches(view, model);
    RC_ASSERT(view.same_bits(set));
  });
  rc::prop("request_set<N> for N = 1, 63, 64, 65, 130, 1024", [] {
    check_fixed_size<1>();
    check_fixed_size<63>();
    check_fixed_size<64>();
    check_fixed_size<65>();
    check_fixed_size<130>();
    check_fixed_size<1024>();
  });
  rc::prop("|= and &= are the bitwise union and intersection", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 200);
    dynamic_request_set a(n), b(n);
    std::vector<bool> ma(n, false), mb(n, false);
    apply_random_edits(a, ma);
    apply_random_edits(b, mb);
    dynamic_request_set u = a, x = a;
    u |= b;
    x &= b;
    for (std::size_t i = 0; i < n; ++i) {
      RC_ASSERT(u.test(i) == (ma[i] || mb[i]));
      RC_ASSERT(x.test(i) == (ma[i] && mb[i]));
    }
  });
}

TEST_CASE("request_set: 64-bit masks and edge cases", "[request_set]") {
  CHECK(interlock::requested(0b100, 2));
  CHECK_FALSE(interlock::requested(0b100, 1));
  CHECK_FALSE(interlock::requested(~std::uint64_t{0}, 64));
  CHECK(interlock::request_count(0b1011) == 3);

  dynamic_request_set set(70);
  set.set_word(1, ~std::uint64_t{0});  // only bits 64..69 exist
  CHECK(set.count() == 6);
  CHECK(set.find_first() == 64);
  CHECK(set.find_next(70) == 70);
  set.set_word(5, 1);  // no such word: ignored
  CHECK(set.count() == 6);
  set.clear();
  CHECK(set.none());

  const request_view empty;
  CHECK(empty.size() == 0);
  CHECK(empty.none());
  CHECK(empty.find_first() == 0);
}

TEST_CASE("request_set: an index out of range is a contract violation", "[request_set][contract]") {
  dynamic_request_set set(10);
  CHECK_THROWS_AS(set.set(10), interlock::contract_violation);
  request_set<3> fixed;
  CHECK_THROWS_AS(fixed.set(3), interlock::contract_violation);
  CHECK(set.none());
  CHECK(fixed.none());
}
