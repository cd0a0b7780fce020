// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/inverse_weighted_family.hpp and inverse_weighted_form.hpp: the
// inverse-weighted arbiter taken apart into ordering, quantization and history. Two corners
// against today's two arbiters, decision for decision and accumulator for accumulator; each
// option's defining property; traces worked by hand; the counters; names and bad input.
#include <interlock/arbiters/inverse_weight_tables.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weighted_exact.hpp>
#include <interlock/arbiters/inverse_weighted_family.hpp>
#include <interlock/arbiters/inverse_weighted_form.hpp>
#include <interlock/core/random.hpp>
#include <interlock/core/state_io.hpp>
#include "support/interlock_test.hpp"

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace il = interlock;
template <std::size_t K, std::size_t N, unsigned M>
using family = il::inverse_weighted_family<K, N, M>;
using interlock_test::sized;

// Anton 2's 12-bit weights; 8 under the sanitizers, where choosing beta
// over 2^12 breakpoints for each drawn load matrix takes most of the run.
constexpr unsigned wide_m = sized(12u, 8u);

il::inverse_weighted_form form(const char* text) { return il::parse_inverse_weighted_form(text); }

// Random loads for K inputs and N patterns, each 0.1..4.
il::load_matrix random_loads(std::size_t k, std::size_t n) {
  il::load_matrix l(k, std::vector<double>(n));
  for (auto& row : l)
    for (double& g : row) g = *rc::gen::inRange(10, 400) / 100.0;
  return l;
}

// A step of a random stream: a request mask (K bits), labels, whether the
// grant is committed.
struct stream_step {
  std::uint64_t requests;
  std::vector<std::uint8_t> labels;
  bool commit;
};
std::vector<stream_step> random_stream(std::size_t k, std::size_t n, std::size_t steps) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto density = *rc::gen::inRange(1, 100);
  il::splitmix64 g(seed);
  std::vector<stream_step> s(steps);
  for (auto& x : s) {
    x.requests = 0;
    for (std::size_t i = 0; i < k; ++i)
      if (g.next() % 100 < static_cast<std::uint64_t>(density)) x.requests |= std::uint64_t{1} << i;
    for (std::size_t i = 0; i < k; ++i) x.labels.push_back(static_cast<std::uint8_t>(g.next() % n));
    x.commit = g.next() % 8 != 0;
  }
  return s;
}

template <std::size_t K, std::size_t N, unsigned M>
std::shared_ptr<const il::inverse_weighted_family_table<K, N, M>> table_for(
    const char* text, const il::load_matrix& loads, unsigned headroom = 0) {
  il::inverse_weighted_family_tables<K, N, M> t(form(text), headroom);
  return t.from_loads(K, [&](std::size_t i, std::size_t n) { return loads[i][n]; });
}

// One input, its grant and its commit, through both arbiters.
template <class A, class B>
void step_both(A& a, B& b, const stream_step& x) {
  const il::pattern_requests r{x.requests,
                               il::span<const std::uint8_t>(x.labels.data(), x.labels.size())};
  const il::grant ga = a.arbitrate(r), gb = b.arbitrate(r);
  RC_ASSERT(ga == gb);
  if (x.commit) {
    a.commit(ga, r);
    b.commit(gb, r);
  }
}

template <std::size_t K, std::size_t N, unsigned M>
void hardware_corner_equals_hardware(unsigned headroom) {
  const il::load_matrix loads = random_loads(K, N);
  il::inverse_weight_tables<K, N, M> hw_tables(headroom);
  il::inverse_weighted_arbiter<K, N, M> hw(
      hw_tables.from_loads(K, [&](std::size_t i, std::size_t n) { return loads[i][n]; }));
  family<K, N, M> f(table_for<K, N, M>("levels.mbit.window", loads, headroom));
  for (const stream_step& x : random_stream(K, N, 600)) {
    step_both(hw, f, x);
    for (std::size_t i = 0; i < K; ++i)
      RC_ASSERT(static_cast<double>(hw.accumulator(i)) == f.accumulator(i) - f.base());
    RC_ASSERT(hw.priority() == f.priority());
  }
}

