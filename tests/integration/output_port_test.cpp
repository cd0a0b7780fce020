// SPDX-License-Identifier: BSL-1.0
// One output-port loop, written once against the documented surface
// (candidate_view, request_builder, arbitrate/commit), drives every arbiter
// and output scheduler of interlock and checks the named invariants for
// each: what a router built on interlock relies on.
#include <algorithm>
#include <array>
#include <cstdint>

#include <interlock/arbiters/age_clock.hpp>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weighted_exact.hpp>
#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/core/arbiter_traits.hpp>
#include <interlock/core/candidates.hpp>
#include <interlock/core/invariants.hpp>
#include <interlock/qos/dtable.hpp>
#include <interlock/qos/ib_vl_arbiter.hpp>
#include <interlock/qos/sbt.hpp>

#include "support/interlock_test.hpp"

namespace {

// ---- the generic output port: nothing here knows which policy it drives ----

/// Per-candidate packet fields, as a router keeps them for the heads of its buffers.
struct heads {
  std::array<std::uint16_t, 64> age{};
  std::array<std::uint8_t, 64> pattern{};
  std::array<std::uint32_t, 64> flits{};
  std::array<std::uint8_t, 64> priority{};
  interlock::candidate_view view(std::uint64_t requests) const {
    return interlock::candidate_view{requests, age, pattern, flits, priority};
  }
};

/// One decision at an output: build the request, decide, check, commit if used.
/// Returns the grant.
template <class Policy>
struct subject;
struct world;
template <class Policy>
interlock::grant decide(Policy& policy, interlock::request_builder<Policy>& build,
                        const interlock::candidate_view& view, bool used, world& w) {
  static_assert(interlock::require_arbiter<Policy>());
  const auto request = build(view);
  const Policy before = policy;
  const interlock::grant g = policy.arbitrate(request);
  REQUIRE(policy == before);  // deciding changes nothing
  REQUIRE(interlock::invariants::grant_implies_request(view.requests, g));
  REQUIRE(interlock::invariants::work_conserving(view.requests, g));
  REQUIRE(interlock::invariants::no_state_change_without_commit(policy, request));
  subject<Policy>::check(before, view, g, w);
  if (used) {
    policy.commit(g, request);
  } else {
    policy.commit(interlock::grant(), request);
    REQUIRE(policy == before);
  }
  return g;
}

// ---- how each policy is made: the only per-type code -------------------

constexpr std::size_t candidates = 28;  // a SeaStar output: 7 sources x 4 VCs

struct world {
  interlock::age_clock clock{4};
};

template <class Policy>
struct subject;

/// What a policy adds to the shared invariants, read from the view (so a
/// builder that drops a field is caught): nothing by default.
struct no_extra_check {
  template <class Policy>
  static void check(const Policy&, const interlock::candidate_view&, interlock::grant, world&) {}
};

template <>
struct subject<interlock::round_robin_arbiter<candidates>> : no_extra_check {
  using policy = interlock::round_robin_arbiter<candidates>;
  static constexpr std::size_t width = candidates;
  static policy make(world&) { return policy(); }
  static interlock::request_builder<policy> builder(const policy& p, world&) {
    return interlock::request_builder<policy>(p);
  }
};
template <>
struct subject<interlock::priority_arbiter<candidates, 3>> {
  using policy = interlock::priority_arbiter<candidates, 3>;
  // priority_respected, from the view's priority field.
  static void check(const policy&, const interlock::candidate_view& v, interlock::grant g, world&) {
    if (!g) return;
    unsigned highest = 0;
    for (std::uint64_t x = v.requests; x != 0; x &= x - 1)
      highest = std::max<unsigned>(highest, v.priority[interlock::bits::lowest_index(x)]);
    REQUIRE(v.priority[g.index()] == highest);
  }
  static constexpr std::size_t width = candidates;
  static policy make(world&) { return policy(); }
  static interlock::request_builder<policy> builder(const policy& p, world&) {
    return interlock::request_builder<policy>(p);
  }
};
template <>
struct subject<interlock::age_epoch_arbiter<candidates>> {
  using policy = interlock::age_epoch_arbiter<candidates>;
  // age_respected in age mode, from the view's age fields and the clock.
  static void check(const policy& before, const interlock::candidate_view& v, interlock::grant g,
                    world& w) {
    if (!g || before.policy(w.clock.inhibit()) != interlock::age_policy::age) return;
    std::array<std::uint8_t, 64> ages{};
    for (std::size_t i = 0; i < candidates; ++i)
      ages[i] = interlock::output_age(interlock::age_field::from_bits(v.age[i]), w.clock).new_age;
    REQUIRE(interlock::invariants::age_respected(v.requests, ages, g));
  }
  static constexpr std::size_t width = candidates;
  static policy make(world&) {
    return policy(interlock::seastar_output_port, 0x5555555555555555u);  // half age, half RR
  }
  static interlock::request_builder<policy> builder(const policy& p, world& w) {
    return interlock::request_builder<policy>(p, w.clock);
  }
};
template <>
struct subject<interlock::inverse_weighted_arbiter<candidates, 2, 8>> : no_extra_check {
  using policy = interlock::inverse_weighted_arbiter<candidates, 2, 8>;
  static constexpr std::size_t width = candidates;
  static policy make(world&) {
    interlock::load_matrix loads(candidates);
    for (std::size_t i = 0; i < candidates; ++i)
      loads[i] = {1.0 + static_cast<double>(i % 5), 0.5 + static_cast<double>(i % 3)};
    return policy(interlock::weights_from_loads(loads, 8));
  }
  static interlock::request_builder<policy> builder(const policy& p, world&) {
    return interlock::request_builder<policy>(p);
  }
};
template <>
struct subject<interlock::inverse_weighted_exact<candidates, 2>> : no_extra_check {
  using policy = interlock::inverse_weighted_exact<candidates, 2>;
  static constexpr std::size_t width = candidates;
  static policy make(world&) {
    interlock::load_matrix loads(candidates);
    for (std::size_t i = 0; i < candidates; ++i)
      loads[i] = {1.0 + static_cast<double>(i % 5), 0.5 + static_cast<double>(i % 3)};
    return policy(loads);
  }
  static interlock::request_builder<policy> builder(const policy& p, world&) {
    return interlock::request_builder<policy>(p);
  }
};
template <>
struct subject<interlock::qos::sbt_scheduler> : no_extra_check {
  using policy = interlock::qos::sbt_scheduler;
  static constexpr std::size_t width = 16;
  static policy make(world&) {
    return policy({40, 30, 20, 10}, {0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3, 0, 1, 2, 3});
  }
  static interlock::request_builder<policy> builder(const policy& p, world&) {
    return interlock::request_builder<policy>(p);
  }
};
template <>
struct subject<interlock::qos::dtable_scheduler> : no_extra_check {
  using policy = interlock::qos::dtable_scheduler;
  static constexpr std::size_t width = 16;
  static policy make(world&) {
    return policy({{0, 8}, {1, 4}, {2, 4}, {0, 8}, {3, 4}, {1, 6}},
                  {0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3, 0, 1, 2, 3}, {4, 4, 4, 4});
  }
  static interlock::request_builder<policy> builder(const policy& p, world&) {
    return interlock::request_builder<policy>(p, 1);
  }
};
template <>
struct subject<interlock::qos::ib_vl_arbiter> : no_extra_check {
  using policy = interlock::qos::ib_vl_arbiter;
  static constexpr std::size_t width = 15;
  static policy make(world&) {
    interlock::qos::ib_vl_arbitration_config c;
    for (std::uint8_t vl = 0; vl < 15; ++vl) {
      if (vl % 3 == 0) c.high.push_back({vl, static_cast<std::uint8_t>(2 + vl)});
      c.low.push_back({vl, static_cast<std::uint8_t>(1 + vl % 4)});
    }
    c.limit_of_high_priority = 1;
    return policy(c);
  }
  static interlock::request_builder<policy> builder(const policy& p, world&) {
    return interlock::request_builder<policy>(p, 64);
  }
};

}  // namespace

