// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/allocators: separable (input- and output-first), iSLIP, wavefront.
#include <array>
#include <cstdint>

#include <interlock/allocators/islip.hpp>
#include <interlock/allocators/request_matrix.hpp>
#include <interlock/allocators/separable.hpp>
#include <interlock/allocators/wavefront.hpp>
#include <interlock/arbiters/priority.hpp>

#include "support/interlock_test.hpp"

using interlock::matching;
using interlock::request_matrix;
namespace inv = interlock::invariants;

namespace {

template <std::size_t I, std::size_t O>
request_matrix<I, O> random_requests(interlock_test::splitmix& rng, unsigned density_eighths) {
  request_matrix<I, O> r;
  for (std::size_t i = 0; i < I; ++i)
    for (std::size_t o = 0; o < O; ++o)
      if (rng.below(8) < density_eighths) r.set(i, o);
  return r;
}

template <std::size_t I, std::size_t O>
bool is_matching(const matching<I, O>& m) {
  std::uint64_t outs = 0;
  bool ok = true;
  m.for_each([&](std::size_t, std::size_t o) {
    ok = ok && o < O && (outs >> o & 1u) == 0;
    outs |= interlock::bits::bit(o);
  });
  return ok && outs == m.matched_outputs();
}

// iSLIP written as loops over integer pointers, in the thermometer order of
// interlock's round robin: the pointer is the index searched first, downward
// and cyclically; after serving g it becomes g - 1.
template <std::size_t I, std::size_t O>
struct islip_reference {
  std::array<std::size_t, O> grant_ptr;
  std::array<std::size_t, I> accept_ptr;
  std::size_t iterations;
  explicit islip_reference(std::size_t its) : iterations(its) {
    grant_ptr.fill(I - 1);
    accept_ptr.fill(O - 1);
  }
  static std::size_t search(std::size_t from, std::size_t n, const bool* eligible) {
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t x = (from + n - k) % n;
      if (eligible[x]) return x;
    }
    return n;
  }
  matching<I, O> allocate(const request_matrix<I, O>& r) {
    matching<I, O> m;
    std::array<bool, I> in_free;
    std::array<bool, O> out_free;
    in_free.fill(true);
    out_free.fill(true);
    for (std::size_t it = 0; it < iterations; ++it) {
      std::array<std::array<bool, O>, I> granted{};
      bool any = false;
      for (std::size_t o = 0; o < O; ++o) {
        if (!out_free[o]) continue;
        std::array<bool, I> req{};
        for (std::size_t i = 0; i < I; ++i) req[i] = in_free[i] && r.test(i, o);
        const std::size_t g = search(grant_ptr[o], I, req.data());
        if (g < I) granted[g][o] = any = true;
      }
      if (!any) break;
      for (std::size_t i = 0; i < I; ++i) {
        const std::size_t a = search(accept_ptr[i], O, granted[i].data());
        if (a == O) continue;
        m.add(i, a);
        in_free[i] = false;
        out_free[a] = false;
        if (it == 0) {
          grant_ptr[a] = (i + I - 1) % I;
          accept_ptr[i] = (a + O - 1) % O;
        }
      }
    }
    return m;
  }
};

template <std::size_t I, std::size_t O>
void islip_against_reference(std::size_t iterations, std::uint64_t seed) {
  interlock_test::splitmix rng(seed);
  interlock::islip_allocator<I, O> islip(iterations);
  islip_reference<I, O> ref(iterations);
  for (int step = 0; step < 300; ++step) {
    const auto r = random_requests<I, O>(rng, static_cast<unsigned>(rng.below(9)));
    const auto m = islip.allocate(r);
    RC_ASSERT(m == ref.allocate(r));
    RC_ASSERT(inv::matching_requested(r, m));
    RC_ASSERT(is_matching(m));
    if (iterations >= (I < O ? I : O)) RC_ASSERT(inv::maximal_matching(r, m));
  }
}

}  // namespace