template <std::size_t K, std::size_t N>
void exact_corner_equals_exact() {
  const il::load_matrix loads = random_loads(K, N);
  il::exact_weight_tables<K, N> ex_tables;
  il::inverse_weighted_exact<K, N> ex(
      ex_tables.from_loads(K, [&](std::size_t i, std::size_t n) { return loads[i][n]; }));
  family<K, N, wide_m> f(table_for<K, N, wide_m>("full.real.unbounded", loads));
  for (const stream_step& x : random_stream(K, N, 600)) {
    step_both(ex, f, x);
    for (std::size_t i = 0; i < K; ++i) RC_ASSERT(ex.accumulator(i) == f.accumulator(i));
  }
}

// Grants and commits a stream through a family arbiter, checking `after`
// after every committed grant.
template <class F, class Check>
void run_stream(F& f, const std::vector<stream_step>& s, Check&& after) {
  for (const stream_step& x : s) {
    const il::pattern_requests r{x.requests,
                                 il::span<const std::uint8_t>(x.labels.data(), x.labels.size())};
    const il::grant g = f.arbitrate(r);
    RC_ASSERT(static_cast<bool>(g) == (x.requests != 0));
    if (g) RC_ASSERT(((x.requests >> g.index()) & 1u) != 0);
    const F before = f;
    f.commit(g, r);
    after(before, f, r, g);
  }
}

il::grant step(family<2, 1, 2>& a, std::uint64_t requests) {
  static const std::uint8_t labels[2] = {0, 0};
  return a.grant(il::pattern_requests{requests, labels});
}

}  // namespace

TEST_CASE("inverse_weighted_form: names and their parse", "[inverse_weighted][family]") {
  for (const char* o : {"levels", "full"})
    for (const char* q : {"mbit", "real"})
      for (const char* h : {"window", "unbounded", "lag1", "lag2", "lag64"}) {
        const std::string text = std::string(o) + "." + q + "." + h;
        CHECK(form(text.c_str()).name() == text);
      }
  CHECK(form("levels.mbit.window") == il::inverse_weighted_form::hardware());
  CHECK(form("full.real.unbounded") == il::inverse_weighted_form::exact());
  CHECK(form("full.real.lag3").lag == 3);
  for (const char* bad : {"", "levels", "levels.mbit", "levels.mbit.window.x", "level.mbit.window",
                          "levels.bits.window", "levels.mbit.windows", "full.real.lag0",
                          "full.real.lag65", "full.real.lag", "full.real.lag02", "full.real.lagx"})
    CHECK_THROWS_AS(form(bad), il::config_error);
  CHECK_THROWS_WITH(form("full.real.lag65"), Catch::Contains("lag") && Catch::Contains("1..64"));
  CHECK_THROWS_WITH(form("full.fuzzy.window"), Catch::Contains("quantization"));
}

TEST_CASE("inverse_weighted_family: levels.mbit.window is the hardware model, bit for bit",
          "[inverse_weighted][family]") {
  rc::prop("K 8, N 2, M 12", [] { hardware_corner_equals_hardware<8, 2, wide_m>(0); });
  rc::prop("K 5, N 1, M 4", [] { hardware_corner_equals_hardware<5, 1, 4>(0); });
  rc::prop("K 3, N 3, M 10, 2 bits of headroom",
           [] { hardware_corner_equals_hardware<3, 3, 10>(2); });
  rc::prop("K 64, N 1, M 8", [] { hardware_corner_equals_hardware<64, 1, 8>(0); });
}

TEST_CASE("inverse_weighted_family: full.real.unbounded is exact Eq. 3, bit for bit",
          "[inverse_weighted][family]") {
  rc::prop("K 8, N 2", [] { exact_corner_equals_exact<8, 2>(); });
  rc::prop("K 6, N 1", [] { exact_corner_equals_exact<6, 1>(); });
  rc::prop("K 33, N 3", [] { exact_corner_equals_exact<33, 3>(); });
}