TEMPLATE_TEST_CASE("every policy through the same output-port loop", "[output_port][property]",
                   interlock::round_robin_arbiter<candidates>,
                   (interlock::priority_arbiter<candidates, 3>),
                   interlock::age_epoch_arbiter<candidates>,
                   (interlock::inverse_weighted_arbiter<candidates, 2, 8>),
                   (interlock::inverse_weighted_exact<candidates, 2>),
                   interlock::qos::sbt_scheduler, interlock::qos::dtable_scheduler,
                   interlock::qos::ib_vl_arbiter) {
  using policy = TestType;
  STATIC_REQUIRE(interlock::has_request_builder_v<policy>);
  interlock_test::splitmix rng(20261122);
  world w;
  policy p = subject<policy>::make(w);
  auto build = subject<policy>::builder(p, w);
  constexpr std::size_t width = subject<policy>::width;
  const std::uint64_t all = interlock::bits::low_mask(width);
  heads h;
  std::uint64_t waiting = 0;  // candidates with a head packet
  std::array<std::size_t, 64> served{};
  for (int step = 0; step < 20000; ++step) {
    // New head packets arrive at empty candidates; their fields are random.
    for (std::uint64_t x = all & ~waiting; x != 0; x &= x - 1) {
      const std::size_t i = interlock::bits::lowest_index(x);
      if (rng.below(3) != 0) continue;
      waiting |= interlock::bits::bit(i);
      interlock::age_field f = interlock::receive_packet(
          interlock::age_field::with_age(static_cast<std::uint8_t>(rng.below(64))),
          static_cast<unsigned>(i % 4), interlock::age_bias{}, w.clock);
      h.age[i] = f.bits();
      h.pattern[i] = static_cast<std::uint8_t>(rng.below(2));
      h.flits[i] = static_cast<std::uint32_t>(1 + rng.below(4));
      h.priority[i] = static_cast<std::uint8_t>(rng.below(3));
    }
    // Some candidates are blocked (no credits downstream) this cycle.
    const std::uint64_t requests = waiting & ~(rng.next() & rng.next());
    const bool used = rng.below(8) != 0;  // the output is sometimes lost to another allocator
    const interlock::grant g = decide(p, build, h.view(requests), used, w);
    if (used && g) {
      waiting &= ~interlock::bits::bit(g.index());
      ++served[g.index()];
      interlock::send_packet(interlock::age_field::from_bits(h.age[g.index()]), w.clock);
    }
    w.clock.tick();
  }
  // Nobody starves: every candidate was served.
  for (std::size_t i = 0; i < width; ++i) CHECK(served[i] > 0);
}