TEST_CASE("iSLIP equals a loop reference, and is maximal within min(I, O) iterations",
          "[allocators][islip][property]") {
  rc::prop("5x5, 7x7, 28x7, 64x64, any iterations", [] {
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    const auto its = *rc::gen::inRange<std::size_t>(1, 9);
    islip_against_reference<5, 5>(its, seed);
    islip_against_reference<7, 7>(its, seed);
    islip_against_reference<28, 7>(its, seed);
    islip_against_reference<7, 7>(7, seed);
    islip_against_reference<28, 7>(7, seed);
    islip_against_reference<64, 64>(*rc::gen::element<std::size_t>(1, 64), seed);
  });
}

TEST_CASE("iSLIP moves a pointer only for a pair it decided and the router used",
          "[allocators][islip][property]") {
  // (Which pairs move pointers, the first iteration's, is checked by the
  // reference above over long sequences.)
  rc::prop("deciding moves nothing; dropped pairs move nothing", [] {
    interlock_test::splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    interlock::islip_allocator<8, 8> islip(3);
    for (int step = 0; step < 50; ++step) {
      const auto r = random_requests<8, 8>(rng, 5);
      const auto before = islip;
      auto m = islip.arbitrate(r);
      RC_ASSERT(islip == before);
      islip.commit(matching<8, 8>{}, r);
      RC_ASSERT(islip == before);
      std::size_t dropped = 8, dropped_output = 8;
      if (!m.empty() && rng.below(2) == 0) {
        dropped = interlock::bits::lowest_index(m.matched_inputs());
        dropped_output = m.output_of(dropped).index();
        m.remove(dropped);
      }
      islip.commit(m, r);
      for (std::size_t i = 0; i < 8; ++i)
        if (!(islip.accept_pointer(i) == before.accept_pointer(i)))
          RC_ASSERT(m.output_of(i).valid());
      for (std::size_t o = 0; o < 8; ++o)
        if (!(islip.grant_pointer(o) == before.grant_pointer(o))) RC_ASSERT(m.input_of(o).valid());
      if (dropped < 8) {
        RC_ASSERT(islip.accept_pointer(dropped) == before.accept_pointer(dropped));
        RC_ASSERT(islip.grant_pointer(dropped_output) == before.grant_pointer(dropped_output));
      }
    }
  });
  using small = interlock::islip_allocator<4, 4>;
  CHECK_THROWS_WITH(small(0), "islip_allocator: iterations = 0; allowed: 1..64");
  CHECK_THROWS_AS(small(65), interlock::config_error);
}

TEST_CASE("wavefront: maximal, fair, and the worked example", "[allocators][wavefront]") {
  // Priority diagonal 0 first: (0,0), (1,1), (2,2), (3,3); then diagonal 1:
  // (0,1), (1,2), (2,3), (3,0); and so on.
  request_matrix<4, 4> r;
  r.set(0, 0).set(0, 1).set(1, 1).set(2, 3).set(3, 0);
  interlock::wavefront_allocator<4, 4> wf;
  auto m = wf.arbitrate(r);
  CHECK(m.contains(0, 0));
  CHECK(m.contains(1, 1));
  CHECK(m.contains(2, 3));              // diagonal 1
  CHECK_FALSE(m.output_of(3).valid());  // column 0 already taken on diagonal 0
  wf.commit(m, r);
  CHECK(wf.priority_diagonal() == 1);
  m = wf.arbitrate(r);  // diagonal 1 first: (0,1), (2,3), (3,0)
  CHECK(m.contains(0, 1));
  CHECK(m.contains(2, 3));
  CHECK(m.contains(3, 0));
  CHECK_FALSE(m.output_of(1).valid());
  wf.commit(matching<4, 4>{}, r);  // nothing used: the priority stays
  CHECK(wf.priority_diagonal() == 1);

  rc::prop("maximal matchings, and a persistent request is served within S allocations", [] {
    interlock_test::splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    interlock::wavefront_allocator<28, 7> w(static_cast<std::size_t>(rng.below(28)));
    const auto requests = random_requests<28, 7>(rng, static_cast<unsigned>(rng.below(9)));
    std::array<int, 28 * 7> waited{};
    for (int step = 0; step < 100; ++step) {
      const auto granted = w.allocate(requests);
      RC_ASSERT(inv::matching_requested(requests, granted));
      RC_ASSERT(is_matching(granted));
      RC_ASSERT(inv::maximal_matching(requests, granted));
      for (std::size_t i = 0; i < 28; ++i)
        for (std::size_t o = 0; o < 7; ++o) {
          if (!requests.test(i, o)) continue;
          int& wait = waited[i * 7 + o];
          wait = granted.contains(i, o) ? 0 : wait + 1;
          // On its diagonal's turn a persistent request leads the sweep:
          // it waits fewer than S = 28 allocations.
          RC_ASSERT(wait < 28);
        }
    }
  });
}