TEST_CASE("inverse_weighted_family: each option does what it names", "[inverse_weighted][family]") {
  static const char* const forms[] = {
      "levels.mbit.window", "levels.mbit.unbounded", "levels.real.window", "levels.real.unbounded",
      "full.mbit.window",   "full.mbit.unbounded",   "full.real.window",   "full.real.unbounded",
      "full.real.lag2",     "levels.mbit.lag1",      "full.mbit.lag3"};
  for (const char* text : forms) {
    rc::prop(text, [text] {
      constexpr std::size_t K = 6;
      const il::load_matrix loads = random_loads(K, 2);
      family<K, 2, 8> f(table_for<K, 2, 8>(text, loads));
      const il::inverse_weighted_form fm = f.form();
      const double q = f.quantum();
      run_stream(f, random_stream(K, 2, 500),
                 [&](const family<K, 2, 8>& before, const family<K, 2, 8>& after,
                     const il::pattern_requests& r, il::grant g) {
                   if (!g) {
                     RC_ASSERT(before == after);
                     return;
                   }
                   // Ordering: full grants a least accumulator; two levels a
                   // high requester whenever one requests.
                   for (std::uint64_t x = r.requests; x != 0; x &= x - 1) {
                     const std::size_t i = il::bits::lowest_index(x);
                     if (fm.ordering == il::iw_ordering::full)
                       RC_ASSERT(before.accumulator(g.index()) <= before.accumulator(i));
                     else if (((before.priority() >> i) & 1u) != 0)
                       RC_ASSERT(((before.priority() >> g.index()) & 1u) != 0);
                   }
                   // Quantization: the charge is the table's weight.
                   const double charged = after.accumulator(g.index()) -
                                          std::max(before.accumulator(g.index()), after.floor());
                   const double w = after.weight(g.index(), r.pattern.at(g.index(), 0));
                   RC_ASSERT(std::abs(charged - w) <= 1e-9 * (1 + std::abs(w)));
                   if (fm.quantization == il::iw_quantization::m_bit) RC_ASSERT(w == std::floor(w));
                   // History.
                   double least = after.accumulator(g.index());
                   for (std::uint64_t x = r.requests; x != 0; x &= x - 1)
                     least = std::min(least, after.accumulator(il::bits::lowest_index(x)));
                   for (std::size_t i = 0; i < K; ++i) {
                     if (fm.history == il::iw_history::window)
                       RC_ASSERT(after.accumulator(i) >= after.base());
                     if (fm.history == il::iw_history::bounded_lag)
                       RC_ASSERT(after.accumulator(i) >= least - fm.lag * q - 1e-9);
                     if (fm.history == il::iw_history::unbounded && i != g.index())
                       RC_ASSERT(after.accumulator(i) == before.accumulator(i));
                   }
                   if (fm.ordering == il::iw_ordering::two_level)
                     for (std::size_t i = 0; i < K; ++i)
                       RC_ASSERT(after.accumulator(i) - after.base() < 2 * q + 1e-9);
                 });
    });
  }
}

TEST_CASE("inverse_weighted_family: real weights are 1 / gamma, the quantum 2^M / beta",
          "[inverse_weighted][family]") {
  // Figure 5's arbiter A, loads 1 and 0.5: M = 8 gives 127 and 254, beta = 127.
  const il::load_matrix a = {{1.0}, {0.5}};
  const auto mbit = table_for<2, 1, 8>("levels.mbit.window", a);
  CHECK(mbit->weight(0, 0) == 127);
  CHECK(mbit->weight(1, 0) == 254);
  CHECK(mbit->quantum() == 256);
  const auto real = table_for<2, 1, 8>("levels.real.window", a);
  CHECK(real->weight(0, 0) == 1.0);
  CHECK(real->weight(1, 0) == 2.0);
  CHECK(real->quantum() == Approx(256.0 / 127.0));
  // 2 bits of headroom: 6-bit weights 31 and 62 (beta 31) in an 8-bit window.
  CHECK(table_for<2, 1, 8>("full.real.unbounded", a, 2)->quantum() == Approx(256.0 / 31.0));
}

