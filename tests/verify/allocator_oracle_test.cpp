// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/verify/allocator_oracle.hpp: every interlock allocator
// keeps its matching rules and its stated bound on random request matrices,
// and allocators written to break each rule are caught.
#include "support/interlock_test.hpp"

#include <cstdint>

#include <interlock/allocators/islip.hpp>
#include <interlock/allocators/separable.hpp>
#include <interlock/allocators/wavefront.hpp>
#include <interlock/verify/allocator_oracle.hpp>

namespace verify = interlock::verify;
using interlock_test::splitmix;

namespace {

template <std::size_t I, std::size_t O>
interlock::request_matrix<I, O> drawn(splitmix& rng, int density) {
  interlock::request_matrix<I, O> r;
  for (auto& row : r.rows) {
    const std::uint64_t a = rng(), b = rng();
    row = (density == 0 ? a & b : density == 1 ? a : a | b) & interlock::bits::low_mask(O);
  }
  return r;
}

// Runs `allocate` on random matrices; the oracle after the run.
template <std::size_t I, std::size_t O, class Allocate>
verify::allocator_oracle run(Allocate allocate, verify::allocator_properties p, std::uint64_t seed,
                             int decisions) {
  splitmix rng(seed);
  verify::allocator_oracle oracle(I, O, p);
  const int density = static_cast<int>(seed % 3);
  for (int t = 0; t < decisions; ++t) {
    const auto r = drawn<I, O>(rng, density);
    if (!oracle.observe(r, allocate(r))) break;
  }
  return oracle;
}

constexpr int decisions = interlock_test::sized(5000, 500);

}  // namespace

TEST_CASE("allocator_oracle: separable allocators serve an input within I x O", "[verify]") {
  rc::prop("separable input-first and output-first, 5 x 3", [] {
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    verify::allocator_properties p;
    p.input_wait_bound = 5 * 3 - 1;
    interlock::separable_input_first<5, 3> in;
    auto a = run<5, 3>([&](const auto& r) { return in.allocate(r); }, p, seed, decisions);
    if (!a.passed()) RC_FAIL(a.violation()->what());
    interlock::separable_output_first<5, 3> out;
    auto b = run<5, 3>([&](const auto& r) { return out.allocate(r); }, p, seed, decisions);
    if (!b.passed()) RC_FAIL(b.violation()->what());
  });
}

TEST_CASE("allocator_oracle: wavefront is maximal and grants a request within its side",
          "[verify]") {
  rc::prop("wavefront 6 x 4", [] {
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    verify::allocator_properties p;
    p.maximal = true;
    p.request_wait_bound = 6 - 1;
    interlock::wavefront_allocator<6, 4> wf;
    auto o = run<6, 4>([&](const auto& r) { return wf.allocate(r); }, p, seed, decisions);
    if (!o.passed()) RC_FAIL(o.violation()->what());
  });
}

TEST_CASE("allocator_oracle: iSLIP with min(I, O) iterations is maximal", "[verify]") {
  rc::prop("iSLIP 4 x 7, 4 iterations", [] {
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    verify::allocator_properties p;
    p.maximal = true;
    interlock::islip_allocator<4, 7> islip(4);
    auto o = run<4, 7>([&](const auto& r) { return islip.allocate(r); }, p, seed, decisions);
    if (!o.passed()) RC_FAIL(o.violation()->what());
  });
}

TEST_CASE("allocator_oracle: each broken rule is caught with its decision", "[verify]") {
  verify::allocator_oracle oracle(3, 3, verify::allocator_properties{});
  const std::uint64_t rows[3] = {0b001, 0b011, 0b100};
  const int fine[3] = {0, 1, 2};
  CHECK(oracle.observe_rows(rows, fine));
  const int unrequested[3] = {0, 2, -1};
  CHECK_FALSE(oracle.observe_rows(rows, unrequested));
  CHECK(oracle.violation()->what() ==
        "matching_requested violated at cycle 1: pair 1-2 is not a request");

  verify::allocator_oracle twice(3, 3, verify::allocator_properties{});
  const int same[3] = {0, 0, -1};
  CHECK_FALSE(twice.observe_rows(rows, same));
  CHECK(twice.violation()->property == "one_to_one");

  verify::allocator_properties maximal;
  maximal.maximal = true;
  verify::allocator_oracle greedy(3, 3, maximal);
  const int short_of[3] = {-1, -1, 2};  // input 0 could have had output 0
  CHECK_FALSE(greedy.observe_rows(rows, short_of));
  CHECK_THAT(greedy.violation()->detail,
             Catch::Contains("input 0 and output 0 are both unmatched"));
}

TEST_CASE("allocator_oracle: a fixed-priority allocator starves an input", "[verify]") {
  // Input 0 and 1 both want output 0 every time; input 1 always wins.
  verify::allocator_properties p;
  p.input_wait_bound = 3;
  p.request_wait_bound = 3;
  verify::allocator_oracle oracle(2, 1, p);
  const std::uint64_t rows[2] = {1, 1};
  const int favour_one[2] = {-1, 0};
  for (int t = 0; t < 3; ++t) CHECK(oracle.observe_rows(rows, favour_one));
  CHECK_FALSE(oracle.observe_rows(rows, favour_one));
  CHECK(oracle.violation()->what() ==
        "input_wait_bound violated at cycle 3: input 0 requested output 0 and was left "
        "unmatched 4 decisions in a row (bound 3)");
  CHECK(oracle.max_input_wait() == 4);
  verify::allocator_properties pairs;
  pairs.request_wait_bound = 3;
  verify::allocator_oracle by_pair(2, 1, pairs);
  for (int t = 0; t < 3; ++t) CHECK(by_pair.observe_rows(rows, favour_one));
  CHECK_FALSE(by_pair.observe_rows(rows, favour_one));
  CHECK(by_pair.violation()->what() ==
        "request_wait_bound violated at cycle 3: request 0-0 not granted 4 decisions in a row "
        "(bound 3)");
  CHECK_THROWS_WITH(verify::allocator_oracle(0, 4, {}), Catch::Contains("inputs = 0"));
}
