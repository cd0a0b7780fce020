// SPDX-License-Identifier: BSL-1.0
// The RTL arbiters of examples/integrations/rtl/rtl, as Verilator compiles
// them, against interlock's policies, cycle by cycle (verify/rtl_cosim.hpp):
// random streams with idle stretches, saturation, withheld commits and
// resets, 10,000 cycles per case and 100 cases per configuration (1,000,000
// cycles; the sanitizer build runs 1,000 per case), with the oracle's
// properties and each arbiter's wait bound. Then the deliberately wrong RTL,
// each caught.
#include "support/interlock_test.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/verify/arbiter_bounds.hpp>
#include <interlock/verify/rtl_cosim.hpp>

#include "Vage_28.h"
#include "Vage_5.h"
#include "Vinverse_16_2_5.h"
#include "Vinverse_2_1_3.h"
#include "Vinverse_6_2_8.h"
#include "Vmutant_narrow.h"
#include "Vmutant_negedge.h"
#include "Vmutant_pointer.h"
#include "Vmutant_therm.h"
#include "Vmutant_underflow.h"
#include "Vpriority_1_1.h"
#include "Vpriority_64_4.h"
#include "Vpriority_7_3.h"
#include "Vpriority_8_1.h"

namespace verify = interlock::verify;

namespace {

constexpr std::uint64_t cycles_per_case = interlock_test::sized<std::uint64_t>(10000, 1000);

// One co-simulation of `cycles` cycles from `seed`; the failure, or empty.
template <class Model, class Policy>
std::string cosim(const Policy& policy, std::size_t wait_bound, std::uint64_t seed,
                  std::uint64_t cycles) {
  Model rtl;
  verify::arbiter_properties p;
  p.wait_bound = wait_bound;
  verify::rtl_cosim<Model, Policy> sim(rtl, policy, p);
  verify::rtl_stimulus_stream stream(policy.size(), verify::rtl_ports::field_values(policy), seed);
  sim.run(stream, cycles);
  return sim.failure();
}

template <class Model, class Policy>
void agrees(const Policy& policy, std::size_t wait_bound) {
  const std::string failure =
      cosim<Model>(policy, wait_bound, *rc::gen::arbitrary<std::uint64_t>(), cycles_per_case);
  if (!failure.empty()) RC_FAIL(failure);
}

template <std::size_t K, std::size_t N, unsigned M>
interlock::inverse_weighted_arbiter<K, N, M> drawn_weights() {
  std::vector<std::vector<std::uint32_t>> w(K, std::vector<std::uint32_t>(N));
  for (auto& row : w)
    for (auto& m : row) m = *rc::gen::inRange<std::uint32_t>(1, 1u << M);
  return interlock::inverse_weighted_arbiter<K, N, M>(w);
}

template <std::size_t N>
interlock::age_epoch_arbiter<N> drawn_select() {
  const int kind = *rc::gen::inRange(0, 3);
  const std::uint64_t select = kind == 0   ? 0
                               : kind == 1 ? ~std::uint64_t{0}
                                           : *rc::gen::arbitrary<std::uint64_t>();
  return interlock::age_epoch_arbiter<N>(select);
}

}  // namespace

TEST_CASE("anton2_priority_arbiter.sv: round robin (P = 1) of 1 and 8", "[rtl]") {
  rc::prop("N = 1", [] {
    agrees<Vpriority_1_1>(interlock::round_robin_arbiter<1>{}, verify::round_robin_wait_bound(1));
  });
  rc::prop("N = 8", [] {
    agrees<Vpriority_8_1>(interlock::round_robin_arbiter<8>{}, verify::round_robin_wait_bound(8));
  });
}

TEST_CASE("anton2_priority_arbiter.sv: P levels, 7 and 64 requesters", "[rtl]") {
  rc::prop("N = 7, P = 3", [] {
    agrees<Vpriority_7_3>(interlock::priority_arbiter<7, 3>{}, verify::priority_wait_bound(7));
  });
  rc::prop("N = 64, P = 4", [] {
    agrees<Vpriority_64_4>(interlock::priority_arbiter<64, 4>{}, verify::priority_wait_bound(64));
  });
}

TEST_CASE("anton2_inverse_weighted_arbiter.sv: Figure 6's hardware model, drawn weights", "[rtl]") {
  rc::prop("K = 2, one pattern, M = 3", [] {
    const auto policy = drawn_weights<2, 1, 3>();
    agrees<Vinverse_2_1_3>(policy, verify::inverse_weighted_wait_bound(policy));
  });
  rc::prop("K = 6, two patterns, M = 8", [] {
    const auto policy = drawn_weights<6, 2, 8>();
    agrees<Vinverse_6_2_8>(policy, verify::inverse_weighted_wait_bound(policy));
  });
  rc::prop("K = 16, two patterns, M = 5", [] {
    const auto policy = drawn_weights<16, 2, 5>();
    agrees<Vinverse_16_2_5>(policy, verify::inverse_weighted_wait_bound(policy));
  });
}

TEST_CASE("xt_age_epoch_arbiter.sv: AGE_RR_SELECT all 0s, all 1s or drawn", "[rtl]") {
  rc::prop("N = 5", [] {
    const auto policy = drawn_select<5>();
    agrees<Vage_5>(policy, verify::age_epoch_wait_bound(5, policy.age_rr_select(), true));
  });
  rc::prop("N = 28 (the SeaStar's 7 sources x 4 VCs)", [] {
    const auto policy = drawn_select<28>();
    agrees<Vage_28>(policy, verify::age_epoch_wait_bound(28, policy.age_rr_select(), true));
  });
}

TEST_CASE("wrong RTL: rr_therm updated on the falling edge", "[rtl]") {
  const std::string failure =
      cosim<Vmutant_negedge>(interlock::priority_arbiter<8, 2>{}, 7, 1, 100000);
  CHECK_THAT(failure, Catch::Contains(" differs: RTL 0x"));
}

TEST_CASE("wrong RTL: rr_therm one bit too far after a grant", "[rtl]") {
  const std::string failure =
      cosim<Vmutant_therm>(interlock::priority_arbiter<8, 2>{}, 7, 1, 100000);
  CHECK_THAT(failure, Catch::Contains("state_rr_therm differs"));
}

TEST_CASE("wrong RTL: the accumulator's adder one bit too narrow", "[rtl]") {
  const interlock::inverse_weighted_arbiter<4, 2, 4> policy(
      std::vector<std::vector<std::uint32_t>>{{3, 15}, {7, 1}, {15, 15}, {2, 9}});
  const std::string failure = cosim<Vmutant_narrow>(policy, 1000, 1, 100000);
  CHECK_THAT(failure, Catch::Contains("state_acc["));
}

TEST_CASE("wrong RTL: a slide that does not zero an accumulator below the window", "[rtl]") {
  const interlock::inverse_weighted_arbiter<4, 2, 4> policy(
      std::vector<std::vector<std::uint32_t>>{{3, 15}, {7, 1}, {15, 15}, {2, 9}});
  const std::string failure = cosim<Vmutant_underflow>(policy, 1000, 1, 100000);
  CHECK_THAT(failure, Catch::Contains("state_acc["));
}

TEST_CASE("wrong RTL: the round-robin pointer moved by age grants too", "[rtl]") {
  const std::string failure = cosim<Vmutant_pointer>(
      interlock::age_epoch_arbiter<5>(interlock::parse_age_rr_select("half")), 8, 1, 100000);
  CHECK_THAT(failure, Catch::Contains("state_rr_therm differs"));
}