TEST_CASE("inverse_weighted_family: Figure 6's trace, with and without the clamp",
          "[inverse_weighted][family]") {
  // Both inputs weigh 3, M = 2 (quantum 4): window_slides_test's trace.
  const auto weights = [](const char* text) {
    return std::make_shared<const il::inverse_weighted_family_table<2, 1, 2>>(
        form(text), std::vector<std::vector<double>>{{3}, {3}}, 4.0);
  };
  family<2, 1, 2> hw(weights("levels.mbit.window")), un(weights("levels.mbit.unbounded")),
      lag(weights("levels.mbit.lag1"));
  for (family<2, 1, 2>* a : {&hw, &un, &lag}) {
    CHECK(step(*a, 0b10).index() == 1);  // acc1 3
    CHECK(step(*a, 0b01).index() == 0);  // acc0 3
    CHECK(step(*a, 0b01).index() == 0);  // acc0 6, low
    CHECK(step(*a, 0b01).index() == 0);  // a slide: base 4, acc0 9
    CHECK(a->base() == 4);
    CHECK(a->accumulator(0) - a->base() == 5);
    CHECK(a->counts().slides == 1);
  }
  // The window zeroes input 1 (3 below the base 4): its 1 unit of owed
  // service is lost when it comes back, a quarter of a quantum.
  CHECK(hw.accumulator(1) - hw.base() == 0);
  CHECK(un.accumulator(1) - un.base() == -1);
  // The lag of one quantum: input 1 may lie 4 below the least requester
  // (input 0, at 9): lifted to 5.
  CHECK(lag.accumulator(1) == 5);
  CHECK(step(hw, 0b11).index() == 1);
  CHECK(hw.counts().zeroed == 1);
  CHECK(hw.counts().quota_lost == 0.25);
  CHECK(step(un, 0b11).index() == 1);
  CHECK(un.counts().zeroed == 0);
  CHECK(un.counts().quota_lost == 0);
  CHECK(step(lag, 0b11).index() == 1);
  CHECK(lag.counts().zeroed == 1);
  CHECK(lag.counts().quota_lost == 0.5);  // lifted from 3 to 5
  // Spread among the two requesters at that grant: hw 9 - 4 = 5 units; the
  // unbounded one 9 - 3 = 6; in quanta.
  CHECK(hw.counts().spread_samples == 1);
  CHECK(hw.counts().spread_mean() == 1.25);
  CHECK(un.counts().spread_max == 1.5);
  CHECK(hw.counts().zeroed_per_grant() == 0.2);
  hw.reset_counts();
  CHECK(std::isnan(hw.counts().quota_lost_per_grant()));
  CHECK(std::isnan(hw.counts().spread_mean()));
}

TEST_CASE("inverse_weighted_family: save and restore", "[inverse_weighted][family]") {
  rc::prop("restoring then continuing decides as never stopping", [] {
    const il::load_matrix loads = random_loads(5, 2);
    const char* text = *rc::gen::element("levels.mbit.window", "full.real.lag2", "full.mbit.window",
                                         "levels.real.unbounded");
    family<5, 2, 8> a(table_for<5, 2, 8>(text, loads));
    const auto s = random_stream(5, 2, 300);
    std::vector<stream_step> first(s.begin(), s.begin() + 150), second(s.begin() + 150, s.end());
    run_stream(a, first, [](auto&&...) {});
    family<5, 2, 8> b(table_for<5, 2, 8>(text, loads));
    const std::vector<std::uint8_t> bytes = il::save_state(a);
    il::restore_state(b, bytes.data(), bytes.size());
    RC_ASSERT(a == b);
    for (const stream_step& x : second) step_both(a, b, x);
    RC_ASSERT(a == b);
  });
}

TEST_CASE("inverse_weighted_family: bad tables are refused naming the field",
          "[inverse_weighted][family]") {
  using table = il::inverse_weighted_family_table<2, 1, 4>;
  const std::vector<std::vector<double>> ok = {{3}, {5}};
  CHECK_THROWS_WITH(table(form("levels.mbit.window"), {{3}, {16}}, 16),
                    Catch::Contains("weight of input 1"));
  CHECK_THROWS_WITH(table(form("levels.mbit.window"), {{2.5}, {3}}, 16),
                    Catch::Contains("whole number"));
  CHECK_THROWS_WITH(table(form("full.real.window"), {{0}, {3}}, 16),
                    Catch::Contains("weight of input 0"));
  CHECK_THROWS_WITH(table(form("full.real.window"), ok, 0), Catch::Contains("quantum"));
  CHECK_THROWS_WITH(table(form("full.real.window"), ok, std::nan("")), Catch::Contains("quantum"));
  CHECK_THROWS_WITH(table(form("full.real.window"), {{3}}, 16), Catch::Contains("weights shape"));
  CHECK_NOTHROW(table(form("full.real.window"), ok, 16));
  using small = family<2, 1, 4>;
  CHECK_THROWS_AS(small(nullptr), il::config_error);
}