TEST_CASE("separable allocators: requested, matchings, commit only what is used",
          "[allocators][separable][property]") {
  rc::prop("input-first and output-first with round robin", [] {
    interlock_test::splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    interlock::separable_input_first<7, 7> in_first;
    interlock::separable_output_first<28, 7> out_first;
    std::array<int, 7> last_served{};
    for (int step = 0; step < 200; ++step) {
      const auto r7 = random_requests<7, 7>(rng, static_cast<unsigned>(rng.below(9)));
      const auto before = in_first;
      auto m = in_first.arbitrate(r7);
      RC_ASSERT(in_first == before);
      RC_ASSERT(inv::matching_requested(r7, m));
      RC_ASSERT(is_matching(m));
      // A separable allocator leaves no output idle that some input picked.
      for (std::size_t o = 0; o < 7; ++o)
        if (r7.columns()[o] != 0 && m.input_of(o).valid())
          RC_ASSERT(r7.test(m.input_of(o).index(), o));
      // Unused pairs leave their arbiters as they were.
      std::size_t dropped = 7;
      if (!m.empty() && rng.below(2) == 0) {
        dropped = interlock::bits::lowest_index(m.matched_inputs());
        const std::size_t o = m.output_of(dropped).index();
        m.remove(dropped);
        in_first.commit(m, r7);
        RC_ASSERT(in_first.input_arbiter(dropped) == before.input_arbiter(dropped));
        RC_ASSERT(in_first.output_arbiter(o) == before.output_arbiter(o));
      } else {
        in_first.commit(m, r7);
      }
      static_cast<void>(last_served);

      const auto r28 = random_requests<28, 7>(rng, static_cast<unsigned>(rng.below(9)));
      const auto m28 = out_first.allocate(r28);
      RC_ASSERT(inv::matching_requested(r28, m28));
      RC_ASSERT(is_matching(m28));
      // Output-first: every output with a requester is matched (it offers,
      // and an offered input accepts one offer; outputs can lose only to
      // another offer accepted by the same input).
      std::size_t offered = 0;
      for (std::size_t o = 0; o < 7; ++o) offered += r28.columns()[o] != 0;
      RC_ASSERT(m28.size() >= (offered > 0 ? 1u : 0u));
    }
  });
}

TEST_CASE("separable allocator over priority arbiters with a request maker",
          "[allocators][separable]") {
  // Inputs ask outputs at priority levels; the output stage honours them.
  using out_arbiter = interlock::priority_arbiter<4, 2>;
  interlock::separable_input_first<4, 2, interlock::round_robin_arbiter<2>, out_arbiter> sa;
  request_matrix<4, 2> r;
  r.set(0, 0).set(1, 0).set(2, 0).set(3, 1);
  const std::uint64_t urgent_inputs = 0b0010;  // input 1 at the high level
  auto make = [&](interlock::allocator_stage stage, std::size_t, std::uint64_t mask) {
    if (stage == interlock::allocator_stage::input) return interlock::priority_requests<2>{};
    interlock::priority_requests<2> p;
    p.levels[1] = mask & urgent_inputs;
    p.levels[0] = mask & ~urgent_inputs;
    return p;
  };
  // The input arbiters take masks; only the output stage takes levels.
  struct maker {
    decltype(make)* f;
    struct result {
      std::uint64_t mask;
      interlock::priority_requests<2> levels;
      operator std::uint64_t() const { return mask; }
      operator interlock::priority_requests<2>() const { return levels; }
    };
    result operator()(interlock::allocator_stage s, std::size_t i, std::uint64_t m) const {
      return result{m, (*f)(s, i, m)};
    }
  };
  for (int round = 0; round < 4; ++round) {
    const auto m = sa.allocate(r, maker{&make});
    CHECK(m.contains(1, 0));  // the urgent input always wins output 0
    CHECK(m.contains(3, 1));
  }
}
